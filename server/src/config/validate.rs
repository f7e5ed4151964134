//! Start-up validation. Each problem names the setting, the value (secrets masked),
//! where it came from and why it is wrong; all problems are reported at once.

use super::{Config, LlmProvider};
use figment::Figment;
use std::path::Path;

pub(super) fn problems(config: &Config, figment: &Figment) -> Vec<String> {
    let mut p = Problems {
        figment,
        out: Vec::new(),
    };
    server(config, &mut p);
    database(config, &mut p);
    llm(config, &mut p);
    outbound(config, &mut p);
    embedder(config, &mut p);
    sources(config, &mut p);
    admin(config, &mut p);
    p.out
}

/// What is wrong, each line naming the setting, its value and where it came from.
struct Problems<'a> {
    figment: &'a Figment,
    out: Vec<String>,
}

impl Problems<'_> {
    fn bad(&mut self, key: &str, value: &dyn std::fmt::Display, why: String) {
        let source = self
            .figment
            .find_metadata(key)
            .map(|m| match &m.source {
                Some(src) => format!("{} {src}", m.name),
                None => m.name.to_string(),
            })
            .unwrap_or_else(|| "default".into());
        self.out.push(format!(
            "{key} = {value:?} (from {source}): {why}",
            value = value.to_string()
        ));
    }
}

/// `database.url` must be a Postgres URL the driver can read (it is masked here).
fn database(config: &Config, report: &mut Problems) {
    let Some(url) = config.database.postgres() else {
        return;
    };
    let why = if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        Some("only `postgres://…` URLs are supported; leave it unset for the SQLite file in data_dir".to_string())
    } else {
        url.parse::<tokio_postgres::Config>()
            .err()
            .map(|e| format!("not a valid Postgres URL: {e}"))
    };
    if let Some(why) = why {
        report.bad("database.url", &"********", why);
    }
}

/// The data dir, assets, hosts, limits and logging.
fn server(config: &Config, report: &mut Problems) {
    if let Err(why) = check_data_dir(&config.data_dir) {
        report.bad("data_dir", &config.data_dir.display(), why);
    }
    if let Some(dir) = &config.server.assets_dir
        && !dir.join("index.html").is_file()
    {
        report.bad(
            "server.assets_dir",
            &dir.display(),
            "no index.html in this directory (run `trunk build --release`)".into(),
        );
    }
    let hosts = config.server.allowed_hosts();
    if hosts.is_empty() {
        report.bad(
            "server.allowed_hosts",
            &config.server.allowed_hosts,
            "list at least one host name, or `*` to accept any".into(),
        );
    } else if let Some(h) = hosts
        .iter()
        .find(|h| h.contains("://") || h.contains('/') || h.contains(char::is_whitespace))
    {
        report.bad(
            "server.allowed_hosts",
            &config.server.allowed_hosts,
            format!("{h:?} is not a host name (no scheme or path, e.g. `chat.example.com`)"),
        );
    }
    for p in config
        .server
        .trusted_proxies
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        if p.parse::<std::net::IpAddr>().is_err() {
            report.bad(
                "server.trusted_proxies",
                &config.server.trusted_proxies,
                format!("{p:?} is not an IP address"),
            );
        }
    }
    if config.server.max_concurrent_turns == 0 {
        report.bad(
            "server.max_concurrent_turns",
            &0,
            "must be at least 1".into(),
        );
    }
    if config.server.turns_per_minute == 0 {
        report.bad("server.turns_per_minute", &0, "must be at least 1".into());
    }
    if config.server.turn_timeout_secs < 5 {
        report.bad(
            "server.turn_timeout_secs",
            &config.server.turn_timeout_secs,
            "must be at least 5".into(),
        );
    }
    if let Err(e) = tracing_subscriber::EnvFilter::try_new(&config.log.level) {
        report.bad(
            "log.level",
            &config.log.level,
            format!("not a valid tracing filter: {e}"),
        );
    }
}

