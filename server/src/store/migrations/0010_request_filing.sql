-- Version 10: who saved a request (only they may file it in the tracker) and
-- whether filing is under way or done, so two calls never open two issues.
ALTER TABLE requests ADD COLUMN owner TEXT;
ALTER TABLE requests ADD COLUMN filing TEXT CHECK (filing IN ('running', 'done'));
