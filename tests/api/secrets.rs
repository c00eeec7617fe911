//! No secret reaches a log line or an error: the database password (in
//! the URL's user part or its query), the admin and writer tokens, whether the
//! server starts, fails to start, or answers calls that carry them.

use std::io::Read as _;
use std::process::{Command, Stdio};
use std::time::Duration;

use tonic::metadata::MetadataValue;

use crate::helpers::*;
use crate::postgres::PgSchema;

const BIN: &str = env!("CARGO_BIN_EXE_puzzled");
const PASSWORD: &str = "pw-hunter2-never-shown";
const ADMIN_TOKEN: &str = "admin-token-never-shown";
const WRITER_TOKEN: &str = "writer-token-never-shown";

/// `url` with `PASSWORD` as its user's password.
fn with_password(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    match rest.split_once('@') {
        Some((user, host)) => format!("{scheme}://{user}:{PASSWORD}@{host}"),
        None => format!("{scheme}://postgres:{PASSWORD}@{rest}"),
    }
}

fn assert_no_secret(output: &str) {
    for secret in [PASSWORD, ADMIN_TOKEN, WRITER_TOKEN] {
        assert!(!output.contains(secret), "a secret was shown: {output}");
    }
}

#[test]
fn a_store_that_cannot_be_opened_is_named_without_its_password() {
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    for url in [
        with_password(&format!(
            "postgres://puzzled@127.0.0.1:{closed_port}/puzzled"
        )),
        format!("postgres://127.0.0.1:{closed_port}/puzzled?user=puzzled&password={PASSWORD}"),
    ] {
        let out = Command::new(BIN)
            .args(["serve", "--listen", "127.0.0.1:0", "--database", &url])
            .env("PUZZLED_ADMIN_TOKEN", ADMIN_TOKEN)
            .env("PUZZLED_DATABASE_ACQUIRE_TIMEOUT_MS", "2000")
            .output()
            .unwrap();
        assert!(!out.status.success());
        let shown = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(shown.contains("opening the store"), "{shown}");
        assert!(
            shown.contains(":***@") || shown.contains("password=***"),
            "{shown}"
        );
        assert_no_secret(&shown);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_serving_replica_logs_no_secret() {
    let Some(schema) = PgSchema::create().await else {
        return;
    };
    let mut command = serve_command(
        &["--listen", "127.0.0.1:0"],
        &[
            ("PUZZLED_DATABASE_URL", &with_password(&schema.url())),
            ("PUZZLED_ADMIN_TOKEN", ADMIN_TOKEN),
            ("PUZZLED_WRITER_TOKENS", &format!("site={WRITER_TOKEN}")),
            ("PUZZLED_LOG", "debug"),
        ],
    );
    command.stderr(Stdio::piped());
    let Serving {
        mut child,
        start_up,
        addr,
        lines,
    } = Serving::start(command);
    let listening = start_up.last().unwrap();
    assert!(listening.contains("store postgres://"), "{listening}");
    let mut client = client_on(
        tonic::transport::Channel::from_shared(format!("http://{addr}"))
            .unwrap()
            .connect()
            .await
            .unwrap(),
    );
    let mut create = tonic::Request::new(create_request(path(4)));
    create.metadata_mut().insert(
        "authorization",
        MetadataValue::try_from(format!("Bearer {WRITER_TOKEN}")).unwrap(),
    );
    let created = client.create_puzzle(create).await.unwrap().into_inner();
    let delete = |token: &str| {
        let mut request = tonic::Request::new(proto::DeletePuzzleRequest {
            name: created.name.clone(),
        });
        request.metadata_mut().insert(
            "authorization",
            MetadataValue::try_from(format!("Bearer {token}")).unwrap(),
        );
        request
    };
    let refused = client
        .delete_puzzle(delete(&format!("{ADMIN_TOKEN}-but-wrong")))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::PermissionDenied, "{refused:?}");
    assert_no_secret(refused.message());
    client.delete_puzzle(delete(ADMIN_TOKEN)).await.unwrap();

    signal_process(&child, "TERM");
    let _ = tokio::time::timeout(Duration::from_secs(60), async {
        while child.try_wait().unwrap().is_none() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    let mut logs = String::new();
    for line in start_up.into_iter().chain(lines.map(Result::unwrap)) {
        logs.push_str(&line);
        logs.push('\n');
    }
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut logs)
        .unwrap();
    assert!(
        logs.contains("DeletePuzzle"),
        "the calls were logged: {logs}"
    );
    assert!(logs.contains(":***@"), "{logs}");
    assert_no_secret(&logs);
}
