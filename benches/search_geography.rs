//! The Geography variants solved by search (`crates/core/src/solver/search_geography.rs`)
//! against two peers written here, measured in the same run on the same
//! instances.
//!
//! ```text
//! cargo bench --bench search_geography -- [--seeds K] [--cap SECONDS] [--families LIST] [--quick]
//! ```
//!
//! For each family and size, `--seeds` random instances (a seed names an
//! instance) are solved by three methods, and each column is the median
//! over the instances:
//! - *ours*: the verdict alone, `Search::wins` on the start position, and
//!   apart from it the full `solve` (every winning first move and the
//!   strategy certificate), each with its states (table entries);
//! - *DP*, the article's baseline: a dense table over every (used set,
//!   token), filled bottom-up over all `2^N` visited sets (directed vertex
//!   Geography) or all `2^M` used-edge sets (the edge games), with no
//!   pruning, and the whole table is filled whatever the start. A set's
//!   word holds one bit per token, and a set is settled by looking once at
//!   each item outside it (every predecessor of a vertex that loses for
//!   its mover wins), so the pass is `O(N·2^N)` or `O(M·2^M)` word
//!   operations, a factor `N` under the article's `O(N²·2^N)`: the peer is
//!   if anything faster than the article's. Its states are the table's
//!   entries, `N·2^N` for the vertex game and `N·2^M` for the edge games
//!   (a token is a vertex). It runs only where the table has at most
//!   `2^27` sets (512 MiB), and is "—" past that;
//! - *plain*: depth-first search without a table, trying the moves in the
//!   board's order and stopping at the first winning one; its work is the
//!   positions it visits.
//!
//! Every run is stopped past `--cap` seconds (ours through its cancel
//! handle, the peers by a clock they look at) and counts as "> cap"; a
//! median over runs of which too many were stopped is "> cap" too. The
//! methods' verdicts are compared instance by instance.
//!
//! A family grows until the median of our verdict passes 1 s (or the search
//! passes its state budget, or the boards reach the search's limit of 128
//! items); a peer stops growing once its own median passes 1 s. The summary gives, per family, the largest size each method
//! decides within 1 s in the median, and the ratio DP / ours at the size
//! where the DP takes about 1 s.
//!
//! The families: random digraphs with every out-degree 2 or 3 (directed
//! vertex and directed edge Geography), a random tree oriented away from
//! its root with `n/4` random extra arcs (directed vertex), a random tree
//! with random chords up to average degree 3, and rectangular grids
//! (undirected edge). Grids are one graph a size: their instances are
//! random starts. The last column counts the instances the first player
//! wins. `--quick` stops every family at 18 items, with 3 instances a
//! size and a 0.5 s cap: a smoke run.

use std::collections::HashSet;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use puzzled::solver::Player;
use puzzled::solver::cancel::Cancel;
use puzzled::solver::search_geography::{
    Board, DEFAULT_CERTIFICATE_POSITIONS, Search, SearchOptions, SearchStop, Variant, solve,
};
use puzzled_testkit::random::{EdgeSet, Rng as _, XorShift, XorShiftStar, random_tree};
use puzzled_testkit::stats::median;

/// The server's allocator (see `src/main.rs`): allocation is part of what
/// ours and the peers cost.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(clap::Parser)]
struct Args {
    /// Random instances per family and size (the medians are over them).
    #[arg(long, default_value_t = 7)]
    seeds: u64,
    /// Seconds after which any one run is stopped and counted as "> cap".
    #[arg(long, default_value_t = 5.0)]
    cap: f64,
    /// Our search's state budget.
    #[arg(long, default_value_t = 50_000_000)]
    budget: u64,
    /// Families to run, comma-separated (dv2, dv3, dvtree, de2, de3, ue3,
    /// grid), or `all`.
    #[arg(long, default_value = "all")]
    families: String,
    /// Small sizes only, 3 seeds, a 0.5 s cap: a smoke run of a few seconds.
    #[arg(long)]
    quick: bool,
    /// `cargo bench` passes this flag to every bench binary.
    #[arg(long, hide = true)]
    bench: bool,
}

/// The median time past which a method stops growing.
const ONE_SECOND: Duration = Duration::from_secs(1);

