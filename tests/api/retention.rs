//! Verdict retention and the stored-puzzle path: the verdicts table stays
//! within its budget however many inline puzzles are solved, keeps the
//! verdicts of stored puzzles, serves only verdicts of this solver version,
//! and answers SolvePuzzle from the stored hash without reading the edges.

use sqlx::Connection;
use tonic::Code;

use crate::helpers::*;

async fn db(app: &TestApp) -> sqlx::SqliteConnection {
    sqlx::SqliteConnection::connect(&app.config.database_url)
        .await
        .unwrap()
}

async fn scalar(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&mut db(app).await)
        .await
        .unwrap()
}

async fn execute(app: &TestApp, sql: &'static str) {
    sqlx::query(sql).execute(&mut db(app).await).await.unwrap();
}

/// Forty distinct inline solves against a budget of a few verdicts: the
/// table never passes the budget, the oldest verdicts are gone, the
/// newest and the stored puzzle's verdict are still served from the store.
#[tokio::test]
async fn inline_solves_past_the_budget_evict_the_oldest_and_keep_stored_puzzles() {
    let budget = 4_000;
    let app = app_with(|config| config.verdict_store_bytes = budget).await;
    let stored = app.create(path(3)).await;
    assert!(!app.solve_stored(&stored.name).await.unwrap().cached);
    for n in 4..44 {
        app.solve(path(n)).await;
        let used = scalar(&app, "SELECT total_bytes FROM verdict_usage").await;
        assert!(
            used as u64 <= budget,
            "{used} bytes of verdicts after path({n})"
        );
    }
    let rows = scalar(&app, "SELECT COUNT(*) FROM verdicts").await;
    assert!((2..20).contains(&rows), "{rows} verdict rows");
    let app = app.restart().await;
    assert!(!app.solve(path(4)).await.cached, "the oldest was evicted");
    assert!(app.solve(path(43)).await.cached, "the newest is kept");
    assert!(
        app.solve_stored(&stored.name).await.unwrap().cached,
        "a stored puzzle's verdict is kept"
    );
    app.stop().await;
}

/// A verdict stored by another solver version is not served: it is solved
/// again and the row then carries this version.
#[tokio::test]
async fn a_verdict_of_another_solver_version_is_recomputed() {
    let app = spawn_app().await;
    let first = app.solve(path(5)).await;
    assert!(!first.cached);
    let app = app.restart().await;
    assert!(app.solve(path(5)).await.cached);
    execute(
        &app,
        "UPDATE verdicts SET solver_version = 'puzzled-solver/0.0.1'",
    )
    .await;
    let app = app.restart().await;
    let again = app.solve(path(5)).await;
    assert!(!again.cached, "an old solver's verdict is a miss");
    assert_eq!(again.solver_version, first.solver_version);
    let versions = scalar(
        &app,
        "SELECT COUNT(*) FROM verdicts WHERE solver_version = 'puzzled-solver/0.0.1'",
    )
    .await;
    assert_eq!(versions, 0, "the fresh verdict replaced the old row");
    app.stop().await;
}

/// SolvePuzzle finds a stored verdict by the puzzle's stored hash. Under
/// the label-keeping hash (here forced by a zero canonical labelling
/// budget) a hit needs nothing else: with its edge list made unreadable it
/// is still answered from the store, and only when the verdict is gone (so
/// it must solve) does it read the edges and report the damage. Under
/// traces-v4 the edges are read on every call, to answer in the puzzle's
/// own labels: the damage is reported on the first call.
#[tokio::test]
async fn solve_puzzle_answers_from_the_stored_hash_without_reading_edges() {
    let app = app_with(|config| config.canon_budget_ms = 0).await;
    let stored = app
        .create(geography(5, &[0, 1, 1, 2, 2, 3, 3, 4, 4, 0], 0))
        .await;
    assert_eq!(stored.canonicaliser, "sorted-edges-v1");
    let solved = app.solve_stored(&stored.name).await.unwrap();
    assert!(!solved.cached);
    assert_eq!(solved.canonical_hash, stored.canonical_hash);
    // Five self-loops (0, 0): the same length, but no longer a valid graph.
    execute(&app, "UPDATE puzzles SET edges = zeroblob(40)").await;
    let app = app.restart().await;
    let hit = app.solve_stored(&stored.name).await.unwrap();
    assert!(hit.cached);
    assert_eq!(hit.winner, solved.winner);
    assert_eq!(hit.detail, solved.detail);

    execute(&app, "DELETE FROM verdicts").await;
    let app = app.restart().await;
    let status = app.solve_stored(&stored.name).await.unwrap_err();
    assert_eq!(status.code(), Code::Internal, "{status:?}");
    assert_eq!(
        status.message(),
        "the stored puzzle is invalid; see the server log"
    );
    app.stop().await;

    let app = spawn_app().await;
    let stored = app.create(path(6)).await;
    assert_eq!(stored.canonicaliser, "traces-v4");
    app.solve_stored(&stored.name).await.unwrap();
    // The file is the server's own: a change made behind its back is seen
    // once small puzzles kept in memory are gone, after a restart.
    execute(&app, "UPDATE puzzles SET edges = zeroblob(40)").await;
    let app = app.restart().await;
    let status = app.solve_stored(&stored.name).await.unwrap_err();
    assert_eq!(status.code(), Code::Internal, "{status:?}");
    app.stop().await;
}
