//! After the search: a question no rule placed and no example vote reached, which
//! no bundle fits while a documentation section fits it very well, is answered
//! from the docs. "Found a bug in a bundle, how do I file it?" or "can I hardcode
//! the command in a generic bundle's robot file?" use no words the rules know, and
//! a list of bundles answers neither; the contributing guide and the authoring
//! rules do.
//!
//! Only the default: a rule or a vote that placed the question knows more than two
//! scores. And not when the search found nothing at all fits, where the answer
//! offers to request a bundle ("upgrade our EKS control plane for me" lies close to
//! upgrade notes in the docs, but asks for work, not for reading).

use super::{Classification, ClassifyMethod};
use crate::agent::classify::Category;
use crate::agent::retrieve::Retrieval;

/// A section scoring this much is what the question asks about. On the tuning
/// halves, of questions left to the default, 0.85 and bundles under 0.5 took five
/// documentation questions and two keyword questions (answered by a generic
/// bundle's README), and no general one; 0.75 also took a general question that a
/// bundle answered at rank 1.
const SECTION_MIN: f32 = 0.85;
/// No bundle scoring this much: when one does, the question is about running it.
const BUNDLE_MAX: f32 = 0.5;

/// Documentation, when `c` is the default and the docs fit where no bundle does.
pub fn answered_by_docs(c: &Classification, r: &Retrieval) -> Option<Classification> {
    let docs_fit = r.docs.first().is_some_and(|d| d.score >= SECTION_MIN);
    let bundle_fits = r.bundles.first().is_some_and(|b| b.score >= BUNDLE_MAX);
    (c.is_default() && !r.no_match && docs_fit && !bundle_fits).then(|| Classification {
        category: Category::Documentation,
        method: ClassifyMethod::Rules,
        reason: "the docs fit it and no bundle does".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{BundleHit, DocHit};

    fn found(doc: f32, bundle: Option<f32>, no_match: bool) -> Retrieval {
        Retrieval {
            docs: vec![DocHit {
                score: doc,
                ..Default::default()
            }],
            bundles: bundle
                .map(|score| BundleHit {
                    score,
                    ..Default::default()
                })
                .into_iter()
                .collect(),
            no_match,
            ..Default::default()
        }
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
        let to_docs = |c: &Classification, r: &Retrieval| {
            answered_by_docs(c, r).map(|c| c.category) == Some(Category::Documentation)
        };
        assert!(to_docs(&default(), &found(0.9, Some(0.3), false)));
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
