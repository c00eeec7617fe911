//! Everything is checked against the test kit's [`PaintSearch`], a
//! memoised game-tree search over full colourings that knows nothing of
//! distances or paths.

use proptest::prelude::*;

use super::*;

fn tree(n: u64, edges: &[(Vertex, Vertex)]) -> Graph {
    Graph::from_pairs(n, edges).unwrap()
}

pub(crate) use puzzled_testkit::oracle::{Colouring, PaintSearch};

/// The test kit's search on `tree`.
pub(crate) fn paint_search(tree: &Graph) -> PaintSearch {
    let edges: Vec<(Vertex, Vertex)> = tree.edges().collect();
    PaintSearch::new(tree.vertex_count(), &edges)
}

/// The colouring with these painted vertices and `to_move` to move.
pub(crate) fn colouring(black: &[Vertex], white: &[Vertex], to_move: Player) -> Colouring {
    let set = |vertices: &[Vertex]| vertices.iter().fold(0, |set, &v| set | 1 << v);
    Colouring {
        black: set(black),
        white: set(white),
        black_to_move: to_move == Player::First,
    }
}

/// The side to move in `colouring` (black is the first player).
pub(crate) fn mover(colouring: Colouring) -> Player {
    if colouring.black_to_move {
        Player::First
    } else {
        Player::Second
    }
}

/// Checks a position verdict against the search: winner and the exact
/// set of winning moves (which also makes every returned move legal and
/// winning).
fn check_position(search: &mut PaintSearch, g: &Graph, position: &TreePaintPosition) {
    let verdict = analyze_position(g, position).unwrap();
    let state = colouring(&position.black, &position.white, position.to_move);
    let wins = search.mover_wins(state);
    let expected_winner = if wins {
        position.to_move
    } else {
        position.to_move.other()
    };
    assert_eq!(verdict.winner, expected_winner, "{position:?} on {g:?}");
    let expected_moves = search.winning(state);
    assert_eq!(
        verdict.winning_moves.moves, expected_moves,
        "{position:?} on {g:?}"
    );
    assert_eq!(verdict.winning_moves.unique, expected_moves.len() == 1);
    assert_eq!(verdict.to_move, position.to_move);
    assert_eq!(
        verdict.black_count + verdict.white_count,
        g.vertex_count() as u64
    );
}

/// Checks `solve` from a start against the search and against the
/// distance split of docs/games.md, tree painting (computed here by plain BFS).
fn check_start(search: &mut PaintSearch, g: &Graph, black: Vertex, white: Vertex) {
    let solution = solve(g, black, white).unwrap();
    let state = Colouring::opening(black, white);
    let first_wins = search.mover_wins(state);
    assert_eq!(
        solution.winner == Player::First,
        first_wins,
        "{black} vs {white} on {g:?}"
    );
    let expected_moves = search.winning(state);
    assert_eq!(solution.winning_moves.moves, expected_moves);
    assert_eq!(solution.winning_moves.unique, expected_moves.len() == 1);
    match solution.winning_move {
        Some(v) => assert!(expected_moves.contains(&v)),
        None => assert!(!first_wins),
    }
    let (from_black, from_white) = (bfs(g, black), bfs(g, white));
    let black_count = (0..g.vertex_count())
        .filter(|&v| from_black[v] <= from_white[v])
        .count() as u64;
    assert_eq!(solution.black_count, black_count);
    assert_eq!(solution.white_count, g.vertex_count() as u64 - black_count);
    assert_eq!(first_wins, black_count > solution.white_count);
    // The start as a position goes through the general (BFS) analysis:
    // both paths must agree.
    let start = TreePaintPosition {
        black: vec![black],
        white: vec![white],
        to_move: Player::First,
    };
    let verdict = analyze_position(g, &start).unwrap();
    assert_eq!(verdict.winner, solution.winner);
    assert_eq!(verdict.winning_moves, solution.winning_moves);
    assert_eq!(
        (verdict.black_count, verdict.white_count),
        (solution.black_count, solution.white_count)
    );
    if let Some(v) = solution.winning_move {
        // The documented choice: the first step towards white, unless
        // white is adjacent.
        let path_move = g
            .neighbors(black)
            .iter()
            .copied()
            .find(|&u| from_white[u as usize] < from_white[black as usize]);
        if path_move != Some(white) {
            assert_eq!(Some(v), path_move);
        }
    }
}

