//! `spawn_app()`: a fresh server on port 0 with a fresh SQLite file, and a
//! typed client. Logs stay silent unless `TEST_LOG` is set.

use std::io::{BufRead as _, BufReader, Lines};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, Once, mpsc};

use proto::puzzle_service_client::PuzzleServiceClient;
pub use puzzled::api::proto;
use puzzled::config::Config;
use puzzled::server::Application;
use puzzled_testkit::families;
pub use puzzled_testkit::random::random_graph;
use tempfile::TempDir;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

pub struct TestApp {
    pub port: u16,
    pub client: PuzzleServiceClient<Channel>,
    pub channel: Channel,
    /// Keeps the database directory alive for restarts.
    pub dir: Arc<TempDir>,
    pub config: Config,
    /// The server's live count of running solves.
    pub solves_running: puzzled::app::Gauge,
    /// The server's live count of calls waiting for a solve.
    pub callers_waiting: puzzled::app::Gauge,
    /// How many solves the server has stopped because their callers had
    /// all gone.
    pub solves_stopped: puzzled::app::Gauge,
    pub searches_over_budget: puzzled::app::Gauge,
    /// The server's live count of calls waiting for the admission budget.
    pub admission_waiting: puzzled::app::Gauge,
    /// The server's live count of connections being served.
    pub connections_open: puzzled::app::Gauge,
    /// The metrics endpoint, when the config asks for one.
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// Canonical labellings being computed, and the calls waiting for them.
    pub labellings: (puzzled::app::Gauge, puzzled::app::Gauge),
    stop: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<Result<(), puzzled::server::ServerError>>>,
}

fn init_logs() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        if std::env::var_os("TEST_LOG").is_some() {
            tracing_subscriber::fmt()
                .with_env_filter("info")
                .with_test_writer()
                .init();
        }
    });
}

pub fn database_url(dir: &Path) -> String {
    format!("sqlite://{}", dir.join("puzzled.db").display())
}

/// The configuration tests use: port 0, the database in `dir`.
pub fn test_config(dir: &Path) -> Config {
    Config {
        listen: "127.0.0.1:0".into(),
        database_url: database_url(dir),
        shutdown_grace_secs: 5,
        ..Config::default()
    }
}

pub async fn spawn_app() -> TestApp {
    app_with(|_| {}).await
}

/// A server on a fresh directory with the test configuration as
/// `configure` leaves it.
pub async fn app_with(configure: impl FnOnce(&mut Config)) -> TestApp {
    app_in(Arc::new(tempfile::tempdir().expect("temp dir")), configure).await
}

/// A server on `dir` (which may already hold its store, certificates or
/// other files) with the test configuration as `configure` leaves it.
pub async fn app_in(dir: Arc<TempDir>, configure: impl FnOnce(&mut Config)) -> TestApp {
    let mut config = test_config(dir.path());
    configure(&mut config);
    spawn_app_with(dir, config).await
}

pub async fn spawn_app_with(dir: Arc<TempDir>, config: Config) -> TestApp {
    init_logs();
    let app = Application::build(config.clone())
        .await
        .expect("the server builds");
    let port = app.port();
    let solves_running = app.solves_running();
    let callers_waiting = app.callers_waiting();
    let solves_stopped = app.solves_stopped();
    let searches_over_budget = app.searches_over_budget();
    let admission_waiting = app.admission_waiting();
    let connections_open = app.connections_open();
    let metrics_addr = app.metrics_addr();
    let labellings = app.labellings();
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async move {
        let _ = stopped.await;
    }));
    // A server on TLS gets a client of its own (tests/api/tls.rs); this
    // cleartext one is never used there.
    let endpoint = Channel::from_shared(format!("http://127.0.0.1:{port}")).unwrap();
    let channel = if config.tls_cert.is_some() {
        endpoint.connect_lazy()
    } else {
        endpoint
            .connect()
            .await
            .expect("the server accepts connections")
    };
    let client = client_on(channel.clone());
    TestApp {
        port,
        client,
        channel,
        dir,
        config,
        solves_running,
        callers_waiting,
        solves_stopped,
        searches_over_budget,
        admission_waiting,
        connections_open,
        metrics_addr,
        labellings,
        stop: Some(stop),
        server: Some(server),
    }
}

