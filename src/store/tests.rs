//! The store's tests. The shared suite (`on_both_backends!`) runs every
//! behaviour a client relies on against SQLite and against PostgreSQL;
//! the PostgreSQL half needs `PUZZLED_TEST_POSTGRES` (a URL such as
//! `postgres://postgres@127.0.0.1:5432/test`) and is skipped with one line
//! without it. Each test gets a database of its own: a fresh SQLite file,
//! or a fresh PostgreSQL schema dropped when the test ends.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use sqlx::{Connection as _, Row as _};

use super::db::{Backend, Clock, micros};
use super::puzzles::list_sql;
use super::*;
use crate::puzzle::{Difficulty, Evidence, Game, Move, Verdict, WinningMoves};
use crate::solver::Player;
use crate::solver::search_geography::{Certificate, Strategy};

/// The environment variable naming the PostgreSQL database tests may use.
const POSTGRES_ENV: &str = "PUZZLED_TEST_POSTGRES";

/// A database of one test's own.
struct TestDb {
    url: String,
    place: Place,
}

enum Place {
    /// Kept for the file's lifetime: the directory goes with it.
    File(#[allow(dead_code)] tempfile::TempDir),
    /// A schema in the database at `admin_url`, reached through `url`'s
    /// `search_path`.
    Schema { admin_url: String, schema: String },
}

impl TestDb {
    fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().unwrap();
        TestDb {
            url: format!("sqlite://{}", dir.path().join("t.db").display()),
            place: Place::File(dir),
        }
    }

    /// A fresh schema in the database of `PUZZLED_TEST_POSTGRES`; `None`
    /// (with one line on stderr for the whole run) when it is not set.
    async fn postgres() -> Option<TestDb> {
        let Ok(admin_url) = std::env::var(POSTGRES_ENV) else {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| {
                // Straight to stderr, past the test harness's capture.
                use std::io::Write as _;
                let _ = writeln!(
                    std::io::stderr(),
                    "skipped: the store suite on PostgreSQL needs {POSTGRES_ENV}=postgres://USER@HOST:PORT/DATABASE"
                );
            });
            return None;
        };
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let schema = format!(
            "puzzled_test_{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            micros(SystemTime::now())
        );
        let mut admin = sqlx::PgConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|e| panic!("{POSTGRES_ENV}={admin_url}: {e}"));
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
            .execute(&mut admin)
            .await
            .unwrap();
        admin.close().await.unwrap();
        let separator = if admin_url.contains('?') { '&' } else { '?' };
        Some(TestDb {
            url: format!("{admin_url}{separator}options[search_path]={schema}"),
            place: Place::Schema { admin_url, schema },
        })
    }

    async fn open(&self) -> Store {
        Store::open(&self.url).await.unwrap()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Place::Schema { admin_url, schema } = &self.place else {
            return;
        };
        let (admin_url, schema) = (admin_url.clone(), schema.clone());
        // Drop runs inside the test's runtime, which cannot block on a
        // future: a thread of its own drops the schema.
        let dropped = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async {
                    let mut admin = sqlx::PgConnection::connect(&admin_url).await?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "DROP SCHEMA IF EXISTS {schema} CASCADE"
                    )))
                    .execute(&mut admin)
                    .await?;
                    admin.close().await
                })
        })
        .join();
        if let Ok(Err(e)) = dropped {
            eprintln!("could not drop test schema: {e}");
        }
    }
}

/// Runs each named `async fn(TestDb)` twice: as `NAME::sqlite` and as
/// `NAME::postgres`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(super::TestDb::sqlite()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(db) = super::TestDb::postgres().await {
                    super::$name(db).await;
                }
            }
        }
    )*};
}

on_both_backends!(
    migrations_are_idempotent,
    a_batch_read_gives_each_puzzle_whole_and_leaves_out_the_deleted,
    summaries_count_edges_without_reading_them,
    a_deleted_puzzle_is_gone_and_a_second_delete_is_not_found,
    a_request_id_returns_the_first_puzzle_and_refuses_another_payload,
    replicas_racing_with_one_request_id_store_one_puzzle,
    page_tokens_stay_valid_across_creates_and_deletes,
    listing_filters_by_game_and_by_canonical_hash,
    duplicates_name_the_oldest_copy,
    rehashing_moves_a_puzzle_to_its_new_hash_once,
    winning_moves_keep_their_game_and_their_column_format,
    the_search_games_store_arcs_and_certificates,
    a_rated_puzzle_keeps_its_difficulty_in_every_read,
    verdicts_past_the_budget_are_evicted_least_recently_used_first,
    a_read_records_its_use_without_writing_it,
    a_verdict_of_another_solver_version_or_shape_is_a_miss,
    a_verdict_larger_than_the_budget_is_not_stored,
    the_usage_counter_follows_every_verdict_change,
    concurrent_verdict_writes_all_succeed,
    a_solve_claim_is_held_by_one_server_until_released_or_expired,
    stored_winners_come_from_verdicts_of_the_solver_and_shape,
    repeated_reads_follow_every_write,
    unreadable_rows_are_reported_as_corrupt,
    a_create_is_not_undone_by_a_delete_racing_it,
    a_full_pool_makes_operations_busy_until_a_connection_frees,
);

fn puzzle<'a>(game: Game, edges: &'a [u32], canonical_hash: &'a str) -> NewPuzzle<'a> {
    NewPuzzle {
        game,
        vertex_count: edges.iter().max().map_or(1, |&v| u64::from(v) + 1),
        edges,
        start: 0,
        black: None,
        white: None,
        title: "",
        author: "",
        numbered_from: 0,
        canonical_hash,
        canonical_labels: None,
        request_id: None,
        difficulty: None,
    }
}

