//! The handlers of `puzzled.v1.PuzzleService`: each takes its request
//! apart, checks it, and calls the store or the solver.

use std::sync::Arc;
use std::time::Instant;

use std::pin::Pin;

use prost::Message as _;
use tokio::sync::mpsc;
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};
use tonic_types::StatusExt as _;

use super::answers::{AnswerMemo, DEFAULT_MEMO_BYTES};
use super::convert::{self, View};
use super::positions::{Positions, PuzzleRef};
use super::proto;
use super::proto::puzzle_service_server::PuzzleService;
use super::reads::{DEFAULT_READ_MEMO_BYTES, ReadMemo, read_key};
use super::request::{caller_of, check_admin, deadline, record_name, record_solution};
use crate::app::Reason;
use crate::app::access::{Access, Caller};
use crate::app::admission::{Admission, Admitted, search_table_units};
use crate::app::deadline::{check_deadline, within};
use crate::app::pool::{INLINE_UNITS, off_runtime_if_large};
use crate::app::{AppError, Solver, StoredPuzzle, generate};
use crate::puzzle::{Limits, SolveOptions, Spec};
use crate::solver::SOLVER_VERSION;
use crate::store::{Created, ListFilter, NewPuzzle, PuzzleRead, PuzzleRecord, Store};

const DEFAULT_PAGE_SIZE: u32 = 50;
const MAX_PAGE_SIZE: u32 = 1000;
const MAX_REQUEST_ID_CHARS: usize = 100;

/// What to leave out of a solution that does not fit in a message.
fn smaller_solution(options: SolveOptions) -> &'static str {
    if options.all_starts || options.winning_moves {
        "; ask without include_all_starts and include_winning_moves"
    } else {
        ""
    }
}

/// The fewest bytes the edge list of `summary` takes in a message: a packed
/// `uint32` takes at least one byte, and an edge two of them.
fn min_encoded_len(summary: &PuzzleRecord) -> u64 {
    summary.edge_count.saturating_mul(2)
}

/// The API's memos, as the metrics read them.
#[derive(Clone)]
pub struct MemoSizes {
    answers: AnswerMemo,
    puzzles: ReadMemo<proto::Puzzle>,
    pages: ReadMemo<proto::ListPuzzlesResponse>,
}

impl MemoSizes {
    /// Each memo's entries and bytes.
    pub async fn read(&self) -> Vec<(&'static str, u64, u64)> {
        let (answers, puzzles, pages) = (
            self.answers.sizes().await,
            self.puzzles.sizes().await,
            self.pages.sizes().await,
        );
        vec![
            ("answers", answers.0, answers.1),
            ("puzzles", puzzles.0, puzzles.1),
            ("pages", pages.0, pages.1),
        ]
    }
}

/// The handlers of `puzzled.v1.PuzzleService`.
#[derive(Clone)]
pub struct PuzzleApi {
    store: Store,
    solver: Solver,
    limits: Limits,
    /// The admin and writer tokens, and the rate limits.
    access: Arc<Access>,
    /// The largest message the server sends; a full list page stays under it.
    max_message_bytes: usize,
    /// The size budget every puzzle-sized piece of work is admitted under.
    admission: Arc<Admission>,
    /// AnalyzePosition and Play.
    positions: Positions,
    /// Answers to repeated Solve and SolvePuzzle requests.
    answers: AnswerMemo,
    /// Answers to repeated GetPuzzle requests.
    puzzles: ReadMemo<proto::Puzzle>,
    /// Answers to repeated ListPuzzles requests.
    pages: ReadMemo<proto::ListPuzzlesResponse>,
}

/// Puzzles read from the store at a time by an export.
const EXPORT_PAGE: u32 = 64;

/// The most puzzles one ImportPuzzles call takes: its one response lists a
/// result for each, and must stay well under the message limit.
pub const MAX_IMPORT_PUZZLES: usize = 1000;

