//! `peak`: the peak memory of one request per vertex + edge, per puzzle
//! shape and call, each on a fresh idle server: the figures behind the
//! admission budget's bytes per unit (`PEAK_BYTES_PER_UNIT`).

use puzzled::api::proto;
use puzzled::api::proto::puzzle_service_client::PuzzleServiceClient;
use puzzled_testkit::families::path;
use puzzled_testkit::random::{EdgeSet, Rng as _, XorShift, random_graph};
use tonic::transport::Channel;

use crate::harness::{Server, ServerArgs, mib, print_command, print_table_head, solve_client};

/// How a measured request is sent.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Via {
    /// `Solve` with the spec inline.
    Solve,
    /// `CreatePuzzle`.
    Create,
    /// `SolvePuzzle` of the stored puzzle.
    SolvePuzzle,
    /// `GetPuzzle` of the stored puzzle, `FULL` view.
    GetFull,
    /// `ListPuzzles` with the stored puzzle on its page, `FULL` view.
    ListFull,
    /// `AnalyzePosition` of the stored puzzle after the one move to 1 (at
    /// the start when it has no edges).
    AnalyzeStored,
    /// `AnalyzePosition` of the spec inline with `n` moves (which need not
    /// be legal: the list is decoded and admitted before it is read).
    AnalyzeMoves(u32),
    /// A Play game opened on the stored puzzle, until its first position.
    Play,
    /// `Solve` `n` times in a row on one server, each with a distinct start
    /// (no cache hit): the peak after all of them, per unit of one.
    SolveRepeated(u32),
}

impl Via {
    /// Whether the puzzle is stored first, by a server process that is then
    /// replaced, so that the measured request starts from a fresh process.
    fn stored(self) -> bool {
        matches!(
            self,
            Via::SolvePuzzle | Via::GetFull | Via::ListFull | Via::AnalyzeStored | Via::Play
        )
    }

    fn call(self) -> String {
        match self {
            Via::Solve => "`Solve`".into(),
            Via::Create => "`CreatePuzzle`".into(),
            Via::SolvePuzzle => "`SolvePuzzle`".into(),
            Via::GetFull => "`GetPuzzle` FULL".into(),
            Via::ListFull => "`ListPuzzles` FULL".into(),
            Via::AnalyzeStored => "`AnalyzePosition` by name".into(),
            Via::AnalyzeMoves(n) => format!("`AnalyzePosition` with {n} moves"),
            Via::Play => "Play, opened by name".into(),
            Via::SolveRepeated(n) => format!("`Solve` × {n} in a row, distinct starts"),
        }
    }
}

/// A puzzle shape whose peak memory is measured, and how it is sent.
struct Shape {
    name: &'static str,
    game: proto::Game,
    vertex_count: u32,
    edges: Vec<u32>,
    start: u32,
    via: Via,
}

impl Shape {
    fn geography(name: &'static str, vertex_count: u32, edges: Vec<u32>, via: Via) -> Shape {
        Shape {
            name,
            game: proto::Game::Geography,
            vertex_count,
            edges,
            start: 0,
            via,
        }
    }

    /// The vertices + edges (+ moves) the request is admitted with.
    fn units(&self) -> u64 {
        let moves = match self.via {
            Via::AnalyzeMoves(n) => u64::from(n),
            _ => 0,
        };
        u64::from(self.vertex_count) + self.edges.len() as u64 / 2 + moves
    }

    fn spec(&self, start: u32) -> proto::PuzzleSpec {
        proto::PuzzleSpec {
            game: self.game as i32,
            graph: Some(proto::Graph {
                vertex_count: self.vertex_count,
                edges: self.edges.clone(),
            }),
            start,
            ..Default::default()
        }
    }
}

/// A random simple bipartite graph: even vertices on one side, odd ones on
/// the other.
fn random_bipartite(n: u32, m: usize, seed: u64) -> Vec<u32> {
    let mut rng = XorShift::scrambled(seed);
    let half = u64::from(n / 2);
    let mut edges = EdgeSet::new();
    while edges.len() < m {
        let u = (2 * rng.below(half)) as u32;
        let v = (2 * rng.below(half) + 1) as u32;
        edges.add(u, v);
    }
    edges.into_flat()
}

