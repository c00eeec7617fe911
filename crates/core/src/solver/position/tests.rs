//! The position model against exhaustive game-tree search, at positions
//! reached by random legal play and, for small graphs, at every reachable
//! position: the verdict, the complete set of winning moves, the legal
//! moves and their count, the evidence, the first illegal move of a list,
//! and the engine's move.
//!
//! The searches are the test kit's, written from the rules alone.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::*;
use crate::solver::bipartite_edge::tests::{EdgeSearch, bipartite_graph, mask_of};
use crate::solver::test_support::proptest_config as config;
use crate::solver::tree_paint::tests::{Colouring, PaintSearch, mover, paint_search, random_tree};
use puzzled_testkit::oracle::GeographySearch;

fn never() -> Cancel {
    Cancel::never()
}

fn graph(n: u64, edges: &[(Vertex, Vertex)]) -> Graph {
    Graph::from_pairs(n, edges).unwrap()
}

/// The graph on `n ≤ 7` vertices whose edges are the pairs `(u, v)`, `u < v`
/// in lexicographic order, selected by the bits of `mask`.
fn graph_of_mask(n: usize, mask: u32) -> Graph {
    let pairs = (0..n as Vertex).flat_map(|u| (u + 1..n as Vertex).map(move |v| (u, v)));
    let edges: Vec<(Vertex, Vertex)> = pairs
        .enumerate()
        .filter(|(i, _)| mask >> i & 1 == 1)
        .map(|(_, pair)| pair)
        .collect();
    graph(n as u64, &edges)
}

// ---- Geography --------------------------------------------------------

/// The test kit's search of Geography on `g`.
fn geography_search(g: &Graph) -> GeographySearch {
    let edges: Vec<(Vertex, Vertex)> = g.edges().collect();
    GeographySearch::new(g.vertex_count(), &edges)
}

fn geography_moves(line: &[Vertex]) -> Vec<Move> {
    line.iter().copied().map(Move::Geography).collect()
}

/// Odd components of the graph on the ids not in `gone`, edges of `g`
/// between them.
pub(crate) fn odd_components(g: &Graph, gone: &[bool]) -> usize {
    let n = g.vertex_count();
    let mut seen = gone.to_vec();
    let mut odd = 0;
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![root as Vertex];
        let mut size = 0;
        while let Some(u) = stack.pop() {
            size += 1;
            for &w in g.neighbors(u) {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push(w);
                }
            }
        }
        odd += size % 2;
    }
    odd
}

/// Checks the Geography evidence on its own terms: `matching` is a matching
/// of the remaining graph, `barrier` proves it maximum (Tutte–Berge), it
/// covers the token iff the mover wins, and `current_barrier` proves that
/// every maximum matching covers the token.
fn check_geography_evidence(g: &Graph, visited: u32, analysis: &PositionAnalysis) {
    let PositionEvidence::Geography {
        current,
        matching,
        barrier,
        current_barrier,
    } = &analysis.evidence
    else {
        panic!("Geography evidence expected, got {:?}", analysis.evidence);
    };
    let n = g.vertex_count();
    let removed: Vec<bool> = (0..n)
        .map(|v| visited >> v & 1 == 1 && v != *current as usize)
        .collect();
    let rest = g.without_vertices(&removed);
    let mut covered = vec![false; n];
    for &(u, v) in matching {
        assert!(
            u < v && rest.has_edge(u, v),
            "({u}, {v}) is not an edge left"
        );
        assert!(
            !covered[u as usize] && !covered[v as usize],
            "not a matching"
        );
        covered[u as usize] = true;
        covered[v as usize] = true;
    }
    let mut gone = vec![false; n];
    for &b in barrier {
        gone[b as usize] = true;
    }
    assert_eq!(
        n + barrier.len() - odd_components(&rest, &gone),
        2 * matching.len(),
        "barrier {barrier:?} does not prove {matching:?} maximum"
    );
    let mover_wins = analysis.position.winner == analysis.position.to_move;
    assert_eq!(covered[*current as usize], mover_wins);
    match current_barrier {
        None => assert!(!mover_wins, "a won position carries its second barrier"),
        Some(second) => {
            assert!(mover_wins);
            let mut gone = vec![false; n];
            gone[*current as usize] = true;
            for &b in second {
                assert_ne!(b, *current);
                gone[b as usize] = true;
            }
            assert_eq!(
                n - 1 + second.len() - odd_components(&rest, &gone),
                2 * (matching.len() - 1),
                "barrier {second:?} does not prove that every maximum matching covers {current}"
            );
        }
    }
}

/// `position`'s summary against the search's: whose move, whether the
/// game is over, how many legal moves there are, and the winner
/// (`mover_wins`: whether the player to move wins).
fn assert_summary(
    position: &PlayPosition,
    to_move: Player,
    legal_count: usize,
    mover_wins: bool,
    context: &str,
) {
    assert_eq!(position.to_move, to_move, "{context}");
    assert_eq!(position.game_over, legal_count == 0, "{context}");
    assert_eq!(position.legal_move_count, legal_count as u64, "{context}");
    let winner = if mover_wins { to_move } else { to_move.other() };
    assert_eq!(position.winner, winner, "{context}");
}

/// A vertex game's moves in `position` against the search's: every legal
/// move, and every winning one.
fn assert_vertex_moves(
    position: &PlayPosition,
    legal: Vec<Move>,
    winning: Vec<Move>,
    context: &str,
) {
    assert_eq!(position.legal_moves, legal, "{context}");
    assert_eq!(
        position.winning,
        WinningMoves::complete_list(winning),
        "{context}"
    );
}

