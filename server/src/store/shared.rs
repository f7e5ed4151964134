//! State every replica must see alike (conversations, requests): in the SQLite
//! file beside the index (one process, the default) or in PostgreSQL when
//! `database.url` is set, so replicas behind a load balancer share it. The catalog
//! and search index stay in the SQLite file either way.

use super::pg::Pg;
use super::{Db, StoreError};

#[derive(Clone)]
pub enum Shared {
    Sqlite(Db),
    Postgres(Pg),
}

impl Shared {
    /// Postgres when `database.url` is set (connecting and migrating it), else `db`.
    pub async fn open(config: &crate::config::Config, db: &Db) -> Result<Self, StoreError> {
        Ok(match config.database.postgres() {
            Some(url) => Shared::Postgres(Pg::connect(url).await?),
            None => Shared::Sqlite(db.clone()),
        })
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Shared::Sqlite(_) => "sqlite",
            Shared::Postgres(_) => "postgres",
        }
    }

    /// Cheap liveness probe for `/health`.
    pub async fn ping(&self) -> Result<u32, StoreError> {
        match self {
            Shared::Sqlite(db) => db.ping().await,
            Shared::Postgres(p) => p.ping().await,
        }
    }
}
