//! The sqlx repository: puzzles and verdicts in SQLite or PostgreSQL. The
//! only module that writes SQL; it knows nothing of proto types.
//!
//! One store, two backends chosen by the URL's scheme: the same queries run
//! on both through sqlx's `Any` driver (numbered `$1` parameters, which
//! both understand), and each backend has its own migrations
//! (`migrations/sqlite`, `migrations/postgres`) leaving the same tables.
//!
//! SQLite durability: WAL journal with `synchronous = NORMAL`, which keeps
//! every committed transaction across a process crash (`kill -9`); a power
//! loss may lose the last transactions but never corrupts the file. Writes
//! take the write lock up front (`BEGIN IMMEDIATE`) so concurrent writers
//! wait on the busy timeout instead of failing.
//!
//! PostgreSQL: writes run at `READ COMMITTED`, each in one transaction; the
//! one race that needs more, two replicas creating with the same
//! `request_id`, ends in a unique violation for the second, which then
//! reads the first one's row (see [`Store::create_puzzle`]).

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};
use sqlx::Connection as _;
use sqlx::Row;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::postgres::PgDatabaseError;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyConnection, AnyPool};

use crate::graph::Vertex;
use crate::puzzle::{
    Evidence, Game, Limits, Move, RawSpec, Spec, SpecError, Verdict, WinningMoves,
};
use crate::solver::Player;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no puzzle with id {0}")]
    NotFound(String),
    #[error("request_id {0:?} was already used for a different puzzle")]
    RequestIdReused(String),
    #[error("stored data is unreadable: {0}")]
    Corrupt(String),
    /// Contention: another writer (or an outside lock) held the database
    /// past the busy timeout, or no connection was free in time. Retrying
    /// later can succeed.
    #[error("the database is busy: {0}")]
    Busy(#[source] sqlx::Error),
    /// The database file could not be read or written (I/O error, disk
    /// full, read-only, cannot open). Retrying once the fault clears can
    /// succeed.
    #[error("the database cannot be read or written: {0}")]
    Io(#[source] sqlx::Error),
    /// The database file was deleted or replaced while the server ran:
    /// writes are refused, since the server would reopen another file.
    #[error("the database file {path} was removed or replaced while the server ran")]
    FileReplaced { path: String },
    #[error("database error: {0}")]
    Database(#[source] sqlx::Error),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A database URL whose scheme this build cannot open.
    #[error(
        "unsupported database URL scheme `{scheme}`: the supported ones are \
         sqlite://PATH, sqlite::memory: and postgres://[USER@]HOST[:PORT]/DATABASE"
    )]
    UnsupportedScheme { scheme: String },
}

/// How a database error counts for a client.
enum Fault {
    /// Contention: retrying later can succeed.
    Busy,
    /// The database cannot be reached, read or written: retrying once the
    /// fault clears can succeed.
    Io,
    /// A bug or damage.
    Other,
}

impl From<sqlx::Error> for StoreError {
    /// Sorts a database error into a fault a client may retry (contention,
    /// I/O, a database server gone) and everything else, which is a bug or
    /// damage.
    fn from(error: sqlx::Error) -> Self {
        let fault = match &error {
            sqlx::Error::PoolTimedOut => Fault::Busy,
            // A connection refused or cut, or the pool closed under it.
            sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::PoolClosed => Fault::Io,
            sqlx::Error::Database(database) => {
                match database.try_downcast_ref::<PgDatabaseError>() {
                    Some(postgres) => postgres_fault(postgres.code()),
                    None => sqlite_fault(database.code().as_deref()),
                }
            }
            _ => Fault::Other,
        };
        match fault {
            Fault::Busy => StoreError::Busy(error),
            Fault::Io => StoreError::Io(error),
            Fault::Other => StoreError::Database(error),
        }
    }
}

/// A SQLite error by its primary result code (the low byte of its
/// extended code).
fn sqlite_fault(code: Option<&str>) -> Fault {
    const BUSY: i64 = 5;
    const LOCKED: i64 = 6;
    const READONLY: i64 = 8;
    const IOERR: i64 = 10;
    const FULL: i64 = 13;
    const CANTOPEN: i64 = 14;
    match code
        .and_then(|code| code.parse::<i64>().ok())
        .map(|code| code & 0xff)
    {
        Some(BUSY | LOCKED) => Fault::Busy,
        Some(READONLY | IOERR | FULL | CANTOPEN) => Fault::Io,
        _ => Fault::Other,
    }
}

