//! Checks Solutions from the API, apart from the solver: the shared evidence
//! checker (`puzzled_testkit::evidence`) for matchings and barriers,
//! counting, and (for small graphs) the test kit's exhaustive game-tree
//! search.

use std::collections::HashSet;

use puzzled_testkit::evidence::{PlainGraph, Winner, check_geography as check_geography_evidence};
use puzzled_testkit::oracle::{Colouring, EdgeSearch, GeographySearch, PaintSearch};

use super::helpers::proto;

/// A flat edge list `[u0, v0, u1, v1, …]` as pairs.
pub fn pairs(edges: &[u32]) -> Vec<(u32, u32)> {
    edges.chunks_exact(2).map(|e| (e[0], e[1])).collect()
}

fn edge_set(edges: &[u32]) -> HashSet<(u32, u32)> {
    edges
        .chunks_exact(2)
        .map(|e| (e[0].min(e[1]), e[0].max(e[1])))
        .collect()
}

/// The optional evidence a request asked for: it must be in the answer
/// exactly when asked.
#[derive(Debug, Clone, Copy)]
pub struct Asked {
    pub all_starts: bool,
    pub winning_moves: bool,
}

impl Asked {
    pub const NOTHING: Asked = Asked {
        all_starts: false,
        winning_moves: false,
    };
    pub const EVERYTHING: Asked = Asked {
        all_starts: true,
        winning_moves: true,
    };

    pub fn of(request: &proto::SolveRequest) -> Asked {
        Asked {
            all_starts: request.include_all_starts,
            winning_moves: request.include_winning_moves,
        }
    }
}

/// Checks a geography solution of the puzzle (n, edges, start) completely.
pub fn check_geography(
    n: u32,
    edges: &[u32],
    start: u32,
    asked: Asked,
    solution: &proto::Solution,
) {
    let Some(proto::solution::Detail::Geography(ev)) = &solution.detail else {
        panic!("not a geography solution: {solution:?}");
    };
    assert_eq!(
        ev.second_player_starts.is_some(),
        asked.all_starts,
        "second_player_starts must be present exactly when asked ({asked:?})"
    );
    assert_eq!(
        solution.winning_moves.is_some(),
        asked.winning_moves,
        "winning_moves must be present exactly when asked ({asked:?})"
    );
    // Matching, barrier and start barrier: the shared evidence checker.
    let matching: Vec<(u32, u32)> = ev.matching.chunks_exact(2).map(|e| (e[0], e[1])).collect();
    assert_eq!(
        ev.matching.len() % 2,
        0,
        "matching has an odd number of entries"
    );
    assert_eq!(ev.matching_size as usize, matching.len());
    let winner = solution.winner;
    let verdict = if winner == proto::Player::First as i32 {
        Winner::First
    } else {
        assert_eq!(winner, proto::Player::Second as i32, "winner must be set");
        Winner::Second
    };
    check_geography_evidence(
        &PlainGraph::from_flat(n as usize, edges),
        start,
        verdict,
        &matching,
        &ev.barrier,
        ev.start_barrier.as_ref().map(|b| b.vertices.as_slice()),
    )
    .unwrap_or_else(|e| panic!("geography evidence: {e}"));
    if let Some(d) = &ev.second_player_starts {
        assert_eq!(
            d.vertices.contains(&start),
            winner == proto::Player::Second as i32,
            "the all-starts set disagrees with the verdict"
        );
    }
    if n <= 14 {
        let mut search = GeographySearch::new(n as usize, &pairs(edges));
        assert_eq!(
            search.first_player_wins(start),
            winner == proto::Player::First as i32,
            "game-tree search disagrees with the verdict"
        );
        if let Some(d) = &ev.second_player_starts {
            for v in 0..n {
                assert_eq!(
                    d.vertices.contains(&v),
                    !search.first_player_wins(v),
                    "all-starts set wrong at vertex {v}"
                );
            }
        }
        if let Some(w) = &solution.winning_moves {
            let expected = search.winning(1 << start, start);
            let got: Vec<u32> = w
                .moves
                .iter()
                .map(|m| match m.r#move {
                    Some(proto::r#move::Move::Vertex(v)) => v,
                    ref other => panic!("geography move must be a vertex: {other:?}"),
                })
                .collect();
            let mut got_sorted = got.clone();
            got_sorted.sort();
            assert_eq!(got_sorted, expected, "winning moves");
            assert_eq!(w.unique, expected.len() == 1);
        }
    }
}

