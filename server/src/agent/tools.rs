//! Tools the LLM may call during a turn. Results are compact JSON, truncated with a
//! note when long; identical calls within a turn are answered from a cache; searches
//! share the turn's hard cap of 30.

use super::plan::MAX_SEARCHES;
use crate::index::embed::Purpose;
use crate::llm::ToolSpec;
use crate::search::{Filters, SearchOptions, Searcher};
use crate::store::Db;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// Longest tool result given back to the model.
const MAX_RESULT_CHARS: usize = 6000;
const GREP_MAX_LINES: usize = 40;

pub fn specs() -> Vec<ToolSpec> {
    let s = |name, description, parameters| ToolSpec {
        name,
        description,
        parameters,
    };
    vec![
        s(
            "search_codebundles",
            "Search codebundles by meaning and words. Returns ids (collection/slug), names, calibrated scores (0-1) and the tasks that matched.",
            json!({"type": "object", "properties": {"query": {"type": "string"}, "platform": {"type": "string"}, "access": {"type": "string", "enum": ["read-only", "read-write"]}, "k": {"type": "integer", "minimum": 1, "maximum": 10}}, "required": ["query"]}),
        ),
        s(
            "multi_search",
            "Run several codebundle searches at once (at most 30 queries) and merge the results.",
            json!({"type": "object", "properties": {"queries": {"type": "array", "items": {"type": "string"}, "maxItems": 30}}, "required": ["queries"]}),
        ),
        s(
            "search_docs",
            "Search the documentation. Returns doc ids to cite as [doc:ID], headings and snippets.",
            json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        ),
        s(
            "search_keywords",
            "Search Robot Framework keyword libraries. Returns keyword ids to cite as [kw:ID], arguments and docs.",
            json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        ),
        s(
            "get_codebundle",
            "Full details of one codebundle: tasks and SLIs with docs, variables with defaults, access level, README excerpt, files.",
            json!({"type": "object", "properties": {"id": {"type": "string", "description": "collection/slug"}}, "required": ["id"]}),
        ),
        s(
            "read_file",
            "Read a file of an indexed codebundle (robot, script, README).",
            json!({"type": "object", "properties": {"id": {"type": "string", "description": "collection/slug"}, "path": {"type": "string", "description": "path inside the bundle, e.g. runbook.robot"}}, "required": ["id", "path"]}),
        ),
        s(
            "grep",
            "Search the sources of indexed codebundles with a regular expression; returns matching lines as collection/slug/file:line.",
            json!({"type": "object", "properties": {"pattern": {"type": "string"}, "id": {"type": "string", "description": "optional collection/slug to search only one bundle"}}, "required": ["pattern"]}),
        ),
        s(
            "find_similar",
            "Find codebundles similar to a snippet of text, or to a place given as collection/slug/file:line (the same bundle is excluded).",
            json!({"type": "object", "properties": {"text": {"type": "string"}, "location": {"type": "string"}}}),
        ),
        s(
            "graph_neighbors",
            "Relations of a codebundle in the knowledge graph: tags, platform, resources, keywords it uses, similar bundles, docs about it.",
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
        ),
        s(
            "write_report",
            "Save a markdown report for the user (e.g. a checklist). It is attached to the conversation export.",
            json!({"type": "object", "properties": {"title": {"type": "string"}, "markdown": {"type": "string"}}, "required": ["title", "markdown"]}),
        ),
    ]
}

pub struct ToolBox {
    searcher: Arc<Searcher>,
    db: Db,
    cache: HashMap<String, String>,
    pub searches: usize,
    pub reports: Vec<(String, String)>,
    /// Bundle ids any tool returned (the LLM may cite these).
    pub seen_bundles: Vec<String>,
}

impl ToolBox {
    pub fn new(searcher: Arc<Searcher>, db: Db, searches_so_far: usize) -> Self {
        ToolBox {
            searcher,
            db,
            cache: HashMap::new(),
            searches: searches_so_far,
            reports: Vec::new(),
            seen_bundles: Vec::new(),
        }
    }

