//! One index run per data directory at a time, across processes.
//!
//! The admin console's Reindex and a `registry-chat index` from a shell can aim at
//! the same data dir; both would fetch into the same `collections/<name>`, stage
//! into the same `<name>.next` and race to commit. An OS file lock (released by
//! the kernel when the holder exits, `kill -9` included, so it never goes stale)
//! makes the second one fail at once with a clear message instead.

use super::IngestError;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

const RETRIES: usize = 5;
const RETRY_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

pub struct IndexLock {
    // Held for its lock; closing the file releases it.
    _file: File,
}

impl IndexLock {
    pub fn acquire(data_dir: &Path) -> Result<IndexLock, IngestError> {
        let failed = |e: std::io::Error| IngestError::Source {
            name: "data directory".into(),
            reason: format!("cannot open its index lock: {e}"),
        };
        std::fs::create_dir_all(data_dir).map_err(failed)?;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(data_dir.join("index.lock"))
            .map_err(failed)?;
        // A lock just released can still be held for a moment by a child another
        // thread forked and has not yet exec'd (the copy of the descriptor keeps the
        // lock until exec closes it): a few short retries tell that apart from a
        // real second run, which holds it for minutes.
        for _ in 0..RETRIES {
            match file.try_lock() {
                Ok(()) => return Ok(IndexLock { _file: file }),
                Err(TryLockError::WouldBlock) => std::thread::sleep(RETRY_PAUSE),
                Err(TryLockError::Error(e)) => return Err(failed(e)),
            }
        }
        Err(IngestError::Busy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_is_refused_until_the_first_ends() {
        let dir = tempfile::tempdir().unwrap();
        let first = IndexLock::acquire(dir.path()).unwrap();
        assert!(matches!(
            IndexLock::acquire(dir.path()),
            Err(IngestError::Busy)
        ));
        drop(first);
        assert!(IndexLock::acquire(dir.path()).is_ok());
    }
}
