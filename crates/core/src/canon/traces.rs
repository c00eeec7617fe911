//! Canonical labelling by Traces (nauty 2.9.3), under a time budget.
//!
//! Large searches run on a few threads of their own (one per core), with a
//! stack large enough for a deep search; a job of a few vertices runs on
//! its caller's thread, so that it never queues behind large ones. A job
//! is a batch of graphs (a core's components), searched one after another.
//!
//! The budget: nauty's only way to stop a search from outside is the
//! process-wide `nauty_kill_request`. A watchdog raises it when a search
//! passes its deadline or its caller leaves; every search then running
//! stops. Traces checks it at each node of its search tree, and the
//! bundled sources are patched to check it while filtering a large group's
//! generators too, which can run long between two nodes, and to free a
//! stopped search's memory (`vendor/README.md`). The one past its budget
//! is answered as over budget; any other stopped by the same request
//! simply runs again with what is left of its own budget. No search starts
//! while the request is raised, and the last one to stop lowers it. The
//! caller does not wait for a stopped search to end: it is answered at its
//! deadline whatever Traces is doing.
//!
//! Traces trusts its input: an adjacency target or colouring entry out of
//! range is a read or write out of bounds in C. So [`Sparse`] and the
//! colouring are checked, in every build, when they are made (linear in
//! the graph, little beside a search), and a graph that fails is refused
//! with an [`InputError`] rather than handed over.

use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use nauty_Traces_sys::{
    NAUKILLED, Traces, TracesOptions, TracesStats, optionblk, sparsegraph, sparsenauty, statsblk,
};

use crate::graph::Vertex;
use crate::solver::cancel::Cancel;

// SAFETY: `nauty_kill_request` is nautil.c's `volatile int`, defined
// there, a plain global (deliberately not thread-local). An `AtomicI32` has
// the size and alignment of a `c_int` (asserted below) and the same
// representation, so it names the same int; the C side only reads it,
// with whole-int volatile loads. A shared reference to an atomic is safe
// to use from any thread, hence `safe`.
unsafe extern "C" {
    /// nauty's stop request, which every running search checks at each
    /// node of its search tree.
    safe static nauty_kill_request: AtomicI32;
}

const _: () = assert!(
    size_of::<AtomicI32>() == size_of::<c_int>() && align_of::<AtomicI32>() == align_of::<c_int>()
);

/// Raises or lowers nauty's stop request. Relaxed: the flag carries no
/// data, and nauty's volatile reads order nothing after it, so a stronger
/// ordering would synchronise with nothing; what must be ordered (which
/// searches are running, whether the request is up) is under the
/// supervisor's mutex, and a search only has to see the flag eventually,
/// which an atomic store guarantees.
fn set_kill_request(raised: bool) {
    nauty_kill_request.store(c_int::from(raised), Ordering::Relaxed);
}

/// Searches stopped by the stop request so far (for tests and logs).
static SEARCHES_STOPPED: AtomicU64 = AtomicU64::new(0);

/// How many searches the stop request has stopped since start-up.
pub fn searches_stopped() -> u64 {
    SEARCHES_STOPPED.load(Ordering::Relaxed)
}

/// How many searches are running now.
pub fn searches_running() -> usize {
    lock(&supervisor().state).running.len()
}

/// What a search gave.
#[cfg(test)]
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `order[i]` is the vertex that gets canonical label `i`.
    Labelled(Vec<Vertex>),
    /// The search passed its budget and was stopped.
    OverBudget,
}

