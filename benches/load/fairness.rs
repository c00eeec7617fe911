//! `fairness`: what a light caller's calls cost while heavy callers keep
//! the solve workers busy, against the same calls on the same server before
//! the heavy load starts.
//!
//! The server tells callers apart by writer token (every client here comes
//! from 127.0.0.1), so it is started with one token per caller and every
//! call carries its caller's. The light caller runs two loops, each one
//! call at a time: uncached `Solve`s of small puzzles it has never sent,
//! and cached `Solve`s of one puzzle solved before. Each heavy caller keeps
//! several calls going at once, all of them long pool work: GeneratePuzzles
//! streams that can find nothing, `Solve`s of large graphs never sent
//! before, and Play games on a large stored puzzle in which the engine
//! stands to lose.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use puzzled::api::proto;
use puzzled::api::proto::puzzle_service_client::PuzzleServiceClient;
use puzzled_testkit::random::{Rng as _, SplitMix, random_graph};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::{Channel, Endpoint};
use tonic_types::StatusExt as _;

use crate::harness::{
    Codes, Server, ServerArgs, codes_text, geography_request, micros, percentile_ms, print_command,
    print_table_head, solve_client,
};

#[derive(Args, Clone)]
pub struct FairnessArgs {
    /// Light calls of each kind (uncached, cached) in each phase.
    #[arg(long, default_value_t = 300)]
    light_calls: usize,
    /// Vertices of the light caller's puzzles (random Geography graphs).
    #[arg(long, default_value_t = 50)]
    light_vertices: u32,
    /// Edges of the light caller's puzzles.
    #[arg(long, default_value_t = 75)]
    light_edges: usize,
    /// Seconds the light caller waits for one answer before giving up on it.
    #[arg(long, default_value_t = 20.0)]
    light_deadline_secs: f64,
    /// Seconds the loaded phase may last: it ends then even if light calls remain.
    #[arg(long, default_value_t = 60.0)]
    max_loaded_secs: f64,
    /// Seconds of heavy load before the light caller starts measuring.
    #[arg(long, default_value_t = 3.0)]
    ramp_secs: f64,
    /// Heavy callers, each with a writer token of its own.
    #[arg(long, default_value_t = 2)]
    heavy_callers: usize,
    /// GeneratePuzzles streams each heavy caller keeps open.
    #[arg(long, default_value_t = 2)]
    generate_streams: usize,
    /// Large Solve calls each heavy caller keeps going.
    #[arg(long, default_value_t = 4)]
    solve_streams: usize,
    /// Play games each heavy caller keeps going.
    #[arg(long, default_value_t = 1)]
    play_games: usize,
    /// Vertices of each large Solve's graph.
    #[arg(long, default_value_t = 200_000)]
    solve_vertices: u32,
    /// Edges of each large Solve's graph.
    #[arg(long, default_value_t = 300_000)]
    solve_edges: usize,
    /// GeneratePuzzles: the fewest vertices of a candidate (GNM Geography).
    #[arg(long, default_value_t = 2_000)]
    generate_min_vertices: u32,
    /// GeneratePuzzles: the most vertices of a candidate.
    #[arg(long, default_value_t = 20_000)]
    generate_max_vertices: u32,
    /// GeneratePuzzles: the only-move depth asked for, more than random
    /// graphs ever give, so that every candidate is rejected (128, the
    /// most the main line's walk can show, is the most a request may ask).
    #[arg(long, default_value_t = 128)]
    generate_depth: u32,
    /// GeneratePuzzles: candidates rejected in a row before the call ends;
    /// halved (or cut to the largest figure the refusal names) whenever
    /// the server refuses it.
    #[arg(long, default_value_t = 1_000_000)]
    generate_max_rejected: u32,
    /// Paths hung on the hub of the Play puzzle.
    #[arg(long, default_value_t = 200)]
    play_paths: u32,
    /// Vertices of each path (even, so that the second player wins).
    #[arg(long, default_value_t = 5_000)]
    play_path_length: u32,
    /// Milliseconds a heavy call waits after being refused before it asks
    /// again, or longer when the refusal's `retry-after` says so.
    #[arg(long, default_value_t = 100)]
    retry_ms: u64,
    /// Seed of the graphs (the light puzzles, the large Solves' base graph,
    /// the generation requests).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// The light caller's name in the writer tokens.
const LIGHT: &str = "light";

/// A writer's token, as long as the server asks a token to be. They only
/// tell this run's callers apart, so they need not be secret, and they go
/// on the command line rather than in the environment, which the child
/// server's launcher does not set.
fn token_of(name: &str) -> String {
    format!("{name}-fairness-bench-token")
}

fn heavy_name(i: usize) -> String {
    format!("heavy{}", i + 1)
}

/// `message` with `authorization: Bearer TOKEN`, which the server charges
/// the call to.
fn authorized<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("a token is ASCII"),
    );
    request
}

