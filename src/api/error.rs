//! The error policy of the API in one place: one `From` impl turns every
//! [`AppError`] into a `tonic::Status` with a human message, a
//! `google.rpc.BadRequest` naming the field where there is one, and a
//! `google.rpc.ErrorInfo` whose UPPER_SNAKE reason programs can branch on
//! (AIP-193).

use std::collections::HashMap;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::app::AppError;

/// The `ErrorInfo.domain` of every error this service raises.
pub const ERROR_DOMAIN: &str = "puzzled.v1";

fn info(reason: &str) -> ErrorDetails {
    ErrorDetails::with_error_info(reason, ERROR_DOMAIN, HashMap::<String, String>::new())
}

/// ErrorInfo that also names the offending field in its metadata.
fn info_for_field(reason: &str, field: &str) -> ErrorDetails {
    let metadata = HashMap::from([("field".to_owned(), field.to_owned())]);
    ErrorDetails::with_error_info(reason, ERROR_DOMAIN, metadata)
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
                Status::with_error_details(Code::InvalidArgument, message, details)
            }
            AppError::OverLimit { field, message } => {
                let mut details = info_for_field("LIMIT_EXCEEDED", &field);
                details.add_bad_request_violation(field, message.clone());
                Status::with_error_details(Code::ResourceExhausted, message, details)
            }
            AppError::NotFound { name } => Status::with_error_details(
                Code::NotFound,
                format!("{name} does not exist"),
                info("PUZZLE_NOT_FOUND"),
            ),
            AppError::AlreadyExists { field, message } => {
                let mut details = info("REQUEST_ID_REUSED");
                details.add_bad_request_violation(field, message.clone());
                Status::with_error_details(Code::AlreadyExists, message, details)
            }
            AppError::Unauthenticated => Status::with_error_details(
                Code::Unauthenticated,
                "this call needs the admin token as \"authorization: Bearer TOKEN\"",
                info("ADMIN_TOKEN_MISSING"),
            ),
            AppError::PermissionDenied => Status::with_error_details(
                Code::PermissionDenied,
                "the admin token is wrong",
                info("ADMIN_TOKEN_WRONG"),
            ),
            AppError::DeadlineExceeded => Status::with_error_details(
                Code::DeadlineExceeded,
                "the deadline passed before the answer was ready",
                info("DEADLINE_EXCEEDED"),
            ),
            AppError::GameIdle { seconds } => Status::with_error_details(
                Code::DeadlineExceeded,
                format!("no message for {seconds} s (--play-idle-secs); the game is closed"),
                info("GAME_IDLE"),
            ),
            AppError::Unavailable { reason, message } => {
                Status::with_error_details(Code::Unavailable, message, info(reason))
            }
            AppError::ShuttingDown => Status::with_error_details(
                Code::Unavailable,
                "the server is shutting down and stopped this solve; try again",
                info("SHUTTING_DOWN"),
            ),
            AppError::MessageTooLarge { size, limit } => Status::with_error_details(
                Code::ResourceExhausted,
                format!(
                    "the request message is {size} bytes, over the {limit}-byte message \
                     limit (--max-message-bytes)"
                ),
                info("LIMIT_EXCEEDED"),
            ),
            AppError::ResponseTooLarge { message } => Status::with_error_details(
                Code::ResourceExhausted,
                message,
                info("RESPONSE_TOO_LARGE"),
            ),
            AppError::Busy { reason, message } => {
                Status::with_error_details(Code::ResourceExhausted, message, info(reason))
            }
            AppError::Internal { message } => {
                Status::with_error_details(Code::Internal, message, info("INTERNAL"))
            }
        }
    }
}
