use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use proptest::prelude::*;

use super::*;
use crate::puzzle::{Game, Limits, RawSpec};
use crate::solver::test_support::random_edges;
use puzzled_testkit::families::{
    complete, copies_on_a_hub, cycle, disjoint_copies, hypercube, paley, path, petersen, relabelled,
};
use puzzled_testkit::random::{Rng as _, SplitMix};

/// The labelling budget of these tests: a hang guard, not a bound on how
/// fast labelling is (the canon benchmark measures that). A loaded machine
/// must not make a search fall back.
const BUDGET: Duration = Duration::from_secs(600);

fn spec_with(game: Game, n: u64, edges: &[u32], start: u32, ends: Option<(u32, u32)>) -> Spec {
    let raw = RawSpec {
        start,
        black: ends.map(|e| e.0),
        white: ends.map(|e| e.1),
        ..RawSpec::new(game, n, edges.to_vec())
    };
    Spec::validate(raw, Limits::NONE).unwrap()
}

fn spec(game: Game, n: u64, edges: &[u32], start: u32) -> Spec {
    spec_with(game, n, edges, start, None)
}

fn hash(spec: &Spec) -> String {
    let canonical = canonicalize(spec, BUDGET);
    let expected = if spec.arcs().is_some() {
        NAUTY_DIGRAPH
    } else {
        TRACES
    };
    assert_eq!(canonical.canonicaliser, expected, "within budget");
    canonical.hash
}

/// A permutation of `0..n` from a seed (SplitMix64 + Fisher–Yates): the
/// relabellings the pinned hashes were computed on.
pub(super) fn permutation(n: u32, seed: u64) -> Vec<u32> {
    SplitMix::new(seed).permutation(n)
}

#[test]
fn label_keeping_form_ignores_edge_order_and_direction() {
    let a = keep_labels(&spec(Game::Geography, 4, &[0, 1, 1, 2, 2, 3], 0));
    let b = keep_labels(&spec(Game::Geography, 4, &[3, 2, 1, 0, 2, 1], 0));
    assert_eq!(a, b);
    assert!(a.hash.starts_with("sorted-edges-v1:"));
    assert_eq!(a.hash.len(), "sorted-edges-v1:".len() + 64);
    assert!(keeps_labels(&a.hash));
}

/// The streamed hash is the SHA-256 of the documented form, built whole
/// here, for both canonicalisers (hashes stored before the form was
/// streamed still match).
#[test]
fn the_hash_is_sha256_of_the_documented_form() {
    let n = 20_000u32;
    let edges: Vec<u32> = (0..n - 1).flat_map(|v| [v + 1, v]).collect();
    let puzzle = spec(Game::Geography, n.into(), &edges, 1);
    let sha = |form: &[u8]| -> String { hex::encode(Sha256::digest(form)) };
    let words = |form: &mut Vec<u8>, ws: &[u32]| {
        for w in ws {
            form.extend_from_slice(&w.to_le_bytes());
        }
    };

    let kept = keep_labels(&puzzle);
    let mut form = b"sorted-edges-v1\0geography\0".to_vec();
    words(&mut form, &[n, 1, 1, n - 1]);
    for v in 0..n - 1 {
        words(&mut form, &[v, v + 1]);
    }
    assert_eq!(kept.hash, format!("sorted-edges-v1:{}", sha(&form)));
    assert_eq!((kept.vertex_count, kept.edge_count), (20_000, 19_999));

    // Traces: the start (vertex 1, next to an end) gets label 0; the form
    // lists the canonical edges, which this test rebuilds from the
    // labelling it reports.
    let canonical = canonicalize(&puzzle, BUDGET);
    assert_eq!(canonical.canonicaliser, TRACES);
    assert_eq!(canonical.labelling.to_canonical(1), 0);
    let mut canonical_edges: Vec<(u32, u32)> = puzzle
        .graph()
        .edges()
        .map(|(u, v)| {
            let (a, b) = (
                canonical.labelling.to_canonical(u),
                canonical.labelling.to_canonical(v),
            );
            (a.min(b), a.max(b))
        })
        .collect();
    canonical_edges.sort_unstable();
    let mut form = format!("{TRACES}\0geography\0").into_bytes();
    words(&mut form, &[n, 1, 0, n - 1]);
    for (u, v) in canonical_edges {
        words(&mut form, &[u, v]);
    }
    assert_eq!(canonical.hash, format!("{TRACES}:{}", sha(&form)));
    assert!(!keeps_labels(&canonical.hash));
    assert!(!keeps_labels("sorted-edges-v10:00"));
    assert_eq!(canonicaliser_of(&canonical.hash), TRACES);
}

#[test]
fn distinguishes_game_start_and_graph() {
    let base = hash(&spec(Game::Geography, 4, &[0, 1, 1, 2, 2, 3], 0));
    // Vertex 3 is in vertex 0's orbit (the path's reflection): same hash.
    assert_eq!(
        base,
        hash(&spec(Game::Geography, 4, &[0, 1, 1, 2, 2, 3], 3))
    );
    let middle = hash(&spec(Game::Geography, 4, &[0, 1, 1, 2, 2, 3], 1));
    let other_game = hash(&spec(Game::BipartiteEdge, 4, &[0, 1, 1, 2, 2, 3], 0));
    let other_graph = hash(&spec(Game::Geography, 5, &[0, 1, 1, 2, 2, 3], 0));
    let moved_edge = hash(&spec(Game::Geography, 4, &[0, 1, 1, 2, 1, 3], 0));
    let all = [&base, &middle, &other_game, &other_graph, &moved_edge];
    assert_eq!(all.iter().collect::<BTreeSet<_>>().len(), all.len());
}

