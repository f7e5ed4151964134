//! Versioned migrations for PostgreSQL, the counterpart of the SQLite ones: a
//! table records each applied version; each migration and its record commit
//! together, so an interrupted upgrade leaves the previous version intact.

use crate::store::StoreError;
use crate::store::migrations::Migration;
use tokio_postgres::GenericClient;

/// Append only: never edit a released migration, add a new one.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "conversations",
        sql: include_str!("migrations/0001_conversations.sql"),
    },
    Migration {
        version: 2,
        name: "requests",
        sql: include_str!("migrations/0002_requests.sql"),
    },
    Migration {
        version: 3,
        name: "admin",
        sql: include_str!("migrations/0003_admin.sql"),
    },
    Migration {
        version: 4,
        name: "index runs",
        sql: include_str!("migrations/0004_index_runs.sql"),
    },
    Migration {
        version: 5,
        name: "catalog",
        sql: include_str!("migrations/0005_catalog.sql"),
    },
];

pub const LATEST_VERSION: u32 = MIGRATIONS[MIGRATIONS.len() - 1].version;

/// Any constant both replicas agree on: the lock is held only while migrating.
const MIGRATION_LOCK: i64 = 0x5245_4743_4841_5401;

const LEDGER: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)";

pub async fn schema_version(c: &impl GenericClient) -> Result<u32, StoreError> {
    let row = c
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )
        .await?;
    Ok(row.get::<_, i32>(0) as u32)
}

/// Applies every migration above the current version. Two replicas starting at
/// once queue on the advisory lock; the second finds nothing left to do.
pub async fn migrate(c: &mut deadpool_postgres::Object) -> Result<u32, StoreError> {
    let tx = c.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(LEDGER).await?;
    let current = schema_version(&*tx).await?;
    if current > LATEST_VERSION {
        return Err(StoreError::TooNew {
            found: current,
            supported: LATEST_VERSION,
        });
    }
    for m in MIGRATIONS.iter().filter(|m| m.version > current) {
        tx.batch_execute(m.sql)
            .await
            .map_err(|source| StoreError::PgMigration {
                version: m.version,
                source,
            })?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
            &[&(m.version as i32), &m.name],
        )
        .await?;
        tracing::info!(
            version = m.version,
            name = m.name,
            "applied postgres migration"
        );
    }
    tx.commit().await?;
    Ok(current.max(LATEST_VERSION))
}
