//! Index status as health and the UI report it.

use super::{Db, StoreError};
use app::api::status::IndexHealth;
use rusqlite::OptionalExtension;

pub async fn index_summary(db: &Db) -> Result<IndexHealth, StoreError> {
    db.read(|c| {
        let last_ok: Option<String> = c
            .query_row(
                "SELECT finished_at FROM index_runs WHERE status = 'ok' ORDER BY id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        let running: bool = c.query_row(
            "SELECT EXISTS(SELECT 1 FROM index_runs WHERE status = 'running')",
            [],
            |r| r.get(0),
        )?;
        let state = if running {
            "indexing"
        } else if last_ok.is_some() {
            "ready"
        } else {
            "empty"
        };
        Ok(IndexHealth {
            state: state.into(),
            collections: 0,
            bundles: 0,
            last_indexed_at: last_ok,
        })
    })
    .await
}
