//! Questions about how one bundle works ("which auth method does the query bundle
//! try first", "does the operations runbook work with that operator"): its README
//! answers them, not a list of bundles. The words alone cannot tell such a
//! question from a problem report, so the decision waits for the search: the top
//! bundle must be clearly what the question is about and one of its README
//! sections must answer well.

use super::{Classification, ClassifyMethod};
use crate::agent::classify::Category;
use crate::query::Query;
use crate::search::{BundleHit, DocHit};
use regex::Regex;
use std::sync::LazyLock;

/// A README section at this score or more answers it (the documentation answer
/// quotes sections from 0.45).
const SECTION_MIN: f32 = 0.5;

/// Asked of a tool rather than of a system: "does the … check need", "which mode
/// should I pick", "what … does the … bundle accept", and "it" only after the
/// question names the tool ("… bundle: can it alert when …"). Not "is the backup
/// script failing" or "what version does our cluster run": those ask about the
/// user's system.
static OF_A_TOOL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(does|do|can|will|would|could|should)\s+the\s+[\w./-]+(\s+[\w./-]+){0,4}?\s+(bundle|codebundle|runbook|sli|monitor|check|tool|skill template|handler|query|healthcheck)\b|\b(bundle|codebundle|runbook|sli|monitor|skill template|tool)\b.{0,60}\b(does|do|can|will|would|could|should)\s+it\b|\b(which|what)\s+([\w-]+\s+){0,2}(mode|modes|method|methods|auth\w*|credentials?|roles?|permissions?|scopes?|syntax|format|operators?|versions?|defaults?|settings?|options?|variables?)\s+(does|do|should|can|will)\s+(it|i|we|the|this|that|[\w]+-[\w-]+)\b",
    )
    .expect("valid pattern")
});

/// Documentation, when the question asks how the top bundle works and that
/// bundle's README answers it; `None` otherwise.
pub fn answered_by_readme(
    query: &Query,
    bundles: &[BundleHit],
    docs: &[DocHit],
) -> Option<Classification> {
    let top = bundles
        .first()
        .filter(|b| b.score >= crate::search::README_SUBJECT_MIN)?;
    let section = docs.first().filter(|d| d.score >= SECTION_MIN)?;
    (section.is_readme_of(top) && OF_A_TOOL.is_match(&query.text.to_lowercase())).then(|| {
        Classification {
            category: Category::Documentation,
            method: ClassifyMethod::Rules,
            reason: "asks how one bundle works; its README answers".into(),
        }
    })
}
