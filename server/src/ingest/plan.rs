//! Phase one: read and hash every source, compare with what the catalog holds, and
//! parse only what changed. Writes nothing.

use super::bundle;
use super::confine;
use super::docs::{self, DocSection};
use super::pylib::{Keyword, LibraryTree};
use super::record::Warning;
use super::source::{self, Resolved};
use super::spool::Spool;
use super::walk::{self, SourceFile};
use super::{INGEST_VERSION, IndexOptions, IndexRequest, IngestError};
use crate::store::Db;
use rusqlite::OptionalExtension;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

pub(super) struct Plan {
    pub collections: Vec<CollectionPlan>,
    pub doc_sets: Vec<DocSetPlan>,
    pub removed_collections: Vec<String>,
    pub removed_doc_sets: Vec<String>,
}

impl Plan {
    pub fn has_changes(&self) -> bool {
        self.collections.iter().any(|c| !c.unchanged)
            || self.doc_sets.iter().any(|d| !d.unchanged)
            || !self.removed_collections.is_empty()
            || !self.removed_doc_sets.is_empty()
    }
}

pub(super) struct CollectionPlan {
    pub resolved: Resolved,
    pub content_hash: String,
    pub libraries_hash: String,
    pub docs_hash: String,
    pub unchanged: bool,
    /// New or changed bundles with their fingerprints, spooled to disk.
    pub changed: Spool,
    pub removed: Vec<String>,
    /// Replaced keywords, when the libraries changed.
    pub keywords: Option<Vec<Keyword>>,
    /// Replaced collection-level docs, when they changed.
    pub docs: Option<Vec<DocSection>>,
    /// Collection-level warnings (walk, libraries, docs); bundle warnings are in
    /// their records.
    pub warnings: Vec<Warning>,
}

pub(super) struct DocSetPlan {
    pub name: String,
    pub root: String,
    pub content_hash: String,
    pub unchanged: bool,
    pub files: usize,
    pub sections: Vec<DocSection>,
    pub warnings: Vec<Warning>,
}

fn hash_files<'a>(files: impl Iterator<Item = &'a SourceFile>, salt: &str) -> String {
    let mut sorted: Vec<&SourceFile> = files.collect();
    sorted.sort_by(|a, b| a.rel.cmp(&b.rel));
    let mut h = blake3::Hasher::new();
    h.update(INGEST_VERSION.as_bytes());
    h.update(salt.as_bytes());
    for f in sorted {
        h.update(f.rel.as_bytes());
        h.update(&[0]);
        h.update(f.hash.as_bytes());
        h.update(&[0]);
    }
    h.finalize().to_hex().to_string()
}

struct Stored {
    content_hash: String,
    libraries_hash: String,
    docs_hash: String,
    commit: Option<String>,
    fingerprints: HashMap<String, String>,
}

