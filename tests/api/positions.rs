//! AnalyzePosition and Play through the generated client: positions against
//! plain game-tree search and the independent evidence checker, every kind
//! of illegal move, the opening served from the verdict cache, whole games
//! against the engine, the idle timeout and the game limit.

use std::collections::BTreeSet;
use std::time::Duration;

use puzzled_testkit::evidence::{PlainGraph, Winner, check_geography};
use puzzled_testkit::random::{Rng as _, XorShift};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;
use tonic_types::StatusExt as _;

use super::checker::pairs;
use super::helpers::*;
use puzzled_testkit::oracle::{Colouring, GeographySearch, PaintSearch};

/// How long a test waits for what the server must do before it counts as
/// hung: a guard, never the property tested.
const HANG_GUARD: Duration = Duration::from_secs(60);

fn vertex(v: u32) -> proto::Move {
    proto::Move {
        r#move: Some(proto::r#move::Move::Vertex(v)),
    }
}

fn edge_move(u: u32, v: u32) -> proto::Move {
    proto::Move {
        r#move: Some(proto::r#move::Move::Edge(proto::Edge { u, v })),
    }
}

fn vertex_of(m: &proto::Move) -> u32 {
    match m.r#move {
        Some(proto::r#move::Move::Vertex(v)) => v,
        ref other => panic!("not a vertex move: {other:?}"),
    }
}

fn inline(spec: proto::PuzzleSpec, moves: Vec<proto::Move>) -> proto::AnalyzePositionRequest {
    proto::AnalyzePositionRequest {
        puzzle: Some(proto::analyze_position_request::Puzzle::Spec(spec)),
        moves,
    }
}

fn stored(name: &str, moves: Vec<proto::Move>) -> proto::AnalyzePositionRequest {
    proto::AnalyzePositionRequest {
        puzzle: Some(proto::analyze_position_request::Puzzle::Name(name.into())),
        moves,
    }
}

fn player(first: bool) -> i32 {
    if first {
        proto::Player::First as i32
    } else {
        proto::Player::Second as i32
    }
}

/// Checks a Geography analysis of `line` from `start` against search and
/// the evidence checker (about the remaining graph).
fn check_geography_position(
    n: u32,
    edges: &[u32],
    start: u32,
    line: &[u32],
    analysis: &proto::PositionAnalysis,
) {
    let mut search = GeographySearch::new(n as usize, &pairs(edges));
    let mut visited = 1u32 << start;
    let mut token = start;
    for &v in line {
        visited |= 1 << v;
        token = v;
    }
    let legal: BTreeSet<u32> = search.legal(visited, token).into_iter().collect();
    let wins = search.mover_wins(visited, token);
    let winning: BTreeSet<u32> = search.winning(visited, token).into_iter().collect();
    let mover_first = line.len().is_multiple_of(2);
    assert_eq!(analysis.to_move, player(mover_first), "after {line:?}");
    assert_eq!(analysis.game_over, legal.is_empty(), "after {line:?}");
    assert_eq!(
        analysis.winner,
        player(mover_first == wins),
        "winner after {line:?}"
    );
    let listed: BTreeSet<u32> = analysis.legal_moves.iter().map(vertex_of).collect();
    assert_eq!(listed, legal, "legal moves after {line:?}");
    assert_eq!(analysis.legal_move_count, legal.len() as u64);
    let reported: BTreeSet<u32> = analysis.winning_moves.iter().map(vertex_of).collect();
    assert_eq!(reported, winning, "winning moves after {line:?}");
    let summary = analysis.winning.as_ref().expect("winning is always set");
    assert_eq!(summary.count, winning.len() as u64);
    assert!(summary.complete);
    assert_eq!(summary.unique, winning.len() == 1);
    // The evidence is about the remaining graph: visited vertices other
    // than the token deleted, ids kept.
    let gone = visited & !(1 << token);
    let remaining: Vec<(u32, u32)> = edges
        .chunks_exact(2)
        .map(|e| (e[0], e[1]))
        .filter(|&(u, v)| gone >> u & 1 == 0 && gone >> v & 1 == 0)
        .collect();
    let Some(proto::position_analysis::Detail::Geography(evidence)) = &analysis.detail else {
        panic!("no Geography evidence: {analysis:?}");
    };
    let matching: Vec<(u32, u32)> = evidence
        .matching
        .chunks_exact(2)
        .map(|p| (p[0], p[1]))
        .collect();
    assert_eq!(evidence.matching_size as usize, matching.len());
    check_geography(
        &PlainGraph::new(n as usize, &remaining),
        token,
        if wins { Winner::First } else { Winner::Second },
        &matching,
        &evidence.barrier,
        evidence
            .start_barrier
            .as_ref()
            .map(|s| s.vertices.as_slice()),
    )
    .unwrap_or_else(|e| panic!("evidence after {line:?}: {e}"));
}

