//! SQLite storage. One database file in the data dir, WAL mode, foreign keys on.
//!
//! Connection strategy: a small pool of reader connections plus one writer
//! connection. SQLite allows many readers beside one writer in WAL mode, and funnelling
//! every write through one connection avoids `SQLITE_BUSY` upgrades. All calls run on
//! tokio's blocking pool, so the async runtime is never blocked by disk I/O.

mod embeddings;
mod error;
mod examples;
mod generation;
mod migrations;
pub mod pg;
mod shared;

pub use embeddings::{
    distinct_texts, embedded_chunks, prune_embeddings, texts_to_embed, vector_count,
};
pub use error::StoreError;
pub use examples::{example_vectors, save_example_vectors};
pub use generation::{bump_catalog_generation, catalog_generation, catalog_run};
pub use migrations::{LATEST_VERSION, MIGRATIONS, schema_version};
pub use shared::Shared;

use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub type Pool = r2d2::Pool<SqliteConnectionManager>;

#[derive(Clone)]
pub struct Db {
    path: PathBuf,
    readers: Pool,
    writer: Arc<Mutex<Connection>>,
    /// Async callers wait for a connection here, as tasks. Waiting inside the
    /// blocking pool instead held one thread per waiting call: 160 threads for a
    /// burst of 200 questions, each with its stack and malloc arena.
    read_slots: Arc<tokio::sync::Semaphore>,
    write_slot: Arc<tokio::sync::Semaphore>,
}

const READERS: u32 = 8;
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.execute_batch(
        "PRAGMA journal_mode = WAL;
         PRAGMA synchronous = NORMAL;
         PRAGMA foreign_keys = ON;
         PRAGMA temp_store = MEMORY;",
    )
}

impl Db {
    /// Opens (creating if needed) the database and applies pending migrations.
    pub fn open(path: &Path) -> Result<Db, StoreError> {
        let mut writer = Connection::open(path).map_err(|e| StoreError::open(path, e))?;
        configure(&writer).map_err(|e| StoreError::open(path, e))?;
        migrations::migrate(&mut writer, LATEST_VERSION)?;

        let manager = SqliteConnectionManager::file(path).with_init(|c| configure(c));
        let readers = r2d2::Pool::builder()
            .max_size(READERS)
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(30))
            .build(manager)?;
        Ok(Db {
            path: path.to_path_buf(),
            readers,
            writer: Arc::new(Mutex::new(writer)),
            read_slots: Arc::new(tokio::sync::Semaphore::new(READERS as usize)),
            write_slot: Arc::new(tokio::sync::Semaphore::new(1)),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` on a reader connection on the blocking pool.
    pub async fn read<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let pool = self.readers.clone();
        // The semaphore is never closed; without a permit the call still works,
        // waiting in the pool.
        let permit = self.read_slots.clone().acquire_owned().await.ok();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let conn = pool.get()?;
            f(&conn)
        })
        .await?
    }

    /// Runs `f` with the single writer connection on the blocking pool.
    pub async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let writer = self.writer.clone();
        let permit = self.write_slot.clone().acquire_owned().await.ok();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            // A panic in an earlier writer leaves the connection usable: its open
            // transaction rolled back when dropped. Keep serving saves.
            let mut conn = writer.lock().unwrap_or_else(|p| p.into_inner());
            f(&mut conn)
        })
        .await?
    }

    /// Synchronous read for command-line paths that have no runtime to spare.
    pub fn read_blocking<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.readers.get()?;
        f(&conn)
    }

    /// Synchronous write, same single writer connection.
    pub fn write_blocking<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut conn)
    }

    /// Cheap liveness probe for `/health`.
    pub async fn ping(&self) -> Result<u32, StoreError> {
        self.read(|c| Ok(schema_version(c)?)).await
    }
}

/// Reads a column that stores a closed set (`app::closed_set!`) as its text. An
/// unknown value is a conversion error for that column, never a silent default.
pub fn closed<T, I>(r: &rusqlite::Row, col: I) -> rusqlite::Result<T>
where
    T: std::str::FromStr<Err = String>,
    I: rusqlite::RowIndex + Copy,
{
    let text: String = r.get(col)?;
    text.parse().map_err(|e: String| {
        let idx = col.idx(r.as_ref()).unwrap_or_default();
        rusqlite::Error::FromSqlConversionFailure(idx, rusqlite::types::Type::Text, e.into())
    })
}
