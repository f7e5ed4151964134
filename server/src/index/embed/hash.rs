//! A weightless embedder: signed feature hashing of words, identifier parts,
//! word bigrams and character trigrams into 384 dimensions. Instant and
//! dependency-free, but it only rewards shared surface forms: the fallback when no
//! model files are present, next to BM25, not a semantic tier.

use super::{EmbedError, Embedder, Purpose};
use futures::future::BoxFuture;

pub const DIM: usize = 384;

pub struct HashEmbedder;

/// FNV-1a, 64 bit: stable across platforms and Rust versions (unlike `DefaultHasher`),
/// which matters because vectors are stored.
fn fnv1a(bytes: &[u8], seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Splits `CrashLoopBackOff`, `kube_config` and `k8s-pod` into lower-case parts.
pub fn identifier_parts(token: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for piece in token.split(['_', '-', '.', '/', ':']) {
        let chars: Vec<char> = piece.chars().collect();
        let mut current = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let boundary = i > 0
                && c.is_uppercase()
                && (chars[i - 1].is_lowercase()
                    || chars.get(i + 1).is_some_and(|n| n.is_lowercase())
                        && chars[i - 1].is_uppercase());
            if boundary && !current.is_empty() {
                parts.push(std::mem::take(&mut current).to_lowercase());
            }
            current.push(c);
        }
        if !current.is_empty() {
            parts.push(current.to_lowercase());
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .map(|w| w.trim_matches(['.', '-', '_']))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

pub fn embed_one(text: &str) -> Vec<f32> {
    let mut v = vec![0f32; DIM];
    let mut add = |feature: &str, kind: u64, weight: f32| {
        let h = fnv1a(feature.as_bytes(), kind);
        let idx = (h % DIM as u64) as usize;
        let sign = if (h >> 63) == 0 { 1.0 } else { -1.0 };
        v[idx] += sign * weight;
    };
    let tokens = words(text);
    let mut lower: Vec<String> = Vec::new();
    for t in &tokens {
        let l = t.to_lowercase();
        add(&l, 1, 1.0);
        let parts = identifier_parts(t);
        if parts.len() > 1 {
            for p in &parts {
                add(p, 1, 0.6);
            }
        }
        let padded = format!("#{l}#");
        let chars: Vec<char> = padded.chars().collect();
        for w in chars.windows(3) {
            add(&w.iter().collect::<String>(), 3, 0.25);
        }
        lower.push(l);
    }
    for pair in lower.windows(2) {
        add(&format!("{} {}", pair[0], pair[1]), 2, 0.5);
    }
    // Sublinear term weighting, then unit length.
    for x in v.iter_mut() {
        *x = x.signum() * (1.0 + x.abs()).ln();
    }
    super::normalize(&mut v);
    v
}

impl Embedder for HashEmbedder {
    fn id(&self) -> &str {
        "hash-v1-384"
    }

    fn dim(&self) -> usize {
        DIM
    }

    fn embed<'a>(
        &'a self,
        texts: &'a [String],
        _purpose: Purpose,
    ) -> BoxFuture<'a, Result<Vec<Vec<f32>>, EmbedError>> {
        Box::pin(async move { Ok(texts.iter().map(|t| embed_one(t)).collect()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split() {
        assert_eq!(
            identifier_parts("CrashLoopBackOff"),
            vec!["crash", "loop", "back", "off"]
        );
        assert_eq!(identifier_parts("kube_config"), vec!["kube", "config"]);
        assert_eq!(
            identifier_parts("k8s-pod-health"),
            vec!["k8s", "pod", "health"]
        );
        assert_eq!(identifier_parts("HTTPServer"), vec!["http", "server"]);
    }

    #[test]
    fn shared_words_score_higher_and_vectors_are_unit_length() {
        let a = embed_one("pods keep restarting in namespace payments");
        let b = embed_one("Pod restarting in a namespace");
        let c = embed_one("S3 bucket public access posture");
        let dot = |x: &[f32], y: &[f32]| x.iter().zip(y).map(|(p, q)| p * q).sum::<f32>();
        assert!((dot(&a, &a) - 1.0).abs() < 1e-4);
        assert!(
            dot(&a, &b) > dot(&a, &c) + 0.1,
            "{} vs {}",
            dot(&a, &b),
            dot(&a, &c)
        );
        assert_eq!(
            embed_one("same text"),
            embed_one("same text"),
            "deterministic"
        );
    }
}
