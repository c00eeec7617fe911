//! Where CPU work runs: the solve pool (a worker per solve, a bounded
//! queue in front), and [`off_runtime`] for work that scales with the
//! input (validation, canonical forms), both off the async workers; and the
//! [`Gauge`]s that let a test or a metrics probe see what they hold.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{Semaphore, TryAcquireError};

use super::error::AppError;
use crate::app::Reason;

/// The solve workers: at most one solve per worker at once, a bounded
/// queue of solves waiting for one.
pub struct Pool {
    permits: Arc<Semaphore>,
    waiting: Gauge,
    max_waiting: usize,
    /// Solves holding a worker (queued ones not counted).
    running: Gauge,
}

/// A live count the solver keeps (solves holding a worker, callers waiting
/// for a solve), readable from outside: lets a test or a metrics probe see
/// what the server is doing. Clones share the count.
#[derive(Clone, Debug, Default)]
pub struct Gauge(Arc<AtomicUsize>);

impl Gauge {
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }

    /// Counts one more until the returned guard is dropped.
    pub fn enter(&self) -> Counted {
        self.enter_many(1)
    }

    /// Counts one more until the returned guard is dropped, unless the
    /// count has already reached `limit` (a bounded queue's admission).
    pub fn try_enter(&self, limit: usize) -> Option<Counted> {
        self.try_enter_many(1, limit)
    }

    /// Counts `amount` more until the returned guard is dropped, unless the
    /// count would pass `limit`.
    pub fn try_enter_many(&self, amount: usize, limit: usize) -> Option<Counted> {
        self.0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                n.checked_add(amount).filter(|&sum| sum <= limit)
            })
            .ok()?;
        Some(Counted(self.0.clone(), amount))
    }

    /// Counts `amount` more until the returned guard is dropped.
    pub fn enter_many(&self, amount: usize) -> Counted {
        self.0.fetch_add(amount, Ordering::SeqCst);
        Counted(self.0.clone(), amount)
    }

    /// Counts one more for good: a tally of events rather than a live
    /// count.
    pub fn count_one(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// Units of a [`Gauge`], counted while this lives.
#[derive(Debug)]
pub struct Counted(Arc<AtomicUsize>, usize);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(self.1, Ordering::SeqCst);
    }
}

/// Puzzles up to this many vertices + edges are validated and checked on
/// the async worker itself: a few microseconds of work, less
/// than the hand-off to the blocking pool and back costs (which made a
/// cached Solve of a small puzzle cost several times a health check).
pub const INLINE_UNITS: u64 = 4096;

/// [`off_runtime`] for work on a puzzle of `units` vertices + edges, run
/// in place when the puzzle is small (see [`INLINE_UNITS`]).
pub async fn off_runtime_if_large<T: Send + 'static>(
    units: u64,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    if units <= INLINE_UNITS {
        Ok(f())
    } else {
        off_runtime(f).await
    }
}

/// Runs CPU work that scales with the input (validation, canonical forms)
/// on the blocking pool, off the async workers, at most one such job per
/// core at once. The bound matters under a burst of large requests: run
/// all together they would time-slice the machine (a small request then
/// waits behind all of them), and work that has not started yet is simply
/// dropped when its caller leaves, whereas started work runs to its end.
pub async fn off_runtime<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    static SLOTS: std::sync::OnceLock<Arc<Semaphore>> = std::sync::OnceLock::new();
    on_blocking_pool_within(&SLOTS, f).await
}

/// [`off_runtime`] in a lane of its own for work on small puzzles (up to
/// [`INLINE_UNITS`]), so that it never waits behind large work holding the
/// other lane's slots: canonical labelling, which a hard graph can keep
/// busy for its whole budget. Bounded the same way, one job per core.
pub async fn off_runtime_small<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    static SLOTS: std::sync::OnceLock<Arc<Semaphore>> = std::sync::OnceLock::new();
    on_blocking_pool_within(&SLOTS, f).await
}

/// Runs `f` on the blocking pool once one of `slots` (one per core) is
/// free, holding it until `f` has finished.
async fn on_blocking_pool_within<T: Send + 'static>(
    slots: &'static std::sync::OnceLock<Arc<Semaphore>>,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    let slots = slots.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Arc::new(Semaphore::new(cores))
    });
    let slot = slots
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| AppError::internal("the CPU slots are closed"))?;
    // The slot is held by the job itself, until it has really finished.
    on_blocking_pool(move || {
        let _slot = slot;
        f()
    })
    .await
}

/// Runs `f` on tokio's blocking pool, in the caller's tracing span.
async fn on_blocking_pool<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || {
        let _span = span.enter();
        f()
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, "blocking work panicked");
        AppError::internal("the server failed on this input; see the server log")
    })
}

impl Pool {
    /// `workers` solves at once (at least one), `max_waiting` more queued.
    pub fn new(workers: usize, max_waiting: usize) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            waiting: Gauge::default(),
            max_waiting,
            running: Gauge::default(),
        }
    }

    /// The live count of solves that hold a worker.
    pub fn running(&self) -> Gauge {
        self.running.clone()
    }

    /// Runs `f` on the blocking pool once a worker is free; refuses when too
    /// many solves already wait. Dropping the future while it waits leaves
    /// the queue; once `f` runs, only its own cancellation stops it.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(TryAcquireError::Closed) => return Err(AppError::internal("solver pool closed")),
            Err(TryAcquireError::NoPermits) => {
                let Some(_waiting) = self.waiting.try_enter(self.max_waiting) else {
                    return Err(AppError::Busy {
                        reason: Reason::SolveQueueFull,
                        message: format!(
                            "every solver is busy and {} solves are already waiting; try again later",
                            self.max_waiting
                        ),
                    });
                };
                self.permits
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(|_| AppError::internal("solver pool closed"))?
            }
        };
        let running = self.running.enter();
        on_blocking_pool(move || {
            let _permit = permit;
            let _running = running;
            f()
        })
        .await
    }
}
