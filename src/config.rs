//! One typed configuration for `puzzled serve`, from flags and environment
//! variables (a flag wins over its variable). Every setting has a default
//! that works with no flags at all.

use std::time::Duration;

/// Default listen address.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:50051";
/// Where clients (`puzzled client`, `puzzled healthcheck`) look for the
/// server by default: [`DEFAULT_LISTEN`], in cleartext.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";
/// Default store: a SQLite file in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://puzzled.db";
/// Default number of connections the store keeps to its database: a few,
/// since SQLite writes one at a time and readers in WAL mode do not wait
/// for the writer, and each PostgreSQL replica takes this many of the
/// database server's `max_connections`.
pub const DEFAULT_DATABASE_POOL_SIZE: u32 = 4;
/// Default time a call waits for a free database connection (sqlx's own).
pub const DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS: u64 = 30_000;
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

/// Default jobs one caller may have waiting for a solve worker: a quarter
/// of the queue, so that at least four callers always find room.
pub const DEFAULT_SOLVE_QUEUE_PER_CALLER: usize = 16;

/// Default worker-seconds a caller may have in hand under
/// `--work-secs-per-minute`: a minute of one worker, enough for the
/// longest single job at the default limits.
pub const DEFAULT_WORK_BURST_SECS: u32 = 60;
/// Default memory for cached verdicts.
pub const DEFAULT_CACHE_BYTES: u64 = 256 * 1024 * 1024;
/// Default disk budget for stored verdicts.
pub const DEFAULT_VERDICT_STORE_BYTES: u64 = 1 << 30;
/// Default bound on a search's states (docs/performance.md, "Geography by
/// search", has the time and memory it comes to).
pub const DEFAULT_SEARCH_BUDGET_STATES: u64 = 2_000_000;
/// Default time canonical labelling may take per puzzle.
pub const DEFAULT_CANON_BUDGET_MS: u64 = 10_000;
/// Default bound on draining in-flight requests at shutdown.
pub const DEFAULT_SHUTDOWN_GRACE_SECS: u64 = 30;
/// Default number of connections served at once.
pub const DEFAULT_MAX_CONNECTIONS: u64 = 1000;
/// Default number of streams (calls) open at once on one connection.
pub const DEFAULT_MAX_CONCURRENT_STREAMS: u32 = 100;
/// Default time a new connection has to send its first request.
pub const DEFAULT_HANDSHAKE_TIMEOUT_SECS: u64 = 10;
/// Default time a connection may stay open with no call on it.
pub const DEFAULT_IDLE_TIMEOUT_SECS: u64 = 300;
/// Default time a response may wait for the client to read it.
pub const DEFAULT_SEND_TIMEOUT_SECS: u64 = 30;
/// Default time a request's message has to arrive, before the allowance
/// for its size.
pub const DEFAULT_RECEIVE_TIMEOUT_SECS: u64 = 10;
/// Default least rate at which a request's message must keep arriving:
/// each byte received extends its time by one over this.
pub const DEFAULT_MIN_RECEIVE_BYTES_PER_SEC: u64 = 256 * 1024;
/// Default number of connections served at once from one IP address.
pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: u64 = 100;
/// Default interval between HTTP/2 keepalive pings.
pub const DEFAULT_KEEPALIVE_INTERVAL_SECS: u64 = 60;
/// Default time to wait for the answer to a keepalive ping.
pub const DEFAULT_KEEPALIVE_TIMEOUT_SECS: u64 = 20;

/// Default calls a rate-limited caller may make at once.
pub const DEFAULT_BURST: u32 = 10;

/// Default seconds a Play game may wait for the client's next message.
pub const DEFAULT_PLAY_IDLE_SECS: u64 = 300;
/// Default number of Play games open at once.
pub const DEFAULT_MAX_GAMES: usize = 256;

