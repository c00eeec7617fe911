//! Colour refinement of the core before Traces, in rounds of hashed
//! colours, giving an ordered colouring that depends only on the coloured
//! graph, never on its vertex labels.
//!
//! Sparse random graphs have almost no symmetry, so refinement alone
//! usually gives every vertex a colour of its own; the order of the
//! colours is then a canonical labelling, and Traces (whose search on a
//! large graph can cost as much as solving the game on it) is not called.
//! When some colour keeps two vertices, Traces labels the refined colouring,
//! which is as canonical as the colouring it refines. Hand-written because
//! nauty's refinement is internal to its searches and cannot hand back
//! its partition, and because it must be cheap on the largest graphs the
//! service takes.
//!
//! Why it is canonical. A vertex's colour is a 64-bit hash: at first of its
//! cell's position, then, each round, of its own colour and the sum of a
//! mix of its neighbours' colours. Every step is a function of colours and
//! adjacency alone, so isomorphic coloured graphs get corresponding
//! colours, and the vertices sorted by (cell, colour) correspond too. Two
//! colours that collide only merge classes: the partition is coarser, never
//! wrong, and the canonical form is the graph itself relabelled, so
//! non-isomorphic graphs never share it.
//!
//! Why it is cheap. A round reads each edge once, in vertex order, with
//! independent loads, whose cache misses overlap (a splitter queue, as
//! nauty's, follows a chain of dependent loads per edge), and while every core vertex is
//! recomputed, as running sums over the neighbour lists, without a branch
//! per vertex (see [`all_neighbour_sums`]). The first round reads only the
//! edges of the vertices outside the largest cell (see
//! [`first_round_by_cells`]). From the third round on, vertices whose
//! colour is unique are frozen: their colour no longer changes, so only the
//! others are recomputed, and on a random graph they are few by then.
//! The vertices frozen at each count are sorted by colour already, so the
//! final order merges those runs instead of sorting every vertex again.
//! Refinement stops when a round splits too little to be worth another
//! (grids and other symmetric graphs, where Traces does better), and after
//! at most [`WORK_PASSES`] passes' worth of reads. Stopping early is always
//! safe: Traces finishes what refinement leaves.

use std::time::Instant;

use super::buckets::{group_by_bucket, sort_by_hash, vertices_where};
use crate::graph::{Graph, Vertex, prefetch_at};
use crate::splitmix::{GAMMA, mix};

/// What refinement gave.
pub enum Refined {
    /// Every colour is a single vertex: `order[i]` gets canonical label `i`.
    Discrete(Vec<Vertex>),
    /// The refined colouring, cell after cell, for Traces.
    Cells(Vec<Vec<Vertex>>),
}

/// The round after which the colours are first counted (a count sorts the
/// vertices not yet frozen, so the first is the dear one); from then on
/// they are counted after every round. On random graphs few colours are
/// unique before the third round and most are after it.
const FIRST_COUNT: u32 = 3;

/// Refinement reads at most this many times each edge end and vertex.
/// Random graphs need about four; a graph that needs more splits slowly,
/// which Traces' own refinement does better.
const WORK_PASSES: usize = 12;

