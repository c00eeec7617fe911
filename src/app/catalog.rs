//! Stored puzzles, as the service's use cases: store one (CreatePuzzle,
//! and each puzzle of ImportPuzzles), read one in a view, list a page,
//! export all a filter selects, delete one, solve one, open one for
//! position work. Each owns its store calls and its admission; the API
//! decodes a request, calls one of these, and encodes the answer (handing
//! in how large an answer is in its messages, where a page or a read must
//! fit one).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use super::admission::{Admission, Admitted, search_table_units};
use super::deadline::{check_deadline, within};
use super::pool::{INLINE_UNITS, off_runtime_if_large};
use super::solving::load_stored;
use super::work_budget::Payer;
use super::{AppError, Reason, Solved, Solver, StoredPuzzle};
use crate::puzzle::{SolveOptions, Spec, Verdict};
use crate::solver::{Player, SOLVER_VERSION};
use crate::store::{NewPuzzle, PuzzleRead, Store};

/// What the API speaks of stored puzzles: the store's records, filters and
/// outcomes, as plain data.
pub use crate::store::{Created, ListFilter, PuzzleRecord, StoreVersion, is_well_formed_id};

/// Whether a read returns edge lists (AIP-157 views).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Basic,
    Full,
}

/// The longest idempotency key a create takes.
pub const MAX_REQUEST_ID_CHARS: usize = 100;

/// Puzzles read from the store at a time by an export.
const EXPORT_PAGE: u32 = 64;

/// A puzzle a client submits: the admission units and message bytes its
/// request holds (read off the message), the field it came in, and how to
/// turn it into a validated spec (run off the async workers when large).
pub struct Submission<D> {
    pub units: u64,
    pub held: u64,
    pub field: &'static str,
    pub decode: D,
}

/// A stored puzzle read for an answer, with its stored winner and the
/// admission its edges hold while the answer is built.
pub struct Read {
    pub record: PuzzleRecord,
    pub winner: Option<Player>,
    pub admitted: Option<Admitted>,
}

/// A page of puzzles as the API encodes them, and where the next starts.
pub struct Listed<T> {
    pub items: Vec<T>,
    pub next_before: Option<i64>,
}

/// What one page asks for.
#[derive(Debug, Clone, Copy)]
pub struct PageQuery<'a> {
    pub filter: ListFilter<'a>,
    /// The `seq` to continue below (from a page token).
    pub before: Option<i64>,
    pub size: u32,
    pub view: View,
}

/// A stored puzzle open for position work: validated, its verdict when it
/// was asked for, its admission held until it is dropped.
pub struct Opened {
    pub spec: Arc<Spec>,
    pub verdict: Option<Verdict>,
    pub admitted: Admitted,
}

/// The stored puzzles' use cases.
#[derive(Clone)]
pub struct Catalog {
    store: Store,
    solver: Solver,
    admission: Arc<Admission>,
    /// The largest message the server sends: a read or a page of the FULL
    /// view stays under it.
    message_limit: usize,
}

/// Whether a stored puzzle is small enough to read without admission
/// ([`INLINE_UNITS`] vertices + edges at most).
fn is_small(summary: &PuzzleRecord) -> bool {
    summary.spec.vertex_count.saturating_add(summary.edge_count) <= INLINE_UNITS
}

/// The fewest bytes the edge list of `summary` takes in a message: a packed
/// `uint32` takes at least one byte, and an edge two of them.
fn min_encoded_len(summary: &PuzzleRecord) -> u64 {
    summary.edge_count.saturating_mul(2)
}

impl Catalog {
    pub fn new(
        store: Store,
        solver: Solver,
        admission: Arc<Admission>,
        message_limit: usize,
    ) -> Catalog {
        Catalog {
            store,
            solver,
            admission,
            message_limit,
        }
    }

