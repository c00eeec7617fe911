//! The one place that calls the solvers for a verdict: a game, a graph in
//! canonical labels and its distinguished vertices in, a verdict with
//! evidence out. Wiring a new solver is a match arm here, and one in
//! [`setup_of`], the game setup every position starts from.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::puzzle::{EdgeClass, Evidence, Game, Move, SolveOptions, Spec, Verdict, WinningMoves};
use crate::solver::Player;
use crate::solver::cancel::{Cancel, Cancelled};
use crate::solver::position::{GameSetup, PlayPosition, PositionAnalysis, PositionEvidence};
use crate::solver::search_geography::{
    self, BudgetExceeded, DEFAULT_CERTIFICATE_POSITIONS, SearchOptions, SearchStop,
};
use crate::solver::{SOLVER_VERSION, bipartite_edge, geography, tree_paint};

/// Why a solve could not produce a verdict.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The solver refused a spec that validation accepted: the two disagree.
    #[error("{0}")]
    Rejected(String),
    /// Every caller waiting for the verdict has gone.
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
    /// A game solved by search passed the search budget.
    #[error(transparent)]
    SearchBudget(#[from] BudgetExceeded),
}

impl From<SearchStop> for GameError {
    fn from(stop: SearchStop) -> Self {
        match stop {
            SearchStop::BudgetExceeded(exceeded) => GameError::SearchBudget(exceeded),
            SearchStop::Cancelled(cancelled) => GameError::Cancelled(cancelled),
        }
    }
}

/// What a game's solver decides: the winner, the evidence, and the
/// winning moves when they were asked for.
type Decided = (Player, Evidence, Option<WinningMoves>);

/// Solves `spec` in its own labels, a game solved by search within
/// `search_budget_states`, stopping soon after `cancel` fires. CPU-bound:
/// call it off the async runtime.
pub fn solve(
    spec: &Spec,
    options: SolveOptions,
    search_budget_states: u64,
    cancel: &Cancel,
) -> Result<Verdict, GameError> {
    let game = spec.game();
    // Times are kept to the microsecond, as the store keeps them, so a
    // verdict read back from the store equals the fresh one.
    let solve_time = UNIX_EPOCH
        + Duration::from_micros(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_micros() as u64,
        );
    let started = Instant::now();
    let (winner, evidence, winning_moves) = match game {
        Game::Geography => solve_geography(spec, options, cancel)?,
        Game::BipartiteEdge => solve_bipartite_edge(spec, options, cancel)?,
        Game::TreePaint => solve_tree_paint(spec, options, cancel)?,
        Game::DirectedVertexGeography
        | Game::UndirectedEdgeGeography
        | Game::DirectedEdgeGeography => solve_by_search(spec, search_budget_states, cancel)?,
    };
    let solve_duration = started.elapsed();
    count_solve(game, solve_duration);
    Ok(Verdict {
        winner,
        evidence,
        winning_moves,
        solver_version: SOLVER_VERSION.to_owned(),
        solve_time,
        solve_duration: Duration::from_micros(solve_duration.as_micros() as u64),
    })
}

/// A solve of `game` that took `took`, in the metrics.
fn count_solve(game: Game, took: Duration) {
    let metrics = crate::metrics::metrics();
    let game_label = crate::metrics::GameLabels {
        game: game.as_str(),
    };
    metrics.solver_runs.get_or_create(&game_label).inc();
    metrics
        .solver_seconds
        .get_or_create(&game_label)
        .observe(took.as_secs_f64());
}

fn solve_geography(
    spec: &Spec,
    options: SolveOptions,
    cancel: &Cancel,
) -> Result<Decided, GameError> {
    let solution = geography::solve_with_cancel(
        spec.graph(),
        spec.distinguished()[0],
        geography::GeographyOptions {
            all_starts: options.all_starts,
            winning_moves: options.winning_moves,
        },
        cancel,
    )?;
    let geography::GeographySolution {
        winner,
        matching,
        barrier,
        start_barrier,
        second_player_starts,
        winning_moves,
    } = solution;
    let winning_moves = winning_moves.map(|w| WinningMoves::from_vertex_moves(w, Move::Geography));
    let evidence = Evidence::Geography {
        matching,
        barrier,
        start_barrier,
        second_player_starts,
    };
    Ok((winner, evidence, winning_moves))
}

