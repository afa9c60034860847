//! The graph a bracket's matchings are solved on, and the matcher kept warm between them:
//! the first matching sparse and proved by a bound, then each bracket either reduced (the
//! bracket and the next, the players below completed apart to a bound) or dense (every pair
//! of the unpaired players). See models/dutch.md, "The bracket and the players below".

use super::procedure::{compatible, Context, Matcher};
use super::weight::{Builder, Field, Layout, Packed};
// Pair keys are looked up millions of times a round: FxHash (fixed, fast; keys are ours).
use rustc_hash::FxHashMap as HashMap;

/// The weights of pairs with a player below the bracket's look-ahead (all pairs, in the
/// first matching): they depend on little but the two players' bye eligibility.
pub(super) enum Outer {
    /// The first matching (completion, the bye's score).
    Field {
        layout: Layout,
        t: Field,
        s: Field,
        top: Field,
        odd: bool,
        /// Each player's score counted from the lowest score group.
        rank: Vec<i64>,
    },
    /// A bracket: pairs with a player below the look-ahead bracket carry completion only.
    Bracket { layout: Layout, completion: Field },
}

/// How a bracket's matchings are solved.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mode {
    /// Every allowed pair of unpaired players in one graph.
    Dense,
    /// The bracket and its look-ahead only, each of their players with a private "goes down"
    /// vertex and, in an odd field, a shared "takes the bye" vertex; the players below are
    /// completed apart. Exact when the completion reaches the bound (see [`State::solve`]),
    /// else the bracket goes on in [`Mode::Dense`].
    Reduced,
}

pub(super) const NONE: usize = usize::MAX;

/// Each pair's index in the lists, by its two players (either order): millions of pairs in a
/// large bracket, so keys and indices are packed in 12 bytes.
#[derive(Default)]
pub(super) struct PairIds(HashMap<u64, u32>);

impl PairIds {
    fn key(a: usize, b: usize) -> u64 {
        ((a.min(b) as u64) << 32) | a.max(b) as u64
    }

    pub(super) fn of(edges: &[(usize, usize)]) -> Self {
        let mut m = HashMap::default();
        m.reserve(edges.len());
        for (e, &(a, b)) in edges.iter().enumerate() {
            m.insert(Self::key(a, b), e as u32);
        }
        PairIds(m)
    }

    pub(super) fn get(&self, a: usize, b: usize) -> Option<usize> {
        self.0.get(&Self::key(a, b)).map(|&e| e as usize)
    }

    fn reserve(&mut self, more: usize) {
        self.0.reserve(more);
    }

    /// Gives the pair index `e` unless it has one: whether it was new.
    fn insert_new(&mut self, a: usize, b: usize, e: usize) -> bool {
        let e = u32::try_from(e).expect("fewer than 2^32 pairs");
        match self.0.entry(Self::key(a, b)) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(e);
                true
            }
            std::collections::hash_map::Entry::Occupied(_) => false,
        }
    }
}

/// The pairing state shared by the bracket steps.
pub(super) struct State<'m, W: Packed> {
    pub(super) matcher: &'m mut dyn Matcher<W>,
    pub(super) alive: Vec<bool>,
    /// Pairs, `(a, b)` with `a < b`, and their current weights.
    pub(super) edges: Vec<(usize, usize)>,
    pub(super) id: PairIds,
    pub(super) weights: Vec<W>,
    /// Each pair's edge id in the matcher's graph, or `NONE`.
    pub(super) mid: Vec<usize>,
    pub(super) bye_candidate: Vec<bool>,
    pub(super) outer: Outer,
    pub(super) mode: Mode,
    /// Players of the bracket and its look-ahead (reduced mode's graph).
    pub(super) inside: Vec<bool>,
    /// The completion of the players below for the last set of players going down.
    pub(super) completion: Option<(Vec<usize>, Vec<Option<usize>>)>,
    pub(super) solves: usize,
    /// Brackets that needed the dense graph.
    pub(super) dense_brackets: usize,
    /// No weight changed since the last solve: its matching is optimal for the weights now.
    pub(super) clean: bool,
    /// Reduced mode: the pairs of the bracket and its look-ahead at each player, and those
    /// left out of the graph to price again (their weight rose, or they were found uncovered
    /// and not added).
    pub(super) rows: Vec<Vec<u32>>,
    pub(super) raised: Vec<usize>,
    /// The bracket's base weights by pair (its criteria and the hint, before the Dutch
    /// order's preferences); `None`: not a pair of this bracket, or kept apart in it.
    pub(super) base: Vec<Option<W>>,
    /// The dense graph a bracket needed would have held this many pairs, over
    /// `Context::pair_budget`: it was not built, and the procedure stops after the bracket.
    pub(super) over_budget: Option<usize>,
}

