//! The MCP tools. Each returns markdown for the model to read and the same facts
//! as structured JSON for programs. Bad arguments are protocol errors
//! (`invalid_params`); "nothing found" is a normal result that says so.

use super::render;
use crate::agent::{Agent, TurnOptions, collect, validate_question};
use crate::search::{Filters, SearchOptions};
use crate::store::Db;
use crate::tools::{Registry, ToolError, bundle_json};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

const MAX_K: u32 = 10;
/// Search keeps the five best doc sections.
const MAX_DOCS: u32 = 5;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct FindCodebundle {
    /// What you want to check or fix, in plain words (e.g. "pods keep restarting in payments").
    pub query: String,
    /// Only bundles for this platform (e.g. kubernetes, aws, azure, gcp).
    #[serde(default)]
    pub platform: Option<String>,
    /// How many bundles to return (1-10, default 5).
    #[serde(default)]
    pub k: Option<u32>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct FindDocumentation {
    /// The question about authoring, configuring or running codebundles.
    pub query: String,
    /// How many sections to return (1-5, default 3).
    #[serde(default)]
    pub k: Option<u32>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct KeywordUsage {
    /// A keyword name ("Run Bash File") or what you want a keyword to do.
    pub query: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GetCodebundle {
    /// The bundle id `collection/slug`, as the other tools return it.
    pub id: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Ask {
    /// The question, as a user would ask it in the chat.
    pub question: String,
    /// Continue this conversation (the `session_id` of an earlier `ask`), so
    /// follow-ups like "does it need write access?" work.
    #[serde(default)]
    pub session_id: Option<String>,
}

#[derive(Clone)]
pub struct RegistryTools {
    agent: Arc<Agent>,
    registry: Registry,
    shutdown: CancellationToken,
    tool_router: ToolRouter<Self>,
}

fn result(markdown: String, structured: Value) -> CallToolResult {
    let mut r = CallToolResult::success(vec![ContentBlock::text(markdown)]);
    r.structured_content = Some(structured);
    r
}

fn not_found(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

fn query(q: &str) -> Result<String, ErrorData> {
    validate_question(q).map_err(|e| ErrorData::invalid_params(e.public_message(), None))
}

/// A tool's failure as MCP says it: the caller's mistake is a protocol error,
/// "not there" a normal result that says so, the registry's own fault a safe
/// internal error (the detail is logged by `public_message`).
fn failed(e: ToolError) -> Result<CallToolResult, ErrorData> {
    match e {
        ToolError::Invalid(m) => Err(ErrorData::invalid_params(m, None)),
        ToolError::NotFound(m) => Ok(not_found(m)),
        internal => Err(ErrorData::internal_error(internal.public_message(), None)),
    }
}

#[tool_router]
impl RegistryTools {
    pub fn new(agent: Arc<Agent>, db: Db, shutdown: CancellationToken) -> Self {
        RegistryTools {
            registry: Registry::new(agent.searcher().clone(), db),
            agent,
            shutdown,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Find codebundles (Robot Framework troubleshooting and operations task bundles) for a problem. Returns bundle ids (collection/slug), calibrated relevance scores (0-1), platform, access level (read-only or read-write), the tasks that matched, and source links. Says so when nothing in the registry fits."
    )]
    async fn find_codebundle(
        &self,
        Parameters(p): Parameters<FindCodebundle>,
    ) -> Result<CallToolResult, ErrorData> {
        let q = query(&p.query)?;
        let options = SearchOptions {
            k: p.k.unwrap_or(5).clamp(1, MAX_K) as usize,
            filters: Filters {
                platform: p.platform.filter(|s| !s.trim().is_empty()),
                ..Default::default()
            },
            ..Default::default()
        };
        match self.registry.search(&q, &options).await {
            Ok(r) => Ok(result(render::bundles(&r), render::bundles_json(&r))),
            Err(e) => failed(e),
        }
    }

    #[tool(
        description = "Search the registry documentation (how to write, configure and run codebundles). Returns sections with their ids, headings, snippets and links."
    )]
    async fn find_documentation(
        &self,
        Parameters(p): Parameters<FindDocumentation>,
    ) -> Result<CallToolResult, ErrorData> {
        let q = query(&p.query)?;
        let k = p.k.unwrap_or(3).clamp(1, MAX_DOCS) as usize;
        let r = match self.registry.search(&q, &SearchOptions::default()).await {
            Ok(r) => r,
            Err(e) => return failed(e),
        };
        let docs: Vec<_> = r.docs.into_iter().take(k).collect();
        Ok(result(render::docs(&q, &docs), json!({ "docs": docs })))
    }

    #[tool(
        description = "Help with Robot Framework library keywords used by codebundles: finds keywords by name or purpose and returns their library, arguments, documentation, the Library import line, and real calls from bundles that use them."
    )]
    async fn keyword_usage_help(
        &self,
        Parameters(p): Parameters<KeywordUsage>,
    ) -> Result<CallToolResult, ErrorData> {
        let q = query(&p.query)?;
        let r = match self.registry.search(&q, &SearchOptions::default()).await {
            Ok(r) => r,
            Err(e) => return failed(e),
        };
        let found: Vec<_> = r.keywords.into_iter().take(3).collect();
        let keys: Vec<(String, String)> = found
            .iter()
            .map(|k| (k.library.clone(), k.name.clone()))
            .collect();
        let examples = match self.registry.keyword_examples(&keys).await {
            Ok(e) => e,
            Err(e) => return failed(e),
        };
        Ok(result(
            render::keywords(&q, &found, &examples),
            json!({ "keywords": found, "examples": examples }),
        ))
    }

    #[tool(
        description = "Full details of one codebundle by id (collection/slug): description, platform, access level, tasks and SLIs with docs, user variables and secrets with defaults, README excerpt, files and source link."
    )]
    async fn get_codebundle(
        &self,
        Parameters(p): Parameters<GetCodebundle>,
    ) -> Result<CallToolResult, ErrorData> {
        match self.registry.bundle(&p.id).await {
            Ok(rec) => Ok(result(render::bundle(&rec), bundle_json(&rec))),
            Err(e) => failed(e),
        }
    }

    #[tool(
        description = "Ask the registry assistant a question and get its full answer: recommended codebundles with the tasks to run first, citations ([bundle:collection/slug], [doc:ID], [kw:ID]) resolved to names and links, a source tag and confidence, or a no-match with a draft codebundle request. Pass the returned session_id to ask follow-ups."
    )]
    async fn ask(&self, Parameters(p): Parameters<Ask>) -> Result<CallToolResult, ErrorData> {
        let question = query(&p.question)?;
        let options = TurnOptions {
            shutdown: self.shutdown.clone(),
            // MCP clients on this machine share their conversations with each other
            // and with no browser.
            owner: crate::memory::Owner::Id("mcp".into()),
            ..Default::default()
        };
        let got = collect(self.agent.start_turn(question, p.session_id, options)).await;
        if let Some((code, message)) = &got.error {
            return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "The assistant could not answer: {message} ({code})"
            ))]));
        }
        Ok(result(render::answer(&got), render::answer_json(&got)))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for RegistryTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(rmcp::model::Implementation::new(
                "registry-chat",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Registry Chat: search an automation registry of codebundles (Robot Framework task bundles for troubleshooting and operations). Use find_codebundle for 'what can check/fix X', get_codebundle for details, find_documentation for how-to questions, keyword_usage_help for library keywords, and ask for a full cited answer.",
            )
    }
}
