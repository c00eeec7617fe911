//! One typed configuration for `puzzled serve`, from flags and environment
//! variables (a flag wins over its variable). Every setting has a default
//! that works with no flags at all.

use std::time::Duration;

/// Default listen address.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:50051";
/// Default store: a SQLite file in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://puzzled.db";
/// Default limit on vertices per puzzle.
pub const DEFAULT_MAX_VERTICES: u64 = 10_000_000;
/// Default limit on edges per puzzle.
pub const DEFAULT_MAX_EDGES: u64 = 20_000_000;
/// Room in a message beyond its edge list: names, titles, the other fields.
pub const MESSAGE_SLACK_BYTES: usize = 64 * 1024;
/// Default number of requests waiting for the admission budget.
pub const DEFAULT_ADMISSION_QUEUE: usize = 256;
/// Default number of solves waiting for a worker before new ones are refused.
pub const DEFAULT_SOLVE_QUEUE: usize = 64;
/// Default memory for cached verdicts.
pub const DEFAULT_CACHE_BYTES: u64 = 256 * 1024 * 1024;
/// Default disk budget for stored verdicts.
pub const DEFAULT_VERDICT_STORE_BYTES: u64 = crate::store::DEFAULT_VERDICT_BYTES;
/// Default bound on draining in-flight requests at shutdown.
pub const DEFAULT_SHUTDOWN_GRACE_SECS: u64 = 30;

/// Settings of the gRPC service.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct Config {
    /// Address to listen on (host:port; port 0 picks a free port).
    #[arg(long, env = "PUZZLED_LISTEN", default_value = DEFAULT_LISTEN)]
    pub listen: String,
    /// Store URL, e.g. sqlite://puzzled.db (created and migrated at start-up).
    #[arg(long = "database", env = "PUZZLED_DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// Most vertices a puzzle may have.
    #[arg(long, env = "PUZZLED_MAX_VERTICES", default_value_t = DEFAULT_MAX_VERTICES)]
    pub max_vertices: u64,
    /// Most edges a puzzle may have.
    #[arg(long, env = "PUZZLED_MAX_EDGES", default_value_t = DEFAULT_MAX_EDGES)]
    pub max_edges: u64,
    /// Largest gRPC message accepted or sent, in bytes (default: what a
    /// puzzle of --max-edges needs).
    #[arg(long, env = "PUZZLED_MAX_MESSAGE_BYTES")]
    pub max_message_bytes: Option<usize>,
    /// Solves that run at once (default: the number of cores).
    #[arg(long, env = "PUZZLED_SOLVE_WORKERS")]
    pub solve_workers: Option<usize>,
    /// Solves that may wait for a worker; more are refused with RESOURCE_EXHAUSTED.
    #[arg(long, env = "PUZZLED_SOLVE_QUEUE", default_value_t = DEFAULT_SOLVE_QUEUE)]
    pub solve_queue: usize,
    /// Vertices + edges that requests may hold at once (validation, hashing,
    /// solving); default: half the memory over the peak bytes per unit.
    #[arg(long, env = "PUZZLED_ADMISSION_BUDGET")]
    pub admission_budget: Option<u64>,
    /// Requests that may wait for the admission budget; more are refused
    /// with RESOURCE_EXHAUSTED.
    #[arg(long, env = "PUZZLED_ADMISSION_QUEUE", default_value_t = DEFAULT_ADMISSION_QUEUE)]
    pub admission_queue: usize,
    /// Memory for cached verdicts, in bytes (approximate).
    #[arg(long, env = "PUZZLED_CACHE_BYTES", default_value_t = DEFAULT_CACHE_BYTES)]
    pub cache_bytes: u64,
    /// Bytes of stored verdicts kept in the database; past it the least
    /// recently used verdicts of puzzles nobody stored are evicted.
    #[arg(long, env = "PUZZLED_VERDICT_STORE_BYTES", default_value_t = DEFAULT_VERDICT_STORE_BYTES)]
    pub verdict_store_bytes: u64,
    /// Token that DeletePuzzle requires as "authorization: Bearer TOKEN"; no token, no check.
    #[arg(long, env = "PUZZLED_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Seconds to let in-flight requests finish after SIGINT/SIGTERM.
    #[arg(long, env = "PUZZLED_SHUTDOWN_GRACE_SECS", default_value_t = DEFAULT_SHUTDOWN_GRACE_SECS)]
    pub shutdown_grace_secs: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: DEFAULT_LISTEN.into(),
            database_url: DEFAULT_DATABASE_URL.into(),
            max_vertices: DEFAULT_MAX_VERTICES,
            max_edges: DEFAULT_MAX_EDGES,
            max_message_bytes: None,
            solve_workers: None,
            solve_queue: DEFAULT_SOLVE_QUEUE,
            admission_budget: None,
            admission_queue: DEFAULT_ADMISSION_QUEUE,
            cache_bytes: DEFAULT_CACHE_BYTES,
            verdict_store_bytes: DEFAULT_VERDICT_STORE_BYTES,
            admin_token: None,
            shutdown_grace_secs: DEFAULT_SHUTDOWN_GRACE_SECS,
        }
    }
}

impl Config {
    /// Solves that run at once.
    pub fn workers(&self) -> usize {
        self.solve_workers
            .filter(|&w| w > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
    }

    /// The largest message accepted or sent: as configured, else enough for
    /// a puzzle of `max_edges` edges (two `uint32` words per edge, at most
    /// five bytes each once encoded) and its other fields.
    pub fn message_limit(&self) -> usize {
        self.max_message_bytes.unwrap_or_else(|| {
            usize::try_from(self.max_edges.saturating_mul(10))
                .unwrap_or(usize::MAX)
                .saturating_add(MESSAGE_SLACK_BYTES)
        })
    }

    /// The admission budget in vertices + edges: as configured, else a
    /// share of this machine's memory.
    pub fn admission_budget(&self) -> u64 {
        self.admission_budget
            .unwrap_or_else(crate::service::admission::default_budget)
    }

    /// The bound on draining at shutdown.
    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_secs(self.shutdown_grace_secs)
    }
}
