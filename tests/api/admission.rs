//! Admission by size: requests hold `vertices + edges` units of one budget
//! while their puzzle-sized work runs; a request larger than the budget, or
//! one arriving when the queue for it is full, gets RESOURCE_EXHAUSTED
//! with a reason naming the budget.

use tonic::Code;

use crate::cancel::{ONE_AT_A_TIME, slow_spec};
use crate::helpers::*;

async fn app_with_budget(budget: u64, queue: usize) -> TestApp {
    app_with(|config| {
        config.admission_budget = Some(budget);
        config.admission_queue = queue;
    })
    .await
}

/// The vertices + edges `spec` is admitted with.
fn units_of(spec: &proto::PuzzleSpec) -> u64 {
    let graph = spec.graph.as_ref().unwrap();
    u64::from(graph.vertex_count) + graph.edges.len() as u64 / 2
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
    let units = units_of(&spec);
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

/// GetPuzzle and ListPuzzles in the FULL view read a large puzzle's edges
/// only once its size is admitted: with the budget held by a solve and no
/// room to queue, both are refused with ADMISSION_QUEUE_FULL, while the
/// BASIC view and a small puzzle's FULL view are answered at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_views_of_a_large_puzzle_are_admitted_by_size() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let spec = slow_spec(43);
    let units = units_of(&spec);
    let app = app_with_budget(units, 0).await;
    let small = app.create(path(3)).await;
    // 6,000 vertices + 5,999 edges: past what is read without admission.
    let large = app.create(path(6_000)).await;

    let mut client = app.client.clone();
    let solving = tokio::spawn(async move { client.solve(solve_request(spec)).await });
    app.until_a_solve_runs().await;

    let get = |name: &str, view: proto::PuzzleView| {
        let mut client = app.client.clone();
        let request = proto::GetPuzzleRequest {
            name: name.to_owned(),
            view: view as i32,
        };
        async move { client.get_puzzle(request).await }
    };
    let refused = get(&large.name, proto::PuzzleView::Full).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(error_reason(&refused), "ADMISSION_QUEUE_FULL");
    let listed = app
        .client
        .clone()
        .list_puzzles(proto::ListPuzzlesRequest {
            view: proto::PuzzleView::Full as i32,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(error_reason(&listed), "ADMISSION_QUEUE_FULL", "{listed:?}");

    let summary = get(&large.name, proto::PuzzleView::Basic).await.unwrap();
    assert_eq!(summary.into_inner().edge_count, 5_999);
    let whole = get(&small.name, proto::PuzzleView::Full).await.unwrap();
    assert_eq!(
        whole.into_inner().spec.unwrap().graph.unwrap().edges.len(),
        4
    );

    // Once the solve is gone its units come back and the large puzzle is
    // read whole.
    solving.abort();
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let whole = loop {
        match get(&large.name, proto::PuzzleView::Full).await {
            Err(status) if error_reason(&status) == "ADMISSION_QUEUE_FULL" => {
                assert!(
                    std::time::Instant::now() < give_up,
                    "the budget never came back"
                );
                tokio::time::sleep(std::time::Duration::from_millis(20)).await
            }
            answer => break answer.unwrap().into_inner(),
        }
    };
    assert_eq!(whole.spec.unwrap().graph.unwrap().edges.len(), 2 * 5_999);
    app.stop().await;
}

/// The queue is bounded in bytes as well as in places: a waiting request
/// holds its decoded message, so once the waiting requests hold a
/// budget's worth of edge lists (8 bytes a unit), the next request that
/// carries edges is refused although places are left, while one without
/// edges still waits its turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_holds_at_most_a_budget_of_edge_lists() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let spec = slow_spec(47);
    let units = units_of(&spec);
    // Made before the solves start: a graph this large is slow to make in
    // a debug build, time in which the running solve could end and empty
    // the queue.
    let n = 1_000_000;
    let too_much = solve_request(geography(n, &random_graph(n, 2_000_000, 5), 0));
    let app = app_with_budget(units, 256).await;
    let mut running = Vec::new();
    for _ in 0..2 {
        let mut client = app.client.clone();
        let spec = spec.clone();
        running.push(tokio::spawn(async move {
            client.solve(solve_request(spec)).await
        }));
    }
    app.until_a_solve_runs().await;
    until(|| app.admission_waiting.get() == 1).await;

    // The waiting copy holds at least 24 MB of edges (3,000,000 of them):
    // 2,000,000 more (16 MB) pass the 8 bytes a unit of the budget (36 MB).
    let refused = app.client.clone().solve(too_much).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(error_reason(&refused), "ADMISSION_QUEUE_FULL");
    let room = units * 8;
    assert!(
        refused.message().starts_with(&format!(
            "the admission budget of {units} vertices + edges is in use and the requests \
             waiting for it already hold "
        )) && refused.message().ends_with(&format!(
            " of the {room} bytes of messages they may hold; try again later"
        )),
        "{}",
        refused.message()
    );
    // An edgeless puzzle holds nothing while it waits.
    let mut client = app.client.clone();
    let edgeless =
        tokio::spawn(async move { client.solve(solve_request(geography(1_000, &[], 0))).await });
    until(|| app.admission_waiting.get() == 2).await;
    edgeless.abort();
    for call in running {
        call.abort();
    }
    app.stop().await;
}
