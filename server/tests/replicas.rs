//! Two replicas on one Postgres database (`database.url`): a conversation whose
//! turns alternate between them keeps its memory, what one changes the other
//! sees, and a replica killed mid-answer leaves its turn to the survivor, which
//! keeps answering. Skipped (with a message) when no test cluster is configured.

mod common;

use app::api::ChatEvent;
use common::scripted::{Reply, Scripted, sse};
use common::{TestServer, answer_text, ask, cards, client, session_of};
use eventsource_stream::Eventsource;
use futures::StreamExt;
use registry_chat::config::Secret;
use serde_json::{Value, json};
use std::time::Duration;

async fn replica(url: &str) -> TestServer {
    let url = url.to_string();
    TestServer::start_indexed(move |c| c.database.url = Some(Secret::new(url))).await
}

async fn call(base: &str, name: &str, body: Value) -> (u16, Value) {
    let res = client()
        .post(format!("{base}/api/{name}"))
        .json(&body)
        .send()
        .await
        .unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversation_alternates_between_two_replicas() {
    let Some(db) = common::pg::database().await else {
        return;
    };
    let (a, b) = (replica(&db).await, replica(&db).await);

    let first = ask(
        &a.url,
        json!({"question": "pods in payments keep restarting"}),
    )
    .await;
    let sid = session_of(&first);
    let top = cards(&first)[0].clone();
    // The follow-up lands on the other replica: it reads the memory from Postgres.
    let second = ask(
        &b.url,
        json!({"question": "what about its SLIs?", "session_id": sid}),
    )
    .await;
    assert_eq!(session_of(&second), sid, "same conversation");
    assert_eq!(
        cards(&second),
        vec![top.clone()],
        "its = A's recommendation"
    );
    let third = ask(
        &a.url,
        json!({"question": "does that one change anything?", "session_id": sid}),
    )
    .await;
    assert_eq!(cards(&third), vec![top.clone()]);
    assert!(answer_text(&third).contains("read-only"));

    // Either replica lists, renames, rates and exports it; the other sees it.
    let (_, list) = call(&b.url, "sessions", json!({})).await;
    assert_eq!(list[0]["id"], sid.as_str());
    assert_eq!(list[0]["turns"], 3);
    let (status, _) = call(
        &a.url,
        "rename_session",
        json!({"id": sid, "title": "Payments restarts"}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, conv) = call(&b.url, "conversation", json!({"id": sid})).await;
    assert_eq!(conv["title"], "Payments restarts");
    assert_eq!(conv["turns"].as_array().unwrap().len(), 3);
    let md = client()
        .get(format!("{}/api/sessions/{sid}/export", b.url))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        md.contains("what about its SLIs?") && md.contains(&top),
        "{md}"
    );
    let (status, _) = call(&b.url, "delete_session", json!({"id": sid})).await;
    assert_eq!(status, 200);
    let (status, _) = call(&a.url, "conversation", json!({"id": sid})).await;
    assert_eq!(status, 404, "deleted on B is gone on A");
}

/// The real binary as replica A, killed with SIGKILL while it streams; replica B
/// keeps answering the same conversation and, once A's lease on the turn has run
/// out, shows it interrupted with what A had streamed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_killed_mid_stream_leaves_the_conversation_to_the_other() {
    let Some(db) = common::pg::database().await else {
        return;
    };
    let b = replica(&db).await;
    let first = ask(
        &b.url,
        json!({"question": "kafka consumer lag on our brokers"}),
    )
    .await;
    let sid = session_of(&first);

    let mut slow: Vec<(Duration, String)> = (0..300)
        .map(|i| (Duration::from_millis(200), sse::text(&format!("word{i} "))))
        .collect();
    slow.push((Duration::ZERO, sse::finish("stop")));
    let llm = Scripted::start(vec![sse::classify("general"), Reply::Stream(slow)]).await;
    let data = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::sample_template().await.join("registry-chat.db"),
        data.path().join("registry-chat.db"),
    )
    .unwrap();
    let (mut a, a_url) = common::spawn_serve(
        common::binary()
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(data.path())
            .env("REGISTRY_CHAT_DATABASE_URL", &db)
            .env("REGISTRY_CHAT_EMBEDDER_MODEL_DIR", common::model_dir())
            .env("REGISTRY_CHAT_LLM_BASE_URL", format!("{}/v1", llm.url))
            .env("REGISTRY_CHAT_LLM_MODEL", "slow"),
    );

    let res = client()
        .post(format!("{a_url}/api/chat"))
        .json(&json!({"question": "why is the lag growing?", "session_id": sid}))
        .send()
        .await
        .unwrap();
    let mut events = res.bytes_stream().eventsource();
    let mut seen = String::new();
    while let Some(Ok(ev)) = events.next().await {
        if let Ok(ChatEvent::Token { text }) = serde_json::from_str(&ev.data) {
            seen.push_str(&text);
            if seen.split_whitespace().count() >= 8 {
                break;
            }
        }
    }
    // Let the partial answer reach the database (written every 500 ms).
    tokio::time::sleep(Duration::from_millis(1200)).await;
    a.kill().unwrap(); // SIGKILL
    a.wait().unwrap();
    drop(events);

    // B answers on, in the same conversation, while A's turn is still live.
    let next = ask(
        &b.url,
        json!({"question": "and the broker disk usage?", "session_id": sid}),
    )
    .await;
    assert_eq!(session_of(&next), sid);
    assert!(!cards(&next).is_empty(), "{}", answer_text(&next));
    let (_, conv) = call(&b.url, "conversation", json!({"id": sid})).await;
    assert_eq!(conv["turns"].as_array().unwrap().len(), 3);
    assert_eq!(conv["turns"][1]["status"], "interrupted", "still live");

    // Time passes: A never renews its lease. B's sweep recovers the turn.
    common::pg::execute(
        &db,
        "UPDATE turns SET heartbeat = now() - interval '1 hour' WHERE live",
    )
    .await;
    assert_eq!(
        b.state.conversations.recover_interrupted().await.unwrap(),
        1
    );
    assert_eq!(
        b.state.conversations.recover_interrupted().await.unwrap(),
        0
    );
    let (_, conv) = call(&b.url, "conversation", json!({"id": sid})).await;
    let cut = &conv["turns"][1];
    assert_eq!(cut["question"], "why is the lag growing?");
    assert_eq!(cut["status"], "interrupted");
    let answer = cut["answer"].as_str().unwrap();
    assert!(
        answer.starts_with("word0 word1 word2"),
        "what A streamed is kept: {answer:?} (client saw {seen:?})"
    );
}

