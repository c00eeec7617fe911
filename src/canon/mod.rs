//! The canonical form of a puzzle and its hash: the cache key.
//!
//! Two puzzles with the same canonical hash have the same verdict, so the
//! cache and the `duplicate_of` link are keyed by it. Everything about the
//! canonical form lives behind [`canonicalize`]: a later canonicaliser (graph
//! isomorphism, with a relabelling) replaces this module's body without
//! changing its callers, and its hash carries a different name so old cache
//! entries are never mistaken for new ones.
//!
//! The current canonicaliser, `sorted-edges-v1`, keeps the vertex labels and
//! normalises the edge list: each edge as `(u, v)` with `u < v`, sorted. The
//! hash is therefore invariant to edge order, edge direction and repeated
//! submissions, but not (yet) to relabelling.

use sha2::{Digest, Sha256};

use crate::puzzle::Spec;
use crate::solver::graph::Vertex;

/// The name and version of the canonicaliser, part of every hash it makes.
pub const CANONICALISER: &str = "sorted-edges-v1";

/// A puzzle's canonical hash and what a stored verdict is checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canonical {
    /// `"{CANONICALISER}:{hex sha-256 of the canonical form}"`.
    pub hash: String,
    /// Vertex and edge counts of the canonical graph. SHA-256 makes a
    /// collision practically impossible, so the form itself is not kept:
    /// the counts are a cheap check that a stored verdict is about a graph
    /// of the same shape (they catch a corrupted or hand-edited row).
    pub vertex_count: u64,
    pub edge_count: u64,
    /// How the request's vertex labels map to canonical ones.
    pub labelling: Labelling,
}

/// A bijection between the request's vertex labels and canonical labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Labelling {
    /// Canonical labels are the request's labels.
    Identity,
}

impl Labelling {
    /// The canonical label of the request's vertex `v`.
    pub fn to_canonical(&self, v: Vertex) -> Vertex {
        match self {
            Labelling::Identity => v,
        }
    }

    /// The request's label of canonical vertex `c`.
    pub fn to_original(&self, c: Vertex) -> Vertex {
        match self {
            Labelling::Identity => c,
        }
    }

    /// Whether canonical and request labels coincide (no graph to rebuild).
    pub fn is_identity(&self) -> bool {
        matches!(self, Labelling::Identity)
    }
}

/// The canonical form and hash of `spec`'s game, graph and distinguished
/// vertices (title and author do not count).
///
/// Form layout (little-endian `u32` words after the header):
/// `"{CANONICALISER}\0{game}\0"`, vertex count, number of distinguished
/// vertices, the distinguished vertices in game order, edge count, then the
/// sorted normalised edges.
pub fn canonicalize(spec: &Spec) -> Canonical {
    let graph = spec.graph();
    let distinguished = spec.distinguished();
    // The form is hashed as it is produced, a block of words at a time,
    // rather than built whole: at 2·10^7 edges it would take 160 MB.
    let mut hasher = Sha256::new();
    hasher.update(CANONICALISER.as_bytes());
    hasher.update([0]);
    hasher.update(spec.game().as_str().as_bytes());
    hasher.update([0]);
    let mut block: Vec<u8> = Vec::with_capacity(BLOCK_BYTES + 8);
    let mut word = |w: u32, hasher: &mut Sha256| {
        block.extend_from_slice(&w.to_le_bytes());
        if block.len() >= BLOCK_BYTES {
            hasher.update(&block);
            block.clear();
        }
    };
    word(graph.vertex_count() as u32, &mut hasher);
    word(distinguished.len() as u32, &mut hasher);
    for &v in &distinguished {
        word(v, &mut hasher);
    }
    word(graph.edge_count() as u32, &mut hasher);
    // `Graph::edges` yields every edge once as (u, v), u < v, ascending.
    for (u, v) in graph.edges() {
        word(u, &mut hasher);
        word(v, &mut hasher);
    }
    hasher.update(&block);
    let digest = hasher.finalize();
    let mut hash = String::with_capacity(CANONICALISER.len() + 1 + 64);
    hash.push_str(CANONICALISER);
    hash.push(':');
    for byte in digest {
        hash.push_str(&format!("{byte:02x}"));
    }
    Canonical {
        hash,
        vertex_count: graph.vertex_count() as u64,
        edge_count: graph.edge_count() as u64,
        labelling: Labelling::Identity,
    }
}

/// Bytes of the form hashed at a time.
const BLOCK_BYTES: usize = 64 * 1024;

