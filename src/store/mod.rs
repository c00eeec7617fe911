//! The sqlx repository: puzzles and verdicts in SQLite. The only module that
//! writes SQL; it knows nothing of proto types.
//!
//! Durability: WAL journal with `synchronous = NORMAL`, which keeps every
//! committed transaction across a process crash (`kill -9`); a power loss may
//! lose the last transactions but never corrupts the file. Writes take the
//! write lock up front (`BEGIN IMMEDIATE`) so concurrent writers wait on the
//! busy timeout instead of failing.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};
use sqlx::Connection as _;
use sqlx::Row;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteRow, SqliteSynchronous,
};

use crate::puzzle::{Evidence, Game, Move, RawSpec, Verdict, WinningMoves};
use crate::solver::Player;
use crate::solver::graph::Vertex;

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
         sqlite://PATH and sqlite::memory:"
    )]
    UnsupportedScheme { scheme: String },
}

impl From<sqlx::Error> for StoreError {
    /// Sorts a database error into a fault a client may retry (contention,
    /// I/O) and everything else, which is a bug or damage.
    fn from(error: sqlx::Error) -> Self {
        // SQLite's primary result codes (the low byte of extended codes).
        const BUSY: i64 = 5;
        const LOCKED: i64 = 6;
        const READONLY: i64 = 8;
        const IOERR: i64 = 10;
        const FULL: i64 = 13;
        const CANTOPEN: i64 = 14;
        let primary = error
            .as_database_error()
            .and_then(|e| e.code())
            .and_then(|code| code.parse::<i64>().ok())
            .map(|code| code & 0xff);
        match (&error, primary) {
            (_, Some(BUSY | LOCKED)) | (sqlx::Error::PoolTimedOut, _) => StoreError::Busy(error),
            (_, Some(READONLY | IOERR | FULL | CANTOPEN)) | (sqlx::Error::Io(_), _) => {
                StoreError::Io(error)
            }
            _ => StoreError::Database(error),
        }
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

/// The SQLite store.
#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
    /// The database file and its identity at start-up; `None` in memory.
    file: Option<(PathBuf, FileIdentity)>,
    /// Bytes of verdict rows kept before the least recently used are
    /// evicted (verdicts of stored puzzles are never evicted).
    verdict_bytes: u64,
}

/// The store's connection pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    /// Connections kept to a database file (an in-memory database lives as
    /// long as its one connection, so it always has exactly one).
    pub max_connections: u32,
    /// How long an operation waits for a free connection before it fails
    /// with [`StoreError::Busy`].
    pub acquire_timeout: Duration,
}

impl PoolSettings {
    /// A few connections: SQLite writes one at a time, and readers in WAL
    /// mode do not wait for the writer.
    pub const DEFAULT_MAX_CONNECTIONS: u32 = 4;
    /// sqlx's own default.
    pub const DEFAULT_ACQUIRE_TIMEOUT_MS: u64 = 30_000;
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
pub const DEFAULT_VERDICT_BYTES: u64 = 1 << 30;

/// Every column of a puzzle but its edge list. `length()` of a blob column
/// reads the blob's size from the record header, not the blob itself.
const SUMMARY_COLUMNS: &str = "p.seq, p.id, p.game, p.vertex_count, p.start_vertex, \
     p.black, p.white, p.title, p.author, p.canonical_hash, p.create_time_us, \
     length(p.edges) / 8 AS edge_count, \
     (SELECT d.id FROM puzzles d WHERE d.canonical_hash = p.canonical_hash AND d.seq < p.seq \
      ORDER BY d.seq LIMIT 1) AS duplicate_of";

impl Store {
    /// Opens (creating if missing) the database at `url`, e.g.
    /// `sqlite://puzzled.db` or `sqlite::memory:`, and applies migrations,
    /// with the default pool.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, PoolSettings::default()).await
    }

