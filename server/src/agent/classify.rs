//! What kind of question this is: meta (about the assistant), follow-up,
//! keyword-library, documentation or general.
//!
//! Offline: word-boundary rules first (never bare substrings: "they" is not "hey",
//! "podman" is not a pod, "library" alone is not a keyword question), then the
//! nearest labelled example question by embedding when the rules are silent. With an
//! LLM, the LLM decides when the session has history (where follow-ups hide);
//! otherwise the rules stand, saving a round trip.

use crate::index::embed::{Embedder, Purpose};
use crate::index::vectors::dot;
use crate::memory::SessionContext;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Meta,
    FollowUp,
    KeywordLibrary,
    Documentation,
    #[default]
    General,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Meta => "meta",
            Category::FollowUp => "follow-up",
            Category::KeywordLibrary => "keyword-library",
            Category::Documentation => "documentation",
            Category::General => "general",
        }
    }

    pub fn parse(s: &str) -> Option<Category> {
        Some(match s.trim().to_lowercase().replace('_', "-").as_str() {
            "meta" => Category::Meta,
            "follow-up" | "followup" => Category::FollowUp,
            "keyword-library" | "keyword" | "library" => Category::KeywordLibrary,
            "documentation" | "docs" => Category::Documentation,
            "general" => Category::General,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Classification {
    pub category: Category,
    /// `rules`, `examples` or `llm`.
    pub method: String,
    pub reason: String,
}

fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid pattern")
}

static GREETING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(hi|hello|hey|hey there|hi there|hello there|yo|howdy|good (morning|afternoon|evening)|thanks|thank you|thx|ty|cheers|thanks a lot|thank you so much|ok thanks|great thanks)(,? (that|this) (helped|helps)( a lot)?)?[\s!.?]*$",
    )
});
static ABOUT_ME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(who|what) (are|r) (you|u)\b|\bwhat can (you|u) do\b|\bhow do (you|u) (pick|choose|decide|recommend|rank|work|search|find)\b|\bare (you|u) (chat ?gpt|gpt|an? (ai|bot|llm|robot|human))\b|\bwho (made|built|created|wrote) (you|u|this)\b|\bwhat (is|'s) registry chat\b|\bwhat do you know\b|^\s*help\s*[?!.]*$|\bthat helped\b|\bthanks?\b.*\b(helped|useful)\b",
    )
});
static FOLLOW_START: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(and|also|what about|how about|and what about|and how about|ok(ay)?,? (and|so|but|what|how)|but (what|how)|same (for|on|but)|same thing|now (for|on)|anything (else|similar)|what else|and on|which one|which of (them|those|these))\b",
    )
});
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(it|its|it's|that one|this one|that bundle|this bundle|those|these|them|the same|the first one|the second one|the last one|the other one|that|this)\b|\bsimilar\b|\binstead\b|\bthe (slis?|tasks?|variables?|secrets?|readme|author)\b",
    )
});
static AUTHORING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bhow (do|can|should|would) (i|we) (write|create|build|make|add|publish|structure|test|package) (my|our|a|an|the)( own| new| custom)? (keyword|library|codebundle|code bundle|bundle|task|sli|runbook|codecollection)",
    )
});

/// References that point back whatever the question's length.
static STRONG_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\binstead\b|\b(that|this|which) one\b|\bthe ones\b|\bthose (ones|bundles)\b|\bsame thing\b|\bthe (first|second|third|last|other) one\b",
    )
});
static KEYWORD_WORD: LazyLock<Regex> =
    LazyLock::new(|| re(r"\bkeywords?\b|\brw\.[a-z]\w*|\bpython (library|module|function)\b"));
