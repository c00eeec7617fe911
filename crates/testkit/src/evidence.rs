//! An independent checker for the evidence the solvers return.
//!
//! It deliberately uses none of the crate's code, so that a mistake in the
//! solvers is not repeated here: plain adjacency lists, its own component
//! count, and the Tutte–Berge bound. Everything here is linear in the size
//! of the graph.

use std::collections::HashSet;

/// A plain undirected graph for checking: `n` vertices and an edge list.
pub struct PlainGraph {
    pub n: usize,
    adjacency: Vec<Vec<u32>>,
    edge_set: HashSet<(u32, u32)>,
}

impl PlainGraph {
    pub fn new(n: usize, edges: &[(u32, u32)]) -> PlainGraph {
        let mut adjacency = vec![Vec::new(); n];
        let mut edge_set = HashSet::new();
        for &(u, v) in edges {
            adjacency[u as usize].push(v);
            adjacency[v as usize].push(u);
            edge_set.insert((u.min(v), u.max(v)));
        }
        PlainGraph {
            n,
            adjacency,
            edge_set,
        }
    }

    pub fn from_flat(n: usize, flat: &[u32]) -> PlainGraph {
        let pairs: Vec<(u32, u32)> = flat.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        PlainGraph::new(n, &pairs)
    }

    pub fn has_edge(&self, u: u32, v: u32) -> bool {
        self.edge_set.contains(&(u.min(v), u.max(v)))
    }

    pub fn neighbors(&self, v: u32) -> &[u32] {
        &self.adjacency[v as usize]
    }

    /// The number of odd-sized components of the graph without `removed`.
    pub fn odd_components_without(&self, removed: &[bool]) -> usize {
        let mut seen = removed.to_vec();
        let mut odd = 0;
        let mut stack = Vec::new();
        for s in 0..self.n {
            if seen[s] {
                continue;
            }
            seen[s] = true;
            stack.push(s as u32);
            let mut size = 0usize;
            while let Some(v) = stack.pop() {
                size += 1;
                for &w in &self.adjacency[v as usize] {
                    if !seen[w as usize] {
                        seen[w as usize] = true;
                        stack.push(w);
                    }
                }
            }
            odd += size % 2;
        }
        odd
    }

    /// The Tutte–Berge upper bound on the matching number of the graph minus
    /// `deleted` given by the barrier `barrier`:
    /// `(n' + |B| − odd(G' − B)) / 2`.
    pub fn tutte_berge_bound(
        &self,
        deleted: Option<u32>,
        barrier: &[u32],
    ) -> Result<usize, String> {
        let mut removed = vec![false; self.n];
        let mut remaining = self.n;
        if let Some(d) = deleted {
            removed[d as usize] = true;
            remaining -= 1;
        }
        for &b in barrier {
            if b as usize >= self.n {
                return Err(format!("barrier vertex {b} out of range"));
            }
            if removed[b as usize] {
                return Err(format!("barrier vertex {b} repeated or deleted"));
            }
            removed[b as usize] = true;
        }
        let odd = self.odd_components_without(&removed);
        let twice = remaining + barrier.len();
        if odd > twice || !(twice - odd).is_multiple_of(2) {
            return Err(format!(
                "barrier gives a non-integral or negative bound ({twice} - {odd})"
            ));
        }
        Ok((twice - odd) / 2)
    }

    /// Checks that `matching` is a set of disjoint edges of this graph.
    pub fn check_matching(&self, matching: &[(u32, u32)]) -> Result<(), String> {
        let mut covered = vec![false; self.n];
        for &(u, v) in matching {
            if u as usize >= self.n || v as usize >= self.n {
                return Err(format!("matched pair ({u}, {v}) out of range"));
            }
            if !self.has_edge(u, v) {
                return Err(format!("matched pair ({u}, {v}) is not an edge"));
            }
            for x in [u, v] {
                if std::mem::replace(&mut covered[x as usize], true) {
                    return Err(format!("vertex {x} is matched twice"));
                }
            }
        }
        Ok(())
    }
}

/// The winner of a game, as the checker sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    First,
    Second,
}

/// Checks a Geography verdict and its evidence:
/// - `matching` is a matching of the graph, maximum by the barrier `barrier`;
/// - second player wins: `matching` leaves `start` exposed;
/// - first player wins: `start_barrier` bounds `ν(G − start)` by `|M| − 1`, so
///   every maximum matching covers `start`.
pub fn check_geography(
    graph: &PlainGraph,
    start: u32,
    winner: Winner,
    matching: &[(u32, u32)],
    barrier: &[u32],
    start_barrier: Option<&[u32]>,
) -> Result<(), String> {
    graph.check_matching(matching)?;
    let bound = graph.tutte_berge_bound(None, barrier)?;
    if bound != matching.len() {
        return Err(format!(
            "barrier bound {bound} does not match the matching size {}",
            matching.len()
        ));
    }
    let start_covered = matching.iter().any(|&(u, v)| u == start || v == start);
    match winner {
        Winner::Second => {
            if start_covered {
                return Err("second player wins but the witness covers the start".into());
            }
            if start_barrier.is_some() {
                return Err("second player wins but a start barrier is given".into());
            }
        }
        Winner::First => {
            let start_barrier = start_barrier.ok_or("first player wins without a start barrier")?;
            let bound = graph.tutte_berge_bound(Some(start), start_barrier)?;
            if matching.is_empty() || bound != matching.len() - 1 {
                return Err(format!(
                    "start barrier bounds ν(G − start) by {bound}, not |M| − 1 = {}",
                    matching.len() as i64 - 1
                ));
            }
        }
    }
    Ok(())
}
