//! The test kit: what the unit tests, the integration tests (`tests/`) and
//! the benchmarks (`benches/`) share, so that each exists once.
//!
//! - [`random`]: deterministic generators and the random graphs drawn from
//!   them (a seed names a graph, on every machine and in every run);
//! - [`families`]: the named graphs (paths, cycles, complete graphs,
//!   hypercubes, Petersen, Paley, grids, disjoint copies, relabellings);
//! - [`stats`]: the median of repeated measurements;
//! - [`evidence`]: the checker of the evidence the solvers return, written
//!   apart from them;
//! - [`strategy`]: the checker of the strategy certificates of the
//!   Geography variants solved by search, written apart from the search.
//!
//! Compiled into the library always, and hidden from its documentation:
//! the integration tests and the benchmarks link the library as any user
//! does, so a `#[cfg(test)]` module would not exist for them, and behind a
//! Cargo feature the kit would have to be named on every `cargo test` and
//! `cargo bench` (`required-features` skips a target silently without it;
//! a dev-dependency of the package on itself turns it on, at the price of
//! a second build of the whole library). The kit is small and uses nothing
//! but the standard library, and a program that never calls it carries
//! none of it.
//!
//! It names nothing of the crate either, like `splitmix`: the checker in
//! particular must stay independent of the code it checks, and graphs come
//! out as plain edge lists that every caller turns into what it needs.

pub mod evidence;
pub mod families;
pub mod random;
pub mod stats;
pub mod strategy;
