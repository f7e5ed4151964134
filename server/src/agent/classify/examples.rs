//! The nearest-example vote: when no word rule decides, the question goes to the
//! category whose labelled examples (`lexicon/intents.toml`) lie nearest in the
//! embedding space. Rules are precise but only know the phrasings they were
//! written for; the vote carries an intent to paraphrases no rule anticipated.
//!
//! Several neighbours vote, not one: a single close example can be close for the
//! wrong reason (a shared product name), while an intent shows as a cluster.
//! Operational problems are labelled too, so a problem worded like a question
//! about the assistant still finds its own kind nearest.

use super::{Category, category_named};
use crate::index::build::{blob_to_vector, vector_to_blob};
use crate::index::embed::{Embedder, Purpose};
use crate::index::vectors::dot;
use crate::store::Db;
use std::collections::BTreeMap;

pub const INTENTS_TOML: &str = include_str!("../../../lexicon/intents.toml");

/// Examples embedded per pass while warming up.
const WARM_UP_BATCH: usize = 32;

/// Neighbours that vote.
const K: usize = 5;
/// Below this cosine the nearest example of the winning category is not trusted:
/// the question is like none of them. Raised from 0.55 when the examples grew
/// from about 190 to 680: with more of them some example lies near almost any
/// question, and at 0.55 more problems in a conversation were voted away from
/// their follow-up (tuning halves, follow-up routing 0.970 at 0.55, 0.975 here).
const MIN_BEST: f32 = 0.60;

/// The labelled examples, by category, as the file lists them.
pub fn labelled() -> Result<Vec<(Category, String)>, String> {
    let table: BTreeMap<String, Vec<String>> =
        toml::from_str(INTENTS_TOML).map_err(|e| format!("intents.toml: {e}"))?;
    let mut out = Vec::new();
    for (name, texts) in table {
        let category = category_named(&name)
            .ok_or_else(|| format!("intents.toml: unknown category {name}"))?;
        out.extend(texts.into_iter().map(|t| (category, t)));
    }
    Ok(out)
}

pub struct ExampleIndex {
    embedder_id: String,
    vectors: Vec<(Category, Vec<f32>)>,
}

/// What the neighbours decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vote {
    pub category: Category,
    /// Cosine of the winning category's nearest example.
    pub best: f32,
}

/// Names this version of the examples file: saved vectors of another version are
/// not used.
fn intents_hash() -> String {
    blake3::hash(INTENTS_TOML.as_bytes()).to_hex()[..32].to_string()
}

impl ExampleIndex {
    /// The examples' vectors saved in `db` for this embedder and examples file, or,
    /// when there are none, embedded and saved. Saved vectors spare every start-up,
    /// `ask` and `eval` about a second of CPU with MiniLM; a database that cannot be
    /// read or written only costs that second. The save runs on its own task: the
    /// turns waiting for the examples never wait for the database's writer (an
    /// index run may hold it).
    pub async fn load_or_build(embedder: &dyn Embedder, db: &Db) -> Result<ExampleIndex, String> {
        let examples = labelled()?;
        let id = embedder.id().to_string();
        let hash = intents_hash();
        let (key, file) = (id.clone(), hash.clone());
        match db
            .read(move |c| crate::store::example_vectors(c, &key, &file))
            .await
        {
            Ok(Some(blob)) => {
                if let Some(ix) = Self::from_blob(&id, embedder.dim(), &examples, &blob) {
                    return Ok(ix);
                }
                tracing::warn!(
                    "the saved example vectors do not fit the examples: embedding them again"
                );
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, "reading the saved example vectors"),
        }
        let ix = Self::embed(embedder, examples).await?;
        let blob: Vec<u8> = ix
            .vectors
            .iter()
            .flat_map(|(_, v)| vector_to_blob(v))
            .collect();
        let db = db.clone();
        tokio::spawn(async move {
            if let Err(e) = db
                .write(move |c| crate::store::save_example_vectors(c, &id, &hash, &blob))
                .await
            {
                tracing::warn!(error = %e, "saving the example vectors");
            }
        });
        Ok(ix)
    }

    /// The examples with their saved vectors, when the blob holds one vector of one
    /// length (the embedder's, when it knows it) per example.
    fn from_blob(
        embedder_id: &str,
        dim: usize,
        examples: &[(Category, String)],
        blob: &[u8],
    ) -> Option<ExampleIndex> {
        let n = examples.len();
        if n == 0 || blob.is_empty() || !blob.len().is_multiple_of(4 * n) {
            return None;
        }
        let len = blob.len() / (4 * n);
        if dim != 0 && dim != len {
            return None;
        }
        let vectors = examples
            .iter()
            .zip(blob.chunks_exact(4 * len))
            .map(|((c, _), b)| (*c, blob_to_vector(b)))
            .collect();
        Some(ExampleIndex {
            embedder_id: embedder_id.to_string(),
            vectors,
        })
    }

