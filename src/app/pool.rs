//! Where CPU work runs: the solve pool (a worker per job, callers served
//! in turn from bounded queues of their own), and [`off_runtime`] for work
//! that scales with the input (validation, canonical forms), both off the
//! async workers; and the [`Gauge`]s that let a test or a metrics probe
//! see what they hold.
//!
//! The pool's rule, which docs/operations.md states for operators: a free
//! worker goes to the caller whose turn it is, round robin over the callers
//! with a job waiting, each caller's jobs in the order they came. One
//! caller's hundred queued jobs thus wait behind another caller's one, not
//! in front of it; each caller may have at most `max_waiting_per_caller`
//! jobs waiting, and all callers together `max_waiting`. Jobs are kept
//! short (a generated candidate, an engine move within its budget), so a
//! turn comes round often. Each job's time on its worker is charged to its
//! caller's [`WorkBudget`].

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::{Semaphore, oneshot};

use super::access::{Caller, describe};
use super::error::AppError;
use super::work_budget::{Payer, WorkBudget};
use crate::app::Reason;

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

/// A validated puzzle's size in the units work is measured in: its
/// vertices + edges.
pub fn units_of(spec: &crate::puzzle::Spec) -> u64 {
    let graph = spec.graph();
    (graph.vertex_count() + graph.edge_count()) as u64
}

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
/// off the async workers, on threads of its own at the general workers'
/// lower priority, at most one such job per core at once. The bound matters under a burst of large requests: run
/// all together they would time-slice the machine (a small request then
/// waits behind all of them), and work that has not started yet is simply
/// dropped when its caller leaves, whereas started work runs to its end.
pub async fn off_runtime<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    static SLOTS: std::sync::OnceLock<Arc<Semaphore>> = std::sync::OnceLock::new();
    // Large work yields to small, as on the general solve workers: its own
    // threads, niced the same.
    static THREADS: std::sync::OnceLock<std::sync::mpsc::Sender<Job>> = std::sync::OnceLock::new();
    let slot = take_a_slot(&SLOTS).await?;
    let jobs = THREADS.get_or_init(|| own_threads(cores(), GENERAL_WORKERS_NICE));
    on_own_thread(jobs, move || {
        let _slot = slot;
        f()
    })
    .await
}

/// The machine's cores, as the standard library sees them (2 if unknown).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// One of `slots` (one per core), once one is free.
async fn take_a_slot(
    slots: &'static std::sync::OnceLock<Arc<Semaphore>>,
) -> Result<tokio::sync::OwnedSemaphorePermit, AppError> {
    slots
        .get_or_init(|| Arc::new(Semaphore::new(cores())))
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| AppError::internal("the CPU slots are closed"))
}

/// [`off_runtime`] in a lane of its own for work on small puzzles (up to
/// [`INLINE_UNITS`]), so that it never waits behind large work holding the
/// other lane's slots: canonical labelling, which a hard graph can keep
/// busy for its whole budget. Bounded the same way, one job per core.
pub async fn off_runtime_small<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    static SLOTS: std::sync::OnceLock<Arc<Semaphore>> = std::sync::OnceLock::new();
    let slot = take_a_slot(&SLOTS).await?;
    // The slot is held by the job itself, until it has really finished.
    on_blocking_pool(move || {
        let _slot = slot;
        f()
    })
    .await
}

/// Runs `f` on one of a pool's own threads, in the caller's tracing span.
async fn on_own_thread<T: Send + 'static>(
    jobs: &std::sync::mpsc::Sender<Job>,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    let span = tracing::Span::current();
    let (send, result) = oneshot::channel();
    let job: Job = Box::new(move || {
        let _span = span.enter();
        let _ = send.send(f());
    });
    jobs.send(job)
        .map_err(|_| AppError::internal("the solve workers have stopped"))?;
    result.await.map_err(|_| {
        tracing::error!("a solve worker's job panicked");
        AppError::internal("the server failed on this input; see the server log")
    })
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

