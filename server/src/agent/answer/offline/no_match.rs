//! Nothing fits: say so plainly, show the closest bundles with a caveat, and
//! prefill a request for a new codebundle.

use super::super::cite::format as cite;
use super::super::{Grounding, Written};
use super::text::{pct, sentence, title_case};
use app::api::CitationKind;
use app::api::RequestDraft;
use regex::Regex;
use std::fmt::Write;
use std::sync::LazyLock;

pub(super) fn no_match(g: &Grounding) -> Written {
    let mut out = String::new();
    let subject = if g.retrieval.uncovered.is_empty() {
        "this".to_string()
    } else {
        g.retrieval
            .uncovered
            .iter()
            .map(|u| format!("**{}**", title_case(u)))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    let _ = writeln!(
        out,
        "I couldn't find a codebundle in this registry that covers {subject}."
    );
    let closest: Vec<_> = g.retrieval.bundles.iter().take(3).collect();
    if !closest.is_empty() {
        let _ = writeln!(
            out,
            "\nThe closest ones work on other things, so treat them as a starting point at best:"
        );
        for h in &closest {
            let _ = writeln!(
                out,
                "- **{}** {} (relevance {}) — {}",
                h.display_name,
                cite(CitationKind::Bundle, &h.key),
                pct(h.score),
                sentence(&h.description)
            );
        }
    }
    let _ = writeln!(
        out,
        "\nYou can request a new codebundle for this; I've prefilled a request from your question."
    );
    // The platform the question names, else the technology nothing covers
    // ("kafka"), which is what the new bundle would target.
    let platform = g
        .snapshot
        .understand(&g.question)
        .platforms
        .wanted
        .first()
        .cloned()
        .or_else(|| g.retrieval.uncovered.first().cloned());
    let request = RequestDraft {
        problem: g.question.clone(),
        platform,
        healthy: healthy_guess(&g.question),
        context: {
            let mut c = String::from("Asked in Registry Chat.");
            if !g.retrieval.uncovered.is_empty() {
                let _ = write!(
                    c,
                    " Not covered by any indexed bundle: {}.",
                    g.retrieval.uncovered.join(", ")
                );
            }
            if !closest.is_empty() {
                let _ = write!(
                    c,
                    " Closest existing bundles: {}.",
                    closest
                        .iter()
                        .map(|h| h.key.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            c
        },
        closest: closest
            .iter()
            .map(|h| super::super::card_from_hit(h))
            .collect(),
    };
    Written {
        text: out.trim_end().to_string(),
        request: Some(request),
    }
}

/// A first guess at "what healthy looks like", for the user to edit.
fn healthy_guess(q: &str) -> String {
    static GUESSES: LazyLock<Vec<(Regex, &str)>> = LazyLock::new(|| {
        [
            (
                r"\b(lag(ging|s)?|behind|backlog|piling|queue(d|s)?)\b",
                "Lag or backlog stays below an agreed threshold and drains on its own.",
            ),
            (
                r"\b(full|space|disk|storage|tablespace|quota)\b",
                "Usage stays below 80% of capacity, with an alert before it fills.",
            ),
            (
                r"\b(slow|latency|timeouts?|timing out)\b",
                "Responses stay within the agreed latency target.",
            ),
            (
                r"\b(down|stopped|not reporting|not sending|crash(es|ing|ed)?|fail(s|ing|ed)?|errors?)\b",
                "The component is up, reporting, and free of errors.",
            ),
        ]
        .into_iter()
        .map(|(p, t)| (Regex::new(p).expect("valid pattern"), t))
        .collect()
    });
    let q = q.to_lowercase();
    GUESSES
        .iter()
        .find(|(re, _)| re.is_match(&q))
        .map_or(
            "The component reports healthy and stays within agreed thresholds.",
            |(_, t)| t,
        )
        .to_string()
}
