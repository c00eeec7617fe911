//! The connections themselves, driven over plain TCP and HTTP/2 (the `h2`
//! crate) so that a test controls every byte and every read: handshake and
//! idle timeouts, the advertised stream limit, the connection cap, clients
//! that stop reading, keepalive pings, and shutdown with idle connections.

use std::time::{Duration, Instant};

use bytes::Bytes;
use h2::client::SendRequest;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

use super::helpers::*;

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/// How long a test waits for what the server must do before it counts as
/// hung. Only a hang guard, never the property tested: the timeouts under
/// test are a second or two, and a loaded machine may take many times
/// that to act on them. What each test claims is stated without an upper
/// bound on the clock: the connection closes (and without the timeout
/// under test it never would), and not before its timeout (a lower bound,
/// which a slow machine only makes longer).
const HANG_GUARD: Duration = Duration::from_secs(60);
/// A timer may round a deadline of a second to the millisecond, and the
/// test's clock starts a little after the server's: the least a timeout of
/// a second can be seen to take.
const ONE_SECOND_AT_LEAST: Duration = Duration::from_millis(900);

type Driver = JoinHandle<Result<(), h2::Error>>;

/// An HTTP/2 connection with its driver running in a task of its own.
async fn h2_connect(app: &TestApp, builder: &h2::client::Builder) -> (SendRequest<Bytes>, Driver) {
    let tcp = TcpStream::connect(app.addr()).await.unwrap();
    let (send, connection) = builder.handshake(tcp).await.unwrap();
    (send, tokio::spawn(connection))
}

