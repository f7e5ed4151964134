//! The call sites of every indexed task, read back from the catalog: what linking
//! keywords to their users and deriving keywords no collection ships both walk.

use super::evidence::Call;
use super::robot::CallSite;
use rusqlite::Transaction;
use std::collections::HashMap;
use std::sync::Arc;

pub(super) struct TaskCalls {
    pub collection_id: i64,
    pub bundle_id: i64,
    pub kind: super::TaskKind,
    pub task: String,
    pub file: String,
    pub sites: Vec<CallSite>,
    /// The defaults of the variables this task's file imports, by Robot's
    /// normalised name: what `${VAR}` in a call runs unless the user configures
    /// otherwise.
    pub defaults: Arc<HashMap<String, String>>,
}

/// Every task, by collection, bundle slug, kind and position (a stable order, so
/// "the first call" and "a typical call" are the same on every run).
pub(super) fn all(tx: &Transaction) -> rusqlite::Result<Vec<TaskCalls>> {
    // By bundle and file: a bundle's runbook and SLI may default one name apart.
    let mut defaults: HashMap<(i64, String), HashMap<String, String>> = HashMap::new();
    let mut st = tx.prepare(
        "SELECT bundle_id, file, name, default_value FROM variables
         WHERE trim(coalesce(default_value, '')) != '' ORDER BY bundle_id, file, line",
    )?;
    for row in st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))? {
        let (bundle, file, name, value): (i64, String, String, String) = row?;
        defaults
            .entry((bundle, file))
            .or_default()
            .entry(super::robot::normalize(&name))
            .or_insert(value);
    }
    let defaults: HashMap<(i64, String), Arc<HashMap<String, String>>> = defaults
        .into_iter()
        .map(|(k, d)| (k, Arc::new(d)))
        .collect();
    let none = Arc::new(HashMap::new());
    let mut st = tx.prepare(
        "SELECT b.collection_id, t.bundle_id, t.kind, t.name, t.file, t.sites FROM tasks t
         JOIN bundles b ON b.id = t.bundle_id ORDER BY b.collection_id, b.slug, t.kind, t.position",
    )?;
    st.query_map([], |r| {
        Ok(TaskCalls {
            collection_id: r.get(0)?,
            bundle_id: r.get(1)?,
            kind: crate::store::closed(r, 2)?,
            task: r.get(3)?,
            file: r.get(4)?,
            sites: serde_json::from_str(&r.get::<_, String>(5)?).unwrap_or_default(),
            defaults: defaults
                .get(&(r.get(1)?, r.get(4)?))
                .unwrap_or(&none)
                .clone(),
        })
    })?
    .collect()
}

impl TaskCalls {
    /// Call `at` of this task, which names the keyword `name` (without its library).
    pub(super) fn call<'a>(&'a self, at: usize, name: &'a str) -> Call<'a> {
        Call {
            collection: self.collection_id,
            kind: self.kind,
            bundle: self.bundle_id,
            file: &self.file,
            sites: &self.sites,
            at,
            name,
            defaults: &self.defaults,
        }
    }
}

impl CallSite {
    /// The library the call names (`RW.Core.Add Issue` → `RW.Core`, `Add Issue`):
    /// the longest of `libs` followed by a dot, compared as Robot does, without case.
    pub fn qualified_by<'a>(&self, libs: &'a [String]) -> Option<(&'a String, &str)> {
        let call = self.name.as_str();
        let lib = libs
            .iter()
            .filter(|l| {
                call.len() > l.len() + 1
                    && call.is_char_boundary(l.len())
                    && call[..l.len()].eq_ignore_ascii_case(l)
                    && call.as_bytes()[l.len()] == b'.'
            })
            .max_by_key(|l| l.len())?;
        let name = call[lib.len() + 1..].trim();
        (!name.is_empty()).then_some((lib, name))
    }
}
