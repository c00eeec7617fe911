//! The Prometheus endpoint (`--metrics-listen`): a scrape over plain
//! HTTP/1.1 shows the counters and gauges moving as calls are made.
//! Metrics are process-wide and other tests run beside this one, so the
//! checks are on increases, never on exact values.

use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::helpers::*;

/// The response to `GET path` on the metrics endpoint: status line and body.
async fn get(app: &TestApp, path: &str) -> (String, String) {
    http_get(app.metrics_addr.expect("the metrics endpoint is on"), path).await
}

/// A server with its metrics endpoint on a port of its own.
async fn app_with_metrics() -> TestApp {
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let config = puzzled::config::Config {
        metrics_listen: Some("127.0.0.1:0".into()),
        ..test_config(dir.path())
    };
    spawn_app_with(dir, config).await
}

#[tokio::test]
async fn a_scrape_shows_the_counters_move() {
    let mut app = app_with_metrics().await;
    let (status, before) = get(&app, "/metrics").await;
    assert!(status.contains("200"), "{status}");
    assert!(before.ends_with("# EOF\n"), "OpenMetrics text: {before}");
    let solve_ok = [
        ("method", "/puzzled.v1.PuzzleService/Solve"),
        ("code", "Ok"),
    ];
    let geography_runs = [("game", "geography")];
    let memory_hits = [("level", "memory"), ("outcome", "hit")];
    let answer_hits = [("level", "answer"), ("outcome", "hit")];
    let creates = [("query", "create_puzzle")];

    // A graph no other test solves, so the first solve computes.
    let spec = geography(9, &random_graph(9, 14, 0x6d65_7472), 4);
    app.client.solve(solve_request(spec.clone())).await.unwrap();
    // The same request again is answered from the answer memo; the same
    // puzzle with another title takes the canonical path to the verdict
    // cache.
    app.client.solve(solve_request(spec.clone())).await.unwrap();
    let titled = proto::PuzzleSpec {
        title: "the same puzzle".into(),
        ..spec.clone()
    };
    app.client.solve(solve_request(titled)).await.unwrap();
    app.client
        .create_puzzle(create_request(spec))
        .await
        .unwrap();
    let missing = app
        .client
        .get_puzzle(proto::GetPuzzleRequest {
            name: "puzzles/not a puzzle id".into(),
            view: 0,
        })
        .await;
    assert!(missing.is_err());

    // A Play game open during the scrape.
    let (send, receive) = mpsc::channel(4);
    let mut responses = app
        .client
        .play(ReceiverStream::new(receive))
        .await
        .unwrap()
        .into_inner();
    send.send(proto::PlayRequest {
        request: Some(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(proto::play_start::Puzzle::Spec(geography(
                4,
                &[0, 1, 1, 2, 2, 3],
                0,
            ))),
            human_side: 0,
        })),
    })
    .await
    .unwrap();
    responses.message().await.unwrap().expect("an opening");

    let (_, after) = get(&app, "/metrics").await;
    let grew = |name: &str, labels: &[(&str, &str)], by: f64| {
        let (was, now) = (sample(&before, name, labels), sample(&after, name, labels));
        assert!(
            now >= was + by,
            "{name} {labels:?}: {was} -> {now}\n{after}"
        );
    };
    grew("puzzled_requests_total", &solve_ok, 3.0);
    grew(
        "puzzled_requests_total",
        &[
            ("method", "/puzzled.v1.PuzzleService/GetPuzzle"),
            ("code", "InvalidArgument"),
        ],
        1.0,
    );
    grew(
        "puzzled_request_duration_seconds_count",
        &[("method", "/puzzled.v1.PuzzleService/Solve")],
        2.0,
    );
    grew("puzzled_solver_runs_total", &geography_runs, 1.0);
    grew(
        "puzzled_solver_duration_seconds_count",
        &geography_runs,
        1.0,
    );
    grew("puzzled_cache_lookups_total", &memory_hits, 1.0);
    grew("puzzled_cache_lookups_total", &answer_hits, 1.0);
    grew("puzzled_store_duration_seconds_count", &creates, 1.0);
    grew("puzzled_admission_wait_seconds_count", &[], 2.0);
    assert!(
        sample(&after, "puzzled_play_games_open", &[]) >= 1.0,
        "{after}"
    );
    assert!(
        sample(&after, "puzzled_connections_open", &[]) >= 1.0,
        "{after}"
    );

    // Anything but GET /metrics is not found.
    let (status, _) = get(&app, "/").await;
    assert!(status.contains("404"), "{status}");
    drop(send);
    app.stop().await;
}

/// Unfinished requests cannot hold the metrics port: with more
/// connections open than it serves at once (16), each sending half a
/// request head, a scrape still gets its answer — once the server has
/// closed a stuck connection to make room — and every stuck connection is
/// closed in time. (A hang guard bounds the waits: without the head
/// timeout they would stay open for ever.)
#[tokio::test]
async fn stuck_scrapes_cannot_hold_the_metrics_port() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let app = app_with_metrics().await;
    let addr = app.metrics_addr.unwrap();
    let mut stuck = Vec::new();
    for _ in 0..20 {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream
            .write_all(b"GET /metrics HTTP/1.1\r\n")
            .await
            .unwrap();
        stuck.push(stream);
    }
    let guard = std::time::Duration::from_secs(60);
    let (status, _) = tokio::time::timeout(guard, http_get(addr, "/metrics"))
        .await
        .expect("a scrape was kept out");
    assert!(status.contains("200"), "{status}");
    // A slot was freed for it: some stuck connection is closed already.
    let closed = |stream: &tokio::net::TcpStream| match stream.try_read(&mut [0u8; 1]) {
        Ok(n) => n == 0,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    };
    assert!(
        stuck.iter().any(closed),
        "the scrape was served beside every stuck connection"
    );
    for mut stream in stuck {
        let mut rest = Vec::new();
        tokio::time::timeout(guard, stream.read_to_end(&mut rest))
            .await
            .expect("a stuck connection stayed open")
            .ok();
    }
}
