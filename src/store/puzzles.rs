//! Puzzles: create (idempotent by `request_id`), read, list, delete, and
//! the canonical hash each was stored with.

use std::sync::Arc;

use sha2::{Digest, Sha256};
use sqlx::AnyConnection;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::StoreVersion;
use super::db::{Store, from_micros, new_id, numbered_parameters};
use super::error::{StoreError, is_unique_violation};
use super::records::{Created, ListFilter, NewPuzzle, Page, PuzzleRead, PuzzleRecord};
use crate::puzzle::{Difficulty, Game, RawSpec};

/// Every column of a puzzle but its edge list. `length()` of a blob column
/// reads the blob's size from the record header, not the blob itself
/// (PostgreSQL: from the value's header, without decompressing it).
pub(super) const SUMMARY_COLUMNS: &str = "p.seq, p.id, p.game, p.vertex_count, p.start_vertex, \
     p.black, p.white, p.title, p.author, p.numbered_from, p.canonical_hash, p.create_time_us, \
     p.only_move_depth, p.losing_first_moves, p.first_move_count, p.margin, \
     CAST(length(p.edges) / 8 AS BIGINT) AS edge_count, \
     (SELECT d.id FROM puzzles d WHERE d.canonical_hash = p.canonical_hash AND d.seq < p.seq \
      ORDER BY d.seq LIMIT 1) AS duplicate_of";

impl Store {
    /// Inserts a puzzle. With a `request_id` already used for the same
    /// payload, returns the puzzle stored the first time; with one used for
    /// a different payload, fails with [`StoreError::RequestIdReused`].
    pub async fn create_puzzle(&self, new: NewPuzzle<'_>) -> Result<PuzzleRecord, StoreError> {
        Ok(self.create_or_replay(new).await?.record)
    }

    /// [`Store::create_puzzle`], saying whether the puzzle was stored now
    /// or its `request_id` had stored it before.
    pub async fn create_or_replay(&self, new: NewPuzzle<'_>) -> Result<Created, StoreError> {
        let _timer = crate::metrics::metrics().store_query("create_puzzle");
        let fingerprint = fingerprint(&new);
        let attempt = || {
            self.write(async |conn| {
                if let Some(request_id) = new.request_id {
                    let existing =
                        sqlx::query("SELECT id, request_fingerprint FROM puzzles WHERE request_id = $1")
                            .bind(request_id)
                            .fetch_optional(&mut *conn)
                            .await?;
                    if let Some(row) = existing {
                        let id: String = row.try_get("id")?;
                        let stored: Option<String> = row.try_get("request_fingerprint")?;
                        if stored.as_deref() != Some(fingerprint.as_str()) {
                            return Err(StoreError::RequestIdReused(request_id.to_owned()));
                        }
                        let record = read_puzzle(conn, &id).await?;
                        return Ok(Created {
                            record,
                            replayed: true,
                        });
                    }
                }
                let id = new_id();
                sqlx::query(
                    "INSERT INTO puzzles (id, game, vertex_count, edges, start_vertex, black, white, \
                     title, author, canonical_hash, canonical_labels, create_time_us, request_id, \
                     request_fingerprint, only_move_depth, losing_first_moves, first_move_count, \
                     margin, numbered_from) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, \
                     $16, $17, $18, $19)",
                )
                .bind(&id)
                .bind(new.game.as_str())
                .bind(new.vertex_count as i64)
                .bind(encode_words(new.edges))
                .bind(i64::from(new.start))
                .bind(new.black.map(i64::from))
                .bind(new.white.map(i64::from))
                .bind(new.title)
                .bind(new.author)
                .bind(new.canonical_hash)
                .bind(new.canonical_labels.map(encode_words))
                .bind(self.clock.now_us())
                .bind(new.request_id)
                .bind(new.request_id.map(|_| &fingerprint))
                .bind(new.difficulty.map(|d| i64::from(d.only_move_depth)))
                .bind(new.difficulty.map(|d| d.losing_first_moves as i64))
                .bind(new.difficulty.map(|d| d.first_move_count as i64))
                .bind(new.difficulty.and_then(|d| d.margin))
                .bind(i64::from(new.numbered_from))
                .execute(&mut *conn)
                .await?;
                // Read inside the transaction: a delete committed right after
                // cannot turn this create into NOT_FOUND.
                let record = read_puzzle(conn, &id).await?;
                Ok(Created {
                    record,
                    replayed: false,
                })
            })
        };
        let outcome = match attempt().await {
            // Another replica committed the same request_id between the
            // look-up and the insert (PostgreSQL; SQLite's write lock rules
            // it out): its row answers this request, as on a retry.
            Err(error) if new.request_id.is_some() && is_unique_violation(&error) => {
                attempt().await
            }
            outcome => outcome,
        };
        if let Some(kept) = &self.kept {
            kept.added();
        }
        outcome
    }

