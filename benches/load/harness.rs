//! What the load scenarios share: the server as a child process and its
//! figures read from `/proc` (resident memory, its peak, CPU time), the
//! requests and clients the scenarios send with, and the statistics and
//! Markdown tables they print.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use clap::Args;
use puzzled::api::proto;
use puzzled::api::proto::puzzle_service_client::PuzzleServiceClient;
use puzzled_testkit::stats::median;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

// `round_trip` starts its servers the same way; bench targets are separate
// crates, so the launcher is a file both include by path.
#[path = "../common/server.rs"]
mod child;

use child::ChildServer;

/// How the server is started (shared by every scenario).
#[derive(Args, Clone)]
pub struct ServerArgs {
    /// The `puzzled` executable (default: the one `cargo bench` built).
    #[arg(long, default_value = env!("CARGO_BIN_EXE_puzzled"))]
    pub puzzled: PathBuf,
    /// A flag for `puzzled serve`, e.g. --server-arg=--solve-workers=4 (repeatable).
    #[arg(long = "server-arg", value_name = "FLAG", allow_hyphen_values = true)]
    pub server_args: Vec<String>,
    /// Copy the server's log to stderr.
    #[arg(long)]
    pub server_log: bool,
}

impl ServerArgs {
    /// The options that reproduce these settings, the defaults left out.
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

/// Prints the command line that reproduces a scenario's run.
pub fn print_command(scenario: &str, options: &[String], server: &ServerArgs) {
    let mut line = format!("cargo bench --bench load -- {scenario}");
    for option in options.iter().chain(&server.argv()) {
        line.push(' ');
        line.push_str(option);
    }
    println!("$ {line}");
}

// ---------------------------------------------------------------------------
// The server as a child process

/// A `puzzled serve` of its own, so that what `/proc` says is the server's
/// alone, on a fresh SQLite file in a temporary directory.
pub struct Server {
    // Declared before `dir`: the process dies before its directory goes.
    process: ChildServer,
    dir: Arc<tempfile::TempDir>,
}

impl Server {
    pub fn start(args: &ServerArgs) -> Server {
        let dir = tempfile::tempdir().expect("a temporary directory");
        Server::start_in(args, Arc::new(dir))
    }

    /// A fresh server process on this one's database: what was stored
    /// stays, what the old process held in memory does not.
    pub fn restarted(self, args: &ServerArgs) -> Server {
        let dir = self.dir.clone();
        drop(self);
        Server::start_in(args, dir)
    }

    fn start_in(args: &ServerArgs, dir: Arc<tempfile::TempDir>) -> Server {
        let database = dir.path().join("puzzled.db");
        let process =
            ChildServer::start(&args.puzzled, &database, &args.server_args, args.server_log);
        Server { process, dir }
    }

    /// `http://ADDRESS`.
    pub fn url(&self) -> &str {
        &self.process.url
    }

    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// Resident memory now, in bytes.
    pub fn rss(&self) -> u64 {
        proc_status(self.pid()).rss
    }

    /// The highest resident memory since the server started, in bytes.
    pub fn hwm(&self) -> u64 {
        proc_status(self.pid()).hwm
    }

    /// CPU time the server has used so far.
    pub fn cpu(&self) -> Duration {
        proc_cpu(self.pid())
    }

    pub async fn connect(&self, n: usize) -> Vec<Channel> {
        let mut channels = Vec::with_capacity(n);
        for _ in 0..n {
            channels.push(
                Endpoint::from_shared(self.url().to_owned())
                    .expect("a valid url")
                    .tcp_nodelay(true)
                    .connect()
                    .await
                    .expect("the server accepts connections"),
            );
        }
        channels
    }