fn bfs(g: &Graph, source: Vertex) -> Vec<usize> {
    let mut distance = vec![usize::MAX; g.vertex_count()];
    distance[source as usize] = 0;
    let mut queue = std::collections::VecDeque::from([source]);
    while let Some(u) = queue.pop_front() {
        for &w in g.neighbors(u) {
            if distance[w as usize] == usize::MAX {
                distance[w as usize] = distance[u as usize] + 1;
                queue.push_back(w);
            }
        }
    }
    distance
}

/// Every rooted tree shape with up to `max` vertices, once each, as
/// parent arrays (`parent[0]` unused, `parent[v] < v`). Every free tree
/// shape appears among them (rooted at each of its vertex orbits).
fn rooted_shapes(max: usize) -> Vec<Vec<Vec<usize>>> {
    // by_size[k]: the rooted shapes with k vertices.
    let mut by_size: Vec<Vec<Vec<usize>>> = vec![vec![], vec![vec![0]]];
    for k in 2..=max {
        let mut shapes = Vec::new();
        // A root with a multiset of child shapes, listed by non-increasing
        // (size, index) so each multiset is produced once.
        let mut stack: Vec<(Vec<(usize, usize)>, usize)> = vec![(vec![], k - 1)];
        while let Some((children, remaining)) = stack.pop() {
            if remaining == 0 {
                let mut parent = vec![0];
                for &(size, index) in &children {
                    let offset = parent.len();
                    let child = &by_size[size][index];
                    parent.push(0);
                    parent.extend(child[1..].iter().map(|&p| p + offset));
                }
                shapes.push(parent);
                continue;
            }
            let limit = children.last().copied().unwrap_or((usize::MAX, usize::MAX));
            for (size, shapes_of_size) in by_size.iter().enumerate().take(remaining + 1).skip(1) {
                for index in 0..shapes_of_size.len() {
                    if (size, index) <= limit {
                        let mut more = children.clone();
                        more.push((size, index));
                        stack.push((more, remaining - size));
                    }
                }
            }
        }
        by_size.push(shapes);
    }
    by_size
}

fn tree_of_parents(parent: &[usize]) -> Graph {
    let edges: Vec<(Vertex, Vertex)> = (1..parent.len())
        .map(|v| (parent[v] as Vertex, v as Vertex))
        .collect();
    tree(parent.len() as u64, &edges)
}

/// All colourings of `g` with a non-empty connected black set and a
/// non-empty connected white set.
fn all_positions(g: &Graph) -> Vec<(Vec<Vertex>, Vec<Vertex>)> {
    let n = g.vertex_count() as u32;
    let connected = |set: &[Vertex]| {
        let mut reached = vec![set[0]];
        let mut i = 0;
        while i < reached.len() {
            for &w in g.neighbors(reached[i]) {
                if set.contains(&w) && !reached.contains(&w) {
                    reached.push(w);
                }
            }
            i += 1;
        }
        reached.len() == set.len()
    };
    let mut positions = Vec::new();
    for code in 0..3u32.pow(n) {
        let (mut black, mut white) = (Vec::new(), Vec::new());
        let mut rest = code;
        for v in 0..n {
            match rest % 3 {
                1 => black.push(v),
                2 => white.push(v),
                _ => {}
            }
            rest /= 3;
        }
        if !black.is_empty() && !white.is_empty() && connected(&black) && connected(&white) {
            positions.push((black, white));
        }
    }
    positions
}