/// The position after `line` from `start`, against the search.
fn check_geography_position(g: &Graph, start: Vertex, line: &[Vertex]) {
    let mut search = geography_search(g);
    let moves = geography_moves(line);
    let analysis = geography_position(g, start, &moves, &never()).unwrap();
    let visited = line.iter().fold(1u32 << start, |mask, &v| mask | 1 << v);
    let token = line.last().copied().unwrap_or(start);
    let legal = search.legal(visited, token);
    let winning = search.winning(visited, token);
    let to_move = to_move_after(line.len());
    let context = format!("{g:?} from {start} after {line:?}");
    let mover_wins = search.mover_wins(visited, token);
    assert_summary(
        &analysis.position,
        to_move,
        legal.len(),
        mover_wins,
        &context,
    );
    assert_vertex_moves(
        &analysis.position,
        geography_moves(&legal),
        geography_moves(&winning),
        &context,
    );
    check_geography_evidence(g, visited, &analysis);

    let setup = GameSetup::Geography { graph: g, start };
    let chosen = engine_move(setup, &moves, &analysis, &never()).unwrap();
    match chosen {
        None => assert!(legal.is_empty(), "{context}: no engine move"),
        Some(Move::Geography(v)) if !winning.is_empty() => {
            assert!(
                winning.contains(&v),
                "{context}: engine plays {v}, not a win"
            );
        }
        Some(Move::Geography(v)) => {
            // Losing: no legal move leaves the opponent fewer winning replies.
            assert!(legal.contains(&v), "{context}: engine plays illegal {v}");
            let replies =
                |search: &mut GeographySearch, w: Vertex| search.winning(visited | 1 << w, w).len();
            let chosen_replies = replies(&mut search, v);
            for &w in &legal {
                assert!(
                    chosen_replies <= replies(&mut search, w),
                    "{context}: engine plays {v}, {w} leaves fewer winning replies"
                );
            }
        }
        Some(other) => panic!("{context}: engine plays {other:?}"),
    }
}

/// Every path of legal moves from `start` (every reachable position).
fn every_line(g: &Graph, start: Vertex) -> Vec<Vec<Vertex>> {
    let mut lines = Vec::new();
    let mut stack = vec![vec![]];
    while let Some(line) = stack.pop() {
        let token = line.last().copied().unwrap_or(start);
        for &w in g.neighbors(token) {
            if w != start && !line.contains(&w) {
                let mut longer = line.clone();
                longer.push(w);
                stack.push(longer);
            }
        }
        lines.push(line);
    }
    lines
}

#[test]
fn geography_every_reachable_position_of_every_graph_up_to_5_vertices() {
    for n in 1..=5usize {
        for mask in 0..1u32 << (n * (n - 1) / 2) {
            let g = graph_of_mask(n, mask);
            for start in 0..n as Vertex {
                for line in every_line(&g, start) {
                    check_geography_position(&g, start, &line);
                }
            }
        }
    }
}

#[test]
fn geography_by_hand() {
    // Path 0-1-2-3 from 0: moving to 1 (the mate) is the only win.
    let g = graph(4, &[(0, 1), (1, 2), (2, 3)]);
    let analysis = geography_position(&g, 0, &[], &never()).unwrap();
    assert_eq!(analysis.position.winner, Player::First);
    assert_eq!(
        analysis.position.winning,
        WinningMoves::complete_list(vec![Move::Geography(1)])
    );
    assert!(analysis.position.winning.unique);
    // After 1, 2, 3 the second player is stuck on 3.
    let over = geography_moves(&[1, 2, 3]);
    let analysis = geography_position(&g, 0, &over, &never()).unwrap();
    assert!(analysis.position.game_over);
    assert_eq!(
        (analysis.position.to_move, analysis.position.winner),
        (Player::Second, Player::First)
    );
    assert_eq!(analysis.position.legal_move_count, 0);
    let setup = GameSetup::Geography {
        graph: &g,
        start: 0,
    };
    assert_eq!(engine_move(setup, &over, &analysis, &never()), Ok(None));
}

#[test]
fn geography_engine_plays_the_win_then_the_forced_loss() {
    // 0 with neighbours 1 (a leaf 3 behind it) and 2 (a path 2-4-5 behind
    // it): {0-2, 1-3, 4-5} is a perfect matching, so the first player wins,
    // and moving to 2 is the only win (2 ∈ D of the path 2-4-5, 1 ∉ D of
    // the edge 1-3).
    let g = graph(6, &[(0, 1), (0, 2), (1, 3), (2, 4), (4, 5)]);
    let analysis = geography_position(&g, 0, &[], &never()).unwrap();
    assert_eq!(analysis.position.winner, Player::First);
    assert_eq!(analysis.position.winning.moves, vec![Move::Geography(2)]);
    let setup = GameSetup::Geography {
        graph: &g,
        start: 0,
    };
    assert_eq!(
        engine_move(setup, &[], &analysis, &never()),
        Ok(Some(Move::Geography(2)))
    );
    // After 0→2 the second player, on 2, loses: its one legal move, 4, is
    // played anyway (the first player answers 5).
    let line = geography_moves(&[2]);
    let after = geography_position(&g, 0, &line, &never()).unwrap();
    assert_eq!(after.position.winner, Player::First);
    assert_eq!(
        engine_move(setup, &line, &after, &never()),
        Ok(Some(Move::Geography(4)))
    );
}