/// The result of one imported puzzle: the stored puzzle, or the code,
/// reason, field and message CreatePuzzle would have failed with.
fn import_result(
    index: usize,
    request_id: String,
    outcome: Result<Created, AppError>,
) -> proto::ImportResult {
    let mut result = proto::ImportResult {
        index: index as u32,
        request_id,
        ..Default::default()
    };
    match outcome {
        Ok(Created { record, replayed }) => {
            result.outcome = if replayed {
                proto::ImportOutcome::Replayed
            } else {
                proto::ImportOutcome::Created
            } as i32;
            result.name = format!("puzzles/{}", record.id);
            result.duplicate_of = record
                .duplicate_of
                .map(|d| format!("puzzles/{d}"))
                .unwrap_or_default();
        }
        Err(error) => {
            let status = Status::from(error);
            result.outcome = proto::ImportOutcome::Failed as i32;
            result.code = super::error::code_name(status.code()).to_owned();
            if let Some(info) = status.get_details_error_info() {
                result.field = info.metadata.get("field").cloned().unwrap_or_default();
                result.reason = info.reason;
            }
            result.message = status.message().to_owned();
        }
    }
    result
}

/// Whether a stored puzzle is small enough to read without admission
/// ([`INLINE_UNITS`] vertices + edges at most).
fn is_small(summary: &PuzzleRecord) -> bool {
    summary.spec.vertex_count.saturating_add(summary.edge_count) <= INLINE_UNITS
}

impl PuzzleApi {
    /// Sends every puzzle `filter` selects below `before` (newest first,
    /// FULL view, each with its resume token) until the last one, the
    /// deadline, or a client that stopped reading.
    async fn export(
        &self,
        filter: ListFilter<'_>,
        mut before: Option<i64>,
        deadline: Option<Instant>,
        outbound: &mpsc::Sender<Result<proto::ExportedPuzzle, Status>>,
    ) -> Result<(), AppError> {
        loop {
            check_deadline(deadline)?;
            let page = self.store.list_puzzles(filter, before, EXPORT_PAGE).await?;
            // One query for the page's stored winners, from the summaries,
            // so that no page of full puzzles is held to ask it.
            let ids: Vec<&str> = page.puzzles.iter().map(|p| p.id.as_str()).collect();
            let winners = self.store.stored_winners(&ids, SOLVER_VERSION).await?;
            // The page's small puzzles whole in one query (a page of them
            // is bounded by its length times the inline size); each large
            // one is read by itself under admission, as GetPuzzle reads it.
            let small: Vec<&str> = page
                .puzzles
                .iter()
                .filter(|p| is_small(p))
                .map(|p| p.id.as_str())
                .collect();
            let mut small = self.store.get_puzzles(&small).await?;
            for summary in &page.puzzles {
                check_deadline(deadline)?;
                let seq = summary.seq;
                let read = match small.remove(&summary.id) {
                    Some(record) => Ok((record, None)),
                    // Deleted since the page was read.
                    None if is_small(summary) => continue,
                    None => self.read_summarised(summary, 1024).await,
                };
                let (record, _admitted) = match read {
                    Ok(read) => read,
                    // Deleted since the page was read.
                    Err(AppError::NotFound { .. }) => continue,
                    Err(e) => return Err(e),
                };
                let mut puzzle = self.fit_export(convert::puzzle_to_proto(record), 1024);
                if puzzle.encoded_len() + 1024 > self.max_message_bytes {
                    return Err(AppError::ResponseTooLarge {
                        message: format!(
                            "{}: its edge list ({} edges) does not fit in the {}-byte message \
                             limit; resume after it with the previous resume_token, or read \
                             it from a server with a larger --max-message-bytes",
                            puzzle.name, puzzle.edge_count, self.max_message_bytes
                        ),
                    });
                }
                if let Some(&winner) = winners.get(summary.id.as_str()) {
                    puzzle.cached_winner = convert::player_to_proto(winner) as i32;
                }
                let exported = proto::ExportedPuzzle {
                    puzzle: Some(puzzle),
                    resume_token: convert::page_token::encode(seq, filter),
                };
                if outbound.send(Ok(exported)).await.is_err() {
                    // The client has gone: nothing is left to do.
                    return Ok(());
                }
            }
            match page.next_before {
                Some(next) => before = Some(next),
                None => return Ok(()),
            }
        }
    }

    pub fn new(
        store: Store,
        solver: Solver,
        limits: Limits,
        access: Arc<Access>,
        max_message_bytes: usize,
        admission: Arc<Admission>,
        positions: Positions,
    ) -> PuzzleApi {
        PuzzleApi {
            positions,
            answers: AnswerMemo::new(DEFAULT_MEMO_BYTES),
            puzzles: ReadMemo::new(DEFAULT_READ_MEMO_BYTES, "puzzle"),
            pages: ReadMemo::new(DEFAULT_READ_MEMO_BYTES, "page"),
            store,
            solver,
            limits,
            access,
            max_message_bytes,
            admission,
        }
    }

