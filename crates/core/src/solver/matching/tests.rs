use super::*;
use puzzled_testkit::random::{Rng as _, XorShift};

fn graph(n: u64, edges: &[(Vertex, Vertex)]) -> Graph {
    Graph::from_pairs(n, edges).unwrap()
}

fn assert_is_matching(g: &Graph, mate: &[Vertex]) {
    for v in 0..g.vertex_count() as Vertex {
        let m = mate[v as usize];
        if m != NONE {
            assert_eq!(mate[m as usize], v, "mates are symmetric");
            assert!(g.has_edge(v, m), "({v}, {m}) is an edge");
        }
    }
}

#[test]
fn odd_cycle_has_one_exposed_vertex_and_all_in_d() {
    let g = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
    let a = MatchingAnalysis::new(&g);
    assert_eq!(a.size(), 2);
    assert_eq!(a.vertices_in(VertexClass::D), vec![0, 1, 2, 3, 4]);
    for v in 0..5 {
        let mate = a.matching_exposing(v).unwrap();
        assert_is_matching(&g, &mate);
        assert_eq!(mate[v as usize], NONE);
        assert_eq!(pairs_of(&mate).len(), 2);
    }
}

#[test]
fn path_of_three_has_a_as_middle() {
    let g = graph(3, &[(0, 1), (1, 2)]);
    let a = MatchingAnalysis::new(&g);
    assert_eq!(a.size(), 1);
    assert_eq!(a.vertices_in(VertexClass::D), vec![0, 2]);
    assert_eq!(a.barrier(), vec![1]);
    assert_eq!(a.matching_exposing(1), None);
}

#[test]
fn augments_through_a_blossom() {
    // A triangle 1-2-3 with stems 0-1 and 3-4; a bad greedy start
    // matches 1-2 and 3-4, leaving 0 exposed: the search must go
    // 0-1 (matched 1-2), blossom, out through 3.
    let g = graph(6, &[(0, 1), (1, 2), (2, 3), (1, 3), (3, 4), (4, 5)]);
    let mut mate = vec![NONE; 6];
    for (u, v) in [(1, 2), (3, 4)] {
        mate[u] = v as Vertex;
        mate[v] = u as Vertex;
    }
    let a = MatchingAnalysis::from_matching(&g, mate);
    assert_eq!(a.size(), 3);
    assert_is_matching(&g, &a.mates());
}

