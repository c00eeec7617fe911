//! A refined core that falls apart into several connected components is
//! labelled one component at a time, and the components' canonical forms
//! are combined in sorted order.
//!
//! Why: Traces on a disjoint union of many copies of one graph searches a
//! group that grows with the number of copies (every exchange of two copies
//! is a symmetry), and its time grows faster than the graph; one copy at a
//! time, a union of equal components costs its components' labellings and
//! a sort.
//!
//! Why it is canonical. Each component is labelled by Traces with the
//! colouring restricted to it, cells kept in the colouring's order. Its
//! certificate is the list of its vertices' cells in its canonical order,
//! then its edges in canonical labels, sorted: two components have equal
//! certificates exactly when a colour-preserving isomorphism maps one onto
//! the other, canonical order onto canonical order. The core's order lists
//! the colouring's cells in order, and within a cell its vertices by their
//! component's certificate, then by their place in the component's
//! canonical order. Everything there depends only on the coloured graph,
//! except the order among components with equal certificates, and
//! exchanging two such components is an automorphism of the coloured core:
//! the canonical graph is the same whichever comes first. Listing by cell
//! keeps the distinguished vertices' singleton cells first, so they get
//! the first labels, as with one Traces search.

use std::time::Instant;

use super::traces::{self, InputError, Sparse};
use crate::graph::{Graph, Vertex};
use crate::solver::cancel::Cancel;

/// No component yet.
const UNSEEN: u32 = u32::MAX;

/// The core's connected components: each core vertex's component, and how
/// many there are. `in_core(v)` tells the core's vertices.
pub fn components(
    graph: &Graph,
    core: &[Vertex],
    in_core: impl Fn(Vertex) -> bool,
) -> (Vec<u32>, usize) {
    let mut component = vec![UNSEEN; graph.vertex_count()];
    let mut count = 0;
    let mut stack = Vec::new();
    for &root in core {
        if component[root as usize] != UNSEEN {
            continue;
        }
        component[root as usize] = count;
        stack.push(root);
        while let Some(v) = stack.pop() {
            for &w in graph.neighbors(v) {
                if component[w as usize] == UNSEEN && in_core(w) {
                    component[w as usize] = count;
                    stack.push(w);
                }
            }
        }
        count += 1;
    }
    (component, count as usize)
}

/// The canonical order of a core of several components (`component`, as
/// [`components`] gives it, `count` of them) coloured by `cells` (a
/// partition of the core, in order); `None` past `deadline` or once
/// `cancel` fires.
pub fn canonical_core_order(
    graph: &Graph,
    cells: &[Vec<Vertex>],
    component: &[u32],
    count: usize,
    deadline: Instant,
    cancel: &Cancel,
) -> Option<Vec<Vertex>> {
    // Each core vertex's cell, and each component's vertices, cell after
    // cell (so the colouring restricted to a component is runs of its
    // list). A vertex's local index is its place in its component's list.
    let mut cell_of = vec![0u32; graph.vertex_count()];
    let mut members: Vec<Vec<Vertex>> = vec![Vec::new(); count];
    let mut local = vec![0 as Vertex; graph.vertex_count()];
    for (k, cell) in cells.iter().enumerate() {
        for &v in cell {
            cell_of[v as usize] = k as u32;
            let c = component[v as usize] as usize;
            local[v as usize] = members[c].len() as Vertex;
            members[c].push(v);
        }
    }
    let split = Split {
        graph,
        component,
        cell_of: &cell_of,
        local: &local,
    };
    let searches: Result<Vec<Search>, InputError> = members
        .iter()
        .enumerate()
        .map(|(c, members)| split.search(c as u32, members))
        .collect();
    let searches = match searches {
        Ok(searches) => searches,
        Err(error) => {
            tracing::error!(%error, "a component of the core was not fit for Traces");
            return None;
        }
    };
    let orders = match traces::canonical_orders(searches, deadline, cancel) {
        Ok(orders) => orders?,
        Err(error) => {
            tracing::error!(%error, "a component of the core was not fit for Traces");
            return None;
        }
    };

    let certificates: Vec<Vec<u32>> = orders
        .iter()
        .enumerate()
        .map(|(c, order)| split.certificate(c as u32, &members[c], order))
        .collect();
    if cancel.is_fired() || Instant::now() >= deadline {
        return None;
    }
    let mut ranked: Vec<usize> = (0..count).collect();
    ranked.sort_unstable_by(|&a, &b| certificates[a].cmp(&certificates[b]));

    // Cell by cell; within a cell, component by rank, each in its
    // canonical order: every vertex placed at its cell's next free slot.
    let mut next_slot = Vec::with_capacity(cells.len());
    let mut placed = 0u32;
    for cell in cells {
        next_slot.push(placed);
        placed += cell.len() as u32;
    }
    let mut order = vec![0 as Vertex; placed as usize];
    for &c in &ranked {
        for &l in &orders[c] {
            let v = members[c][l as usize];
            let k = cell_of[v as usize] as usize;
            order[next_slot[k] as usize] = v;
            next_slot[k] += 1;
        }
    }
    Some(order)
}

