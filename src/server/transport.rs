//! The listener and the connections under it (HTTP/2 for gRPC; HTTP/1.1 too,
//! for gRPC-Web from browsers), run on hyper directly so that each
//! connection can be watched and closed:
//!
//! - at most `max_connections` are served at once; past that the listener
//!   is not read, so new connections wait in the kernel's listen backlog;
//!   at most `max_connections_per_address` from one IP address, past which
//!   a new one is closed as soon as it is accepted, so that one host
//!   cannot take every connection;
//! - a call's request must arrive within the receive limit, which grows
//!   with the bytes received (see [`ReceivingBody`]): a request of one
//!   message whole, from the call's arrival; each message of a client
//!   stream on its own, from the end of the one before, so that a stream
//!   goes on for as long as its messages keep coming. Past it the call
//!   fails, and only that call;
//! - a connection must send its first request within the handshake
//!   timeout, and once it has no call open for the idle timeout it gets a
//!   GOAWAY; a connection that still has no call open [`CLOSE_WAIT`] after
//!   its GOAWAY (a peer that never answers) is dropped;
//! - a response is handed to HTTP/2 in pieces of [`PIECE`] bytes; one that
//!   waits longer than the send timeout for the client to take its next
//!   piece (the client has stopped reading) drops its connection, and with
//!   it the response it held in memory;
//! - at shutdown every connection gets a GOAWAY at once, so the idle ones
//!   close within [`CLOSE_WAIT`] and the busy ones when their calls end.

use super::tls::ServingTls;
use crate::api::ClientAddress;
use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::net::IpAddr;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::Frame;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinSet;
use tonic::Status;
use tonic::body::Body;
use tower::ServiceExt;

use crate::app::Gauge;
use crate::config::{ConnectionPolicy, ReceiveLimit};

/// Every call of the server, its per-call layers included.
pub(super) type CallService =
    tower::util::BoxCloneSyncService<http::Request<Body>, http::Response<Body>, Infallible>;

/// How long a closing connection with no call open has to finish its GOAWAY
/// exchange before it is dropped.
const CLOSE_WAIT: Duration = Duration::from_secs(1);
/// The largest piece of a response handed to HTTP/2 at once: the unit in
/// which the send timeout sees a response make progress.
const PIECE: usize = 16 * 1024;
/// The pause after a failed accept (out of file descriptors, say).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// The least time between two looks at a busy connection's responses.
const MIN_TICK: Duration = Duration::from_millis(10);
/// The least time between two warnings that the connection cap is reached.
const CAP_WARNING_EVERY: Duration = Duration::from_secs(60);

/// The connection side of the server: its limits and its HTTP/2 settings.
pub(super) struct Transport {
    policy: ConnectionPolicy,
    http: auto::Builder<TokioExecutor>,
    open: Gauge,
    tls: Option<Arc<ServingTls>>,
}

/// What each connection task shares.
struct Shared {
    policy: ConnectionPolicy,
    http: auto::Builder<TokioExecutor>,
    service: CallService,
    open: Gauge,
    /// TLS on every connection, when configured.
    tls: Option<Arc<ServingTls>>,
}

impl Transport {
    /// `open` counts the connections being served; with `tls` every
    /// connection begins with a TLS handshake.
    pub(super) fn new(
        policy: ConnectionPolicy,
        open: Gauge,
        tls: Option<Arc<ServingTls>>,
    ) -> Transport {
        // HTTP/2 or HTTP/1.1, told apart by the connection's first bytes.
        let mut http = auto::Builder::new(TokioExecutor::new());
        http.http1().timer(TokioTimer::new());
        http.http2()
            .timer(TokioTimer::new())
            .max_concurrent_streams(policy.max_concurrent_streams)
            .keep_alive_interval(policy.keepalive_interval)
            .keep_alive_timeout(policy.keepalive_timeout);
        Transport {
            policy,
            http,
            open,
            tls,
        }
    }