/// A status as its code and, when it has one, its ErrorInfo reason.
fn status_name(status: &tonic::Status) -> String {
    let code = format!("{:?}", status.code());
    match status.get_error_details().error_info() {
        Some(info) => format!("{code} {}", info.reason),
        None => code,
    }
}

pub async fn fairness(args: FairnessArgs) {
    println!("## fairness: a light caller's calls while heavy callers saturate the solvers");
    print_command(
        "fairness",
        &[
            format!("--light-calls {}", args.light_calls),
            format!("--light-vertices {}", args.light_vertices),
            format!("--light-edges {}", args.light_edges),
            format!("--light-deadline-secs {}", args.light_deadline_secs),
            format!("--max-loaded-secs {}", args.max_loaded_secs),
            format!("--ramp-secs {}", args.ramp_secs),
            format!("--heavy-callers {}", args.heavy_callers),
            format!("--generate-streams {}", args.generate_streams),
            format!("--solve-streams {}", args.solve_streams),
            format!("--play-games {}", args.play_games),
            format!("--solve-vertices {}", args.solve_vertices),
            format!("--solve-edges {}", args.solve_edges),
            format!("--generate-min-vertices {}", args.generate_min_vertices),
            format!("--generate-max-vertices {}", args.generate_max_vertices),
            format!("--generate-depth {}", args.generate_depth),
            format!("--generate-max-rejected {}", args.generate_max_rejected),
            format!("--play-paths {}", args.play_paths),
            format!("--play-path-length {}", args.play_path_length),
            format!("--retry-ms {}", args.retry_ms),
            format!("--seed {}", args.seed),
        ],
        &args.server,
    );
    let names: Vec<String> = (0..args.heavy_callers)
        .map(heavy_name)
        .chain([LIGHT.to_owned()])
        .collect();
    let mut server_args = args.server.clone();
    server_args.server_args.push(format!(
        "--writer-tokens={}",
        names
            .iter()
            .map(|name| format!("{name}={}", token_of(name)))
            .collect::<Vec<_>>()
            .join(",")
    ));
    let server = Server::start(&server_args);
    let setup = Instant::now();
    let channel = server.connect(1).await.remove(0);
    let light = LightPuzzles::new(&args);
    let light_token = token_of(LIGHT);
    // Solved once here, so that every measured cached call is a hit.
    solve_client(&channel)
        .solve(authorized(light.cached.clone(), &light_token))
        .await
        .unwrap_or_else(|status| panic!("the light caller's first Solve failed: {status}"));
    let play_puzzle = if args.play_games > 0 && args.heavy_callers > 0 {
        Some(store_play_puzzle(&channel, &args).await)
    } else {
        None
    };
    let large = LargeGraphs::new(&args);
    println!(
        "server {} (pid {}), {} heavy callers and one light caller, each with a writer token; set up in {:.1} s",
        server.url(),
        server.pid(),
        args.heavy_callers,
        setup.elapsed().as_secs_f64()
    );

    let deadline = Duration::from_secs_f64(args.light_deadline_secs);
    let phase = |first: usize, within: Option<Duration>| LightPhase {
        url: server.url().to_owned(),
        puzzles: light.clone(),
        first,
        calls: args.light_calls,
        deadline,
        within,
    };
    let idle = phase(0, None).run().await;

    let heavy = Heavy::start(&server, &args, large, play_puzzle).await;
    tokio::time::sleep(Duration::from_secs_f64(args.ramp_secs)).await;
    let cpu_before = server.cpu();
    let loaded = phase(
        args.light_calls,
        Some(Duration::from_secs_f64(args.max_loaded_secs)),
    )
    .run()
    .await;
    let server_cores = (server.cpu() - cpu_before).as_secs_f64() / loaded.elapsed.as_secs_f64();
    let tally = heavy.stop().await;

    print_report(&args, &idle, &loaded, server_cores, &tally);
}

