//! Verdicts through two cache levels: a bounded in-memory cache that
//! coalesces concurrent identical solves (moka), then the store's verdicts
//! table, then the solver on a bounded blocking pool.
//!
//! The cache is never a source of truth: entries are keyed by canonical hash
//! plus the options that shape the evidence, a stored entry is used only when
//! its canonical form equals the request's, and every hit is checked against
//! the request's graph before it is returned.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use moka::future::Cache;
use tokio::sync::{Semaphore, TryAcquireError, watch};

use super::error::ApiError;
use super::games::{self, GameError};
use crate::canon::{self, Canonical};
use crate::puzzle::{Evidence, SolveOptions, Spec, Verdict};
use crate::store::Store;

/// A verdict in canonical labels and where it came from.
#[derive(Debug)]
struct Entry {
    verdict: Verdict,
    from_store: bool,
}

/// The result of one solve request, relabelled for the request.
#[derive(Debug)]
pub struct Solved {
    pub verdict: Verdict,
    pub canonical_hash: String,
    pub cached: bool,
}

/// Solves with a cache in front and a bounded pool behind.
#[derive(Clone)]
pub struct Solver {
    cache: Cache<String, Arc<Entry>>,
    store: Store,
    pool: Arc<Pool>,
    /// Solves running now, by cache key.
    in_flight: Arc<Mutex<HashMap<String, InFlightResult>>>,
}

struct Pool {
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
    running: SolvesRunning,
}

/// How many solves hold a worker right now (queued ones not counted). A
/// handle on the live count: clones share it.
#[derive(Clone, Debug, Default)]
pub struct SolvesRunning(Arc<AtomicUsize>);

impl SolvesRunning {
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }

    /// Counts one running solve until the returned guard is dropped.
    fn enter(&self) -> Running {
        self.0.fetch_add(1, Ordering::SeqCst);
        Running(self.0.clone())
    }
}

/// One running solve, counted in [`SolvesRunning`] while it lives.
struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Counts a solve as waiting for a worker until dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn options_key(options: SolveOptions) -> &'static str {
    match (options.all_starts, options.winning_moves) {
        (false, false) => "",
        (true, false) => "all_starts",
        (false, true) => "winning_moves",
        (true, true) => "all_starts,winning_moves",
    }
}

/// Approximate bytes held by a cached entry, for the cache's bound.
fn weight(entry: &Entry) -> u32 {
    let evidence = match &entry.verdict.evidence {
        Evidence::Geography {
            matching,
            barrier,
            start_barrier,
            second_player_starts,
        } => {
            8 * matching.len()
                + 4 * barrier.len()
                + start_barrier.as_ref().map_or(0, |s| 4 * s.len())
                + second_player_starts.as_ref().map_or(0, |s| 4 * s.len())
        }
        Evidence::BipartiteEdge { .. } | Evidence::TreePaint { .. } => 64,
    };
    let moves = entry
        .verdict
        .winning_moves
        .as_ref()
        .map_or(0, |w| 12 * w.moves.len());
    u32::try_from(256 + evidence + moves).unwrap_or(u32::MAX)
}

impl Solver {
    pub fn new(store: Store, workers: usize, max_waiting: usize, cache_bytes: u64) -> Solver {
        Solver {
            cache: Cache::builder()
                .max_capacity(cache_bytes)
                .weigher(|key: &String, entry: &Arc<Entry>| {
                    weight(entry).saturating_add(key.len() as u32)
                })
                .build(),
            store,
            pool: Arc::new(Pool {
                permits: Arc::new(Semaphore::new(workers.max(1))),
                waiting: AtomicUsize::new(0),
                max_waiting,
                running: SolvesRunning::default(),
            }),
            in_flight: Arc::default(),
        }
    }

    /// The live count of solves that hold a worker.
    pub fn solves_running(&self) -> SolvesRunning {
        self.pool.running.clone()
    }