#[test]
fn geography_engine_breaks_ties_by_the_reachable_component() {
    // From 0 the first player loses ({1-6, 2-3, 4-5} is maximum and leaves
    // 0 exposed). Moving to 1 (then the opponent answers 6) and moving to 2
    // (then it answers 3) both leave exactly one winning reply; the path
    // 2-3-4-5 makes the game after 2 longer, so 2 is played although 1 is
    // smaller.
    let g = graph(7, &[(0, 1), (0, 2), (1, 6), (2, 3), (3, 4), (4, 5)]);
    let analysis = geography_position(&g, 0, &[], &never()).unwrap();
    assert_eq!(analysis.position.winner, Player::Second);
    let setup = GameSetup::Geography {
        graph: &g,
        start: 0,
    };
    for v in [1, 2] {
        let after = geography_position(&g, 0, &[Move::Geography(v)], &never()).unwrap();
        assert_eq!(after.position.winning.count, 1, "after {v}");
    }
    assert_eq!(
        engine_move(setup, &[], &analysis, &never()),
        Ok(Some(Move::Geography(2)))
    );
}

// ---- the edge game ----------------------------------------------------

fn edge_moves(edges: &[(Vertex, Vertex)]) -> Vec<Move> {
    edges.iter().map(|&(u, v)| Move::Edge(u, v)).collect()
}

/// The position after `line` (legal moves) on `g`, against the search.
fn check_edge_position(search: &mut EdgeSearch, g: &Graph, line: &[(Vertex, Vertex)]) {
    let moves = edge_moves(line);
    let analysis = bipartite_edge_position(g, &moves, &never()).unwrap();
    let after = bipartite_edge::position_after_moves(g, line).unwrap();
    let mask = mask_of(search, &after);
    let legal: BTreeSet<(Vertex, Vertex)> = search.legal_pairs(mask).into_iter().collect();
    let winning: BTreeSet<(Vertex, Vertex)> = search.winning(mask).into_iter().collect();
    let to_move = to_move_after(line.len());
    let context = format!("{g:?} after {line:?}");
    let mover_wins = search.mover_wins(mask);
    assert_summary(
        &analysis.position,
        to_move,
        legal.len(),
        mover_wins,
        &context,
    );

    let PositionEvidence::BipartiteEdge { counts, classes } = &analysis.evidence else {
        panic!("edge-game evidence expected");
    };
    assert_eq!(counts.m, after.edge_count() as u64);
    assert_eq!(
        classes.len(),
        analysis.position.legal_moves.len(),
        "{context}"
    );
    let mut examples = BTreeSet::new();
    for (class, &example) in classes.iter().zip(&analysis.position.legal_moves) {
        assert_eq!(example, Move::Edge(class.example.0, class.example.1));
        assert!(
            legal.contains(&class.example),
            "{context}: {class:?} is illegal"
        );
        assert_eq!(
            winning.contains(&class.example),
            class.wins,
            "{context}: {class:?}"
        );
        assert!(
            examples.insert(class.example),
            "two classes share an example"
        );
    }
    let class_total = |wins: bool| -> u64 {
        classes
            .iter()
            .filter(|class| !wins || class.wins)
            .map(|class| class.edge_count)
            .sum()
    };
    assert_eq!(class_total(false), legal.len() as u64, "{context}");
    assert_eq!(class_total(true), winning.len() as u64, "{context}");

    let won = &analysis.position.winning;
    assert_eq!(won.count, winning.len() as u64, "{context}");
    assert_eq!(won.unique, winning.len() == 1, "{context}");
    assert_eq!(won.complete, won.moves.len() == winning.len(), "{context}");
    for played in &won.moves {
        let Move::Edge(u, v) = *played else {
            panic!("{played:?} in the edge game");
        };
        assert!(
            winning.contains(&(u, v)),
            "{context}: {played:?} does not win"
        );
    }
    assert_eq!(won.moves.is_empty(), winning.is_empty(), "{context}");

    let setup = GameSetup::BipartiteEdge { graph: g };
    let chosen = engine_move(setup, &moves, &analysis, &never()).unwrap();
    match chosen {
        None => assert!(legal.is_empty(), "{context}: no engine move"),
        Some(Move::Edge(u, v)) if !winning.is_empty() => {
            assert!(
                winning.contains(&(u, v)),
                "{context}: engine plays ({u}, {v})"
            );
        }
        Some(Move::Edge(u, v)) => {
            assert!(
                legal.contains(&(u, v)),
                "{context}: engine plays illegal ({u}, {v})"
            );
            // The losing side picks among one example per class.
            let replies = |search: &mut EdgeSearch, (a, b): (Vertex, Vertex)| {
                let mut extended = line.to_vec();
                extended.push((a, b));
                let next = bipartite_edge::position_after_moves(g, &extended).unwrap();
                search.winning(mask_of(search, &next)).len()
            };
            let chosen_replies = replies(search, (u, v));
            for class in classes {
                assert!(
                    chosen_replies <= replies(search, class.example),
                    "{context}: engine plays ({u}, {v}), {:?} leaves fewer winning replies",
                    class.example
                );
            }
        }
        Some(other) => panic!("{context}: engine plays {other:?}"),
    }
}

