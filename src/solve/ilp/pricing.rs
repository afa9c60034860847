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
    let n = model.spec.players.len();
    let t_start = Instant::now();
    let classes = (0..n).map(|i| src.class(i)).max().map_or(0, |m| m + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); classes];
    for i in 0..n {
        members[src.class(i)].push(i);
    }
    // When every class lies wholly inside or outside each of the first `count` parity sets
    // (score groups and their unions do), the sets a pair crosses are known from its classes.
    let membership = |count: usize| -> Option<Vec<Vec<bool>>> {
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
    };
    // A pair's reduced cost is its cost minus its players' degree duals and the duals of the
    // sets it crosses. The crossing term is exact per pair of classes when they are uniform
    // (`membership`); otherwise each player's potential takes the positive duals of its sets.
    struct Duals {
        pot: Vec<f64>,
        sides: Option<Vec<Vec<bool>>>,
        odd: Vec<f64>,
        /// Without `sides`: each player's sets of positive dual, as bits (`words` per player).
        words: usize,
        bits: Vec<u64>,
    }
    impl Duals {
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
    let duals = |deg: &[f64], odd: &[f64]| -> Duals {
        let sides = membership(odd.len());
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
    };
    let own = duals(&lp.deg, &lp.odd);
    let pot = &own.pot;
    let closed_duals: Vec<Duals> = closed.iter().map(|c| duals(&c.deg, &c.odd)).collect();
    let closed_pot: Vec<&Vec<f64>> = closed_duals.iter().map(|d| &d.pot).collect();
    // Partners are taken in runs of consecutive indices, each with its players' highest
    // potentials: a run whose bound (`refine_lower`) cannot price out is skipped whole.
    const SUB: usize = 32;
    let runs: Vec<Vec<Run>> = members
        .iter()
        .map(|m| {
            m.chunks(SUB)
                .map(|c| Run {
                    lo: c[0],
                    hi: c[c.len() - 1],
                    top: c.iter().map(|&i| pot[i]).fold(f64::NEG_INFINITY, f64::max),
                    closed_top: closed_pot
                        .iter()
                        .map(|cp| c.iter().map(|&i| cp[i]).fold(f64::NEG_INFINITY, f64::max))
                        .collect(),
                    players: c.to_vec(),
                })
                .collect()
        })
        .collect();
    let class_top: Vec<f64> = runs
        .iter()
        .map(|r| r.iter().map(|x| x.top).fold(f64::NEG_INFINITY, f64::max))
        .collect();
    // Highest potential first: a scan over `a` stops at the first that cannot price out.
    for m in &mut members {
        m.sort_by(|&x, &y| pot[y].total_cmp(&pot[x]).then(x.cmp(&y)));
    }
    // The blocks of pairs, each cut into runs of `a` so that both cores share the largest
    // score groups; every run is scanned on its own and the finds merged in a fixed order.
    const RUN: usize = 32;
    let mut items: Vec<(usize, usize, usize)> = Vec::new();
    for g in 0..classes {
        for h in g..classes {
            if members[g].is_empty() || members[h].is_empty() {
                continue;
            }
            for start in (0..members[g].len()).step_by(RUN) {
                items.push((g, h, start));
            }
        }
    }
    // A pair's reduced cost is at least Σ_t coef[t]·low[t] − pot(a) − pot(b) for tier costs
    // `low` bounding its own: coef[t] is the tier's weight in the group plus, with the
    // earlier groups' fixing-row duals d ≤ 0, −d times its weight in theirs (they only add).
    // Without such duals nothing is pruned.
    let tiers = src.upper().len();
    // A fixing-row dual within tolerance above 0 (numerical noise) would make its term
    // subtract: it is bounded by its largest possible value instead (`upper`), an offset.
    let upper = src.upper();
    let coefs = |own: &[(usize, i128)], fix: &[f64]| -> Option<(Vec<f64>, f64)> {
        if fix.iter().any(|&d| d > 1e-9) {
            return None;
        }
        let mut coef = vec![0.0; tiers];
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
    };
    let own_coef = coefs(group, &lp.fix);
    let closed_coef: Vec<Option<(Vec<f64>, f64)>> =
        closed.iter().map(|c| coefs(&c.group, &c.fix)).collect();
    let bound = |coef: &Option<(Vec<f64>, f64)>, low: &[i64]| -> f64 {
        match coef {
            Some((c, offset)) => {
                c.iter().zip(low).map(|(&c, &l)| c * l as f64).sum::<f64>() - offset
            }
            None => f64::NEG_INFINITY,
        }
    };
    // Group weights as floats, once (a pair's own reduced cost is computed for every find).
    let own_w: Vec<(usize, f64)> = group.iter().map(|&(t, w)| (t, w as f64)).collect();
    let fixed_w: Vec<Vec<(usize, f64)>> = fixed
        .iter()
        .map(|(fg, _)| fg.iter().map(|&(t, w)| (t, w as f64)).collect())
        .collect();
    let weigh_f = |costs: &[i64], w: &[(usize, f64)]| -> f64 {
        w.iter()
            .filter(|&&(t, _)| t > 0)
            .map(|&(t, w)| w * costs[t - 1] as f64)
            .sum()
    };
    // `count`: runs bounded, pairs past the bound, pairs built (for the trace).
    let scan = |&(g, h, start): &(usize, usize, usize),
                found: &mut Vec<(f64, Candidate)>,
                count: &mut [usize; 3]| {
        let mg = &members[g];
        let block = src.lower(g, h);
        let cross = own.cross(g, h);
        let closed_cross: Vec<f64> = closed_duals.iter().map(|d| d.cross(g, h)).collect();
        let lb = bound(&own_coef, &block) - cross;
        if lb - pot[mg[0]] - class_top[h] >= below - EPS {
            return;
        }
        let mut low = block.clone();
        for &a in &mg[start..(start + RUN).min(mg.len())] {
            if lb - pot[a] - class_top[h] >= below - EPS {
                break;
            }
            for run in &runs[h] {
                if g == h && run.hi <= a {
                    continue; // each pair inside a class is scanned from its higher player
                }
                count[0] += 1;
                low.copy_from_slice(&block);
                src.refine_lower(a, run.lo, run.hi, &mut low);
                if bound(&own_coef, &low) - cross - pot[a] - run.top >= below - EPS {
                    continue;
                }
                // In no optimum of a closed group: its reduced cost exceeds its gap.
                let closed_lb: Vec<f64> = (0..closed.len())
                    .map(|i| bound(&closed_coef[i], &low) - closed_cross[i])
                    .collect();
                if closed.iter().enumerate().any(|(i, c)| {
                    closed_lb[i] - closed_pot[i][a] - run.closed_top[i] > c.gap + 1e-5
                }) {
                    continue;
                }
                for &b in &run.players {
                    if a == b || (g == h && b < a) {
                        continue;
                    }
                    low.copy_from_slice(&block);
                    src.refine_lower(a, b, b, &mut low);
                    if bound(&own_coef, &low) - cross - pot[a] - pot[b] + own.shared(a, b)
                        >= below - EPS
                    {
                        continue;
                    }
                    count[1] += 1;
                    let (x, y) = (a.min(b), a.max(b));
                    let surely_dead = closed.iter().enumerate().any(|(i, c)| {
                        bound(&closed_coef[i], &low)
                            - closed_cross[i]
                            - closed_pot[i][x]
                            - closed_pot[i][y]
                            + closed_duals[i].shared(x, y)
                            > c.gap + 1e-5
                    });
                    if surely_dead || listed.contains(&(x, y)) {
                        continue;
                    }
                    count[2] += 1;
                    let Some(c) = src.pair(x, y) else { continue };
                    if closed
                        .iter()
                        .any(|cl| cl.reduced_cost(model, fixed, &c) > cl.gap + 1e-5)
                    {
                        continue; // in no optimum of a closed group
                    }
                    let mut rc = weigh_f(&c.costs, &own_w) - lp.deg[x] - lp.deg[y];
                    for (s, inside) in model.sets.iter().enumerate() {
                        if inside[x] != inside[y] {
                            rc -= lp.odd[s];
                        }
                    }
                    for (f, fw) in fixed_w.iter().enumerate() {
                        rc -= weigh_f(&c.costs, fw) * lp.fix[f];
                    }
                    if rc < below - EPS {
                        found.push((rc, c));
                    }
                }
            }
        }
    };
    let threads = std::thread::available_parallelism()
        .map(|t| t.get())
        .unwrap_or(1)
        .min(items.len() / 64 + 1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut count = [0usize; 3];
    let mut found: Vec<(f64, Candidate)> = std::thread::scope(|sc| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                sc.spawn(|| {
                    let mut mine = Vec::new();
                    let mut count = [0usize; 3];
                    // Past the deadline the scan stops; the driver stops the solve next.
                    while !cancel() {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(k) else { break };
                        scan(item, &mut mine, &mut count);
                    }
                    (mine, count)
                })
            })
            .collect();
        let mut all = Vec::new();
        for w in workers {
            let (mine, c) = w.join().expect("pricing thread");
            all.extend(mine);
            for (total, c) in count.iter_mut().zip(c) {
                *total += c;
            }
        }
        all
    });
    found.sort_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then((x.1.a, x.1.b).cmp(&(y.1.a, y.1.b)))
    });
    log::debug!(
        "pricing below {below}: {} runs, {} pairs past the bound, {} built, {} found in {:.3} s",
        count[0],
        count[1],
        count[2],
        found.len(),
        t_start.elapsed().as_secs_f64()
    );
    // A few pairs for each player rather than the most negative overall: these crowd on the
    // players with the largest duals (10,000 players: 41% fewer columns, 15% less time).
    if let Some(per) = cap {
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
    found.into_iter().map(|(_, c)| c).collect()
}
