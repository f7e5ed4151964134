//! "does azure-db-health work with a managed identity?", "k8s pvc healthcheck
//! runbook: what role does it need?": a question that names one of the catalog's
//! bundles the way its author would (the slug as typed, or its words followed by
//! "bundle", "runbook", "check"…) and asks how it behaves or what it needs is
//! answered by that bundle's README, not by a search that returns it again.
//!
//! Only a strong naming counts: "opsgenie alert" or "http latency" in a sentence
//! happen to be slugs, but a user who wants such an alert is asking for a bundle.

use crate::query::{NameKind, Query};
use regex::Regex;
use std::sync::LazyLock;

/// A question rather than a request or a report: an interrogative word or a
/// question mark.
static ASKS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\?|\b(does|do|is|are|can|could|will|would|should|how|what|which|why|where|when|whats)\b",
    )
    .expect("valid pattern")
});

/// Asking for another bundle beside the named one ("is there a bundle like
/// k8s-pvc-healthcheck for azure disks?", "anything better than …"): a search.
static ANOTHER_BUNDLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(is there|are there|any|anything|something|another|other|alternative|similar|like|instead of|better than|equivalent)\b.{0,30}\b(bundles?|codebundles?|checks?|runbooks?|slis?|tools?|skill templates?|one)\b|\b(bundles?|codebundles?|checks?|runbooks?|tools?) (like|similar to|instead of)\b",
    )
    .expect("valid pattern")
});

/// Words after a bundle's name that say it is the bundle being named.
const ROLE_AFTER: &[&str] = &[
    "bundle",
    "codebundle",
    "runbook",
    "sli",
    "check",
    "checks",
    "healthcheck",
    "tool",
    "skill",
    "monitor",
];

/// Words after a bundle's loose name (`loose_names`) that say it is the bundle.
const LOOSE_ROLE_AFTER: &[&str] = &[
    "bundle",
    "codebundle",
    "runbook",
    "taskset",
    "skill template",
];

/// The slug of the bundle the question names strongly, if any.
pub fn strongly_named(query: &Query, lowercase: &str) -> Option<String> {
    query
        .names
        .iter()
        .filter(|n| n.kind == NameKind::Bundle)
        .find(|n| {
            if lowercase.contains(n.id.as_str()) {
                return true;
            }
            // A loose name only before a word for a bundle: "vm health check"
            // or "postgres query tool" are ordinary phrases.
            let loose = crate::query::loose_names(&n.id)
                .into_iter()
                .map(|f| (f, LOOSE_ROLE_AFTER));
            let forms: Vec<(String, &[&str])> = loose
                .chain(std::iter::once((n.id.replace('-', " "), ROLE_AFTER)))
                .collect();
            forms.iter().any(|(form, roles)| {
                lowercase.match_indices(form.as_str()).any(|(at, _)| {
                    let starts_word = lowercase[..at]
                        .chars()
                        .next_back()
                        .is_none_or(|c| !c.is_alphanumeric());
                    let rest = lowercase[at + form.len()..].trim_start();
                    starts_word
                        && roles.iter().any(|r| {
                            rest.strip_prefix(r).is_some_and(|after| {
                                after.chars().next().is_none_or(|c| !c.is_alphanumeric())
                            })
                        })
                })
            })
        })
        .map(|n| n.id.clone())
}

/// Whether the question asks how a named bundle behaves or what it needs.
/// `symptom`: the message reports something wrong (a problem to search for).
pub fn asks_about_named_bundle(query: &Query, lowercase: &str, symptom: bool) -> bool {
    !symptom
        && ASKS.is_match(lowercase)
        && !ANOTHER_BUNDLE.is_match(lowercase)
        && strongly_named(query, lowercase).is_some()
}
