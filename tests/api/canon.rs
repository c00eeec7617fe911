//! One verdict for every relabelling: relabelled copies share the
//! traces-v4 hash, are duplicates of the first, hit the cache, and get
//! answers in their own labels that the independent checkers accept.
//! Puzzles stored under the old label-keeping hash are rehashed at start-up.

use std::time::Duration;

use sqlx::Connection;

use super::checker::{Asked, check_geography};
use super::helpers::*;
use puzzled::canon::{Labelling, TRACES};
use puzzled::solver::SOLVER_VERSION;
use puzzled::store::{Store, VerdictKey};
use puzzled_testkit::random::{Rng as _, XorShift};

/// A permutation of `0..n` from a seed.
fn permutation(n: u32, seed: u64) -> Vec<u32> {
    XorShift::scrambled(seed).permutation(n)
}

fn relabel(edges: &[u32], perm: &[u32]) -> Vec<u32> {
    // Relabelled, and listed in another order with flipped ends.
    let mut out: Vec<u32> = edges
        .chunks_exact(2)
        .rev()
        .flat_map(|e| [perm[e[1] as usize], perm[e[0] as usize]])
        .collect();
    out.shrink_to_fit();
    out
}

fn everything(spec: proto::PuzzleSpec) -> proto::SolveRequest {
    proto::SolveRequest {
        spec: Some(spec),
        include_all_starts: true,
        include_winning_moves: true,
    }
}

