-- The PostgreSQL schema: the same tables, columns and meaning as the SQLite
-- migrations leave (migrations/sqlite), written at once because no
-- PostgreSQL database predates it. Integers are BIGINT so that both
-- backends hand the store 64-bit values.

-- Puzzles in the labels they were submitted with.
CREATE TABLE puzzles (
    -- Creation order: listing pages walk it downwards (newest first), and a
    -- sequence never hands out a value twice, so page tokens survive
    -- deletes (values may skip: a rolled-back insert uses one up).
    seq                 BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The opaque id in "puzzles/{id}".
    id                  TEXT    NOT NULL UNIQUE,
    game                TEXT    NOT NULL CHECK (game IN ('geography', 'bipartite_edge', 'tree_paint')),
    vertex_count        BIGINT  NOT NULL CHECK (vertex_count >= 0),
    -- The flattened edge list as submitted, little-endian u32 words.
    edges               BYTEA   NOT NULL,
    start_vertex        BIGINT  NOT NULL DEFAULT 0,
    black               BIGINT,
    white               BIGINT,
    title               TEXT    NOT NULL DEFAULT '',
    author              TEXT    NOT NULL DEFAULT '',
    canonical_hash      TEXT    NOT NULL,
    create_time_us      BIGINT  NOT NULL,
    -- Idempotency key (AIP-155) and a digest of the request it came with.
    request_id          TEXT UNIQUE,
    request_fingerprint TEXT,
    -- Each vertex's canonical label (little-endian u32 words, in vertex
    -- order); NULL when the hash keeps the submitted labels.
    canonical_labels    BYTEA,
    -- 1 marks a puzzle hashed by an older canonicaliser, to be rehashed in
    -- the background after start-up.
    rehash_pending      BIGINT  NOT NULL DEFAULT 0 CHECK (rehash_pending IN (0, 1))
);

CREATE INDEX puzzles_by_game ON puzzles (game, seq);
CREATE INDEX puzzles_by_canonical_hash ON puzzles (canonical_hash, seq);
CREATE INDEX puzzles_rehash_pending ON puzzles (seq) WHERE rehash_pending = 1;

CREATE TABLE verdicts (
    canonical_hash    TEXT    NOT NULL,
    -- Which extras were computed ("", "all_starts", "winning_moves", "all_starts,winning_moves").
    options           TEXT    NOT NULL,
    -- The canonical graph's shape: a stored verdict is served only for a
    -- request of the same shape.
    vertex_count      BIGINT  NOT NULL,
    edge_count        BIGINT  NOT NULL,
    winner            TEXT    NOT NULL CHECK (winner IN ('first', 'second')),
    -- JSON, in canonical labels.
    evidence          TEXT    NOT NULL,
    winning_moves     TEXT,
    -- A verdict is served only to a server whose solver has this version.
    solver_version    TEXT    NOT NULL,
    solve_time_us     BIGINT  NOT NULL,
    solve_duration_us BIGINT  NOT NULL,
    -- Eviction order: least recently stored or served first.
    last_used_us      BIGINT  NOT NULL,
    -- What the row counts against the retention budget.
    size_bytes        BIGINT  NOT NULL CHECK (size_bytes >= 0),
    PRIMARY KEY (canonical_hash, options)
);

CREATE INDEX verdicts_by_last_use ON verdicts (last_used_us);

-- The bytes all verdict rows count, kept by a trigger in the same
-- transaction as each change, so the budget is checked without a scan.
CREATE TABLE verdict_usage (
    id          BIGINT PRIMARY KEY CHECK (id = 1),
    total_bytes BIGINT NOT NULL
);
INSERT INTO verdict_usage (id, total_bytes) VALUES (1, 0);

CREATE FUNCTION verdict_usage_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE verdict_usage SET total_bytes = total_bytes + NEW.size_bytes WHERE id = 1;
        RETURN NEW;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE verdict_usage SET total_bytes = total_bytes - OLD.size_bytes WHERE id = 1;
        RETURN OLD;
    ELSE
        UPDATE verdict_usage SET total_bytes = total_bytes - OLD.size_bytes + NEW.size_bytes
            WHERE id = 1;
        RETURN NEW;
    END IF;
END;
$$;

CREATE TRIGGER verdicts_added AFTER INSERT ON verdicts
    FOR EACH ROW EXECUTE FUNCTION verdict_usage_follow();
CREATE TRIGGER verdicts_removed AFTER DELETE ON verdicts
    FOR EACH ROW EXECUTE FUNCTION verdict_usage_follow();
CREATE TRIGGER verdicts_resized AFTER UPDATE OF size_bytes ON verdicts
    FOR EACH ROW EXECUTE FUNCTION verdict_usage_follow();
