//! Who may write and how fast: with writer tokens, CreatePuzzle needs a
//! writer's (or the admin's) bearer token while reads stay open; the write
//! rate refuses a writer or an address past its bucket with
//! RESOURCE_EXHAUSTED, a reason, `retry-after` and RetryInfo (the work
//! budget's refusals are in `fair_share`); SIGHUP reads
//! the tokens file again. No test here waits for a bucket to refill: the
//! refill is tested on a fake clock in `src/app/access.rs`.

use tonic::metadata::MetadataValue;
use tonic::{Code, Request};
use tonic_types::StatusExt as _;

use crate::helpers::*;

const ALICE: &str = "alice-token-0123456789";
const BOB: &str = "bob-token-0123456789ab";
const ADMIN: &str = "admin-token-0123456789";

fn with_token<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        MetadataValue::try_from(format!("Bearer {token}")).unwrap(),
    );
    request
}

#[tokio::test]
async fn with_writer_tokens_only_writers_create_and_reads_stay_open() {
    let mut app = app_with(|config| {
        config.writer_tokens = Some(format!("alice={ALICE}, bob={BOB}"));
        config.admin_token = Some(ADMIN.into());
    })
    .await;
    let refused = app
        .client
        .create_puzzle(create_request(path(3)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert_eq!(error_reason(&refused), "WRITER_TOKEN_MISSING");
    let refused = app
        .client
        .create_puzzle(with_token(create_request(path(3)), "alice-token-but-wrong"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    assert_eq!(error_reason(&refused), "WRITER_TOKEN_WRONG");
    let mut names = Vec::new();
    for token in [ALICE, BOB, ADMIN] {
        let created = app
            .client
            .create_puzzle(with_token(create_request(path(4)), token))
            .await
            .unwrap_or_else(|e| panic!("{token}: {e:?}"))
            .into_inner();
        names.push(created.name);
    }
    // Reads and solves need no token.
    app.read(&names[0]).await;
    assert_eq!(app.listed().await.len(), 3);
    app.solve(path(5)).await;
    // A writer's token does not delete: that is the admin's.
    let refused = app
        .client
        .delete_puzzle(with_token(
            proto::DeletePuzzleRequest {
                name: names[0].clone(),
            },
            ALICE,
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    assert_eq!(error_reason(&refused), "ADMIN_TOKEN_WRONG");
}

/// An `authorization` value that is no bearer token this server could
/// read (another scheme, bytes past ASCII, as a pasted `…` makes) is not
/// the server's to judge on a call that needs no token: it goes through,
/// charged to its address. Where a token is needed it counts as none.
#[tokio::test]
async fn an_authorization_that_is_no_bearer_token_is_judged_only_where_one_is_needed() {
    let with_raw = |value: &[u8]| {
        let mut request = Request::new(create_request(path(3)));
        request.metadata_mut().insert(
            "authorization",
            MetadataValue::try_from(value).expect("HTTP takes bytes past ASCII"),
        );
        request
    };
    let odd: [&[u8]; 3] = [
        "Bearer \u{2026}".as_bytes(),
        b"Basic czNjcmV0",
        "\u{2026}".as_bytes(),
    ];
    let mut open = spawn_app().await;
    for value in odd {
        open.client
            .create_puzzle(with_raw(value))
            .await
            .unwrap_or_else(|e| panic!("{:?}: {e:?}", String::from_utf8_lossy(value)));
    }
    open.stop().await;
    let mut guarded = app_with(|config| {
        config.writer_tokens = Some(format!("alice={ALICE}"));
    })
    .await;
    for value in odd {
        let refused = guarded
            .client
            .create_puzzle(with_raw(value))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
        assert_eq!(error_reason(&refused), "WRITER_TOKEN_MISSING");
    }
    guarded.stop().await;
}

/// The reason, `retry-after` seconds and RetryInfo delay of a rate-limit
/// refusal.
fn rate_limited(status: &tonic::Status) -> (String, u64, std::time::Duration) {
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    let seconds = status
        .metadata()
        .get("retry-after")
        .expect("retry-after")
        .to_str()
        .unwrap()
        .parse()
        .expect("whole seconds");
    let delay = status
        .get_error_details()
        .retry_info()
        .and_then(|info| info.retry_delay)
        .expect("RetryInfo");
    (error_reason(status), seconds, delay)
}

#[tokio::test]
async fn writes_past_the_rate_are_refused_per_writer_and_per_address() {
    let mut app = app_with(|config| {
        config.writer_tokens = Some(format!("alice={ALICE},bob={BOB}"));
        config.admin_token = Some(ADMIN.into());
        config.write_rate_per_minute = 2;
        config.write_burst = 2;
    })
    .await;
    for _ in 0..2 {
        app.client
            .create_puzzle(with_token(create_request(path(3)), ALICE))
            .await
            .unwrap();
    }
    let refused = app
        .client
        .create_puzzle(with_token(create_request(path(3)), ALICE))
        .await
        .unwrap_err();
    let (reason, seconds, delay) = rate_limited(&refused);
    assert_eq!(reason, "WRITE_RATE_EXCEEDED");
    // Two a minute: a token every 30 s, the first one just taken.
    assert!((1..=30).contains(&seconds), "{seconds}");
    assert!(
        delay <= std::time::Duration::from_secs(seconds),
        "{delay:?}"
    );
    assert!(
        refused.message().contains("writer alice"),
        "{}",
        refused.message()
    );
    // Bob has a bucket of his own, and the admin none.
    app.client
        .create_puzzle(with_token(create_request(path(3)), BOB))
        .await
        .unwrap();
    for _ in 0..5 {
        app.client
            .create_puzzle(with_token(create_request(path(3)), ADMIN))
            .await
            .unwrap();
    }
    app.stop().await;

    // Without writer tokens, creates are charged to their address, and a
    // token the server does not know (a proxy's, say) is not its to judge:
    // the call goes through, charged to the address too.
    let mut app = app_with(|config| {
        config.write_rate_per_minute = 1;
        config.write_burst = 1;
    })
    .await;
    app.client
        .create_puzzle(with_token(create_request(path(3)), "someone-elses-token"))
        .await
        .unwrap();
    let refused = app
        .client
        .create_puzzle(create_request(path(3)))
        .await
        .unwrap_err();
    assert_eq!(rate_limited(&refused).0, "WRITE_RATE_EXCEEDED");
    assert!(
        refused.message().contains("address 127.0.0.1"),
        "{}",
        refused.message()
    );
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sighup_reads_the_tokens_file_again() {
    const CAROL: &str = "carol-token-0123456789";
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("writers.txt");
    std::fs::write(&tokens, format!("# writers\nalice={ALICE}\n")).unwrap();
    let served = Served::start(
        dir.path(),
        &[("PUZZLED_WRITER_TOKENS_FILE", tokens.to_str().unwrap())],
    );
    let mut client = client_on(
        tonic::transport::Channel::from_shared(format!("http://{}", served.addr))
            .unwrap()
            .connect()
            .await
            .unwrap(),
    );
    let create = |token: &str| with_token(create_request(path(3)), token);
    client.create_puzzle(create(ALICE)).await.unwrap();
    let refused = client.create_puzzle(create(CAROL)).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);

    // Alice revoked, Carol added.
    std::fs::write(&tokens, format!("carol={CAROL}\n")).unwrap();
    served.hang_up();
    served.line_with("writer tokens read again");
    client.create_puzzle(create(CAROL)).await.unwrap();
    let refused = client.create_puzzle(create(ALICE)).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);

    // A file that does not read leaves the tokens as they were, and the
    // warning names the entry, not its token.
    std::fs::write(&tokens, "carol=tiny9\n").unwrap();
    served.hang_up();
    let warning = served.line_with("could not be read");
    assert!(warning.contains("entry 1"), "{warning}");
    assert!(!warning.contains("tiny9"), "{warning}");
    client.create_puzzle(create(CAROL)).await.unwrap();
}
