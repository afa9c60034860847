//! Exact maximum-weight matching on a sparse graph: Edmonds' blossom algorithm with dual
//! variables (the primal–dual method of Edmonds and Gabow, as described by Galil, "Efficient
//! algorithms for finding maximum matching in graphs", 1986), written for this project.
//!
//! * Memory is O(n + m): adjacency lists, one record per edge, blossoms as child lists.
//! * Weights are exact integers of any width through [`Weight`] (`i64`, `i128`, [`Wide`]).
//!   Internally every weight is doubled so that all dual values stay integers.
//! * Every search grows alternating trees from all exposed vertices at once. A stage ends
//!   when the paths found on tight edges are augmented: the trees they ran through come
//!   apart, the other trees keep their labels and go on growing (trees kept across
//!   augmentations, as in Kolmogorov's Blossom V), so a stage costs about the trees it took
//!   apart, not the whole search again. The duals start from a greedy jump start (each
//!   vertex's dual lowered as far as feasibility allows, a tight edge to an exposed neighbour
//!   matched at once), so the augmentations are as many as the vertices the greedy pass
//!   leaves exposed, not n/2.
//!   Exposed vertices then carry different duals: only those at the highest dual grow trees
//!   ("roots"), the others wait until the roots' dual comes down to theirs (or a tree reaches
//!   them, an augmentation). An S-vertex whose dual would go below what the certificate allows
//!   (0, or in maximum-cardinality mode the roots' dual) becomes exposed instead: the
//!   alternating path from its root is flipped (a "rotation", which takes its tree apart).
//! * The result carries the dual solution ([`Duals`]) that proves it optimal; it is checked
//!   independently by [`is_proved_optimal`].
//! * [`Solver`] keeps matching and duals between solves: after edges are added, removed or
//!   re-weighted, or a vertex removed, only the blossoms around the vertices touched are
//!   dissolved (their duals moved onto their vertices, which stays feasible) and only the
//!   vertices left exposed are searched from: a few augmentations instead of a solve from
//!   scratch.
//!
//! Units: for an edge (u, v) of weight w and the blossoms B containing both ends,
//! `vertex[u] + vertex[v] + Σ blossom[B] ≥ 2w` (twice the usual LP duals).
//!
//! Why one long file: the search, blossom shrinking and expansion, dual steps and the warm-start
//! repairs all work on the same parallel arrays of [`Solver`]; the checker ([`is_proved_optimal`])
//! and the tests are apart.

#![allow(clippy::needless_range_loop)] // parallel arrays indexed by vertex or blossom id

mod check;
mod queue;
#[cfg(test)]
mod tests;
mod weight;

pub use check::is_proved_optimal;
pub use weight::{wide, Weight, Wide};

use queue::Events;

const NONE: usize = usize::MAX;
/// The kinds of dual step, in the order preferred among steps of one size.
const STEP_DUAL: u8 = 1;
const STEP_FREE: u8 = 2;
const STEP_SS: u8 = 3;
const STEP_EXPAND: u8 = 4;
const STEP_WAITING: u8 = 5;
/// How many steps of a search (vertices grown from, dual steps, stages) pass between two
/// questions to [`Solver::solve_until`]'s `cancel`: a clock read each time costs nothing
/// next to them.
pub const CANCEL_EVERY: u32 = 256;

const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;

/// A dual solution in the laminar form: vertex duals, and each blossom's dual and parent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duals<W> {
    /// 2·y_v for every vertex.
    pub vertex: Vec<W>,
    /// The innermost blossom holding each vertex (an index into `blossoms`).
    pub vertex_parent: Vec<Option<usize>>,
    /// Each blossom in use: its dual and the blossom holding it.
    pub blossoms: Vec<BlossomDual<W>>,
    /// In maximum-cardinality mode with exposed vertices: the inner (T) vertices of the last
    /// search, a Tutte–Berge set proving that no matching is larger.
    pub inner: Vec<usize>,
}

/// One blossom of a [`Duals`]: its dual and its parent in the laminar family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlossomDual<W> {
    /// 2·z_B.
    pub dual: W,
    /// The innermost blossom holding this one (an index into [`Duals::blossoms`]); `None` at top
    /// level.
    pub parent: Option<usize>,
}

/// A maximum-weight matching with the duals that prove it optimal.
#[derive(Clone, Debug)]
pub struct Matching<W> {
    /// `mate[v]`.
    pub mate: Vec<Option<usize>>,
    /// Total weight of matched edges.
    pub weight: W,
    /// The dual solution proving optimality (see [`is_proved_optimal`]).
    pub duals: Duals<W>,
}

/// Maximum-weight matching of the graph with vertices 0..n and the given edges (u != v;
/// several edges between one pair: the heaviest counts; edges of weight <= 0 are allowed and
/// simply never help unless max_cardinality). With max_cardinality = true: the maximum weight
/// among matchings of MAXIMUM CARDINALITY.
pub fn maximum_weight_matching<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_cardinality: bool,
) -> Matching<W> {
    let mut s = Solver::new(n, max_cardinality);
    for (u, v, w) in edges {
        s.add_edge(*u, *v, *w);
    }
    s.solve();
    s.matching()
}

/// A matching kept with its duals between solves (warm starts).
///
/// Build it with [`Solver::new`] and [`Solver::add_edge`], call [`Solver::solve`], read
/// [`Solver::matching`]; then change edges or remove vertices and call `solve` again. Each
/// change dissolves the blossoms holding the vertices it touches and leaves those vertices
/// exposed (at most two per change, plus the bases of the dissolved blossoms whose matched edge
/// loses its tightness); the next solve searches from the vertices left exposed, at a cost
/// of about the part of the graph their trees explore. Edges added before the first
/// solve are free.
/// The duals at the end of a solve: vertex duals, the blossom forest, and for each blossom
/// the sum of its own and its ancestors' duals.
struct DualView<W> {
    born: Vec<u64>,
    y: Vec<W>,
    parent: Vec<usize>,
    top: Vec<usize>,
    depth: Vec<u32>,
    zsum: Vec<W>,
    /// Blossoms nest hundreds deep in brackets of many equal pairs, and pricing asks for the
    /// lowest common blossom of millions of pairs: found in O(1).
    meets: Meets,
    /// Each blossom's highest ancestor reached through blossoms of dual 0 only (itself when
    /// its dual is positive or it is a top blossom).
    lift: Vec<u32>,
}

/// The lowest common blossom of two vertices in O(1): the vertices in depth-first order of
/// the blossom forest (each blossom's vertices consecutive), and for each two neighbours in
/// that order the blossom where their paths meet; two vertices' lowest common blossom is the
/// shallowest of those between them, a range minimum read from a sparse table.
#[derive(Default)]
struct Meets {
    /// Each vertex's place in the order (`u32::MAX` for a vertex not in any blossom).
    pos: Vec<u32>,
    /// `table[k * len + i]`: the shallowest meeting blossom among places i .. i + 2^k
    /// (place i's entry is where the vertex at i meets the one at i + 1).
    table: Vec<u32>,
    len: usize,
}

impl Meets {
    /// `tops`: the top blossoms (ids ≥ n; vertices are 0..n); `childs`, `depth` by node id.
    fn new(n: usize, tops: &[usize], childs: &[Vec<usize>], depth: &[u32]) -> Meets {
        let mut pos = vec![u32::MAX; n];
        let mut meet: Vec<u32> = Vec::new();
        // Where the next vertex in the order meets the one before it: the blossom whose
        // next child is being entered.
        let mut pending;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for &t in tops {
            // A top blossom's first vertex meets none before it (no query spans two tops).
            pending = u32::MAX;
            stack.push((t, 0));
            while let Some((b, i)) = stack.pop() {
                if b < n {
                    pos[b] = meet.len() as u32;
                    meet.push(pending);
                    continue;
                }
                if i < childs[b].len() {
                    if i > 0 {
                        pending = b as u32;
                    }
                    stack.push((b, i + 1));
                    stack.push((childs[b][i], 0));
                }
            }
        }
        // Each place's entry meets the NEXT vertex: shift by one.
        if !meet.is_empty() {
            meet.remove(0);
            meet.push(u32::MAX);
        }
        let len = meet.len();
        let shallower = |a: u32, b: u32| {
            if a == u32::MAX || (b != u32::MAX && depth[b as usize] < depth[a as usize]) {
                b
            } else {
                a
            }
        };
        let mut table = meet;
        let mut k = 1;
        while (1 << k) <= len {
            let prev = (k - 1) * len;
            let half = 1 << (k - 1);
            for i in 0..len {
                let x = if i + half < len {
                    shallower(table[prev + i], table[prev + i + half])
                } else {
                    table[prev + i]
                };
                table.push(x);
            }
            k += 1;
        }
        Meets { pos, table, len }
    }

