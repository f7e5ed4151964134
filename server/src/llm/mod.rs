//! Talking to model servers (OpenAI-compatible and Azure OpenAI).

pub mod retry;
