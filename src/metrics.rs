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

/// A call's labels, as gRPC's own metrics name them.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CallLabels {
    /// The service, e.g. `puzzled.v1.PuzzleService`, `grpc.health.v1.Health`;
    /// `unknown` for a path the server does not serve (so a client cannot
    /// make up labels without end).
    pub grpc_service: &'static str,
    /// The method, e.g. `Solve`; `unknown` as above.
    pub grpc_method: &'static str,
    /// The status code's canonical name, e.g. `OK`, `INVALID_ARGUMENT`.
    pub grpc_code: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct MethodLabels {
    pub grpc_service: &'static str,
    pub grpc_method: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ErrorLabels {
    /// The status code's canonical name.
    pub grpc_code: &'static str,
    /// The `google.rpc.ErrorInfo` reason, e.g. `SOLVE_QUEUE_FULL`.
    pub reason: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CacheSizeLabels {
    /// `verdicts` (the verdict cache), `answers` (Solve and SolvePuzzle
    /// answers), `puzzles` and `pages` (GetPuzzle and ListPuzzles
    /// answers), `stored_answers` (for positions), `kept_records` and
    /// `kept_winners` (the store's, on SQLite).
    pub cache: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BuildLabels {
    version: &'static str,
    solver_version: &'static str,
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
#[derive(Clone, Debug, Default)]
pub struct LiveCounts {
    pub solves_running: usize,
    pub solves_waiting: usize,
    pub admission_waiting: usize,
    pub games_open: usize,
    pub connections_open: usize,
    /// The database pool: connections open, of them idle, and the most it
    /// opens.
    pub database_connections: (u64, u64, u64),
    /// Each cache's entries and bytes (approximate: the caches count in
    /// the background).
    pub caches: Vec<(&'static str, u64, u64)>,
    /// Canonical labellings past their budget since start-up
    /// (`canon::fallbacks`).
    pub canon_fallbacks: u64,
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
    errors: Family<ErrorLabels, Counter>,
    build_info: Family<BuildLabels, Gauge>,
    /// Puzzles whose canonical labelling passed its budget (the core
    /// counts them; the count is brought over at each scrape).
    canon_fallbacks: Counter,
    verdict_store_bytes: Gauge,
    verdict_store_limit_bytes: Gauge,
    database_connections_in_use: Gauge,
    database_connections_idle: Gauge,
    database_connections_max: Gauge,
    cache_entries: Family<CacheSizeLabels, Gauge>,
    cache_bytes: Family<CacheSizeLabels, Gauge>,
    /// `process_*`: no prefix, as every exporter names them.
    process: Registry,
    process_metrics: ProcessMetrics,
    solves_running: Gauge,
    solves_waiting: Gauge,
    admission_waiting: Gauge,
    games_open: Gauge,
    connections_open: Gauge,
}

/// Buckets ×2 apart, so that a quantile read from them is off by less than
/// a factor of two; their range covers the call times docs/performance.md
/// measures, from a cached answer to the largest solve (see "Metrics
/// buckets" there).
fn seconds_buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(1e-4, 2.0, 21)
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
        let errors = registered(
            &mut registry,
            "errors",
            "Calls that failed, by status code and ErrorInfo reason",
            Family::default(),
        );
        let canon_fallbacks = registered(
            &mut registry,
            "canon_fallbacks",
            "Puzzles whose canonical labelling passed --canon-budget-ms and got the label-keeping hash",
            Counter::default(),
        );
        let cache_entries = registered(
            &mut registry,
            "cache_entries",
            "Entries each cache holds",
            Family::default(),
        );
        let cache_bytes = registered(
            &mut registry,
            "cache_bytes",
            "Bytes each cache counts against its bound",
            Family::default(),
        );
        let build_info: Family<BuildLabels, Gauge> = registered(
            &mut registry,
            "build_info",
            "The running build: its version and solver version (always 1)",
            Family::default(),
        );
        let mut process = Registry::default();
        let process_metrics = ProcessMetrics::register(&mut process);
        let mut gauge =
            |name: &str, help: &str| registered(&mut registry, name, help, Gauge::default());
        let verdict_store_bytes = gauge(
            "verdict_store_bytes",
            "Bytes stored verdicts count against --verdict-store-bytes, as of this server's last verdict write",
        );
        let verdict_store_limit_bytes = gauge("verdict_store_limit_bytes", "--verdict-store-bytes");
        let database_connections_in_use = gauge(
            "database_connections_in_use",
            "Database connections taken by a call",
        );
        let database_connections_idle = gauge(
            "database_connections_idle",
            "Database connections open and idle",
        );
        let database_connections_max = gauge(
            "database_connections_max",
            "The most database connections the pool opens (--database-pool-size)",
        );
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
            errors,
            build_info,
            canon_fallbacks,
            verdict_store_bytes,
            verdict_store_limit_bytes,
            database_connections_in_use,
            database_connections_idle,
            database_connections_max,
            cache_entries,
            cache_bytes,
            process,
            process_metrics,
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
        let set = |gauge: &Gauge, value: u64| {
            gauge.set(i64::try_from(value).unwrap_or(i64::MAX));
        };
        set(&self.solves_running, live.solves_running as u64);
        set(&self.solves_waiting, live.solves_waiting as u64);
        set(&self.admission_waiting, live.admission_waiting as u64);
        set(&self.games_open, live.games_open as u64);
        set(&self.connections_open, live.connections_open as u64);
        let (open, idle, max) = live.database_connections;
        set(&self.database_connections_in_use, open.saturating_sub(idle));
        set(&self.database_connections_idle, idle);
        set(&self.database_connections_max, max);
        let fallbacks = live
            .canon_fallbacks
            .saturating_sub(self.canon_fallbacks.get());
        self.canon_fallbacks.inc_by(fallbacks);
        for (cache, entries, bytes) in live.caches {
            let labels = CacheSizeLabels { cache };
            set(&self.cache_entries.get_or_create(&labels), entries);
            set(&self.cache_bytes.get_or_create(&labels), bytes);
        }
        self.process_metrics.read();
        let mut text = String::new();
        use prometheus_client::encoding::text::{encode_eof, encode_registry};
        encode_registry(&mut text, &self.registry)
            .and_then(|()| encode_registry(&mut text, &self.process))
            .and_then(|()| encode_eof(&mut text))
            .expect("writing to a String cannot fail");
        text
    }

    /// Names the running build: this package's version and the solver
    /// version its verdicts are stored under.
    pub fn build_info(&self, solver_version: &'static str) {
        self.build_info
            .get_or_create(&BuildLabels {
                version: env!("CARGO_PKG_VERSION"),
                solver_version,
            })
            .set(1);
    }

    /// Counts a failed call by its code and reason.
    pub fn error(&self, grpc_code: &'static str, reason: &str) {
        self.errors
            .get_or_create(&ErrorLabels {
                grpc_code,
                reason: reason.to_owned(),
            })
            .inc();
    }

    /// The verdict store's bytes and its bound.
    pub fn verdict_store_bytes(&self, used: u64, limit: u64) {
        self.verdict_store_bytes
            .set(i64::try_from(used).unwrap_or(i64::MAX));
        self.verdict_store_limit_bytes
            .set(i64::try_from(limit).unwrap_or(i64::MAX));
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

/// The process's own CPU time, memory and file descriptors, read from
/// `/proc/self` at each scrape (Linux; elsewhere they stay 0), under the
/// names every Prometheus exporter gives them. Read by hand: a few lines of
/// /proc, where a process-metrics crate would bring a tree of its own.
struct ProcessMetrics {
    cpu_seconds: Counter<f64, std::sync::atomic::AtomicU64>,
    resident_bytes: Gauge,
    virtual_bytes: Gauge,
    open_fds: Gauge,
    max_fds: Gauge,
}

/// Clock ticks per second in /proc/PID/stat: USER_HZ, 100 on every Linux
/// architecture (the kernel converts to it for user space).
const USER_HZ: f64 = 100.0;

impl ProcessMetrics {
    fn register(registry: &mut Registry) -> ProcessMetrics {
        ProcessMetrics {
            cpu_seconds: registered(
                registry,
                "process_cpu_seconds",
                "User and system CPU time spent, in seconds",
                Counter::default(),
            ),
            resident_bytes: registered(
                registry,
                "process_resident_memory_bytes",
                "Resident memory size in bytes",
                Gauge::default(),
            ),
            virtual_bytes: registered(
                registry,
                "process_virtual_memory_bytes",
                "Virtual memory size in bytes",
                Gauge::default(),
            ),
            open_fds: registered(
                registry,
                "process_open_fds",
                "Open file descriptors",
                Gauge::default(),
            ),
            max_fds: registered(
                registry,
                "process_max_fds",
                "The most file descriptors the process may open (soft limit)",
                Gauge::default(),
            ),
        }
    }

    fn read(&self) {
        if let Ok(stat) = std::fs::read_to_string("/proc/self/stat") {
            // Fields after the command (which may hold spaces), from the
            // third: utime and stime are the 14th and 15th.
            let after_command = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let fields: Vec<&str> = after_command.split_whitespace().collect();
            let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
            if let (Some(user), Some(system)) = (ticks(11), ticks(12)) {
                let seconds = (user + system) as f64 / USER_HZ;
                let counted = self.cpu_seconds.get();
                if seconds > counted {
                    self.cpu_seconds.inc_by(seconds - counted);
                }
            }
        }
        if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
            let kib = |key: &str| {
                status
                    .lines()
                    .find_map(|line| line.strip_prefix(key))
                    .and_then(|rest| rest.split_whitespace().next())
                    .and_then(|n| n.parse::<i64>().ok())
            };
            if let Some(rss) = kib("VmRSS:") {
                self.resident_bytes.set(rss * 1024);
            }
            if let Some(size) = kib("VmSize:") {
                self.virtual_bytes.set(size * 1024);
            }
        }
        if let Ok(entries) = std::fs::read_dir("/proc/self/fd") {
            self.open_fds.set(entries.count() as i64);
        }
        if let Some(soft) = open_files_limit() {
            self.max_fds.set(i64::try_from(soft).unwrap_or(i64::MAX));
        }
    }
}

/// The soft limit on open files of this process, where the system says
/// (`/proc/self/limits`; `None` elsewhere, or when it reads "unlimited").
pub fn open_files_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    limits
        .lines()
        .find_map(|line| line.strip_prefix("Max open files"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
