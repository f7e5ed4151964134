//! The command line: argument definitions and dispatch. This is the binary's edge,
//! the only place `anyhow` is used.

mod ask;
mod bench;
mod bench_admin;
mod bench_load;
mod bundles;
mod config_cmd;
mod eval;
mod index;
mod migrate;
mod search;
mod serve;
mod status;

use crate::config::{self, Config, LogFormat, Overrides};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "registry-chat",
    version,
    about = "Chat with an automation registry: find the right codebundle for an operational problem.",
    long_about = None
)]
pub struct Cli {
    /// Data directory (database, models, cloned collections) [default: ./data]
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Optional TOML config file [default: ./registry-chat.toml if present]
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Log format
    #[arg(long, global = true, value_enum)]
    pub log_format: Option<LogFormatArg>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web app, server functions and `/health` (the default command)
    Serve(ServeArgs),
    /// Index codecollections and docs into the catalog (incremental)
    Index(index::IndexArgs),
    /// Show what the catalog holds: counts, commits, warnings, stale bundles
    Status(status::StatusArgs),
    /// List indexed codebundles with their derived platform and access
    Bundles(bundles::BundlesArgs),
    /// Show one codebundle in full (COLLECTION/SLUG)
    Show(bundles::ShowArgs),
    /// Search the registry with hybrid retrieval
    Search(search::SearchArgs),
    /// Ask one question and stream the answer (use --session to continue)
    Ask(ask::AskArgs),
    /// Chat interactively (:new, :history, :id, :export, :exit)
    Chat(ask::ChatArgs),
    /// Export a conversation as markdown, JSON or text
    Export(ask::ExportArgs),
    /// Score retrieval (or agent turns) on a golden set
    Eval(eval::EvalArgs),
    /// Print search latency, vector index and memory figures
    Bench(bench::BenchArgs),
    /// Copy conversations and requests from a SQLite file into Postgres (for replicas)
    Migrate(migrate::MigrateArgs),
    /// Print the effective configuration (secrets masked) or the list of settings
    Config(ConfigArgs),
    /// Print shell completions (bash, zsh, fish, elvish, powershell) to stdout
    Completions(CompletionsArgs),
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args, Default)]
pub struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1:3000]
    #[arg(long, value_name = "ADDR")]
    pub addr: Option<SocketAddr>,
    /// Serve the UI from this directory (e.g. `dist`) instead of the embedded copy
    #[arg(long, value_name = "DIR")]
    pub assets_dir: Option<PathBuf>,
}

#[derive(Debug, Args, Default)]
pub struct ConfigArgs {
    /// Print JSON instead of TOML
    #[arg(long)]
    pub json: bool,
    /// List every setting with its environment variable, default and description
    #[arg(long)]
    pub list: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LogFormatArg {
    Pretty,
    Json,
}

impl Cli {
    fn overrides(&self) -> Overrides {
        let (addr, assets_dir) = match &self.command {
            Some(Command::Serve(a)) => (a.addr, a.assets_dir.clone()),
            _ => (None, None),
        };
        Overrides {
            config_file: self.config.clone(),
            data_dir: self.data_dir.clone(),
            addr,
            assets_dir,
            log_format: self.log_format.map(|f| match f {
                LogFormatArg::Pretty => LogFormat::Pretty,
                LogFormatArg::Json => LogFormat::Json,
            }),
        }
    }
}

/// Loads and validates the configuration, sets up logging, and runs the command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    // Needs no configuration: works before any is written.
    if let Some(Command::Completions(a)) = &cli.command {
        use clap::CommandFactory;
        let mut cmd = Cli::command();
        clap_complete::generate(a.shell, &mut cmd, "registry-chat", &mut std::io::stdout());
        return Ok(());
    }
    let config = config::load(&cli.overrides())?;
    crate::telemetry::init(&config.log);
    if let Some(endpoint) = &config.otel.endpoint
        && let Err(e) = crate::otel::init(endpoint)
    {
        tracing::warn!(error = %e, "OpenTelemetry export is off");
    }
    for var in config::unknown_env_vars() {
        tracing::warn!(%var, "environment variable matches no setting (see `registry-chat config --list`)");
    }
    match cli.command.unwrap_or(Command::Serve(ServeArgs::default())) {
        Command::Serve(_) => serve::run(config),
        Command::Index(args) => index::run(&config, &args),
        Command::Status(args) => status::run(&config, &args),
        Command::Bundles(args) => bundles::list(&config, &args),
        Command::Show(args) => bundles::show(&config, &args),
        Command::Search(args) => search::run(&config, &args),
        Command::Ask(args) => ask::ask(&config, &args),
        Command::Chat(args) => ask::chat(&config, &args),
        Command::Export(args) => ask::export(&config, &args),
        Command::Eval(args) => eval::run(&config, &args),
        Command::Bench(args) => bench::run(&config, &args),
        Command::Migrate(args) => migrate::run(&config, &args),
        Command::Config(args) => config_cmd::run(&config, &args),
        Command::Completions(_) => Ok(()),
    }
}

/// A multi-threaded runtime for commands that need async.
pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

pub(crate) fn open_db(config: &Config) -> anyhow::Result<crate::store::Db> {
    Ok(crate::store::Db::open(&config.database_path())?)
}
