//! PostgreSQL, for state that replicas behind one load balancer must share:
//! conversations and their turns, codebundle requests, and the catalog the
//! indexing replica publishes. `database.url = "postgres://…"` selects it; the
//! SQLite file stays the default, and each replica still searches a local copy of
//! the published catalog (`catalog.rs`).
//!
//! A pool of async connections (deadpool over tokio-postgres): unlike SQLite there
//! is no single writer to funnel through, the server orders concurrent writes.

mod catalog;
pub mod copy;
mod fleet;
mod migrations;
mod table;

pub use catalog::Publication;
pub use fleet::{FOLLOW_WAIT, FleetLock, INDEX_LOCK};
pub use migrations::{LATEST_VERSION, schema_version};

use super::StoreError;
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use std::time::Duration;

/// Connections per replica: more than the turns a replica streams at once rarely
/// helps, and Postgres' default `max_connections` (100) must cover every replica.
const CONNECTIONS: usize = 16;
const WAIT: Duration = Duration::from_secs(30);

#[derive(Clone)]
pub struct Pg {
    pool: Pool,
}

impl Pg {
    /// Connects, checks the server answers, and applies pending migrations (under
    /// an advisory lock, so replicas starting together migrate once).
    pub async fn connect(url: &str) -> Result<Pg, StoreError> {
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|e: tokio_postgres::Error| StoreError::PgConfig(e.to_string()))?;
        let at = where_(&config);
        let manager = Manager::from_config(
            config,
            tokio_postgres::NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(CONNECTIONS)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(WAIT))
            .create_timeout(Some(WAIT))
            .build()
            .map_err(|e| StoreError::PgConfig(e.to_string()))?;
        let pg = Pg { pool };
        let mut client = pg.pool.get().await.map_err(|e| StoreError::PgConnect {
            at,
            reason: innermost(&e),
        })?;
        migrations::migrate(&mut client).await?;
        Ok(pg)
    }

    /// A pooled connection.
    pub async fn client(&self) -> Result<Object, StoreError> {
        Ok(self.pool.get().await?)
    }

    /// Cheap liveness probe for `/health`.
    pub async fn ping(&self) -> Result<u32, StoreError> {
        schema_version(&**self.client().await?).await
    }
}

/// Host, port and database of a URL, never its user or password: for messages.
fn where_(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        Some(tokio_postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!("{host}:{port}/{}", config.get_dbname().unwrap_or(""))
}

/// The root cause of a connection failure ("Connection refused", "password
/// authentication failed"): the pool wraps it twice.
fn innermost(e: &dyn std::error::Error) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// Reads a column that stores a closed set as its text: the Postgres twin of
/// `store::closed` (an unknown value is an error, never a silent default).
pub fn closed<T: std::str::FromStr<Err = String>>(
    r: &tokio_postgres::Row,
    col: usize,
) -> Result<T, StoreError> {
    r.get::<_, String>(col).parse().map_err(StoreError::Corrupt)
}

/// A JSON text column, or the type's default when it does not parse (as the
/// SQLite readers do).
pub fn json<T: serde::de::DeserializeOwned + Default>(r: &tokio_postgres::Row, col: usize) -> T {
    serde_json::from_str(r.get::<_, &str>(col)).unwrap_or_default()
}
