//! Admission by size: requests hold `vertices + edges` units of one budget
//! while their puzzle-sized work runs; a request larger than the budget, or
//! one arriving when the queue for it is full, gets RESOURCE_EXHAUSTED
//! with a reason naming the budget.

use std::sync::Arc;

use tonic::Code;

use crate::cancel::{ONE_AT_A_TIME, slow_spec};
use crate::helpers::*;

async fn app_with_budget(budget: u64, queue: usize) -> TestApp {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let config = puzzled::config::Config {
        admission_budget: Some(budget),
        admission_queue: queue,
        ..test_config(dir.path())
    };
    spawn_app_with(dir, config).await
}

#[tokio::test]
async fn a_puzzle_larger_than_the_budget_is_refused_and_named() {
    let app = app_with_budget(1_000, 4).await;
    // 900 vertices + 150 edges = 1,050 units.
    let spec = geography(900, &random_graph(900, 150, 1), 0);
    let solve = app
        .client
        .clone()
        .solve(solve_request(spec.clone()))
        .await
        .unwrap_err();
    assert_eq!(solve.code(), Code::ResourceExhausted, "{solve:?}");
    assert_eq!(error_reason(&solve), "ADMISSION_BUDGET_EXCEEDED");
    assert_eq!(
        solve.message(),
        "spec: 1050 vertices + edges is more than this server's admission budget of 1000 \
         (--admission-budget)"
    );
    let create = app
        .client
        .clone()
        .create_puzzle(create_request(spec))
        .await
        .unwrap_err();
    assert_eq!(create.code(), Code::ResourceExhausted);
    assert_eq!(error_reason(&create), "ADMISSION_BUDGET_EXCEEDED");
    assert!(
        create
            .message()
            .starts_with("puzzle.spec: 1050 vertices + edges")
    );
    // Within the budget the same server answers.
    app.client
        .clone()
        .solve(solve_request(geography(3, &[0, 1, 1, 2], 0)))
        .await
        .expect("a small puzzle fits");
    app.stop().await;
}

/// One large solve holds the whole budget: the next request waits for it,
/// the one after finds the queue full; when the large one is cancelled the
/// waiting one is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_past_the_budget_wait_in_a_bounded_queue() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let spec = slow_spec(41);
    let units = u64::from(spec.graph.as_ref().unwrap().vertex_count)
        + spec.graph.as_ref().unwrap().edges.len() as u64 / 2;
    let app = app_with_budget(units, 1).await;
    let mut client = app.client.clone();
    let large = tokio::spawn(async move { client.solve(solve_request(spec)).await });
    app.until_a_solve_runs().await;

    let mut client = app.client.clone();
    let waiting = tokio::spawn(async move {
        client
            .solve(solve_request(geography(3, &[0, 1, 1, 2], 0)))
            .await
    });
    until(|| app.admission_waiting.get() == 1).await;
    let refused = app
        .client
        .clone()
        .solve(solve_request(geography(4, &[0, 1, 1, 2, 2, 3], 0)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(error_reason(&refused), "ADMISSION_QUEUE_FULL");
    assert!(
        refused
            .message()
            .contains(&format!("admission budget of {units}"))
    );

    large.abort();
    let answered = waiting
        .await
        .unwrap()
        .expect("the waiting request is admitted once the budget is free");
    assert!(!answered.into_inner().cached);
    assert_eq!(app.admission_waiting.get(), 0);
    app.stop().await;
}