/// A single-machine deployment moves to Postgres with `registry-chat migrate`:
/// its conversations continue and its requests keep their references; a second
/// run into the now non-empty database is refused and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn migrate_copies_a_sqlite_deployment_into_postgres() {
    let Some(db) = common::pg::database().await else {
        return;
    };
    let single = TestServer::start_indexed(|_| {}).await;
    let first = ask(
        &single.url,
        json!({"question": "pods in payments keep restarting"}),
    )
    .await;
    let sid = session_of(&first);
    let top = cards(&first)[0].clone();
    let (status, saved) = call(
        &single.url,
        "create_request",
        json!({"input": {"problem": "Check consumer group lag on our Kafka brokers",
                         "healthy": "", "session_id": sid,
                         "closest": ["platform-ops/nats-server-health"]}}),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    // Everything in the main file (not the WAL), then a copy as the deployment's.
    single
        .state
        .db
        .write(|c| Ok(c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")?))
        .await
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("registry-chat.db");
    std::fs::copy(single.dir.path().join("registry-chat.db"), &file).unwrap();
    single.stop().await.unwrap();

    let migrate = || {
        common::binary()
            .args(["--data-dir"])
            .arg(data.path())
            .args(["migrate", "--from"])
            .arg(format!("sqlite:{}", file.display()))
            .args(["--to", &db])
            .output()
            .unwrap()
    };
    let out = migrate();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("sessions: 1 rows") && err.contains("requests: 1 rows"),
        "{err}"
    );

    let replica = replica(&db).await;
    let next = ask(
        &replica.url,
        json!({"question": "what about its SLIs?", "session_id": sid}),
    )
    .await;
    assert_eq!(session_of(&next), sid, "the conversation continues");
    assert_eq!(cards(&next), vec![top], "with its memory");
    let saved = replica.state.requests.saved(1).await.unwrap();
    assert_eq!(saved.request.reference, "REQ-0001");
    assert!(
        saved.markdown.contains("NATS Server Health"),
        "{}",
        saved.markdown
    );
    // New requests continue after the copied ids.
    let (_, second) = call(
        &replica.url,
        "create_request",
        json!({"input": {"problem": "Rotate Vault tokens", "healthy": ""}}),
    )
    .await;
    assert_eq!(second["request"]["reference"], "REQ-0002", "{second}");

    let again = migrate();
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success());
    assert!(err.contains("migrate into an empty database"), "{err}");
    assert!(!err.contains("postgres@"), "no URL in messages: {err}");
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// A reindex started on one replica is followed by the other, which loads the
/// catalog the first published instead of reading sources (its own copy of the
/// sources lacks the change) and answers from its previous snapshot meanwhile; a
/// publication built by another version is not loaded (the follower indexes its
/// own sources); only one replica holds the fleet's index lock at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reindex_on_one_replica_is_followed_by_the_other() {
    let Some(db) = common::pg::database().await else {
        return;
    };
    // Each replica has its own copy of the same sources.
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/collections");
    let (sources, theirs) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    copy_dir(&samples, sources.path());
    copy_dir(&samples, theirs.path());
    let start = |db: String, root: std::path::PathBuf| {
        TestServer::start_indexed(move |c| {
            c.database.url = Some(Secret::new(db));
            c.admin.token = Some(Secret::new("admin-token-0123456789"));
            c.collections = ["cloud-ops", "kube-ops", "platform-ops"]
                .iter()
                .map(|n| registry_chat::config::CollectionConfig {
                    name: Some(n.to_string()),
                    path: Some(root.join(n)),
                    ..Default::default()
                })
                .collect();
        })
    };
    let (a, b) = (
        start(db.clone(), sources.path().to_path_buf()).await,
        start(db.clone(), theirs.path().to_path_buf()).await,
    );
    registry_chat::services::watch_fleet_index(&b.state, Duration::from_millis(200));

    common::append_to_a_readme(
        &sources.path().join("kube-ops/codebundles"),
        "\nAlso checks the flux capacitor.\n",
    );

    // In the replica's own catalog (and so its keyword search).
    let found = |s: &TestServer| {
        let db = s.state.db.clone();
        async move {
            db.read(|c| {
                Ok(c.query_row(
                    "SELECT count(*) FROM chunks WHERE show_text LIKE '%flux capacitor%'",
                    [],
                    |r| r.get::<_, i64>(0),
                )?)
            })
            .await
            .unwrap()
                > 0
        }
    };
    assert!(!found(&b).await, "not there before");
    let res = client()
        .post(format!("{}/api/admin/reindex", a.url))
        .bearer_auth("admin-token-0123456789")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
    let mut followed = false;
    for _ in 0..1200 {
        if a.state.reindexer.job().state == app::api::admin::JobState::Done
            && b.state.reindexer.job().state == app::api::admin::JobState::Done
        {
            followed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        followed,
        "A: {:?} / B: {:?}",
        a.state.reindexer.job(),
        b.state.reindexer.job()
    );
    assert!(found(&a).await, "A serves the change");
    assert!(found(&b).await, "B loaded A's catalog, not its own sources");
    let message = b.state.reindexer.job().message.unwrap_or_default();
    assert!(message.contains("loaded the catalog"), "{message}");
    assert!(
        message.contains("embedded 0 chunks"),
        "nothing embedded again: {message}"
    );
    // The same catalog, ids, keyword index and vectors on both.
    let shape = |s: &TestServer| {
        let db = s.state.db.clone();
        async move {
            db.read(|c| {
                Ok(c.query_row(
                    "SELECT (SELECT group_concat(id || slug) FROM bundles), (SELECT count(*) FROM chunk_fts WHERE chunk_fts MATCH 'capacitor'), (SELECT count(*) FROM embeddings), (SELECT group_concat(rowid || id) FROM chunks)",
                    [],
                    |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?, r.get::<_, String>(3)?)),
                )?)
            })
            .await
            .unwrap()
        }
    };
    assert_eq!(shape(&a).await, shape(&b).await);
    let hits = |s: &TestServer| {
        let s = s.state.clone();
        async move {
            let r = s
                .searcher()
                .search("flux capacitor", &Default::default())
                .await
                .unwrap();
            r.bundles
                .iter()
                .map(|b| (b.bundle.key(), b.score))
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(hits(&a).await, hits(&b).await, "both rank alike");
    // Both say which published run they hold: the same one.
    let run = |s: &TestServer| {
        let url = format!("{}/health", s.url);
        async move { common::get_json(&url).await["index"]["catalog_run"].as_i64() }
    };
    assert!(run(&a).await.is_some());
    assert_eq!(run(&a).await, run(&b).await);

    // A publication built by another schema or parser is not loaded: B indexes
    // its own sources, which lack the change.
    let registry_chat::store::Shared::Postgres(pg) = &a.state.shared else {
        panic!("replicas on Postgres");
    };
    pg.client()
        .await
        .unwrap()
        .execute(
            "INSERT INTO index_runs (replica, catalog_schema, ingest_version, catalog_rows) VALUES ('older', 1, '0', 1)",
            &[],
        )
        .await
        .unwrap();
    let mut own = false;
    for _ in 0..1200 {
        if !found(&b).await && b.state.reindexer.job().state == app::api::admin::JobState::Done {
            own = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(own, "B: {:?}", b.state.reindexer.job());
    assert_eq!(run(&b).await, None, "B's catalog is its own now");

    // One index lock for the fleet; released when its holder lets go (or dies).
    let held = pg.try_index_lock().await.unwrap().expect("free");
    assert!(pg.try_index_lock().await.unwrap().is_none(), "held by one");
    drop(held);
    let mut again = None;
    for _ in 0..50 {
        again = pg.try_index_lock().await.unwrap();
        if again.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(again.is_some(), "released with its connection");
    // While one holder has it, a Reindex started on a replica is refused at once.
    let res = client()
        .post(format!("{}/api/admin/reindex", b.url))
        .bearer_auth("admin-token-0123456789")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 409);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "index_busy");
    drop(again);
}

/// `registry-chat index` takes the fleet's index lock as an admin Reindex does:
/// it waits while another replica holds it, and a run that changed the catalog is
/// published for the other replicas to follow (a run that changed nothing is not);
/// `index --published` starts a new replica from that catalog.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_index_waits_for_the_fleet_lock_and_announces() {
    let Some(db) = common::pg::database().await else {
        return;
    };
    // Another replica's run: the lock held on a connection of the test's own.
    let (other, conn) = tokio_postgres::connect(&db, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    let lock = registry_chat::store::pg::INDEX_LOCK;
    other
        .execute("SELECT pg_advisory_lock($1)", &[&lock])
        .await
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let index = || {
        let mut cmd = common::binary();
        cmd.arg("--data-dir")
            .arg(data.path())
            .args(["index", "--quiet"])
            .env("REGISTRY_CHAT_DATABASE_URL", &db)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        cmd
    };
    let mut child = index().spawn().unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(
        child.try_wait().unwrap().is_none(),
        "waits while another replica indexes"
    );
    let runs = || async {
        let n: i64 = other
            .query_one("SELECT count(*) FROM index_runs", &[])
            .await
            .unwrap()
            .get(0);
        n
    };
    assert_eq!(runs().await, 0);
    other
        .execute("SELECT pg_advisory_unlock($1)", &[&lock])
        .await
        .unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("Another replica is indexing"), "{err}");
    assert_eq!(
        runs().await,
        1,
        "the run that built the catalog is announced"
    );

    let again = index().output().unwrap();
    assert!(again.status.success());
    assert_eq!(runs().await, 1, "a run that changed nothing is not");

    // A new replica starts from the published catalog: no sources, no embedding.
    let fresh = tempfile::tempdir().unwrap();
    let published = |url: Option<&str>| {
        let mut cmd = common::binary();
        cmd.arg("--data-dir")
            .arg(fresh.path())
            .args(["index", "--published"]);
        match url {
            Some(url) => cmd.env("REGISTRY_CHAT_DATABASE_URL", url),
            None => cmd.env_remove("REGISTRY_CHAT_DATABASE_URL"),
        };
        cmd.output().unwrap()
    };
    let alone = published(None);
    assert!(!alone.status.success());
    assert!(
        String::from_utf8_lossy(&alone.stderr).contains("set database.url"),
        "{}",
        String::from_utf8_lossy(&alone.stderr)
    );
    let out = published(Some(&db));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("Loaded the catalog"), "{said}");
    assert!(said.contains("embedded 0 chunks"), "{said}");
    let count = |dir: &std::path::Path| {
        let c = rusqlite::Connection::open(dir.join("registry-chat.db")).unwrap();
        c.query_row(
            "SELECT (SELECT count(*) FROM chunks) || '/' || (SELECT count(*) FROM embeddings) || '/' || (SELECT count(*) FROM chunk_fts)",
            [],
            |r| r.get::<_, String>(0),
        )
        .unwrap()
    };
    assert_eq!(count(fresh.path()), count(data.path()));
    // So does a first start (`--if-empty`, as scripts/start runs it).
    let first = tempfile::tempdir().unwrap();
    let out = common::binary()
        .arg("--data-dir")
        .arg(first.path())
        .args(["index", "--if-empty"])
        .env("REGISTRY_CHAT_DATABASE_URL", &db)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("Loaded the catalog"), "{said}");
    assert_eq!(count(first.path()), count(data.path()));
    // A publication that does not read back whole is not loaded: the replica keeps
    // the catalog it had.
    other
        .execute(
            "UPDATE index_runs SET catalog_rows = catalog_rows + 1 WHERE catalog_rows IS NOT NULL",
            &[],
        )
        .await
        .unwrap();
    let before = count(fresh.path());
    let out = published(Some(&db));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("catalog rows"), "{err}");
    assert_eq!(count(fresh.path()), before, "the previous catalog stays");
    // The newest run announced by an older binary, without a catalog: nothing
    // to load; the replica is told to index its sources.
    other
        .execute("INSERT INTO index_runs (replica) VALUES ('older')", &[])
        .await
        .unwrap();
    let out = published(Some(&db));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("index the sources"), "{err}");
}
