//! The `puzzled` binary as the Dockerfile and docker-compose.yml run it:
//! `serve` configured by environment variables, `healthcheck`, and a clean
//! exit on SIGTERM.

use std::process::{Command, Stdio};

use crate::helpers::{Serving, listen_address, on_a_channel, serve, signal_process};

const BIN: &str = env!("CARGO_BIN_EXE_puzzled");

/// A server logging JSON at info level on stdout, on a fresh database, with
/// the address its first line names and the rest of its lines to read.
struct JsonLoggingServer {
    server: Serving,
    addr: String,
    _dir: tempfile::TempDir,
}

impl JsonLoggingServer {
    fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let db = format!("sqlite://{}", dir.path().join("data.db").display());
        let server = serve(
            &["--listen", "127.0.0.1:0", "--database", &db],
            &[("PUZZLED_LOG_FORMAT", "json"), ("PUZZLED_LOG", "info")],
        );
        let first: serde_json::Value =
            serde_json::from_str(&server.start_up[0]).expect("a JSON line");
        let addr = listen_address(first["fields"]["message"].as_str().unwrap());
        JsonLoggingServer {
            server,
            addr,
            _dir: dir,
        }
    }

    /// Stops the server with SIGTERM and returns every line it logged after
    /// the first.
    fn stop(mut self) -> Vec<String> {
        self.server.signal("TERM");
        assert!(self.server.child.wait().unwrap().success());
        self.server.lines.map_while(Result::ok).collect()
    }
}

#[test]
fn serve_from_env_vars_answers_healthcheck_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("data.db");
    let Serving {
        child: mut server,
        start_up,
        addr,
        lines,
    } = serve(
        &[],
        &[
            ("PUZZLED_LISTEN", "127.0.0.1:0"),
            (
                "PUZZLED_DATABASE_URL",
                &format!("sqlite://{}", db.display()),
            ),
            ("PUZZLED_LOG", "info"),
            ("NO_COLOR", "1"),
        ],
    );
    let first = &start_up[0];
    assert!(
        first.contains(&db.display().to_string()),
        "the line names the store: {first}"
    );

    let health = Command::new(BIN)
        .args(["healthcheck", "--addr", &format!("http://{addr}")])
        .output()
        .unwrap();
    assert!(health.status.success(), "{health:?}");
    assert_eq!(String::from_utf8_lossy(&health.stdout).trim(), "SERVING");

    assert!(signal_process(&server, "TERM").success());
    let status = server.wait().unwrap();
    assert!(status.success(), "clean exit on SIGTERM: {status:?}");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.contains("store closed")), "{rest:?}");
    assert!(db.exists());

    let down = Command::new(BIN)
        .args([
            "healthcheck",
            "--addr",
            &format!("http://{addr}"),
            "--timeout-secs",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        !down.status.success(),
        "healthcheck fails when nothing serves"
    );
}

