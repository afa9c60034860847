//! The exact solve: one binary per candidate pair, HiGHS through good_lp.
//!
//! Tiers are minimised lexicographically. Consecutive tiers share one HiGHS solve only while
//! their combined weights stay exact and numerically safe (`MAX_WEIGHT`); otherwise each group
//! of tiers is solved in turn, with the optimum of every earlier group fixed by a row. Every
//! tier value reported is recomputed in integers from the chosen pairs.

use super::certificate::{tier_values, Certificate, ModelSize, Status};
use super::exchange;
use super::lexmatch;
use super::{Options, Selection};
use crate::spec::{Candidate, PairSource, RoundSpec, Var};
use good_lp::{variable, Expression, ProblemVariables, SolverModel, Variable};
use highs::HighsModelStatus;
use std::collections::{HashMap, HashSet};
use std::ops::Sub;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

/// Largest objective coefficient (and group weight × range) in one solve. HiGHS scales costs
/// and works to tolerances near 1e-7, so a cost of 1 must stay visible beside the largest
/// coefficient. 2^20 was not enough for a MIP: a round-2 USCF MIP with weights near 177,000
/// missed a pairing one unit better on its last tier and called its answer optimal (test
/// `uscf_round_two_downfloater_is_the_lowest_rated_a_winner_at_200_players`).
const MAX_WEIGHT: i128 = 1 << 16;

pub struct Outcome {
    pub selection: Selection,
    pub certificate: Certificate,
    /// With a [`PairSource`]: the specification with the pairs priced in from it appended to
    /// its candidates (the selection's indices refer to it).
    pub extended: Option<RoundSpec>,
}

/// Runs the exact solve on a worker thread and gives up at `deadline` (HiGHS overruns its own
/// limit, so the limit is enforced here; an abandoned worker ends with the process).
pub fn solve(
    spec: &RoundSpec,
    source: Option<Arc<dyn PairSource>>,
    opts: &Options,
    deadline: Option<Instant>,
) -> Result<Outcome, String> {
    let (tx, rx) = mpsc::channel();
    let spec = spec.clone();
    let opts = opts.clone();
    std::thread::Builder::new()
        .name("highs".into())
        .spawn(move || {
            let _ = tx.send(solve_here(&spec, source.as_deref(), &opts, deadline));
        })
        .map_err(|e| format!("could not start the solver thread: {e}"))?;
    match deadline {
        None => rx
            .recv()
            .map_err(|_| "the solver stopped without an answer".to_string())?,
        Some(d) => {
            let wait = d.saturating_duration_since(Instant::now());
            match rx.recv_timeout(wait) {
                Ok(r) => r,
                Err(_) => Err("time limit reached before HiGHS finished".to_string()),
            }
        }
    }
}

/// Column `k` of the model: pairs first, then byes, then unpaired players.
struct Columns {
    pairs: usize,
    byes: usize,
    players: usize,
}

impl Columns {
    fn count(&self) -> usize {
        self.pairs + self.byes + self.players
    }
}

/// Cost of every column on every tier (tier 0 = players left unpaired).
fn column_costs(spec: &RoundSpec) -> Vec<Vec<i64>> {
    let t = spec.tiers.len() + 1;
    let mut costs =
        Vec::with_capacity(spec.candidates.len() + spec.byes.len() + spec.players.len());
    for c in &spec.candidates {
        let mut v = vec![0];
        v.extend(&c.costs);
        costs.push(v);
    }
    for b in &spec.byes {
        let mut v = vec![0];
        v.extend(&b.costs);
        costs.push(v);
    }
    for _ in &spec.players {
        let mut v = vec![0; t];
        v[0] = 1;
        costs.push(v);
    }
    costs
}

/// An upper bound on each tier's total over any pairing: every player is in one column, and a
/// pair's cost is at most the mean of its two players' largest costs.
fn tier_ranges(spec: &RoundSpec) -> Vec<i128> {
    let t = spec.tiers.len() + 1;
    let n = spec.players.len();
    let mut ranges = vec![0i128; t];
    ranges[0] = n as i128;
    #[allow(clippy::needless_range_loop)]
    for k in 1..t {
        let mut most = vec![0i128; n];
        for c in &spec.candidates {
            let v = c.costs[k - 1] as i128;
            most[c.a] = most[c.a].max(v);
            most[c.b] = most[c.b].max(v);
        }
        let bye_most = spec
            .byes
            .iter()
            .map(|b| b.costs[k - 1] as i128)
            .max()
            .unwrap_or(0);
        ranges[k] = most.iter().sum::<i128>() / 2 + 1 + bye_most * spec.max_byes as i128;
    }
    ranges
}

/// Splits tiers into groups solved together, with each tier's weight inside its group.
fn group_tiers(ranges: &[i128], max_cost: &[i64]) -> Vec<Vec<(usize, i128)>> {
    let mut groups: Vec<Vec<(usize, i128)>> = Vec::new();
    let mut t = ranges.len();
    // Build from the last tier upwards: weight(t) = Π (range+1) of the tiers below it in the group.
    let mut current: Vec<(usize, i128)> = Vec::new();
    let mut weight: i128 = 1;
    while t > 0 {
        t -= 1;
        let biggest = weight.saturating_mul(max_cost[t].max(1) as i128);
        let span = weight.saturating_mul(ranges[t] + 1);
        if !current.is_empty() && (biggest > MAX_WEIGHT || span > (1i128 << 52)) {
            current.reverse();
            groups.push(std::mem::take(&mut current));
            weight = 1;
        }
        current.push((t, weight));
        weight = weight.saturating_mul(ranges[t] + 1);
    }
    current.reverse();
    groups.push(current);
    groups.reverse();
    groups
}

/// Parity sets whose rows are added from the start: score groups and unions of the top groups
/// (odd ones always; even ones when a bye is given), and the odd sets the system names. See
/// `Model::run` for the rows.
fn odd_sets(spec: &RoundSpec) -> Vec<Vec<usize>> {
    // The even-set rows below hold for one bye only (two byes inside an even set need no
    // pair to leave it); with several byes only odd sets are used.
    let with_bye = spec.max_byes == 1 && !spec.byes.is_empty();
    let n = spec.players.len();
    let key = |s: f64| (s * 1000.0).round() as i64;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (-key(spec.scores[i]), i));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if key(spec.scores[g[0]]) == key(spec.scores[i]) => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut sets: Vec<Vec<usize>> = Vec::new();
    let mut union: Vec<usize> = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        if g.len() > 1 && (g.len() % 2 == 1 || with_bye) {
            sets.push(g.clone());
        }
        union.extend(g);
        if gi + 1 < groups.len() && gi > 0 && (union.len() % 2 == 1 || with_bye) {
            sets.push(union.clone());
        }
    }
    sets.extend(spec.odd_sets.iter().filter(|s| s.len() % 2 == 1).cloned());
    sets.sort();
    sets.dedup();
    sets
}

/// Everything about the model that does not change between solves.
struct Model {
    /// The specification, with any pairs priced in from a source appended to its candidates.
    spec: RoundSpec,
    costs: Vec<Vec<i64>>,
    cols: Columns,
    /// Odd sets as membership masks.
    sets: Vec<Vec<bool>>,
    /// Extra rows' terms on pairs, by candidate: (extra row, coefficient).
    extra_on_pair: Vec<Vec<(usize, i64)>>,
    /// Parity-set rows held with equality: tight (nonzero dual) at an earlier group's optimum
    /// that its LP bound proved, so tight in every pairing optimal for that group.
    tight: Vec<bool>,
    /// The bye row held with equality, for the same reason.
    bye_tight: bool,
    /// Bye and unpaired columns fixed at 0 (reduced cost above an earlier group's gap).
    dead_bye: Vec<bool>,
    dead_unpaired: Vec<bool>,
}

/// One HiGHS solve over a subset of the candidate pairs.
struct Solved {
    proved: bool,
    status: HighsModelStatus,
    objective: f64,
    bound: Option<f64>,
    gap: f64,
    /// Values of the active pair columns, then byes, then unpaired.
    values: Vec<f64>,
    /// Duals: degree rows, odd-set rows, extra rows (lower, upper), fixed-group rows.
    deg: Vec<f64>,
    /// Dual of the bye row (0 without byes).
    bye: f64,
    odd: Vec<f64>,
    extra: Vec<f64>,
    fix: Vec<f64>,
    /// Reduced costs of the columns (LP only).
    reduced: Vec<f64>,
    rows: usize,
    nonzeros: usize,
}

/// The row layout of a built program, for reading its duals and adding columns to it.
#[derive(Debug, Clone)]
struct Shape {
    n: usize,
    nb: usize,
    /// Parity-set rows: the first `sets − late` after the bye row, the `late` ones (cuts
    /// added to a kept LP) after the fixing rows.
    sets: usize,
    late: usize,
    extra: usize,
    rows: usize,
    nonzeros: usize,
}

