//! CreatePuzzle, GetPuzzle, ListPuzzles, DeletePuzzle, and persistence
//! across a restart.

use tonic::Code;

use super::helpers::*;

fn path3(start: u32) -> proto::PuzzleSpec {
    proto::PuzzleSpec {
        title: "path of three".into(),
        author: "tests".into(),
        ..geography(3, &[0, 1, 1, 2], start)
    }
}

#[tokio::test]
async fn create_then_get_returns_the_same_puzzle_in_its_own_labels() {
    let app = spawn_app().await;
    let spec = proto::PuzzleSpec {
        title: "reversed edges".into(),
        numbered_from: 1,
        ..geography(4, &[3, 2, 1, 0, 2, 1], 0)
    };
    let created = app.create(spec.clone()).await;
    assert!(created.name.starts_with("puzzles/"), "{}", created.name);
    assert_eq!(
        created.spec.as_ref(),
        Some(&spec),
        "labels and edge order are kept"
    );
    assert!(created.canonical_hash.starts_with("traces-v4:"));
    assert!(created.duplicate_of.is_empty());
    assert!(created.create_time.is_some());
    let got = app.read(&created.name).await;
    assert_eq!(got, created);
}

#[tokio::test]
async fn duplicates_point_at_the_oldest_and_share_the_hash() {
    let app = spawn_app().await;
    let first = app.create(geography(4, &[0, 1, 1, 2, 2, 3], 1)).await;
    // Same graph: other edge order and direction, other title, shown from 1.
    let again = proto::PuzzleSpec {
        title: "same puzzle".into(),
        numbered_from: 1,
        ..geography(4, &[3, 2, 2, 1, 0, 1], 1)
    };
    let second = app.create(again).await;
    assert_ne!(first.name, second.name);
    assert_eq!(first.canonical_hash, second.canonical_hash);
    assert_eq!(second.duplicate_of, first.name);
    // Another start is another puzzle.
    let other = app.create(geography(4, &[0, 1, 1, 2, 2, 3], 0)).await;
    assert_ne!(other.canonical_hash, first.canonical_hash);
    assert!(other.duplicate_of.is_empty());
}

#[tokio::test]
async fn a_repeated_request_id_returns_the_first_result() {
    let mut app = spawn_app().await;
    let mut request = create_request(path3(0));
    request.request_id = "8a5f3c1e-retry".into();
    let first = app
        .client
        .create_puzzle(request.clone())
        .await
        .unwrap()
        .into_inner();
    let second = app
        .client
        .create_puzzle(request.clone())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first, second);
    let list = app.listed().await;
    assert_eq!(list.len(), 1, "stored once");
    // The same id with another payload is refused: another start, or the
    // same puzzle in another numbering.
    for other in [
        path3(1),
        proto::PuzzleSpec {
            numbered_from: 1,
            ..path3(0)
        },
    ] {
        let mut reused = request.clone();
        reused.puzzle.as_mut().unwrap().spec = Some(other);
        let err = app.client.create_puzzle(reused).await.unwrap_err();
        assert_eq!(err.code(), Code::AlreadyExists);
        assert!(err.message().contains("request_id"), "{}", err.message());
    }
}

