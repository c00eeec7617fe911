//! Load against a real `puzzled serve`, started as a child process so that
//! its resident memory is the server's alone. This file reads the command
//! line and runs the scenario asked for; each scenario has a file of its
//! own, and `harness.rs` holds what they share.
//!
//! ```sh
//! cargo bench --bench load -- ratio       # cached Solve vs gRPC health Check
//! cargo bench --bench load -- abandon     # 50 huge solves whose callers give up
//! cargo bench --bench load -- empty-max   # tiny requests for the largest graph
//! cargo bench --bench load -- all         # the three, with their defaults
//! cargo bench --bench load -- peak        # peak memory per vertex + edge
//! cargo bench --bench load -- external    # the site's read calls, loaded by h2load
//! cargo bench --bench load -- fairness    # a light caller's latency beside heavy callers
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

mod abandoned_solves;
mod cached_solve_ratio;
mod fairness;
mod harness;
mod largest_empty_graph;
mod peak_memory;
mod site_reads;

use clap::{Args, Parser, Subcommand};

use abandoned_solves::{AbandonArgs, abandon};
use cached_solve_ratio::{RatioArgs, ratio};
use fairness::{FairnessArgs, fairness};
use harness::ServerArgs;
use largest_empty_graph::{EmptyMaxArgs, empty_max};
use peak_memory::peak;
use site_reads::{ExternalArgs, external};

/// The server's allocator (see `src/main.rs`): the generator shares the
/// machine with the server, so its own allocation is part of what is
/// measured.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// The latency of a light caller's cached and uncached Solves while
    /// heavy callers keep the solve workers busy, against an idle server.
    Fairness(FairnessArgs),
    /// The three scenarios in turn, with their defaults.
    All(ServerArgs),
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
            Scenario::Fairness(args) => fairness(args).await,
            Scenario::All(server) => all(server).await,
        }
    });
}

/// `ratio`, `abandon` and `empty-max` with their defaults, on one kind of
/// server.
async fn all(server: ServerArgs) {
    let mut ratio_args: RatioArgs = defaults();
    ratio_args.server = server.clone();
    ratio(ratio_args).await;
    println!();
    let mut abandon_args: AbandonArgs = defaults();
    abandon_args.server = server.clone();
    abandon(abandon_args).await;
    println!();
    let mut empty_max_args: EmptyMaxArgs = defaults();
    empty_max_args.server = server;
    empty_max(empty_max_args).await;
}

/// The defaults of an argument group, as clap fills them in, so that `all`
/// runs what each scenario run alone would.
fn defaults<T: Args>() -> T {
    let matches = T::augment_args(clap::Command::new("load")).get_matches_from(["load"]);
    T::from_arg_matches(&matches).expect("the defaults parse")
}
