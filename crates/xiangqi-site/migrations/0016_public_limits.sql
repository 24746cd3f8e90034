-- Failed log-ins count per name and network address, so that a stranger's
-- failures slow down the stranger and not the name's owner, and per address
-- over every name; old ones are purged by time.
ALTER TABLE login_failures ADD COLUMN address TEXT NOT NULL DEFAULT '';
CREATE INDEX login_failures_address ON login_failures(address, at_ms);
CREATE INDEX login_failures_time ON login_failures(at_ms);
-- Expired sessions are purged, and a user's oldest beyond the most one keeps.
CREATE INDEX sessions_expiry ON sessions(expires_ms);
CREATE INDEX sessions_user_created ON sessions(user_name, created_ms);
-- Tournaments one user created in a day are counted.
CREATE INDEX tournaments_creator_time ON tournaments(creator, created_ms);
