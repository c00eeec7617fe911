//! Canonical labelling with the trees of a graph labelled by hand and only
//! the rest (the core) given to Traces.
//!
//! The core's colouring is refined (`refine`) before Traces: on sparse
//! random graphs that alone labels the core, and Traces is not called.
//!
//! Trees are where Traces is slowest for what they are: sparse random
//! graphs are mostly trees hanging off a core, and every pair of equal
//! subtrees is a symmetry that Traces must find and filter. Rooted trees
//! have a linear-time canonical form (Aho, Hopcroft and Ullman), so they
//! are labelled here and reach Traces only as the colour of the core
//! vertex they hang from. Hand-written because no library on crates.io
//! labels rooted trees canonically, let alone as a colouring for nauty.
//!
//! Peeling: in rounds, every vertex with at most one neighbour left is
//! removed, except the distinguished vertices, which always stay. What
//! stays is the core. A vertex removed in round `r` has at most one
//! neighbour removed later or never: its parent. A vertex with none is the
//! centre of a tree component; two adjacent vertices removed in the same
//! round with no parent are its two centres. The round of a vertex is the
//! height of the tree hanging from it.
//!
//! Classes: each peeled vertex gets the class of the rooted tree hanging
//! from it, a number that depends only on that tree's shape: classes are
//! numbered in order of height, then of the sorted list of the children's
//! classes. A core vertex's colour is the sorted list of the classes of the
//! trees hanging from it; the colour cells go to Traces in the order of
//! those lists, after the distinguished vertices' singleton cells.
//!
//! The order: the core in its canonical order (refinement's, or Traces'
//! a connected component at a time: see `components`), then the centres of the
//! tree components (sorted by their classes), then breadth first from all
//! of these, each vertex's children in order of class. Children of equal
//! class carry equal trees, so exchanging them is an automorphism and does
//! not change the canonical graph.

use std::time::{Duration, Instant};

use super::buckets::vertices_where;
use super::components;
use super::refine::{self, Refined};
use super::simd::Avx512;
use super::{Form, runs};
use crate::graph::{Graph, Vertex, prefetch_at};
use crate::solver::cancel::Cancel;

/// The round of a vertex that is never peeled.
const CORE: u32 = u32::MAX;
/// No parent.
const NONE: Vertex = Vertex::MAX;
/// How many core vertices ahead the form's reading of their edges is
/// prefetched.
const RUN_PREFETCH_DISTANCE: usize = 16;
/// How many vertices ahead the loops over vertices in a random order
/// (peeling, children, classes, breadth first) ask for the records they
/// will read; twice as far for a read that the address of another waits on.
const AHEAD: usize = 8;

/// Asks, for a loop at `vertices[i]`, for the children's bounds of the
/// vertex `2 * AHEAD` places on and the children of the one `AHEAD` places
/// on (whose bounds were asked for earlier): the loop reads both, at
/// random places, for each vertex.
fn prefetch_children(child_start: &[u32], children: &[Vertex], vertices: &[Vertex], i: usize) {
    if let Some(&far) = vertices.get(i + 2 * AHEAD) {
        prefetch_at(child_start, far as usize);
    }
    if let Some(&near) = vertices.get(i + AHEAD) {
        prefetch_at(children, child_start[near as usize] as usize);
    }
}

/// Children copied at a time into the breadth-first order: 32 bytes, one
/// vector move.
const CHILD_COPY: usize = 8;

/// A canonical order and what it says about the canonical graph's edges.
pub struct Order {
    /// `order[i]` gets canonical label `i`.
    pub order: Vec<Vertex>,
    /// Labels below `core` are the core's.
    core: usize,
    /// Labels below `roots` are the core's and the tree components'
    /// centres: every later label is some vertex's child.
    roots: usize,
    /// The children of label `c` are the labels from `child_end[c - 1]`
    /// (`roots` for the first) up to `child_end[c]`: breadth first, each
    /// vertex's children are consecutive, after those of earlier labels.
    child_end: Vec<u32>,
    /// The first centres of two-centre tree components, ascending; the
    /// second centre is the next label.
    bicentres: Vec<u32>,
}

