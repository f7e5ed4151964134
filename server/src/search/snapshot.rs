//! Everything search needs in memory, loaded from the catalog in one read: chunk and
//! bundle metadata, the vectors of the active embedder, the keyword vocabulary and
//! the knowledge graph. Rebuilt when the catalog or the vectors change; the previous
//! snapshot keeps answering meanwhile.

use crate::graph::Graph;
use crate::index::build::blob_to_vector;
use crate::index::vectors::VectorIndex;
use crate::ingest::ChunkKind;
use crate::query::{BundleFacts, CorpusVocab, Query};
use crate::store::StoreError;
use app::api::catalog::BundleHeader;
use rusqlite::Connection;
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct ChunkMeta {
    pub rowid: i64,
    pub kind: ChunkKind,
    pub bundle: Option<u32>,
    pub doc: Option<i64>,
    pub keyword: Option<i64>,
    pub title: String,
    pub task: Option<String>,
    pub content_hash: String,
}

/// A bundle as search holds it: the header every view shows, plus where its
/// summary chunk is and when it last changed.
#[derive(Clone, Debug)]
pub struct BundleMeta {
    pub id: i64,
    pub header: BundleHeader,
    /// Chunk index of the bundle's summary chunk.
    pub summary_chunk: Option<u32>,
    /// When the bundle last changed in git (RFC 3339), when known.
    pub updated_at: Option<String>,
}

app::derefs_to_header!(BundleMeta, header);

#[derive(Clone, Debug)]
pub struct DocMeta {
    pub id: i64,
    /// Doc set or collection name.
    pub source: String,
    pub path: String,
    pub title: String,
    pub heading: Option<String>,
    pub anchor: String,
    pub url: Option<String>,
    pub text: String,
    /// Headings above this section, outermost first.
    pub trail: Vec<String>,
}

impl DocMeta {
    /// Stable citation id: `source:path#anchor`.
    pub fn cite_id(&self) -> String {
        if self.anchor.is_empty() {
            format!("{}:{}", self.source, self.path)
        } else {
            format!("{}:{}#{}", self.source, self.path, self.anchor)
        }
    }
}

#[derive(Clone, Debug)]
pub struct KeywordMeta {
    pub id: i64,
    pub collection: String,
    pub library: String,
    pub name: String,
    pub args: String,
    pub doc: String,
    pub url: Option<String>,
    /// How many bundles call it: how much of the catalog relies on it.
    pub users: u32,
}

impl KeywordMeta {
    /// Stable citation id: `library.Keyword Name`.
    pub fn cite_id(&self) -> String {
        format!("{}.{}", self.library, self.name)
    }
}

pub struct Snapshot {
    pub embedder_id: String,
    /// chunk index → slot in `vectors` (chunks without a vector have none).
    pub slot_of: HashMap<u32, usize>,
    pub chunks: Vec<ChunkMeta>,
    pub chunk_by_rowid: HashMap<i64, u32>,
    pub bundles: Vec<BundleMeta>,
    pub bundle_by_id: HashMap<i64, u32>,
    pub bundle_by_key: HashMap<String, u32>,
    pub docs: HashMap<i64, DocMeta>,
    pub keywords: HashMap<i64, KeywordMeta>,
    pub vectors: VectorIndex,
    pub graph: Graph,
    /// (catalog generation, embedder id, vector count) it was built from.
    pub fingerprint: String,
    /// What the catalog's own words say (see `query::vocab`).
    pub vocab: CorpusVocab,
}

fn json_list(s: String) -> Vec<String> {
    serde_json::from_str(&s).unwrap_or_default()
}

