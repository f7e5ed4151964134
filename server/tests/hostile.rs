//! Hostile inputs (issue "Safe with hostile repositories, misbehaving LLM servers
//! and more than one user"): each reproduction failed before the fix.
//! Collections are built in temp dirs; the LLM misbehaves on 127.0.0.1.

mod common;

use common::write;
use registry_chat::ingest::{self, CollectionSource, IndexOptions, IndexRequest, Location};
use registry_chat::store::Db;
use std::path::Path;

const SECRET: &str = "TOPSECRET-8f3a1c";

/// A collection with one ordinary bundle and symlinks to a secret outside it in
/// every place the indexer looks.
fn hostile_collection(root: &Path, outside: &Path) {
    write(
        &outside.join("secret.md"),
        &format!("# Secret\n\n{SECRET} password\n"),
    );
    write(
        &root.join("codebundles/ok-bundle/runbook.robot"),
        "*** Settings ***\nDocumentation    Checks things.\n\n*** Tasks ***\nCheck Things\n    Log    ok\n",
    );
    write(
        &root.join("README.md"),
        "# A collection\n\nNothing to see.\n",
    );
    let link = |target: &Path, at: &str| {
        std::os::unix::fs::symlink(target, root.join(at)).unwrap();
    };
    link(&outside.join("secret.md"), "NOTES.md");
    link(&outside.join("secret.md"), "codebundles/leak.md");
    link(&outside.join("secret.md"), "codebundles/.cursorrules");
    link(outside, "docs");
    link(outside, "libraries");
    link(outside, "codebundles/linked-bundle");
    link(
        &outside.join("secret.md"),
        "codebundles/ok-bundle/README.md",
    );
}

#[test]
fn symlinks_in_a_collection_never_leak_files_outside_it() {
    let outside = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    hostile_collection(root.path(), outside.path());
    let data = tempfile::tempdir().unwrap();
    let db = Db::open(&data.path().join("t.db")).unwrap();
    let req = IndexRequest {
        collections: vec![CollectionSource {
            name: "hostile".into(),
            location: Location::Path(root.path().to_path_buf()),
        }],
        docs: vec![],
    };
    let report = ingest::run(&db, data.path(), &req, &IndexOptions::default()).unwrap();
    let leaked: i64 = db
        .read_blocking(|c| {
            Ok(c.query_row(
                "SELECT (SELECT count(*) FROM docs WHERE text LIKE ?1 OR markdown LIKE ?1)
                      + (SELECT count(*) FROM chunks WHERE embed_text LIKE ?1 OR show_text LIKE ?1)
                      + (SELECT count(*) FROM bundles WHERE record LIKE ?1)",
                [format!("%{SECRET}%")],
                |r| r.get(0),
            )?)
        })
        .unwrap();
    assert_eq!(leaked, 0, "the secret reached the index");
    let bundles: Vec<String> = db
        .read_blocking(|c| {
            let mut st = c.prepare("SELECT slug FROM bundles")?;
            let v = st.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
            Ok(v)
        })
        .unwrap();
    assert_eq!(bundles, vec!["ok-bundle".to_string()]);
    let warnings: Vec<String> = report
        .collections
        .iter()
        .flat_map(|c| {
            c.warnings
                .iter()
                .map(|w| format!("{} {}", w.path, w.message))
        })
        .collect();
    for place in [
        "NOTES.md",
        "codebundles/leak.md",
        "codebundles/.cursorrules",
        "docs/",
        "libraries/",
        "codebundles/linked-bundle",
    ] {
        assert!(
            warnings
                .iter()
                .any(|w| w.contains(place) && w.contains("symlink")),
            "a warning names {place}: {warnings:?}"
        );
    }
}

