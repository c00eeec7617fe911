//! The store itself: opening SQLite or PostgreSQL (migrations applied),
//! the pool, write transactions, and checks that the database is still
//! the one it opened.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};
use sqlx::Connection as _;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyConnection, AnyPool};

use super::error::StoreError;
use super::kept::{Kept, StoreVersion};

/// The identity of the database file (device and inode), to notice it
/// being deleted or replaced under a running server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FileIdentity {
    device: u64,
    inode: u64,
}

impl FileIdentity {
    fn of(path: &Path) -> Option<FileIdentity> {
        use std::os::unix::fs::MetadataExt as _;
        let meta = std::fs::metadata(path).ok()?;
        Some(FileIdentity {
            device: meta.dev(),
            inode: meta.ino(),
        })
    }
}

/// The store, on SQLite or PostgreSQL.
#[derive(Debug, Clone)]
pub struct Store {
    pub(super) pool: AnyPool,
    pub(super) backend: Backend,
    /// This server's name in solve claims: unique per opened store.
    pub(super) claimant: Arc<str>,
    /// Bytes of verdict rows kept before the least recently used are
    /// evicted (verdicts of stored puzzles are never evicted).
    pub(super) verdict_bytes: u64,
    /// The time rows are ordered and expired by.
    pub(super) clock: Clock,
    /// Verdict uses not written yet (see [`Store::write_verdict_uses`]).
    pub(super) uses: Arc<PendingUses>,
    /// Small stored puzzles and cached winners read lately, and the
    /// store's version (SQLite only: no other server changes the file).
    pub(super) kept: Option<Kept>,
}

/// The latest use of each verdict read since the uses were last written,
/// by `(canonical_hash, options)`: a read records its use here instead of
/// writing it, so that reads never wait for the database's write lock.
#[derive(Debug, Default)]
pub(super) struct PendingUses(std::sync::Mutex<std::collections::HashMap<(String, String), i64>>);

impl PendingUses {
    pub(super) fn record(&self, canonical_hash: &str, options: &str, at_us: i64) {
        let mut uses = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        uses.insert((canonical_hash.to_owned(), options.to_owned()), at_us);
    }

    pub(super) fn take(&self) -> std::collections::HashMap<(String, String), i64> {
        std::mem::take(
            &mut *self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }
}

/// Where the store reads the time it orders and expires rows by (puzzles'
/// creation, verdicts' last use, claims' expiry): the system clock; in the
/// store's own tests, one the test moves, so that what they order does not
/// hang on the system clock ticking between two calls.
#[derive(Debug, Clone, Default)]
pub(super) struct Clock {
    /// Microseconds since the Unix epoch, while a test holds the clock.
    #[cfg(test)]
    held: Option<Arc<std::sync::atomic::AtomicI64>>,
}

impl Clock {
    /// Microseconds since the Unix epoch.
    pub(super) fn now_us(&self) -> i64 {
        #[cfg(test)]
        if let Some(held) = &self.held {
            return held.load(Ordering::SeqCst);
        }
        micros(SystemTime::now())
    }
}

#[cfg(test)]
impl Clock {
    /// A clock that stands at the system clock's time until moved;
    /// clones share it.
    pub(super) fn held() -> Clock {
        let now = micros(SystemTime::now());
        Clock {
            held: Some(Arc::new(std::sync::atomic::AtomicI64::new(now))),
        }
    }

    /// Moves a held clock on by `by`.
    pub(super) fn advance(&self, by: Duration) {
        let held = self.held.as_ref().expect("a held clock");
        held.fetch_add(by.as_micros() as i64, Ordering::SeqCst);
    }
}

/// Which database a store runs on, and what only that one needs.
#[derive(Debug, Clone)]
pub(super) enum Backend {
    /// The database file and its identity at start-up; `None` in memory.
    Sqlite {
        file: Option<(PathBuf, FileIdentity)>,
    },
    Postgres,
}

/// The store's connection pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    /// Connections kept to the database (an in-memory SQLite database
    /// lives as long as its one connection, so it always has exactly one).
    pub max_connections: u32,
    /// How long an operation waits for a free connection before it fails
    /// with [`StoreError::Busy`].
    pub acquire_timeout: Duration,
}