/// An LP's HiGHS instance kept between the pricing rounds of one tier group.
struct WarmLp {
    model: highs::Model,
    /// HiGHS column of each candidate pair in the LP.
    col_of: HashMap<usize, usize>,
    /// The next column's index.
    next: usize,
    /// Pairs at build time: byes and unpaired columns follow them.
    na0: usize,
    shape: Shape,
    /// Fixed-group rows at build time.
    fixed: usize,
}

/// A solve's answer with values and reduced costs in the order `layout` gives (HiGHS column
/// of each position).
fn read_solved(
    solved: &highs::SolvedModel,
    integer: bool,
    layout: &[usize],
    sh: &Shape,
) -> Result<Solved, String> {
    let status = solved.status();
    let sol = solved.get_solution();
    let cols = sol.columns();
    if layout.iter().any(|&c| c >= cols.len())
        || solved.primal_solution_status() != highs::HighsSolutionStatus::Feasible
    {
        return Err(format!("HiGHS found no pairing (status {status:?})"));
    }
    let values: Vec<f64> = layout.iter().map(|&c| cols[c]).collect();
    let duals = sol.dual_rows().to_vec();
    let reduced = if integer {
        Vec::new()
    } else {
        let dc = sol.dual_columns();
        layout.iter().map(|&c| dc[c]).collect()
    };
    let objective = solved.objective_value();
    let bound = if integer {
        solved
            .double_info_value(c"mip_dual_bound")
            .ok()
            .filter(|b| b.is_finite())
    } else {
        Some(objective)
    };
    let gap = if integer { solved.mip_gap() } else { 0.0 };
    let (mut deg, mut odd, mut extra, mut fix) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut bye = 0.0;
    if !integer && duals.len() == sh.rows {
        let mut it = duals.into_iter();
        deg = it.by_ref().take(sh.n).collect();
        if sh.nb > 0 {
            bye = it.next().unwrap_or(0.0);
        }
        odd = it.by_ref().take(sh.sets - sh.late).collect();
        extra = it.by_ref().take(sh.extra).collect();
        let fixing = sh.rows - sh.n - usize::from(sh.nb > 0) - sh.sets - sh.extra;
        fix = it.by_ref().take(fixing).collect();
        odd.extend(it);
    }
    Ok(Solved {
        proved: status == HighsModelStatus::Optimal,
        status,
        objective,
        bound,
        gap: if gap.is_finite() { gap } else { 0.0 },
        values,
        deg,
        bye,
        odd,
        extra,
        fix,
        reduced,
        rows: sh.rows,
        nonzeros: sh.nonzeros,
    })
}

impl Model {
    fn coef(&self, col: usize, group: &[(usize, i128)]) -> i128 {
        group
            .iter()
            .map(|&(t, w)| w * self.costs[col][t] as i128)
            .sum()
    }

