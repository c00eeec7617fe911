//! `puzzled solve` on the sample files in `tests/data/`, as a user runs it.

use std::path::Path;

use puzzled_testkit::evidence::{PlainGraph, Winner, check_geography};
use serde_json::Value;

#[path = "common/run.rs"]
mod run;

/// `puzzled ARGS` from the repository's root: whether it succeeded, its
/// standard output and its standard error.
fn puzzled(args: &[&str]) -> (bool, String, String) {
    let mut command = run::puzzled();
    command.args(args);
    let run = run::run(command, None);
    (run.success(), run.stdout, run.stderr)
}

/// The same with `input` on its standard input, all of which it reads.
fn puzzled_with_stdin(args: &[&str], input: &str) -> (bool, String, String) {
    let mut command = run::puzzled();
    command.args(args);
    let run = run::run(command, Some(input.to_owned()));
    run.input_written.as_ref().unwrap();
    (run.success(), run.stdout, run.stderr)
}

fn data(name: &str) -> String {
    Path::new("tests/data")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Reads a 1-based contest file into 0-based pairs, for the checker.
fn contest_edges(name: &str) -> (usize, Vec<(u32, u32)>) {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(data(name))).unwrap();
    let numbers: Vec<u32> = text
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let n = numbers[0] as usize;
    let edges = numbers[2..]
        .chunks(2)
        .map(|p| (p[0] - 1, p[1] - 1))
        .collect();
    (n, edges)
}

fn vertices(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32 - 1)
        .collect()
}

#[test]
fn geography_text_summary() {
    let (ok, out, _) = puzzled(&["solve", "--game", "geography", &data("geography_tree8.txt")]);
    assert!(ok);
    assert!(out.contains("winner: second player"), "{out}");
    assert!(out.contains("|D| = 4"), "{out}");
}

#[test]
fn geography_json_evidence_passes_the_checker_for_every_start() {
    for name in [
        "geography_path3.txt",
        "geography_k4.txt",
        "geography_tree8.txt",
    ] {
        let (n, edges) = contest_edges(name);
        let plain = PlainGraph::new(n, &edges);
        for start in 1..=n {
            let (ok, out, err) = puzzled(&[
                "solve",
                "--game",
                "geography",
                "--json",
                "--start",
                &start.to_string(),
                &data(name),
            ]);
            assert!(ok, "{err}");
            let v: Value = serde_json::from_str(&out).unwrap();
            let winner = match v["winner"].as_str().unwrap() {
                "first" => Winner::First,
                "second" => Winner::Second,
                other => panic!("unknown winner {other}"),
            };
            let matching: Vec<(u32, u32)> = v["matching"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p[0].as_u64().unwrap() as u32 - 1,
                        p[1].as_u64().unwrap() as u32 - 1,
                    )
                })
                .collect();
            let start_barrier = v["start_barrier"]
                .as_array()
                .map(|_| vertices(&v["start_barrier"]));
            check_geography(
                &plain,
                start as u32 - 1,
                winner,
                &matching,
                &vertices(&v["barrier"]),
                start_barrier.as_deref(),
            )
            .unwrap_or_else(|e| panic!("{name} from {start}: {e}"));
        }
    }
}

#[test]
fn zero_based_format_and_start_flag() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.txt");
    std::fs::write(&path, "3 2\n0 1\n1 2\n").unwrap();
    let path = path.to_string_lossy().into_owned();
    let (ok, out, _) = puzzled(&[
        "solve",
        "--game",
        "geography",
        "--format",
        "zero-based",
        "--start",
        "1",
        &path,
    ]);
    assert!(ok);
    assert!(
        out.contains("start 1") && out.contains("winner: first player"),
        "{out}"
    );
}

