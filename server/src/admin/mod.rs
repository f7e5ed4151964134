//! The admin area's logic: token checks, traces, quality analysis, test queries,
//! golden-set export from feedback, and background reindexing. Everything reads the
//! saved turns (SQLite, or Postgres with replicas), so it survives restarts and is
//! the same on every replica.
//! The HTTP edge (bearer token, routes) is `web::admin`.

pub mod auth;
pub mod golden;
mod pg;
pub mod quality;
pub mod reindex;
pub mod test_query;
pub mod traces;
mod turns;
pub mod window;

pub use turns::Turns;
