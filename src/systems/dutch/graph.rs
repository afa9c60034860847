//! The graph a bracket's matchings are solved on, and the matcher kept warm between them:
//! the first matching sparse and proved by a bound, then each bracket either reduced (the
//! bracket and the next, the players below completed apart to a bound) or dense (every pair
//! of the unpaired players). See models/dutch.md, "The bracket and the players below".
//!
//! A bracket's pairs are never listed: a pair's weight is worked out when it is asked for,
//! from its two players' classes (players alike on every criterion share one), its hint and
//! the Dutch order's preferences of the moment ([`Weights`]). Only the matcher's graph is
//! held pair by pair, so memory grows with the players, not with the pairs of a bracket.

use super::criteria::{base_weight, Fields};
use super::procedure::{colour_allowed, compatible, Context, Matcher};
use super::state::Float;
use super::weight::{Builder, Field, Layout, Weight};
use crate::tournament::Colour;
// Pair keys are looked up millions of times a round: FxHash (fixed, fast; keys are ours).
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

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

const NONE: u32 = u32::MAX;

/// A pair's key: its two players, either order.
fn key(a: usize, b: usize) -> u64 {
    ((a.min(b) as u64) << 32) | a.max(b) as u64
}

/// The hint between residents (below every criterion and ordering decision): a preference
/// for the natural S1 v S2 pairing that only chooses among equal optima, so that the optimum
/// found usually is the first candidate already and the ordering steps need no solve.
enum Hint {
    /// S1 v S2 at half the residents apart: each resident's place among them (by player),
    /// and the residents by place.
    Natural {
        place: Vec<u32>,
        half: i64,
        residents: Vec<u32>,
    },
    /// Once S1 and S2 are fixed: each S1 player at the S2 player of his own place (places by
    /// player, and the players of each by place).
    Split {
        s1: Vec<u32>,
        s2: Vec<u32>,
        s1_players: Vec<u32>,
        s2_players: Vec<u32>,
    },
}

/// A bracket's pair weights, worked out when asked (see the module's note).
pub(super) struct Weights<W: Weight> {
    layout: Layout,
    hint_field: Field,
    /// Each player's class in the bracket and its look-ahead (`NONE` outside).
    class: Vec<u32>,
    classes: usize,
    /// The criteria of a pair by (higher-ranked player's class, lower's), hint left out;
    /// `None`: the colour rules keep the two apart.
    table: Vec<Option<W>>,
    hint: Hint,
    /// The hint's top value: no deviation in the bracket reaches it.
    hk: i64,
    /// While S1 and S2 are chosen: the exchange preference of the higher player of a pair of
    /// the remainder ("FIDE Dutch 2025 4.3.3"), by player.
    exchange: Option<Vec<Option<W>>>,
    /// Weights set pair by pair for a decision of the Dutch order.
    over: HashMap<u64, W>,
    /// Pairs kept apart for the rest of the bracket.
    dropped: HashSet<u64>,
    /// Once S1 and S2 are fixed: 1 for S1, 2 for S2, 0 outside the remainder; a pair of the
    /// remainder other than S1 v S2 is kept apart.
    split: Option<Vec<u8>>,
    /// Pairs of moved-down players the bracket above kept apart.
    apart: HashSet<u64>,
    /// Players with a pair in `over`, `dropped` or `apart` (some may have none left): pricing
    /// reads millions of pairs, and only those of two marked players are looked up.
    marked: Vec<bool>,
}

/// A player's class: everything the bracket's criteria read of him.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Signature {
    score: i64,
    flags: u64,
}

impl<W: Weight> Weights<W> {
    /// The pair's base weight (criteria and hint); `None` when kept apart or not allowed by
    /// the colour rules (barred opponents are the caller's).
    fn base(&self, a: usize, b: usize) -> Option<W> {
        let (a, b) = (a.min(b), a.max(b));
        if let Some(split) = &self.split {
            if split[a] != 0 && split[b] != 0 && !(split[a] == 1 && split[b] == 2) {
                return None;
            }
        }
        let w = self.criteria(a, b)?;
        let h = self.hint_value(a, b);
        Some(if h == 0 {
            w
        } else {
            w.add(&self.layout.unit::<W>(self.hint_field, h))
        })
    }

    /// The pair's criteria alone (no hint, no split); `None` when kept apart or not allowed
    /// by the colour rules.
    fn criteria(&self, a: usize, b: usize) -> Option<W> {
        let (a, b) = (a.min(b), a.max(b));
        let (ka, kb) = (self.class[a], self.class[b]);
        if ka == NONE || kb == NONE {
            return None;
        }
        if self.marked[a] && self.marked[b] {
            let k = key(a, b);
            if self.dropped.contains(&k) || self.apart.contains(&k) {
                return None;
            }
        }
        self.table[ka as usize * self.classes + kb as usize]
    }

    fn hint_value(&self, a: usize, b: usize) -> i64 {
        let (i, j) = match &self.hint {
            Hint::Natural { place, half, .. } => {
                let (i, j) = (place[a], place[b]);
                if i == NONE || j == NONE {
                    return 0;
                }
                return self.hk - (j as i64 - i as i64 - half).pow(2);
            }
            Hint::Split { s1, s2, .. } => (s1[a], s2[b]),
        };
        if i == NONE || j == NONE {
            return 0;
        }
        self.hk - (j as i64 - i as i64).pow(2)
    }

    /// The pair's weight now: its base, or what a decision set, plus the exchange preference.
    fn current(&self, a: usize, b: usize) -> Option<W> {
        let (a, b) = (a.min(b), a.max(b));
        let base = self.base(a, b)?;
        if self.marked[a] && self.marked[b] {
            if let Some(w) = self.over.get(&key(a, b)) {
                return Some(*w);
            }
        }
        if let Some(x) = &self.exchange {
            if let (Some(add), Some(_)) = (x[a], x[b]) {
                return Some(base.add(&add));
            }
        }
        Some(base)
    }
}

/// One pair of the matcher's graph: its players, its edge id there, the weight it has there.
struct GraphPair<W> {
    a: u32,
    b: u32,
    mid: usize,
    w: W,
    /// Taken out of the matcher's graph: in no optimum of the bracket's criteria (see
    /// [`State::prune`]).
    pruned: bool,
}

/// The pairing state shared by the bracket steps.
pub(super) struct State<'m, W: Weight> {
    pub(super) matcher: &'m mut dyn Matcher<W>,
    pub(super) alive: Vec<bool>,
    pub(super) bye_candidate: Vec<bool>,
    pub(super) outer: Outer,
    pub(super) mode: Mode,
    /// Players of the bracket and its look-ahead (reduced mode's graph).
    pub(super) inside: Vec<bool>,
    /// The bracket's weights (none before the first bracket).
    weights: Option<Weights<W>>,
    /// Opponents each player may not meet ("C.04.1 b", TRF-2026 260), by player index.
    barred: Vec<Vec<u32>>,
    /// The matcher's graph, pair by pair, and each pair's place in it.
    graph: Vec<GraphPair<W>>,
    gid: HashMap<u64, u32>,
    /// The completion of the players below for the last set of players going down.
    pub(super) completion: Option<(Vec<usize>, Vec<Option<usize>>)>,
    pub(super) solves: usize,
    /// Brackets that needed the dense graph.
    pub(super) dense_brackets: usize,
    /// No weight changed since the last solve: its matching is optimal for the weights now.
    pub(super) clean: bool,
    /// Reduced mode: pairs left out of the graph whose weight rose, and players all of whose
    /// pairs may have (priced again).
    raised: Vec<(u32, u32)>,
    raised_rows: Vec<bool>,
    /// The dense graph a bracket needed would have held this many pairs, over
    /// `Context::pair_budget`: it was not built, and the procedure stops after the bracket.
    pub(super) over_budget: Option<usize>,
    /// The deadline passed during the bracket (`Context::should_cancel`, asked before each
    /// matching): nothing more is solved, and the procedure stops after the bracket.
    pub(super) cancelled: bool,
    /// Threads pricing's rows are shared among (the machine's, at most `Tuning::price_threads`).
    threads: usize,
}

