//! The server on PostgreSQL (`PUZZLED_TEST_POSTGRES`, e.g.
//! `postgres://postgres@127.0.0.1:5432/test`; skipped with one line
//! without it): the API on one replica, two replicas sharing one database,
//! and a database that goes away and comes back. Each test works in a
//! schema of its own.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use sqlx::Connection as _;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;
use tonic::Code;

use crate::helpers::*;

pub const POSTGRES_ENV: &str = "PUZZLED_TEST_POSTGRES";

/// A schema of one test's own in the database of `PUZZLED_TEST_POSTGRES`,
/// dropped when the test ends.
pub struct PgSchema {
    admin_url: String,
    pub name: String,
}

impl PgSchema {
    /// `None`, after one line on stderr for the whole run, when
    /// `PUZZLED_TEST_POSTGRES` is not set.
    pub async fn create() -> Option<PgSchema> {
        let Ok(admin_url) = std::env::var(POSTGRES_ENV) else {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| {
                use std::io::Write as _;
                let _ = writeln!(
                    std::io::stderr(),
                    "skipped: the PostgreSQL server tests need {POSTGRES_ENV}=postgres://USER@HOST:PORT/DATABASE"
                );
            });
            return None;
        };
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_micros();
        let name = format!(
            "puzzled_api_{}_{}_{stamp}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let schema = PgSchema { admin_url, name };
        schema
            .admin(&format!("CREATE SCHEMA {}", schema.name))
            .await
            .unwrap_or_else(|e| panic!("{POSTGRES_ENV}={}: {e}", schema.admin_url));
        Some(schema)
    }

    /// The URL a replica uses: this schema first on its search path, and
    /// the schema's name as the application name, so the test can find
    /// the replica's sessions.
    pub fn url(&self) -> String {
        self.url_through(None)
    }

    /// [`PgSchema::url`] with the server reached at `127.0.0.1:port`.
    pub fn url_through(&self, port: Option<u16>) -> String {
        let (scheme, rest) = self.admin_url.split_once("://").expect("a URL");
        let (authority, database) = rest.split_once('/').unwrap_or((rest, ""));
        let (user, _) = authority.rsplit_once('@').unwrap_or(("", authority));
        let authority = match (port, user) {
            (None, _) => authority.to_owned(),
            (Some(port), "") => format!("127.0.0.1:{port}"),
            (Some(port), user) => format!("{user}@127.0.0.1:{port}"),
        };
        let separator = if database.contains('?') { '&' } else { '?' };
        format!(
            "{scheme}://{authority}/{database}{separator}options[search_path]={0}&application_name={0}",
            self.name
        )
    }

    /// The server's host and port.
    pub fn server(&self) -> String {
        let rest = self.admin_url.split_once("://").expect("a URL").1;
        let authority = rest.split('/').next().unwrap_or(rest);
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        if host_port.contains(':') {
            host_port.to_owned()
        } else {
            format!("{host_port}:5432")
        }
    }

    /// Runs `sql` on a connection of its own to the test database.
    pub async fn admin(&self, sql: &str) -> Result<u64, sqlx::Error> {
        run_on(&self.admin_url, sql).await
    }

    /// Ends every session a replica holds on this schema, as a restarting
    /// or failing-over database server does.
    pub async fn terminate_sessions(&self) -> u64 {
        self.admin(&format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = '{}'",
            self.name
        ))
        .await
        .unwrap()
    }

    /// Sessions of this schema's replicas that run over TLS.
    pub async fn tls_sessions(&self) -> i64 {
        let mut admin = sqlx::PgConnection::connect(&self.admin_url).await.unwrap();
        let count: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) \
             WHERE s.ssl AND a.application_name = $1",
        )
        .bind(&self.name)
        .fetch_one(&mut admin)
        .await
        .unwrap();
        admin.close().await.unwrap();
        count
    }

    /// Rows of `table` in this schema.
    pub async fn count(&self, table: &str) -> i64 {
        let mut admin = sqlx::PgConnection::connect(&self.admin_url).await.unwrap();
        let count: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM {}.{table}",
            self.name
        )))
        .fetch_one(&mut admin)
        .await
        .unwrap();
        admin.close().await.unwrap();
        count
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        let admin_url = self.admin_url.clone();
        let drop_schema = format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name);
        // Inside the test's runtime nothing may block on a future: a thread
        // of its own drops the schema.
        let _ = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(run_on(&admin_url, &drop_schema))
        })
        .join();
    }
}

/// Runs `sql` on a connection of its own to the database at `url`.
async fn run_on(url: &str, sql: &str) -> Result<u64, sqlx::Error> {
    let mut admin = sqlx::PgConnection::connect(url).await?;
    let done = sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
        .execute(&mut admin)
        .await?;
    admin.close().await?;
    Ok(done.rows_affected())
}

/// A TCP relay between a replica and the database server that the test can
/// cut (every relayed connection closed, new ones closed on arrival) and
/// mend: the database going away and coming back, as the replica sees it.
pub struct Link {
    pub port: u16,
    up: Arc<AtomicBool>,
    relays: Arc<Mutex<Vec<JoinHandle<()>>>>,
    accepting: JoinHandle<()>,
}

impl Link {
    pub async fn to(server: String) -> Link {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let relays = Arc::new(Mutex::new(Vec::new()));
        let accepting = tokio::spawn({
            let (up, relays) = (up.clone(), relays.clone());
            async move {
                while let Ok((mut client, _)) = listener.accept().await {
                    if !up.load(Ordering::SeqCst) {
                        continue;
                    }
                    let server = server.clone();
                    relays.lock().await.push(tokio::spawn(async move {
                        if let Ok(mut upstream) = TcpStream::connect(server).await {
                            let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
                        }
                    }));
                }
            }
        });
        Link {
            port,
            up,
            relays,
            accepting,
        }
    }

