//! Verdicts through three levels: a bounded in-memory cache, then the
//! store's verdicts table, then the solver on a bounded blocking pool.
//!
//! Identical concurrent misses share one *flight* (`app::flights`): a task
//! that looks in the store and solves, whose outcome every waiter
//! receives. Each waiter's deadline bounds its own wait alone; the flight
//! stops (cooperatively, see `solver::cancel`) when its last waiter has
//! gone, frees its worker, and stores nothing.
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

use std::sync::Arc;
use std::time::{Duration, Instant};

use moka::future::Cache;

use super::access::Caller;
use super::claims::{CLAIM_POLL, SolveClaim};
use super::deadline::within;
use super::error::AppError;
use super::flights::{Flight, Flights, Joined, Waiter};
use super::games::{self, GameError};
use super::pool::{
    Gauge, INLINE_UNITS, Lane, Lanes, WorkerSettings, off_runtime, off_runtime_if_large,
    off_runtime_small, units_of,
};
use super::work_budget::Payer;
use crate::app::Reason;
use crate::caches;
use crate::canon::{self, Canonical, Labelling};
use crate::metrics::metrics;
use crate::puzzle::{Evidence, Game, SolveOptions, Spec, Verdict};
use crate::solver::SOLVER_VERSION;
use crate::solver::cancel::Cancel;
use crate::solver::search_geography::Certificate;
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

