//! The server's metrics, in the Prometheus / OpenMetrics text format.
//!
//! One process-wide set, like the log: every layer records into it where
//! the event happens (a call's end, a cache lookup, a solver run, a store
//! query) without a handle passed through every constructor. Live counts
//! the server already keeps (queues, open games, connections) are read at
//! scrape time through [`Metrics::encode`]. The HTTP endpoint that serves
//! them is `server::metrics`.

use std::sync::LazyLock;
use std::time::Instant;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Metric, Registry};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CallLabels {
    /// The gRPC path, e.g. `/puzzled.v1.PuzzleService/Solve`; `unknown`
    /// for a method the server does not have (so a client cannot make up
    /// labels without end).
    pub method: String,
    /// The gRPC status code's name, e.g. `Ok`, `NotFound`.
    pub code: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct MethodLabels {
    pub method: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CacheLabels {
    /// `answer` (the memo of answers to repeated Solve and SolvePuzzle
    /// requests), `stored_answer` (stored puzzles' answers kept for
    /// AnalyzePosition and Play), `puzzle` and `page` (the memos of
    /// GetPuzzle and ListPuzzles answers), `memory` (the in-process
    /// verdict cache) or `store` (the verdicts table).
    pub level: &'static str,
    /// `hit` or `miss`.
    pub outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct GameLabels {
    pub game: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct QueryLabels {
    /// The store operation, e.g. `get_puzzle`, `put_verdict`.
    pub query: &'static str,
}

/// The live counts read at scrape time.
#[derive(Clone, Copy, Debug, Default)]
pub struct LiveCounts {
    pub solves_running: usize,
    pub solves_waiting: usize,
    pub admission_waiting: usize,
    pub games_open: usize,
    pub connections_open: usize,
}

pub struct Metrics {
    registry: Registry,
    pub requests: Family<CallLabels, Counter>,
    pub request_seconds: Family<MethodLabels, Histogram>,
    pub cache_lookups: Family<CacheLabels, Counter>,
    pub solver_runs: Family<GameLabels, Counter>,
    pub solver_seconds: Family<GameLabels, Histogram>,
    pub admission_wait_seconds: Histogram,
    pub store_seconds: Family<QueryLabels, Histogram>,
    solves_running: Gauge,
    solves_waiting: Gauge,
    admission_waiting: Gauge,
    games_open: Gauge,
    connections_open: Gauge,
}

/// Buckets from 100 µs to about 1.7 min, ×4 apart: a cached answer and a
/// solve of 10^7 edges both land inside.
fn seconds_buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(1e-4, 4.0, 11)
}

fn seconds_histogram() -> Histogram {
    Histogram::new(seconds_buckets())
}

/// `metric`, registered under `name`.
fn registered<M: Metric + Clone>(registry: &mut Registry, name: &str, help: &str, metric: M) -> M {
    registry.register(name, help, metric.clone());
    metric
}

/// A family of histograms in [`seconds_buckets`].
fn histograms<L: Clone + std::hash::Hash + Eq>() -> Family<L, Histogram> {
    Family::new_with_constructor(seconds_histogram as fn() -> _)
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("puzzled");
        let requests = registered(
            &mut registry,
            "requests",
            "Calls answered, by method and gRPC status code",
            Family::default(),
        );
        let request_seconds = registered(
            &mut registry,
            "request_duration_seconds",
            "Time from a call's arrival to its status, by method",
            histograms(),
        );
        let cache_lookups = registered(
            &mut registry,
            "cache_lookups",
            "Answer and verdict lookups by level (answer, memory, store) and outcome (hit, miss)",
            Family::default(),
        );
        let solver_runs = registered(
            &mut registry,
            "solver_runs",
            "Solves computed (not served from a cache), by game",
            Family::default(),
        );
        let solver_seconds = registered(
            &mut registry,
            "solver_duration_seconds",
            "Time a computed solve held its worker, by game",
            histograms(),
        );
        let admission_wait_seconds = registered(
            &mut registry,
            "admission_wait_seconds",
            "Time a request waited for the admission budget (0 when it fitted at once)",
            seconds_histogram(),
        );
        let store_seconds = registered(
            &mut registry,
            "store_duration_seconds",
            "Time of a store operation, by operation",
            histograms(),
        );
        let mut gauge =
            |name: &str, help: &str| registered(&mut registry, name, help, Gauge::default());
        let solves_running = gauge("solves_running", "Solves holding a solve worker");
        let solves_waiting = gauge(
            "solve_queue_depth",
            "Calls waiting for a solve, queued or running",
        );
        let admission_waiting = gauge(
            "admission_queue_depth",
            "Requests waiting for the admission budget",
        );
        let games_open = gauge("play_games_open", "Play games open");
        let connections_open = gauge("connections_open", "Client connections being served");
        Metrics {
            registry,
            requests,
            request_seconds,
            cache_lookups,
            solver_runs,
            solver_seconds,
            admission_wait_seconds,
            store_seconds,
            solves_running,
            solves_waiting,
            admission_waiting,
            games_open,
            connections_open,
        }
    }

    /// Every metric in the OpenMetrics text format, the live counts set to
    /// `live`.
    pub fn encode(&self, live: LiveCounts) -> String {
        let set = |gauge: &Gauge, value: usize| {
            gauge.set(i64::try_from(value).unwrap_or(i64::MAX));
        };
        set(&self.solves_running, live.solves_running);
        set(&self.solves_waiting, live.solves_waiting);
        set(&self.admission_waiting, live.admission_waiting);
        set(&self.games_open, live.games_open);
        set(&self.connections_open, live.connections_open);
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .expect("writing to a String cannot fail");
        text
    }

    /// Counts a cache lookup.
    pub fn cache_lookup(&self, level: &'static str, hit: bool) {
        let outcome = if hit { "hit" } else { "miss" };
        self.cache_lookups
            .get_or_create(&CacheLabels { level, outcome })
            .inc();
    }

    /// Times a store operation until the returned guard is dropped.
    pub fn store_query(&self, query: &'static str) -> StoreTimer {
        StoreTimer {
            query,
            started: Instant::now(),
        }
    }
}

/// Observes a store operation's time when dropped.
pub struct StoreTimer {
    query: &'static str,
    started: Instant,
}

impl Drop for StoreTimer {
    fn drop(&mut self) {
        metrics()
            .store_seconds
            .get_or_create(&QueryLabels { query: self.query })
            .observe(self.started.elapsed().as_secs_f64());
    }
}

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}