/// The typed client on `channel`, with no message size limit of its own.
pub fn client_on(channel: Channel) -> PuzzleServiceClient<Channel> {
    PuzzleServiceClient::new(channel)
        .max_decoding_message_size(usize::MAX)
        .max_encoding_message_size(usize::MAX)
}

impl TestApp {
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Graceful shutdown; returns the directory holding the database.
    pub async fn stop(self) -> Arc<TempDir> {
        self.request_stop().finish().await
    }

    /// Stops the server gracefully and starts it again on the same
    /// directory and configuration (its in-memory caches empty).
    pub async fn restart(self) -> TestApp {
        let config = self.config.clone();
        let dir = self.stop().await;
        spawn_app_with(dir, config).await
    }

    /// Asks the server to shut down and returns at once; `finish` waits for
    /// it to have stopped.
    pub fn request_stop(mut self) -> Self {
        self.stop.take().unwrap().send(()).ok();
        self
    }

    /// Waits until the server has stopped (after `request_stop`).
    pub async fn finish(mut self) -> Arc<TempDir> {
        if let Some(stop) = self.stop.take() {
            stop.send(()).ok();
        }
        self.server
            .take()
            .unwrap()
            .await
            .expect("server task")
            .expect("server ran cleanly");
        self.dir.clone()
    }

    /// Solves `spec` (no extras); the call must succeed.
    pub async fn solve(&self, spec: proto::PuzzleSpec) -> proto::Solution {
        self.client
            .clone()
            .solve(solve_request(spec))
            .await
            .expect("the puzzle is solved")
            .into_inner()
    }

    /// SolvePuzzle of the stored puzzle `name` (no extras).
    pub async fn solve_stored(&self, name: &str) -> Result<proto::Solution, tonic::Status> {
        self.client
            .clone()
            .solve_puzzle(proto::SolvePuzzleRequest {
                name: name.to_owned(),
                ..Default::default()
            })
            .await
            .map(tonic::Response::into_inner)
    }

    /// Stores `spec`; the call must succeed.
    pub async fn create(&self, spec: proto::PuzzleSpec) -> proto::Puzzle {
        self.client
            .clone()
            .create_puzzle(create_request(spec))
            .await
            .expect("the puzzle is stored")
            .into_inner()
    }

    /// The stored puzzle `name`, full view; the call must succeed.
    pub async fn read(&self, name: &str) -> proto::Puzzle {
        self.read_view(name, proto::PuzzleView::Unspecified).await
    }

    /// The stored puzzle `name` in `view`; the call must succeed.
    pub async fn read_view(&self, name: &str, view: proto::PuzzleView) -> proto::Puzzle {
        self.client
            .clone()
            .get_puzzle(proto::GetPuzzleRequest {
                name: name.to_owned(),
                view: view as i32,
            })
            .await
            .unwrap_or_else(|e| panic!("GetPuzzle {name}: {e:?}"))
            .into_inner()
    }

    /// The error GetPuzzle gives for `name` (full view); the call must
    /// fail.
    pub async fn read_err(&self, name: &str) -> tonic::Status {
        self.client
            .clone()
            .get_puzzle(proto::GetPuzzleRequest {
                name: name.to_owned(),
                view: proto::PuzzleView::Unspecified as i32,
            })
            .await
            .unwrap_err()
    }

    /// The first page of ListPuzzles with its defaults; the call must
    /// succeed.
    pub async fn listed(&self) -> Vec<proto::Puzzle> {
        self.client
            .clone()
            .list_puzzles(proto::ListPuzzlesRequest::default())
            .await
            .expect("ListPuzzles")
            .into_inner()
            .puzzles
    }

