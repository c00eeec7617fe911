//! `ratio`: the throughput and latency of a cached Solve against the gRPC
//! health Check on the same server, from the generated tonic client, in a
//! closed loop and then in an open loop at half of each one's peak.

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use prost::Message;
use puzzled::api::proto;
use puzzled::api::proto::puzzle_service_client::PuzzleServiceClient;
use puzzled_testkit::random::random_graph;
use puzzled_testkit::stats::median;
use tokio::task::JoinSet;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::harness::{
    Codes, Server, ServerArgs, code_name, codes_text, geography_request, median_by, micros,
    percentile_ms, print_command, print_table_head, proc_cpu, solve_client,
};

#[derive(Args, Clone)]
pub struct RatioArgs {
    /// HTTP/2 connections.
    #[arg(long, default_value_t = 8)]
    connections: usize,
    /// Concurrent streams per connection (closed loop).
    #[arg(long, default_value_t = 16)]
    streams: usize,
    /// Seconds per measured window.
    #[arg(long, default_value_t = 3.0)]
    secs: f64,
    /// Windows per kind of call, interleaved Solve/health/Solve/health…; medians are shown.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Seconds of each kind of call before measuring.
    #[arg(long, default_value_t = 1.0)]
    warmup_secs: f64,
    /// Vertices of the cached puzzle (a random geography graph).
    #[arg(long, default_value_t = 10)]
    solve_vertices: u32,
    /// Edges of the cached puzzle.
    #[arg(long, default_value_t = 15)]
    solve_edges: usize,
    /// The service name asked about in the health Check ("" is the whole server).
    #[arg(long, default_value = "")]
    health_service: String,
    #[command(flatten)]
    pub server: ServerArgs,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Solve,
    Health,
}

const KINDS: [Kind; 2] = [Kind::Solve, Kind::Health];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Solve => "cached Solve",
            Kind::Health => "health Check",
        }
    }
}

struct Target {
    solve: Vec<PuzzleServiceClient<Channel>>,
    health: Vec<HealthClient<Channel>>,
    request: proto::SolveRequest,
    health_service: String,
}

impl Target {
    async fn connect(server: &Server, args: &RatioArgs) -> Target {
        let channels = server.connect(args.connections.max(1)).await;
        let request = geography_request(
            args.solve_vertices,
            random_graph(args.solve_vertices, args.solve_edges, 7),
            0,
        );
        Target {
            solve: channels.iter().map(solve_client).collect(),
            health: channels.iter().cloned().map(HealthClient::new).collect(),
            request,
            health_service: args.health_service.clone(),
        }
    }

    async fn call(&self, kind: Kind, connection: usize) -> Result<(), tonic::Code> {
        let i = connection % self.solve.len();
        match kind {
            Kind::Solve => self.solve[i]
                .clone()
                .solve(self.request.clone())
                .await
                .map(drop)
                .map_err(|s| s.code()),
            Kind::Health => self.health[i]
                .clone()
                .check(HealthCheckRequest {
                    service: self.health_service.clone(),
                })
                .await
                .map(drop)
                .map_err(|s| s.code()),
        }
    }
}

/// What one window of calls measured.
struct Window {
    calls_per_sec: f64,
    /// Sorted latencies of the successful calls, in microseconds.
    latencies: Vec<u32>,
    errors: Codes,
    /// Open loop only: how late the calls were sent, at the 99th percentile.
    send_lag_p99_ms: f64,
    /// CPU cores the server and the generator kept busy, on average.
    server_cores: f64,
    generator_cores: f64,
}

/// Runs a window and notes how busy the server and the generator were.
async fn with_cpu(server_pid: u32, window: impl Future<Output = Window>) -> Window {
    let started = Instant::now();
    let server = proc_cpu(server_pid);
    let generator = proc_cpu(std::process::id());
    let mut w = window.await;
    let wall = started.elapsed().as_secs_f64();
    w.server_cores = (proc_cpu(server_pid) - server).as_secs_f64() / wall;
    w.generator_cores = (proc_cpu(std::process::id()) - generator).as_secs_f64() / wall;
    w
}