/// Refines the ordered colouring `cells` of the core of `graph`: the
/// vertices in the cells (a partition of them, in order) and the edges
/// between them; `core_degree(v)` is the number of `v`'s neighbours in the
/// core. `None` past `deadline`.
///
/// The core is read in place, in the whole graph: a vertex outside it adds
/// zero to its neighbours' sums, which is what leaving it out would add.
/// (Copying the core out would read every edge once more, with a random
/// read each, as costly as a round.)
pub fn refine(
    graph: &Graph,
    core_degree: impl Fn(Vertex) -> u32,
    cells: &[Vec<Vertex>],
    deadline: Instant,
) -> Option<Refined> {
    // Cells of one vertex each are already discrete, and refinement would
    // keep their order: on a tree the core is the distinguished vertices,
    // and this saves arrays the size of the graph.
    if cells.iter().all(|cell| cell.len() <= 1) {
        return Some(Refined::Discrete(cells.concat()));
    }
    let mut refining = Refining::new(graph, &core_degree, cells);
    // Neighbour reads left before refinement gives up on rounds and leaves
    // the rest to Traces: a bound on its cost whatever the graph.
    // Until the first count every core vertex is active, and reads as many.
    let all_reads = refining.core_edge_ends + refining.active.len();
    let mut reads_left = WORK_PASSES * all_reads;
    let mut round = 0u32;
    while !refining.active.is_empty() {
        if Instant::now() >= deadline {
            return None;
        }
        let reads: usize = if round < FIRST_COUNT {
            all_reads
        } else {
            refining
                .active
                .iter()
                .map(|&v| core_degree(v) as usize + 1)
                .sum()
        };
        if reads > reads_left {
            break;
        }
        reads_left -= reads;
        if round < FIRST_COUNT {
            refining.every_vertex_round(graph, &core_degree, cells, round);
        } else {
            refining.active_vertex_round(graph);
        }
        round += 1;
        if round >= FIRST_COUNT && !refining.count() {
            break;
        }
    }
    Some(refining.finish(cells.len()))
}

/// Refinement under way: each vertex's cell, colour and what it adds to
/// its neighbours, the vertices whose colour may still change (`active`),
/// and those frozen so far with their colours.
struct Refining {
    cell_of: Vec<u32>,
    colour: Vec<u64>,
    /// `mixed[v] = neighbour_value(colour[v])` in the core: what `v` adds
    /// to its neighbours; zero outside it.
    mixed: Vec<u64>,
    next: Vec<u64>,
    active: Vec<Vertex>,
    core_edge_ends: usize,
    by_colour: Vec<Item>,
    /// Scratch for `all_neighbour_sums`.
    running_sums: Vec<u64>,
    /// The frozen vertices with their colours, sorted by colour: each count
    /// merges in those it froze, so the final order needs no sort of all
    /// the vertices again.
    settled: Vec<Item>,
    /// Classes among the active vertices at the last count.
    classes: usize,
}

impl Refining {
    /// Every core vertex coloured by its cell's position.
    fn new(graph: &Graph, core_degree: &impl Fn(Vertex) -> u32, cells: &[Vec<Vertex>]) -> Refining {
        let n = graph.vertex_count();
        let mut cell_of = vec![NO_CELL; n];
        let mut colour = vec![0u64; n];
        let mut mixed = vec![0u64; n];
        for (i, cell) in cells.iter().enumerate() {
            let (cell_colour, cell_value) = (mix(i as u64 + 1), neighbour_value(mix(i as u64 + 1)));
            for &v in cell {
                cell_of[v as usize] = i as u32;
                colour[v as usize] = cell_colour;
                mixed[v as usize] = cell_value;
            }
        }
        let active = vertices_where(n, |v| cell_of[v] != NO_CELL);
        let core_edge_ends = active.iter().map(|&v| core_degree(v) as usize).sum();
        Refining {
            cell_of,
            colour,
            mixed,
            next: vec![0u64; n],
            active,
            core_edge_ends,
            by_colour: Vec::new(),
            running_sums: Vec::new(),
            settled: Vec::new(),
            classes: cells.iter().filter(|cell| !cell.is_empty()).count(),
        }
    }

    /// A round before the first count, when every core vertex is active:
    /// its new colour goes straight to `colour` (a vertex reads only its
    /// own), and its new `mixed` to `next`, which then takes the place of
    /// `mixed`. Outside the core both stay zero.
    fn every_vertex_round(
        &mut self,
        graph: &Graph,
        core_degree: &impl Fn(Vertex) -> u32,
        cells: &[Vec<Vertex>],
        round: u32,
    ) {
        // The sums go to `next` first.
        let summed_by_cells = round == 0
            && first_round_by_cells(
                graph,
                cells,
                &self.cell_of,
                &self.mixed,
                core_degree,
                &mut self.next,
            );
        if !summed_by_cells {
            if 2 * self.core_edge_ends >= graph.neighbor_lists().len() {
                all_neighbour_sums(
                    graph,
                    &self.mixed,
                    &self.cell_of,
                    &mut self.next,
                    &mut self.running_sums,
                );
            } else {
                for (i, &v) in self.active.iter().enumerate() {
                    prefetch_neighbour_values(graph, &self.mixed, &self.active, i);
                    self.next[v as usize] = neighbour_sum(graph, &self.mixed, v);
                }
            }
        }
        for &v in &self.active {
            let v = v as usize;
            self.colour[v] = next_colour(self.colour[v], self.next[v]);
            self.next[v] = neighbour_value(self.colour[v]);
        }
        std::mem::swap(&mut self.mixed, &mut self.next);
    }

