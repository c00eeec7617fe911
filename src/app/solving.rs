//! Verdicts through three levels: a bounded in-memory cache, then the
//! store's verdicts table, then the solver on a bounded blocking pool.
//!
//! Identical concurrent misses share one *flight*: a task that looks in the
//! store and solves, whose outcome every waiter receives. Each waiter's
//! deadline bounds its own wait alone; the flight stops (cooperatively, see
//! `solver::cancel`) when its last waiter has gone, frees its worker within
//! milliseconds, and stores nothing.
//!
//! Verdicts are kept in canonical labels and answered in each caller's: a
//! puzzle is solved in its own labels, its verdict translated into
//! canonical labels before it is cached and stored, and every answer
//! translated back into the labels of the request that asked.
//!
//! The cache is never a source of truth: entries are keyed by canonical hash
//! plus the options that shape the evidence; a hit must match the canonical
//! graph's vertex and edge counts and, from the store, the solver version;
//! a hit is also checked against the caller's graph, in the caller's labels
//! (the witness fits), before it is returned. The one exception: a stored
//! puzzle whose hash keeps its labels (sorted-edges-v1) is served on its
//! stored hash alone, so that its hit never reads its edges.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use moka::future::Cache;
use tokio::sync::{Notify, Semaphore, TryAcquireError, watch};

use super::error::ApiError;
use super::games::{self, GameError};
use super::middleware::within;
use crate::canon::{self, Canonical, Labelling};
use crate::metrics::metrics;
use crate::puzzle::{Evidence, Game, SolveOptions, Spec, Verdict};
use crate::solver::SOLVER_VERSION;
use crate::solver::cancel::Cancel;
use crate::store::{PuzzleRecord, Retained, Store, VerdictKey};

/// A verdict in canonical labels, the shape of the canonical graph it is
/// about, and where it came from.
#[derive(Debug)]
struct Entry {
    verdict: Verdict,
    vertex_count: u64,
    edge_count: u64,
    from_store: bool,
}

impl Entry {
    fn has_shape(&self, vertex_count: u64, edge_count: u64) -> bool {
        (self.vertex_count, self.edge_count) == (vertex_count, edge_count)
    }
}

/// A stored puzzle as `SolvePuzzle` sees it before reading its edges: the
/// hash and shape it was stored with are enough to find its verdict.
#[derive(Debug, Clone)]
pub struct StoredPuzzle {
    pub id: String,
    pub game: Game,
    pub canonical_hash: String,
    pub vertex_count: u64,
    pub edge_count: u64,
}

/// What a flight solves when it finds no verdict in the store.
enum Source {
    /// A validated request and its canonical hash and labelling.
    Inline {
        spec: Arc<Spec>,
        canonical: Canonical,
    },
    /// A stored puzzle, read and validated only when it must be solved.
    Stored { id: String },
}

/// The result of one solve request, in the request's labels.
#[derive(Debug)]
pub struct Solved {
    pub verdict: Verdict,
    pub canonical_hash: String,
    /// The canonicaliser that made `canonical_hash`.
    pub canonicaliser: String,
    pub cached: bool,
}

/// Solves with a cache in front and a bounded pool behind.
#[derive(Clone)]
pub struct Solver {
    cache: Cache<String, Arc<Entry>>,
    store: Store,
    pool: Arc<Pool>,
    /// Solves running or queued now, by cache key.
    flights: Flights,
    callers_waiting: Gauge,
    /// The time canonical labelling may take per puzzle.
    canon_budget: Duration,
}

struct Pool {
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
    pub(super) fn enter(&self) -> Counted {
        self.enter_many(1)
    }

    /// Counts one more until the returned guard is dropped, unless the
    /// count has already reached `limit` (a bounded queue's admission).
    pub(super) fn try_enter(&self, limit: usize) -> Option<Counted> {
        self.0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < limit).then_some(n + 1)
            })
            .ok()?;
        Some(Counted(self.0.clone(), 1))
    }

    /// Counts `amount` more until the returned guard is dropped.
    pub(super) fn enter_many(&self, amount: usize) -> Counted {
        self.0.fetch_add(amount, Ordering::SeqCst);
        Counted(self.0.clone(), amount)
    }
}

