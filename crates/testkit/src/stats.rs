//! Summaries of repeated measurements. The machines the benchmarks run on
//! are shared and noisy, so their tables report medians.

use std::time::Duration;

/// A value two of which can be averaged: what a median of an even count
/// needs.
pub trait Midpoint: Copy + PartialOrd {
    fn midpoint(a: Self, b: Self) -> Self;
}

impl Midpoint for f64 {
    fn midpoint(a: f64, b: f64) -> f64 {
        (a + b) / 2.0
    }
}

impl Midpoint for Duration {
    fn midpoint(a: Duration, b: Duration) -> Duration {
        (a + b) / 2
    }
}

/// The median of `values`: the middle one once sorted, or the mean of the
/// two middle ones of an even count. Panics on no values, or on values
/// that do not compare (NaN).
pub fn median<T: Midpoint>(values: &[T]) -> T {
    assert!(!values.is_empty(), "the median of no values");
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).expect("values that compare"));
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[middle]
    } else {
        T::midpoint(sorted[middle - 1], sorted[middle])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_middle_or_the_mean_of_the_two_middles() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        let ms = Duration::from_millis;
        assert_eq!(median(&[ms(9), ms(1), ms(5)]), ms(5));
        assert_eq!(median(&[ms(4), ms(2)]), ms(3));
    }
}