/// `streams` callers per connection, each sending its next call as soon as
/// the previous one is answered, for `secs`.
async fn closed_loop(target: &Arc<Target>, kind: Kind, streams: usize, secs: f64) -> Window {
    let connections = target.solve.len();
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(secs);
    let mut set = JoinSet::new();
    for caller in 0..connections * streams {
        let target = target.clone();
        set.spawn(async move {
            let mut latencies = Vec::new();
            let mut errors = Codes::new();
            loop {
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let result = target.call(kind, caller).await;
                let done = Instant::now();
                // Answered after the window closed: counting it would stretch the window.
                if done > end {
                    break;
                }
                match result {
                    Ok(()) => latencies.push(micros(done - sent)),
                    Err(code) => *errors.entry(code_name(code)).or_default() += 1,
                }
            }
            (latencies, errors)
        });
    }
    let mut latencies = Vec::new();
    let mut errors = Codes::new();
    while let Some(joined) = set.join_next().await {
        let (l, e) = joined.expect("a caller task");
        latencies.extend(l);
        for (code, n) in e {
            *errors.entry(code).or_default() += n;
        }
    }
    latencies.sort_unstable();
    Window {
        calls_per_sec: latencies.len() as f64 / secs,
        latencies,
        errors,
        send_lag_p99_ms: 0.0,
        server_cores: 0.0,
        generator_cores: 0.0,
    }
}