// ---------------------------------------------------------------------------
// The light caller

/// The light caller's puzzles: the cached one, and a fresh small graph
/// for each uncached call.
#[derive(Clone)]
struct LightPuzzles {
    cached: proto::SolveRequest,
    vertices: u32,
    edges: usize,
    seed: u64,
}

impl LightPuzzles {
    fn new(args: &FairnessArgs) -> LightPuzzles {
        LightPuzzles {
            cached: geography_request(
                args.light_vertices,
                random_graph(args.light_vertices, args.light_edges, args.seed),
                0,
            ),
            vertices: args.light_vertices,
            edges: args.light_edges,
            seed: args.seed,
        }
    }

    /// The `i`-th uncached puzzle: a graph of its own seed, none of them
    /// the cached one's, so that no two share a verdict.
    fn uncached(&self, i: usize) -> proto::SolveRequest {
        let seed = self.seed.wrapping_add(1 + i as u64);
        geography_request(
            self.vertices,
            random_graph(self.vertices, self.edges, seed),
            0,
        )
    }
}

/// What one phase of light calls measured.
struct LightRun {
    /// Sorted latencies of the answered calls, in microseconds.
    uncached: Vec<u32>,
    cached: Vec<u32>,
    /// How the other calls ended, by kind.
    uncached_failed: Codes,
    cached_failed: Codes,
    elapsed: Duration,
}

/// `calls` uncached and `calls` cached light calls, each kind one at a
/// time; the uncached puzzles are those from `first` on. With `within`,
/// the phase stops early once that much time has passed.
struct LightPhase {
    url: String,
    puzzles: LightPuzzles,
    first: usize,
    calls: usize,
    deadline: Duration,
    within: Option<Duration>,
}

impl LightPhase {
    /// Runs the phase on a thread, runtime and connection of its own, so
    /// that the heavy callers' work in this process (encoding large
    /// requests) never delays it.
    async fn run(self) -> LightRun {
        let (done, result) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime for the light caller");
            let _ = done.send(runtime.block_on(light_calls(self)));
        });
        result.await.expect("the light caller's thread")
    }
}

async fn light_calls(phase: LightPhase) -> LightRun {
    let LightPhase {
        url,
        puzzles,
        first,
        calls,
        deadline,
        within,
    } = phase;
    let channel = Endpoint::from_shared(url)
        .expect("a valid url")
        .tcp_nodelay(true)
        .connect()
        .await
        .expect("the server accepts connections");
    let client = solve_client(&channel);
    let token = token_of(LIGHT);
    // The connection's first call is not measured.
    let _ = timed_solve(&client, puzzles.cached.clone(), &token, deadline).await;
    let start = Instant::now();
    let until = within.map(|limit| start + limit);
    // Two loops rather than one alternating: a stalled uncached call would
    // otherwise hold back the cached calls, and the loaded phase measure
    // only a handful of them.
    let ((uncached, uncached_failed), (cached, cached_failed)) = tokio::join!(
        call_loop(&client, &token, calls, deadline, until, |i| {
            puzzles.uncached(first + i)
        }),
        call_loop(&client, &token, calls, deadline, until, |_| {
            puzzles.cached.clone()
        }),
    );
    LightRun {
        uncached,
        cached,
        uncached_failed,
        cached_failed,
        elapsed: start.elapsed(),
    }
}

