//! What the client prints for people: the API's answers in the style of
//! the local commands (`report.rs`, whose lines it reuses where the answer
//! is the same), vertices in the puzzle's own numbering. Programs take
//! `--json` instead, the API's own messages.

use super::source::{Subject, game_flag, game_of, solver_move};
use crate::api::proto;
use crate::cli::choices::Game;
use crate::cli::report::{self, Labels, counted, player_name, preview};
use crate::solver::Player;
use crate::solver::position::{Move, PlayPosition, WinningMoves};

/// A player as the local commands name it (`first`, `second`).
pub fn player(value: i32) -> &'static str {
    match proto_player(value) {
        Some(p) => player_name(p),
        None => "unknown",
    }
}

fn proto_player(value: i32) -> Option<Player> {
    match proto::Player::try_from(value).ok()? {
        proto::Player::First => Some(Player::First),
        proto::Player::Second => Some(Player::Second),
        proto::Player::Unspecified => None,
    }
}

/// The game as the local reports name it.
fn game_name(game: Game) -> String {
    match game {
        Game::Geography => "geography".into(),
        Game::BipartiteEdge => "bipartite edge-adding".into(),
        Game::TreePaint => "tree paint".into(),
        other => game_flag(other),
    }
}

/// `geography, 6 vertices, 6 edges, start 5`: the game, the size and the
/// distinguished vertices, as the local reports' first line.
pub fn describe(
    game: Game,
    vertex_count: u64,
    edge_count: u64,
    (start, black, white): (u32, u32, u32),
    labels: Labels,
) -> String {
    let vertices = counted(vertex_count as usize, "vertex", "vertices");
    let edges = counted(edge_count as usize, "edge", "edges");
    let name = game_name(game);
    match game {
        Game::BipartiteEdge => format!("{name}, {vertices}, {edges}"),
        Game::TreePaint => format!(
            "{name}, {vertices}, black {}, white {}",
            labels.label(black),
            labels.label(white)
        ),
        Game::Geography => format!("{name}, {vertices}, {edges}, start {}", labels.label(start)),
        // As `puzzled solve` words the games solved by search.
        _ => format!("{name}, {vertices}, start {}", labels.label(start)),
    }
}

fn subject_line(subject: &Subject) -> String {
    format!(
        "game: {}\n",
        describe(
            subject.game,
            subject.vertex_count,
            subject.edge_count,
            (subject.start, subject.black, subject.white),
            subject.labels,
        )
    )
}

/// A stored puzzle's game line, its distinguished vertices defaulted as
/// the server defaults them.
fn puzzle_description(puzzle: &proto::Puzzle) -> String {
    let spec = puzzle.spec.clone().unwrap_or_default();
    let n = spec.graph.as_ref().map_or(0, |g| g.vertex_count);
    match game_of(spec.game) {
        Some(game) => describe(
            game,
            u64::from(n),
            puzzle.edge_count,
            (
                spec.start,
                spec.black.unwrap_or(0),
                spec.white.unwrap_or(n.saturating_sub(1)),
            ),
            labels_of(&spec),
        ),
        None => format!("game number {}, {n} vertices", spec.game),
    }
}

/// The numbering a stored puzzle is shown in: the one it was made in.
fn labels_of(spec: &proto::PuzzleSpec) -> Labels {
    Labels::numbered_from(spec.numbered_from)
}

/// A stored puzzle, for `get` and `create`: its vertices in the numbering
/// it was made in.
pub fn puzzle_text(puzzle: &proto::Puzzle) -> String {
    let spec = puzzle.spec.clone().unwrap_or_default();
    let mut out = format!("name: {}\n", puzzle.name);
    if !spec.title.is_empty() {
        out.push_str(&format!("title: {}\n", spec.title));
    }
    if !spec.author.is_empty() {
        out.push_str(&format!("author: {}\n", spec.author));
    }
    let labels = labels_of(&spec);
    out.push_str(&format!("game: {}\n", puzzle_description(puzzle)));
    out.push_str(&format!("vertices numbered from: {}\n", labels.first()));
    if let Some(graph) = &spec.graph
        && !graph.edges.is_empty()
    {
        let directed = game_of(spec.game).is_some_and(super::source::is_directed);
        let (what, joint) = if directed {
            ("arcs", "->")
        } else {
            ("edges", "-")
        };
        let pairs: Vec<String> = graph
            .edges
            .chunks(2)
            .map(|pair| {
                let (u, v) = (pair[0], pair.get(1).copied().unwrap_or(0));
                format!("{}{joint}{}", labels.label(u), labels.label(v))
            })
            .collect();
        out.push_str(&format!("{what}: {}\n", preview(&pairs)));
    }
    out.push_str(&format!("canonical hash: {}\n", puzzle.canonical_hash));
    if !puzzle.duplicate_of.is_empty() {
        out.push_str(&format!("duplicate of: {}\n", puzzle.duplicate_of));
    }
    if let Some(time) = &puzzle.create_time {
        out.push_str(&format!("created: {time}\n"));
    }
    out.push_str(&match proto_player(puzzle.cached_winner) {
        Some(winner) => format!("winner: {} player\n", player_name(winner)),
        None => "winner: not solved yet\n".to_owned(),
    });
    if let Some(difficulty) = &puzzle.difficulty {
        out.push_str(&format!("difficulty: {}\n", difficulty_text(difficulty)));
    }
    out
}

