//! Load against a real `puzzled serve`, started as a child process so that
//! its resident memory is the server's alone.
//!
//! ```sh
//! cargo bench --bench load -- ratio       # cached Solve vs gRPC health Check
//! cargo bench --bench load -- abandon     # 50 huge solves whose callers give up
//! cargo bench --bench load -- empty-max   # tiny requests for the largest graph
//! cargo bench --bench load -- all         # the three, with their defaults
//! cargo bench --bench load -- peak        # peak memory per vertex + edge
//! cargo bench --bench load -- external    # the site's read calls, loaded by h2load
//! cargo bench --bench load -- SCENARIO --help
//! ```
//!
//! `cargo bench` builds the `puzzled` binary with the same profile and this
//! bench finds it through `CARGO_BIN_EXE_puzzled`; `--puzzled PATH` runs
//! another build. Each server gets a fresh SQLite file in a temporary
//! directory; `--server-arg=--FLAG=VALUE` passes flags to `puzzled serve`.
//! Every scenario first prints the command line that reproduces it.
//!
//! The calls go through the generated tonic client, except the large ones
//! of `abandon`, which go over raw HTTP/2 (see `--tonic` for why).
//!
//! Client and server share the machine: on a small one the generator's own
//! CPU use is part of what is measured, the same for every kind of call.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytes::{BufMut, Bytes};
use clap::{Args, Parser, Subcommand};
use prost::Message;
use puzzled::api::proto;
use puzzled::api::proto::puzzle_service_client::PuzzleServiceClient;
use puzzled_testkit::families::path;
use puzzled_testkit::random::{EdgeSet, Rng as _, XorShift, random_graph};
use puzzled_testkit::stats::median;
use tokio::task::JoinSet;
use tonic::codec::{Codec, EncodeBuf, Encoder};
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_prost::ProstDecoder;

#[derive(Parser)]
#[command(
    name = "load",
    bin_name = "cargo bench --bench load --",
    about = "Load scenarios against a `puzzled serve` child process"
)]
struct Cli {
    #[command(subcommand)]
    scenario: Option<Scenario>,
}

#[derive(Subcommand)]
enum Scenario {
    /// Throughput and latency of a cached Solve against the gRPC health Check.
    Ratio(RatioArgs),
    /// Huge solves abandoned at their deadline, then a tiny one: how soon is it answered?
    Abandon(AbandonArgs),
    /// Tiny requests for a graph of the largest size the server accepts.
    EmptyMax(EmptyMaxArgs),
    /// Peak memory per vertex + edge of one request, per puzzle shape (the
    /// figures behind the admission budget's bytes per unit).
    Peak(ServerArgs),
    /// The read calls of a puzzle site against the health Check, loaded by
    /// h2load (nghttp2-client) from its own process.
    External(ExternalArgs),
    /// The three scenarios in turn, with their defaults.
    All(ServerArgs),
}

/// How the server is started (shared by every scenario).
#[derive(Args, Clone)]
struct ServerArgs {
    /// The `puzzled` executable (default: the one `cargo bench` built).
    #[arg(long, default_value = env!("CARGO_BIN_EXE_puzzled"))]
    puzzled: PathBuf,
    /// A flag for `puzzled serve`, e.g. --server-arg=--solve-workers=4 (repeatable).
    #[arg(long = "server-arg", value_name = "FLAG", allow_hyphen_values = true)]
    server_args: Vec<String>,
    /// Copy the server's log to stderr.
    #[arg(long)]
    server_log: bool,
}

impl ServerArgs {
    fn argv(&self) -> Vec<String> {
        let mut argv = Vec::new();
        if self.puzzled.as_os_str() != env!("CARGO_BIN_EXE_puzzled") {
            argv.push(format!("--puzzled={}", self.puzzled.display()));
        }
        argv.extend(self.server_args.iter().map(|a| format!("--server-arg={a}")));
        if self.server_log {
            argv.push("--server-log".into());
        }
        argv
    }
}

#[derive(Args, Clone)]
struct RatioArgs {
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
    server: ServerArgs,
}

impl Default for RatioArgs {
    fn default() -> Self {
        defaults()
    }
}

#[derive(Args, Clone)]
struct AbandonArgs {
    /// Concurrent large Solve calls, each on its own random graph.
    #[arg(long, default_value_t = 50)]
    calls: usize,
    /// Vertices of each large graph.
    #[arg(long, default_value_t = 500_000)]
    vertices: u32,
    /// Edges of each large graph.
    #[arg(long, default_value_t = 1_000_000)]
    edges: usize,
    /// Deadline of each large call, in milliseconds.
    #[arg(long, default_value_t = 100)]
    deadline_ms: u64,
    /// HTTP/2 connections the calls are spread over.
    #[arg(long, default_value_t = 8)]
    connections: usize,
    /// Bursts, each against a fresh server; medians are shown.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Milliseconds to keep watching the server after the small Solve is answered.
    #[arg(long, default_value_t = 2000)]
    settle_ms: u64,
    /// Seed of the first graph (graph i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Send the large calls through tonic instead of raw HTTP/2 (tonic
    /// copies each message on the generator's runtime: with 50 of 6 MB the
    /// generator, not the server, is what the deadlines catch).
    #[arg(long)]
    tonic: bool,
    #[command(flatten)]
    server: ServerArgs,
}

impl Default for AbandonArgs {
    fn default() -> Self {
        defaults()
    }
}

#[derive(Args, Clone)]
struct EmptyMaxArgs {
    /// Concurrent Solve calls.
    #[arg(long, default_value_t = 20)]
    calls: usize,
    /// vertex_count of every request (the server's default limit is 10^7).
    #[arg(long, default_value_t = 10_000_000)]
    vertices: u32,
    /// Give call i the start vertex i, so that no two share a cache key.
    #[arg(long)]
    distinct_starts: bool,
    /// Deadline of each call, in seconds.
    #[arg(long, default_value_t = 120)]
    timeout_secs: u64,
    /// HTTP/2 connections the calls are spread over.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// Bursts, each against a fresh server; medians are shown.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Milliseconds to keep watching the server after the last call ended.
    #[arg(long, default_value_t = 1000)]
    settle_ms: u64,
    #[command(flatten)]
    server: ServerArgs,
}

impl Default for EmptyMaxArgs {
    fn default() -> Self {
        defaults()
    }
}