#[test]
fn abc067_d_samples() {
    // Sample 1: 7 vertices, edges 3-6 1-2 3-1 7-4 5-7 1-4 → Fennec (first).
    let one_based = [(3, 6), (1, 2), (3, 1), (7, 4), (5, 7), (1, 4)];
    let edges: Vec<_> = one_based.iter().map(|&(a, b)| (a - 1, b - 1)).collect();
    let g = tree(7, &edges);
    let (black, white) = default_endpoints(&g);
    assert_eq!((black, white), (0, 6));
    let solution = solve(&g, black, white).unwrap();
    assert_eq!(solution.winner, Player::First);
    // Black reaches 1, 2, 3, 6 (and 4, at distance 1 from each end).
    assert_eq!((solution.black_count, solution.white_count), (5, 2));
    // Sample 2: 4 vertices, edges 1-4 4-2 2-3 → Snuke (second).
    let g = tree(4, &[(0, 3), (3, 1), (1, 2)]);
    let solution = solve(&g, 0, 3).unwrap();
    assert_eq!(solution.winner, Player::Second);
    assert_eq!(solution.winning_move, None);
    assert!(solution.winning_moves.moves.is_empty());
}

#[test]
fn seed_004_example_first_move() {
    // The seed's example (same tree as sample 1) says black wins by
    // painting vertex 2 (1-based) first; that vertex is 1 here, and
    // it is a winning move among others.
    let g = tree(7, &[(2, 5), (0, 1), (2, 0), (6, 3), (4, 6), (0, 3)]);
    let solution = solve(&g, 0, 6).unwrap();
    assert!(solution.winning_moves.moves.contains(&1));
    assert!(!solution.winning_moves.unique);
}

#[test]
fn every_position_on_every_tree_shape_up_to_8_vertices() {
    let shapes = rooted_shapes(8);
    for parents in shapes.iter().skip(2).flatten() {
        let g = tree_of_parents(parents);
        let n = g.vertex_count();
        let mut search = paint_search(&g);
        let positions = all_positions(&g);
        // The enumeration is complete where it can be counted by hand:
        // every start (one black, one white vertex) is there, once.
        let starts = positions
            .iter()
            .filter(|(black, white)| black.len() == 1 && white.len() == 1)
            .count();
        assert_eq!(starts, n * (n - 1), "starts on {g:?}");
        // A path has n(n+1)/2 connected sets (its intervals); two
        // disjoint ones form a position.
        if (0..n as Vertex).all(|v| g.neighbors(v).len() <= 2) {
            let intervals: Vec<(usize, usize)> =
                (0..n).flat_map(|a| (a..n).map(move |b| (a, b))).collect();
            let disjoint = intervals
                .iter()
                .flat_map(|x| intervals.iter().map(move |y| (x, y)))
                .filter(|(x, y)| x.1 < y.0 || y.1 < x.0)
                .count();
            assert_eq!(positions.len(), disjoint, "positions on the path {g:?}");
        }
        for (black, white) in positions {
            for to_move in [Player::First, Player::Second] {
                let position = TreePaintPosition {
                    black: black.clone(),
                    white: white.clone(),
                    to_move,
                };
                check_position(&mut search, &g, &position);
            }
        }
    }
}

#[test]
fn every_start_on_every_tree_shape_up_to_10_vertices() {
    let shapes = rooted_shapes(10);
    // The rooted shape counts (OEIS A000081): the generator missed none.
    let counts: Vec<usize> = shapes.iter().map(Vec::len).collect();
    assert_eq!(counts, [0, 1, 1, 2, 4, 9, 20, 48, 115, 286, 719]);
    for parents in shapes.iter().skip(2).flatten() {
        let g = tree_of_parents(parents);
        let mut search = paint_search(&g);
        let n = g.vertex_count() as Vertex;
        for black in 0..n {
            for white in (0..n).filter(|&w| w != black) {
                check_start(&mut search, &g, black, white);
            }
        }
    }
}

/// Every start up to symmetry: a start (black b, white w) on a tree is
/// the rooted tree (tree, b) with w marked, and every rooted tree is
/// isomorphic to one of `rooted_shapes` with its root as vertex 0. So
/// black on the root against every other vertex covers every start of
/// every tree with 11 or 12 vertices.
#[test]
fn every_start_up_to_symmetry_on_every_tree_of_11_and_12_vertices() {
    let shapes = rooted_shapes(12);
    // OEIS A000081 again, for the larger sizes.
    let counts: Vec<usize> = shapes[11..].iter().map(Vec::len).collect();
    assert_eq!(counts, [1842, 4766]);
    let mut starts = 0;
    for parents in shapes[11..].iter().flatten() {
        let g = tree_of_parents(parents);
        let mut search = paint_search(&g);
        let n = g.vertex_count() as Vertex;
        for white in 1..n {
            check_start(&mut search, &g, 0, white);
            starts += 1;
        }
    }
    assert_eq!(starts, 1842 * 10 + 4766 * 11);
}

