//! From feedback to tests: thumbs-down and no-match turns become golden-set lines
//! in the `eval` JSONL format with `expected` left empty for a person to fill in
//! (or the category set to `no-match` when the registry truly has nothing). A
//! follow-up brings the turn before it along, as `depends_on`, so the line replays
//! the same conversation.

use super::window::Window;
use crate::eval::golden::Question;
use crate::store::StoreError;
use rusqlite::{Connection, OptionalExtension};
use std::collections::HashSet;

/// A complete turn with a thumbs-down or no match (read by either backend).
pub struct Bad {
    pub id: String,
    pub session_id: String,
    pub seq: i64,
    pub question: String,
    pub category: String,
    pub no_match: bool,
    pub feedback: Option<i64>,
    pub note: Option<String>,
    pub confidence: f64,
    pub cited: String,
}

/// The complete turn before `seq` in a session: (id, question, category, seq).
pub type Earlier = (String, String, String, i64);

/// The turns `export` reports, oldest first.
pub const BAD_SQL: &str = "SELECT id, session_id, seq, question, category, no_match, feedback, feedback_note, confidence, cited
         FROM turns WHERE status = 'complete' AND (feedback < 0 OR no_match)
           AND created_at >= {from} AND created_at < {to} ORDER BY created_at, seq";

/// Follow-ups walked back at most this far for context.
const MAX_CHAIN: usize = 8;

/// 12 hex digits of the turn id: unique enough that a clash (which would make the
/// file fail to load) is practically impossible.
fn line_id(turn_id: &str) -> String {
    format!("fb-{}", turn_id.chars().take(12).collect::<String>())
}

/// The JSONL text, oldest first; empty when nothing in the window qualifies.
pub fn export(c: &Connection, w: &Window) -> Result<String, StoreError> {
    let mut st = c.prepare(&BAD_SQL.replace("{from}", "?1").replace("{to}", "?2"))?;
    let bad: Vec<Bad> = st
        .query_map([&w.from, &w.to], |r| {
            Ok(Bad {
                id: r.get(0)?,
                session_id: r.get(1)?,
                seq: r.get(2)?,
                question: r.get(3)?,
                category: r.get(4)?,
                no_match: r.get(5)?,
                feedback: r.get(6)?,
                note: r.get(7)?,
                confidence: r.get(8)?,
                cited: r.get(9)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    lines(&bad, |session, seq| {
        Ok(c.query_row(
            "SELECT id, question, category, seq FROM turns WHERE session_id = ?1 AND seq < ?2 AND status = 'complete'
             ORDER BY seq DESC LIMIT 1",
            rusqlite::params![session, seq],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?)
    })
}

/// The JSONL lines for `bad`; `earlier` finds the turn a follow-up follows.
pub fn lines(
    bad: &[Bad],
    mut earlier: impl FnMut(&str, i64) -> Result<Option<Earlier>, StoreError>,
) -> Result<String, StoreError> {
    let mut written: HashSet<String> = HashSet::new();
    let mut out = String::new();
    let push = |q: Question, out: &mut String| {
        if let Ok(line) = serde_json::to_string(&q) {
            out.push_str(&line);
            out.push('\n');
        }
    };
    for b in bad {
        // A follow-up needs the turns it follows: walk back until one that is not a
        // follow-up, then write the missing ones oldest first, each depending on the
        // one before.
        let mut chain: Vec<(String, String, String)> = Vec::new();
        let (mut category, mut seq) = (b.category.clone(), b.seq);
        while category == "follow-up" && chain.len() < MAX_CHAIN {
            let Some((pid, question, cat, pseq)) = earlier(&b.session_id, seq)? else {
                break;
            };
            chain.push((pid, question, cat.clone()));
            (category, seq) = (cat, pseq);
        }
        chain.reverse();
        let mut depends_on: Option<String> = None;
        for (pid, question, category) in chain {
            let id = line_id(&pid);
            if written.insert(pid.clone()) {
                push(
                    Question {
                        id: id.clone(),
                        question,
                        category: golden_category(&category),
                        expected: Vec::new(),
                        depends_on: depends_on.clone(),
                        hard: false,
                        notes: Some(format!(
                            "Context for {} (turn {pid}); not itself reported.",
                            line_id(&b.id)
                        )),
                        expected_docs: Vec::new(),
                        expected_keywords: Vec::new(),
                    },
                    &mut out,
                );
            }
            depends_on = Some(id);
        }
        if !written.insert(b.id.clone()) {
            continue;
        }
        let mut why = Vec::new();
        if b.feedback.is_some_and(|f| f < 0) {
            why.push(
                match b.note.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
                    Some(n) => format!("thumbs-down: {n:?}"),
                    None => "thumbs-down".into(),
                },
            );
        }
        if b.no_match {
            why.push("no match".into());
        }
        let cited: Vec<String> = serde_json::from_str(&b.cited).unwrap_or_default();
        push(
            Question {
                id: line_id(&b.id),
                question: b.question.clone(),
                category: golden_category(&b.category),
                expected: Vec::new(),
                depends_on,
                hard: false,
                notes: Some(format!(
                    "From turn {} ({}; confidence {:.2}; answered with {}). Fill in `expected`, or set category to no-match if nothing in the registry fits.",
                    b.id,
                    why.join(", "),
                    b.confidence,
                    if cited.is_empty() {
                        "no citations".to_string()
                    } else {
                        cited.join(", ")
                    }
                )),
                expected_docs: Vec::new(),
                expected_keywords: Vec::new(),
            },
            &mut out,
        );
    }
    Ok(out)
}

/// Turn categories are golden categories, except that none is `no-match`: whether
/// a no-match was right is the reviewer's call.
fn golden_category(category: &str) -> String {
    if crate::eval::golden::CATEGORIES.contains(&category) {
        category.to_string()
    } else {
        "general".into()
    }
}
