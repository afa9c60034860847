//! Pricing: which pairs left out of the restricted program could still lower the group's
//! objective, read from the LP's duals. Listed candidates are priced one by one
//! (`Model::reduced_cost`); the unlisted pairs of a [`PairSource`] in blocks of classes,
//! bounded from below so that blocks and players that cannot price out are skipped without
//! asking the source ([`price_source`]). The duals of closed groups are kept ([`Closed`]): a
//! pair they price above their gap is in no optimum of theirs and is never listed.

use super::columns::{grow, ColumnSet};
use super::model::{Model, Solved};
use super::prepare::Fixed;
use super::{Cancel, EPS};
use crate::spec::{Candidate, PairSource};
use std::collections::HashSet;
use std::time::Instant;

/// A restricted optimum `gap` above the LP bound: every excluded pair whose reduced cost is
/// below the gap could still improve it, so all of them become active (from the source too:
/// the completion proves nothing if one is left out). Returns whether any was added.
pub(super) fn complete(
    model: &mut Model,
    priced: &Priced,
    lp: &Solved,
    gap: f64,
    set: &mut ColumnSet,
) -> bool {
    let Priced {
        source,
        group,
        fixed,
        closed,
        cancel,
    } = *priced;
    let mut added = false;
    if let Some(src) = source {
        let unlisted = price_source(
            model,
            src,
            group,
            fixed,
            closed,
            lp,
            &set.listed,
            gap,
            None,
            cancel,
        );
        set.from_source += unlisted.len();
        added |= !unlisted.is_empty();
        grow(model, unlisted, set);
    }
    let more: Vec<usize> = (0..model.spec.candidates.len())
        .filter(|&k| !set.in_active[k] && !set.dead[k])
        .filter(|&k| model.reduced_cost(k, group, fixed, lp) < gap - EPS)
        .collect();
    if !more.is_empty() {
        added = true;
        for k in more {
            set.in_active[k] = true;
            set.active.push(k);
        }
        set.active.sort_unstable();
    }
    added
}

/// What a tier group's reduced costs read besides its LP's duals: the tiers, the earlier
/// groups' rows, the closed groups (for pairs of the source); and when to stop.
#[derive(Clone, Copy)]
pub(super) struct Priced<'a> {
    pub source: Option<&'a dyn PairSource>,
    pub group: &'a [(usize, i128)],
    pub fixed: &'a [Fixed],
    pub closed: &'a [Closed],
    pub cancel: Cancel<'a>,
}

/// A pair's cost (its spec costs, tier t at index t − 1) weighted by a tier group.
pub(super) fn weigh(costs: &[i64], group: &[(usize, i128)]) -> f64 {
    group
        .iter()
        .filter(|&&(t, _)| t > 0)
        .map(|&(t, w)| w as f64 * costs[t - 1] as f64)
        .sum()
}

/// Partners of one class with consecutive positions, for [`price_source`].
struct Run {
    lo: usize,
    hi: usize,
    players: Vec<usize>,
    /// The highest potential among `players`, and under each closed group.
    top: f64,
    closed_top: Vec<f64>,
}

/// A tier group's LP duals, kept to price unlisted pairs against it later.
pub(super) struct Closed {
    pub group: Vec<(usize, i128)>,
    pub deg: Vec<f64>,
    pub odd: Vec<f64>,
    pub fix: Vec<f64>,
    /// The group's optimum minus its LP bound.
    pub gap: f64,
}

impl Closed {
    fn reduced_cost(&self, model: &Model, fixed: &[Fixed], c: &Candidate) -> f64 {
        let mut rc = weigh(&c.costs, &self.group) - self.deg[c.a] - self.deg[c.b];
        for (s, &z) in self.odd.iter().enumerate() {
            if model.sets[s][c.a] != model.sets[s][c.b] {
                rc -= z;
            }
        }
        for (&d, (fg, _)) in self.fix.iter().zip(fixed) {
            rc -= weigh(&c.costs, fg) * d;
        }
        rc
    }
}

