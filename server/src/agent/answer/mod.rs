//! Writing the answer: what every answer needs (grounding, cards, citations, source
//! tag, confidence) and two writers, offline (rules) and LLM.

pub mod cite;
pub mod llm;
pub mod offline;
pub mod suggest;

use super::classify::Category;
use super::plan::Route;
use super::retrieve::Retrieval;
use super::rewrite::{Attribute, Rewrite};
use crate::ingest::BundleRecord;
use crate::search::{BundleHit, Snapshot};
use app::api::{AnswerSource, Card, Citation, CitationKind, RequestDraft};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Everything an answer may draw on.
pub struct Grounding {
    pub question: String,
    /// The question as read (`query::Query`).
    pub query: crate::query::Query,
    /// The words answers use for the registry's parts.
    pub words: crate::query::Words,
    /// The indexed collections (catalog answers).
    pub collections: Vec<app::api::catalog::CollectionStatus>,
    pub category: Category,
    /// The category came from the nearest-example vote, not a rule: a less
    /// certain call, so a documentation answer also shows the bundle that fits
    /// (an LLM's classification leaves it false).
    pub category_guessed: bool,
    pub route: Route,
    pub rewrite: Rewrite,
    pub retrieval: Retrieval,
    /// Full records of the bundles that may be recommended (and the subject).
    pub records: HashMap<String, Arc<BundleRecord>>,
    /// Bundles that call each keyword in the results (keyword id → users), for a
    /// keyword question the ones fitting it best first.
    pub keyword_users: HashMap<String, Vec<crate::catalog::KeywordUse>>,
    /// The best documentation section's markdown (quoted by documentation answers).
    pub top_doc_markdown: Option<String>,
    /// The keyword library the question names, listed in full.
    pub library: Option<crate::agent::library::LibraryListing>,
    pub snapshot: Arc<Snapshot>,
    /// Model name when an LLM is configured (for "what are you" answers).
    pub llm_model: Option<String>,
}

impl Grounding {
    /// The bundles an answer may cite: retrieved this turn, the follow-up's
    /// subject, the users of the keywords and library shown, and what tools read.
    pub fn citable(&self, read: &[String]) -> Vec<String> {
        let mut keys: Vec<String> = self
            .retrieval
            .bundles
            .iter()
            .map(|b| b.key.clone())
            .collect();
        keys.extend(self.rewrite.subject.iter().map(|s| s.key.clone()));
        keys.extend(self.records.keys().cloned());
        keys.extend(self.keyword_users.values().flatten().map(|u| u.key.clone()));
        if let Some(l) = &self.library {
            keys.extend(l.users.iter().map(|(k, _)| k.clone()));
        }
        keys.extend(read.iter().cloned());
        keys
    }

    pub fn hit(&self, key: &str) -> Option<&BundleHit> {
        self.retrieval.bundles.iter().find(|b| b.key == key)
    }

    /// The documentation section worth a line under an answer about what to run
    /// or about a keyword: the best one at 0.5 or more, not a section of a bundle's
    /// README (those are named by [`Grounding::readme_sections`], when their
    /// headings say what is asked).
    pub fn further_reading(&self) -> Option<&crate::search::DocHit> {
        self.retrieval
            .docs
            .iter()
            .find(|d| !d.readme)
            .filter(|d| d.score >= 0.5)
    }

