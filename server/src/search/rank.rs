//! The ranking. Signals per bundle:
//! - vector: the best cosine between the question and any of the bundle's chunks
//!   (summary, tasks, SLIs, README sections), normalised from MiniLM's useful range;
//! - bm25: the bundle row's weighted BM25 (names > task names, tags > docs > README),
//!   saturated to 0–1;
//! - graph: links to entities the question names, by their rarity.
//!
//! Weighted fusion is the default (it beat reciprocal rank fusion on the golden set,
//! see README), then calibration to a probability, filters, MMR, and the no-match
//! decision.

use super::calibrate::{
    ANOTHER_PRODUCT_NAMED, Evidence, OTHER_PRODUCT, UNCOVERED_SUBJECT, calibrated,
    calibrated_section, carried, nothing_fits,
};
use super::signals::{
    Acc, KeywordSignals, accumulate, explain, graph_signal, keyword_signals, norm_cos,
    prior_and_actions, vector_signals,
};
use super::snapshot::Snapshot;
use super::types::*;
use crate::graph::{Correlation, NodeKind, correlate, link_entities};
use crate::index::vectors::dot;
use crate::query::{LEXICON, Query, platform_prior};
use rusqlite::Connection;
use std::collections::HashMap;
use std::time::Instant;

/// Fusion weights, chosen on the pooled tuning halves of the sample and public
/// golden sets (see README "Retrieval"): the best chunk's cosine, the summary
/// chunk's cosine, BM25, the platform prior, and the graph boost when enabled.
const W_VECTOR: f32 = 0.6;
const W_SUMMARY: f32 = 0.1;
const W_BM25: f32 = 0.3;
const W_PLATFORM: f32 = 0.05;
const W_GRAPH: f32 = 0.1;
/// A question that asks for an SLI (a monitor) is answered by a bundle that has
/// one: on the tuning halves every such question's expected bundles do. A bundle
/// without SLIs loses this much of its fused signal.
const W_NO_SLI: f32 = 0.05;
/// A bundle named for a purpose (`purposes.toml`) the question does not ask
/// about: a cost bundle for a question that says nothing about spending matches
/// the resource's words (app service, storage account, VM) while looking at its
/// bill. For cost, on the tuning halves this lifted 11 questions' right answer and
/// lowered none, the same from 0.1 to 0.15 (held out: 5 up, 1 down). Like
/// `W_NO_SLI` it lowers the shown relevance too; no-match and rejection rates did
/// not move. Chaos bundles take the same weight: neutral on the tuning halves (two
/// wrong chaos answers to "oom killed" questions gave way to other bundles, one
/// chaos question without any of its words lost a rank-5 hit), kept because a
/// destructive bundle on top of an incident answer is the worse mistake.
const W_PURPOSE_UNASKED: f32 = 0.1;
/// A bundle named for another product than the covered one the question names
/// (`products`), when nothing in it speaks of the asked one. On the tuning halves
/// 0.05 lifted three right answers to first place and lowered none; 0.1 lifted
/// five but lowered one and lost one from the top five (an RDS bundle for
/// "managed amazon postgres": products are related in ways a name cannot say).
const W_OTHER_PRODUCT_NAMED: f32 = 0.05;
/// A bundle's README sections are offered as documentation when it is the top
/// result at this score or more: the question is about it. At 0.5 a question
/// about writing a new bundle for a product got the README of the product's
/// bundle (0.53) instead of the authoring guide.
pub const README_SUBJECT_MIN: f32 = 0.75;
/// The signal a result carries when it was held back for a purpose the
/// question does not ask about: the purpose's name and this ("cost-unasked").
pub const UNASKED: &str = "-unasked";

/// The signal a result carries when the question asks for an SLI it lacks.
pub const LACKS_SLI: &str = "lacks-sli";

/// MMR trade-off: close to 1, so it only demotes near duplicates.
const MMR_LAMBDA: f32 = 0.85;
const RRF_K: f32 = 60.0;