    /// Builds and solves the program over pairs `active` (LP relaxation when `integer` is
    /// false), with the tiers of `group` as objective and the optima of `fixed` as rows. An
    /// LP's HiGHS instance comes back too, for [`Model::rerun`].
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        active: &[usize],
        group: &[(usize, i128)],
        fixed: &[(Vec<(usize, i128)>, i128)],
        integer: bool,
        start: Option<&Selection>,
        opts: &Options,
        deadline: Option<Instant>,
    ) -> Result<(Solved, Option<WarmLp>), String> {
        let build0 = Instant::now();
        let spec = &self.spec;
        let n = spec.players.len();
        let (nb, na) = (self.cols.byes, active.len());
        // Local columns: active pairs, byes, unpaired.
        let global: Vec<usize> = active
            .iter()
            .copied()
            .chain(self.cols.pairs..self.cols.count())
            .collect();
        let mut vars = ProblemVariables::new();
        let x: Vec<Variable> = global
            .iter()
            .enumerate()
            .map(|(l, _)| {
                let dead = (l >= na && l < na + nb && self.dead_bye[l - na])
                    || (l >= na + nb && self.dead_unpaired[l - na - nb]);
                let hi = if dead { 0.0 } else { 1.0 };
                if integer {
                    vars.add(variable().integer().min(0).max(hi))
                } else {
                    vars.add(variable().min(0).max(hi))
                }
            })
            .collect();
        let mut objective = Expression::with_capacity(global.len());
        for (l, &g) in global.iter().enumerate() {
            let c = self.coef(g, group);
            if c != 0 {
                objective.add_mul(c as f64, x[l]);
            }
        }
        let mut model = vars.minimise(objective).using(good_lp::highs);
        let mut incident: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (l, &k) in active.iter().enumerate() {
            let c = &spec.candidates[k];
            incident[c.a].push(l);
            incident[c.b].push(l);
        }
        for (j, b) in spec.byes.iter().enumerate() {
            incident[b.player].push(na + j);
        }
        let mut nonzeros = 0;
        for (i, inc) in incident.iter_mut().enumerate() {
            inc.push(na + nb + i);
            nonzeros += inc.len();
            let e: Expression = inc.iter().map(|&l| x[l]).sum();
            model.add_constraint(e.eq(1));
        }
        let mut rows = n;
        if nb > 0 {
            let e: Expression = (0..nb).map(|j| x[na + j]).sum();
            if self.bye_tight {
                model.add_constraint(e.eq(spec.max_byes as f64));
            } else {
                model.add_constraint(e.leq(spec.max_byes as f64));
            }
            rows += 1;
            nonzeros += nb;
        }
        for (si, inside) in self.sets.iter().enumerate() {
            // Odd S: x(δ(S)) + y(S) + u(S) ≥ 1. Even S (a bye is given): the bye is one more
            // vertex, so x(δ(S)) + u(S) − y(S) ≥ 0: a bye inside S makes a pair leave it.
            let odd = inside.iter().filter(|&&b| b).count() % 2 == 1;
            let mut e = Expression::default();
            for (l, &k) in active.iter().enumerate() {
                let c = &spec.candidates[k];
                if inside[c.a] != inside[c.b] {
                    e.add_mul(1.0, x[l]);
                    nonzeros += 1;
                }
            }
            for (j, b) in spec.byes.iter().enumerate() {
                if inside[b.player] {
                    e.add_mul(if odd { 1.0 } else { -1.0 }, x[na + j]);
                }
            }
            for (i, &inn) in inside.iter().enumerate() {
                if inn {
                    e.add_mul(1.0, x[na + nb + i]);
                }
            }
            let rhs = if odd { 1.0 } else { 0.0 };
            if self.tight[si] {
                model.add_constraint(e.eq(rhs));
            } else {
                model.add_constraint(e.geq(rhs));
            }
            rows += 1;
        }
        let local_of_pair: HashMap<usize, usize> =
            active.iter().enumerate().map(|(l, &k)| (k, l)).collect();
        let mut extra_rows = Vec::new();
        for (ri, row) in spec.rows.iter().enumerate() {
            let mut e = Expression::default();
            for &(var, k) in &row.terms {
                let l = match var {
                    Var::Pair(c) => match local_of_pair.get(&c) {
                        Some(&l) => l,
                        None => continue,
                    },
                    Var::Bye(p) => match spec.byes.iter().position(|b| b.player == p) {
                        Some(j) => na + j,
                        None => continue,
                    },
                    Var::Unpaired(p) => na + nb + p,
                };
                e.add_mul(k as f64, x[l]);
                nonzeros += 1;
            }
            if let Some(m) = row.min {
                model.add_constraint(e.clone().geq(m as f64));
                extra_rows.push(ri);
                rows += 1;
            }
            if let Some(m) = row.max {
                model.add_constraint(e.leq(m as f64));
                extra_rows.push(ri);
                rows += 1;
            }
        }
        for (fg, opt) in fixed {
            let mut e = Expression::default();
            for (l, &g) in global.iter().enumerate() {
                let c = self.coef(g, fg);
                if c != 0 {
                    e.add_mul(c as f64, x[l]);
                    nonzeros += 1;
                }
            }
            model.add_constraint(e.leq(*opt as f64 + 0.5));
            rows += 1;
        }
        let mut m = model
            .try_into_inner()
            .map_err(|e| format!("HiGHS rejected the model: {e}"))?;
        m.make_quiet();
        m.set_option("random_seed", opts.seed);
        m.set_option("mip_rel_gap", 0.0);
        m.set_option("mip_abs_gap", 0.5);
        m.set_option("threads", 1);
        // Measured: presolve costs more than it saves on these models (BENCHMARKS.md).
        m.set_option("presolve", "off");
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
            m.set_option("time_limit", left.max(0.01));
        }
        if let (true, Some(sel)) = (integer, start) {
            let mut v = vec![0.0; global.len()];
            for &k in &sel.pairs {
                if let Some(&l) = local_of_pair.get(&k) {
                    v[l] = 1.0;
                }
            }
            for &p in &sel.byes {
                if let Some(j) = spec.byes.iter().position(|b| b.player == p) {
                    v[na + j] = 1.0;
                }
            }
            for &p in &sel.unpaired {
                v[na + nb + p] = 1.0;
            }
            let _ = m.try_set_solution(Some(&v), None, None, None);
        }
        let t0 = Instant::now();
        let solved = m.try_solve().map_err(|e| format!("HiGHS failed: {e:?}"))?;
        trace_solve(
            if integer { "MIP" } else { "LP " },
            group,
            &global.len().to_string(),
            rows,
            fixed.len(),
            &solved,
            t0.elapsed().as_secs_f64(),
            (t0 - build0).as_secs_f64(),
        );
        let layout: Vec<usize> = (0..global.len()).collect();
        let shape = Shape {
            n,
            nb,
            sets: self.sets.len(),
            late: 0,
            extra: extra_rows.len(),
            rows,
            nonzeros,
        };
        let out = read_solved(&solved, integer, &layout, &shape)?;
        let warm = (!integer).then(|| WarmLp {
            model: highs::Model::from(solved),
            col_of: active.iter().enumerate().map(|(l, &k)| (k, l)).collect(),
            next: global.len(),
            na0: na,
            shape,
            fixed: fixed.len(),
        });
        Ok((out, warm))
    }

    /// Re-solves a kept LP after pricing: the pairs of `active` not yet in it are added as
    /// columns, and HiGHS starts from the last optimal basis instead of from scratch. The
    /// rows must be those the LP was built with (same group, fixed rows and odd sets).
    fn rerun(
        &self,
        mut w: WarmLp,
        active: &[usize],
        group: &[(usize, i128)],
        fixed: &[(Vec<(usize, i128)>, i128)],
        extra_index: &[Vec<usize>],
        deadline: Option<Instant>,
    ) -> Result<(Solved, WarmLp), String> {
        let t0 = Instant::now();
        // Cuts found since the LP was built become rows after all the others, over the
        // columns it has (columns added below get their entries in them too); the basis
        // stays dual feasible, so the dual simplex goes on from it.
        let cuts = self.sets.len() - w.shape.sets;
        let mut cols: Vec<(usize, usize)> = Vec::new();
        if cuts > 0 {
            cols = w.col_of.iter().map(|(&k, &c)| (c, k)).collect();
            cols.sort_unstable();
        }
        for inside in &self.sets[w.shape.sets..] {
            let odd = inside.iter().filter(|&&b| b).count() % 2 == 1;
            let mut idx: Vec<highs_sys::HighsInt> = Vec::new();
            let mut val: Vec<f64> = Vec::new();
            for &(col, k) in &cols {
                let c = &self.spec.candidates[k];
                if inside[c.a] != inside[c.b] {
                    idx.push(col as _);
                    val.push(1.0);
                }
            }
            for (j, b) in self.spec.byes.iter().enumerate() {
                if inside[b.player] {
                    idx.push((w.na0 + j) as _);
                    val.push(if odd { 1.0 } else { -1.0 });
                }
            }
            for (i, &inn) in inside.iter().enumerate() {
                if inn {
                    idx.push((w.na0 + w.shape.nb + i) as _);
                    val.push(1.0);
                }
            }
            let rhs = if odd { 1.0 } else { 0.0 };
            // SAFETY: as for `Highs_addCol` below; column indices below the column count.
            let status = unsafe {
                highs_sys::Highs_addRow(
                    w.model.as_mut_ptr(),
                    rhs,
                    f64::INFINITY,
                    idx.len() as _,
                    idx.as_ptr(),
                    val.as_ptr(),
                )
            };
            if status == highs_sys::STATUS_ERROR {
                return Err("HiGHS refused an odd-set cut".to_string());
            }
            w.shape.nonzeros += idx.len();
        }
        w.shape.sets += cuts;
        w.shape.late += cuts;
        w.shape.rows += cuts;
        let sh = w.shape.clone();
        let odd_base = sh.n + usize::from(sh.nb > 0);
        let extra_base = odd_base + sh.sets - sh.late;
        let fixed_base = extra_base + sh.extra;
        let late_base = fixed_base + w.fixed;
        let mut added = 0;
        for &k in active {
            if w.col_of.contains_key(&k) {
                continue;
            }
            let c = &self.spec.candidates[k];
            let mut idx: Vec<highs_sys::HighsInt> = vec![c.a as _, c.b as _];
            let mut val: Vec<f64> = vec![1.0, 1.0];
            for (si, inside) in self.sets.iter().take(sh.sets).enumerate() {
                if inside[c.a] != inside[c.b] {
                    let row = match si.checked_sub(sh.sets - sh.late) {
                        None => odd_base + si,
                        Some(l) => late_base + l,
                    };
                    idx.push(row as _);
                    val.push(1.0);
                }
            }
            // A pair may be named twice in one system row (HiGHS wants each row once).
            let mut extra: std::collections::BTreeMap<usize, i64> = Default::default();
            for &(ri, coef) in &self.extra_on_pair[k] {
                for &e in &extra_index[ri] {
                    *extra.entry(e).or_default() += coef;
                }
            }
            for (e, coef) in extra.into_iter().filter(|&(_, c)| c != 0) {
                idx.push((extra_base + e) as _);
                val.push(coef as f64);
            }
            for (fi, (fg, _)) in fixed.iter().enumerate() {
                let cf = self.coef(k, fg);
                if cf != 0 {
                    idx.push((fixed_base + fi) as _);
                    val.push(cf as f64);
                }
            }
            // SAFETY: the pointer is the live HiGHS instance owned by `w.model`; `idx` and
            // `val` have `idx.len()` entries, row indices below the model's row count.
            let status = unsafe {
                highs_sys::Highs_addCol(
                    w.model.as_mut_ptr(),
                    self.coef(k, group) as f64,
                    0.0,
                    1.0,
                    idx.len() as _,
                    idx.as_ptr(),
                    val.as_ptr(),
                )
            };
            if status == highs_sys::STATUS_ERROR {
                return Err("HiGHS refused a priced column".to_string());
            }
            w.col_of.insert(k, w.next);
            w.next += 1;
            added += 1;
        }
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
            w.model.set_option("time_limit", left.max(0.01));
        }
        // Priced columns keep the last basis primal feasible: the primal simplex goes on from
        // it (a few iterations for a few columns), where the dual simplex starts over
        // (BENCHMARKS.md: 10,000 players, about 7,000 iterations for one added column).
        // After cuts (new rows, the basis dual feasible), the dual simplex.
        w.model.set_option(
            "simplex_strategy",
            if cuts > 0 && added == 0 { 1 } else { 4 },
        );
        let t1 = Instant::now();
        let solved = w
            .model
            .try_solve()
            .map_err(|e| format!("HiGHS failed: {e:?}"))?;
        trace_solve(
            "LP+",
            group,
            &format!("{} (+{added} kept basis)", w.next),
            sh.rows,
            fixed.len(),
            &solved,
            t1.elapsed().as_secs_f64(),
            (t1 - t0).as_secs_f64(),
        );
        // Values and reduced costs in `run`'s layout: the active pairs, then byes, unpaired.
        let layout: Vec<usize> = active
            .iter()
            .map(|k| w.col_of[k])
            .chain(w.na0..w.na0 + sh.nb + sh.n)
            .collect();
        let out = read_solved(&solved, false, &layout, &sh)?;
        w.model = highs::Model::from(solved);
        Ok((out, w))
    }

    /// Reduced cost of candidate `k` under the duals of an LP solve.
    fn reduced_cost(
        &self,
        k: usize,
        group: &[(usize, i128)],
        fixed: &[(Vec<(usize, i128)>, i128)],
        lp: &Solved,
        extra_index: &[Vec<usize>],
    ) -> f64 {
        let c = &self.spec.candidates[k];
        let mut rc = self.coef(k, group) as f64 - lp.deg[c.a] - lp.deg[c.b];
        for (s, inside) in self.sets.iter().enumerate() {
            if inside[c.a] != inside[c.b] {
                rc -= lp.odd[s];
            }
        }
        for &(ri, coef) in &self.extra_on_pair[k] {
            for &row in &extra_index[ri] {
                rc -= coef as f64 * lp.extra[row];
            }
        }
        for (f, (fg, _)) in fixed.iter().enumerate() {
            let a = self.coef(k, fg);
            if a != 0 {
                rc -= a as f64 * lp.fix[f];
            }
        }
        rc
    }
}

/// Pairs each player's `k` cheapest partners (all tiers, lexicographically) plus `seed`'s pairs.
fn initial_columns(spec: &RoundSpec, per_player: usize, seed: &Selection) -> Vec<usize> {
    let n = spec.players.len();
    let mut by_player: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, c) in spec.candidates.iter().enumerate() {
        by_player[c.a].push(k);
        by_player[c.b].push(k);
    }
    let mut chosen = vec![false; spec.candidates.len()];
    for list in by_player.iter_mut() {
        if list.len() > per_player {
            list.select_nth_unstable_by(per_player, |&x, &y| {
                spec.candidates[x]
                    .costs
                    .cmp(&spec.candidates[y].costs)
                    .then(x.cmp(&y))
            });
            list.truncate(per_player);
        }
        for &k in list.iter() {
            chosen[k] = true;
        }
    }
    for &k in &seed.pairs {
        chosen[k] = true;
    }
    (0..spec.candidates.len()).filter(|&k| chosen[k]).collect()
}

