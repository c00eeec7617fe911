//! Named graphs, as flat edge lists `[u0, v0, u1, v1, …]` on the vertices
//! `0..n`: the symmetric families canonical labelling finds hardest, and
//! the plain shapes tests build on.

/// The path `0 – 1 – … – (n − 1)`.
pub fn path(n: u32) -> Vec<u32> {
    (1..n).flat_map(|v| [v - 1, v]).collect()
}

/// The cycle on `n ≥ 3` vertices, `v – (v + 1) mod n`.
pub fn cycle(n: u32) -> Vec<u32> {
    (0..n).flat_map(|v| [v, (v + 1) % n]).collect()
}

/// The complete graph `K_n`.
pub fn complete(n: u32) -> Vec<u32> {
    (0..n)
        .flat_map(|u| (u + 1..n).flat_map(move |v| [u, v]))
        .collect()
}

/// The hypercube `Q_d`: `2^d` vertices, joined when their numbers differ
/// in one bit.
pub fn hypercube(d: u32) -> Vec<u32> {
    (0..1u32 << d)
        .flat_map(|u| (0..d).map(move |b| (u, u ^ (1 << b))))
        .filter(|&(u, v)| u < v)
        .flat_map(|(u, v)| [u, v])
        .collect()
}

/// The Petersen graph: the outer 5-cycle `0..5`, the inner pentagram
/// `5..10`, and the spokes `i – i + 5`.
pub fn petersen() -> Vec<u32> {
    let mut edges = Vec::new();
    for i in 0..5 {
        edges.extend([i, (i + 1) % 5, i, i + 5, i + 5, (i + 2) % 5 + 5]);
    }
    edges
}

/// The Paley graph on a prime `q ≡ 1 (mod 4)`: `u – v` when `v − u` is a
/// non-zero square mod `q`. Strongly regular.
pub fn paley(q: u32) -> Vec<u32> {
    let q64 = u64::from(q);
    let squares: std::collections::HashSet<u64> = (1..q64).map(|x| x * x % q64).collect();
    (0..q)
        .flat_map(|u| (u + 1..q).map(move |v| (u, v)))
        .filter(|&(u, v)| squares.contains(&u64::from(v - u)))
        .flat_map(|(u, v)| [u, v])
        .collect()
}

/// The `side × side` grid, vertex `r · side + c` at row `r`, column `c`.
pub fn grid(side: u32) -> Vec<u32> {
    let id = |r: u32, c: u32| r * side + c;
    let mut edges = Vec::new();
    for r in 0..side {
        for c in 0..side {
            if c + 1 < side {
                edges.extend([id(r, c), id(r, c + 1)]);
            }
            if r + 1 < side {
                edges.extend([id(r, c), id(r + 1, c)]);
            }
        }
    }
    edges
}

/// `copies` disjoint copies of the graph `edges` on `n` vertices, copy `k`
/// on the vertices `k·n .. (k + 1)·n`.
pub fn disjoint_copies(edges: &[u32], n: u32, copies: u32) -> Vec<u32> {
    (0..copies)
        .flat_map(|k| edges.iter().map(move |&v| v + k * n))
        .collect()
}

/// `copies` disjoint copies of the graph `edges` on `n` vertices (as
/// [`disjoint_copies`] lays them out), with one more vertex, the hub, the
/// last, joined to vertex 0 of every copy: connected, and as symmetric as
/// the copies, which makes Traces' search on it slow down faster than the
/// graph grows (docs/performance.md, "Canonical hashing").
pub fn copies_on_a_hub(edges: &[u32], n: u32, copies: u32) -> Vec<u32> {
    let hub = n * copies;
    let mut all = disjoint_copies(edges, n, copies);
    all.extend((0..copies).flat_map(|k| [k * n, hub]));
    all
}

/// `edges` with every vertex `v` renamed `perm[v]`.
pub fn relabelled(edges: &[u32], perm: &[u32]) -> Vec<u32> {
    edges.iter().map(|&v| perm[v as usize]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn degrees(n: u32, edges: &[u32]) -> Vec<u32> {
        let mut degree = vec![0; n as usize];
        for &v in edges {
            degree[v as usize] += 1;
        }
        degree
    }

    #[test]
    fn the_families_have_their_sizes_and_degrees() {
        assert_eq!(path(5), [0, 1, 1, 2, 2, 3, 3, 4]);
        assert!(path(1).is_empty());
        assert_eq!(cycle(3), [0, 1, 1, 2, 2, 0]);
        assert_eq!(complete(6).len() / 2, 15);
        assert!(degrees(1 << 6, &hypercube(6)).iter().all(|&d| d == 6));
        assert!(degrees(10, &petersen()).iter().all(|&d| d == 3));
        assert_eq!(petersen().len() / 2, 15);
        // Paley(q) is (q − 1)/2-regular.
        assert!(degrees(13, &paley(13)).iter().all(|&d| d == 6));
        assert_eq!(grid(4).len() / 2, 2 * 4 * 3);
        let copies = disjoint_copies(&cycle(3), 3, 4);
        assert_eq!(copies.len() / 2, 12);
        assert_eq!(*copies.iter().max().unwrap(), 11);
        let hubbed = copies_on_a_hub(&cycle(3), 3, 4);
        assert_eq!(hubbed.len() / 2, 16);
        assert_eq!(degrees(13, &hubbed)[12], 4);
        assert_eq!(relabelled(&[0, 1, 1, 2], &[2, 0, 1]), [2, 0, 0, 1]);
    }
}