/// The unlisted pairs of `src` whose reduced cost under `lp` is below `below` (0 when pricing
/// the LP, the integrality gap when completing a MIP), cheapest first. With `cap`, at most
/// that many per player (a pair stays while either of its players has fewer) and 4n in all:
/// enough for a pricing round, which is repeated until nothing prices out. Without, every
/// such pair: a MIP's completion must see them all.
///
/// A pair's reduced cost is its cost on the group's tiers minus its players' degree duals, the
/// duals of the parity sets it crosses and of the earlier groups' rows. With `pot(i)` = the
/// degree dual of `i` plus the positive duals of the sets holding `i`, it is at least
/// `lower(g, h) − pot(a) − pot(b)` for `a` in class `g` and `b` in class `h` when the earlier
/// groups' row duals are ≤ 0 (they then only add): blocks and players that cannot price out
/// are skipped without asking the source.
#[allow(clippy::too_many_arguments)]
pub(super) fn price_source(
    model: &Model,
    src: &dyn PairSource,
    group: &[(usize, i128)],
    fixed: &[Fixed],
    closed: &[Closed],
    lp: &Solved,
    listed: &HashSet<(usize, usize)>,
    below: f64,
    cap: Option<usize>,
    cancel: Cancel,
) -> Vec<Candidate> {
    let t_start = Instant::now();
    let scan = Scan::new(model, src, group, fixed, closed, lp, listed, below);
    let items = scan.items();
    let (mut found, tally) = scan_in_parallel(&scan, &items, cancel);
    found.sort_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then((x.1.a, x.1.b).cmp(&(y.1.a, y.1.b)))
    });
    log::debug!(
        "pricing below {below}: {} runs, {} pairs past the bound, {} built, {} found in {:.3} s",
        tally.runs,
        tally.past_bound,
        tally.built,
        found.len(),
        t_start.elapsed().as_secs_f64()
    );
    if let Some(per) = cap {
        keep_per_player(&mut found, per, model.spec.players.len());
    }
    found.into_iter().map(|(_, c)| c).collect()
}

/// Partners are taken in runs of this many consecutive indices ([`Run`]).
const SUB: usize = 32;

/// The players `a` of one block scanned as one work item: both cores share the largest score
/// groups.
const RUN: usize = 32;

/// One work item of a scan: the classes `(g, h)` of a block of pairs and the first of the
/// `RUN` players of `g` it scans.
type Item = (usize, usize, usize);

/// What a scan counts, for the trace: runs bounded, pairs past the bound, pairs built.
#[derive(Default)]
struct Tally {
    runs: usize,
    past_bound: usize,
    built: usize,
}

/// A pair's reduced cost is its cost minus its players' degree duals and the duals of the
/// sets it crosses. The crossing term is exact per pair of classes when they are uniform
/// ([`membership`]); otherwise each player's potential takes the positive duals of its sets.
struct Duals {
    pot: Vec<f64>,
    sides: Option<Vec<Vec<bool>>>,
    odd: Vec<f64>,
    /// Without `sides`: each player's sets of positive dual, as bits (`words` per player).
    words: usize,
    bits: Vec<u64>,
}

impl Duals {
    fn new(model: &Model, members: &[Vec<usize>], deg: &[f64], odd: &[f64]) -> Duals {
        let n = model.spec.players.len();
        let sides = membership(model, members, odd.len());
        let mut pot = deg.to_vec();
        let words = if sides.is_none() {
            odd.len().div_ceil(64)
        } else {
            0
        };
        let mut bits = vec![0u64; n * words];
        if sides.is_none() {
            for (s, &z) in odd.iter().enumerate() {
                if z > 0.0 {
                    for (i, &inn) in model.sets[s].iter().enumerate() {
                        if inn {
                            pot[i] += z;
                            bits[i * words + s / 64] |= 1 << (s % 64);
                        }
                    }
                }
            }
        }
        Duals {
            pot,
            sides,
            odd: odd.to_vec(),
            words,
            bits,
        }
    }

    /// What `pot(a) + pot(b)` counts twice for a pair inside a set: its positive dual,
    /// which the pair does not cross (0 when the crossing is exact per class pair).
    fn shared(&self, a: usize, b: usize) -> f64 {
        let mut sum = 0.0;
        for w in 0..self.words {
            let mut both = self.bits[a * self.words + w] & self.bits[b * self.words + w];
            while both != 0 {
                sum += self.odd[w * 64 + both.trailing_zeros() as usize];
                both &= both - 1;
            }
        }
        2.0 * sum
    }

    fn cross(&self, g: usize, h: usize) -> f64 {
        self.sides.as_ref().map_or(0.0, |m| {
            self.odd
                .iter()
                .enumerate()
                .filter(|&(s, _)| m[g][s] != m[h][s])
                .map(|(_, &z)| z)
                .sum()
        })
    }
}