/// AnalyzePosition's answer to a request that must succeed.
async fn analyze(
    app: &mut TestApp,
    request: proto::AnalyzePositionRequest,
) -> proto::PositionAnalysis {
    app.client
        .analyze_position(request)
        .await
        .unwrap()
        .into_inner()
}

/// Stores `spec`; its name.
async fn create(app: &mut TestApp, spec: proto::PuzzleSpec) -> String {
    app.client
        .create_puzzle(create_request(spec))
        .await
        .unwrap()
        .into_inner()
        .name
}

/// A deterministic pseudo-random sequence for picking moves.
fn picks(seed: u64) -> impl FnMut(usize) -> usize {
    let mut rng = XorShift::scrambled(seed);
    move |len| rng.below(len as u64) as usize
}

#[tokio::test]
async fn geography_positions_agree_with_search_inline_and_stored() {
    let mut app = spawn_app().await;
    for seed in 0..30u64 {
        let n = 2 + (seed % 7) as u32;
        let edges = random_graph(n, (n as usize * 3) / 2, seed);
        let start = (seed as u32 * 5) % n;
        let spec = geography(n, &edges, start);
        let name = create(&mut app, spec.clone()).await;
        let mut pick = picks(seed);
        let mut line: Vec<u32> = Vec::new();
        loop {
            let moves: Vec<proto::Move> = line.iter().map(|&v| vertex(v)).collect();
            let analysis = analyze(&mut app, inline(spec.clone(), moves.clone())).await;
            check_geography_position(n, &edges, start, &line, &analysis);
            // The stored puzzle is analysed warm from its witness: the
            // verdict and moves are the same, its evidence checks out.
            let from_store = analyze(&mut app, stored(&name, moves)).await;
            check_geography_position(n, &edges, start, &line, &from_store);
            if analysis.game_over {
                break;
            }
            let legal = &analysis.legal_moves;
            line.push(vertex_of(&legal[pick(legal.len())]));
        }
    }
}

/// The edge game forgets how a graph was reached: the position after some
/// moves is the puzzle on the graph with those edges added, which Solve
/// answers (and the independent checker checks).
#[tokio::test]
async fn edge_game_positions_agree_with_solving_the_grown_graph() {
    let mut app = spawn_app().await;
    let edge_game = |n: u32, edges: &[u32]| proto::PuzzleSpec {
        game: proto::Game::BipartiteEdge as i32,
        graph: graph(n, edges),
        ..Default::default()
    };
    for seed in 0..12u64 {
        let n = 2 + (seed % 5) as u32;
        let mut edges: Vec<u32> = (1..n).step_by(2).flat_map(|v| [v - 1, v]).collect();
        let spec = edge_game(n, &edges);
        let mut line: Vec<proto::Move> = Vec::new();
        let mut pick = picks(seed);
        loop {
            let analysis = analyze(&mut app, inline(spec.clone(), line.clone())).await;
            let solution = app
                .client
                .solve(proto::SolveRequest {
                    spec: Some(edge_game(n, &edges)),
                    include_all_starts: false,
                    include_winning_moves: true,
                })
                .await
                .unwrap()
                .into_inner();
            super::checker::check_bipartite_edge(
                n,
                &edges,
                super::checker::Asked {
                    all_starts: false,
                    winning_moves: true,
                },
                &solution,
            );
            let mover_first = line.len().is_multiple_of(2);
            let mover_wins = solution.winner == proto::Player::First as i32;
            assert_eq!(analysis.winner, player(mover_first == mover_wins));
            assert_eq!(analysis.to_move, player(mover_first));
            let Some(proto::position_analysis::Detail::BipartiteEdge(evidence)) = &analysis.detail
            else {
                panic!("no edge-game evidence");
            };
            let Some(proto::solution::Detail::BipartiteEdge(solved)) = &solution.detail else {
                panic!("no edge-game evidence");
            };
            assert_eq!(
                (
                    evidence.x,
                    evidence.iso,
                    evidence.oo,
                    evidence.eo,
                    evidence.ee
                ),
                (solved.x, solved.iso, solved.oo, solved.eo, solved.ee)
            );
            assert_eq!(
                analysis.winning.as_ref().unwrap().count,
                solution.winning_moves.as_ref().unwrap().count
            );
            let classes: u64 = evidence
                .legal_move_classes
                .iter()
                .map(|c| c.edge_count)
                .sum();
            assert_eq!(classes, analysis.legal_move_count);
            assert_eq!(analysis.game_over, analysis.legal_move_count == 0);
            if analysis.game_over {
                break;
            }
            let chosen = analysis.legal_moves[pick(analysis.legal_moves.len())];
            let Some(proto::r#move::Move::Edge(proto::Edge { u, v })) = chosen.r#move else {
                panic!("edge-game moves are edges");
            };
            edges.extend([u, v]);
            line.push(chosen);
        }
    }
}