    /// The API's memos, to read their entries and bytes for the metrics.
    pub fn memo_sizes(&self) -> MemoSizes {
        MemoSizes {
            answers: self.answers.clone(),
            puzzles: self.puzzles.clone(),
            pages: self.pages.clone(),
        }
    }

    /// Who the call is charged to (see [`caller_of`]).
    fn caller<T>(&self, request: &Request<T>, token_required: bool) -> Result<Caller, AppError> {
        caller_of(&self.access, request, token_required)
    }

    /// `message` as the answer, unless it is larger than the message size
    /// limit (tonic would fail it on the way out, as OUT_OF_RANGE):
    /// RESOURCE_EXHAUSTED, reason `RESPONSE_TOO_LARGE`, saying what was too
    /// large (`what`) and what to ask for instead (`hint`).
    fn reply<M: prost::Message>(
        &self,
        message: M,
        what: &str,
        hint: &str,
    ) -> Result<Response<M>, Status> {
        let size = message.encoded_len();
        if size > self.max_message_bytes {
            return Err(AppError::ResponseTooLarge {
                message: format!(
                    "{what} is {size} bytes, over the {}-byte message limit \
                     (--max-message-bytes){hint}",
                    self.max_message_bytes
                ),
            }
            .into());
        }
        Ok(Response::new(message))
    }

    /// `puzzle` without its `canonical_sparse6` export when the two together
    /// would pass the message limit (`room` bytes are kept for the rest of
    /// the response): the export is a convenience, the edge list is not.
    fn fit_export(&self, mut puzzle: proto::Puzzle, room: usize) -> proto::Puzzle {
        if puzzle.encoded_len() + room > self.max_message_bytes
            && !puzzle.canonical_sparse6.is_empty()
        {
            tracing::info!(
                name = %puzzle.name,
                "canonical_sparse6 left out: with it the puzzle passes the message limit"
            );
            puzzle.canonical_sparse6.clear();
        }
        puzzle
    }

    /// The stored puzzle `id` with its edges, for a FULL view that keeps
    /// `room` bytes of its message for other fields: a small puzzle is read
    /// in one query, a larger one as [`PuzzleApi::read_summarised`] does.
    async fn read_whole(
        &self,
        id: &str,
        room: usize,
    ) -> Result<(PuzzleRecord, Option<Admitted>), AppError> {
        match self.store.get_puzzle_up_to(id, INLINE_UNITS).await? {
            PuzzleRead::Whole(record) => Ok((record, None)),
            PuzzleRead::Summary(summary) => self.read_summarised(&summary, room).await,
        }
    }

    /// The puzzle of `summary` with its edges, for a FULL view that keeps
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
        let limit = self.max_message_bytes as u64;
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

    /// Sets `cached_winner` on each of `puzzles` whose verdict is stored
    /// (by this solver version); one query for them all.
    async fn fill_cached_winners(&self, puzzles: &mut [proto::Puzzle]) -> Result<(), AppError> {
        let ids: Vec<&str> = puzzles
            .iter()
            .filter_map(|p| p.name.strip_prefix("puzzles/"))
            .collect();
        let winners = self.store.stored_winners(&ids, SOLVER_VERSION).await?;
        for puzzle in puzzles {
            let id = puzzle.name.strip_prefix("puzzles/").unwrap_or_default();
            if let Some(&winner) = winners.get(id) {
                puzzle.cached_winner = convert::player_to_proto(winner) as i32;
            }
        }
        Ok(())
    }

