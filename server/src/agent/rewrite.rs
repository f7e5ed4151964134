//! Follow-ups become standalone queries. "what about its SLIs?" points at the bundle
//! the previous answer recommended. Otherwise a follow-up keeps the conversation's
//! *subject* (the AKS cluster, the Spanner instance: platforms, technologies,
//! resource kinds and catalog names) and changes its *aspect* (cost, backups,
//! DNS) — or, when it names a new subject ("and google cloud sql?", "post to teams
//! instead"), keeps the aspect and swaps the subject. The continuity rule puts back
//! the previous topic and filters when a rewrite (rules or LLM) drops them; every
//! such repair is traced.

use super::classify::Category;
use crate::index::text::query_terms;
use crate::memory::SessionContext;
use crate::query::{CorpusVocab, LEXICON, Query};
use crate::search::Filters;
use app::api::Card;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
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

/// How a question became its search query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RewriteMethod {
    /// Searched as asked (a standalone question).
    #[default]
    None,
    /// The follow-up rules added the conversation's subject.
    Rules,
    /// The model rewrote it.
    Llm,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Rewrite {
    pub query: String,
    /// The bundle a follow-up refers to.
    pub subject: Option<Card>,
    pub attribute: Option<Attribute>,
    /// Filters carried over from the previous turn.
    pub filters: Filters,
    pub method: RewriteMethod,
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
            // Where its files are: not "open a github issue", not an "exit code".
            re(
                r"\b(source( code)?|repo(sitory)?|link|the code|its code|where is it|on github|github (link|repo|page|url))\b",
            ),
        ),
        (
            Attribute::Platform,
            re(r"\b(which|what) (platform|cloud)\b"),
        ),
    ]
});

/// The follow-up replaces what the previous turn was about.
static REPLACES: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(instead|rather than|rather|switch to|what about|how about)\b"));

/// The follow-up asks the same thing about its new subject ("that same check for
/// the sql servers", "the equivalent for github actions").
static SAME_ASPECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(the )?same (check|checks|thing|kind of thing|for)\b|\bequivalent\b|\bsimilar\b|\blike that\b",
    )
});

/// The follow-up asks for a bundle that does something, not about the last one.
static ASKS_FOR_A_BUNDLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(anything|something) (that|to|which|for)\b|\bis there (a|an|any) (\w+ )?(bundle|codebundle|runbook|tool|check|skill template|way)\b",
    )
});

/// Replacement said outright, whatever the follow-up names: "instead", or a
/// change of topic announced at the start ("unrelated, but…", "on another
/// note, …"). Only at the start: mid-sentence, "unrelated to the deploy" or
/// "another topic" (a Kafka topic) are part of the question.
static EXPLICIT_SWAP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(instead|rather than|rather|switch to)\b|^\W*(unrelated|on (a |an )?(different|separate|other|another) note|(a |one )?(different|separate|new|another|other) question|changing (the )?(topic|subject))\b",
    )
});

/// "its plan", "their queues": a part of the subject before, not another
/// service. A pronoun elsewhere ("the function app that reads from it") points
/// at the old subject from a new one.
static POSSESSIVE: LazyLock<Regex> = LazyLock::new(|| re(r"\b(its|their)\b"));

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

/// The words of a question that name its subject: platforms, technologies,
/// resource kinds and the catalog's rare name words that are not everyday English
/// (a product only one or two bundles are named after, "litellm", "artifactory",
/// even when no lexicon lists it), in the order they appear.
pub fn subject_words(q: &Query, vocab: &CorpusVocab) -> Vec<String> {
    let rare = rare_name_limit(vocab);
    // Words inside a platform cue of several words ("google cloud", "cloud sql").
    let mut in_cue = vec![false; q.stems.len()];
    for (p, _) in LEXICON.platform_cues.iter().filter(|(p, _)| p.len() > 1) {
        let mut from = 0;
        while let Some(i) = p.find(&q.stems[from..]).map(|i| i + from) {
            in_cue[i..i + p.len()].iter_mut().for_each(|x| *x = true);
            from = i + 1;
        }
    }
    q.words
        .iter()
        .zip(&q.stems)
        .zip(&in_cue)
        .filter(|((w, s), cue)| {
            **cue
                || q.technologies.contains(w)
                || q.uncovered.contains(w)
                || q.resource_kinds.contains(s)
                || LEXICON.managed_kubernetes.contains_key(w.as_str())
                || LEXICON.platform_cues.iter().any(|(p, _)| p.text == **w)
                || names_product(w, rare, vocab)
        })
        .map(|(x, _)| x)
        .map(|(w, _)| w.clone())
        .fold(Vec::new(), |mut v, w| {
            if !v.contains(&w) {
                v.push(w);
            }
            v
        })
}