#[test]
fn black_and_white_are_different_colours() {
    // A path 0-1-2-3: black on an end and white next to it differs from
    // the reverse roles; swapping both ends' roles on the mirror image
    // agrees.
    let edges = path(4);
    let paint = |b, w| hash(&spec_with(Game::TreePaint, 4, &edges, 0, Some((b, w))));
    assert_ne!(paint(0, 1), paint(1, 0));
    assert_eq!(paint(0, 1), paint(3, 2));
    assert_eq!(paint(0, 3), paint(3, 0));
    assert_ne!(paint(0, 2), paint(0, 3));
}

/// A brute-force canonical form: the smallest sorted edge list over every
/// relabelling that sends the distinguished vertices to 0, 1, … in order.
fn brute_form(n: u32, edges: &[(u32, u32)], distinguished: &[u32]) -> Vec<(u32, u32)> {
    let rest: Vec<u32> = (0..n).filter(|v| !distinguished.contains(v)).collect();
    let mut best: Option<Vec<(u32, u32)>> = None;
    let mut order = rest.clone();
    permutations(&mut order, 0, &mut |order| {
        let mut label = vec![0; n as usize];
        for (c, &v) in distinguished.iter().chain(order.iter()).enumerate() {
            label[v as usize] = c as u32;
        }
        let mut form: Vec<(u32, u32)> = edges
            .iter()
            .map(|&(u, v)| {
                let (a, b) = (label[u as usize], label[v as usize]);
                (a.min(b), a.max(b))
            })
            .collect();
        form.sort_unstable();
        if best.as_ref().is_none_or(|b| form < *b) {
            best = Some(form);
        }
    });
    best.unwrap_or_default()
}

fn permutations(items: &mut Vec<u32>, k: usize, f: &mut impl FnMut(&[u32])) {
    if k == items.len() {
        f(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, f);
        items.swap(k, i);
    }
}