fn adjacency(n: u32, edges: &[u32]) -> Vec<Vec<u32>> {
    let mut adj = vec![Vec::new(); n as usize];
    for e in edges.chunks_exact(2) {
        adj[e[0] as usize].push(e[1]);
        adj[e[1] as usize].push(e[0]);
    }
    adj
}

/// Per component of the graph: the sizes of its two sides; `None` when the
/// graph has an odd cycle.
fn bipartition(n: u32, edges: &[u32]) -> Option<Vec<(u64, u64)>> {
    let adj = adjacency(n, edges);
    let mut side = vec![u8::MAX; n as usize];
    let mut parts = Vec::new();
    for root in 0..n as usize {
        if side[root] != u8::MAX {
            continue;
        }
        side[root] = 0;
        let mut count = [0u64; 2];
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            count[side[u] as usize] += 1;
            for &v in &adj[u] {
                let v = v as usize;
                if side[v] == u8::MAX {
                    side[v] = 1 - side[u];
                    stack.push(v);
                } else if side[v] == side[u] {
                    return None;
                }
            }
        }
        parts.push((count[0], count[1]));
    }
    Some(parts)
}

/// Checks an edge-game solution: counts from an independent 2-colouring,
/// and for small graphs the verdict and every winning move by search.
pub fn check_bipartite_edge(n: u32, edges: &[u32], asked: Asked, solution: &proto::Solution) {
    let Some(proto::solution::Detail::BipartiteEdge(ev)) = &solution.detail else {
        panic!("not an edge-game solution: {solution:?}");
    };
    assert_eq!(
        solution.winning_moves.is_some(),
        asked.winning_moves,
        "winning_moves must be present exactly when asked ({asked:?})"
    );
    let parts = bipartition(n, edges).expect("the input is bipartite");
    let m = (edges.len() / 2) as u64;
    let x: u64 = parts.iter().map(|&(a, b)| a * b).sum::<u64>() - m;
    let count =
        |f: &dyn Fn(u64, u64) -> bool| parts.iter().filter(|&&(a, b)| f(a, b)).count() as u64;
    assert_eq!(ev.vertex_count, n as u64);
    assert_eq!(ev.edge_count, m);
    assert_eq!(ev.x, x);
    assert_eq!(ev.iso, count(&|a, b| a + b == 1));
    assert_eq!(ev.oo, count(&|a, b| a % 2 == 1 && b % 2 == 1));
    assert_eq!(ev.eo, count(&|a, b| a + b > 1 && (a + b) % 2 == 1));
    assert_eq!(ev.ee, count(&|a, b| a + b > 1 && a % 2 == 0 && b % 2 == 0));
    let first_wins = solution.winner == proto::Player::First as i32;
    let present = edge_set(edges);
    // Exhaustive search for n ≤ 6.
    let mut search = (n <= 6).then(|| EdgeSearch::new(n as usize));
    let start = search.as_ref().map(|s| s.mask_of(pairs(edges)));
    let mut legal_and_winning = |e: &proto::Edge| {
        let (u, v) = (e.u.min(e.v), e.u.max(e.v));
        assert!(
            u != v && v < n && !present.contains(&(u, v)),
            "{e:?} is not a new edge"
        );
        let mut next = edges.to_vec();
        next.extend([u, v]);
        assert!(bipartition(n, &next).is_some(), "{e:?} closes an odd cycle");
        if let (Some(search), Some(start)) = (search.as_mut(), start) {
            let added = search.mask_of([(u, v)]);
            assert!(!search.mover_wins(start | added), "{e:?} does not win");
        }
    };
    assert_eq!(ev.winning_move.is_some(), first_wins);
    if let Some(e) = &ev.winning_move {
        legal_and_winning(e);
    }
    assert_eq!(
        !ev.winning_move_classes.is_empty(),
        asked.winning_moves && first_wins,
        "winning_move_classes are listed exactly when asked and the first player wins"
    );
    if let Some(w) = &solution.winning_moves {
        let classes: u64 = ev.winning_move_classes.iter().map(|c| c.edge_count).sum();
        assert_eq!(w.count, classes, "the classes hold every winning edge");
        assert_eq!(w.moves.len(), ev.winning_move_classes.len());
        assert_eq!(w.complete, w.count == w.moves.len() as u64);
    }
    for class in &ev.winning_move_classes {
        legal_and_winning(class.example.as_ref().unwrap());
    }
    if let (Some(search), Some(start)) = (search.as_mut(), start) {
        assert_eq!(first_wins, search.mover_wins(start), "search disagrees");
        if let Some(w) = &solution.winning_moves {
            let winning = search.winning(start).len() as u64;
            assert_eq!(w.count, winning, "number of winning edges");
            assert_eq!(w.unique, winning == 1);
            let classes: u64 = ev.winning_move_classes.iter().map(|c| c.edge_count).sum();
            assert_eq!(classes, winning, "the classes partition the winning edges");
        }
    }
}

