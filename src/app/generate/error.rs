//! What generating a puzzle can fail with, and why a candidate was passed
//! over.

use std::fmt;

use crate::solver::cancel::Cancelled;
use crate::solver::search_geography::BudgetExceeded;

/// A request the generator refuses before drawing anything: the field it
/// is about (a path in the request, such as `family` or
/// `graph6_lines[3]`) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct RequestError {
    pub field: String,
    pub message: String,
}

impl RequestError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> RequestError {
        RequestError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Why a candidate was not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rejection {
    /// A graph6 line whose graph does not suit the game (not a tree for
    /// tree painting, not bipartite for the edge game, a digraph for an
    /// undirected game, over the search's limits).
    NotForTheGame,
    /// A graph6 line outside the size range.
    OutOfSizeRange,
    /// The first player has no move at the start: no puzzle.
    NoFirstMove,
    /// The other player wins.
    WrongWinner,
    /// The only-move depth is below the minimum asked for.
    TooShallow,
    /// A game solved by search passed its search budget on the candidate:
    /// too hard to search is no puzzle for a site either.
    OverSearchBudget,
    /// A puzzle the caller already has (the same up to relabelling).
    Copy,
}

/// How many candidates were passed over, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rejections {
    pub not_for_the_game: u64,
    pub out_of_size_range: u64,
    pub no_first_move: u64,
    pub wrong_winner: u64,
    pub too_shallow: u64,
    pub over_search_budget: u64,
    pub copies: u64,
}

impl Rejections {
    pub fn count(&mut self, rejection: Rejection) {
        let counter = match rejection {
            Rejection::NotForTheGame => &mut self.not_for_the_game,
            Rejection::OutOfSizeRange => &mut self.out_of_size_range,
            Rejection::NoFirstMove => &mut self.no_first_move,
            Rejection::WrongWinner => &mut self.wrong_winner,
            Rejection::TooShallow => &mut self.too_shallow,
            Rejection::OverSearchBudget => &mut self.over_search_budget,
            Rejection::Copy => &mut self.copies,
        };
        *counter += 1;
    }

    pub fn total(&self) -> u64 {
        self.not_for_the_game
            + self.out_of_size_range
            + self.no_first_move
            + self.wrong_winner
            + self.too_shallow
            + self.over_search_budget
            + self.copies
    }
}

/// The bound on candidates rejected in a row was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoPuzzleFound {
    /// Candidates tried and rejected in a row.
    pub tried: u64,
    /// The index of the first of them.
    pub first_index: u64,
    pub rejections: Rejections,
}

/// A change to a request that lets more of its candidates through. Each
/// front end words it with its own names for the request's fields (the
/// API's `min_only_move_depth`, the command line's
/// `--min-only-move-depth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Advice {
    LowerDepth,
    EitherWinner,
    DenserOrLarger,
    SuitableLines,
    WiderSizeRange,
    SmallerOrLargerBudget,
    WiderRangeOrFewer,
}

impl Advice {
    /// The advice in the API's words.
    pub fn in_api_words(self) -> &'static str {
        match self {
            Advice::LowerDepth => "lower min_only_move_depth (or try another family or size)",
            Advice::EitherWinner => {
                "leave winner unset for either player (or try another family or size)"
            }
            Advice::DenserOrLarger => {
                "try a denser family or more vertices (the start had no move)"
            }
            Advice::SuitableLines => "give graph6 lines of graphs that suit the game",
            Advice::WiderSizeRange => "widen min_vertices..max_vertices to the lines' sizes",
            Advice::SmallerOrLargerBudget => {
                "ask for fewer vertices or edges, or a larger search budget"
            }
            Advice::WiderRangeOrFewer => {
                "widen the size range or ask for fewer puzzles (fewer distinct puzzles of \
                 these sizes meet the request)"
            }
        }
    }
}

/// The names [`NoPuzzleFound::metadata`] gives each count.
const COUNT_KEYS: [&str; 9] = [
    "tried",
    "first_candidate",
    "too_shallow",
    "wrong_winner",
    "no_first_move",
    "not_for_the_game",
    "out_of_size_range",
    "over_search_budget",
    "copies",
];

