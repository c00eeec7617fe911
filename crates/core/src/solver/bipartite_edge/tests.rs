//! The solver is checked against two exhaustive searches that know
//! nothing of the parity rule:
//! - the test kit's [`EdgeSearch`] plays on the labelled graph itself (an
//!   edge set as a bitmask, n ≤ 7 here), re-checking bipartiteness after
//!   every added edge;
//! - [`ComponentSearch`] plays on the multiset of components
//!   `(part, part, edges)`, which determines the game exactly (a move
//!   either adds a missing edge inside a component or joins two
//!   components, one way or the other round), so it reaches n ≈ 12 and
//!   with it the `eo ≥ 3` case that needs at least 9 vertices.
//!   It is itself checked against the labelled search.

use std::collections::HashMap;

use proptest::prelude::*;

use super::*;

fn graph(n: u64, edges: &[(Vertex, Vertex)]) -> Graph {
    Graph::from_pairs(n, edges).unwrap()
}

// ---- labelled search -------------------------------------------------

pub(crate) use puzzled_testkit::oracle::EdgeSearch;

/// The search's edge set of `g`.
pub(crate) fn mask_of(search: &EdgeSearch, g: &Graph) -> u64 {
    search.mask_of(g.edges())
}

/// The graph on `n` vertices of the search's edge set `mask`.
fn graph_of(search: &EdgeSearch, n: usize, mask: u64) -> Graph {
    let edges: Vec<(Vertex, Vertex)> = (0..search.pair_count())
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| search.pair(i))
        .collect();
    graph(n as u64, &edges)
}

/// Checks the solver on `g` against the labelled search, including every
/// piece of evidence it returns.
fn check_with_labelled_search(search: &mut EdgeSearch, g: &Graph) {
    let mask = mask_of(search, g);
    let solution = solve(g).unwrap();
    let expected_winner = if search.mover_wins(mask) {
        Player::First
    } else {
        Player::Second
    };
    assert_eq!(solution.winner, expected_winner, "winner of {g:?}");
    let winning = search.winning(mask);
    check_moves_against(&solution, &winning, g);
    check_counts(&solution.counts, g);
    // x is the number of legal moves that keep two endpoints already
    // connected: count those directly.
    let connected_moves = search
        .legal_pairs(mask)
        .into_iter()
        .filter(|&(u, v)| components(g)[u as usize] == components(g)[v as usize])
        .count() as u64;
    assert_eq!(solution.counts.x, connected_moves, "x of {g:?}");
}

/// The returned moves must be exactly described by `winning` (the
/// searched set of winning edges).
fn check_moves_against(solution: &BipartiteEdgeSolution, winning: &[(Vertex, Vertex)], g: &Graph) {
    let moves = &solution.winning_moves;
    assert_eq!(
        moves.edge_count,
        winning.len() as u64,
        "winning edge count of {g:?}"
    );
    assert_eq!(moves.unique, winning.len() == 1, "unique flag of {g:?}");
    assert_eq!(
        moves.classes.iter().map(|c| c.edge_count).sum::<u64>(),
        moves.edge_count
    );
    for class in &moves.classes {
        assert!(class.edge_count > 0);
        assert!(
            winning.contains(&class.example),
            "example {:?} of {:?} does not win in {g:?}",
            class.example,
            class.class
        );
    }
    match solution.winner {
        Player::First => {
            let chosen = solution.winning_move.expect("a winner to move has a move");
            assert!(
                winning.contains(&chosen),
                "{chosen:?} does not win in {g:?}"
            );
        }
        Player::Second => {
            assert_eq!(solution.winning_move, None);
            assert!(moves.classes.is_empty());
        }
    }
}

/// Component ids by a plain search, for checks independent of the solver.
fn components(g: &Graph) -> Vec<usize> {
    let n = g.vertex_count();
    let mut id = vec![usize::MAX; n];
    for root in 0..n {
        if id[root] != usize::MAX {
            continue;
        }
        id[root] = root;
        let mut stack = vec![root as Vertex];
        while let Some(u) = stack.pop() {
            for &w in g.neighbors(u) {
                if id[w as usize] == usize::MAX {
                    id[w as usize] = root;
                    stack.push(w);
                }
            }
        }
    }
    id
}

