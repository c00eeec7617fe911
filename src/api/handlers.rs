//! The handlers of `puzzled.v1.PuzzleService`: each decodes its request,
//! calls one use case of the application core, and encodes the answer.

use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use prost::Message as _;
use tokio::sync::mpsc;
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};
use tonic_types::StatusExt as _;

use super::answers::AnswerMemo;
use super::positions::{Positions, PuzzleRef};
use super::proto;
use super::proto::puzzle_service_server::PuzzleService;
use super::reads::{ReadMemo, read_key};
use super::request::{caller_of, check_admin, deadline, record_name, record_solution};
use super::{decode, encode, page_token, sizing};
use crate::app::access::{Access, Caller};
use crate::app::admission::Admission;
use crate::app::catalog::{
    Catalog, Created, ListFilter, PageQuery, PuzzleRecord, Submission, View,
};
use crate::app::deadline::{check_deadline, within};
use crate::app::pool::off_runtime_if_large;
use crate::app::work_budget::Payer;
use crate::app::{AppError, Reason, Solver, generate};
use crate::caches;
use crate::puzzle::{Limits, SolveOptions, Spec};
use crate::solver::Player;

const DEFAULT_PAGE_SIZE: u32 = 50;
const MAX_PAGE_SIZE: u32 = 1000;

/// What to leave out of a solution that does not fit in a message.
fn smaller_solution(options: SolveOptions) -> &'static str {
    if options.all_starts || options.winning_moves {
        "; ask without include_all_starts and include_winning_moves"
    } else {
        ""
    }
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
            (caches::ANSWERS.name, answers.0, answers.1),
            (caches::PUZZLES.name, puzzles.0, puzzles.1),
            (caches::PAGES.name, pages.0, pages.1),
        ]
    }
}

/// What the handlers call: the application core's use cases, and the
/// access rules and admission they are checked and sized by.
pub struct UseCases {
    pub catalog: Catalog,
    pub generations: generate::Generations,
    pub positions: Positions,
    pub solver: Solver,
    pub access: Arc<Access>,
    pub admission: Arc<Admission>,
}

/// The handlers of `puzzled.v1.PuzzleService`.
#[derive(Clone)]
pub struct PuzzleApi {
    /// The stored puzzles' use cases.
    catalog: Catalog,
    /// GeneratePuzzles' use case.
    generations: generate::Generations,
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

impl PuzzleApi {
    /// Sends every puzzle `filter` selects below `before` (newest first,
    /// FULL view, each with its resume token) until the last one, the
    /// deadline, or a client that stopped reading.
    async fn export(
        &self,
        filter: ListFilter<'_>,
        before: Option<i64>,
        deadline: Option<Instant>,
        outbound: &mpsc::Sender<Result<proto::ExportedPuzzle, Status>>,
    ) -> Result<(), AppError> {
        let send = |record: PuzzleRecord, winner: Option<Player>, seq: i64| {
            let exported = self.export_item(record, winner, seq, filter);
            async move {
                // A client that has gone leaves nothing to do.
                Ok(outbound.send(Ok(exported?)).await.is_ok())
            }
        };
        self.catalog.export(filter, before, deadline, send).await
    }

    /// One exported puzzle, refused when it does not fit in a message.
    fn export_item(
        &self,
        record: PuzzleRecord,
        winner: Option<Player>,
        seq: i64,
        filter: ListFilter<'_>,
    ) -> Result<proto::ExportedPuzzle, AppError> {
        let puzzle = self.fit_export(encode::stored_puzzle_to_proto(record, winner), 1024);
        if puzzle.encoded_len() + 1024 > self.max_message_bytes {
            return Err(AppError::ResponseTooLarge {
                message: format!(
                    "{}: its edge list ({} edges) does not fit in the {}-byte message \
                     limit; resume after it with the previous resume_token, or read it \
                     from a server with a larger --max-message-bytes",
                    puzzle.name, puzzle.edge_count, self.max_message_bytes
                ),
            });
        }
        Ok(proto::ExportedPuzzle {
            puzzle: Some(puzzle),
            resume_token: page_token::encode(seq, filter),
        })
    }