/// A PostgreSQL error by its SQLSTATE (Appendix A of its manual).
fn postgres_fault(sqlstate: &str) -> Fault {
    match sqlstate {
        // serialization_failure, deadlock_detected, lock_not_available,
        // too_many_connections.
        "40001" | "40P01" | "55P03" | "53300" => Fault::Busy,
        // Class 08 connection exceptions; the server shutting down or
        // starting (admin_shutdown, crash_shutdown, cannot_connect_now);
        // disk_full, out_of_memory, io_error, read_only_sql_transaction.
        code if code.starts_with("08") => Fault::Io,
        "57P01" | "57P02" | "57P03" | "53100" | "53200" | "58030" | "25006" => Fault::Io,
        _ => Fault::Other,
    }
}

/// Whether `error` is a unique constraint refusing a row.
fn is_unique_violation(error: &StoreError) -> bool {
    match error {
        StoreError::Database(sqlx::Error::Database(database)) => database.is_unique_violation(),
        _ => false,
    }
}

impl StoreError {
    /// Whether the operation may succeed if retried later.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            StoreError::Busy(_) | StoreError::Io(_) | StoreError::FileReplaced { .. }
        )
    }
}

/// The identity of the database file (device and inode), to notice it
/// being deleted or replaced under a running server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileIdentity {
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

/// A puzzle to insert.
#[derive(Debug, Clone)]
pub struct NewPuzzle<'a> {
    pub game: Game,
    pub vertex_count: u64,
    pub edges: &'a [u32],
    pub start: u32,
    pub black: Option<u32>,
    pub white: Option<u32>,
    pub title: &'a str,
    pub author: &'a str,
    pub canonical_hash: &'a str,
    /// Each vertex's canonical label, when the hash does not keep labels.
    pub canonical_labels: Option<&'a [u32]>,
    pub request_id: Option<&'a str>,
}

/// A stored puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleRecord {
    pub seq: i64,
    pub id: String,
    /// The puzzle as it was submitted (labels and edge order kept).
    pub spec: RawSpec,
    pub canonical_hash: String,
    pub create_time: SystemTime,
    /// The id of the oldest other puzzle with the same canonical hash, when
    /// that one is older than this one.
    pub duplicate_of: Option<String>,
    /// The number of edges, also when `spec.edges` was not read.
    pub edge_count: u64,
    /// Each vertex's canonical label (read with the edges only); `None`
    /// when the hash keeps the submitted labels.
    pub canonical_labels: Option<Vec<u32>>,
}

impl PuzzleRecord {
    /// The stored spec, validated again (without size limits: it passed
    /// the limits in force when it was stored).
    pub fn validated_spec(&self) -> Result<Spec, SpecError> {
        Spec::validate(self.spec.clone(), Limits::NONE)
    }
}

/// Which stored verdict a lookup wants: the key, and what the row must
/// match besides it to be served.
#[derive(Debug, Clone, Copy)]
pub struct VerdictKey<'a> {
    pub canonical_hash: &'a str,
    /// Which extras were computed ("", "all_starts", …).
    pub options: &'a str,
    /// The canonical graph's shape.
    pub vertex_count: u64,
    pub edge_count: u64,
    /// The solver that must have computed it.
    pub solver_version: &'a str,
}

/// Whether a verdict was kept by [`Store::put_verdict`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retained {
    Stored,
    /// The row alone is larger than the whole retention budget.
    TooLarge,
}

/// Which puzzles a listing shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListFilter<'a> {
    pub game: Option<Game>,
    /// Every stored copy of one puzzle.
    pub canonical_hash: Option<&'a str>,
}

/// A page of puzzles, newest first, without their edge lists
/// (`spec.edges` empty, `edge_count` set).
#[derive(Debug, Clone)]
pub struct Page {
    pub puzzles: Vec<PuzzleRecord>,
    /// The `seq` to continue below, when there are more.
    pub next_before: Option<i64>,
}

/// The store, on SQLite or PostgreSQL.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// This server's name in solve claims: unique per opened store.
    claimant: Arc<str>,
    /// Bytes of verdict rows kept before the least recently used are
    /// evicted (verdicts of stored puzzles are never evicted).
    verdict_bytes: u64,
}

