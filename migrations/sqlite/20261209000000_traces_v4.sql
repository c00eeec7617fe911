-- traces-v4 labels a refined core that falls apart into several connected
-- components one component at a time and orders the components by their
-- canonical forms (one Traces search over a union of many equal components
-- grew faster than the graph), and its name is part of every hash, so all
-- traces-v3 hashes change. Puzzles hashed with traces-v3 are rehashed in
-- the background after start-up, like those of every older canonicaliser;
-- their verdicts, in traces-v3 canonical labels, are carried over through
-- their stored labels.
UPDATE puzzles SET rehash_pending = 1 WHERE canonical_hash LIKE 'traces-v3:%';