#[tokio::test]
async fn tree_paint_positions_agree_with_search() {
    let mut app = spawn_app().await;
    for seed in 0..12u64 {
        let n = 3 + (seed % 6) as u32;
        let mut pick = picks(seed + 100);
        let edges: Vec<u32> = (1..n).flat_map(|v| [pick(v as usize) as u32, v]).collect();
        let spec = proto::PuzzleSpec {
            game: proto::Game::TreePaint as i32,
            graph: graph(n, &edges),
            black: Some(0),
            white: Some(n - 1),
            ..Default::default()
        };
        let mut search = PaintSearch::new(n as usize, &pairs(&edges));
        let mut colouring = Colouring::opening(0, n - 1);
        let mut line: Vec<proto::Move> = Vec::new();
        loop {
            let analysis = analyze(&mut app, inline(spec.clone(), line.clone())).await;
            let wins = search.mover_wins(colouring);
            assert_eq!(
                analysis.winner,
                player(colouring.black_to_move == wins),
                "after {line:?}"
            );
            let legal: BTreeSet<u32> = search.legal(colouring).into_iter().collect();
            let listed: BTreeSet<u32> = analysis.legal_moves.iter().map(vertex_of).collect();
            assert_eq!(listed, legal);
            let winning: BTreeSet<u32> = search.winning(colouring).into_iter().collect();
            let reported: BTreeSet<u32> = analysis.winning_moves.iter().map(vertex_of).collect();
            assert_eq!(reported, winning, "after {line:?}");
            if analysis.game_over {
                break;
            }
            let chosen = analysis.legal_moves[pick(analysis.legal_moves.len())];
            colouring = colouring.after(vertex_of(&chosen));
            line.push(chosen);
        }
    }
}

/// The field and reason of an INVALID_ARGUMENT.
fn violation(status: &tonic::Status) -> (String, String) {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let details = status.get_error_details();
    let field = details
        .bad_request()
        .and_then(|b| b.field_violations.first())
        .map(|v| v.field.clone())
        .unwrap_or_default();
    (field, error_reason(status))
}