/// When every class lies wholly inside or outside each of the first `count` parity sets
/// (score groups and their unions do), the sets a pair crosses are known from its classes:
/// per class, whether it lies inside each set.
fn membership(model: &Model, members: &[Vec<usize>], count: usize) -> Option<Vec<Vec<bool>>> {
    members
        .iter()
        .map(|m| {
            let Some(&first) = m.first() else {
                return Some(vec![false; count]);
            };
            let sets = &model.sets[..count];
            sets.iter()
                .all(|s| m.iter().all(|&i| s[i] == s[first]))
                .then(|| sets.iter().map(|s| s[first]).collect())
        })
        .collect()
}

/// The coefficients and offset of a group's lower bound on a pair's cost, or `None` when
/// nothing can be pruned ([`bound`]).
type Coefs = Option<(Vec<f64>, f64)>;

/// A pair's reduced cost is at least Σ_t coef[t]·low[t] − pot(a) − pot(b) for tier costs
/// `low` bounding its own: coef[t] is the tier's weight in the group plus, with the earlier
/// groups' fixing-row duals d ≤ 0, −d times its weight in theirs (they only add). Without such
/// duals nothing is pruned. A fixing-row dual within tolerance above 0 (numerical noise) would
/// make its term subtract: it is bounded by its largest possible value instead (`upper`), an
/// offset.
fn coefs(own: &[(usize, i128)], fix: &[f64], fixed: &[Fixed], upper: &[i64]) -> Coefs {
    if fix.iter().any(|&d| d > 1e-9) {
        return None;
    }
    let mut coef = vec![0.0; upper.len()];
    let mut offset = 0.0;
    for &(t, w) in own.iter().filter(|&&(t, _)| t > 0) {
        coef[t - 1] += w as f64;
    }
    for (&d, (fg, _)) in fix.iter().zip(fixed) {
        for &(t, w) in fg.iter().filter(|&&(t, _)| t > 0) {
            if d <= 0.0 {
                coef[t - 1] -= d * w as f64;
            } else {
                offset += d * w as f64 * upper[t - 1] as f64;
            }
        }
    }
    Some((coef, offset))
}

/// The lower bound [`coefs`] gives a pair of tier costs at least `low`.
fn bound(coef: &Coefs, low: &[i64]) -> f64 {
    match coef {
        Some((c, offset)) => c.iter().zip(low).map(|(&c, &l)| c * l as f64).sum::<f64>() - offset,
        None => f64::NEG_INFINITY,
    }
}

/// A group's weights as floats, once (a pair's own reduced cost is computed for every find).
fn float_weights(group: &[(usize, i128)]) -> Vec<(usize, f64)> {
    group.iter().map(|&(t, w)| (t, w as f64)).collect()
}

/// [`weigh`] on weights already as floats.
fn weigh_f(costs: &[i64], w: &[(usize, f64)]) -> f64 {
    w.iter()
        .filter(|&&(t, _)| t > 0)
        .map(|&(t, w)| w * costs[t - 1] as f64)
        .sum()
}

/// The highest of `players`' values in `pot`.
fn top(players: &[usize], pot: &[f64]) -> f64 {
    players
        .iter()
        .map(|&i| pot[i])
        .fold(f64::NEG_INFINITY, f64::max)
}

/// What one scan of the source reads: the LP's duals and the closed groups' as potentials,
/// each class's players and runs, the bounds' coefficients.
struct Scan<'a> {
    model: &'a Model,
    src: &'a dyn PairSource,
    fixed: &'a [Fixed],
    closed: &'a [Closed],
    lp: &'a Solved,
    listed: &'a HashSet<(usize, usize)>,
    below: f64,
    /// The players of each class, highest potential first: a scan over `a` stops at the
    /// first that cannot price out.
    members: Vec<Vec<usize>>,
    own: Duals,
    closed_duals: Vec<Duals>,
    /// Each class's partners in runs of consecutive indices, each with its players' highest
    /// potentials: a run whose bound (`refine_lower`) cannot price out is skipped whole.
    runs: Vec<Vec<Run>>,
    /// The highest potential of each class.
    class_top: Vec<f64>,
    own_coef: Coefs,
    closed_coef: Vec<Coefs>,
    own_w: Vec<(usize, f64)>,
    fixed_w: Vec<Vec<(usize, f64)>>,
}

/// The bounds of one block of pairs (classes `g`, `h`): the source's lower costs, and the
/// duals of the sets its pairs cross, the group's own and each closed group's.
struct Block {
    low: Vec<i64>,
    cross: f64,
    closed_cross: Vec<f64>,
}