/// The shapes measured, in the table's order.
fn shapes() -> Vec<Shape> {
    let edgeless = |via| Shape::geography("geography, edgeless", 10_000_000, Vec::new(), via);
    let path_5m = |via| Shape::geography("geography, path", 5_000_000, path(5_000_000), via);
    let star_5m = || (1..5_000_000).flat_map(|v| [0, v]).collect::<Vec<u32>>();
    let mut shapes = Vec::from([Via::Solve, Via::Create, Via::AnalyzeStored].map(edgeless));
    shapes.extend([
        Shape {
            game: proto::Game::BipartiteEdge,
            ..Shape::geography(
                "bipartite edge game, edgeless",
                10_000_000,
                Vec::new(),
                Via::Solve,
            )
        },
        Shape::geography(
            "geography, gnm d=4",
            1_000_000,
            random_graph(1_000_000, 2_000_000, 1),
            Via::Solve,
        ),
        Shape::geography(
            "geography, gnm d=16",
            250_000,
            random_graph(250_000, 2_000_000, 2),
            Via::Solve,
        ),
    ]);
    shapes.extend(
        [
            Via::Solve,
            Via::Create,
            Via::SolvePuzzle,
            Via::GetFull,
            Via::ListFull,
            Via::AnalyzeStored,
            Via::Play,
        ]
        .map(path_5m),
    );
    shapes.extend([
        Shape::geography("geography, path", 5, path(5), Via::AnalyzeMoves(10_000_000)),
        Shape {
            start: 1,
            ..Shape::geography("geography, star", 5_000_000, star_5m(), Via::Solve)
        },
        Shape {
            game: proto::Game::TreePaint,
            ..Shape::geography(
                "tree painting, path",
                5_000_000,
                path(5_000_000),
                Via::Solve,
            )
        },
        Shape {
            game: proto::Game::TreePaint,
            ..Shape::geography("tree painting, star", 5_000_000, star_5m(), Via::Solve)
        },
        Shape {
            game: proto::Game::BipartiteEdge,
            ..Shape::geography(
                "bipartite edge game, random",
                2_000_000,
                random_bipartite(2_000_000, 4_000_000, 3),
                Via::Solve,
            )
        },
        edgeless(Via::SolveRepeated(6)),
    ]);
    shapes
}

/// One request per shape, each on a fresh server, with every extra asked
/// for: the server's peak RSS (VmHWM) over its idle RSS, per unit the
/// request is admitted with.
pub async fn peak(server: ServerArgs) {
    println!("## peak: memory per vertex + edge of one request on an idle server");
    print_command("peak", &[], &server);
    let mut server = server;
    // Measure the shapes, not the budget: admit every one of them.
    server
        .server_args
        .push("--admission-budget=4000000000".into());
    server.server_args.push("--games-budget=4000000000".into());
    let shapes = shapes();
    println!();
    print_table_head(&[
        "request",
        "call",
        "vertices",
        "edges",
        "idle RSS MiB",
        "peak RSS MiB",
        "peak over idle MiB",
        "bytes per unit",
    ]);
    let mut worst = (0.0, String::new());
    for shape in shapes {
        let edge_count = shape.edges.len() / 2;
        let units = shape.units();
        let (name, call, vertex_count) = (shape.name, shape.via.call(), shape.vertex_count);
        let (idle, hwm) = peak_once(&server, shape).await;
        let over = hwm.saturating_sub(idle);
        let per_unit = over as f64 / units as f64;
        println!(
            "| {name} | {call} | {vertex_count} | {edge_count} | {} | {} | {} | {per_unit:.1} |",
            mib(idle),
            mib(hwm),
            mib(over),
        );
        if per_unit > worst.0 {
            worst = (per_unit, format!("{name}, {call}"));
        }
    }
    println!();
    println!(
        "worst: {:.1} bytes a unit ({}); the admission budget is sized on {} (PEAK_BYTES_PER_UNIT)",
        worst.0,
        worst.1,
        puzzled::app::admission::PEAK_BYTES_PER_UNIT
    );
}

/// The server's idle RSS and its peak (VmHWM) once `shape` was sent.
async fn peak_once(server_args: &ServerArgs, shape: Shape) -> (u64, u64) {
    let mut server = Server::start(server_args);
    let mut name = String::new();
    if shape.via.stored() {
        name = store(&server, &shape).await;
        server = server.restarted(server_args);
    }
    let channels = server.connect(1).await;
    let mut client = solve_client(&channels[0]);
    let idle = server.idle_rss(&channels[0]).await;
    send(&mut client, &shape, name).await;
    (idle, server.hwm())
}