#[test]
fn bad_files_and_flags_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "3 2\n1 2\n2 x\n",
            vec![],
            "line 3: expected a vertex id in 1..=3, found \"x\"",
        ),
        (
            "3 2\n1 2\n",
            vec![],
            "line 3: expected a vertex id in 1..=3, found end of file",
        ),
        (
            "3 2\n1 2\n2 2\n",
            vec![],
            "line 3: edge (2, 2) is a self-loop",
        ),
        (
            "3 2\n1 2\n2 1\n",
            vec![],
            "line 3: edge (2, 1) duplicates the edge on line 2",
        ),
        (
            "3 1\n1 2\n",
            vec!["--start", "4"],
            "--start: vertex 4 is not in the graph (3 vertices)",
        ),
        (
            "3 1\n1 2\n",
            vec!["--start", "0"],
            "--start: vertex 0 is not in the file's numbering",
        ),
        ("0 0\n", vec![], "geography needs at least one vertex"),
        // 2·M wraps to 0 in u64: refused, not read as the empty graph.
        (
            "3 9223372036854775808\n",
            vec![],
            "line 1: expected an edge count M below 2^63, found \"9223372036854775808\"",
        ),
    ];
    for (i, (text, flags, expected)) in cases.into_iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.txt"));
        std::fs::write(&path, text).unwrap();
        let path = path.to_string_lossy().into_owned();
        let mut args = vec!["solve", "--game", "geography"];
        args.extend(flags);
        args.push(&path);
        let (ok, out, err) = puzzled(&args);
        assert!(!ok, "case {i} should fail, printed {out}");
        assert!(err.contains(expected), "case {i}: {err}");
    }
    let (ok, _, err) = puzzled(&["solve", "--game", "geography", "no/such/file.txt"]);
    assert!(!ok && err.contains("cannot read no/such/file.txt"), "{err}");
}

#[test]
fn bipartite_edge_sample_and_json() {
    let file = data("bipartite_edge_abc398g_sample1.txt");
    let (ok, out, err) = puzzled(&["solve", "--game", "bipartite-edge", &file]);
    assert!(ok, "{err}");
    assert!(out.contains("winner: first player"), "{out}");
    let (ok, out, _) = puzzled(&["solve", "--game", "bipartite-edge", "--json", &file]);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["winner"], "first");
    assert_eq!(v["counts"]["x"], 1);
    // Path 1-2-3-4: the only edge that keeps it bipartite is (1, 4); after
    // it no move is left, so it wins.
    assert_eq!(v["winning_move"], serde_json::json!([1, 4]));
    assert_eq!(v["unique_winning_move"], true);
}

#[test]
fn tree_paint_samples_in_the_contest_layout() {
    let (ok, out, err) = puzzled(&[
        "solve",
        "--game",
        "tree-paint",
        &data("tree_paint_abc067d_sample1.txt"),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("winner: first player"), "{out}");
    let (ok, out, _) = puzzled(&[
        "solve",
        "--game",
        "tree-paint",
        "--json",
        &data("tree_paint_abc067d_sample2.txt"),
    ]);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["winner"], "second");
    assert_eq!(
        (v["black_count"].as_u64(), v["white_count"].as_u64()),
        (Some(1), Some(3))
    );
    // Swapping the colours' vertices swaps the roles.
    let (ok, out, _) = puzzled(&[
        "solve",
        "--game",
        "tree-paint",
        "--json",
        "--black",
        "4",
        "--white",
        "1",
        &data("tree_paint_abc067d_sample2.txt"),
    ]);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["winner"], "first");
    assert_eq!(v["winning_move"], 2);
}