    /// The lowest blossom holding both u and v (two different vertices of one top blossom).
    fn common(&self, u: usize, v: usize, depth: &[u32]) -> usize {
        let (a, b) = (self.pos[u] as usize, self.pos[v] as usize);
        let (a, b) = (a.min(b), a.max(b));
        // Places a .. b − 1: the meetings from u's neighbour up to v.
        let span = b - a;
        let k = (usize::BITS - 1 - span.leading_zeros()) as usize;
        let x = self.table[k * self.len + a];
        let y = self.table[k * self.len + b - (1 << k)];
        if depth[y as usize] < depth[x as usize] {
            y as usize
        } else {
            x as usize
        }
    }
}

impl<W: Weight> DualView<W> {
    fn reduced_cost(&self, u: usize, v: usize, w2: &W) -> W {
        self.y[u].add(&self.y[v]).sub(w2).add(&self.shared(u, v))
    }

    /// Whether a blossom holds both u and v (then their top blossom does).
    fn in_one_blossom(&self, u: usize, v: usize) -> bool {
        self.top[u] == self.top[v] && self.top[u] != u
    }

    /// The duals of the blossoms holding both u and v, summed: the lowest common one's and
    /// those above it.
    fn shared(&self, u: usize, v: usize) -> W {
        if self.in_one_blossom(u, v) {
            self.zsum[self.common(u, v)]
        } else {
            W::zero()
        }
    }

    /// The reduced cost when negative (the pair is not covered), else `None`; most pairs are
    /// settled without looking for their lowest common blossom: covered by the vertex duals
    /// alone, or with their top blossom's (every blossom holding both is in it).
    fn violation(&self, u: usize, v: usize, w2: &W) -> Option<W> {
        let d = self;
        let r = d.y[u].add(&d.y[v]).sub(w2);
        if r >= W::zero() {
            return None;
        }
        if !d.in_one_blossom(u, v) {
            return Some(r);
        }
        if r.add(&d.zsum[d.top[u]]) >= W::zero() {
            return None;
        }
        let full = r.add(&d.zsum[d.common(u, v)]);
        (full < W::zero()).then_some(full)
    }

    /// The lowest blossom holding both u and v (in the same top blossom).
    fn common(&self, u: usize, v: usize) -> usize {
        if u == v {
            return self.parent[u];
        }
        self.meets.common(u, v, &self.depth)
    }

    /// Whether every pair at v is covered under `new` at least as under `self`: v's dual not
    /// lower, the same blossoms holding it (made at the same time), none of their duals lower.
    fn covers(&self, new: &DualView<W>, v: usize) -> bool {
        if self.y.len() != new.y.len() || new.y[v] < self.y[v] {
            return false;
        }
        let (mut a, mut b) = (self.parent[v], new.parent[v]);
        loop {
            if a != b {
                return false;
            }
            if a == NONE {
                return true;
            }
            if self.born[a] != new.born[a] || new.zsum[a] < self.zsum[a] {
                return false;
            }
            // A pair's blossoms are those from its lowest common one up: their sum, per level.
            a = self.parent[a];
            b = new.parent[b];
        }
    }
}

/// An exact maximum-weight matching kept between solves (warm start): edges can be added, removed
/// or re-weighted and vertices removed, and the next solve repairs only what changed.
pub struct Solver<W: Weight> {
    n: usize,
    max_card: bool,
    // Edges: ends, doubled weight, whether removed.
    eu: Vec<u32>,
    ev: Vec<u32>,
    w2: Vec<W>,
    gone: Vec<bool>,
    /// Edge ids at each vertex; a removed vertex's edges stay in its neighbours' lists
    /// (flagged `gone`) until half a list is stale, so removing a vertex costs its degree.
    adj: Vec<Vec<u32>>,
    stale: Vec<u32>,
    vertex_gone: Vec<bool>,
    /// Matched edge of each vertex.
    mate: Vec<usize>,
    /// Vertex duals (0..n) and blossom duals (n..2n), doubled units.
    dual: Vec<W>,
    // Blossom forest over ids 0..2n (vertices are trivial blossoms).
    parent: Vec<usize>,
    childs: Vec<Vec<usize>>,
    /// endps[b][j] = (x in childs[j], y in childs[j+1], edge).
    endps: Vec<Vec<(usize, usize, usize)>>,
    base: Vec<usize>,
    inblossom: Vec<usize>,
    unused: Vec<usize>,
    // Search state of one solve.
    label: Vec<u8>,
    labelend: Vec<usize>,
    labeledge: Vec<usize>,
    bestedge: Vec<usize>,
    allowed: Vec<u32>,
    stamp: u32,
    queue: Vec<usize>,
    level: W,
    /// Exposed vertices below the roots' dual, each with its dual when listed, in order of
    /// that dual (highest last). An entry whose vertex was matched since, or whose dual
    /// changed (matched, then exposed again by a rotation), is dropped when it comes up.
    waiting: Vec<(usize, W)>,
    mark: Vec<bool>,
    /// The root of the tree holding each top-level blossom, and the trees whose paths were
    /// augmented (left alone until the stage ends, then taken apart).
    treeid: Vec<usize>,
    dead: Vec<bool>,
    /// Each tree's top-level blossoms as they joined it, and the trees augmented (or
    /// rotated) since the last `dissolve`.
    tree_tops: Vec<Vec<usize>>,
    dead_trees: Vec<usize>,
    /// Trees grown from a root and not yet augmented or rotated: once none is left (and no
    /// exposed vertex waits), every step `events` still holds is stale, and the search ends
    /// without draining them (most of its entries, after the last augmentation).
    live_trees: usize,
    /// Which label each vertex's (blossom's) stored dual follows, and the total step.
    ylab: Vec<u8>,
    zlab: Vec<u8>,
    offset: W,
    /// Candidate steps by twice the total step at which they happen (stale entries dropped
    /// as met): an S-vertex's dual reaching 0 (`STEP_DUAL`), an S-to-free edge
    /// (`STEP_FREE`) or an S-to-S edge (`STEP_SS`) getting tight, a T-blossom's dual
    /// reaching 0 (`STEP_EXPAND`), the level coming down to a waiting vertex
    /// (`STEP_WAITING`); of one time, in that order.
    events: Events<W>,
    started: bool,
    /// Least dual each vertex takes in the jump start (see [`Solver::set_floor`]).
    lower: Vec<Option<W>>,
    /// The duals at the end of the last solve, for [`Solver::pair_reduced_cost`].
    view: DualView<W>,
    /// Each vertex: whether its cover may have dropped in the last solve (see
    /// [`Solver::lowered`]).
    lowered: Vec<bool>,
    /// Blossoms made so far, and when each live one was made (its members are fixed then).
    births: u64,
    born: Vec<u64>,
    inner: Vec<usize>,
    stats: Stats,
    /// Ids whose search labels were written in this solve, and vertices (blossoms) whose dual
    /// follows a label: the next solve clears only these.
    touched: Vec<usize>,
    is_touched: Vec<bool>,
    ylabeled: Vec<usize>,
    zlabeled: Vec<usize>,
    /// The vertices exposed by a rotation since the last `dissolve`.
    rotated: Vec<usize>,
}

/// What the solver did (counts since it was created).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search stages: one per solve, and one more each time the trees of augmented (or
    /// rotated) paths are taken apart.
    pub stages: usize,
    /// Augmenting paths flipped.
    pub augmentations: usize,
    /// S-vertices made exposed to keep duals within bounds.
    pub rotations: usize,
    /// Blossoms formed.
    pub blossoms: usize,
    /// Blossoms formed with a blossom among their children.
    pub nested: usize,
    /// T-blossoms expanded during a search, and S-blossoms at dual 0 of the trees taken
    /// apart at the end of a stage.
    pub expanded_t: usize,
    /// S-blossoms at dual 0 of the trees taken apart at the end of a stage.
    pub expanded_end: usize,
    /// Vertices matched by the greedy start.
    pub greedy_matched: usize,
    /// Dual steps, and edges scanned from S-vertices.
    pub steps: usize,
    /// Edges scanned from S-vertices.
    pub scans: usize,
}

impl Stats {
    /// What was done since `earlier` (counts of the same solver).
    pub fn since(&self, earlier: &Stats) -> Stats {
        Stats {
            stages: self.stages - earlier.stages,
            augmentations: self.augmentations - earlier.augmentations,
            rotations: self.rotations - earlier.rotations,
            blossoms: self.blossoms - earlier.blossoms,
            nested: self.nested - earlier.nested,
            expanded_t: self.expanded_t - earlier.expanded_t,
            expanded_end: self.expanded_end - earlier.expanded_end,
            greedy_matched: self.greedy_matched - earlier.greedy_matched,
            steps: self.steps - earlier.steps,
            scans: self.scans - earlier.scans,
        }
    }