/// Units of a [`Gauge`], counted while this lives.
#[derive(Debug)]
pub(super) struct Counted(Arc<AtomicUsize>, usize);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(self.1, Ordering::SeqCst);
    }
}

/// Every combination of extras a verdict may have been computed with.
const ALL_OPTIONS: [SolveOptions; 4] = [
    SolveOptions {
        all_starts: false,
        winning_moves: false,
    },
    SolveOptions {
        all_starts: true,
        winning_moves: false,
    },
    SolveOptions {
        all_starts: false,
        winning_moves: true,
    },
    SolveOptions {
        all_starts: true,
        winning_moves: true,
    },
];

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
    pub fn new(
        store: Store,
        workers: usize,
        max_waiting: usize,
        cache_bytes: u64,
        canon_budget: Duration,
    ) -> Solver {
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
                waiting: Gauge::default(),
                max_waiting,
                running: Gauge::default(),
            }),
            flights: Arc::default(),
            callers_waiting: Gauge::default(),
            canon_budget,
        }
    }

    /// The canonical form of `spec` within the configured budget, always
    /// off the async workers: even a small graph can keep Traces searching
    /// up to the budget (a few hundred disjoint copies of one small graph),
    /// or wait for a Traces thread another search holds.
    pub async fn canonicalize(&self, spec: Arc<Spec>) -> Result<Canonical, ApiError> {
        let budget = self.canon_budget;
        off_runtime(move || canon::canonicalize(&spec, budget)).await
    }

    /// A stored puzzle read whole and validated, with its verdict (from the
    /// cache when it has one) in its own labels: where position work on a
    /// stored puzzle starts. The stored canonical labels spare it Traces.
    pub async fn stored_with_verdict(
        &self,
        id: &str,
        options: SolveOptions,
        deadline: Option<Instant>,
    ) -> Result<(Arc<Spec>, Solved), ApiError> {
        let (spec, canonical) = within(deadline, load_stored_canonical(&self.store, id)).await?;
        let options = games::effective_options(spec.game(), options);
        let solved = self
            .solve_canonical(spec.clone(), canonical, options, deadline)
            .await?;
        Ok((spec, solved))
    }

    /// Runs CPU-bound position work `f` on the solve pool (it shares the
    /// workers and the queue with solves). The handle `f` gets fires when
    /// this future is dropped: the caller left or its deadline passed.
    pub async fn run_position_work<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Cancel) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        /// Fires its handle when dropped.
        struct FireOnDrop(Cancel);
        impl Drop for FireOnDrop {
            fn drop(&mut self) {
                self.0.fire();
            }
        }
        let cancel = Cancel::new();
        let _stop_when_left = FireOnDrop(cancel.clone());
        self.pool.run(move || f(&cancel)).await
    }

    /// The live count of solves that hold a worker.
    pub fn solves_running(&self) -> Gauge {
        self.pool.running.clone()
    }

    /// The live count of callers waiting for a solve (queued or running).
    pub fn callers_waiting(&self) -> Gauge {
        self.callers_waiting.clone()
    }

    /// Stops every solve still running or queued; their callers get
    /// UNAVAILABLE. For shutdown, once the grace period is over.
    pub fn cancel_all(&self) {
        let flights = std::mem::take(&mut *lock(&self.flights));
        for (_, slot) in flights {
            slot.flight.abandon();
        }
    }

    /// The verdict for `spec`, from the cache when it has one. `deadline`
    /// bounds this caller's wait and no one else's: a solve shared with
    /// other callers goes on when this one leaves, and stops when the last
    /// one has left.
    pub async fn solve(
        &self,
        spec: Arc<Spec>,
        options: SolveOptions,
        deadline: Option<Instant>,
    ) -> Result<Solved, ApiError> {
        let options = games::effective_options(spec.game(), options);
        let canonical = self.canonicalize(spec.clone()).await?;
        self.solve_canonical(spec, canonical, options, deadline)
            .await
    }

    /// The verdict for `spec`, whose canonical hash and labelling are
    /// `canonical`, in `spec`'s labels.
    async fn solve_canonical(
        &self,
        spec: Arc<Spec>,
        canonical: Canonical,
        options: SolveOptions,
        deadline: Option<Instant>,
    ) -> Result<Solved, ApiError> {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(ApiError::DeadlineExceeded);
        }
        let key = format!("{}#{}", canonical.hash, options_key(options));
        let work = self.lookup_inline(&spec, &canonical, &key, options);
        let (verdict, cached) = within(deadline, work).await?;
        Ok(Solved {
            verdict,
            canonical_hash: canonical.hash,
            canonicaliser: canonical.canonicaliser.to_owned(),
            cached,
        })
    }

    /// Gives every puzzle stored under an older canonicaliser (before
    /// `traces-v1`, or with `traces-v1` or `traces-v2`) its current isomorphism-invariant
    /// hash and canonical labels, oldest first, carrying the verdicts stored
    /// under its old hash over (translated into the new canonical labels). Runs in
    /// the background after start-up; until a puzzle's turn comes it keeps
    /// working under its old hash. Returns how many puzzles it rehashed.
    pub async fn rehash_stored_puzzles(&self) -> Result<u64, ApiError> {
        let mut rehashed = 0;
        loop {
            let ids = self.store.puzzles_to_rehash(64).await?;
            if ids.is_empty() {
                return Ok(rehashed);
            }
            for id in ids {
                self.rehash_stored_puzzle(&id).await?;
                rehashed += 1;
            }
        }
    }

    async fn rehash_stored_puzzle(&self, id: &str) -> Result<(), ApiError> {
        let record = match self.store.get_puzzle(id).await {
            Ok(record) => record,
            // Deleted since it was listed.
            Err(crate::store::StoreError::NotFound(_)) => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        let old_hash = record.canonical_hash.clone();
        // Without the labels of the old hash no verdict is carried over.
        let old_labelling = stored_labelling(&record);
        let spec = match super::convert::spec_from_record(&record) {
            Ok(spec) => Arc::new(spec),
            Err(_) => {
                // Logged by spec_from_record; keep its hash, stop retrying.
                self.store
                    .set_canonical_hash(id, &old_hash, &old_hash, None)
                    .await?;
                return Ok(());
            }
        };
        let canonical = self.canonicalize(spec.clone()).await?;
        if let Some(old_labelling) = old_labelling.filter(|_| canonical.hash != old_hash) {
            let labelling = &canonical.labelling;
            for options in ALL_OPTIONS {
                let key = |hash| VerdictKey {
                    canonical_hash: hash,
                    options: options_key(options),
                    vertex_count: canonical.vertex_count,
                    edge_count: canonical.edge_count,
                    solver_version: SOLVER_VERSION,
                };
                let Some(verdict) = self.store.get_verdict(key(&old_hash)).await? else {
                    continue;
                };
                if self
                    .store
                    .get_verdict(key(&canonical.hash))
                    .await?
                    .is_some()
                {
                    continue;
                }
                // Into the puzzle's own labels, checked there, then into the
                // new canonical ones.
                let verdict = verdict.relabel(|v| old_labelling.to_original(v));
                if !verdict.fits(spec.graph()) {
                    continue;
                }
                let verdict = verdict.relabel(|v| labelling.to_canonical(v));
                self.store
                    .put_verdict(key(&canonical.hash), &verdict)
                    .await?;
            }
        }
        self.store
            .set_canonical_hash(
                id,
                &old_hash,
                &canonical.hash,
                canonical.labelling.canonical_labels(),
            )
            .await?;
        tracing::debug!(%id, from = %old_hash, to = %canonical.hash, "rehashed a stored puzzle");
        Ok(())
    }

    /// The verdict for a stored puzzle, found by the hash it was stored
    /// with: a hit is served without reading its edges (the hash, the shape
    /// and the solver version must match); the puzzle is read, validated
    /// and hashed only when it must be solved. Its verdict is in its own
    /// labels when the canonicaliser that named its hash keeps labels;
    /// otherwise it goes the inline way.
    pub async fn solve_stored(
        &self,
        stored: StoredPuzzle,
        options: SolveOptions,
        deadline: Option<Instant>,
    ) -> Result<Solved, ApiError> {
        let options = games::effective_options(stored.game, options);
        if !canon::keeps_labels(&stored.canonical_hash) {
            // Its verdict may come from another copy, in other labels: read
            // the puzzle and its canonical labels to answer in its own.
            let (spec, canonical) =
                within(deadline, load_stored_canonical(&self.store, &stored.id)).await?;
            return self
                .solve_canonical(spec, canonical, options, deadline)
                .await;
        }
        let key = format!("{}#{}", stored.canonical_hash, options_key(options));
        let work = async {
            let in_memory = self.cache.get(&key).await;
            metrics().cache_lookup("memory", in_memory.is_some());
            if let Some(entry) = in_memory {
                if entry.has_shape(stored.vertex_count, stored.edge_count) {
                    return Ok((entry, true));
                }
                tracing::warn!(key, "cached verdict has another shape; solving again");
                self.cache.invalidate(&key).await;
            }
            let source = Source::Stored {
                id: stored.id.clone(),
            };
            let shape = (stored.vertex_count, stored.edge_count);
            let (waiter, started) =
                self.join_or_start(&key, &stored.canonical_hash, shape, options, source);
            let entry = waiter.outcome().await?;
            Ok((entry.clone(), !started || entry.from_store))
        };
        let (entry, cached) = within(deadline, work).await?;
        Ok(Solved {
            verdict: entry.verdict.clone(),
            canonicaliser: canon::canonicaliser_of(&stored.canonical_hash).to_owned(),
            canonical_hash: stored.canonical_hash,
            cached,
        })
    }

    /// The verdict for `key` in the caller's labels, and whether it counts
    /// as cached for this caller (found in memory or in the store, or
    /// shared from a solve another caller started).
    async fn lookup_inline(
        &self,
        spec: &Arc<Spec>,
        canonical: &Canonical,
        key: &str,
        options: SolveOptions,
    ) -> Result<(Verdict, bool), ApiError> {
        let labelling = &canonical.labelling;
        let in_memory = self.cache.get(key).await;
        metrics().cache_lookup("memory", in_memory.is_some());
        if let Some(entry) = in_memory {
            if entry.has_shape(canonical.vertex_count, canonical.edge_count)
                && let Some(verdict) =
                    in_request_labels(&entry, labelling, spec, Check::Fits).await?
            {
                return Ok((verdict, true));
            }
            tracing::warn!(key, "cached verdict does not fit its graph; solving again");
            self.cache.invalidate(key).await;
        }
        let source = Source::Inline {
            spec: spec.clone(),
            canonical: canonical.clone(),
        };
        let shape = (canonical.vertex_count, canonical.edge_count);
        let (waiter, started) = self.join_or_start(key, &canonical.hash, shape, options, source);
        let entry = waiter.outcome().await?;
        drop(waiter);
        // A flight this caller joined may have been started by a copy in
        // other labels: check the answer in this caller's. One it started
        // itself solved this spec, or checked the stored verdict in these
        // very labels already.
        let check = if started { Check::Trusted } else { Check::Fits };
        if let Some(verdict) = in_request_labels(&entry, labelling, spec, check).await? {
            return Ok((verdict, !started || entry.from_store));
        }
        tracing::error!(
            key,
            "a verdict shared under this canonical hash does not fit this puzzle; solving it alone"
        );
        self.cache.invalidate(key).await;
        let verdict = self.solve_uncached(spec.clone(), options).await?;
        Ok((verdict, false))
    }

    /// Solves `spec` in its own labels, sharing nothing and storing
    /// nothing: the way out when a shared verdict does not fit.
    async fn solve_uncached(
        &self,
        spec: Arc<Spec>,
        options: SolveOptions,
    ) -> Result<Verdict, ApiError> {
        let cancel = Cancel::new();
        let game = spec.game();
        self.pool
            .run(move || games::solve(game, spec.graph(), &spec.distinguished(), options, &cancel))
            .await?
            .map_err(solve_error)
    }

    /// Joins the flight for `key`, starting it (to find or compute the
    /// verdict of `source`) if there is none. The returned waiter counts
    /// this caller until it is dropped.
    fn join_or_start(
        &self,
        key: &str,
        hash: &str,
        shape: (u64, u64),
        options: SolveOptions,
        source: Source,
    ) -> (Waiter, bool) {
        let mut flights = lock(&self.flights);
        if let Some(slot) = flights.get_mut(key) {
            slot.waiters += 1;
            let waiter = Waiter {
                flights: self.flights.clone(),
                key: key.to_owned(),
                flight: slot.flight.clone(),
                _counted: self.callers_waiting.enter(),
            };
            return (waiter, false);
        }
        let flight = Arc::new(Flight {
            outcome: watch::channel(None).0,
            cancel: Cancel::new(),
            abandoned: Notify::new(),
        });
        flights.insert(
            key.to_owned(),
            Slot {
                flight: flight.clone(),
                waiters: 1,
            },
        );
        drop(flights);
        self.spawn_flight(key, hash, shape, options, source, flight.clone());
        let waiter = Waiter {
            flights: self.flights.clone(),
            key: key.to_owned(),
            flight,
            _counted: self.callers_waiting.enter(),
        };
        (waiter, true)
    }

    /// The miss path in a task of its own: the store's verdict if it is for
    /// this hash, shape and solver, else a fresh solve that is then stored.
    /// It stops (storing nothing) as soon as its last waiter has gone.
    fn spawn_flight(
        &self,
        key: &str,
        hash: &str,
        (vertex_count, edge_count): (u64, u64),
        options: SolveOptions,
        source: Source,
        flight: Arc<Flight>,
    ) {
        let store = self.store.clone();
        let pool = self.pool.clone();
        let cache = self.cache.clone();
        let flights = self.flights.clone();
        let key = key.to_owned();
        let hash = hash.to_owned();
        let options_key = options_key(options);
        tokio::spawn(async move {
            let verdict_key = VerdictKey {
                canonical_hash: &hash,
                options: options_key,
                vertex_count,
                edge_count,
                solver_version: SOLVER_VERSION,
            };
            let work = async {
                let stored = store.get_verdict(verdict_key).await?;
                metrics().cache_lookup("store", stored.is_some());
                let (spec, canonical) = match source {
                    Source::Inline { spec, canonical } => (spec, canonical),
                    Source::Stored { id } => {
                        if let Some(verdict) = stored {
                            return Ok(Arc::new(Entry {
                                verdict,
                                vertex_count,
                                edge_count,
                                from_store: true,
                            }));
                        }
                        let spec = load_stored(&store, &id).await?;
                        // Only hashes that keep labels take this way.
                        let canonical = {
                            let spec = spec.clone();
                            off_runtime(move || canon::keep_labels(&spec)).await?
                        };
                        if canonical.hash != hash {
                            tracing::error!(%id, stored = %hash, computed = %canonical.hash, "a stored puzzle's hash does not match its graph");
                            return Err(ApiError::internal(
                                "the stored puzzle's hash does not match it; see the server log",
                            ));
                        }
                        (spec, canonical)
                    }
                };
                let labelling = canonical.labelling;
                // Servers sharing the database compute each verdict once:
                // the one holding the claim solves, the others wait for
                // the verdict it stores (or for its claim to lapse). A
                // database of one server's own needs no claims: the
                // flights already join identical solves.
                let mut stored = stored;
                let mut misfit_seen = false;
                let claim = loop {
                    if let Some(verdict) = stored.take() {
                        let entry = Arc::new(Entry {
                            verdict,
                            vertex_count,
                            edge_count,
                            from_store: true,
                        });
                        if in_request_labels(&entry, &labelling, &spec, Check::Fits)
                            .await?
                            .is_some()
                        {
                            return Ok(entry);
                        }
                        if !misfit_seen {
                            tracing::warn!(%hash, "stored verdict does not fit its graph; solving again");
                            misfit_seen = true;
                        }
                    }
                    if !store.is_shared() {
                        break None;
                    }
                    match SolveClaim::take(&store, &hash, options_key).await {
                        Some(claim) => break Some(claim),
                        None => {
                            tokio::time::sleep(CLAIM_POLL).await;
                            stored = store.get_verdict(verdict_key).await?;
                        }
                    }
                };
                let game = spec.game();
                let distinguished = spec.distinguished();
                let cancel = flight.cancel.clone();
                let solve_spec = spec.clone();
                let verdict = pool
                    .run(move || {
                        let graph = solve_spec.graph();
                        tracing::debug!(
                            ?game,
                            vertices = graph.vertex_count(),
                            edges = graph.edge_count(),
                            "solve started"
                        );
                        let verdict = games::solve(
                            game,
                            solve_spec.graph(),
                            &distinguished,
                            options,
                            &cancel,
                        )?;
                        // Solved in the request's labels; kept in canonical ones.
                        Ok(match &labelling {
                            Labelling::Identity => verdict,
                            labelling => verdict.relabel(|v| labelling.to_canonical(v)),
                        })
                    })
                    .await?
                    .map_err(solve_error)?;
                match store.put_verdict(verdict_key, &verdict).await {
                    Ok(Retained::Stored) => {}
                    Ok(Retained::TooLarge) => {
                        tracing::info!(%hash, "a verdict larger than the whole verdict budget was served but not stored");
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "could not store a verdict; serving it anyway");
                    }
                }
                if let Some(claim) = claim {
                    claim.release().await;
                }
                Ok(Arc::new(Entry {
                    verdict,
                    vertex_count,
                    edge_count,
                    from_store: false,
                }))
            };
            let outcome = tokio::select! {
                outcome = work => outcome,
                () = flight.abandoned.notified() => Err(ApiError::ShuttingDown),
            };
            if let Ok(entry) = &outcome {
                cache.insert(key.clone(), entry.clone()).await;
            }
            // Leave the map only now: a caller arriving from here on finds
            // the verdict in the cache (or starts afresh after an error).
            let mut map = lock(&flights);
            if map
                .get(&key)
                .is_some_and(|slot| Arc::ptr_eq(&slot.flight, &flight))
            {
                map.remove(&key);
            }
            drop(map);
            flight.outcome.send_replace(Some(outcome));
        });
    }
}