impl PoolSettings {
    /// See [`crate::config::DEFAULT_DATABASE_POOL_SIZE`].
    pub const DEFAULT_MAX_CONNECTIONS: u32 = crate::config::DEFAULT_DATABASE_POOL_SIZE;
    pub const DEFAULT_ACQUIRE_TIMEOUT_MS: u64 = crate::config::DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS;
}

impl Default for PoolSettings {
    fn default() -> Self {
        PoolSettings {
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
            acquire_timeout: Duration::from_millis(Self::DEFAULT_ACQUIRE_TIMEOUT_MS),
        }
    }
}

/// The default of [`Store::retain_verdict_bytes`].
pub const DEFAULT_VERDICT_BYTES: u64 = crate::config::DEFAULT_VERDICT_STORE_BYTES;

impl Store {
    /// Opens the database at `url` and applies its migrations, with the
    /// default pool: `sqlite://PATH` (creating the file if missing),
    /// `sqlite::memory:`, or `postgres://[USER@]HOST[:PORT]/DATABASE` (the
    /// database must exist; its tables are created).
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, PoolSettings::default()).await
    }

    /// [`Store::open`] with the pool of `pool`.
    pub async fn open_with(url: &str, pool: PoolSettings) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        // sqlx would take any other URL for a SQLite file name (`mysql://h/db`
        // becomes a file that cannot be opened): name the scheme.
        match url.split_once(':').map(|(scheme, _)| scheme) {
            Some("sqlite") => Store::open_sqlite(url, pool).await,
            Some("postgres" | "postgresql") => Store::open_postgres(url, pool).await,
            other => Err(StoreError::UnsupportedScheme {
                scheme: other.unwrap_or(url).to_owned(),
            }),
        }
    }

    async fn open_postgres(url: &str, settings: PoolSettings) -> Result<Store, StoreError> {
        let options = AnyConnectOptions::from_str(url)?;
        let opened = AnyPoolOptions::new()
            .max_connections(settings.max_connections)
            .acquire_timeout(settings.acquire_timeout)
            .connect_with(options.clone())
            .await;
        let pool = match opened {
            Ok(pool) => pool,
            Err(error) => {
                return Err(postgres_open_error(error, &options, settings.acquire_timeout).await);
            }
        };
        // Replicas starting together migrate one at a time: sqlx holds an
        // advisory lock on PostgreSQL while it migrates.
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        Ok(Store {
            pool,
            backend: Backend::Postgres,
            verdict_bytes: DEFAULT_VERDICT_BYTES,
            claimant: new_id().into(),
            clock: Clock::default(),
            uses: Arc::default(),
            kept: None,
        })
    }

    async fn open_sqlite(url: &str, settings: PoolSettings) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?;
        // The `Any` driver builds each connection from the URL alone, so
        // the pragmas that are not sqlx's defaults are set on every new
        // connection (WAL and the busy timeout are defaults already, but
        // said here too so that nothing depends on them).
        let pool_options = || {
            AnyPoolOptions::new()
                .acquire_timeout(settings.acquire_timeout)
                .after_connect(|conn, _| {
                    Box::pin(async move {
                        for pragma in [
                            "PRAGMA journal_mode = WAL",
                            "PRAGMA synchronous = NORMAL",
                            "PRAGMA busy_timeout = 5000",
                            "PRAGMA foreign_keys = ON",
                        ] {
                            sqlx::query(pragma).execute(&mut *conn).await?;
                        }
                        Ok(())
                    })
                })
        };
        // An in-memory database lives as long as its one connection: keep
        // exactly one, forever. A file is shared by a few connections.
        if url.contains(":memory:") || url.contains("mode=memory") {
            let pool = pool_options()
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(AnyConnectOptions::from_str(url)?)
                .await?;
            sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
            return Ok(Store {
                pool,
                backend: Backend::Sqlite { file: None },
                verdict_bytes: DEFAULT_VERDICT_BYTES,
                claimant: new_id().into(),
                clock: Clock::default(),
                uses: Arc::default(),
                kept: Some(Kept::new()),
            });
        }
        // Only the first connection may create the file: a connection
        // opened later, after the file was deleted, must fail rather than
        // start a new empty database beside the old one. The pool's
        // connections come from the URL, which sqlx opens without
        // `create_if_missing`.
        let path = options.get_filename().to_owned();
        {
            use sqlx::ConnectOptions as _;
            let creating = options.create_if_missing(true).connect().await?;
            creating.close().await?;
        }
        let identity = FileIdentity::of(&path).ok_or_else(|| StoreError::FileReplaced {
            path: path.display().to_string(),
        })?;
        let pool = pool_options()
            .max_connections(settings.max_connections)
            .connect_with(AnyConnectOptions::from_str(url)?)
            .await?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        Ok(Store {
            pool,
            backend: Backend::Sqlite {
                file: Some((path, identity)),
            },
            verdict_bytes: DEFAULT_VERDICT_BYTES,
            claimant: new_id().into(),
            clock: Clock::default(),
            uses: Arc::default(),
            kept: Some(Kept::new()),
        })
    }

    /// The entries and bytes of what the store keeps in memory (SQLite),
    /// for the metrics.
    pub async fn cache_sizes(&self) -> Vec<(&'static str, u64, u64)> {
        match &self.kept {
            Some(kept) => kept.sizes().await,
            None => Vec::new(),
        }
    }

    /// The pool's connections: open, of them idle, and the most it opens.
    pub fn connections(&self) -> (u64, u64, u64) {
        (
            u64::from(self.pool.size()),
            self.pool.num_idle() as u64,
            u64::from(self.pool.options().get_max_connections()),
        )
    }

    /// The store's version now, on SQLite: a caller that takes it before
    /// reading may keep what it read while the version stays the same.
    /// `None` on PostgreSQL, where other replicas write unseen.
    pub fn version(&self) -> Option<StoreVersion> {
        self.kept.as_ref().map(Kept::version)
    }

    /// Whether other servers may use this database at the same time
    /// (PostgreSQL), so that work worth doing once across them, such as a
    /// solve, is claimed first ([`Store::claim_solve`]). A SQLite file is
    /// one server's own.
    pub fn is_shared(&self) -> bool {
        matches!(self.backend, Backend::Postgres)
    }

    /// Fails with [`StoreError::FileReplaced`] once the database file is no
    /// longer the one opened at start-up (deleted, or another file in its
    /// place). Checked before and after every write, and by the health
    /// reporter.
    pub fn check_file(&self) -> Result<(), StoreError> {
        let Backend::Sqlite {
            file: Some((path, identity)),
        } = &self.backend
        else {
            return Ok(());
        };
        if FileIdentity::of(path) == Some(*identity) {
            Ok(())
        } else {
            Err(StoreError::FileReplaced {
                path: path.display().to_string(),
            })
        }
    }

    /// Whether the store can serve calls now. SQLite: the database file is
    /// still the one opened at start-up ([`Store::check_file`]; a busy
    /// file is still there). PostgreSQL: the server answers a query on a
    /// pooled connection (a dead one is replaced on the way).
    pub async fn check_reachable(&self) -> Result<(), StoreError> {
        match self.backend {
            Backend::Sqlite { .. } => self.check_file(),
            Backend::Postgres => {
                sqlx::query("SELECT 1").execute(&self.pool).await?;
                Ok(())
            }
        }
    }

    /// Runs `work` in a write transaction (SQLite: `BEGIN IMMEDIATE`) on a
    /// connection of its own, and commits it. A connection whose
    /// transaction failed is closed, not returned to the pool: after an
    /// I/O error its state is unknown (a rollback that failed too would
    /// leave it inside a transaction), and a fresh one recovers as soon as
    /// the fault clears. Nothing is acknowledged unless the database file
    /// is still the one the server will reopen.
    pub(super) async fn write<T>(
        &self,
        work: impl AsyncFnOnce(&mut AnyConnection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.check_file()?;
        let mut conn = self.pool.acquire().await?;
        let begin = match self.backend {
            Backend::Sqlite { .. } => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        };
        let outcome: Result<T, StoreError> = async {
            let mut tx = conn.begin_with(begin).await?;
            let value = work(&mut tx).await?;
            tx.commit().await?;
            Ok(value)
        }
        .await;
        if outcome.is_err() {
            // Closing may fail on the same fault; the pool forgets it anyway.
            let _ = conn.close().await;
        }
        let value = outcome?;
        self.check_file()?;
        Ok(value)
    }

    /// Keeps at most `bytes` of verdict rows (as counted by `size_bytes`):
    /// past that, storing a verdict evicts the least recently used ones.
    pub fn retain_verdict_bytes(mut self, bytes: u64) -> Store {
        self.verdict_bytes = bytes;
        self
    }

    /// This store reading the time from `clock`.
    #[cfg(test)]
    pub(super) fn with_clock(mut self, clock: Clock) -> Store {
        self.clock = clock;
        self
    }

    /// Writes the verdict uses recorded since the last time, in one
    /// transaction. A use only orders eviction, so uses that cannot be
    /// written (a busy or failing disk) are dropped, not retried.
    pub async fn write_verdict_uses(&self) {
        let uses = self.uses.take();
        if uses.is_empty() {
            return;
        }
        let _timer = crate::metrics::metrics().store_query("write_verdict_uses");
        let written = self
            .write(async |conn| {
                // The usage row first, as every verdict writer takes it
                // (see put_verdict).
                sqlx::query("UPDATE verdict_usage SET total_bytes = total_bytes WHERE id = 1")
                    .execute(&mut *conn)
                    .await?;
                write_uses(conn, &uses).await
            })
            .await;
        if let Err(e) = written {
            tracing::debug!(error = %e, uses = uses.len(), "could not record verdicts' uses");
        }
    }

    /// Writes the verdict uses every `interval`, for ever: a verdict read
    /// many times in an interval costs one write.
    pub async fn write_verdict_uses_every(self, interval: Duration) {
        loop {
            tokio::time::sleep(interval).await;
            self.write_verdict_uses().await;
        }
    }

    /// Writes the pending verdict uses, waits for open connections to
    /// finish and closes them (checkpointing the WAL).
    pub async fn close(&self) {
        self.write_verdict_uses().await;
        self.pool.close().await;
    }
}