    /// Resident memory once the server has answered on `channel` and had
    /// time to settle: the baseline a burst's peak is read against.
    pub async fn idle_rss(&self, channel: &Channel) -> u64 {
        HealthClient::new(channel.clone())
            .check(HealthCheckRequest::default())
            .await
            .expect("the health service answers");
        tokio::time::sleep(Duration::from_millis(200)).await;
        self.rss()
    }
}

// ---------------------------------------------------------------------------
// Figures from /proc

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
pub fn proc_cpu(pid: u32) -> Duration {
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
pub struct RssSampler {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<Vec<(Instant, u64)>>,
}

impl RssSampler {
    pub fn start(pid: u32, every: Duration) -> RssSampler {
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

    pub fn finish(self) -> Vec<(Instant, u64)> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the sampler thread")
    }
}

/// The server's resident memory around one burst of calls, in bytes.
pub struct Memory {
    pub idle: u64,
    /// The highest of the sampler's readings.
    pub peak: u64,
    /// VmHWM, the kernel's own peak, which falls between no samples.
    pub hwm: u64,
    pub end: u64,
}

impl Memory {
    /// Read once the burst and its settling time are over.
    pub fn after_burst(server: &Server, idle: u64, samples: &[(Instant, u64)]) -> Memory {
        Memory {
            idle,
            peak: samples.iter().map(|s| s.1).max().unwrap_or(0),
            hwm: server.hwm(),
            end: server.rss(),
        }
    }

    /// Idle, peak, VmHWM and end as table cells, in MiB.
    pub fn cells(&self) -> String {
        let [idle, peak, hwm, end] = [self.idle, self.peak, self.hwm, self.end].map(mib);
        format!("{idle} | {peak} | {hwm} | {end}")
    }

    /// The same cells, each the median over `reps`.
    pub fn median_cells<T>(reps: &[T], memory: impl Fn(&T) -> &Memory) -> String {
        let med =
            |figure: fn(&Memory) -> u64| median_by(reps, |r| figure(memory(r)) as f64 / 1048576.0);
        format!(
            "{:.0} | {:.0} | {:.0} | {:.0}",
            med(|m| m.idle),
            med(|m| m.peak),
            med(|m| m.hwm),
            med(|m| m.end),
        )
    }
}

pub fn mib(bytes: u64) -> String {
    format!("{:.0}", bytes as f64 / (1024.0 * 1024.0))
}

// ---------------------------------------------------------------------------
// Requests

pub fn geography_request(vertex_count: u32, edges: Vec<u32>, start: u32) -> proto::SolveRequest {
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

/// A client with no message size limit: the scenarios send and receive
/// graphs far past tonic's 4 MiB default.
pub fn solve_client(channel: &Channel) -> PuzzleServiceClient<Channel> {
    PuzzleServiceClient::new(channel.clone())
        .max_decoding_message_size(usize::MAX)
        .max_encoding_message_size(usize::MAX)
}

/// A gRPC length-prefixed frame around an encoded message.
pub fn grpc_frame(message: &[u8]) -> Bytes {
    let mut frame = Vec::with_capacity(5 + message.len());
    frame.push(0);
    frame.extend((message.len() as u32).to_be_bytes());
    frame.extend_from_slice(message);
    frame.into()
}

/// How many calls ended with each status, by name.
pub type Codes = BTreeMap<String, usize>;

pub fn code_name(code: tonic::Code) -> String {
    format!("{code:?}")
}

pub fn codes_text(codes: &Codes) -> String {
    codes
        .iter()
        .map(|(code, n)| format!("{code} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

// ---------------------------------------------------------------------------
// Statistics and tables

/// Nearest-rank percentile of sorted microseconds, in milliseconds.
pub fn percentile_ms(sorted_us: &[u32], p: f64) -> f64 {
    if sorted_us.is_empty() {
        return f64::NAN;
    }
    let rank = ((p * sorted_us.len() as f64).ceil() as usize).clamp(1, sorted_us.len());
    sorted_us[rank - 1] as f64 / 1000.0
}

/// Whole microseconds, saturating at `u32::MAX` (about 71 minutes).
pub fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

/// The median of one figure over repetitions.
pub fn median_by<T>(items: &[T], figure: impl Fn(&T) -> f64) -> f64 {
    median(&items.iter().map(figure).collect::<Vec<_>>())
}

/// A Markdown table's header row and the rule under it.
pub fn print_table_head(columns: &[&str]) {
    println!("| {} |", columns.join(" | "));
    println!("|{}", "---|".repeat(columns.len()));
}
