//! `external`: the read calls of a puzzle site against the gRPC health
//! Check, loaded by h2load (nghttp2-client) from a process of its own, so
//! that the generator is not a tokio client inside the bench's process:
//! calls a second, latency, and the server's CPU time a call.

use std::path::{Path, PathBuf};
use std::process::Command;

use bytes::Bytes;
use clap::Args;
use prost::Message;
use puzzled::api::proto;
use puzzled::api::proto::puzzle_service_client::PuzzleServiceClient;
use puzzled_testkit::families::path;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;

use crate::harness::{
    Server, ServerArgs, geography_request, grpc_frame, median_by, percentile_ms, print_command,
    print_table_head, solve_client,
};

#[derive(Args, Clone)]
pub struct ExternalArgs {
    /// Seconds per h2load run.
    #[arg(long, default_value_t = 5)]
    secs: u64,
    /// HTTP/2 connections (h2load clients).
    #[arg(long, default_value_t = 8)]
    connections: usize,
    /// Concurrent streams per connection.
    #[arg(long, default_value_t = 16)]
    streams: usize,
    /// Runs per call, interleaved call by call; medians are shown.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// The h2load executable.
    #[arg(long, default_value = "h2load")]
    h2load: PathBuf,
    /// Measures only the calls whose name contains this text (and health,
    /// which the others are divided by): one call to profile.
    #[arg(long)]
    only: Option<String>,
    #[command(flatten)]
    server: ServerArgs,
}

/// One call as h2load sends it: a path and a framed gRPC request.
struct ExternalCall {
    name: String,
    path: &'static str,
    body: Bytes,
}

impl ExternalCall {
    fn new(name: impl Into<String>, path: &'static str, request: &impl Message) -> ExternalCall {
        ExternalCall {
            name: name.into(),
            path,
            body: grpc_frame(&request.encode_to_vec()),
        }
    }
}

/// What one h2load run measured.
#[derive(Clone, Copy)]
struct H2loadRun {
    calls_per_sec: f64,
    p50_ms: f64,
    p99_ms: f64,
    /// The server's CPU time over the run, per call.
    server_cpu_us: f64,
}

/// The Petersen graph (outer 5-cycle 0–4, inner pentagram 5–9, spokes).
fn petersen() -> Vec<u32> {
    let mut edges = Vec::new();
    for i in 0..5 {
        edges.extend([i, (i + 1) % 5]);
        edges.extend([5 + i, 5 + (i + 2) % 5]);
        edges.extend([i, 5 + i]);
    }
    edges
}

pub async fn external(args: ExternalArgs) {
    println!(
        "## external: the read calls of a puzzle site against the gRPC health Check, loaded by h2load"
    );
    print_command(
        "external",
        &[
            format!("--secs {}", args.secs),
            format!("--connections {}", args.connections),
            format!("--streams {}", args.streams),
            format!("--reps {}", args.reps),
            format!("--h2load {}", args.h2load.display()),
        ]
        .into_iter()
        .chain(args.only.iter().map(|only| format!("--only '{only}'")))
        .collect::<Vec<_>>(),
        &args.server,
    );
    let version = Command::new(&args.h2load).arg("--version").output();
    let Some(version) = version.ok().filter(|o| o.status.success()) else {
        println!(
            "h2load not found at {} (apt-get install nghttp2-client): nothing measured",
            args.h2load.display()
        );
        return;
    };
    let server = Server::start(&args.server);
    let channels = server.connect(1).await;
    let mut client = solve_client(&channels[0]);
    let mut calls = prepare_external_calls(&mut client).await;
    if let Some(only) = &args.only {
        // The first call is health, which every other is divided by.
        let mut index = 0;
        calls.retain(|call| {
            index += 1;
            index == 1 || call.name.contains(only.as_str())
        });
    }
    println!(
        "server {} (pid {}), {}, {} connections × {} streams, {} s a run",
        server.url(),
        server.pid(),
        String::from_utf8_lossy(&version.stdout).trim(),
        args.connections,
        args.streams,
        args.secs
    );
    measure(&args, &server, &calls);
}

/// Every call at its peak rate, then at half of it; prints the table.
fn measure(args: &ExternalArgs, server: &Server, calls: &[ExternalCall]) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let medians: Vec<H2loadRun> = runs(args, server, dir.path(), calls, |_| None)
        .iter()
        .map(|runs| H2loadRun {
            calls_per_sec: median_by(runs, |r| r.calls_per_sec),
            p50_ms: median_by(runs, |r| r.p50_ms),
            p99_ms: median_by(runs, |r| r.p99_ms),
            server_cpu_us: median_by(runs, |r| r.server_cpu_us),
        })
        .collect();
    // At half of each call's peak rate, its tail latency against health's
    // at half of health's.
    let half_p99: Vec<f64> = runs(args, server, dir.path(), calls, |i| {
        Some(medians[i].calls_per_sec / 2.0)
    })
    .iter()
    .map(|runs| median_by(runs, |r| r.p99_ms))
    .collect();
    print_table(args, calls, &medians, &half_p99);
}