    /// The puzzle with `id`, edges included.
    pub async fn get_puzzle(&self, id: &str) -> Result<PuzzleRecord, StoreError> {
        if let Some(kept) = self.kept_record(id).await {
            return Ok((*kept).clone());
        }
        let version = self.version();
        let _timer = crate::metrics::metrics().store_query("get_puzzle");
        let mut conn = self.pool.acquire().await?;
        let record = read_puzzle(&mut conn, id).await?;
        self.keep_record(version, &record).await;
        Ok(record)
    }

    async fn kept_record(&self, id: &str) -> Option<Arc<PuzzleRecord>> {
        self.kept.as_ref()?.record(id).await
    }

    async fn keep_record(&self, version: Option<StoreVersion>, record: &PuzzleRecord) {
        if let (Some(kept), Some(version)) = (&self.kept, version) {
            kept.keep_record(version, record).await;
        }
    }

    /// The puzzle with `id`, edges included when its vertices + edges are
    /// at most `max_units`; a larger one's summary only, so that a caller
    /// can admit its size before reading it whole (one query either way).
    pub async fn get_puzzle_up_to(
        &self,
        id: &str,
        max_units: u64,
    ) -> Result<PuzzleRead, StoreError> {
        if let Some(kept) = self.kept_record(id).await {
            let units = kept.spec.vertex_count.saturating_add(kept.edge_count);
            return Ok(if units <= max_units {
                PuzzleRead::Whole((*kept).clone())
            } else {
                PuzzleRead::Summary(summary_of(&kept))
            });
        }
        let version = self.version();
        let _timer = crate::metrics::metrics().store_query("get_puzzle_up_to");
        // The same sum as `puzzle_from_row` gives, so that the query and the
        // caller agree on which side of `max_units` the puzzle is.
        let small = "p.vertex_count + length(p.edges) / 8 <= $2";
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS}, CASE WHEN {small} THEN p.edges END AS edges, \
             CASE WHEN {small} THEN p.canonical_labels END AS canonical_labels \
             FROM puzzles p WHERE p.id = $1"
        ));
        let row = sqlx::query(sql)
            .bind(id)
            .bind(i64::try_from(max_units).unwrap_or(i64::MAX))
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| StoreError::NotFound(id.to_owned()))?;
        let mut record = puzzle_from_row(&row)?;
        if record.spec.vertex_count.saturating_add(record.edge_count) > max_units {
            return Ok(PuzzleRead::Summary(record));
        }
        read_blobs(&row, &mut record)?;
        self.keep_record(version, &record).await;
        Ok(PuzzleRead::Whole(record))
    }

    /// The puzzles of `ids` whole, in one query, by id; an id with no
    /// puzzle (deleted since it was listed) is left out. The caller bounds
    /// their size (a page of summaries tells it), since they are all held
    /// at once. They are not kept in the cache of repeated reads: a bulk
    /// read of every puzzle would evict the ones being read again.
    pub async fn get_puzzles(
        &self,
        ids: &[&str],
    ) -> Result<std::collections::HashMap<String, PuzzleRecord>, StoreError> {
        let mut records = std::collections::HashMap::with_capacity(ids.len());
        if ids.is_empty() {
            return Ok(records);
        }
        let _timer = crate::metrics::metrics().store_query("get_puzzles");
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS}, p.edges, p.canonical_labels FROM puzzles p \
             WHERE p.id IN ({})",
            numbered_parameters(1, ids.len())
        ));
        let mut query = sqlx::query(sql);
        for id in ids {
            query = query.bind(*id);
        }
        for row in query.fetch_all(&self.pool).await? {
            let mut record = puzzle_from_row(&row)?;
            read_blobs(&row, &mut record)?;
            records.insert(record.id.clone(), record);
        }
        Ok(records)
    }

    /// The puzzle with `id` without its edge list (`spec.edges` empty).
    pub async fn get_puzzle_summary(&self, id: &str) -> Result<PuzzleRecord, StoreError> {
        if let Some(kept) = self.kept_record(id).await {
            return Ok(summary_of(&kept));
        }
        let _timer = crate::metrics::metrics().store_query("get_puzzle_summary");
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS} FROM puzzles p WHERE p.id = $1"
        ));
        let row = sqlx::query(sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| StoreError::NotFound(id.to_owned()))?;
        puzzle_from_row(&row)
    }

    /// Up to `limit` ids of puzzles hashed by an older canonicaliser and not
    /// yet rehashed, oldest first.
    pub async fn puzzles_to_rehash(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM puzzles WHERE rehash_pending = 1 ORDER BY seq LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?)
    }

    /// Gives the puzzle `id` its new canonical hash and labels, if its hash
    /// is still `old_hash` (a puzzle deleted meanwhile is left alone), and
    /// marks it rehashed.
    pub async fn set_canonical_hash(
        &self,
        id: &str,
        old_hash: &str,
        new_hash: &str,
        canonical_labels: Option<&[u32]>,
    ) -> Result<(), StoreError> {
        let (id, old_hash, new_hash) = (id.to_owned(), old_hash.to_owned(), new_hash.to_owned());
        let labels = canonical_labels.map(encode_words);
        let outcome = self
            .write(async |conn| {
                sqlx::query(
                "UPDATE puzzles SET canonical_hash = $1, canonical_labels = $2, rehash_pending = 0 \
                 WHERE id = $3 AND canonical_hash = $4",
            )
            .bind(&new_hash)
            .bind(&labels)
            .bind(&id)
            .bind(&old_hash)
            .execute(&mut *conn)
            .await?;
                Ok(())
            })
            .await;
        self.puzzles_changed();
        outcome
    }

    /// Up to `limit` puzzles with `seq < before` (all when `None`), newest
    /// first, optionally of one game and of one canonical hash. Walks an
    /// index: the primary key, `puzzles_by_game`, or
    /// `puzzles_by_canonical_hash` when filtered by hash.
    pub async fn list_puzzles(
        &self,
        filter: ListFilter<'_>,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Page, StoreError> {
        let _timer = crate::metrics::metrics().store_query("list_puzzles");
        let before = before.unwrap_or(i64::MAX);
        let fetch = i64::from(limit) + 1;
        let sql = sqlx::AssertSqlSafe(list_sql(
            filter.game.is_some(),
            filter.canonical_hash.is_some(),
        ));
        let mut query = sqlx::query(sql);
        if let Some(game) = filter.game {
            query = query.bind(game.as_str());
        }
        if let Some(hash) = filter.canonical_hash {
            query = query.bind(hash);
        }
        let rows = query.bind(before).bind(fetch).fetch_all(&self.pool).await?;
        let mut puzzles = rows
            .iter()
            .map(puzzle_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let next_before = if puzzles.len() > limit as usize {
            puzzles.truncate(limit as usize);
            puzzles.last().map(|p| p.seq)
        } else {
            None
        };
        Ok(Page {
            puzzles,
            next_before,
        })
    }

    /// Deletes the puzzle with `id`.
    pub async fn delete_puzzle(&self, id: &str) -> Result<(), StoreError> {
        let _timer = crate::metrics::metrics().store_query("delete_puzzle");
        let outcome = self
            .write(async |conn| {
                let done = sqlx::query("DELETE FROM puzzles WHERE id = $1")
                    .bind(id)
                    .execute(&mut *conn)
                    .await?;
                if done.rows_affected() == 0 {
                    return Err(StoreError::NotFound(id.to_owned()));
                }
                Ok(())
            })
            .await;
        self.puzzles_changed();
        outcome
    }

    /// Forgets what is kept in memory: a puzzle was deleted or rehashed.
    fn puzzles_changed(&self) {
        if let Some(kept) = &self.kept {
            kept.changed();
        }
    }
}

