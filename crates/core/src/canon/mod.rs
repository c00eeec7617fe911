//! The canonical form of a puzzle and its hash: the cache key.
//!
//! Two puzzles with the same canonical hash have the same verdict up to a
//! relabelling, so the cache and the `duplicate_of` link are keyed by it.
//! The hash names the canonicaliser that made it, so forms from different
//! canonicalisers can never be mistaken for one another:
//!
//! - `traces-v4`: isomorphism-invariant. The trees hanging off the graph
//!   and its tree components are labelled by their rooted-tree forms (see
//!   `trees`); the rest, the core, is coloured with the distinguished
//!   vertices as colour classes in game order before all other vertices
//!   (the start; black, then white), so they get canonical labels 0 (and
//!   1), and each other core vertex by the trees hanging from it. That
//!   colouring is refined (see `refine`); when refinement leaves every
//!   vertex a colour of its own, the colours' order labels the core, and
//!   otherwise Traces (nauty 2.9.3) labels the refined colouring, one
//!   connected component of the core at a time, the components then put
//!   in the order of their canonical forms (see `components`). Every
//!   relabelling of a puzzle gets the same hash.
//! - `traces-v3`: as `traces-v4`, but one Traces search labelled the whole
//!   refined core. `traces-v2`: Traces labelled every core, from the
//!   unrefined colouring. `traces-v1`: Traces labelled the whole graph.
//!   Hashes of all three are replaced by `traces-v4` ones after start-up.
//! - `nauty-digraph-v1`: the directed games' isomorphism-invariant form.
//!   nauty (2.9.3, with its digraph options; Traces takes undirected
//!   graphs only) labels the digraph coloured with the start alone in the
//!   first class, so the start gets label 0. The form's pairs are the
//!   arcs `(u, v)` = u → v, ascending by `(u, v)` (not normalised to
//!   `u < v`; an arc and its reverse are two pairs).
//! - `sorted-edges-v1`: the request's own labels, edges normalised and
//!   sorted; invariant to edge order and direction only. Used when Traces
//!   passes its time budget (highly symmetric graphs can make it slow), and
//!   the hash of every puzzle stored before `traces-v1`.
//!
//! The hashed form (docs/canonical-hash.md documents it for other programs): the
//! canonicaliser's name, a NUL byte, the game's name, a NUL byte, then
//! little-endian `u32` words: the vertex count, the number of distinguished
//! vertices, the distinguished vertices' labels in game order, the edge
//! count, then every edge once as `(u, v)` with `u < v`, ascending — all in
//! the canonicaliser's labels.
//!
//! Vector instructions: where the processor has AVX-512F, two inner loops
//! of the form run in vector registers (see `simd` and `runs`); they give
//! the same form as the scalar loops, so the hash does not depend on the
//! processor. `PUZZLED_SIMD=off` in the environment turns them off.

mod buckets;
mod components;
mod refine;
mod runs;
mod simd;
mod traces;
mod trees;

use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::graph::{Graph, Vertex};
use crate::puzzle::Spec;
use crate::solver::cancel::Cancel;
use simd::Avx512;

/// The isomorphism-invariant canonicaliser. Bump its version whenever the
/// bundled nauty changes or the colouring convention does: canonical forms
/// may then change.
pub const TRACES: &str = "traces-v4";

/// The previous isomorphism-invariant canonicalisers, newest first: Traces
/// on the whole refined core, Traces on every unrefined core, and Traces on
/// the whole graph. Puzzles stored with them are rehashed after start-up.
pub const TRACES_V3: &str = "traces-v3";
pub const TRACES_V2: &str = "traces-v2";
pub const TRACES_V1: &str = "traces-v1";

/// The label-keeping canonicaliser, and the fallback past the budget.
pub const SORTED_EDGES: &str = "sorted-edges-v1";

/// The directed games' isomorphism-invariant canonicaliser: nauty (with
/// its digraph options) labels the digraph, the start a colour class of
/// its own before all other vertices.
pub const NAUTY_DIGRAPH: &str = "nauty-digraph-v1";