impl Snapshot {
    /// `common`: the embedder's whole-word vocabulary, when it has one (it tells a
    /// name the catalog lacks from an ordinary English word).
    pub fn load(
        c: &Connection,
        embedder_id: &str,
        common: Option<std::collections::HashSet<String>>,
    ) -> Result<Snapshot, StoreError> {
        let mut bundles = Vec::new();
        let mut bundle_by_id = HashMap::new();
        let mut bundle_by_key = HashMap::new();
        {
            let rows = crate::catalog::bundle_rows(c)?
                .into_iter()
                .map(|r| BundleMeta {
                    id: r.id,
                    header: r.header,
                    summary_chunk: None,
                    updated_at: r.updated_at,
                });
            for b in rows {
                let i = bundles.len() as u32;
                bundle_by_id.insert(b.id, i);
                bundle_by_key.insert(b.key(), i);
                bundles.push(b);
            }
        }
        let mut chunks = Vec::new();
        let mut chunk_by_rowid = HashMap::new();
        let mut vector_items = Vec::new();
        let mut vectors = Vec::new();
        {
            let mut st = c.prepare(
                "SELECT c.rowid, c.kind, c.bundle_id, c.doc_id, c.keyword_id, c.title, c.task, c.content_hash, e.vector
                 FROM chunks c LEFT JOIN embeddings e ON e.content_hash = c.content_hash AND e.embedder = ?1
                 ORDER BY c.rowid",
            )?;
            let mut rows = st.query([embedder_id])?;
            while let Some(r) = rows.next()? {
                let bundle_id: Option<i64> = r.get(2)?;
                let meta = ChunkMeta {
                    rowid: r.get(0)?,
                    kind: r.get(1)?,
                    bundle: bundle_id.and_then(|id| bundle_by_id.get(&id).copied()),
                    doc: r.get(3)?,
                    keyword: r.get(4)?,
                    title: r.get(5)?,
                    task: r.get(6)?,
                    content_hash: r.get(7)?,
                };
                let i = chunks.len() as u32;
                if meta.kind == ChunkKind::Bundle
                    && let Some(b) = meta.bundle
                {
                    bundles[b as usize].summary_chunk = Some(i);
                }
                if let Some(blob) = r.get::<_, Option<Vec<u8>>>(8)? {
                    vector_items.push(i);
                    vectors.push(blob_to_vector(&blob));
                }
                chunk_by_rowid.insert(meta.rowid, i);
                chunks.push(meta);
            }
        }
        let mut docs = HashMap::new();
        {
            let mut st = c.prepare(
                "SELECT d.id, coalesce(d.doc_set, co.name), d.path, d.title, d.heading, d.anchor, d.url, d.text, d.trail
                 FROM docs d LEFT JOIN collections co ON co.id = d.collection_id",
            )?;
            let rows = st.query_map([], |r| {
                Ok(DocMeta {
                    id: r.get(0)?,
                    source: r.get(1)?,
                    path: r.get(2)?,
                    title: r.get(3)?,
                    heading: r.get(4)?,
                    anchor: r.get(5)?,
                    url: r.get(6)?,
                    text: r.get(7)?,
                    trail: json_list(r.get(8)?),
                })
            })?;
            for d in rows {
                let d = d?;
                docs.insert(d.id, d);
            }
        }
        let mut keywords = HashMap::new();
        {
            let mut st = c.prepare(
                "SELECT k.id, co.name, k.library, k.name, k.args, k.doc, k.url,
                   (SELECT count(DISTINCT u.bundle_id) FROM keyword_uses u WHERE u.keyword_id = k.id)
                 FROM keywords k JOIN collections co ON co.id = k.collection_id",
            )?;
            let rows = st.query_map([], |r| {
                Ok(KeywordMeta {
                    id: r.get(0)?,
                    collection: r.get(1)?,
                    library: r.get(2)?,
                    name: r.get(3)?,
                    args: r.get(4)?,
                    doc: r.get(5)?,
                    url: r.get(6)?,
                    users: r.get(7)?,
                })
            })?;
            for k in rows {
                let k = k?;
                keywords.insert(k.id, k);
            }
        }
        let mut words = std::collections::HashSet::new();
        {
            let mut st = c.prepare(
                "SELECT names || ' ' || tasks || ' ' || tags || ' ' || docs FROM bundle_fts",
            )?;
            let rows = st.query_map([], |r| r.get::<_, String>(0))?;
            for t in rows {
                let t = t?;
                words.extend(crate::index::text::tokens(&t));
                words.extend(crate::index::text::compounds(&t));
            }
        }
        let vocab = corpus_vocab(&bundles, &chunks, &keywords, words, common);
        let graph = Graph::load(c)?;
        let generation = crate::store::catalog_generation(c)?;
        let fingerprint = format!("{generation}:{embedder_id}:{}", vectors.len());
        let slot_of = vector_items
            .iter()
            .enumerate()
            .map(|(slot, &ci)| (ci, slot))
            .collect();
        Ok(Snapshot {
            embedder_id: embedder_id.to_string(),
            slot_of,
            vectors: VectorIndex::new(vector_items, &vectors),
            chunks,
            chunk_by_rowid,
            bundles,
            bundle_by_id,
            bundle_by_key,
            docs,
            keywords,
            graph,
            fingerprint,
            vocab,
        })
    }
}

/// The catalog's vocabulary from what the snapshot already holds.
fn corpus_vocab(
    bundles: &[BundleMeta],
    chunks: &[ChunkMeta],
    keywords: &HashMap<i64, KeywordMeta>,
    words: std::collections::HashSet<String>,
    common: Option<std::collections::HashSet<String>>,
) -> CorpusVocab {
    let mut tasks: Vec<Vec<&str>> = vec![Vec::new(); bundles.len()];
    for ch in chunks {
        if let (Some(b), Some(t)) = (ch.bundle, ch.task.as_deref()) {
            tasks[b as usize].push(t);
        }
    }
    let facts: Vec<BundleFacts> = bundles
        .iter()
        .zip(tasks)
        .map(|(b, tasks)| BundleFacts {
            display_name: &b.display_name,
            slug: &b.slug,
            platform: &b.platform,
            tags: &b.tags,
            resource_types: &b.resource_types,
            tasks,
        })
        .collect();
    let kws: Vec<(&str, &str)> = keywords
        .values()
        .map(|k| (k.library.as_str(), k.name.as_str()))
        .collect();
    let mut collections: Vec<&str> = bundles.iter().map(|b| b.collection.as_str()).collect();
    collections.sort();
    collections.dedup();
    CorpusVocab::build(&facts, &kws, &collections, words, common)
}

impl Snapshot {
    /// Reads a question against this catalog.
    pub fn understand(&self, text: &str) -> Query {
        Query::parse(text, &self.vocab)
    }

    pub fn vectors_slot(&self, chunk: u32) -> Option<usize> {
        self.slot_of.get(&chunk).copied()
    }
}
