-- The site's people: private messages, chat beside each game, buddy and ignore
-- lists, richer profiles, and invitations a user hands to a friend.

CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    sender TEXT NOT NULL REFERENCES users(name),
    recipient TEXT NOT NULL REFERENCES users(name),
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    read_ms BIGINT,
    sender_deleted BIGINT NOT NULL DEFAULT 0,
    recipient_deleted BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX messages_recipient ON messages(recipient, created_ms);
CREATE INDEX messages_sender ON messages(sender, created_ms);

CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    author TEXT NOT NULL REFERENCES users(name),
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX chat_author ON chat(author, created_ms);

-- One relation per ordered pair: `owner` keeps `other` as a buddy or ignores them.
CREATE TABLE relations (
    owner TEXT NOT NULL REFERENCES users(name),
    other TEXT NOT NULL REFERENCES users(name),
    kind TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (owner, other)
);
CREATE INDEX relations_other ON relations(other, kind);

CREATE TABLE invitations (
    code TEXT PRIMARY KEY,
    inviter TEXT NOT NULL REFERENCES users(name),
    rules TEXT,
    color TEXT,
    clock_kind TEXT,
    days BIGINT,
    base_ms BIGINT,
    increment_ms BIGINT,
    created_ms BIGINT NOT NULL,
    uses BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX invitations_inviter ON invitations(inviter, created_ms);

ALTER TABLE users ADD COLUMN location TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN languages TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN preferred_rules TEXT;
ALTER TABLE users ADD COLUMN preferred_clock TEXT;
CREATE INDEX users_rating ON users(rating);