/// A puzzle's canonical hash and what a stored verdict is checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canonical {
    /// `"{canonicaliser}:{hex sha-256 of the canonical form}"`.
    pub hash: String,
    /// [`TRACES`], or [`SORTED_EDGES`] when Traces passed its budget.
    pub canonicaliser: &'static str,
    /// Vertex and edge counts of the canonical graph. SHA-256 makes a
    /// collision practically impossible, so the form itself is not kept:
    /// the counts are a cheap check that a stored verdict is about a graph
    /// of the same shape (they catch a corrupted or hand-edited row).
    pub vertex_count: u64,
    pub edge_count: u64,
    /// How the request's vertex labels map to canonical ones.
    pub labelling: Labelling,
}

/// A bijection between the request's vertex labels and canonical labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Labelling {
    /// Canonical labels are the request's labels.
    Identity,
    /// Invariant: `to_canonical[to_original[c]] == c` for every label.
    Permutation {
        to_canonical: Vec<Vertex>,
        to_original: Vec<Vertex>,
    },
}

impl Labelling {
    /// The labelling that sends the request's vertex `order[c]` to `c`.
    pub fn from_order(order: Vec<Vertex>) -> Labelling {
        let mut to_canonical = vec![0; order.len()];
        for (c, &v) in order.iter().enumerate() {
            to_canonical[v as usize] = c as Vertex;
        }
        Labelling::Permutation {
            to_canonical,
            to_original: order,
        }
    }

    /// The labelling given by each request vertex's canonical label, as
    /// stored with a puzzle; `None` unless it is a permutation of `0..n`.
    pub fn from_canonical_labels(to_canonical: Vec<Vertex>) -> Option<Labelling> {
        let n = to_canonical.len();
        let mut to_original = vec![Vertex::MAX; n];
        for (v, &c) in to_canonical.iter().enumerate() {
            let slot = to_original.get_mut(c as usize)?;
            if *slot != Vertex::MAX {
                return None;
            }
            *slot = v as Vertex;
        }
        Some(Labelling::Permutation {
            to_canonical,
            to_original,
        })
    }

    /// The canonical label of the request's vertex `v`. A vertex out of
    /// range stays as it is (in either direction), so that evidence read
    /// from a damaged cache entry is rejected by its check
    /// (`Verdict::fits`) rather than panic here.
    pub fn to_canonical(&self, v: Vertex) -> Vertex {
        match self {
            Labelling::Identity => v,
            Labelling::Permutation { to_canonical, .. } => {
                to_canonical.get(v as usize).copied().unwrap_or(v)
            }
        }
    }

    /// The request's label of canonical vertex `c` (out of range: `c`).
    pub fn to_original(&self, c: Vertex) -> Vertex {
        match self {
            Labelling::Identity => c,
            Labelling::Permutation { to_original, .. } => {
                to_original.get(c as usize).copied().unwrap_or(c)
            }
        }
    }

    /// Each request vertex's canonical label, in request order (what a
    /// stored puzzle keeps); `None` for the identity.
    pub fn canonical_labels(&self) -> Option<&[Vertex]> {
        match self {
            Labelling::Identity => None,
            Labelling::Permutation { to_canonical, .. } => Some(to_canonical),
        }
    }
}

/// The canonical form and hash of `spec`'s game, graph and distinguished
/// vertices (title and author do not count), by Traces (nauty for the
/// directed games) within `budget`, or label-keeping past it.
pub fn canonicalize(spec: &Spec, budget: Duration) -> Canonical {
    canonicalize_unless_cancelled(spec, budget, &Cancel::never())
        .expect("a handle that never fires")
}

/// [`canonicalize`], or `None` soon after `cancel` fires (the caller left):
/// the labelling, Traces' search included, stops then.
pub fn canonicalize_unless_cancelled(
    spec: &Spec,
    budget: Duration,
    cancel: &Cancel,
) -> Option<Canonical> {
    canonicalize_with(spec, budget, cancel, Avx512::detect())
}

