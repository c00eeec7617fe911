//! graph6 / sparse6 and the canonical hash against nauty's own tools: for
//! every graph on up to 7 vertices from `geng`, and random graphs from
//! `genrang` up to 300 vertices, our reader gives `showg`'s edge lists, our
//! graph6 writer gives the line back byte for byte, and our sparse6 writer
//! gives `copyg -s`'s line byte for byte; and two puzzles share a canonical
//! hash exactly when `labelg` gives them the same canonical form. The same
//! for digraph6 and the directed games' hash on every digraph on up to 4
//! vertices from `directg`.
//!
//! Needs nauty's tools (Debian's `nauty` package installs them as
//! `nauty-geng`, …; elsewhere they are `geng`, …). Without them the test
//! prints one line and passes; with `PUZZLED_TEST_NAUTY=1` (as CI sets) a
//! missing tool fails it.

use std::io::Write as _;
use std::process::{Command, Stdio};

use std::collections::HashMap;
use std::time::Duration;

use puzzled::canon::{self, TRACES};
use puzzled::graph::graph6::{
    parse_digraph6, parse_graph6, parse_sparse6, to_digraph6, to_graph6, to_sparse6,
};
use puzzled::puzzle::{Game, Limits, RawSpec, Spec};
use puzzled_testkit::random::{Rng as _, XorShift};

const ENABLE: &str = "PUZZLED_TEST_NAUTY";

/// The name nauty's `tool` has on this machine, if it is installed.
fn nauty_tool(tool: &str) -> Option<String> {
    [format!("nauty-{tool}"), tool.to_owned()]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--help")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok()
        })
}

/// Runs nauty's `tool` with `args`, `input` on its standard input.
fn run(tool: &str, args: &[&str], input: &str) -> String {
    let name = nauty_tool(tool).expect("checked before");
    let mut child = Command::new(&name)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "{name} {args:?} failed");
    String::from_utf8(output.stdout).unwrap()
}

fn tools_present() -> bool {
    let missing: Vec<&str> = ["geng", "genrang", "copyg", "showg", "labelg"]
        .into_iter()
        .filter(|tool| nauty_tool(tool).is_none())
        .collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var(ENABLE).is_ok_and(|v| v == "1") {
        panic!("{ENABLE}=1 but nauty's {missing:?} are not on PATH (apt-get install nauty)");
    }
    let _ = writeln!(
        std::io::stderr(),
        "skipped: the graph6/sparse6 comparison needs nauty's tools (apt-get install nauty; {ENABLE}=1 makes their absence an error)"
    );
    false
}

/// `showg -e -q` output: per graph `n m` then `m` pairs.
fn showg_edges(text: &str) -> Vec<(u64, Vec<(u32, u32)>)> {
    let mut numbers = text.split_whitespace().map(|t| t.parse::<u64>().unwrap());
    let mut graphs = Vec::new();
    while let Some(n) = numbers.next() {
        let m = numbers.next().unwrap();
        let edges = (0..m)
            .map(|_| {
                let (u, v) = (numbers.next().unwrap(), numbers.next().unwrap());
                (u.min(v) as u32, u.max(v) as u32)
            })
            .collect();
        graphs.push((n, edges));
    }
    graphs
}

fn sorted_pairs(flat: &[u32]) -> Vec<(u32, u32)> {
    let mut pairs: Vec<(u32, u32)> = flat
        .chunks(2)
        .map(|e| (e[0].min(e[1]), e[0].max(e[1])))
        .collect();
    pairs.sort_unstable();
    pairs
}

#[test]
fn graph6_and_sparse6_agree_with_nauty_byte_for_byte() {
    if !tools_present() {
        return;
    }
    let mut corpus = String::new();
    for n in 1..=7 {
        corpus.push_str(&run("geng", &["-q", &n.to_string()], ""));
    }
    // Edge probability 1/p, fixed seeds.
    for (n, p) in [(30, 5), (70, 2), (150, 20), (300, 50)] {
        let (p, seed, n) = (format!("-P{p}"), format!("-S{n}"), n.to_string());
        corpus.push_str(&run("genrang", &["-q", "-g", &p, &seed, &n, "25"], ""));
    }
    let lines: Vec<&str> = corpus.lines().collect();
    assert!(lines.len() > 1000, "{} graphs", lines.len());
    let sparse: Vec<String> = run("copyg", &["-s", "-q"], &corpus)
        .lines()
        .map(str::to_owned)
        .collect();
    let shown = showg_edges(&run("showg", &["-e", "-q"], &corpus));
    assert_eq!(sparse.len(), lines.len());
    assert_eq!(shown.len(), lines.len());
    for ((line, s6), (n, edges)) in lines.iter().zip(&sparse).zip(&shown) {
        let mut expected = edges.clone();
        expected.sort_unstable();
        let ours = parse_graph6(line.as_bytes()).unwrap();
        assert_eq!(ours.vertex_count, *n, "{line}");
        assert_eq!(sorted_pairs(&ours.edges), expected, "{line}");
        let n = *n as u32;
        assert_eq!(to_graph6(n, expected.iter().copied()), *line);
        assert_eq!(to_sparse6(n, expected.iter().copied()), *s6, "{line}");
        let back = parse_sparse6(s6.as_bytes()).unwrap();
        assert_eq!(sorted_pairs(&back.edges), expected, "{s6}");
    }
}

