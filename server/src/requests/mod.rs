//! Codebundle requests: saved from the "Request CodeBundle" form, found again by
//! similarity ("someone already asked for this"), listed and triaged by admins, and
//! rendered as markdown ready for an issue tracker.

use crate::memory::NOW;
use crate::store::StoreError;
use app::api::requests::{
    MAX_FIELD_CHARS, MAX_PROBLEM_CHARS, RequestInput, RequestSaved, RequestStatus, RequestSummary,
    reference,
};
use rusqlite::{Connection, OptionalExtension, params};
use std::fmt::Write;

mod pg;
mod store;
pub mod tracker;

pub use store::Requests;

#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// The form is not acceptable; the message says which field and why.
    #[error("{0}")]
    Invalid(String),
    #[error("no request {0}")]
    NotFound(i64),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for RequestError {
    fn from(e: rusqlite::Error) -> Self {
        RequestError::Store(e.into())
    }
}

impl From<tokio_postgres::Error> for RequestError {
    fn from(e: tokio_postgres::Error) -> Self {
        RequestError::Store(e.into())
    }
}

fn field(name: &str, value: &str, max: usize, required: bool) -> Result<String, RequestError> {
    let v = value.trim();
    if required && v.is_empty() {
        return Err(RequestError::Invalid(format!("{name} is required.")));
    }
    if v.chars().count() > max {
        return Err(RequestError::Invalid(format!(
            "{name} is longer than {max} characters."
        )));
    }
    Ok(v.to_string())
}

fn optional(name: &str, value: &Option<String>) -> Result<Option<String>, RequestError> {
    Ok(match value {
        Some(v) => Some(field(name, v, 200, false)?).filter(|v| !v.is_empty()),
        None => None,
    })
}

/// Trims every field and checks the limits the form states.
pub fn validate(input: &RequestInput) -> Result<RequestInput, RequestError> {
    Ok(RequestInput {
        problem: field("The problem", &input.problem, MAX_PROBLEM_CHARS, true)?,
        platform: optional("The platform", &input.platform)?,
        healthy: field(
            "What healthy looks like",
            &input.healthy,
            MAX_FIELD_CHARS,
            false,
        )?,
        context: field("The context", &input.context, MAX_FIELD_CHARS, false)?,
        contact: optional("The contact", &input.contact)?,
        session_id: input.session_id.clone().filter(|s| !s.is_empty()),
        turn_id: input.turn_id.clone().filter(|s| !s.is_empty()),
        closest: input.closest.iter().take(10).cloned().collect(),
    })
}

/// Saves a validated request. Unknown session or turn ids are dropped rather than
/// refused: the request matters more than its link.
pub fn create(
    c: &Connection,
    input: &RequestInput,
    owner: Option<&str>,
) -> Result<RequestSaved, RequestError> {
    let input = validate(input)?;
    let exists = |sql: &str, id: &Option<String>| -> rusqlite::Result<Option<String>> {
        match id {
            Some(id) => Ok(c
                .query_row(sql, [id], |_| Ok(()))
                .optional()?
                .map(|_| id.clone())),
            None => Ok(None),
        }
    };
    let session = exists("SELECT 1 FROM sessions WHERE id = ?1", &input.session_id)?;
    let turn = exists("SELECT 1 FROM turns WHERE id = ?1", &input.turn_id)?;
    c.execute(
        &format!(
            "INSERT INTO requests (problem, platform, healthy, context, contact, session_id, turn_id, closest, owner, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, {NOW}, {NOW})"
        ),
        params![
            input.problem,
            input.platform,
            input.healthy,
            input.context,
            input.contact,
            session,
            turn,
            serde_json::to_string(&input.closest).unwrap_or_else(|_| "[]".into()),
            owner,
        ],
    )?;
    let id = c.last_insert_rowid();
    saved(c, id)
}

