//! The platform a question names or implies. General cues come from the lexicon
//! ("amazon", "gke"); words the catalog only uses on one platform come from the
//! corpus. A managed Kubernetes name means both its cloud and Kubernetes; in a
//! follow-up the latest mention wins ("and on the aws side?"); "not on kube" and
//! "a plain vm" rule platforms out.

use super::lexicon::Lexicon;
use super::phrase::Phrase;
use super::vocab::{CorpusVocab, MAJOR_PLATFORMS};
use serde::{Deserialize, Serialize};

app::closed_set! {
    /// Where a question's platform came from: a name the platform lexicon knows
    /// ("gke", "amazon"), or words the catalog uses on one platform only.
    pub enum PlatformSource {
        Lexicon = "lexicon",
        Corpus = "corpus",
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlatformIntent {
    pub wanted: Vec<String>,
    pub unwanted: Vec<String>,
    /// Where `wanted` came from (none when it is empty).
    pub source: Option<PlatformSource>,
}

impl PlatformIntent {
    /// The platforms the question names itself: a corpus vote ("restarts" and
    /// "instances" are words one platform's bundles use) is a hint, not a subject.
    pub fn named(&self) -> &[String] {
        if self.source == Some(PlatformSource::Lexicon) {
            &self.wanted
        } else {
            &[]
        }
    }
}

const NEGATIONS: &[&str] = &["not", "no", "without", "outside", "non"];

/// Phrases saying "not on any cloud" (general English, not platform names).
fn off_cloud() -> &'static [Phrase] {
    static P: std::sync::LazyLock<Vec<Phrase>> = std::sync::LazyLock::new(|| {
        [
            "on prem",
            "on premise",
            "on premises",
            "bare metal",
            "self hosted",
            "plain vm",
        ]
        .iter()
        .map(|p| Phrase::new(p))
        .collect()
    });
    &P
}

pub fn detect(
    words: &[String],
    stems: &[String],
    lex: &Lexicon,
    vocab: &CorpusVocab,
) -> PlatformIntent {
    let mut intent = PlatformIntent::default();
    // (position, platform) of every cue, in order.
    let mut cues: Vec<(usize, String)> = Vec::new();
    let negated = |i: usize| {
        (i >= 1 && NEGATIONS.contains(&words[i - 1].as_str()))
            || (i >= 2
                && words[i - 2] == "not"
                && matches!(words[i - 1].as_str(), "in" | "on" | "a"))
    };
    for (cue, platform) in &lex.platform_cues {
        let mut from = 0;
        while from < stems.len() {
            let Some(i) = cue.find(&stems[from..]).map(|i| i + from) else {
                break;
            };
            let company_not_cloud = lex.companies.contains(&cue.text)
                && (words[i] != cue.text
                    || lex.vendor_products.iter().any(|p| p.starts(&stems[i..])));
            if company_not_cloud {
                // "googled", "google chat": a verb, or the company's other product.
            } else if negated(i) {
                intent.unwanted.push(platform.clone());
            } else {
                cues.push((i, platform.clone()));
            }
            from = i + 1;
        }
    }
    let mut managed: Vec<(usize, String)> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if let Some(cloud) = lex.managed_kubernetes.get(w)
            && !negated(i)
        {
            managed.push((i, cloud.clone()));
        }
    }
    if !cues.is_empty() || !managed.is_empty() {
        intent.source = Some(PlatformSource::Lexicon);
        // The latest cloud named wins; Kubernetes stays alongside a managed cluster.
        let last = cues.iter().chain(&managed).max_by_key(|(i, _)| *i).cloned();
        if let Some((pos, p)) = last {
            intent.wanted.push(p.clone());
            if managed.iter().any(|(i, _)| *i == pos) {
                intent.wanted.push("kubernetes".into());
            } else if p == "kubernetes"
                && let Some((_, c)) = cues
                    .iter()
                    .filter(|(i, p)| *p != "kubernetes" && pos.abs_diff(*i) <= 6)
                    .chain(&managed)
                    .max_by_key(|(i, _)| *i)
            {
                // "kubernetes on azure": the cloud named next to it counts too; a
                // managed cluster named anywhere ("the eks cluster … which k8s
                // version") is that cloud's Kubernetes, however far apart.
                intent.wanted.push(c.clone());
            }
        }
    } else {
        // No cue from the lexicon: words the catalog uses on one platform only.
        let mut votes: Vec<(String, usize)> = Vec::new();
        for s in stems {
            if let Some(p) = vocab.platform_of.get(s) {
                match votes.iter_mut().find(|(q, _)| q == p) {
                    Some(v) => v.1 += 1,
                    None => votes.push((p.clone(), 1)),
                }
            }
        }
        votes.sort_by_key(|v| std::cmp::Reverse(v.1));
        if let Some((p, n)) = votes.first()
            && votes.get(1).is_none_or(|(_, m)| m < n)
        {
            intent.wanted.push(p.clone());
            intent.source = Some(PlatformSource::Corpus);
        }
    }
    if off_cloud().iter().any(|p| p.matches(stems)) {
        for p in ["aws", "azure", "gcp"] {
            if !intent.wanted.iter().any(|w| w == p) {
                intent.unwanted.push(p.to_string());
            }
        }
    }
    intent.unwanted.retain(|u| !intent.wanted.contains(u));
    intent.unwanted.sort();
    intent.unwanted.dedup();
    intent.wanted.dedup();
    intent
}

/// +1 on a wanted platform, −1 on an unwanted or another major one, else 0.
pub fn prior(intent: &PlatformIntent, platform: &str) -> f32 {
    if intent.wanted.iter().any(|w| w == platform) {
        return 1.0;
    }
    let contradicted = intent.unwanted.iter().any(|u| u == platform)
        || (!intent.wanted.is_empty()
            && MAJOR_PLATFORMS.contains(&platform)
            && intent
                .wanted
                .iter()
                .all(|w| MAJOR_PLATFORMS.contains(&w.as_str())));
    if contradicted { -1.0 } else { 0.0 }
}
