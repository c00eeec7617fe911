//! What every call goes through around its handler: the time it arrived
//! and the deadline counted from there, the size of each request message,
//! and the admin token.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::Frame;
use tonic::body::Body;
use tonic::{Request, Status};

use super::error::ApiError;

type HttpRequest = http::Request<Body>;
type HttpResponse = http::Response<Body>;
type Answer = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

/// When a call arrived, before its message was read and decoded: the
/// client's deadline counts from here.
#[derive(Debug, Clone, Copy)]
struct Arrival(Instant);

/// Stamps each call with its arrival and holds it to the client's deadline
/// (`grpc-timeout`): a call still unanswered when the deadline passes is
/// dropped and answered DEADLINE_EXCEEDED (reason `DEADLINE_EXCEEDED`), and
/// a deadline already past on arrival is answered so at once.
#[derive(Debug, Clone)]
pub(super) struct Deadlines<S>(pub(super) S);

impl<S> tower::Service<HttpRequest> for Deadlines<S>
where
    S: tower::Service<HttpRequest, Response = HttpResponse, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Answer;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, mut request: HttpRequest) -> Answer {
        let arrival = Instant::now();
        request.extensions_mut().insert(Arrival(arrival));
        let deadline = request
            .headers()
            .get("grpc-timeout")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_grpc_timeout)
            .and_then(|timeout| arrival.checked_add(timeout));
        match deadline {
            None => Box::pin(self.0.call(request)),
            Some(d) if Instant::now() >= d => {
                Box::pin(async { Ok(Status::from(ApiError::DeadlineExceeded).into_http()) })
            }
            Some(d) => {
                let call = self.0.call(request);
                Box::pin(async move {
                    tokio::time::timeout_at(d.into(), call)
                        .await
                        .unwrap_or_else(
                            |_| Ok(Status::from(ApiError::DeadlineExceeded).into_http()),
                        )
                })
            }
        }
    }
}

/// Refuses a request message over `limit` bytes from the length in its gRPC
/// frame header (a flag byte, then a big-endian `u32`), before the message
/// itself is read: RESOURCE_EXHAUSTED, reason `LIMIT_EXCEEDED`, naming the
/// limit. tonic's own `max_decoding_message_size` stays behind it.
#[derive(Debug, Clone)]
pub(super) struct MessageLimit<S> {
    pub(super) inner: S,
    pub(super) limit: usize,
}

impl<S> tower::Service<HttpRequest> for MessageLimit<S>
where
    S: tower::Service<HttpRequest>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: HttpRequest) -> S::Future {
        let limit = self.limit;
        self.inner
            .call(request.map(|body| Body::new(LimitedBody::new(body, limit))))
    }
}

/// A request body that reads the frame header of every gRPC message that
/// passes through it and fails, instead of passing on a header, when the
/// header announces a message over the limit.
struct LimitedBody {
    inner: Body,
    limit: usize,
    /// The frame header being read, and how much of it has arrived.
    header: [u8; 5],
    header_read: usize,
    /// Bytes of the current message still to come.
    message_left: u64,
    refused: bool,
}

impl LimitedBody {
    fn new(inner: Body, limit: usize) -> LimitedBody {
        LimitedBody {
            inner,
            limit,
            header: [0; 5],
            header_read: 0,
            message_left: 0,
            refused: false,
        }
    }

    /// Follows `data` through the framing; the size of the first message
    /// over the limit, if one starts in it.
    fn oversize(&mut self, mut data: &[u8]) -> Option<u64> {
        while !data.is_empty() {
            if self.message_left > 0 {
                let n = data
                    .len()
                    .min(usize::try_from(self.message_left).unwrap_or(usize::MAX));
                data = &data[n..];
                self.message_left -= n as u64;
                continue;
            }
            let n = data.len().min(5 - self.header_read);
            self.header[self.header_read..self.header_read + n].copy_from_slice(&data[..n]);
            self.header_read += n;
            data = &data[n..];
            if self.header_read == 5 {
                self.header_read = 0;
                let [_, a, b, c, d] = self.header;
                let size = u64::from(u32::from_be_bytes([a, b, c, d]));
                if size > self.limit as u64 {
                    return Some(size);
                }
                self.message_left = size;
            }
        }
        None
    }
}

impl http_body::Body for LimitedBody {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        let this = self.get_mut();
        if this.refused {
            return Poll::Ready(None);
        }
        let frame = ready!(Pin::new(&mut this.inner).poll_frame(cx));
        let oversize = match &frame {
            Some(Ok(frame)) => frame.data_ref().and_then(|data| this.oversize(data)),
            _ => None,
        };
        if let Some(size) = oversize {
            this.refused = true;
            let limit = this.limit;
            return Poll::Ready(Some(Err(ApiError::MessageTooLarge { size, limit }.into())));
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.refused || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The client's deadline (`grpc-timeout`), counted from the call's arrival
/// and taken a little early, so the handler answers with what it knows
/// (DEADLINE_EXCEEDED from the solve it waited for) before [`Deadlines`]
/// drops the call.
pub(super) fn deadline<T>(request: &Request<T>) -> Option<Instant> {
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
fn parse_grpc_timeout(value: &str) -> Option<Duration> {
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

/// Fails once `deadline` has passed. Checked after each synchronous phase:
/// a timer armed after the deadline would lose the race to the transport's.
pub(super) fn check_deadline(deadline: Option<Instant>) -> Result<(), ApiError> {
    match deadline {
        Some(d) if Instant::now() >= d => Err(ApiError::DeadlineExceeded),
        _ => Ok(()),
    }
}

/// Runs `work`, answering DEADLINE_EXCEEDED once `deadline` passes (armed
/// at the start of the handler, a little before [`Deadlines`] drops the call).
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
