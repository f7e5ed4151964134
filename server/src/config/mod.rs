//! Configuration: typed settings with defaults, loaded from an optional TOML file and
//! `REGISTRY_CHAT_*` environment variables, then command-line flags, and validated
//! once at start-up so a wrong setting fails fast with a message naming it.

mod ca_file;
mod load;
mod secret;
mod settings;
mod validate;
mod vocabulary;

pub use ca_file::extra_roots;
pub use load::{ConfigError, Overrides, load, unknown_env_vars};
pub use secret::Secret;
pub use settings::{ENV_PREFIX, SettingDoc, setting_docs};
pub use vocabulary::Vocabulary;

use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Where the database, model files and cloned collections live.
    pub data_dir: PathBuf,
    /// Where conversations live when replicas share them (`database.url`).
    pub database: DatabaseConfig,
    pub server: ServerConfig,
    pub log: LogConfig,
    pub llm: LlmConfig,
    pub embedder: EmbedderConfig,
    pub admin: AdminConfig,
    /// Which words answers use for the registry's parts (questions are understood
    /// in both): `codebundle` (codebundle, task, runbook, SLI) or `skill-template`
    /// (RunWhen's: Skill Template, Tool, Runbook, Monitor).
    pub vocabulary: Vocabulary,
    pub retention: RetentionConfig,
    /// Where saved codebundle requests are filed (GitHub issues or a webhook).
    pub requests: RequestsConfig,
    /// OpenTelemetry trace export (off unless an endpoint is set).
    pub otel: OtelConfig,
    /// Codecollections to index (`[[collections]]`); empty means the bundled samples.
    pub collections: Vec<CollectionConfig>,
    /// Documentation folders to index (`[[docs]]`).
    pub docs: Vec<DocsConfig>,
}

/// `[[collections]]`: a local `path`, or a `git_url` with an optional `ref`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionConfig {
    pub name: Option<String>,
    pub path: Option<PathBuf>,
    pub git_url: Option<String>,
    #[serde(rename = "ref")]
    pub git_ref: Option<String>,
}

/// `[[docs]]`: a folder of markdown files.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocsConfig {
    pub name: Option<String>,
    pub path: PathBuf,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data_dir: PathBuf::from("./data"),
            database: DatabaseConfig::default(),
            server: ServerConfig::default(),
            log: LogConfig::default(),
            llm: LlmConfig::default(),
            embedder: EmbedderConfig::default(),
            admin: AdminConfig::default(),
            vocabulary: Default::default(),
            retention: RetentionConfig::default(),
            requests: RequestsConfig::default(),
            otel: OtelConfig::default(),
            collections: Vec::new(),
            docs: Vec::new(),
        }
    }
}

impl Config {
    pub fn database_path(&self) -> PathBuf {
        self.data_dir.join("registry-chat.db")
    }

    /// Where the MiniLM files are (setup unpacks them under the data dir).
    pub fn model_dir(&self) -> PathBuf {
        self.embedder
            .model_dir
            .clone()
            .unwrap_or_else(|| self.data_dir.join("models").join("all-MiniLM-L6-v2"))
    }
}

/// Whether `dir` holds a MiniLM model (weights, tokenizer, config): checked when
/// the config is validated and again when the model loads.
pub fn model_files_present(dir: &std::path::Path) -> bool {
    ["model.safetensors", "tokenizer.json", "config.json"]
        .iter()
        .all(|f| dir.join(f).is_file())
}

/// `[database]`: unset keeps everything in the SQLite file in `data_dir` (one
/// process). A `postgres://` URL moves conversations there, so several replicas
/// behind a load balancer share them; the catalog and search index stay in each
/// replica's SQLite file, built from the same collections.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseConfig {
    /// A secret: it may carry a password, so it never prints.
    pub url: Option<Secret>,
}

impl DatabaseConfig {
    /// The Postgres URL, when one is set.
    pub fn postgres(&self) -> Option<&str> {
        self.url
            .as_ref()
            .map(|u| u.expose().trim())
            .filter(|u| !u.is_empty())
    }
}

/// How long conversations and their traces are kept (0 = for ever).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetentionConfig {
    /// Days after which a turn's trace (prompts, searches, tool results) is dropped;
    /// the question, answer and cards stay.
    pub trace_days: u32,
    /// Days without activity after which a conversation is deleted.
    pub session_days: u32,
}

impl Default for RetentionConfig {
    fn default() -> Self {
        RetentionConfig {
            trace_days: 90,
            session_days: 0,
        }
    }
}

/// `[otel]`: traces of each turn over OTLP/HTTP to a collector.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OtelConfig {
    /// The collector's base URL (`/v1/traces` is added), e.g. `http://127.0.0.1:4318`.
    pub endpoint: Option<String>,
}

/// `[requests]`: a saved Request CodeBundle also becomes an issue in this GitHub
/// repository (after a duplicate search), or is posted to a webhook. Without
/// either, requests stay in the registry and download as markdown.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RequestsConfig {
    /// `owner/name`.
    pub github_repo: Option<String>,
    pub github_token: Option<Secret>,
    /// GitHub's REST API root (GitHub Enterprise: `https://HOST/api/v3`).
    pub github_api_url: String,
    /// Labels put on new issues, comma-separated.
    pub labels: String,
    /// Any HTTP endpoint that takes the request as JSON (instead of GitHub). A
    /// secret: chat webhooks carry their credential in the URL.
    pub webhook_url: Option<Secret>,
}