/// A rating in words: `only-move depth 2, 1 of 2 first moves lose,
/// margin +2` (docs/games.md, "Difficulty").
pub fn difficulty_text(difficulty: &proto::Difficulty) -> String {
    let mut text = format!(
        "only-move depth {}, {} of {} first moves lose",
        difficulty.only_move_depth, difficulty.losing_first_moves, difficulty.first_move_count
    );
    if let Some(margin) = difficulty.margin {
        text.push_str(&format!(", margin {margin:+}"));
    }
    text
}

/// One line of a list: the name, the game and size, the stored winner and
/// the rating when there are any, a copy's original, the title.
pub fn list_line(puzzle: &proto::Puzzle) -> String {
    let spec = puzzle.spec.clone().unwrap_or_default();
    let mut line = format!("{}  {}", puzzle.name, puzzle_description(puzzle));
    if let Some(winner) = proto_player(puzzle.cached_winner) {
        line.push_str(&format!("; winner: {} player", player_name(winner)));
    }
    if let Some(difficulty) = &puzzle.difficulty {
        line.push_str(&format!("; {}", difficulty_text(difficulty)));
    }
    if !puzzle.duplicate_of.is_empty() {
        line.push_str(&format!("; duplicate of {}", puzzle.duplicate_of));
    }
    if !spec.title.is_empty() {
        line.push_str(&format!("; {:?}", spec.title));
    }
    line
}

fn moves_of(moves: &[proto::Move]) -> Vec<Move> {
    moves.iter().filter_map(solver_move).collect()
}

fn labelled(moves: &[proto::Move], labels: Labels) -> String {
    let shown: Vec<String> = moves_of(moves)
        .into_iter()
        .map(|m| report::move_label(m, labels))
        .collect();
    preview(&shown)
}

/// The winning first moves as the local reports list them.
fn winning_list(moves: &proto::WinningMoves, labels: Labels) -> String {
    format!(
        "{}{}{}",
        labelled(&moves.moves, labels),
        if moves.complete {
            String::new()
        } else {
            format!(" (one per class, {} in all)", moves.count)
        },
        if moves.unique { " (unique)" } else { "" }
    )
}

fn winning_first_moves(winner: i32, moves: Option<&proto::WinningMoves>, labels: Labels) -> String {
    match moves {
        Some(moves) if winner == proto::Player::First as i32 && moves.count > 0 => {
            format!("winning first moves: {}\n", winning_list(moves, labels))
        }
        Some(_) => "winning first moves: none (every first move loses)\n".to_owned(),
        None => String::new(),
    }
}