    /// The store's version now (SQLite), under which answers to reads may
    /// be kept until anything is written.
    pub fn version(&self) -> Option<StoreVersion> {
        self.store.version()
    }

    /// Validates, hashes and stores a submitted puzzle under the optional
    /// idempotency key `request_id`: the same key with the same puzzle
    /// answers with the first one stored. Its validation and labelling are
    /// `caller`'s work: refused when its work budget is spent, charged
    /// otherwise.
    pub async fn create<D>(
        &self,
        submission: Submission<D>,
        request_id: &str,
        payer: &Payer,
    ) -> Result<Created, AppError>
    where
        D: FnOnce() -> Result<Spec, AppError> + Send + 'static,
    {
        if request_id.chars().count() > MAX_REQUEST_ID_CHARS {
            return Err(AppError::invalid(
                "request_id",
                Reason::TextTooLong,
                format!("request_id: more than {MAX_REQUEST_ID_CHARS} characters"),
            ));
        }
        let Submission {
            units,
            held,
            field,
            decode,
        } = submission;
        self.solver.check_budget(payer)?;
        let _admitted = self.admission.admit_holding(units, held, field).await?;
        let spec = Arc::new(off_runtime_if_large(units, decode).await??);
        let canonical = self.solver.canonicalize(spec.clone(), payer).await?;
        let raw = spec.raw();
        let created = self
            .store
            .create_or_replay(NewPuzzle {
                game: raw.game,
                vertex_count: raw.vertex_count,
                edges: &raw.edges,
                start: raw.start,
                black: raw.black,
                white: raw.white,
                title: &raw.title,
                author: &raw.author,
                numbered_from: raw.numbered_from,
                canonical_hash: &canonical.hash,
                canonical_labels: canonical.labelling.canonical_labels(),
                request_id: Some(request_id).filter(|r| !r.is_empty()),
                difficulty: None,
            })
            .await?;
        Ok(created)
    }

    /// The stored winners of `ids` (by this solver version), one query for
    /// them all; puzzles with none are left out.
    pub async fn winners(&self, ids: &[&str]) -> Result<HashMap<String, Player>, AppError> {
        Ok(self.store.stored_winners(ids, SOLVER_VERSION).await?)
    }

    async fn winner_of(&self, id: &str) -> Result<Option<Player>, AppError> {
        Ok(self.winners(&[id]).await?.remove(id))
    }

    /// The stored puzzle `id` in `view`, for an answer that keeps `room`
    /// bytes of its message for other fields.
    pub async fn read(&self, id: &str, view: View, room: usize) -> Result<Read, AppError> {
        let (record, admitted) = match view {
            View::Basic => (self.store.get_puzzle_summary(id).await?, None),
            View::Full => match self.store.get_puzzle_up_to(id, INLINE_UNITS).await? {
                PuzzleRead::Whole(record) => (record, None),
                PuzzleRead::Summary(summary) => self.read_summarised(&summary, room).await?,
            },
        };
        let winner = self.winner_of(&record.id).await?;
        Ok(Read {
            record,
            winner,
            admitted,
        })
    }

    /// The winner to show with a puzzle stored now (its record in hand).
    pub async fn created_winner(&self, record: &PuzzleRecord) -> Result<Option<Player>, AppError> {
        self.winner_of(&record.id).await
    }

    /// The puzzle of `summary` with its edges, for an answer that keeps
    /// `room` bytes of its message for other fields. A puzzle larger than
    /// [`INLINE_UNITS`] is refused when its edge list alone passes the
    /// message limit, and otherwise waits for admission of its size before
    /// its edges are read (the admission is held until it is dropped).
    async fn read_summarised(
        &self,
        summary: &PuzzleRecord,
        room: usize,
    ) -> Result<(PuzzleRecord, Option<Admitted>), AppError> {
        let id = summary.id.as_str();
        if is_small(summary) {
            return Ok((self.store.get_puzzle(id).await?, None));
        }
        let units = summary.spec.vertex_count.saturating_add(summary.edge_count);
        let name = format!("puzzles/{id}");
        let limit = self.message_limit as u64;
        if min_encoded_len(summary) + room as u64 > limit {
            return Err(AppError::ResponseTooLarge {
                message: format!(
                    "{name}: its edge list ({} edges) does not fit in the {limit}-byte \
                     message limit; ask with view PUZZLE_VIEW_BASIC",
                    summary.edge_count
                ),
            });
        }
        let admitted = self.admission.admit(units, &name).await?;
        let record = self.store.get_puzzle(id).await?;
        Ok((record, Some(admitted)))
    }