#[test]
fn complete_graph_on_four_is_perfect_and_all_c() {
    let g = graph(4, &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
    let a = MatchingAnalysis::new(&g);
    assert_eq!(a.size(), 2);
    assert_eq!(a.vertices_in(VertexClass::C), vec![0, 1, 2, 3]);
    assert!(a.barrier().is_empty());
}

fn complete_graph(n: Vertex) -> Graph {
    let edges: Vec<_> = (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
        .collect();
    graph(n.into(), &edges)
}

#[test]
fn dense_graphs_start_from_a_maximal_first_fit_matching() {
    // Average degree 33 and 34: above DENSE_AVERAGE_DEGREE.
    for n in [34, 35] {
        let g = complete_graph(n);
        let mut mate = vec![NONE; n as usize];
        greedy_start(&g, &mut mate, &Cancel::never()).unwrap();
        assert_is_matching(&g, &mate);
        let exposed = mate.iter().filter(|&&m| m == NONE).count();
        assert_eq!(exposed, n as usize % 2, "first fit on K{n} is maximum");

        let a = MatchingAnalysis::new(&g);
        assert_eq!(a.size(), 17);
        let class = if n % 2 == 0 {
            VertexClass::C
        } else {
            VertexClass::D
        };
        assert_eq!(a.vertices_in(class).len(), n as usize);
    }
}

/// A deterministic pseudo-random simple graph on `n` vertices: `m` pairs
/// drawn, loops and repeats dropped (so up to `m` edges).
fn random_graph(n: u32, m: usize, seed: u64) -> Graph {
    let mut rng = XorShift::scrambled(seed);
    let mut edges = std::collections::BTreeSet::new();
    for _ in 0..m {
        let (u, v) = (rng.below(n.into()) as u32, rng.below(n.into()) as u32);
        if u != v {
            edges.insert((u.min(v), u.max(v)));
        }
    }
    graph(u64::from(n), &edges.into_iter().collect::<Vec<_>>())
}

/// The neighbours of a covered vertex `s` in `D(G − s)`, found by
/// continuing the analysis (pairs of trees meeting, or one tree stopping
/// once they are classified, or both), are
/// exactly those a fresh run on `G − s` puts in `D`, on many small
/// graphs (sparse ones with large `D`, denser ones with large `C`,
/// blossoms everywhere).
#[test]
fn deleting_a_covered_vertex_classifies_its_neighbours_exactly() {
    let never = Cancel::never();
    let mut checked = 0;
    for seed in 0..800u64 {
        let n = 2 + (seed % 29) as u32;
        let m = (seed % 5 + 1) as usize * n as usize / 2;
        let g = random_graph(n, m, seed);
        let full = MatchingAnalysis::new(&g);
        for s in 0..n {
            if full.class(s) == VertexClass::D {
                continue;
            }
            let mut removed = vec![false; n as usize];
            removed[s as usize] = true;
            let fresh = MatchingAnalysis::new(&g.without_vertices(&removed));
            assert_eq!(fresh.size(), full.size() - 1, "seed {seed}, s {s}");
            let expected: Vec<Vertex> = g
                .neighbors(s)
                .iter()
                .copied()
                .filter(|&u| fresh.class(u) == VertexClass::D)
                .collect();
            let continued = MatchingAnalysis::new(&g)
                .moves_into_d_without(&g, s, &never)
                .unwrap();
            assert_eq!(continued, expected, "seed {seed}, s {s}");
            // Budget 0: the one tree from the mate decides every neighbour;
            // a few vertices: pairs of trees decide some, the tree the rest.
            for budget in [0, 4, 12] {
                let continued = MatchingAnalysis::new(&g)
                    .moves_into_d_without_within(&g, s, budget, &never)
                    .unwrap();
                assert_eq!(continued, expected, "seed {seed}, s {s}, budget {budget}");
            }
            checked += 1;
        }
    }
    assert!(checked > 2000, "only {checked} deletions checked");
}

#[test]
fn empty_graph() {
    let a = MatchingAnalysis::new(&graph(0, &[]));
    assert_eq!(a.size(), 0);
    let a = MatchingAnalysis::new(&graph(3, &[]));
    assert_eq!(a.vertices_in(VertexClass::D), vec![0, 1, 2]);
}

/// ν of the subgraph induced by `mask` (bit `v` set: `v` present), by
/// exhaustive search with memo: the lowest present vertex is either left
/// exposed or matched to one of its present neighbours.
fn brute_matching_size(
    g: &Graph,
    mask: u32,
    memo: &mut std::collections::HashMap<u32, u32>,
) -> u32 {
    if mask == 0 {
        return 0;
    }
    if let Some(&known) = memo.get(&mask) {
        return known;
    }
    let v = mask.trailing_zeros();
    let rest = mask & !(1 << v);
    let mut best = brute_matching_size(g, rest, memo);
    for &u in g.neighbors(v) {
        if rest & (1 << u) != 0 {
            best = best.max(1 + brute_matching_size(g, rest & !(1 << u), memo));
        }
    }
    memo.insert(mask, best);
    best
}

/// A maximal matching built by first fit in a pseudo-random vertex and
/// neighbour order: a start that leaves many exposed vertices, far apart,
/// with augmenting paths through blossoms.
fn random_maximal_matching(g: &Graph, seed: u64) -> Vec<Vertex> {
    let n = g.vertex_count();
    // A stream of its own, apart from the one that drew the graph.
    let order = XorShift::new(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1).permutation(n as u32);
    let mut mate = vec![NONE; n];
    for &v in &order {
        if mate[v as usize] != NONE {
            continue;
        }
        let free: Vec<Vertex> = g
            .neighbors(v)
            .iter()
            .copied()
            .filter(|&u| mate[u as usize] == NONE)
            .collect();
        if let Some(&u) = free.last() {
            mate[v as usize] = u;
            mate[u as usize] = v;
        }
    }
    mate
}

/// `(n + |B| − odd(G − B)) / 2`, the Tutte–Berge bound of the barrier
/// `B`, counted independently of the forest.
fn tutte_berge_bound(g: &Graph, barrier: &[Vertex]) -> usize {
    let mut gone = vec![false; g.vertex_count()];
    for &b in barrier {
        gone[b as usize] = true;
    }
    let odd = crate::solver::position::tests::odd_components(g, &gone);
    (g.vertex_count() + barrier.len() - odd) / 2
}

/// The forest search from poor starts (no edge matched, so every vertex is
/// a root; or a random maximal matching) on many small graphs: many trees
/// meet at once, dissolve and regrow, blocked edges are looked at again.
/// Size, Gallai–Edmonds classes, the barrier and every matching exposing a
/// `D` vertex agree with exhaustive search.
#[test]
fn forests_from_poor_starts_agree_with_exhaustive_search() {
    let mut augmented = 0;
    for seed in 0..1500u64 {
        let n = 1 + (seed % 14) as u32;
        let m = (seed % 7 + 1) as usize * n as usize / 3;
        let g = random_graph(n, m, seed);
        let all = (1u32 << n) - 1;
        let mut memo = std::collections::HashMap::new();
        let nu = brute_matching_size(&g, all, &mut memo) as usize;
        let in_d: Vec<bool> = (0..n)
            .map(|v| brute_matching_size(&g, all & !(1 << v), &mut memo) as usize == nu)
            .collect();
        let in_a: Vec<bool> = (0..n)
            .map(|v| !in_d[v as usize] && g.neighbors(v).iter().any(|&u| in_d[u as usize]))
            .collect();
        for (start_name, start) in [
            ("empty", vec![NONE; n as usize]),
            ("random maximal", random_maximal_matching(&g, seed)),
        ] {
            let exposed_at_start = start.iter().filter(|&&m| m == NONE).count();
            let a = MatchingAnalysis::from_matching(&g, start);
            let context = format!("seed {seed}, n {n}, {start_name} start");
            assert_is_matching(&g, &a.mates());
            assert_eq!(a.size(), nu, "{context}");
            augmented += (exposed_at_start - (n as usize - 2 * nu)) / 2;
            for v in 0..n {
                let expected = if in_d[v as usize] {
                    VertexClass::D
                } else if in_a[v as usize] {
                    VertexClass::A
                } else {
                    VertexClass::C
                };
                assert_eq!(a.class(v), expected, "{context}, vertex {v}");
                match a.matching_exposing(v) {
                    Some(mate) => {
                        assert_is_matching(&g, &mate);
                        assert_eq!(mate[v as usize], NONE, "{context}, vertex {v}");
                        assert_eq!(pairs_of(&mate).len(), nu, "{context}, vertex {v}");
                    }
                    None => assert!(!in_d[v as usize], "{context}, vertex {v}"),
                }
            }
            assert_eq!(tutte_berge_bound(&g, &a.barrier()), nu, "{context}");
        }
    }
    assert!(
        augmented > 4_000,
        "only {augmented} augmentations exercised"
    );
}

/// On graphs too big for exhaustive search, from the same poor starts, the
/// barrier the forest yields proves the matching maximum, and the classes
/// agree with the run from the Karp–Sipser start.
#[test]
fn forests_on_larger_graphs_are_certified_by_their_barrier() {
    for seed in 0..60u64 {
        let n = 200 + (seed as u32 % 6) * 300;
        let m = (seed % 4 + 1) as usize * n as usize / 2 + n as usize / 3;
        let g = random_graph(n, m, seed);
        let reference = MatchingAnalysis::new(&g);
        for start in [vec![NONE; n as usize], random_maximal_matching(&g, seed)] {
            let a = MatchingAnalysis::from_matching(&g, start);
            assert_is_matching(&g, &a.mates());
            assert_eq!(a.size(), reference.size(), "seed {seed}");
            assert_eq!(tutte_berge_bound(&g, &a.barrier()), a.size(), "seed {seed}");
            for v in 0..n {
                assert_eq!(a.class(v), reference.class(v), "seed {seed}, vertex {v}");
            }
        }
    }
}
