//! What `puzzled solve` prints: a short summary for people (small even on
//! huge graphs) or the full evidence as JSON for programs, with vertices in
//! the input file's own numbering.

use serde_json::{Value, json};

use crate::graph_file::Numbering;
use crate::solver::Player;
use crate::solver::geography::GeographySolution;
use crate::solver::graph::{Graph, GraphError, Vertex};

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

/// Shows at most a few vertices of a long list.
fn preview(labels: &[u64]) -> String {
    const SHOWN: usize = 10;
    let mut text = labels
        .iter()
        .take(SHOWN)
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    if labels.len() > SHOWN {
        text.push_str(&format!(" … ({} in all)", labels.len()));
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
        "game: geography, {n} vertices, {} edges, start {}\n\
         winner: {} player\n\
         maximum matching size: {}\n\
         Gallai–Edmonds: |D| = {d}, |A| = {a}, |C| = {}\n",
        graph.edge_count(),
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