/// `calls` Solves of `request(i)`, one at a time, until `until` if given:
/// the sorted latencies of those answered, and how the others ended.
async fn call_loop(
    client: &PuzzleServiceClient<Channel>,
    token: &str,
    calls: usize,
    deadline: Duration,
    until: Option<Instant>,
    request: impl Fn(usize) -> proto::SolveRequest,
) -> (Vec<u32>, Codes) {
    let mut latencies = Vec::with_capacity(calls);
    let mut failed = Codes::new();
    for i in 0..calls {
        if until.is_some_and(|until| Instant::now() >= until) {
            break;
        }
        match timed_solve(client, request(i), token, deadline).await {
            Ok(latency) => latencies.push(micros(latency)),
            Err(ended) => *failed.entry(ended).or_default() += 1,
        }
    }
    latencies.sort_unstable();
    (latencies, failed)
}

/// One Solve and its round trip, or how it ended when not answered.
async fn timed_solve(
    client: &PuzzleServiceClient<Channel>,
    request: proto::SolveRequest,
    token: &str,
    deadline: Duration,
) -> Result<Duration, String> {
    let mut request = authorized(request, token);
    request.set_timeout(deadline);
    let sent = Instant::now();
    // Three things end a call at its deadline, whichever comes first: the
    // server (DEADLINE_EXCEEDED), tonic's own timer for the grpc-timeout it
    // sends (CANCELLED), and, a little later, this one, for a server too
    // busy to answer at all. They mean the same here, and are counted as
    // one; the server may end the call a little before the deadline, to
    // have its answer there in time.
    let mut client = client.clone();
    let call = client.solve(request);
    let unanswered = format!("no answer within {} s", deadline.as_secs_f64());
    match tokio::time::timeout(deadline + Duration::from_secs(1), call).await {
        Ok(Ok(_)) => Ok(sent.elapsed()),
        Ok(Err(status))
            if matches!(
                status.code(),
                tonic::Code::DeadlineExceeded | tonic::Code::Cancelled
            ) && sent.elapsed() + Duration::from_secs(1) >= deadline =>
        {
            Err(unanswered)
        }
        Ok(Err(status)) => Err(status_name(&status)),
        Err(_) => Err(unanswered),
    }
}

// ---------------------------------------------------------------------------
// The heavy callers

/// The kinds of heavy call.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum HeavyKind {
    Generate,
    Solve,
    Play,
}

impl HeavyKind {
    fn name(self) -> &'static str {
        match self {
            HeavyKind::Generate => "GeneratePuzzles (nothing to find)",
            HeavyKind::Solve => "large Solve (uncached)",
            HeavyKind::Play => "Play (engine on the losing side)",
        }
    }
}

/// What the heavy calls did, counted as they end.
#[derive(Default)]
struct HeavyTally {
    started: BTreeMap<HeavyKind, usize>,
    /// How the calls that ended did, by kind: `OK` or the status.
    ended: BTreeMap<HeavyKind, Codes>,
    /// Engine moves answered in the Play games.
    play_moves: u64,
    /// The `max_rejected_in_a_row` the last GeneratePuzzles calls asked for.
    max_rejected: u32,
}

type Tally = Arc<Mutex<HeavyTally>>;

fn count_start(tally: &Tally, kind: HeavyKind) {
    *tally.lock().unwrap().started.entry(kind).or_default() += 1;
}

fn count_end(tally: &Tally, kind: HeavyKind, ended: String) {
    *tally
        .lock()
        .unwrap()
        .ended
        .entry(kind)
        .or_default()
        .entry(ended)
        .or_default() += 1;
}

/// Whether a refusal says to come back later, rather than that the call
/// ran and ended.
fn is_refusal(status: &tonic::Status) -> bool {
    matches!(
        status.code(),
        tonic::Code::ResourceExhausted | tonic::Code::Unavailable
    )
}

/// Waits after a refusal as a client that heeds it would: `retry`, or the
/// refusal's `retry-after` (whole seconds) when longer. Asking again at
/// once would make the server decode large refused requests over and over,
/// and measure that rather than its workers' shares.
async fn back_off(status: &tonic::Status, retry: Duration) {
    let asked = status
        .metadata()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(Duration::ZERO, Duration::from_secs);
    tokio::time::sleep(retry.max(asked)).await;
}

