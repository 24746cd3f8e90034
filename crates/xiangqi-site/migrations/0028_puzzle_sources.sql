-- Puzzles from games played elsewhere: the Masters collection, and the
-- imported games of users who agreed (imported games are private, so nobody's
-- are searched until their owner says so).

-- Whether the user lets the site find puzzles in their imported games.
ALTER TABLE users ADD COLUMN puzzles_from_imports BIGINT NOT NULL DEFAULT 0;
-- The search walks the users who agreed, by name.
CREATE INDEX users_puzzles_from_imports ON users(name) WHERE puzzles_from_imports = 1;

-- Where a puzzle comes from: `engine` (a game of the engine against itself,
-- no game kept), `site` (`game_id` is one of the site's games), `masters`
-- (`game_id` is in the Masters collection), `imported` (`game_id` is one of
-- `source_owner`'s imported games), or `withdrawn` (an imported game whose
-- owner took it back after someone had tried the puzzle: where it came from
-- is forgotten). Puzzles stored before this came from the site's games or
-- the engine's, which `game_id` told apart.
ALTER TABLE puzzles ADD COLUMN source TEXT NOT NULL DEFAULT 'engine';
UPDATE puzzles SET source = 'site' WHERE game_id IS NOT NULL;
ALTER TABLE puzzles ADD COLUMN source_owner TEXT;
-- An owner who withdraws, or deletes a game, reaches their puzzles at once.
CREATE INDEX puzzles_source_owner ON puzzles(source_owner, game_id) WHERE source_owner IS NOT NULL;
-- Whether anyone has tried a puzzle decides whether a withdrawn one may go.
CREATE INDEX puzzle_attempts_puzzle ON puzzle_attempts(puzzle_id);

-- Where the search of each source besides the site's games has got to, by
-- (created_ms, id) of its games: one row for the Masters collection (owner
-- ''), one per user for their imported games. A user's row outlives their
-- withdrawal: agreeing again searches only games not searched before, so
-- that turning the setting off and on cannot make the search start over.
CREATE TABLE puzzle_source_scans (
    source TEXT NOT NULL,
    owner TEXT NOT NULL,
    after_ms BIGINT NOT NULL,
    after_id TEXT NOT NULL,
    PRIMARY KEY (source, owner)
);
