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