/// The platforms a word names: a cue's platform, or a managed cluster's cloud and
/// Kubernetes.
fn platforms_of(word: &str) -> Vec<String> {
    if let Some(cloud) = LEXICON.managed_kubernetes.get(word) {
        return vec![cloud.clone(), "kubernetes".into()];
    }
    LEXICON
        .platform_cues
        .iter()
        .filter(|(p, _)| p.text == word)
        .map(|(_, name)| name.clone())
        .collect()
}

/// The words of a question that say what it wants to know about its subject, less
/// what it says it does not want ("not a full triage", "without restarting").
fn aspect_words(q: &Query, subject: &[String]) -> Vec<String> {
    let negated = negated_words(&q.words);
    q.terms
        .iter()
        .filter(|t| {
            !subject.contains(t) && !negated.contains(t) && !t.chars().all(|c| c.is_ascii_digit())
        })
        .cloned()
        .collect()
}

/// What the previous question asked about its subject, in words the catalog names
/// bundles, tags or tasks with or that name a mechanism the concept lexicon knows
/// ("control plane"): filler such as "actually" or "sitting" only blurs the
/// search. At most eight.
fn carried_aspect(before: &Query, subject: &[String], vocab: &CorpusVocab) -> Vec<String> {
    aspect_words(before, subject)
        .into_iter()
        .filter(|w| {
            vocab.bundle_count() == 0 || vocab.bundles_using(w) > 0 || before.concepts.contains(w)
        })
        .take(8)
        .collect()
}

/// Words within three after a refusal ("not a", "without", "instead of", "rather
/// than"). A bare "not" or "no" is usually the symptom ("not ready", "no space
/// left"), not something the user declines.
fn negated_words(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).map(String::as_str);
        let negation = matches!(w.as_str(), "without" | "nor")
            || (w == "not"
                && matches!(next, Some("a" | "an" | "the" | "any" | "just" | "another")))
            || (w == "of" && i > 0 && words[i - 1] == "instead")
            || (w == "than" && i > 0 && words[i - 1] == "rather");
        if negation {
            out.extend(words.iter().skip(i + 1).take(3).cloned());
        }
    }
    out
}

/// At most one bundle in 25 (and never fewer than 3 for a small catalog) uses a
/// rare name word.
fn rare_name_limit(vocab: &CorpusVocab) -> u32 {
    (vocab.bundle_count() / 25).max(3) as u32
}

/// A cloud service the follow-up names that the previous question did not ("the
/// app service plans" after an AKS cluster, "the lambda reading from it" after a
/// queue): a new subject on the same platform. Cues that name the cloud itself
/// ("azure subscription", "google cloud"), a managed cluster, or a part of a
/// Kubernetes cluster ("pods", "node pool": the same cluster seen closer) are not
/// services.
fn names_another_service(now: &Query, before: &Query) -> bool {
    const CLOUD_NAMES: &[&str] = &["azure", "google", "gcp", "aws", "amazon", "microsoft"];
    // Where a service is looked at, not another service: "does that show up in
    // cloudwatch?" is still about the service before.
    const LOOKING: &[&str] = &[
        "cloudwatch",
        "cloudtrail",
        "gcloud",
        "gsutil",
        "bq",
        "kql",
        "stackdriver",
        "monitor",
        "logging",
        "analytics",
        "cli",
        "portal",
        "console",
    ];
    LEXICON.platform_cues.iter().any(|(p, platform)| {
        platform != "kubernetes"
            && !p.text.split(' ').any(|w| {
                CLOUD_NAMES.contains(&w)
                    || LOOKING.contains(&w)
                    || LEXICON.managed_kubernetes.contains_key(w)
            })
            && p.matches(&now.stems)
            && !p.matches(&before.stems)
    })
}