    /// Waits (polling) until at least one solve holds a worker on the server.
    pub async fn until_a_solve_runs(&self) {
        until(|| self.solves_running.get() > 0).await;
    }
}

/// The `ErrorInfo` reason of an error status ("" when it has none).
pub fn error_reason(status: &tonic::Status) -> String {
    use tonic_types::StatusExt as _;
    status
        .get_error_details()
        .error_info()
        .map(|info| info.reason.clone())
        .unwrap_or_default()
}

/// Polls `condition` every millisecond until it holds; a minute without it
/// fails the test rather than hanging the suite.
pub async fn until(condition: impl Fn() -> bool) {
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !condition() {
        assert!(
            std::time::Instant::now() < give_up,
            "the awaited condition did not hold within a minute"
        );
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
}

pub fn graph(vertex_count: u32, edges: &[u32]) -> Option<proto::Graph> {
    Some(proto::Graph {
        vertex_count,
        edges: edges.to_vec(),
    })
}

/// Geography on the path 0–1–…–(n−1), the token on 0.
pub fn path(n: u32) -> proto::PuzzleSpec {
    geography(n, &families::path(n), 0)
}

pub fn geography(vertex_count: u32, edges: &[u32], start: u32) -> proto::PuzzleSpec {
    proto::PuzzleSpec {
        game: proto::Game::Geography as i32,
        graph: graph(vertex_count, edges),
        start,
        ..Default::default()
    }
}

pub fn solve_request(spec: proto::PuzzleSpec) -> proto::SolveRequest {
    proto::SolveRequest {
        spec: Some(spec),
        include_all_starts: false,
        include_winning_moves: false,
    }
}

pub fn create_request(spec: proto::PuzzleSpec) -> proto::CreatePuzzleRequest {
    proto::CreatePuzzleRequest {
        puzzle: Some(proto::Puzzle {
            spec: Some(spec),
            ..Default::default()
        }),
        request_id: String::new(),
    }
}

/// The response to `GET path` over plain HTTP/1.1 at `addr`: status line
/// and body.
pub async fn http_get(addr: std::net::SocketAddr, path: &str) -> (String, String) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (head, body) = response
        .split_once("\r\n\r\n")
        .expect("headers, then a body");
    (head.lines().next().unwrap().to_owned(), body.to_owned())
}

/// The value of the sample `name` whose labels include every `labels`
/// pair in a Prometheus text scrape; 0 when there is none yet.
pub fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter(|line| {
            line.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('{') || rest.starts_with(' '))
        })
        .filter(|line| {
            labels
                .iter()
                .all(|(k, v)| line.contains(&format!("{k}=\"{v}\"")))
        })
        .map(|line| line.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .sum()
}

