//! Everything search needs in memory, loaded from the catalog in one read: chunk and
//! bundle metadata, the vectors of the active embedder, the keyword vocabulary and
//! the knowledge graph. Rebuilt when the catalog or the vectors change; the previous
//! snapshot keeps answering meanwhile.

use super::named::KeywordNames;
use super::products::BundleProducts;
pub use crate::catalog::{DocMeta, KeywordMeta};
use crate::graph::Graph;
use crate::index::build::blob_to_vector;
use crate::index::vectors::VectorIndex;
use crate::ingest::ChunkKind;
use crate::ingest::record::BundleRecord;
use crate::query::{BundleFacts, CorpusVocab, Query};
use crate::store::StoreError;
use app::api::catalog::BundleHeader;
use rusqlite::Connection;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
    /// The products it is named for and speaks of (`products`).
    pub products: BundleProducts,
}

app::derefs_to_header!(BundleMeta, header);

pub struct Snapshot {
    pub embedder_id: String,
    /// chunk index → slot in `vectors` (chunks without a vector have none).
    pub slot_of: HashMap<u32, usize>,
    pub chunks: Vec<ChunkMeta>,
    pub chunk_by_rowid: HashMap<i64, u32>,
    pub bundles: Vec<BundleMeta>,
    pub bundle_by_id: HashMap<i64, u32>,
    pub bundle_by_key: HashMap<String, u32>,
    /// The collections' and doc sets' sections, and every bundle's README
    /// sections under negative ids (`sections`).
    pub docs: HashMap<i64, DocMeta>,
    pub keywords: HashMap<i64, KeywordMeta>,
    /// Citation id → doc and keyword id, for checking an answer's citations (built
    /// per turn, these maps were a tenth of a loaded server's CPU outside the model).
    pub doc_by_cite: HashMap<String, i64>,
    pub keyword_by_cite: HashMap<String, i64>,
    pub vectors: VectorIndex,
    pub graph: Graph,
    /// (catalog generation, embedder id, vector count) it was built from.
    pub fingerprint: String,
    /// What the catalog's own words say (see `query::vocab`).
    pub vocab: CorpusVocab,
    /// Keyword names by their first word (`named`).
    pub keyword_names: KeywordNames,
    /// Bundle records a turn grounded its answer in, parsed once per snapshot
    /// (`perf` at 200 streams: parsing the same few records' JSON every turn was
    /// a fortieth of the CPU). A new snapshot comes with each catalog change, so
    /// nothing here is stale; bounded, as a registry may hold 50k bundles.
    pub records: Mutex<lru::LruCache<String, Arc<BundleRecord>>>,
}

/// Parsed bundle records a snapshot keeps (a few KB each).
const RECORDS_KEPT: usize = 256;