/// How long a claim on computing a verdict lasts unless renewed: a server
/// that dies mid-solve holds the others up at most this long.
const CLAIM_TTL: Duration = Duration::from_secs(30);
/// How often a solving server renews its claim.
const CLAIM_RENEWAL: Duration = Duration::from_secs(10);
/// How often a server waiting for another's verdict looks for it.
const CLAIM_POLL: Duration = Duration::from_millis(100);

/// This server's claim on computing one verdict, renewed in the background
/// while it is held; dropped (the flight abandoned) it is released too.
struct SolveClaim {
    store: Store,
    hash: Arc<str>,
    options: &'static str,
    renewing: Option<tokio::task::JoinHandle<()>>,
}

impl SolveClaim {
    /// The claim on the verdict of `hash` with `options`, or `None` while
    /// another server holds it. A store that cannot record claims (a
    /// failing disk) does not stop the solve: this server then computes
    /// without one.
    async fn take(store: &Store, hash: &str, options: &'static str) -> Option<SolveClaim> {
        let hash: Arc<str> = hash.into();
        match store.claim_solve(&hash, options, CLAIM_TTL).await {
            Ok(false) => return None,
            Ok(true) => {}
            Err(error) => {
                tracing::warn!(%error, "could not claim a solve; computing it without a claim");
            }
        }
        let renewing = tokio::spawn({
            let (store, hash) = (store.clone(), hash.clone());
            async move {
                let mut every = tokio::time::interval(CLAIM_RENEWAL);
                every.tick().await;
                loop {
                    every.tick().await;
                    if let Err(error) = store.claim_solve(&hash, options, CLAIM_TTL).await {
                        tracing::warn!(%error, "could not renew a solve claim");
                    }
                }
            }
        });
        Some(SolveClaim {
            store: store.clone(),
            hash,
            options,
            renewing: Some(renewing),
        })
    }

