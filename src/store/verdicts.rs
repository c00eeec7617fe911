//! Verdicts by canonical hash, and their retention: rows kept within a
//! byte budget, the least recently used evicted first (verdicts of stored
//! puzzles never).

use std::time::Duration;

use sqlx::Row;

use super::db::{Store, from_micros, micros, numbered_parameters, write_uses};
use super::error::StoreError;
use crate::graph::Vertex;
use crate::puzzle::{Evidence, Move, Verdict, WinningMoves};
use crate::solver::Player;

/// Which stored verdict a lookup wants: the key, and what the row must
/// match besides it to be served.
#[derive(Debug, Clone, Copy)]
pub struct VerdictKey<'a> {
    pub canonical_hash: &'a str,
    /// Which extras were computed ("", "all_starts", …).
    pub options: &'a str,
    /// The canonical graph's shape.
    pub vertex_count: u64,
    pub edge_count: u64,
    /// The solver that must have computed it.
    pub solver_version: &'a str,
}

/// Whether a verdict was kept by [`Store::put_verdict`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retained {
    Stored,
    /// The row alone is larger than the whole retention budget.
    TooLarge,
}

impl Store {
    /// The verdict stored under `key`, when its shape and solver version
    /// match; a hit counts as a use for eviction. A row for another solver
    /// version is a miss (the fresh verdict replaces it); one of another
    /// shape is a miss and is logged (a corrupted or hand-edited row).
    pub async fn get_verdict(&self, key: VerdictKey<'_>) -> Result<Option<Verdict>, StoreError> {
        let _timer = crate::metrics::metrics().store_query("get_verdict");
        let row = sqlx::query(
            "SELECT vertex_count, edge_count, winner, evidence, winning_moves, solver_version, \
             solve_time_us, solve_duration_us FROM verdicts \
             WHERE canonical_hash = $1 AND options = $2",
        )
        .bind(key.canonical_hash)
        .bind(key.options)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let shape: (i64, i64) = (row.try_get("vertex_count")?, row.try_get("edge_count")?);
        if shape != (key.vertex_count as i64, key.edge_count as i64) {
            tracing::warn!(
                hash = key.canonical_hash,
                stored = ?shape,
                wanted = ?(key.vertex_count, key.edge_count),
                "a stored verdict has another shape than its hash's graph; solving again"
            );
            return Ok(None);
        }
        let solver_version: String = row.try_get("solver_version")?;
        if solver_version != key.solver_version {
            return Ok(None);
        }
        let winner: String = row.try_get("winner")?;
        let winner = player_from_column(&winner)?;
        let evidence: String = row.try_get("evidence")?;
        let evidence: Evidence = serde_json::from_str(&evidence)
            .map_err(|e| StoreError::Corrupt(format!("evidence: {e}")))?;
        let winning_moves: Option<String> = row.try_get("winning_moves")?;
        let winning_moves: Option<WinningMoves> = winning_moves
            .map(|w| serde_json::from_str::<StoredWinningMoves>(&w))
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("winning_moves: {e}")))?
            .map(|w| w.into_moves(&evidence));
        // The use only orders eviction: it is written behind, with the
        // others of its interval (Store::write_verdict_uses).
        self.uses
            .record(key.canonical_hash, key.options, self.clock.now_us());
        Ok(Some(Verdict {
            winner,
            evidence,
            winning_moves,
            solver_version,
            solve_time: from_micros(row.try_get("solve_time_us")?),
            solve_duration: Duration::from_micros(
                row.try_get::<i64, _>("solve_duration_us")?.max(0) as u64,
            ),
        }))
    }

    /// Stores (or replaces) the verdict under `key`, then evicts the least
    /// recently used verdicts of puzzles that are not stored until the
    /// rows fit the retention budget again; one transaction.
    pub async fn put_verdict(
        &self,
        key: VerdictKey<'_>,
        verdict: &Verdict,
    ) -> Result<Retained, StoreError> {
        let _timer = crate::metrics::metrics().store_query("put_verdict");
        let evidence = serde_json::to_string(&verdict.evidence)
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let winning_moves = verdict
            .winning_moves
            .as_ref()
            .map(|w| serde_json::to_string(&StoredWinningMoves::from(w)))
            .transpose()
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let winner = match verdict.winner {
            Player::First => "first",
            Player::Second => "second",
        };
        let size = verdict_row_bytes(key, &evidence, winning_moves.as_deref());
        if size > self.verdict_bytes {
            return Ok(Retained::TooLarge);
        }
        let written = self.write(async |conn| {
            // Take the usage row first: every verdict write changes it, and
            // a PostgreSQL writer that locked a verdict row before it would
            // deadlock with one evicting that row while holding the usage
            // row. SQLite's write lock orders writers anyway.
            sqlx::query("UPDATE verdict_usage SET total_bytes = total_bytes WHERE id = 1")
                .execute(&mut *conn)
                .await?;
            sqlx::query(
                "INSERT INTO verdicts (canonical_hash, options, vertex_count, edge_count, winner, \
                 evidence, winning_moves, solver_version, solve_time_us, solve_duration_us, \
                 last_used_us, size_bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
                 ON CONFLICT (canonical_hash, options) DO UPDATE SET \
                 vertex_count = excluded.vertex_count, edge_count = excluded.edge_count, \
                 winner = excluded.winner, evidence = excluded.evidence, \
                 winning_moves = excluded.winning_moves, solver_version = excluded.solver_version, \
                 solve_time_us = excluded.solve_time_us, \
                 solve_duration_us = excluded.solve_duration_us, \
                 last_used_us = excluded.last_used_us, size_bytes = excluded.size_bytes",
            )
            .bind(key.canonical_hash)
            .bind(key.options)
            .bind(key.vertex_count as i64)
            .bind(key.edge_count as i64)
            .bind(winner)
            .bind(evidence)
            .bind(winning_moves)
            .bind(&verdict.solver_version)
            .bind(micros(verdict.solve_time))
            .bind(verdict.solve_duration.as_micros() as i64)
            .bind(self.clock.now_us())
            .bind(size as i64)
            .execute(&mut *conn)
            .await?;
            let total: i64 = sqlx::query_scalar("SELECT total_bytes FROM verdict_usage")
                .fetch_one(&mut *conn)
                .await?;
            let mut remaining = total.max(0) as u64;
            let mut excess = remaining.saturating_sub(self.verdict_bytes);
            if excess > 0 {
                // Eviction goes by the uses written so far: the recent
                // reads' first.
                write_uses(conn, &self.uses.take()).await?;
            }
            while excess > 0 {
                // The least recently used verdicts nobody stored a puzzle for
                // (the new row included: a budget full of stored puzzles'
                // verdicts keeps those and lets the new one go).
                let oldest = sqlx::query(
                    "SELECT v.canonical_hash, v.options, v.size_bytes FROM verdicts v \
                     WHERE NOT EXISTS (SELECT 1 FROM puzzles p \
                                       WHERE p.canonical_hash = v.canonical_hash) \
                     ORDER BY v.last_used_us LIMIT 64",
                )
                .fetch_all(&mut *conn)
                .await?;
                if oldest.is_empty() {
                    break;
                }
                for row in &oldest {
                    let hash: String = row.try_get("canonical_hash")?;
                    let options: String = row.try_get("options")?;
                    let size: i64 = row.try_get("size_bytes")?;
                    sqlx::query("DELETE FROM verdicts WHERE canonical_hash = $1 AND options = $2")
                        .bind(&hash)
                        .bind(&options)
                        .execute(&mut *conn)
                        .await?;
                    excess = excess.saturating_sub(size.max(0) as u64);
                    remaining = remaining.saturating_sub(size.max(0) as u64);
                    if excess == 0 {
                        break;
                    }
                }
            }
            Ok(remaining)
        })
        .await;
        if let Some(kept) = &self.kept {
            kept.verdict_written();
        }
        crate::metrics::metrics().verdict_store_bytes(written?, self.verdict_bytes);
        Ok(Retained::Stored)
    }

    /// The winner of each puzzle of `ids` whose verdict is stored, computed
    /// by `solver_version` for the puzzle's shape (a verdict for any
    /// extras will do: the winner does not depend on them). Puzzles
    /// without one are left out. On SQLite each puzzle's answer is kept
    /// until a verdict is written or a puzzle deleted or rehashed.
    pub async fn stored_winners(
        &self,
        ids: &[&str],
        solver_version: &str,
    ) -> Result<std::collections::HashMap<String, Player>, StoreError> {
        let Some(kept) = &self.kept else {
            return self.read_winners(ids, solver_version).await;
        };
        let mut winners = std::collections::HashMap::new();
        let mut unknown = Vec::new();
        for &id in ids {
            match kept.winner(id, solver_version).await {
                Some(Some(winner)) => {
                    winners.insert(id.to_owned(), winner);
                }
                Some(None) => {}
                None => unknown.push(id),
            }
        }
        let version = kept.version();
        let read = self.read_winners(&unknown, solver_version).await?;
        for id in unknown {
            let winner = read.get(id).copied();
            kept.keep_winner(version, id, solver_version, winner).await;
        }
        winners.extend(read);
        Ok(winners)
    }

    /// [`Store::stored_winners`] of `ids`, from the database.
    async fn read_winners(
        &self,
        ids: &[&str],
        solver_version: &str,
    ) -> Result<std::collections::HashMap<String, Player>, StoreError> {
        let mut winners = std::collections::HashMap::new();
        if ids.is_empty() {
            return Ok(winners);
        }
        // Verdicts of one hash for other extras agree on the winner: MIN
        // only picks one row per puzzle.
        let sql = sqlx::AssertSqlSafe(format!(
            "SELECT p.id, MIN(v.winner) AS winner FROM puzzles p \
             JOIN verdicts v ON v.canonical_hash = p.canonical_hash \
             WHERE v.solver_version = $1 AND v.vertex_count = p.vertex_count \
             AND v.edge_count = CAST(length(p.edges) / 8 AS BIGINT) AND p.id IN ({}) \
             GROUP BY p.id",
            numbered_parameters(2, ids.len())
        ));
        let mut query = sqlx::query(sql).bind(solver_version);
        for id in ids {
            query = query.bind(*id);
        }
        for row in query.fetch_all(&self.pool).await? {
            let winner: String = row.try_get("winner")?;
            winners.insert(row.try_get("id")?, player_from_column(&winner)?);
        }
        Ok(winners)
    }

    /// Bytes the verdict rows count against the retention budget.
    pub async fn verdict_bytes_used(&self) -> Result<u64, StoreError> {
        let total: i64 = sqlx::query_scalar("SELECT total_bytes FROM verdict_usage")
            .fetch_one(&self.pool)
            .await?;
        Ok(total.max(0) as u64)
    }
}

