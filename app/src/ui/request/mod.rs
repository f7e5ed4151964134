//! "Request CodeBundle": when nothing fits (or an answer falls short), a form
//! prefilled from the conversation that first shows the closest existing bundles
//! and similar earlier requests, then saves the request and shows its reference
//! and markdown for an issue tracker.

mod dialog;

pub use dialog::RequestDialog;
