//! Sorting a core vertex's higher neighbours (a run) and writing its edges
//! into the hashed form: the form's inner loop on graphs whose core holds
//! most edges.
//!
//! The vector versions (AVX-512F) are reached only through the safe
//! functions here that take an [`Avx512`] token, which exists only where
//! the processor runs them (see `simd`); this module is the one place that
//! calls them in `unsafe`.

use super::simd::Avx512;
use crate::graph::Vertex;

/// Sorts a core vertex's higher neighbours. A run holds about half the
/// vertex's degree, a few labels in random order, and a comparison sort's
/// branches are mispredicted about once per label. Short runs (most of
/// them on sparse graphs) go through a sorting network of branch-free
/// minima and maxima instead.
pub fn sort_run(run: &mut [Vertex]) {
    match run.len() {
        0 | 1 => {}
        2..=4 => sort_by_network::<4>(run, &NETWORK_4),
        5..=8 => sort_by_network::<8>(run, &NETWORK_8),
        _ => run.sort_unstable(),
    }
}

/// Sorts `run` (at most `N` labels), padded to `N` with the largest label,
/// by the comparators `network`, a sorting network on `N` inputs.
#[inline]
fn sort_by_network<const N: usize>(run: &mut [Vertex], network: &[(usize, usize)]) {
    let mut padded = [Vertex::MAX; N];
    padded[..run.len()].copy_from_slice(run);
    for &(i, j) in network {
        let (a, b) = (padded[i], padded[j]);
        padded[i] = a.min(b);
        padded[j] = a.max(b);
    }
    run.copy_from_slice(&padded[..run.len()]);
}

/// Sorting networks on 4 and 8 inputs with the fewest comparators (5 and
/// 19); the tests check them on every sequence of zeros and ones, which
/// proves a comparator network sorts everything.
const NETWORK_4: [(usize, usize); 5] = [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)];
const NETWORK_8: [(usize, usize); 19] = [
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (2, 4),
    (3, 5),
    (1, 4),
    (3, 6),
    (1, 2),
    (3, 4),
    (5, 6),
];

/// Bytes [`write_sorted_pairs`] may write past a run's edges: it writes a
/// run of up to 8 labels as 8 edges of 8 bytes, and a longer one as 16.
pub const WIDE_RUN_BYTES: usize = 128;

/// The longest run [`write_sorted_pairs`] takes.
pub const WIDE_RUN_MAX: usize = 16;

/// Writes the edges `(c, d)` for the labels `d` of `run` in ascending
/// order, as the form's little-endian words, to the start of `out`, and
/// may write anything to the rest of its first [`WIDE_RUN_BYTES`] bytes;
/// sorted and written in vector registers.
///
/// # Panics
/// If `run` is longer than [`WIDE_RUN_MAX`] or `out` shorter than
/// [`WIDE_RUN_BYTES`].
#[inline]
pub fn write_sorted_pairs(_avx512: Avx512, c: Vertex, run: &[Vertex], out: &mut [u8]) {
    // SAFETY: the only requirement beyond what the function checks of its
    // arguments is AVX-512F, and an `Avx512` exists only where
    // `Avx512::detect` found it.
    unsafe { wide::write_sorted_pairs(c, run, out) }
}

/// The core's edges in canonical labels, collected a neighbour list at a
/// time in vector registers: the higher ends of core label `c`'s edges
/// are `higher[from..from + len]` for `(from, len) = runs[c]`, unsorted,
/// where `higher` is what it returns. `runs` has `core + 1` entries (the
/// last is scratch); `to_canonical` maps each of `graph`'s vertices to
/// its canonical label.
///
/// # Panics
/// If the lengths are not as said, the graph has no vertex, or it has
/// more than `i32::MAX` (the gather's indices are signed).
pub fn collect_core_runs(
    _avx512: Avx512,
    graph: &crate::graph::Graph,
    to_canonical: &[Vertex],
    core: Vertex,
    runs: &mut [(u32, u32)],
) -> Vec<Vertex> {
    // SAFETY: as for `write_sorted_pairs`: AVX-512F, which the token
    // proves, is all the function needs beyond the arguments it checks.
    unsafe { wide::collect_core_runs(graph, to_canonical, core, runs) }
}

/// Off x86-64 there are no vector versions, and no token to reach these.
#[cfg(not(target_arch = "x86_64"))]
mod wide {
    use super::Vertex;
    use crate::graph::Graph;

