//! The `puzzled` binary as the Dockerfile and docker-compose.yml run it:
//! `serve` configured by environment variables, `healthcheck`, and a clean
//! exit on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_puzzled");

#[test]
fn serve_from_env_vars_answers_healthcheck_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("data.db");
    let mut server = Command::new(BIN)
        .arg("serve")
        .env("PUZZLED_LISTEN", "127.0.0.1:0")
        .env("PUZZLED_DATABASE_URL", format!("sqlite://{}", db.display()))
        .env("PUZZLED_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let first = lines.next().expect("a start-up line").unwrap();
    let addr = first
        .split_whitespace()
        .skip_while(|w| *w != "on")
        .nth(1)
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .trim_end_matches(',')
        .to_owned();
    assert!(
        first.contains(&db.display().to_string()),
        "the line names the store: {first}"
    );

    let health = Command::new(BIN)
        .args(["healthcheck", "--addr", &format!("http://{addr}")])
        .output()
        .unwrap();
    assert!(health.status.success(), "{health:?}");
    assert_eq!(String::from_utf8_lossy(&health.stdout).trim(), "SERVING");

    let killed = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = server.wait().unwrap();
    assert!(status.success(), "clean exit on SIGTERM: {status:?}");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.contains("store closed")), "{rest:?}");
    assert!(db.exists());

    let down = Command::new(BIN)
        .args([
            "healthcheck",
            "--addr",
            &format!("http://{addr}"),
            "--timeout-secs",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        !down.status.success(),
        "healthcheck fails when nothing serves"
    );
}

#[test]
fn serve_help_lists_every_flag_and_its_variable() {
    let out = Command::new(BIN)
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for (flag, var) in [
        ("--listen", "PUZZLED_LISTEN"),
        ("--database", "PUZZLED_DATABASE_URL"),
        ("--max-vertices", "PUZZLED_MAX_VERTICES"),
        ("--max-edges", "PUZZLED_MAX_EDGES"),
        ("--max-message-bytes", "PUZZLED_MAX_MESSAGE_BYTES"),
        ("--solve-workers", "PUZZLED_SOLVE_WORKERS"),
        ("--solve-queue", "PUZZLED_SOLVE_QUEUE"),
        ("--cache-bytes", "PUZZLED_CACHE_BYTES"),
        ("--admin-token", "PUZZLED_ADMIN_TOKEN"),
        ("--shutdown-grace-secs", "PUZZLED_SHUTDOWN_GRACE_SECS"),
    ] {
        assert!(help.contains(flag), "{flag} missing from serve --help");
        assert!(help.contains(var), "{var} missing from serve --help");
    }
    assert!(help.contains("127.0.0.1:50051") && help.contains("sqlite://puzzled.db"));
}

/// The flags (not only the variables) configure the server.
#[test]
fn serve_flags_pick_address_and_store() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("flags.db");
    let mut server = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--database"])
        .arg(format!("sqlite://{}", db.display()))
        .env_remove("PUZZLED_LISTEN")
        .env_remove("PUZZLED_DATABASE_URL")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains("listening on 127.0.0.1:"), "{first}");
    assert!(first.contains("flags.db"), "{first}");
    Command::new("kill")
        .args(["-INT", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(server.wait().unwrap().success(), "clean exit on SIGINT");
    assert!(db.exists());
}
