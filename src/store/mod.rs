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
//!
//! - `db`: the [`Store`] itself: opening, the pool, write transactions,
//!   the checks that the database is still the one it opened;
//! - `records`: what the store takes and gives for puzzles, as plain data;
//! - `puzzles`: create, read, list, delete;
//! - `kept`: small stored puzzles and cached winners kept in memory once
//!   read, and the store's version (SQLite);
//! - `verdicts`: verdicts by canonical hash, and their retention;
//! - `claims`: claims on computing a verdict across replicas;
//! - `error`: [`StoreError`], and how each database error counts;
//! - `backup`: a consistent copy of a SQLite store while it is in use.

mod backup;
mod claims;
mod db;
mod error;
mod kept;
mod puzzles;
mod records;
mod verdicts;

pub use backup::{BackupError, BackupSummary, backup_sqlite};
pub use db::{DEFAULT_VERDICT_BYTES, PoolSettings, Store};
pub use error::StoreError;
pub use kept::StoreVersion;
pub use puzzles::is_well_formed_id;
pub use records::{Created, ListFilter, NewPuzzle, Page, PuzzleRead, PuzzleRecord};
pub use verdicts::{Retained, VerdictKey};

#[cfg(test)]
mod tests;
