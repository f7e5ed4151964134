//! Follow-ups become standalone queries. "what about its SLIs?" points at the bundle
//! the previous answer recommended; "anything similar for AKS?" keeps the previous
//! topic and changes the platform. The continuity rule puts back the previous topic
//! and filters when a rewrite (rules or LLM) drops them; every such repair is traced.

use super::classify::Category;
use crate::index::text::query_terms;
use crate::memory::SessionContext;
use crate::search::Filters;
use app::api::Card;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// A property of a specific bundle the user can ask about directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Attribute {
    Slis,
    Tasks,
    Variables,
    Secrets,
    Access,
    Author,
    Source,
    Platform,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Rewrite {
    pub query: String,
    /// The bundle a follow-up refers to.
    pub subject: Option<Card>,
    pub attribute: Option<Attribute>,
    /// Filters carried over from the previous turn.
    pub filters: Filters,
    /// `none`, `rules` or `llm`.
    pub method: String,
    /// Repairs made by the continuity rule.
    pub continuity: Vec<String>,
}

fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid pattern")
}

static ATTRIBUTES: LazyLock<Vec<(Attribute, Regex)>> = LazyLock::new(|| {
    vec![
        (
            Attribute::Access,
            re(
                r"\b(write access|read[- ]?only|read[- ]?write|safe|change (anything|things)|destructive|modif(y|ies)|permissions?|rbac|on-?call)\b",
            ),
        ),
        (
            Attribute::Slis,
            re(r"\b(slis?|monitors?|schedule|scheduled|score|metrics?|alerting)\b"),
        ),
        (
            Attribute::Secrets,
            re(r"\b(secrets?|credentials?|kubeconfig|tokens?|api keys?)\b"),
        ),
        (
            Attribute::Variables,
            re(
                r"\b(variables?|config(ure|uration)?|settings?|inputs?|parameters?|params|set up|setup)\b",
            ),
        ),
        (
            Attribute::Tasks,
            re(
                r"\b(tasks?|steps?|what does (it|that|this)( one)? (do|check|run)|what do they (do|check))\b",
            ),
        ),
        (
            Attribute::Author,
            re(r"\b(who (wrote|made|maintains|owns)|author|maintainer)\b"),
        ),
        (
            Attribute::Source,
            re(r"\b(source|repo(sitory)?|link|github|code|where is it)\b"),
        ),
        (
            Attribute::Platform,
            re(r"\b(which|what) (platform|cloud)\b"),
        ),
    ]
});

static NEW_PLATFORM: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(aks|eks|gke|aws|amazon|azure|azrue|gcp|google|kubernetes|k8s|openshift)\b")
});

static REFERS_BACK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(it|its|it's|that one|this one|that bundle|this bundle|that|this|them|those|the first one|the second one)\b",
    )
});

pub fn attribute_of(question: &str) -> Option<Attribute> {
    let q = question.to_lowercase();
    ATTRIBUTES
        .iter()
        .find(|(_, r)| r.is_match(&q))
        .map(|(a, _)| *a)
}

/// Which previous card a reference points at ("the second one" → index 1).
fn referenced_card<'a>(question: &str, cards: &'a [Card]) -> Option<&'a Card> {
    let q = question.to_lowercase();
    let idx = if q.contains("second") {
        1
    } else if q.contains("third") {
        2
    } else if q.contains("last one") {
        cards.len().saturating_sub(1)
    } else {
        0
    };
    cards.get(idx).or(cards.first())
}

