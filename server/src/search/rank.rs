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

use super::calibrate::{Evidence, calibrated, calibrated_section, nothing_fits};
use super::snapshot::Snapshot;
use super::types::*;
use crate::graph::{Correlation, correlate, link_entities};
use crate::index::fts;
use crate::index::vectors::dot;
use crate::query::{LEXICON, Query, phrase::stem, platform_prior};
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

/// MiniLM cosines below this carry no information; at `COS_HIGH` a match is strong.
const COS_LOW: f32 = 0.12;
const COS_HIGH: f32 = 0.62;
/// BM25 saturation: raw/(raw + K).
const EXPANSION_BM25: f32 = 0.5;
const BM25_K: f32 = 25.0;
const CHUNK_BM25_K: f32 = 6.0;
/// MMR trade-off: close to 1, so it only demotes near duplicates.
const MMR_LAMBDA: f32 = 0.85;
const RRF_K: f32 = 60.0;

fn norm_cos(c: f32) -> f32 {
    ((c - COS_LOW) / (COS_HIGH - COS_LOW)).clamp(0.0, 1.0)
}

fn sat(raw: f64, k: f32) -> f32 {
    let r = raw.max(0.0) as f32;
    r / (r + k)
}

#[derive(Default, Clone)]
struct Acc {
    vector: f32,
    /// Cosine of the bundle's summary chunk (names, description, task list).
    summary: f32,
    /// The question asks for a change none of the bundle's tasks performs.
    action_missing: bool,
    /// The weighted sum of the signals.
    fused: f32,
    /// Best cosine for the question as typed and with concept terms added.
    best_plain: f32,
    best_wide: f32,
    platform: f32,
    bm25: f32,
    graph: f32,
    /// (chunk index, cosine) of task/SLI chunks
    tasks: Vec<(u32, f32)>,
    fts_tasks: Vec<(u32, f32)>,
}

/// (chunk index, cosine) for every chunk considered.
type Scores = Vec<(u32, f32)>;

/// The question's vectors: as typed, and with concept terms added.
#[derive(Clone, Copy)]
pub struct QueryVectors<'a> {
    pub plain: &'a [f32],
    pub expanded: Option<&'a [f32]>,
}