/// The largest boards of `--quick`, in items.
const QUICK_MAX_ITEMS: u32 = 18;

/// The largest DP table, in sets (one 32-bit word each: 512 MiB).
const DP_MAX_SETS_LOG2: u32 = 27;

/// One graph and its start.
struct Instance {
    n: u32,
    pairs: Vec<(u32, u32)>,
    start: u32,
}

impl Instance {
    fn items(&self, variant: Variant) -> u32 {
        match variant {
            Variant::DirectedVertex => self.n,
            _ => self.pairs.len() as u32,
        }
    }
}

/// A digraph on `n` vertices in which every vertex has `d` arcs to
/// distinct other vertices drawn uniformly.
fn random_out_degree(n: u32, d: u32, seed: u64) -> Instance {
    let mut rng = XorShiftStar::scrambled(seed);
    let mut pairs = Vec::new();
    for u in 0..n {
        let mut targets: Vec<u32> = Vec::new();
        while (targets.len() as u32) < d.min(n - 1) {
            let v = rng.below(u64::from(n)) as u32;
            if v != u && !targets.contains(&v) {
                targets.push(v);
            }
        }
        pairs.extend(targets.into_iter().map(|v| (u, v)));
    }
    Instance { n, pairs, start: 0 }
}

/// A random recursive tree with its arcs from parent to child, plus `n/4`
/// distinct random extra arcs (no loops, no repeated arc); the start is
/// the root.
fn tree_with_extra_arcs(n: u32, seed: u64) -> Instance {
    let mut rng = XorShiftStar::scrambled(seed);
    let tree = random_tree(n, &mut rng);
    let mut pairs: Vec<(u32, u32)> = tree.chunks(2).map(|e| (e[0], e[1])).collect();
    let mut seen: HashSet<(u32, u32)> = pairs.iter().copied().collect();
    let extra = (n / 4) as usize;
    let mut added = 0;
    while added < extra {
        let u = rng.below(u64::from(n)) as u32;
        let v = rng.below(u64::from(n)) as u32;
        if u != v && seen.insert((u, v)) {
            pairs.push((u, v));
            added += 1;
        }
    }
    Instance { n, pairs, start: 0 }
}

/// A random recursive tree plus random chords up to `3n/2` edges (average
/// degree 3, connected), from a random start.
fn tree_plus_chords(n: u32, seed: u64) -> Instance {
    let mut rng = XorShift::scrambled(seed);
    let mut edges = EdgeSet::new();
    for e in random_tree(n, &mut rng).chunks(2) {
        edges.add(e[0], e[1]);
    }
    edges.fill_at_random(n, (3 * n as usize) / 2, &mut rng);
    let start = rng.below(u64::from(n)) as u32;
    Instance {
        n,
        pairs: edges.into_pairs(),
        start,
    }
}

/// The grids, by edge count: `(rows, columns)`.
const GRID_SHAPES: [(u32, u32); 15] = [
    (2, 2),
    (2, 3),
    (3, 3),
    (3, 4),
    (3, 5),
    (4, 4),
    (3, 6),
    (4, 5),
    (5, 5),
    (5, 6),
    (6, 6),
    (6, 7),
    (7, 7),
    (7, 8),
    (8, 8),
];

/// The grid `GRID_SHAPES[shape]`, from a random start.
fn grid(shape: u32, seed: u64) -> Instance {
    let (rows, cols) = GRID_SHAPES[shape as usize];
    let id = |r: u32, c: u32| r * cols + c;
    let mut pairs = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                pairs.push((id(r, c), id(r, c + 1)));
            }
            if r + 1 < rows {
                pairs.push((id(r, c), id(r + 1, c)));
            }
        }
    }
    let n = rows * cols;
    let start = XorShift::scrambled(seed).below(u64::from(n)) as u32;
    Instance { n, pairs, start }
}

struct Family {
    key: &'static str,
    name: &'static str,
    variant: Variant,
    /// The generator's size parameters, growing.
    sizes: Vec<u32>,
    make: fn(u32, u64) -> Instance,
}