#[test]
fn game_validation_errors_use_the_file_numbering() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "bipartite-edge",
            "3 3\n1 2\n2 3\n3 1\n",
            vec![],
            "odd cycle through vertices",
        ),
        (
            "tree-paint",
            "4\n1 2\n2 3\n3 1\n",
            vec![],
            "vertex 4 cannot be reached from vertex 1",
        ),
        (
            "tree-paint",
            "4\n1 4\n4 2\n2 3\n",
            vec!["--black", "2", "--white", "2"],
            "both are 2",
        ),
        (
            "tree-paint",
            "4\n1 4\n4 2\n2 3\n",
            vec!["--white", "5"],
            "--white: vertex 5 is not in the graph",
        ),
        ("tree-paint", "1\n", vec![], "at least 2 vertices"),
    ];
    for (i, (game, text, flags, expected)) in cases.into_iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.txt"));
        std::fs::write(&path, text).unwrap();
        let path = path.to_string_lossy().into_owned();
        let mut args = vec!["solve", "--game", game];
        args.extend(flags);
        args.push(&path);
        let (ok, out, err) = puzzled(&args);
        assert!(!ok, "case {i} should fail, printed {out}");
        assert!(err.contains(expected), "case {i}: {err}");
    }
}

#[test]
fn too_many_edges_for_a_tree_names_a_cycle_in_file_numbering() {
    let dir = tempfile::tempdir().unwrap();
    // The contest layout of tree paint always has N − 1 edges, so too many
    // edges only show up in the edge-list layout.
    let zero = dir.path().join("z.txt");
    std::fs::write(&zero, "4 4\n0 1\n1 2\n2 0\n2 3\n").unwrap();
    let zero = zero.to_string_lossy().into_owned();
    let (ok, _, err) = puzzled(&[
        "solve",
        "--game",
        "tree-paint",
        "--format",
        "zero-based",
        &zero,
    ]);
    assert!(!ok);
    assert!(err.contains("4 vertices but 4 edges"), "{err}");
    let mut cycle: Vec<u32> = err
        .rsplit("vertices ")
        .next()
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    cycle.sort();
    assert_eq!(cycle, vec![0, 1, 2], "{err}");
}

/// Every graph on 5 labelled vertices (1,024 of them) as graph6 lines on
/// standard input: one JSON line each, in input order, whose evidence the
/// independent checker accepts from start 0; sparse6 gives the same lines.
#[test]
fn graph6_and_sparse6_streams_get_one_json_line_per_graph() {
    let pairs: Vec<(u32, u32)> = (0..5u32)
        .flat_map(|j| (0..j).map(move |i| (i, j)))
        .collect();
    let graphs: Vec<Vec<(u32, u32)>> = (0..1u32 << pairs.len())
        .map(|mask| {
            pairs
                .iter()
                .enumerate()
                .filter(|(bit, _)| mask >> bit & 1 == 1)
                .map(|(_, &e)| e)
                .collect()
        })
        .collect();
    let graph6: String = graphs
        .iter()
        .map(|g| puzzled::graph::graph6::to_graph6(5, g.iter().copied()) + "\n")
        .collect();
    let sparse6: String = graphs
        .iter()
        .map(|g| puzzled::graph::graph6::to_sparse6(5, g.iter().copied()) + "\n")
        .collect();
    let args = |format| {
        [
            "solve",
            "--game",
            "geography",
            "--format",
            format,
            "--start",
            "0",
            "--json",
            "-",
        ]
    };
    let (ok, out, err) = puzzled_with_stdin(&args("graph6"), &graph6);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), graphs.len());
    for (edges, line) in graphs.iter().zip(&lines) {
        let v: Value = serde_json::from_str(line).unwrap();
        let winner = match v["winner"].as_str().unwrap() {
            "first" => Winner::First,
            _ => Winner::Second,
        };
        let matching: Vec<(u32, u32)> = v["matching"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_u64().unwrap() as u32, p[1].as_u64().unwrap() as u32))
            .collect();
        // graph6 numbers vertices from 0, as the output does.
        let zero_based = |value: &Value| -> Vec<u32> {
            value
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect()
        };
        let start_barrier = v["start_barrier"]
            .as_array()
            .map(|_| zero_based(&v["start_barrier"]));
        check_geography(
            &PlainGraph::new(5, edges),
            0,
            winner,
            &matching,
            &zero_based(&v["barrier"]),
            start_barrier.as_deref(),
        )
        .unwrap_or_else(|e| panic!("{edges:?}: {e}"));
    }
    let (ok, sparse_out, err) = puzzled_with_stdin(&args("sparse6"), &sparse6);
    assert!(ok, "{err}");
    assert_eq!(sparse_out, out);
}

