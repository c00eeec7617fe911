//! Every reason an error can give, once: the UPPER_SNAKE `ErrorInfo.reason`
//! programs branch on (AIP-193). Whoever refuses a request names its
//! reason by a variant here, never by a string, and docs/api.md's table of
//! reasons is tested to be exactly this list (`tests/api/errors.rs`).

use crate::graph::GraphError;
use crate::puzzle::SpecError;
use crate::solver::bipartite_edge::BipartiteEdgeError;
use crate::solver::position::IllegalReason;

/// Declares [`Reason`] with the codes of its named variants, and the list
/// of them, from one table (a hand-written macro: a derive crate for one
/// enum would cost more build than it saves).
macro_rules! reasons {
    ($($(#[$doc:meta])* $variant:ident => $code:literal,)*) => {
        /// Why a request was refused, as its `ErrorInfo.reason` says.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Reason {
            $($(#[$doc])* $variant,)*
            /// An illegal move: the game's own reason (`ALREADY_VISITED`, …).
            Move(IllegalReason),
        }

        impl Reason {
            /// Every reason but the moves'.
            const NAMED: &[Reason] = &[$(Reason::$variant,)*];

            /// The code clients see.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Reason::$variant => $code,)*
                    Reason::Move(reason) => reason.code(),
                }
            }
        }
    };
}

reasons! {
    // INVALID_ARGUMENT: a request that can never succeed as it is.
    /// A move with neither a vertex nor an edge.
    MoveRequired => "MOVE_REQUIRED",
    /// A Play stream whose first message is not its start.
    StartRequired => "START_REQUIRED",
    /// A second start, or a start after moves, on a Play stream.
    NotAMove => "NOT_A_MOVE",
    UnknownPlayer => "UNKNOWN_PLAYER",
    FieldRequired => "FIELD_REQUIRED",
    GameUnspecified => "GAME_UNSPECIFIED",
    UnknownGame => "UNKNOWN_GAME",
    TooFewVertices => "TOO_FEW_VERTICES",
    OddEdgeList => "ODD_EDGE_LIST",
    VertexOutOfRange => "VERTEX_OUT_OF_RANGE",
    SelfLoop => "SELF_LOOP",
    DuplicateEdge => "DUPLICATE_EDGE",
    SameBlackAndWhite => "SAME_BLACK_AND_WHITE",
    FieldNotForGame => "FIELD_NOT_FOR_GAME",
    OddCycle => "ODD_CYCLE",
    NotATree => "NOT_A_TREE",
    TextTooLong => "TEXT_TOO_LONG",
    NumberingUnknown => "NUMBERING_UNKNOWN",
    MalformedName => "MALFORMED_NAME",
    MalformedPageToken => "MALFORMED_PAGE_TOKEN",
    PageTokenFilterMismatch => "PAGE_TOKEN_FILTER_MISMATCH",
    NegativePageSize => "NEGATIVE_PAGE_SIZE",
    UnknownView => "UNKNOWN_VIEW",
    MalformedCanonicalHash => "MALFORMED_CANONICAL_HASH",
    MalformedMessage => "MALFORMED_MESSAGE",
    RequestIdRequired => "REQUEST_ID_REQUIRED",
    InvalidGenerateRequest => "INVALID_GENERATE_REQUEST",
    FieldNotForFamily => "FIELD_NOT_FOR_FAMILY",
    UnknownFamily => "UNKNOWN_FAMILY",
    CountTooLarge => "COUNT_TOO_LARGE",
    // RESOURCE_EXHAUSTED: over a limit, a budget or a queue of this server.
    LimitExceeded => "LIMIT_EXCEEDED",
    AdmissionBudgetExceeded => "ADMISSION_BUDGET_EXCEEDED",
    AdmissionQueueFull => "ADMISSION_QUEUE_FULL",
    SolveQueueFull => "SOLVE_QUEUE_FULL",
    TooManyGames => "TOO_MANY_GAMES",
    GamesBudgetFull => "GAMES_BUDGET_FULL",
    GamesBudgetExceeded => "GAMES_BUDGET_EXCEEDED",
    SearchBudgetExceeded => "SEARCH_BUDGET_EXCEEDED",
    WriteRateExceeded => "WRITE_RATE_EXCEEDED",
    WorkBudgetExceeded => "WORK_BUDGET_EXCEEDED",
    ResponseTooLarge => "RESPONSE_TOO_LARGE",
    TooManyPuzzles => "TOO_MANY_PUZZLES",
    NoPuzzleFound => "NO_PUZZLE_FOUND",
    // NOT_FOUND, ALREADY_EXISTS.
    PuzzleNotFound => "PUZZLE_NOT_FOUND",
    RequestIdReused => "REQUEST_ID_REUSED",
    // UNAUTHENTICATED, PERMISSION_DENIED.
    AdminTokenMissing => "ADMIN_TOKEN_MISSING",
    AdminTokenWrong => "ADMIN_TOKEN_WRONG",
    WriterTokenMissing => "WRITER_TOKEN_MISSING",
    WriterTokenWrong => "WRITER_TOKEN_WRONG",
    /// A call with more than one `authorization` entry.
    AuthorizationRepeated => "AUTHORIZATION_REPEATED",
    // DEADLINE_EXCEEDED.
    DeadlineExceeded => "DEADLINE_EXCEEDED",
    GameIdle => "GAME_IDLE",
    // UNAVAILABLE: retry later.
    StoreBusy => "STORE_BUSY",
    StoreIoError => "STORE_IO_ERROR",
    StoreFileReplaced => "STORE_FILE_REPLACED",
    ShuttingDown => "SHUTTING_DOWN",
    // INTERNAL: a fault of the server's.
    Internal => "INTERNAL",
}

impl Reason {
    /// Every reason there is, the moves' included.
    pub fn all() -> impl Iterator<Item = Reason> {
        Reason::NAMED
            .iter()
            .copied()
            .chain(IllegalReason::ALL.into_iter().map(Reason::Move))
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&SpecError> for Reason {
    /// The reason of a puzzle that failed validation.
    fn from(error: &SpecError) -> Reason {
        match error {
            SpecError::TooFewVertices { .. } => Reason::TooFewVertices,
            SpecError::OverLimit { .. } | SpecError::TooLargeForSearch(_) => Reason::LimitExceeded,
            SpecError::Graph(e) => match e {
                GraphError::OddEdgeList { .. } => Reason::OddEdgeList,
                GraphError::VertexOutOfRange { .. } => Reason::VertexOutOfRange,
                GraphError::SelfLoop { .. } => Reason::SelfLoop,
                GraphError::DuplicateEdge { .. } => Reason::DuplicateEdge,
                GraphError::TooManyVertices { .. } | GraphError::TooManyEdges { .. } => {
                    Reason::LimitExceeded
                }
            },
            SpecError::Vertex(_) => Reason::VertexOutOfRange,
            SpecError::SameBlackWhite(_) => Reason::SameBlackAndWhite,
            SpecError::FieldNotForGame { .. } => Reason::FieldNotForGame,
            SpecError::NotBipartite(BipartiteEdgeError::OddCycle { .. }) => Reason::OddCycle,
            SpecError::NotATree(_) => Reason::NotATree,
            SpecError::TextTooLong { .. } => Reason::TextTooLong,
            SpecError::NumberingUnknown(_) => Reason::NumberingUnknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn codes_are_upper_snake_case_and_named_once() {
        let named: Vec<&str> = Reason::NAMED.iter().map(|r| r.as_str()).collect();
        let distinct: BTreeSet<&str> = named.iter().copied().collect();
        assert_eq!(distinct.len(), named.len(), "a code named twice");
        for code in Reason::all().map(Reason::as_str) {
            assert!(
                code.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
                "{code}"
            );
        }
    }
}