/// The components of a bipartite graph as `(part, part, edges)`, with
/// the parts found by a plain depth-first 2-colouring.
fn component_shapes(g: &Graph) -> Vec<(u64, u64, u64)> {
    let n = g.vertex_count();
    let mut colour = vec![None::<bool>; n];
    let mut shapes = Vec::new();
    for root in 0..n {
        if colour[root].is_some() {
            continue;
        }
        let (mut parts, mut degrees) = ([0u64; 2], 0u64);
        colour[root] = Some(false);
        let mut stack = vec![root as Vertex];
        while let Some(u) = stack.pop() {
            let cu = colour[u as usize].unwrap();
            parts[cu as usize] += 1;
            degrees += g.degree(u) as u64;
            for &w in g.neighbors(u) {
                if colour[w as usize].is_none() {
                    colour[w as usize] = Some(!cu);
                    stack.push(w);
                }
            }
        }
        shapes.push((parts[0], parts[1], degrees / 2));
    }
    shapes
}

/// The reported counts, recomputed from the component shapes.
fn check_counts(counts: &BipartiteCounts, g: &Graph) {
    let shapes = component_shapes(g);
    let of_type =
        |keep: fn(u64, u64) -> bool| shapes.iter().filter(|&&(a, b, _)| keep(a, b)).count() as u64;
    let expected = BipartiteCounts {
        n: g.vertex_count() as u64,
        m: g.edge_count() as u64,
        x: shapes.iter().map(|&(a, b, e)| a * b - e).sum(),
        iso: of_type(|a, b| a + b == 1),
        oo: of_type(|a, b| a % 2 == 1 && b % 2 == 1),
        eo: of_type(|a, b| a + b > 1 && (a + b) % 2 == 1),
        ee: of_type(|a, b| a + b > 1 && a % 2 == 0 && b % 2 == 0),
    };
    assert_eq!(*counts, expected, "counts of {g:?}");
}

// ---- component-multiset search ---------------------------------------

/// A component: the smaller part, the larger part, its edge count.
type Shape = (u64, u64, u64);

/// Game-tree search on sorted multisets of component shapes.
#[derive(Default)]
struct ComponentSearch {
    memo: HashMap<Vec<Shape>, bool>,
}

fn normalised(mut shapes: Vec<Shape>) -> Vec<Shape> {
    for shape in &mut shapes {
        if shape.0 > shape.1 {
            *shape = (shape.1, shape.0, shape.2);
        }
    }
    shapes.sort_unstable();
    shapes
}

impl ComponentSearch {
    /// Every move from `position` as (resulting position, how many
    /// distinct edges of the labelled graph make it).
    fn moves(position: &[Shape]) -> Vec<(Vec<Shape>, u64)> {
        let mut moves = Vec::new();
        for (i, &(a, b, e)) in position.iter().enumerate() {
            if e < a * b {
                let mut next = position.to_vec();
                next[i] = (a, b, e + 1);
                moves.push((normalised(next), a * b - e));
            }
            for (j, &(c, d, f)) in position.iter().enumerate().skip(i + 1) {
                let rest = || {
                    let mut rest: Vec<Shape> = position.to_vec();
                    rest.remove(j);
                    rest.remove(i);
                    rest
                };
                // The added edge joins opposite colours: a part of one
                // component merges with the other part of the other.
                for (merged, ways) in [
                    ((a + d, b + c, e + f + 1), a * c + b * d),
                    ((a + c, b + d, e + f + 1), a * d + b * c),
                ] {
                    if ways > 0 {
                        let mut next = rest();
                        next.push(merged);
                        moves.push((normalised(next), ways));
                    }
                }
            }
        }
        moves
    }

    fn mover_wins_from(&mut self, position: &[Shape]) -> bool {
        if let Some(&known) = self.memo.get(position) {
            return known;
        }
        let wins = Self::moves(position)
            .into_iter()
            .any(|(next, _)| !self.mover_wins_from(&next));
        self.memo.insert(position.to_vec(), wins);
        wins
    }

    /// The number of distinct winning edges from `position`.
    fn winning_edge_count(&mut self, position: &[Shape]) -> u64 {
        Self::moves(position)
            .into_iter()
            .filter(|(next, _)| !self.mover_wins_from(next))
            .map(|(_, ways)| ways)
            .sum()
    }
}

/// Adds `edge` to `g`, or `None` if it is already there.
fn with_edge(g: &Graph, (u, v): (Vertex, Vertex)) -> Option<Graph> {
    let mut edges: Vec<_> = g.edges().collect();
    edges.push((u, v));
    Graph::from_pairs(g.vertex_count() as u64, &edges).ok()
}