fn solve_bipartite_edge(
    spec: &Spec,
    options: SolveOptions,
    cancel: &Cancel,
) -> Result<Decided, GameError> {
    let solution = bipartite_edge::solve_with_cancel(spec.graph(), cancel)?
        .map_err(|e| GameError::Rejected(e.to_string()))?;
    let bipartite_edge::BipartiteEdgeSolution {
        winner,
        counts,
        winning_move,
        winning_moves,
    } = solution;
    let bipartite_edge::BipartiteCounts {
        n,
        m,
        x,
        iso,
        oo,
        eo,
        ee,
    } = counts;
    let (classes, winning_moves) = if options.winning_moves {
        let classes: Vec<EdgeClass> = winning_moves
            .classes
            .iter()
            .map(|c| EdgeClass {
                class: move_class_name(c.class),
                edge_count: c.edge_count,
                example: c.example,
            })
            .collect();
        (Some(classes), Some(WinningMoves::from(winning_moves)))
    } else {
        (None, None)
    };
    let evidence = Evidence::BipartiteEdge {
        n,
        m,
        x,
        iso,
        oo,
        eo,
        ee,
        winning_move,
        winning_move_classes: classes,
    };
    Ok((winner, evidence, winning_moves))
}

fn solve_tree_paint(
    spec: &Spec,
    options: SolveOptions,
    cancel: &Cancel,
) -> Result<Decided, GameError> {
    let distinguished = spec.distinguished();
    let (black, white) = (distinguished[0], distinguished[1]);
    let solution = tree_paint::solve_with_cancel(spec.graph(), black, white, cancel)?
        .map_err(|e| GameError::Rejected(e.to_string()))?;
    let tree_paint::TreePaintSolution {
        winner,
        black: _,
        white: _,
        black_count,
        white_count,
        winning_move,
        winning_moves,
    } = solution;
    let winning_moves = options
        .winning_moves
        .then(|| WinningMoves::from_vertex_moves(winning_moves, Move::Paint));
    let evidence = Evidence::TreePaint {
        black_count,
        white_count,
        winning_move,
    };
    Ok((winner, evidence, winning_moves))
}

/// The three Geographies without a polynomial rule: every winning first
/// move is part of the search's evidence, whatever was asked.
fn solve_by_search(
    spec: &Spec,
    search_budget_states: u64,
    cancel: &Cancel,
) -> Result<Decided, GameError> {
    let board = spec
        .board()
        .ok_or_else(|| GameError::Rejected("the puzzle has no search board".into()))?;
    let options = SearchOptions {
        budget_states: search_budget_states,
        certificate_positions: DEFAULT_CERTIFICATE_POSITIONS,
    };
    let solution = search_geography::solve(board, spec.distinguished()[0], options, cancel)?;
    let moves = solution.winning_moves.into_iter().map(Move::Geography);
    let evidence = Evidence::Search {
        states: solution.states,
        certificate: solution.certificate,
    };
    Ok((
        solution.winner,
        evidence,
        Some(WinningMoves::complete_list(moves.collect())),
    ))
}

/// The stable wire name of an edge-game move class.
pub fn move_class_name(class: bipartite_edge::MoveClass) -> String {
    fn vertex_class(c: bipartite_edge::VertexClass) -> &'static str {
        use bipartite_edge::VertexClass::*;
        match c {
            Isolated => "isolated",
            OddOdd => "odd_odd",
            OddPartOfOddEven => "odd_part_of_odd_even",
            EvenPartOfOddEven => "even_part_of_odd_even",
            EvenEven => "even_even",
        }
    }
    match class {
        bipartite_edge::MoveClass::InsideComponent => "inside_component".to_owned(),
        bipartite_edge::MoveClass::Join(a, b) => {
            format!("join:{}:{}", vertex_class(a), vertex_class(b))
        }
    }
}

