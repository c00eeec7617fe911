//! What `puzzled solve` prints: a short summary for people (small even on
//! huge graphs) or the full evidence as JSON for programs, with vertices in
//! the input file's own numbering.

use serde_json::{Value, json};

use crate::graph::file::Numbering;
use crate::graph::{Graph, GraphError, Vertex};
use crate::solver::Player;
use crate::solver::bipartite_edge::{BipartiteEdgeError, BipartiteEdgeSolution};
use crate::solver::geography::GeographySolution;
use crate::solver::position::PlayPosition;
use crate::solver::position::{Move, PositionAnalysis, PositionEvidence};
use crate::solver::search_geography::{Board, Certificate, SearchSolution, Variant};
use crate::solver::tree_paint::{NotATree, TreePaintError, TreePaintSolution};

/// Maps solver vertex ids (0-based) to the file's numbering.
#[derive(Debug, Clone, Copy)]
pub struct Labels {
    offset: u32,
}

impl Labels {
    pub fn new(numbering: Numbering) -> Labels {
        Labels {
            offset: match numbering {
                Numbering::OneBased => 1,
                Numbering::ZeroBased => 0,
            },
        }
    }

    /// The labels of a stored puzzle shown from `first` (its
    /// `numbered_from`: 0 or 1; anything larger is shown from 1).
    pub fn numbered_from(first: u32) -> Labels {
        Labels {
            offset: first.min(1),
        }
    }

    /// The number of the first vertex: what a stored puzzle keeps as its
    /// `numbered_from`.
    pub fn first(self) -> u32 {
        self.offset
    }

    pub fn label(self, v: Vertex) -> u64 {
        u64::from(v) + u64::from(self.offset)
    }

    pub fn list(self, vertices: &[Vertex]) -> Vec<u64> {
        vertices.iter().map(|&v| self.label(v)).collect()
    }

    pub fn pairs(self, pairs: &[(Vertex, Vertex)]) -> Vec<[u64; 2]> {
        pairs
            .iter()
            .map(|&(u, v)| [self.label(u), self.label(v)])
            .collect()
    }

    /// The same vertices as labels, for re-rendering a solver message (labels
    /// fit in a `Vertex`: ids stay below `graph::MAX_VERTICES`).
    pub fn relabel(self, vertices: &[Vertex]) -> Vec<Vertex> {
        vertices.iter().map(|&v| v + self.offset).collect()
    }

    /// Whether the file's labels are the solver's ids (0-based), so that a
    /// solver message naming vertices reads right as it is.
    pub fn are_ids(self) -> bool {
        self.offset == 0
    }

    /// The solver vertex of a label given on the command line.
    pub fn vertex(self, label: u64) -> Option<u64> {
        label.checked_sub(u64::from(self.offset))
    }
}

/// Describes a graph validation error in the terms of a file that holds one
/// header line and then one edge per line.
pub fn graph_error_in_file(error: &GraphError, labels: Labels) -> String {
    let line = |edge: usize| edge + 2;
    match *error {
        GraphError::SelfLoop { edge, vertex } => {
            let v = labels.label(vertex);
            format!("line {}: edge ({v}, {v}) is a self-loop", line(edge))
        }
        GraphError::DuplicateEdge {
            first,
            second,
            u,
            v,
        } => format!(
            "line {}: edge ({}, {}) duplicates the edge on line {}",
            line(second),
            labels.label(u),
            labels.label(v),
            line(first)
        ),
        ref other => other.to_string(),
    }
}

pub fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

/// Shows at most a few items of a long list (vertices, moves).
pub fn preview<T: std::fmt::Display>(items: &[T]) -> String {
    const SHOWN: usize = 10;
    let mut text = items
        .iter()
        .take(SHOWN)
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    if items.len() > SHOWN {
        text.push_str(&format!(" … ({} in all)", items.len()));
    }
    text
}

pub fn geography_text(
    graph: &Graph,
    start: Vertex,
    s: &GeographySolution,
    labels: Labels,
) -> String {
    let n = graph.vertex_count();
    let d = s.second_player_starts.as_ref().map_or(0, Vec::len);
    let a = s.barrier.len();
    let mut out = format!(
        "game: geography, {}, {}, start {}\n\
         winner: {} player\n\
         maximum matching size: {}\n\
         Gallai–Edmonds: |D| = {d}, |A| = {a}, |C| = {}\n",
        counted(n, "vertex", "vertices"),
        counted(graph.edge_count(), "edge", "edges"),
        labels.label(start),
        player_name(s.winner),
        s.matching.len(),
        n - d - a,
    );
    if let Some(moves) = &s.winning_moves {
        if s.winner == Player::First {
            out.push_str(&format!(
                "winning first moves: {}{}\n",
                preview(&labels.list(&moves.moves)),
                if moves.unique { " (unique)" } else { "" }
            ));
        } else {
            out.push_str("winning first moves: none (every first move loses)\n");
        }
    }
    out
}