/// Whether a hash made by the canonicaliser it names keeps the request's
/// vertex labels, so that a verdict stored under it is already in the
/// labels of every puzzle stored with that hash.
pub fn keeps_labels(hash: &str) -> bool {
    hash.strip_prefix(CANONICALISER)
        .is_some_and(|rest| rest.starts_with(':'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Game, Limits, RawSpec};

    fn spec(game: Game, n: u64, edges: &[u32], start: u32) -> Spec {
        Spec::validate(
            RawSpec {
                game,
                vertex_count: n,
                edges: edges.to_vec(),
                start,
                black: None,
                white: None,
                title: "t".into(),
                author: String::new(),
            },
            Limits {
                max_vertices: 1000,
                max_edges: 1000,
            },
        )
        .unwrap()
    }

    #[test]
    fn invariant_to_edge_order_and_direction() {
        let a = canonicalize(&spec(Game::Geography, 4, &[0, 1, 1, 2, 2, 3], 0));
        let b = canonicalize(&spec(Game::Geography, 4, &[3, 2, 1, 0, 2, 1], 0));
        assert_eq!(a, b);
        assert!(a.hash.starts_with("sorted-edges-v1:"));
        assert_eq!(a.hash.len(), "sorted-edges-v1:".len() + 64);
    }

    proptest::proptest! {
        /// Any order and orientation of the same edge set hashes alike.
        #[test]
        fn hash_ignores_edge_order_and_direction(
            n in 2u32..30,
            raw_edges in proptest::collection::vec((0u32..30, 0u32..30), 0..60),
            flips in proptest::collection::vec(proptest::bool::ANY, 60),
            rotation in 0usize..60,
        ) {
            let mut seen = std::collections::BTreeSet::new();
            let pairs: Vec<(u32, u32)> = raw_edges
                .into_iter()
                .map(|(u, v)| (u % n, v % n))
                .filter(|&(u, v)| u != v && seen.insert((u.min(v), u.max(v))))
                .collect();
            let flat: Vec<u32> = pairs.iter().flat_map(|&(u, v)| [u, v]).collect();
            let mut other = pairs.clone();
            if !other.is_empty() {
                let k = rotation % other.len();
                other.rotate_left(k);
                other.reverse();
            }
            let other: Vec<u32> = other
                .iter()
                .zip(&flips)
                .flat_map(|(&(u, v), &flip)| if flip { [v, u] } else { [u, v] })
                .collect();
            let a = canonicalize(&spec(Game::Geography, n.into(), &flat, 0));
            let b = canonicalize(&spec(Game::Geography, n.into(), &other, 0));
            proptest::prop_assert_eq!(a, b);
        }
    }

    /// The streamed hash is the SHA-256 of the documented form, built whole
    /// here, so hashes stored before it was streamed still match.
    #[test]
    fn the_hash_is_sha256_of_the_documented_form() {
        let n = 20_000u32;
        let edges: Vec<u32> = (0..n - 1).flat_map(|v| [v + 1, v]).collect();
        let canonical = canonicalize(&{
            let mut raw = spec(Game::Geography, 2, &[0, 1], 1).raw().clone();
            raw.vertex_count = n.into();
            raw.edges = edges;
            Spec::validate(
                raw,
                Limits {
                    max_vertices: n.into(),
                    max_edges: n.into(),
                },
            )
            .unwrap()
        });
        let mut form = b"sorted-edges-v1\0geography\0".to_vec();
        for w in [n, 1, 1, n - 1] {
            form.extend_from_slice(&w.to_le_bytes());
        }
        for v in 0..n - 1 {
            form.extend_from_slice(&v.to_le_bytes());
            form.extend_from_slice(&(v + 1).to_le_bytes());
        }
        let expected: String = Sha256::digest(&form)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(canonical.hash, format!("sorted-edges-v1:{expected}"));
        assert_eq!(
            (canonical.vertex_count, canonical.edge_count),
            (20_000, 19_999)
        );
        assert!(keeps_labels(&canonical.hash));
        assert!(!keeps_labels("traces-v1:00"));
        assert!(!keeps_labels("sorted-edges-v10:00"));
    }

    #[test]
    fn distinguishes_game_start_and_graph() {
        let base = canonicalize(&spec(Game::Geography, 4, &[0, 1, 1, 2, 2, 3], 0)).hash;
        let other_start = canonicalize(&spec(Game::Geography, 4, &[0, 1, 1, 2, 2, 3], 1)).hash;
        let other_game = canonicalize(&spec(Game::BipartiteEdge, 4, &[0, 1, 1, 2, 2, 3], 0)).hash;
        let other_graph = canonicalize(&spec(Game::Geography, 5, &[0, 1, 1, 2, 2, 3], 0)).hash;
        assert_ne!(base, other_start);
        assert_ne!(base, other_game);
        assert_ne!(base, other_graph);
    }
}
