//! Big-graph benchmark of the matching engine and the full Geography solve
//! (verdict, witness, certificates, all starts; then also every winning
//! first move),
//! against the time to read the input and against petgraph's
//! `maximum_matching`, all measured in the same run.
//!
//! ```text
//! cargo bench --bench matching -- [--reps N] [--peer-timeout SECS] [--no-petgraph]
//!     [--peer NAME=COMMAND]… [--readonly PATH] [--families LIST [--vertices N]
//!     [--seed S] [--keep DIR] [--growth]] [FILES…]
//! ```
//! `--readonly /tmp/peers/bin/readonly` times the input floor (read the file,
//! build CSR) on each file and adds the ratio the targets use: our read plus
//! the full answer (with every winning first move) over it.
//! `--families gnm3,grid,…` (or `all`) generates the instances (see
//! `families/mod.rs`) at `--vertices` (default 10^6) vertices; with
//! `--growth`, at 10^4, 10^5 and 10^6, printing the fitted exponents.
//! `--peer lemon=/tmp/peers/bin/lemon_mm` adds a peer from
//! `../shared/peers/` (any command that takes the file and prints
//! `matching=… match_ms=…`).
//! FILES are edge lists as `families/mod.rs` writes them (`n m`, then `m`
//! lines `u v`, 0-based). Every instance runs in a child process so that its peak
//! memory (VmHWM; a peer's is sampled while it runs) is its own and a slow
//! peer can be stopped at the timeout.
//! Figures are medians over the repetitions; compare ratios, not absolute
//! times (the machines are shared and noisy).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use puzzled::graph::Graph;
use puzzled::graph::{self, file::Numbering};
use puzzled::solver::geography::{self, GeographyOptions};
use puzzled::solver::matching::MatchingAnalysis;
use puzzled_testkit::stats::median;

mod families;

/// The server's allocator (see `src/main.rs`): our side runs in a child of
/// this binary (`--child`), where allocation is part of what it costs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A matching implementation measured beside ours.
struct Peer {
    name: String,
    /// The command; the instance file is appended. `None`: the built-in
    /// petgraph child.
    command: Option<Vec<String>>,
}

/// Benchmark arguments (after `cargo bench --bench matching --`).
#[derive(clap::Parser)]
struct Args {
    /// Repetitions per instance; the table shows medians.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Seconds after which a peer is stopped and reported as "> N s".
    #[arg(long, default_value_t = 120)]
    peer_timeout: u64,
    /// Leave petgraph out.
    #[arg(long)]
    no_petgraph: bool,
    /// Another peer, as NAME=COMMAND (the file is appended to COMMAND).
    #[arg(long = "peer", value_name = "NAME=COMMAND")]
    peers: Vec<String>,
    /// The `readonly` floor of `../shared/peers` (built by its build.sh,
    /// or `g++ -O2 -std=c++17 -o readonly readonly.cpp`).
    #[arg(long)]
    readonly: Option<String>,
    /// Generate these families (comma-separated, or `all`) and run them
    /// before FILES.
    #[arg(long, value_delimiter = ',')]
    families: Vec<String>,
    /// Vertices of each generated instance.
    #[arg(long, default_value_t = 1_000_000)]
    vertices: u32,
    /// Seed of the generated instances.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep the generated files in DIR (default: a temporary directory,
    /// removed at the end).
    #[arg(long)]
    keep: Option<std::path::PathBuf>,
    /// Instead of the table: for each family, the full answer's time at
    /// 10^4, 10^5 and 10^6 vertices and the exponent fitted on each decade
    /// (with `--readonly`, the floor's too).
    #[arg(long)]
    growth: bool,
    /// `cargo bench` passes this flag to every bench binary.
    #[arg(long, hide = true)]
    bench: bool,
    /// Graph files as `families/mod.rs` writes them.
    files: Vec<String>,
}

