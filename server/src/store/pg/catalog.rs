//! The catalog shared through Postgres. The replica that indexes publishes its
//! whole catalog (bundles, tasks, keywords, docs, chunks, their keyword-index text
//! and the embeddings) in the same transaction that announces its run; the others
//! load that publication into their own SQLite file instead of reading the sources
//! and embedding them again. Every replica then holds the same catalog, ids and
//! vectors included, and searches it locally: keyword search in FTS5 and vectors in
//! memory, as one replica alone does, so answers do not depend on which replica
//! serves them and a search never waits on the network.
//!
//! Rows stream in both directions (binary `COPY` in, a row stream out), one table
//! at a time inside one transaction on each side, so memory stays flat however
//! large the registry, and a failure on either side leaves both as they were.

use super::Pg;
use super::table::Kind::{Blob, Int, Text};
use super::table::{Table, params};
use crate::store::{Db, StoreError};
use futures::StreamExt;
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::types::ToSql;

/// Every catalog table, parents before children. The Postgres mirror of `t` is
/// `catalog_t`. The embeddings keep every embedder's vectors: a replica with
/// another embedder configured embeds what it lacks after loading.
const CATALOG: &[Table] = &[
    Table {
        name: "collections",
        columns: &[
            ("id", Int),
            ("name", Text),
            ("root", Text),
            ("git_url", Text),
            ("git_ref", Text),
            ("commit_sha", Text),
            ("web_url", Text),
            ("content_hash", Text),
            ("libraries_hash", Text),
            ("docs_hash", Text),
            ("indexed_at", Text),
            ("bundles", Int),
            ("tasks", Int),
            ("slis", Int),
            ("keywords", Int),
            ("docs", Int),
            ("warnings", Int),
        ],
    },
    Table {
        name: "bundles",
        columns: &[
            ("id", Int),
            ("collection_id", Int),
            ("slug", Text),
            ("fingerprint", Text),
            ("display_name", Text),
            ("description", Text),
            ("platform", Text),
            ("access", Text),
            ("resource_types", Text),
            ("tags", Text),
            ("task_count", Int),
            ("sli_count", Int),
            ("author", Text),
            ("source_url", Text),
            ("record", Text),
            ("updated_at", Text),
        ],
    },
    Table {
        name: "tasks",
        columns: &[
            ("id", Int),
            ("bundle_id", Int),
            ("kind", Text),
            ("position", Int),
            ("name", Text),
            ("doc", Text),
            ("tags", Text),
            ("access", Text),
            ("file", Text),
            ("line_start", Int),
            ("line_end", Int),
            ("calls", Text),
            ("sites", Text),
        ],
    },
    Table {
        name: "variables",
        columns: &[
            ("bundle_id", Int),
            ("name", Text),
            ("kind", Text),
            ("var_type", Text),
            ("description", Text),
            ("default_value", Text),
            ("file", Text),
            ("line", Int),
        ],
    },
    Table {
        name: "bundle_libraries",
        columns: &[("bundle_id", Int), ("library", Text), ("external", Int)],
    },
    Table {
        name: "keywords",
        columns: &[
            ("id", Int),
            ("collection_id", Int),
            ("library", Text),
            ("name", Text),
            ("python_name", Text),
            ("class_name", Text),
            ("args", Text),
            ("doc", Text),
            ("file", Text),
            ("line", Int),
            ("url", Text),
            ("external", Int),
        ],
    },
    Table {
        name: "keyword_uses",
        columns: &[
            ("keyword_id", Int),
            ("bundle_id", Int),
            ("task", Text),
            ("file", Text),
            ("line", Int),
        ],
    },
    Table {
        name: "doc_sets",
        columns: &[
            ("name", Text),
            ("root", Text),
            ("content_hash", Text),
            ("indexed_at", Text),
            ("files", Int),
            ("sections", Int),
        ],
    },
    Table {
        name: "docs",
        columns: &[
            ("id", Int),
            ("doc_set", Text),
            ("collection_id", Int),
            ("path", Text),
            ("title", Text),
            ("heading", Text),
            ("anchor", Text),
            ("trail", Text),
            ("markdown", Text),
            ("text", Text),
            ("line_start", Int),
            ("line_end", Int),
            ("url", Text),
        ],
    },
    Table {
        name: "chunks",
        columns: &[
            ("rowid", Int),
            ("id", Text),
            ("content_hash", Text),
            ("kind", Text),
            ("bundle_id", Int),
            ("doc_id", Int),
            ("keyword_id", Int),
            ("title", Text),
            ("task", Text),
            ("embed_text", Text),
            ("show_text", Text),
            ("file", Text),
            ("line_start", Int),
            ("line_end", Int),
        ],
    },
    Table {
        name: "index_warnings",
        columns: &[
            ("collection_id", Int),
            ("bundle_id", Int),
            ("doc_set", Text),
            ("path", Text),
            ("line", Int),
            ("message", Text),
        ],
    },
    Table {
        name: "embeddings",
        columns: &[("embedder", Text), ("content_hash", Text), ("vector", Blob)],
    },
    // The keyword index as FTS5 stored it (identifier parts already split).
    Table {
        name: "bundle_fts",
        columns: &[
            ("rowid", Int),
            ("names", Text),
            ("tasks", Text),
            ("tags", Text),
            ("docs", Text),
            ("readme", Text),
        ],
    },
    Table {
        name: "chunk_fts",
        columns: &[("rowid", Int), ("title", Text), ("body", Text)],
    },
];

