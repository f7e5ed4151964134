//! A bundle's README sections as doc sections: what answers "which auth method
//! does the cosmos db query bundle try first" is a section of that bundle's
//! README, quoted and cited like any documentation. They live in the snapshot
//! beside the collections' docs under negative ids (no row in `docs`: ingest and
//! the database stay as they are), and search offers them only for the bundle a
//! question is about (see `rank::rank_docs`), so they never crowd out the docs.

use super::snapshot::{BundleMeta, ChunkMeta};
use crate::catalog::{DocMeta, ReadmeRow};
use std::collections::HashMap;

/// Whether a doc id is a README section's (these are made up here, never stored).
pub fn is_readme_section(doc_id: i64) -> bool {
    doc_id < 0
}

/// The README sections of every bundle, keyed by their (negative) doc ids, and the
/// README chunks pointed at them. A section cut into several chunks is one
/// section, named by its first chunk.
pub fn readme_sections(
    rows: Vec<ReadmeRow>,
    bundles: &[BundleMeta],
    bundle_by_id: &HashMap<i64, u32>,
    chunks: &mut [ChunkMeta],
    chunk_by_rowid: &HashMap<i64, u32>,
) -> HashMap<i64, DocMeta> {
    let mut out = HashMap::new();
    // Per (bundle, file): anchors seen so far and the section at each start line.
    let mut seen: HashMap<(i64, String), HashMap<String, usize>> = HashMap::new();
    let mut first: HashMap<(i64, String, u32), i64> = HashMap::new();
    for r in rows {
        let Some(&b) = bundle_by_id.get(&r.bundle_id) else {
            continue;
        };
        let key = (r.bundle_id, r.file.clone(), r.line_start);
        let id = match first.get(&key) {
            Some(&id) => id,
            None => {
                let id = -r.rowid;
                first.insert(key, id);
                let anchors = seen.entry((r.bundle_id, r.file.clone())).or_default();
                let anchor = crate::ingest::markdown::anchor(&r.heading, anchors);
                let bundle = &bundles[b as usize];
                let s = section(id, bundle, &r, anchor);
                // The top of a README (its title and lead) says what the bundle's
                // card says; as a section it would outrank every specific one.
                if !s.trail.is_empty() {
                    out.insert(id, s);
                }
                id
            }
        };
        if out.contains_key(&id)
            && let Some(&ci) = chunk_by_rowid.get(&r.rowid)
        {
            chunks[ci as usize].doc = Some(id);
        }
    }
    out
}

fn section(id: i64, b: &BundleMeta, r: &ReadmeRow, anchor: String) -> DocMeta {
    let path = if r.file.is_empty() {
        format!("codebundles/{}/README.md", b.slug)
    } else {
        r.file.clone()
    };
    let file_name = path.rsplit('/').next().unwrap_or("README.md").to_string();
    DocMeta {
        id,
        source: b.collection.clone(),
        url: b
            .source_url
            .as_ref()
            .map(|u| format!("{}/{file_name}#{anchor}", u.trim_end_matches('/'))),
        path,
        title: b.display_name.clone(),
        heading: Some(r.heading.clone()),
        anchor,
        // The section's markdown: it is both what is quoted and what is searched.
        text: r.markdown.clone(),
        trail: trail(b, r),
    }
}

/// The headings above a section, outermost first, read back from the text ingest
/// embedded (`{bundle} — {outer ›} {heading}: …`): the database keeps no trail for
/// README chunks, and an answer that names the group ("Issue Conditions") needs it.
fn trail(b: &BundleMeta, r: &ReadmeRow) -> Vec<String> {
    let Some(rest) = r
        .embed_text
        .strip_prefix(b.display_name.as_str())
        .and_then(|t| t.strip_prefix(" — "))
    else {
        return Vec::new();
    };
    let Some(end) = rest.find(&format!("{}: ", r.heading)) else {
        return Vec::new();
    };
    rest[..end]
        .split(" › ")
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .map(str::to_string)
        .collect()
}