/// Why a graph or colouring was not handed to Traces. Each is a bug in the
/// caller, which builds them from a valid [`crate::graph::Graph`]; the
/// labelling is then given up, as past its budget.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("{0} vertices: more than Traces' int holds")]
    TooManyVertices(usize),
    #[error("{offsets} list offsets for {degrees} degrees")]
    Lengths { offsets: usize, degrees: usize },
    #[error(
        "vertex {vertex}: degree {degree} from offset {offset} runs past the {targets} targets"
    )]
    ListOutOfRange {
        vertex: usize,
        offset: usize,
        degree: usize,
        targets: usize,
    },
    #[error("the degrees do not sum to the {targets} targets")]
    DegreeSum { targets: usize },
    #[error("vertex {vertex}: degree {degree}, not below the {n} vertices")]
    DegreeOutOfRange {
        vertex: usize,
        degree: usize,
        n: usize,
    },
    #[error("target {index}: vertex {target} out of range 0..{n}")]
    TargetOutOfRange {
        index: usize,
        target: Vertex,
        n: usize,
    },
    #[error("the colouring lists vertex {vertex}, out of range 0..{n}")]
    CellVertexOutOfRange { vertex: Vertex, n: usize },
    #[error("the colouring lists vertex {vertex} twice")]
    CellVertexRepeated { vertex: Vertex },
    #[error("the colouring lists {listed} of the {n} vertices")]
    CellsIncomplete { listed: usize, n: usize },
}

/// A simple undirected graph in Traces' sparse layout: the neighbours of
/// `v` are `targets[offsets[v]..offsets[v] + degrees[v]]`, each edge listed
/// from both ends.
///
/// Invariants, checked by [`Sparse::new`]: `n` (the number of degrees)
/// fits a `c_int`; there are `n` offsets; each degree is below `n`; each
/// list lies within `targets`; the degrees sum to the number of targets
/// (Traces' `nde`); every target is a vertex, below `n`.
pub struct Sparse {
    offsets: Vec<usize>,
    degrees: Vec<c_int>,
    targets: Vec<c_int>,
    /// `n` as Traces takes it.
    nv: c_int,
    /// The lists are out-neighbours of a digraph, which nauty labels
    /// (Traces takes undirected graphs only).
    directed: bool,
}

impl Sparse {
    /// The graph whose vertex `v` has the neighbours
    /// `targets[offsets[v]..offsets[v] + degrees[v]]`, if that is one (see
    /// the invariants). Simple and undirected is not checked: it is what
    /// makes the labelling canonical, and every caller builds its lists
    /// from a [`crate::graph::Graph`], which is.
    pub fn new(
        offsets: Vec<usize>,
        degrees: Vec<usize>,
        targets: Vec<Vertex>,
    ) -> Result<Sparse, InputError> {
        let n = degrees.len();
        let nv = c_int::try_from(n).map_err(|_| InputError::TooManyVertices(n))?;
        if offsets.len() != n {
            return Err(InputError::Lengths {
                offsets: offsets.len(),
                degrees: n,
            });
        }
        for (vertex, (&offset, &degree)) in offsets.iter().zip(&degrees).enumerate() {
            if offset
                .checked_add(degree)
                .is_none_or(|end| end > targets.len())
            {
                return Err(InputError::ListOutOfRange {
                    vertex,
                    offset,
                    degree,
                    targets: targets.len(),
                });
            }
        }
        let degree_sum = degrees
            .iter()
            .try_fold(0usize, |sum, &d| sum.checked_add(d));
        if degree_sum != Some(targets.len()) {
            return Err(InputError::DegreeSum {
                targets: targets.len(),
            });
        }
        // A vertex of a simple graph has fewer neighbours than there are
        // vertices, and `n` fits a c_int, so a degree that does also fits.
        let degrees = degrees
            .into_iter()
            .enumerate()
            .map(|(vertex, degree)| match c_int::try_from(degree) {
                Ok(d) if d < nv => Ok(d),
                _ => Err(InputError::DegreeOutOfRange { vertex, degree, n }),
            })
            .collect::<Result<Vec<c_int>, _>>()?;
        // Every target, in a list or not, in case Traces reads all `nde`.
        let targets = targets
            .into_iter()
            .enumerate()
            .map(|(index, target)| match c_int::try_from(target) {
                Ok(t) if t < nv => Ok(t),
                _ => Err(InputError::TargetOutOfRange { index, target, n }),
            })
            .collect::<Result<Vec<c_int>, _>>()?;
        Ok(Sparse {
            offsets,
            degrees,
            targets,
            nv,
            directed: false,
        })
    }

