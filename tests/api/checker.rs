//! An evidence checker written apart from the solver: only connected
//! components, counting, and (for small graphs) plain game-tree search.

use std::collections::{HashMap, HashSet};

use super::helpers::proto;

fn edge_set(edges: &[u32]) -> HashSet<(u32, u32)> {
    edges
        .chunks_exact(2)
        .map(|e| (e[0].min(e[1]), e[0].max(e[1])))
        .collect()
}

/// Number of odd-sized components of the graph without the vertices in `removed`.
fn odd_components(n: u32, edges: &[u32], removed: &HashSet<u32>) -> usize {
    let mut parent: Vec<u32> = (0..n).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    for e in edges.chunks_exact(2) {
        if removed.contains(&e[0]) || removed.contains(&e[1]) {
            continue;
        }
        let (a, b) = (find(&mut parent, e[0]), find(&mut parent, e[1]));
        parent[a as usize] = b;
    }
    let mut sizes: HashMap<u32, usize> = HashMap::new();
    for v in 0..n {
        if !removed.contains(&v) {
            *sizes.entry(find(&mut parent, v)).or_default() += 1;
        }
    }
    sizes.values().filter(|&&s| s % 2 == 1).count()
}

/// The Tutte–Berge bound of `barrier` on the graph without `removed`.
fn tutte_berge(n: u32, edges: &[u32], removed: &HashSet<u32>, barrier: &[u32]) -> usize {
    let mut gone = removed.clone();
    for &b in barrier {
        assert!(b < n, "barrier vertex {b} out of range");
        assert!(!removed.contains(&b), "barrier vertex {b} was removed");
        assert!(gone.insert(b), "barrier repeats vertex {b}");
    }
    let live = n as usize - removed.len();
    let odd = odd_components(n, edges, &gone);
    assert!(live + barrier.len() >= odd);
    (live + barrier.len() - odd) / 2
}

/// Checks a geography solution of the puzzle (n, edges, start) completely.
pub fn check_geography(n: u32, edges: &[u32], start: u32, solution: &proto::Solution) {
    let Some(proto::solution::Detail::Geography(ev)) = &solution.detail else {
        panic!("not a geography solution: {solution:?}");
    };
    let graph = edge_set(edges);
    let m = &ev.matching;
    assert_eq!(m.len() % 2, 0, "matching has an odd number of entries");
    assert_eq!(ev.matching_size as usize, m.len() / 2);
    let mut covered = HashSet::new();
    for e in m.chunks_exact(2) {
        assert!(
            graph.contains(&(e[0].min(e[1]), e[0].max(e[1]))),
            "matching edge {e:?} is not an edge of the graph"
        );
        assert!(
            covered.insert(e[0]) && covered.insert(e[1]),
            "matching edges touch at {e:?}"
        );
    }
    let size = m.len() / 2;
    assert_eq!(
        tutte_berge(n, edges, &HashSet::new(), &ev.barrier),
        size,
        "the barrier does not prove the matching maximum"
    );
    let winner = solution.winner;
    if winner == proto::Player::Second as i32 {
        assert!(
            !covered.contains(&start),
            "second player wins but the matching covers the start"
        );
        assert!(ev.start_barrier.is_none());
    } else {
        assert_eq!(winner, proto::Player::First as i32);
        assert!(
            covered.contains(&start),
            "first player wins but the start is exposed"
        );
        let sb = ev
            .start_barrier
            .as_ref()
            .expect("start_barrier when the first player wins");
        let removed = HashSet::from([start]);
        assert_eq!(
            tutte_berge(n, edges, &removed, &sb.vertices),
            size - 1,
            "start_barrier does not prove that every maximum matching covers the start"
        );
    }
    if let Some(d) = &ev.second_player_starts {
        assert_eq!(
            d.vertices.contains(&start),
            winner == proto::Player::Second as i32,
            "the all-starts set disagrees with the verdict"
        );
    }
    if n <= 14 {
        assert_eq!(
            brute_force_first_wins(n, edges, start),
            winner == proto::Player::First as i32,
            "game-tree search disagrees with the verdict"
        );
        if let Some(d) = &ev.second_player_starts {
            for v in 0..n {
                assert_eq!(
                    d.vertices.contains(&v),
                    !brute_force_first_wins(n, edges, v),
                    "all-starts set wrong at vertex {v}"
                );
            }
        }
        if let Some(w) = &solution.winning_moves {
            let expected = winning_moves(n, edges, start);
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

/// Whether the player to move wins with the token on `at`, `visited` marked.
fn to_move_wins(
    adj: &[Vec<u32>],
    visited: u32,
    at: u32,
    memo: &mut HashMap<(u32, u32), bool>,
) -> bool {
    if let Some(&w) = memo.get(&(visited, at)) {
        return w;
    }
    let wins = adj[at as usize]
        .iter()
        .any(|&v| visited & (1 << v) == 0 && !to_move_wins(adj, visited | (1 << v), v, memo));
    memo.insert((visited, at), wins);
    wins
}

/// Plain game-tree search (n ≤ 14): does the first player win from `start`?
pub fn brute_force_first_wins(n: u32, edges: &[u32], start: u32) -> bool {
    let adj = adjacency(n, edges);
    to_move_wins(&adj, 1 << start, start, &mut HashMap::new())
}

/// Plain game-tree search: every winning first move from `start`, ascending.
pub fn winning_moves(n: u32, edges: &[u32], start: u32) -> Vec<u32> {
    let adj = adjacency(n, edges);
    let mut memo = HashMap::new();
    let mut moves: Vec<u32> = adj[start as usize]
        .iter()
        .copied()
        .filter(|&v| !to_move_wins(&adj, (1 << start) | (1 << v), v, &mut memo))
        .collect();
    moves.sort();
    moves
}