#[tokio::test]
async fn illegal_move_lists_name_the_move_and_why() {
    let mut app = spawn_app().await;
    // Path 0-1-2-3 from 0.
    let path = geography(4, &[0, 1, 1, 2, 2, 3], 0);
    let edge_game = proto::PuzzleSpec {
        game: proto::Game::BipartiteEdge as i32,
        graph: graph(4, &[0, 1, 1, 2]),
        ..Default::default()
    };
    let tree = proto::PuzzleSpec {
        game: proto::Game::TreePaint as i32,
        graph: graph(4, &[0, 1, 1, 2, 2, 3]),
        black: Some(0),
        white: Some(3),
        ..Default::default()
    };
    let cases: Vec<(proto::PuzzleSpec, Vec<proto::Move>, &str, &str)> = vec![
        (path.clone(), vec![vertex(2)], "moves[0]", "NOT_ADJACENT"),
        (
            path.clone(),
            vec![vertex(1), vertex(0)],
            "moves[1]",
            "ALREADY_VISITED",
        ),
        (
            path.clone(),
            vec![vertex(7)],
            "moves[0]",
            "VERTEX_OUT_OF_RANGE",
        ),
        (
            path.clone(),
            vec![vertex(1), vertex(2), vertex(3), vertex(2)],
            "moves[3]",
            "GAME_OVER",
        ),
        (
            path.clone(),
            vec![vertex(1), edge_move(2, 3)],
            "moves[1]",
            "WRONG_MOVE_KIND",
        ),
        (
            edge_game.clone(),
            vec![edge_move(1, 0)],
            "moves[0]",
            "EDGE_ALREADY_PRESENT",
        ),
        (
            edge_game.clone(),
            vec![edge_move(0, 2)],
            "moves[0]",
            "CLOSES_ODD_CYCLE",
        ),
        (
            edge_game.clone(),
            vec![edge_move(0, 3), edge_move(2, 2)],
            "moves[1]",
            "SELF_LOOP",
        ),
        (
            edge_game.clone(),
            vec![vertex(1)],
            "moves[0]",
            "WRONG_MOVE_KIND",
        ),
        (
            tree.clone(),
            vec![vertex(2)],
            "moves[0]",
            "NOT_NEXT_TO_OWN_COLOUR",
        ),
        (
            tree.clone(),
            vec![vertex(1), vertex(1)],
            "moves[1]",
            "ALREADY_PAINTED",
        ),
        (
            path.clone(),
            vec![proto::Move { r#move: None }],
            "moves[0]",
            "MOVE_REQUIRED",
        ),
    ];
    for (spec, moves, field, reason) in cases {
        let status = app
            .client
            .analyze_position(inline(spec, moves.clone()))
            .await
            .expect_err("an illegal list is refused");
        assert_eq!(
            violation(&status),
            (field.to_owned(), reason.to_owned()),
            "{moves:?}"
        );
        assert!(status.message().starts_with(field), "{}", status.message());
    }
    let status = app
        .client
        .analyze_position(proto::AnalyzePositionRequest {
            puzzle: None,
            moves: vec![],
        })
        .await
        .unwrap_err();
    assert_eq!(
        violation(&status),
        ("puzzle".into(), "FIELD_REQUIRED".into())
    );
    let gone = create(&mut app, path.clone()).await;
    app.client
        .delete_puzzle(proto::DeletePuzzleRequest { name: gone.clone() })
        .await
        .unwrap();
    let status = app
        .client
        .analyze_position(stored(&gone, vec![]))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    // The server is still there, and answers.
    let fine = analyze(&mut app, inline(path, vec![vertex(1)])).await;
    assert_eq!(fine.to_move, proto::Player::Second as i32);
}

/// The opening of a stored puzzle comes from the verdict cache: asking
/// for it fills the cache SolvePuzzle reads (with winning moves), and the
/// answer equals a fresh analysis of the same puzzle inline.
#[tokio::test]
async fn a_stored_opening_is_served_from_the_verdict_cache() {
    let mut app = spawn_app().await;
    let specs = [
        geography(6, &[0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 5], 5),
        geography(5, &[0, 1, 1, 2, 2, 3, 3, 4], 0),
        proto::PuzzleSpec {
            game: proto::Game::TreePaint as i32,
            graph: graph(7, &[2, 5, 0, 1, 2, 0, 6, 3, 4, 6, 0, 3]),
            black: Some(0),
            white: Some(6),
            ..Default::default()
        },
    ];
    for spec in specs {
        let name = create(&mut app, spec.clone()).await;
        let from_cache = analyze(&mut app, stored(&name, vec![])).await;
        let fresh = analyze(&mut app, inline(spec, vec![])).await;
        assert_eq!(from_cache, fresh);
        let solution = app
            .client
            .solve_puzzle(proto::SolvePuzzleRequest {
                name: name.clone(),
                include_all_starts: false,
                include_winning_moves: true,
            })
            .await
            .unwrap()
            .into_inner();
        assert!(
            solution.cached,
            "AnalyzePosition solved {name} into the cache"
        );
    }
}

/// A Play call: the sender for client messages and the response stream.
struct PlayCall {
    send: mpsc::Sender<proto::PlayRequest>,
    responses: tonic::Streaming<proto::PlayResponse>,
}

async fn open_play(app: &mut TestApp) -> PlayCall {
    let (send, receive) = mpsc::channel(4);
    let responses = app
        .client
        .play(ReceiverStream::new(receive))
        .await
        .expect("the call opens")
        .into_inner();
    PlayCall { send, responses }
}

impl PlayCall {
    async fn say(
        &mut self,
        request: proto::play_request::Request,
    ) -> Result<Option<proto::PlayResponse>, tonic::Status> {
        self.send
            .send(proto::PlayRequest {
                request: Some(request),
            })
            .await
            .expect("the call is open");
        self.responses.message().await
    }

    async fn start(&mut self, spec: proto::PuzzleSpec, human_first: bool) -> proto::PlayResponse {
        self.say(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(proto::play_start::Puzzle::Spec(spec)),
            human_side: player(human_first),
        }))
        .await
        .expect("the game starts")
        .expect("an opening position")
    }

    async fn play(&mut self, m: proto::Move) -> proto::PlayResponse {
        self.say(proto::play_request::Request::Move(m))
            .await
            .expect("the move is answered")
            .expect("a response")
    }
}

