//! The retrieval index built on top of the catalog: embeddings, the vector index and
//! the keyword (FTS5) index.

pub mod build;
pub mod embed;
pub mod fts;
pub mod text;
pub mod vectors;
