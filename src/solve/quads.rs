//! Quad membership as a small integer program: NSC06 "the computer program will adjust the
//! quad pairings accordingly, with minimum adjustments" (models/nsc2006.md). The problem is
//! stated in [`crate::spec::quads`]; the system receives this solver as
//! [`crate::spec::Programs`] and never imports it.
//!
//! A pod is a slot with a base membership (the quad the document's formula gives). Binary
//! `x[p][q]` puts player `p` in slot `q`; every slot keeps its size and every player gets one
//! slot. Pairs that may not meet again share no slot (hard), or, when the problem says
//! `soft`, share one only as a counted barred repeat; pairs whose meeting is a permitted repeat
//! cost one repeat each. Objective, lexicographic by up to three solves: (0, `soft` only)
//! fewest barred pairs together; (1) fewest players moved out of their base slot; (2) with
//! those fixed, fewest repeats, then the least total slot distance moved (a near move is a
//! smaller change than a far one).

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
/// membership within the allowed slots keeps the forbidden pairs apart (never with `soft`).
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
            barred: 0,
        });
    }
    let moved_of = |x: &[usize]| {
        x.iter()
            .enumerate()
            .filter(|(i, q)| **q != base[*i])
            .count()
    };
    let pods_of = |x: &[usize]| {
        let mut pods = vec![Vec::new(); p.pods.len()];
        for (i, q) in x.iter().enumerate() {
            pods[*q].push(i);
        }
        pods
    };
    let barred = if p.soft {
        let x = solve_stage(p, &base, Stage::Barred)?;
        count_repeats(&pods_of(&x), &p.forbidden)
    } else {
        0
    };
    let first = solve_stage(p, &base, Stage::Moves { barred })?;
    let moved = moved_of(&first);
    let x = solve_stage(p, &base, Stage::Near { barred, moved })?;
    let pods = pods_of(&x);
    Ok(QuadSolution {
        moved: moved_of(&x),
        repeats: count_repeats(&pods, &p.repeats),
        barred: count_repeats(&pods, &p.forbidden),
        pods,
    })
}

/// What one solve minimises, with the optima of the stages before it as constraints.
#[derive(Clone, Copy)]
enum Stage {
    /// Forbidden pairs sharing a slot (only with `soft`).
    Barred,
    /// Players moved, with at most `barred` forbidden pairs together.
    Moves { barred: usize },
    /// Repeats·(D+1) + distance moved (D bounds the distance), with the optima above kept.
    Near { barred: usize, moved: usize },
}

/// Binary `y ≥ x[a,q] + x[b,q] − 1` for each pair and common slot: the pair shares slot q.
type Together = Vec<(Variable, usize, usize, usize)>;

fn together(
    vars: &mut ProblemVariables,
    pairs: &[(usize, usize)],
    cols: &[Vec<(usize, Variable)>],
) -> Together {
    let mut y = Vec::new();
    for &(a, b) in pairs {
        for &(q, _) in &cols[a] {
            if cols[b].iter().any(|(s, _)| *s == q) {
                y.push((vars.add(variable().min(0).max(1)), a, b, q));
            }
        }
    }
    y
}

/// A greedy cover of the forbidden pairs by cliques (each pair in at least one clique of
/// three or more, or left out): the players of a clique who share a slot hold all their
/// pairs there.
fn cliques(p: &QuadProblem) -> Vec<Vec<usize>> {
    let mut adj = vec![vec![false; p.players]; p.players];
    for &(a, b) in &p.forbidden {
        adj[a][b] = true;
        adj[b][a] = true;
    }
    let mut covered = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for &(a, b) in &p.forbidden {
        if covered.contains(&(a.min(b), a.max(b))) {
            continue;
        }
        let mut k = vec![a, b];
        for c in (0..p.players)
            .filter(|c| !k.contains(c))
            .collect::<Vec<_>>()
        {
            if k.iter().all(|&m| adj[m][c]) {
                k.push(c);
            }
        }
        for (i, &x) in k.iter().enumerate() {
            for &y in &k[i + 1..] {
                covered.insert((x.min(y), x.max(y)));
            }
        }
        if k.len() >= 3 {
            out.push(k);
        }
    }
    out
}