    /// Adds the counts of `o` to these.
    pub fn add(&mut self, o: &Stats) {
        self.stages += o.stages;
        self.augmentations += o.augmentations;
        self.rotations += o.rotations;
        self.blossoms += o.blossoms;
        self.nested += o.nested;
        self.expanded_t += o.expanded_t;
        self.expanded_end += o.expanded_end;
        self.greedy_matched += o.greedy_matched;
        self.steps += o.steps;
        self.scans += o.scans;
    }
}

enum Found {
    Nothing,
    Augmented,
}

impl<W: Weight> Solver<W> {
    /// An empty graph on vertices 0..n.
    pub fn new(n: usize, max_cardinality: bool) -> Self {
        let nn = 2 * n.max(1);
        Solver {
            n,
            max_card: max_cardinality,
            eu: Vec::new(),
            ev: Vec::new(),
            w2: Vec::new(),
            gone: Vec::new(),
            adj: vec![Vec::new(); n],
            stale: vec![0; n],
            vertex_gone: vec![false; n],
            mate: vec![NONE; n],
            dual: vec![W::zero(); nn],
            parent: vec![NONE; nn],
            childs: vec![Vec::new(); nn],
            endps: vec![Vec::new(); nn],
            base: (0..nn).map(|b| if b < n { b } else { NONE }).collect(),
            inblossom: (0..n).collect(),
            unused: (n..2 * n).rev().collect(),
            label: vec![FREE; nn],
            labelend: vec![NONE; nn],
            labeledge: vec![NONE; nn],
            bestedge: vec![NONE; nn],
            allowed: Vec::new(),
            stamp: 0,
            queue: Vec::new(),
            level: W::zero(),
            waiting: Vec::new(),
            mark: vec![false; nn],
            treeid: vec![NONE; nn],
            dead: vec![false; nn],
            tree_tops: vec![Vec::new(); nn],
            dead_trees: Vec::new(),
            live_trees: 0,
            ylab: vec![FREE; n],
            zlab: vec![FREE; nn],
            offset: W::zero(),
            events: Events::new(),
            started: false,
            lower: vec![None; n],
            lowered: vec![true; n],
            births: 0,
            born: vec![0; nn],
            view: DualView {
                born: Vec::new(),
                y: Vec::new(),
                parent: Vec::new(),
                top: Vec::new(),
                depth: Vec::new(),
                zsum: Vec::new(),
                meets: Meets::default(),
                lift: Vec::new(),
            },
            inner: Vec::new(),
            stats: Stats::default(),
            touched: Vec::new(),
            is_touched: vec![false; nn],
            ylabeled: Vec::new(),
            zlabeled: Vec::new(),
            rotated: Vec::new(),
        }
    }

    /// Number of edges added so far (removed ones included): the next edge's id.
    pub fn edge_count(&self) -> usize {
        self.eu.len()
    }

    /// Adds edge (u, v) of weight w and returns its id. After a solve, the edge's slack is
    /// repaired if it is negative (see [`Solver`]).
    pub fn add_edge(&mut self, u: usize, v: usize, w: W) -> usize {
        assert!(
            u < self.n && v < self.n && u != v,
            "edge ({u}, {v}) on {} vertices",
            self.n
        );
        assert!(
            !self.vertex_gone[u] && !self.vertex_gone[v],
            "edge on a removed vertex"
        );
        let e = self.eu.len();
        self.eu.push(u as u32);
        self.ev.push(v as u32);
        self.w2.push(w.double());
        self.gone.push(false);
        self.allowed.push(0);
        self.adj[u].push(e as u32);
        self.adj[v].push(e as u32);
        if self.started {
            self.repair(e);
        }
        e
    }

    /// Before the first solve: the jump start leaves v's dual at `y` or above (doubled units,
    /// as [`Solver::pair_reduced_cost`]). A caller solving a sparse part of a larger graph passes
    /// duals feasible for the whole of it, so that the pairs it left out start covered.
    pub fn set_floor(&mut self, v: usize, y: W) {
        self.lower[v] = Some(y);
    }

    /// Removes edge e.
    pub fn remove_edge(&mut self, e: usize) {
        if self.gone[e] {
            return;
        }
        let (u, v) = self.ends(e);
        // A tight edge may hold a blossom together or be matched; one with slack holds
        // nothing.
        if self.started && self.not_loose(e) {
            self.release(u);
            self.release(v);
        }
        self.gone[e] = true;
        self.adj[u].retain(|&x| x as usize != e);
        self.adj[v].retain(|&x| x as usize != e);
    }

    /// After a solve, nothing changed since: removes edges whose reduced cost is positive
    /// (they hold no blossom and no matched pair, so nothing is released); one pass over
    /// each end's list. Others go through [`Solver::remove_edge`].
    pub fn remove_loose_edges(&mut self, edges: &[usize]) {
        let mut ends = Vec::new();
        for &e in edges {
            if self.gone[e] {
                continue;
            }
            if self.reduced_cost(e) <= W::zero() {
                self.remove_edge(e);
                continue;
            }
            self.gone[e] = true;
            let (u, v) = self.ends(e);
            ends.push(u);
            ends.push(v);
        }
        ends.sort_unstable();
        ends.dedup();
        for v in ends {
            let gone = &self.gone;
            self.adj[v].retain(|&x| !gone[x as usize]);
            self.stale[v] = 0;
        }
    }

    /// Gives edge e weight w.
    pub fn set_weight(&mut self, e: usize, w: W) {
        assert!(!self.gone[e], "re-weighting a removed edge");
        let w2 = w.double();
        if self.started && w2 < self.w2[e] {
            // A lighter edge loses its tightness: whatever rested on it (a matched edge, a
            // blossom's edge: both tight) goes. An edge with slack held nothing.
            if self.not_loose(e) {
                let (u, v) = self.ends(e);
                self.release(u);
                self.release(v);
            }
        }
        self.w2[e] = w2;
        if self.started {
            self.repair(e);
        }
    }

    /// Removes vertex v and its edges: it stays unmatched.
    pub fn remove_vertex(&mut self, v: usize) {
        if self.vertex_gone[v] {
            return;
        }
        if self.started {
            self.release(v);
        }
        for e in std::mem::take(&mut self.adj[v]) {
            let e = e as usize;
            self.gone[e] = true;
            let (a, b) = self.ends(e);
            let other = if a == v { b } else { a };
            self.stale[other] += 1;
            if 2 * self.stale[other] as usize > self.adj[other].len() {
                let gone = &self.gone;
                self.adj[other].retain(|&x| !gone[x as usize]);
                self.stale[other] = 0;
            }
        }
        self.vertex_gone[v] = true;
        self.dual[v] = W::zero();
    }

    /// Drops the matching, the blossoms and the duals (floors stay): the next solve starts
    /// again from the jump start on the current weights. Cheaper than repairing when nearly
    /// every weight changed, each repair leaving its vertex exposed at a dual of its own.
    pub fn forget(&mut self) {
        let n = self.n;
        for b in n..2 * n {
            self.childs[b].clear();
            self.endps[b].clear();
            self.base[b] = NONE;
            self.parent[b] = NONE;
            self.dual[b] = W::zero();
        }
        for v in 0..n {
            self.parent[v] = NONE;
            self.inblossom[v] = v;
            self.mate[v] = NONE;
            self.dual[v] = W::zero();
        }
        self.unused = (n..2 * n).rev().collect();
        self.started = false;
    }

    /// Solves (or re-solves after changes) to optimality.
    pub fn solve(&mut self) {
        self.solve_until(&|| false);
    }

    /// [`Solver::solve`] unless `cancel` says stop first: it is asked every
    /// [`CANCEL_EVERY`] steps of the search (a vertex grown from, a dual step, a stage), so
    /// that a deadline stops a solve of a large graph within milliseconds instead of at its
    /// end. Returns false when cancelled: the matching is then legal but not proved optimal
    /// (the duals stay feasible; a later solve carries on from it), and the duals of the last
    /// finished solve are still the ones [`Solver::pair_reduced_cost`] reads.
    pub fn solve_until(&mut self, cancel: &dyn Fn() -> bool) -> bool {
        if !self.started {
            self.started = true;
            self.jump_start();
        }
        if !self.search(cancel) {
            return false;
        }
        let view = self.dual_view();
        self.lowered = (0..self.n).map(|v| !self.view.covers(&view, v)).collect();
        self.view = view;
        true
    }

