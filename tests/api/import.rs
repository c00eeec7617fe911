//! ImportPuzzles: a client stream stored puzzle by puzzle, each as
//! CreatePuzzle stores one; one summary at the end with a result per
//! message; a retry stores nothing twice; a bad puzzle fails alone.

use tokio_stream::StreamExt as _;
use tonic::metadata::MetadataValue;
use tonic::{Code, Request};

use super::helpers::*;

fn item(spec: proto::PuzzleSpec, request_id: &str) -> proto::ImportPuzzlesRequest {
    proto::ImportPuzzlesRequest {
        puzzle: Some(proto::Puzzle {
            spec: Some(spec),
            ..Default::default()
        }),
        request_id: request_id.to_owned(),
    }
}

async fn import(
    app: &TestApp,
    items: Vec<proto::ImportPuzzlesRequest>,
) -> Result<proto::ImportPuzzlesResponse, tonic::Status> {
    app.client
        .clone()
        .import_puzzles(tokio_stream::iter(items))
        .await
        .map(|response| response.into_inner())
}

fn outcome(result: &proto::ImportResult) -> proto::ImportOutcome {
    proto::ImportOutcome::try_from(result.outcome).unwrap()
}

/// A path of 3 vertices, the token at one end, as geography labels it;
/// `relabelled` puts the token's end last (the same puzzle up to labels).
fn end_of_path(relabelled: bool) -> proto::PuzzleSpec {
    if relabelled {
        geography(3, &[2, 1, 1, 0], 2)
    } else {
        geography(3, &[0, 1, 1, 2], 0)
    }
}

fn tree_paint() -> proto::PuzzleSpec {
    proto::PuzzleSpec {
        game: proto::Game::TreePaint as i32,
        graph: graph(4, &[0, 1, 1, 2, 2, 3]),
        black: Some(0),
        white: Some(3),
        ..Default::default()
    }
}

#[tokio::test]
async fn each_puzzle_is_stored_or_refused_on_its_own_with_its_reason() {
    let app = spawn_app().await;
    let summary = import(
        &app,
        vec![
            item(end_of_path(false), "a"),
            item(geography(3, &[0, 7], 0), "b"),
            item(end_of_path(false), ""),
            item(end_of_path(true), "d"),
            item(tree_paint(), "e"),
            proto::ImportPuzzlesRequest {
                puzzle: None,
                request_id: "f".into(),
            },
            item(geography(3, &[0, 1], 0), &"g".repeat(101)),
        ],
    )
    .await
    .expect("the import is answered");
    let results = &summary.results;
    assert_eq!(results.len(), 7);
    assert_eq!(
        (
            summary.created_count,
            summary.replayed_count,
            summary.failed_count
        ),
        (3, 0, 4)
    );
    for (index, result) in results.iter().enumerate() {
        assert_eq!(result.index as usize, index);
    }
    let created: Vec<usize> = results
        .iter()
        .filter(|r| outcome(r) == proto::ImportOutcome::Created)
        .map(|r| r.index as usize)
        .collect();
    assert_eq!(created, [0, 3, 4]);
    // What each bad message gets: CreatePuzzle's code, reason and field.
    let failure = |index: usize| {
        let r = &results[index];
        assert_eq!(outcome(r), proto::ImportOutcome::Failed, "{r:?}");
        assert!(r.name.is_empty(), "{r:?}");
        (r.code.as_str(), r.reason.as_str(), r.field.as_str())
    };
    assert_eq!(
        failure(1),
        (
            "INVALID_ARGUMENT",
            "VERTEX_OUT_OF_RANGE",
            "puzzle.spec.graph.edges[1]"
        )
    );
    assert!(results[1].message.contains("7"), "{:?}", results[1]);
    assert_eq!(
        failure(2),
        ("INVALID_ARGUMENT", "REQUEST_ID_REQUIRED", "request_id")
    );
    assert_eq!(failure(5), ("INVALID_ARGUMENT", "FIELD_REQUIRED", "puzzle"));
    assert_eq!(
        failure(6),
        ("INVALID_ARGUMENT", "TEXT_TOO_LONG", "request_id")
    );
    // The relabelled copy is the same puzzle: it names the first.
    assert!(results[0].duplicate_of.is_empty());
    assert_eq!(results[3].duplicate_of, results[0].name);
    // Exactly the three stored ones are there, as sent.
    let mut listed: Vec<String> = app.listed().await.into_iter().map(|p| p.name).collect();
    listed.sort();
    let mut names: Vec<String> = created.iter().map(|&i| results[i].name.clone()).collect();
    names.sort();
    assert_eq!(listed, names);
    let stored = app.read(&results[4].name).await;
    assert_eq!(stored.spec, Some(tree_paint()));
}

