//! The cluster deployment of docker-compose.yml, run as processes: two
//! replicas started with the compose file's command and environment (only
//! the addresses differ: ports on 127.0.0.1, and a schema of the test's
//! own in the `PUZZLED_TEST_POSTGRES` database), HAProxy with the repo's
//! deploy/cluster/haproxy.cfg in front of them. Calls through the balancer
//! spread over both replicas, an identical solve on both computes once, a
//! replica whose database is cut off reports NOT_SERVING and HAProxy's
//! gRPC health check takes it out of rotation, a replica killed with
//! SIGKILL in the middle of writes loses nothing it acknowledged, and calls
//! keep succeeding through the other.
//!
//! Needs PostgreSQL (`PUZZLED_TEST_POSTGRES`) and `haproxy` on PATH (the
//! Debian package); skipped with one line without either, unless
//! `PUZZLED_TEST_HAPROXY=1` makes a missing balancer an error.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tonic::transport::Channel;
use yaml_rust2::{Yaml, YamlLoader};

use crate::helpers::*;
use crate::postgres::{Link, PgSchema};

const BIN: &str = env!("CARGO_BIN_EXE_puzzled");
const ENABLE: &str = "PUZZLED_TEST_HAPROXY";
const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// docker-compose.yml, parsed.
fn compose() -> Yaml {
    let text = std::fs::read_to_string(format!("{REPO}/docker-compose.yml")).unwrap();
    YamlLoader::load_from_str(&text)
        .expect("docker-compose.yml is YAML")
        .remove(0)
}

fn service<'a>(compose: &'a Yaml, name: &str) -> &'a Yaml {
    let service = &compose["services"][name];
    assert!(!service.is_badvalue(), "no service {name}");
    service
}

fn strings(list: &Yaml) -> Vec<String> {
    list.as_vec()
        .unwrap_or_else(|| panic!("a list: {list:?}"))
        .iter()
        .map(|item| item.as_str().expect("a string").to_owned())
        .collect()
}

fn environment(service: &Yaml) -> BTreeMap<String, String> {
    service["environment"]
        .as_hash()
        .expect("environment as a mapping")
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Yaml::String(s) => s.clone(),
                Yaml::Integer(i) => i.to_string(),
                other => panic!("environment value {other:?}"),
            };
            (k.as_str().unwrap().to_owned(), value)
        })
        .collect()
}

/// The balancer's configuration file, as the compose file mounts it.
fn balancer_config(compose: &Yaml) -> String {
    let volumes = strings(&service(compose, "balancer")["volumes"]);
    let source = volumes
        .iter()
        .find_map(|v| v.strip_suffix(":/usr/local/etc/haproxy/haproxy.cfg:ro"))
        .expect("the balancer mounts its configuration read-only");
    format!("{REPO}/{}", source.trim_start_matches("./"))
}

/// The compose file parses, its cluster services are in the `cluster`
/// profile (the default service is not), both replicas run the same
/// command with the same environment, every variable they set is one the
/// binary reads, and the balancer's configuration is the repo's file and
/// reads every address the compose file gives it.
#[test]
fn the_compose_file_describes_the_cluster_the_test_runs() {
    let compose = compose();
    let profiles = |name| strings(&service(&compose, name)["profiles"]);
    assert!(service(&compose, "puzzled")["profiles"].is_badvalue());
    for name in ["postgres", "replica-1", "replica-2", "balancer"] {
        assert_eq!(profiles(name), ["cluster"], "{name}");
    }
    let (one, two) = (
        service(&compose, "replica-1"),
        service(&compose, "replica-2"),
    );
    assert_eq!(strings(&one["command"]), strings(&two["command"]));
    assert_eq!(environment(one), environment(two));
    let replica_env = environment(one);
    assert!(replica_env["PUZZLED_DATABASE_URL"].starts_with("postgres://"));
    let help = Command::new(BIN)
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for name in replica_env.keys() {
        // PUZZLED_LOG_FORMAT is read before the flags, by the logger.
        assert!(
            help.contains(name.as_str()) || name == "PUZZLED_LOG_FORMAT",
            "{name} is not a variable of `puzzled serve`"
        );
    }
    let config = std::fs::read_to_string(balancer_config(&compose)).unwrap();
    for name in environment(service(&compose, "balancer")).keys() {
        assert!(config.contains(&format!("${{{name}}}")), "{name}");
    }
    assert!(config.contains("proto h2"), "HTTP/2 to the replicas");
    assert!(config.contains("grpc.health.v1") && config.contains("tcp-check expect"));
}