/// Checks the solver on `g` against the component search: verdict,
/// counts, the number of winning edges, and that every returned edge is
/// legal and leaves a position the search says is lost.
fn check_with_component_search(search: &mut ComponentSearch, g: &Graph) {
    let position = normalised(component_shapes(g));
    let solution = solve(g).unwrap();
    let mover_wins_from = search.mover_wins_from(&position);
    assert_eq!(
        solution.winner == Player::First,
        mover_wins_from,
        "winner of {g:?}"
    );
    check_counts(&solution.counts, g);
    let moves = &solution.winning_moves;
    assert_eq!(
        moves.edge_count,
        search.winning_edge_count(&position),
        "of {g:?}"
    );
    assert_eq!(moves.unique, moves.edge_count == 1);
    let returned = solution
        .winning_move
        .iter()
        .chain(moves.classes.iter().map(|c| &c.example));
    for &edge in returned {
        let after = with_edge(g, edge).expect("the move adds a new edge");
        assert!(
            is_two_colourable(&after),
            "{edge:?} makes an odd cycle in {g:?}"
        );
        let next = normalised(component_shapes(&after));
        assert!(
            !search.mover_wins_from(&next),
            "{edge:?} does not win in {g:?}"
        );
    }
    assert_eq!(solution.winning_move.is_some(), mover_wins_from);
    assert_eq!(moves.classes.is_empty(), !mover_wins_from);
}

// ---- tests -------------------------------------------------------------

#[test]
fn abc398_g_sample_1_path_of_four_is_a_first_player_win() {
    // 4 3 / 1 2 / 2 3 / 3 4 → Aoki, who moves first.
    let g = graph(4, &[(0, 1), (1, 2), (2, 3)]);
    let solution = solve(&g).unwrap();
    assert_eq!(solution.winner, Player::First);
    assert_eq!(
        solution.counts,
        BipartiteCounts {
            n: 4,
            m: 3,
            x: 1,
            iso: 0,
            oo: 0,
            eo: 0,
            ee: 1
        }
    );
    // The only winning move closes the path into a 4-cycle: joining
    // nothing is possible and the one missing cross edge is (0, 3).
    assert_eq!(solution.winning_move, Some((0, 3)));
    assert!(solution.winning_moves.unique);
}

#[test]
fn small_positions_by_hand() {
    // Two separate edges: any join leaves a path of 4 with x = 1, which
    // the next player wins; no edge inside: second wins.
    assert_eq!(
        solve(&graph(4, &[(0, 1), (2, 3)])).unwrap().winner,
        Player::Second
    );
    // No vertices, no moves: the player to move loses.
    let empty = solve(&graph(0, &[])).unwrap();
    assert_eq!(empty.winner, Player::Second);
    assert_eq!(empty.winning_move, None);
    // Two isolated vertices: the one edge wins.
    let pair = solve(&graph(2, &[])).unwrap();
    assert_eq!(pair.winning_move, Some((0, 1)));
    assert!(pair.winning_moves.unique);
}

#[test]
fn move_list_on_a_graph_with_an_odd_cycle_reports_the_cycle() {
    let triangle = graph(3, &[(0, 1), (1, 2), (2, 0)]);
    let Err(MoveListError::Start(BipartiteEdgeError::OddCycle { cycle })) =
        position_after_moves(&triangle, &[])
    else {
        panic!("a triangle is not a position");
    };
    assert_is_odd_cycle(&triangle, &cycle);
    // An isolated vertex 3 keeps the game going (the path 0-1-2 alone is
    // complete bipartite, where every move is after the end).
    let path = graph(4, &[(0, 1), (1, 2)]);
    assert_eq!(
        position_after_moves(&path, &[(2, 0)])
            .unwrap_err()
            .to_string(),
        "move 0 (edge 2-0) is illegal: the edge would close an odd cycle"
    );
}

#[test]
fn x_is_counted_in_64_bits() {
    // One component with parts of 10^5 each: vertex 0 sees the whole
    // other part, and vertex 10^5 sees the whole of part 0.
    let half: Vertex = 100_000;
    let mut edges: Vec<(Vertex, Vertex)> = (half..2 * half).map(|v| (0, v)).collect();
    edges.extend((1..half).map(|u| (u, half)));
    let g = graph(2 * half as u64, &edges);
    let solution = solve(&g).unwrap();
    let m = 2 * u64::from(half) - 1;
    assert_eq!(solution.counts.m, m);
    assert_eq!(solution.counts.x, 10_000_000_000 - m);
    // One component and no other: the game adds exactly the x missing
    // cross edges, whatever the order, so the first player wins iff x is
    // odd (10^10 − 199,999 is), and every one of them wins.
    assert_eq!(solution.winner, Player::First);
    let [class] = &solution.winning_moves.classes[..] else {
        panic!("one class: {:?}", solution.winning_moves.classes);
    };
    assert_eq!(class.class, MoveClass::InsideComponent);
    assert_eq!(class.edge_count, solution.counts.x);
    assert_eq!(solution.winning_moves.edge_count, solution.counts.x);
    let (u, v) = class.example;
    assert!(!g.has_edge(u, v) && (u < half) != (v < half));
}

