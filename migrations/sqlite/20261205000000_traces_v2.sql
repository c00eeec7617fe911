-- traces-v2 labels the trees of a graph itself and gives Traces only the
-- rest, so canonical labels and hashes differ from traces-v1 ones. Puzzles
-- hashed with traces-v1 are rehashed in the background after start-up,
-- like those hashed before traces-v1; their verdicts, in traces-v1
-- canonical labels, are carried over through their stored labels.
UPDATE puzzles SET rehash_pending = 1 WHERE canonical_hash LIKE 'traces-v1:%';