#[test]
fn git_refs_cannot_be_options_and_credentials_are_never_shown() {
    let data = tempfile::tempdir().unwrap();
    let db = Db::open(&data.path().join("t.db")).unwrap();
    let pwned = data.path().join("pwned");
    let req = IndexRequest {
        collections: vec![CollectionSource {
            name: "evil".into(),
            location: Location::Git {
                url: "https://user:TOKEN123@127.0.0.1:9/none.git".into(),
                reference: Some(format!("--upload-pack=touch {}", pwned.display())),
            },
        }],
        docs: vec![],
    };
    let err = ingest::run(&db, data.path(), &req, &IndexOptions::default())
        .expect_err("a ref that is an option is refused");
    let msg = err.to_string();
    assert!(msg.contains("not a valid git ref"), "{msg}");
    assert!(!pwned.exists(), "git ran the option");
    // A fetch that fails reports the URL without its credentials.
    let req = IndexRequest {
        collections: vec![CollectionSource {
            name: "creds".into(),
            location: Location::Git {
                url: "https://user:TOKEN123@127.0.0.1:9/none.git".into(),
                reference: Some("main".into()),
            },
        }],
        docs: vec![],
    };
    let msg = ingest::run(&db, data.path(), &req, &IndexOptions::default())
        .expect_err("nothing listens on port 9")
        .to_string();
    assert!(!msg.contains("TOKEN123"), "{msg}");
}

use app::api::ChatEvent;
use common::scripted::{Reply, Scripted, sse};
use common::{TestServer, answer_text, ask, client, client_as};
use eventsource_stream::Eventsource;
use futures::StreamExt;
use serde_json::json;
use std::time::Duration;

