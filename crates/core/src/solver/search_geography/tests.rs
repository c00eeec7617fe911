use super::*;

fn board(variant: Variant, n: usize, pairs: &[(Vertex, Vertex)]) -> Board {
    Board::new(variant, n, pairs).unwrap()
}

#[test]
fn positions_differing_only_out_of_reach_share_a_table_entry() {
    // 0 → 1 → 2 → 3 → 1 (a cycle the token can enter), and 4 ⇄ 5 apart.
    let b = board(
        Variant::DirectedVertex,
        6,
        &[(0, 1), (1, 2), (2, 3), (3, 1), (4, 5), (5, 4), (0, 4)],
    );
    let start = b.start(0);
    let via_one = b.play(start, 1).unwrap();
    assert_eq!(
        b.relevant(via_one),
        0b1100,
        "only 2 and 3 are still reachable"
    );
    let mut other = via_one;
    other.unused &= !(1 << 5);
    assert_eq!(b.relevant(other), b.relevant(via_one));
}

#[test]
fn an_acyclic_region_is_decided_without_search() {
    // A path 0 → 1 → 2 → 3 with a shortcut 0 → 2: whoever reaches 3 wins,
    // so 2 wins for its mover, 1 loses, and 0 wins by moving to 1.
    let b = board(Variant::DirectedEdge, 4, &[(0, 1), (1, 2), (2, 3), (0, 2)]);
    let start = b.start(0);
    assert_eq!(b.acyclic_value(start, b.relevant(start)), Some(true));
    let cycle = board(Variant::DirectedEdge, 3, &[(0, 1), (1, 2), (2, 1)]);
    let start = cycle.start(0);
    assert_eq!(cycle.acyclic_value(start, cycle.relevant(start)), None);
    let triangle = board(Variant::UndirectedEdge, 3, &[(0, 1), (1, 2), (0, 2)]);
    let start = triangle.start(0);
    assert_eq!(
        triangle.acyclic_value(start, triangle.relevant(start)),
        None
    );
    let star = board(Variant::UndirectedEdge, 4, &[(0, 1), (0, 2), (0, 3)]);
    let start = star.start(1);
    // From a leaf the only move is to the centre, from which the opponent
    // moves to another leaf and wins.
    assert_eq!(star.acyclic_value(start, star.relevant(start)), Some(false));
}

#[test]
fn illegal_moves_say_why() {
    let b = board(Variant::DirectedVertex, 3, &[(0, 1), (1, 0), (1, 2)]);
    let at_one = b.play(b.start(0), 1).unwrap();
    assert_eq!(b.play(at_one, 0), Err(IllegalStep::AlreadyVisited));
    assert_eq!(b.play(b.start(0), 2), Err(IllegalStep::NotAdjacent));
    let e = board(Variant::UndirectedEdge, 2, &[(0, 1)]);
    let at_one = e.play(e.start(0), 1).unwrap();
    assert_eq!(e.play(at_one, 0), Err(IllegalStep::EdgeAlreadyUsed));
    let d = board(Variant::DirectedEdge, 2, &[(0, 1), (1, 0)]);
    let back = d.play(d.play(d.start(0), 1).unwrap(), 0).unwrap();
    assert_eq!(d.moves(back), Vec::<Vertex>::new());
}

#[test]
fn boards_past_the_bit_sets_are_refused() {
    let err = Board::new(Variant::DirectedVertex, MAX_VERTICES + 1, &[]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "directed vertex Geography is solved by search on at most 128 vertices; this graph has 129"
    );
    let pairs: Vec<(Vertex, Vertex)> = (0..MAX_ITEMS as u32 + 1)
        .map(|i| (i % 100, i % 100 + 1 + i / 100))
        .collect();
    let err = Board::new(Variant::UndirectedEdge, 128, &pairs).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("at most 128 edges; this graph has 129"),
        "{err}"
    );
    let full: Vec<(Vertex, Vertex)> = (0..MAX_ITEMS as u32)
        .map(|i| (i % 64, (i % 64 + 1 + i / 64) % 100))
        .collect();
    let b = Board::new(Variant::DirectedEdge, 100, &full).unwrap();
    assert_eq!(b.start(0).unused, Items::MAX);
}

#[test]
fn forced_chains_leave_no_table_entries() {
    // A directed path: every move is forced.
    let pairs: Vec<(Vertex, Vertex)> = (0..20).map(|i| (i, i + 1)).collect();
    let b = board(Variant::DirectedVertex, 21, &pairs);
    let cancel = Cancel::never();
    let mut search = Search::new(&b, 10, &cancel);
    // Twenty forced moves, the last by the second player; then the first
    // player is stuck at 20.
    assert!(!search.wins(b.start(0)).unwrap());
    assert_eq!(search.states(), 0);
}