    /// [`Sparse::new`] for a simple digraph: each list holds the vertex's
    /// out-neighbours (each arc listed once, from its tail), labelled by
    /// nauty with its digraph options.
    pub fn directed(
        offsets: Vec<usize>,
        degrees: Vec<usize>,
        targets: Vec<Vertex>,
    ) -> Result<Sparse, InputError> {
        let mut sparse = Sparse::new(offsets, degrees, targets)?;
        sparse.directed = true;
        Ok(sparse)
    }

    /// `graph` as it is.
    #[cfg(test)]
    pub fn of(graph: &crate::graph::Graph) -> Sparse {
        let n = graph.vertex_count();
        let mut offsets = Vec::with_capacity(n);
        let mut degrees = Vec::with_capacity(n);
        let mut targets = Vec::with_capacity(2 * graph.edge_count());
        for v in 0..n as Vertex {
            offsets.push(targets.len());
            degrees.push(graph.degree(v));
            targets.extend_from_slice(graph.neighbors(v));
        }
        Sparse::new(offsets, degrees, targets).expect("a Graph is a valid Traces graph")
    }

    fn vertex_count(&self) -> usize {
        self.degrees.len()
    }
}

/// The canonical order of `graph`'s vertices, with the colour classes
/// `cells` (which must partition the vertices; their order is part of the
/// labelling: the vertices of the first cell get the first labels); an
/// error, and no search, if they do not.
#[cfg(test)]
pub fn canonical_order(
    graph: Sparse,
    cells: &[Vec<Vertex>],
    budget: Duration,
) -> Result<Outcome, InputError> {
    let orders = canonical_orders(
        vec![(graph, cells.to_vec())],
        Instant::now() + budget,
        &Cancel::never(),
    )?;
    Ok(match orders {
        Some(mut orders) => Outcome::Labelled(orders.remove(0)),
        None => Outcome::OverBudget,
    })
}