/// In a stream, a graph the game cannot take gets its reason as its line
/// and the run goes on; a line that is not graph6 stops it, naming the line.
#[test]
fn graph6_streams_report_bad_graphs_and_bad_lines() {
    // A triangle (not bipartite), then a 4-cycle.
    let input = ">>graph6<<Bw\nCr\n";
    let (ok, out, err) = puzzled_with_stdin(
        &[
            "solve",
            "--game",
            "bipartite-edge",
            "--format",
            "graph6",
            "-",
        ],
        input,
    );
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("line 1: ") && lines[0].contains("odd cycle"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("line 2: game: bipartite edge"),
        "{out}"
    );
    let (ok, out, err) = puzzled_with_stdin(
        &["solve", "--game", "geography", "--format", "graph6", "-"],
        "Cr\nC r\n",
    );
    assert!(!ok);
    assert_eq!(
        out.lines().count(),
        1,
        "the good line before it was answered"
    );
    assert!(
        err.contains("line 2: byte 1 is 0x20, outside the range 63..=126 of the format"),
        "{err}"
    );
}

#[test]
fn analyze_prints_the_position_in_the_file_numbering() {
    // The 8-vertex tree from vertex 1: a second-player win; after the only
    // sensible first moves the analysis must agree with the checker's
    // search, in the file's 1-based labels.
    let (n, edges) = contest_edges("geography_tree8.txt");
    let (ok, out, err) = puzzled(&[
        "analyze",
        "--game",
        "geography",
        "--json",
        &data("geography_tree8.txt"),
    ]);
    assert!(ok, "{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["to_move"], "first");
    assert_eq!(json["winner"], "second");
    let legal = json["legal_moves"].as_array().unwrap();
    // Vertices are numbers, as `solve --json` prints them.
    let first = legal[0].as_u64().expect("a vertex as a number") as u32;
    let (ok, out, err) = puzzled(&[
        "analyze",
        "--game",
        "geography",
        "--json",
        "--moves",
        &first.to_string(),
        &data("geography_tree8.txt"),
    ]);
    assert!(ok, "{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["to_move"], "second");
    // The evidence is about the remaining graph (vertex 1 deleted).
    let token = first - 1;
    let remaining: Vec<(u32, u32)> = edges
        .iter()
        .copied()
        .filter(|&(u, v)| u != 0 && v != 0)
        .collect();
    let matching: Vec<(u32, u32)> = json["evidence"]["matching"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let p = vertices(p);
            (p[0], p[1])
        })
        .collect();
    let mover_wins = json["winner"] == "second";
    let token_barrier = json["evidence"]["token_barrier"]
        .as_array()
        .map(|_| vertices(&json["evidence"]["token_barrier"]));
    check_geography(
        &PlainGraph::new(n, &remaining),
        token,
        if mover_wins {
            Winner::First
        } else {
            Winner::Second
        },
        &matching,
        &vertices(&json["evidence"]["barrier"]),
        token_barrier.as_deref(),
    )
    .unwrap();
    // Text, and an illegal list named by its move number.
    let (ok, out, _) = puzzled(&[
        "analyze",
        "--game",
        "geography",
        &data("geography_tree8.txt"),
    ]);
    assert!(ok);
    assert!(
        out.contains("winner with perfect play: second player"),
        "{out}"
    );
    let (ok, _, err) = puzzled(&[
        "analyze",
        "--game",
        "geography",
        "--moves",
        &format!("{first},1"),
        &data("geography_tree8.txt"),
    ]);
    assert!(!ok);
    assert!(
        err.contains("move 2 (1) is illegal: it was visited already (ALREADY_VISITED)"),
        "{err}"
    );
    let (ok, _, err) = puzzled(&[
        "analyze",
        "--game",
        "bipartite-edge",
        "--moves",
        "3",
        &data("bipartite_edge_abc398g_sample1.txt"),
    ]);
    assert!(!ok);
    assert!(
        err.contains("--moves: move 1: `3`: a move of the edge game is an edge, written u-v"),
        "{err}"
    );
}

#[test]
fn play_in_the_terminal_against_the_engine() {
    // Fennec VS. Snuke, sample 1: the first player (black) wins. The person
    // plays white against the engine, asks for a hint, tries an illegal
    // move, then plays on until the game ends.
    // Every vertex, round after round: the illegal ones are refused and the
    // person tries the next, so the game goes on to its end.
    let input = "hint\n1\n".to_owned()
        + &(0..7)
            .flat_map(|_| 1..=7)
            .map(|v| format!("{v}\n"))
            .collect::<String>();
    let (ok, out, err) = puzzled_with_stdin(
        &[
            "play",
            "--game",
            "tree-paint",
            "--side",
            "second",
            &data("tree_paint_abc067d_sample1.txt"),
        ],
        &input,
    );
    assert!(ok, "{err}");
    assert!(out.starts_with("you play the second player"), "{out}");
    assert!(out.contains("engine: "), "{out}");
    assert!(
        out.contains("hint: every move loses against perfect play"),
        "{out}"
    );
    assert!(
        out.contains("is illegal: it is painted already (ALREADY_PAINTED); try again"),
        "{out}"
    );
    assert!(out.contains("game over"), "{out}");
    assert!(out.trim_end().ends_with("the engine wins"), "{out}");
}

/// A few bytes of sparse6 can announce a hundred million vertices; the
/// CLI checks the size limits (the server's flags and defaults) before it
/// allocates anything for the graph, and names the flag. In a stream the
/// line gets the error and the run goes on.
#[test]
fn a_tiny_line_announcing_a_huge_graph_is_refused_by_the_limits() {
    let huge = puzzled::graph::graph6::to_sparse6(100_000_000, [(0, 1)]);
    assert!(huge.len() < 20, "{huge}");
    let (ok, out, _) = puzzled_with_stdin(
        &["solve", "--game", "geography", "--format", "sparse6", "-"],
        &format!("{huge}\n"),
    );
    assert!(ok);
    assert!(
        out.contains("line 1: 100000000 vertices, more than --max-vertices 10000000"),
        "{out}"
    );
    let (ok, out, _) = puzzled_with_stdin(
        &[
            "solve",
            "--game",
            "geography",
            "--format",
            "sparse6",
            "--max-vertices",
            "1",
            "-",
        ],
        ":An\n",
    );
    assert!(ok);
    assert!(out.contains("more than --max-vertices 1"), "{out}");
    let edges = "3 2\n1 2\n2 3\n";
    let (ok, _, err) = puzzled_with_stdin(
        &["solve", "--game", "geography", "--max-edges", "1", "-"],
        edges,
    );
    assert!(!ok);
    assert!(err.contains("2 edges, more than --max-edges 1"), "{err}");
}

/// Counts read as English: one edge, one winning edge, one vertex.
#[test]
fn counts_of_one_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one_edge.txt");
    std::fs::write(&file, "3 1\n1 2\n").unwrap();
    let file = file.to_str().unwrap();
    let (ok, out, err) = puzzled(&["solve", "--game", "geography", "--start", "3", file]);
    assert!(ok, "{err}");
    assert!(out.contains("3 vertices, 1 edge, start 3"), "{out}");
    let (ok, out, err) = puzzled(&["analyze", "--game", "geography", "--start", "3", file]);
    assert!(ok, "{err}");
    assert!(
        out.contains("maximum matching of 1 edge (leaving out the token), barrier of 0 vertices"),
        "{out}"
    );
    std::fs::write(dir.path().join("k2.txt"), "2 0\n").unwrap();
    let (ok, out, err) = puzzled(&[
        "solve",
        "--game",
        "bipartite-edge",
        dir.path().join("k2.txt").to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("1 winning edge in all"), "{out}");
}

/// An error's causes are printed once each, though hyper's connect error
/// wraps another under the same message.
#[test]
fn an_unreachable_server_is_named_once_per_cause() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (ok, _, err) = puzzled(&["healthcheck", "--addr", &format!("http://127.0.0.1:{port}")]);
    assert!(!ok);
    assert!(err.contains("tcp connect error"), "{err}");
    assert_eq!(err.matches("tcp connect error").count(), 1, "{err}");
}

