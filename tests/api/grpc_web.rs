//! gRPC-Web on the gRPC port, as a browser sends it: HTTP/1.1 POSTs with
//! binary (`application/grpc-web+proto`) and text
//! (`application/grpc-web-text`, base64) framing, answers and errors with
//! their rich details, and CORS for the origins `--cors-origin` allows.
//! The client here is raw HTTP/1.1 over TCP so that the framing on the wire
//! is what is checked.

use std::collections::HashMap;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use prost::Message;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tonic::Code;

use super::errors::assert_bad;
use super::helpers::*;

/// A raw HTTP/1.1 response.
pub struct HttpResponse {
    pub status: u16,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

async fn http1(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> HttpResponse {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8(raw[..split].to_vec()).unwrap();
    let mut lines = head.lines();
    let status_line = lines.next().unwrap();
    assert!(status_line.starts_with("HTTP/1.1 "), "{status_line}");
    let status = status_line[9..12].parse().unwrap();
    let headers: HashMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers
        .get("transfer-encoding")
        .is_some_and(|v| v == "chunked")
    {
        body = dechunk(&body);
    }
    HttpResponse {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|w| w == b"\r\n").unwrap();
        let size =
            usize::from_str_radix(std::str::from_utf8(&data[..line_end]).unwrap().trim(), 16)
                .unwrap();
        data = &data[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

/// A gRPC-Web frame: flag byte, big-endian length, payload.
fn frame(flag: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![flag];
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    out.extend_from_slice(payload);
    out
}

/// The messages and the trailers of a gRPC-Web response body; trailers
/// sent as HTTP headers (a trailers-only answer) are taken from there.
fn unframe(response: &HttpResponse, mut body: &[u8]) -> (Vec<Vec<u8>>, HashMap<String, String>) {
    let mut messages = Vec::new();
    let mut trailers = HashMap::new();
    while !body.is_empty() {
        let flag = body[0];
        let len = u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize;
        let payload = &body[5..5 + len];
        if flag & 0x80 != 0 {
            for line in std::str::from_utf8(payload).unwrap().split("\r\n") {
                if let Some((k, v)) = line.split_once(':') {
                    trailers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
                }
            }
        } else {
            messages.push(payload.to_vec());
        }
        body = &body[5 + len..];
    }
    for key in ["grpc-status", "grpc-message", "grpc-status-details-bin"] {
        if let Some(v) = response.headers.get(key) {
            trailers.entry(key.to_owned()).or_insert_with(|| v.clone());
        }
    }
    (messages, trailers)
}

/// Base64 text as gRPC-Web text responses send it: padded pieces one after
/// another, each decoded on its own.
fn decode_text(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, chunk) in text.chunks(4).enumerate() {
        if chunk.contains(&b'=') || (i + 1) * 4 >= text.len() {
            out.extend(STANDARD.decode(&text[start..(i + 1) * 4]).unwrap());
            start = (i + 1) * 4;
        }
    }
    out
}

/// A unary call over gRPC-Web: binary framing, or text when `text`.
async fn call(
    app: &TestApp,
    method: &str,
    request: &impl Message,
    text: bool,
    extra: &[(&str, &str)],
) -> (HttpResponse, Vec<Vec<u8>>, HashMap<String, String>) {
    call_at(&app.addr(), method, request, text, extra).await
}

/// A unary call over gRPC-Web to the server at `addr` (host:port): its
/// response, messages and trailers.
pub async fn call_at(
    addr: &str,
    method: &str,
    request: &impl Message,
    text: bool,
    extra: &[(&str, &str)],
) -> (HttpResponse, Vec<Vec<u8>>, HashMap<String, String>) {
    let framed = frame(0, &request.encode_to_vec());
    let (content_type, body) = if text {
        (
            "application/grpc-web-text",
            STANDARD.encode(&framed).into_bytes(),
        )
    } else {
        ("application/grpc-web+proto", framed)
    };
    // The answer's framing follows `accept`, as grpc-web clients send it.
    let mut headers = vec![
        ("content-type", content_type),
        ("accept", content_type),
        ("x-grpc-web", "1"),
    ];
    headers.extend_from_slice(extra);
    let response = http1(
        addr,
        "POST",
        &format!("/puzzled.v1.PuzzleService/{method}"),
        &headers,
        &body,
    )
    .await;
    assert_eq!(
        response.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&response.body)
    );
    let body = if text {
        decode_text(&response.body)
    } else {
        response.body.clone()
    };
    let (messages, trailers) = unframe(&response, &body);
    (response, messages, trailers)
}

#[tokio::test]
async fn unary_calls_over_grpc_web_in_binary_and_text_framing() {
    let mut app = spawn_app().await;
    // The same puzzle over native gRPC, for the expected answer.
    let request = solve_request(geography(5, &[0, 1, 1, 2, 2, 3, 3, 4, 4, 0], 0));
    let expected = app
        .client
        .solve(request.clone())
        .await
        .unwrap()
        .into_inner();
    for text in [false, true] {
        let (response, messages, trailers) = call(&app, "Solve", &request, text, &[]).await;
        let want = if text {
            "application/grpc-web-text"
        } else {
            "application/grpc-web+proto"
        };
        assert!(
            response.headers["content-type"].starts_with(want),
            "{:?}",
            response.headers
        );
        assert_eq!(trailers["grpc-status"], "0", "{trailers:?}");
        assert_eq!(messages.len(), 1);
        let solution = proto::Solution::decode(messages[0].as_slice()).unwrap();
        assert_eq!(solution.winner, expected.winner);
        assert_eq!(solution.canonical_hash, expected.canonical_hash);
        assert!(solution.cached, "the native call left it in the cache");
        assert!(response.headers.contains_key("x-request-id"));
    }
    app.stop().await;
}

#[tokio::test]
async fn errors_over_grpc_web_carry_their_details() {
    let mut app = spawn_app().await;
    let bad = solve_request(proto::PuzzleSpec {
        game: proto::Game::Geography as i32,
        graph: graph(10, &[0, 1, 1, 2, 3, 4, 5, 12]),
        ..Default::default()
    });
    for text in [false, true] {
        let (_, messages, trailers) = call(&app, "Solve", &bad, text, &[]).await;
        assert!(messages.is_empty());
        let code = Code::from_i32(trailers["grpc-status"].parse().unwrap());
        let message = percent_decode(&trailers["grpc-message"]);
        let details = STANDARD
            .decode(trailers["grpc-status-details-bin"].trim_end_matches('='))
            .or_else(|_| {
                base64::engine::general_purpose::STANDARD_NO_PAD
                    .decode(trailers["grpc-status-details-bin"].trim_end_matches('='))
            })
            .expect("base64 details");
        let status = tonic::Status::with_details(code, message, details.into());
        assert_bad(
            &status,
            Code::InvalidArgument,
            "spec.graph.edges[7]",
            "vertex 12 out of range 0..10",
            "VERTEX_OUT_OF_RANGE",
        );
    }
    // The server goes on answering native gRPC.
    app.client
        .solve(solve_request(geography(3, &[0, 1, 1, 2], 0)))
        .await
        .unwrap();
    app.stop().await;
}

/// grpc-message is percent-encoded (gRPC over HTTP/2, "Responses").
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

/// The preflight a browser sends before a cross-origin gRPC-Web call.
async fn preflight(app: &TestApp, origin: &str) -> HttpResponse {
    let headers = [
        ("origin", origin),
        ("access-control-request-method", "POST"),
        ("access-control-request-headers", "content-type,x-grpc-web"),
    ];
    http1(
        &app.addr(),
        "OPTIONS",
        "/puzzled.v1.PuzzleService/Solve",
        &headers,
        b"",
    )
    .await
}

#[tokio::test]
async fn cors_allows_only_the_configured_origins() {
    // Default: same origin only, no cross-origin permission given.
    let app = spawn_app().await;
    let response = preflight(&app, "https://puzzles.example").await;
    assert!(
        !response.headers.contains_key("access-control-allow-origin"),
        "{:?}",
        response.headers
    );
    app.stop().await;

    let app = app_with(|config| config.cors_origins = vec!["https://puzzles.example".into()]).await;
    let response = preflight(&app, "https://puzzles.example").await;
    assert_eq!(
        response.headers["access-control-allow-origin"],
        "https://puzzles.example"
    );
    let allowed = response.headers["access-control-allow-headers"].to_ascii_lowercase();
    assert!(
        allowed.contains("x-grpc-web") && allowed.contains("content-type"),
        "{allowed}"
    );
    let other = preflight(&app, "https://elsewhere.example").await;
    assert!(!other.headers.contains_key("access-control-allow-origin"));
    // An actual call from the allowed origin exposes the status headers.
    let (response, _, trailers) = call(
        &app,
        "Solve",
        &solve_request(geography(3, &[0, 1, 1, 2], 0)),
        false,
        &[("origin", "https://puzzles.example")],
    )
    .await;
    assert_eq!(trailers["grpc-status"], "0");
    let exposed = response.headers["access-control-expose-headers"].to_ascii_lowercase();
    for header in [
        "grpc-status",
        "grpc-message",
        "grpc-status-details-bin",
        "x-request-id",
    ] {
        assert!(exposed.contains(header), "{header} in {exposed}");
    }
    app.stop().await;
}

/// An origin that is not one (no scheme, or a path) stops the server at
/// start-up, naming it.
#[tokio::test]
async fn a_malformed_cors_origin_is_refused_at_start_up() {
    for origin in [
        "puzzles.example",
        "https://puzzles.example/page",
        "https://",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let config = puzzled::config::Config {
            cors_origins: vec![origin.into()],
            ..test_config(dir.path())
        };
        let app = puzzled::server::Application::build(config).await.unwrap();
        let error = app.run_until(async {}).await.unwrap_err().to_string();
        assert!(
            error.contains(origin) && error.contains("--cors-origin"),
            "{error}"
        );
    }
}
