//! The admin API over real HTTP: token checks, traces that survive a restart,
//! quality figures against a hand-computed fixture, test queries that save
//! nothing, the golden export, reindexing and codebundle requests.

mod common;

use common::{TestServer, ask, client, session_of};
use registry_chat::config::Secret;
use registry_chat::memory::{self, TurnRecord};
use serde_json::{Value, json};
use std::time::Duration;

const TOKEN: &str = "test-admin-token-0123456789";

fn with_token(c: &mut registry_chat::config::Config) {
    c.admin.token = Some(Secret::new(TOKEN));
}

async fn admin_get(server: &TestServer, path: &str) -> (u16, Value) {
    let res = client()
        .get(server.at(&format!("/api/admin{path}")))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn admin_post(server: &TestServer, path: &str, body: Value) -> (u16, Value) {
    let res = client()
        .post(server.at(&format!("/api/admin{path}")))
        .bearer_auth(TOKEN)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

const ROUTES: &[(&str, &str)] = &[
    ("GET", "/check"),
    ("GET", "/traces"),
    ("GET", "/traces/abc"),
    ("GET", "/quality?days=7"),
    ("GET", "/golden"),
    ("POST", "/test-query"),
    ("GET", "/index"),
    ("GET", "/reindex"),
    ("POST", "/reindex"),
    ("GET", "/requests"),
    ("POST", "/requests/1/status"),
    ("GET", "/requests/1/export"),
];

async fn raw(server: &TestServer, method: &str, path: &str, auth: Option<&str>) -> (u16, Value) {
    let url = server.at(&format!("/api/admin{path}"));
    let mut req = match method {
        "GET" => client().get(url),
        _ => client().post(url).json(&json!({})),
    };
    if let Some(a) = auth {
        req = req.header("authorization", a);
    }
    let res = req.send().await.unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_is_disabled_without_a_token_and_refuses_wrong_ones() {
    let open = TestServer::start().await;
    for (method, path) in ROUTES {
        let (status, body) = raw(&open, method, path, Some(&format!("Bearer {TOKEN}"))).await;
        assert_eq!(status, 403, "{method} {path}");
        assert_eq!(body["code"], "admin_disabled");
    }
    open.stop().await.unwrap();

    let server = TestServer::start_with(with_token).await;
    let wrong = format!("Bearer {TOKEN}x");
    let short = format!("Bearer {}", &TOKEN[..TOKEN.len() - 1]);
    let basic = format!("Basic {TOKEN}");
    for (method, path) in ROUTES {
        for auth in [
            None,
            Some(wrong.as_str()),
            Some(short.as_str()),
            Some(basic.as_str()),
            Some("Bearer "),
        ] {
            let (status, body) = raw(&server, method, path, auth).await;
            assert_eq!(status, 401, "{method} {path} with {auth:?}");
            assert_eq!(body["code"], "unauthorized");
            assert_eq!(body["message"], "A valid admin token is required.");
        }
    }
    let (status, body) = raw(&server, "GET", "/check", Some(&format!("Bearer {TOKEN}"))).await;
    assert_eq!((status, body), (200, json!({"ok": true})));
    // An unknown admin path is a plain 404, not an auth prompt.
    let (status, _) = raw(&server, "GET", "/nope", None).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn traces_are_searchable_filterable_and_survive_a_restart() {
    traces_are_searchable_filterable_and_survive_a_restart_on(
        TestServer::start_indexed(with_token).await,
    )
    .await;
}

/// The same over every replica's turns, in Postgres.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn traces_are_searchable_filterable_and_survive_a_restart_on_postgres() {
    if let Some(server) = on_postgres().await {
        traces_are_searchable_filterable_and_survive_a_restart_on(server).await;
    }
}

async fn traces_are_searchable_filterable_and_survive_a_restart_on(server: TestServer) {
    let first = ask(
        &server.url,
        json!({"question": "pods in payments keep restarting, where do I start?"}),
    )
    .await;
    let session = session_of(&first);
    ask(
        &server.url,
        json!({"question": "does it need write access?", "session_id": session}),
    )
    .await;
    let gap = ask(
        &server.url,
        json!({"question": "how do I rebalance partitions across kafka brokers?"}),
    )
    .await;
    let gap_turn = gap
        .iter()
        .find_map(|(_, e)| match e {
            app::api::ChatEvent::Done { turn_id, .. } => turn_id.clone(),
            _ => None,
        })
        .unwrap();
    let res = client()
        .post(server.at("/api/feedback"))
        .json(&json!({"feedback": {"turn_id": gap_turn, "value": -1, "note": "nothing for kafka"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    let server = server.restart().await;
    let (status, page) = admin_get(&server, "/traces").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total"], 3);
    let rows = page["traces"].as_array().unwrap();
    assert_eq!(
        rows[0]["question"],
        "how do I rebalance partitions across kafka brokers?"
    );
    assert_eq!(rows[0]["feedback"], -1);
    assert!(
        rows.iter()
            .all(|r| r["latency_ms"].as_u64().is_some() && r["status"] == "complete")
    );

    let (_, by_text) = admin_get(&server, "/traces?q=PAYMENTS%20restarting").await;
    assert_eq!(by_text["total"], 1);
    // Words in the answer count too, and wildcards are literal.
    let (_, literal) = admin_get(&server, "/traces?q=100%25").await;
    assert_eq!(literal["total"], 0);
    let (_, follow) = admin_get(&server, "/traces?follow_ups=true").await;
    assert_eq!(follow["total"], 1);
    assert_eq!(
        follow["traces"][0]["question"],
        "does it need write access?"
    );
    let (_, down) = admin_get(&server, "/traces?thumbs_down=true").await;
    assert_eq!(down["total"], 1);
    let (_, nm) = admin_get(&server, "/traces?no_match=true").await;
    assert_eq!(nm["total"], 1);
    assert_eq!(nm["traces"][0]["id"], gap_turn.as_str());
    let (_, low) = admin_get(&server, "/traces?low_confidence=true&no_match=true").await;
    assert_eq!(low["total"], 1);
    let (_, errors) = admin_get(&server, "/traces?errors=true").await;
    assert_eq!(errors["total"], 0);
    let (_, paged) = admin_get(&server, "/traces?limit=1&offset=1").await;
    assert_eq!(
        (
            paged["total"].as_u64(),
            paged["traces"].as_array().unwrap().len()
        ),
        (Some(3), 1)
    );

    let (status, detail) = admin_get(&server, &format!("/traces/{gap_turn}")).await;
    assert_eq!(status, 200);
    assert_eq!(detail["feedback_note"], "nothing for kafka");
    let trace = &detail["trace"];
    for key in [
        "classification",
        "rewrite",
        "plan",
        "searches",
        "timings_ms",
        "llm",
        "errors",
    ] {
        assert!(!trace[key].is_null(), "trace has {key}");
    }
    assert!(trace["timings_ms"]["retrieve"].as_f64().is_some());
    assert!(!trace["searches"].as_array().unwrap().is_empty());
    // What the search found, scored, whatever the answer then used.
    for key in ["bundles", "keywords", "docs"] {
        assert!(trace[key].is_array(), "trace has {key}");
    }
    if let Some(b) = trace["bundles"].get(0) {
        assert!(b["key"].is_string() && b["score"].is_f64(), "{b}");
    }
    let (status, body) = admin_get(&server, "/traces/not-a-turn").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("turn_not_found"))
    );
}

/// One fixture turn: what the agent would have saved, its feedback and its time.
struct Fx {
    session: usize,
    question: &'static str,
    category: &'static str,
    status: &'static str,
    confidence: f32,
    cards: usize,
    no_match: bool,
    errors: &'static [&'static str],
    /// (total, retrieve) milliseconds; `None` for a turn that failed early.
    timings: Option<(f64, f64)>,
    feedback: Option<i64>,
    at: &'static str,
}

const FIXTURE: &[Fx] = &[
    Fx {
        session: 0,
        question: "good answer about pods",
        category: "general",
        status: "complete",
        confidence: 0.9,
        cards: 2,
        no_match: false,
        errors: &[],
        timings: Some((100.0, 40.0)),
        feedback: Some(1),
        at: "2026-03-01T10:00:00.000Z",
    },
    Fx {
        session: 1,
        question: "kafka partition rebalancing",
        category: "general",
        status: "complete",
        confidence: 0.2,
        cards: 0,
        no_match: true,
        errors: &[],
        timings: Some((300.0, 80.0)),
        feedback: Some(-1),
        at: "2026-03-01T10:01:00.000Z",
    },
    Fx {
        session: 1,
        question: "what about its consumers?",
        category: "follow-up",
        status: "complete",
        confidence: 0.6,
        cards: 1,
        no_match: false,
        errors: &["llm: timeout"],
        timings: Some((200.0, 60.0)),
        feedback: None,
        at: "2026-03-01T10:02:00.000Z",
    },
    Fx {
        session: 1,
        question: "and for strimzi?",
        category: "follow-up",
        status: "complete",
        confidence: 0.1,
        cards: 0,
        no_match: true,
        errors: &[],
        timings: Some((400.0, 100.0)),
        feedback: None,
        at: "2026-03-01T10:03:00.000Z",
    },
    Fx {
        session: 0,
        question: "a turn that failed",
        category: "general",
        status: "failed",
        confidence: 0.0,
        cards: 0,
        no_match: false,
        errors: &["search: boom"],
        timings: None,
        feedback: None,
        at: "2026-03-01T10:04:00.000Z",
    },
    Fx {
        session: 0,
        question: "disk pressure on nodes",
        category: "general",
        status: "complete",
        confidence: 0.7,
        cards: 3,
        no_match: false,
        errors: &[],
        timings: Some((1000.0, 500.0)),
        feedback: Some(1),
        at: "2026-03-01T23:59:59.000Z",
    },
    Fx {
        session: 0,
        question: "outside the window",
        category: "general",
        status: "complete",
        confidence: 0.0,
        cards: 0,
        no_match: true,
        errors: &[],
        timings: Some((9000.0, 9000.0)),
        feedback: Some(-1),
        at: "2026-02-28T12:00:00.000Z",
    },
];

fn record(session: &str, f: &Fx) -> TurnRecord {
    let card = app::api::Card::new(
        app::api::catalog::BundleHeader {
            collection: "kube-ops".into(),
            slug: "x".into(),
            ..Default::default()
        },
        Some(0.0),
        Vec::new(),
    );
    let timings = match f.timings {
        Some((total, retrieve)) => json!({"classify": 1.0, "retrieve": retrieve, "total": total}),
        None => json!({}),
    };
    TurnRecord {
        id: memory::new_id(),
        session_id: session.into(),
        status: f.status.parse().expect("a turn status"),
        question: f.question.into(),
        rewritten: f.question.into(),
        category: f.category.parse().expect("a category"),
        answer: format!("answer to {}", f.question),
        source: app::api::AnswerSource::Codebundles,
        confidence: f.confidence,
        no_match: f.no_match,
        model: "offline".into(),
        cards: vec![card; f.cards],
        trace: json!({"timings_ms": timings, "errors": f.errors}),
        ..Default::default()
    }
}

/// Six turns on 2026-03-01 and one the day before, saved as the agent saves them
/// (in Postgres when the server's `database.url` is `pg`).
async fn fixture(server: &TestServer) -> Vec<String> {
    let sessions = [memory::new_id(), memory::new_id()];
    let turns: Vec<(TurnRecord, Option<i64>, &str)> = FIXTURE
        .iter()
        .map(|f| (record(&sessions[f.session], f), f.feedback, f.at))
        .collect();
    let pg = server.state.config.database.postgres().map(str::to_string);
    let mut ids = Vec::new();
    for (rec, feedback, at) in turns {
        let id = rec.id.clone();
        ids.push(id.clone());
        let at = at.to_string();
        server.state.conversations.save_turn(rec).await.unwrap();
        match &pg {
            Some(url) => {
                let feedback = feedback.map_or("NULL".to_string(), |f| f.to_string());
                common::pg::execute(
                    url,
                    &format!(
                        "UPDATE turns SET created_at = '{at}', feedback = {feedback} WHERE id = '{id}'"
                    ),
                )
                .await;
            }
            None => server
                .state
                .db
                .write(move |c| {
                    c.execute(
                        "UPDATE turns SET created_at = ?2, feedback = ?3 WHERE id = ?1",
                        rusqlite::params![id, at, feedback],
                    )?;
                    Ok(())
                })
                .await
                .unwrap(),
        }
    }
    ids
}

/// An admin server with turns in Postgres, or `None` without a test cluster.
async fn on_postgres() -> Option<TestServer> {
    let url = common::pg::database().await?;
    Some(
        TestServer::start_indexed(move |c| {
            with_token(c);
            c.database.url = Some(registry_chat::config::Secret::new(url));
        })
        .await,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quality_matches_a_hand_computed_fixture() {
    quality_matches_a_hand_computed_fixture_on(TestServer::start_with(with_token).await).await;
}

/// The same over every replica's turns, in Postgres.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quality_matches_a_hand_computed_fixture_on_postgres() {
    if let Some(server) = on_postgres().await {
        quality_matches_a_hand_computed_fixture_on(server).await;
    }
}

async fn quality_matches_a_hand_computed_fixture_on(server: TestServer) {
    let ids = fixture(&server).await;
    let (status, q) = admin_get(&server, "/quality?from=2026-03-01&to=2026-03-01").await;
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["from"], "2026-03-01T00:00:00.000Z");
    assert_eq!(q["to"], "2026-03-02T00:00:00.000Z");
    // 6 turns in the window, 5 of them complete.
    assert_eq!(q["turns"], 6);
    assert_eq!(q["no_match_rate"], 0.4); // 2 of 5 complete
    assert_eq!(q["follow_up_failure_rate"], 0.5); // "and for strimzi?" found nothing
    assert_eq!(q["error_rate"], 0.333); // the failed turn and the LLM timeout, of 6
    assert_eq!(q["avg_cards"], 1.2); // (2+0+1+0+3)/5
    assert_eq!(q["avg_confidence"], 0.5); // (0.9+0.2+0.6+0.1+0.7)/5
    assert_eq!(
        (q["thumbs_up"].as_u64(), q["thumbs_down"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(q["thumbs_ratio"], 0.667);
    let stage = |name: &str| {
        q["latency"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["stage"] == name)
            .cloned()
            .unwrap()
    };
    // Over [100, 200, 300, 400, 1000]: p50 is rank round(0.5 × 4) = 2, p95 rank round(3.8) = 4.
    assert_eq!(
        (
            stage("total")["p50_ms"].as_f64(),
            stage("total")["p95_ms"].as_f64()
        ),
        (Some(300.0), Some(1000.0))
    );
    assert_eq!(
        (
            stage("retrieve")["p50_ms"].as_f64(),
            stage("retrieve")["p95_ms"].as_f64()
        ),
        (Some(80.0), Some(500.0))
    );
    let worst: Vec<(&str, &str)> = q["worst"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["question"].as_str().unwrap(),
                w["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        worst,
        vec![
            ("kafka partition rebalancing", "thumbs-down"),
            ("a turn that failed", "failed"),
            ("and for strimzi?", "no match"),
            ("what about its consumers?", "errors"),
        ]
    );
    assert_eq!(q["worst"][0]["turn_id"], ids[1].as_str());
    let recs: Vec<&str> = q["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["metric"].as_str().unwrap())
        .collect();
    // avg confidence is exactly at its 0.5 threshold and p95 is under 5 s: no advice.
    assert_eq!(
        recs,
        vec![
            "no_match_rate",
            "follow_up_failure_rate",
            "error_rate",
            "thumbs_down_share"
        ]
    );
    assert_eq!(q["recommendations"][0]["threshold"], 0.3);

    // An empty window is all zeros, with no advice.
    let (_, empty) = admin_get(&server, "/quality?from=2025-01-01&to=2025-01-31").await;
    assert_eq!(
        (
            empty["turns"].as_u64(),
            empty["recommendations"].as_array().unwrap().len()
        ),
        (Some(0), 0)
    );
    assert!(empty["thumbs_ratio"].is_null());
    for bad in [
        "/quality?days=0",
        "/quality?from=yesterday",
        "/quality?days=3&from=2026-01-01",
        "/quality?from=2026-03-02&to=2026-03-01",
    ] {
        let (status, body) = admin_get(&server, bad).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("bad_request")),
            "{bad}: {body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thumbs_down_and_no_match_turns_export_as_golden_lines() {
    thumbs_down_and_no_match_turns_export_as_golden_lines_on(
        TestServer::start_with(with_token).await,
    )
    .await;
}

/// The same over every replica's turns, in Postgres.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thumbs_down_and_no_match_turns_export_as_golden_lines_on_postgres() {
    if let Some(server) = on_postgres().await {
        thumbs_down_and_no_match_turns_export_as_golden_lines_on(server).await;
    }
}

async fn thumbs_down_and_no_match_turns_export_as_golden_lines_on(server: TestServer) {
    let ids = fixture(&server).await;
    let res = client()
        .get(server.at("/api/admin/golden?from=2026-03-01&to=2026-03-01"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/x-ndjson");
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"golden-from-feedback.jsonl\""
    );
    let text = res.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let questions: Vec<&str> = lines
        .iter()
        .map(|l| l["question"].as_str().unwrap())
        .collect();
    // The thumbs-down no-match, then the no-match follow-up preceded by the follow-up
    // it follows (as context); nothing outside the window, nothing that failed.
    assert_eq!(
        questions,
        vec![
            "kafka partition rebalancing",
            "what about its consumers?",
            "and for strimzi?"
        ]
    );
    let fb = |i: usize| format!("fb-{}", &ids[i][..12]);
    assert_eq!(lines[0]["id"], fb(1).as_str());
    assert!(
        lines[0]["notes"]
            .as_str()
            .unwrap()
            .contains("thumbs-down, no match")
    );
    assert_eq!(lines[1]["id"], fb(2).as_str());
    assert!(
        lines[1]["notes"]
            .as_str()
            .unwrap()
            .starts_with("Context for")
    );
    // The whole chain: strimzi follows consumers, which follows the kafka question.
    assert_eq!(lines[1]["depends_on"], fb(1).as_str());
    assert_eq!(lines[2]["depends_on"], fb(2).as_str());
    assert_eq!(lines[2]["category"], "follow-up");
    assert!(lines.iter().all(|l| l["expected"] == json!([])));

    // The file is a valid golden set for `registry-chat eval`.
    let path = server.dir.path().join("golden.jsonl");
    std::fs::write(&path, &text).unwrap();
    let loaded = registry_chat::eval::golden::load(&path).unwrap();
    assert_eq!(loaded.len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_test_query_runs_the_pipeline_and_saves_nothing() {
    let server = TestServer::start_indexed(with_token).await;
    let (status, r) = admin_post(
        &server,
        "/test-query",
        json!({"question": "does it need write access?", "history": ["pods in payments keep restarting, where do I start?"]}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["history_rewrites"].as_array().unwrap().len(), 1);
    // The follow-up was understood through the replayed first question.
    assert_eq!(r["trace"]["classification"]["category"], "follow-up");
    assert!(!r["answer"].as_str().unwrap().is_empty());
    assert!(
        r["answer"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("access"),
        "{}",
        r["answer"]
    );
    assert!(r["trace"]["timings_ms"]["total"].as_f64().is_some());
    assert!(r["error"].is_null());

    let (status, r) = admin_post(
        &server,
        "/test-query",
        json!({"question": "kafka consumer lag on our brokers"}),
    )
    .await;
    assert_eq!(status, 200);
    assert!(!r["trace"]["searches"].as_array().unwrap().is_empty());

    let (turns, sessions): (i64, i64) = server
        .state
        .db
        .read(|c| {
            Ok((
                c.query_row("SELECT count(*) FROM turns", [], |r| r.get(0))?,
                c.query_row("SELECT count(*) FROM sessions", [], |r| r.get(0))?,
            ))
        })
        .await
        .unwrap();
    assert_eq!((turns, sessions), (0, 0), "a test query left a turn behind");

    let (status, body) = admin_post(&server, "/test-query", json!({"question": "   "})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("question_empty"))
    );
    let history: Vec<String> = (0..9).map(|i| format!("question {i}")).collect();
    let (status, body) = admin_post(
        &server,
        "/test-query",
        json!({"question": "q", "history": history}),
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    let (status, _) = admin_post(&server, "/test-query", json!({"nope": 1})).await;
    assert_eq!(status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn index_status_and_a_background_reindex() {
    let server = TestServer::start_indexed(with_token).await;
    let (status, s) = admin_get(&server, "/index").await;
    assert_eq!(status, 200, "{s}");
    let names: Vec<&str> = s["collections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(
        s["collections"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["bundles"].as_u64().unwrap() > 0 && c["stale"] == json!([]))
    );
    assert_eq!(s["job"]["state"], "idle");
    assert!(s["embedder"].as_str().unwrap().starts_with("minilm"));
    assert!(s["vectors"].as_u64().unwrap() > 100);

    // A bundle changes on disk: status shows it stale until the reindex.
    let root = s["collections"][0]["root"].as_str().unwrap().to_string();
    common::append_to_a_readme(
        &std::path::Path::new(&root).join("codebundles"),
        "\nAlso checks the flux capacitor.\n",
    );
    let (_, s) = admin_get(&server, "/index").await;
    assert_eq!(
        s["collections"][0]["stale"].as_array().unwrap().len(),
        1,
        "{}",
        s["collections"][0]
    );

    let (status, job) = admin_post(&server, "/reindex", json!({})).await;
    assert_eq!(status, 202, "{job}");
    assert_eq!(job["state"], "running");
    let (status, busy) = admin_post(&server, "/reindex", json!({})).await;
    assert_eq!((status, busy["code"].as_str()), (409, Some("index_busy")));
    let mut last = Value::Null;
    for _ in 0..600 {
        let (_, job) = admin_get(&server, "/reindex").await;
        last = job;
        if last["state"] != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(last["state"], "done", "{last}");
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .starts_with("3 collections"),
        "{last}"
    );
    assert!(last["finished_at"].as_str().is_some());
    let (_, s) = admin_get(&server, "/index").await;
    assert_eq!(s["collections"][0]["stale"], json!([]));
    // The new snapshot serves: the changed README is searchable.
    let r = server
        .state
        .searcher()
        .search("flux capacitor", &Default::default())
        .await
        .unwrap();
    assert!(!r.bundles.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_are_listed_triaged_and_exported() {
    triage(TestServer::start_with(with_token).await).await;
}

/// The same triage, with requests in Postgres.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_are_triaged_the_same_way_on_postgres() {
    let Some(url) = common::pg::database().await else {
        return;
    };
    let server = TestServer::start_with(move |c| {
        with_token(c);
        c.database.url = Some(registry_chat::config::Secret::new(url));
    })
    .await;
    triage(server).await;
}

async fn triage(server: TestServer) {
    for problem in ["Check Kafka consumer lag", "Rotate Vault tokens"] {
        let res = client()
            .post(server.at("/api/create_request"))
            .json(&json!({"input": {"problem": problem, "healthy": "", "contact": "ops@example.com"}}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
    }
    let (_, list) = admin_get(&server, "/requests").await;
    let refs: Vec<&str> = list["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reference"].as_str().unwrap())
        .collect();
    assert_eq!(refs, vec!["REQ-0002", "REQ-0001"]);

    let (status, body) =
        admin_post(&server, "/requests/1/status", json!({"status": "planned"})).await;
    assert_eq!((status, body), (200, json!({"status": "planned"})));
    let (_, planned) = admin_get(&server, "/requests?status=planned").await;
    assert_eq!(planned["requests"].as_array().unwrap().len(), 1);
    assert_eq!(planned["requests"][0]["reference"], "REQ-0001");
    let (status, body) =
        admin_post(&server, "/requests/1/status", json!({"status": "someday"})).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    assert_eq!(
        body["message"],
        "Status must be one of open, planned, done, rejected."
    );
    let (status, body) =
        admin_post(&server, "/requests/99/status", json!({"status": "done"})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("request_not_found"))
    );

    let res = client()
        .get(server.at("/api/admin/requests/1/export"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"req-0001.md\""
    );
    let md = res.text().await.unwrap();
    assert!(md.starts_with("# CodeBundle request REQ-0001: Check Kafka consumer lag"));
    assert!(md.contains("*Status: planned"));
    assert!(md.contains("Contact: ops@example.com"));
    let (status, _) = admin_get(&server, "/requests/99/export").await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_scripted_llm_traces_hold_prompts_rounds_and_tokens() {
    let llm = common::scripted::Scripted::start(vec![common::model::rule_model()]).await;
    let url = format!("{}/v1", llm.url);
    let server = TestServer::start_indexed(|c| {
        with_token(c);
        c.llm.base_url = Some(url);
        c.llm.model = Some("rule-model".into());
        c.llm.api_key = Some(Secret::new("sk-test"));
    })
    .await;
    // A test query goes through the LLM too, and still saves nothing.
    let (status, r) = admin_post(
        &server,
        "/test-query",
        json!({"question": "pods in payments keep restarting, where do I start?"}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["trace"]["llm"]["model"], "rule-model");
    assert!(!r["trace"]["llm"]["rounds"].as_array().unwrap().is_empty());
    let (_, page) = admin_get(&server, "/traces").await;
    assert_eq!(page["total"], 0);

    ask(
        &server.url,
        json!({"question": "pods in payments keep restarting, where do I start?"}),
    )
    .await;
    let (_, page) = admin_get(&server, "/traces").await;
    assert_eq!(page["total"], 1);
    assert_eq!(page["traces"][0]["model"], "rule-model");
    let id = page["traces"][0]["id"].as_str().unwrap().to_string();
    let (_, d) = admin_get(&server, &format!("/traces/{id}")).await;
    assert!(d["tokens_in"].as_u64().unwrap() > 0, "{d}");
    let rounds = d["trace"]["llm"]["rounds"].as_array().unwrap();
    assert!(!rounds.is_empty());
    // A follow-up is classified (and rewritten) by the LLM: those exchanges are kept.
    let session = page["traces"][0]["session_id"]
        .as_str()
        .unwrap()
        .to_string();
    ask(
        &server.url,
        json!({"question": "what about its SLIs?", "session_id": session}),
    )
    .await;
    let (_, page) = admin_get(&server, "/traces?follow_ups=true").await;
    let fid = page["traces"][0]["id"].as_str().unwrap().to_string();
    let (_, f) = admin_get(&server, &format!("/traces/{fid}")).await;
    let understand = f["trace"]["llm"]["understand"].as_array().unwrap();
    assert_eq!(understand[0]["call"], "classify", "{f}");
    assert!(
        understand[0]["prompt"][1]["content"]
            .as_str()
            .unwrap()
            .contains("what about its SLIs?")
    );
    assert!(understand[0]["response"].is_string() || understand[0]["error"].is_string());
    // The prompt as sent, then each round's response (and tool calls, if any).
    assert_eq!(rounds[0]["prompt"][0]["role"], "system");
    let last = rounds.last().unwrap();
    assert!(
        last["response"].as_str().unwrap().contains("[bundle:"),
        "{last}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_reindex_is_reported_and_the_next_one_runs() {
    let gone = tempfile::tempdir().unwrap();
    let path = gone.path().join("team-bundles");
    std::fs::create_dir_all(path.join("codebundles")).unwrap();
    let server = TestServer::start_indexed(|c| {
        with_token(c);
        c.collections = vec![registry_chat::config::CollectionConfig {
            name: Some("team-bundles".into()),
            path: Some(path.clone()),
            git_url: None,
            git_ref: None,
        }];
    })
    .await;
    std::fs::remove_dir_all(&path).unwrap();
    let wait = || async {
        for _ in 0..300 {
            let (_, s) = admin_get(&server, "/index").await;
            if s["job"]["state"] != "running" {
                return s["job"].clone();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("reindex still running after 30 s");
    };
    let (status, _) = admin_post(&server, "/reindex", json!({})).await;
    assert_eq!(status, 202);
    let job = wait().await;
    assert_eq!(job["state"], "failed", "{job}");
    assert!(
        job["message"].as_str().unwrap().contains("team-bundles"),
        "{job}"
    );
    // The catalog is untouched and questions are still answered.
    let (_, s) = admin_get(&server, "/index").await;
    assert_eq!(s["collections"].as_array().unwrap().len(), 3);
    // Not stuck: the next run starts.
    let (status, _) = admin_post(&server, "/reindex", json!({})).await;
    assert_eq!(status, 202);
    wait().await;
}
