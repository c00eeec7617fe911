//! `puzzled generate`: puzzles made on this machine by the server's own
//! generator, with no server (docs/client.md, "Generating puzzles"); and
//! what `puzzled client generate` shares with it: the flags, the request
//! they make, and how each puzzle is printed and written. Both go through
//! the API's request and reply (`GeneratePuzzlesRequest`,
//! `GeneratedPuzzle`), so a request means, and prints, the same locally
//! and from a server.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;

use super::choices::{BulkFormat, Game};
use super::client::error::{ClientError, Result};
use super::client::json::to_json;
use super::client::progress::Progress;
use super::client::records::Sink;
use super::client::show;
use crate::api::{encode, proto};
use crate::app::generate::{
    Advice, Ask, FamilyKind, Found, Generator, MAX_COUNT, NoPuzzleFound, WinnerWanted,
};
use crate::config::{
    DEFAULT_CANON_BUDGET_MS, DEFAULT_MAX_EDGES, DEFAULT_MAX_VERTICES, DEFAULT_SEARCH_BUDGET_STATES,
};
use crate::puzzle::Limits;
use crate::solver::cancel::Cancel;

/// Canonical labelling's time budget, as the server's default.
const CANON_BUDGET: std::time::Duration = std::time::Duration::from_millis(DEFAULT_CANON_BUDGET_MS);

