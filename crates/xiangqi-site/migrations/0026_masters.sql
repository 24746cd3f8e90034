-- The site's Masters collection: real games an administrator loads from
-- record files, kept apart from the site's own games and from any user's
-- imports, and counted in the explorer under the owner '*masters' (no user
-- name holds a '*'). A record loaded twice, from overlapping collections,
-- is kept once by its digest.
CREATE TABLE masters_games (
    id TEXT PRIMARY KEY,
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
    rating BIGINT,
    record TEXT NOT NULL,
    judged TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    created_ms BIGINT NOT NULL
);
CREATE INDEX masters_games_created ON masters_games(created_ms, id);
CREATE INDEX masters_games_red ON masters_games(red, created_ms, id);
CREATE INDEX masters_games_black ON masters_games(black, created_ms, id);