pub fn search(
    s: &Snapshot,
    c: &Connection,
    query: &Query,
    qvec: Option<super::signals::QueryVectors>,
    o: &SearchOptions,
) -> SearchResults {
    let t0 = Instant::now();
    let mut out = SearchResults {
        query: query.text.clone(),
        corrections: query.corrections.clone(),
        uncovered: query.uncovered.clone(),
        unknown: query.unknown.clone(),
        ..Default::default()
    };

    // Entities and expansions.
    let entities = if o.graph_expand || o.graph_boost {
        link_entities(&s.graph, &query.text)
    } else {
        Vec::new()
    };
    out.entities = entities
        .iter()
        .map(|e| format!("{}:{}", e.kind, e.label))
        .collect();
    out.expansion = expansion(s, query, &entities, o);

    let tk = Instant::now();
    let keyword = if o.mode == Mode::Vector {
        KeywordSignals::default()
    } else {
        keyword_signals(s, c, query, &out.expansion)
    };
    out.timings.keyword_ms = tk.elapsed().as_secs_f64() * 1000.0;
    let vector = vector_signals(s, qvec, o.mode);
    if o.explain {
        out.explain = Some(explain(s, &vector, &keyword));
    }

    let tr = Instant::now();
    let mut acc = accumulate(s, &vector, &keyword);
    if o.graph_boost && !entities.is_empty() {
        graph_signal(s, &entities, &mut acc);
    }
    prior_and_actions(s, query, &mut acc);
    if let Some(x) = out.explain.as_mut() {
        x.graph = acc
            .iter()
            .filter(|(_, a)| a.graph > 0.0)
            .map(|(b, a)| (s.bundles[*b as usize].key(), a.graph))
            .collect();
        x.platform = s
            .bundles
            .iter()
            .map(|b| (b.key(), platform_prior(&query.platforms, &b.platform)))
            .filter(|(_, p)| *p != 0.0)
            .collect();
    }

    let scored = fuse_and_calibrate(s, query, acc, o);
    let candidates: Vec<(u32, f32, Acc)> = scored.into_iter().take(40).collect();
    let picked = if o.mmr {
        mmr(s, &candidates, o.k.max(1))
    } else {
        candidates.iter().take(o.k.max(1)).cloned().collect()
    };
    out.bundles = picked
        .into_iter()
        .map(|(b, score, a)| hit(s, b, score, &a, o))
        .collect();
    out.no_match = nothing_fits(out.bundles.first(), &s.embedder_id);

    // Docs and keywords use the better of the plain and concept-expanded question.
    let best_cos: Vec<(u32, f32)> = vector
        .plain
        .iter()
        .zip(&vector.wide)
        .map(|(&(ci, a), &(_, b))| (ci, a.max(b)))
        .collect();
    // A setting only one bundle takes makes that bundle the subject ("what does
    // MAX_JOB_DURATION_MINUTES default to?"), however its other words rank.
    let owner =
        query
            .settings
            .iter()
            .find_map(|n| match s.vocab.settings.get(n).map(Vec::as_slice) {
                Some([key]) => s.bundle_by_key.get(key).copied(),
                _ => None,
            });
    let subject = owner.or_else(|| {
        out.bundles
            .first()
            .filter(|b| b.score >= README_SUBJECT_MIN)
            .and_then(|b| s.bundle_by_key.get(&b.key).copied())
    });
    out.docs = rank_docs(s, query, &best_cos, &keyword.chunk, subject);
    out.keywords = rank_keywords(s, query, &best_cos, &keyword.chunk);
    out.correlations = correlations(s, &out.bundles);
    out.timings.rank_ms = tr.elapsed().as_secs_f64() * 1000.0;
    out.timings.total_ms = t0.elapsed().as_secs_f64() * 1000.0;
    out
}

/// Terms added to the question: its concepts' terms and, when asked, the graph's.
fn expansion(
    s: &Snapshot,
    query: &Query,
    entities: &[crate::graph::Entity],
    o: &SearchOptions,
) -> Vec<String> {
    let mut extra: Vec<String> = if o.concepts {
        query.concepts.clone()
    } else {
        Vec::new()
    };
    if o.graph_expand {
        for t in graph_expansion(s, entities) {
            if !extra.contains(&t) {
                extra.push(t);
            }
        }
    }
    extra
}