/// The graph families (docs/api.md, "Generate puzzles").
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Family {
    /// n vertices and n × d / 2 edges drawn uniformly (--average-degree d).
    Gnm,
    /// Uniform random labelled trees.
    Tree,
    /// A grid with cells removed, kept connected (--hole-fraction).
    GridWithHoles,
    /// Two random sides and edges between them (--average-degree).
    Bipartite,
    /// A spine path with leaves hung on it (--spine-fraction).
    Caterpillar,
    /// The graphs of a graph6, sparse6 or digraph6 file (--graph6), in order.
    Graph6,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Winner {
    First,
    Second,
    Either,
}

/// The flags of a generation request, local or from a server.
#[derive(clap::Args, Clone)]
pub struct GenerationArgs {
    /// The game of the puzzles.
    #[arg(long, value_enum)]
    pub game: Game,
    /// Where candidates come from (default: trees for tree paint, bipartite
    /// graphs for the edge game, gnm for the others).
    #[arg(long, value_enum)]
    pub family: Option<Family>,
    /// Vertices: a number (`20`) or a range (`20..30`).
    #[arg(long, value_parser = parse_range)]
    pub vertices: (u32, u32),
    /// The winner every puzzle must have.
    #[arg(long, value_enum, default_value = "either")]
    pub winner: Winner,
    /// The same seed (and flags) gives the same puzzles.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The least only-move depth: winner turns in a row with exactly one
    /// winning move (docs/games.md, "Difficulty").
    #[arg(long, default_value_t = 0)]
    pub min_only_move_depth: u32,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub count: u32,
    /// gnm and bipartite: the average degree (default 3).
    #[arg(long)]
    pub average_degree: Option<f64>,
    /// grid-with-holes: the share of cells removed (default 0.2).
    #[arg(long)]
    pub hole_fraction: Option<f64>,
    /// caterpillar: the share of vertices on the spine (default 0.5).
    #[arg(long)]
    pub spine_fraction: Option<f64>,
    /// --family graph6: the file of graph lines (`-` reads standard input).
    #[arg(long)]
    pub graph6: Option<PathBuf>,
    /// Candidates rejected in a row before giving up (default 2000, at
    /// most 100000).
    #[arg(long)]
    pub max_rejected_in_a_row: Option<u32>,
    /// The first candidate to draw (an earlier puzzle's candidate + 1 goes
    /// on after it).
    #[arg(long, default_value_t = 0)]
    pub first_candidate: u64,
    /// Also write the puzzles to FILE (a directory for contest files), in
    /// --format, ready for `puzzled client import`.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// The layout of --output.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: BulkFormat,
}

/// `20` or `20..30`, as (min, max).
fn parse_range(text: &str) -> std::result::Result<(u32, u32), String> {
    let number = |part: &str| {
        part.trim()
            .parse::<u32>()
            .map_err(|_| format!("{part:?} is not a number of vertices"))
    };
    match text.split_once("..") {
        Some((min, max)) => Ok((number(min)?, number(max)?)),
        None => number(text).map(|n| (n, n)),
    }
}

impl GenerationArgs {
    /// The request the flags make for `count` puzzles from candidate
    /// `first_candidate`: generated here as it is, or sent to a server as
    /// the API's message (`encode::ask_to_proto`).
    pub fn ask(&self, count: u32, first_candidate: u64) -> Result<Ask> {
        let graph6_lines = match &self.graph6 {
            Some(path) => read_lines(path)?,
            None => Vec::new(),
        };
        if self.family == Some(Family::Graph6) && self.graph6.is_none() {
            return Err(ClientError::usage(
                "--family graph6 reads its graphs from --graph6 FILE",
            ));
        }
        if let Some(why) = self
            .output
            .as_ref()
            .and(super::client::records::unfit(self.format, self.game))
        {
            return Err(ClientError::usage(why));
        }
        let family = match self.family {
            None if self.graph6.is_some() => Some(FamilyKind::Graph6),
            None => None,
            Some(Family::Gnm) => Some(FamilyKind::Gnm),
            Some(Family::Tree) => Some(FamilyKind::Tree),
            Some(Family::GridWithHoles) => Some(FamilyKind::GridWithHoles),
            Some(Family::Bipartite) => Some(FamilyKind::Bipartite),
            Some(Family::Caterpillar) => Some(FamilyKind::Caterpillar),
            Some(Family::Graph6) => Some(FamilyKind::Graph6),
        };
        Ok(Ask {
            game: self.game.into(),
            family,
            min_vertices: self.vertices.0,
            max_vertices: self.vertices.1,
            winner: match self.winner {
                Winner::First => WinnerWanted::First,
                Winner::Second => WinnerWanted::Second,
                Winner::Either => WinnerWanted::Either,
            },
            seed: self.seed,
            min_only_move_depth: self.min_only_move_depth,
            count,
            store: false,
            graph6_lines,
            average_degree: self.average_degree,
            hole_fraction: self.hole_fraction,
            spine_fraction: self.spine_fraction,
            max_rejected_in_a_row: self.max_rejected_in_a_row.unwrap_or(0),
            first_candidate,
            author: String::new(),
        })
    }
}

fn read_lines(path: &Path) -> Result<Vec<String>> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(path)
    }
    .map_err(|e| ClientError::local(format!("cannot read {}: {e}", path.display())))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect())
}

/// Where generated puzzles go: a line each on standard output (for people,
/// or the GeneratedPuzzle as JSON), and with --output a record each in the
/// bulk layout asked for.
pub struct Delivered {
    json: bool,
    format: BulkFormat,
    file: Option<Sink>,
    progress: Progress,
    pub count: u32,
}

impl Delivered {
    pub fn open(args: &GenerationArgs, json: bool) -> Result<Delivered> {
        let file = match &args.output {
            Some(path) => Some(Sink::open(Some(path), args.format, false)?),
            None => None,
        };
        Ok(Delivered {
            json,
            format: args.format,
            file,
            progress: Progress::new(Some(u64::from(args.count)), "puzzles"),
            count: 0,
        })
    }