/// A gRPC request for `path` with one message.
async fn grpc_request(
    send: &SendRequest<Bytes>,
    path: &str,
    message: &[u8],
) -> (h2::client::ResponseFuture, h2::SendStream<Bytes>) {
    let mut send = send.clone().ready().await.unwrap();
    let request = http::Request::post(format!("http://localhost{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap();
    let (response, mut body) = send.send_request(request, false).unwrap();
    let mut frame = vec![0u8];
    frame.extend((message.len() as u32).to_be_bytes());
    frame.extend(message);
    body.send_data(frame.into(), true).unwrap();
    (response, body)
}

/// `grpc.health.v1.Health/Check` for the whole server; its `grpc-status`.
async fn health_check(send: &SendRequest<Bytes>) -> String {
    let (response, _body) = grpc_request(send, "/grpc.health.v1.Health/Check", &[]).await;
    let mut body = response.await.unwrap().into_body();
    while let Some(data) = body.data().await {
        let data = data.unwrap();
        body.flow_control().release_capacity(data.len()).unwrap();
    }
    let trailers = body.trailers().await.unwrap().expect("trailers");
    trailers["grpc-status"].to_str().unwrap().to_owned()
}

/// Reads until the server closes the connection; what it sent and when the
/// connection ended.
async fn read_until_closed(tcp: &mut TcpStream) -> (Vec<u8>, Instant) {
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tcp.read(&mut buf).await {
            Ok(0) | Err(_) => return (received, Instant::now()),
            Ok(n) => received.extend_from_slice(&buf[..n]),
        }
    }
}

/// The frame types in a run of HTTP/2 frames.
fn frame_types(mut bytes: &[u8]) -> Vec<u8> {
    let mut types = Vec::new();
    while bytes.len() >= 9 {
        let len = u32::from_be_bytes([0, bytes[0], bytes[1], bytes[2]]) as usize;
        types.push(bytes[3]);
        bytes = &bytes[(9 + len).min(bytes.len())..];
    }
    types
}

const GOAWAY: u8 = 0x7;

/// A connection that sends nothing at all is closed once the handshake
/// timeout has passed (and the GOAWAY it was sent had its moment).
#[tokio::test]
async fn a_silent_connection_is_closed_after_the_handshake_timeout() {
    let app = app_with(|c| c.handshake_timeout_secs = 1).await;
    let mut tcp = TcpStream::connect(app.addr()).await.unwrap();
    let opened = Instant::now();
    let (_, closed) = tokio::time::timeout(HANG_GUARD, read_until_closed(&mut tcp))
        .await
        .expect("the server closes the connection");
    let open_for = closed - opened;
    assert!(open_for >= ONE_SECOND_AT_LEAST, "closed after {open_for:?}");
    app.stop().await;
}

/// A connection that sends the HTTP/2 preface and nothing more gets a
/// GOAWAY after the handshake timeout, then is closed.
#[tokio::test]
async fn a_preface_only_connection_gets_a_goaway_and_is_closed() {
    use tokio::io::AsyncWriteExt;
    let app = app_with(|c| c.handshake_timeout_secs = 1).await;
    let mut tcp = TcpStream::connect(app.addr()).await.unwrap();
    let opened = Instant::now();
    tcp.write_all(PREFACE).await.unwrap();
    let (received, closed) = tokio::time::timeout(HANG_GUARD, read_until_closed(&mut tcp))
        .await
        .expect("the server closes the connection");
    let open_for = closed - opened;
    assert!(open_for >= ONE_SECOND_AT_LEAST, "closed after {open_for:?}");
    let types = frame_types(&received);
    assert!(types.contains(&GOAWAY), "frames {types:?}");
    app.stop().await;
}

/// A full HTTP/2 handshake with no request after it is no better: the
/// server sends a GOAWAY, and a well-behaved client's connection ends.
#[tokio::test]
async fn a_client_that_never_asks_is_sent_away() {
    let app = app_with(|c| c.handshake_timeout_secs = 1).await;
    let opened = Instant::now();
    let (_send, driver) = h2_connect(&app, &h2::client::Builder::new()).await;
    let ended = tokio::time::timeout(HANG_GUARD, driver)
        .await
        .expect("the connection ends")
        .unwrap();
    let open_for = opened.elapsed();
    assert!(open_for >= ONE_SECOND_AT_LEAST, "closed after {open_for:?}");
    eprintln!("the connection ended with {ended:?}");
    app.stop().await;
}

/// The idle timeout counts from the last open call: a connection with a
/// server stream open (Health/Watch) stays past it, one whose only call
/// ended is sent away, and so is the first once its stream is closed.
#[tokio::test]
async fn idle_connections_close_and_busy_ones_stay() {
    let app = app_with(|c| {
        c.idle_timeout_secs = 1;
        c.handshake_timeout_secs = 60;
    })
    .await;
    let builder = h2::client::Builder::new();

    let (watching, watching_driver) = h2_connect(&app, &builder).await;
    let (response, watch_request) =
        grpc_request(&watching, "/grpc.health.v1.Health/Watch", &[]).await;
    let mut watch = response.await.unwrap().into_body();
    let first = watch.data().await.expect("a first status").unwrap();
    assert!(!first.is_empty());

    let (checking, checking_driver) = h2_connect(&app, &builder).await;
    assert_eq!(health_check(&checking).await, "0");
    let checked = Instant::now();

    tokio::time::timeout(HANG_GUARD, checking_driver)
        .await
        .expect("the idle connection is closed")
        .unwrap()
        .ok();
    assert!(checked.elapsed() >= ONE_SECOND_AT_LEAST);
    // The watching connection's last call began before the checking one's,
    // so had it counted as idle it would have been sent away first. This
    // wait is not an ordering: it gives the server room to get it wrong,
    // more than its idle timeout again. Nothing else closes the
    // connection, so a slow machine cannot fail this check, only delay
    // the mistake it looks for.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(
        !watching_driver.is_finished(),
        "a connection with an open stream is not idle"
    );

    drop((watch, watch_request));
    tokio::time::timeout(HANG_GUARD, watching_driver)
        .await
        .expect("idle once its stream closed, the connection is closed")
        .unwrap()
        .ok();
    app.stop().await;
}

/// The server advertises `--max-concurrent-streams` in its SETTINGS.
#[tokio::test]
async fn the_stream_limit_is_advertised() {
    let app = app_with(|c| c.max_concurrent_streams = 7).await;
    let (send, _driver) = h2_connect(&app, &h2::client::Builder::new()).await;
    // A round trip, so the server's SETTINGS have been read.
    assert_eq!(health_check(&send).await, "0");
    assert_eq!(send.current_max_send_streams(), 7);
    app.stop().await;
}

/// At the connection cap a new connection is not served; it is as soon as
/// another one closes.
#[tokio::test]
async fn connections_past_the_cap_wait_until_one_closes() {
    let app = app_with(|c| c.max_connections = 2).await;
    // The test client's own channel is the first connection.
    until(|| app.connections_open.get() == 1).await;
    let builder = h2::client::Builder::new();
    let (second, second_driver) = h2_connect(&app, &builder).await;
    assert_eq!(health_check(&second).await, "0");
    assert_eq!(app.connections_open.get(), 2);

    let (third, _third_driver) = h2_connect(&app, &builder).await;
    let waiting = tokio::spawn(async move { health_check(&third).await });
    // Room for the server to serve the third by mistake (the connection
    // waits in the listen backlog, where the server shows nothing): a slow
    // machine can only delay the mistake, not fail the check.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(
        !waiting.is_finished(),
        "a connection past the cap was served"
    );
    assert_eq!(app.connections_open.get(), 2);

    second_driver.abort();
    drop(second);
    let status = tokio::time::timeout(HANG_GUARD, waiting)
        .await
        .expect("served once a connection closed")
        .unwrap();
    assert_eq!(status, "0");
    assert_eq!(app.connections_open.get(), 2);
    app.stop().await;
}