    /// One page of stored puzzles, newest first, each handed to `encode`
    /// with its stored winner, which gives the API's item and its size in
    /// a message. A FULL page ends before the puzzle that would take it
    /// past the message limit (`room` bytes kept for the page's own
    /// fields); a puzzle whose edge list alone could not fit ends it
    /// unread. A puzzle deleted since its page was read is left out.
    pub async fn page<T>(
        &self,
        query: PageQuery<'_>,
        room: usize,
        mut encode: impl FnMut(PuzzleRecord, Option<Player>) -> (T, u64),
    ) -> Result<Listed<T>, AppError> {
        let page = self
            .store
            .list_puzzles(query.filter, query.before, query.size)
            .await?;
        let ids: Vec<&str> = page.puzzles.iter().map(|p| p.id.as_str()).collect();
        let mut winners = self.winners(&ids).await?;
        let mut listed = Listed {
            items: Vec::with_capacity(page.puzzles.len()),
            next_before: page.next_before,
        };
        if query.view == View::Basic {
            for summary in page.puzzles {
                let winner = winners.remove(&summary.id);
                listed.items.push(encode(summary, winner).0);
            }
            return Ok(listed);
        }
        let budget = (self.message_limit as u64).saturating_sub(room as u64);
        let mut used = 0;
        for summary in page.puzzles {
            let (seq, winner) = (summary.seq, winners.remove(&summary.id));
            let fits = used + min_encoded_len(&summary) <= budget;
            let record = if fits {
                match self.read_summarised(&summary, room).await {
                    Ok((record, _admitted)) => record,
                    Err(AppError::NotFound { .. }) => continue,
                    Err(e) => return Err(e),
                }
            } else {
                summary
            };
            let (name, edges) = (format!("puzzles/{}", record.id), record.edge_count);
            let (item, size) = encode(record, winner);
            if fits && used + size <= budget {
                used += size;
                listed.items.push(item);
                continue;
            }
            if listed.items.is_empty() {
                return Err(AppError::ResponseTooLarge {
                    message: format!(
                        "{name}: its edge list ({edges} edges) does not fit in the {}-byte \
                         message limit; list with view PUZZLE_VIEW_BASIC",
                        self.message_limit
                    ),
                });
            }
            // The page ends here; the next one starts at this puzzle.
            listed.next_before = Some(seq + 1);
            break;
        }
        Ok(listed)
    }

