-- Three more games, solved by search: directed vertex, undirected edge and
-- directed edge Geography (arcs (u, v) = u -> v in `edges` for the
-- directed ones).
ALTER TABLE puzzles DROP CONSTRAINT puzzles_game_check;
ALTER TABLE puzzles ADD CONSTRAINT puzzles_game_check CHECK (game IN (
    'geography', 'bipartite_edge', 'tree_paint',
    'directed_vertex_geography', 'undirected_edge_geography', 'directed_edge_geography'));