/// Every position reachable from the empty graph on `n ≤ 5` vertices is a
/// bipartite graph, reached by adding its edges in any order.
#[test]
fn edge_game_every_reachable_position_up_to_5_vertices() {
    for n in 0..=5usize {
        let empty = graph(n as u64, &[]);
        let mut search = EdgeSearch::new(n);
        for mask in 0..1u64 << search.pair_count() {
            if !search.is_bipartite(mask) {
                continue;
            }
            let line: Vec<(Vertex, Vertex)> = (0..search.pair_count())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| search.pair(i))
                .collect();
            check_edge_position(&mut search, &empty, &line);
        }
    }
}

#[test]
fn edge_game_by_hand() {
    // ABC398 G sample 1: the path 0-1-2-3; closing the 4-cycle is the only
    // winning move, and after it the game is over.
    let path = graph(4, &[(0, 1), (1, 2), (2, 3)]);
    let analysis = bipartite_edge_position(&path, &[], &never()).unwrap();
    assert_eq!(analysis.position.winner, Player::First);
    assert_eq!(
        analysis.position.winning,
        WinningMoves {
            moves: vec![Move::Edge(0, 3)],
            count: 1,
            unique: true,
            complete: true
        }
    );
    assert_eq!(analysis.position.legal_moves, vec![Move::Edge(0, 3)]);
    let over = bipartite_edge_position(&path, &[Move::Edge(3, 0)], &never()).unwrap();
    assert!(over.position.game_over);
    assert_eq!(
        (
            over.position.to_move,
            over.position.winner,
            over.position.legal_move_count
        ),
        (Player::Second, Player::First, 0)
    );
    // The empty graph on 4 vertices: N even, no odd–even component, x = 0
    // and ⌊iso / 2⌋ = 2 even, so the first player loses; its 6 legal moves
    // form one class (join two isolated vertices).
    let empty = graph(4, &[]);
    let analysis = bipartite_edge_position(&empty, &[], &never()).unwrap();
    assert_eq!(analysis.position.winner, Player::Second);
    assert_eq!(analysis.position.legal_move_count, 6);
    assert_eq!(analysis.position.legal_moves, vec![Move::Edge(0, 1)]);
    assert_eq!(
        analysis.position.winning,
        WinningMoves::complete_list(vec![])
    );
}

// ---- tree painting ------------------------------------------------------

fn paint_moves(line: &[Vertex]) -> Vec<Move> {
    line.iter().copied().map(Move::Paint).collect()
}

/// The position after `line` (legal moves) from black `black` and white
/// `white`, against the search.
fn check_paint_position(
    search: &mut PaintSearch,
    g: &Graph,
    black: Vertex,
    white: Vertex,
    line: &[Vertex],
) {
    let moves = paint_moves(line);
    let analysis = tree_paint_position(g, black, white, &moves, &never()).unwrap();
    let state = line
        .iter()
        .fold(Colouring::opening(black, white), |state, &v| state.after(v));
    let to_move = mover(state);
    let legal = search.legal(state);
    let winning = search.winning(state);
    let context = format!("{g:?}, black {black}, white {white}, after {line:?}");
    let mover_wins = search.mover_wins(state);
    assert_summary(
        &analysis.position,
        to_move,
        legal.len(),
        mover_wins,
        &context,
    );
    assert_vertex_moves(
        &analysis.position,
        paint_moves(&legal),
        paint_moves(&winning),
        &context,
    );
    let PositionEvidence::TreePaint {
        black_future,
        white_future,
        black_count,
        white_count,
    } = analysis.evidence
    else {
        panic!("tree-paint evidence expected");
    };
    // Every vertex ends up with one side under optimal play.
    assert_eq!(
        black_count + white_count,
        g.vertex_count() as u64,
        "{context}"
    );
    assert_eq!(
        black_future + white_future + 2 + line.len() as u64,
        g.vertex_count() as u64,
        "{context}"
    );

    let setup = GameSetup::TreePaint {
        graph: g,
        black,
        white,
    };
    let chosen = engine_move(setup, &moves, &analysis, &never()).unwrap();
    match chosen {
        None => assert!(legal.is_empty(), "{context}: no engine move"),
        Some(Move::Paint(v)) if !winning.is_empty() => {
            assert!(
                winning.contains(&v),
                "{context}: engine paints {v}, not a win"
            );
        }
        Some(Move::Paint(v)) => {
            assert!(legal.contains(&v), "{context}: engine paints illegal {v}");
            let replies =
                |search: &mut PaintSearch, w: Vertex| search.winning(state.after(w)).len();
            let chosen_replies = replies(search, v);
            for &w in &legal {
                assert!(
                    chosen_replies <= replies(search, w),
                    "{context}: engine paints {v}, {w} leaves fewer winning replies"
                );
            }
        }
        Some(other) => panic!("{context}: engine plays {other:?}"),
    }
}

/// Every labelled tree on `n` vertices, from Prüfer sequences.
fn every_labelled_tree(n: usize) -> Vec<Graph> {
    let sequences = (0..n.saturating_sub(2)).fold(vec![vec![]], |sequences, _| {
        sequences
            .into_iter()
            .flat_map(|sequence: Vec<usize>| {
                (0..n).map(move |v| {
                    let mut longer = sequence.clone();
                    longer.push(v);
                    longer
                })
            })
            .collect()
    });
    sequences
        .into_iter()
        .map(|prufer| {
            let mut degree = vec![1usize; n];
            for &v in &prufer {
                degree[v] += 1;
            }
            let mut edges = Vec::new();
            for &v in &prufer {
                let leaf = (0..n).find(|&u| degree[u] == 1).unwrap();
                edges.push((leaf as Vertex, v as Vertex));
                degree[leaf] -= 1;
                degree[v] -= 1;
            }
            let last: Vec<usize> = (0..n).filter(|&u| degree[u] == 1).collect();
            edges.push((last[0] as Vertex, last[1] as Vertex));
            graph(n as u64, &edges)
        })
        .collect()
}

