//! Nearest neighbours over chunk vectors: an exact scan over one contiguous array
//! (the ground truth) and an instant-distance HNSW, persisted so start-up does not
//! rebuild it.
//!
//! Which one answers, measured with `registry-chat bench` on this kind of machine: for a
//! top-10 query the exact scan costs ~0.3 µs per 384-d vector (0.23 ms at 760 vectors,
//! 1.08 ms at 3,575) and the HNSW ~0.3–0.6 ms (recall@10 0.994–1.0), so for top-k alone
//! the crossover is near 1,500 vectors. Search, however, needs *every* chunk's
//! similarity to score each bundle by its best chunk, and a full scan at these sizes
//! costs about a millisecond next to ~18 ms of query embedding; so the searcher scans
//! exactly up to `EXACT_MAX` vectors and above that takes the HNSW's top candidates.

use instant_distance::{Builder, HnswMap, Point, Search};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Up to this many vectors the searcher scores every chunk exactly (~6 ms at 20k).
pub const EXACT_MAX: usize = 20_000;
/// Candidates taken from the HNSW above `EXACT_MAX`.
pub const HNSW_CANDIDATES: usize = 400;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Vector(pub Vec<f32>);

impl Point for Vector {
    /// Cosine distance of unit vectors.
    fn distance(&self, other: &Self) -> f32 {
        1.0 - dot(&self.0, &other.0)
    }
}

#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[derive(Serialize, Deserialize)]
struct Persisted {
    fingerprint: String,
    map: HnswMap<Vector, u32>,
}

pub struct VectorIndex {
    dim: usize,
    /// slot → position in the caller's item list
    items: Vec<u32>,
    data: Vec<f32>,
    hnsw: Option<HnswMap<Vector, u32>>,
}

impl VectorIndex {
    /// `vectors[i]` belongs to item `items[i]`; all must have the same length.
    pub fn new(items: Vec<u32>, vectors: &[Vec<f32>]) -> Self {
        let dim = vectors.first().map_or(0, Vec::len);
        let mut data = Vec::with_capacity(dim * vectors.len());
        for v in vectors {
            data.extend_from_slice(v);
        }
        VectorIndex {
            dim,
            items,
            data,
            hnsw: None,
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    pub fn vector(&self, slot: usize) -> &[f32] {
        &self.data[slot * self.dim..(slot + 1) * self.dim]
    }

    /// Every item's similarity (for fusion, which needs more than the top k).
    pub fn all_scores(&self, q: &[f32]) -> Vec<(u32, f32)> {
        if q.len() != self.dim {
            return Vec::new();
        }
        (0..self.items.len())
            .map(|s| (self.items[s], dot(q, self.vector(s))))
            .collect()
    }

    /// Exact top k by cosine similarity.
    pub fn exact(&self, q: &[f32], k: usize) -> Vec<(u32, f32)> {
        let mut all = self.all_scores(q);
        let k = k.min(all.len());
        if k == 0 {
            return Vec::new();
        }
        all.select_nth_unstable_by(k - 1, |a, b| b.1.total_cmp(&a.1));
        all.truncate(k);
        all.sort_by(|a, b| b.1.total_cmp(&a.1));
        all
    }

    /// Approximate top k through the HNSW (exact when none is built).
    pub fn approximate(&self, q: &[f32], k: usize) -> Vec<(u32, f32)> {
        let Some(map) = &self.hnsw else {
            return self.exact(q, k);
        };
        let mut search = Search::default();
        map.search(&Vector(q.to_vec()), &mut search)
            .take(k)
            .map(|item| (*item.value, 1.0 - item.distance))
            .collect()
    }

    /// The similarities search ranks with: every item up to `EXACT_MAX`, else the
    /// HNSW's best `HNSW_CANDIDATES` (the rest count as no vector evidence).
    pub fn scores_for_ranking(&self, q: &[f32]) -> Vec<(u32, f32)> {
        if self.len() <= EXACT_MAX || self.hnsw.is_none() {
            self.all_scores(q)
        } else {
            self.approximate(q, HNSW_CANDIDATES)
        }
    }

    pub fn has_hnsw(&self) -> bool {
        self.hnsw.is_some()
    }

    /// Builds the HNSW over all vectors (single-threaded on this kind of machine).
    pub fn build_hnsw(&mut self, ef_construction: usize) {
        let points: Vec<Vector> = (0..self.len())
            .map(|s| Vector(self.vector(s).to_vec()))
            .collect();
        let values = self.items.clone();
        let build = move || {
            Builder::default()
                .ef_construction(ef_construction)
                .seed(7)
                .build(points, values)
        };
        // instant-distance builds on rayon's global pool, which `main` keeps to
        // one thread (for candle): the build gets a pool of every core.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.hnsw = Some(
            match rayon::ThreadPoolBuilder::new().num_threads(cores).build() {
                Ok(pool) => pool.install(build),
                Err(_) => build(),
            },
        );
    }

    /// Loads a persisted HNSW when it was built for exactly these vectors.
    pub fn load_hnsw(&mut self, path: &Path, fingerprint: &str) -> bool {
        let Ok(bytes) = std::fs::read(path) else {
            return false;
        };
        match postcard::from_bytes::<Persisted>(&bytes) {
            Ok(p) if p.fingerprint == fingerprint => {
                self.hnsw = Some(p.map);
                true
            }
            _ => false,
        }
    }

    /// Writes the HNSW atomically (temp file, then rename).
    pub fn save_hnsw(&mut self, path: &Path, fingerprint: &str) -> std::io::Result<()> {
        let Some(map) = self.hnsw.take() else {
            return Ok(());
        };
        let persisted = Persisted {
            fingerprint: fingerprint.to_string(),
            map,
        };
        let bytes = postcard::to_stdvec(&persisted).map_err(std::io::Error::other);
        self.hnsw = Some(persisted.map);
        let bytes = bytes?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        // Per process: an `index` run and a server may save at the same time.
        let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(mut v: Vec<f32>) -> Vec<f32> {
        crate::index::embed::normalize(&mut v);
        v
    }

    #[test]
    fn exact_and_hnsw_agree_and_persist() {
        let vectors: Vec<Vec<f32>> = (0..300)
            .map(|i| {
                unit(vec![
                    (i as f32).sin(),
                    (i as f32 * 0.7).cos(),
                    (i % 7) as f32 + 0.1,
                    1.0,
                ])
            })
            .collect();
        let mut idx = VectorIndex::new((0..300).collect(), &vectors);
        let q = unit(vec![0.3, -0.2, 2.0, 1.0]);
        let exact = idx.exact(&q, 10);
        assert_eq!(exact.len(), 10);
        assert!(exact.windows(2).all(|w| w[0].1 >= w[1].1));
        idx.build_hnsw(64);
        let approx: Vec<u32> = idx.approximate(&q, 10).into_iter().map(|x| x.0).collect();
        let overlap = exact.iter().filter(|(i, _)| approx.contains(i)).count();
        assert!(overlap >= 8, "recall@10 {overlap}/10");

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.bin");
        idx.save_hnsw(&path, "fp-1").unwrap();
        let mut again = VectorIndex::new((0..300).collect(), &vectors);
        assert!(!again.load_hnsw(&path, "fp-2"), "a stale file is not used");
        assert!(again.load_hnsw(&path, "fp-1"));
        assert_eq!(again.approximate(&q, 10).len(), 10);
    }
}
