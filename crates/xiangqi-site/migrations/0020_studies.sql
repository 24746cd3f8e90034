-- Studies: shared analysis in chapters. A study has an owner, members who may
-- view or edit it, and a version that grows with every change to it or to any
-- of its chapters: an edit names the version it was made on, and the
-- conditional update of the version is its claim, so that of two edits made on
-- the same version one is refused as stale.
CREATE TABLE studies (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL REFERENCES users(name),
    title TEXT NOT NULL,
    -- `public` (anyone may view) or `private` (members only).
    visibility TEXT NOT NULL,
    version BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX studies_owner ON studies(owner, updated_ms);
CREATE INDEX studies_visibility ON studies(visibility, updated_ms);

CREATE TABLE study_members (
    study_id TEXT NOT NULL REFERENCES studies(id),
    user_name TEXT NOT NULL REFERENCES users(name),
    -- `view` or `edit`.
    role TEXT NOT NULL,
    added_ms BIGINT NOT NULL,
    PRIMARY KEY (study_id, user_name)
);
CREATE INDEX study_members_user ON study_members(user_name);

-- A chapter: a board, rules and start position, and its tree of moves as JSON
-- (nodes with their move, comment, arrows and marked points).
CREATE TABLE study_chapters (
    id TEXT PRIMARY KEY,
    study_id TEXT NOT NULL REFERENCES studies(id),
    position BIGINT NOT NULL,
    title TEXT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    tree TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX study_chapters_study ON study_chapters(study_id, position);
