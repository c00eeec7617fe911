-- traces-v1 hashes are invariant under relabelling: each puzzle keeps the
-- canonical label of each of its vertices (little-endian u32 words, in
-- vertex order), so a verdict stored in canonical labels can be answered
-- in the puzzle's own labels without labelling it again. NULL when the
-- hash keeps the submitted labels (sorted-edges-v1).
ALTER TABLE puzzles ADD COLUMN canonical_labels BLOB;

-- Puzzles hashed before traces-v1 are rehashed in the background after
-- start-up; 1 marks the ones still to do.
ALTER TABLE puzzles ADD COLUMN rehash_pending INTEGER NOT NULL DEFAULT 0
    CHECK (rehash_pending IN (0, 1));
UPDATE puzzles SET rehash_pending = 1 WHERE canonical_hash LIKE 'sorted-edges-v1:%';
CREATE INDEX puzzles_rehash_pending ON puzzles (seq) WHERE rehash_pending = 1;
