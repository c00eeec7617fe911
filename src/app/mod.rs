//! The application core: what the service does with a request once it is
//! a domain value, whatever carried it. No proto type and no
//! `tonic::Status` is seen here; `api` translates both ways.
//!
//! - `catalog`: stored puzzles' use cases (create, read, list, export,
//!   delete, solve, open for position work), each owning its store calls;
//! - `solving`: verdicts through the cache, the store and the solver, in
//!   canonical labels kept and in each caller's labels answered;
//! - `flights`: one computation per key in this process;
//! - `claims`: one computation per verdict across replicas;
//! - `pool`: where CPU work runs (callers served in turn), and the live
//!   gauges;
//! - `games`: the one place that calls the solvers for a verdict;
//! - `positions`: positions and games against the engine (AnalyzePosition
//!   and Play without their transport);
//! - `generate`: puzzles drawn from graph families, solved and rated;
//! - `admission`: the memory budget requests draw from by size;
//! - `access`: writer tokens, and the rate limit on writes;
//! - `work_budget`: what each caller may spend of the solve workers' time;
//! - `deadline`: a caller's deadline around the work it waits for;
//! - `error`: what a request can fail with;
//! - `reason`: every reason an error gives, once.

pub mod access;
pub mod admission;
pub mod catalog;
mod claims;
pub mod deadline;
pub mod error;
mod flights;
pub mod games;
pub mod generate;
pub mod pool;
pub mod positions;
pub mod reason;
pub mod solving;
pub mod work_budget;

pub use error::AppError;
pub use pool::Gauge;
pub use reason::Reason;
pub use solving::{Charge, Solved, Solver, StoredPuzzle};
