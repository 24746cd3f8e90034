-- An imported game is history: its whole record is kept (tags, variations and
-- comments, as PGN), with what the rule set would have judged on the way
-- (a repetition, a perpetual check or chase) noted rather than refused, and a
-- digest of its moves and tags so that the same record imported again is
-- recognised and neither kept nor counted twice. Rows imported before this
-- have no digest and their record is their main line.
ALTER TABLE imported_games ADD COLUMN record TEXT NOT NULL DEFAULT '';
ALTER TABLE imported_games ADD COLUMN judged TEXT NOT NULL DEFAULT '';
ALTER TABLE imported_games ADD COLUMN digest TEXT;
CREATE UNIQUE INDEX imported_games_digest ON imported_games(owner, digest);