fn families() -> Vec<Family> {
    let vertex_sizes: Vec<u32> = [8, 10, 12, 14, 16, 18, 20, 21, 22, 23, 24, 25, 26]
        .into_iter()
        .chain((28..=48).step_by(2))
        .chain((52..=64).step_by(4))
        .chain((72..=128).step_by(8))
        .collect();
    vec![
        Family {
            key: "dv2",
            name: "directed vertex, random out-degree 2",
            variant: Variant::DirectedVertex,
            sizes: vertex_sizes.clone(),
            make: |n, seed| random_out_degree(n, 2, seed),
        },
        Family {
            key: "dv3",
            name: "directed vertex, random out-degree 3",
            variant: Variant::DirectedVertex,
            sizes: vertex_sizes.clone(),
            make: |n, seed| random_out_degree(n, 3, seed ^ 0x3300),
        },
        Family {
            key: "dvtree",
            name: "directed vertex, tree away from the root + n/4 random arcs",
            variant: Variant::DirectedVertex,
            sizes: vertex_sizes,
            make: tree_with_extra_arcs,
        },
        Family {
            key: "de2",
            name: "directed edge, random out-degree 2",
            variant: Variant::DirectedEdge,
            sizes: (4..=14)
                .chain((16..=32).step_by(2))
                .chain((36..=64).step_by(4))
                .collect(),
            make: |n, seed| random_out_degree(n, 2, seed ^ 0xde20),
        },
        Family {
            key: "de3",
            name: "directed edge, random out-degree 3",
            variant: Variant::DirectedEdge,
            sizes: (3..=12)
                .chain((14..=24).step_by(2))
                .chain((28..=40).step_by(4))
                .chain([42])
                .collect(),
            make: |n, seed| random_out_degree(n, 3, seed ^ 0xde30),
        },
        Family {
            key: "ue3",
            name: "undirected edge, random tree + chords, average degree 3",
            variant: Variant::UndirectedEdge,
            sizes: [6, 8, 10, 12, 13, 14, 15, 16, 17, 18]
                .into_iter()
                .chain((20..=40).step_by(2))
                .chain((44..=84).step_by(4))
                .collect(),
            make: tree_plus_chords,
        },
        Family {
            key: "grid",
            name: "undirected edge, grids",
            variant: Variant::UndirectedEdge,
            sizes: (0..GRID_SHAPES.len() as u32).collect(),
            make: grid,
        },
    ]
}

/// Why a run gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Past `--cap` seconds.
    Cap,
    /// Our search passed its state budget.
    Budget,
    /// The DP table would pass `2^27` sets.
    TooLarge,
}

/// One run: its time, its work (states or positions) and whether the first
/// player wins, or why it stopped.
type Run = Result<(Duration, u64, bool), Stop>;

/// Runs `f` with a cancel handle that fires `cap` after the call.
fn with_cap<T>(cap: Duration, f: impl FnOnce(&Cancel) -> T) -> T {
    let cancel = Cancel::new();
    let (done, wait) = mpsc::channel::<()>();
    let watchdog = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            if wait.recv_timeout(cap) == Err(mpsc::RecvTimeoutError::Timeout) {
                cancel.fire();
            }
        })
    };
    let out = f(&cancel);
    drop(done);
    watchdog.join().expect("the watchdog ends");
    out
}

fn stop_of(stop: SearchStop) -> Stop {
    match stop {
        SearchStop::BudgetExceeded { .. } => Stop::Budget,
        SearchStop::Cancelled(_) => Stop::Cap,
    }
}

/// Our verdict alone: `Search::wins` on the start.
fn ours_verdict(board: &Board, start: u32, budget: u64, cap: Duration) -> Run {
    with_cap(cap, |cancel| {
        let mut search = Search::new(board, budget, cancel);
        let started = Instant::now();
        let wins = search.wins(board.start(start));
        let time = started.elapsed();
        let states = search.states();
        wins.map(|wins| (time, states, wins)).map_err(stop_of)
    })
}

/// Our full answer: the verdict, every winning first move, the certificate.
fn ours_solve(board: &Board, start: u32, budget: u64, cap: Duration) -> Run {
    with_cap(cap, |cancel| {
        let options = SearchOptions {
            budget_states: budget,
            certificate_positions: DEFAULT_CERTIFICATE_POSITIONS,
        };
        let started = Instant::now();
        let solution = solve(board, start, options, cancel);
        let time = started.elapsed();
        solution
            .map(|s| (time, s.states, s.winner == Player::First))
            .map_err(stop_of)
    })
}