async fn a_rated_puzzle_keeps_its_difficulty_in_every_read(db: TestDb) {
    let store = db.open().await;
    let rated = Difficulty {
        only_move_depth: 3,
        losing_first_moves: 4,
        first_move_count: 5,
        margin: Some(-2),
    };
    let tree = store
        .create_puzzle(NewPuzzle {
            difficulty: Some(rated),
            ..puzzle(Game::TreePaint, &[0, 1, 1, 2], "t")
        })
        .await
        .unwrap();
    let unrated = store
        .create_puzzle(puzzle(Game::Geography, &[0, 1], "g"))
        .await
        .unwrap();
    assert_eq!(tree.difficulty, Some(rated));
    assert_eq!(unrated.difficulty, None);
    assert_eq!(
        store.get_puzzle(&tree.id).await.unwrap().difficulty,
        Some(rated)
    );
    let summary = store.get_puzzle_summary(&tree.id).await.unwrap();
    assert_eq!(summary.difficulty, Some(rated));
    let page = store
        .list_puzzles(ListFilter::default(), None, 10)
        .await
        .unwrap();
    let listed: Vec<_> = page.puzzles.iter().map(|p| p.difficulty).collect();
    assert_eq!(listed, [None, Some(rated)]);
}

async fn a_batch_read_gives_each_puzzle_whole_and_leaves_out_the_deleted(db: TestDb) {
    let store = db.open().await;
    let path = store
        .create_puzzle(puzzle(Game::Geography, &[0, 1, 1, 2], "a"))
        .await
        .unwrap();
    let tree = store
        .create_puzzle(NewPuzzle {
            difficulty: Some(Difficulty {
                only_move_depth: 1,
                losing_first_moves: 1,
                first_move_count: 2,
                margin: Some(1),
            }),
            ..puzzle(Game::TreePaint, &[0, 1, 1, 2, 1, 3], "b")
        })
        .await
        .unwrap();
    let gone = store
        .create_puzzle(puzzle(Game::Geography, &[0, 1], "c"))
        .await
        .unwrap();
    store.delete_puzzle(&gone.id).await.unwrap();
    let read = store
        .get_puzzles(&[&path.id, &gone.id, &tree.id, "0123456789abcdef0123"])
        .await
        .unwrap();
    assert_eq!(read.len(), 2);
    for stored in [&path, &tree] {
        assert_eq!(
            &read[&stored.id],
            &store.get_puzzle(&stored.id).await.unwrap()
        );
    }
    assert_eq!(read[&tree.id].spec.edges, [0, 1, 1, 2, 1, 3]);
    assert!(store.get_puzzles(&[]).await.unwrap().is_empty());
}

fn verdict(version: &str) -> Verdict {
    Verdict {
        winner: Player::First,
        evidence: Evidence::TreePaint {
            black_count: 2,
            white_count: 1,
            winning_move: Some(1),
        },
        winning_moves: None,
        solver_version: version.into(),
        solve_time: SystemTime::now(),
        solve_duration: Duration::from_millis(1),
    }
}

fn key(hash: &str) -> VerdictKey<'_> {
    VerdictKey {
        canonical_hash: hash,
        options: "",
        vertex_count: 3,
        edge_count: 2,
        solver_version: "v1",
    }
}

async fn store_a_puzzle(store: &Store, hash: &str) -> PuzzleRecord {
    store
        .create_puzzle(puzzle(Game::TreePaint, &[0, 1, 1, 2], hash))
        .await
        .unwrap()
}

fn ids(page: &Page) -> Vec<String> {
    page.puzzles.iter().map(|p| p.id.clone()).collect()
}

async fn migrations_are_idempotent(db: TestDb) {
    let first = db.open().await;
    let created = store_a_puzzle(&first, "h").await;
    first.close().await;
    let again = db.open().await;
    assert_eq!(again.get_puzzle(&created.id).await.unwrap(), created);
}

/// Summaries carry the edge count without the edge list; the edges are
/// read on their own, and are gone with their puzzle.
async fn summaries_count_edges_without_reading_them(db: TestDb) {
    let store = db.open().await;
    let edges = [0, 1, 1, 2, 2, 3];
    let created = store
        .create_puzzle(NewPuzzle {
            title: "path",
            author: "someone",
            numbered_from: 1,
            canonical_labels: Some(&[3, 2, 1, 0]),
            ..puzzle(Game::Geography, &edges, "h")
        })
        .await
        .unwrap();
    assert!(is_well_formed_id(&created.id));
    assert_eq!(created.edge_count, 3);
    assert_eq!(created.spec.edges, edges);
    assert_eq!(created.spec.title, "path");
    assert_eq!(created.spec.author, "someone");
    assert_eq!(created.spec.numbered_from, 1);
    assert_eq!(created.canonical_labels.as_deref(), Some(&[3, 2, 1, 0][..]));
    let summary = store.get_puzzle_summary(&created.id).await.unwrap();
    let listed = store
        .list_puzzles(ListFilter::default(), None, 10)
        .await
        .unwrap()
        .puzzles;
    for record in [&summary, &listed[0]] {
        assert_eq!(record.edge_count, 3);
        assert!(record.spec.edges.is_empty());
        assert_eq!(record.spec.vertex_count, 4);
        assert_eq!(record.spec.numbered_from, 1);
        assert_eq!(record.create_time, created.create_time);
    }
    assert_eq!(store.get_puzzle(&created.id).await.unwrap(), created);
}

async fn a_deleted_puzzle_is_gone_and_a_second_delete_is_not_found(db: TestDb) {
    let store = db.open().await;
    let created = store_a_puzzle(&store, "h").await;
    store.delete_puzzle(&created.id).await.unwrap();
    for error in [
        store.get_puzzle(&created.id).await.unwrap_err(),
        store.get_puzzle_summary(&created.id).await.unwrap_err(),
        store.delete_puzzle(&created.id).await.unwrap_err(),
    ] {
        assert!(
            matches!(&error, StoreError::NotFound(id) if *id == created.id),
            "{error:?}"
        );
    }
}