/// Whole Geography games against the engine on random small graphs, the
/// client playing random legal moves (and an illegal one now and then):
/// every position agrees with search, and the engine never loses a game
/// it stood to win.
#[tokio::test]
async fn geography_games_the_engine_never_loses_from_a_won_position() {
    let mut app = spawn_app().await;
    for seed in 0..24u64 {
        let n = 2 + (seed % 8) as u32;
        let edges = random_graph(n, (n as usize * 3) / 2, seed + 7);
        let start = (seed as u32 * 3) % n;
        let mut search = GeographySearch::new(n as usize, &pairs(&edges));
        let human_first = seed % 2 == 0;
        let mut call = open_play(&mut app).await;
        let opening = call.start(geography(n, &edges, start), human_first).await;
        let mut line: Vec<u32> = opening.server_move.iter().map(vertex_of).collect();
        let mut position = opening.position.expect("a position");
        let mut pick = picks(seed);
        let mut engine_stood_winning = false;
        loop {
            assert!(
                position.detail.is_none(),
                "Play positions carry no evidence"
            );
            let mut full = position.clone();
            full.detail = None;
            // Verdict, legal and winning moves against search (the evidence
            // is AnalyzePosition's).
            let analysed = analyze(
                &mut app,
                inline(
                    geography(n, &edges, start),
                    line.iter().map(|&v| vertex(v)).collect(),
                ),
            )
            .await;
            check_geography_position(n, &edges, start, &line, &analysed);
            let mut expected = analysed;
            expected.detail = None;
            assert_eq!(full, expected, "after {line:?}");
            if position.game_over {
                break;
            }
            if pick(4) == 0 {
                // An illegal move: refused, and the position (unchanged)
                // not sent again.
                let refused = call.play(vertex(n + 3)).await;
                let rejection = refused.rejected.expect("refused");
                assert_eq!(rejection.reason, "VERTEX_OUT_OF_RANGE");
                assert!(refused.server_move.is_none());
                assert_eq!(refused.position, None);
            }
            let legal = &position.legal_moves;
            let chosen = vertex_of(&legal[pick(legal.len())]);
            line.push(chosen);
            let answer = call.play(vertex(chosen)).await;
            assert!(answer.rejected.is_none());
            if let Some(engine_move) = &answer.server_move {
                let mut visited = 1u32 << start;
                for &v in &line {
                    visited |= 1 << v;
                }
                if search.mover_wins(visited, chosen) {
                    engine_stood_winning = true;
                }
                line.push(vertex_of(engine_move));
            }
            position = answer.position.expect("a position");
        }
        // After the final position the server ends the call with OK.
        assert!(call.responses.message().await.unwrap().is_none());
        let engine_first = !human_first;
        let engine_won = position.winner == player(engine_first);
        if engine_stood_winning {
            assert!(engine_won, "the engine lost a won game: {line:?}");
        }
    }
}

#[tokio::test]
async fn other_games_play_to_the_end_and_refuse_bad_messages() {
    let mut app = spawn_app().await;
    let tree = proto::PuzzleSpec {
        game: proto::Game::TreePaint as i32,
        graph: graph(7, &[2, 5, 0, 1, 2, 0, 6, 3, 4, 6, 0, 3]),
        black: Some(0),
        white: Some(6),
        ..Default::default()
    };
    let edge_game = proto::PuzzleSpec {
        game: proto::Game::BipartiteEdge as i32,
        graph: graph(4, &[0, 1, 1, 2, 2, 3]),
        ..Default::default()
    };
    for spec in [tree, edge_game] {
        let mut call = open_play(&mut app).await;
        let mut position = call.start(spec.clone(), true).await.position.unwrap();
        // A second start and an empty message are refused; the game goes on.
        let again = call
            .say(proto::play_request::Request::Start(
                proto::PlayStart::default(),
            ))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(again.rejected.unwrap().reason, "NOT_A_MOVE");
        let empty = call
            .say(proto::play_request::Request::Move(proto::Move {
                r#move: None,
            }))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(empty.rejected.unwrap().reason, "MOVE_REQUIRED");
        let wrong = call.play(vertex(1)).await;
        if spec.game == proto::Game::BipartiteEdge as i32 {
            assert_eq!(wrong.rejected.unwrap().reason, "WRONG_MOVE_KIND");
        } else {
            assert!(wrong.rejected.is_none(), "painting vertex 1 is legal");
            position = wrong.position.unwrap();
        }
        while !position.game_over {
            let answer = call.play(position.legal_moves[0]).await;
            assert!(answer.rejected.is_none(), "{answer:?}");
            position = answer.position.unwrap();
        }
        assert!(call.responses.message().await.unwrap().is_none());
        // The engine played first-player-wins puzzles as the second
        // player, against a client playing its first legal move: the
        // result is the one search gives, checked by the solver tests;
        // here the game simply ends with a winner.
        assert_ne!(position.winner, proto::Player::Unspecified as i32);
    }
}

#[tokio::test]
async fn a_call_must_start_with_start() {
    let mut app = spawn_app().await;
    let mut call = open_play(&mut app).await;
    let status = call
        .say(proto::play_request::Request::Move(vertex(1)))
        .await
        .unwrap_err();
    assert_eq!(
        violation(&status),
        ("start".into(), "START_REQUIRED".into())
    );
    let mut call = open_play(&mut app).await;
    let status = call
        .say(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(proto::play_start::Puzzle::Spec(geography(
                3,
                &[0, 1, 1, 5],
                0,
            ))),
            human_side: 0,
        }))
        .await
        .unwrap_err();
    assert_eq!(violation(&status).1, "VERTEX_OUT_OF_RANGE");
    assert!(
        status.message().starts_with("start.spec."),
        "{}",
        status.message()
    );
}

