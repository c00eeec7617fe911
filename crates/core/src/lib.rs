//! The pure core of puzzled: what decides a game, with nothing of a
//! service in it (no async, no I/O but reading its own switches, no proto,
//! no SQL), so that a contest judge or a notebook can depend on it alone.
//!
//! The layers, each importing only those listed before it (docs/design.md
//! has the map): `graph` checks input and holds it; `solver` decides the
//! games with evidence; `puzzle` is the domain a service speaks (a
//! validated spec, a verdict); `canon` labels a puzzle canonically and
//! hashes it; `rating` holds the Glicko-2 ratings of solvers and puzzles.
//! `splitmix` is a leaf any of them may read.

pub mod graph;
pub mod solver;
pub mod puzzle;
pub mod canon;
pub mod rating;
pub mod splitmix;
