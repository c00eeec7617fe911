//! Read views (AIP-157): lists leave edge lists out unless asked, and a
//! full page never passes the server's message size limit.

use prost::Message as _;
use tonic::Code;
use tonic_types::StatusExt;

use crate::helpers::*;

fn list(view: proto::PuzzleView, page_size: i32, page_token: String) -> proto::ListPuzzlesRequest {
    proto::ListPuzzlesRequest {
        page_size,
        page_token,
        view: view as i32,
        ..Default::default()
    }
}

fn edges_of(puzzle: &proto::Puzzle) -> &[u32] {
    &puzzle.spec.as_ref().unwrap().graph.as_ref().unwrap().edges
}

fn vertex_count_of(puzzle: &proto::Puzzle) -> u32 {
    puzzle
        .spec
        .as_ref()
        .unwrap()
        .graph
        .as_ref()
        .unwrap()
        .vertex_count
}

/// Every page of a listing, walked by its tokens.
async fn all_pages(
    app: &TestApp,
    view: proto::PuzzleView,
    page_size: i32,
) -> Vec<proto::ListPuzzlesResponse> {
    let mut pages = Vec::new();
    let mut token = String::new();
    loop {
        let page = app
            .client
            .clone()
            .list_puzzles(list(view, page_size, token))
            .await
            .expect("a page")
            .into_inner();
        token = page.next_page_token.clone();
        pages.push(page);
        if token.is_empty() {
            return pages;
        }
    }
}

