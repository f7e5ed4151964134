//! `registry-chat eval`: runs a golden set through retrieval (or full agent turns)
//! and reports how well the right codebundles come back.

mod agent;
pub mod calibration;
pub mod golden;
pub mod metrics;
mod result;
mod retrieval;

pub use agent::run_agent;
pub use golden::{GoldenError, Question, load};
pub use metrics::{Report, Summary, report};
pub use retrieval::{run_retrieval, run_retrieval_with};
