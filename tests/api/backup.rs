//! `puzzled backup DEST` while a server takes writes, and the restore
//! docs/operations.md describes: the backup holds every puzzle whose create
//! was acknowledged before it began, and a server started on it serves
//! them. Bad uses are refused with a message naming the problem.

use std::process::Command;
use std::sync::{Arc, Mutex};

use crate::helpers::*;

const BIN: &str = env!("CARGO_BIN_EXE_puzzled");

fn backup(database: &str, destination: &std::path::Path) -> std::process::Output {
    Command::new(BIN)
        .args(["backup", "--database", database])
        .arg(destination)
        .env_remove("PUZZLED_DATABASE_URL")
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_writes_restores_every_acknowledged_puzzle() {
    let app = spawn_app().await;
    let database = app.config.database_url.clone();
    // A writer creating puzzles one after another, noting each
    // acknowledged name, until told to stop.
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let writer = tokio::spawn({
        let mut client = app.client.clone();
        let acknowledged = acknowledged.clone();
        async move {
            for n in 0u32.. {
                if *stopped.borrow_and_update() {
                    return;
                }
                let puzzle = client
                    .create_puzzle(create_request(path(2 + n % 40)))
                    .await
                    .expect("a create during the backup")
                    .into_inner();
                acknowledged.lock().unwrap().push(puzzle.name);
            }
        }
    });
    until(|| acknowledged.lock().unwrap().len() >= 50).await;

    let backups = tempfile::tempdir().unwrap();
    let destination = backups.path().join("puzzled-backup.db");
    let before: Vec<String> = acknowledged.lock().unwrap().clone();
    let out = tokio::task::spawn_blocking({
        let (database, destination) = (database.clone(), destination.clone());
        move || backup(&database, &destination)
    })
    .await
    .unwrap();
    let during = acknowledged.lock().unwrap().len();
    stop.send(true).unwrap();
    writer.await.unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let backed_up: u64 = stdout
        .strip_prefix("backed up ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(backed_up as usize >= before.len(), "{stdout}");
    assert!(backed_up as usize <= during, "{stdout}");
    assert!(!backups.path().join("puzzled-backup.db.partial").exists());
    let written = acknowledged.lock().unwrap().len();
    app.stop().await;

    // Restore: the backup becomes a store's file, and a server opens it.
    let restored_dir = Arc::new(tempfile::tempdir().unwrap());
    std::fs::copy(&destination, restored_dir.path().join("puzzled.db")).unwrap();
    let mut restored = app_in(restored_dir, |_| {}).await;
    for name in &before {
        restored
            .client
            .get_puzzle(proto::GetPuzzleRequest {
                name: name.clone(),
                ..Default::default()
            })
            .await
            .unwrap_or_else(|e| panic!("{name} was acknowledged before the backup: {e:?}"));
    }
    let mut listed = 0;
    let mut page_token = String::new();
    loop {
        let page = restored
            .client
            .list_puzzles(proto::ListPuzzlesRequest {
                page_size: 1000,
                page_token: page_token.clone(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        listed += page.puzzles.len();
        page_token = page.next_page_token;
        if page_token.is_empty() {
            break;
        }
    }
    assert_eq!(
        listed as u64, backed_up,
        "the server serves what the backup holds"
    );
    assert!(
        written > before.len(),
        "writes went on while the backup ran"
    );
    restored.stop().await;
}

#[test]
fn a_backup_refuses_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("taken.db");
    std::fs::write(&existing, b"something").unwrap();
    let out = backup(
        &format!("sqlite://{}", dir.path().join("x.db").display()),
        &existing,
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("already exists: a backup is never written over a file"),
        "{err}"
    );
    assert_eq!(std::fs::read(&existing).unwrap(), b"something");

    let out = backup("postgres://postgres@127.0.0.1/x", &dir.path().join("pg.db"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("for PostgreSQL use pg_dump"));

    // A destination in a folder that is not there, or under a file.
    let store = format!("sqlite://{}", dir.path().join("x.db").display());
    let nowhere = dir.path().join("backups");
    let out = backup(&store, &nowhere.join("b.db"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "the folder {} does not exist: create it first (mkdir -p {})",
            nowhere.display(),
            nowhere.display()
        )),
        "{err}"
    );
    let out = backup(&store, &existing.join("b.db"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a folder"), "{err}");
    assert!(!nowhere.exists(), "a backup creates no folder");

    let missing = format!("sqlite://{}", dir.path().join("missing.db").display());
    let out = backup(&missing, &dir.path().join("copy.db"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot be read"), "{err}");
    assert!(
        !dir.path().join("missing.db").exists(),
        "a backup creates no store"
    );
}