    /// The verdict for `spec`, from the cache when it has one. `deadline`
    /// bounds the whole call; a solve still queued when it passes is dropped.
    pub async fn solve(
        &self,
        spec: Arc<Spec>,
        options: SolveOptions,
        deadline: Option<Instant>,
    ) -> Result<Solved, ApiError> {
        let options = games::effective_options(spec.game(), options);
        let canonical = {
            let spec = spec.clone();
            off_runtime(move || canon::canonicalize(&spec)).await?
        };
        let spec = &spec;
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(ApiError::DeadlineExceeded);
        }
        let key = format!("{}#{}", canonical.hash, options_key(options));
        let work = self.lookup(spec, &canonical, &key, options, deadline);
        let (entry, fresh) = match deadline {
            Some(deadline) => tokio::time::timeout_at(deadline.into(), work)
                .await
                .map_err(|_| ApiError::DeadlineExceeded)??,
            None => work.await?,
        };
        let cached = !fresh || entry.from_store;
        let labelling = &canonical.labelling;
        let verdict = if labelling.is_identity() {
            entry.verdict.clone()
        } else {
            entry.verdict.relabel(|c| labelling.to_original(c))
        };
        Ok(Solved {
            verdict,
            canonical_hash: canonical.hash,
            cached,
        })
    }

    /// The cache entry for `key` and whether this call made it.
    async fn lookup(
        &self,
        spec: &Arc<Spec>,
        canonical: &Canonical,
        key: &str,
        options: SolveOptions,
        deadline: Option<Instant>,
    ) -> Result<(Arc<Entry>, bool), ApiError> {
        for _ in 0..2 {
            let entry = self
                .cache
                .entry_by_ref(key)
                .or_try_insert_with(self.load_or_solve(key, spec, canonical, options, deadline))
                .await
                .map_err(|e| (*e).clone())?;
            let fresh = entry.is_fresh();
            let value = entry.into_value();
            // Canonical graph == the spec's graph while labelling is identity.
            if fresh || !canonical.labelling.is_identity() || fits(&value, spec).await? {
                return Ok((value, fresh));
            }
            tracing::warn!(key, "cached verdict does not fit its graph; solving again");
            self.cache.invalidate(key).await;
        }
        Err(ApiError::internal(
            "the cache keeps returning a verdict that does not fit",
        ))
    }

    /// The miss path: the store's verdict if it is for this very canonical
    /// form, else a fresh solve that is then stored.
    async fn load_or_solve(
        &self,
        key: &str,
        spec: &Arc<Spec>,
        canonical: &Canonical,
        options: SolveOptions,
        deadline: Option<Instant>,
    ) -> Result<Arc<Entry>, ApiError> {
        let options_key = options_key(options);
        if let Some(stored) = self.store.get_verdict(&canonical.hash, options_key).await? {
            if stored.canonical_form == canonical.form
                && (!canonical.labelling.is_identity() || stored.verdict.fits(spec.graph()))
            {
                return Ok(Arc::new(Entry {
                    verdict: stored.verdict,
                    from_store: true,
                }));
            }
            tracing::warn!(hash = %canonical.hash, "stored verdict is for another canonical form; solving again");
        }
        let result = self
            .solve_once(key, spec, canonical, options, deadline)
            .await?;
        Ok(Arc::new(Entry {
            verdict: result,
            from_store: false,
        }))
    }

    /// Solves in a task of its own, shared by every caller that asks for the
    /// same key while it runs. If every caller gives up, a solve that already
    /// started still finishes and lands in the store, and a caller that comes
    /// back joins it instead of starting another.
    async fn solve_once(
        &self,
        key: &str,
        spec: &Arc<Spec>,
        canonical: &Canonical,
        options: SolveOptions,
        deadline: Option<Instant>,
    ) -> Result<Verdict, ApiError> {
        loop {
            let mut result = {
                let mut in_flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
                match in_flight.get(key) {
                    Some(rx) => rx.clone(),
                    None => {
                        let (tx, rx) = watch::channel(None);
                        in_flight.insert(key.to_owned(), rx.clone());
                        self.spawn_solve(key, spec, canonical, options, deadline, tx);
                        rx
                    }
                }
            };
            let outcome = result
                .wait_for(Option::is_some)
                .await
                .map_err(|_| ApiError::internal("the solve task ended without a result"))?
                .clone()
                .expect("waited for a result");
            // A joined solve dropped for its starter's deadline is no answer
            // for a caller whose own deadline has not passed: start again.
            let mine_passed = deadline.is_some_and(|d| Instant::now() >= d);
            if outcome != Err(ApiError::DeadlineExceeded) || mine_passed {
                return outcome;
            }
        }
    }

    fn spawn_solve(
        &self,
        key: &str,
        spec: &Arc<Spec>,
        canonical: &Canonical,
        options: SolveOptions,
        deadline: Option<Instant>,
        tx: watch::Sender<Option<Result<Verdict, ApiError>>>,
    ) {
        let store = self.store.clone();
        let pool = self.pool.clone();
        let game = spec.game();
        let spec = spec.clone();
        let labelling = canonical.labelling.clone();
        let distinguished: Vec<u32> = spec
            .distinguished()
            .into_iter()
            .map(|v| labelling.to_canonical(v))
            .collect();
        let hash = canonical.hash.clone();
        let form = canonical.form.clone();
        let options_key = options_key(options);
        let done = InFlightGuard {
            map: self.in_flight.clone(),
            key: key.to_owned(),
        };
        tokio::spawn(async move {
            let outcome = async {
                let verdict = pool
                    .run(deadline, move || {
                        games::solve(game, spec.graph(), &distinguished, options)
                    })
                    .await?
                    .map_err(|GameError::Rejected(message)| {
                        tracing::error!(%message, "the solver rejected a validated puzzle");
                        ApiError::internal(format!("the solver rejected this puzzle: {message}"))
                    })?;
                if let Err(e) = store.put_verdict(&hash, options_key, &form, &verdict).await {
                    tracing::error!(error = %e, "could not store a verdict; serving it anyway");
                }
                Ok(verdict)
            }
            .await;
            // Leave the in-flight map before answering: later callers find
            // the verdict in the store (or start afresh after an error).
            drop(done);
            let _ = tx.send(Some(outcome));
        });
    }
}