/// Every legal move list from black `black`, white `white`.
fn every_paint_line(search: &PaintSearch, black: Vertex, white: Vertex) -> Vec<Vec<Vertex>> {
    let mut lines = Vec::new();
    let mut stack = vec![(vec![], Colouring::opening(black, white))];
    while let Some((line, state)) = stack.pop() {
        for v in search.legal(state) {
            let mut longer: Vec<Vertex> = line.clone();
            longer.push(v);
            stack.push((longer, state.after(v)));
        }
        lines.push(line);
    }
    lines
}

#[test]
fn tree_paint_every_reachable_position_of_every_tree_up_to_6_vertices() {
    for n in 2..=6 {
        for g in every_labelled_tree(n) {
            let mut search = paint_search(&g);
            for black in 0..n as Vertex {
                for white in (0..n as Vertex).filter(|&w| w != black) {
                    // Six vertices: one ordered pair per tree keeps the run
                    // short; the pairs vary with the tree.
                    if n == 6 && (black, white) != (0, 5) && (black, white) != (2, 3) {
                        continue;
                    }
                    for line in every_paint_line(&search, black, white) {
                        check_paint_position(&mut search, &g, black, white, &line);
                    }
                }
            }
        }
    }
}

#[test]
fn tree_paint_by_hand() {
    // The path 0-1-2-3-4, black at 0, white at 4: black takes the middle.
    let g = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
    let analysis = tree_paint_position(&g, 0, 4, &[], &never()).unwrap();
    assert_eq!(analysis.position.winner, Player::First);
    assert_eq!(analysis.position.legal_moves, vec![Move::Paint(1)]);
    let line = paint_moves(&[1, 3, 2]);
    let over = tree_paint_position(&g, 0, 4, &line, &never()).unwrap();
    assert!(over.position.game_over);
    assert_eq!(
        (over.position.to_move, over.position.winner),
        (Player::Second, Player::First)
    );
    assert_eq!(
        over.evidence,
        PositionEvidence::TreePaint {
            black_future: 0,
            white_future: 0,
            black_count: 3,
            white_count: 2
        }
    );
}

// ---- illegal moves ------------------------------------------------------

fn illegal(result: Result<PositionAnalysis, PositionError>) -> IllegalMove {
    match result {
        Err(PositionError::Illegal(illegal)) => illegal,
        other => panic!("an illegal move expected, got {other:?}"),
    }
}

#[test]
fn geography_illegal_moves_name_the_move_and_why() {
    // Path 0-1-2-3 and a vertex 4 joined to 1.
    let g = graph(5, &[(0, 1), (1, 2), (2, 3), (1, 4)]);
    let at = |moves: &[Move]| illegal(geography_position(&g, 0, moves, &never()));
    let cases: [(&[Move], usize, IllegalReason, &str); 6] = [
        (
            &[Move::Geography(1), Move::Geography(3)],
            1,
            IllegalReason::NotAdjacent,
            "moves[1]: vertex 3 is not adjacent to vertex 1, the current vertex",
        ),
        (
            &[Move::Geography(1), Move::Geography(0)],
            1,
            IllegalReason::AlreadyVisited,
            "moves[1]: vertex 0 has already been visited",
        ),
        (
            &[Move::Geography(7)],
            0,
            IllegalReason::VertexOutOfRange,
            "moves[0]: vertex 7 out of range 0..5",
        ),
        (
            &[Move::Geography(1), Move::Geography(4), Move::Geography(2)],
            2,
            IllegalReason::GameOver,
            "moves[2]: the game is over: vertex 4, the current vertex, has no unvisited neighbour",
        ),
        (
            &[Move::Geography(1), Move::Paint(2)],
            1,
            IllegalReason::WrongMoveKind,
            "moves[1]: paint vertex 2 is not a move of Geography, whose moves name the vertex the token moves to",
        ),
        // An illegal move before a move of the wrong kind is the first one.
        (
            &[Move::Geography(2), Move::Edge(0, 1)],
            0,
            IllegalReason::NotAdjacent,
            "moves[0]: vertex 2 is not adjacent to vertex 0, the current vertex",
        ),
    ];
    for (moves, index, reason, message) in cases {
        let error = at(moves);
        assert_eq!(
            (
                error.index,
                error.reason,
                error.message.as_str(),
                error.played
            ),
            (index, reason, message, moves[index]),
            "{moves:?}"
        );
    }
    assert_eq!(
        geography_position(&g, 9, &[], &never()),
        Err(PositionError::InvalidPuzzle(InvalidPuzzle::Start(
            VertexFieldError {
                field: "start",
                vertex: 9,
                vertex_count: 5
            }
        )))
    );
}

