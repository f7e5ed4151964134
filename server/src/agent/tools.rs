//! Tools the LLM may call during a turn. Results are compact JSON, truncated with a
//! note when long; identical calls within a turn are answered from a cache; searches
//! share the turn's hard cap of 30.

use super::plan::MAX_SEARCHES;
use crate::llm::ToolSpec;
use crate::search::{Filters, SearchOptions, Searcher};
use crate::store::Db;
use crate::tools::{Registry, ToolError, bundle_json};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// Longest tool result given back to the model.
const MAX_RESULT_CHARS: usize = 6000;

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
    registry: Registry,
    cache: HashMap<String, String>,
    pub searches: usize,
    pub reports: Vec<(String, String)>,
    /// Bundle ids any tool returned (the LLM may cite these).
    pub seen_bundles: Vec<String>,
}

/// A tool's arguments as the model sent them.
struct Args<'a>(&'a Value);

impl Args<'_> {
    fn opt(&self, k: &str) -> Option<String> {
        self.0[k].as_str().map(str::to_string)
    }

    fn req(&self, k: &str) -> Result<String, ToolError> {
        self.opt(k)
            .ok_or_else(|| ToolError::Invalid(format!("{k} is required")))
    }
}

impl ToolBox {
    pub fn new(searcher: Arc<Searcher>, db: Db, searches_so_far: usize) -> Self {
        ToolBox {
            registry: Registry::new(searcher, db),
            cache: HashMap::new(),
            searches: searches_so_far,
            reports: Vec::new(),
            seen_bundles: Vec::new(),
        }
    }

    /// Runs one call. Bad arguments come back as an error message for the model
    /// (it can correct itself), never as a failure of the turn; the registry's own
    /// failures are logged and reach the model as a safe message.
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
        let result = match self.run(name, Args(&args)).await {
            Ok(v) => v,
            Err(e) => json!({"error": e.public_message()}),
        };
        let text = truncate(result.to_string());
        self.cache.insert(key, text.clone());
        text
    }

    fn count_search(&mut self, n: usize) -> Result<(), ToolError> {
        if self.searches + n > MAX_SEARCHES {
            return Err(ToolError::Invalid(format!(
                "search limit reached ({MAX_SEARCHES} per turn); answer with what you have"
            )));
        }
        self.searches += n;
        Ok(())
    }

    async fn run(&mut self, name: &str, a: Args<'_>) -> Result<Value, ToolError> {
        match name {
            "search_codebundles" => self.search_codebundles(a).await,
            "multi_search" => self.multi_search(a).await,
            "search_docs" | "search_keywords" => {
                let q = a.req("query")?;
                self.count_search(1)?;
                let options = SearchOptions {
                    k: 3,
                    ..Default::default()
                };
                let r = self.registry.search(&q, &options).await?;
                Ok(if name == "search_docs" {
                    json!({"docs": r.docs.iter().map(|d| json!({"id": d.id, "heading": d.heading.as_deref().unwrap_or(&d.title), "score": round(d.score), "snippet": d.snippet})).collect::<Vec<_>>()})
                } else {
                    json!({"keywords": r.keywords.iter().map(|k| json!({"id": k.id, "name": k.name, "library": k.library, "args": k.args, "doc": k.doc, "score": round(k.score)})).collect::<Vec<_>>()})
                })
            }
            "get_codebundle" => {
                let id = a.req("id")?;
                let rec = self.registry.bundle(&id).await?;
                self.seen(&id);
                Ok(bundle_json(&rec))
            }
            "read_file" => {
                let (id, path) = (a.req("id")?, a.req("path")?);
                let content = self.registry.read_file(&id, &path).await?;
                Ok(json!({"id": id, "path": path, "content": content}))
            }
            "grep" => {
                let hits = self
                    .registry
                    .grep(&a.req("pattern")?, a.opt("id").as_deref())
                    .await?;
                Ok(json!({"matches": hits.lines, "complete": hits.complete}))
            }
            "find_similar" => self.find_similar(a).await,
            "graph_neighbors" => {
                let id = a.req("id")?;
                let out: Vec<Value> = self
                    .registry
                    .neighbours(&id)?
                    .into_iter()
                    .map(|n| json!({"relation": n.relation, "kind": n.kind, "id": n.id, "label": n.label}))
                    .collect();
                Ok(json!({"id": id, "neighbors": out}))
            }
            "write_report" => {
                let (title, md) = (a.req("title")?, a.req("markdown")?);
                self.reports.push((title.clone(), md));
                Ok(json!({"saved": title}))
            }
            other => Err(ToolError::Invalid(format!("unknown tool {other}"))),
        }
    }

    async fn search_codebundles(&mut self, a: Args<'_>) -> Result<Value, ToolError> {
        let q = a.req("query")?;
        self.count_search(1)?;
        let options = SearchOptions {
            k: a.0["k"].as_u64().unwrap_or(5).clamp(1, 10) as usize,
            filters: Filters {
                platform: a.opt("platform"),
                access: a
                    .opt("access")
                    .map(|s| s.parse())
                    .transpose()
                    .map_err(ToolError::Invalid)?,
                ..Default::default()
            },
            ..Default::default()
        };
        let r = self.registry.search(&q, &options).await?;
        for b in &r.bundles {
            self.seen(&b.key);
        }
        Ok(json!({
            "no_match": r.no_match,
            "uncovered": r.uncovered,
            "results": r.bundles.iter().map(|b| json!({"id": b.key, "name": b.display_name, "score": round(b.score), "platform": b.platform, "access": b.access, "description": b.description, "matched_tasks": b.matched.iter().map(|m| &m.name).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        }))
    }

    /// Several searches at once, merged by each bundle's best score.
    async fn multi_search(&mut self, a: Args<'_>) -> Result<Value, ToolError> {
        let qs: Vec<String> = a.0["queries"]
            .as_array()
            .ok_or_else(|| ToolError::Invalid("queries must be a list".into()))?
            .iter()
            .filter_map(|q| q.as_str().map(str::to_string))
            .take(MAX_SEARCHES)
            .collect();
        if qs.is_empty() {
            return Err(ToolError::Invalid("queries is empty".into()));
        }
        self.count_search(qs.len())?;
        let options = SearchOptions::default();
        let registry = &self.registry;
        let runs = futures::future::join_all(qs.iter().map(|q| registry.search(q, &options))).await;
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

    async fn find_similar(&mut self, a: Args<'_>) -> Result<Value, ToolError> {
        let (text, exclude) = match (a.opt("text"), a.opt("location")) {
            (Some(t), _) if !t.trim().is_empty() => (t, None),
            (_, Some(loc)) => {
                let (text, id) = self.registry.location_text(&loc).await?;
                (text, Some(id))
            }
            _ => return Err(ToolError::Invalid("give text or location".into())),
        };
        self.count_search(1)?;
        let out: Vec<Value> = self
            .registry
            .similar(&text, exclude.as_deref())
            .await?
            .into_iter()
            .map(|s| json!({"id": s.id, "name": s.name, "similarity": round(s.similarity)}))
            .collect();
        for v in &out {
            self.seen(v["id"].as_str().unwrap_or(""));
        }
        Ok(json!({"similar": out}))
    }

    fn seen(&mut self, id: &str) {
        if !id.is_empty() && !self.seen_bundles.iter().any(|x| x == id) {
            self.seen_bundles.push(id.to_string());
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_results_are_truncated_with_a_note() {
        let t = truncate("x".repeat(MAX_RESULT_CHARS + 10));
        assert!(t.ends_with("ask for something narrower]") && t.contains("10 more characters"));
    }
}
