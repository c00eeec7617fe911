//! Another client's view of the transport: grpcio, Python's binding of the
//! gRPC core, runs `tests/grpcio/abandon_large_calls.py` against a real
//! server (large calls abandoned at their deadlines, then a small one on
//! the same channel).
//!
//! Needs `python3` with `grpcio` and `grpcio-tools` (`pip install grpcio
//! grpcio-tools`). Without them the test prints one line and passes; with
//! `PUZZLED_TEST_GRPCIO=1` (as CI sets) their absence fails it.

use std::process::Command;

use crate::cancel::ONE_AT_A_TIME;
use crate::helpers::*;

const ENABLE: &str = "PUZZLED_TEST_GRPCIO";

fn grpcio_available() -> bool {
    let found = Command::new("python3")
        .args(["-c", "import grpc, grpc_tools"])
        .output()
        .is_ok_and(|o| o.status.success());
    let required = std::env::var(ENABLE).is_ok_and(|v| v == "1");
    if required && !found {
        panic!(
            "{ENABLE}=1 but python3 cannot import grpc and grpc_tools (pip install grpcio grpcio-tools)"
        );
    }
    if !found {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the grpcio test needs python3 with grpcio and grpcio-tools (pip install grpcio grpcio-tools; {ENABLE}=1 makes their absence an error)"
        );
    }
    found
}

/// With one solve worker, six abandoned 10^6-vertex Solve calls leave the
/// grpcio channel serving: the 3-vertex Solve after them is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_large_calls_leave_a_grpcio_channel_serving() {
    if !grpcio_available() {
        return;
    }
    let _turn = ONE_AT_A_TIME.lock().await;
    let app = app_with(|config| config.solve_workers = Some(1)).await;
    let root = env!("CARGO_MANIFEST_DIR");
    let script = format!("{root}/tests/grpcio/abandon_large_calls.py");
    let proto = format!("{root}/proto");
    let addr = app.addr();
    let run = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .args([&script, &addr, &proto])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let said = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    assert!(
        run.status.success(),
        "{}\n{}",
        said(&run.stdout),
        said(&run.stderr)
    );
    assert_eq!(said(&run.stdout).trim(), "ok");
    app.stop().await;
}