/// Every graph on ≤ 5 vertices with every start (Geography) and none (the
/// edge game, bipartite graphs only): two puzzles share a hash exactly
/// when they are isomorphic with the start kept.
#[test]
fn hashes_agree_exactly_with_isomorphism_on_small_graphs() {
    for n in 1..=5u32 {
        let pairs: Vec<(u32, u32)> = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .collect();
        let mut by_hash: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut by_form: HashMap<(Game, Vec<(u32, u32)>), String> = HashMap::new();
        for mask in 0u32..1 << pairs.len() {
            let edges: Vec<(u32, u32)> = (0..pairs.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| pairs[i])
                .collect();
            let flat: Vec<u32> = edges.iter().flat_map(|&(u, v)| [u, v]).collect();
            let mut puzzles: Vec<(Game, Vec<u32>)> =
                (0..n).map(|s| (Game::Geography, vec![s])).collect();
            let bipartite = Spec::validate(
                RawSpec::new(Game::BipartiteEdge, n.into(), flat.clone()),
                Limits::NONE,
            )
            .is_ok();
            if bipartite {
                puzzles.push((Game::BipartiteEdge, vec![]));
            }
            for (game, distinguished) in puzzles {
                let start = distinguished.first().copied().unwrap_or(0);
                let h = hash(&spec(game, n.into(), &flat, start));
                let form = (game, {
                    let mut f = brute_form(n, &edges, &distinguished);
                    f.insert(0, (n, n));
                    f
                });
                match by_form.get(&form) {
                    Some(seen) => assert_eq!(seen, &h, "isomorphic puzzles differ: {form:?}"),
                    None => {
                        by_form.insert(form.clone(), h.clone());
                    }
                }
                let forms = by_hash.entry(h).or_default();
                if forms.is_empty() {
                    *forms = form.1;
                } else {
                    assert_eq!(*forms, form.1, "one hash for two non-isomorphic puzzles");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(crate::solver::test_support::proptest_config())]

    /// A relabelled copy (vertices permuted, edges shuffled and flipped)
    /// gets the same hash, and its labelling sends each copy's vertex to
    /// the canonical label of the original vertex it came from, up to an
    /// automorphism: the canonical edge lists agree.
    #[test]
    fn relabelled_copies_share_the_hash(
        n in 1u32..13,
        raw_edges in proptest::collection::vec((0u32..13, 0u32..13), 0..40),
        start in 0u32..13,
        seed in any::<u64>(),
    ) {
        let mut seen = BTreeSet::new();
        let edges: Vec<u32> = raw_edges
            .into_iter()
            .map(|(u, v)| (u % n, v % n))
            .filter(|&(u, v)| u != v && seen.insert((u.min(v), u.max(v))))
            .flat_map(|(u, v)| [u, v])
            .collect();
        let perm = permutation(n, seed);
        let mut copy_edges = relabelled(&edges, &perm);
        copy_edges.reverse();
        let start = start % n;
        let original = spec(Game::Geography, n.into(), &edges, start);
        let copy = spec(Game::Geography, n.into(), &copy_edges, perm[start as usize]);
        let a = canonicalize(&original, BUDGET);
        let b = canonicalize(&copy, BUDGET);
        prop_assert_eq!(&a.hash, &b.hash);
        let form = |s: &Spec, c: &Canonical| {
            let mut f = Vec::new();
            for_each_edge_in(s.graph(), &c.labelling, |u, v| f.push((u, v)));
            f
        };
        prop_assert_eq!(form(&original, &a), form(&copy, &b));
        prop_assert_eq!(a.labelling.to_canonical(start), 0);
        prop_assert_eq!(b.labelling.to_canonical(perm[start as usize]), 0);
    }

    /// Moving one edge, or the start to a vertex of another degree, changes
    /// the hash.
    #[test]
    fn different_puzzles_get_different_hashes(
        n in 4u32..13,
        seed in any::<u64>(),
        extra in proptest::collection::vec((0u32..13, 0u32..13), 0..20),
    ) {
        // A random tree plus extra edges; then one edge is moved to a pair
        // that is not an edge, which changes the degree sequence unless
        // the move keeps both degrees, so compare degree sequences first.
        let perm = permutation(n, seed);
        let mut set = BTreeSet::new();
        for v in 1..n {
            let u = perm[v as usize] % v;
            set.insert((u.min(v), u.max(v)));
        }
        for (u, v) in extra {
            let (u, v) = (u % n, v % n);
            if u != v {
                set.insert((u.min(v), u.max(v)));
            }
        }
        let edges: Vec<(u32, u32)> = set.iter().copied().collect();
        let missing = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .find(|p| !set.contains(p));
        let flat = |es: &[(u32, u32)]| es.iter().flat_map(|&(u, v)| [u, v]).collect::<Vec<_>>();
        let base = spec(Game::Geography, n.into(), &flat(&edges), 0);
        if let Some(missing) = missing {
            let mut moved = edges.clone();
            moved[0] = missing;
            let other = spec(Game::Geography, n.into(), &flat(&moved), 0);
            let degrees = |s: &Spec| {
                let mut d: Vec<usize> = (0..n).map(|v| s.graph().degree(v)).collect();
                d.sort_unstable();
                (s.graph().degree(0), d)
            };
            if degrees(&base) != degrees(&other) {
                prop_assert_ne!(hash(&base), hash(&other));
            }
        }
        if let Some(v) = (1..n).find(|&v| base.graph().degree(v) != base.graph().degree(0)) {
            let moved_start = spec(Game::Geography, n.into(), &flat(&edges), v);
            prop_assert_ne!(hash(&base), hash(&moved_start));
        }
    }

    /// Tree painting: a relabelled tree with black and white carried along
    /// shares the hash; black and white swapped does not, unless an
    /// automorphism swaps them (checked by brute force).
    #[test]
    fn painted_trees_hash_by_isomorphism(
        n in 2u32..9,
        seed in any::<u64>(),
        ends in (0u32..9, 0u32..9),
    ) {
        let shape = permutation(n, seed ^ 0x5eed);
        let edges: Vec<(u32, u32)> = (1..n).map(|v| (shape[v as usize] % v, v)).collect();
        let flat: Vec<u32> = edges.iter().flat_map(|&(u, v)| [u, v]).collect();
        let (black, white) = (ends.0 % n, ends.1 % n);
        prop_assume!(black != white);
        let perm = permutation(n, seed);
        let paint = |edges: &[u32], b, w| hash(&spec_with(Game::TreePaint, n.into(), edges, 0, Some((b, w))));
        let original = paint(&flat, black, white);
        prop_assert_eq!(&original, &paint(&relabelled(&flat, &perm), perm[black as usize], perm[white as usize]));
        let swapped = paint(&flat, white, black);
        let isomorphic = brute_form(n, &edges, &[black, white]) == brute_form(n, &edges, &[white, black]);
        prop_assert_eq!(original == swapped, isomorphic);
    }
}

/// Symmetric families: every relabelled copy shares the hash. (How fast
/// they are labelled is the canon benchmark's question: it runs the same
/// families, larger.)
#[test]
fn symmetric_families_hash_by_isomorphism() {
    let families: Vec<(&str, u32, Vec<u32>)> = vec![
        ("complete K12", 12, complete(12)),
        ("cycle C1000", 1000, cycle(1000)),
        ("hypercube Q10", 1 << 10, hypercube(10)),
        ("Petersen", 10, petersen()),
        ("Paley 101 (strongly regular)", 101, paley(101)),
        (
            "2000 disjoint triangles",
            6000,
            disjoint_copies(&cycle(3), 3, 2000),
        ),
        ("path P10000", 10_000, path(10_000)),
        (
            "50 disjoint Petersen graphs",
            500,
            disjoint_copies(&petersen(), 10, 50),
        ),
    ];
    for (name, n, edges) in families {
        let a = hash(&spec(Game::Geography, n.into(), &edges, 0));
        for seed in 0..3 {
            let perm = permutation(n, seed);
            let b = hash(&spec(
                Game::Geography,
                n.into(),
                &relabelled(&edges, &perm),
                perm[0],
            ));
            assert_eq!(a, b, "{name}, relabelling {seed}");
        }
    }
}

/// Waits until more than `count` searches have been stopped since
/// start-up (a caller past its budget is answered before its search has
/// stopped). A hang guard, not a bound on how soon.
fn wait_for_stopped_searches(count: u64) {
    let guard = std::time::Instant::now() + Duration::from_secs(120);
    while traces::searches_stopped() <= count {
        assert!(std::time::Instant::now() < guard, "no search stopped");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Petersen graphs on a hub: connected, and slow for Traces.
fn petersen_on_a_hub(copies: u32, start: u32) -> Spec {
    spec(
        Game::Geography,
        (10 * copies + 1).into(),
        &copies_on_a_hub(&petersen(), 10, copies),
        start,
    )
}

/// A search stopped at its budget falls back to the label-keeping hash,
/// visibly; searches running beside it are not affected.
#[test]
fn past_the_budget_the_label_keeping_hash_is_used() {
    // Zero budget: no search can start.
    let triangle = spec(Game::Geography, 3, &cycle(3), 0);
    let canonical = canonicalize(&triangle, Duration::ZERO);
    assert_eq!(canonical.canonicaliser, SORTED_EDGES);
    assert_eq!(canonical, keep_labels(&triangle));

    // Many Petersen graphs on a hub make Traces search long; stopped at
    // its budget, midway, while small searches beside it (which the stop
    // request stops too, and which run again) still finish under Traces.
    // How long the search takes depends on the machine, so the copies
    // double until the search outlasts the budget, and the budget doubles
    // when the search had not begun within it: at the end a search ran and
    // was stopped.
    let (mut copies, mut budget) = (200u32, Duration::from_millis(100));
    let mut ran_and_stopped = false;
    for _attempt in 0..8 {
        let big = petersen_on_a_hub(copies, 0);
        let stopped_before = traces::searches_stopped();
        let (big_canonical, small_under_traces) = std::thread::scope(|scope| {
            let small = scope.spawn(|| {
                (0..200)
                    .map(|k| canonicalize(&spec(Game::Geography, 6, &cycle(6), k % 6), BUDGET))
                    .filter(|c| c.canonicaliser == TRACES)
                    .count()
            });
            let big_canonical = canonicalize(&big, budget);
            (big_canonical, small.join().unwrap())
        });
        assert_eq!(small_under_traces, 200);
        if big_canonical.canonicaliser == TRACES {
            eprintln!("{copies} copies labelled within {budget:?}; twice as many");
            copies *= 2;
            continue;
        }
        assert_eq!(big_canonical.canonicaliser, SORTED_EDGES);
        assert_eq!(big_canonical.hash, keep_labels(&big).hash);
        if traces::searches_stopped() > stopped_before || traces::searches_running() > 0 {
            wait_for_stopped_searches(stopped_before);
            ran_and_stopped = true;
            break;
        }
        eprintln!("no search began within {budget:?}; twice as long");
        budget *= 2;
    }
    assert!(
        ran_and_stopped,
        "no search ran and was stopped at its budget"
    );
    // The stop request is lowered again: the next search finishes.
    assert_eq!(
        canonicalize(&spec(Game::Geography, 4, &cycle(4), 0), BUDGET).canonicaliser,
        TRACES
    );
}

/// The budget bounds the caller's wait, whatever the search threads are
/// doing, and a caller that leaves stops its search. With every search
/// thread held by a long search (and one more queued behind them): a
/// small graph is labelled by Traces on its caller's thread meanwhile; a
/// larger one, which needs a search thread, is answered at its budget
/// with the fallback while the long searches still run; and when their
/// callers leave (their cancel handles fire) the long searches stop and
/// their callers get no labelling.
#[test]
fn a_caller_is_answered_at_its_budget_and_one_that_leaves_stops_its_search() {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let hard = petersen_on_a_hub(800, 0);
    let stopped_before = traces::searches_stopped();
    let cancels: Vec<Cancel> = (0..=threads).map(|_| Cancel::new()).collect();
    std::thread::scope(|scope| {
        let long: Vec<_> = cancels
            .iter()
            .map(|cancel| {
                let hard = &hard;
                scope.spawn(move || canonicalize_unless_cancelled(hard, BUDGET, cancel))
            })
            .collect();
        let guard = std::time::Instant::now() + Duration::from_secs(120);
        while traces::searches_running() < threads {
            assert!(
                std::time::Instant::now() < guard,
                "the long searches did not start"
            );
            std::thread::sleep(Duration::from_millis(5));
        }

        let small = spec(Game::Geography, 6, &cycle(6), 0);
        assert_eq!(canonicalize(&small, BUDGET).canonicaliser, TRACES);
        let larger = spec(
            Game::Geography,
            2000,
            &disjoint_copies(&petersen(), 10, 200),
            0,
        );
        let answered = canonicalize(&larger, Duration::from_millis(200));
        assert_eq!(answered.canonicaliser, SORTED_EDGES);
        assert!(
            long.iter().all(|search| !search.is_finished()),
            "answered only once a long search had ended"
        );

        for cancel in &cancels {
            cancel.fire();
        }
        for search in long {
            assert_eq!(
                search.join().unwrap(),
                None,
                "a cancelled search gave a labelling"
            );
        }
    });
    wait_for_stopped_searches(stopped_before + threads as u64 - 1);
    // Nothing is left behind: the same larger graph is labelled now.
    let larger = spec(
        Game::Geography,
        2000,
        &disjoint_copies(&petersen(), 10, 200),
        0,
    );
    assert_eq!(canonicalize(&larger, BUDGET).canonicaliser, TRACES);
}

#[test]
fn stored_labels_round_trip_and_reject_non_permutations() {
    let labelling = Labelling::from_order(vec![2, 0, 1]);
    assert_eq!(labelling.canonical_labels(), Some(&[1, 2, 0][..]));
    assert_eq!(
        Labelling::from_canonical_labels(vec![1, 2, 0]),
        Some(labelling)
    );
    assert_eq!(Labelling::from_canonical_labels(vec![1, 1, 0]), None);
    assert_eq!(Labelling::from_canonical_labels(vec![0, 3, 1]), None);
}

/// The canonical form Traces gives the whole graph (the `traces-v1` way):
/// the reference the tree labelling is checked against.
fn whole_graph_form(spec: &Spec) -> (Game, usize, Vec<u32>, Vec<(u32, u32)>) {
    let graph = spec.graph();
    let distinguished = spec.distinguished();
    let mut cells: Vec<Vec<Vertex>> = distinguished.iter().map(|&v| vec![v]).collect();
    cells.push(
        (0..graph.vertex_count() as Vertex)
            .filter(|v| !distinguished.contains(v))
            .collect(),
    );
    let outcome = traces::canonical_order(traces::Sparse::of(graph), &cells, BUDGET);
    let order = match outcome.expect("a partition of a simple graph's vertices") {
        traces::Outcome::Labelled(order) => order,
        traces::Outcome::OverBudget => panic!("Traces passed its budget"),
    };
    let labelling = Labelling::from_order(order);
    let mut edges = Vec::new();
    for_each_edge_in(graph, &labelling, |u, v| edges.push((u, v)));
    let labels = distinguished
        .iter()
        .map(|&v| labelling.to_canonical(v))
        .collect();
    (spec.game(), graph.vertex_count(), labels, edges)
}

/// Two of `puzzles` share a hash exactly when Traces on their whole graphs
/// gives them the same form; every labelling is a permutation that puts
/// the distinguished vertices first, in order.
fn assert_hash_iff_whole_graph_form(puzzles: &[Spec]) {
    type Form = (Game, usize, Vec<u32>, Vec<(u32, u32)>);
    let mut by_hash: HashMap<String, Form> = HashMap::new();
    let mut by_form: HashMap<Form, String> = HashMap::new();
    for puzzle in puzzles {
        let canonical = canonicalize(puzzle, BUDGET);
        assert_eq!(canonical.canonicaliser, TRACES);
        // The edges read off the tree structure are the sorted ones.
        assert_eq!(
            canonical.hash,
            hash_form(TRACES, puzzle, &canonical.labelling)
        );
        let labels = canonical.labelling.canonical_labels().unwrap_or_default();
        assert!(
            labels.is_empty() || Labelling::from_canonical_labels(labels.to_vec()).is_some(),
            "not a permutation: {labels:?}"
        );
        for (i, &d) in puzzle.distinguished().iter().enumerate() {
            assert_eq!(canonical.labelling.to_canonical(d), i as u32);
        }
        let form = whole_graph_form(puzzle);
        match by_form.get(&form) {
            Some(hash) => assert_eq!(hash, &canonical.hash, "isomorphic puzzles differ: {form:?}"),
            None => {
                by_form.insert(form.clone(), canonical.hash.clone());
            }
        }
        match by_hash.get(&canonical.hash) {
            Some(seen) => assert_eq!(seen, &form, "one hash for two non-isomorphic puzzles"),
            None => {
                by_hash.insert(canonical.hash, form);
            }
        }
    }
}

/// Every graph on 6 vertices with at most 6 edges (forests, trees hanging
/// off cycles, tree components of equal shape), with every start, without
/// one (the edge game) and, on trees, with every black and white.
#[test]
fn trees_and_forests_hash_exactly_by_isomorphism() {
    let n = 6u32;
    let pairs: Vec<(u32, u32)> = (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
        .collect();
    let mut puzzles = Vec::new();
    for mask in 0u32..1 << pairs.len() {
        if mask.count_ones() > 6 {
            continue;
        }
        let flat: Vec<u32> = (0..pairs.len())
            .filter(|i| mask >> i & 1 == 1)
            .flat_map(|i| [pairs[i].0, pairs[i].1])
            .collect();
        for start in 0..n {
            puzzles.push(spec(Game::Geography, n.into(), &flat, start));
        }
        let raw = RawSpec::new(Game::BipartiteEdge, n.into(), flat.clone());
        if let Ok(puzzle) = Spec::validate(raw, Limits::NONE) {
            puzzles.push(puzzle);
        }
        for (black, white) in (0..n).flat_map(|b| (0..n).map(move |w| (b, w))) {
            let raw = RawSpec {
                black: Some(black),
                white: Some(white),
                ..RawSpec::new(Game::TreePaint, n.into(), flat.clone())
            };
            if let Ok(puzzle) = Spec::validate(raw, Limits::NONE) {
                puzzles.push(puzzle);
            }
        }
    }
    assert!(puzzles.iter().any(|p| p.game() == Game::TreePaint));
    assert_hash_iff_whole_graph_form(&puzzles);
}

/// A graph built from a few tree shapes, used again and again: hung off a
/// cycle, off each other, or alone as components.
fn trees_on_a_core(core: u32, shapes: &[u32], attach: &[u32], seed: u64) -> (u32, Vec<u32>) {
    let pool: [&[u32]; 4] = [&[], &[0], &[0, 0], &[0, 1, 1, 0]];
    let mut edges = if core >= 3 { cycle(core) } else { Vec::new() };
    let mut n = core;
    for (i, &shape) in shapes.iter().enumerate() {
        let parents = pool[shape as usize % pool.len()];
        let root = n;
        n += 1;
        for (k, &p) in parents.iter().enumerate() {
            edges.extend([root + p, root + k as u32 + 1]);
            n += 1;
        }
        // Hung off an earlier vertex, or a component of its own.
        let a = attach[i % attach.len()];
        if root > 0 && !a.is_multiple_of(3) {
            edges.extend([a % root, root]);
        }
    }
    let perm = permutation(n, seed);
    (n, relabelled(&edges, &perm))
}

proptest! {
    #![proptest_config(crate::solver::test_support::proptest_config())]

    /// Trees hung off a cycle and tree components of a few repeated
    /// shapes, the start anywhere (inside a hanging tree too): relabelled
    /// copies share the hash and the canonical graph, and the hashes of the
    /// puzzle, of other starts and of a moved tree agree with Traces on the
    /// whole graph.
    #[test]
    fn hanging_trees_and_forests_hash_by_isomorphism(
        core in 0u32..6,
        shapes in proptest::collection::vec(0u32..4, 1..12),
        attach in proptest::collection::vec(0u32..64, 1..12),
        seed in any::<u64>(),
        start in any::<u32>(),
    ) {
        let (n, edges) = trees_on_a_core(core, &shapes, &attach, seed);
        let start = start % n;
        let original = spec(Game::Geography, n.into(), &edges, start);
        let perm = permutation(n, seed ^ 1);
        let copy = spec(Game::Geography, n.into(), &relabelled(&edges, &perm), perm[start as usize]);
        let (a, b) = (canonicalize(&original, BUDGET), canonicalize(&copy, BUDGET));
        prop_assert_eq!(&a.hash, &b.hash);
        let form = |s: &Spec, c: &Canonical| {
            let mut f = Vec::new();
            for_each_edge_in(s.graph(), &c.labelling, |u, v| f.push((u, v)));
            f
        };
        prop_assert_eq!(form(&original, &a), form(&copy, &b));
        let mut puzzles = vec![original, copy];
        for other in 0..n.min(8) {
            puzzles.push(spec(Game::Geography, n.into(), &edges, other));
        }
        let mut moved = attach.clone();
        moved[0] = moved[0].wrapping_add(1);
        let (m, moved_edges) = trees_on_a_core(core, &shapes, &moved, seed);
        puzzles.push(spec(Game::Geography, m.into(), &moved_edges, start % m));
        let raw = RawSpec::new(Game::BipartiteEdge, n.into(), edges.clone());
        if let Ok(puzzle) = Spec::validate(raw, Limits::NONE) {
            puzzles.push(puzzle);
        }
        assert_hash_iff_whole_graph_form(&puzzles);
    }

    /// Tree painting on trees up to 40 vertices, black and white anywhere:
    /// hashes agree with Traces on the whole tree.
    #[test]
    fn painted_trees_agree_with_whole_graph_traces(
        n in 2u32..40,
        seed in any::<u64>(),
        ends in proptest::collection::vec((any::<u32>(), any::<u32>()), 1..6),
    ) {
        let shape = permutation(n, seed ^ 0x5eed);
        let flat: Vec<u32> = (1..n).flat_map(|v| [shape[v as usize] % v, v]).collect();
        let perm = permutation(n, seed);
        let mut puzzles = Vec::new();
        for (b, w) in ends {
            let (black, white) = (b % n, w % n);
            if black == white {
                continue;
            }
            puzzles.push(spec_with(Game::TreePaint, n.into(), &flat, 0, Some((black, white))));
            puzzles.push(spec_with(
                Game::TreePaint,
                n.into(),
                &relabelled(&flat, &perm),
                0,
                Some((perm[black as usize], perm[white as usize])),
            ));
        }
        assert_hash_iff_whole_graph_form(&puzzles);
    }
}

/// Small components that refinement cannot tell apart from one another
/// when they have the same size: all regular.
fn regular_component(kind: u32) -> (u32, Vec<u32>) {
    match kind % 7 {
        0 => (4, cycle(4)),
        1 => (5, cycle(5)),
        2 => (4, complete(4)),
        // K3,3 and the triangular prism: both 3-regular on six vertices.
        3 => (
            6,
            vec![0, 3, 0, 4, 0, 5, 1, 3, 1, 4, 1, 5, 2, 3, 2, 4, 2, 5],
        ),
        4 => (
            6,
            vec![0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3, 0, 3, 1, 4, 2, 5],
        ),
        5 => (10, petersen()),
        _ => (8, hypercube(3)),
    }
}

/// A union of the components `kinds` names, with a path of `tail`
/// vertices hung off the first (so that not every vertex is in the core),
/// relabelled by `seed`.
fn union_of(kinds: &[u32], tail: u32, seed: u64) -> (u32, Vec<u32>) {
    let mut edges = Vec::new();
    let mut n = 0;
    for &kind in kinds {
        let (size, component) = regular_component(kind);
        edges.extend(component.iter().map(|&v| v + n));
        n += size;
    }
    for t in 0..tail {
        edges.extend([if t == 0 { 0 } else { n - 1 }, n]);
        n += 1;
    }
    let perm = permutation(n, seed);
    (n, relabelled(&edges, &perm))
}

proptest! {
    #![proptest_config(crate::solver::test_support::proptest_config())]

    /// A core in several connected components, labelled one component at
    /// a time: relabelled copies share the hash, and hashes agree exactly
    /// with Traces on the whole graph, across other starts and a union
    /// with one component replaced by another of its size and degree
    /// (K3,3 and the prism, which refinement cannot tell apart).
    #[test]
    fn unions_of_components_hash_exactly_by_isomorphism(
        kinds in proptest::collection::vec(0u32..7, 2..8),
        tail in 0u32..3,
        seed in any::<u64>(),
        starts in proptest::collection::vec(any::<u32>(), 1..6),
    ) {
        let (n, edges) = union_of(&kinds, tail, seed);
        let mut swapped = kinds.clone();
        for kind in &mut swapped {
            if *kind % 7 == 3 || *kind % 7 == 4 {
                *kind = 7 - *kind % 7;
                break;
            }
        }
        let (_, swapped_edges) = union_of(&swapped, tail, seed ^ 7);
        let (_, copy) = union_of(&kinds, tail, seed ^ 1);
        let mut puzzles = Vec::new();
        for start in starts {
            for flat in [&edges, &copy, &swapped_edges] {
                puzzles.push(spec(Game::Geography, n.into(), flat, start % n));
            }
        }
        for flat in [&edges, &copy, &swapped_edges] {
            let raw = RawSpec::new(Game::BipartiteEdge, n.into(), flat.clone());
            if let Ok(puzzle) = Spec::validate(raw, Limits::NONE) {
                puzzles.push(puzzle);
            }
        }
        assert_hash_iff_whole_graph_form(&puzzles);
    }
}

/// A label out of range passes through unchanged in both directions, so
/// a damaged cache entry is caught by the check after relabelling instead
/// of panicking inside it.
#[test]
fn labels_out_of_range_pass_through_for_the_check_to_reject() {
    let labelling = Labelling::from_order(vec![2, 0, 1]);
    assert_eq!(labelling.to_canonical(2), 0);
    assert_eq!(labelling.to_original(0), 2);
    assert_eq!(labelling.to_canonical(7), 7);
    assert_eq!(labelling.to_original(3), 3);
}

/// Stored verdicts and `duplicate_of` links are keyed by these hashes (as
/// the canonicaliser before the faster refinement and form gave them), so
/// a change to how the form is computed must leave them as they are (or
/// come with a new canonicaliser version): each path through the
/// canonicaliser is pinned here — refinement alone, Traces after it, hung
/// trees, tree components, and the three games' distinguished vertices.
#[test]
fn hashes_of_the_current_version_are_pinned() {
    let (hung_n, hung) =
        trees_on_a_core(12, &[0, 1, 2, 3, 1, 2, 3, 2], &[1, 4, 5, 7, 8, 3, 10, 2], 7);
    let tree: Vec<u32> = (1..400u32).flat_map(|v| [(v * 7919) % v, v]).collect();
    let grid: Vec<u32> = (0..20u32 * 20)
        .flat_map(|v| {
            let right = (v % 20 < 19).then_some([v, v + 1]);
            let down = (v / 20 < 19).then_some([v, v + 20]);
            right.into_iter().chain(down).flatten()
        })
        .collect();
    // The edges of a random graph between vertices of different parity.
    let bipartite: Vec<u32> = random_edges(300, 500, 3)
        .chunks(2)
        .filter(|e| e[0] % 2 != e[1] % 2)
        .flatten()
        .copied()
        .collect();
    let puzzles = [
        (
            "sparse random",
            spec(Game::Geography, 300, &random_edges(300, 450, 1), 5),
        ),
        (
            "denser random",
            spec(Game::Geography, 200, &random_edges(200, 1000, 2), 0),
        ),
        ("grid", spec(Game::Geography, 400, &grid, 21)),
        (
            "petersen copies",
            spec(Game::Geography, 30, &disjoint_copies(&petersen(), 10, 3), 4),
        ),
        ("hung trees", spec(Game::Geography, hung_n.into(), &hung, 3)),
        ("tree", spec(Game::Geography, 400, &tree, 17)),
        (
            "painted tree",
            spec_with(Game::TreePaint, 400, &tree, 0, Some((3, 250))),
        ),
        ("edge game", spec(Game::BipartiteEdge, 300, &bipartite, 0)),
    ];
    let pinned = [
        "0df1f67a1bb29a57a248aebf9ebdeba51413fd6bb014eccc019941540af1d8cd",
        "7cb98b7eade99f71d21a3b22ec2ca7267e6b5b1466ebf3ee7ddae6d6d85e90fe",
        "07b896b51fc9489b28e252c1cd9f18d7fc507a169d2ecdd0796b582be5a1d76a",
        "dd7c40e6c98b55415cbda6c42835a222c34d41d8e26653961a9ba881d6829086",
        "73ce27e5c50ef5e5b1c69ba0d842d218b553d9986141c489abc868c211afad9c",
        "26b3d3bfdd1d8cf214cf6afc6aa3f308495bd8d12e149e3f35d2fb3857ed9fd3",
        "932b6799fc7ebeebd37adf414222d1f8ab363cdb37611f28179ece17cdcf7fb7",
        "e14eced0b13b0a189a98eb4ab73a48e63c6fa34430c1e53b8a748bb62e2b2725",
    ];
    // The traces-v3 hashes pinned before: under the old name, the forms are
    // traces-v3's. (One Traces search per component of the core and one
    // over the whole core happen to give the same form on these puzzles,
    // the three Petersen graphs included; on other unions they need not,
    // which is why the version changed.)
    let pinned_v3 = [
        "92c0b85d845a73466d29d5a6c5f41a7ec777a68e601666af58d63cee3ca5ce74",
        "805b3688550d15dcb96bc78f42a90a66dbfeaca7c4cb74e19c9e98a9611f447b",
        "5f2d0e7c6d8cf9062c63bd6851d01b246c805bc7ec95b5faf5047bf1ad9adfbd",
        "83802deaf9ef4cefb50ffdf7a983780bb6f90da3a773452c4bc6583e5de026d5",
        "edecc87a11b64cfe2ac49e201601e1bd38849345a581de0059081d13fe65a249",
        "54ed949efc61bd3f076d08daf2d11ee915e47dc0178bde6fb0b4ac793eb6cf8b",
        "9ab63d44af839805b939b6be13905fc4b62d00a1e025b5611120ff17a0f9a287",
        "69f8162e075022a2f657b5c06e01419de44695691de1a79bd637d2324e8b2f64",
    ];
    for ((name, puzzle), (digest, v3)) in puzzles.iter().zip(pinned.iter().zip(pinned_v3)) {
        let canonical = canonicalize(puzzle, BUDGET);
        assert_eq!(canonical.hash, format!("{TRACES}:{digest}"), "{name}");
        assert_eq!(
            hash_form(TRACES_V3, puzzle, &canonical.labelling),
            format!("{TRACES_V3}:{v3}"),
            "{name}"
        );
    }
}

/// Trees hung off a dense core (average degree 3 or more, where peeling
/// completes each vertex's link only when it is peeled): relabelled copies
/// and different starts hash as Traces on the whole graph says, for a
/// symmetric core (complete) and an asymmetric one (random).
#[test]
fn trees_hung_off_dense_cores_hash_by_isomorphism() {
    let cores: [(u32, Vec<u32>); 2] = [(9, complete(9)), (12, random_edges(12, 50, 4))];
    let shapes: [&[u32]; 4] = [&[], &[0], &[0, 0], &[0, 1, 1]];
    let mut puzzles = Vec::new();
    for (core, core_edges) in &cores {
        for layout in 0..6u32 {
            let mut edges = core_edges.clone();
            let mut n = *core;
            for t in 0..4 {
                let parents = shapes[((layout + t) % 4) as usize];
                let root = n;
                n += 1 + parents.len() as u32;
                // Each tree hangs off a core vertex the layout picks.
                edges.extend([(layout * 5 + t * 3) % core, root]);
                for (k, &p) in parents.iter().enumerate() {
                    edges.extend([root + p, root + k as u32 + 1]);
                }
            }
            assert!(
                edges.len() / 2 >= 2 * n as usize,
                "average degree 4 or more"
            );
            for seed in 0..2 {
                let perm = permutation(n, 31 * u64::from(layout) + seed);
                let copy = relabelled(&edges, &perm);
                for start in [0, *core, n - 1] {
                    puzzles.push(spec(Game::Geography, n.into(), &copy, perm[start as usize]));
                }
            }
        }
    }
    assert_hash_iff_whole_graph_form(&puzzles);
}

/// Runs written whole in vector registers and runs sorted and written
/// edge by edge give the same form: runs of every length up to 40 (past
/// the wide writer's 16), and enough of them to fill several blocks, so
/// that the wide writer's early flushes come at many offsets.
#[test]
fn wide_and_narrow_runs_hash_the_same_form() {
    let mut state = 7u64;
    let mut next = move || {
        state = crate::splitmix::mix(state);
        state
    };
    let runs: Vec<(Vertex, Vec<Vertex>)> = (0..6_000)
        .map(|c| {
            let len = (next() % 41) as usize;
            let run = (0..len)
                .map(|_| match next() % 4 {
                    0 => Vertex::MAX,
                    1 => c + 1,
                    _ => next() as Vertex,
                })
                .collect();
            (c, run)
        })
        .collect();
    let digest = |avx512: Option<Avx512>| {
        let mut form = Form::new(Sha256::new(), avx512);
        for (c, run) in &runs {
            form.word(*c);
            form.run(*c, &mut run.clone());
        }
        form.finish()
    };
    let mut expected = Sha256::new();
    for (c, run) in &runs {
        let mut sorted = run.clone();
        sorted.sort_unstable();
        expected.update(c.to_le_bytes());
        for d in sorted {
            expected.update(c.to_le_bytes());
            expected.update(d.to_le_bytes());
        }
    }
    let expected: [u8; 32] = expected.finalize().into();
    assert_eq!(digest(None), expected);
    if let Some(avx512) = Avx512::detect() {
        assert_eq!(digest(Some(avx512)), expected);
    } else {
        eprintln!("skipped the wide half: no AVX-512F (or PUZZLED_SIMD=off)");
    }
}

/// The whole hash is the same with the vector paths and without them, on
/// graphs that take each of them: dense cores, whose edges are collected
/// and whose runs are written in vector registers, and sparse ones, whose
/// runs are. Without the token (no AVX-512F, or `PUZZLED_SIMD=off`) there
/// is nothing to compare, and the pinned hashes check the scalar paths.
#[test]
fn the_hash_is_the_same_with_and_without_vector_instructions() {
    let puzzles = [
        spec(Game::Geography, 300, &random_edges(300, 450, 11), 0),
        spec(Game::Geography, 200, &random_edges(200, 1000, 12), 3),
        spec(Game::Geography, 120, &random_edges(120, 2000, 13), 7),
        spec(Game::Geography, 64, &complete(64), 0),
        spec(Game::Geography, 1 << 9, &hypercube(9), 0),
    ];
    let Some(avx512) = Avx512::detect() else {
        eprintln!("skipped: no AVX-512F (or PUZZLED_SIMD=off)");
        return;
    };
    for puzzle in &puzzles {
        let scalar = canonicalize_with(puzzle, BUDGET, &Cancel::never(), None).unwrap();
        assert_eq!(scalar.canonicaliser, TRACES, "within budget");
        assert_eq!(
            canonicalize_with(puzzle, BUDGET, &Cancel::never(), Some(avx512)),
            Some(scalar)
        );
    }
}

/// Every small digraph (random arcs, 2-cycles included) hashes the same as
/// each relabelling of it with the start carried along, and its hash is
/// nauty's; reversing the arcs or moving the start changes it unless an
/// isomorphism says otherwise (checked by brute force over every
/// permutation on these sizes).
#[test]
fn digraphs_hash_by_isomorphism_with_the_start_distinguished() {
    let mut rng = SplitMix::new(35);
    for case in 0..300 {
        let n = 2 + rng.below(5) as u32;
        let mut arcs = Vec::new();
        for u in 0..n {
            for v in 0..n {
                if u != v && rng.below(10) < 3 {
                    arcs.extend([u, v]);
                }
            }
        }
        let start = rng.below(u64::from(n)) as u32;
        for game in [Game::DirectedVertexGeography, Game::DirectedEdgeGeography] {
            let original = spec(game, n.into(), &arcs, start);
            let canonical = canonicalize(&original, BUDGET);
            assert_eq!(canonical.canonicaliser, NAUTY_DIGRAPH);
            assert_eq!(
                canonical.labelling.to_canonical(start),
                0,
                "the start gets label 0"
            );
            let perm = permutation(n, case);
            let copy_arcs: Vec<u32> = arcs.iter().map(|&v| perm[v as usize]).collect();
            let copy = spec(game, n.into(), &copy_arcs, perm[start as usize]);
            assert_eq!(hash(&copy), canonical.hash, "case {case}");
            // The reverse digraph from the same start: the same hash
            // exactly when some permutation fixing the start maps one
            // onto the other.
            let reversed: Vec<u32> = arcs.chunks(2).flat_map(|a| [a[1], a[0]]).collect();
            let as_set = |flat: &[u32]| -> BTreeSet<(u32, u32)> {
                flat.chunks(2).map(|a| (a[0], a[1])).collect()
            };
            let target = as_set(&reversed);
            let mut isomorphic = false;
            let mut items: Vec<u32> = (0..n).collect();
            permutations(&mut items, 0, &mut |p| {
                if p[start as usize] == start
                    && arcs
                        .chunks(2)
                        .all(|a| target.contains(&(p[a[0] as usize], p[a[1] as usize])))
                {
                    isomorphic = true;
                }
            });
            let reversed_hash = hash(&spec(game, n.into(), &reversed, start));
            assert_eq!(
                reversed_hash == canonical.hash,
                isomorphic,
                "case {case}: {arcs:?} from {start}"
            );
        }
    }
}

#[test]
fn each_game_hashes_apart() {
    let arcs = [0, 1, 1, 2, 2, 0];
    let hashes: BTreeSet<String> = [
        Game::Geography,
        Game::UndirectedEdgeGeography,
        Game::DirectedVertexGeography,
        Game::DirectedEdgeGeography,
    ]
    .into_iter()
    .map(|game| hash(&spec(game, 3, &arcs, 0)))
    .collect();
    assert_eq!(hashes.len(), 4);
    // The label-keeping form keeps arcs' directions too.
    let forward = keep_labels(&spec(Game::DirectedEdgeGeography, 3, &[0, 1, 1, 2], 0));
    let backward = keep_labels(&spec(Game::DirectedEdgeGeography, 3, &[1, 0, 2, 1], 0));
    assert_ne!(forward.hash, backward.hash);
    assert_eq!(forward.edge_count, 2);
}