impl From<PuzzleRecord> for StoredPuzzle {
    /// The puzzle of a record read with or without its edges.
    fn from(record: PuzzleRecord) -> StoredPuzzle {
        StoredPuzzle {
            id: record.id,
            game: record.spec.game,
            canonical_hash: record.canonical_hash,
            vertex_count: record.spec.vertex_count,
            edge_count: record.edge_count,
        }
    }
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

/// What a flight lands with: the verdict in canonical labels, or why
/// there is none.
type FlightOutcome = Result<Arc<Entry>, AppError>;

/// What a write costs its caller (a token of the write rate): called once
/// before the write, its error is the call's answer.
pub type Charge<'a> = &'a (dyn Fn() -> Result<(), AppError> + Send + Sync);

/// The result of one solve request, in the request's labels.
#[derive(Debug, Clone)]
pub struct Solved {
    pub verdict: Verdict,
    pub canonical_hash: String,
    /// The canonicaliser that made `canonical_hash`.
    pub canonicaliser: String,
    pub cached: bool,
}

/// A small stored puzzle read and validated, with its answer for one set
/// of options in its own labels, checked there when it was made.
#[derive(Debug)]
struct StoredAnswer {
    spec: Arc<Spec>,
    solved: Solved,
}

/// Which stored answer: the puzzle's id, the hash it is stored under and
/// the options' key. A stored puzzle's edges never change and its id is
/// never reused, so this names one answer for good: a rehash makes a new
/// key, and a deleted puzzle is not found before the key is made.
type StoredAnswerKey = (String, String, &'static str);

/// Solves with a cache in front and a bounded pool behind.
#[derive(Clone)]
pub struct Solver {
    cache: Cache<String, Arc<Entry>>,
    /// Answers for small stored puzzles in their own labels, with the
    /// validated puzzle, for position work: a repeat neither reads,
    /// validates and relabels the puzzle nor checks the verdict again.
    stored_answers: Cache<StoredAnswerKey, Arc<StoredAnswer>>,
    /// Answers the budgets were too small for (`caches::OVER_BUDGET`):
    /// `Some` refusal of a search by its solve or position key, `None` for
    /// a labelling key whose labelling ran out of time.
    over_budget: Cache<String, Option<AppError>>,
    store: Store,
    /// The general workers, and the express lane's for small jobs (see
    /// [`Lane`]).
    lanes: Lanes,
    /// Solves running or queued now, by cache key.
    flights: Flights<FlightOutcome>,
    /// Canonical labellings running now, by the request's puzzle
    /// ([`labelling_key`]): identical requests share one.
    labellings: Flights<Result<Canonical, AppError>>,
    /// Labellings being computed now (each shared by its callers).
    labellings_running: Gauge,
    /// The time canonical labelling may take per puzzle.
    canon_budget: Duration,
    /// The most states a search (the Geography variants solved by search)
    /// may put in its table.
    search_budget_states: u64,
    /// Solves stopped by their cancel handle since start-up (their callers
    /// had all gone): what tells a test that a solve was stopped rather
    /// than run to its end.
    solves_stopped: Gauge,
    /// Searches (solves and position analyses) that ran out of their
    /// state budget since start-up: a question asked again is answered
    /// from `over_budget` and not counted again.
    searches_over_budget: Gauge,
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
    u32::try_from(verdict_bytes(&entry.verdict)).unwrap_or(u32::MAX)
}

/// Approximate bytes held by a verdict.
fn verdict_bytes(verdict: &Verdict) -> usize {
    let evidence = match &verdict.evidence {
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
        Evidence::Search { certificate, .. } => match certificate {
            Certificate::Strategy(tree) => 8 * tree.moves.len(),
            Certificate::Omitted(why) => why.len(),
        },
    };
    let moves = verdict
        .winning_moves
        .as_ref()
        .map_or(0, |w| 12 * w.moves.len());
    256 + evidence + moves
}

/// Approximate bytes held by a stored answer and its key.
fn stored_answer_weight(key: &StoredAnswerKey, answer: &Arc<StoredAnswer>) -> u32 {
    let graph = answer.spec.graph();
    let bytes = 256
        + key.0.len()
        + 2 * key.1.len()
        + 8 * (graph.vertex_count() + graph.edge_count())
        + verdict_bytes(&answer.solved.verdict);
    u32::try_from(bytes).unwrap_or(u32::MAX)
}

impl Solver {
    pub fn new(
        store: Store,
        workers: WorkerSettings,
        cache_bytes: u64,
        canon_budget: Duration,
        search_budget_states: u64,
    ) -> Solver {
        Solver {
            cache: Cache::builder()
                .max_capacity(cache_bytes)
                .weigher(|key: &String, entry: &Arc<Entry>| {
                    weight(entry).saturating_add(key.len() as u32)
                })
                .build(),
            stored_answers: Cache::builder()
                .max_capacity(caches::STORED_ANSWERS.bytes())
                .weigher(stored_answer_weight)
                .build(),
            over_budget: Cache::builder()
                .max_capacity(caches::OVER_BUDGET.bytes())
                .weigher(|key: &String, refusal: &Option<AppError>| {
                    let message = match refusal {
                        Some(AppError::Busy { message, .. }) => message.len(),
                        _ => 0,
                    };
                    u32::try_from(64 + key.len() + message).unwrap_or(u32::MAX)
                })
                .build(),
            store,
            lanes: Lanes::new(workers),
            flights: Flights::default(),
            labellings: Flights::default(),
            labellings_running: Gauge::default(),
            canon_budget,
            search_budget_states,
            solves_stopped: Gauge::default(),
            searches_over_budget: Gauge::default(),
        }
    }

    /// The most states a search may put in its table.
    pub fn search_budget_states(&self) -> u64 {
        self.search_budget_states
    }

    /// The time budget of one canonical labelling.
    pub fn canon_budget(&self) -> Duration {
        self.canon_budget
    }

    /// Keeps a verdict that was computed outside a solve (the generator
    /// solves each puzzle to rate it) where a solve would have put it: in
    /// canonical labels, in the store and in memory, so that the puzzle's
    /// `cached_winner` shows and solving it again is a hit. `verdict` is in
    /// the labels of the spec `canonical` labelled, computed with
    /// `options` (as [`games::effective_options`] gives them).
    pub async fn keep_verdict(
        &self,
        canonical: &Canonical,
        options: SolveOptions,
        verdict: &Verdict,
    ) -> Result<(), AppError> {
        let verdict = match &canonical.labelling {
            Labelling::Identity => verdict.clone(),
            labelling => verdict.relabel(|v| labelling.to_canonical(v)),
        };
        let key = VerdictKey {
            canonical_hash: &canonical.hash,
            options: options_key(options),
            vertex_count: canonical.vertex_count,
            edge_count: canonical.edge_count,
            solver_version: SOLVER_VERSION,
        };
        if let Retained::TooLarge = self.store.put_verdict(key, &verdict).await? {
            tracing::info!(hash = %canonical.hash, "a verdict larger than the whole verdict budget was not stored");
        }
        let entry = Arc::new(Entry {
            verdict,
            vertex_count: canonical.vertex_count,
            edge_count: canonical.edge_count,
            from_store: true,
        });
        self.cache
            .insert(format!("{}#{}", canonical.hash, key.options), entry)
            .await;
        Ok(())
    }

    /// The canonical form of `spec` within the configured budget, always
    /// off the async workers: even a small graph can keep Traces searching
    /// up to the budget, or wait for a Traces thread another search holds.
    /// Callers asking for the same large puzzle at once (the same game,
    /// vertices, distinguished vertices and edges) share one labelling, which stops,
    /// Traces' search included, once all of them have left. A small
    /// puzzle's labelling runs in a lane of its own, so that hard
    /// labellings of large ones never keep it waiting.
    ///
    /// A large puzzle's labelling is `payer`'s work: refused, before it
    /// starts, to a caller whose budget is spent, and its time charged (a
    /// shared one's to the caller that started it). A small puzzle's is
    /// free, as a memory hit is: it is the cached path's first step. A
    /// large puzzle whose labelling ran out of time once gets the
    /// label-keeping hash at once the next time: the labelling is
    /// deterministic, and would run out again.
    pub async fn canonicalize(
        &self,
        spec: Arc<Spec>,
        payer: &Payer,
    ) -> Result<Canonical, AppError> {
        let budget = self.canon_budget;
        if units_of(&spec) <= INLINE_UNITS {
            // Labelled at once in its own lane: sharing it would cost the
            // key's hash on every call of the cached hot path, for a
            // labelling that is cheap unless built to be hard.
            let cancel = Cancel::new();
            let _stop_when_left = FireOnDrop(cancel.clone());
            let label = move || canon::canonicalize_unless_cancelled(&spec, budget, &cancel);
            return off_runtime_small(label).await?.ok_or_else(no_caller_left);
        }
        let key = {
            let spec = spec.clone();
            off_runtime(move || format!("label:{}", labelling_key(&spec))).await?
        };
        let known = self.over_budget.get(&key).await;
        metrics().cache_lookup(caches::OVER_BUDGET.lookups, known.is_some());
        if known.is_some() {
            let (canonical, spent) =
                off_runtime(move || timed(|| canon::keep_labels(&spec))).await?;
            self.lanes.general.charge(payer.caller(), spent);
            return Ok(canonical);
        }
        self.lanes.general.check_budget(payer)?;
        let waiter = match self.labellings.join(&key) {
            Joined::Joined(waiter) => waiter,
            Joined::Started(waiter, flight) => {
                let labellings = self.labellings.clone();
                let running = self.labellings_running.enter();
                let (pool, over_budget, starter) = (
                    self.lanes.general.clone(),
                    self.over_budget.clone(),
                    payer.caller().clone(),
                );
                tokio::spawn(async move {
                    let _running = running;
                    let cancel = flight.cancel().clone();
                    let label = move || {
                        timed(|| canon::canonicalize_unless_cancelled(&spec, budget, &cancel))
                    };
                    let outcome = match off_runtime(label).await {
                        Ok((labelled, spent)) => {
                            pool.charge(&starter, spent);
                            labelled.ok_or_else(no_caller_left)
                        }
                        Err(error) => Err(error),
                    };
                    if let Ok(canonical) = &outcome
                        && canon::keeps_labels(&canonical.hash)
                    {
                        over_budget.insert(key.clone(), None).await;
                    }
                    labellings.land(&key, &flight, outcome);
                });
                waiter
            }
        };
        waiter.outcome().await
    }

    /// The refusal remembered for `key` (a solve's or a position's), if
    /// the search budget was too small for it before: asking again costs
    /// this lookup, not the search.
    pub async fn refuse_known_over_budget(&self, key: &str) -> Result<(), AppError> {
        let known = self.over_budget.get(key).await;
        metrics().cache_lookup(caches::OVER_BUDGET.lookups, known.is_some());
        match known {
            Some(Some(refusal)) => Err(refusal),
            _ => Ok(()),
        }
    }

    /// Remembers that the search budget was too small for `key`.
    pub async fn remember_over_budget(&self, key: String, refusal: &AppError) {
        self.searches_over_budget.count_one();
        self.over_budget.insert(key, Some(refusal.clone())).await;
    }

    /// How many searches ran out of their state budget since start-up.
    pub fn searches_over_budget(&self) -> Gauge {
        self.searches_over_budget.clone()
    }

    /// A stored puzzle read whole and validated, with its verdict (from the
    /// cache when it has one) in its own labels: where position work on a
    /// stored puzzle starts. The stored canonical labels spare it Traces.
    pub async fn stored_with_verdict(
        &self,
        stored: &StoredPuzzle,
        options: SolveOptions,
        deadline: Option<Instant>,
        payer: &Payer,
    ) -> Result<(Arc<Spec>, Solved), AppError> {
        let options = games::effective_options(stored.game, options);
        self.stored_answer(stored, options, deadline, payer).await
    }

    /// The stored puzzle `stored` validated, with its answer for
    /// `options` in its own labels: kept from an earlier call when it is
    /// small, else read with its stored canonical labels and answered
    /// through the canonical path (the verdict checked in its labels).
    async fn stored_answer(
        &self,
        stored: &StoredPuzzle,
        options: SolveOptions,
        deadline: Option<Instant>,
        payer: &Payer,
    ) -> Result<(Arc<Spec>, Solved), AppError> {
        let key = (
            stored.id.clone(),
            stored.canonical_hash.clone(),
            options_key(options),
        );
        let kept = self.stored_answers.get(&key).await;
        metrics().cache_lookup(caches::STORED_ANSWERS.lookups, kept.is_some());
        if let Some(answer) = kept {
            return Ok((answer.spec.clone(), answer.solved.clone()));
        }
        let (spec, canonical) =
            within(deadline, load_stored_canonical(&self.store, &stored.id)).await?;
        let solved = self
            .solve_canonical(spec.clone(), canonical, options, deadline, payer)
            .await?;
        let units = stored.vertex_count.saturating_add(stored.edge_count);
        // A puzzle rehashed since `stored` was read answers under its new
        // hash, which is not the key's.
        if units <= INLINE_UNITS && solved.canonical_hash == stored.canonical_hash {
            let answer = StoredAnswer {
                spec: spec.clone(),
                solved: Solved {
                    cached: true,
                    ..solved.clone()
                },
            };
            self.stored_answers.insert(key, Arc::new(answer)).await;
        }
        Ok((spec, solved))
    }

    /// Runs CPU-bound position work `f` for `caller` on the solve pool (it
    /// shares the workers, the turns and the work budget with solves),
    /// once `caller`'s budget lets it start. The handle `f` gets fires
    /// when this future is dropped: the caller left or its deadline passed.
    pub async fn run_position_work<T: Send + 'static>(
        &self,
        payer: &Payer,
        lane: Lane,
        f: impl FnOnce(&Cancel) -> T + Send + 'static,
    ) -> Result<T, AppError> {
        self.lanes.general.check_budget(payer)?;
        self.continue_position_work(payer, lane, f).await
    }

    /// [`Solver::run_position_work`] for a further job of work a call has
    /// started (the engine's next candidates): charged, not checked.
    pub async fn continue_position_work<T: Send + 'static>(
        &self,
        payer: &Payer,
        lane: Lane,
        f: impl FnOnce(&Cancel) -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let cancel = Cancel::new();
        let _stop_when_left = FireOnDrop(cancel.clone());
        self.lanes
            .of(lane)
            .run(payer.caller(), move || f(&cancel))
            .await
    }

