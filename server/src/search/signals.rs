//! The ranking's signals per bundle, before fusion: BM25 over bundle rows and
//! chunks, cosines of the question's vectors to every chunk, the graph links to
//! entities the question names, the platform prior, and whether a bundle lacks a
//! change the question asks for.

use super::snapshot::Snapshot;
use super::types::{Explain, Mode};
use crate::index::fts;
use crate::ingest::ChunkKind;
use crate::query::{LEXICON, Query, phrase::stem, platform_prior};
use rusqlite::Connection;
use std::collections::HashMap;

/// MiniLM cosines below this carry no information; at `COS_HIGH` a match is strong.
const COS_LOW: f32 = 0.12;
const COS_HIGH: f32 = 0.62;
/// BM25 saturation: raw/(raw + K).
const EXPANSION_BM25: f32 = 0.5;
const BM25_K: f32 = 25.0;
const CHUNK_BM25_K: f32 = 6.0;

pub(super) fn norm_cos(c: f32) -> f32 {
    ((c - COS_LOW) / (COS_HIGH - COS_LOW)).clamp(0.0, 1.0)
}

fn sat(raw: f64, k: f32) -> f32 {
    let r = raw.max(0.0) as f32;
    r / (r + k)
}

/// One bundle's signals.
#[derive(Default, Clone)]
pub(super) struct Acc {
    pub(super) vector: f32,
    /// Cosine of the bundle's summary chunk (names, description, task list).
    pub(super) summary: f32,
    /// The question asks for a change none of the bundle's tasks performs.
    pub(super) action_missing: bool,
    /// The question asks for an SLI (a monitor) and the bundle has none.
    pub(super) lacks_sli: bool,
    /// The purpose the bundle is for (cost, fault injection) that the question
    /// does not ask about.
    pub(super) unasked_purpose: Option<&'static str>,
    /// The question is about a product the catalog never mentions.
    pub(super) uncovered_subject: bool,
    /// ... and this bundle is named for another product ("mailgun-…" for a
    /// question about sendgrid).
    pub(super) other_product: bool,
    /// The question names a covered product and this bundle is named for another.
    pub(super) another_product: bool,
    /// The weighted sum of the signals.
    pub(super) fused: f32,
    /// Best cosine for the question as typed and with concept terms added.
    pub(super) best_plain: f32,
    pub(super) best_wide: f32,
    pub(super) platform: f32,
    pub(super) bm25: f32,
    pub(super) graph: f32,
    /// (chunk index, cosine) of task/SLI chunks
    pub(super) tasks: Vec<(u32, f32)>,
    pub(super) fts_tasks: Vec<(u32, f32)>,
}

/// (chunk index, cosine) for every chunk considered.
pub(super) type Scores = Vec<(u32, f32)>;

/// The question's vectors: as typed, and with concept terms added.
#[derive(Clone, Copy)]
pub struct QueryVectors<'a> {
    pub plain: &'a [f32],
    pub expanded: Option<&'a [f32]>,
}

/// BM25 per bundle row and per chunk, saturated to 0–1, plus the raw bundle
/// figures for `explain`.
#[derive(Default)]
pub(super) struct KeywordSignals {
    bundle: HashMap<u32, f32>,
    pub(super) chunk: HashMap<u32, f32>,
    raw: Vec<(String, f32)>,
}

pub(super) fn keyword_signals(
    s: &Snapshot,
    c: &Connection,
    query: &Query,
    extra: &[String],
) -> KeywordSignals {
    // The question's own words, and the expansion terms apart: an expansion is a
    // guess, so its BM25 counts for less (`EXPANSION_BM25`).
    let expr = fts::expression(&query.terms);
    let extra_only: Vec<String> = extra
        .iter()
        .filter(|t| !query.terms.contains(t))
        .cloned()
        .collect();
    let extra_expr = fts::expression(&extra_only);
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
    let mut out = KeywordSignals::default();
    for (b, raw) in raw_bundle {
        out.raw.push((s.bundles[b as usize].key(), raw as f32));
        out.bundle.insert(b, sat(raw, BM25_K));
    }
    for (ci, raw) in raw_chunk {
        out.chunk.insert(ci, sat(raw, CHUNK_BM25_K));
    }
    out
}

/// Cosines per chunk for the question as typed and with concept terms added, in
/// the same chunk order.
pub(super) struct VectorSignals {
    pub(super) plain: Scores,
    pub(super) wide: Scores,
}

