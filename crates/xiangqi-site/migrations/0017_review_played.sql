-- The evaluation of the move played from each reviewed position (the mover's
-- view), searched to the same depth as the engine's own move there, so that a
-- move is judged against the best one at equal depth. Null in reviews stored
-- before, and where the game ended.
ALTER TABLE review_positions ADD COLUMN played_kind TEXT;
ALTER TABLE review_positions ADD COLUMN played_score BIGINT;