/// Geography on graphs small enough for the checker's game-tree search
/// (every start and every winning move in the copy's labels) and on a
/// larger one (matching and barriers): a relabelled copy is a duplicate of
/// the first, SolvePuzzle and Solve on it are cache hits, and the answer
/// checks out in the copy's labels.
#[tokio::test]
async fn a_relabelled_copy_is_a_duplicate_and_a_cache_hit_in_its_own_labels() {
    let mut app = spawn_app().await;
    for (n, m, seed) in [
        (12u32, 16usize, 5u64),
        (13, 20, 6),
        (11, 11, 7),
        (600, 900, 8),
    ] {
        let edges = random_graph(n, m, seed);
        let start = (seed as u32 * 7) % n;
        let first = app.create(geography(n, &edges, start)).await;
        assert!(first.canonical_hash.starts_with("traces-v4:"), "{first:?}");
        assert_eq!(first.canonicaliser, TRACES);
        let solved = app
            .client
            .solve_puzzle(proto::SolvePuzzleRequest {
                name: first.name.clone(),
                include_all_starts: true,
                include_winning_moves: true,
            })
            .await
            .unwrap()
            .into_inner();
        assert!(!solved.cached);
        assert_eq!(solved.canonicaliser, TRACES);
        check_geography(n, &edges, start, Asked::EVERYTHING, &solved);

        for copy_seed in [seed * 31 + 1, seed * 31 + 2] {
            let perm = permutation(n, copy_seed);
            let copy_edges = relabel(&edges, &perm);
            let copy_start = perm[start as usize];
            let copy = app.create(geography(n, &copy_edges, copy_start)).await;
            assert_eq!(copy.canonical_hash, first.canonical_hash);
            assert_eq!(copy.duplicate_of, first.name);
            let from_store = app
                .client
                .solve_puzzle(proto::SolvePuzzleRequest {
                    name: copy.name.clone(),
                    include_all_starts: true,
                    include_winning_moves: true,
                })
                .await
                .unwrap()
                .into_inner();
            assert!(from_store.cached, "the copy's verdict comes from the cache");
            check_geography(n, &copy_edges, copy_start, Asked::EVERYTHING, &from_store);
            let inline = app
                .client
                .solve(everything(geography(n, &copy_edges, copy_start)))
                .await
                .unwrap()
                .into_inner();
            assert!(inline.cached);
            check_geography(n, &copy_edges, copy_start, Asked::EVERYTHING, &inline);
        }

        // The filter lists the first and both copies.
        let listed = app
            .client
            .list_puzzles(proto::ListPuzzlesRequest {
                canonical_hash: first.canonical_hash.clone(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(listed.puzzles.len(), 3);
        assert_eq!(listed.puzzles.last().unwrap().name, first.name);
    }
    app.stop().await;
}

/// The start moved to a vertex in another orbit is another puzzle.
#[tokio::test]
async fn the_start_in_another_orbit_is_another_puzzle() {
    let app = spawn_app().await;
    let path = [0, 1, 1, 2, 2, 3, 3, 4];
    let hash = |start| {
        let mut client = app.client.clone();
        async move {
            client
                .solve(solve_request(geography(5, &path, start)))
                .await
                .unwrap()
                .into_inner()
                .canonical_hash
        }
    };
    let end = hash(0).await;
    assert_eq!(end, hash(4).await, "both ends are one orbit");
    assert_ne!(end, hash(1).await);
    assert_ne!(end, hash(2).await);
    let solution = app.solve(geography(5, &path, 3)).await;
    assert!(solution.cached, "3 is in 1's orbit");
    check_geography(5, &path, 3, Asked::NOTHING, &solution);
}

/// The edge game and tree painting: copies hit the cache and their winning
/// moves are legal moves in the copy's labels.
#[tokio::test]
async fn copies_of_the_other_games_get_moves_in_their_own_labels() {
    let mut app = spawn_app().await;
    // A bipartite graph: a 4-cycle, a path of 3 and two isolated vertices.
    let n = 9;
    let edges = [0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6];
    let bipartite = |edges: &[u32]| proto::PuzzleSpec {
        game: proto::Game::BipartiteEdge as i32,
        graph: graph(n, edges),
        ..Default::default()
    };
    let first = app
        .client
        .solve(everything(bipartite(&edges)))
        .await
        .unwrap()
        .into_inner();
    assert!(!first.cached);
    for seed in 1..4 {
        let perm = permutation(n, seed);
        let copy_edges = relabel(&edges, &perm);
        let copy = app
            .client
            .solve(everything(bipartite(&copy_edges)))
            .await
            .unwrap()
            .into_inner();
        assert!(copy.cached);
        assert_eq!(copy.canonical_hash, first.canonical_hash);
        assert_eq!(copy.winner, first.winner);
        let moves = copy.winning_moves.expect("asked for");
        for m in &moves.moves {
            let Some(proto::r#move::Move::Edge(e)) = &m.r#move else {
                panic!("an edge move: {m:?}")
            };
            let (u, v) = (e.u, e.v);
            assert!(u < n && v < n && u != v);
            let present = copy_edges
                .chunks_exact(2)
                .any(|f| (f[0], f[1]) == (u, v) || (f[0], f[1]) == (v, u));
            assert!(
                !present,
                "winning move {u}-{v} is already an edge of the copy"
            );
            assert!(
                puzzled::solver::bipartite_edge::check_bipartite(
                    &puzzled::graph::Graph::from_flat_edges(
                        n.into(),
                        &[copy_edges.as_slice(), &[u, v]].concat()
                    )
                    .unwrap()
                )
                .is_ok(),
                "winning move {u}-{v} closes an odd cycle in the copy"
            );
        }
    }

    // A tree: black at a leaf, white at another.
    let n = 8;
    let edges = [0, 1, 1, 2, 2, 3, 1, 4, 4, 5, 2, 6, 6, 7];
    let paint = |edges: &[u32], black, white| proto::PuzzleSpec {
        game: proto::Game::TreePaint as i32,
        graph: graph(n, edges),
        black: Some(black),
        white: Some(white),
        ..Default::default()
    };
    let first = app
        .client
        .solve(everything(paint(&edges, 0, 7)))
        .await
        .unwrap()
        .into_inner();
    for seed in 1..4 {
        let perm = permutation(n, seed);
        let copy_edges = relabel(&edges, &perm);
        let (black, white) = (perm[0], perm[7]);
        let copy = app
            .client
            .solve(everything(paint(&copy_edges, black, white)))
            .await
            .unwrap()
            .into_inner();
        assert!(copy.cached);
        assert_eq!(copy.winner, first.winner);
        let moves = copy.winning_moves.expect("asked for");
        assert_eq!(moves.count, first.winning_moves.as_ref().unwrap().count);
        for m in &moves.moves {
            let Some(proto::r#move::Move::Vertex(v)) = m.r#move else {
                panic!("a vertex move: {m:?}")
            };
            let next_to_black = copy_edges
                .chunks_exact(2)
                .any(|e| (e[0], e[1]) == (black, v) || (e[0], e[1]) == (v, black));
            assert!(
                next_to_black,
                "winning move {v} is not next to black ({black})"
            );
        }
    }
    app.stop().await;
}

/// GetPuzzle exports the canonical graph as sparse6: the same line for
/// every copy, with the start at vertex 0.
#[tokio::test]
async fn the_canonical_form_is_exported_as_sparse6() {
    let app = spawn_app().await;
    let (n, edges) = (30, random_graph(30, 45, 3));
    let mut lines = Vec::new();
    for seed in [0, 1, 2] {
        let perm = permutation(n, seed);
        let created = app
            .create(geography(n, &relabel(&edges, &perm), perm[4]))
            .await;
        assert!(created.canonical_sparse6.starts_with(':'), "{created:?}");
        lines.push(created.canonical_sparse6);
    }
    assert!(lines.iter().all(|l| *l == lines[0]));
    let parsed = puzzled::graph::graph6::parse_sparse6(lines[0].as_bytes()).unwrap();
    assert_eq!(parsed.edges.len(), edges.len());
    // The BASIC view leaves it out.
    let listed = app.listed().await;
    assert!(listed.iter().all(|p| p.canonical_sparse6.is_empty()));
    app.stop().await;
}

/// A stored Geography puzzle, solved with every option so that its
/// verdict is in the store: the puzzle and its id.
async fn store_solved(
    app: &mut TestApp,
    n: u32,
    edges: &[u32],
    start: u32,
) -> (proto::Puzzle, String) {
    let created = app.create(geography(n, edges, start)).await;
    app.client
        .solve_puzzle(solve_everything(&created.name))
        .await
        .unwrap();
    let id = created.name.trim_start_matches("puzzles/").to_owned();
    (created, id)
}

fn solve_everything(name: &str) -> proto::SolvePuzzleRequest {
    proto::SolvePuzzleRequest {
        name: name.to_owned(),
        include_all_starts: true,
        include_winning_moves: true,
    }
}

/// The key of the verdict with every option for a graph of this shape.
fn everything_key<'a>(hash: &'a str, n: u32, edges: &[u32]) -> VerdictKey<'a> {
    VerdictKey {
        canonical_hash: hash,
        options: "all_starts,winning_moves",
        vertex_count: n.into(),
        edge_count: (edges.len() / 2) as u64,
        solver_version: SOLVER_VERSION,
    }
}

/// Polls GetPuzzle until the background rehash has given `name` the
/// current canonicaliser (`interim` checks each puzzle seen before); a
/// minute without it fails the test (a hang guard).
async fn until_rehashed(
    app: &mut TestApp,
    name: &str,
    interim: impl Fn(&proto::Puzzle),
) -> proto::Puzzle {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let puzzle = app.read(name).await;
        if puzzle.canonicaliser == TRACES {
            return puzzle;
        }
        interim(&puzzle);
        assert!(
            std::time::Instant::now() < deadline,
            "not rehashed: {puzzle:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A puzzle and verdict stored under the old label-keeping hash (as a
/// database from before traces-v1 holds them) are rehashed after start-up:
/// the puzzle gets its traces-v4 hash and labels, its verdict is carried
/// over, and SolvePuzzle answers it from the cache in its own labels.
#[tokio::test]
async fn puzzles_stored_under_the_old_hash_are_rehashed_at_start_up() {
    rehashed_from(Older::LabelKeeping).await;
}

/// A puzzle stored with a `traces-v1` hash (Traces on the whole graph) and
/// its verdict in those canonical labels: before its rehash SolvePuzzle
/// answers it through its stored labels; after start-up it gets its
/// traces-v4 hash and labels, and its verdict is carried over through the
/// puzzle's own labels. The traces-v2 migration's rule picks it.
#[tokio::test]
async fn puzzles_stored_under_traces_v1_are_rehashed_at_start_up() {
    rehashed_from(Older::Traces {
        name: "traces-v1",
        migration: include_str!("../../migrations/sqlite/20261205000000_traces_v2.sql"),
    })
    .await;
}

/// The same for a `traces-v2` hash (Traces on every core, no refinement),
/// picked by the traces-v3 migration.
#[tokio::test]
async fn puzzles_stored_under_traces_v2_are_rehashed_at_start_up() {
    rehashed_from(Older::Traces {
        name: "traces-v2",
        migration: include_str!("../../migrations/sqlite/20261206000000_traces_v3.sql"),
    })
    .await;
}

/// The same for a `traces-v3` hash (one Traces search over the whole
/// refined core), picked by the traces-v4 migration.
#[tokio::test]
async fn puzzles_stored_under_traces_v3_are_rehashed_at_start_up() {
    rehashed_from(Older::Traces {
        name: "traces-v3",
        migration: include_str!("../../migrations/sqlite/20261209000000_traces_v4.sql"),
    })
    .await;
}

/// The canonicaliser an older server stored a puzzle with.
enum Older {
    /// `sorted-edges-v1`: no canonical labels, the verdict in the puzzle's
    /// own labels; marked for the rehash directly (the migration that
    /// marked such rows also added the column).
    LabelKeeping,
    /// An older Traces: its own hash and canonical labels (here the
    /// current ones reversed), the verdict in those; `migration`'s rule
    /// marks it for the rehash.
    Traces {
        name: &'static str,
        migration: &'static str,
    },
}

/// Turns a stored, solved puzzle into what a server with the `older`
/// canonicaliser left, and checks that after start-up it is rehashed to
/// the current hash and answered from the verdict carried over, in its own
/// labels.
async fn rehashed_from(older: Older) {
    let mut app = spawn_app().await;
    let (n, edges, start) = (14u32, random_graph(14, 17, 5), 2);
    let (created, id) = store_solved(&mut app, n, &edges, start).await;
    let new_hash = created.canonical_hash.clone();
    let config = app.config.clone();
    let dir = app.stop().await;

    let store = Store::open(&config.database_url).await.unwrap();
    let record = store.get_puzzle(&id).await.unwrap();
    let labelling =
        Labelling::from_canonical_labels(record.canonical_labels.clone().unwrap()).unwrap();
    // The old canonical label of each of the puzzle's vertices.
    let (old_name, old_hash, old_labels, migration) = match older {
        Older::LabelKeeping => {
            let spec = record.validated_spec().unwrap();
            let hash = puzzled::canon::keep_labels(&spec).hash;
            ("sorted-edges-v1", hash, None, None)
        }
        Older::Traces { name, migration } => {
            let labels: Vec<u32> = (0..n).map(|v| n - 1 - labelling.to_canonical(v)).collect();
            let hash = format!("{name}:{}", "0123456789abcdef".repeat(4));
            (name, hash, Some(labels), Some(migration))
        }
    };
    let old_label = |v: u32| old_labels.as_ref().map_or(v, |labels| labels[v as usize]);
    let key = |hash| everything_key(hash, n, &edges);
    let verdict = store.get_verdict(key(&new_hash)).await.unwrap().unwrap();
    store
        .put_verdict(
            key(&old_hash),
            &verdict.relabel(|c| old_label(labelling.to_original(c))),
        )
        .await
        .unwrap();
    store.close().await;
    let mut db = sqlx::SqliteConnection::connect(&config.database_url)
        .await
        .unwrap();
    sqlx::query("DELETE FROM verdicts WHERE canonical_hash = ?")
        .bind(&new_hash)
        .execute(&mut db)
        .await
        .unwrap();
    let blob: Option<Vec<u8>> = old_labels
        .as_ref()
        .map(|labels| labels.iter().flat_map(|w| w.to_le_bytes()).collect());
    sqlx::query(
        "UPDATE puzzles SET canonical_hash = ?, canonical_labels = ?, rehash_pending = ? \
         WHERE id = ?",
    )
    .bind(&old_hash)
    .bind(&blob)
    .bind(migration.is_none())
    .bind(&id)
    .execute(&mut db)
    .await
    .unwrap();
    if let Some(migration) = migration {
        sqlx::raw_sql(sqlx::AssertSqlSafe(migration))
            .execute(&mut db)
            .await
            .unwrap();
    }
    db.close().await.unwrap();

    let mut app = spawn_app_with(dir, config).await;
    let rehashed = until_rehashed(&mut app, &created.name, |puzzle| {
        assert_eq!(puzzle.canonicaliser, old_name)
    })
    .await;
    assert_eq!(rehashed.canonical_hash, new_hash);
    let solved = app
        .client
        .solve_puzzle(solve_everything(&created.name))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(solved.canonical_hash, new_hash);
    assert!(
        solved.cached,
        "the verdict was carried over to the new hash"
    );
    check_geography(n, &edges, start, Asked::EVERYTHING, &solved);
    app.stop().await;
}

/// Past the canonical labelling budget the puzzle gets the label-keeping
/// hash, and the response says so.
#[tokio::test]
async fn past_the_budget_a_puzzle_gets_the_label_keeping_hash() {
    let app = app_with(|config| config.canon_budget_ms = 0).await;
    let solution = app.solve(geography(4, &[0, 1, 1, 2, 2, 0, 2, 3], 0)).await;
    assert_eq!(solution.canonicaliser, "sorted-edges-v1");
    assert!(solution.canonical_hash.starts_with("sorted-edges-v1:"));
    check_geography(4, &[0, 1, 1, 2, 2, 0, 2, 3], 0, Asked::NOTHING, &solution);
    let created = app.create(geography(4, &[0, 1, 1, 2, 2, 0, 2, 3], 0)).await;
    assert_eq!(created.canonicaliser, "sorted-edges-v1");
    assert_eq!(created.canonical_hash, solution.canonical_hash);
    app.stop().await;
}

/// A large puzzle whose labelling ran out of its budget once gets the
/// label-keeping hash at once the next time, without a labelling.
#[tokio::test]
async fn a_large_puzzle_past_the_budget_is_remembered() {
    let app = app_with(|config| config.canon_budget_ms = 0).await;
    let edges = puzzled_testkit::random::random_graph(3000, 4000, 5);
    let first = app.solve(geography(3000, &edges, 0)).await;
    assert_eq!(first.canonicaliser, "sorted-edges-v1");
    let remembered = cache_hits("over_budget");
    let again = app.solve(geography(3000, &edges, 0)).await;
    assert_eq!(again.canonical_hash, first.canonical_hash);
    assert!(again.cached);
    assert!(cache_hits("over_budget") > remembered);
    app.stop().await;
}

/// A server whose labelling budget is far longer than any test waits: a
/// hard graph keeps Traces searching for as long as a test needs.
async fn app_with_a_long_labelling_budget() -> TestApp {
    app_with(|config| config.canon_budget_ms = 600_000).await
}

/// A Geography puzzle on `copies` Petersen graphs on a hub: connected, and
/// a long Traces search for a few hundred copies (the canon benchmark's
/// hub rows show how long).
fn hard_to_label(copies: u32) -> proto::PuzzleSpec {
    let edges = puzzled_testkit::families::copies_on_a_hub(
        &puzzled_testkit::families::petersen(),
        10,
        copies,
    );
    geography(10 * copies + 1, &edges, 0)
}

/// A caller that leaves stops its canonical labelling: a Solve of a graph
/// that keeps Traces searching, under the long budget, with a deadline far
/// shorter than the search, ends DEADLINE_EXCEEDED, and its search is
/// stopped rather than run on for nobody; the server then answers.
#[tokio::test]
async fn a_caller_that_leaves_stops_its_labelling() {
    let mut app = app_with_a_long_labelling_budget().await;
    let stopped_before = puzzled::canon::searches_stopped();
    let mut request = tonic::Request::new(solve_request(hard_to_label(800)));
    request.set_timeout(Duration::from_millis(300));
    let status = app.client.solve(request).await.unwrap_err();
    // The server answers DEADLINE_EXCEEDED a little before the deadline;
    // on a loaded machine the client's own timer may fire first.
    assert!(
        status.code() == tonic::Code::DeadlineExceeded || status.message() == "Timeout expired",
        "{status:?}"
    );

    // A hang guard, not a bound; a search that ran to its end would not
    // count as stopped.
    let guard = std::time::Instant::now() + Duration::from_secs(120);
    while puzzled::canon::searches_stopped() == stopped_before {
        assert!(
            std::time::Instant::now() < guard,
            "the search went on with no caller"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let solution = app
        .solve(geography(5, &[0, 1, 1, 2, 2, 3, 3, 4, 4, 0], 0))
        .await;
    assert!(solution.canonical_hash.starts_with("traces-v4:"));
    app.stop().await;
}

/// Hard labellings of large puzzles do not keep a small one waiting: with
/// four Solves of graphs that keep Traces searching (more
/// than there are cores, so every labelling slot is held and more wait),
/// an uncached Solve of a 7-vertex puzzle is answered while they all still
/// run. Their callers then leave, which stops their searches.
#[tokio::test]
async fn a_small_puzzle_is_labelled_beside_hard_labellings() {
    let mut app = app_with_a_long_labelling_budget().await;
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    // Different graphs, so that no two share a labelling.
    let long: Vec<_> = (0..cores as u32 + 2)
        .map(|i| {
            let mut client = app.client.clone();
            let hard = hard_to_label(800 + i);
            tokio::spawn(async move { client.solve(solve_request(hard)).await })
        })
        .collect();
    let guard = std::time::Instant::now() + Duration::from_secs(120);
    while puzzled::canon::searches_running() < cores {
        assert!(
            std::time::Instant::now() < guard,
            "the hard labellings did not start"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // A 7-cycle with a chord, which no other test solves.
    let small = geography(7, &[0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 0, 1, 4], 3);
    let mut request = tonic::Request::new(solve_request(small));
    request.set_timeout(Duration::from_secs(120));
    let solution = app.client.solve(request).await.unwrap().into_inner();
    assert!(!solution.cached);
    assert!(
        long.iter().all(|call| !call.is_finished()),
        "the small puzzle was answered only once a hard labelling had ended"
    );
    for call in long {
        call.abort();
    }
}

/// Identical hard requests share one labelling: three Solves of one graph
/// that keeps Traces searching, sent together, wait for one
/// labelling between them, not three. Their callers then leave, which
/// stops it.
#[tokio::test]
async fn identical_hard_requests_share_one_labelling() {
    let app = app_with_a_long_labelling_budget().await;
    let hard = hard_to_label(801);
    let calls: Vec<_> = (0..3)
        .map(|_| {
            let mut client = app.client.clone();
            let hard = hard.clone();
            tokio::spawn(async move { client.solve(solve_request(hard)).await })
        })
        .collect();
    let (running, waiting) = &app.labellings;
    until(|| waiting.get() == 3).await;
    assert_eq!(
        running.get(),
        1,
        "one labelling for three identical requests"
    );
    for call in calls {
        call.abort();
    }
}