/// [`canonicalize_unless_cancelled`], with the vector paths if `avx512` is
/// given: the same hash either way.
fn canonicalize_with(
    spec: &Spec,
    budget: Duration,
    cancel: &Cancel,
    avx512: Option<Avx512>,
) -> Option<Canonical> {
    if let Some(arcs) = spec.arcs() {
        return canonicalize_digraph(spec, arcs, budget, cancel);
    }
    let graph = spec.graph();
    let distinguished = spec.distinguished();
    let started = Instant::now();
    let labelled = trees::canonical_order(graph, &distinguished, budget, cancel);
    if cancel.is_fired() {
        return None;
    }
    Some(match labelled {
        Some(mut order) => {
            let labelling = Labelling::from_order(std::mem::take(&mut order.order));
            let hash = hash_edges(TRACES, spec, &labelling, avx512, |form| {
                order.write_edges(graph, &labelling, form)
            });
            Canonical {
                hash,
                canonicaliser: TRACES,
                vertex_count: graph.vertex_count() as u64,
                edge_count: graph.edge_count() as u64,
                labelling,
            }
        }
        None => fall_back(spec, budget, started),
    })
}

/// The label-keeping hash of `spec`, whose labelling passed its budget.
fn fall_back(spec: &Spec, budget: Duration, started: Instant) -> Canonical {
    tracing::warn!(
        vertices = spec.graph().vertex_count(),
        edges = spec.pair_count(),
        budget_ms = budget.as_millis() as u64,
        elapsed_ms = started.elapsed().as_millis() as u64,
        searches_stopped_since_start = traces::searches_stopped(),
        "canonical labelling passed its budget; this puzzle gets the label-keeping hash"
    );
    FALLBACKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    keep_labels(spec)
}

/// Labellings that passed their budget since start-up (the service shows
/// the count as a metric).
static FALLBACKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many puzzles got the label-keeping hash because their canonical
/// labelling passed its budget, since start-up.
pub fn fallbacks() -> u64 {
    FALLBACKS.load(std::sync::atomic::Ordering::Relaxed)
}

/// [`NAUTY_DIGRAPH`]'s form of a directed game's puzzle (`arcs` its arcs),
/// or the label-keeping one past `budget`; `None` once `cancel` fires.
fn canonicalize_digraph(
    spec: &Spec,
    arcs: &[(Vertex, Vertex)],
    budget: Duration,
    cancel: &Cancel,
) -> Option<Canonical> {
    let started = Instant::now();
    let n = spec.graph().vertex_count();
    let start = spec.distinguished()[0];
    let mut degrees = vec![0usize; n];
    for &(u, _) in arcs {
        degrees[u as usize] += 1;
    }
    let mut offsets = Vec::with_capacity(n);
    let mut end = 0;
    for &degree in &degrees {
        offsets.push(end);
        end += degree;
    }
    let mut fill = offsets.clone();
    let mut targets = vec![0; arcs.len()];
    for &(u, v) in arcs {
        targets[fill[u as usize]] = v;
        fill[u as usize] += 1;
    }
    let others: Vec<Vertex> = (0..n as Vertex).filter(|&v| v != start).collect();
    let orders = traces::Sparse::directed(offsets, degrees, targets).and_then(|digraph| {
        traces::canonical_orders(
            vec![(digraph, vec![vec![start], others])],
            started + budget,
            cancel,
        )
    });
    if cancel.is_fired() {
        return None;
    }
    Some(match orders {
        Ok(Some(mut orders)) => {
            let labelling = Labelling::from_order(orders.remove(0));
            Canonical {
                hash: hash_form(NAUTY_DIGRAPH, spec, &labelling),
                canonicaliser: NAUTY_DIGRAPH,
                vertex_count: n as u64,
                edge_count: arcs.len() as u64,
                labelling,
            }
        }
        Ok(None) => fall_back(spec, budget, started),
        Err(error) => {
            tracing::error!(%error, "a digraph was not handed to nauty");
            fall_back(spec, budget, started)
        }
    })
}

