//! Geography against exhaustive game-tree search, with every answer's
//! evidence checked by the independent checker; matching sizes against
//! petgraph.

use proptest::prelude::*;
use puzzled::graph::Graph;
use puzzled::solver::Player;
use puzzled::solver::geography::{self, GeographyOptions};
use puzzled::solver::matching::{MatchingAnalysis, VertexClass};
use puzzled_testkit::evidence::{PlainGraph, Winner, check_geography};
use puzzled_testkit::oracle::GeographySearch;
use puzzled_testkit::random::{EdgeSet, Rng as _, XorShift};

fn to_winner(p: Player) -> Winner {
    match p {
        Player::First => Winner::First,
        Player::Second => Winner::Second,
    }
}

const ALL: GeographyOptions = GeographyOptions {
    all_starts: true,
    winning_moves: true,
};

/// Solves every start of the graph and compares verdict, evidence, the
/// all-starts set and the winning moves with the exhaustive search.
fn check_every_start(n: usize, edges: &[(u32, u32)]) -> Result<(), String> {
    let graph = Graph::from_pairs(n as u64, edges).map_err(|e| e.to_string())?;
    let plain = PlainGraph::new(n, edges);
    let mut oracle = GeographySearch::new(n, edges);
    let second_player_starts: Vec<u32> = (0..n as u32)
        .filter(|&start| !oracle.mover_wins(1 << start, start))
        .collect();
    for start in 0..n as u32 {
        let expected_first = second_player_starts.binary_search(&start).is_err();
        let s = geography::solve(&graph, start, ALL);
        let winner = to_winner(s.winner);
        let expected = if expected_first {
            Winner::First
        } else {
            Winner::Second
        };
        if winner != expected {
            return Err(format!(
                "start {start}: solver says {winner:?}, search says {expected:?}"
            ));
        }
        check_geography(
            &plain,
            start,
            winner,
            &s.matching,
            &s.barrier,
            s.start_barrier.as_deref(),
        )
        .map_err(|e| format!("start {start}: {e}"))?;
        let moves = s.winning_moves.unwrap();
        let expected_moves = oracle.winning(1 << start, start);
        if moves.moves != expected_moves || moves.unique != (expected_moves.len() == 1) {
            return Err(format!(
                "start {start}: winning moves {:?} (unique {}), search says {expected_moves:?}",
                moves.moves, moves.unique
            ));
        }
        if s.second_player_starts.as_deref() != Some(&second_player_starts[..]) {
            return Err(format!(
                "all-starts set {:?}, search says {second_player_starts:?}",
                s.second_player_starts
            ));
        }
    }
    Ok(())
}

/// Plays a random legal path and compares the mid-game analysis with the
/// search at every step: verdict, legal moves, winning moves, strategy move.
fn check_positions(
    n: usize,
    edges: &[(u32, u32)],
    start: u32,
    choices: &[usize],
) -> Result<(), String> {
    let graph = Graph::from_pairs(n as u64, edges).unwrap();
    let mut oracle = GeographySearch::new(n, edges);
    let mut moves: Vec<u64> = Vec::new();
    let mut visited = 1u32 << start;
    let mut current = start;
    for step in 0..=choices.len() {
        let p = geography::analyze_position(&graph, start, &moves).map_err(|e| e.to_string())?;
        let to_move = if moves.len().is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        };
        let mover_wins = oracle.mover_wins(visited, current);
        let expected_winner = if mover_wins { to_move } else { to_move.other() };
        let expected_moves = oracle.winning(visited, current);
        if p.to_move != to_move || p.winner != expected_winner || p.winning_moves != expected_moves
        {
            return Err(format!(
                "after {moves:?}: got {p:?}, search says winner {expected_winner:?} with {expected_moves:?}"
            ));
        }
        if p.unique_winning_move != (expected_moves.len() == 1) {
            return Err(format!("after {moves:?}: wrong uniqueness flag"));
        }
        if let Some(m) = p.strategy_move
            && !expected_moves.contains(&m)
        {
            return Err(format!("after {moves:?}: strategy move {m} does not win"));
        }
        if p.strategy_move.is_some() != mover_wins {
            return Err(format!(
                "after {moves:?}: strategy move present iff the mover wins"
            ));
        }
        // The legal moves are exactly the unvisited neighbours of the token.
        let expected_legal = oracle.legal(visited, current);
        let mut legal = p.legal_moves.clone();
        legal.sort_unstable();
        if legal != expected_legal {
            return Err(format!(
                "after {moves:?}: legal moves {legal:?}, unvisited neighbours {expected_legal:?}"
            ));
        }
        if p.game_over != expected_legal.is_empty() {
            return Err(format!(
                "after {moves:?}: game_over is {}, with {} legal moves",
                p.game_over,
                expected_legal.len()
            ));
        }
        if p.game_over || step == choices.len() {
            break;
        }
        let next = p.legal_moves[choices[step] % p.legal_moves.len()];
        moves.push(u64::from(next));
        visited |= 1 << next;
        current = next;
    }
    Ok(())
}

