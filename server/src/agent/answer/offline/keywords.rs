//! Keyword-library questions: the keyword, its arguments, how to import and call
//! it, and which bundles use it.

use super::super::Grounding;
use super::super::cite::format as cite;
use crate::agent::library::{LibraryListing, SHOWN_USERS};
use app::api::CitationKind;
use std::fmt::Write;

/// Keywords listed before "and N more".
const LIST_MAX: usize = 25;

/// Every public keyword of the named library, grouped by module, with the bundles
/// that call it. (No further-reading line: the listing already says how to import
/// the library, and a long list wants nothing after it.)
pub(super) fn library(g: &Grounding, lib: &LibraryListing) -> String {
    let mut out = String::new();
    let modules: std::collections::BTreeSet<&str> =
        lib.keywords.iter().map(|k| k.library.as_str()).collect();
    let _ = writeln!(
        out,
        "**{}** gives you {} public keyword{}{}:",
        lib.name,
        lib.keywords.len(),
        if lib.keywords.len() == 1 { "" } else { "s" },
        if modules.len() > 1 {
            format!(" in {} modules", modules.len())
        } else {
            String::new()
        }
    );
    let mut current = "";
    for k in lib.keywords.iter().take(LIST_MAX) {
        if modules.len() > 1 && k.library != current {
            current = &k.library;
            let _ = writeln!(
                out,
                "
`{current}`"
            );
        }
        let args = if k.args.trim().is_empty() {
            String::new()
        } else {
            format!(" (`{}`)", k.args.trim())
        };
        let doc = super::text::sentence(&k.doc);
        let doc = if doc.is_empty() {
            String::new()
        } else {
            format!(" — {doc}")
        };
        let _ = writeln!(
            out,
            "- *{}*{args} {}{doc}",
            k.name,
            cite(CitationKind::Kw, &k.id)
        );
    }
    if lib.keywords.len() > LIST_MAX {
        let _ = writeln!(out, "- …and {} more", lib.keywords.len() - LIST_MAX);
    }
    let _ = writeln!(
        out,
        "
Import it with `Library    {}` in `*** Settings ***` (a module as `Library    {}.<module>`), then call a keyword by its name.",
        lib.name, lib.name
    );
    if !lib.users.is_empty() {
        let _ = writeln!(
            out,
            "
**Bundles that use it**"
        );
        for (key, tasks) in lib.users.iter().take(4) {
            if let Some(c) = g.card(key) {
                let _ = writeln!(
                    out,
                    "- **{}** {} — from {tasks} task{}",
                    c.display_name,
                    cite(CitationKind::Bundle, key),
                    if *tasks == 1 { "" } else { "s" }
                );
            }
        }
        if lib.users.len() > 4 {
            let _ = writeln!(out, "- …and {} more", lib.users.len() - 4);
        }
    }
    out.trim_end().to_string()
}

pub(super) fn keywords(g: &Grounding) -> String {
    let mut out = String::new();
    let top = &g.retrieval.keywords[0];
    let _ = writeln!(
        out,
        "**{}** from `{}` {}",
        top.name,
        top.library,
        cite(CitationKind::Kw, &top.id)
    );
    if !top.doc.trim().is_empty() {
        let _ = writeln!(out, "\n{}", top.doc.trim());
    }
    if !top.args.trim().is_empty() {
        let _ = writeln!(out, "\nArguments: `{}`", top.args.trim());
    }
    let _ = writeln!(
        out,
        "\nIn a robot file: `Library    {}` in `*** Settings ***`, then call `{}.{}`.",
        top.library, top.library, top.name
    );
    if let Some(users) = g.keyword_users.get(&top.id).filter(|u| !u.is_empty()) {
        let _ = writeln!(
            out,
            "\nUsed by {} bundle{}; where it is called:",
            users.len(),
            if users.len() == 1 { "" } else { "s" }
        );
        for u in users.iter().take(SHOWN_USERS) {
            if let Some(c) = g.card(&u.key) {
                let at = if u.line > 0 {
                    format!(" — `{}:{}`", u.file, u.line)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "- **{}** {}{at}",
                    c.display_name,
                    cite(CitationKind::Bundle, &u.key)
                );
            }
        }
    }
    let others: Vec<_> = g
        .retrieval
        .keywords
        .iter()
        .skip(1)
        .filter(|k| k.score >= 0.4)
        .take(3)
        .collect();
    if !others.is_empty() {
        let _ = writeln!(
            out,
            "\nRelated keywords: {}",
            others
                .iter()
                .map(|k| format!("*{}* {}", k.name, cite(CitationKind::Kw, &k.id)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    // Questions about keywords are often about how a collection ships them (how to
    // install its library, its conventions): its docs may say more than any
    // docstring.
    if let Some(d) = g.further_reading() {
        super::text::doc_line(&mut out, "Further reading", d);
    }
    out.trim_end().to_string()
}