/// Sets each verdict's last use to the one in `uses`, unless a later one
/// is written already.
pub(super) async fn write_uses(
    conn: &mut AnyConnection,
    uses: &std::collections::HashMap<(String, String), i64>,
) -> Result<(), StoreError> {
    for ((canonical_hash, options), at_us) in uses {
        sqlx::query(
            "UPDATE verdicts SET last_used_us = $1 \
             WHERE canonical_hash = $2 AND options = $3 AND last_used_us < $1",
        )
        .bind(at_us)
        .bind(canonical_hash)
        .bind(options)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// `$first, $first+1, …`: `count` numbered parameters, for an `IN (…)`
/// list bound one value each (both backends number them this way).
pub(super) fn numbered_parameters(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn micros(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as i64)
        .unwrap_or(0)
}

pub(super) fn from_micros(us: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_micros(us.max(0) as u64)
}

/// A fresh opaque id: 80 bits from the clock, a process-wide counter and the
/// process's randomly seeded hasher state, hashed.
pub(super) fn new_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    static SEED: std::sync::OnceLock<std::collections::hash_map::RandomState> =
        std::sync::OnceLock::new();
    let mut hasher = SEED
        .get_or_init(std::collections::hash_map::RandomState::new)
        .build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_i64(micros(SystemTime::now()));
    hasher.write_u32(std::process::id());
    let mut h = Sha256::new();
    h.update(hasher.finish().to_le_bytes());
    h.update(micros(SystemTime::now()).to_le_bytes());
    hex::encode(&h.finalize()[..10])
}

/// Why PostgreSQL could not be opened, in terms of what to do: a missing
/// database, a refused role, a server out of reach (the pool only says it
/// timed out; one more attempt of its own tells why).
async fn postgres_open_error(
    error: sqlx::Error,
    options: &AnyConnectOptions,
    waited: Duration,
) -> StoreError {
    use sqlx::ConnectOptions as _;
    let error = match error {
        sqlx::Error::PoolTimedOut => match options.connect().await {
            Ok(_) => sqlx::Error::PoolTimedOut,
            Err(error @ (sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::Protocol(_))) => {
                return StoreError::Unreachable {
                    seconds: waited.as_secs(),
                    message: error.to_string(),
                };
            }
            Err(other) => other,
        },
        other => other,
    };
    if let sqlx::Error::Database(database) = &error
        && let Some(postgres) = database.try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
    {
        match postgres.code() {
            // invalid_catalog_name
            "3D000" => {
                return StoreError::NoSuchDatabase {
                    database: options
                        .database_url
                        .path()
                        .trim_start_matches('/')
                        .to_owned(),
                };
            }
            // invalid_authorization_specification, invalid_password
            "28000" | "28P01" => {
                return StoreError::Refused {
                    message: postgres.message().to_owned(),
                };
            }
            _ => {}
        }
    }
    error.into()
}