/// Calls sent at a fixed rate whatever the answers do, spread over the
/// connections; latency runs from the moment each call is sent.
async fn open_loop(target: &Arc<Target>, kind: Kind, rate: f64, secs: f64) -> Window {
    let total = (rate * secs).round().max(1.0) as usize;
    let start = Instant::now() + Duration::from_millis(5);
    let mut set = JoinSet::new();
    let mut lags = Vec::with_capacity(total);
    for i in 0..total {
        let due = start + Duration::from_secs_f64(i as f64 / rate);
        let now = Instant::now();
        if due > now {
            tokio::time::sleep_until(due.into()).await;
        }
        lags.push(micros(Instant::now().saturating_duration_since(due)));
        let target = target.clone();
        set.spawn(async move {
            let sent = Instant::now();
            let result = target.call(kind, i).await;
            (sent.elapsed(), result)
        });
    }
    let mut latencies = Vec::with_capacity(total);
    let mut errors = Codes::new();
    while let Some(joined) = set.join_next().await {
        match joined.expect("a call task") {
            (latency, Ok(())) => latencies.push(micros(latency)),
            (_, Err(code)) => *errors.entry(code_name(code)).or_default() += 1,
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort_unstable();
    lags.sort_unstable();
    Window {
        calls_per_sec: latencies.len() as f64 / elapsed,
        latencies,
        errors,
        send_lag_p99_ms: percentile_ms(&lags, 0.99),
        server_cores: 0.0,
        generator_cores: 0.0,
    }
}

/// Per kind: the windows' medians of calls/s, p50 and p99, and every error.
struct Summary {
    per_window: Vec<f64>,
    calls_per_sec: f64,
    p50: f64,
    p99: f64,
    errors: Codes,
    send_lag_p99_ms: f64,
    server_cores: f64,
    generator_cores: f64,
}

fn summarize(windows: &[Window]) -> Summary {
    let per_window: Vec<f64> = windows.iter().map(|w| w.calls_per_sec).collect();
    let mut errors = Codes::new();
    for w in windows {
        for (code, n) in &w.errors {
            *errors.entry(code.clone()).or_default() += n;
        }
    }
    Summary {
        calls_per_sec: median(&per_window),
        per_window,
        p50: median_by(windows, |w| percentile_ms(&w.latencies, 0.50)),
        p99: median_by(windows, |w| percentile_ms(&w.latencies, 0.99)),
        errors,
        send_lag_p99_ms: windows
            .iter()
            .map(|w| w.send_lag_p99_ms)
            .fold(0.0, f64::max),
        server_cores: median_by(windows, |w| w.server_cores),
        generator_cores: median_by(windows, |w| w.generator_cores),
    }
}

impl Summary {
    /// The cells both tables have: p50 and p99 ms, errors, and the server's
    /// and the generator's CPU cores.
    fn latency_and_cpu_cells(&self) -> String {
        let errors = if self.errors.is_empty() {
            "0".into()
        } else {
            codes_text(&self.errors)
        };
        format!(
            "{:.2} | {:.2} | {errors} | {:.2} / {:.2}",
            self.p50, self.p99, self.server_cores, self.generator_cores
        )
    }
}

/// How the calls of a window are sent.
#[derive(Clone, Copy)]
enum Loop {
    /// `--streams` callers per connection, each waiting for its answer.
    Closed,
    /// At these rates, in calls a second, per kind.
    Open([f64; 2]),
}

/// `--reps` windows of each kind, interleaved so that a slow spell of the
/// machine falls on both kinds alike.
async fn measure(
    server: &Server,
    target: &Arc<Target>,
    args: &RatioArgs,
    how: Loop,
) -> [Summary; 2] {
    let mut windows: [Vec<Window>; 2] = [Vec::new(), Vec::new()];
    for _ in 0..args.reps.max(1) {
        for (k, kind) in KINDS.into_iter().enumerate() {
            let window = match how {
                Loop::Closed => {
                    let window = closed_loop(target, kind, args.streams, args.secs);
                    with_cpu(server.pid(), window).await
                }
                Loop::Open(rates) => {
                    let window = open_loop(target, kind, rates[k], args.secs);
                    with_cpu(server.pid(), window).await
                }
            };
            windows[k].push(window);
        }
    }
    windows.map(|w| summarize(&w))
}

pub async fn ratio(args: RatioArgs) {
    println!("## ratio: cached Solve vs gRPC health Check");
    print_command(
        "ratio",
        &[
            format!("--connections {}", args.connections),
            format!("--streams {}", args.streams),
            format!("--secs {}", args.secs),
            format!("--reps {}", args.reps),
            format!("--warmup-secs {}", args.warmup_secs),
            format!("--solve-vertices {}", args.solve_vertices),
            format!("--solve-edges {}", args.solve_edges),
            format!("--health-service={:?}", args.health_service),
        ],
        &args.server,
    );
    let server = Server::start(&args.server);
    let target = Arc::new(Target::connect(&server, &args).await);
    prime(&server, &target, &args).await;
    for kind in KINDS {
        closed_loop(&target, kind, args.streams, args.warmup_secs).await;
    }
    let closed = measure(&server, &target, &args, Loop::Closed).await;
    print_closed(&args, &closed);
    let rates = [closed[0].calls_per_sec / 2.0, closed[1].calls_per_sec / 2.0];
    let open = measure(&server, &target, &args, Loop::Open(rates)).await;
    print_open(&args, &open, rates);
}

/// Solves the puzzle once, so that every measured Solve is a cache hit,
/// and says what is measured.
async fn prime(server: &Server, target: &Target, args: &RatioArgs) {
    let solution = target.solve[0]
        .clone()
        .solve(target.request.clone())
        .await
        .unwrap_or_else(|status| panic!("the first Solve failed: {status}"))
        .into_inner();
    let health = target.health[0]
        .clone()
        .check(HealthCheckRequest {
            service: args.health_service.clone(),
        })
        .await
        .expect("the health service answers")
        .into_inner();
    println!(
        "server {} (pid {}), puzzle: geography, {} vertices, {} edges, Solve request {} B, answer {} B; health {}",
        server.url(),
        server.pid(),
        args.solve_vertices,
        args.solve_edges,
        target.request.encoded_len(),
        solution.encoded_len(),
        ServingStatus::try_from(health.status).map_or("unknown", |s| s.as_str_name()),
    );
}

fn print_closed(args: &RatioArgs, closed: &[Summary; 2]) {
    println!();
    println!(
        "closed loop: {} connections × {} streams, {} s windows, {} per kind, interleaved; medians",
        args.connections,
        args.streams,
        args.secs,
        args.reps.max(1)
    );
    println!();
    print_table_head(&[
        "call",
        "calls/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "server / generator CPU cores",
        "calls/s per window",
    ]);
    for (kind, s) in KINDS.iter().zip(closed) {
        println!(
            "| {} | {:.0} | {} | {} |",
            kind.name(),
            s.calls_per_sec,
            s.latency_and_cpu_cells(),
            s.per_window
                .iter()
                .map(|c| format!("{c:.0}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let ratio = closed[0].calls_per_sec / closed[1].calls_per_sec;
    println!();
    println!(
        "cached Solve / health Check = {ratio:.2} (goal ≥ 0.5: {})",
        if ratio >= 0.5 { "met" } else { "missed" }
    );
}

fn print_open(args: &RatioArgs, open: &[Summary; 2], rates: [f64; 2]) {
    println!();
    println!(
        "open loop at half of each one's peak: fixed-rate sends over the {} connections, {} s windows, interleaved; medians",
        args.connections, args.secs
    );
    println!();
    print_table_head(&[
        "call",
        "target calls/s",
        "achieved calls/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "server / generator CPU cores",
        "worst p99 send lag ms",
    ]);
    for ((kind, s), rate) in KINDS.iter().zip(open).zip(rates) {
        println!(
            "| {} | {:.0} | {:.0} | {} | {:.2} |",
            kind.name(),
            rate,
            s.calls_per_sec,
            s.latency_and_cpu_cells(),
            s.send_lag_p99_ms
        );
    }
}