    /// Runs one call. Bad arguments come back as an error message for the model
    /// (it can correct itself), never as a failure of the turn.
    pub async fn call(&mut self, name: &str, arguments: &str) -> String {
        let args: Value = match serde_json::from_str(if arguments.trim().is_empty() {
            "{}"
        } else {
            arguments
        }) {
            Ok(v) => v,
            Err(e) => {
                return json!({"error": format!("arguments are not valid JSON: {e}")}).to_string();
            }
        };
        let key = format!("{name}:{args}");
        if let Some(hit) = self.cache.get(&key) {
            return hit.clone();
        }
        let result = match self.run(name, &args).await {
            Ok(v) => v,
            Err(e) => json!({"error": e}),
        };
        let text = truncate(result.to_string());
        self.cache.insert(key, text.clone());
        text
    }

    fn count_search(&mut self, n: usize) -> Result<(), String> {
        if self.searches + n > MAX_SEARCHES {
            return Err(format!(
                "search limit reached ({MAX_SEARCHES} per turn); answer with what you have"
            ));
        }
        self.searches += n;
        Ok(())
    }

    async fn run(&mut self, name: &str, a: &Value) -> Result<Value, String> {
        let s = |k: &str| a[k].as_str().map(str::to_string);
        match name {
            "search_codebundles" => {
                let q = s("query").ok_or("query is required")?;
                self.count_search(1)?;
                let opts = SearchOptions {
                    k: a["k"].as_u64().unwrap_or(5).clamp(1, 10) as usize,
                    filters: Filters {
                        platform: s("platform"),
                        access: s("access"),
                        ..Default::default()
                    },
                    ..Default::default()
                };
                let r = self
                    .searcher
                    .search(&q, &opts)
                    .await
                    .map_err(|e| e.to_string())?;
                Ok(self.bundles_json(&r))
            }
            "multi_search" => {
                let qs: Vec<String> = a["queries"]
                    .as_array()
                    .ok_or("queries must be a list")?
                    .iter()
                    .filter_map(|q| q.as_str().map(str::to_string))
                    .take(30)
                    .collect();
                if qs.is_empty() {
                    return Err("queries is empty".into());
                }
                self.count_search(qs.len())?;
                let opts = SearchOptions::default();
                let runs =
                    futures::future::join_all(qs.iter().map(|q| self.searcher.search(q, &opts)))
                        .await;
                let mut best: HashMap<String, Value> = HashMap::new();
                for r in runs.into_iter().flatten() {
                    for b in &r.bundles {
                        let v = json!({"id": b.key, "name": b.display_name, "score": round(b.score), "access": b.access, "matched_tasks": b.matched.iter().map(|m| &m.name).collect::<Vec<_>>()});
                        let keep = best
                            .get(&b.key)
                            .is_none_or(|x| x["score"].as_f64().unwrap_or(0.0) < b.score as f64);
                        if keep {
                            best.insert(b.key.clone(), v);
                        }
                    }
                }
                let mut list: Vec<Value> = best.into_values().collect();
                list.sort_by(|x, y| {
                    y["score"]
                        .as_f64()
                        .unwrap_or(0.0)
                        .total_cmp(&x["score"].as_f64().unwrap_or(0.0))
                });
                list.truncate(10);
                for v in &list {
                    self.seen(v["id"].as_str().unwrap_or(""));
                }
                Ok(json!({"results": list}))
            }
            "search_docs" | "search_keywords" => {
                let q = s("query").ok_or("query is required")?;
                self.count_search(1)?;
                let r = self
                    .searcher
                    .search(
                        &q,
                        &SearchOptions {
                            k: 3,
                            ..Default::default()
                        },
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                if name == "search_docs" {
                    Ok(
                        json!({"docs": r.docs.iter().map(|d| json!({"id": d.id, "heading": d.heading.as_deref().unwrap_or(&d.title), "score": round(d.score), "snippet": d.snippet})).collect::<Vec<_>>()}),
                    )
                } else {
                    Ok(
                        json!({"keywords": r.keywords.iter().map(|k| json!({"id": k.id, "name": k.name, "library": k.library, "args": k.args, "doc": k.doc, "score": round(k.score)})).collect::<Vec<_>>()}),
                    )
                }
            }
            "get_codebundle" => {
                let id = s("id").ok_or("id is required")?;
                let rec = self.record(&id).await?;
                self.seen(&id);
                Ok(bundle_json(&rec))
            }
            "read_file" => {
                let id = s("id").ok_or("id is required")?;
                let path = s("path").ok_or("path is required")?;
                let rec = self.record(&id).await?;
                let root = self.collection_root(&rec.collection).await?;
                let rel = safe_path(&rec.slug, &path)?;
                if !rec.files.iter().any(|f| f.path == rel) {
                    return Err(format!(
                        "{path} is not an indexed file of {id}; files: {}",
                        rec.files
                            .iter()
                            .map(|f| f
                                .path
                                .trim_start_matches(&format!("codebundles/{}/", rec.slug)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                let text = read_confined(root, rel.clone()).await?;
                Ok(json!({"id": id, "path": path, "content": text}))
            }
            "grep" => {
                let pattern = s("pattern").ok_or("pattern is required")?;
                let re = regex::RegexBuilder::new(&pattern)
                    .size_limit(1 << 20)
                    .case_insensitive(true)
                    .build()
                    .map_err(|e| format!("bad pattern: {e}"))?;
                let only = s("id");
                let bundles = self
                    .db
                    .read(|c| crate::catalog::bundles(c, &Default::default()))
                    .await
                    .map_err(|e| e.to_string())?;
                // The files to scan are gathered first; the scan itself reads the
                // disk, so it runs on the blocking pool, confined to each root.
                let mut roots: HashMap<String, PathBuf> = HashMap::new();
                let mut files: Vec<(String, PathBuf, String)> = Vec::new();
                for b in bundles
                    .iter()
                    .filter(|b| only.as_deref().is_none_or(|o| o == b.key()))
                {
                    let Ok(rec) = self.record(&b.key()).await else {
                        continue;
                    };
                    if !roots.contains_key(&rec.collection) {
                        let root = self.collection_root(&rec.collection).await?;
                        roots.insert(rec.collection.clone(), root);
                    }
                    let root = &roots[&rec.collection];
                    for f in rec.files.iter().filter(|f| {
                        [".robot", ".sh", ".py", ".md", ".yaml", ".yml"]
                            .iter()
                            .any(|e| f.path.ends_with(e))
                    }) {
                        files.push((rec.collection.clone(), root.clone(), f.path.clone()));
                    }
                }
                let hits = tokio::task::spawn_blocking(move || {
                    let mut hits = Vec::new();
                    for (collection, root, path) in files {
                        let Ok(text) =
                            crate::ingest::confine::read_text(&root, &path, READ_MAX_BYTES)
                        else {
                            continue;
                        };
                        for (i, line) in text.lines().enumerate() {
                            if re.is_match(line) {
                                let short = path.trim_start_matches("codebundles/");
                                hits.push(format!(
                                    "{collection}/{short}:{}: {}",
                                    i + 1,
                                    line.trim().chars().take(200).collect::<String>()
                                ));
                                if hits.len() >= GREP_MAX_LINES {
                                    return hits;
                                }
                            }
                        }
                    }
                    hits
                })
                .await
                .map_err(|e| e.to_string())?;
                let complete = hits.len() < GREP_MAX_LINES;
                Ok(json!({"matches": hits, "complete": complete}))
            }
            "find_similar" => {
                let (text, exclude) = match (s("text"), s("location")) {
                    (Some(t), _) if !t.trim().is_empty() => (t, None),
                    (_, Some(loc)) => self.location_text(&loc).await?,
                    _ => return Err("give text or location".into()),
                };
                self.count_search(1)?;
                let v = self
                    .searcher
                    .embedder()
                    .embed(&[text], Purpose::Query)
                    .await
                    .map_err(|e| e.to_string())?;
                let snap = self.searcher.snapshot();
                let mut best: HashMap<u32, f32> = HashMap::new();
                for (ci, cos) in v
                    .first()
                    .map(|q| snap.vectors.scores_for_ranking(q))
                    .unwrap_or_default()
                {
                    if let Some(b) = snap.chunks[ci as usize].bundle {
                        let e = best.entry(b).or_insert(f32::MIN);
                        *e = e.max(cos);
                    }
                }
                let mut list: Vec<(u32, f32)> = best
                    .into_iter()
                    .filter(|(b, _)| {
                        exclude.as_deref() != Some(snap.bundles[*b as usize].key().as_str())
                    })
                    .collect();
                list.sort_by(|x, y| y.1.total_cmp(&x.1));
                let out: Vec<Value> = list
                    .iter()
                    .take(5)
                    .map(|(b, s)| {
                        let m = &snap.bundles[*b as usize];
                        json!({"id": m.key(), "name": m.display_name, "similarity": round(*s)})
                    })
                    .collect();
                for v in &out {
                    self.seen(v["id"].as_str().unwrap_or(""));
                }
                Ok(json!({"similar": out}))
            }
            "graph_neighbors" => {
                let id = s("id").ok_or("id is required")?;
                let snap = self.searcher.snapshot();
                let g = &snap.graph;
                let n = g
                    .bundle_node(&id)
                    .ok_or_else(|| format!("no bundle {id} in the graph"))?;
                let mut out: Vec<Value> = g
                    .neighbours(n)
                    .filter(|e| g.nodes[e.to as usize].kind != "task" && g.nodes[e.to as usize].kind != "sli")
                    .map(|e| {
                        let node = &g.nodes[e.to as usize];
                        json!({"relation": e.kind, "kind": node.kind, "id": node.key, "label": node.label})
                    })
                    .collect();
                out.truncate(40);
                Ok(json!({"id": id, "neighbors": out}))
            }
            "write_report" => {
                let title = s("title").ok_or("title is required")?;
                let md = s("markdown").ok_or("markdown is required")?;
                self.reports.push((title.clone(), md));
                Ok(json!({"saved": title}))
            }
            other => Err(format!("unknown tool {other}")),
        }
    }

    fn seen(&mut self, id: &str) {
        if !id.is_empty() && !self.seen_bundles.iter().any(|x| x == id) {
            self.seen_bundles.push(id.to_string());
        }
    }

    fn bundles_json(&mut self, r: &crate::search::SearchResults) -> Value {
        for b in &r.bundles {
            self.seen(&b.key);
        }
        json!({
            "no_match": r.no_match,
            "uncovered": r.uncovered,
            "results": r.bundles.iter().map(|b| json!({"id": b.key, "name": b.display_name, "score": round(b.score), "platform": b.platform, "access": b.access, "description": b.description, "matched_tasks": b.matched.iter().map(|m| &m.name).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        })
    }

    async fn record(&self, id: &str) -> Result<crate::ingest::BundleRecord, String> {
        let (c, s) = id.split_once('/').ok_or("ids look like collection/slug")?;
        let (c, s) = (c.to_string(), s.to_string());
        match self
            .db
            .read(move |conn| crate::catalog::record(conn, &c, &s))
            .await
        {
            Ok(Some((_, r))) => Ok(r),
            Ok(None) => Err(format!("no codebundle {id}")),
            Err(e) => Err(e.to_string()),
        }
    }

    async fn collection_root(&self, collection: &str) -> Result<PathBuf, String> {
        let name = collection.to_string();
        self.db
            .read(move |c| {
                Ok(c.query_row(
                    "SELECT root FROM collections WHERE name = ?1",
                    [&name],
                    |r| r.get::<_, String>(0),
                )?)
            })
            .await
            .map(PathBuf::from)
            .map_err(|e| e.to_string())
    }

    /// `collection/slug/file:line` → the lines around it, and the bundle to exclude.
    async fn location_text(&self, loc: &str) -> Result<(String, Option<String>), String> {
        let (path, line) = loc
            .rsplit_once(':')
            .ok_or("location looks like collection/slug/file:line")?;
        let line: usize = line.parse().map_err(|_| "the line is not a number")?;
        let mut parts = path.splitn(3, '/');
        let (c, s, f) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        let id = format!("{c}/{s}");
        let rec = self.record(&id).await?;
        let rel = safe_path(&rec.slug, f)?;
        if !rec.files.iter().any(|x| x.path == rel) {
            return Err(format!("{f} is not an indexed file of {id}"));
        }
        let root = self.collection_root(c).await?;
        let text = read_confined(root, rel).await?;
        let lines: Vec<&str> = text.lines().collect();
        let from = line.saturating_sub(6);
        let to = (line + 6).min(lines.len());
        Ok((lines.get(from..to).unwrap_or_default().join("\n"), Some(id)))
    }
}

/// Largest file a tool reads.
const READ_MAX_BYTES: u64 = 1024 * 1024;

/// A file of a collection, through the same confinement as indexing (regular
/// files inside the root only), off the async workers.
async fn read_confined(root: PathBuf, rel: String) -> Result<String, String> {
    tokio::task::spawn_blocking(move || {
        crate::ingest::confine::read_text(&root, &rel, READ_MAX_BYTES).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())?
}

/// `runbook.robot` → `codebundles/<slug>/runbook.robot`, refusing `..` and absolute paths.
fn safe_path(slug: &str, path: &str) -> Result<String, String> {
    let p = path.trim_start_matches(&format!("codebundles/{slug}/"));
    if Path::new(p)
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(format!("{path} is not a path inside the bundle"));
    }
    Ok(format!("codebundles/{slug}/{p}"))
}

fn round(x: f32) -> f64 {
    (x as f64 * 100.0).round() / 100.0
}

fn truncate(s: String) -> String {
    if s.chars().count() <= MAX_RESULT_CHARS {
        return s;
    }
    let cut: String = s.chars().take(MAX_RESULT_CHARS).collect();
    format!(
        "{cut}… [truncated: {} more characters; ask for something narrower]",
        s.chars().count() - MAX_RESULT_CHARS
    )
}

/// What the model sees of a bundle.
pub fn bundle_json(r: &crate::ingest::BundleRecord) -> Value {
    let task = |t: &crate::ingest::TaskRecord| json!({"name": t.clean.trim(), "doc": t.doc, "access": t.access});
    json!({
        "id": r.key(),
        "name": r.display_name,
        "description": r.description,
        "platform": r.derived.platform,
        "access": r.derived.access,
        "access_decided_by": r.derived.access_source,
        "resource_types": r.derived.resource_types,
        "tasks": r.tasks.iter().map(task).collect::<Vec<_>>(),
        "slis": r.slis.iter().map(task).collect::<Vec<_>>(),
        "variables": r.variables.iter().filter(|v| !v.dynamic).map(|v| json!({"name": v.name, "kind": v.kind, "default": v.default, "description": v.description})).collect::<Vec<_>>(),
        "readme": r.readme.as_ref().map(|x| x.markdown.chars().take(1500).collect::<String>()),
        "files": r.files.iter().map(|f| f.path.trim_start_matches(&format!("codebundles/{}/", r.slug)).to_string()).collect::<Vec<_>>(),
        "source_url": r.source_url,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_bundle() {
        assert_eq!(
            safe_path("x", "runbook.robot").unwrap(),
            "codebundles/x/runbook.robot"
        );
        assert_eq!(
            safe_path("x", "codebundles/x/a/b.sh").unwrap(),
            "codebundles/x/a/b.sh"
        );
        assert!(safe_path("x", "../y/runbook.robot").is_err());
        assert!(safe_path("x", "/etc/passwd").is_err());
    }

    #[test]
    fn long_results_are_truncated_with_a_note() {
        let t = truncate("x".repeat(MAX_RESULT_CHARS + 10));
        assert!(t.ends_with("ask for something narrower]") && t.contains("10 more characters"));
    }
}
