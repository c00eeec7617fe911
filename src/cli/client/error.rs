//! How a client command fails, and the one place that turns a failure
//! into its message on standard error and the process's exit code
//! (docs/client.md has the table).

use std::process::ExitCode;

use tonic::Code;
use tonic_types::StatusExt as _;

use crate::api::error::code_name;

/// A file could not be read, a flag was wrong beyond what clap checks.
pub const EXIT_LOCAL: u8 = 1;
/// Flags that do not fit together (clap's own usage errors exit 2 too).
pub const EXIT_USAGE: u8 = 2;
/// The command ran to its end but some of its items failed (an import
/// with puzzles that were not stored).
pub const EXIT_PARTIAL: u8 = 3;
/// Ctrl-C stopped a long command (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;
/// A status ends the command with 10 plus its code's number: 13 for
/// INVALID_ARGUMENT, 15 NOT_FOUND, 24 UNAVAILABLE, 26 UNAUTHENTICATED.
pub const EXIT_STATUS_BASE: u8 = 10;

/// The exit code of a command ended by a status with `code`.
pub fn exit_code_of(code: Code) -> u8 {
    EXIT_STATUS_BASE + code as u8
}

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Flags that do not fit together.
    #[error("{0}")]
    Usage(String),
    /// Anything that failed on this side: a file, a flag's value, a write.
    #[error(transparent)]
    Local(#[from] anyhow::Error),
    /// No connection could be made to the server.
    #[error("UNAVAILABLE: cannot reach {addr}: {message}")]
    Unreachable { addr: String, message: String },
    /// The server answered with an error. `context` is said before it
    /// (which item, which move), `message` replaces the server's own when
    /// the server's would name vertices in another numbering.
    #[error("{}", status_line(status, context.as_deref(), message.as_deref()))]
    Status {
        status: Box<tonic::Status>,
        context: Option<String>,
        message: Option<String>,
    },
    /// The health service answered, but not SERVING.
    #[error("UNAVAILABLE: {addr} is not serving: {status}")]
    NotServing { addr: String, status: String },
    /// Some items failed; each was reported where it failed.
    #[error("{0}")]
    Partial(String),
    /// Ctrl-C.
    #[error("interrupted")]
    Interrupted,
}

impl From<tonic::Status> for ClientError {
    fn from(status: tonic::Status) -> ClientError {
        ClientError::Status {
            status: Box::new(status),
            context: None,
            message: None,
        }
    }
}

impl ClientError {
    pub fn usage(message: impl Into<String>) -> ClientError {
        ClientError::Usage(message.into())
    }

    pub fn local(message: impl std::fmt::Display) -> ClientError {
        ClientError::Local(anyhow::anyhow!("{message}"))
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            ClientError::Usage(_) => EXIT_USAGE,
            ClientError::Local(_) => EXIT_LOCAL,
            ClientError::Unreachable { .. } | ClientError::NotServing { .. } => {
                exit_code_of(Code::Unavailable)
            }
            ClientError::Status { status, .. } => exit_code_of(status.code()),
            ClientError::Partial(_) => EXIT_PARTIAL,
            ClientError::Interrupted => EXIT_INTERRUPTED,
        }
    }

    /// Prints the error on standard error and gives the exit code.
    pub fn report(&self) -> ExitCode {
        match self {
            ClientError::Local(error) => eprintln!("error: {}", crate::cli::causes(error)),
            other => eprintln!("error: {other}"),
        }
        ExitCode::from(self.exit_code())
    }
}