/// The listing query: its parameters are, in order, the game (when
/// `by_game`), the hash (when `by_hash`), the `seq` to list below and the
/// row limit.
pub(super) fn list_sql(by_game: bool, by_hash: bool) -> String {
    let mut conditions = Vec::new();
    if by_game {
        conditions.push("p.game = $");
    }
    if by_hash {
        conditions.push("p.canonical_hash = $");
    }
    conditions.push("p.seq < $");
    let conditions: Vec<String> = conditions
        .iter()
        .enumerate()
        .map(|(i, condition)| format!("{condition}{}", i + 1))
        .collect();
    let limit = conditions.len() + 1;
    format!(
        "SELECT {SUMMARY_COLUMNS} FROM puzzles p WHERE {} ORDER BY p.seq DESC LIMIT ${limit}",
        conditions.join(" AND ")
    )
}

/// The puzzle with `id`, edges included, read on `conn` (inside a
/// transaction when `conn` is one).
pub(super) async fn read_puzzle(
    conn: &mut AnyConnection,
    id: &str,
) -> Result<PuzzleRecord, StoreError> {
    let sql = sqlx::AssertSqlSafe(format!(
        "SELECT {SUMMARY_COLUMNS}, p.edges, p.canonical_labels FROM puzzles p WHERE p.id = $1"
    ));
    let row = sqlx::query(sql)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| StoreError::NotFound(id.to_owned()))?;
    let mut record = puzzle_from_row(&row)?;
    read_blobs(&row, &mut record)?;
    Ok(record)
}