/// A uniformly random labelled tree with `2..=max` vertices, from a
/// Prüfer sequence.
pub(crate) fn random_tree(max: usize) -> impl Strategy<Value = Graph> {
    (2..=max)
        .prop_flat_map(|n| proptest::collection::vec(0..n as Vertex, n - 2))
        .prop_map(|prufer| {
            let n = prufer.len() + 2;
            let mut degree = vec![1usize; n];
            for &v in &prufer {
                degree[v as usize] += 1;
            }
            let mut edges = Vec::new();
            for &v in &prufer {
                let leaf = (0..n).find(|&u| degree[u] == 1).unwrap();
                edges.push((leaf as Vertex, v));
                degree[leaf] -= 1;
                degree[v as usize] -= 1;
            }
            let last: Vec<usize> = (0..n).filter(|&u| degree[u] == 1).collect();
            edges.push((last[0] as Vertex, last[1] as Vertex));
            tree(n as u64, &edges)
        })
}

/// A random position: two distinct seeds grown by random adjacent
/// uncoloured vertices, in any proportion (so many positions cannot come
/// from alternating play), and a random side to move.
fn random_position(max: usize) -> impl Strategy<Value = (Graph, TreePaintPosition)> {
    (
        random_tree(max),
        any::<u64>(),
        any::<u64>(),
        proptest::collection::vec((any::<bool>(), any::<u64>()), 0..12),
        any::<bool>(),
    )
        .prop_map(|(g, b, w, growth, black_moves)| {
            let n = g.vertex_count() as u64;
            let black = (b % n) as Vertex;
            let white = ((black as u64 + 1 + w % (n - 1)) % n) as Vertex;
            let mut sets = [vec![black], vec![white]];
            for (grow_white, pick) in growth {
                let set = usize::from(grow_white);
                let coloured = |v: Vertex| sets.iter().any(|s| s.contains(&v));
                let frontier: Vec<Vertex> = (0..n as Vertex)
                    .filter(|&v| {
                        !coloured(v) && g.neighbors(v).iter().any(|w| sets[set].contains(w))
                    })
                    .collect();
                if !frontier.is_empty() {
                    sets[set].push(frontier[(pick % frontier.len() as u64) as usize]);
                }
            }
            let [black, white] = sets;
            let to_move = if black_moves {
                Player::First
            } else {
                Player::Second
            };
            (
                g,
                TreePaintPosition {
                    black,
                    white,
                    to_move,
                },
            )
        })
}

use crate::solver::test_support::proptest_config as config;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_starts_match_search(g in random_tree(12), b in any::<u64>(), w in any::<u64>()) {
        let n = g.vertex_count() as u64;
        let black = (b % n) as Vertex;
        let white = ((u64::from(black) + 1 + w % (n - 1)) % n) as Vertex;
        check_start(&mut paint_search(&g), &g, black, white);
    }

    #[test]
    fn random_positions_match_search((g, position) in random_position(12)) {
        check_position(&mut paint_search(&g), &g, &position);
    }

    #[test]
    fn legal_move_lists_replay_and_match_search(
        g in random_tree(12),
        b in any::<u64>(),
        w in any::<u64>(),
        picks in proptest::collection::vec(any::<u64>(), 0..12),
    ) {
        let n = g.vertex_count() as u64;
        let black = (b % n) as Vertex;
        let white = ((u64::from(black) + 1 + w % (n - 1)) % n) as Vertex;
        let mut search = paint_search(&g);
        // Play random legal moves (as the search sees them) until the
        // picks or the moves run out.
        let mut moves = Vec::new();
        let mut state = Colouring::opening(black, white);
        for pick in picks {
            let legal = search.legal(state);
            if legal.is_empty() {
                break;
            }
            let v = legal[(pick % legal.len() as u64) as usize];
            moves.push(v);
            state = state.after(v);
        }
        let position = position_after_moves(&g, black, white, &moves).unwrap();
        prop_assert_eq!(colouring(&position.black, &position.white, position.to_move), state);
        check_position(&mut search, &g, &position);
    }
}

