//! Bad input through the API (API.md "Errors", QUALITY.md "Bad input"): the
//! status code, a message that names the problem, the BadRequest field and
//! the ErrorInfo reason; then the server answers the next request normally
//! and the store is unchanged.

use tonic::{Code, Status};
use tonic_types::StatusExt;

use super::helpers::*;

/// Asserts the code, that the message contains `needle`, that a BadRequest
/// violation names `field`, and that ErrorInfo carries `reason`.
pub(super) fn assert_bad(status: &Status, code: Code, field: &str, needle: &str, reason: &str) {
    assert_eq!(status.code(), code, "{status:?}");
    assert!(
        status.message().contains(needle),
        "message {:?} should mention {needle:?}",
        status.message()
    );
    let details = status.get_error_details();
    let violations = &details
        .bad_request()
        .unwrap_or_else(|| panic!("no BadRequest in {status:?}"))
        .field_violations;
    assert!(
        violations.iter().any(|v| v.field == field),
        "no violation for field {field:?} in {violations:?}"
    );
    let info = details.error_info().expect("an ErrorInfo detail");
    assert_eq!(info.reason, reason);
    assert_eq!(info.domain, "puzzled.v1");
}

fn spec(game: proto::Game, n: u32, edges: &[u32]) -> proto::PuzzleSpec {
    proto::PuzzleSpec {
        game: game as i32,
        graph: graph(n, edges),
        ..Default::default()
    }
}

async fn solve_err(app: &mut TestApp, spec: proto::PuzzleSpec) -> Status {
    app.client.solve(solve_request(spec)).await.unwrap_err()
}

/// After a bad request: a good one works and nothing was stored.
async fn still_healthy(app: &mut TestApp) {
    let ok = app
        .client
        .solve(solve_request(geography(3, &[0, 1, 1, 2], 0)))
        .await
        .expect("the next good request is answered")
        .into_inner();
    assert_eq!(ok.winner, proto::Player::Second as i32);
    let list = app.listed().await;
    assert!(list.is_empty(), "bad requests stored nothing");
}

