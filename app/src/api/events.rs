//! The typed event stream of one chat turn. The server writes each event as one SSE
//! message whose `event:` name is the `type` field and whose `data:` is the JSON below;
//! the browser, the CLI and the tests all read this same shape.

use super::catalog::BundleHeader;
use serde::{Deserialize, Serialize};

/// Longest question accepted, in characters. Checked by the server; the browser uses
/// it to warn before sending.
pub const MAX_QUESTION_CHARS: usize = 4000;

/// Body of `POST /api/chat`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    pub question: String,
    /// Continue this conversation; `None` starts a new one.
    #[serde(default)]
    pub session_id: Option<String>,
}

/// A recommended codebundle, as a card shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// `collection/slug`.
    pub key: String,
    #[serde(flatten)]
    pub bundle: BundleHeader,
    /// Calibrated relevance, 0–1 (probability the bundle is a right answer);
    /// `None` for a bundle this turn's search did not rank: one that calls the
    /// keyword asked about, the subject carried from an earlier answer, a related
    /// bundle. A 0 % there would say "wrong answer" of a bundle shown on purpose.
    #[serde(default)]
    pub relevance: Option<f32>,
    /// Tasks/SLIs that matched the question, best first.
    pub matched_tasks: Vec<String>,
}

crate::derefs_to_header!(Card, bundle);

impl Card {
    /// A card for `bundle` with the relevance and matched tasks a search gave it.
    pub fn new(bundle: BundleHeader, relevance: Option<f32>, matched_tasks: Vec<String>) -> Card {
        Card {
            key: bundle.key(),
            bundle,
            relevance,
            matched_tasks,
        }
    }
    /// The relevance as a whole percentage, when this turn's search ranked it. At
    /// most 99: the strongest results are right about nine times in ten, never
    /// certainly.
    pub fn relevance_percent(&self) -> Option<u32> {
        self.relevance.map(|r| ((r * 100.0).round() as u32).min(99))
    }
}

crate::closed_set! {
    /// Where an answer comes from, by what it cites: one kind of source, several
    /// (`Mixed`), or none (`System`: answers about the assistant, plain no-match).
    #[derive(Default)]
    pub enum AnswerSource {
        Codebundles = "codebundles",
        Documentation = "documentation",
        Libraries = "libraries",
        Mixed = "mixed",
        #[default]
        System = "system",
    }
}

impl AnswerSource {
    /// The source tag as shown under an answer and in reports.
    pub fn label(self) -> &'static str {
        match self {
            AnswerSource::Codebundles => "Codebundles",
            AnswerSource::Documentation => "Documentation",
            AnswerSource::Libraries => "Libraries",
            AnswerSource::Mixed => "Mixed",
            AnswerSource::System => "System",
        }
    }
}

/// What a citation points at; serialised as the id's prefix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CitationKind {
    #[default]
    Bundle,
    Doc,
    Kw,
}

impl CitationKind {
    /// The prefix in `[bundle:…]`, `[doc:…]`, `[kw:…]`.
    pub fn as_str(self) -> &'static str {
        match self {
            CitationKind::Bundle => "bundle",
            CitationKind::Doc => "doc",
            CitationKind::Kw => "kw",
        }
    }

    pub fn parse(prefix: &str) -> Option<CitationKind> {
        match prefix {
            "bundle" => Some(CitationKind::Bundle),
            "doc" => Some(CitationKind::Doc),
            "kw" => Some(CitationKind::Kw),
            _ => None,
        }
    }
}

/// A validated citation: `[bundle:collection/slug]`, `[doc:id]` or `[kw:id]` in the text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// The id as written in the text, e.g. `bundle:kube-ops/k8s-pod-crashloop-triage`.
    pub id: String,
    pub kind: CitationKind,
    pub label: String,
    #[serde(default)]
    pub url: Option<String>,
}

/// The prefilled "Request CodeBundle" form offered when nothing fits.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestDraft {
    /// The problem in the user's words.
    pub problem: String,
    #[serde(default)]
    pub platform: Option<String>,
    /// What healthy looks like (a first guess the user edits).
    pub healthy: String,
    pub context: String,
    /// The closest existing bundles ("is one of these what you need?").
    pub closest: Vec<Card>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChatEvent {
    /// A pipeline stage started; `detail` is human-readable ("searching 12 queries").
    Stage { name: String, detail: String },
    /// The next piece of answer text (markdown).
    Token { text: String },
    /// While a language model writes: the grounded offline answer, ready at once.
    /// Shown until the model's text starts; if the model fails, the offline answer
    /// streams as the answer. Not saved (the answer is).
    Preview { text: String },
    /// The bundles the answer recommends (only ones it cites).
    Cards { cards: Vec<Card> },
    /// The citations in the answer that resolved to real items.
    Citations { citations: Vec<Citation> },
    /// Nothing fits: an offer to request a new codebundle.
    RequestCodebundle { draft: RequestDraft },
    /// Two or three next questions grounded in the recommended bundles (an SLI
    /// to watch, the read-write counterpart of a check, a related bundle); asked when clicked.
    Suggestions { questions: Vec<String> },
    /// The turn finished and was saved.
    Done {
        #[serde(default)]
        turn_id: Option<String>,
        #[serde(default)]
        session_id: Option<String>,
        elapsed_ms: u64,
        #[serde(default)]
        source: AnswerSource,
        #[serde(default)]
        confidence: f32,
        #[serde(default)]
        no_match: bool,
        /// The conversation's title (set from the first question).
        #[serde(default)]
        title: Option<String>,
    },
    /// The turn failed; nothing more follows.
    Error { code: String, message: String },
}

impl ChatEvent {
    /// The SSE `event:` name.
    pub fn kind(&self) -> &'static str {
        match self {
            ChatEvent::Stage { .. } => "stage",
            ChatEvent::Token { .. } => "token",
            ChatEvent::Preview { .. } => "preview",
            ChatEvent::Cards { .. } => "cards",
            ChatEvent::Citations { .. } => "citations",
            ChatEvent::RequestCodebundle { .. } => "request_codebundle",
            ChatEvent::Suggestions { .. } => "suggestions",
            ChatEvent::Done { .. } => "done",
            ChatEvent::Error { .. } => "error",
        }
    }

    pub fn stage(name: &str, detail: impl Into<String>) -> Self {
        ChatEvent::Stage {
            name: name.to_string(),
            detail: detail.into(),
        }
    }

    pub fn token(text: impl Into<String>) -> Self {
        ChatEvent::Token { text: text.into() }
    }

    /// True for the events after which the stream ends.
    pub fn is_terminal(&self) -> bool {
        matches!(self, ChatEvent::Done { .. } | ChatEvent::Error { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_matches_serialized_type() {
        let events = [
            ChatEvent::stage("search", "searching 3 queries"),
            ChatEvent::token("héllo ✓"),
            ChatEvent::Done {
                turn_id: None,
                session_id: None,
                elapsed_ms: 3,
                source: AnswerSource::System,
                confidence: 0.5,
                no_match: false,
                title: Some("t".into()),
            },
            ChatEvent::Error {
                code: "x".into(),
                message: "y".into(),
            },
        ];
        for ev in events {
            let v = serde_json::to_value(&ev).unwrap();
            assert_eq!(v["type"], ev.kind());
            let back: ChatEvent = serde_json::from_value(v).unwrap();
            assert_eq!(back, ev);
        }
    }

    #[test]
    fn request_session_is_optional() {
        let r: ChatRequest = serde_json::from_str(r#"{"question":"hi"}"#).unwrap();
        assert_eq!(r.session_id, None);
    }
}