impl Order {
    /// Writes every edge of `graph` in this order's labels (`labelling`,
    /// made from it) to `form`, once, with `u < v`, ascending — as
    /// [`super::for_each_edge_in`] gives them, but reading the tree edges
    /// off the breadth-first structure instead of sorting each vertex's
    /// neighbours.
    pub fn write_edges(&self, graph: &Graph, labelling: &super::Labelling, form: &mut Form) {
        let n = self.child_end.len();
        let (mut core_higher, core_runs) = self.core_edges(graph, labelling, form.avx512());
        let mut bicentres = self.bicentres.iter().peekable();
        let mut first_child = self.roots as Vertex;
        for c in 0..self.roots as Vertex {
            if (c as usize) < self.core {
                // Each run is at a random place: its miss is started a few
                // vertices ahead, to overlap with the hashing of the runs
                // before it.
                if let Some(&(ahead, _)) = core_runs.get(c as usize + RUN_PREFETCH_DISTANCE) {
                    prefetch_at(&core_higher, ahead as usize);
                }
                let (from, len) = core_runs[c as usize];
                form.run(c, &mut core_higher[from as usize..(from + len) as usize]);
            }
            if bicentres.peek() == Some(&&c) {
                bicentres.next();
                form.edge(c, c + 1);
            }
            let end = self.child_end[c as usize];
            for d in first_child..end {
                form.edge(c, d);
            }
            first_child = end;
        }
        // The labels from `roots` on have no edges but to their parents and
        // children, so theirs, in order, are `(parent(d), d)` for the labels
        // `d` after the roots' children. Written vertex by vertex, each
        // vertex's few children ended in a mispredicted loop exit; here
        // `parent(d)` is `roots` plus the number of those labels whose
        // children end at or before `d` (`child_end` never decreases), a
        // running count with no branch.
        let mut ending_at = vec![0u32; n + 1];
        for &end in &self.child_end[self.roots..] {
            ending_at[end as usize] += 1;
        }
        let mut parent = self.roots as Vertex;
        for d in first_child..n as Vertex {
            parent += ending_at[d as usize];
            form.edge(parent, d);
        }
    }

    /// The edges between core vertices in canonical labels, each once with
    /// `u < v`: the higher ends of core label `c`'s edges are
    /// `higher[from..from + len]` for `(from, len) = runs[c]`, unsorted.
    /// A large core is collected in the graph's own vertex order and left
    /// where it was written: visiting it in canonical order instead reads
    /// each vertex's neighbours from a random place, and moving the runs
    /// into canonical order reads a random place per vertex, cache misses
    /// that cost more than reading each run where it is when its edges are
    /// hashed. A small core (a tree's distinguished vertices, a few cycles
    /// with trees hanging off them) is visited by label, so that the
    /// vertices outside it cost nothing here. On a dense graph, given
    /// `avx512`, a list at a time is collected in vector registers
    /// (`runs::collect_core_runs`); on a sparse one its lists are too
    /// short for that to pay: each list costs a whole 16-lane load, gather
    /// and store however few neighbours it has.
    fn core_edges(
        &self,
        graph: &Graph,
        labelling: &super::Labelling,
        avx512: Option<Avx512>,
    ) -> (Vec<Vertex>, Vec<(u32, u32)>) {
        let n = graph.vertex_count();
        let visit = if (self.core as Vertex).saturating_mul(SMALL_CORE) < n as Vertex {
            CoreVisit::ByLabel
        } else {
            // The gather indexes vertices as signed 32-bit numbers: a
            // larger graph (which the service's limits do not let in)
            // takes the scalar loop.
            let wide =
                graph.neighbor_lists().len() >= WIDE_LIST_MIN_DEGREE * n && n <= i32::MAX as usize;
            CoreVisit::VertexOrder {
                avx512: avx512.filter(|_| wide),
            }
        };
        self.collect_core_edges(graph, labelling, visit)
    }