/// The model server: its URL, sampling and timeouts.
fn llm(config: &Config, report: &mut Problems) {
    let llm = &config.llm;
    if let Some(url) = &llm.base_url {
        match url::Url::parse(url) {
            Err(e) => report.bad("llm.base_url", url, format!("not a valid URL: {e}")),
            Ok(u) if !matches!(u.scheme(), "http" | "https") => report.bad(
                "llm.base_url",
                url,
                format!("scheme must be http or https, not {}", u.scheme()),
            ),
            Ok(u) if u.host_str().is_none() => {
                report.bad("llm.base_url", url, "the URL has no host".into())
            }
            Ok(_) => {}
        }
        match llm.provider {
            LlmProvider::Openai if llm.model.as_deref().unwrap_or("").is_empty() => {
                report.bad("llm.model", &"", "required when llm.base_url is set".into())
            }
            LlmProvider::Azure => {
                if llm.deployment.as_deref().unwrap_or("").is_empty() {
                    report.bad(
                        "llm.deployment",
                        &"",
                        "required for the azure provider".into(),
                    );
                }
                if llm.api_version.as_deref().unwrap_or("").is_empty() {
                    report.bad(
                        "llm.api_version",
                        &"",
                        "required for the azure provider".into(),
                    );
                }
            }
            _ => {}
        }
    }
    if !(0.0..=2.0).contains(&llm.temperature) {
        report.bad(
            "llm.temperature",
            &llm.temperature,
            "must be between 0 and 2".into(),
        );
    }
    if llm.max_tokens == 0 {
        report.bad(
            "llm.max_tokens",
            &llm.max_tokens,
            "must be at least 1".into(),
        );
    }
    for (key, secs) in [
        ("llm.connect_timeout_secs", llm.connect_timeout_secs),
        ("llm.first_token_timeout_secs", llm.first_token_timeout_secs),
        ("llm.total_timeout_secs", llm.total_timeout_secs),
    ] {
        if secs == 0 {
            report.bad(key, &secs, "must be at least 1 second".into());
        }
    }
    if llm.first_token_timeout_secs > llm.total_timeout_secs {
        report.bad(
            "llm.first_token_timeout_secs",
            &llm.first_token_timeout_secs,
            format!(
                "must not exceed llm.total_timeout_secs ({})",
                llm.total_timeout_secs
            ),
        );
    }
}