#[tokio::test]
async fn a_silent_game_is_closed_and_the_limit_on_games_holds() {
    let mut app = app_with(|config| {
        config.play_idle_secs = 1;
        config.max_games = 1;
    })
    .await;
    let path = geography(5, &[0, 1, 1, 2, 2, 3, 3, 4], 0);
    let mut first = open_play(&mut app).await;
    first.start(path.clone(), true).await;
    // A second game while the first is open: refused.
    let mut second = open_play(&mut app).await;
    let status = second
        .say(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(proto::play_start::Puzzle::Spec(path.clone())),
            human_side: 0,
        }))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert_eq!(error_reason(&status), "TOO_MANY_GAMES");
    // The first stays silent past the idle limit: closed. (A hang guard:
    // without the limit the game would stay open.)
    let closed = tokio::time::timeout(Duration::from_secs(60), first.responses.message())
        .await
        .expect("the server closes the game")
        .unwrap_err();
    assert_eq!(closed.code(), Code::DeadlineExceeded);
    assert_eq!(error_reason(&closed), "GAME_IDLE");
    // Its slot is free again.
    let mut third = open_play(&mut app).await;
    let opening = third.start(path, true).await;
    assert_eq!(
        opening.position.unwrap().to_move,
        proto::Player::First as i32
    );
}

