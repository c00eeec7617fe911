//! rand's shuffle and index sampling (`SliceRandom::shuffle`,
//! `seq::index::sample`, rand 0.10), step for step, with a look at the
//! cancel handle every
//! [`CHECK_EVERY`](crate::solver::cancel::CHECK_EVERY) steps: drawing a large graph stops
//! soon after its caller has gone, and gives the very values rand's own
//! functions give (the tests compare them on every path), so that a seed
//! keeps naming the same puzzles.

use std::collections::HashSet;
use std::hash::Hash;

use rand::RngExt;
use rand::distr::uniform::SampleUniform;
use rand::distr::{Distribution, Uniform};
use rand::rngs::ChaCha8Rng;

use crate::solver::cancel::{Cancel, Cancelled};

/// `slice.shuffle(rng)`: Durstenfeld's Fisher–Yates from the front, each
/// position swapped with one drawn among those before it and itself.
pub fn shuffle<T>(slice: &mut [T], rng: &mut ChaCha8Rng, cancel: &Cancel) -> Result<(), Cancelled> {
    let len = slice.len();
    if len <= 1 {
        return Ok(());
    }
    // Positions below u32::MAX are drawn several to a random number.
    if len < u32::MAX as usize {
        let mut chooser = IncreasingUniform::new();
        for i in 0..len {
            cancel.check_every(i)?;
            slice.swap(i, chooser.next_index(rng));
        }
    } else {
        for i in 0..len {
            cancel.check_every(i)?;
            slice.swap(i, rng.random_range(..i + 1));
        }
    }
    Ok(())
}

/// Uniform draws from `0..=n` for `n = 0, 1, 2, …` in turn, as many to
/// one random `u32` as their product fits in it (rand's
/// `IncreasingUniform`, started at 0).
struct IncreasingUniform {
    n: u32,
    /// A uniform number below the product of the bounds still to come from
    /// it.
    chunk: u32,
    chunk_remaining: u8,
}

impl IncreasingUniform {
    fn new() -> IncreasingUniform {
        // The first draw, from 0..=0, needs no random number.
        IncreasingUniform {
            n: 0,
            chunk: 0,
            chunk_remaining: 1,
        }
    }

    /// A uniform draw from `0..=n`, then `n` goes up by one.
    fn next_index(&mut self, rng: &mut ChaCha8Rng) -> usize {
        let next_n = self.n + 1;
        let next_chunk_remaining = match self.chunk_remaining.checked_sub(1) {
            Some(remaining) => remaining,
            None => {
                let (bound, count) = bound_of_draws(next_n);
                self.chunk = rng.random_range(..bound);
                count - 1
            }
        };
        let result = if next_chunk_remaining == 0 {
            self.chunk as usize
        } else {
            let r = self.chunk % next_n;
            self.chunk /= next_n;
            r as usize
        };
        self.chunk_remaining = next_chunk_remaining;
        self.n = next_n;
        result
    }
}

/// The product `m·(m + 1)·…` of as many bounds from `m` on as fit in a
/// `u32`, and how many they are.
fn bound_of_draws(m: u32) -> (u32, u8) {
    let mut product = m;
    let mut current = m + 1;
    while let Some(p) = product.checked_mul(current) {
        product = p;
        current += 1;
    }
    (product, (current - m) as u8)
}

/// The `amount` distinct indices `rand::seq::index::sample` draws from
/// `0..length`, in its order, each made into a `T` by `pick`. The method
/// is rand's choice: Floyd's for few indices, a partial Fisher–Yates of
/// all of `0..length` when they are not many more than `amount`, else
/// rejection against the indices drawn so far.
pub fn sample<T>(
    rng: &mut ChaCha8Rng,
    length: u64,
    amount: u64,
    cancel: &Cancel,
    pick: impl Fn(u64) -> T,
) -> Result<Vec<T>, Cancelled> {
    assert!(amount <= length, "{amount} indices among {length}");
    let (Ok(length), Ok(amount)) = (u32::try_from(length), u32::try_from(amount)) else {
        return rejection(rng, length, amount as usize, cancel, pick);
    };
    let inplace = if amount < 163 {
        const C: [[f32; 2]; 2] = [[1.6, 8.0 / 45.0], [10.0, 70.0 / 9.0]];
        let j = usize::from(length >= 500_000);
        let amount_fp = amount as f32;
        let m4 = C[0][j] * amount_fp;
        if !(amount > 11 && (length as f32) < (C[1][j] + m4) * amount_fp) {
            return Ok(floyd(rng, length, amount).into_iter().map(pick).collect());
        }
        true
    } else {
        const C: [f32; 2] = [270.0, 330.0 / 9.0];
        let j = usize::from(length >= 500_000);
        (length as f32) < C[j] * (amount as f32)
    };
    if inplace {
        let indices = partial_fisher_yates(rng, length, amount, cancel)?;
        let mut picked = Vec::with_capacity(indices.len());
        for (step, &i) in indices.iter().enumerate() {
            cancel.check_every(step)?;
            picked.push(pick(u64::from(i)));
        }
        Ok(picked)
    } else {
        rejection(rng, length, amount as usize, cancel, pick)
    }
}

