-- A premove: the move a player queues while the opponent is to move, played
-- in the transaction of the opponent's move if it is still legal then. One a
-- side, kept on the game's row so that setting one and the opponent's move are
-- ordered by the row's version.
ALTER TABLE games ADD COLUMN premove_red TEXT;
ALTER TABLE games ADD COLUMN premove_black TEXT;
