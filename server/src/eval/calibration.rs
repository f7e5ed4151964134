//! How far the scores users see can be trusted: a reliability table of the top
//! result's score against how often that result is right, and the expected
//! calibration error (ECE). A question that should find nothing counts its top
//! result as wrong; questions with nothing to find or expect (meta, catalog) are left
//! out, and so are turns that showed no result at all.

use super::result::QuestionResult;
use serde::Serialize;

const BINS: usize = 10;

#[derive(Clone, Debug, Default, Serialize)]
pub struct Bin {
    pub lo: f64,
    pub hi: f64,
    pub n: usize,
    /// Mean score shown.
    pub confidence: f64,
    /// Share of top results that were right.
    pub accuracy: f64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Calibration {
    pub n: usize,
    pub bins: Vec<Bin>,
    pub ece: f64,
    /// Share of top results shown at ≥ 90 % that are right.
    pub precision_at_90: Option<f64>,
    pub n_at_90: usize,
}

pub fn calibration(results: &[QuestionResult]) -> Option<Calibration> {
    let points: Vec<(f64, bool)> = results
        .iter()
        .filter(|r| !r.top.is_empty() && !r.unranked_top)
        .filter_map(|r| match r.category.as_str() {
            "no-match" => Some((r.top_score as f64, false)),
            _ if r.expected.is_empty() => None,
            _ => Some((r.top_score as f64, r.hit_rank == Some(1))),
        })
        .collect();
    if points.is_empty() {
        return None;
    }
    let mut bins: Vec<Bin> = (0..BINS)
        .map(|i| Bin {
            lo: i as f64 / BINS as f64,
            hi: (i + 1) as f64 / BINS as f64,
            ..Default::default()
        })
        .collect();
    for &(p, right) in &points {
        let i = ((p * BINS as f64) as usize).min(BINS - 1);
        let b = &mut bins[i];
        b.n += 1;
        b.confidence += p;
        b.accuracy += right as u8 as f64;
    }
    let n = points.len();
    let mut ece = 0.0;
    for b in &mut bins {
        if b.n > 0 {
            b.confidence /= b.n as f64;
            b.accuracy /= b.n as f64;
            ece += b.n as f64 / n as f64 * (b.accuracy - b.confidence).abs();
        }
    }
    let high: Vec<bool> = points
        .iter()
        .filter(|(p, _)| *p >= 0.9)
        .map(|(_, r)| *r)
        .collect();
    Some(Calibration {
        n,
        bins,
        ece,
        precision_at_90: (!high.is_empty())
            .then(|| high.iter().filter(|r| **r).count() as f64 / high.len() as f64),
        n_at_90: high.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(cat: &str, score: f32, right: bool) -> QuestionResult {
        QuestionResult {
            category: cat.into(),
            top_score: score,
            top: vec!["a/b".into()],
            expected: if cat == "general" {
                vec!["a/b".into()]
            } else {
                vec![]
            },
            hit_rank: right.then_some(1),
            ..Default::default()
        }
    }

    #[test]
    fn perfectly_calibrated_scores_have_no_error() {
        // 0.95: 1 of 1 right … 0.25: 1 of 4 right.
        let mut rs = vec![r("general", 0.95, true)];
        rs.extend([true, false, false, false].map(|x| r("general", 0.25, x)));
        let c = calibration(&rs).unwrap();
        assert_eq!(c.n, 5);
        assert!(c.ece < 0.05, "{}", c.ece);
        assert_eq!(c.precision_at_90, Some(1.0));
        // A confident answer to a question with no answer is a calibration error.
        rs.push(r("no-match", 0.95, false));
        let c = calibration(&rs).unwrap();
        assert_eq!(c.precision_at_90, Some(0.5));
        assert!(c.ece > 0.1);
        assert!(calibration(&[r("meta", 0.9, false)]).is_none());
    }
}
