//! Registry Chat server: configuration, storage, the agent and the HTTP edge.
//! `main.rs` only parses arguments and calls [`cli::run`].

pub mod admin;
pub mod agent;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod eval;
pub mod graph;
pub mod index;
pub mod ingest;
pub mod llm;
pub mod mcp;
pub mod memory;
pub mod metrics;
pub mod otel;
pub mod query;
pub mod reindex;
pub mod report;
pub mod requests;
pub mod search;
pub mod services;
pub mod store;
pub mod telemetry;
pub mod tools;
pub mod web;