impl NoPuzzleFound {
    /// What to change in the request, most frequent reason first.
    pub fn advice(&self) -> Vec<Advice> {
        let r = &self.rejections;
        let mut reasons = [
            (r.too_shallow, Advice::LowerDepth),
            (r.wrong_winner, Advice::EitherWinner),
            (r.no_first_move, Advice::DenserOrLarger),
            (r.not_for_the_game, Advice::SuitableLines),
            (r.out_of_size_range, Advice::WiderSizeRange),
            (r.over_search_budget, Advice::SmallerOrLargerBudget),
            (r.copies, Advice::WiderRangeOrFewer),
        ];
        reasons.sort_by_key(|&(count, _)| std::cmp::Reverse(count));
        reasons
            .into_iter()
            .filter(|&(count, _)| count > 0)
            .map(|(_, advice)| advice)
            .collect()
    }

    /// The candidate a next request starts from to go on after these.
    pub fn next_candidate(&self) -> u64 {
        self.first_index.saturating_add(self.tried)
    }

    /// What was rejected, in words that name no field: `no puzzle found:
    /// 20 candidates in a row (from candidate 0) were rejected: 6 too
    /// shallow, …`.
    pub fn summary(&self) -> String {
        let r = &self.rejections;
        format!(
            "no puzzle found: {} candidates in a row (from candidate {}) were rejected: \
             {} too shallow, {} with the other winner, {} with no first move, \
             {} not for the game, {} out of the size range, {} over the search budget, \
             {} copies of puzzles already sent",
            self.tried,
            self.first_index,
            r.too_shallow,
            r.wrong_winner,
            r.no_first_move,
            r.not_for_the_game,
            r.out_of_size_range,
            r.over_search_budget,
            r.copies,
        )
    }

    /// The counts by name, for an error's metadata (docs/api.md, "Generate
    /// puzzles"): a client can word the advice itself.
    pub fn metadata(&self) -> Vec<(&'static str, String)> {
        let r = &self.rejections;
        let values = [
            self.tried,
            self.first_index,
            r.too_shallow,
            r.wrong_winner,
            r.no_first_move,
            r.not_for_the_game,
            r.out_of_size_range,
            r.over_search_budget,
            r.copies,
        ];
        COUNT_KEYS
            .into_iter()
            .zip(values.map(|v| v.to_string()))
            .collect()
    }

    /// The counts [`NoPuzzleFound::metadata`] gave, read back; `None`
    /// when one is missing or not a number.
    pub fn from_metadata(get: impl Fn(&str) -> Option<String>) -> Option<NoPuzzleFound> {
        let mut values = [0u64; COUNT_KEYS.len()];
        for (value, key) in values.iter_mut().zip(COUNT_KEYS) {
            *value = get(key)?.parse().ok()?;
        }
        let [
            tried,
            first_index,
            too_shallow,
            wrong_winner,
            no_first_move,
            not_for_the_game,
            out_of_size_range,
            over_search_budget,
            copies,
        ] = values;
        Some(NoPuzzleFound {
            tried,
            first_index,
            rejections: Rejections {
                not_for_the_game,
                out_of_size_range,
                no_first_move,
                wrong_winner,
                too_shallow,
                over_search_budget,
                copies,
            },
        })
    }
}

/// In the API's words, with what to relax and where to go on.
impl fmt::Display for NoPuzzleFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let advice: Vec<&str> = self
            .advice()
            .into_iter()
            .map(Advice::in_api_words)
            .collect();
        write!(
            f,
            "{}; to relax: {}; first_candidate {} goes on from here",
            self.summary(),
            advice.join("; "),
            self.next_candidate()
        )
    }
}

/// Why [`Generator::next`](super::Generator::next) returned no puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The request is refused as a whole, before any work.
    #[error("{0}")]
    InvalidRequest(#[from] RequestError),
    /// The caller's handle fired.
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
    /// A candidate of a game solved by search passed the search budget
    /// ([`Generator::candidate`](super::Generator::candidate) only: the
    /// generator's `next` counts it as a rejection).
    #[error(
        "candidate {index}: {exceeded}; ask for fewer vertices or edges, or a larger search budget"
    )]
    SearchBudget {
        index: u64,
        exceeded: BudgetExceeded,
    },
    /// Too many candidates in a row were rejected. The generator has moved
    /// past them: a next call goes on with the next candidate.
    #[error("{0}")]
    NoPuzzleFound(NoPuzzleFound),
    /// The solver refused a puzzle that validation accepted: the two
    /// disagree, which is a bug.
    #[error("candidate {index}: the solver refused a valid puzzle: {message}")]
    Inconsistent { index: u64, message: String },
}

impl GenerateError {
    /// The request field an invalid request is about.
    pub fn field(&self) -> Option<&str> {
        match self {
            GenerateError::InvalidRequest(e) => Some(&e.field),
            _ => None,
        }
    }
}