/// A saved request as the form shows it after saving (no tracker outcome yet).
pub fn saved(c: &Connection, id: i64) -> Result<RequestSaved, RequestError> {
    Ok(RequestSaved {
        request: summary(c, id)?,
        markdown: markdown(c, id)?,
        tracker: None,
    })
}

/// Where filing a request stands when a caller asks to file it.
pub enum Claim {
    /// This caller may file it now (the open issue offered earlier, if any).
    Claimed { candidate: Option<u64> },
    /// Another call is filing it.
    Running,
    /// Filed already (the issue, when the tracker named one).
    Done(Option<String>),
}

/// What the tracker gets for request `id`, and the claim to file it: the row
/// moves to `running` only if nothing is filing or has filed it.
pub fn claim_filing(c: &Connection, id: i64) -> Result<(tracker::Filing, Claim), RequestError> {
    let rec = record(c, id)?;
    let filing = filing(id, &rec, &links(c, &rec.closest)?);
    let (issue_url, candidate, state): (Option<String>, Option<i64>, Option<String>) = c
        .query_row(
            "SELECT issue_url, issue_candidate, filing FROM requests WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?
        .ok_or(RequestError::NotFound(id))?;
    let claim = match state.as_deref() {
        Some("done") => Claim::Done(issue_url),
        Some(_) => Claim::Running,
        None => {
            let n = c.execute(
                "UPDATE requests SET filing = 'running' WHERE id = ?1 AND filing IS NULL",
                [id],
            )?;
            claimed(n as u64, candidate)
        }
    };
    Ok((filing, claim))
}

/// `n` rows moved to `running`: 1 means this caller won the claim.
pub(crate) fn claimed(n: u64, candidate: Option<i64>) -> Claim {
    if n == 1 {
        Claim::Claimed {
            candidate: candidate.map(|n| n as u64),
        }
    } else {
        Claim::Running
    }
}

/// The issue a request becomes. Public: no contact or conversation id, and no
/// @mentions that would notify people from the team's account.
pub fn filing(id: i64, rec: &Record, links: &[Link]) -> tracker::Filing {
    let summary: String = rec
        .problem
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(80)
        .collect();
    let body = no_mentions(&render(id, rec, links, false));
    let payload = serde_json::json!({
        "reference": reference(id),
        "title": summary,
        "problem": rec.problem,
        "platform": rec.platform,
        "healthy": rec.healthy,
        "markdown": body,
    });
    tracker::Filing {
        title: no_mentions(&format!("CodeBundle request: {summary}")),
        summary,
        body,
        payload,
    }
}

/// Gives the claim back (a duplicate was offered, or the tracker failed).
pub fn release_filing(c: &Connection, id: i64, candidate: Option<u64>) -> Result<(), RequestError> {
    c.execute(
        &format!(
            "UPDATE requests SET filing = NULL, issue_candidate = COALESCE(?2, issue_candidate),
               updated_at = {NOW} WHERE id = ?1"
        ),
        params![id, candidate.map(|n| n as i64)],
    )?;
    Ok(())
}

/// Marks the request filed, with the issue the tracker named.
pub fn finish_filing(c: &Connection, id: i64, url: Option<&str>) -> Result<(), RequestError> {
    c.execute(
        &format!(
            "UPDATE requests SET filing = 'done', issue_url = COALESCE(?2, issue_url), updated_at = {NOW}
             WHERE id = ?1"
        ),
        params![id, url],
    )?;
    Ok(())
}

/// Whether `owner` saved request `id` (anyone else is told it does not exist).
pub fn owned_by(c: &Connection, id: i64, owner: Option<&str>) -> Result<bool, RequestError> {
    let stored: Option<Option<String>> = c
        .query_row("SELECT owner FROM requests WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(stored.is_some_and(|s| s.as_deref() == owner))
}

/// `@name` would notify a GitHub user or team from the bot account.
fn no_mentions(text: &str) -> String {
    text.replace('@', "@\u{200B}")
}

fn summary(c: &Connection, id: i64) -> Result<RequestSummary, RequestError> {
    c.query_row(
        "SELECT id, problem, platform, status, created_at, issue_url FROM requests WHERE id = ?1",
        [id],
        row_summary,
    )
    .optional()?
    .ok_or(RequestError::NotFound(id))
}

fn row_summary(r: &rusqlite::Row) -> rusqlite::Result<RequestSummary> {
    let id: i64 = r.get(0)?;
    Ok(RequestSummary {
        id,
        reference: reference(id),
        problem: r.get(1)?,
        platform: r.get(2)?,
        status: crate::store::closed(r, 3)?,
        created_at: r.get(4)?,
        issue_url: r.get(5)?,
    })
}

/// Earlier requests whose text shares words with `problem`, best first.
pub fn similar(
    c: &Connection,
    problem: &str,
    limit: usize,
) -> Result<Vec<RequestSummary>, RequestError> {
    let terms = crate::index::text::query_terms(problem);
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    // Each term quoted, so FTS5 syntax in the user's words is just text.
    let query = terms
        .iter()
        .map(|t| format!("\"{}\"", t.replace('"', "")))
        .collect::<Vec<_>>()
        .join(" OR ");
    let mut st = c.prepare(
        "SELECT r.id, r.problem, r.platform, r.status, r.created_at, r.issue_url FROM requests_fts f
         JOIN requests r ON r.id = f.rowid WHERE requests_fts MATCH ?1
         ORDER BY bm25(requests_fts, 5.0, 1.0, 1.0) LIMIT ?2",
    )?;
    let rows = st
        .query_map(params![query, limit as i64], row_summary)?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// Newest first, optionally only one status.
pub fn list(c: &Connection, status: Option<&str>) -> Result<Vec<RequestSummary>, RequestError> {
    let mut st = c.prepare(
        "SELECT id, problem, platform, status, created_at, issue_url FROM requests
         WHERE ?1 IS NULL OR status = ?1 ORDER BY id DESC",
    )?;
    let rows = st
        .query_map([status], row_summary)?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// One of `RequestStatus`'s values, or a message listing them.
fn parse_status(status: &str) -> Result<RequestStatus, RequestError> {
    RequestStatus::parse(status).ok_or_else(|| {
        let all: Vec<&str> = RequestStatus::ALL.iter().map(|s| s.as_str()).collect();
        RequestError::Invalid(format!("Status must be one of {}.", all.join(", ")))
    })
}

/// `status` as an admin typed it: one of `RequestStatus`'s values.
pub fn set_status(c: &Connection, id: i64, status: &str) -> Result<(), RequestError> {
    let status = parse_status(status)?;
    let n = c.execute(
        &format!("UPDATE requests SET status = ?2, updated_at = {NOW} WHERE id = ?1"),
        params![id, status.as_str()],
    )?;
    if n == 0 {
        return Err(RequestError::NotFound(id));
    }
    Ok(())
}

/// The request as an issue body: title, problem, platform, what healthy looks
/// like, context, the closest existing bundles, and where it came from.
pub fn markdown(c: &Connection, id: i64) -> Result<String, RequestError> {
    markdown_for(c, id, true)
}

/// `private`: with the contact and the conversation id (the registry's own
/// copy); without them for an issue tracker others may read.
fn markdown_for(c: &Connection, id: i64, private: bool) -> Result<String, RequestError> {
    let rec = record(c, id)?;
    let links = links(c, &rec.closest)?;
    Ok(render(id, &rec, &links, private))
}

/// A request as saved, with the exchange it came from: what the markdown says.
pub struct Record {
    pub problem: String,
    pub platform: Option<String>,
    pub healthy: String,
    pub context: String,
    pub contact: Option<String>,
    pub session: Option<String>,
    pub closest: Vec<String>,
    pub status: String,
    pub created: String,
    /// The question and answer of the turn the form was opened from.
    pub excerpt: Option<(String, String)>,
}

fn record(c: &Connection, id: i64) -> Result<Record, RequestError> {
    let rec = c
        .query_row(
            "SELECT problem, platform, healthy, context, contact, session_id, closest, status, created_at
             FROM requests WHERE id = ?1",
            [id],
            |r| {
                Ok(Record {
                    problem: r.get(0)?,
                    platform: r.get(1)?,
                    healthy: r.get(2)?,
                    context: r.get(3)?,
                    contact: r.get(4)?,
                    session: r.get(5)?,
                    closest: serde_json::from_str(&r.get::<_, String>(6)?).unwrap_or_default(),
                    status: r.get(7)?,
                    created: r.get(8)?,
                    excerpt: None,
                })
            },
        )
        .optional()?
        .ok_or(RequestError::NotFound(id))?;
    let excerpt = c
        .query_row(
            "SELECT t.question, t.answer FROM requests r JOIN turns t ON t.id = r.turn_id WHERE r.id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(Record { excerpt, ..rec })
}

/// A closest bundle's display name and source link, when the catalog has it.
pub type Link = Option<(String, Option<String>)>;

/// The links for `closest`, from the catalog (this replica's SQLite file).
pub fn links(c: &Connection, closest: &[String]) -> Result<Vec<Link>, StoreError> {
    closest
        .iter()
        .map(|key| {
            Ok(key
                .split_once('/')
                .map(|(coll, slug)| crate::catalog::bundle_link(c, coll, slug))
                .transpose()?
                .flatten())
        })
        .collect()
}

/// The request as markdown: title, problem, platform, what healthy looks like,
/// context, the conversation excerpt, the closest bundles (`links`, in order).
pub fn render(id: i64, rec: &Record, links: &[Link], private: bool) -> String {
    let title: String = rec
        .problem
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(80)
        .collect();
    let mut out = String::new();
    let _ = writeln!(out, "# CodeBundle request {}: {title}\n", reference(id));
    let _ = writeln!(
        out,
        "*Status: {} · requested {}{}*\n",
        rec.status,
        rec.created,
        rec.platform
            .as_deref()
            .map(|p| format!(" · platform: {p}"))
            .unwrap_or_default()
    );
    let _ = writeln!(out, "## Problem\n\n{}\n", rec.problem);
    if !rec.healthy.is_empty() {
        let _ = writeln!(out, "## What healthy looks like\n\n{}\n", rec.healthy);
    }
    if !rec.context.is_empty() {
        let _ = writeln!(out, "## Context\n\n{}\n", rec.context);
    }
    if let Some((question, answer)) = &rec.excerpt {
        let mut cut = String::new();
        for line in answer.lines() {
            if cut.len() + line.len() > 600 {
                cut.push_str("> …\n");
                break;
            }
            cut.push_str(&format!("> {line}\n"));
        }
        let _ = writeln!(
            out,
            "## From the conversation\n\n**Asked:** {}\n\n{cut}",
            question.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }
    if !rec.closest.is_empty() {
        let _ = writeln!(out, "## Closest existing codebundles (not a fit)\n");
        for (i, key) in rec.closest.iter().enumerate() {
            match links.get(i).cloned().flatten() {
                Some((n, Some(url))) => {
                    let _ = writeln!(out, "- [{n}]({url}) (`{key}`)");
                }
                Some((n, None)) => {
                    let _ = writeln!(out, "- {n} (`{key}`)");
                }
                None => {
                    let _ = writeln!(out, "- `{key}`");
                }
            }
        }
        out.push('\n');
    }
    if private {
        if let Some(who) = &rec.contact {
            let _ = writeln!(out, "Contact: {who}\n");
        }
        if let Some(s) = &rec.session {
            let _ = writeln!(out, "*From Registry Chat conversation `{s}`.*");
        }
    }
    out.trim_end().to_string() + "\n"
}
