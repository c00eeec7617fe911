//! A consistent copy of a SQLite store, taken while servers write to it.
//!
//! `VACUUM INTO` reads the database in one read transaction: the copy
//! holds every transaction committed before it began and none after, and
//! in WAL mode writers go on meanwhile (they wait only for the moment the
//! copy's transaction starts). The copy is written beside the destination
//! and renamed into place, so the destination is either absent or whole.

use std::path::{Path, PathBuf};
use std::str::FromStr as _;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions as _, Connection as _};

/// Why a backup could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(
        "backups are taken of SQLite stores (sqlite://PATH); for PostgreSQL use pg_dump \
         (see docs/operations.md#backups-restores-and-upgrades)"
    )]
    NotSqlite,
    #[error(
        "the folder {} does not exist: create it first (mkdir -p {})",
        .0.display(),
        .0.display()
    )]
    NoFolder(PathBuf),
    #[error("{} is not a folder: a backup is written into a folder", .0.display())]
    NotAFolder(PathBuf),
    #[error("{0} already exists: a backup is never written over a file")]
    DestinationExists(PathBuf),
    #[error("the store {url} cannot be read")]
    Open {
        url: String,
        #[source]
        source: sqlx::Error,
    },
    #[error("copying the store into {path}")]
    Copy {
        path: PathBuf,
        #[source]
        source: sqlx::Error,
    },
    #[error("moving the copy to {path}")]
    Rename {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What a backup holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackupSummary {
    pub puzzles: u64,
    pub verdicts: u64,
}

/// Copies the SQLite store at `url` (`sqlite://PATH`) into the new file
/// `destination`, read-only on the store: no migration runs, no write is
/// made, so it is safe beside servers of any version.
pub async fn backup_sqlite(url: &str, destination: &Path) -> Result<BackupSummary, BackupError> {
    if !url.starts_with("sqlite:") || url.contains(":memory:") {
        return Err(BackupError::NotSqlite);
    }
    if destination.exists() {
        return Err(BackupError::DestinationExists(destination.to_owned()));
    }
    // SQLite would only say it cannot open the copy's file.
    let folder = match destination.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.exists() {
        return Err(BackupError::NoFolder(folder.to_owned()));
    }
    if !folder.is_dir() {
        return Err(BackupError::NotAFolder(folder.to_owned()));
    }
    let open = |source| BackupError::Open {
        url: crate::config::redacted_url(url),
        source,
    };
    let mut connection = SqliteConnectOptions::from_str(url)
        .map_err(open)?
        .read_only(true)
        .busy_timeout(std::time::Duration::from_secs(30))
        .connect()
        .await
        .map_err(open)?;
    let mut partial = destination.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let _ = std::fs::remove_file(&partial);
    let copy = |source| BackupError::Copy {
        path: destination.to_owned(),
        source,
    };
    sqlx::query("VACUUM INTO $1")
        .bind(partial.to_string_lossy().into_owned())
        .execute(&mut connection)
        .await
        .map_err(copy)?;
    connection.close().await.map_err(copy)?;
    let summary = count(&partial).await.map_err(copy)?;
    std::fs::rename(&partial, destination).map_err(|source| BackupError::Rename {
        path: destination.to_owned(),
        source,
    })?;
    Ok(summary)
}

/// The puzzles and verdicts of the SQLite file at `path`.
async fn count(path: &Path) -> Result<BackupSummary, sqlx::Error> {
    let mut connection = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await?;
    let (puzzles,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM puzzles")
        .fetch_one(&mut connection)
        .await?;
    let (verdicts,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM verdicts")
        .fetch_one(&mut connection)
        .await?;
    connection.close().await?;
    Ok(BackupSummary {
        puzzles: puzzles as u64,
        verdicts: verdicts as u64,
    })
}
