//! What a SQLite store keeps in memory once read: small stored puzzles
//! and the cached winner of each stored puzzle; and the version that tells
//! a caller whether what it read is still current. Only on SQLite: no other
//! server changes the file, so every change passes through this store.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::records::PuzzleRecord;
use crate::caches;
use crate::metrics::metrics;
use crate::solver::Player;

/// How many times each kind of change that can make a read stale has
/// happened. A read that may be kept takes the version *before* it
/// queries; a change counts itself *after* it commits. So a kept value is
/// served only while the changes it depends on have not moved since its
/// read began, and a read racing a change is never served once the change
/// has returned. Two equal versions mean that no read of puzzles, pages or
/// cached winners can tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreVersion {
    /// Deletes and rehashes: a puzzle's hash, its `duplicate_of`, or the
    /// puzzle itself went.
    changes: u64,
    /// Creates: a new puzzle heads the listings.
    additions: u64,
    /// Verdict writes (which are also the only evictions): a stored
    /// puzzle's cached winner may have come or gone.
    verdicts: u64,
}

/// A stored puzzle's cached winner (or that it has none) by one solver
/// version.
#[derive(Debug, Clone)]
struct KeptWinner {
    read_under: StoreVersion,
    solver_version: Arc<str>,
    winner: Option<Player>,
}

/// Stored puzzles of at most [`Kept::MAX_UNITS`] vertices + edges, whole,
/// by id, and the cached winner of stored puzzles, by id. Each is bounded
/// in bytes and kept with the [`StoreVersion`] it was read under.
#[derive(Clone)]
pub(super) struct Kept {
    records: moka::future::Cache<String, (StoreVersion, Arc<PuzzleRecord>)>,
    winners: moka::future::Cache<String, KeptWinner>,
    changes: Arc<AtomicU64>,
    additions: Arc<AtomicU64>,
    verdicts: Arc<AtomicU64>,
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kept")
            .field("records", &self.records.entry_count())
            .field("winners", &self.winners.entry_count())
            .finish()
    }
}

/// The bytes a kept record takes, roughly: its words and strings, plus an
/// allowance for the rest.
fn record_bytes(record: &PuzzleRecord) -> usize {
    let words = record.spec.edges.len() + record.canonical_labels.as_ref().map_or(0, Vec::len);
    256 + 4 * words + record.spec.title.len() + record.spec.author.len()
}

fn weight(bytes: usize) -> u32 {
    u32::try_from(bytes).unwrap_or(u32::MAX)
}

impl Kept {
    const MAX_UNITS: u64 = 4096;

    /// The entries and bytes of the kept records and winners.
    pub(super) async fn sizes(&self) -> Vec<(&'static str, u64, u64)> {
        self.records.run_pending_tasks().await;
        self.winners.run_pending_tasks().await;
        vec![
            (
                caches::KEPT_RECORDS.name,
                self.records.entry_count(),
                self.records.weighted_size(),
            ),
            (
                caches::KEPT_WINNERS.name,
                self.winners.entry_count(),
                self.winners.weighted_size(),
            ),
        ]
    }

    pub(super) fn new() -> Kept {
        Kept {
            records: moka::future::Cache::builder()
                .max_capacity(caches::KEPT_RECORDS.bytes())
                .weigher(|_, (_, record): &(StoreVersion, Arc<PuzzleRecord>)| {
                    weight(record_bytes(record))
                })
                .build(),
            winners: moka::future::Cache::builder()
                .max_capacity(caches::KEPT_WINNERS.bytes())
                .weigher(|id: &String, kept: &KeptWinner| {
                    weight(96 + id.len() + kept.solver_version.len())
                })
                .build(),
            changes: Arc::default(),
            additions: Arc::default(),
            verdicts: Arc::default(),
        }
    }

    /// The version a read that may be kept starts under.
    pub(super) fn version(&self) -> StoreVersion {
        StoreVersion {
            changes: self.changes.load(Ordering::SeqCst),
            additions: self.additions.load(Ordering::SeqCst),
            verdicts: self.verdicts.load(Ordering::SeqCst),
        }
    }

    pub(super) async fn record(&self, id: &str) -> Option<Arc<PuzzleRecord>> {
        let kept = self
            .records
            .get(id)
            .await
            .filter(|(read_under, _)| read_under.changes == self.version().changes)
            .map(|(_, record)| record);
        metrics().cache_lookup(caches::KEPT_RECORDS.lookups, kept.is_some());
        kept
    }

    /// Keeps `record`, read under `read_under`, if it is small.
    pub(super) async fn keep_record(&self, read_under: StoreVersion, record: &PuzzleRecord) {
        if record.spec.vertex_count.saturating_add(record.edge_count) <= Self::MAX_UNITS {
            let kept = (read_under, Arc::new(record.clone()));
            self.records.insert(record.id.clone(), kept).await;
        }
    }

    /// The kept winner of puzzle `id` by `solver_version`: `None` when
    /// nothing is kept, `Some(None)` when it is kept that there is none.
    pub(super) async fn winner(&self, id: &str, solver_version: &str) -> Option<Option<Player>> {
        let now = self.version();
        let kept = self.winners.get(id).await.filter(|kept| {
            kept.read_under.changes == now.changes
                && kept.read_under.verdicts == now.verdicts
                && *kept.solver_version == *solver_version
        });
        metrics().cache_lookup(caches::KEPT_WINNERS.lookups, kept.is_some());
        kept.map(|kept| kept.winner)
    }

    pub(super) async fn keep_winner(
        &self,
        read_under: StoreVersion,
        id: &str,
        solver_version: &str,
        winner: Option<Player>,
    ) {
        let kept = KeptWinner {
            read_under,
            solver_version: solver_version.into(),
            winner,
        };
        self.winners.insert(id.to_owned(), kept).await;
    }

    /// A puzzle was deleted or rehashed: forgets every record and winner.
    pub(super) fn changed(&self) {
        self.changes.fetch_add(1, Ordering::SeqCst);
        self.records.invalidate_all();
        self.winners.invalidate_all();
    }

    /// A puzzle was created (or a create failed after it may have
    /// committed).
    pub(super) fn added(&self) {
        self.additions.fetch_add(1, Ordering::SeqCst);
    }

    /// A verdict was written (or a write failed after it may have
    /// committed): a kept winner may be out of date.
    pub(super) fn verdict_written(&self) {
        self.verdicts.fetch_add(1, Ordering::SeqCst);
    }
}
