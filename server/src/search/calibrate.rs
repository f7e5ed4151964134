//! Turning fused signals into a relevance users can read.
//!
//! A bundle's score is P(this result is a right answer | its fused signal and the
//! evidence about coverage): a logistic model fitted on the top result of every
//! question in the pooled *tuning* halves of the sample and public golden sets
//! (207 questions; no-match questions count their top result as wrong). Evidence
//! lowers it: a technology the catalog never mentions, a name-like word it never
//! uses, a requested change none of the bundle's tasks performs; a clear lead over
//! the runner-up raises it. Fitted, not chosen (ECE 0.05 on the pooled tuning
//! halves). It is never derived from rank position.
//!
//! `no_match_below` is where "the registry has nothing for this" starts, chosen on
//! the same tuning halves. The held-out halves were not used; their reliability
//! tables are in the README.
//!
//! Each embedder family has its own fit, because cosines live on different scales.
//! Other embedders (OpenAI-compatible) use the MiniLM model until measured.

/// Evidence that the catalog may not cover the question.
#[derive(Clone, Copy, Debug, Default)]
pub struct Evidence {
    pub uncovered: bool,
    pub unknown: bool,
    pub action_missing: bool,
    /// This result's fused signal minus the best other result's.
    pub margin: f32,
}

struct Model {
    fused: f32,
    uncovered: f32,
    unknown: f32,
    action_missing: f32,
    margin: f32,
    intercept: f32,
}

fn model(embedder_id: &str) -> Model {
    if embedder_id.starts_with("hash") {
        Model {
            fused: 7.37,
            uncovered: -2.28,
            unknown: 0.0,
            action_missing: -2.83,
            margin: 6.05,
            intercept: -3.32,
        }
    } else {
        Model {
            fused: 2.86,
            uncovered: -2.19,
            unknown: -0.23,
            action_missing: -3.43,
            margin: 6.25,
            intercept: -1.59,
        }
    }
}

/// Below this score the best result means "nothing fits". The weightless hash
/// embedder's scores are spread lower, so its cut sits lower (both chosen on the
/// tuning halves: MiniLM rejects 2.2 % of answerable questions and catches 85 % of
/// no-match ones; hash 1.7 % and 85 %).
pub fn no_match_below(embedder_id: &str) -> f32 {
    if embedder_id.starts_with("hash") {
        0.10
    } else {
        0.25
    }
}

/// "The registry has nothing for this": the best result is weak, or the question
/// asks for a change (purge, sync, restore) and the best result is a read-only
/// bundle none of whose tasks performs it. Such a bundle can only look at the
/// problem, so offering it as the answer would be wrong however close its words
/// are; the answer still lists it as the nearest diagnostic.
///
/// When the question is about a product the catalog never mentions ("rabbitmq
/// consumers", "cassandra ring"), the best result is at most a neighbour: it
/// answers only when it is more likely right than wrong. (On the tuning halves
/// the no-match questions of this kind topped out at 0.27 and the answerable
/// ones were either under 0.2 or at 0.66.)
pub fn nothing_fits(top: Option<&super::BundleHit>, embedder_id: &str) -> bool {
    top.is_none_or(|b| {
        let fired = |f: &str| b.signals.fired.iter().any(|x| x == f);
        b.score < no_match_below(embedder_id)
            || (b.access == super::Access::ReadOnly && fired("action-missing"))
            || (fired(UNCOVERED_SUBJECT) && b.score < UNCOVERED_SUBJECT_BELOW)
            || fired(OTHER_PRODUCT)
    })
}

/// The signal a result carries when the question's subject is uncovered and the
/// bundle is named for another product: however close its words ("bounce rate"
/// for a mail service), it checks a different system than the user runs.
pub const OTHER_PRODUCT: &str = "other-product";

/// The signal a result carries when the question's subject is uncovered.
pub const UNCOVERED_SUBJECT: &str = "uncovered-subject";

/// Even odds: below this, a result for an uncovered subject is not an answer.
const UNCOVERED_SUBJECT_BELOW: f32 = 0.5;

pub fn calibrated(embedder_id: &str, fused: f32, e: &Evidence) -> f32 {
    let m = model(embedder_id);
    let z = m.fused * fused
        + m.uncovered * e.uncovered as u8 as f32
        + m.unknown * e.unknown as u8 as f32
        + m.action_missing * e.action_missing as u8 as f32
        + m.margin * e.margin
        + m.intercept;
    1.0 / (1.0 + (-z).exp())
}

/// Doc sections and keywords keep the curve their thresholds were chosen on (the
/// first fit, on the sample set's bundle results): they have no golden labels of
/// their own to refit on.
pub fn calibrated_section(embedder_id: &str, score: f32) -> f32 {
    let (a, b) = if embedder_id.starts_with("hash") {
        (8.57, -2.50)
    } else {
        (7.63, -3.37)
    };
    1.0 / (1.0 + (-(a * score + b)).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{BundleHit, Signals};

    fn hit(score: f32, access: &str, fired: &[&str]) -> BundleHit {
        let access = access.parse().expect("an access value");
        BundleHit {
            score,
            bundle: app::api::catalog::BundleHeader {
                access,
                ..Default::default()
            },
            signals: Signals {
                fired: fired.iter().map(|f| f.to_string()).collect(),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    /// A read-only bundle cannot perform the change asked for, however close its
    /// words; a read-write one lacking it is judged on its score.
    #[test]
    fn nothing_fits_when_the_best_only_looks() {
        let id = "minilm-l6-v2";
        assert!(nothing_fits(None, id));
        assert!(nothing_fits(Some(&hit(0.1, "read-write", &[])), id));
        assert!(!nothing_fits(Some(&hit(0.8, "read-only", &["vector"])), id));
        assert!(nothing_fits(
            Some(&hit(0.8, "read-only", &["vector", "action-missing"])),
            id
        ));
        assert!(!nothing_fits(
            Some(&hit(0.8, "read-write", &["action-missing"])),
            id
        ));
    }

    /// A product the catalog never mentions: only a result more likely right than
    /// wrong answers.
    #[test]
    fn an_uncovered_subject_needs_even_odds() {
        let id = "minilm-l6-v2";
        assert!(!nothing_fits(Some(&hit(0.3, "read-only", &["vector"])), id));
        assert!(nothing_fits(
            Some(&hit(0.3, "read-only", &["vector", UNCOVERED_SUBJECT])),
            id
        ));
        assert!(!nothing_fits(
            Some(&hit(0.66, "read-only", &["vector", UNCOVERED_SUBJECT])),
            id
        ));
        // Another product's bundle is no answer, however likely it looks.
        assert!(nothing_fits(
            Some(&hit(
                0.9,
                "read-only",
                &["vector", UNCOVERED_SUBJECT, OTHER_PRODUCT]
            )),
            id
        ));
    }
}