    /// After a solve: whether a pair at v left out of the graph may have lost reduced cost
    /// since the solve before (v's dual fell, or a blossom holding it changed or its dual
    /// fell). A pair at two vertices for which this is false, and whose weight did not rise,
    /// is covered now if it was then.
    pub fn lowered(&self, v: usize) -> bool {
        self.lowered[v]
    }

    fn dual_view(&self) -> DualView<W> {
        let nn = 2 * self.n;
        let mut v = DualView {
            born: self.born.clone(),
            y: (0..self.n).map(|x| self.y(x)).collect(),
            parent: self.parent.clone(),
            top: vec![NONE; nn],
            depth: vec![0; nn],
            zsum: vec![W::zero(); nn],
            meets: Meets::default(),
            lift: (0..nn as u32).collect(),
        };
        // Blossoms from the top down: a parent before its children.
        let mut order: Vec<usize> = (0..nn)
            .filter(|&b| (b < self.n || self.base[b] != NONE) && self.parent[b] == NONE)
            .collect();
        let mut i = 0;
        while i < order.len() {
            let b = order[i];
            i += 1;
            let p = self.parent[b];
            let own = if b < self.n { W::zero() } else { self.z(b) };
            if p == NONE {
                v.top[b] = b;
                v.zsum[b] = own;
            } else {
                v.top[b] = v.top[p];
                v.depth[b] = v.depth[p] + 1;
                if own == W::zero() {
                    v.lift[b] = v.lift[p];
                }
                v.zsum[b] = v.zsum[p].add(&own);
            }
            if b >= self.n {
                order.extend(self.childs[b].iter().copied());
            }
        }
        let tops: Vec<usize> = (self.n..nn)
            .filter(|&b| self.base[b] != NONE && self.parent[b] == NONE)
            .collect();
        v.meets = Meets::new(self.n, &tops, &self.childs, &v.depth);
        v
    }

    /// What the solver did so far.
    pub fn stats(&self) -> Stats {
        self.stats.clone()
    }

    /// After a solve: the reduced cost of edge e under the optimal duals (vertex duals plus
    /// those of the blossoms holding both ends, minus twice the weight). Every optimal
    /// matching uses only edges of reduced cost 0 (complementary slackness), so an edge with
    /// a positive one is in none.
    pub fn reduced_cost(&self, e: usize) -> W {
        let (u, v) = self.ends(e);
        self.pair_reduced_cost(u, v, &self.w2[e])
    }

    /// The reduced cost a pair (u, v) of doubled weight `w2` would have, in the graph or not,
    /// under the duals of the last solve (the optimum stays optimal with such a pair added
    /// when it is ≥ 0).
    pub fn pair_reduced_cost(&self, u: usize, v: usize, w2: &W) -> W {
        self.view.reduced_cost(u, v, w2)
    }

    /// [`Solver::pair_reduced_cost`] when it is negative, else `None` (faster: see
    /// `DualView::violation`).
    pub fn pair_violation(&self, u: usize, v: usize, w2: &W) -> Option<W> {
        self.view.violation(u, v, w2)
    }

    /// Vertex `v`'s dual after the last solve (a lower bound on the reduced cost of its
    /// pairs is `y(u) + y(v) − w2`: blossom duals only add).
    pub fn vertex_dual(&self, v: usize) -> W {
        self.view.y[v]
    }

    /// After a solve: the duals of the blossoms holding both u and v (doubled units), summed.
    pub fn shared_dual(&self, u: usize, v: usize) -> W {
        self.view.shared(u, v)
    }

    /// After a solve: two blossoms holding v, each with the sum Z of its dual and its
    /// ancestors' (doubled units); `None` when v is in no blossom. A pair of v and another
    /// vertex in one of them has a reduced cost of at least `y(u) + y(v) + Z − w2` (every
    /// blossom holding both is in it), exactly that for the first: the highest blossom reached
    /// from v's own through blossoms of dual 0. The second is the top blossom.
    pub fn blossoms_of(&self, v: usize) -> Option<[(usize, W); 2]> {
        let view = &self.view;
        let t = *view.top.get(v)?;
        if t == v {
            return None;
        }
        let g = view.lift[view.parent[v]] as usize;
        Some([(g, view.zsum[g]), (t, view.zsum[t])])
    }

    /// The current matching with its duals.
    pub fn matching(&self) -> Matching<W> {
        let n = self.n;
        let mut weight = W::zero();
        let mut mate = vec![None; n];
        for v in 0..n {
            let e = self.mate[v];
            if e != NONE {
                let (a, b) = self.ends(e);
                mate[v] = Some(if a == v { b } else { a });
                if v == a {
                    weight = weight.add(&self.w2[e].half());
                }
            }
        }
        // Blossoms in use, renumbered.
        let mut index = vec![NONE; 2 * n];
        let mut blossoms = Vec::new();
        for b in n..2 * n {
            if self.base[b] != NONE {
                index[b] = blossoms.len();
                blossoms.push(BlossomDual {
                    dual: self.dual[b],
                    parent: None,
                });
            }
        }
        for b in n..2 * n {
            if index[b] != NONE && self.parent[b] != NONE {
                blossoms[index[b]].parent = Some(index[self.parent[b]]);
            }
        }
        let vertex_parent = (0..n)
            .map(|v| (self.parent[v] != NONE).then(|| index[self.parent[v]]))
            .collect();
        Matching {
            mate,
            weight,
            duals: Duals {
                vertex: self.dual[..n].to_vec(),
                vertex_parent,
                blossoms,
                inner: self.inner.clone(),
            },
        }
    }

    fn ends(&self, e: usize) -> (usize, usize) {
        (self.eu[e] as usize, self.ev[e] as usize)
    }

    fn other(&self, e: usize, v: usize) -> usize {
        let (a, b) = self.ends(e);
        if a == v {
            b
        } else {
            a
        }
    }

    /// Slack of an edge between two different top-level blossoms.
    fn slack(&self, e: usize) -> W {
        let (u, v) = self.ends(e);
        self.y(u).add(&self.y(v)).sub(&self.w2[e])
    }

    fn floor(&self) -> Option<W> {
        (!self.max_card).then(W::zero)
    }