/// `healthcheck --wait-secs` asks again until a service that is still
/// starting serves (the README's cluster recipe waits for its replicas
/// so), and gives up after its seconds with the last failure.
#[test]
fn healthcheck_waits_for_a_service_that_is_still_starting() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let waiting = Command::new(BIN)
        .args([
            "healthcheck",
            "--addr",
            &format!("http://{addr}"),
            "--wait-secs",
            "60",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let mut server = Command::new(BIN)
        .args(["serve", "--listen", &addr, "--database", "sqlite::memory:"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let waited = waiting.wait_with_output().unwrap();
    let _ = server.kill();
    let _ = server.wait();
    assert!(waited.status.success(), "{waited:?}");
    assert_eq!(String::from_utf8_lossy(&waited.stdout).trim(), "SERVING");

    let started = std::time::Instant::now();
    let gave_up = Command::new(BIN)
        .args([
            "healthcheck",
            "--addr",
            &format!("http://{addr}"),
            "--wait-secs",
            "1",
        ])
        .output()
        .unwrap();
    assert!(!gave_up.status.success());
    assert!(
        String::from_utf8_lossy(&gave_up.stderr).contains("Connection refused"),
        "{gave_up:?}"
    );
    assert!(started.elapsed() >= std::time::Duration::from_secs(1));
}

#[test]
fn serve_help_lists_every_flag_and_its_variable() {
    let out = Command::new(BIN)
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for (flag, var) in [
        ("--listen", "PUZZLED_LISTEN"),
        ("--database", "PUZZLED_DATABASE_URL"),
        ("--database-pool-size", "PUZZLED_DATABASE_POOL_SIZE"),
        (
            "--database-acquire-timeout-ms",
            "PUZZLED_DATABASE_ACQUIRE_TIMEOUT_MS",
        ),
        ("--max-vertices", "PUZZLED_MAX_VERTICES"),
        ("--max-edges", "PUZZLED_MAX_EDGES"),
        ("--max-message-bytes", "PUZZLED_MAX_MESSAGE_BYTES"),
        ("--solve-workers", "PUZZLED_SOLVE_WORKERS"),
        ("--solve-queue", "PUZZLED_SOLVE_QUEUE"),
        ("--solve-queue-per-caller", "PUZZLED_SOLVE_QUEUE_PER_CALLER"),
        ("--cache-bytes", "PUZZLED_CACHE_BYTES"),
        ("--admin-token", "PUZZLED_ADMIN_TOKEN"),
        ("--tls-cert", "PUZZLED_TLS_CERT"),
        ("--tls-key", "PUZZLED_TLS_KEY"),
        ("--writer-tokens-file", "PUZZLED_WRITER_TOKENS_FILE"),
        ("--writer-tokens", "PUZZLED_WRITER_TOKENS"),
        ("--write-rate-per-minute", "PUZZLED_WRITE_RATE_PER_MINUTE"),
        ("--write-burst", "PUZZLED_WRITE_BURST"),
        ("--work-secs-per-minute", "PUZZLED_WORK_SECS_PER_MINUTE"),
        ("--work-burst-secs", "PUZZLED_WORK_BURST_SECS"),
        ("--shutdown-grace-secs", "PUZZLED_SHUTDOWN_GRACE_SECS"),
        ("--max-connections", "PUZZLED_MAX_CONNECTIONS"),
        ("--max-concurrent-streams", "PUZZLED_MAX_CONCURRENT_STREAMS"),
        ("--handshake-timeout-secs", "PUZZLED_HANDSHAKE_TIMEOUT_SECS"),
        ("--idle-timeout-secs", "PUZZLED_IDLE_TIMEOUT_SECS"),
        ("--send-timeout-secs", "PUZZLED_SEND_TIMEOUT_SECS"),
        (
            "--keepalive-interval-secs",
            "PUZZLED_KEEPALIVE_INTERVAL_SECS",
        ),
        ("--keepalive-timeout-secs", "PUZZLED_KEEPALIVE_TIMEOUT_SECS"),
    ] {
        assert!(help.contains(flag), "{flag} missing from serve --help");
        assert!(help.contains(var), "{var} missing from serve --help");
    }
    assert!(help.contains("127.0.0.1:50051") && help.contains("sqlite://puzzled.db"));
}

/// The flags (not only the variables) configure the server.
#[test]
fn serve_flags_pick_address_and_store() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("flags.db");
    let mut server = serve(
        &[
            "--listen",
            "127.0.0.1:0",
            "--database",
            &format!("sqlite://{}", db.display()),
        ],
        &[("NO_COLOR", "1")],
    );
    let first = &server.start_up[0];
    assert!(first.contains("listening on 127.0.0.1:"), "{first}");
    assert!(first.contains("flags.db"), "{first}");
    server.signal("INT");
    assert!(
        server.child.wait().unwrap().success(),
        "clean exit on SIGINT"
    );
    assert!(db.exists());
}

/// `kill -9` in the middle of a stream of writes: after a restart every
/// acknowledged puzzle is there and the file passes an integrity check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_puzzle_survives_kill_9() {
    use super::helpers::{create_request, geography, proto};
    use proto::puzzle_service_client::PuzzleServiceClient;

    fn start(db: &std::path::Path) -> (std::process::Child, String) {
        let server = serve(
            &[
                "--listen",
                "127.0.0.1:0",
                "--database",
                &format!("sqlite://{}", db.display()),
            ],
            &[("NO_COLOR", "1")],
        );
        let lines = server.lines;
        // Keep draining the log so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        (server.child, format!("http://{}", server.addr))
    }

    /// The puzzle written as the `i`-th of the stream: its size, edges,
    /// start and title all depend on `i`, so a row mixed up with another
    /// or half written cannot pass for it.
    fn puzzle(i: u32) -> proto::PuzzleSpec {
        let n = 2 + i % 50;
        let edges: Vec<u32> = (1..n.min(2 + i % 7)).flat_map(|v| [v - 1, v]).collect();
        proto::PuzzleSpec {
            title: format!("crash test {i}"),
            ..geography(n, &edges, i % n)
        }
    }

    const SENT: u32 = 10_000;
    const KILL_AFTER: usize = 300;

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let (mut server, url) = start(&db);
    let mut client = PuzzleServiceClient::connect(url).await.unwrap();
    let (count_tx, mut count_rx) = tokio::sync::watch::channel(0usize);
    let writer = tokio::spawn(async move {
        let mut acknowledged = Vec::new();
        for i in 0..SENT {
            match client.create_puzzle(create_request(puzzle(i))).await {
                Ok(p) => {
                    acknowledged.push((i, p.into_inner().name));
                    count_tx.send_replace(acknowledged.len());
                }
                Err(_) => break,
            }
        }
        acknowledged
    });
    // Kill the server without warning once a fixed number of writes were
    // acknowledged, while the writer keeps sending.
    count_rx
        .wait_for(|&acknowledged| acknowledged >= KILL_AFTER)
        .await
        .expect("the writer acknowledges writes");
    signal_process(&server, "KILL");
    server.wait().unwrap();
    let acknowledged = writer.await.unwrap();
    assert!(acknowledged.len() >= KILL_AFTER);
    assert!(
        acknowledged.len() < SENT as usize,
        "the kill landed in the middle of the stream ({} of {SENT} acknowledged)",
        acknowledged.len()
    );

    let (mut server, url) = start(&db);
    let mut client = PuzzleServiceClient::connect(url).await.unwrap();
    for (i, name) in &acknowledged {
        let stored = client
            .get_puzzle(proto::GetPuzzleRequest {
                name: name.clone(),
                ..Default::default()
            })
            .await
            .unwrap_or_else(|e| panic!("{name} was acknowledged but is gone: {e:?}"))
            .into_inner();
        assert_eq!(stored.name, *name);
        assert_eq!(
            stored.spec,
            Some(puzzle(*i)),
            "{name} holds what was written as puzzle {i}"
        );
    }
    signal_process(&server, "TERM");
    assert!(server.wait().unwrap().success());
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(integrity, "ok");
}

/// SIGTERM while a long solve runs: the call gets the grace period, then the
/// server says it stops the solve, closes the store and exits cleanly, and
/// the caller gets an error rather than the verdict. What is timed is only
/// that the grace period was waited out (a lower bound, which a slow
/// machine cannot break); the exit is waited for under a hang guard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_during_a_long_solve_waits_out_the_grace_then_stops_the_solve() {
    use super::helpers::{geography, proto, random_graph, solve_request};
    use proto::puzzle_service_client::PuzzleServiceClient;

    const GRACE_SECS: u64 = 1;
    // Built before the client connects: a connection with no call within
    // the handshake timeout is closed, and on a loaded machine building
    // this graph can take longer than that.
    let n = 1_000_000;
    let spec = geography(n, &random_graph(n, 2_000_000, 35), 0);
    let dir = tempfile::tempdir().unwrap();
    let Serving {
        child: mut server,
        addr,
        lines,
        ..
    } = serve(
        &[
            "--listen",
            "127.0.0.1:0",
            "--database",
            &format!("sqlite://{}", dir.path().join("data.db").display()),
        ],
        &[
            ("PUZZLED_SHUTDOWN_GRACE_SECS", &GRACE_SECS.to_string()),
            ("PUZZLED_LOG", "info,puzzled=debug"),
            ("NO_COLOR", "1"),
        ],
    );
    let line_rx = on_a_channel(lines);
    let mut client = PuzzleServiceClient::connect(format!("http://{addr}"))
        .await
        .unwrap()
        .max_encoding_message_size(usize::MAX);
    let call = tokio::spawn(async move { client.solve(solve_request(spec)).await });
    let (started, line_rx) = tokio::task::spawn_blocking(move || {
        let started = line_rx.iter().any(|line| line.contains("solve started"));
        (started, line_rx)
    })
    .await
    .unwrap();
    assert!(started, "the server logs the solve's start");

    let asked = std::time::Instant::now();
    assert!(signal_process(&server, "TERM").success());
    let exited = tokio::task::spawn_blocking(move || server.wait().unwrap());
    let status = tokio::time::timeout(std::time::Duration::from_secs(60), exited)
        .await
        .expect("the server exits (a hang guard)")
        .unwrap();
    let took = asked.elapsed();
    eprintln!("exited {took:?} after SIGTERM, grace {GRACE_SECS} s");
    assert!(status.success(), "{status:?}");
    assert!(
        took >= std::time::Duration::from_secs(GRACE_SECS),
        "exited before the grace period was over: {took:?}"
    );
    // The rest of the log, in order: the grace period ran out with the call
    // still open, its solve was told to stop, and the store was closed.
    let rest: Vec<String> = line_rx.iter().collect();
    let at = |text: &str| {
        rest.iter()
            .position(|line| line.contains(text))
            .unwrap_or_else(|| panic!("no {text:?} in the log: {rest:#?}"))
    };
    assert!(
        at("did not finish within the grace period; stopping their solves") < at("store closed")
    );
    let outcome = call.await.unwrap();
    assert!(outcome.is_err(), "the solve was cut short: {outcome:?}");
}