/// Which database a store runs on, and what only that one needs.
#[derive(Debug, Clone)]
enum Backend {
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

/// Every column of a puzzle but its edge list. `length()` of a blob column
/// reads the blob's size from the record header, not the blob itself
/// (PostgreSQL: from the value's header, without decompressing it).
const SUMMARY_COLUMNS: &str = "p.seq, p.id, p.game, p.vertex_count, p.start_vertex, \
     p.black, p.white, p.title, p.author, p.canonical_hash, p.create_time_us, \
     CAST(length(p.edges) / 8 AS BIGINT) AS edge_count, \
     (SELECT d.id FROM puzzles d WHERE d.canonical_hash = p.canonical_hash AND d.seq < p.seq \
      ORDER BY d.seq LIMIT 1) AS duplicate_of";

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
        let pool = AnyPoolOptions::new()
            .max_connections(settings.max_connections)
            .acquire_timeout(settings.acquire_timeout)
            .connect_with(options)
            .await?;
        // Replicas starting together migrate one at a time: sqlx holds an
        // advisory lock on PostgreSQL while it migrates.
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        Ok(Store {
            pool,
            backend: Backend::Postgres,
            verdict_bytes: DEFAULT_VERDICT_BYTES,
            claimant: new_id().into(),
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
        })
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
    async fn write<T>(
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

    /// Waits for open connections to finish and closes them (checkpointing
    /// the WAL).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Inserts a puzzle. With a `request_id` already used for the same
    /// payload, returns the puzzle stored the first time; with one used for
    /// a different payload, fails with [`StoreError::RequestIdReused`].
    pub async fn create_puzzle(&self, new: NewPuzzle<'_>) -> Result<PuzzleRecord, StoreError> {
        let _timer = crate::metrics::metrics().store_query("create_puzzle");
        let fingerprint = fingerprint(&new);
        let attempt = || {
            self.write(async |conn| {
                if let Some(request_id) = new.request_id {
                    let existing =
                        sqlx::query("SELECT id, request_fingerprint FROM puzzles WHERE request_id = $1")
                            .bind(request_id)
                            .fetch_optional(&mut *conn)
                            .await?;
                    if let Some(row) = existing {
                        let id: String = row.try_get("id")?;
                        let stored: Option<String> = row.try_get("request_fingerprint")?;
                        if stored.as_deref() != Some(fingerprint.as_str()) {
                            return Err(StoreError::RequestIdReused(request_id.to_owned()));
                        }
                        return read_puzzle(conn, &id).await;
                    }
                }
                let id = new_id();
                sqlx::query(
                    "INSERT INTO puzzles (id, game, vertex_count, edges, start_vertex, black, white, \
                     title, author, canonical_hash, canonical_labels, create_time_us, request_id, \
                     request_fingerprint) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
                )
                .bind(&id)
                .bind(new.game.as_str())
                .bind(new.vertex_count as i64)
                .bind(encode_words(new.edges))
                .bind(i64::from(new.start))
                .bind(new.black.map(i64::from))
                .bind(new.white.map(i64::from))
                .bind(new.title)
                .bind(new.author)
                .bind(new.canonical_hash)
                .bind(new.canonical_labels.map(encode_words))
                .bind(micros(SystemTime::now()))
                .bind(new.request_id)
                .bind(new.request_id.map(|_| &fingerprint))
                .execute(&mut *conn)
                .await?;
                // Read inside the transaction: a delete committed right after
                // cannot turn this create into NOT_FOUND.
                read_puzzle(conn, &id).await
            })
        };
        match attempt().await {
            // Another replica committed the same request_id between the
            // look-up and the insert (PostgreSQL; SQLite's write lock rules
            // it out): its row answers this request, as on a retry.
            Err(error) if new.request_id.is_some() && is_unique_violation(&error) => {
                attempt().await
            }
            outcome => outcome,
        }
    }

    /// The puzzle with `id`, edges included.
    pub async fn get_puzzle(&self, id: &str) -> Result<PuzzleRecord, StoreError> {
        let _timer = crate::metrics::metrics().store_query("get_puzzle");
        let mut conn = self.pool.acquire().await?;
        read_puzzle(&mut conn, id).await
    }

    /// The puzzle with `id` without its edge list (`spec.edges` empty).
    pub async fn get_puzzle_summary(&self, id: &str) -> Result<PuzzleRecord, StoreError> {
        let _timer = crate::metrics::metrics().store_query("get_puzzle_summary");
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS} FROM puzzles p WHERE p.id = $1"
        ));
        let row = sqlx::query(sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| StoreError::NotFound(id.to_owned()))?;
        puzzle_from_row(&row)
    }

    /// Up to `limit` ids of puzzles hashed by an older canonicaliser and not
    /// yet rehashed, oldest first.
    pub async fn puzzles_to_rehash(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM puzzles WHERE rehash_pending = 1 ORDER BY seq LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?)
    }

    /// Gives the puzzle `id` its new canonical hash and labels, if its hash
    /// is still `old_hash` (a puzzle deleted meanwhile is left alone), and
    /// marks it rehashed.
    pub async fn set_canonical_hash(
        &self,
        id: &str,
        old_hash: &str,
        new_hash: &str,
        canonical_labels: Option<&[u32]>,
    ) -> Result<(), StoreError> {
        let (id, old_hash, new_hash) = (id.to_owned(), old_hash.to_owned(), new_hash.to_owned());
        let labels = canonical_labels.map(encode_words);
        self.write(async |conn| {
            sqlx::query(
                "UPDATE puzzles SET canonical_hash = $1, canonical_labels = $2, rehash_pending = 0 \
                 WHERE id = $3 AND canonical_hash = $4",
            )
            .bind(&new_hash)
            .bind(&labels)
            .bind(&id)
            .bind(&old_hash)
            .execute(&mut *conn)
            .await?;
            Ok(())
        })
        .await
    }

    /// Up to `limit` puzzles with `seq < before` (all when `None`), newest
    /// first, optionally of one game and of one canonical hash. Walks an
    /// index: the primary key, `puzzles_by_game`, or
    /// `puzzles_by_canonical_hash` when filtered by hash.
    pub async fn list_puzzles(
        &self,
        filter: ListFilter<'_>,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Page, StoreError> {
        let _timer = crate::metrics::metrics().store_query("list_puzzles");
        let before = before.unwrap_or(i64::MAX);
        let fetch = i64::from(limit) + 1;
        let sql = sqlx::AssertSqlSafe(list_sql(
            filter.game.is_some(),
            filter.canonical_hash.is_some(),
        ));
        let mut query = sqlx::query(sql);
        if let Some(game) = filter.game {
            query = query.bind(game.as_str());
        }
        if let Some(hash) = filter.canonical_hash {
            query = query.bind(hash);
        }
        let rows = query.bind(before).bind(fetch).fetch_all(&self.pool).await?;
        let mut puzzles = rows
            .iter()
            .map(puzzle_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let next_before = if puzzles.len() > limit as usize {
            puzzles.truncate(limit as usize);
            puzzles.last().map(|p| p.seq)
        } else {
            None
        };
        Ok(Page {
            puzzles,
            next_before,
        })
    }

    /// Deletes the puzzle with `id`.
    pub async fn delete_puzzle(&self, id: &str) -> Result<(), StoreError> {
        let _timer = crate::metrics::metrics().store_query("delete_puzzle");
        self.write(async |conn| {
            let done = sqlx::query("DELETE FROM puzzles WHERE id = $1")
                .bind(id)
                .execute(&mut *conn)
                .await?;
            if done.rows_affected() == 0 {
                return Err(StoreError::NotFound(id.to_owned()));
            }
            Ok(())
        })
        .await
    }

    /// The verdict stored under `key`, when its shape and solver version
    /// match; a hit counts as a use for eviction. A row for another solver
    /// version is a miss (the fresh verdict replaces it); one of another
    /// shape is a miss and is logged (a corrupted or hand-edited row).
    pub async fn get_verdict(&self, key: VerdictKey<'_>) -> Result<Option<Verdict>, StoreError> {
        let _timer = crate::metrics::metrics().store_query("get_verdict");
        let row = sqlx::query(
            "SELECT vertex_count, edge_count, winner, evidence, winning_moves, solver_version, \
             solve_time_us, solve_duration_us FROM verdicts \
             WHERE canonical_hash = $1 AND options = $2",
        )
        .bind(key.canonical_hash)
        .bind(key.options)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let shape: (i64, i64) = (row.try_get("vertex_count")?, row.try_get("edge_count")?);
        if shape != (key.vertex_count as i64, key.edge_count as i64) {
            tracing::warn!(
                hash = key.canonical_hash,
                stored = ?shape,
                wanted = ?(key.vertex_count, key.edge_count),
                "a stored verdict has another shape than its hash's graph; solving again"
            );
            return Ok(None);
        }
        let solver_version: String = row.try_get("solver_version")?;
        if solver_version != key.solver_version {
            return Ok(None);
        }
        let winner: String = row.try_get("winner")?;
        let winner = player_from_column(&winner)?;
        let evidence: String = row.try_get("evidence")?;
        let evidence: Evidence = serde_json::from_str(&evidence)
            .map_err(|e| StoreError::Corrupt(format!("evidence: {e}")))?;
        let winning_moves: Option<String> = row.try_get("winning_moves")?;
        let winning_moves: Option<WinningMoves> = winning_moves
            .map(|w| serde_json::from_str::<StoredWinningMoves>(&w))
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("winning_moves: {e}")))?
            .map(|w| w.into_moves(&evidence));
        // The use only orders eviction: a hit is served even when the
        // write fails (a busy or failing disk).
        let used = sqlx::query(
            "UPDATE verdicts SET last_used_us = $1 WHERE canonical_hash = $2 AND options = $3",
        )
        .bind(micros(SystemTime::now()))
        .bind(key.canonical_hash)
        .bind(key.options)
        .execute(&self.pool)
        .await;
        if let Err(e) = used {
            tracing::debug!(error = %e, "could not record a verdict's use");
        }
        Ok(Some(Verdict {
            winner,
            evidence,
            winning_moves,
            solver_version,
            solve_time: from_micros(row.try_get("solve_time_us")?),
            solve_duration: Duration::from_micros(
                row.try_get::<i64, _>("solve_duration_us")?.max(0) as u64,
            ),
        }))
    }

    /// Stores (or replaces) the verdict under `key`, then evicts the least
    /// recently used verdicts of puzzles that are not stored until the
    /// rows fit the retention budget again; one transaction.
    pub async fn put_verdict(
        &self,
        key: VerdictKey<'_>,
        verdict: &Verdict,
    ) -> Result<Retained, StoreError> {
        let _timer = crate::metrics::metrics().store_query("put_verdict");
        let evidence = serde_json::to_string(&verdict.evidence)
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let winning_moves = verdict
            .winning_moves
            .as_ref()
            .map(|w| serde_json::to_string(&StoredWinningMoves::from(w)))
            .transpose()
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let winner = match verdict.winner {
            Player::First => "first",
            Player::Second => "second",
        };
        let size = verdict_row_bytes(key, &evidence, winning_moves.as_deref());
        if size > self.verdict_bytes {
            return Ok(Retained::TooLarge);
        }
        self.write(async |conn| {
            // Take the usage row first: every verdict write changes it, and
            // a PostgreSQL writer that locked a verdict row before it would
            // deadlock with one evicting that row while holding the usage
            // row. SQLite's write lock orders writers anyway.
            sqlx::query("UPDATE verdict_usage SET total_bytes = total_bytes WHERE id = 1")
                .execute(&mut *conn)
                .await?;
            sqlx::query(
                "INSERT INTO verdicts (canonical_hash, options, vertex_count, edge_count, winner, \
                 evidence, winning_moves, solver_version, solve_time_us, solve_duration_us, \
                 last_used_us, size_bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
                 ON CONFLICT (canonical_hash, options) DO UPDATE SET \
                 vertex_count = excluded.vertex_count, edge_count = excluded.edge_count, \
                 winner = excluded.winner, evidence = excluded.evidence, \
                 winning_moves = excluded.winning_moves, solver_version = excluded.solver_version, \
                 solve_time_us = excluded.solve_time_us, \
                 solve_duration_us = excluded.solve_duration_us, \
                 last_used_us = excluded.last_used_us, size_bytes = excluded.size_bytes",
            )
            .bind(key.canonical_hash)
            .bind(key.options)
            .bind(key.vertex_count as i64)
            .bind(key.edge_count as i64)
            .bind(winner)
            .bind(evidence)
            .bind(winning_moves)
            .bind(&verdict.solver_version)
            .bind(micros(verdict.solve_time))
            .bind(verdict.solve_duration.as_micros() as i64)
            .bind(micros(SystemTime::now()))
            .bind(size as i64)
            .execute(&mut *conn)
            .await?;
            let total: i64 = sqlx::query_scalar("SELECT total_bytes FROM verdict_usage")
                .fetch_one(&mut *conn)
                .await?;
            let mut excess = (total.max(0) as u64).saturating_sub(self.verdict_bytes);
            while excess > 0 {
                // The least recently used verdicts nobody stored a puzzle for
                // (the new row included: a budget full of stored puzzles'
                // verdicts keeps those and lets the new one go).
                let oldest = sqlx::query(
                    "SELECT v.canonical_hash, v.options, v.size_bytes FROM verdicts v \
                     WHERE NOT EXISTS (SELECT 1 FROM puzzles p \
                                       WHERE p.canonical_hash = v.canonical_hash) \
                     ORDER BY v.last_used_us LIMIT 64",
                )
                .fetch_all(&mut *conn)
                .await?;
                if oldest.is_empty() {
                    break;
                }
                for row in &oldest {
                    let hash: String = row.try_get("canonical_hash")?;
                    let options: String = row.try_get("options")?;
                    let size: i64 = row.try_get("size_bytes")?;
                    sqlx::query("DELETE FROM verdicts WHERE canonical_hash = $1 AND options = $2")
                        .bind(&hash)
                        .bind(&options)
                        .execute(&mut *conn)
                        .await?;
                    excess = excess.saturating_sub(size.max(0) as u64);
                    if excess == 0 {
                        break;
                    }
                }
            }
            Ok(())
        })
        .await?;
        Ok(Retained::Stored)
    }

    /// Claims the computing of the verdict of `canonical_hash` with
    /// `options` (every shape and solver version) for this store until
    /// `ttl` from now, unless another store (another server on the same
    /// database) holds an unexpired claim on it: true when this store holds
    /// the claim now. Claiming again renews a claim this store holds.
    pub async fn claim_solve(
        &self,
        canonical_hash: &str,
        options: &str,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let now = micros(SystemTime::now());
        let expires = now.saturating_add(ttl.as_micros() as i64);
        let claimed = self
            .write(async |conn| {
                Ok(sqlx::query(
                    "INSERT INTO solve_claims (canonical_hash, options, owner, expires_us) \
                     VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (canonical_hash, options) DO UPDATE \
                     SET owner = excluded.owner, expires_us = excluded.expires_us \
                     WHERE solve_claims.owner = excluded.owner OR solve_claims.expires_us < $5",
                )
                .bind(canonical_hash)
                .bind(options)
                .bind(&*self.claimant)
                .bind(expires)
                .bind(now)
                .execute(&mut *conn)
                .await?
                .rows_affected())
            })
            .await?;
        Ok(claimed == 1)
    }

    /// Gives up this store's claim on `canonical_hash` with `options` (none
    /// held is fine).
    pub async fn release_claim(
        &self,
        canonical_hash: &str,
        options: &str,
    ) -> Result<(), StoreError> {
        self.write(async |conn| {
            sqlx::query(
                "DELETE FROM solve_claims WHERE canonical_hash = $1 AND options = $2 AND owner = $3",
            )
            .bind(canonical_hash)
            .bind(options)
            .bind(&*self.claimant)
            .execute(&mut *conn)
            .await?;
            Ok(())
        })
        .await
    }

    /// The winner of each puzzle of `ids` whose verdict is stored, computed
    /// by `solver_version` for the puzzle's shape (a verdict for any
    /// extras will do: the winner does not depend on them). Puzzles
    /// without one are left out.
    pub async fn stored_winners(
        &self,
        ids: &[&str],
        solver_version: &str,
    ) -> Result<std::collections::HashMap<String, Player>, StoreError> {
        let mut winners = std::collections::HashMap::new();
        if ids.is_empty() {
            return Ok(winners);
        }
        // Verdicts of one hash for other extras agree on the winner: MIN
        // only picks one row per puzzle.
        let placeholders: Vec<String> = (2..ids.len() + 2).map(|i| format!("${i}")).collect();
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT p.id, MIN(v.winner) AS winner FROM puzzles p \
             JOIN verdicts v ON v.canonical_hash = p.canonical_hash \
             WHERE v.solver_version = $1 AND v.vertex_count = p.vertex_count \
             AND v.edge_count = CAST(length(p.edges) / 8 AS BIGINT) AND p.id IN ({}) \
             GROUP BY p.id",
            placeholders.join(", ")
        ));
        let mut query = sqlx::query(sql).bind(solver_version);
        for id in ids {
            query = query.bind(*id);
        }
        for row in query.fetch_all(&self.pool).await? {
            let winner: String = row.try_get("winner")?;
            winners.insert(row.try_get("id")?, player_from_column(&winner)?);
        }
        Ok(winners)
    }

    /// Bytes the verdict rows count against the retention budget.
    pub async fn verdict_bytes_used(&self) -> Result<u64, StoreError> {
        let total: i64 = sqlx::query_scalar("SELECT total_bytes FROM verdict_usage")
            .fetch_one(&self.pool)
            .await?;
        Ok(total.max(0) as u64)
    }
}