    /// Validates, hashes and stores the spec of `puzzle` under the optional
    /// idempotency key `request_id`, as CreatePuzzle and ImportPuzzles do.
    async fn store_puzzle(
        &self,
        puzzle: Option<proto::Puzzle>,
        request_id: &str,
    ) -> Result<Created, AppError> {
        let puzzle = puzzle.ok_or_else(|| AppError::missing("puzzle"))?;
        // Output-only fields are ignored, as AIP-203 asks.
        let proto::Puzzle {
            name: _,
            spec,
            canonical_hash: _,
            canonicaliser: _,
            canonical_sparse6: _,
            duplicate_of: _,
            edge_count: _,
            create_time: _,
            cached_winner: _,
            difficulty: _,
        } = puzzle;
        if request_id.chars().count() > MAX_REQUEST_ID_CHARS {
            return Err(AppError::invalid(
                "request_id",
                Reason::TextTooLong,
                format!("request_id: more than {MAX_REQUEST_ID_CHARS} characters"),
            ));
        }
        let limits = self.limits;
        let units = convert::units_of(spec.as_ref(), limits);
        let held = convert::held_bytes(spec.as_ref());
        let _admitted = self
            .admission
            .admit_holding(units, held, "puzzle.spec")
            .await?;
        let spec = off_runtime_if_large(units, move || {
            convert::spec_from_proto(spec, "puzzle.spec", limits)
        })
        .await??;
        let spec = Arc::new(spec);
        let canonical = self.solver.canonicalize(spec.clone()).await?;
        tracing::Span::current().record("canonical_hash", canonical.hash.as_str());
        let raw = spec.raw();
        self.store
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
            .await
            .map_err(AppError::from)
    }

    async fn solve_spec(
        &self,
        spec: Arc<Spec>,
        options: SolveOptions,
        deadline: Option<Instant>,
        caller: &Caller,
    ) -> Result<proto::Solution, AppError> {
        check_deadline(deadline)?;
        let started = Instant::now();
        let charge = || self.access.charge_solve(caller);
        let solved = self.solver.solve(spec, options, deadline, &charge).await?;
        let solution = convert::solved_to_proto(solved);
        record_solution(&solution, started);
        Ok(solution)
    }
}

#[tonic::async_trait]
impl PuzzleService for PuzzleApi {
    async fn create_puzzle(
        &self,
        request: Request<proto::CreatePuzzleRequest>,
    ) -> Result<Response<proto::Puzzle>, Status> {
        let caller = self.caller(&request, self.access.writes_need_a_token())?;
        self.access.charge_write(&caller)?;
        let proto::CreatePuzzleRequest { puzzle, request_id } = request.into_inner();
        let Created { record, .. } = self.store_puzzle(puzzle, &request_id).await?;
        let mut puzzle = self.fit_export(convert::puzzle_to_proto(record), 0);
        self.fill_cached_winners(std::slice::from_mut(&mut puzzle))
            .await?;
        let what = format!("{} with its edge list", puzzle.name);
        self.reply(puzzle, &what, "")
    }

    async fn get_puzzle(
        &self,
        request: Request<proto::GetPuzzleRequest>,
    ) -> Result<Response<proto::Puzzle>, Status> {
        record_name(&request.get_ref().name);
        let kept = read_key(&self.store, request.get_ref());
        if let Some((version, key)) = &kept
            && let Some(puzzle) = self.puzzles.get(key, *version).await
        {
            return Ok(Response::new(puzzle));
        }
        let proto::GetPuzzleRequest { name, view } = request.into_inner();
        let id = convert::id_from_name(&name, "name")?;
        let view = convert::view_from_proto(view, "view", View::Full)?;
        let (record, _admitted) = match view {
            View::Full => self.read_whole(id, 0).await?,
            View::Basic => (
                self.store
                    .get_puzzle_summary(id)
                    .await
                    .map_err(AppError::from)?,
                None,
            ),
        };
        let mut puzzle = self.fit_export(convert::puzzle_to_proto(record), 0);
        self.fill_cached_winners(std::slice::from_mut(&mut puzzle))
            .await?;
        let what = format!("{} with its edge list", puzzle.name);
        let reply = self.reply(puzzle, &what, "; ask with view PUZZLE_VIEW_BASIC")?;
        if let Some((version, key)) = kept {
            self.puzzles.insert(key, version, reply.get_ref()).await;
        }
        Ok(reply)
    }

