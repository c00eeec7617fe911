//! graph6 / sparse6 against nauty's own tools: for every graph on up to 7
//! vertices from `geng`, and random graphs from `genrang` up to 300
//! vertices, our reader gives `showg`'s edge lists, our graph6 writer gives
//! the line back byte for byte, and our sparse6 writer gives `copyg -s`'s
//! line byte for byte.
//!
//! Needs nauty's tools (Debian's `nauty` package installs them as
//! `nauty-geng`, …; elsewhere they are `geng`, …). Without them the test
//! prints one line and passes; with `PUZZLED_TEST_NAUTY=1` (as CI sets) a
//! missing tool fails it.

use std::io::Write as _;
use std::process::{Command, Stdio};

use puzzled::graph6::{parse_graph6, parse_sparse6, to_graph6, to_sparse6};

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
    let missing: Vec<&str> = ["geng", "genrang", "copyg", "showg"]
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