/// The large Solves' graphs: one random graph on all vertices but the
/// last, which each call joins to three vertices of its own, so that every
/// call is a puzzle the server has not seen (the base graph has no
/// symmetry to make two of them alike) at the cost of a copy, not of a
/// fresh random graph each time.
struct LargeGraphs {
    vertices: u32,
    base: Vec<u32>,
    next: AtomicU64,
}

impl LargeGraphs {
    fn new(args: &FairnessArgs) -> Arc<LargeGraphs> {
        let vertices = args.solve_vertices.max(5);
        Arc::new(LargeGraphs {
            vertices,
            base: random_graph(vertices - 1, args.solve_edges, args.seed ^ 0x5eed),
            next: AtomicU64::new(0),
        })
    }

    fn next_request(&self) -> proto::SolveRequest {
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        let mut rng = SplitMix::new(k);
        let last = self.vertices - 1;
        let mut joined: Vec<u32> = (0..3).map(|_| rng.below(u64::from(last)) as u32).collect();
        joined.sort_unstable();
        joined.dedup();
        let mut edges = Vec::with_capacity(self.base.len() + 2 * joined.len());
        edges.extend_from_slice(&self.base);
        for v in joined {
            edges.extend([last, v]);
        }
        geography_request(self.vertices, edges, last)
    }
}

/// A hub (vertex 0) joined to the first vertex of each of `paths` paths
/// of `length` vertices, numbered path by path from 1. With an even length
/// the second player wins from the hub: whichever path the first player
/// enters, the second moves last along it.
fn hub_and_paths(paths: u32, length: u32) -> (u32, Vec<u32>) {
    let mut edges = Vec::with_capacity(2 * paths as usize * length as usize);
    for j in 0..paths {
        let first = 1 + j * length;
        edges.extend([0, first]);
        for v in first..first + length - 1 {
            edges.extend([v, v + 1]);
        }
    }
    (1 + paths * length, edges)
}

/// The Play puzzle as the first heavy caller stores it, by its name.
async fn store_play_puzzle(channel: &Channel, args: &FairnessArgs) -> PlayPuzzle {
    let length = args.play_path_length.max(2) & !1;
    let (vertices, edges) = hub_and_paths(args.play_paths.max(1), length);
    let spec = proto::PuzzleSpec {
        game: proto::Game::Geography as i32,
        graph: Some(proto::Graph {
            vertex_count: vertices,
            edges,
        }),
        start: 0,
        title: "fairness: hub and paths".into(),
        ..Default::default()
    };
    let stored = solve_client(channel)
        .create_puzzle(authorized(
            proto::CreatePuzzleRequest {
                puzzle: Some(proto::Puzzle {
                    spec: Some(spec),
                    ..Default::default()
                }),
                request_id: String::new(),
            },
            &token_of(&heavy_name(0)),
        ))
        .await
        .unwrap_or_else(|status| panic!("storing the Play puzzle failed: {status}"))
        .into_inner();
    PlayPuzzle {
        name: stored.name,
        length,
    }
}

#[derive(Clone)]
struct PlayPuzzle {
    name: String,
    /// Vertices of each path.
    length: u32,
}

impl PlayPuzzle {
    /// The client's answer to the engine's move to `v`: the next vertex of
    /// its path, or none at the path's end.
    fn answer(&self, v: u32) -> Option<u32> {
        (v > 0 && (v - 1) % self.length != self.length - 1).then_some(v + 1)
    }
}

/// The heavy callers' calls, running until stopped.
struct Heavy {
    tasks: JoinSet<()>,
    tally: Tally,
    max_rejected: Arc<AtomicU32>,
}