impl Default for RequestsConfig {
    fn default() -> Self {
        RequestsConfig {
            github_repo: None,
            github_token: None,
            github_api_url: "https://api.github.com".into(),
            labels: "codebundle-request".into(),
            webhook_url: None,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    pub addr: SocketAddr,
    /// Serve the UI from this directory instead of the copy embedded in the binary.
    pub assets_dir: Option<PathBuf>,
    /// Seconds to let open streams finish after SIGINT/SIGTERM.
    pub shutdown_grace_secs: u64,
    /// Host names the server accepts in the `Host` header, comma-separated; `*`
    /// accepts any. Guards against DNS rebinding by web pages.
    pub allowed_hosts: String,
    /// Addresses of single sign-on proxies whose user header is trusted,
    /// comma-separated IPs (empty: none, every browser is told apart by its cookie).
    pub trusted_proxies: String,
    /// The header such a proxy sets to the signed-in user (`X-Forwarded-Email` is
    /// read too).
    pub user_header: String,
    /// Answers streaming at once; more get `429 rate_limited`.
    pub max_concurrent_turns: usize,
    /// Questions one client (address, or signed-in user) may ask per minute.
    pub turns_per_minute: u32,
    /// Wall-clock budget of one turn, LLM rounds included.
    pub turn_timeout_secs: u64,
}

impl ServerConfig {
    pub fn trusted_proxies(&self) -> Vec<std::net::IpAddr> {
        self.trusted_proxies
            .split(',')
            .filter_map(|h| h.trim().parse().ok())
            .collect()
    }

    pub fn allowed_hosts(&self) -> Vec<String> {
        self.allowed_hosts
            .split(',')
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty())
            .collect()
    }
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 3000)),
            assets_dir: None,
            shutdown_grace_secs: 10,
            allowed_hosts: "localhost,127.0.0.1,::1".into(),
            trusted_proxies: String::new(),
            user_header: "X-Forwarded-User".into(),
            max_concurrent_turns: 32,
            turns_per_minute: 20,
            turn_timeout_secs: 300,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    #[default]
    Pretty,
    Json,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogConfig {
    pub format: LogFormat,
    /// A tracing filter such as `info` or `registry_chat=debug,tower_http=info`.
    pub level: String,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            format: LogFormat::Pretty,
            level: "info".into(),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LlmProvider {
    /// Any OpenAI-compatible `/v1/chat/completions` (OpenAI, Ollama, vLLM, llama.cpp).
    #[default]
    Openai,
    /// Azure OpenAI: deployment URL, `api-version`, `api-key` header.
    Azure,
}

impl LlmProvider {
    pub fn as_str(self) -> &'static str {
        match self {
            LlmProvider::Openai => "openai",
            LlmProvider::Azure => "azure",
        }
    }
}

/// The LLM is optional: without `base_url` every turn uses the offline answerer.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LlmConfig {
    pub provider: LlmProvider,
    pub base_url: Option<String>,
    pub api_key: Option<Secret>,
    pub model: Option<String>,
    /// Azure only: the deployment name and API version.
    pub deployment: Option<String>,
    pub api_version: Option<String>,
    pub max_tokens: u32,
    pub temperature: f32,
    pub connect_timeout_secs: u64,
    pub first_token_timeout_secs: u64,
    pub total_timeout_secs: u64,
    pub max_retries: u32,
    /// Rounds of tool calls the model may make before it must answer.
    pub max_tool_iterations: u32,
    /// Extra CA certificates (PEM) to trust, beside the bundled and system roots.
    pub ca_file: Option<PathBuf>,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            provider: LlmProvider::Openai,
            base_url: None,
            api_key: None,
            model: None,
            deployment: None,
            api_version: None,
            max_tokens: 1200,
            temperature: 0.2,
            connect_timeout_secs: 5,
            first_token_timeout_secs: 30,
            total_timeout_secs: 120,
            max_retries: 3,
            max_tool_iterations: 4,
            ca_file: None,
        }
    }
}

impl LlmConfig {
    pub fn is_configured(&self) -> bool {
        self.base_url.is_some()
    }
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AdminConfig {
    /// Without a token the admin area is disabled, never open.
    pub token: Option<Secret>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EmbedderKind {
    /// MiniLM when its files are present, else hash.
    #[default]
    Auto,
    Minilm,
    Hash,
    Openai,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EmbedderConfig {
    pub kind: EmbedderKind,
    pub model_dir: Option<PathBuf>,
    /// For `openai`: an OpenAI-compatible (or Azure) embeddings endpoint.
    pub provider: LlmProvider,
    pub base_url: Option<String>,
    pub api_key: Option<Secret>,
    pub model: Option<String>,
    pub deployment: Option<String>,
    pub api_version: Option<String>,
    pub batch_size: usize,
    pub max_retries: u32,
    pub timeout_secs: u64,
    /// Extra CA certificates (PEM) to trust, beside the bundled and system roots.
    pub ca_file: Option<PathBuf>,
}

impl Default for EmbedderConfig {
    fn default() -> Self {
        EmbedderConfig {
            kind: EmbedderKind::Auto,
            model_dir: None,
            provider: LlmProvider::Openai,
            base_url: None,
            api_key: None,
            model: None,
            deployment: None,
            api_version: None,
            batch_size: 64,
            max_retries: 3,
            timeout_secs: 60,
            ca_file: None,
        }
    }
}
