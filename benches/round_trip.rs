//! Bulk import and export through `puzzled client`, against the unary
//! calls a site would make without them, on real `puzzled serve` child
//! processes.
//!
//! ```sh
//! cargo bench --bench round_trip -- [--count N] [--create-sample K] [--in-flight F]
//! ```
//!
//! 1. `puzzled generate` writes `--count` puzzles (default 100,000), a
//!    sixth of each game on 6 to 30 vertices, as JSON Lines;
//! 2. `puzzled client import` stores them in server A (a fresh SQLite file);
//! 3. `puzzled client export` writes A's puzzles to `a.jsonl`;
//! 4. `puzzled client import a.jsonl` stores them in server B, empty;
//! 5. `puzzled client export` writes B's to `b.jsonl`, and the two files
//!    must hold the same puzzles, names and creation times aside (the
//!    order is reversed: an export is newest first, an import stores in
//!    file order).
//!
//! Beside them, the ExportPuzzles stream read by the tonic client and
//! written nowhere: the server's share of an export.
//!
//! The peers, measured in the same run with the generated tonic client:
//! every page of A's ListPuzzles in the FULL view, 1000 a page (the
//! export's data by the unary call), read twice: first from the database,
//! then from the server's cache of records that the first read filled, and CreatePuzzle for the first
//! `--create-sample` puzzles (default 10,000) on a third empty server,
//! `--in-flight` (default 16) at once (the import's work one call a
//! puzzle). The ratios are time per puzzle, peer over ours.
//!
//! Client and server share the machine, as an operator's import on the
//! server's host does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use puzzled::api::proto;
use puzzled::api::proto::puzzle_service_client::PuzzleServiceClient;
use puzzled::puzzle::Game;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tonic::transport::Channel;

// The same launcher as the `load` bench's: bench targets are separate
// crates with no library between them, so the file is included by path.
#[path = "common/server.rs"]
#[allow(
    dead_code,
    reason = "round_trip reads nothing from /proc, so not the pid"
)]
mod server;

use server::ChildServer;

/// The server's allocator (see `src/main.rs`): the tonic peers run in this
/// process, against `puzzled client` on mimalloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "round_trip", bin_name = "cargo bench --bench round_trip --")]
struct Args {
    /// Puzzles in the round trip.
    #[arg(long, default_value_t = 100_000)]
    count: u32,
    /// Puzzles stored one CreatePuzzle at a time for the import's peer.
    #[arg(long, default_value_t = 10_000)]
    create_sample: usize,
    /// CreatePuzzle calls in flight at once.
    #[arg(long, default_value_t = 16)]
    in_flight: usize,
    /// The `puzzled` binary (default: the one built with this bench).
    #[arg(long, default_value = env!("CARGO_BIN_EXE_puzzled"))]
    puzzled: PathBuf,
    /// Accepted from `cargo bench`, which passes it to every bench.
    #[arg(long, hide = true)]
    bench: bool,
}

/// `puzzled serve` on a fresh SQLite file `NAME.db` in `dir`.
fn start_server(puzzled: &Path, dir: &Path, name: &str) -> ChildServer {
    ChildServer::start(puzzled, &dir.join(format!("{name}.db")), &[], false)
}

async fn connect(server: &ChildServer) -> PuzzleServiceClient<Channel> {
    PuzzleServiceClient::connect(server.url.clone())
        .await
        .expect("the server accepts connections")
        .max_decoding_message_size(64 << 20)
}

/// Runs `puzzled ARGS`, timed; its standard output.
fn run(puzzled: &Path, args: &[&str]) -> (String, Duration) {
    let started = Instant::now();
    let output = Command::new(puzzled)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", puzzled.display()));
    let elapsed = started.elapsed();
    assert!(
        output.status.success(),
        "puzzled {} failed ({}): {}",
        args.join(" "),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        elapsed,
    )
}