/// Every graph on up to 7 vertices from `geng`, with every start: each
/// (graph, start) is relabelled so that the start is vertex 0 and the other
/// vertices are shuffled, then labelled canonically by `labelg -fa` (vertex
/// 0 in a cell of its own) and hashed by us as a Geography puzzle starting
/// at 0: two puzzles share our hash exactly when labelg gives them the same
/// canonical graph. (labelg's Traces mode, `-t`, takes no partition; the
/// uncoloured comparison below uses it.)
#[test]
fn canonical_hashes_agree_with_labelg() {
    if !tools_present() {
        return;
    }
    let mut inputs: Vec<(u32, Vec<(u32, u32)>)> = Vec::new();
    let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
    for n in 1..=7u32 {
        for line in run("geng", &["-q", &n.to_string()], "").lines() {
            let graph = parse_graph6(line.as_bytes()).unwrap();
            let edges: Vec<(u32, u32)> = graph.edges.chunks(2).map(|e| (e[0], e[1])).collect();
            for start in 0..n {
                inputs.push((n, start_at_zero(n, &edges, start, &mut rng)));
            }
        }
    }
    let corpus: String = inputs
        .iter()
        .map(|(n, edges)| to_graph6(*n, edges.iter().copied()) + "\n")
        .collect();
    let labelled: Vec<String> = run("labelg", &["-q", "-g", "-fa"], &corpus)
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(labelled.len(), inputs.len());

    let classes = hashes_follow_forms(Game::Geography, TRACES, &inputs, &labelled);
    // Orbits of starts: far fewer forms than inputs, far more than graphs.
    assert!(classes > 1_300 && classes < inputs.len());
}

/// With no distinguished vertices (the edge game), for every bipartite
/// graph on up to 7 vertices and shuffled copies of each: two share our
/// hash exactly when Traces gives them the same form through `labelg -t`;
/// and on regular graphs of degree two or more (nothing is peeled and
/// refinement splits nothing, so Traces labels the whole graph uncoloured)
/// our canonical graph is that form, byte for byte. Elsewhere trees and
/// refined colours are labelled our own way, not Traces'.
#[test]
fn uncoloured_canonical_graphs_are_labelg_traces_forms() {
    if !tools_present() {
        return;
    }
    let mut corpus = String::new();
    let mut inputs: Vec<(u32, Vec<u32>)> = Vec::new();
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    for n in 1..=7u32 {
        for line in run("geng", &["-q", "-b", &n.to_string()], "").lines() {
            let graph = parse_graph6(line.as_bytes()).unwrap();
            for _ in 0..3 {
                let perm = rng.permutation(n);
                let edges: Vec<u32> = graph.edges.iter().map(|&v| perm[v as usize]).collect();
                corpus.push_str(&to_graph6(n, sorted_pairs(&edges)));
                corpus.push('\n');
                inputs.push((n, edges));
            }
        }
    }
    let labelled: Vec<String> = run("labelg", &["-q", "-t", "-g"], &corpus)
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(labelled.len(), inputs.len());
    let mut form_of_hash: HashMap<String, &str> = HashMap::new();
    let mut hash_of_form: HashMap<&str, String> = HashMap::new();
    let mut compared = 0;
    for ((n, edges), form) in inputs.iter().zip(&labelled) {
        let spec = Spec::validate(
            RawSpec::new(Game::BipartiteEdge, (*n).into(), edges.clone()),
            Limits::NONE,
        )
        .unwrap();
        let canonical = canon::canonicalize(&spec, Duration::from_secs(60));
        assert_eq!(canonical.canonicaliser, TRACES);
        let graph = spec.graph();
        let degree = graph.degree(0);
        if degree >= 2 && (0..*n).all(|v| graph.degree(v) == degree) {
            let mut ours = Vec::new();
            canon::for_each_edge_in(graph, &canonical.labelling, |u, v| ours.push((u, v)));
            assert_eq!(to_graph6(*n, ours), *form, "Traces' canonical graph");
            compared += 1;
        }
        assert_eq!(
            *form_of_hash.entry(canonical.hash.clone()).or_insert(form),
            form.as_str(),
            "one hash, two labelg forms"
        );
        assert_eq!(
            *hash_of_form.entry(form).or_insert(canonical.hash.clone()),
            canonical.hash,
            "one labelg form, two hashes: {form}"
        );
    }
    assert!(compared > 5, "{compared} graphs compared byte for byte");
}

