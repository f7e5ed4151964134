//! A bundle's README sections as doc sections: what answers "which auth method
//! does the cosmos db query bundle try first" is a section of that bundle's
//! README, quoted and cited like any documentation. They live in the snapshot
//! beside the collections' docs under negative ids (no row in `docs`: ingest and
//! the database stay as they are), built from the README as ingest recorded it
//! (headings, GitHub anchors in document order, trails), and search offers them
//! only for the bundle a question is about (see `rank::rank_docs`), so they never
//! crowd out the docs.

use crate::catalog::{DocMeta, ReadmeSectionRow};
use app::api::catalog::BundleHeader;
use std::collections::HashMap;

/// Whether a doc id is a README section's (these are made up here, never stored).
pub fn is_readme_section(doc_id: i64) -> bool {
    doc_id < 0
}

/// The README sections of every bundle (`header` finds a bundle by its row id),
/// keyed by negative doc ids that count down in document order, and for each
/// README chunk (by rowid) the section it is cut from (by the section's first
/// line). The README's title section is left out: it says what the bundle's card
/// says, and as a section it would outrank every specific one.
pub fn readme_sections<'a>(
    rows: Vec<ReadmeSectionRow>,
    readme_chunks: Vec<(i64, i64, u32)>,
    header: impl Fn(i64) -> Option<&'a BundleHeader>,
) -> (HashMap<i64, DocMeta>, Vec<(i64, i64)>) {
    let mut out = HashMap::new();
    let mut at: HashMap<(i64, u32), i64> = HashMap::new();
    for (i, r) in rows.into_iter().enumerate() {
        let Some(b) = header(r.bundle_id) else {
            continue;
        };
        let (Some(heading), Some(anchor)) = (r.heading.clone(), r.anchor.clone()) else {
            continue;
        };
        if r.level <= 1 && r.trail.is_empty() {
            continue;
        }
        let id = -(i as i64) - 1;
        at.insert((r.bundle_id, r.line_start), id);
        out.insert(id, section(id, b, r, heading, anchor));
    }
    let links = readme_chunks
        .into_iter()
        .filter_map(|(rowid, bundle_id, line)| Some((rowid, *at.get(&(bundle_id, line))?)))
        .collect();
    (out, links)
}

fn section(
    id: i64,
    b: &BundleHeader,
    r: ReadmeSectionRow,
    heading: String,
    anchor: String,
) -> DocMeta {
    let path = if r.file.is_empty() {
        format!("codebundles/{}/README.md", b.slug)
    } else {
        r.file
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
        heading: Some(heading),
        anchor,
        // What is quoted: the section's markdown (tables, lists, code) without its
        // heading line, which the answer names itself.
        text: body(&r.markdown).to_string(),
        trail: r.trail,
    }
}

/// Markdown without its leading heading line.
fn body(markdown: &str) -> &str {
    let m = markdown.trim_start();
    if m.starts_with('#') {
        m.split_once('\n').map_or("", |(_, rest)| rest).trim()
    } else {
        m.trim()
    }
}

#[cfg(test)]
mod tests {
    use super::body;

    #[test]
    fn a_section_body_drops_its_heading_line_only() {
        assert_eq!(body("## Requirements\n\n- Reader role\n"), "- Reader role");
        assert_eq!(body("no heading\n"), "no heading");
        assert_eq!(body("### Only a heading"), "");
    }
}