/// Twice the largest weight a matching of the whole field can have in the first matching:
/// a pair weighs the two players' shares φ (completion, eligibility, score) plus the top
/// field when both have the top score; in an odd field the player left over loses his share
/// (at least the least one), and at most ⌊top/2⌋ pairs are both of the top score.
pub(super) fn field_bound<W: Weight>(ctx: &Context, st: &State<W>) -> W {
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
    /// Tests only: reduced graphs started class by class, each checked against the start
    /// read pair by pair (the same lists; floors covering every pair).
    pub(super) static CLASS_STARTS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The bracket's players by class, for the reduced graph's start: each class's residents by
/// place, its other players (moved down, look-ahead), and all of them, in rank order.
struct ByClass {
    res: Vec<Vec<(i64, usize)>>,
    oth: Vec<Vec<usize>>,
    all: Vec<Vec<usize>>,
}

/// The reduced graph's first pairs (each with its weight), and each player's heaviest weight
/// (doubled).
type Start<W> = (Vec<(usize, usize, W)>, Vec<W>);

/// A player's pairs on one side of him in rank order (below: `true`), class by class.
#[derive(Clone, Copy)]
struct Side {
    v: usize,
    below: bool,
    /// v's place among the residents (none: no hint on any of his pairs).
    place: Option<i64>,
    half: i64,
}

impl Side {
    fn new(v: usize, below: bool, place: &[u32], half: i64) -> Side {
        Side {
            v,
            below,
            place: (place[v] != NONE).then(|| i64::from(place[v])),
            half,
        }
    }

    /// The hint's target place (residents only).
    fn target(&self) -> i64 {
        let p = self.place.unwrap_or(0);
        if self.below {
            p + self.half
        } else {
            p - self.half
        }
    }

    /// The range of `list` (in rank order, by `key`) on this side of v.
    fn range<T>(&self, list: &[T], key: impl Fn(&T) -> i64, at: i64) -> (usize, usize) {
        if self.below {
            (list.partition_point(|x| key(x) <= at), list.len())
        } else {
            (0, list.partition_point(|x| key(x) < at))
        }
    }
}

/// One class's candidates for one side of a player, best first: residents by distance from
/// the hint's target (the higher-ranked first on a tie), then the others in rank order; for a
/// player without a hint, every one in rank order.
struct Walk {
    class: usize,
    /// Residents (by place): the next below the target, its end, the next above, its end.
    lo: usize,
    lo_end: usize,
    hi: usize,
    hi_end: usize,
    target: i64,
    /// The others (or everyone, without a hint): the next and the end.
    next: usize,
    end: usize,
    hinted: bool,
}

impl Walk {
    fn new(by: &ByClass, class: usize, side: &Side) -> Walk {
        let v = side.v as i64;
        let (next, end) = if side.place.is_some() {
            side.range(&by.oth[class], |&u| u as i64, v)
        } else {
            side.range(&by.all[class], |&u| u as i64, v)
        };
        let mut w = Walk {
            class,
            lo: 0,
            lo_end: 0,
            hi: 0,
            hi_end: 0,
            target: 0,
            next,
            end,
            hinted: false,
        };
        if let Some(p) = side.place {
            let res = &by.res[class];
            let (a, b) = side.range(res, |x| x.0, p);
            let t = side.target();
            let c = a + res[a..b].partition_point(|x| x.0 < t);
            // `lo` counts down: the next below is `lo - 1`.
            (w.lo, w.lo_end, w.hi, w.hi_end) = (c, a, c, b);
            w.target = t;
            w.hinted = true;
        }
        w
    }

    /// The next resident: (taking the lower side, its place and player).
    fn next_resident(&self, by: &ByClass) -> Option<(bool, i64, usize)> {
        let res = &by.res[self.class];
        let down = (self.lo > self.lo_end).then(|| res[self.lo - 1]);
        let up = (self.hi < self.hi_end).then(|| res[self.hi]);
        match (down, up) {
            (Some(d), Some(u)) if self.target - d.0 <= u.0 - self.target => Some((true, d.0, d.1)),
            (_, Some(u)) => Some((false, u.0, u.1)),
            (Some(d), None) => Some((true, d.0, d.1)),
            (None, None) => None,
        }
    }

    /// The next candidate's hint value and player, without taking it.
    fn peek(&self, by: &ByClass, hk: i64) -> Option<(i64, usize)> {
        if self.hinted {
            if let Some((_, p, u)) = self.next_resident(by) {
                return Some((hk - (p - self.target).pow(2), u));
            }
            return (self.next < self.end).then(|| (0, by.oth[self.class][self.next]));
        }
        (self.next < self.end).then(|| (0, by.all[self.class][self.next]))
    }

    fn advance(&mut self, by: &ByClass) {
        if self.hinted {
            if let Some((down, _, _)) = self.next_resident(by) {
                if down {
                    self.lo -= 1;
                } else {
                    self.hi += 1;
                }
                return;
            }
        }
        self.next += 1;
    }
}

/// What a bracket's weights are built from (see [`State::begin_bracket`]).
pub(super) struct BracketSpec<'a> {
    pub(super) layout: &'a Layout,
    pub(super) fields: &'a Fields,
    pub(super) in_cur: &'a [bool],
    pub(super) in_next: &'a [bool],
    pub(super) residents: &'a [usize],
    /// Pairs of moved-down players kept apart by the bracket above.
    pub(super) apart: &'a [(usize, usize)],
    pub(super) single_bye_bracket: bool,
    pub(super) bye_score: i64,
    pub(super) unplayed_rank: &'a dyn Fn(usize) -> i64,
}

/// Pricing's index of the bracket's players by class: a pair can be uncovered only if
/// `y(u) < 4·w(v, u) − y(v)` (matcher duals, weights doubled twice), and `w(v, u)` is at most
/// its classes' criteria plus the hint and the exchange preference. A class none of whose
/// players has a dual that low is skipped, and among residents only those whose hint could
/// make up the difference are looked at (a window of places around the hint's target).
/// Otherwise only the class's players with a dual that low are, and for players in a blossom
/// holding v its dual and those above it count too (every blossom holding both is in it): a
/// look-ahead of thousands whose pairs weigh alike sits in one blossom, and its pairs need no
/// look. The runs of a class are read by top blossom, then lowest dual, so a row stops at
/// the first run covered; and each player offered is checked against the bound with his own
/// hint, exchange preference and blossom duals, in small integers once the wide sum is known
/// (without it, a large bracket's rows offered three covered pairs for each uncovered one).
struct Rows<W: Weight> {
    y: Vec<W>,
    /// Alive players of the bracket and its look-ahead by class, in rank order.
    members: Vec<Vec<u32>>,
    /// Each class's players by their blossoms (see [`Matcher::blossoms_of`]), then dual
    /// (lowest first), then rank; and the runs of players in the same blossoms:
    /// (start, end, player), by top blossom (`usize::MAX` outside any), then lowest dual.
    by_blossom: Vec<Vec<u32>>,
    runs: Vec<Vec<(u32, u32, u32)>>,
    /// Each class's top blossoms, by the lowest dual of their players: (top, the range of
    /// its runs in `runs`).
    tops: Vec<Vec<(usize, u32, u32)>>,
    /// Each player's blossoms (`usize::MAX` and zero outside any).
    blossoms: Vec<[(usize, W); 2]>,
    /// The most the exchange preference adds to a pair of a class's player, when any has one
    /// (a pair has it only when both players have one: the higher-ranked player's).
    exchange_top: Vec<Option<W>>,
    /// The hint's unit is 1 (the lowest field): windows apply.
    hint_ones: bool,
    /// Each player's exchange preference in an `i128` (saturated at its ends), if any.
    exchange_i128: Option<Vec<Option<i128>>>,
}

impl<W: Weight> Rows<W> {
    fn new(wt: &Weights<W>, matcher: &dyn Matcher<W>, ins: &[usize]) -> Option<Rows<W>> {
        let n = wt.class.len();
        let mut y = vec![W::zero(); n];
        let outside = [(usize::MAX, W::zero()), (usize::MAX, W::zero())];
        let mut blossoms = vec![outside; n];
        let mut members = vec![Vec::new(); wt.classes];
        for &u in ins {
            let d = matcher.vertex_dual(u)?;
            let k = wt.class[u] as usize;
            members[k].push(u as u32);
            y[u] = d;
            if let Some(b) = matcher.blossoms_of(u) {
                blossoms[u] = b;
            }
        }
        let mut by_blossom = Vec::with_capacity(wt.classes);
        let mut runs = Vec::with_capacity(wt.classes);
        let mut tops = Vec::with_capacity(wt.classes);
        // Once S1 and S2 are fixed, runs hold players of one side (see `row`).
        let side = |a: usize| wt.split.as_ref().map_or(0, |s| s[a]);
        let key = |x: u32| {
            let x = x as usize;
            (blossoms[x][1].0, blossoms[x][0].0, side(x))
        };
        for m in &members {
            let mut m = m.clone();
            m.sort_by(|&a, &b| (key(a), &y[a as usize], a).cmp(&(key(b), &y[b as usize], b)));
            let mut r: Vec<(u32, u32, u32)> = Vec::new();
            for (i, &u) in m.iter().enumerate() {
                match r.last_mut() {
                    Some(last) if key(last.2) == key(u) => last.1 = i as u32 + 1,
                    _ => r.push((i as u32, i as u32 + 1, u)),
                }
            }
            // By top blossom, then lowest dual; the tops by their lowest dual (see `row`).
            let top = |x: u32| blossoms[x as usize][1].0;
            r.sort_by(|a, b| {
                (top(a.2), &y[a.2 as usize], a.2).cmp(&(top(b.2), &y[b.2 as usize], b.2))
            });
            let mut g: Vec<(usize, u32, u32)> = Vec::new();
            for (i, run) in r.iter().enumerate() {
                match g.last_mut() {
                    Some(last) if last.0 == top(run.2) => last.2 = i as u32 + 1,
                    _ => g.push((top(run.2), i as u32, i as u32 + 1)),
                }
            }
            g.sort_by(|a, b| {
                let (x, z) = (r[a.1 as usize].2, r[b.1 as usize].2);
                (&y[x as usize], x).cmp(&(&y[z as usize], z))
            });
            by_blossom.push(m);
            runs.push(r);
            tops.push(g);
        }
        let exchange_top = members
            .iter()
            .map(|m| {
                let x = wt.exchange.as_ref()?;
                m.iter()
                    .filter_map(|&u| x[u as usize])
                    .max()
                    .map(|t| t.max(W::zero()))
            })
            .collect();
        Some(Rows {
            tops,
            y,
            members,
            by_blossom,
            runs,
            blossoms,
            exchange_top,
            hint_ones: wt.layout.unit::<W>(wt.hint_field, 1) == W::ONE,
            exchange_i128: wt
                .exchange
                .as_ref()
                .map(|x| x.iter().map(|e| e.map(|e| e.saturating_i128())).collect()),
        })
    }