/// Candidates per player in the first restricted program.
const PER_PLAYER: usize = 12;
/// Rounds of odd-set cut separation per tier group before the MIP takes over.
const MAX_CUT_ROUNDS: usize = 8;
/// Negative reduced cost tolerance.
const EPS: f64 = 1e-7;

fn solve_here(
    spec: &RoundSpec,
    source: Option<&dyn PairSource>,
    opts: &Options,
    deadline: Option<Instant>,
) -> Result<Outcome, String> {
    let started = Instant::now();
    let n = spec.players.len();
    let listed: HashSet<(usize, usize)> = match source {
        Some(_) => spec.candidates.iter().map(|c| (c.a, c.b)).collect(),
        None => HashSet::new(),
    };
    // Closed groups' LP duals: an unlisted pair they price above their gap is in no optimum.
    let mut closed: Vec<Closed> = Vec::new();
    let cols = Columns {
        pairs: spec.candidates.len(),
        byes: spec.byes.len(),
        players: n,
    };
    let costs = column_costs(spec);
    let mut ranges = tier_ranges(spec);
    let mut max_cost: Vec<i64> = (0..ranges.len())
        .map(|t| costs.iter().map(|c| c[t]).max().unwrap_or(0))
        .collect();
    if let Some(src) = source {
        // Unlisted pairs may cost more than the listed ones: the weights must hold for all.
        for (t, &u) in src.upper().iter().enumerate() {
            let bye_most = spec.byes.iter().map(|b| b.costs[t]).max().unwrap_or(0);
            let bound = (n as i128 / 2 + 1) * u as i128 + (bye_most * spec.max_byes as i64) as i128;
            ranges[t + 1] = ranges[t + 1].max(bound + 1);
            max_cost[t + 1] = max_cost[t + 1].max(u);
        }
    }
    let groups = group_tiers(&ranges, &max_cost);
    let sets_list = if opts.odd_set_rows {
        odd_sets(spec)
    } else {
        Vec::new()
    };
    let sets: Vec<Vec<bool>> = sets_list
        .iter()
        .map(|s| {
            let mut inside = vec![false; n];
            for &i in s {
                inside[i] = true;
            }
            inside
        })
        .collect();
    let mut extra_on_pair: Vec<Vec<(usize, i64)>> = vec![Vec::new(); spec.candidates.len()];
    let mut extra_index: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    for (ri, row) in spec.rows.iter().enumerate() {
        for &(var, k) in &row.terms {
            if let Var::Pair(c) = var {
                extra_on_pair[c].push((ri, k));
            }
        }
        let mut idx = Vec::new();
        for bound in [row.min, row.max] {
            if bound.is_some() {
                idx.push(next);
                next += 1;
            }
        }
        extra_index.push(idx);
    }
    let tight = vec![false; sets.len()];
    let mut model = Model {
        spec: spec.clone(),
        costs,
        cols,
        sets,
        extra_on_pair,
        tight,
        bye_tight: false,
        dead_bye: vec![false; spec.byes.len()],
        dead_unpaired: vec![false; n],
    };

    // A warm start and a guaranteed-feasible column set: the greedy pairing.
    let mut greedy = super::warm::pair(spec);
    let per_player = if opts.full_candidates {
        usize::MAX
    } else {
        PER_PLAYER
    };
    let active = initial_columns(spec, per_player, &greedy);
    let mut in_active = vec![false; spec.candidates.len()];
    for &k in &active {
        in_active[k] = true;
    }
    let dead = vec![false; spec.candidates.len()];
    // The columns: pairs listed or priced in, which are active, which are fixed at 0.
    let mut pool = ColumnSet {
        listed,
        from_source: 0,
        active,
        in_active,
        dead,
    };
    if let Some(src) = source {
        // The listed pairs alone make a poor warm start; the same greedy pass with every
        // partner of the player's own and nearest score groups does much better.
        let (pairs, bye) = source_greedy(&model.spec, src);
        let indices = adopt(&mut model, &pairs, &mut pool);
        let mut sel = Selection {
            pairs: indices,
            byes: bye.into_iter().collect(),
            unpaired: Vec::new(),
        };
        let mut used = vec![false; n];
        for c in &pairs {
            used[c.a] = true;
            used[c.b] = true;
        }
        for &b in &sel.byes {
            used[b] = true;
        }
        sel.unpaired = (0..n).filter(|&i| !used[i]).collect();
        if sel.tier_values(&model.spec) < greedy.tier_values(&model.spec) {
            // The incumbent's pairs are columns of every restricted program.
            activate(&sel.pairs, &mut pool.active, &mut pool.in_active);
            greedy = sel;
        }
    }
    let mut fixed: Vec<(Vec<(usize, i128)>, i128)> = Vec::new();
    // Pairs proved absent from every optimum of the tier groups solved so far: `pool.dead`.
    let mut dead_count = 0usize;
    let mut selection = greedy.clone();
    let mut proof: Vec<(Option<f64>, bool)> = vec![(None, false); ranges.len()];
    let mut size = ModelSize {
        players: n,
        all_pairs: spec.all_pairs(),
        candidates: spec.candidates.len(),
        odd_set_rows: model.sets.len(),
        ..ModelSize::default()
    };
    let mut last_gap = 0.0;
    let mut status = Status::Optimal;
    let mut pricing_rounds = 0usize;
    let mut cut_rows = 0usize;
    // Tier groups closed by a pairing on the LP optimum's face, or at zero cost.
    let mut face_closed = 0usize;
    let mut costless_closed = 0usize;
    // Tier groups closed by an exact weighted matching instead of a MIP.
    let mut matching_closed = 0usize;
    // Incumbents improved by partner exchanges before a group's first LP.
    let mut exchanged = 0usize;
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    if std::env::var_os("OPTIPAIR_TRACE").is_some() {
        eprintln!(
            "trace: start (greedy pairings, first columns) in {:.3} s",
            started.elapsed().as_secs_f64()
        );
    }

    'groups: for group in &groups {
        // Column generation on the LP relaxation, with odd-set cuts separated from its
        // fractional support, until no cut is violated and no excluded pair prices out.
        let mut cut_rounds = 0;
        // The LP kept between pricing rounds (cuts are added to it as rows).
        let mut warm: Option<WarmLp> = None;
        let mut first = true;
        let mut matched_early: Option<Selection> = None;
        // What reduced costs read besides the LP's duals: the same for the whole group.
        let ctx = Priced {
            source,
            group,
            fixed: &fixed,
            closed: &closed,
            extra_index: &extra_index,
        };
        let lp = loop {
            let first_lp = std::mem::take(&mut first) && !opts.full_candidates;
            // A group the incumbent pays nothing on, where nothing costs less than nothing, is
            // closed at once: zero duals prove the bound 0 (every reduced cost is the cost).
            if first_lp && opts.zero_cost {
                if let Some(lp) = costless(&model, source, &pool.active, group, &fixed, &selection)
                {
                    costless_closed += 1;
                    break lp;
                }
            }
            // A better incumbent, and its pairs as columns, before the first LP (item 10).
            let costs_something = |sel: &Selection| {
                let tv = sel.tier_values(&model.spec);
                group.iter().any(|&(t, _)| tv[t] > 0)
            };
            if first_lp
                && opts.exchange
                && source.is_some()
                && model.spec.rows.is_empty()
                && costs_something(&selection)
            {
                let t = Instant::now();
                if let Some(ex) = exchange::exchange(
                    &model.spec,
                    &pool.dead,
                    source,
                    group,
                    &fixed,
                    &selection.pairs,
                ) {
                    let pairs = adopt(&mut model, &ex.pairs, &mut pool);
                    let mut exchanged_sel = selection.clone();
                    exchanged_sel.pairs = pairs.clone();
                    let tv = exchanged_sel.tier_values(&model.spec);
                    let keeps = fixed.iter().all(|(g, opt)| {
                        g.iter().map(|&(t, w)| w * tv[t] as i128).sum::<i128>() <= *opt
                    });
                    debug_assert!(keeps, "partner exchanges lost an earlier optimum");
                    if keeps {
                        selection = exchanged_sel;
                        exchanged += 1;
                    }
                    activate(&pairs, &mut pool.active, &mut pool.in_active);
                    if std::env::var_os("OPTIPAIR_TRACE").is_some() {
                        eprintln!(
                            "trace: exchanges: incumbent {} -> {} in {:.3} s",
                            ex.before,
                            ex.after,
                            t.elapsed().as_secs_f64()
                        );
                    }
                }
            }
            let keep = warm.take().filter(|w| {
                opts.warm_lp && w.shape.sets <= model.sets.len() && w.fixed == fixed.len()
            });
            let lp = match keep {
                Some(w) => {
                    let (lp, w) =
                        model.rerun(w, &pool.active, group, &fixed, &extra_index, deadline)?;
                    warm = Some(w);
                    lp
                }
                None => {
                    let (lp, w) =
                        model.run(&pool.active, group, &fixed, false, None, opts, deadline)?;
                    warm = w;
                    lp
                }
            };
            size.solves += 1;
            if lp.status != HighsModelStatus::Optimal || lp.deg.len() != n {
                return Err(format!("LP relaxation not solved (status {:?})", lp.status));
            }
            let mut add: Vec<(f64, usize)> = (0..model.spec.candidates.len())
                .filter(|&k| !pool.in_active[k] && !pool.dead[k])
                .map(|k| (model.reduced_cost(k, group, &fixed, &lp, &extra_index), k))
                .filter(|&(rc, _)| rc < -EPS)
                .collect();
            if !add.is_empty() {
                pricing_rounds += 1;
                add.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                add.truncate((4 * n).max(64));
                for (_, k) in add {
                    pool.in_active[k] = true;
                    pool.active.push(k);
                }
                pool.active.sort_unstable();
            } else if let Some(more) = source
                .map(|src| {
                    let cap = Some(opts.priced_per_player.max(1));
                    price_source(
                        &model,
                        src,
                        group,
                        &fixed,
                        &closed,
                        &lp,
                        &pool.listed,
                        0.0,
                        cap,
                    )
                })
                .filter(|m| !m.is_empty())
            {
                pricing_rounds += 1;
                pool.from_source += more.len();
                grow(&mut model, more, &mut pool);
            } else {
                // The LP bound now holds over all pairs. Stop when it is met by the incumbent
                // (or the LP is integral); otherwise tighten it with odd-set cuts, a few rounds.
                let incumbent: i128 = group
                    .iter()
                    .map(|&(t, w)| w * selection.tier_values(&model.spec)[t] as i128)
                    .sum();
                if integral(&lp.values, &pool.active, &model.cols, spec).is_some()
                    || (incumbent as f64) < lp.objective + 1.0 - 1e-6
                {
                    break lp;
                }
                // A pairing of zero-reduced-cost columns (on the LP optimum's face) often meets
                // the bound although the LP optimum is fractional: it becomes the incumbent and
                // closes the group below, with no cut and no MIP.
                // (Not in the plain formulation, which stays the reference to compare with.)
                let on_face = (opts.lp_face && !opts.full_candidates)
                    .then(|| face_pairing(&model, &pool.active, &lp))
                    .flatten()
                    .filter(|sel| {
                        let tv = sel.tier_values(&model.spec);
                        let value = |g: &[(usize, i128)]| -> i128 {
                            g.iter().map(|&(t, w)| w * tv[t] as i128).sum()
                        };
                        (value(group) as f64) < lp.objective + 1.0 - 1e-6
                            && sel.byes.len() <= model.spec.max_byes
                            && sel.satisfies_rows(&model.spec)
                            && fixed.iter().all(|(g, opt)| value(g) <= *opt)
                    });
                if let Some(sel) = on_face {
                    face_closed += 1;
                    selection = sel;
                    break lp;
                }
                // Before any cut: the exact matching over the pairs that could beat the
                // incumbent (item 9), on components of any size (sparse blossom).
                let columns = pool.active.len();
                if opts.weighted_matching && !opts.full_candidates {
                    let incumbent = selection.clone();
                    matched_early = weighted_closing(
                        &mut model,
                        &ctx,
                        &lp,
                        &mut pool,
                        &incumbent,
                        &mut selection,
                    );
                    if matched_early.is_some() {
                        break lp;
                    }
                }
                // A completion that added pairs but could not match them all (weights too
                // wide) leaves `lp` stale: the LP is solved again over them before any cut.
                if pool.active.len() == columns {
                    if cut_rounds >= MAX_CUT_ROUNDS {
                        break lp;
                    }
                    let cuts = separate(&model, &pool.active, &lp.values);
                    if cuts.is_empty() {
                        break lp;
                    }
                    cut_rounds += 1;
                    cut_rows += cuts.len();
                    model.tight.extend(cuts.iter().map(|_| false));
                    model.sets.extend(cuts);
                }
            }
            if out_of_time() {
                status = Status::Feasible;
                break 'groups;
            }
        };
        let lp_bound = lp.objective;
        let value = |spec: &RoundSpec, sel: &Selection| -> i128 {
            let tv = sel.tier_values(spec);
            group.iter().map(|&(t, w)| w * tv[t] as i128).sum()
        };
        // The group is closed without a MIP when a pairing meets the LP bound over all pairs:
        // an integral LP optimum, or the incumbent (greedy pairing or previous group's optimum).
        let meets = |sel: &Selection| (value(&model.spec, sel) as f64) < lp_bound + 1.0 - 1e-6;
        let closing = match integral(&lp.values, &pool.active, &model.cols, spec) {
            _ if matched_early.is_some() => None,
            Some(sel) if meets(&sel) => Some(sel),
            Some(_) => None,
            None if meets(&selection) && selection.satisfies_rows(spec) => Some(selection.clone()),
            None => None,
        };
        // The group's pairing, its exact value, the bound proving it, and the program solved.
        let (sel, opt, bound, proved, rows, nonzeros) = if let Some(sel) = closing {
            let opt = value(&model.spec, &sel);
            (sel, opt, Some(lp_bound), true, lp.rows, lp.nonzeros)
        } else if let Some(sel) = matched_early {
            // Without a closing, the exact weighted matching found in the loop (tried on its
            // last LP whenever it ended without one), or else a MIP. Exact: the matching is
            // optimal over the active pairs, and every pair left out prices at or above its
            // gap over the LP bound (`complete`).
            matching_closed += 1;
            let opt = value(&model.spec, &sel);
            (sel, opt, Some(opt as f64), true, lp.rows, lp.nonzeros)
        } else {
            let (mut mip, _) = model.run(
                &pool.active,
                group,
                &fixed,
                true,
                Some(&selection),
                opts,
                deadline,
            )?;
            size.solves += 1;
            let mut sel = read_local(&mip.values, &pool.active, &model.cols, spec);
            let mut opt = value(&model.spec, &sel);
            if mip.proved && (opt as f64) - lp_bound > 1e-6 {
                let gap = opt as f64 - lp_bound;
                if complete(&mut model, &ctx, &lp, gap, &mut pool) {
                    mip = model
                        .run(
                            &pool.active,
                            group,
                            &fixed,
                            true,
                            Some(&sel),
                            opts,
                            deadline,
                        )?
                        .0;
                    size.solves += 1;
                    sel = read_local(&mip.values, &pool.active, &model.cols, spec);
                    opt = value(&model.spec, &sel);
                }
            }
            last_gap = mip.gap;
            let proved = mip.proved && mip.bound.is_none_or(|b| (opt as f64) - b < 1.0 - 1e-6);
            (sel, opt, mip.bound, proved, mip.rows, mip.nonzeros)
        };
        size.rows = size.rows.max(rows);
        size.nonzeros = size.nonzeros.max(nonzeros);
        size.columns = size.columns.max(pool.active.len() + model.cols.byes + n);
        let tv = sel.tier_values(&model.spec);
        for &(t, w) in group {
            let b = bound.map(|b| {
                let above: i128 = group
                    .iter()
                    .filter(|&&(u, _)| u < t)
                    .map(|&(u, wu)| wu * tv[u] as i128)
                    .sum();
                ((b - above as f64) / w as f64)
                    .max(0.0)
                    .min(tv[t] as f64)
                    // Tier values are integers: a lower bound rounds up.
                    .sub(1e-6)
                    .ceil()
            });
            proof[t] = (b, proved);
        }
        selection = sel;
        if !proved {
            status = Status::Feasible;
            break;
        }
        if opts.full_candidates {
            // The plain formulation: every allowed pair, each group's optimum fixed by a row.
            fixed.push((group.clone(), opt));
            continue;
        }
        let gap = opt as f64 - lp_bound;
        dead_count += fix_by_reduced_cost(
            &model,
            group,
            &fixed,
            &lp,
            &extra_index,
            gap,
            &mut pool.dead,
            &mut pool.active,
            &mut pool.in_active,
            &selection,
        );
        if gap.abs() <= 1e-9 * (opt as f64).abs().max(1.0) {
            restrict_to_optimal_face(&mut model, &lp, &selection);
        }
        if std::env::var_os("OPTIPAIR_TRACE").is_some() {
            eprintln!(
                "trace: group {:?} closed at {:.3} s: opt {opt} LP {lp_bound} gap {gap}; fixing duals {:?}, extra duals nonzero {}, tight sets {}",
                group.iter().map(|g| g.0).collect::<Vec<_>>(),
                started.elapsed().as_secs_f64(),
                lp.fix,
                lp.extra.iter().filter(|d| d.abs() > 1e-6).count(),
                model.tight.iter().filter(|&&t| t).count(),
            );
        }
        if source.is_some() {
            closed.push(Closed {
                group: group.clone(),
                deg: lp.deg.clone(),
                odd: lp.odd.clone(),
                fix: lp.fix.clone(),
                gap,
            });
        }
        fixed.push((group.clone(), opt));
        if out_of_time() && fixed.len() < groups.len() {
            status = Status::Feasible;
            break;
        }
    }
    if fixed.is_empty() && status != Status::Optimal {
        return Err("time limit reached before the first tier group was solved".to_string());
    }
    if !selection.satisfies_rows(&model.spec) {
        return Err("HiGHS answer breaks a hard row".to_string());
    }
    let values = selection.tier_values(&model.spec);
    size.candidates = model.spec.candidates.len();
    let summary = match status {
        Status::Optimal if source.is_some() => format!(
            "optimal over all {} pairs ({} candidates: {} listed, {} from the pair source (priced in by LP duals, or in an incumbent pairing); {} in the final programs, {} pricing rounds, {} odd-set rows + {} odd-set cuts, {} incumbents improved by partner exchange, {} closed on the LP face, {} at zero cost, {} by weighted matching (sparse blossom, proved by its duals, pairs left out priced by LP duals), {} HiGHS solves)",
            size.all_pairs,
            size.candidates,
            spec.candidates.len(),
            pool.from_source,
            pool.active.len(),
            pricing_rounds,
            size.odd_set_rows,
            cut_rows,
            exchanged,
            face_closed,
            costless_closed,
            matching_closed,
            size.solves,
        ),
        Status::Optimal => format!(
            "optimal over all {} pairs ({} allowed by the rules; {} in the final programs, {} pricing round{}, {} odd-set rows + {} odd-set cuts, {} closed on the LP face, {} at zero cost, {} by weighted matching (sparse blossom, proved by its duals, pairs left out priced by LP duals), {} HiGHS solves)",
            size.all_pairs,
            size.candidates,
            pool.active.len(),
            pricing_rounds,
            if pricing_rounds == 1 { "" } else { "s" },
            size.odd_set_rows,
            cut_rows,
            face_closed,
            costless_closed,
            matching_closed,
            size.solves,
        ),
        _ => format!(
            "feasible, not proved optimal: stopped after {} of {} tier groups (gap {:.2e})",
            fixed.len(),
            groups.len(),
            last_gap
        ),
    };
    let _ = dead_count;
    Ok(Outcome {
        selection,
        certificate: Certificate {
            status,
            tiers: tier_values(spec, &values, Some(&proof)),
            gap: last_gap,
            model: size,
            seconds: 0.0,
            summary,
        },
        extended: source.map(|_| model.spec),
    })
}

