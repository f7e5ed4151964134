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
/// question names the tool ("… bundle: can it alert when …"), and what the tool
/// needs or expects ("what does the check expect there", "which headers must the
/// probe carry"; not "what does my lambda need": the user's system). Not "is the backup
/// script failing" or "what version does our cluster run": those ask about the
/// user's system.
static OF_A_TOOL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(does|do|can|will|would|could|should)\s+the\s+[\w./-]+(\s+[\w./-]+){0,4}?\s+(bundle|codebundle|runbook|sli|monitor|check|tool|skill template|handler|query|healthcheck)\b|\b(bundle|codebundle|runbook|sli|monitor|skill template|tool)\b.{0,60}\b(does|do|can|will|would|could|should)\s+it\b|\b(which|what)\s+([\w-]+\s+){0,2}(mode|modes|method|methods|auth\w*|credentials?|roles?|permissions?|scopes?|syntax|format|operators?|versions?|defaults?|settings?|options?|variables?)\s+(does|do|should|can|will)\s+(it|i|we|the|this|that|[\w]+-[\w-]+)\b|(^|[.?!:;]\s*)(what|which)\b[^?.,]{0,50}\b(do|does|must|should|would)\s+(the|this|that|it)\b[^?.,]{0,40}?\b(need|needs|require|requires|expect|expects|accept|accepts|carry|support|supports)\b",
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

#[cfg(test)]
mod tests {
    use super::OF_A_TOOL;

    #[test]
    fn what_a_tool_needs_of_the_user_is_asked_of_the_tool() {
        for q in [
            "which token scope do i need for the gitlab pipeline one",
            "what does the quota check expect in that variable",
            "which headers must the probe carry",
            "does the pvc healthcheck bundle need cluster-admin",
        ] {
            assert!(OF_A_TOOL.is_match(q), "{q}");
        }
        for q in [
            "is the backup job failing again",
            "what version does our cluster run",
            "cpu is maxed out, do we need bigger nodes",
            "what do we need to fix first",
            "what do i need to check when a node goes notready",
            "what iam permissions does my lambda need to read s3",
            "the export job, which does the nightly dump, needs 8gb now",
        ] {
            assert!(!OF_A_TOOL.is_match(q), "{q}");
        }
    }
}