/// A stored puzzle whose full view is a few hundred kilobytes.
async fn large_puzzle(app: &TestApp, edges: usize) -> String {
    let n = 50_000;
    app.client
        .clone()
        .create_puzzle(create_request(geography(n, &random_graph(n, edges, 21), 0)))
        .await
        .unwrap()
        .into_inner()
        .name
}

fn get_puzzle(name: &str) -> Vec<u8> {
    use prost::Message as _;
    proto::GetPuzzleRequest {
        name: name.to_owned(),
        ..Default::default()
    }
    .encode_to_vec()
}

/// A client that asks for a large response and never opens its receive
/// window: once the response has waited the send timeout, the server drops
/// the connection (and the response it held), and serves others as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_response_nobody_reads_is_dropped() {
    let app = app_with(|c| c.send_timeout_secs = 1).await;
    let name = large_puzzle(&app, 100_000).await;
    let mut never_reads = h2::client::Builder::new();
    never_reads.initial_window_size(0);
    let (send, driver) = h2_connect(&app, &never_reads).await;
    let (response, _request) = grpc_request(
        &send,
        "/puzzled.v1.PuzzleService/GetPuzzle",
        &get_puzzle(&name),
    )
    .await;
    let response = response.await.expect("the response headers come through");
    let asked = Instant::now();
    let mut body = response.into_body();
    let outcome = tokio::time::timeout(HANG_GUARD, body.data())
        .await
        .expect("the stream ends");
    assert!(
        matches!(outcome, Some(Err(_)) | None),
        "no data can have come: {outcome:?}"
    );
    let waited = asked.elapsed();
    assert!(waited >= ONE_SECOND_AT_LEAST, "dropped after {waited:?}");
    tokio::time::timeout(HANG_GUARD, driver)
        .await
        .expect("the connection is closed")
        .unwrap()
        .ok();
    // The server's side is gone too: only the test client's channel is left.
    until(|| app.connections_open.get() == 1).await;
    app.client
        .clone()
        .get_puzzle(proto::GetPuzzleRequest {
            name,
            ..Default::default()
        })
        .await
        .expect("a client that reads gets the same puzzle");
    app.stop().await;
}

/// The send timeout is about progress, not the whole response: a client
/// that reads slowly but steadily (its 16 KiB window opened again a tenth
/// of the timeout after each piece of data) gets its whole response
/// although that takes longer than the timeout. How much longer is counted,
/// not timed: the pauses alone add up to more than two timeouts. The pause is
/// short against the timeout so that a loaded machine, which stretches it,
/// does not make this reader look stuck.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_but_steady_reader_is_served() {
    const SEND_TIMEOUT: Duration = Duration::from_secs(1);
    const PAUSE: Duration = Duration::from_millis(100);
    let app = app_with(|c| c.send_timeout_secs = SEND_TIMEOUT.as_secs()).await;
    let name = large_puzzle(&app, 40_000).await;
    let mut slow = h2::client::Builder::new();
    slow.initial_window_size(16 * 1024);
    let (send, _driver) = h2_connect(&app, &slow).await;
    let (response, _request) = grpc_request(
        &send,
        "/puzzled.v1.PuzzleService/GetPuzzle",
        &get_puzzle(&name),
    )
    .await;
    let mut body = response.await.unwrap().into_body();
    let started = Instant::now();
    let (mut received, mut pauses) = (0, 0u32);
    while let Some(data) = body.data().await {
        let data = data.expect("the response keeps coming");
        received += data.len();
        tokio::time::sleep(PAUSE).await;
        pauses += 1;
        body.flow_control().release_capacity(data.len()).unwrap();
    }
    let trailers = body.trailers().await.unwrap().expect("trailers");
    assert_eq!(trailers["grpc-status"], "0");
    eprintln!("{received} bytes after {pauses} pauses");
    assert!(
        PAUSE * pauses > 2 * SEND_TIMEOUT,
        "{received} bytes in {pauses} pieces: too few for the pauses to outlast the timeout"
    );
    // Implied by the pauses (a sleep is never shorter than asked).
    assert!(started.elapsed() > 2 * SEND_TIMEOUT);
    app.stop().await;
}

