-- Puzzles are rated only on attempts the solver could not have prepared: a
-- puzzle the site handed the user, whose line had not been shown at the user's
-- network address.

-- The puzzle the site last handed a user in each place it hands them (`next`
-- on each board, the day's `daily`), and from which network address. Handing
-- another in the same place replaces it. No reference to the puzzle: a row
-- written while a solver of the same puzzle holds its row would wait on it.
CREATE TABLE puzzle_handouts (
    user_name TEXT NOT NULL REFERENCES users(name),
    kind TEXT NOT NULL,
    variant TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    address TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_name, kind, variant)
);
CREATE INDEX puzzle_handouts_puzzle ON puzzle_handouts(user_name, puzzle_id);

-- Whether, when a first attempt began, the site had handed the puzzle to the
-- user (only then can it be rated), and whether its line had been shown at the
-- user's network address by then or before the attempt ended (then it is not).
ALTER TABLE puzzle_attempts ADD COLUMN handed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE puzzle_attempts ADD COLUMN seen BIGINT NOT NULL DEFAULT 0;

-- Each move and hint a visitor (not logged in) asked for, by network address
-- (an IPv4 address or an IPv6 /64): the hourly limit on them counts these, and
-- a puzzle tried from an address is neither handed to nor rated for a user
-- there.
CREATE TABLE puzzle_probes (
    address TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX puzzle_probes_time ON puzzle_probes(address, at_ms);
CREATE INDEX puzzle_probes_puzzle ON puzzle_probes(address, puzzle_id);

-- The puzzle a running streak stands on is answered through the streak alone.
CREATE INDEX puzzle_streaks_current ON puzzle_streaks(current_id) WHERE over = 0;