/// `PUZZLED_LOG_FORMAT=json`: every log line is a JSON object, and a call's
/// `call finished` line carries its span: method, request id, canonical
/// hash, cache outcome, solve time, with the status. Another format is
/// refused at start-up, naming the ones there are.
#[tokio::test]
async fn json_logs_carry_each_calls_span() {
    use super::helpers::{geography, proto, solve_request};
    use proto::puzzle_service_client::PuzzleServiceClient;

    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("data.db").display());
    let refused = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--database", &db])
        .env("PUZZLED_LOG_FORMAT", "xml")
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(
        error.contains("PUZZLED_LOG_FORMAT=\"xml\"") && error.contains("json"),
        "{error}"
    );

    let server = JsonLoggingServer::start();
    let addr = &server.addr;
    let mut client = PuzzleServiceClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let mut request = tonic::Request::new(solve_request(geography(3, &[0, 1, 1, 2], 0)));
    request
        .metadata_mut()
        .insert("x-request-id", "json-log-check".parse().unwrap());
    let solution = client.solve(request).await.unwrap().into_inner();

    let logged: Vec<serde_json::Value> = server
        .stop()
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let finished = logged
        .iter()
        .find(|l| l["fields"]["message"] == "call finished")
        .unwrap_or_else(|| panic!("no call finished line in {logged:?}"));
    let span = &finished["span"];
    assert_eq!(span["request_id"], "json-log-check", "{finished}");
    assert_eq!(span["method"], "/puzzled.v1.PuzzleService/Solve");
    assert_eq!(span["canonical_hash"], solution.canonical_hash.as_str());
    assert_eq!(span["cache"], "miss");
    assert!(span["solve_ms"].as_f64().is_some(), "{finished}");
    assert_eq!(finished["fields"]["status"], "Ok");
}

