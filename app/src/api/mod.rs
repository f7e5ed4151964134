//! Types and server functions shared by the browser and the server.

#[cfg(feature = "ssr")]
pub mod backend;
pub mod catalog;
pub mod error;
pub mod events;
pub mod functions;
pub mod status;

pub use error::{ApiError, ErrorCode};
pub use events::{ChatEvent, ChatRequest, MAX_QUESTION_CHARS};
pub use status::Health;