static LIBRARY_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\blibrar(y|ies)\b.*\b(robot|python|keyword|import|call|function|method)\b|\b(robot|python|keyword|import|call)\b.*\blibrar(y|ies)\b",
    )
});
static DOC_QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bhow (do|can|should|would) (i|we|you) (write|create|make|declare|add|define|import|test|structure|name|tag|publish|contribute|mark|set up|document)\b|\bwhat (is|are|does) (a |an |the )?(runbook|sli|slo|slx|codebundle|code bundle|codecollection|code collection|generation rules?|taskset|severity|user variables?|secrets?|access level)s?\b|\bdifference between\b|\bwhat (does|do) .{1,40} mean\b|\bdocs?\b|\bdocumentation\b|\bexit code\b|\bbest practices?\b|\bhow does (discovery|generation|indexing)\b",
    )
});

/// Labelled examples for the similarity vote (general-purpose phrasing, not the
/// golden set).
const EXAMPLES: &[(Category, &str)] = &[
    (Category::Meta, "what kind of questions can I ask you"),
    (Category::Meta, "how does this assistant choose its answers"),
    (Category::Meta, "tell me about yourself"),
    (Category::Meta, "is this an AI model"),
    (
        Category::Documentation,
        "how do I write a task that raises an issue",
    ),
    (
        Category::Documentation,
        "what is the difference between a runbook and an SLI",
    ),
    (
        Category::Documentation,
        "how are codebundles discovered for my resources",
    ),
    (
        Category::Documentation,
        "how should a secret be declared in a robot file",
    ),
    (
        Category::Documentation,
        "what do the issue severity levels mean",
    ),
    (Category::KeywordLibrary, "which keyword runs a bash script"),
    (
        Category::KeywordLibrary,
        "what arguments does this robot keyword take",
    ),
    (
        Category::KeywordLibrary,
        "which bundles call this python library function",
    ),
    (Category::General, "pods keep restarting in my namespace"),
    (Category::General, "the database replica is lagging"),
    (Category::General, "our website certificate expires soon"),
    (Category::General, "messages are piling up in the queue"),
    (
        Category::General,
        "cloud bill went up, which resources cost the most",
    ),
];

/// Below this cosine the nearest example is not trusted.
const EXAMPLE_MIN: f32 = 0.55;

pub struct ExampleIndex {
    embedder_id: String,
    vectors: Vec<(Category, Vec<f32>)>,
}

impl ExampleIndex {
    pub async fn build(embedder: &dyn Embedder) -> Option<ExampleIndex> {
        let texts: Vec<String> = EXAMPLES.iter().map(|(_, t)| t.to_string()).collect();
        let vecs = embedder.embed(&texts, Purpose::Query).await.ok()?;
        Some(ExampleIndex {
            embedder_id: embedder.id().to_string(),
            vectors: EXAMPLES.iter().map(|(c, _)| *c).zip(vecs).collect(),
        })
    }

