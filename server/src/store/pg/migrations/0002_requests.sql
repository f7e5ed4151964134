-- Version 2: codebundle requests, as in the SQLite schema (versions 5, 9, 10).
-- "Similar earlier requests" search a stored tsvector: the problem weighs most,
-- as FTS5's bm25 weights (5, 1, 1) do in SQLite.

CREATE TABLE requests (
    id              BIGSERIAL PRIMARY KEY,
    problem         TEXT NOT NULL,
    platform        TEXT,
    healthy         TEXT NOT NULL,
    context         TEXT NOT NULL,
    contact         TEXT,
    session_id      TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    turn_id         TEXT REFERENCES turns(id) ON DELETE SET NULL,
    closest         TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'planned', 'done', 'rejected')),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    issue_url       TEXT,
    issue_candidate BIGINT,
    owner           TEXT,
    filing          TEXT CHECK (filing IN ('running', 'done')),
    search          tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', problem), 'A') ||
        setweight(to_tsvector('english', healthy || ' ' || context), 'D')
    ) STORED
);
CREATE INDEX requests_status ON requests (status, created_at);
CREATE INDEX requests_search ON requests USING gin (search);