/// `--reps` runs of each call, interleaved call by call so that a slow
/// spell of the machine falls on every call alike; call `i` at `rate(i)`.
fn runs(
    args: &ExternalArgs,
    server: &Server,
    dir: &Path,
    calls: &[ExternalCall],
    rate: impl Fn(usize) -> Option<f64>,
) -> Vec<Vec<H2loadRun>> {
    let mut runs: Vec<Vec<H2loadRun>> = vec![Vec::new(); calls.len()];
    for _ in 0..args.reps.max(1) {
        for (i, call) in calls.iter().enumerate() {
            runs[i].push(h2load(args, server, dir, call, rate(i)));
        }
    }
    runs
}

fn print_table(
    args: &ExternalArgs,
    calls: &[ExternalCall],
    medians: &[H2loadRun],
    half_p99: &[f64],
) {
    let health = medians[0];
    println!();
    print_table_head(&[
        "call",
        "calls/s",
        "÷ health",
        "p50 ms",
        "p99 ms",
        "server CPU µs a call",
        "p99 ms at half its peak rate",
        "÷ health's",
    ]);
    for (i, call) in calls.iter().enumerate() {
        let m = medians[i];
        println!(
            "| {} | {:.0} | {:.2} | {:.2} | {:.2} | {:.0} | {:.2} | {:.2} |",
            call.name,
            m.calls_per_sec,
            m.calls_per_sec / health.calls_per_sec,
            m.p50_ms,
            m.p99_ms,
            m.server_cpu_us,
            half_p99[i],
            half_p99[i] / half_p99[0]
        );
    }
    println!();
    println!(
        "medians of {} runs each, interleaved call by call",
        args.reps.max(1)
    );
}

// ---------------------------------------------------------------------------
// The calls

/// The calls measured, each checked once through tonic (h2load counts an
/// HTTP 200 as a success, whatever the gRPC status in its trailers) and
/// made a cache hit where the call has a cache.
async fn prepare_external_calls(client: &mut PuzzleServiceClient<Channel>) -> Vec<ExternalCall> {
    let health = ExternalCall::new(
        "`grpc.health.v1.Health/Check`",
        "/grpc.health.v1.Health/Check",
        &HealthCheckRequest::default(),
    );
    let mut calls = vec![health];
    calls.extend(cached_solves(client).await);
    let name = store_page(client).await;
    calls.extend(stored_reads(client, name).await);
    calls
}

/// `Solve` of three small puzzles, each solved once first.
async fn cached_solves(client: &mut PuzzleServiceClient<Channel>) -> Vec<ExternalCall> {
    let tail = |mut edges: Vec<u32>, from: u32, to: u32| {
        edges.extend([from, to]);
        edges
    };
    let puzzles = [
        ("6-vertex path", 6, path(6), 0),
        (
            "5-cycle with a tail",
            6,
            tail(vec![0, 1, 1, 2, 2, 3, 3, 4, 4, 0], 0, 5),
            5,
        ),
        (
            "Petersen graph with a tail",
            11,
            tail(petersen(), 0, 10),
            10,
        ),
    ];
    let mut calls = Vec::new();
    for (name, n, edges, start) in puzzles {
        let request = geography_request(n, edges, start);
        client
            .solve(request.clone())
            .await
            .unwrap_or_else(|status| panic!("{name}: {status}"));
        calls.push(ExternalCall::new(
            format!("cached `Solve`, {name}"),
            "/puzzled.v1.PuzzleService/Solve",
            &request,
        ));
    }
    calls
}

/// Stores fifty puzzles, a full page, the last a 6-vertex path; its name.
async fn store_page(client: &mut PuzzleServiceClient<Channel>) -> String {
    let mut name = String::new();
    for i in 0..50u32 {
        let request = geography_request(6 + i % 5, path(6 + i % 5), 0);
        name = client
            .create_puzzle(proto::CreatePuzzleRequest {
                puzzle: Some(proto::Puzzle {
                    spec: request.spec,
                    ..Default::default()
                }),
                request_id: String::new(),
            })
            .await
            .expect("the puzzle is stored")
            .into_inner()
            .name;
    }
    name
}