/// The canonical order of each graph with its colouring (as
/// `canonical_order` takes them), searched one after another on one
/// search thread (on the caller's for a few vertices in all: see
/// [`INLINE_VERTICES`]); `None` once `deadline` has passed or `cancel` has
/// fired, which this call notices within [`POLL`] and answers at once:
/// the search then running is stopped, and the caller does not wait for
/// it to end. An error, and no search, if a colouring is not a partition.
pub fn canonical_orders(
    graphs: Vec<(Sparse, Vec<Vec<Vertex>>)>,
    deadline: Instant,
    cancel: &Cancel,
) -> Result<Option<Vec<Vec<Vertex>>>, InputError> {
    let inputs = graphs
        .into_iter()
        .map(|(graph, cells)| Input::new(graph, &cells))
        .collect::<Result<Vec<Input>, _>>()?;
    if inputs.iter().all(|input| input.lab.len() <= 1) {
        return Ok(Some(inputs.iter().map(Input::trivial_order).collect()));
    }
    let (reply, answer) = mpsc::sync_channel(1);
    let abandoned = Arc::new(AtomicBool::new(false));
    let job = Job {
        inputs,
        deadline,
        abandoned: abandoned.clone(),
        reply,
    };
    let vertices: usize = job.inputs.iter().map(|input| input.lab.len()).sum();
    if vertices <= INLINE_VERTICES {
        return Ok(match job.run() {
            Run::Done(orders) => Some(orders),
            Run::OverBudget => None,
        });
    }
    if workers().send(job).is_err() {
        // No worker can be reached: treat it as a search that could not
        // finish, so the caller falls back rather than fails.
        tracing::error!("the canonical labelling threads are gone");
        return Ok(None);
    }
    loop {
        let now = Instant::now();
        if now >= deadline || cancel.is_fired() {
            supervisor().abandon(&abandoned);
            return Ok(None);
        }
        match answer.recv_timeout((deadline - now).min(POLL)) {
            Ok(Run::Done(orders)) => return Ok(Some(orders)),
            Ok(Run::OverBudget) | Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(None),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}

/// How often a caller waiting for its searches looks at its cancel handle.
const POLL: Duration = Duration::from_millis(20);

/// Jobs of at most this many vertices in all are searched on the caller's
/// own thread, so that a small graph never waits for a search thread
/// behind large searches. Such a search is short unless the graph is
/// built to be hard, and then it holds only its own caller, and only up
/// to its deadline (the watchdog stops it; the cancel handle is not looked
/// at meanwhile). The caller's stack suffices for graphs this small.
const INLINE_VERTICES: usize = 1024;

/// The graph in Traces' sparse layout and the initial colouring.
///
/// Invariants, checked by [`Input::new`] (with [`Sparse`]'s own): `lab`
/// lists each of the graph's `n` vertices exactly once, and `ptn` has `n`
/// entries.
struct Input {
    graph: Sparse,
    /// The vertices, cell after cell.
    lab: Vec<c_int>,
    /// `ptn[i] == 0` exactly where a cell ends.
    ptn: Vec<c_int>,
}

impl Input {
    /// `graph` coloured by `cells`, if they list each vertex exactly once.
    fn new(graph: Sparse, cells: &[Vec<Vertex>]) -> Result<Input, InputError> {
        let n = graph.vertex_count();
        let mut listed = vec![false; n];
        let mut lab = Vec::with_capacity(n);
        let mut ptn = Vec::with_capacity(n);
        for cell in cells.iter().filter(|cell| !cell.is_empty()) {
            for &vertex in cell {
                // Below `n`, which fits a c_int (`Sparse`'s invariant).
                let v = c_int::try_from(vertex)
                    .ok()
                    .filter(|&v| v < graph.nv)
                    .ok_or(InputError::CellVertexOutOfRange { vertex, n })?;
                if std::mem::replace(&mut listed[vertex as usize], true) {
                    return Err(InputError::CellVertexRepeated { vertex });
                }
                lab.push(v);
            }
            ptn.extend(std::iter::repeat_n(1, cell.len() - 1));
            ptn.push(0);
        }
        // None repeated: as many listed as there are vertices is all of them.
        if lab.len() != n {
            return Err(InputError::CellsIncomplete {
                listed: lab.len(),
                n,
            });
        }
        Ok(Input { graph, lab, ptn })
    }

    /// The order of a graph of at most one vertex, which needs no search.
    fn trivial_order(&self) -> Vec<Vertex> {
        // Vertices, so not negative.
        self.lab.iter().map(|&v| v as Vertex).collect()
    }

    /// Runs Traces once, or nauty for a digraph (Traces takes undirected
    /// graphs only), on copies of the input that are this call's own, so
    /// no other search reads or writes them.
    fn search(&self) -> Result<Vec<Vertex>, Stopped> {
        let n = self.lab.len();
        let mut offsets = self.graph.offsets.clone();
        let mut degrees = self.graph.degrees.clone();
        let mut targets = self.graph.targets.clone();
        let mut lab = self.lab.clone();
        let mut ptn = self.ptn.clone();
        let mut orbits: Vec<c_int> = vec![0; n];
        let mut graph = sparse_view(&mut offsets, &mut degrees, &mut targets, self.graph.nv);
        // SAFETY: `graph` views copies of a `Sparse`'s arrays and `lab`,
        // `ptn` are copies of an `Input`'s, so the checks of
        // `Sparse::new` and `Input::new` hold for them; `orbits` is as long
        // as `lab`; all outlive the call.
        let (searcher, status) = unsafe {
            if self.graph.directed {
                let status = run_nauty(&mut graph, &mut lab, &mut ptn, &mut orbits);
                ("nauty", status)
            } else {
                let status = run_traces(&mut graph, &mut lab, &mut ptn, &mut orbits);
                ("Traces", status)
            }
        };
        order_after(searcher, status, lab)
    }
}

/// Traces on `graph` coloured by `lab` and `ptn`; its error status.
///
/// # Safety
///
/// `graph` must view arrays that pass [`Sparse::new`]'s checks (every list
/// within the targets, every target a vertex, `nv` vertices), `lab` and
/// `ptn` must pass [`Input::new`]'s (lab a permutation of the vertices),
/// and `orbits` must be as long as `lab`.
unsafe fn run_traces(
    graph: &mut sparsegraph,
    lab: &mut [c_int],
    ptn: &mut [c_int],
    orbits: &mut [c_int],
) -> c_int {
    let mut options = TracesOptions {
        getcanon: nauty_Traces_sys::TRUE,
        defaultptn: nauty_Traces_sys::FALSE,
        ..TracesOptions::default()
    };
    let mut stats = TracesStats::default();
    // SAFETY: Traces reads `nv` offsets, degrees and entries of lab and
    // ptn, writes `nv` entries of lab, ptn and orbits, and reads the
    // targets of each list: the function's safety conditions bound all of
    // them, and everything outlives the call. No weights (`w` is null,
    // `wlen` 0), no output graph (null) and no user hooks are asked for,
    // so Traces follows no other pointer.
    unsafe {
        Traces(
            graph,
            lab.as_mut_ptr(),
            ptn.as_mut_ptr(),
            orbits.as_mut_ptr(),
            &mut options,
            &mut stats,
            std::ptr::null_mut(),
        );
    }
    stats.errstatus
}

/// nauty, with its digraph options, on the digraph `graph` coloured by
/// `lab` and `ptn`; its error status.
///
/// # Safety
///
/// As for [`run_traces`]; `graph`'s lists hold out-neighbours.
unsafe fn run_nauty(
    graph: &mut sparsegraph,
    lab: &mut [c_int],
    ptn: &mut [c_int],
    orbits: &mut [c_int],
) -> c_int {
    let n = lab.len();
    // The canonical graph's arrays, as large as nauty needs (`n` offsets
    // and degrees, `nde` targets), so that it fills them and allocates
    // nothing (its SG_ALLOC reallocates only arrays shorter than that).
    let mut canon_offsets: Vec<usize> = vec![0; n];
    let mut canon_degrees: Vec<c_int> = vec![0; n];
    let mut canon_targets: Vec<c_int> = vec![0; graph.nde.max(1)];
    let mut canon = sparse_view(
        &mut canon_offsets,
        &mut canon_degrees,
        &mut canon_targets,
        0,
    );
    let mut options = optionblk {
        getcanon: nauty_Traces_sys::TRUE,
        defaultptn: nauty_Traces_sys::FALSE,
        ..optionblk::default_sparse_digraph()
    };
    let mut stats = statsblk::default();
    // SAFETY: nauty reads and writes what Traces does in `run_traces`,
    // bounded by the same safety conditions. The canonical graph's arrays hold
    // `n`, `n` and at least `nde` entries and say so in their lengths, so
    // nauty writes within them and frees or reallocates none of them. No
    // weights, no user hooks; the options name nauty's own sparse
    // dispatch, as sparsenauty requires. Everything outlives the call.
    unsafe {
        sparsenauty(
            graph,
            lab.as_mut_ptr(),
            ptn.as_mut_ptr(),
            orbits.as_mut_ptr(),
            &mut options,
            &mut stats,
            &mut canon,
        );
    }
    stats.errstatus
}

/// A sparse graph over the three arrays, for nauty or Traces to read (or,
/// for nauty's canonical graph, to fill: the lengths say how much room
/// each array has).
fn sparse_view(
    offsets: &mut [usize],
    degrees: &mut [c_int],
    targets: &mut [c_int],
    nv: c_int,
) -> sparsegraph {
    sparsegraph {
        nde: targets.len(),
        v: offsets.as_mut_ptr(),
        nv,
        d: degrees.as_mut_ptr(),
        e: targets.as_mut_ptr(),
        w: std::ptr::null_mut(),
        vlen: offsets.len(),
        dlen: degrees.len(),
        elen: targets.len(),
        wlen: 0,
    }
}

/// The canonical order a search left in `lab`, given the error status it
/// ended with (`searcher` names it in the log).
fn order_after(searcher: &str, errstatus: c_int, lab: Vec<c_int>) -> Result<Vec<Vertex>, Stopped> {
    if errstatus == NAUKILLED {
        SEARCHES_STOPPED.fetch_add(1, Ordering::Relaxed);
        return Err(Stopped);
    }
    if errstatus != 0 {
        tracing::error!(status = errstatus, "{searcher} reported an error");
        return Err(Stopped);
    }
    // A permutation of the vertices, which are not negative.
    lab.into_iter()
        .map(Vertex::try_from)
        .collect::<Result<_, _>>()
        .map_err(|_| {
            tracing::error!("{searcher} returned a negative vertex");
            Stopped
        })
}

/// A search ended by the stop request.
struct Stopped;

struct Job {
    inputs: Vec<Input>,
    deadline: Instant,
    /// Raised when the caller stopped waiting: the search is then stopped
    /// as if past its deadline, and no further one starts.
    abandoned: Arc<AtomicBool>,
    reply: mpsc::SyncSender<Run>,
}

impl Job {
    /// Searches each input in turn (running one again when another's
    /// overrun stopped it), until all are labelled or one passes the
    /// deadline or the caller leaves.
    fn run(&self) -> Run {
        let mut orders = Vec::with_capacity(self.inputs.len());
        for input in &self.inputs {
            if input.lab.len() <= 1 {
                orders.push(input.trivial_order());
                continue;
            }
            loop {
                match supervisor().run(input, self.deadline, &self.abandoned) {
                    Searched::Done(order) => break orders.push(order),
                    Searched::StoppedForAnother if Instant::now() < self.deadline => {}
                    Searched::StoppedForAnother | Searched::OverBudget => return Run::OverBudget,
                }
            }
        }
        Run::Done(orders)
    }
}

/// What a job gave.
enum Run {
    Done(Vec<Vec<Vertex>>),
    OverBudget,
}

/// What one search gave.
enum Searched {
    Done(Vec<Vertex>),
    OverBudget,
    StoppedForAnother,
}

/// Stack for a search thread: Traces keeps its search state on the heap,
/// but its refinement of a large graph still uses deep frames.
const STACK_BYTES: usize = 64 << 20;

/// The job queue of the search threads (one per core), started on first
/// use.
fn workers() -> &'static mpsc::Sender<Job> {
    static WORKERS: OnceLock<mpsc::Sender<Job>> = OnceLock::new();
    WORKERS.get_or_init(|| {
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        for i in 0..threads {
            let receiver = receiver.clone();
            std::thread::Builder::new()
                .name(format!("traces-{i}"))
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    loop {
                        let job = match lock(&receiver).recv() {
                            Ok(job) => job,
                            Err(_) => return,
                        };
                        let run = job.run();
                        drop(job.inputs);
                        // The caller may have stopped waiting.
                        let _ = job.reply.send(run);
                        give_back_freed_memory();
                    }
                })
                .expect("cannot start a canonical labelling thread");
        }
        sender
    })
}

