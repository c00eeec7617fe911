//! `abandon`: a burst of huge Solve calls whose callers give up at their
//! deadline, then a tiny Solve: how soon the server answers it, whether
//! the abandoned work goes on, and the memory the burst took.

use std::time::{Duration, Instant};

use bytes::{BufMut, Bytes};
use clap::Args;
use prost::Message;
use puzzled::api::proto;
use puzzled_testkit::random::random_graph;
use tokio::task::JoinSet;
use tonic::codec::{Codec, EncodeBuf, Encoder};
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;
use tonic_prost::ProstDecoder;

use crate::harness::{
    Codes, Memory, RssSampler, Server, ServerArgs, code_name, codes_text, geography_request,
    grpc_frame, median_by, micros, percentile_ms, print_command, print_table_head, proc_cpu,
    solve_client,
};

#[derive(Args, Clone)]
pub struct AbandonArgs {
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
    pub server: ServerArgs,
}

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
    memory: Memory,
    /// Server CPU time from the last deadline to the end of the watch.
    cpu_after_deadline: Duration,
    watched_ms: f64,
}

pub async fn abandon(args: AbandonArgs) {
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
    let requests = large_requests(&args);
    let small = geography_request(3, vec![0, 1, 1, 2], 0);

    let mut reps = Vec::new();
    for _ in 0..args.reps.max(1) {
        reps.push(abandon_once(&args, &requests, small.clone()).await);
    }
    print_reps(&args, &reps);
}

/// The large requests, built and encoded before any burst so that the
/// generator's work is not what the deadlines catch.
fn large_requests(args: &AbandonArgs) -> Vec<Bytes> {
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
    requests
}

