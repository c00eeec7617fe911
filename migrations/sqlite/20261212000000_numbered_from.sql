-- How people are shown a puzzle's vertices: numbered from 0 (the API's
-- numbering, and every puzzle stored before this column) or from 1 (a
-- contest file's). Display only: every stored vertex is numbered from 0.
ALTER TABLE puzzles ADD COLUMN numbered_from INTEGER NOT NULL DEFAULT 0
    CHECK (numbered_from IN (0, 1));
