//! The one reindex pipeline (used by `registry-chat index` and the admin Reindex):
//! the index lock is held from the catalog to the last step, so a second run on the
//! same data dir is refused while embeddings and the graph are still being written.

use registry_chat::index::embed::{Embedder, HashEmbedder};
use registry_chat::ingest::{self, IndexOptions, IngestError};
use registry_chat::reindex::{Reindex, Step};
use registry_chat::store::Db;
use std::sync::{Arc, Mutex};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lock_covers_every_step_of_a_run() {
    let data = tempfile::tempdir().unwrap();
    let db = Db::open(&data.path().join("t.db")).unwrap();
    let request = ingest::sample_request(data.path()).unwrap();

    let run = Reindex::start(&db, data.path()).unwrap();
    let report = run.catalog(&request, &IndexOptions::default()).unwrap();
    assert!(report.wrote && !report.collections.is_empty());

    // Between the catalog and the embeddings: still this run's data dir.
    assert!(matches!(
        Reindex::start(&db, data.path()),
        Err(IngestError::Busy)
    ));
    assert!(matches!(
        ingest::run(&db, data.path(), &request, &IndexOptions::default()),
        Err(IngestError::Busy)
    ));

    let steps = Mutex::new(Vec::new());
    let embedder: Arc<dyn Embedder> = Arc::new(HashEmbedder);
    let (embed, graph) = run
        .retrieval(embedder.clone(), None, &|s| steps.lock().unwrap().push(s))
        .await
        .unwrap();
    assert!(embed.embedded > 0 && graph.nodes > 0);
    let steps = steps.into_inner().unwrap();
    assert!(
        matches!(steps.first(), Some(Step::Embedding { .. })),
        "{steps:?}"
    );
    assert_eq!(&steps[steps.len() - 2..], &[Step::Graph, Step::Loading]);
    drop(run);

    // Released at the end: the next run starts, and finds nothing to do.
    let again = Reindex::start(&db, data.path()).unwrap();
    assert!(
        !again
            .catalog(&request, &IndexOptions::default())
            .unwrap()
            .wrote
    );
    let (embed, _) = again.retrieval(embedder, None, &|_| {}).await.unwrap();
    assert_eq!(embed.embedded, 0);
}
