-- Version 11: the classifier's labelled examples, embedded once per embedder and
-- version of the examples file, so that start-up, `ask` and `eval` load them
-- instead of embedding ~670 texts (about a second of CPU with MiniLM) each time.
CREATE TABLE example_vectors (
    embedder     TEXT NOT NULL,
    intents_hash TEXT NOT NULL,
    vectors      BLOB NOT NULL,   -- little-endian f32, one example after another, in the file's order
    PRIMARY KEY (embedder, intents_hash)
) STRICT, WITHOUT ROWID;
