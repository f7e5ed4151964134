use app::api::ErrorCode;
use std::path::{Path, PathBuf};

/// Storage failures. All map to `database_error` at the edge; the detail is logged.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open database {path}: {source}")]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("connection pool: {0}")]
    Pool(#[from] r2d2::Error),
    #[error("migration to schema version {version} failed: {source}")]
    Migration {
        version: u32,
        source: rusqlite::Error,
    },
    #[error(
        "database schema version {found} is newer than this binary supports ({supported}); upgrade registry-chat"
    )]
    TooNew { found: u32, supported: u32 },
    #[error("postgres: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    #[error("postgres connection pool: {0}")]
    PgPool(#[from] deadpool_postgres::PoolError),
    #[error("database.url: {0}")]
    PgConfig(String),
    #[error("cannot reach postgres at {at} (database.url): {reason}")]
    PgConnect { at: String, reason: String },
    #[error("postgres migration to schema version {version} failed: {source}")]
    PgMigration {
        version: u32,
        source: tokio_postgres::Error,
    },
    #[error("a database task panicked or was cancelled: {0}")]
    Join(#[from] tokio::task::JoinError),
    #[error("stored data is malformed: {0}")]
    Corrupt(String),
}

impl StoreError {
    pub(crate) fn open(path: &Path, source: rusqlite::Error) -> Self {
        StoreError::Open {
            path: path.to_path_buf(),
            source,
        }
    }

    pub fn code(&self) -> ErrorCode {
        ErrorCode::Database
    }
}
