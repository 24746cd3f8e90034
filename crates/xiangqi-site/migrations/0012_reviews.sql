-- Game reviews: the engine's evaluation of every position of a finished game,
-- computed once. The review row is also the claim on the work: whoever inserts
-- it (or takes over a claim whose heartbeat has gone quiet) computes it, writing
-- each position as it goes, so a review cut short resumes where it stopped.
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    -- `pending` or `done`.
    status TEXT NOT NULL,
    requested_by TEXT NOT NULL REFERENCES users(name),
    -- The claim: a random token of the worker computing it, and when it last
    -- wrote (a claim quiet for long is taken over).
    claimed_by TEXT NOT NULL,
    claimed_ms BIGINT NOT NULL,
    -- Positions to evaluate (the moves and one), and the nodes searched for each.
    total BIGINT NOT NULL,
    nodes BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    done_ms BIGINT
);

-- One evaluated position: the one after `ply` moves (0 is the start), from the
-- side to move's view; `best` is the engine's move there in ICCS (none when the
-- game is over there).
CREATE TABLE review_positions (
    game_id TEXT NOT NULL REFERENCES reviews(game_id),
    ply BIGINT NOT NULL,
    -- `cp`, `mate` (moves, negative when mated), `won`, `lost` or `drawn`.
    score_kind TEXT NOT NULL,
    score BIGINT NOT NULL,
    best TEXT,
    depth BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