    /// Accepts and serves connections until `shutdown` resolves; then closes
    /// the listener, sends every connection a GOAWAY, and returns them for
    /// the caller to wait on (or to drop, which closes them all).
    pub(super) async fn serve(
        self,
        listener: TcpListener,
        service: CallService,
        shutdown: impl Future<Output = ()>,
    ) -> Connections {
        let Transport {
            policy,
            http,
            open,
            tls,
        } = self;
        let shared = Arc::new(Shared {
            policy,
            http,
            service,
            open,
            tls,
        });
        let (stop_tx, stop_rx) = watch::channel(false);
        let slots = Arc::new(Semaphore::new(
            policy.max_connections.min(Semaphore::MAX_PERMITS),
        ));
        let mut tasks = JoinSet::new();
        let mut shutdown = std::pin::pin!(shutdown);
        let mut warned_at: Option<Instant> = None;
        let mut address_warned_at: Option<Instant> = None;
        let per_address = PerAddress::new(policy.max_connections_per_address);
        loop {
            let slot = match slots.clone().try_acquire_owned() {
                Ok(slot) => slot,
                Err(_) => {
                    if warned_at.is_none_or(|at| at.elapsed() >= CAP_WARNING_EVERY) {
                        warned_at = Some(Instant::now());
                        tracing::warn!(
                            "{} connections open, the limit (--max-connections); new \
                             connections wait in the listen backlog until one closes",
                            policy.max_connections
                        );
                    }
                    tokio::select! {
                        () = &mut shutdown => break,
                        slot = slots.clone().acquire_owned() => {
                            slot.expect("the connection semaphore is never closed")
                        }
                    }
                }
            };
            let (tcp, peer) = tokio::select! {
                () = &mut shutdown => break,
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(err) => {
                        accept_failed(err).await;
                        continue;
                    }
                },
            };
            let address_slot = match per_address.enter(peer.ip()) {
                Some(address_slot) => address_slot,
                None => {
                    if address_warned_at.is_none_or(|at| at.elapsed() >= CAP_WARNING_EVERY) {
                        address_warned_at = Some(Instant::now());
                        tracing::warn!(
                            address = %peer.ip(),
                            "{} connections open from one address, the limit \
                             (--max-connections-per-address); closing its new ones",
                            per_address.limit.unwrap_or(usize::MAX)
                        );
                    }
                    continue;
                }
            };
            // Small answers go out at once rather than waiting for more.
            let _ = tcp.set_nodelay(true);
            tasks.spawn(serve_connection(
                shared.clone(),
                tcp,
                peer,
                (slot, address_slot),
                stop_rx.clone(),
            ));
            while tasks.try_join_next().is_some() {}
        }
        drop(listener);
        let _ = stop_tx.send(true);
        tracing::debug!(connections = tasks.len(), "stopped accepting connections");
        Connections {
            tasks,
            _stop: stop_tx,
        }
    }
}

/// An accept that failed: a client that gave up is nobody's problem; any
/// other failure (no file descriptor left) is logged and retried shortly,
/// rather than at once in a tight loop.
async fn accept_failed(err: std::io::Error) {
    use std::io::ErrorKind;
    match err.kind() {
        ErrorKind::ConnectionAborted
        | ErrorKind::ConnectionReset
        | ErrorKind::ConnectionRefused
        | ErrorKind::Interrupted => {}
        _ => {
            tracing::warn!(error = %err, "accepting a connection failed; trying again shortly");
            tokio::time::sleep(ACCEPT_BACKOFF).await;
        }
    }
}

/// The connections still open once the server stopped accepting; each has
/// been sent a GOAWAY. Dropping this closes them all at once.
pub(super) struct Connections {
    tasks: JoinSet<()>,
    /// Keeps the connections' stop signal alive.
    _stop: watch::Sender<bool>,
}

impl Connections {
    /// Resolves once every connection has closed.
    pub(super) async fn closed(&mut self) {
        while self.tasks.join_next().await.is_some() {}
    }
}

/// Serves one connection until it ends or is closed; see the module notes.
async fn serve_connection(
    shared: Arc<Shared>,
    tcp: TcpStream,
    peer: SocketAddr,
    _slots: (OwnedSemaphorePermit, AddressSlot),
    stop: watch::Receiver<bool>,
) {
    let _open = shared.open.enter();
    let accepted = Instant::now();
    match &shared.tls {
        None => serve_http(&shared, TokioIo::new(tcp), peer, accepted, stop).await,
        Some(tls) => {
            // The handshake counts against the time a new connection has
            // until its first request.
            let handshake = tls.acceptor().accept(tcp);
            let handshake = match shared.policy.handshake_timeout {
                Some(limit) => match tokio::time::timeout(limit, handshake).await {
                    Ok(handshake) => handshake,
                    Err(_) => {
                        tracing::debug!(%peer, "dropped the connection: no TLS handshake in time");
                        return;
                    }
                },
                None => handshake.await,
            };
            match handshake {
                Ok(stream) => serve_http(&shared, TokioIo::new(stream), peer, accepted, stop).await,
                Err(error) => tracing::debug!(%peer, %error, "the TLS handshake failed"),
            }
        }
    }
}

