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
    let dir = BundleFiles { files, base: &base };
    let mut warnings = Vec::new();

    let runbook = dir.robot("runbook.robot", &mut warnings);
    let sli = dir.robot("sli.robot", &mut warnings);
    if runbook.is_none() && sli.is_none() {
        warnings.push(Warning::new(
            format!("codebundles/{slug}"),
            None,
            "no runbook.robot or sli.robot",
        ));
    }
    let readme = dir.readme();
    let extra = dir.extras(&mut warnings);

    let rb = runbook.as_ref().map(|(_, r)| r);
    let sl = sli.as_ref().map(|(_, r)| r);
    let runbook_display_name = metadata(rb, "Display Name");
    let sli_display_name = metadata(sl, "Display Name");
    let display_name = runbook_display_name
        .clone()
        .or_else(|| sli_display_name.clone())
        .or_else(|| readme.as_ref().and_then(|r| r.title.clone()))
        .unwrap_or_else(|| title_case(slug));
    let runbook_doc = documentation(rb);
    let sli_doc = documentation(sl);
    let description = runbook_doc
        .clone()
        .or_else(|| sli_doc.clone())
        .or_else(|| readme.as_ref().and_then(readme_summary))
        .or_else(|| extra.skill.as_ref().and_then(|s| s.description.clone()))
        .or_else(|| extra.meta.as_ref().and_then(|m| m.description.clone()))
        .unwrap_or_default();
    let settings = Settings::read(runbook.iter().chain(sli.iter()), &mut warnings);
    let author = metadata(rb, "Author").or_else(|| metadata(sl, "Author"));

    let tasks = tasks_of(&runbook, links);
    let slis = tasks_of(&sli, links);
    warn_read_only_writes(tasks.iter().chain(slis.iter()), &mut warnings);
    let derived = derive_facts(slug, &extra, &settings, &tasks, &slis);
    let level_of_detail = extra
        .rules
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
        supports: settings.supports,
        force_tags: settings.force_tags,
        libraries: settings.libraries,
        variables: settings.variables,
        tasks,
        slis,
        readme,
        rules: extra.rules,
        templates: extra.templates,
        skill: extra.skill,
        meta: extra.meta,
        scripts: extra.scripts,
        files: files_out,
        derived,
        level_of_detail,
        source_url: links.map(|l| l.tree(&format!("codebundles/{slug}"))),
        warnings,
    }
}

/// The bundle's files, looked up by their path inside the bundle.
struct BundleFiles<'a> {
    files: &'a [SourceFile],
    /// `codebundles/<slug>/`.
    base: &'a str,
}

impl<'a> BundleFiles<'a> {
    fn local(&self, f: &SourceFile) -> Option<String> {
        f.rel.strip_prefix(self.base).map(str::to_string)
    }

    fn find(&self, name: &str) -> Option<&'a SourceFile> {
        self.files
            .iter()
            .find(|f| f.rel.strip_prefix(self.base) == Some(name))
    }

    /// An entry point parsed, with its parser's warnings.
    fn robot(&self, name: &str, warnings: &mut Vec<Warning>) -> Option<(String, RobotFile)> {
        let f = self.find(name)?;
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
    }

    fn readme(&self) -> Option<Readme> {
        self.find("README.md").map(|f| {
            let doc = markdown::parse(&f.text);
            Readme {
                file: f.rel.clone(),
                title: doc.title.clone(),
                headings: doc.headings,
                markdown: f.text.clone(),
                sections: doc.sections,
            }
        })
    }

    /// RunWhen's generation rules, templates and manifests, and the scripts.
    fn extras(&self, warnings: &mut Vec<Warning>) -> Extras {
        let mut out = Extras::default();
        for f in self.files {
            let Some(name) = self.local(f) else { continue };
            if name.starts_with(".runwhen/generation-rules/") {
                out.rules
                    .extend(runwhen::generation_rules(&f.rel, &f.text, warnings));
            } else if name.starts_with(".runwhen/templates/") {
                out.templates.push(TemplateRecord {
                    file: f.rel.clone(),
                    hints: runwhen::template_hints(&f.text),
                });
            } else if name == "SKILL-TEMPLATE.md" {
                out.skill = runwhen::skill_template(&f.rel, &f.text, warnings);
            } else if name == "meta.yaml" || name == "meta.yml" {
                out.meta = runwhen::meta_yaml(&f.rel, &f.text, warnings);
            } else if [".sh", ".py", ".j2", ".bash"]
                .iter()
                .any(|e| name.ends_with(e))
            {
                out.scripts.push(name);
            }
        }
        out
    }
}

