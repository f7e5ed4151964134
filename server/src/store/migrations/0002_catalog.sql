-- Version 2: the catalog written by `registry-chat index`.
-- Bundles are keyed by (collection, slug); child rows cascade when a bundle or a
-- collection is replaced, so a re-parsed bundle is one delete plus inserts.

CREATE TABLE collections (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    root          TEXT NOT NULL,
    git_url       TEXT,
    git_ref       TEXT,
    commit_sha    TEXT,
    web_url       TEXT,
    -- Hash over every indexed file (path and content) plus the parser version.
    content_hash  TEXT NOT NULL,
    libraries_hash TEXT NOT NULL,
    docs_hash     TEXT NOT NULL,
    indexed_at    TEXT NOT NULL,
    bundles       INTEGER NOT NULL DEFAULT 0,
    tasks         INTEGER NOT NULL DEFAULT 0,
    slis          INTEGER NOT NULL DEFAULT 0,
    keywords      INTEGER NOT NULL DEFAULT 0,
    docs          INTEGER NOT NULL DEFAULT 0,
    warnings      INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE bundles (
    id             INTEGER PRIMARY KEY,
    collection_id  INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    slug           TEXT NOT NULL,
    fingerprint    TEXT NOT NULL,
    display_name   TEXT NOT NULL,
    description    TEXT NOT NULL,
    platform       TEXT NOT NULL,
    access         TEXT NOT NULL CHECK (access IN ('read-only', 'read-write')),
    resource_types TEXT NOT NULL,  -- JSON array
    tags           TEXT NOT NULL,  -- JSON array
    task_count     INTEGER NOT NULL,
    sli_count      INTEGER NOT NULL,
    author         TEXT,
    source_url     TEXT,
    record         TEXT NOT NULL,  -- the full BundleRecord as JSON
    UNIQUE (collection_id, slug)
) STRICT;
CREATE INDEX bundles_platform ON bundles (platform);
CREATE INDEX bundles_slug ON bundles (slug);

CREATE TABLE tasks (
    id         INTEGER PRIMARY KEY,
    bundle_id  INTEGER NOT NULL REFERENCES bundles(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('task', 'sli')),
    position   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    doc        TEXT NOT NULL,
    tags       TEXT NOT NULL,      -- JSON array
    access     TEXT NOT NULL,
    file       TEXT NOT NULL,
    line_start INTEGER NOT NULL,
    line_end   INTEGER NOT NULL,
    calls      TEXT NOT NULL       -- JSON array of keyword names the task calls
) STRICT;
CREATE INDEX tasks_bundle ON tasks (bundle_id);

CREATE TABLE variables (
    bundle_id     INTEGER NOT NULL REFERENCES bundles(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL,
    var_type      TEXT,
    description   TEXT,
    default_value TEXT,
    file          TEXT NOT NULL,
    line          INTEGER NOT NULL
) STRICT;
CREATE INDEX variables_bundle ON variables (bundle_id);

CREATE TABLE bundle_libraries (
    bundle_id INTEGER NOT NULL REFERENCES bundles(id) ON DELETE CASCADE,
    library   TEXT NOT NULL,
    -- 1 when no indexed collection provides this library (e.g. RW.Core).
    external  INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (bundle_id, library)
) STRICT, WITHOUT ROWID;

CREATE TABLE keywords (
    id            INTEGER PRIMARY KEY,
    collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    library       TEXT NOT NULL,
    name          TEXT NOT NULL,
    python_name   TEXT NOT NULL,
    class_name    TEXT,
    args          TEXT NOT NULL,
    doc           TEXT NOT NULL,
    file          TEXT NOT NULL,
    line          INTEGER NOT NULL,
    url           TEXT,
    UNIQUE (collection_id, library, name)
) STRICT;
CREATE INDEX keywords_library ON keywords (library);

-- Which bundles (and tasks) call which keyword.
CREATE TABLE keyword_uses (
    keyword_id INTEGER NOT NULL REFERENCES keywords(id) ON DELETE CASCADE,
    bundle_id  INTEGER NOT NULL REFERENCES bundles(id) ON DELETE CASCADE,
    task       TEXT NOT NULL,
    PRIMARY KEY (keyword_id, bundle_id, task)
) STRICT, WITHOUT ROWID;
CREATE INDEX keyword_uses_bundle ON keyword_uses (bundle_id);

CREATE TABLE doc_sets (
    name         TEXT PRIMARY KEY,
    root         TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    indexed_at   TEXT NOT NULL,
    files        INTEGER NOT NULL DEFAULT 0,
    sections     INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Documentation sections: from a doc set, or a collection's own README/docs.
CREATE TABLE docs (
    id            INTEGER PRIMARY KEY,
    doc_set       TEXT REFERENCES doc_sets(name) ON DELETE CASCADE,
    collection_id INTEGER REFERENCES collections(id) ON DELETE CASCADE,
    path          TEXT NOT NULL,
    title         TEXT NOT NULL,
    heading       TEXT,
    anchor        TEXT NOT NULL,
    trail         TEXT NOT NULL,  -- JSON array
    markdown      TEXT NOT NULL,
    text          TEXT NOT NULL,
    line_start    INTEGER NOT NULL,
    line_end      INTEGER NOT NULL,
    url           TEXT,
    CHECK ((doc_set IS NULL) <> (collection_id IS NULL))
) STRICT;

CREATE TABLE chunks (
    id           TEXT PRIMARY KEY,
    content_hash TEXT NOT NULL,
    kind         TEXT NOT NULL,
    bundle_id    INTEGER REFERENCES bundles(id) ON DELETE CASCADE,
    doc_id       INTEGER REFERENCES docs(id) ON DELETE CASCADE,
    keyword_id   INTEGER REFERENCES keywords(id) ON DELETE CASCADE,
    title        TEXT NOT NULL,
    task         TEXT,
    embed_text   TEXT NOT NULL,
    show_text    TEXT NOT NULL,
    file         TEXT,
    line_start   INTEGER,
    line_end     INTEGER
) STRICT;
CREATE INDEX chunks_bundle ON chunks (bundle_id);
CREATE INDEX chunks_content ON chunks (content_hash);

CREATE TABLE index_warnings (
    collection_id INTEGER REFERENCES collections(id) ON DELETE CASCADE,
    -- Set for a bundle's own warnings, which go when the bundle is re-parsed.
    bundle_id     INTEGER REFERENCES bundles(id) ON DELETE CASCADE,
    doc_set       TEXT REFERENCES doc_sets(name) ON DELETE CASCADE,
    path          TEXT NOT NULL,
    line          INTEGER,
    message       TEXT NOT NULL
) STRICT;