    /// # Safety
    /// Never callable: no `Avx512` token is made off x86-64.
    pub(super) unsafe fn write_sorted_pairs(_: Vertex, _: &[Vertex], _: &mut [u8]) {
        unreachable!("no Avx512 token is made off x86-64")
    }

    /// # Safety
    /// As for [`write_sorted_pairs`].
    pub(super) unsafe fn collect_core_runs(
        _: &Graph,
        _: &[Vertex],
        _: Vertex,
        _: &mut [(u32, u32)],
    ) -> Vec<Vertex> {
        unreachable!("no Avx512 token is made off x86-64")
    }
}

/// One run sorted and written in vector registers, with no branch on its
/// length or its labels: on gnm graphs of average degree 10 a run holds
/// about 5 labels, and sorting them by network and writing them one edge at
/// a time ended each in two loops whose exits were mispredicted.
#[cfg(target_arch = "x86_64")]
mod wide {
    use std::arch::x86_64::{
        __m512i, _mm512_loadu_si512, _mm512_mask_blend_epi32, _mm512_mask_loadu_epi32,
        _mm512_max_epu32, _mm512_min_epu32, _mm512_permutex2var_epi32, _mm512_permutexvar_epi32,
        _mm512_set1_epi32, _mm512_storeu_si512,
    };

    use std::arch::x86_64::{
        _mm512_cmpgt_epu32_mask, _mm512_cmplt_epu32_mask, _mm512_mask_i32gather_epi32,
        _mm512_maskz_compress_epi32, _mm512_maskz_loadu_epi32, _mm512_min_epu32 as min_epu32,
        _mm512_setzero_si512,
    };

    use super::{Vertex, WIDE_RUN_BYTES, WIDE_RUN_MAX};
    use crate::graph::Graph;