/// What a verdict row counts against the budget: its text columns plus a
/// fixed allowance for the numbers, the key's index entry and page overhead.
fn verdict_row_bytes(key: VerdictKey<'_>, evidence: &str, winning_moves: Option<&str>) -> u64 {
    const ROW_OVERHEAD: usize = 128;
    (2 * key.canonical_hash.len()
        + key.options.len()
        + key.solver_version.len()
        + evidence.len()
        + winning_moves.map_or(0, str::len)
        + ROW_OVERHEAD) as u64
}

/// The listing query: its parameters are, in order, the game (when
/// `by_game`), the hash (when `by_hash`), the `seq` to list below and the
/// row limit.
fn list_sql(by_game: bool, by_hash: bool) -> String {
    let mut conditions = Vec::new();
    if by_game {
        conditions.push("p.game = $");
    }
    if by_hash {
        conditions.push("p.canonical_hash = $");
    }
    conditions.push("p.seq < $");
    let conditions: Vec<String> = conditions
        .iter()
        .enumerate()
        .map(|(i, condition)| format!("{condition}{}", i + 1))
        .collect();
    let limit = conditions.len() + 1;
    format!(
        "SELECT {SUMMARY_COLUMNS} FROM puzzles p WHERE {} ORDER BY p.seq DESC LIMIT ${limit}",
        conditions.join(" AND ")
    )
}