/// Which workers a job runs on: the express lane's, for jobs on small
/// puzzles of the games solved in linear time (at most [`INLINE_UNITS`]
/// vertices + edges: a millisecond or so), or the general ones for every
/// other job. The express lane has workers of its own, so that a small
/// solve never waits for a large job to finish; a search, however small its
/// board, may run up to its state budget, so it takes the general lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    Express,
    General,
}

impl Lane {
    /// The lane of a job on `spec`.
    pub fn of(spec: &crate::puzzle::Spec) -> Lane {
        if units_of(spec) <= INLINE_UNITS && spec.game().search_variant().is_none() {
            Lane::Express
        } else {
            Lane::General
        }
    }
}

/// The nice value of the general workers' threads: above the async
/// threads' and the express lane's 0, so that on a machine whose cores the
/// large jobs keep busy the kernel still runs a cached answer, a health
/// check or a small solve at once. With no other work about, a niced
/// thread runs as fast as any.
pub const GENERAL_WORKERS_NICE: i32 = 10;

/// How the solve pool is sized and what its callers may spend.
#[derive(Debug, Default)]
pub struct WorkerSettings {
    /// Jobs running at once (at least one).
    pub workers: usize,
    /// Jobs waiting for a worker, all callers together.
    pub max_waiting: usize,
    /// Jobs one caller may have waiting.
    pub max_waiting_per_caller: usize,
    /// Worker time per caller; `None`, no budget.
    pub budget: Option<WorkBudget>,
}

/// The solve workers: at most one job per worker at once, callers served
/// in turn (module docs).
pub struct Pool {
    /// Jobs that run at once.
    workers: usize,
    shared: Arc<Shared>,
    /// Where a job runs once it holds a worker.
    threads: Threads,
    max_waiting: usize,
    max_waiting_per_caller: usize,
    budget: Option<Arc<WorkBudget>>,
    /// Jobs waiting for a worker.
    waiting: Gauge,
    /// Jobs holding a worker (waiting ones not counted).
    running: Gauge,
}

/// The threads a pool's jobs run on.
enum Threads {
    /// tokio's blocking pool, shared with the rest of the server.
    Blocking,
    /// Threads of the pool's own, one per worker, at a lower priority
    /// ([`GENERAL_WORKERS_NICE`]): a thread's priority cannot be raised
    /// again without privileges, so niced threads cannot be lent to
    /// anything else.
    Own(std::sync::mpsc::Sender<Job>),
}

/// A job handed to a pool's own thread.
type Job = Box<dyn FnOnce() + Send>;