    /// The core's edges in canonical labels, as `Order::core_edges` gives
    /// them, collected in the graph's vertex order a list at a time in
    /// vector registers: the canonical labels of a list of up to 16
    /// neighbours are gathered from `to_canonical`, those above the
    /// vertex's own label and in the core (below `core`) are packed
    /// together, and all 16 lanes are written, the next list's labels
    /// written over the lanes not kept. Vertex by vertex, the scalar loop
    /// over each list ended in a mispredicted exit, and it read the list
    /// twice (once to relabel, once to keep). `runs[c]` is core label
    /// `c`'s run; `runs` has a spare last slot, which takes the empty runs
    /// of the vertices outside the core rather than a branch on it.
    ///
    /// Sound for every argument on a processor with AVX-512F: what the
    /// reads and writes below rely on is asserted first. Reached only
    /// through [`super::collect_core_runs`], which takes the token that
    /// proves AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) fn collect_core_runs(
        graph: &Graph,
        to_canonical: &[Vertex],
        core: Vertex,
        runs: &mut [(u32, u32)],
    ) -> Vec<Vertex> {
        let lists = graph.neighbor_lists();
        let n = graph.vertex_count();
        assert!(to_canonical.len() == n && runs.len() == core as usize + 1 && n > 0);
        // The gather takes signed 32-bit indices: every vertex must be one.
        assert!(
            n <= i32::MAX as usize,
            "{n} vertices: too many to gather by 32-bit signed index"
        );
        // WIDE_LIST more, for the lanes written past the last run.
        let mut higher: Vec<Vertex> = vec![0; lists.len() + WIDE_LIST];
        let core_lanes = _mm512_set1_epi32(core as i32);
        // The largest vertex, to which every gathered index is clamped, so
        // that a gather never reads outside `to_canonical` (nor before it:
        // it is at most `i32::MAX`, asserted above, so no index is
        // negative).
        let last_vertex = _mm512_set1_epi32((n - 1) as i32);
        let mut len = 0;
        let mut end = 0;
        for (v, &c) in to_canonical.iter().enumerate() {
            let start = end;
            end += graph.degree(v as Vertex);
            let from = len;
            if end - start <= WIDE_LIST {
                let present = ((1u32 << (end - start)) - 1) as u16;
                // SAFETY: the masked load reads only the list's own
                // entries; the gather reads `to_canonical` at indices
                // clamped below its length, in the lanes of the list only;
                // the store writes 64 bytes at `len`, and `len` is at most
                // `start` (a list keeps at most its own length), so they
                // fit in `higher`, which has WIDE_LIST entries past the
                // lists' length.
                unsafe {
                    let ends =
                        _mm512_maskz_loadu_epi32(present, lists.as_ptr().add(start).cast::<i32>());
                    let labels = _mm512_mask_i32gather_epi32::<4>(
                        _mm512_setzero_si512(),
                        present,
                        min_epu32(ends, last_vertex),
                        to_canonical.as_ptr().cast::<i32>(),
                    );
                    // Lanes past the list hold label 0, which is above no
                    // vertex's label: they are never kept.
                    let keep = _mm512_cmpgt_epu32_mask(labels, _mm512_set1_epi32(c as i32))
                        & _mm512_cmplt_epu32_mask(labels, core_lanes);
                    _mm512_storeu_si512(
                        higher.as_mut_ptr().add(len).cast::<__m512i>(),
                        _mm512_maskz_compress_epi32(keep, labels),
                    );
                    len += keep.count_ones() as usize;
                }
            } else {
                for &w in &lists[start..end] {
                    let d = to_canonical[w as usize];
                    higher[len] = d;
                    len += usize::from(d > c && d < core);
                }
            }
            runs[(c as usize).min(core as usize)] = (from as u32, (len - from) as u32);
        }
        higher
    }

    /// Lists of at most this many neighbours are collected in registers.
    const WIDE_LIST: usize = 16;

    /// A bitonic sorting network on 16 lanes, stage by stage: each lane's
    /// partner, and the lanes that take the larger of the pair (bit `i`
    /// for lane `i`). After the first 6 stages each half of 8 lanes is
    /// sorted, the first ascending; after all 10 the 16 lanes are.
    const STAGES: [([u32; 16], u16); 10] = bitonic_stages();

    const fn bitonic_stages() -> [([u32; 16], u16); 10] {
        let mut stages = [([0u32; 16], 0u16); 10];
        let mut s = 0;
        let mut k = 2;
        while k <= 16 {
            let mut j = k / 2;
            while j >= 1 {
                let mut i = 0;
                while i < 16 {
                    stages[s].0[i] = (i ^ j) as u32;
                    let ascending = i & k == 0;
                    let lower = i & j == 0;
                    if ascending != lower {
                        stages[s].1 |= 1 << i;
                    }
                    i += 1;
                }
                s += 1;
                j /= 2;
            }
            k *= 2;
        }
        stages
    }

    /// Lane picks for the edges `(c, d)`: lane 16 of the second operand is
    /// `c`, lanes 0–15 of the first are the sorted labels.
    const FIRST_EDGES: [u32; 16] = [16, 0, 16, 1, 16, 2, 16, 3, 16, 4, 16, 5, 16, 6, 16, 7];
    const LAST_EDGES: [u32; 16] = [16, 8, 16, 9, 16, 10, 16, 11, 16, 12, 16, 13, 16, 14, 16, 15];

    /// Writes the edges `(c, d)` for the labels `d` of `run` in ascending
    /// order, as the form's little-endian words, to the start of `out`,
    /// and may write anything to the rest of its first
    /// [`WIDE_RUN_BYTES`] bytes.
    ///
    /// Sound for every argument on a processor with AVX-512F (on one
    /// without, its instructions would fault). Reached only through
    /// [`super::write_sorted_pairs`], which takes the token that proves it.
    ///
    /// # Panics
    /// If `run` is longer than [`WIDE_RUN_MAX`] or `out` shorter than
    /// [`WIDE_RUN_BYTES`].
    #[target_feature(enable = "avx512f")]
    pub(super) fn write_sorted_pairs(c: Vertex, run: &[Vertex], out: &mut [u8]) {
        assert!(run.len() <= WIDE_RUN_MAX && out.len() >= WIDE_RUN_BYTES);
        let present = ((1u32 << run.len()) - 1) as u16;
        // SAFETY: the masked load reads only the run's own labels (a lane
        // outside the mask is not read and cannot fault), and the loads
        // of the tables read 64 bytes each from arrays of 16 `u32`.
        let sorted = unsafe {
            let mut lanes =
                _mm512_mask_loadu_epi32(_mm512_set1_epi32(-1), present, run.as_ptr().cast::<i32>());
            let stages = if run.len() <= 8 { 6 } else { 10 };
            for (partners, larger) in &STAGES[..stages] {
                let partner = _mm512_permutexvar_epi32(
                    _mm512_loadu_si512(partners.as_ptr().cast::<__m512i>()),
                    lanes,
                );
                lanes = _mm512_mask_blend_epi32(
                    *larger,
                    _mm512_min_epu32(lanes, partner),
                    _mm512_max_epu32(lanes, partner),
                );
            }
            lanes
        };
        let c = _mm512_set1_epi32(c as i32);
        // SAFETY: as above for the tables; the stores write 64 bytes each
        // within `out`'s first WIDE_RUN_BYTES, which it has (asserted).
        unsafe {
            let first = _mm512_loadu_si512(FIRST_EDGES.as_ptr().cast::<__m512i>());
            _mm512_storeu_si512(
                out.as_mut_ptr().cast::<__m512i>(),
                _mm512_permutex2var_epi32(sorted, first, c),
            );
            if run.len() > 8 {
                let last = _mm512_loadu_si512(LAST_EDGES.as_ptr().cast::<__m512i>());
                _mm512_storeu_si512(
                    out.as_mut_ptr().add(64).cast::<__m512i>(),
                    _mm512_permutex2var_epi32(sorted, last, c),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// By the zero-one principle, a comparator network that sorts every
    /// sequence of zeros and ones sorts every sequence.
    #[test]
    fn the_sorting_networks_sort_every_sequence_of_zeros_and_ones() {
        for len in 0..=8usize {
            for bits in 0u32..1 << len {
                let mut run: Vec<Vertex> = (0..len).map(|i| (bits >> i) & 1).collect();
                let mut expected = run.clone();
                expected.sort_unstable();
                sort_run(&mut run);
                assert_eq!(run, expected, "{len} labels, bits {bits:b}");
            }
        }
    }

    /// The edges [`write_sorted_pairs`] writes for `run` from `c`, as
    /// `(u, v)` pairs read back from its bytes; `None` without the token.
    fn wide_edges(c: Vertex, run: &[Vertex]) -> Option<Vec<(Vertex, Vertex)>> {
        let avx512 = Avx512::detect()?;
        let mut out = [0xa5u8; WIDE_RUN_BYTES];
        write_sorted_pairs(avx512, c, run, &mut out);
        let word = |i: usize| u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
        Some(
            (0..run.len())
                .map(|i| (word(2 * i), word(2 * i + 1)))
                .collect(),
        )
    }

    /// The bitonic network, both its 6-stage and its 10-stage form, on
    /// every sequence of zeros and ones of every length up to 16.
    #[test]
    fn the_wide_network_sorts_every_sequence_of_zeros_and_ones() {
        if Avx512::detect().is_some() {
            for len in 0..=WIDE_RUN_MAX {
                for bits in 0u32..1 << len {
                    let run: Vec<Vertex> = (0..len).map(|i| (bits >> i) & 1).collect();
                    let mut expected = run.clone();
                    expected.sort_unstable();
                    let expected: Vec<_> = expected.into_iter().map(|d| (7, d)).collect();
                    assert_eq!(
                        wide_edges(7, &run),
                        Some(expected),
                        "{len} labels, bits {bits:b}"
                    );
                }
            }
        } else {
            eprintln!(
                "skipped: no AVX-512F (or PUZZLED_SIMD=off), which the wide run writer needs"
            );
        }
    }

    proptest! {
        #[test]
        fn runs_sort_as_a_comparison_sort_does(mut run in prop::collection::vec(any::<Vertex>(), 0..20)) {
            let mut expected = run.clone();
            expected.sort_unstable();
            sort_run(&mut run);
            prop_assert_eq!(run, expected);
        }

        /// Labels of any size, the largest among them (the padding's own
        /// value), repeated or not.
        #[test]
        fn wide_runs_write_the_edges_in_order(
            c in any::<Vertex>(),
            run in prop::collection::vec(prop_oneof![any::<Vertex>(), Just(Vertex::MAX), 0..4u32], 0..=WIDE_RUN_MAX),
        ) {
            let mut sorted = run.clone();
            sorted.sort_unstable();
            if let Some(edges) = wide_edges(c, &run) {
                prop_assert_eq!(edges, sorted.into_iter().map(|d| (c, d)).collect::<Vec<_>>());
            }
        }
    }
}
