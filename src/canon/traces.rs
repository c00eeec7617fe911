//! Canonical labelling by Traces (nauty 2.9.3), under a time budget.
//!
//! Traces runs on a few threads of its own, not on the caller's: its working
//! arrays live in thread-local storage (nauty built with `USE_TLS`) that is
//! sized to the largest graph the thread has seen and kept for the next
//! call, so reusing threads keeps that memory bounded by one set per
//! thread; the threads also get a stack large enough for a deep search.
//!
//! The budget: nauty's only way to stop a search from outside is the
//! process-wide `nauty_kill_request`, which every running search checks at
//! each node of its search tree. A watchdog raises it when a search passes
//! its deadline; every search then running stops. The one past its budget
//! reports [`Outcome::OverBudget`]; any other stopped by the same request
//! simply runs again with what is left of its own budget. No search starts
//! while the request is raised, and the last one to stop lowers it.

use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use nauty_Traces_sys::{NAUKILLED, Traces, TracesOptions, TracesStats, sparsegraph};

use crate::graph::Vertex;

unsafe extern "C" {
    /// nauty's stop request (nautil.c), deliberately not thread-local.
    static mut nauty_kill_request: c_int;
}

/// Searches stopped by the stop request so far (for tests and logs).
static SEARCHES_STOPPED: AtomicU64 = AtomicU64::new(0);

/// How many searches the stop request has stopped since start-up.
pub fn searches_stopped() -> u64 {
    SEARCHES_STOPPED.load(Ordering::Relaxed)
}

/// What a search gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `order[i]` is the vertex that gets canonical label `i`.
    Labelled(Vec<Vertex>),
    /// The search passed its budget and was stopped.
    OverBudget,
}

/// A simple undirected graph in Traces' sparse layout: the neighbours of
/// `v` are `targets[offsets[v]..offsets[v] + degrees[v]]`, each edge listed
/// from both ends.
pub struct Sparse {
    pub offsets: Vec<usize>,
    pub degrees: Vec<c_int>,
    pub targets: Vec<c_int>,
}

impl Sparse {
    /// `graph` as it is.
    #[cfg(test)]
    pub fn of(graph: &crate::graph::Graph) -> Sparse {
        let n = graph.vertex_count();
        let mut offsets = Vec::with_capacity(n);
        let mut degrees = Vec::with_capacity(n);
        let mut targets = Vec::with_capacity(2 * graph.edge_count());
        for v in 0..n as Vertex {
            offsets.push(targets.len());
            degrees.push(graph.degree(v) as c_int);
            targets.extend(graph.neighbors(v).iter().map(|&w| w as c_int));
        }
        Sparse {
            offsets,
            degrees,
            targets,
        }
    }

    fn vertex_count(&self) -> usize {
        self.degrees.len()
    }
}

/// The canonical order of `graph`'s vertices, with the colour classes
/// `cells` (which partition the vertices; their order is part of the
/// labelling: the vertices of the first cell get the first labels).
pub fn canonical_order(graph: Sparse, cells: &[Vec<Vertex>], budget: Duration) -> Outcome {
    let n = graph.vertex_count();
    debug_assert_eq!(cells.iter().map(Vec::len).sum::<usize>(), n);
    if n <= 1 {
        return Outcome::Labelled((0..n as Vertex).collect());
    }
    let deadline = Instant::now() + budget;
    let input = Arc::new(Input::new(graph, cells));
    loop {
        let (reply, answer) = mpsc::sync_channel(1);
        let job = Job {
            input: input.clone(),
            deadline,
            reply,
        };
        if workers().send(job).is_err() {
            // No worker can be reached: treat it as a search that could not
            // finish, so the caller falls back rather than fails.
            tracing::error!("the canonical labelling threads are gone");
            return Outcome::OverBudget;
        }
        match answer.recv() {
            Ok(Run::Done(order)) => return Outcome::Labelled(order),
            Ok(Run::OverBudget) | Err(_) => return Outcome::OverBudget,
            // Stopped for another search's overrun: run again.
            Ok(Run::StoppedForAnother) if Instant::now() < deadline => {}
            Ok(Run::StoppedForAnother) => return Outcome::OverBudget,
        }
    }
}

/// The graph in Traces' sparse layout and the initial colouring.
struct Input {
    graph: Sparse,
    /// The vertices, cell after cell.
    lab: Vec<c_int>,
    /// `ptn[i] == 0` exactly where a cell ends.
    ptn: Vec<c_int>,
}

impl Input {
    fn new(graph: Sparse, cells: &[Vec<Vertex>]) -> Input {
        let n = graph.vertex_count();
        let mut lab = Vec::with_capacity(n);
        let mut ptn = Vec::with_capacity(n);
        for cell in cells.iter().filter(|cell| !cell.is_empty()) {
            lab.extend(cell.iter().map(|&v| v as c_int));
            ptn.extend(std::iter::repeat_n(1, cell.len() - 1));
            ptn.push(0);
        }
        Input { graph, lab, ptn }
    }

