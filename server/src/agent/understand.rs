//! LLM calls that understand the question: classification and follow-up rewriting.
//! Both ask for a small JSON object and are read leniently (code fences, prose
//! around the object); anything unusable is an error and the rules take over.

use super::classify::{Category, Classification};
use crate::llm::{CompletionRequest, LlmClient, LlmError, Message};
use crate::memory::SessionContext;
use serde_json::{Value, json};

/// Sends `req` and records the exchange (prompt, reply or error) for the trace.
async fn ask(
    llm: &LlmClient,
    call: &str,
    req: &CompletionRequest,
    log: &mut Vec<Value>,
) -> Result<String, LlmError> {
    let prompt: Vec<Value> = req
        .messages
        .iter()
        .map(|m| json!({"role": m.role, "content": m.content}))
        .collect();
    let result = llm.complete(req).await;
    log.push(match &result {
        Ok(out) => json!({"call": call, "prompt": prompt, "response": out.text}),
        Err(e) => json!({"call": call, "prompt": prompt, "error": e.to_string()}),
    });
    result.map(|out| out.text)
}

fn history(ctx: &SessionContext) -> String {
    let mut out = String::new();
    if !ctx.summary.is_empty() {
        out.push_str(&format!("Earlier:\n{}\n", ctx.summary));
    }
    for t in ctx.turns.iter().rev().take(3).rev() {
        let bundles: Vec<&str> = t
            .cards
            .iter()
            .take(3)
            .map(|c| c.display_name.as_str())
            .collect();
        out.push_str(&format!(
            "User: {}\nAssistant recommended: {}\n",
            t.question,
            if bundles.is_empty() {
                "nothing".into()
            } else {
                bundles.join(", ")
            }
        ));
    }
    out
}

/// The first JSON object in `text`.
pub fn json_object(text: &str) -> Option<serde_json::Value> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    serde_json::from_str(text.get(start..=end)?).ok()
}

pub async fn classify(
    llm: &LlmClient,
    question: &str,
    ctx: &SessionContext,
    log: &mut Vec<Value>,
) -> Result<Classification, LlmError> {
    let system = "You classify the latest message to an assistant for a registry of codebundles (Robot Framework task bundles for SRE troubleshooting). Categories:\n- meta: about the assistant itself, greetings, thanks\n- follow-up: continues the previous turn (refers to its bundles or topic with words like it, that one, similar, what about)\n- keyword-library: about Robot Framework keywords or Python keyword libraries\n- documentation: how codebundles, runbooks, SLIs, variables, secrets or discovery work or are written\n- general: an operational problem or a request for bundles\nReply with JSON only: {\"category\": \"...\", \"reason\": \"...\"}";
    let user = format!("{}Latest message: {question}", history(ctx));
    let req = CompletionRequest {
        messages: vec![Message::system(system), Message::user(user)],
        tools: vec![],
        json: true,
        max_tokens: Some(80),
    };
    let text = ask(llm, "classify", &req, log).await?;
    let v = json_object(&text).ok_or_else(|| {
        LlmError::BadReply(format!(
            "not JSON: {}",
            text.chars().take(80).collect::<String>()
        ))
    })?;
    let category = v["category"]
        .as_str()
        .and_then(super::classify::category_named)
        .ok_or_else(|| LlmError::BadReply(format!("unknown category in {v}")))?;
    // A follow-up needs something to follow.
    let category = if category == Category::FollowUp && ctx.turns.is_empty() {
        Category::General
    } else {
        category
    };
    Ok(Classification {
        category,
        method: super::classify::ClassifyMethod::Llm,
        reason: v["reason"]
            .as_str()
            .unwrap_or("")
            .chars()
            .take(200)
            .collect(),
    })
}

pub async fn rewrite(
    llm: &LlmClient,
    question: &str,
    ctx: &SessionContext,
    log: &mut Vec<Value>,
) -> Result<String, LlmError> {
    let system = "Rewrite the user's follow-up as one standalone search query for a codebundle registry. Keep the topic of the previous turn and add what the follow-up changes (platform, resource, access). Reply with JSON only: {\"query\": \"...\"}";
    let user = format!("{}Follow-up: {question}", history(ctx));
    let req = CompletionRequest {
        messages: vec![Message::system(system), Message::user(user)],
        tools: vec![],
        json: true,
        max_tokens: Some(80),
    };
    let text = ask(llm, "rewrite", &req, log).await?;
    let v = json_object(&text).ok_or_else(|| LlmError::BadReply("not JSON".into()))?;
    let q = v["query"]
        .as_str()
        .map(str::trim)
        .filter(|q| !q.is_empty() && q.len() < 500)
        .ok_or_else(|| LlmError::BadReply("no query".into()))?;
    Ok(q.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_is_found_inside_prose_and_fences() {
        assert_eq!(
            super::json_object("```json\n{\"a\": 1}\n```").unwrap()["a"],
            1
        );
        assert_eq!(
            super::json_object("Sure! {\"category\": \"meta\"} hope that helps").unwrap()["category"],
            "meta"
        );
        assert!(super::json_object("no json here").is_none());
    }
}