    pub fn put(&mut self, generated: &proto::GeneratedPuzzle) -> Result<()> {
        let line = if self.json {
            to_json(generated)
        } else {
            describe(generated)
        };
        self.progress.println(&line);
        if let Some(file) = &mut self.file {
            let puzzle = match &generated.puzzle {
                // The stored puzzle comes in the BASIC view: its spec has
                // the title and author given it, the generated one the edges.
                Some(stored) => {
                    let mut puzzle = stored.clone();
                    let spec = puzzle.spec.get_or_insert_default();
                    spec.graph = generated.spec.as_ref().and_then(|s| s.graph.clone());
                    puzzle
                }
                None => proto::Puzzle {
                    spec: generated.spec.clone(),
                    difficulty: generated.difficulty,
                    canonical_hash: generated
                        .solution
                        .as_ref()
                        .map(|s| s.canonical_hash.clone())
                        .unwrap_or_default(),
                    ..Default::default()
                },
            };
            let stem = format!("candidate-{}", generated.candidate);
            match file.write(self.format, &puzzle, &stem) {
                Ok(()) | Err(None) => {}
                Err(Some(error)) => return Err(error),
            }
        }
        self.count += 1;
        self.progress.inc();
        Ok(())
    }

    pub fn finish(&self) {
        self.progress.finish();
    }
}

/// One line for people: the candidate, the puzzle's size, its winner and
/// difficulty, and where it was stored.
pub fn describe(generated: &proto::GeneratedPuzzle) -> String {
    let spec = generated.spec.clone().unwrap_or_default();
    let graph = spec.graph.unwrap_or_default();
    let pairs = graph.edges.len() / 2;
    let game = proto::Game::try_from(spec.game).unwrap_or_default();
    let directed = matches!(
        game,
        proto::Game::DirectedVertexGeography | proto::Game::DirectedEdgeGeography
    );
    let winner = generated
        .solution
        .as_ref()
        .map_or("unknown", |s| show::player(s.winner));
    let mut line = format!(
        "#{} {}: {} vertices, {pairs} {}; {winner} player wins",
        generated.candidate,
        game.as_str_name()
            .trim_start_matches("GAME_")
            .to_lowercase()
            .replace('_', " "),
        graph.vertex_count,
        if directed { "arcs" } else { "edges" },
    );
    if let Some(difficulty) = &generated.difficulty {
        line.push_str(&format!("; {}", show::difficulty_text(difficulty)));
    }
    if let Some(stored) = &generated.puzzle {
        line.push_str(&format!("; stored as {}", stored.name));
    } else if !generated.duplicate_of.is_empty() {
        line.push_str(&format!("; stored already as {}", generated.duplicate_of));
    }
    line
}

/// The flags of `puzzled generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub generation: GenerationArgs,
    /// Print each puzzle as the API's GeneratedPuzzle in JSON, a line each.
    #[arg(long)]
    pub json: bool,
    /// The games solved by search: the most states a search may explore.
    #[arg(long, default_value_t = DEFAULT_SEARCH_BUDGET_STATES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub search_budget_states: u64,
}

/// `puzzled generate`: the generator run here, puzzle by puzzle, each one
/// that copies an earlier one (by canonical hash) passed over, as the
/// server passes them over.
pub fn generate(args: GenerateArgs) -> ExitCode {
    match generate_here(args).map_err(in_flag_words) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => error.report(),
    }
}

fn generate_here(args: GenerateArgs) -> Result<()> {
    // The server's bound on one call's puzzles does not apply here: the
    // request is checked with it, and the generator runs on to the count.
    let wanted = args.generation.count;
    let ask = args
        .generation
        .ask(wanted.min(MAX_COUNT), args.generation.first_candidate)?;
    let limits = Limits {
        max_vertices: DEFAULT_MAX_VERTICES,
        max_edges: DEFAULT_MAX_EDGES,
    };
    // The server's own message, code and reason, as from a server.
    let refused = |error: crate::app::AppError| ClientError::from(tonic::Status::from(error));
    let (request, delivery) = ask
        .prepare(limits, args.search_budget_states)
        .map_err(refused)?;
    let mut generator = Generator::new(request).map_err(|e| refused(e.into()))?;
    generator.resume_at(delivery.first_candidate);
    let mut delivered = Delivered::open(&args.generation, args.json)?;
    let mut sent = HashSet::new();
    let cancel = Cancel::new();
    while delivered.count < wanted {
        let found = generator.next_unseen(&cancel, &mut sent, CANON_BUDGET);
        let Some((generated, canonical)) = found.map_err(|e| refused(e.into()))? else {
            break;
        };
        delivered.put(&encode::generated_to_proto(Found {
            generated,
            canonical_hash: canonical.hash,
            canonicaliser: canonical.canonicaliser,
            stored: None,
            duplicate_of: None,
        }))?;
    }
    delivered.finish();
    Ok(())
}