    /// Passes when `caller` may start work memory cannot answer (its work
    /// budget is not spent).
    pub fn check_budget(&self, payer: &Payer) -> Result<(), AppError> {
        self.lanes.general.check_budget(payer)
    }

    /// The live count of solves that hold a worker.
    pub fn solves_running(&self) -> Gauge {
        self.lanes.general.running()
    }

    /// The entries and bytes of the verdict cache and of the stored
    /// puzzles' answers, for the metrics.
    pub async fn cache_sizes(&self) -> Vec<(&'static str, u64, u64)> {
        // The caches count in the background: bring the counts up to date.
        self.cache.run_pending_tasks().await;
        self.stored_answers.run_pending_tasks().await;
        self.over_budget.run_pending_tasks().await;
        vec![
            (
                caches::VERDICTS.name,
                self.cache.entry_count(),
                self.cache.weighted_size(),
            ),
            (
                caches::STORED_ANSWERS.name,
                self.stored_answers.entry_count(),
                self.stored_answers.weighted_size(),
            ),
            (
                caches::OVER_BUDGET.name,
                self.over_budget.entry_count(),
                self.over_budget.weighted_size(),
            ),
        ]
    }

    /// The live count of callers waiting for a solve (queued or running).
    pub fn callers_waiting(&self) -> Gauge {
        self.flights.waiting()
    }

