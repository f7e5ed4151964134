//! "Which keywords come with RW.KubeTriage?": when a keyword question names a
//! library, the answer lists that library (and its submodules) with the bundles
//! that use it, rather than the single nearest keyword.

use crate::catalog::KeywordUse;
use crate::query::phrase::{Phrase, stem, stems, words};
use crate::search::Snapshot;
use crate::store::StoreError;
use rusqlite::Connection;
use serde::Serialize;
use std::collections::HashMap;

#[derive(Clone, Debug, Default, Serialize)]
pub struct LibraryKeyword {
    /// Citation id (`library.Keyword Name`).
    pub id: String,
    pub library: String,
    pub name: String,
    pub args: String,
    pub doc: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct LibraryListing {
    pub name: String,
    /// Public keywords (names starting with `_` are private), by module then name.
    pub keywords: Vec<LibraryKeyword>,
    /// Bundle keys with how many of their tasks call the library, most first.
    pub users: Vec<(String, u32)>,
}

/// The library the question names, matched as a whole dotted name (`rw.kubetriage`
/// names RW.KubeTriage, not RW.KubeTriageX); the shortest such name wins so that
/// its submodules are listed with it.
pub fn named(question: &str, snap: &Snapshot) -> Option<String> {
    let mut libs: Vec<&str> = snap.keywords.values().map(|k| k.library.as_str()).collect();
    libs.sort();
    libs.dedup();
    let lower = question.to_lowercase();
    let mut found: Option<&str> = None;
    for lib in libs {
        // A library is also named by any of its parents (RW.KubeTriage for
        // RW.KubeTriage.node_conditions).
        let mut parts: Vec<&str> = lib.split('.').collect();
        while parts.len() >= 2 {
            let name = parts.join(".");
            if names(&lower, &name.to_lowercase()) {
                let full = &lib[..name.len()];
                if found.is_none_or(|f| full.len() < f.len()) {
                    found = Some(full);
                }
            }
            parts.pop();
        }
    }
    found.map(str::to_string)
}

/// Whether `text` names `name` as a whole dotted name: not inside a longer word
/// or dotted name, though a sentence's full stop may follow. Both lowercase.
/// (Was a regex compiled per library per question: most of a turn's CPU.)
fn names(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let mut after = text[at + name.len()..].chars();
        let free_before = before.is_none_or(|c| !word(c) && c != '.');
        let free_after = match after.next() {
            None => true,
            Some('.') => after.next().is_none_or(|c| !word(c)),
            Some(c) => !word(c),
        };
        free_before && free_after
    })
}

