//! The admin area's logic: token checks, traces, quality analysis, test queries,
//! golden-set export from feedback, and background reindexing. Everything reads the
//! turns saved in SQLite, so it survives restarts and is the same on every replica.
//! The HTTP edge (bearer token, routes) is `web::admin`.

pub mod auth;
pub mod golden;
pub mod quality;
pub mod reindex;
pub mod test_query;
pub mod traces;
pub mod window;