#[test]
fn edge_game_illegal_moves_name_the_move_and_why() {
    // The path 0-1-2 and an isolated vertex 3.
    let g = graph(4, &[(0, 1), (1, 2)]);
    let at = |moves: &[Move]| illegal(bipartite_edge_position(&g, moves, &never()));
    let cases: [(&[Move], usize, IllegalReason, &str); 7] = [
        (
            &[Move::Edge(2, 3), Move::Edge(1, 0)],
            1,
            IllegalReason::EdgeAlreadyPresent,
            "moves[1]: edge (1, 0) cannot be added: the edge is already in the graph",
        ),
        (
            &[Move::Edge(0, 2)],
            0,
            IllegalReason::ClosesOddCycle,
            "moves[0]: edge (0, 2) cannot be added: the edge would close an odd cycle",
        ),
        (
            &[Move::Edge(3, 3)],
            0,
            IllegalReason::SelfLoop,
            "moves[0]: edge (3, 3) cannot be added: an edge needs two different vertices",
        ),
        (
            &[Move::Edge(0, 4)],
            0,
            IllegalReason::VertexOutOfRange,
            "moves[0]: edge (0, 4) cannot be added: vertex 4 is out of range 0..4",
        ),
        (
            // 0-1-2 plus 3 joined to 0 and 2: the complete bipartite {1, 3} × {0, 2}.
            &[Move::Edge(0, 3), Move::Edge(2, 3), Move::Edge(1, 3)],
            2,
            IllegalReason::GameOver,
            "moves[2]: edge (1, 3) cannot be added: the game is over: the graph is connected and complete bipartite",
        ),
        (
            &[Move::Geography(1)],
            0,
            IllegalReason::WrongMoveKind,
            "moves[0]: move to vertex 1 is not a move of the edge game, whose moves name the edge added",
        ),
        (
            &[Move::Edge(0, 2), Move::Paint(1)],
            0,
            IllegalReason::ClosesOddCycle,
            "moves[0]: edge (0, 2) cannot be added: the edge would close an odd cycle",
        ),
    ];
    for (moves, index, reason, message) in cases {
        let error = at(moves);
        assert_eq!(
            (
                error.index,
                error.reason,
                error.message.as_str(),
                error.played
            ),
            (index, reason, message, moves[index]),
            "{moves:?}"
        );
    }
    let triangle = graph(3, &[(0, 1), (1, 2), (0, 2)]);
    assert!(matches!(
        bipartite_edge_position(&triangle, &[], &never()),
        Err(PositionError::InvalidPuzzle(InvalidPuzzle::BipartiteEdge(
            _
        )))
    ));
}

#[test]
fn tree_paint_illegal_moves_name_the_move_and_why() {
    // The path 0-1-2-3-4, black at 0, white at 4.
    let g = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
    let at = |moves: &[Move]| illegal(tree_paint_position(&g, 0, 4, moves, &never()));
    let cases: [(&[Move], usize, IllegalReason, &str); 6] = [
        (
            &[Move::Paint(1), Move::Paint(2)],
            1,
            IllegalReason::NotNextToOwnColour,
            "moves[1]: white cannot paint vertex 2: vertex 2 has no white neighbour",
        ),
        (
            &[Move::Paint(1), Move::Paint(3), Move::Paint(3)],
            2,
            IllegalReason::AlreadyPainted,
            "moves[2]: black cannot paint vertex 3: vertex 3 is already white",
        ),
        (
            &[Move::Paint(5)],
            0,
            IllegalReason::VertexOutOfRange,
            "moves[0]: black cannot paint vertex 5: vertex 5 is out of range 0..5",
        ),
        (
            &[
                Move::Paint(1),
                Move::Paint(3),
                Move::Paint(2),
                Move::Paint(2),
            ],
            3,
            IllegalReason::GameOver,
            "moves[3]: white cannot paint vertex 2: the game is over: no uncoloured vertex is next to a white one",
        ),
        (
            &[Move::Edge(0, 1)],
            0,
            IllegalReason::WrongMoveKind,
            "moves[0]: edge (0, 1) is not a move of tree painting, whose moves name the vertex painted",
        ),
        (
            &[Move::Paint(3), Move::Geography(1)],
            0,
            IllegalReason::NotNextToOwnColour,
            "moves[0]: black cannot paint vertex 3: vertex 3 has no black neighbour",
        ),
    ];
    for (moves, index, reason, message) in cases {
        let error = at(moves);
        assert_eq!(
            (
                error.index,
                error.reason,
                error.message.as_str(),
                error.played
            ),
            (index, reason, message, moves[index]),
            "{moves:?}"
        );
    }
    assert!(matches!(
        tree_paint_position(&g, 0, 0, &[], &never()),
        Err(PositionError::InvalidPuzzle(InvalidPuzzle::TreePaint(
            TreePaintError::SameVertex { vertex: 0 }
        )))
    ));
}

