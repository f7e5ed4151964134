//! Logging: readable by default, JSON on request, always to stderr so stdout stays
//! clean for command output. `RUST_LOG` overrides `log.level`.

use crate::config::{LogConfig, LogFormat};
use tracing_subscriber::EnvFilter;

pub fn init(log: &LogConfig) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&log.level))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // try_init: tests may initialise more than once.
    let _ = match log.format {
        LogFormat::Pretty => builder.compact().try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}
