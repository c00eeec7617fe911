-- A generated puzzle's difficulty (docs/games.md, "Difficulty"), stored
-- with it by GeneratePuzzles; NULL for a puzzle nobody rated. The first
-- three are set together; margin only for tree painting.
ALTER TABLE puzzles ADD COLUMN only_move_depth BIGINT;
ALTER TABLE puzzles ADD COLUMN losing_first_moves BIGINT;
ALTER TABLE puzzles ADD COLUMN first_move_count BIGINT;
ALTER TABLE puzzles ADD COLUMN margin BIGINT;