/// What a verdict row counts against the budget: its text columns plus a
/// fixed allowance for the numbers, the key's index entry and page overhead.
pub(super) fn verdict_row_bytes(
    key: VerdictKey<'_>,
    evidence: &str,
    winning_moves: Option<&str>,
) -> u64 {
    const ROW_OVERHEAD: usize = 128;
    (2 * key.canonical_hash.len()
        + key.options.len()
        + key.solver_version.len()
        + evidence.len()
        + winning_moves.map_or(0, str::len)
        + ROW_OVERHEAD) as u64
}

/// A `winner` column's value.
pub(super) fn player_from_column(winner: &str) -> Result<Player, StoreError> {
    match winner {
        "first" => Ok(Player::First),
        "second" => Ok(Player::Second),
        other => Err(StoreError::Corrupt(format!("winner {other:?}"))),
    }
}

/// How a verdict's winning moves are kept in the `winning_moves` column:
/// a vertex move is `{"vertex": v}` whatever its game (the verdict's
/// evidence names the game), an edge `{"edge": [u, v]}`. The column format
/// predates the one move type of the solvers and stays as it is, so rows
/// written before read back unchanged.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct StoredWinningMoves {
    moves: Vec<StoredMove>,
    unique: bool,
    count: u64,
    complete: bool,
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum StoredMove {
    Vertex(Vertex),
    Edge(Vertex, Vertex),
}

impl From<&WinningMoves> for StoredWinningMoves {
    fn from(winning: &WinningMoves) -> StoredWinningMoves {
        StoredWinningMoves {
            moves: winning
                .moves
                .iter()
                .map(|m| match *m {
                    Move::Geography(v) | Move::Paint(v) => StoredMove::Vertex(v),
                    Move::Edge(u, v) => StoredMove::Edge(u, v),
                })
                .collect(),
            unique: winning.unique,
            count: winning.count,
            complete: winning.complete,
        }
    }
}

impl StoredWinningMoves {
    /// The moves of the game `evidence` is about.
    fn into_moves(self, evidence: &Evidence) -> WinningMoves {
        let vertex_move = match evidence {
            Evidence::TreePaint { .. } => Move::Paint,
            Evidence::Geography { .. }
            | Evidence::BipartiteEdge { .. }
            | Evidence::Search { .. } => Move::Geography,
        };
        WinningMoves {
            moves: self
                .moves
                .into_iter()
                .map(|m| match m {
                    StoredMove::Vertex(v) => vertex_move(v),
                    StoredMove::Edge(u, v) => Move::Edge(u, v),
                })
                .collect(),
            unique: self.unique,
            count: self.count,
            complete: self.complete,
        }
    }
}
