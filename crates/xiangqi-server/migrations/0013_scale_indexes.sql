-- Indexes for a site of millions of rows: every list walks an index in its own
-- order and stops at its page.

-- Who is here: the most recently seen first, by name within the same moment.
CREATE INDEX users_seen_name ON users(seen_ms, name_key);
DROP INDEX users_seen;

-- A player's games being played, most recently changed first (their games
-- list, the games shown beside them in lists): one side at a time.
CREATE INDEX games_red_active ON games(red, status, updated_ms);
CREATE INDEX games_black_active ON games(black, status, updated_ms);
DROP INDEX games_red;
DROP INDEX games_black;

-- A player's finished games, newest first, with the id that orders a moment's ties.
CREATE INDEX games_red_ended ON games(red, updated_ms, id);
CREATE INDEX games_black_ended ON games(black, updated_ms, id);
DROP INDEX games_red_updated;
DROP INDEX games_black_updated;

-- The waiting room: open challenges to anyone, oldest first.
CREATE INDEX challenges_room ON challenges(status, created_ms, id) WHERE opponent IS NULL;