/// Polls `condition` every 50 ms until it holds; a minute without it
/// fails the test rather than hanging the suite (a hang guard, not a
/// bound on how soon it must hold).
pub async fn until_async<F: std::future::Future<Output = bool>>(condition: impl Fn() -> F) {
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !condition().await {
        assert!(
            std::time::Instant::now() < give_up,
            "the condition did not hold within a minute"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Whether the whole server reports SERVING through the gRPC health service
/// (a minute for the answer: a hang guard).
pub async fn serving(app: &TestApp) -> bool {
    puzzled::server::health_check(
        &format!("http://{}", app.addr()),
        std::time::Duration::from_secs(60),
    )
    .await
    .expect("the health service answers")
}

/// The hits counted so far at the cache `level` (`answer`, `page`, …)
/// of `puzzled_cache_lookups_total`, in this test process (tests running
/// beside it only add to it).
pub fn cache_hits(level: &'static str) -> u64 {
    puzzled::metrics::metrics()
        .cache_lookups
        .get_or_create(&puzzled::metrics::CacheLabels {
            level,
            outcome: "hit",
        })
        .get()
}

/// The address in the server's start-up line ("puzzled listening on ADDR,
/// store …").
pub fn listen_address(line: &str) -> String {
    line.split_whitespace()
        .skip_while(|w| *w != "on")
        .nth(1)
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches(',')
        .to_owned()
}

/// `puzzled serve ARGS` with the variables `env`, its log (standard
/// output) on a pipe, not started yet: for a test that needs more of the
/// command (standard error on a pipe) before [`Serving::start`]. None of
/// `PUZZLED_LISTEN`, `PUZZLED_DATABASE_URL`, `PUZZLED_LOG` and
/// `PUZZLED_LOG_FORMAT` is inherited; `env` may set them.
pub fn serve_command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_puzzled"));
    command
        .arg("serve")
        .args(args)
        .env_remove("PUZZLED_LISTEN")
        .env_remove("PUZZLED_DATABASE_URL")
        .env_remove("PUZZLED_LOG")
        .env_remove("PUZZLED_LOG_FORMAT")
        .envs(env.iter().copied())
        .stdout(Stdio::piped());
    command
}

/// `puzzled serve ARGS` with the variables `env` ([`serve_command`]),
/// started and listening.
pub fn serve(args: &[&str], env: &[(&str, &str)]) -> Serving {
    Serving::start(serve_command(args, env))
}

/// The server as a child process that has said where it listens.
pub struct Serving {
    pub child: Child,
    /// Its log up to the line naming its address, that line last (at the
    /// info level it is the first and only one).
    pub start_up: Vec<String>,
    /// The address that line names.
    pub addr: String,
    /// The rest of its log, as it comes.
    pub lines: Lines<BufReader<ChildStdout>>,
}

impl Serving {
    /// Starts `command` (a [`serve_command`]) and reads its log up to the
    /// line naming the address it listens on.
    pub fn start(mut command: Command) -> Serving {
        let mut child = command.spawn().expect("puzzled serve starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut start_up = Vec::new();
        while !start_up
            .last()
            .is_some_and(|line: &String| line.contains("listening on"))
        {
            let line = lines
                .next()
                .unwrap_or_else(|| panic!("the server stopped before listening: {start_up:?}"))
                .unwrap();
            start_up.push(line);
        }
        let addr = listen_address(start_up.last().unwrap());
        Serving {
            child,
            start_up,
            addr,
            lines,
        }
    }

    /// Sends the server `signal` ([`signal_process`]).
    pub fn signal(&self, signal: &str) -> std::process::ExitStatus {
        signal_process(&self.child, signal)
    }
}

/// Sends `child` the signal `signal` (`TERM`, `INT`, `HUP`, `KILL`) with
/// `kill`, and gives how `kill` exited.
pub fn signal_process(child: &Child, signal: &str) -> std::process::ExitStatus {
    Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap()
}

/// `lines` sent over a channel as they come, by a thread of their own.
pub fn on_a_channel(lines: Lines<BufReader<ChildStdout>>) -> mpsc::Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if send.send(line).is_err() {
                return;
            }
        }
    });
    receive
}

/// The server as a process, its log lines sent over a channel as they come.
pub struct Served {
    child: Child,
    lines: mpsc::Receiver<String>,
    pub addr: String,
}

impl Served {
    /// `puzzled serve` on a port of its own, its store in `dir`, with the
    /// variables `env`.
    pub fn start(dir: &Path, env: &[(&str, &str)]) -> Served {
        let url = database_url(dir);
        let env: Vec<(&str, &str)> = [("PUZZLED_DATABASE_URL", url.as_str())]
            .into_iter()
            .chain(env.iter().copied())
            .chain([("PUZZLED_LOG", "info")])
            .collect();
        let serving = serve(&["--listen", "127.0.0.1:0"], &env);
        Served {
            child: serving.child,
            lines: on_a_channel(serving.lines),
            addr: serving.addr,
        }
    }

    /// The next log line holding `text`; a minute without one fails.
    pub fn line_with(&self, text: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(std::time::Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no log line with {text:?}"));
            if line.contains(text) {
                return line;
            }
        }
    }

    pub fn hang_up(&self) {
        signal_process(&self.child, "HUP");
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
