//! Questions about the catalog as a whole, answered from the catalog itself rather
//! than from a search: an overview of the collections, counts and lists filtered by
//! platform, access, technology or kind, what changed recently (git commit dates),
//! and good places to start. Every figure is counted, none is generated.

use super::super::Grounding;
use super::text::platform_name;
use crate::agent::classify::{CatalogKind, catalog_kind, residual_terms};
use crate::query::phrase::{stem, words};
use crate::query::{Access, PlatformSource, Role};
use crate::search::BundleMeta;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Longest list written out in full.
const LIST_MAX: usize = 40;

pub(super) fn catalog(g: &Grounding) -> String {
    let q = &g.query;
    let kind = catalog_kind(q);
    let all: Vec<&BundleMeta> = g.snapshot.bundles.iter().collect();
    let (picked, filters) = filtered(g, &all);
    match kind {
        CatalogKind::Overview => overview(g, &all),
        CatalogKind::Recent => recent(g, &picked, &filters),
        CatalogKind::Start => start(g, &picked, &filters),
        CatalogKind::Count => count(g, &picked, &filters),
        CatalogKind::List => list(g, &picked, &filters),
    }
}

/// The bundles the question's filters select, and a description of the filters.
fn filtered<'a>(g: &Grounding, all: &[&'a BundleMeta]) -> (Vec<&'a BundleMeta>, Vec<String>) {
    let q = &g.query;
    let mut described = Vec::new();
    let mut out: Vec<&BundleMeta> = all.to_vec();
    // Only a platform the question names: one implied by its words is a guess.
    let platforms: Vec<&String> = if q.platforms.source == Some(PlatformSource::Lexicon) {
        q.platforms.wanted.iter().collect()
    } else {
        Vec::new()
    };
    if !platforms.is_empty() {
        out.retain(|b| platforms.iter().any(|p| **p == b.platform));
        described.push(
            platforms
                .iter()
                .map(|p| platform_name(p))
                .collect::<Vec<_>>()
                .join(" or "),
        );
    }
    // A collection named ("what's in workspace utils?"): its bundles only.
    let collections = q.collections();
    if !collections.is_empty() {
        out.retain(|b| collections.contains(&b.collection.as_str()));
        described.push(format!("in {}", collections.join(" or ")));
    }
    let collection_stems: Vec<String> = collections
        .iter()
        .flat_map(|c| words(c))
        .map(|w| stem(&w))
        .collect();
    match q.access {
        Some(Access::ReadOnly) => {
            out.retain(|b| b.access == Access::ReadOnly);
            described.push("read-only".into());
        }
        Some(Access::ReadWrite) => {
            out.retain(|b| b.access == Access::ReadWrite);
            described.push("able to change things (read-write)".into());
        }
        None => {}
    }
    // "only a monitor and no runbook" / "runbooks without monitors".
    let text = q.text.to_lowercase();
    if q.mentions(Role::Sli) && q.mentions(Role::Taskset) {
        let sli_first = text.find(sli_word(&text)).unwrap_or(usize::MAX)
            < text.find(taskset_word(&text)).unwrap_or(usize::MAX);
        if sli_first {
            out.retain(|b| b.sli_count > 0 && b.task_count == 0);
            described.push(format!("with only {}", g.words.plural(Role::Sli)));
        } else {
            out.retain(|b| b.task_count > 0 && b.sli_count == 0);
            described.push(format!("with only {}", g.words.plural(Role::Taskset)));
        }
    } else if q.mentions(Role::Sli) {
        out.retain(|b| b.sli_count > 0);
        described.push(format!("with {}", g.words.plural(Role::Sli)));
    }
    // Technologies and any other topic words: every one must match the bundle's
    // names, tags, resource types or description.
    let mut topic: Vec<String> = q
        .technologies
        .iter()
        .filter(|t| {
            !crate::query::LEXICON
                .platform_cues
                .iter()
                .any(|(p, _)| p.text == **t)
        })
        .cloned()
        .collect();
    topic.extend(residual_terms(q));
    topic.retain(|t| !collection_stems.contains(&stem(t)));
    topic.retain(|t| {
        !matches!(
            t.as_str(),
            "new"
                | "recent"
                | "recently"
                | "good"
                | "best"
                | "start"
                | "useful"
                | "changed"
                | "added"
                | "additions"
                | "published"
                | "updated"
                | "latest"
                | "newest"
                | "lately"
        )
    });
    if !topic.is_empty() {
        let stems: Vec<String> = topic.iter().map(|t| stem(t)).collect();
        let matching: Vec<&BundleMeta> = out
            .iter()
            .copied()
            .filter(|b| {
                let text = format!(
                    "{} {} {} {} {}",
                    b.display_name,
                    b.slug,
                    b.tags.join(" "),
                    b.resource_types.join(" "),
                    b.description
                );
                let have: Vec<String> = words(&text).iter().map(|w| stem(w)).collect();
                stems.iter().all(|s| have.contains(s))
            })
            .collect();
        if !matching.is_empty() {
            out = matching;
            described.push(format!("about {}", topic.join(" ")));
        }
    }
    (out, described)
}