    fn nearest(&self, q: &[f32]) -> Option<(Category, f32)> {
        self.vectors
            .iter()
            .map(|(c, v)| (*c, dot(q, v)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }
}

/// Rules only (no model): `None` when they do not decide.
pub fn by_rules(
    question: &str,
    ctx: &SessionContext,
    keyword_names: &[String],
) -> Option<Classification> {
    let q = question.to_lowercase();
    let words = q.split_whitespace().count();
    let rule = |c: Category, reason: &str| {
        Some(Classification {
            category: c,
            method: "rules".into(),
            reason: reason.into(),
        })
    };
    if GREETING.is_match(&q) {
        return rule(Category::Meta, "greeting or thanks");
    }
    if ABOUT_ME.is_match(&q) {
        return rule(Category::Meta, "question about the assistant");
    }
    if !ctx.turns.is_empty()
        && (FOLLOW_START.is_match(&q)
            || STRONG_REFERENCE.is_match(&q)
            || (words <= 12 && REFERENCE.is_match(&q)))
    {
        return rule(Category::FollowUp, "continues the previous turn");
    }
    // Writing your own library is a documentation question, not a keyword lookup.
    if AUTHORING.is_match(&q) {
        return rule(
            Category::Documentation,
            "asks how to write or build something",
        );
    }
    let names_keyword = keyword_names
        .iter()
        .any(|k| k.split_whitespace().count() >= 2 && q.contains(&k.to_lowercase()));
    if KEYWORD_WORD.is_match(&q) || LIBRARY_CONTEXT.is_match(&q) || names_keyword {
        return rule(
            Category::KeywordLibrary,
            "asks about keywords or a keyword library",
        );
    }
    if DOC_QUESTION.is_match(&q) {
        return rule(
            Category::Documentation,
            "asks how things work or are written",
        );
    }
    None
}

pub async fn offline(
    question: &str,
    ctx: &SessionContext,
    keyword_names: &[String],
    examples: Option<&ExampleIndex>,
    embedder: &dyn Embedder,
) -> Classification {
    if let Some(c) = by_rules(question, ctx, keyword_names) {
        return c;
    }
    if let Some(ex) = examples.filter(|e| e.embedder_id == embedder.id())
        && let Ok(v) = embedder
            .embed(&[question.to_string()], Purpose::Query)
            .await
        && let Some((cat, score)) = v.first().and_then(|q| ex.nearest(q))
        && score >= EXAMPLE_MIN
        && cat != Category::General
    {
        return Classification {
            category: cat,
            method: "examples".into(),
            reason: format!("nearest example ({score:.2})"),
        };
    }
    Classification {
        category: Category::General,
        method: "rules".into(),
        reason: "default".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::PastTurn;

    fn with_history() -> SessionContext {
        SessionContext {
            turns: vec![PastTurn::default()],
            ..Default::default()
        }
    }

    fn cat(q: &str, ctx: &SessionContext) -> Option<Category> {
        by_rules(q, ctx, &["Run Bash File".to_string()]).map(|c| c.category)
    }

    #[test]
    fn greetings_and_questions_about_the_assistant() {
        let none = SessionContext::default();
        assert_eq!(cat("hey there", &none), Some(Category::Meta));
        assert_eq!(
            cat("thanks, that helped a lot", &none),
            Some(Category::Meta)
        );
        assert_eq!(cat("who made you", &none), Some(Category::Meta));
        assert_eq!(
            cat("how do you pick which bundles to recommend?", &none),
            Some(Category::Meta)
        );
        // "they" is not "hey"; a real problem is not a greeting.
        assert_eq!(cat("they say the pods keep restarting", &none), None);
        assert_eq!(cat("hello, our ingress returns 502", &none), None);
    }

    #[test]
    fn follow_ups_need_history() {
        assert_eq!(
            cat("what about its SLIs?", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("does that one need write access?", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("anything similar for AKS?", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("and on the aws side?", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("same thing but for azure service bus", &with_history()),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat(
                "what if the db runs inside the cluster with the zalando operator instead?",
                &with_history()
            ),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat(
                "which one for the ones issued inside the cluster?",
                &with_history()
            ),
            Some(Category::FollowUp)
        );
        assert_eq!(
            cat("what about its SLIs?", &SessionContext::default()),
            None
        );
    }

    #[test]
    fn keywords_and_docs() {
        let none = SessionContext::default();
        assert_eq!(
            cat("which keyword runs a bash file?", &none),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(
            cat("how do I call Run Bash File with a secret", &none),
            Some(Category::KeywordLibrary)
        );
        assert_eq!(
            cat("our library is closed on sundays", &none),
            None,
            "library alone is not a keyword question"
        );
        assert_eq!(cat("podman containers keep dying", &none), None);
        assert_eq!(
            cat(
                "how do i write my own keyword library and call it from robot",
                &none
            ),
            Some(Category::Documentation)
        );
        assert_eq!(
            cat(
                "how do i make a user variable required in a codebundle",
                &none
            ),
            Some(Category::Documentation)
        );
        assert_eq!(
            cat("whats the difference between a runbook and an sli", &none),
            Some(Category::Documentation)
        );
    }
}
