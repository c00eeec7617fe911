use std::time::{Duration, Instant};

use proptest::prelude::*;

use super::*;
use crate::graph::Graph;
use crate::solver::test_support::random_edges;

fn refined(n: u32, edges: &[u32], cells: &[Vec<Vertex>]) -> Refined {
    let graph = Graph::from_flat_edges(n.into(), edges).unwrap();
    // A hang guard, not a bound on the refinement: these graphs take
    // milliseconds, and a loaded machine many times that.
    let deadline = Instant::now() + Duration::from_secs(600);
    refine(&graph, |v| graph.degree(v) as u32, cells, deadline).expect("within the deadline")
}

/// The cells of a refinement as ordered lists of vertex sets.
fn cells_of(refined: Refined) -> (bool, Vec<Vec<Vertex>>) {
    match refined {
        Refined::Discrete(order) => (true, order.into_iter().map(|v| vec![v]).collect()),
        Refined::Cells(cells) => (
            false,
            cells
                .into_iter()
                .map(|mut cell| {
                    cell.sort_unstable();
                    cell
                })
                .collect(),
        ),
    }
}

#[test]
fn a_random_sparse_graph_is_labelled_by_refinement_alone() {
    // A cycle through every vertex and random chords: no leaves, whose
    // twins on one vertex would be symmetric.
    let n = 3000;
    let mut edges: Vec<u32> = (0..n).flat_map(|v| [v, (v + 1) % n]).collect();
    for chord in random_edges(n, 3000, 7).chunks(2) {
        let (u, v) = (chord[0], chord[1]);
        if (u + 1) % n != v && (v + 1) % n != u {
            edges.extend([u, v]);
        }
    }
    let everything = vec![(0..n).collect::<Vec<_>>()];
    let Refined::Discrete(order) = refined(n, &edges, &everything) else {
        panic!("a random graph with average degree 4 and no leaves has every colour unique");
    };
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "a permutation");
}