/// Settings of the gRPC service.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct Config {
    /// Address to listen on (host:port; port 0 picks a free port).
    #[arg(long, env = "PUZZLED_LISTEN", default_value = DEFAULT_LISTEN)]
    pub listen: String,
    /// Store URL: sqlite://PATH (created and migrated at start-up),
    /// sqlite::memory:, or postgres://[USER@]HOST[:PORT]/DATABASE (the
    /// database must exist; its tables are created).
    #[arg(long = "database", env = "PUZZLED_DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// Connections the store keeps open to its database (an in-memory
    /// database always has exactly one).
    #[arg(long, env = "PUZZLED_DATABASE_POOL_SIZE", default_value_t = DEFAULT_DATABASE_POOL_SIZE,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub database_pool_size: u32,
    /// Milliseconds a call waits for a free database connection; past it
    /// the call fails with UNAVAILABLE (reason STORE_BUSY), to be retried.
    #[arg(long, env = "PUZZLED_DATABASE_ACQUIRE_TIMEOUT_MS", default_value_t = DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub database_acquire_timeout_ms: u64,
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
    /// Of those, the jobs one caller (a writer, else an address) may have
    /// waiting; callers are served in turn.
    #[arg(long, env = "PUZZLED_SOLVE_QUEUE_PER_CALLER", default_value_t = DEFAULT_SOLVE_QUEUE_PER_CALLER)]
    pub solve_queue_per_caller: usize,
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
    /// Milliseconds canonical labelling (Traces) may take per puzzle; past
    /// it the puzzle gets the label-keeping hash (sorted-edges-v1): only
    /// relabelled copies of it miss the cache.
    #[arg(long, env = "PUZZLED_CANON_BUDGET_MS", default_value_t = DEFAULT_CANON_BUDGET_MS)]
    pub canon_budget_ms: u64,
    /// The most states a search may explore for one answer (directed vertex,
    /// undirected edge and directed edge Geography); past it the call is
    /// refused with RESOURCE_EXHAUSTED (SEARCH_BUDGET_EXCEEDED). The table a
    /// full budget holds counts against --admission-budget.
    #[arg(long, env = "PUZZLED_SEARCH_BUDGET_STATES", default_value_t = DEFAULT_SEARCH_BUDGET_STATES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub search_budget_states: u64,
    /// Seconds a Play game waits for the client's next message; past it the
    /// game is closed with DEADLINE_EXCEEDED and its memory freed.
    #[arg(long, env = "PUZZLED_PLAY_IDLE_SECS", default_value_t = DEFAULT_PLAY_IDLE_SECS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub play_idle_secs: u64,
    /// Vertices + edges that open Play games may hold at once, apart from
    /// --admission-budget so that open games cannot keep requests out; a
    /// game that does not fit is refused at once with RESOURCE_EXHAUSTED
    /// (GAMES_BUDGET_FULL). Default: a quarter of the admission budget.
    #[arg(long, env = "PUZZLED_GAMES_BUDGET")]
    pub games_budget: Option<u64>,
    /// Play games open at once; a new game past it is refused with
    /// RESOURCE_EXHAUSTED.
    #[arg(long, env = "PUZZLED_MAX_GAMES", default_value_t = DEFAULT_MAX_GAMES)]
    pub max_games: usize,
    /// Browser origins (scheme://host[:port]) allowed to call over gRPC-Web
    /// from another origin, repeated or comma-separated; `*` allows any.
    /// None (the default): same origin only.
    #[arg(
        long = "cors-origin",
        env = "PUZZLED_CORS_ORIGIN",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,
    /// Address (host:port) to serve Prometheus metrics on, at GET /metrics
    /// over HTTP/1.1; none (the default) serves no metrics.
    #[arg(long, env = "PUZZLED_METRICS_LISTEN")]
    pub metrics_listen: Option<String>,
    /// Token that DeletePuzzle requires as "authorization: Bearer TOKEN"; no token, no check.
    #[arg(long, env = "PUZZLED_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// The certificate chain (PEM, the server's first) to serve TLS with,
    /// on the gRPC port; with --tls-key. Read again on SIGHUP.
    #[arg(long, env = "PUZZLED_TLS_CERT")]
    pub tls_cert: Option<std::path::PathBuf>,
    /// The private key (PEM) of --tls-cert.
    #[arg(long, env = "PUZZLED_TLS_KEY")]
    pub tls_key: Option<std::path::PathBuf>,
    /// A file of writer tokens, one `NAME=TOKEN` a line (`#` comments);
    /// with writer tokens, CreatePuzzle needs "authorization: Bearer TOKEN"
    /// of a writer (or the admin token). Read again on SIGHUP.
    #[arg(long, env = "PUZZLED_WRITER_TOKENS_FILE")]
    pub writer_tokens_file: Option<std::path::PathBuf>,
    /// Writer tokens as `NAME=TOKEN,NAME=TOKEN`; set it in the environment,
    /// where other users cannot read it, rather than as a flag.
    #[arg(long, env = "PUZZLED_WRITER_TOKENS", hide_env_values = true)]
    pub writer_tokens: Option<String>,
    /// Creates a writer (or, without a token, an address) may make a
    /// minute; past it RESOURCE_EXHAUSTED (WRITE_RATE_EXCEEDED) with
    /// `retry-after`. 0: no limit.
    #[arg(long, env = "PUZZLED_WRITE_RATE_PER_MINUTE", default_value_t = 0)]
    pub write_rate_per_minute: u32,
    /// Creates a writer or an address may make at once, before the rate
    /// applies.
    #[arg(long, env = "PUZZLED_WRITE_BURST", default_value_t = DEFAULT_BURST)]
    pub write_burst: u32,
    /// Seconds of solve-worker and labelling time a writer or an address
    /// may spend a minute (solves, positions, games, generated candidates,
    /// labellings); past it RESOURCE_EXHAUSTED (WORK_BUDGET_EXCEEDED) with
    /// `retry-after`. 0: no budget.
    #[arg(long, env = "PUZZLED_WORK_SECS_PER_MINUTE", default_value_t = 0)]
    pub work_secs_per_minute: u32,
    /// Worker-seconds a writer or an address may have in hand.
    #[arg(long, env = "PUZZLED_WORK_BURST_SECS", default_value_t = DEFAULT_WORK_BURST_SECS)]
    pub work_burst_secs: u32,
    /// Seconds to let in-flight requests finish after SIGINT/SIGTERM.
    #[arg(long, env = "PUZZLED_SHUTDOWN_GRACE_SECS", default_value_t = DEFAULT_SHUTDOWN_GRACE_SECS)]
    pub shutdown_grace_secs: u64,
    /// Connections served at once; more wait in the listen backlog until one closes.
    #[arg(long, env = "PUZZLED_MAX_CONNECTIONS", default_value_t = DEFAULT_MAX_CONNECTIONS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: u64,
    /// Connections served at once from one IP address; more are closed as
    /// soon as they are accepted (0: no limit; behind a proxy every
    /// connection comes from its address).
    #[arg(long, env = "PUZZLED_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS)]
    pub max_connections_per_address: u64,
    /// Calls open at once on one connection (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS).
    #[arg(long, env = "PUZZLED_MAX_CONCURRENT_STREAMS", default_value_t = DEFAULT_MAX_CONCURRENT_STREAMS,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_concurrent_streams: u32,
    /// Seconds a new connection has to send its first request before it is
    /// closed (0: no limit).
    #[arg(long, env = "PUZZLED_HANDSHAKE_TIMEOUT_SECS", default_value_t = DEFAULT_HANDSHAKE_TIMEOUT_SECS)]
    pub handshake_timeout_secs: u64,
    /// Seconds a connection may stay open with no call on it before it is
    /// closed (0: no limit).
    #[arg(long, env = "PUZZLED_IDLE_TIMEOUT_SECS", default_value_t = DEFAULT_IDLE_TIMEOUT_SECS)]
    pub idle_timeout_secs: u64,
    /// Seconds a response may wait for the client to take its next piece
    /// (16 KiB) before its connection is closed (0: no limit).
    #[arg(long, env = "PUZZLED_SEND_TIMEOUT_SECS", default_value_t = DEFAULT_SEND_TIMEOUT_SECS)]
    pub send_timeout_secs: u64,
    /// Seconds a call's request has to arrive whole, plus one second for
    /// every --min-receive-bytes-per-sec bytes of it received; past that
    /// the call fails with DEADLINE_EXCEEDED (0: no limit). Each message
    /// of a client stream (ImportPuzzles) has as much, from the end of the
    /// one before; Play's are bounded by --play-idle-secs instead.
    #[arg(long, env = "PUZZLED_RECEIVE_TIMEOUT_SECS", default_value_t = DEFAULT_RECEIVE_TIMEOUT_SECS)]
    pub receive_timeout_secs: u64,
    /// The least rate, in bytes per second, at which a large request must
    /// keep arriving (see --receive-timeout-secs).
    #[arg(long, env = "PUZZLED_MIN_RECEIVE_BYTES_PER_SEC", default_value_t = DEFAULT_MIN_RECEIVE_BYTES_PER_SEC,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub min_receive_bytes_per_sec: u64,
    /// Seconds between HTTP/2 keepalive pings to each client (0: no pings).
    #[arg(long, env = "PUZZLED_KEEPALIVE_INTERVAL_SECS", default_value_t = DEFAULT_KEEPALIVE_INTERVAL_SECS)]
    pub keepalive_interval_secs: u64,
    /// Seconds to wait for a ping's answer before closing the connection.
    #[arg(long, env = "PUZZLED_KEEPALIVE_TIMEOUT_SECS", default_value_t = DEFAULT_KEEPALIVE_TIMEOUT_SECS)]
    pub keepalive_timeout_secs: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: DEFAULT_LISTEN.into(),
            database_url: DEFAULT_DATABASE_URL.into(),
            database_pool_size: DEFAULT_DATABASE_POOL_SIZE,
            database_acquire_timeout_ms: DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
            max_vertices: DEFAULT_MAX_VERTICES,
            max_edges: DEFAULT_MAX_EDGES,
            max_message_bytes: None,
            solve_workers: None,
            solve_queue: DEFAULT_SOLVE_QUEUE,
            solve_queue_per_caller: DEFAULT_SOLVE_QUEUE_PER_CALLER,
            admission_budget: None,
            admission_queue: DEFAULT_ADMISSION_QUEUE,
            cache_bytes: DEFAULT_CACHE_BYTES,
            verdict_store_bytes: DEFAULT_VERDICT_STORE_BYTES,
            canon_budget_ms: DEFAULT_CANON_BUDGET_MS,
            search_budget_states: DEFAULT_SEARCH_BUDGET_STATES,
            play_idle_secs: DEFAULT_PLAY_IDLE_SECS,
            games_budget: None,
            max_games: DEFAULT_MAX_GAMES,
            metrics_listen: None,
            cors_origins: Vec::new(),
            admin_token: None,
            tls_cert: None,
            tls_key: None,
            writer_tokens_file: None,
            writer_tokens: None,
            write_rate_per_minute: 0,
            write_burst: DEFAULT_BURST,
            work_secs_per_minute: 0,
            work_burst_secs: DEFAULT_WORK_BURST_SECS,
            shutdown_grace_secs: DEFAULT_SHUTDOWN_GRACE_SECS,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connections_per_address: DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            max_concurrent_streams: DEFAULT_MAX_CONCURRENT_STREAMS,
            receive_timeout_secs: DEFAULT_RECEIVE_TIMEOUT_SECS,
            min_receive_bytes_per_sec: DEFAULT_MIN_RECEIVE_BYTES_PER_SEC,
            handshake_timeout_secs: DEFAULT_HANDSHAKE_TIMEOUT_SECS,
            idle_timeout_secs: DEFAULT_IDLE_TIMEOUT_SECS,
            send_timeout_secs: DEFAULT_SEND_TIMEOUT_SECS,
            keepalive_interval_secs: DEFAULT_KEEPALIVE_INTERVAL_SECS,
            keepalive_timeout_secs: DEFAULT_KEEPALIVE_TIMEOUT_SECS,
        }
    }
}

