//! "Which keywords come with RW.KubeTriage?": when a keyword question names a
//! library, the answer lists that library (and its submodules) with the bundles
//! that use it, rather than the single nearest keyword.

use crate::catalog::KeywordUse;
use crate::search::Snapshot;
use crate::store::StoreError;
use rusqlite::Connection;
use serde::Serialize;

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

pub fn listing(c: &Connection, snap: &Snapshot, name: &str) -> Result<LibraryListing, StoreError> {
    let prefix = format!("{name}.");
    let in_library = |lib: &str| lib == name || lib.starts_with(&prefix);
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

/// Words about writing or reusing code rather than about what the bundle works on.
const AUTHORING_WORDS: &[&str] = &[
    "keyword",
    "keywords",
    "library",
    "libraries",
    "helper",
    "helpers",
    "function",
    "writing",
    "write",
    "own",
    "reuse",
    "call",
    "calls",
    "calling",
    "example",
    "examples",
    "copy",
    "point",
    "show",
    "real",
    "want",
    "init",
    "setup",
];

/// Puts the users that best fit the question first: a search restricted to them
/// ranks them by what the question says besides the keyword itself ("…what
/// keyword opens an issue carrying a severity? show me a cloud custodian bundle"
/// ranks by "cloud custodian": every caller of Add Issue matches "issue" and
/// "severity" alike). The rest keep their order, as do all when the question says
/// nothing else.
pub async fn rank_users(
    searcher: &crate::search::Searcher,
    query: &crate::query::Query,
    keyword: &crate::search::KeywordHit,
    users: &mut [KeywordUse],
) -> Result<(), crate::search::SearchError> {
    if users.len() < 2 {
        return Ok(());
    }
    let own: std::collections::HashSet<String> =
        [&keyword.name, &keyword.args, &keyword.doc, &keyword.library]
            .iter()
            .flat_map(|t| crate::query::phrase::stems(&crate::query::phrase::words(t)))
            .collect();
    let rest: Vec<&str> = query
        .terms
        .iter()
        .filter(|t| {
            !AUTHORING_WORDS.contains(&t.as_str()) && !own.contains(&crate::query::phrase::stem(t))
        })
        .map(String::as_str)
        .collect();
    if rest.is_empty() {
        return Ok(());
    }
    let query = crate::query::Query::parse(&rest.join(" "), &searcher.snapshot().vocab);
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
    // Stable: equal ranks (not found) keep the most-tasks-first order.
    users.sort_by_key(|u| rank(&u.key));
    Ok(())
}

/// Users shown (and ranked) per keyword.
pub const SHOWN_USERS: usize = 4;

#[cfg(test)]
mod tests {
    use super::names;

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
