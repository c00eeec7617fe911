-- Three more games, solved by search: directed vertex, undirected edge and
-- directed edge Geography. SQLite cannot change a CHECK constraint in
-- place, so the puzzles table is rebuilt with the wider one (same columns,
-- same rows, same sequence numbers, same indexes).

CREATE TABLE puzzles_new (
    -- Creation order: listing pages walk it downwards (newest first), and
    -- AUTOINCREMENT never reuses a value, so page tokens survive deletes.
    seq                 INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The opaque id in "puzzles/{id}".
    id                  TEXT    NOT NULL UNIQUE,
    game                TEXT    NOT NULL CHECK (game IN ('geography', 'bipartite_edge', 'tree_paint',
                                                         'directed_vertex_geography',
                                                         'undirected_edge_geography',
                                                         'directed_edge_geography')),
    vertex_count        INTEGER NOT NULL CHECK (vertex_count >= 0),
    -- The flattened edge list as submitted, little-endian u32 words; arcs
    -- (u, v) = u -> v for the directed games.
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
    request_fingerprint TEXT,
    canonical_labels    BLOB,
    rehash_pending      INTEGER NOT NULL DEFAULT 0 CHECK (rehash_pending IN (0, 1))
);

INSERT INTO puzzles_new (seq, id, game, vertex_count, edges, start_vertex, black, white, title,
                         author, canonical_hash, create_time_us, request_id,
                         request_fingerprint, canonical_labels, rehash_pending)
SELECT seq, id, game, vertex_count, edges, start_vertex, black, white, title, author,
       canonical_hash, create_time_us, request_id, request_fingerprint, canonical_labels,
       rehash_pending
FROM puzzles;

DROP TABLE puzzles;
ALTER TABLE puzzles_new RENAME TO puzzles;

CREATE INDEX puzzles_by_game ON puzzles (game, seq);
CREATE INDEX puzzles_by_canonical_hash ON puzzles (canonical_hash, seq);
CREATE INDEX puzzles_rehash_pending ON puzzles (seq) WHERE rehash_pending = 1;
