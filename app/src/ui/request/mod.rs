//! "Request CodeBundle": when nothing fits (or an answer falls short), a form
//! prefilled from the conversation that first shows the closest existing bundles
//! and similar earlier requests, then saves the request and shows its reference
//! and markdown, and what became of it in the team's issue tracker when one is
//! configured.

mod dialog;
mod tracker;

pub use dialog::RequestDialog;