    /// All examples embedded, nothing saved.
    pub async fn build(embedder: &dyn Embedder) -> Result<ExampleIndex, String> {
        Self::embed(embedder, labelled()?).await
    }

    async fn embed(
        embedder: &dyn Embedder,
        examples: Vec<(Category, String)>,
    ) -> Result<ExampleIndex, String> {
        let texts: Vec<String> = examples.iter().map(|(_, t)| t.clone()).collect();
        // In small batches: the warm-up runs beside the first turns, and a
        // question's own embedding queues behind whatever batch is in flight
        // (all ~670 examples at once held a first turn for seconds).
        let mut vecs = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(WARM_UP_BATCH) {
            vecs.extend(
                embedder
                    .embed(chunk, Purpose::Query)
                    .await
                    .map_err(|e| format!("embedding the classifier's examples: {e}"))?,
            );
        }
        // A remote embedder that answers short, or with vectors of mixed lengths,
        // must not leave a wrong index (it would be saved and reused).
        let len = vecs.first().map_or(0, Vec::len);
        if vecs.len() != texts.len() || len == 0 || vecs.iter().any(|v| v.len() != len) {
            return Err(format!(
                "embedding the classifier's examples: {} vectors for {} texts, or of mixed lengths",
                vecs.len(),
                texts.len()
            ));
        }
        Ok(ExampleIndex {
            embedder_id: embedder.id().to_string(),
            vectors: examples.into_iter().map(|(c, _)| c).zip(vecs).collect(),
        })
    }

    pub fn embedder_id(&self) -> &str {
        &self.embedder_id
    }