/// How many Traces searches have been stopped (past their budget, for
/// another's overrun, or with no caller left) since start-up.
pub fn searches_stopped() -> u64 {
    traces::searches_stopped()
}

/// How many Traces searches are running now.
pub fn searches_running() -> usize {
    traces::searches_running()
}

/// The label-keeping canonical form of `spec` ([`SORTED_EDGES`]).
pub fn keep_labels(spec: &Spec) -> Canonical {
    Canonical {
        hash: hash_form(SORTED_EDGES, spec, &Labelling::Identity),
        canonicaliser: SORTED_EDGES,
        vertex_count: spec.graph().vertex_count() as u64,
        edge_count: spec.pair_count() as u64,
        labelling: Labelling::Identity,
    }
}

/// The hash of the documented form (module docs) of `spec` under
/// `labelling`.
fn hash_form(canonicaliser: &str, spec: &Spec, labelling: &Labelling) -> String {
    // Edge by edge, never as runs: the vector paths would not be used.
    hash_edges(canonicaliser, spec, labelling, None, |form| {
        match spec.arcs() {
            // Arcs keep their direction: (tail, head), ascending.
            Some(arcs) => {
                let mut labelled: Vec<(Vertex, Vertex)> = arcs
                    .iter()
                    .map(|&(u, v)| (labelling.to_canonical(u), labelling.to_canonical(v)))
                    .collect();
                labelled.sort_unstable();
                for (u, v) in labelled {
                    form.edge(u, v);
                }
            }
            None => for_each_edge_in(spec.graph(), labelling, |u, v| form.edge(u, v)),
        }
    })
}

/// [`hash_form`], the canonical edges given by `edges` (which writes each
/// with [`Form::edge`] or [`Form::run`], in the order [`for_each_edge_in`]
/// gives them), into a form with the vector paths if `avx512` is given.
fn hash_edges(
    canonicaliser: &str,
    spec: &Spec,
    labelling: &Labelling,
    avx512: Option<Avx512>,
    edges: impl FnOnce(&mut Form),
) -> String {
    let graph = spec.graph();
    let mut hasher = Sha256::new();
    hasher.update(canonicaliser.as_bytes());
    hasher.update([0]);
    hasher.update(spec.game().as_str().as_bytes());
    hasher.update([0]);
    let mut form = Form::new(hasher, avx512);
    let distinguished = spec.distinguished();
    form.word(graph.vertex_count() as u32);
    form.word(distinguished.len() as u32);
    for &v in &distinguished {
        form.word(labelling.to_canonical(v));
    }
    form.word(spec.pair_count() as u32);
    edges(&mut form);
    let digest = form.finish();
    format!("{canonicaliser}:{}", hex::encode(digest))
}

/// The words of the form, hashed as they are produced, a block at a time,
/// rather than built whole, which would hold 8 bytes an edge beside the
/// graph itself.
/// (Callers pass edges to [`Form::edge`] in a generic closure, so that the
/// per-edge work is inlined: through a `dyn` closure it cost more than
/// SHA-256 itself.) Words are written as their little-endian bytes
/// straight into the block, so a flush hands the block to SHA-256 as it is.
pub struct Form {
    hasher: Sha256,
    /// `block[..len]` is what is not hashed yet, `len <= BLOCK_BYTES`; the
    /// block has [`runs::WIDE_RUN_BYTES`] more, which a run written whole
    /// may write past its edges.
    block: Vec<u8>,
    len: usize,
    /// Present where runs are written by [`runs::write_sorted_pairs`] and
    /// the core's edges collected by [`runs::collect_core_runs`].
    avx512: Option<Avx512>,
}

impl Form {
    /// A form hashed into `hasher`, its runs written by
    /// [`runs::write_sorted_pairs`] if `avx512` is given.
    fn new(hasher: Sha256, avx512: Option<Avx512>) -> Form {
        Form {
            hasher,
            block: vec![0; BLOCK_BYTES + runs::WIDE_RUN_BYTES],
            len: 0,
            avx512,
        }
    }