/// The group's optimum by an exact weighted matching (models/swiss.md, item 9), when the
/// round is a plain matching (no system rows, at most one bye). Only columns that
/// could beat `incumbent` take part: a pairing keeping the earlier optima is worth the LP
/// bound plus at least the reduced costs of its columns, so one better than the incumbent uses
/// none whose reduced cost reaches the incumbent's gap. The matching over them is then
/// completed like a MIP (`complete`) and solved again if pairs were added; `improved` takes
/// each pairing found, as a start for a MIP should the second matching not run.
fn weighted_closing(
    model: &mut Model,
    priced: &Priced,
    lp: &Solved,
    set: &mut ColumnSet,
    incumbent: &Selection,
    improved: &mut Selection,
) -> Option<Selection> {
    let Priced {
        group,
        fixed,
        extra_index,
        ..
    } = *priced;
    if !model.spec.rows.is_empty() || model.spec.max_byes > 1 {
        return None;
    }
    let tiers: Vec<usize> = fixed
        .iter()
        .flat_map(|(g, _)| g.iter().map(|&(t, _)| t))
        .chain(group.iter().map(|&(t, _)| t))
        .collect();
    let value = |spec: &RoundSpec, sel: &Selection, g: &[(usize, i128)]| -> i128 {
        let tv = sel.tier_values(spec);
        g.iter().map(|&(t, w)| w * tv[t] as i128).sum()
    };
    let n = model.cols.players;
    let nb = model.cols.byes;
    let na = lp.values.len() - nb - n;
    // The reduced costs of the bye and unpaired columns, from the LP (all columns are in it).
    let side = |l: usize| lp.reduced.get(na + l).copied().unwrap_or(f64::NEG_INFINITY);
    let exact = |model: &Model, active: &[usize], best: &Selection| -> Option<Selection> {
        let gap = value(&model.spec, best, group) as f64 - lp.objective + 1e-6;
        let pairs: Vec<usize> = active
            .iter()
            .copied()
            .filter(|&k| {
                best.pairs.binary_search(&k).is_ok()
                    || model.reduced_cost(k, group, fixed, lp, extra_index) < gap
            })
            .collect();
        let dead_bye: Vec<bool> = (0..nb)
            .map(|j| {
                model.dead_bye[j]
                    || !(best.byes.contains(&model.spec.byes[j].player) || side(j) < gap)
            })
            .collect();
        let dead_unpaired: Vec<bool> = (0..n)
            .map(|i| model.dead_unpaired[i] || !(best.unpaired.contains(&i) || side(nb + i) < gap))
            .collect();
        lexmatch::lexicographic(
            &lexmatch::Restricted {
                spec: &model.spec,
                costs: &model.costs,
                pairs: &pairs,
                dead_bye: &dead_bye,
                dead_unpaired: &dead_unpaired,
                prefer: &best.pairs,
            },
            &tiers,
        )
        // Kept only if it keeps every earlier optimum and beats or ties the incumbent (it
        // must: the incumbent is among its columns).
        .filter(|sel| {
            fixed
                .iter()
                .all(|(g, opt)| value(&model.spec, sel, g) <= *opt)
                && value(&model.spec, sel, group) <= value(&model.spec, best, group)
        })
    };
    let sel = exact(model, &set.active, incumbent)?;
    let gap = value(&model.spec, &sel, group) as f64 - lp.objective;
    *improved = sel.clone();
    if gap > 1e-6 && complete(model, priced, lp, gap, set) {
        let again = exact(model, &set.active, &sel)?;
        *improved = again.clone();
        return Some(again);
    }
    Some(sel)
}