pub fn geography_json(
    graph: &Graph,
    start: Vertex,
    s: &GeographySolution,
    labels: Labels,
) -> Value {
    json!({
        "game": "geography",
        "vertex_count": graph.vertex_count(),
        "edge_count": graph.edge_count(),
        "start": labels.label(start),
        "winner": player_name(s.winner),
        "matching_size": s.matching.len(),
        "matching": labels.pairs(&s.matching),
        "barrier": labels.list(&s.barrier),
        "start_barrier": s.start_barrier.as_deref().map(|b| labels.list(b)),
        "second_player_starts": s.second_player_starts.as_deref().map(|d| labels.list(d)),
        "winning_moves": s.winning_moves.as_ref().map(|m| labels.list(&m.moves)),
        "unique_winning_move": s.winning_moves.as_ref().map(|m| m.unique),
    })
}

/// The game's name as the command line writes it.
fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::DirectedVertex => "directed-vertex-geography",
        Variant::UndirectedEdge => "undirected-edge-geography",
        Variant::DirectedEdge => "directed-edge-geography",
    }
}

pub fn search_text(board: &Board, start: Vertex, s: &SearchSolution, labels: Labels) -> String {
    let mut out = format!(
        "game: {}, {}, start {}\n\
         winner: {} player\n\
         states searched: {}\n",
        variant_name(board.variant()),
        counted(board.vertex_count(), "vertex", "vertices"),
        labels.label(start),
        player_name(s.winner),
        s.states,
    );
    if s.winner == Player::First {
        out.push_str(&format!(
            "winning first moves: {}{}\n",
            preview(&labels.list(&s.winning_moves)),
            if s.winning_moves.len() == 1 {
                " (unique)"
            } else {
                ""
            }
        ));
    } else {
        out.push_str("winning first moves: none (every first move loses)\n");
    }
    match &s.certificate {
        Certificate::Strategy(tree) => out.push_str(&format!(
            "strategy certificate: {}\n",
            counted(tree.moves.len(), "position", "positions")
        )),
        Certificate::Omitted(why) => out.push_str(&format!("strategy certificate: none ({why})\n")),
    }
    out
}

pub fn search_json(board: &Board, start: Vertex, s: &SearchSolution, labels: Labels) -> Value {
    let (strategy, omitted) = match &s.certificate {
        Certificate::Strategy(tree) => (
            Some(json!({"moves": labels.list(&tree.moves), "replies": tree.replies})),
            None,
        ),
        Certificate::Omitted(why) => (None, Some(why.as_str())),
    };
    json!({
        "game": variant_name(board.variant()),
        "vertex_count": board.vertex_count(),
        "start": labels.label(start),
        "winner": player_name(s.winner),
        "winning_moves": labels.list(&s.winning_moves),
        "states_searched": s.states,
        "strategy": strategy,
        "strategy_omitted": omitted,
    })
}