    pub fn new(core: UseCases, limits: Limits, max_message_bytes: usize) -> PuzzleApi {
        let UseCases {
            catalog,
            generations,
            positions,
            solver,
            access,
            admission,
        } = core;
        PuzzleApi {
            positions,
            answers: AnswerMemo::new(caches::ANSWERS.bytes()),
            puzzles: ReadMemo::new(caches::PUZZLES.bytes(), caches::PUZZLES.lookups),
            pages: ReadMemo::new(caches::PAGES.bytes(), caches::PAGES.lookups),
            catalog,
            generations,
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

    /// Stores the spec of `puzzle` under the optional idempotency key
    /// `request_id`, as CreatePuzzle and ImportPuzzles do.
    async fn store_puzzle(
        &self,
        puzzle: Option<proto::Puzzle>,
        request_id: &str,
        caller: &Caller,
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
            rating: _,
        } = puzzle;
        let limits = self.limits;
        let submission = Submission {
            units: sizing::units_of(spec.as_ref(), limits),
            held: sizing::held_bytes(spec.as_ref()),
            field: "puzzle.spec",
            decode: move || decode::spec_from_proto(spec, "puzzle.spec", limits),
        };
        self.catalog
            .create(submission, request_id, &Payer::new(caller.clone()))
            .await
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
        let payer = Payer::new(caller.clone());
        let solved = self.solver.solve(spec, options, deadline, &payer).await?;
        let solution = encode::solved_to_proto(solved);
        record_solution(&solution, started);
        Ok(solution)
    }

    /// The filter of a list or an export, checked.
    fn filter<'a>(game: i32, canonical_hash: &'a str) -> Result<ListFilter<'a>, AppError> {
        Ok(ListFilter {
            game: decode::game_filter_from_proto(game, "game")?,
            canonical_hash: decode::hash_filter_from_proto(canonical_hash, "canonical_hash")?,
        })
    }
}

