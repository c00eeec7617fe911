-- A generated puzzle's difficulty (docs/games.md, "Difficulty"), stored
-- with it by GeneratePuzzles; NULL for a puzzle nobody rated. The first
-- three are set together; margin only for tree painting.
ALTER TABLE puzzles ADD COLUMN only_move_depth INTEGER;
ALTER TABLE puzzles ADD COLUMN losing_first_moves INTEGER;
ALTER TABLE puzzles ADD COLUMN first_move_count INTEGER;
ALTER TABLE puzzles ADD COLUMN margin INTEGER;