    /// Releases the claim now (the verdict is stored).
    async fn release(mut self) {
        if let Some(renewing) = self.renewing.take() {
            renewing.abort();
        }
        if let Err(error) = self.store.release_claim(&self.hash, self.options).await {
            tracing::debug!(%error, "could not release a solve claim; it expires by itself");
        }
    }
}

impl Drop for SolveClaim {
    fn drop(&mut self) {
        // Abandoned before `release`: stop renewing and release on the side.
        if let Some(renewing) = self.renewing.take() {
            renewing.abort();
            let (store, hash, options) = (self.store.clone(), self.hash.clone(), self.options);
            tokio::spawn(async move {
                let _ = store.release_claim(&hash, options).await;
            });
        }
    }
}

/// The API's answer to a solver that did not finish.
fn solve_error(error: GameError) -> ApiError {
    match error {
        GameError::Rejected(message) => {
            tracing::error!(%message, "the solver rejected a validated puzzle");
            ApiError::internal(format!("the solver rejected this puzzle: {message}"))
        }
        GameError::Cancelled(_) => ApiError::ShuttingDown,
    }
}

/// The labelling a stored puzzle's verdicts are in: its own labels under a
/// hash that keeps labels, else the canonical labels stored with it;
/// `None` when those are missing or damaged.
fn stored_labelling(record: &PuzzleRecord) -> Option<Labelling> {
    if canon::keeps_labels(&record.canonical_hash) {
        return Some(Labelling::Identity);
    }
    record
        .canonical_labels
        .clone()
        .filter(|labels| labels.len() as u64 == record.spec.vertex_count)
        .and_then(Labelling::from_canonical_labels)
}

