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
    app_with(|config| config.metrics_listen = Some("127.0.0.1:0".into())).await
}

#[tokio::test]
async fn a_scrape_shows_the_counters_move() {
    let mut app = app_with_metrics().await;
    let (status, before) = get(&app, "/metrics").await;
    assert!(status.contains("200"), "{status}");
    assert!(before.ends_with("# EOF\n"), "OpenMetrics text: {before}");
    let solve_ok = [
        ("grpc_service", "puzzled.v1.PuzzleService"),
        ("grpc_method", "Solve"),
        ("grpc_code", "OK"),
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
    app.read_err("puzzles/not a puzzle id").await;

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
            ("grpc_service", "puzzled.v1.PuzzleService"),
            ("grpc_method", "GetPuzzle"),
            ("grpc_code", "INVALID_ARGUMENT"),
        ],
        1.0,
    );
    grew(
        "puzzled_errors_total",
        &[
            ("grpc_code", "INVALID_ARGUMENT"),
            ("reason", "MALFORMED_NAME"),
        ],
        1.0,
    );
    grew(
        "puzzled_request_duration_seconds_count",
        &[
            ("grpc_service", "puzzled.v1.PuzzleService"),
            ("grpc_method", "Solve"),
        ],
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
    // What is kept, and the process itself.
    assert!(sample(&after, "puzzled_cache_entries", &[("cache", "verdicts")]) >= 1.0);
    assert!(sample(&after, "puzzled_cache_bytes", &[("cache", "answers")]) >= 1.0);
    assert!(sample(&after, "puzzled_verdict_store_bytes", &[]) >= 1.0);
    assert_eq!(
        sample(&after, "puzzled_database_connections_max", &[]),
        f64::from(puzzled::config::DEFAULT_DATABASE_POOL_SIZE)
    );
    assert_eq!(
        sample(
            &after,
            "puzzled_build_info",
            &[("version", env!("CARGO_PKG_VERSION"))]
        ),
        1.0
    );
    assert!(sample(&after, "process_resident_memory_bytes", &[]) > 1e6);
    assert!(sample(&after, "process_open_fds", &[]) >= 3.0);
    assert!(sample(&after, "process_max_fds", &[]) >= sample(&after, "process_open_fds", &[]));
    assert!(sample(&after, "process_cpu_seconds_total", &[]) > 0.0);
    assert_eq!(after.matches("# EOF").count(), 1, "one end marker");

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

/// The metric names (`puzzled_…`, `process_…`) a PromQL text uses.
fn metric_names(promql: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = promql;
    while let Some(at) = rest.find(|c: char| c.is_ascii_lowercase()) {
        let word_start = &rest[at..];
        let len = word_start
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(word_start.len());
        let word = &word_start[..len];
        let preceded_by_word = rest[..at]
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        if !preceded_by_word && (word.starts_with("puzzled_") || word.starts_with("process_")) {
            names.push(word.to_owned());
        }
        rest = &word_start[len..];
    }
    names
}

fn repo_file(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The alert rules and the dashboard in deploy/ name only metrics a
/// server exports: each one appears in a scrape (after a call that fails,
/// so the error counters have a sample).
#[tokio::test]
async fn the_alerts_and_the_dashboard_use_metrics_the_server_exports() {
    let app = app_with_metrics().await;
    app.solve(path(5)).await;
    app.read_err("puzzles/0000000000000000").await;
    let (_, scrape) = get(&app, "/metrics").await;
    let exported = |name: &str| {
        scrape.lines().any(|line| {
            line.starts_with(&format!("{name}{{")) || line.starts_with(&format!("{name} "))
        })
    };
    let rules = repo_file("deploy/prometheus/puzzled-alerts.yml");
    let expressions: Vec<String> = rules
        .split("expr:")
        .skip(1)
        .map(|after| {
            // The expression runs until the next key of the rule.
            after
                .split("\n        for:")
                .next()
                .unwrap()
                .split("\n        labels:")
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert!(expressions.len() >= 8, "{expressions:?}");
    let dashboard: serde_json::Value =
        serde_json::from_str(&repo_file("deploy/grafana/puzzled-dashboard.json")).unwrap();
    let panels = dashboard["panels"].as_array().expect("panels");
    assert!(panels.len() >= 10);
    let targets = panels
        .iter()
        .flat_map(|panel| panel["targets"].as_array().unwrap().iter())
        .map(|target| target["expr"].as_str().unwrap().to_owned());
    let mut checked = 0;
    for expr in expressions.into_iter().chain(targets) {
        for name in metric_names(&expr) {
            assert!(
                exported(&name),
                "{name} (in `{expr}`) is not in a scrape:\n{scrape}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
    app.stop().await;
}

/// `promtool check rules` passes the alert file. Needs promtool on PATH
/// (`apt-get install prometheus`); `PUZZLED_TEST_PROMTOOL=1` (as CI sets)
/// makes its absence an error.
#[test]
fn promtool_passes_the_alert_rules() {
    const ENABLE: &str = "PUZZLED_TEST_PROMTOOL";
    let found = std::process::Command::new("promtool")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        assert!(
            !std::env::var(ENABLE).is_ok_and(|v| v == "1"),
            "{ENABLE}=1 but promtool is not on PATH (apt-get install prometheus)"
        );
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the alert rules check needs promtool on PATH (apt-get install prometheus; {ENABLE}=1 makes its absence an error)"
        );
        return;
    }
    let out = std::process::Command::new("promtool")
        .args(["check", "rules"])
        .arg(format!(
            "{}/deploy/prometheus/puzzled-alerts.yml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
