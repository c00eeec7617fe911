//! What a request can fail with, whatever the transport: every failure the
//! application meets (bad input, the store, the solvers, the limits)
//! becomes an [`AppError`]. `api::error` turns each into a `tonic::Status`
//! in one place.

use super::reason::Reason;
use crate::puzzle::SpecError;
use crate::solver::position::{IllegalMove, PositionError};
use crate::solver::search_geography::BudgetExceeded;
use crate::store::StoreError;

/// Which token a call needs: the admin's (DeletePuzzle), or a writer's
/// (CreatePuzzle, when writer tokens are set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    Admin,
    Writer,
}

/// A failure of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppError {
    /// Bad input in `field`.
    InvalidArgument {
        field: String,
        reason: Reason,
        message: String,
    },
    /// Input over a configured limit.
    OverLimit {
        field: String,
        message: String,
    },
    NotFound {
        name: String,
    },
    AlreadyExists {
        field: String,
        message: String,
    },
    /// A call without the token it needs.
    Unauthenticated(Token),
    /// A call whose token is not the one it needs.
    PermissionDenied(Token),
    /// A call that carries `count` (two or more) `authorization` entries.
    AuthorizationRepeated {
        count: usize,
    },
    DeadlineExceeded,
    /// A Play game whose client stayed silent past the idle limit.
    GameIdle {
        seconds: u64,
    },
    /// The server stopped this call's solve because it is shutting down.
    ShuttingDown,
    /// A fault a client may retry past (store contention or I/O).
    Unavailable {
        reason: Reason,
        message: String,
    },
    /// A request message whose frame header announces more bytes than
    /// the message size limit allows.
    MessageTooLarge {
        size: u64,
        limit: usize,
    },
    /// A response that would pass the message size limit.
    ResponseTooLarge {
        message: String,
    },
    /// A resource is exhausted: the solve queue, the admission budget or
    /// its queue, or a search's state budget; `reason` says which.
    Busy {
        reason: Reason,
        message: String,
    },
    /// A generation rejected as many candidates in a row as its request
    /// allows; the counts go to the client, so that it can say what to
    /// relax in its own words.
    NoPuzzleFound(crate::app::generate::NoPuzzleFound),
    /// A caller past its rate limit; `reason` says which limit, and a
    /// call after `retry_after` finds a token in its bucket.
    RateLimited {
        reason: Reason,
        retry_after: std::time::Duration,
        message: String,
    },
    Internal {
        message: String,
    },
}

impl AppError {
    pub fn invalid(field: impl Into<String>, reason: Reason, message: impl Into<String>) -> Self {
        AppError::InvalidArgument {
            field: field.into(),
            reason,
            message: message.into(),
        }
    }

    /// A required field that was left unset.
    pub fn missing(field: &str) -> Self {
        AppError::invalid(field, Reason::FieldRequired, format!("{field} is required"))
    }

    /// A spec error, its field placed under `prefix` (e.g. `"spec"`).
    pub fn from_spec(err: SpecError, prefix: &str) -> Self {
        let relative = err.field();
        let field = format!("{prefix}.{relative}");
        let text = err.to_string();
        let body = text.strip_prefix(&format!("{relative}: ")).unwrap_or(&text);
        let message = format!("{field}: {body}");
        if err.is_limit() {
            AppError::OverLimit { field, message }
        } else {
            AppError::InvalidArgument {
                field,
                reason: Reason::from(&err),
                message,
            }
        }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        AppError::Internal {
            message: message.into(),
        }
    }
}

impl From<IllegalMove> for AppError {
    /// INVALID_ARGUMENT on the field `moves[i]`, with the game's reason.
    fn from(illegal: IllegalMove) -> Self {
        AppError::invalid(
            format!("moves[{}]", illegal.index),
            Reason::Move(illegal.reason),
            illegal.message,
        )
    }
}

impl From<PositionError> for AppError {
    fn from(error: PositionError) -> Self {
        match error {
            PositionError::Illegal(illegal) => illegal.into(),
            PositionError::InvalidPuzzle(invalid) => {
                tracing::error!(%invalid, "the position solver rejected a validated puzzle");
                AppError::internal(format!("the solver rejected this puzzle: {invalid}"))
            }
            // The caller has gone or its deadline passed: the work was
            // stopped for it.
            PositionError::Cancelled(_) => AppError::DeadlineExceeded,
            PositionError::SearchBudget(exceeded) => exceeded.into(),
        }
    }
}

impl From<BudgetExceeded> for AppError {
    /// RESOURCE_EXHAUSTED: this server's search budget is too small for
    /// the question, which a retry will not change.
    fn from(exceeded: BudgetExceeded) -> Self {
        AppError::Busy {
            reason: Reason::SearchBudgetExceeded,
            message: exceeded.to_string(),
        }
    }
}

impl From<StoreError> for AppError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NotFound(id) => AppError::NotFound {
                name: format!("puzzles/{id}"),
            },
            StoreError::RequestIdReused(_) => AppError::AlreadyExists {
                field: "request_id".into(),
                message: err.to_string(),
            },
            StoreError::Busy(_) => {
                tracing::warn!(error = %err, "store busy");
                AppError::Unavailable {
                    reason: Reason::StoreBusy,
                    message: "the store is busy; try again".into(),
                }
            }
            StoreError::Io(_) => {
                tracing::error!(error = %err, "store I/O failure");
                AppError::Unavailable {
                    reason: Reason::StoreIoError,
                    message: "the store cannot read or write its database; try again later".into(),
                }
            }
            StoreError::FileReplaced { .. } => {
                tracing::error!(error = %err, "refusing store access");
                AppError::Unavailable {
                    reason: Reason::StoreFileReplaced,
                    message: "the store's database file was removed or replaced while the \
                              server ran; writes are not kept, and the server must be restarted"
                        .into(),
                }
            }
            StoreError::Corrupt(_)
            | StoreError::Database(_)
            | StoreError::Migrate(_)
            | StoreError::UnsupportedScheme { .. }
            | StoreError::NoSuchDatabase { .. }
            | StoreError::Refused { .. }
            | StoreError::Unreachable { .. } => {
                tracing::error!(error = %err, "store failure");
                AppError::internal("the store failed; see the server log")
            }
        }
    }
}
