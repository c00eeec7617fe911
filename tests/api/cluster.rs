//! The cluster deployment, run as processes by the README's recipe
//! ("Several replicas without containers") as written: two replicas and
//! HAProxy with the repo's deploy/cluster/haproxy.cfg in front of them,
//! only the addresses differing (ports of the test's own on 127.0.0.1, and
//! a schema of its own in the `PUZZLED_TEST_POSTGRES` database). The recipe
//! sets what the compose file's cluster profile sets. Through the balancer
//! the page loads, a gRPC-Web call is answered, gRPC creates (and
//! grpcurl's, a reflection call before each) spread over both replicas, an
//! identical solve on both computes once, a
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

/// A process the README's cluster recipe starts: its program, arguments
/// and environment (the variables exported before it and its own), and
/// whether it runs in the background (`&`).
#[derive(Debug, Clone)]
struct Launch {
    program: String,
    args: Vec<String>,
    env: BTreeMap<String, String>,
    background: bool,
}

/// The README's section on several replicas without containers.
fn readme_section() -> String {
    let readme = std::fs::read_to_string(format!("{REPO}/README.md")).unwrap();
    let section = readme
        .split_once("## Several replicas without containers")
        .expect("the README's cluster recipe section")
        .1;
    section
        .split_once("\n## ")
        .map_or(section, |(section, _)| section)
        .to_owned()
}

/// The processes of the README's recipe for several replicas without
/// containers, in its order, read as `sh` would run them: `export` lines
/// set variables for the lines after them, `NAME=VALUE` words before a
/// command set them for it alone, a trailing `&` runs it in the background.
/// Its `cargo build` is the test's own build, and its `createdb` the
/// test's own schema (the recipe's URL must name the database it makes).
fn readme_recipe() -> Vec<Launch> {
    let section = readme_section();
    let block = section
        .split_once("```sh\n")
        .expect("the recipe in a ```sh block")
        .1
        .split_once("```")
        .unwrap()
        .0;
    let mut exported = BTreeMap::new();
    let mut launches = Vec::new();
    let assignment = |word: &str| {
        word.split_once('=')
            .filter(|(name, _)| {
                name.chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
            })
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
    };
    let mut created = None;
    for line in block.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with("cargo build") {
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "createdb" {
            created = words.last().map(|name| name.to_string());
            continue;
        }
        if words[0] == "export" {
            for word in &words[1..] {
                let (name, value) = assignment(word).unwrap_or_else(|| panic!("{line}"));
                exported.insert(name, value);
            }
            continue;
        }
        let background = words.last() == Some(&"&");
        if background {
            words.pop();
        }
        let mut env = exported.clone();
        let mut rest = words.as_slice();
        while let Some((name, value)) = rest.first().and_then(|w| assignment(w)) {
            env.insert(name, value);
            rest = &rest[1..];
        }
        launches.push(Launch {
            program: rest[0].to_owned(),
            args: rest[1..].iter().map(|w| (*w).to_owned()).collect(),
            env,
            background,
        });
    }
    let database = created.expect("the recipe makes the replicas' database");
    for launch in &launches {
        if let Some(url) = launch.env.get("PUZZLED_DATABASE_URL") {
            assert!(
                url.ends_with(&format!("/{database}")),
                "{url} is on the database the recipe makes"
            );
        }
    }
    launches
}

/// The recipe's parts, in its order: the replicas (in the background),
/// the waits for each to serve, and the balancer.
struct Recipe {
    replicas: Vec<Launch>,
    waits: Vec<Launch>,
    balancer: Launch,
}

fn recipe_parts() -> Recipe {
    let launches = readme_recipe();
    let kinds: Vec<&str> = launches
        .iter()
        .map(
            |launch| match (launch.program.as_str(), launch.args.first()) {
                ("haproxy", _) => "balancer",
                (_, Some(arg)) if arg == "serve" => "replica",
                (_, Some(arg)) if arg == "healthcheck" => "wait",
                _ => panic!("{launch:?} is not a step the cluster test knows"),
            },
        )
        .collect();
    assert_eq!(
        kinds,
        ["replica", "replica", "wait", "wait", "balancer"],
        "the replicas, a wait for each, then the balancer"
    );
    let mut launches = launches.into_iter();
    let replicas: Vec<Launch> = launches.by_ref().take(2).collect();
    let waits: Vec<Launch> = launches.by_ref().take(2).collect();
    let balancer = launches.next().unwrap();
    for replica in &replicas {
        assert_eq!(replica.program, "target/release/puzzled");
        assert_eq!(replica.args, ["serve"]);
        assert!(replica.background, "a replica runs in the background");
    }
    for (wait, replica) in waits.iter().zip(&replicas) {
        assert_eq!(wait.program, "target/release/puzzled");
        assert!(!wait.background, "a wait holds the recipe");
        let addr = format!("http://{}", replica.env["PUZZLED_LISTEN"]);
        assert!(
            wait.args
                .windows(2)
                .any(|pair| pair == ["--addr", addr.as_str()]),
            "{wait:?} waits for {addr}"
        );
        assert!(wait.args.iter().any(|arg| arg == "--wait-secs"), "{wait:?}");
    }
    // The recipe says how to stop what it started in the background: the
    // shell's jobs 1 and 2 are the replicas.
    assert!(
        readme_section().contains("```sh\nkill %1 %2\n```"),
        "the recipe stops its two background replicas"
    );
    Recipe {
        replicas,
        waits,
        balancer,
    }
}

