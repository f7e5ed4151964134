//! "What keywords does RW.KubeTriage give me?": when a keyword question names a
//! library, the answer lists that library (and its submodules) with the bundles
//! that use it, rather than the single nearest keyword.

use crate::search::Snapshot;
use regex::Regex;
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
    let mut found: Option<&str> = None;
    for lib in libs {
        // A library is also named by any of its parents (RW.KubeTriage for
        // RW.KubeTriage.node_conditions).
        let mut parts: Vec<&str> = lib.split('.').collect();
        while parts.len() >= 2 {
            let name = parts.join(".");
            let pattern = format!(r"(?i)(^|[^\w.]){}($|[^\w.]|\.($|\W))", regex::escape(&name));
            if Regex::new(&pattern).is_ok_and(|re| re.is_match(question)) {
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

pub fn listing(c: &Connection, snap: &Snapshot, name: &str) -> rusqlite::Result<LibraryListing> {
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
    let mut st = c.prepare(
        "SELECT co.name || '/' || b.slug, count(DISTINCT u.task) FROM keyword_uses u
         JOIN keywords k ON k.id = u.keyword_id JOIN bundles b ON b.id = u.bundle_id
         JOIN collections co ON co.id = b.collection_id
         WHERE k.library = ?1 OR substr(k.library, 1, length(?2)) = ?2
         GROUP BY 1 ORDER BY 2 DESC, 1",
    )?;
    let users = st
        .query_map([name, prefix.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    Ok(LibraryListing {
        name: name.to_string(),
        keywords,
        users,
    })
}