/// The puzzle with `id`, edges included, read on `conn` (inside a
/// transaction when `conn` is one).
async fn read_puzzle(conn: &mut AnyConnection, id: &str) -> Result<PuzzleRecord, StoreError> {
    let sql = sqlx::AssertSqlSafe(format!(
        "SELECT {SUMMARY_COLUMNS}, p.edges, p.canonical_labels FROM puzzles p WHERE p.id = $1"
    ));
    let row = sqlx::query(sql)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| StoreError::NotFound(id.to_owned()))?;
    let mut record = puzzle_from_row(&row)?;
    let edges: Vec<u8> = row.try_get("edges")?;
    record.spec.edges = decode_words(&edges)?;
    let labels: Option<Vec<u8>> = row.try_get("canonical_labels")?;
    record.canonical_labels = labels.map(|bytes| decode_words(&bytes)).transpose()?;
    Ok(record)
}

/// A puzzle from the [`SUMMARY_COLUMNS`] of `row`, with no edges read.
fn puzzle_from_row(row: &AnyRow) -> Result<PuzzleRecord, StoreError> {
    let game: String = row.try_get("game")?;
    let game =
        Game::from_name(&game).ok_or_else(|| StoreError::Corrupt(format!("game {game:?}")))?;
    let vertex = |name: &str| -> Result<Option<u32>, StoreError> {
        let value: Option<i64> = row.try_get(name)?;
        value
            .map(|v| u32::try_from(v).map_err(|_| StoreError::Corrupt(format!("{name} {v}"))))
            .transpose()
    };
    Ok(PuzzleRecord {
        seq: row.try_get("seq")?,
        id: row.try_get("id")?,
        spec: RawSpec {
            game,
            vertex_count: row.try_get::<i64, _>("vertex_count")? as u64,
            edges: Vec::new(),
            start: vertex("start_vertex")?.unwrap_or(0),
            black: vertex("black")?,
            white: vertex("white")?,
            title: row.try_get("title")?,
            author: row.try_get("author")?,
        },
        canonical_hash: row.try_get("canonical_hash")?,
        create_time: from_micros(row.try_get("create_time_us")?),
        duplicate_of: row.try_get("duplicate_of")?,
        edge_count: row.try_get::<i64, _>("edge_count")?.max(0) as u64,
        canonical_labels: None,
    })
}