    /// The live counts of canonical labellings being computed, and of the
    /// callers waiting for them.
    pub fn labellings(&self) -> (Gauge, Gauge) {
        (self.labellings_running.clone(), self.labellings.waiting())
    }

    /// How many solves their cancel handle has stopped since start-up,
    /// each counted before it gives its worker back.
    pub fn solves_stopped(&self) -> Gauge {
        self.solves_stopped.clone()
    }

    /// Stops every solve still running or queued; their callers get
    /// UNAVAILABLE. For shutdown, once the grace period is over.
    pub fn cancel_all(&self) {
        self.flights.abandon_all();
    }

    /// The verdict for `spec`, from the cache when it has one. `deadline`
    /// bounds this caller's wait and no one else's: a solve shared with
    /// other callers goes on when this one leaves, and stops when the last
    /// one has left.
    ///
    /// `caller`'s work budget is checked before a solve that memory cannot
    /// answer is started or joined; a solve it starts is charged to it.
    pub async fn solve(
        &self,
        spec: Arc<Spec>,
        options: SolveOptions,
        deadline: Option<Instant>,
        payer: &Payer,
    ) -> Result<Solved, AppError> {
        let options = games::effective_options(spec.game(), options);
        let canonical = self.canonicalize(spec.clone(), payer).await?;
        self.solve_canonical(spec, canonical, options, deadline, payer)
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
        payer: &Payer,
    ) -> Result<Solved, AppError> {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(AppError::DeadlineExceeded);
        }
        let key = format!("{}#{}", canonical.hash, options_key(options));
        let work = self.lookup_inline(&spec, &canonical, &key, options, payer);
        let (verdict, cached) = within(deadline, work).await?;
        Ok(Solved {
            verdict,
            canonical_hash: canonical.hash,
            canonicaliser: canonical.canonicaliser.to_owned(),
            cached,
        })
    }

    /// Gives every puzzle stored under an older canonicaliser (before
    /// `traces-v1`, or with `traces-v1`, `traces-v2` or `traces-v3`) its current isomorphism-invariant
    /// hash and canonical labels, oldest first, carrying the verdicts stored
    /// under its old hash over (translated into the new canonical labels). Runs in
    /// the background after start-up; until a puzzle's turn comes it keeps
    /// working under its old hash. Returns how many puzzles it rehashed.
    pub async fn rehash_stored_puzzles(&self) -> Result<u64, AppError> {
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

    async fn rehash_stored_puzzle(&self, id: &str) -> Result<(), AppError> {
        let record = match self.store.get_puzzle(id).await {
            Ok(record) => record,
            // Deleted since it was listed.
            Err(crate::store::StoreError::NotFound(_)) => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        let old_hash = record.canonical_hash.clone();
        // Without the labels of the old hash no verdict is carried over.
        let old_labelling = stored_labelling(&record);
        let spec = match spec_of(&record) {
            Ok(spec) => Arc::new(spec),
            Err(_) => {
                // Logged by spec_from_record; keep its hash, stop retrying.
                self.store
                    .set_canonical_hash(id, &old_hash, &old_hash, None)
                    .await?;
                return Ok(());
            }
        };
        // The server's own work, charged to no caller's budget.
        let canonical = self
            .canonicalize(spec.clone(), &Payer::new(Caller::Admin))
            .await?;
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
    /// `caller` as for [`Solver::solve`].
    pub async fn solve_stored(
        &self,
        stored: StoredPuzzle,
        options: SolveOptions,
        deadline: Option<Instant>,
        payer: &Payer,
    ) -> Result<Solved, AppError> {
        let options = games::effective_options(stored.game, options);
        if !canon::keeps_labels(&stored.canonical_hash) {
            // Its verdict may come from another copy, in other labels: read
            // the puzzle and its canonical labels to answer in its own (a
            // repeat is answered by the API's answer memo before this).
            let (spec, canonical) =
                within(deadline, load_stored_canonical(&self.store, &stored.id)).await?;
            return self
                .solve_canonical(spec, canonical, options, deadline, payer)
                .await;
        }
        let key = format!("{}#{}", stored.canonical_hash, options_key(options));
        let work = async {
            let in_memory = self.cache.get(&key).await;
            metrics().cache_lookup(caches::VERDICTS.lookups, in_memory.is_some());
            if let Some(entry) = in_memory {
                if entry.has_shape(stored.vertex_count, stored.edge_count) {
                    return Ok((entry, true));
                }
                tracing::warn!(key, "cached verdict has another shape; solving again");
                self.cache.invalidate(&key).await;
            }
            self.refuse_known_over_budget(&key).await?;
            self.lanes.general.check_budget(payer)?;
            let source = Source::Stored {
                id: stored.id.clone(),
            };
            let shape = (stored.vertex_count, stored.edge_count);
            let (waiter, started) =
                self.join_or_start(&key, &stored.canonical_hash, shape, options, source, payer);
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
        payer: &Payer,
    ) -> Result<(Verdict, bool), AppError> {
        let labelling = &canonical.labelling;
        let in_memory = self.cache.get(key).await;
        metrics().cache_lookup(caches::VERDICTS.lookups, in_memory.is_some());
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
        self.refuse_known_over_budget(key).await?;
        self.lanes.general.check_budget(payer)?;
        let source = Source::Inline {
            spec: spec.clone(),
            canonical: canonical.clone(),
        };
        let shape = (canonical.vertex_count, canonical.edge_count);
        let (waiter, started) =
            self.join_or_start(key, &canonical.hash, shape, options, source, payer);
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
        let verdict = self.solve_uncached(spec.clone(), options, payer).await?;
        Ok((verdict, false))
    }

    /// Solves `spec` in its own labels, sharing nothing and storing
    /// nothing: the way out when a shared verdict does not fit.
    async fn solve_uncached(
        &self,
        spec: Arc<Spec>,
        options: SolveOptions,
        payer: &Payer,
    ) -> Result<Verdict, AppError> {
        let cancel = Cancel::new();
        let budget = self.search_budget_states;
        self.lanes
            .of(Lane::of(&spec))
            .run(payer.caller(), move || {
                games::solve(&spec, options, budget, &cancel)
            })
            .await?
            .map_err(solve_error)
    }

    /// Joins the flight for `key`, starting it (to find or compute the
    /// verdict of `source`) if there is none. The returned waiter counts
    /// this caller until it is dropped. A flight's solve runs in the turn,
    /// and on the budget, of the caller that started it.
    fn join_or_start(
        &self,
        key: &str,
        hash: &str,
        shape: (u64, u64),
        options: SolveOptions,
        source: Source,
        payer: &Payer,
    ) -> (Waiter<FlightOutcome>, bool) {
        match self.flights.join(key) {
            Joined::Joined(waiter) => (waiter, false),
            Joined::Started(waiter, flight) => {
                let miss = Miss {
                    store: self.store.clone(),
                    lanes: self.lanes.clone(),
                    caller: payer.caller().clone(),
                    search_budget: self.search_budget_states,
                    stopped: self.solves_stopped.clone(),
                    hash: hash.to_owned(),
                    options,
                    shape,
                };
                self.spawn_flight(key, miss, source, flight);
                (waiter, true)
            }
        }
    }

    /// The miss path in a task of its own: the store's verdict if it is for
    /// this hash, shape and solver, else a fresh solve that is then stored.
    /// It stops (storing nothing) as soon as its last waiter has gone.
    fn spawn_flight(
        &self,
        key: &str,
        miss: Miss,
        source: Source,
        flight: Arc<Flight<FlightOutcome>>,
    ) {
        let (cache, flights, key) = (self.cache.clone(), self.flights.clone(), key.to_owned());
        let over_budget = self.over_budget.clone();
        let searches_over_budget = self.searches_over_budget.clone();
        tokio::spawn(async move {
            let outcome = tokio::select! {
                outcome = miss.answer(source, &flight) => outcome,
                () = flight.abandoned() => Err(AppError::ShuttingDown),
            };
            match &outcome {
                Ok(entry) => cache.insert(key.clone(), entry.clone()).await,
                Err(
                    refusal @ AppError::Busy {
                        reason: Reason::SearchBudgetExceeded,
                        ..
                    },
                ) => {
                    searches_over_budget.count_one();
                    over_budget.insert(key.clone(), Some(refusal.clone())).await;
                }
                Err(_) => {}
            }
            // Land only now: a caller arriving from here on finds the
            // verdict in the cache (or starts afresh after an error).
            flights.land(&key, &flight, outcome);
        });
    }
}

/// What a flight needs to answer a miss, in its task: the store, the
/// pool, and the verdict it is after (hash, options, shape).
struct Miss {
    store: Store,
    lanes: Lanes,
    /// The caller that started the flight: its turn, its budget.
    caller: Caller,
    search_budget: u64,
    stopped: Gauge,
    hash: String,
    options: SolveOptions,
    shape: (u64, u64),
}

/// What a look in the store found for a miss.
enum Looked {
    /// A verdict that fits the puzzle.
    Found(Arc<Entry>),
    /// None: this server is to compute it, holding the claim on it when
    /// the store is shared by replicas.
    Compute(Option<Box<SolveClaim>>),
}

impl Miss {
    fn verdict_key(&self) -> VerdictKey<'_> {
        VerdictKey {
            canonical_hash: &self.hash,
            options: options_key(self.options),
            vertex_count: self.shape.0,
            edge_count: self.shape.1,
            solver_version: SOLVER_VERSION,
        }
    }

    fn entry(&self, verdict: Verdict, from_store: bool) -> Arc<Entry> {
        Arc::new(Entry {
            verdict,
            vertex_count: self.shape.0,
            edge_count: self.shape.1,
            from_store,
        })
    }

    /// The stored verdict, or one computed now and stored.
    async fn answer(&self, source: Source, flight: &Flight<FlightOutcome>) -> FlightOutcome {
        let stored = self.store.get_verdict(self.verdict_key()).await?;
        metrics().cache_lookup("store", stored.is_some());
        let (spec, canonical, stored) = match (source, stored) {
            (Source::Inline { spec, canonical }, stored) => (spec, canonical, stored),
            // A stored puzzle's verdict is for its own hash and shape: no
            // need to read the puzzle to trust it.
            (Source::Stored { .. }, Some(verdict)) => return Ok(self.entry(verdict, true)),
            (Source::Stored { id }, None) => {
                let (spec, canonical) = self.read_stored(&id).await?;
                (spec, canonical, None)
            }
        };
        let labelling = canonical.labelling;
        let claim = match self.look_or_claim(stored, &spec, &labelling).await? {
            Looked::Found(entry) => return Ok(entry),
            Looked::Compute(claim) => claim,
        };
        let verdict = self
            .compute(spec, labelling, flight.cancel().clone())
            .await?;
        match self.store.put_verdict(self.verdict_key(), &verdict).await {
            Ok(Retained::Stored) => {}
            Ok(Retained::TooLarge) => {
                tracing::info!(hash = %self.hash, "a verdict larger than the whole verdict budget was served but not stored");
            }
            Err(e) => {
                tracing::error!(error = %e, "could not store a verdict; serving it anyway");
            }
        }
        if let Some(claim) = claim {
            claim.release().await;
        }
        Ok(self.entry(verdict, false))
    }

    /// A stored puzzle to solve, read, validated and hashed again: only
    /// hashes that keep labels take this way, and the hash must be the one
    /// it was stored with.
    async fn read_stored(&self, id: &str) -> Result<(Arc<Spec>, Canonical), AppError> {
        let spec = load_stored(&self.store, id).await?;
        let canonical = {
            let spec = spec.clone();
            off_runtime(move || canon::keep_labels(&spec)).await?
        };
        if canonical.hash != self.hash {
            tracing::error!(%id, stored = %self.hash, computed = %canonical.hash, "a stored puzzle's hash does not match its graph");
            return Err(AppError::internal(
                "the stored puzzle's hash does not match it; see the server log",
            ));
        }
        Ok((spec, canonical))
    }

    /// A stored verdict that fits the puzzle, or the go-ahead to compute
    /// one. Servers sharing the database compute each verdict once: the
    /// one holding the claim solves, the others wait for the verdict it
    /// stores (or for its claim to lapse). A database of one server's own
    /// needs no claims: the flights already join identical solves.
    async fn look_or_claim(
        &self,
        mut stored: Option<Verdict>,
        spec: &Arc<Spec>,
        labelling: &Labelling,
    ) -> Result<Looked, AppError> {
        let mut misfit_seen = false;
        // A claim taken after a miss: the verdict is looked for once more
        // under it, since its solver may have stored it and released its
        // own claim between that miss and this claim.
        let mut held: Option<SolveClaim> = None;
        loop {
            if let Some(verdict) = stored.take() {
                let entry = self.entry(verdict, true);
                if in_request_labels(&entry, labelling, spec, Check::Fits)
                    .await?
                    .is_some()
                {
                    if let Some(claim) = held.take() {
                        claim.release().await;
                    }
                    return Ok(Looked::Found(entry));
                }
                if !misfit_seen {
                    tracing::warn!(hash = %self.hash, "stored verdict does not fit its graph; solving again");
                    misfit_seen = true;
                }
            }
            if !self.store.is_shared() {
                return Ok(Looked::Compute(None));
            }
            if let Some(claim) = held.take() {
                return Ok(Looked::Compute(Some(Box::new(claim))));
            }
            match SolveClaim::take(&self.store, &self.hash, options_key(self.options)).await {
                Some(claim) => held = Some(claim),
                None => tokio::time::sleep(CLAIM_POLL).await,
            }
            stored = self.store.get_verdict(self.verdict_key()).await?;
        }
    }

    /// Solves `spec` on the pool, in its labels, and gives the verdict in
    /// canonical labels, as it is kept.
    async fn compute(
        &self,
        spec: Arc<Spec>,
        labelling: Labelling,
        cancel: Cancel,
    ) -> Result<Verdict, AppError> {
        let (game, options, budget) = (spec.game(), self.options, self.search_budget);
        let stopped = self.stopped.clone();
        self.lanes
            .of(Lane::of(&spec))
            .run(&self.caller, move || {
                let graph = spec.graph();
                tracing::debug!(
                    ?game,
                    vertices = graph.vertex_count(),
                    edges = graph.edge_count(),
                    "solve started"
                );
                let verdict =
                    games::solve(&spec, options, budget, &cancel).inspect_err(|error| {
                        if matches!(error, GameError::Cancelled(_)) {
                            stopped.count_one();
                        }
                    })?;
                // Solved in the request's labels; kept in canonical ones.
                Ok(match &labelling {
                    Labelling::Identity => verdict,
                    labelling => verdict.relabel(|v| labelling.to_canonical(v)),
                })
            })
            .await?
            .map_err(solve_error)
    }
}

/// `f`'s result and the time it took: what its caller's work budget is
/// charged.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let result = f();
    (result, started.elapsed())
}

/// The API's answer to a solver that did not finish.
fn solve_error(error: GameError) -> AppError {
    match error {
        GameError::Rejected(message) => {
            tracing::error!(%message, "the solver rejected a validated puzzle");
            AppError::internal(format!("the solver rejected this puzzle: {message}"))
        }
        GameError::Cancelled(_) => AppError::ShuttingDown,
        GameError::SearchBudget(exceeded) => exceeded.into(),
    }
}

/// The labelling a stored puzzle's verdicts are in: its own labels under a
/// hash that keeps labels, else the canonical labels stored with it;
/// `None` when those are missing or damaged.
/// The key of a labelling: the SHA-256 of the puzzle's game, distinguished
/// vertices and graph (each vertex's degree, then the neighbour lists, then
/// a directed game's arcs), as
/// the request gave them (labels and all: the labelling is of these
/// labels). The words are hashed a block at a time: a call per word cost
/// more than the hash itself.
fn labelling_key(spec: &Spec) -> String {
    use sha2::{Digest as _, Sha256};
    let graph = spec.graph();
    let mut hasher = Sha256::new();
    hasher.update(spec.game().as_str().as_bytes());
    hasher.update([0]);
    let distinguished = spec.distinguished();
    let head = [graph.vertex_count() as u32, distinguished.len() as u32];
    let degrees = (0..graph.vertex_count() as u32).map(|v| graph.degree(v) as u32);
    let words = head
        .into_iter()
        .chain(distinguished.iter().copied())
        .chain(degrees)
        .chain(graph.neighbor_lists().iter().copied());
    let mut block = Vec::with_capacity(4096);
    for word in words {
        block.extend_from_slice(&word.to_le_bytes());
        if block.len() == block.capacity() {
            hasher.update(&block);
            block.clear();
        }
    }
    hasher.update(&block);
    // A digraph's arcs: its underlying graph above does not tell their
    // directions.
    for &(u, v) in spec.arcs().unwrap_or_default() {
        hasher.update(u.to_le_bytes());
        hasher.update(v.to_le_bytes());
    }
    hex::encode(hasher.finalize())
}

/// The error of a labelling stopped because no caller waits for it (which
/// therefore nobody sees).
fn no_caller_left() -> AppError {
    AppError::internal("canonical labelling stopped with no caller left")
}

/// Fires its handle when dropped: work started for a caller stops when the
/// caller's future is dropped.
struct FireOnDrop(Cancel);

impl Drop for FireOnDrop {
    fn drop(&mut self) {
        self.0.fire();
    }
}

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
) -> Result<(Arc<Spec>, Canonical), AppError> {
    let mut record = store.get_puzzle(id).await?;
    let labelling = stored_labelling(&record).ok_or_else(|| {
        tracing::error!(%id, "a stored puzzle's canonical labels are missing or damaged");
        AppError::internal("the stored puzzle's canonical labels are damaged; see the server log")
    })?;
    record.canonical_labels = None;
    let n = record.spec.vertex_count;
    let hash = std::mem::take(&mut record.canonical_hash);
    let edge_count = record.edge_count;
    let spec = off_runtime(move || spec_of(&record)).await??;
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

/// The spec of a stored puzzle, validated again. One that no longer
/// validates is the server's fault (its rules changed under stored data),
/// so the caller is told INTERNAL and the log says which puzzle.
fn spec_of(record: &PuzzleRecord) -> Result<Spec, AppError> {
    record.validated_spec().map_err(|e| {
        tracing::error!(id = %record.id, error = %e, "stored puzzle no longer validates");
        AppError::internal("the stored puzzle is invalid; see the server log")
    })
}

/// Reads the stored puzzle `id` and validates it.
pub async fn load_stored(store: &Store, id: &str) -> Result<Arc<Spec>, AppError> {
    let record = store.get_puzzle(id).await?;
    let spec = off_runtime(move || spec_of(&record)).await??;
    Ok(Arc::new(spec))
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
) -> Result<Option<Verdict>, AppError> {
    let units = units_of(spec);
    let (entry, spec, labelling) = (entry.clone(), spec.clone(), labelling.clone());
    off_runtime_if_large(units, move || {
        let verdict = match &labelling {
            Labelling::Identity => entry.verdict.clone(),
            labelling => entry.verdict.relabel(|c| labelling.to_original(c)),
        };
        (check == Check::Trusted || verdict.fits(spec.graph())).then_some(verdict)
    })
    .await
}
