//! What a handler reads off its call besides the message: the deadline
//! (counted from the call's arrival, which the server stamps), the admin
//! token, and the fields it adds to the call's span.

use std::time::{Duration, Instant};

use subtle::ConstantTimeEq as _;
use tonic::Request;

use super::proto;
use crate::app::AppError;

/// When a call arrived, before its message was read and decoded: the
/// client's deadline counts from here.
#[derive(Debug, Clone, Copy)]
pub struct Arrival(pub Instant);

/// The client's deadline (`grpc-timeout`), counted from the call's arrival
/// and taken a little early, so the handler answers with what it knows
/// (DEADLINE_EXCEEDED from the solve it waited for) before [`Deadlines`]
/// drops the call.
pub fn deadline<T>(request: &Request<T>) -> Option<Instant> {
    let arrival = request
        .extensions()
        .get::<Arrival>()
        .map_or_else(Instant::now, |a| a.0);
    let value = request.metadata().get("grpc-timeout")?.to_str().ok()?;
    let timeout = parse_grpc_timeout(value)?;
    let margin = (timeout / 20).clamp(Duration::from_millis(5), Duration::from_millis(50));
    arrival.checked_add(timeout.saturating_sub(margin))
}

/// A `grpc-timeout` value: an amount and its unit (`H`, `M`, `S`, `m`, `u`, `n`).
pub fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount.saturating_mul(3600)),
        "M" => Duration::from_secs(amount.saturating_mul(60)),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

/// Passes when no admin token is configured, or when the call carries
/// `authorization: Bearer <token>` with the configured one.
pub fn check_admin<T>(admin_token: Option<&str>, request: &Request<T>) -> Result<(), AppError> {
    let Some(expected) = admin_token else {
        return Ok(());
    };
    let given = request
        .metadata()
        .get("authorization")
        .ok_or(AppError::Unauthenticated)?
        .to_str()
        .map_err(|_| AppError::PermissionDenied)?;
    // The scheme is case-insensitive (RFC 7235 §2.1); the token is not.
    let token = match given.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => token.trim_start(),
        _ => return Err(AppError::Unauthenticated),
    };
    // The comparison takes as long whichever byte differs; only the
    // token's length can be learnt from timing.
    if bool::from(token.as_bytes().ct_eq(expected.as_bytes())) {
        Ok(())
    } else {
        Err(AppError::PermissionDenied)
    }
}

/// Fills the current call's span with what a solve found.
pub fn record_solution(solution: &proto::Solution, started: Instant) {
    let span = tracing::Span::current();
    span.record("canonical_hash", solution.canonical_hash.as_str());
    span.record("cache", if solution.cached { "hit" } else { "miss" });
    span.record("solve_ms", started.elapsed().as_secs_f64() * 1e3);
}

/// Fills the current call's span with the puzzle it is about, as the
/// client named it (cut: it is the client's value).
pub fn record_name(name: &str) {
    tracing::Span::current().record("puzzle", super::convert::cut(name));
}