/// `record` without its edges and canonical labels, as a summary read
/// gives it.
fn summary_of(record: &PuzzleRecord) -> PuzzleRecord {
    let spec = &record.spec;
    PuzzleRecord {
        seq: record.seq,
        id: record.id.clone(),
        spec: RawSpec {
            game: spec.game,
            vertex_count: spec.vertex_count,
            edges: Vec::new(),
            start: spec.start,
            black: spec.black,
            white: spec.white,
            title: spec.title.clone(),
            author: spec.author.clone(),
            numbered_from: spec.numbered_from,
        },
        canonical_hash: record.canonical_hash.clone(),
        create_time: record.create_time,
        duplicate_of: record.duplicate_of.clone(),
        edge_count: record.edge_count,
        canonical_labels: None,
        difficulty: record.difficulty,
    }
}

/// Sets the edges and canonical labels of `record` from `row`.
fn read_blobs(row: &AnyRow, record: &mut PuzzleRecord) -> Result<(), StoreError> {
    let edges: Vec<u8> = row.try_get("edges")?;
    record.spec.edges = decode_words(&edges)?;
    let labels: Option<Vec<u8>> = row.try_get("canonical_labels")?;
    record.canonical_labels = labels.map(|bytes| decode_words(&bytes)).transpose()?;
    Ok(())
}

