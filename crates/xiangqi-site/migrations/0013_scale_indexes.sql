-- Indexes for a site of millions of rows: every list walks an index in its own
-- order and stops at its page.

-- Who is here: the most recently seen first, by name within the same moment.
CREATE INDEX IF NOT EXISTS users_seen_name ON users(seen_ms, name_key);
DROP INDEX IF EXISTS users_seen;

-- A player's games being played, most recently changed first (their games
-- list, the games shown beside them in lists), one side at a time; the rule
-- set and winner let a player's results per rule set be counted from the
-- index alone.
CREATE INDEX IF NOT EXISTS games_red_status ON games(red, status, updated_ms, rules, winner);
CREATE INDEX IF NOT EXISTS games_black_status ON games(black, status, updated_ms, rules, winner);
DROP INDEX IF EXISTS games_red;
DROP INDEX IF EXISTS games_black;

-- A player's finished games, newest first, with the id that orders a moment's ties.
CREATE INDEX IF NOT EXISTS games_red_ended ON games(red, updated_ms, id);
CREATE INDEX IF NOT EXISTS games_black_ended ON games(black, updated_ms, id);
DROP INDEX IF EXISTS games_red_updated;
DROP INDEX IF EXISTS games_black_updated;

-- The waiting room: open challenges to anyone, oldest first.
CREATE INDEX IF NOT EXISTS challenges_room ON challenges(status, created_ms, id) WHERE opponent IS NULL;
