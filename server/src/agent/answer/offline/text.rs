//! Small pieces of prose shared by the offline answers: first sentences, task
//! lines, what to set, whether a bundle changes things.

use crate::ingest::{BundleRecord, TaskRecord};
use app::api::catalog::Access;
use std::fmt::Write;

/// First sentence (or the first 220 characters) of a description.
pub(super) fn sentence(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = s.find(". ").map(|i| i + 1).unwrap_or(s.len());
    let mut out: String = s[..end].chars().take(220).collect();
    if out.chars().count() < s[..end].chars().count() {
        out.push('…');
    }
    out
}

pub(super) fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f)
            if !s.starts_with(|ch: char| {
                ch.is_uppercase() && s.chars().nth(1).is_some_and(char::is_uppercase)
            }) =>
        {
            f.to_lowercase().collect::<String>() + c.as_str()
        }
        Some(f) => f.to_string() + c.as_str(),
        None => String::new(),
    }
}

/// A relevance as users read it (at most 99 %, as on the cards).
pub(super) fn pct(score: f32) -> String {
    format!("{:.0}%", (score * 100.0).round().min(99.0))
}

/// The tasks to run first: the ones that matched the question, then the rest in
/// file order, at most `n`.
pub(super) fn first_tasks<'a>(
    rec: &'a BundleRecord,
    matched: &[String],
    n: usize,
) -> Vec<&'a TaskRecord> {
    // Runbook tasks only: SLIs run on a schedule and are mentioned separately.
    let mut out: Vec<&TaskRecord> = matched
        .iter()
        .filter_map(|m| rec.tasks.iter().find(|t| t.title == *m))
        .collect();
    for t in rec.tasks.iter() {
        if out.len() >= n {
            break;
        }
        if !out.iter().any(|x| x.name == t.name) {
            out.push(t);
        }
    }
    out.truncate(n);
    out
}

pub(super) fn task_line(t: &TaskRecord) -> String {
    let what = if t.doc.trim().is_empty() {
        String::new()
    } else {
        format!(" — {}", lower_first(&sentence(&t.doc)))
    };
    let rw = if t.access == Access::ReadWrite {
        " ⚠ changes things"
    } else {
        ""
    };
    format!("*{}*{what}{rw}", t.title)
}

/// "Set `NAMESPACE` (e.g. `payments`), `CONTEXT` and the `kubeconfig` secret."
pub(super) fn settings_line(rec: &BundleRecord) -> Option<String> {
    let mut vars: Vec<String> = Vec::new();
    let users: Vec<_> = rec
        .variables
        .iter()
        .filter(|v| v.kind == app::api::catalog::VariableKind::User && !v.dynamic)
        .collect();
    for v in users
        .iter()
        .filter(|v| v.default.is_none())
        .chain(users.iter().filter(|v| v.default.is_some()))
        .take(4)
    {
        let hint = match (&v.example, &v.default) {
            (Some(e), _) if !e.trim().is_empty() => format!(" (e.g. `{}`)", e.trim()),
            (_, Some(d)) if !d.trim().is_empty() => format!(" (default `{}`)", d.trim()),
            _ => String::new(),
        };
        vars.push(format!("`{}`{hint}", v.name));
    }
    let more = users.len().saturating_sub(4);
    let secrets: Vec<String> = rec
        .variables
        .iter()
        .filter(|v| v.kind == app::api::catalog::VariableKind::Secret && !v.dynamic)
        .map(|v| format!("`{}`", v.name))
        .collect();
    if vars.is_empty() && secrets.is_empty() {
        return None;
    }
    let mut s = String::from("Set ");
    s.push_str(&vars.join(", "));
    if more > 0 {
        let _ = write!(s, " and {more} more");
    }
    if !secrets.is_empty() {
        if !vars.is_empty() {
            s.push_str("; it needs ");
        } else {
            s = "It needs ".into();
        }
        let _ = write!(
            s,
            "the {} secret{}",
            secrets.join(", "),
            if secrets.len() > 1 { "s" } else { "" }
        );
    }
    s.push('.');
    Some(s)
}

pub(super) fn access_line(rec: &BundleRecord) -> String {
    let d = &rec.derived;
    if d.access == Access::ReadWrite {
        let changing: Vec<String> = rec
            .tasks
            .iter()
            .chain(&rec.slis)
            .filter(|t| t.access == Access::ReadWrite)
            .map(|t| format!("*{}*", t.clean.trim()))
            .take(3)
            .collect();
        let which = if changing.is_empty() {
            String::new()
        } else {
            format!(" ({})", changing.join(", "))
        };
        format!(
            "⚠ **Read-write**: it changes things{which}; run it deliberately, not from a read-only rotation."
        )
    } else {
        let why = match d.access_source.as_str() {
            "task-tags" => "every task is tagged `access:read-only`",
            "slx-template" => "its SLX template says so",
            _ => "no task changes anything",
        };
        format!("It is read-only ({why}).")
    }
}

pub(super) fn platform_name(p: &str) -> String {
    match p {
        "kubernetes" => "Kubernetes".into(),
        "aws" => "AWS".into(),
        "azure" => "Azure".into(),
        "gcp" => "Google Cloud".into(),
        "azure_devops" => "Azure DevOps".into(),
        "github" => "GitHub".into(),
        other => title_case(other),
    }
}

pub(super) fn title_case(s: &str) -> String {
    s.split_whitespace()
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A line pointing at one documentation section: "Further reading: *Heading* [doc:…]".
pub(super) fn doc_line(out: &mut String, label: &str, d: &crate::search::DocHit) {
    let _ = writeln!(
        out,
        "\n{label}: *{}* {}",
        d.heading.as_deref().unwrap_or(&d.title),
        super::super::cite::format(app::api::CitationKind::Doc, &d.id)
    );
}
