//! Cooperative cancellation: a long solve looks at a [`Cancel`] handle at
//! bounded intervals in its long loops and stops with [`Cancelled`] once the
//! handle has fired. No thread is interrupted and nothing is half written:
//! a cancelled solve returns no answer at all.
//!
//! The solvers check the handle once per unit of bounded work (a root of the
//! matching search, a slice of [`CHECK_EVERY`] steps of a traversal), so a
//! fired handle is noticed within a few milliseconds on any input.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Steps of a tight loop between two looks at the handle: small enough that
/// a few thousand steps take well under a millisecond, large enough that the
/// atomic load never shows in a profile.
pub const CHECK_EVERY: usize = 4096;

/// A handle a solve checks to learn that its answer is no longer wanted.
/// Clones share one flag. [`Cancel::never`] is a handle that never fires
/// (the command line, tests).
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    flag: Option<Arc<AtomicBool>>,
}

/// The solve stopped early because its [`Cancel`] handle fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the solve was cancelled")]
pub struct Cancelled;

impl Cancel {
    /// A handle that never fires.
    pub fn never() -> Cancel {
        Cancel { flag: None }
    }

    /// A handle that fires once [`Cancel::fire`] is called on it or on any
    /// of its clones.
    pub fn new() -> Cancel {
        Cancel {
            flag: Some(Arc::new(AtomicBool::new(false))),
        }
    }

    /// Asks every solve holding a clone of this handle to stop.
    pub fn fire(&self) {
        if let Some(flag) = &self.flag {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the handle has fired.
    #[inline]
    pub fn is_fired(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// `Err(Cancelled)` once the handle has fired.
    #[inline]
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.is_fired() {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }

    /// [`Cancel::check`] on every [`CHECK_EVERY`]-th step of a loop counted
    /// by `step`.
    #[inline]
    pub fn check_every(&self, step: usize) -> Result<(), Cancelled> {
        if step.is_multiple_of(CHECK_EVERY) {
            self.check()
        } else {
            Ok(())
        }
    }
}

/// The result of a run with [`Cancel::never`], which cannot be cancelled.
pub fn uncancelled<T>(result: Result<T, Cancelled>) -> T {
    match result {
        Ok(value) => value,
        Err(Cancelled) => unreachable!("a handle that never fires fired"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;
    use crate::solver::matching::MatchingAnalysis;
    use crate::solver::{bipartite_edge, geography, tree_paint};

    /// A path long enough that every solver passes a check before it ends:
    /// a tree for tree painting, bipartite for the edge game.
    fn long_path() -> Graph {
        let n: u32 = 3 * CHECK_EVERY as u32;
        let edges: Vec<u32> = (0..n - 1).flat_map(|v| [v, v + 1]).collect();
        Graph::from_flat_edges(u64::from(n), &edges).unwrap()
    }

    fn fired() -> Cancel {
        let cancel = Cancel::new();
        cancel.fire();
        cancel
    }

    #[test]
    fn every_solver_stops_on_a_fired_handle() {
        let path = long_path();
        let last = path.vertex_count() as u32 - 1;
        let all = geography::GeographyOptions {
            all_starts: true,
            winning_moves: true,
        };
        assert_eq!(
            MatchingAnalysis::with_cancel(&path, &fired()).err(),
            Some(Cancelled)
        );
        assert_eq!(
            geography::solve_with_cancel(&path, 0, all, &fired()).err(),
            Some(Cancelled)
        );
        assert_eq!(
            bipartite_edge::solve_with_cancel(&path, &fired()).err(),
            Some(Cancelled)
        );
        assert_eq!(
            tree_paint::solve_with_cancel(&path, 0, last, &fired()).err(),
            Some(Cancelled)
        );
    }

    #[test]
    fn a_handle_that_has_not_fired_changes_no_answer() {
        let path = long_path();
        let last = path.vertex_count() as u32 - 1;
        let all = geography::GeographyOptions {
            all_starts: true,
            winning_moves: true,
        };
        let live = Cancel::new();
        assert_eq!(
            geography::solve_with_cancel(&path, 1, all, &live),
            Ok(geography::solve(&path, 1, all))
        );
        assert_eq!(
            bipartite_edge::solve_with_cancel(&path, &live),
            Ok(bipartite_edge::solve(&path))
        );
        assert_eq!(
            tree_paint::solve_with_cancel(&path, 0, last, &live),
            Ok(tree_paint::solve(&path, 0, last))
        );
    }

    #[test]
    fn a_fired_handle_is_seen_by_every_clone() {
        let cancel = Cancel::new();
        let clone = cancel.clone();
        assert_eq!(clone.check(), Ok(()));
        cancel.fire();
        assert_eq!(clone.check(), Err(Cancelled));
        assert!(clone.is_fired());
    }

    #[test]
    fn never_never_fires() {
        let cancel = Cancel::never();
        cancel.fire();
        assert_eq!(cancel.check(), Ok(()));
        assert_eq!(cancel.check_every(0), Ok(()));
    }

    #[test]
    fn check_every_looks_only_at_multiples() {
        let cancel = Cancel::new();
        cancel.fire();
        assert_eq!(cancel.check_every(1), Ok(()));
        assert_eq!(cancel.check_every(CHECK_EVERY), Err(Cancelled));
        assert_eq!(cancel.check_every(0), Err(Cancelled));
    }
}
