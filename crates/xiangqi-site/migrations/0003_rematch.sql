-- A rematch is a challenge that names the game it follows.
ALTER TABLE challenges ADD COLUMN rematch_of TEXT;
CREATE INDEX challenges_rematch ON challenges(rematch_of);
