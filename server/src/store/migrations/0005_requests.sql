-- Version 5: codebundle requests ("nothing fits, please build one"). Each request
-- keeps the conversation it came from and the closest bundles the user was shown.

CREATE TABLE requests (
    id          INTEGER PRIMARY KEY,
    problem     TEXT NOT NULL,
    platform    TEXT,
    healthy     TEXT NOT NULL,
    context     TEXT NOT NULL,
    contact     TEXT,
    session_id  TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    turn_id     TEXT REFERENCES turns(id) ON DELETE SET NULL,
    closest     TEXT NOT NULL,   -- JSON array of bundle keys shown with the form
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'planned', 'done', 'rejected')),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) STRICT;
CREATE INDEX requests_status ON requests (status, created_at);

-- "Similar earlier requests": full-text over what was asked for.
CREATE VIRTUAL TABLE requests_fts USING fts5(
    problem, healthy, context,
    content = 'requests', content_rowid = 'id', tokenize = 'porter unicode61'
);
CREATE TRIGGER requests_ai AFTER INSERT ON requests BEGIN
    INSERT INTO requests_fts (rowid, problem, healthy, context) VALUES (new.id, new.problem, new.healthy, new.context);
END;
CREATE TRIGGER requests_ad AFTER DELETE ON requests BEGIN
    INSERT INTO requests_fts (requests_fts, rowid, problem, healthy, context) VALUES ('delete', old.id, old.problem, old.healthy, old.context);
END;
CREATE TRIGGER requests_au AFTER UPDATE OF problem, healthy, context ON requests BEGIN
    INSERT INTO requests_fts (requests_fts, rowid, problem, healthy, context) VALUES ('delete', old.id, old.problem, old.healthy, old.context);
    INSERT INTO requests_fts (rowid, problem, healthy, context) VALUES (new.id, new.problem, new.healthy, new.context);
END;