    /// [`Store::open`] with the pool of `pool`.
    pub async fn open_with(url: &str, pool: PoolSettings) -> Result<Store, StoreError> {
        // sqlx would take any other URL for a file name (`postgres://h/db`
        // becomes a SQLite file that cannot be opened): name the scheme.
        if let Some((scheme, _)) = url.split_once("://")
            && scheme != "sqlite"
        {
            return Err(StoreError::UnsupportedScheme {
                scheme: scheme.to_owned(),
            });
        }
        let options = SqliteConnectOptions::from_str(url)?
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(5))
            .foreign_keys(true);
        // An in-memory database lives as long as its one connection: keep
        // exactly one, forever. A file is shared by a few connections.
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        if in_memory {
            let pool = SqlitePoolOptions::new()
                .max_connections(1)
                .min_connections(1)
                .acquire_timeout(pool.acquire_timeout)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(options.create_if_missing(true))
                .await?;
            sqlx::migrate!("./migrations").run(&pool).await?;
            return Ok(Store {
                pool,
                file: None,
                verdict_bytes: DEFAULT_VERDICT_BYTES,
            });
        }
        // Only the first connection may create the file: a connection
        // opened later, after the file was deleted, must fail rather than
        // start a new empty database beside the old one.
        let path = options.get_filename().to_owned();
        {
            use sqlx::ConnectOptions as _;
            let creating = options.clone().create_if_missing(true).connect().await?;
            creating.close().await?;
        }
        let identity = FileIdentity::of(&path).ok_or_else(|| StoreError::FileReplaced {
            path: path.display().to_string(),
        })?;
        let pool = SqlitePoolOptions::new()
            .max_connections(pool.max_connections)
            .acquire_timeout(pool.acquire_timeout)
            .connect_with(options.create_if_missing(false))
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Store {
            pool,
            file: Some((path, identity)),
            verdict_bytes: DEFAULT_VERDICT_BYTES,
        })
    }

    /// Fails with [`StoreError::FileReplaced`] once the database file is no
    /// longer the one opened at start-up (deleted, or another file in its
    /// place). Checked before and after every write, and by the health
    /// reporter.
    pub fn check_file(&self) -> Result<(), StoreError> {
        let Some((path, identity)) = &self.file else {
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

    /// Runs `work` in a write transaction (`BEGIN IMMEDIATE`) on a
    /// connection of its own, and commits it. A connection whose
    /// transaction failed is closed, not returned to the pool: after an
    /// I/O error its state is unknown (a rollback that failed too would
    /// leave it inside a transaction), and a fresh one recovers as soon as
    /// the fault clears. Nothing is acknowledged unless the database file
    /// is still the one the server will reopen.
    async fn write<T>(
        &self,
        work: impl AsyncFnOnce(&mut SqliteConnection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.check_file()?;
        let mut conn = self.pool.acquire().await?;
        let outcome: Result<T, StoreError> = async {
            let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
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
        self.write(async |conn| {
            if let Some(request_id) = new.request_id {
                let existing =
                    sqlx::query("SELECT id, request_fingerprint FROM puzzles WHERE request_id = ?")
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
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
        .await
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
            "SELECT {SUMMARY_COLUMNS} FROM puzzles p WHERE p.id = ?"
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
            "SELECT id FROM puzzles WHERE rehash_pending = 1 ORDER BY seq LIMIT ?",
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
                "UPDATE puzzles SET canonical_hash = ?, canonical_labels = ?, rehash_pending = 0 \
                 WHERE id = ? AND canonical_hash = ?",
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
            let done = sqlx::query("DELETE FROM puzzles WHERE id = ?")
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
             WHERE canonical_hash = ? AND options = ?",
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
        let winner = match winner.as_str() {
            "first" => Player::First,
            "second" => Player::Second,
            other => return Err(StoreError::Corrupt(format!("winner {other:?}"))),
        };
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
            "UPDATE verdicts SET last_used_us = ? WHERE canonical_hash = ? AND options = ?",
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
            sqlx::query(
                "INSERT INTO verdicts (canonical_hash, options, vertex_count, edge_count, winner, \
                 evidence, winning_moves, solver_version, solve_time_us, solve_duration_us, \
                 last_used_us, size_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) \
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
                    sqlx::query("DELETE FROM verdicts WHERE canonical_hash = ? AND options = ?")
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

fn list_sql(by_game: bool, by_hash: bool) -> String {
    let game = if by_game { "p.game = ? AND " } else { "" };
    let hash = if by_hash {
        "p.canonical_hash = ? AND "
    } else {
        ""
    };
    format!(
        "SELECT {SUMMARY_COLUMNS} FROM puzzles p WHERE {game}{hash}p.seq < ? \
         ORDER BY p.seq DESC LIMIT ?"
    )
}

/// The puzzle with `id`, edges included, read on `conn` (inside a
/// transaction when `conn` is one).
async fn read_puzzle(conn: &mut SqliteConnection, id: &str) -> Result<PuzzleRecord, StoreError> {
    let sql = sqlx::AssertSqlSafe(format!(
        "SELECT {SUMMARY_COLUMNS}, p.edges, p.canonical_labels FROM puzzles p WHERE p.id = ?"
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
fn puzzle_from_row(row: &SqliteRow) -> Result<PuzzleRecord, StoreError> {
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
    hex(&h.finalize()[..16])
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
    hex(&h.finalize()[..10])
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
mod tests {
    use super::*;

    async fn plan(store: &Store, sql: String) -> String {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")))
            .fetch_all(&store.pool)
            .await
            .unwrap();
        rows.iter()
            .map(|r| r.get::<String, _>("detail"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// With every connection of the pool taken, an operation waits for the
    /// acquire timeout and fails as busy (a fault the client may retry),
    /// and works again as soon as a connection is free.
    #[tokio::test]
    async fn a_full_pool_makes_operations_busy_until_a_connection_frees() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let settings = PoolSettings {
            max_connections: 1,
            acquire_timeout: Duration::from_millis(200),
        };
        let store = Store::open_with(&url, settings).await.unwrap();
        let held = store.pool.acquire().await.unwrap();
        let waited = std::time::Instant::now();
        let error = store.puzzles_to_rehash(10).await.unwrap_err();
        assert!(matches!(error, StoreError::Busy(_)), "{error:?}");
        assert!(error.is_transient());
        // The configured timeout, not sqlx's default of 30 s.
        let waited = waited.elapsed();
        assert!(
            waited >= settings.acquire_timeout && waited < Duration::from_secs(10),
            "{waited:?}"
        );
        drop(held);
        assert_eq!(
            store.puzzles_to_rehash(10).await.unwrap(),
            Vec::<String>::new()
        );
    }

    #[tokio::test]
    async fn listing_and_duplicate_lookup_walk_indexes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&format!("sqlite://{}", dir.path().join("t.db").display()))
            .await
            .unwrap();
        let all = plan(&store, list_sql(false, false)).await;
        assert!(all.contains("SEARCH p USING INTEGER PRIMARY KEY"), "{all}");
        let by_game = plan(&store, list_sql(true, false)).await;
        assert!(
            by_game.contains("USING COVERING INDEX puzzles_by_game")
                || by_game.contains("USING INDEX puzzles_by_game"),
            "{by_game}"
        );
        let by_hash = plan(&store, list_sql(false, true)).await;
        assert!(
            by_hash.contains("USING INDEX puzzles_by_canonical_hash")
                || by_hash.contains("USING COVERING INDEX puzzles_by_canonical_hash"),
            "{by_hash}"
        );
        for plan in [&all, &by_game, &by_hash] {
            assert!(
                plan.contains("puzzles_by_canonical_hash"),
                "duplicate_of lookup: {plan}"
            );
            assert!(!plan.contains("USE TEMP B-TREE"), "no sort step: {plan}");
        }
        let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(integrity, "ok");
        let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(journal, "wal");
        store.close().await;
    }

    #[tokio::test]
    async fn a_url_of_another_scheme_is_refused_by_name() {
        for (url, scheme) in [
            ("postgres://127.0.0.1:5432/test", "postgres"),
            ("mysql://root@localhost/test", "mysql"),
        ] {
            let Err(error) = Store::open(url).await else {
                panic!("{url} was opened");
            };
            assert_eq!(
                error.to_string(),
                format!(
                    "unsupported database URL scheme `{scheme}`: the supported ones are \
                     sqlite://PATH and sqlite::memory:"
                )
            );
        }
    }

    #[tokio::test]
    async fn an_in_memory_store_keeps_its_data() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        let created = store
            .create_puzzle(NewPuzzle {
                game: Game::Geography,
                vertex_count: 2,
                edges: &[0, 1],
                start: 0,
                black: None,
                white: None,
                title: "t",
                author: "",
                canonical_hash: "h",
                canonical_labels: None,
                request_id: None,
            })
            .await
            .unwrap();
        assert_eq!(store.get_puzzle(&created.id).await.unwrap(), created);
        assert!(is_well_formed_id(&created.id));
    }

    /// Summaries carry the edge count without the edge list; the edges are
    /// read on their own, and are gone with their puzzle.
    #[tokio::test]
    async fn summaries_count_edges_without_reading_them() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        let edges = [0, 1, 1, 2, 2, 3];
        let created = store
            .create_puzzle(NewPuzzle {
                game: Game::Geography,
                vertex_count: 4,
                edges: &edges,
                start: 0,
                black: None,
                white: None,
                title: "",
                author: "",
                canonical_hash: "h",
                canonical_labels: None,
                request_id: None,
            })
            .await
            .unwrap();
        assert_eq!(created.edge_count, 3);
        assert_eq!(created.spec.edges, edges);
        let summary = store.get_puzzle_summary(&created.id).await.unwrap();
        let listed = store
            .list_puzzles(ListFilter::default(), None, 10)
            .await
            .unwrap()
            .puzzles;
        for record in [&summary, &listed[0]] {
            assert_eq!(record.edge_count, 3);
            assert!(record.spec.edges.is_empty());
            assert_eq!(record.spec.vertex_count, 4);
        }
        assert_eq!(
            store.get_puzzle(&created.id).await.unwrap().spec.edges,
            edges.to_vec()
        );
    }

    fn verdict(version: &str) -> Verdict {
        Verdict {
            winner: Player::First,
            evidence: Evidence::TreePaint {
                black_count: 2,
                white_count: 1,
                winning_move: Some(1),
            },
            winning_moves: None,
            solver_version: version.into(),
            solve_time: SystemTime::now(),
            solve_duration: Duration::from_millis(1),
        }
    }

    fn key(hash: &str) -> VerdictKey<'_> {
        VerdictKey {
            canonical_hash: hash,
            options: "",
            vertex_count: 3,
            edge_count: 2,
            solver_version: "v1",
        }
    }

    async fn store_a_puzzle(store: &Store, hash: &str) {
        store
            .create_puzzle(NewPuzzle {
                game: Game::TreePaint,
                vertex_count: 3,
                edges: &[0, 1, 1, 2],
                start: 0,
                black: None,
                white: None,
                title: "",
                author: "",
                canonical_hash: hash,
                canonical_labels: None,
                request_id: None,
            })
            .await
            .unwrap();
    }

    /// Winning moves come back as the moves of the verdict's game, from a
    /// column whose format is the one rows were written in before the
    /// move type was shared with the solvers.
    #[tokio::test]
    async fn winning_moves_keep_their_game_and_their_column_format() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        let mut painted = verdict("v1");
        painted.winning_moves = Some(WinningMoves::complete_list(vec![Move::Paint(1)]));
        let mut geography = verdict("v1");
        geography.evidence = Evidence::Geography {
            matching: vec![(0, 1)],
            barrier: vec![],
            start_barrier: Some(vec![]),
            second_player_starts: None,
        };
        geography.winning_moves = Some(WinningMoves::complete_list(vec![Move::Geography(1)]));
        for (hash, written) in [("paint", &painted), ("geo", &geography)] {
            store.put_verdict(key(hash), written).await.unwrap();
            let read = store.get_verdict(key(hash)).await.unwrap().unwrap();
            assert_eq!(read.winning_moves, written.winning_moves);
        }
        let column: String =
            sqlx::query_scalar("SELECT winning_moves FROM verdicts WHERE canonical_hash = 'geo'")
                .fetch_one(&store.pool)
                .await
                .unwrap();
        assert_eq!(
            column,
            r#"{"moves":[{"vertex":1}],"unique":true,"count":1,"complete":true}"#
        );
    }

    /// Past the budget the least recently used verdicts go first, a read
    /// counts as a use, and the verdicts of stored puzzles stay.
    #[tokio::test]
    async fn verdicts_past_the_budget_are_evicted_least_recently_used_first() {
        let one_row = {
            let store = Store::open("sqlite::memory:").await.unwrap();
            store.put_verdict(key("h00"), &verdict("v1")).await.unwrap();
            store.verdict_bytes_used().await.unwrap()
        };
        let store = Store::open("sqlite::memory:")
            .await
            .unwrap()
            .retain_verdict_bytes(5 * one_row);
        store_a_puzzle(&store, "h00").await;
        let hashes: Vec<String> = (0..12).map(|i| format!("h{i:02}")).collect();
        for (i, hash) in hashes.iter().enumerate() {
            assert_eq!(
                store.put_verdict(key(hash), &verdict("v1")).await.unwrap(),
                Retained::Stored
            );
            assert!(store.verdict_bytes_used().await.unwrap() <= 5 * one_row);
            if i == 4 {
                // h01 is used again: h02 is now the least recently used.
                tokio::time::sleep(Duration::from_millis(2)).await;
                assert!(store.get_verdict(key("h01")).await.unwrap().is_some());
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let mut kept = Vec::new();
        for hash in &hashes {
            if store.get_verdict(key(hash)).await.unwrap().is_some() {
                kept.push(hash.as_str());
            }
        }
        // h00 is a stored puzzle's; then the four most recently used.
        assert_eq!(kept, ["h00", "h08", "h09", "h10", "h11"]);
    }

    #[tokio::test]
    async fn a_verdict_of_another_solver_version_or_shape_is_a_miss() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        store.put_verdict(key("h"), &verdict("v1")).await.unwrap();
        assert!(store.get_verdict(key("h")).await.unwrap().is_some());
        let newer = VerdictKey {
            solver_version: "v2",
            ..key("h")
        };
        assert!(store.get_verdict(newer).await.unwrap().is_none());
        let other_shape = VerdictKey {
            edge_count: 3,
            ..key("h")
        };
        assert!(store.get_verdict(other_shape).await.unwrap().is_none());
        // The fresh verdict replaces the old one and the usage follows.
        let before = store.verdict_bytes_used().await.unwrap();
        store.put_verdict(newer, &verdict("v2")).await.unwrap();
        assert_eq!(
            store
                .get_verdict(newer)
                .await
                .unwrap()
                .unwrap()
                .solver_version,
            "v2"
        );
        assert_eq!(store.verdict_bytes_used().await.unwrap(), before);
    }

    #[tokio::test]
    async fn a_verdict_larger_than_the_budget_is_not_stored() {
        let store = Store::open("sqlite::memory:")
            .await
            .unwrap()
            .retain_verdict_bytes(100);
        assert_eq!(
            store.put_verdict(key("h"), &verdict("v1")).await.unwrap(),
            Retained::TooLarge
        );
        assert!(store.get_verdict(key("h")).await.unwrap().is_none());
        assert_eq!(store.verdict_bytes_used().await.unwrap(), 0);
    }

    /// A create returns the row it inserted even when a delete of that row
    /// commits right after it: the row is read inside the transaction.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_create_is_not_undone_by_a_delete_racing_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&format!("sqlite://{}", dir.path().join("t.db").display()))
            .await
            .unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let deleter = {
            let (store, stop) = (store.clone(), stop.clone());
            tokio::spawn(async move {
                let mut deleted = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let newest = store
                        .list_puzzles(ListFilter::default(), None, 1)
                        .await
                        .unwrap()
                        .puzzles;
                    if let Some(p) = newest.first() {
                        deleted += usize::from(store.delete_puzzle(&p.id).await.is_ok());
                    }
                }
                deleted
            })
        };
        for i in 0..200u32 {
            let created = store
                .create_puzzle(NewPuzzle {
                    game: Game::Geography,
                    vertex_count: 2,
                    edges: &[0, 1],
                    start: i % 2,
                    black: None,
                    white: None,
                    title: "",
                    author: "",
                    canonical_hash: "h",
                    canonical_labels: None,
                    request_id: None,
                })
                .await
                .expect("a create succeeds whatever is deleted meanwhile");
            assert_eq!(created.spec.start, i % 2);
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(deleter.await.unwrap() > 0, "the deleter raced the creates");
    }

    #[tokio::test]
    async fn migrations_are_idempotent() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        Store::open(&url).await.unwrap().close().await;
        Store::open(&url).await.unwrap().close().await;
    }
}