#[test]
fn every_component_kind_is_counted_in_its_own_class() {
    // Three paths of 3 (parts 2 and 1), one edge (1 and 1), a path of 4
    // (2 and 2) and an isolated vertex.
    let g = graph(
        16,
        &[
            (0, 1),
            (1, 2),
            (3, 4),
            (4, 5),
            (6, 7),
            (7, 8),
            (9, 10),
            (11, 12),
            (12, 13),
            (13, 14),
        ],
    );
    let solution = solve(&g).unwrap();
    assert_eq!(
        solution.counts,
        BipartiteCounts {
            n: 16,
            m: 10,
            // 3·(2·1) + 1·1 + 2·2 − 10
            x: 1,
            iso: 1,
            oo: 1,
            eo: 3,
            ee: 1,
        }
    );
    // N even, eo ≥ 3: first wins iff oo + x is odd, and 1 + 1 is not.
    assert_eq!(solution.winner, Player::Second);
}

#[test]
fn check_bipartite_names_an_odd_cycle() {
    let triangle = graph(4, &[(0, 1), (1, 2), (2, 0), (2, 3)]);
    let Err(BipartiteEdgeError::OddCycle { cycle }) = check_bipartite(&triangle) else {
        panic!("a triangle is not bipartite");
    };
    assert_is_odd_cycle(&triangle, &cycle);
    assert_eq!(check_bipartite(&graph(3, &[(0, 1), (1, 2)])), Ok(()));
}

#[test]
fn odd_cycle_is_reported_with_its_vertices() {
    // A 4-cycle 0-1-2-3 with a chord-free pendant path to a triangle 4-5-6.
    let g = graph(
        7,
        &[
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 0),
            (3, 4),
            (4, 5),
            (5, 6),
            (6, 4),
        ],
    );
    let BipartiteEdgeError::OddCycle { cycle } = solve(&g).unwrap_err();
    assert_is_odd_cycle(&g, &cycle);
    let mut sorted = cycle.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, vec![4, 5, 6]);
    let message = BipartiteEdgeError::OddCycle {
        cycle: vec![3, 5, 9],
    }
    .to_string();
    assert_eq!(message, "graph has an odd cycle through vertices 3-5-9");
}

fn assert_is_odd_cycle(g: &Graph, cycle: &[Vertex]) {
    assert!(cycle.len() % 2 == 1 && cycle.len() >= 3, "{cycle:?}");
    let mut distinct = cycle.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), cycle.len(), "{cycle:?} repeats a vertex");
    for (i, &u) in cycle.iter().enumerate() {
        let v = cycle[(i + 1) % cycle.len()];
        assert!(g.has_edge(u, v), "{u}-{v} of {cycle:?} is not an edge");
    }
}

#[test]
fn rule_matches_search_on_every_bipartite_graph_up_to_7_vertices() {
    let mut checked = Vec::new();
    for n in 0..=7 {
        let mut search = EdgeSearch::new(n);
        let mut graphs = 0;
        for mask in 0..1u64 << search.pair_count() {
            if search.is_bipartite(mask) {
                let g = graph_of(&search, n, mask);
                check_with_labelled_search(&mut search, &g);
                graphs += 1;
            }
        }
        checked.push(graphs);
    }
    // The numbers of labelled bipartite graphs (OEIS A047864): the
    // enumeration missed none and let no odd cycle through.
    assert_eq!(checked, [1, 1, 2, 7, 41, 376, 5177, 103_237]);
}

#[test]
fn component_search_agrees_with_labelled_search() {
    for n in 0..=6 {
        let mut labelled = EdgeSearch::new(n);
        let mut by_components = ComponentSearch::default();
        for mask in 0..1u64 << labelled.pair_count() {
            if labelled.is_bipartite(mask) {
                let g = graph_of(&labelled, n, mask);
                let position = normalised(component_shapes(&g));
                assert_eq!(
                    labelled.mover_wins(mask),
                    by_components.mover_wins_from(&position)
                );
                assert_eq!(
                    labelled.winning(mask).len() as u64,
                    by_components.winning_edge_count(&position)
                );
            }
        }
    }
}