fn stored_collection(db: &Db, name: &str) -> Result<Option<Stored>, IngestError> {
    Ok(db.read_blocking(|c| {
        let row = c
            .query_row(
                "SELECT id, content_hash, libraries_hash, docs_hash, commit_sha FROM collections WHERE name = ?1",
                [name],
                |r| Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()?;
        let Some((id, content_hash, libraries_hash, docs_hash, commit)) = row else { return Ok(None) };
        let mut st = c.prepare("SELECT slug, fingerprint FROM bundles WHERE collection_id = ?1")?;
        let fingerprints = st.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
        Ok(Some(Stored { content_hash, libraries_hash, docs_hash, commit, fingerprints }))
    })?)
}

pub(super) fn plan(
    db: &Db,
    data_dir: &Path,
    req: &IndexRequest,
    opts: &IndexOptions,
) -> Result<Plan, IngestError> {
    let mut collections = Vec::new();
    let planned = plan_sources(db, data_dir, req, opts, &mut collections);
    if planned.is_err() {
        // A planning error ends the run: no staging checkout stays behind.
        for c in &collections {
            let _ = source::finish(&c.resolved, false);
        }
    }
    let (doc_sets, removed_collections, removed_doc_sets) = planned?;
    Ok(Plan {
        collections,
        doc_sets,
        removed_collections,
        removed_doc_sets,
    })
}

type Rest = (Vec<DocSetPlan>, Vec<String>, Vec<String>);

fn plan_sources(
    db: &Db,
    data_dir: &Path,
    req: &IndexRequest,
    opts: &IndexOptions,
    collections: &mut Vec<CollectionPlan>,
) -> Result<Rest, IngestError> {
    // Collections are read side by side: a no-change run is mostly walking,
    // reading and hashing files and waiting on git, and each collection's share
    // is independent of the others'. A pool of their own (at most 8 threads)
    // rather than rayon's global one (a thread per core): planning waits on git
    // and the disk as much as it computes, and a fetch stalled on a slow server
    // should not take a thread that other work in the process shares.
    use rayon::prelude::*;
    let bars = indicatif::MultiProgress::new();
    let plan_all = || -> Vec<Result<CollectionPlan, IngestError>> {
        req.collections
            .par_iter()
            .map(|src| {
                let resolved = source::resolve(src, data_dir)?;
                let staged = resolved.clone();
                let planned = plan_collection(db, data_dir, resolved, opts, &bars);
                if planned.is_err() {
                    let _ = source::finish(&staged, false);
                }
                planned
            })
            .collect()
    };
    let planned = match rayon::ThreadPoolBuilder::new()
        .num_threads(req.collections.len().clamp(1, 8))
        .build()
    {
        Ok(pool) => pool.install(plan_all),
        Err(_) => plan_all(),
    };
    // Every planned collection is handed back, so that the caller finishes its
    // staging checkout when another one failed; the first error, in request
    // order, ends the run and the others are logged.
    let mut first_error = None;
    for p in planned {
        match p {
            Ok(plan) => collections.push(plan),
            Err(e) if first_error.is_none() => first_error = Some(e),
            Err(e) => tracing::warn!(error = %e, "another collection failed too"),
        }
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    let mut doc_sets = Vec::new();
    for d in &req.docs {
        doc_sets.push(plan_doc_set(db, d)?);
    }
    let keep_c: Vec<&str> = req.collections.iter().map(|c| c.name.as_str()).collect();
    let keep_d: Vec<&str> = req.docs.iter().map(|d| d.name.as_str()).collect();
    let (removed_collections, removed_doc_sets) = db.read_blocking(|c| {
        let names = |sql: &str| -> rusqlite::Result<Vec<String>> {
            let mut st = c.prepare(sql)?;

            st.query_map([], |r| r.get(0))?.collect()
        };
        Ok((
            names("SELECT name FROM collections ORDER BY name")?,
            names("SELECT name FROM doc_sets ORDER BY name")?,
        ))
    })?;
    Ok((
        doc_sets,
        removed_collections
            .into_iter()
            .filter(|n| !keep_c.contains(&n.as_str()))
            .collect(),
        removed_doc_sets
            .into_iter()
            .filter(|n| !keep_d.contains(&n.as_str()))
            .collect(),
    ))
}

/// Every readable file of a collection, grouped as the planner needs them.
/// A bundle's readable files and the warnings found reading them.
type BundleFiles = (Vec<SourceFile>, Vec<Warning>);

pub(super) struct Scan {
    pub bundle_files: BTreeMap<String, BundleFiles>,
    pub lib_files: Vec<SourceFile>,
    pub doc_files: Vec<SourceFile>,
    pub warnings: Vec<Warning>,
}

impl Scan {
    pub fn fingerprints(&self) -> BTreeMap<String, String> {
        self.bundle_files
            .iter()
            .map(|(slug, (files, _))| (slug.clone(), hash_files(files.iter(), slug)))
            .collect()
    }
}

/// `root/name` is a real directory; a symlinked one is skipped with a warning.
fn top_dir(root: &Path, name: &str, warnings: &mut Vec<Warning>) -> bool {
    let path = root.join(name);
    if confine::is_symlink(&path) {
        warnings.push(Warning::new(
            format!("{name}/"),
            None,
            "symlink skipped (symlinks are not followed)",
        ));
        return false;
    }
    confine::is_plain_dir(&path)
}

/// Folders of installed or built software, whose READMEs are other projects' docs.
const VENDORED: &[&str] = &[
    "venv",
    "env",
    "vendor",
    "site-packages",
    "build",
    "dist",
    "target",
    "node_modules",
];

/// The collection's top-level folders other than codebundles/ (walked on its own),
/// hidden and vendored ones, sorted so that a scan is deterministic. A symlink is
/// kept so that `top_dir` warns about it.
fn top_dirs(root: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir() || t.is_symlink()))
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| n != "codebundles" && !n.starts_with('.'))
                .filter(|n| !VENDORED.contains(&n.as_str()))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