    /// [`Order::core_edges`], visiting the core as `visit` says.
    fn collect_core_edges(
        &self,
        graph: &Graph,
        labelling: &super::Labelling,
        visit: CoreVisit,
    ) -> (Vec<Vertex>, Vec<(u32, u32)>) {
        let core = self.core as Vertex;
        let mut runs = vec![(0u32, 0u32); self.core];
        // The labels are read through the table itself: through
        // `Labelling::to_canonical` each read also matched on the kind of
        // labelling.
        let table = labelling.canonical_labels();
        let label = move |w: Vertex| table.map_or(w, |table| table[w as usize]);
        let avx512 = match visit {
            CoreVisit::VertexOrder { avx512 } => avx512,
            CoreVisit::ByLabel => None,
        };
        if let CoreVisit::ByLabel = visit {
            let mut higher = Vec::new();
            for c in 0..core {
                let from = higher.len();
                higher.extend(
                    graph
                        .neighbors(labelling.to_original(c))
                        .iter()
                        .map(|&w| label(w))
                        .filter(|&d| d > c && d < core),
                );
                runs[c as usize] = (from as u32, (higher.len() - from) as u32);
            }
            return (higher, runs);
        }
        if let (Some(avx512), Some(table)) = (avx512, table)
            && core > 0
        {
            // A spare last slot, as the vector loop wants (see there).
            runs.push((0, 0));
            let higher = runs::collect_core_runs(avx512, graph, table, core, &mut runs);
            runs.truncate(self.core);
            return (higher, runs);
        }
        // Every edge end's label first, in one pass over the neighbour lists
        // whose random reads are independent, so their misses overlap (read
        // vertex by vertex, each vertex's few neighbours left a loop exit,
        // mispredicted, between them). Then each core vertex's run is
        // compacted in place: every label is written and kept only if it
        // is a higher core vertex, since half are not, at random, and a
        // branch on it would be mispredicted half the time.
        let mut higher: Vec<Vertex> = graph.neighbor_lists().iter().map(|&w| label(w)).collect();
        let mut len = 0;
        let mut end = 0;
        for v in 0..graph.vertex_count() as Vertex {
            let start = end;
            end += graph.degree(v);
            let c = label(v);
            if c >= core {
                continue;
            }
            let from = len;
            // `len <= start`: the run is written over labels already read.
            for i in start..end {
                let d = higher[i];
                higher[len] = d;
                len += usize::from(d > c && d < core);
            }
            runs[c as usize] = (from as u32, (len - from) as u32);
        }
        (higher, runs)
    }
}

/// A core with fewer than one vertex in this many is visited by label when
/// its edges are collected.
const SMALL_CORE: Vertex = 16;

/// From this average degree on, the core's edges are collected in vector
/// registers where the processor can.
const WIDE_LIST_MIN_DEGREE: usize = 6;

/// How [`Order::collect_core_edges`] visits the core.
#[derive(Clone, Copy, Debug)]
enum CoreVisit {
    ByLabel,
    /// In vertex order; given `avx512`, a list at a time in vector
    /// registers.
    VertexOrder {
        avx512: Option<Avx512>,
    },
}

/// The canonical order of `graph`'s vertices with the `distinguished`
/// vertices (distinct) fixed and first, in their order; `None` past the
/// `budget` or once `cancel` fires. The budget covers the whole labelling:
/// it is checked before each stage here, and Traces is stopped at it.
pub fn canonical_order(
    graph: &Graph,
    distinguished: &[Vertex],
    budget: Duration,
    cancel: &Cancel,
) -> Option<Order> {
    let deadline = Instant::now() + budget;
    let time_left = || {
        deadline
            .checked_duration_since(Instant::now())
            .filter(|t| !t.is_zero() && !cancel.is_fired())
    };
    time_left()?;
    let mut forest = Forest::peel(graph, distinguished);
    time_left()?;
    // Every vertex has at most one parent: no round lists more classes or
    // vertices than there are vertices, so these are sized once.
    let n = graph.vertex_count();
    let mut lists = ClassLists {
        keys: Vec::with_capacity(n),
        spans: Vec::with_capacity(n),
    };
    let class = forest.classes(&mut lists);
    time_left()?;
    let cells = forest.core_cells(distinguished, &class, &mut lists);
    // A core vertex's neighbours outside the core are its children (a
    // peeled vertex's one neighbour left when it was peeled is its parent).
    let core_degree = |v: Vertex| graph.degree(v) as u32 - forest.child_count(v);
    let core_order = match refine::refine(graph, core_degree, &cells, deadline)? {
        Refined::Discrete(order) => order,
        Refined::Cells(cells) => {
            let core = cells.concat();
            let in_core = |v: Vertex| forest.node[v as usize].round == CORE;
            let (component, count) = components::components(graph, &core, in_core);
            drop(core);
            components::canonical_core_order(graph, &cells, &component, count, deadline, cancel)?
        }
    };
    Some(forest.order(graph, &class, core_order))
}