/// A subject word naming a product rather than a platform or a kind of resource.
fn is_product(w: &str, q: &Query, vocab: &CorpusVocab) -> bool {
    let w = w.to_string();
    // A managed cluster ("aks") is a platform change, not a new product: the
    // question keeps its kinds ("cluster", "pods").
    platforms_of(&w).is_empty()
        && (q.technologies.contains(&w)
            || q.uncovered.contains(&w)
            || (names_product(&w, rare_name_limit(vocab), vocab)
                && !q.resource_kinds.contains(&crate::query::phrase::stem(&w))))
}

/// A word that is not everyday English and names a few bundles in their display
/// names ("LiteLLM", "Artifactory"): a product the catalog knows by name even when
/// no lexicon lists it. Task names do not count: they are full of ordinary
/// technical words ("queries", "revisions").
fn names_product(w: &str, rare: u32, vocab: &CorpusVocab) -> bool {
    // Without a list of common words (the hash embedder) every rare name word
    // would look like a product; then only the lexicon's technologies count.
    vocab.common.is_some()
        && w.len() >= 3
        && !w.chars().all(|c| c.is_ascii_digit())
        && !crate::index::text::is_stopword(w)
        && !vocab.is_common(w)
        && (1..=rare as usize).contains(&vocab.bundles_named_with(w))
}

fn is_rare_name_word(w: &str, rare: u32, vocab: &CorpusVocab) -> bool {
    w.len() >= 3
        && !w.chars().all(|c| c.is_ascii_digit())
        && !crate::index::text::is_stopword(w)
        && (1..=rare).contains(&vocab.bundles_using(w))
}

/// Words that point at the thing already discussed rather than name an aspect:
/// "restart that app", "is there one that can".
const REFERENCE_NOUNS: &[&str] = &[
    "app",
    "apps",
    "application",
    "one",
    "ones",
    "thing",
    "things",
];

/// The verbs of the changes a user asks for (`actions.toml`), by stem: each form's
/// first word ("restart", "roll" of "roll back", "clean" of "clean up") and
/// the particles that complete them. Not the forms' other words: "bump memory"
/// or "clear the cache" hold nouns that do name an aspect.
static ACTION_VERBS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let mut verbs: HashSet<String> = ["up", "down", "back", "over", "out", "off"]
        .iter()
        .map(|w| w.to_string())
        .collect();
    for a in &LEXICON.actions {
        for f in &a.forms {
            if let Some(first) = crate::index::text::tokens(&f.text).first() {
                verbs.insert(crate::query::phrase::stem(first));
            }
        }
    }
    verbs
});

/// The follow-up only acts on or points at what came before ("ok just restart
/// that app", "is there one that can restart it?"): nothing it names is an aspect
/// of its own once its action verbs and reference nouns are set aside. Then the
/// previous answer's bundle says what "it" is. A follow-up naming an aspect ("and
/// what does it cost us", "are its backups fine") is about that aspect: the
/// previous bundle's name words would pull that bundle back to the top (on the
/// tuning halves, adding them to every follow-up lost 8 follow-ups and won 2).
fn asks_nothing_of_its_own(query: &Query, subject: &[String]) -> bool {
    aspect_words(query, subject).iter().all(|w| {
        REFERENCE_NOUNS.contains(&w.as_str())
            || ACTION_VERBS.contains(&crate::query::phrase::stem(w))
    })
}

/// The subject of the bundle the previous answer put first, as its name's rare
/// words: "Azure App Service Webapp Health" → "app", "webapp". A name's common
/// words ("health", "check", "triage", the platform) are aspects every subject
/// shares; the rare ones name what this bundle is about (at most one bundle in
/// 25 uses them, and never fewer than 3 for a small catalog).
fn card_subject(card: &Card, vocab: &CorpusVocab) -> Vec<String> {
    let rare = rare_name_limit(vocab);
    crate::index::text::tokens(&card.display_name)
        .into_iter()
        .filter(|w| is_rare_name_word(w, rare, vocab))
        .collect()
}