    /// The players whose pair with `v` may be uncovered (a superset), into `out`.
    fn row(&self, wt: &Weights<W>, matcher: &dyn Matcher<W>, v: usize, out: &mut Vec<u32>) {
        let kv = wt.class[v] as usize;
        let first = |k: usize| self.members[k].first().map(|&u| u as usize);
        // The most the hint adds to a pair at v: nothing when v has no place in it.
        let hinted = match &wt.hint {
            Hint::Natural { place, .. } => place[v] != NONE,
            Hint::Split { s1, s2, .. } => s1[v] != NONE || s2[v] != NONE,
        };
        let hint_top = if hinted {
            wt.layout.unit::<W>(wt.hint_field, wt.hk)
        } else {
            W::zero()
        };
        let zt = self.blossoms[v][1].1;
        for l in 0..self.members.len() {
            let Some(u0) = first(l) else {
                continue;
            };
            // The table is by (higher-ranked, lower-ranked): a class ranks above v's when it
            // has the higher score (classes of one score are alike both ways).
            let c = if u0 < v {
                wt.table[l * wt.classes + kv]
            } else {
                wt.table[kv * wt.classes + l]
            };
            let Some(c) = c else {
                continue;
            };
            // The exchange preference of v's pairs with the class: v's or the class's most.
            let exchange = match (
                wt.exchange.as_ref().and_then(|x| x[v]),
                self.exchange_top[l],
            ) {
                (Some(a), Some(b)) => a.max(b).max(W::zero()),
                _ => W::zero(),
            };
            let apart = self.y[v].sub(&four(c.add(&exchange)));
            let class = RowClass {
                rows: self,
                wt,
                matcher,
                v,
                l,
                c,
                exchange,
                e128: exchange.saturating_i128(),
                hint_top,
                apart,
                within: apart.add(&zt),
            };
            let Some(r) = class.runs(out) else {
                continue;
            };
            class.window(r, u0, out);
        }
    }
}

/// 4·w.
fn four<W: Weight>(w: W) -> W {
    let w2 = w.add(&w);
    w2.add(&w2)
}

/// One class's part of [`Rows::row`]: `v`, class `l`, and what their pairs share.
struct RowClass<'r, W: Weight> {
    rows: &'r Rows<W>,
    wt: &'r Weights<W>,
    matcher: &'r dyn Matcher<W>,
    v: usize,
    l: usize,
    /// The most the criteria add to a pair of v with the class.
    c: W,
    /// The most the exchange preference adds to those pairs (E).
    exchange: W,
    /// `exchange` in an `i128`, saturated.
    e128: i128,
    /// The most the hint adds to a pair at v.
    hint_top: W,
    /// y(v) − 4·(criteria + E): a run's R less its lowest dual, outside v's top blossom.
    apart: W,
    /// `apart` plus the dual of v's top blossom.
    within: W,
}

impl<W: Weight> RowClass<'_, W> {
    /// With the hint's unit 1: whether the pair with u may be uncovered given
    /// T = y(v) + (a lower bound on) shared − 4·(criteria + E), that is whether
    /// y(u) + T + 4·(E − exchange) < 4·hint for its own hint and exchange preference;
    /// the wide sum once, the rest in i128. Values beyond it: the sum counts as
    /// uncovered unless beyond it above (4·(E − exchange − hint) < 2^123), an exchange
    /// preference as none.
    fn uncovered(&self, u: usize, t: &W) -> bool {
        let (rows, v, e128) = (self.rows, self.v, self.e128);
        let fits = |x: i128| (-(1 << 120)..1 << 120).contains(&x);
        let d = rows.y[u].add(t).saturating_i128();
        if d == i128::MAX && self.wt.hk < 1 << 60 {
            return false;
        }
        if !fits(d) {
            return true;
        }
        let ex = match &rows.exchange_i128 {
            None => 0,
            Some(xs) => match (xs[v], xs[u]) {
                (Some(a), Some(b)) => {
                    let term = if u < v { b } else { a };
                    if fits(term) && fits(e128) {
                        e128 - term
                    } else {
                        0
                    }
                }
                _ if fits(e128) => e128,
                _ => 0,
            },
        };
        let h = self.wt.hint_value(v.min(u), v.max(u));
        d + 4 * ex < 4 * i128::from(h)
    }

    /// Per run of the class's players in the same blossoms: R, what 4·hint must exceed
    /// for its lowest dual to be uncovered; below zero, its players with a dual low
    /// enough are looked at (into `out`). Returns the least R of the others, which decides
    /// the window.
    fn runs(&self, out: &mut Vec<u32>) -> Option<W> {
        let (rows, wt, v, l) = (self.rows, self.wt, self.v, self.l);
        let (apart, within) = (&self.apart, &self.within);
        let [(gv, zv), (tv, zt)] = &rows.blossoms[v];
        let mut least: Option<W> = None;
        // Runs come by top blossom, then lowest dual, and the blossoms' duals only add:
        // once a run is covered with its top's dual (v's) or none (another's), so is
        // every later run of that top, and when none counted, of every later top too.
        // R of a run is its lowest dual plus y(v) + shared − 4·(criteria + E).
        'tops: for &(top, from, to) in &rows.tops[l] {
            let same_top = top != usize::MAX && top == *tv;
            for (i, &(start, end, x)) in rows.runs[l][from as usize..to as usize].iter().enumerate()
            {
                let players = &rows.by_blossom[l][start as usize..end as usize];
                let lowest = &rows.y[players[0] as usize];
                // First with the top blossom's duals only (every blossom holding both is
                // in it): most runs are settled so; the others, when in v's top, with the
                // duals of the blossoms holding both.
                let mut shared = if same_top { *zt } else { W::zero() };
                let mut r = lowest.add(if same_top { within } else { apart });
                if r >= W::zero() {
                    if least.as_ref().is_none_or(|x| r < *x) {
                        least = Some(r);
                    }
                    if i == 0 && !same_top {
                        break 'tops;
                    }
                    break;
                }
                if let Some(split) = &wt.split {
                    // Two players of S1, or two of S2, are kept apart: no pair to look at.
                    if split[v] != 0 && split[v] == split[x as usize] {
                        continue;
                    }
                }
                let [(g, zx), _] = &rows.blossoms[x as usize];
                if same_top {
                    // The duals of the blossoms holding v and a player u of the run, at least:
                    // those of the blossoms holding x and v when neither's first blossom holds
                    // the other's (then u and v meet where x and v do), else those of the
                    // larger.
                    shared = if zx < zv { *zx } else { *zv };
                    if x as usize != v && g != gv {
                        if let Some(b) = self.matcher.shared_dual(x as usize, v) {
                            if b < shared {
                                shared = b;
                            }
                        }
                    }
                    r = lowest.add(apart).add(&shared);
                }
                if r < W::zero() {
                    // u can be uncovered only if y(u) < 4·(its most) − y(v) − shared.
                    let most = four(self.c.add(&self.exchange).add(&self.hint_top))
                        .sub(&rows.y[v])
                        .sub(&shared);
                    let k = players.partition_point(|&u| rows.y[u as usize] < most);
                    if rows.hint_ones {
                        let t = apart.add(&shared);
                        out.extend(
                            players[..k]
                                .iter()
                                .filter(|&&u| self.uncovered(u as usize, &t)),
                        );
                    } else {
                        out.extend_from_slice(&players[..k]);
                    }
                } else if least.as_ref().is_none_or(|x| r < *x) {
                    least = Some(r);
                }
            }
        }
        least
    }

    /// The players of the class whose place puts their pair with v within the hint's window
    /// (R the least of the runs not looked at; `u0` the class's first player), into `out`.
    fn window(&self, r: W, u0: usize, out: &mut Vec<u32>) {
        let (rows, wt, v) = (self.rows, self.wt, self.v);
        let m = &rows.members[self.l];
        let tv = &rows.blossoms[v][1].0;
        let (apart, within) = (&self.apart, &self.within);
        if !rows.hint_ones || r >= four(W::from_i64(wt.hk)) {
            return;
        }
        // The largest deviation d with 4·(hk − d²) > R.
        let fits = |d: i64| four(W::from_i64(wt.hk - d * d)) > r;
        if !fits(0) {
            return;
        }
        let (mut lo, mut hi) = (0i64, (wt.hk as f64).sqrt() as i64 + 1);
        while lo < hi {
            let mid = (lo + hi + 1) / 2;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let d = lo;
        // Index ranges of the players whose place puts the pair within d of the target.
        let mut push_places = |players: &[u32], from: i64, to: i64| {
            let from = from.max(0);
            let to = to.min(players.len() as i64 - 1);
            if from > to {
                return;
            }
            let (a, b) = (players[from as usize], players[to as usize]);
            let start = m.partition_point(|&x| x < a);
            let end = m.partition_point(|&x| x <= b);
            // Each with the least blossom dual his pair with v may have: the top
            // blossom's when they share it.
            out.extend(m[start..end].iter().filter(|&&u| {
                let u = u as usize;
                if *tv == usize::MAX || rows.blossoms[u][1].0 != *tv {
                    return self.uncovered(u, apart);
                }
                // In v's top blossom: with its dual first, then with those of every
                // blossom holding both.
                self.uncovered(u, within)
                    && (u == v
                        || self
                            .matcher
                            .shared_dual(u, v)
                            .is_none_or(|z| self.uncovered(u, &apart.add(&z))))
            }));
        };
        match &wt.hint {
            Hint::Natural {
                place,
                half,
                residents,
            } => {
                let p = place[v];
                if p == NONE || place[u0] == NONE {
                    return;
                }
                let p = i64::from(p);
                // |p_u − p_v| within [half − d, half + d], either side of v.
                let (near, far) = ((half - d).max(0), half + d);
                push_places(residents, p + near, p + far);
                let below_from = p - far;
                let below_to = if near == 0 { p - 1 } else { p - near };
                push_places(residents, below_from, below_to);
            }
            Hint::Split {
                s1,
                s2,
                s1_players,
                s2_players,
            } => {
                if s1[v] != NONE {
                    let p = i64::from(s1[v]);
                    push_places(s2_players, p - d, p + d);
                } else if s2[v] != NONE {
                    let p = i64::from(s2[v]);
                    push_places(s1_players, p - d, p + d);
                }
            }
        }
    }
}