/// The trees of a graph found by peeling: each vertex's record, the
/// peeled vertices by round, and each vertex's children.
struct Forest {
    node: Vec<Node>,
    /// The peeled vertices, round after round; round `r` ends at
    /// `round_ends[r]`.
    peeled: Vec<Vertex>,
    round_ends: Vec<usize>,
    /// Each vertex's children: `children[child_start[v]..child_start[v + 1]]`,
    /// with [`CHILD_COPY`] labels to spare at the end.
    child_start: Vec<u32>,
    children: Vec<Vertex>,
}

/// Lists of classes (`keys[spans[i].0..spans[i].1]`), the buffers
/// [`Ranked`] orders, used again from stage to stage.
struct ClassLists {
    keys: Vec<u32>,
    spans: Vec<(u32, u32)>,
}

impl Forest {
    /// Peels `graph` round by round, `distinguished` never; `peeled` lists
    /// the vertices by round. A vertex removed in round `r` has its parent
    /// among the neighbours not removed before `r` nor in it.
    fn peel(graph: &Graph, distinguished: &[Vertex]) -> Forest {
        let n = graph.vertex_count();
        let lazy_links = 2 * graph.edge_count() >= 3 * n;
        let mut node = initial_records(graph, distinguished, lazy_links);
        let lazy_link = |v: Vertex| lazy_links && graph.degree(v) >= 2;
        let xor_of_neighbours = |v: Vertex| graph.neighbors(v).iter().fold(0, |link, &w| link ^ w);
        // Sized once, with a slot to spare: `peeled[..peeled_len]` are the
        // vertices peeled so far. A vertex's parent is written after them
        // whether or not it is now down to one neighbour, and kept only if
        // it is, with no branch on that.
        let mut peeled = vertices_where(n, |v| node[v].round == 0);
        let mut peeled_len = peeled.len();
        peeled.resize(n + 1, 0);
        let mut round_ends = Vec::new();
        let mut start = 0;
        while start < peeled_len {
            let end = peeled_len;
            let r = round_ends.len() as u32;
            for i in start..end {
                // A vertex's record and then its parent's are random reads:
                // each is asked for a few vertices ahead (the parent's from
                // the link as it stands then, which is a hint only).
                if let Some(&far) = peeled[..peeled_len].get(i + 2 * AHEAD) {
                    prefetch_at(&node, far as usize);
                }
                if let Some(&near) = peeled[..peeled_len].get(i + AHEAD) {
                    prefetch_at(&node, node[near as usize].link as usize);
                }
                let v = peeled[i];
                // Neighbours peeled in earlier rounds were `v`'s children
                // and left `link`. The one left is its parent if it leaves
                // later (in round `r + 1`, or never); if it leaves in this
                // same round it is the other centre of a tree component.
                let Node { left, mut link, .. } = node[v as usize];
                if lazy_link(v) {
                    link ^= xor_of_neighbours(v);
                }
                let parent = if left == 1 && node[link as usize].round > r {
                    link
                } else {
                    NONE
                };
                node[v as usize].link = parent;
                if parent != NONE {
                    let record = &mut node[parent as usize];
                    record.children += 1;
                    record.left -= 1;
                    record.link ^= v;
                    let now_a_leaf = record.left == 1;
                    record.round = if now_a_leaf { r + 1 } else { record.round };
                    peeled[peeled_len] = parent;
                    peeled_len += usize::from(now_a_leaf);
                }
            }
            round_ends.push(end);
            start = end;
        }
        peeled.truncate(peeled_len);
        let (child_start, children) = place_children(&mut node);
        Forest {
            node,
            peeled,
            round_ends,
            child_start,
            children,
        }
    }

    fn child_count(&self, v: Vertex) -> u32 {
        self.child_start[v as usize + 1] - self.child_start[v as usize]
    }