#[derive(Args, Clone)]
struct ExternalArgs {
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

/// The defaults of an argument group, as clap fills them in.
fn defaults<T: Args>() -> T {
    let matches = T::augment_args(clap::Command::new("load")).get_matches_from(["load"]);
    T::from_arg_matches(&matches).expect("the defaults parse")
}

fn main() {
    // `cargo bench` passes `--bench` to every bench binary.
    let argv = std::env::args().filter(|a| a != "--bench");
    let cli = Cli::parse_from(argv);
    let Some(scenario) = cli.scenario else {
        // A plain `cargo bench` runs every bench; this one needs a scenario.
        println!("load: no scenario given, nothing measured (cargo bench --bench load -- --help)");
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async move {
        match scenario {
            Scenario::Ratio(args) => ratio(args).await,
            Scenario::Abandon(args) => abandon(args).await,
            Scenario::EmptyMax(args) => empty_max(args).await,
            Scenario::Peak(server) => peak(server).await,
            Scenario::External(args) => external(args).await,
            Scenario::All(server) => {
                ratio(RatioArgs {
                    server: server.clone(),
                    ..RatioArgs::default()
                })
                .await;
                println!();
                abandon(AbandonArgs {
                    server: server.clone(),
                    ..AbandonArgs::default()
                })
                .await;
                println!();
                empty_max(EmptyMaxArgs {
                    server,
                    ..EmptyMaxArgs::default()
                })
                .await;
            }
        }
    });
}

fn print_command(scenario: &str, options: &[String], server: &ServerArgs) {
    let mut line = format!("cargo bench --bench load -- {scenario}");
    for option in options.iter().chain(&server.argv()) {
        line.push(' ');
        line.push_str(option);
    }
    println!("$ {line}");
}

// ---------------------------------------------------------------------------
// The server as a child process

struct Server {
    child: Child,
    url: String,
    dir: Arc<tempfile::TempDir>,
}

impl Server {
    fn start(args: &ServerArgs) -> Server {
        let dir = tempfile::tempdir().expect("a temporary directory");
        Server::start_in(args, Arc::new(dir))
    }

    /// A fresh server process on this one's database: what was stored
    /// stays, what the old process held in memory does not.
    fn restarted(self, args: &ServerArgs) -> Server {
        let dir = self.dir.clone();
        drop(self);
        Server::start_in(args, dir)
    }

    fn start_in(args: &ServerArgs, dir: Arc<tempfile::TempDir>) -> Server {
        let db = dir.path().join("puzzled.db");
        let mut child = Command::new(&args.puzzled)
            .args(["serve", "--listen", "127.0.0.1:0", "--database"])
            .arg(format!("sqlite://{}", db.display()))
            .args(&args.server_args)
            .env("PUZZLED_LOG", "info")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(if args.server_log {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", args.puzzled.display()));
        let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
        let addr = loop {
            let line = match lines.next() {
                Some(Ok(line)) => line,
                _ => panic!("puzzled serve exited before listening: {:?}", child.wait()),
            };
            if args.server_log {
                eprintln!("[server] {line}");
            }
            if let Some(rest) = line.split("listening on ").nth(1) {
                let addr = rest.split([',', ' ']).next().unwrap_or_default();
                break addr.to_owned();
            }
        };
        // Keep draining the log so that the server never blocks on a full pipe.
        let echo = args.server_log;
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                if echo {
                    eprintln!("[server] {line}");
                }
            }
        });
        Server {
            child,
            url: format!("http://{addr}"),
            dir,
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory now, in bytes.
    fn rss(&self) -> u64 {
        proc_status(self.pid()).rss
    }

    /// The highest resident memory since the server started, in bytes.
    fn hwm(&self) -> u64 {
        proc_status(self.pid()).hwm
    }

    /// CPU time the server has used so far.
    fn cpu(&self) -> Duration {
        proc_cpu(self.pid())
    }

    async fn connect(&self, n: usize) -> Vec<Channel> {
        let mut channels = Vec::with_capacity(n);
        for _ in 0..n {
            channels.push(
                Endpoint::from_shared(self.url.clone())
                    .expect("a valid url")
                    .tcp_nodelay(true)
                    .connect()
                    .await
                    .expect("the server accepts connections"),
            );
        }
        channels
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Nothing is kept across servers: no need for a graceful stop.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Default, Clone, Copy)]
struct ProcStatus {
    rss: u64,
    hwm: u64,
}

fn proc_status(pid: u32) -> ProcStatus {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb * 1024)
    };
    ProcStatus {
        rss: field("VmRSS:"),
        hwm: field("VmHWM:"),
    }
}

/// utime + stime of a process, assuming the usual 100 clock ticks a second.
fn proc_cpu(pid: u32) -> Duration {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The command name may hold spaces; the fields after it are plain.
    let fields: Vec<&str> = text
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // After the name: state is field 3, utime 14, stime 15 (1-based).
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// Samples a process's resident memory on a thread of its own.
struct RssSampler {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<Vec<(Instant, u64)>>,
}

impl RssSampler {
    fn start(pid: u32, every: Duration) -> RssSampler {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut samples = Vec::new();
            while !flag.load(Ordering::Relaxed) {
                samples.push((Instant::now(), proc_status(pid).rss));
                std::thread::sleep(every);
            }
            samples
        });
        RssSampler { stop, thread }
    }

    fn finish(self) -> Vec<(Instant, u64)> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the sampler thread")
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.0}", bytes as f64 / (1024.0 * 1024.0))
}

// ---------------------------------------------------------------------------
// Requests

fn geography_request(vertex_count: u32, edges: Vec<u32>, start: u32) -> proto::SolveRequest {
    proto::SolveRequest {
        spec: Some(proto::PuzzleSpec {
            game: proto::Game::Geography as i32,
            graph: Some(proto::Graph {
                vertex_count,
                edges,
            }),
            start,
            ..Default::default()
        }),
        include_all_starts: false,
        include_winning_moves: false,
    }
}

fn solve_client(channel: &Channel) -> PuzzleServiceClient<Channel> {
    PuzzleServiceClient::new(channel.clone())
        .max_decoding_message_size(usize::MAX)
        .max_encoding_message_size(usize::MAX)
}

type Codes = BTreeMap<String, usize>;

fn code_name(code: tonic::Code) -> String {
    format!("{code:?}")
}

fn codes_text(codes: &Codes) -> String {
    codes
        .iter()
        .map(|(code, n)| format!("{code} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

// ---------------------------------------------------------------------------
// Statistics

/// Nearest-rank percentile of sorted microseconds, in milliseconds.
fn percentile_ms(sorted_us: &[u32], p: f64) -> f64 {
    if sorted_us.is_empty() {
        return f64::NAN;
    }
    let rank = ((p * sorted_us.len() as f64).ceil() as usize).clamp(1, sorted_us.len());
    sorted_us[rank - 1] as f64 / 1000.0
}

fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

// ---------------------------------------------------------------------------
// Scenario 1: cached Solve against health Check

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Solve,
    Health,
}

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
        p50: median(
            &windows
                .iter()
                .map(|w| percentile_ms(&w.latencies, 0.50))
                .collect::<Vec<_>>(),
        ),
        p99: median(
            &windows
                .iter()
                .map(|w| percentile_ms(&w.latencies, 0.99))
                .collect::<Vec<_>>(),
        ),
        errors,
        send_lag_p99_ms: windows
            .iter()
            .map(|w| w.send_lag_p99_ms)
            .fold(0.0, f64::max),
        server_cores: median(&windows.iter().map(|w| w.server_cores).collect::<Vec<_>>()),
        generator_cores: median(
            &windows
                .iter()
                .map(|w| w.generator_cores)
                .collect::<Vec<_>>(),
        ),
    }
}

fn errors_cell(errors: &Codes) -> String {
    if errors.is_empty() {
        "0".into()
    } else {
        codes_text(errors)
    }
}