/// The article's DP, bottom-up over every used set. Directed vertex
/// Geography: `table[S]` has bit `v` set when the mover wins with the token
/// on `v` and the vertices of `S` visited (`v` among them). The edge
/// games: `table[U]` has bit `v` set when the mover wins from `v` with the
/// edges of `U` used.
fn dp(variant: Variant, inst: &Instance, cap: Duration) -> Run {
    let items = inst.items(variant);
    if items > DP_MAX_SETS_LOG2 || inst.n > 32 {
        return Err(Stop::TooLarge);
    }
    let started = Instant::now();
    let deadline = started + cap;
    let sets = 1usize << items;
    let all = sets - 1;
    let mut table = vec![0u32; sets];
    if variant == Variant::DirectedVertex {
        // pred[w]: the vertices with an arc into w.
        let mut pred = vec![0u32; inst.n as usize];
        for &(u, v) in &inst.pairs {
            pred[v as usize] |= 1 << u;
        }
        for set in (0..sets).rev() {
            if set & 0xffff == 0 && Instant::now() > deadline {
                return Err(Stop::Cap);
            }
            let mut wins = 0u32;
            let mut fresh = !set & all;
            while fresh != 0 {
                let w = fresh.trailing_zeros();
                fresh &= fresh - 1;
                if table[set | 1 << w] >> w & 1 == 0 {
                    wins |= pred[w as usize];
                }
            }
            table[set] = wins & set as u32;
        }
        let wins = table[1 << inst.start] >> inst.start & 1 == 1;
        Ok((started.elapsed(), u64::from(inst.n) << items, wins))
    } else {
        let undirected = variant == Variant::UndirectedEdge;
        for set in (0..sets).rev() {
            if set & 0xffff == 0 && Instant::now() > deadline {
                return Err(Stop::Cap);
            }
            let mut wins = 0u32;
            let mut fresh = !set & all;
            while fresh != 0 {
                let e = fresh.trailing_zeros();
                fresh &= fresh - 1;
                let after = table[set | 1 << e];
                let (a, b) = inst.pairs[e as usize];
                if after >> b & 1 == 0 {
                    wins |= 1 << a;
                }
                if undirected && after >> a & 1 == 0 {
                    wins |= 1 << b;
                }
            }
            table[set] = wins;
        }
        let wins = table[0] >> inst.start & 1 == 1;
        Ok((started.elapsed(), u64::from(inst.n) << items, wins))
    }
}

/// Plain depth-first search over (used items, token), no table.
struct Plain {
    /// Per vertex: (item, target) of each move.
    moves: Vec<Vec<(u8, u8)>>,
    positions: u64,
    deadline: Instant,
}

impl Plain {
    fn new(variant: Variant, inst: &Instance) -> Plain {
        let mut moves = vec![Vec::new(); inst.n as usize];
        for (index, &(u, v)) in inst.pairs.iter().enumerate() {
            let item = if variant == Variant::DirectedVertex {
                v
            } else {
                index as u32
            };
            moves[u as usize].push((item as u8, v as u8));
            if variant == Variant::UndirectedEdge {
                moves[v as usize].push((item as u8, u as u8));
            }
        }
        Plain {
            moves,
            positions: 0,
            deadline: Instant::now(),
        }
    }

    /// Whether the mover wins; `None` once past the deadline.
    fn wins(&mut self, token: u8, used: u128) -> Option<bool> {
        self.positions += 1;
        if self.positions & 0xffff == 0 && Instant::now() > self.deadline {
            return None;
        }
        for k in 0..self.moves[token as usize].len() {
            let (item, to) = self.moves[token as usize][k];
            if used >> item & 1 == 0 && !self.wins(to, used | 1 << item)? {
                return Some(true);
            }
        }
        Some(false)
    }
}

