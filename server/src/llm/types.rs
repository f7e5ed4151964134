//! The chat-completions wire types we send and what we keep from replies.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    pub fn system(text: impl Into<String>) -> Self {
        Message {
            role: "system".into(),
            content: Some(text.into()),
            tool_calls: vec![],
            tool_call_id: None,
        }
    }
    pub fn user(text: impl Into<String>) -> Self {
        Message {
            role: "user".into(),
            content: Some(text.into()),
            tool_calls: vec![],
            tool_call_id: None,
        }
    }
    pub fn assistant(text: impl Into<String>, tool_calls: Vec<ToolCall>) -> Self {
        let text = text.into();
        Message {
            role: "assistant".into(),
            content: (!text.is_empty() || tool_calls.is_empty()).then_some(text),
            tool_calls,
            tool_call_id: None,
        }
    }
    pub fn tool(id: &str, text: impl Into<String>) -> Self {
        Message {
            role: "tool".into(),
            content: Some(text.into()),
            tool_calls: vec![],
            tool_call_id: Some(id.to_string()),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    #[serde(rename = "type", default = "function_kind")]
    pub kind: String,
    pub function: FunctionCall,
}

fn function_kind() -> String {
    "function".into()
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    pub name: String,
    /// JSON text as the model wrote it (may be malformed; the caller checks).
    pub arguments: String,
}

/// A tool the model may call, described by a JSON schema.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub parameters: serde_json::Value,
}

#[derive(Clone, Debug, Default)]
pub struct CompletionRequest {
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    /// Ask for a JSON object (`response_format`), where the server supports it.
    pub json: bool,
    /// Overrides the configured limit (small for classification calls).
    pub max_tokens: Option<u32>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
}

/// What one call produced, accumulated from the stream.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Completion {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub finish_reason: Option<String>,
    pub usage: Usage,
}

/// One parsed piece of a streamed reply.
#[derive(Clone, Debug, PartialEq)]
pub enum Delta {
    Text(String),
    /// A fragment of tool call number `index` (id and name usually come first,
    /// arguments in pieces).
    Tool {
        index: usize,
        id: Option<String>,
        name: Option<String>,
        arguments: String,
    },
    Finish(String),
    Usage(Usage),
}

/// Most tool calls one reply may make (a larger index is a broken or hostile
/// server, refused when the chunk is read).
pub const MAX_TOOL_CALLS: usize = 16;
/// Longest arguments of one tool call, and longest text of one reply.
pub const MAX_ARGUMENT_BYTES: usize = 64 * 1024;
pub const MAX_TEXT_BYTES: usize = 256 * 1024;

impl Completion {
    /// Folds a delta in; tool-call fragments are joined by their index. Indices and
    /// sizes past the limits are dropped here too (the stream reader refuses them
    /// first).
    pub fn apply(&mut self, d: &Delta) {
        match d {
            Delta::Text(t) => {
                if self.text.len() + t.len() <= MAX_TEXT_BYTES {
                    self.text.push_str(t);
                }
            }
            Delta::Tool {
                index,
                id,
                name,
                arguments,
            } => {
                if *index >= MAX_TOOL_CALLS {
                    return;
                }
                while self.tool_calls.len() <= *index {
                    self.tool_calls.push(ToolCall {
                        kind: "function".into(),
                        ..Default::default()
                    });
                }
                let call = &mut self.tool_calls[*index];
                if let Some(id) = id.as_ref().filter(|s| !s.is_empty()) {
                    call.id = id.clone();
                }
                if let Some(name) = name.as_ref().filter(|s| !s.is_empty())
                    && call.function.name.len() + name.len() <= 256
                {
                    call.function.name.push_str(name);
                }
                if call.function.arguments.len() + arguments.len() <= MAX_ARGUMENT_BYTES {
                    call.function.arguments.push_str(arguments);
                }
            }
            Delta::Finish(r) => self.finish_reason = Some(r.clone()),
            Delta::Usage(u) => self.usage = *u,
        }
    }

    /// Calls without an id get one, so tool results can refer to them.
    pub fn finish(mut self) -> Self {
        for (i, c) in self.tool_calls.iter_mut().enumerate() {
            if c.id.is_empty() {
                c.id = format!("call_{i}");
            }
        }
        self.tool_calls.retain(|c| !c.function.name.is_empty());
        self
    }
}