/// The launch with every `127.0.0.1:PORT` of its variables and arguments
/// moved to a free port of the test's (the same port, wherever it is
/// written, to the same new one), the store on `database`, and the
/// programs and files as this checkout has them.
fn localized(
    launch: &Launch,
    ports: &mut BTreeMap<String, SocketAddr>,
    database: Option<String>,
) -> Launch {
    let mut localize = |text: &str| -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("127.0.0.1:") {
            out.push_str(&rest[..at]);
            let tail = &rest[at + "127.0.0.1:".len()..];
            let digits = tail.chars().take_while(char::is_ascii_digit).count();
            let written = &rest[at..at + "127.0.0.1:".len() + digits];
            let addr = *ports.entry(written.to_owned()).or_insert_with(free_addr);
            out.push_str(&addr.to_string());
            rest = &tail[digits..];
        }
        out.push_str(rest);
        out
    };
    let mut env: BTreeMap<String, String> = launch
        .env
        .iter()
        .map(|(name, value)| (name.clone(), localize(value)))
        .collect();
    if let Some(database) = database {
        env.insert("PUZZLED_DATABASE_URL".into(), database);
    }
    let program = match launch.program.as_str() {
        "target/release/puzzled" => BIN.to_owned(),
        other => other.to_owned(),
    };
    let args = launch
        .args
        .iter()
        .map(|arg| {
            if std::path::Path::new(REPO).join(arg).is_file() {
                format!("{REPO}/{arg}")
            } else {
                localize(arg)
            }
        })
        .collect();
    Launch {
        program,
        args,
        env,
        background: launch.background,
    }
}

impl Launch {
    fn spawn(&self) -> Process {
        Process(
            Command::new(&self.program)
                .args(&self.args)
                .env_remove("PUZZLED_LOG")
                .envs(&self.env)
                .stdout(output())
                .stderr(output())
                .spawn()
                .unwrap_or_else(|e| panic!("{}: {e}", self.program)),
        )
    }

    fn addr(&self, variable: &str) -> SocketAddr {
        self.env[variable]
            .parse()
            .unwrap_or_else(|_| panic!("{variable} is an address"))
    }
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
/// reads every address the compose file gives it; the README's recipe
/// sets the replicas' variables the compose file sets and runs HAProxy on
/// the same file.
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
    let bind = config
        .lines()
        .find(|line| line.trim_start().starts_with("bind "))
        .unwrap();
    assert!(
        !bind.contains("proto h2"),
        "the page and gRPC-Web are HTTP/1.1: {bind}"
    );

