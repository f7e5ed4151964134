//! Keywords a question names in full: "which bundles call escape bash command",
//! "the string-to-datetime keyword". Someone who types a keyword's name means that
//! keyword, however well a differently worded one matches the rest of the sentence;
//! the vectors alone put a helper with more familiar words first.

use super::Snapshot;
use crate::query::Query;
use crate::query::phrase::Phrase;

/// Whether the question names `name` word for word (compared by stems, so
/// hyphens, case and plurals do not matter). One-word names are left out: "Kubectl"
/// or "Curl" in a question names a tool, not the keyword.
pub fn names_keyword(query: &Query, name: &str) -> bool {
    let phrase = Phrase::new(name);
    phrase.len() >= 2 && phrase.matches(&query.stems)
}

/// Ids of the catalog's keywords the question names.
pub(super) fn named_keywords(s: &Snapshot, query: &Query) -> Vec<i64> {
    s.keywords
        .values()
        // Cheap first: the name's first word must be among the question's words.
        .filter(|k| {
            k.name
                .split(|c: char| !c.is_alphanumeric())
                .find(|w| !w.is_empty())
                .is_some_and(|first| query.words.iter().any(|w| w.eq_ignore_ascii_case(first)))
        })
        .filter(|k| names_keyword(query, &k.name))
        .map(|k| k.id)
        .collect()
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
}