/// Serves HTTP on one connection (cleartext or TLS) until it ends or is
/// closed.
async fn serve_http<I>(
    shared: &Shared,
    io: I,
    peer: SocketAddr,
    accepted: Instant,
    mut stop: watch::Receiver<bool>,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let connection = Arc::new(Connection::new(accepted));
    let calls = Calls {
        inner: shared.service.clone(),
        connection: connection.clone(),
        receive: shared.policy.receive,
        client: ClientAddress(peer.ip()),
    };
    let mut served = std::pin::pin!(shared.http.serve_connection(io, calls));
    // Since when the connection has been closing (GOAWAY sent).
    let mut closing: Option<Instant> = None;
    loop {
        let wake_at = match connection.next(Instant::now(), &shared.policy, closing) {
            Next::Wait(at) => at,
            Next::GoAway(why) => {
                tracing::debug!(%peer, "closing the connection: {why}");
                served.as_mut().graceful_shutdown();
                closing = Some(Instant::now());
                continue;
            }
            Next::Drop(why @ Why::Stuck(_)) => {
                tracing::info!(%peer, "dropped the connection: {why}");
                return;
            }
            Next::Drop(why) => {
                tracing::debug!(%peer, "dropped the connection: {why}");
                return;
            }
        };
        tokio::select! {
            ended = served.as_mut() => {
                if let Err(err) = ended {
                    tracing::debug!(%peer, error = %err, "the connection failed");
                }
                return;
            }
            () = sleep_until(wake_at) => {}
            () = connection.changed.notified() => {}
            _ = stop.wait_for(|&stop| stop), if closing.is_none() => {
                served.as_mut().graceful_shutdown();
                closing = Some(Instant::now());
            }
        }
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// What a connection should do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Nothing until this time (or a change), if any.
    Wait(Option<Instant>),
    /// Send a GOAWAY and let the open calls finish.
    GoAway(Why),
    /// Close the socket now.
    Drop(Why),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    Handshake(Duration),
    Idle(Duration),
    Stuck(Duration),
    NoGoodbye,
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Handshake(d) => write!(f, "no request within {d:?} (--handshake-timeout-secs)"),
            Why::Idle(d) => write!(f, "no call for {d:?} (--idle-timeout-secs)"),
            Why::Stuck(d) => write!(
                f,
                "a response waited {d:?} for the client to read it (--send-timeout-secs)"
            ),
            Why::NoGoodbye => write!(f, "still open {CLOSE_WAIT:?} after its GOAWAY"),
        }
    }
}

/// What a connection task knows of its calls.
struct Connection {
    state: Mutex<State>,
    /// Wakes the connection task when its first call opens or its last one
    /// ends: the times it waits for change.
    changed: Notify,
}

struct State {
    /// Calls open: from the request's arrival until its response is sent
    /// (or the call is reset).
    open: usize,
    /// Whether a request has arrived yet.
    served: bool,
    /// Since when no call has been open (or since the accept).
    idle_since: Instant,
    next_call: u64,
    /// The calls whose last piece of response still waits for the client,
    /// and since when.
    waiting: HashMap<u64, Instant>,
}