async fn a_request_id_returns_the_first_puzzle_and_refuses_another_payload(db: TestDb) {
    let store = db.open().await;
    let with_id = |start| NewPuzzle {
        start,
        request_id: Some("retry-me"),
        ..puzzle(Game::Geography, &[0, 1, 1, 2], "h")
    };
    let first = store.create_or_replay(with_id(0)).await.unwrap();
    assert!(!first.replayed);
    let first = first.record;
    let retried = store.create_or_replay(with_id(0)).await.unwrap();
    assert!(retried.replayed);
    assert_eq!(retried.record, first);
    let error = store.create_puzzle(with_id(1)).await.unwrap_err();
    assert!(
        matches!(&error, StoreError::RequestIdReused(id) if id == "retry-me"),
        "{error:?}"
    );
    let all = store
        .list_puzzles(ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(ids(&all), [first.id]);
}

/// Two stores on one database stand for two replicas: the same create,
/// sent to both at once again and again, stores each puzzle once, and both
/// answer with its id.
async fn replicas_racing_with_one_request_id_store_one_puzzle(db: TestDb) {
    let (one, other) = (db.open().await, db.open().await);
    for round in 0..20 {
        let request_id = format!("race-{round}");
        let create = |store: Store, request_id: String| async move {
            store
                .create_puzzle(NewPuzzle {
                    request_id: Some(&request_id),
                    ..puzzle(Game::Geography, &[0, 1], "h")
                })
                .await
                .unwrap()
        };
        let (a, b) = tokio::join!(
            tokio::spawn(create(one.clone(), request_id.clone())),
            tokio::spawn(create(other.clone(), request_id.clone())),
        );
        assert_eq!(a.unwrap().id, b.unwrap().id, "round {round}");
    }
    let stored = one
        .list_puzzles(ListFilter::default(), None, 100)
        .await
        .unwrap();
    assert_eq!(stored.puzzles.len(), 20);
}

/// A page token is the `seq` to continue below: creates after the first
/// page and deletes of rows on either side of it neither repeat nor skip
/// a puzzle that is still there.
async fn page_tokens_stay_valid_across_creates_and_deletes(db: TestDb) {
    let store = db.open().await;
    let mut created = Vec::new();
    for _ in 0..7 {
        created.push(store_a_puzzle(&store, "h").await.id);
    }
    let newest_first: Vec<String> = created.iter().rev().cloned().collect();
    let first = store
        .list_puzzles(ListFilter::default(), None, 3)
        .await
        .unwrap();
    assert_eq!(ids(&first), newest_first[..3]);
    let token = first.next_before.expect("more pages");
    store_a_puzzle(&store, "h").await;
    store.delete_puzzle(&newest_first[2]).await.unwrap();
    store.delete_puzzle(&newest_first[4]).await.unwrap();
    let second = store
        .list_puzzles(ListFilter::default(), Some(token), 3)
        .await
        .unwrap();
    assert_eq!(
        ids(&second),
        [newest_first[3].as_str(), &newest_first[5], &newest_first[6]]
    );
    assert_eq!(second.next_before, None);
}

async fn listing_filters_by_game_and_by_canonical_hash(db: TestDb) {
    let store = db.open().await;
    let tree = store_a_puzzle(&store, "a").await;
    let geography = store
        .create_puzzle(puzzle(Game::Geography, &[0, 1], "a"))
        .await
        .unwrap();
    let other = store
        .create_puzzle(puzzle(Game::Geography, &[0, 1], "b"))
        .await
        .unwrap();
    let list = async |filter| ids(&store.list_puzzles(filter, None, 10).await.unwrap());
    assert_eq!(
        list(ListFilter {
            game: Some(Game::Geography),
            canonical_hash: None
        })
        .await,
        [other.id.as_str(), &geography.id]
    );
    assert_eq!(
        list(ListFilter {
            game: None,
            canonical_hash: Some("a")
        })
        .await,
        [geography.id.as_str(), &tree.id]
    );
    assert_eq!(
        list(ListFilter {
            game: Some(Game::Geography),
            canonical_hash: Some("a")
        })
        .await,
        [geography.id.as_str()]
    );
    assert!(
        list(ListFilter {
            game: Some(Game::BipartiteEdge),
            canonical_hash: None
        })
        .await
        .is_empty()
    );
}

async fn duplicates_name_the_oldest_copy(db: TestDb) {
    let store = db.open().await;
    let original = store_a_puzzle(&store, "same").await;
    store.get_puzzle(&original.id).await.unwrap();
    let copy = store_a_puzzle(&store, "same").await;
    let another = store_a_puzzle(&store, "same").await;
    let unrelated = store_a_puzzle(&store, "other").await;
    assert_eq!(original.duplicate_of, None);
    assert_eq!(copy.duplicate_of.as_ref(), Some(&original.id));
    assert_eq!(another.duplicate_of.as_ref(), Some(&original.id));
    assert_eq!(unrelated.duplicate_of, None);
    // Read whole first, so that a store that keeps small puzzles in
    // memory has this one kept when the original goes.
    let whole = store.get_puzzle(&another.id).await.unwrap();
    assert_eq!(whole.duplicate_of.as_ref(), Some(&original.id));
    store.delete_puzzle(&original.id).await.unwrap();
    let read = store.get_puzzle_summary(&another.id).await.unwrap();
    assert_eq!(read.duplicate_of.as_ref(), Some(&copy.id));
    let whole = store.get_puzzle(&another.id).await.unwrap();
    assert_eq!(whole.duplicate_of.as_ref(), Some(&copy.id));
    assert!(matches!(
        store.get_puzzle(&original.id).await,
        Err(StoreError::NotFound(_))
    ));
}

async fn rehashing_moves_a_puzzle_to_its_new_hash_once(db: TestDb) {
    let store = db.open().await;
    let older = store_a_puzzle(&store, "sorted-edges-v1:x").await;
    let newer = store_a_puzzle(&store, "sorted-edges-v1:y").await;
    assert!(store.puzzles_to_rehash(10).await.unwrap().is_empty());
    sqlx::query("UPDATE puzzles SET rehash_pending = 1")
        .execute(&store.pool)
        .await
        .unwrap();
    assert_eq!(
        store.puzzles_to_rehash(10).await.unwrap(),
        [older.id.as_str(), &newer.id]
    );
    assert_eq!(
        store.puzzles_to_rehash(1).await.unwrap(),
        [older.id.as_str()]
    );
    store
        .set_canonical_hash(
            &older.id,
            "sorted-edges-v1:x",
            "traces-v3:x",
            Some(&[2, 1, 0]),
        )
        .await
        .unwrap();
    // A hash that changed meanwhile is left alone (still pending).
    store
        .set_canonical_hash(&newer.id, "sorted-edges-v1:stale", "traces-v3:y", None)
        .await
        .unwrap();
    assert_eq!(
        store.puzzles_to_rehash(10).await.unwrap(),
        [newer.id.as_str()]
    );
    let rehashed = store.get_puzzle(&older.id).await.unwrap();
    assert_eq!(rehashed.canonical_hash, "traces-v3:x");
    assert_eq!(rehashed.canonical_labels.as_deref(), Some(&[2, 1, 0][..]));
    assert_eq!(
        store.get_puzzle(&newer.id).await.unwrap().canonical_hash,
        "sorted-edges-v1:y"
    );
}

/// A directed game's puzzle keeps its arcs as given (an arc and its
/// reverse both), past the games' check constraint of the first
/// migrations; its verdict keeps the strategy certificate, or the reason
/// it was left out.
async fn the_search_games_store_arcs_and_certificates(db: TestDb) {
    let store = db.open().await;
    let arcs = [0, 1, 1, 0, 1, 2];
    let created = store
        .create_puzzle(puzzle(Game::DirectedEdgeGeography, &arcs, "d"))
        .await
        .unwrap();
    let read = store.get_puzzle(&created.id).await.unwrap();
    assert_eq!(read.spec.game, Game::DirectedEdgeGeography);
    assert_eq!(read.spec.edges, arcs);
    let listed = store
        .list_puzzles(
            ListFilter {
                game: Some(Game::DirectedEdgeGeography),
                ..ListFilter::default()
            },
            None,
            10,
        )
        .await
        .unwrap();
    assert_eq!(ids(&listed), vec![created.id.clone()]);
    for certificate in [
        Certificate::Strategy(Strategy {
            moves: vec![0, 1, 0],
            replies: vec![1, 1, 0],
        }),
        Certificate::Omitted("the winner's strategy has more than 10 positions".into()),
    ] {
        let mut searched = verdict("v1");
        searched.evidence = Evidence::Search {
            states: 7,
            certificate,
        };
        searched.winning_moves = Some(WinningMoves::complete_list(vec![Move::Geography(1)]));
        store.put_verdict(key("d"), &searched).await.unwrap();
        let back = store.get_verdict(key("d")).await.unwrap().unwrap();
        assert_eq!(back.evidence, searched.evidence);
        assert_eq!(back.winning_moves, searched.winning_moves);
    }
}

/// Winning moves come back as the moves of the verdict's game, from a
/// column whose format is the one rows were written in before the move
/// type was shared with the solvers.
async fn winning_moves_keep_their_game_and_their_column_format(db: TestDb) {
    let store = db.open().await;
    let mut painted = verdict("v1");
    painted.winning_moves = Some(WinningMoves::complete_list(vec![Move::Paint(1)]));
    let mut geography = verdict("v1");
    geography.evidence = Evidence::Geography {
        matching: vec![(0, 1)],
        barrier: vec![],
        start_barrier: Some(vec![]),
        second_player_starts: None,
    };
    geography.winning_moves = Some(WinningMoves::complete_list(vec![Move::Geography(1)]));
    for (hash, written) in [("paint", &painted), ("geo", &geography)] {
        store.put_verdict(key(hash), written).await.unwrap();
        let read = store.get_verdict(key(hash)).await.unwrap().unwrap();
        assert_eq!(read.winning_moves, written.winning_moves);
        assert_eq!(read.evidence, written.evidence);
        assert_eq!(read.solve_duration, written.solve_duration);
    }
    let column: String =
        sqlx::query_scalar("SELECT winning_moves FROM verdicts WHERE canonical_hash = 'geo'")
            .fetch_one(&store.pool)
            .await
            .unwrap();
    assert_eq!(
        column,
        r#"{"moves":[{"vertex":1}],"unique":true,"count":1,"complete":true}"#
    );
}

/// Past the budget the least recently used verdicts go first, a read
/// counts as a use, and the verdicts of stored puzzles stay. The store
/// reads a clock the test moves a millisecond between uses, so that every
/// use has a time of its own.
async fn verdicts_past_the_budget_are_evicted_least_recently_used_first(db: TestDb) {
    let clock = Clock::held();
    let unbounded = db.open().await.with_clock(clock.clone());
    unbounded
        .put_verdict(key("h00"), &verdict("v1"))
        .await
        .unwrap();
    let one_row = unbounded.verdict_bytes_used().await.unwrap();
    let store = unbounded.retain_verdict_bytes(5 * one_row);
    store_a_puzzle(&store, "h00").await;
    let hashes: Vec<String> = (0..12).map(|i| format!("h{i:02}")).collect();
    for (i, hash) in hashes.iter().enumerate() {
        assert_eq!(
            store.put_verdict(key(hash), &verdict("v1")).await.unwrap(),
            Retained::Stored
        );
        assert!(store.verdict_bytes_used().await.unwrap() <= 5 * one_row);
        if i == 4 {
            // h01 is used again: h02 is now the least recently used.
            clock.advance(Duration::from_millis(1));
            assert!(store.get_verdict(key("h01")).await.unwrap().is_some());
        }
        clock.advance(Duration::from_millis(1));
    }
    let mut kept = Vec::new();
    for hash in &hashes {
        if store.get_verdict(key(hash)).await.unwrap().is_some() {
            kept.push(hash.as_str());
        }
    }
    // h00 is a stored puzzle's; then the four most recently used.
    assert_eq!(kept, ["h00", "h08", "h09", "h10", "h11"]);
}

/// A verdict's read is written behind: the row is not touched by the
/// read, so reads never wait for the write lock, and the use reaches it
/// when the uses are written (at most once per verdict per interval).
async fn a_read_records_its_use_without_writing_it(db: TestDb) {
    let clock = Clock::held();
    let store = db.open().await.with_clock(clock.clone());
    store.put_verdict(key("h"), &verdict("v1")).await.unwrap();
    let last_used = || async {
        let used: i64 =
            sqlx::query_scalar("SELECT last_used_us FROM verdicts WHERE canonical_hash = 'h'")
                .fetch_one(&store.pool)
                .await
                .unwrap();
        used
    };
    let stored = last_used().await;
    for _ in 0..3 {
        clock.advance(Duration::from_millis(1));
        assert!(store.get_verdict(key("h")).await.unwrap().is_some());
    }
    assert_eq!(last_used().await, stored);
    store.write_verdict_uses().await;
    assert_eq!(last_used().await, stored + 3000);
    // Nothing left to write.
    store.write_verdict_uses().await;
    assert_eq!(last_used().await, stored + 3000);
}

async fn a_verdict_of_another_solver_version_or_shape_is_a_miss(db: TestDb) {
    let store = db.open().await;
    store.put_verdict(key("h"), &verdict("v1")).await.unwrap();
    assert!(store.get_verdict(key("h")).await.unwrap().is_some());
    let newer = VerdictKey {
        solver_version: "v2",
        ..key("h")
    };
    assert!(store.get_verdict(newer).await.unwrap().is_none());
    let other_shape = VerdictKey {
        edge_count: 3,
        ..key("h")
    };
    assert!(store.get_verdict(other_shape).await.unwrap().is_none());
    // The fresh verdict replaces the old one and the usage follows.
    let before = store.verdict_bytes_used().await.unwrap();
    store.put_verdict(newer, &verdict("v2")).await.unwrap();
    assert_eq!(
        store
            .get_verdict(newer)
            .await
            .unwrap()
            .unwrap()
            .solver_version,
        "v2"
    );
    assert_eq!(store.verdict_bytes_used().await.unwrap(), before);
}

async fn a_verdict_larger_than_the_budget_is_not_stored(db: TestDb) {
    let store = db.open().await.retain_verdict_bytes(100);
    assert_eq!(
        store.put_verdict(key("h"), &verdict("v1")).await.unwrap(),
        Retained::TooLarge
    );
    assert!(store.get_verdict(key("h")).await.unwrap().is_none());
    assert_eq!(store.verdict_bytes_used().await.unwrap(), 0);
}

/// The usage counter the budget is checked against equals the sum over the
/// rows after inserts, replacements of another size and evictions.
async fn the_usage_counter_follows_every_verdict_change(db: TestDb) {
    let store = db.open().await;
    let summed = async || -> u64 {
        let sum: Option<i64> =
            sqlx::query_scalar("SELECT CAST(SUM(size_bytes) AS BIGINT) FROM verdicts")
                .fetch_one(&store.pool)
                .await
                .unwrap();
        sum.unwrap_or(0) as u64
    };
    let mut larger = verdict("v1");
    larger.winning_moves = Some(WinningMoves::complete_list(
        (0..50).map(Move::Paint).collect(),
    ));
    for hash in ["a", "b", "c"] {
        store.put_verdict(key(hash), &verdict("v1")).await.unwrap();
    }
    store.put_verdict(key("b"), &larger).await.unwrap();
    assert_eq!(store.verdict_bytes_used().await.unwrap(), summed().await);
    let bounded = store.clone().retain_verdict_bytes(summed().await);
    bounded.put_verdict(key("d"), &larger).await.unwrap();
    assert_eq!(bounded.verdict_bytes_used().await.unwrap(), summed().await);
    assert!(summed().await > 0);
}

/// Verdict writes from many tasks on two stores (two replicas) at once,
/// some to the same keys, with evictions: none fails, and the counter
/// still equals the rows' sum.
async fn concurrent_verdict_writes_all_succeed(db: TestDb) {
    let one_row = {
        let store = db.open().await;
        store
            .put_verdict(key("probe"), &verdict("v1"))
            .await
            .unwrap();
        store.verdict_bytes_used().await.unwrap()
    };
    let stores = [
        db.open().await.retain_verdict_bytes(6 * one_row),
        db.open().await.retain_verdict_bytes(6 * one_row),
    ];
    let mut tasks = Vec::new();
    for task in 0..8 {
        let store = stores[task % 2].clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..15 {
                let hash = format!("k{}", (task * 7 + i) % 20);
                store.put_verdict(key(&hash), &verdict("v1")).await?;
            }
            Ok::<_, StoreError>(())
        }));
    }
    for task in tasks {
        task.await.unwrap().expect("every write succeeds");
    }
    let sum: i64 = sqlx::query_scalar("SELECT CAST(SUM(size_bytes) AS BIGINT) FROM verdicts")
        .fetch_one(&stores[0].pool)
        .await
        .unwrap();
    assert_eq!(stores[0].verdict_bytes_used().await.unwrap(), sum as u64);
    assert!(sum as u64 <= 6 * one_row);
}