/// digraph6 and the directed games' hash against nauty: every digraph on
/// up to 4 vertices from `geng | directg` (both orientations and 2-cycles),
/// each from every start moved to vertex 0 with the rest shuffled. Our
/// reader gives `showg`'s arcs and our writer the line back byte for byte;
/// two puzzles share a `nauty-digraph-v1` hash exactly when `labelg -fa`
/// (vertex 0, the start, a class of its own) gives them the same form.
#[test]
fn digraph6_and_digraph_hashes_agree_with_nauty() {
    if !tools_present() || nauty_tool("directg").is_none() {
        return;
    }
    let mut corpus = String::new();
    for n in 1..=4 {
        let graphs = run("geng", &["-q", &n.to_string()], "");
        corpus.push_str(&run("directg", &["-q"], &graphs));
    }
    let lines: Vec<&str> = corpus.lines().collect();
    assert!(lines.len() > 200, "{} digraphs", lines.len());
    let shown = run("showg", &["-e", "-q"], &corpus);
    let mut numbers = shown.split_whitespace().map(|t| t.parse::<u32>().unwrap());
    let mut rng = XorShift::new(35);
    let mut inputs: Vec<(u32, Vec<(u32, u32)>)> = Vec::new();
    for line in &lines {
        let digraph = parse_digraph6(line.as_bytes()).unwrap();
        let n = numbers.next().unwrap();
        let m = numbers.next().unwrap();
        let mut arcs: Vec<(u32, u32)> = (0..m)
            .map(|_| (numbers.next().unwrap(), numbers.next().unwrap()))
            .collect();
        arcs.sort_unstable();
        let mut ours: Vec<(u32, u32)> = digraph.edges.chunks(2).map(|a| (a[0], a[1])).collect();
        ours.sort_unstable();
        assert_eq!(
            (u64::from(n), &ours),
            (digraph.vertex_count, &arcs),
            "{line}"
        );
        assert_eq!(to_digraph6(n, ours.iter().copied()), *line);
        for start in 0..n {
            inputs.push((n, start_at_zero(n, &ours, start, &mut rng)));
        }
    }
    let relabelled: String = inputs
        .iter()
        .map(|(n, arcs)| to_digraph6(*n, arcs.iter().copied()) + "\n")
        .collect();
    let forms: Vec<String> = run("labelg", &["-q", "-fa"], &relabelled)
        .lines()
        .map(str::to_owned)
        .collect();
    let classes = hashes_follow_forms(
        Game::DirectedVertexGeography,
        canon::NAUTY_DIGRAPH,
        &inputs,
        &forms,
    );
    assert!(classes > 100, "{classes} classes");
}

/// The pairs of an `n`-vertex (di)graph relabelled so that `start` is
/// vertex 0 and the other vertices are shuffled.
fn start_at_zero(n: u32, pairs: &[(u32, u32)], start: u32, rng: &mut XorShift) -> Vec<(u32, u32)> {
    let mut perm: Vec<u32> = (0..n).collect();
    perm.swap(0, start as usize);
    rng.shuffle(&mut perm[1..]);
    // perm[new] = old: vertex `old` becomes `new`.
    let mut new_of = vec![0; n as usize];
    for (new, &old) in perm.iter().enumerate() {
        new_of[old as usize] = new as u32;
    }
    pairs
        .iter()
        .map(|&(u, v)| (new_of[u as usize], new_of[v as usize]))
        .collect()
}

/// Checks that the puzzles of `game` on `inputs` (start 0) share a hash,
/// made by `canonicaliser`, exactly when labelg gave them the same form
/// (`forms`, one per input); returns the number of classes.
fn hashes_follow_forms(
    game: Game,
    canonicaliser: &str,
    inputs: &[(u32, Vec<(u32, u32)>)],
    forms: &[String],
) -> usize {
    assert_eq!(forms.len(), inputs.len());
    let mut hash_of_form: HashMap<&str, String> = HashMap::new();
    let mut form_of_hash: HashMap<String, &str> = HashMap::new();
    for ((n, pairs), form) in inputs.iter().zip(forms) {
        let spec = Spec::validate(
            RawSpec::new(
                game,
                (*n).into(),
                pairs.iter().flat_map(|&(u, v)| [u, v]).collect(),
            ),
            Limits::NONE,
        )
        .unwrap();
        let canonical = canon::canonicalize(&spec, Duration::from_secs(60));
        assert_eq!(canonical.canonicaliser, canonicaliser);
        let hash = canonical.hash;
        assert_eq!(
            hash_of_form.entry(form).or_insert_with(|| hash.clone()),
            &hash,
            "one labelg form, two hashes: {form}"
        );
        assert_eq!(
            *form_of_hash.entry(hash).or_insert(form),
            form.as_str(),
            "one hash, two labelg forms"
        );
    }
    hash_of_form.len()
}