pub(super) fn vector_signals(
    s: &Snapshot,
    qvec: Option<QueryVectors>,
    mode: Mode,
) -> VectorSignals {
    match (qvec, mode) {
        (Some(q), Mode::Hybrid | Mode::Vector) => {
            let plain = s.vectors.scores_for_ranking(q.plain);
            let wide = match q.expanded {
                Some(e) => align(&plain, s.vectors.scores_for_ranking(e)),
                None => plain.clone(),
            };
            VectorSignals { plain, wide }
        }
        _ => VectorSignals {
            plain: Vec::new(),
            wide: Vec::new(),
        },
    }
}

pub(super) fn explain(s: &Snapshot, v: &VectorSignals, k: &KeywordSignals) -> Explain {
    let key = |ci: u32| {
        s.chunks[ci as usize]
            .bundle
            .map(|b| s.bundles[b as usize].key())
            .unwrap_or_default()
    };
    Explain {
        chunks: v
            .plain
            .iter()
            .zip(&v.wide)
            .map(|((ci, c1), (_, c2))| (key(*ci), s.chunks[*ci as usize].kind, *c1, *c2))
            .collect(),
        bm25: k.raw.clone(),
        chunk_bm25: k
            .chunk
            .iter()
            .map(|(ci, v)| (key(*ci), s.chunks[*ci as usize].kind, *v))
            .collect(),
        graph: Vec::new(),
        platform: Vec::new(),
    }
}

/// The per-bundle signals from its chunks' cosines and BM25.
pub(super) fn accumulate(s: &Snapshot, v: &VectorSignals, k: &KeywordSignals) -> HashMap<u32, Acc> {
    let mut acc: HashMap<u32, Acc> = HashMap::new();
    for (&(ci, cos), &(_, wide)) in v.plain.iter().zip(&v.wide) {
        let ch = &s.chunks[ci as usize];
        let Some(b) = ch.bundle else { continue };
        let a = acc.entry(b).or_default();
        a.best_plain = a.best_plain.max(cos);
        a.best_wide = a.best_wide.max(wide);
        if ch.kind == ChunkKind::Bundle {
            a.summary = a.summary.max((cos + wide) / 2.0);
        }
        if ch.kind.is_task() {
            a.tasks.push((ci, cos.max(wide)));
        }
    }
    for a in acc.values_mut() {
        a.vector = norm_cos((a.best_plain + a.best_wide) / 2.0);
        a.summary = norm_cos(a.summary);
    }
    for (&b, &v) in &k.bundle {
        acc.entry(b).or_default().bm25 = v;
    }
    for (&ci, &v) in &k.chunk {
        let ch = &s.chunks[ci as usize];
        if let (Some(b), true) = (ch.bundle, ch.kind.is_task()) {
            acc.entry(b).or_default().fts_tasks.push((ci, v));
        }
    }
    acc
}

/// Links to the entities the question names, weighted by their rarity.
pub(super) fn graph_signal(
    s: &Snapshot,
    entities: &[crate::graph::Entity],
    acc: &mut HashMap<u32, Acc>,
) {
    let max_w: f32 = entities.iter().map(|e| e.weight).sum::<f32>().max(1.0);
    for (b, meta) in s.bundles.iter().enumerate() {
        let Some(node) = s.graph.bundle_node(&meta.key()) else {
            continue;
        };
        let linked: f32 = entities
            .iter()
            .filter(|e| e.node == node || s.graph.neighbours(node).any(|edge| edge.to == e.node))
            .map(|e| e.weight)
            .sum();
        if linked > 0.0 {
            acc.entry(b as u32).or_default().graph = (linked / max_w).min(1.0);
        }
    }
}

/// The platform prior, and whether a bundle lacks a change the question asks for.
pub(super) fn prior_and_actions(s: &Snapshot, query: &Query, acc: &mut HashMap<u32, Acc>) {
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
        a.platform = platform_prior(&query.platforms, &s.bundles[*b as usize].platform);
        // A change the user asks for that none of the bundle's tasks performs.
        let tasks = &s.vocab.bundle_task_stems[*b as usize];
        let name = &s.vocab.bundle_name_stems[*b as usize];
        a.action_missing = action_words.iter().any(|(forms, synonyms)| {
            !forms.iter().any(|x| tasks.contains(x)) && !synonyms.iter().any(|x| name.contains(x))
        });
    }
}

/// Puts `other`'s scores in `base`'s item order (items `other` lacks score 0), so the
/// two lists can be zipped even when the HNSW returned different candidates.
fn align(base: &[(u32, f32)], other: Vec<(u32, f32)>) -> Vec<(u32, f32)> {
    let map: HashMap<u32, f32> = other.into_iter().collect();
    base.iter()
        .map(|(i, _)| (*i, map.get(i).copied().unwrap_or(0.0)))
        .collect()
}