impl Heavy {
    async fn start(
        server: &Server,
        args: &FairnessArgs,
        large: Arc<LargeGraphs>,
        play: Option<PlayPuzzle>,
    ) -> Heavy {
        let tally = Tally::default();
        let mut tasks = JoinSet::new();
        let max_rejected = Arc::new(AtomicU32::new(args.generate_max_rejected.max(1)));
        let generation = Arc::new(AtomicU64::new(0));
        let retry = Duration::from_millis(args.retry_ms);
        for caller in 0..args.heavy_callers {
            let token = token_of(&heavy_name(caller));
            let per_caller = args.generate_streams + args.solve_streams + args.play_games;
            let channels = server.connect(per_caller).await;
            let mut channels = channels.into_iter();
            for _ in 0..args.generate_streams {
                let generate = GenerateLoop {
                    client: solve_client(&channels.next().expect("a channel")),
                    token: token.clone(),
                    args: args.clone(),
                    max_rejected: max_rejected.clone(),
                    generation: generation.clone(),
                    tally: tally.clone(),
                    retry,
                };
                tasks.spawn(generate.run());
            }
            for _ in 0..args.solve_streams {
                let client = solve_client(&channels.next().expect("a channel"));
                tasks.spawn(solve_loop(
                    client,
                    token.clone(),
                    large.clone(),
                    tally.clone(),
                    retry,
                ));
            }
            if let Some(play) = &play {
                for _ in 0..args.play_games {
                    let client = solve_client(&channels.next().expect("a channel"));
                    tasks.spawn(play_loop(
                        client,
                        token.clone(),
                        play.clone(),
                        tally.clone(),
                        retry,
                    ));
                }
            }
        }
        Heavy {
            tasks,
            tally,
            max_rejected,
        }
    }

    /// Drops every heavy call still going (their callers leave) and says
    /// what they did.
    async fn stop(mut self) -> HeavyTally {
        self.tasks.abort_all();
        while self.tasks.join_next().await.is_some() {}
        let mut tally = std::mem::take(&mut *self.tally.lock().unwrap());
        tally.max_rejected = self.max_rejected.load(Ordering::Relaxed);
        tally
    }
}

async fn solve_loop(
    client: PuzzleServiceClient<Channel>,
    token: String,
    large: Arc<LargeGraphs>,
    tally: Tally,
    retry: Duration,
) {
    loop {
        let request = authorized(large.next_request(), &token);
        count_start(&tally, HeavyKind::Solve);
        match client.clone().solve(request).await {
            Ok(_) => count_end(&tally, HeavyKind::Solve, "OK".into()),
            Err(status) => {
                count_end(&tally, HeavyKind::Solve, status_name(&status));
                if is_refusal(&status) {
                    back_off(&status, retry).await;
                }
            }
        }
    }
}

/// One heavy caller's GeneratePuzzles calls, one after another.
struct GenerateLoop {
    client: PuzzleServiceClient<Channel>,
    token: String,
    args: FairnessArgs,
    /// The `max_rejected_in_a_row` the server accepts, as far as known.
    max_rejected: Arc<AtomicU32>,
    /// Each call's seed, shared so that no two calls draw the same candidates.
    generation: Arc<AtomicU64>,
    tally: Tally,
    retry: Duration,
}

impl GenerateLoop {
    fn request(&self) -> proto::GeneratePuzzlesRequest {
        let k = self.generation.fetch_add(1, Ordering::Relaxed);
        proto::GeneratePuzzlesRequest {
            game: proto::Game::Geography as i32,
            family: proto::GraphFamily::Gnm as i32,
            min_vertices: self.args.generate_min_vertices,
            max_vertices: self.args.generate_max_vertices,
            seed: self.args.seed.wrapping_mul(1_000_003).wrapping_add(k),
            min_only_move_depth: self.args.generate_depth,
            count: 1,
            max_rejected_in_a_row: self.max_rejected.load(Ordering::Relaxed),
            ..Default::default()
        }
    }

