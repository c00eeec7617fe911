//! A call's deadline inside the application: the work a caller waits for
//! is bounded by the caller's own deadline, and by no one else's.

use std::future::Future;
use std::time::Instant;

use super::error::AppError;

/// Fails once `deadline` has passed. Checked after each synchronous phase:
/// a timer armed after the deadline would lose the race to the transport's.
pub fn check_deadline(deadline: Option<Instant>) -> Result<(), AppError> {
    match deadline {
        Some(d) if Instant::now() >= d => Err(AppError::DeadlineExceeded),
        _ => Ok(()),
    }
}

/// Runs `work`, answering DEADLINE_EXCEEDED once `deadline` passes (the
/// API takes the deadline a little before the transport drops the call, so
/// this answer is the one the client sees).
pub async fn within<T>(
    deadline: Option<Instant>,
    work: impl Future<Output = Result<T, AppError>>,
) -> Result<T, AppError> {
    match deadline {
        Some(d) => tokio::time::timeout_at(d.into(), work)
            .await
            .map_err(|_| AppError::DeadlineExceeded)?,
        None => work.await,
    }
}
