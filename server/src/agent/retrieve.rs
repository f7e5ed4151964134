//! Retrieval for a turn: the plan's queries run concurrently and their results are
//! merged (best score per bundle, matched tasks united), with the relations among the
//! final bundles from the knowledge graph.

use super::plan::{MAX_SEARCHES, Plan};
use crate::graph::Correlation;
use crate::query::Query;
use crate::search::{
    BundleHit, DocHit, KeywordHit, SearchError, SearchOptions, Searcher, carried, nothing_fits,
    uncarried,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Instant;

/// Scores from variations count for less than the refined query's: taking the plain
/// maximum let a stripped-down variation outrank the right bundle (agent eval R@1
/// 0.882 at 1.0, 0.906 at 0.8 and below; variations still add candidates).
const VARIATION_WEIGHT: f32 = 0.8;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SearchTrace {
    pub query: String,
    pub ms: f64,
    pub no_match: bool,
    /// (bundle key, calibrated score)
    pub hits: Vec<(String, f32)>,
    pub corrections: Vec<(String, String)>,
    pub uncovered: Vec<String>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Retrieval {
    pub bundles: Vec<BundleHit>,
    pub docs: Vec<DocHit>,
    pub keywords: Vec<KeywordHit>,
    pub correlations: Vec<Correlation>,
    pub no_match: bool,
    pub uncovered: Vec<String>,
    pub searches: Vec<SearchTrace>,
}

/// `queries`: the plan's query texts, each already read (`query::Query`).
pub async fn retrieve(
    searcher: &Searcher,
    plan: &Plan,
    queries: &[Query],
) -> Result<Retrieval, SearchError> {
    let options = SearchOptions {
        k: plan.k,
        filters: plan.filters.clone(),
        mode: plan.mode,
        ..Default::default()
    };
    let runs = queries.iter().take(MAX_SEARCHES).enumerate().map(|(i, q)| {
        let mut options = options.clone();
        // A variation (the question as typed beside its rewrite) searches its own
        // words only: the refined query already carries the concept terms, and a
        // second concept-expanded vector per turn is a forward pass that changed
        // nothing on the tuning halves (issue 13).
        options.concepts = i == 0 && options.concepts;
        async move {
            let t = Instant::now();
            let r = searcher.search_query(q, &options).await;
            (q.text.clone(), t.elapsed().as_secs_f64() * 1000.0, r)
        }
    });
    let results = futures::future::join_all(runs).await;
    let mut out = Retrieval::default();
    let mut bundles: HashMap<String, BundleHit> = HashMap::new();
    let mut docs: HashMap<String, DocHit> = HashMap::new();
    let mut keywords: HashMap<String, KeywordHit> = HashMap::new();
    for (i, (query, ms, r)) in results.into_iter().enumerate() {
        let r = r?;
        out.searches.push(SearchTrace {
            query,
            ms,
            no_match: r.no_match,
            hits: r.bundles.iter().map(|b| (b.key.clone(), b.score)).collect(),
            corrections: r.corrections.clone(),
            uncovered: r.uncovered.clone(),
        });
        if i == 0 {
            out.correlations = r.correlations.clone();
            out.uncovered = r.uncovered.clone();
        }
        let w = if i == 0 { 1.0 } else { VARIATION_WEIGHT };
        let id = searcher.embedder().id();
        for mut b in r.bundles {
            // Weighed on the scale the weight was chosen on (see `calibrate`).
            b.score = carried(id, w * uncarried(id, b.score));
            match bundles.get_mut(&b.key) {
                Some(have) => {
                    for m in b.matched {
                        if !have.matched.iter().any(|x| x.name == m.name) {
                            have.matched.push(m);
                        }
                    }
                    if b.score > have.score {
                        have.score = b.score;
                        have.signals = b.signals;
                    }
                }
                None => {
                    bundles.insert(b.key.clone(), b);
                }
            }
        }
        for d in r.docs {
            let e = docs.entry(d.id.clone()).or_insert_with(|| d.clone());
            e.score = e.score.max(d.score);
        }
        for k in r.keywords {
            let e = keywords.entry(k.id.clone()).or_insert_with(|| k.clone());
            e.score = e.score.max(k.score);
            e.rank = e.rank.max(k.rank);
        }
    }
    out.bundles = bundles.into_values().collect();
    out.bundles
        .sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.key.cmp(&b.key)));
    out.bundles.truncate(plan.k.max(5));
    for b in &mut out.bundles {
        b.matched.sort_by(|x, y| y.score.total_cmp(&x.score));
        b.matched.truncate(4);
    }
    out.docs = docs.into_values().collect();
    // Each search offers its own top bundle's README; only the answer's top bundle's
    // stays.
    let top = out.bundles.first().map(|b| b.bundle.clone());
    out.docs
        .retain(|d| !d.readme || top.as_ref().is_some_and(|b| d.is_readme_of(b)));
    out.docs.sort_by(|a, b| b.score.total_cmp(&a.score));
    out.docs.truncate(5);
    out.keywords = keywords.into_values().collect();
    out.keywords
        .sort_by(|a, b| b.rank.total_cmp(&a.rank).then_with(|| a.id.cmp(&b.id)));
    out.keywords.truncate(5);
    out.no_match = nothing_fits(out.bundles.first(), searcher.embedder().id());
    let keys: Vec<&str> = out.bundles.iter().map(|b| b.key.as_str()).collect();
    out.correlations
        .retain(|c| keys.contains(&c.a.as_str()) && keys.contains(&c.b.as_str()));
    Ok(out)
}