fn haproxy_available() -> bool {
    let found = Command::new("haproxy")
        .arg("-v")
        .output()
        .is_ok_and(|o| o.status.success());
    if std::env::var(ENABLE).is_ok_and(|v| v == "1") && !found {
        panic!("{ENABLE}=1 but haproxy is not on PATH (apt-get install haproxy)");
    }
    if !found {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the cluster test needs haproxy on PATH (apt-get install haproxy; {ENABLE}=1 makes its absence an error)"
        );
    }
    found
}

/// A child process killed (SIGKILL) when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_addr() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

/// Output of the processes, shown with `TEST_LOG`.
fn output() -> Stdio {
    if std::env::var_os("TEST_LOG").is_some() {
        Stdio::inherit()
    } else {
        Stdio::null()
    }
}

struct Replica {
    process: Process,
    addr: SocketAddr,
    metrics: SocketAddr,
}

impl Replica {
    /// A replica as the compose file starts one, on `schema`, reaching the
    /// database through `link` when given.
    fn start(compose: &Yaml, schema: &PgSchema, link: Option<&Link>) -> Replica {
        let service = service(compose, "replica-1");
        let (addr, metrics) = (free_addr(), free_addr());
        let mut env = environment(service);
        env.insert("PUZZLED_LISTEN".into(), addr.to_string());
        env.insert(
            "PUZZLED_DATABASE_URL".into(),
            schema.url_through(link.map(|link| link.port)),
        );
        env.insert("PUZZLED_METRICS_LISTEN".into(), metrics.to_string());
        let child = Command::new(BIN)
            .args(strings(&service["command"]))
            .envs(env)
            .stdout(output())
            .stderr(output())
            .spawn()
            .unwrap();
        Replica {
            process: Process(child),
            addr,
            metrics,
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    async fn scrape(&self) -> String {
        http_get(self.metrics, "/metrics").await.1
    }
}

/// Waits until the server at `url` reports SERVING.
async fn until_serving(url: &str) {
    until_async(|| async {
        puzzled::server::health_check(url, Duration::from_secs(1))
            .await
            .unwrap_or(false)
    })
    .await;
}

async fn client(url: String) -> proto::puzzle_service_client::PuzzleServiceClient<Channel> {
    client_on(Channel::from_shared(url).unwrap().connect().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_behind_haproxy_spreads_calls_and_survives_a_killed_replica() {
    let Some(schema) = PgSchema::create().await else {
        return;
    };
    if !haproxy_available() {
        return;
    }
    let compose = compose();
    // The first replica reaches the database through a link the test can
    // cut, to take its health down.
    let link = Link::to(schema.server()).await;
    let mut replicas = [
        Replica::start(&compose, &schema, Some(&link)),
        Replica::start(&compose, &schema, None),
    ];
    for replica in &replicas {
        until_serving(&replica.url()).await;
    }
    let balancer_addr = free_addr();
    let mut balancer_env = environment(service(&compose, "balancer"));
    balancer_env.insert("PUZZLED_BALANCER_LISTEN".into(), balancer_addr.to_string());
    balancer_env.insert("PUZZLED_REPLICA_1".into(), replicas[0].addr.to_string());
    balancer_env.insert("PUZZLED_REPLICA_2".into(), replicas[1].addr.to_string());
    let _balancer = Process(
        Command::new("haproxy")
            .arg("-f")
            .arg(balancer_config(&compose))
            .envs(balancer_env)
            .stdout(output())
            .stderr(output())
            .spawn()
            .unwrap(),
    );
    let through_balancer = format!("http://{balancer_addr}");
    until_serving(&through_balancer).await;
    let mut balanced = client(through_balancer).await;

    // Calls spread over both replicas.
    let creates = |text: &str| {
        sample(
            text,
            "puzzled_requests_total",
            &[("method", "/puzzled.v1.PuzzleService/CreatePuzzle")],
        )
    };
    let mut created = Vec::new();
    for n in 2..10 {
        let puzzle = balanced
            .create_puzzle(create_request(path(n)))
            .await
            .expect("a create through the balancer")
            .into_inner();
        created.push(puzzle.name);
    }
    for replica in &replicas {
        assert!(
            creates(&replica.scrape().await) >= 2.0,
            "every replica served creates"
        );
    }

    // The same solve sent to each replica at once is computed once.
    let runs = |text: &str| sample(text, "puzzled_solver_runs_total", &[("game", "geography")]);
    let mut runs_before = 0.0;
    for replica in &replicas {
        runs_before += runs(&replica.scrape().await);
    }
    let n = 60_000;
    let request = proto::SolveRequest {
        include_all_starts: true,
        include_winning_moves: true,
        ..solve_request(geography(n, &random_graph(n, 3 * n as usize, 11), 0))
    };
    let (mut first, mut second) = (
        client(replicas[0].url()).await,
        client(replicas[1].url()).await,
    );
    let (a, b) = tokio::join!(first.solve(request.clone()), second.solve(request));
    let (a, b) = (a.unwrap().into_inner(), b.unwrap().into_inner());
    assert_eq!((a.winner, &a.detail), (b.winner, &b.detail));
    let mut runs_after = 0.0;
    for replica in &replicas {
        runs_after += runs(&replica.scrape().await);
    }
    assert_eq!(
        runs_after - runs_before,
        1.0,
        "one solver run in the cluster"
    );
    assert_eq!(schema.count("verdicts").await, 1);

    // The first replica loses its database: its health turns NOT_SERVING,
    // HAProxy's gRPC health check takes it out of rotation, and every call
    // through the balancer succeeds on the other. Mended, it serves again.
    link.cut().await;
    until_async(|| async {
        !puzzled::server::health_check(&replicas[0].url(), Duration::from_secs(1))
            .await
            .unwrap_or(true)
    })
    .await;
    let mut in_a_row = 0;
    // A hang guard: HAProxy checks every second or so.
    let give_up = Instant::now() + Duration::from_secs(60);
    while in_a_row < 10 {
        assert!(
            Instant::now() < give_up,
            "HAProxy never left the replica out"
        );
        match balanced.create_puzzle(create_request(path(3))).await {
            Ok(_) => in_a_row += 1,
            Err(status) => {
                assert_eq!(status.code(), tonic::Code::Unavailable, "{status:?}");
                in_a_row = 0;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    let cut_off = creates(&replicas[0].scrape().await);
    for _ in 0..10 {
        balanced
            .create_puzzle(create_request(path(3)))
            .await
            .expect("a create while one replica is out of rotation");
    }
    assert_eq!(
        creates(&replicas[0].scrape().await),
        cut_off,
        "no call reached the replica out of rotation"
    );
    link.mend();
    until_serving(&replicas[0].url()).await;

    // SIGKILL in the middle of writes: every acknowledged create stays. The
    // kill comes once the writer has had a few creates acknowledged (it
    // counts them as they come), however long those took.
    let written = Arc::new(AtomicUsize::new(0));
    let writer = tokio::spawn({
        let mut direct = client(replicas[0].url()).await;
        let written = written.clone();
        async move {
            let mut acknowledged = Vec::new();
            for n in 2.. {
                match direct.create_puzzle(create_request(path(2 + n % 50))).await {
                    Ok(puzzle) => {
                        acknowledged.push(puzzle.into_inner().name);
                        written.store(acknowledged.len(), Ordering::SeqCst);
                    }
                    Err(_) => return acknowledged,
                }
            }
            unreachable!()
        }
    });
    until(|| written.load(Ordering::SeqCst) > 5).await;
    replicas[0].process.0.kill().unwrap();
    let acknowledged = writer.await.unwrap();
    assert!(acknowledged.len() > 5, "the writer was writing when killed");

    // Calls keep succeeding through the balancer, served by the other.
    let served_before = creates(&replicas[1].scrape().await);
    for n in 2..12 {
        balanced
            .create_puzzle(create_request(path(n)))
            .await
            .expect("a create through the balancer after a replica died");
    }
    assert!(creates(&replicas[1].scrape().await) >= served_before + 10.0);
    for name in created.iter().chain(&acknowledged) {
        balanced
            .get_puzzle(proto::GetPuzzleRequest {
                name: name.clone(),
                ..Default::default()
            })
            .await
            .unwrap_or_else(|e| panic!("{name} was acknowledged, then lost: {e:?}"));
    }
    let stored = schema.count("puzzles").await as usize;
    assert!(stored >= created.len() + acknowledged.len() + 10);
    replicas[1].process.0.kill().unwrap();
}
