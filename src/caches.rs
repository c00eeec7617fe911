//! Every cache the server keeps in memory, in one list: what each keeps,
//! by which key, its bound in bytes, what makes an entry wrong (and so
//! what must drop or outdate it), and its labels in the metrics. Whoever
//! changes a write path reads here which caches it touches. Each cache is
//! built from its entry here (its bound and labels), and docs/design.md's
//! table of caches is tested to be this list. Imports nothing of the
//! crate: every layer that keeps a cache reads it.

/// How large a cache may grow, in the bytes its weigher counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// A fixed number of bytes.
    Bytes(u64),
    /// What a flag of `puzzled serve` says (its name).
    Flag(&'static str),
}

/// One cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cache {
    /// Its label in `puzzled_cache_entries` and `puzzled_cache_bytes`.
    pub name: &'static str,
    /// Its level in `puzzled_cache_lookups_total` (hits and misses).
    pub lookups: &'static str,
    /// The module that owns it.
    pub owner: &'static str,
    /// What an entry holds, and by which key.
    pub keeps: &'static str,
    pub bound: Bound,
    /// What makes an entry wrong, and how the cache stays right.
    pub invalidated_by: &'static str,
}

impl Cache {
    /// The bound of a fixed-size cache (each such cache is built with it).
    pub const fn bytes(&self) -> u64 {
        match self.bound {
            Bound::Bytes(bytes) => bytes,
            Bound::Flag(_) => 0,
        }
    }
}

/// Verdicts by canonical hash and options, in canonical labels.
pub const VERDICTS: Cache = Cache {
    name: "verdicts",
    lookups: "memory",
    owner: "app/solving.rs",
    keeps: "a verdict with its witness, in canonical labels, by canonical hash and options",
    bound: Bound::Flag("--cache-bytes"),
    invalidated_by: "nothing: a verdict depends on the puzzle's canonical form and the solver \
                     version alone; an entry whose shape does not fit is dropped when met",
};

/// Answers for small stored puzzles in their own labels, with the
/// validated puzzle, for position work.
pub const STORED_ANSWERS: Cache = Cache {
    name: "stored_answers",
    lookups: "stored_answer",
    owner: "app/solving.rs",
    keeps: "a small stored puzzle validated, with its verdict in its own labels, by id, \
            canonical hash and options",
    bound: Bound::Bytes(32 << 20),
    invalidated_by: "nothing: a stored puzzle's edges never change and an id is never reused; \
                     a rehash gives a new key",
};

/// Questions the search budget was too small for, and labellings that ran
/// past theirs.
pub const OVER_BUDGET: Cache = Cache {
    name: "over_budget",
    lookups: "over_budget",
    owner: "app/solving.rs",
    keeps: "the SEARCH_BUDGET_EXCEEDED answer of a solve, by canonical hash and options (the \
            server's search budget is fixed while it runs), and of a position analysis, by the \
            puzzle, its moves and the search budget; and, by the labelling key of a large \
            puzzle, that its canonical labelling ran out of time",
    bound: Bound::Bytes(4 << 20),
    invalidated_by: "nothing: the search and the labelling are deterministic in their input \
                     and budget; a restart with another budget starts empty",
};

/// Answers to repeated Solve and SolvePuzzle requests.
pub const ANSWERS: Cache = Cache {
    name: "answers",
    lookups: "answer",
    owner: "api/answers.rs",
    keeps: "the Solution sent, by the bytes of a Solve request of at most 4 KiB, or by a \
            stored puzzle's id, canonical hash and options",
    bound: Bound::Bytes(32 << 20),
    invalidated_by: "nothing: an answer depends on the request and the solver version alone",
};

/// Answers to repeated GetPuzzle requests (SQLite).
pub const PUZZLES: Cache = Cache {
    name: "puzzles",
    lookups: "puzzle",
    owner: "api/reads.rs",
    keeps: "the Puzzle sent, by the request's bytes, with the store version it was read under",
    bound: Bound::Bytes(16 << 20),
    invalidated_by: "any write to the store (a create, a delete, a rehash, a verdict): it \
                     moves the store version, and an answer of another version is not served",
};

/// Answers to repeated ListPuzzles requests (SQLite).
pub const PAGES: Cache = Cache {
    name: "pages",
    lookups: "page",
    owner: "api/reads.rs",
    keeps: "the ListPuzzlesResponse sent, by the request's bytes, with the store version it \
            was read under",
    bound: Bound::Bytes(16 << 20),
    invalidated_by: "any write to the store, as the puzzles' memo",
};

/// Small stored puzzles once read (SQLite).
pub const KEPT_RECORDS: Cache = Cache {
    name: "kept_records",
    lookups: "kept_record",
    owner: "store/kept.rs",
    keeps: "a small stored puzzle's record, edges included, by id, with the store version it \
            was read under",
    bound: Bound::Bytes(64 << 20),
    invalidated_by: "a delete or a rehash of any puzzle: every entry dropped, and an entry \
                     read under an older count of them is not served",
};

/// Stored puzzles' winners once looked up (SQLite).
pub const KEPT_WINNERS: Cache = Cache {
    name: "kept_winners",
    lookups: "kept_winner",
    owner: "store/kept.rs",
    keeps: "a stored puzzle's winner, or that it has none, by id and solver version",
    bound: Bound::Bytes(16 << 20),
    invalidated_by: "a delete or a rehash (every entry dropped) or a verdict written: an \
                     entry read under an older count of them is not served",
};

/// Every cache, in the order of docs/design.md's table.
pub const ALL: [Cache; 8] = [
    VERDICTS,
    STORED_ANSWERS,
    OVER_BUDGET,
    ANSWERS,
    PUZZLES,
    PAGES,
    KEPT_RECORDS,
    KEPT_WINNERS,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_lookup_levels_are_distinct() {
        let names: std::collections::BTreeSet<&str> = ALL.iter().map(|c| c.name).collect();
        let levels: std::collections::BTreeSet<&str> = ALL.iter().map(|c| c.lookups).collect();
        assert_eq!(names.len(), ALL.len());
        assert_eq!(levels.len(), ALL.len());
    }
}