fn edges_from_bits(n: usize, bits: &[bool]) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    let mut k = 0;
    for u in 0..n as u32 {
        for v in u + 1..n as u32 {
            if bits[k] {
                edges.push((u, v));
            }
            k += 1;
        }
    }
    edges
}

/// A random simple graph on 1..=max_n vertices with a random density.
fn any_graph(max_n: usize) -> impl Strategy<Value = (usize, Vec<(u32, u32)>)> {
    (1..=max_n, 0.0..=1.0f64).prop_flat_map(|(n, density)| {
        let pairs = n * (n - 1) / 2;
        proptest::collection::vec(proptest::bool::weighted(density.clamp(0.0, 1.0)), pairs)
            .prop_map(move |bits| (n, edges_from_bits(n, &bits)))
    })
}

/// A random tree plus a few extra edges: sparse, blossom-rich shapes.
fn tree_like(max_n: usize) -> impl Strategy<Value = (usize, Vec<(u32, u32)>)> {
    (2..=max_n).prop_flat_map(|n| {
        (
            proptest::collection::vec(any::<u32>(), n - 1),
            proptest::collection::vec((0..n as u32, 0..n as u32), 0..4),
        )
            .prop_map(move |(parents, extra)| {
                let mut set = std::collections::BTreeSet::new();
                for (i, p) in parents.iter().enumerate() {
                    let child = i as u32 + 1;
                    set.insert((p % child, child));
                }
                for (u, v) in extra {
                    if u != v {
                        set.insert((u.min(v), u.max(v)));
                    }
                }
                (n, set.into_iter().collect())
            })
    })
}

