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
//!
//! A slot that plays only some of its pairs ([`crate::spec::quads::Unplayed`]) counts, in the
//! soft stages, the barred games it must play, not the barred pairs it holds: a variable t ≥
//! (barred pairs there) − (pairs it leaves unplayed), 2t ≥ Σ_i (i's barred partners there −
//! the most partners one member leaves unplayed)⁺, and, each time a solve places members S
//! there that must play more, the cut t ≥ games(S)·(Σ_{e∈E} y_e − |E| + 1) over the barred
//! pairs E among S, then a new solve. A cut holds for every pod holding E (more barred pairs
//! never make a schedule play fewer); the loop ends when the placed members play no more than
//! the rows say, which is then exact, and every membership's t a lower bound.

use super::lp::{Expr, Program, Row, Var};
use crate::spec::quads::{QuadProblem, QuadSolution, Unplayed};

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

/// Barred games of `pods`: forbidden pairs sharing a slot, in the unplayed slot (soft only)
/// those it must play.
fn barred_games(p: &QuadProblem, pods: &[Vec<usize>]) -> usize {
    match partial(p) {
        None => count_repeats(pods, &p.forbidden),
        Some(u) => {
            let others: Vec<Vec<usize>> = (0..pods.len())
                .map(|q| {
                    if q == u.slot {
                        Vec::new()
                    } else {
                        pods[q].clone()
                    }
                })
                .collect();
            count_repeats(&others, &p.forbidden) + (u.games)(&pods[u.slot])
        }
    }
}

/// The slot counted by games, in the soft stages only.
fn partial(p: &QuadProblem) -> Option<&Unplayed> {
    p.unplayed
        .as_ref()
        .filter(|u| p.soft && u.slot < p.pods.len())
}

/// A cut: a pod holding every barred pair of `edges` plays at least `games` barred games (the
/// count of the members that showed it; more barred pairs never make a schedule play fewer,
/// so it holds for every pod with these pairs).
struct Cut {
    edges: Vec<(usize, usize)>,
    games: usize,
}

/// The barred pairs among `members`.
fn barred_among(p: &QuadProblem, members: &[usize]) -> Vec<(usize, usize)> {
    p.forbidden
        .iter()
        .copied()
        .filter(|(a, b)| members.contains(a) && members.contains(b))
        .collect()
}

/// The lower bound the program's rows put on the unplayed slot's barred games when it holds
/// `edges`: pairs held less pairs unplayed, each member's barred partners less the most it
/// leaves unplayed (halved), and every cut whose pairs it holds.
fn slot_bound(p: &QuadProblem, u: &Unplayed, edges: &[(usize, usize)], cuts: &[Cut]) -> usize {
    let mut degree = vec![0usize; p.players];
    for &(a, b) in edges {
        degree[a] += 1;
        degree[b] += 1;
    }
    let by_player: usize = degree
        .iter()
        .map(|d| d.saturating_sub(u.per_player()))
        .sum();
    let by_cut = cuts
        .iter()
        .filter(|c| c.edges.iter().all(|e| edges.contains(e)))
        .map(|c| c.games)
        .max()
        .unwrap_or(0);
    edges
        .len()
        .saturating_sub(u.pairs())
        .max(by_player.div_ceil(2))
        .max(by_cut)
}

