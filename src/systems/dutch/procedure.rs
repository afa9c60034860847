//! The Dutch procedure: brackets from the top, each settled by exact maximum-weight matchings
//! over every player still unpaired ("FIDE Dutch 2025 C.4": the rest stays pairable).
//!
//! A bracket's criteria are packed into one integer weight per pair (see [`super::weight`]):
//! completion and bye eligibility, pairs in the bracket ("FIDE Dutch 2025 C.5"), scores paired
//! ("FIDE Dutch 2025 C.6"), the next bracket ("FIDE Dutch 2025 C.7"), the bye's unplayed games
//! ("FIDE Dutch 2025 C.9"), topscorers' colours ("FIDE Dutch 2025 C.10", "FIDE Dutch 2025
//! C.11"), colour preferences ("FIDE Dutch 2025 C.12", "FIDE Dutch 2025 C.13"), repeated floats
//! ("FIDE Dutch 2025 C.14"–"FIDE Dutch 2025 C.17") and their scores ("FIDE Dutch 2025 C.18"–
//! "FIDE Dutch 2025 C.21"). A maximum-weight matching is then the lexicographic optimum of the
//! bracket's criteria, with the rest of the field completable. Among the optimal candidates
//! the first in the Dutch order is found by further matchings with small preferences in the
//! lowest field, each decision fixed before the next: which moved-down players are paired,
//! their opponents, the exchanges between S1 and S2, then each S1 player's opponent
//! ("FIDE Dutch 2025 4.2", "FIDE Dutch 2025 4.3").

use super::state::{DutchPlayer, Float};
use super::weight::{bits_for, Builder, Field, Layout, Packed};
use crate::tournament::Colour;
use std::collections::HashMap;

/// An exact maximum-weight matching kept between solves, supplied by the solver: the
/// procedure changes a few weights or removes paired players, then asks again.
pub trait Matcher<W> {
    /// A graph on vertices `0..n`; edge ids are positions in `edges`.
    fn start(&mut self, n: usize, edges: &[(usize, usize, W)]);
    fn set_weight(&mut self, edge: usize, w: W);
    /// The vertex and its edges leave the graph (a player paired for good).
    fn remove_vertex(&mut self, v: usize);
    /// An optimal matching of the current graph: `mate[v]`.
    fn solve(&mut self) -> Vec<Option<usize>>;
    /// A maximum-weight matching of a separate graph, solved on its own (the completion of
    /// the players below a bracket).
    fn side(&mut self, n: usize, edges: &[(usize, usize, i64)]) -> Vec<Option<usize>>;
    /// After a solve: the edge's reduced cost under the optimal duals, in units of twice its
    /// weight (vertex duals plus the duals of the blossoms holding both ends, minus 2·w).
    fn reduced_cost(&self, edge: usize) -> Option<W>;
}

/// What one bracket did, for the certificate.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BracketLog {
    /// Resident score in thousandths (the score group that opened the bracket).
    pub score: i64,
    pub residents: usize,
    pub moved_down: usize,
    pub pairs: usize,
    pub floaters: usize,
    /// Exact matchings solved for this bracket (criteria, then the Dutch order).
    pub matchings: usize,
    /// Solved over every pair of the unpaired players, rather than over the bracket and its
    /// look-ahead with the players below completed apart (see `models/dutch.md`).
    pub dense: bool,
}

/// The round as the procedure leaves it: pairs of player indices (higher-ranked first), the
/// bye, anyone left over (only when no pairing satisfies the absolute criteria).
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
    pub unpaired: Vec<usize>,
    pub brackets: Vec<BracketLog>,
    pub weight_bits: u32,
    /// Stopped by [`Context::should_cancel`] before every bracket was paired.
    pub cancelled: bool,
    /// Stopped because a bracket's criteria need more bits than `W` holds: pair again wider.
    pub needs_bits: Option<u32>,
}

/// Settings of the procedure that are readings of the text rather than the text itself.
#[derive(Debug, Clone, Copy)]
pub struct Readings {
    /// Whether "FIDE Dutch 2025 C.9" (the bye to the player with the fewest unplayed games)
    /// ranks candidates for the bye.
    pub bye_unplayed_games: bool,
}

pub struct Context<'a> {
    pub players: &'a [DutchPlayer],
    /// Asked between brackets: true stops the procedure (a deadline passed).
    pub should_cancel: &'a dyn Fn() -> bool,
    /// The last round is being paired (topscorers' exemptions apply).
    pub last_round: bool,
    pub played_rounds: u32,
    pub readings: Readings,
}

/// May `a` and `b` meet? ("C.04.1 b" no rematch, TRF-2026 260 forbidden pairs, and
/// "FIDE Dutch 2025 C.3": two players with the same absolute colour preference do not meet,
/// unless one is a topscorer in the last round.)
pub fn compatible(ctx: &Context, a: usize, b: usize) -> bool {
    let (p, q) = (&ctx.players[a], &ctx.players[b]);
    if p.barred.contains(&q.id) || q.barred.contains(&p.id) {
        return false;
    }
    !(p.absolute && q.absolute && p.preference == q.preference)
        || (ctx.last_round && (p.topscorer || q.topscorer))
}

