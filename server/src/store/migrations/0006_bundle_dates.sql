-- When each bundle last changed: the committer date of the newest commit touching its
-- folder (NULL when the collection is not a git checkout). Answers "what changed
-- recently" from the catalog itself.
ALTER TABLE bundles ADD COLUMN updated_at TEXT;
