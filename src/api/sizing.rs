//! How much of the admission budget a decoded request's puzzle takes,
//! and the bytes it holds while it waits: read off the message before it
//! is validated, so that the work is admitted by its size first.

use super::decode::game_from_proto;
use super::proto;
use crate::app::admission::search_table_units;
use crate::puzzle::Limits;

/// What a request's puzzle counts against the admission budget: its
/// vertices plus its edges, read off the message before anything is
/// allocated for it. A puzzle over the size limits counts as one at the
/// limits: validation refuses it before it allocates.
pub fn units_of(spec: Option<&proto::PuzzleSpec>, limits: Limits) -> u64 {
    let Some(graph) = spec.and_then(|s| s.graph.as_ref()) else {
        return 0;
    };
    let vertices = u64::from(graph.vertex_count).min(limits.max_vertices);
    let edges = (graph.edges.len() as u64).div_ceil(2).min(limits.max_edges);
    vertices + edges
}

/// The units a solve of the request's puzzle holds beside its graph (see
/// [`search_table_units`]); nothing when the game is not one solved by
/// search or not a game at all (validation then refuses it).
pub fn search_units_of(spec: Option<&proto::PuzzleSpec>, search_budget_states: u64) -> u64 {
    spec.and_then(|spec| game_from_proto(spec.game, "spec.game").ok())
        .map_or(0, |game| search_table_units(game, search_budget_states))
}

/// The bytes a decoded `spec` holds: its edge list and its texts (what a
/// request keeps while it waits for admission).
pub fn held_bytes(spec: Option<&proto::PuzzleSpec>) -> u64 {
    spec.map_or(0, |spec| {
        let edges = spec.graph.as_ref().map_or(0, |g| g.edges.capacity());
        (edges * std::mem::size_of::<u32>() + spec.title.len() + spec.author.len()) as u64
    })
}