pub(super) fn scan(name: &str, root: &Path) -> Result<Scan, IngestError> {
    let root = root.to_path_buf();
    let mut warnings = Vec::new();

    // Bundles: every non-hidden directory under codebundles/.
    let mut bundle_files: BTreeMap<String, BundleFiles> = BTreeMap::new();
    let bundles_dir = root.join("codebundles");
    if !confine::is_plain_dir(&bundles_dir) {
        return Err(IngestError::Source {
            name: name.to_string(),
            reason: "codebundles/ is not a directory (symlinks are not followed)".into(),
        });
    }
    let mut entries: Vec<_> = std::fs::read_dir(&bundles_dir)
        .map_err(|e| IngestError::Source {
            name: name.to_string(),
            reason: format!("cannot read codebundles/: {e}"),
        })?
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.file_name());
    let mut loose_docs = Vec::new();
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        let path = e.path();
        if docs::is_rules_file(&name) {
            let mut w = Vec::new();
            if let Ok(Some(f)) = walk::read(&root, &path, &mut w) {
                loose_docs.push(f);
            }
            warnings.extend(w);
            continue;
        }
        if name.starts_with('.') {
            continue;
        }
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_symlink() {
            warnings.push(Warning::new(
                format!("codebundles/{name}"),
                None,
                "symlink skipped (symlinks are not followed)",
            ));
            continue;
        }
        if ft.is_dir() {
            let mut own = Vec::new();
            let mut files = walk::walk(&root, &path, &mut own);
            // Only hashes are needed to find what changed; the text of the
            // (few) changed bundles is read again when they are parsed.
            files.iter_mut().for_each(|f| f.text = String::new());
            bundle_files.insert(name, (files, own));
        } else if ft.is_file() && docs::is_markdown(&name) {
            let mut w = Vec::new();
            if let Ok(Some(f)) = walk::read(&root, &path, &mut w) {
                loose_docs.push(f);
            }
            warnings.extend(w);
        }
    }

    // Keyword libraries and the markdown of every other top-level folder
    // (docs/, libraries/README.md, examples/, tests/…): a collection documents its
    // conventions wherever its authors found it natural, and a user asking about
    // them should not need to know where.
    let mut lib_files: Vec<SourceFile> = Vec::new();
    let mut folder_docs: Vec<SourceFile> = Vec::new();
    for dir in top_dirs(&root) {
        if !top_dir(&root, &dir, &mut warnings) {
            continue;
        }
        let is_library = dir == "libraries";
        let wanted = |rel: &str| docs::is_markdown(rel) || (is_library && rel.ends_with(".py"));
        for f in walk::walk_matching(&root, &root.join(&dir), wanted, &mut warnings) {
            if docs::is_markdown(&f.rel) {
                folder_docs.push(f);
            } else if is_library
                && f.rel.ends_with(".py")
                && !f.rel.contains("/robot_tests/")
                && !f.rel.contains("/tests/")
            {
                lib_files.push(f);
            }
        }
    }

    // Collection docs: root markdown files and authoring rules, the folders' markdown,
    // and loose files in codebundles/.
    let mut doc_files: Vec<SourceFile> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&root) {
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().to_string();
            let is_file = e.file_type().is_ok_and(|t| t.is_file());
            let is_doc =
                (docs::is_markdown(&name) && !name.starts_with('.')) || docs::is_rules_file(&name);
            if is_doc && confine::is_symlink(&e.path()) {
                warnings.push(Warning::new(
                    name.clone(),
                    None,
                    "symlink skipped (symlinks are not followed)",
                ));
            }
            if is_file
                && is_doc
                && let Ok(Some(f)) = walk::read(&root, &e.path(), &mut warnings)
            {
                doc_files.push(f);
            }
        }
    }
    doc_files.extend(folder_docs);
    doc_files.extend(loose_docs);

    Ok(Scan {
        bundle_files,
        lib_files,
        doc_files,
        warnings,
    })
}

