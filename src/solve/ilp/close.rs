//! Closing a tier group: proving its optimum and finding a pairing that reaches it, by the
//! cheapest means that works — a zero bound with no LP ([`costless`]), a pairing on the LP
//! optimum's face ([`face_pairing`]), an exact weighted matching ([`weighted_closing`]), or a
//! HiGHS MIP ([`by_mip`]) — and what a closed group leaves for the next ones: pairs and
//! columns fixed at 0 by reduced cost, rows held tight on the optimal face.

use super::columns::{read_local, ColumnSet};
use super::model::{Model, Solved};
use super::prepare::Fixed;
use super::pricing::{complete, Priced};
use crate::solve::{lexmatch, Options, Selection, SolveError};
use crate::spec::{PairSource, RoundSpec};
use highs::HighsModelStatus;
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

/// The group's optimum by an exact weighted matching (models/swiss.md, item 9), when the
/// round is a plain matching (no system rows, at most one bye). Only columns that
/// could beat `incumbent` take part: a pairing keeping the earlier optima is worth the LP
/// bound plus at least the reduced costs of its columns, so one better than the incumbent uses
/// none whose reduced cost reaches the incumbent's gap. The matching over them is then
/// completed like a MIP (`complete`) and solved again if pairs were added; `improved` takes
/// each pairing found, as a start for a MIP should the second matching not run.
pub(super) fn weighted_closing(
    model: &mut Model,
    priced: &Priced,
    lp: &Solved,
    set: &mut ColumnSet,
    incumbent: &Selection,
    improved: &mut Selection,
    dump: Option<&Path>,
) -> Option<Selection> {
    let Priced { group, fixed, .. } = *priced;
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
                    || model.reduced_cost(k, group, fixed, lp) < gap
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
                dump,
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

/// The proof that a tier group's optimum is 0, when the incumbent `sel` costs nothing on it
/// and no column (listed, or any pair of the source) costs less than 0: an LP answer with all
/// duals 0, so that every column's reduced cost is its cost. Pairs and byes that cost
/// anything are then out of every optimum (`fix_by_reduced_cost`, `restrict_to_optimal_face`).
pub(super) fn costless(
    model: &Model,
    source: Option<&dyn PairSource>,
    active: &[usize],
    group: &[(usize, i128)],
    fixed: &[Fixed],
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
    let extra = model.rows.count;
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
        iterations: 0,
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
pub(super) fn face_pairing(model: &Model, active: &[usize], lp: &Solved) -> Option<Selection> {
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
    let mate = crate::solve::matching::cover(n, &edges, &optional, &start, MAX_OPTIONAL)?;
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
pub(super) fn fix_by_reduced_cost(
    model: &Model,
    group: &[(usize, i128)],
    fixed: &[Fixed],
    lp: &Solved,
    gap: f64,
    set: &mut ColumnSet,
    keep: &Selection,
) -> usize {
    let mut count = 0;
    for k in 0..set.dead.len() {
        if set.dead[k] || keep.pairs.binary_search(&k).is_ok() {
            continue;
        }
        if model.reduced_cost(k, group, fixed, lp) > gap.max(0.0) + 1e-5 {
            set.dead[k] = true;
            set.in_active[k] = false;
            count += 1;
        }
    }
    let dead = &set.dead;
    set.active.retain(|&k| !dead[k]);
    count
}

/// A closed group: its pairing, exact value, the bound proving it, whether it is proved, and
/// the size of the last program solved for it.
pub(super) struct Closing {
    pub sel: Selection,
    pub opt: i128,
    pub bound: Option<f64>,
    pub proved: bool,
    pub rows: usize,
    pub nonzeros: usize,
}

/// The group's value of a selection: its tier values weighted.
pub(super) fn group_value(spec: &RoundSpec, sel: &Selection, group: &[(usize, i128)]) -> i128 {
    let tv = sel.tier_values(spec);
    group.iter().map(|&(t, w)| w * tv[t] as i128).sum()
}

/// What a MIP closing cost: HiGHS solves and simplex iterations, and its relative gap.
#[derive(Default)]
pub(super) struct MipWork {
    pub solves: usize,
    pub iterations: u64,
    pub gap: f64,
}

/// The group closed by a HiGHS MIP over the active pairs, started from `start`. A MIP optimum
/// above the LP bound is completed (`complete`: every pair left out that could still improve
/// it becomes a column) and solved again if pairs were added, so that it holds over all pairs.
#[allow(clippy::too_many_arguments)]
pub(super) fn by_mip(
    model: &mut Model,
    priced: &Priced,
    lp: &Solved,
    set: &mut ColumnSet,
    start: &Selection,
    opts: &Options,
    deadline: Option<Instant>,
    work: &mut MipWork,
) -> Result<Closing, SolveError> {
    let Priced { group, fixed, .. } = *priced;
    let lp_bound = lp.objective;
    let (mut mip, _) = model.run(&set.active, group, fixed, true, Some(start), opts, deadline)?;
    work.solves += 1;
    work.iterations += mip.iterations;
    let mut sel = read_local(&mip.values, &set.active, &model.cols, &model.spec);
    let mut opt = group_value(&model.spec, &sel, group);
    if mip.proved && (opt as f64) - lp_bound > 1e-6 {
        let gap = opt as f64 - lp_bound;
        if complete(model, priced, lp, gap, set) {
            mip = model
                .run(&set.active, group, fixed, true, Some(&sel), opts, deadline)?
                .0;
            work.solves += 1;
            work.iterations += mip.iterations;
            sel = read_local(&mip.values, &set.active, &model.cols, &model.spec);
            opt = group_value(&model.spec, &sel, group);
        }
    }
    work.gap = mip.gap;
    let proved = mip.proved && mip.bound.is_none_or(|b| (opt as f64) - b < 1.0 - 1e-6);
    Ok(Closing {
        sel,
        opt,
        bound: mip.bound,
        proved,
        rows: mip.rows,
        nonzeros: mip.nonzeros,
    })
}

/// When a group's LP bound is met by an integer pairing, the pairings optimal for the group
/// are exactly those on the LP optimum's face (complementary slackness): columns with positive
/// reduced cost stay at 0 (pairs: `fix_by_reduced_cost`; byes and unpaired: here) and rows with
/// a nonzero dual hold with equality. Restricting later programs to that face leaves the
/// earlier group's row redundant, so the next LP is not cut by a knapsack row — the row is
/// kept anyway, as a guard against numerical error in the duals.
pub(super) fn restrict_to_optimal_face(model: &mut Model, lp: &Solved, keep: &Selection) {
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