#[test]
fn reason_codes_are_distinct_upper_snake_case() {
    let all = IllegalReason::ALL;
    let codes: BTreeSet<&str> = all.iter().map(IllegalReason::code).collect();
    assert_eq!(codes.len(), all.len());
    for reason in all {
        let code = reason.code();
        assert!(code.chars().all(|c| c.is_ascii_uppercase() || c == '_'));
        // The serialised form is the same name.
        assert_eq!(
            serde_json::to_value(reason).unwrap(),
            serde_json::Value::String(code.to_owned())
        );
        // A client finds the reason by its code, and words it without a
        // vertex number, which would be in the wrong numbering for some.
        assert_eq!(IllegalReason::from_code(code), Some(reason));
        assert!(
            !reason.explanation().contains(|c: char| c.is_ascii_digit()),
            "{code}"
        );
    }
    assert_eq!(IllegalReason::from_code("NOT_A_REASON"), None);
    // Every variant is in ALL: a new one must be numbered here (the match
    // has no wildcard), and then ALL is one short until it is added.
    let number = |reason: IllegalReason| match reason {
        IllegalReason::WrongMoveKind => 0,
        IllegalReason::VertexOutOfRange => 1,
        IllegalReason::GameOver => 2,
        IllegalReason::NotAdjacent => 3,
        IllegalReason::AlreadyVisited => 4,
        IllegalReason::SelfLoop => 5,
        IllegalReason::EdgeAlreadyPresent => 6,
        IllegalReason::ClosesOddCycle => 7,
        IllegalReason::NotNextToOwnColour => 8,
        IllegalReason::AlreadyPainted => 9,
        IllegalReason::EdgeAlreadyUsed => 10,
    };
    let numbers: BTreeSet<usize> = all.into_iter().map(number).collect();
    assert_eq!(numbers, (0..=10).collect());
}

#[test]
fn a_fired_handle_stops_the_analysis() {
    let cancel = Cancel::new();
    cancel.fire();
    let g = graph(3, &[(0, 1), (1, 2)]);
    for setup in [
        GameSetup::Geography {
            graph: &g,
            start: 0,
        },
        GameSetup::BipartiteEdge { graph: &g },
        GameSetup::TreePaint {
            graph: &g,
            black: 0,
            white: 2,
        },
    ] {
        assert_eq!(
            setup.analyze(&[], &cancel),
            Err(PositionError::Cancelled(Cancelled)),
            "{setup:?}"
        );
    }
}

#[test]
fn winning_edges_convert_with_exact_counts() {
    let empty = graph(4, &[]);
    let solution = bipartite_edge::solve(&empty).unwrap();
    let converted = WinningMoves::from(solution.winning_moves.clone());
    assert_eq!(converted.count, solution.winning_moves.edge_count);
    assert_eq!(converted.moves.len(), solution.winning_moves.classes.len());
    let vertex = geography::WinningMoves {
        moves: vec![2, 5],
        unique: false,
    };
    assert_eq!(
        WinningMoves::from_vertex_moves(vertex, Move::Paint),
        WinningMoves {
            moves: vec![Move::Paint(2), Move::Paint(5)],
            count: 2,
            unique: false,
            complete: true
        }
    );
}

// ---- random play ----------------------------------------------------------

/// A random graph on `1..=max` vertices, a start and choices for random play.
fn geography_game(max: usize) -> impl Strategy<Value = (Graph, Vertex, Vec<u64>)> {
    (1..=max)
        .prop_flat_map(|n| {
            (
                Just(n),
                0..1u32 << (n * (n - 1) / 2),
                0..n as Vertex,
                proptest::collection::vec(any::<u64>(), 0..8),
            )
        })
        .prop_map(|(n, mask, start, picks)| (graph_of_mask(n, mask), start, picks))
}

/// Plays `picks` as choices among the legal moves while there are any.
fn random_line<T: Copy>(picks: &[u64], mut legal: impl FnMut(&[T]) -> Vec<T>) -> Vec<T> {
    let mut line = Vec::new();
    for &pick in picks {
        let options = legal(&line);
        if options.is_empty() {
            break;
        }
        line.push(options[(pick % options.len() as u64) as usize]);
    }
    line
}

/// Which game's moves [`any_move`] favours.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Geography,
    Edge,
    Paint,
}