#[tokio::test]
async fn listing_is_newest_first_paged_filtered_and_survives_inserts() {
    let mut app = spawn_app().await;
    let mut names = Vec::new();
    for i in 0..5u32 {
        let spec = geography(i + 2, &[0, 1], 0);
        names.push(
            app.client
                .create_puzzle(create_request(spec))
                .await
                .unwrap()
                .into_inner()
                .name,
        );
    }
    let tree = proto::PuzzleSpec {
        game: proto::Game::TreePaint as i32,
        graph: graph(3, &[0, 1, 1, 2]),
        ..Default::default()
    };
    let tree_name = app.create(tree).await.name;

    let page1 = app
        .client
        .list_puzzles(proto::ListPuzzlesRequest {
            page_size: 2,
            page_token: String::new(),
            game: proto::Game::Geography as i32,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let got: Vec<_> = page1.puzzles.iter().map(|p| p.name.clone()).collect();
    assert_eq!(got, vec![names[4].clone(), names[3].clone()]);
    assert!(!page1.next_page_token.is_empty());

    // A new puzzle arrives between pages: the next page does not shift.
    app.client
        .create_puzzle(create_request(geography(9, &[0, 1], 0)))
        .await
        .unwrap();
    let mut rest = Vec::new();
    let mut token = page1.next_page_token;
    while !token.is_empty() {
        let page = app
            .client
            .list_puzzles(proto::ListPuzzlesRequest {
                page_size: 2,
                page_token: token,
                game: proto::Game::Geography as i32,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        rest.extend(page.puzzles.into_iter().map(|p| p.name));
        token = page.next_page_token;
    }
    assert_eq!(
        rest,
        vec![names[2].clone(), names[1].clone(), names[0].clone()]
    );

    let trees = app
        .client
        .list_puzzles(proto::ListPuzzlesRequest {
            game: proto::Game::TreePaint as i32,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(trees.puzzles.len(), 1);
    assert_eq!(trees.puzzles[0].name, tree_name);
    assert!(trees.next_page_token.is_empty());

    let all = app.listed().await;
    assert_eq!(all.len(), 7);
}

#[tokio::test]
async fn delete_removes_the_puzzle() {
    let mut app = spawn_app().await;
    let created = app.create(path3(0)).await;
    app.client
        .delete_puzzle(proto::DeletePuzzleRequest {
            name: created.name.clone(),
        })
        .await
        .unwrap();
    let err = app.read_err(&created.name).await;
    assert_eq!(err.code(), Code::NotFound);
    let err = app
        .client
        .delete_puzzle(proto::DeletePuzzleRequest { name: created.name })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::NotFound);
}

#[tokio::test]
async fn delete_needs_the_admin_token_when_one_is_set() {
    let mut app = app_with(|config| config.admin_token = Some("s3cret".into())).await;
    let created = app.create(path3(0)).await;
    let with_header = |header: Option<String>| {
        let mut request = tonic::Request::new(proto::DeletePuzzleRequest {
            name: created.name.clone(),
        });
        if let Some(header) = header {
            request
                .metadata_mut()
                .insert("authorization", header.parse().unwrap());
        }
        request
    };
    let delete = |token: Option<&str>| with_header(token.map(|t| format!("Bearer {t}")));
    let err = app.client.delete_puzzle(delete(None)).await.unwrap_err();
    assert_eq!(err.code(), Code::Unauthenticated);
    assert!(err.message().contains("admin token"), "{}", err.message());
    let err = app
        .client
        .delete_puzzle(delete(Some("wrong")))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::PermissionDenied);
    // Another scheme is a missing token; the token itself is case-sensitive.
    for (header, code) in [
        ("Basic czNjcmV0", Code::Unauthenticated),
        ("Bearer", Code::Unauthenticated),
        ("bearer S3CRET", Code::PermissionDenied),
    ] {
        let err = app
            .client
            .delete_puzzle(with_header(Some(header.into())))
            .await
            .unwrap_err();
        assert_eq!(err.code(), code, "{header}");
    }
    // Still there after the refused attempts.
    app.read(&created.name).await;
    // The scheme is case-insensitive (RFC 7235).
    app.client
        .delete_puzzle(with_header(Some("bearer s3cret".into())))
        .await
        .unwrap();
}

#[tokio::test]
async fn puzzles_and_cached_verdicts_survive_a_restart() {
    let mut app = spawn_app().await;
    let spec = geography(5, &[0, 1, 1, 2, 2, 3, 3, 4], 0);
    let created = app.create(spec).await;
    let solve = proto::SolvePuzzleRequest {
        name: created.name.clone(),
        include_all_starts: true,
        include_winning_moves: false,
    };
    let fresh = app
        .client
        .solve_puzzle(solve.clone())
        .await
        .unwrap()
        .into_inner();
    assert!(!fresh.cached);
    let mut app = app.restart().await;
    let got = app.read(&created.name).await;
    // The same puzzle, now with the winner of its stored verdict.
    assert_eq!(
        got,
        proto::Puzzle {
            cached_winner: fresh.winner,
            ..created
        }
    );
    let again = app.client.solve_puzzle(solve).await.unwrap().into_inner();
    assert!(
        again.cached,
        "the verdict comes from the store after a restart"
    );
    assert_eq!(
        proto::Solution {
            cached: false,
            ..again
        },
        fresh,
        "a cache hit returns exactly what the fresh solve returned"
    );
    // The store file is sound after a clean shutdown.
    let url = database_url(app.dir.path());
    let _dir = app.stop().await;
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(integrity, "ok");
    pool.close().await;
}

/// Shutdown lets a call that is already running finish, then closes the
/// store cleanly. The server's own count of running solves shows the solve
/// had started before the stop was asked for; the grace is long enough for
/// any machine, so only a server that cut the call short fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_lets_in_flight_calls_finish() {
    let app = app_with(|config| config.shutdown_grace_secs = 600).await;
    let n = 200_000;
    let edges = random_graph(n, 400_000, 21);
    let created = app.create(geography(n, &edges, 0)).await;
    let mut client = app.client.clone();
    let in_flight = tokio::spawn(async move {
        client
            .solve_puzzle(proto::SolvePuzzleRequest {
                name: created.name,
                ..Default::default()
            })
            .await
    });
    app.until_a_solve_runs().await;
    let solves_running = app.solves_running.clone();
    let stopping = app.request_stop();
    assert_eq!(
        solves_running.get(),
        1,
        "the solve was still running when the stop was asked for"
    );
    let _dir = stopping.finish().await;
    let solution = in_flight
        .await
        .unwrap()
        .expect("the in-flight call finished during shutdown")
        .into_inner();
    assert!(!solution.cached);
    assert_eq!(solves_running.get(), 0);
}

/// `cached_winner` tells a list page who wins the puzzles solved before,
/// without solving: unset until a solve stores the verdict, then set on
/// reads and lists of the puzzle and of its relabelled copies, by the game
/// of each (the path from its end is the second player's, from its middle
/// the first player's).
#[tokio::test]
async fn reads_show_the_winner_of_puzzles_solved_before() {
    let app = spawn_app().await;
    let end = app.create(path3(0)).await;
    let middle = app.create(path3(1)).await;
    assert_eq!(end.cached_winner, proto::Player::Unspecified as i32);
    for puzzle in [&end, &middle] {
        app.solve_stored(&puzzle.name).await.unwrap();
    }
    // The other end of the path: a relabelled copy of the first puzzle.
    let copy = app.create(path3(2)).await;
    assert_eq!(copy.duplicate_of, end.name);
    assert_eq!(copy.cached_winner, proto::Player::Second as i32);
    let listed = app.listed().await;
    let winners: Vec<(String, i32)> = listed
        .into_iter()
        .map(|p| (p.name, p.cached_winner))
        .collect();
    assert_eq!(
        winners,
        [
            (copy.name.clone(), proto::Player::Second as i32),
            (middle.name.clone(), proto::Player::First as i32),
            (end.name.clone(), proto::Player::Second as i32),
        ]
    );
    let read = app.read_view(&middle.name, proto::PuzzleView::Basic).await;
    assert_eq!(read.cached_winner, proto::Player::First as i32);
}

/// A repeated ListPuzzles or GetPuzzle request is answered with the
/// answer made for it while nothing was stored, deleted or solved since: a
/// row edited behind the server's back does not show; each write through
/// the server that changes the answer does.
#[tokio::test]
async fn repeated_reads_are_answered_from_memory_until_the_store_changes() {
    use sqlx::Connection as _;
    let app = spawn_app().await;
    let page_hits = || cache_hits("page");
    let titles = |puzzles: Vec<proto::Puzzle>| -> Vec<(String, String, i32)> {
        puzzles
            .into_iter()
            .map(|p| (p.name, p.spec.unwrap().title, p.cached_winner))
            .collect()
    };
    let unsolved = proto::Player::Unspecified as i32;
    let title_read = async |name: &str| {
        let puzzle = app.read_view(name, proto::PuzzleView::Full).await;
        puzzle.spec.unwrap().title
    };
    let older = app.create(path3(0)).await;
    let newer_spec = path3(1);
    let title = newer_spec.title.clone();
    assert_eq!(older.spec.as_ref().unwrap().title, title);
    assert_eq!(
        titles(app.listed().await),
        [(older.name.clone(), title.clone(), unsolved)]
    );
    assert_eq!(title_read(&older.name).await, title);
    let mut db = sqlx::SqliteConnection::connect(&app.config.database_url)
        .await
        .unwrap();
    sqlx::query("UPDATE puzzles SET title = 'edited'")
        .execute(&mut db)
        .await
        .unwrap();
    let hits = page_hits();
    assert_eq!(
        titles(app.listed().await),
        [(older.name.clone(), title.clone(), unsolved)]
    );
    assert!(page_hits() > hits, "the repeat did not hit the memo");
    assert_eq!(title_read(&older.name).await, title);

    let newer = app.create(newer_spec).await;
    let edited = || (older.name.clone(), "edited".to_owned(), unsolved);
    assert_eq!(
        titles(app.listed().await),
        [(newer.name.clone(), title.clone(), unsolved), edited()]
    );
    app.solve_stored(&newer.name).await.unwrap();
    let first = proto::Player::First as i32;
    assert_eq!(
        titles(app.listed().await),
        [(newer.name.clone(), title.clone(), first), edited()]
    );
    app.client
        .clone()
        .delete_puzzle(proto::DeletePuzzleRequest {
            name: newer.name.clone(),
        })
        .await
        .unwrap();
    assert_eq!(titles(app.listed().await), [edited()]);
    assert_eq!(title_read(&older.name).await, "edited");
    app.stop().await;
}