/// The flag that sets a field of `GeneratePuzzlesRequest` (`graph6_lines[2]`
/// is the third line of `--graph6`); `None` for a field no flag sets.
fn flag_of(field: &str) -> Option<String> {
    if let Some(index) = field
        .strip_prefix("graph6_lines[")
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|index| index.parse::<u64>().ok())
    {
        return Some(format!("--graph6 line {}", index + 1));
    }
    let flag = match field {
        "game" => "--game",
        "family" => "--family",
        "min_vertices" | "max_vertices" => "--vertices",
        "winner" => "--winner",
        "seed" => "--seed",
        "min_only_move_depth" => "--min-only-move-depth",
        "count" => "--count",
        "graph6_lines" => "--graph6",
        "average_degree" => "--average-degree",
        "hole_fraction" => "--hole-fraction",
        "spine_fraction" => "--spine-fraction",
        "max_rejected_in_a_row" => "--max-rejected-in-a-row",
        "first_candidate" => "--first-candidate",
        "search_budget_states" => "--search-budget-states",
        "author" => "--author",
        _ => return None,
    };
    Some(flag.to_owned())
}

/// [`Advice`] in the command line's words.
fn advice_in_flags(advice: Advice) -> &'static str {
    match advice {
        Advice::LowerDepth => "lower --min-only-move-depth (or try another --family or --vertices)",
        Advice::EitherWinner => "ask for --winner either (or try another --family or --vertices)",
        Advice::DenserOrLarger => {
            "try a denser --family or more --vertices (the start had no move)"
        }
        Advice::SuitableLines => "give --graph6 lines of graphs that suit the game",
        Advice::WiderSizeRange => "widen --vertices to the lines' sizes",
        Advice::SmallerOrLargerBudget => {
            "ask for fewer --vertices, or a larger --search-budget-states"
        }
        Advice::WiderRangeOrFewer => {
            "widen --vertices or ask for a smaller --count (fewer distinct puzzles of these \
             sizes meet the request)"
        }
    }
}

/// A generation that found no puzzle, in the command line's words.
pub fn no_puzzle_found_text(none: &NoPuzzleFound) -> String {
    let advice: Vec<&str> = none.advice().into_iter().map(advice_in_flags).collect();
    format!(
        "{}; to relax: {}; --first-candidate {} goes on from here",
        none.summary(),
        advice.join("; "),
        none.next_candidate()
    )
}

/// A generation's failure, here or from a server, in the command line's
/// words: the request's fields named by the flags that set them, and
/// NO_PUZZLE_FOUND's advice worded again from the counts in its
/// metadata. The status, its code and its reason stay as they were.
pub fn in_flag_words(error: ClientError) -> ClientError {
    let ClientError::Status {
        status,
        context,
        message: None,
    } = error
    else {
        return error;
    };
    let details = tonic_types::StatusExt::get_error_details(&*status);
    let message = match details.error_info() {
        Some(info) if info.reason == crate::app::Reason::NoPuzzleFound.as_str() => {
            NoPuzzleFound::from_metadata(|key| info.metadata.get(key).cloned())
                .map(|none| no_puzzle_found_text(&none))
        }
        _ => super::client::error::bad_request_field(&status).and_then(|field| {
            let flag = flag_of(&field)?;
            let body = status.message();
            let body = body.strip_prefix(&format!("{field}: ")).unwrap_or(body);
            Some(format!("{flag}: {body}"))
        }),
    };
    ClientError::Status {
        status,
        context,
        message,
    }
}