/// Two stores on one database (two servers): one holds a claim at a time,
/// its holder may renew it, and the other gets it once it is released or
/// has expired; claims on other options or hashes are independent.
async fn a_solve_claim_is_held_by_one_server_until_released_or_expired(db: TestDb) {
    // Both servers read one clock, which the test moves.
    let clock = Clock::held();
    let (one, other) = (
        db.open().await.with_clock(clock.clone()),
        db.open().await.with_clock(clock.clone()),
    );
    let minute = Duration::from_secs(60);
    assert!(one.claim_solve("h", "", minute).await.unwrap());
    assert!(!other.claim_solve("h", "", minute).await.unwrap());
    assert!(one.claim_solve("h", "", minute).await.unwrap(), "renewed");
    assert!(other.claim_solve("h", "all_starts", minute).await.unwrap());
    assert!(other.claim_solve("g", "", minute).await.unwrap());
    // Releasing a claim another server holds changes nothing.
    other.release_claim("h", "").await.unwrap();
    assert!(!other.claim_solve("h", "", minute).await.unwrap());
    one.release_claim("h", "").await.unwrap();
    assert!(other.claim_solve("h", "", Duration::ZERO).await.unwrap());
    // Expired once the clock has moved at all: the next server to ask
    // takes it over.
    clock.advance(Duration::from_micros(1));
    assert!(one.claim_solve("h", "", minute).await.unwrap());
    assert!(!other.claim_solve("h", "", minute).await.unwrap());
}