async fn ratio(args: RatioArgs) {
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
    let channels = server.connect(args.connections.max(1)).await;
    let request = geography_request(
        args.solve_vertices,
        random_graph(args.solve_vertices, args.solve_edges, 7),
        0,
    );
    let target = Arc::new(Target {
        solve: channels.iter().map(solve_client).collect(),
        health: channels.iter().cloned().map(HealthClient::new).collect(),
        request,
        health_service: args.health_service.clone(),
    });
    // Solve once so that every measured Solve is a cache hit.
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
        server.url,
        server.pid(),
        args.solve_vertices,
        args.solve_edges,
        target.request.encoded_len(),
        solution.encoded_len(),
        ServingStatus::try_from(health.status).map_or("unknown", |s| s.as_str_name()),
    );

    let kinds = [Kind::Solve, Kind::Health];
    for kind in kinds {
        closed_loop(&target, kind, args.streams, args.warmup_secs).await;
    }
    let mut closed: [Vec<Window>; 2] = [Vec::new(), Vec::new()];
    for _ in 0..args.reps.max(1) {
        for (k, kind) in kinds.into_iter().enumerate() {
            let window = closed_loop(&target, kind, args.streams, args.secs);
            closed[k].push(with_cpu(server.pid(), window).await);
        }
    }
    let closed = closed.map(|w| summarize(&w));

    println!();
    println!(
        "closed loop: {} connections × {} streams, {} s windows, {} per kind, interleaved; medians",
        args.connections,
        args.streams,
        args.secs,
        args.reps.max(1)
    );
    println!();
    println!(
        "| call | calls/s | p50 ms | p99 ms | errors | server / generator CPU cores | calls/s per window |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (kind, s) in kinds.iter().zip(&closed) {
        println!(
            "| {} | {:.0} | {:.2} | {:.2} | {} | {:.2} / {:.2} | {} |",
            kind.name(),
            s.calls_per_sec,
            s.p50,
            s.p99,
            errors_cell(&s.errors),
            s.server_cores,
            s.generator_cores,
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

    let rates = [closed[0].calls_per_sec / 2.0, closed[1].calls_per_sec / 2.0];
    let mut open: [Vec<Window>; 2] = [Vec::new(), Vec::new()];
    for _ in 0..args.reps.max(1) {
        for (k, kind) in kinds.into_iter().enumerate() {
            let window = open_loop(&target, kind, rates[k], args.secs);
            open[k].push(with_cpu(server.pid(), window).await);
        }
    }
    let open = open.map(|w| summarize(&w));
    println!();
    println!(
        "open loop at half of each one's peak: fixed-rate sends over the {} connections, {} s windows, interleaved; medians",
        args.connections, args.secs
    );
    println!();
    println!(
        "| call | target calls/s | achieved calls/s | p50 ms | p99 ms | errors | server / generator CPU cores | worst p99 send lag ms |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for ((kind, s), rate) in kinds.iter().zip(&open).zip(rates) {
        println!(
            "| {} | {:.0} | {:.0} | {:.2} | {:.2} | {} | {:.2} / {:.2} | {:.2} |",
            kind.name(),
            rate,
            s.calls_per_sec,
            s.p50,
            s.p99,
            errors_cell(&s.errors),
            s.server_cores,
            s.generator_cores,
            s.send_lag_p99_ms
        );
    }
}

// ---------------------------------------------------------------------------
// Scenario 2: abandoned solves

struct AbandonRep {
    codes: Codes,
    /// How long the large calls took to end, sorted, in microseconds.
    large_us: Vec<u32>,
    /// Server CPU time from the first send to the last deadline.
    cpu_burst: Duration,
    /// The generator's own CPU time over the same span.
    client_cpu_burst: Duration,
    /// From the first large call sent to the last one sent.
    spread_ms: f64,
    /// From the last deadline to the small Solve's answer.
    after_deadline_ms: f64,
    /// The small Solve's own round trip.
    round_trip_ms: f64,
    small: Result<(), tonic::Code>,
    idle: u64,
    peak: u64,
    hwm: u64,
    end: u64,
    /// Server CPU time from the last deadline to the end of the watch.
    cpu_after_deadline: Duration,
    watched_ms: f64,
}

async fn abandon(args: AbandonArgs) {
    println!("## abandon: large solves whose callers give up, then a small one");
    print_command(
        "abandon",
        &[
            format!("--calls {}", args.calls),
            format!("--vertices {}", args.vertices),
            format!("--edges {}", args.edges),
            format!("--deadline-ms {}", args.deadline_ms),
            format!("--connections {}", args.connections),
            format!("--reps {}", args.reps),
            format!("--settle-ms {}", args.settle_ms),
            format!("--seed {}", args.seed),
        ]
        .into_iter()
        .chain(args.tonic.then(|| "--tonic".to_string()))
        .collect::<Vec<_>>(),
        &args.server,
    );
    let generating = Instant::now();
    let requests = build_in_parallel(args.calls, |i| {
        Bytes::from(
            geography_request(
                args.vertices,
                random_graph(args.vertices, args.edges, args.seed + i as u64),
                0,
            )
            .encode_to_vec(),
        )
    });
    let bytes: usize = requests.iter().map(Bytes::len).sum();
    // What goes on the wire: the bare message for tonic, a gRPC frame for h2.
    let requests: Vec<Bytes> = if args.tonic {
        requests
    } else {
        requests.iter().map(|m| grpc_frame(m)).collect()
    };
    println!(
        "{} requests of {} vertices and {} edges ({:.1} MB each on the wire), built in {:.1} s beforehand",
        args.calls,
        args.vertices,
        args.edges,
        bytes as f64 / args.calls.max(1) as f64 / 1e6,
        generating.elapsed().as_secs_f64()
    );
    let small = geography_request(3, vec![0, 1, 1, 2], 0);

    let mut reps = Vec::new();
    for _ in 0..args.reps.max(1) {
        reps.push(abandon_once(&args, &requests, small.clone()).await);
    }

    println!();
    println!(
        "{} calls with a {} ms deadline each over {} connections ({}); each rep on a fresh server",
        args.calls,
        args.deadline_ms,
        args.connections,
        if args.tonic {
            "tonic client"
        } else {
            "raw HTTP/2, the framed messages handed over without a copy"
        }
    );
    println!();
    println!(
        "| rep | large calls ended | their p50 / max ms | sends spread ms | server / generator CPU s until last deadline | small Solve | last deadline → small answered ms | small round trip ms | idle RSS MiB | peak RSS MiB (10 ms samples) | VmHWM MiB | RSS at end MiB | server CPU s after last deadline (over ms) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (i, r) in reps.iter().enumerate() {
        println!(
            "| {} | {} | {:.0} / {:.0} | {:.0} | {:.2} / {:.2} | {} | {:.1} | {:.1} | {} | {} | {} | {} | {:.2} ({:.0}) |",
            i + 1,
            codes_text(&r.codes),
            percentile_ms(&r.large_us, 0.5),
            percentile_ms(&r.large_us, 1.0),
            r.spread_ms,
            r.cpu_burst.as_secs_f64(),
            r.client_cpu_burst.as_secs_f64(),
            match r.small {
                Ok(()) => "OK".to_string(),
                Err(code) => code_name(code),
            },
            r.after_deadline_ms,
            r.round_trip_ms,
            mib(r.idle),
            mib(r.peak),
            mib(r.hwm),
            mib(r.end),
            r.cpu_after_deadline.as_secs_f64(),
            r.watched_ms,
        );
    }
    let med = |f: &dyn Fn(&AbandonRep) -> f64| median(&reps.iter().map(f).collect::<Vec<_>>());
    println!(
        "| median | | {:.0} / {:.0} | {:.0} | {:.2} / {:.2} | | {:.1} | {:.1} | {:.0} | {:.0} | {:.0} | {:.0} | {:.2} |",
        med(&|r| percentile_ms(&r.large_us, 0.5)),
        med(&|r| percentile_ms(&r.large_us, 1.0)),
        med(&|r| r.spread_ms),
        med(&|r| r.cpu_burst.as_secs_f64()),
        med(&|r| r.client_cpu_burst.as_secs_f64()),
        med(&|r| r.after_deadline_ms),
        med(&|r| r.round_trip_ms),
        med(&|r| r.idle as f64 / 1048576.0),
        med(&|r| r.peak as f64 / 1048576.0),
        med(&|r| r.hwm as f64 / 1048576.0),
        med(&|r| r.end as f64 / 1048576.0),
        med(&|r| r.cpu_after_deadline.as_secs_f64()),
    );
}

/// `f(0..n)` on every core, in order.
fn build_in_parallel<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(2, |t| t.get());
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    std::thread::scope(|scope| {
        let f = &f;
        for (t, chunk) in out.chunks_mut(n.div_ceil(threads).max(1)).enumerate() {
            let first = t * n.div_ceil(threads).max(1);
            scope.spawn(move || {
                for (j, slot) in chunk.iter_mut().enumerate() {
                    *slot = Some(f(first + j));
                }
            });
        }
    });
    out.into_iter().map(|x| x.expect("built")).collect()
}

