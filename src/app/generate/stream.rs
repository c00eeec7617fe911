//! GeneratePuzzles around the pure generator: each candidate is tried on
//! the solvers' pool, one pool job each (admitted by what the largest
//! candidate's drawing and solve hold, stopped when the caller leaves or
//! its deadline passes), hashed, passed over when it copies one already
//! sent, and a puzzle kept is stored with its difficulty when asked.

use std::collections::HashSet;
use std::time::Instant;

use super::{Family, GenerateError, GenerateRequest, Generated, Generator, families};
use crate::app::AppError;
use crate::app::Reason;
use crate::app::access::Caller;
use crate::app::admission::{Admission, search_table_units};
use crate::app::deadline::{check_deadline, within};
use crate::app::pool::Lane;
use crate::app::solving::{Charge, Solver};
use crate::app::work_budget::Payer;
use crate::canon::Canonical;
use crate::store::{ListFilter, NewPuzzle, PuzzleRecord, Store};

/// The most puzzles one call sends.
pub const MAX_COUNT: u32 = 100;

/// What the caller wants besides the request's puzzles.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// How many puzzles, at most [`MAX_COUNT`].
    pub count: u32,
    /// The first candidate to draw (a puzzle's index + 1 goes on after it).
    pub first_candidate: u64,
    /// Store each puzzle, by `author`.
    pub store: bool,
    pub author: String,
}

/// One puzzle found, as the caller gets it.
#[derive(Debug)]
pub struct Found {
    pub generated: Generated,
    pub canonical_hash: String,
    pub canonicaliser: &'static str,
    /// With `store`: the puzzle stored now…
    pub stored: Option<PuzzleRecord>,
    /// …or the id of the oldest stored copy, when one was there already
    /// (then nothing was stored).
    pub duplicate_of: Option<String>,
}

/// GeneratePuzzles' use case: what a call needs from the server (the
/// solvers' pool, the store, the admission budget), cheap to clone into
/// its task.
#[derive(Clone)]
pub struct Generations {
    solver: Solver,
    store: Store,
    admission: std::sync::Arc<Admission>,
}

impl Generations {
    pub fn new(solver: Solver, store: Store, admission: std::sync::Arc<Admission>) -> Generations {
        Generations {
            solver,
            store,
            admission,
        }
    }

    /// Finds `delivery.count` puzzles for `generator`'s request and hands
    /// each to `deliver` as soon as it is found; stops early when `deliver`
    /// says the caller has gone (returns false), or when a graph6 family's
    /// lines are used up. `charge_write` is called before each puzzle is
    /// stored.
    pub async fn generate<Delivered>(
        &self,
        generator: Generator,
        delivery: Delivery,
        deadline: Option<Instant>,
        caller: &Caller,
        charge_write: Charge<'_>,
        deliver: impl FnMut(Found) -> Delivered,
    ) -> Result<(), AppError>
    where
        Delivered: Future<Output = bool>,
    {
        generate(
            &self.solver,
            &self.store,
            &self.admission,
            generator,
            delivery,
            deadline,
            caller,
            charge_write,
            deliver,
        )
        .await
    }
}

