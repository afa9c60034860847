//! Partner exchanges on the incumbent before a tier group's first LP (models/swiss.md, item 10).
//!
//! Column generation converges in fewer pricing rounds from a good restricted program: when
//! the incumbent is far above the group's optimum, so is the first LP, and its duals price in
//! hundreds of thousands of pairs that no optimum uses. Here a player takes a listed partner
//! cheaper on the group than his own, whose partner takes his, while that lowers the group's
//! weighted cost and keeps every earlier group's value, so the pairing stays optimal on the
//! groups already closed. The result is only a better incumbent and better first columns:
//! what the LP and pricing prove is unchanged.

use crate::spec::{Candidate, PairSource, RoundSpec};
use std::collections::HashMap;

/// Passes over the field at most (each stops early when nothing improved).
const PASSES: usize = 8;

/// The improved pairing.
pub(super) struct Exchanged {
    pub pairs: Vec<Candidate>,
    /// The group's weighted value before and after.
    pub before: i128,
    pub after: i128,
}

/// Exchanges partners in `pairs` (the incumbent's pairs; byes and unpaired players stay as
/// they are) along each player's listed pairs, for `group` with the earlier groups `fixed`
/// held. A pair is taken from `spec`'s candidates when listed (and not `dead`),
/// else from `source`; pairs neither offers are not used. `None` when nothing improved.
pub(super) fn exchange(
    spec: &RoundSpec,
    dead: &[bool],
    source: Option<&dyn PairSource>,
    group: &[(usize, i128)],
    fixed: &[(Vec<(usize, i128)>, i128)],
    pairs: &[usize],
) -> Option<Exchanged> {
    let n = spec.players.len();
    let index: HashMap<(usize, usize), usize> = spec
        .candidates
        .iter()
        .enumerate()
        .map(|(k, c)| ((c.a, c.b), k))
        .collect();
    let lookup = |x: usize, y: usize| -> Option<Candidate> {
        let (a, b) = (x.min(y), x.max(y));
        match index.get(&(a, b)) {
            Some(&k) if dead[k] => None,
            Some(&k) => Some(spec.candidates[k].clone()),
            None => source.and_then(|s| s.pair(a, b)),
        }
    };
    let weigh = |c: &Candidate, g: &[(usize, i128)]| -> i128 {
        g.iter()
            .filter(|&&(t, _)| t > 0)
            .map(|&(t, w)| w * c.costs[t - 1] as i128)
            .sum()
    };
    // Each paired player's current pair.
    let mut at: Vec<Option<Candidate>> = vec![None; n];
    for &k in pairs {
        let c = &spec.candidates[k];
        at[c.a] = Some(c.clone());
        at[c.b] = Some(c.clone());
    }
    let partner = |c: &Candidate, i: usize| if c.a == i { c.b } else { c.a };
    let value = |at: &[Option<Candidate>]| -> i128 {
        at.iter()
            .enumerate()
            .filter_map(|(i, c)| c.as_ref().filter(|c| c.a == i))
            .map(|c| weigh(c, group))
            .sum()
    };
    let before = value(&at);
    // Each player's listed pairs, cheapest on the group first.
    let mut listed: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, c) in spec.candidates.iter().enumerate() {
        if !dead[k] {
            listed[c.a].push(k);
            listed[c.b].push(k);
        }
    }
    let own: Vec<i128> = spec.candidates.iter().map(|c| weigh(c, group)).collect();
    for l in &mut listed {
        l.sort_by_key(|&k| (own[k], k));
    }
    let mut improved = false;
    for _ in 0..PASSES {
        let mut changed = false;
        for a in 0..n {
            let Some(p) = at[a].clone() else { continue };
            let b = partner(&p, a);
            let now = weigh(&p, group);
            // a takes a listed partner d cheaper than b; d's partner c takes b.
            for &k in &listed[a] {
                if own[k] >= now {
                    break;
                }
                let u = &spec.candidates[k];
                let d = partner(u, a);
                let Some(q) = &at[d] else { continue };
                let c = partner(q, d);
                if c == a || c == b {
                    continue;
                }
                let Some(v) = lookup(c, b) else { continue };
                let gain = now + weigh(q, group) - own[k] - weigh(&v, group);
                let keeps = fixed
                    .iter()
                    .all(|(fg, _)| weigh(u, fg) + weigh(&v, fg) <= weigh(&p, fg) + weigh(q, fg));
                if gain > 0 && keeps {
                    for i in [a, b, c, d] {
                        at[i] = None;
                    }
                    for w in [u.clone(), v] {
                        let (wa, wb) = (w.a, w.b);
                        at[wa] = Some(w.clone());
                        at[wb] = Some(w);
                    }
                    changed = true;
                    break;
                }
            }
        }
        improved |= changed;
        if !changed {
            break;
        }
    }
    if !improved {
        return None;
    }
    let after = value(&at);
    let pairs = at
        .into_iter()
        .enumerate()
        .filter_map(|(i, c)| c.filter(|c| c.a == i))
        .collect();
    Some(Exchanged {
        pairs,
        before,
        after,
    })
}
