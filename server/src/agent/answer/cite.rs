//! Citations by stable id: `[bundle:collection/slug]`, `[doc:source:path#anchor]`,
//! `[kw:Library.Keyword Name]`. After generation every id is checked against the
//! index; unknown ones are dropped from the saved text and never become links.

use crate::search::Snapshot;
use app::api::{Citation, CitationKind};
use regex::Regex;
use std::sync::LazyLock;

static CITE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[(bundle|doc|kw):([^\]\n]{1,200})\]").expect("valid pattern"));

/// (kind, id) in order of first appearance.
pub fn find(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for c in CITE.captures_iter(text) {
        let pair = (c[1].to_string(), c[2].trim().to_string());
        if !out.contains(&pair) {
            out.push(pair);
        }
    }
    out
}

pub fn format(kind: CitationKind, id: &str) -> String {
    format!("[{}:{id}]", kind.as_str())
}

/// Resolves citation ids against the current index.
pub struct Resolver<'a> {
    snap: &'a Snapshot,
    /// Bundles this turn retrieved or read: only they may be cited (an answer
    /// steered by text in the corpus cannot recommend an unrelated bundle).
    allowed: Option<std::collections::HashSet<String>>,
}

impl<'a> Resolver<'a> {
    pub fn new(snap: &'a Snapshot) -> Self {
        Resolver {
            snap,
            allowed: None,
        }
    }

    /// Limits bundle citations to these keys.
    pub fn only_bundles(mut self, keys: impl IntoIterator<Item = String>) -> Self {
        self.allowed = Some(keys.into_iter().collect());
        self
    }

    pub fn resolve(&self, prefix: &str, id: &str) -> Option<Citation> {
        let kind = CitationKind::parse(prefix)?;
        let full = format!("{prefix}:{id}");
        match kind {
            CitationKind::Bundle => {
                if self.allowed.as_ref().is_some_and(|a| !a.contains(id)) {
                    return None;
                }
                let b = &self.snap.bundles[*self.snap.bundle_by_key.get(id)? as usize];
                Some(Citation {
                    id: full,
                    kind,
                    label: b.display_name.clone(),
                    url: b.source_url.clone(),
                })
            }
            CitationKind::Doc => {
                let d = self.snap.docs.get(self.snap.doc_by_cite.get(id)?)?;
                let label = match &d.heading {
                    Some(h) if h != &d.title => format!("{} › {h}", d.title),
                    _ => d.title.clone(),
                };
                Some(Citation {
                    id: full,
                    kind,
                    label,
                    url: d.url.clone(),
                })
            }
            CitationKind::Kw => {
                let k = self.snap.keywords.get(self.snap.keyword_by_cite.get(id)?)?;
                Some(Citation {
                    id: full,
                    kind,
                    label: format!("{} ({})", k.name, k.library),
                    url: k.url.clone(),
                })
            }
        }
    }

    /// The valid citations in `text`, and the text with invalid markers removed.
    pub fn validate(&self, text: &str) -> (Vec<Citation>, String, Vec<String>) {
        let mut valid = Vec::new();
        let mut dropped = Vec::new();
        for (kind, id) in find(text) {
            match self.resolve(&kind, &id) {
                Some(c) => valid.push(c),
                None => dropped.push(format!("{kind}:{id}")),
            }
        }
        let cleaned = if dropped.is_empty() {
            text.to_string()
        } else {
            CITE.replace_all(text, |c: &regex::Captures| {
                if dropped.contains(&format!("{}:{}", &c[1], c[2].trim())) {
                    String::new()
                } else {
                    c[0].to_string()
                }
            })
            .into_owned()
        };
        (valid, cleaned, dropped)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_citations_in_order_without_duplicates() {
        let t = "Use [bundle:kube-ops/a] then [doc:docs:x.md#y] and [kw:RW.K.Run It] and [bundle:kube-ops/a] [nope:z]";
        let found = super::find(t);
        assert_eq!(found.len(), 3);
        assert_eq!(found[2], ("kw".to_string(), "RW.K.Run It".to_string()));
    }
}
