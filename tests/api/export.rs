//! ExportPuzzles: every stored puzzle the filter selects, newest first, in
//! the FULL view, each with a token that resumes after it; bad tokens and
//! filters are refused before the stream starts.

use tokio_stream::StreamExt as _;

use super::helpers::*;

async fn export(app: &TestApp, request: proto::ExportPuzzlesRequest) -> Vec<proto::ExportedPuzzle> {
    let mut stream = app
        .client
        .clone()
        .export_puzzles(request)
        .await
        .expect("the export starts")
        .into_inner();
    let mut out = Vec::new();
    while let Some(item) = stream.next().await {
        out.push(item.expect("every item arrives"));
    }
    out
}

fn names(items: &[proto::ExportedPuzzle]) -> Vec<String> {
    items
        .iter()
        .map(|i| i.puzzle.as_ref().unwrap().name.clone())
        .collect()
}

#[tokio::test]
async fn the_export_streams_every_puzzle_and_resumes_after_any() {
    let app = spawn_app().await;
    let mut created = Vec::new();
    // More than one store page of them, of two games.
    for i in 0..70u32 {
        let spec = if i % 3 == 0 {
            proto::PuzzleSpec {
                game: proto::Game::DirectedEdgeGeography as i32,
                graph: graph(3, &[0, 1, 1, 2, 2, 0]),
                title: format!("puzzle {i}"),
                ..Default::default()
            }
        } else {
            proto::PuzzleSpec {
                title: format!("puzzle {i}"),
                ..geography(i % 7 + 2, &[0, 1], 0)
            }
        };
        created.push(app.create(spec).await.name);
    }
    created.reverse();
    // The newest one solved: its stored winner comes with it and with every
    // copy sharing its canonical hash, and with no other.
    app.solve_stored(&created[0]).await.unwrap();
    let all = export(&app, proto::ExportPuzzlesRequest::default()).await;
    let solved_hash = all[0].puzzle.as_ref().unwrap().canonical_hash.clone();
    for item in &all {
        let puzzle = item.puzzle.as_ref().unwrap();
        assert_eq!(
            puzzle.cached_winner != proto::Player::Unspecified as i32,
            puzzle.canonical_hash == solved_hash,
            "{}",
            puzzle.name
        );
    }
    assert_eq!(names(&all), created, "newest first, every one");
    let first = all[0].puzzle.as_ref().unwrap();
    assert_eq!(
        first
            .spec
            .as_ref()
            .unwrap()
            .graph
            .as_ref()
            .unwrap()
            .edges
            .len(),
        6,
        "FULL view"
    );
    assert!(!first.canonical_sparse6.is_empty());
    // Resuming after the 40th gives the 41st on.
    let rest = export(
        &app,
        proto::ExportPuzzlesRequest {
            page_token: all[39].resume_token.clone(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(names(&rest), created[40..].to_vec());
    // A filter, and a token of another filter refused.
    let directed = export(
        &app,
        proto::ExportPuzzlesRequest {
            game: proto::Game::DirectedEdgeGeography as i32,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(directed.len(), 24);
    assert!(
        directed
            .iter()
            .all(|i| i.puzzle.as_ref().unwrap().spec.as_ref().unwrap().game
                == proto::Game::DirectedEdgeGeography as i32)
    );
    let status = app
        .client
        .clone()
        .export_puzzles(proto::ExportPuzzlesRequest {
            game: proto::Game::DirectedEdgeGeography as i32,
            page_token: all[3].resume_token.clone(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(error_reason(&status), "PAGE_TOKEN_FILTER_MISMATCH");
    let status = app
        .client
        .clone()
        .export_puzzles(proto::ExportPuzzlesRequest {
            page_token: "not a token".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(error_reason(&status), "MALFORMED_PAGE_TOKEN");
    // A client that stops reading early leaves the server serving.
    let mut stream = app
        .client
        .clone()
        .export_puzzles(proto::ExportPuzzlesRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert!(stream.next().await.is_some());
    drop(stream);
    assert_eq!(
        export(&app, proto::ExportPuzzlesRequest::default())
            .await
            .len(),
        70
    );
}

/// A page's small puzzles are read in one query and its large ones each
/// by itself under admission: mixed in one page, every puzzle comes whole
/// and in its place.
#[tokio::test]
async fn small_and_large_puzzles_of_one_page_come_whole_in_order() {
    let app = spawn_app().await;
    let path = |n: u32| -> Vec<u32> { (1..n).flat_map(|v| [v - 1, v]).collect() };
    // 5,000 vertices and 4,999 edges: past the size read without admission.
    let sizes = [3, 5_000, 4, 6_000, 2];
    let mut created = Vec::new();
    for &n in &sizes {
        created.push(app.create(geography(n, &path(n), 0)).await.name);
    }
    created.reverse();
    let all = export(&app, proto::ExportPuzzlesRequest::default()).await;
    assert_eq!(names(&all), created);
    for (item, &n) in all.iter().zip(sizes.iter().rev()) {
        let graph = item
            .puzzle
            .as_ref()
            .unwrap()
            .spec
            .as_ref()
            .unwrap()
            .graph
            .as_ref()
            .unwrap();
        assert_eq!(graph.vertex_count, n);
        assert_eq!(graph.edges, path(n), "{n} vertices, whole");
    }
}
