//! Solves that stop: a solve whose callers have all gone is stopped, frees
//! its worker and stores nothing; a caller leaving (deadline or
//! cancellation) never fails another caller waiting for the same solve.
//! (SIGTERM during a long solve is in `binary.rs`.)

use std::time::{Duration, Instant};

use tonic::Code;

use crate::helpers::*;

/// These tests each keep a core busy for seconds and time what happens
/// while a solve runs; run together they would stretch each other's solves
/// past the windows they observe, so they take turns.
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A sparse graph whose solve takes seconds in a test build.
pub fn slow_spec(seed: u64) -> proto::PuzzleSpec {
    let n = 1_500_000;
    geography(n, &random_graph(n, 3_000_000, seed), 0)
}

/// The call ended at its deadline: either the server answered
/// DEADLINE_EXCEEDED or the client's own timer (the same `grpc-timeout`)
/// fired first and tonic reports CANCELLED "Timeout expired"; which one wins
/// is a race on loopback.
fn assert_deadline_passed(status: &tonic::Status) {
    let by_server = status.code() == Code::DeadlineExceeded;
    let by_client = status.code() == Code::Cancelled && status.message() == "Timeout expired";
    assert!(by_server || by_client, "not a deadline: {status:?}");
}

fn with_timeout<T>(message: T, timeout: Duration) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.set_timeout(timeout);
    request
}

async fn verdict_rows(app: &TestApp) -> i64 {
    use sqlx::Connection;
    let mut db = sqlx::SqliteConnection::connect(&app.config.database_url)
        .await
        .unwrap();
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM verdicts")
        .fetch_one(&mut db)
        .await
        .unwrap();
    rows
}

/// A [`solve_timing`] server with one solve worker.
async fn one_worker() -> TestApp {
    app_with(|config| {
        solve_timing(config);
        config.solve_workers = Some(1);
    })
    .await
}

/// The configuration of a server for timing solves of [`slow_spec`]
/// graphs: canonical labelling (seconds for 1.5·10^6 vertices in a debug
/// build) is skipped with a zero budget, so a caller's deadline is spent in
/// the solve, not before it.
fn solve_timing(config: &mut puzzled::config::Config) {
    config.canon_budget_ms = 0;
}

/// Sends a [`slow_spec`] with a deadline that passes while its solve runs,
/// and returns the caller's error once the server has stopped that solve
/// (not seen it to its end) and given its worker back. How long the
/// request takes to reach the solver (encoding, transfer, validation,
/// hashing) and how long the solve takes both depend on the machine's
/// load, so the deadline is found by trial: one that passes before the
/// solve starts (such an attempt never starts a solve) is retried longer;
/// one that the solve beats is retried halfway between when that solve
/// started and when it ended, on a graph of the next seed (the finished
/// one's verdict is cached); and one that passes as the solve ends, so
/// that it finishes before it looks at its cancel handle again, is retried
/// the same way.
/// `first` is the first attempt's graph, [`slow_spec`] of `first_seed`,
/// built before the server for the handshake timeout's sake (see
/// [`a_short_deadline_fails_only_its_own_caller`]).
async fn abandon_a_running_solve(
    app: &TestApp,
    first: proto::PuzzleSpec,
    first_seed: u64,
) -> tonic::Status {
    // Short to start with: with no labelling budget the request reaches the
    // solver quickly, and the solve must still be running at the deadline.
    let mut deadline = Duration::from_secs(3);
    let mut seed = first_seed;
    let mut first = Some(first);
    // On a machine busy with other tests the large request's labelling
    // (on niced threads) may take many times its idle length before a
    // solve starts, hence the doubling and the number of tries.
    for _attempt in 0..10 {
        let mut client = app.client.clone();
        let spec = first.take().unwrap_or_else(|| slow_spec(seed));
        let request = with_timeout(solve_request(spec), deadline);
        let stopped_before = app.solves_stopped.get();
        let sent = Instant::now();
        let mut call = tokio::spawn(async move { client.solve(request).await });
        tokio::select! {
            () = app.until_a_solve_runs() => {
                let started = sent.elapsed();
                match call.await.unwrap() {
                    Err(status) => {
                        // The worker is given back once the solve has
                        // returned, stopped or finished; only a stopped
                        // one is counted.
                        until(|| app.solves_running.get() == 0).await;
                        if app.solves_stopped.get() > stopped_before {
                            return status;
                        }
                        eprintln!("the solve ended just as its {deadline:?} deadline passed; again");
                        deadline = (started + deadline) / 2;
                        seed += 1;
                    }
                    Ok(solution) => {
                        let took = solution
                            .into_inner()
                            .solve_duration
                            .expect("a solve's duration");
                        let took = Duration::new(took.seconds as u64, took.nanos as u32);
                        eprintln!("the solve beat a {deadline:?} deadline ({took:?}); again");
                        deadline = started + took / 2;
                        seed += 1;
                    }
                }
            }
            ended = &mut call => {
                let status = ended.unwrap().expect_err("no solve ran, so the call cannot succeed");
                assert_deadline_passed(&status);
                deadline *= 2;
            }
        }
    }
    panic!("no deadline passed while a solve ran (the last tried: {deadline:?})");
}

