-- Challenges to a user, oldest first, a page at a time.
CREATE INDEX IF NOT EXISTS challenges_incoming ON challenges(opponent, status, created_ms, id);
DROP INDEX IF EXISTS challenges_opponent;