/// The rules: no model involved.
pub fn by_rules(question: &str, category: Category, ctx: &SessionContext) -> Rewrite {
    let mut out = Rewrite {
        query: question.to_string(),
        method: "none".into(),
        ..Default::default()
    };
    let Some(prev) = ctx.last() else { return out };
    if category != Category::FollowUp {
        return out;
    }
    out.method = "rules".into();
    out.filters = prev.filters.clone();
    let q = question.to_lowercase();
    let attribute = attribute_of(&q);
    let refers = REFERS_BACK.is_match(&q);
    let subject = referenced_card(&q, &prev.cards).cloned();
    // "does that one need write access?" / "what about its SLIs?"
    if let (Some(a), Some(card), true) = (
        attribute,
        subject.as_ref(),
        refers || q.split_whitespace().count() <= 6,
    ) && !NEW_PLATFORM.is_match(&q)
    {
        out.query = format!(
            "{} of {}",
            format!("{a:?}").to_lowercase(),
            card.display_name
        );
        out.attribute = Some(a);
        out.subject = subject;
        return out;
    }
    // "anything similar for AKS?", "and on the aws side?", "what about X?": the
    // previous topic plus what is new in this question.
    let topic = prev.rewritten.clone();
    if NEW_PLATFORM.is_match(&q) {
        out.filters.platform = None; // a new platform replaces the old one
    }
    out.query = format!("{topic} {question}");
    out.subject = subject;
    out
}

/// The continuity rule: a rewrite of a follow-up must keep the previous topic, and
/// filters the user did not change stay.
pub fn keep_continuity(rw: &mut Rewrite, question: &str, category: Category, ctx: &SessionContext) {
    let Some(prev) = ctx.last() else { return };
    if category != Category::FollowUp || rw.attribute.is_some() {
        return;
    }
    let topic_terms: Vec<String> = query_terms(&prev.rewritten)
        .into_iter()
        .filter(|t| t.len() > 3)
        .collect();
    let now_terms = query_terms(&rw.query);
    if !topic_terms.is_empty() && !topic_terms.iter().any(|t| now_terms.contains(t)) {
        rw.query = format!("{} {}", prev.rewritten, rw.query);
        rw.continuity.push(format!(
            "restored the previous topic \"{}\"",
            prev.rewritten
        ));
    }
    let mentions_platform = NEW_PLATFORM.is_match(&question.to_lowercase());
    if rw.filters.platform.is_none() && prev.filters.platform.is_some() && !mentions_platform {
        rw.filters.platform = prev.filters.platform.clone();
        rw.continuity.push(format!(
            "kept the filter platform={}",
            prev.filters.platform.clone().unwrap_or_default()
        ));
    }
    if rw.filters.access.is_none() && prev.filters.access.is_some() {
        rw.filters.access = prev.filters.access.clone();
        rw.continuity.push(format!(
            "kept the filter access={}",
            prev.filters.access.clone().unwrap_or_default()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::PastTurn;

    fn ctx() -> SessionContext {
        let card = Card {
            key: "kube-ops/k8s-pod-crashloop-triage".into(),
            display_name: "Kubernetes Pod Crashloop Triage".into(),
            ..Default::default()
        };
        let prev = PastTurn {
            rewritten: "pods keep restarting in payments".into(),
            cards: vec![card],
            ..Default::default()
        };
        SessionContext {
            turns: vec![prev],
            ..Default::default()
        }
    }

    #[test]
    fn attribute_follow_ups_point_at_the_previous_bundle() {
        let rw = by_rules("what about its SLIs?", Category::FollowUp, &ctx());
        assert_eq!(rw.attribute, Some(Attribute::Slis));
        assert_eq!(rw.subject.unwrap().slug, "");
        assert_eq!(rw.query, "slis of Kubernetes Pod Crashloop Triage");
        let rw = by_rules(
            "does that one need write access?",
            Category::FollowUp,
            &ctx(),
        );
        assert_eq!(rw.attribute, Some(Attribute::Access));
    }

    #[test]
    fn topic_follow_ups_keep_the_topic() {
        let rw = by_rules("anything similar for AKS?", Category::FollowUp, &ctx());
        assert!(rw.attribute.is_none());
        assert!(rw.query.contains("pods keep restarting") && rw.query.contains("AKS"));
    }

    #[test]
    fn continuity_repairs_a_rewrite_that_lost_the_topic() {
        let mut c = ctx();
        c.turns[0].filters.platform = Some("aws".into());
        let mut rw = Rewrite {
            query: "what else".into(),
            ..Default::default()
        };
        keep_continuity(&mut rw, "what else?", Category::FollowUp, &c);
        assert!(rw.query.contains("pods keep restarting"));
        assert_eq!(rw.filters.platform.as_deref(), Some("aws"));
        assert_eq!(rw.continuity.len(), 2);
    }
}
