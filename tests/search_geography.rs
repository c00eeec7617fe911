//! The Geography variants solved by search against an independent oracle,
//! the test kit's (`testkit::strategy`): the article's plain recursion over
//! (what is used, token), with no table, no pruning and no code shared with
//! the solver. Every certificate the solver returns is checked by the test
//! kit's strategy checker.
//!
//! Exhaustive on every labelled digraph up to 4 vertices with every start,
//! every digraph on 5 vertices from start 0 (every (digraph, start) pair is
//! a relabelling of one with start 0), every undirected graph up to 6
//! vertices for undirected edge Geography, and a random sample on 6 to 8
//! vertices. `PUZZLED_DEEP_SEARCH_TESTS=1` also runs 5 vertices with every
//! start and a larger random sample.

use puzzled::solver::Player;
use puzzled::solver::cancel::Cancel;
use puzzled::solver::search_geography::{
    Board, Certificate, SearchOptions, SearchStop, Variant, solve,
};
use puzzled_testkit::random::{Rng as _, XorShift};
use puzzled_testkit::strategy::{self, Rules, check_strategy};

const VARIANTS: [Variant; 3] = [
    Variant::DirectedVertex,
    Variant::UndirectedEdge,
    Variant::DirectedEdge,
];

fn deep() -> bool {
    std::env::var_os("PUZZLED_DEEP_SEARCH_TESTS").is_some()
}

fn rules(variant: Variant) -> Rules {
    match variant {
        Variant::DirectedVertex => Rules::DirectedVertex,
        Variant::UndirectedEdge => Rules::UndirectedEdge,
        Variant::DirectedEdge => Rules::DirectedEdge,
    }
}

const OPTIONS: SearchOptions = SearchOptions {
    budget_states: 1_000_000,
    certificate_positions: 10_000,
};

/// Solves and compares with the oracle; checks the certificate when
/// `check_certificate`. Returns whether a certificate was checked.
fn compare(
    variant: Variant,
    n: usize,
    pairs: &[(u32, u32)],
    start: u32,
    check_certificate: bool,
) -> bool {
    let board = Board::new(variant, n, pairs).unwrap();
    let solution = solve(&board, start, OPTIONS, &Cancel::never()).unwrap();
    let oracle = strategy::Board {
        rules: rules(variant),
        n,
        pairs,
    };
    let expected = oracle.winning_moves(start);
    assert_eq!(
        solution.winning_moves, expected,
        "{variant:?} on {n} vertices {pairs:?} from {start}"
    );
    let winner = if expected.is_empty() {
        Player::Second
    } else {
        Player::First
    };
    assert_eq!(
        solution.winner, winner,
        "{variant:?} {pairs:?} from {start}"
    );
    if !check_certificate {
        return false;
    }
    match &solution.certificate {
        Certificate::Strategy(tree) => {
            let board = strategy::Board {
                rules: rules(variant),
                n,
                pairs,
            };
            check_strategy(
                &board,
                start,
                winner == Player::First,
                &tree.moves,
                &tree.replies,
            )
            .unwrap_or_else(|e| panic!("{variant:?} {pairs:?} from {start}: {e}"));
            true
        }
        Certificate::Omitted(_) => false,
    }
}

/// Every pair set over the candidate pairs, as bit masks.
fn all_subsets(candidates: &[(u32, u32)]) -> impl Iterator<Item = Vec<(u32, u32)>> + '_ {
    (0u64..1 << candidates.len()).map(move |mask| {
        candidates
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, &p)| p)
            .collect()
    })
}

fn arcs_of(n: u32) -> Vec<(u32, u32)> {
    (0..n)
        .flat_map(|u| (0..n).filter(move |&v| v != u).map(move |v| (u, v)))
        .collect()
}