/// The reads of the stored puzzle `name` and of the page it is on.
async fn stored_reads(
    client: &mut PuzzleServiceClient<Channel>,
    name: String,
) -> Vec<ExternalCall> {
    let get = proto::GetPuzzleRequest {
        name: name.clone(),
        view: proto::PuzzleView::Full as i32,
    };
    client
        .get_puzzle(get.clone())
        .await
        .expect("the puzzle is read");
    let list = proto::ListPuzzlesRequest {
        page_size: 50,
        view: proto::PuzzleView::Basic as i32,
        ..Default::default()
    };
    let page = client
        .list_puzzles(list.clone())
        .await
        .expect("a page")
        .into_inner();
    assert_eq!(page.puzzles.len(), 50, "a full page");
    let solve_puzzle = proto::SolvePuzzleRequest {
        name: name.clone(),
        include_all_starts: false,
        include_winning_moves: false,
    };
    client
        .solve_puzzle(solve_puzzle.clone())
        .await
        .expect("the stored puzzle is solved");
    let analyze = proto::AnalyzePositionRequest {
        puzzle: Some(proto::analyze_position_request::Puzzle::Name(name)),
        moves: Vec::new(),
    };
    client
        .analyze_position(analyze.clone())
        .await
        .expect("the start is analysed");
    vec![
        ExternalCall::new(
            "`GetPuzzle` FULL, 6-vertex path",
            "/puzzled.v1.PuzzleService/GetPuzzle",
            &get,
        ),
        ExternalCall::new(
            "`ListPuzzles`, page of 50, BASIC",
            "/puzzled.v1.PuzzleService/ListPuzzles",
            &list,
        ),
        ExternalCall::new(
            "cached `SolvePuzzle`, 6-vertex path",
            "/puzzled.v1.PuzzleService/SolvePuzzle",
            &solve_puzzle,
        ),
        ExternalCall::new(
            "`AnalyzePosition`, cached start of a 6-vertex path",
            "/puzzled.v1.PuzzleService/AnalyzePosition",
            &analyze,
        ),
    ]
}

// ---------------------------------------------------------------------------
// h2load

/// One h2load run of `call`: closed loop, or at `rate` calls a second in
/// all when given.
fn h2load(
    args: &ExternalArgs,
    server: &Server,
    dir: &Path,
    call: &ExternalCall,
    rate: Option<f64>,
) -> H2loadRun {
    let body = dir.join("body");
    std::fs::write(&body, &call.body).expect("the body is written");
    let log = dir.join("log");
    let _ = std::fs::remove_file(&log);
    let mut command = Command::new(&args.h2load);
    command
        .arg(format!("--duration={}", args.secs))
        .arg(format!("--clients={}", args.connections))
        .arg(format!("--max-concurrent-streams={}", args.streams))
        .arg(format!("--data={}", body.display()))
        .arg("--header=content-type: application/grpc")
        .arg("--header=te: trailers")
        .arg(format!("--log-file={}", log.display()));
    if let Some(rate) = rate {
        // h2load's rate is per client.
        let per_client = (rate / args.connections.max(1) as f64).max(1.0);
        command.arg(format!("--rps={per_client:.0}"));
    }
    command.arg(format!("{}{}", server.url(), call.path));
    let cpu_before = server.cpu();
    let output = command.output().expect("h2load runs");
    let cpu = server.cpu() - cpu_before;
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "h2load failed: {text}");
    let succeeded = succeeded(&text, &call.name);
    let calls_per_sec = text
        .lines()
        .find_map(|l| l.strip_prefix("finished in "))
        .and_then(|l| l.split(", ").nth(1))
        .and_then(|rate| rate.trim_end_matches(" req/s").parse::<f64>().ok())
        .expect("h2load's rate");
    // The log has a line a request: its duration is the third field.
    let mut durations_us: Vec<u32> = std::fs::read_to_string(&log)
        .expect("h2load's log")
        .lines()
        .filter_map(|l| l.split('\t').nth(2)?.parse().ok())
        .collect();
    durations_us.sort_unstable();
    H2loadRun {
        calls_per_sec,
        p50_ms: percentile_ms(&durations_us, 0.50),
        p99_ms: percentile_ms(&durations_us, 0.99),
        server_cpu_us: cpu.as_secs_f64() * 1e6 / succeeded as f64,
    }
}

/// The requests that succeeded, from h2load's report; a run with any that
/// failed or errored is a broken run, not a slow one.
fn succeeded(report: &str, call: &str) -> u64 {
    // "requests: 1000 total, 1000 started, 1000 done, 1000 succeeded, 0
    // failed, 0 errored, 0 timeout"
    let done = report
        .lines()
        .find(|l| l.starts_with("requests:"))
        .unwrap_or_default();
    let count = |what: &str| {
        done.split(", ")
            .find_map(|part| part.trim_start_matches("requests: ").strip_suffix(what))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{call}: no{what} in {done:?}"))
    };
    let succeeded = count(" succeeded");
    assert!(
        succeeded > 0 && count(" failed") == 0 && count(" errored") == 0,
        "{call}: {done}"
    );
    succeeded
}