/// A restricted optimum `gap` above the LP bound: every excluded pair whose reduced cost is
/// below the gap could still improve it, so all of them become active (from the source too:
/// the completion proves nothing if one is left out). Returns whether any was added.
fn complete(
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
        extra_index,
    } = *priced;
    let mut added = false;
    if let Some(src) = source {
        let unlisted = price_source(model, src, group, fixed, closed, lp, &set.listed, gap, None);
        set.from_source += unlisted.len();
        added |= !unlisted.is_empty();
        grow(model, unlisted, set);
    }
    let more: Vec<usize> = (0..model.spec.candidates.len())
        .filter(|&k| !set.in_active[k] && !set.dead[k])
        .filter(|&k| model.reduced_cost(k, group, fixed, lp, extra_index) < gap - EPS)
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
/// groups' rows, the closed groups (for pairs of the source), the layout of system rows.
#[derive(Clone, Copy)]
struct Priced<'a> {
    source: Option<&'a dyn PairSource>,
    group: &'a [(usize, i128)],
    fixed: &'a [(Vec<(usize, i128)>, i128)],
    closed: &'a [Closed],
    extra_index: &'a [Vec<usize>],
}

/// The growing column set: pairs listed so far (the specification's and those priced in from
/// the source, counted in `from_source`), the active ones, and those fixed at 0.
struct ColumnSet {
    listed: HashSet<(usize, usize)>,
    from_source: usize,
    active: Vec<usize>,
    in_active: Vec<bool>,
    dead: Vec<bool>,
}

/// The greedy pass over a source: the cheapest bye option, then players in rank order, each
/// paired with the free partner of lexicographically smallest cost among its own class and,
/// if none is free there, the nearest classes below and above.
fn source_greedy(spec: &RoundSpec, src: &dyn PairSource) -> (Vec<Candidate>, Option<usize>) {
    let n = spec.players.len();
    let classes = (0..n).map(|i| src.class(i)).max().map_or(0, |m| m + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); classes];
    for i in 0..n {
        members[src.class(i)].push(i);
    }
    let mut taken = vec![false; n];
    let bye = if spec.max_byes > 0 {
        spec.byes
            .iter()
            .min_by(|x, y| x.costs.cmp(&y.costs).then(x.player.cmp(&y.player)))
            .map(|b| b.player)
    } else {
        None
    };
    if let Some(b) = bye {
        taken[b] = true;
    }
    let mut pairs = Vec::new();
    for i in 0..n {
        if taken[i] {
            continue;
        }
        let g = src.class(i);
        let mut best: Option<Candidate> = None;
        for step in 0..classes {
            for h in [g + step, g.wrapping_sub(step)] {
                if h >= classes || (step == 0 && h != g) {
                    continue;
                }
                for &j in &members[h] {
                    if j == i || taken[j] {
                        continue;
                    }
                    let Some(c) = src.pair(i.min(j), i.max(j)) else {
                        continue;
                    };
                    if best.as_ref().is_none_or(|b| c.costs < b.costs) {
                        best = Some(c);
                    }
                }
            }
            if best.is_some() {
                break;
            }
        }
        if let Some(c) = best {
            taken[c.a] = true;
            taken[c.b] = true;
            pairs.push(c);
        }
    }
    (pairs, bye)
}

