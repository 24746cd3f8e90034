-- Correspondence time is kept in hours per move (the seed's tournament kinds
-- are 48 and 28 hours a move), and tournaments: their entrants, their rounds'
-- pairings, and games that know the tournament round they belong to.

ALTER TABLE games RENAME COLUMN days TO hours;
UPDATE games SET hours = hours * 24 WHERE clock_kind = 'correspondence';
ALTER TABLE challenges RENAME COLUMN days TO hours;
UPDATE challenges SET hours = hours * 24 WHERE clock_kind = 'correspondence';
ALTER TABLE invitations RENAME COLUMN days TO hours;
UPDATE invitations SET hours = hours * 24 WHERE clock_kind = 'correspondence';
-- A preferred clock is kept as its JSON, `{"kind":"correspondence","days":N}`
-- (the tag first, as it is written): the number starts at character 33.
UPDATE users SET preferred_clock = '{"kind":"correspondence","hours":'
    || CAST(CAST(REPLACE(SUBSTR(preferred_clock, 33), '}', '') AS BIGINT) * 24 AS TEXT) || '}'
    WHERE preferred_clock LIKE '{"kind":"correspondence","days":%';

CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    creator TEXT NOT NULL REFERENCES users(name),
    category TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock_kind TEXT NOT NULL,
    hours BIGINT NOT NULL,
    base_ms BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    -- `round_robin` or `swiss`.
    format TEXT NOT NULL,
    -- Swiss: as stated; round-robin: 0 until the start fixes it.
    rounds BIGINT NOT NULL,
    min_players BIGINT NOT NULL,
    max_players BIGINT NOT NULL,
    -- Null: it starts when full.
    starts_ms BIGINT,
    -- `signup`, `running`, `finished` or `cancelled`.
    status TEXT NOT NULL,
    -- The round being played (0 before the start).
    round BIGINT NOT NULL,
    -- Grows with every change of entrants, rounds or status: the background
    -- task's conditional update on it is its claim, so that of several server
    -- instances exactly one starts, pairs or finishes a tournament.
    version BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    started_ms BIGINT,
    finished_ms BIGINT
);
CREATE INDEX tournaments_status ON tournaments(status, created_ms);

CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    user_name TEXT NOT NULL REFERENCES users(name),
    joined_ms BIGINT NOT NULL,
    -- Set at the start: 1 is the highest rated.
    seed BIGINT NOT NULL,
    -- The rating in the tournament's category at the start.
    rating BIGINT NOT NULL,
    -- After the start: the round in which the player withdrew.
    withdrawn_round BIGINT,
    PRIMARY KEY (tournament_id, user_name)
);
CREATE INDEX tournament_players_user ON tournament_players(user_name);

CREATE TABLE tournament_pairings (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    red TEXT NOT NULL REFERENCES users(name),
    -- Null: a bye for `red`.
    black TEXT REFERENCES users(name),
    game_id TEXT,
    -- Null while the game is played.
    result TEXT,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_pairings_game ON tournament_pairings(game_id);

ALTER TABLE games ADD COLUMN tournament_id TEXT;
ALTER TABLE games ADD COLUMN tournament_round BIGINT;
CREATE INDEX games_tournament ON games(tournament_id, status);