impl Connection {
    fn new(accepted: Instant) -> Connection {
        Connection {
            state: Mutex::new(State {
                open: 0,
                served: false,
                idle_since: accepted,
                next_call: 0,
                waiting: HashMap::new(),
            }),
            changed: Notify::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn open_call(self: &Arc<Self>) -> CallGuard {
        let mut state = self.lock();
        state.open += 1;
        state.served = true;
        let id = state.next_call;
        state.next_call += 1;
        let first = state.open == 1;
        drop(state);
        if first {
            self.changed.notify_one();
        }
        CallGuard {
            connection: self.clone(),
            id,
            waiting: false,
        }
    }

    /// The rules of the module notes, applied at `now`; `closing` is when
    /// the connection was sent its GOAWAY, if it was.
    fn next(&self, now: Instant, policy: &ConnectionPolicy, closing: Option<Instant>) -> Next {
        let state = self.lock();
        let mut wake: Option<Instant> = None;
        let earliest = |wake: Option<Instant>, at: Instant| Some(wake.map_or(at, |w| w.min(at)));
        if let Some(limit) = policy.send_timeout {
            if let Some(&since) = state.waiting.values().min() {
                let at = since + limit;
                if now >= at {
                    return Next::Drop(Why::Stuck(limit));
                }
                wake = earliest(wake, at);
            }
            if state.open > 0 {
                // A call may start waiting at any moment; look again soon.
                wake = earliest(wake, now + (limit / 4).max(MIN_TICK));
            }
        }
        if state.open == 0 {
            let (at, then) = match closing {
                Some(since) => (
                    since.max(state.idle_since) + CLOSE_WAIT,
                    Next::Drop(Why::NoGoodbye),
                ),
                None => {
                    let limit = if state.served {
                        policy.idle_timeout.map(|d| (d, Why::Idle(d)))
                    } else {
                        policy.handshake_timeout.map(|d| (d, Why::Handshake(d)))
                    };
                    match limit {
                        Some((limit, why)) => (state.idle_since + limit, Next::GoAway(why)),
                        None => return Next::Wait(wake),
                    }
                }
            };
            if now >= at {
                return then;
            }
            wake = earliest(wake, at);
        }
        Next::Wait(wake)
    }
}

/// One open call; dropped when its response has been sent or the call was
/// reset.
struct CallGuard {
    connection: Arc<Connection>,
    id: u64,
    waiting: bool,
}

impl CallGuard {
    /// A piece of the response went to HTTP/2: until the next is asked
    /// for, the call waits for the client.
    fn handed_out(&mut self) {
        self.waiting = true;
        self.connection
            .lock()
            .waiting
            .insert(self.id, Instant::now());
    }

    /// HTTP/2 asks for more: the last piece has gone out.
    fn taken(&mut self) {
        if std::mem::take(&mut self.waiting) {
            self.connection.lock().waiting.remove(&self.id);
        }
    }
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        let mut state = self.connection.lock();
        state.waiting.remove(&self.id);
        state.open -= 1;
        let last = state.open == 0;
        if last {
            state.idle_since = Instant::now();
        }
        drop(state);
        if last {
            self.connection.changed.notify_one();
        }
    }
}

/// The service of one connection: every call of the server, each counted
/// open from its arrival until its response is sent.
#[derive(Clone)]
struct Calls {
    inner: CallService,
    connection: Arc<Connection>,
    receive: Option<ReceiveLimit>,
    /// Where the connection comes from: what a call without a token is
    /// charged to.
    client: ClientAddress,
}

/// Whether a method's request is a stream of messages that a client may
/// send at its own pace, with no receive limit at all: a game's moves,
/// which Play bounds by the game's idle time instead, and reflection's
/// questions.
fn streams_requests(path: &str) -> bool {
    path.ends_with("/Play") || path.ends_with("/ServerReflectionInfo")
}

/// Whether `path` is a method whose request is a stream of messages (a
/// client stream, as the service's descriptors say): each of its messages
/// is timed on its own, so a stream goes on for as long as its messages
/// keep coming. Every other request is one message, timed whole.
fn streams_messages(path: &str) -> bool {
    super::methods::served_methods()
        .get(path)
        .is_some_and(|method| method.client_streaming)
}

/// How a request's arrival is timed against its [`ReceiveLimit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Timing {
    /// The whole request, from the call's arrival: a request that is one
    /// message (or one whose framing cannot be read as it arrives, a
    /// gRPC-Web text body).
    Whole,
    /// Each message of a client stream on its own, from the end of the one
    /// before (the first from the call's arrival).
    PerMessage,
}

impl Timing {
    /// How the request of `request` is timed, if at all.
    fn of<B>(request: &http::Request<B>) -> Option<Timing> {
        let path = request.uri().path();
        if streams_requests(path) {
            return None;
        }
        // A gRPC-Web text body is base64: its bytes are not the frames.
        let text = request
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("application/grpc-web-text"));
        Some(if streams_messages(path) && !text {
            Timing::PerMessage
        } else {
            Timing::Whole
        })
    }
}

/// Where a request stream stands in gRPC's framing: each message is a
/// 5-byte prefix (a flag byte, then its length, 4 bytes big-endian) and
/// that many bytes.
#[derive(Debug, Default)]
struct Framing {
    /// Bytes of the current message's prefix seen, at most 5.
    prefix_seen: u8,
    /// The length the prefix announces, as far as it has been seen.
    length: u32,
    /// Bytes of the current message's body still to come, once its prefix
    /// is whole.
    body_left: u32,
}

/// What a piece of a request stream held, as [`Framing::feed`] read it.
#[derive(Debug, PartialEq, Eq)]
struct Fed {
    /// Messages that ended within it.
    ended: u64,
    /// Its bytes after the last message that ended in it: the next one's
    /// beginning (all of it when none ended).
    after: usize,
}