#[test]
fn not_a_tree_errors_say_which() {
    let err = |g: &Graph| solve(g, 0, 1).unwrap_err();
    assert_eq!(
        err(&tree(1, &[])).to_string(),
        "tree paint needs a tree with at least 2 vertices, the graph has 1"
    );
    // 8 vertices, 9 edges.
    let mut edges: Vec<(Vertex, Vertex)> = (1..8).map(|v| (v - 1, v)).collect();
    edges.extend([(0, 2), (3, 5)]);
    let too_many = tree(8, &edges);
    let message = err(&too_many).to_string();
    assert!(
        message.starts_with(
            "tree paint needs a tree: 8 vertices but 9 edges (a tree on 8 vertices has 7); vertices "
        ),
        "{message}"
    );
    let TreePaintError::NotATree(NotATree::WrongEdgeCount {
        cycle: Some(cycle), ..
    }) = err(&too_many)
    else {
        panic!("expected a cycle in {too_many:?}");
    };
    assert_is_cycle(&too_many, &cycle);
    // Too few edges: 8 vertices, 6 edges, no cycle to name.
    assert_eq!(
        err(&tree(8, &edges[..6])).to_string(),
        "tree paint needs a tree: 8 vertices but 6 edges (a tree on 8 vertices has 7)"
    );
    // Right count, but a triangle 0-1-2 and vertex 5 cut off.
    let g = tree(6, &[(0, 1), (1, 2), (2, 0), (3, 4), (3, 5)]);
    let TreePaintError::NotATree(NotATree::NotConnected { unreached, cycle }) = err(&g) else {
        panic!("expected NotConnected for {g:?}");
    };
    assert_eq!(unreached, 3);
    assert_is_cycle(&g, &cycle);
    assert_eq!(
        err(&g).to_string(),
        "tree paint needs a tree, and this graph is not connected: vertex 3 cannot be reached from vertex 0 (and vertices 2-1-0 form a cycle)"
    );
    // The cycle may lie in the part that vertex 0 does not reach.
    let g = tree(5, &[(0, 1), (2, 3), (3, 4), (4, 2)]);
    assert_eq!(
        err(&g),
        TreePaintError::NotATree(NotATree::NotConnected {
            unreached: 2,
            cycle: vec![4, 3, 2]
        })
    );
}

fn assert_is_cycle(g: &Graph, cycle: &[Vertex]) {
    assert!(cycle.len() >= 3, "{cycle:?}");
    let mut distinct = cycle.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), cycle.len(), "{cycle:?} repeats a vertex");
    for (i, &u) in cycle.iter().enumerate() {
        let v = cycle[(i + 1) % cycle.len()];
        assert!(g.has_edge(u, v), "{u}-{v} of {cycle:?} is not an edge");
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn graphs_that_are_not_trees_name_the_reason_and_a_real_cycle(
        (n, pairs, extra) in (4usize..=12).prop_flat_map(|n| {
            let pairs: Vec<(Vertex, Vertex)> = (0..n as Vertex)
                .flat_map(|u| (u + 1..n as Vertex).map(move |v| (u, v)))
                .collect();
            (Just(n), Just(pairs).prop_shuffle(), 0usize..=3)
        }),
    ) {
        // n − 2 to n + 1 distinct random edges.
        let edge_count = n - 2 + extra;
        let g = tree(n as u64, &pairs[..edge_count]);
        let connected = bfs(&g, 0).iter().all(|&d| d != usize::MAX);
        match solve(&g, 0, 1) {
            Ok(_) => prop_assert!(edge_count == n - 1 && connected),
            Err(TreePaintError::NotATree(NotATree::NotConnected { unreached, cycle })) => {
                prop_assert_eq!(edge_count, n - 1);
                prop_assert_eq!(bfs(&g, 0)[unreached as usize], usize::MAX);
                assert_is_cycle(&g, &cycle);
            }
            Err(TreePaintError::NotATree(NotATree::WrongEdgeCount { edge_count: reported, cycle, .. })) => {
                prop_assert_eq!(reported as usize, edge_count);
                prop_assert!(edge_count != n - 1);
                // With n or more edges there must be a cycle; with fewer
                // than n − 1 there may be one, and it must be real.
                match cycle {
                    Some(cycle) => assert_is_cycle(&g, &cycle),
                    None => prop_assert!(edge_count < n - 1),
                }
            }
            Err(other) => prop_assert!(false, "unexpected {other}"),
        }
    }
}