    fn children_of(&mut self, v: Vertex) -> &mut [Vertex] {
        let (from, to) = (
            self.child_start[v as usize] as usize,
            self.child_start[v as usize + 1] as usize,
        );
        &mut self.children[from..to]
    }

    /// Each peeled vertex's class, round by round (0 for the core); each
    /// vertex's children sorted by class as they are needed.
    fn classes(&mut self, lists: &mut ClassLists) -> Vec<u32> {
        let mut class = vec![0u32; self.node.len()];
        let mut next_class = 0u32;
        // Round 0: leaves and isolated vertices, all childless, all class 1.
        let mut start = self.round_ends.first().copied().unwrap_or(0);
        for &v in &self.peeled[..start] {
            class[v as usize] = 1;
        }
        next_class += u32::from(start > 0);
        for &end in self.round_ends.iter().skip(1) {
            let vertices = &self.peeled[start..end];
            start = end;
            lists.keys.clear();
            lists.spans.clear();
            for (j, &v) in vertices.iter().enumerate() {
                prefetch_children(&self.child_start, &self.children, vertices, j);
                let kids = &mut self.children[self.child_start[v as usize] as usize
                    ..self.child_start[v as usize + 1] as usize];
                kids.sort_unstable_by_key(|&c| class[c as usize]);
                let from = lists.keys.len() as u32;
                lists.keys.extend(kids.iter().map(|&c| class[c as usize]));
                lists.spans.push((from, lists.keys.len() as u32));
            }
            let ranked = Ranked::new(&lists.keys, &lists.spans);
            for (j, &(_, i)) in ranked.by_key.iter().enumerate() {
                if j == 0 || !ranked.same(j - 1, j) {
                    next_class += 1;
                }
                class[vertices[i as usize] as usize] = next_class;
            }
        }
        class
    }

    /// The core's colour cells, after the distinguished vertices' own: a
    /// core vertex's colour is the list of its children's classes. Most
    /// core vertices of a sparse graph have none: they form the first cell
    /// after the distinguished vertices (the empty list comes first), and
    /// only the others are ranked. Sorts the children of the core's
    /// vertices by class, for the breadth-first order.
    fn core_cells(
        &mut self,
        distinguished: &[Vertex],
        class: &[u32],
        lists: &mut ClassLists,
    ) -> Vec<Vec<Vertex>> {
        let (mut bare, mut parents) = self.core_vertices();
        // The distinguished vertices are cells of their own (both lists
        // are sorted).
        for d in distinguished {
            for list in [&mut bare, &mut parents] {
                if let Ok(i) = list.binary_search(d) {
                    list.remove(i);
                }
            }
        }
        // Children sorted by class, for the colours and for the
        // breadth-first order, which needs the distinguished vertices' too.
        for &v in parents.iter().chain(distinguished) {
            self.children_of(v)
                .sort_unstable_by_key(|&c| class[c as usize]);
        }
        lists.keys.clear();
        lists.spans.clear();
        for &v in &parents {
            let from = lists.keys.len() as u32;
            let kids = &self.children
                [self.child_start[v as usize] as usize..self.child_start[v as usize + 1] as usize];
            lists.keys.extend(kids.iter().map(|&c| class[c as usize]));
            lists.spans.push((from, lists.keys.len() as u32));
        }
        let mut cells: Vec<Vec<Vertex>> = distinguished.iter().map(|&d| vec![d]).collect();
        if !bare.is_empty() {
            cells.push(bare);
        }
        let ranked = Ranked::new(&lists.keys, &lists.spans);
        for (j, &(_, i)) in ranked.by_key.iter().enumerate() {
            if j == 0 || !ranked.same(j - 1, j) {
                cells.push(Vec::new());
            }
            cells.last_mut().expect("a cell").push(parents[i as usize]);
        }
        cells
    }

