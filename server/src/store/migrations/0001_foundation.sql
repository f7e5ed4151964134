-- Version 1: bookkeeping that every later feature relies on.

-- Small key/value facts about this database (created_at, created_by version).
CREATE TABLE app_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

INSERT INTO app_meta (key, value) VALUES ('created_at', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));

-- One row per `registry-chat index` run; health reports the last finished one.
CREATE TABLE index_runs (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    status      TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
    summary     TEXT
) STRICT;