struct Fields {
    completion: Field,
    in_bracket: Field,
    scores: HashMap<i64, Field>,
    next: Field,
    next_scores: HashMap<i64, Field>,
    /// Only where the bye comes from this bracket ("FIDE Dutch 2025 C.9").
    bye: Option<Field>,
    /// C.10 and C.11 only in the last round: before it two players with the same absolute
    /// preference never meet, so those fields would count every pair alike.
    colours: [Option<Field>; 4],
    floats: Vec<Field>,
    float_scores: Vec<HashMap<i64, Field>>,
    order: Field,
    /// Below every criterion and every ordering decision: a preference for the natural
    /// S1 v S2 pairing that only chooses among equal optima, so that the optimum found
    /// usually is the first candidate already and the ordering steps need no solve.
    hint: Field,
    /// Bits inside the order field: `ob` per sub-part (bbp-style room of 3 parts + 1 bit).
    ob: u32,
}

fn score_counts(players: &[DutchPlayer], set: &[usize]) -> Vec<(i64, usize)> {
    let mut out: Vec<(i64, usize)> = Vec::new();
    for &i in set {
        let s = players[i].score;
        match out.iter_mut().find(|(x, _)| *x == s) {
            Some(e) => e.1 += 1,
            None => out.push((s, 1)),
        }
    }
    out.sort_by_key(|e| std::cmp::Reverse(e.0));
    out
}

/// Bits of the layout of a bracket of `cur` with `curnext` as its look-ahead.
pub fn layout_bits(ctx: &Context, cur: &[usize], curnext: &[usize]) -> u32 {
    layout_for(ctx, ctx.players.len(), cur, curnext, false)
        .0
        .total_bits()
}

/// Only pairs inside the bracket and its look-ahead carry more than completion, and a
/// matching holds at most `curnext.len() / 2` of them: the criteria fields are sized by that
/// (completion and the bye's ranks by the whole field).
fn layout_for(
    ctx: &Context,
    n: usize,
    cur: &[usize],
    curnext: &[usize],
    bye_here: bool,
) -> (Layout, Fields) {
    let m = curnext.len().max(2) as u64;
    let wb = bits_for(m) + 1;
    let wbn = bits_for(n as u64) + 1;
    let mut l = Layout::default();
    let completion = l.push(bits_for(3 * n as u64) + 1);
    let in_bracket = l.push(wb);
    let per_score = |l: &mut Layout, set: &[usize]| -> HashMap<i64, Field> {
        score_counts(ctx.players, set)
            .into_iter()
            .map(|(s, c)| (s, l.push(bits_for(c as u64) + 1)))
            .collect()
    };
    let scores = per_score(&mut l, cur);
    let next = l.push(wb);
    let next_scores = per_score(&mut l, curnext);
    let bye = (bye_here && ctx.readings.bye_unplayed_games).then(|| l.push(wb + wbn));
    let last = ctx.last_round;
    let colours = [
        last.then(|| l.push(wb)),
        last.then(|| l.push(wb)),
        Some(l.push(wb)),
        Some(l.push(wb)),
    ];
    let mut floats = Vec::new();
    for back in 1..=2u32 {
        if ctx.played_rounds >= back {
            floats.push(l.push(wb + 1));
            floats.push(l.push(wb));
        }
    }
    let mut float_scores = Vec::new();
    for back in 1..=2u32 {
        if ctx.played_rounds >= back {
            float_scores.push(per_score(&mut l, cur));
            float_scores.push(per_score(&mut l, cur));
        }
    }
    let order = l.push(3 * wb + 2);
    let hint = l.push(bits_for(m.pow(3)) + 2);
    l.finish();
    (
        l,
        Fields {
            completion,
            in_bracket,
            scores,
            next,
            next_scores,
            bye,
            colours,
            floats,
            float_scores,
            order,
            hint,
            ob: wb,
        },
    )
}

/// The weights of pairs with a player below the bracket's look-ahead (all pairs, in the
/// first matching): they depend on little but the two players' bye eligibility.
enum Outer {
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
enum Mode {
    /// Every allowed pair of unpaired players in one graph.
    Dense,
    /// The bracket and its look-ahead only, each of their players with a private "goes down"
    /// vertex and, in an odd field, a shared "takes the bye" vertex; the players below are
    /// completed apart. Exact when the completion reaches the bound (see [`State::solve`]),
    /// else the bracket goes on in [`Mode::Dense`].
    Reduced,
}

const NONE: usize = usize::MAX;

/// The pairing state shared by the bracket steps.
struct State<'m, W: Packed> {
    matcher: &'m mut dyn Matcher<W>,
    alive: Vec<bool>,
    /// Pairs, `(a, b)` with `a < b`, and their current weights.
    edges: Vec<(usize, usize)>,
    id: HashMap<(usize, usize), usize>,
    weights: Vec<W>,
    /// Each pair's edge id in the matcher's graph, or `NONE`.
    mid: Vec<usize>,
    bye_candidate: Vec<bool>,
    outer: Outer,
    mode: Mode,
    /// Players of the bracket and its look-ahead (reduced mode's graph).
    inside: Vec<bool>,
    /// The completion of the players below for the last set of players going down.
    completion: Option<(Vec<usize>, Vec<Option<usize>>)>,
    solves: usize,
    /// Brackets that needed the dense graph.
    dense_brackets: usize,
    /// No weight changed since the last solve: its matching is optimal for the weights now.
    clean: bool,
}

