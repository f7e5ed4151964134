//! Registry Chat server: configuration, storage, the agent and the HTTP edge.
//! `main.rs` only parses arguments and calls [`cli::run`].

pub mod agent;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod ingest;
pub mod store;
pub mod telemetry;
pub mod web;
