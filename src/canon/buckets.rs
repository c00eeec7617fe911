//! Grouping by small integer keys in two passes, the counting sort that
//! refinement and the canonical form need where a comparison sort or a
//! radix sort of 64-bit keys would read the items many more times.

use crate::solver::graph::prefetch_at;

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

/// Sorts `items` by their 64-bit hashes (`hash`), ascending: grouped by
/// the hashes' top bits, about one bucket per item, then each bucket by
/// the whole hash. Hashes spread evenly, so a bucket holds about one item
/// and the items are read about three times (a radix sort of 64-bit keys
/// reads them eight times); a bucket that crafted input fills is still
/// sorted in `k log k`.
pub fn sort_by_hash<T: Copy>(items: &mut Vec<T>, hash: impl Fn(&T) -> u64) {
    let n = items.len();
    if n < 2 {
        return;
    }
    let bits = usize::BITS - (n - 1).leading_zeros();
    let (mut sorted, starts) = group_by_bucket(items, 1 << bits, |item| {
        (hash(item) >> (64 - bits)) as usize
    });
    for bounds in starts.windows(2) {
        let (from, to) = (bounds[0] as usize, bounds[1] as usize);
        if to - from > 1 {
            sorted[from..to].sort_unstable_by_key(&hash);
        }
    }
    *items = sorted;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
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

        #[test]
        fn hashes_sort_as_a_comparison_sort_does(
            mut items in prop::collection::vec(any::<u64>(), 0..300),
            // Crafted input: many hashes sharing their top bits.
            shared_top in prop::collection::vec(0u64..1000, 0..100),
        ) {
            items.extend(shared_top.iter().map(|&low| (7 << 60) | low));
            let mut expected = items.clone();
            expected.sort_unstable();
            sort_by_hash(&mut items, |&h| h);
            prop_assert_eq!(items, expected);
        }
    }
}
