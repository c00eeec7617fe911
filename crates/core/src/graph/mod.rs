//! A validated, compact, simple undirected graph in CSR form.
//!
//! This is the one place where graph input is checked. A [`Graph`] can only
//! be built through [`Graph::from_flat_edges`] or [`Graph::from_pairs`], so
//! every function that takes a `&Graph` may rely on: vertex ids are in
//! `0..vertex_count`, there are no self-loops and no duplicate edges (in
//! either orientation), and every adjacency list is sorted ascending.
//!
//! Memory: `4·(n + 1) + 8·m` bytes for `n` vertices and `m` edges (each edge
//! is stored once per endpoint as a `u32`).
//!
//! - `digraph`: the arcs of the directed games, validated;
//! - `file`: edge-list and tree files (the contest formats) and reading
//!   them;
//! - `graph6`: nauty's graph6 and sparse6 lines.

pub mod digraph;
pub mod file;
pub mod graph6;

use std::fmt;

/// A vertex id, `0..vertex_count`.
pub type Vertex = u32;

/// The largest vertex count a graph may have: ids must fit in a `u32` and
/// `u32::MAX` is kept free as the "no vertex" sentinel used by the solvers.
pub const MAX_VERTICES: u64 = u32::MAX as u64 - 1;

/// The largest edge count a graph may have: CSR offsets are `u32` and hold
/// `2·m`.
pub const MAX_EDGES: u64 = (u32::MAX / 2) as u64;

/// Why an edge list does not describe a simple undirected graph.
///
/// Edges are numbered by their position in the input: edge `i` is the pair
/// at flat positions `2i` and `2i + 1` of a flattened list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    #[error(
        "the edge list has {len} entries; a flattened list of endpoint pairs needs an even number"
    )]
    OddEdgeList { len: usize },
    #[error("edge {edge} (edges[{entry}]): vertex {vertex} out of range 0..{vertex_count}")]
    VertexOutOfRange {
        edge: usize,
        /// The flat position of the offending endpoint (`2·edge` or `2·edge + 1`).
        entry: usize,
        vertex: u64,
        vertex_count: u64,
    },
    #[error("edge {edge} ({vertex}, {vertex}) is a self-loop")]
    SelfLoop { edge: usize, vertex: Vertex },
    #[error("edge {second} ({u}, {v}) duplicates edge {first}")]
    DuplicateEdge {
        first: usize,
        second: usize,
        u: Vertex,
        v: Vertex,
    },
    #[error("{vertex_count} vertices is more than the limit of {MAX_VERTICES}")]
    TooManyVertices { vertex_count: u64 },
    #[error("{edge_count} edges is more than the limit of {MAX_EDGES}")]
    TooManyEdges { edge_count: u64 },
}

/// A simple undirected graph, validated, with sorted adjacency lists.
#[derive(Clone, PartialEq, Eq)]
pub struct Graph {
    /// `offsets[v]..offsets[v + 1]` indexes `targets` for the neighbours of `v`.
    offsets: Vec<u32>,
    /// Neighbours of every vertex, sorted ascending within each vertex.
    targets: Vec<Vertex>,
}

impl fmt::Debug for Graph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Graph")
            .field("vertex_count", &self.vertex_count())
            .field("edges", &self.edges().collect::<Vec<_>>())
            .finish()
    }
}

impl Graph {
    /// Builds a graph from a flattened list `[u0, v0, u1, v1, …]`.
    pub fn from_flat_edges(vertex_count: u64, flat: &[u32]) -> Result<Graph, GraphError> {
        if !flat.len().is_multiple_of(2) {
            return Err(GraphError::OddEdgeList { len: flat.len() });
        }
        let (pairs, rest) = flat.as_chunks::<2>();
        debug_assert!(rest.is_empty());
        Self::build(vertex_count, pairs.len(), |i| (pairs[i][0], pairs[i][1]))
    }

    /// Builds a graph from a list of endpoint pairs.
    pub fn from_pairs(vertex_count: u64, pairs: &[(Vertex, Vertex)]) -> Result<Graph, GraphError> {
        Self::build(vertex_count, pairs.len(), |i| pairs[i])
    }

