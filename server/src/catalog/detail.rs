//! One bundle in full, for the detail drawer, `registry-chat show` and tools.

use super::StoreError;
use crate::ingest::BundleRecord;
use app::api::catalog::{
    BundleDetail, BundleHeader, BundleSummary, DerivedSources, FileInfo, LibraryInfo, TaskInfo,
    VariableInfo, VariableKind,
};
use rusqlite::Connection;

pub fn detail(
    c: &Connection,
    collection: &str,
    slug: &str,
) -> Result<Option<BundleDetail>, StoreError> {
    let Some((id, rec)) = super::record(c, collection, slug)? else {
        return Ok(None);
    };
    let libraries = libraries(c, id)?;
    Ok(Some(from_record(&rec, libraries)))
}

fn libraries(c: &Connection, bundle_id: i64) -> Result<Vec<LibraryInfo>, StoreError> {
    let mut st = c.prepare_cached(
        "SELECT library, external FROM bundle_libraries WHERE bundle_id = ?1 ORDER BY library",
    )?;
    let libs: Vec<(String, bool)> = st
        .query_map([bundle_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for (name, external) in libs {
        let mut st = c.prepare_cached(
            "SELECT DISTINCT k.name FROM keyword_uses u JOIN keywords k ON k.id = u.keyword_id
             WHERE u.bundle_id = ?1 AND k.library = ?2 ORDER BY k.name",
        )?;
        let used = st
            .query_map(rusqlite::params![bundle_id, name], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        out.push(LibraryInfo {
            name,
            external,
            keywords_used: used,
        });
    }
    Ok(out)
}

fn task_info(t: &crate::ingest::TaskRecord) -> TaskInfo {
    TaskInfo {
        name: t.name.clone(),
        doc: t.doc.clone(),
        tags: t.tags.clone(),
        access: t.access,
        file: t.file.clone(),
        line_start: t.line_start as u32,
        line_end: t.line_end as u32,
        url: t.url.clone(),
    }
}

pub fn summary_from_record(rec: &BundleRecord) -> BundleSummary {
    BundleSummary {
        header: BundleHeader {
            collection: rec.collection.clone(),
            slug: rec.slug.clone(),
            display_name: rec.display_name.clone(),
            description: rec.description.clone(),
            platform: rec.derived.platform.clone(),
            access: rec.derived.access,
            resource_types: rec.derived.resource_types.clone(),
            tags: rec.all_tags(),
            task_count: rec.tasks.len() as u32,
            sli_count: rec.slis.len() as u32,
            source_url: rec.source_url.clone(),
        },
        author: rec.author.clone(),
        tasks: rec.tasks.iter().map(task_info).collect(),
        slis: rec.slis.iter().map(task_info).collect(),
    }
}

pub fn from_record(rec: &BundleRecord, libraries: Vec<LibraryInfo>) -> BundleDetail {
    BundleDetail {
        summary: summary_from_record(rec),
        runbook_display_name: rec.runbook_display_name.clone(),
        sli_display_name: rec.sli_display_name.clone(),
        supports: rec.supports.clone(),
        force_tags: rec.force_tags.clone(),
        variables: rec
            .variables
            .iter()
            .map(|v| VariableInfo {
                name: v.name.clone(),
                kind: v.kind,
                var_type: v.var_type.clone(),
                description: v.description.clone(),
                default: v.default.clone(),
                example: v.example.clone(),
                enum_values: v.enum_values.clone(),
                optional: v.optional,
                required: v.default.is_none() && !v.optional && v.kind == VariableKind::User,
            })
            .collect(),
        readme: rec.readme.as_ref().map(|r| r.markdown.clone()),
        readme_url: rec.readme.as_ref().and_then(|r| {
            rec.files
                .iter()
                .find(|f| f.path == r.file)
                .and_then(|f| f.url.clone())
        }),
        files: rec
            .files
            .iter()
            .map(|f| FileInfo {
                path: f.path.clone(),
                size: f.size,
                url: f.url.clone(),
            })
            .collect(),
        scripts: rec.scripts.clone(),
        libraries,
        derived_from: DerivedSources {
            platform: rec.derived.platform_source.clone(),
            resource_types: rec.derived.resource_types_source.clone(),
            access: rec.derived.access_source.clone(),
        },
        level_of_detail: rec.level_of_detail.clone(),
        warnings: rec.warnings.iter().map(|w| w.to_string()).collect(),
    }
}