#[test]
fn symmetric_graphs_are_left_to_traces_in_cells_that_keep_the_given_order() {
    // A 10-cycle with vertex 4 alone in the first cell: the reflection
    // through it pairs the others, so refinement cannot separate them.
    let n = 10;
    let edges: Vec<u32> = (0..n).flat_map(|v| [v, (v + 1) % n]).collect();
    let cells = vec![vec![4], (0..n).filter(|&v| v != 4).collect()];
    let (discrete, cells) = cells_of(refined(n, &edges, &cells));
    assert!(!discrete);
    assert_eq!(cells[0], vec![4], "the distinguished vertex stays first");
    for cell in &cells[1..] {
        assert!(cell.len() <= 2, "{cells:?}");
        if let [a, b] = cell[..] {
            assert_eq!((a + b) % n, 8, "mirror images through 4: {cells:?}");
        }
    }
    // A regular graph is not split at all.
    let everything = vec![(0..n).collect::<Vec<_>>()];
    assert_eq!(
        cells_of(refined(n, &edges, &everything)).1,
        everything,
        "a cycle has one colour"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Refinement never looks at labels: a relabelled copy gets the
    /// relabelled ordered colouring (so the same canonical order when it
    /// is discrete), and every cell stays within its given cell, in order.
    #[test]
    fn relabelled_copies_get_corresponding_colourings(
        n in 2u32..40,
        density in 1usize..4,
        colours in 1u32..4,
        seed in any::<u64>(),
    ) {
        let m = (n as usize * density / 2).min((n * (n - 1) / 2) as usize);
        let edges = random_edges(n, m, seed | 1);
        let colour = |v: u32| (v.wrapping_mul(2_654_435_761) >> 7) % colours;
        let given: Vec<Vec<Vertex>> =
            (0..colours).map(|c| (0..n).filter(|&v| colour(v) == c).collect()).collect();
        let perm = super::super::tests::permutation(n, seed);
        let copy_edges: Vec<u32> = edges.iter().map(|&v| perm[v as usize]).collect();
        let copy_given: Vec<Vec<Vertex>> = given
            .iter()
            .map(|cell| cell.iter().map(|&v| perm[v as usize]).collect())
            .collect();
        let (discrete, cells) = cells_of(refined(n, &edges, &given));
        let (copy_discrete, copy_cells) = cells_of(refined(n, &copy_edges, &copy_given));
        prop_assert_eq!(discrete, copy_discrete);
        let mapped: Vec<Vec<Vertex>> = cells
            .iter()
            .map(|cell| {
                let mut cell: Vec<Vertex> = cell.iter().map(|&v| perm[v as usize]).collect();
                cell.sort_unstable();
                cell
            })
            .collect();
        prop_assert_eq!(mapped, copy_cells);
        let given_cell: Vec<u32> = cells
            .iter()
            .map(|cell| colour(cell[0]))
            .collect();
        for (cell, &c) in cells.iter().zip(&given_cell) {
            prop_assert!(cell.iter().all(|&v| colour(v) == c));
        }
        let nonempty: Vec<u32> = (0..colours).filter(|&c| !given[c as usize].is_empty()).collect();
        let mut seen = given_cell.clone();
        seen.dedup();
        prop_assert_eq!(seen, nonempty, "cells follow the given order");
    }

    /// Merging two sorted lists gives what sorting their union gives; the
    /// small key range makes equal colours on both sides common.
    #[test]
    fn merging_sorted_lists_sorts_their_union(
        mut a in prop::collection::vec((0u64..20, any::<u32>(), 0u32..3), 0..60),
        mut b in prop::collection::vec((0u64..20, any::<u32>(), 0u32..3), 0..60),
    ) {
        a.sort_unstable_by_key(|&(colour, ..)| colour);
        b.sort_unstable_by_key(|&(colour, ..)| colour);
        let merged = merge(&a, &b);
        prop_assert!(merged.windows(2).all(|w| w[0].0 <= w[1].0));
        let mut union: Vec<Item> = a.iter().chain(&b).copied().collect();
        let mut got = merged.clone();
        union.sort_unstable();
        got.sort_unstable();
        prop_assert_eq!(got, union);
    }
}

proptest! {
    /// The first round taken by cells gives every core vertex the sum a
    /// full round gives it, whatever the cells and the core (vertices left
    /// out of every cell are outside it and add nothing).
    #[test]
    fn the_first_round_by_cells_sums_as_a_full_round_does(
        n in 2u32..60,
        m in 0usize..150,
        seed in 1u64..u64::MAX,
        cell_picks in prop::collection::vec(0u8..8, 60),
    ) {
        let m = m.min((n * (n - 1) / 2) as usize);
        let graph = Graph::from_flat_edges(n.into(), &random_edges(n, m, seed)).unwrap();
        // Pick 0-2 puts a vertex outside the core, 3-5 in the big cell,
        // 6 and 7 in small cells of their own number.
        let mut cells: Vec<Vec<Vertex>> = vec![Vec::new(); 3];
        for v in 0..n {
            match cell_picks[v as usize] {
                0..=2 => {}
                3..=5 => cells[0].push(v),
                pick => cells[pick as usize - 5].push(v),
            }
        }
        let in_core = |v: Vertex| cells.iter().any(|cell| cell.contains(&v));
        let mut mixed = vec![0u64; n as usize];
        for (i, cell) in cells.iter().enumerate() {
            for &v in cell {
                mixed[v as usize] = neighbour_value(mix(i as u64 + 1));
            }
        }
        let core_degree = |v: Vertex| graph.neighbors(v).iter().filter(|&&w| in_core(w)).count() as u32;
        let mut cell_of = vec![NO_CELL; n as usize];
        for (i, cell) in cells.iter().enumerate() {
            for &v in cell {
                cell_of[v as usize] = i as u32;
            }
        }
        let mut sums = vec![0u64; n as usize];
        if first_round_by_cells(&graph, &cells, &cell_of, &mixed, &core_degree, &mut sums) {
            for v in (0..n).filter(|&v| !in_core(v)) {
                prop_assert_eq!(sums[v as usize], 0, "vertex {} outside the core", v);
            }
            for v in (0..n).filter(|&v| in_core(v)) {
                prop_assert_eq!(sums[v as usize], neighbour_sum(&graph, &mixed, v), "vertex {}", v);
            }
        }
    }
}

proptest! {
    /// Running sums over the neighbour lists give every core vertex the sum
    /// taken vertex by vertex, and every other vertex zero, across blocks
    /// (graphs up to three blocks long, a star's hub for a long list).
    #[test]
    fn running_sums_sum_as_vertex_by_vertex_sums_do(
        n in 2u32..(3 * RUNNING_SUM_BLOCK as u32),
        edges_per_vertex in 0usize..4,
        hub_degree in 0u32..2000,
        seed in 1u64..u64::MAX,
        outside_one_in in 2u64..10,
    ) {
        let m = (edges_per_vertex * n as usize).min((n * (n - 1) / 2) as usize);
        let mut edges = random_edges(n, m, seed);
        // A hub on vertex 0, joined to vertices not already its neighbours.
        let joined: std::collections::HashSet<Vertex> = edges
            .chunks(2)
            .filter_map(|e| match e {
                &[0, v] | &[v, 0] => Some(v),
                _ => None,
            })
            .collect();
        let hub: Vec<Vertex> = (1..n.min(hub_degree + 1)).filter(|v| !joined.contains(v)).collect();
        edges.extend(hub.iter().flat_map(|&v| [0, v]));
        let graph = Graph::from_flat_edges(n.into(), &edges).unwrap();
        let value = |v: Vertex| mix(seed ^ u64::from(v));
        let cell_of: Vec<u32> = (0..n)
            .map(|v| if value(v) % outside_one_in == 0 { NO_CELL } else { 0 })
            .collect();
        // Zero outside the core, as refinement keeps it.
        let mixed: Vec<u64> = (0..n)
            .map(|v| if cell_of[v as usize] == NO_CELL { 0 } else { value(v).rotate_left(17) })
            .collect();
        let mut sums = vec![u64::MAX; n as usize];
        let mut running = Vec::new();
        all_neighbour_sums(&graph, &mixed, &cell_of, &mut sums, &mut running);
        for v in 0..n {
            let expected = if cell_of[v as usize] == NO_CELL {
                0
            } else {
                neighbour_sum(&graph, &mixed, v)
            };
            prop_assert_eq!(sums[v as usize], expected, "vertex {}", v);
        }
    }
}