fn sli_word(text: &str) -> &'static str {
    ["monitor", "sli"]
        .into_iter()
        .find(|w| text.contains(w))
        .unwrap_or("sli")
}

fn taskset_word(text: &str) -> &'static str {
    ["runbook", "taskset", "task set"]
        .into_iter()
        .find(|w| text.contains(w))
        .unwrap_or("runbook")
}

fn link(b: &BundleMeta) -> String {
    match &b.source_url {
        Some(u) => format!("[{}]({u})", b.display_name),
        None => format!("**{}**", b.display_name),
    }
}

fn line(g: &Grounding, b: &BundleMeta) -> String {
    format!(
        "- {} (`{}`) — {}, {}, {} {}, {} {}",
        link(b),
        b.key(),
        platform_name(&b.platform),
        b.access,
        b.task_count,
        g.words.count(Role::Task, b.task_count as usize),
        b.sli_count,
        g.words.count(Role::Sli, b.sli_count as usize),
    )
}

fn filters_text(filters: &[String]) -> String {
    if filters.is_empty() {
        String::new()
    } else {
        format!(" ({})", filters.join(", "))
    }
}

fn overview(g: &Grounding, all: &[&BundleMeta]) -> String {
    let w = &g.words;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "The registry holds **{} {}** in **{} {}**:\n",
        all.len(),
        w.count(Role::Codebundle, all.len()),
        g.collections.len(),
        w.count(Role::Collection, g.collections.len()),
    );
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | read-only | last indexed |",
        w.singular_title(Role::Collection),
        w.plural_title(Role::Codebundle),
        w.plural_title(Role::Task),
        w.plural_title(Role::Sli)
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for c in &g.collections {
        let read_only = all
            .iter()
            .filter(|b| b.collection == c.name && b.access == Access::ReadOnly)
            .count();
        let name = match &c.web_url {
            Some(u) => format!("[{}]({u})", c.name),
            None => c.name.clone(),
        };
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {read_only} | {} |",
            c.bundles,
            c.tasks,
            c.slis,
            c.indexed_at.get(..10).unwrap_or(&c.indexed_at)
        );
    }
    let mut by_platform: BTreeMap<&str, usize> = BTreeMap::new();
    for b in all {
        *by_platform.entry(b.platform.as_str()).or_default() += 1;
    }
    let mut platforms: Vec<(&str, usize)> = by_platform.into_iter().collect();
    platforms.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let top: Vec<String> = platforms
        .iter()
        .take(6)
        .map(|(p, n)| format!("{} {n}", platform_name(p)))
        .collect();
    let _ = writeln!(out, "\nBy platform: {}.", top.join(", "));
    let _ = write!(
        out,
        "\nAsk for a list (\"read-only {} for Azure\"), a count (\"how many {} cover postgres?\"), what changed recently, or where to start.",
        w.plural(Role::Codebundle),
        w.plural(Role::Codebundle)
    );
    out
}