impl Framing {
    fn feed(&mut self, data: &[u8]) -> Fed {
        let mut fed = Fed {
            ended: 0,
            after: data.len(),
        };
        let mut at = 0;
        while at < data.len() {
            if self.prefix_seen < 5 {
                if self.prefix_seen > 0 {
                    self.length = (self.length << 8) | u32::from(data[at]);
                }
                self.prefix_seen += 1;
                at += 1;
                if self.prefix_seen == 5 {
                    self.body_left = self.length;
                }
            } else {
                let take = (self.body_left as usize).min(data.len() - at);
                // `take` is at most `body_left`, a u32.
                self.body_left -= take as u32;
                at += take;
            }
            if self.prefix_seen == 5 && self.body_left == 0 {
                *self = Framing::default();
                fed.ended += 1;
                fed.after = data.len() - at;
            }
        }
        fed
    }
}

/// The clock of a request's arrival: when the bytes awaited run out of
/// time. Apart from the body it times so that it can be run on made-up
/// instants.
#[derive(Debug)]
struct Pace {
    limit: ReceiveLimit,
    timing: Timing,
    framing: Framing,
    /// Since when the bytes timed have been awaited: the whole request, or
    /// the current message. `None` between two messages of a stream until
    /// the server asks for the next, so that the time the server takes
    /// over one message is not charged to the client's next.
    since: Option<tokio::time::Instant>,
    /// Bytes received of what is timed.
    received: u64,
    /// Messages of the stream received whole.
    messages: u64,
}

impl Pace {
    fn new(limit: ReceiveLimit, timing: Timing, arrival: tokio::time::Instant) -> Pace {
        Pace {
            limit,
            timing,
            framing: Framing::default(),
            since: Some(arrival),
            received: 0,
            messages: 0,
        }
    }

    /// The server asks for more of the request: the time of what is
    /// awaited runs from here if it did not already. Returns when it runs
    /// out.
    fn asked(&mut self, now: impl FnOnce() -> tokio::time::Instant) -> tokio::time::Instant {
        let since = *self.since.get_or_insert_with(now);
        since + self.limit.allowance(self.received)
    }

    /// `data` of the request arrived.
    fn arrived(&mut self, data: &[u8]) {
        if self.timing == Timing::PerMessage {
            let fed = self.framing.feed(data);
            if fed.ended > 0 {
                self.messages += fed.ended;
                self.since = None;
                self.received = fed.after as u64;
                return;
            }
        }
        self.received += data.len() as u64;
    }

    /// The status of a request whose time ran out.
    fn cut_off(&self) -> Status {
        let allowed = self.limit.allowance(self.received).as_millis();
        let received = self.received;
        Status::deadline_exceeded(match self.timing {
            Timing::Whole => format!(
                "the request did not arrive within {allowed} ms ({received} bytes of it came; \
                 --receive-timeout-secs and --min-receive-bytes-per-sec set the limit)"
            ),
            Timing::PerMessage => format!(
                "message {} of the request stream did not arrive within {allowed} ms of {} \
                 ({received} bytes of it came; each message of a stream has \
                 --receive-timeout-secs plus a second per --min-receive-bytes-per-sec bytes)",
                self.messages + 1,
                if self.messages == 0 {
                    "the call's start"
                } else {
                    "the one before"
                },
            ),
        })
    }
}

/// A request body that must arrive within its [`ReceiveLimit`], as its
/// [`Timing`] counts: past it, the body ends with DEADLINE_EXCEEDED, which
/// fails the call (a request of one message never decodes; a stream's
/// handler gets the error in place of its next message) and frees what it
/// held; on HTTP/2 the connection's other calls go on.
struct ReceivingBody {
    inner: Incoming,
    pace: Pace,
    /// Fires at `armed`, when what is awaited runs out of time.
    timer: Pin<Box<tokio::time::Sleep>>,
    armed: tokio::time::Instant,
    /// The status the call ended with, once cut off (then the body ends).
    cut_off: Arc<OnceLock<Status>>,
}

impl ReceivingBody {
    fn new(
        inner: Incoming,
        limit: ReceiveLimit,
        timing: Timing,
        cut_off: Arc<OnceLock<Status>>,
    ) -> ReceivingBody {
        let arrival = tokio::time::Instant::now();
        let armed = arrival + limit.allowance(0);
        ReceivingBody {
            inner,
            pace: Pace::new(limit, timing, arrival),
            timer: Box::pin(tokio::time::sleep_until(armed)),
            armed,
            cut_off,
        }
    }
}

/// The status a call's request was cut off with, when it was: the status
/// its client gets and its log line shows, whatever the handler answered
/// after its request body failed.
#[derive(Debug, Clone, Default)]
pub(super) struct CutOff(pub(super) Arc<OnceLock<Status>>);