/// A client's values are cut in the log as in error messages: a GetPuzzle
/// naming a puzzle with a name of a megabyte, sent three times, leaves
/// log lines of ordinary length, the name cut after 64 characters.
#[tokio::test]
async fn logged_client_values_are_cut() {
    use super::helpers::proto;
    use proto::puzzle_service_client::PuzzleServiceClient;

    let server = JsonLoggingServer::start();
    let addr = &server.addr;
    let mut client = PuzzleServiceClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let name = format!("puzzles/{}", "n".repeat(1 << 20));
    for _ in 0..3 {
        let status = client
            .get_puzzle(proto::GetPuzzleRequest {
                name: name.clone(),
                view: 0,
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert!(status.message().len() < 1024, "{}", status.message().len());
    }
    let logged = server.stop();
    let longest = logged.iter().map(String::len).max().unwrap_or(0);
    assert!(longest < 4096, "a log line of {longest} bytes");
    let named: Vec<serde_json::Value> = logged
        .iter()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|line| line["span"]["puzzle"].is_string())
        .collect();
    assert_eq!(named.len(), 3, "one call finished line a call: {logged:?}");
    for line in named {
        let puzzle = line["span"]["puzzle"].as_str().unwrap();
        assert_eq!(puzzle, format!("puzzles/{}…", "n".repeat(56)), "{line}");
    }
}

/// Uploads the client abandons (six Solve calls announcing a 10 MB message,
/// reset with CANCEL after 64 KiB) cost nothing to the other calls on
/// their connection, and each is logged, as CANCELLED rather than as a
/// fault of the server's.
#[tokio::test]
async fn abandoned_uploads_are_logged_as_cancelled_and_spare_their_connection() {
    use super::helpers::{geography, proto, solve_request};
    use prost::Message as _;

    let server = JsonLoggingServer::start();
    let tcp = tokio::net::TcpStream::connect(&server.addr).await.unwrap();
    let (send, connection) = h2::client::handshake(tcp).await.unwrap();
    let driver = tokio::spawn(connection);
    let request = || {
        http::Request::post("http://localhost/puzzled.v1.PuzzleService/Solve")
            .header("content-type", "application/grpc")
            .header("te", "trailers")
            .body(())
            .unwrap()
    };
    let mut abandoned = Vec::new();
    for _ in 0..6 {
        let mut send = send.clone().ready().await.unwrap();
        let (response, mut body) = send.send_request(request(), false).unwrap();
        let mut frame = vec![0u8];
        frame.extend(10_000_000u32.to_be_bytes());
        frame.extend(vec![0u8; 64 * 1024]);
        body.reserve_capacity(frame.len());
        body.send_data(frame.into(), false).unwrap();
        body.send_reset(h2::Reason::CANCEL);
        abandoned.push(response);
    }

    let mut send = send.clone().ready().await.unwrap();
    let (response, mut body) = send.send_request(request(), false).unwrap();
    let message = solve_request(geography(3, &[0, 1, 1, 2], 0)).encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend((message.len() as u32).to_be_bytes());
    frame.extend(message);
    body.send_data(frame.into(), true).unwrap();
    let mut answer = response
        .await
        .expect("the connection still serves")
        .into_body();
    let mut bytes = Vec::new();
    while let Some(data) = answer.data().await {
        let data = data.unwrap();
        answer.flow_control().release_capacity(data.len()).unwrap();
        bytes.extend_from_slice(&data);
    }
    let trailers = answer.trailers().await.unwrap().expect("trailers");
    assert_eq!(trailers["grpc-status"], "0", "{trailers:?}");
    let solution = proto::Solution::decode(&bytes[5..]).unwrap();
    assert!(!solution.canonical_hash.is_empty());
    drop(abandoned);
    driver.abort();

    let logged: Vec<serde_json::Value> = server
        .stop()
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let statuses: Vec<&str> = logged
        .iter()
        .filter(|l| l["fields"]["message"] == "call finished")
        .filter(|l| l["span"]["method"] == "/puzzled.v1.PuzzleService/Solve")
        .map(|l| l["fields"]["status"].as_str().unwrap_or_default())
        .collect();
    let cancelled = statuses.iter().filter(|&&s| s == "Cancelled").count();
    assert_eq!(cancelled, 6, "{statuses:?} {logged:?}");
    assert_eq!(
        statuses.iter().filter(|&&s| s == "Ok").count(),
        1,
        "{statuses:?}"
    );
}
