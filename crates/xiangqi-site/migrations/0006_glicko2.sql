-- Glicko-2 ratings, one per player and category (standard or hex board,
-- correspondence or live), with their history; rated or casual games; what a
-- player shows next to their name and whether new challenges are rated.

CREATE TABLE ratings (
    user_name TEXT NOT NULL REFERENCES users(name),
    category TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (user_name, category)
);
CREATE INDEX ratings_board ON ratings(category, rating);

CREATE TABLE rating_history (
    user_name TEXT NOT NULL REFERENCES users(name),
    category TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_name, category, game_id)
);
CREATE INDEX rating_history_time ON rating_history(user_name, category, at_ms);

ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 1;
ALTER TABLE challenges ADD COLUMN rated BIGINT NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN shown_category TEXT NOT NULL DEFAULT 'standard_correspondence';
ALTER TABLE users ADD COLUMN rated_by_default BIGINT NOT NULL DEFAULT 1;
-- Set once the finished games of the Elo era have been replayed into Glicko-2.
CREATE TABLE rating_replays (id BIGINT PRIMARY KEY, done_ms BIGINT NOT NULL);