fn main() {
    let raw: Vec<String> = std::env::args().collect();
    if raw.get(1).map(String::as_str) == Some("--child") {
        child(&raw[2..]);
        return;
    }
    let Args {
        reps,
        peer_timeout,
        no_petgraph,
        peers: extra_peers,
        readonly,
        families: family_names,
        vertices,
        seed,
        keep,
        growth,
        bench: _,
        files: given,
    } = <Args as clap::Parser>::parse();
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let dir = keep.unwrap_or_else(|| scratch.path().to_owned());
    std::fs::create_dir_all(&dir).expect("the instance directory");
    let names: Vec<&str> = if family_names.iter().any(|f| f == "all") {
        families::ALL.to_vec()
    } else {
        family_names.iter().map(String::as_str).collect()
    };
    if growth {
        growth_table(&names, seed, &dir, reps, readonly.as_deref());
        return;
    }
    let mut files: Vec<String> = names
        .iter()
        .map(|name| {
            let t = Instant::now();
            let path = families::generate(name, vertices, seed, &dir);
            eprintln!(
                "generated {} in {:.1} s",
                path.display(),
                t.elapsed().as_secs_f64()
            );
            path.display().to_string()
        })
        .collect();
    files.extend(given);
    if files.is_empty() {
        // A plain `cargo bench` runs every bench; this one needs inputs.
        println!(
            "matching: no instance files given, nothing measured (cargo bench --bench matching -- --help)"
        );
        return;
    }
    let mut peers = Vec::new();
    if !no_petgraph {
        peers.push(Peer {
            name: "petgraph".into(),
            command: None,
        });
    }
    for spec in extra_peers {
        let (name, command) = spec
            .split_once('=')
            .unwrap_or_else(|| panic!("--peer takes NAME=COMMAND, not {spec}"));
        peers.push(Peer {
            name: name.to_string(),
            command: Some(command.split_whitespace().map(String::from).collect()),
        });
    }
    let peer_names: String = peers.iter().map(|p| format!(" {} ms |", p.name)).collect();
    let peer_ratios: String = peers
        .iter()
        .map(|p| format!(" {} / geography |", p.name))
        .collect();
    let peer_peaks: String = peers
        .iter()
        .map(|p| format!(" {} peak MiB |", p.name))
        .collect();
    println!(
        "| instance | n | m | ν | read ms | matching ms | geography ms | + winning moves ms |{peer_names} matching / read | geography / read | readonly ms | (read + full answer) / readonly |{peer_ratios} peak MiB |{peer_peaks} working bytes / edge |"
    );
    println!("|{}", "---|".repeat(14 + 3 * peers.len()));
    for file in &files {
        let ours = run_child(&["ours", file, &reps.to_string()], None)
            .unwrap_or_else(|| panic!("our solver failed on {file}"));
        let (n, m, size) = (
            field(&ours, "n"),
            field(&ours, "m"),
            field(&ours, "matching"),
        );
        let read = field(&ours, "read_ms");
        let matching = field(&ours, "match_ms");
        let geo = field(&ours, "geography_ms");
        let with_moves = field(&ours, "moves_ms");
        let peak_mib = field(&ours, "peak_kib") / 1024.0;
        let mut times = String::new();
        let mut ratios = String::new();
        let mut peaks = String::new();
        for peer in &peers {
            let timeout = Some(Duration::from_secs(peer_timeout));
            let out = match &peer.command {
                None => run_child(&["petgraph", file], timeout),
                Some(command) => run(
                    Command::new(&command[0]).args(&command[1..]).arg(file),
                    timeout,
                ),
            };
            match out {
                Some(out) => {
                    assert_eq!(
                        field(&out, "matching"),
                        size,
                        "{} disagrees on ν for {file}",
                        peer.name
                    );
                    let ms = field(&out, "match_ms");
                    times.push_str(&format!(" {ms:.1} |"));
                    ratios.push_str(&format!(" {:.1}× |", ms / geo));
                    let peak_kib = field(&out, "sampled_peak_kib");
                    peaks.push_str(&format!(" {:.0} |", peak_kib / 1024.0));
                }
                None => {
                    times.push_str(&format!(" > {peer_timeout} s |"));
                    ratios.push_str(&format!(" > {:.0}× |", peer_timeout as f64 * 1000.0 / geo));
                    peaks.push_str(" — |");
                }
            }
        }
        let name = Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        // The floor: the same file read and built into CSR by the peers'
        // C++ reader, medians of `reps` runs.
        let floor = readonly.as_ref().map(|path| {
            median(
                &(0..reps)
                    .map(|_| {
                        let out = run(Command::new(path).arg(file), None)
                            .unwrap_or_else(|| panic!("{path} failed on {file}"));
                        field(&out, "read_ms")
                    })
                    .collect::<Vec<f64>>(),
            )
        });
        let (floor_ms, full_ratio) = match floor {
            Some(ms) => (
                format!("{ms:.1}"),
                format!("{:.2}", (read + with_moves) / ms),
            ),
            None => ("—".to_owned(), "—".to_owned()),
        };
        println!(
            "| {name} | {n} | {m} | {size} | {read:.1} | {matching:.1} | {geo:.1} | {with_moves:.1} |{times} {:.2} | {:.2} | {floor_ms} | {full_ratio} |{ratios} {peak_mib:.0} |{peaks} {:.0} |",
            matching / read,
            geo / read,
            field(&ours, "working_bytes") / m.max(1.0),
        );
    }
}