/// A puzzle from the [`SUMMARY_COLUMNS`] of `row`, with no edges read.
pub(super) fn puzzle_from_row(row: &AnyRow) -> Result<PuzzleRecord, StoreError> {
    let game: String = row.try_get("game")?;
    let game =
        Game::from_name(&game).ok_or_else(|| StoreError::Corrupt(format!("game {game:?}")))?;
    let vertex = |name: &str| -> Result<Option<u32>, StoreError> {
        let value: Option<i64> = row.try_get(name)?;
        value
            .map(|v| u32::try_from(v).map_err(|_| StoreError::Corrupt(format!("{name} {v}"))))
            .transpose()
    };
    Ok(PuzzleRecord {
        seq: row.try_get("seq")?,
        id: row.try_get("id")?,
        spec: RawSpec {
            game,
            vertex_count: row.try_get::<i64, _>("vertex_count")? as u64,
            edges: Vec::new(),
            start: vertex("start_vertex")?.unwrap_or(0),
            black: vertex("black")?,
            white: vertex("white")?,
            title: row.try_get("title")?,
            author: row.try_get("author")?,
            numbered_from: u32::try_from(row.try_get::<i64, _>("numbered_from")?)
                .map_err(|_| StoreError::Corrupt("numbered_from".into()))?,
        },
        canonical_hash: row.try_get("canonical_hash")?,
        create_time: from_micros(row.try_get("create_time_us")?),
        duplicate_of: row.try_get("duplicate_of")?,
        edge_count: row.try_get::<i64, _>("edge_count")?.max(0) as u64,
        canonical_labels: None,
        difficulty: difficulty_from_row(row)?,
    })
}

/// The rating columns of `row`: none when the puzzle was never rated.
fn difficulty_from_row(row: &AnyRow) -> Result<Option<Difficulty>, StoreError> {
    let depth: Option<i64> = row.try_get("only_move_depth")?;
    let Some(depth) = depth else {
        return Ok(None);
    };
    let count = |name: &str| -> Result<u64, StoreError> {
        let value: Option<i64> = row.try_get(name)?;
        value
            .and_then(|v| u64::try_from(v).ok())
            .ok_or_else(|| StoreError::Corrupt(format!("{name} {value:?}")))
    };
    Ok(Some(Difficulty {
        only_move_depth: u32::try_from(depth)
            .map_err(|_| StoreError::Corrupt(format!("only_move_depth {depth}")))?,
        losing_first_moves: count("losing_first_moves")?,
        first_move_count: count("first_move_count")?,
        margin: row.try_get("margin")?,
    }))
}

pub(super) fn encode_words(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub(super) fn decode_words(bytes: &[u8]) -> Result<Vec<u32>, StoreError> {
    let (words, rest) = bytes.as_chunks::<4>();
    if !rest.is_empty() {
        return Err(StoreError::Corrupt("word blob length".into()));
    }
    Ok(words.iter().map(|w| u32::from_le_bytes(*w)).collect())
}

/// A digest of everything a create request stores, to tell a retry of the
/// same request from a reuse of its `request_id`.
pub(super) fn fingerprint(new: &NewPuzzle<'_>) -> String {
    let mut h = Sha256::new();
    h.update(new.game.as_str());
    h.update(new.vertex_count.to_le_bytes());
    h.update((new.edges.len() as u64).to_le_bytes());
    h.update(encode_words(new.edges));
    h.update(new.start.to_le_bytes());
    for v in [new.black, new.white] {
        let mut tagged = [0u8; 5];
        if let Some(v) = v {
            tagged[0] = 1;
            tagged[1..].copy_from_slice(&v.to_le_bytes());
        }
        h.update(tagged);
    }
    h.update((new.title.len() as u64).to_le_bytes());
    h.update(new.title);
    h.update((new.author.len() as u64).to_le_bytes());
    h.update(new.author);
    // Only when set, so that the digests of requests stored before the
    // field existed stay what they were.
    if new.numbered_from != 0 {
        h.update(b"numbered_from");
        h.update(new.numbered_from.to_le_bytes());
    }
    hex::encode(&h.finalize()[..16])
}

/// Whether `id` has the shape of an id this store makes.
pub fn is_well_formed_id(id: &str) -> bool {
    id.len() == 20 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}