/// The options that matter for `game` (the others are dropped so that they
/// do not split the cache).
pub fn effective_options(game: Game, options: SolveOptions) -> SolveOptions {
    match game {
        Game::Geography => options,
        Game::BipartiteEdge | Game::TreePaint => SolveOptions {
            all_starts: false,
            ..options
        },
        // The winning first moves are part of the search's evidence.
        Game::DirectedVertexGeography
        | Game::UndirectedEdgeGeography
        | Game::DirectedEdgeGeography => SolveOptions {
            all_starts: false,
            winning_moves: true,
        },
    }
}

/// The puzzle of `spec` as the position model takes it; a game solved by
/// search is analysed within `search_budget_states`.
pub fn setup_of(spec: &Spec, search_budget_states: u64) -> GameSetup<'_> {
    let graph = spec.graph();
    let distinguished = spec.distinguished();
    if let Some(board) = spec.board() {
        return GameSetup::Search {
            board,
            start: distinguished[0],
            budget_states: search_budget_states,
        };
    }
    match spec.game() {
        Game::Geography => GameSetup::Geography {
            graph,
            start: distinguished[0],
        },
        Game::BipartiteEdge => GameSetup::BipartiteEdge { graph },
        Game::TreePaint => GameSetup::TreePaint {
            graph,
            black: distinguished[0],
            white: distinguished[1],
        },
        Game::DirectedVertexGeography
        | Game::UndirectedEdgeGeography
        | Game::DirectedEdgeGeography => unreachable!("a game solved by search has a board"),
    }
}

/// The analysis of `spec`'s opening position read off its verdict (solved
/// with winning moves, in `spec`'s labels), so that the opening of a stored
/// puzzle is served from the verdict cache: Geography and tree painting.
/// `None` for the edge game, whose analysis lists every class of legal
/// moves, which a verdict does not keep (that analysis is one linear pass),
/// and for a verdict without its winning moves.
pub fn opening_from_verdict(spec: &Spec, verdict: Verdict) -> Option<PositionAnalysis> {
    let winning = verdict.winning_moves?;
    let graph = spec.graph();
    // No search runs here: the budget is never used.
    let (legal_moves, evidence): (Vec<Move>, PositionEvidence) =
        match (setup_of(spec, 0), verdict.evidence) {
            (
                GameSetup::Geography { start, .. },
                Evidence::Geography {
                    matching,
                    barrier,
                    start_barrier,
                    ..
                },
            ) => (
                graph
                    .neighbors(start)
                    .iter()
                    .map(|&v| Move::Geography(v))
                    .collect(),
                PositionEvidence::Geography {
                    current: start,
                    matching,
                    barrier,
                    current_barrier: start_barrier,
                },
            ),
            (
                GameSetup::TreePaint { black, white, .. },
                Evidence::TreePaint {
                    black_count,
                    white_count,
                    ..
                },
            ) => (
                graph
                    .neighbors(black)
                    .iter()
                    .filter(|&&v| v != white)
                    .map(|&v| Move::Paint(v))
                    .collect(),
                PositionEvidence::TreePaint {
                    // The two painted vertices count in the final counts.
                    black_future: black_count.saturating_sub(1),
                    white_future: white_count.saturating_sub(1),
                    black_count,
                    white_count,
                },
            ),
            (GameSetup::Search { board, start, .. }, Evidence::Search { states, .. }) => (
                board
                    .moves(board.start(start))
                    .into_iter()
                    .map(Move::Geography)
                    .collect(),
                PositionEvidence::Search {
                    current: start,
                    states,
                },
            ),
            _ => return None,
        };
    Some(PositionAnalysis {
        position: PlayPosition {
            game_over: legal_moves.is_empty(),
            to_move: Player::First,
            winner: verdict.winner,
            winning,
            legal_move_count: legal_moves.len() as u64,
            legal_moves,
        },
        evidence,
    })
}