/// A request encoded before the burst: sending it costs a copy, not an
/// encoding, so the client is not what holds the large calls back.
#[derive(Clone, Copy, Default)]
struct PreEncoded;

struct RawEncoder;

impl Encoder for RawEncoder {
    type Item = Bytes;
    type Error = tonic::Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), tonic::Status> {
        dst.reserve(item.len());
        dst.put_slice(&item);
        Ok(())
    }
}

impl Codec for PreEncoded {
    type Encode = Bytes;
    type Decode = proto::Solution;
    type Encoder = RawEncoder;
    type Decoder = ProstDecoder<proto::Solution>;

    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }

    fn decoder(&mut self) -> Self::Decoder {
        ProstDecoder::default()
    }
}

/// `Solve` with a request encoded beforehand, through tonic: tonic copies
/// the message into a buffer of its own on the caller's runtime.
async fn solve_pre_encoded(channel: Channel, request: Bytes, deadline: Duration) -> String {
    let mut request = tonic::Request::new(request);
    request.set_timeout(deadline);
    let mut grpc = tonic::client::Grpc::new(channel)
        .max_encoding_message_size(usize::MAX)
        .max_decoding_message_size(usize::MAX);
    if grpc.ready().await.is_err() {
        return code_name(tonic::Code::Unavailable);
    }
    match grpc
        .unary(
            request,
            http::uri::PathAndQuery::from_static("/puzzled.v1.PuzzleService/Solve"),
            PreEncoded,
        )
        .await
    {
        Ok(_) => "OK".into(),
        Err(status) => code_name(status.code()),
    }
}

/// An HTTP/2 connection driven directly, for the large calls: the framed
/// message is handed to h2 as it is, with no copy on the generator's side.
async fn h2_connect(url: &str) -> h2::client::SendRequest<Bytes> {
    let addr = url.trim_start_matches("http://");
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("the server accepts connections");
    tcp.set_nodelay(true).ok();
    let (client, connection) = h2::client::handshake(tcp)
        .await
        .expect("an HTTP/2 handshake");
    tokio::spawn(connection);
    client
}

/// A gRPC length-prefixed frame around an encoded message.
fn grpc_frame(message: &[u8]) -> Bytes {
    let mut frame = Vec::with_capacity(5 + message.len());
    frame.push(0);
    frame.extend((message.len() as u32).to_be_bytes());
    frame.extend_from_slice(message);
    frame.into()
}

/// Unary `Solve` over raw HTTP/2 with a `grpc-timeout`; at the deadline the
/// caller gives up and drops the stream (RST_STREAM CANCEL), as a gRPC
/// client does. Returns the status name, or "gave up" for the deadline.
async fn solve_h2(
    client: h2::client::SendRequest<Bytes>,
    frame: Bytes,
    deadline: Duration,
) -> String {
    let give_up = tokio::time::Instant::now() + deadline;
    let call = async move {
        let mut client = client.ready().await.map_err(|e| e.to_string())?;
        let request = http::Request::post("/puzzled.v1.PuzzleService/Solve")
            .header("content-type", "application/grpc")
            .header("te", "trailers")
            .header("grpc-timeout", format!("{}m", deadline.as_millis()))
            .body(())
            .expect("a request");
        let (response, mut send) = client
            .send_request(request, false)
            .map_err(|e| e.to_string())?;
        send.send_data(frame, true).map_err(|e| e.to_string())?;
        let response = response.await.map_err(|e| e.to_string())?;
        let status = |h: &http::HeaderMap| {
            h.get("grpc-status")
                .and_then(|s| s.to_str().ok()?.parse::<i32>().ok())
                .map(|c| code_name(tonic::Code::from_i32(c)))
        };
        if let Some(code) = status(response.headers()) {
            return Ok(code);
        }
        let mut body = response.into_body();
        while let Some(data) = body.data().await {
            let data = data.map_err(|e| e.to_string())?;
            body.flow_control().release_capacity(data.len()).ok();
        }
        let trailers = body.trailers().await.map_err(|e| e.to_string())?;
        Ok::<_, String>(
            trailers
                .as_ref()
                .and_then(status)
                .unwrap_or_else(|| "no status".into()),
        )
    };
    match tokio::time::timeout_at(give_up, call).await {
        Ok(Ok(code)) => code,
        Ok(Err(error)) => format!("HTTP/2 error ({error})"),
        Err(_) => "gave up at deadline".into(),
    }
}

/// What the probe saw: when its call was sent and answered, and how it ended.
type ProbeResult = (Instant, Instant, Result<(), tonic::Code>);

/// A caller on a thread, a runtime and a connection of its own, so that its
/// timing does not wait for the burst's tasks: it sends `request` at the
/// instant it is given.
struct Probe {
    go: tokio::sync::oneshot::Sender<Instant>,
    result: tokio::sync::oneshot::Receiver<ProbeResult>,
}

