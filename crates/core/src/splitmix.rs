//! SplitMix64's finaliser (Steele, Lea and Flood), the one integer mixer
//! the crate uses: refinement hashes colours with it, and request ids are
//! drawn from it. Hand-written because it is three lines and a bijection
//! is exactly what both need: distinct inputs stay distinct.

/// A bijection of `u64` that spreads every input bit over the output.
pub fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The golden-ratio increment SplitMix64 steps its state by.
pub const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;