/// Fuse, filter, calibrate. The order is by calibrated score: within one question
/// it follows the fused signal, except that a bundle lacking a requested action
/// falls behind those that perform it.
fn fuse_and_calibrate(
    s: &Snapshot,
    query: &Query,
    acc: HashMap<u32, Acc>,
    o: &SearchOptions,
) -> Vec<(u32, f32, Acc)> {
    let (wv, wb) = match o.mode {
        Mode::Hybrid => (W_VECTOR, W_BM25),
        Mode::Vector => (1.0, 0.0),
        Mode::Keyword => (0.0, 1.0),
    };
    let wants_sli = query.mentions(crate::query::Role::Sli);
    // Each purpose once per question; the names live as long as the lexicon.
    let unasked: Vec<_> = LEXICON
        .purposes
        .iter()
        .filter(|p| !p.asked(&query.stems))
        .collect();
    let asked_products = super::products::asked(query);
    let mut fused: Vec<(u32, Acc)> = acc
        .into_iter()
        .filter(|(b, _)| passes(&s.bundles[*b as usize], &o.filters))
        .filter(|(_, a)| a.vector > 0.0 || a.bm25 > 0.0)
        .map(|(b, mut a)| {
            let meta = &s.bundles[b as usize];
            a.lacks_sli = wants_sli && meta.sli_count == 0;
            a.another_product = meta.products.another_than(&asked_products);
            let name = &s.vocab.bundle_label_stems[b as usize];
            a.unasked_purpose = unasked
                .iter()
                .find(|p| p.names(name))
                .map(|p| p.name.as_str());
            a.fused = wv * a.vector
                + wv * W_SUMMARY / W_VECTOR * a.summary
                + wb * a.bm25
                + W_PLATFORM * a.platform
                - if a.lacks_sli { W_NO_SLI } else { 0.0 }
                - if a.unasked_purpose.is_some() {
                    W_PURPOSE_UNASKED
                } else {
                    0.0
                }
                - if a.another_product {
                    W_OTHER_PRODUCT_NAMED
                } else {
                    0.0
                }
                + if o.graph_boost {
                    W_GRAPH * a.graph
                } else {
                    0.0
                };
            (b, a)
        })
        .collect();
    fused.sort_by(|x, y| y.1.fused.total_cmp(&x.1.fused).then(x.0.cmp(&y.0)));
    // How far each result stands from the best other one: a clear winner is more
    // often right than the first of several close calls.
    let first = fused.first().map_or(0.0, |(_, a)| a.fused);
    let second = fused.get(1).map_or(0.0, |(_, a)| a.fused);
    let mut scored: Vec<(u32, f32, Acc)> = fused
        .into_iter()
        .enumerate()
        .map(|(i, (b, mut a))| {
            let evidence = Evidence {
                // A product the catalog never mentions says nothing fits only when
                // it is what the question is about: beside a product the catalog
                // covers ("the envoy sidecars of our service mesh", "/ecs/ log
                // group in cloudwatch") it is part of the setting.
                uncovered: !query.uncovered.is_empty() && !query.names_covered_product(),
                unknown: !query.unknown.is_empty(),
                action_missing: a.action_missing,
                margin: a.fused - if i == 0 { second } else { first },
            };
            a.uncovered_subject = evidence.uncovered;
            a.other_product =
                evidence.uncovered && s.bundles[b as usize].products.names_a_third_party_product();
            (b, calibrated(&s.embedder_id, a.fused, &evidence), a)
        })
        .collect();
    let order_key: HashMap<u32, f32> = if o.fusion == Fusion::Rrf {
        rrf(&scored)
    } else {
        scored.iter().map(|(b, f, _)| (*b, *f)).collect()
    };
    scored.sort_by(|x, y| order_key[&y.0].total_cmp(&order_key[&x.0]));
    scored
}

