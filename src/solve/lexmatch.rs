//! The lexicographic optimum of a restricted program as one exact weighted matching.
//!
//! A tier group whose LP bound no pairing meets (a real integrality gap: the LP lacks the
//! blossom rows its optimum would need) used to go to a HiGHS MIP, which can take tens of
//! seconds on a few hundred players. When the round has no rows beyond pairing itself — no
//! system rows, at most one bye — the same restricted program is a maximum-weight matching:
//! the tiers of every group so far are folded into one exact integer weight per pair, each
//! tier's multiplier above the largest total the tiers below it can reach, and the sparse
//! blossom algorithm of [`super::blossom`] finds its optimum with no tolerance, over the
//! candidate pairs only (memory linear in them, no cap on a component's size). The weights are
//! `i128` while they fit with room for the algorithm's sums, else 512-bit ([`blossom::Wide`]).
//! The earlier groups' rows need no encoding: their optima are reached by the incumbent over
//! the same pairs, so a lexicographic optimum keeps them. Rounds with system rows (USCF's and
//! the accelerated systems' constraints, several byes) are not plain matchings: their groups
//! keep the MIP.
//!
//! Each matching is returned only when its dual solution proves it optimal over the columns
//! given ([`blossom::is_proved_optimal`]); the solver then prices every pair left out against
//! the LP's duals (`complete` in `ilp/pricing.rs`), so the optimum holds over all pairs.
//!
//! The graph splits into connected components, each matched on its own.

use super::blossom::{self, Weight, Wide};
use super::Selection;
use crate::spec::RoundSpec;
use std::collections::HashMap;

/// Largest weight (in absolute value, times 4·size of the component) matched in `i128`: the
/// algorithm doubles weights and sums duals over a component.
const LIMIT_I128: i128 = 1 << 100;

/// Largest number of bits of a weight matched in 512 bits, with the same headroom.
const LIMIT_WIDE_BITS: u32 = 480;

/// The columns a matching may use, with every column's cost per tier (pairs first, then
/// byes, then unpaired players, as in the solver's model).
pub struct Restricted<'a> {
    pub spec: &'a RoundSpec,
    pub costs: &'a [Vec<i64>],
    /// Pair columns: `spec.candidates` indices, none fixed at 0.
    pub pairs: &'a [usize],
    pub dead_bye: &'a [bool],
    pub dead_unpaired: &'a [bool],
    /// Pair columns (sorted) kept among equal optima: the incumbent's, so that a group whose
    /// optimum the incumbent already reaches on some brackets leaves them as they are.
    pub prefer: &'a [usize],
    /// Where to write the largest component's graph ([`super::Options::dump_matching`]).
    pub dump: Option<&'a std::path::Path>,
}

/// The selection minimising `tiers` lexicographically (in the order given) over the
/// restricted columns, or `None` when the program is not a plain matching (system rows, more
/// than one bye), the weights would not fit in 512 bits, a matching's duals do not prove it,
/// or no pairing covers every player who must be covered.
pub fn lexicographic(r: &Restricted, tiers: &[usize]) -> Option<Selection> {
    let spec = r.spec;
    if !spec.rows.is_empty() || spec.max_byes > 1 {
        return None;
    }
    let g = Graph::new(r);
    let started = std::time::Instant::now();
    let largest = g.members.iter().map(Vec::len).max().unwrap_or(0);
    let mut sel = Selection::default();
    let mut local = vec![usize::MAX; g.members.len()];
    for (m, comp_edges) in g.members.iter().zip(&g.by_component) {
        if m.is_empty() {
            continue;
        }
        for (l, &v) in m.iter().enumerate() {
            local[v] = l;
        }
        let pairs = component_weights(r, tiers, m, comp_edges, &local)?;
        let size = m.len();
        let top = pairs
            .iter()
            .map(|p| &p.1 .0)
            .max()
            .cloned()
            .unwrap_or_else(Wide::zero);
        // Headroom: 4·size times the largest weight.
        let room = blossom::wide(4 * size as i128);
        let mate: Vec<Option<usize>> = match top.checked_mul(&room)?.to_i128() {
            Some(x) if x <= LIMIT_I128 => {
                let e: Vec<(usize, usize, i128)> = pairs
                    .iter()
                    .map(|((a, b), (w, _))| (*a, *b, w.to_i128().expect("checked above")))
                    .collect();
                if size == largest {
                    dump(r.dump, size, &e);
                }
                matched(size, &e)?
            }
            _ => {
                if bits(&top.checked_mul(&room)?) > LIMIT_WIDE_BITS {
                    trace(g.edges.len(), largest, started, "weights too wide");
                    return None;
                }
                let e: Vec<(usize, usize, Wide)> =
                    pairs.iter().map(|((a, b), (w, _))| (*a, *b, *w)).collect();
                matched(size, &e)?
            }
        };
        read_mate(r, m, &mate, &pairs, &mut sel)?;
    }
    sel.pairs.sort_unstable();
    sel.byes.sort_unstable();
    sel.unpaired.sort_unstable();
    trace(g.edges.len(), largest, started, "solved");
    Some(sel)
}

