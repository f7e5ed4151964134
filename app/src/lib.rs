//! Registry Chat's browser app and the API it shares with the server.
//!
//! `api` compiles everywhere (types and server-function declarations); `ui` is the
//! Leptos single-page app and compiles only for the browser (`csr`).

pub mod api;
pub mod markdown;
pub mod routes;
#[cfg(feature = "csr")]
pub mod ui;

/// Product name shown in the page and the CLI.
pub const PRODUCT_NAME: &str = "Registry Chat";