/// One component as Traces takes it: its graph and its cells.
type Search = (Sparse, Vec<Vec<Vertex>>);

/// The core split into its components: which component and cell each
/// vertex is in, and its index in its component's list.
struct Split<'a> {
    graph: &'a Graph,
    component: &'a [u32],
    cell_of: &'a [u32],
    local: &'a [Vertex],
}

impl Split<'_> {
    /// Component `c` (its vertices `members`, cell after cell) as Traces
    /// takes it: its edges in local indices, and its cells.
    fn search(&self, c: u32, members: &[Vertex]) -> Result<(Sparse, Vec<Vec<Vertex>>), InputError> {
        let mut offsets = Vec::with_capacity(members.len());
        let mut degrees = Vec::with_capacity(members.len());
        let mut targets = Vec::new();
        for &v in members {
            offsets.push(targets.len());
            let before = targets.len();
            targets.extend(
                self.graph
                    .neighbors(v)
                    .iter()
                    .filter(|&&w| self.component[w as usize] == c)
                    .map(|&w| self.local[w as usize]),
            );
            degrees.push(targets.len() - before);
        }
        let mut cells: Vec<Vec<Vertex>> = Vec::new();
        for (l, &v) in members.iter().enumerate() {
            let starts_a_cell =
                l == 0 || self.cell_of[v as usize] != self.cell_of[members[l - 1] as usize];
            if starts_a_cell {
                cells.push(Vec::new());
            }
            cells.last_mut().expect("a cell").push(l as Vertex);
        }
        Sparse::new(offsets, degrees, targets).map(|sparse| (sparse, cells))
    }

    /// Component `c` in its canonical `order`, as a list that equal
    /// coloured components share: cells by canonical position, then the
    /// sorted edges.
    fn certificate(&self, c: u32, members: &[Vertex], order: &[Vertex]) -> Vec<u32> {
        let mut label = vec![0u32; order.len()];
        for (i, &l) in order.iter().enumerate() {
            label[l as usize] = i as u32;
        }
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for (l, &v) in members.iter().enumerate() {
            for &w in self.graph.neighbors(v) {
                if self.component[w as usize] == c {
                    let (a, b) = (label[l], label[self.local[w as usize] as usize]);
                    if a < b {
                        edges.push((a, b));
                    }
                }
            }
        }
        edges.sort_unstable();
        let mut certificate = Vec::with_capacity(2 + order.len() + 2 * edges.len());
        certificate.push(order.len() as u32);
        certificate.extend(
            order
                .iter()
                .map(|&l| self.cell_of[members[l as usize] as usize]),
        );
        certificate.push(edges.len() as u32);
        certificate.extend(edges.iter().flat_map(|&(a, b)| [a, b]));
        certificate
    }
}