/// Valid cuts that make the LP bound on barred pairs tight for cliques: if n players of a
/// clique K share slot q, C(n, 2) of K's pairs share it, and C(n, 2) ≥ k·n − k(k+1)/2 for
/// every integer k. Each expression returned is ≥ 0.
fn clique_cuts(
    p: &QuadProblem,
    cols: &[Vec<(usize, Variable)>],
    barred_y: &Together,
) -> Vec<Expression> {
    let y: std::collections::HashMap<(usize, usize, usize), Variable> = barred_y
        .iter()
        .map(|&(v, a, b, q)| ((a.min(b), a.max(b), q), v))
        .collect();
    let mut out = Vec::new();
    for k in cliques(p) {
        for (q, pod) in p.pods.iter().enumerate() {
            let xs: Vec<Variable> = k
                .iter()
                .filter_map(|&i| cols[i].iter().find(|(s, _)| *s == q).map(|(_, v)| *v))
                .collect();
            let mut pairs = Expression::default();
            for (i, &a) in k.iter().enumerate() {
                for &b in &k[i + 1..] {
                    if let Some(v) = y.get(&(a.min(b), a.max(b), q)) {
                        pairs.add_mul(1.0, *v);
                    }
                }
            }
            for m in 1..pod.len().min(xs.len()) {
                let mut e = pairs.clone();
                for &x in &xs {
                    e.add_mul(-(m as f64), x);
                }
                out.push(e + (m * (m + 1) / 2) as f64);
            }
        }
    }
    out
}

/// One solve of `stage`. Returns each player's slot.
fn solve_stage(p: &QuadProblem, base: &[usize], stage: Stage) -> Result<Vec<usize>, String> {
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
    let barred_y = if p.soft {
        together(&mut vars, &p.forbidden, &cols)
    } else {
        Vec::new()
    };
    let repeat_y = if matches!(stage, Stage::Near { .. }) {
        together(&mut vars, &p.repeats, &cols)
    } else {
        Vec::new()
    };
    let mut objective = Expression::default();
    for (i, c) in cols.iter().enumerate() {
        for &(q, v) in c {
            let d = q.abs_diff(base[i]);
            match stage {
                Stage::Moves { .. } if d > 0 => objective.add_mul(1.0, v),
                Stage::Near { .. } if d > 0 => objective.add_mul(d as f64, v),
                _ => {}
            }
        }
    }
    match stage {
        Stage::Barred => barred_y
            .iter()
            .for_each(|&(v, ..)| objective.add_mul(1.0, v)),
        Stage::Near { .. } => repeat_y
            .iter()
            .for_each(|&(v, ..)| objective.add_mul((dist_max + 1) as f64, v)),
        Stage::Moves { .. } => {}
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
    if !p.soft {
        for &(a, b) in &p.forbidden {
            for &(q, va) in &cols[a] {
                if let Some(vb) = var_of(b, q) {
                    model.add_constraint((va + vb).leq(1));
                }
            }
        }
    }
    for &(v, a, b, q) in barred_y.iter().chain(&repeat_y) {
        let (va, vb) = (var_of(a, q).unwrap(), var_of(b, q).unwrap());
        model.add_constraint((va + vb - v).leq(1));
    }
    for e in clique_cuts(p, &cols, &barred_y) {
        model.add_constraint(e.geq(0));
    }
    if let Stage::Moves { barred } | Stage::Near { barred, .. } = stage {
        if p.soft {
            let e: Expression = barred_y.iter().map(|&(v, ..)| v).sum();
            model.add_constraint(e.leq(barred as f64));
        }
    }
    if let Stage::Near { moved, .. } = stage {
        let mut kept = Expression::default();
        for (i, c) in cols.iter().enumerate() {
            for &(q, v) in c {
                if q == base[i] {
                    kept.add_mul(1.0, v);
                }
            }
        }
        model.add_constraint(kept.geq((p.players - moved) as f64));
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
