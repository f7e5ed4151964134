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

/// The English (Snowball) stem of one lower-case word.
pub fn stem(word: &str) -> String {
    STEMMER.stem(word).into_owned()
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
        assert!(!Phrase::new("crash loop").matches(&q("loop crash")));
        assert_eq!(
            Phrase::new("crash loop").find(&q("a crash loop here")),
            Some(1)
        );
    }
}
