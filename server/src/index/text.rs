//! Text analysis shared by the keyword index and search: tokens, stopwords,
//! identifier splitting and edit distance for misspellings.

use super::embed::identifier_parts;

/// Words that carry no meaning for matching (questions are full of them).
const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "before",
    "being",
    "below",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "im",
    "ive",
    // What is left of a contraction split at its apostrophe ("don't" is "don" and
    // "t"): English's negated auxiliaries, as in NLTK's stopword list.
    "don",
    "doesn",
    "didn",
    "isn",
    "aren",
    "wasn",
    "weren",
    "hasn",
    "haven",
    "hadn",
    "shouldn",
    "couldn",
    "wouldn",
    "won",
    "ain",
    "mightn",
    "mustn",
    "needn",
    "shan",
    "ll",
    "re",
    "ve",
    "dont",
    "doesnt",
    "isnt",
    "cant",
    "wont",
    "please",
    "pls",
    "thanks",
    "hi",
    "hey",
    "hello",
    "any",
    "anything",
    "something",
    "stuff",
    "thing",
    "things",
    "get",
    "got",
    "getting",
    "keeps",
    "keep",
    "kept",
    "lot",
    "lots",
    "really",
    "actually",
    "instead",
    "rather",
    "also",
    "want",
    "need",
    "know",
    "tell",
    "show",
    "give",
    "find",
    "help",
    "use",
    "using",
    "way",
    "ways",
    "there's",
    "whats",
    "one",
    "ones",
    "see",
    "seems",
    "seem",
    "like",
    "us",
    "let",
    "lets",
    "bundle",
    "bundles",
    "codebundle",
    "codebundles",
    "task",
    "tasks",
    "runbook",
    "runbooks",
    "which",
    "start",
    "where",
];

pub fn is_stopword(w: &str) -> bool {
    STOPWORDS.contains(&w)
}

/// Lower-case word tokens (letters, digits; `k8s` stays whole).
pub fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

/// Hyphen- or underscore-joined names written as one word ("fluent-bit" →
/// "fluentbit", "cert_manager" → "certmanager"): users type product names either
/// way, and a question saying "fluentbit" is about what the catalog calls
/// "fluent-bit".
pub fn compounds(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .filter(|w| w.contains(['-', '_']))
        .filter_map(|w| {
            let parts: Vec<&str> = w.split(['-', '_']).filter(|p| !p.is_empty()).collect();
            (parts.len() >= 2 && parts.iter().all(|p| p.chars().all(char::is_alphabetic)))
                .then(|| parts.concat().to_lowercase())
        })
}

/// Meaningful query terms: tokens minus stopwords and one-letter noise, with
/// identifier parts of camelCase and snake_case words added.
pub fn query_terms(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |w: String| {
        if w.chars().count() > 1 && !is_stopword(&w) && !out.contains(&w) {
            out.push(w);
        }
    };
    for raw in text.split_whitespace() {
        let parts = identifier_parts(raw.trim_matches(|c: char| !c.is_alphanumeric()));
        for t in tokens(raw) {
            push(t);
        }
        if parts.len() > 1 {
            for p in parts {
                for t in tokens(&p) {
                    push(t);
                }
            }
        }
    }
    out
}

/// The text plus the parts of any camelCase / snake_case / kebab-case identifiers
/// in it, so "CrashLoopBackOff" is also found by "crash loop".
pub fn with_identifier_parts(text: &str) -> String {
    let mut extra: Vec<String> = Vec::new();
    for raw in text.split_whitespace() {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        let parts = identifier_parts(word);
        if parts.len() > 1 {
            extra.push(parts.join(" "));
        }
    }
    if extra.is_empty() {
        text.to_string()
    } else {
        format!("{text}\n{}", extra.join(" "))
    }
}

/// Levenshtein distance with early exit above `max`.
pub fn edit_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        let mut row_min = cur[0];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
            row_min = row_min.min(cur[j + 1]);
        }
        if row_min > max {
            return None;
        }
        prev = cur;
    }
    (prev[b.len()] <= max).then_some(prev[b.len()])
}

/// How many edits a word of this length may have and still be "the same word".
pub fn typo_budget(len: usize) -> usize {
    match len {
        0..=4 => 0,
        5..=7 => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_drop_stopwords_and_split_identifiers() {
        assert_eq!(
            query_terms("Why do my pods keep CrashLoopBackOff?"),
            vec!["pods", "crashloopbackoff", "crash", "loop", "back"]
        );
        assert_eq!(query_terms("k8s-pod health"), vec!["k8s", "pod", "health"]);
    }

    #[test]
    fn joined_names_are_words_too() {
        let c: Vec<String> =
            compounds("Ships logs with fluent-bit; uses cert_manager, k8s-pod and a-").collect();
        assert_eq!(c, vec!["fluentbit", "certmanager"]);
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("prometeus", "prometheus", 2), Some(1));
        assert_eq!(edit_distance("azrue", "azure", 2), Some(2));
        assert_eq!(edit_distance("kafka", "kata", 1), None);
        assert_eq!(typo_budget(4), 0);
    }
}