/// Stores the shape's puzzle; its name.
async fn store(server: &Server, shape: &Shape) -> String {
    let channels = server.connect(1).await;
    solve_client(&channels[0])
        .create_puzzle(create_request(shape.spec(shape.start)))
        .await
        .expect("the puzzle is stored")
        .into_inner()
        .name
}

fn create_request(spec: proto::PuzzleSpec) -> proto::CreatePuzzleRequest {
    proto::CreatePuzzleRequest {
        puzzle: Some(proto::Puzzle {
            spec: Some(spec),
            ..Default::default()
        }),
        request_id: String::new(),
    }
}

fn vertex_move(v: u32) -> proto::Move {
    proto::Move {
        r#move: Some(proto::r#move::Move::Vertex(v)),
    }
}

/// The measured request: `name` is the stored puzzle's, when there is one.
async fn send(client: &mut PuzzleServiceClient<Channel>, shape: &Shape, name: String) {
    match shape.via {
        Via::Solve | Via::Create | Via::SolveRepeated(_) => send_spec(client, shape).await,
        Via::SolvePuzzle => {
            client
                .solve_puzzle(proto::SolvePuzzleRequest {
                    name,
                    include_all_starts: true,
                    include_winning_moves: true,
                })
                .await
                .expect("the puzzle is solved");
        }
        Via::GetFull => {
            client
                .get_puzzle(proto::GetPuzzleRequest {
                    name,
                    view: proto::PuzzleView::Full as i32,
                })
                .await
                .expect("the puzzle is read");
        }
        Via::ListFull => {
            let page = client
                .list_puzzles(proto::ListPuzzlesRequest {
                    view: proto::PuzzleView::Full as i32,
                    page_size: 1,
                    ..Default::default()
                })
                .await
                .expect("the page is read")
                .into_inner();
            assert_eq!(page.puzzles.len(), 1, "the puzzle is on the page");
        }
        Via::AnalyzeStored => {
            client
                .analyze_position(proto::AnalyzePositionRequest {
                    puzzle: Some(proto::analyze_position_request::Puzzle::Name(name)),
                    // A move when there is one to make.
                    moves: if shape.edges.is_empty() {
                        Vec::new()
                    } else {
                        vec![vertex_move(1)]
                    },
                })
                .await
                .expect("the position is analysed");
        }
        Via::AnalyzeMoves(n) => analyze_moves(client, shape, n).await,
        Via::Play => play_opening(client, name).await,
    }
}

/// `Solve` or `CreatePuzzle` with the spec inline, as many times as the
/// shape says, each from the next start so that none is a cache hit.
async fn send_spec(client: &mut PuzzleServiceClient<Channel>, shape: &Shape) {
    let times = match shape.via {
        Via::SolveRepeated(n) => n,
        _ => 1,
    };
    for i in 0..times {
        let spec = shape.spec(shape.start + i);
        if shape.via == Via::Create {
            client.create_puzzle(create_request(spec)).await.map(drop)
        } else {
            client
                .solve(proto::SolveRequest {
                    spec: Some(spec),
                    include_all_starts: true,
                    include_winning_moves: true,
                })
                .await
                .map(drop)
        }
        .expect("the request is answered");
    }
}

/// `AnalyzePosition` of the spec inline with `n` moves.
async fn analyze_moves(client: &mut PuzzleServiceClient<Channel>, shape: &Shape, n: u32) {
    // Illegal after the first: refused once the list is read.
    let answer = client
        .analyze_position(proto::AnalyzePositionRequest {
            puzzle: Some(proto::analyze_position_request::Puzzle::Spec(
                shape.spec(shape.start),
            )),
            moves: (0..n).map(|i| vertex_move(1 + i % 2)).collect(),
        })
        .await;
    if let Err(status) = answer {
        assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    }
}

/// A Play game on the stored puzzle, until the engine's opening position.
async fn play_opening(client: &mut PuzzleServiceClient<Channel>, name: String) {
    let (say, said) = tokio::sync::mpsc::channel(1);
    say.send(proto::PlayRequest {
        request: Some(proto::play_request::Request::Start(proto::PlayStart {
            puzzle: Some(proto::play_start::Puzzle::Name(name)),
            human_side: proto::Player::First as i32,
        })),
    })
    .await
    .expect("the request stream is open");
    let mut game = client
        .play(tokio_stream::wrappers::ReceiverStream::new(said))
        .await
        .expect("the game starts")
        .into_inner();
    game.message()
        .await
        .expect("the game answers")
        .expect("an opening position");
    drop(say);
}