/// The rules: no model involved.
pub fn by_rules(
    query: &Query,
    category: Category,
    ctx: &SessionContext,
    vocab: &CorpusVocab,
) -> Rewrite {
    let question = query.text.as_str();
    let mut out = Rewrite {
        query: question.to_string(),
        method: RewriteMethod::None,
        ..Default::default()
    };
    let Some(prev) = ctx.last() else { return out };
    if category != Category::FollowUp {
        return out;
    }
    out.method = RewriteMethod::Rules;
    out.filters = prev.filters.clone();
    let q = question.to_lowercase();
    let attribute = attribute_of(&q);
    let refers = REFERS_BACK.is_match(&q);
    let subject = referenced_card(&q, &prev.cards).cloned();
    // Only a platform the follow-up names is a new one: "restart it and scale out"
    // uses words the catalog knows from Kubernetes bundles, yet keeps the App
    // Service it was about.
    let new_platform = !query.platforms.named().is_empty();
    // "does that one change anything?" / "what about its SLIs?" — unless the
    // follow-up also asks for another bundle ("anything that can recreate it, and
    // is that safe?").
    if let (Some(a), Some(card), true) = (
        attribute,
        subject.as_ref(),
        refers || q.split_whitespace().count() <= 6,
    ) && !new_platform
        && !ASKS_FOR_A_BUNDLE.is_match(&q)
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
    if new_platform {
        out.filters.platform = None; // a new platform replaces the old one
    }
    let before = Query::parse(&prev.rewritten, vocab);
    let before_subject = subject_words(&before, vocab);
    let now_subject = subject_words(query, vocab);
    // A platform the previous question was not about ("and google cloud sql?"
    // after azure); "its node pools" after an AKS cluster stays on it.
    let platform_change = query
        .platforms
        .named()
        .iter()
        .any(|p| !before.platforms.wanted.contains(p));
    // A product the follow-up names (from the lexicon or a rare catalog name word)
    // is a new subject: "similar checks for our Vault server?".
    // "its node pools" names a part of the old subject, not another service.
    let new_tech = now_subject.iter().any(|w| is_product(w, query, vocab))
        || (!POSSESSIVE.is_match(&q) && names_another_service(query, &before));
    // "what about spend?" changes the aspect; "what about azure?" the subject:
    // only a follow-up naming another product or platform replaces what came
    // before, unless it says so outright ("instead").
    let replaces =
        EXPLICIT_SWAP.is_match(&q) || (REPLACES.is_match(&q) && (new_tech || platform_change));
    let new_subject = replaces || platform_change || new_tech;
    let mut add: Vec<String> = Vec::new();
    if !new_subject {
        // Same subject, new aspect: "which queries are causing it?". When the
        // previous question named no subject the catalog knows, its words are the
        // subject.
        if before_subject.is_empty() {
            add.extend(carried_aspect(&before, &before_subject, vocab));
        } else {
            add.extend(before_subject.iter().cloned());
        }
    } else {
        // A new subject: keep what was asked about the old one when the follow-up
        // says little of its own ("and google cloud sql?"), and keep the parts of
        // the old subject the new one does not replace.
        for w in &before_subject {
            let platforms = platforms_of(w);
            let is_tech = is_product(w, &before, vocab);
            // "pods" and "k8s" stay for a question about AKS (still Kubernetes);
            // "gke" does not (Kubernetes, but on another cloud).
            let compatible = !platforms.is_empty()
                && platforms
                    .iter()
                    .all(|p| query.platforms.named().contains(p));
            let kept = if new_tech {
                // A new product brings its own setting: the old one's platform
                // and kinds ("jenkins as a statefulset in k8s") belong to it.
                compatible
            } else if !platforms.is_empty() {
                !platform_change || compatible
            } else if is_tech {
                !replaces
            } else if before
                .resource_kinds
                .contains(&crate::query::phrase::stem(w))
            {
                // "and for the functions on GCP?" after queues: a kind the
                // follow-up names replaces the old one.
                query.resource_kinds.is_empty()
            } else {
                true
            };
            if kept {
                add.push(w.clone());
            }
        }
        // Keep what was asked about the old subject only when the follow-up says
        // (almost) nothing of its own: "and google cloud sql?", "same for
        // alertmanager?", not "open a github issue with what it found".
        let own = aspect_words(query, &now_subject);
        if own.len() <= 2 || SAME_ASPECT.is_match(&q) {
            add.extend(carried_aspect(&before, &before_subject, vocab));
        }
        // Asked outright for the same thing, also the mechanism the lexicon read
        // in it: "the same on gcp" after "the azure invoice doubled" asks about
        // cost, a word the user never typed. Not for a bare "and gcp?": measured,
        // that blurred more follow-ups than it helped.
        if SAME_ASPECT.is_match(&q) {
            for w in &before.concepts {
                if platforms_of(w).is_empty() && !before_subject.contains(w) && !add.contains(w) {
                    add.push(w.clone());
                }
            }
        }
    }
    // What the previous answer was about, in the catalog's own words (the
    // lexicons know "azure", not that "web app" meant App Service), unless the
    // follow-up replaces the subject.
    if !new_subject
        && asks_nothing_of_its_own(query, &now_subject)
        && let Some(card) = prev.cards.first()
    {
        for w in card_subject(card, vocab) {
            if !add.contains(&w) {
                add.push(w);
            }
        }
    }
    let now_words: Vec<String> = query.words.clone();
    add.retain(|w| !now_words.contains(w));
    add.dedup();
    out.query = if add.is_empty() {
        question.to_string()
    } else {
        format!("{question} {}", add.join(" "))
    };
    out.subject = subject;
    out
}