#[tokio::test]
async fn a_retried_import_replays_its_results_and_stores_nothing_twice() {
    let app = spawn_app().await;
    let items = || {
        vec![
            item(end_of_path(false), "one"),
            item(tree_paint(), "two"),
            item(geography(3, &[0, 9], 0), "three"),
        ]
    };
    let first = import(&app, items()).await.unwrap();
    let again = import(&app, items()).await.unwrap();
    assert_eq!(
        (
            again.created_count,
            again.replayed_count,
            again.failed_count
        ),
        (0, 2, 1)
    );
    for (before, after) in first.results.iter().zip(&again.results) {
        assert_eq!(before.name, after.name);
        if !before.name.is_empty() {
            assert_eq!(outcome(after), proto::ImportOutcome::Replayed);
        }
    }
    assert_eq!(app.listed().await.len(), 2);
    // A request_id once used names its puzzle: another payload under it is
    // refused, as CreatePuzzle refuses it, and the rest still go in.
    let reused = import(
        &app,
        vec![
            item(path(5), "one"),
            item(path(6), "four"),
            item(geography(3, &[0, 1], 0), "three"),
        ],
    )
    .await
    .unwrap();
    let r = &reused.results[0];
    assert_eq!(outcome(r), proto::ImportOutcome::Failed);
    assert_eq!(
        (r.code.as_str(), r.reason.as_str()),
        ("ALREADY_EXISTS", "REQUEST_ID_REUSED")
    );
    assert_eq!(outcome(&reused.results[1]), proto::ImportOutcome::Created);
    // A request_id whose puzzle failed before is free for its corrected one.
    assert_eq!(outcome(&reused.results[2]), proto::ImportOutcome::Created);
    assert_eq!(app.listed().await.len(), 4);
    // CreatePuzzle and ImportPuzzles share request_ids.
    let mut request = create_request(tree_paint());
    request.request_id = "two".into();
    let created = app.client.clone().create_puzzle(request).await.unwrap();
    assert_eq!(created.into_inner().name, first.results[1].name);
}

#[tokio::test]
async fn past_the_limit_the_call_ends_and_the_first_puzzles_are_kept() {
    let app = spawn_app().await;
    let limit = puzzled::api::MAX_IMPORT_PUZZLES;
    let items: Vec<_> = (0..=limit)
        .map(|i| item(path(2 + (i % 5) as u32), &format!("bulk-{i}")))
        .collect();
    let refused = import(&app, items).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(error_reason(&refused), "TOO_MANY_PUZZLES");
    assert!(
        refused.message().contains(&limit.to_string()),
        "{refused:?}"
    );
    // The first `limit` are stored; sending them again stores none of them
    // twice.
    let replay: Vec<_> = (0..limit)
        .map(|i| item(path(2 + (i % 5) as u32), &format!("bulk-{i}")))
        .collect();
    let summary = import(&app, replay).await.unwrap();
    assert_eq!(summary.replayed_count as usize, limit);
    assert_eq!(summary.created_count, 0);
}

#[tokio::test]
async fn with_writer_tokens_an_import_needs_one_and_stores_nothing_without() {
    let app = app_with(|config| {
        config.writer_tokens = Some("alice=alice-token-0123456789".into());
    })
    .await;
    let refused = import(&app, vec![item(path(3), "x")]).await.unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert_eq!(error_reason(&refused), "WRITER_TOKEN_MISSING");
    assert!(app.listed().await.is_empty());
    let mut request = Request::new(tokio_stream::iter(vec![item(path(3), "x")]));
    request.metadata_mut().insert(
        "authorization",
        MetadataValue::from_static("Bearer alice-token-0123456789"),
    );
    let summary = app
        .client
        .clone()
        .import_puzzles(request)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(summary.created_count, 1);
}

/// Everything one server exports, as (spec, canonical hash), newest first.
async fn exported(app: &TestApp) -> Vec<(proto::PuzzleSpec, String)> {
    let mut stream = app
        .client
        .clone()
        .export_puzzles(proto::ExportPuzzlesRequest::default())
        .await
        .unwrap()
        .into_inner();
    let mut out = Vec::new();
    while let Some(item) = stream.next().await {
        let puzzle = item.unwrap().puzzle.unwrap();
        out.push((puzzle.spec.unwrap(), puzzle.canonical_hash));
    }
    out
}

#[tokio::test]
async fn an_export_imported_into_an_empty_store_exports_the_same_puzzles() {
    let source = spawn_app().await;
    for i in 0..40u32 {
        let spec = match i % 4 {
            0 => tree_paint(),
            1 => proto::PuzzleSpec {
                game: proto::Game::BipartiteEdge as i32,
                graph: graph(4 + i % 3, &[0, 1, 2, 3]),
                ..Default::default()
            },
            2 => proto::PuzzleSpec {
                game: proto::Game::DirectedVertexGeography as i32,
                graph: graph(3, &[0, 1, 1, 2, 2, 0]),
                start: i % 3,
                ..Default::default()
            },
            _ => proto::PuzzleSpec {
                title: format!("path {i}"),
                author: "someone".into(),
                ..path(2 + i % 9)
            },
        };
        source.create(spec).await;
    }
    let first = exported(&source).await;
    // Oldest first, so that the copy lists them in the same order.
    let items: Vec<_> = first
        .iter()
        .rev()
        .enumerate()
        .map(|(i, (spec, _))| item(spec.clone(), &format!("copy-{i}")))
        .collect();
    let copy = spawn_app().await;
    let summary = import(&copy, items).await.unwrap();
    assert_eq!(summary.created_count, 40, "{:?}", summary.results);
    assert_eq!(exported(&copy).await, first);
}
