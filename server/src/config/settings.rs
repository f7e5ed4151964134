//! The documented list of settings: TOML key, environment variable and meaning.
//! `registry-chat config --list` prints it and a test keeps README.md in step with it.

/// Every environment variable starts with this.
pub const ENV_PREFIX: &str = "REGISTRY_CHAT_";

/// Environment variables under the prefix that are not settings (used by scripts).
pub(crate) const NON_SETTING_ENV: &[&str] = &["CONFIG", "TOOLS"];

pub struct SettingDoc {
    pub key: &'static str,
    pub default: &'static str,
    pub description: &'static str,
}

impl SettingDoc {
    /// `llm.base_url` → `REGISTRY_CHAT_LLM_BASE_URL`.
    pub fn env_var(&self) -> String {
        format!(
            "{ENV_PREFIX}{}",
            self.key.replace('.', "_").to_ascii_uppercase()
        )
    }
}

macro_rules! docs {
    ($(($key:literal, $default:literal, $desc:literal),)*) => {
        const DOCS: &[SettingDoc] = &[$(SettingDoc { key: $key, default: $default, description: $desc },)*];
    };
}

docs! {
    ("data_dir", "./data", "Directory for the SQLite database, model files and cloned collections."),
    ("database.url", "(none: SQLite in data_dir)", "`postgres://user:password@host:port/db`: conversations live in PostgreSQL so several replicas share them (any replica continues any conversation). Never printed."),
    ("vocabulary", "codebundle", "Words answers and the UI use for the registry's parts: `codebundle` (codebundle, task, runbook, SLI) or `skill-template` (RunWhen's Skill Template, Tool, Runbook, Monitor). Questions are understood in both."),
    ("server.addr", "127.0.0.1:3000", "Address `serve` listens on (`127.0.0.1:0` picks a free port)."),
    ("server.assets_dir", "(embedded)", "Serve the UI from this directory instead of the copy built into the binary."),
    ("server.shutdown_grace_secs", "10", "Seconds open answer streams get to finish after SIGINT/SIGTERM."),
    ("server.allowed_hosts", "localhost,127.0.0.1,::1", "Host names the server accepts in the `Host` header (DNS-rebinding guard), comma-separated; `*` accepts any. Add your host name when serving beyond this machine."),
    ("server.trusted_proxies", "(none)", "IP addresses of single sign-on proxies (oauth2-proxy, Authelia) whose user header is trusted, comma-separated; conversations then belong to the signed-in user across browsers."),
    ("server.user_header", "X-Forwarded-User", "The header a trusted proxy sets to the signed-in user (`X-Forwarded-Email` is read too)."),
    ("server.max_concurrent_turns", "32", "Answers streaming at once; more get `429 rate_limited` with `Retry-After`."),
    ("server.turns_per_minute", "20", "Questions one client (IP address, or signed-in user) may ask per minute."),
    ("server.turn_timeout_secs", "300", "Wall-clock budget of one answer, language-model rounds included."),
    ("retention.trace_days", "90", "Days after which a turn's trace (prompts, searches, tool results) is dropped; 0 keeps them. Questions and answers stay."),
    ("otel.endpoint", "(none)", "Export a trace of each turn (one span per stage) over OTLP/HTTP to this collector, e.g. `http://127.0.0.1:4318`."),
    ("requests.github_repo", "(none)", "File saved codebundle requests as issues in this GitHub repository (`owner/name`), after searching its open issues for a duplicate."),
    ("requests.github_token", "(none)", "Token for `requests.github_repo` (issues: read and write). Never printed."),
    ("requests.github_api_url", "https://api.github.com", "GitHub's REST API root; for GitHub Enterprise `https://HOST/api/v3`."),
    ("requests.labels", "codebundle-request", "Labels for filed issues, comma-separated."),
    ("requests.webhook_url", "(none)", "Instead of GitHub: POST each saved request as JSON to this URL (https, or http to this machine). Never printed."),
    ("retention.session_days", "0", "Days without activity after which a conversation is deleted; 0 keeps them."),
    ("log.format", "pretty", "`pretty` for people, `json` for log collectors."),
    ("log.level", "info", "Tracing filter, e.g. `info` or `registry_chat=debug,tower_http=info`."),
    ("llm.provider", "openai", "`openai` (any OpenAI-compatible server) or `azure` (Azure OpenAI)."),
    ("llm.base_url", "(none: offline answerer)", "Base URL of the chat-completions API, e.g. `http://127.0.0.1:11434/v1`."),
    ("llm.api_key", "(none)", "API key; sent as a bearer token (OpenAI) or `api-key` header (Azure). Never printed."),
    ("llm.model", "(none)", "Model name; required with `llm.base_url` for the `openai` provider."),
    ("llm.deployment", "(none)", "Azure deployment name (required for `azure`)."),
    ("llm.api_version", "(none)", "Azure `api-version` query parameter (required for `azure`)."),
    ("llm.max_tokens", "1200", "Upper bound on tokens generated per answer."),
    ("llm.temperature", "0.2", "Sampling temperature, 0–2."),
    ("llm.connect_timeout_secs", "5", "Timeout to connect to the LLM server."),
    ("llm.first_token_timeout_secs", "30", "Timeout until the first streamed token."),
    ("llm.total_timeout_secs", "120", "Timeout for a whole LLM call."),
    ("llm.max_retries", "3", "Retries on 429, 5xx and connection errors (exponential backoff with jitter)."),
    ("llm.ca_file", "(none)", "Extra CA certificates (PEM file) to trust for the LLM server, beside the bundled roots and the system's store."),
    ("llm.max_tool_iterations", "4", "Rounds of tool calls the model may make in one turn before it must answer."),
    ("embedder.kind", "auto", "`auto` (MiniLM if its files are present, else hash), `minilm`, `hash` or `openai`."),
    ("embedder.model_dir", "<data_dir>/models/all-MiniLM-L6-v2", "Folder with model.safetensors, tokenizer.json and config.json."),
    ("embedder.provider", "openai", "For `openai`: `openai` (any OpenAI-compatible server) or `azure`."),
    ("embedder.base_url", "(none)", "For `openai`: embeddings base URL, e.g. `http://127.0.0.1:11434/v1`."),
    ("embedder.api_key", "(none)", "For `openai`: API key. Never printed."),
    ("embedder.model", "(none)", "For `openai`: embedding model name."),
    ("embedder.deployment", "(none)", "For `azure`: embedding deployment name."),
    ("embedder.api_version", "(none)", "For `azure`: `api-version`."),
    ("embedder.batch_size", "64", "Texts per embeddings request."),
    ("embedder.max_retries", "3", "Retries on 429, 5xx and connection errors."),
    ("embedder.timeout_secs", "60", "Timeout per embeddings request."),
    ("embedder.ca_file", "(none)", "For `openai`: extra CA certificates (PEM file) to trust, beside the bundled roots and the system's store."),
    ("admin.token", "(none: admin disabled)", "Token for the admin area and admin APIs (at least 16 characters). Never printed."),
}

pub fn setting_docs() -> &'static [SettingDoc] {
    DOCS
}

/// Maps an environment variable name (after the prefix) to its setting key, by
/// matching the documented list, so `LLM_BASE_URL` becomes `llm.base_url`.
pub(crate) fn key_for_env(rest: &str) -> Option<&'static str> {
    DOCS.iter()
        .find(|d| d.env_var()[ENV_PREFIX.len()..].eq_ignore_ascii_case(rest))
        .map(|d| d.key)
}