/// The restricted program's graph: one vertex per player and vertex n for the bye (matched
/// to i, it gives i the bye; one at most), an edge per column, split into connected
/// components.
struct Graph {
    /// Edges: (u, v, column); several columns for one pair keep the cheapest later.
    edges: Vec<(usize, usize, usize)>,
    /// Per component root (its lowest vertex): its vertices, ascending; empty for others.
    members: Vec<Vec<usize>>,
    /// Per component root: its edges.
    by_component: Vec<Vec<(usize, usize, usize)>>,
}

impl Graph {
    fn new(r: &Restricted) -> Graph {
        let spec = r.spec;
        let n = spec.players.len();
        let np = spec.candidates.len();
        let nb = spec.byes.len();
        let with_bye = spec.max_byes == 1 && (0..nb).any(|j| !r.dead_bye[j]);
        let nv = n + usize::from(with_bye);
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
        Graph {
            edges,
            members,
            by_component,
        }
    }
}

/// A pair of local vertices (ascending), its matching weight and the column it stands for.
type Weighed = ((usize, usize), (Wide, usize));

/// One component's matching weights, by pair of local vertices (ascending): weight = (cost of
/// leaving both alone) − (cost of the pair), every weight positive, so only the lexicographic
/// costs decide; the cheapest of a pair's columns, equal ones by column order, with the column
/// chosen. `None` when a weight would be negative or too wide.
fn component_weights(
    r: &Restricted,
    tiers: &[usize],
    m: &[usize],
    comp_edges: &[(usize, usize, usize)],
    local: &[usize],
) -> Option<Vec<Weighed>> {
    let spec = r.spec;
    let n = spec.players.len();
    let np = spec.candidates.len();
    let unpaired_col = |i: usize| np + spec.byes.len() + i;
    // Every column of the component: its pairs, its byes, its players' unpaired columns.
    let players: Vec<usize> = m.iter().copied().filter(|&v| v < n).collect();
    let weights = multipliers(r.costs, tiers, comp_edges, &players, r.dead_unpaired)?;
    let lex = |col: usize| -> Wide {
        tiers.iter().zip(&weights).fold(Wide::zero(), |s, (&t, w)| {
            Weight::add(&s, &times(w, r.costs[col][t]))
        })
    };
    // Leaving a vertex unmatched costs its unpaired column, or `forbid` when that column
    // is fixed at 0: above any total the component's columns can reach.
    let mut most: Vec<Wide> = m
        .iter()
        .map(|&v| {
            if v < n && !r.dead_unpaired[v] {
                lex(unpaired_col(v))
            } else {
                Wide::zero()
            }
        })
        .collect();
    let lexed: Vec<Wide> = comp_edges.iter().map(|&(_, _, k)| lex(k)).collect();
    for (&(a, b, _), c) in comp_edges.iter().zip(&lexed) {
        for x in [local[a], local[b]] {
            if *c > most[x] {
                most[x] = *c;
            }
        }
    }
    let forbid = most
        .iter()
        .fold(blossom::wide(1), |s, x| Weight::add(&s, x));
    let alone = |v: usize| -> Wide {
        if v == n {
            Wide::zero()
        } else if r.dead_unpaired[v] {
            forbid
        } else {
            lex(unpaired_col(v))
        }
    };
    // Ties broken towards the preferred pairs: weights times (size + 1), one more per
    // preferred pair (fewer than size + 1 of them in any matching).
    let scale = blossom::wide(m.len() as i128 + 1);
    let mut best: HashMap<(usize, usize), (Wide, usize)> = HashMap::new();
    for (&(u, v, k), c) in comp_edges.iter().zip(&lexed) {
        let (lu, lv) = (local[u].min(local[v]), local[u].max(local[v]));
        let weight = Weight::sub(&Weight::add(&alone(u), &alone(v)), c);
        if weight < Wide::zero() {
            return None;
        }
        let bonus = i128::from(k < np && r.prefer.binary_search(&k).is_ok());
        let weight = Weight::add(&weight.checked_mul(&scale)?, &blossom::wide(bonus));
        match best.get(&(lu, lv)) {
            Some((w, _)) if *w >= weight => {}
            _ => {
                best.insert((lu, lv), (weight, k));
            }
        }
    }
    let mut pairs: Vec<Weighed> = best.into_iter().collect();
    pairs.sort_unstable_by_key(|p| p.0);
    Some(pairs)
}