impl<'a> Scan<'a> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        model: &'a Model,
        src: &'a dyn PairSource,
        group: &[(usize, i128)],
        fixed: &'a [Fixed],
        closed: &'a [Closed],
        lp: &'a Solved,
        listed: &'a HashSet<(usize, usize)>,
        below: f64,
    ) -> Scan<'a> {
        let n = model.spec.players.len();
        let classes = (0..n).map(|i| src.class(i)).max().map_or(0, |m| m + 1);
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); classes];
        for i in 0..n {
            members[src.class(i)].push(i);
        }
        let own = Duals::new(model, &members, &lp.deg, &lp.odd);
        let closed_duals: Vec<Duals> = closed
            .iter()
            .map(|c| Duals::new(model, &members, &c.deg, &c.odd))
            .collect();
        // Runs are cut in index order, before the members are sorted by potential.
        let runs: Vec<Vec<Run>> = members
            .iter()
            .map(|m| {
                m.chunks(SUB)
                    .map(|c| Run {
                        lo: c[0],
                        hi: c[c.len() - 1],
                        top: top(c, &own.pot),
                        closed_top: closed_duals.iter().map(|d| top(c, &d.pot)).collect(),
                        players: c.to_vec(),
                    })
                    .collect()
            })
            .collect();
        let class_top: Vec<f64> = runs
            .iter()
            .map(|r| r.iter().map(|x| x.top).fold(f64::NEG_INFINITY, f64::max))
            .collect();
        let pot = &own.pot;
        for m in &mut members {
            m.sort_by(|&x, &y| pot[y].total_cmp(&pot[x]).then(x.cmp(&y)));
        }
        let upper = src.upper();
        Scan {
            model,
            src,
            fixed,
            closed,
            lp,
            listed,
            below,
            members,
            own_coef: coefs(group, &lp.fix, fixed, &upper),
            closed_coef: closed
                .iter()
                .map(|c| coefs(&c.group, &c.fix, fixed, &upper))
                .collect(),
            own,
            closed_duals,
            runs,
            class_top,
            own_w: float_weights(group),
            fixed_w: fixed.iter().map(|(fg, _)| float_weights(fg)).collect(),
        }
    }

    /// The blocks of pairs, each cut into runs of `RUN` players `a`; every item is scanned
    /// on its own and the finds merged in a fixed order.
    fn items(&self) -> Vec<Item> {
        let members = &self.members;
        let mut items = Vec::new();
        for g in 0..members.len() {
            for h in g..members.len() {
                if members[g].is_empty() || members[h].is_empty() {
                    continue;
                }
                for start in (0..members[g].len()).step_by(RUN) {
                    items.push((g, h, start));
                }
            }
        }
        items
    }

    /// Scans one item: its players `a` of class `g`, highest potential first, against the
    /// runs of class `h`, then the players of each run not bounded out.
    fn scan(&self, &(g, h, start): &Item, found: &mut Vec<(f64, Candidate)>, tally: &mut Tally) {
        let mg = &self.members[g];
        let pot = &self.own.pot;
        let block = Block {
            low: self.src.lower(g, h),
            cross: self.own.cross(g, h),
            closed_cross: self.closed_duals.iter().map(|d| d.cross(g, h)).collect(),
        };
        let lb = bound(&self.own_coef, &block.low) - block.cross;
        if lb - pot[mg[0]] - self.class_top[h] >= self.below - EPS {
            return;
        }
        let mut low = block.low.clone();
        for &a in &mg[start..(start + RUN).min(mg.len())] {
            if lb - pot[a] - self.class_top[h] >= self.below - EPS {
                break;
            }
            for run in &self.runs[h] {
                if g == h && run.hi <= a {
                    continue; // each pair inside a class is scanned from its higher player
                }
                tally.runs += 1;
                low.copy_from_slice(&block.low);
                self.src.refine_lower(a, run.lo, run.hi, &mut low);
                if bound(&self.own_coef, &low) - block.cross - pot[a] - run.top >= self.below - EPS
                {
                    continue;
                }
                if self.run_closed_out(a, run, &low, &block) {
                    continue;
                }
                for &b in &run.players {
                    if a == b || (g == h && b < a) {
                        continue;
                    }
                    self.try_pair(a, b, &block, &mut low, found, tally);
                }
            }
        }
    }

    /// Whether every pair of `a` with a player of `run` is in no optimum of some closed
    /// group: its reduced cost there exceeds the group's gap.
    fn run_closed_out(&self, a: usize, run: &Run, low: &[i64], block: &Block) -> bool {
        let closed_lb: Vec<f64> = (0..self.closed.len())
            .map(|i| bound(&self.closed_coef[i], low) - block.closed_cross[i])
            .collect();
        self.closed.iter().enumerate().any(|(i, c)| {
            closed_lb[i] - self.closed_duals[i].pot[a] - run.closed_top[i] > c.gap + 1e-5
        })
    }

    /// The pair of `a` and `b`, bounded on its own (`low` is overwritten), then built and
    /// priced: kept in `found` when its reduced cost is below the scan's threshold.
    fn try_pair(
        &self,
        a: usize,
        b: usize,
        block: &Block,
        low: &mut [i64],
        found: &mut Vec<(f64, Candidate)>,
        tally: &mut Tally,
    ) {
        let pot = &self.own.pot;
        low.copy_from_slice(&block.low);
        self.src.refine_lower(a, b, b, low);
        if bound(&self.own_coef, low) - block.cross - pot[a] - pot[b] + self.own.shared(a, b)
            >= self.below - EPS
        {
            return;
        }
        tally.past_bound += 1;
        let (x, y) = (a.min(b), a.max(b));
        let surely_dead = self.closed.iter().enumerate().any(|(i, c)| {
            let d = &self.closed_duals[i];
            bound(&self.closed_coef[i], low) - block.closed_cross[i] - d.pot[x] - d.pot[y]
                + d.shared(x, y)
                > c.gap + 1e-5
        });
        if surely_dead || self.listed.contains(&(x, y)) {
            return;
        }
        tally.built += 1;
        let Some(c) = self.src.pair(x, y) else {
            return;
        };
        if self
            .closed
            .iter()
            .any(|cl| cl.reduced_cost(self.model, self.fixed, &c) > cl.gap + 1e-5)
        {
            return; // in no optimum of a closed group
        }
        let rc = self.reduced_cost(x, y, &c);
        if rc < self.below - EPS {
            found.push((rc, c));
        }
    }

    /// The reduced cost under the group's LP of `c`, the pair of players `x < y`.
    fn reduced_cost(&self, x: usize, y: usize, c: &Candidate) -> f64 {
        let lp = self.lp;
        let mut rc = weigh_f(&c.costs, &self.own_w) - lp.deg[x] - lp.deg[y];
        for (s, inside) in self.model.sets.iter().enumerate() {
            if inside[x] != inside[y] {
                rc -= lp.odd[s];
            }
        }
        for (f, fw) in self.fixed_w.iter().enumerate() {
            rc -= weigh_f(&c.costs, fw) * lp.fix[f];
        }
        rc
    }
}

