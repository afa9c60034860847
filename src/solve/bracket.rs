//! Exact maximum-weight matchings for systems that settle a round bracket by bracket (the
//! Dutch system): the system packs its criteria into integer weights and changes a few of
//! them between questions; this module answers each from the previous optimum and its duals
//! (the sparse blossom solver's warm start). It knows no system: a graph and weights in,
//! mates out.

use super::blossom::{Solver, Weight};
use crate::algo::Matcher;

/// Keeps one warm [`Solver`] per round and counts what it did.
pub struct ExactMatcher<W: Weight> {
    solver: Option<Solver<W>>,
    /// Matchings solved (calls to [`Matcher::solve`] and [`Matcher::solve_until`]).
    pub solves: usize,
    /// Edges in the graph now, and the most it held (the certificate's candidate pairs).
    pub edges: usize,
    /// The most edges the graph held.
    pub peak_edges: usize,
}

impl<W: Weight> Default for ExactMatcher<W> {
    fn default() -> Self {
        ExactMatcher {
            solver: None,
            solves: 0,
            edges: 0,
            peak_edges: 0,
        }
    }
}

impl<W: Weight> Matcher<W> for ExactMatcher<W> {
    fn start(&mut self, n: usize, edges: &[(usize, usize, W)]) {
        let mut s = Solver::new(n, false);
        for &(a, b, w) in edges {
            s.add_edge(a, b, w);
        }
        self.edges = edges.len();
        self.peak_edges = self.peak_edges.max(self.edges);
        self.solver = Some(s);
    }

    fn set_weight(&mut self, edge: usize, w: W) {
        if let Some(s) = self.solver.as_mut() {
            s.set_weight(edge, w);
        }
    }

    fn add_edge(&mut self, a: usize, b: usize, w: W) -> usize {
        self.edges += 1;
        self.peak_edges = self.peak_edges.max(self.edges);
        match self.solver.as_mut() {
            Some(s) => s.add_edge(a, b, w),
            None => usize::MAX,
        }
    }

    fn pair_reduced_cost(&self, a: usize, b: usize, w: W) -> Option<W> {
        self.solver
            .as_ref()
            .map(|s| s.pair_reduced_cost(a, b, &w.double()))
    }

    fn lowered(&self, v: usize) -> bool {
        self.solver.as_ref().is_none_or(|s| s.lowered(v))
    }

    fn pair_violation(&self, a: usize, b: usize, w: W) -> Option<W> {
        self.solver
            .as_ref()
            .and_then(|s| s.pair_violation(a, b, &w.double()))
    }

    fn vertex_dual(&self, v: usize) -> Option<W> {
        self.solver.as_ref().map(|s| s.vertex_dual(v))
    }

    fn blossoms_of(&self, v: usize) -> Option<[(usize, W); 2]> {
        self.solver.as_ref().and_then(|s| s.blossoms_of(v))
    }

    fn shared_dual(&self, a: usize, b: usize) -> Option<W> {
        self.solver.as_ref().map(|s| s.shared_dual(a, b))
    }

    fn set_floor(&mut self, v: usize, y: W) {
        if let Some(s) = self.solver.as_mut() {
            s.set_floor(v, y);
        }
    }

    fn forget(&mut self) {
        if let Some(s) = self.solver.as_mut() {
            s.forget();
        }
    }

    fn remove_vertex(&mut self, v: usize) {
        if let Some(s) = self.solver.as_mut() {
            s.remove_vertex(v);
        }
    }

    fn remove_edges(&mut self, edges: &[usize]) {
        if let Some(s) = self.solver.as_mut() {
            s.remove_loose_edges(edges);
        }
    }

    fn side(&mut self, n: usize, edges: &[(usize, usize, i64)]) -> Vec<Option<usize>> {
        super::blossom::maximum_weight_matching(n, edges, false).mate
    }

    fn reduced_cost(&self, edge: usize) -> Option<W> {
        self.solver.as_ref().map(|s| s.reduced_cost(edge))
    }

    fn solve(&mut self) -> Vec<Option<usize>> {
        self.solve_until(&|| false).unwrap_or_default()
    }

    fn solve_until(&mut self, cancel: &dyn Fn() -> bool) -> Option<Vec<Option<usize>>> {
        self.solves += 1;
        match self.solver.as_mut() {
            Some(s) => {
                let (before, clock) = (s.stats(), std::time::Instant::now());
                if !s.solve_until(cancel) {
                    log::debug!("blossom: cancelled after {:?}", clock.elapsed());
                    return None;
                }
                // Where a solve's time goes: its stages (each ends in one augmentation or a
                // few) times the edges of the S-vertices each labels, read again each stage.
                // A solve from the jump start augments once for each two vertices it left
                // exposed.
                let d = s.stats().since(&before);
                log::debug!(
                    "blossom: solved in {:?} ({} edges added so far): {} vertices matched by the \
                     jump start, {} stages, {} augmentations, {} blossoms made ({} nested), \
                     {} expanded, {} dual steps, {} edge ends scanned",
                    clock.elapsed(),
                    s.edge_count(),
                    d.greedy_matched,
                    d.stages,
                    d.augmentations,
                    d.blossoms,
                    d.nested,
                    d.expanded_t + d.expanded_end,
                    d.steps,
                    d.scans
                );
                Some(s.matching().mate)
            }
            None => Some(Vec::new()),
        }
    }
}