impl Probe {
    async fn start(url: String, request: proto::SolveRequest) -> Probe {
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        let (go_tx, go_rx) = tokio::sync::oneshot::channel::<Instant>();
        let (result_tx, result_rx) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a tokio runtime");
            runtime.block_on(async move {
                let channel = Endpoint::from_shared(url)
                    .expect("a valid url")
                    .tcp_nodelay(true)
                    .connect()
                    .await
                    .expect("the server accepts connections");
                HealthClient::new(channel.clone())
                    .check(HealthCheckRequest::default())
                    .await
                    .expect("the health service answers");
                let mut client = solve_client(&channel);
                ready_tx.send(()).ok();
                let Ok(at) = go_rx.await else { return };
                tokio::time::sleep_until(at.into()).await;
                let mut request = tonic::Request::new(request);
                request.set_timeout(Duration::from_secs(120));
                let sent = Instant::now();
                let result = client.solve(request).await.map(drop).map_err(|s| s.code());
                result_tx.send((sent, Instant::now(), result)).ok();
            });
        });
        ready_rx.await.expect("the probe connects");
        Probe {
            go: go_tx,
            result: result_rx,
        }
    }

    async fn send_at(self, at: Instant) -> ProbeResult {
        self.go.send(at).expect("the probe waits");
        self.result.await.expect("the probe reports")
    }
}

async fn abandon_once(
    args: &AbandonArgs,
    requests: &[Bytes],
    small: proto::SolveRequest,
) -> AbandonRep {
    let server = Server::start(&args.server);
    let channels = server.connect(args.connections.max(1)).await;
    let probe = Probe::start(server.url.clone(), small).await;
    // Let start-up settle before reading the idle figure.
    HealthClient::new(channels[0].clone())
        .check(HealthCheckRequest::default())
        .await
        .expect("the health service answers");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let idle = server.rss();
    let sampler = RssSampler::start(server.pid(), Duration::from_millis(10));
    let deadline = Duration::from_millis(args.deadline_ms);

    let calls = requests.len();
    let h2_clients = if args.tonic {
        Vec::new()
    } else {
        let mut clients = Vec::new();
        for _ in 0..args.connections.max(1) {
            clients.push(h2_connect(&server.url).await);
        }
        clients
    };
    let cpu_idle = server.cpu();
    let client_cpu_idle = proc_cpu(std::process::id());
    let (sent_tx, mut sent_rx) = tokio::sync::mpsc::unbounded_channel();
    let mut set = JoinSet::new();
    for (i, request) in requests.iter().enumerate() {
        let request = request.clone();
        let sent_tx = sent_tx.clone();
        let channel = channels[i % channels.len()].clone();
        let h2_client = h2_clients.get(i % h2_clients.len().max(1)).cloned();
        set.spawn(async move {
            let sent = Instant::now();
            sent_tx.send(sent).ok();
            let code = match h2_client {
                Some(client) => solve_h2(client, request, deadline).await,
                None => solve_pre_encoded(channel, request, deadline).await,
            };
            (sent.elapsed(), code)
        });
    }
    let mut sends = Vec::with_capacity(calls);
    while sends.len() < calls {
        sends.push(sent_rx.recv().await.expect("every call reports its send"));
    }
    let first_sent = *sends.iter().min().expect("at least one call");
    let last_sent = *sends.iter().max().expect("at least one call");
    let last_deadline = last_sent + deadline;
    let pid = server.pid();
    let cpu_reader = std::thread::spawn(move || {
        std::thread::sleep(last_deadline.saturating_duration_since(Instant::now()));
        (proc_cpu(pid), proc_cpu(std::process::id()))
    });
    let (small_sent, answered, small) = probe.send_at(last_deadline).await;
    // The probe answers after the last deadline: the reading is there.
    let (cpu_at_deadline, client_cpu_at_deadline) = cpu_reader.join().expect("the CPU reader");

    let mut codes = Codes::new();
    let mut large_us = Vec::with_capacity(calls);
    while let Some(joined) = set.join_next().await {
        let (took, code) = joined.expect("a call task");
        large_us.push(micros(took));
        *codes.entry(code).or_default() += 1;
    }
    large_us.sort_unstable();
    tokio::time::sleep(Duration::from_millis(args.settle_ms)).await;
    let samples = sampler.finish();
    let watched = last_deadline.elapsed();
    let cpu_after_deadline = server.cpu().saturating_sub(cpu_at_deadline);
    AbandonRep {
        codes,
        large_us,
        cpu_burst: cpu_at_deadline.saturating_sub(cpu_idle),
        client_cpu_burst: client_cpu_at_deadline.saturating_sub(client_cpu_idle),
        spread_ms: (last_sent - first_sent).as_secs_f64() * 1e3,
        after_deadline_ms: (answered - last_deadline).as_secs_f64() * 1e3,
        round_trip_ms: (answered - small_sent).as_secs_f64() * 1e3,
        small,
        idle,
        peak: samples.iter().map(|s| s.1).max().unwrap_or(0),
        hwm: server.hwm(),
        end: server.rss(),
        cpu_after_deadline,
        watched_ms: watched.as_secs_f64() * 1e3,
    }
}

// ---------------------------------------------------------------------------
// Scenario 3: empty graphs of the largest size

struct EmptyMaxRep {
    codes: Codes,
    /// Sorted call latencies, in microseconds, whatever their outcome.
    latencies: Vec<u32>,
    idle: u64,
    peak: u64,
    hwm: u64,
    end: u64,
}

async fn empty_max(args: EmptyMaxArgs) {
    println!("## empty-max: tiny requests for an edgeless graph of the largest size");
    let mut options = vec![
        format!("--calls {}", args.calls),
        format!("--vertices {}", args.vertices),
        format!("--timeout-secs {}", args.timeout_secs),
        format!("--connections {}", args.connections),
        format!("--reps {}", args.reps),
        format!("--settle-ms {}", args.settle_ms),
    ];
    if args.distinct_starts {
        options.push("--distinct-starts".into());
    }
    print_command("empty-max", &options, &args.server);
    let requests: Vec<_> = (0..args.calls)
        .map(|i| {
            let start = if args.distinct_starts {
                (i as u32) % args.vertices.max(1)
            } else {
                0
            };
            geography_request(args.vertices, Vec::new(), start)
        })
        .collect();
    println!(
        "{} Solve requests, geography on {} vertices and no edges, start {}; {} B each on the wire",
        args.calls,
        args.vertices,
        if args.distinct_starts {
            "0, 1, 2, … (one per call)"
        } else {
            "0 (all the same)"
        },
        requests.first().map_or(0, Message::encoded_len)
    );

    let mut reps = Vec::new();
    for _ in 0..args.reps.max(1) {
        reps.push(empty_max_once(&args, requests.clone()).await);
    }
    println!();
    println!(
        "| rep | calls ended | p50 ms | slowest ms | idle RSS MiB | peak RSS MiB (10 ms samples) | VmHWM MiB | RSS at end MiB |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (i, r) in reps.iter().enumerate() {
        println!(
            "| {} | {} | {:.1} | {:.1} | {} | {} | {} | {} |",
            i + 1,
            codes_text(&r.codes),
            percentile_ms(&r.latencies, 0.5),
            percentile_ms(&r.latencies, 1.0),
            mib(r.idle),
            mib(r.peak),
            mib(r.hwm),
            mib(r.end),
        );
    }
    let med = |f: &dyn Fn(&EmptyMaxRep) -> f64| median(&reps.iter().map(f).collect::<Vec<_>>());
    println!(
        "| median | | {:.1} | {:.1} | {:.0} | {:.0} | {:.0} | {:.0} |",
        med(&|r| percentile_ms(&r.latencies, 0.5)),
        med(&|r| percentile_ms(&r.latencies, 1.0)),
        med(&|r| r.idle as f64 / 1048576.0),
        med(&|r| r.peak as f64 / 1048576.0),
        med(&|r| r.hwm as f64 / 1048576.0),
        med(&|r| r.end as f64 / 1048576.0),
    );
}

