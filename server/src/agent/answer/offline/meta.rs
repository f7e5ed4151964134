//! Questions about the assistant itself, answered from facts about this install.

use super::super::Grounding;
use crate::agent::classify::Request;
use regex::Regex;
use std::sync::LazyLock;

fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid pattern")
}

static THANKS: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(thanks?|thank you|thx|ty|cheers|helped)\b"));
static WHAT_ARE_YOU: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\b(chat ?gpt|gpt|ai|bot|chat ?bot|llm|robot|human|model|person|machine)\b")
});
static HOW_YOU_WORK: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(pick|choose|decide|recommend|rank|work|search|find)s?\b"));
static WHO_MADE: LazyLock<Regex> = LazyLock::new(|| re(r"\b(made|built|created|wrote)\b"));

pub(super) fn meta(g: &Grounding) -> String {
    let q = g.question.to_lowercase();
    let s = &g.snapshot;
    let collections: std::collections::BTreeSet<&str> =
        s.bundles.iter().map(|b| b.collection.as_str()).collect();
    let example = s
        .bundles
        .iter()
        .find(|b| b.slug.contains("crashloop") || b.slug.contains("restart"))
        .or(s.bundles.first())
        .map(|b| format!("*\"{}\"*", b.display_name.to_lowercase()))
        .unwrap_or_else(|| "*\"pods keep restarting, where do I start?\"*".into());
    // The same test that routed it here: the whole message ends the conversation.
    if crate::agent::classify::is_closing(&q) {
        return "Glad to help. This conversation stays saved: come back to it, or export it as a report, whenever you need it.".into();
    }
    if crate::agent::classify::is_acknowledgement(&q) {
        return "Anything else? Tell me what you see, or ask what the registry has for a platform or a product.".into();
    }
    if crate::agent::classify::asks_what_was_asked(&q) {
        return "Your earlier questions are in this conversation above, and I keep them in mind: a follow-up such as *\"and on staging?\"* keeps the subject of the last one. Export the conversation as a report to keep a copy.".into();
    }
    if THANKS.is_match(&q) {
        return "Glad it helped. Ask whenever something else acts up.".into();
    }
    match crate::agent::classify::request_of(&g.question) {
        Some(Request::OffTopic) => {
            return format!(
                "That's outside what I'm for: I'm Registry Chat, and I help you find the codebundles in this registry that check or fix your systems. Tell me what you see, for example {example}, and I'll point you to the bundles that fit."
            );
        }
        Some(Request::Act) => {
            return "I can't run or change anything on your systems: I find the codebundle that does it, and you run it from your workspace, where its access and secrets are configured. Ask me which bundle does it (for example *\"which bundle restarts a deployment?\"*) and I'll point you to it, with the tasks it runs and whether it only reads or also changes things.".into();
        }
        Some(Request::Access) => {
            return "I don't connect to your clusters, cloud accounts or logs: I read the codebundles in this registry and point you to the ones that check or fix what you describe. You run them from your workspace, where their access and secrets are configured. Tell me what you see and I'll find the bundles that fit.".into();
        }
        None => {}
    }
    let engine = match &g.llm_model {
        Some(m) => format!("When I write, I use the configured language model (`{m}`), always grounded in the registry."),
        None => "No language model is configured, so I answer from the registry with rules; an OpenAI-compatible model can be added for richer answers.".into(),
    };
    if WHAT_ARE_YOU.is_match(&q) {
        return format!(
            "I'm Registry Chat, an assistant for this automation registry, not a general chatbot. {engine}"
        );
    }
    if HOW_YOU_WORK.is_match(&q) {
        return "I match your question against every codebundle's name, tasks, SLIs, README and tags two ways at once: by meaning (sentence embeddings) and by words (BM25, with spelling correction). I translate everyday descriptions into the terms bundles use, favour the platform you mention, and score each result as the probability that it is a right answer. When nothing scores well enough, I say so instead of guessing, and offer to request a new codebundle.".into();
    }
    if WHO_MADE.is_match(&q) {
        return format!(
            "I'm Registry Chat, self-hosted software running next to your registry: one binary and a SQLite file. {engine}"
        );
    }
    format!(
        "I'm Registry Chat. I know {} codebundles in {} collection{} ({}) and {} documentation sections. Describe what you see in your own words, for example {example}, and I'll point you to the bundles that fit, the tasks to run first and what to configure. I can also explain a bundle's SLIs, variables or access level, answer questions about keyword libraries and the docs, and help you request a codebundle that doesn't exist yet.",
        s.bundles.len(),
        collections.len(),
        if collections.len() == 1 { "" } else { "s" },
        collections.into_iter().collect::<Vec<_>>().join(", "),
        s.docs
            .keys()
            .filter(|id| !crate::search::is_readme_section(**id))
            .count()
    )
}
