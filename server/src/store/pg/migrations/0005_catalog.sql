-- Version 5: the catalog, shared. The replica that indexes (an admin Reindex,
-- `registry-chat index`) publishes its catalog here together with the
-- announcement of its run; the others load it into their own SQLite file
-- instead of reading the sources and embedding them again. The tables mirror
-- the SQLite catalog column for column (integers as BIGINT); the keyword index
-- is stored as the text FTS5 indexed, so every replica's keyword search ranks
-- as the publisher's does. Each publication replaces the previous one whole.
ALTER TABLE index_runs
    ADD COLUMN catalog_schema INTEGER,   -- the publisher's SQLite schema version
    ADD COLUMN ingest_version TEXT,      -- and its parser version
    ADD COLUMN catalog_rows   BIGINT;    -- NULL: announced without a catalog

CREATE TABLE catalog_collections (
    id BIGINT NOT NULL, name TEXT NOT NULL, root TEXT NOT NULL, git_url TEXT, git_ref TEXT,
    commit_sha TEXT, web_url TEXT, content_hash TEXT NOT NULL, libraries_hash TEXT NOT NULL,
    docs_hash TEXT NOT NULL, indexed_at TEXT NOT NULL, bundles BIGINT NOT NULL, tasks BIGINT NOT NULL,
    slis BIGINT NOT NULL, keywords BIGINT NOT NULL, docs BIGINT NOT NULL, warnings BIGINT NOT NULL
);
CREATE TABLE catalog_bundles (
    id BIGINT NOT NULL, collection_id BIGINT NOT NULL, slug TEXT NOT NULL, fingerprint TEXT NOT NULL,
    display_name TEXT NOT NULL, description TEXT NOT NULL, platform TEXT NOT NULL, access TEXT NOT NULL,
    resource_types TEXT NOT NULL, tags TEXT NOT NULL, task_count BIGINT NOT NULL, sli_count BIGINT NOT NULL,
    author TEXT, source_url TEXT, record TEXT NOT NULL, updated_at TEXT
);
CREATE TABLE catalog_tasks (
    id BIGINT NOT NULL, bundle_id BIGINT NOT NULL, kind TEXT NOT NULL, position BIGINT NOT NULL,
    name TEXT NOT NULL, doc TEXT NOT NULL, tags TEXT NOT NULL, access TEXT NOT NULL, file TEXT NOT NULL,
    line_start BIGINT NOT NULL, line_end BIGINT NOT NULL, calls TEXT NOT NULL, sites TEXT NOT NULL
);
CREATE TABLE catalog_variables (
    bundle_id BIGINT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, var_type TEXT, description TEXT,
    default_value TEXT, file TEXT NOT NULL, line BIGINT NOT NULL
);
CREATE TABLE catalog_bundle_libraries (
    bundle_id BIGINT NOT NULL, library TEXT NOT NULL, external BIGINT NOT NULL
);
CREATE TABLE catalog_keywords (
    id BIGINT NOT NULL, collection_id BIGINT NOT NULL, library TEXT NOT NULL, name TEXT NOT NULL,
    python_name TEXT NOT NULL, class_name TEXT, args TEXT NOT NULL, doc TEXT NOT NULL, file TEXT NOT NULL,
    line BIGINT NOT NULL, url TEXT, external BIGINT NOT NULL
);
CREATE TABLE catalog_keyword_uses (
    keyword_id BIGINT NOT NULL, bundle_id BIGINT NOT NULL, task TEXT NOT NULL, file TEXT NOT NULL,
    line BIGINT NOT NULL
);
CREATE TABLE catalog_doc_sets (
    name TEXT NOT NULL, root TEXT NOT NULL, content_hash TEXT NOT NULL, indexed_at TEXT NOT NULL,
    files BIGINT NOT NULL, sections BIGINT NOT NULL
);
CREATE TABLE catalog_docs (
    id BIGINT NOT NULL, doc_set TEXT, collection_id BIGINT, path TEXT NOT NULL, title TEXT NOT NULL,
    heading TEXT, anchor TEXT NOT NULL, trail TEXT NOT NULL, markdown TEXT NOT NULL, text TEXT NOT NULL,
    line_start BIGINT NOT NULL, line_end BIGINT NOT NULL, url TEXT
);
-- `rowid` is SQLite's: the keyword index (`chunk_fts`) and search refer to chunks by it.
CREATE TABLE catalog_chunks (
    rowid BIGINT NOT NULL, id TEXT NOT NULL, content_hash TEXT NOT NULL, kind TEXT NOT NULL,
    bundle_id BIGINT, doc_id BIGINT, keyword_id BIGINT, title TEXT NOT NULL, task TEXT,
    embed_text TEXT NOT NULL, show_text TEXT NOT NULL, file TEXT, line_start BIGINT, line_end BIGINT
);
CREATE TABLE catalog_index_warnings (
    collection_id BIGINT, bundle_id BIGINT, doc_set TEXT, path TEXT NOT NULL, line BIGINT,
    message TEXT NOT NULL
);
CREATE TABLE catalog_embeddings (
    embedder TEXT NOT NULL, content_hash TEXT NOT NULL, vector BYTEA NOT NULL
);
CREATE TABLE catalog_bundle_fts (
    rowid BIGINT NOT NULL, names TEXT, tasks TEXT, tags TEXT, docs TEXT, readme TEXT
);
CREATE TABLE catalog_chunk_fts (
    rowid BIGINT NOT NULL, title TEXT, body TEXT
);