fn edges_of(n: u32) -> Vec<(u32, u32)> {
    (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
        .collect()
}

#[test]
fn directed_games_match_the_oracle_on_every_small_digraph() {
    for variant in [Variant::DirectedVertex, Variant::DirectedEdge] {
        for n in 1..=4u32 {
            let candidates = arcs_of(n);
            for pairs in all_subsets(&candidates) {
                for start in 0..n {
                    compare(variant, n as usize, &pairs, start, true);
                }
            }
        }
        let candidates = arcs_of(5);
        let starts = if deep() { 0..5 } else { 0..1 };
        for (index, pairs) in all_subsets(&candidates).enumerate() {
            for start in starts.clone() {
                compare(variant, 5, &pairs, start, index % 97 == 0);
            }
        }
    }
}

#[test]
fn undirected_edge_geography_matches_the_oracle_on_every_graph_up_to_six_vertices() {
    for n in 1..=6u32 {
        let candidates = edges_of(n);
        for (index, pairs) in all_subsets(&candidates).enumerate() {
            for start in 0..n {
                compare(
                    Variant::UndirectedEdge,
                    n as usize,
                    &pairs,
                    start,
                    n < 6 || index % 31 == 0,
                );
            }
        }
    }
}

#[test]
fn random_larger_boards_match_the_oracle() {
    let mut rng = XorShift::new(35);
    let samples = if deep() { 3000 } else { 300 };
    let mut certificates = 0;
    for sample in 0..samples {
        let variant = VARIANTS[sample % 3];
        let n = 6 + rng.below(3) as u32;
        let candidates = if variant.is_directed() {
            arcs_of(n)
        } else {
            edges_of(n)
        };
        // Sparse enough for the oracle's plain recursion in the edge games.
        let density = match variant {
            Variant::DirectedVertex => 2 + rng.below(4),
            _ => 2 + rng.below(2),
        };
        let pairs: Vec<(u32, u32)> = candidates
            .iter()
            .copied()
            .filter(|_| rng.below(10) < density)
            .collect();
        let start = rng.below(n as u64) as u32;
        if compare(variant, n as usize, &pairs, start, true) {
            certificates += 1;
        }
    }
    assert!(
        certificates > samples / 2,
        "only {certificates} certificates checked"
    );
}

#[test]
fn the_budget_refuses_rather_than_guesses() {
    // Directed vertex Geography on a dense random digraph needs many states.
    let mut rng = XorShift::new(7);
    let n = 24;
    let pairs: Vec<(u32, u32)> = arcs_of(n)
        .into_iter()
        .filter(|_| rng.below(10) < 3)
        .collect();
    let board = Board::new(Variant::DirectedVertex, n as usize, &pairs).unwrap();
    let options = SearchOptions {
        budget_states: 50,
        certificate_positions: 100,
    };
    match solve(&board, 0, options, &Cancel::never()) {
        Err(SearchStop::BudgetExceeded(exceeded)) => {
            assert_eq!((exceeded.states, exceeded.budget), (50, 50));
        }
        other => panic!("expected the budget to stop the search, got {other:?}"),
    }
    let roomy = SearchOptions {
        budget_states: 10_000_000,
        certificate_positions: 100,
    };
    let solution = solve(&board, 0, roomy, &Cancel::never()).unwrap();
    assert!(solution.states > 50);
    assert!(
        matches!(solution.certificate, Certificate::Omitted(ref why) if why.contains("100 positions"))
    );
}

#[test]
fn a_fired_cancel_stops_the_search() {
    let n = 30;
    let pairs: Vec<(u32, u32)> = arcs_of(n);
    let board = Board::new(Variant::DirectedVertex, n as usize, &pairs).unwrap();
    let cancel = Cancel::new();
    cancel.fire();
    let options = SearchOptions {
        budget_states: u64::MAX,
        certificate_positions: 0,
    };
    // A complete digraph is symmetric: the matching rule, which looks at
    // the handle too.
    assert!(matches!(
        solve(&board, 0, options, &cancel),
        Err(SearchStop::Cancelled(_))
    ));
}