impl<'m, W: Weight> State<'m, W> {
    pub(super) fn new(
        ctx: &Context,
        matcher: &'m mut dyn Matcher<W>,
        outer: Outer,
    ) -> State<'m, W> {
        let n = ctx.players.len();
        let index: HashMap<u32, u32> = ctx
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i as u32))
            .collect();
        let mut barred: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, p) in ctx.players.iter().enumerate() {
            for id in &p.barred {
                if let Some(&j) = index.get(id) {
                    barred[i].push(j);
                    barred[j as usize].push(i as u32);
                }
            }
        }
        for b in &mut barred {
            b.sort_unstable();
            b.dedup();
        }
        State {
            matcher,
            alive: vec![true; n],
            bye_candidate: ctx.players.iter().map(|p| p.bye_eligible).collect(),
            outer,
            mode: Mode::Dense,
            inside: vec![false; n],
            weights: None,
            barred,
            graph: Vec::new(),
            gid: HashMap::default(),
            completion: None,
            solves: 0,
            dense_brackets: 0,
            clean: false,
            raised: Vec::new(),
            raised_rows: vec![false; n],
            over_budget: None,
            cancelled: false,
            threads: std::thread::available_parallelism()
                .map_or(1, |t| t.get())
                .min(ctx.tuning.price_threads),
        }
    }

    pub(super) fn n(&self) -> usize {
        self.alive.len()
    }

    fn is_barred(&self, a: usize, b: usize) -> bool {
        self.barred[a].binary_search(&(b as u32)).is_ok()
    }

    fn both_inside(&self, a: usize, b: usize) -> bool {
        self.weights.is_some() && self.inside[a] && self.inside[b]
    }

    /// The pair's weight now: `None` when the two may not meet, zero when kept apart.
    pub(super) fn pair_weight(&self, ctx: &Context, a: usize, b: usize) -> Option<W> {
        if a == b || self.is_barred(a, b) {
            return None;
        }
        if self.both_inside(a, b) {
            return self.inside_weight(a, b);
        }
        compatible(ctx, a, b).then(|| self.outer_weight(ctx, a, b))
    }

    /// [`State::pair_weight`] of two players of the bracket and its look-ahead, not barred.
    fn inside_weight(&self, a: usize, b: usize) -> Option<W> {
        let wt = self.weights.as_ref().expect("a bracket");
        let (ka, kb) = (wt.class[a.min(b)], wt.class[a.max(b)]);
        wt.table[ka as usize * wt.classes + kb as usize]?;
        Some(wt.current(a, b).unwrap_or_else(W::zero))
    }

    /// The pair's base weight in this bracket (its criteria and the hint, before the Dutch
    /// order's preferences); `None`: not a pair of the bracket, or kept apart in it.
    pub(super) fn base_of(&self, a: usize, b: usize) -> Option<W> {
        if a == b || !self.both_inside(a, b) || self.is_barred(a, b) {
            return None;
        }
        self.weights.as_ref().expect("a bracket").base(a, b)
    }

    /// Starts a bracket: the weights of its pairs and of its look-ahead's (`in_cur`,
    /// `in_next`), every player's class, then a fresh reduced graph. False when the bracket
    /// has more classes than its table may hold (then `over_budget` is set).
    pub(super) fn begin_bracket(&mut self, ctx: &Context, spec: &BracketSpec) -> bool {
        let n = self.n();
        let players = ctx.players;
        let ins: Vec<usize> = (0..n)
            .filter(|&v| self.alive[v] && (spec.in_cur[v] || spec.in_next[v]))
            .collect();
        // Classes: players alike on everything `base_weight` and the colour rules of
        // `compatible` read.
        let relevant_urank = spec.single_bye_bracket && ctx.readings.bye_unplayed_games;
        let signature = |v: usize| -> Signature {
            let p = &players[v];
            let colour = |c: Option<Colour>| match c {
                None => 0u64,
                Some(Colour::White) => 1,
                Some(Colour::Black) => 2,
            };
            let float = |f: Float| match f {
                Float::None => 0u64,
                Float::Down => 1,
                Float::Up => 2,
            };
            let urank = if relevant_urank && p.score == spec.bye_score {
                (spec.unplayed_rank)(v) as u64 + 1
            } else {
                0
            };
            let flags = u64::from(self.bye_candidate[v])
                | u64::from(spec.in_cur[v]) << 1
                | u64::from(spec.in_next[v]) << 2
                | colour(p.preference) << 3
                | u64::from(p.absolute) << 5
                | u64::from(p.strong) << 6
                | colour(p.repeated) << 7
                | float(p.floats[0]) << 9
                | float(p.floats[1]) << 11
                | u64::from(p.topscorer) << 13
                | (u64::from(p.colour_difference.unsigned_abs()) & 0xffff) << 14
                | (urank & 0xffff_ffff) << 30;
            Signature {
                score: p.score,
                flags,
            }
        };
        let mut of: HashMap<Signature, u32> = HashMap::default();
        let mut class = vec![NONE; n];
        let mut reps: Vec<usize> = Vec::new();
        for &v in &ins {
            let s = signature(v);
            let k = *of.entry(s).or_insert_with(|| {
                reps.push(v);
                (reps.len() - 1) as u32
            });
            class[v] = k;
        }
        let k = reps.len();
        if k > ctx.tuning.max_classes {
            self.over_budget = Some(k * k);
            return false;
        }
        let mut table = Vec::with_capacity(k * k);
        for &hi in &reps {
            for &lo in &reps {
                // A higher-ranked player never has the lower score: no such pair is asked.
                let possible = players[hi].score >= players[lo].score;
                table.push((possible && colour_allowed(ctx, hi, lo)).then(|| {
                    base_weight(
                        ctx,
                        &self.bye_candidate,
                        spec.layout,
                        spec.fields,
                        hi,
                        lo,
                        spec.in_cur[lo],
                        spec.in_next[lo],
                        spec.single_bye_bracket,
                        spec.bye_score,
                        spec.unplayed_rank,
                        0,
                    )
                }));
            }
        }
        let mut place = vec![NONE; n];
        for (i, &r) in spec.residents.iter().enumerate() {
            place[r] = i as u32;
        }
        let m = ins.len().max(2) as i64;
        let mut marked = vec![false; n];
        for &(a, b) in spec.apart {
            marked[a] = true;
            marked[b] = true;
        }
        self.weights = Some(Weights {
            layout: spec.layout.clone(),
            hint_field: spec.fields.hint,
            class,
            classes: k,
            table,
            hint: Hint::Natural {
                place,
                residents: spec.residents.iter().map(|&r| r as u32).collect(),
                half: (spec.residents.len() / 2) as i64,
            },
            hk: m * m,
            exchange: None,
            over: HashMap::default(),
            dropped: HashSet::default(),
            split: None,
            apart: spec.apart.iter().map(|&(a, b)| key(a, b)).collect(),
            marked,
        });
        self.outer = Outer::Bracket {
            layout: spec.layout.clone(),
            completion: spec.fields.completion,
        };
        self.mode = Mode::Reduced;
        for v in 0..n {
            self.inside[v] = spec.in_cur[v] || spec.in_next[v];
        }
        self.restart(ctx);
        true
    }

    /// The players of the bracket and its look-ahead still to pair, in rank order.
    fn inside_alive(&self) -> Vec<usize> {
        (0..self.n())
            .filter(|&v| self.alive[v] && self.inside[v])
            .collect()
    }

    /// The pairs among `among` (alive, both inside) kept apart now: the next bracket keeps
    /// them apart ("Two players the bracket kept apart stay apart").
    pub(super) fn kept_apart(&self, ctx: &Context, among: &[usize]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (x, &a) in among.iter().enumerate() {
            for &b in &among[x + 1..] {
                if self.pair_weight(ctx, a, b) == Some(W::zero()) {
                    out.push((a.min(b), a.max(b)));
                }
            }
        }
        out
    }

    /// A maximum-weight matching over the alive players (`mate[i]` by player index), optimal
    /// over every allowed pair.
    pub(super) fn solve(&mut self, ctx: &Context) -> Vec<Option<usize>> {
        if self.over_budget.is_some() || self.cancelled {
            return self.stopped();
        }
        if (ctx.should_cancel)() {
            self.cancelled = true;
            return self.stopped();
        }
        self.solves += 1;
        self.clean = true;
        let t0 = std::time::Instant::now();
        let Some(mut r) = self.matcher.solve_until(ctx.should_cancel) else {
            return self.cancel();
        };
        if self.mode == Mode::Dense {
            return r;
        }
        // The reduced graph holds the heaviest pairs only: the others priced by the duals.
        let mut priced = 0;
        log::debug!(
            "dutch: matching {}: solved in {:?}",
            self.solves,
            t0.elapsed()
        );
        loop {
            let t1 = std::time::Instant::now();
            let k = self.price(ctx);
            let pricing = t1.elapsed();
            if k == 0 {
                break;
            }
            priced += k;
            if (ctx.should_cancel)() {
                return self.cancel();
            }
            let Some(again) = self.matcher.solve_until(ctx.should_cancel) else {
                return self.cancel();
            };
            r = again;
            log::debug!(
                "dutch: matching {}: priced in {pricing:?} (+{k} pairs), solved again in {:?}",
                self.solves,
                t1.elapsed() - pricing
            );
        }
        log::debug!(
            "dutch: matching {} in {:?}, {priced} pairs added by pricing",
            self.solves,
            t0.elapsed()
        );
        #[cfg(test)]
        self.assert_priced();
        if (ctx.should_cancel)() {
            return self.cancel();
        }
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
                self.dense_brackets += 1;
                self.mode = Mode::Dense;
                self.restart(ctx);
                self.clean = true;
                match self.matcher.solve_until(ctx.should_cancel) {
                    Some(mate) => mate,
                    None => self.cancel(),
                }
            }
        }
    }

    /// The deadline passed during a matching: the procedure stops as at a deadline between
    /// matchings.
    fn cancel(&mut self) -> Vec<Option<usize>> {
        self.cancelled = true;
        self.stopped()
    }

    /// Over the budget or past the deadline, the procedure stops at the end of the bracket:
    /// no matching, nothing proved.
    fn stopped(&mut self) -> Vec<Option<usize>> {
        self.clean = false;
        vec![None; self.n()]
    }

    /// The first matching: each player with the next `k` players he may meet in rank order
    /// (every allowed pair when `k` is the field's size), weighed for completion and the
    /// bye's score. False, and nothing built, when that is more pairs than the budget.
    pub(super) fn start_field(&mut self, ctx: &Context, k: usize) -> bool {
        let n = self.n();
        if k >= n && n * (n - 1) / 2 > ctx.pair_budget {
            self.over_budget = Some(n * (n - 1) / 2);
            return false;
        }
        self.mode = Mode::Dense;
        self.graph.clear();
        self.gid.clear();
        let mut edges = Vec::new();
        for a in 0..n {
            let mut got = 0;
            for b in a + 1..n {
                if got == k {
                    break;
                }
                if compatible(ctx, a, b) {
                    let w = self.outer_weight(ctx, a, b);
                    self.push_graph(a, b, edges.len(), w);
                    edges.push((a, b, w));
                    got += 1;
                }
            }
        }
        self.matcher.start(n, &edges);
        self.clean = false;
        true
    }

    fn push_graph(&mut self, a: usize, b: usize, mid: usize, w: W) {
        self.gid.insert(key(a, b), self.graph.len() as u32);
        self.graph.push(GraphPair {
            a: a as u32,
            b: b as u32,
            mid,
            w,
            pruned: false,
        });
    }

    /// Every allowed pair of two residents within [`super::procedure::Tuning::start_window`] places of the natural
    /// hint's target not in the graph yet. The first optimum's pairs of residents lie near the
    /// target (round 3 of 10,000 players: all within 28 places), but many are not among the
    /// players' heaviest, which the colour rules fill with players of one class; priced in
    /// instead, they took 7–8 rounds of pricing and re-solving, a third of them more than 384
    /// places away while the duals settled (EXPERIMENTS.md).
    fn near_target(&self, ctx: &Context) -> Vec<(usize, usize, W)> {
        let Some(Hint::Natural {
            residents, half, ..
        }) = self.weights.as_ref().map(|wt| &wt.hint)
        else {
            return Vec::new();
        };
        let last = residents.len() as i64 - 1;
        let mut near = Vec::new();
        for (i, &a) in residents.iter().enumerate() {
            let (i, a) = (i as i64, a as usize);
            if !self.alive[a] {
                continue;
            }
            // Only the partners below a: each pair once.
            for j in (i + half - ctx.tuning.start_window).max(i + 1)
                ..=(i + half + ctx.tuning.start_window).min(last)
            {
                let b = residents[j as usize] as usize;
                if !self.alive[b] || self.gid.contains_key(&key(a, b)) {
                    continue;
                }
                if let Some(w) = self.pair_weight(ctx, a, b).filter(|w| *w > W::zero()) {
                    near.push((a, b, w));
                }
            }
        }
        near
    }

    /// The bracket's players by class, with the natural hint's places and half; `None` once
    /// a decision of the Dutch order has weighed pairs apart from their classes.
    fn by_class(&self, ins: &[usize]) -> Option<(ByClass, &[u32], i64)> {
        let wt = self.weights.as_ref()?;
        let Hint::Natural { place, half, .. } = &wt.hint else {
            return None;
        };
        if wt.exchange.is_some()
            || wt.split.is_some()
            || !wt.over.is_empty()
            || !wt.dropped.is_empty()
        {
            return None;
        }
        let k = wt.classes;
        let mut by = ByClass {
            res: vec![Vec::new(); k],
            oth: vec![Vec::new(); k],
            all: vec![Vec::new(); k],
        };
        for &v in ins {
            let c = wt.class[v] as usize;
            if place[v] == NONE {
                by.oth[c].push(v);
            } else {
                by.res[c].push((i64::from(place[v]), v));
            }
            by.all[c].push(v);
        }
        Some((by, place, *half))
    }

    /// The table's weight of v's pairs on `side` with class `c` (the higher-ranked player's
    /// class first).
    fn class_weight(&self, side: &Side, c: usize) -> Option<W> {
        let wt = self.weights.as_ref()?;
        let kv = wt.class[side.v] as usize;
        let (hi, lo) = if side.below { (kv, c) } else { (c, kv) };
        wt.table[hi * wt.classes + lo]
    }

    /// [`State::heaviest`] read class by class: within a class, v's heaviest pairs are the
    /// residents nearest the hint's target, then the others in rank order, so each list is a
    /// merge of one walk per class. The same lists as reading every pair, in O(classes) per
    /// player and pair taken rather than O(players).
    fn heaviest_by_class(&self, ctx: &Context, ins: &[usize]) -> Option<Start<W>> {
        let (by, place, half) = self.by_class(ins)?;
        let wt = self.weights.as_ref()?;
        let n = self.n();
        let mut most = vec![W::zero(); n];
        let mut lists: Vec<[Vec<(W, usize)>; 2]> = vec![[Vec::new(), Vec::new()]; n];
        for &v in ins {
            for (s, below) in [(0, true), (1, false)] {
                let side = Side::new(v, below, place, half);
                let mut walks: Vec<Walk> = Vec::new();
                let mut heap = std::collections::BinaryHeap::new();
                for c in 0..wt.classes {
                    let Some(t) = self.class_weight(&side, c) else {
                        continue;
                    };
                    let walk = Walk::new(&by, c, &side);
                    if let Some((h, u)) = walk.peek(&by, wt.hk) {
                        heap.push((t, h, std::cmp::Reverse(u), walks.len()));
                    }
                    walks.push(walk);
                }
                let list = &mut lists[v][s];
                while let Some((t, h, std::cmp::Reverse(u), i)) = heap.pop() {
                    let walk = &mut walks[i];
                    walk.advance(&by);
                    if let Some((h2, u2)) = walk.peek(&by, wt.hk) {
                        heap.push((t, h2, std::cmp::Reverse(u2), i));
                    }
                    let Some(w) = self.pair_weight(ctx, v, u).filter(|w| *w > W::zero()) else {
                        continue;
                    };
                    debug_assert!(w == t.add(&wt.layout.unit::<W>(wt.hint_field, h)));
                    list.push((w, u));
                    if list.len() == ctx.tuning.inside_degree {
                        break;
                    }
                }
            }
            for l in &lists[v] {
                if let Some(&(w, _)) = l.first() {
                    let w2 = w.add(&w);
                    if w2 > most[v] {
                        most[v] = w2;
                    }
                }
            }
        }
        let mut chosen: Vec<(usize, usize, W)> = Vec::new();
        for &v in ins {
            for &(w, u) in &lists[v][0] {
                chosen.push((v, u, w));
            }
            for &(w, u) in &lists[v][1] {
                // Chosen from both ends: once.
                if !lists[u][0].iter().any(|&(_, x)| x == v) {
                    chosen.push((u, v, w));
                }
            }
        }
        chosen.sort_unstable_by_key(|&(a, b, _)| (a, b));
        Some((chosen, most))
    }

    /// [`State::floors`] read class by class: each player's pairs with the residents of a
    /// class near the hint's target one by one, and the rest of the class at once by the
    /// class's weight, the best hint beyond the window and the least dual in the class (so
    /// at least what every pair needs: feasible, if a little above the pair-by-pair floors).
    fn floors_by_class(&self, ctx: &Context, ins: &[usize], most: Vec<W>) -> Option<Vec<W>> {
        let (by, place, half) = self.by_class(ins)?;
        let wt = self.weights.as_ref()?;
        let k = wt.classes;
        let mut y = most;
        // Each class's least dual so far, of its residents and of its others (never raised:
        // a bound from a lower one is only higher).
        let mut min_res: Vec<Option<W>> = (by.res.iter())
            .map(|r| r.iter().map(|x| y[x.1]).min())
            .collect();
        let mut min_oth: Vec<Option<W>> = (by.oth.iter())
            .map(|o| o.iter().map(|&u| y[u]).min())
            .collect();
        let far = {
            let h = (wt.hk - (ctx.tuning.floor_window + 1).pow(2)).max(0);
            wt.layout.unit::<W>(wt.hint_field, 4 * h)
        };
        for &v in ins {
            let mut top = W::zero();
            let mut any = false;
            let mut need = |x: W| {
                any = true;
                if x > top {
                    top = x;
                }
            };
            for below in [true, false] {
                let side = Side::new(v, below, place, half);
                for c in 0..k {
                    let Some(t) = self.class_weight(&side, c) else {
                        continue;
                    };
                    let t4 = t.add(&t).add(&t.add(&t));
                    let Some(p) = side.place else {
                        // No hint: every pair of the class weighs the table's weight.
                        let (a, b) = side.range(&by.all[c], |&u| u as i64, v as i64);
                        if a < b {
                            let m = match (min_res[c], min_oth[c]) {
                                (Some(x), Some(z)) => x.min(z),
                                (x, z) => x.or(z).expect("a player of the class"),
                            };
                            need(t4.sub(&m));
                        }
                        continue;
                    };
                    let res = &by.res[c];
                    let (a, b) = side.range(res, |x| x.0, p);
                    let target = side.target();
                    let lo =
                        a + res[a..b].partition_point(|x| x.0 < target - ctx.tuning.floor_window);
                    let hi =
                        a + res[a..b].partition_point(|x| x.0 <= target + ctx.tuning.floor_window);
                    for &(_, u) in &res[lo..hi] {
                        if let Some(w) = self.pair_weight(ctx, v, u).filter(|w| *w > W::zero()) {
                            let w2 = w.add(&w);
                            need(w2.add(&w2).sub(&y[u]));
                        }
                    }
                    if lo > a || hi < b {
                        let m = min_res[c].expect("a resident of the class");
                        need(t4.add(&far).sub(&m));
                    }
                    let (a, b) = side.range(&by.oth[c], |&u| u as i64, v as i64);
                    if a < b {
                        need(t4.sub(&min_oth[c].expect("a player of the class")));
                    }
                }
            }
            if any {
                y[v] = top;
                let c = wt.class[v] as usize;
                let m = if place[v] == NONE {
                    &mut min_oth[c]
                } else {
                    &mut min_res[c]
                };
                if m.is_none_or(|x| top < x) {
                    *m = Some(top);
                }
            }
        }
        Some(y)
    }

    /// Each player's heaviest pairs with players ranked below him and above him in the
    /// bracket and its look-ahead (the reduced graph's start), and each player's heaviest
    /// weight (doubled), for [`State::floors`].
    fn heaviest(&self, ctx: &Context, ins: &[usize]) -> Start<W> {
        let n = self.n();
        let mut below: Vec<Vec<(W, usize)>> = vec![Vec::new(); n];
        let mut above: Vec<Vec<(W, usize)>> = vec![Vec::new(); n];
        let mut most = vec![W::zero(); n];
        // Heaviest first, then the nearest in rank order.
        let better = |x: &(W, usize), y: &(W, usize)| x.0 > y.0 || (x.0 == y.0 && x.1 < y.1);
        let offer = |list: &mut Vec<(W, usize)>, item: (W, usize)| {
            if list.len() == ctx.tuning.inside_degree {
                if !better(&item, list.last().expect("full")) {
                    return;
                }
                list.pop();
            }
            let at = list
                .iter()
                .position(|x| better(&item, x))
                .unwrap_or(list.len());
            list.insert(at, item);
        };
        for (x, &a) in ins.iter().enumerate() {
            for &b in &ins[x + 1..] {
                let Some(w) = self.pair_weight(ctx, a, b) else {
                    continue;
                };
                if w <= W::zero() {
                    continue;
                }
                let w2 = w.add(&w);
                if w2 > most[a] {
                    most[a] = w2;
                }
                if w2 > most[b] {
                    most[b] = w2;
                }
                offer(&mut below[a], (w, b));
                offer(&mut above[b], (w, a));
            }
        }
        let mut chosen: Vec<(usize, usize, W)> = Vec::new();
        for &v in ins {
            for &(w, u) in below[v].iter() {
                chosen.push((v, u, w));
            }
            for &(w, u) in above[v].iter() {
                // Chosen from both ends: once.
                if !below[u].iter().any(|&(_, x)| x == v) {
                    chosen.push((u, v, w));
                }
            }
        }
        chosen.sort_unstable_by_key(|&(a, b, _)| (a, b));
        (chosen, most)
    }

    /// Duals feasible for every pair of the bracket and its look-ahead, the matcher's jump
    /// start over all of them (each player's heaviest pair, then each in turn lowered as far
    /// as every pair allows): the reduced graph's first solve stays above them, so the pairs
    /// it leaves out start covered and pricing has little to add.
    fn floors(&self, ctx: &Context, ins: &[usize], most: Vec<W>) -> Vec<W> {
        let mut y = most;
        for &v in ins {
            let mut top = W::zero();
            let mut any = false;
            for &u in ins {
                if u == v {
                    continue;
                }
                let Some(w) = self.pair_weight(ctx, v, u) else {
                    continue;
                };
                if w <= W::zero() {
                    continue;
                }
                any = true;
                // Matcher units: weights doubled here, doubled again by the matcher.
                let w2 = w.add(&w);
                let need = w2.add(&w2).sub(&y[u]);
                if need > top {
                    top = need;
                }
            }
            if any {
                y[v] = top;
            }
        }
        y
    }

    /// Adds to the reduced graph pairs of the bracket and its look-ahead that the last solve's
    /// duals do not cover (the ends' duals below twice its weight, in the matcher's units),
    /// the most violated at each player; how many. None added: the duals are feasible for
    /// every pair, so the matching is optimal over all of them (LP duality).
    fn price(&mut self, ctx: &Context) -> usize {
        // Only pairs whose weight rose, pairs found uncovered and not added, and pairs whose
        // ends' cover may have dropped can be uncovered now (the others were covered at the
        // last pricing).
        let n = self.n();
        let ins = self.inside_alive();
        let mut low = vec![false; n];
        for &v in &ins {
            low[v] = self.raised_rows[v] || self.matcher.lowered(v);
            self.raised_rows[v] = false;
        }
        let mut candidates = std::mem::take(&mut self.raised);
        candidates.retain(|&(a, b)| !low[a as usize] && !low[b as usize]);
        candidates.sort_unstable();
        candidates.dedup();
        let mut violated: Vec<(W, u32, u32)> = Vec::new();
        // A pair of the graph is covered after a solve (the duals are feasible for it): it is
        // looked up only when found uncovered, not for each of the millions of pairs read.
        let check = |st: &Self, a: usize, b: usize, violated: &mut Vec<(W, u32, u32)>| {
            if let Some(w) = st.allowed_inside(a, b) {
                if let Some(r) = st.matcher.pair_violation(a, b, w.add(&w)) {
                    if !st.gid.contains_key(&key(a, b)) {
                        violated.push((r, a as u32, b as u32));
                    }
                }
            }
        };
        for &(a, b) in &candidates {
            check(self, a as usize, b as usize, &mut violated);
        }
        let lows: Vec<usize> = ins.iter().copied().filter(|&v| low[v]).collect();
        if !lows.is_empty() {
            let index = self
                .weights
                .as_ref()
                .and_then(|wt| Rows::new(wt, &*self.matcher, &ins));
            // The rows of blocks of players, block k by thread k mod t; the pairs found are
            // sorted below, so the threads' order does not matter.
            // Read here: the context itself is not shared with the threads.
            let price_block = ctx.tuning.price_block;
            let rows = |part: usize, parts: usize, found: &mut Vec<(W, u32, u32)>| {
                let mut row: Vec<u32> = Vec::new();
                for (k, block) in lows.chunks(price_block).enumerate() {
                    if k % parts != part {
                        continue;
                    }
                    for &v in block {
                        row.clear();
                        match &index {
                            Some(ix) => ix.row(
                                self.weights.as_ref().expect("a bracket"),
                                &*self.matcher,
                                v,
                                &mut row,
                            ),
                            None => row.extend(ins.iter().map(|&u| u as u32)),
                        }
                        // A pair at two such players once, from the higher-ranked.
                        for &u in &row {
                            let u = u as usize;
                            if u != v && (!low[u] || v < u) {
                                check(self, v.min(u), v.max(u), found);
                            }
                        }
                    }
                }
            };
            let parts = self.threads.min(lows.len().div_ceil(price_block)).max(1);
            if parts == 1 {
                rows(0, 1, &mut violated);
            } else {
                std::thread::scope(|scope| {
                    let rows = &rows;
                    let others: Vec<_> = (1..parts)
                        .map(|part| {
                            scope.spawn(move || {
                                let mut found = Vec::new();
                                rows(part, parts, &mut found);
                                found
                            })
                        })
                        .collect();
                    rows(0, parts, &mut violated);
                    for h in others {
                        violated.append(&mut h.join().expect("a pricing thread"));
                    }
                });
            }
            // Pairs a decision weighed apart from the classes: their weights are not bounded
            // by the class table. Those of players paired for good are never asked again.
            if let Some(wt) = self.weights.as_mut() {
                let alive = &self.alive;
                wt.over
                    .retain(|&k, _| alive[(k >> 32) as usize] && alive[(k & 0xffff_ffff) as usize]);
            }
            if let Some(wt) = &self.weights {
                for &k in wt.over.keys() {
                    let (a, b) = ((k >> 32) as usize, (k & 0xffff_ffff) as usize);
                    if low[a] || low[b] {
                        check(self, a, b, &mut violated);
                    }
                }
            }
        }
        // The most violated pairs at each player only: the next solve's duals cover many
        // of the others, and the graph stays sparse.
        violated.sort_unstable();
        violated.dedup();
        let mut taken = vec![0usize; n];
        let mut added = 0;
        for (_, a, b) in violated {
            let (a, b) = (a as usize, b as usize);
            if taken[a] < ctx.tuning.price_degree || taken[b] < ctx.tuning.price_degree {
                taken[a] += 1;
                taken[b] += 1;
                let w = self.pair_weight(ctx, a, b).expect("an allowed pair");
                let mid = self.matcher.add_edge(a, b, w.add(&w));
                self.push_graph(a, b, mid, w);
                added += 1;
            } else {
                // Priced again after the next solve, whatever its duals do.
                self.raised.push((a as u32, b as u32));
            }
        }
        added
    }

    /// The weight of a pair of two players of the bracket and its look-ahead, positive,
    /// left out of the reduced graph (pricing decides whether it belongs in).
    #[cfg(test)]
    fn left_out(&self, a: usize, b: usize) -> Option<W> {
        if self.gid.contains_key(&key(a, b)) {
            return None;
        }
        self.allowed_inside(a, b)
    }

    /// The weight of a pair of two players of the bracket and its look-ahead, positive, in
    /// the reduced graph or not.
    fn allowed_inside(&self, a: usize, b: usize) -> Option<W> {
        if !(self.alive[a] && self.alive[b] && self.both_inside(a, b))
            || a == b
            || self.is_barred(a, b)
        {
            return None;
        }
        self.inside_weight(a, b).filter(|w| *w > W::zero())
    }

    /// Tests only: the reduced graph's start duals cover every pair of the bracket and its
    /// look-ahead (in matcher units: weights doubled twice).
    #[cfg(test)]
    fn assert_floors(&self, ctx: &Context, ins: &[usize], y: &[W]) {
        for (x, &a) in ins.iter().enumerate() {
            for &b in &ins[x + 1..] {
                if let Some(w) = self.pair_weight(ctx, a, b).filter(|w| *w > W::zero()) {
                    let w2 = w.add(&w);
                    assert!(
                        y[a].add(&y[b]) >= w2.add(&w2),
                        "pair {:?} uncovered",
                        (a, b)
                    );
                }
            }
        }
    }

    /// Tests only: every pair of the bracket and its look-ahead left out of the reduced graph
    /// is covered by the duals, as the pricing claims (a full scan).
    #[cfg(test)]
    fn assert_priced(&self) {
        let ins = self.inside_alive();
        for (x, &a) in ins.iter().enumerate() {
            for &b in &ins[x + 1..] {
                if let Some(w) = self.left_out(a, b) {
                    let r = self
                        .matcher
                        .pair_reduced_cost(a, b, w.add(&w))
                        .expect("a solved matcher");
                    assert!(r >= W::zero(), "pair {:?} left out, uncovered", (a, b));
                }
            }
        }
        PRICED_CHECKS.with(|c| c.set(c.get() + 1));
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
                    let w = self.pair_weight(ctx, a, b).expect("a pair of the graph");
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
        for k in ctx.tuning.completion_degrees {
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

    /// Changes the bracket's weights by `f`, then brings the matcher's graph in line with
    /// the pair `(a, b)`'s new weight (a pair left out whose weight rose is priced again).
    fn change(&mut self, ctx: &Context, a: usize, b: usize, f: impl FnOnce(&mut Weights<W>)) {
        let (a, b) = (a.min(b), a.max(b));
        let Some(old) = self.pair_weight(ctx, a, b) else {
            return;
        };
        if let Some(wt) = self.weights.as_mut() {
            f(wt);
        }
        let new = self.pair_weight(ctx, a, b).expect("still allowed");
        if new == old {
            return;
        }
        self.clean = false;
        match self.gid.get(&key(a, b)) {
            Some(&g) => {
                let g = &mut self.graph[g as usize];
                g.w = new;
                if g.pruned {
                    return;
                }
                let w = if self.mode == Mode::Reduced {
                    new.add(&new)
                } else {
                    new
                };
                self.matcher.set_weight(g.mid, w);
            }
            None if new > old => self.raised.push((a as u32, b as u32)),
            None => {}
        }
    }

    /// The pair weighs `w` (a decision of the Dutch order) until restored.
    pub(super) fn set(&mut self, ctx: &Context, a: usize, b: usize, w: W) {
        self.change(ctx, a, b, |wt| {
            wt.over.insert(key(a, b), w);
            wt.marked[a] = true;
            wt.marked[b] = true;
        });
    }

    /// The pair weighs what the bracket's weights give it again.
    pub(super) fn restore(&mut self, ctx: &Context, a: usize, b: usize) {
        self.change(ctx, a, b, |wt| {
            wt.over.remove(&key(a, b));
        });
    }

    /// The pair is kept apart for the rest of the bracket.
    pub(super) fn drop_pair(&mut self, ctx: &Context, a: usize, b: usize) {
        self.change(ctx, a, b, |wt| {
            wt.over.remove(&key(a, b));
            wt.dropped.insert(key(a, b));
            wt.marked[a] = true;
            wt.marked[b] = true;
        });
    }

    /// Every pair of the graph weighed again after a change of the bracket's weights for
    /// many pairs; the pairs of `rows` left out are priced again.
    fn reweigh(&mut self, ctx: &Context, rows: &[usize]) {
        self.clean = false;
        for g in 0..self.graph.len() {
            let (a, b) = (self.graph[g].a as usize, self.graph[g].b as usize);
            if !self.alive[a] || !self.alive[b] || self.graph[g].pruned {
                continue;
            }
            let new = self.pair_weight(ctx, a, b).unwrap_or_else(W::zero);
            if new != self.graph[g].w {
                self.graph[g].w = new;
                let w = if self.mode == Mode::Reduced {
                    new.add(&new)
                } else {
                    new
                };
                self.matcher.set_weight(self.graph[g].mid, w);
            }
        }
        for &v in rows {
            self.raised_rows[v] = true;
        }
    }

    /// S1 and S2 are being chosen: each pair of `remainder` (in rank order) weighs its base
    /// plus `add(its higher player's place)` ("FIDE Dutch 2025 4.3.3").
    pub(super) fn start_exchanges(
        &mut self,
        ctx: &Context,
        remainder: &[usize],
        add: impl Fn(usize) -> W,
    ) {
        let n = self.n();
        if let Some(wt) = self.weights.as_mut() {
            let mut x = vec![None; n];
            for (k, &v) in remainder.iter().enumerate() {
                x[v] = Some(add(k));
            }
            wt.exchange = Some(x);
        }
        self.reweigh(ctx, remainder);
    }

    /// S1 and S2 fixed (`top`: in S1): pairs of the remainder other than S1 v S2 are kept
    /// apart, the others weigh their base with the hint pointing each S1 player at the S2
    /// player of his own place; what the exchanges set is gone. With `keep_hint` (the natural
    /// split, tried on the first optimum) the natural hint stays, and the S1 v S2 pairs keep
    /// their weights: the matcher goes on from its optimum, only the pairs kept apart changed.
    pub(super) fn fix_split(
        &mut self,
        ctx: &Context,
        remainder: &[usize],
        top: &[bool],
        keep_hint: bool,
    ) {
        let n = self.n();
        if let Some(wt) = self.weights.as_mut() {
            let mut split = vec![0u8; n];
            let (mut s1, mut s2) = (vec![NONE; n], vec![NONE; n]);
            let (mut s1_players, mut s2_players) = (Vec::new(), Vec::new());
            for &v in remainder {
                if top[v] {
                    split[v] = 1;
                    s1[v] = s1_players.len() as u32;
                    s1_players.push(v as u32);
                } else {
                    split[v] = 2;
                    s2[v] = s2_players.len() as u32;
                    s2_players.push(v as u32);
                }
            }
            wt.exchange = None;
            wt.over.retain(|&k, _| {
                let (a, b) = ((k >> 32) as usize, (k & 0xffff_ffff) as usize);
                split[a] == 0 || split[b] == 0
            });
            wt.split = Some(split);
            if !keep_hint {
                wt.hint = Hint::Split {
                    s1,
                    s2,
                    s1_players,
                    s2_players,
                };
            }
        }
        if !keep_hint {
            // Every pair of the remainder changes: solving again from the jump start is
            // cheaper than exposing each player at a dual of his own.
            self.matcher.forget();
        }
        self.reweigh(ctx, remainder);
    }

    /// Undoes [`State::fix_split`] with `keep_hint` (the natural split found worse on the
    /// criteria): the pairs it kept apart weigh their base again.
    pub(super) fn unfix_split(&mut self, ctx: &Context, remainder: &[usize]) {
        if let Some(wt) = self.weights.as_mut() {
            wt.split = None;
        }
        self.reweigh(ctx, remainder);
    }

    /// The criteria of a matching of the unpaired players (`mate[i]` by player index): its
    /// pairs' weights without the hint and the Dutch order's preferences, and without a
    /// split of the remainder; two matchings equal on it are equal on every criterion.
    pub(super) fn criteria_value(&self, ctx: &Context, mate: &[Option<usize>]) -> W {
        let wt = self.weights.as_ref().expect("a bracket");
        let mut sum = W::zero();
        for (a, m) in mate.iter().enumerate() {
            let Some(b) = m.filter(|&b| a < b && self.alive[a] && self.alive[b]) else {
                continue;
            };
            let w = if self.both_inside(a, b) {
                wt.criteria(a, b)
            } else {
                Some(self.outer_weight(ctx, a, b))
            };
            sum = sum.add(&w.unwrap_or_else(W::zero));
        }
        sum
    }

    /// Starts the matcher again on the current weights (paired players removed).
    pub(super) fn restart(&mut self, ctx: &Context) {
        let n = self.n();
        self.graph.clear();
        self.gid.clear();
        self.raised.clear();
        self.raised_rows.iter_mut().for_each(|r| *r = false);
        self.completion = None;
        let mut all: Vec<(usize, usize, W)> = Vec::new();
        if self.mode == Mode::Dense {
            let alive: Vec<usize> = (0..n).filter(|&v| self.alive[v]).collect();
            for (x, &a) in alive.iter().enumerate() {
                for &b in &alive[x + 1..] {
                    if let Some(w) = self.pair_weight(ctx, a, b) {
                        self.push_graph(a, b, all.len(), w);
                        all.push((a, b, w));
                    }
                }
            }
            self.matcher.start(n, &all);
        } else {
            let ins = self.inside_alive();
            let (chosen, most) = match self.heaviest_by_class(ctx, &ins) {
                Some(fast) => {
                    #[cfg(test)]
                    {
                        let slow = self.heaviest(ctx, &ins);
                        assert_eq!(fast, slow, "class by class as pair by pair");
                        CLASS_STARTS.with(|c| c.set(c.get() + 1));
                    }
                    fast
                }
                None => self.heaviest(ctx, &ins),
            };
            for (a, b, w) in chosen {
                self.push_graph(a, b, all.len(), w);
                all.push((a, b, w.add(&w)));
            }
            for (a, b, w) in self.near_target(ctx) {
                self.push_graph(a, b, all.len(), w);
                all.push((a, b, w.add(&w)));
            }
            // Each player of the bracket may go down (if someone below may meet him), or in
            // an odd field take the bye vertex 2n.
            let below: Vec<usize> = (0..n)
                .filter(|&v| self.alive[v] && !self.inside[v])
                .collect();
            let odd = (0..n).filter(|&v| self.alive[v]).count() % 2 == 1;
            for &a in &ins {
                if below.iter().any(|&b| compatible(ctx, a, b)) {
                    all.push((a, n + a, self.share2(a)));
                }
                if odd {
                    all.push((a, 2 * n, self.unit_completion()));
                }
            }
            self.matcher.start(2 * n + 1, &all);
            let floors = match self.floors_by_class(ctx, &ins, most.clone()) {
                Some(y) => y,
                None => self.floors(ctx, &ins, most),
            };
            #[cfg(test)]
            self.assert_floors(ctx, &ins, &floors);
            for (v, y) in floors.into_iter().enumerate() {
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
    pub(super) fn excluded(&self, ctx: &Context, a: usize, b: usize, unit: W) -> bool {
        let Some(w) = self.pair_weight(ctx, a, b) else {
            return true;
        };
        if !self.clean {
            return false;
        }
        let bound = self.exclusion_bound(unit);
        match self.gid.get(&key(a, b)) {
            Some(&g) if self.graph[g as usize].pruned => true,
            Some(&g) => self
                .matcher
                .reduced_cost(self.graph[g as usize].mid)
                .is_some_and(|r| r >= bound),
            None => {
                // Left out of the reduced graph: its pricing bound decides.
                let priced = self.mode == Mode::Reduced
                    && self.alive[a]
                    && self.alive[b]
                    && self.inside[a]
                    && self.inside[b];
                priced
                    && (w <= W::zero()
                        || self
                            .matcher
                            .pair_reduced_cost(a, b, w.add(&w))
                            .is_some_and(|r| r >= bound))
            }
        }
    }

    /// After a clean solve whose optimum is optimal on the fields at or above `unit` for
    /// the rest of the bracket (every later change weighs below it): the pairs of the graph
    /// that `excluded` shows in no such optimum leave the matcher's graph, so the searches
    /// that follow scan fewer edges. They stay in the pair index, so pricing does not bring
    /// them back; an optimum without them is an optimum with them. How many went.
    pub(super) fn prune(&mut self, unit: W) -> usize {
        if !self.clean || self.mode != Mode::Reduced {
            return 0;
        }
        let bound = self.exclusion_bound(unit);
        let mut gone = Vec::new();
        for g in 0..self.graph.len() {
            let p = &self.graph[g];
            if p.pruned || !self.alive[p.a as usize] || !self.alive[p.b as usize] {
                continue;
            }
            if self.matcher.reduced_cost(p.mid).is_some_and(|r| r >= bound) {
                gone.push(p.mid);
                self.graph[g].pruned = true;
            }
        }
        self.matcher.remove_edges(&gone);
        gone.len()
    }

    /// The reduced cost from which `excluded` shows a pair out of every optimum on the
    /// fields at or above `unit`: twice the unit, in the matcher's units (whose weights are
    /// doubled again in reduced mode).
    fn exclusion_bound(&self, unit: W) -> W {
        let two = unit.add(&unit);
        if self.mode == Mode::Reduced {
            two.add(&two)
        } else {
            two
        }
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
