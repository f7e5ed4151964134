-- Version 1: conversations, as in the SQLite schema (versions 4 and 7) so rows
-- move between the two unchanged: timestamps are the same ISO-8601 text, JSON
-- columns the same text.

-- The SQLite schema's `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`.
CREATE FUNCTION rc_now() RETURNS TEXT LANGUAGE SQL VOLATILE AS $$
    SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    title      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    summary    TEXT NOT NULL DEFAULT '',
    owner      TEXT
);
CREATE INDEX sessions_updated ON sessions (updated_at);
CREATE INDEX sessions_owner ON sessions (owner, updated_at);

CREATE TABLE turns (
    id             TEXT PRIMARY KEY,
    session_id     TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq            BIGINT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('complete', 'interrupted', 'failed')),
    question       TEXT NOT NULL,
    rewritten      TEXT NOT NULL,
    category       TEXT NOT NULL,
    answer         TEXT NOT NULL,
    source         TEXT NOT NULL,
    confidence     DOUBLE PRECISION NOT NULL,
    no_match       BOOLEAN NOT NULL,
    model          TEXT NOT NULL,
    tokens_in      BIGINT NOT NULL DEFAULT 0,
    tokens_out     BIGINT NOT NULL DEFAULT 0,
    latency_ms     BIGINT NOT NULL,
    filters        TEXT NOT NULL,
    cited          TEXT NOT NULL,
    cards          TEXT NOT NULL,
    trace          TEXT NOT NULL,
    feedback       BIGINT,
    feedback_note  TEXT,
    created_at     TEXT NOT NULL,
    live           BOOLEAN NOT NULL DEFAULT false,
    -- While live: when the replica streaming it last wrote. A live turn whose
    -- replica went quiet (killed, partitioned) is recovered by any other replica.
    heartbeat      TIMESTAMPTZ,
    UNIQUE (session_id, seq)
);
CREATE INDEX turns_created ON turns (created_at);
CREATE INDEX turns_live ON turns (heartbeat) WHERE live;

CREATE TABLE messages (
    id         BIGSERIAL PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    turn_id    TEXT REFERENCES turns(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content    TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX messages_session ON messages (session_id, id);