/// One matcher per width the Dutch procedure may pack its criteria into.
#[derive(Default)]
pub struct DutchMatchers {
    /// The matcher for 128-bit weights.
    pub w128: ExactMatcher<i128>,
    /// The matcher for 256-bit weights.
    pub w256: ExactMatcher<crate::fixed::F256>,
    /// The matcher for 320-bit weights.
    pub w320: ExactMatcher<crate::fixed::F320>,
    /// The matcher for 384-bit weights.
    pub w384: ExactMatcher<crate::fixed::F384>,
    /// The matcher for 512-bit weights.
    pub w512: ExactMatcher<crate::fixed::F512>,
    /// The matcher for 1024-bit weights.
    pub w1024: ExactMatcher<crate::fixed::F1024>,
    /// The matcher for 4096-bit weights.
    pub w4096: ExactMatcher<crate::fixed::F4096>,
    /// Told of each bracket as it begins.
    pub progress: Option<super::Progress>,
}

impl DutchMatchers {
    /// Matchers that tell `progress` of each bracket.
    pub fn with_progress(progress: Option<super::Progress>) -> Self {
        DutchMatchers {
            progress,
            ..Self::default()
        }
    }

    /// Matchings solved, and the most edges a graph held, over all widths used.
    pub fn counts(&self) -> (usize, usize) {
        let s = self.w128.solves
            + self.w256.solves
            + self.w320.solves
            + self.w384.solves
            + self.w512.solves
            + self.w1024.solves
            + self.w4096.solves;
        let e = self
            .w128
            .peak_edges
            .max(self.w256.peak_edges)
            .max(self.w320.peak_edges)
            .max(self.w384.peak_edges)
            .max(self.w512.peak_edges)
            .max(self.w1024.peak_edges)
            .max(self.w4096.peak_edges);
        (s, e)
    }
}

macro_rules! delegate {
    ($t:ty, $f:ident) => {
        impl Matcher<$t> for DutchMatchers {
            fn start(&mut self, n: usize, edges: &[(usize, usize, $t)]) {
                self.$f.start(n, edges)
            }
            fn set_weight(&mut self, edge: usize, w: $t) {
                self.$f.set_weight(edge, w)
            }
            fn add_edge(&mut self, a: usize, b: usize, w: $t) -> usize {
                self.$f.add_edge(a, b, w)
            }
            fn pair_reduced_cost(&self, a: usize, b: usize, w: $t) -> Option<$t> {
                self.$f.pair_reduced_cost(a, b, w)
            }
            fn lowered(&self, v: usize) -> bool {
                self.$f.lowered(v)
            }
            fn pair_violation(&self, a: usize, b: usize, w: $t) -> Option<$t> {
                self.$f.pair_violation(a, b, w)
            }
            fn vertex_dual(&self, v: usize) -> Option<$t> {
                self.$f.vertex_dual(v)
            }
            fn blossoms_of(&self, v: usize) -> Option<[(usize, $t); 2]> {
                self.$f.blossoms_of(v)
            }
            fn shared_dual(&self, a: usize, b: usize) -> Option<$t> {
                self.$f.shared_dual(a, b)
            }
            fn set_floor(&mut self, v: usize, y: $t) {
                self.$f.set_floor(v, y)
            }
            fn side(&mut self, n: usize, edges: &[(usize, usize, i64)]) -> Vec<Option<usize>> {
                self.$f.side(n, edges)
            }
            fn reduced_cost(&self, edge: usize) -> Option<$t> {
                self.$f.reduced_cost(edge)
            }
            fn forget(&mut self) {
                self.$f.forget()
            }
            fn remove_vertex(&mut self, v: usize) {
                self.$f.remove_vertex(v)
            }
            fn remove_edges(&mut self, edges: &[usize]) {
                self.$f.remove_edges(edges)
            }
            fn solve(&mut self) -> Vec<Option<usize>> {
                self.$f.solve()
            }
            fn solve_until(&mut self, cancel: &dyn Fn() -> bool) -> Option<Vec<Option<usize>>> {
                self.$f.solve_until(cancel)
            }
            fn bracket_begun(&mut self, done: usize, of: usize) {
                let step = super::Step::Bracket { done, of };
                super::progress::report(self.progress.as_ref(), step);
            }
        }
    };
}
delegate!(i128, w128);
delegate!(crate::fixed::F256, w256);
delegate!(crate::fixed::F320, w320);
delegate!(crate::fixed::F384, w384);
delegate!(crate::fixed::F512, w512);
delegate!(crate::fixed::F1024, w1024);
delegate!(crate::fixed::F4096, w4096);
