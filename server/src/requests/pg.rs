//! Codebundle requests in PostgreSQL (`database.url`): the SQLite functions of
//! this module, in Postgres' dialect, so every replica lists, finds and files the
//! same requests. Markdown and tracker payloads are rendered once, in `mod.rs`.

use super::{Claim, Record, RequestError, claimed};
use crate::store::pg::Pg;
use app::api::requests::{RequestInput, RequestSummary, reference};

fn row_summary(r: &tokio_postgres::Row) -> Result<RequestSummary, RequestError> {
    let id: i64 = r.get(0);
    Ok(RequestSummary {
        id,
        reference: reference(id),
        problem: r.get(1),
        platform: r.get(2),
        status: crate::store::pg::closed(r, 3)?,
        created_at: r.get(4),
        issue_url: r.get(5),
    })
}

const SUMMARY: &str = "SELECT id, problem, platform, status, created_at, issue_url FROM requests";

/// Saves a validated request; unknown session or turn ids are dropped, as in SQLite.
pub async fn insert(
    pg: &Pg,
    input: &RequestInput,
    owner: Option<&str>,
) -> Result<i64, RequestError> {
    let c = pg.client().await?;
    let row = c
        .query_one(
            "INSERT INTO requests (problem, platform, healthy, context, contact, session_id, turn_id,
               closest, owner, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, (SELECT id FROM sessions WHERE id = $6),
               (SELECT id FROM turns WHERE id = $7), $8, $9, rc_now(), rc_now())
             RETURNING id",
            &[
                &input.problem,
                &input.platform,
                &input.healthy,
                &input.context,
                &input.contact,
                &input.session_id,
                &input.turn_id,
                &serde_json::to_string(&input.closest).unwrap_or_else(|_| "[]".into()),
                &owner,
            ],
        )
        .await?;
    Ok(row.get(0))
}

pub async fn summary(pg: &Pg, id: i64) -> Result<RequestSummary, RequestError> {
    let row = pg
        .client()
        .await?
        .query_opt(&format!("{SUMMARY} WHERE id = $1"), &[&id])
        .await?;
    row.as_ref()
        .map(row_summary)
        .transpose()?
        .ok_or(RequestError::NotFound(id))
}

pub async fn record(pg: &Pg, id: i64) -> Result<Record, RequestError> {
    let row = pg
        .client()
        .await?
        .query_opt(
            "SELECT r.problem, r.platform, r.healthy, r.context, r.contact, r.session_id, r.closest,
                    r.status, r.created_at, t.question, t.answer
             FROM requests r LEFT JOIN turns t ON t.id = r.turn_id WHERE r.id = $1",
            &[&id],
        )
        .await?
        .ok_or(RequestError::NotFound(id))?;
    let question: Option<String> = row.get(9);
    let answer: Option<String> = row.get(10);
    Ok(Record {
        problem: row.get(0),
        platform: row.get(1),
        healthy: row.get(2),
        context: row.get(3),
        contact: row.get(4),
        session: row.get(5),
        closest: serde_json::from_str(row.get(6)).unwrap_or_default(),
        status: row.get(7),
        created: row.get(8),
        excerpt: question.zip(answer),
    })
}

/// Earlier requests sharing words with `problem`, best first (`ts_rank_cd`).
pub async fn similar(
    pg: &Pg,
    problem: &str,
    limit: usize,
) -> Result<Vec<RequestSummary>, RequestError> {
    let terms = crate::index::text::query_terms(problem);
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    // websearch syntax with only words and `or`: the user's punctuation is text.
    let query = terms
        .iter()
        .map(|t| t.replace(|c: char| !c.is_alphanumeric(), " "))
        .collect::<Vec<_>>()
        .join(" or ");
    let rows = pg
        .client()
        .await?
        .query(
            "SELECT id, problem, platform, status, created_at, issue_url
             FROM requests, websearch_to_tsquery('english', $1) q
             WHERE search @@ q ORDER BY ts_rank_cd(search, q) DESC, id DESC LIMIT $2",
            &[&query, &(limit as i64)],
        )
        .await?;
    rows.iter().map(row_summary).collect()
}

pub async fn list(pg: &Pg, status: Option<&str>) -> Result<Vec<RequestSummary>, RequestError> {
    let rows = pg
        .client()
        .await?
        .query(
            &format!("{SUMMARY} WHERE $1::text IS NULL OR status = $1 ORDER BY id DESC"),
            &[&status],
        )
        .await?;
    rows.iter().map(row_summary).collect()
}

/// `status` is already one of `RequestStatus`'s values. False: no such request.
pub async fn set_status(pg: &Pg, id: i64, status: &str) -> Result<bool, RequestError> {
    let n = pg
        .client()
        .await?
        .execute(
            "UPDATE requests SET status = $2, updated_at = rc_now() WHERE id = $1",
            &[&id, &status],
        )
        .await?;
    Ok(n > 0)
}

pub async fn owned_by(pg: &Pg, id: i64, owner: Option<&str>) -> Result<bool, RequestError> {
    let row = pg
        .client()
        .await?
        .query_opt("SELECT owner FROM requests WHERE id = $1", &[&id])
        .await?;
    Ok(row.is_some_and(|r| r.get::<_, Option<&str>>(0) == owner))
}

/// The claim to file: the row moves to `running` only if nothing is filing or
/// has filed it, so two replicas never open two issues.
pub async fn claim(pg: &Pg, id: i64) -> Result<Claim, RequestError> {
    let c = pg.client().await?;
    let row = c
        .query_opt(
            "SELECT issue_url, issue_candidate, filing FROM requests WHERE id = $1",
            &[&id],
        )
        .await?
        .ok_or(RequestError::NotFound(id))?;
    let (issue_url, candidate, state): (Option<String>, Option<i64>, Option<String>) =
        (row.get(0), row.get(1), row.get(2));
    Ok(match state.as_deref() {
        Some("done") => Claim::Done(issue_url),
        Some(_) => Claim::Running,
        None => {
            let n = c
                .execute(
                    "UPDATE requests SET filing = 'running' WHERE id = $1 AND filing IS NULL",
                    &[&id],
                )
                .await?;
            claimed(n, candidate)
        }
    })
}

pub async fn release(pg: &Pg, id: i64, candidate: Option<u64>) -> Result<(), RequestError> {
    pg.client()
        .await?
        .execute(
            "UPDATE requests SET filing = NULL, issue_candidate = COALESCE($2, issue_candidate),
               updated_at = rc_now() WHERE id = $1",
            &[&id, &candidate.map(|n| n as i64)],
        )
        .await?;
    Ok(())
}

pub async fn finish(pg: &Pg, id: i64, url: Option<&str>) -> Result<(), RequestError> {
    pg.client()
        .await?
        .execute(
            "UPDATE requests SET filing = 'done', issue_url = COALESCE($2, issue_url),
               updated_at = rc_now() WHERE id = $1",
            &[&id, &url],
        )
        .await?;
    Ok(())
}