/// [`Generations::generate`], its parts apart.
#[allow(clippy::too_many_arguments)]
async fn generate<Delivered>(
    solver: &Solver,
    store: &Store,
    admission: &Admission,
    mut generator: Generator,
    delivery: Delivery,
    deadline: Option<Instant>,
    caller: &Caller,
    charge_write: Charge<'_>,
    mut deliver: impl FnMut(Found) -> Delivered,
) -> Result<(), AppError>
where
    Delivered: Future<Output = bool>,
{
    let request = generator.request();
    let units = candidate_units(request).saturating_add(search_table_units(
        request.game,
        request.search_budget_states,
    ));
    generator.resume_at(delivery.first_candidate);
    let _admitted = admission.admit(units, "the generated puzzles").await?;
    let canon_budget = solver.canon_budget();
    // Canonical hashes sent: a copy of one (by relabelling) is no new
    // puzzle, and counts as a rejection in a row like any other.
    let mut sent: HashSet<String> = HashSet::new();
    let mut count = 0;
    while count < delivery.count {
        check_deadline(deadline)?;
        let Some(index) = generator.next_to_try()? else {
            return Ok(());
        };
        // One candidate a job: the worker is handed back between
        // candidates, so a search that rejects many in a row takes turns
        // with the solves queued behind it instead of holding a worker
        // until it ends. Each candidate is a step of its own: the caller's
        // work budget is checked before it.
        let payer = Payer::new(caller.clone());
        let candidates = generator.candidates();
        let work = solver.run_position_work(&payer, Lane::General, move |cancel| {
            candidates.try_labelled(index, cancel, canon_budget)
        });
        let trial = within(deadline, work).await?;
        let Some((generated, canonical)) = generator.take_unseen(trial, &mut sent)? else {
            continue;
        };
        let (stored, duplicate_of) = if delivery.store {
            // The verdict it was rated by is kept as a solve would keep
            // it: the stored puzzle (or its older copy) shows its winner.
            let options = super::solve_options(generated.spec.game());
            solver
                .keep_verdict(&canonical, options, &generated.verdict)
                .await?;
            match oldest_copy(store, &canonical.hash).await? {
                Some(oldest) => (None, Some(oldest)),
                None => {
                    charge_write()?;
                    let title = format!(
                        "{} from {}, seed {}, candidate {}",
                        generator.request().game.as_str(),
                        generator.request().family.name(),
                        generator.request().seed,
                        generated.index
                    );
                    let record =
                        store_generated(store, &generated, &canonical, &title, &delivery).await?;
                    (Some(record), None)
                }
            }
        } else {
            (None, None)
        };
        count += 1;
        let found = Found {
            generated,
            canonical_hash: canonical.hash,
            canonicaliser: canonical.canonicaliser,
            stored,
            duplicate_of,
        };
        if !deliver(found).await {
            return Ok(());
        }
    }
    Ok(())
}

/// The id of the oldest stored puzzle with `hash`, if any: the newest copy
/// names it as its `duplicate_of`, unless it is the only one.
async fn oldest_copy(store: &Store, hash: &str) -> Result<Option<String>, AppError> {
    let filter = ListFilter {
        game: None,
        canonical_hash: Some(hash),
    };
    let page = store.list_puzzles(filter, None, 1).await?;
    Ok(page
        .puzzles
        .into_iter()
        .next()
        .map(|newest| newest.duplicate_of.unwrap_or(newest.id)))
}

async fn store_generated(
    store: &Store,
    generated: &Generated,
    canonical: &Canonical,
    title: &str,
    delivery: &Delivery,
) -> Result<PuzzleRecord, AppError> {
    let raw = generated.spec.raw();
    let record = store
        .create_puzzle(NewPuzzle {
            game: raw.game,
            vertex_count: raw.vertex_count,
            edges: &raw.edges,
            start: raw.start,
            black: raw.black,
            white: raw.white,
            title,
            author: &delivery.author,
            numbered_from: 0,
            canonical_hash: &canonical.hash,
            canonical_labels: canonical.labelling.canonical_labels(),
            request_id: None,
            difficulty: Some(generated.difficulty),
        })
        .await?;
    Ok(record)
}

/// The admission units of the largest candidate `request` can draw: the
/// more of what drawing it holds at its peak
/// ([`families::drawing_units`]: a grid with holes holds its whole grid)
/// and what a solve of it holds (vertices plus edges). The drawing is
/// dropped before the solve starts, and both grow with the vertex count.
pub(super) fn candidate_units(request: &GenerateRequest) -> u64 {
    let n = u64::from(request.max_vertices);
    let edges = match &request.family {
        Family::Gnm { average_degree } | Family::Bipartite { average_degree } => {
            (n as f64 * average_degree / 2.0).ceil() as u64
        }
        Family::Tree | Family::Caterpillar { .. } => n,
        Family::GridWithHoles { .. } => 2 * n,
        Family::Graph6 { .. } => n * n.saturating_sub(1) / 2,
    };
    let solve = n.saturating_add(edges);
    let drawing = families::drawing_units(&request.family, n, request.game.is_directed());
    solve.max(drawing)
}

impl From<GenerateError> for AppError {
    fn from(error: GenerateError) -> AppError {
        match error {
            GenerateError::InvalidRequest(e) => {
                let message = e.to_string();
                AppError::invalid(e.field, Reason::InvalidGenerateRequest, message)
            }
            // The handle fires when the caller left or its deadline passed.
            GenerateError::Cancelled(_) => AppError::DeadlineExceeded,
            GenerateError::SearchBudget { .. } => AppError::Busy {
                reason: Reason::SearchBudgetExceeded,
                message: error.to_string(),
            },
            GenerateError::NoPuzzleFound(none) => AppError::NoPuzzleFound(none),
            GenerateError::Inconsistent { .. } => AppError::internal(error.to_string()),
        }
    }
}