/// A verdict and its evidence, as `puzzled solve` words it.
pub fn solution_text(subject: &Subject, solution: &proto::Solution) -> String {
    use proto::solution::Detail;
    let labels = subject.labels;
    let mut out = subject_line(subject);
    out.push_str(&format!("winner: {} player\n", player(solution.winner)));
    let winning = winning_first_moves(solution.winner, solution.winning_moves.as_ref(), labels);
    match &solution.detail {
        Some(Detail::Geography(g)) => {
            out.push_str(&format!("maximum matching size: {}\n", g.matching_size));
            if let Some(d) = &g.second_player_starts {
                let (d, a) = (d.vertices.len() as u64, g.barrier.len() as u64);
                out.push_str(&format!(
                    "Gallai–Edmonds: |D| = {d}, |A| = {a}, |C| = {}\n",
                    subject.vertex_count.saturating_sub(d + a)
                ));
            }
            out.push_str(&winning);
        }
        Some(Detail::BipartiteEdge(e)) => {
            out.push_str(&format!(
                "counts: x = {}, iso = {}, oo = {}, eo = {}, ee = {}\n",
                e.x, e.iso, e.oo, e.eo, e.ee
            ));
            match &e.winning_move {
                Some(edge) => {
                    out.push_str(&format!(
                        "winning move: add edge ({}, {})",
                        labels.label(edge.u),
                        labels.label(edge.v)
                    ));
                    if let Some(moves) = &solution.winning_moves {
                        out.push_str(&format!(
                            "; {} in all{}",
                            counted(moves.count as usize, "winning edge", "winning edges"),
                            if moves.unique { " (unique)" } else { "" }
                        ));
                    }
                    out.push('\n');
                }
                None => out.push_str("winning move: none (every move loses)\n"),
            }
        }
        Some(Detail::TreePaint(t)) => {
            out.push_str(&format!(
                "final counts: black {}, white {}\n",
                t.black_count, t.white_count
            ));
            match (t.winning_move, &solution.winning_moves) {
                (Some(v), Some(moves)) => out.push_str(&format!(
                    "winning move: paint {}; winning moves: {}\n",
                    labels.label(v),
                    winning_list(moves, labels)
                )),
                (Some(v), None) => {
                    out.push_str(&format!("winning move: paint {}\n", labels.label(v)))
                }
                (None, _) => out.push_str("winning move: none (every first move loses)\n"),
            }
        }
        Some(Detail::Search(s)) => {
            out.push_str(&format!("states searched: {}\n", s.states_searched));
            out.push_str(&winning);
            match &s.strategy {
                Some(tree) => out.push_str(&format!(
                    "strategy certificate: {}\n",
                    counted(tree.moves.len(), "position", "positions")
                )),
                None => out.push_str(&format!(
                    "strategy certificate: none ({})\n",
                    s.strategy_omitted
                )),
            }
        }
        None => out.push_str(&winning),
    }
    out.push_str(&format!(
        "canonical hash: {}{}\n",
        solution.canonical_hash,
        if solution.cached {
            " (verdict from the cache)"
        } else {
            ""
        }
    ));
    out
}

/// A proto position as the local game's, for the local reports' lines.
pub fn play_position(position: &proto::PositionAnalysis) -> PlayPosition {
    let winning = position.winning.clone().unwrap_or_default();
    PlayPosition {
        game_over: position.game_over,
        to_move: proto_player(position.to_move).unwrap_or(Player::First),
        winner: proto_player(position.winner).unwrap_or(Player::First),
        winning: WinningMoves {
            moves: moves_of(&winning.moves),
            count: winning.count,
            unique: winning.unique,
            complete: winning.complete,
        },
        legal_moves: moves_of(&position.legal_moves),
        legal_move_count: position.legal_move_count,
    }
}

/// Where the token stands after `moves` (the Geographies): the start, or
/// the last vertex moved to.
fn token(subject: &Subject, moves: &[proto::Move]) -> u32 {
    moves
        .iter()
        .rev()
        .find_map(|m| match m.r#move {
            Some(proto::r#move::Move::Vertex(v)) => Some(v),
            _ => None,
        })
        .unwrap_or(subject.start)
}

/// A position, as `puzzled analyze` words it.
pub fn analysis_text(
    subject: &Subject,
    moves: &[proto::Move],
    analysis: &proto::PositionAnalysis,
) -> String {
    use proto::position_analysis::Detail;
    let labels = subject.labels;
    let mut out = report::position_lines(&play_position(analysis), labels);
    match &analysis.detail {
        Some(Detail::Geography(g)) => {
            let token = token(subject, moves);
            let covered = g.matching.chunks(2).any(|pair| pair.contains(&token));
            out.push_str(&format!(
                "token on vertex {}; remaining graph: maximum matching of {} ({} the token), barrier of {}\n",
                labels.label(token),
                counted(g.matching_size as usize, "edge", "edges"),
                if covered { "covering" } else { "leaving out" },
                counted(g.barrier.len(), "vertex", "vertices")
            ));
        }
        Some(Detail::BipartiteEdge(e)) => out.push_str(&format!(
            "counts: N={} M={} X={} iso={} oo={} eo={} ee={}\n",
            e.vertex_count, e.edge_count, e.x, e.iso, e.oo, e.eo, e.ee
        )),
        Some(Detail::TreePaint(t)) => out.push_str(&format!(
            "with perfect play from here: black ends with {}, white with {}\n",
            counted(t.black_count as usize, "vertex", "vertices"),
            t.white_count
        )),
        Some(Detail::Search(s)) => out.push_str(&format!(
            "token on vertex {}; states searched: {}\n",
            labels.label(token(subject, moves)),
            s.states_searched
        )),
        None => {}
    }
    out
}