    /// The sections of the answer's top bundle's README whose headings use the
    /// question's words, at most two, as (label, hit).
    ///
    /// "jenkins builds keep failing, can I try the check locally first?" is
    /// answered by the bundle *and* its README's *Trying it locally*. Such
    /// questions are meant for the documentation route, but they read like
    /// questions about what to run: 11 of the 62 documentation questions on the
    /// tuning halves reached the bundle answer instead. Only when the top bundle is
    /// the clear subject (`README_SUBJECT_MIN`); every section of its README then
    /// scores high, so the heading decides: one that says what the question asks
    /// about beyond the bundle's own name is worth a line, a *TODO* or
    /// *Requirements* beside "pods keep restarting" is not.
    pub fn readme_sections(&self) -> Vec<(String, &crate::search::DocHit)> {
        use crate::query::phrase::{stem, stems, words};
        let Some(top) = self
            .retrieval
            .bundles
            .first()
            .filter(|b| b.score >= crate::search::README_SUBJECT_MIN)
        else {
            return Vec::new();
        };
        // Words naming the bundle itself ("secrets" beside Azure Key Vault Secret
        // Expiry's *Secrets* section) say what it is about, not what is asked.
        let named: HashSet<String> = stems(&words(&format!("{} {}", top.display_name, top.slug)))
            .into_iter()
            .collect();
        let asked: HashSet<String> = self
            .query
            .words
            .iter()
            .filter(|w| !crate::index::text::is_stopword(w))
            .map(|w| stem(w))
            .filter(|s| !named.contains(s))
            .collect();
        let heading = |d: &crate::search::DocHit| {
            d.heading
                .as_deref()
                .unwrap_or(&d.title)
                .trim_end_matches(':')
                .to_string()
        };
        // The sections using most of the question's words first.
        let mut fits: Vec<(usize, &crate::search::DocHit)> = self
            .retrieval
            .docs
            .iter()
            .filter(|d| d.readme && d.score >= 0.5 && d.is_readme_of(&top.bundle))
            .map(|d| {
                let used: HashSet<String> = stems(&words(&heading(d))).into_iter().collect();
                (used.iter().filter(|s| asked.contains(*s)).count(), d)
            })
            .filter(|(n, _)| *n > 0)
            .collect();
        fits.sort_by_key(|f| std::cmp::Reverse(f.0));
        fits.truncate(2);
        // A heading a README repeats (*Usage Example* under every task) is labelled
        // with its parent.
        fits.iter()
            .map(|(_, d)| {
                let h = heading(d);
                let repeated = fits.iter().filter(|(_, o)| heading(o) == h).count() > 1
                    || self
                        .retrieval
                        .docs
                        .iter()
                        .filter(|o| o.readme && heading(o) == h)
                        .count()
                        > 1;
                let label = match d.trail.last().filter(|_| repeated) {
                    Some(parent) => format!("{} › {h}", parent.trim_end_matches(':')),
                    None => h,
                };
                (label, *d)
            })
            .collect()
    }

    pub fn attribute(&self) -> Option<(Attribute, &BundleRecord)> {
        let a = self.rewrite.attribute?;
        let s = self.rewrite.subject.as_ref()?;
        Some((a, self.records.get(&s.key)?.as_ref()))
    }

    /// A card for a bundle: from this turn's hit when there is one, else from the
    /// subject card the previous turn showed, else from the index, unranked. A
    /// keyword question's bundles are shown because they call the keyword, not
    /// ranked as answers: their search score would say how well they fit the words
    /// of a question about a keyword, so they are unranked too.
    pub fn card(&self, key: &str) -> Option<Card> {
        let a_caller = self.category == Category::KeywordLibrary
            && (self.keyword_users.values().flatten().any(|u| u.key == key)
                || self
                    .library
                    .as_ref()
                    .is_some_and(|l| l.users.iter().any(|(k, _)| k == key)));
        if let Some(h) = self.hit(key).filter(|_| !a_caller) {
            return Some(card_from_hit(h));
        }
        if let Some(s) = self.rewrite.subject.as_ref().filter(|s| s.key == key) {
            return Some(s.clone());
        }
        let b = &self.snapshot.bundles[*self.snapshot.bundle_by_key.get(key)? as usize];
        Some(Card::new(b.header.clone(), None, Vec::new()))
    }
}

pub fn card_from_hit(h: &BundleHit) -> Card {
    Card::new(
        h.bundle.clone(),
        Some(h.score),
        h.matched.iter().map(|m| m.name.clone()).collect(),
    )
}

/// What a writer produced.
#[derive(Clone, Debug, Default)]
pub struct Written {
    pub text: String,
    pub request: Option<RequestDraft>,
}

/// The answer after validation: what is streamed, shown and saved.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub text: String,
    pub cards: Vec<Card>,
    pub citations: Vec<Citation>,
    pub dropped: Vec<String>,
    pub source: AnswerSource,
    pub confidence: f32,
    pub no_match: bool,
    pub request: Option<RequestDraft>,
    /// Next questions offered under the answer (see `suggest`).
    pub suggestions: Vec<String>,
}

