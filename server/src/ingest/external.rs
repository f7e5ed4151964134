//! Keywords of libraries that no indexed collection ships (`RW.Core` comes with the
//! RunWhen runtime, not with any codecollection). Their only evidence is how bundles
//! call them, so each becomes a catalog keyword derived from its call sites: the
//! name as most often written, the arguments callers pass, where typical calls are
//! and whether SLIs or tasks use it. They are searchable and cited like shipped
//! keywords, and re-derived at every index run.

use super::IngestError;
use super::chunk_rows::{Owner, insert_chunk};
use super::evidence::Evidence;
use super::pylib::Keyword;
use super::robot::normalize;
use rusqlite::{Transaction, params};
use std::collections::{BTreeMap, HashMap, HashSet};

/// What the catalog says about an external keyword instead of a docstring.
fn doc(ev: &Evidence, library: &str) -> String {
    let n = ev.bundles.len();
    let mut doc = format!(
        "Known from its calls: {} in {n} bundle{}, {}. {library} is imported by the bundles but shipped by no indexed collection, so there is no source to show.",
        ev.calls,
        if n == 1 { "" } else { "s" },
        ev.used_in(),
    );
    // What callers pass says what the keyword is for when no source does
    // (Import Secret takes `kubeconfig`, Push Metric `${score}`).
    let values = ev.first_values(6);
    if !values.is_empty() {
        doc.push_str(&format!(" Called with: {}.", values.join("; ")));
    }
    let described = ev.descriptions(3);
    if !described.is_empty() {
        doc.push_str(&format!(" Described as: {}", described.join(" / ")));
    }
    doc
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
        for (at, site) in t.sites.iter().enumerate() {
            // Only calls that name their library: a bare name could come from any
            // import, and a wrong attribution would be shown as fact.
            let Some((lib, name)) = site.qualified_by(libs) else {
                continue;
            };
            found
                .entry((lib.clone(), normalize(name)))
                .or_default()
                .add(&t.call(at, name));
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
            doc: doc(ev, library),
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
