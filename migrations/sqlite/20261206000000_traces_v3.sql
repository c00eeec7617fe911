-- traces-v3 refines the core's colouring before Traces and labels the
-- core from the refinement alone when it separates every vertex, so
-- canonical labels and hashes differ from traces-v2 ones. Puzzles hashed
-- with traces-v2 are rehashed in the background after start-up, like those
-- of every older canonicaliser; their verdicts, in traces-v2 canonical
-- labels, are carried over through their stored labels.
UPDATE puzzles SET rehash_pending = 1 WHERE canonical_hash LIKE 'traces-v2:%';