#[tokio::test]
async fn lists_leave_edges_out_by_default_and_full_views_carry_them() {
    let app = spawn_app().await;
    let mut created = Vec::new();
    for (n, seed) in [(30, 1), (40, 2), (50, 3)] {
        let mut spec = geography(n, &random_graph(n, 2 * n as usize, seed), 0);
        spec.title = format!("puzzle on {n} vertices");
        let puzzle = app.create(spec).await;
        assert_eq!(puzzle.edge_count, 2 * n as u64);
        created.push(puzzle);
    }
    created.reverse(); // lists are newest first

    let basic = app.listed().await;
    assert_eq!(basic.len(), 3);
    for (listed, full) in basic.iter().zip(&created) {
        assert!(
            edges_of(listed).is_empty(),
            "the default list view has no edges"
        );
        let mut without_edges = full.clone();
        without_edges
            .spec
            .as_mut()
            .unwrap()
            .graph
            .as_mut()
            .unwrap()
            .edges
            .clear();
        assert!(without_edges.canonical_sparse6.starts_with(':'));
        without_edges.canonical_sparse6.clear();
        assert_eq!(*listed, without_edges, "everything else is there");
        assert_eq!(vertex_count_of(listed), vertex_count_of(full));
    }

    let full = app
        .client
        .clone()
        .list_puzzles(list(proto::PuzzleView::Full, 0, String::new()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(full.puzzles, created);

    let name = &created[0].name;
    let by_default = app.read(name).await;
    assert_eq!(
        by_default, created[0],
        "GetPuzzle defaults to the full view"
    );
    let summary = app.read_view(name, proto::PuzzleView::Basic).await;
    assert!(edges_of(&summary).is_empty());
    assert_eq!(summary.edge_count, created[0].edge_count);
    app.stop().await;
}

/// With a 1 MiB message limit and five puzzles of 40,000 edges (about
/// 300 kB each once encoded with their canonical sparse6), a full listing
/// comes in pages of at most three puzzles, each under the limit, and the pages together hold every puzzle
/// once; the basic view lists all five in one page.
#[tokio::test]
async fn a_full_page_never_passes_the_message_limit() {
    let limit = 1 << 20;
    let app = app_with(|config| config.max_message_bytes = Some(limit)).await;
    let n = 30_000;
    let mut names = Vec::new();
    for seed in 0..5 {
        let spec = geography(n, &random_graph(n, 40_000, 100 + seed), 0);
        let puzzle = app.create(spec).await;
        names.push(puzzle.name);
    }
    names.reverse();

    let pages = all_pages(&app, proto::PuzzleView::Full, 50).await;
    assert!(pages.len() >= 2, "{} pages", pages.len());
    let mut listed = Vec::new();
    for page in &pages {
        assert!(!page.puzzles.is_empty());
        assert!(
            page.encoded_len() <= limit,
            "a page of {} bytes",
            page.encoded_len()
        );
        assert!(page.puzzles.len() <= 3);
        for puzzle in &page.puzzles {
            assert_eq!(edges_of(puzzle).len(), 80_000);
            assert!(!puzzle.canonical_sparse6.is_empty());
            listed.push(puzzle.name.clone());
        }
    }
    assert_eq!(listed, names);

    let basic = all_pages(&app, proto::PuzzleView::Basic, 50).await;
    assert_eq!(basic.len(), 1);
    assert_eq!(basic[0].puzzles.len(), 5);
    app.stop().await;
}

/// A puzzle stored under a larger limit cannot be sent whole under a
/// smaller one: the full list says so and names it, the basic list works.
#[tokio::test]
async fn a_puzzle_too_large_for_the_limit_is_named() {
    let app = spawn_app().await;
    let n = 30_000;
    let puzzle = app
        .create(geography(n, &random_graph(n, 60_000, 7), 0))
        .await;
    let dir = app.stop().await;
    let app = app_in(dir, |config| config.max_message_bytes = Some(100_000)).await;
    let status = app
        .client
        .clone()
        .list_puzzles(list(proto::PuzzleView::Full, 0, String::new()))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains(&puzzle.name), "{status:?}");
    assert!(status.message().contains("PUZZLE_VIEW_BASIC"), "{status:?}");
    assert_eq!(error_reason(&status), "RESPONSE_TOO_LARGE");
    let basic = app.listed().await;
    assert_eq!(basic[0].name, puzzle.name);

    // GetPuzzle says the same of its full view (rather than the transport
    // failing the answer on its way out), and answers the basic one.
    let status = app.read_err(&puzzle.name).await;
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains(&puzzle.name), "{status:?}");
    assert!(status.message().contains("100000-byte"), "{status:?}");
    assert!(status.message().contains("PUZZLE_VIEW_BASIC"), "{status:?}");
    assert_eq!(error_reason(&status), "RESPONSE_TOO_LARGE");
    let summary = app.read_view(&puzzle.name, proto::PuzzleView::Basic).await;
    assert_eq!(summary.edge_count, 60_000);
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_view_is_invalid() {
    let app = spawn_app().await;
    for status in [
        app.client
            .clone()
            .list_puzzles(proto::ListPuzzlesRequest {
                view: 9,
                ..Default::default()
            })
            .await
            .unwrap_err(),
        app.client
            .clone()
            .get_puzzle(proto::GetPuzzleRequest {
                name: "puzzles/0123456789abcdef0123".into(),
                view: 9,
            })
            .await
            .unwrap_err(),
    ] {
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        assert_eq!(status.message(), "view: 9 is not a PuzzleView");
        let details = status.get_error_details();
        assert_eq!(error_reason(&status), "UNKNOWN_VIEW");
        assert_eq!(
            details.bad_request().unwrap().field_violations[0].field,
            "view"
        );
    }
    app.stop().await;
}

/// The canonical_hash filter lists every stored copy of one puzzle (the
/// same edges in another order and orientation), newest first, and its page
/// tokens are bound to it.
#[tokio::test]
async fn the_canonical_hash_filter_lists_every_copy() {
    let app = spawn_app().await;
    let mut names = Vec::new();
    for edges in [[0, 1, 1, 2, 2, 3], [3, 2, 0, 1, 2, 1]] {
        let created = app.create(geography(4, &edges, 0)).await;
        names.push(created);
    }
    app.client
        .clone()
        .create_puzzle(create_request(geography(4, &[0, 1], 0)))
        .await
        .unwrap();
    let hash = names[0].canonical_hash.clone();
    assert_eq!(names[1].canonical_hash, hash);
    assert_eq!(names[1].duplicate_of, names[0].name);
    let request = |page_token: String| proto::ListPuzzlesRequest {
        page_size: 1,
        page_token,
        canonical_hash: hash.clone(),
        ..Default::default()
    };
    let first = app
        .client
        .clone()
        .list_puzzles(request(String::new()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first.puzzles[0].name, names[1].name);
    let second = app
        .client
        .clone()
        .list_puzzles(request(first.next_page_token.clone()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(second.puzzles[0].name, names[0].name);
    assert!(second.next_page_token.is_empty());
    let mismatch = app
        .client
        .clone()
        .list_puzzles(proto::ListPuzzlesRequest {
            page_token: first.next_page_token,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(error_reason(&mismatch), "PAGE_TOKEN_FILTER_MISMATCH");
    let malformed = app
        .client
        .clone()
        .list_puzzles(proto::ListPuzzlesRequest {
            canonical_hash: "nope".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(malformed.code(), Code::InvalidArgument);
    assert_eq!(error_reason(&malformed), "MALFORMED_CANONICAL_HASH");
    app.stop().await;
}
