-- A ladder's open challenges, oldest first, a page at a time.
CREATE INDEX IF NOT EXISTS challenges_ladder ON challenges(ladder, status, created_ms, id);