/// With one worker, a solve abandoned at its deadline gives the worker back
/// at once: the server stops it (it does not run to its end, which the
/// count of stopped solves tells apart), and the next small Solve is
/// answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_solve_is_stopped_and_frees_its_worker() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let first = slow_spec(31);
    let app = one_worker().await;
    let status = abandon_a_running_solve(&app, first, 31).await;
    assert_deadline_passed(&status);
    assert_eq!(app.solves_running.get(), 0, "the worker is free");
    let small = app
        .client
        .clone()
        .solve(with_timeout(
            solve_request(geography(3, &[0, 1, 1, 2], 0)),
            Duration::from_secs(60),
        ))
        .await
        .expect("the freed worker takes the next solve")
        .into_inner();
    assert!(!small.cached);
    // `the_solve_stops_when_its_last_caller_leaves` checks that a stopped
    // solve stores nothing.
    app.stop().await;
}

/// A patient caller and an impatient one on the same puzzle: the impatient
/// one's deadline fails it alone, and the patient one gets the verdict.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_deadline_fails_only_its_own_caller() {
    let _turn = ONE_AT_A_TIME.lock().await;
    // Built before the server, like every big input here: the test
    // client connects at once, and a connection with no call for longer
    // than the handshake timeout (10 s) is closed under the call that
    // then starts on it.
    let spec = slow_spec(32);
    let app = app_with(solve_timing).await;
    let mut client = app.client.clone();
    let patient_spec = spec.clone();
    let patient = tokio::spawn(async move { client.solve(solve_request(patient_spec)).await });
    until(|| app.solves_running.get() > 0 || patient.is_finished()).await;
    assert!(
        !patient.is_finished(),
        "the patient call ended before its solve was seen running: {:?}",
        patient.await
    );
    let impatient = app
        .client
        .clone()
        .solve(with_timeout(
            solve_request(spec),
            Duration::from_millis(1500),
        ))
        .await
        .expect_err("the impatient caller's deadline passes first");
    assert_deadline_passed(&impatient);
    assert_eq!(
        app.solves_running.get(),
        1,
        "the solve goes on for the patient caller"
    );
    let solution = patient
        .await
        .unwrap()
        .expect("the patient caller gets the verdict")
        .into_inner();
    assert!(!solution.cached, "the patient caller started the solve");
    app.stop().await;
}

