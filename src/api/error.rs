//! The error policy of the API in one place: one `From` impl turns every
//! [`AppError`] into a `tonic::Status` with a human message, a
//! `google.rpc.BadRequest` naming the field where there is one, and a
//! `google.rpc.ErrorInfo` whose UPPER_SNAKE reason programs can branch on
//! (AIP-193).

use std::collections::HashMap;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::app::error::Token;
use crate::app::{AppError, Reason};

/// The `ErrorInfo.domain` of every error this service raises.
pub const ERROR_DOMAIN: &str = "puzzled.v1";

fn info(reason: Reason) -> ErrorDetails {
    ErrorDetails::with_error_info(
        reason.as_str(),
        ERROR_DOMAIN,
        HashMap::<String, String>::new(),
    )
}

/// ErrorInfo that also names the offending field in its metadata.
fn info_for_field(reason: Reason, field: &str) -> ErrorDetails {
    let metadata = HashMap::from([("field".to_owned(), field.to_owned())]);
    ErrorDetails::with_error_info(reason.as_str(), ERROR_DOMAIN, metadata)
}

/// The canonical name of a status code, as gRPC's specification and its
/// metrics write it (`OK`, `INVALID_ARGUMENT`).
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

/// The status with its details, counted by its code and reason
/// (`puzzled_errors_total`) as it is made.
fn counted(code: Code, message: impl Into<String>, details: ErrorDetails) -> Status {
    let reason = details.error_info().map_or("", |info| info.reason.as_str());
    crate::metrics::metrics().error(code_name(code), reason);
    Status::with_error_details(code, message, details)
}

impl From<AppError> for Status {
    fn from(err: AppError) -> Status {
        match err {
            AppError::InvalidArgument {
                field,
                reason,
                message,
            } => {
                let mut details = info_for_field(reason, &field);
                if !field.is_empty() {
                    details.add_bad_request_violation(field, message.clone());
                }
                counted(Code::InvalidArgument, message, details)
            }
            AppError::OverLimit { field, message } => {
                let mut details = info_for_field(Reason::LimitExceeded, &field);
                details.add_bad_request_violation(field, message.clone());
                counted(Code::ResourceExhausted, message, details)
            }
            AppError::NotFound { name } => counted(
                Code::NotFound,
                format!("{name} does not exist"),
                info(Reason::PuzzleNotFound),
            ),
            AppError::AlreadyExists { field, message } => {
                let mut details = info(Reason::RequestIdReused);
                details.add_bad_request_violation(field, message.clone());
                counted(Code::AlreadyExists, message, details)
            }
            AppError::Unauthenticated(Token::Admin) => counted(
                Code::Unauthenticated,
                "this call needs the admin token as \"authorization: Bearer TOKEN\"",
                info(Reason::AdminTokenMissing),
            ),
            AppError::PermissionDenied(Token::Admin) => counted(
                Code::PermissionDenied,
                "the admin token is wrong",
                info(Reason::AdminTokenWrong),
            ),
            AppError::Unauthenticated(Token::Writer) => counted(
                Code::Unauthenticated,
                "this call needs a writer's token (or the admin token) as \
                 \"authorization: Bearer TOKEN\"",
                info(Reason::WriterTokenMissing),
            ),
            AppError::PermissionDenied(Token::Writer) => counted(
                Code::PermissionDenied,
                "the token is neither a writer's nor the admin's",
                info(Reason::WriterTokenWrong),
            ),
            AppError::AuthorizationRepeated { count } => counted(
                Code::Unauthenticated,
                format!("the call carries {count} authorization headers; send one"),
                info(Reason::AuthorizationRepeated),
            ),
            AppError::DeadlineExceeded => counted(
                Code::DeadlineExceeded,
                "the deadline passed before the answer was ready",
                info(Reason::DeadlineExceeded),
            ),
            AppError::GameIdle { seconds } => counted(
                Code::DeadlineExceeded,
                format!("no message for {seconds} s (--play-idle-secs); the game is closed"),
                info(Reason::GameIdle),
            ),
            AppError::Unavailable { reason, message } => {
                counted(Code::Unavailable, message, info(reason))
            }
            AppError::ShuttingDown => counted(
                Code::Unavailable,
                "the server is shutting down and stopped this solve; try again",
                info(Reason::ShuttingDown),
            ),
            AppError::MessageTooLarge { size, limit } => counted(
                Code::ResourceExhausted,
                format!(
                    "the request message is {size} bytes, over the {limit}-byte message \
                     limit (--max-message-bytes)"
                ),
                info(Reason::LimitExceeded),
            ),
            AppError::ResponseTooLarge { message } => counted(
                Code::ResourceExhausted,
                message,
                info(Reason::ResponseTooLarge),
            ),
            AppError::Busy { reason, message } => {
                counted(Code::ResourceExhausted, message, info(reason))
            }
            AppError::NoPuzzleFound(none) => {
                let metadata: HashMap<String, String> = none
                    .metadata()
                    .into_iter()
                    .map(|(key, value)| (key.to_owned(), value))
                    .collect();
                let details = ErrorDetails::with_error_info(
                    Reason::NoPuzzleFound.as_str(),
                    ERROR_DOMAIN,
                    metadata,
                );
                counted(Code::ResourceExhausted, none.to_string(), details)
            }
            AppError::RateLimited {
                reason,
                retry_after,
                message,
            } => {
                // Both ways a client may look: the `retry-after` header
                // (seconds, as HTTP has it) and google.rpc.RetryInfo.
                let mut details = info(reason);
                details.set_retry_info(Some(retry_after));
                let mut status = counted(Code::ResourceExhausted, message, details);
                let seconds = crate::app::access::whole_seconds(retry_after);
                status
                    .metadata_mut()
                    .insert("retry-after", seconds.to_string().parse().expect("digits"));
                status
            }
            AppError::Internal { message } => {
                counted(Code::Internal, message, info(Reason::Internal))
            }
        }
    }
}
