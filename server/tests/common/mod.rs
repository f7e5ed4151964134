//! Test support: a real server on an ephemeral 127.0.0.1 port with a temp data dir,
//! and an SSE reader for `/api/chat`.
#![allow(dead_code)]

pub mod model;
pub mod pg;
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
        Self::serve(config, dir).await
    }

    async fn serve(config: Config, dir: TempDir) -> Self {
        let db = Db::open(&config.database_path()).expect("open db");
        let state = AppState::open(config, db).await.expect("open app state");
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

    /// A server over a copy of the sample registry indexed with MiniLM (built once
    /// per test binary), so every test starts from the same catalog and vectors.
    pub async fn start_indexed(adjust: impl FnOnce(&mut Config)) -> Self {
        let template = sample_template().await;
        Self::start_with(|c| {
            std::fs::copy(template.join("registry-chat.db"), c.database_path())
                .expect("copy template db");
            c.embedder.model_dir = Some(model_dir());
            adjust(c);
        })
        .await
    }

    pub fn at(&self, path: &str) -> String {
        format!("{}{}", self.url, path)
    }

    /// Stops the server and starts a new one with the same configuration and data
    /// dir, as a process restart would.
    pub async fn restart(self) -> Self {
        let TestServer {
            state, dir, task, ..
        } = self;
        state.shutdown.cancel();
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .expect("server did not stop within 10s")
            .expect("server task panicked")
            .expect("server failed");
        let config = (*state.config).clone();
        drop(state);
        Self::serve(config, dir).await
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

/// The real binary, without the developer's own `REGISTRY_CHAT_*` or `RUST_LOG`
/// settings.
/// Writes `text` to `path`, creating its folders: collections built in temp dirs.
pub fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

pub fn binary() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_registry-chat"));
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("REGISTRY_CHAT_")) {
        cmd.env_remove(k);
    }
    cmd.env_remove("RUST_LOG");
    cmd
}

/// Appends `text` to the README of the first bundle under `codebundles` that has
/// one (a change on disk a reindex must notice), returning that README's path.
pub fn append_to_a_readme(codebundles: &std::path::Path, text: &str) -> std::path::PathBuf {
    let readme = std::fs::read_dir(codebundles)
        .unwrap()
        .map(|e| e.unwrap().path().join("README.md"))
        .find(|p| p.is_file())
        .unwrap();
    let mut all = std::fs::read_to_string(&readme).unwrap();
    all.push_str(text);
    std::fs::write(&readme, all).unwrap();
    readme
}

/// Spawns `cmd` (a `serve` command) and returns it with the URL it prints on its
/// first line (without the trailing `/`).
pub fn spawn_serve(cmd: &mut std::process::Command) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .rsplit(' ')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    (child, url)
}

/// Card keys of a turn, in the order shown.
pub fn cards(events: &[(String, ChatEvent)]) -> Vec<String> {
    events
        .iter()
        .filter_map(|(_, e)| match e {
            ChatEvent::Cards { cards } => Some(cards.iter().map(|c| c.key.clone())),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The owner cookie every test client sends, so a test's requests are one browser
/// (conversations belong to the browser that started them).
pub const TEST_OWNER: &str = "rc_owner=0123456789abcdef0123456789abcdef";

/// `GET url` as JSON (`Null` when the body is not JSON).
pub async fn get_json(url: &str) -> serde_json::Value {
    let res = client().get(url).send().await.unwrap();
    res.json().await.unwrap_or(serde_json::Value::Null)
}

pub fn client() -> reqwest::Client {
    client_as(TEST_OWNER)
}

/// A client with its own owner cookie (`rc_owner=<32 hex>`), i.e. another browser.
pub fn client_as(cookie: &str) -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(reqwest::header::COOKIE, cookie.parse().unwrap());
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .default_headers(headers)
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

/// The MiniLM files installed by scripts/setup.
pub fn model_dir() -> std::path::PathBuf {
    std::env::var_os("REGISTRY_CHAT_EMBEDDER_MODEL_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../data/models/all-MiniLM-L6-v2"
            ))
        })
}

/// A data dir with the sample registry indexed, embedded with MiniLM and graphed;
/// its database is checkpointed into one file so tests can copy it.
pub async fn sample_template() -> &'static std::path::Path {
    static TEMPLATE: tokio::sync::OnceCell<TempDir> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let dir = tempfile::tempdir().expect("temp dir");
            let config = Config {
                data_dir: dir.path().to_path_buf(),
                embedder: registry_chat::config::EmbedderConfig {
                    model_dir: Some(model_dir()),
                    ..Default::default()
                },
                ..Config::default()
            };
            let db = Db::open(&config.database_path()).expect("open db");
            let req = registry_chat::ingest::sample_request(dir.path()).expect("samples");
            registry_chat::ingest::run(&db, dir.path(), &req, &Default::default())
                .expect("index samples");
            let embedder = registry_chat::index::embed::from_config(&config).expect("embedder");
            assert!(
                embedder.id().starts_with("minilm"),
                "MiniLM is required (run scripts/setup)"
            );
            registry_chat::index::build::embed_missing(&db, embedder.as_ref(), false)
                .await
                .expect("embed");
            registry_chat::graph::rebuild(&db, embedder.id()).expect("graph");
            db.write_blocking(|c| Ok(c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")?))
                .expect("checkpoint");
            dir
        })
        .await
        .path()
}

/// Concatenated token text of a turn.
pub fn answer_text(events: &[(String, ChatEvent)]) -> String {
    events
        .iter()
        .filter_map(|(_, e)| match e {
            ChatEvent::Token { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// The `done` event's session id.
pub fn session_of(events: &[(String, ChatEvent)]) -> String {
    events
        .iter()
        .find_map(|(_, e)| match e {
            ChatEvent::Done { session_id, .. } => session_id.clone(),
            _ => None,
        })
        .expect("a done event with a session")
}