fn plain(variant: Variant, inst: &Instance, cap: Duration) -> Run {
    let mut search = Plain::new(variant, inst);
    let used = if variant == Variant::DirectedVertex {
        1u128 << inst.start
    } else {
        0
    };
    let started = Instant::now();
    search.deadline = started + cap;
    match search.wins(inst.start as u8, used) {
        Some(wins) => Ok((started.elapsed(), search.positions, wins)),
        None => Err(Stop::Cap),
    }
}

/// A method's medians over one row's instances.
#[derive(Clone, Copy)]
enum Cell {
    /// Not run at this size (the method stopped growing).
    NotRun,
    /// Every median's instance answered in time: time and work.
    Done(Duration, f64),
    /// The median run was stopped, for this reason.
    Stopped(Stop),
}

impl Cell {
    fn time(self) -> Option<Duration> {
        match self {
            Cell::Done(time, _) => Some(time),
            _ => None,
        }
    }

    fn within_one_second(self) -> bool {
        self.time().is_some_and(|t| t <= ONE_SECOND)
    }
}

/// The median of runs of which some were stopped (those count as longer
/// than any answer): the medians of the answered ones padded with copies
/// of the largest, when the middle of the sorted runs is an answer.
fn median_cell(runs: &[Run], count: usize) -> Cell {
    let done: Vec<(Duration, u64)> = runs
        .iter()
        .filter_map(|r| r.ok())
        .map(|r| (r.0, r.1))
        .collect();
    if done.len() <= count / 2 {
        let stop = runs.iter().find_map(|r| r.err()).expect("a stopped run");
        return Cell::Stopped(stop);
    }
    let mut times: Vec<Duration> = done.iter().map(|d| d.0).collect();
    let mut work: Vec<f64> = done.iter().map(|d| d.1 as f64).collect();
    let longest = *times.iter().max().expect("an answer");
    let most = work.iter().copied().fold(0.0, f64::max);
    times.resize(count, longest);
    work.resize(count, most);
    Cell::Done(median(&times), median(&work))
}

/// Runs `method` on each instance, stopping once so many runs were stopped
/// that the median is stopped.
fn measure(
    cases: &[(Instance, Board)],
    mut method: impl FnMut(&(Instance, Board)) -> Run,
) -> (Cell, Vec<Run>) {
    let count = cases.len();
    let mut runs = Vec::new();
    for case in cases {
        let run = method(case);
        runs.push(run);
        let stopped = runs.iter().filter(|r| r.is_err()).count();
        if stopped >= count - count / 2 {
            break;
        }
    }
    (median_cell(&runs, count), runs)
}

struct Row {
    n: u32,
    m: u32,
    first_wins: usize,
    instances: usize,
    ours: Cell,
    solve: Cell,
    dp: Cell,
    plain: Cell,
}

impl Row {
    /// The items (vertices or edges) of the row's boards.
    fn items(&self, variant: Variant) -> u32 {
        match variant {
            Variant::DirectedVertex => self.n,
            _ => self.m,
        }
    }
}

fn fmt_ms(time: Duration) -> String {
    let ms = time.as_secs_f64() * 1e3;
    if ms >= 1000.0 {
        with_commas(ms.round() as u64)
    } else if ms >= 100.0 {
        format!("{ms:.0}")
    } else if ms >= 10.0 {
        format!("{ms:.1}")
    } else if ms >= 1.0 {
        format!("{ms:.2}")
    } else if ms >= 0.01 {
        format!("{ms:.3}")
    } else {
        format!("{ms:.4}")
    }
}