/// The status of a request whose body failed. A stream the client reset
/// with CANCEL is a client that left (CANCELLED, as gRPC maps the reason),
/// not a fault of the server's; tonic, which looks for the HTTP/2 error on
/// top of the error only, would call it INTERNAL.
fn body_error_status(err: hyper::Error) -> Status {
    let reason = std::iter::successors(Some(&err as &dyn std::error::Error), |e| e.source())
        .find_map(|e| e.downcast_ref::<h2::Error>())
        .and_then(h2::Error::reason);
    if reason == Some(h2::Reason::CANCEL) {
        Status::cancelled("the client cancelled the call while sending it")
    } else {
        Status::from_error(Box::new(err))
    }
}

impl http_body::Body for ReceivingBody {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        if self.cut_off.get().is_some() {
            return Poll::Ready(None);
        }
        let until = self.pace.asked(tokio::time::Instant::now);
        match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    self.pace.arrived(data);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(err))) => {
                let status = body_error_status(err);
                if status.code() == tonic::Code::Cancelled {
                    // tonic takes a cancelled request body for a short one
                    // (INTERNAL): the call's end is logged with this instead.
                    let _ = self.cut_off.set(status.clone());
                }
                Poll::Ready(Some(Err(status)))
            }
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => {
                if until != self.armed {
                    self.armed = until;
                    self.timer.as_mut().reset(until);
                }
                ready!(self.timer.as_mut().poll(cx));
                let status = self.pace.cut_off();
                let _ = self.cut_off.set(status.clone());
                Poll::Ready(Some(Err(status)))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.cut_off.get().is_some() || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Connections open per IP address, against an optional limit.
#[derive(Clone)]
struct PerAddress {
    limit: Option<usize>,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl PerAddress {
    fn new(limit: Option<usize>) -> PerAddress {
        PerAddress {
            limit,
            open: Arc::default(),
        }
    }

    /// A slot for one more connection from `address`, unless it has its
    /// limit open already.
    fn enter(&self, address: IpAddr) -> Option<AddressSlot> {
        let Some(limit) = self.limit else {
            return Some(AddressSlot { held: None });
        };
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(address).or_insert(0);
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            held: Some((self.clone(), address)),
        })
    }
}

/// One connection counted against its address until dropped.
struct AddressSlot {
    held: Option<(PerAddress, IpAddr)>,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if let Some((per_address, address)) = self.held.take() {
            let mut open = per_address
                .open
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some(count) = open.get_mut(&address) {
                *count -= 1;
                if *count == 0 {
                    open.remove(&address);
                }
            }
        }
    }
}

impl hyper::service::Service<http::Request<Incoming>> for Calls {
    type Response = http::Response<WatchedBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn call(&self, mut request: http::Request<Incoming>) -> Self::Future {
        let call = self.connection.open_call();
        let inner = self.inner.clone();
        let limit = self.receive.zip(Timing::of(&request));
        let cut_off = Arc::new(OnceLock::new());
        request.extensions_mut().insert(CutOff(cut_off.clone()));
        request.extensions_mut().insert(self.client);
        let request = match limit {
            Some((limit, timing)) => request
                .map(|body| Body::new(ReceivingBody::new(body, limit, timing, cut_off.clone()))),
            None => request.map(Body::new),
        };
        Box::pin(async move {
            let mut response = inner.oneshot(request).await?;
            // gRPC-Web's translation turns any body error into INTERNAL;
            // the status the client gets is the one the cut-off gave.
            if let Some(status) = cut_off.get()
                && response.headers().contains_key("grpc-status")
            {
                let _ = status.add_header(response.headers_mut());
            }
            Ok(response.map(|body| WatchedBody::new(body, call)))
        })
    }
}

/// A response body handed to HTTP/2 in pieces of at most [`PIECE`] bytes,
/// each timed from when it is handed out until HTTP/2 asks for the next
/// (which it does once the one before has gone out).
struct WatchedBody {
    inner: Body,
    /// The rest of a data frame larger than a piece.
    rest: Bytes,
    call: CallGuard,
}

impl WatchedBody {
    fn new(inner: Body, call: CallGuard) -> WatchedBody {
        WatchedBody {
            inner,
            rest: Bytes::new(),
            call,
        }
    }

    fn hand_out(&mut self, mut data: Bytes) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        if data.len() > PIECE {
            self.rest = data.split_off(PIECE);
        }
        if !data.is_empty() {
            self.call.handed_out();
        }
        Poll::Ready(Some(Ok(Frame::data(data))))
    }
}

