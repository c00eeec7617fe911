//! Admission by size: every request whose work grows with its puzzle —
//! validation, hashing, reading a stored puzzle or verdict, the solve —
//! first takes `vertices + edges` units from one budget, and gives them
//! back when its answer is built. Memory then stays bounded however many
//! large requests arrive at once: what they hold together never passes
//! the budget times the bytes a unit costs at its peak
//! ([`PEAK_BYTES_PER_UNIT`]).
//!
//! Requests that do not fit wait in arrival order (a large one is not
//! overtaken forever by small ones), at most `max_waiting` of them, and
//! holding together at most [`WAITING_BYTES_PER_UNIT`] bytes of decoded
//! messages a unit of the budget: a waiting request keeps its message, so
//! what waits is bounded in memory as what runs is. Past that, and for a
//! request larger than the whole budget, the answer is RESOURCE_EXHAUSTED
//! with a reason naming the budget.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

use super::error::AppError;
use super::pool::{Counted, Gauge};
use crate::app::Reason;
use crate::puzzle::Game;
use crate::solver::search_geography::TABLE_BYTES_PER_STATE;

/// The memory one unit (a vertex or an edge) of an admitted request may
/// hold at its peak: the largest peak per unit measured over the request
/// kinds and shapes (docs/performance.md, "Admission: memory per unit"),
/// with room for requests that overlap.
pub const PEAK_BYTES_PER_UNIT: u64 = 200;

/// The units a solve of `game` holds beside its graph: for a game solved
/// by search, its transposition table filled to `budget_states` (the most
/// it may allocate); nothing for the others.
pub fn search_table_units(game: Game, budget_states: u64) -> u64 {
    if game.search_variant().is_none() {
        return 0;
    }
    budget_states.saturating_mul(TABLE_BYTES_PER_STATE) / PEAK_BYTES_PER_UNIT
}

/// The decoded messages requests waiting for the budget may hold together,
/// per unit of the budget: a decoded edge list takes 8 bytes an edge, so
/// the queue holds at most one budget's worth of edge lists.
pub const WAITING_BYTES_PER_UNIT: u64 = 8;

/// Share of the machine's memory the default budget may fill.
const MEMORY_SHARE: f64 = 0.5;

/// What a budget is called in its errors: the flag that sets it, who holds
/// it, and the reasons a request is refused.
#[derive(Debug, Clone, Copy)]
pub struct BudgetNames {
    pub flag: &'static str,
    /// "admission budget", "games budget".
    pub phrase: &'static str,
    /// A request larger than the whole budget.
    pub too_large: Reason,
    /// No room now, and no room to wait.
    pub full: Reason,
}

/// The budget of requests in flight.
pub const REQUESTS: BudgetNames = BudgetNames {
    flag: "--admission-budget",
    phrase: "admission budget",
    too_large: Reason::AdmissionBudgetExceeded,
    full: Reason::AdmissionQueueFull,
};

/// The budget of open Play games, apart from the requests' so that games
/// held open cannot keep requests out.
pub const GAMES: BudgetNames = BudgetNames {
    flag: "--games-budget",
    phrase: "games budget",
    too_large: Reason::GamesBudgetExceeded,
    full: Reason::GamesBudgetFull,
};

/// A size budget: of all requests in flight ([`REQUESTS`]) or of open games
/// ([`GAMES`]).
#[derive(Debug)]
pub struct Admission {
    names: BudgetNames,
    permits: Arc<Semaphore>,
    budget: u32,
    waiting: Gauge,
    max_waiting: usize,
    /// Bytes of decoded messages the waiting requests hold now.
    waiting_bytes: Gauge,
    /// Units held by admitted requests now.
    in_use: Gauge,
}

/// Units held until dropped.
#[derive(Debug)]
pub struct Admitted {
    _permit: OwnedSemaphorePermit,
    _counted: Counted,
}

impl Admission {
    /// A budget of `budget` units (capped at `u32::MAX`, the semaphore's
    /// largest single grant) with at most `max_waiting` requests queued.
    pub fn new(budget: u64, max_waiting: usize) -> Admission {
        Admission::named(REQUESTS, budget, max_waiting)
    }