    /// The vector paths this form's edges may take.
    pub fn avx512(&self) -> Option<Avx512> {
        self.avx512
    }

    /// The hash of everything written.
    fn finish(mut self) -> [u8; 32] {
        self.flush();
        self.hasher.finalize().into()
    }

    #[inline]
    fn word(&mut self, w: u32) {
        self.write(&w.to_le_bytes());
    }

    /// The edge `(u, v)`, `u < v`.
    #[inline]
    pub fn edge(&mut self, u: Vertex, v: Vertex) {
        let mut pair = [0; 8];
        pair[..4].copy_from_slice(&u.to_le_bytes());
        pair[4..].copy_from_slice(&v.to_le_bytes());
        self.write(&pair);
    }

    /// The edges `(c, d)` for the labels `d` of `run`, all above `c`, in
    /// ascending order (`run` is sorted in place, or left as it is when
    /// sorted in registers).
    #[inline]
    pub fn run(&mut self, c: Vertex, run: &mut [Vertex]) {
        if let Some(avx512) = self.avx512.filter(|_| run.len() <= runs::WIDE_RUN_MAX) {
            // The block has WIDE_RUN_BYTES past BLOCK_BYTES, so after this
            // `block[len..]` has the bytes the writer may write.
            if self.len + runs::WIDE_RUN_BYTES > BLOCK_BYTES {
                self.flush();
            }
            runs::write_sorted_pairs(avx512, c, run, &mut self.block[self.len..]);
            self.len += 8 * run.len();
            return;
        }
        runs::sort_run(run);
        for &d in &*run {
            self.edge(c, d);
        }
    }

    /// Appends `bytes` to the block, hashing the block first if they do not
    /// fit (an edge's two words are one check, not two).
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        if self.len + bytes.len() > BLOCK_BYTES {
            self.flush();
        }
        self.block[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    fn flush(&mut self) {
        self.hasher.update(&self.block[..self.len]);
        self.len = 0;
    }
}

/// Calls `f(u, v)` for every edge of `graph` in `labelling`'s labels, once,
/// with `u < v`, in ascending order.
pub fn for_each_edge_in(graph: &Graph, labelling: &Labelling, mut f: impl FnMut(Vertex, Vertex)) {
    match labelling {
        // `Graph::edges` yields every edge once as (u, v), u < v, ascending.
        Labelling::Identity => graph.edges().for_each(|(u, v)| f(u, v)),
        Labelling::Permutation {
            to_canonical,
            to_original,
        } => {
            let mut higher: Vec<Vertex> = Vec::new();
            for (c, &v) in to_original.iter().enumerate() {
                let c = c as Vertex;
                higher.clear();
                higher.extend(
                    graph
                        .neighbors(v)
                        .iter()
                        .map(|&w| to_canonical[w as usize])
                        .filter(|&d| d > c),
                );
                higher.sort_unstable();
                for &d in &higher {
                    f(c, d);
                }
            }
        }
    }
}

/// Bytes of the form hashed at a time.
const BLOCK_BYTES: usize = 64 * 1024;

/// Whether a hash made by the canonicaliser it names keeps the request's
/// vertex labels, so that a verdict stored under it is already in the
/// labels of every puzzle stored with that hash.
pub fn keeps_labels(hash: &str) -> bool {
    hash.strip_prefix(SORTED_EDGES)
        .is_some_and(|rest| rest.starts_with(':'))
}

/// The canonicaliser a hash names (the part before its colon).
pub fn canonicaliser_of(hash: &str) -> &str {
    hash.split_once(':').map_or("", |(name, _)| name)
}

/// The canonicaliser a stored hash was made by, among those this version
/// knows; a hash naming none of them is taken for the current one's.
pub fn known_canonicaliser_of(hash: &str) -> &'static str {
    let name = canonicaliser_of(hash);
    [SORTED_EDGES, NAUTY_DIGRAPH, TRACES_V3, TRACES_V2, TRACES_V1]
        .into_iter()
        .find(|&known| known == name)
        .unwrap_or(TRACES)
}

#[cfg(test)]
mod tests;
