-- Version 9: requests filed in an issue tracker.
--
-- `issue_url` is the issue (or comment) a saved request became; `issue_candidate`
-- is the open issue number the duplicate search offered, so the only comment a
-- caller can ask for is on that issue.
ALTER TABLE requests ADD COLUMN issue_url TEXT;
ALTER TABLE requests ADD COLUMN issue_candidate INTEGER;
