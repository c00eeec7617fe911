//! A validated simple digraph: arcs `(u, v)` = `u → v`, kept in input
//! order. The directed games read a puzzle's edge list this way.

use super::{GraphError, Vertex, check_size_limits};

/// A digraph with vertex ids in `0..vertex_count`, no loops and no arc
/// twice (an arc and its reverse are two arcs). Only
/// [`Digraph::from_flat_arcs`] makes one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digraph {
    vertex_count: usize,
    arcs: Vec<(Vertex, Vertex)>,
}

impl Digraph {
    /// The digraph of a flattened arc list `[u0, v0, u1, v1, …]`.
    pub fn from_flat_arcs(vertex_count: u64, flat: &[u32]) -> Result<Digraph, GraphError> {
        if !flat.len().is_multiple_of(2) {
            return Err(GraphError::OddEdgeList { len: flat.len() });
        }
        check_size_limits(vertex_count, flat.len() as u64 / 2)?;
        let mut arcs = Vec::with_capacity(flat.len() / 2);
        for (arc, pair) in flat.chunks_exact(2).enumerate() {
            let (u, v) = (pair[0], pair[1]);
            for (endpoint, x) in [(0, u), (1, v)] {
                if u64::from(x) >= vertex_count {
                    return Err(GraphError::VertexOutOfRange {
                        edge: arc,
                        entry: 2 * arc + endpoint,
                        vertex: u64::from(x),
                        vertex_count,
                    });
                }
            }
            if u == v {
                return Err(GraphError::SelfLoop {
                    edge: arc,
                    vertex: u,
                });
            }
            arcs.push((u, v));
        }
        let mut order: Vec<usize> = (0..arcs.len()).collect();
        order.sort_by_key(|&i| (arcs[i], i));
        if let Some(w) = order.windows(2).find(|w| arcs[w[0]] == arcs[w[1]]) {
            let (u, v) = arcs[w[1]];
            return Err(GraphError::DuplicateEdge {
                first: w[0],
                second: w[1],
                u,
                v,
            });
        }
        Ok(Digraph {
            vertex_count: vertex_count as usize,
            arcs,
        })
    }

    pub fn vertex_count(&self) -> usize {
        self.vertex_count
    }

    /// The arcs, in input order.
    pub fn arcs(&self) -> &[(Vertex, Vertex)] {
        &self.arcs
    }

    /// Each unordered pair joined by an arc in either direction, once, as
    /// `(u, v)` with `u < v`: the underlying simple graph's edges.
    pub fn underlying_edges(&self) -> Vec<(Vertex, Vertex)> {
        let mut pairs: Vec<(Vertex, Vertex)> = self
            .arcs
            .iter()
            .map(|&(u, v)| (u.min(v), u.max(v)))
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arc_and_its_reverse_are_two_arcs() {
        let d = Digraph::from_flat_arcs(2, &[0, 1, 1, 0]).unwrap();
        assert_eq!(d.arcs(), &[(0, 1), (1, 0)]);
        assert_eq!(d.underlying_edges(), vec![(0, 1)]);
    }

    #[test]
    fn bad_arcs_are_named() {
        assert_eq!(
            Digraph::from_flat_arcs(3, &[0, 1, 1, 2, 0, 1]),
            Err(GraphError::DuplicateEdge {
                first: 0,
                second: 2,
                u: 0,
                v: 1
            })
        );
        assert_eq!(
            Digraph::from_flat_arcs(3, &[2, 2]),
            Err(GraphError::SelfLoop { edge: 0, vertex: 2 })
        );
        assert!(matches!(
            Digraph::from_flat_arcs(3, &[0, 3]),
            Err(GraphError::VertexOutOfRange { entry: 1, .. })
        ));
        assert_eq!(
            Digraph::from_flat_arcs(3, &[0]),
            Err(GraphError::OddEdgeList { len: 1 })
        );
    }
}
