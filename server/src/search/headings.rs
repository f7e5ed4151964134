//! A section whose heading names what the question asks about ("Secrets", "API
//! Key Requirements") is the one to quote. Within one README every section shares
//! the bundle's words, so the vectors and BM25 score them nearly alike; the
//! heading is the field that tells them apart, as a field boost does in BM25F.
//! The bonus orders sections (a README's and the collections' docs alike); it is
//! not added to the score shown, which the calibration and the quoting and
//! routing thresholds read.

use crate::query::phrase::{stems, words};
use std::collections::HashSet;

/// Added to a section's raw score, for ordering only, per question word its
/// heading names (at most `MAX_WORDS` of them): enough to reorder sections that
/// score nearly alike, not to lift an unrelated section over a clearly better one.
pub const PER_WORD: f32 = 0.05;
const MAX_WORDS: usize = 2;

/// The question's content stems that can pick a heading. The words naming the
/// subject bundle itself ("vercel", "check") say which README, not which of its
/// sections, so they are left out.
pub fn asked_stems(terms: &[String], identity: &str) -> HashSet<String> {
    let own: HashSet<String> = stems(&words(identity)).into_iter().collect();
    stems(terms)
        .into_iter()
        .filter(|s| s.len() > 2 && !own.contains(s))
        .collect()
}

/// The bonus for a heading given the question's stems.
pub fn bonus(asked: &HashSet<String>, heading: &str) -> f32 {
    let named: HashSet<String> = stems(&words(heading)).into_iter().collect();
    PER_WORD * named.intersection(asked).count().min(MAX_WORDS) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_heading_naming_the_asked_words_gets_the_bonus() {
        let asked = asked_stems(
            &terms(&["secret", "vercel", "check", "need"]),
            "vercel-project-health Vercel Project Health",
        );
        assert!(bonus(&asked, "Secrets") > 0.0);
        // The bundle's own name is in every section's context: no bonus.
        assert_eq!(bonus(&asked, "Vercel Project Domains"), 0.0);
        assert_eq!(bonus(&asked, "Overview"), 0.0);
    }

    #[test]
    fn the_bonus_is_capped() {
        let asked = asked_stems(&terms(&["api", "key", "role", "requirements"]), "");
        assert_eq!(bonus(&asked, "Secrets"), 0.0);
        let b = bonus(&asked, "API Key Role Requirements");
        assert!((b - PER_WORD * 2.0).abs() < 1e-6, "{b}");
    }
}