/// The time of our read plus the full answer, and of the `readonly` floor,
/// at 10^4, 10^5 and 10^6 vertices of each family, with the exponent of
/// time against vertices fitted on each decade (`log(t₂/t₁) / log 10`).
fn growth_table(names: &[&str], seed: u64, dir: &Path, reps: usize, readonly: Option<&str>) {
    const SIZES: [u32; 3] = [10_000, 100_000, 1_000_000];
    println!(
        "| instance | ms at 10^4 | ms at 10^5 | ms at 10^6 | exponent 10^4→10^5 | exponent 10^5→10^6 | readonly exponents |"
    );
    println!("|---|---|---|---|---|---|---|");
    for name in names {
        let mut ours = Vec::new();
        let mut floor = Vec::new();
        for n in SIZES {
            let file = families::generate(name, n, seed, dir).display().to_string();
            let out = run_child(&["ours", &file, &reps.to_string()], None)
                .unwrap_or_else(|| panic!("our solver failed on {file}"));
            ours.push(field(&out, "read_ms") + field(&out, "moves_ms"));
            if let Some(path) = readonly {
                floor.push(median(
                    &(0..reps)
                        .map(|_| {
                            let out = run(Command::new(path).arg(&file), None)
                                .unwrap_or_else(|| panic!("{path} failed on {file}"));
                            field(&out, "read_ms")
                        })
                        .collect::<Vec<f64>>(),
                ));
            }
            let _ = std::fs::remove_file(&file);
        }
        let exponent = |t: &[f64], i: usize| (t[i + 1] / t[i]).log10();
        let floor_exponents = if floor.is_empty() {
            "—".to_owned()
        } else {
            format!("{:.2}, {:.2}", exponent(&floor, 0), exponent(&floor, 1))
        };
        println!(
            "| {name} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} | {floor_exponents} |",
            ours[0],
            ours[1],
            ours[2],
            exponent(&ours, 0),
            exponent(&ours, 1),
        );
    }
}

/// The value of `key=value` in a child's one-line report (the peer
/// harness's format: `impl=… matching=… match_ms=…`).
fn field(report: &str, key: &str) -> f64 {
    report
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("report lacks {key}: {report}"))
        .parse()
        .unwrap_or_else(|_| panic!("{key} is not a number in: {report}"))
}

/// Runs this binary as a child; `None` on failure or timeout.
fn run_child(args: &[&str], timeout: Option<Duration>) -> Option<String> {
    run(
        Command::new(std::env::current_exe().unwrap())
            .arg("--child")
            .args(args),
        timeout,
    )
}