/// Returns the memory freed by a large search to the operating system.
/// Traces' working set grows with the vertices times the depth of its
/// group's base (docs/performance.md has what it comes to), all freed
/// when the search ends; glibc's allocator keeps
/// freed memory for reuse, so without this one hard request would leave
/// the process that much larger for good.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn give_back_freed_memory() {
    // SAFETY: glibc's `malloc_trim` takes a byte count and touches nothing
    // but the allocator's own state, under its own locks (the manual marks
    // it MT-Safe), so it is safe to call from any thread at any time.
    unsafe extern "C" {
        /// glibc's `int malloc_trim(size_t pad)`.
        safe fn malloc_trim(pad: usize) -> c_int;
    }
    malloc_trim(0);
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back_freed_memory() {}

/// The searches running now and the stop request's state.
struct Supervisor {
    state: Mutex<SupervisorState>,
    /// Signalled when a search starts or ends, and when the stop request
    /// is lowered.
    changed: Condvar,
}

struct Running {
    id: u64,
    deadline: Instant,
    abandoned: Arc<AtomicBool>,
    overran: Arc<AtomicBool>,
}

impl Running {
    fn due(&self, now: Instant) -> bool {
        self.deadline <= now || self.abandoned.load(Ordering::SeqCst)
    }
}