    /// A round after the first count: frozen vertices keep their `mixed`,
    /// so the new colours wait in `next` until every sum is taken.
    fn active_vertex_round(&mut self, graph: &Graph) {
        for (i, &v) in self.active.iter().enumerate() {
            prefetch_neighbour_values(graph, &self.mixed, &self.active, i);
            let sum = neighbour_sum(graph, &self.mixed, v);
            self.next[v as usize] = next_colour(self.colour[v as usize], sum);
        }
        for &v in &self.active {
            let v = v as usize;
            self.colour[v] = self.next[v];
            self.mixed[v] = neighbour_value(self.next[v]);
        }
    }

    /// Counts the colours: freezes the vertices alone in theirs, keeps the
    /// others active. Gives whether another round is worth it: while the
    /// last ones split at least a sixteenth of what was left to split
    /// (`before - classes`: the classes the active vertices could still
    /// gain).
    fn count(&mut self) -> bool {
        let before = self.active.len();
        sort_by_colour(
            &self.active,
            &self.colour,
            &self.cell_of,
            &mut self.by_colour,
        );
        self.active.clear();
        let by_colour = &self.by_colour;
        let mut frozen = Vec::with_capacity(by_colour.len());
        let mut shared = 0;
        let mut i = 0;
        while i < by_colour.len() {
            let mut j = i + 1;
            while j < by_colour.len() && by_colour[i].0 == by_colour[j].0 {
                j += 1;
            }
            if j - i > 1 {
                self.active
                    .extend(by_colour[i..j].iter().map(|&(_, v, _)| v));
                shared += 1;
            } else {
                frozen.push(by_colour[i]);
            }
            i = j;
        }
        let counted = frozen.len() + shared;
        self.settled = if self.settled.is_empty() {
            frozen
        } else {
            merge(&self.settled, &frozen)
        };
        self.active.sort_unstable();
        let gained = counted.saturating_sub(self.classes);
        let left = before - self.classes;
        self.classes = shared;
        gained * 16 >= left
    }

    /// The order: by cell first, so that the refined colouring refines the
    /// given one in its order (the distinguished vertices stay first), then
    /// by colour: sorted by colour, then stably by cell. Each item carries
    /// its cell, so that neither grouping by cell nor comparing neighbours
    /// reads the colourings at random places.
    fn finish(mut self, cell_count: usize) -> Refined {
        sort_by_colour(
            &self.active,
            &self.colour,
            &self.cell_of,
            &mut self.by_colour,
        );
        let by_colour = if self.by_colour.is_empty() {
            self.settled
        } else {
            merge(&self.settled, &self.by_colour)
        };
        let (by_cell, _) = group_by_bucket(&by_colour, cell_count, |&(_, _, cell)| cell as usize);
        drop(by_colour);
        let same = |a: &Item, b: &Item| a.0 == b.0 && a.2 == b.2;
        if by_cell.windows(2).all(|w| !same(&w[0], &w[1])) {
            return Refined::Discrete(by_cell.into_iter().map(|(_, v, _)| v).collect());
        }
        let mut out: Vec<Vec<Vertex>> = Vec::new();
        for (i, item) in by_cell.iter().enumerate() {
            if i == 0 || !same(&by_cell[i - 1], item) {
                out.push(Vec::new());
            }
            out.last_mut().expect("a cell").push(item.1);
        }
        Refined::Cells(out)
    }
}

