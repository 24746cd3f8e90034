-- The players' average rating an imported game was counted with in its
-- owner's explorer, so that deleting the game takes back what it added.
ALTER TABLE imported_games ADD COLUMN rating BIGINT;