async fn empty_max_once(args: &EmptyMaxArgs, requests: Vec<proto::SolveRequest>) -> EmptyMaxRep {
    let server = Server::start(&args.server);
    let channels = server.connect(args.connections.max(1)).await;
    let clients: Vec<_> = channels.iter().map(solve_client).collect();
    HealthClient::new(channels[0].clone())
        .check(HealthCheckRequest::default())
        .await
        .expect("the health service answers");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let idle = server.rss();
    let sampler = RssSampler::start(server.pid(), Duration::from_millis(10));
    let timeout = Duration::from_secs(args.timeout_secs);
    let mut set = JoinSet::new();
    for (i, request) in requests.into_iter().enumerate() {
        let mut client = clients[i % clients.len()].clone();
        set.spawn(async move {
            let mut request = tonic::Request::new(request);
            request.set_timeout(timeout);
            let sent = Instant::now();
            let result = client.solve(request).await;
            (sent.elapsed(), result.map(drop).map_err(|s| s.code()))
        });
    }
    let mut codes = Codes::new();
    let mut latencies = Vec::new();
    while let Some(joined) = set.join_next().await {
        let (latency, result) = joined.expect("a call task");
        latencies.push(micros(latency));
        let code = match result {
            Ok(()) => "OK".to_string(),
            Err(code) => code_name(code),
        };
        *codes.entry(code).or_default() += 1;
    }
    tokio::time::sleep(Duration::from_millis(args.settle_ms)).await;
    let samples = sampler.finish();
    latencies.sort_unstable();
    EmptyMaxRep {
        codes,
        latencies,
        idle,
        peak: samples.iter().map(|s| s.1).max().unwrap_or(0),
        hwm: server.hwm(),
        end: server.rss(),
    }
}

// ---------------------------------------------------------------------------
// Peak memory per unit (vertex or edge) of one request

/// How a measured request is sent.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Via {
    /// `Solve` with the spec inline.
    Solve,
    /// `CreatePuzzle`.
    Create,
    /// `SolvePuzzle` of the stored puzzle.
    SolvePuzzle,
    /// `GetPuzzle` of the stored puzzle, `FULL` view.
    GetFull,
    /// `ListPuzzles` with the stored puzzle on its page, `FULL` view.
    ListFull,
    /// `AnalyzePosition` of the stored puzzle after the one move to 1 (at
    /// the start when it has no edges).
    AnalyzeStored,
    /// `AnalyzePosition` of the spec inline with `n` moves (which need not
    /// be legal: the list is decoded and admitted before it is read).
    AnalyzeMoves(u32),
    /// A Play game opened on the stored puzzle, until its first position.
    Play,
    /// `Solve` `n` times in a row on one server, each with a distinct start
    /// (no cache hit): the peak after all of them, per unit of one.
    SolveRepeated(u32),
}

impl Via {
    /// Whether the puzzle is stored first, by a server process that is then
    /// replaced, so that the measured request starts from a fresh process.
    fn stored(self) -> bool {
        matches!(
            self,
            Via::SolvePuzzle | Via::GetFull | Via::ListFull | Via::AnalyzeStored | Via::Play
        )
    }

    fn call(self) -> String {
        match self {
            Via::Solve => "`Solve`".into(),
            Via::Create => "`CreatePuzzle`".into(),
            Via::SolvePuzzle => "`SolvePuzzle`".into(),
            Via::GetFull => "`GetPuzzle` FULL".into(),
            Via::ListFull => "`ListPuzzles` FULL".into(),
            Via::AnalyzeStored => "`AnalyzePosition` by name".into(),
            Via::AnalyzeMoves(n) => format!("`AnalyzePosition` with {n} moves"),
            Via::Play => "Play, opened by name".into(),
            Via::SolveRepeated(n) => format!("`Solve` × {n} in a row, distinct starts"),
        }
    }
}

/// A puzzle shape whose peak memory is measured, and how it is sent.
struct Shape {
    name: &'static str,
    game: proto::Game,
    vertex_count: u32,
    edges: Vec<u32>,
    start: u32,
    via: Via,
}

impl Shape {
    fn geography(name: &'static str, vertex_count: u32, edges: Vec<u32>, via: Via) -> Shape {
        Shape {
            name,
            game: proto::Game::Geography,
            vertex_count,
            edges,
            start: 0,
            via,
        }
    }

    /// The vertices + edges (+ moves) the request is admitted with.
    fn units(&self) -> u64 {
        let moves = match self.via {
            Via::AnalyzeMoves(n) => u64::from(n),
            _ => 0,
        };
        u64::from(self.vertex_count) + self.edges.len() as u64 / 2 + moves
    }

    fn spec(&self, start: u32) -> proto::PuzzleSpec {
        proto::PuzzleSpec {
            game: self.game as i32,
            graph: Some(proto::Graph {
                vertex_count: self.vertex_count,
                edges: self.edges.clone(),
            }),
            start,
            ..Default::default()
        }
    }
}

/// A random simple bipartite graph: even vertices on one side, odd ones on
/// the other.
fn random_bipartite(n: u32, m: usize, seed: u64) -> Vec<u32> {
    let mut rng = XorShift::scrambled(seed);
    let half = u64::from(n / 2);
    let mut edges = EdgeSet::new();
    while edges.len() < m {
        let u = (2 * rng.below(half)) as u32;
        let v = (2 * rng.below(half) + 1) as u32;
        edges.add(u, v);
    }
    edges.into_flat()
}

