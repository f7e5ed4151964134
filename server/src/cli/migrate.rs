//! `registry-chat migrate`: moves a single-machine deployment's conversations and
//! codebundle requests from its SQLite file into Postgres, before replicas take
//! over. The catalog is not copied: each replica indexes its collections.

use crate::config::Config;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The SQLite file to copy from, as `sqlite:FILE` [default: the data dir's]
    #[arg(long)]
    pub from: Option<String>,
    /// The Postgres database to copy into, as `postgres://…` [default: database.url]
    #[arg(long)]
    pub to: Option<String>,
}

pub fn run(config: &Config, args: &MigrateArgs) -> anyhow::Result<()> {
    let from = match &args.from {
        Some(f) => PathBuf::from(f.strip_prefix("sqlite:").unwrap_or(f)),
        None => config.database_path(),
    };
    if !from.is_file() {
        anyhow::bail!("--from: no SQLite file at {}", from.display());
    }
    let to = args
        .to
        .clone()
        .or_else(|| config.database.postgres().map(str::to_string))
        .ok_or_else(|| anyhow::anyhow!("--to: give a postgres:// URL (or set database.url)"))?;
    if !(to.starts_with("postgres://") || to.starts_with("postgresql://")) {
        anyhow::bail!("--to: only postgres:// URLs are supported");
    }
    // Opening applies any pending SQLite migrations, so every column exists.
    drop(crate::store::Db::open(&from)?);
    let copied = super::runtime()?.block_on(async {
        let pg = crate::store::pg::Pg::connect(&to).await?;
        let conn = rusqlite::Connection::open_with_flags(
            &from,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .map_err(|e| crate::store::StoreError::open(&from, e))?;
        crate::store::pg::copy::from_sqlite(&conn, &pg).await
    })?;
    for (table, n) in copied {
        eprintln!("{table}: {n} rows");
    }
    eprintln!("Copied. Set database.url on every replica and start them.");
    Ok(())
}