/// Removes a key from the in-flight map when its solve task ends, however
/// it ends.
struct InFlightGuard {
    map: Arc<Mutex<HashMap<String, InFlightResult>>>,
    key: String,
}

type InFlightResult = watch::Receiver<Option<Result<Verdict, ApiError>>>;

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.key);
    }
}

/// Whether a cached verdict fits the request's graph; on the blocking pool
/// when the graph is big enough for the check to take a while.
async fn fits(entry: &Arc<Entry>, spec: &Arc<Spec>) -> Result<bool, ApiError> {
    const INLINE_EDGES: usize = 100_000;
    if spec.graph().edge_count() < INLINE_EDGES {
        return Ok(entry.verdict.fits(spec.graph()));
    }
    let (entry, spec) = (entry.clone(), spec.clone());
    off_runtime(move || entry.verdict.fits(spec.graph())).await
}

/// Runs CPU work that scales with the input (validation, canonical forms)
/// on the blocking pool, off the async workers.
pub async fn off_runtime<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || {
        let _span = span.enter();
        f()
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, "blocking work panicked");
        ApiError::internal("the server failed on this input; see the server log")
    })
}

impl Pool {
    /// Runs `f` on the blocking pool once a worker is free; refuses when too
    /// many solves already wait, and drops the job if `deadline` passes
    /// while it waits.
    async fn run<T: Send + 'static>(
        &self,
        deadline: Option<Instant>,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(TryAcquireError::Closed) => return Err(ApiError::internal("solver pool closed")),
            Err(TryAcquireError::NoPermits) => {
                if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.max_waiting {
                    self.waiting.fetch_sub(1, Ordering::SeqCst);
                    return Err(ApiError::Busy {
                        message: format!(
                            "every solver is busy and {} solves are already waiting; try again later",
                            self.max_waiting
                        ),
                    });
                }
                let _waiting = Waiting(&self.waiting);
                let acquire = self.permits.clone().acquire_owned();
                match deadline {
                    Some(d) => tokio::time::timeout_at(d.into(), acquire)
                        .await
                        .map_err(|_| ApiError::DeadlineExceeded)?,
                    None => acquire.await,
                }
                .map_err(|_| ApiError::internal("solver pool closed"))?
            }
        };
        let running = self.running.enter();
        off_runtime(move || {
            let _permit = permit;
            let _running = running;
            f()
        })
        .await
    }
}