#[tokio::test]
async fn spec_errors_name_their_field() {
    use proto::Game::*;
    let mut app = spawn_app().await;
    let unset = proto::PuzzleSpec {
        game: 0,
        graph: graph(3, &[0, 1]),
        ..Default::default()
    };
    let unknown = proto::PuzzleSpec {
        game: 99,
        ..unset.clone()
    };
    let cases: Vec<(proto::PuzzleSpec, Code, &str, &str, &str)> = vec![
        (
            unset,
            Code::InvalidArgument,
            "spec.game",
            "spec.game is required",
            "GAME_UNSPECIFIED",
        ),
        (
            unknown,
            Code::InvalidArgument,
            "spec.game",
            "99 is not a game",
            "UNKNOWN_GAME",
        ),
        (
            spec(Geography, 0, &[]),
            Code::InvalidArgument,
            "spec.graph.vertex_count",
            "at least 1 vertices",
            "TOO_FEW_VERTICES",
        ),
        (
            spec(TreePaint, 1, &[]),
            Code::InvalidArgument,
            "spec.graph.vertex_count",
            "at least 2 vertices",
            "TOO_FEW_VERTICES",
        ),
        (
            spec(Geography, 3, &[0, 1, 2]),
            Code::InvalidArgument,
            "spec.graph.edges",
            "even number",
            "ODD_EDGE_LIST",
        ),
        (
            spec(Geography, 10, &[0, 1, 1, 2, 3, 4, 5, 12]),
            Code::InvalidArgument,
            "spec.graph.edges[7]",
            "vertex 12 out of range 0..10",
            "VERTEX_OUT_OF_RANGE",
        ),
        (
            spec(Geography, 3, &[0, 1, 2, 2]),
            Code::InvalidArgument,
            "spec.graph.edges[2]",
            "(2, 2) is a self-loop",
            "SELF_LOOP",
        ),
        (
            spec(Geography, 3, &[0, 1, 1, 2, 2, 1]),
            Code::InvalidArgument,
            "spec.graph.edges[4]",
            "duplicates edge 1",
            "DUPLICATE_EDGE",
        ),
        (
            proto::PuzzleSpec {
                start: 7,
                ..spec(Geography, 3, &[0, 1])
            },
            Code::InvalidArgument,
            "spec.start",
            "vertex 7 out of range 0..3",
            "VERTEX_OUT_OF_RANGE",
        ),
        (
            proto::PuzzleSpec {
                black: Some(5),
                ..spec(TreePaint, 3, &[0, 1, 1, 2])
            },
            Code::InvalidArgument,
            "spec.black",
            "vertex 5 out of range 0..3",
            "VERTEX_OUT_OF_RANGE",
        ),
        (
            proto::PuzzleSpec {
                white: Some(9),
                ..spec(TreePaint, 3, &[0, 1, 1, 2])
            },
            Code::InvalidArgument,
            "spec.white",
            "vertex 9 out of range 0..3",
            "VERTEX_OUT_OF_RANGE",
        ),
        (
            proto::PuzzleSpec {
                black: Some(1),
                white: Some(1),
                ..spec(TreePaint, 3, &[0, 1, 1, 2])
            },
            Code::InvalidArgument,
            "spec.white",
            "must differ",
            "SAME_BLACK_AND_WHITE",
        ),
        (
            spec(BipartiteEdge, 5, &[0, 1, 1, 2, 2, 0, 3, 4]),
            Code::InvalidArgument,
            "spec.graph.edges",
            "graph has an odd cycle through vertices",
            "ODD_CYCLE",
        ),
        (
            spec(
                TreePaint,
                8,
                &[0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 0, 0, 4],
            ),
            Code::InvalidArgument,
            "spec.graph.edges",
            "tree paint needs a tree: 8 vertices but 9 edges",
            "NOT_A_TREE",
        ),
        (
            spec(TreePaint, 4, &[0, 1, 1, 2, 2, 0]),
            Code::InvalidArgument,
            "spec.graph.edges",
            "not connected",
            "NOT_A_TREE",
        ),
        (
            proto::PuzzleSpec {
                start: 1,
                ..spec(TreePaint, 3, &[0, 1, 1, 2])
            },
            Code::InvalidArgument,
            "spec.start",
            "only geography puzzles",
            "FIELD_NOT_FOR_GAME",
        ),
        (
            spec(Geography, 4_000_000_000, &[]),
            Code::ResourceExhausted,
            "spec.graph.vertex_count",
            "4000000000 vertices is over the limit of 10000000 (max_vertices)",
            "LIMIT_EXCEEDED",
        ),
        (
            proto::PuzzleSpec {
                title: "x".repeat(201),
                ..spec(Geography, 3, &[0, 1])
            },
            Code::InvalidArgument,
            "spec.title",
            "201 characters is more than the limit of 200",
            "TEXT_TOO_LONG",
        ),
        (
            proto::PuzzleSpec {
                author: "y".repeat(101),
                ..spec(Geography, 3, &[0, 1])
            },
            Code::InvalidArgument,
            "spec.author",
            "more than the limit of 100",
            "TEXT_TOO_LONG",
        ),
        (
            proto::PuzzleSpec {
                numbered_from: 2,
                ..spec(Geography, 3, &[0, 1])
            },
            Code::InvalidArgument,
            "spec.numbered_from",
            "2 is neither 0 nor 1",
            "NUMBERING_UNKNOWN",
        ),
    ];
    for (bad, code, field, needle, reason) in cases {
        let status = solve_err(&mut app, bad.clone()).await;
        assert_bad(&status, code, field, needle, reason);
        // The same spec through CreatePuzzle names the field under puzzle.spec.
        let status = app
            .client
            .create_puzzle(create_request(bad))
            .await
            .unwrap_err();
        assert_bad(&status, code, &format!("puzzle.{field}"), needle, reason);
        still_healthy(&mut app).await;
    }
}

#[tokio::test]
async fn missing_spec_and_missing_puzzle_are_named() {
    let mut app = spawn_app().await;
    let status = app
        .client
        .solve(proto::SolveRequest::default())
        .await
        .unwrap_err();
    assert_bad(
        &status,
        Code::InvalidArgument,
        "spec",
        "spec is required",
        "FIELD_REQUIRED",
    );
    let status = app
        .client
        .create_puzzle(proto::CreatePuzzleRequest::default())
        .await
        .unwrap_err();
    assert_bad(
        &status,
        Code::InvalidArgument,
        "puzzle",
        "puzzle is required",
        "FIELD_REQUIRED",
    );
    still_healthy(&mut app).await;
}