fn plan_collection(
    db: &Db,
    data_dir: &Path,
    resolved: Resolved,
    opts: &IndexOptions,
    bars: &indicatif::MultiProgress,
) -> Result<CollectionPlan, IngestError> {
    let Scan {
        bundle_files,
        lib_files,
        doc_files,
        warnings,
    } = scan(&resolved.name, &resolved.root)?;
    let all_files = bundle_files
        .values()
        .flat_map(|(f, _)| f.iter())
        .chain(lib_files.iter())
        .chain(doc_files.iter());
    let content_hash = hash_files(all_files, "");
    let libraries_hash = hash_files(lib_files.iter(), "libraries");
    let docs_hash = hash_files(doc_files.iter(), "docs");

    let stored = stored_collection(db, &resolved.name)?;
    let unchanged = stored.as_ref().is_some_and(|s| {
        s.content_hash == content_hash
            && s.commit == resolved.commit
            && stored_root_matches(db, &resolved)
    });

    let mut plan = CollectionPlan {
        resolved,
        content_hash,
        libraries_hash: libraries_hash.clone(),
        docs_hash: docs_hash.clone(),
        unchanged,
        changed: Spool::new(),
        removed: Vec::new(),
        keywords: None,
        docs: None,
        warnings,
    };
    if unchanged {
        return Ok(plan);
    }

    let fingerprints = stored
        .as_ref()
        .map(|s| s.fingerprints.clone())
        .unwrap_or_default();
    let links = plan.resolved.links.clone();
    let todo: Vec<(&String, &BundleFiles, String)> = bundle_files
        .iter()
        .map(|(slug, entry)| (slug, entry, hash_files(entry.0.iter(), slug)))
        .filter(|(slug, _, fp)| fingerprints.get(*slug) != Some(fp))
        .collect();
    let bar = progress(
        opts.progress && !todo.is_empty(),
        todo.len() as u64,
        &plan.resolved.name,
        bars,
    );
    for (slug, (files, file_warnings), fp) in todo {
        bar.set_message(slug.clone());
        // The scan kept hashes, not text: read this bundle's files again, parse,
        // spool, and let the text go before the next bundle.
        let files = walk::with_text(&plan.resolved.root, files);
        let mut record = bundle::build(&plan.resolved.name, slug, &files, links.as_ref());
        record.warnings.splice(0..0, file_warnings.iter().cloned());
        plan.changed.push(data_dir, &record, &fp)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    plan.removed = fingerprints
        .keys()
        .filter(|s| !bundle_files.contains_key(*s))
        .cloned()
        .collect();
    plan.removed.sort();

    if stored
        .as_ref()
        .is_none_or(|s| s.libraries_hash != libraries_hash)
    {
        let mut tree = LibraryTree::default();
        for f in &lib_files {
            tree.add_file(&f.rel, &f.text);
        }
        let mut keywords = Vec::new();
        for lib in tree.public_libraries() {
            keywords.extend(tree.keywords(lib).unwrap_or_default());
        }
        // A keyword reachable from a package and a submodule is listed once, under
        // the shortest library name (the one robot files import).
        keywords.sort_by(|a, b| {
            (a.file.as_str(), a.line, a.library.len()).cmp(&(
                b.file.as_str(),
                b.line,
                b.library.len(),
            ))
        });
        keywords.dedup_by(|a, b| a.file == b.file && a.line == b.line && a.name == b.name);
        plan.keywords = Some(keywords);
    }
    if stored.as_ref().is_none_or(|s| s.docs_hash != docs_hash) {
        plan.docs = Some(
            doc_files
                .iter()
                .flat_map(|f| docs::sections_of(f, links.as_ref()))
                .collect(),
        );
    }
    Ok(plan)
}

/// A collection moved to another directory must be re-indexed (paths and links).
fn stored_root_matches(db: &Db, r: &Resolved) -> bool {
    let root = r.live_root.to_string_lossy().to_string();
    db.read_blocking(|c| {
        Ok(c.query_row(
            "SELECT root = ?2 FROM collections WHERE name = ?1",
            [&r.name, &root],
            |row| row.get::<_, bool>(0),
        )
        .unwrap_or(false))
    })
    .unwrap_or(false)
}

fn plan_doc_set(db: &Db, d: &super::DocSource) -> Result<DocSetPlan, IngestError> {
    if !d.path.is_dir() {
        return Err(IngestError::Docs {
            name: d.name.clone(),
            reason: format!("{} is not a directory", d.path.display()),
        });
    }
    let mut warnings = Vec::new();
    let files = docs::markdown_files(&d.path, &mut warnings);
    let content_hash = hash_files(files.iter(), "docset");
    let root = d.path.to_string_lossy().to_string();
    let stored: Option<(String, String)> = db.read_blocking(|c| {
        Ok(c.query_row(
            "SELECT content_hash, root FROM doc_sets WHERE name = ?1",
            [&d.name],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
    })?;
    let unchanged = stored.is_some_and(|(h, r)| h == content_hash && r == root);
    let sections = if unchanged {
        Vec::new()
    } else {
        files
            .iter()
            .flat_map(|f| docs::sections_of(f, None))
            .collect()
    };
    Ok(DocSetPlan {
        name: d.name.clone(),
        root,
        content_hash,
        unchanged,
        files: files.len(),
        sections,
        warnings,
    })
}

/// One bar per collection, kept apart on the terminal while collections are
/// planned side by side.
fn progress(
    show: bool,
    len: u64,
    name: &str,
    bars: &indicatif::MultiProgress,
) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = bars.add(indicatif::ProgressBar::new(len));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{prefix:>20} [{bar:30}] {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(name.to_string());
    bar
}
