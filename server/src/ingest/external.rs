//! Keywords of libraries that no indexed collection ships (`RW.Core` comes with the
//! RunWhen runtime, not with any codecollection). Their only evidence is how bundles
//! call them, so each becomes a catalog keyword derived from its call sites: the
//! name as most often written, the arguments callers pass, where typical calls are
//! and whether SLIs or tasks use it. They are searchable and cited like shipped
//! keywords, and re-derived at every index run.

use super::IngestError;
use super::chunk_rows::{Owner, insert_chunk};
use super::pylib::Keyword;
use super::robot::{CallSite, normalize};
use rusqlite::{Transaction, params};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Everything the calls of one external keyword say about it.
#[derive(Default)]
struct Evidence {
    spellings: HashMap<String, usize>,
    calls: usize,
    sli_calls: usize,
    bundles: HashSet<i64>,
    named: HashMap<String, usize>,
    positional: HashMap<usize, usize>,
    /// What callers pass first (`kubeconfig`, `${score}`), as words, by how often.
    first_values: HashMap<String, usize>,
    /// The `description=` texts callers give, by how often.
    descriptions: HashMap<String, usize>,
    /// collection id → calls, and its first call site (file, line).
    by_collection: BTreeMap<i64, (usize, String, usize)>,
}

impl Evidence {
    fn add(
        &mut self,
        cid: i64,
        kind: super::TaskKind,
        bundle: i64,
        file: &str,
        site: &CallSite,
        name: &str,
    ) {
        *self.spellings.entry(name.to_string()).or_default() += 1;
        self.calls += 1;
        if kind == super::TaskKind::Sli {
            self.sli_calls += 1;
        }
        self.bundles.insert(bundle);
        for n in site.named() {
            *self.named.entry(n.to_string()).or_default() += 1;
        }
        *self.positional.entry(site.positional()).or_default() += 1;
        if let Some(first) = site
            .args
            .first()
            .filter(|a| site.named().all(|n| !a.starts_with(n)))
        {
            let words = crate::index::text::tokens(first).join(" ");
            if !words.is_empty() {
                *self.first_values.entry(words).or_default() += 1;
            }
        }
        for a in &site.args {
            if let Some(d) = a
                .strip_prefix("description=")
                .filter(|d| !d.trim().is_empty())
            {
                *self.descriptions.entry(d.trim().to_string()).or_default() += 1;
            }
        }
        let e = self
            .by_collection
            .entry(cid)
            .or_insert_with(|| (0, file.to_string(), site.line));
        e.0 += 1;
    }

    /// The spelling most callers use (ties: the alphabetically first, for stable ids).
    fn name(&self) -> String {
        let mut v: Vec<(&String, &usize)> = self.spellings.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        v.first().map(|(s, _)| s.to_string()).unwrap_or_default()
    }