/// Every core vertex's neighbour sum, into `sums` (zero outside the core,
/// where `cell_of` is [`NO_CELL`]), from running sums over the neighbour
/// lists rather than vertex by vertex: a vertex's sum is the difference of
/// the running sum at the ends of its list, exactly, modulo 2^64. Summed
/// vertex by vertex, each vertex's few neighbours end in a loop exit that
/// is mispredicted (degrees vary), and the mispredictions, not the reads,
/// were most of a round on random graphs; one running sum over a block's
/// lists has no branch but the loop's own, and its
/// independent reads overlap. It reads every vertex's list, so it pays
/// when the core holds most of the edges.
fn all_neighbour_sums(
    graph: &Graph,
    mixed: &[u64],
    cell_of: &[u32],
    sums: &mut [u64],
    running: &mut Vec<u64>,
) {
    let n = graph.vertex_count();
    let ends = graph.neighbor_lists();
    let mut block_start = 0;
    let mut first = 0;
    while first < n {
        let last = (first + RUNNING_SUM_BLOCK).min(n);
        let block_end = block_start
            + (first..last)
                .map(|v| graph.degree(v as Vertex))
                .sum::<usize>();
        // `running[i]`: the sum over the block's first `i` edge ends. Every
        // entry is written before it is read, so the scratch is only grown.
        let len = block_end - block_start;
        if running.len() <= len {
            running.resize(len + 1, 0);
        }
        let running = &mut running[..=len];
        running[0] = 0;
        let block = &ends[block_start..block_end];
        // The ends whose values are asked for, each as far ahead of the end
        // being summed, as far as the lists go; then the block's last few,
        // with nothing to ask for.
        let ahead = &ends[(block_start + RUNNING_SUM_PREFETCH_DISTANCE).min(ends.len())
            ..(block_end + RUNNING_SUM_PREFETCH_DISTANCE).min(ends.len())];
        let (with_ahead, last_ends) = block.split_at(ahead.len());
        let (slots_with_ahead, last_slots) = running[1..].split_at_mut(ahead.len());
        let mut sum = 0u64;
        for ((slot, &w), &ahead) in slots_with_ahead.iter_mut().zip(with_ahead).zip(ahead) {
            prefetch_at(mixed, ahead as usize);
            sum = sum.wrapping_add(mixed[w as usize]);
            *slot = sum;
        }
        for (slot, &w) in last_slots.iter_mut().zip(last_ends) {
            sum = sum.wrapping_add(mixed[w as usize]);
            *slot = sum;
        }
        let mut end = 0;
        for v in first..last {
            let start = end;
            end += graph.degree(v as Vertex);
            let sum = running[end].wrapping_sub(running[start]);
            sums[v] = if cell_of[v] == NO_CELL { 0 } else { sum };
        }
        block_start = block_end;
        first = last;
    }
}

/// Vertices whose lists [`all_neighbour_sums`] sums at a time: their
/// running sums stay in cache. The exact size matters little as long as
/// they do.
const RUNNING_SUM_BLOCK: usize = 1024;

/// How many edge ends ahead [`all_neighbour_sums`] asks for the value it
/// will read. While the colours fit in cache it makes no difference; once
/// they do not, every read is a miss, and without the requests the running
/// sums lost to the vertex-by-vertex sums (which made requests of their
/// own); with them they are about as fast.
const RUNNING_SUM_PREFETCH_DISTANCE: usize = 16;

/// What a vertex of colour `colour` adds to its neighbours' sums.
fn neighbour_value(colour: u64) -> u64 {
    mix(colour ^ SALT)
}

/// The colour after `colour`, given the sum of the neighbours' values.
fn next_colour(colour: u64, sum: u64) -> u64 {
    mix(colour.wrapping_mul(GAMMA) ^ sum)
}