/// Whether `lib` is the library `name` or one of its submodules.
pub fn within(lib: &str, name: &str) -> bool {
    lib.strip_prefix(name)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

pub fn listing(c: &Connection, snap: &Snapshot, name: &str) -> Result<LibraryListing, StoreError> {
    let in_library = |lib: &str| within(lib, name);
    let mut keywords: Vec<LibraryKeyword> = snap
        .keywords
        .values()
        .filter(|k| in_library(&k.library) && !k.name.starts_with('_'))
        .map(|k| LibraryKeyword {
            id: k.cite_id(),
            library: k.library.clone(),
            name: k.name.clone(),
            args: k.args.clone(),
            doc: k.doc.clone(),
        })
        .collect();
    keywords.sort_by(|a, b| (&a.library, &a.name).cmp(&(&b.library, &b.name)));
    let users = crate::catalog::library_users(c, name)?;
    Ok(LibraryListing {
        name: name.to_string(),
        keywords,
        users,
    })
}

/// Puts the users that fit what the question names first: its platforms,
/// technologies, resource kinds and collections ("…which keyword opens an issue
/// with a severity? show me a cloud custodian bundle" puts the Cloud Custodian
/// callers of Add Issue first), ranked by a search for those names restricted to
/// the users. When the question names nothing, or nothing that tells the users
/// apart (every caller of Verify Cluster Connectivity is a Kubernetes bundle),
/// they keep their most-tasks-first order.
///
/// Only names: the question's other words ("score", "report", "ships inside the
/// folder") fit a keyword's callers alike, and ranking by them put chance matches
/// first (tuning halves, keyword questions, MRR: 0.534 ranking by every other
/// word, 0.533 by names matched in the bundles' headers alone, 0.546 by a search
/// for the names, 0.552 this).
pub async fn rank_users(
    searcher: &crate::search::Searcher,
    query: &crate::query::Query,
    users: &mut [KeywordUse],
) -> Result<(), crate::search::SearchError> {
    if users.len() < 2 {
        return Ok(());
    }
    let platforms = query.platforms.named();
    let collections = query.collections();
    // Resource kinds are stems ("databas"): matched as stems, searched as the
    // words the question used.
    let kinds = &query.resource_kinds;
    let kind_words: Vec<&str> = query
        .words
        .iter()
        .filter(|w| kinds.contains(&stem(w)))
        .map(String::as_str)
        .collect();
    if platforms.is_empty()
        && collections.is_empty()
        && query.technologies.is_empty()
        && kinds.is_empty()
    {
        return Ok(());
    }
    let snap = searcher.snapshot();
    let phrases: Vec<Phrase> = query
        .technologies
        .iter()
        .map(|t| Phrase::new(t))
        .filter(|p| !p.is_empty())
        .collect();
    let fit = |key: &str| -> usize {
        let Some(b) = snap
            .bundle_by_key
            .get(key)
            .map(|&i| &snap.bundles[i as usize])
        else {
            return 0;
        };
        let text = format!(
            "{} {} {} {} {}",
            b.slug.replace('-', " "),
            b.display_name,
            b.description,
            b.tags.join(" "),
            b.resource_types.join(" ")
        );
        let stems = stems(&words(&text));
        usize::from(platforms.contains(&b.platform))
            + usize::from(collections.contains(&b.collection.as_str()))
            + phrases.iter().filter(|p| p.find(&stems).is_some()).count()
            + kinds.iter().filter(|k| stems.contains(k)).count()
    };
    let fits: HashMap<String, usize> = users.iter().map(|u| (u.key.clone(), fit(&u.key))).collect();
    if fits.values().all(|f| *f == fits[&users[0].key]) {
        return Ok(());
    }
    let names: Vec<&str> = platforms
        .iter()
        .map(String::as_str)
        .chain(collections.iter().copied())
        .chain(query.technologies.iter().map(String::as_str))
        .chain(kind_words.iter().copied())
        .collect();
    let query = crate::query::Query::parse(&names.join(" "), &snap.vocab);
    let options = crate::search::SearchOptions {
        k: SHOWN_USERS,
        filters: crate::search::Filters {
            bundles: users.iter().map(|u| u.key.clone()).collect(),
            ..Default::default()
        },
        ..Default::default()
    };
    let found = searcher.search_query(&query, &options).await?;
    let rank = |key: &str| {
        found
            .bundles
            .iter()
            .position(|b| b.key == key)
            .unwrap_or(usize::MAX)
    };
    // The better fit first, then the search's order; stable, so equal ones (not
    // found) keep the most-tasks-first order.
    users.sort_by_key(|u| (std::cmp::Reverse(fits[&u.key]), rank(&u.key)));
    Ok(())
}

/// Users shown (and ranked) per keyword.
pub const SHOWN_USERS: usize = 4;

#[cfg(test)]
mod tests {
    use super::{names, within};

    #[test]
    fn a_submodule_is_within_its_library_and_a_longer_name_is_not() {
        assert!(within("RW.CLI", "RW.CLI"));
        assert!(within("RW.CLI.cli_utils", "RW.CLI"));
        assert!(!within("RW.CLIX", "RW.CLI"));
        assert!(!within("RW.Core", "RW.CLI"));
    }

    #[test]
    fn a_library_is_named_only_as_a_whole_dotted_name() {
        assert!(names("what does rw.cli do?", "rw.cli"));
        assert!(names("keywords of rw.cli.", "rw.cli"));
        assert!(names("rw.cli", "rw.cli"));
        assert!(!names("what does rw.clix do", "rw.cli"));
        assert!(!names("see rw.cli.run_cli", "rw.cli"));
        assert!(!names("xrw.cli", "rw.cli"));
        assert!(!names("a.rw.cli", "rw.cli"));
        assert!(names("(rw.k8shelper)", "rw.k8shelper"));
    }
}
