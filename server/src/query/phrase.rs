//! Words, stems and phrases. Lexicon entries match whole words and whole phrases,
//! compared by their stems, so "restarting" meets "restart" while "weeks" never
//! meets "eks" and "room" never meets "oom" (the substring matching this replaced).

use rust_stemmers::{Algorithm, Stemmer};
use std::sync::LazyLock;

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// Lower-case word tokens (letters and digits; `k8s` stays whole).
pub fn words(text: &str) -> Vec<String> {
    crate::index::text::tokens(text)
}

/// The English (Snowball) stem of one lower-case word, except that a word is
/// never cut down to an acronym it is not a form of: "acme" stays "acme" rather
/// than meeting "acm" (AWS Certificate Manager), while "apis", "vms" and "running"
/// still meet "api", "vm" and "run".
pub fn stem(word: &str) -> String {
    let s = snowball(word);
    match word.strip_prefix(s.as_str()) {
        Some(rest) if s.len() <= 3 && !rest.is_empty() && !is_inflection(rest, &s) => {
            word.to_string()
        }
        _ => s,
    }
}

/// The plain Snowball stem, as a Porter-stemming index (SQLite FTS5) conflates
/// words.
pub fn snowball(word: &str) -> String {
    STEMMER.stem(word).into_owned()
}

/// `suffix` makes an inflected form of `word` ("s", "es", "ed", "ing", "er"; with
/// the last letter doubled, "running").
pub fn is_inflection(suffix: &str, word: &str) -> bool {
    const ENDINGS: &[&str] = &["s", "es", "ed", "d", "ing", "er", "ers", "ies", "ied"];
    let doubled = word
        .chars()
        .last()
        .and_then(|c| suffix.strip_prefix(c))
        .is_some_and(|rest| ["ed", "ing", "er", "ers"].contains(&rest));
    ENDINGS.contains(&suffix) || doubled
}

pub fn stems(words: &[String]) -> Vec<String> {
    words.iter().map(|w| stem(w)).collect()
}

/// A lexicon phrase: its text and the stems of its words.
#[derive(Clone, Debug)]
pub struct Phrase {
    pub text: String,
    stems: Vec<String>,
}

impl Phrase {
    pub fn new(text: &str) -> Phrase {
        Phrase {
            text: text.trim().to_lowercase(),
            stems: stems(&words(text)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.stems.is_empty()
    }

    pub fn len(&self) -> usize {
        self.stems.len()
    }

    /// Where the phrase starts in `stems` (the question's), matched word for word.
    pub fn find(&self, stems: &[String]) -> Option<usize> {
        let n = self.stems.len();
        if n == 0 || n > stems.len() {
            return None;
        }
        (0..=stems.len() - n).find(|&i| stems[i..i + n] == self.stems[..])
    }

    /// Whether `stems` begins with the phrase.
    pub fn starts(&self, stems: &[String]) -> bool {
        !self.stems.is_empty() && stems.starts_with(&self.stems)
    }

    pub fn matches(&self, stems: &[String]) -> bool {
        self.find(stems).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> Vec<String> {
        stems(&words(text))
    }

    #[test]
    fn whole_words_and_phrases_by_stem() {
        assert!(Phrase::new("keeps restarting").matches(&q("the pod keeps restarting!")));
        assert!(Phrase::new("restart").matches(&q("it restarts every minute")));
        assert!(!Phrase::new("eks").matches(&q("for weeks now")));
        assert!(!Phrase::new("oom").matches(&q("the server room is hot")));
        assert!(!Phrase::new("slo").matches(&q("it is slow")));
        assert!(!Phrase::new("acm").matches(&q("status.acme.io is down")));
        assert!(Phrase::new("api").matches(&q("both apis time out")));
        assert!(Phrase::new("run").matches(&q("it keeps running")));
        assert!(!Phrase::new("crash loop").matches(&q("loop crash")));
        assert_eq!(
            Phrase::new("crash loop").find(&q("a crash loop here")),
            Some(1)
        );
    }
}