impl http_body::Body for WatchedBody {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        let this = self.get_mut();
        this.call.taken();
        if !this.rest.is_empty() {
            let rest = std::mem::take(&mut this.rest);
            return this.hand_out(rest);
        }
        match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
            Some(Ok(frame)) => match frame.into_data() {
                Ok(data) => this.hand_out(data),
                Err(frame) => Poll::Ready(Some(Ok(frame))),
            },
            other => Poll::Ready(other),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty() && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        let inner = self.inner.size_hint();
        let rest = self.rest.len() as u64;
        let mut hint = http_body::SizeHint::new();
        hint.set_lower(inner.lower() + rest);
        if let Some(upper) = inner.upper() {
            hint.set_upper(upper + rest);
        }
        hint
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> ConnectionPolicy {
        ConnectionPolicy {
            max_connections: 10,
            max_connections_per_address: None,
            receive: None,
            max_concurrent_streams: 10,
            handshake_timeout: Some(Duration::from_secs(2)),
            idle_timeout: Some(Duration::from_secs(5)),
            send_timeout: Some(Duration::from_secs(4)),
            keepalive_interval: None,
            keepalive_timeout: Duration::from_secs(1),
        }
    }

    #[test]
    fn a_new_connection_has_the_handshake_timeout_then_the_idle_one() {
        let t0 = Instant::now();
        let connection = Arc::new(Connection::new(t0));
        let policy = policy();
        let s = Duration::from_secs;
        assert_eq!(
            connection.next(t0, &policy, None),
            Next::Wait(Some(t0 + s(2)))
        );
        assert_eq!(
            connection.next(t0 + s(2), &policy, None),
            Next::GoAway(Why::Handshake(s(2)))
        );
        let call = connection.open_call();
        // Busy: looked at every quarter of the send timeout.
        assert_eq!(
            connection.next(t0, &policy, None),
            Next::Wait(Some(t0 + s(1)))
        );
        drop(call);
        let idle_since = connection.lock().idle_since;
        assert_eq!(
            connection.next(idle_since, &policy, None),
            Next::Wait(Some(idle_since + s(5)))
        );
        assert_eq!(
            connection.next(idle_since + s(5), &policy, None),
            Next::GoAway(Why::Idle(s(5)))
        );
        // After its GOAWAY, a connection with no call is dropped soon.
        let closing = idle_since + s(5);
        assert_eq!(
            connection.next(closing, &policy, Some(closing)),
            Next::Wait(Some(closing + CLOSE_WAIT))
        );
        assert_eq!(
            connection.next(closing + CLOSE_WAIT, &policy, Some(closing)),
            Next::Drop(Why::NoGoodbye)
        );
    }

    /// `body` framed as one gRPC message.
    fn framed(body: &[u8]) -> Vec<u8> {
        let mut framed = vec![0];
        framed.extend(u32::try_from(body.len()).unwrap().to_be_bytes());
        framed.extend(body);
        framed
    }

    #[test]
    fn the_framing_finds_each_message_end_however_the_bytes_are_cut() {
        let mut stream = framed(b"abc");
        stream.extend(framed(b""));
        stream.extend(framed(&[7; 300]));
        stream.extend(&framed(b"xy")[..3]);
        // The three messages end at these offsets; the fourth has begun.
        let ends = [8, 13, 318];
        for cut in 1..stream.len() {
            let mut framing = Framing::default();
            let mut seen = Vec::new();
            for (offset, piece) in [(0, &stream[..cut]), (cut, &stream[cut..])] {
                let fed = framing.feed(piece);
                let last_end = offset + piece.len() - fed.after;
                let in_piece: Vec<usize> = ends
                    .iter()
                    .copied()
                    .filter(|&end| end > offset && end <= offset + piece.len())
                    .collect();
                assert_eq!(fed.ended, in_piece.len() as u64, "cut at {cut}");
                if let Some(&end) = in_piece.last() {
                    assert_eq!(last_end, end, "cut at {cut}");
                } else {
                    assert_eq!(fed.after, piece.len(), "cut at {cut}");
                }
                seen.extend(in_piece);
            }
            assert_eq!(seen, ends, "cut at {cut}");
            assert_eq!(framing.prefix_seen, 3, "cut at {cut}");
        }
    }

    fn limit() -> ReceiveLimit {
        ReceiveLimit {
            base: Duration::from_secs(2),
            min_bytes_per_sec: 100,
        }
    }

    #[test]
    fn a_whole_request_is_timed_from_the_arrival_by_the_bytes_received() {
        let t0 = tokio::time::Instant::now();
        let s = Duration::from_secs;
        let mut pace = Pace::new(limit(), Timing::Whole, t0);
        assert_eq!(pace.asked(|| t0 + s(1)), t0 + s(2));
        for second in 1..=5 {
            pace.arrived(&framed(&[0; 95]));
            // A message ending resets nothing: the request is timed whole.
            assert_eq!(pace.asked(|| t0 + s(second)), t0 + s(2 + second));
        }
        let status = pace.cut_off();
        assert_eq!(status.code(), tonic::Code::DeadlineExceeded);
        assert!(
            status
                .message()
                .starts_with("the request did not arrive within 7000 ms (500 bytes of it came;"),
            "{}",
            status.message()
        );
    }

