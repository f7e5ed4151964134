//! SQLite storage against real files: migrations and the connection strategy.

use registry_chat::store::{Db, LATEST_VERSION, MIGRATIONS, schema_version};
use rusqlite::Connection;
use std::sync::{Arc, Barrier};
use std::time::Duration;

#[test]
fn migrates_forward_from_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let db = Db::open(&path).unwrap();
    let version = db.read_blocking(|c| Ok(schema_version(c)?)).unwrap();
    assert_eq!(version, LATEST_VERSION);
    // Opening again is a no-op, not a re-run.
    drop(db);
    let db = Db::open(&path).unwrap();
    assert_eq!(
        db.read_blocking(|c| Ok(schema_version(c)?)).unwrap(),
        LATEST_VERSION
    );
}

#[test]
fn migrates_forward_from_every_previous_version_keeping_data() {
    for start in MIGRATIONS.iter().map(|m| m.version) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            let mut conn = Connection::open(&path).unwrap();
            for m in MIGRATIONS.iter().filter(|m| m.version <= start) {
                conn.execute_batch(m.sql).unwrap();
                conn.pragma_update(None, "user_version", m.version).unwrap();
            }
            let tx = conn.transaction().unwrap();
            tx.execute(
                "INSERT INTO app_meta (key, value) VALUES ('marker', ?1)",
                [format!("v{start}")],
            )
            .unwrap();
            tx.commit().unwrap();
        }
        let db = Db::open(&path).unwrap();
        let (version, marker): (u32, String) = db
            .read_blocking(|c| {
                let m =
                    c.query_row("SELECT value FROM app_meta WHERE key = 'marker'", [], |r| {
                        r.get(0)
                    })?;
                Ok((schema_version(c)?, m))
            })
            .unwrap();
        assert_eq!(version, LATEST_VERSION, "from version {start}");
        assert_eq!(
            marker,
            format!("v{start}"),
            "data written at version {start} survives"
        );
    }
}

#[test]
fn refuses_a_database_from_a_newer_binary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", LATEST_VERSION + 1)
        .unwrap();
    let err = Db::open(&path).err().expect("must refuse");
    assert!(err.to_string().contains("newer than this binary"), "{err}");
}

#[test]
fn uses_wal_and_foreign_keys_on_every_connection() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("t.db")).unwrap();
    let (mode, fk): (String, i64) = db
        .read_blocking(|c| {
            Ok((
                c.query_row("PRAGMA journal_mode", [], |r| r.get(0))?,
                c.query_row("PRAGMA foreign_keys", [], |r| r.get(0))?,
            ))
        })
        .unwrap();
    assert_eq!(mode, "wal");
    assert_eq!(fk, 1);
    let fk_writer: i64 = db
        .write_blocking(|c| Ok(c.query_row("PRAGMA foreign_keys", [], |r| r.get(0))?))
        .unwrap();
    assert_eq!(fk_writer, 1);
}

#[test]
fn fts5_is_compiled_in() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("t.db")).unwrap();
    db.write_blocking(|c| {
        c.execute_batch("CREATE VIRTUAL TABLE t USING fts5(body); INSERT INTO t VALUES ('pods keep restarting');")?;
        let n: i64 = c.query_row("SELECT count(*) FROM t WHERE t MATCH 'restarting'", [], |r| r.get(0))?;
        assert_eq!(n, 1);
        Ok(())
    })
    .unwrap();
}

/// Two reads that each wait for the other inside their connection: if reads were
/// serialised on one connection this would deadlock (and time out).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_readers_do_not_block_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("t.db")).unwrap();
    let barrier = Arc::new(Barrier::new(2));
    let reads = (0..2).map(|_| {
        let db = db.clone();
        let barrier = barrier.clone();
        async move {
            db.read(move |c| {
                c.execute_batch("BEGIN")?;
                let n: i64 = c.query_row("SELECT count(*) FROM app_meta", [], |r| r.get(0))?;
                barrier.wait(); // both transactions are open at once here
                c.execute_batch("COMMIT")?;
                Ok(n)
            })
            .await
        }
    });
    let joined = tokio::time::timeout(Duration::from_secs(10), futures::future::join_all(reads))
        .await
        .expect("readers blocked each other");
    for r in joined {
        assert!(r.unwrap() >= 1);
    }
}

/// A reader sees the last committed state while the writer holds an open transaction.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readers_are_not_blocked_by_an_open_write() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("t.db")).unwrap();
    let in_tx = Arc::new(Barrier::new(2));
    let read_done = Arc::new(Barrier::new(2));
    let writer = {
        let (in_tx, read_done) = (in_tx.clone(), read_done.clone());
        db.write(move |c| {
            let tx = c.transaction()?;
            tx.execute("INSERT INTO app_meta (key, value) VALUES ('w', '1')", [])?;
            in_tx.wait();
            read_done.wait();
            tx.commit()?;
            Ok(())
        })
    };
    let reader = {
        let db = db.clone();
        async move {
            in_tx.wait();
            let seen: i64 = db
                .read(|c| {
                    Ok(
                        c.query_row("SELECT count(*) FROM app_meta WHERE key = 'w'", [], |r| {
                            r.get(0)
                        })?,
                    )
                })
                .await
                .unwrap();
            read_done.wait();
            seen
        }
    };
    let (w, seen) = tokio::time::timeout(Duration::from_secs(10), async {
        tokio::join!(writer, reader)
    })
    .await
    .expect("reader blocked by the writer");
    w.unwrap();
    assert_eq!(seen, 0, "uncommitted write is invisible to the reader");
}
