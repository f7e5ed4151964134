//! Schema migrations, versioned in code. `PRAGMA user_version` records the applied
//! version; each migration runs in its own transaction together with the version bump,
//! so an interrupted upgrade leaves the previous version intact.

use super::StoreError;
use rusqlite::Connection;

pub struct Migration {
    pub version: u32,
    pub name: &'static str,
    pub sql: &'static str,
}

/// Append only: never edit a released migration, add a new one.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "foundation",
        sql: include_str!("migrations/0001_foundation.sql"),
    },
    Migration {
        version: 2,
        name: "catalog",
        sql: include_str!("migrations/0002_catalog.sql"),
    },
    Migration {
        version: 3,
        name: "retrieval",
        sql: include_str!("migrations/0003_retrieval.sql"),
    },
    Migration {
        version: 4,
        name: "conversations",
        sql: include_str!("migrations/0004_conversations.sql"),
    },
    Migration {
        version: 5,
        name: "requests",
        sql: include_str!("migrations/0005_requests.sql"),
    },
    Migration {
        version: 6,
        name: "bundle dates",
        sql: include_str!("migrations/0006_bundle_dates.sql"),
    },
    Migration {
        version: 7,
        name: "owners and live turns",
        sql: include_str!("migrations/0007_owners_and_live_turns.sql"),
    },
    Migration {
        version: 8,
        name: "call sites",
        sql: include_str!("migrations/0008_call_sites.sql"),
    },
    Migration {
        version: 9,
        name: "request issues",
        sql: include_str!("migrations/0009_request_issues.sql"),
    },
    Migration {
        version: 10,
        name: "request filing",
        sql: include_str!("migrations/0010_request_filing.sql"),
    },
    Migration {
        version: 11,
        name: "example vectors",
        sql: include_str!("migrations/0011_example_vectors.sql"),
    },
];

pub const LATEST_VERSION: u32 = MIGRATIONS[MIGRATIONS.len() - 1].version;

pub fn schema_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Applies every migration above the current version up to `target`.
pub fn migrate(conn: &mut Connection, target: u32) -> Result<u32, StoreError> {
    let current = schema_version(conn)?;
    if current > LATEST_VERSION {
        return Err(StoreError::TooNew {
            found: current,
            supported: LATEST_VERSION,
        });
    }
    for m in MIGRATIONS
        .iter()
        .filter(|m| m.version > current && m.version <= target)
    {
        let tx = conn.transaction()?;
        tx.execute_batch(m.sql)
            .and_then(|_| tx.pragma_update(None, "user_version", m.version))
            .map_err(|source| StoreError::Migration {
                version: m.version,
                source,
            })?;
        tx.commit()?;
        tracing::info!(
            version = m.version,
            name = m.name,
            "applied schema migration"
        );
    }
    Ok(schema_version(conn)?)
}