/// A puzzle's stored winner is read from a verdict of its hash by the
/// given solver version and of its shape; puzzles without one are left out.
async fn stored_winners_come_from_verdicts_of_the_solver_and_shape(db: TestDb) {
    let store = db.open().await;
    let solved = store_a_puzzle(&store, "solved").await;
    let unsolved = store_a_puzzle(&store, "unsolved").await;
    let misshapen = store_a_puzzle(&store, "misshapen").await;
    let mut second = verdict("v1");
    second.winner = Player::Second;
    store.put_verdict(key("solved"), &second).await.unwrap();
    let other_shape = VerdictKey {
        vertex_count: 4,
        ..key("misshapen")
    };
    store
        .put_verdict(other_shape, &verdict("v1"))
        .await
        .unwrap();
    let ids = [
        solved.id.as_str(),
        &unsolved.id,
        &misshapen.id,
        "0123456789abcdef0123",
    ];
    let winners = store.stored_winners(&ids, "v1").await.unwrap();
    assert_eq!(winners.len(), 1, "{winners:?}");
    assert_eq!(winners[&solved.id], Player::Second);
    assert!(store.stored_winners(&ids, "v2").await.unwrap().is_empty());
    assert!(store.stored_winners(&[], "v1").await.unwrap().is_empty());
}

