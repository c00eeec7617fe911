//! What the store takes and gives for puzzles, as plain data: a puzzle to
//! insert, a stored one, a page of them, the filter of a listing. Apart
//! from the queries (`puzzles`), so that what keeps records in memory
//! (`kept`) needs no query.

use std::time::SystemTime;

use crate::puzzle::{Difficulty, Game, Limits, RawSpec, Spec, SpecError};

/// A puzzle to insert.
#[derive(Debug, Clone)]
pub struct NewPuzzle<'a> {
    pub game: Game,
    pub vertex_count: u64,
    pub edges: &'a [u32],
    pub start: u32,
    pub black: Option<u32>,
    pub white: Option<u32>,
    pub title: &'a str,
    pub author: &'a str,
    /// How people are shown its vertices: from 0 or from 1.
    pub numbered_from: u32,
    pub canonical_hash: &'a str,
    /// Each vertex's canonical label, when the hash does not keep labels.
    pub canonical_labels: Option<&'a [u32]>,
    pub request_id: Option<&'a str>,
    /// Its rating, when it was generated.
    pub difficulty: Option<Difficulty>,
}

/// A stored puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleRecord {
    pub seq: i64,
    pub id: String,
    /// The puzzle as it was submitted (labels and edge order kept).
    pub spec: RawSpec,
    pub canonical_hash: String,
    pub create_time: SystemTime,
    /// The id of the oldest other puzzle with the same canonical hash, when
    /// that one is older than this one.
    pub duplicate_of: Option<String>,
    /// The number of edges, also when `spec.edges` was not read.
    pub edge_count: u64,
    /// Each vertex's canonical label (read with the edges only); `None`
    /// when the hash keeps the submitted labels.
    pub canonical_labels: Option<Vec<u32>>,
    /// Its rating, when it was generated (and stored with it).
    pub difficulty: Option<Difficulty>,
}

impl PuzzleRecord {
    /// The stored spec, validated again (without size limits: it passed
    /// the limits in force when it was stored).
    pub fn validated_spec(&self) -> Result<Spec, SpecError> {
        Spec::validate(self.spec.clone(), Limits::NONE)
    }
}

/// A puzzle [`Store::create_or_replay`] answers with.
#[derive(Debug, Clone)]
pub struct Created {
    pub record: PuzzleRecord,
    /// Its `request_id` had stored this puzzle before; nothing was stored now.
    pub replayed: bool,
}

/// A puzzle read by [`Store::get_puzzle_up_to`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleRead {
    /// Edges and canonical labels included.
    Whole(PuzzleRecord),
    /// Larger than asked for: no edges or labels read (`edge_count` set).
    Summary(PuzzleRecord),
}

/// Which puzzles a listing shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListFilter<'a> {
    pub game: Option<Game>,
    /// Every stored copy of one puzzle.
    pub canonical_hash: Option<&'a str>,
}

/// A page of puzzles, newest first, without their edge lists
/// (`spec.edges` empty, `edge_count` set).
#[derive(Debug, Clone)]
pub struct Page {
    pub puzzles: Vec<PuzzleRecord>,
    /// The `seq` to continue below, when there are more.
    pub next_before: Option<i64>,
}