/// `url` as it may be shown in a log line or an error: a password in its
/// user part, and a `password` or `sslpassword` parameter of its query,
/// read `***`. Everything else stays, so the message still says which
/// database it is about; a query with a password in it is written again in
/// the form encoding (`/` as `%2F`, a space as `+`), which names the same
/// parameters. A string that is no URL is shown as it is.
pub fn redacted_url(raw: &str) -> String {
    const HIDDEN: &str = "***";
    let Ok(mut url) = url::Url::parse(raw) else {
        return raw.to_owned();
    };
    if url.password().is_some() {
        // Only a URL that cannot have a password refuses one.
        let _ = url.set_password(Some(HIDDEN));
    }
    let secret =
        |key: &str| key.eq_ignore_ascii_case("password") || key.eq_ignore_ascii_case("sslpassword");
    if url.query_pairs().any(|(key, _)| secret(&key)) {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(key, value)| {
                let value = if secret(&key) { HIDDEN.into() } else { value };
                (key.into_owned(), value.into_owned())
            })
            .collect();
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    url.to_string()
}

impl Config {
    /// The store's URL as logs and errors show it (`redacted_url`).
    pub fn database_url_redacted(&self) -> String {
        redacted_url(&self.database_url)
    }

    /// The time a call waits for a free database connection.
    pub fn database_acquire_timeout(&self) -> Duration {
        Duration::from_millis(self.database_acquire_timeout_ms)
    }