/// One request per shape, each on a fresh server, with every extra asked
/// for: the server's peak RSS (VmHWM) over its idle RSS, per unit the
/// request is admitted with.
async fn peak(server: ServerArgs) {
    println!("## peak: memory per vertex + edge of one request on an idle server");
    print_command("peak", &[], &server);
    let mut server = server;
    // Measure the shapes, not the budget: admit every one of them.
    server
        .server_args
        .push("--admission-budget=4000000000".into());
    server.server_args.push("--games-budget=4000000000".into());
    let path_5m = || path(5_000_000);
    let shapes = [
        Shape::geography("geography, edgeless", 10_000_000, Vec::new(), Via::Solve),
        Shape::geography("geography, edgeless", 10_000_000, Vec::new(), Via::Create),
        Shape::geography(
            "geography, edgeless",
            10_000_000,
            Vec::new(),
            Via::AnalyzeStored,
        ),
        Shape {
            game: proto::Game::BipartiteEdge,
            ..Shape::geography(
                "bipartite edge game, edgeless",
                10_000_000,
                Vec::new(),
                Via::Solve,
            )
        },
        Shape::geography(
            "geography, gnm d=4",
            1_000_000,
            random_graph(1_000_000, 2_000_000, 1),
            Via::Solve,
        ),
        Shape::geography(
            "geography, gnm d=16",
            250_000,
            random_graph(250_000, 2_000_000, 2),
            Via::Solve,
        ),
        Shape::geography("geography, path", 5_000_000, path_5m(), Via::Solve),
        Shape::geography("geography, path", 5_000_000, path_5m(), Via::Create),
        Shape::geography("geography, path", 5_000_000, path_5m(), Via::SolvePuzzle),
        Shape::geography("geography, path", 5_000_000, path_5m(), Via::GetFull),
        Shape::geography("geography, path", 5_000_000, path_5m(), Via::ListFull),
        Shape::geography("geography, path", 5_000_000, path_5m(), Via::AnalyzeStored),
        Shape::geography("geography, path", 5_000_000, path_5m(), Via::Play),
        Shape::geography("geography, path", 5, path(5), Via::AnalyzeMoves(10_000_000)),
        Shape {
            start: 1,
            ..Shape::geography(
                "geography, star",
                5_000_000,
                (1..5_000_000).flat_map(|v| [0, v]).collect(),
                Via::Solve,
            )
        },
        Shape {
            game: proto::Game::TreePaint,
            ..Shape::geography("tree painting, path", 5_000_000, path_5m(), Via::Solve)
        },
        Shape {
            game: proto::Game::TreePaint,
            ..Shape::geography(
                "tree painting, star",
                5_000_000,
                (1..5_000_000).flat_map(|v| [0, v]).collect(),
                Via::Solve,
            )
        },
        Shape {
            game: proto::Game::BipartiteEdge,
            ..Shape::geography(
                "bipartite edge game, random",
                2_000_000,
                random_bipartite(2_000_000, 4_000_000, 3),
                Via::Solve,
            )
        },
        Shape::geography(
            "geography, edgeless",
            10_000_000,
            Vec::new(),
            Via::SolveRepeated(6),
        ),
    ];
    println!();
    println!(
        "| request | call | vertices | edges | idle RSS MiB | peak RSS MiB | peak over idle MiB | bytes per unit |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut worst = (0.0, String::new());
    for shape in shapes {
        let edge_count = shape.edges.len() / 2;
        let units = shape.units();
        let (name, call, vertex_count) = (shape.name, shape.via.call(), shape.vertex_count);
        let (idle, hwm) = peak_once(&server, shape).await;
        let over = hwm.saturating_sub(idle);
        let per_unit = over as f64 / units as f64;
        println!(
            "| {name} | {call} | {vertex_count} | {edge_count} | {} | {} | {} | {per_unit:.1} |",
            mib(idle),
            mib(hwm),
            mib(over),
        );
        if per_unit > worst.0 {
            worst = (per_unit, format!("{name}, {call}"));
        }
    }
    println!();
    println!(
        "worst: {:.1} bytes a unit ({}); the admission budget is sized on {} (PEAK_BYTES_PER_UNIT)",
        worst.0,
        worst.1,
        puzzled::app::admission::PEAK_BYTES_PER_UNIT
    );
}

/// The server's idle RSS and its peak (VmHWM) once `shape` was sent.
async fn peak_once(server_args: &ServerArgs, shape: Shape) -> (u64, u64) {
    let mut server = Server::start(server_args);
    let mut name = String::new();
    if shape.via.stored() {
        let channels = server.connect(1).await;
        name = solve_client(&channels[0])
            .create_puzzle(proto::CreatePuzzleRequest {
                puzzle: Some(proto::Puzzle {
                    spec: Some(shape.spec(shape.start)),
                    ..Default::default()
                }),
                request_id: String::new(),
            })
            .await
            .expect("the puzzle is stored")
            .into_inner()
            .name;
        drop(channels);
        server = server.restarted(server_args);
    }
    let channels = server.connect(1).await;
    let mut client = solve_client(&channels[0]);
    HealthClient::new(channels[0].clone())
        .check(HealthCheckRequest::default())
        .await
        .expect("the health service answers");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let idle = server.rss();
    let vertex = |v: u32| proto::Move {
        r#move: Some(proto::r#move::Move::Vertex(v)),
    };
    match shape.via {
        Via::Solve | Via::Create | Via::SolveRepeated(_) => {
            let times = match shape.via {
                Via::SolveRepeated(n) => n,
                _ => 1,
            };
            for i in 0..times {
                let spec = shape.spec(shape.start + i);
                if shape.via == Via::Create {
                    client
                        .create_puzzle(proto::CreatePuzzleRequest {
                            puzzle: Some(proto::Puzzle {
                                spec: Some(spec),
                                ..Default::default()
                            }),
                            request_id: String::new(),
                        })
                        .await
                        .map(drop)
                } else {
                    client
                        .solve(proto::SolveRequest {
                            spec: Some(spec),
                            include_all_starts: true,
                            include_winning_moves: true,
                        })
                        .await
                        .map(drop)
                }
                .expect("the request is answered");
            }
        }
        Via::SolvePuzzle => {
            client
                .solve_puzzle(proto::SolvePuzzleRequest {
                    name,
                    include_all_starts: true,
                    include_winning_moves: true,
                })
                .await
                .expect("the puzzle is solved");
        }
        Via::GetFull => {
            client
                .get_puzzle(proto::GetPuzzleRequest {
                    name,
                    view: proto::PuzzleView::Full as i32,
                })
                .await
                .expect("the puzzle is read");
        }
        Via::ListFull => {
            let page = client
                .list_puzzles(proto::ListPuzzlesRequest {
                    view: proto::PuzzleView::Full as i32,
                    page_size: 1,
                    ..Default::default()
                })
                .await
                .expect("the page is read")
                .into_inner();
            assert_eq!(page.puzzles.len(), 1, "the puzzle is on the page");
        }
        Via::AnalyzeStored => {
            client
                .analyze_position(proto::AnalyzePositionRequest {
                    puzzle: Some(proto::analyze_position_request::Puzzle::Name(name)),
                    // A move when there is one to make.
                    moves: if shape.edges.is_empty() {
                        Vec::new()
                    } else {
                        vec![vertex(1)]
                    },
                })
                .await
                .expect("the position is analysed");
        }
        Via::AnalyzeMoves(n) => {
            // Illegal after the first: refused once the list is read.
            let answer = client
                .analyze_position(proto::AnalyzePositionRequest {
                    puzzle: Some(proto::analyze_position_request::Puzzle::Spec(
                        shape.spec(shape.start),
                    )),
                    moves: (0..n).map(|i| vertex(1 + i % 2)).collect(),
                })
                .await;
            if let Err(status) = answer {
                assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
            }
        }
        Via::Play => {
            let (say, said) = tokio::sync::mpsc::channel(1);
            say.send(proto::PlayRequest {
                request: Some(proto::play_request::Request::Start(proto::PlayStart {
                    puzzle: Some(proto::play_start::Puzzle::Name(name)),
                    human_side: proto::Player::First as i32,
                })),
            })
            .await
            .expect("the request stream is open");
            let mut game = client
                .play(tokio_stream::wrappers::ReceiverStream::new(said))
                .await
                .expect("the game starts")
                .into_inner();
            game.message()
                .await
                .expect("the game answers")
                .expect("an opening position");
            drop(say);
        }
    }
    (idle, server.hwm())
}

// ---------------------------------------------------------------------------
// The read calls of a puzzle site, loaded from outside by h2load

/// One call as h2load sends it: a path and a framed gRPC request.
struct ExternalCall {
    name: String,
    path: &'static str,
    body: Bytes,
}

/// `message` encoded in one gRPC frame.
fn framed(message: &impl Message) -> Bytes {
    grpc_frame(&message.encode_to_vec())
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

async fn external(args: ExternalArgs) {
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
        let mut index = 0;
        calls.retain(|call| {
            index += 1;
            index == 1 || call.name.contains(only.as_str())
        });
    }
    println!(
        "server {} (pid {}), {}, {} connections × {} streams, {} s a run",
        server.url,
        server.pid(),
        String::from_utf8_lossy(&version.stdout).trim(),
        args.connections,
        args.streams,
        args.secs
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut runs: Vec<Vec<H2loadRun>> = vec![Vec::new(); calls.len()];
    for _ in 0..args.reps.max(1) {
        for (i, call) in calls.iter().enumerate() {
            runs[i].push(h2load(&args, &server, dir.path(), call, None));
        }
    }
    let medians: Vec<H2loadRun> = runs
        .iter()
        .map(|runs| H2loadRun {
            calls_per_sec: median_of(runs, |r| r.calls_per_sec),
            p50_ms: median_of(runs, |r| r.p50_ms),
            p99_ms: median_of(runs, |r| r.p99_ms),
            server_cpu_us: median_of(runs, |r| r.server_cpu_us),
        })
        .collect();
    // At half of each call's peak rate, its tail latency against health's
    // at half of health's.
    let mut half: Vec<Vec<H2loadRun>> = vec![Vec::new(); calls.len()];
    for _ in 0..args.reps.max(1) {
        for (i, call) in calls.iter().enumerate() {
            let rate = medians[i].calls_per_sec / 2.0;
            half[i].push(h2load(&args, &server, dir.path(), call, Some(rate)));
        }
    }
    let half_p99: Vec<f64> = half
        .iter()
        .map(|runs| median_of(runs, |r| r.p99_ms))
        .collect();
    let health = medians[0];
    println!();
    println!(
        "| call | calls/s | ÷ health | p50 ms | p99 ms | server CPU µs a call | p99 ms at half its peak rate | ÷ health's |"
    );
    println!("|---|---|---|---|---|---|---|---|");
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

fn median_of(runs: &[H2loadRun], field: impl Fn(&H2loadRun) -> f64) -> f64 {
    median(&runs.iter().map(field).collect::<Vec<_>>())
}

/// The calls measured, each checked once through tonic (h2load counts an
/// HTTP 200 as a success, whatever the gRPC status in its trailers) and
/// made a cache hit where the call has a cache.
async fn prepare_external_calls(client: &mut PuzzleServiceClient<Channel>) -> Vec<ExternalCall> {
    let health = ExternalCall {
        name: "`grpc.health.v1.Health/Check`".into(),
        path: "/grpc.health.v1.Health/Check",
        body: framed(&HealthCheckRequest::default()),
    };
    let mut calls = vec![health];
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
    for (name, n, edges, start) in puzzles {
        let request = geography_request(n, edges, start);
        client
            .solve(request.clone())
            .await
            .unwrap_or_else(|status| panic!("{name}: {status}"));
        calls.push(ExternalCall {
            name: format!("cached `Solve`, {name}"),
            path: "/puzzled.v1.PuzzleService/Solve",
            body: framed(&request),
        });
    }

    let create = |spec: proto::PuzzleSpec| proto::CreatePuzzleRequest {
        puzzle: Some(proto::Puzzle {
            spec: Some(spec),
            ..Default::default()
        }),
        request_id: String::new(),
    };
    // Fifty puzzles for a page, the last a 6-vertex path.
    let mut name = String::new();
    for i in 0..50u32 {
        let request = geography_request(6 + i % 5, path(6 + i % 5), 0);
        name = client
            .create_puzzle(create(request.spec.expect("a spec")))
            .await
            .expect("the puzzle is stored")
            .into_inner()
            .name;
    }
    let get = proto::GetPuzzleRequest {
        name: name.clone(),
        view: proto::PuzzleView::Full as i32,
    };
    client
        .get_puzzle(get.clone())
        .await
        .expect("the puzzle is read");
    calls.push(ExternalCall {
        name: "`GetPuzzle` FULL, 6-vertex path".into(),
        path: "/puzzled.v1.PuzzleService/GetPuzzle",
        body: framed(&get),
    });
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
    calls.push(ExternalCall {
        name: "`ListPuzzles`, page of 50, BASIC".into(),
        path: "/puzzled.v1.PuzzleService/ListPuzzles",
        body: framed(&list),
    });
    let solve_puzzle = proto::SolvePuzzleRequest {
        name: name.clone(),
        include_all_starts: false,
        include_winning_moves: false,
    };
    client
        .solve_puzzle(solve_puzzle.clone())
        .await
        .expect("the stored puzzle is solved");
    calls.push(ExternalCall {
        name: "cached `SolvePuzzle`, 6-vertex path".into(),
        path: "/puzzled.v1.PuzzleService/SolvePuzzle",
        body: framed(&solve_puzzle),
    });
    let analyze = proto::AnalyzePositionRequest {
        puzzle: Some(proto::analyze_position_request::Puzzle::Name(name)),
        moves: Vec::new(),
    };
    client
        .analyze_position(analyze.clone())
        .await
        .expect("the start is analysed");
    calls.push(ExternalCall {
        name: "`AnalyzePosition`, cached start of a 6-vertex path".into(),
        path: "/puzzled.v1.PuzzleService/AnalyzePosition",
        body: framed(&analyze),
    });
    calls
}

/// One h2load run of `call`: closed loop, or at `rate` calls a second in
/// all when given.
fn h2load(
    args: &ExternalArgs,
    server: &Server,
    dir: &std::path::Path,
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
        let per_client = (rate / args.connections.max(1) as f64).max(1.0);
        command.arg(format!("--rps={per_client:.0}"));
    }
    command.arg(format!("{}{}", server.url, call.path));
    let cpu_before = server.cpu();
    let output = command.output().expect("h2load runs");
    let cpu = server.cpu() - cpu_before;
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "h2load failed: {text}");
    // "requests: 1000 total, 1000 started, 1000 done, 1000 succeeded, 0
    // failed, 0 errored, 0 timeout"
    let done = text
        .lines()
        .find(|l| l.starts_with("requests:"))
        .unwrap_or_default();
    let count = |what: &str| {
        done.split(", ")
            .find_map(|part| part.trim_start_matches("requests: ").strip_suffix(what))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{}: no{what} in {done:?}", call.name))
    };
    let succeeded = count(" succeeded");
    assert!(
        succeeded > 0 && count(" failed") == 0 && count(" errored") == 0,
        "{}: {done}",
        call.name
    );
    let calls_per_sec = text
        .lines()
        .find_map(|l| l.strip_prefix("finished in "))
        .and_then(|l| l.split(", ").nth(1))
        .and_then(|rate| rate.trim_end_matches(" req/s").parse::<f64>().ok())
        .expect("h2load's rate");
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