#[test]
fn three_or_more_odd_even_components_match_component_search() {
    // Odd–even components need three vertices, so `eo ≥ 3` starts at 9
    // vertices, past the labelled search: build such positions from
    // paths of 3 and 5, stars of 5, plus an optional extra piece.
    let path = |k: Vertex| (1..k).map(|i| (i - 1, i)).collect::<Vec<_>>();
    let star = |k: Vertex| (1..k).map(|i| (0, i)).collect::<Vec<_>>();
    let odd_even: [(Vertex, Vec<(Vertex, Vertex)>); 3] = [(3, path(3)), (5, path(5)), (5, star(5))];
    let extras: [(Vertex, Vec<(Vertex, Vertex)>); 5] = [
        (0, vec![]),
        (1, vec![]),
        (2, vec![]),
        (2, path(2)),
        (4, path(4)),
    ];
    let mut search = ComponentSearch::default();
    let mut seen_eo = std::collections::BTreeSet::new();
    for count in 3..=4 {
        for choice in 0..3usize.pow(count) {
            for (extra_size, extra_edges) in &extras {
                let mut pieces: Vec<&(Vertex, Vec<(Vertex, Vertex)>)> = (0..count)
                    .map(|i| &odd_even[choice / 3usize.pow(i) % 3])
                    .collect();
                let extra = (*extra_size, extra_edges.clone());
                pieces.push(&extra);
                let mut edges = Vec::new();
                let mut n: Vertex = 0;
                for (size, piece) in pieces {
                    edges.extend(piece.iter().map(|&(u, v)| (n + u, n + v)));
                    n += size;
                }
                if n > 14 {
                    continue;
                }
                let g = graph(u64::from(n), &edges);
                seen_eo.insert((solve(&g).unwrap().counts.eo, n % 2));
                check_with_component_search(&mut search, &g);
            }
        }
    }
    assert!(seen_eo.contains(&(3, 0)) && seen_eo.contains(&(4, 0)));
}

/// A random bipartite graph: a random 2-colouring, then each pair of
/// opposite colours is an edge with probability `density`%.
pub(crate) fn bipartite_graph(max_n: usize) -> impl Strategy<Value = Graph> {
    (0..=max_n)
        .prop_flat_map(|n| {
            let pairs = n * n.saturating_sub(1) / 2;
            (
                Just(n),
                proptest::collection::vec(any::<bool>(), n),
                proptest::collection::vec(0u8..100, pairs),
                0u8..=100,
            )
        })
        .prop_map(|(n, colours, coins, density)| {
            let mut edges = Vec::new();
            let mut coin = coins.into_iter();
            for u in 0..n {
                for v in u + 1..n {
                    if coin.next().unwrap() < density && colours[u] != colours[v] {
                        edges.push((u as Vertex, v as Vertex));
                    }
                }
            }
            graph(n as u64, &edges)
        })
}

/// A disjoint union of paths, stars, complete bipartite blocks and
/// single vertices, with the vertex ids shuffled.
fn union_of_shapes(max_n: usize) -> impl Strategy<Value = Graph> {
    let piece = prop_oneof![
        (1usize..=6).prop_map(|k| ("path", k, 0)),
        (1usize..=6).prop_map(|k| ("star", k, 0)),
        (1usize..=3, 1usize..=3).prop_map(|(a, b)| ("complete", a, b)),
    ];
    proptest::collection::vec(piece, 0..=6)
        .prop_map(move |pieces| {
            let mut edges = Vec::new();
            let mut n = 0usize;
            for (kind, k, b) in pieces {
                let size = if kind == "complete" { k + b } else { k };
                if n + size > max_n {
                    break;
                }
                let base = n as Vertex;
                match kind {
                    "path" => edges.extend((1..k as Vertex).map(|i| (base + i - 1, base + i))),
                    "star" => edges.extend((1..k as Vertex).map(|i| (base, base + i))),
                    _ => {
                        for i in 0..k as Vertex {
                            for j in 0..b as Vertex {
                                edges.push((base + i, base + k as Vertex + j));
                            }
                        }
                    }
                }
                n += size;
            }
            (n, edges)
        })
        .prop_flat_map(|(n, edges)| {
            let ids: Vec<Vertex> = (0..n as Vertex).collect();
            (Just(n), Just(edges), Just(ids).prop_shuffle())
        })
        .prop_map(|(n, edges, ids)| {
            let relabelled: Vec<_> = edges
                .iter()
                .map(|&(u, v)| (ids[u as usize], ids[v as usize]))
                .collect();
            graph(n as u64, &relabelled)
        })
}

