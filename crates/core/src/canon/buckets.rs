//! The two sorts refinement needs: grouping by small integer keys in two
//! passes (a counting sort), and sorting by 64-bit hashes, by a radix sort
//! of their top bits alone, where one of all 64 bits would read the items
//! many more times; and listing the vertices that pass a test without a
//! branch on it.

use crate::graph::{Vertex, prefetch_at};

/// The vertices below `n` for which `keep` holds, ascending, with one
/// slot to spare past them (capacity `n + 1`). Every vertex is written and
/// kept by a count: the canonicaliser's tests (in the core or not, peeled
/// or not, with children or not) vary at random from vertex to vertex on
/// a sparse graph, and a branch on them was mispredicted at each.
pub fn vertices_where(n: usize, keep: impl Fn(usize) -> bool) -> Vec<Vertex> {
    let mut vertices = vec![0; n + 1];
    let mut len = 0;
    for v in 0..n {
        vertices[len] = v as Vertex;
        len += usize::from(keep(v));
    }
    vertices.truncate(len);
    vertices
}

/// How many items ahead [`group_by_bucket`] asks for the counts and slots
/// it will touch (twice as far for a cursor whose value names a slot).
const AHEAD: usize = 8;

/// `items` grouped by `bucket` (below `buckets`), keeping their order
/// within a bucket, and where each bucket starts: bucket `b` is
/// `grouped[starts[b]..starts[b + 1]]`.
pub fn group_by_bucket<T: Copy>(
    items: &[T],
    buckets: usize,
    bucket: impl Fn(&T) -> usize,
) -> (Vec<T>, Vec<u32>) {
    // With many buckets each count and each placement is a random access:
    // the ones a few items ahead are asked for early, so that the misses
    // overlap (for a placement, its bucket's cursor first, then the slot
    // the cursor names).
    let mut starts = vec![0u32; buckets + 1];
    for (i, item) in items.iter().enumerate() {
        if let Some(ahead) = items.get(i + AHEAD) {
            prefetch_at(&starts, bucket(ahead) + 1);
        }
        starts[bucket(item) + 1] += 1;
    }
    for b in 0..buckets {
        starts[b + 1] += starts[b];
    }
    let mut cursor = starts.clone();
    // Every slot is overwritten: each bucket gets as many items as it
    // counted.
    let mut grouped = items.to_vec();
    for (i, item) in items.iter().enumerate() {
        if let Some(far) = items.get(i + 2 * AHEAD) {
            prefetch_at(&cursor, bucket(far));
        }
        if let Some(near) = items.get(i + AHEAD) {
            prefetch_at(&grouped, cursor[bucket(near)] as usize);
        }
        let slot = &mut cursor[bucket(item)];
        grouped[*slot as usize] = *item;
        *slot += 1;
    }
    (grouped, starts)
}

/// Sorts `items` by their 64-bit hashes (`hash`), ascending: a radix sort
/// of the hashes' top bits, about four keys per item, least significant
/// digit first, then an insertion sort of what the top bits left out of
/// order. Hashes spread evenly, so few items share their top bits, and
/// the items are moved twice, in sequence, rather than each to a random
/// place (a cache miss per item once they outgrow the cache). Crafted input
/// whose hashes share their top bits is caught by a bound on the
/// insertion sort's moves and sorted by comparison instead.
pub fn sort_by_hash<T: Copy>(items: &mut Vec<T>, hash: impl Fn(&T) -> u64) {
    let n = items.len();
    if n <= SMALL_SORT {
        items.sort_unstable_by_key(&hash);
        return;
    }
    let top_bits = (usize::BITS - (n - 1).leading_zeros() + 2).min(64);
    let passes = top_bits.div_ceil(RADIX_BITS);
    // Digits of `RADIX_BITS` each, the last pass's the most significant:
    // digit `p` is bits `64 - top_bits + p * RADIX_BITS` up, at most
    // `RADIX_BITS` of them and none below the top `top_bits`.
    let digit = |key: u64, pass: u32| {
        let shift = 64 - top_bits + pass * RADIX_BITS;
        ((key >> shift) as usize) & (RADIX - 1)
    };
    let mut counts = vec![[0u32; RADIX]; passes as usize];
    for item in items.iter() {
        let key = hash(item);
        for (pass, count) in counts.iter_mut().enumerate() {
            count[digit(key, pass as u32)] += 1;
        }
    }
    let mut other = items.clone();
    for (pass, count) in counts.iter_mut().enumerate() {
        let mut sum = 0;
        for slot in count.iter_mut() {
            (*slot, sum) = (sum, sum + *slot);
        }
        for item in items.iter() {
            let slot = &mut count[digit(hash(item), pass as u32)];
            other[*slot as usize] = *item;
            *slot += 1;
        }
        std::mem::swap(items, &mut other);
    }
    drop(other);
    // Items are now in order of their top bits; each run of equal top bits
    // is sorted here, and holds about a quarter of an item on average.
    let mut moves_left = INSERTION_MOVES_PER_ITEM * n;
    for i in 1..n {
        let item = items[i];
        let key = hash(&item);
        if key >= hash(&items[i - 1]) {
            continue;
        }
        let mut j = i;
        while j > 0 && key < hash(&items[j - 1]) {
            items[j] = items[j - 1];
            j -= 1;
        }
        items[j] = item;
        let moved = i - j;
        if moved > moves_left {
            items.sort_unstable_by_key(&hash);
            return;
        }
        moves_left -= moved;
    }
}

