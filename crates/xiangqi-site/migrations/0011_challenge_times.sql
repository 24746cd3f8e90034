-- The limit on challenges a user makes in an hour counts them by creator and time.
CREATE INDEX challenges_creator_time ON challenges(creator, created_ms);