/// Reads repeated between writes (served from memory on SQLite) see every
/// write that returned before them: a new verdict's winner, a created
/// puzzle at the head of its listings, a deleted one gone from them, a
/// rehashed one under its new hash only.
async fn repeated_reads_follow_every_write(db: TestDb) {
    let store = db.open().await;
    if matches!(store.backend, Backend::Postgres) {
        assert_eq!(store.version(), None, "other replicas write unseen");
    }
    let older = store_a_puzzle(&store, "h").await;
    let listing = async |hash: Option<&str>| {
        let filter = ListFilter {
            game: Some(Game::TreePaint),
            canonical_hash: hash,
        };
        ids(&store.list_puzzles(filter, None, 10).await.unwrap())
    };
    let winner = async |id: &str| {
        store
            .stored_winners(&[id], "v1")
            .await
            .unwrap()
            .get(id)
            .copied()
    };
    for _ in 0..2 {
        assert_eq!(listing(None).await, [older.id.as_str()]);
        assert_eq!(winner(&older.id).await, None);
    }

    store.put_verdict(key("h"), &verdict("v1")).await.unwrap();
    assert_eq!(winner(&older.id).await, Some(Player::First));

    let newer = store_a_puzzle(&store, "h").await;
    assert_eq!(listing(None).await, [newer.id.clone(), older.id.clone()]);
    assert_eq!(
        listing(Some("h")).await,
        [newer.id.clone(), older.id.clone()]
    );
    assert_eq!(winner(&newer.id).await, Some(Player::First));
    let record = store.get_puzzle(&newer.id).await.unwrap();
    assert_eq!(record.duplicate_of.as_deref(), Some(older.id.as_str()));

    store.delete_puzzle(&older.id).await.unwrap();
    assert_eq!(listing(None).await, [newer.id.as_str()]);
    let record = store.get_puzzle(&newer.id).await.unwrap();
    assert_eq!(record.duplicate_of, None);
    let page = store
        .list_puzzles(ListFilter::default(), None, 10)
        .await
        .unwrap();
    assert_eq!(page.puzzles[0].duplicate_of, None);

    store
        .set_canonical_hash(&newer.id, "h", "h2", None)
        .await
        .unwrap();
    assert_eq!(listing(Some("h")).await, Vec::<String>::new());
    assert_eq!(listing(Some("h2")).await, [newer.id.as_str()]);
    assert_eq!(winner(&newer.id).await, None);
    let record = store.get_puzzle(&newer.id).await.unwrap();
    assert_eq!(record.canonical_hash, "h2");
}

/// A SQLite file is this server's own, so repeated reads are answered
/// from memory: rows edited behind the store's back show only once the
/// store itself writes what the kept reads depend on. Its version moves
/// with every write a read could see, and only then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_store_answers_repeated_reads_from_memory() {
    let db = TestDb::sqlite();
    let store = db.open().await;
    let created = store_a_puzzle(&store, "h").await;
    store.put_verdict(key("h"), &verdict("v1")).await.unwrap();
    let id = created.id.as_str();
    assert_eq!(store.get_puzzle(id).await.unwrap().spec.title, "");
    assert_eq!(store.stored_winners(&[id], "v1").await.unwrap().len(), 1);
    for edit in [
        "UPDATE puzzles SET title = 'edited'",
        "DELETE FROM verdicts",
    ] {
        sqlx::query(edit).execute(&store.pool).await.unwrap();
    }
    assert_eq!(store.get_puzzle(id).await.unwrap().spec.title, "");
    assert_eq!(store.stored_winners(&[id], "v1").await.unwrap().len(), 1);
    store
        .put_verdict(key("other"), &verdict("v1"))
        .await
        .unwrap();
    assert!(store.stored_winners(&[id], "v1").await.unwrap().is_empty());
    store.delete_puzzle(id).await.unwrap();
    assert!(matches!(
        store.get_puzzle(id).await,
        Err(StoreError::NotFound(_))
    ));

    let version = || store.version().expect("a SQLite store has a version");
    let mut seen = vec![version()];
    let mut moved = |what: &str| {
        let now = version();
        assert!(!seen.contains(&now), "{what} did not move the version");
        seen.push(now);
    };
    let older = store_a_puzzle(&store, "h").await;
    moved("a create");
    store.put_verdict(key("h"), &verdict("v1")).await.unwrap();
    moved("a verdict write");
    store
        .set_canonical_hash(&older.id, "h", "h2", None)
        .await
        .unwrap();
    moved("a rehash");
    store.delete_puzzle(&older.id).await.unwrap();
    moved("a delete");
    let newer = store_a_puzzle(&store, "h").await;
    moved("a second create");
    let before_reads = version();
    store.get_puzzle(&newer.id).await.unwrap();
    store
        .list_puzzles(ListFilter::default(), None, 10)
        .await
        .unwrap();
    store.stored_winners(&[&newer.id], "v1").await.unwrap();
    store.get_verdict(key("h")).await.unwrap();
    store.write_verdict_uses().await;
    assert_eq!(version(), before_reads, "reads moved the version");
}