    /// The core vertices with no children (`bare`) and with some
    /// (`parents`), in vertex order: as `vertices_where` lists them, but
    /// both in one pass, every vertex written to both and kept by a count
    /// in each.
    fn core_vertices(&self) -> (Vec<Vertex>, Vec<Vertex>) {
        let n = self.node.len();
        let mut bare: Vec<Vertex> = vec![0; n + 1];
        let mut parents: Vec<Vertex> = vec![0; n + 1];
        let (mut bare_len, mut parents_len) = (0, 0);
        for (v, (record, bounds)) in self
            .node
            .iter()
            .zip(self.child_start.windows(2))
            .enumerate()
        {
            let in_core = record.round == CORE;
            let childless = bounds[0] == bounds[1];
            bare[bare_len] = v as Vertex;
            bare_len += usize::from(in_core && childless);
            parents[parents_len] = v as Vertex;
            parents_len += usize::from(in_core && !childless);
        }
        bare.truncate(bare_len);
        parents.truncate(parents_len);
        (bare, parents)
    }

    /// The order: `core_order`, the centres of tree components (sorted by
    /// their classes), then breadth first, each vertex's children in
    /// order of class.
    fn order(self, graph: &Graph, class: &[u32], core_order: Vec<Vertex>) -> Order {
        let n = self.node.len();
        let core_len = core_order.len();
        let mut order = core_order;
        order.reserve(n - core_len);
        let bicentres = self.push_centres(graph, class, &mut order);
        let roots = order.len();
        let mut child_end = Vec::with_capacity(n);
        // A vertex's children are copied as a block of CHILD_COPY labels
        // when they fit in one (the labels after them are overwritten by
        // the next vertex's, or cut off at the end), with no branch on
        // their number.
        let mut len = roots;
        order.resize(n + CHILD_COPY, NONE);
        let mut i = 0;
        while i < len {
            prefetch_children(&self.child_start, &self.children, &order[..len], i);
            let v = order[i] as usize;
            let (from, to) = (
                self.child_start[v] as usize,
                self.child_start[v + 1] as usize,
            );
            if to - from <= CHILD_COPY {
                order[len..len + CHILD_COPY]
                    .copy_from_slice(&self.children[from..from + CHILD_COPY]);
            } else {
                order[len..len + to - from].copy_from_slice(&self.children[from..to]);
            }
            len += to - from;
            child_end.push(len as Vertex);
            i += 1;
        }
        debug_assert_eq!(len, n);
        order.truncate(n);
        Order {
            order,
            core: core_len,
            roots,
            child_end,
            bicentres,
        }
    }

    /// Appends the centres of the tree components to `order`, one centre
    /// before two, then by class; gives where each pair of centres starts.
    fn push_centres(&self, graph: &Graph, class: &[u32], order: &mut Vec<Vertex>) -> Vec<Vertex> {
        let node = &self.node;
        // (kind, lower class, higher class, first centre, second centre)
        let mut components: Vec<(u8, u32, u32, Vertex, Vertex)> = Vec::new();
        for (i, &v) in self.peeled.iter().enumerate() {
            if let Some(&ahead) = self.peeled.get(i + AHEAD) {
                prefetch_at(node, ahead as usize);
            }
            if node[v as usize].link != NONE {
                continue;
            }
            let r = node[v as usize].round;
            match graph
                .neighbors(v)
                .iter()
                .find(|&&w| node[w as usize].round == r)
            {
                None => components.push((1, class[v as usize], 0, v, NONE)),
                Some(&w) if v < w => {
                    let (cv, cw) = (class[v as usize], class[w as usize]);
                    let (a, b) = if cv <= cw { (v, w) } else { (w, v) };
                    components.push((2, cv.min(cw), cv.max(cw), a, b));
                }
                Some(_) => {}
            }
        }
        components.sort_unstable_by_key(|&(kind, lo, hi, ..)| (kind, lo, hi));
        let mut bicentres = Vec::new();
        for &(kind, _, _, a, b) in &components {
            if kind == 2 {
                bicentres.push(order.len() as Vertex);
            }
            order.push(a);
            if kind == 2 {
                order.push(b);
            }
        }
        bicentres
    }
}