/// Reads the stored puzzle `id` whole, validates it, and gives its
/// canonical hash with the labelling it was stored with (the identity for
/// a hash that keeps labels).
async fn load_stored_canonical(
    store: &Store,
    id: &str,
) -> Result<(Arc<Spec>, Canonical), ApiError> {
    let mut record = store.get_puzzle(id).await?;
    let labelling = stored_labelling(&record).ok_or_else(|| {
        tracing::error!(%id, "a stored puzzle's canonical labels are missing or damaged");
        ApiError::internal("the stored puzzle's canonical labels are damaged; see the server log")
    })?;
    record.canonical_labels = None;
    let n = record.spec.vertex_count;
    let hash = std::mem::take(&mut record.canonical_hash);
    let edge_count = record.edge_count;
    let spec = off_runtime(move || super::convert::spec_from_record(&record)).await??;
    // A hash of an older canonicaliser not rehashed yet names its own.
    let canonicaliser = canon::known_canonicaliser_of(&hash);
    let canonical = Canonical {
        canonicaliser,
        hash,
        vertex_count: n,
        edge_count,
        labelling,
    };
    Ok((Arc::new(spec), canonical))
}

/// Reads the stored puzzle `id` and validates it.
pub(super) async fn load_stored(store: &Store, id: &str) -> Result<Arc<Spec>, ApiError> {
    let record = store.get_puzzle(id).await?;
    let spec = off_runtime(move || super::convert::spec_from_record(&record)).await??;
    Ok(Arc::new(spec))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// One solve in progress, shared by every caller that asks for its key
/// while it runs.
struct Flight {
    outcome: watch::Sender<Option<Result<Arc<Entry>, ApiError>>>,
    /// Fired, with `abandoned` notified, when the last waiter leaves.
    cancel: Cancel,
    abandoned: Notify,
}

impl Flight {
    fn abandon(&self) {
        self.cancel.fire();
        self.abandoned.notify_one();
    }
}

/// A flight and how many callers wait for it. Invariant: `waiters` counts
/// the live [`Waiter`]s of `flight`; both change under the map's lock.
struct Slot {
    flight: Arc<Flight>,
    waiters: usize,
}

type Flights = Arc<Mutex<HashMap<String, Slot>>>;

/// One caller waiting for a flight. Dropping it (the call finished, its
/// deadline passed, or the client went away) leaves the flight; the last
/// one to leave stops it.
struct Waiter {
    flights: Flights,
    key: String,
    flight: Arc<Flight>,
    _counted: Counted,
}

impl Waiter {
    async fn outcome(&self) -> Result<Arc<Entry>, ApiError> {
        let mut outcome = self.flight.outcome.subscribe();
        outcome
            .wait_for(Option::is_some)
            .await
            .map_err(|_| ApiError::internal("the solve task ended without a result"))?
            .clone()
            .expect("waited for an outcome")
    }
}

impl Drop for Waiter {
    fn drop(&mut self) {
        let mut flights = lock(&self.flights);
        let Some(slot) = flights.get_mut(&self.key) else {
            return;
        };
        if !Arc::ptr_eq(&slot.flight, &self.flight) {
            return;
        }
        slot.waiters -= 1;
        if slot.waiters == 0 {
            flights.remove(&self.key);
            drop(flights);
            self.flight.abandon();
        }
    }
}

/// Whether [`in_request_labels`] checks the witness against the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    Fits,
    /// Already checked in these labels, or computed from this very graph.
    Trusted,
}

