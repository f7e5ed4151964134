//! `registry-chat ask` (one turn) and `registry-chat chat` (an interactive loop).

use crate::agent::{Agent, TurnOptions};
use crate::config::Config;
use crate::report::{self, Format};
use app::api::ChatEvent;
use clap::Args;
use futures::StreamExt;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct AskArgs {
    /// The question.
    pub question: String,
    /// Continue this conversation (the id `ask` printed last time).
    #[arg(long)]
    pub session: Option<String>,
    /// One JSON event per line instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args, Default)]
pub struct ChatArgs {
    /// Continue this conversation.
    #[arg(long)]
    pub session: Option<String>,
}

pub(super) async fn open_agent(config: &Config) -> anyhow::Result<Arc<Agent>> {
    let db = super::open_db(config)?;
    let state = crate::services::Services::open(config.clone(), db).await?;
    Ok(state.agent.clone())
}

/// Streams one turn to stdout; returns the session id.
async fn turn(
    agent: &Arc<Agent>,
    question: &str,
    session: Option<String>,
    json: bool,
) -> anyhow::Result<Option<String>> {
    let question = crate::agent::validate_question(question)?;
    let mut events = agent.start_turn(question, session, TurnOptions::default());
    let mut out = std::io::stdout();
    let tty = std::io::stderr().is_terminal();
    let mut session_id = None;
    let mut failed = None;
    while let Some(ev) = events.next().await {
        if json {
            writeln!(out, "{}", serde_json::to_string(&ev)?)?;
        }
        match &ev {
            ChatEvent::Stage { detail, .. } if !json && tty => {
                eprint!("\r\x1b[2K\x1b[2m{detail}\x1b[0m")
            }
            ChatEvent::Token { text } if !json => {
                if tty {
                    eprint!("\r\x1b[2K");
                }
                write!(out, "{text}")?;
                out.flush()?;
            }
            ChatEvent::Cards { cards } if !json => {
                writeln!(out)?;
                for c in cards {
                    let matched = c
                        .matched_tasks
                        .first()
                        .map(|t| format!(" · matched: {t}"))
                        .unwrap_or_default();
                    eprintln!(
                        "  ▸ {} ({}) {} · {}{}{matched}",
                        c.display_name,
                        c.key,
                        c.platform,
                        c.access,
                        c.relevance_percent()
                            .map(|p| format!(" · relevance {p}%"))
                            .unwrap_or_default()
                    );
                }
            }
            ChatEvent::RequestCodebundle { .. } if !json => {
                eprintln!(
                    "\n  (Nothing fits: open the web UI to request a codebundle, prefilled from this question.)"
                );
            }
            ChatEvent::Done {
                session_id: s,
                source,
                confidence,
                ..
            } => {
                session_id = s.clone();
                if !json {
                    writeln!(out)?;
                    eprintln!(
                        "\n[{source} · confidence {:.0}% · session {}]",
                        confidence * 100.0,
                        s.clone().unwrap_or_default()
                    );
                }
            }
            ChatEvent::Error { code, message } => {
                failed = Some(format!("{message} ({code})"));
            }
            _ => {}
        }
    }
    if let Some(f) = failed {
        anyhow::bail!(f);
    }
    Ok(session_id)
}

pub fn ask(config: &Config, args: &AskArgs) -> anyhow::Result<()> {
    super::runtime()?.block_on(async {
        let agent = open_agent(config).await?;
        turn(&agent, &args.question, args.session.clone(), args.json).await?;
        Ok(())
    })
}

const HELP: &str = "Commands: :new (start over), :history, :id, :export md|json|txt [path], :exit";

pub fn chat(config: &Config, args: &ChatArgs) -> anyhow::Result<()> {
    super::runtime()?.block_on(async {
        let agent = open_agent(config).await?;
        let mut session = args.session.clone();
        eprintln!("Registry Chat — ask about a problem in your own words. {HELP}");
        let stdin = std::io::stdin();
        loop {
            eprint!("\n> ");
            std::io::stderr().flush().ok();
            let mut line = String::new();
            if stdin.lock().read_line(&mut line)? == 0 {
                break;
            }
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(cmd) = line.strip_prefix(':') {
                let mut parts = cmd.split_whitespace();
                match parts.next().unwrap_or("") {
                    "exit" | "quit" | "q" => break,
                    "new" => {
                        session = None;
                        eprintln!("New conversation.");
                    }
                    "id" => eprintln!("{}", session.as_deref().unwrap_or("(no conversation yet)")),
                    "history" => match &session {
                        None => eprintln!("(no conversation yet)"),
                        Some(id) => {
                            let id = id.clone();
                            let view = agent.conversations.session(id).await?;
                            for t in view.map(|v| v.turns).unwrap_or_default() {
                                eprintln!(
                                    "- {} → {}",
                                    t.question,
                                    t.cards
                                        .first()
                                        .map_or("(no bundle)".to_string(), |c| c.key.clone())
                                );
                            }
                        }
                    },
                    "export" => {
                        let Some(id) = session.clone() else {
                            eprintln!("(no conversation yet)");
                            continue;
                        };
                        let Some(format) = Format::parse(parts.next().unwrap_or("md")) else {
                            eprintln!("formats: md, json, txt");
                            continue;
                        };
                        let path = parts.next().map(str::to_string).unwrap_or_else(|| {
                            format!(
                                "registry-chat-{}.{}",
                                &id[..8.min(id.len())],
                                format.extension()
                            )
                        });
                        let body = report::export(&agent.conversations, &agent.db, id, format)
                            .await?
                            .map(|(_, body)| body)
                            .unwrap_or_default();
                        match std::fs::write(&path, body) {
                            Ok(()) => eprintln!("Wrote {path}"),
                            Err(e) => eprintln!("Cannot write {path}: {e}"),
                        }
                    }
                    _ => eprintln!("{HELP}"),
                }
                continue;
            }
            match turn(&agent, line, session.clone(), false).await {
                Ok(id) => session = id.or(session),
                Err(e) => eprintln!("error: {e:#}"),
            }
        }
        Ok(())
    })
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The conversation id.
    #[arg(long)]
    pub session: String,
    #[arg(long, default_value = "md", value_parser = ["md", "json", "txt"])]
    pub format: String,
}

pub fn export(config: &Config, args: &ExportArgs) -> anyhow::Result<()> {
    let db = super::open_db(config)?;
    let format = Format::parse(&args.format).unwrap_or(Format::Markdown);
    let id = args.session.clone();
    let found = super::runtime()?.block_on(async {
        let conversations =
            crate::memory::Conversations(crate::store::Shared::open(config, &db).await?);
        report::export(&conversations, &db, id, format).await
    })?;
    match found {
        Some((_, body)) => {
            print!("{body}");
            Ok(())
        }
        None => anyhow::bail!(
            "no conversation {} (ids are printed by `ask` and shown in the web UI's address bar)",
            args.session
        ),
    }
}
