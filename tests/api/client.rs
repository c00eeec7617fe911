//! `puzzled client`: the real binary against a real server on an ephemeral
//! port. Each subcommand in text and in JSON, its errors and exit codes
//! (unreachable, refused token, not found, bad files), bulk import with
//! bad lines and re-runs, export → import → export round trips in every
//! layout, an export cut by Ctrl-C and resumed, a game played through
//! standard input, completions, and no progress output off a terminal.

use std::collections::BTreeSet;
use std::io::{BufRead as _, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::helpers::*;
use crate::run::{self, Run};
use crate::tls::{Certificates, tls_server};

/// `puzzled ARGS`, run from the repository's root with `input` on standard
/// input and `env` set (and none of the client's variables inherited).
async fn puzzled(
    args: Vec<String>,
    input: Option<String>,
    env: Vec<(&'static str, String)>,
) -> Run {
    let mut command = run::puzzled();
    command
        .args(&args)
        .env_remove("PUZZLED_SERVER")
        .env_remove("PUZZLED_TOKEN")
        .env_remove("PUZZLED_CA_CERT")
        .envs(env);
    run_to_the_end(command, input).await
}

/// Runs `command`, `input` on its standard input (none: nothing to read),
/// to its end, off the async runtime.
async fn run_to_the_end(command: Command, input: Option<String>) -> Run {
    tokio::task::spawn_blocking(move || run::run(command, input))
        .await
        .unwrap()
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn server(app: &TestApp) -> String {
    format!("http://{}", app.addr())
}

/// `puzzled client --server APP ARGS`.
async fn client(app: &TestApp, args: &[&str]) -> Run {
    let mut all = strings(&["client", "--server", &server(app)]);
    all.extend(strings(args));
    puzzled(all, None, vec![]).await
}

/// `puzzled client --server APP ARGS` with `input` on standard input.
async fn client_with_input(app: &TestApp, args: &[&str], input: &str) -> Run {
    let mut all = strings(&["client", "--server", &server(app)]);
    all.extend(strings(args));
    puzzled(all, Some(input.to_owned()), vec![]).await
}

/// The local command line (no server), for the outputs the client shares.
async fn local(args: &[&str], input: Option<&str>) -> Run {
    puzzled(strings(args), input.map(str::to_owned), vec![]).await
}

/// `puzzled client --server APP create --json --game GAME
/// tests/data/FILE`: the stored puzzle, as the client prints it.
async fn create_json(app: &TestApp, game: &str, file: &str) -> Value {
    client(app, &["create", "--json", "--game", game, &data(file)])
        .await
        .ok()
        .json()
}

fn data(name: &str) -> String {
    format!("tests/data/{name}")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// The value of the first `KEY: value` line of a text output.
#[track_caller]
fn field(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no {key:?} in\n{text}"))
        .to_owned()
}

/// Every stored puzzle (full view), by the server's own client.
async fn stored(app: &TestApp) -> Vec<proto::Puzzle> {
    let mut puzzles = Vec::new();
    let mut page_token = String::new();
    loop {
        let page = app
            .client
            .clone()
            .list_puzzles(proto::ListPuzzlesRequest {
                page_size: 1000,
                page_token,
                view: proto::PuzzleView::Full as i32,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        puzzles.extend(page.puzzles);
        if page.next_page_token.is_empty() {
            return puzzles;
        }
        page_token = page.next_page_token;
    }
}

/// The stored puzzles' canonical hashes, as a sorted list (copies kept).
async fn hashes(app: &TestApp) -> Vec<String> {
    let mut hashes: Vec<String> = stored(app)
        .await
        .into_iter()
        .map(|p| p.canonical_hash)
        .collect();
    hashes.sort();
    hashes
}

/// The API's game of a `--game` value.
fn proto_game(flag: &str) -> i32 {
    (match flag {
        "geography" => proto::Game::Geography,
        "bipartite-edge" => proto::Game::BipartiteEdge,
        "tree-paint" => proto::Game::TreePaint,
        "directed-vertex-geography" => proto::Game::DirectedVertexGeography,
        "undirected-edge-geography" => proto::Game::UndirectedEdgeGeography,
        "directed-edge-geography" => proto::Game::DirectedEdgeGeography,
        other => panic!("no game {other}"),
    }) as i32
}

/// A second, empty server.
async fn empty_server() -> TestApp {
    spawn_app().await
}

#[tokio::test]
async fn health_create_get_list_and_delete_in_text_and_in_json() {
    let app = spawn_app().await;
    assert_eq!(client(&app, &["health"]).await.ok().stdout, "SERVING\n");
    assert_eq!(
        client(&app, &["health", "--json"]).await.ok().json(),
        json!({"status": "SERVING"})
    );

    // A contest file, 1-based: its start 2 is the API's vertex 1, and the
    // puzzle keeps its numbering, in which it is shown.
    let created = client(
        &app,
        &[
            "create",
            "--game",
            "geography",
            "--start",
            "2",
            "--title",
            "a path",
            "--author",
            "tests",
            &data("geography_path3.txt"),
        ],
    )
    .await
    .ok();
    let path = field(&created.stdout, "name");
    assert!(path.starts_with("puzzles/"), "{created}");
    assert_eq!(field(&created.stdout, "title"), "a path");
    assert_eq!(
        field(&created.stdout, "game"),
        "geography, 3 vertices, 2 edges, start 2"
    );
    assert_eq!(field(&created.stdout, "vertices numbered from"), "1");
    let read = app.read(&path).await;
    let spec = read.spec.unwrap();
    assert_eq!((spec.start, spec.author.as_str()), (1, "tests"));
    assert_eq!(spec.numbered_from, 1);
    assert_eq!(spec.graph.unwrap().edges, [0, 1, 1, 2]);

    // --json prints the API's own message, as grpcurl prints it.
    let tree = create_json(&app, "tree-paint", "tree_paint_abc067d_sample1.txt").await;
    let tree_name = tree["name"].as_str().unwrap().to_owned();
    assert_eq!(tree["spec"]["game"], "GAME_TREE_PAINT", "{tree}");
    assert_eq!(
        (&tree["spec"]["black"], &tree["spec"]["white"]),
        (&json!(0), &json!(6))
    );
    assert_eq!(
        tree["edgeCount"], "6",
        "64-bit integers are strings: {tree}"
    );
    assert_eq!(tree["spec"]["graph"]["vertexCount"], 7, "{tree}");

    let got = client(&app, &["get", &path]).await.ok();
    assert_eq!(field(&got.stdout, "edges"), "1-2 2-3", "{got}");
    assert_eq!(field(&got.stdout, "winner"), "not solved yet", "{got}");
    let basic = client(&app, &["get", "--basic", "--json", &tree_name])
        .await
        .ok()
        .json();
    assert_eq!(basic["name"], tree_name.as_str());
    assert!(basic["spec"]["graph"].get("edges").is_none(), "{basic}");
    assert_eq!(basic["edgeCount"], "6");

    // Lists: newest first, a page at a time or all of them.
    let listed = client(&app, &["list"]).await.ok();
    let lines: Vec<&str> = listed.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{listed}");
    assert!(
        lines[0].starts_with(&format!(
            "{tree_name}  tree paint, 7 vertices, black 1, white 7"
        )),
        "{listed}"
    );
    assert!(lines[1].contains("\"a path\""), "{listed}");
    let page = client(&app, &["list", "--page-size", "1"]).await.ok();
    assert!(page.stdout.contains("more: --page-token "), "{page}");
    let token = page
        .stdout
        .lines()
        .last()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap();
    let next = client(&app, &["list", "--page-size", "1", "--page-token", token])
        .await
        .ok();
    assert!(next.stdout.starts_with(&path), "{next}");
    let pages = client(&app, &["list", "--all", "--page-size", "1", "--json"])
        .await
        .ok()
        .json_lines();
    assert_eq!(pages.len(), 2, "one ListPuzzlesResponse a page: {pages:?}");
    assert_eq!(pages[0]["puzzles"][0]["name"], tree_name.as_str());
    assert_eq!(pages[1]["puzzles"][0]["name"], path.as_str());
    let games = client(&app, &["list", "--game", "tree-paint", "--json"])
        .await
        .ok()
        .json();
    assert_eq!(games["puzzles"].as_array().unwrap().len(), 1, "{games}");

    // Delete, in text and in JSON (google.protobuf.Empty); then it is gone.
    assert_eq!(
        client(&app, &["delete", &path]).await.ok().stdout,
        format!("deleted {path}\n")
    );
    assert_eq!(
        client(&app, &["delete", "--json", &tree_name])
            .await
            .ok()
            .json(),
        json!({})
    );
    assert_eq!(client(&app, &["list"]).await.ok().stdout, "no puzzles\n");
    let gone = client(&app, &["get", &path]).await.failed_with(15);
    assert!(
        gone.stderr
            .starts_with("error: NOT_FOUND (PUZZLE_NOT_FOUND): "),
        "{gone}"
    );
    assert!(gone.stdout.is_empty(), "{gone}");
    let malformed = client(&app, &["get", "puzzles/not an id"])
        .await
        .failed_with(13);
    assert!(
        malformed
            .stderr
            .contains("INVALID_ARGUMENT (MALFORMED_NAME): name: "),
        "{malformed}"
    );
}

/// The client's verdicts read as `puzzled solve`'s: the same lines, from
/// the server, in the file's numbering, then the canonical hash.
#[tokio::test]
async fn solve_a_file_says_what_the_local_solve_says_and_a_stored_puzzle_too() {
    let app = spawn_app().await;
    let cases: [(&str, &[&str]); 5] = [
        ("geography", &["--start", "1", &data("geography_tree8.txt")]),
        ("geography", &["--start", "2", &data("geography_path3.txt")]),
        ("tree-paint", &[&data("tree_paint_abc067d_sample1.txt")]),
        (
            "bipartite-edge",
            &[&data("bipartite_edge_abc398g_sample1.txt")],
        ),
        (
            "directed-edge-geography",
            &[&data("directed_edge_geography_3.txt")],
        ),
    ];
    for (game, rest) in cases {
        let mut args = vec!["solve", "--game", game];
        args.extend(rest);
        let locally = local(&args, None).await.ok();
        args.extend(["--winning-moves", "--all-starts"]);
        let remote = client(&app, &args).await.ok();
        assert!(
            remote.stdout.starts_with(&locally.stdout),
            "{game}: local\n{locally}\nclient\n{remote}"
        );
        assert!(
            field(&remote.stdout, "canonical hash").contains(':'),
            "{remote}"
        );
    }

    // A stored puzzle, in the numbering it was made in (the contest file's,
    // from 1), and as JSON (the API's, from 0).
    let created = create_json(&app, "geography", "geography_tree8.txt").await;
    let name = created["name"].as_str().unwrap();
    let solved = client(&app, &["solve", name]).await.ok();
    assert!(
        solved
            .stdout
            .starts_with("game: geography, 8 vertices, 7 edges, start 1\nwinner: second player\n"),
        "{solved}"
    );
    let solution = client(&app, &["solve", "--json", "--all-starts", name])
        .await
        .ok()
        .json();
    assert_eq!(solution["winner"], "PLAYER_SECOND", "{solution}");
    assert_eq!(
        solution["geography"]["secondPlayerStarts"]["vertices"],
        json!([0, 3, 4, 5]),
        "{solution}"
    );
    // File flags with a stored puzzle are a usage error.
    let usage = client(&app, &["solve", name, "--game", "geography"])
        .await
        .failed_with(2);
    assert!(usage.stderr.contains("is a stored puzzle"), "{usage}");
}

/// Moves are typed in the puzzle's numbering: the file's (1-based for a
/// contest file), the one a stored puzzle was made in; the text is the
/// local `analyze`'s, an illegal move is named as typed.
#[tokio::test]
async fn analyze_takes_and_shows_moves_in_the_puzzles_own_numbering() {
    let app = spawn_app().await;
    for moves in ["", "1", "2", "2,4"] {
        let args = [
            "analyze",
            "--game",
            "geography",
            "--start",
            "1",
            "--moves",
            moves,
            &data("geography_tree8.txt"),
        ];
        let locally = local(&args, None).await;
        let remote = client(&app, &args).await;
        if moves == "1" {
            // The start is visited: the first move cannot go back to it.
            let remote = remote.failed_with(13);
            assert_eq!(
                remote.stderr,
                "error: INVALID_ARGUMENT (ALREADY_VISITED): move 1 (1) is illegal: it was \
                 visited already\n",
                "{remote}"
            );
            assert_eq!(
                locally.stderr,
                "error: move 1 (1) is illegal: it was visited already (ALREADY_VISITED)\n",
                "{locally}"
            );
            continue;
        }
        let (locally, remote) = (locally.ok(), remote.ok());
        assert_eq!(remote.stdout, locally.stdout, "--moves {moves:?}");
    }
    let tree = data("tree_paint_abc067d_sample1.txt");
    let args = ["analyze", "--game", "tree-paint", "--moves", "3", &tree];
    assert_eq!(
        client(&app, &args).await.ok().stdout,
        local(&args, None).await.ok().stdout
    );
    let edges = data("bipartite_edge_abc398g_sample1.txt");
    let args = [
        "analyze",
        "--game",
        "bipartite-edge",
        "--moves",
        "1-4",
        &edges,
    ];
    assert_eq!(
        client(&app, &args).await.ok().stdout,
        local(&args, None).await.ok().stdout
    );

    // A stored puzzle takes and shows moves in the numbering it was made
    // in: this one from a contest file, from 1. The JSON is the API's.
    let created = create_json(&app, "geography", "geography_path3.txt").await;
    assert_eq!(created["spec"]["numberedFrom"], 1, "{created}");
    let name = created["name"].as_str().unwrap();
    let position = client(&app, &["analyze", "--json", "--moves", "2", name])
        .await
        .ok()
        .json();
    assert_eq!(position["toMove"], "PLAYER_SECOND", "{position}");
    assert_eq!(position["legalMoves"], json!([{"vertex": 2}]), "{position}");
    let text = client(&app, &["analyze", "--moves", "2", name]).await.ok();
    assert!(text.stdout.contains("legal moves (1): 3"), "{text}");
    // A refused move is said in the same numbering, with no API field.
    let illegal = client(&app, &["analyze", "--moves", "3", name])
        .await
        .failed_with(13);
    assert_eq!(
        illegal.stderr,
        "error: INVALID_ARGUMENT (NOT_ADJACENT): move 1 (3) is illegal: it is not next to the \
         token\n",
        "{illegal}"
    );
    let zero = client(&app, &["analyze", "--moves", "0", name])
        .await
        .failed_with(2);
    assert!(
        zero.stderr
            .contains("there is no vertex 0: this puzzle's numbering starts at 1"),
        "{zero}"
    );
    // One made from a 0-based file is shown from 0.
    let dir = tempfile::tempdir().unwrap();
    let zero_based = write(dir.path(), "path.txt", "3 2\n0 1\n1 2\n");
    let created = client(
        &app,
        &[
            "create",
            "--game",
            "geography",
            "--format",
            "zero-based",
            &zero_based,
        ],
    )
    .await
    .ok();
    assert_eq!(field(&created.stdout, "vertices numbered from"), "0");
    let from_zero = field(&created.stdout, "name");
    let text = client(&app, &["analyze", "--moves", "1", &from_zero])
        .await
        .ok();
    assert!(text.stdout.contains("legal moves (1): 2"), "{text}");
    let typo = client(&app, &["analyze", "--moves", "1-2", name])
        .await
        .failed_with(2);
    assert!(typo.stderr.contains("--moves: move 1"), "{typo}");
}

/// The same game as `puzzled play`'s test: the person plays white in
/// Fennec VS. Snuke, asks for a hint, tries illegal moves, and plays on to
/// the end. Against the server the terminal shows what the local game
/// shows, line for line.
#[tokio::test]
async fn play_through_standard_input_to_the_end_as_the_local_game_plays() {
    let app = spawn_app().await;
    let input = "hint\n1\n".to_owned()
        + &(0..7)
            .flat_map(|_| 1..=7)
            .map(|v| format!("{v}\n"))
            .collect::<String>();
    let args = [
        "play",
        "--game",
        "tree-paint",
        "--side",
        "second",
        &data("tree_paint_abc067d_sample1.txt"),
    ];
    let locally = local(&args, Some(&input)).await.ok();
    let remote = client_with_input(&app, &args, &input).await.ok();
    assert_eq!(remote.stdout, locally.stdout, "{remote}");
    assert!(
        remote
            .stdout
            .contains("is illegal: it is painted already (ALREADY_PAINTED); try again"),
        "{remote}"
    );
    assert!(
        remote.stdout.trim_end().ends_with("the engine wins"),
        "{remote}"
    );

    // A stored puzzle (made from a contest file: numbered from 1), the
    // person first, with JSON Lines: one PlayResponse a message, the last
    // one the final position (the JSON numbers from 0, as the API).
    let created = create_json(&app, "geography", "geography_path3.txt").await;
    let name = created["name"].as_str().unwrap();
    let game = client_with_input(&app, &["play", "--json", name], "3\n2\nhint\nquit\n")
        .await
        .ok();
    let responses = game.json_lines();
    assert_eq!(responses.len(), 3, "{game}");
    assert!(
        responses[1]["rejected"]["reason"] == "NOT_ADJACENT",
        "{game}"
    );
    let last = &responses[2];
    assert_eq!(last["serverMove"], json!({"vertex": 2}), "{game}");
    assert_eq!(last["position"]["gameOver"], true, "{game}");
    // A quit before the end stops at once, cleanly.
    let quit = client_with_input(&app, &["play", name], "quit\n")
        .await
        .ok();
    assert!(
        quit.stdout.starts_with("you play the first player"),
        "{quit}"
    );
    assert!(!quit.stdout.contains("wins"), "{quit}");
}

/// The end of a game is said at once: after the winning move the program
/// prints who won and exits, standard input still open (it waited for one
/// more line before). Here and against a server.
#[tokio::test]
async fn a_game_that_ends_says_who_won_without_waiting_for_another_line() {
    let app = spawn_app().await;
    let game = [
        "play",
        "--game",
        "geography",
        "--start",
        "2",
        &data("geography_path3.txt"),
    ];
    let mut local_args = strings(&game);
    let mut remote_args = strings(&["client", "--server", &server(&app)]);
    remote_args.extend(strings(&game));
    for args in [std::mem::take(&mut local_args), remote_args] {
        let shown = args.join(" ");
        let ended = tokio::task::spawn_blocking(move || {
            let mut child = run::puzzled()
                .args(&args)
                .env_remove("PUZZLED_SERVER")
                .env_remove("PUZZLED_TOKEN")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            // From the middle of 1-2-3, the move to an end wins at once.
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(b"1\n").unwrap();
            stdin.flush().unwrap();
            let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
            let mut said = String::new();
            let mut line = String::new();
            while stdout.read_line(&mut line).unwrap() > 0 {
                said.push_str(&line);
                line.clear();
            }
            // Standard output closed with standard input still open: the
            // program ended by itself.
            let status = child.wait().unwrap();
            drop(stdin);
            (status, said)
        });
        let (status, said) = tokio::time::timeout(std::time::Duration::from_secs(60), ended)
            .await
            .unwrap_or_else(|_| panic!("{shown}: still waiting for input after the game ended"))
            .unwrap();
        assert!(status.success(), "{shown}: {said}");
        assert!(said.contains("game over"), "{shown}: {said}");
        assert!(said.trim_end().ends_with("you win"), "{shown}: {said}");
    }
}

#[tokio::test]
async fn an_unreachable_server_is_named_with_the_exit_code_of_unavailable() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("http://127.0.0.1:{port}");
    let run = puzzled(
        strings(&["client", "--server", &addr, "list"]),
        None,
        vec![],
    )
    .await
    .failed_with(24);
    assert!(
        run.stderr
            .starts_with(&format!("error: UNAVAILABLE: cannot reach {addr}: ")),
        "{run}"
    );
    assert!(run.stderr.contains("tcp connect error"), "{run}");
    // The address can come from the environment as well.
    let run = puzzled(
        strings(&["client", "health"]),
        None,
        vec![("PUZZLED_SERVER", addr.clone())],
    )
    .await
    .failed_with(24);
    assert!(run.stderr.contains(&addr), "{run}");
    // A file that does not read fails first, and alone: no server needed.
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.txt", "3 2\n1 2\n2 x\n");
    let run = puzzled(
        strings(&[
            "client",
            "--server",
            &addr,
            "create",
            "--game",
            "geography",
            &bad,
        ]),
        None,
        vec![],
    )
    .await
    .failed_with(1);
    assert!(run.stderr.contains("line 3"), "{run}");
}

#[tokio::test]
async fn writes_need_a_writers_token_when_the_server_has_writers() {
    const WRITER: &str = "writer-token-0123456789";
    let app = app_with(|config| config.writer_tokens = Some(format!("writer={WRITER}"))).await;
    let file = data("geography_path3.txt");
    let create = ["create", "--game", "geography", file.as_str()];

    let missing = client(&app, &create).await.failed_with(26);
    assert!(
        missing
            .stderr
            .starts_with("error: UNAUTHENTICATED (WRITER_TOKEN_MISSING): "),
        "{missing}"
    );
    let mut wrong = vec!["--token", "not-the-writers-token"];
    wrong.extend(create);
    let wrong = client(&app, &wrong).await.failed_with(17);
    assert!(
        wrong
            .stderr
            .starts_with("error: PERMISSION_DENIED (WRITER_TOKEN_WRONG): "),
        "{wrong}"
    );
    // The token from the environment, sent on every call.
    let mut args = strings(&["client", "--server", &server(&app)]);
    args.extend(strings(&create));
    puzzled(args, None, vec![("PUZZLED_TOKEN", WRITER.to_owned())])
        .await
        .ok();
    // An import with a wrong token stops at its first call, and says so.
    let dir = tempfile::tempdir().unwrap();
    let lines = write(
        dir.path(),
        "p.jsonl",
        r#"{"game":"GAME_GEOGRAPHY","graph":{"vertexCount":2,"edges":[0,1]}}"#,
    );
    let refused = client(
        &app,
        &["--token", "not-the-writers-token", "import", &lines],
    )
    .await
    .failed_with(17);
    assert!(refused.stderr.contains("import stopped"), "{refused}");
    assert!(refused.stderr.contains("WRITER_TOKEN_WRONG"), "{refused}");
    assert_eq!(app.listed().await.len(), 1);
}

/// A file the client cannot read is named with its line; a puzzle the
/// server refuses is named by its file, with the code and reason.
#[tokio::test]
async fn bad_files_are_named_with_their_line_or_their_reason() {
    let app = spawn_app().await;
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "3 2\n1 2\n2 x\n",
            "geography",
            "line 3: expected a vertex id in 1..=3, found \"x\"",
        ),
        (
            "3 3\n1 2\n2 3\n2 1\n",
            "geography",
            "line 4: edge (2, 1) duplicates the edge on line 2",
        ),
    ];
    for (text, game, expected) in cases {
        let path = write(dir.path(), "bad.txt", text);
        let run = client(&app, &["create", "--game", game, &path])
            .await
            .failed_with(1);
        assert!(run.stderr.starts_with("error: "), "{run}");
        assert!(run.stderr.contains(&path), "{run}");
        assert!(run.stderr.contains(expected), "{run}");
    }
    let triangle = write(dir.path(), "triangle.txt", "3 3\n1 2\n2 3\n3 1\n");
    let run = client(&app, &["create", "--game", "bipartite-edge", &triangle])
        .await
        .failed_with(13);
    assert!(
        run.stderr.starts_with(&format!(
            "error: {triangle} (the server numbers vertices from 0): INVALID_ARGUMENT (ODD_CYCLE): "
        )),
        "{run}"
    );
    let missing = client(&app, &["solve", "--game", "geography", "no/such/file.txt"])
        .await
        .failed_with(1);
    assert!(missing.stderr.contains("no/such/file.txt"), "{missing}");
    let no_game = client(&app, &["solve", &data("geography_path3.txt")])
        .await
        .failed_with(2);
    assert!(no_game.stderr.contains("--game"), "{no_game}");
    assert!(app.listed().await.is_empty());
}

/// One line that does not parse and one puzzle the server refuses among
/// good ones: both are named with their line, the rest are stored, and
/// the exit code says that some failed.
#[tokio::test]
async fn an_import_names_its_bad_lines_and_stores_the_rest() {
    let app = spawn_app().await;
    let dir = tempfile::tempdir().unwrap();
    let lines = [
        // A Puzzle as export writes it: only its spec is read.
        r#"{"name":"puzzles/elsewhere","spec":{"game":"GAME_GEOGRAPHY","graph":{"vertexCount":3,"edges":[0,1,1,2]},"start":1},"canonicalHash":"traces-v4:00","edgeCount":"2"}"#,
        "",
        r#"{"game":"GAME_GEOGRAPHY","graph":{"vertexCount":3,"#,
        r#"{"game":"GAME_TREE_PAINT","title":"a tree","graph":{"vertex_count":4,"edges":[0,1,1,2,2,3]},"black":1,"white":3}"#,
        r#"{"game":"GAME_GEOGRAPHY","graph":{"vertexCount":3,"edges":[0,1,1,7]}}"#,
        r#"{"game":"GAME_BIPARTITE_EDGE","graph":{"vertexCount":4,"edges":[0,1]}}"#,
    ];
    let file = write(dir.path(), "puzzles.jsonl", &(lines.join("\n") + "\n"));
    let run = client(&app, &["import", &file]).await.failed_with(3);
    assert_eq!(
        run.stdout, "imported: 3 created, 0 replayed, 2 failed\n",
        "{run}"
    );
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert!(
        errors[0].starts_with(&format!("{file}:3: not JSON: ")),
        "{run}"
    );
    assert!(
        errors[1].starts_with(&format!(
            "{file}:5: INVALID_ARGUMENT VERTEX_OUT_OF_RANGE puzzle.spec.graph.edges[3]: "
        )),
        "{run}"
    );
    assert!(errors[1].contains('7'), "{run}");
    assert_eq!(
        errors[2], "error: 2 of the puzzles were not stored",
        "{run}"
    );
    assert_eq!(errors.len(), 3, "{run}");
    let stored = stored(&app).await;
    assert_eq!(stored.len(), 3);
    let tree = stored
        .iter()
        .find(|p| p.spec.as_ref().unwrap().title == "a tree")
        .expect("the tree is stored");
    assert_eq!(tree.spec.as_ref().unwrap().black, Some(1));
    assert!(
        stored.iter().all(|p| p.name != "puzzles/elsewhere"),
        "names are the server's own"
    );

    // The same import as JSON Lines: a line an item, then the totals; run
    // again, what was stored is replayed.
    let run = client(&app, &["import", "--json", &file])
        .await
        .failed_with(3);
    let out = run.json_lines();
    assert_eq!(out.len(), 6, "{run}");
    assert_eq!(out[0]["source"], format!("{file}:1"));
    assert_eq!(
        out[0]["result"]["outcome"], "IMPORT_OUTCOME_REPLAYED",
        "{run}"
    );
    assert_eq!(out[1]["source"], format!("{file}:3"));
    assert!(
        out[1]["error"].as_str().unwrap().starts_with("not JSON"),
        "{run}"
    );
    assert_eq!(out[3]["result"]["reason"], "VERTEX_OUT_OF_RANGE", "{run}");
    assert_eq!(out[5], json!({"created": 0, "replayed": 3, "failed": 2}));
    assert_eq!(hashes(&app).await.len(), 3);

    // The graph formats: a line that is not a simple graph, and one that
    // is not sparse6 at all, each named once with its line.
    let good = puzzled::graph::graph6::to_sparse6(3, [(0, 1), (1, 2)]);
    let looped = puzzled::graph::graph6::to_sparse6(3, [(0, 1), (1, 1)]);
    let file = write(
        dir.path(),
        "graphs.s6",
        &format!("{good}\n{looped}\nnot sparse6\n"),
    );
    let run = client(
        &app,
        &[
            "import",
            "--format",
            "sparse6",
            "--game",
            "geography",
            &file,
        ],
    )
    .await
    .failed_with(3);
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert!(errors[0].starts_with(&format!("{file}:2: ")), "{run}");
    assert!(errors[0].contains("self-loop"), "{run}");
    assert_eq!(errors[0].matches(file.as_str()).count(), 1, "{run}");
    assert_eq!(
        errors[1],
        format!("{file}:3: a sparse6 line starts with ':'")
    );
    assert_eq!(run.stdout, "imported: 1 created, 0 replayed, 2 failed\n");
}

/// More puzzles than one ImportPuzzles call takes, imported twice: the
/// second run stores nothing, and identical lines are each a puzzle.
#[tokio::test]
async fn an_import_run_again_stores_nothing_twice() {
    let app = spawn_app().await;
    let dir = tempfile::tempdir().unwrap();
    let count = puzzled::api::MAX_IMPORT_PUZZLES + 5;
    let lines: String = (0..count)
        .map(|i| {
            let n = 3 + (i % 5) as u32;
            let path: Vec<(u32, u32)> = (1..n).map(|v| (v - 1, v)).collect();
            puzzled::graph::graph6::to_graph6(n, path) + "\n"
        })
        .collect();
    let file = write(dir.path(), "paths.g6", &lines);
    let import = [
        "import",
        "--format",
        "graph6",
        "--game",
        "geography",
        file.as_str(),
    ];
    let first = client(&app, &import).await.ok();
    assert_eq!(
        first.stdout,
        format!("imported: {count} created, 0 replayed, 0 failed\n"),
        "{first}"
    );
    let again = client(&app, &import).await.ok();
    assert_eq!(
        again.stdout,
        format!("imported: 0 created, {count} replayed, 0 failed\n"),
        "{again}"
    );
    assert_eq!(stored(&app).await.len(), count);
    // The ids do not depend on the file's name.
    let renamed = write(dir.path(), "renamed.g6", &lines);
    let moved = client(
        &app,
        &[
            "import",
            "--format",
            "graph6",
            "--game",
            "geography",
            &renamed,
        ],
    )
    .await
    .ok();
    assert!(moved.stdout.contains(" 0 created"), "{moved}");
}

/// export → import into an empty server → export gives the same puzzles,
/// names aside: whole specs in JSON Lines; in the graph formats the same
/// lines and the same canonical hashes (a puzzle whose start, or colours,
/// are elsewhere is relabelled to the formats' convention, not changed).
#[tokio::test]
async fn export_then_import_elsewhere_then_export_gives_the_same_puzzles() {
    let first = spawn_app().await;
    let dir = tempfile::tempdir().unwrap();
    let specs = [
        proto::PuzzleSpec {
            title: "5-cycle with a tail".into(),
            author: "README".into(),
            ..geography(6, &[0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 5], 5)
        },
        geography(4, &[0, 1, 1, 2, 2, 3], 2),
        geography(1, &[], 0),
        proto::PuzzleSpec {
            game: proto::Game::TreePaint as i32,
            graph: graph(5, &[0, 1, 1, 2, 2, 3, 3, 4]),
            black: Some(3),
            white: Some(0),
            ..Default::default()
        },
        proto::PuzzleSpec {
            game: proto::Game::BipartiteEdge as i32,
            graph: graph(4, &[0, 1, 2, 3]),
            ..Default::default()
        },
        proto::PuzzleSpec {
            game: proto::Game::DirectedEdgeGeography as i32,
            graph: graph(3, &[0, 1, 1, 0, 1, 2, 2, 0]),
            start: 2,
            ..Default::default()
        },
        proto::PuzzleSpec {
            game: proto::Game::UndirectedEdgeGeography as i32,
            graph: graph(4, &[0, 1, 1, 2, 2, 0, 2, 3]),
            start: 3,
            ..Default::default()
        },
    ];
    for spec in &specs {
        first.create(spec.clone()).await;
    }

    // JSON Lines: every field of every spec comes back.
    let exported = dir.path().join("all.jsonl");
    let exported = exported.to_str().unwrap();
    let run = client(&first, &["export", exported]).await.ok();
    assert_eq!(run.stderr, format!("exported 7 puzzles to {exported}\n"));
    let second = empty_server().await;
    client(&second, &["import", exported]).await.ok();
    let again = client(&second, &["export"]).await.ok();
    let specs_of = |text: &str| -> Vec<String> {
        let mut specs: Vec<String> = text
            .lines()
            .map(|line| {
                let puzzle: Value = serde_json::from_str(line).unwrap();
                format!("{} {}", puzzle["spec"], puzzle["canonicalHash"])
            })
            .collect();
        specs.sort();
        specs
    };
    let original = std::fs::read_to_string(exported).unwrap();
    assert_eq!(specs_of(&again.stdout), specs_of(&original));
    assert_eq!(specs_of(&original).len(), 7);
    assert_eq!(hashes(&second).await, hashes(&first).await);

    // The graph formats, a game at a time (the line does not say it).
    for (format, game, count) in [
        ("graph6", "geography", 3),
        ("sparse6", "tree-paint", 1),
        ("graph6", "bipartite-edge", 1),
        ("digraph6", "directed-edge-geography", 1),
        ("sparse6", "undirected-edge-geography", 1),
    ] {
        let file = dir.path().join(format!("{game}.{format}"));
        let file = file.to_str().unwrap();
        client(
            &first,
            &["export", "--format", format, "--game", game, file],
        )
        .await
        .ok();
        let lines = std::fs::read_to_string(file).unwrap();
        assert_eq!(lines.lines().count(), count, "{game}: {lines}");
        let third = empty_server().await;
        client(
            &third,
            &["import", "--format", format, "--game", game, file],
        )
        .await
        .ok();
        let again = client(&third, &["export", "--format", format, "--game", game])
            .await
            .ok();
        let sorted = |text: &str| text.lines().map(str::to_owned).collect::<BTreeSet<_>>();
        assert_eq!(sorted(&again.stdout), sorted(&lines), "{game}");
        let of_game = |puzzles: Vec<proto::Puzzle>| {
            let mut hashes: Vec<String> = puzzles
                .into_iter()
                .filter(|p| p.spec.as_ref().unwrap().game == proto_game(game))
                .map(|p| p.canonical_hash)
                .collect();
            hashes.sort();
            hashes
        };
        assert_eq!(
            of_game(stored(&third).await),
            of_game(stored(&first).await),
            "{game}: the same puzzles, up to labels"
        );
    }

    // Contest files, a file a puzzle in a directory.
    let contest = dir.path().join("contest");
    client(
        &first,
        &[
            "export",
            "--format",
            "contest",
            "--game",
            "tree-paint",
            contest.to_str().unwrap(),
        ],
    )
    .await
    .ok();
    let files: Vec<PathBuf> = std::fs::read_dir(&contest)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    let fourth = empty_server().await;
    let mut args = vec!["import", "--format", "contest", "--game", "tree-paint"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    client(&fourth, &args).await.ok();
    let tree_hash = |puzzles: Vec<proto::Puzzle>| {
        puzzles
            .into_iter()
            .find(|p| p.spec.as_ref().unwrap().game == proto::Game::TreePaint as i32)
            .unwrap()
            .canonical_hash
    };
    assert_eq!(
        tree_hash(stored(&fourth).await),
        tree_hash(stored(&first).await)
    );
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert_eq!(text.lines().next(), Some("5"), "the tree layout: {text}");

    // Formats that cannot hold a game, and the game a format needs.
    let run = client(
        &first,
        &[
            "export",
            "--format",
            "graph6",
            "--game",
            "directed-edge-geography",
        ],
    )
    .await
    .failed_with(2);
    assert!(run.stderr.contains("digraph6"), "{run}");
    let run = client(&first, &["export", "--format", "sparse6"])
        .await
        .failed_with(2);
    assert!(run.stderr.contains("--game"), "{run}");
    let run = client(
        &first,
        &[
            "import",
            "--format",
            "digraph6",
            "--game",
            "geography",
            exported,
        ],
    )
    .await
    .failed_with(2);
    assert!(run.stderr.contains("graph6"), "{run}");
}

/// Ctrl-C in the middle of an export: the puzzles written so far stay, the
/// last resume token is printed, and the export run again with it writes
/// the rest, each puzzle once.
#[tokio::test]
async fn an_interrupted_export_prints_the_token_that_resumes_it() {
    let app = spawn_app().await;
    let dir = tempfile::tempdir().unwrap();
    // More than a pipe holds, so that the export waits for its reader.
    let count = 600;
    let lines: String = (0..count)
        .map(|i| {
            let n = 3 + (i % 7) as u32;
            let path: Vec<(u32, u32)> = (1..n).map(|v| (v - 1, v)).collect();
            puzzled::graph::graph6::to_graph6(n, path) + "\n"
        })
        .collect();
    let file = write(dir.path(), "paths.g6", &lines);
    client(
        &app,
        &["import", "--format", "graph6", "--game", "geography", &file],
    )
    .await
    .ok();

    let addr = server(&app);
    let (first_part, stderr, code) = tokio::task::spawn_blocking(move || {
        let mut child = run::puzzled()
            .args(["client", "--server", &addr, "export"])
            .env_remove("PUZZLED_SERVER")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        let mut rest = String::new();
        stdout.read_to_string(&mut rest).unwrap();
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        (first + &rest, stderr, status.code())
    })
    .await
    .unwrap();
    assert_eq!(code, Some(130), "{stderr}");
    let written = first_part.lines().count();
    assert!(
        0 < written && written < count,
        "{written} of {count}: {stderr}"
    );
    let token = stderr
        .split("--resume-token ")
        .nth(1)
        .unwrap_or_else(|| panic!("no token in {stderr:?}"))
        .split_whitespace()
        .next()
        .unwrap();
    assert!(
        stderr.starts_with(&format!(
            "export interrupted after {written} puzzle{};",
            if written == 1 { "" } else { "s" }
        )),
        "{stderr}"
    );
    let rest = client(&app, &["export", "--resume-token", token])
        .await
        .ok();
    let names = |text: &str| -> Vec<String> {
        text.lines()
            .map(|line| {
                serde_json::from_str::<Value>(line).unwrap()["name"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    let mut all = names(&first_part);
    all.extend(names(&rest.stdout));
    let whole = client(&app, &["export"]).await.ok();
    assert_eq!(
        all,
        names(&whole.stdout),
        "in order, none twice, none left out"
    );

    // Resuming into a file appends to it.
    let out = dir.path().join("out.jsonl");
    std::fs::write(&out, &first_part).unwrap();
    client(
        &app,
        &["export", "--resume-token", token, out.to_str().unwrap()],
    )
    .await
    .ok();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), whole.stdout);
    // A token that is not one.
    let run = client(&app, &["export", "--resume-token", "nonsense"])
        .await
        .failed_with(13);
    assert!(run.stderr.contains("MALFORMED_PAGE_TOKEN"), "{run}");
}

#[tokio::test]
async fn completions_print_a_script_for_the_whole_command() {
    for (shell, marker) in [
        ("bash", "_puzzled()"),
        ("zsh", "#compdef puzzled"),
        ("fish", "complete -c puzzled"),
    ] {
        let run = local(&["completions", shell], None).await.ok();
        assert!(run.stdout.contains(marker), "{shell}: {run}");
        for word in ["client", "import", "--resume-token", "serve"] {
            assert!(run.stdout.contains(word), "{shell} lacks {word}");
        }
    }
    local(&["completions", "tcsh"], None).await.failed_with(2);
}

/// Off a terminal, standard error carries what the command says and no
/// progress: nothing for a clean import, one line for an export.
#[tokio::test]
async fn no_progress_is_drawn_when_standard_error_is_not_a_terminal() {
    let app = spawn_app().await;
    let dir = tempfile::tempdir().unwrap();
    let lines: String = (0..50)
        .map(|_| {
            r#"{"game":"GAME_GEOGRAPHY","graph":{"vertexCount":2,"edges":[0,1]}}"#.to_owned() + "\n"
        })
        .collect();
    let file = write(dir.path(), "p.jsonl", &lines);
    let import = client(&app, &["import", &file]).await.ok();
    assert_eq!(import.stderr, "", "{import}");
    let export = client(&app, &["export"]).await.ok();
    assert_eq!(export.stderr, "exported 50 puzzles\n", "{export}");
    assert_eq!(export.stdout.lines().count(), 50);
    let one = spawn_app().await;
    let line = write(dir.path(), "one.jsonl", lines.lines().next().unwrap());
    client(&one, &["import", &line]).await.ok();
    let export = client(&one, &["export"]).await.ok();
    assert_eq!(export.stderr, "exported 1 puzzle\n", "{export}");
}

#[tokio::test]
async fn the_client_speaks_tls_to_a_server_it_trusts() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let certificates = Certificates::make(dir.path(), "server");
    let app = tls_server(&dir, certificates.cert.clone(), certificates.key.clone()).await;
    let ca = dir.path().join("ca.pem");
    std::fs::write(&ca, &certificates.ca_pem).unwrap();
    let addr = format!("https://localhost:{}", app.port);
    let run = puzzled(
        strings(&[
            "client",
            "--server",
            &addr,
            "--ca-cert",
            ca.to_str().unwrap(),
            "health",
        ]),
        None,
        vec![],
    )
    .await
    .ok();
    assert_eq!(run.stdout, "SERVING\n");
    let untrusted = puzzled(
        strings(&["client", "--server", &addr, "health"]),
        None,
        vec![],
    )
    .await
    .failed_with(24);
    assert!(untrusted.stderr.contains(&addr), "{untrusted}");
}

/// `puzzled client --server ADDR [--ca-cert CA] health`, and `puzzled
/// healthcheck` the same way.
async fn health_both_ways(addr: &str, ca: Option<&Path>) -> (Run, Run) {
    let mut client_args = strings(&["client", "--server", addr, "health"]);
    let mut check_args = strings(&["healthcheck", "--addr", addr]);
    if let Some(ca) = ca {
        for args in [&mut client_args, &mut check_args] {
            args.extend(strings(&["--ca-cert", ca.to_str().unwrap()]));
        }
    }
    (
        puzzled(client_args, None, vec![]).await,
        puzzled(check_args, None, vec![]).await,
    )
}

/// The usual TLS mistakes get a sentence that says what is wrong and what
/// to do, from the client (exit 24, as UNAVAILABLE) and from `healthcheck`
/// (exit 1): a certificate authority's certificate used as the server's
/// (what `openssl req -x509` makes by default), a server certificate
/// signed by an authority the client does not trust, `http://` to a TLS
/// port and `https://` to a cleartext one.
#[tokio::test]
async fn tls_mistakes_are_said_with_what_to_do() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    // Self-signed, with CA:TRUE.
    let key = rcgen::KeyPair::generate().unwrap();
    let mut params = rcgen::CertificateParams::new(vec!["localhost".to_owned()]).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let authority = params.self_signed(&key).unwrap();
    let (cert, key_file) = (
        dir.path().join("ca-as-server.pem"),
        dir.path().join("ca-as-server.key"),
    );
    std::fs::write(&cert, authority.pem()).unwrap();
    std::fs::write(&key_file, key.serialize_pem()).unwrap();
    let app = tls_server(&dir, cert.clone(), key_file).await;
    let https = format!("https://localhost:{}", app.port);
    let (client_run, check) = health_both_ways(&https, Some(&cert)).await;
    let said = "the server's certificate is a certificate authority's (basicConstraints CA:TRUE), \
                which TLS clients refuse as a server's own: make it with \
                basicConstraints=critical,CA:FALSE";
    let client_run = client_run.failed_with(24);
    assert!(client_run.stderr.contains(said), "{client_run}");
    assert!(
        client_run.stderr.contains("docs/operations.md#tls"),
        "{client_run}"
    );
    assert!(check.failed_with(1).stderr.contains(said));

    // http:// to the TLS port.
    let http = format!("http://localhost:{}", app.port);
    let (client_run, check) = health_both_ways(&http, None).await;
    let said = format!("the server speaks TLS: use https://localhost:{}", app.port);
    let client_run = client_run.failed_with(24);
    assert!(client_run.stderr.contains(&said), "{client_run}");
    let check = check.failed_with(1);
    assert!(check.stderr.contains(&said), "{check}");

    // A certificate signed by an authority the client was not given.
    let other = Arc::new(tempfile::tempdir().unwrap());
    let certificates = Certificates::make(other.path(), "server");
    let signed = tls_server(&other, certificates.cert.clone(), certificates.key.clone()).await;
    let https = format!("https://localhost:{}", signed.port);
    let (client_run, check) = health_both_ways(&https, None).await;
    let said = "the server's certificate is not signed by an authority this client trusts: give \
                the server's certificate (self-signed) or its authority's with --ca-cert PATH";
    let client_run = client_run.failed_with(24);
    assert!(client_run.stderr.contains(said), "{client_run}");
    assert!(check.failed_with(1).stderr.contains(said));
    let (client_run, _) = health_both_ways(&https, Some(&cert)).await;
    let client_run = client_run.failed_with(24);
    assert!(
        client_run
            .stderr
            .contains("signed neither by a root authority of the web nor by --ca-cert"),
        "{client_run}"
    );

    // https:// to a cleartext server.
    let plain = spawn_app().await;
    let https = format!("https://localhost:{}", plain.port);
    let (client_run, check) = health_both_ways(&https, None).await;
    let said = format!(
        "the server does not answer in TLS: if it runs without --tls-cert, use http://localhost:{}",
        plain.port
    );
    let client_run = client_run.failed_with(24);
    assert!(client_run.stderr.contains(&said), "{client_run}");
    assert!(check.failed_with(1).stderr.contains(&said));
}

/// docs/operations.md's recipe for a self-signed certificate, run as
/// written (the address aside): openssl makes the files, a server serves
/// them, and the client trusts it with `--ca-cert`. Needs `openssl` on
/// PATH; without it the test says so and passes.
#[tokio::test]
async fn the_docs_self_signed_certificate_serves_tls_to_the_client() {
    let docs =
        std::fs::read_to_string(format!("{}/docs/operations.md", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    let recipe = docs
        .split_once("**A self-signed certificate**")
        .and_then(|(_, rest)| rest.split_once("```sh\n"))
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("the recipe in docs/operations.md, TLS")
        .0;
    let lines: Vec<&str> = recipe.lines().collect();
    let [make, serve, check] = lines[..] else {
        panic!("three lines: make, serve, check: {recipe}")
    };
    assert!(make.starts_with("openssl req -x509 "), "{make}");
    assert_eq!(
        serve,
        "puzzled serve --tls-cert server.pem --tls-key server.key"
    );
    if std::process::Command::new("openssl")
        .arg("version")
        .output()
        .is_err()
    {
        eprintln!(
            "skipped: the self-signed certificate recipe needs openssl on PATH (apt-get install openssl)"
        );
        return;
    }
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let made = Command::new("sh")
        .args(["-c", make])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let app = tls_server(
        &dir,
        dir.path().join("server.pem"),
        dir.path().join("server.key"),
    )
    .await;
    let check = check.replace("localhost:50051", &format!("localhost:{}", app.port));
    let words: Vec<String> = check
        .split_whitespace()
        .skip(1)
        .map(str::to_owned)
        .collect();
    let mut command = run::puzzled();
    command
        .args(&words)
        .current_dir(dir.path())
        .env_remove("PUZZLED_SERVER");
    let run = run_to_the_end(command, None).await;
    assert!(run.success(), "{check}: {}", run.stderr);
    assert_eq!(run.stdout, "SERVING\n");
}

/// The lines of the first ```sh block after `heading` in the README.
fn readme_tour(heading: &str) -> Vec<String> {
    let readme =
        std::fs::read_to_string(format!("{}/README.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    readme
        .split_once(heading)
        .and_then(|(_, rest)| rest.split_once("```sh\n"))
        .and_then(|(_, rest)| rest.split_once("```"))
        .unwrap_or_else(|| panic!("a ```sh block under {heading}"))
        .0
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Runs a README tour's lines in order, as `sh` runs them, from the
/// repository's root: `puzzled` is this build's binary (on `PATH`), and
/// `cargo run --release --`, which the quick start uses for it, is the
/// same binary; `export` lines set variables for the lines after them (the
/// server's address, written or the default, is this test's server);
/// `PUZZLE_ID` is the id of the
/// first puzzle a line before it stored. A `play` line is given every
/// vertex number, round after round, on standard input: the illegal ones
/// are refused and the game goes on to its end. Gives each line's run.
async fn run_tour(app: &TestApp, lines: &[String]) -> Vec<(String, Run)> {
    let bin_dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_puzzled"),
        bin_dir.path().join("puzzled"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let moves: String = (0..20)
        .flat_map(|_| 0..=20)
        .map(|v| format!("{v}\n"))
        .collect();
    let mut exported: Vec<(String, String)> = Vec::new();
    let mut puzzle_id: Option<String> = None;
    let mut runs = Vec::new();
    for line in lines {
        let command = line.split(" #").next().unwrap().trim();
        if command.is_empty() {
            continue;
        }
        if let Some(assignment) = command.strip_prefix("export ") {
            let (name, value) = assignment.split_once('=').expect("NAME=VALUE");
            let value = value.replace("127.0.0.1:50051", &app.addr());
            exported.push((name.to_owned(), value));
            continue;
        }
        let mut command = command.replace("cargo run --release --", "puzzled");
        if command.contains("PUZZLE_ID") {
            let id = puzzle_id
                .as_deref()
                .unwrap_or_else(|| panic!("{line}: no puzzle stored before it"));
            command = command.replace("PUZZLE_ID", id);
        }
        let input = command.contains(" play ").then(|| moves.clone());
        let mut shell = Command::new("sh");
        shell
            .args(["-c", &command])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PATH", &path)
            // The default address, 127.0.0.1:50051, is this test's server.
            .env("PUZZLED_SERVER", server(app))
            .env_remove("PUZZLED_TOKEN")
            .envs(exported.iter().cloned());
        let run = run_to_the_end(shell, input).await;
        assert_eq!(run.code, 0, "{command}\n{run}");
        if puzzle_id.is_none()
            && let Some(at) = run.stdout.find("puzzles/")
        {
            let id: String = run.stdout[at + "puzzles/".len()..]
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            puzzle_id = Some(id);
        }
        runs.push((command, run));
    }
    runs
}

/// The README's two tours, run line for line as a newcomer types them
/// (see `run_tour`), so that they cannot drift from what the client does:
/// the quick start's (generate, list, play) and the client's (health,
/// create, list, solve, analyze, play). A puzzle generated and stored
/// lists its winner and difficulty; a game played ends by saying who won.
#[tokio::test]
async fn the_readme_tours_run_as_written() {
    let app = spawn_app().await;
    let quick = run_tour(&app, &readme_tour("## Quick start")).await;
    let [(generate, generated), (_, listed), (_, played)] = &quick[..] else {
        panic!("generate, list, play: {} commands", quick.len())
    };
    assert!(
        generate.starts_with("puzzled client generate "),
        "{generate}"
    );
    assert_eq!(
        generated.stdout.matches("; stored as puzzles/").count(),
        3,
        "{generated}"
    );
    for line in listed.stdout.lines() {
        assert!(
            line.contains(" player; only-move depth ") && line.contains("; winner: "),
            "a generated puzzle lists its winner and difficulty: {listed}"
        );
    }
    assert!(
        played.stdout.trim_end().ends_with("you win")
            || played.stdout.trim_end().ends_with("the engine wins"),
        "{played}"
    );

    let app = spawn_app().await;
    let tour = run_tour(&app, &readme_tour("## The command-line client")).await;
    let said: Vec<&str> = tour.iter().map(|(_, run)| run.stdout.as_str()).collect();
    let [health, created, listed, solved, analysed, played] = said[..] else {
        panic!("six commands, not {}", tour.len())
    };
    assert_eq!(health, "SERVING\n");
    assert_eq!(
        field(created, "game"),
        "geography, 3 vertices, 2 edges, start 2"
    );
    assert!(listed.contains("\"a path\""), "{listed}");
    assert_eq!(field(solved, "winning first moves"), "1 3");
    assert!(analysed.contains("token on vertex 1"), "{analysed}");
    assert!(played.trim_end().ends_with("the engine wins"), "{played}");
    // The README's sample of `create`'s output is what it prints, but for
    // the name and the time.
    let readme =
        std::fs::read_to_string(format!("{}/README.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let sample = readme
        .split_once("$ puzzled client create --game geography --start 2")
        .and_then(|(_, rest)| rest.split_once('\n'))
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("the README's create sample")
        .0;
    let steady = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| !line.starts_with("name: ") && !line.starts_with("created: "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(steady(sample), steady(created));
}

/// A token a header cannot carry (a pasted placeholder such as `…`, a
/// space) is the client's mistake: said before anything is sent, naming
/// where it came from, with the usage exit code. An empty one is none.
#[tokio::test]
async fn a_token_a_header_cannot_carry_is_refused_before_a_call() {
    let app = spawn_app().await;
    // No server listens here: the token is refused before connecting.
    let nowhere = "http://127.0.0.1:1";
    let run = puzzled(
        strings(&["client", "--server", nowhere, "health"]),
        None,
        vec![("PUZZLED_TOKEN", "\u{2026}".to_owned())],
    )
    .await
    .failed_with(2);
    assert_eq!(
        run.stderr,
        "error: PUZZLED_TOKEN holds characters a header cannot carry (`\u{2026}` at character \
         1): a token is printable ASCII without spaces, such as `openssl rand -hex 24` makes\n"
    );
    let run = client(&app, &["--token", "two words", "list"])
        .await
        .failed_with(2);
    assert!(
        run.stderr.starts_with(
            "error: --token holds characters a header cannot carry (' ' at character 4)"
        ),
        "{run}"
    );
    // An empty variable is no token; an unknown ASCII one on a server
    // without writers goes through, charged to the address.
    let none = puzzled(
        strings(&[
            "client",
            "--server",
            &server(&app),
            "create",
            "--game",
            "geography",
            &data("geography_path3.txt"),
        ]),
        None,
        vec![("PUZZLED_TOKEN", String::new())],
    )
    .await
    .ok();
    assert!(none.stdout.starts_with("name: puzzles/"), "{none}");
    client(
        &app,
        &[
            "--token",
            "not-a-writer",
            "create",
            "--game",
            "geography",
            &data("geography_path3.txt"),
        ],
    )
    .await
    .ok();
}

/// `--json` is the API's JSON as grpcurl prints it: the same documents,
/// field for field, for a puzzle, a page and a solution (when grpcurl is
/// on PATH; see `grpcurl.rs`).
#[tokio::test]
async fn the_json_is_what_grpcurl_prints() {
    if !crate::grpcurl::grpcurl_available() {
        return;
    }
    let app = spawn_app().await;
    let created = client(
        &app,
        &[
            "create",
            "--json",
            "--game",
            "tree-paint",
            "--title",
            "Fennec",
            &data("tree_paint_abc067d_sample1.txt"),
        ],
    )
    .await
    .ok()
    .json();
    let name = created["name"].as_str().unwrap().to_owned();
    // Off the runtime's thread, which serves the server meanwhile.
    let grpcurl = |method: &'static str, request: Value| {
        let addr = app.addr();
        tokio::task::spawn_blocking(move || {
            let out = Command::new("grpcurl")
                .args(["-plaintext", "-d", &request.to_string(), &addr, method])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            serde_json::from_slice::<Value>(&out.stdout).unwrap()
        })
    };
    // What differs between two solves of one puzzle: when, how long, cached.
    // Numbers are compared by value: a double that is whole prints as 1500
    // from grpcurl and 1500.0 from serde, the same JSON number.
    fn numbers_by_value(value: &mut Value) {
        match value {
            Value::Number(number) => *value = json!(number.as_f64().unwrap()),
            Value::Array(items) => items.iter_mut().for_each(numbers_by_value),
            Value::Object(fields) => fields.values_mut().for_each(numbers_by_value),
            _ => {}
        }
    }
    let timeless = |mut solution: Value| {
        for key in ["solveTime", "solveDuration", "cached"] {
            solution.as_object_mut().unwrap().remove(key);
        }
        numbers_by_value(&mut solution);
        solution
    };
    let cases = [
        (
            vec!["get", "--json", name.as_str()],
            "puzzled.v1.PuzzleService/GetPuzzle",
            json!({"name": name}),
        ),
        (
            vec!["list", "--json"],
            "puzzled.v1.PuzzleService/ListPuzzles",
            json!({}),
        ),
        (
            vec!["solve", "--json", "--winning-moves", name.as_str()],
            "puzzled.v1.PuzzleService/SolvePuzzle",
            json!({"name": name, "include_winning_moves": true}),
        ),
        (
            vec!["health", "--json"],
            "grpc.health.v1.Health/Check",
            json!({"service": ""}),
        ),
    ];
    for (args, method, request) in cases {
        let ours = timeless(client(&app, &args).await.ok().json());
        let theirs = timeless(grpcurl(method, request).await.unwrap());
        assert_eq!(ours, theirs, "{args:?}");
    }
}

/// The flags of one generation request, as both commands take them.
const TREES: [&str; 10] = [
    "--game",
    "tree-paint",
    "--vertices",
    "10..14",
    "--winner",
    "first",
    "--min-only-move-depth",
    "2",
    "--seed",
    "1",
];

#[tokio::test]
async fn generate_gives_the_same_puzzles_here_and_from_a_server_and_stores_them_once() {
    let app = spawn_app().await;
    let mut args = TREES.to_vec();
    args.extend(["--count", "3"]);
    let here = local(&[&["generate"], &args[..]].concat(), None).await;
    assert_eq!(here.code, 0, "{here}");
    let there = client(&app, &[&["generate"], &args[..]].concat()).await;
    assert_eq!(there.code, 0, "{there}");
    assert_eq!(here.stdout, there.stdout);
    let lines: Vec<&str> = here.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{here}");
    for line in &lines {
        assert!(
            line.contains("tree paint") && line.contains("first player wins"),
            "{line}"
        );
        let depth: u32 = line
            .split("only-move depth ")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .and_then(|d| d.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(depth >= 2, "{line}");
    }
    // --json prints the API's GeneratedPuzzle, a line each.
    let json = client(&app, &[&["generate", "--json"], &args[..]].concat()).await;
    let puzzles = json.json_lines();
    assert_eq!(puzzles.len(), 3, "{json}");
    assert!(
        puzzles
            .iter()
            .all(|p| p["solution"]["winner"] == "PLAYER_FIRST")
    );
    // Stored, with the difficulty; the same again is named, not stored.
    let store = [&["generate", "--store", "--author", "gen"], &args[..]].concat();
    let first = client(&app, &store).await;
    assert_eq!(first.code, 0, "{first}");
    assert_eq!(
        first.stdout.matches("; stored as puzzles/").count(),
        3,
        "{first}"
    );
    let again = client(&app, &store).await;
    assert_eq!(
        again.stdout.matches("; stored already as puzzles/").count(),
        3,
        "{again}"
    );
    let kept = stored(&app).await;
    assert_eq!(kept.len(), 3);
    assert!(kept.iter().all(|p| p.difficulty.is_some()));
    assert!(
        kept.iter()
            .all(|p| p.spec.as_ref().unwrap().author == "gen")
    );
}

#[tokio::test]
async fn generated_puzzles_written_to_a_file_import_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("generated.jsonl");
    let file = file.to_str().unwrap();
    // More than one call's worth: the client asks again after 100.
    let made = local(
        &[
            "generate",
            "--game",
            "geography",
            "--vertices",
            "12..20",
            "--count",
            "120",
            "--output",
            file,
        ],
        None,
    )
    .await;
    assert_eq!(made.code, 0, "{made}");
    let app = spawn_app().await;
    let from_server = client(
        &app,
        &[
            "generate",
            "--game",
            "geography",
            "--vertices",
            "12..20",
            "--count",
            "120",
        ],
    )
    .await;
    assert_eq!(
        from_server.stdout, made.stdout,
        "the turns of 100 change nothing"
    );
    let imported = client(&app, &["import", file]).await;
    assert_eq!(imported.code, 0, "{imported}");
    let mut expected: Vec<String> = std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["canonicalHash"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    expected.sort();
    assert_eq!(expected.len(), 120);
    assert_eq!(hashes(&app).await, expected);
}

#[tokio::test]
async fn a_generation_that_cannot_be_met_says_why_with_its_status_exit_code() {
    let app = spawn_app().await;
    let unmet = [
        "generate",
        "--game",
        "bipartite-edge",
        "--vertices",
        "20",
        "--min-only-move-depth",
        "3",
        "--max-rejected-in-a-row",
        "50",
    ];
    // Said in flags, here and from a server alike.
    for run in [local(&unmet, None).await, client(&app, &unmet).await] {
        assert_eq!(run.code, 18, "RESOURCE_EXHAUSTED: {run}");
        assert!(run.stderr.contains("NO_PUZZLE_FOUND"), "{run}");
        assert!(
            run.stderr
                .contains("50 candidates in a row (from candidate 0)"),
            "{run}"
        );
        assert!(
            run.stderr
                .contains("lower --min-only-move-depth (or try another --family or --vertices)"),
            "{run}"
        );
        assert!(
            run.stderr
                .contains("; --first-candidate 50 goes on from here"),
            "{run}"
        );
        for api_word in ["min_only_move_depth", "first_candidate", "winner Either"] {
            assert!(!run.stderr.contains(api_word), "{api_word}: {run}");
        }
    }
    let second = [
        "generate",
        "--game",
        "geography",
        "--vertices",
        "2",
        "--winner",
        "second",
        "--max-rejected-in-a-row",
        "5",
    ];
    for run in [local(&second, None).await, client(&app, &second).await] {
        assert!(run.stderr.contains("ask for --winner either"), "{run}");
    }
    let backwards = ["generate", "--game", "geography", "--vertices", "12..10"];
    for run in [
        local(&backwards, None).await,
        client(&app, &backwards).await,
    ] {
        assert_eq!(
            run.failed_with(13).stderr,
            "error: INVALID_ARGUMENT (INVALID_GENERATE_REQUEST): --vertices: 12 is more than \
             the most vertices asked for, 10\n"
        );
    }
    let wrong_family = [
        "generate",
        "--game",
        "tree-paint",
        "--vertices",
        "9",
        "--family",
        "gnm",
    ];
    for run in [
        local(&wrong_family, None).await,
        client(&app, &wrong_family).await,
    ] {
        assert_eq!(run.code, 13, "INVALID_ARGUMENT: {run}");
        assert!(run.stderr.contains("INVALID_GENERATE_REQUEST"), "{run}");
        assert!(run.stderr.contains("): --family: "), "{run}");
    }
}

/// Copies count as rejections in a row wherever they are found: in the
/// generator here, and across the client's turns of 100 there (each call
/// passes over copies of its own puzzles only). Both end as a call that
/// finds no new puzzle ends, after the new ones; the graph6 lines come
/// from standard input, read once for every turn.
#[tokio::test]
async fn copies_end_a_generation_here_and_across_the_clients_turns() {
    // 100 distinct paths (the edge game has a move on each from 4
    // vertices), then the first 30 again.
    let mut lines = String::new();
    for n in (4..104).chain(4..34) {
        let path: Vec<(u32, u32)> = (1..n).map(|v| (v - 1, v)).collect();
        lines += &(puzzled::graph::graph6::to_graph6(n, path) + "\n");
    }
    let args = [
        "generate",
        "--game",
        "bipartite-edge",
        "--family",
        "graph6",
        "--graph6",
        "-",
        "--vertices",
        "4..103",
        "--count",
        "130",
        "--max-rejected-in-a-row",
        "10",
    ];
    let app = spawn_app().await;
    let here = local(&args, Some(&lines)).await;
    let there = client_with_input(&app, &args, &lines).await;
    for run in [&here, &there] {
        assert_eq!(run.code, 18, "RESOURCE_EXHAUSTED: {run}");
        assert!(run.stderr.contains("NO_PUZZLE_FOUND"), "{run}");
        assert!(
            run.stderr.contains("--first-candidate 110 goes on"),
            "{run}"
        );
        assert_eq!(run.stdout.lines().count(), 100, "{run}");
        assert!(
            run.stderr.contains("10 copies of puzzles already sent"),
            "{run}"
        );
        assert!(
            run.stderr
                .contains("widen --vertices or ask for a smaller --count"),
            "{run}"
        );
    }
    assert_eq!(here.stdout, there.stdout);
}