    /// The category the `K` nearest examples weigh most (general too: an
    /// operational problem), when its nearest example is close enough; `None`
    /// leaves the default.
    pub fn vote(&self, q: &[f32]) -> Option<Vote> {
        // A question embedded another way than the examples is like none of them.
        if self.vectors.first().is_none_or(|(_, v)| v.len() != q.len()) {
            return None;
        }
        let mut scored: Vec<(Category, f32)> =
            self.vectors.iter().map(|(c, v)| (*c, dot(q, v))).collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        scored.truncate(K);
        let mut weight: Vec<(Category, f32, f32)> = Vec::new();
        for (c, s) in &scored {
            match weight.iter_mut().find(|w| w.0 == *c) {
                Some(w) => w.1 += s.max(0.0),
                None => weight.push((*c, s.max(0.0), *s)),
            }
        }
        // Equal weight: the category with the nearer example.
        let (category, _, best) = weight
            .into_iter()
            .max_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)))?;
        (best >= MIN_BEST).then_some(Vote { category, best })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_category_has_examples_and_none_is_unknown() {
        let all = labelled().unwrap();
        for c in [
            Category::Meta,
            Category::Catalog,
            Category::Documentation,
            Category::KeywordLibrary,
            Category::General,
        ] {
            assert!(all.iter().filter(|(k, _)| *k == c).count() >= 20, "{c:?}");
        }
        // Follow-ups depend on the conversation, not on wording alone.
        assert!(!all.iter().any(|(k, _)| *k == Category::FollowUp));
    }

    /// The hash embedder, counting the texts it embeds.
    struct Counting(std::sync::atomic::AtomicUsize);

    impl Embedder for Counting {
        fn id(&self) -> &str {
            "counting-hash"
        }
        fn dim(&self) -> usize {
            384
        }
        fn embed<'a>(
            &'a self,
            texts: &'a [String],
            purpose: Purpose,
        ) -> futures::future::BoxFuture<'a, Result<Vec<Vec<f32>>, crate::index::embed::EmbedError>>
        {
            self.0
                .fetch_add(texts.len(), std::sync::atomic::Ordering::SeqCst);
            crate::index::embed::HashEmbedder.embed(texts, purpose)
        }
    }

    /// Waits for the background save: one row, this file's, holding whole vectors.
    async fn saved(db: &Db) {
        let hash = intents_hash();
        for _ in 0..500 {
            let h = hash.clone();
            let rows: Vec<(String, i64)> = db
                .read(move |c| {
                    let mut st =
                        c.prepare("SELECT intents_hash, length(vectors) FROM example_vectors")?;
                    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
                    Ok(rows.collect::<Result<Vec<_>, _>>()?)
                })
                .await
                .unwrap();
            if rows.len() == 1 && rows[0].0 == h && rows[0].1 > 12 {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("the example vectors were not saved");
    }

    #[tokio::test]
    async fn examples_are_embedded_once_per_database_and_a_damaged_copy_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.db")).unwrap();
        let counting = Counting(Default::default());
        let n = labelled().unwrap().len();
        let count = || counting.0.load(std::sync::atomic::Ordering::SeqCst);

        let first = ExampleIndex::load_or_build(&counting, &db).await.unwrap();
        assert_eq!(count(), n);
        saved(&db).await;
        let again = ExampleIndex::load_or_build(&counting, &db).await.unwrap();
        assert_eq!(
            count(),
            n,
            "the saved vectors are loaded, not embedded again"
        );
        assert_eq!(first.vectors, again.vectors);

        // Reopened (another process), the vectors are still there.
        drop(db);
        let db = Db::open(&dir.path().join("t.db")).unwrap();
        ExampleIndex::load_or_build(&counting, &db).await.unwrap();
        assert_eq!(count(), n);

        // A blob of the wrong length is embedded again and replaced.
        let hash = intents_hash();
        db.write(move |c| crate::store::save_example_vectors(c, "counting-hash", &hash, &[0; 12]))
            .await
            .unwrap();
        // (and an older examples file's row, which the save drops)
        db.write(|c| {
            Ok(c.execute(
                "INSERT INTO example_vectors VALUES ('counting-hash', 'older', x'00')",
                [],
            )?)
        })
        .await
        .unwrap();
        let mended = ExampleIndex::load_or_build(&counting, &db).await.unwrap();
        assert_eq!(count(), 2 * n);
        assert_eq!(mended.vectors, first.vectors);
        // Vectors of an older examples file are dropped when the new ones are saved.
        saved(&db).await;
        ExampleIndex::load_or_build(&counting, &db).await.unwrap();
        assert_eq!(count(), 2 * n);
    }

    /// Answers one vector short.
    struct Short;

    impl Embedder for Short {
        fn id(&self) -> &str {
            "short"
        }
        fn dim(&self) -> usize {
            0
        }
        fn embed<'a>(
            &'a self,
            texts: &'a [String],
            purpose: Purpose,
        ) -> futures::future::BoxFuture<'a, Result<Vec<Vec<f32>>, crate::index::embed::EmbedError>>
        {
            Box::pin(async move {
                let mut v = crate::index::embed::HashEmbedder
                    .embed(texts, purpose)
                    .await?;
                v.pop();
                Ok(v)
            })
        }
    }

    #[tokio::test]
    async fn an_embedder_answering_short_leaves_no_index_and_saves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.db")).unwrap();
        let err = ExampleIndex::load_or_build(&Short, &db)
            .await
            .err()
            .unwrap();
        assert!(err.contains("vectors for"), "{err}");
        let rows: i64 = db
            .read(|c| Ok(c.query_row("SELECT count(*) FROM example_vectors", [], |r| r.get(0))?))
            .await
            .unwrap();
        assert_eq!(rows, 0);
    }

    #[test]
    fn a_question_embedded_another_way_gets_no_vote() {
        let ix = index(&[(Category::Meta, [1.0, 0.0]), (Category::Meta, [0.9, 0.1])]);
        assert!(ix.vote(&[1.0, 0.0]).is_some());
        assert!(ix.vote(&[1.0, 0.0, 0.0]).is_none());
    }

    fn index(rows: &[(Category, [f32; 2])]) -> ExampleIndex {
        ExampleIndex {
            embedder_id: "t".into(),
            vectors: rows.iter().map(|(c, v)| (*c, v.to_vec())).collect(),
        }
    }

    #[test]
    fn a_cluster_outvotes_a_single_close_example() {
        let ix = index(&[
            (Category::Meta, [1.0, 0.0]),
            (Category::Catalog, [0.9, 0.436]),
            (Category::Catalog, [0.88, 0.475]),
            (Category::Catalog, [0.85, 0.527]),
            (Category::General, [0.0, 1.0]),
        ]);
        let v = ix.vote(&[1.0, 0.0]).unwrap();
        assert_eq!(v.category, Category::Catalog);
        assert!((v.best - 0.9).abs() < 1e-6);
    }

    #[test]
    fn general_examples_say_general_and_far_ones_leave_the_default() {
        let ix = index(&[
            (Category::Meta, [0.5, 0.866]),
            (Category::General, [1.0, 0.0]),
            (Category::General, [0.95, 0.312]),
        ]);
        // An operational problem by its examples: a plain search, also in a
        // conversation (where the default would continue it).
        assert_eq!(
            ix.vote(&[1.0, 0.0]).map(|v| v.category),
            Some(Category::General)
        );
        // The winner's nearest example is too far to trust.
        let far = index(&[(Category::Meta, [0.5, 0.866])]);
        assert_eq!(far.vote(&[1.0, 0.0]), None);
    }
}