#[tokio::test]
async fn edge_limit_is_checked() {
    let mut app = app_with(|config| config.max_edges = 2).await;
    let status = solve_err(&mut app, geography(5, &[0, 1, 1, 2, 2, 3], 0)).await;
    assert_bad(
        &status,
        Code::ResourceExhausted,
        "spec.graph.edges",
        "3 edges is over the limit of 2 (max_edges)",
        "LIMIT_EXCEEDED",
    );
    still_healthy(&mut app).await;
}

#[tokio::test]
async fn a_message_over_the_size_limit_is_refused_by_the_transport() {
    let mut app = app_with(|config| config.max_message_bytes = Some(4096)).await;
    let edges = random_graph(5000, 4000, 3);
    let status = solve_err(&mut app, geography(5000, &edges, 0)).await;
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("4096"), "{}", status.message());
    assert!(
        status.message().contains("--max-message-bytes"),
        "{}",
        status.message()
    );
    assert_eq!(error_reason(&status), "LIMIT_EXCEEDED");
    still_healthy(&mut app).await;
}

/// With no explicit message limit the server takes what a puzzle of
/// `--max-edges` edges needs: 10 bytes an edge plus 64 KiB.
#[tokio::test]
async fn the_default_message_limit_follows_max_edges() {
    let mut app = app_with(|config| {
        config.max_edges = 1_000;
        assert_eq!(config.message_limit(), 10_000 + 65_536);
    })
    .await;
    // 1,000 edges fit; 30,000 edges (over 75,536 bytes) never reach the
    // handler's LIMIT_EXCEEDED: the transport refuses the message.
    let fits = geography(40_000, &random_graph(40_000, 1_000, 4), 0);
    app.client
        .solve(solve_request(fits))
        .await
        .expect("a puzzle at max_edges fits the message limit");
    let status = solve_err(
        &mut app,
        geography(40_000, &random_graph(40_000, 30_000, 5), 0),
    )
    .await;
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("75536"), "{}", status.message());
    still_healthy(&mut app).await;
}

/// A 4 MB name gets INVALID_ARGUMENT with at most 64 of its characters in
/// the message and in the details (an ordinary client's 16 KiB metadata
/// limit would otherwise turn the answer into a transport error).
#[tokio::test]
async fn an_error_about_a_huge_value_repeats_only_its_start() {
    let mut app = spawn_app().await;
    let name = format!("puzzles/{}", "x".repeat(4 << 20));
    let status = app.read_err(&name).await;
    assert_bad(
        &status,
        Code::InvalidArgument,
        "name",
        "is not a puzzle name",
        "MALFORMED_NAME",
    );
    assert_eq!(
        status.message(),
        format!(
            "name: {:?}… is not a puzzle name (puzzles/ID, as CreatePuzzle returns)",
            &name[..64]
        )
    );
    assert!(
        status.details().len() < 1024,
        "{} bytes of details",
        status.details().len()
    );
    still_healthy(&mut app).await;
}