/// The page size asked for: the default when unset, at most the largest.
fn page_size(asked: i32) -> Result<u32, AppError> {
    match asked {
        0 => Ok(DEFAULT_PAGE_SIZE),
        n if n < 0 => Err(AppError::invalid(
            "page_size",
            Reason::NegativePageSize,
            format!("page_size: {n} is negative"),
        )),
        n => Ok((n as u32).min(MAX_PAGE_SIZE)),
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
        let Created { record, .. } = self.store_puzzle(puzzle, &request_id, &caller).await?;
        // One puzzle, one hash on the call's log line (an import stores
        // many under one span, and logs none).
        tracing::Span::current().record("canonical_hash", record.canonical_hash.as_str());
        let winner = self.catalog.created_winner(&record).await?;
        let puzzle = self.fit_export(encode::stored_puzzle_to_proto(record, winner), 0);
        let what = format!("{} with its edge list", puzzle.name);
        self.reply(puzzle, &what, "")
    }

    async fn get_puzzle(
        &self,
        request: Request<proto::GetPuzzleRequest>,
    ) -> Result<Response<proto::Puzzle>, Status> {
        record_name(&request.get_ref().name);
        let kept = read_key(self.catalog.version(), request.get_ref());
        if let Some((version, key)) = &kept
            && let Some(puzzle) = self.puzzles.get(key, *version).await
        {
            return Ok(Response::new(puzzle));
        }
        let proto::GetPuzzleRequest { name, view } = request.into_inner();
        let id = decode::id_from_name(&name, "name")?;
        let view = decode::view_from_proto(view, "view", View::Full)?;
        let read = self.catalog.read(id, view, 0).await?;
        let puzzle = self.fit_export(encode::stored_puzzle_to_proto(read.record, read.winner), 0);
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
        let kept = read_key(self.catalog.version(), request.get_ref());
        if let Some((version, key)) = &kept
            && let Some(page) = self.pages.get(key, *version).await
        {
            return Ok(Response::new(page));
        }
        let proto::ListPuzzlesRequest {
            page_size: asked_size,
            page_token,
            game,
            view,
            canonical_hash,
        } = request.into_inner();
        let filter = Self::filter(game, &canonical_hash)?;
        let query = PageQuery {
            filter,
            before: page_token::decode(&page_token, filter)?,
            size: page_size(asked_size)?,
            view: decode::view_from_proto(view, "view", View::Basic)?,
        };
        // Each puzzle as the page sends it, and its size there (its field
        // tag and length included); 1024 bytes kept for the page's own.
        let listed = self
            .catalog
            .page(query, 1024, |record, winner| {
                let puzzle = self.fit_export(encode::stored_puzzle_to_proto(record, winner), 1024);
                let size = puzzle.encoded_len() as u64 + 8;
                (puzzle, size)
            })
            .await?;
        let page = proto::ListPuzzlesResponse {
            next_page_token: listed
                .next_before
                .map(|b| page_token::encode(b, filter))
                .unwrap_or_default(),
            puzzles: listed.items,
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
        let id = decode::id_from_name(&name, "name")?;
        self.catalog.delete(id).await?;
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
            let id = decode::id_from_name(&name, "name")?;
            // The summary holds the hash and shape; the edges are read only
            // when the verdict must be computed.
            let summary = self.catalog.summary(id).await?;
            let key = AnswerMemo::stored_key(&summary.id, &summary.canonical_hash, options);
            if let Some(answer) = self.answers.get(&key).await {
                record_solution(&answer, Instant::now());
                return Ok((answer, None));
            }
            let stored_hash = summary.canonical_hash.clone();
            let started = Instant::now();
            let solved = self
                .catalog
                .solve(summary, options, deadline, &Payer::new(caller.clone()))
                .await?;
            let solution = encode::solved_to_proto(solved);
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
            let units = sizing::units_of(spec.as_ref(), limits);
            let held = sizing::held_bytes(spec.as_ref());
            let table = sizing::search_units_of(spec.as_ref(), self.solver.search_budget_states());
            let _admitted = self
                .admission
                .admit_holding(units.saturating_add(table), held, "spec")
                .await?;
            let spec =
                off_runtime_if_large(units, move || decode::spec_from_proto(spec, "spec", limits))
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
        let caller = self.caller(&request, false)?;
        let proto::AnalyzePositionRequest { puzzle, moves } = request.into_inner();
        let work = self
            .positions
            .analyze(puzzle.map(PuzzleRef::from), moves, deadline, &caller);
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
        let filter = Self::filter(game, &canonical_hash)?;
        let before = page_token::decode(&page_token, filter)?;
        let game = filter.game;
        let hash = filter.canonical_hash.map(str::to_owned);
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
        // The client's own stream errors (it cancelled, sent a message over
        // the limit, or sent its next one too slowly) end the call with
        // their status and no summary: each puzzle before was stored as it
        // came, and a replay of the same request_ids reports it REPLAYED.
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
                    Ok(()) => self.store_puzzle(puzzle, &request_id, &caller).await,
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
        let ask = decode::generate_ask_from_proto(request.into_inner())?;
        let (generate, delivery) = ask.prepare(self.limits, self.solver.search_budget_states())?;
        let generator = generate::Generator::new(generate).map_err(AppError::from)?;
        self.solver.check_budget(&Payer::new(caller.clone()))?;
        // One puzzle ahead of the client, no more: the stream is paced by
        // its reader, and a client that leaves stops the search.
        let (outbound, puzzles) = mpsc::channel(1);
        let api = self.clone();
        tokio::spawn(async move {
            let charge = || api.access.charge_write(&caller);
            let deliver = |found: generate::Found| {
                let sent = outbound.clone();
                async move {
                    let puzzle = encode::generated_to_proto(found);
                    sent.send(Ok(puzzle)).await.is_ok()
                }
            };
            let outcome = api
                .generations
                .generate(generator, delivery, deadline, &caller, &charge, deliver);
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
        let caller = self.caller(&request, false)?;
        let inbound = request.into_inner();
        // One response per client message, so a short queue suffices.
        let (outbound, responses) = mpsc::channel(4);
        tokio::spawn(self.positions.clone().play(inbound, outbound, caller));
        Ok(Response::new(Box::pin(ReceiverStream::new(responses))))
    }
}
