//! The error policy of the API in one place: every failure a handler can
//! meet becomes an [`ApiError`], and one `From` impl turns it into a
//! `tonic::Status` with a human message, a `google.rpc.BadRequest` naming the
//! field where there is one, and a `google.rpc.ErrorInfo` whose UPPER_SNAKE
//! reason programs can branch on (AIP-193).

use std::collections::HashMap;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::puzzle::SpecError;
use crate::solver::position::{IllegalMove, PositionError};
use crate::store::StoreError;

/// The `ErrorInfo.domain` of every error this service raises.
pub const ERROR_DOMAIN: &str = "puzzled.v1";

/// A failure of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// Bad input in `field`.
    InvalidArgument {
        field: String,
        reason: &'static str,
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
    Unauthenticated,
    PermissionDenied,
    DeadlineExceeded,
    /// A Play game whose client stayed silent past the idle limit.
    GameIdle {
        seconds: u64,
    },
    /// The server stopped this call's solve because it is shutting down.
    ShuttingDown,
    /// A fault a client may retry past (store contention or I/O).
    Unavailable {
        reason: &'static str,
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
    /// A shared resource is exhausted: the solve queue, the admission
    /// budget or its queue; `reason` says which.
    Busy {
        reason: &'static str,
        message: String,
    },
    Internal {
        message: String,
    },
}

impl ApiError {
    pub fn invalid(
        field: impl Into<String>,
        reason: &'static str,
        message: impl Into<String>,
    ) -> Self {
        ApiError::InvalidArgument {
            field: field.into(),
            reason,
            message: message.into(),
        }
    }

    /// A required field that was left unset.
    pub fn missing(field: &str) -> Self {
        ApiError::invalid(field, "FIELD_REQUIRED", format!("{field} is required"))
    }

    /// A spec error, its field placed under `prefix` (e.g. `"spec"`).
    pub fn from_spec(err: SpecError, prefix: &str) -> Self {
        let relative = err.field();
        let field = format!("{prefix}.{relative}");
        let text = err.to_string();
        let body = text.strip_prefix(&format!("{relative}: ")).unwrap_or(&text);
        let message = format!("{field}: {body}");
        if err.is_limit() {
            ApiError::OverLimit { field, message }
        } else {
            ApiError::InvalidArgument {
                field,
                reason: err.reason(),
                message,
            }
        }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        ApiError::Internal {
            message: message.into(),
        }
    }
}

impl From<IllegalMove> for ApiError {
    /// INVALID_ARGUMENT on the field `moves[i]`, with the game's reason.
    fn from(illegal: IllegalMove) -> Self {
        ApiError::invalid(
            format!("moves[{}]", illegal.index),
            illegal.reason.code(),
            illegal.message,
        )
    }
}

impl From<PositionError> for ApiError {
    fn from(error: PositionError) -> Self {
        match error {
            PositionError::Illegal(illegal) => illegal.into(),
            PositionError::InvalidPuzzle(invalid) => {
                tracing::error!(%invalid, "the position solver rejected a validated puzzle");
                ApiError::internal(format!("the solver rejected this puzzle: {invalid}"))
            }
            // The caller has gone or its deadline passed: the work was
            // stopped for it.
            PositionError::Cancelled(_) => ApiError::DeadlineExceeded,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NotFound(id) => ApiError::NotFound {
                name: format!("puzzles/{id}"),
            },
            StoreError::RequestIdReused(_) => ApiError::AlreadyExists {
                field: "request_id".into(),
                message: err.to_string(),
            },
            StoreError::Busy(_) => {
                tracing::warn!(error = %err, "store busy");
                ApiError::Unavailable {
                    reason: "STORE_BUSY",
                    message: "the store is busy; try again".into(),
                }
            }
            StoreError::Io(_) => {
                tracing::error!(error = %err, "store I/O failure");
                ApiError::Unavailable {
                    reason: "STORE_IO_ERROR",
                    message: "the store cannot read or write its database; try again later".into(),
                }
            }
            StoreError::FileReplaced { .. } => {
                tracing::error!(error = %err, "refusing store access");
                ApiError::Unavailable {
                    reason: "STORE_FILE_REPLACED",
                    message: "the store's database file was removed or replaced while the \
                              server ran; writes are not kept, and the server must be restarted"
                        .into(),
                }
            }
            StoreError::Corrupt(_)
            | StoreError::Database(_)
            | StoreError::Migrate(_)
            | StoreError::UnsupportedScheme { .. } => {
                tracing::error!(error = %err, "store failure");
                ApiError::internal("the store failed; see the server log")
            }
        }
    }
}

fn info(reason: &str) -> ErrorDetails {
    ErrorDetails::with_error_info(reason, ERROR_DOMAIN, HashMap::<String, String>::new())
}

/// ErrorInfo that also names the offending field in its metadata.
fn info_for_field(reason: &str, field: &str) -> ErrorDetails {
    let metadata = HashMap::from([("field".to_owned(), field.to_owned())]);
    ErrorDetails::with_error_info(reason, ERROR_DOMAIN, metadata)
}

impl From<ApiError> for Status {
    fn from(err: ApiError) -> Status {
        match err {
            ApiError::InvalidArgument {
                field,
                reason,
                message,
            } => {
                let mut details = info_for_field(reason, &field);
                if !field.is_empty() {
                    details.add_bad_request_violation(field, message.clone());
                }
                Status::with_error_details(Code::InvalidArgument, message, details)
            }
            ApiError::OverLimit { field, message } => {
                let mut details = info_for_field("LIMIT_EXCEEDED", &field);
                details.add_bad_request_violation(field, message.clone());
                Status::with_error_details(Code::ResourceExhausted, message, details)
            }
            ApiError::NotFound { name } => Status::with_error_details(
                Code::NotFound,
                format!("{name} does not exist"),
                info("PUZZLE_NOT_FOUND"),
            ),
            ApiError::AlreadyExists { field, message } => {
                let mut details = info("REQUEST_ID_REUSED");
                details.add_bad_request_violation(field, message.clone());
                Status::with_error_details(Code::AlreadyExists, message, details)
            }
            ApiError::Unauthenticated => Status::with_error_details(
                Code::Unauthenticated,
                "this call needs the admin token as \"authorization: Bearer TOKEN\"",
                info("ADMIN_TOKEN_MISSING"),
            ),
            ApiError::PermissionDenied => Status::with_error_details(
                Code::PermissionDenied,
                "the admin token is wrong",
                info("ADMIN_TOKEN_WRONG"),
            ),
            ApiError::DeadlineExceeded => Status::with_error_details(
                Code::DeadlineExceeded,
                "the deadline passed before the answer was ready",
                info("DEADLINE_EXCEEDED"),
            ),
            ApiError::GameIdle { seconds } => Status::with_error_details(
                Code::DeadlineExceeded,
                format!("no message for {seconds} s (--play-idle-secs); the game is closed"),
                info("GAME_IDLE"),
            ),
            ApiError::Unavailable { reason, message } => {
                Status::with_error_details(Code::Unavailable, message, info(reason))
            }
            ApiError::ShuttingDown => Status::with_error_details(
                Code::Unavailable,
                "the server is shutting down and stopped this solve; try again",
                info("SHUTTING_DOWN"),
            ),
            ApiError::MessageTooLarge { size, limit } => Status::with_error_details(
                Code::ResourceExhausted,
                format!(
                    "the request message is {size} bytes, over the {limit}-byte message \
                     limit (--max-message-bytes)"
                ),
                info("LIMIT_EXCEEDED"),
            ),
            ApiError::ResponseTooLarge { message } => Status::with_error_details(
                Code::ResourceExhausted,
                message,
                info("RESPONSE_TOO_LARGE"),
            ),
            ApiError::Busy { reason, message } => {
                Status::with_error_details(Code::ResourceExhausted, message, info(reason))
            }
            ApiError::Internal { message } => {
                Status::with_error_details(Code::Internal, message, info("INTERNAL"))
            }
        }
    }
}