pub fn search(
    s: &Snapshot,
    c: &Connection,
    query: &Query,
    qvec: Option<QueryVectors>,
    o: &SearchOptions,
) -> SearchResults {
    let t0 = Instant::now();
    let mut out = SearchResults {
        query: query.text.clone(),
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
    let mut extra: Vec<String> = if o.concepts {
        query.concepts.clone()
    } else {
        Vec::new()
    };
    if o.graph_expand {
        for t in graph_expansion(s, &entities) {
            if !extra.contains(&t) {
                extra.push(t);
            }
        }
    }
    out.expansion = extra.clone();

    // Keyword signals.
    let tk = Instant::now();
    // The question's own words, and the expansion terms apart: an expansion is a
    // guess, so its BM25 counts for less (`EXPANSION_BM25`).
    let expr = fts::expression(&query.terms);
    let extra_only: Vec<String> = extra
        .iter()
        .filter(|t| !query.terms.contains(t))
        .cloned()
        .collect();
    let extra_expr = fts::expression(&extra_only);
    out.corrections = query.corrections.clone();
    let mut bm25_bundle: HashMap<u32, f32> = HashMap::new();
    let mut bm25_raw: Vec<(String, f32)> = Vec::new();
    let mut bm25_chunk: HashMap<u32, f32> = HashMap::new();
    if o.mode != Mode::Vector {
        let mut raw_bundle: HashMap<u32, f64> = HashMap::new();
        let mut raw_chunk: HashMap<u32, f64> = HashMap::new();
        for (e, w) in [(&expr, 1.0), (&extra_expr, EXPANSION_BM25 as f64)] {
            let Some(e) = e else { continue };
            for (id, raw) in fts::search_bundles(c, e, 80).unwrap_or_default() {
                if let Some(&b) = s.bundle_by_id.get(&id) {
                    *raw_bundle.entry(b).or_default() += w * raw;
                }
            }
            for (rowid, raw) in fts::search_chunks(c, e, 200).unwrap_or_default() {
                if let Some(&ci) = s.chunk_by_rowid.get(&rowid) {
                    *raw_chunk.entry(ci).or_default() += w * raw;
                }
            }
        }
        for (b, raw) in raw_bundle {
            bm25_raw.push((s.bundles[b as usize].key(), raw as f32));
            bm25_bundle.insert(b, sat(raw, BM25_K));
        }
        for (ci, raw) in raw_chunk {
            bm25_chunk.insert(ci, sat(raw, CHUNK_BM25_K));
        }
    }
    out.timings.keyword_ms = tk.elapsed().as_secs_f64() * 1000.0;

    // Vector signals per chunk.
    let (chunk_cos, chunk_cos_wide): (Scores, Scores) = match (qvec, o.mode) {
        (Some(q), Mode::Hybrid | Mode::Vector) => {
            let plain = s.vectors.scores_for_ranking(q.plain);
            let wide = match q.expanded {
                Some(e) => align(&plain, s.vectors.scores_for_ranking(e)),
                None => plain.clone(),
            };
            (plain, wide)
        }
        _ => (Vec::new(), Vec::new()),
    };
    if o.explain {
        let key = |ci: u32| {
            s.chunks[ci as usize]
                .bundle
                .map(|b| s.bundles[b as usize].key())
                .unwrap_or_default()
        };
        out.explain = Some(Explain {
            chunks: chunk_cos
                .iter()
                .zip(&chunk_cos_wide)
                .map(|((ci, c1), (_, c2))| {
                    (key(*ci), s.chunks[*ci as usize].kind.clone(), *c1, *c2)
                })
                .collect(),
            bm25: bm25_raw.clone(),
            chunk_bm25: bm25_chunk
                .iter()
                .map(|(ci, v)| (key(*ci), s.chunks[*ci as usize].kind.clone(), *v))
                .collect(),
            graph: Vec::new(),
            platform: Vec::new(),
        });
    }

    let tr = Instant::now();
    let mut acc: HashMap<u32, Acc> = HashMap::new();
    for (&(ci, cos), &(_, wide)) in chunk_cos.iter().zip(&chunk_cos_wide) {
        let ch = &s.chunks[ci as usize];
        let Some(b) = ch.bundle else { continue };
        let a = acc.entry(b).or_default();
        a.best_plain = a.best_plain.max(cos);
        a.best_wide = a.best_wide.max(wide);
        if ch.kind == "bundle" {
            a.summary = a.summary.max((cos + wide) / 2.0);
        }
        if ch.kind == "task" || ch.kind == "sli" {
            a.tasks.push((ci, cos.max(wide)));
        }
    }
    for a in acc.values_mut() {
        a.vector = norm_cos((a.best_plain + a.best_wide) / 2.0);
        a.summary = norm_cos(a.summary);
    }
    for (&b, &v) in &bm25_bundle {
        acc.entry(b).or_default().bm25 = v;
    }
    for (&ci, &v) in &bm25_chunk {
        let ch = &s.chunks[ci as usize];
        if let (Some(b), true) = (ch.bundle, ch.kind == "task" || ch.kind == "sli") {
            acc.entry(b).or_default().fts_tasks.push((ci, v));
        }
    }
    if o.graph_boost && !entities.is_empty() {
        let max_w: f32 = entities.iter().map(|e| e.weight).sum::<f32>().max(1.0);
        for (b, meta) in s.bundles.iter().enumerate() {
            let Some(node) = s.graph.bundle_node(&meta.key()) else {
                continue;
            };
            let linked: f32 = entities
                .iter()
                .filter(|e| {
                    e.node == node || s.graph.neighbours(node).any(|edge| edge.to == e.node)
                })
                .map(|e| e.weight)
                .sum();
            if linked > 0.0 {
                acc.entry(b as u32).or_default().graph = (linked / max_w).min(1.0);
            }
        }
    }

    let intent = &query.platforms;
    out.uncovered = query.uncovered.clone();
    out.unknown = query.unknown.clone();
    // An action is performed by a bundle whose task names or display name use its
    // name or one of its one-word forms ("restart", "bounce"), or whose display name
    // uses another word for it ("Helm Update" upgrades). Task names are full of
    // incidental words ("Restart with Rolling Update"), so synonyms count only in
    // the name, which says what the bundle is for.
    let action_words: Vec<(Vec<String>, Vec<String>)> = query
        .actions
        .iter()
        .map(|name| {
            let mut forms = vec![stem(name)];
            let mut synonyms = Vec::new();
            if let Some(a) = LEXICON.actions.iter().find(|a| &a.name == name) {
                forms.extend(
                    a.forms
                        .iter()
                        .filter(|f| !f.text.contains(' '))
                        .map(|f| stem(&f.text)),
                );
                synonyms.extend(a.performed_by.iter().map(|w| stem(w)));
            }
            (forms, synonyms)
        })
        .collect();
    for (b, a) in acc.iter_mut() {
        a.platform = platform_prior(intent, &s.bundles[*b as usize].platform);
        // A change the user asks for that none of the bundle's tasks performs.
        let tasks = &s.vocab.bundle_task_stems[*b as usize];
        let name = &s.vocab.bundle_name_stems[*b as usize];
        a.action_missing = action_words.iter().any(|(forms, synonyms)| {
            !forms.iter().any(|x| tasks.contains(x)) && !synonyms.iter().any(|x| name.contains(x))
        });
    }
    if let Some(x) = out.explain.as_mut() {
        x.graph = acc
            .iter()
            .filter(|(_, a)| a.graph > 0.0)
            .map(|(b, a)| (s.bundles[*b as usize].key(), a.graph))
            .collect();
        x.platform = s
            .bundles
            .iter()
            .map(|b| (b.key(), platform_prior(intent, &b.platform)))
            .filter(|(_, p)| *p != 0.0)
            .collect();
    }

    // Fuse, filter, calibrate. The order is by calibrated score: within one question
    // it follows the fused signal, except that a bundle lacking a requested action
    // falls behind those that perform it.
    let (wv, wb) = match o.mode {
        Mode::Hybrid => (W_VECTOR, W_BM25),
        Mode::Vector => (1.0, 0.0),
        Mode::Keyword => (0.0, 1.0),
    };
    let mut fused: Vec<(u32, Acc)> = acc
        .into_iter()
        .filter(|(b, _)| passes(&s.bundles[*b as usize], &o.filters))
        .filter(|(_, a)| a.vector > 0.0 || a.bm25 > 0.0)
        .map(|(b, mut a)| {
            a.fused = wv * a.vector
                + wv * W_SUMMARY / W_VECTOR * a.summary
                + wb * a.bm25
                + W_PLATFORM * a.platform
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
        .map(|(i, (b, a))| {
            let evidence = Evidence {
                uncovered: !query.uncovered.is_empty(),
                unknown: !query.unknown.is_empty(),
                action_missing: a.action_missing,
                margin: a.fused - if i == 0 { second } else { first },
            };
            (b, calibrated(&s.embedder_id, a.fused, &evidence), a)
        })
        .collect();
    let order_key: HashMap<u32, f32> = if o.fusion == Fusion::Rrf {
        rrf(&scored)
    } else {
        scored.iter().map(|(b, f, _)| (*b, *f)).collect()
    };
    scored.sort_by(|x, y| order_key[&y.0].total_cmp(&order_key[&x.0]));
    let candidates: Vec<(u32, f32, Acc)> = scored.into_iter().take(40).collect();
    let picked = if o.mmr {
        mmr(s, &candidates, o.k.max(1))
    } else {
        candidates.iter().take(o.k.max(1)).cloned().collect()
    };

    for (b, score, a) in picked {
        let meta = &s.bundles[b as usize];
        let fused = a.fused;
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
        fired.extend(
            o.filters
                .describe()
                .into_iter()
                .map(|f| format!("filter:{f}")),
        );
        out.bundles.push(BundleHit {
            key: meta.key(),
            collection: meta.collection.clone(),
            slug: meta.slug.clone(),
            display_name: meta.display_name.clone(),
            description: meta.description.clone(),
            platform: meta.platform.clone(),
            access: meta.access.clone(),
            resource_types: meta.resource_types.clone(),
            tags: meta.tags.clone(),
            task_count: meta.task_count,
            sli_count: meta.sli_count,
            source_url: meta.source_url.clone(),
            score,
            signals: Signals {
                vector: a.vector,
                bm25: a.bm25,
                graph: a.graph,
                platform: a.platform,
                fused,
                fired,
            },
            matched: matched_tasks(s, &a),
        });
    }
    out.no_match = nothing_fits(out.bundles.first(), &s.embedder_id);

    // Docs and keywords use the better of the plain and concept-expanded question.
    let best_cos: Vec<(u32, f32)> = chunk_cos
        .iter()
        .zip(&chunk_cos_wide)
        .map(|(&(ci, a), &(_, b))| (ci, a.max(b)))
        .collect();
    out.docs = rank_docs(s, &best_cos, &bm25_chunk);
    out.keywords = rank_keywords(s, &best_cos, &bm25_chunk);
    out.correlations = correlations(s, &out.bundles);
    out.timings.rank_ms = tr.elapsed().as_secs_f64() * 1000.0;
    out.timings.total_ms = t0.elapsed().as_secs_f64() * 1000.0;
    out
}

/// Puts `other`'s scores in `base`'s item order (items `other` lacks score 0), so the
/// two lists can be zipped even when the HNSW returned different candidates.
fn align(base: &[(u32, f32)], other: Vec<(u32, f32)>) -> Vec<(u32, f32)> {
    let map: HashMap<u32, f32> = other.into_iter().collect();
    base.iter()
        .map(|(i, _)| (*i, map.get(i).copied().unwrap_or(0.0)))
        .collect()
}

fn passes(b: &super::BundleMeta, f: &Filters) -> bool {
    let eq = |want: &Option<String>, have: &str| {
        want.as_deref().is_none_or(|w| w.eq_ignore_ascii_case(have))
    };
    eq(&f.collection, &b.collection)
        && eq(&f.platform, &b.platform)
        && eq(&f.access, &b.access)
        && f.resource_type.as_deref().is_none_or(|r| {
            b.resource_types
                .iter()
                .any(|x| x.eq_ignore_ascii_case(r) || x.contains(&r.to_lowercase()))
        })
        && f.tags
            .iter()
            .all(|t| b.tags.iter().any(|x| x.eq_ignore_ascii_case(t)))
        && match f.kind.as_deref() {
            Some("runbook") => b.task_count > 0,
            Some("sli") => b.sli_count > 0,
            _ => true,
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
                kind: ch.kind.clone(),
                score,
            })
        })
        .collect();
    out.sort_by(|x, y| y.score.total_cmp(&x.score));
    out.truncate(4);
    out
}

