-- Version 3: the retrieval index over the catalog.

-- Embeddings cached by (embedder, chunk content hash): a reindex embeds only new or
-- changed text, and two embedders' vectors never mix.
CREATE TABLE embeddings (
    embedder     TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    vector       BLOB NOT NULL,   -- little-endian f32, unit length
    PRIMARY KEY (embedder, content_hash)
) STRICT, WITHOUT ROWID;

-- One row per bundle (rowid = bundles.id); bm25 column weights favour names.
CREATE VIRTUAL TABLE bundle_fts USING fts5(
    names, tasks, tags, docs, readme,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- One row per chunk (rowid = chunks.rowid): docs, keywords and task-level matches.
CREATE VIRTUAL TABLE chunk_fts USING fts5(
    title, body,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE bundle_fts_vocab USING fts5vocab(bundle_fts, 'row');

-- The knowledge graph, rebuilt from the catalog after every change.
CREATE TABLE graph_nodes (
    id    INTEGER PRIMARY KEY,
    kind  TEXT NOT NULL,   -- collection, bundle, task, sli, tag, platform, resource, keyword, doc, author
    key   TEXT NOT NULL,
    label TEXT NOT NULL,
    UNIQUE (kind, key)
) STRICT;

CREATE TABLE graph_edges (
    src    INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    dst    INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    kind   TEXT NOT NULL,  -- CONTAINS, HAS_TAG, SUPPORTS, TARGETS, USES, DOCUMENTS, SIMILAR_TO, SAME_SLUG_AS, AUTHORED_BY
    weight REAL NOT NULL DEFAULT 1.0,
    PRIMARY KEY (src, dst, kind)
) STRICT, WITHOUT ROWID;
CREATE INDEX graph_edges_dst ON graph_edges (dst);

-- Catalogs from version 2 have no keyword index yet: make the next index run
-- rewrite every bundle (and so fill it).
UPDATE collections SET content_hash = '';
