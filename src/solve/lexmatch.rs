//! The lexicographic optimum of a restricted program as one exact weighted matching.
//!
//! A tier group whose LP bound no pairing meets (a real integrality gap: the LP lacks the
//! blossom rows its optimum would need) used to go to a HiGHS MIP, which can take tens of
//! seconds on a few hundred players. When the round has no rows beyond pairing itself — no
//! system rows, at most one bye — the same restricted program is a minimum-weight matching:
//! the tiers of every group so far are folded into one exact integer weight per pair (i128,
//! each tier's multiplier above the largest total the tiers below it can reach), and a
//! primal–dual blossom algorithm (`integer-blossom`) finds its optimum with no tolerance. The
//! earlier groups' rows need no encoding: their optima are reached by the incumbent over the
//! same pairs, so a lexicographic optimum keeps them.
//!
//! The graph splits into connected components, each matched on its own: the work grows with
//! the cube of the largest component, not of the field.

use super::Selection;
use crate::spec::RoundSpec;

/// Largest component matched here; a bigger one is left to the MIP (the blossom solver keeps
/// (2m+1)² edges for a component of m vertices, about 180 MB at 1,200; its time grows with m³).
pub const MAX_COMPONENT: usize = 1200;

/// Headroom kept below `i128::MAX`: the blossom algorithm doubles weights and sums duals over
/// a component.
const LIMIT: i128 = 1 << 100;

/// The columns a matching may use, with every column's cost per tier (pairs first, then
/// byes, then unpaired players, as in the solver's model).
pub struct Restricted<'a> {
    pub spec: &'a RoundSpec,
    pub costs: &'a [Vec<i64>],
    /// Pair columns: `spec.candidates` indices, none fixed at 0.
    pub pairs: &'a [usize],
    pub dead_bye: &'a [bool],
    pub dead_unpaired: &'a [bool],
}

/// The selection minimising `tiers` lexicographically (in the order given) over the
/// restricted columns, or `None` when the program is not a plain matching (system rows, more
/// than one bye), a component is too large, the weights would not fit, or no pairing covers
/// every player who must be covered.
pub fn lexicographic(r: &Restricted, tiers: &[usize]) -> Option<Selection> {
    let spec = r.spec;
    if !spec.rows.is_empty() || spec.max_byes > 1 {
        return None;
    }
    let n = spec.players.len();
    let np = spec.candidates.len();
    let nb = spec.byes.len();
    // Vertex n stands for the bye: matched to i, it gives i the bye (one at most).
    let with_bye = spec.max_byes == 1 && (0..nb).any(|j| !r.dead_bye[j]);
    let nv = n + usize::from(with_bye);
    // Edges: (u, v, column); several columns for one pair keep the cheapest later.
    let mut edges: Vec<(usize, usize, usize)> = r
        .pairs
        .iter()
        .map(|&k| (spec.candidates[k].a, spec.candidates[k].b, k))
        .collect();
    if with_bye {
        for (j, b) in spec.byes.iter().enumerate() {
            if !r.dead_bye[j] {
                edges.push((b.player, n, np + j));
            }
        }
    }
    let unpaired_col = |i: usize| np + nb + i;
    // Components of the graph.
    let mut parent: Vec<usize> = (0..nv).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for &(u, v, _) in &edges {
        let (ru, rv) = (find(&mut parent, u), find(&mut parent, v));
        if ru != rv {
            parent[ru.max(rv)] = ru.min(rv);
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); nv];
    for v in 0..nv {
        let root = find(&mut parent, v);
        members[root].push(v);
    }
    let mut by_component: Vec<Vec<(usize, usize, usize)>> = vec![Vec::new(); nv];
    for &e in &edges {
        let root = find(&mut parent, e.0);
        by_component[root].push(e);
    }

    let started = std::time::Instant::now();
    let largest = members.iter().map(Vec::len).max().unwrap_or(0);
    let mut sel = Selection::default();
    let mut local = vec![usize::MAX; nv];
    for root in 0..nv {
        let m = &members[root];
        if m.is_empty() {
            continue;
        }
        if m.len() > MAX_COMPONENT {
            trace(edges.len(), largest, started, "too large");
            return None;
        }
        for (l, &v) in m.iter().enumerate() {
            local[v] = l;
        }
        // Every column of the component: its pairs, its byes, its players' unpaired columns.
        let comp_edges = &by_component[root];
        let players: Vec<usize> = m.iter().copied().filter(|&v| v < n).collect();
        let weights = multipliers(r.costs, tiers, comp_edges, &players, r.dead_unpaired)?;
        let lex = |col: usize| -> i128 {
            tiers
                .iter()
                .zip(&weights)
                .map(|(&t, &w)| w * r.costs[col][t] as i128)
                .sum()
        };
        // Leaving a vertex unmatched costs its unpaired column, or `forbid` when that column
        // is fixed at 0: above any total the component's columns can reach.
        let most = |v: usize| -> i128 {
            let mut most = if v < n && !r.dead_unpaired[v] {
                lex(unpaired_col(v))
            } else {
                0
            };
            for &(a, b, k) in comp_edges {
                if a == v || b == v {
                    most = most.max(lex(k));
                }
            }
            most
        };
        let forbid = m
            .iter()
            .map(|&v| most(v))
            .try_fold(1i128, |s, x| s.checked_add(x))?;
        if forbid.checked_mul(4 * m.len() as i128)? > LIMIT {
            return None;
        }
        let alone = |v: usize| -> i128 {
            if v == n {
                0
            } else if r.dead_unpaired[v] {
                forbid
            } else {
                lex(unpaired_col(v))
            }
        };
        // Maximum weight matching, weight = (cost of leaving both alone) − (cost of the pair):
        // every weight is positive, so only the lexicographic costs decide.
        let size = m.len();
        let mut w = vec![0i128; size * size];
        let mut column = vec![usize::MAX; size * size];
        for &(u, v, k) in comp_edges {
            let (lu, lv) = (local[u].min(local[v]), local[u].max(local[v]));
            let weight = alone(u) + alone(v) - lex(k);
            let at = lu * size + lv;
            // The cheapest of a pair's columns; equal ones by column order.
            if column[at] == usize::MAX || weight > w[at] {
                w[at] = weight;
                column[at] = k;
            }
        }
        if w.iter().any(|&x| x < 0) {
            return None;
        }
        let mate = integer_blossom::max_weight_matching(&w, size);
        for (lu, &partner) in mate.iter().enumerate() {
            let u = m[lu];
            match partner {
                Some(lv) if lu < lv => {
                    let k = column[lu * size + lv];
                    if k >= np {
                        sel.byes.push(spec.byes[k - np].player);
                    } else {
                        sel.pairs.push(k);
                    }
                }
                Some(_) => {}
                None if u == n => {}
                None if r.dead_unpaired[u] => return None,
                None => sel.unpaired.push(u),
            }
        }
    }
    sel.pairs.sort_unstable();
    sel.byes.sort_unstable();
    sel.unpaired.sort_unstable();
    trace(edges.len(), largest, started, "solved");
    Some(sel)
}

