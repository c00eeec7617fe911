//! Why a store operation failed, and how each database error counts for
//! a client (retry later, or a fault of the server).

use sqlx::postgres::PgDatabaseError;

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
    /// PostgreSQL has no database of the URL's name: puzzled creates its
    /// tables, not the database.
    #[error(
        "PostgreSQL has no database {database:?}: create it first (createdb {database}, or \
         CREATE DATABASE {database} in psql); puzzled creates its tables, not the database"
    )]
    NoSuchDatabase { database: String },
    /// PostgreSQL answered, and refused the connection (a role it does not
    /// know, a wrong password, `pg_hba.conf`).
    #[error("PostgreSQL refused the connection: {message}")]
    Refused { message: String },
    /// No connection to PostgreSQL could be made within the acquire
    /// timeout; `message` is why the last attempt failed.
    #[error(
        "cannot connect to PostgreSQL within {seconds} s (--database-acquire-timeout-ms): \
         {message}"
    )]
    Unreachable { seconds: u64, message: String },
    /// A database URL whose scheme this build cannot open.
    #[error(
        "unsupported database URL scheme `{scheme}`: the supported ones are \
         sqlite://PATH, sqlite::memory: and postgres://[USER@]HOST[:PORT]/DATABASE"
    )]
    UnsupportedScheme { scheme: String },
}

/// How a database error counts for a client.
pub(super) enum Fault {
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
            // A connection refused or cut, or the pool closed under it. A
            // connection cut during its TLS negotiation reads as a reply
            // that is not PostgreSQL's (a protocol error), so those count
            // as the database out of reach too.
            sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::PoolClosed => Fault::Io,
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
pub(super) fn sqlite_fault(code: Option<&str>) -> Fault {
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
pub(super) fn postgres_fault(sqlstate: &str) -> Fault {
    match sqlstate {
        // serialization_failure, deadlock_detected, lock_not_available,
        // too_many_connections.
        "40001" | "40P01" | "55P03" | "53300" => Fault::Busy,
        // Class 08 connection exceptions; the server shutting down or
        // starting (admin_shutdown, crash_shutdown, cannot_connect_now);
        // disk_full, out_of_memory, io_error, read_only_sql_transaction;
        // object_not_in_prerequisite_state, which is what a new connection
        // to a database closed to connections (ALLOW_CONNECTIONS false)
        // gets, and which none of the store's statements can otherwise
        // raise.
        code if code.starts_with("08") => Fault::Io,
        "57P01" | "57P02" | "57P03" | "53100" | "53200" | "58030" | "25006" | "55000" => Fault::Io,
        _ => Fault::Other,
    }
}

/// Whether `error` is a unique constraint refusing a row.
pub(super) fn is_unique_violation(error: &StoreError) -> bool {
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
            StoreError::Busy(_)
                | StoreError::Io(_)
                | StoreError::FileReplaced { .. }
                | StoreError::Unreachable { .. }
        )
    }
}
