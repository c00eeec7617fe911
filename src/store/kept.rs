//! Small stored puzzles kept in memory once read (SQLite only: no other
//! server changes the file).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::puzzles::PuzzleRecord;

/// Stored puzzles of at most [`KeptPuzzles::MAX_UNITS`] vertices + edges,
/// whole, by id. A stored puzzle changes only when it is deleted or
/// rehashed (its hash, and the `duplicate_of` of its copies); either
/// starts a new generation. Each record is kept with the generation that
/// was current before it was read and is served only while that
/// generation lasts, so a read racing a change never serves what the
/// change removed once the change has returned.
#[derive(Clone)]
pub(super) struct KeptPuzzles {
    records: moka::future::Cache<String, (u64, Arc<PuzzleRecord>)>,
    generation: Arc<AtomicU64>,
}

impl std::fmt::Debug for KeptPuzzles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptPuzzles")
            .field("entries", &self.records.entry_count())
            .finish()
    }
}

impl KeptPuzzles {
    pub(super) const MAX_UNITS: u64 = 4096;
    const CAPACITY_BYTES: u64 = 64 << 20;

    pub(super) fn new() -> KeptPuzzles {
        KeptPuzzles {
            records: moka::future::Cache::builder()
                .max_capacity(Self::CAPACITY_BYTES)
                .weigher(|_, (_, record): &(u64, Arc<PuzzleRecord>)| {
                    let words = record.spec.edges.len()
                        + record.canonical_labels.as_ref().map_or(0, Vec::len);
                    let bytes =
                        256 + 4 * words + record.spec.title.len() + record.spec.author.len();
                    u32::try_from(bytes).unwrap_or(u32::MAX)
                })
                .build(),
            generation: Arc::default(),
        }
    }

    /// The generation a read that may be kept starts under.
    pub(super) fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    pub(super) async fn get(&self, id: &str) -> Option<Arc<PuzzleRecord>> {
        let (generation, record) = self.records.get(id).await?;
        (generation == self.generation()).then_some(record)
    }

    /// Keeps `record`, read under `generation`, if it is small.
    pub(super) async fn keep(&self, generation: u64, record: &PuzzleRecord) {
        if record.spec.vertex_count.saturating_add(record.edge_count) <= Self::MAX_UNITS {
            let kept = (generation, Arc::new(record.clone()));
            self.records.insert(record.id.clone(), kept).await;
        }
    }

    /// Forgets every record: a puzzle was deleted or rehashed.
    pub(super) fn change(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.records.invalidate_all();
    }
}