#[derive(Default)]
struct Extras {
    rules: Vec<runwhen::GenerationRules>,
    templates: Vec<TemplateRecord>,
    skill: Option<runwhen::ManifestHints>,
    meta: Option<runwhen::ManifestHints>,
    scripts: Vec<String>,
}

/// A `Metadata` value of a robot file's settings, when set.
fn metadata(r: Option<&RobotFile>, key: &str) -> Option<String> {
    r.and_then(|r| r.metadata(key))
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

/// A robot file's `Documentation`, when set.
fn documentation(r: Option<&RobotFile>) -> Option<String> {
    r.map(|r| r.documentation.trim().to_string())
        .filter(|d| !d.is_empty())
}

/// The README's first real paragraph.
fn readme_summary(r: &Readme) -> Option<String> {
    r.sections
        .iter()
        .map(|s| s.text.trim())
        .find(|t| t.len() > 30)
        .map(|t| t.split("\n\n").next().unwrap_or(t).to_string())
}

/// What the entry points' settings declare, merged: `Supports`, force tags,
/// libraries and imported variables.
#[derive(Default)]
struct Settings {
    supports: Vec<String>,
    force_tags: Vec<String>,
    libraries: Vec<String>,
    variables: Vec<Variable>,
}

impl Settings {
    fn read<'a>(
        files: impl Iterator<Item = &'a (String, RobotFile)>,
        warnings: &mut Vec<Warning>,
    ) -> Settings {
        let mut out = Settings::default();
        for (file, r) in files {
            if let Some(s) = r.metadata("Supports").filter(|s| !s.trim().is_empty()) {
                out.supports.push(s.trim().to_string());
            }
            for t in &r.force_tags {
                if !out.force_tags.contains(t) {
                    out.force_tags.push(t.clone());
                }
            }
            for l in &r.libraries {
                if !out.libraries.contains(&l.name) {
                    out.libraries.push(l.name.clone());
                }
            }
            for v in &r.imports {
                if out
                    .variables
                    .iter()
                    .any(|x| x.name == v.name && x.kind == v.kind)
                {
                    continue;
                }
                out.variables.push(Variable {
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
        out
    }
}

fn tasks_of(r: &Option<(String, RobotFile)>, links: Option<&LinkBase>) -> Vec<TaskRecord> {
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
}

/// A task tagged read-only whose body runs a write command is worth a warning:
/// one of the two is wrong.
fn warn_read_only_writes<'a>(
    tasks: impl Iterator<Item = &'a TaskRecord>,
    warnings: &mut Vec<Warning>,
) {
    for t in tasks {
        if derive::tag_access(&t.tags) == Some(derive::Access::ReadOnly) && !t.writes.is_empty() {
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
}

/// Platform, resource types and access, from everything the bundle says.
fn derive_facts(
    slug: &str,
    extra: &Extras,
    settings: &Settings,
    tasks: &[TaskRecord],
    slis: &[TaskRecord],
) -> derive::Derived {
    let secrets: Vec<String> = settings
        .variables
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
    let template_hints: Vec<runwhen::TemplateHints> =
        extra.templates.iter().map(|t| t.hints.clone()).collect();
    derive::derive(&derive::Inputs {
        slug,
        rules: &extra.rules,
        templates: &template_hints,
        supports: &settings.supports,
        libraries: &settings.libraries,
        secrets: &secrets,
        tasks: &task_tags,
        skill: extra.skill.as_ref(),
    })
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
        access,
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
