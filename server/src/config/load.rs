//! Loading: defaults < TOML file < environment < command-line flags.

use super::settings::{ENV_PREFIX, NON_SETTING_ENV, key_for_env};
use super::{Config, LogFormat, validate};
use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use std::net::SocketAddr;
use std::path::PathBuf;

/// Values given on the command line; they win over every other source.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub config_file: Option<PathBuf>,
    pub data_dir: Option<PathBuf>,
    pub addr: Option<SocketAddr>,
    pub assets_dir: Option<PathBuf>,
    pub log_format: Option<LogFormat>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("config file {path} does not exist")]
    MissingFile { path: PathBuf },
    #[error("configuration could not be read: {0}")]
    Parse(String),
    #[error("invalid configuration:\n{}", .0.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    Invalid(Vec<String>),
}

/// Default file looked for in the working directory when no `--config` is given.
const DEFAULT_FILE: &str = "registry-chat.toml";

pub fn load(overrides: &Overrides) -> Result<Config, ConfigError> {
    let file = match overrides.config_file.clone().or_else(env_config_file) {
        Some(path) if !path.is_file() => return Err(ConfigError::MissingFile { path }),
        Some(path) => Some(path),
        None => Some(PathBuf::from(DEFAULT_FILE)).filter(|p| p.is_file()),
    };

    let mut figment = Figment::from(Serialized::defaults(Config::default()));
    if let Some(path) = &file {
        figment = figment.merge(Toml::file_exact(path));
    }
    figment = figment.merge(
        Env::prefixed(ENV_PREFIX).filter_map(|rest| key_for_env(rest.as_str()).map(Into::into)),
    );
    if let Some(dir) = &overrides.data_dir {
        figment = figment.merge(("data_dir", dir));
    }
    if let Some(addr) = &overrides.addr {
        figment = figment.merge(("server.addr", addr.to_string()));
    }
    if let Some(dir) = &overrides.assets_dir {
        figment = figment.merge(("server.assets_dir", dir));
    }
    if let Some(format) = overrides.log_format {
        figment = figment.merge(("log.format", format));
    }

    let config: Config = figment
        .extract()
        .map_err(|e| ConfigError::Parse(describe(e)))?;
    let problems = validate::problems(&config, &figment);
    if problems.is_empty() {
        Ok(config)
    } else {
        Err(ConfigError::Invalid(problems))
    }
}

fn env_config_file() -> Option<PathBuf> {
    std::env::var_os(format!("{ENV_PREFIX}CONFIG")).map(PathBuf::from)
}

/// `REGISTRY_CHAT_*` variables that match no setting: almost always a typo, which
/// would otherwise be ignored silently. Reported as warnings by the caller.
pub fn unknown_env_vars() -> Vec<String> {
    std::env::vars()
        .filter_map(|(k, _)| k.strip_prefix(ENV_PREFIX).map(str::to_string))
        .filter(|rest| key_for_env(rest).is_none() && !NON_SETTING_ENV.contains(&rest.as_str()))
        .map(|rest| format!("{ENV_PREFIX}{rest}"))
        .collect()
}

/// One line per figment error, each naming the key and where its value came from.
fn describe(err: figment::Error) -> String {
    err.into_iter()
        .map(|e| {
            let key = if e.path.is_empty() {
                "(top level)".to_string()
            } else {
                e.path.join(".")
            };
            let source = e
                .metadata
                .as_ref()
                .map(|m| match &m.source {
                    Some(src) => format!(" (from {} {src})", m.name),
                    None => format!(" (from {})", m.name),
                })
                .unwrap_or_default();
            format!("{key}: {}{source}", e.kind)
        })
        .collect::<Vec<_>>()
        .join("; ")
}
