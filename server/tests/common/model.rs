//! A scripted model that follows the agent's prompts by rule, so whole golden sets
//! can run through the LLM path (real client, real SSE, tool calls split across
//! chunks). It measures the plumbing around a model — classification and rewrite
//! replies parsed, the tool loop, citation validation, cards from citations — not
//! the quality of any real model.

use super::scripted::{Reply, Responder, sse};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// A citation the model makes up in every answer; validation must drop it.
pub const INVENTED: &str = "bundle:invented/not-a-bundle";

pub fn rule_model() -> Reply {
    Reply::Respond(Responder(Arc::new(respond)))
}

fn text_of(m: &Value) -> &str {
    m["content"].as_str().unwrap_or("")
}

fn respond(body: &Value) -> Reply {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let system = messages.first().map(text_of).unwrap_or("");
    let last_user = messages
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .map(text_of)
        .unwrap_or("");
    if system.starts_with("You classify") {
        // History lines mean the session has earlier turns: treat as a follow-up.
        let category = if last_user.contains("Assistant recommended:") {
            "follow-up"
        } else if last_user.to_lowercase().contains("keyword") {
            "keyword-library"
        } else {
            "general"
        };
        return json_reply(json!({"category": category, "reason": "rule model"}));
    }
    if system.starts_with("Rewrite the user's follow-up") {
        let previous = last_user
            .lines()
            .filter_map(|l| l.strip_prefix("User: "))
            .next_back()
            .unwrap_or("");
        let follow = last_user
            .lines()
            .find_map(|l| l.strip_prefix("Follow-up: "))
            .unwrap_or("");
        return json_reply(json!({"query": format!("{follow} {previous}")}));
    }
    let context: Value = messages
        .iter()
        .find_map(|m| {
            // The registry data travels fenced in a user message.
            text_of(m)
                .split_once("<<<REGISTRY DATA\n")
                .and_then(|(_, rest)| rest.rsplit_once("\nREGISTRY DATA>>>"))
                .and_then(|(c, _)| serde_json::from_str(c).ok())
        })
        .unwrap_or_default();
    let looked_up = messages.iter().any(|m| m["role"] == "tool");
    let tools_offered = body["tools"].as_array().is_some_and(|t| !t.is_empty());
    let top = context["bundles"][0]["id"].as_str().unwrap_or("");
    if !looked_up && tools_offered && !top.is_empty() {
        return tool_call("get_codebundle", json!({"id": top}));
    }
    answer(&context)
}

fn json_reply(v: Value) -> Reply {
    let s = v.to_string();
    let (a, b) = s.split_at(s.len() / 2);
    sse::reply(&[a, b])
}

/// One tool call whose arguments arrive in two chunks.
fn tool_call(name: &str, args: Value) -> Reply {
    let ms = Duration::from_millis(1);
    let args = args.to_string();
    let (a, b) = args.split_at(args.len() / 2);
    let chunk = |v: Value| {
        (
            ms,
            sse::data(
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [v]}, "finish_reason": null}]}),
            ),
        )
    };
    Reply::Stream(vec![
        chunk(
            json!({"index": 0, "id": "call_1", "type": "function", "function": {"name": name, "arguments": a}}),
        ),
        chunk(json!({"index": 0, "function": {"arguments": b}})),
        (ms, sse::finish("tool_calls")),
        (ms, sse::done()),
    ])
}

/// Cites what the context offers, as the system prompt asks, plus one invented id.
fn answer(context: &Value) -> Reply {
    let ids = |key: &str| -> Vec<String> {
        context[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let bundles = ids("bundles");
    let mut text = String::new();
    if let Some(subject) = context["bundle_the_user_refers_to"]["id"].as_str() {
        text.push_str(&format!(
            "About that bundle [bundle:{subject}]: see its tasks. "
        ));
    } else if context["no_match"].as_bool() == Some(true) {
        text.push_str("Nothing in this registry covers that. ");
        if let Some(b) = bundles.first() {
            text.push_str(&format!("The closest, with caveats, is [bundle:{b}]. "));
        }
        text.push_str("You could request a new codebundle. ");
    } else {
        let category = context["category"].as_str().unwrap_or("");
        if category == "documentation"
            && let Some(d) = ids("docs").first()
        {
            text.push_str(&format!("The docs explain it [doc:{d}]. "));
        }
        if category == "keyword-library" {
            if let Some(lib) = context["library"]["keywords"].as_array() {
                for k in lib.iter().take(3) {
                    text.push_str(&format!("[kw:{}] ", k["id"].as_str().unwrap_or("")));
                }
                for u in context["library"]["users"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .take(3)
                {
                    text.push_str(&format!("[bundle:{}] ", u[0].as_str().unwrap_or("")));
                }
            } else if let Some(k) = ids("keywords").first() {
                text.push_str(&format!("Use the keyword [kw:{k}]. "));
            }
        }
        if category != "documentation" || context["docs"].as_array().is_none_or(|d| d.is_empty()) {
            for b in bundles.iter().take(3) {
                text.push_str(&format!("Run **{b}** [bundle:{b}]. "));
            }
        }
    }
    text.push_str(&format!("Also [{INVENTED}]."));
    let pieces: Vec<String> = text
        .as_bytes()
        .chunks(24)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    let refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
    sse::reply(&refs)
}