    /// [`Admission::new`], called `names` in its errors.
    pub fn named(names: BudgetNames, budget: u64, max_waiting: usize) -> Admission {
        let budget = u32::try_from(budget).unwrap_or(u32::MAX).max(1);
        Admission {
            names,
            permits: Arc::new(Semaphore::new(budget as usize)),
            budget,
            waiting: Gauge::default(),
            max_waiting,
            waiting_bytes: Gauge::default(),
            in_use: Gauge::default(),
        }
    }

    pub fn budget(&self) -> u64 {
        u64::from(self.budget)
    }

    /// The live count of units held by admitted requests.
    pub fn in_use(&self) -> Gauge {
        self.in_use.clone()
    }

    /// The live count of requests waiting for units.
    pub fn waiting(&self) -> Gauge {
        self.waiting.clone()
    }

    /// Takes `units` from the budget, waiting for them if need be. `what`
    /// names the request's puzzle in errors (e.g. `"spec"`).
    pub async fn admit(&self, units: u64, what: &str) -> Result<Admitted, AppError> {
        self.admit_holding(units, 0, what).await
    }

    /// [`Admission::admit`] for a request that holds `held_bytes` (its
    /// decoded message) while it waits.
    pub async fn admit_holding(
        &self,
        units: u64,
        held_bytes: u64,
        what: &str,
    ) -> Result<Admitted, AppError> {
        if units > u64::from(self.budget) {
            return Err(AppError::Busy {
                reason: self.names.too_large,
                message: format!(
                    "{what}: {units} vertices + edges is more than this server's {} of {} ({})",
                    self.names.phrase, self.budget, self.names.flag
                ),
            });
        }
        // Zero units still takes the queue's turn but holds nothing.
        let grant = units as u32;
        let asked = std::time::Instant::now();
        let permit = match self.permits.clone().try_acquire_many_owned(grant) {
            Ok(permit) => permit,
            Err(TryAcquireError::Closed) => return Err(AppError::internal("admission closed")),
            Err(TryAcquireError::NoPermits) => {
                let full = |queue: String| AppError::Busy {
                    reason: self.names.full,
                    message: format!(
                        "the {} of {} vertices + edges is in use{queue}; try again later",
                        self.names.phrase, self.budget
                    ),
                };
                let Some(_waiting) = self.waiting.try_enter(self.max_waiting) else {
                    return Err(full(if self.max_waiting == 0 {
                        format!(" ({})", self.names.flag)
                    } else {
                        format!(" and {} requests already wait for it", self.max_waiting)
                    }));
                };
                let room = u64::from(self.budget).saturating_mul(WAITING_BYTES_PER_UNIT);
                let Some(_waiting_bytes) = self.waiting_bytes.try_enter_many(
                    usize::try_from(held_bytes).unwrap_or(usize::MAX),
                    usize::try_from(room).unwrap_or(usize::MAX),
                ) else {
                    return Err(full(format!(
                        " and the requests waiting for it already hold {} of the {room} bytes \
                         of messages they may hold",
                        self.waiting_bytes.get()
                    )));
                };
                self.permits
                    .clone()
                    .acquire_many_owned(grant)
                    .await
                    .map_err(|_| AppError::internal("admission closed"))?
            }
        };
        crate::metrics::metrics()
            .admission_wait_seconds
            .observe(asked.elapsed().as_secs_f64());
        Ok(Admitted {
            _permit: permit,
            _counted: self.in_use.enter_many(units as usize),
        })
    }
}

/// The default budget: [`MEMORY_SHARE`] of the memory this process may use
/// (the cgroup's limit when there is one, else the machine's), divided by
/// [`PEAK_BYTES_PER_UNIT`].
pub fn default_budget() -> u64 {
    let memory = usable_memory_bytes().unwrap_or(4 << 30);
    ((memory as f64 * MEMORY_SHARE) as u64 / PEAK_BYTES_PER_UNIT).max(1)
}