/// Keepalive pings find a client that has stopped answering (here: it no
/// longer reads its connection at all) although a stream is open on it.
#[tokio::test]
async fn a_client_that_stops_answering_pings_is_closed() {
    let app = app_with(|c| {
        c.keepalive_interval_secs = 1;
        c.keepalive_timeout_secs = 1;
        c.send_timeout_secs = 0;
    })
    .await;
    until(|| app.connections_open.get() == 1).await;
    let tcp = TcpStream::connect(app.addr()).await.unwrap();
    let (send, mut connection) = h2::client::handshake(tcp).await.unwrap();
    let (response, _request) = grpc_request(&send, "/grpc.health.v1.Health/Watch", &[]).await;
    // Drive the connection until the stream is open, then stop reading it.
    let response = tokio::select! {
        response = response => response.unwrap(),
        ended = &mut connection => panic!("the connection ended: {ended:?}"),
    };
    assert_eq!(app.connections_open.get(), 2);
    let stopped = Instant::now();
    until(|| app.connections_open.get() <= 1).await;
    assert!(stopped.elapsed() >= ONE_SECOND_AT_LEAST);
    drop((response, connection));
    app.stop().await;
}

/// Shutdown does not wait on connections with no call open: with a silent
/// TCP connection and an idle HTTP/2 one open, a shutdown whose grace
/// period is an hour is over long before it (in about a second, the time
/// an idle connection gets to answer its GOAWAY); the test's hang guard is
/// a minute.
#[tokio::test]
async fn idle_connections_do_not_hold_up_shutdown() {
    let app = app_with(|c| c.shutdown_grace_secs = 3600).await;
    let _silent = TcpStream::connect(app.addr()).await.unwrap();
    let (idle, _driver) = h2_connect(&app, &h2::client::Builder::new()).await;
    assert_eq!(health_check(&idle).await, "0");
    until(|| app.connections_open.get() == 3).await;
    tokio::time::timeout(HANG_GUARD, app.stop())
        .await
        .expect("the shutdown did not wait out the grace period");
}

/// An HTTP/1.1 gRPC-Web request whose body never finishes (a million bytes
/// announced, two sent, then silence) is answered DEADLINE_EXCEEDED once
/// its receive time has passed, and its connection closes; before that it
/// is not answered. Without the limit it would hold the connection for
/// ever.
#[tokio::test]
async fn an_unfinished_request_body_is_cut_off() {
    use tokio::io::AsyncWriteExt;
    let app = app_with(|c| c.receive_timeout_secs = 1).await;
    let mut tcp = TcpStream::connect(app.addr()).await.unwrap();
    let started = Instant::now();
    tcp.write_all(
        b"POST /puzzled.v1.PuzzleService/Solve HTTP/1.1\r\nhost: localhost\r\n\
          content-type: application/grpc-web+proto\r\nx-grpc-web: 1\r\n\
          content-length: 1000000\r\n\r\n\0\0",
    )
    .await
    .unwrap();
    let (received, closed_at) = tokio::time::timeout(HANG_GUARD, read_until_closed(&mut tcp))
        .await
        .expect("the connection was held open");
    let response = String::from_utf8_lossy(&received).to_lowercase();
    assert!(response.starts_with("http/1.1 200"), "{response}");
    assert!(response.contains("grpc-status: 4"), "{response}");
    assert!(
        response.contains("did%20not%20arrive%20within"),
        "{response}"
    );
    assert!(closed_at - started >= ONE_SECOND_AT_LEAST);
    app.stop().await;
}

/// The `grpc-status` of a response: in its headers when it has no
/// message, otherwise in its trailers.
async fn grpc_status(response: http::Response<h2::RecvStream>) -> String {
    if let Some(status) = response.headers().get("grpc-status") {
        return status.to_str().unwrap().to_owned();
    }
    let mut body = response.into_body();
    while let Some(data) = body.data().await {
        let data = data.unwrap();
        body.flow_control().release_capacity(data.len()).unwrap();
    }
    let trailers = body.trailers().await.unwrap().expect("trailers");
    trailers["grpc-status"].to_str().unwrap().to_owned()
}

