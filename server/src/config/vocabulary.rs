//! Which words the product speaks: a setting (`vocabulary`), so it lives with the
//! configuration; the words themselves are one table in `app::api::vocabulary`,
//! shared with the UI.

pub use app::api::vocabulary::Vocabulary;
