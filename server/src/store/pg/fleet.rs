//! Replicas coordinating their index runs through Postgres: one runs at a time
//! (an advisory lock held for the whole run), and a run started on one replica is
//! announced with the catalog it built (`catalog.rs`) so the others follow it,
//! keeping every replica's catalog the same. The others answer from their previous
//! snapshot meanwhile, as a single replica does during its own reindex.

use super::Pg;
use crate::store::StoreError;
use deadpool_postgres::{ClientWrapper, Object};

/// Any constant every replica agrees on (public for the tests that hold it).
pub const INDEX_LOCK: i64 = 0x5245_4743_4841_5402;

/// How long a replica waits for the one indexing ahead of it (a follower, or a
/// command-line run) before it gives up.
pub const FOLLOW_WAIT: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// Held for a whole index run. Its connection left the pool: dropping it closes
/// the connection, and Postgres releases the lock with it (also when the replica
/// holding it dies).
pub struct FleetLock {
    _conn: ClientWrapper,
}

impl Pg {
    /// The fleet's index lock, or `None` while another replica holds it.
    pub async fn try_index_lock(&self) -> Result<Option<FleetLock>, StoreError> {
        let c = self.client().await?;
        let got: bool = c
            .query_one("SELECT pg_try_advisory_lock($1)", &[&INDEX_LOCK])
            .await?
            .get(0);
        Ok(got.then(|| FleetLock {
            _conn: Object::take(c),
        }))
    }

    /// The fleet's index lock once the replica holding it lets go, or `None` if it
    /// still holds it after `patience`.
    pub async fn wait_index_lock(
        &self,
        patience: std::time::Duration,
    ) -> Result<Option<FleetLock>, StoreError> {
        let waited = std::time::Instant::now();
        loop {
            if let Some(lock) = self.try_index_lock().await? {
                return Ok(Some(lock));
            }
            if waited.elapsed() > patience {
                return Ok(None);
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
    }
}