/// A result as the caller sees it, with the signals that fired.
fn hit(s: &Snapshot, b: u32, score: f32, a: &Acc, o: &SearchOptions) -> BundleHit {
    let meta = &s.bundles[b as usize];
    let mut fired = Vec::new();
    if a.vector > 0.2 {
        fired.push("vector".to_string());
    }
    if a.bm25 > 0.05 {
        fired.push("bm25".to_string());
    }
    if a.graph > 0.0 && o.graph_boost {
        fired.push("graph".to_string());
    }
    if a.platform > 0.0 {
        fired.push("platform".to_string());
    }
    if a.action_missing {
        fired.push("action-missing".to_string());
    }
    if a.lacks_sli {
        fired.push(LACKS_SLI.to_string());
    }
    if let Some(p) = a.unasked_purpose {
        fired.push(format!("{p}{UNASKED}"));
    }
    if a.uncovered_subject {
        fired.push(UNCOVERED_SUBJECT.to_string());
    }
    if a.other_product {
        fired.push(OTHER_PRODUCT.to_string());
    }
    if a.another_product {
        fired.push(ANOTHER_PRODUCT_NAMED.to_string());
    }
    fired.extend(
        o.filters
            .describe()
            .into_iter()
            .map(|f| format!("filter:{f}")),
    );
    BundleHit {
        key: meta.key(),
        bundle: meta.header.clone(),
        // Ranked on the first stage; users and the cuts read the second.
        score: carried(&s.embedder_id, score),
        signals: Signals {
            vector: a.vector,
            bm25: a.bm25,
            graph: a.graph,
            platform: a.platform,
            fused: a.fused,
            fired,
        },
        matched: matched_tasks(s, a),
    }
}

fn passes(b: &super::BundleMeta, f: &Filters) -> bool {
    let eq = |want: &Option<String>, have: &str| {
        want.as_deref().is_none_or(|w| w.eq_ignore_ascii_case(have))
    };
    eq(&f.collection, &b.collection)
        && eq(&f.platform, &b.platform)
        && f.access.is_none_or(|a| a == b.access)
        && f.resource_type.as_deref().is_none_or(|r| {
            b.resource_types
                .iter()
                .any(|x| x.eq_ignore_ascii_case(r) || x.contains(&r.to_lowercase()))
        })
        && f.tags
            .iter()
            .all(|t| b.tags.iter().any(|x| x.eq_ignore_ascii_case(t)))
        && match f.kind {
            Some(BundleKind::Runbook) => b.task_count > 0,
            Some(BundleKind::Sli) => b.sli_count > 0,
            None => true,
        }
        && (f.bundles.is_empty()
            || f.bundles.iter().any(|k| {
                k.split_once('/')
                    .is_some_and(|(c, s)| c == b.collection && s == b.slug)
            }))
}

/// Reciprocal rank fusion of the vector and BM25 orders (graph as a third list).
fn rrf(scored: &[(u32, f32, Acc)]) -> HashMap<u32, f32> {
    let mut out: HashMap<u32, f32> = HashMap::new();
    for signal in 0..3 {
        let mut order: Vec<(u32, f32)> = scored
            .iter()
            .map(|(b, _, a)| (*b, [a.vector, a.bm25, a.graph][signal]))
            .filter(|(_, v)| *v > 0.0)
            .collect();
        order.sort_by(|x, y| y.1.total_cmp(&x.1));
        for (rank, (b, _)) in order.into_iter().enumerate() {
            *out.entry(b).or_default() += 1.0 / (RRF_K + rank as f32 + 1.0);
        }
    }
    for (b, _, _) in scored {
        out.entry(*b).or_default();
    }
    out
}

