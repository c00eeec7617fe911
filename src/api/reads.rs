//! Answers to repeated `GetPuzzle` and `ListPuzzles` requests, kept while
//! the store has not changed.
//!
//! A puzzle site shows its puzzles and first pages far more often than
//! anything is stored, deleted or solved. On SQLite the store has a
//! version ([`Catalog::version`](crate::app::catalog::Catalog::version)) that every
//! create, delete, rehash and verdict write moves: an answer made under
//! one version (taken before its reads) is served again, the same message,
//! to the same request while the version stays the same. On PostgreSQL
//! other replicas write unseen, there is no version, and nothing is kept.

use std::sync::Arc;

use moka::future::Cache;

use crate::app::catalog::StoreVersion;

/// The store's version now and the key of `request`, when answers to
/// reads may be kept (SQLite). Taken before any read, so that an answer
/// is kept only while no write can have come between its reads and a
/// repeat.
pub fn read_key(
    version: Option<StoreVersion>,
    request: &impl prost::Message,
) -> Option<(StoreVersion, Vec<u8>)> {
    Some((version?, request.encode_to_vec()))
}

/// The largest answer kept.
const MAX_ANSWER_BYTES: usize = 1 << 20;

/// Answers of type `M` by request bytes (see [`read_key`]), each with the
/// store version it was made under; bounded in bytes (least recently used
/// first out).
#[derive(Clone)]
pub struct ReadMemo<M> {
    answers: Cache<Vec<u8>, (StoreVersion, Arc<M>)>,
    /// The `level` its lookups are counted under.
    level: &'static str,
}

impl<M: prost::Message + Clone + Send + Sync + 'static> ReadMemo<M> {
    /// Entries held and the bytes they count.
    pub async fn sizes(&self) -> (u64, u64) {
        self.answers.run_pending_tasks().await;
        (self.answers.entry_count(), self.answers.weighted_size())
    }

    /// A memo of at most `capacity_bytes` of requests and answers, its
    /// lookups counted as `level`.
    pub fn new(capacity_bytes: u64, level: &'static str) -> ReadMemo<M> {
        ReadMemo {
            answers: Cache::builder()
                .max_capacity(capacity_bytes)
                .weigher(|key: &Vec<u8>, (_, answer): &(StoreVersion, Arc<M>)| {
                    u32::try_from(key.len() + answer.encoded_len()).unwrap_or(u32::MAX)
                })
                .build(),
            level,
        }
    }

    /// The answer made for the request `key`, if it was made under the
    /// store's version `now`.
    pub async fn get(&self, key: &[u8], now: StoreVersion) -> Option<M> {
        let answer = self
            .answers
            .get(key)
            .await
            .filter(|(made_under, _)| *made_under == now);
        crate::metrics::metrics().cache_lookup(self.level, answer.is_some());
        answer.map(|(_, answer)| (*answer).clone())
    }

    /// Keeps `answer`, just served for the request `key` from reads that
    /// began under the store's version `made_under`.
    pub async fn insert(&self, key: Vec<u8>, made_under: StoreVersion, answer: &M) {
        if answer.encoded_len() <= MAX_ANSWER_BYTES {
            let kept = (made_under, Arc::new(answer.clone()));
            self.answers.insert(key, kept).await;
        }
    }
}