    /// Positional arguments as most calls pass them, then named ones by how often
    /// they are passed: `value, sub_name=`.
    fn args(&self) -> String {
        let positional = self
            .positional
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map_or(0, |(n, _)| *n);
        let mut named: Vec<(&String, &usize)> = self.named.iter().collect();
        named.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        (1..=positional)
            .map(|i| format!("arg{i}"))
            .chain(named.iter().take(10).map(|(n, _)| format!("{n}=")))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn doc(&self, library: &str) -> String {
        let share = self.sli_calls as f32 / self.calls.max(1) as f32;
        let used_in = if share >= 0.5 {
            "mostly in SLIs (service level indicators, which measure and report a metric)"
        } else if self.sli_calls > 0 {
            "in runbook tasks and SLIs"
        } else {
            "in runbook tasks"
        };
        let mut doc = format!(
            "Known from its calls: {} in {} bundle{}, {used_in}. {library} is imported by the bundles but shipped by no indexed collection, so there is no source to show.",
            self.calls,
            self.bundles.len(),
            if self.bundles.len() == 1 { "" } else { "s" },
        );
        // What callers pass says what the keyword is for when no source does
        // (Import Secret takes `kubeconfig`, Push Metric `${score}`).
        let values = most_common(&self.first_values, 6);
        if !values.is_empty() {
            doc.push_str(&format!(" Called with: {}.", values.join("; ")));
        }
        let described = most_common(&self.descriptions, 3);
        if !described.is_empty() {
            doc.push_str(&format!(" Described as: {}", described.join(" / ")));
        }
        doc
    }

    /// The collection with the most calls and its first call site.
    fn home(&self) -> Option<(i64, &str, usize)> {
        self.by_collection
            .iter()
            .max_by(|a, b| a.1.0.cmp(&b.1.0).then_with(|| b.0.cmp(a.0)))
            .map(|(cid, (_, file, line))| (*cid, file.as_str(), *line))
    }
}

/// Replaces every external keyword with one derived from the current call sites.
/// Runs before the full-text index is pruned, so removed ones leave no FTS rows.
pub(super) fn derive(tx: &Transaction) -> Result<(), IngestError> {
    tx.execute("DELETE FROM keywords WHERE external = 1", [])?;
    let external: HashSet<String> = {
        let mut st = tx.prepare(
            "SELECT DISTINCT library FROM bundle_libraries l
             WHERE NOT EXISTS (SELECT 1 FROM keywords k WHERE k.library = l.library AND k.external = 0)",
        )?;
        st.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?
    };
    if external.is_empty() {
        return Ok(());
    }
    let mut imports: HashMap<i64, Vec<String>> = HashMap::new();
    {
        let mut st = tx.prepare("SELECT bundle_id, library FROM bundle_libraries")?;
        for row in st.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))? {
            let (b, l) = row?;
            if external.contains(&l) {
                imports.entry(b).or_default().push(l);
            }
        }
    }
    let mut found: BTreeMap<(String, String), Evidence> = BTreeMap::new();
    for t in super::calls::all(tx)? {
        let Some(libs) = imports.get(&t.bundle_id) else {
            continue;
        };
        for site in &t.sites {
            // Only calls that name their library: a bare name could come from any
            // import, and a wrong attribution would be shown as fact.
            let Some((lib, name)) = site.qualified_by(libs) else {
                continue;
            };
            found
                .entry((lib.clone(), normalize(name)))
                .or_default()
                .add(t.collection_id, t.kind, t.bundle_id, &t.file, site, name);
        }
    }
    let links = collection_links(tx)?;
    let mut ins = tx.prepare(
        "INSERT INTO keywords (collection_id, library, name, python_name, class_name, args, doc, file, line, url, external)
         VALUES (?1, ?2, ?3, '', NULL, ?4, ?5, ?6, ?7, ?8, 1)
         ON CONFLICT (collection_id, library, name) DO NOTHING",
    )?;
    for ((library, _), ev) in &found {
        let Some((cid, file, line)) = ev.home() else {
            continue;
        };
        let k = Keyword {
            library: library.clone(),
            name: ev.name(),
            python_name: String::new(),
            class_name: None,
            args: ev.args(),
            doc: ev.doc(library),
            file: file.to_string(),
            line,
        };
        let url = links.get(&cid).map(|l| l.lines(file, line, line));
        if ins.execute(params![
            cid,
            k.library,
            k.name,
            k.args,
            k.doc,
            k.file,
            k.line as i64,
            url
        ])? == 1
        {
            let kid = tx.last_insert_rowid();
            insert_chunk(
                tx,
                &super::chunks::keyword_chunk(&format!("external:{library}"), &k),
                Owner::Keyword(kid),
            )?;
        }
    }
    Ok(())
}

/// Each collection's source-link base, when it has one.
fn collection_links(
    tx: &Transaction,
) -> Result<HashMap<i64, super::record::LinkBase>, IngestError> {
    let mut st = tx.prepare(
        "SELECT id, web_url, commit_sha FROM collections WHERE web_url IS NOT NULL AND commit_sha IS NOT NULL",
    )?;
    let rows = st.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            super::record::LinkBase {
                web: r.get(1)?,
                commit: r.get(2)?,
            },
        ))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The `n` most frequent values (ties alphabetically, for stable text).
fn most_common(counts: &HashMap<String, usize>, n: usize) -> Vec<&str> {
    let mut v: Vec<(&String, &usize)> = counts.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    v.into_iter().take(n).map(|(s, _)| s.as_str()).collect()
}