/// A verdict in canonical labels, translated into the request's labels by
/// `labelling`, if it fits the request's graph there (or is trusted to).
async fn in_request_labels(
    entry: &Arc<Entry>,
    labelling: &Labelling,
    spec: &Arc<Spec>,
    check: Check,
) -> Result<Option<Verdict>, ApiError> {
    let units = spec.graph().vertex_count() + spec.graph().edge_count();
    let (entry, spec, labelling) = (entry.clone(), spec.clone(), labelling.clone());
    off_runtime_if_large(units as u64, move || {
        let verdict = match &labelling {
            Labelling::Identity => entry.verdict.clone(),
            labelling => entry.verdict.relabel(|c| labelling.to_original(c)),
        };
        (check == Check::Trusted || verdict.fits(spec.graph())).then_some(verdict)
    })
    .await
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
) -> Result<T, ApiError> {
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
) -> Result<T, ApiError> {
    static SLOTS: std::sync::OnceLock<Arc<Semaphore>> = std::sync::OnceLock::new();
    let slots = SLOTS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Arc::new(Semaphore::new(cores))
    });
    let slot = slots
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::internal("the CPU slots are closed"))?;
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
    /// many solves already wait. Dropping the future while it waits leaves
    /// the queue; once `f` runs, only its own cancellation stops it.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(TryAcquireError::Closed) => return Err(ApiError::internal("solver pool closed")),
            Err(TryAcquireError::NoPermits) => {
                let Some(_waiting) = self.waiting.try_enter(self.max_waiting) else {
                    return Err(ApiError::Busy {
                        reason: "SOLVE_QUEUE_FULL",
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
                    .map_err(|_| ApiError::internal("solver pool closed"))?
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
