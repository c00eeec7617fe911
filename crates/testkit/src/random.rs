//! Deterministic pseudo-random numbers and the random graphs drawn from
//! them. Three small generators, each written once: the tests and
//! benchmarks that pin results (hashes, expected values, the instances a
//! table was measured on) were written against one of them, and each keeps
//! its own so that a seed still names the same graph.
//!
//! Graphs come out as flat edge lists, `[u0, v0, u1, v1, …]`, in the order
//! the edges were drawn.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The golden-ratio constant: SplitMix64's increment, and the multiplier
/// that spreads a small seed over the whole state of the xorshift
/// generators.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// A deterministic source of 64-bit words and what is drawn from them.
pub trait Rng {
    /// The next word.
    fn next_u64(&mut self) -> u64;

    /// A number in `0..bound` (by remainder: the bias is irrelevant here).
    fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    /// A number in `[0, 1)` from the word's top 53 bits.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Shuffles `items` (Fisher–Yates, from the back).
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i as u64 + 1) as usize);
        }
    }

    /// A permutation of `0..n`: the identity, shuffled.
    fn permutation(&mut self, n: u32) -> Vec<u32> {
        let mut perm: Vec<u32> = (0..n).collect();
        self.shuffle(&mut perm);
        perm
    }
}

/// Marsaglia's xorshift64 (shifts 13, 7, 17). The state must not be zero:
/// zero stays zero.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// The generator whose state is `state` itself.
    pub fn new(state: u64) -> XorShift {
        XorShift(state)
    }

    /// The generator for `seed` spread over the state (and never zero), so
    /// that consecutive small seeds start far apart.
    pub fn scrambled(seed: u64) -> XorShift {
        XorShift(seed.wrapping_mul(GOLDEN) | 1)
    }
}

impl Rng for XorShift {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// xorshift64* (Vigna): xorshift64 with shifts 12, 25, 27, its output
/// multiplied. The state must not be zero.
#[derive(Debug, Clone)]
pub struct XorShiftStar(u64);

impl XorShiftStar {
    /// The generator whose state is `state` itself.
    pub fn new(state: u64) -> XorShiftStar {
        XorShiftStar(state)
    }

    /// The generator for `seed` spread over the state (and never zero).
    pub fn scrambled(seed: u64) -> XorShiftStar {
        XorShiftStar(seed.wrapping_mul(GOLDEN) | 1)
    }
}

impl Rng for XorShiftStar {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// SplitMix64 (Steele, Lea and Flood): the state steps by the golden
/// ratio and each step is finalised. Any seed will do. (The finaliser is
/// the crate's `splitmix::mix`, restated because the kit names nothing of
/// the crate.)
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }
}

impl Rng for SplitMix {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Distinct undirected edges without loops, in the order they were added.
#[derive(Debug, Clone, Default)]
pub struct EdgeSet {
    seen: HashSet<u64, BuildHasherDefault<PairHasher>>,
    pairs: Vec<(u32, u32)>,
}

impl EdgeSet {
    pub fn new() -> EdgeSet {
        EdgeSet::default()
    }

    /// Adds `{u, v}` unless it is a loop or already in; whether it was
    /// added.
    pub fn add(&mut self, u: u32, v: u32) -> bool {
        let key = (u64::from(u.min(v)) << 32) | u64::from(u.max(v));
        if u == v || !self.seen.insert(key) {
            return false;
        }
        self.pairs.push((u, v));
        true
    }

    /// Adds edges between two vertices below `n` drawn at random (first
    /// end, then second; a loop or a repeat is drawn again) until the set
    /// holds `m`, or every pair of `n` vertices.
    pub fn fill_at_random(&mut self, n: u32, m: usize, rng: &mut impl Rng) {
        let n64 = u64::from(n);
        let m = m.min((n64 * n64.saturating_sub(1) / 2) as usize);
        while self.pairs.len() < m {
            let u = rng.below(n64) as u32;
            let v = rng.below(n64) as u32;
            self.add(u, v);
        }
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The edges as they were added.
    pub fn pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    pub fn into_pairs(self) -> Vec<(u32, u32)> {
        self.pairs
    }

    /// The edges as they were added, flat.
    pub fn into_flat(self) -> Vec<u32> {
        self.pairs.into_iter().flat_map(|(u, v)| [u, v]).collect()
    }
}

/// A multiplicative hash for edge keys, which are not adversarial: the
/// standard hasher made a million-edge graph slow to draw.
#[derive(Default)]
pub struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = (self.0 ^ key).wrapping_mul(GOLDEN).rotate_left(29);
    }
}

/// `G(n, m)`: `m` distinct random edges on `n` vertices (all the pairs
/// there are, if `m` is more), flat, in the order drawn.
pub fn gnm(n: u32, m: usize, rng: &mut impl Rng) -> Vec<u32> {
    let mut edges = EdgeSet::new();
    edges.fill_at_random(n, m, rng);
    edges.into_flat()
}

/// [`gnm`] from [`XorShift::scrambled`]`(seed)`: the random graph of the
/// API tests and the load benchmark.
pub fn random_graph(n: u32, m: usize, seed: u64) -> Vec<u32> {
    gnm(n, m, &mut XorShift::scrambled(seed))
}

/// A random recursive tree on `n` vertices, flat: each vertex `v > 0`
/// hangs from one drawn among those before it, edge `(parent, v)`.
pub fn random_tree(n: u32, rng: &mut impl Rng) -> Vec<u32> {
    (1..n)
        .flat_map(|v| [rng.below(u64::from(v)) as u32, v])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generators' first words, as the tests and benchmarks that pin
    /// results were written against: a change here changes their graphs.
    #[test]
    fn the_generators_give_the_words_they_always_gave() {
        assert_eq!(XorShift::new(1).next_u64(), 0x4082_2041);
        let mut star = XorShiftStar::new(1);
        assert_eq!(star.next_u64(), 0x47e4_ce4b_896c_dd1d);
        let mut split = SplitMix::new(0);
        assert_eq!(split.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(XorShift::scrambled(0).0, 1);
    }

    #[test]
    fn gnm_draws_distinct_edges_without_loops() {
        let edges = gnm(50, 300, &mut XorShift::new(7));
        assert_eq!(edges.len(), 600);
        let mut seen = HashSet::new();
        for e in edges.chunks(2) {
            assert_ne!(e[0], e[1]);
            assert!(e[0] < 50 && e[1] < 50);
            assert!(seen.insert((e[0].min(e[1]), e[0].max(e[1]))));
        }
        // Past every pair there is: the complete graph.
        assert_eq!(gnm(5, 100, &mut XorShift::new(7)).len(), 20);
        assert!(gnm(1, 3, &mut XorShift::new(7)).is_empty());
        assert!(gnm(0, 3, &mut XorShift::new(7)).is_empty());
    }

    #[test]
    fn shuffles_are_permutations() {
        let mut perm = SplitMix::new(3).permutation(100);
        perm.sort_unstable();
        assert_eq!(perm, (0..100).collect::<Vec<u32>>());
        let tree = random_tree(30, &mut XorShiftStar::new(5));
        assert!(tree.chunks(2).all(|e| e[0] < e[1]));
    }
}
