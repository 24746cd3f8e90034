-- The limit on puzzle streaks counts a user's latest starts.
CREATE INDEX puzzle_streaks_started ON puzzle_streaks(user_name, started_ms);