/// Starts `count` threads at `nice` that run the jobs sent on the returned
/// sender, one at a time each, until the sender is dropped.
fn own_threads(count: usize, nice: i32) -> std::sync::mpsc::Sender<Job> {
    let (send, receive) = std::sync::mpsc::channel::<Job>();
    let receive = Arc::new(Mutex::new(receive));
    for index in 0..count.max(1) {
        let receive = receive.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("solve-worker-{index}"))
            .spawn(move || {
                lower_this_threads_priority(nice);
                loop {
                    let job = match receive.lock() {
                        Ok(receive) => receive.recv(),
                        Err(_) => return,
                    };
                    match job {
                        // A panic ends the job's result channel, which its
                        // caller reports; the thread goes on.
                        Ok(job) => {
                            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                        }
                        Err(_) => return,
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::error!(%error, "could not start a solve worker thread");
        }
    }
    send
}

/// Gives the calling thread the nice value `nice` (Linux: per thread).
#[cfg(target_os = "linux")]
fn lower_this_threads_priority(nice: i32) {
    // SAFETY: gettid and setpriority take plain integers and touch no
    // memory of ours; setpriority on this thread's id changes this thread
    // alone. A failure (a sandbox refusing it) leaves the priority as it
    // was, which is only slower for others.
    let failed = unsafe {
        let thread = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, thread as libc::id_t, nice) != 0
    };
    if failed {
        tracing::debug!("could not lower a solve worker's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_this_threads_priority(_nice: i32) {}

/// What the pool's workers and waiting jobs share.
struct Shared {
    queues: Mutex<Queues>,
}

/// The waiting jobs by caller. Invariant: `turns` holds each caller with
/// a waiting job exactly once, and no other; `free` is positive only while
/// no job waits.
#[derive(Default)]
struct Queues {
    free: usize,
    turns: VecDeque<Caller>,
    waiting: HashMap<Caller, VecDeque<(u64, oneshot::Sender<Worker>)>>,
    next_ticket: u64,
}

/// A worker held: dropping it hands the worker to the next caller's job
/// (or frees it). Sent to a waiting job through its channel; a job gone
/// before it received it drops it, which hands it on again.
struct Worker {
    shared: Option<Arc<Shared>>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        if let Some(shared) = self.shared.take() {
            Shared::hand_on(shared);
        }
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queues> {
        self.queues
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A worker just came free: to the first job of the caller whose turn
    /// it is, that caller going to the back of the turns if it has more.
    fn hand_on(shared: Arc<Shared>) {
        let next = {
            let mut queues = shared.lock();
            match queues.turns.pop_front() {
                None => {
                    queues.free += 1;
                    return;
                }
                Some(caller) => {
                    let jobs = queues
                        .waiting
                        .get_mut(&caller)
                        .expect("a caller in turn has a queue");
                    let (_, job) = jobs.pop_front().expect("a caller in turn has a job");
                    if jobs.is_empty() {
                        queues.waiting.remove(&caller);
                    } else {
                        queues.turns.push_back(caller);
                    }
                    job
                }
            }
        };
        // Outside the lock: a job that has gone drops the worker it is
        // sent, which comes back here for the next one.
        let _ = next.send(Worker {
            shared: Some(shared),
        });
    }
}

/// A job's place in its caller's queue, given up when it is dropped before
/// a worker came (its caller left, or its deadline passed).
struct Place {
    shared: Arc<Shared>,
    caller: Caller,
    ticket: u64,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut queues = self.shared.lock();
        let Some(jobs) = queues.waiting.get_mut(&self.caller) else {
            return;
        };
        jobs.retain(|(ticket, _)| *ticket != self.ticket);
        if jobs.is_empty() {
            queues.waiting.remove(&self.caller);
            queues.turns.retain(|caller| *caller != self.caller);
        }
    }
}

/// The general workers and the express lane beside them, each job taken
/// by the lane its puzzle belongs to ([`Lane::of`]).
#[derive(Clone)]
pub struct Lanes {
    pub general: Arc<Pool>,
    pub express: Arc<Pool>,
}

impl Lanes {
    pub fn new(settings: WorkerSettings) -> Lanes {
        let general = Pool::new(settings);
        Lanes {
            express: Arc::new(general.express_lane()),
            general: Arc::new(general),
        }
    }

    /// The workers of `lane`.
    pub fn of(&self, lane: Lane) -> &Arc<Pool> {
        match lane {
            Lane::Express => &self.express,
            Lane::General => &self.general,
        }
    }
}

impl Pool {
    /// The general workers, on threads of their own at
    /// [`GENERAL_WORKERS_NICE`].
    pub fn new(settings: WorkerSettings) -> Pool {
        let workers = settings.workers.max(1);
        Pool {
            workers,
            shared: Pool::workers(workers),
            threads: Threads::Own(own_threads(workers, GENERAL_WORKERS_NICE)),
            max_waiting: settings.max_waiting,
            max_waiting_per_caller: settings.max_waiting_per_caller,
            budget: settings.budget.map(Arc::new),
            waiting: Gauge::default(),
            running: Gauge::default(),
        }
    }

    /// The express lane beside this pool ([`Lane`]): as many workers of
    /// its own, the same queue bounds, the same work budget, counted in
    /// the same gauges.
    pub fn express_lane(&self) -> Pool {
        Pool {
            workers: self.workers,
            shared: Pool::workers(self.workers),
            threads: Threads::Blocking,
            max_waiting: self.max_waiting,
            max_waiting_per_caller: self.max_waiting_per_caller,
            budget: self.budget.clone(),
            waiting: self.waiting.clone(),
            running: self.running.clone(),
        }
    }

    fn workers(count: usize) -> Arc<Shared> {
        Arc::new(Shared {
            queues: Mutex::new(Queues {
                free: count.max(1),
                ..Queues::default()
            }),
        })
    }

    /// The live count of jobs that hold a worker.
    pub fn running(&self) -> Gauge {
        self.running.clone()
    }

    /// Passes when `payer`'s call may start work now: its caller's work
    /// budget is not spent, or the call was let in before (see [`Payer`]).
    /// Called before work that memory cannot answer.
    pub fn check_budget(&self, payer: &Payer) -> Result<(), AppError> {
        match &self.budget {
            Some(budget) => payer.let_in(budget),
            None => Ok(()),
        }
    }

    /// Takes `spent` from `caller`'s work budget: for CPU work done
    /// outside the pool (canonical labelling).
    pub fn charge(&self, caller: &Caller, spent: std::time::Duration) {
        if let Some(budget) = &self.budget {
            budget.charge(caller, spent);
        }
    }

    /// Runs `f` for `caller` on the blocking pool once a worker is its
    /// (module docs); refuses when its queue, or the pool's, is full.
    /// Dropping the future while it waits leaves the queue; once `f` runs,
    /// only its own cancellation stops it. The time `f` holds its worker is
    /// charged to `caller`, whether or not it is still there to see the
    /// result. The budget is not checked here but where a call (or a step
    /// of one a client asks for: a move, a candidate) starts its work
    /// ([`Pool::check_budget`]), so that a call let in is not cut off
    /// between its jobs.
    pub async fn run<T: Send + 'static>(
        &self,
        caller: &Caller,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let worker = self.worker_for(caller).await?;
        let running = self.running.enter();
        let budget = self.budget.clone();
        let caller = caller.clone();
        let job = move || {
            let _worker = worker;
            let _running = running;
            let started = Instant::now();
            let result = f();
            if let Some(budget) = budget {
                budget.charge(&caller, started.elapsed());
            }
            result
        };
        match &self.threads {
            Threads::Blocking => on_blocking_pool(job).await,
            Threads::Own(jobs) => on_own_thread(jobs, job).await,
        }
    }

    /// A worker for `caller`'s job: at once when one is free, else when
    /// the turns come to it.
    async fn worker_for(&self, caller: &Caller) -> Result<Worker, AppError> {
        let (place, granted) = {
            let mut queues = self.shared.lock();
            if queues.free > 0 {
                queues.free -= 1;
                return Ok(Worker {
                    shared: Some(self.shared.clone()),
                });
            }
            let own = queues.waiting.get(caller).map_or(0, VecDeque::len);
            if own >= self.max_waiting_per_caller {
                return Err(AppError::Busy {
                    reason: Reason::SolveQueueFull,
                    message: format!(
                        "every solver is busy and {} already has {own} jobs waiting for one \
                         (--solve-queue-per-caller); wait for an answer before asking more",
                        describe(caller)
                    ),
                });
            }
            let Some(waiting) = self.waiting.try_enter(self.max_waiting) else {
                return Err(AppError::Busy {
                    reason: Reason::SolveQueueFull,
                    message: format!(
                        "every solver is busy and {} jobs are already waiting (--solve-queue); \
                         try again later",
                        self.max_waiting
                    ),
                });
            };
            let (send, granted) = oneshot::channel();
            let ticket = queues.next_ticket;
            queues.next_ticket += 1;
            if own == 0 {
                queues.turns.push_back(caller.clone());
            }
            let jobs = queues.waiting.entry(caller.clone()).or_default();
            jobs.push_back((ticket, send));
            let place = Place {
                shared: self.shared.clone(),
                caller: caller.clone(),
                ticket,
            };
            ((place, waiting), granted)
        };
        let worker = granted
            .await
            .map_err(|_| AppError::internal("the solver pool closed"))?;
        drop(place);
        Ok(worker)
    }
}

#[cfg(test)]
mod tests;