/// The first matching's candidates per player (the next ones in rank order), tried before
/// every allowed pair.
pub(super) const FIELD_DEGREES: [usize; 2] = [8, 48];

/// Twice the largest weight a matching of the whole field can have in the first matching:
/// a pair weighs the two players' shares φ (completion, eligibility, score) plus the top
/// field when both have the top score; in an odd field the player left over loses his share
/// (at least the least one), and at most ⌊top/2⌋ pairs are both of the top score.
pub(super) fn field_bound<W: Packed>(ctx: &Context, st: &State<W>) -> W {
    let Outer::Field {
        layout,
        t,
        s,
        top,
        odd,
        rank,
    } = &st.outer
    else {
        unreachable!("the first matching's weights")
    };
    let p = ctx.players;
    let share2 = |v: usize| -> W {
        let mut w = Builder::<W>::new(layout);
        w.set(*t, 1 + 2 * i64::from(!p[v].bye_eligible));
        if *odd {
            w.set(*s, 2 * rank[v]);
        }
        w.done()
    };
    let mut total = W::zero();
    let mut least: Option<W> = None;
    for v in 0..p.len() {
        let x = share2(v);
        total = total.add(&x);
        least = Some(least.map_or(x, |l| l.min(x)));
    }
    if *odd {
        total = total.sub(&least.unwrap_or_else(W::zero));
        let tops = p.iter().filter(|q| q.score >= p[0].score).count() as i64;
        total = total.add(&layout.unit::<W>(*top, 2 * (tops / 2)));
    }
    total
}