    /// The time canonical labelling may take per puzzle.
    pub fn canon_budget(&self) -> Duration {
        Duration::from_millis(self.canon_budget_ms)
    }

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

    /// The bound on draining at shutdown.
    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_secs(self.shutdown_grace_secs)
    }

    /// How connections are limited and timed.
    pub fn connection_policy(&self) -> ConnectionPolicy {
        let secs = |s: u64| (s > 0).then(|| Duration::from_secs(s));
        ConnectionPolicy {
            max_connections: usize::try_from(self.max_connections).unwrap_or(usize::MAX),
            max_connections_per_address: (self.max_connections_per_address > 0)
                .then(|| usize::try_from(self.max_connections_per_address).unwrap_or(usize::MAX)),
            max_concurrent_streams: self.max_concurrent_streams,
            receive: secs(self.receive_timeout_secs).map(|base| ReceiveLimit {
                base,
                min_bytes_per_sec: self.min_receive_bytes_per_sec,
            }),
            handshake_timeout: secs(self.handshake_timeout_secs),
            idle_timeout: secs(self.idle_timeout_secs),
            send_timeout: secs(self.send_timeout_secs),
            keepalive_interval: secs(self.keepalive_interval_secs),
            keepalive_timeout: Duration::from_secs(self.keepalive_timeout_secs),
        }
    }
}