/// A row the store cannot have written (hand-edited, damaged) is reported
/// as corrupt, naming the field, not served.
async fn unreadable_rows_are_reported_as_corrupt(db: TestDb) {
    let store = db.open().await;
    let created = store_a_puzzle(&store, "h").await;
    store.put_verdict(key("h"), &verdict("v1")).await.unwrap();
    sqlx::query("UPDATE verdicts SET evidence = '{not json'")
        .execute(&store.pool)
        .await
        .unwrap();
    let error = store.get_verdict(key("h")).await.unwrap_err();
    assert!(
        matches!(&error, StoreError::Corrupt(what) if what.starts_with("evidence")),
        "{error:?}"
    );
    // Three bytes are not a whole number of 32-bit words.
    sqlx::query("UPDATE puzzles SET edges = $1")
        .bind(vec![1u8, 2, 3])
        .execute(&store.pool)
        .await
        .unwrap();
    let error = store.get_puzzle(&created.id).await.unwrap_err();
    assert!(matches!(&error, StoreError::Corrupt(_)), "{error:?}");
    assert!(!error.is_transient());
    // The schema refuses what it can name.
    let refused = sqlx::query("UPDATE puzzles SET game = 'chess'")
        .execute(&store.pool)
        .await;
    assert!(refused.is_err());
}

/// A create returns the row it inserted even when a delete of that row
/// commits right after it: the row is read inside the transaction.
async fn a_create_is_not_undone_by_a_delete_racing_it(db: TestDb) {
    let store = db.open().await;
    let stop = Arc::new(AtomicBool::new(false));
    let deleter = {
        let (store, stop) = (store.clone(), stop.clone());
        tokio::spawn(async move {
            let mut deleted = 0;
            while !stop.load(Ordering::Relaxed) {
                let newest = store
                    .list_puzzles(ListFilter::default(), None, 1)
                    .await
                    .unwrap()
                    .puzzles;
                if let Some(p) = newest.first() {
                    deleted += usize::from(store.delete_puzzle(&p.id).await.is_ok());
                }
            }
            deleted
        })
    };
    for i in 0..200u32 {
        let created = store
            .create_puzzle(NewPuzzle {
                start: i % 2,
                ..puzzle(Game::Geography, &[0, 1], "h")
            })
            .await
            .expect("a create succeeds whatever is deleted meanwhile");
        assert_eq!(created.spec.start, i % 2);
    }
    stop.store(true, Ordering::Relaxed);
    assert!(deleter.await.unwrap() > 0, "the deleter raced the creates");
}

/// With every connection of the pool taken, an operation waits for the
/// acquire timeout and fails as busy (a fault the client may retry), and
/// works again as soon as a connection is free.
async fn a_full_pool_makes_operations_busy_until_a_connection_frees(db: TestDb) {
    let settings = PoolSettings {
        max_connections: 1,
        acquire_timeout: Duration::from_millis(200),
    };
    // Opening runs the migrations, which on a machine busy with other tests
    // can outlast the short acquire timeout: they run first with the
    // defaults, and the open with the short timeout is tried again while it
    // is only busy.
    Store::open(&db.url).await.unwrap().close().await;
    let mut tries = 0;
    let store = loop {
        match Store::open_with(&db.url, settings).await {
            Ok(store) => break store,
            Err(StoreError::Busy(_)) if tries < 20 => tries += 1,
            Err(error) => panic!("{error:?}"),
        }
    };
    // The configured timeout, not sqlx's default of 30 s: read from the
    // pool, since how long the wait takes depends on the machine.
    assert_eq!(
        store.pool.options().get_acquire_timeout(),
        settings.acquire_timeout
    );
    let held = store.pool.acquire().await.unwrap();
    let waited = std::time::Instant::now();
    let error = store.puzzles_to_rehash(10).await.unwrap_err();
    assert!(matches!(error, StoreError::Busy(_)), "{error:?}");
    assert!(error.is_transient());
    // Not before the timeout (a slow machine only waits longer).
    let waited = waited.elapsed();
    assert!(waited >= settings.acquire_timeout, "{waited:?}");
    drop(held);
    assert_eq!(
        store.puzzles_to_rehash(10).await.unwrap(),
        Vec::<String>::new()
    );
}

// SQLite alone.

async fn plan(store: &Store, sql: String) -> String {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")))
        .fetch_all(&store.pool)
        .await
        .unwrap();
    rows.iter()
        .map(|r| r.get::<String, _>("detail"))
        .collect::<Vec<_>>()
        .join("; ")
}

