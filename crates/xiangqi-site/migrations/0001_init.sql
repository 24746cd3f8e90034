-- One portable schema for SQLite and PostgreSQL: integer milliseconds for times,
-- integers for booleans, application-made text ids.

CREATE TABLE users (
    name TEXT PRIMARY KEY,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    bio TEXT NOT NULL DEFAULT '',
    rating BIGINT NOT NULL DEFAULT 1500,
    created_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_name TEXT NOT NULL REFERENCES users(name),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_name);

CREATE TABLE login_failures (
    name_key TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX login_failures_name ON login_failures(name_key, at_ms);

CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    creator TEXT NOT NULL REFERENCES users(name),
    opponent TEXT REFERENCES users(name),
    rules TEXT NOT NULL,
    color TEXT NOT NULL,
    clock_kind TEXT NOT NULL,
    days BIGINT NOT NULL,
    base_ms BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    auto BIGINT NOT NULL,
    status TEXT NOT NULL,
    game_id TEXT,
    created_ms BIGINT NOT NULL
);
CREATE INDEX challenges_status ON challenges(status, created_ms);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    red TEXT NOT NULL REFERENCES users(name),
    black TEXT NOT NULL REFERENCES users(name),
    rules TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    clock_kind TEXT NOT NULL,
    days BIGINT NOT NULL,
    base_ms BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    version BIGINT NOT NULL,
    fen TEXT NOT NULL,
    status TEXT NOT NULL,
    winner TEXT,
    reason TEXT,
    red_ms BIGINT NOT NULL,
    black_ms BIGINT NOT NULL,
    turn_started_ms BIGINT NOT NULL,
    draw_offer TEXT,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX games_red ON games(red, status);
CREATE INDEX games_black ON games(black, status);
CREATE INDEX games_status ON games(status, clock_kind);

CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply BIGINT NOT NULL,
    iccs TEXT NOT NULL,
    wxf TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
