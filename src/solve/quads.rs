//! Quad membership as a small integer program: NSC06 "the computer program will adjust the
//! quad pairings accordingly, with minimum adjustments" (models/nsc2006.md). The problem is
//! stated in [`crate::spec::quads`]; the system receives this solver as
//! [`crate::spec::Programs`] and never imports it.
//!
//! A pod is a slot with a base membership (the quad the document's formula gives). Binary
//! `x[p][q]` puts player `p` in slot `q`; every slot keeps its size and every player gets one
//! slot. Pairs that may not meet again share no slot (hard); pairs whose meeting is a
//! permitted repeat cost one repeat each. Objective, lexicographic by two solves: (1) fewest
//! players moved out of their base slot; (2) with that fixed, fewest repeats, then the least
//! total slot distance moved (a near move is a smaller change than a far one).

use crate::spec::quads::{QuadProblem, QuadSolution};
use good_lp::{variable, Expression, ProblemVariables, SolverModel, Variable};

fn base_slot(p: &QuadProblem) -> Vec<usize> {
    let mut base = vec![usize::MAX; p.players];
    for (q, pod) in p.pods.iter().enumerate() {
        for &i in pod {
            base[i] = q;
        }
    }
    base
}

fn count_repeats(pods: &[Vec<usize>], pairs: &[(usize, usize)]) -> usize {
    pairs
        .iter()
        .filter(|(a, b)| pods.iter().any(|pd| pd.contains(a) && pd.contains(b)))
        .count()
}

/// Solves `p`. The base membership is returned untouched when no forbidden pair shares a base
/// slot (zero moves is then optimal, and repeats are only ranked after moves). `Err` when no
/// membership within the allowed slots keeps the forbidden pairs apart.
pub fn solve(p: &QuadProblem) -> Result<QuadSolution, String> {
    let base = base_slot(p);
    if base.contains(&usize::MAX) {
        return Err("the base slots do not cover every player".into());
    }
    let clash = p.forbidden.iter().any(|&(a, b)| base[a] == base[b]);
    if !clash {
        let pods = p.pods.clone();
        let repeats = count_repeats(&pods, &p.repeats);
        return Ok(QuadSolution {
            pods,
            moved: 0,
            repeats,
        });
    }
    let first = solve_stage(p, &base, None)?;
    let fewest = first
        .iter()
        .enumerate()
        .filter(|(i, q)| **q != base[*i])
        .count();
    let x = solve_stage(p, &base, Some(fewest))?;
    let mut pods = vec![Vec::new(); p.pods.len()];
    for (i, q) in x.iter().enumerate() {
        pods[*q].push(i);
    }
    let moved = x
        .iter()
        .enumerate()
        .filter(|(i, q)| **q != base[*i])
        .count();
    let repeats = count_repeats(&pods, &p.repeats);
    Ok(QuadSolution {
        pods,
        moved,
        repeats,
    })
}

/// One solve: without `moved`, minimises moves; with it, keeps moves ≤ `moved` and minimises
/// repeats·(D+1) + distance (D bounds the distance). Returns each player's slot.
fn solve_stage(
    p: &QuadProblem,
    base: &[usize],
    moved: Option<usize>,
) -> Result<Vec<usize>, String> {
    let mut vars = ProblemVariables::new();
    // cols[i] = (slot, variable) for each allowed slot of player i.
    let mut cols: Vec<Vec<(usize, Variable)>> = Vec::with_capacity(p.players);
    for (i, &home) in base.iter().enumerate() {
        let mut slots: Vec<usize> = p.allowed.get(i).cloned().unwrap_or_default();
        slots.push(home);
        slots.sort_unstable();
        slots.dedup();
        cols.push(
            slots
                .into_iter()
                .map(|q| (q, vars.add(variable().binary())))
                .collect(),
        );
    }
    let var_of = |i: usize, q: usize| cols[i].iter().find(|(s, _)| *s == q).map(|(_, v)| *v);
    let dist_max: usize = (0..p.players)
        .map(|i| {
            cols[i]
                .iter()
                .map(|(q, _)| q.abs_diff(base[i]))
                .max()
                .unwrap_or(0)
        })
        .sum();
    let mut y: Vec<(Variable, usize, usize, usize)> = Vec::new();
    if moved.is_some() {
        for &(a, b) in &p.repeats {
            for &(q, _) in &cols[a] {
                if var_of(b, q).is_some() {
                    y.push((vars.add(variable().min(0).max(1)), a, b, q));
                }
            }
        }
    }
    let mut objective = Expression::default();
    match moved {
        None => {
            for (i, c) in cols.iter().enumerate() {
                for &(q, v) in c {
                    if q != base[i] {
                        objective.add_mul(1.0, v);
                    }
                }
            }
        }
        Some(_) => {
            for (i, c) in cols.iter().enumerate() {
                for &(q, v) in c {
                    let d = q.abs_diff(base[i]);
                    if d > 0 {
                        objective.add_mul(d as f64, v);
                    }
                }
            }
            for &(v, ..) in &y {
                objective.add_mul((dist_max + 1) as f64, v);
            }
        }
    }
    let mut model = vars.minimise(objective).using(good_lp::highs);
    for c in &cols {
        let e: Expression = c.iter().map(|(_, v)| *v).sum();
        model.add_constraint(e.eq(1));
    }
    for (q, pod) in p.pods.iter().enumerate() {
        let e: Expression = (0..p.players).filter_map(|i| var_of(i, q)).sum();
        model.add_constraint(e.eq(pod.len() as f64));
    }
    for &(a, b) in &p.forbidden {
        for &(q, va) in &cols[a] {
            if let Some(vb) = var_of(b, q) {
                model.add_constraint((va + vb).leq(1));
            }
        }
    }
    for &(v, a, b, q) in &y {
        let (va, vb) = (var_of(a, q).unwrap(), var_of(b, q).unwrap());
        model.add_constraint((va + vb - v).leq(1));
    }
    if let Some(m) = moved {
        let mut kept = Expression::default();
        for (i, c) in cols.iter().enumerate() {
            for &(q, v) in c {
                if q == base[i] {
                    kept.add_mul(1.0, v);
                }
            }
        }
        model.add_constraint(kept.geq((p.players - m) as f64));
    }
    let mut m = model
        .try_into_inner()
        .map_err(|e| format!("HiGHS rejected the quad model: {e}"))?;
    m.make_quiet();
    m.set_option("random_seed", 0);
    m.set_option("mip_rel_gap", 0.0);
    m.set_option("mip_abs_gap", 0.5);
    m.set_option("threads", 1);
    let solved = m
        .try_solve()
        .map_err(|e| format!("HiGHS failed on the quad model: {e:?}"))?;
    if solved.status() != highs::HighsModelStatus::Optimal {
        return Err(format!(
            "no quad membership keeps the barred pairs apart ({:?})",
            solved.status()
        ));
    }
    let values = solved.get_solution().columns().to_vec();
    let mut slot = vec![0usize; p.players];
    // Variables were created player by player, slot by slot: walk them in that order.
    let mut k = 0;
    for (i, c) in cols.iter().enumerate() {
        let mut best = (f64::MIN, 0usize);
        for &(q, _) in c {
            if values[k] > best.0 {
                best = (values[k], q);
            }
            k += 1;
        }
        slot[i] = best.1;
    }
    Ok(slot)
}