#[derive(Default)]
struct SupervisorState {
    /// The running searches: deadline, whether the caller left (which
    /// counts as past the deadline), and the flag that tells each it was
    /// one past its budget.
    running: Vec<Running>,
    next_id: u64,
    /// Invariant: `stopping` is true exactly while `nauty_kill_request`
    /// is raised.
    stopping: bool,
}

fn supervisor() -> &'static Supervisor {
    static SUPERVISOR: OnceLock<Supervisor> = OnceLock::new();
    SUPERVISOR.get_or_init(|| {
        std::thread::Builder::new()
            .name("traces-watchdog".into())
            .spawn(|| supervisor().watch())
            .expect("cannot start the canonical labelling watchdog");
        Supervisor {
            state: Mutex::default(),
            changed: Condvar::new(),
        }
    })
}

impl Supervisor {
    fn run(&self, input: &Input, deadline: Instant, abandoned: &Arc<AtomicBool>) -> Searched {
        let overran = Arc::new(AtomicBool::new(false));
        let id = {
            let mut state = lock(&self.state);
            while state.stopping {
                state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if Instant::now() >= deadline || abandoned.load(Ordering::SeqCst) {
                return Searched::OverBudget;
            }
            let id = state.next_id;
            state.next_id += 1;
            state.running.push(Running {
                id,
                deadline,
                abandoned: abandoned.clone(),
                overran: overran.clone(),
            });
            self.changed.notify_all();
            id
        };
        let result = input.search();
        let mut state = lock(&self.state);
        state.running.retain(|running| running.id != id);
        if state.stopping && state.running.is_empty() {
            // No search is running, and none starts before `stopping` is
            // lowered, under the same lock.
            set_kill_request(false);
            state.stopping = false;
        }
        self.changed.notify_all();
        drop(state);
        match result {
            Ok(order) => Searched::Done(order),
            Err(Stopped) if overran.load(Ordering::SeqCst) => Searched::OverBudget,
            Err(Stopped) => Searched::StoppedForAnother,
        }
    }

    /// Marks a job's searches as no longer wanted and wakes the watchdog,
    /// under the lock, so that it cannot miss the change between its look
    /// at the running searches and its wait.
    fn abandon(&self, abandoned: &AtomicBool) {
        let _state = lock(&self.state);
        abandoned.store(true, Ordering::SeqCst);
        self.changed.notify_all();
    }

    /// The watchdog: raises the stop request when a running search passes
    /// its deadline.
    fn watch(&self) {
        let mut state = lock(&self.state);
        loop {
            let now = Instant::now();
            let waiting = state
                .running
                .iter()
                .filter(|running| !running.overran.load(Ordering::SeqCst));
            let earliest = waiting
                .map(|running| {
                    if running.due(now) {
                        now
                    } else {
                        running.deadline
                    }
                })
                .min();
            match earliest {
                Some(deadline) if deadline <= now => {
                    for running in &state.running {
                        if running.due(now) {
                            running.overran.store(true, Ordering::SeqCst);
                        }
                    }
                    if !state.stopping {
                        state.stopping = true;
                        set_kill_request(true);
                    }
                }
                Some(deadline) => {
                    state = self
                        .changed
                        .wait_timeout(state, deadline - now)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                    continue;
                }
                None => {}
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path 0 - 1 - 2.
    fn path() -> (Vec<usize>, Vec<usize>, Vec<Vertex>) {
        (vec![0, 1, 3], vec![1, 2, 1], vec![1, 0, 2, 1])
    }

    #[test]
    fn graphs_that_would_send_traces_out_of_bounds_are_refused() {
        let (offsets, degrees, targets) = path();
        assert!(Sparse::new(offsets.clone(), degrees.clone(), targets.clone()).is_ok());
        let refused = |offsets, degrees, targets| Sparse::new(offsets, degrees, targets).err();
        assert_eq!(
            refused(offsets.clone(), degrees.clone(), vec![1, 0, 3, 1]),
            Some(InputError::TargetOutOfRange {
                index: 2,
                target: 3,
                n: 3
            })
        );
        assert_eq!(
            refused(offsets.clone(), degrees.clone(), vec![1, 0, 2, NONE_VERTEX]),
            Some(InputError::TargetOutOfRange {
                index: 3,
                target: NONE_VERTEX,
                n: 3
            })
        );
        assert_eq!(
            refused(vec![0, 1, 4], degrees.clone(), targets.clone()),
            Some(InputError::ListOutOfRange {
                vertex: 2,
                offset: 4,
                degree: 1,
                targets: 4
            })
        );
        assert_eq!(
            refused(vec![0, 1, usize::MAX], degrees.clone(), targets.clone()),
            Some(InputError::ListOutOfRange {
                vertex: 2,
                offset: usize::MAX,
                degree: 1,
                targets: 4
            })
        );
        assert_eq!(
            refused(vec![0, 1], degrees.clone(), targets.clone()),
            Some(InputError::Lengths {
                offsets: 2,
                degrees: 3
            })
        );
        assert_eq!(
            refused(offsets.clone(), vec![1, 1, 1], targets.clone()),
            Some(InputError::DegreeSum { targets: 4 })
        );
        assert_eq!(
            refused(vec![0, 0, 0], vec![3, 0, 1], vec![0, 1, 2]),
            Some(InputError::DegreeSum { targets: 3 })
        );
        assert_eq!(
            refused(vec![0, 0, 0], vec![3, 0, 0], vec![0, 1, 2]),
            Some(InputError::DegreeOutOfRange {
                vertex: 0,
                degree: 3,
                n: 3
            })
        );
    }

    #[test]
    fn colourings_that_are_not_a_partition_are_refused() {
        let search = |cells: &[Vec<Vertex>]| {
            let (offsets, degrees, targets) = path();
            let graph = Sparse::new(offsets, degrees, targets).expect("a path");
            canonical_order(graph, cells, Duration::from_secs(30))
        };
        let order = match search(&[vec![1], vec![2, 0]]) {
            Ok(Outcome::Labelled(order)) => order,
            other => panic!("{other:?}"),
        };
        assert_eq!(order[0], 1);
        assert_eq!(
            search(&[vec![0, 1], vec![1, 2]]),
            Err(InputError::CellVertexRepeated { vertex: 1 })
        );
        assert_eq!(
            search(&[vec![0, 1]]),
            Err(InputError::CellsIncomplete { listed: 2, n: 3 })
        );
        assert_eq!(
            search(&[vec![0, 1, 2, 3]]),
            Err(InputError::CellVertexOutOfRange { vertex: 3, n: 3 })
        );
        assert_eq!(
            search(&[vec![0, 1, NONE_VERTEX]]),
            Err(InputError::CellVertexOutOfRange {
                vertex: NONE_VERTEX,
                n: 3
            })
        );
    }

    /// Larger than any `c_int`: as `Vertex::MAX` marks no vertex elsewhere.
    const NONE_VERTEX: Vertex = Vertex::MAX;
}