/// The newest announced run and the catalog it published, if any, and how that
/// was built: a replica loads only a catalog its own binary would have built
/// alike (same SQLite schema, same parser). During a rolling upgrade (a run an
/// older binary announced without a catalog, or one built by another version)
/// the others index their sources themselves, as before.
#[derive(Clone, Debug)]
pub struct Publication {
    pub run: i64,
    pub replica: String,
    pub catalog_schema: Option<u32>,
    pub ingest_version: Option<String>,
    /// Rows published; `None` when the run published no catalog.
    pub rows: Option<i64>,
}

impl Publication {
    pub fn loadable_here(&self) -> bool {
        self.rows.is_some()
            && self.catalog_schema == Some(crate::store::LATEST_VERSION)
            && self.ingest_version.as_deref() == Some(crate::ingest::INGEST_VERSION)
    }
}

impl Pg {
    /// Publishes this replica's catalog and announces its run, in one transaction:
    /// the others see the run only with its catalog. Call holding the fleet's index
    /// lock. Returns the run's id.
    pub async fn publish_catalog(&self, db: &Db, replica: &str) -> Result<i64, StoreError> {
        let (pg, replica) = (self.clone(), replica.to_string());
        let run = db
            .read(move |c| {
                let rt = tokio::runtime::Handle::current();
                let mut client = rt.block_on(pg.client())?;
                let tx = rt.block_on(client.transaction())?;
                let names: Vec<String> = CATALOG
                    .iter()
                    .map(|t| format!("catalog_{}", t.name))
                    .collect();
                rt.block_on(tx.batch_execute(&format!("TRUNCATE {}", names.join(", "))))?;
                // One read transaction: every table from the same state of the file.
                let read = c.unchecked_transaction()?;
                let mut rows = 0i64;
                for t in CATALOG {
                    let cols = t.column_list();
                    let sink = rt.block_on(tx.copy_in(&format!(
                        "COPY catalog_{} ({cols}) FROM STDIN BINARY",
                        t.name
                    )))?;
                    let mut writer = Box::pin(BinaryCopyInWriter::new(sink, &t.pg_types()));
                    let mut st = read.prepare(&format!("SELECT {cols} FROM {}", t.name))?;
                    let mut found = st.query([])?;
                    while let Some(r) = found.next()? {
                        let values = t.to_pg(r)?;
                        rt.block_on(writer.as_mut().write(&params(&values)))?;
                    }
                    rows += rt.block_on(writer.as_mut().finish())? as i64;
                }
                drop(read);
                let schema = crate::store::LATEST_VERSION as i32;
                let run: i64 = rt
                .block_on(tx.query_one(
                    "INSERT INTO index_runs (replica, catalog_schema, ingest_version, catalog_rows)
                     VALUES ($1, $2, $3, $4) RETURNING id",
                    &[&replica, &schema, &crate::ingest::INGEST_VERSION, &rows],
                ))?
                .get(0);
                rt.block_on(tx.commit())?;
                Ok(run)
            })
            .await?;
        db.write(move |c| Ok(note_run(c, run)?)).await?;
        Ok(run)
    }