/// The sum of `v`'s neighbours' values (`mixed`), modulo 2^64.
fn neighbour_sum(graph: &Graph, mixed: &[u64], v: Vertex) -> u64 {
    graph
        .neighbors(v)
        .iter()
        .fold(0u64, |sum, &w| sum.wrapping_add(mixed[w as usize]))
}

/// Asks for the values (random reads) that [`neighbour_sum`] will need
/// for the vertex [`SUM_PREFETCH_DISTANCE`] places after `vertices[i]`,
/// so that their misses overlap with the sums in between.
fn prefetch_neighbour_values(graph: &Graph, mixed: &[u64], vertices: &[Vertex], i: usize) {
    if let Some(&ahead) = vertices.get(i + SUM_PREFETCH_DISTANCE) {
        for &w in graph.neighbors(ahead) {
            prefetch_at(mixed, w as usize);
        }
    }
}

/// How many vertices ahead refinement's sums prefetch.
const SUM_PREFETCH_DISTANCE: usize = 4;

/// The first round's neighbour sums, into `sums`, without reading every
/// edge, when that is cheaper: at first a colour is a cell, and most core
/// vertices of a sparse graph are in one cell (those with no tree hanging
/// from them). With `M` that cell's `mixed` value, a vertex's sum is
/// `M` times its core degree, plus `mixed[u] - M` for each neighbour `u`
/// in another cell — exactly, as sums are taken modulo 2^64 — so only the
/// edges of the other cells are read. `sums` outside the core (vertices
/// with no cell in `cell_of`) is left as it is. Returns whether it did so.
fn first_round_by_cells(
    graph: &Graph,
    cells: &[Vec<Vertex>],
    cell_of: &[u32],
    mixed: &[u64],
    core_degree: &impl Fn(Vertex) -> u32,
    sums: &mut [u64],
) -> bool {
    let Some((largest, cell)) = cells.iter().enumerate().max_by_key(|(_, cell)| cell.len()) else {
        return false;
    };
    let Some(&member) = cell.first() else {
        return false;
    };
    let others: usize = cells
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != largest)
        .flat_map(|(_, cell)| cell.iter())
        .map(|&u| graph.degree(u))
        .sum();
    let all: usize = cells.iter().map(|cell| cell.len()).sum::<usize>() + graph.edge_count();
    if others * 2 > all {
        return false;
    }
    let base = mixed[member as usize];
    for cell in cells {
        for &v in cell {
            sums[v as usize] = u64::from(core_degree(v)).wrapping_mul(base);
        }
    }
    for (i, cell) in cells.iter().enumerate() {
        if i == largest {
            continue;
        }
        for &u in cell {
            let extra = mixed[u as usize].wrapping_sub(base);
            // Only core vertices get sums: `sums` stays zero outside it.
            for &w in graph.neighbors(u) {
                if cell_of[w as usize] != NO_CELL {
                    sums[w as usize] = sums[w as usize].wrapping_add(extra);
                }
            }
        }
    }
    true
}

/// Sorts the `active` vertices into `by_colour` by colour. A colour starts
/// from the cell and mixes in nothing but colours, so equal colours in
/// different cells would only be a collision: counting classes by colour
/// alone at worst undercounts, which the stopping rule tolerates, and the
/// final order separates cells.
fn sort_by_colour(active: &[Vertex], colour: &[u64], cell_of: &[u32], by_colour: &mut Vec<Item>) {
    by_colour.clear();
    by_colour.extend(
        active
            .iter()
            .map(|&v| (colour[v as usize], v, cell_of[v as usize])),
    );
    sort_by_hash(by_colour, |&(colour, ..)| colour);
}

/// The sorted lists `a` and `b` merged into one, sorted.
fn merge(a: &[Item], b: &[Item]) -> Vec<Item> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if b[j].0 < a[i].0 {
            out.push(b[j]);
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

const SALT: u64 = 0x5851_f42d_4c95_7f2d;

/// A vertex with its colour and cell: `(colour, vertex, cell)`.
type Item = (u64, Vertex, u32);

/// `cell_of` of a vertex outside the core.
const NO_CELL: u32 = u32::MAX;

#[cfg(test)]
mod tests;
