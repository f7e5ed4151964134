-- Version 4: index runs across replicas. Each replica keeps its own catalog and
-- search index; a run started on one (the admin Reindex, `registry-chat index`)
-- is recorded here, and the others follow it with a run of their own.
CREATE TABLE index_runs (
    id         BIGSERIAL PRIMARY KEY,
    replica    TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