/// `1 edge`, `2 edges`: a count with its noun in the right number.
pub fn counted(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn dashed(labels: Labels, vertices: &[Vertex]) -> String {
    labels
        .list(vertices)
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

/// The edge game's validation error with vertices in the file's numbering.
pub fn bipartite_error_in_file(error: &BipartiteEdgeError, labels: Labels) -> String {
    match error {
        BipartiteEdgeError::OddCycle { cycle } => BipartiteEdgeError::OddCycle {
            cycle: labels.relabel(cycle),
        }
        .to_string(),
    }
}

/// The painting game's validation error with vertices in the file's numbering.
pub fn tree_error_in_file(error: &TreePaintError, labels: Labels) -> String {
    match error {
        TreePaintError::NotATree(NotATree::NotConnected { unreached, cycle }) => format!(
            "tree paint needs a tree, and this graph is not connected: vertex {} cannot be reached from vertex {} (and vertices {} form a cycle)",
            labels.label(*unreached),
            labels.label(0),
            dashed(labels, cycle)
        ),
        TreePaintError::NotATree(NotATree::WrongEdgeCount {
            vertex_count,
            edge_count,
            cycle,
        }) => NotATree::WrongEdgeCount {
            vertex_count: *vertex_count,
            edge_count: *edge_count,
            cycle: cycle.as_deref().map(|c| labels.relabel(c)),
        }
        .to_string(),
        TreePaintError::SameVertex { vertex } => format!(
            "--black and --white must be different vertices, both are {}",
            labels.label(*vertex)
        ),
        other => other.to_string(),
    }
}

pub fn bipartite_edge_text(graph: &Graph, s: &BipartiteEdgeSolution, labels: Labels) -> String {
    let c = &s.counts;
    let mut out = format!(
        "game: bipartite edge-adding, {}, {}\n\
         winner: {} player\n\
         counts: x = {}, iso = {}, oo = {}, eo = {}, ee = {}\n",
        counted(graph.vertex_count(), "vertex", "vertices"),
        counted(graph.edge_count(), "edge", "edges"),
        player_name(s.winner),
        c.x,
        c.iso,
        c.oo,
        c.eo,
        c.ee,
    );
    match s.winning_move {
        Some((u, v)) => out.push_str(&format!(
            "winning move: add edge ({}, {}); {} in all{}\n",
            labels.label(u),
            labels.label(v),
            counted(
                s.winning_moves.edge_count as usize,
                "winning edge",
                "winning edges"
            ),
            if s.winning_moves.unique {
                " (unique)"
            } else {
                ""
            }
        )),
        None => out.push_str("winning move: none (every move loses)\n"),
    }
    out
}

pub fn bipartite_edge_json(graph: &Graph, s: &BipartiteEdgeSolution, labels: Labels) -> Value {
    let c = &s.counts;
    json!({
        "game": "bipartite_edge",
        "vertex_count": graph.vertex_count(),
        "edge_count": graph.edge_count(),
        "winner": player_name(s.winner),
        "counts": { "n": c.n, "m": c.m, "x": c.x, "iso": c.iso, "oo": c.oo, "eo": c.eo, "ee": c.ee },
        "winning_move": s.winning_move.map(|(u, v)| [labels.label(u), labels.label(v)]),
        "winning_move_classes": s.winning_moves.classes.iter().map(|class| json!({
            "class": class.class,
            "edge_count": class.edge_count,
            "example": [labels.label(class.example.0), labels.label(class.example.1)],
        })).collect::<Vec<_>>(),
        "winning_edge_count": s.winning_moves.edge_count,
        "unique_winning_move": s.winning_moves.unique,
    })
}

pub fn tree_paint_text(graph: &Graph, s: &TreePaintSolution, labels: Labels) -> String {
    let mut out = format!(
        "game: tree paint, {}, black {}, white {}\n\
         winner: {} player\n\
         final counts: black {}, white {}\n",
        counted(graph.vertex_count(), "vertex", "vertices"),
        labels.label(s.black),
        labels.label(s.white),
        player_name(s.winner),
        s.black_count,
        s.white_count,
    );
    match s.winning_move {
        Some(v) => out.push_str(&format!(
            "winning move: paint {}; winning moves: {}{}\n",
            labels.label(v),
            preview(&labels.list(&s.winning_moves.moves)),
            if s.winning_moves.unique {
                " (unique)"
            } else {
                ""
            }
        )),
        None => out.push_str("winning move: none (every first move loses)\n"),
    }
    out
}

pub fn tree_paint_json(graph: &Graph, s: &TreePaintSolution, labels: Labels) -> Value {
    json!({
        "game": "tree_paint",
        "vertex_count": graph.vertex_count(),
        "black": labels.label(s.black),
        "white": labels.label(s.white),
        "winner": player_name(s.winner),
        "black_count": s.black_count,
        "white_count": s.white_count,
        "winning_move": s.winning_move.map(|v| labels.label(v)),
        "winning_moves": labels.list(&s.winning_moves.moves),
        "unique_winning_move": s.winning_moves.unique,
    })
}

/// A move in the file's numbering: `v` for a vertex, `u-v` for an edge.
pub fn move_label(m: Move, labels: Labels) -> String {
    match m {
        Move::Geography(v) | Move::Paint(v) => labels.label(v).to_string(),
        Move::Edge(u, v) => format!("{}-{}", labels.label(u), labels.label(v)),
    }
}

/// A refused move for people, in the numbering it was typed in: `move 2
/// (5) is illegal: it was visited already (ALREADY_VISITED)`. `index`
/// counts from 0, as the API's `moves[index]`; `code` is the reason's
/// [`IllegalReason::code`](crate::solver::position::IllegalReason::code).
pub fn illegal_move_text(index: usize, typed: &str, code: &str) -> String {
    format!("{} ({code})", illegal_move_sentence(index, typed, code))
}

/// [`illegal_move_text`] without the code, for a line that shows it already.
pub fn illegal_move_sentence(index: usize, typed: &str, code: &str) -> String {
    use crate::solver::position::IllegalReason;
    match IllegalReason::from_code(code) {
        Some(reason) => format!(
            "move {} ({typed}) is illegal: {}",
            index + 1,
            reason.explanation()
        ),
        None => format!("move {} ({typed}) is illegal", index + 1),
    }
}

/// A move for programs, as `solve --json` writes them: a vertex as its
/// number, an edge as the pair of its ends.
fn move_json(m: Move, labels: Labels) -> Value {
    match m {
        Move::Geography(v) | Move::Paint(v) => json!(labels.label(v)),
        Move::Edge(u, v) => json!([labels.label(u), labels.label(v)]),
    }
}

fn move_list(moves: &[Move], labels: Labels) -> String {
    let labelled: Vec<String> = moves.iter().map(|&m| move_label(m, labels)).collect();
    preview(&labelled)
}

/// The moves of `--moves` (separated by commas or spaces) as typed, and
/// as moves of `game`; an error names the move by its place.
pub fn parse_moves(
    text: &str,
    game: GameKind,
    labels: Labels,
) -> Result<(Vec<String>, Vec<Move>), String> {
    let typed: Vec<String> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect();
    let moves = typed
        .iter()
        .enumerate()
        .map(|(i, item)| {
            parse_move(item, game, labels).map_err(|e| format!("--moves: move {}: {e}", i + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((typed, moves))
}

/// One move typed in the file's numbering (`v`, or `u-v` for the edge
/// game) as a move of `game`.
pub fn parse_move(text: &str, game: GameKind, labels: Labels) -> Result<Move, String> {
    let vertex = |part: &str| -> Result<Vertex, String> {
        let label: u64 = part
            .trim()
            .parse()
            .map_err(|_| format!("`{part}` is not a vertex number"))?;
        labels
            .vertex(label)
            .and_then(|v| Vertex::try_from(v).ok())
            .ok_or_else(|| {
                format!("there is no vertex {label}: this puzzle's numbering starts at 1")
            })
    };
    match (game, text.split_once('-')) {
        (GameKind::BipartiteEdge, Some((u, v))) => Ok(Move::Edge(vertex(u)?, vertex(v)?)),
        (GameKind::BipartiteEdge, None) => Err(format!(
            "`{text}`: a move of the edge game is an edge, written u-v"
        )),
        (_, Some(_)) => Err(format!("`{text}`: a move of this game is one vertex")),
        (GameKind::Geography, None) => Ok(Move::Geography(vertex(text)?)),
        (GameKind::TreePaint, None) => Ok(Move::Paint(vertex(text)?)),
    }
}

/// The game a move is parsed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    Geography,
    BipartiteEdge,
    TreePaint,
}

fn game_over_line(to_move: Player, winner: Player) -> String {
    format!(
        "game over: the {} player cannot move and loses; the {} player wins\n",
        player_name(to_move),
        player_name(winner)
    )
}

/// A position's verdict and moves for people (without its evidence): the
/// lines `puzzled analyze` and `puzzled client analyze` share.
pub fn position_lines(position: &PlayPosition, labels: Labels) -> String {
    let mut out = String::new();
    if position.game_over {
        out.push_str(&game_over_line(position.to_move, position.winner));
    } else {
        out.push_str(&format!(
            "to move: {} player; winner with perfect play: {} player\n",
            player_name(position.to_move),
            player_name(position.winner)
        ));
    }
    let winning = &position.winning;
    if !position.game_over {
        if winning.count == 0 {
            out.push_str("winning moves: none (every move loses)\n");
        } else {
            out.push_str(&format!(
                "winning moves ({}{}): {}\n",
                winning.count,
                if winning.complete {
                    ""
                } else {
                    " in all, one per class"
                },
                move_list(&winning.moves, labels)
            ));
        }
        out.push_str(&format!(
            "legal moves ({}{}): {}\n",
            position.legal_move_count,
            if position.legal_move_count == position.legal_moves.len() as u64 {
                ""
            } else {
                " in all, one per class"
            },
            move_list(&position.legal_moves, labels)
        ));
    }
    out
}

/// A position for people: whose turn, who wins, the winning and legal moves
/// and the evidence in a line or two.
pub fn position_text(analysis: &PositionAnalysis, labels: Labels) -> String {
    let mut out = position_lines(&analysis.position, labels);
    match &analysis.evidence {
        PositionEvidence::Geography {
            current,
            matching,
            barrier,
            ..
        } => out.push_str(&format!(
            "token on vertex {}; remaining graph: maximum matching of {} ({} the token), barrier of {}\n",
            labels.label(*current),
            counted(matching.len(), "edge", "edges"),
            if matching.iter().any(|&(u, v)| u == *current || v == *current) {
                "covering"
            } else {
                "leaving out"
            },
            counted(barrier.len(), "vertex", "vertices")
        )),
        PositionEvidence::BipartiteEdge { counts, .. } => out.push_str(&format!(
            "counts: N={} M={} X={} iso={} oo={} eo={} ee={}\n",
            counts.n, counts.m, counts.x, counts.iso, counts.oo, counts.eo, counts.ee
        )),
        PositionEvidence::TreePaint {
            black_count,
            white_count,
            ..
        } => out.push_str(&format!(
            "with perfect play from here: black ends with {}, white with {white_count}\n",
            counted(*black_count as usize, "vertex", "vertices")
        )),
        PositionEvidence::Search { current, states } => out.push_str(&format!(
            "token on vertex {}; states searched: {states}\n",
            labels.label(*current)
        )),
    }
    out
}

/// A position for programs, vertices in the file's numbering.
pub fn position_json(analysis: &PositionAnalysis, labels: Labels) -> Value {
    let moves =
        |moves: &[Move]| -> Vec<Value> { moves.iter().map(|&m| move_json(m, labels)).collect() };
    let evidence = match &analysis.evidence {
        PositionEvidence::Geography {
            current,
            matching,
            barrier,
            current_barrier,
        } => json!({
            "token": labels.label(*current),
            "matching": labels.pairs(matching),
            "barrier": labels.list(barrier),
            "token_barrier": current_barrier.as_deref().map(|b| labels.list(b)),
        }),
        PositionEvidence::BipartiteEdge { counts, classes } => json!({
            "counts": counts,
            "legal_classes": classes.iter().map(|c| json!({
                "class": format!("{:?}", c.class),
                "edge_count": c.edge_count,
                "example": move_json(Move::Edge(c.example.0, c.example.1), labels),
                "wins": c.wins,
            })).collect::<Vec<_>>(),
        }),
        PositionEvidence::TreePaint {
            black_count,
            white_count,
            ..
        } => json!({"black_count": black_count, "white_count": white_count}),
        PositionEvidence::Search { current, states } => json!({
            "token": labels.label(*current),
            "states_searched": states,
        }),
    };
    json!({
        "game_over": analysis.position.game_over,
        "to_move": player_name(analysis.position.to_move),
        "winner": player_name(analysis.position.winner),
        "winning_moves": moves(&analysis.position.winning.moves),
        "winning_move_count": analysis.position.winning.count,
        "unique_winning_move": analysis.position.winning.unique,
        "winning_moves_complete": analysis.position.winning.complete,
        "legal_moves": moves(&analysis.position.legal_moves),
        "legal_move_count": analysis.position.legal_move_count,
        "evidence": evidence,
    })
}

/// The state of a game in the terminal: the moves so far and the position.
pub fn play_state_text(moves: &[Move], position: &PlayPosition, labels: Labels) -> String {
    let mut out = String::new();
    const SHOWN: usize = 12;
    let skipped = moves.len().saturating_sub(SHOWN);
    let recent: Vec<String> = moves[skipped..]
        .iter()
        .map(|&m| move_label(m, labels))
        .collect();
    out.push_str(&format!(
        "moves so far ({}): {}{}\n",
        moves.len(),
        if skipped > 0 { "… " } else { "" },
        recent.join(" ")
    ));
    if position.game_over {
        out.push_str(&game_over_line(position.to_move, position.winner));
    } else {
        out.push_str(&format!(
            "to move: {} player; legal moves ({}): {}\n",
            player_name(position.to_move),
            position.legal_move_count,
            move_list(&position.legal_moves, labels)
        ));
    }
    out
}