fn import(puzzled: &Path, server: &ChildServer, file: &Path, count: u32) -> Duration {
    let file = file.to_str().expect("a UTF-8 path");
    let (out, elapsed) = run(
        puzzled,
        &["client", "--server", &server.url, "import", file],
    );
    let expected = format!("imported: {count} created, 0 replayed, 0 failed");
    assert!(out.contains(&expected), "the import said: {out}");
    elapsed
}

fn export(puzzled: &Path, server: &ChildServer, file: &Path) -> Duration {
    let file = file.to_str().expect("a UTF-8 path");
    run(
        puzzled,
        &["client", "--server", &server.url, "export", file],
    )
    .1
}

/// The puzzles of a JSON Lines export without their names and creation
/// times, each with how often it occurs.
fn puzzles_names_aside(file: &Path) -> BTreeMap<String, usize> {
    let text = std::fs::read_to_string(file).expect("the export is readable");
    let mut puzzles = BTreeMap::new();
    for line in text.lines() {
        let mut puzzle: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let fields = puzzle.as_object_mut().expect("a Puzzle object");
        fields
            .remove("name")
            .expect("an exported puzzle has its name");
        fields.remove("createTime");
        *puzzles.entry(puzzle.to_string()).or_insert(0) += 1;
    }
    puzzles
}

/// Every page of ListPuzzles in the FULL view, 1000 a page: the puzzles.
async fn list_all(server: &ChildServer) -> (Vec<proto::Puzzle>, Duration) {
    let mut client = connect(server).await;
    let started = Instant::now();
    let mut puzzles = Vec::new();
    let mut page_token = String::new();
    loop {
        let page = client
            .list_puzzles(proto::ListPuzzlesRequest {
                page_size: 1000,
                page_token,
                view: proto::PuzzleView::Full.into(),
                ..Default::default()
            })
            .await
            .expect("a page")
            .into_inner();
        puzzles.extend(page.puzzles);
        if page.next_page_token.is_empty() {
            break;
        }
        page_token = page.next_page_token;
    }
    (puzzles, started.elapsed())
}

/// The ExportPuzzles stream read to its end by the tonic client, nothing
/// written: the server's share of an export.
async fn export_stream(server: &ChildServer) -> (usize, Duration) {
    let mut client = connect(server).await;
    let started = Instant::now();
    let mut stream = client
        .export_puzzles(proto::ExportPuzzlesRequest::default())
        .await
        .expect("an export")
        .into_inner();
    let mut count = 0;
    while let Some(exported) = stream.message().await.expect("an exported puzzle") {
        assert!(exported.puzzle.is_some());
        count += 1;
    }
    (count, started.elapsed())
}

/// `puzzles` stored by CreatePuzzle, `in_flight` calls at once.
async fn create_each(
    server: &ChildServer,
    puzzles: Vec<proto::Puzzle>,
    in_flight: usize,
) -> Duration {
    let client = connect(server).await;
    let slots = Arc::new(Semaphore::new(in_flight));
    let started = Instant::now();
    let mut calls = JoinSet::new();
    for puzzle in puzzles {
        let permit = slots.clone().acquire_owned().await.expect("open");
        let mut client = client.clone();
        calls.spawn(async move {
            let request = proto::CreatePuzzleRequest {
                puzzle: Some(puzzle),
                request_id: String::new(),
            };
            client.create_puzzle(request).await.expect("a create");
            drop(permit);
        });
    }
    while let Some(done) = calls.join_next().await {
        done.expect("a create task");
    }
    started.elapsed()
}

fn rate(count: usize, elapsed: Duration) -> f64 {
    count as f64 / elapsed.as_secs_f64()
}