    /// The newest announced run, with what it published.
    pub async fn latest_publication(&self) -> Result<Option<Publication>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT id, replica, catalog_schema, ingest_version, catalog_rows FROM index_runs
                 ORDER BY id DESC LIMIT 1",
                &[],
            )
            .await?;
        Ok(row.map(|r| Publication {
            run: r.get(0),
            replica: r.get(1),
            catalog_schema: r.get::<_, Option<i32>>(2).map(|v| v as u32),
            ingest_version: r.get(3),
            rows: r.get(4),
        }))
    }

    /// Replaces the catalog in `db` with `published`, in one SQLite transaction
    /// (searches keep reading the previous catalog until it commits), and counts
    /// it as a new catalog generation so the graph and the search snapshot follow.
    /// Vectors this replica computed before stay cached. Call holding the data
    /// dir's index lock and the fleet's: the lock is what keeps a publication
    /// from replacing the tables while they are read (`TRUNCATE` is not
    /// isolated by the snapshot). A run other than `published` found newest, or
    /// a row count other than the one published, fails and leaves the previous
    /// catalog. Returns the rows loaded.
    pub async fn load_catalog(&self, db: &Db, published: &Publication) -> Result<u64, StoreError> {
        let pg = self.clone();
        let (want_run, want_rows) = (published.run, published.rows);
        db.write(move |c| {
            let rt = tokio::runtime::Handle::current();
            let mut client = rt.block_on(pg.client())?;
            let from = rt.block_on(
                client
                    .build_transaction()
                    .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                    .read_only(true)
                    .start(),
            )?;
            let newest: Option<i64> = rt
                .block_on(
                    from.query_opt("SELECT id FROM index_runs ORDER BY id DESC LIMIT 1", &[]),
                )?
                .map(|r| r.get(0));
            if newest != Some(want_run) {
                return Err(StoreError::Corrupt(format!(
                    "index run {want_run} is no longer the newest ({}); follow again",
                    newest.map_or("none".into(), |n| n.to_string())
                )));
            }
            let tx = c.transaction()?;
            for t in CATALOG.iter().rev().filter(|t| t.name != "embeddings") {
                tx.execute(&format!("DELETE FROM {}", t.name), [])?;
            }
            let mut loaded = 0u64;
            for t in CATALOG {
                let cols = t.column_list();
                let marks = vec!["?"; t.columns.len()].join(", ");
                let verb = if t.name == "embeddings" {
                    "INSERT OR IGNORE"
                } else {
                    "INSERT"
                };
                let mut insert =
                    tx.prepare(&format!("{verb} INTO {} ({cols}) VALUES ({marks})", t.name))?;
                let none: [&(dyn ToSql + Sync); 0] = [];
                let stream = rt.block_on(from.query_raw(
                    &format!("SELECT {cols} FROM catalog_{}", t.name),
                    none.iter().copied(),
                ))?;
                let mut stream = Box::pin(stream);
                while let Some(row) = rt.block_on(stream.next()) {
                    insert.execute(rusqlite::params_from_iter(t.to_sqlite(&row?)?))?;
                    loaded += 1;
                }
            }
            crate::store::bump_catalog_generation(&tx)?;
            if want_rows != Some(loaded as i64) {
                return Err(StoreError::Corrupt(format!(
                    "index run {want_run} published {} catalog rows, {loaded} were read",
                    want_rows.unwrap_or(0)
                )));
            }
            note_run(&tx, want_run)?;
            tx.commit()?;
            Ok(loaded)
        })
        .await
    }
}

/// Which published run the local catalog is (shown in `/health` as
/// `index.catalog_run`, so an operator sees every replica on the same one).
fn note_run(c: &rusqlite::Connection, run: i64) -> rusqlite::Result<usize> {
    c.execute(
        "INSERT INTO app_meta (key, value) VALUES ('catalog_run', ?1)
         ON CONFLICT (key) DO UPDATE SET value = ?1",
        [run.to_string()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Tables that are deliberately not published: per-replica state (meta,
    /// local runs, the graph each replica rebuilds, the classifier's example
    /// vectors each replica embeds once), conversations and requests (shared by
    /// their own tables), and FTS5's shadow tables.
    const NOT_PUBLISHED: &[&str] = &[
        "app_meta",
        "index_runs",
        "example_vectors",
        "graph_nodes",
        "graph_edges",
        "sessions",
        "turns",
        "messages",
        "requests",
        "requests_fts",
        "bundle_fts_vocab",
    ];

    /// Every column of every catalog table is published, and every new table is
    /// either published or listed above: a column added to the SQLite schema
    /// without the publication would arrive empty on the other replicas.
    #[test]
    fn the_publication_covers_the_sqlite_catalog() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.db")).unwrap();
        db.read_blocking(|c| {
            let tables: Vec<String> = c
                .prepare(
                    "SELECT name FROM sqlite_master WHERE type = 'table'
                     AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts_data'
                     AND name NOT LIKE '%fts_idx' AND name NOT LIKE '%fts_content'
                     AND name NOT LIKE '%fts_docsize' AND name NOT LIKE '%fts_config'",
                )?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            for name in &tables {
                let spec = CATALOG.iter().find(|t| t.name == name);
                assert!(
                    spec.is_some() || NOT_PUBLISHED.contains(&name.as_str()),
                    "table {name}: publish it (store/pg/catalog.rs) or list it as not published"
                );
                let Some(spec) = spec else { continue };
                let columns: BTreeSet<String> = c
                    .prepare(&format!("SELECT name FROM pragma_table_info('{name}')"))?
                    .query_map([], |r| r.get(0))?
                    .collect::<Result<_, _>>()?;
                let published: BTreeSet<String> = spec
                    .columns
                    .iter()
                    .map(|(n, _)| n.to_string())
                    .filter(|n| n != "rowid")
                    .collect();
                assert_eq!(published, columns, "columns of {name}");
            }
            Ok(())
        })
        .unwrap();
    }
}
