//! After the search: a message nothing placed, which names nothing about anyone's
//! systems and for which the best bundle is very unlikely to be right, is small
//! talk or off topic ("nice one!", "you're not very smart", "what's the capital of
//! peru"): the assistant says what it is for, instead of showing bundles that
//! share a word with it and offering to request a bundle for it.
//!
//! Only the default: a rule or a vote that placed it knows more. And only when it
//! names nothing: a need the registry lacks ("post the digest to our mattermost",
//! "move our rds instances to graviton") names a product, a platform or a change,
//! and gets the offer to request a bundle.

use super::{Category, Classification, ClassifyMethod};
use crate::query::Query;
use crate::search::BundleHit;

/// The best bundle's calibrated score (the chance it is a right answer) under
/// which it is no answer. On the tuning halves, of questions left to the default,
/// under 0.12 were messages to the assistant or needs the registry lacks (which
/// name something), and no question a bundle answered.
const BUNDLE_MAX: f32 = 0.12;

/// Meta, when `c` is the default, `q` names nothing and no bundle is likely right.
pub fn small_talk(c: &Classification, q: &Query, bundles: &[BundleHit]) -> Option<Classification> {
    let best = bundles.first().map_or(0.0, |b| b.score);
    (c.is_default() && names_nothing(q) && best < BUNDLE_MAX).then(|| Classification {
        category: Category::Meta,
        method: ClassifyMethod::Rules,
        reason: "names nothing and no bundle fits".into(),
    })
}

/// No platform, product, technology, resource kind, bundle, setting, change or
/// mechanism the question understanding knows, and no name-like word it does not.
fn names_nothing(q: &Query) -> bool {
    q.platforms.named().is_empty()
        && q.technologies.is_empty()
        && q.uncovered.is_empty()
        && q.qualified.is_empty()
        && q.unknown.is_empty()
        && q.resource_kinds.is_empty()
        && q.names.is_empty()
        && q.settings.is_empty()
        && q.actions.is_empty()
        && q.concepts.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(score: f32) -> Vec<BundleHit> {
        vec![BundleHit {
            score,
            ..Default::default()
        }]
    }

    fn default() -> Classification {
        Classification {
            category: Category::General,
            method: ClassifyMethod::Rules,
            reason: super::super::DEFAULT_REASON.into(),
        }
    }

    fn plain() -> Query {
        Query {
            text: "nice one".into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_message_naming_nothing_that_nothing_fits_is_small_talk() {
        let meta = |c: &Classification, q: &Query, b: &[BundleHit]| {
            small_talk(c, q, b).map(|c| c.category) == Some(Category::Meta)
        };
        assert!(meta(&default(), &plain(), &best(0.07)));
        assert!(meta(&default(), &plain(), &[]));
        // A bundle may well be right.
        assert!(!meta(&default(), &plain(), &best(0.3)));
        // It names a product the registry lacks: offer a request instead.
        let mattermost = Query {
            uncovered: vec!["mattermost".into()],
            ..plain()
        };
        assert!(!meta(&default(), &mattermost, &best(0.05)));
        let restore = Query {
            actions: vec!["restore".into()],
            ..plain()
        };
        assert!(!meta(&default(), &restore, &best(0.05)));
        // A rule placed it.
        let ruled = Classification {
            reason: "describes a problem".into(),
            ..default()
        };
        assert!(!meta(&ruled, &plain(), &best(0.05)));
    }
}