fn list(g: &Grounding, picked: &[&BundleMeta], filters: &[String]) -> String {
    let w = &g.words;
    if picked.is_empty() {
        return format!(
            "No {} in the registry match{}.",
            w.plural(Role::Codebundle),
            filters_text(filters)
        );
    }
    let mut out = format!(
        "{} {}{}:\n",
        picked.len(),
        w.count(Role::Codebundle, picked.len()),
        filters_text(filters)
    );
    let mut by_collection: BTreeMap<&str, Vec<&BundleMeta>> = BTreeMap::new();
    for b in picked.iter().take(LIST_MAX) {
        by_collection
            .entry(b.collection.as_str())
            .or_default()
            .push(b);
    }
    for (c, list) in by_collection {
        let _ = writeln!(out, "\n**{c}**");
        for b in list {
            let _ = writeln!(out, "{}", line(g, b));
        }
    }
    if picked.len() > LIST_MAX {
        let _ = write!(
            out,
            "\n…and {} more. Narrow it down with a platform, an access level or a technology.",
            picked.len() - LIST_MAX
        );
    }
    out
}

fn count(g: &Grounding, picked: &[&BundleMeta], filters: &[String]) -> String {
    let w = &g.words;
    let mut by_collection: BTreeMap<&str, usize> = BTreeMap::new();
    for b in picked {
        *by_collection.entry(b.collection.as_str()).or_default() += 1;
    }
    let mut out = format!(
        "**{}** {}{}",
        picked.len(),
        w.count(Role::Codebundle, picked.len()),
        filters_text(filters)
    );
    if !by_collection.is_empty() {
        let parts: Vec<String> = by_collection
            .iter()
            .map(|(c, n)| format!("{n} in {c}"))
            .collect();
        let _ = write!(out, ": {}", parts.join(", "));
    }
    out.push_str(".\n");
    if !picked.is_empty() && picked.len() <= 15 {
        out.push('\n');
        for b in picked {
            let _ = writeln!(out, "{}", line(g, b));
        }
    }
    out
}

fn recent(g: &Grounding, picked: &[&BundleMeta], filters: &[String]) -> String {
    let w = &g.words;
    let mut dated: Vec<&&BundleMeta> = picked.iter().filter(|b| b.updated_at.is_some()).collect();
    if dated.is_empty() {
        let mut out = format!(
            "I don't know when the {} changed: the indexed {} are not git checkouts with history (or were indexed before dates were recorded). Last indexed:\n",
            w.plural(Role::Codebundle),
            w.plural(Role::Collection)
        );
        for c in &g.collections {
            let _ = writeln!(out, "- {}: {}", c.name, c.indexed_at);
        }
        return out;
    }
    dated.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then(a.slug.cmp(&b.slug)));
    let mut out = format!(
        "The most recently changed {}{}, by the date of the last commit touching each:\n\n",
        w.plural(Role::Codebundle),
        filters_text(filters)
    );
    for b in dated.iter().take(12) {
        let date = b.updated_at.as_deref().unwrap_or("");
        let _ = writeln!(
            out,
            "- {} — {} (`{}`)",
            date.get(..10).unwrap_or(date),
            link(b),
            b.key()
        );
    }
    out
}

/// Good first bundles, by signals that can be defended: safe to run (read-only),
/// broad (several tasks), and watchable on a schedule (has SLIs).
fn start(g: &Grounding, picked: &[&BundleMeta], filters: &[String]) -> String {
    let w = &g.words;
    let score = |b: &BundleMeta| -> f32 {
        (b.access == Access::ReadOnly) as u8 as f32 * 2.0
            + (b.task_count.min(8) as f32 / 8.0) * 1.5
            + (b.sli_count > 0) as u8 as f32
    };
    let mut ranked: Vec<&&BundleMeta> = picked.iter().collect();
    ranked.sort_by(|a, b| score(b).total_cmp(&score(a)).then(a.slug.cmp(&b.slug)));
    let mut out = format!(
        "Good places to start{}: {} that are read-only (nothing they run changes anything), cover several checks at once, and come with {} you can schedule:\n\n",
        filters_text(filters),
        w.plural(Role::Codebundle),
        w.plural(Role::Sli)
    );
    for b in ranked.iter().take(8) {
        let _ = writeln!(out, "{}", line(g, b));
    }
    out.push_str(
        "\nRun one against a namespace, account or project you know well first, then widen.",
    );
    out
}
