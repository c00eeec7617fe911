//! Answers to repeated `Solve` and `SolvePuzzle` requests, kept as they
//! were sent.
//!
//! A puzzle site asks the same small puzzles again and again. The
//! canonical path answers each repeat by labelling the graph, looking the
//! verdict up and relabelling and re-checking it in the caller's labels;
//! this memo answers a repeat of the very same request (spec and options,
//! byte for byte; or stored puzzle, the hash it is stored under, and
//! options) with the answer already made for it. Only answers that were
//! served are kept, so a verdict whose check failed is never in it; a
//! relabelled copy of a puzzle is another request and takes the canonical
//! path, where it finds the canonical verdict. Solver versions change only
//! with the binary, and a stored puzzle's edges never change (a rehash
//! gives it another key; a deleted one is not found before its key is
//! made), so an answer never goes stale.

use std::sync::Arc;

use moka::future::Cache;
use prost::Message as _;

use super::proto;
use crate::puzzle::SolveOptions;

/// The largest request kept: a puzzle a site shows, not an upload.
const MAX_REQUEST_BYTES: usize = 4096;

/// The largest answer kept.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// What an answer is kept under.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AnswerKey {
    /// A `Solve` request's bytes.
    Request(Vec<u8>),
    /// A `SolvePuzzle` request's puzzle, the hash that puzzle is stored
    /// under, and the request's options.
    Stored {
        id: String,
        canonical_hash: String,
        options: SolveOptions,
    },
}

impl AnswerKey {
    fn len(&self) -> usize {
        match self {
            AnswerKey::Request(bytes) => bytes.len(),
            AnswerKey::Stored {
                id, canonical_hash, ..
            } => 8 + id.len() + canonical_hash.len(),
        }
    }
}

/// Answers by request, bounded in bytes (least recently used first out).
#[derive(Clone)]
pub struct AnswerMemo {
    answers: Cache<AnswerKey, Arc<proto::Solution>>,
}

impl AnswerMemo {
    /// Entries held and the bytes they count.
    pub async fn sizes(&self) -> (u64, u64) {
        self.answers.run_pending_tasks().await;
        (self.answers.entry_count(), self.answers.weighted_size())
    }

    /// A memo of at most `capacity_bytes` of requests and answers.
    pub fn new(capacity_bytes: u64) -> AnswerMemo {
        AnswerMemo {
            answers: Cache::builder()
                .max_capacity(capacity_bytes)
                .weigher(|key: &AnswerKey, answer: &Arc<proto::Solution>| {
                    u32::try_from(key.len() + answer.encoded_len()).unwrap_or(u32::MAX)
                })
                .build(),
        }
    }

    /// The key of `request`, when it is small enough to be kept.
    pub fn key(request: &proto::SolveRequest) -> Option<AnswerKey> {
        (request.encoded_len() <= MAX_REQUEST_BYTES)
            .then(|| AnswerKey::Request(request.encode_to_vec()))
    }

    /// The key of a request to solve the stored puzzle `id` with
    /// `options`, while `canonical_hash` is the hash it is stored under.
    pub fn stored_key(id: &str, canonical_hash: &str, options: SolveOptions) -> AnswerKey {
        AnswerKey::Stored {
            id: id.to_owned(),
            canonical_hash: canonical_hash.to_owned(),
            options,
        }
    }

    /// The answer made for the request `key`, marked as cached.
    pub async fn get(&self, key: &AnswerKey) -> Option<proto::Solution> {
        let answer = self.answers.get(key).await;
        crate::metrics::metrics().cache_lookup(crate::caches::ANSWERS.lookups, answer.is_some());
        answer.map(|answer| (*answer).clone())
    }

    /// Keeps `answer`, just served for the request `key`.
    pub async fn insert(&self, key: AnswerKey, answer: &proto::Solution) {
        if answer.encoded_len() > MAX_ANSWER_BYTES {
            return;
        }
        let answer = proto::Solution {
            cached: true,
            ..answer.clone()
        };
        self.answers.insert(key, Arc::new(answer)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(vertex_count: u32, edges: Vec<u32>) -> proto::SolveRequest {
        proto::SolveRequest {
            spec: Some(proto::PuzzleSpec {
                game: proto::Game::Geography as i32,
                graph: Some(proto::Graph {
                    vertex_count,
                    edges,
                }),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn a_repeat_gets_the_answer_made_for_its_bytes_marked_cached() {
        let memo = AnswerMemo::new(crate::caches::ANSWERS.bytes());
        let key = AnswerMemo::key(&request(3, vec![0, 1, 1, 2])).unwrap();
        assert_eq!(memo.get(&key).await, None);
        let answer = proto::Solution {
            winner: proto::Player::First as i32,
            canonical_hash: "traces-v4:ab".into(),
            ..Default::default()
        };
        memo.insert(key.clone(), &answer).await;
        let again = memo.get(&key).await.unwrap();
        assert_eq!(
            again,
            proto::Solution {
                cached: true,
                ..answer
            }
        );
        // The same puzzle labelled otherwise is another request.
        let relabelled = AnswerMemo::key(&request(3, vec![1, 0, 1, 2])).unwrap();
        assert_eq!(memo.get(&relabelled).await, None);
    }

    #[tokio::test]
    async fn large_requests_and_answers_are_not_kept() {
        let edges: Vec<u32> = (0..2000).flat_map(|v| [v, v + 1]).collect();
        assert_eq!(AnswerMemo::key(&request(2001, edges)), None);
        let memo = AnswerMemo::new(crate::caches::ANSWERS.bytes());
        let key = AnswerMemo::key(&request(3, vec![0, 1])).unwrap();
        let large = proto::Solution {
            canonical_hash: "x".repeat(MAX_ANSWER_BYTES),
            ..Default::default()
        };
        memo.insert(key.clone(), &large).await;
        assert_eq!(memo.get(&key).await, None);
    }
}
