//! The offline answerer: no LLM, the same grounding, rules instead of generation.
//! It writes from the bundles' own documentation and task lists: which bundle to
//! start with and why, which tasks to run first and what each checks, what to set,
//! whether it changes things, how the results relate, and where to read more.

mod attribute;
mod catalog;
mod docs;
mod focused;
mod guide;
mod keywords;
mod meta;
mod no_match;
mod text;

use super::{Grounding, Written};
use crate::agent::classify::Category;
use crate::agent::plan::Route;

/// The offline answer, in the configured vocabulary.
pub fn write(g: &Grounding) -> Written {
    let mut w = write_ours(g);
    w.text = g.words.apply(&w.text);
    w
}

fn write_ours(g: &Grounding) -> Written {
    if g.snapshot.bundles.is_empty() && g.category != Category::Meta {
        return Written {
            text: "The index is empty, so I have no codebundles to recommend yet. Run `registry-chat index` to index a codecollection (the README's start command indexes the bundled sample registry), then ask again.".into(),
            request: None,
        };
    }
    if g.category == Category::Meta {
        return Written {
            text: meta::meta(g),
            request: None,
        };
    }
    if g.category == Category::Catalog {
        return Written {
            text: catalog::catalog(g),
            request: None,
        };
    }
    if let Some((a, rec)) = g.attribute() {
        return Written {
            text: attribute::attribute(a, rec, g),
            request: None,
        };
    }
    if let Some(lib) = g.library.as_ref().filter(|l| !l.keywords.is_empty()) {
        return Written {
            text: keywords::library(g, lib),
            request: None,
        };
    }
    // Asked about keywords, the nearest keywords are the answer unless even the
    // best means nothing (below "nothing fits" on the keyword scores' own curve,
    // the first stage's line): a bundle
    // answer to "how do I push the score from an SLI" answers another question.
    if g.category == Category::KeywordLibrary
        && g.retrieval.keywords.first().is_some_and(|k| {
            k.score >= crate::search::first_stage_no_match_below(g.snapshot.embedder_id.as_str())
        })
    {
        return Written {
            text: keywords::keywords(g),
            request: None,
        };
    }
    if g.category == Category::Documentation
        && g.retrieval.docs.first().is_some_and(|d| d.score >= 0.45)
    {
        return Written {
            text: docs::documentation(g),
            request: None,
        };
    }
    if g.retrieval.no_match {
        return no_match::no_match(g);
    }
    let text = match g.route {
        Route::Guide => guide::guide(g),
        Route::Focused => focused::focused(g),
    };
    Written {
        text,
        request: None,
    }
}
