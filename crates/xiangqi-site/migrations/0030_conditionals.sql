-- Conditional moves: a correspondence player's prepared answers to the
-- opponent's next moves, a line of moves per row of text. Kept on the game's
-- row, like premoves, so that setting them and the opponent's move that
-- answers from them are ordered by the row's version.
ALTER TABLE games ADD COLUMN conditional_red TEXT;
ALTER TABLE games ADD COLUMN conditional_black TEXT;
