-- Version 7: conversations belong to someone, and a turn is on disk while it streams.
--
-- `owner` is who may list, read, export, rename, delete and continue a session: the
-- browser's owner cookie (`c:<id>`) or, behind a trusted single sign-on proxy, the
-- user (`u:<name>`). Sessions from before this version have none and are visible
-- only in the admin console.
ALTER TABLE sessions ADD COLUMN owner TEXT;
CREATE INDEX sessions_owner ON sessions (owner, updated_at);

-- 1 while the turn streams (it is saved before its first token with status
-- 'interrupted' and what has been streamed so far); 0 once it ended. A row still
-- live at start-up was cut by a crash and stays interrupted.
ALTER TABLE turns ADD COLUMN live INTEGER NOT NULL DEFAULT 0;
