-- Puzzles in the labels they were submitted with, and verdicts keyed by the
-- canonical hash of (game, graph, distinguished vertices).

CREATE TABLE puzzles (
    -- Creation order: listing pages walk it downwards (newest first), and
    -- AUTOINCREMENT never reuses a value, so page tokens survive deletes.
    seq                 INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The opaque id in "puzzles/{id}".
    id                  TEXT    NOT NULL UNIQUE,
    game                TEXT    NOT NULL CHECK (game IN ('geography', 'bipartite_edge', 'tree_paint')),
    vertex_count        INTEGER NOT NULL CHECK (vertex_count >= 0),
    -- The flattened edge list as submitted, little-endian u32 words.
    edges               BLOB    NOT NULL,
    start_vertex        INTEGER NOT NULL DEFAULT 0,
    black               INTEGER,
    white               INTEGER,
    title               TEXT    NOT NULL DEFAULT '',
    author              TEXT    NOT NULL DEFAULT '',
    canonical_hash      TEXT    NOT NULL,
    create_time_us      INTEGER NOT NULL,
    -- Idempotency key (AIP-155) and a digest of the request it came with.
    request_id          TEXT UNIQUE,
    request_fingerprint TEXT
);

CREATE INDEX puzzles_by_game ON puzzles (game, seq);
CREATE INDEX puzzles_by_canonical_hash ON puzzles (canonical_hash, seq);

CREATE TABLE verdicts (
    canonical_hash    TEXT    NOT NULL,
    -- Which extras were computed ("", "all_starts", "winning_moves", "all_starts,winning_moves").
    options           TEXT    NOT NULL,
    -- The canonical form the hash was computed from (collision check).
    canonical_form    BLOB    NOT NULL,
    winner            TEXT    NOT NULL CHECK (winner IN ('first', 'second')),
    -- JSON, in canonical labels.
    evidence          TEXT    NOT NULL,
    winning_moves     TEXT,
    solver_version    TEXT    NOT NULL,
    solve_time_us     INTEGER NOT NULL,
    solve_duration_us INTEGER NOT NULL,
    PRIMARY KEY (canonical_hash, options)
) WITHOUT ROWID;
