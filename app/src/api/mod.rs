//! Types and server functions shared by the browser and the server.

pub mod admin;
#[cfg(feature = "ssr")]
pub mod backend;
pub mod catalog;
pub mod closed_set;
pub mod conversation;
pub mod error;
pub mod events;
pub mod functions;
pub mod requests;
pub mod status;
pub mod stream;
pub mod vocabulary;

pub use error::{ApiError, ErrorCode};
pub use events::{
    AnswerSource, Card, ChatEvent, ChatRequest, Citation, CitationKind, MAX_QUESTION_CHARS,
    RequestDraft,
};
pub use status::Health;
