-- One ladder per rating category: players in order of position (1 is the top);
-- ladder challenges expire if not accepted in time; ladder games move players.

CREATE TABLE ladder_rungs (
    category TEXT NOT NULL,
    user_name TEXT NOT NULL REFERENCES users(name),
    position BIGINT NOT NULL,
    joined_ms BIGINT NOT NULL,
    PRIMARY KEY (category, user_name)
);
CREATE UNIQUE INDEX ladder_positions ON ladder_rungs(category, position);

CREATE TABLE ladder_results (
    category TEXT NOT NULL,
    challenger TEXT NOT NULL REFERENCES users(name),
    defender TEXT NOT NULL REFERENCES users(name),
    challenger_won BIGINT NOT NULL,
    -- `game` or `lapsed` (the defender let the challenge expire).
    how TEXT NOT NULL,
    game_id TEXT,
    at_ms BIGINT NOT NULL
);
CREATE INDEX ladder_results_time ON ladder_results(category, at_ms);

ALTER TABLE challenges ADD COLUMN ladder TEXT;
ALTER TABLE challenges ADD COLUMN expires_ms BIGINT;
CREATE INDEX challenges_expiry ON challenges(status, expires_ms);
ALTER TABLE games ADD COLUMN ladder TEXT;
ALTER TABLE games ADD COLUMN ladder_challenger TEXT;