#[tokio::test]
async fn listing_and_duplicate_lookup_walk_indexes() {
    let db = TestDb::sqlite();
    let store = db.open().await;
    let all = plan(&store, list_sql(false, false)).await;
    assert!(all.contains("SEARCH p USING INTEGER PRIMARY KEY"), "{all}");
    let by_game = plan(&store, list_sql(true, false)).await;
    assert!(
        by_game.contains("USING COVERING INDEX puzzles_by_game")
            || by_game.contains("USING INDEX puzzles_by_game"),
        "{by_game}"
    );
    let by_hash = plan(&store, list_sql(false, true)).await;
    assert!(
        by_hash.contains("USING INDEX puzzles_by_canonical_hash")
            || by_hash.contains("USING COVERING INDEX puzzles_by_canonical_hash"),
        "{by_hash}"
    );
    for plan in [&all, &by_game, &by_hash] {
        assert!(
            plan.contains("puzzles_by_canonical_hash"),
            "duplicate_of lookup: {plan}"
        );
        assert!(!plan.contains("USE TEMP B-TREE"), "no sort step: {plan}");
    }
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(integrity, "ok");
    let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(journal, "wal");
    store.close().await;
}

#[tokio::test]
async fn an_in_memory_store_keeps_its_data() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let created = store_a_puzzle(&store, "h").await;
    assert_eq!(store.get_puzzle(&created.id).await.unwrap(), created);
    assert!(matches!(store.backend, Backend::Sqlite { file: None }));
}

#[tokio::test]
async fn a_url_of_another_scheme_is_refused_by_name() {
    for (url, scheme) in [
        ("mysql://root@localhost/test", "mysql"),
        ("/var/lib/puzzled.db", "/var/lib/puzzled.db"),
    ] {
        let Err(error) = Store::open(url).await else {
            panic!("{url} was opened");
        };
        assert_eq!(
            error.to_string(),
            format!(
                "unsupported database URL scheme `{scheme}`: the supported ones are \
                 sqlite://PATH, sqlite::memory: and postgres://[USER@]HOST[:PORT]/DATABASE"
            )
        );
    }
}

/// A PostgreSQL server that is not there fails the open as a fault to
/// retry (a replica retries it), not as a file name, and says why the
/// last attempt failed rather than that a pool timed out.
#[tokio::test]
async fn an_unreachable_postgres_server_is_an_io_fault() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let settings = PoolSettings {
        max_connections: 1,
        acquire_timeout: Duration::from_secs(2),
    };
    let Err(error) =
        Store::open_with(&format!("postgres://nobody@127.0.0.1:{port}/db"), settings).await
    else {
        panic!("a closed port was opened");
    };
    assert!(error.is_transient(), "{error:?}");
    let message = error.to_string();
    assert!(
        message.starts_with(
            "cannot connect to PostgreSQL within 2 s (--database-acquire-timeout-ms): "
        ) && message.contains("refused"),
        "{message}"
    );
}

/// A database PostgreSQL does not have, and a role it refuses, are named
/// as such (sqlx would add the server's source line: `… at line 948`).
#[tokio::test]
async fn a_missing_database_or_a_refused_role_says_what_to_do() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let Place::Schema { admin_url, .. } = &db.place else {
        unreachable!("a PostgreSQL test database")
    };
    let (server, _) = admin_url.rsplit_once('/').expect("a database in the URL");
    let Err(missing) = Store::open(&format!("{server}/puzzled_no_such_database")).await else {
        panic!("a missing database was opened");
    };
    assert_eq!(
        missing.to_string(),
        "PostgreSQL has no database \"puzzled_no_such_database\": create it first (createdb \
         puzzled_no_such_database, or CREATE DATABASE puzzled_no_such_database in psql); \
         puzzled creates its tables, not the database"
    );
    // The same server as a role it does not know.
    let (scheme, rest) = server.split_once("://").expect("a URL");
    let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    let stranger = format!("{scheme}://puzzled_no_such_role@{host}/postgres");
    let Err(refused) = Store::open(&stranger).await else {
        panic!("an unknown role was let in");
    };
    let message = refused.to_string();
    assert!(
        message.starts_with("PostgreSQL refused the connection: ")
            && message.contains("puzzled_no_such_role")
            && !message.contains(" at line "),
        "{message}"
    );
}

/// A PostgreSQL database that stops accepting connections (`ALTER
/// DATABASE … ALLOW_CONNECTIONS false`, SQLSTATE 55000, with its open
/// sessions ended) is a fault to retry later, as a server that is down
/// is: UNAVAILABLE for the client, not INTERNAL.
#[tokio::test]
async fn a_database_that_stops_accepting_connections_is_a_transient_fault() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let Place::Schema { admin_url, .. } = &db.place else {
        unreachable!("a PostgreSQL test database")
    };
    let name = format!(
        "puzzled_closed_{}_{}",
        std::process::id(),
        micros(SystemTime::now())
    );
    let mut admin = sqlx::PgConnection::connect(admin_url).await.unwrap();
    let run = |sql: String| sqlx::query(sqlx::AssertSqlSafe(sql));
    run(format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let (base, query) = admin_url.split_once('?').unwrap_or((admin_url, ""));
    let url = format!(
        "{}/{name}{}{query}",
        &base[..base.rfind('/').unwrap()],
        if query.is_empty() { "" } else { "?" }
    );
    let store = Store::open(&url).await.unwrap();
    assert!(matches!(
        store.get_puzzle("p1").await,
        Err(StoreError::NotFound(_))
    ));

    run(format!("ALTER DATABASE {name} ALLOW_CONNECTIONS false"))
        .execute(&mut admin)
        .await
        .unwrap();
    run(format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
    ))
    .execute(&mut admin)
    .await
    .unwrap();
    // The pool's connections are gone (a cut connection is an I/O fault
    // already); a new one is refused with 55000.
    let mut refused = None;
    for _ in 0..20 {
        match store.get_puzzle("p1").await {
            Err(error) if error.to_string().contains("not currently accepting") => {
                refused = Some(error);
                break;
            }
            Err(error) => assert!(error.is_transient(), "{error}"),
            Ok(_) => unreachable!("no puzzle was stored"),
        }
    }
    let refused = refused.expect("a new connection was refused");
    assert!(matches!(refused, StoreError::Io(_)), "{refused:?}");

    store.close().await;
    run(format!("ALTER DATABASE {name} ALLOW_CONNECTIONS true"))
        .execute(&mut admin)
        .await
        .unwrap();
    run(format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .unwrap();
}
