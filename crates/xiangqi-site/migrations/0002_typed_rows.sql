-- Each game names its board; each user carries their record, kept as games end,
-- so lists of users need no count over all games.

ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';

ALTER TABLE users ADD COLUMN wins BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN losses BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN draws BIGINT NOT NULL DEFAULT 0;

UPDATE users SET
    wins = (SELECT COUNT(*) FROM games g WHERE g.status = 'finished'
            AND ((g.winner = 'red' AND g.red = users.name) OR (g.winner = 'black' AND g.black = users.name))),
    losses = (SELECT COUNT(*) FROM games g WHERE g.status = 'finished'
            AND ((g.winner = 'red' AND g.black = users.name) OR (g.winner = 'black' AND g.red = users.name))),
    draws = (SELECT COUNT(*) FROM games g WHERE g.status = 'finished' AND g.winner IS NULL
            AND (g.red = users.name OR g.black = users.name));

-- Keyset pages: a player's games newest first; the waiting room oldest first.
CREATE INDEX games_red_updated ON games(red, updated_ms);
CREATE INDEX games_black_updated ON games(black, updated_ms);
CREATE INDEX challenges_opponent ON challenges(opponent, status);
CREATE INDEX challenges_creator ON challenges(creator, status);
CREATE INDEX users_seen ON users(seen_ms);
