//! Big-graph benchmark of the matching engine and the full Geography solve,
//! against the time to read the input and against petgraph's
//! `maximum_matching`, all measured in the same run.
//!
//! ```text
//! cargo bench --bench matching -- [--reps N] [--peer-timeout SECS] [--no-peer] FILES…
//! ```
//! FILES are in the layout of `../shared/peers/gen.py` (`n m`, then `m` lines
//! `u v`, 0-based). Every instance runs in a child process so that its peak
//! memory (VmHWM) is its own and a slow peer can be stopped at the timeout.
//! Figures are medians over the repetitions; compare ratios, not absolute
//! times (the machines are shared and noisy).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use puzzled::graph_file::{self, Numbering};
use puzzled::solver::geography::{self, GeographyOptions};
use puzzled::solver::graph::Graph;
use puzzled::solver::matching::MatchingAnalysis;

fn main() {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("--child") {
        child(&args[1..]);
        return;
    }
    let mut reps = 3usize;
    let mut peer_timeout = 120u64;
    let mut peer = true;
    let mut files = Vec::new();
    while !args.is_empty() {
        let arg = args.remove(0);
        match arg.as_str() {
            "--reps" => reps = args.remove(0).parse().expect("--reps takes a number"),
            "--peer-timeout" => {
                peer_timeout = args
                    .remove(0)
                    .parse()
                    .expect("--peer-timeout takes seconds")
            }
            "--no-peer" => peer = false,
            _ => files.push(arg),
        }
    }
    if files.is_empty() {
        eprintln!(
            "usage: cargo bench --bench matching -- [--reps N] [--peer-timeout SECS] [--no-peer] FILES…"
        );
        std::process::exit(2);
    }
    println!(
        "| instance | n | m | ν | read ms | matching ms | geography ms | petgraph ms | matching / read | geography / read | petgraph / geography | peak MiB | bytes / edge |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for file in &files {
        let ours = run_child(&["ours", file, &reps.to_string()], None)
            .unwrap_or_else(|| panic!("our solver failed on {file}"));
        let field = |key: &str| -> f64 {
            ours.split_whitespace()
                .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
                .unwrap_or_else(|| panic!("child output lacks {key}: {ours}"))
                .parse()
                .unwrap()
        };
        let (n, m, size) = (field("n"), field("m"), field("matching"));
        let (read, matching, geo) = (field("read_ms"), field("match_ms"), field("geography_ms"));
        let peak_mib = field("peak_kib") / 1024.0;
        let petgraph = if peer {
            run_child(&["petgraph", file], Some(Duration::from_secs(peer_timeout))).map(|out| {
                let value = |key: &str| -> f64 {
                    out.split_whitespace()
                        .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
                        .unwrap()
                        .parse()
                        .unwrap()
                };
                assert_eq!(
                    value("matching"),
                    size,
                    "petgraph disagrees on ν for {file}"
                );
                value("match_ms")
            })
        } else {
            None
        };
        let (petgraph_cell, ratio_cell) = match (peer, petgraph) {
            (false, _) => ("not run".to_string(), "–".to_string()),
            (true, Some(ms)) => (format!("{ms:.1}"), format!("{:.1}×", ms / geo)),
            (true, None) => (
                format!("> {peer_timeout} s"),
                format!("> {:.0}×", peer_timeout as f64 * 1000.0 / geo),
            ),
        };
        let name = Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        println!(
            "| {name} | {n} | {m} | {size} | {read:.1} | {matching:.1} | {geo:.1} | {petgraph_cell} | {:.2} | {:.2} | {ratio_cell} | {peak_mib:.0} | {:.0} |",
            matching / read,
            geo / read,
            field("working_bytes") / m.max(1.0),
        );
    }
}

/// Runs this binary as a child; `None` on failure or timeout.
fn run_child(args: &[&str], timeout: Option<Duration>) -> Option<String> {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .arg("--child")
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn bench child");
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
            return status.success().then_some(out);
        }
        if timeout.is_some_and(|t| started.elapsed() > t) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn millis(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

fn read_graph(file: &str) -> Graph {
    let parsed = graph_file::read(Path::new(file), |t| {
        graph_file::parse_edge_list(t, Numbering::ZeroBased)
    })
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    Graph::from_flat_edges(parsed.vertex_count, &parsed.edges)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn peak_kib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0.0)
}

fn child(args: &[String]) {
    match args[0].as_str() {
        "ours" => {
            let file = &args[1];
            let reps: usize = args[2].parse().unwrap();
            let (mut read, mut matching, mut geo) = (Vec::new(), Vec::new(), Vec::new());
            let mut graph = None;
            let mut size = 0;
            for _ in 0..reps {
                let t = Instant::now();
                let g = read_graph(file);
                read.push(millis(t));
                let t = Instant::now();
                let analysis = MatchingAnalysis::new(&g);
                matching.push(millis(t));
                size = analysis.size();
                drop(analysis);
                let t = Instant::now();
                let options = GeographyOptions {
                    all_starts: true,
                    winning_moves: true,
                };
                let solution = geography::solve(&g, 0, options);
                geo.push(millis(t));
                assert_eq!(solution.matching.len(), size);
                graph = Some(g);
            }
            let g = graph.unwrap();
            // Graph plus the matching state: mate, stamp, parent, bridge (2),
            // union-find parent, base, LCA marks (u32 each) and the label byte.
            let working_bytes = g.heap_bytes() + g.vertex_count() * (8 * 4 + 1);
            println!(
                "n={} m={} matching={size} read_ms={} match_ms={} geography_ms={} peak_kib={} working_bytes={working_bytes}",
                g.vertex_count(),
                g.edge_count(),
                median(read),
                median(matching),
                median(geo),
                peak_kib(),
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