    /// Hands every puzzle `filter` selects below `before` to `send`, newest
    /// first and whole, with its stored winner and the `seq` a next export
    /// resumes below, until the last one, the deadline, or `send` saying
    /// the client has gone (false). A page's small puzzles are read in one
    /// query; each large one by itself under admission, as a read is.
    pub async fn export<F>(
        &self,
        filter: ListFilter<'_>,
        mut before: Option<i64>,
        deadline: Option<Instant>,
        mut send: impl FnMut(PuzzleRecord, Option<Player>, i64) -> F,
    ) -> Result<(), AppError>
    where
        F: Future<Output = Result<bool, AppError>>,
    {
        loop {
            check_deadline(deadline)?;
            let page = self.store.list_puzzles(filter, before, EXPORT_PAGE).await?;
            // One query for the page's stored winners, from the summaries,
            // so that no page of full puzzles is held to ask it.
            let ids: Vec<&str> = page.puzzles.iter().map(|p| p.id.as_str()).collect();
            let mut winners = self.winners(&ids).await?;
            let small: Vec<&str> = page
                .puzzles
                .iter()
                .filter(|p| is_small(p))
                .map(|p| p.id.as_str())
                .collect();
            let mut small = self.store.get_puzzles(&small).await?;
            for summary in &page.puzzles {
                check_deadline(deadline)?;
                let read = match small.remove(&summary.id) {
                    Some(record) => Ok((record, None)),
                    // Deleted since the page was read.
                    None if is_small(summary) => continue,
                    None => self.read_summarised(summary, 1024).await,
                };
                let (record, _admitted) = match read {
                    Ok(read) => read,
                    Err(AppError::NotFound { .. }) => continue,
                    Err(e) => return Err(e),
                };
                let winner = winners.remove(&summary.id);
                if !send(record, winner, summary.seq).await? {
                    return Ok(());
                }
            }
            match page.next_before {
                Some(next) => before = Some(next),
                None => return Ok(()),
            }
        }
    }

    pub async fn delete(&self, id: &str) -> Result<(), AppError> {
        Ok(self.store.delete_puzzle(id).await?)
    }

    /// The stored puzzle `id` without its edges: its hash and shape.
    pub async fn summary(&self, id: &str) -> Result<PuzzleRecord, AppError> {
        Ok(self.store.get_puzzle_summary(id).await?)
    }

    /// Solves the stored puzzle of `summary` under admission of its size
    /// (and of a search's table); its edges are read only when the verdict
    /// must be computed. `caller` as for [`Solver::solve`].
    pub async fn solve(
        &self,
        summary: PuzzleRecord,
        options: SolveOptions,
        deadline: Option<Instant>,
        payer: &Payer,
    ) -> Result<Solved, AppError> {
        let units = summary
            .spec
            .vertex_count
            .saturating_add(summary.edge_count)
            .saturating_add(search_table_units(
                summary.spec.game,
                self.solver.search_budget_states(),
            ));
        let name = format!("puzzles/{}", summary.id);
        let _admitted = self.admission.admit(units, &name).await?;
        check_deadline(deadline)?;
        self.solver
            .solve_stored(StoredPuzzle::from(summary), options, deadline, payer)
            .await
    }

    /// The stored puzzle `id` open for position work under `admission`
    /// (the requests' budget, or the games'), holding `extra_units` more
    /// and `held` bytes of its request; with its verdict (winning moves
    /// included) when `wants_verdict` says its game starts from one, solved
    /// for `caller` if it must be.
    pub async fn open(
        &self,
        id: &str,
        admission: &Admission,
        (extra_units, held): (u64, u64),
        deadline: Option<Instant>,
        payer: &Payer,
        wants_verdict: impl FnOnce(crate::puzzle::Game) -> bool,
    ) -> Result<Opened, AppError> {
        let record = self.store.get_puzzle_summary(id).await?;
        let units = record
            .spec
            .vertex_count
            .saturating_add(record.edge_count)
            .saturating_add(extra_units)
            .saturating_add(search_table_units(
                record.spec.game,
                self.solver.search_budget_states(),
            ));
        let name = format!("puzzles/{id}");
        let admitted = admission.admit_holding(units, held, &name).await?;
        let (spec, verdict) = if wants_verdict(record.spec.game) {
            let options = SolveOptions {
                all_starts: false,
                winning_moves: true,
            };
            let (spec, solved) = self
                .solver
                .stored_with_verdict(&StoredPuzzle::from(record), options, deadline, payer)
                .await?;
            (spec, Some(solved.verdict))
        } else {
            (within(deadline, load_stored(&self.store, id)).await?, None)
        };
        Ok(Opened {
            spec,
            verdict,
            admitted,
        })
    }
}