    #[test]
    fn each_message_of_a_stream_is_timed_from_the_end_of_the_one_before() {
        let t0 = tokio::time::Instant::now();
        let s = Duration::from_secs;
        let mut pace = Pace::new(limit(), Timing::PerMessage, t0);
        assert!(
            pace.cut_off().message().starts_with(
                "message 1 of the request stream did not arrive within 2000 ms of the call's start"
            ),
            "{}",
            pace.cut_off().message()
        );
        // A message a second for a minute: each is due two seconds after
        // the one before, however long the stream has gone on.
        for second in 1..=60 {
            let asked_at = t0 + s(second - 1);
            assert_eq!(pace.asked(|| asked_at), asked_at + s(2), "second {second}");
            pace.arrived(&framed(b"a puzzle"));
        }
        // A message's bytes earn it time as they come, as for a request
        // of one message.
        let asked_at = t0 + s(60);
        assert_eq!(pace.asked(|| asked_at), asked_at + s(2));
        let big = framed(&[0; 295]);
        pace.arrived(&big[..100]);
        assert_eq!(pace.asked(|| asked_at + s(1)), asked_at + s(3));
        pace.arrived(&big[100..]);
        // The server took ten seconds over that message before asking for
        // the next: the next one's time starts when it asks.
        let asked_at = t0 + s(71);
        assert_eq!(pace.asked(|| asked_at), asked_at + s(2));
        assert_eq!(pace.asked(|| asked_at + s(1)), asked_at + s(2));
        // The next message began in the piece that ended the one before:
        // its bytes count from the start.
        let mut two = framed(&[0; 195]);
        two.extend(&framed(&[0; 95])[..50]);
        pace.arrived(&two);
        let asked_at = t0 + s(72);
        assert_eq!(
            pace.asked(|| asked_at),
            asked_at + Duration::from_millis(2500)
        );
        let status = pace.cut_off();
        assert_eq!(status.code(), tonic::Code::DeadlineExceeded);
        assert!(
            status.message().starts_with(
                "message 63 of the request stream did not arrive within 2500 ms of the one \
                 before (50 bytes of it came;"
            ),
            "{}",
            status.message()
        );
    }

    #[test]
    fn only_client_streams_are_timed_per_message() {
        let timing = |path: &str, content_type: &str| {
            let request = http::Request::post(path)
                .header("content-type", content_type)
                .body(())
                .unwrap();
            Timing::of(&request)
        };
        let service = "/puzzled.v1.PuzzleService";
        let grpc = "application/grpc";
        assert_eq!(
            timing(&format!("{service}/ImportPuzzles"), grpc),
            Some(Timing::PerMessage)
        );
        assert_eq!(
            timing(
                &format!("{service}/ImportPuzzles"),
                "application/grpc-web+proto"
            ),
            Some(Timing::PerMessage)
        );
        assert_eq!(
            timing(
                &format!("{service}/ImportPuzzles"),
                "application/grpc-web-text"
            ),
            Some(Timing::Whole)
        );
        for method in ["CreatePuzzle", "Solve", "ExportPuzzles", "GeneratePuzzles"] {
            assert_eq!(
                timing(&format!("{service}/{method}"), grpc),
                Some(Timing::Whole),
                "{method}"
            );
        }
        assert_eq!(
            timing("/grpc.health.v1.Health/Check", grpc),
            Some(Timing::Whole)
        );
        assert_eq!(timing("/made.up.Service/Method", grpc), Some(Timing::Whole));
        assert_eq!(timing(&format!("{service}/Play"), grpc), None);
        assert_eq!(
            timing(
                "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                grpc
            ),
            None
        );
    }

    #[test]
    fn a_response_that_waits_too_long_drops_the_connection() {
        let t0 = Instant::now();
        let connection = Arc::new(Connection::new(t0));
        let policy = policy();
        let mut call = connection.open_call();
        call.handed_out();
        let since = connection.lock().waiting[&call.id];
        assert_eq!(
            connection.next(since + Duration::from_secs(4), &policy, None),
            Next::Drop(Why::Stuck(Duration::from_secs(4)))
        );
        call.taken();
        assert!(matches!(
            connection.next(since + Duration::from_secs(4), &policy, None),
            Next::Wait(Some(_))
        ));
    }
}
