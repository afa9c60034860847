//! Odd-set cuts: the parity sets an LP answer violates, found from its fractional support, to
//! tighten a group's bound before a MIP is needed.

use super::model::Model;

/// Parity sets violated by an LP solution: components of its fractional support (an odd cycle
/// of halves is the typical case; with a fractional bye, even components too). Their rows
/// (odd: `x(δ(S)) + y(S) + u(S) ≥ 1`, even: `x(δ(S)) + u(S) ≥ y(S)`) hold for every pairing.
pub(super) fn separate(model: &Model, active: &[usize], values: &[f64]) -> Vec<Vec<bool>> {
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
