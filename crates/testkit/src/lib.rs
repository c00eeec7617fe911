//! The test kit of puzzled: what the unit tests, the integration tests
//! and the benchmarks share, so that each exists once. A crate of its own,
//! used only as a dev-dependency: no serving code can call it (the
//! compiler sees to that), and it names nothing of puzzled, so the crates
//! it checks can depend on it without a cycle.
//!
//! - [`random`]: deterministic generators and the random graphs drawn from
//!   them (a seed names a graph, on every machine and in every run);
//! - [`families`]: the named graphs (paths, cycles, complete graphs,
//!   hypercubes, Petersen, Paley, grids, disjoint copies, relabellings);
//! - [`oracle`]: exhaustive game-tree search for every game, written from
//!   the rules alone;
//! - [`stats`]: the median of repeated measurements;
//! - [`evidence`]: the checker of the evidence the solvers return, written
//!   apart from them;
//! - [`strategy`]: the checker of the strategy certificates of the
//!   Geography variants solved by search, written apart from the search.
//!
//! It names nothing of puzzled: the checkers in particular must stay
//! independent of the code they check, and graphs come out as plain edge
//! lists that every caller turns into what it needs.

pub mod evidence;
pub mod families;
pub mod oracle;
pub mod random;
pub mod stats;
pub mod strategy;