/// Bits of a radix sort digit: 2,048 counts, which stay in cache.
const RADIX_BITS: u32 = 11;
const RADIX: usize = 1 << RADIX_BITS;

/// At most this many items are sorted by comparison alone: the radix
/// sort's counts would cost more.
const SMALL_SORT: usize = 256;

/// Moves per item the insertion sort may make before the rest is left to
/// a comparison sort: on even hashes it makes about one per eight items.
const INSERTION_MOVES_PER_ITEM: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn vertices_where_lists_those_that_pass(keep in prop::collection::vec(any::<bool>(), 0..300)) {
            let expected: Vec<Vertex> = (0..keep.len() as Vertex).filter(|&v| keep[v as usize]).collect();
            let listed = vertices_where(keep.len(), |v| keep[v]);
            prop_assert!(listed.capacity() > keep.len());
            prop_assert_eq!(listed, expected);
        }

        #[test]
        fn grouping_is_a_stable_sort_by_bucket(items in prop::collection::vec((0usize..7, any::<u16>()), 0..200)) {
            let (grouped, starts) = group_by_bucket(&items, 7, |&(b, _)| b);
            let mut expected = items.clone();
            expected.sort_by_key(|&(b, _)| b);
            prop_assert_eq!(&grouped, &expected);
            for b in 0..7 {
                let bucket = &grouped[starts[b] as usize..starts[b + 1] as usize];
                prop_assert!(bucket.iter().all(|&(key, _)| key == b));
            }
        }

        // Up to 3,000 items: sorted by comparison alone, or by a radix sort
        // of one or two digits.
        #[test]
        fn hashes_sort_as_a_comparison_sort_does(
            mut items in prop::collection::vec(any::<u64>(), 0..3000),
            // Crafted input: many hashes sharing their top bits, enough of
            // them to pass the insertion sort's bound.
            shared_top in prop::collection::vec(0u64..100_000, 0..1000),
            // Equal hashes (vertices of one colour).
            repeated in prop::collection::vec(any::<u64>(), 0..50),
            copies in 0usize..40,
        ) {
            items.extend(shared_top.iter().map(|&low| (7 << 60) | low));
            for &h in &repeated {
                items.extend(std::iter::repeat_n(h, copies));
            }
            let mut expected = items.clone();
            expected.sort_unstable();
            sort_by_hash(&mut items, |&h| h);
            prop_assert_eq!(items, expected);
        }
    }

    /// Past 2^20 items the radix sort takes three digits.
    #[test]
    fn a_million_hashes_sort_in_three_digits() {
        let mut state = 1u64;
        let mut items: Vec<(u64, u32)> = (0..(1 << 20) + 1000)
            .map(|i| {
                state = crate::splitmix::mix(state);
                // A few items share their hash, as vertices of one colour.
                (if i % 1000 == 0 { 42 } else { state }, i)
            })
            .collect();
        let mut expected = items.clone();
        expected.sort_unstable_by_key(|&(h, _)| h);
        sort_by_hash(&mut items, |&(h, _)| h);
        let hashes = |items: &[(u64, u32)]| items.iter().map(|&(h, _)| h).collect::<Vec<_>>();
        assert_eq!(hashes(&items), hashes(&expected));
        let mut indices: Vec<u32> = items.iter().map(|&(_, i)| i).collect();
        indices.sort_unstable();
        assert!(indices.iter().enumerate().all(|(k, &i)| k as u32 == i));
    }
}