fn rank_docs(s: &Snapshot, cos: &[(u32, f32)], bm: &HashMap<u32, f32>) -> Vec<DocHit> {
    let mut best: HashMap<i64, f32> = HashMap::new();
    let mut add = |ci: u32, v: f32| {
        if let Some(d) = s.chunks[ci as usize].doc {
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
    let mut hits: Vec<(i64, f32)> = best.into_iter().filter(|(_, v)| *v > 0.15).collect();
    hits.sort_by(|a, b| b.1.total_cmp(&a.1));
    hits.into_iter()
        .take(5)
        .filter_map(|(id, score)| {
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
            })
        })
        .collect()
}

/// A keyword no bundle calls keeps this share of its match score when ordering (see
/// `rank_keywords`; 0.8, 0.7 and 0.6 measured on the tuning halves, 0.6 best, no
/// change on the sample set).
const KEYWORD_PRIOR_FLOOR: f32 = 0.6;

fn rank_keywords(s: &Snapshot, cos: &[(u32, f32)], bm: &HashMap<u32, f32>) -> Vec<KeywordHit> {
    let mut best: HashMap<i64, f32> = HashMap::new();
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
    // The prior orders; the score shown stays the match's own (what calibration saw).
    let mut hits: Vec<(i64, f32)> = best.into_iter().filter(|(_, v)| *v > 0.15).collect();
    hits.sort_by(|a, b| {
        (b.1 * prior(&b.0))
            .total_cmp(&(a.1 * prior(&a.0)))
            .then_with(|| a.0.cmp(&b.0))
    });
    hits.into_iter()
        .take(5)
        .filter_map(|(id, score)| {
            let k = s.keywords.get(&id)?;
            let rank = calibrated_section(&s.embedder_id, score) * prior(&id);
            Some(KeywordHit {
                rank,
                id: k.cite_id(),
                library: k.library.clone(),
                name: k.name.clone(),
                collection: k.collection.clone(),
                args: k.args.clone(),
                doc: k.doc.clone(),
                url: k.url.clone(),
                score: calibrated_section(&s.embedder_id, score),
            })
        })
        .collect()
}

/// Labels of tags and resource types that co-occur (on the same bundles) with the
/// entities the question names: "postgres" brings "replication", "patroni".
fn graph_expansion(s: &Snapshot, entities: &[crate::graph::Entity]) -> Vec<String> {
    let g = &s.graph;
    let mut counts: HashMap<u32, f32> = HashMap::new();
    for e in entities.iter().filter(|e| e.kind != "bundle") {
        let bundles: Vec<u32> = g
            .neighbours(e.node)
            .filter(|x| g.nodes[x.to as usize].kind == "bundle")
            .map(|x| x.to)
            .collect();
        if bundles.is_empty() || bundles.len() > 12 {
            continue;
        }
        for b in bundles {
            for n in g.neighbours(b) {
                let k = &g.nodes[n.to as usize].kind;
                if (k == "tag" || k == "resource") && n.to != e.node {
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
