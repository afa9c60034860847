//! The exact solve: one binary per candidate pair, HiGHS through good_lp.
//!
//! Tiers are minimised lexicographically. Consecutive tiers share one HiGHS solve only while
//! their combined weights stay exact and numerically safe (`MAX_WEIGHT`); otherwise each group
//! of tiers is solved in turn, with the optimum of every earlier group fixed by a row. Every
//! tier value reported is recomputed in integers from the chosen pairs.

use super::certificate::{tier_values, Certificate, ModelSize, Status};
use super::{Options, Selection};
use crate::systems::spec::{RoundSpec, Var};
use good_lp::{variable, Expression, ProblemVariables, SolverModel, Variable};
use highs::HighsModelStatus;
use std::sync::mpsc;
use std::time::Instant;

/// Largest objective coefficient (and group weight × range) in one solve. HiGHS scales costs
/// and works to tolerances near 1e-7, so a cost of 1 must stay visible beside the largest
/// coefficient: 2^20 keeps a factor of ten to spare.
const MAX_WEIGHT: i128 = 1 << 20;

pub struct Outcome {
    pub selection: Selection,
    pub certificate: Certificate,
}

/// Runs the exact solve on a worker thread and gives up at `deadline` (HiGHS overruns its own
/// limit, so the limit is enforced here; an abandoned worker ends with the process).
pub fn solve(spec: &RoundSpec, opts: &Options, deadline: Option<Instant>) -> Result<Outcome, String> {
    let (tx, rx) = mpsc::channel();
    let spec = spec.clone();
    let opts = opts.clone();
    std::thread::Builder::new()
        .name("highs".into())
        .spawn(move || {
            let _ = tx.send(solve_here(&spec, &opts, deadline));
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
    let mut costs = Vec::with_capacity(spec.candidates.len() + spec.byes.len() + spec.players.len());
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

/// Odd sets whose boundary must carry a pair: odd score groups, odd unions of the top groups,
/// and any the system names.
fn odd_sets(spec: &RoundSpec) -> Vec<Vec<usize>> {
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
        if g.len() % 2 == 1 && g.len() > 1 {
            sets.push(g.clone());
        }
        union.extend(g);
        if gi + 1 < groups.len() && union.len() % 2 == 1 && gi > 0 {
            sets.push(union.clone());
        }
    }
    sets.extend(spec.odd_sets.iter().filter(|s| s.len() % 2 == 1).cloned());
    sets.sort();
    sets.dedup();
    sets
}

fn solve_here(spec: &RoundSpec, opts: &Options, deadline: Option<Instant>) -> Result<Outcome, String> {
    let n = spec.players.len();
    let cols = Columns {
        pairs: spec.candidates.len(),
        byes: spec.byes.len(),
        players: n,
    };
    let costs = column_costs(spec);
    let ranges = tier_ranges(spec);
    let max_cost: Vec<i64> = (0..ranges.len())
        .map(|t| costs.iter().map(|c| c[t]).max().unwrap_or(0))
        .collect();
    let groups = group_tiers(&ranges, &max_cost);

    // Incidence: the columns touching each player.
    let mut incident: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, c) in spec.candidates.iter().enumerate() {
        incident[c.a].push(k);
        incident[c.b].push(k);
    }
    for (k, b) in spec.byes.iter().enumerate() {
        incident[b.player].push(cols.pairs + k);
    }
    for (i, inc) in incident.iter_mut().enumerate() {
        inc.push(cols.pairs + cols.byes + i);
    }
    let sets = if opts.odd_set_rows { odd_sets(spec) } else { Vec::new() };
    let mut set_rows: Vec<Vec<usize>> = Vec::with_capacity(sets.len());
    for s in &sets {
        let mut inside = vec![false; n];
        for &i in s {
            inside[i] = true;
        }
        let mut row: Vec<usize> = spec
            .candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| inside[c.a] != inside[c.b])
            .map(|(k, _)| k)
            .collect();
        for (k, b) in spec.byes.iter().enumerate() {
            if inside[b.player] {
                row.push(cols.pairs + k);
            }
        }
        row.extend(s.iter().map(|&i| cols.pairs + cols.byes + i));
        set_rows.push(row);
    }

    let mut fixed: Vec<(Vec<(usize, i128)>, i128)> = Vec::new();
    let mut selection = Selection::default();
    let mut proof: Vec<(Option<f64>, bool)> = vec![(None, false); ranges.len()];
    let mut size = ModelSize {
        players: n,
        all_pairs: spec.all_pairs(),
        candidates: spec.candidates.len(),
        columns: cols.count(),
        odd_set_rows: set_rows.len(),
        ..ModelSize::default()
    };
    let mut last_gap = 0.0;
    let mut status = Status::Optimal;
    let mut start_values: Option<Vec<f64>> = None;

    for group in &groups {
        let coef = |k: usize| -> i128 { group.iter().map(|&(t, w)| w * costs[k][t] as i128).sum() };
        let mut vars = ProblemVariables::new();
        let x: Vec<Variable> = (0..cols.count()).map(|_| vars.add(variable().binary())).collect();
        let mut objective = Expression::with_capacity(cols.count());
        for (k, &v) in x.iter().enumerate() {
            let c = coef(k);
            if c != 0 {
                objective.add_mul(c as f64, v);
            }
        }
        let mut model = vars.minimise(objective).using(good_lp::highs);
        let mut rows = 0usize;
        let mut nonzeros = 0usize;
        for inc in &incident {
            let e: Expression = inc.iter().map(|&k| x[k]).sum();
            model.add_constraint(e.eq(1));
            rows += 1;
            nonzeros += inc.len();
        }
        if cols.byes > 0 {
            let e: Expression = (0..cols.byes).map(|k| x[cols.pairs + k]).sum();
            model.add_constraint(e.leq(spec.max_byes as f64));
            rows += 1;
            nonzeros += cols.byes;
        }
        for row in &set_rows {
            let e: Expression = row.iter().map(|&k| x[k]).sum();
            model.add_constraint(e.geq(1));
            rows += 1;
            nonzeros += row.len();
        }
        for row in &spec.rows {
            let mut e = Expression::with_capacity(row.terms.len());
            for &(var, k) in &row.terms {
                let col = match var {
                    Var::Pair(c) => c,
                    Var::Bye(p) => match spec.byes.iter().position(|b| b.player == p) {
                        Some(j) => cols.pairs + j,
                        None => continue,
                    },
                    Var::Unpaired(p) => cols.pairs + cols.byes + p,
                };
                e.add_mul(k as f64, x[col]);
            }
            nonzeros += row.terms.len();
            if let Some(m) = row.min {
                model.add_constraint(e.clone().geq(m as f64));
                rows += 1;
            }
            if let Some(m) = row.max {
                model.add_constraint(e.leq(m as f64));
                rows += 1;
            }
        }
        for (fg, opt) in &fixed {
            let mut e = Expression::with_capacity(cols.count());
            for (k, &v) in x.iter().enumerate() {
                let c: i128 = fg.iter().map(|&(t, w)| w * costs[k][t] as i128).sum();
                if c != 0 {
                    e.add_mul(c as f64, v);
                    nonzeros += 1;
                }
            }
            model.add_constraint(e.leq(*opt as f64 + 0.5));
            rows += 1;
        }
        size.rows = size.rows.max(rows);
        size.nonzeros = size.nonzeros.max(nonzeros);
        size.solves += 1;

        let mut m = model
            .try_into_inner()
            .map_err(|e| format!("HiGHS rejected the model: {e}"))?;
        m.make_quiet();
        m.set_option("random_seed", opts.seed);
        m.set_option("mip_rel_gap", 0.0);
        m.set_option("mip_abs_gap", 0.5);
        m.set_option("threads", 1);
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
            m.set_option("time_limit", left.max(0.01));
        }
        if let Some(sol) = &start_values {
            // The previous group's optimum is feasible here: a warm start.
            let _ = m.try_set_solution(Some(sol), None, None, None);
        }
        let solved = m
            .try_solve()
            .map_err(|e| format!("HiGHS failed: {e:?}"))?;
        let st = solved.status();
        let values = solved.get_solution().columns().to_vec();
        let have_solution = values.len() == cols.count()
            && solved.primal_solution_status() == highs::HighsSolutionStatus::Feasible;
        if !have_solution {
            return Err(format!("HiGHS found no pairing (status {st:?})"));
        }
        let bound = solved
            .double_info_value(c"mip_dual_bound")
            .ok()
            .filter(|b| b.is_finite());
        let gap = solved.mip_gap();
        last_gap = if gap.is_finite() { gap } else { 0.0 };
        let sel = read_selection(&values, &cols, spec);
        let tv = sel.tier_values(spec);
        let opt: i128 = group.iter().map(|&(t, w)| w * tv[t] as i128).sum();
        let proved = st == HighsModelStatus::Optimal
            && bound.is_none_or(|b| (opt as f64) - b < 1.0 - 1e-6);
        // A bound for the group is the bound on its first tier; lower tiers are bounded given it.
        for &(t, w) in group {
            let b = bound.map(|b| {
                let above: i128 = group
                    .iter()
                    .filter(|&&(u, _)| u < t)
                    .map(|&(u, wu)| wu * tv[u] as i128)
                    .sum();
                ((b - above as f64) / w as f64).max(0.0)
            });
            proof[t] = (b.map(|v| v.min(tv[t] as f64)), proved);
        }
        selection = sel;
        start_values = Some(values);
        if !proved {
            status = Status::Feasible;
            break;
        }
        fixed.push((group.clone(), opt));
        if deadline.is_some_and(|d| Instant::now() >= d) && fixed.len() < groups.len() {
            status = Status::Feasible;
            break;
        }
    }
    if !selection.satisfies_rows(spec) {
        return Err("HiGHS answer breaks a hard row".to_string());
    }
    let values = selection.tier_values(spec);
    let summary = match status {
        Status::Optimal => format!(
            "optimal over all {} pairs ({} allowed, {} odd-set rows, {} HiGHS solve{})",
            size.all_pairs,
            size.candidates,
            size.odd_set_rows,
            size.solves,
            if size.solves == 1 { "" } else { "s" }
        ),
        _ => format!(
            "feasible, not proved optimal: stopped after {} of {} tier groups (gap {:.2e})",
            fixed.len(),
            groups.len(),
            last_gap
        ),
    };
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
    })
}

fn read_selection(values: &[f64], cols: &Columns, spec: &RoundSpec) -> Selection {
    let mut sel = Selection::default();
    for (k, &v) in values.iter().enumerate() {
        if v < 0.5 {
            continue;
        }
        if k < cols.pairs {
            sel.pairs.push(k);
        } else if k < cols.pairs + cols.byes {
            sel.byes.push(spec.byes[k - cols.pairs].player);
        } else {
            sel.unpaired.push(k - cols.pairs - cols.byes);
        }
    }
    sel
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