    async fn run(self) {
        loop {
            count_start(&self.tally, HeavyKind::Generate);
            let request = self.request();
            let asked = request.max_rejected_in_a_row;
            let ended = match self
                .client
                .clone()
                .generate_puzzles(authorized(request, &self.token))
                .await
            {
                Err(status) => Err(status),
                Ok(response) => {
                    let mut stream = response.into_inner();
                    loop {
                        match stream.message().await {
                            Ok(Some(_)) => {}
                            Ok(None) => break Ok(()),
                            Err(status) => break Err(status),
                        }
                    }
                }
            };
            match ended {
                Ok(()) => count_end(&self.tally, HeavyKind::Generate, "OK".into()),
                Err(status) => {
                    count_end(&self.tally, HeavyKind::Generate, status_name(&status));
                    if status.code() == tonic::Code::InvalidArgument {
                        if !self.lower_max_rejected(asked, &status) {
                            eprintln!("fairness: GeneratePuzzles refused: {status}");
                            return;
                        }
                    } else if is_refusal(&status)
                        && status.get_error_details().error_info().map(|i| &*i.reason)
                            != Some("NO_PUZZLE_FOUND")
                    {
                        back_off(&status, self.retry).await;
                    }
                }
            }
        }
    }

    /// Lowers `max_rejected_in_a_row` when `status` refuses the `asked`
    /// of a request: to the largest figure below it that the refusal names
    /// (its limit, presumably), else to half. Reckoned from what that
    /// request asked, not from the value now shared, which another
    /// stream's refusal may have lowered already. False when the refusal
    /// is about something else, or nothing lower is left to try.
    fn lower_max_rejected(&self, asked: u32, status: &tonic::Status) -> bool {
        const FIELD: &str = "max_rejected_in_a_row";
        let named = status
            .get_error_details()
            .bad_request()
            .is_some_and(|bad| bad.field_violations.iter().any(|v| v.field == FIELD))
            || status.message().contains(FIELD);
        if !named || asked <= 1 {
            return false;
        }
        let figure = status
            .message()
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|digits| digits.parse::<u32>().ok())
            .filter(|&n| 0 < n && n < asked)
            .max();
        self.max_rejected
            .fetch_min(figure.unwrap_or(asked / 2).max(1), Ordering::Relaxed);
        true
    }
}

/// Play games on the hub-and-paths puzzle, the client second (and so
/// winning), one after another.
async fn play_loop(
    client: PuzzleServiceClient<Channel>,
    token: String,
    puzzle: PlayPuzzle,
    tally: Tally,
    retry: Duration,
) {
    loop {
        count_start(&tally, HeavyKind::Play);
        match play_game(&client, &token, &puzzle, &tally).await {
            Ok(()) => count_end(&tally, HeavyKind::Play, "OK".into()),
            Err(status) => {
                count_end(&tally, HeavyKind::Play, status_name(&status));
                if is_refusal(&status) {
                    back_off(&status, retry).await;
                }
            }
        }
    }
}