/// The limits and timeouts of connections, from [`Config`]; `None` turns a
/// timeout off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionPolicy {
    /// Connections served at once.
    pub max_connections: usize,
    /// Connections served at once from one IP address, if limited.
    pub max_connections_per_address: Option<usize>,
    /// How long a request may take to arrive, if limited.
    pub receive: Option<ReceiveLimit>,
    /// Streams open at once on one connection, as the server advertises it.
    pub max_concurrent_streams: u32,
    /// From accepting a connection to its first request.
    pub handshake_timeout: Option<Duration>,
    /// With no stream open, after the first request.
    pub idle_timeout: Option<Duration>,
    /// For a response to be given its next piece of window.
    pub send_timeout: Option<Duration>,
    /// Between keepalive pings.
    pub keepalive_interval: Option<Duration>,
    /// For a ping's answer.
    pub keepalive_timeout: Duration,
}

/// The time a request's message may take to arrive: `base`, plus a second
/// for every `min_bytes_per_sec` bytes received, so that a large upload at
/// that rate or faster always finishes and a trickle does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiveLimit {
    pub base: Duration,
    pub min_bytes_per_sec: u64,
}

impl ReceiveLimit {
    /// The time allowed once `received` bytes have arrived.
    pub fn allowance(&self, received: u64) -> Duration {
        self.base.saturating_add(Duration::from_secs_f64(
            received as f64 / self.min_bytes_per_sec as f64,
        ))
    }
}

#[cfg(test)]
mod tests {
    use clap::{Args as _, FromArgMatches as _};

    use super::*;

    /// `Config::default()` (what tests and embedders start from) and the
    /// defaults `puzzled serve` applies with no flags are written in two
    /// places; this keeps them one. The environment variables are taken off
    /// the parser, so the machine's environment cannot hide a difference.
    #[test]
    fn the_default_config_is_what_serve_runs_with_no_flags() {
        let command = Config::augment_args(clap::Command::new("puzzled"))
            .mut_args(|arg| arg.env(None::<&str>));
        let matches = command.get_matches_from(["puzzled"]);
        let from_flags = Config::from_arg_matches(&matches).unwrap();
        assert_eq!(from_flags, Config::default());
    }

    /// Clients find a server started with no flags.
    #[test]
    fn the_default_server_is_the_default_listen_address() {
        assert_eq!(DEFAULT_SERVER, format!("http://{DEFAULT_LISTEN}"));
    }

    #[test]
    fn a_redacted_url_keeps_everything_but_the_passwords() {
        let cases = [
            (
                "postgres://postgres:hunter2@db.example:5432/puzzled",
                "postgres://postgres:***@db.example:5432/puzzled",
            ),
            // A password may hold `@` and `:`; the host follows the last `@`.
            (
                "postgres://u:p@ss:w@rd@db/x?sslmode=require",
                "postgres://u:***@db/x?sslmode=require",
            ),
            (
                "postgres://db/x?user=u&password=hunter2&sslpassword=key2",
                "postgres://db/x?user=u&password=***&sslpassword=***",
            ),
            ("postgres://postgres@db/x", "postgres://postgres@db/x"),
            ("sqlite://puzzled.db", "sqlite://puzzled.db"),
            ("sqlite::memory:", "sqlite::memory:"),
            // A query with a password is written again form-encoded: the
            // same parameters, `/` as `%2F`.
            (
                "postgres://db/x?sslrootcert=/etc/ca.pem&password=p",
                "postgres://db/x?sslrootcert=%2Fetc%2Fca.pem&password=***",
            ),
        ];
        for (url, shown) in cases {
            assert_eq!(redacted_url(url), shown, "{url}");
        }
    }
}
