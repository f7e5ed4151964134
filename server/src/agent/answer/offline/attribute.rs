//! Follow-ups about one bundle (its SLIs, tasks, access, variables, secrets,
//! author, source, platform), answered from its record.

use super::super::Grounding;
use super::super::cite::format as cite;
use super::text::{access_line, platform_name, sentence, task_line};
use crate::agent::rewrite::Attribute;
use crate::ingest::BundleRecord;
use app::api::CitationKind;
use app::api::catalog::Access;
use std::fmt::Write;

pub(super) fn attribute(a: Attribute, rec: &BundleRecord, g: &Grounding) -> String {
    let name = &rec.display_name;
    let c = cite(CitationKind::Bundle, &rec.key());
    let mut out = String::new();
    match a {
        Attribute::Slis => {
            if rec.slis.is_empty() {
                let _ = writeln!(
                    out,
                    "**{name}** {c} has no SLI: it only has a runbook, which runs on demand or when an alert fires. For a scheduled 0–1 health score you need a bundle with an `sli.robot`."
                );
                let counterpart =
                    crate::agent::answer::suggest::sli_counterpart(&g.snapshot, &rec.key())
                        .and_then(|k| g.records.get(&k));
                if let Some(other) = counterpart {
                    let _ = writeln!(
                        out,
                        "\n**{}** {} watches the same kind of thing on a schedule:",
                        other.display_name,
                        cite(CitationKind::Bundle, &other.key())
                    );
                    for t in &other.slis {
                        let _ = writeln!(out, "- {}", task_line(t));
                    }
                }
            } else {
                let _ = writeln!(
                    out,
                    "**{name}** {c} has {} SLI{}, run on a schedule to push a 0–1 health score:",
                    rec.slis.len(),
                    if rec.slis.len() > 1 { "s" } else { "" }
                );
                for t in &rec.slis {
                    let _ = writeln!(out, "- {}", task_line(t));
                }
            }
        }
        Attribute::Tasks => {
            let _ = writeln!(
                out,
                "**{name}** {c} has {} runbook task{}:",
                rec.tasks.len(),
                if rec.tasks.len() == 1 { "" } else { "s" }
            );
            for (i, t) in rec.tasks.iter().enumerate() {
                let _ = writeln!(out, "{}. {}", i + 1, task_line(t));
            }
            if !rec.slis.is_empty() {
                let _ = writeln!(
                    out,
                    "\nPlus {} SLI{} that run on a schedule.",
                    rec.slis.len(),
                    if rec.slis.len() > 1 { "s" } else { "" }
                );
            }
        }
        Attribute::Access => {
            if rec.derived.access == Access::ReadWrite {
                let _ = writeln!(
                    out,
                    "**{name}** {c} needs write access. {}",
                    access_line(rec)
                );
            } else {
                let _ = writeln!(out, "No — **{name}** {c} only reads. {}", access_line(rec));
            }
        }
        Attribute::Variables | Attribute::Secrets => {
            let vars: Vec<_> = rec
                .variables
                .iter()
                .filter(|v| {
                    if a == Attribute::Secrets {
                        v.kind == app::api::catalog::VariableKind::Secret
                    } else {
                        v.kind != app::api::catalog::VariableKind::Service
                    }
                })
                .collect();
            if vars.is_empty() {
                let _ = writeln!(
                    out,
                    "**{name}** {c} declares no {}.",
                    if a == Attribute::Secrets {
                        "secrets"
                    } else {
                        "variables"
                    }
                );
            } else {
                let _ = writeln!(out, "**{name}** {c} is configured with:");
                for v in vars {
                    let mut facts = vec![v.kind.to_string()];
                    if let Some(d) = v.default.as_ref().filter(|d| !d.trim().is_empty()) {
                        facts.push(format!("default `{}`", d.trim()));
                    } else if v.kind == app::api::catalog::VariableKind::User && !v.optional {
                        facts.push("required".into());
                    }
                    if !v.enum_values.is_empty() {
                        facts.push(format!("one of {}", v.enum_values.join(", ")));
                    }
                    let desc = v
                        .description
                        .as_deref()
                        .map(|d| format!(" — {}", sentence(d)))
                        .unwrap_or_default();
                    let _ = writeln!(out, "- `{}` ({}){desc}", v.name, facts.join(", "));
                }
            }
        }
        Attribute::Author => {
            let who = rec
                .author
                .as_deref()
                .unwrap_or("nobody is named in its metadata");
            let _ = writeln!(out, "**{name}** {c} was written by {who}.");
        }
        Attribute::Source => match &rec.source_url {
            Some(u) => {
                let _ = writeln!(
                    out,
                    "**{name}** {c} lives at <{u}> (collection `{}`).",
                    rec.collection
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "**{name}** {c} is in collection `{}` at `codebundles/{}/` (the collection has no web remote).",
                    rec.collection, rec.slug
                );
            }
        },
        Attribute::Platform => {
            let _ = writeln!(
                out,
                "**{name}** {c} runs against **{}** (decided from its {}).",
                platform_name(&rec.derived.platform),
                rec.derived.platform_source.replace('-', " ")
            );
        }
    }
    out.trim_end().to_string()
}