fn distances(adj: &[Vec<u32>], from: u32) -> Vec<u32> {
    let mut d = vec![u32::MAX; adj.len()];
    d[from as usize] = 0;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(u) = queue.pop_front() {
        for &v in &adj[u as usize] {
            if d[v as usize] == u32::MAX {
                d[v as usize] = d[u as usize] + 1;
                queue.push_back(v);
            }
        }
    }
    d
}

/// Checks a tree-painting solution: counts from distances, and for small
/// trees the verdict and the winning moves by search.
pub fn check_tree_paint(
    n: u32,
    edges: &[u32],
    (black, white): (u32, u32),
    asked: Asked,
    solution: &proto::Solution,
) {
    let Some(proto::solution::Detail::TreePaint(ev)) = &solution.detail else {
        panic!("not a tree-paint solution: {solution:?}");
    };
    assert_eq!(
        solution.winning_moves.is_some(),
        asked.winning_moves,
        "winning_moves must be present exactly when asked ({asked:?})"
    );
    let adj = adjacency(n, edges);
    let (db, dw) = (distances(&adj, black), distances(&adj, white));
    let black_count = (0..n as usize).filter(|&v| db[v] <= dw[v]).count() as u64;
    assert_eq!(ev.black_count, black_count);
    assert_eq!(ev.white_count, n as u64 - black_count);
    let first_wins = solution.winner == proto::Player::First as i32;
    assert_eq!(first_wins, black_count > n as u64 - black_count);
    assert_eq!(ev.winning_move.is_some(), first_wins);
    if n <= 9 {
        let mut search = PaintSearch::new(n as usize, &pairs(edges));
        let opening = Colouring::opening(black, white);
        assert_eq!(search.mover_wins(opening), first_wins, "search disagrees");
        let winning = search.winning(opening);
        if let Some(v) = ev.winning_move {
            assert!(winning.contains(&v), "winning_move {v} does not win");
        }
        if let Some(w) = &solution.winning_moves {
            let got: Vec<u32> = w
                .moves
                .iter()
                .map(|m| match m.r#move {
                    Some(proto::r#move::Move::Vertex(v)) => v,
                    ref other => panic!("a painting move is a vertex: {other:?}"),
                })
                .collect();
            assert_eq!(got, winning, "winning moves");
            assert!(w.complete);
            assert_eq!(w.count, winning.len() as u64);
            assert_eq!(w.unique, winning.len() == 1);
        }
    }
}
