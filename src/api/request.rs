//! What a handler reads off its call besides the message: the deadline
//! (counted from the call's arrival, which the server stamps), the admin
//! and writer tokens and the address it is charged to, and the fields it
//! adds to the call's span.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use tonic::Request;

use super::proto;
use crate::app::AppError;
use crate::app::access::{Access, Caller};
use crate::app::error::Token;

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

/// The address a call came from, put on each request by the transport.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddress(pub IpAddr);

/// What a call's `authorization` metadata holds.
enum Presented<'a> {
    /// No `authorization` at all.
    Nothing,
    /// `Bearer TOKEN` (the scheme in any case, RFC 7235 §2.1).
    Bearer(&'a str),
    /// Something else: another scheme, or bytes that are not printable
    /// ASCII. Not this server's to judge where no token is needed (a proxy
    /// may have added it); where one is, it is no token.
    Other,
}

/// The call's `authorization`. A call that carries more than one is
/// refused, whether or not it needs a token: which one counts would be
/// this server's guess, and a proxy in front may have guessed otherwise.
fn presented<T>(request: &Request<T>) -> Result<Presented<'_>, AppError> {
    let mut all = request.metadata().get_all("authorization").iter();
    let Some(given) = all.next() else {
        return Ok(Presented::Nothing);
    };
    let more = all.count();
    if more > 0 {
        return Err(AppError::AuthorizationRepeated { count: more + 1 });
    }
    let Ok(given) = given.to_str() else {
        return Ok(Presented::Other);
    };
    // The scheme is case-insensitive (RFC 7235 §2.1); the token is not.
    Ok(match given.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => {
            Presented::Bearer(token.trim_start())
        }
        _ => Presented::Other,
    })
}

/// Passes when no admin token is configured, or when the call carries
/// `authorization: Bearer <token>` with the configured one; a call with
/// more than one `authorization` never passes.
pub fn check_admin<T>(access: &Access, request: &Request<T>) -> Result<(), AppError> {
    let presented = presented(request)?;
    if access.admin_token().is_none() {
        return Ok(());
    }
    match presented {
        Presented::Bearer(token) if access.is_admin(token) => Ok(()),
        Presented::Bearer(_) => Err(AppError::PermissionDenied(Token::Admin)),
        Presented::Nothing | Presented::Other => Err(AppError::Unauthenticated(Token::Admin)),
    }
}

/// Who the call is charged to: the admin or a writer, by the bearer token
/// it carries, or else the address it came from. With `token_required` a
/// call without a bearer token is refused (UNAUTHENTICATED), and so is one
/// whose token is neither (PERMISSION_DENIED); otherwise such a token, or
/// an `authorization` of another kind, is not this server's to judge (a
/// proxy's, say), and the call is charged to its address. A call with
/// more than one `authorization` is refused either way.
pub fn caller_of<T>(
    access: &Access,
    request: &Request<T>,
    token_required: bool,
) -> Result<Caller, AppError> {
    match presented(request)? {
        Presented::Bearer(token) if access.is_admin(token) => Ok(Caller::Admin),
        Presented::Bearer(token) => match access.writer(token) {
            Some(writer) => {
                tracing::Span::current().record("writer", &*writer);
                Ok(Caller::Writer(writer))
            }
            None if token_required => Err(AppError::PermissionDenied(Token::Writer)),
            None => Ok(by_address(request)),
        },
        Presented::Nothing | Presented::Other if token_required => {
            Err(AppError::Unauthenticated(Token::Writer))
        }
        Presented::Nothing | Presented::Other => Ok(by_address(request)),
    }
}

/// The caller a call without a token of this server's is: its address.
fn by_address<T>(request: &Request<T>) -> Caller {
    request
        .extensions()
        .get::<ClientAddress>()
        .map_or(Caller::Anonymous, |address| Caller::Address(address.0))
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
    tracing::Span::current().record("puzzle", super::echo::cut(name));
}
