-- Each user's board and language preferences (one JSON object, read into typed
-- preferences by the server), the administrators, and the site's news.

ALTER TABLE users ADD COLUMN preferences TEXT;
ALTER TABLE users ADD COLUMN admin BIGINT NOT NULL DEFAULT 0;

CREATE TABLE news (
    id TEXT PRIMARY KEY,
    author TEXT NOT NULL REFERENCES users(name),
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX news_created ON news(created_ms);
CREATE INDEX games_updated ON games(status, updated_ms);