/// A `winner` column's value.
fn player_from_column(winner: &str) -> Result<Player, StoreError> {
    match winner {
        "first" => Ok(Player::First),
        "second" => Ok(Player::Second),
        other => Err(StoreError::Corrupt(format!("winner {other:?}"))),
    }
}

fn encode_words(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn decode_words(bytes: &[u8]) -> Result<Vec<u32>, StoreError> {
    let (words, rest) = bytes.as_chunks::<4>();
    if !rest.is_empty() {
        return Err(StoreError::Corrupt("word blob length".into()));
    }
    Ok(words.iter().map(|w| u32::from_le_bytes(*w)).collect())
}

fn micros(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as i64)
        .unwrap_or(0)
}

fn from_micros(us: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_micros(us.max(0) as u64)
}

/// A digest of everything a create request stores, to tell a retry of the
/// same request from a reuse of its `request_id`.
fn fingerprint(new: &NewPuzzle<'_>) -> String {
    let mut h = Sha256::new();
    h.update(new.game.as_str());
    h.update(new.vertex_count.to_le_bytes());
    h.update((new.edges.len() as u64).to_le_bytes());
    h.update(encode_words(new.edges));
    h.update(new.start.to_le_bytes());
    for v in [new.black, new.white] {
        let mut tagged = [0u8; 5];
        if let Some(v) = v {
            tagged[0] = 1;
            tagged[1..].copy_from_slice(&v.to_le_bytes());
        }
        h.update(tagged);
    }
    h.update((new.title.len() as u64).to_le_bytes());
    h.update(new.title);
    h.update((new.author.len() as u64).to_le_bytes());
    h.update(new.author);
    hex::encode(&h.finalize()[..16])
}