async fn play_game(
    client: &PuzzleServiceClient<Channel>,
    token: &str,
    puzzle: &PlayPuzzle,
    tally: &Tally,
) -> Result<(), tonic::Status> {
    let (send, receive) = mpsc::channel(4);
    let start = proto::play_request::Request::Start(proto::PlayStart {
        puzzle: Some(proto::play_start::Puzzle::Name(puzzle.name.clone())),
        human_side: proto::Player::Second as i32,
    });
    send.send(proto::PlayRequest {
        request: Some(start),
    })
    .await
    .expect("the channel is open");
    let mut responses = client
        .clone()
        .play(authorized(ReceiverStream::new(receive), token))
        .await?
        .into_inner();
    while let Some(response) = responses.message().await? {
        if let Some(rejected) = response.rejected {
            return Err(tonic::Status::internal(format!(
                "the bench's move was refused: {}",
                rejected.message
            )));
        }
        let engine_moved = match response.server_move.and_then(|m| m.r#move) {
            Some(proto::r#move::Move::Vertex(v)) => v,
            _ => continue,
        };
        tally.lock().unwrap().play_moves += 1;
        let Some(answer) = puzzle.answer(engine_moved) else {
            continue;
        };
        let reply = proto::PlayRequest {
            request: Some(proto::play_request::Request::Move(proto::Move {
                r#move: Some(proto::r#move::Move::Vertex(answer)),
            })),
        };
        if send.send(reply).await.is_err() {
            break;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The report

/// A figure to two places, or a dash where there is none (no call of the
/// kind was answered).
fn figure(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "—".into()
    }
}

fn print_report(
    args: &FairnessArgs,
    idle: &LightRun,
    loaded: &LightRun,
    server_cores: f64,
    tally: &HeavyTally,
) {
    println!();
    println!(
        "light caller: uncached and cached Solves in two loops, each one call at a time, {} of each a phase \
         ({}-vertex, {}-edge Geography); idle = the same server before the heavy load started; \
         loaded phase {:.1} s after {} s of heavy load, the server's CPU {:.2} cores meanwhile",
        args.light_calls,
        args.light_vertices,
        args.light_edges,
        loaded.elapsed.as_secs_f64(),
        args.ramp_secs,
        server_cores,
    );
    println!();
    print_table_head(&[
        "light call",
        "answered idle / loaded",
        "p50 ms idle",
        "p99 ms idle",
        "p50 ms loaded",
        "p99 ms loaded",
        "p50 loaded ÷ idle",
        "p99 loaded ÷ idle",
        "target p99 ÷ idle",
        "not answered (loaded)",
        "met",
    ]);
    let rows = [
        (
            "uncached Solve",
            &idle.uncached,
            &loaded.uncached,
            &idle.uncached_failed,
            &loaded.uncached_failed,
            3.0,
        ),
        (
            "cached Solve",
            &idle.cached,
            &loaded.cached,
            &idle.cached_failed,
            &loaded.cached_failed,
            1.5,
        ),
    ];
    for (name, idle_us, loaded_us, idle_failed, loaded_failed, target) in rows {
        let [p50_idle, p99_idle, p50_loaded, p99_loaded] = [
            percentile_ms(idle_us, 0.50),
            percentile_ms(idle_us, 0.99),
            percentile_ms(loaded_us, 0.50),
            percentile_ms(loaded_us, 0.99),
        ];
        let ratio99 = p99_loaded / p99_idle;
        // A light call left unanswered is a miss whatever the percentiles say.
        let met = ratio99 <= target && loaded_failed.is_empty() && idle_failed.is_empty();
        println!(
            "| {name} | {} / {} | {} | {} | {} | {} | {} | {} | ≤ {target} | {} | {} |",
            idle_us.len(),
            loaded_us.len(),
            figure(p50_idle),
            figure(p99_idle),
            figure(p50_loaded),
            figure(p99_loaded),
            figure(p50_loaded / p50_idle),
            figure(ratio99),
            if loaded_failed.is_empty() {
                "0".into()
            } else {
                codes_text(loaded_failed)
            },
            if met { "yes" } else { "no" },
        );
        if !idle_failed.is_empty() {
            println!("(idle, {name} not answered: {})", codes_text(idle_failed));
        }
    }
    println!();
    println!(
        "heavy callers: {} × ({} GeneratePuzzles streams, {} large Solves of {} vertices and {} edges, {} Play games), \
         until the light phase ended; a refused call waits {} ms, or its retry-after, before asking again",
        args.heavy_callers,
        args.generate_streams,
        args.solve_streams,
        args.solve_vertices,
        args.solve_edges,
        args.play_games,
        args.retry_ms,
    );
    println!();
    print_table_head(&["heavy call", "started", "in flight at the end", "ended"]);
    for kind in [HeavyKind::Generate, HeavyKind::Solve, HeavyKind::Play] {
        let started = tally.started.get(&kind).copied().unwrap_or(0);
        let empty = Codes::new();
        let ended = tally.ended.get(&kind).unwrap_or(&empty);
        let ended_count: usize = ended.values().sum();
        println!(
            "| {} | {started} | {} | {} |",
            kind.name(),
            started - ended_count,
            if ended.is_empty() {
                "none".into()
            } else {
                codes_text(ended)
            },
        );
    }
    println!();
    println!(
        "GeneratePuzzles asked for max_rejected_in_a_row {} (from {}); engine moves answered in the Play games: {}",
        tally.max_rejected, args.generate_max_rejected, tally.play_moves
    );
}
