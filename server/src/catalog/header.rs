//! The one reader of a bundle's header row (`app::api::catalog::BundleHeader`):
//! the catalog listing and the search snapshot both load bundles through it, so
//! a column added to the header is read in one place.

use super::json_list;
use crate::store::StoreError;
use app::api::catalog::BundleHeader;
use rusqlite::{Connection, Row};

/// A bundle's header with what only some views need: its row id, its author, and
/// when it last changed in git (RFC 3339, when known).
pub struct BundleRow {
    pub id: i64,
    pub header: BundleHeader,
    pub author: Option<String>,
    pub updated_at: Option<String>,
}

/// Every bundle, by collection then slug.
pub fn bundle_rows(c: &Connection) -> Result<Vec<BundleRow>, StoreError> {
    let mut st = c.prepare(
        "SELECT b.id, co.name AS collection, b.slug, b.display_name, b.description, b.platform,
                b.access, b.resource_types, b.tags, b.task_count, b.sli_count, b.source_url,
                b.author, b.updated_at
         FROM bundles b JOIN collections co ON co.id = b.collection_id
         ORDER BY co.name, b.slug",
    )?;
    let rows = st.query_map([], |r| {
        Ok(BundleRow {
            id: r.get("id")?,
            header: header(r)?,
            author: r.get("author")?,
            updated_at: r.get("updated_at")?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The header from a row that has the `bundles` columns and the collection's name
/// as `collection`; read by name so the SELECT's column order does not matter.
fn header(r: &Row) -> rusqlite::Result<BundleHeader> {
    Ok(BundleHeader {
        collection: r.get("collection")?,
        slug: r.get("slug")?,
        display_name: r.get("display_name")?,
        description: r.get("description")?,
        platform: r.get("platform")?,
        access: crate::store::closed(r, "access")?,
        resource_types: json_list(r, "resource_types")?,
        tags: json_list(r, "tags")?,
        task_count: r.get::<_, i64>("task_count")? as u32,
        sli_count: r.get::<_, i64>("sli_count")? as u32,
        source_url: r.get("source_url")?,
    })
}