/// A component's matching (`mate` by local vertex, of members `m`) into the selection: its
/// pairs' columns, its bye, its players left unpaired. `None` when one left unpaired must be
/// covered.
fn read_mate(
    r: &Restricted,
    m: &[usize],
    mate: &[Option<usize>],
    pairs: &[Weighed],
    sel: &mut Selection,
) -> Option<()> {
    let spec = r.spec;
    let (n, np) = (spec.players.len(), spec.candidates.len());
    let column: HashMap<(usize, usize), usize> =
        pairs.iter().map(|(ab, (_, k))| (*ab, *k)).collect();
    for (lu, &partner) in mate.iter().enumerate() {
        let u = m[lu];
        match partner {
            Some(lv) if lu < lv => {
                let k = column[&(lu, lv)];
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
    Some(())
}

/// With a path, the largest component's graph goes to it (`n`, then `u v weight` lines) for
/// `cargo bench --bench blossom -- file FILE`.
fn dump(path: Option<&std::path::Path>, size: usize, edges: &[(usize, usize, i128)]) {
    if let Some(path) = path {
        let mut text = format!("{size}\n");
        for (a, b, w) in edges {
            text.push_str(&format!("{a} {b} {w}\n"));
        }
        let _ = std::fs::write(path, text);
    }
}

/// The maximum-weight matching of one component, kept only when its duals prove it.
fn matched<W: Weight>(size: usize, edges: &[(usize, usize, W)]) -> Option<Vec<Option<usize>>> {
    let m = blossom::maximum_weight_matching(size, edges, false);
    blossom::is_proved_optimal(size, edges, false, &m).then_some(m.mate)
}

/// Bits of a non-negative value.
fn bits(x: &Wide) -> u32 {
    x.differing_bits(&Wide::ZERO)
}

/// w · c exactly (c a tier cost, non-negative).
fn times(w: &Wide, c: i64) -> Wide {
    w.checked_mul(&blossom::wide(c as i128))
        .expect("tier weights stay below 2^480")
}

/// One trace line per matching (`log` level debug).
fn trace(edges: usize, largest: usize, started: std::time::Instant, what: &str) {
    log::debug!(
        "weighted matching over {edges} columns, largest component {largest}: {what} in {:.3} s",
        started.elapsed().as_secs_f64()
    );
}

/// Each tier's multiplier in one component: the last tier's is 1, and each one above is the
/// one below times one more than the largest total the tier below can reach: every column
/// holds a player and no player is in two, so the sum of each player's costliest column
/// bounds it (costs are non-negative). `None` past 2^480 or on a negative cost.
fn multipliers(
    costs: &[Vec<i64>],
    tiers: &[usize],
    edges: &[(usize, usize, usize)],
    players: &[usize],
    dead_unpaired: &[bool],
) -> Option<Vec<Wide>> {
    let np_nb = costs.len() - dead_unpaired.len();
    let mut weights = vec![blossom::wide(1); tiers.len()];
    for j in (0..tiers.len().saturating_sub(1)).rev() {
        let t = tiers[j + 1];
        let mut most = HashMap::<usize, i64>::new();
        for &(a, b, k) in edges {
            let c = costs[k][t];
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
                *e = (*e).max(costs[np_nb + p][t]);
            }
        }
        let total: i128 = most.values().map(|&c| c as i128).sum();
        weights[j] = weights[j + 1].checked_mul(&blossom::wide(total.checked_add(1)?))?;
        if bits(&weights[j]) > LIMIT_WIDE_BITS - 64 {
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
                prefer: &[],
                dump: None,
            };
            let order: Vec<usize> = (0..=tiers).collect();
            let got = lexicographic(&r, &order).map(|s| s.tier_values(&spec));
            assert_eq!(got, brute(&spec, &pairs, &optional), "case {case}");
            compared += usize::from(got.is_some());
        }
        assert!(compared > 100, "only {compared} feasible cases");
    }
}
