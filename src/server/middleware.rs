//! What every call goes through around its handler: its id and span, the
//! time it arrived and the deadline counted from there, the size of each
//! request message.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Instant;

use super::transport::CutOff;
use bytes::Bytes;
use http_body::Frame;
use tonic::Status;
use tonic::body::Body;
use tower_http::request_id::{MakeRequestId, RequestId};

use crate::api::request::{Arrival, parse_grpc_timeout};
use crate::app::AppError;

type HttpRequest = http::Request<Body>;
type HttpResponse = http::Response<Body>;
type Answer = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

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
                Box::pin(async { Ok(Status::from(AppError::DeadlineExceeded).into_http()) })
            }
            Some(d) => {
                let call = self.0.call(request);
                Box::pin(async move {
                    tokio::time::timeout_at(d.into(), call)
                        .await
                        .unwrap_or_else(
                            |_| Ok(Status::from(AppError::DeadlineExceeded).into_http()),
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
            return Poll::Ready(Some(Err(AppError::MessageTooLarge { size, limit }.into())));
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

/// The header that carries a call's id, both ways.
const REQUEST_ID_HEADER: &str = "x-request-id";

/// The longest request id taken from a client; a longer or non-printable
/// one is replaced by a fresh id, so logs stay readable.
const MAX_REQUEST_ID: usize = 128;

/// Removes a client's `x-request-id` that is empty, longer than
/// [`MAX_REQUEST_ID`] or not printable ASCII, so that tower-http's
/// `SetRequestId` behind it gives the call a fresh one instead (it keeps
/// whatever id the request carries).
pub(super) fn drop_unusable_request_id(mut request: HttpRequest) -> HttpRequest {
    let usable = request.headers().get(REQUEST_ID_HEADER).is_none_or(|id| {
        !id.is_empty()
            && id.len() <= MAX_REQUEST_ID
            && id.as_bytes().iter().all(u8::is_ascii_graphic)
    });
    if !usable {
        request.headers_mut().remove(REQUEST_ID_HEADER);
    }
    request
}

/// The id of a call that brought no usable one (see [`fresh_request_id`]).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct FreshRequestIds;

impl MakeRequestId for FreshRequestIds {
    fn make_request_id<B>(&mut self, _request: &http::Request<B>) -> Option<RequestId> {
        http::HeaderValue::from_str(&fresh_request_id())
            .ok()
            .map(RequestId::new)
    }
}

/// Gives every call its span. The call's id was set by tower-http's
/// `SetRequestId` outside this layer (the client's `x-request-id` when
/// usable, else a fresh one) and is echoed by its `PropagateRequestId`.
/// The span (`call`) holds the method and the id, and the handlers fill in
/// the puzzle's name
/// (`puzzle`), the canonical hash, the cache outcome and the solve time
/// (see [`record_solution`]); one `call finished` event closes it with the
/// gRPC status and the elapsed time, when the status is known: at once for
/// an answer without a body, at the trailers otherwise. The same moment
/// counts the call in the metrics.
///
/// The end is logged here rather than by tower-http's `TraceLayer`: a
/// gRPC call's status comes either in its response headers or in its
/// trailers, and `TraceLayer`'s end-of-stream callback sees neither the
/// request nor the response, so it could not label the call's metrics
/// with its method.
#[derive(Debug, Clone)]
pub(super) struct CallSpans<S>(pub(super) S);

impl<S> tower::Service<HttpRequest> for CallSpans<S>
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

    fn call(&mut self, request: HttpRequest) -> Answer {
        use tracing::Instrument;
        let id = request
            .extensions()
            .get::<RequestId>()
            .and_then(|id| id.header_value().to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let span = tracing::info_span!(
            "call",
            method = %crate::api::echo::cut(request.uri().path()),
            request_id = %id,
            puzzle = tracing::field::Empty,
            writer = tracing::field::Empty,
            canonical_hash = tracing::field::Empty,
            cache = tracing::field::Empty,
            solve_ms = tracing::field::Empty,
        );
        let arrival = Instant::now();
        // Load balancers check health every few seconds: those calls end
        // at debug level, not info.
        let method = request.uri().path().to_owned();
        let quiet = method.starts_with("/grpc.health.v1.Health/");
        let cut_off = request.extensions().get::<CutOff>().cloned();
        let call = self.0.call(request).instrument(span.clone());
        let mut end = CallEnd {
            span,
            arrival,
            method,
            quiet,
            cut_off: cut_off.unwrap_or_default(),
            logged: false,
        };
        Box::pin(async move {
            let response = call.await?;
            if let Some(status) = response.headers().get("grpc-status") {
                end.finish(status);
                return Ok(response);
            }
            Ok(response.map(|body| Body::new(StatusWatch { inner: body, end })))
        })
    }
}

/// A fresh request id: 16 hex digits, unique within the process and, with
/// the start time mixed in, unlikely to repeat across restarts.
fn fresh_request_id() -> String {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    static SEED: OnceLock<u64> = OnceLock::new();
    let seed = *SEED.get_or_init(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id()) << 32
    });
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    // SplitMix64: distinct counters give distinct ids.
    let x = seed.wrapping_add(n.wrapping_mul(crate::splitmix::GAMMA));
    format!("{:016x}", crate::splitmix::mix(x))
}

/// The end of one call, logged and counted once: with its status when the
/// status passes, or as `Cancelled` with `client_left` when the call is
/// dropped before (the client reset the stream or closed the connection
/// while the call was being answered), so that every call that arrived
/// has its line.
struct CallEnd {
    span: tracing::Span,
    arrival: Instant,
    method: String,
    quiet: bool,
    /// Set when the transport cut the request off: the call ends with that
    /// status rather than the handler's.
    cut_off: CutOff,
    logged: bool,
}

impl Drop for CallEnd {
    fn drop(&mut self) {
        if !self.logged {
            let cancelled = http::HeaderValue::from(tonic::Code::Cancelled as i32);
            self.log(&cancelled, true);
        }
    }
}

impl CallEnd {
    fn finish(&mut self, status: &http::HeaderValue) {
        if !std::mem::replace(&mut self.logged, true) {
            self.log(status, false);
        }
    }

    /// Logs and counts the end of the call with `status`, or with the
    /// status it was cut off with.
    fn log(&self, status: &http::HeaderValue, client_left: bool) {
        let CallEnd {
            span,
            arrival,
            method,
            quiet,
            cut_off,
            logged: _,
        } = self;
        let quiet = *quiet;
        let cut_off = cut_off
            .0
            .get()
            .map(|status| http::HeaderValue::from(status.code() as i32));
        let status = cut_off.as_ref().unwrap_or(status);
        let status = status.to_str().unwrap_or("?");
        let code = status.parse::<i32>().map(tonic::Code::from_i32);
        let code_name = code
            .as_ref()
            .map_or_else(|_| status.to_owned(), |code| format!("{code:?}"));
        let elapsed = arrival.elapsed().as_secs_f64();
        let (grpc_service, grpc_method) = method_labels(method);
        let grpc_code = code
            .as_ref()
            .map_or("UNKNOWN", |&code| crate::api::error::code_name(code));
        let metrics = crate::metrics::metrics();
        metrics
            .request_seconds
            .get_or_create(&crate::metrics::MethodLabels {
                grpc_service,
                grpc_method,
            })
            .observe(elapsed);
        metrics
            .requests
            .get_or_create(&crate::metrics::CallLabels {
                grpc_service,
                grpc_method,
                grpc_code,
            })
            .inc();
        // Milliseconds to the microsecond: a log line is read by people.
        let (code, elapsed_ms) = (code_name, (elapsed * 1e6).round() / 1e3);
        span.in_scope(|| {
            if client_left {
                tracing::info!(status = %code, elapsed_ms, client_left, "call finished");
            } else if quiet {
                tracing::debug!(status = %code, elapsed_ms, "call finished");
            } else {
                tracing::info!(status = %code, elapsed_ms, "call finished");
            }
        });
    }
}

/// The service and method `path` names when this server has it, else
/// `unknown` twice: a client must not be able to add labels (a call to a
/// made-up path can still be answered, by the deadline or the message
/// limit, before routing).
fn method_labels(path: &str) -> (&'static str, &'static str) {
    super::methods::served_methods()
        .get(path)
        .map_or(("unknown", "unknown"), |method| {
            (method.service.as_str(), method.name.as_str())
        })
}

/// A response body that logs the call's end when its trailers pass (or
/// when it is dropped before).
struct StatusWatch {
    inner: Body,
    end: CallEnd,
}

impl http_body::Body for StatusWatch {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        let this = self.get_mut();
        let frame = ready!(Pin::new(&mut this.inner).poll_frame(cx));
        if let Some(Ok(frame)) = &frame
            && let Some(status) = frame.trailers_ref().and_then(|t| t.get("grpc-status"))
        {
            this.end.finish(status);
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call dropped before its answer (the client reset its stream or
    /// closed the connection) still ends with its line and its count, as
    /// CANCELLED.
    #[tokio::test]
    async fn a_call_dropped_before_its_answer_ends_as_cancelled() {
        use tower::Service as _;
        let method = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";
        let cancelled = || {
            crate::metrics::metrics()
                .requests
                .get_or_create(&crate::metrics::CallLabels {
                    grpc_service: "grpc.reflection.v1alpha.ServerReflection",
                    grpc_method: "ServerReflectionInfo",
                    grpc_code: "CANCELLED",
                })
                .get()
        };
        let never = tower::service_fn(|_: HttpRequest| {
            std::future::pending::<Result<HttpResponse, Infallible>>()
        });
        let before = cancelled();
        let call = CallSpans(never).call(http::Request::post(method).body(Body::empty()).unwrap());
        assert_eq!(cancelled(), before);
        drop(call);
        assert_eq!(cancelled(), before + 1);
    }

    #[test]
    fn only_the_servers_own_methods_are_metric_labels() {
        for path in [
            "/puzzled.v1.PuzzleService/Solve",
            "/puzzled.v1.PuzzleService/Play",
            "/grpc.health.v1.Health/Check",
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
            "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
        ] {
            let (service, method) = method_labels(path);
            assert_eq!(format!("/{service}/{method}"), path);
        }
        for path in [
            "/puzzled.v1.PuzzleService/Nope",
            "/made.up.Service/Solve",
            "/",
            "/puzzled.v1.PuzzleService/Solve/extra",
        ] {
            assert_eq!(method_labels(path), ("unknown", "unknown"), "{path}");
        }
    }
}

/// Ends every open `grpc.health.v1.Health/Watch` stream once `closing`
/// turns true (at shutdown, after the health status has gone NOT_SERVING):
/// the watcher gets the last status, then UNAVAILABLE (reason
/// `SHUTTING_DOWN`). An open watch would otherwise hold the drain for the
/// whole grace period, as Play games would.
#[derive(Debug, Clone)]
pub(super) struct EndWatchesAtShutdown<S> {
    pub(super) inner: S,
    pub(super) closing: tokio::sync::watch::Receiver<bool>,
}

/// The health service's server stream.
const HEALTH_WATCH: &str = "/grpc.health.v1.Health/Watch";

impl<S> tower::Service<HttpRequest> for EndWatchesAtShutdown<S>
where
    S: tower::Service<HttpRequest, Response = HttpResponse, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Answer;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: HttpRequest) -> Answer {
        let watch = request.uri().path() == HEALTH_WATCH;
        let call = self.inner.call(request);
        if !watch {
            return Box::pin(call);
        }
        let mut closing = self.closing.clone();
        Box::pin(async move {
            let response = call.await?;
            let closed = Box::pin(async move {
                let _ = closing.wait_for(|&closing| closing).await;
            });
            Ok(response.map(|inner| {
                Body::new(EndingBody {
                    inner,
                    closed: Some(closed),
                    ended: false,
                })
            }))
        })
    }
}

/// A stream's body that ends with UNAVAILABLE trailers once `closed`
/// resolves, after what its stream had ready.
struct EndingBody {
    inner: Body,
    /// `None` once it has resolved.
    closed: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
    ended: bool,
}

impl http_body::Body for EndingBody {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        if self.ended {
            return Poll::Ready(None);
        }
        if let Some(closed) = self.closed.as_mut()
            && closed.as_mut().poll(cx).is_ready()
        {
            self.closed = None;
        }
        let closing = self.closed.is_none();
        match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(frame)) if !closing || frame.as_ref().is_ok_and(Frame::is_data) => {
                Poll::Ready(Some(frame))
            }
            Poll::Ready(None) if !closing => {
                self.ended = true;
                Poll::Ready(None)
            }
            Poll::Pending if !closing => Poll::Pending,
            // Closing: end with our status rather than the stream's.
            _ => {
                self.ended = true;
                let status = Status::from(AppError::Unavailable {
                    reason: crate::app::Reason::ShuttingDown,
                    message: "the server is shutting down; the watch is closed".into(),
                });
                let mut trailers = http::HeaderMap::new();
                let _ = status.add_header(&mut trailers);
                Poll::Ready(Some(Ok(Frame::trailers(trailers))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.ended
    }
}