impl Snapshot {
    /// One bundle's stored record by `collection/slug`, parsed once per snapshot.
    pub fn record(
        &self,
        c: &Connection,
        key: &str,
    ) -> Result<Option<Arc<BundleRecord>>, StoreError> {
        let kept = self
            .records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(key)
            .cloned();
        if kept.is_some() {
            return Ok(kept);
        }
        let Some((collection, slug)) = key.split_once('/') else {
            return Ok(None);
        };
        let Some((_, r)) = crate::catalog::record(c, collection, slug)? else {
            return Ok(None);
        };
        let r = Arc::new(r);
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .put(key.to_string(), r.clone());
        Ok(Some(r))
    }

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
                    products: BundleProducts::default(),
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
            for row in crate::catalog::chunk_rows(c, embedder_id)? {
                let meta = ChunkMeta {
                    rowid: row.rowid,
                    kind: row.kind,
                    bundle: row.bundle_id.and_then(|id| bundle_by_id.get(&id).copied()),
                    doc: row.doc_id,
                    keyword: row.keyword_id,
                    title: row.title,
                    task: row.task,
                    content_hash: row.content_hash,
                };
                let i = chunks.len() as u32;
                if meta.kind == ChunkKind::Bundle
                    && let Some(b) = meta.bundle
                {
                    bundles[b as usize].summary_chunk = Some(i);
                }
                if let Some(blob) = row.vector {
                    vector_items.push(i);
                    vectors.push(blob_to_vector(&blob));
                }
                chunk_by_rowid.insert(meta.rowid, i);
                chunks.push(meta);
            }
        }
        let mut docs: HashMap<i64, DocMeta> = crate::catalog::doc_rows(c)?
            .into_iter()
            .map(|d| (d.id, d))
            .collect();
        let (sections, links) = super::sections::readme_sections(
            crate::catalog::readme_section_rows(c)?,
            crate::catalog::readme_chunk_rows(c)?,
            |id| bundle_by_id.get(&id).map(|&b| &bundles[b as usize].header),
        );
        docs.extend(sections);
        for (rowid, doc) in links {
            if let Some(&ci) = chunk_by_rowid.get(&rowid) {
                chunks[ci as usize].doc = Some(doc);
            }
        }
        let keywords: HashMap<i64, KeywordMeta> = crate::catalog::keyword_rows(c)?
            .into_iter()
            .map(|k| (k.id, k))
            .collect();
        let mut words = std::collections::HashSet::new();
        for t in crate::index::fts::bundle_texts(c)? {
            let tokens = crate::index::text::tokens(&t);
            let joined = crate::query::LEXICON.joined_technologies(&tokens);
            words.extend(joined.into_iter().map(|(_, name)| name));
            words.extend(tokens);
            words.extend(crate::index::text::compounds(&t));
        }
        let tasks = tasks_by_bundle(bundles.len(), &chunks);
        for (b, tasks) in bundles.iter_mut().zip(&tasks) {
            b.products = BundleProducts::read(
                &b.slug,
                &b.display_name,
                &b.description,
                &b.tags,
                &b.resource_types,
                tasks,
            );
        }
        let mut vocab = corpus_vocab(&bundles, tasks, &keywords, words, common);
        vocab.set_settings(crate::catalog::setting_rows(c)?);
        let graph = Graph::load(c)?;
        let generation = crate::store::catalog_generation(c)?;
        let fingerprint = format!("{generation}:{embedder_id}:{}", vectors.len());
        let slot_of = vector_items
            .iter()
            .enumerate()
            .map(|(slot, &ci)| (ci, slot))
            .collect();
        let keyword_names = KeywordNames::build(keywords.values().map(|k| (k.id, k.name.as_str())));
        let doc_by_cite = docs.values().map(|d| (d.cite_id(), d.id)).collect();
        let keyword_by_cite = keywords.values().map(|k| (k.cite_id(), k.id)).collect();
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
            doc_by_cite,
            keyword_by_cite,
            graph,
            fingerprint,
            vocab,
            keyword_names,
            records: Mutex::new(lru::LruCache::new(
                std::num::NonZeroUsize::new(RECORDS_KEPT).unwrap_or(std::num::NonZeroUsize::MIN),
            )),
        })
    }
}

/// Each bundle's task names, from its task chunks.
fn tasks_by_bundle(bundles: usize, chunks: &[ChunkMeta]) -> Vec<Vec<&str>> {
    let mut tasks: Vec<Vec<&str>> = vec![Vec::new(); bundles];
    for ch in chunks {
        if let (Some(b), Some(t)) = (ch.bundle, ch.task.as_deref()) {
            tasks[b as usize].push(t);
        }
    }
    tasks
}

/// The catalog's vocabulary from what the snapshot already holds.
fn corpus_vocab(
    bundles: &[BundleMeta],
    tasks: Vec<Vec<&str>>,
    keywords: &HashMap<i64, KeywordMeta>,
    words: std::collections::HashSet<String>,
    common: Option<std::collections::HashSet<String>>,
) -> CorpusVocab {
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