    /// Runs Traces once. Safety of the FFI call: every array has the
    /// length Traces reads (n offsets and degrees, 2m targets, n lab, ptn
    /// and orbits), the graph is simple and undirected, and no weights or
    /// output graph are asked for.
    fn search(&self) -> Result<Vec<Vertex>, Stopped> {
        let n = self.lab.len();
        let mut offsets = self.graph.offsets.clone();
        let mut degrees = self.graph.degrees.clone();
        let mut targets = self.graph.targets.clone();
        let mut lab = self.lab.clone();
        let mut ptn = self.ptn.clone();
        let mut orbits: Vec<c_int> = vec![0; n];
        let mut graph = sparsegraph {
            nde: targets.len(),
            v: offsets.as_mut_ptr(),
            nv: n as c_int,
            d: degrees.as_mut_ptr(),
            e: targets.as_mut_ptr(),
            w: std::ptr::null_mut(),
            vlen: offsets.len(),
            dlen: degrees.len(),
            elen: targets.len(),
            wlen: 0,
        };
        let mut options = TracesOptions {
            getcanon: nauty_Traces_sys::TRUE,
            defaultptn: nauty_Traces_sys::FALSE,
            ..TracesOptions::default()
        };
        let mut stats = TracesStats::default();
        // SAFETY: see the doc comment; the arrays outlive the call.
        unsafe {
            Traces(
                &mut graph,
                lab.as_mut_ptr(),
                ptn.as_mut_ptr(),
                orbits.as_mut_ptr(),
                &mut options,
                &mut stats,
                std::ptr::null_mut(),
            );
        }
        if stats.errstatus == NAUKILLED {
            SEARCHES_STOPPED.fetch_add(1, Ordering::Relaxed);
            return Err(Stopped);
        }
        if stats.errstatus != 0 {
            tracing::error!(status = stats.errstatus, "Traces reported an error");
            return Err(Stopped);
        }
        Ok(lab.into_iter().map(|v| v as Vertex).collect())
    }
}

/// A search ended by the stop request.
struct Stopped;

struct Job {
    input: Arc<Input>,
    deadline: Instant,
    reply: mpsc::SyncSender<Run>,
}

enum Run {
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
                        let run = supervisor().run(&job);
                        let _ = job.reply.send(run);
                    }
                })
                .expect("cannot start a canonical labelling thread");
        }
        sender
    })
}

/// The searches running now and the stop request's state.
struct Supervisor {
    state: Mutex<SupervisorState>,
    /// Signalled when a search starts or ends, and when the stop request
    /// is lowered.
    changed: Condvar,
}

#[derive(Default)]
struct SupervisorState {
    /// Deadlines of the running searches and the flag that tells each it
    /// was the one past its budget.
    running: Vec<(u64, Instant, Arc<AtomicBool>)>,
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
    fn run(&self, job: &Job) -> Run {
        let overran = Arc::new(AtomicBool::new(false));
        let id = {
            let mut state = lock(&self.state);
            while state.stopping {
                state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if Instant::now() >= job.deadline {
                return Run::OverBudget;
            }
            let id = state.next_id;
            state.next_id += 1;
            state.running.push((id, job.deadline, overran.clone()));
            self.changed.notify_all();
            id
        };
        let result = job.input.search();
        let mut state = lock(&self.state);
        state.running.retain(|(other, ..)| *other != id);
        if state.stopping && state.running.is_empty() {
            // SAFETY: a plain store to nauty's global; no search is running.
            unsafe { std::ptr::write_volatile(&raw mut nauty_kill_request, 0) };
            state.stopping = false;
        }
        self.changed.notify_all();
        drop(state);
        match result {
            Ok(order) => Run::Done(order),
            Err(Stopped) if overran.load(Ordering::SeqCst) => Run::OverBudget,
            Err(Stopped) => Run::StoppedForAnother,
        }
    }

    /// The watchdog: raises the stop request when a running search passes
    /// its deadline.
    fn watch(&self) {
        let mut state = lock(&self.state);
        loop {
            let now = Instant::now();
            let earliest = state
                .running
                .iter()
                .filter(|(_, _, overran)| !overran.load(Ordering::SeqCst))
                .map(|&(_, deadline, _)| deadline)
                .min();
            match earliest {
                Some(deadline) if deadline <= now => {
                    for (_, deadline, overran) in &state.running {
                        if *deadline <= now {
                            overran.store(true, Ordering::SeqCst);
                        }
                    }
                    if !state.stopping {
                        state.stopping = true;
                        // SAFETY: a plain store to nauty's global, which
                        // running searches read.
                        unsafe { std::ptr::write_volatile(&raw mut nauty_kill_request, 1) };
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