/// Floyd's: the last `amount` positions each draw among those up to them,
/// a repeat replaced by the position itself.
fn floyd(rng: &mut ChaCha8Rng, length: u32, amount: u32) -> Vec<u64> {
    let mut indices: Vec<u32> = Vec::with_capacity(amount as usize);
    for j in length - amount..length {
        let t = rng.random_range(..=j);
        if let Some(pos) = indices.iter().position(|&x| x == t) {
            indices[pos] = j;
        }
        indices.push(t);
    }
    indices.into_iter().map(u64::from).collect()
}

/// The first `amount` of `0..length` after the first `amount` steps of a
/// Fisher–Yates shuffle.
fn partial_fisher_yates(
    rng: &mut ChaCha8Rng,
    length: u32,
    amount: u32,
    cancel: &Cancel,
) -> Result<Vec<u32>, Cancelled> {
    let mut indices: Vec<u32> = Vec::with_capacity(length as usize);
    for i in 0..length {
        cancel.check_every(i as usize)?;
        indices.push(i);
    }
    for i in 0..amount {
        cancel.check_every(i as usize)?;
        let j: u32 = rng.random_range(i..length);
        indices.swap(i as usize, j as usize);
    }
    indices.truncate(amount as usize);
    Ok(indices)
}

/// Uniform draws from `0..length`, each one drawn already drawn again: the
/// indices are kept in a set, and `pick`ed as they come.
fn rejection<X, T>(
    rng: &mut ChaCha8Rng,
    length: X,
    amount: usize,
    cancel: &Cancel,
    pick: impl Fn(u64) -> T,
) -> Result<Vec<T>, Cancelled>
where
    X: SampleUniform + Copy + Hash + Eq + Into<u64> + From<u8>,
{
    let mut drawn = HashSet::with_capacity(amount);
    let uniform = Uniform::new(X::from(0), length).expect("more indices than are drawn");
    let mut picked = Vec::with_capacity(amount);
    for step in 0..amount {
        cancel.check_every(step)?;
        let mut pos = uniform.sample(rng);
        while !drawn.insert(pos) {
            pos = uniform.sample(rng);
        }
        picked.push(pick(pos.into()));
    }
    Ok(picked)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::{SliceRandom, index};

    use super::*;

    fn rng(seed: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(seed)
    }

    #[test]
    fn shuffles_are_rands() {
        for len in [0, 1, 2, 3, 7, 12, 13, 100, 4097, 100_000] {
            for seed in 0..3 {
                let mut ours: Vec<u32> = (0..len).collect();
                let mut theirs = ours.clone();
                let (mut a, mut b) = (rng(seed), rng(seed));
                shuffle(&mut ours, &mut a, &Cancel::never()).unwrap();
                theirs.shuffle(&mut b);
                assert_eq!(ours, theirs, "{len} elements, seed {seed}");
                // The generator is left where rand leaves it.
                assert_eq!(a.random::<u64>(), b.random::<u64>(), "{len}");
            }
        }
    }

    #[test]
    fn samples_are_rands_on_every_path() {
        let cases: [(u64, u64); 12] = [
            (0, 0),
            (10, 0),
            (10, 10),
            // Floyd's.
            (1000, 11),
            (1_000_000, 100),
            // In place, few and many.
            (200, 50),
            (45, 15),
            (10_000, 5000),
            (1_000_000, 100_000),
            // Rejection, u32 and u64 indices.
            (1_000_000, 200),
            (50_000_000, 20_000),
            (u64::from(u32::MAX) * 3, 5000),
        ];
        for (length, amount) in cases {
            for seed in 0..2 {
                let (mut a, mut b) = (rng(seed), rng(seed));
                let ours = sample(&mut a, length, amount, &Cancel::never(), |i| i).unwrap();
                let theirs: Vec<u64> = index::sample(&mut b, length as usize, amount as usize)
                    .into_iter()
                    .map(|i| i as u64)
                    .collect();
                assert_eq!(ours, theirs, "{amount} among {length}, seed {seed}");
                assert_eq!(a.random::<u64>(), b.random::<u64>(), "{amount} of {length}");
            }
        }
    }

    #[test]
    fn a_fired_handle_stops_them() {
        let fired = Cancel::new();
        fired.fire();
        let mut values: Vec<u32> = (0..10_000).collect();
        assert_eq!(shuffle(&mut values, &mut rng(1), &fired), Err(Cancelled));
        for (length, amount) in [(10_000, 5000), (1_000_000, 200)] {
            let drawn = sample(&mut rng(1), length, amount, &fired, |i| i);
            assert_eq!(drawn, Err(Cancelled), "{amount} among {length}");
        }
    }
}