/// A fresh opaque id: 80 bits from the clock, a process-wide counter and the
/// process's randomly seeded hasher state, hashed.
fn new_id() -> String {
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

/// Whether `id` has the shape of an id this store makes.
pub fn is_well_formed_id(id: &str) -> bool {
    id.len() == 20 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// How a verdict's winning moves are kept in the `winning_moves` column:
/// a vertex move is `{"vertex": v}` whatever its game (the verdict's
/// evidence names the game), an edge `{"edge": [u, v]}`. The column format
/// predates the one move type of the solvers and stays as it is, so rows
/// written before read back unchanged.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredWinningMoves {
    moves: Vec<StoredMove>,
    unique: bool,
    count: u64,
    complete: bool,
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum StoredMove {
    Vertex(Vertex),
    Edge(Vertex, Vertex),
}

impl From<&WinningMoves> for StoredWinningMoves {
    fn from(winning: &WinningMoves) -> StoredWinningMoves {
        StoredWinningMoves {
            moves: winning
                .moves
                .iter()
                .map(|m| match *m {
                    Move::Geography(v) | Move::Paint(v) => StoredMove::Vertex(v),
                    Move::Edge(u, v) => StoredMove::Edge(u, v),
                })
                .collect(),
            unique: winning.unique,
            count: winning.count,
            complete: winning.complete,
        }
    }
}

impl StoredWinningMoves {
    /// The moves of the game `evidence` is about.
    fn into_moves(self, evidence: &Evidence) -> WinningMoves {
        let vertex_move = match evidence {
            Evidence::TreePaint { .. } => Move::Paint,
            Evidence::Geography { .. } | Evidence::BipartiteEdge { .. } => Move::Geography,
        };
        WinningMoves {
            moves: self
                .moves
                .into_iter()
                .map(|m| match m {
                    StoredMove::Vertex(v) => vertex_move(v),
                    StoredMove::Edge(u, v) => Move::Edge(u, v),
                })
                .collect(),
            unique: self.unique,
            count: self.count,
            complete: self.complete,
        }
    }
}

#[cfg(test)]
mod tests;