/// With OPTIPAIR_TRACE set, one line on standard error per matching.
fn trace(edges: usize, largest: usize, started: std::time::Instant, what: &str) {
    if std::env::var_os("OPTIPAIR_TRACE").is_some() {
        eprintln!(
            "trace: weighted matching over {edges} columns, largest component {largest}: {what} in {:.3} s",
            started.elapsed().as_secs_f64()
        );
    }
}

/// Each tier's multiplier in one component: the last tier's is 1, and each one above is the
/// one below times one more than the largest total the tier below can reach: every column
/// holds a player and no player is in two, so the sum of each player's costliest column
/// bounds it (costs are non-negative). `None` on overflow or a negative cost.
fn multipliers(
    costs: &[Vec<i64>],
    tiers: &[usize],
    edges: &[(usize, usize, usize)],
    players: &[usize],
    dead_unpaired: &[bool],
) -> Option<Vec<i128>> {
    let np_nb = costs.len() - dead_unpaired.len();
    let mut weights = vec![1i128; tiers.len()];
    for j in (0..tiers.len().saturating_sub(1)).rev() {
        let t = tiers[j + 1];
        let mut total: i128 = 0;
        let mut most = std::collections::HashMap::<usize, i128>::new();
        for &(a, b, k) in edges {
            let c = costs[k][t] as i128;
            if c < 0 {
                return None;
            }
            for v in [a, b] {
                let e = most.entry(v).or_insert(0);
                *e = (*e).max(c);
            }
        }
        for &p in players {
            let e = most.entry(p).or_insert(0);
            if !dead_unpaired[p] {
                *e = (*e).max(costs[np_nb + p][t] as i128);
            }
        }
        for (_, c) in most {
            total = total.checked_add(c)?;
        }
        weights[j] = weights[j + 1].checked_mul(total.checked_add(1)?)?;
        if weights[j] > LIMIT {
            return None;
        }
    }
    Some(weights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{ByeOption, Candidate, Tier};

    /// Every selection covering the players who must be covered, by exhaustive search: the
    /// lexicographically smallest tier vector over them.
    fn brute(spec: &RoundSpec, pairs: &[usize], optional: &[bool]) -> Option<Vec<i64>> {
        fn go(
            spec: &RoundSpec,
            pairs: &[usize],
            optional: &[bool],
            used: &mut Vec<bool>,
            sel: &mut Selection,
            best: &mut Option<Vec<i64>>,
        ) {
            let Some(i) = used.iter().position(|u| !u) else {
                let v = sel.tier_values(spec);
                if best.as_ref().is_none_or(|b| v < *b) {
                    *best = Some(v);
                }
                return;
            };
            used[i] = true;
            for &k in pairs {
                let c = &spec.candidates[k];
                let other = if c.a == i {
                    c.b
                } else if c.b == i {
                    c.a
                } else {
                    continue;
                };
                if used[other] {
                    continue;
                }
                used[other] = true;
                sel.pairs.push(k);
                go(spec, pairs, optional, used, sel, best);
                sel.pairs.pop();
                used[other] = false;
            }
            if sel.byes.len() < spec.max_byes && spec.byes.iter().any(|b| b.player == i) {
                sel.byes.push(i);
                go(spec, pairs, optional, used, sel, best);
                sel.byes.pop();
            }
            if optional[i] {
                sel.unpaired.push(i);
                go(spec, pairs, optional, used, sel, best);
                sel.unpaired.pop();
            }
            used[i] = false;
        }
        let mut best = None;
        let mut used = vec![false; spec.players.len()];
        go(
            spec,
            pairs,
            optional,
            &mut used,
            &mut Selection::default(),
            &mut best,
        );
        best
    }

    #[test]
    fn the_matching_is_the_lexicographic_optimum_of_an_exhaustive_search() {
        let mut state: u64 = 7;
        let mut next = move |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        let mut compared = 0;
        for case in 0..300 {
            let n = 2 + next(9) as usize;
            let tiers = 1 + next(3) as usize;
            let mut candidates = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if next(3) > 0 {
                        let costs = (0..tiers).map(|_| next(4) as i64).collect();
                        candidates.push(Candidate {
                            a,
                            b,
                            white: a,
                            costs,
                        });
                    }
                }
            }
            let max_byes = n % 2;
            let mut byes = Vec::new();
            for player in 0..n {
                if max_byes == 1 && next(2) == 0 {
                    let costs = (0..tiers).map(|_| next(4) as i64).collect();
                    byes.push(ByeOption { player, costs });
                }
            }
            let spec = RoundSpec {
                system: "test".into(),
                round: 1,
                players: (1..=n as u32).collect(),
                scores: vec![0.0; n],
                tiers: (0..tiers)
                    .map(|t| Tier::new(&format!("t{t}"), ""))
                    .collect(),
                candidates,
                byes,
                max_byes,
                odd_sets: Vec::new(),
                rows: Vec::new(),
                notes: Vec::new(),
            };
            // Column costs as the solver lays them out: pairs, byes, unpaired (tier 0).
            let mut costs: Vec<Vec<i64>> = Vec::new();
            for c in &spec.candidates {
                costs.push(std::iter::once(0).chain(c.costs.iter().copied()).collect());
            }
            for b in &spec.byes {
                costs.push(std::iter::once(0).chain(b.costs.iter().copied()).collect());
            }
            for _ in 0..n {
                let mut v = vec![0; tiers + 1];
                v[0] = 1;
                costs.push(v);
            }
            let pairs: Vec<usize> = (0..spec.candidates.len()).collect();
            let dead_bye = vec![false; spec.byes.len()];
            // Some players may stay unpaired (at tier-0 cost), the others must be covered.
            let optional: Vec<bool> = (0..n).map(|_| case % 2 == 0 && next(3) == 0).collect();
            let dead_unpaired: Vec<bool> = optional.iter().map(|o| !o).collect();
            let r = Restricted {
                spec: &spec,
                costs: &costs,
                pairs: &pairs,
                dead_bye: &dead_bye,
                dead_unpaired: &dead_unpaired,
            };
            let order: Vec<usize> = (0..=tiers).collect();
            let got = lexicographic(&r, &order).map(|s| s.tier_values(&spec));
            assert_eq!(got, brute(&spec, &pairs, &optional), "case {case}");
            compared += usize::from(got.is_some());
        }
        assert!(compared > 100, "only {compared} feasible cases");
    }
}