use crate::solver::test_support::proptest_config as config;

thread_local! {
    static COMPONENT_SEARCH: std::cell::RefCell<ComponentSearch> =
        std::cell::RefCell::new(ComponentSearch::default());
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_bipartite_graphs_match_search(g in bipartite_graph(7)) {
        let mut search = EdgeSearch::new(g.vertex_count());
        check_with_labelled_search(&mut search, &g);
    }

    #[test]
    fn bigger_random_bipartite_graphs_match_component_search(g in bipartite_graph(12)) {
        COMPONENT_SEARCH.with(|search| check_with_component_search(&mut search.borrow_mut(), &g));
    }

    #[test]
    fn unions_of_paths_stars_and_blocks_match_component_search(g in union_of_shapes(13)) {
        COMPONENT_SEARCH.with(|search| check_with_component_search(&mut search.borrow_mut(), &g));
    }

    #[test]
    fn move_lists_replay_or_name_the_first_illegal_move(
        g in bipartite_graph(7),
        candidates in proptest::collection::vec((0u32..8, 0u32..8), 0..12),
    ) {
        let n = g.vertex_count();
        let mut search = EdgeSearch::new(n);
        let mut mask = mask_of(&search, &g);
        let mut moves = Vec::new();
        for (u, v) in candidates {
            let index = moves.len();
            moves.push((u, v));
            // The search's own view of the move.
            let expected = if u as usize >= n || v as usize >= n {
                Some(IllegalEdgeReason::OutOfRange {
                    vertex: if u as usize >= n { u } else { v },
                    vertex_count: n as u64,
                })
            } else if search.legal(mask).is_empty() {
                Some(IllegalEdgeReason::GameOver)
            } else if u == v {
                Some(IllegalEdgeReason::SelfLoop)
            } else {
                let pair = search.index_of(u, v).unwrap();
                if mask >> pair & 1 == 1 {
                    Some(IllegalEdgeReason::AlreadyPresent)
                } else if !search.is_bipartite(mask | 1 << pair) {
                    Some(IllegalEdgeReason::MakesOddCycle)
                } else {
                    mask |= 1 << pair;
                    None
                }
            };
            if let Some(reason) = expected {
                prop_assert_eq!(
                    position_after_moves(&g, &moves),
                    Err(MoveListError::IllegalMove { index, u, v, reason })
                );
                return Ok(());
            }
        }
        let after = position_after_moves(&g, &moves).unwrap();
        prop_assert_eq!(mask_of(&search, &after), mask);
        check_with_labelled_search(&mut search, &after);
    }

    #[test]
    fn odd_cycles_reported_are_odd_cycles_of_the_graph(
        n in 3usize..=10,
        coins in proptest::collection::vec(0u8..100, 45),
        density in 10u8..=100,
    ) {
        let mut edges = Vec::new();
        let mut coin = coins.into_iter();
        for u in 0..n {
            for v in u + 1..n {
                if coin.next().unwrap() < density {
                    edges.push((u as Vertex, v as Vertex));
                }
            }
        }
        let g = graph(n as u64, &edges);
        match solve(&g) {
            Err(BipartiteEdgeError::OddCycle { cycle }) => assert_is_odd_cycle(&g, &cycle),
            // Then the graph must really be bipartite.
            Ok(_) => prop_assert!(component_shapes(&g)
                .iter()
                .map(|&(_, _, e)| e)
                .sum::<u64>() == g.edge_count() as u64 && is_two_colourable(&g)),
        }
    }
}

/// Independent bipartiteness test: a depth-first colouring that checks
/// every edge.
fn is_two_colourable(g: &Graph) -> bool {
    let n = g.vertex_count();
    let mut colour = vec![None::<bool>; n];
    for root in 0..n {
        if colour[root].is_some() {
            continue;
        }
        colour[root] = Some(false);
        let mut stack = vec![root as Vertex];
        while let Some(u) = stack.pop() {
            for &w in g.neighbors(u) {
                match colour[w as usize] {
                    None => {
                        colour[w as usize] = Some(!colour[u as usize].unwrap());
                        stack.push(w);
                    }
                    Some(c) if c == colour[u as usize].unwrap() => return false,
                    Some(_) => {}
                }
            }
        }
    }
    true
}
