//! The golden-set format (one JSON object per line, see README "Evaluation").

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    pub collection: String,
    pub slug: String,
}

impl Expected {
    pub fn key(&self) -> String {
        format!("{}/{}", self.collection, self.slug)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub id: String,
    pub question: String,
    pub category: String,
    #[serde(default)]
    pub expected: Vec<Expected>,
    #[serde(default)]
    pub depends_on: Option<String>,
    /// Written to avoid the target's distinctive words.
    #[serde(default)]
    pub hard: bool,
    #[serde(default)]
    pub notes: Option<String>,
    /// `path#anchor` of doc sections that answer a documentation question.
    #[serde(default)]
    pub expected_docs: Vec<String>,
    /// Keywords for keyword-library questions, by name (`Run Bash File`) or with
    /// their library (`RW.CLI.Run Bash File`).
    #[serde(default)]
    pub expected_keywords: Vec<String>,
}

pub const CATEGORIES: &[&str] = &[
    "general",
    "follow-up",
    "keyword-library",
    "documentation",
    "meta",
    "catalog",
    "no-match",
];

#[derive(Debug, thiserror::Error)]
pub enum GoldenError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Line {
        path: String,
        line: usize,
        message: String,
    },
    #[error("{path}: no questions")]
    Empty { path: String },
}

pub fn load(path: &Path) -> Result<Vec<Question>, GoldenError> {
    let p = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| GoldenError::Read {
        path: p.clone(),
        source,
    })?;
    let mut out: Vec<Question> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let fail = |message: String| GoldenError::Line {
            path: p.clone(),
            line: line_no,
            message,
        };
        if line.trim().is_empty() || line.trim_start().starts_with("//") {
            continue;
        }
        let q: Question =
            serde_json::from_str(line).map_err(|e| fail(format!("not a golden question: {e}")))?;
        if !CATEGORIES.contains(&q.category.as_str()) {
            return Err(fail(format!(
                "unknown category {:?} (one of {})",
                q.category,
                CATEGORIES.join(", ")
            )));
        }
        if q.question.trim().is_empty() {
            return Err(fail("empty question".into()));
        }
        if let Some(dep) = &q.depends_on
            && !seen.contains_key(dep)
        {
            return Err(fail(format!(
                "depends_on {dep:?} is not an earlier question"
            )));
        }
        if let Some(prev) = seen.insert(q.id.clone(), line_no) {
            return Err(fail(format!(
                "duplicate id {:?} (first on line {prev})",
                q.id
            )));
        }
        out.push(q);
    }
    if out.is_empty() {
        return Err(GoldenError::Empty { path: p });
    }
    Ok(out)
}

/// The question with the questions it depends on, oldest first.
pub fn chain<'a>(qs: &'a [Question], q: &'a Question) -> Vec<&'a Question> {
    let by_id: HashMap<&str, &Question> = qs.iter().map(|q| (q.id.as_str(), q)).collect();
    let mut out = vec![q];
    let mut cur = q;
    while let Some(dep) = cur.depends_on.as_deref().and_then(|d| by_id.get(d)) {
        out.insert(0, dep);
        cur = dep;
        if out.len() > 20 {
            break;
        }
    }
    out
}
