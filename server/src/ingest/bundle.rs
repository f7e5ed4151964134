//! One codebundle directory → one `BundleRecord`.

use super::derive::{self, strip_placeholders, task_access};
use super::markdown;
use super::record::*;
use super::robot::{self, RobotFile, TaskDef};
use super::runwhen;
use super::walk::SourceFile;

pub const ENTRY_POINTS: [&str; 2] = ["runbook.robot", "sli.robot"];

/// Builds the record from the bundle's readable files (paths relative to the
/// collection root, all under `codebundles/<slug>/`).
pub fn build(
    collection: &str,
    slug: &str,
    files: &[SourceFile],
    links: Option<&LinkBase>,
) -> BundleRecord {
    let base = format!("codebundles/{slug}/");
    let local = |f: &SourceFile| f.rel.strip_prefix(&base).map(str::to_string);
    let find = |name: &str| files.iter().find(|f| local(f).as_deref() == Some(name));
    let mut warnings = Vec::new();

    let parse_robot = |name: &str, warnings: &mut Vec<Warning>| -> Option<(String, RobotFile)> {
        let f = find(name)?;
        if f.text.trim().is_empty() {
            warnings.push(Warning::new(&f.rel, None, "empty robot file"));
        }
        let parsed = robot::parse(&f.text);
        warnings.extend(
            parsed
                .warnings
                .iter()
                .map(|w| Warning::new(&f.rel, Some(w.line), &w.message)),
        );
        Some((f.rel.clone(), parsed))
    };
    let runbook = parse_robot("runbook.robot", &mut warnings);
    let sli = parse_robot("sli.robot", &mut warnings);
    if runbook.is_none() && sli.is_none() {
        warnings.push(Warning::new(
            format!("codebundles/{slug}"),
            None,
            "no runbook.robot or sli.robot",
        ));
    }

    let readme = find("README.md").map(|f| {
        let doc = markdown::parse(&f.text);
        Readme {
            file: f.rel.clone(),
            title: doc.title.clone(),
            headings: doc.headings,
            markdown: f.text.clone(),
            sections: doc.sections,
        }
    });

    let mut rules = Vec::new();
    let mut templates = Vec::new();
    let mut skill = None;
    let mut meta = None;
    let mut scripts = Vec::new();
    for f in files {
        let Some(name) = local(f) else { continue };
        if name.starts_with(".runwhen/generation-rules/") {
            rules.extend(runwhen::generation_rules(&f.rel, &f.text, &mut warnings));
        } else if name.starts_with(".runwhen/templates/") {
            templates.push(TemplateRecord {
                file: f.rel.clone(),
                hints: runwhen::template_hints(&f.text),
            });
        } else if name == "SKILL-TEMPLATE.md" {
            skill = runwhen::skill_template(&f.rel, &f.text, &mut warnings);
        } else if name == "meta.yaml" || name == "meta.yml" {
            meta = runwhen::meta_yaml(&f.rel, &f.text, &mut warnings);
        } else if [".sh", ".py", ".j2", ".bash"]
            .iter()
            .any(|e| name.ends_with(e))
        {
            scripts.push(name);
        }
    }

    let rb = runbook.as_ref().map(|(_, r)| r);
    let sl = sli.as_ref().map(|(_, r)| r);
    let meta_of = |r: Option<&RobotFile>, key: &str| {
        r.and_then(|r| r.metadata(key))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let runbook_display_name = meta_of(rb, "Display Name");
    let sli_display_name = meta_of(sl, "Display Name");
    let display_name = runbook_display_name
        .clone()
        .or_else(|| sli_display_name.clone())
        .or_else(|| readme.as_ref().and_then(|r| r.title.clone()))
        .unwrap_or_else(|| title_case(slug));
    let doc_of = |r: Option<&RobotFile>| {
        r.map(|r| r.documentation.trim().to_string())
            .filter(|d| !d.is_empty())
    };
    let runbook_doc = doc_of(rb);
    let sli_doc = doc_of(sl);
    let readme_summary = readme.as_ref().and_then(|r| {
        r.sections
            .iter()
            .map(|s| s.text.trim())
            .find(|t| t.len() > 30)
            .map(|t| t.split("\n\n").next().unwrap_or(t).to_string())
    });
    let description = runbook_doc
        .clone()
        .or_else(|| sli_doc.clone())
        .or(readme_summary)
        .or_else(|| {
            skill
                .as_ref()
                .and_then(|s: &runwhen::ManifestHints| s.description.clone())
        })
        .or_else(|| {
            meta.as_ref()
                .and_then(|m: &runwhen::ManifestHints| m.description.clone())
        })
        .unwrap_or_default();

    let mut supports = Vec::new();
    let mut force_tags: Vec<String> = Vec::new();
    let mut libraries: Vec<String> = Vec::new();
    let mut variables: Vec<Variable> = Vec::new();
    for (file, r) in runbook.iter().chain(sli.iter()) {
        if let Some(s) = r.metadata("Supports").filter(|s| !s.trim().is_empty()) {
            supports.push(s.trim().to_string());
        }
        for t in &r.force_tags {
            if !force_tags.contains(t) {
                force_tags.push(t.clone());
            }
        }
        for l in &r.libraries {
            if !libraries.contains(&l.name) {
                libraries.push(l.name.clone());
            }
        }
        for v in &r.imports {
            if variables
                .iter()
                .any(|x| x.name == v.name && x.kind == v.kind)
            {
                continue;
            }
            variables.push(Variable {
                name: v.name.clone(),
                kind: v.kind,
                var_type: v.var_type.clone(),
                description: v.description.clone(),
                pattern: v.pattern.clone(),
                example: v.example.clone(),
                default: v.default.clone(),
                enum_values: v.enum_values.clone(),
                optional: v.optional,
                dynamic: v.dynamic,
                file: file.clone(),
                line: v.line,
            });
            if v.dynamic {
                warnings.push(Warning::new(
                    file,
                    Some(v.line),
                    format!("{} is imported under a computed name", v.name),
                ));
            }
        }
    }
    let author = meta_of(rb, "Author").or_else(|| meta_of(sl, "Author"));

    let tasks_of = |r: &Option<(String, RobotFile)>| -> Vec<TaskRecord> {
        r.as_ref()
            .map(|(file, rf)| {
                rf.tasks
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let mut r = task_record(file, t, links);
                        r.sites = rf.sites_of(i);
                        r
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let tasks = tasks_of(&runbook);
    let slis = tasks_of(&sli);

    let secrets: Vec<String> = variables
        .iter()
        .filter(|v| v.kind == app::api::catalog::VariableKind::Secret)
        .map(|v| v.name.clone())
        .collect();
    let task_tags: Vec<derive::TaskFacts> = tasks
        .iter()
        .chain(slis.iter())
        .map(|t| derive::TaskFacts {
            name: t.name.clone(),
            tags: t.tags.clone(),
            writes: t.writes.clone(),
        })
        .collect();
    for t in tasks.iter().chain(slis.iter()) {
        if derive::tag_access(&t.tags) == Some(derive::READ_ONLY) && !t.writes.is_empty() {
            warnings.push(Warning::new(
                &t.file,
                Some(t.line_start),
                format!(
                    "task \"{}\" is tagged read-only but runs `{}`",
                    t.title,
                    t.writes.join("`, `")
                ),
            ));
        }
    }
    let template_hints: Vec<runwhen::TemplateHints> =
        templates.iter().map(|t| t.hints.clone()).collect();
    let derived = derive::derive(&derive::Inputs {
        slug,
        rules: &rules,
        templates: &template_hints,
        supports: &supports,
        libraries: &libraries,
        secrets: &secrets,
        tasks: &task_tags,
        skill: skill.as_ref(),
    });
    let level_of_detail = rules
        .iter()
        .flat_map(|r| r.levels_of_detail.iter())
        .next()
        .cloned();

    let files_out = files
        .iter()
        .map(|f| FileRecord {
            path: f.rel.clone(),
            size: f.size,
            hash: f.hash.clone(),
            url: links.map(|l| l.file(&f.rel)),
        })
        .collect();
    BundleRecord {
        collection: collection.to_string(),
        slug: slug.to_string(),
        display_name,
        runbook_display_name,
        sli_display_name,
        description,
        runbook_doc,
        sli_doc,
        author,
        supports,
        force_tags,
        libraries,
        variables,
        tasks,
        slis,
        readme,
        rules,
        templates,
        skill,
        meta,
        scripts,
        files: files_out,
        derived,
        level_of_detail,
        source_url: links.map(|l| l.tree(&format!("codebundles/{slug}"))),
        warnings,
    }
}

fn task_record(file: &str, t: &TaskDef, links: Option<&LinkBase>) -> TaskRecord {
    let facts = derive::TaskFacts {
        name: t.name.clone(),
        tags: t.tags.clone(),
        writes: t.writes.clone(),
    };
    let (access, access_source) = task_access(&facts);
    TaskRecord {
        name: t.name.clone(),
        title: t.name.trim().to_string(),
        clean: strip_placeholders(&t.name),
        doc: t.doc.clone(),
        tags: t.tags.clone(),
        access: access.into(),
        access_source: access_source.into(),
        file: file.to_string(),
        line_start: t.line_start,
        line_end: t.line_end,
        calls: t.calls.clone(),
        sites: t.sites.clone(),
        writes: t.writes.clone(),
        url: links.map(|l| l.lines(file, t.line_start, t.line_end)),
    }
}

/// `k8s-pod-health` → "K8s Pod Health".
pub fn title_case(slug: &str) -> String {
    slug.split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}
