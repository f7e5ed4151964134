-- Version 8: where keywords are called, and keywords known only from their calls.
--
-- `tasks.sites` is each call with its line and (cut) arguments, JSON. A keyword use
-- keeps the file and line of its first call in that task, so an answer can point at
-- a typical call. `keywords.external` marks keywords of libraries no indexed
-- collection ships (`RW.Core`): derived from their call sites at every index run,
-- with the file and line of a typical call instead of a definition.
ALTER TABLE tasks ADD COLUMN sites TEXT NOT NULL DEFAULT '[]';
ALTER TABLE keyword_uses ADD COLUMN file TEXT NOT NULL DEFAULT '';
ALTER TABLE keyword_uses ADD COLUMN line INTEGER NOT NULL DEFAULT 0;
ALTER TABLE keywords ADD COLUMN external INTEGER NOT NULL DEFAULT 0;
