//! Keywords a question names in full: "which bundles call escape bash command",
//! "the string-to-datetime keyword". Someone who types a keyword's name means that
//! keyword, however well a differently worded one matches the rest of the sentence;
//! the vectors alone put a helper with more familiar words first.

use crate::query::Query;
use crate::query::phrase::{Phrase, words};
use std::collections::HashMap;

/// Whether the question names `name` word for word (compared by stems, so
/// hyphens, case and plurals do not matter). One-word names are left out: "Kubectl"
/// or "Curl" in a question names a tool, not the keyword.
pub fn names_keyword(query: &Query, name: &str) -> bool {
    let phrase = Phrase::new(name);
    phrase.len() >= 2 && phrase.matches(&query.stems)
}

/// The catalog's keywords of two words or more, by their first word as written:
/// a question is checked only against the names that start with one of its own
/// words (built once per snapshot; scanning every keyword per search was
/// wasted). The first word must be typed as the name has it: "creates issues"
/// describes what a keyword does, "Create Issue" names it.
pub struct KeywordNames(HashMap<String, Vec<(i64, Phrase)>>);

impl KeywordNames {
    pub fn build<'a>(keywords: impl Iterator<Item = (i64, &'a str)>) -> KeywordNames {
        let mut by_first: HashMap<String, Vec<(i64, Phrase)>> = HashMap::new();
        for (id, name) in keywords {
            let phrase = Phrase::new(name);
            if phrase.len() < 2 {
                continue;
            }
            if let Some(first) = words(name).into_iter().next() {
                by_first.entry(first).or_default().push((id, phrase));
            }
        }
        KeywordNames(by_first)
    }

    /// Ids of the keywords the question names, in id order.
    pub fn named_in(&self, query: &Query) -> Vec<i64> {
        let mut firsts: Vec<&String> = query.words.iter().collect();
        firsts.sort();
        firsts.dedup();
        let mut ids: Vec<i64> = firsts
            .into_iter()
            .filter_map(|s| self.0.get(s))
            .flatten()
            .filter(|(_, p)| p.matches(&query.stems))
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable();
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> Query {
        Query::parse(text, &Default::default())
    }

    #[test]
    fn a_keyword_is_named_by_its_whole_name_in_any_case_or_spelling() {
        assert!(names_keyword(
            &q("who calls Escape Bash Command?"),
            "Escape Bash Command"
        ));
        assert!(names_keyword(
            &q("the string-to-datetime helper"),
            "String To Datetime"
        ));
        assert!(names_keyword(
            &q("bundles that parse cli json outputs"),
            "Parse Cli Json Output"
        ));
        // Part of a name is not the name.
        assert!(!names_keyword(
            &q("escape the bash command"),
            "Escape Bash Command"
        ));
        assert!(!names_keyword(
            &q("shell history in the report"),
            "Pop Shell History"
        ));
        // A one-word name is a tool's name as often as a keyword's.
        assert!(!names_keyword(&q("run kubectl get pods"), "Kubectl"));
    }

    #[test]
    fn the_index_finds_a_name_typed_as_written_after_its_first_word() {
        let names = KeywordNames::build(
            [
                (1, "Parse Cli Json Output"),
                (2, "Escape Bash Command"),
                (3, "Kubectl"),
            ]
            .into_iter(),
        );
        assert_eq!(
            names.named_in(&q("which bundles parse cli json outputs")),
            vec![1]
        );
        assert!(
            names.named_in(&q("what parses cli json output")).is_empty(),
            "an inflected first word describes, it does not name"
        );
        assert_eq!(names.named_in(&q("who calls escape bash command")), vec![2]);
        assert!(names.named_in(&q("run kubectl get pods")).is_empty());
        assert!(names.named_in(&q("escape the bash command")).is_empty());
    }
}