/// One record per vertex before peeling, so that peeling a vertex touches
/// one cache line: its parent's. `link` holds the XOR of the neighbours
/// not yet peeled, so that when one is left it names it without a scan of
/// the vertex's neighbours. A vertex's round is 0 when it starts as a leaf
/// (or isolated), else [`CORE`] until it is peeled. With `lazy_links`
/// (graphs of average degree 3 or more, where few vertices are peeled),
/// `link` starts from the peeled neighbours only and is completed with
/// the others when the vertex is peeled, instead of every edge being read
/// here.
fn initial_records(graph: &Graph, distinguished: &[Vertex], lazy_links: bool) -> Vec<Node> {
    let n = graph.vertex_count();
    let mut fixed = vec![false; n];
    for &d in distinguished {
        fixed[d as usize] = true;
    }
    let lists = graph.neighbor_lists();
    // Otherwise every vertex's link is the XOR of all its neighbours, the
    // difference of a running XOR over the neighbour lists at the two ends
    // of its list (`running_xor[i]`: of the lists' first `i` entries), with
    // no branch on the length of each list. (At most 3n entries: links are
    // eager only below average degree 3.)
    let running_xor: Vec<Vertex> = if lazy_links {
        Vec::new()
    } else {
        let mut running = Vec::with_capacity(lists.len() + 1);
        running.push(0);
        running.extend(lists.iter().scan(0, |xor, &w| {
            *xor ^= w;
            Some(*xor)
        }));
        running
    };
    let mut list_end = 0;
    (0..n as Vertex)
        .map(|v| {
            let list_start = list_end;
            let degree = graph.degree(v);
            list_end += degree;
            // The distinguished vertices never get down to one.
            let left = if fixed[v as usize] {
                u32::MAX
            } else {
                degree as u32
            };
            // With lazy links, a vertex of degree 1 starts with its one
            // neighbour, and every other with 0 (of degree 0, the XOR of
            // none; of more, completed when peeled): taken as a mask over
            // the list's first entry, with no branch on the degree.
            let link = if lazy_links {
                let first = lists.get(list_start).copied().unwrap_or(0);
                first & Vertex::from(degree == 1).wrapping_neg()
            } else {
                running_xor[list_end] ^ running_xor[list_start]
            };
            Node {
                round: if left <= 1 { 0 } else { CORE },
                left,
                link,
                children: 0,
            }
        })
        .collect()
}

/// Each vertex's children placed in one array (`children[child_start[v]..
/// child_start[v + 1]]`), in vertex order, so that the records are read in
/// sequence (the order among siblings does not matter: they are sorted by
/// class before use, and siblings of one class are interchangeable).
/// [`CHILD_COPY`] labels more, so that a block of that many can be read
/// from any vertex's first child (see [`Forest::order`]). `node[v].children`
/// counts down to its start as they are placed.
fn place_children(node: &mut [Node]) -> (Vec<u32>, Vec<Vertex>) {
    let n = node.len();
    let mut child_start = Vec::with_capacity(n + 1);
    let mut total = 0u32;
    for record in node.iter_mut() {
        child_start.push(total);
        total += record.children;
        record.children = total;
    }
    child_start.push(total);
    let mut children = vec![NONE; total as usize + CHILD_COPY];
    for v in 0..n {
        if let Some(ahead) = node.get(v + AHEAD) {
            prefetch_at(node, ahead.link as usize);
        }
        let Node { round, link, .. } = node[v];
        if round != CORE && link != NONE {
            let cursor = &mut node[link as usize].children;
            *cursor -= 1;
            children[*cursor as usize] = v as Vertex;
        }
    }
    (child_start, children)
}

/// What peeling keeps for one vertex.
#[derive(Clone, Copy)]
struct Node {
    /// The round it was peeled in, or [`CORE`].
    round: u32,
    /// Neighbours not yet peeled (from `u32::MAX` for a distinguished
    /// vertex, which never gets down to one).
    left: u32,
    /// Until it is peeled, the XOR of its neighbours not yet peeled (of
    /// those peeled, with lazy links, for a vertex of degree 2 or more);
    /// then
    /// the neighbour it hangs from, its parent, or [`NONE`].
    link: Vertex,
    /// Its children: counted, then a cursor (see where it is used).
    children: u32,
}

/// Lists of classes (`keys[spans[i].0..spans[i].1]`, each sorted) in a
/// fixed total order: shorter first, then lexicographic. Each list is
/// packed into a `u128` exact for up to three classes, so that most
/// comparisons are one integer comparison.
struct Ranked<'a> {
    keys: &'a [u32],
    spans: &'a [(u32, u32)],
    /// (packed list, index into `spans`), in order.
    by_key: Vec<(u128, u32)>,
}