/// On HTTP/2 a request trickling in is cut off on its own: the stream ends
/// DEADLINE_EXCEEDED, and calls on the same connection, before and after,
/// are answered. A large request that keeps arriving at the least rate is
/// not cut off however long it takes: its time grows with what it sent.
#[tokio::test]
async fn a_trickling_request_fails_alone_and_a_steady_one_is_served() {
    let app = app_with(|c| {
        c.receive_timeout_secs = 1;
        c.min_receive_bytes_per_sec = 200;
    })
    .await;
    let builder = h2::client::Builder::new();
    let (send, _driver) = h2_connect(&app, &builder).await;
    assert_eq!(health_check(&send).await, "0");

    // Announces a 100,000-byte message and sends 10 bytes of it.
    let mut ready = send.clone().ready().await.unwrap();
    let request = http::Request::post("http://localhost/puzzled.v1.PuzzleService/Solve")
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap();
    let (response, mut body) = ready.send_request(request, false).unwrap();
    let mut prefix = vec![0u8];
    prefix.extend(100_000u32.to_be_bytes());
    prefix.extend([0u8; 5]);
    body.send_data(prefix.into(), false).unwrap();
    let started = Instant::now();
    let response = tokio::time::timeout(HANG_GUARD, response)
        .await
        .expect("the trickling request was never answered")
        .unwrap();
    assert_eq!(grpc_status(response).await, "4");
    assert!(started.elapsed() >= Duration::from_millis(900));
    assert_eq!(
        health_check(&send).await,
        "0",
        "the connection went down with it"
    );

    // Steady: a GetPuzzle of 3,000 bytes sent a hundred bytes at a time,
    // a tenth of a second apart: five times the least rate, but longer in
    // all than the base second. It is answered by the handler (NOT_FOUND
    // or INVALID_ARGUMENT), not cut off.
    let name = format!("puzzles/{}", "x".repeat(2990));
    let message = {
        use prost::Message as _;
        proto::GetPuzzleRequest { name, view: 0 }.encode_to_vec()
    };
    let mut framed = vec![0u8];
    framed.extend((message.len() as u32).to_be_bytes());
    framed.extend(&message);
    let mut ready = send.clone().ready().await.unwrap();
    let request = http::Request::post("http://localhost/puzzled.v1.PuzzleService/GetPuzzle")
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap();
    let (response, mut body) = ready.send_request(request, false).unwrap();
    let chunks: Vec<Vec<u8>> = framed.chunks(100).map(<[u8]>::to_vec).collect();
    let last = chunks.len() - 1;
    for (i, chunk) in chunks.into_iter().enumerate() {
        body.send_data(chunk.into(), i == last).unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let response = tokio::time::timeout(HANG_GUARD, response)
        .await
        .expect("answered")
        .unwrap();
    let status = grpc_status(response).await;
    assert_ne!(status, "4", "a steady request was cut off");
    app.stop().await;
}

/// One address may hold at most `--max-connections-per-address`
/// connections: past it a new one is closed at once, while the others
/// keep being served; once one closes, a new one is served again.
#[tokio::test]
async fn one_address_cannot_take_every_connection() {
    let app = app_with(|c| c.max_connections_per_address = 2).await;
    // The test client's own channel is the first connection.
    until(|| app.connections_open.get() == 1).await;
    let builder = h2::client::Builder::new();
    let (second, second_driver) = h2_connect(&app, &builder).await;
    assert_eq!(health_check(&second).await, "0");

    // A third asks for its health: closed before it is answered.
    let third = async {
        let tcp = TcpStream::connect(app.addr()).await.unwrap();
        let (send, connection) = builder.handshake::<_, Bytes>(tcp).await?;
        tokio::spawn(connection);
        let mut send = send.ready().await?;
        let request = http::Request::post("http://localhost/grpc.health.v1.Health/Check")
            .header("content-type", "application/grpc")
            .header("te", "trailers")
            .body(())
            .unwrap();
        let (response, mut body) = send.send_request(request, false)?;
        body.send_data(Bytes::from_static(&[0, 0, 0, 0, 0]), true)?;
        response.await.map(|_| ())
    };
    let third: Result<(), h2::Error> = tokio::time::timeout(HANG_GUARD, third)
        .await
        .expect("a connection past the address's limit was held");
    assert!(
        third.is_err(),
        "a connection past the address's limit was served"
    );
    assert_eq!(health_check(&second).await, "0");

    second_driver.abort();
    drop(second);
    until(|| app.connections_open.get() == 1).await;
    let (fourth, _fourth_driver) = h2_connect(&app, &builder).await;
    assert_eq!(health_check(&fourth).await, "0");
    app.stop().await;
}