/// The continuity rule: a rewrite of a follow-up must keep the previous topic, and
/// filters the user did not change stay.
pub fn keep_continuity(rw: &mut Rewrite, query: &Query, category: Category, ctx: &SessionContext) {
    let Some(prev) = ctx.last() else { return };
    if category != Category::FollowUp || rw.attribute.is_some() {
        return;
    }
    // The rules keep or swap the subject on purpose; a model's rewrite may just
    // have lost it.
    let topic_terms: Vec<String> = query_terms(&prev.rewritten)
        .into_iter()
        .filter(|t| t.len() > 3)
        .collect();
    let now_terms = query_terms(&rw.query);
    if rw.method == RewriteMethod::Llm
        && !topic_terms.is_empty()
        && !topic_terms.iter().any(|t| now_terms.contains(t))
    {
        rw.query = format!("{} {}", prev.rewritten, rw.query);
        rw.continuity.push(format!(
            "restored the previous topic \"{}\"",
            prev.rewritten
        ));
    }
    let mentions_platform = !query.platforms.named().is_empty();
    if rw.filters.platform.is_none() && prev.filters.platform.is_some() && !mentions_platform {
        rw.filters.platform = prev.filters.platform.clone();
        rw.continuity.push(format!(
            "kept the filter platform={}",
            prev.filters.platform.clone().unwrap_or_default()
        ));
    }
    if rw.filters.access.is_none() && prev.filters.access.is_some() {
        rw.filters.access = prev.filters.access;
        rw.continuity.push(format!(
            "kept the filter access={}",
            prev.filters.access.unwrap_or_default()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::PastTurn;

    fn ctx_with(rewritten: &str) -> SessionContext {
        let card = Card::new(
            app::api::catalog::BundleHeader {
                collection: "kube-ops".into(),
                slug: "k8s-pod-crashloop-triage".into(),
                display_name: "Kubernetes Pod Crashloop Triage".into(),
                ..Default::default()
            },
            None,
            Vec::new(),
        );
        let prev = PastTurn {
            rewritten: rewritten.into(),
            cards: vec![card],
            ..Default::default()
        };
        SessionContext {
            turns: vec![prev],
            ..Default::default()
        }
    }

    fn ctx() -> SessionContext {
        ctx_with("pods keep restarting in payments")
    }

    fn rules(q: &str, c: &SessionContext) -> Rewrite {
        let v = CorpusVocab::default();
        by_rules(&Query::parse(q, &v), Category::FollowUp, c, &v)
    }

    #[test]
    fn attribute_follow_ups_point_at_the_previous_bundle() {
        let rw = rules("what about its SLIs?", &ctx());
        assert_eq!(rw.attribute, Some(Attribute::Slis));
        assert_eq!(rw.subject.unwrap().slug, "k8s-pod-crashloop-triage");
        assert_eq!(rw.query, "slis of Kubernetes Pod Crashloop Triage");
        let rw = rules("does that one change anything?", &ctx());
        assert_eq!(rw.attribute, Some(Attribute::Access));
        // Asking for another bundle as well is a search, about the same subject.
        let rw = rules(
            "anything that can delete the stuck ones, and is that safe to run?",
            &ctx(),
        );
        assert!(rw.attribute.is_none());
        assert!(rw.query.contains("pods"), "{}", rw.query);
        let rw = rules("and then open a github issue with what it found", &ctx());
        assert!(rw.attribute.is_none());
        assert_eq!(
            rules("where is its source code?", &ctx()).attribute,
            Some(Attribute::Source)
        );
    }

    #[test]
    fn a_new_subject_keeps_the_aspect() {
        let rw = rules("anything similar for AKS?", &ctx());
        assert!(rw.attribute.is_none());
        for w in ["AKS", "pods", "restarting", "payments"] {
            assert!(rw.query.contains(w), "{w} in {}", rw.query);
        }
    }

    /// "The same thing" on another platform carries what the lexicon read in the
    /// earlier question (the mechanism), not only the words typed.
    #[test]
    fn the_same_thing_elsewhere_carries_the_mechanism() {
        let c = ctx_with("the monthly bill doubled on our azure subscription");
        let rw = rules("the same thing on gcp please", &c);
        assert!(rw.query.contains("cost"), "{}", rw.query);
        assert!(!rw.query.contains("azure"), "{}", rw.query);
    }

    /// Another service of the same cloud replaces the old subject, and the question
    /// asked about it stays.
    #[test]
    fn another_service_of_the_same_cloud_is_a_new_subject() {
        let c = ctx_with("can we cut what our aks node pools cost");
        let rw = rules("how about spending on the app service plans", &c);
        assert!(rw.query.contains("cost"), "{}", rw.query);
        for w in ["aks", "node", "pools"] {
            assert!(!rw.query.contains(w), "{w} in {}", rw.query);
        }
        // Named before, the service is no new subject.
        let c = ctx_with("our app service keeps returning 502s");
        let rw = rules("what about its cost?", &c);
        assert!(
            rw.query.contains("app service") || rw.attribute.is_some(),
            "{rw:?}"
        );
    }

    /// A service named beside a pronoun that points at the old subject ("the
    /// function app reading from it") is the new subject: the old one's kinds and
    /// what was asked about it stay behind (its cloud stays, the setting). A
    /// possessive ("its plan") names a part of the old subject.
    #[test]
    fn a_service_that_works_on_the_old_subject_is_a_new_subject() {
        let v = CorpusVocab {
            resource_stems: ["queue"].map(String::from).into(),
            ..Default::default()
        };
        let follow = |before: &str, q: &str| {
            by_rules(
                &Query::parse(q, &v),
                Category::FollowUp,
                &ctx_with(before),
                &v,
            )
            .query
        };
        let q = follow(
            "messages pile up in our sqs queue overnight",
            "is the lambda reading from it throwing errors?",
        );
        for w in ["queue", "messages", "overnight"] {
            assert!(!q.contains(w), "{w} in {q}");
        }
        // Where it is looked at is no other service.
        let q = follow(
            "messages pile up in our sqs queue overnight",
            "does that show up in cloudwatch?",
        );
        assert!(q.contains("queue"), "{q}");
        let q = follow(
            "our function app keeps timing out",
            "is its app service plan too small?",
        );
        assert!(q.contains("function"), "{q}");
    }

    /// A change of topic announced at the start replaces the subject and what was
    /// asked about it; mid-sentence it is part of the question.
    #[test]
    fn an_announced_change_of_topic_drops_the_old_subject() {
        let c = ctx_with("our payments cluster looks degraded");
        for q in [
            "unrelated: who is using up our disk space budget",
            "on a different note, any backups failing?",
        ] {
            let rw = rules(q, &c);
            for w in ["payments", "degraded"] {
                assert!(!rw.query.contains(w), "{w} in {}", rw.query);
            }
        }
        let rw = rules("could the latency be unrelated to the deploy?", &c);
        assert!(rw.query.contains("payments"), "{}", rw.query);
    }

    #[test]
    fn another_cloud_replaces_a_managed_cluster_and_a_named_kind_the_old_kind() {
        let c = ctx_with("our gke cluster says its control plane version is old");
        let rw = rules("anything similar for AKS?", &c);
        for w in ["cluster", "control", "plane", "version"] {
            assert!(rw.query.contains(w), "{w} in {}", rw.query);
        }
        assert!(!rw.query.contains("gke"), "{}", rw.query);
        // A bare "not" is the symptom; "not a" declines.
        let c = ctx_with("our aks nodes are not ready, not a full outage though");
        let rw = rules("what about gke?", &c);
        assert!(rw.query.contains("ready"), "{}", rw.query);
        assert!(!rw.query.contains("outage"), "{}", rw.query);
        // Kinds are the catalog's resource types.
        let v = CorpusVocab {
            resource_stems: ["queue", "function"].map(String::from).into(),
            ..Default::default()
        };
        let c = ctx_with("are messages stacking up in our sqs queues");
        let q = Query::parse("and for the functions on gcp?", &v);
        let rw = by_rules(&q, Category::FollowUp, &c, &v);
        assert!(!rw.query.contains("queues"), "{}", rw.query);
        assert!(rw.query.contains("messages"), "{}", rw.query);
    }

    #[test]
    fn a_new_aspect_keeps_the_subject() {
        let c = ctx_with("our aks cluster looks degraded, where do i start");
        let rw = rules("do its node pools cost too much?", &c);
        assert!(rw.query.contains("aks"), "{}", rw.query);
        assert!(!rw.query.contains("degraded"), "{}", rw.query);
    }

    /// The previous answer's first bundle names the subject in the catalog's own
    /// words; its common name words (platform, "health") are aspects.
    #[test]
    fn the_previous_answer_names_the_subject() {
        let none: Vec<String> = Vec::new();
        let names = [
            "Azure App Service Webapp Health",
            "Azure App Service Webapp Operations",
            "Azure VM Health",
            "Azure Storage Health",
            "Azure Key Vault Health",
            "Azure ACR Health",
        ];
        let bundles: Vec<crate::query::BundleFacts> = names
            .iter()
            .map(|n| crate::query::BundleFacts {
                display_name: n,
                slug: "s",
                platform: "azure",
                tags: &none,
                resource_types: &none,
                tasks: vec![],
            })
            .collect();
        let v = CorpusVocab::build(&bundles, &[], &[], Default::default(), None);
        let mut c = ctx_with("the azure web app for orders throws 500s");
        c.turns[0].cards[0].bundle.display_name = names[0].into();
        let rw = by_rules(
            &Query::parse("is there one that can restart it for me?", &v),
            Category::FollowUp,
            &c,
            &v,
        );
        assert!(rw.query.contains("webapp"), "{}", rw.query);
        assert!(!rw.query.contains("health"), "{}", rw.query);
        // A follow-up naming an aspect of its own is about that aspect: the
        // previous bundle's name words would pull it back to the top.
        let rw = by_rules(
            &Query::parse("and how much does it cost us each month?", &v),
            Category::FollowUp,
            &c,
            &v,
        );
        assert!(!rw.query.contains("webapp"), "{}", rw.query);
    }

    #[test]
    fn continuity_repairs_a_model_rewrite_that_lost_the_topic() {
        let mut c = ctx();
        c.turns[0].filters.platform = Some("aws".into());
        let mut rw = Rewrite {
            query: "what else".into(),
            method: RewriteMethod::Llm,
            ..Default::default()
        };
        let q = Query::parse("what else?", &CorpusVocab::default());
        keep_continuity(&mut rw, &q, Category::FollowUp, &c);
        assert!(rw.query.contains("pods keep restarting"));
        assert_eq!(rw.filters.platform.as_deref(), Some("aws"));
        assert_eq!(rw.continuity.len(), 2);
    }
}
