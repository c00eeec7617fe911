//! What every call goes through around its handler: the time it arrived
//! and the deadline counted from there, the admin token, and the status of
//! a message over the size limit.

use std::future::Future;
use std::time::{Duration, Instant};

use tonic::Request;

use super::error::ApiError;

/// When a call arrived, before its message was read and decoded: the
/// client's deadline counts from here, as the transport's own timer does.
#[derive(Debug, Clone, Copy)]
struct Arrival(Instant);

pub(super) fn stamp_arrival<B>(
    mut request: tonic::codegen::http::Request<B>,
) -> tonic::codegen::http::Request<B> {
    request.extensions_mut().insert(Arrival(Instant::now()));
    request
}

/// tonic answers a request over the message-size limit with OUT_OF_RANGE;
/// gRPC's own implementations (and our API contract) say RESOURCE_EXHAUSTED.
/// The status travels in the headers of that trailers-only response.
pub(super) fn oversize_is_resource_exhausted<B>(
    mut response: tonic::codegen::http::Response<B>,
) -> tonic::codegen::http::Response<B> {
    let headers = response.headers_mut();
    let out_of_range = headers
        .get("grpc-status")
        .is_some_and(|s| s.as_bytes() == b"11");
    let too_large = headers
        .get("grpc-message")
        .and_then(|m| m.to_str().ok())
        .is_some_and(|m| m.contains("message%20length%20too%20large"));
    if out_of_range && too_large {
        headers.insert(
            "grpc-status",
            tonic::codegen::http::HeaderValue::from_static("8"),
        );
    }
    response
}

/// The client's deadline (`grpc-timeout`), counted from the call's arrival
/// and taken a little early, so the handler answers DEADLINE_EXCEEDED before
/// the transport's timer cancels the call.
pub(super) fn deadline<T>(request: &Request<T>) -> Option<Instant> {
    let arrival = request
        .extensions()
        .get::<Arrival>()
        .map_or_else(Instant::now, |a| a.0);
    let value = request.metadata().get("grpc-timeout")?.to_str().ok()?;
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    let amount: u64 = digits.parse().ok()?;
    let timeout = match unit {
        "H" => Duration::from_secs(amount.saturating_mul(3600)),
        "M" => Duration::from_secs(amount.saturating_mul(60)),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    };
    let margin = (timeout / 20).clamp(Duration::from_millis(5), Duration::from_millis(50));
    arrival.checked_add(timeout.saturating_sub(margin))
}

/// Fails once `deadline` has passed. Checked after each synchronous phase:
/// a timer armed after the deadline would lose the race to the transport's.
pub(super) fn check_deadline(deadline: Option<Instant>) -> Result<(), ApiError> {
    match deadline {
        Some(d) if Instant::now() >= d => Err(ApiError::DeadlineExceeded),
        _ => Ok(()),
    }
}

/// Runs `work`, answering DEADLINE_EXCEEDED once `deadline` passes (armed
/// at the start of the handler, a little before the transport's own timer).
pub(super) async fn within<T>(
    deadline: Option<Instant>,
    work: impl Future<Output = Result<T, ApiError>>,
) -> Result<T, ApiError> {
    match deadline {
        Some(d) => tokio::time::timeout_at(d.into(), work)
            .await
            .map_err(|_| ApiError::DeadlineExceeded)?,
        None => work.await,
    }
}

/// Passes when no admin token is configured, or when the call carries
/// `authorization: Bearer <token>` with the configured one.
pub(super) fn check_admin<T>(
    admin_token: Option<&str>,
    request: &Request<T>,
) -> Result<(), ApiError> {
    let Some(expected) = admin_token else {
        return Ok(());
    };
    let given = request
        .metadata()
        .get("authorization")
        .ok_or(ApiError::Unauthenticated)?
        .to_str()
        .map_err(|_| ApiError::PermissionDenied)?;
    // The scheme is case-insensitive (RFC 7235 §2.1); the token is not.
    let token = match given.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => token.trim_start(),
        _ => return Err(ApiError::Unauthenticated),
    };
    if constant_time_eq(token.as_bytes(), expected.as_bytes()) {
        Ok(())
    } else {
        Err(ApiError::PermissionDenied)
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
