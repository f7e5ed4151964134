//! A whole turn at once, for callers that do not stream (MCP `ask`, admin test
//! queries, the eval): the events of a turn folded into one value.

use super::Turn;
use app::api::{Card, ChatEvent, Citation, RequestDraft};
use futures::StreamExt;

#[derive(Clone, Debug, Default)]
pub struct Collected {
    pub text: String,
    pub cards: Vec<Card>,
    pub citations: Vec<Citation>,
    pub request: Option<RequestDraft>,
    pub suggestions: Vec<String>,
    pub turn_id: Option<String>,
    pub session_id: Option<String>,
    pub source: app::api::AnswerSource,
    pub confidence: f32,
    pub no_match: bool,
    pub elapsed_ms: u64,
    /// `(code, message)` when the turn failed.
    pub error: Option<(String, String)>,
}

pub async fn collect(mut turn: Turn) -> Collected {
    let mut out = Collected::default();
    while let Some(ev) = turn.next().await {
        match ev {
            ChatEvent::Token { text } => out.text.push_str(&text),
            ChatEvent::Cards { cards } => out.cards = cards,
            ChatEvent::Citations { citations } => out.citations = citations,
            ChatEvent::RequestCodebundle { draft } => out.request = Some(draft),
            ChatEvent::Suggestions { questions } => out.suggestions = questions,
            ChatEvent::Done {
                turn_id,
                session_id,
                elapsed_ms,
                source,
                confidence,
                no_match,
                ..
            } => {
                out.turn_id = turn_id;
                out.session_id = session_id;
                out.elapsed_ms = elapsed_ms;
                out.source = source;
                out.confidence = confidence;
                out.no_match = no_match;
            }
            ChatEvent::Error { code, message } => out.error = Some((code, message)),
            ChatEvent::Stage { .. } | ChatEvent::Preview { .. } => {}
        }
    }
    out
}
