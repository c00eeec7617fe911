//! The store under faults: an I/O error clears with its cause, a deleted
//! database file stops writes and health, an outside lock is UNAVAILABLE
//! (a fault to retry), not INTERNAL.

use std::path::{Path, PathBuf};
use std::process::Command;

use tonic::Code;

use crate::helpers::*;

fn database_files(dir: &Path) -> Vec<PathBuf> {
    ["puzzled.db", "puzzled.db-wal", "puzzled.db-shm"]
        .iter()
        .map(|name| dir.join(name))
        .filter(|path| path.exists())
        .collect()
}

async fn create(app: &TestApp, n: u32) -> Result<proto::Puzzle, tonic::Status> {
    app.client
        .clone()
        .create_puzzle(create_request(path(n)))
        .await
        .map(tonic::Response::into_inner)
}

/// `chattr` on `paths`; false (after one line saying why the test is
/// skipped) where the file system or the user cannot set the flag.
fn chattr(flag: &str, paths: &[PathBuf]) -> bool {
    let done = Command::new("chattr")
        .arg(flag)
        .args(paths)
        .output()
        .is_ok_and(|o| o.status.success());
    if !done {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the I/O fault test needs `chattr {flag}` on the test's temporary files (root on ext4, xfs or btrfs)"
        );
    }
    done
}

/// With the database file and its WAL immutable, creates fail UNAVAILABLE
/// (an I/O fault, retry later); once the flag is cleared every create
/// succeeds again, without a restart.
#[tokio::test]
async fn a_write_io_error_clears_when_its_cause_does() {
    let app = spawn_app().await;
    create(&app, 3).await.expect("a create before the fault");
    // Not the shared-memory index: SQLite maps it, and a mapped page that
    // cannot be written faults the whole process.
    let files: Vec<PathBuf> = database_files(app.dir.path())
        .into_iter()
        .filter(|path| !path.to_string_lossy().ends_with("-shm"))
        .collect();
    if !chattr("+i", &files) {
        return;
    }
    let mut failed = Vec::new();
    for n in 4..7 {
        failed.push(create(&app, n).await);
    }
    // Cleared before any assertion, so a failing test leaves no file the
    // temporary directory cannot delete.
    assert!(chattr("-i", &files), "could not clear the flag");
    for outcome in failed {
        let status = outcome.expect_err("a create into an immutable file");
        assert_eq!(status.code(), Code::Unavailable, "{status:?}");
        assert_eq!(error_reason(&status), "STORE_IO_ERROR", "{status:?}");
    }
    for n in 10..15 {
        create(&app, n)
            .await
            .expect("creates succeed once the fault has cleared");
    }
    assert_eq!(
        app.listed().await.len(),
        6,
        "the first create and the five after"
    );
    app.stop().await;
}

/// The database file deleted under the running server: writes are refused
/// (none acknowledged into a file the server would not reopen), no new
/// empty database appears beside it, and health turns NOT_SERVING.
#[tokio::test]
async fn a_deleted_database_file_stops_writes_and_health() {
    let app = spawn_app().await;
    create(&app, 3).await.expect("a create before the fault");
    assert!(serving(&app).await);
    for file in database_files(app.dir.path()) {
        std::fs::remove_file(file).unwrap();
    }
    for n in 4..10 {
        let status = create(&app, n).await.unwrap_err();
        assert_eq!(status.code(), Code::Unavailable, "{status:?}");
        assert_eq!(error_reason(&status), "STORE_FILE_REPLACED", "{status:?}");
    }
    until_async(|| async { !serving(&app).await }).await;
    assert!(
        !app.dir.path().join("puzzled.db").exists(),
        "no new empty database was created in its place"
    );
    app.request_stop().finish().await;
}

/// Another process holding the write lock past the busy timeout (5 s) makes
/// a create fail UNAVAILABLE with STORE_BUSY; once the lock is released the
/// next create succeeds.
#[tokio::test]
async fn an_outside_write_lock_is_unavailable_not_internal() {
    use sqlx::Connection as _;
    let app = spawn_app().await;
    let mut outside = sqlx::SqliteConnection::connect(&app.config.database_url)
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut outside)
        .await
        .unwrap();
    let status = create(&app, 3).await.unwrap_err();
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    assert_eq!(error_reason(&status), "STORE_BUSY", "{status:?}");
    sqlx::query("ROLLBACK").execute(&mut outside).await.unwrap();
    create(&app, 3).await.expect("the lock is gone");
    app.stop().await;
}