/// The games solved by search from a contest file (pairs read as arcs) and
/// from a digraph6 stream: verdicts, winning moves and certificates in the
/// file's numbering, and positions with the edge game's own reasons.
#[test]
fn the_games_solved_by_search_read_arcs_and_digraph6() {
    // 1→2, 2→1, 2→3, 3→1 from 1: the first player moves 1→2; the second
    // has 2→1 (then the first is stuck at 1 with 1→2 used: second wins) or
    // 2→3 (then 3→1, and the second is stuck at 1): so 1→2 loses for the
    // first player, the only move: the second player wins.
    let file = data("directed_edge_geography_3.txt");
    let (ok, out, err) = puzzled(&["solve", "--game", "directed-edge-geography", &file]);
    assert!(ok, "{err}");
    assert!(out.contains("winner: second player"), "{out}");
    assert!(out.contains("strategy certificate: "), "{out}");
    let (ok, out, err) = puzzled(&[
        "solve",
        "--game",
        "directed-edge-geography",
        "--json",
        &file,
    ]);
    assert!(ok, "{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["winner"], "second");
    assert_eq!(
        json["strategy"]["moves"][0], 1,
        "the root is the start, 1-based"
    );
    // After 1→2, 2→1 the token's only arc is used: the game is over.
    let (ok, _, err) = puzzled(&[
        "analyze",
        "--game",
        "directed-edge-geography",
        "--moves",
        "2,1,2",
        &file,
    ]);
    assert!(!ok);
    assert!(
        err.contains("move 3 (2) is illegal: the game is over (GAME_OVER)"),
        "{err}"
    );
    // As vertex Geography, 1 is visited from the start.
    let (ok, _, err) = puzzled(&[
        "analyze",
        "--game",
        "directed-vertex-geography",
        "--moves",
        "2,1",
        &file,
    ]);
    assert!(!ok);
    assert!(
        err.contains("move 2 (1) is illegal: it was visited already (ALREADY_VISITED)"),
        "{err}"
    );
    let (ok, out, err) = puzzled(&[
        "analyze",
        "--game",
        "directed-vertex-geography",
        "--moves",
        "2",
        &file,
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("states searched"), "{out}");
    // digraph6 of 0→1, 1→2 and of the 2-cycle 0⇄1, one JSON line each.
    let lines = format!(
        "{}\n{}\n",
        puzzled::graph::graph6::to_digraph6(3, [(0, 1), (1, 2)]),
        puzzled::graph::graph6::to_digraph6(2, [(0, 1), (1, 0)])
    );
    let (ok, out, err) = puzzled_with_stdin(
        &[
            "solve",
            "--game",
            "directed-vertex-geography",
            "--format",
            "digraph6",
            "--json",
            "-",
        ],
        &lines,
    );
    assert!(ok, "{err}");
    let results: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // 0→1→2: two forced moves, the first player is stuck: second wins.
    assert_eq!(results[0]["winner"], "second");
    // 0→1 then 1→0 is a visited vertex: the first player wins.
    assert_eq!(results[1]["winner"], "first");
    assert_eq!(results[1]["winning_moves"], serde_json::json!([1]));
    let (ok, out, _) = puzzled_with_stdin(
        &[
            "solve",
            "--game",
            "directed-edge-geography",
            "--format",
            "digraph6",
            "-",
        ],
        &lines,
    );
    assert!(ok);
    // As edge Geography the 2-cycle is walked round: second wins.
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .contains("winner: second player"),
        "{out}"
    );
}