/// Every kind of illegal move, sent on a Play stream: each is refused with
/// its reason (and no position: it is unchanged), and the game then goes
/// on.
#[tokio::test]
async fn every_illegal_move_is_refused_on_the_stream_and_the_game_goes_on() {
    let mut app = spawn_app().await;
    let path = geography(5, &[0, 1, 1, 2, 2, 3, 3, 4], 0);
    let edge_game = proto::PuzzleSpec {
        game: proto::Game::BipartiteEdge as i32,
        graph: graph(5, &[0, 1, 1, 2]),
        ..Default::default()
    };
    let tree = proto::PuzzleSpec {
        game: proto::Game::TreePaint as i32,
        graph: graph(5, &[0, 1, 1, 2, 2, 3, 3, 4]),
        black: Some(1),
        white: Some(3),
        ..Default::default()
    };
    // A puzzle, illegal first moves with their reasons, then a legal one.
    type Case = (
        proto::PuzzleSpec,
        Vec<(proto::Move, &'static str)>,
        proto::Move,
    );
    let cases: Vec<Case> = vec![
        (
            path,
            vec![
                (vertex(2), "NOT_ADJACENT"),
                (vertex(0), "ALREADY_VISITED"),
                (vertex(9), "VERTEX_OUT_OF_RANGE"),
                (edge_move(0, 1), "WRONG_MOVE_KIND"),
            ],
            vertex(1),
        ),
        (
            edge_game,
            vec![
                (edge_move(1, 0), "EDGE_ALREADY_PRESENT"),
                (edge_move(0, 2), "CLOSES_ODD_CYCLE"),
                (edge_move(3, 3), "SELF_LOOP"),
                (edge_move(0, 7), "VERTEX_OUT_OF_RANGE"),
                (vertex(3), "WRONG_MOVE_KIND"),
            ],
            edge_move(3, 4),
        ),
        (
            tree,
            vec![
                (vertex(4), "NOT_NEXT_TO_OWN_COLOUR"),
                (vertex(3), "ALREADY_PAINTED"),
                (vertex(8), "VERTEX_OUT_OF_RANGE"),
            ],
            vertex(0),
        ),
    ];
    for (spec, illegal, legal) in cases {
        let mut call = open_play(&mut app).await;
        let opening = call.start(spec, true).await;
        assert!(opening.server_move.is_none(), "the person moves first");
        for (played, reason) in illegal {
            let refused = call.play(played).await;
            let rejection = refused.rejected.expect("refused");
            assert_eq!(rejection.reason, reason, "{played:?}");
            assert!(
                rejection.message.starts_with("moves[0]: "),
                "{}",
                rejection.message
            );
            assert_eq!(refused.position, None, "the position is not sent again");
        }
        let answer = call.play(legal).await;
        assert!(answer.rejected.is_none(), "{answer:?}");
        assert_ne!(answer.position, opening.position);
    }
}

/// A game on a stored puzzle starts from its verdict (the engine's
/// matching is the verdict's witness): the opening equals a fresh
/// analysis, and the engine, first on a first-player win, wins.
#[tokio::test]
async fn a_game_on_a_stored_puzzle_starts_from_its_verdict() {
    let mut app = spawn_app().await;
    let mut games = 0;
    for seed in 0..10u64 {
        let n = 4 + (seed % 6) as u32;
        let edges = random_graph(n, n as usize + 2, seed + 50);
        let mut search = GeographySearch::new(n as usize, &pairs(&edges));
        // A start the first player wins has a move to make.
        let Some(start) = (0..n).find(|&s| search.first_player_wins(s)) else {
            continue;
        };
        let spec = geography(n, &edges, start);
        let name = create(&mut app, spec.clone()).await;
        let mut call = open_play(&mut app).await;
        let opening = call
            .say(proto::play_request::Request::Start(proto::PlayStart {
                puzzle: Some(proto::play_start::Puzzle::Name(name.clone())),
                human_side: proto::Player::Second as i32,
            }))
            .await
            .unwrap()
            .unwrap();
        let engine_move = vertex_of(opening.server_move.as_ref().expect("the engine opens"));
        let mut expected = analyze(&mut app, inline(spec, vec![vertex(engine_move)])).await;
        expected.detail = None;
        assert_eq!(opening.position.as_ref(), Some(&expected));
        assert_eq!(
            expected.winner,
            proto::Player::First as i32,
            "the mate wins"
        );
        let mut position = opening.position.unwrap();
        let mut pick = picks(seed);
        while !position.game_over {
            let legal = &position.legal_moves;
            position = call.play(legal[pick(legal.len())]).await.position.unwrap();
        }
        assert_eq!(position.winner, proto::Player::First as i32, "{name}");
        games += 1;
    }
    assert!(games >= 5, "only {games} graphs had a first-player start");
}

/// A shutdown ends open games at once (UNAVAILABLE, SHUTTING_DOWN) instead
/// of waiting out their idle time: with an hour of grace and the default
/// idle time of minutes, the server stops within the test's hang guard of
/// a minute only if the game did not hold it.
#[tokio::test]
async fn a_shutdown_ends_open_games() {
    let mut app = app_with(|config| {
        config.shutdown_grace_secs = 3600;
        assert!(Duration::from_secs(config.play_idle_secs) > HANG_GUARD);
    })
    .await;
    let mut call = open_play(&mut app).await;
    call.start(geography(5, &[0, 1, 1, 2, 2, 3, 3, 4], 0), true)
        .await;
    let stopping = app.request_stop();
    let ended = tokio::time::timeout(HANG_GUARD, call.responses.message())
        .await
        .expect("the game ends at the shutdown")
        .unwrap_err();
    assert_eq!(ended.code(), Code::Unavailable);
    assert_eq!(error_reason(&ended), "SHUTTING_DOWN");
    drop(call);
    tokio::time::timeout(HANG_GUARD, stopping.finish())
        .await
        .expect("the open game held the shutdown");
}

/// Open games draw from a budget of their own (`--games-budget`): two
/// games by name on a stored puzzle fill it, a third is refused at once
/// (GAMES_BUDGET_FULL), and meanwhile requests of the size the games hold
/// are served from the requests' budget as if no game were open. A game
/// on a puzzle larger than the whole games budget is refused
/// (GAMES_BUDGET_EXCEEDED).
#[tokio::test]
async fn open_games_do_not_hold_the_requests_budget() {
    let mut app = app_with(|config| {
        config.admission_budget = Some(1000);
        config.games_budget = Some(1000);
    })
    .await;
    // A path of 250 vertices and 249 edges: 499 units.
    let flat: Vec<u32> = (0..249).flat_map(|v| [v, v + 1]).collect();
    let name = create(&mut app, geography(250, &flat, 0)).await;
    let start_by_name = |name: &str| {
        proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(proto::play_start::Puzzle::Name(name.to_owned())),
            human_side: player(true),
        })
    };
    let mut first = open_play(&mut app).await;
    first.say(start_by_name(&name)).await.unwrap().unwrap();
    let mut second = open_play(&mut app).await;
    second.say(start_by_name(&name)).await.unwrap().unwrap();
    let mut third = open_play(&mut app).await;
    let refused = third.say(start_by_name(&name)).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert_eq!(error_reason(&refused), "GAMES_BUDGET_FULL");
    assert!(refused.message().contains("--games-budget"), "{refused:?}");

    // The requests' budget is whole: a request of 998 units is served at
    // once. (A hang guard: with the games in that budget it would wait
    // until they end.)
    let big: Vec<u32> = (0..499).flat_map(|v| [v, v + 1]).collect();
    let mut request = tonic::Request::new(solve_request(geography(500, &big, 0)));
    request.set_timeout(HANG_GUARD);
    app.client
        .solve(request)
        .await
        .expect("served beside the games");

    let too_big: Vec<u32> = (0..600).flat_map(|v| [v, v + 1]).collect();
    let mut fourth = open_play(&mut app).await;
    let refused = fourth
        .say(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(proto::play_start::Puzzle::Spec(geography(601, &too_big, 0))),
            human_side: player(true),
        }))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert_eq!(error_reason(&refused), "GAMES_BUDGET_EXCEEDED");

    // A game that ends gives its units back.
    drop(first);
    let guard = std::time::Instant::now() + HANG_GUARD;
    loop {
        let mut again = open_play(&mut app).await;
        match again.say(start_by_name(&name)).await {
            Ok(opening) => {
                assert!(opening.is_some());
                break;
            }
            Err(status) => {
                assert_eq!(error_reason(&status), "GAMES_BUDGET_FULL");
                assert!(
                    std::time::Instant::now() < guard,
                    "the ended game kept its units"
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

/// Refused moves do not keep a game open: a client that sends nothing but
/// illegal moves, each refused on the stream, has its game closed
/// GAME_IDLE once `--play-idle-secs` has passed since its last legal move,
/// as a silent client does. (A hang guard bounds the wait: with every
/// refusal starting the idle time again the game would never close.)
#[tokio::test]
async fn refused_moves_do_not_keep_a_game_open() {
    let mut app = app_with(|config| config.play_idle_secs = 1).await;
    let mut call = open_play(&mut app).await;
    call.start(geography(5, &[0, 1, 1, 2, 2, 3, 3, 4], 0), true)
        .await;
    let guard = std::time::Instant::now() + HANG_GUARD;
    let mut refused = 0;
    let closed = loop {
        assert!(std::time::Instant::now() < guard, "the game stayed open");
        let sent = call
            .send
            .send(proto::PlayRequest {
                request: Some(proto::play_request::Request::Move(vertex(4))),
            })
            .await;
        if sent.is_err() {
            // The server has closed the call: its status follows.
            break loop {
                match call.responses.message().await {
                    Ok(Some(_)) => {}
                    Ok(None) => panic!("the game ended without a status"),
                    Err(status) => break status,
                }
            };
        }
        match call.responses.message().await {
            Ok(Some(response)) => {
                assert!(response.rejected.is_some(), "{response:?}");
                refused += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Ok(None) => panic!("the game ended without a status"),
            Err(status) => break status,
        }
    };
    assert!(refused > 0);
    assert_eq!(closed.code(), Code::DeadlineExceeded);
    assert_eq!(error_reason(&closed), "GAME_IDLE");
}

/// A star of `leaves` leaves around vertex 0, the start.
fn star(leaves: u32) -> proto::PuzzleSpec {
    let flat: Vec<u32> = (1..=leaves).flat_map(|v| [0, v]).collect();
    geography(leaves + 1, &flat, 0)
}

/// A refused move is answered with why, and nothing the client already
/// has: on a star of 30,000 leaves (as many legal moves), each refusal is
/// a few dozen bytes, not the position's list of every legal move again.
#[tokio::test]
async fn a_refusal_does_not_send_the_position_again() {
    use prost::Message as _;
    let mut app = spawn_app().await;
    let mut call = open_play(&mut app).await;
    let opening = call.start(star(30_000), true).await;
    assert_eq!(opening.position.as_ref().unwrap().legal_moves.len(), 30_000);
    for _ in 0..20 {
        // The start is where the token is: not a move.
        let refused = call.play(vertex(0)).await;
        assert!(refused.rejected.is_some(), "{refused:?}");
        assert!(refused.position.is_none());
        assert!(
            refused.encoded_len() < 1024,
            "{} bytes",
            refused.encoded_len()
        );
    }
    // The game goes on from the same position.
    let answered = call.play(vertex(7)).await;
    assert!(answered.rejected.is_none());
    assert!(answered.position.is_some());
}

/// A game whose positions' move lists would pass `--max-message-bytes`
/// is played all the same: the responses leave the lists out, the largest
/// first, until they fit (their counts stay), rather than fail the call.
/// A star of 30,000 leaves under a 400 KB limit: the opening's lists
/// (every leaf as a legal move, and twice as a winning one) take more.
#[tokio::test]
async fn a_game_on_a_big_puzzle_leaves_its_lists_out_rather_than_fail() {
    let mut app = app_with(|config| config.max_message_bytes = Some(400_000)).await;
    let mut call = open_play(&mut app).await;
    let opening = call.start(star(30_000), true).await;
    let position = opening.position.unwrap();
    assert_eq!(position.legal_move_count, 30_000);
    assert!(position.legal_moves.is_empty());
    assert_eq!(position.winning.unwrap().count, 30_000);
    // The human moves to a leaf; the engine has no move left: over.
    let last = call.play(vertex(1)).await;
    assert!(last.position.unwrap().game_over);
}

/// An AnalyzePosition's move list counts against the admission budget as
/// a puzzle's vertices and edges do: 2,000 moves on a 5-vertex puzzle
/// under a budget of 1,000 are refused ADMISSION_BUDGET_EXCEEDED before
/// any of them is read, where the list alone would otherwise be worked on
/// outside the budget.
#[tokio::test]
async fn a_long_move_list_counts_against_the_admission_budget() {
    let mut app = app_with(|config| config.admission_budget = Some(1000)).await;
    let path = geography(5, &[0, 1, 1, 2, 2, 3, 3, 4], 0);
    let moves: Vec<proto::Move> = (0..2000).map(|i| vertex(i % 5)).collect();
    let refused = app
        .client
        .analyze_position(inline(path.clone(), moves))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(error_reason(&refused), "ADMISSION_BUDGET_EXCEEDED");
    // A short list is analysed as before.
    let analysis = app
        .client
        .analyze_position(inline(path, vec![vertex(1)]))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(analysis.to_move, proto::Player::Second as i32);
}