/// Two callers share one solve and one of them goes away (its call is
/// cancelled): the other still gets the verdict from that same solve. The
/// solve runs in a task of its own, so which of the two started it makes no
/// difference; they are sent together so both are waiting while it runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_solve_goes_on_when_one_of_its_callers_leaves() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let first = slow_spec(33);
    let app = app_with(solve_timing).await;
    let (mut calls, rows_before) = two_callers_on_one_solve(&app, first, 33).await;
    let staying = calls.pop().unwrap();
    let leaving = calls.pop().unwrap();
    leaving.abort();
    assert!(leaving.await.unwrap_err().is_cancelled());
    until(|| app.callers_waiting.get() == 1).await;
    assert_eq!(app.solves_running.get(), 1, "the shared solve goes on");
    staying
        .await
        .unwrap()
        .expect("the caller that stayed gets the verdict");
    assert_eq!(
        verdict_rows(&app).await,
        rows_before + 1,
        "one solve, one verdict"
    );
    app.stop().await;
}

type SolveCall = tokio::task::JoinHandle<Result<tonic::Response<proto::Solution>, tonic::Status>>;

/// Two identical [`slow_spec`] solves sent at once (`first` the first
/// time, built before the server for the handshake timeout's sake, see
/// [`a_short_deadline_fails_only_its_own_caller`]), returned when both
/// callers wait on the one solve running, with the verdict rows stored
/// before them. The first solve can end before the second request has
/// been decoded and hashed (the engine got faster than the transfer); then
/// both calls are over, no sharing was seen, and the pair is sent again on
/// another graph, at most five times.
async fn two_callers_on_one_solve(
    app: &TestApp,
    first: proto::PuzzleSpec,
    seed: u64,
) -> (Vec<SolveCall>, i64) {
    let mut first = Some(first);
    for attempt in 0..5 {
        let rows_before = verdict_rows(app).await;
        let spec = first
            .take()
            .unwrap_or_else(|| slow_spec(seed + 1000 * attempt));
        let calls: Vec<SolveCall> = (0..2)
            .map(|_| {
                let mut client = app.client.clone();
                let spec = spec.clone();
                tokio::spawn(async move { client.solve(solve_request(spec)).await })
            })
            .collect();
        loop {
            if app.callers_waiting.get() == 2 && app.solves_running.get() == 1 {
                return (calls, rows_before);
            }
            if calls.iter().all(|call| call.is_finished()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    panic!("two identical solves never shared one running solve in five attempts");
}

/// When every caller of a shared solve has gone, the solve stops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_solve_stops_when_its_last_caller_leaves() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let first = slow_spec(34);
    let app = app_with(solve_timing).await;
    let (callers, rows_before) = two_callers_on_one_solve(&app, first, 34).await;
    for caller in &callers {
        caller.abort();
    }
    until(|| app.solves_running.get() == 0).await;
    assert_eq!(app.callers_waiting.get(), 0);
    assert_eq!(
        verdict_rows(&app).await,
        rows_before,
        "a cancelled solve stores nothing"
    );
    app.stop().await;
}

/// Abandoned large calls cost nothing to the other calls on their
/// connection: with one solve worker, six Solve calls of a 10^6-vertex,
/// 3·10^6-edge graph on one channel, each with a 1.5 s deadline, then a
/// 3-vertex Solve on the same channel, which is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_large_calls_leave_their_channel_serving() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let n = 1_000_000;
    let large = geography(n, &random_graph(n, 3_000_000, 53), 0);
    let app = app_with(|config| config.solve_workers = Some(1)).await;
    let mut calls = Vec::new();
    for _ in 0..6 {
        let mut client = app.client.clone();
        let request = with_timeout(solve_request(large.clone()), Duration::from_millis(1500));
        calls.push(tokio::spawn(async move { client.solve(request).await }));
    }
    for call in calls {
        if let Err(status) = call.await.unwrap() {
            assert_ne!(status.code(), Code::Unavailable, "{status:?}");
        }
    }
    let small = app
        .client
        .clone()
        .solve(solve_request(geography(3, &[0, 1, 1, 2], 0)))
        .await
        .expect("the channel still serves");
    assert!(!small.into_inner().canonical_hash.is_empty());
    app.stop().await;
}