    pub async fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        for relay in self.relays.lock().await.drain(..) {
            relay.abort();
        }
    }

    pub fn mend(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

/// A replica on `url`, its calls waiting at most `acquire_timeout` for a
/// database connection.
async fn replica(url: String, acquire_timeout: Duration) -> TestApp {
    app_with(|config| {
        config.database_url = url;
        config.database_acquire_timeout_ms = acquire_timeout.as_millis() as u64;
    })
    .await
}

/// A puzzle created through one replica is read, listed and solved through
/// the other; a create retried on the other replica returns the first
/// result; a verdict stored by one is served, cached, by the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_share_puzzles_request_ids_and_verdicts() {
    let Some(schema) = PgSchema::create().await else {
        return;
    };
    let one = replica(schema.url(), Duration::from_secs(30)).await;
    let other = replica(schema.url(), Duration::from_secs(30)).await;
    let request = proto::CreatePuzzleRequest {
        request_id: "one-create".into(),
        ..create_request(path(6))
    };
    let created = one
        .client
        .clone()
        .create_puzzle(request.clone())
        .await
        .unwrap()
        .into_inner();
    let retried = other
        .client
        .clone()
        .create_puzzle(request)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(retried, created);
    let read = other.read(&created.name).await;
    assert_eq!(read, created);
    let listed = other.listed().await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].name, created.name);
    let solve = |app: &TestApp| {
        let mut client = app.client.clone();
        let name = created.name.clone();
        async move {
            client
                .solve_puzzle(proto::SolvePuzzleRequest {
                    name,
                    include_all_starts: true,
                    include_winning_moves: true,
                })
                .await
                .unwrap()
                .into_inner()
        }
    };
    let first = solve(&one).await;
    assert!(!first.cached);
    let second = solve(&other).await;
    assert!(second.cached, "the verdict the first replica stored");
    assert_eq!(
        (
            second.winner,
            &second.detail,
            &second.winning_moves,
            second.solve_time
        ),
        (
            first.winner,
            &first.detail,
            &first.winning_moves,
            first.solve_time
        )
    );
    assert_eq!(schema.count("verdicts").await, 1);
    one.stop().await;
    other.stop().await;
}

/// The database going away: calls fail UNAVAILABLE and health turns
/// NOT_SERVING; when it comes back the replica serves again by itself, and
/// nothing acknowledged before is lost. Then every session is ended from
/// the server side (`pg_terminate_backend`): the replica reconnects.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_recovers_by_itself_when_the_database_comes_back() {
    let Some(schema) = PgSchema::create().await else {
        return;
    };
    let link = Link::to(schema.server()).await;
    let app = replica(schema.url_through(Some(link.port)), Duration::from_secs(2)).await;
    let create = |n| {
        let mut client = app.client.clone();
        async move { client.create_puzzle(create_request(path(n))).await }
    };
    let before = create(3)
        .await
        .expect("a create before the fault")
        .into_inner();
    assert!(serving(&app).await);

    link.cut().await;
    for n in 4..7 {
        let status = create(n).await.expect_err("a create with no database");
        assert_eq!(status.code(), Code::Unavailable, "{status:?}");
        assert!(
            ["STORE_IO_ERROR", "STORE_BUSY"].contains(&error_reason(&status).as_str()),
            "{status:?}"
        );
    }
    until_async(|| async { !serving(&app).await }).await;

    link.mend();
    until_async(|| async { serving(&app).await }).await;
    create(10)
        .await
        .expect("a create once the database is back");

    assert!(
        schema.terminate_sessions().await > 0,
        "the replica had sessions"
    );
    let mut outcomes = Vec::new();
    for n in 11..15 {
        outcomes.push(create(n).await.map(|_| ()));
    }
    for outcome in &outcomes {
        if let Err(status) = outcome {
            assert_eq!(status.code(), Code::Unavailable, "{status:?}");
        }
    }
    create(20)
        .await
        .expect("a create after the sessions were ended");
    let read = app.read(&before.name).await;
    assert_eq!(read, before);
    let acknowledged = 3 + outcomes.iter().filter(|o| o.is_ok()).count() as i64;
    assert_eq!(schema.count("puzzles").await, acknowledged);
    app.stop().await;
}

/// The same solve sent to two replicas at once is computed by one of them:
/// the other waits for the verdict it stores and answers from it
/// (`cached`), and one verdict row is left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identical_solves_on_two_replicas_compute_once() {
    let Some(schema) = PgSchema::create().await else {
        return;
    };
    let one = replica(schema.url(), Duration::from_secs(30)).await;
    let other = replica(schema.url(), Duration::from_secs(30)).await;
    // Large enough that both replicas look the verdict up before either
    // has one to store.
    let n = 60_000;
    let spec = geography(n, &random_graph(n, 3 * n as usize, 7), 0);
    let solve = |app: &TestApp| {
        let mut client = app.client.clone();
        let request = proto::SolveRequest {
            include_all_starts: true,
            include_winning_moves: true,
            ..solve_request(spec.clone())
        };
        async move { client.solve(request).await.unwrap().into_inner() }
    };
    let (a, b) = tokio::join!(solve(&one), solve(&other));
    assert_eq!(
        [a.cached, b.cached]
            .iter()
            .filter(|cached| !**cached)
            .count(),
        1,
        "one replica computed, the other served its verdict"
    );
    assert_eq!((a.winner, &a.detail), (b.winner, &b.detail));
    assert_eq!(schema.count("verdicts").await, 1);
    assert_eq!(
        schema.count("solve_claims").await,
        0,
        "the claim was released"
    );
    one.stop().await;
    other.stop().await;
}