    /// Duals and a matching to start from: each vertex in turn lowers its dual as far as every
    /// edge allows (not below 0 unless maximum cardinality), and takes an exposed neighbour
    /// across the edge that stops it. Feasible, and every matched edge is tight.
    fn jump_start(&mut self) {
        let n = self.n;
        for v in 0..n {
            if self.vertex_gone[v] {
                continue;
            }
            let mut most: Option<W> = self.floor();
            if let Some(l) = &self.lower[v] {
                most = Some(most.map_or(*l, |m| m.max(*l)));
            }
            for &e in &self.adj[v] {
                if self.gone[e as usize] {
                    continue;
                }
                let w = self.w2[e as usize].half();
                if most.as_ref().is_none_or(|m| w > *m) {
                    most = Some(w);
                }
            }
            self.dual[v] = most.unwrap_or_else(W::zero);
        }
        for v in 0..n {
            if self.mate[v] != NONE || self.vertex_gone[v] {
                continue;
            }
            let mut most: Option<W> = self.floor();
            if let Some(l) = &self.lower[v] {
                most = Some(most.map_or(*l, |m| m.max(*l)));
            }
            for &e in &self.adj[v] {
                let e = e as usize;
                if self.gone[e] {
                    continue;
                }
                let need = self.w2[e].sub(&self.dual[self.other(e, v)]);
                if most.as_ref().is_none_or(|m| need > *m) {
                    most = Some(need);
                }
            }
            let Some(y) = most else { continue };
            // An exposed neighbour across an edge that is now tight.
            let partner = self.adj[v].iter().map(|&e| e as usize).find(|&e| {
                if self.gone[e] {
                    return false;
                }
                let u = self.other(e, v);
                self.mate[u] == NONE && self.w2[e].sub(&self.dual[u]) == y
            });
            self.dual[v] = y;
            if let Some(e) = partner {
                let u = self.other(e, v);
                self.mate[u] = e;
                self.mate[v] = e;
                self.stats.greedy_matched += 2;
            }
        }
        // Augmenting paths of three tight edges (exposed, matched pair, exposed): found
        // here for the price of a look at two neighbourhoods, each saves a search stage.
        let tight = |s: &Self, e: usize| {
            let (a, b) = s.ends(e);
            s.dual[a].add(&s.dual[b]) == s.w2[e]
        };
        for v in 0..n {
            if self.mate[v] != NONE || self.vertex_gone[v] {
                continue;
            }
            'path: for i in 0..self.adj[v].len() {
                let e1 = self.adj[v][i] as usize;
                if self.gone[e1] {
                    continue;
                }
                let u = self.other(e1, v);
                let m = self.mate[u];
                if m == NONE || !tight(self, e1) {
                    continue;
                }
                let u2 = self.other(m, u);
                for j in 0..self.adj[u2].len() {
                    let e3 = self.adj[u2][j] as usize;
                    if self.gone[e3] {
                        continue;
                    }
                    let x = self.other(e3, u2);
                    if x != v && self.mate[x] == NONE && tight(self, e3) {
                        self.mate[v] = e1;
                        self.mate[u] = e1;
                        self.mate[u2] = e3;
                        self.mate[x] = e3;
                        self.stats.greedy_matched += 2;
                        break 'path;
                    }
                }
            }
        }
    }

    /// The search, to the optimum: trees grow, paths are augmented and the trees they ran
    /// through taken apart (`dissolve`), until no exposed vertex is left at a dual above 0
    /// (in maximum-cardinality mode: until no tree can change).
    /// False when `cancel` stopped it first (labels and duals settled, the matching legal).
    fn search(&mut self, cancel: &dyn Fn() -> bool) -> bool {
        if !self.start_search() {
            return true;
        }
        // Once a path is augmented, its trees are left alone and the others keep growing on
        // tight edges with no further dual step: many augmentations per stage. Then the
        // augmented trees come apart and the others carry on.
        let mut augmented = false;
        let mut work = 0u32;
        let mut stop = || {
            work = work.wrapping_add(1);
            work.is_multiple_of(CANCEL_EVERY) && cancel()
        };
        loop {
            if stop() {
                self.settle();
                return false;
            }
            // Grow from the S-vertices queued.
            while let Some(v) = self.queue.pop() {
                if stop() {
                    self.queue.push(v);
                    self.settle();
                    return false;
                }
                if self.is_dead(v) {
                    continue;
                }
                if self.max_card && self.y(v) < self.level {
                    self.stats.rotations += 1;
                    self.kill(v);
                    self.augment_side(v, NONE);
                    augmented = true;
                    continue;
                }
                // v's dual stays put until the next dual step.
                let yv = self.y(v);
                for i in 0..self.adj[v].len() {
                    let e = self.adj[v][i] as usize;
                    if let Found::Augmented = self.scan(v, &yv, e) {
                        augmented = true;
                        break;
                    }
                }
            }
            if augmented {
                // The trees the paths ran through come apart; the others keep their labels.
                augmented = self.dissolve();
                continue;
            }
            if self.live_trees == 0 && self.next_waiting().is_none() {
                self.record_inner();
                self.settle();
                return true;
            }
            // The dual step: the smallest that makes something happen.
            let step = loop {
                let Some((key, event)) = self.events.peek() else {
                    break None;
                };
                if self.happens(&key, event) {
                    let arg = if event.0 == STEP_FREE {
                        event.2
                    } else {
                        event.1
                    };
                    break Some((key.half().sub(&self.offset), event.0, arg as usize));
                }
                self.events.pop();
            };
            let Some((d, kind, arg)) = step else {
                // No tree left, or (maximum cardinality) none can change any more.
                self.record_inner();
                self.settle();
                return true;
            };
            self.stats.steps += 1;
            self.offset = self.offset.add(&d);
            self.level = self.level.sub(&d);
            match kind {
                STEP_DUAL => {
                    if self.level == W::zero() {
                        break;
                    }
                    // An S-vertex at dual 0 below its root: it becomes exposed instead.
                    self.stats.rotations += 1;
                    self.kill(arg);
                    self.augment_side(arg, NONE);
                    augmented = true;
                }
                STEP_FREE | STEP_SS => {
                    let (u, v) = self.ends(arg);
                    self.allowed[arg] = self.stamp;
                    let s = if self.label[self.inblossom[u]] == S {
                        u
                    } else {
                        v
                    };
                    let ys = self.y(s);
                    if let Found::Augmented = self.scan(s, &ys, arg) {
                        augmented = true;
                    }
                }
                STEP_EXPAND => {
                    self.stats.expanded_t += 1;
                    self.expand(arg, false);
                }
                _ => {
                    while let Some(w) = self.next_waiting() {
                        if self.dual[w] != self.level {
                            break;
                        }
                        self.waiting.pop();
                        self.assign_label(w, S, NONE, NONE);
                    }
                }
            }
        }
        self.settle();
        true
    }

    /// A search's start: the last search's labels cleared, the exposed vertices at the highest
    /// dual made roots and the others set waiting. False when none is exposed.
    fn start_search(&mut self) -> bool {
        let n = self.n;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.allowed.iter_mut().for_each(|a| *a = 0);
            self.stamp = 1;
        }
        for b in std::mem::take(&mut self.touched) {
            self.label[b] = FREE;
            self.labelend[b] = NONE;
            self.labeledge[b] = NONE;
            self.bestedge[b] = NONE;
            self.treeid[b] = NONE;
            self.dead[b] = false;
            self.tree_tops[b].clear();
            self.is_touched[b] = false;
        }
        self.dead_trees.clear();
        self.live_trees = 0;
        self.queue.clear();
        self.inner.clear();
        self.events.clear();
        self.offset = W::zero();
        self.stats.stages += 1;
        // Roots: the exposed vertices at the highest dual; the others wait.
        let mut exposed: Vec<usize> = (0..n).filter(|&v| self.to_search(v)).collect();
        self.rotated.clear();
        if exposed.is_empty() {
            return false;
        }
        exposed.sort_by(|&a, &b| self.dual[a].cmp(&self.dual[b]).then(b.cmp(&a)));
        self.level = self.dual[*exposed.last().unwrap()];
        while let Some(&v) = exposed.last() {
            if self.dual[v] != self.level {
                break;
            }
            exposed.pop();
            self.assign_label(v, S, NONE, NONE);
        }
        self.waiting = exposed.into_iter().map(|v| (v, self.dual[v])).collect();
        for i in 0..self.waiting.len() {
            let (v, y) = self.waiting[i];
            self.queue_waiting(v, &y);
        }
        true
    }

    /// An exposed vertex the search must still grow a tree from (one at dual 0 is optimal
    /// as it is, unless maximum cardinality).
    fn to_search(&self, v: usize) -> bool {
        !self.vertex_gone[v] && self.mate[v] == NONE && (self.max_card || self.dual[v] > W::zero())
    }

    /// After augmentations or rotations, with nothing left to grow on tight edges: the trees
    /// they ran through come apart (labels cleared, duals settled, their S-blossoms at dual 0
    /// expanded) and the other trees keep their labels, so the search goes on without
    /// growing them again (trees kept across augmentations, as in Kolmogorov's Blossom V).
    /// Every record that leaned on a dead tree's S-vertex is made again from the live ones:
    /// the least-slack edges of the freed vertices and of their neighbours, and the tight
    /// edges into T-blossoms. Returns whether that found an augmenting path at once.
    fn dissolve(&mut self) -> bool {
        let n = self.n;
        self.stats.stages += 1;
        // Edges known tight may not be any more once their ends' labels go.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.allowed.iter_mut().for_each(|a| *a = 0);
            self.stamp = 1;
        }
        // The dead trees' top-level blossoms (a tree's list also holds blossoms since
        // absorbed into a larger one or expanded: skipped).
        let mut tops = Vec::new();
        for t in std::mem::take(&mut self.dead_trees) {
            for b in std::mem::take(&mut self.tree_tops[t]) {
                let top_level = if b < n {
                    self.inblossom[b] == b
                } else {
                    self.base[b] != NONE && self.parent[b] == NONE
                };
                if top_level && self.treeid[b] == t && !self.mark[b] {
                    self.mark[b] = true;
                    tops.push(b);
                }
            }
            self.dead[t] = false;
        }
        for &b in &tops {
            self.mark[b] = false;
        }
        let mut dead_ids = Vec::new();
        for &b in &tops {
            self.subtree(b, &mut dead_ids);
        }
        // The dead trees' vertices, and their S-blossoms.
        let mut freed: Vec<usize> = dead_ids.iter().copied().filter(|&x| x < n).collect();
        let mut expand_later: Vec<usize> = tops
            .iter()
            .copied()
            .filter(|&b| b >= n && self.label[b] == S)
            .collect();
        for &x in &freed {
            self.mark[x] = true;
        }
        let mut recheck = Vec::new();
        for &a in &freed {
            if self.label[self.inblossom[a]] != S {
                continue;
            }
            for i in 0..self.adj[a].len() {
                let e = self.adj[a][i] as usize;
                let w = self.other(e, a);
                if self.mark[w] {
                    continue; // freed itself
                }
                // (A vertex already listed may hold a second record leaning on another
                // dead S-vertex: looked at again.)
                let reached = self.label[w] == T && self.labelend[w] == a;
                if self.bestedge[w] == e || reached {
                    if reached {
                        self.label[w] = FREE;
                        self.labelend[w] = NONE;
                        self.labeledge[w] = NONE;
                    }
                    self.bestedge[w] = NONE;
                    recheck.push(w);
                }
            }
        }
        recheck.sort_unstable();
        recheck.dedup();
        for &x in &freed {
            if self.ylab[x] != FREE {
                self.set_ylab(x, FREE);
            }
        }
        for &b in &dead_ids {
            if b >= n && self.zlab[b] != FREE {
                self.set_zlab(b, FREE);
            }
            // (Still listed as touched: cleared again when the next solve starts.)
            self.label[b] = FREE;
            self.labelend[b] = NONE;
            self.labeledge[b] = NONE;
            self.bestedge[b] = NONE;
            self.treeid[b] = NONE;
        }
        expand_later.sort_unstable();
        for b in expand_later {
            if self.dual[b] == W::zero() {
                self.stats.expanded_end += 1;
                self.expand(b, true);
            }
        }
        // The vertices a rotation left exposed wait for the level to come down to them.
        let rotated = std::mem::take(&mut self.rotated);
        for v in rotated {
            if self.to_search(v) {
                let y = self.dual[v];
                let at = self
                    .waiting
                    .partition_point(|(u, yu)| yu.cmp(&y).then(v.cmp(u)).is_lt());
                self.queue_waiting(v, &y);
                self.waiting.insert(at, (v, y));
            }
        }
        // Every edge between a vertex set free (or whose record went) and a live S-vertex,
        // seen again from the S side.
        freed.append(&mut recheck);
        let mut augmented = false;
        for &x in &freed {
            self.mark[x] = false;
        }
        for &x in &freed {
            for i in 0..self.adj[x].len() {
                let e = self.adj[x][i] as usize;
                if self.gone[e] {
                    continue;
                }
                let y = self.other(e, x);
                if self.label[self.inblossom[y]] != S || self.is_dead(y) {
                    continue;
                }
                let yy = self.y(y);
                if let Found::Augmented = self.scan(y, &yy, e) {
                    augmented = true;
                }
            }
        }
        augmented
    }

    /// The waiting exposed vertex of highest dual (stale entries dropped: see `waiting`).
    fn next_waiting(&mut self) -> Option<usize> {
        while let Some((w, y)) = self.waiting.last() {
            let w = *w;
            if self.mate[w] == NONE && self.label[self.inblossom[w]] == FREE && self.dual[w] == *y {
                return Some(w);
            }
            self.waiting.pop();
        }
        None
    }

    /// Records that id b's search labels were written this stage.
    #[inline]
    fn touch(&mut self, b: usize) {
        if !self.is_touched[b] {
            self.is_touched[b] = true;
            self.touched.push(b);
        }
    }

    /// Whether v's top-level blossom is in a tree augmented this stage (not yet taken apart).
    fn is_dead(&self, v: usize) -> bool {
        let t = self.treeid[self.inblossom[v]];
        t != NONE && self.dead[t]
    }

    /// Marks the tree of v (or v's free blossom) as augmented.
    fn kill(&mut self, v: usize) {
        let b = self.inblossom[v];
        let grown = self.treeid[b] != NONE;
        if !grown {
            self.touch(b);
            self.treeid[b] = b;
            self.tree_tops[b].push(b);
        }
        let t = self.treeid[b];
        self.touch(t);
        if !self.dead[t] {
            self.dead[t] = true;
            self.dead_trees.push(t);
            if grown {
                self.live_trees -= 1;
            }
        }
    }

    fn record_inner(&mut self) {
        self.inner = (0..self.n)
            .filter(|&v| !self.vertex_gone[v] && self.label[self.inblossom[v]] == T)
            .collect();
    }

    /// A vertex's dual. During a search duals are kept relative to the total step `offset`
    /// (S-vertices follow it down, T-vertices up), so a step costs O(1).
    fn y(&self, v: usize) -> W {
        match self.ylab[v] {
            S => self.dual[v].sub(&self.offset),
            T => self.dual[v].add(&self.offset),
            _ => self.dual[v],
        }
    }

    /// A blossom's dual (S-blossoms follow twice the offset up, T-blossoms down).
    fn z(&self, b: usize) -> W {
        match self.zlab[b] {
            S => self.dual[b].add(&self.offset.double()),
            T => self.dual[b].sub(&self.offset.double()),
            _ => self.dual[b],
        }
    }

    /// Makes vertex v's dual follow label t from now on.
    fn set_ylab(&mut self, v: usize, t: u8) {
        let y = self.y(v);
        if self.ylab[v] == FREE && t != FREE {
            self.ylabeled.push(v);
        }
        self.ylab[v] = t;
        self.dual[v] = match t {
            S => y.add(&self.offset),
            T => y.sub(&self.offset),
            _ => y,
        };
        if t == S && !self.max_card {
            self.events
                .push(self.dual[v].double(), (STEP_DUAL, v as u32, 0));
        }
    }

    fn set_zlab(&mut self, b: usize, t: u8) {
        let z = self.z(b);
        if self.zlab[b] == FREE && t != FREE {
            self.zlabeled.push(b);
        }
        self.zlab[b] = t;
        let o2 = self.offset.double();
        self.dual[b] = match t {
            S => z.sub(&o2),
            T => z.add(&o2),
            _ => z,
        };
    }

    /// Every dual back to its plain value (end of a search).
    fn settle(&mut self) {
        for v in std::mem::take(&mut self.ylabeled) {
            if self.ylab[v] != FREE {
                self.set_ylab(v, FREE);
            }
        }
        for b in std::mem::take(&mut self.zlabeled) {
            if self.zlab[b] != FREE {
                self.set_zlab(b, FREE);
            }
        }
        self.offset = W::zero();
    }

    /// Whether a queued step still happens at twice the total step `key` (see `events`).
    fn happens(&self, key: &W, (kind, a, b): queue::Event) -> bool {
        let (a, b) = (a as usize, b as usize);
        match kind {
            STEP_DUAL => self.ylab[a] == S && self.dual[a].double() == *key,
            STEP_FREE => {
                let (w, e) = (a, b);
                self.label[self.inblossom[w]] == FREE
                    && self.label[w] == FREE
                    && self.bestedge[w] == e
                    && self.slack(e).add(&self.offset).double() == *key
            }
            STEP_SS => {
                let e = a;
                let (u, v) = self.ends(e);
                let (bu, bv) = (self.inblossom[u], self.inblossom[v]);
                bu != bv
                    && self.label[bu] == S
                    && self.label[bv] == S
                    && self.slack(e).add(&self.offset.double()) == *key
            }
            STEP_EXPAND => {
                let b = a;
                self.base[b] != NONE
                    && self.parent[b] == NONE
                    && self.label[b] == T
                    && self.zlab[b] == T
                    && self.dual[b] == *key
            }
            _ => {
                let w = a;
                self.mate[w] == NONE
                    && self.label[self.inblossom[w]] == FREE
                    && self.waiting_key(&self.dual[w]) == *key
            }
        }
    }

    /// Twice the total step at which the level comes down to dual y (their sum stays put).
    fn waiting_key(&self, y: &W) -> W {
        self.level.add(&self.offset).sub(y).double()
    }

    fn queue_waiting(&mut self, v: usize, y: &W) {
        let key = self.waiting_key(y);
        self.events.push(key, (STEP_WAITING, v as u32, 0));
    }

    /// Edge e seen from S-vertex v, whose dual is yv.
    fn scan(&mut self, v: usize, yv: &W, e: usize) -> Found {
        if self.gone[e] {
            return Found::Nothing;
        }
        self.stats.scans += 1;
        let w = self.other(e, v);
        let bv = self.inblossom[v];
        let bw = self.inblossom[w];
        if bv == bw || self.is_dead(w) || self.is_dead(v) {
            return Found::Nothing;
        }
        let mut slack = None;
        if self.allowed[e] != self.stamp {
            let yw = self.y(w);
            let s = yv.add(&yw).sub(&self.w2[e]);
            if s <= W::zero() {
                self.allowed[e] = self.stamp;
            } else {
                // v leaves its tree (a rotation, or the optimum) when its dual reaches 0:
                // an edge that cannot get tight before then is never a step. Tight from
                // an S-vertex to a free one after a step of its slack; between two
                // S-vertices after half of it, while both stay above 0.
                let reach = if self.label[bw] == S {
                    (*yv).min(yw).double()
                } else {
                    *yv
                };
                if !self.max_card && s > reach {
                    return Found::Nothing;
                }
                slack = Some(s);
            }
        }
        match slack {
            None => {
                if self.label[bw] == FREE {
                    if self.mate[self.base[bw]] == NONE {
                        // A waiting exposed vertex.
                        self.kill(v);
                        self.kill(w);
                        self.augment(e);
                        return Found::Augmented;
                    }
                    self.assign_label(w, T, v, e);
                } else if self.label[bw] == S {
                    let base = self.scan_blossom(v, w);
                    if base != NONE {
                        self.add_blossom(base, v, w, e);
                    } else {
                        self.kill(v);
                        self.kill(w);
                        self.augment(e);
                        return Found::Augmented;
                    }
                } else if self.label[w] == FREE {
                    // w inside a T-blossom: remembered should the blossom be expanded.
                    self.touch(w);
                    self.label[w] = T;
                    self.labelend[w] = v;
                    self.labeledge[w] = e;
                }
            }
            Some(s) => {
                if self.label[bw] == S {
                    let key = s.add(&self.offset.double());
                    self.events.push(key, (STEP_SS, e as u32, 0));
                } else if self.label[w] == FREE
                    && (self.bestedge[w] == NONE || s < self.slack(self.bestedge[w]))
                {
                    self.touch(w);
                    self.bestedge[w] = e;
                    if self.label[bw] == FREE {
                        let key = s.add(&self.offset).double();
                        self.events.push(key, (STEP_FREE, w as u32, e as u32));
                    }
                }
            }
        }
        Found::Nothing
    }

    /// Every id in blossom b: b, its sub-blossoms and its vertices.
    fn subtree(&self, b: usize, out: &mut Vec<usize>) {
        let from = out.len();
        out.push(b);
        let mut i = from;
        while i < out.len() {
            let x = out[i];
            if x >= self.n {
                out.extend(self.childs[x].iter().copied());
            }
            i += 1;
        }
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                out.push(x);
            } else {
                stack.extend(self.childs[x].iter().copied());
            }
        }
    }

    /// Labels the top-level blossom of w with t, reached from vertex p by edge e.
    fn assign_label(&mut self, w: usize, t: u8, p: usize, e: usize) {
        let b = self.inblossom[w];
        self.touch(w);
        self.touch(b);
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.labeledge[w] = e;
        self.labeledge[b] = e;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        self.treeid[b] = if p == NONE {
            self.live_trees += 1;
            b
        } else {
            self.treeid[self.inblossom[p]]
        };
        self.tree_tops[self.treeid[b]].push(b);
        let mut leaves = Vec::new();
        self.leaves(b, &mut leaves);
        for &x in &leaves {
            self.set_ylab(x, t);
        }
        if b >= self.n {
            self.set_zlab(b, t);
        }
        if t == S {
            self.queue.extend(leaves);
        } else {
            if b >= self.n {
                self.events.push(self.dual[b], (STEP_EXPAND, b as u32, 0));
            }
            let base = self.base[b];
            let m = self.mate[base];
            debug_assert!(m != NONE, "a T-blossom with an exposed base");
            let mate = self.other(m, base);
            self.assign_label(mate, S, base, m);
        }
    }

    /// The base of the blossom that edge (v, w) closes between two S-blossoms, or NONE when
    /// they are in different trees.
    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE {
            let b = self.inblossom[v];
            if self.mark[b] {
                base = self.base[b];
                break;
            }
            self.mark[b] = true;
            path.push(b);
            if self.labeledge[b] == NONE {
                v = NONE;
            } else {
                let t = self.labelend[b];
                let bt = self.inblossom[t];
                v = self.labelend[bt];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.mark[b] = false;
        }
        base
    }

    /// A new S-blossom with the given base, closed by edge e = (v, w).
    fn add_blossom(&mut self, base: usize, v: usize, w: usize, e: usize) {
        let n = self.n;
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unused.pop().expect("blossom ids");
        self.births += 1;
        self.born[b] = self.births;
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut ends = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            let p = self.labelend[bv];
            let le = self.labeledge[bv];
            ends.push((p, self.other(le, p), le));
            bv = self.inblossom[p];
        }
        path.push(bb);
        path.reverse();
        ends.reverse();
        ends.push((v, w, e));
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            let p = self.labelend[bw];
            let le = self.labeledge[bw];
            ends.push((self.other(le, p), p, le));
            bw = self.inblossom[p];
        }
        self.stats.blossoms += 1;
        if path.iter().any(|&c| c >= n) {
            self.stats.nested += 1;
        }
        // The children's duals are frozen inside b; b's starts at 0 and grows.
        for &c in &path {
            if c >= n {
                self.set_zlab(c, FREE);
            }
        }
        self.childs[b] = path;
        self.endps[b] = ends;
        self.touch(b);
        self.label[b] = S;
        self.treeid[b] = self.treeid[bb];
        self.tree_tops[self.treeid[b]].push(b);
        self.labelend[b] = self.labelend[bb];
        self.labeledge[b] = self.labeledge[bb];
        self.zlab[b] = FREE;
        self.dual[b] = W::zero();
        self.set_zlab(b, S);
        let mut leaves = Vec::new();
        self.leaves(b, &mut leaves);
        for &x in &leaves {
            if self.label[self.inblossom[x]] == T {
                // T-vertices become S: they are searched from now.
                self.set_ylab(x, S);
                self.queue.push(x);
            }
            self.inblossom[x] = b;
        }
    }

    /// Replaces blossom b by its children: when its tree is taken apart (`end_stage`, children at
    /// dual 0 expanded too), or a T-blossom whose dual reached 0 during the search, whose
    /// children take labels along the even path from the entry child to the base.
    fn expand(&mut self, b: usize, end_stage: bool) {
        let n = self.n;
        let childs = std::mem::take(&mut self.childs[b]);
        for &s in &childs {
            self.parent[s] = NONE;
            if s < n {
                self.inblossom[s] = s;
            } else if end_stage && self.dual[s] == W::zero() {
                self.expand(s, end_stage);
            } else {
                let mut lv = Vec::new();
                self.leaves(s, &mut lv);
                for x in lv {
                    self.inblossom[x] = s;
                }
            }
        }
        let endps = std::mem::take(&mut self.endps[b]);
        for &c in &childs {
            self.treeid[c] = NONE;
        }
        if !end_stage && self.label[b] == T {
            // Every vertex free for a moment; the children are labelled again below.
            let mut all = Vec::new();
            self.leaves_of(&childs, &mut all);
            for &x in &all {
                self.set_ylab(x, FREE);
            }
            let k = childs.len();
            let entry_vertex = self.other(self.labeledge[b], self.labelend[b]);
            let entry = self.inblossom[entry_vertex];
            let mut j = childs
                .iter()
                .position(|&c| c == entry)
                .expect("entry child");
            let forward = j % 2 == 1;
            let (mut pv, mut pe) = (self.labelend[b], self.labeledge[b]);
            while j != 0 {
                // Child j is T, labelled across (pv, pe); its mate is the next child, S.
                let q = self.other(pe, pv);
                self.label[q] = FREE;
                self.assign_label(q, T, pv, pe);
                if forward {
                    self.allowed[endps[j].2] = self.stamp;
                    j = (j + 1) % k;
                    let (x, _, e) = endps[j];
                    self.allowed[e] = self.stamp;
                    pv = x;
                    pe = e;
                    j = (j + 1) % k;
                } else {
                    self.allowed[endps[j - 1].2] = self.stamp;
                    j -= 1;
                    let (_, y, e) = endps[j - 1];
                    self.allowed[e] = self.stamp;
                    pv = y;
                    pe = e;
                    j -= 1;
                }
            }
            // The base child: T, its mate outside already S.
            let bv = childs[0];
            let q = self.other(pe, pv);
            self.touch(q);
            self.touch(bv);
            self.label[q] = T;
            self.label[bv] = T;
            self.labelend[q] = pv;
            self.labelend[bv] = pv;
            self.labeledge[q] = pe;
            self.labeledge[bv] = pe;
            self.bestedge[bv] = NONE;
            self.treeid[bv] = self.treeid[b];
            self.tree_tops[self.treeid[bv]].push(bv);
            let mut lv = Vec::new();
            self.leaves(bv, &mut lv);
            for x in lv {
                self.set_ylab(x, T);
            }
            if bv >= n {
                self.set_zlab(bv, T);
                self.events.push(self.dual[bv], (STEP_EXPAND, bv as u32, 0));
            }
            // The children off the path: free, unless one of their vertices was reached.
            let mut j = if forward { 1 } else { k - 1 };
            while childs[j] != entry {
                let c = childs[j];
                if self.label[c] != S {
                    let mut lv = Vec::new();
                    self.leaves(c, &mut lv);
                    if let Some(&x) = lv.iter().find(|&&x| self.label[x] != FREE) {
                        if self.label[x] == T {
                            let (p, e) = (self.labelend[x], self.labeledge[x]);
                            self.label[x] = FREE;
                            self.assign_label(x, T, p, e);
                        }
                    }
                }
                j = if forward { j + 1 } else { j - 1 };
            }
            // Vertices left free: their least-slack edges to S-vertices enter the queue of
            // candidate steps.
            for &x in &all {
                let e = self.bestedge[x];
                if e != NONE && self.label[self.inblossom[x]] == FREE && self.label[x] == FREE {
                    let key = self.slack(e).add(&self.offset).double();
                    self.events.push(key, (STEP_FREE, x as u32, e as u32));
                }
            }
        }
        self.label[b] = FREE;
        self.labelend[b] = NONE;
        self.labeledge[b] = NONE;
        self.bestedge[b] = NONE;
        self.treeid[b] = NONE;
        self.base[b] = NONE;
        self.zlab[b] = FREE;
        self.dual[b] = W::zero();
        self.parent[b] = NONE;
        self.unused.push(b);
    }

    fn leaves_of(&self, blossoms: &[usize], out: &mut Vec<usize>) {
        for &c in blossoms {
            self.leaves(c, out);
        }
    }

    /// Makes v the base of blossom b, flipping the even path from v to the old base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let k = self.childs[b].len();
        let i = self.childs[b].iter().position(|&c| c == t).expect("child");
        let flips: Vec<usize> = if i % 2 == 1 {
            (i + 1..k).step_by(2).collect()
        } else {
            (0..i).rev().skip(1).step_by(2).collect()
        };
        for idx in flips {
            let (x, y, e) = self.endps[b][idx];
            let ca = self.childs[b][idx];
            let cb = self.childs[b][(idx + 1) % k];
            if ca >= self.n {
                self.augment_blossom(ca, x);
            }
            if cb >= self.n {
                self.augment_blossom(cb, y);
            }
            self.mate[x] = e;
            self.mate[y] = e;
        }
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = v;
    }

    /// Flips the alternating path from S-vertex s up to its tree's root, giving s the edge p
    /// (or leaving it exposed when p is NONE: a rotation).
    fn augment_side(&mut self, s: usize, p: usize) {
        if p == NONE {
            self.rotated.push(s);
        }
        let (mut s, mut p) = (s, p);
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.label[bs] != S || self.labeledge[bs] == NONE {
                break;
            }
            let t = self.labelend[bs];
            let bt = self.inblossom[t];
            let next = self.labelend[bt];
            let le = self.labeledge[bt];
            let j = self.other(le, next);
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = le;
            s = next;
            p = le;
        }
    }

    fn augment(&mut self, e: usize) {
        self.stats.augmentations += 1;
        let (u, v) = self.ends(e);
        self.augment_side(u, e);
        self.augment_side(v, e);
    }

    /// Dissolves every blossom holding v (each one's dual moved onto its vertices, which keeps
    /// every edge feasible) and leaves v exposed: afterwards nothing rests on an edge at v.
    fn release(&mut self, v: usize) {
        let n = self.n;
        // The chain of blossoms from the top down.
        let mut chain = Vec::new();
        let mut x = self.parent[v];
        while x != NONE {
            chain.push(x);
            x = self.parent[x];
        }
        // Each blossom's dual goes, half each, onto its vertices: a vertex gets the halves of
        // the chain's blossoms down to the child it leaves by, summed on the way down, so
        // each vertex is reached once (chains run hundreds deep).
        let mut acc = W::zero();
        let mut cl = Vec::new();
        for (k, &b) in chain.iter().enumerate().rev() {
            let z = self.dual[b];
            if z != W::zero() {
                acc = acc.add(&z.half());
                // The base's own matched edge (outside b) is no longer tight.
                self.unmatch(self.base[b]);
            }
            // The child the chain goes on through (or v itself) is taken apart next.
            let next = if k == 0 { v } else { chain[k - 1] };
            let childs = std::mem::take(&mut self.childs[b]);
            self.endps[b].clear();
            for &c in &childs {
                self.parent[c] = NONE;
                if c == next {
                    continue;
                }
                cl.clear();
                self.leaves(c, &mut cl);
                for &x in &cl {
                    self.inblossom[x] = c;
                    if acc != W::zero() {
                        self.dual[x] = self.dual[x].add(&acc);
                    }
                }
            }
            self.base[b] = NONE;
            self.dual[b] = W::zero();
            self.parent[b] = NONE;
            self.unused.push(b);
        }
        if !chain.is_empty() {
            self.inblossom[v] = v;
            self.dual[v] = self.dual[v].add(&acc);
        }
        debug_assert!(n > 0);
        self.unmatch(v);
    }

    fn unmatch(&mut self, v: usize) {
        let e = self.mate[v];
        if e != NONE {
            let u = self.other(e, v);
            self.mate[u] = NONE;
            self.mate[v] = NONE;
        }
    }

    /// Between solves (duals settled): edge e's slack, the duals of the blossoms holding both
    /// ends counted.
    fn settled_slack(&self, e: usize) -> W {
        let (u, v) = self.ends(e);
        self.dual[u]
            .add(&self.dual[v])
            .add(&self.sum_common(u, v))
            .sub(&self.w2[e])
    }

    /// Between solves: whether edge e is tight or worse. Blossom duals are never negative,
    /// so an edge with slack on its ends' duals alone has slack without the walk up their
    /// blossoms.
    fn not_loose(&self, e: usize) -> bool {
        self.vertex_slack(e) <= W::zero() && self.settled_slack(e) <= W::zero()
    }

    /// Between solves: edge e's slack on its ends' duals alone (at most its slack).
    fn vertex_slack(&self, e: usize) -> W {
        let (u, v) = self.ends(e);
        self.dual[u].add(&self.dual[v]).sub(&self.w2[e])
    }

    /// A new or heavier edge with negative slack: one end is released and its dual raised.
    fn repair(&mut self, e: usize) {
        if self.vertex_slack(e) >= W::zero() {
            return;
        }
        let slack = self.settled_slack(e);
        if slack >= W::zero() {
            return;
        }
        let (u, v) = self.ends(e);
        // A matched edge at a vertex in no blossom: raising that vertex's dual makes it tight
        // again and only adds slack to its other edges, so the matching stays optimal (a
        // heavier opponent already held is no reason to search again).
        if self.mate[u] == e {
            if let Some(x) = [u, v].into_iter().find(|&x| self.parent[x] == NONE) {
                self.dual[x] = self.dual[x].sub(&slack);
                return;
            }
        }
        self.release(u);
        // Releasing may already have raised it enough.
        let rest = self.dual[u].add(&self.dual[v]).sub(&self.w2[e]);
        if rest < W::zero() {
            self.dual[u] = self.dual[u].sub(&rest);
        }
    }

    /// Every live edge feasible, every matched edge tight (tests).
    #[cfg(test)]
    pub(crate) fn invariants(&self, when: &str) {
        for e in 0..self.eu.len() {
            if self.gone[e] {
                continue;
            }
            let (u, v) = self.ends(e);
            let s = self.dual[u]
                .add(&self.dual[v])
                .add(&self.sum_common(u, v))
                .sub(&self.w2[e]);
            assert!(s >= W::zero(), "{when}: edge {e} ({u}, {v}) slack {s:?}");
            if self.mate[u] == e {
                assert!(s == W::zero(), "{when}: matched edge {e} slack {s:?}");
                assert!(self.mate[v] == e);
            }
        }
    }

    /// Σ duals of the blossoms holding both u and v.
    fn sum_common(&self, u: usize, v: usize) -> W {
        // The two chains of blossoms, levelled, then walked up together to where they meet:
        // linear in their depth (nested blossoms come in chains of hundreds).
        let depth = |mut x: usize| {
            let mut d = 0usize;
            while self.parent[x] != NONE {
                x = self.parent[x];
                d += 1;
            }
            d
        };
        let (mut a, mut b) = (u, v);
        let (mut da, mut db) = (depth(u), depth(v));
        while da > db {
            a = self.parent[a];
            da -= 1;
        }
        while db > da {
            b = self.parent[b];
            db -= 1;
        }
        while a != b && a != NONE {
            a = self.parent[a];
            b = self.parent[b];
        }
        let mut s = W::zero();
        let mut x = a;
        while x != NONE {
            if x >= self.n {
                s = s.add(&self.dual[x]);
            }
            x = self.parent[x];
        }
        s
    }
}