/// A random move of any game over vertices `0..=n + 1` (so some are out of
/// range for a graph of `n` or fewer vertices), eight times in ten of the
/// kind `favoured`.
fn any_move(n: usize, favoured: Kind) -> impl Strategy<Value = Move> {
    let top = n as Vertex + 1;
    let weight = |kind: Kind| if kind == favoured { 8 } else { 1 };
    prop_oneof![
        weight(Kind::Geography) => (0..=top).prop_map(Move::Geography),
        weight(Kind::Edge) => (0..=top, 0..=top).prop_map(|(u, v)| Move::Edge(u, v)),
        weight(Kind::Paint) => (0..=top).prop_map(Move::Paint),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn geography_random_play_up_to_7_vertices_matches_search(
        (g, start, picks) in geography_game(7)
    ) {
        let line = random_line(&picks, |line: &[Vertex]| {
            let visited = line.iter().fold(1u32 << start, |mask, &v| mask | 1 << v);
            let token = line.last().copied().unwrap_or(start);
            geography_search(&g).legal(visited, token)
        });
        check_geography_position(&g, start, &line);
    }

    #[test]
    fn edge_game_random_play_up_to_7_vertices_matches_search(
        g in bipartite_graph(7),
        picks in proptest::collection::vec(any::<u64>(), 0..10),
    ) {
        let mut search = EdgeSearch::new(g.vertex_count());
        let line = random_line(&picks, |line: &[(Vertex, Vertex)]| {
            let after = bipartite_edge::position_after_moves(&g, line).unwrap();
            search.legal_pairs(mask_of(&search, &after))
        });
        check_edge_position(&mut search, &g, &line);
    }

    #[test]
    fn tree_paint_random_play_up_to_9_vertices_matches_search(
        g in random_tree(9),
        b in any::<u64>(),
        w in any::<u64>(),
        picks in proptest::collection::vec(any::<u64>(), 0..9),
    ) {
        let n = g.vertex_count() as u64;
        let black = (b % n) as Vertex;
        let white = ((u64::from(black) + 1 + w % (n - 1)) % n) as Vertex;
        let mut search = paint_search(&g);
        let line = random_line(&picks, |line: &[Vertex]| {
            let state = line
                .iter()
                .fold(Colouring::opening(black, white), |state, &v| state.after(v));
            search.legal(state)
        });
        check_paint_position(&mut search, &g, black, white, &line);
    }

    /// A random list of moves of any kind: the first move the search finds
    /// illegal is the one reported, with the reason the search gives.
    #[test]
    fn geography_random_move_lists_name_the_first_illegal_move(
        (g, start, _) in geography_game(6),
        moves in proptest::collection::vec(any_move(6, Kind::Geography), 0..6),
    ) {
        let n = g.vertex_count() as Vertex;
        let search = geography_search(&g);
        let (mut visited, mut token) = (1u32 << start, start);
        let mut expected = None;
        for (index, &played) in moves.iter().enumerate() {
            let reason = match played {
                Move::Geography(v) if v >= n => Some(IllegalReason::VertexOutOfRange),
                Move::Geography(_) if search.legal(visited, token).is_empty() => {
                    Some(IllegalReason::GameOver)
                }
                Move::Geography(v) if visited >> v & 1 == 1 => Some(IllegalReason::AlreadyVisited),
                Move::Geography(v) if !g.has_edge(token, v) => Some(IllegalReason::NotAdjacent),
                Move::Geography(v) => {
                    visited |= 1 << v;
                    token = v;
                    None
                }
                _ => Some(IllegalReason::WrongMoveKind),
            };
            if let Some(reason) = reason {
                expected = Some((index, reason));
                break;
            }
        }
        let result = geography_position(&g, start, &moves, &never());
        match expected {
            None => prop_assert!(result.is_ok(), "{:?}", result),
            Some((index, reason)) => {
                let error = illegal(result);
                prop_assert_eq!((error.index, error.reason, error.played), (index, reason, moves[index]));
                let prefix = format!("moves[{index}]: ");
                prop_assert!(error.message.starts_with(&prefix), "{}", error.message);
            }
        }
    }

    #[test]
    fn edge_game_random_move_lists_name_the_first_illegal_move(
        g in bipartite_graph(6),
        moves in proptest::collection::vec(any_move(6, Kind::Edge), 0..8),
    ) {
        let n = g.vertex_count();
        let search = EdgeSearch::new(n);
        let mut mask = mask_of(&search, &g);
        let mut expected = None;
        for (index, &played) in moves.iter().enumerate() {
            let reason = match played {
                Move::Edge(u, v) if u as usize >= n || v as usize >= n => {
                    Some(IllegalReason::VertexOutOfRange)
                }
                Move::Edge(..) if search.legal(mask).is_empty() => Some(IllegalReason::GameOver),
                Move::Edge(u, v) if u == v => Some(IllegalReason::SelfLoop),
                Move::Edge(u, v) => {
                    let pair = search.index_of(u, v).unwrap();
                    if mask >> pair & 1 == 1 {
                        Some(IllegalReason::EdgeAlreadyPresent)
                    } else if !search.is_bipartite(mask | 1 << pair) {
                        Some(IllegalReason::ClosesOddCycle)
                    } else {
                        mask |= 1 << pair;
                        None
                    }
                }
                _ => Some(IllegalReason::WrongMoveKind),
            };
            if let Some(reason) = reason {
                expected = Some((index, reason));
                break;
            }
        }
        let result = bipartite_edge_position(&g, &moves, &never());
        match expected {
            None => prop_assert!(result.is_ok(), "{:?}", result),
            Some((index, reason)) => {
                let error = illegal(result);
                prop_assert_eq!((error.index, error.reason, error.played), (index, reason, moves[index]));
            }
        }
    }

    #[test]
    fn tree_paint_random_move_lists_name_the_first_illegal_move(
        g in random_tree(7),
        b in any::<u64>(),
        w in any::<u64>(),
        moves in proptest::collection::vec(any_move(7, Kind::Paint), 0..8),
    ) {
        let n = g.vertex_count() as u64;
        let black = (b % n) as Vertex;
        let white = ((u64::from(black) + 1 + w % (n - 1)) % n) as Vertex;
        let search = paint_search(&g);
        let mut state = Colouring::opening(black, white);
        let mut expected = None;
        for (index, &played) in moves.iter().enumerate() {
            let legal = search.legal(state);
            let reason = match played {
                Move::Paint(v) if u64::from(v) >= n => Some(IllegalReason::VertexOutOfRange),
                Move::Paint(_) if legal.is_empty() => Some(IllegalReason::GameOver),
                Move::Paint(v) if (state.black | state.white) >> v & 1 == 1 => {
                    Some(IllegalReason::AlreadyPainted)
                }
                Move::Paint(v) if !legal.contains(&v) => Some(IllegalReason::NotNextToOwnColour),
                Move::Paint(v) => {
                    state = state.after(v);
                    None
                }
                _ => Some(IllegalReason::WrongMoveKind),
            };
            if let Some(reason) = reason {
                expected = Some((index, reason));
                break;
            }
        }
        let result = tree_paint_position(&g, black, white, &moves, &never());
        match expected {
            None => prop_assert!(result.is_ok(), "{:?}", result),
            Some((index, reason)) => {
                let error = illegal(result);
                prop_assert_eq!((error.index, error.reason, error.played), (index, reason, moves[index]));
            }
        }
    }
}
