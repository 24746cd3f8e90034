-- Openings by name: each game's ECCO code (A00-E99), '' for a game that has
-- none (it starts from a set-up position, is on the hex board, or has no
-- move), NULL for a game not classified yet. Games stored before this are
-- classified by a background pass that takes the NULL ones a batch at a
-- time, so it resumes wherever it stopped; games finished or imported after
-- it are classified as they are written.
ALTER TABLE games ADD COLUMN ecco TEXT;
ALTER TABLE imported_games ADD COLUMN ecco TEXT;
ALTER TABLE masters_games ADD COLUMN ecco TEXT;
CREATE INDEX games_ecco ON games(ecco);
CREATE INDEX imported_games_ecco ON imported_games(owner, ecco);
CREATE INDEX masters_games_ecco ON masters_games(ecco);