fn with_commas(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn fmt_ratio(ratio: f64) -> String {
    if ratio >= 100.0 {
        format!("{}×", with_commas(ratio.round() as u64))
    } else if ratio >= 10.0 {
        format!("{ratio:.0}×")
    } else {
        format!("{ratio:.2}×")
    }
}

fn fmt_time(cell: Cell, cap: Duration) -> String {
    match cell {
        Cell::NotRun => "".into(),
        Cell::Done(time, _) => fmt_ms(time),
        Cell::Stopped(Stop::Cap) => format!("> {}", fmt_ms(cap)),
        Cell::Stopped(Stop::Budget) => "budget".into(),
        Cell::Stopped(Stop::TooLarge) => "—".into(),
    }
}

/// A peer's time over ours: "> x" when the peer was stopped at the cap.
fn fmt_time_ratio(peer: Cell, ours: Cell, cap: Duration) -> String {
    let Some(ours) = ours.time() else {
        return "".into();
    };
    let ours = ours.as_secs_f64().max(1e-9);
    match peer {
        Cell::Done(time, _) => fmt_ratio(time.as_secs_f64() / ours),
        Cell::Stopped(Stop::Cap) => format!("> {}", fmt_ratio(cap.as_secs_f64() / ours)),
        _ => "".into(),
    }
}

fn print_row(variant: Variant, row: &Row, cap: Duration) {
    let states = match row.ours {
        Cell::Done(_, states) => with_commas(states as u64),
        _ => "".into(),
    };
    let solve_states = match row.solve {
        Cell::Done(_, states) => with_commas(states as u64),
        _ => "".into(),
    };
    let items = row.items(variant);
    let dp_states = match (row.dp, row.ours) {
        (Cell::Done(..), _) | (Cell::Stopped(Stop::Cap), _) => format!("{}·2^{items}", row.n),
        _ => "".into(),
    };
    let positions = match row.plain {
        Cell::Done(_, positions) => with_commas(positions as u64),
        _ => "".into(),
    };
    let states_ratio = match (row.dp, row.ours) {
        (Cell::Done(_, entries), Cell::Done(_, states)) => fmt_ratio(entries / states.max(1.0)),
        _ => "".into(),
    };
    println!(
        "| {} | {} | {} | {states} | {} | {solve_states} | {} | {dp_states} | {} | {positions} | {} | {} | {states_ratio} | {}/{} |",
        row.n,
        row.m,
        fmt_time(row.ours, cap),
        fmt_time(row.solve, cap),
        fmt_time(row.dp, cap),
        fmt_time(row.plain, cap),
        fmt_time_ratio(row.dp, row.ours, cap),
        fmt_time_ratio(row.plain, row.ours, cap),
        row.first_wins,
        row.instances,
    );
}

/// Runs one family, printing its table as it goes.
fn run_family(family: &Family, args: &Args, seeds: u64, cap: Duration) -> Vec<Row> {
    let variant = family.variant;
    println!("\n### {}\n", family.name);
    println!(
        "| n | m | ours ms | ours states | full solve ms | solve states | DP ms | DP entries | plain ms | plain positions | DP / ours | plain / ours | DP entries / our states | first player wins |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut rows = Vec::new();
    let (mut dp_grows, mut plain_grows, mut solve_grows) = (true, true, true);
    for &size in &family.sizes {
        let instances: Vec<Instance> = (0..seeds)
            .map(|seed| (family.make)(size, (u64::from(size) << 32) ^ (seed + 1)))
            .collect();
        if args.quick && instances[0].items(variant) > QUICK_MAX_ITEMS {
            break;
        }
        let cases: Vec<(Instance, Board)> = instances
            .into_iter()
            .map(|i| {
                let board =
                    Board::new(variant, i.n as usize, &i.pairs).expect("a board within the limits");
                (i, board)
            })
            .collect();
        let (ours, ours_runs) =
            measure(&cases, |(i, b)| ours_verdict(b, i.start, args.budget, cap));
        let (solve, _) = if solve_grows {
            measure(&cases, |(i, b)| ours_solve(b, i.start, args.budget, cap))
        } else {
            (Cell::NotRun, Vec::new())
        };
        let (dp_cell, dp_runs) = if dp_grows {
            measure(&cases, |(i, _)| dp(variant, i, cap))
        } else {
            (Cell::NotRun, Vec::new())
        };
        let (plain_cell, plain_runs) = if plain_grows {
            measure(&cases, |(i, _)| plain(variant, i, cap))
        } else {
            (Cell::NotRun, Vec::new())
        };
        // The methods agree on every instance they all answered.
        for (k, run) in ours_runs.iter().enumerate() {
            let Ok((_, _, wins)) = run else { continue };
            let others = [dp_runs.get(k), plain_runs.get(k)];
            for (_, _, theirs) in others.into_iter().flatten().flatten() {
                assert_eq!(
                    wins, theirs,
                    "{} size {size} seed {k}: verdicts differ",
                    family.key
                );
            }
        }
        let first_wins = ours_runs
            .iter()
            .filter(|r| matches!(r, Ok((_, _, true))))
            .count();
        let row = Row {
            n: cases[0].0.n,
            m: cases[0].0.pairs.len() as u32,
            first_wins,
            instances: cases.len(),
            ours,
            solve,
            dp: dp_cell,
            plain: plain_cell,
        };
        print_row(variant, &row, cap);
        dp_grows &= row.dp.within_one_second();
        plain_grows &= row.plain.within_one_second();
        solve_grows &= row.solve.time().is_some();
        let last = !row.ours.within_one_second();
        rows.push(row);
        if last {
            break;
        }
    }
    rows
}

/// The largest row a method decided within 1 s in the median.
fn largest_within_one_second(rows: &[Row], cell: impl Fn(&Row) -> Cell) -> Option<&Row> {
    rows.iter().rev().find(|row| cell(row).within_one_second())
}

fn print_summary(summaries: &[(&Family, Vec<Row>)], cap: Duration) {
    println!("\n### Largest size decided within 1 s (median), and the DP at about 1 s\n");
    println!(
        "| family | items | ours | DP | plain | ours / DP, in items | DP ≈ 1 s at | DP ms | ours ms | DP / ours |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (family, rows) in summaries {
        let variant = family.variant;
        let items_name = if variant == Variant::DirectedVertex {
            "vertices"
        } else {
            "edges"
        };
        // "≥" when the method was still within 1 s on the family's last
        // row: the family ended (at the board limit, or because our
        // search passed 1 s) before the method did.
        let describe = |row: Option<&Row>| match row {
            Some(row) => {
                let grown_out = std::ptr::eq(row, rows.last().expect("a row"));
                let at_least = if grown_out { "≥ " } else { "" };
                format!("{at_least}n = {}, m = {}", row.n, row.m)
            }
            None => "none".into(),
        };
        let ours = largest_within_one_second(rows, |r| r.ours);
        let dp_best = largest_within_one_second(rows, |r| r.dp);
        let plain_best = largest_within_one_second(rows, |r| r.plain);
        let size_ratio = match (ours, dp_best) {
            (Some(o), Some(d)) => format!(
                "{:.2}",
                f64::from(o.items(variant)) / f64::from(d.items(variant))
            ),
            _ => "".into(),
        };
        // The row whose DP median is nearest 1 s (on a log scale).
        let at_one_second = rows
            .iter()
            .filter_map(|r| r.dp.time().map(|t| (r, (t.as_secs_f64().ln()).abs())))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(r, _)| r);
        let (dp_at, dp_ms, ours_ms, ratio) = match at_one_second {
            Some(row) => (
                format!("n = {}, m = {}", row.n, row.m),
                fmt_time(row.dp, cap),
                fmt_time(row.ours, cap),
                fmt_time_ratio(row.dp, row.ours, cap),
            ),
            None => Default::default(),
        };
        println!(
            "| {} | {items_name} | {} | {} | {} | {size_ratio} | {dp_at} | {dp_ms} | {ours_ms} | {ratio} |",
            family.key,
            describe(ours),
            describe(dp_best),
            describe(plain_best),
        );
    }
}

fn main() {
    let args: Args = clap::Parser::parse();
    let (seeds, cap) = if args.quick {
        (3, Duration::from_millis(500))
    } else {
        (args.seeds, Duration::from_secs_f64(args.cap))
    };
    let wanted: Vec<&str> = args.families.split(',').map(str::trim).collect();
    println!(
        "{seeds} instances a size; runs stopped past {} ms; our state budget {}",
        fmt_ms(cap),
        with_commas(args.budget)
    );
    let families = families();
    let mut summaries = Vec::new();
    for family in &families {
        if !wanted.contains(&"all") && !wanted.contains(&family.key) {
            continue;
        }
        let rows = run_family(family, &args, seeds, cap);
        summaries.push((family, rows));
    }
    if args.quick {
        println!(
            "\n`--quick` stops every family at {QUICK_MAX_ITEMS} items, long before 1 s: \
             the summary below says nothing of the sizes within 1 s."
        );
    }
    print_summary(&summaries, cap);
}
