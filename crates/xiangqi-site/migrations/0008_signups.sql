-- When accounts were made from each network address, to limit how fast one
-- address makes them.
CREATE TABLE signups (
    address TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX signups_address ON signups(address, at_ms);
