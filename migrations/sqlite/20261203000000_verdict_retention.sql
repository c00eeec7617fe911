-- Verdicts get a bounded footprint: least-recently-used eviction past a
-- configured number of bytes, verdicts of stored puzzles kept. The full
-- canonical form is no longer stored (SHA-256 names it; the vertex and edge
-- counts are the shape check). Verdicts are a cache of what the solver
-- recomputes, so the table is rebuilt rather than converted.

DROP TABLE verdicts;

CREATE TABLE verdicts (
    canonical_hash    TEXT    NOT NULL,
    -- Which extras were computed ("", "all_starts", "winning_moves", "all_starts,winning_moves").
    options           TEXT    NOT NULL,
    -- The canonical graph's shape: a stored verdict is served only for a
    -- request of the same shape.
    vertex_count      INTEGER NOT NULL,
    edge_count        INTEGER NOT NULL,
    winner            TEXT    NOT NULL CHECK (winner IN ('first', 'second')),
    -- JSON, in canonical labels.
    evidence          TEXT    NOT NULL,
    winning_moves     TEXT,
    -- A verdict is served only to a server whose solver has this version.
    solver_version    TEXT    NOT NULL,
    solve_time_us     INTEGER NOT NULL,
    solve_duration_us INTEGER NOT NULL,
    -- Eviction order: least recently stored or served first.
    last_used_us      INTEGER NOT NULL,
    -- What the row counts against the retention budget.
    size_bytes        INTEGER NOT NULL CHECK (size_bytes >= 0),
    PRIMARY KEY (canonical_hash, options)
) WITHOUT ROWID;

CREATE INDEX verdicts_by_last_use ON verdicts (last_used_us);

-- The bytes all verdict rows count, kept by triggers in the same
-- transaction as each change, so the budget is checked without a scan.
CREATE TABLE verdict_usage (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    total_bytes INTEGER NOT NULL
);
INSERT INTO verdict_usage (id, total_bytes) VALUES (1, 0);

CREATE TRIGGER verdicts_added AFTER INSERT ON verdicts BEGIN
    UPDATE verdict_usage SET total_bytes = total_bytes + NEW.size_bytes WHERE id = 1;
END;
CREATE TRIGGER verdicts_removed AFTER DELETE ON verdicts BEGIN
    UPDATE verdict_usage SET total_bytes = total_bytes - OLD.size_bytes WHERE id = 1;
END;
CREATE TRIGGER verdicts_resized AFTER UPDATE OF size_bytes ON verdicts BEGIN
    UPDATE verdict_usage SET total_bytes = total_bytes - OLD.size_bytes + NEW.size_bytes WHERE id = 1;
END;