impl<'a> Ranked<'a> {
    fn new(keys: &'a [u32], spans: &'a [(u32, u32)]) -> Ranked<'a> {
        let mut by_key: Vec<(u128, u32)> = spans
            .iter()
            .enumerate()
            .map(|(i, &(from, to))| {
                let list = &keys[from as usize..to as usize];
                let mut packed = (list.len() as u128) << 96;
                for (k, &c) in list.iter().take(3).enumerate() {
                    packed |= (c as u128) << (64 - 32 * k);
                }
                (packed, i as u32)
            })
            .collect();
        let list = |i: u32| {
            let (from, to) = spans[i as usize];
            &keys[from as usize..to as usize]
        };
        by_key.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| {
                if (a.0 >> 96) > 3 {
                    list(a.1).cmp(list(b.1))
                } else {
                    std::cmp::Ordering::Equal
                }
            })
        });
        Ranked {
            keys,
            spans,
            by_key,
        }
    }

    /// Whether the lists at positions `a` and `b` of the order are equal.
    fn same(&self, a: usize, b: usize) -> bool {
        let ((pa, ia), (pb, ib)) = (self.by_key[a], self.by_key[b]);
        if pa != pb {
            return false;
        }
        if (pa >> 96) <= 3 {
            return true;
        }
        let list = |i: u32| {
            let (from, to) = self.spans[i as usize];
            &self.keys[from as usize..to as usize]
        };
        list(ia) == list(ib)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Each core label's higher core neighbours, sorted, from the core
    /// visited by label, in vertex order, and in vertex order in vector
    /// registers (where the processor has them; else in vertex order
    /// again).
    fn core_runs_every_way(graph: &Graph, distinguished: &[Vertex]) -> [Vec<Vec<Vertex>>; 3] {
        let order = canonical_order(
            graph,
            distinguished,
            Duration::from_secs(60),
            &Cancel::never(),
        )
        .expect("in budget");
        let labelling = super::super::Labelling::from_order(order.order.clone());
        let avx512 = Avx512::detect();
        if avx512.is_none() {
            eprintln!("skipped the wide visit: no AVX-512F (or PUZZLED_SIMD=off)");
        }
        [
            CoreVisit::ByLabel,
            CoreVisit::VertexOrder { avx512: None },
            CoreVisit::VertexOrder { avx512 },
        ]
        .map(|visit| {
            let (higher, runs) = order.collect_core_edges(graph, &labelling, visit);
            runs.iter()
                .map(|&(from, len)| {
                    let mut run = higher[from as usize..(from + len) as usize].to_vec();
                    run.sort_unstable();
                    run
                })
                .collect()
        })
    }

    proptest! {
        #![proptest_config(crate::solver::test_support::proptest_config())]

        /// A random core, small or large beside the random trees hung off
        /// it, sparse or dense (lists longer than the 16 the vector
        /// registers take among them), gives the same core edges visited
        /// by label as in vertex order, in registers or not, and some.
        #[test]
        fn the_core_edges_are_the_same_visited_by_label_or_in_vertex_order(
            core in 5u32..60,
            half_degree in 2usize..15,
            hung in 0u32..400,
            seed in any::<u64>(),
        ) {
            // Average degree 4 or more among the first `core` vertices: a
            // core with edges, whatever the draw.
            let m = (half_degree * core as usize).min((core * (core - 1) / 2) as usize);
            let mut edges = crate::solver::test_support::random_edges(core, m, seed | 1);
            for v in core..core + hung {
                edges.extend([(crate::splitmix::mix(seed ^ u64::from(v)) % u64::from(v)) as u32, v]);
            }
            let graph = Graph::from_flat_edges(u64::from(core + hung), &edges).expect("a simple graph");
            let [by_label, in_vertex_order, wide] = core_runs_every_way(&graph, &[0]);
            prop_assert!(by_label.iter().any(|run| !run.is_empty()));
            prop_assert_eq!(&by_label, &in_vertex_order);
            prop_assert_eq!(&by_label, &wide);
        }

    }
}
