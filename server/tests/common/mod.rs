//! Test support: a real server on an ephemeral 127.0.0.1 port with a temp data dir,
//! and an SSE reader for `/api/chat`.
#![allow(dead_code)]

pub mod scripted;

use app::api::ChatEvent;
use eventsource_stream::Eventsource;
use futures::StreamExt;
use registry_chat::config::Config;
use registry_chat::store::Db;
use registry_chat::web::{self, AppState};
use std::time::Duration;
use tempfile::TempDir;
use tokio::task::JoinHandle;

pub struct TestServer {
    pub url: String,
    pub state: AppState,
    pub dir: TempDir,
    task: JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    pub async fn start_with(adjust: impl FnOnce(&mut Config)) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = Config {
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        };
        config.server.shutdown_grace_secs = 2;
        adjust(&mut config);
        let db = Db::open(&config.database_path()).expect("open db");
        let state = AppState::new(config, db);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(web::serve(state.clone(), listener));
        TestServer {
            url,
            state,
            dir,
            task,
        }
    }

    pub fn at(&self, path: &str) -> String {
        format!("{}{}", self.url, path)
    }

    /// Cancels the shutdown token and waits for `serve` to return.
    pub async fn stop(self) -> std::io::Result<()> {
        self.state.shutdown.cancel();
        tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("server did not stop within 10s")
            .expect("server task panicked")
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// Posts a question and collects the SSE events with their `event:` names.
pub async fn ask(url: &str, body: serde_json::Value) -> Vec<(String, ChatEvent)> {
    let res = client()
        .post(format!("{url}/api/chat"))
        .json(&body)
        .send()
        .await
        .expect("send");
    assert_eq!(res.status(), 200, "chat answered {}", res.status());
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    let mut events = res.bytes_stream().eventsource();
    let mut out = Vec::new();
    while let Some(ev) = events.next().await {
        let ev = ev.expect("well-formed SSE");
        let parsed: ChatEvent = serde_json::from_str(&ev.data).expect("event JSON");
        out.push((ev.event, parsed));
    }
    out
}