/// Validates citations, picks cards (only cited bundles), the source tag and the
/// confidence.
/// `read`: bundles the model's tools opened this turn (they may be cited too).
pub fn finish(g: &Grounding, written: Written, read: &[String]) -> Outcome {
    let resolver = cite::Resolver::new(&g.snapshot).only_bundles(g.citable(read));
    let (citations, text, dropped) = resolver.validate(&written.text);
    let cards: Vec<Card> = citations
        .iter()
        .filter(|c| c.kind == CitationKind::Bundle)
        .filter_map(|c| g.card(c.id.trim_start_matches("bundle:")))
        .collect();
    let source = source_tag(&citations);
    // Answered from the docs or a keyword library is not "no match", even when no
    // bundle fits.
    let answered_otherwise = citations.iter().any(|c| c.kind != CitationKind::Bundle);
    let no_match = g.retrieval.no_match
        && g.category != Category::Meta
        && g.rewrite.attribute.is_none()
        && !answered_otherwise;
    let suggestions = if no_match {
        Vec::new()
    } else {
        suggest::next_questions(&g.snapshot, &cards, g.words)
    };
    Outcome {
        confidence: confidence(g, &citations, &cards, no_match),
        suggestions,
        text,
        cards,
        citations,
        dropped,
        source,
        no_match,
        request: written.request,
    }
}

/// One kind of source cited, several (`Mixed`)
/// or `system` (nothing cited: meta answers and plain no-match).
pub fn source_tag(citations: &[Citation]) -> AnswerSource {
    let kinds: std::collections::BTreeSet<&str> =
        citations.iter().map(|c| c.kind.as_str()).collect();
    let one = |k: CitationKind| kinds.len() == 1 && kinds.contains(k.as_str());
    if kinds.is_empty() {
        AnswerSource::System
    } else if one(CitationKind::Bundle) {
        AnswerSource::Codebundles
    } else if one(CitationKind::Doc) {
        AnswerSource::Documentation
    } else if one(CitationKind::Kw) {
        AnswerSource::Libraries
    } else {
        AnswerSource::Mixed
    }
}

/// 0–1: the best relevance of what the answer cites (for a bundle, the calibrated
/// chance that it is right; more related cards beside it do not make it less so;
/// doc and keyword scores keep their own curve), times how much of what it relies
/// on it cites. A no-match answer's confidence is the (low) best relevance. (Turns
/// stored before this took the mean of the cited relevances.)
fn confidence(g: &Grounding, citations: &[Citation], cards: &[Card], no_match: bool) -> f32 {
    if g.category == Category::Meta {
        return 1.0;
    }
    if g.rewrite.attribute.is_some() && !cards.is_empty() {
        return 0.95;
    }
    let best = g.retrieval.bundles.first().map_or(0.0, |b| b.score);
    if no_match {
        return best.min(0.4);
    }
    let mut scores: Vec<f32> = cards.iter().filter_map(|c| c.relevance).collect();
    scores.extend(
        citations
            .iter()
            .filter(|c| c.kind == CitationKind::Doc)
            .filter_map(|c| {
                g.retrieval
                    .docs
                    .iter()
                    .find(|d| format!("doc:{}", d.id) == c.id)
                    // A README section scores high because its text opens with its
                    // bundle's name: it says no more than the bundle's own card.
                    .filter(|d| !d.readme)
                    .map(|d| d.score)
            }),
    );
    scores.extend(
        citations
            .iter()
            .filter(|c| c.kind == CitationKind::Kw)
            .filter_map(|c| {
                g.retrieval
                    .keywords
                    .iter()
                    .find(|k| format!("kw:{}", k.id) == c.id)
                    .map(|k| k.score)
            }),
    );
    if scores.is_empty() {
        return 0.2;
    }
    let best = scores.iter().copied().fold(0.0f32, f32::max);
    let coverage = (citations.len() as f32 / 2.0).min(1.0);
    (best * (0.8 + 0.2 * coverage)).clamp(0.0, 1.0)
}