    async fn list_puzzles(
        &self,
        request: Request<proto::ListPuzzlesRequest>,
    ) -> Result<Response<proto::ListPuzzlesResponse>, Status> {
        let kept = read_key(&self.store, request.get_ref());
        if let Some((version, key)) = &kept
            && let Some(page) = self.pages.get(key, *version).await
        {
            return Ok(Response::new(page));
        }
        let proto::ListPuzzlesRequest {
            page_size,
            page_token,
            game,
            view,
            canonical_hash,
        } = request.into_inner();
        let filter = ListFilter {
            game: convert::game_filter_from_proto(game, "game")?,
            canonical_hash: convert::hash_filter_from_proto(&canonical_hash, "canonical_hash")?,
        };
        let view = convert::view_from_proto(view, "view", View::Basic)?;
        let page_size = match page_size {
            0 => DEFAULT_PAGE_SIZE,
            n if n < 0 => {
                return Err(AppError::invalid(
                    "page_size",
                    Reason::NegativePageSize,
                    format!("page_size: {n} is negative"),
                )
                .into());
            }
            n => (n as u32).min(MAX_PAGE_SIZE),
        };
        let before = convert::page_token::decode(&page_token, filter)?;
        let page = self
            .store
            .list_puzzles(filter, before, page_size)
            .await
            .map_err(AppError::from)?;
        let mut next_before = page.next_before;
        let mut puzzles: Vec<proto::Puzzle> = Vec::with_capacity(page.puzzles.len());
        match view {
            View::Basic => puzzles.extend(page.puzzles.into_iter().map(convert::puzzle_to_proto)),
            View::Full => {
                // Room for the response's own fields around the puzzles.
                let budget = (self.max_message_bytes as u64).saturating_sub(1024);
                let mut used = 0;
                for summary in page.puzzles {
                    let seq = summary.seq;
                    // The page ends before a puzzle whose edge list alone
                    // cannot fit, without reading it.
                    let fits = used + min_encoded_len(&summary) <= budget;
                    let puzzle = if fits {
                        // A puzzle deleted since the page was read is left out.
                        let (record, _admitted) = match self.read_summarised(&summary, 1024).await {
                            Ok(read) => read,
                            Err(AppError::NotFound { .. }) => continue,
                            Err(e) => return Err(e.into()),
                        };
                        self.fit_export(convert::puzzle_to_proto(record), 1024)
                    } else {
                        convert::puzzle_to_proto(summary)
                    };
                    // Its size inside the response: the field tag and length.
                    let size = puzzle.encoded_len() as u64 + 8;
                    if !fits || used + size > budget {
                        if puzzles.is_empty() {
                            return Err(AppError::ResponseTooLarge {
                                message: format!(
                                    "{}: its edge list ({} edges) does not fit in the \
                                     {}-byte message limit; list with view \
                                     PUZZLE_VIEW_BASIC",
                                    puzzle.name, puzzle.edge_count, self.max_message_bytes
                                ),
                            }
                            .into());
                        }
                        // The page ends here; the next one starts at this puzzle.
                        next_before = Some(seq + 1);
                        break;
                    }
                    used += size;
                    puzzles.push(puzzle);
                }
            }
        }
        self.fill_cached_winners(&mut puzzles).await?;
        let page = proto::ListPuzzlesResponse {
            next_page_token: next_before
                .map(|b| convert::page_token::encode(b, filter))
                .unwrap_or_default(),
            puzzles,
        };
        let reply = self.reply(page, "the page", "; ask for a smaller page_size")?;
        if let Some((version, key)) = kept {
            self.pages.insert(key, version, reply.get_ref()).await;
        }
        Ok(reply)
    }

    async fn delete_puzzle(
        &self,
        request: Request<proto::DeletePuzzleRequest>,
    ) -> Result<Response<()>, Status> {
        check_admin(&self.access, &request)?;
        let proto::DeletePuzzleRequest { name } = request.into_inner();
        record_name(&name);
        let id = convert::id_from_name(&name, "name")?;
        self.store.delete_puzzle(id).await.map_err(AppError::from)?;
        Ok(Response::new(()))
    }