/// Scans every item on the available cores (one per 64 items at most), each taking the next
/// item until none is left or `cancel` says stop (past the deadline the scan stops; the
/// driver stops the solve next). The finds come back in no fixed order: the caller sorts.
fn scan_in_parallel(scan: &Scan, items: &[Item], cancel: Cancel) -> (Vec<(f64, Candidate)>, Tally) {
    let threads = std::thread::available_parallelism()
        .map(|t| t.get())
        .unwrap_or(1)
        .min(items.len() / 64 + 1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|sc| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                sc.spawn(|| {
                    let mut mine = Vec::new();
                    let mut tally = Tally::default();
                    while !cancel() {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(k) else { break };
                        scan.scan(item, &mut mine, &mut tally);
                    }
                    (mine, tally)
                })
            })
            .collect();
        let mut all = Vec::new();
        let mut total = Tally::default();
        for w in workers {
            let (mine, t) = w.join().expect("pricing thread");
            all.extend(mine);
            total.runs += t.runs;
            total.past_bound += t.past_bound;
            total.built += t.built;
        }
        (all, total)
    })
}

/// A few pairs for each player rather than the most negative overall: these crowd on the
/// players with the largest duals (10,000 players: 41% fewer columns, 15% less time). A pair
/// stays while either of its players has fewer than `per`; at most 4n (and 64) in all.
fn keep_per_player(found: &mut Vec<(f64, Candidate)>, per: usize, n: usize) {
    let mut taken = vec![0usize; n];
    found.retain(|(_, c)| {
        let keep = taken[c.a] < per || taken[c.b] < per;
        if keep {
            taken[c.a] += 1;
            taken[c.b] += 1;
        }
        keep
    });
    found.truncate((4 * n).max(64));
}