/// Maximal marginal relevance over bundle summary vectors.
fn mmr(s: &Snapshot, candidates: &[(u32, f32, Acc)], k: usize) -> Vec<(u32, f32, Acc)> {
    let vec_of = |b: u32| -> Option<Vec<f32>> {
        let ci = s.bundles[b as usize].summary_chunk?;
        let slot = s.vectors_slot(ci)?;
        Some(s.vectors.vector(slot).to_vec())
    };
    let vectors: Vec<Option<Vec<f32>>> = candidates.iter().map(|(b, _, _)| vec_of(*b)).collect();
    let mut picked: Vec<usize> = Vec::new();
    let mut left: Vec<usize> = (0..candidates.len()).collect();
    while picked.len() < k && !left.is_empty() {
        let (pos, _) = left
            .iter()
            .enumerate()
            .map(|(pos, &i)| {
                let redundancy = picked
                    .iter()
                    .filter_map(|&j| match (&vectors[i], &vectors[j]) {
                        (Some(a), Some(b)) => Some(dot(a, b)),
                        _ => None,
                    })
                    .fold(0.0f32, f32::max);
                (
                    pos,
                    MMR_LAMBDA * candidates[i].1
                        - (1.0 - MMR_LAMBDA) * redundancy.max(0.0) * candidates[i].1,
                )
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("left is not empty");
        picked.push(left.remove(pos));
    }
    picked.into_iter().map(|i| candidates[i].clone()).collect()
}

/// The tasks/SLIs that fit: close to the best task's similarity, or matched by words.
fn matched_tasks(s: &Snapshot, a: &Acc) -> Vec<MatchedTask> {
    let mut by_chunk: HashMap<u32, f32> = HashMap::new();
    let best = a.tasks.iter().map(|(_, c)| *c).fold(f32::MIN, f32::max);
    for &(ci, cos) in &a.tasks {
        if cos >= (best - 0.08).max(0.3) {
            by_chunk.insert(ci, norm_cos(cos));
        }
    }
    for &(ci, v) in &a.fts_tasks {
        if v >= 0.35 {
            let e = by_chunk.entry(ci).or_insert(0.0);
            *e = e.max(v);
        }
    }
    let mut out: Vec<MatchedTask> = by_chunk
        .into_iter()
        .filter_map(|(ci, score)| {
            let ch = &s.chunks[ci as usize];
            Some(MatchedTask {
                name: ch.task.clone()?.trim().to_string(),
                kind: ch.kind,
                score,
            })
        })
        .collect();
    out.sort_by(|x, y| y.score.total_cmp(&x.score));
    out.truncate(4);
    out
}

/// Doc sections for the question: the collections' docs, and the README sections
/// of `subject`, the bundle the question is about (no other bundle's: a README
/// section of a bundle the question is not about answers nothing).
fn rank_docs(
    s: &Snapshot,
    query: &Query,
    cos: &[(u32, f32)],
    bm: &HashMap<u32, f32>,
    subject: Option<u32>,
) -> Vec<DocHit> {
    let mut best: HashMap<i64, f32> = HashMap::new();
    let mut add = |ci: u32, v: f32| {
        let ch = &s.chunks[ci as usize];
        if let Some(d) = ch.doc
            && (!super::sections::is_readme_section(d) || ch.bundle == subject)
        {
            let e = best.entry(d).or_insert(0.0);
            *e = e.max(v);
        }
    };
    for &(ci, c) in cos {
        add(
            ci,
            0.7 * norm_cos(c) + 0.3 * bm.get(&ci).copied().unwrap_or(0.0),
        );
    }
    for (&ci, &v) in bm {
        add(ci, 0.3 * v);
    }
    let identity = subject.map_or(String::new(), |b| {
        let b = &s.bundles[b as usize];
        format!("{} {}", b.slug.replace('-', " "), b.display_name)
    });
    let asked = super::headings::asked_stems(&query.terms, &identity);
    // (id, score, order): the heading bonus only orders; the score shown and
    // compared with the quoting and routing thresholds stays the section's own.
    let mut hits: Vec<(i64, f32, f32)> = best
        .into_iter()
        .filter(|(_, v)| *v > 0.15)
        .map(|(id, v)| {
            let heading = s.docs.get(&id).and_then(|d| d.heading.as_deref());
            (
                id,
                v,
                v + heading.map_or(0.0, |h| super::headings::bonus(&asked, h)),
            )
        })
        .collect();
    hits.sort_by(|a, b| b.2.total_cmp(&a.2));
    hits.into_iter()
        .take(5)
        .filter_map(|(id, score, _)| {
            let d = s.docs.get(&id)?;
            Some(DocHit {
                id: d.cite_id(),
                source: d.source.clone(),
                path: d.path.clone(),
                title: d.title.clone(),
                heading: d.heading.clone(),
                trail: d.trail.clone(),
                url: d.url.clone(),
                score: calibrated_section(&s.embedder_id, score),
                snippet: d.text.chars().take(280).collect(),
                readme: super::sections::is_readme_section(id),
            })
        })
        .collect()
}

/// A keyword no bundle calls keeps this share of its match score when ordering (see
/// `rank_keywords`; 0.8, 0.7 and 0.6 measured on the tuning halves, 0.6 best, no
/// change on the sample set).
const KEYWORD_PRIOR_FLOOR: f32 = 0.6;
/// How close to the best match a keyword must be for the prior to order it. On the
/// tuning halves 0.05 lost a popular keyword 0.05 behind a closer-worded one and
/// 0.08 one 0.084 behind; at 0.10 both keep their place while two keywords that
/// matched 0.12 and 0.14 better than a popular one come first. (The cost: a
/// popular keyword 0.26 behind drops out of the five shown, where the old prior
/// had kept it.)
const KEYWORD_PRIOR_BAND: f32 = 0.10;

/// A keyword the question names in full matches as well as any can: it comes first
/// (several named ones are ordered by the prior) and shows full confidence.
const NAMED_KEYWORD_SCORE: f32 = 1.0;

fn rank_keywords(
    s: &Snapshot,
    query: &Query,
    cos: &[(u32, f32)],
    bm: &HashMap<u32, f32>,
) -> Vec<KeywordHit> {
    let mut best: HashMap<i64, f32> = HashMap::new();
    for id in s.keyword_names.named_in(query) {
        best.insert(id, NAMED_KEYWORD_SCORE);
    }
    for &(ci, c) in cos {
        if let Some(k) = s.chunks[ci as usize].keyword {
            let v = 0.7 * norm_cos(c) + 0.3 * bm.get(&ci).copied().unwrap_or(0.0);
            let e = best.entry(k).or_insert(0.0);
            *e = e.max(v);
        }
    }
    for (&ci, &v) in bm {
        if let Some(k) = s.chunks[ci as usize].keyword {
            let e = best.entry(k).or_insert(0.0);
            *e = e.max(0.3 * v);
        }
    }
    // Among keywords that match about as well, the one many bundles call is the one
    // people mean ("which keyword raises an issue" is the one 130 bundles use, not a
    // helper nobody calls): a mild prior from the catalog's own call sites.
    let most = s.keywords.values().map(|k| k.users).max().unwrap_or(0);
    let prior = |id: &i64| {
        let users = s.keywords.get(id).map_or(0, |k| k.users);
        if most == 0 {
            1.0
        } else {
            KEYWORD_PRIOR_FLOOR
                + (1.0 - KEYWORD_PRIOR_FLOOR)
                    * ((1.0 + users as f32).ln() / (1.0 + most as f32).ln())
        }
    };
    let cal = |v: f32| calibrated_section(&s.embedder_id, v);
    let hits = by_prior(
        best.into_iter().filter(|(_, v)| *v > 0.15).collect(),
        prior,
        cal,
    );
    hits.into_iter()
        .take(5)
        .filter_map(|(id, score, weight)| {
            let k = s.keywords.get(&id)?;
            let rank = cal(score) * weight;
            Some(KeywordHit {
                rank,
                id: k.cite_id(),
                library: k.library.clone(),
                name: k.name.clone(),
                collection: k.collection.clone(),
                args: k.args.clone(),
                doc: k.doc.clone(),
                url: k.url.clone(),
                score: cal(score),
            })
        })
        .collect()
}

/// Orders keyword matches `(id, match score)` by their rank, `cal(score) * weight`,
/// returning each with its weight. The prior (the weight) counts only among matches
/// about as good as the best: a keyword that clearly matches better keeps its place
/// however few bundles call it. Outside that band a match takes the lowest prior,
/// so the rank (which merges several searches' keywords) keeps this order; the
/// score shown stays the match's own (what calibration saw).
fn by_prior(
    mut hits: Vec<(i64, f32)>,
    prior: impl Fn(&i64) -> f32,
    cal: impl Fn(f32) -> f32,
) -> Vec<(i64, f32, f32)> {
    let top = hits.iter().map(|h| h.1).fold(0.0f32, f32::max);
    let weight = |id: &i64, v: f32| {
        if top - v <= KEYWORD_PRIOR_BAND {
            prior(id)
        } else {
            KEYWORD_PRIOR_FLOOR
        }
    };
    let rank = |id: &i64, v: f32| cal(v) * weight(id, v);
    hits.sort_by(|a, b| {
        rank(&b.0, b.1)
            .total_cmp(&rank(&a.0, a.1))
            .then_with(|| a.0.cmp(&b.0))
    });
    hits.into_iter()
        .map(|(id, v)| (id, v, weight(&id, v)))
        .collect()
}

/// Labels of tags and resource types that co-occur (on the same bundles) with the
/// entities the question names: "postgres" brings "replication", "patroni".
fn graph_expansion(s: &Snapshot, entities: &[crate::graph::Entity]) -> Vec<String> {
    let g = &s.graph;
    let mut counts: HashMap<u32, f32> = HashMap::new();
    for e in entities.iter().filter(|e| e.kind != NodeKind::Bundle) {
        let bundles: Vec<u32> = g
            .neighbours(e.node)
            .filter(|x| g.nodes[x.to as usize].kind == NodeKind::Bundle)
            .map(|x| x.to)
            .collect();
        if bundles.is_empty() || bundles.len() > 12 {
            continue;
        }
        for b in bundles {
            for n in g.neighbours(b) {
                let k = &g.nodes[n.to as usize].kind;
                if matches!(k, NodeKind::Tag | NodeKind::Resource) && n.to != e.node {
                    *counts.entry(n.to).or_default() += e.weight;
                }
            }
        }
    }
    let mut v: Vec<(u32, f32)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    v.into_iter()
        .take(5)
        .map(|(n, _)| {
            g.nodes[n as usize]
                .label
                .replace(['_', '.'], " ")
                .to_lowercase()
        })
        .collect()
}

fn correlations(s: &Snapshot, hits: &[BundleHit]) -> Vec<Correlation> {
    let facts: Vec<crate::graph::correlate::ResultFacts> = hits
        .iter()
        .map(|h| crate::graph::correlate::ResultFacts {
            key: &h.key,
            name: &h.display_name,
            tasks: h.task_count,
            slis: h.sli_count,
        })
        .collect();
    correlate(&s.graph, &facts)
}

#[cfg(test)]
mod tests {
    use super::by_prior;

    /// Keyword 1 is called by many bundles (prior 1.0), keywords 2 and 3 by few
    /// (prior 0.7).
    fn prior(id: &i64) -> f32 {
        if *id == 1 { 1.0 } else { 0.7 }
    }

    #[test]
    fn the_prior_orders_close_matches_only() {
        let cal = |v: f32| 1.0 / (1.0 + (-(7.63 * v - 3.37)).exp());
        let ids = |h: &[(i64, f32, f32)]| h.iter().map(|x| x.0).collect::<Vec<_>>();
        let ranks = |h: &[(i64, f32, f32)]| h.iter().map(|x| cal(x.1) * x.2).collect::<Vec<_>>();
        // About as good: the popular keyword goes first.
        let h = by_prior(vec![(2, 0.80), (1, 0.77)], prior, cal);
        assert_eq!(ids(&h), vec![1, 2]);
        // Clearly better worded: the rarely called keyword keeps its place.
        let h = by_prior(vec![(1, 0.60), (3, 0.90)], prior, cal);
        assert_eq!(ids(&h), vec![3, 1]);
        // Whatever the mix, the ranks (which merge searches) keep the order.
        let h = by_prior(vec![(1, 0.50), (2, 0.60), (3, 0.58), (4, 0.30)], prior, cal);
        let r = ranks(&h);
        assert!(r.windows(2).all(|w| w[0] >= w[1]), "{h:?} {r:?}");
    }
}