    async fn solve_puzzle(
        &self,
        request: Request<proto::SolvePuzzleRequest>,
    ) -> Result<Response<proto::Solution>, Status> {
        let deadline = deadline(&request);
        let caller = self.caller(&request, false)?;
        let proto::SolvePuzzleRequest {
            name,
            include_all_starts,
            include_winning_moves,
        } = request.into_inner();
        let options = SolveOptions {
            all_starts: include_all_starts,
            winning_moves: include_winning_moves,
        };
        record_name(&name);
        let work = async {
            let id = convert::id_from_name(&name, "name")?;
            // The summary holds the hash and shape; the edges are read only
            // when the verdict must be computed.
            let record = self.store.get_puzzle_summary(id).await?;
            let key = AnswerMemo::stored_key(&record.id, &record.canonical_hash, options);
            if let Some(answer) = self.answers.get(&key).await {
                record_solution(&answer, Instant::now());
                return Ok((answer, None));
            }
            let units = record
                .spec
                .vertex_count
                .saturating_add(record.edge_count)
                .saturating_add(search_table_units(
                    record.spec.game,
                    self.solver.search_budget_states(),
                ));
            let _admitted = self.admission.admit(units, &name).await?;
            check_deadline(deadline)?;
            let stored_hash = record.canonical_hash.clone();
            let started = Instant::now();
            let charge = || self.access.charge_solve(&caller);
            let solved = self
                .solver
                .solve_stored(StoredPuzzle::from(record), options, deadline, &charge)
                .await?;
            let solution = convert::solved_to_proto(solved);
            record_solution(&solution, started);
            // A puzzle rehashed meanwhile answers under its new hash, which
            // is not the key's.
            let keep = (solution.canonical_hash == stored_hash).then_some(key);
            Ok((solution, keep))
        };
        let (solution, key) = within(deadline, work).await?;
        let reply = self.reply(solution, "the solution", smaller_solution(options))?;
        if let Some(key) = key {
            self.answers.insert(key, reply.get_ref()).await;
        }
        Ok(reply)
    }

    async fn solve(
        &self,
        request: Request<proto::SolveRequest>,
    ) -> Result<Response<proto::Solution>, Status> {
        let deadline = deadline(&request);
        let caller = self.caller(&request, false)?;
        let request = request.into_inner();
        let key = AnswerMemo::key(&request);
        if let Some(key) = &key
            && let Some(answer) = self.answers.get(key).await
        {
            record_solution(&answer, Instant::now());
            return Ok(Response::new(answer));
        }
        let proto::SolveRequest {
            spec,
            include_all_starts,
            include_winning_moves,
        } = request;
        let limits = self.limits;
        let options = SolveOptions {
            all_starts: include_all_starts,
            winning_moves: include_winning_moves,
        };
        let work = async {
            let units = convert::units_of(spec.as_ref(), limits);
            let held = convert::held_bytes(spec.as_ref());
            let table = convert::search_units_of(spec.as_ref(), self.solver.search_budget_states());
            let _admitted = self
                .admission
                .admit_holding(units.saturating_add(table), held, "spec")
                .await?;
            let spec = off_runtime_if_large(units, move || {
                convert::spec_from_proto(spec, "spec", limits)
            })
            .await??;
            self.solve_spec(Arc::new(spec), options, deadline, &caller)
                .await
        };
        let solution = within(deadline, work).await?;
        let reply = self.reply(solution, "the solution", smaller_solution(options))?;
        if let Some(key) = key {
            self.answers.insert(key, reply.get_ref()).await;
        }
        Ok(reply)
    }

    async fn analyze_position(
        &self,
        request: Request<proto::AnalyzePositionRequest>,
    ) -> Result<Response<proto::PositionAnalysis>, Status> {
        let deadline = deadline(&request);
        let proto::AnalyzePositionRequest { puzzle, moves } = request.into_inner();
        let work = self
            .positions
            .analyze(puzzle.map(PuzzleRef::from), moves, deadline);
        let analysis = within(deadline, work).await?;
        self.reply(
            analysis,
            "the position's analysis",
            "; its evidence is as large as the graph",
        )
    }

    type ExportPuzzlesStream =
        Pin<Box<dyn Stream<Item = Result<proto::ExportedPuzzle, Status>> + Send>>;

    async fn export_puzzles(
        &self,
        request: Request<proto::ExportPuzzlesRequest>,
    ) -> Result<Response<Self::ExportPuzzlesStream>, Status> {
        let deadline = deadline(&request);
        let proto::ExportPuzzlesRequest {
            game,
            canonical_hash,
            page_token,
        } = request.into_inner();
        // Every field is checked before the stream starts.
        let game = convert::game_filter_from_proto(game, "game")?;
        let hash =
            convert::hash_filter_from_proto(&canonical_hash, "canonical_hash")?.map(str::to_owned);
        let filter = ListFilter {
            game,
            canonical_hash: hash.as_deref(),
        };
        let before = convert::page_token::decode(&page_token, filter)?;
        // A few puzzles ahead of the client, no more: the stream is paced by
        // its reader.
        let (outbound, puzzles) = mpsc::channel(4);
        let api = self.clone();
        tokio::spawn(async move {
            let filter = ListFilter {
                game,
                canonical_hash: hash.as_deref(),
            };
            if let Err(error) = api.export(filter, before, deadline, &outbound).await {
                let _ = outbound.send(Err(error.into())).await;
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(puzzles))))
    }