/// What a status says, in one line: `CODE (REASON): field: message`, the
/// reason from its ErrorInfo and the field from its BadRequest when they
/// are there, and how long to wait from its RetryInfo.
pub fn status_line(
    status: &tonic::Status,
    context: Option<&str>,
    replaced: Option<&str>,
) -> String {
    let details = status.get_error_details();
    let mut line = String::new();
    if let Some(context) = context {
        line.push_str(context);
        line.push_str(": ");
    }
    line.push_str(code_name(status.code()));
    if let Some(info) = details.error_info() {
        line.push_str(&format!(" ({})", info.reason));
    }
    line.push_str(": ");
    let message = replaced.unwrap_or(status.message());
    // A replaced message says what it is about in the client's own terms.
    if replaced.is_none()
        && let Some(field) = bad_request_field(status)
        && !message.starts_with(field.as_str())
    {
        line.push_str(&field);
        line.push_str(": ");
    }
    line.push_str(if message.is_empty() {
        "(no message)"
    } else {
        message
    });
    // The wait, rounded up as `retry-after` rounds it, unless the message
    // gives it already (the server's rate limits do).
    if let Some(delay) = details.retry_info().and_then(|info| info.retry_delay)
        && !message.contains("try again in")
    {
        let seconds = delay.as_secs() + u64::from(delay.subsec_nanos() > 0);
        line.push_str(&format!("; retry in {} s", seconds.max(1)));
    }
    line
}

/// The field a status's BadRequest names first, if it has one.
pub fn bad_request_field(status: &tonic::Status) -> Option<String> {
    status
        .get_error_details()
        .bad_request()
        .and_then(|bad| bad.field_violations.first())
        .map(|violation| violation.field.clone())
}

/// The ErrorInfo reason of a status, if it has one.
pub fn reason(status: &tonic::Status) -> Option<String> {
    status
        .get_error_details()
        .error_info()
        .map(|info| info.reason.clone())
}

pub type Result<T, E = ClientError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use tonic_types::ErrorDetails;

    use super::*;

    #[test]
    fn a_status_is_one_line_with_its_code_reason_and_field() {
        let mut details = ErrorDetails::with_error_info("VERTEX_OUT_OF_RANGE", "puzzled.v1", []);
        details.add_bad_request_violation("spec.graph.edges[3]", "vertex 5 out of range");
        let status = tonic::Status::with_error_details(
            Code::InvalidArgument,
            "vertex 5 out of range 0..3",
            details,
        );
        assert_eq!(
            status_line(&status, None, None),
            "INVALID_ARGUMENT (VERTEX_OUT_OF_RANGE): spec.graph.edges[3]: vertex 5 out of range 0..3"
        );
        let error = ClientError::from(status);
        assert_eq!(error.exit_code(), 13);
        // A message that starts with its field does not say it twice.
        let status = tonic::Status::not_found("puzzles/x: no such puzzle");
        assert_eq!(
            status_line(&status, Some("p.jsonl:3"), None),
            "p.jsonl:3: NOT_FOUND: puzzles/x: no such puzzle"
        );
    }

    #[test]
    fn the_wait_is_said_once_rounded_up() {
        let limited = |message: &str| {
            let mut details =
                ErrorDetails::with_error_info("WRITE_RATE_EXCEEDED", "puzzled.v1", []);
            details.set_retry_info(Some(std::time::Duration::from_millis(29_400)));
            tonic::Status::with_error_details(Code::ResourceExhausted, message, details)
        };
        assert_eq!(
            status_line(
                &limited("too many writes from address 127.0.0.1; try again in 30 s"),
                None,
                None
            ),
            "RESOURCE_EXHAUSTED (WRITE_RATE_EXCEEDED): too many writes from address 127.0.0.1; \
             try again in 30 s"
        );
        assert_eq!(
            status_line(&limited("too many writes"), None, None),
            "RESOURCE_EXHAUSTED (WRITE_RATE_EXCEEDED): too many writes; retry in 30 s"
        );
    }

    #[test]
    fn every_code_has_its_own_exit_code_above_the_local_ones() {
        let codes: Vec<u8> = (0..=16).map(|n| exit_code_of(Code::from_i32(n))).collect();
        assert_eq!(codes.first(), Some(&10));
        assert_eq!(codes.last(), Some(&26));
        assert!(codes.windows(2).all(|w| w[0] + 1 == w[1]));
        assert!(codes[0] > EXIT_PARTIAL);
    }
}
