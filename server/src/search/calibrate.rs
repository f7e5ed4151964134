//! Turning fused signals into a relevance users can read.
//!
//! The score on a card is P(this result is a right answer | its fused signal): a
//! logistic function fitted on the top result of every question of the sample golden
//! set (fused 0.7 → 0.88, observed 0.86; fused 0.9 → 0.97, observed 0.95). It is
//! never derived from rank position: a lone weak result stays weak, and two strong
//! results can both score high. `NO_MATCH_BELOW` is the "the registry has nothing
//! for this" threshold, chosen on the same set (it flags every no-match and meta
//! question there). Each embedder family has its own fit, because their cosines
//! live on different scales; the hash fit's intercept is set so its no-match cut
//! falls on the same `NO_MATCH_BELOW`. Other embedders (OpenAI-compatible) use the
//! MiniLM curve until measured.

/// (slope, intercept) of the logistic curve.
fn params(embedder_id: &str) -> (f32, f32) {
    if embedder_id.starts_with("hash") {
        (8.57, -2.50)
    } else {
        (7.63, -3.37)
    }
}

pub const NO_MATCH_BELOW: f32 = 0.40;

pub fn calibrated(embedder_id: &str, fused: f32) -> f32 {
    let (a, b) = params(embedder_id);
    1.0 / (1.0 + (-(a * fused + b)).exp())
}
