-- Puzzles found by the engine in finished games (or its own games on a new
-- site), rated by Glicko-2 as people solve them, and each user's puzzle
-- rating, attempts, timed streaks and the day's puzzle.

CREATE TABLE puzzles (
    id TEXT PRIMARY KEY,
    -- `standard` or `hex`.
    variant TEXT NOT NULL,
    -- The position before the opponent's move that sets the puzzle.
    fen TEXT NOT NULL,
    -- Moves separated by spaces: the opponent's, then the solver's and the
    -- opponent's in turn, ending with the solver's.
    moves TEXT NOT NULL,
    -- The position the solver starts from, by its hash: one puzzle each.
    position_key BIGINT NOT NULL,
    -- The set of themes as bits (see `Theme::bit`).
    themes BIGINT NOT NULL,
    mate BIGINT NOT NULL,
    -- The game it comes from, if it is one of the site's.
    game_id TEXT,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays BIGINT NOT NULL,
    solves BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE UNIQUE INDEX puzzles_position ON puzzles(variant, position_key);
CREATE INDEX puzzles_rating ON puzzles(variant, rating);

-- A puzzle under each of its themes, with its rating kept beside it, so that
-- the next puzzle of a theme near a rating is one walk of an index.
CREATE TABLE puzzle_themes (
    theme TEXT NOT NULL,
    variant TEXT NOT NULL,
    puzzle_id TEXT NOT NULL REFERENCES puzzles(id),
    rating DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (theme, variant, puzzle_id)
);
CREATE INDEX puzzle_themes_rating ON puzzle_themes(theme, variant, rating);

-- A user's puzzle rating on one board.
CREATE TABLE puzzle_players (
    user_name TEXT NOT NULL REFERENCES users(name),
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    solved BIGINT NOT NULL,
    best_streak BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (user_name, variant)
);
CREATE INDEX puzzle_players_rating ON puzzle_players(variant, rating);

-- A user's first attempt at a puzzle: the one that counts. `open` until it
-- is solved or failed; `hinted` once a hint was shown (the attempt is then
-- not rated); `rating` is the user's puzzle rating after it.
CREATE TABLE puzzle_attempts (
    user_name TEXT NOT NULL REFERENCES users(name),
    puzzle_id TEXT NOT NULL REFERENCES puzzles(id),
    result TEXT NOT NULL,
    hinted BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    rating DOUBLE PRECISION,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_name, puzzle_id)
);
CREATE INDEX puzzle_attempts_time ON puzzle_attempts(user_name, at_ms);

-- A timed streak: puzzles one after another, each harder, until one is
-- failed or the time is up.
CREATE TABLE puzzle_streaks (
    id TEXT PRIMARY KEY,
    user_name TEXT NOT NULL REFERENCES users(name),
    variant TEXT NOT NULL,
    started_ms BIGINT NOT NULL,
    ends_ms BIGINT NOT NULL,
    solved BIGINT NOT NULL,
    -- The puzzle being solved now; none once the streak is over.
    current_id TEXT REFERENCES puzzles(id),
    over BIGINT NOT NULL
);
CREATE INDEX puzzle_streaks_user ON puzzle_streaks(user_name, over);

-- The puzzle of each day (UTC), chosen by the first to ask.
CREATE TABLE puzzle_days (
    day TEXT PRIMARY KEY,
    puzzle_id TEXT NOT NULL REFERENCES puzzles(id)
);

-- Where the search of the site's finished games for puzzles has got to.
CREATE TABLE puzzle_scan (
    id BIGINT PRIMARY KEY,
    after_ms BIGINT NOT NULL,
    after_id TEXT NOT NULL
);

-- A rated attempt moves the puzzle's rating in every theme row it has.
CREATE INDEX puzzle_themes_puzzle ON puzzle_themes(puzzle_id);
