-- Version 4: conversations. A session is a conversation; every turn is one record
-- with everything needed to explain it later (the admin traces read these).

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,          -- 128-bit random, unguessable
    title      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- Older exchanges condensed (the last five stay verbatim in `messages`).
    summary    TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX sessions_updated ON sessions (updated_at);

CREATE TABLE turns (
    id             TEXT PRIMARY KEY,
    session_id     TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('complete', 'interrupted', 'failed')),
    question       TEXT NOT NULL,
    rewritten      TEXT NOT NULL,
    category       TEXT NOT NULL,
    answer         TEXT NOT NULL,
    source         TEXT NOT NULL,        -- codebundles, documentation, libraries, mixed, system
    confidence     REAL NOT NULL,
    no_match       INTEGER NOT NULL,
    model          TEXT NOT NULL,        -- the LLM model, or "offline"
    tokens_in      INTEGER NOT NULL DEFAULT 0,
    tokens_out     INTEGER NOT NULL DEFAULT 0,
    latency_ms     INTEGER NOT NULL,
    filters        TEXT NOT NULL,        -- JSON: the plan's filters (memory for follow-ups)
    cited          TEXT NOT NULL,        -- JSON array of citation ids
    cards          TEXT NOT NULL,        -- JSON array of cards
    trace          TEXT NOT NULL,        -- JSON: classification, rewrite, plan, searches, prompts, tools, timings, errors
    feedback       INTEGER,              -- +1 / -1
    feedback_note  TEXT,
    created_at     TEXT NOT NULL,
    UNIQUE (session_id, seq)
) STRICT;
CREATE INDEX turns_created ON turns (created_at);

CREATE TABLE messages (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    turn_id    TEXT REFERENCES turns(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content    TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE INDEX messages_session ON messages (session_id, id);