#[tokio::test]
async fn names_page_tokens_and_page_sizes_are_checked() {
    let mut app = spawn_app().await;
    for name in [
        "",
        "puzzle/abc",
        "puzzles/",
        "puzzles/not-an-id",
        "puzzles/0123456789abcdef0123/x",
    ] {
        let status = app.read_err(name).await;
        assert_bad(
            &status,
            Code::InvalidArgument,
            "name",
            "is not a puzzle name",
            "MALFORMED_NAME",
        );
        let status = app.solve_stored(name).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
    }
    let unknown = "puzzles/0123456789abcdef0123";
    let status = app.read_err(unknown).await;
    assert_eq!(status.code(), Code::NotFound);
    assert!(status.message().contains(unknown), "{}", status.message());
    let status = app.solve_stored(unknown).await.unwrap_err();
    assert_eq!(status.code(), Code::NotFound);

    // Garbage, and the hex spellings of an earlier token format with its
    // lax variants ("p1:+29:all", "p1:029:all", "p1:-5:all").
    let hex = |plain: &str| {
        plain
            .bytes()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    for token in [
        "garbage".to_owned(),
        "zz".to_owned(),
        "70313a31".to_owned(),
        hex("p1:+29:all"),
        hex("p1:029:all"),
        hex("p1:-5:all"),
    ] {
        let status = app
            .client
            .list_puzzles(proto::ListPuzzlesRequest {
                page_token: token,
                ..Default::default()
            })
            .await
            .unwrap_err();
        assert_bad(
            &status,
            Code::InvalidArgument,
            "page_token",
            "page_token",
            "MALFORMED_PAGE_TOKEN",
        );
    }
    // A token issued for one filter, used with another.
    for _ in 0..3 {
        app.client
            .create_puzzle(create_request(geography(2, &[0, 1], 0)))
            .await
            .unwrap();
    }
    let page = app
        .client
        .list_puzzles(proto::ListPuzzlesRequest {
            page_size: 1,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let status = app
        .client
        .list_puzzles(proto::ListPuzzlesRequest {
            page_size: 1,
            page_token: page.next_page_token,
            game: proto::Game::Geography as i32,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_bad(
        &status,
        Code::InvalidArgument,
        "page_token",
        "filter",
        "PAGE_TOKEN_FILTER_MISMATCH",
    );
    let status = app
        .client
        .list_puzzles(proto::ListPuzzlesRequest {
            page_size: -1,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_bad(
        &status,
        Code::InvalidArgument,
        "page_size",
        "negative",
        "NEGATIVE_PAGE_SIZE",
    );
    let status = app
        .client
        .list_puzzles(proto::ListPuzzlesRequest {
            game: 42,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_bad(
        &status,
        Code::InvalidArgument,
        "game",
        "42 is not a game",
        "UNKNOWN_GAME",
    );
}

/// A deadline shorter than the solve: the call ends with a deadline error
/// (the server answers DEADLINE_EXCEEDED; tonic's client, whose own timer
/// fires first, reports it as CANCELLED "Timeout expired"), and the server
/// answers the next call normally. A machine fast enough to solve the
/// puzzle within the deadline gets another puzzle and half the deadline,
/// so the test does not depend on how fast the solve is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_passed_deadline_is_deadline_exceeded_and_the_server_carries_on() {
    let mut app = spawn_app().await;
    let n = 200_000;
    let mut deadline = std::time::Duration::from_millis(20);
    let mut status = None;
    for seed in 11..21 {
        let edges = random_graph(n, 400_000, seed);
        let created = app.create(geography(n, &edges, 0)).await;
        let mut request = tonic::Request::new(proto::SolvePuzzleRequest {
            name: created.name,
            ..Default::default()
        });
        request.set_timeout(deadline);
        match app.client.solve_puzzle(request).await {
            Err(passed) => {
                status = Some(passed);
                break;
            }
            Ok(_) => {
                eprintln!("solved within {deadline:?}; again on another puzzle");
                deadline /= 2;
            }
        }
    }
    let status = status.expect("a deadline passed before its solve ended");
    match status.code() {
        Code::DeadlineExceeded => assert!(status.message().contains("deadline"), "{status:?}"),
        Code::Cancelled => assert!(status.message().contains("Timeout expired"), "{status:?}"),
        _ => panic!("not a deadline error: {status:?}"),
    }
    let ok = app.solve(geography(3, &[0, 1, 1, 2], 0)).await;
    assert_eq!(ok.winner, proto::Player::Second as i32);
}

/// A SolveRequest whose title is raw bytes, to send what a proto3 string
/// must never hold.
#[derive(Clone, PartialEq, prost::Message)]
struct RawSolveRequest {
    #[prost(message, optional, tag = "1")]
    spec: Option<RawSpec>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct RawSpec {
    #[prost(int32, tag = "1")]
    game: i32,
    #[prost(message, optional, tag = "2")]
    graph: Option<proto::Graph>,
    #[prost(bytes = "vec", tag = "6")]
    title: Vec<u8>,
}

#[tokio::test]
async fn a_title_that_is_not_utf8_is_invalid_argument() {
    let mut app = spawn_app().await;
    let mut grpc = tonic::client::Grpc::new(app.channel.clone());
    grpc.ready().await.unwrap();
    let request = RawSolveRequest {
        spec: Some(RawSpec {
            game: proto::Game::Geography as i32,
            graph: graph(3, &[0, 1, 1, 2]),
            title: vec![b'o', b'k', 0xff, 0xfe],
        }),
    };
    let status = grpc
        .unary(
            tonic::Request::new(request),
            tonic::codegen::http::uri::PathAndQuery::from_static("/puzzled.v1.PuzzleService/Solve"),
            tonic_prost::ProstCodec::<RawSolveRequest, proto::Solution>::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(status.message().contains("UTF-8"), "{}", status.message());
    still_healthy(&mut app).await;
}

/// One unary call over plain HTTP/2, with no client-side deadline handling,
/// so the test sees the status the server itself sent.
async fn raw_unary(addr: &str, path: &str, message: Vec<u8>, timeout: &str) -> Status {
    let mut frame = vec![0u8];
    frame.extend((message.len() as u32).to_be_bytes());
    frame.extend(message);
    raw_call(addr, path, Some(timeout), frame, true).await
}

/// Sends `body` (gRPC framing included), ending the request stream when
/// `end` is set, and returns the status the server answers with.
async fn raw_call(
    addr: &str,
    path: &str,
    timeout: Option<&str>,
    body: Vec<u8>,
    end: bool,
) -> Status {
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(connection);
    let mut client = client.ready().await.unwrap();
    let mut request = http::Request::post(format!("http://{addr}{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers");
    if let Some(timeout) = timeout {
        request = request.header("grpc-timeout", timeout);
    }
    let (response, mut send) = client
        .send_request(request.body(()).unwrap(), false)
        .unwrap();
    send.send_data(body.into(), end).unwrap();
    let response = response.await.unwrap();
    if let Some(status) = Status::from_header_map(response.headers()) {
        return status;
    }
    let mut body = response.into_body();
    while let Some(data) = body.data().await {
        data.unwrap();
    }
    let trailers = body.trailers().await.unwrap().expect("trailers");
    Status::from_header_map(&trailers).expect("a grpc-status")
}

/// A deadline already past when the call arrives (`grpc-timeout: 1n`) is
/// DEADLINE_EXCEEDED with its ErrorInfo reason, on any call.
#[tokio::test]
async fn a_deadline_past_on_arrival_is_deadline_exceeded() {
    use prost::Message as _;
    let mut app = spawn_app().await;
    let solve = solve_request(geography(3, &[0, 1, 1, 2], 0)).encode_to_vec();
    for (path, message) in [
        ("/puzzled.v1.PuzzleService/Solve", solve),
        ("/grpc.health.v1.Health/Check", Vec::new()),
    ] {
        let status = raw_unary(&app.addr(), path, message, "1n").await;
        assert_eq!(status.code(), Code::DeadlineExceeded, "{path}: {status:?}");
        assert!(status.message().contains("deadline"), "{status:?}");
        let info = status
            .get_error_details()
            .error_info()
            .cloned()
            .unwrap_or_else(|| panic!("{path}: no ErrorInfo in {status:?}"));
        assert_eq!(info.reason, "DEADLINE_EXCEEDED");
        assert_eq!(info.domain, "puzzled.v1");
    }
    still_healthy(&mut app).await;
}

/// The size check reads the frame header: a request announcing a message
/// over the limit is refused before any of the message has been sent.
#[tokio::test]
async fn an_oversize_message_is_refused_from_its_header() {
    let mut app = app_with(|config| config.max_message_bytes = Some(4096)).await;
    let mut header = vec![0u8];
    header.extend(1_000_000_000u32.to_be_bytes());
    // A hang guard: the rest of the message never comes, so a server that
    // waited for it would never answer.
    let status = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        raw_call(
            &app.addr(),
            "/puzzled.v1.PuzzleService/Solve",
            None,
            header,
            false,
        ),
    )
    .await
    .expect("answered without waiting for the message");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert_eq!(
        status.message(),
        "the request message is 1000000000 bytes, over the 4096-byte message limit \
         (--max-message-bytes)"
    );
    assert_eq!(error_reason(&status), "LIMIT_EXCEEDED");
    still_healthy(&mut app).await;
}

/// A solution larger than the message limit is RESOURCE_EXHAUSTED with
/// reason RESPONSE_TOO_LARGE, saying what to leave out; without the
/// optional evidence the same puzzle is answered.
#[tokio::test]
async fn a_solution_over_the_message_limit_is_response_too_large() {
    let mut app = app_with(|config| config.max_message_bytes = Some(4096)).await;
    // Every one of the 2,998 isolated vertices is a second-player start.
    let spec = geography(3000, &[0, 1], 5);
    let status = app
        .client
        .solve(proto::SolveRequest {
            include_all_starts: true,
            ..solve_request(spec.clone())
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("4096"), "{status:?}");
    assert!(
        status.message().contains("include_all_starts"),
        "{status:?}"
    );
    assert_eq!(error_reason(&status), "RESPONSE_TOO_LARGE");
    app.client
        .solve(solve_request(spec))
        .await
        .expect("the solution without the starts fits");
    still_healthy(&mut app).await;
}

/// What the server itself answers when the deadline passes during the solve
/// (no client library in between): DEADLINE_EXCEEDED.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_answers_deadline_exceeded() {
    use prost::Message as _;
    let app = spawn_app().await;
    let n = 200_000;
    let edges = random_graph(n, 400_000, 13);
    let created = app.create(geography(n, &edges, 0)).await;
    let request = proto::SolvePuzzleRequest {
        name: created.name,
        ..Default::default()
    };
    let status = raw_unary(
        &app.addr(),
        "/puzzled.v1.PuzzleService/SolvePuzzle",
        request.encode_to_vec(),
        "50m",
    )
    .await;
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(status.message().contains("deadline"), "{status:?}");
    assert_eq!(error_reason(&status), "DEADLINE_EXCEEDED");
    let ok = app.solve(geography(3, &[0, 1, 1, 2], 0)).await;
    assert_eq!(ok.winner, proto::Player::Second as i32);
}

/// The reasons docs/api.md lists: the UPPER_SNAKE words in backticks of
/// its table of errors, and the move reasons AnalyzePosition lists.
fn documented_reasons() -> std::collections::BTreeSet<String> {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md")).unwrap();
    let table = docs
        .split_once("| code | reasons |")
        .expect("the table of reasons")
        .1
        .split("\n\n")
        .next()
        .unwrap();
    let moves = docs
        .split_once("An illegal move list is")
        .expect("the move reasons")
        .1
        .split("\n\n")
        .next()
        .unwrap();
    let mut found = std::collections::BTreeSet::new();
    for (row, text) in table.lines().map(|row| (true, row)).chain([(false, moves)]) {
        // A row's first cell is the status code; the reasons follow.
        let cells = if row {
            row_reasons(text)
        } else {
            text.to_owned()
        };
        for word in cells.split('`').skip(1).step_by(2) {
            // The paragraph on moves names the status code too.
            let is_code =
                (0..=16).any(|n| puzzled::api::error::code_name(Code::from_i32(n)) == word);
            if word.len() > 1
                && (row || !is_code)
                && word
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
            {
                found.insert(word.to_owned());
            }
        }
    }
    found
}

/// The cells of a table row after its first.
fn row_reasons(row: &str) -> String {
    row.trim_matches('|')
        .split_once('|')
        .map_or(String::new(), |(_, rest)| rest.to_owned())
}

#[test]
fn the_documented_reasons_are_exactly_the_reasons_the_code_gives() {
    let documented = documented_reasons();
    let coded: std::collections::BTreeSet<String> = puzzled::app::Reason::all()
        .map(|reason| reason.as_str().to_owned())
        .collect();
    let undocumented: Vec<&String> = coded.difference(&documented).collect();
    let unknown: Vec<&String> = documented.difference(&coded).collect();
    assert!(
        undocumented.is_empty() && unknown.is_empty(),
        "reasons the code gives but docs/api.md does not list: {undocumented:?}; \
         reasons docs/api.md lists that no code gives: {unknown:?}"
    );
    assert!(documented.contains("ALREADY_VISITED") && documented.contains("STORE_BUSY"));
}
