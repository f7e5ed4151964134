//! The admin console's view of saved turns, wherever they live (`store::Shared`):
//! with replicas on Postgres it covers every replica's turns. Windows are parsed
//! by this replica's SQLite file either way (it is only a date parser there).

use super::quality;
use super::window::{self, Window, WindowError, WindowQuery};
use super::{golden, pg, traces};
use crate::store::{Db, Shared, StoreError};
use app::api::admin::{Quality, TraceDetail, TracePage, TraceQuery};

#[derive(Clone)]
pub struct Turns {
    shared: Shared,
    catalog: Db,
}

impl Turns {
    pub fn new(shared: Shared, catalog: Db) -> Self {
        Turns { shared, catalog }
    }

    pub async fn traces(&self, q: TraceQuery) -> Result<TracePage, StoreError> {
        match &self.shared {
            Shared::Sqlite(db) => db.read(move |c| traces::list(c, &q)).await,
            Shared::Postgres(p) => pg::traces(p, &q).await,
        }
    }

    pub async fn trace(&self, id: String) -> Result<Option<TraceDetail>, StoreError> {
        match &self.shared {
            Shared::Sqlite(db) => db.read(move |c| traces::detail(c, &id)).await,
            Shared::Postgres(p) => pg::trace(p, &id).await,
        }
    }

    /// `default_days` when the query names no window.
    pub async fn window(&self, q: WindowQuery, default_days: u32) -> Result<Window, WindowError> {
        self.catalog
            .read(move |c| Ok(window::resolve(c, &q, default_days)))
            .await?
    }

    pub async fn quality(&self, w: Window) -> Result<Quality, StoreError> {
        match &self.shared {
            Shared::Sqlite(db) => db.read(move |c| quality::compute(c, &w)).await,
            Shared::Postgres(p) => Ok(quality::report(&pg::quality_rows(p, &w).await?, &w)),
        }
    }

    pub async fn golden(&self, w: Window) -> Result<String, StoreError> {
        match &self.shared {
            Shared::Sqlite(db) => db.read(move |c| golden::export(c, &w)).await,
            Shared::Postgres(p) => pg::golden(p, &w).await,
        }
    }
}
