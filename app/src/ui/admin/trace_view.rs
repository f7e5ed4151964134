//! One turn's trace, as the Traces drawer and the Test query result both show it:
//! what the pipeline decided at each stage (classification, rewrite, plan), what
//! every search found with its scores, the LLM rounds, stage timings and errors,
//! and the raw JSON. The trace is a free-form JSON object that grows with the
//! pipeline, so known parts get a layout and anything else is still shown as keys
//! and values rather than dropped.

use super::widgets::{ms, pct};
use crate::api::Card;
use leptos::prelude::*;
use serde_json::Value;

/// Stages in pipeline order, as `timings_ms` names them; others follow by name.
const STAGES: &[&str] = &["classify", "rewrite", "plan", "retrieve", "write", "total"];

/// Parts with their own layout (or not worth repeating); the rest is listed as is.
const SHOWN: &[&str] = &[
    "classification",
    "rewrite",
    "plan",
    "searches",
    "llm",
    "timings_ms",
    "errors",
];

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("—".into()),
        Value::Bool(b) => Some(if *b { "yes" } else { "no" }.into()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if s.is_empty() => Some("—".into()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// Any JSON value as readable HTML: scalars as text, lists of scalars joined,
/// objects as key/value lists; deeper than `depth` as compact JSON.
fn value_view(v: &Value, depth: u8) -> AnyView {
    if let Some(s) = scalar(v) {
        return view! { <span>{s}</span> }.into_any();
    }
    if depth == 0 {
        return view! { <code class="json-inline">{v.to_string()}</code> }.into_any();
    }
    match v {
        Value::Array(items) if items.is_empty() => {
            view! { <span class="muted">"none"</span> }.into_any()
        }
        Value::Array(items) if items.iter().all(|i| scalar(i).is_some()) => {
            let text = items
                .iter()
                .filter_map(scalar)
                .collect::<Vec<_>>()
                .join(", ");
            view! { <span>{text}</span> }.into_any()
        }
        Value::Array(items) => view! {
            <ol class="kv-list">
                {items.iter().map(|i| view! { <li>{value_view(i, depth - 1)}</li> }).collect_view()}
            </ol>
        }
        .into_any(),
        Value::Object(map) if map.is_empty() => {
            view! { <span class="muted">"none"</span> }.into_any()
        }
        Value::Object(map) => view! {
            <dl class="kv">
                {map.iter().map(|(k, v)| view! {
                    <dt>{k.replace('_', " ")}</dt>
                    <dd>{value_view(v, depth - 1)}</dd>
                }).collect_view()}
            </dl>
        }
        .into_any(),
        _ => view! { <span>{v.to_string()}</span> }.into_any(),
    }
}

/// A search hit is `[key, score]` or `{key|id, score, …}`.
fn hit(v: &Value) -> (String, Option<f64>) {
    match v {
        Value::Array(a) => (
            a.first().and_then(scalar).unwrap_or_default(),
            a.get(1).and_then(Value::as_f64),
        ),
        Value::Object(o) => {
            let key = ["key", "id", "slug", "title"]
                .iter()
                .find_map(|k| o.get(*k).and_then(scalar))
                .unwrap_or_else(|| v.to_string());
            (key, o.get("score").and_then(Value::as_f64))
        }
        other => (scalar(other).unwrap_or_default(), None),
    }
}

fn search_view(n: usize, s: &Value) -> impl IntoView + use<> {
    let get = |k: &str| s.get(k).and_then(scalar);
    let query = get("query").unwrap_or_else(|| "(no query)".into());
    let mode = get("mode");
    let took = s.get("ms").and_then(Value::as_f64);
    let no_match = s.get("no_match").and_then(Value::as_bool).unwrap_or(false);
    let hits: Vec<(String, Option<f64>)> = s
        .get("hits")
        .and_then(Value::as_array)
        .map(|h| h.iter().map(hit).collect())
        .unwrap_or_default();
    let rest: serde_json::Map<String, Value> = s
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, v)| {
                    !["query", "mode", "ms", "no_match", "hits"].contains(&k.as_str())
                        && !matches!(v, Value::Null)
                        && v.as_array().is_none_or(|a| !a.is_empty())
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    view! {
        <li class="search" data-testid="trace-search-item">
            <div class="search-head">
                <span class="search-number">{n + 1}</span>
                <strong class="search-query">{query}</strong>
                {mode.map(|m| view! { <span class="badge">{m}</span> })}
                {took.map(|t| view! { <span class="muted small">{ms(t)}</span> })}
                {no_match.then(|| view! { <span class="badge warn">"no match"</span> })}
            </div>
            {if hits.is_empty() {
                view! { <p class="muted small">"No hits."</p> }.into_any()
            } else {
                view! {
                    <div class="table-scroll">
                        <table class="admin-table compact">
                            <thead><tr><th scope="col">"#"</th><th scope="col">"Hit"</th><th scope="col" class="num">"Score"</th></tr></thead>
                            <tbody>
                                {hits.into_iter().enumerate().map(|(i, (key, score))| view! {
                                    <tr>
                                        <td class="num">{i + 1}</td>
                                        <td class="mono">{key}</td>
                                        <td class="num">{score.map_or_else(|| "—".into(), |s| format!("{s:.3}"))}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            }}
            {(!rest.is_empty()).then(|| value_view(&Value::Object(rest), 2))}
        </li>
    }
}

fn timings(trace: &Value) -> Vec<(String, f64)> {
    let mut rows: Vec<(String, f64)> = trace
        .get("timings_ms")
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .filter_map(|(k, v)| v.as_f64().map(|ms| (k.clone(), ms)))
                .collect()
        })
        .unwrap_or_default();
    // Known stages in pipeline order, then unknown ones by name, the total last.
    let rank = |s: &str| match STAGES.iter().position(|x| *x == s) {
        Some(_) if s == "total" => STAGES.len(),
        Some(i) => i,
        None => STAGES.len() - 1,
    };
    rows.sort_by(|a, b| (rank(&a.0), &a.0).cmp(&(rank(&b.0), &b.0)));
    rows
}

fn section(title: &'static str, testid: &'static str, body: AnyView) -> impl IntoView {
    view! {
        <section class="trace-section" data-testid=testid>
            <h3>{title}</h3>
            {body}
        </section>
    }
}

/// The pipeline's record of one turn.
#[component]
pub fn TraceView(trace: Value) -> impl IntoView {
    let part = |k: &str| trace.get(k).cloned().unwrap_or(Value::Null);
    let searches: Vec<Value> = trace
        .get("searches")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let llm = part("llm");
    let rounds: Vec<Value> = llm
        .get("rounds")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    // Classification and rewrite calls, before the answer's rounds.
    let understand: Vec<Value> = llm
        .get("understand")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let model = llm.get("model").and_then(scalar).unwrap_or("—".into());
    let fallback = llm
        .get("fallback")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let times = timings(&trace);
    let errors: Vec<String> = match trace.get("errors") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|e| scalar(e).unwrap_or_else(|| e.to_string()))
            .collect(),
        Some(Value::Null) | None => Vec::new(),
        Some(other) => vec![scalar(other).unwrap_or_else(|| other.to_string())],
    };
    let others: serde_json::Map<String, Value> = trace
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, v)| {
                    !SHOWN.contains(&k.as_str())
                        && !v.is_null()
                        && v.as_array().is_none_or(|a| !a.is_empty())
                        && v.as_object().is_none_or(|a| !a.is_empty())
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    let raw = serde_json::to_string_pretty(&trace).unwrap_or_default();

    view! {
        <div class="trace" data-testid="trace-view">
            <div class="trace-grid">
                {section("Classification", "trace-classification", value_view(&part("classification"), 2))}
                {section("Rewrite", "trace-rewrite", value_view(&part("rewrite"), 2))}
                {section("Plan", "trace-plan", value_view(&part("plan"), 2))}
            </div>
            {section("Searches", "trace-searches", if searches.is_empty() {
                view! { <p class="muted">"No searches ran."</p> }.into_any()
            } else {
                view! {
                    <ol class="searches">
                        {searches.iter().enumerate().map(|(i, s)| search_view(i, s)).collect_view()}
                    </ol>
                }.into_any()
            })}
            {section("Language model", "trace-llm", view! {
                <p class="small">
                    "Model: " <strong>{model}</strong>
                    {format!(" · {} round{}", rounds.len(), if rounds.len() == 1 { "" } else { "s" })}
                    {fallback.then(|| view! { <span class="badge warn">"fallback answer"</span> })}
                </p>
                {(!understand.is_empty()).then(|| view! {
                    <ol class="kv-list rounds" data-testid="trace-understand">
                        {understand.iter().map(|r| view! { <li>{value_view(r, 3)}</li> }).collect_view()}
                    </ol>
                })}
                {(!rounds.is_empty()).then(|| view! {
                    <ol class="kv-list rounds">
                        {rounds.iter().map(|r| view! { <li>{value_view(r, 3)}</li> }).collect_view()}
                    </ol>
                })}
            }.into_any())}
            {section("Timings", "trace-timings", if times.is_empty() {
                view! { <p class="muted">"No timings recorded."</p> }.into_any()
            } else {
                view! {
                    <div class="table-scroll">
                        <table class="admin-table compact">
                            <thead><tr><th scope="col">"Stage"</th><th scope="col" class="num">"Time"</th></tr></thead>
                            <tbody>
                                {times.into_iter().map(|(stage, t)| {
                                    let total = stage == "total";
                                    view! {
                                        <tr class:total=total data-testid="timing-row">
                                            <td>{stage}</td><td class="num">{ms(t)}</td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }.into_any()
            })}
            {section("Errors", "trace-errors", if errors.is_empty() {
                view! { <p class="muted">"None."</p> }.into_any()
            } else {
                view! {
                    <ul class="trace-errors">
                        {errors.into_iter().map(|e| view! { <li class="error">{e}</li> }).collect_view()}
                    </ul>
                }.into_any()
            })}
            {(!others.is_empty()).then(|| section("More", "trace-more", value_view(&Value::Object(others), 2)))}
            <details class="trace-raw" data-testid="trace-raw">
                <summary>"Raw trace (JSON)"</summary>
                <pre>{raw}</pre>
            </details>
        </div>
    }
}

/// Recommended bundles as a compact table (the chat's cards need the chat around them).
#[component]
pub fn CardsTable(cards: Vec<Card>) -> impl IntoView {
    if cards.is_empty() {
        return view! { <p class="muted">"No cards."</p> }.into_any();
    }
    view! {
        <div class="table-scroll">
            <table class="admin-table compact" data-testid="cards-table">
                <thead>
                    <tr>
                        <th scope="col">"Bundle"</th>
                        <th scope="col">"Platform"</th>
                        <th scope="col">"Access"</th>
                        <th scope="col" class="num">"Relevance"</th>
                    </tr>
                </thead>
                <tbody>
                    {cards.into_iter().map(|c| view! {
                        <tr data-testid="card-row">
                            <td>
                                <strong>{c.bundle.display_name}</strong><br />
                                <span class="mono muted small">{c.key}</span>
                            </td>
                            <td>{c.bundle.platform}</td>
                            <td>{c.bundle.access.as_str()}</td>
                            <td class="num">{c.relevance.map_or_else(|| "—".to_string(), |r| pct(r as f64))}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}
