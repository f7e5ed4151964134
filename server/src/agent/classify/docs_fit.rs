//! After the search: a question no rule placed and no example vote reached, which
//! no bundle fits while a documentation section fits it very well, is answered
//! from the docs. Where to report a flaw in some bundle, or whether a bundle may
//! carry its command inline, are asked in words no rule knows, and a list of
//! bundles answers neither; the contributing guide and the authoring rules do.
//!
//! A bundle's README section counts too: which variables switch on a generic
//! bundle's JSON issue mode is answered by one. (It also takes a question about a
//! keyword that a generic bundle's README explains better than the keyword's
//! callers would.)
//!
//! Only the default: a rule or a vote that placed the question knows more than two
//! scores. And not when the search found nothing at all fits, where the answer
//! offers to request a bundle ("upgrade our EKS control plane for me" lies close to
//! upgrade notes in the docs, but asks for work, not for reading).

use super::{Category, Classification, ClassifyMethod};
use crate::search::{BundleHit, DocHit};

/// A section scoring this much is what the question asks about (MiniLM's
/// calibrated section scores). On the public tuning halves, of questions left to
/// the default, 0.85 with no bundle at 0.35 took five documentation questions and
/// two keyword questions (answered by a generic bundle's README), and no general
/// one; 0.75 also took a general question that a bundle answered at rank 1.
const DOCS_FIT_MIN: f32 = 0.85;
/// No bundle scoring this much: when one does, the question may well be about
/// running it. At 0.5, two sample-registry problems whose right bundle came first
/// at 0.41 and 0.48 went to the docs; the public tuning halves' documentation
/// questions had no bundle above 0.27.
const BUNDLE_MAX: f32 = 0.35;

/// Documentation, when `c` is the default and the docs fit where no bundle does
/// (`no_match`: the search found that nothing fits).
pub fn answered_by_docs(
    c: &Classification,
    bundles: &[BundleHit],
    docs: &[DocHit],
    no_match: bool,
) -> Option<Classification> {
    let docs_fit = docs.first().is_some_and(|d| d.score >= DOCS_FIT_MIN);
    let bundle_fits = bundles.first().is_some_and(|b| b.score >= BUNDLE_MAX);
    (c.is_default() && !no_match && docs_fit && !bundle_fits).then(|| Classification {
        category: Category::Documentation,
        method: ClassifyMethod::Rules,
        reason: "the docs fit it and no bundle does".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Found(Vec<BundleHit>, Vec<DocHit>, bool);

    fn found(doc: f32, bundle: Option<f32>, no_match: bool) -> Found {
        let docs = vec![DocHit {
            score: doc,
            ..Default::default()
        }];
        let bundles = bundle
            .map(|score| BundleHit {
                score,
                ..Default::default()
            })
            .into_iter()
            .collect();
        Found(bundles, docs, no_match)
    }

    fn default() -> Classification {
        Classification {
            category: Category::General,
            method: ClassifyMethod::Rules,
            reason: super::super::DEFAULT_REASON.into(),
        }
    }

    #[test]
    fn the_docs_answer_what_nothing_placed_and_no_bundle_fits() {
        assert!(default().is_default());
        let to_docs = |c: &Classification, f: &Found| {
            answered_by_docs(c, &f.0, &f.1, f.2).map(|c| c.category)
                == Some(Category::Documentation)
        };
        assert!(to_docs(&default(), &found(0.9, Some(0.3), false)));
        assert!(!to_docs(&default(), &found(0.9, Some(0.45), false)));
        assert!(to_docs(&default(), &found(0.9, None, false)));
        // A bundle fits: the question is about running it.
        assert!(!to_docs(&default(), &found(0.95, Some(0.6), false)));
        // The docs fit only loosely.
        assert!(!to_docs(&default(), &found(0.8, Some(0.1), false)));
        // Nothing fits at all: the answer offers to request a bundle.
        assert!(!to_docs(&default(), &found(0.95, Some(0.1), true)));
        // A rule or a vote placed it.
        let voted = Classification {
            method: ClassifyMethod::Examples,
            ..default()
        };
        assert!(!to_docs(&voted, &found(0.95, Some(0.1), false)));
        let ruled = Classification {
            reason: "describes a problem".into(),
            ..default()
        };
        assert!(!to_docs(&ruled, &found(0.95, Some(0.1), false)));
    }
}
