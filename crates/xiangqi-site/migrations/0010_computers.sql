-- The computer opponents: one account per level, named so that no person can
-- register the name (a dot is not allowed in user ids), with a password hash
-- that no password matches.
ALTER TABLE users ADD COLUMN computer_level BIGINT;

INSERT INTO users (name, name_key, password_hash, bio, rating, created_ms, seen_ms, computer_level)
VALUES ('computer.1', 'computer.1', '!', '', 1500, 0, 0, 1),
       ('computer.2', 'computer.2', '!', '', 1500, 0, 0, 2),
       ('computer.3', 'computer.3', '!', '', 1500, 0, 0, 3),
       ('computer.4', 'computer.4', '!', '', 1500, 0, 0, 4),
       ('computer.5', 'computer.5', '!', '', 1500, 0, 0, 5),
       ('computer.6', 'computer.6', '!', '', 1500, 0, 0, 6),
       ('computer.7', 'computer.7', '!', '', 1500, 0, 0, 7),
       ('computer.8', 'computer.8', '!', '', 1500, 0, 0, 8);

-- Finding the games where it is a computer's turn, after a restart.
CREATE INDEX games_status_id ON games(status, id);