    // The README's recipe sets what the compose file sets, and runs the
    // balancer with the same file.
    let Recipe {
        replicas: recipe_replicas,
        balancer: recipe_balancer,
        ..
    } = recipe_parts();
    for replica in &recipe_replicas {
        let names: Vec<&String> = replica.env.keys().collect();
        assert_eq!(
            names,
            replica_env.keys().collect::<Vec<_>>(),
            "the recipe's replica variables"
        );
    }
    for name in environment(service(&compose, "balancer")).keys() {
        assert!(
            recipe_balancer.env.contains_key(name),
            "the recipe sets {name}"
        );
    }
    assert_eq!(
        format!("{REPO}/{}", recipe_balancer.args[1]),
        balancer_config(&compose)
    );
    assert_eq!(recipe_balancer.args[0], "-f");
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
    /// A replica as the recipe starts it, on `schema`, reaching the
    /// database through `link` when given.
    fn start(
        launch: &Launch,
        ports: &mut BTreeMap<String, SocketAddr>,
        schema: &PgSchema,
        link: Option<&Link>,
    ) -> Replica {
        let launch = localized(
            launch,
            ports,
            Some(schema.url_through(link.map(|link| link.port))),
        );
        Replica {
            process: launch.spawn(),
            addr: launch.addr("PUZZLED_LISTEN"),
            metrics: launch.addr("PUZZLED_METRICS_LISTEN"),
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    async fn scrape(&self) -> String {
        http_get(self.metrics, "/metrics").await.1
    }
}

/// Each replica's count of CreatePuzzle calls.
async fn create_counts(replicas: &[Replica]) -> Vec<f64> {
    let mut counts = Vec::new();
    for replica in replicas {
        counts.push(sample(
            &replica.scrape().await,
            "puzzled_requests_total",
            &[
                ("grpc_service", "puzzled.v1.PuzzleService"),
                ("grpc_method", "CreatePuzzle"),
            ],
        ));
    }
    counts
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
    let Recipe {
        replicas: recipe_replicas,
        waits: recipe_waits,
        balancer: recipe_balancer,
    } = recipe_parts();
    let mut ports = BTreeMap::new();
    // The first replica reaches the database through a link the test can
    // cut, to take its health down.
    let link = Link::to(schema.server()).await;
    let mut replicas = [
        Replica::start(&recipe_replicas[0], &mut ports, &schema, Some(&link)),
        Replica::start(&recipe_replicas[1], &mut ports, &schema, None),
    ];
    // The recipe's own waits, as written (on the test's ports).
    for wait in &recipe_waits {
        let wait = localized(wait, &mut ports, None);
        let status = Command::new(&wait.program)
            .args(&wait.args)
            .envs(&wait.env)
            .stdout(output())
            .stderr(output())
            .status()
            .unwrap();
        assert!(status.success(), "{wait:?}");
    }
    for replica in &replicas {
        until_serving(&replica.url()).await;
    }
    let balancer = localized(&recipe_balancer, &mut ports, None);
    assert_eq!(balancer.addr("PUZZLED_REPLICA_1"), replicas[0].addr);
    assert_eq!(balancer.addr("PUZZLED_REPLICA_2"), replicas[1].addr);
    let balancer_addr = balancer.addr("PUZZLED_BALANCER_LISTEN");
    let _balancer = balancer.spawn();
    let through_balancer = format!("http://{balancer_addr}");
    until_serving(&through_balancer).await;
    let mut balanced = client(through_balancer).await;

    // Calls spread over both replicas.
    let creates = |text: &str| {
        sample(
            text,
            "puzzled_requests_total",
            &[
                ("grpc_service", "puzzled.v1.PuzzleService"),
                ("grpc_method", "CreatePuzzle"),
            ],
        )
    };
    // Each call goes to a replica picked at random: 40 creates leave fewer
    // than 5 on one replica about once in a million runs.
    let mut created = Vec::new();
    for n in 0..40 {
        let puzzle = balanced
            .create_puzzle(create_request(path(2 + n % 20)))
            .await
            .expect("a create through the balancer")
            .into_inner();
        created.push(puzzle.name);
    }
    for replica in &replicas {
        assert!(
            creates(&replica.scrape().await) >= 5.0,
            "every replica served creates"
        );
    }
    // grpcurl makes a reflection call before each call, so replicas taken
    // in turn would get every create on one side; picked at random, 16 runs
    // all land on one replica once in 30,000.
    if crate::grpcurl::grpcurl_available() {
        let before: Vec<f64> = create_counts(&replicas).await;
        for n in 0..16 {
            let out = Command::new("grpcurl")
                .args(["-plaintext", "-d"])
                .arg(format!(
                    r#"{{"puzzle":{{"spec":{{"game":"GAME_GEOGRAPHY","graph":{{"vertex_count":{},"edges":[0,1]}},"start":0}}}}}}"#,
                    2 + n
                ))
                .arg(balancer_addr.to_string())
                .arg("puzzled.v1.PuzzleService/CreatePuzzle")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let after = create_counts(&replicas).await;
        for (before, after) in before.iter().zip(&after) {
            assert!(after > before, "grpcurl's creates reached both replicas");
        }
    }

    // The page and gRPC-Web are HTTP/1.1, through the same port.
    let (status, page) = http_get(balancer_addr, "/").await;
    assert!(status.contains("200"), "{status}");
    assert!(
        page.contains("<html") || page.contains("<!doctype html"),
        "{page}"
    );
    let (response, messages, trailers) = crate::grpc_web::call_at(
        &balancer_addr.to_string(),
        "GetPuzzle",
        &proto::GetPuzzleRequest {
            name: created[0].clone(),
            ..Default::default()
        },
        false,
        &[],
    )
    .await;
    assert_eq!(response.status, 200);
    assert_eq!(trailers.get("grpc-status").map(String::as_str), Some("0"));
    let puzzle = <proto::Puzzle as prost::Message>::decode(&messages[0][..]).unwrap();
    assert_eq!(puzzle.name, created[0]);

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
