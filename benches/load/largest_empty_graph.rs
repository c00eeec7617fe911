//! `empty-max`: concurrent tiny Solve requests for an edgeless graph of the
//! largest size the server accepts: how the calls end, how long they take,
//! and the server's peak memory against its idle memory.

use std::time::{Duration, Instant};

use clap::Args;
use prost::Message;
use puzzled::api::proto;
use tokio::task::JoinSet;

use crate::harness::{
    Codes, Memory, RssSampler, Server, ServerArgs, code_name, codes_text, geography_request,
    median_by, micros, percentile_ms, print_command, print_table_head, solve_client,
};

#[derive(Args, Clone)]
pub struct EmptyMaxArgs {
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
    pub server: ServerArgs,
}

struct EmptyMaxRep {
    codes: Codes,
    /// Sorted call latencies, in microseconds, whatever their outcome.
    latencies: Vec<u32>,
    memory: Memory,
}

pub async fn empty_max(args: EmptyMaxArgs) {
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
    let requests = requests(&args);
    let mut reps = Vec::new();
    for _ in 0..args.reps.max(1) {
        reps.push(empty_max_once(&args, requests.clone()).await);
    }
    print_reps(&reps);
}

fn requests(args: &EmptyMaxArgs) -> Vec<proto::SolveRequest> {
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
    requests
}

fn print_reps(reps: &[EmptyMaxRep]) {
    println!();
    print_table_head(&[
        "rep",
        "calls ended",
        "p50 ms",
        "slowest ms",
        "idle RSS MiB",
        "peak RSS MiB (10 ms samples)",
        "VmHWM MiB",
        "RSS at end MiB",
    ]);
    for (i, r) in reps.iter().enumerate() {
        println!(
            "| {} | {} | {:.1} | {:.1} | {} |",
            i + 1,
            codes_text(&r.codes),
            percentile_ms(&r.latencies, 0.5),
            percentile_ms(&r.latencies, 1.0),
            r.memory.cells(),
        );
    }
    println!(
        "| median | | {:.1} | {:.1} | {} |",
        median_by(reps, |r| percentile_ms(&r.latencies, 0.5)),
        median_by(reps, |r| percentile_ms(&r.latencies, 1.0)),
        Memory::median_cells(reps, |r| &r.memory),
    );
}

async fn empty_max_once(args: &EmptyMaxArgs, requests: Vec<proto::SolveRequest>) -> EmptyMaxRep {
    let server = Server::start(&args.server);
    let channels = server.connect(args.connections.max(1)).await;
    let clients: Vec<_> = channels.iter().map(solve_client).collect();
    let idle = server.idle_rss(&channels[0]).await;
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
        memory: Memory::after_burst(&server, idle, &samples),
    }
}