/// [`solve_stage`] until the unplayed slot's members play no more barred games than its rows
/// bound (adding a [`Cut`] each time they do).
fn solve_exact(
    p: &QuadProblem,
    base: &[usize],
    stage: Stage,
    cuts: &mut Vec<Cut>,
) -> Result<Vec<usize>, String> {
    loop {
        let (x, t) = solve_stage(p, base, stage, cuts)?;
        let Some(u) = partial(p) else {
            return Ok(x);
        };
        let members: Vec<usize> = (0..p.players).filter(|&i| x[i] == u.slot).collect();
        let edges = barred_among(p, &members);
        let games = (u.games)(&members);
        if games as f64 <= t + 0.5 || games <= slot_bound(p, u, &edges, cuts) {
            return Ok(x);
        }
        log::debug!(
            "quads: cut {}, {games} barred games over t = {t}",
            cuts.len() + 1
        );
        cuts.push(Cut { edges, games });
    }
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
    // One slot holds everyone: there is no membership to choose.
    if !clash || (p.pods.len() == 1 && p.soft) {
        let pods = p.pods.clone();
        return Ok(QuadSolution {
            repeats: count_repeats(&pods, &p.repeats),
            barred: if clash { barred_games(p, &pods) } else { 0 },
            moved: 0,
            pods,
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
    let mut cuts = Vec::new();
    let barred = if p.soft {
        let x = solve_exact(p, &base, Stage::Barred, &mut cuts)?;
        barred_games(p, &pods_of(&x))
    } else {
        0
    };
    let first = solve_exact(p, &base, Stage::Moves { barred }, &mut cuts)?;
    let moved = moved_of(&first);
    let x = solve_exact(p, &base, Stage::Near { barred, moved }, &mut cuts)?;
    let pods = pods_of(&x);
    Ok(QuadSolution {
        moved: moved_of(&x),
        repeats: count_repeats(&pods, &p.repeats),
        barred: if p.soft { barred_games(p, &pods) } else { 0 },
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
type Together = Vec<(Var, usize, usize, usize)>;

fn together(vars: &mut Program, pairs: &[(usize, usize)], cols: &[Vec<(usize, Var)>]) -> Together {
    let mut y = Vec::new();
    for &(a, b) in pairs {
        for &(q, _) in &cols[a] {
            if cols[b].iter().any(|(s, _)| *s == q) {
                y.push((vars.var(0.0, 1.0), a, b, q));
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
fn clique_cuts(p: &QuadProblem, cols: &[Vec<(usize, Var)>], barred_y: &Together) -> Vec<Expr> {
    let y: std::collections::HashMap<(usize, usize, usize), Var> = barred_y
        .iter()
        .map(|&(v, a, b, q)| ((a.min(b), a.max(b), q), v))
        .collect();
    let mut out = Vec::new();
    for k in cliques(p) {
        for (q, pod) in p.pods.iter().enumerate() {
            let xs: Vec<Var> = k
                .iter()
                .filter_map(|&i| cols[i].iter().find(|(s, _)| *s == q).map(|(_, v)| *v))
                .collect();
            let mut pairs = Expr::default();
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

/// The barred cost (soft only): a barred pair sharing a slot costs one, except in the
/// unplayed slot, whose cost is its variable t with the rows that bound it from below (as
/// [`slot_bound`] computes them).
fn barred_cost(
    p: &QuadProblem,
    vars: &mut Program,
    cols: &[Vec<(usize, Var)>],
    barred_y: &Together,
    cuts: &[Cut],
) -> (Expr, Vec<Row>) {
    let Some(u) = partial(p) else {
        return (barred_y.iter().map(|&(v, ..)| v).sum(), Vec::new());
    };
    let t = vars.var(0.0, f64::INFINITY);
    let mut cost: Expr = t.into();
    let mut held = Expr::from(t);
    // y of each barred pair in the slot, and each player's barred partners there.
    let mut in_slot = std::collections::BTreeMap::new();
    let mut partners: Vec<(usize, Expr)> = vec![(0, Expr::default()); p.players];
    for &(v, a, b, q) in barred_y {
        if q == u.slot {
            held.add_mul(-1.0, v);
            in_slot.insert((a.min(b), a.max(b)), v);
            for i in [a, b] {
                partners[i].0 += 1;
                partners[i].1.add_mul(1.0, v);
            }
        } else {
            cost.add_mul(1.0, v);
        }
    }
    let mut rows = unplayed_rows(u, vars, cols, &in_slot, t);
    rows.push(held.geq(-(u.pairs() as f64)));
    // 2t ≥ Σ z_i, z_i ≥ (barred partners of i there) − per_player.
    let mut twice = Expr::from(t) * 2.0;
    for (_, e) in partners.into_iter().filter(|(n, _)| *n > u.per_player()) {
        let z = vars.var(0.0, f64::INFINITY);
        twice.add_mul(-1.0, z);
        rows.push((Expr::from(z) - e).geq(-(u.per_player() as f64)));
    }
    rows.push(twice.geq(0));
    for c in cuts {
        let ys: Option<Vec<Var>> = c
            .edges
            .iter()
            .map(|e| in_slot.get(&(e.0.min(e.1), e.0.max(e.1))).copied())
            .collect();
        let Some(ys) = ys else { continue };
        let mut e = Expr::from(t);
        for y in &ys {
            e.add_mul(-(c.games as f64), *y);
        }
        rows.push(e.geq(-((c.games * (ys.len().saturating_sub(1))) as f64)));
    }
    (cost, rows)
}

/// Candidates of the unplayed slot past which its pairs are not modelled one by one.
const UNPLAYED_PAIRS_UP_TO: usize = 40;

/// The unplayed pairs of the slot as variables (when its candidates are few): w[a,b] ≤ x[a],
/// x[b]; each member's unplayed partners Σ_b w[a,b] = degree·x[a] + s[a], with Σ s = sitters;
/// no triangle when [`Unplayed::triangle_free`]; and t ≥ Σ over barred pairs (y − w).
fn unplayed_rows(
    u: &Unplayed,
    vars: &mut Program,
    cols: &[Vec<(usize, Var)>],
    in_slot: &std::collections::BTreeMap<(usize, usize), Var>,
    t: Var,
) -> Vec<Row> {
    let cand: Vec<(usize, Var)> = (0..cols.len())
        .filter_map(|i| {
            cols[i]
                .iter()
                .find(|(q, _)| *q == u.slot)
                .map(|&(_, v)| (i, v))
        })
        .collect();
    if cand.len() > UNPLAYED_PAIRS_UP_TO {
        return Vec::new();
    }
    let c = cand.len();
    let mut rows = Vec::new();
    let mut w = vec![vec![None; c]; c];
    let mut games = Expr::from(t);
    for a in 0..c {
        for b in a + 1..c {
            let v = vars.var(0.0, 1.0);
            rows.push((Expr::from(v) - cand[a].1).leq(0));
            rows.push((Expr::from(v) - cand[b].1).leq(0));
            if let Some(&y) = in_slot.get(&(cand[a].0, cand[b].0)) {
                games.add_mul(-1.0, y);
                games.add_mul(1.0, v);
            }
            w[a][b] = Some(v);
            w[b][a] = Some(v);
        }
    }
    rows.push(games.geq(0));
    let mut sits = Expr::default();
    for a in 0..c {
        let mut deg: Expr = (0..c).filter_map(|b| w[a][b]).sum();
        deg.add_mul(-(u.degree as f64), cand[a].1);
        if u.sitters > 0 {
            let s = vars.binary();
            rows.push((Expr::from(s) - cand[a].1).leq(0));
            sits.add_mul(1.0, s);
            deg.add_mul(-1.0, s);
        }
        rows.push(deg.eq(0));
    }
    if u.sitters > 0 {
        rows.push(sits.eq(u.sitters as f64));
    }
    if u.triangle_free {
        for a in 0..c {
            for b in a + 1..c {
                for d in b + 1..c {
                    let e: Expr = [w[a][b], w[a][d], w[b][d]].into_iter().flatten().sum();
                    rows.push(e.leq(2));
                }
            }
        }
    }
    rows
}

/// One solve of `stage`. Returns each player's slot.
fn solve_stage(
    p: &QuadProblem,
    base: &[usize],
    stage: Stage,
    cuts: &[Cut],
) -> Result<(Vec<usize>, f64), String> {
    let mut vars = Program::default();
    // cols[i] = (slot, variable) for each allowed slot of player i.
    let mut cols: Vec<Vec<(usize, Var)>> = Vec::with_capacity(p.players);
    for (i, &home) in base.iter().enumerate() {
        let mut slots: Vec<usize> = p.allowed.get(i).cloned().unwrap_or_default();
        slots.push(home);
        slots.sort_unstable();
        slots.dedup();
        cols.push(slots.into_iter().map(|q| (q, vars.binary())).collect());
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
    let (barred_cost, game_rows) = barred_cost(p, &mut vars, &cols, &barred_y, cuts);
    let repeat_y = if matches!(stage, Stage::Near { .. }) {
        together(&mut vars, &p.repeats, &cols)
    } else {
        Vec::new()
    };
    let mut objective = Expr::default();
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
        Stage::Barred => objective += barred_cost.clone(),
        Stage::Near { .. } => repeat_y
            .iter()
            .for_each(|&(v, ..)| objective.add_mul((dist_max + 1) as f64, v)),
        Stage::Moves { .. } => {}
    }
    for c in &cols {
        let e: Expr = c.iter().map(|(_, v)| *v).sum();
        vars.add(e.eq(1));
    }
    for (q, pod) in p.pods.iter().enumerate() {
        let e: Expr = (0..p.players).filter_map(|i| var_of(i, q)).sum();
        vars.add(e.eq(pod.len() as f64));
    }
    if !p.soft {
        for &(a, b) in &p.forbidden {
            for &(q, va) in &cols[a] {
                if let Some(vb) = var_of(b, q) {
                    vars.add((va + vb).leq(1));
                }
            }
        }
    }
    for &(v, a, b, q) in barred_y.iter().chain(&repeat_y) {
        let (va, vb) = (var_of(a, q).unwrap(), var_of(b, q).unwrap());
        vars.add((va + vb - v).leq(1));
    }
    for e in clique_cuts(p, &cols, &barred_y) {
        vars.add(e.geq(0));
    }
    for row in game_rows {
        vars.add(row);
    }
    if let Stage::Moves { barred } | Stage::Near { barred, .. } = stage {
        if p.soft {
            vars.add(barred_cost.leq(barred as f64));
        }
    }
    if let Stage::Near { moved, .. } = stage {
        let mut kept = Expr::default();
        for (i, c) in cols.iter().enumerate() {
            for &(q, v) in c {
                if q == base[i] {
                    kept.add_mul(1.0, v);
                }
            }
        }
        vars.add(kept.geq((p.players - moved) as f64));
    }
    let mut m = vars
        .minimise(&objective)
        .map_err(|e| format!("HiGHS rejected the quad model: {e:?}"))?;
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
    // t, the unplayed slot's barred games, was made right after the players' and pairs'.
    let t = values.get(k + barred_y.len()).copied().unwrap_or(0.0);
    Ok((slot, t))
}