#[test]
fn start_vertex_errors_name_the_field() {
    let g = tree(3, &[(0, 1), (1, 2)]);
    assert_eq!(
        solve(&g, 0, 3).unwrap_err().to_string(),
        "white: vertex 3 out of range 0..3"
    );
    assert_eq!(
        solve(&g, 9, 1).unwrap_err().to_string(),
        "black: vertex 9 out of range 0..3"
    );
    assert_eq!(
        solve(&g, 2, 2).unwrap_err(),
        TreePaintError::SameVertex { vertex: 2 }
    );
}

#[test]
fn position_errors_name_the_entry() {
    // The path 0-1-2-3-4.
    let g = tree(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
    let at = |black: Vec<Vertex>, white: Vec<Vertex>| {
        analyze_position(
            &g,
            &TreePaintPosition {
                black,
                white,
                to_move: Player::First,
            },
        )
        .unwrap_err()
        .to_string()
    };
    assert_eq!(at(vec![], vec![4]), "the black set is empty");
    assert_eq!(
        at(vec![0, 7], vec![4]),
        "black[1]: vertex 7 out of range 0..5"
    );
    assert_eq!(
        at(vec![0, 1, 0], vec![4]),
        "black[2]: vertex 0 is listed twice"
    );
    assert_eq!(
        at(vec![0, 1], vec![4, 1]),
        "white[1]: vertex 1 is also black"
    );
    assert_eq!(
        at(vec![0, 2], vec![4]),
        "the black set is not connected: vertex 2 cannot be reached from vertex 0 within it"
    );
}

#[test]
fn illegal_moves_name_the_move_and_why() {
    // The path 0-1-2-3-4, black at 0, white at 4.
    let g = tree(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
    let after = |moves: &[Vertex]| {
        position_after_moves(&g, 0, 4, moves)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        after(&[1, 3, 3]),
        "move 2 (black paints vertex 3) is illegal: vertex 3 is already white"
    );
    assert_eq!(
        after(&[1, 2]),
        "move 1 (white paints vertex 2) is illegal: vertex 2 has no white neighbour"
    );
    assert_eq!(
        after(&[5]),
        "move 0 (black paints vertex 5) is illegal: vertex 5 is out of range 0..5"
    );
    let position = position_after_moves(&g, 0, 4, &[1, 3]).unwrap();
    assert_eq!(
        position,
        TreePaintPosition {
            black: vec![0, 1],
            white: vec![4, 3],
            to_move: Player::First
        }
    );
    // Black takes 2 and wins: 3 against 2.
    let verdict = analyze_position(&g, &position).unwrap();
    assert_eq!(verdict.winner, Player::First);
    assert_eq!(
        verdict.winning_moves,
        WinningMoves {
            moves: vec![2],
            unique: true
        }
    );
}

#[test]
fn a_million_vertex_path_needs_no_recursion() {
    let n: Vertex = 1_000_000;
    let edges: Vec<(Vertex, Vertex)> = (1..n).map(|v| (v - 1, v)).collect();
    let g = tree(u64::from(n), &edges);
    let solution = solve(&g, 0, n - 1).unwrap();
    // Even length: the halves are equal and the second player wins.
    assert_eq!(
        (solution.black_count, solution.white_count),
        (500_000, 500_000)
    );
    assert_eq!(solution.winner, Player::Second);
}