    /// Counting-sort construction: two passes over the edges, then one sort of
    /// each (short) adjacency list, which also exposes duplicates as equal
    /// neighbours.
    fn build(
        vertex_count: u64,
        edge_count: usize,
        edge: impl Fn(usize) -> (u32, u32),
    ) -> Result<Graph, GraphError> {
        check_size_limits(vertex_count, edge_count as u64)?;
        let n = vertex_count as usize;
        let mut offsets = vec![0u32; n + 1];
        for i in 0..edge_count {
            let (u, v) = edge(i);
            for (endpoint, x) in [(0, u), (1, v)] {
                if u64::from(x) >= vertex_count {
                    return Err(GraphError::VertexOutOfRange {
                        edge: i,
                        entry: 2 * i + endpoint,
                        vertex: u64::from(x),
                        vertex_count,
                    });
                }
            }
            if u == v {
                return Err(GraphError::SelfLoop { edge: i, vertex: u });
            }
            offsets[u as usize + 1] += 1;
            offsets[v as usize + 1] += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut fill: Vec<u32> = offsets[..n].to_vec();
        let mut targets = vec![0 as Vertex; 2 * edge_count];
        for i in 0..edge_count {
            let (u, v) = edge(i);
            targets[fill[u as usize] as usize] = v;
            fill[u as usize] += 1;
            targets[fill[v as usize] as usize] = u;
            fill[v as usize] += 1;
        }
        drop(fill);
        let mut duplicate = None;
        for v in 0..n {
            let list = &mut targets[offsets[v] as usize..offsets[v + 1] as usize];
            list.sort_unstable();
            if duplicate.is_none()
                && let Some(w) = list.windows(2).find(|w| w[0] == w[1])
            {
                duplicate = Some((v as Vertex, w[0]));
            }
        }
        if let Some((a, b)) = duplicate {
            return Err(Self::duplicate_error(edge_count, &edge, a, b));
        }
        Ok(Graph { offsets, targets })
    }

    /// The slow path, taken only on invalid input: find the first two input
    /// positions of the duplicated edge so the error can name both.
    fn duplicate_error(
        edge_count: usize,
        edge: &impl Fn(usize) -> (u32, u32),
        a: Vertex,
        b: Vertex,
    ) -> GraphError {
        let mut positions = (0..edge_count).filter(|&i| {
            let (u, v) = edge(i);
            (u, v) == (a, b) || (u, v) == (b, a)
        });
        let first = positions
            .next()
            .expect("duplicate edge occurs in the input");
        let second = positions.next().expect("duplicate edge occurs twice");
        let (u, v) = edge(second);
        GraphError::DuplicateEdge {
            first,
            second,
            u,
            v,
        }
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of (undirected) edges.
    pub fn edge_count(&self) -> usize {
        self.targets.len() / 2
    }

    /// Every vertex's neighbours, list after list in vertex order:
    /// `neighbors(v)` is the `degree(v)` entries after those of the
    /// vertices before `v`.
    pub fn neighbor_lists(&self) -> &[Vertex] {
        &self.targets
    }

    /// The neighbours of `v`, sorted ascending.
    #[inline]
    pub fn neighbors(&self, v: Vertex) -> &[Vertex] {
        let v = v as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// Asks the processor to start loading `v`'s adjacency bounds, for a
    /// call to [`Graph::neighbors`] a little later (no effect on results).
    #[inline]
    pub fn prefetch_bounds(&self, v: Vertex) {
        prefetch_at(&self.offsets, v as usize);
    }

    /// Asks the processor to start loading the start of `v`'s adjacency
    /// list (best after [`Graph::prefetch_bounds`]; no effect on results).
    #[inline]
    pub fn prefetch_neighbors(&self, v: Vertex) {
        let start = self.offsets[v as usize] as usize;
        prefetch_at(&self.targets, start);
    }

    /// The degree of `v`.
    #[inline]
    pub fn degree(&self, v: Vertex) -> usize {
        let v = v as usize;
        (self.offsets[v + 1] - self.offsets[v]) as usize
    }

    /// Whether `{u, v}` is an edge (binary search in the shorter list).
    pub fn has_edge(&self, u: Vertex, v: Vertex) -> bool {
        let (a, b) = if self.degree(u) <= self.degree(v) {
            (u, v)
        } else {
            (v, u)
        };
        self.neighbors(a).binary_search(&b).is_ok()
    }

    /// Every edge once, as `(u, v)` with `u < v`, in ascending order.
    pub fn edges(&self) -> impl Iterator<Item = (Vertex, Vertex)> + '_ {
        (0..self.vertex_count() as Vertex).flat_map(move |u| {
            self.neighbors(u)
                .iter()
                .copied()
                .filter(move |&v| u < v)
                .map(move |v| (u, v))
        })
    }

    /// The subgraph left after deleting the vertices marked in `removed`,
    /// keeping the original vertex ids (removed vertices become isolated).
    /// Used for mid-game positions, where visited vertices leave the game.
    pub fn without_vertices(&self, removed: &[bool]) -> Graph {
        let n = self.vertex_count();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(self.targets.len());
        offsets.push(0);
        for v in 0..n as Vertex {
            if !removed[v as usize] {
                targets.extend(
                    self.neighbors(v)
                        .iter()
                        .copied()
                        .filter(|&w| !removed[w as usize]),
                );
            }
            offsets.push(targets.len() as u32);
        }
        Graph { offsets, targets }
    }

    /// Heap bytes held by this graph (for the memory figures in benchmarks).
    pub fn heap_bytes(&self) -> usize {
        self.offsets.capacity() * 4 + self.targets.capacity() * 4
    }
}

/// Checks the sizes a [`Graph`] can index with `u32` ids and offsets, before
/// anything is allocated.
pub fn check_size_limits(vertex_count: u64, edge_count: u64) -> Result<(), GraphError> {
    if vertex_count > MAX_VERTICES {
        return Err(GraphError::TooManyVertices { vertex_count });
    }
    if edge_count > MAX_EDGES {
        return Err(GraphError::TooManyEdges { edge_count });
    }
    Ok(())
}

/// Checks that `vertex` (the value of the input field `field`) names a vertex
/// of a graph with `vertex_count` vertices.
pub fn check_vertex(
    field: &'static str,
    vertex: u64,
    vertex_count: usize,
) -> Result<Vertex, VertexFieldError> {
    if vertex < vertex_count as u64 {
        Ok(vertex as Vertex)
    } else {
        Err(VertexFieldError {
            field,
            vertex,
            vertex_count: vertex_count as u64,
        })
    }
}

/// A distinguished vertex (start, black, white, …) that is not in the graph.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: vertex {vertex} out of range 0..{vertex_count}")]
pub struct VertexFieldError {
    pub field: &'static str,
    pub vertex: u64,
    pub vertex_count: u64,
}

/// A hint to load the cache line of `slice[i]` (a no-op off x86-64). Big
/// graphs with scattered ids make every step of a search a cache miss; the
/// searches name the lines they will need a few steps ahead so that the
/// misses overlap instead of queueing. An index out of range, from a hint
/// that may be stale, is harmless: the address is only computed, never
/// read.
#[inline(always)]
pub fn prefetch_at<T>(slice: &[T], i: usize) {
    let address = slice.as_ptr().wrapping_add(i);
    // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has
    // (it is in the target's baseline features), and takes a pointer it
    // never dereferences: a prefetch is a hint that neither faults nor
    // changes memory, whatever the address, so one outside the slice is
    // harmless.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_sorted_adjacency() {
        let g = Graph::from_flat_edges(4, &[2, 0, 0, 1, 3, 0]).unwrap();
        assert_eq!(g.vertex_count(), 4);
        assert_eq!(g.edge_count(), 3);
        assert_eq!(g.neighbors(0), &[1, 2, 3]);
        assert_eq!(g.neighbors(3), &[0]);
        assert!(g.has_edge(3, 0) && !g.has_edge(1, 2));
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn empty_graphs_are_valid() {
        let g = Graph::from_flat_edges(0, &[]).unwrap();
        assert_eq!((g.vertex_count(), g.edge_count()), (0, 0));
        let g = Graph::from_flat_edges(5, &[]).unwrap();
        assert_eq!(g.degree(4), 0);
    }

    #[test]
    fn odd_edge_list_is_rejected() {
        assert_eq!(
            Graph::from_flat_edges(3, &[0, 1, 2]),
            Err(GraphError::OddEdgeList { len: 3 })
        );
    }

    #[test]
    fn out_of_range_names_the_entry() {
        let err = Graph::from_flat_edges(10, &[0, 1, 1, 2, 3, 4, 5, 12]).unwrap_err();
        assert_eq!(
            err,
            GraphError::VertexOutOfRange {
                edge: 3,
                entry: 7,
                vertex: 12,
                vertex_count: 10
            }
        );
        assert_eq!(
            err.to_string(),
            "edge 3 (edges[7]): vertex 12 out of range 0..10"
        );
    }

    #[test]
    fn self_loop_is_rejected() {
        assert_eq!(
            Graph::from_pairs(3, &[(0, 1), (2, 2)]),
            Err(GraphError::SelfLoop { edge: 1, vertex: 2 })
        );
    }

    #[test]
    fn duplicate_in_either_orientation_is_rejected() {
        let err = Graph::from_pairs(4, &[(0, 1), (1, 2), (2, 1)]).unwrap_err();
        assert_eq!(
            err,
            GraphError::DuplicateEdge {
                first: 1,
                second: 2,
                u: 2,
                v: 1
            }
        );
        assert!(err.to_string().contains("duplicates edge 1"));
    }

    #[test]
    fn too_many_vertices_is_rejected_before_allocating() {
        assert_eq!(
            Graph::from_pairs(4_000_000_000_000, &[]),
            Err(GraphError::TooManyVertices {
                vertex_count: 4_000_000_000_000
            })
        );
    }

    #[test]
    fn size_limits_sit_exactly_at_the_u32_ranges() {
        assert_eq!(check_size_limits(MAX_VERTICES, MAX_EDGES), Ok(()));
        assert_eq!(
            check_size_limits(MAX_VERTICES + 1, 0),
            Err(GraphError::TooManyVertices {
                vertex_count: u64::from(u32::MAX)
            })
        );
        assert_eq!(
            check_size_limits(0, MAX_EDGES + 1),
            Err(GraphError::TooManyEdges {
                edge_count: 1 << 31
            })
        );
        // The limit is checked before the edges are read.
        assert_eq!(
            Graph::from_pairs(MAX_VERTICES + 1, &[(0, 0)]),
            Err(GraphError::TooManyVertices {
                vertex_count: MAX_VERTICES + 1
            })
        );
    }

    #[test]
    fn heap_bytes_counts_offsets_and_targets() {
        let g = Graph::from_pairs(4, &[(0, 1)]).unwrap();
        // 5 offsets and 2 targets of 4 bytes each.
        assert_eq!(g.heap_bytes(), 28);
    }

    #[test]
    fn debug_lists_the_edges() {
        let g = Graph::from_pairs(3, &[(1, 2), (0, 1)]).unwrap();
        assert_eq!(
            format!("{g:?}"),
            "Graph { vertex_count: 3, edges: [(0, 1), (1, 2)] }"
        );
    }

    #[test]
    fn start_field_out_of_range_is_named() {
        let err = check_vertex("start", 7, 3).unwrap_err();
        assert_eq!(err.to_string(), "start: vertex 7 out of range 0..3");
        assert_eq!(check_vertex("start", 2, 3), Ok(2));
    }

    #[test]
    fn without_vertices_keeps_ids() {
        let g = Graph::from_pairs(4, &[(0, 1), (1, 2), (2, 3)]).unwrap();
        let h = g.without_vertices(&[false, true, false, false]);
        assert_eq!(h.vertex_count(), 4);
        assert_eq!(h.edges().collect::<Vec<_>>(), vec![(2, 3)]);
    }
}
