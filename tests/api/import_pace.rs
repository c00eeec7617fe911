//! ImportPuzzles against the receive limit: each message of the stream is
//! timed on its own, from the end of the one before, so an importer that
//! keeps sending goes on for as long as it sends, however long the whole
//! stream takes; one that goes silent, or trickles a message, is cut off
//! with DEADLINE_EXCEEDED and no summary, and learns what was stored by
//! sending the same request_ids again.

use std::time::{Duration, Instant};

use bytes::Bytes;
use prost::Message as _;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;

use super::helpers::*;

/// Only a hang guard: how long a test waits for what the server must do.
const HANG_GUARD: Duration = Duration::from_secs(60);
/// The least a receive limit of a second can be seen to take (a timer may
/// round it, and the test's clock starts a little after the server's).
const ONE_SECOND_AT_LEAST: Duration = Duration::from_millis(900);

fn item(n: u32, request_id: &str) -> proto::ImportPuzzlesRequest {
    proto::ImportPuzzlesRequest {
        puzzle: Some(proto::Puzzle {
            spec: Some(path(n)),
            ..Default::default()
        }),
        request_id: request_id.to_owned(),
    }
}

fn outcomes(summary: &proto::ImportPuzzlesResponse) -> Vec<proto::ImportOutcome> {
    summary
        .results
        .iter()
        .map(|result| proto::ImportOutcome::try_from(result.outcome).unwrap())
        .collect()
}

/// An import whose messages the test sends one by one, each when it
/// likes; the sender kept open is a client still connected and silent.
fn paced_import(
    app: &TestApp,
) -> (
    mpsc::Sender<proto::ImportPuzzlesRequest>,
    tokio::task::JoinHandle<Result<proto::ImportPuzzlesResponse, tonic::Status>>,
) {
    let (send, receive) = mpsc::channel(1);
    let mut client = app.client.clone();
    let call = tokio::spawn(async move {
        client
            .import_puzzles(ReceiverStream::new(receive))
            .await
            .map(tonic::Response::into_inner)
    });
    (send, call)
}

/// Sixteen puzzles, half a second apart: eight seconds of stream against
/// a receive limit of two. Timed whole, as a request of one message is,
/// the stream would be cut off after its fourth or fifth puzzle; timed
/// per message, every puzzle is stored and the summary lists them all.
#[tokio::test]
async fn an_importer_that_keeps_sending_goes_on_past_the_receive_limit() {
    let app = app_with(|c| c.receive_timeout_secs = 2).await;
    let (send, call) = paced_import(&app);
    let started = Instant::now();
    for i in 0..16 {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        if send
            .send(item(3 + i, &format!("steady-{i}")))
            .await
            .is_err()
        {
            break;
        }
    }
    drop(send);
    let summary = tokio::time::timeout(HANG_GUARD, call)
        .await
        .expect("the import was answered")
        .unwrap()
        .expect("the import was not cut off");
    assert!(started.elapsed() >= Duration::from_millis(7500));
    assert_eq!(outcomes(&summary), [proto::ImportOutcome::Created; 16]);
    assert_eq!(summary.created_count, 16);
    app.stop().await;
}