/// 1500 cases per property by default; `PROPTEST_CASES=100000 cargo test`
/// runs a deep search.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn random_graphs_match_exhaustive_search((n, edges) in any_graph(12)) {
        check_every_start(n, &edges).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn sparse_tree_like_graphs_match_exhaustive_search((n, edges) in tree_like(14)) {
        check_every_start(n, &edges).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn mid_game_positions_match_exhaustive_search(
        (n, edges) in any_graph(12),
        start in any::<u32>(),
        choices in proptest::collection::vec(any::<usize>(), 0..10),
    ) {
        check_positions(n, &edges, start % n as u32, &choices).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn every_graph_on_up_to_six_vertices() {
    for n in 1..=6usize {
        let pairs = n * (n - 1) / 2;
        for mask in 0u32..1 << pairs {
            let bits: Vec<bool> = (0..pairs).map(|k| mask >> k & 1 == 1).collect();
            let edges = edges_from_bits(n, &bits);
            if let Err(e) = check_every_start(n, &edges) {
                panic!("n = {n}, edges = {edges:?}: {e}");
            }
        }
    }
}

#[test]
fn named_families_match_exhaustive_search() {
    let complete = |n: u32| -> Vec<(u32, u32)> {
        (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .collect()
    };
    let cycle = |n: u32| -> Vec<(u32, u32)> { (0..n).map(|i| (i, (i + 1) % n)).collect() };
    let path = |n: u32| -> Vec<(u32, u32)> { (1..n).map(|i| (i - 1, i)).collect() };
    let star = |n: u32| -> Vec<(u32, u32)> { (1..n).map(|i| (0, i)).collect() };
    // Nested blossoms: a triangle inside a pentagon inside a heptagon, with
    // stems, so searches must shrink blossoms inside blossoms.
    let nested = vec![
        (0, 1),
        (1, 2),
        (2, 0),
        (2, 3),
        (3, 4),
        (4, 0),
        (4, 5),
        (5, 6),
        (6, 0),
        (6, 7),
        (7, 8),
        (8, 9),
        (9, 10),
        (10, 11),
        (11, 7),
    ];
    let mut cases: Vec<(usize, Vec<(u32, u32)>)> = Vec::new();
    for n in 1..=12u32 {
        cases.push((n as usize, complete(n)));
        cases.push((n as usize, path(n)));
        cases.push((n as usize, star(n)));
        if n >= 3 {
            cases.push((n as usize, cycle(n)));
        }
    }
    cases.push((12, nested));
    // Two odd cycles joined by a long path, plus isolated vertices.
    cases.push((
        14,
        vec![
            (0, 1),
            (1, 2),
            (2, 0),
            (2, 3),
            (3, 4),
            (4, 5),
            (5, 6),
            (6, 7),
            (7, 8),
            (8, 6),
        ],
    ));
    for (n, edges) in cases {
        if let Err(e) = check_every_start(n, &edges) {
            panic!("n = {n}, edges = {edges:?}: {e}");
        }
    }
}

/// HAMILG's answer is the number of starts the starter loses from, |D(G)|.
#[test]
fn hamilg_samples() {
    let second_player_starts = |n: u64, edges: &[(u32, u32)]| {
        let g = Graph::from_pairs(n, edges).unwrap();
        geography::solve(&g, 0, ALL)
            .second_player_starts
            .unwrap()
            .len()
    };
    let k4: Vec<(u32, u32)> = vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    assert_eq!(second_player_starts(4, &k4), 0);
    let tree: Vec<(u32, u32)> = vec![(0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (2, 6), (6, 7)];
    assert_eq!(second_player_starts(8, &tree), 4);
    assert_eq!(second_player_starts(3, &[(0, 1), (1, 2)]), 2);
}

/// petgraph's maximum matching size of the graph, with `removed` (if any)
/// deleted.
fn petgraph_matching_size(n: u32, edges: &[(u32, u32)], removed: Option<u32>) -> usize {
    use petgraph::graph::UnGraph;
    let mut graph = UnGraph::<(), ()>::with_capacity(n as usize, edges.len());
    for _ in 0..n {
        graph.add_node(());
    }
    for &(u, v) in edges {
        if removed != Some(u) && removed != Some(v) {
            graph.add_edge(u.into(), v.into(), ());
        }
    }
    petgraph::algo::maximum_matching(&graph).len()
}

#[test]
fn matching_sizes_and_d_agree_with_petgraph() {
    // Deterministic, so the cross-check needs no seed file.
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    for round in 0..60 {
        // Two thirds sparse (the Karp–Sipser start), one third dense (the
        // first-fit start), up to a few thousand vertices; every sixth
        // graph small enough for D to be checked at every vertex.
        let (n, average_degree) = match round % 6 {
            2 | 5 => {
                let n = 70 + rng.below(400) as u32;
                (n, 33 + rng.below(u64::from(n - 40)))
            }
            1 => (3 + rng.below(120) as u32, 1 + rng.below(4)),
            _ => (50 + rng.below(2500) as u32, 1 + rng.below(6)),
        };
        let m = ((u64::from(n) * average_degree / 2) as usize).min((n * (n - 1) / 2) as usize);
        let mut drawn = EdgeSet::new();
        drawn.fill_at_random(n, m, &mut rng);
        let edges = drawn.into_pairs();
        let ours = MatchingAnalysis::new(&Graph::from_pairs(u64::from(n), &edges).unwrap());
        let theirs = petgraph_matching_size(n, &edges, None);
        assert_eq!(ours.size(), theirs, "round {round}: n = {n}, m = {m}");
        let plain = PlainGraph::new(n as usize, &edges);
        plain.check_matching(&ours.pairs()).unwrap();
        assert_eq!(
            plain.tutte_berge_bound(None, &ours.barrier()).unwrap(),
            ours.size()
        );
        // D from petgraph alone: v ∈ D(G) iff some maximum matching misses
        // v, i.e. iff ν(G − v) = ν(G). Every vertex of the small graphs; on
        // the larger ones a sample drawn half from the solver's D, half from
        // outside it, so both claims are checked.
        let d = ours.vertices_in(VertexClass::D);
        let not_d: Vec<u32> = (0..n).filter(|v| d.binary_search(v).is_err()).collect();
        let checked: Vec<u32> = if n <= 150 {
            (0..n).collect()
        } else {
            let mut sample = Vec::new();
            for pool in [&d, &not_d] {
                for _ in 0..pool.len().min(12) {
                    sample.push(pool[rng.below(pool.len() as u64) as usize]);
                }
            }
            sample
        };
        for v in checked {
            let without_v = petgraph_matching_size(n, &edges, Some(v));
            assert_eq!(
                d.binary_search(&v).is_ok(),
                without_v == theirs,
                "round {round}: vertex {v}: ν(G − v) = {without_v}, ν(G) = {theirs}"
            );
        }
        // D, A and C partition the vertices, and A is exactly N(D) \ D.
        let in_d: Vec<bool> = (0..n).map(|v| d.binary_search(&v).is_ok()).collect();
        for v in 0..n {
            let touches_d = plain.neighbors(v).iter().any(|&w| in_d[w as usize]);
            let expected = if in_d[v as usize] {
                VertexClass::D
            } else if touches_d {
                VertexClass::A
            } else {
                VertexClass::C
            };
            assert_eq!(ours.class(v), expected, "round {round}: vertex {v}");
        }
    }
}
