//! Talking to model servers (OpenAI-compatible and Azure OpenAI): our own lenient
//! streaming client with retries and timeouts.

mod client;
mod error;
pub mod retry;
pub mod tls;
mod types;

pub use client::{DeltaStream, LlmClient};
pub use error::LlmError;
pub use types::*;