    async fn import_puzzles(
        &self,
        request: Request<Streaming<proto::ImportPuzzlesRequest>>,
    ) -> Result<Response<proto::ImportPuzzlesResponse>, Status> {
        let deadline = deadline(&request);
        let caller = self.caller(&request, self.access.writes_need_a_token())?;
        let mut inbound = request.into_inner();
        let mut summary = proto::ImportPuzzlesResponse::default();
        // The client's own stream errors (it cancelled, or sent a message
        // over the limit) end the call with their status.
        while let Some(message) = inbound.message().await? {
            check_deadline(deadline)?;
            let index = summary.results.len();
            if index == MAX_IMPORT_PUZZLES {
                return Err(AppError::Busy {
                    reason: Reason::TooManyPuzzles,
                    message: format!(
                        "ImportPuzzles takes at most {MAX_IMPORT_PUZZLES} puzzles a call; the \
                         first {MAX_IMPORT_PUZZLES} are stored (sending them again with their \
                         request_ids stores nothing twice): send the rest in another call"
                    ),
                }
                .into());
            }
            let proto::ImportPuzzlesRequest { puzzle, request_id } = message;
            let outcome = if request_id.is_empty() {
                Err(AppError::invalid(
                    "request_id",
                    Reason::RequestIdRequired,
                    "request_id: every imported puzzle needs one, so that a retried \
                     import stores nothing twice",
                ))
            } else {
                match self.access.charge_write(&caller) {
                    Ok(()) => self.store_puzzle(puzzle, &request_id).await,
                    Err(limited) => Err(limited),
                }
            };
            let result = import_result(index, request_id, outcome);
            match proto::ImportOutcome::try_from(result.outcome) {
                Ok(proto::ImportOutcome::Created) => summary.created_count += 1,
                Ok(proto::ImportOutcome::Replayed) => summary.replayed_count += 1,
                _ => summary.failed_count += 1,
            }
            summary.results.push(result);
        }
        self.reply(
            summary,
            "the import's summary",
            "; import fewer puzzles a call",
        )
    }

    type GeneratePuzzlesStream =
        Pin<Box<dyn Stream<Item = Result<proto::GeneratedPuzzle, Status>> + Send>>;

    async fn generate_puzzles(
        &self,
        request: Request<proto::GeneratePuzzlesRequest>,
    ) -> Result<Response<Self::GeneratePuzzlesStream>, Status> {
        let deadline = deadline(&request);
        let storing = request.get_ref().store;
        let caller = self.caller(&request, storing && self.access.writes_need_a_token())?;
        // Every field is checked before the stream starts.
        let (generate, delivery) = convert::generate_request_from_proto(
            request.into_inner(),
            self.limits,
            self.solver.search_budget_states(),
        )?;
        let generator = generate::Generator::new(generate).map_err(AppError::from)?;
        // One puzzle ahead of the client, no more: the stream is paced by
        // its reader, and a client that leaves stops the search.
        let (outbound, puzzles) = mpsc::channel(1);
        let api = self.clone();
        tokio::spawn(async move {
            let charge = || api.access.charge_write(&caller);
            let deliver = |found: generate::Found| {
                let sent = outbound.clone();
                async move {
                    let puzzle = convert::generated_to_proto(found);
                    sent.send(Ok(puzzle)).await.is_ok()
                }
            };
            let outcome = generate::generate(
                &api.solver,
                &api.store,
                &api.admission,
                generator,
                delivery,
                deadline,
                &charge,
                deliver,
            );
            // A client that leaves closes the channel: the search stops.
            let outcome = tokio::select! {
                outcome = outcome => outcome,
                () = outbound.closed() => return,
            };
            if let Err(error) = outcome {
                let _ = outbound.send(Err(error.into())).await;
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(puzzles))))
    }

    type PlayStream = Pin<Box<dyn Stream<Item = Result<proto::PlayResponse, Status>> + Send>>;

    async fn play(
        &self,
        request: Request<Streaming<proto::PlayRequest>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let inbound = request.into_inner();
        // One response per client message, so a short queue suffices.
        let (outbound, responses) = mpsc::channel(4);
        tokio::spawn(self.positions.clone().play(inbound, outbound));
        Ok(Response::new(Box::pin(ReceiverStream::new(responses))))
    }
}