/// Where requests go (tracker, webhook, telemetry) and the CA files for outbound TLS.
fn outbound(config: &Config, report: &mut Problems) {
    let llm = &config.llm;
    let req = &config.requests;
    if let Some(repo) = &req.github_repo {
        let parts: Vec<&str> = repo.split('/').collect();
        if parts.len() != 2
            || parts
                .iter()
                .any(|p| p.is_empty() || p.contains(char::is_whitespace))
        {
            report.bad("requests.github_repo", repo, "must be `owner/name`".into());
        }
        if req.github_token.is_none() {
            report.bad(
                "requests.github_token",
                &"",
                "required with requests.github_repo".into(),
            );
        }
        if req.webhook_url.is_some() {
            report.bad(
                "requests.webhook_url",
                &"",
                "set either requests.github_repo or requests.webhook_url, not both".into(),
            );
        }
    }
    // The token and the request go over these: https, except to this machine.
    for (key, url, shown) in [
        (
            "requests.github_api_url",
            Some(req.github_api_url.as_str()),
            true,
        ),
        (
            "requests.webhook_url",
            req.webhook_url.as_ref().map(|s| s.expose()),
            false,
        ),
    ] {
        let Some(url) = url else { continue };
        let value = if shown { url } else { "***" };
        match url::Url::parse(url) {
            Ok(u) if u.scheme() == "https" && u.host_str().is_some() => {}
            Ok(u)
                if u.scheme() == "http"
                    && matches!(u.host_str(), Some("127.0.0.1" | "localhost" | "[::1]")) => {}
            Ok(u) if u.scheme() == "http" => report.bad(
                key,
                &value,
                "must be https (http only to this machine)".into(),
            ),
            _ => report.bad(key, &value, "not an http(s) URL with a host".into()),
        }
    }
    for (key, url) in [("otel.endpoint", config.otel.endpoint.as_ref())] {
        if let Some(url) = url
            && !matches!(url::Url::parse(url), Ok(u) if matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
        {
            report.bad(key, url, "not an http(s) URL with a host".into());
        }
    }
    for (key, file) in [
        ("llm.ca_file", &llm.ca_file),
        ("embedder.ca_file", &config.embedder.ca_file),
    ] {
        if let Some(path) = file
            && let Err(why) = super::extra_roots(path)
        {
            report.bad(key, &path.display(), why);
        }
    }
}

/// The embedder: model files, endpoint, batch size.
fn embedder(config: &Config, report: &mut Problems) {
    let emb = &config.embedder;
    match emb.kind {
        super::EmbedderKind::Minilm if !super::model_files_present(&config.model_dir()) => report.bad(
            "embedder.model_dir",
            &config.model_dir().display(),
            "no model.safetensors, tokenizer.json and config.json here (run scripts/setup, or use embedder.kind = \"auto\")".into(),
        ),
        super::EmbedderKind::Openai => {
            match &emb.base_url {
                None => report.bad("embedder.base_url", &"", "required for the openai embedder".into()),
                Some(u) if url::Url::parse(u).map_or(true, |u| !matches!(u.scheme(), "http" | "https")) => {
                    report.bad("embedder.base_url", u, "not a valid http(s) URL".into())
                }
                _ => {}
            }
            match emb.provider {
                LlmProvider::Openai if emb.model.as_deref().unwrap_or("").is_empty() => {
                    report.bad("embedder.model", &"", "required for the openai embedder".into())
                }
                LlmProvider::Azure if emb.deployment.is_none() || emb.api_version.is_none() => report.bad(
                    "embedder.deployment",
                    &emb.deployment.clone().unwrap_or_default(),
                    "azure embeddings need embedder.deployment and embedder.api_version".into(),
                ),
                _ => {}
            }
        }
        _ => {}
    }
    if emb.batch_size == 0 {
        report.bad(
            "embedder.batch_size",
            &emb.batch_size,
            "must be at least 1".into(),
        );
    }
}

/// Collections and doc sets to index.
fn sources(config: &Config, report: &mut Problems) {
    for (i, c) in config.collections.iter().enumerate() {
        let key = format!("collections[{i}]");
        match (&c.path, &c.git_url) {
            (Some(_), Some(_)) | (None, None) => report.bad(
                &key,
                &c.name.clone().unwrap_or_default(),
                "set exactly one of `path` or `git_url`".into(),
            ),
            (Some(p), None) if !p.join("codebundles").is_dir() => report.bad(
                &format!("{key}.path"),
                &p.display(),
                "not a codecollection (no codebundles/ directory)".into(),
            ),
            (None, Some(u)) if !looks_like_git_url(u) => report.bad(
                &format!("{key}.git_url"),
                u,
                "not a git URL (https://, ssh://, file:// or git@host:path)".into(),
            ),
            _ => {}
        }
        if c.git_ref.is_some() && c.git_url.is_none() {
            report.bad(
                &format!("{key}.ref"),
                &c.git_ref.clone().unwrap_or_default(),
                "`ref` needs `git_url`".into(),
            );
        }
    }
    for (i, d) in config.docs.iter().enumerate() {
        if !d.path.is_dir() {
            report.bad(
                &format!("docs[{i}].path"),
                &d.path.display(),
                "not a directory".into(),
            );
        }
    }
}

/// The admin token.
fn admin(config: &Config, report: &mut Problems) {
    if let Some(token) = &config.admin.token
        && token.expose().chars().count() < 16
    {
        report.bad(
            "admin.token",
            token,
            "must be at least 16 characters".into(),
        );
    }
}

/// The data dir must exist (it is created) and be writable: probe with a real file.
fn check_data_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the directory: {e}"))?;
    if !dir.is_dir() {
        return Err("exists but is not a directory".into());
    }
    let probe = dir.join(format!(".write-probe-{}", std::process::id()));
    std::fs::write(&probe, b"ok").map_err(|e| format!("the directory is not writable: {e}"))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn looks_like_git_url(u: &str) -> bool {
    ["https://", "http://", "ssh://", "git://", "file://"]
        .iter()
        .any(|p| u.starts_with(p))
        || (u.starts_with("git@") && u.contains(':'))
}