fn usable_memory_bytes() -> Option<u64> {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| mem_total_bytes(&info));
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|limit| limit.trim().parse::<u64>().ok());
    match (total, cgroup) {
        (Some(t), Some(c)) => Some(t.min(c)),
        (t, c) => t.or(c),
    }
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn mem_total_bytes(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_total() {
        let info = "MemTotal:       24683520 kB\nMemFree:        1000 kB\n";
        assert_eq!(mem_total_bytes(info), Some(24_683_520 * 1024));
        assert_eq!(mem_total_bytes("nothing"), None);
    }

    #[test]
    fn the_default_budget_is_a_share_of_memory() {
        let budget = default_budget();
        assert!(budget > 0);
        if let Some(memory) = usable_memory_bytes() {
            assert!(budget * PEAK_BYTES_PER_UNIT <= memory);
        }
    }

    #[tokio::test]
    async fn requests_share_the_budget_and_queue_in_order() {
        let admission = Arc::new(Admission::new(10, 1));
        let first = admission.admit(6, "spec").await.unwrap();
        assert_eq!(admission.in_use().get(), 6);
        // 6 + 6 > 10: the second waits, and a third finds the queue full.
        let waiting = {
            let admission = admission.clone();
            tokio::spawn(async move { admission.admit(6, "spec").await.map(|_| ()) })
        };
        while admission.waiting.get() == 0 {
            tokio::task::yield_now().await;
        }
        let refused = admission.admit(1, "spec").await.unwrap_err();
        assert!(matches!(
            refused,
            AppError::Busy {
                reason: Reason::AdmissionQueueFull,
                ..
            }
        ));
        drop(first);
        waiting.await.unwrap().unwrap();
        assert_eq!(admission.in_use().get(), 0);
        assert_eq!(admission.waiting.get(), 0);
    }

    #[tokio::test]
    async fn the_waiting_requests_hold_at_most_their_share_of_bytes() {
        // Many places in the queue, but the messages waiting are bounded:
        // 8 bytes a unit of a budget of 10.
        let admission = Arc::new(Admission::new(10, 100));
        let _held = admission.admit(10, "spec").await.unwrap();
        let mut waiting = Vec::new();
        for _ in 0..2 {
            let admission = admission.clone();
            waiting.push(tokio::spawn(async move {
                admission.admit_holding(5, 40, "spec").await.map(|_| ())
            }));
        }
        while admission.waiting_bytes.get() < 80 {
            tokio::task::yield_now().await;
        }
        // A request holding nothing still finds a place.
        let empty = {
            let admission = admission.clone();
            tokio::spawn(async move { admission.admit(5, "spec").await.map(|_| ()) })
        };
        while admission.waiting.get() < 3 {
            tokio::task::yield_now().await;
        }
        let refused = admission.admit_holding(1, 1, "spec").await.unwrap_err();
        let AppError::Busy { reason, message } = refused else {
            panic!("{refused:?}")
        };
        assert_eq!(reason, Reason::AdmissionQueueFull);
        assert_eq!(
            message,
            "the admission budget of 10 vertices + edges is in use and the requests \
             waiting for it already hold 80 of the 80 bytes of messages they may hold; \
             try again later"
        );
        empty.abort();
        for task in waiting {
            task.abort();
        }
    }

    #[tokio::test]
    async fn a_request_larger_than_the_budget_is_refused_at_once() {
        let admission = Admission::new(10, 4);
        let refused = admission.admit(11, "spec").await.unwrap_err();
        let AppError::Busy { reason, message } = refused else {
            panic!("{refused:?}")
        };
        assert_eq!(reason, Reason::AdmissionBudgetExceeded);
        assert_eq!(
            message,
            "spec: 11 vertices + edges is more than this server's admission budget of 10 \
             (--admission-budget)"
        );
    }

    #[tokio::test]
    async fn a_request_that_gives_up_leaves_the_queue() {
        let admission = Admission::new(10, 1);
        let _held = admission.admit(10, "spec").await.unwrap();
        let gave_up = tokio::time::timeout(
            std::time::Duration::from_millis(10),
            admission.admit_holding(5, 7, "spec"),
        )
        .await;
        assert!(gave_up.is_err());
        assert_eq!(admission.waiting.get(), 0);
        assert_eq!(admission.waiting_bytes.get(), 0);
    }
}