fn print_reps(args: &AbandonArgs, reps: &[AbandonRep]) {
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
    print_table_head(&[
        "rep",
        "large calls ended",
        "their p50 / max ms",
        "sends spread ms",
        "server / generator CPU s until last deadline",
        "small Solve",
        "last deadline → small answered ms",
        "small round trip ms",
        "idle RSS MiB",
        "peak RSS MiB (10 ms samples)",
        "VmHWM MiB",
        "RSS at end MiB",
        "server CPU s after last deadline (over ms)",
    ]);
    for (i, r) in reps.iter().enumerate() {
        println!(
            "| {} | {} | {:.0} / {:.0} | {:.0} | {:.2} / {:.2} | {} | {:.1} | {:.1} | {} | {:.2} ({:.0}) |",
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
            r.memory.cells(),
            r.cpu_after_deadline.as_secs_f64(),
            r.watched_ms,
        );
    }
    let med = |f: &dyn Fn(&AbandonRep) -> f64| median_by(reps, f);
    println!(
        "| median | | {:.0} / {:.0} | {:.0} | {:.2} / {:.2} | | {:.1} | {:.1} | {} | {:.2} |",
        med(&|r| percentile_ms(&r.large_us, 0.5)),
        med(&|r| percentile_ms(&r.large_us, 1.0)),
        med(&|r| r.spread_ms),
        med(&|r| r.cpu_burst.as_secs_f64()),
        med(&|r| r.client_cpu_burst.as_secs_f64()),
        med(&|r| r.after_deadline_ms),
        med(&|r| r.round_trip_ms),
        Memory::median_cells(reps, |r| &r.memory),
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

// ---------------------------------------------------------------------------
// The large calls: through tonic, or over raw HTTP/2

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

/// Unary `Solve` over raw HTTP/2 with a `grpc-timeout`; at the deadline the
/// caller gives up and drops the stream (RST_STREAM CANCEL), as a gRPC
/// client does. Returns the status name, or "gave up" for the deadline.
async fn solve_h2(
    client: h2::client::SendRequest<Bytes>,
    frame: Bytes,
    deadline: Duration,
) -> String {
    let give_up = tokio::time::Instant::now() + deadline;
    match tokio::time::timeout_at(give_up, h2_unary(client, frame, deadline)).await {
        Ok(Ok(code)) => code,
        Ok(Err(error)) => format!("HTTP/2 error ({error})"),
        Err(_) => "gave up at deadline".into(),
    }
}

/// The call of `solve_h2`, to its gRPC status, however long it takes.
async fn h2_unary(
    client: h2::client::SendRequest<Bytes>,
    frame: Bytes,
    deadline: Duration,
) -> Result<String, String> {
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
    // A trailers-only answer: the status comes with the headers.
    if let Some(code) = status(response.headers()) {
        return Ok(code);
    }
    let mut body = response.into_body();
    while let Some(data) = body.data().await {
        let data = data.map_err(|e| e.to_string())?;
        body.flow_control().release_capacity(data.len()).ok();
    }
    let trailers = body.trailers().await.map_err(|e| e.to_string())?;
    Ok(trailers
        .as_ref()
        .and_then(status)
        .unwrap_or_else(|| "no status".into()))
}

/// The large calls in flight, and when the first and the last were sent.
struct Burst {
    calls: JoinSet<(Duration, String)>,
    first_sent: Instant,
    last_sent: Instant,
}

impl Burst {
    /// Sends every request at once, spread over the connections: over raw
    /// HTTP/2 when `h2_clients` are given, through tonic otherwise.
    async fn send(
        requests: &[Bytes],
        channels: &[Channel],
        h2_clients: &[h2::client::SendRequest<Bytes>],
        deadline: Duration,
    ) -> Burst {
        let (sent_tx, mut sent_rx) = tokio::sync::mpsc::unbounded_channel();
        let mut calls = JoinSet::new();
        for (i, request) in requests.iter().enumerate() {
            let request = request.clone();
            let sent_tx = sent_tx.clone();
            let channel = channels[i % channels.len()].clone();
            let h2_client = h2_clients.get(i % h2_clients.len().max(1)).cloned();
            calls.spawn(async move {
                let sent = Instant::now();
                sent_tx.send(sent).ok();
                let code = match h2_client {
                    Some(client) => solve_h2(client, request, deadline).await,
                    None => solve_pre_encoded(channel, request, deadline).await,
                };
                (sent.elapsed(), code)
            });
        }
        // The tasks start when the runtime gets to them: their own clocks
        // say when each call really left.
        let mut sends = Vec::with_capacity(requests.len());
        while sends.len() < requests.len() {
            sends.push(sent_rx.recv().await.expect("every call reports its send"));
        }
        Burst {
            calls,
            first_sent: *sends.iter().min().expect("at least one call"),
            last_sent: *sends.iter().max().expect("at least one call"),
        }
    }

    /// How the calls ended, and how long they took, sorted, in microseconds.
    async fn ended(mut self) -> (Codes, Vec<u32>) {
        let mut codes = Codes::new();
        let mut large_us = Vec::with_capacity(self.calls.len());
        while let Some(joined) = self.calls.join_next().await {
            let (took, code) = joined.expect("a call task");
            large_us.push(micros(took));
            *codes.entry(code).or_default() += 1;
        }
        large_us.sort_unstable();
        (codes, large_us)
    }
}

// ---------------------------------------------------------------------------
// The small call

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
                // A first call, so that the measured one finds the
                // connection ready.
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

// ---------------------------------------------------------------------------
// One burst

async fn abandon_once(
    args: &AbandonArgs,
    requests: &[Bytes],
    small: proto::SolveRequest,
) -> AbandonRep {
    let server = Server::start(&args.server);
    let channels = server.connect(args.connections.max(1)).await;
    let probe = Probe::start(server.url().to_owned(), small).await;
    let idle = server.idle_rss(&channels[0]).await;
    let sampler = RssSampler::start(server.pid(), Duration::from_millis(10));
    let deadline = Duration::from_millis(args.deadline_ms);
    let mut h2_clients = Vec::new();
    if !args.tonic {
        for _ in 0..args.connections.max(1) {
            h2_clients.push(h2_connect(server.url()).await);
        }
    }
    let cpu_idle = server.cpu();
    let client_cpu_idle = proc_cpu(std::process::id());
    let burst = Burst::send(requests, &channels, &h2_clients, deadline).await;
    let (first_sent, last_sent) = (burst.first_sent, burst.last_sent);
    let last_deadline = last_sent + deadline;
    let pid = server.pid();
    let cpu_reader = std::thread::spawn(move || {
        std::thread::sleep(last_deadline.saturating_duration_since(Instant::now()));
        (proc_cpu(pid), proc_cpu(std::process::id()))
    });
    let (small_sent, answered, small) = probe.send_at(last_deadline).await;
    // The probe answers after the last deadline: the reading is there.
    let (cpu_at_deadline, client_cpu_at_deadline) = cpu_reader.join().expect("the CPU reader");
    let (codes, large_us) = burst.ended().await;
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
        memory: Memory::after_burst(&server, idle, &samples),
        cpu_after_deadline,
        watched_ms: watched.as_secs_f64() * 1e3,
    }
}