/// Runs a command; its stdout, or `None` on failure or timeout. The
/// stdout gets ` sampled_peak_kib=…` appended: the child's peak resident
/// set as last read while it ran (every 5 ms; what it allocates in its
/// last few milliseconds can be missed).
fn run(command: &mut Command, timeout: Option<Duration>) -> Option<String> {
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn bench child");
    let started = Instant::now();
    let mut sampled_peak_kib = 0;
    loop {
        if let Some(kib) = peak_kib_of(child.id()) {
            sampled_peak_kib = sampled_peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
            return status
                .success()
                .then(|| format!("{} sampled_peak_kib={sampled_peak_kib}", out.trim_end()));
        }
        if timeout.is_some_and(|t| started.elapsed() > t) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The peak resident set of a running process in KiB (`VmHWM`), if it is
/// still running. Not `wait4`'s `ru_maxrss`: Linux counts in it the
/// parent's memory at the time of the spawn.
fn peak_kib_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// This process's own peak resident set in KiB.
fn own_peak_kib() -> u64 {
    peak_kib_of(std::process::id()).unwrap_or(0)
}

fn millis(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

fn read_graph(file: &str) -> Graph {
    let parsed = graph::file::read(Path::new(file), |t| {
        graph::file::parse_edge_list(t, Numbering::ZeroBased)
    })
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    Graph::from_flat_edges(parsed.vertex_count, &parsed.edges)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn child(args: &[String]) {
    match args[0].as_str() {
        "ours" => {
            let file = &args[1];
            let reps: usize = args[2].parse().unwrap();
            let (mut read, mut matching, mut geo, mut moves) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let mut graph = None;
            let mut size = 0;
            for _ in 0..reps {
                // The peak must be one solve's: nothing of the last
                // repetition may live on while this one reads and solves.
                drop(graph.take());
                let t = Instant::now();
                let g = read_graph(file);
                read.push(millis(t));
                let t = Instant::now();
                let analysis = MatchingAnalysis::new(&g);
                matching.push(millis(t));
                size = analysis.size();
                drop(analysis);
                // The full solve: verdict, witness, both certificates and the
                // all-starts set, from one matching run.
                let t = Instant::now();
                let options = GeographyOptions {
                    all_starts: true,
                    winning_moves: false,
                };
                let solution = geography::solve(&g, 0, options);
                geo.push(millis(t));
                assert_eq!(solution.matching.len(), size);
                drop(solution);
                // Every winning first move needs a second run on G − start.
                let t = Instant::now();
                let options = GeographyOptions {
                    all_starts: true,
                    winning_moves: true,
                };
                let solution = geography::solve(&g, 0, options);
                moves.push(millis(t));
                assert_eq!(solution.matching.len(), size);
                drop(solution);
                graph = Some(g);
            }
            let g = graph.unwrap();
            // Graph plus the matching state: one 32-byte record and one
            // bridge (two u32) per vertex.
            let working_bytes = g.heap_bytes() + g.vertex_count() * (32 + 8);
            println!(
                "n={} m={} matching={size} read_ms={} match_ms={} geography_ms={} moves_ms={} peak_kib={} working_bytes={working_bytes}",
                g.vertex_count(),
                g.edge_count(),
                median(&read),
                median(&matching),
                median(&geo),
                median(&moves),
                own_peak_kib(),
            );
        }
        "petgraph" => {
            use petgraph::graph::{NodeIndex, UnGraph};
            let g = read_graph(&args[1]);
            let mut pg = UnGraph::<(), ()>::with_capacity(g.vertex_count(), g.edge_count());
            for _ in 0..g.vertex_count() {
                pg.add_node(());
            }
            for (u, v) in g.edges() {
                pg.add_edge(NodeIndex::new(u as usize), NodeIndex::new(v as usize), ());
            }
            let t = Instant::now();
            let matching = petgraph::algo::maximum_matching(&pg);
            let ms = millis(t);
            println!("matching={} match_ms={ms}", matching.len());
        }
        other => panic!("unknown child mode {other}"),
    }
}