/// A pair's cost (its spec costs, tier t at index t − 1) weighted by a tier group.
fn weigh(costs: &[i64], group: &[(usize, i128)]) -> f64 {
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
struct Closed {
    group: Vec<(usize, i128)>,
    deg: Vec<f64>,
    odd: Vec<f64>,
    fix: Vec<f64>,
    /// The group's optimum minus its LP bound.
    gap: f64,
}

impl Closed {
    fn reduced_cost(
        &self,
        model: &Model,
        fixed: &[(Vec<(usize, i128)>, i128)],
        c: &Candidate,
    ) -> f64 {
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

/// The pairs of a pairing found outside the LP (a greedy pass, partner exchanges) as indices
/// into the model's candidates, sorted; those not listed yet are appended (`grow`).
fn adopt(model: &mut Model, pairs: &[Candidate], set: &mut ColumnSet) -> Vec<usize> {
    let mut index: HashMap<(usize, usize), usize> = model
        .spec
        .candidates
        .iter()
        .enumerate()
        .map(|(k, c)| ((c.a, c.b), k))
        .collect();
    let new: Vec<Candidate> = pairs
        .iter()
        .filter(|c| !index.contains_key(&(c.a, c.b)))
        .cloned()
        .collect();
    set.from_source += new.len();
    let at = model.spec.candidates.len();
    for (i, c) in new.iter().enumerate() {
        index.insert((c.a, c.b), at + i);
    }
    grow(model, new, set);
    let mut indices: Vec<usize> = pairs.iter().map(|c| index[&(c.a, c.b)]).collect();
    indices.sort_unstable();
    indices
}

/// Makes the columns `pairs` active (an incumbent's pairs are columns of every restricted
/// program from then on).
fn activate(pairs: &[usize], active: &mut Vec<usize>, in_active: &mut [bool]) {
    for &k in pairs {
        if !in_active[k] {
            in_active[k] = true;
            active.push(k);
        }
    }
    active.sort_unstable();
}

/// Appends pairs priced in from a source to the model's candidates, active from now on.
fn grow(model: &mut Model, more: Vec<Candidate>, set: &mut ColumnSet) {
    let at = model.cols.pairs;
    let new_costs: Vec<Vec<i64>> = more
        .iter()
        .map(|c| std::iter::once(0).chain(c.costs.iter().copied()).collect())
        .collect();
    model.costs.splice(at..at, new_costs);
    for c in more {
        set.listed.insert((c.a, c.b));
        set.active.push(model.spec.candidates.len());
        set.in_active.push(true);
        set.dead.push(false);
        model.extra_on_pair.push(Vec::new());
        model.spec.candidates.push(c);
    }
    model.cols.pairs = model.spec.candidates.len();
    set.active.sort_unstable();
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
fn price_source(
    model: &Model,
    src: &dyn PairSource,
    group: &[(usize, i128)],
    fixed: &[(Vec<(usize, i128)>, i128)],
    closed: &[Closed],
    lp: &Solved,
    listed: &HashSet<(usize, usize)>,
    below: f64,
    cap: Option<usize>,
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
    // `count`: runs bounded, pairs past the bound, pairs built (for OPTIPAIR_TRACE).
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
                    loop {
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
    if std::env::var_os("OPTIPAIR_TRACE").is_some() {
        eprintln!(
            "trace: pricing below {below}: {} runs, {} pairs past the bound, {} built, {} found in {:.3} s",
            count[0],
            count[1],
            count[2],
            found.len(),
            t_start.elapsed().as_secs_f64()
        );
    }
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

/// The proof that a tier group's optimum is 0, when the incumbent `sel` costs nothing on it
/// and no column (listed, or any pair of the source) costs less than 0: an LP answer with all
/// duals 0, so that every column's reduced cost is its cost. Pairs and byes that cost
/// anything are then out of every optimum (`fix_by_reduced_cost`, `restrict_to_optimal_face`).
fn costless(
    model: &Model,
    source: Option<&dyn PairSource>,
    active: &[usize],
    group: &[(usize, i128)],
    fixed: &[(Vec<(usize, i128)>, i128)],
    sel: &Selection,
) -> Option<Solved> {
    let spec = &model.spec;
    if model
        .costs
        .iter()
        .any(|c| group.iter().any(|&(t, _)| c[t] < 0))
    {
        return None;
    }
    if let Some(src) = source {
        let classes = (0..spec.players.len())
            .map(|i| src.class(i))
            .max()
            .map_or(0, |m| m + 1);
        for g in 0..classes {
            for h in g..classes {
                let low = src.lower(g, h);
                if group.iter().any(|&(t, _)| t > 0 && low[t - 1] < 0) {
                    return None;
                }
            }
        }
    }
    let (nb, n) = (model.cols.byes, model.cols.players);
    let values_of = |sel: &Selection| -> Option<Vec<f64>> {
        let mut values = vec![0.0; active.len() + nb + n];
        for &k in &sel.pairs {
            values[active.binary_search(&k).ok()?] = 1.0;
        }
        for &p in &sel.byes {
            values[active.len() + spec.byes.iter().position(|b| b.player == p)?] = 1.0;
        }
        for &p in &sel.unpaired {
            values[active.len() + nb + p] = 1.0;
        }
        Some(values)
    };
    let global = active
        .iter()
        .copied()
        .chain(model.cols.pairs..model.cols.count());
    let reduced = global.map(|g| model.coef(g, group) as f64).collect();
    let extra = spec
        .rows
        .iter()
        .map(|r| usize::from(r.min.is_some()) + usize::from(r.max.is_some()))
        .sum();
    let mut lp = Solved {
        proved: true,
        status: HighsModelStatus::Optimal,
        objective: 0.0,
        bound: Some(0.0),
        gap: 0.0,
        values: values_of(sel)?,
        deg: vec![0.0; n],
        bye: 0.0,
        odd: vec![0.0; model.sets.len()],
        extra: vec![0.0; extra],
        fix: vec![0.0; fixed.len()],
        reduced,
        rows: 0,
        nonzeros: 0,
    };
    // The incumbent, or else a pairing of the columns that cost nothing here; either must
    // keep every earlier group's optimum and the system's rows.
    let fits = |sel: &Selection| {
        let tv = sel.tier_values(spec);
        let value =
            |g: &[(usize, i128)]| -> i128 { g.iter().map(|&(t, w)| w * tv[t] as i128).sum() };
        value(group) == 0
            && sel.byes.len() <= spec.max_byes
            && sel.satisfies_rows(spec)
            && fixed.iter().all(|(g, opt)| value(g) <= *opt)
    };
    if !fits(sel) {
        let other = face_pairing(model, active, &lp).filter(|s| fits(s))?;
        lp.values = values_of(&other)?;
    }
    Some(lp)
}

/// A pairing made only of columns of zero reduced cost — pairs, byes, players left unpaired
/// — grown by matching (`matching::cover`) from the LP optimum's own integral pairs. Every
/// such pairing that keeps the rows is on the LP optimum's face when its value meets the
/// bound; the caller checks that value.
fn face_pairing(model: &Model, active: &[usize], lp: &Solved) -> Option<Selection> {
    const TOL: f64 = 1e-6;
    /// Players who may take a bye or sit out: the matching's helper graph grows with their
    /// square.
    const MAX_OPTIONAL: usize = 256;
    if lp.reduced.len() != lp.values.len() {
        return None;
    }
    let spec = &model.spec;
    let n = model.cols.players;
    let na = active.len();
    let mut edges = Vec::new();
    let mut start = Vec::new();
    let mut index: HashMap<(usize, usize), usize> = HashMap::new();
    for (l, &k) in active.iter().enumerate() {
        if lp.reduced[l] <= TOL {
            let c = &spec.candidates[k];
            index.entry((c.a.min(c.b), c.a.max(c.b))).or_insert(k);
            edges.push((c.a, c.b));
            if lp.values[l] > 1.0 - TOL {
                start.push((c.a, c.b));
            }
        }
    }
    let mut bye_ok = vec![false; n];
    for (j, b) in spec.byes.iter().enumerate() {
        if !model.dead_bye[j] && lp.reduced[na + j] <= TOL {
            bye_ok[b.player] = true;
        }
    }
    let out_ok: Vec<bool> = (0..n)
        .map(|i| !model.dead_unpaired[i] && lp.reduced[na + model.cols.byes + i] <= TOL)
        .collect();
    let optional: Vec<bool> = (0..n).map(|i| bye_ok[i] || out_ok[i]).collect();
    let mate = super::matching::cover(n, &edges, &optional, &start, MAX_OPTIONAL)?;
    let mut sel = Selection::default();
    for (i, m) in mate.iter().enumerate() {
        match *m {
            Some(j) if i < j => sel.pairs.push(index[&(i, j)]),
            Some(_) => {}
            None if bye_ok[i] && (sel.byes.len() < spec.max_byes || !out_ok[i]) => sel.byes.push(i),
            None => sel.unpaired.push(i),
        }
    }
    sel.pairs.sort_unstable();
    Some(sel)
}

/// Reduced-cost fixing: with LP bound `L` and integer optimum `L + gap` of a group, a pair whose
/// reduced cost exceeds the gap is in no optimal pairing of the group, so it is removed from
/// every later program. Returns how many pairs were removed.
#[allow(clippy::too_many_arguments)]
fn fix_by_reduced_cost(
    model: &Model,
    group: &[(usize, i128)],
    fixed: &[(Vec<(usize, i128)>, i128)],
    lp: &Solved,
    extra_index: &[Vec<usize>],
    gap: f64,
    dead: &mut [bool],
    active: &mut Vec<usize>,
    in_active: &mut [bool],
    keep: &Selection,
) -> usize {
    let mut count = 0;
    for k in 0..dead.len() {
        if dead[k] || keep.pairs.binary_search(&k).is_ok() {
            continue;
        }
        if model.reduced_cost(k, group, fixed, lp, extra_index) > gap.max(0.0) + 1e-5 {
            dead[k] = true;
            in_active[k] = false;
            count += 1;
        }
    }
    active.retain(|&k| !dead[k]);
    count
}

/// When a group's LP bound is met by an integer pairing, the pairings optimal for the group
/// are exactly those on the LP optimum's face (complementary slackness): columns with positive
/// reduced cost stay at 0 (pairs: `fix_by_reduced_cost`; byes and unpaired: here) and rows with
/// a nonzero dual hold with equality. Restricting later programs to that face leaves the
/// earlier group's row redundant, so the next LP is not cut by a knapsack row — the row is
/// kept anyway, as a guard against numerical error in the duals.
fn restrict_to_optimal_face(model: &mut Model, lp: &Solved, keep: &Selection) {
    const TOL: f64 = 1e-6;
    let spec = &model.spec;
    if lp.reduced.len() != lp.values.len() || lp.extra.iter().chain(&lp.fix).any(|d| d.abs() > TOL)
    {
        return;
    }
    let na = lp.values.len() - model.cols.byes - model.cols.players;
    let byes: Vec<usize> = spec.byes.iter().map(|b| b.player).collect();
    for (j, p) in byes.into_iter().enumerate() {
        if lp.reduced[na + j] > TOL && !keep.byes.contains(&p) {
            model.dead_bye[j] = true;
        }
    }
    for i in 0..model.cols.players {
        if lp.reduced[na + model.cols.byes + i] > TOL && !keep.unpaired.contains(&i) {
            model.dead_unpaired[i] = true;
        }
    }
    for (s, d) in lp.odd.iter().enumerate() {
        if d.abs() > TOL {
            model.tight[s] = true;
        }
    }
    if lp.bye.abs() > TOL {
        model.bye_tight = true;
    }
}

/// Parity sets violated by an LP solution: components of its fractional support (an odd cycle
/// of halves is the typical case; with a fractional bye, even components too). Their rows
/// (odd: `x(δ(S)) + y(S) + u(S) ≥ 1`, even: `x(δ(S)) + u(S) ≥ y(S)`) hold for every pairing.
fn separate(model: &Model, active: &[usize], values: &[f64]) -> Vec<Vec<bool>> {
    let spec = &model.spec;
    let n = spec.players.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let mut touched = vec![false; n];
    for (l, &k) in active.iter().enumerate() {
        let v = values[l];
        if v > 1e-6 && v < 1.0 - 1e-6 {
            let c = &spec.candidates[k];
            touched[c.a] = true;
            touched[c.b] = true;
            let (ra, rb) = (find(&mut parent, c.a), find(&mut parent, c.b));
            if ra != rb {
                parent[ra] = rb;
            }
        }
    }
    let na = active.len();
    for (j, b) in spec.byes.iter().enumerate() {
        let v = values[na + j];
        if v > 1e-6 && v < 1.0 - 1e-6 {
            touched[b.player] = true;
        }
    }
    // The even-set rows below hold for one bye only (two byes inside an even set need no
    // pair to leave it); with several byes only odd sets are used.
    let with_bye = spec.max_byes == 1 && !spec.byes.is_empty();
    let mut members: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (i, &t) in touched.iter().enumerate() {
        if t {
            let r = find(&mut parent, i);
            members.entry(r).or_default().push(i);
        }
    }
    let mut out = Vec::new();
    for (_, m) in members {
        let odd = m.len() % 2 == 1;
        if m.len() < 2 || (!odd && !with_bye) {
            continue;
        }
        let mut inside = vec![false; n];
        for &i in &m {
            inside[i] = true;
        }
        let mut lhs = 0.0;
        for (l, &k) in active.iter().enumerate() {
            let c = &spec.candidates[k];
            if inside[c.a] != inside[c.b] {
                lhs += values[l];
            }
        }
        let mut bye_in = 0.0;
        for (j, b) in spec.byes.iter().enumerate() {
            if inside[b.player] {
                bye_in += values[na + j];
            }
        }
        for &i in &m {
            lhs += values[na + model.cols.byes + i];
        }
        let violated = if odd {
            lhs + bye_in < 1.0 - 1e-6
        } else {
            lhs < bye_in - 1e-6
        };
        if violated && !model.sets.contains(&inside) {
            out.push(inside);
        }
    }
    out
}

/// The LP solution as a pairing, if it is integral.
fn integral(
    values: &[f64],
    active: &[usize],
    cols: &Columns,
    spec: &RoundSpec,
) -> Option<Selection> {
    if values.iter().any(|&v| v > 1e-6 && v < 1.0 - 1e-6) {
        return None;
    }
    Some(read_local(values, active, cols, spec))
}

fn read_local(values: &[f64], active: &[usize], cols: &Columns, spec: &RoundSpec) -> Selection {
    let mut sel = Selection::default();
    let na = active.len();
    for (l, &v) in values.iter().enumerate() {
        if v < 0.5 {
            continue;
        }
        if l < na {
            sel.pairs.push(active[l]);
        } else if l < na + cols.byes {
            sel.byes.push(spec.byes[l - na].player);
        } else {
            sel.unpaired.push(l - na - cols.byes);
        }
    }
    sel.pairs.sort_unstable();
    sel
}

/// With OPTIPAIR_TRACE set, one line on standard error per HiGHS solve.
#[allow(clippy::too_many_arguments)]
fn trace_solve(
    kind: &str,
    group: &[(usize, i128)],
    cols: &str,
    rows: usize,
    fixed: usize,
    solved: &highs::SolvedModel,
    seconds: f64,
    build: f64,
) {
    if std::env::var_os("OPTIPAIR_TRACE").is_some() {
        eprintln!(
            "trace: {kind} tiers {:?} cols {cols} rows {rows} fixed {fixed} -> {:?} obj {} in {seconds:.3} s (build {build:.3} s) iters {}",
            group.iter().map(|g| g.0).collect::<Vec<_>>(),
            solved.status(),
            solved.objective_value(),
            iters(solved),
        );
    }
}

/// Simplex iterations of the last HiGHS solve (for OPTIPAIR_TRACE).
fn iters(s: &highs::SolvedModel) -> i32 {
    let mut v: highs_sys::HighsInt = -1;
    // SAFETY: a live HiGHS instance and a NUL-terminated option name; HiGHS only reads it.
    unsafe {
        highs_sys::Highs_getIntInfoValue(
            s.as_ptr() as *mut _,
            c"simplex_iteration_count".as_ptr(),
            &mut v,
        );
    }
    v as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_keep_weights_exact() {
        // Small ranges share one solve; a huge range forces a split.
        let g = group_tiers(&[10, 10, 10], &[1, 1, 1]);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0], vec![(0, 121), (1, 11), (2, 1)]);
        let g = group_tiers(&[10, 1 << 30, 10], &[1, 1 << 10, 1]);
        assert!(g.len() >= 2);
        for grp in &g {
            for &(t, w) in grp {
                assert!(w * [1i128, 1 << 10, 1][t] <= MAX_WEIGHT);
            }
        }
    }
}