/// `count` puzzles from `puzzled generate`, a sixth of each game on 6 to
/// 30 vertices, in one JSON Lines file; its path.
fn generate_seed(puzzled: &Path, dir: &Path, count: u32) -> PathBuf {
    let seed = dir.join("seed.jsonl");
    let games = Game::ALL.len() as u32;
    let mut seed_lines = String::new();
    let started = Instant::now();
    for (i, game) in Game::ALL.into_iter().enumerate() {
        let of_game = count / games + u32::from((i as u32) < count % games);
        let file = dir.join(format!("{}.jsonl", game.as_str()));
        let game_flag = game.as_str().replace('_', "-");
        run(
            puzzled,
            &[
                "generate",
                "--game",
                &game_flag,
                "--vertices",
                "6..30",
                "--count",
                &of_game.to_string(),
                "--seed",
                &i.to_string(),
                "--output",
                file.to_str().expect("a UTF-8 path"),
            ],
        );
        seed_lines.push_str(&std::fs::read_to_string(&file).expect("generated"));
    }
    std::fs::write(&seed, seed_lines).expect("the seed file");
    println!(
        "{} puzzles generated in {:.1} s",
        count,
        started.elapsed().as_secs_f64()
    );
    seed
}

fn main() {
    let args = Args::parse();
    println!(
        "$ cargo bench --bench round_trip -- --count {} --create-sample {} --in-flight {}",
        args.count, args.create_sample, args.in_flight
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let puzzled = args.puzzled.as_path();

    let seed = generate_seed(puzzled, dir.path(), args.count);

    let a = start_server(puzzled, dir.path(), "a");
    import(puzzled, &a, &seed, args.count);
    let a_file = dir.path().join("a.jsonl");
    let export_a = export(puzzled, &a, &a_file);

    let b = start_server(puzzled, dir.path(), "b");
    let import_b = import(puzzled, &b, &a_file, args.count);
    let b_file = dir.path().join("b.jsonl");
    let export_b = export(puzzled, &b, &b_file);
    let same = puzzles_names_aside(&a_file) == puzzles_names_aside(&b_file);

    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let (streamed, stream_time) = runtime.block_on(export_stream(&a));
    let (listed, list_time) = runtime.block_on(list_all(&a));
    let (_, list_again_time) = runtime.block_on(list_all(&a));
    assert_eq!(
        streamed, args.count as usize,
        "ExportPuzzles sends them all"
    );
    assert_eq!(
        listed.len(),
        args.count as usize,
        "ListPuzzles lists them all"
    );
    drop((a, b));
    let c = start_server(puzzled, dir.path(), "c");
    let sample: Vec<_> = listed.into_iter().take(args.create_sample).collect();
    let sampled = sample.len();
    let create_time = runtime.block_on(create_each(&c, sample, args.in_flight));
    drop(c);

    let n = args.count as usize;
    println!(
        "{:<46} {:>9} {:>9} {:>11}",
        "step", "puzzles", "seconds", "puzzles/s"
    );
    let row = |step: &str, count: usize, elapsed: Duration| {
        println!(
            "{step:<46} {count:>9} {:>9.2} {:>11.0}",
            elapsed.as_secs_f64(),
            rate(count, elapsed)
        );
    };
    row("client export, JSON Lines (server A)", n, export_a);
    row("client import, JSON Lines (empty server B)", n, import_b);
    row("client export, JSON Lines (server B)", n, export_b);
    row(
        "ExportPuzzles read by tonic, nothing written",
        n,
        stream_time,
    );
    row("peer: ListPuzzles FULL, pages of 1000", n, list_time);
    row(
        "peer: the same again, read from the cache",
        n,
        list_again_time,
    );
    let create_label = format!("peer: CreatePuzzle, {} in flight", args.in_flight);
    row(&create_label, sampled, create_time);
    println!(
        "export vs ListPuzzles: {:.2} (time per puzzle, ListPuzzles' first read / the first export)",
        rate(n, export_a) / rate(n, list_time)
    );
    println!(
        "import vs CreatePuzzle: {:.2} (time per puzzle, CreatePuzzle / import)",
        rate(n, import_b) / rate(sampled, create_time)
    );
    println!(
        "round trip: {} puzzles exported from B {} those exported from A, names aside",
        n,
        if same { "are" } else { "are NOT" }
    );
    assert!(same, "the round trip changed the puzzles");
}