/// Six puzzles, 0.3 s apart (longer in all than the one-second limit),
/// then silence with the stream open: the call is answered
/// DEADLINE_EXCEEDED, naming the message that did not come, no sooner than
/// a second after the last puzzle, and with no summary. Sending the same
/// request_ids again reports all six REPLAYED and stores the new one.
#[tokio::test]
async fn an_importer_that_goes_silent_is_cut_off_and_learns_what_was_stored_by_replaying() {
    let app = app_with(|c| c.receive_timeout_secs = 1).await;
    let (send, call) = paced_import(&app);
    for i in 0..6 {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        if send
            .send(item(3 + i, &format!("silent-{i}")))
            .await
            .is_err()
        {
            break;
        }
    }
    let silent_since = Instant::now();
    let refused = tokio::time::timeout(HANG_GUARD, call)
        .await
        .expect("the silent import was held open")
        .unwrap()
        .expect_err("a silent import was answered with a summary");
    assert!(silent_since.elapsed() >= ONE_SECOND_AT_LEAST);
    assert_eq!(refused.code(), Code::DeadlineExceeded, "{refused:?}");
    assert!(
        refused
            .message()
            .starts_with("message 7 of the request stream did not arrive within 1000 ms"),
        "{refused:?}"
    );
    drop(send);

    let mut replay: Vec<_> = (0..6)
        .map(|i| item(3 + i, &format!("silent-{i}")))
        .collect();
    replay.push(item(20, "silent-6"));
    let summary = app
        .client
        .clone()
        .import_puzzles(tokio_stream::iter(replay))
        .await
        .expect("the replay is answered")
        .into_inner();
    let mut expected = vec![proto::ImportOutcome::Replayed; 6];
    expected.push(proto::ImportOutcome::Created);
    assert_eq!(outcomes(&summary), expected);
    assert_eq!((summary.replayed_count, summary.created_count), (6, 1));
    app.stop().await;
}

/// One ImportPuzzles message, framed, as an HTTP/2 client sends it.
fn framed(message: &proto::ImportPuzzlesRequest) -> Bytes {
    let body = message.encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend(u32::try_from(body.len()).unwrap().to_be_bytes());
    frame.extend(body);
    frame.into()
}

/// Over raw HTTP/2: three puzzles 0.4 s apart, then a message that
/// announces 100,000 bytes and sends ten. The stream is cut off
/// DEADLINE_EXCEEDED for that message alone: no sooner than the limit
/// after it began, with the three before it stored.
#[tokio::test]
async fn a_message_that_trickles_in_is_cut_off() {
    let app = app_with(|c| c.receive_timeout_secs = 1).await;
    let tcp = tokio::net::TcpStream::connect(app.addr()).await.unwrap();
    let (send, connection) = h2::client::handshake(tcp).await.unwrap();
    let _driver = tokio::spawn(connection);
    let mut send = send.ready().await.unwrap();
    let request = http::Request::post("http://localhost/puzzled.v1.PuzzleService/ImportPuzzles")
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .unwrap();
    let (response, mut body) = send.send_request(request, false).unwrap();
    for i in 0..3 {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(400)).await;
        }
        body.send_data(framed(&item(3 + i, &format!("trickle-{i}"))), false)
            .unwrap();
    }
    let mut prefix = vec![0u8];
    prefix.extend(100_000u32.to_be_bytes());
    prefix.extend([0u8; 10]);
    body.send_data(prefix.into(), false).unwrap();
    let trickle_began = Instant::now();
    let response = tokio::time::timeout(HANG_GUARD, response)
        .await
        .expect("the trickling message was never cut off")
        .unwrap();
    let trailers = match response.headers().get("grpc-status") {
        Some(_) => response.headers().clone(),
        None => {
            let mut answer = response.into_body();
            while let Some(data) = answer.data().await {
                let data = data.unwrap();
                answer.flow_control().release_capacity(data.len()).unwrap();
            }
            answer.trailers().await.unwrap().expect("trailers")
        }
    };
    assert!(trickle_began.elapsed() >= ONE_SECOND_AT_LEAST);
    assert_eq!(trailers["grpc-status"], "4", "{trailers:?}");
    let message = trailers["grpc-message"].to_str().unwrap();
    assert!(
        message.starts_with("message%204%20of%20the%20request%20stream"),
        "{message}"
    );

    let replay: Vec<_> = (0..3)
        .map(|i| item(3 + i, &format!("trickle-{i}")))
        .collect();
    let summary = app
        .client
        .clone()
        .import_puzzles(tokio_stream::iter(replay))
        .await
        .expect("the replay is answered")
        .into_inner();
    assert_eq!(outcomes(&summary), [proto::ImportOutcome::Replayed; 3]);
    app.stop().await;
}
