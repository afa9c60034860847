//! The column set: which candidate pairs are columns of the restricted programs (the first
//! ones: each player's cheapest partners and an incumbent's pairs), which were priced in from
//! a pair source, which are fixed at 0; the greedy pass over a source that seeds them; and an
//! LP answer read back as a pairing.

use super::model::Model;
use super::prepare::Columns;
use crate::solve::Selection;
use crate::spec::{Candidate, PairSource, RoundSpec};
use std::collections::{HashMap, HashSet};

/// The growing column set: pairs listed so far (the specification's and those priced in from
/// the source, counted in `from_source`), the active ones, and those fixed at 0.
pub(super) struct ColumnSet {
    pub listed: HashSet<(usize, usize)>,
    pub from_source: usize,
    pub active: Vec<usize>,
    pub in_active: Vec<bool>,
    pub dead: Vec<bool>,
}

/// Pairs each player's `k` cheapest partners (all tiers, lexicographically) plus `seed`'s pairs.
pub(super) fn initial_columns(spec: &RoundSpec, per_player: usize, seed: &Selection) -> Vec<usize> {
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

/// The greedy pass over a source: the cheapest bye option, then players in rank order, each
/// paired with the free partner of lexicographically smallest cost among its own class and,
/// if none is free there, the nearest classes below and above.
pub(super) fn source_greedy(
    spec: &RoundSpec,
    src: &dyn PairSource,
) -> (Vec<Candidate>, Option<usize>) {
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

/// The pairs of a pairing found outside the LP (a greedy pass, partner exchanges) as indices
/// into the model's candidates, sorted; those not listed yet are appended (`grow`).
pub(super) fn adopt(model: &mut Model, pairs: &[Candidate], set: &mut ColumnSet) -> Vec<usize> {
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
pub(super) fn activate(pairs: &[usize], active: &mut Vec<usize>, in_active: &mut [bool]) {
    for &k in pairs {
        if !in_active[k] {
            in_active[k] = true;
            active.push(k);
        }
    }
    active.sort_unstable();
}

/// Appends pairs priced in from a source to the model's candidates, active from now on.
pub(super) fn grow(model: &mut Model, more: Vec<Candidate>, set: &mut ColumnSet) {
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
        model.rows.on_pair.push(Vec::new());
        model.spec.candidates.push(c);
    }
    model.cols.pairs = model.spec.candidates.len();
    set.active.sort_unstable();
}

/// The LP solution as a pairing, if it is integral.
pub(super) fn integral(
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

pub(super) fn read_local(
    values: &[f64],
    active: &[usize],
    cols: &Columns,
    spec: &RoundSpec,
) -> Selection {
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