/// The first matching's candidates per player (the next ones in rank order), tried before
/// every allowed pair.
const FIELD_DEGREES: [usize; 2] = [8, 48];

/// Twice the largest weight a matching of the whole field can have in the first matching:
/// a pair weighs the two players' shares φ (completion, eligibility, score) plus the top
/// field when both have the top score; in an odd field the player left over loses his share
/// (at least the least one), and at most ⌊top/2⌋ pairs are both of the top score.
fn field_bound<W: Packed>(ctx: &Context, st: &State<W>) -> W {
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

/// Completion candidates per player (the next ones in rank order), tried before more.
const COMPLETION_DEGREES: [usize; 2] = [8, 48];

impl<W: Packed> State<'_, W> {
    fn n(&self) -> usize {
        self.alive.len()
    }

    /// A maximum-weight matching over the alive players (`mate[i]` by player index), optimal
    /// over every allowed pair.
    fn solve(&mut self, ctx: &Context) -> Vec<Option<usize>> {
        self.solves += 1;
        self.clean = true;
        let r = self.matcher.solve();
        if self.mode == Mode::Dense {
            return r;
        }
        match self.complete(ctx, &r) {
            Some(mate) => mate,
            None => {
                self.densify(ctx);
                self.clean = true;
                self.matcher.solve()
            }
        }
    }

    /// Twice the share of a player in any pair's completion field ("φ"): a pair with a player
    /// below the look-ahead weighs exactly the sum of the two shares.
    fn share2(&self, v: usize) -> W {
        match &self.outer {
            Outer::Bracket { layout, completion } => {
                layout.unit::<W>(*completion, 1 + 2 * i64::from(!self.bye_candidate[v]))
            }
            Outer::Field { .. } => unreachable!("the first matching is dense"),
        }
    }

    fn unit_completion(&self) -> W {
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
    fn complete(&mut self, ctx: &Context, r: &[Option<usize>]) -> Option<Vec<Option<usize>>> {
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
                    let w = self.weights[self.id[&(a, b)]];
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
    fn complete_below(&mut self, ctx: &Context, down: &[usize]) -> Option<Vec<Option<usize>>> {
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

    /// The bracket goes on with every allowed pair in the graph.
    fn densify(&mut self, ctx: &Context) {
        self.dense_brackets += 1;
        self.mode = Mode::Dense;
        let n = self.n();
        for a in 0..n {
            for b in a + 1..n {
                if self.alive[a]
                    && self.alive[b]
                    && !self.id.contains_key(&(a, b))
                    && compatible(ctx, a, b)
                {
                    self.id.insert((a, b), self.edges.len());
                    self.edges.push((a, b));
                    self.weights.push(W::zero());
                    self.mid.push(NONE);
                }
            }
        }
        for e in 0..self.edges.len() {
            let (a, b) = self.edges[e];
            if self.alive[a] && self.alive[b] && !(self.inside[a] && self.inside[b]) {
                self.weights[e] = self.outer_weight(ctx, a, b);
            }
        }
        self.restart(ctx);
    }

    /// The weight of a pair with a player below the look-ahead (any pair, at first).
    fn outer_weight(&self, ctx: &Context, a: usize, b: usize) -> W {
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

    fn set(&mut self, a: usize, b: usize, w: W) {
        if let Some(&e) = self.id.get(&(a.min(b), a.max(b))) {
            if self.weights[e] != w {
                self.clean = false;
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
    fn restart(&mut self, ctx: &Context) {
        let n = self.n();
        let mut all: Vec<(usize, usize, W)> = Vec::new();
        self.mid.iter_mut().for_each(|m| *m = NONE);
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if !self.alive[a] || !self.alive[b] {
                continue;
            }
            let w = self.weights[e];
            match self.mode {
                Mode::Dense => {}
                Mode::Reduced if self.inside[a] && self.inside[b] => {}
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
        }
        self.clean = false;
    }

    /// After a clean solve: no matching optimal on the fields at or above `unit` pairs `a`
    /// with `b`, when the fields below `unit` add up to less than one `unit` over any
    /// matching. For matchings M (the optimum) and M', 2·(w(M) − w(M')) is at least the sum
    /// of the reduced costs of M''s pairs (LP duality); if M' is as good as M on the upper
    /// fields, w(M) − w(M') < unit, so no pair of M' has a reduced cost of 2·unit or more.
    fn excluded(&self, a: usize, b: usize, unit: W) -> bool {
        let Some(&e) = self.id.get(&(a.min(b), a.max(b))) else {
            return true;
        };
        if !self.clean || self.mid[e] == NONE {
            return false;
        }
        // The matcher's weights are doubled in reduced mode.
        let two = unit.add(&unit);
        let bound = if self.mode == Mode::Reduced {
            two.add(&two)
        } else {
            two
        };
        self.matcher
            .reduced_cost(self.mid[e])
            .is_some_and(|r| r >= bound)
    }

    /// A player paired for good leaves the graph.
    fn kill(&mut self, v: usize) {
        self.alive[v] = false;
        self.matcher.remove_vertex(v);
        if self.mode == Mode::Reduced {
            self.matcher.remove_vertex(self.n() + v);
        }
    }
}

/// Pairs the field (players in rank order). `Err` only from the matcher's side; a field no
/// pairing can complete comes back with `unpaired`.
pub fn run<W: Packed>(ctx: &Context, matcher: &mut dyn Matcher<W>) -> Outcome {
    let players = ctx.players;
    let n = players.len();
    let mut out = Outcome::default();
    if n == 0 {
        return out;
    }
    // Score groups as index ranges (rank order).
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for i in 1..=n {
        if i == n || players[i].score != players[start].score {
            groups.push(start..i);
            start = i;
        }
    }
    // Completion and the bye's score group: one matching over the whole field, pairs first,
    // every ineligible player paired, then the bye as low as it can go ("C.04.1 c",
    // "FIDE Dutch 2025 C.2", "FIDE Dutch 2025 C.4").
    let mut bye_score = 0i64;
    let mut single_bye_bracket;
    let distinct: Vec<i64> = groups.iter().map(|g| players[g.start].score).collect();
    let rank_from_bottom =
        |s: i64| (distinct.len() - 1 - distinct.iter().position(|&x| x == s).unwrap()) as i64;
    let mut st: State<W> = {
        let mut l = Layout::default();
        let t = l.push(bits_for(3 * n as u64) + 1);
        let s = l.push(bits_for(2 * distinct.len() as u64 * n as u64) + 1);
        let top = l.push(bits_for(n as u64) + 1);
        l.finish();
        out.weight_bits = l.total_bits();
        if l.total_bits() > W::BITS {
            out.needs_bits = Some(l.total_bits());
            return out;
        }
        State {
            matcher,
            alive: vec![true; n],
            id: HashMap::new(),
            mid: Vec::new(),
            edges: Vec::new(),
            weights: Vec::new(),
            bye_candidate: players.iter().map(|p| p.bye_eligible).collect(),
            outer: Outer::Field {
                layout: l,
                t,
                s,
                top,
                odd: n % 2 == 1,
                rank: players.iter().map(|p| rank_from_bottom(p.score)).collect(),
            },
            mode: Mode::Dense,
            inside: vec![true; n],
            completion: None,
            solves: 0,
            dense_brackets: 0,
            clean: false,
        }
    };
    {
        let odd = n % 2 == 1;
        // Sparse first (each player with the next few he may meet in rank order), then
        // wider, then every allowed pair: a matching reaching the bound below is optimal.
        let bound = field_bound(ctx, &st);
        let mut mate = Vec::new();
        for k in FIELD_DEGREES.into_iter().chain([n]) {
            st.edges.clear();
            for a in 0..n {
                let mut got = 0;
                for b in a + 1..n {
                    if got == k {
                        break;
                    }
                    if compatible(ctx, a, b) {
                        st.edges.push((a, b));
                        got += 1;
                    }
                }
            }
            st.id = st.edges.iter().enumerate().map(|(e, &p)| (p, e)).collect();
            st.mid = (0..st.edges.len()).collect();
            st.weights = st
                .edges
                .iter()
                .map(|&(a, b)| st.outer_weight(ctx, a, b))
                .collect();
            let edges: Vec<(usize, usize, W)> = st
                .edges
                .iter()
                .zip(&st.weights)
                .map(|(&(a, b), &w)| (a, b, w))
                .collect();
            st.matcher.start(n, &edges);
            mate = st.solve(ctx);
            let mut got = W::zero();
            for (a, m) in mate.iter().enumerate() {
                if let Some(b) = m.filter(|&b| a < b) {
                    let w = st.outer_weight(ctx, a, b);
                    got = got.add(&w.add(&w));
                }
            }
            if got == bound || k == n {
                break;
            }
        }
        let left: Vec<usize> = (0..n).filter(|&i| mate[i].is_none()).collect();
        if left.len() > 1 || left.iter().any(|&i| !players[i].bye_eligible) {
            out.unpaired = left;
            return out;
        }
        if odd {
            bye_score = players[left[0]].score;
        }
        for (c, p) in st.bye_candidate.iter_mut().zip(players) {
            *c = p.bye_eligible && p.score <= bye_score;
        }
        // The bye comes from the top bracket when nobody of it must be paired below it.
        let top = players[0].score;
        single_bye_bracket = odd
            && bye_score >= top
            && groups[0]
                .clone()
                .all(|i| mate[i].is_none_or(|m| players[m].score >= top));
    }
    let odd = n % 2 == 1;
    // C.9 ranks: among players at the bye's score, more games played ranks lower.
    let at_bye_score: Vec<u32> = players
        .iter()
        .filter(|p| p.score == bye_score)
        .map(|p| p.played_games)
        .collect();
    let unplayed_ranks: Vec<i64> = players
        .iter()
        .map(|p| {
            let g = p.played_games;
            let more = at_bye_score.iter().filter(|&&x| x > g).count();
            let same = at_bye_score.iter().filter(|&&x| x == g).count();
            (more + same) as i64 - 1
        })
        .collect();
    let unplayed_rank = |i: usize| -> i64 { unplayed_ranks[i] };

    let mut mdps: Vec<usize> = Vec::new();
    let mut gi = 0usize;
    loop {
        let residents: Vec<usize> = groups
            .get(gi)
            .cloned()
            .map(|r| r.collect())
            .unwrap_or_default();
        let cur: Vec<usize> = mdps
            .iter()
            .copied()
            .chain(residents.iter().copied())
            .collect();
        if cur.len() <= 1 && gi >= groups.len() {
            break;
        }
        if (ctx.should_cancel)() {
            out.cancelled = true;
            return out;
        }
        gi += 1;
        let nxt: Vec<usize> = groups
            .get(gi)
            .cloned()
            .map(|r| r.collect())
            .unwrap_or_default();
        let curnext: Vec<usize> = cur.iter().chain(nxt.iter()).copied().collect();
        let solves_before = st.solves;
        let dense_before = st.dense_brackets;
        let (layout, f) = layout_for(ctx, n, &cur, &curnext, single_bye_bracket);
        out.weight_bits = out.weight_bits.max(layout.total_bits());
        if layout.total_bits() > W::BITS {
            out.needs_bits = Some(layout.total_bits());
            return out;
        }
        let mut in_cur = vec![false; n];
        let mut in_next = vec![false; n];
        for &i in &cur {
            in_cur[i] = true;
        }
        for &i in &nxt {
            in_next[i] = true;
        }
        let is_resident = |i: usize, in_cur: &[bool]| in_cur[i] && !mdps.contains(&i);
        // Residents' places, for the hint (S1 v S2 at half the group apart).
        let rpos0: HashMap<usize, usize> =
            residents.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        let half = (residents.len() / 2) as i64;
        // The hint's top value: no deviation in the bracket reaches it.
        let m = curnext.len().max(2) as i64;
        let hk = m * m;
        let hint_of = |a: usize, b: usize| -> i64 {
            match (rpos0.get(&a), rpos0.get(&b)) {
                (Some(&i), Some(&j)) => {
                    let dev = j as i64 - i as i64 - half;
                    hk - dev * dev
                }
                _ => 0,
            }
        };
        // The bracket and its look-ahead are solved with every pair among them; the players
        // below only through their completion (reduced mode).
        st.outer = Outer::Bracket {
            layout: layout.clone(),
            completion: f.completion,
        };
        st.mode = Mode::Reduced;
        for v in 0..n {
            st.inside[v] = in_cur[v] || in_next[v];
        }
        for (x, &a) in curnext.iter().enumerate() {
            for &b in &curnext[x + 1..] {
                let (a, b) = (a.min(b), a.max(b));
                if st.alive[a]
                    && st.alive[b]
                    && !st.id.contains_key(&(a, b))
                    && compatible(ctx, a, b)
                {
                    st.id.insert((a, b), st.edges.len());
                    st.edges.push((a, b));
                    st.weights.push(W::zero());
                    st.mid.push(NONE);
                }
            }
        }
        // Base weights of pairs whose lower player is in this bracket or the next.
        let mut base: HashMap<(usize, usize), W> = HashMap::new();
        for e in 0..st.edges.len() {
            let (a, b) = st.edges[e];
            if !st.alive[a] || !st.alive[b] {
                continue;
            }
            let both_moved_down = mdps.contains(&a) && mdps.contains(&b);
            if both_moved_down && st.weights[e] == W::zero() {
                // Two players the previous bracket kept apart stay apart.
                continue;
            }
            if !(in_cur[b] || in_next[b]) {
                // Outer pairs are weighed when the bracket needs the dense graph.
                continue;
            }
            let w = {
                let hint = hint_of(a, b);
                let w = base_weight(
                    ctx,
                    &st,
                    &layout,
                    &f,
                    a,
                    b,
                    in_cur[b],
                    in_next[b],
                    single_bye_bracket,
                    bye_score,
                    &unplayed_rank,
                    hint,
                );
                base.insert((a, b), w);
                w
            };
            st.weights[e] = w;
        }
        // Every pair of the bracket changed weight: a fresh solve costs less than re-weighting.
        st.restart(ctx);
        let ord = |v: i64| layout.unit::<W>(f.order, v);
        // The unit of the lowest criterion: the order and hint fields add up to less.
        let above = layout.above::<W>(f.order);
        let mut mate = st.solve(ctx);
        let mut finalized: Vec<(usize, usize)> = Vec::new();
        let mut matched = vec![false; n];
        let res_set: Vec<bool> = (0..n).map(|i| is_resident(i, &in_cur)).collect();
        let mate_is_resident =
            |mate: &[Option<usize>], i: usize| mate[i].is_some_and(|m| res_set[m]);

        // Which moved-down players are paired: the highest ranked of each score first
        // ("FIDE Dutch 2025 4.2").
        let mut k = 0;
        while k < mdps.len() {
            let s = players[mdps[k]].score;
            let same: Vec<usize> = mdps[k..]
                .iter()
                .copied()
                .take_while(|&x| players[x].score == s)
                .collect();
            k += same.len();
            let mut remaining = same.len();
            let mut can = same.iter().filter(|&&x| mate_is_resident(&mate, x)).count();
            for &x in &same {
                if can == 0 {
                    continue;
                }
                if remaining <= can {
                    matched[x] = true;
                    continue;
                }
                remaining -= 1;
                if !mate_is_resident(&mate, x) {
                    for &r in residents.iter() {
                        if let Some(w) = base.get(&(x, r)) {
                            let w = w.add(&ord(1));
                            st.set(x, r, w);
                        }
                    }
                    mate = st.solve(ctx);
                }
                if mate_is_resident(&mate, x) {
                    matched[x] = true;
                    can -= 1;
                    for &r in residents.iter() {
                        if let Some(w) = base.get(&(x, r)) {
                            let w = w.add(&ord(residents.len() as i64 + 1));
                            st.set(x, r, w);
                        }
                    }
                }
            }
        }
        // Their opponents: each, in order, the highest resident the optimum allows.
        for &x in &mdps {
            if !matched[x] {
                continue;
            }
            // The current optimum already gives x the highest resident it may have: the
            // preference below could not change it (a matching optimal without it and best
            // on it stays optimal with it).
            // Also when every higher resident's pair is in no optimum of the criteria
            // (see `State::excluded`).
            let candidates: Vec<usize> = residents
                .iter()
                .copied()
                .filter(|&r| !matched[r] && base.get(&(x, r)).is_some_and(|w| *w > W::zero()))
                .collect();
            let best = mate[x]
                .and_then(|m| candidates.iter().position(|&r| r == m))
                .filter(|&k| st.clean && candidates[..k].iter().all(|&r| st.excluded(x, r, above)))
                .map(|k| candidates[k]);
            if let Some(m) = best {
                matched[m] = true;
                finalized.push((x, m));
                st.kill(x);
                st.kill(m);
                continue;
            }
            let mut bonus = curnext.len() as i64;
            for &r in residents.iter().rev() {
                if matched[r] {
                    continue;
                }
                if let Some(w) = base.get(&(x, r)) {
                    let w = w.add(&ord(bonus));
                    st.set(x, r, w);
                    bonus += 1;
                }
            }
            mate = st.solve(ctx);
            if let Some(m) = mate[x] {
                matched[m] = true;
                finalized.push((x, m));
                st.kill(x);
                st.kill(m);
            }
        }

        // The remainder: residents paired among themselves or floating ("FIDE Dutch 2025 4.3").
        let remainder: Vec<usize> = residents.iter().copied().filter(|&i| st.alive[i]).collect();
        let rpos: HashMap<usize, usize> =
            remainder.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        let pairs_in = remainder
            .iter()
            .filter(|&&i| mate[i].is_some_and(|m| m < i && rpos.contains_key(&m)))
            .count();
        let ob = f.ob;
        // Exchanges: fewest players moved between S1 and S2, then the smallest difference of
        // their numbers in the bracket ("FIDE Dutch 2025 4.3.3").
        let exchange_weight =
            |base: &HashMap<(usize, usize), W>, a: usize, b: usize| -> Option<W> {
                let w = base.get(&(a, b))?;
                let ia = rpos[&a] as i64;
                let add = (i64::from(ia < pairs_in as i64) << (2 * ob + 1)) - (ia << 1);
                Some(w.add(&ord(add)))
            };
        for (x, &a) in remainder.iter().enumerate() {
            for &b in &remainder[x + 1..] {
                if let Some(w) = exchange_weight(&base, a, b) {
                    st.set(a, b, w);
                }
            }
        }
        mate = st.solve(ctx);
        let is_top = |mate: &[Option<usize>], i: usize| {
            mate[i].is_some_and(|m| m > i && rpos.contains_key(&m))
        };
        let exchanges = remainder[..pairs_in]
            .iter()
            .filter(|&&i| !is_top(&mate, i))
            .count();
        // S1 players to move: the lowest first.
        let mut left = exchanges;
        let mut p = pairs_in;
        while p > 0 && left > 0 {
            p -= 1;
            let a = remainder[p];
            if is_top(&mate, a) {
                for &b in &remainder[p + 1..] {
                    if let Some(w) = exchange_weight(&base, a, b) {
                        st.set(a, b, w.sub(&ord(1)));
                    }
                }
                mate = st.solve(ctx);
            }
            let exchange = !is_top(&mate, a);
            if exchange {
                left -= 1;
            }
            for &b in &remainder[p + 1..] {
                if exchange {
                    base.remove(&(a, b));
                    st.set(a, b, W::zero());
                } else if let Some(w) = exchange_weight(&base, a, b) {
                    st.set(a, b, w);
                }
            }
        }
        // S2 players to move up: the highest first.
        let mut left = exchanges;
        let mut q = pairs_in;
        while q < remainder.len() && left > 1 {
            let a = remainder[q];
            let already = is_top(&mate, a);
            if !already {
                for &b in &remainder[q + 1..] {
                    if let Some(w) = exchange_weight(&base, a, b) {
                        st.set(a, b, w.add(&ord(1)));
                    }
                }
                mate = st.solve(ctx);
            }
            if is_top(&mate, a) {
                left -= 1;
                for &b in &remainder[..q] {
                    base.remove(&(b, a));
                    st.set(b, a, W::zero());
                }
                for &j in &nxt {
                    base.remove(&(a, j));
                    st.set(a, j, W::zero());
                }
            }
            if !already {
                for &b in &remainder[q + 1..] {
                    if let Some(w) = exchange_weight(&base, a, b) {
                        st.set(a, b, w);
                    }
                }
            }
            q += 1;
        }
        // Fix S1 and S2 as chosen: a top meets only a non-top below it. The hint now points
        // each S1 player at the S2 player of his own place.
        let s1: Vec<usize> = remainder
            .iter()
            .copied()
            .filter(|&i| is_top(&mate, i))
            .collect();
        let s2: Vec<usize> = remainder
            .iter()
            .copied()
            .filter(|&i| !is_top(&mate, i))
            .collect();
        let place = |v: &[usize], i: usize| v.iter().position(|&x| x == i).unwrap_or(0) as i64;
        for (x, &a) in remainder.iter().enumerate() {
            for &b in &remainder[x + 1..] {
                if !is_top(&mate, a) || is_top(&mate, b) {
                    base.remove(&(a, b));
                }
                if let Some(w) = base.get_mut(&(a, b)) {
                    let dev = place(&s2, b) - place(&s1, a);
                    let old = hint_of(a, b);
                    let new = hk - dev * dev;
                    *w = w.add(&layout.unit::<W>(f.hint, new - old));
                }
                let w = base.get(&(a, b)).cloned().unwrap_or_else(W::zero);
                st.set(a, b, w);
            }
        }
        // Each S1 player, in order, meets the highest S2 player the optimum allows.
        for &a in &remainder {
            if !is_top(&mate, a) {
                continue;
            }
            // As for the moved-down players: no solve when the optimum already agrees.
            let candidates: Vec<usize> = remainder
                .iter()
                .copied()
                .filter(|&b| {
                    b > a && !matched[b] && base.get(&(a, b)).is_some_and(|w| *w > W::zero())
                })
                .collect();
            let best = mate[a]
                .and_then(|m| candidates.iter().position(|&b| b == m))
                .filter(|&k| st.clean && candidates[..k].iter().all(|&b| st.excluded(a, b, above)))
                .map(|k| candidates[k]);
            if let Some(m) = best {
                matched[a] = true;
                matched[m] = true;
                finalized.push((a, m));
                st.kill(a);
                st.kill(m);
                continue;
            }
            let mut bonus = 0i64;
            for &b in remainder.iter().rev() {
                if b <= a || matched[b] {
                    continue;
                }
                if let Some(w) = base.get(&(a, b)) {
                    let w = w.add(&ord(bonus));
                    st.set(a, b, w);
                }
                bonus += 1;
            }
            mate = st.solve(ctx);
            if let Some(m) = mate[a] {
                matched[a] = true;
                matched[m] = true;
                finalized.push((a, m));
                st.kill(a);
                st.kill(m);
            }
        }

        // Who goes down: everyone of the bracket not paired in it.
        let down: Vec<usize> = cur.iter().copied().filter(|&i| st.alive[i]).collect();
        let nxt_score = nxt.first().map(|&i| players[i].score);
        single_bye_bracket = odd && nxt_score.is_some_and(|s| bye_score >= s);
        if single_bye_bracket {
            for &i in down.iter().chain(nxt.iter()) {
                if mate[i].is_some_and(|m| Some(players[m].score) < nxt_score) {
                    single_bye_bracket = false;
                }
            }
        }
        out.brackets.push(BracketLog {
            score: residents
                .first()
                .map(|&i| players[i].score)
                .unwrap_or(players[cur[0]].score),
            residents: residents.len(),
            moved_down: mdps.len(),
            pairs: finalized.len(),
            floaters: down.len(),
            matchings: st.solves - solves_before,
            dense: st.dense_brackets > dense_before,
        });
        out.pairs.extend(finalized);
        mdps = down;
        if gi >= groups.len() && mdps.len() <= 1 {
            break;
        }
    }
    match mdps.as_slice() {
        [] => {}
        [b] => out.bye = Some(*b),
        rest => out.unpaired = rest.to_vec(),
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn base_weight<W: Packed>(
    ctx: &Context,
    st: &State<W>,
    l: &Layout,
    f: &Fields,
    a: usize,
    b: usize,
    b_in_cur: bool,
    b_in_next: bool,
    single_bye_bracket: bool,
    bye_score: i64,
    unplayed_rank: &dyn Fn(usize) -> i64,
    hint: i64,
) -> W {
    let (hi, lo) = (&ctx.players[a], &ctx.players[b]);
    let mut w = Builder::<W>::new(l);
    w.set(f.hint, hint);
    w.set(
        f.completion,
        1 + i64::from(!st.bye_candidate[a]) + i64::from(!st.bye_candidate[b]),
    );
    if b_in_cur {
        w.set(f.in_bracket, 1);
        w.set(f.scores[&hi.score], 1);
    }
    if b_in_next {
        w.set(f.next, 1);
        w.set(f.next_scores[&hi.score], 1);
    }
    if single_bye_bracket && ctx.readings.bye_unplayed_games {
        let mut v = 0;
        if hi.score == bye_score {
            v += unplayed_rank(a);
        }
        if lo.score == bye_score {
            v += unplayed_rank(b);
        }
        w.set_opt(f.bye, v);
    }
    if b_in_cur {
        let same = hi.preference.is_some() && hi.preference == lo.preference;
        // "FIDE Dutch 2025 C.10": topscorers (or opponents) beyond a colour difference of 2.
        w.set_opt(
            f.colours[0],
            i64::from(!(lo.absolute_imbalance() && hi.absolute_imbalance() && same)),
        );
        // "FIDE Dutch 2025 C.11": topscorers (or opponents) with a colour three times running.
        let third = if lo.colour_difference.abs() == hi.colour_difference.abs() {
            lo.repeated.is_some() && lo.repeated == hi.repeated
        } else {
            let smaller = if lo.colour_difference.abs() > hi.colour_difference.abs() {
                hi
            } else {
                lo
            };
            smaller.repeated.is_some() && smaller.repeated == lo.preference.map(Colour::opposite)
        };
        w.set_opt(
            f.colours[1],
            i64::from(!(lo.absolute && hi.absolute && same && third)),
        );
        // "FIDE Dutch 2025 C.12": colour preferences granted.
        w.set_opt(f.colours[2], i64::from(!same));
        // "FIDE Dutch 2025 C.13": strong colour preferences granted.
        let strongish = |p: &DutchPlayer| p.strong || p.absolute;
        w.set_opt(
            f.colours[3],
            i64::from(!(strongish(lo) && strongish(hi) && !(lo.absolute && hi.absolute) && same)),
        );
        // "FIDE Dutch 2025 C.14"–"FIDE Dutch 2025 C.17": floats repeated from one and two
        // rounds before; "FIDE Dutch 2025 C.18"–"FIDE Dutch 2025 C.21": their scores.
        for back in 0..2usize {
            if f.floats.len() < 2 * (back + 1) {
                continue;
            }
            let down_lo = lo.floats[back] == Float::Down;
            let down_hi = hi.floats[back] == Float::Down;
            let up_again = hi.score > lo.score && lo.floats[back] == Float::Up;
            w.set(
                f.floats[2 * back],
                i64::from(down_lo) + i64::from(hi.score <= lo.score && down_hi),
            );
            w.set(f.floats[2 * back + 1], i64::from(!up_again));
            let sd = &f.float_scores[2 * back];
            let mut by: HashMap<i64, i64> = HashMap::new();
            if down_lo {
                *by.entry(lo.score).or_default() += 1;
            }
            if down_hi {
                *by.entry(hi.score).or_default() += 1;
            }
            for (s, v) in by {
                w.set(sd[&s], v);
            }
            if !up_again {
                w.set(f.float_scores[2 * back + 1][&hi.score], 1);
            }
        }
    }
    w.done()
}

/// The colour of `a` against `b` ("FIDE Dutch 2025 E.1"–"FIDE Dutch 2025 E.5"); `a_higher`
/// says which ranks higher; `initial` is the colour drawn for the first board.
pub fn colour_of(a: &DutchPlayer, b: &DutchPlayer, a_higher: bool, initial: Colour) -> Colour {
    if let Some(c) = neutral_colour(a, b) {
        return c;
    }
    let (hi, lo_is_a) = if a_higher { (a, false) } else { (b, true) };
    // "FIDE Dutch 2025 E.4"/"E.5": the higher ranked player's preference, or by his number.
    let hi_colour = match hi.preference {
        Some(p) if a.preference.is_some() => p,
        _ => {
            if hi.number % 2 == 1 {
                initial
            } else {
                initial.opposite()
            }
        }
    };
    if lo_is_a {
        hi_colour.opposite()
    } else {
        hi_colour
    }
}

/// The colour rules that do not depend on rank (E.1–E.4), if they decide.
fn neutral_colour(a: &DutchPlayer, b: &DutchPlayer) -> Option<Colour> {
    let compatible =
        a.preference != b.preference || a.preference.is_none() || b.preference.is_none();
    if compatible {
        return match (a.preference, b.preference) {
            (Some(p), _) => Some(p),
            (None, Some(q)) => Some(q.opposite()),
            (None, None) => None,
        };
    }
    let (ad, bd) = (a.colour_difference.abs(), b.colour_difference.abs());
    if a.absolute && (ad > bd || !b.absolute) {
        return a.preference;
    }
    if b.absolute && (bd > ad || !a.absolute) {
        return b.preference.map(Colour::opposite);
    }
    if a.strong && !b.strong {
        return a.preference;
    }
    if b.strong && !a.strong {
        return b.preference.map(Colour::opposite);
    }
    // "FIDE Dutch 2025 E.4": alternate from the latest round in which they differed.
    let (mut i, mut j) = (a.history.len(), b.history.len());
    while i > 0 && j > 0 {
        i -= 1;
        j -= 1;
        if a.history[i] != b.history[j] {
            return Some(b.history[j]);
        }
    }
    None
}