#[cfg(test)]
thread_local! {
    /// Tests only: reduced solves whose pricing was checked by a full scan.
    pub(super) static PRICED_CHECKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Pairs per player in a bracket's first reduced graph (the heaviest), before pricing.
pub(super) const INSIDE_DEGREE: usize = 12;

/// Uncovered pairs added per player in one pricing round (the most violated).
pub(super) const PRICE_DEGREE: usize = 4;

/// Completion candidates per player (the next ones in rank order), tried before more.
pub(super) const COMPLETION_DEGREES: [usize; 2] = [8, 48];

impl<W: Packed> State<'_, W> {
    pub(super) fn n(&self) -> usize {
        self.alive.len()
    }

    /// The pair's base weight in this bracket.
    pub(super) fn base_of(&self, a: usize, b: usize) -> Option<W> {
        let e = self.id.get(a, b)?;
        self.base.get(e).copied().flatten()
    }

    pub(super) fn base_mut(&mut self, a: usize, b: usize) -> Option<&mut W> {
        let e = self.id.get(a, b)?;
        self.base.get_mut(e)?.as_mut()
    }

    /// The pair is kept apart for the rest of the bracket.
    pub(super) fn drop_base(&mut self, a: usize, b: usize) {
        if let Some(e) = self.id.get(a, b) {
            if let Some(w) = self.base.get_mut(e) {
                *w = None;
            }
        }
    }

    /// A maximum-weight matching over the alive players (`mate[i]` by player index), optimal
    /// over every allowed pair.
    pub(super) fn solve(&mut self, ctx: &Context) -> Vec<Option<usize>> {
        if self.over_budget.is_some() {
            return self.stopped();
        }
        self.solves += 1;
        self.clean = true;
        let t0 = std::time::Instant::now();
        let mut r = self.matcher.solve();
        if self.mode == Mode::Dense {
            return r;
        }
        // The reduced graph holds the heaviest pairs only: the others priced by the duals.
        let mut priced = 0;
        loop {
            let k = self.price();
            if k == 0 {
                break;
            }
            priced += k;
            r = self.matcher.solve();
        }
        log::trace!(
            "dutch: matching {} in {:?}, {priced} pairs added by pricing",
            self.solves,
            t0.elapsed()
        );
        #[cfg(test)]
        self.assert_priced();
        match self.complete(ctx, &r) {
            Some(mate) => mate,
            None => {
                // Every pair of the unpaired players: at most m(m-1)/2 of them.
                let m = self.alive.iter().filter(|&&a| a).count();
                let all = m * m.saturating_sub(1) / 2;
                if all > ctx.pair_budget {
                    self.over_budget = Some(all);
                    return self.stopped();
                }
                self.densify(ctx);
                self.clean = true;
                self.matcher.solve()
            }
        }
    }

    /// Over the budget, the procedure stops at the end of the bracket: no matching, nothing
    /// proved.
    fn stopped(&mut self) -> Vec<Option<usize>> {
        self.clean = false;
        vec![None; self.n()]
    }

    /// Reduced mode starts each bracket's graph from every player's heaviest pairs in the
    /// bracket and its look-ahead; [`State::price`] adds the others as the duals require.
    fn heaviest(&mut self) -> Vec<bool> {
        // Each player's pairs with players ranked below him, then those with players above,
        // in one row sized beforehand (a large bracket has millions of pairs).
        let n = self.n();
        let counted = |e: usize, a: usize, b: usize| {
            self.alive[a]
                && self.alive[b]
                && self.inside[a]
                && self.inside[b]
                && self.weights[e] > W::zero()
        };
        let mut below = vec![0usize; n];
        let mut above = vec![0usize; n];
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if counted(e, a, b) {
                below[a] += 1;
                above[b] += 1;
            }
        }
        let mut rows: Vec<Vec<u32>> = (0..n).map(|v| vec![0; below[v] + above[v]]).collect();
        let mut next_below = vec![0usize; n];
        let mut next_above = below.clone();
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if counted(e, a, b) {
                let e = u32::try_from(e).expect("fewer than 2^32 pairs");
                rows[a][next_below[a]] = e;
                next_below[a] += 1;
                rows[b][next_above[b]] = e;
                next_above[b] += 1;
            }
        }
        self.raised.clear();
        let mut chosen = vec![false; self.edges.len()];
        let mut part: Vec<u32> = Vec::new();
        for (v, row) in rows.iter().enumerate() {
            for half in [&row[..below[v]], &row[below[v]..]] {
                part.clear();
                part.extend_from_slice(half);
                if part.len() > INSIDE_DEGREE {
                    part.select_nth_unstable_by(INSIDE_DEGREE, |&x, &y| {
                        let (x, y) = (x as usize, y as usize);
                        self.weights[y].cmp(&self.weights[x]).then(x.cmp(&y))
                    });
                    part.truncate(INSIDE_DEGREE);
                }
                for &e in &part {
                    chosen[e as usize] = true;
                }
            }
        }
        self.rows = rows;
        chosen
    }

    /// Duals feasible for every pair of the bracket and its look-ahead, the matcher's jump
    /// start over all of them (each player's heaviest pair, then each in turn lowered as far
    /// as every pair allows): the reduced graph's first solve stays above them, so the pairs
    /// it leaves out start covered and pricing has little to add. Called after
    /// [`State::heaviest`], whose rows hold every such pair.
    fn floors(&self) -> Vec<W> {
        let n = self.n();
        let rows = &self.rows;
        // Matcher units: weights doubled here, doubled again by the matcher.
        let w4 = |e: usize| {
            let w = self.weights[e].add(&self.weights[e]);
            w.add(&w)
        };
        let mut y: Vec<W> = rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&e| self.weights[e as usize].add(&self.weights[e as usize]))
                    .max()
                    .unwrap_or_else(W::zero)
            })
            .collect();
        for v in 0..n {
            let mut most = W::zero();
            for e in rows[v].iter().map(|&e| e as usize) {
                let (a, b) = self.edges[e];
                let u = if a == v { b } else { a };
                let need = w4(e).sub(&y[u]);
                if need > most {
                    most = need;
                }
            }
            if !rows[v].is_empty() {
                y[v] = most;
            }
        }
        y
    }

    /// Adds to the reduced graph pairs of the bracket and its look-ahead that the last solve's
    /// duals do not cover (the ends' duals below twice its weight, in the matcher's units),
    /// the most violated at each player; how many. None added: the duals are feasible for
    /// every pair, so the matching is optimal over all of them (LP duality).
    fn price(&mut self) -> usize {
        // Only pairs whose weight rose, pairs found uncovered and not added, and pairs whose
        // ends' cover may have dropped can be uncovered now (the others were covered at the
        // last pricing).
        let n = self.n();
        let low: Vec<bool> = (0..n)
            .map(|v| self.alive[v] && self.inside[v] && self.matcher.lowered(v))
            .collect();
        let mut candidates = std::mem::take(&mut self.raised);
        candidates.retain(|&e| !low[self.edges[e].0] && !low[self.edges[e].1]);
        candidates.sort_unstable();
        candidates.dedup();
        for v in (0..n).filter(|&v| low[v]) {
            // A pair at two such players once, from the higher-ranked.
            candidates.extend(self.rows[v].iter().map(|&e| e as usize).filter(|&e| {
                let a = self.edges[e].0;
                a == v || !low[a]
            }));
        }
        let mut violated = Vec::new();
        for e in candidates {
            if !self.left_out(e) {
                continue;
            }
            match self.absent_slack(e) {
                Some(r) if r < W::zero() => violated.push((r, e)),
                _ => {}
            }
        }
        // The most violated pairs at each player only: the next solve's duals cover many
        // of the others, and the graph stays sparse.
        violated.sort_unstable_by(|x, y| x.0.cmp(&y.0).then(x.1.cmp(&y.1)));
        let mut taken = vec![0usize; self.n()];
        let mut added = 0;
        for (_, e) in violated {
            let (a, b) = self.edges[e];
            if taken[a] < PRICE_DEGREE || taken[b] < PRICE_DEGREE {
                taken[a] += 1;
                taken[b] += 1;
                let w = self.weights[e].add(&self.weights[e]);
                self.mid[e] = self.matcher.add_edge(a, b, w);
                added += 1;
            } else {
                // Priced again after the next solve, whatever its duals do.
                self.raised.push(e);
            }
        }
        added
    }

    /// A pair of two players of the bracket and its look-ahead, of positive weight, left out
    /// of the reduced graph (pricing decides whether it belongs in).
    fn left_out(&self, e: usize) -> bool {
        let (a, b) = self.edges[e];
        self.mid[e] == NONE
            && self.alive[a]
            && self.alive[b]
            && self.inside[a]
            && self.inside[b]
            && self.weights[e] > W::zero()
    }

    /// Tests only: every pair of the bracket and its look-ahead left out of the reduced graph
    /// is covered by the duals, as the pricing claims (a full scan).
    #[cfg(test)]
    fn assert_priced(&self) {
        for e in (0..self.edges.len()).filter(|&e| self.left_out(e)) {
            let r = self.absent_slack(e).expect("a solved matcher");
            assert!(
                r >= W::zero(),
                "pair {:?} left out, uncovered",
                self.edges[e]
            );
        }
        PRICED_CHECKS.with(|c| c.set(c.get() + 1));
    }

    /// The reduced cost of a pair left out of the reduced graph under the last solve's duals.
    fn absent_slack(&self, e: usize) -> Option<W> {
        let (a, b) = self.edges[e];
        let w = self.weights[e].add(&self.weights[e]);
        self.matcher.pair_reduced_cost(a, b, w)
    }

    /// Twice the share of a player in any pair's completion field ("φ"): a pair with a player
    /// below the look-ahead weighs exactly the sum of the two shares.
    pub(super) fn share2(&self, v: usize) -> W {
        match &self.outer {
            Outer::Bracket { layout, completion } => {
                layout.unit::<W>(*completion, 1 + 2 * i64::from(!self.bye_candidate[v]))
            }
            Outer::Field { .. } => unreachable!("the first matching is dense"),
        }
    }

    pub(super) fn unit_completion(&self) -> W {
        match &self.outer {
            Outer::Bracket { layout, completion } => layout.unit::<W>(*completion, 1),
            Outer::Field { .. } => unreachable!("the first matching is dense"),
        }
    }

    /// Completes a reduced solution: the players going down and those below are matched
    /// apart. Let R be the reduced graph's optimum (doubled weights), B the players below:
    /// every matching of the field weighs at most (R + Σ_B 2φ − T·[odd field]) / 2, T the
    /// completion unit (a player of the bracket left unpaired forgoes his φ and at most gains
    /// the bye vertex's T; a player below left unpaired loses 2φ ≥ T). A completion reaching
    /// that bound makes the whole matching optimal; `None` when none is found.
    pub(super) fn complete(
        &mut self,
        ctx: &Context,
        r: &[Option<usize>],
    ) -> Option<Vec<Option<usize>>> {
        let n = self.n();
        let alive: Vec<usize> = (0..n).filter(|&v| self.alive[v]).collect();
        let odd = alive.len() % 2 == 1;
        let down: Vec<usize> = alive
            .iter()
            .copied()
            .filter(|&a| self.inside[a] && r[a] == Some(n + a))
            .collect();
        let mut bound = W::zero();
        let mut value = W::zero();
        for &a in &alive {
            if !self.inside[a] {
                bound = bound.add(&self.share2(a));
                continue;
            }
            match r[a] {
                Some(b) if b < n && a < b => {
                    let w = self.weights[self.id.get(a, b).expect("a pair of the graph")];
                    let w2 = w.add(&w);
                    bound = bound.add(&w2);
                    value = value.add(&w2);
                }
                Some(b) if b < n => {}
                Some(d) if d == n + a => bound = bound.add(&self.share2(a)),
                Some(_) => bound = bound.add(&self.unit_completion()),
                None => {}
            }
        }
        if odd {
            bound = bound.sub(&self.unit_completion());
        }
        let mate_below = match &self.completion {
            Some((d, m)) if *d == down => m.clone(),
            _ => {
                let m = self.complete_below(ctx, &down)?;
                self.completion = Some((down.clone(), m.clone()));
                m
            }
        };
        let mut mate = vec![None; n];
        for &a in &alive {
            if self.inside[a] {
                mate[a] = match r[a] {
                    Some(b) if b < n => Some(b),
                    _ => None,
                };
            }
        }
        for &v in &alive {
            if let Some(u) = mate_below[v] {
                mate[v] = Some(u);
                if v < u {
                    let w = self.outer_weight(ctx, v, u);
                    value = value.add(&w.add(&w));
                }
            }
        }
        (value == bound).then_some(mate)
    }

    /// The players below the bracket and those going down, matched among themselves (not
    /// two going down together): as many pairs as can be, any player left over a bye
    /// candidate. Sparse first (the next few players in rank order), then wider.
    pub(super) fn complete_below(
        &mut self,
        ctx: &Context,
        down: &[usize],
    ) -> Option<Vec<Option<usize>>> {
        let n = self.n();
        let set: Vec<usize> = (0..n)
            .filter(|&v| self.alive[v] && (!self.inside[v] || down.contains(&v)))
            .collect();
        let need = set.len() % 2;
        for k in COMPLETION_DEGREES {
            let mut edges: Vec<(usize, usize, i64)> = Vec::new();
            for (x, &a) in set.iter().enumerate() {
                let mut got = 0;
                for &b in &set[x + 1..] {
                    if got == k {
                        break;
                    }
                    if (self.inside[a] && self.inside[b]) || !compatible(ctx, a, b) {
                        continue;
                    }
                    let w =
                        4 + i64::from(!self.bye_candidate[a]) + i64::from(!self.bye_candidate[b]);
                    edges.push((a, b, w));
                    got += 1;
                }
            }
            let mate = self.matcher.side(n, &edges);
            let left: Vec<usize> = set.iter().copied().filter(|&v| mate[v].is_none()).collect();
            if left.len() == need && left.iter().all(|&v| self.bye_candidate[v]) {
                return Some(mate);
            }
            if edges.len() >= set.len() * set.len() / 2 {
                break;
            }
        }
        None
    }

    /// Every allowed pair of alive players among `players` (in rank order) is in the list of
    /// pairs (new ones of weight 0, weighed by the caller).
    pub(super) fn include(&mut self, ctx: &Context, players: &[usize]) {
        // The new pairs first, then every list grown once to its size: a large bracket adds
        // millions, and lists doubling as they grow would hold up to twice the memory.
        let mut new: Vec<(u32, u32)> = Vec::new();
        for (x, &a) in players.iter().enumerate() {
            for &b in &players[x + 1..] {
                let (a, b) = (a.min(b), a.max(b));
                if self.alive[a]
                    && self.alive[b]
                    && compatible(ctx, a, b)
                    && self.id.get(a, b).is_none()
                {
                    new.push((a as u32, b as u32));
                }
            }
        }
        self.id.reserve(new.len());
        self.edges.reserve_exact(new.len());
        self.weights.reserve_exact(new.len());
        self.mid.reserve_exact(new.len());
        for (a, b) in new {
            let (a, b) = (a as usize, b as usize);
            // A player listed twice would list a pair twice.
            if self.id.insert_new(a, b, self.edges.len()) {
                self.edges.push((a, b));
                self.weights.push(W::zero());
                self.mid.push(NONE);
            }
        }
    }

    /// Pairs with a player paired for good leave the lists: a bracket's pairs are many, and
    /// the next keeps only those between players still to pair (with their weights: a pair
    /// a bracket kept apart stays apart). Before a restart: the matcher's ids are dropped.
    pub(super) fn compact(&mut self) {
        // In place: the lists of the largest bracket are the round's peak of memory.
        let mut kept = 0;
        for e in 0..self.edges.len() {
            let (a, b) = self.edges[e];
            if self.alive[a] && self.alive[b] {
                self.edges[kept] = self.edges[e];
                self.weights[kept] = self.weights[e];
                kept += 1;
            }
        }
        if kept == self.edges.len() {
            return;
        }
        self.edges.truncate(kept);
        self.weights.truncate(kept);
        self.mid.clear();
        self.mid.resize(kept, NONE);
        self.id = PairIds::default();
        self.id = PairIds::of(&self.edges);
        self.rows.clear();
        self.raised.clear();
    }

    /// The bracket goes on with every allowed pair in the graph.
    pub(super) fn densify(&mut self, ctx: &Context) {
        self.dense_brackets += 1;
        self.mode = Mode::Dense;
        let all: Vec<usize> = (0..self.n()).collect();
        self.include(ctx, &all);
        for e in 0..self.edges.len() {
            let (a, b) = self.edges[e];
            if self.alive[a] && self.alive[b] && !(self.inside[a] && self.inside[b]) {
                self.weights[e] = self.outer_weight(ctx, a, b);
            }
        }
        self.restart(ctx);
    }

    /// The weight of a pair with a player below the look-ahead (any pair, at first).
    pub(super) fn outer_weight(&self, ctx: &Context, a: usize, b: usize) -> W {
        let (a, b) = (a.min(b), a.max(b));
        match &self.outer {
            Outer::Field {
                layout,
                t,
                s,
                top,
                odd,
                rank,
            } => {
                let p = ctx.players;
                let mut w = Builder::<W>::new(layout);
                w.set(
                    *t,
                    1 + i64::from(!p[a].bye_eligible) + i64::from(!p[b].bye_eligible),
                );
                if *odd {
                    w.set(*s, rank[a] + rank[b]);
                    w.set(*top, i64::from(p[b].score >= p[0].score));
                }
                w.done()
            }
            Outer::Bracket { layout, completion } => {
                let mut w = Builder::<W>::new(layout);
                w.set(
                    *completion,
                    1 + i64::from(!self.bye_candidate[a]) + i64::from(!self.bye_candidate[b]),
                );
                w.done()
            }
        }
    }

    pub(super) fn set(&mut self, a: usize, b: usize, w: W) {
        if let Some(e) = self.id.get(a, b) {
            if self.weights[e] != w {
                self.clean = false;
                if self.mid[e] == NONE && w > self.weights[e] {
                    self.raised.push(e);
                }
                self.weights[e] = w;
                if self.mid[e] != NONE {
                    let w = if self.mode == Mode::Reduced {
                        w.add(&w)
                    } else {
                        w
                    };
                    self.matcher.set_weight(self.mid[e], w);
                }
            }
        }
    }

    /// Starts the matcher again on the current weights (paired players removed).
    pub(super) fn restart(&mut self, ctx: &Context) {
        let n = self.n();
        let mut all: Vec<(usize, usize, W)> = Vec::new();
        self.mid.iter_mut().for_each(|m| *m = NONE);
        let chosen = (self.mode == Mode::Reduced).then(|| self.heaviest());
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if !self.alive[a] || !self.alive[b] {
                continue;
            }
            let w = self.weights[e];
            match self.mode {
                Mode::Dense => {}
                Mode::Reduced if chosen.as_ref().is_some_and(|c| c[e]) => {}
                Mode::Reduced => continue,
            }
            self.mid[e] = all.len();
            let w = if self.mode == Mode::Reduced {
                w.add(&w)
            } else {
                w
            };
            all.push((a, b, w));
        }
        self.completion = None;
        if self.mode == Mode::Dense {
            self.matcher.start(n, &all);
        } else {
            // Each player of the bracket may go down (if someone below may meet him), or in
            // an odd field take the bye vertex 2n.
            let below: Vec<usize> = (0..n)
                .filter(|&v| self.alive[v] && !self.inside[v])
                .collect();
            let odd = (0..n).filter(|&v| self.alive[v]).count() % 2 == 1;
            for a in 0..n {
                if !self.alive[a] || !self.inside[a] {
                    continue;
                }
                if below.iter().any(|&b| compatible(ctx, a, b)) {
                    all.push((a, n + a, self.share2(a)));
                }
                if odd {
                    all.push((a, 2 * n, self.unit_completion()));
                }
            }
            self.matcher.start(2 * n + 1, &all);
            for (v, y) in self.floors().into_iter().enumerate() {
                if y > W::zero() {
                    self.matcher.set_floor(v, y);
                }
            }
        }
        self.clean = false;
    }

    /// After a clean solve: no matching optimal on the fields at or above `unit` pairs `a`
    /// with `b`, when the fields below `unit` add up to less than one `unit` over any
    /// matching. For matchings M (the optimum) and M', 2·(w(M) − w(M')) is at least the sum
    /// of the reduced costs of M''s pairs (LP duality); if M' is as good as M on the upper
    /// fields, w(M) − w(M') < unit, so no pair of M' has a reduced cost of 2·unit or more.
    pub(super) fn excluded(&self, a: usize, b: usize, unit: W) -> bool {
        let Some(e) = self.id.get(a, b) else {
            return true;
        };
        if !self.clean {
            return false;
        }
        // The matcher's weights are doubled in reduced mode.
        let two = unit.add(&unit);
        let bound = if self.mode == Mode::Reduced {
            two.add(&two)
        } else {
            two
        };
        if self.mid[e] == NONE {
            // Left out of the reduced graph: its pricing bound decides.
            let (a, b) = self.edges[e];
            let priced = self.mode == Mode::Reduced
                && self.alive[a]
                && self.alive[b]
                && self.inside[a]
                && self.inside[b];
            return priced
                && (self.weights[e] <= W::zero()
                    || self.absent_slack(e).is_some_and(|r| r >= bound));
        }
        self.matcher
            .reduced_cost(self.mid[e])
            .is_some_and(|r| r >= bound)
    }

    /// A player paired for good leaves the graph.
    pub(super) fn kill(&mut self, v: usize) {
        self.alive[v] = false;
        self.matcher.remove_vertex(v);
        if self.mode == Mode::Reduced {
            self.matcher.remove_vertex(self.n() + v);
        }
    }
}