async fn call(
    c: &reqwest::Client,
    url: &str,
    name: &str,
    body: serde_json::Value,
) -> (u16, serde_json::Value) {
    let res = c
        .post(format!("{url}/api/{name}"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or_default())
}

async fn ask_with(c: &reqwest::Client, url: &str, body: serde_json::Value) -> Vec<ChatEvent> {
    let res = c
        .post(format!("{url}/api/chat"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let mut events = res.bytes_stream().eventsource();
    let mut out = Vec::new();
    while let Some(Ok(ev)) = events.next().await {
        out.push(serde_json::from_str(&ev.data).unwrap());
    }
    out
}

fn session(events: &[ChatEvent]) -> String {
    events
        .iter()
        .find_map(|e| match e {
            ChatEvent::Done { session_id, .. } => session_id.clone(),
            _ => None,
        })
        .expect("done")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_conversation_is_its_owners_only() {
    let server = TestServer::start_indexed(|_| {}).await;
    let alice = client_as("rc_owner=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    let mallory = client_as("rc_owner=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    let sid = session(
        &ask_with(
            &alice,
            &server.url,
            json!({"question": "pods keep restarting in payments"}),
        )
        .await,
    );
    let (_, mine) = call(&alice, &server.url, "sessions", json!({})).await;
    assert_eq!(mine.as_array().unwrap().len(), 1);
    let (status, theirs) = call(&mallory, &server.url, "sessions", json!({})).await;
    assert_eq!(status, 200);
    assert!(theirs.as_array().unwrap().is_empty(), "{theirs}");
    for (name, body) in [
        ("conversation", json!({"id": sid})),
        ("rename_session", json!({"id": sid, "title": "mine now"})),
        ("delete_session", json!({"id": sid})),
    ] {
        let (status, err) = call(&mallory, &server.url, name, body).await;
        assert_eq!(status, 404, "{name}: {err}");
        assert_eq!(err["code"], "session_not_found");
    }
    let res = mallory
        .get(format!(
            "{}/api/sessions/{sid}/export?format=md",
            server.url
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404, "export");
    // Continuing someone else's conversation starts a new one of one's own.
    let other = session(
        &ask_with(
            &mallory,
            &server.url,
            json!({"question": "and its SLIs?", "session_id": sid}),
        )
        .await,
    );
    assert_ne!(other, sid);
    let (_, still) = call(&alice, &server.url, "conversation", json!({"id": sid})).await;
    assert_eq!(still["turns"].as_array().unwrap().len(), 1, "untouched");
    // A browser without a cookie gets one: HttpOnly, SameSite=Strict.
    let res = reqwest::Client::new()
        .post(format!("{}/api/sessions", server.url))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let cookie = res.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.starts_with("rc_owner=")
            && cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_user_owns_conversations_across_browsers() {
    let server = TestServer::start_indexed(|c| c.server.trusted_proxies = "127.0.0.1".into()).await;
    let as_user = |user: &str, cookie: &str| {
        let mut h = reqwest::header::HeaderMap::new();
        h.insert("x-forwarded-user", user.parse().unwrap());
        h.insert(reqwest::header::COOKIE, cookie.parse().unwrap());
        reqwest::Client::builder()
            .default_headers(h)
            .build()
            .unwrap()
    };
    let laptop = as_user("alice", "rc_owner=11111111111111111111111111111111");
    let phone = as_user("alice", "rc_owner=22222222222222222222222222222222");
    let bob = as_user("bob", "rc_owner=11111111111111111111111111111111");
    let sid = session(
        &ask_with(
            &laptop,
            &server.url,
            json!({"question": "pods keep restarting"}),
        )
        .await,
    );
    let (_, list) = call(&phone, &server.url, "sessions", json!({})).await;
    assert_eq!(list[0]["id"], sid.as_str(), "same user, other browser");
    let (_, list) = call(&bob, &server.url, "sessions", json!({})).await;
    assert!(
        list.as_array().unwrap().is_empty(),
        "another user, same cookie"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_hosts_and_cross_site_posts_are_refused() {
    let server = TestServer::start_indexed(|_| {}).await;
    let res = client()
        .post(format!("{}/api/chat", server.url))
        .header("host", "evil.example")
        .json(&json!({"question": "pods keep restarting"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["code"], "forbidden");
    // A form posted from another site.
    let form = |origin: Option<&str>| {
        let mut r = client()
            .post(format!("{}/api/sessions", server.url))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("");
        if let Some(o) = origin {
            r = r.header("origin", o);
        }
        r.send()
    };
    assert_eq!(
        form(Some("http://evil.example")).await.unwrap().status(),
        403
    );
    assert_eq!(form(None).await.unwrap().status(), 403);
    assert_eq!(
        form(Some(&server.url)).await.unwrap().status(),
        200,
        "same origin"
    );
}

/// A scripted LLM: classification first, then `writer` for the answer.
async fn with_llm(writer: Vec<Reply>) -> (Scripted, TestServer) {
    let mut replies = vec![sse::classify("general")];
    replies.extend(writer);
    let llm = Scripted::start(replies).await;
    let url = format!("{}/v1", llm.url);
    let server = TestServer::start_indexed(move |c| {
        c.llm.base_url = Some(url);
        c.llm.model = Some("m".into());
        c.llm.max_retries = 1;
        c.llm.first_token_timeout_secs = 5;
        c.llm.total_timeout_secs = 20;
    })
    .await;
    (llm, server)
}

async fn saved_status(server: &TestServer) -> Vec<String> {
    server
        .state
        .db
        .read(|c| {
            let mut st = c.prepare("SELECT status FROM turns ORDER BY created_at")?;
            let v = st.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
            Ok(v)
        })
        .await
        .unwrap()
}

fn ended(events: &[(String, ChatEvent)]) -> bool {
    events
        .iter()
        .any(|(_, e)| matches!(e, ChatEvent::Done { .. } | ChatEvent::Error { .. }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_infinite_retry_after_ends_the_turn_normally() {
    for odd in ["inf", "1e20", "NaN"] {
        let (_llm, server) = with_llm(vec![Reply::Json {
            status: 429,
            body: json!({"error": {"message": "slow down"}}),
            headers: vec![("retry-after".into(), odd.into())],
        }])
        .await;
        let events = ask(
            &server.url,
            json!({"question": "pods keep restarting in payments"}),
        )
        .await;
        assert!(ended(&events), "Retry-After {odd}: the turn ended");
        assert!(
            !answer_text(&events).is_empty(),
            "the offline answer followed"
        );
        assert_eq!(
            saved_status(&server).await,
            vec!["complete"],
            "Retry-After {odd}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_tool_call_index_is_refused_and_the_server_stays_up() {
    let chunk = sse::data(json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 200000000u64, "id": "x", "function": {"name": "search_codebundles", "arguments": "{}"}}
    ]}, "finish_reason": null}]}));
    let (_llm, server) = with_llm(vec![Reply::Stream(vec![(Duration::ZERO, chunk)])]).await;
    let events = ask(
        &server.url,
        json!({"question": "pods keep restarting in payments"}),
    )
    .await;
    assert!(ended(&events));
    let res = client()
        .get(format!("{}/health", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "still serving");
    assert_eq!(saved_status(&server).await, vec!["complete"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_error_body_or_stream_does_not_hold_the_turn() {
    // An error status whose body never ends, then a stream that never finishes.
    let endless: Vec<(Duration, String)> = (0..10_000)
        .map(|_| (Duration::from_millis(50), "x".repeat(100)))
        .collect();
    for reply in [Reply::Trickle(500, endless.clone()), Reply::Stream(endless)] {
        let (_llm, server) = with_llm(vec![reply]).await;
        let started = std::time::Instant::now();
        let events = ask(
            &server.url,
            json!({"question": "pods keep restarting in payments"}),
        )
        .await;
        assert!(ended(&events));
        assert!(!answer_text(&events).is_empty(), "answered offline");
        println!("answered offline after {:?}", started.elapsed());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_questions_get_429_with_retry_after() {
    let server = TestServer::start_indexed(|c| c.server.turns_per_minute = 2).await;
    for _ in 0..2 {
        ask(&server.url, json!({"question": "pods keep restarting"})).await;
    }
    let res = client()
        .post(format!("{}/api/chat", server.url))
        .json(&json!({"question": "pods keep restarting"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    assert!(res.headers().get("retry-after").is_some());
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
}

/// The real binary, killed with SIGKILL while an answer streams: after a restart
/// the turn is there, interrupted, with what was streamed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_stream_keeps_the_question_and_what_was_streamed() {
    // A model that writes one word every 200 ms for a minute.
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
    let spawn = || {
        common::spawn_serve(
            common::binary()
                .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
                .arg(data.path())
                .env("REGISTRY_CHAT_EMBEDDER_MODEL_DIR", common::model_dir())
                .env("REGISTRY_CHAT_LLM_BASE_URL", format!("{}/v1", llm.url))
                .env("REGISTRY_CHAT_LLM_MODEL", "slow"),
        )
    };
    let (mut child, url) = spawn();
    let res = client()
        .post(format!("{url}/api/chat"))
        .json(&json!({"question": "pods keep restarting in payments"}))
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
    // Let the partial answer reach the disk (it is written every 500 ms).
    tokio::time::sleep(Duration::from_millis(1200)).await;
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    drop(events);

    let (mut child, _url) = spawn();
    let db = registry_chat::store::Db::open(&data.path().join("registry-chat.db")).unwrap();
    let rows: Vec<(String, String, String, i64)> = db
        .read_blocking(|c| {
            let mut st = c.prepare("SELECT question, status, answer, live FROM turns")?;
            let v = st
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect::<Result<_, _>>()?;
            Ok(v)
        })
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(rows.len(), 1, "the question survived the crash");
    let (question, status, answer, live) = &rows[0];
    assert_eq!(question, "pods keep restarting in payments");
    assert_eq!(status, "interrupted");
    assert_eq!(*live, 0, "recovered at start-up");
    assert!(
        answer.starts_with("word0 word1 word2"),
        "what was streamed is kept: {answer:?} (client saw {seen:?})"
    );
}
