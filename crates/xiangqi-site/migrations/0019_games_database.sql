-- The games database, the opening explorer and imported collections.

-- Every position (placement and side to move, as a 64-bit key) a finished game
-- reached in its first plies (see `domain::explorer::PLIES`), once per game:
-- games are found by a position reached (or the moves that lead to it) newest
-- first, a page at a time, from this index alone.
CREATE TABLE game_positions (
    pos_key BIGINT NOT NULL,
    ended_ms BIGINT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    PRIMARY KEY (pos_key, ended_ms, game_id)
);

-- The opening explorer: what was played from a position, counted per bucket of
-- the explorer's filters (rule set, pace and the band of the players' average
-- rating), written in the transaction that finishes a game; each move also
-- counts in its position's totals (rules and speed '', band -1), which the
-- explorer reads when no filter is set. `owner` is empty
-- for the site's games, a user's name for their imported collection.
CREATE TABLE explorer_moves (
    owner TEXT NOT NULL,
    pos_key BIGINT NOT NULL,
    rules TEXT NOT NULL,
    speed TEXT NOT NULL,
    band BIGINT NOT NULL,
    mv TEXT NOT NULL,
    games BIGINT NOT NULL,
    red_wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    black_wins BIGINT NOT NULL,
    rating_sum BIGINT NOT NULL,
    rated_games BIGINT NOT NULL,
    PRIMARY KEY (owner, pos_key, rules, speed, band, mv)
);

-- Games imported from PGN files into a user's own collection, checked move by
-- move when imported.
CREATE TABLE imported_games (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL REFERENCES users(name),
    red TEXT NOT NULL,
    black TEXT NOT NULL,
    event TEXT NOT NULL,
    date TEXT NOT NULL,
    rules TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    winner TEXT,
    result TEXT NOT NULL,
    moves TEXT NOT NULL,
    ply BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX imported_games_owner ON imported_games(owner, created_ms, id);

-- Finished games newest first with the id that orders a moment's ties: the
-- database's search without a player or a position.
CREATE INDEX IF NOT EXISTS games_status_ended ON games(status, updated_ms, id);
-- It serves the list of games being played (status 'active') as well.
DROP INDEX IF EXISTS games_updated;
-- The same by rule set: a search by rule set (and pace) walks its own games.
CREATE INDEX IF NOT EXISTS games_rules_ended ON games(status, rules, updated_ms, id);
