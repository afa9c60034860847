//! Preparation, before any solve: every column's cost per tier, an upper bound on each tier's
//! total, the tier groups solved together (with each tier's weight inside its group), the
//! parity sets whose rows are added from the start, and where the system's rows fall.

use crate::spec::{PairSource, RoundSpec, Var};

/// Largest objective coefficient (and group weight × range) in one solve. HiGHS scales costs
/// and works to tolerances near 1e-7, so a cost of 1 must stay visible beside the largest
/// coefficient. 2^20 was not enough for a MIP: a round-2 USCF MIP with weights near 177,000
/// missed a pairing one unit better on its last tier and called its answer optimal (test
/// `uscf_round_two_downfloater_is_the_lowest_rated_a_winner_at_200_players`).
pub(super) const MAX_WEIGHT: i128 = 1 << 16;

/// Tiers solved together: (tier, its weight in the group's objective), highest priority first.
pub(super) type Group = Vec<(usize, i128)>;

/// An earlier group held at its optimum by a row: the group and its optimal value.
pub(super) type Fixed = (Group, i128);

/// Column `k` of the model: pairs first, then byes, then unpaired players.
pub(super) struct Columns {
    pub pairs: usize,
    pub byes: usize,
    pub players: usize,
}

impl Columns {
    pub fn count(&self) -> usize {
        self.pairs + self.byes + self.players
    }
}

/// Cost of every column on every tier (tier 0 = players left unpaired).
pub(super) fn column_costs(spec: &RoundSpec) -> Vec<Vec<i64>> {
    let t = spec.tiers.len() + 1;
    let mut costs =
        Vec::with_capacity(spec.candidates.len() + spec.byes.len() + spec.players.len());
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
    #[allow(clippy::needless_range_loop)]
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

/// The tier groups of a round: each tier's range and largest cost, widened to hold for the
/// unlisted pairs of a source (which may cost more than the listed ones), then grouped.
pub(super) fn tier_groups(
    spec: &RoundSpec,
    costs: &[Vec<i64>],
    source: Option<&dyn PairSource>,
) -> Vec<Group> {
    let n = spec.players.len();
    let mut ranges = tier_ranges(spec);
    let mut max_cost: Vec<i64> = (0..ranges.len())
        .map(|t| costs.iter().map(|c| c[t]).max().unwrap_or(0))
        .collect();
    if let Some(src) = source {
        for (t, &u) in src.upper().iter().enumerate() {
            let bye_most = spec.byes.iter().map(|b| b.costs[t]).max().unwrap_or(0);
            let bound = (n as i128 / 2 + 1) * u as i128 + (bye_most * spec.max_byes as i64) as i128;
            ranges[t + 1] = ranges[t + 1].max(bound + 1);
            max_cost[t + 1] = max_cost[t + 1].max(u);
        }
    }
    group_tiers(&ranges, &max_cost)
}

/// Splits tiers into groups solved together, with each tier's weight inside its group.
pub(super) fn group_tiers(ranges: &[i128], max_cost: &[i64]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut t = ranges.len();
    // Build from the last tier upwards: weight(t) = Π (range+1) of the tiers below it in the group.
    let mut current: Group = Vec::new();
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

/// Parity sets whose rows are added from the start, as membership masks: score groups and
/// unions of the top groups (odd ones always; even ones when a bye is given), and the odd sets
/// the system names. See `program` for the rows.
pub(super) fn odd_sets(spec: &RoundSpec) -> Vec<Vec<bool>> {
    // The even-set rows below hold for one bye only (two byes inside an even set need no
    // pair to leave it); with several byes only odd sets are used.
    let with_bye = spec.max_byes == 1 && !spec.byes.is_empty();
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
        if g.len() > 1 && (g.len() % 2 == 1 || with_bye) {
            sets.push(g.clone());
        }
        union.extend(g);
        if gi + 1 < groups.len() && gi > 0 && (union.len() % 2 == 1 || with_bye) {
            sets.push(union.clone());
        }
    }
    sets.extend(spec.odd_sets.iter().filter(|s| s.len() % 2 == 1).cloned());
    sets.sort();
    sets.dedup();
    sets.iter()
        .map(|s| {
            let mut inside = vec![false; n];
            for &i in s {
                inside[i] = true;
            }
            inside
        })
        .collect()
}

/// The system's rows as the program sees them: each row's terms on pairs, by candidate
/// (row, coefficient), and each row's program rows (one per bound it has: min, then max),
/// numbered in order among the system rows.
pub(super) struct SystemRows {
    pub on_pair: Vec<Vec<(usize, i64)>>,
    pub index: Vec<Vec<usize>>,
    pub count: usize,
}

pub(super) fn system_rows(spec: &RoundSpec) -> SystemRows {
    let mut on_pair: Vec<Vec<(usize, i64)>> = vec![Vec::new(); spec.candidates.len()];
    let mut index: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    for (ri, row) in spec.rows.iter().enumerate() {
        for &(var, k) in &row.terms {
            if let Var::Pair(c) = var {
                on_pair[c].push((ri, k));
            }
        }
        let mut idx = Vec::new();
        for bound in [row.min, row.max] {
            if bound.is_some() {
                idx.push(next);
                next += 1;
            }
        }
        index.push(idx);
    }
    SystemRows {
        on_pair,
        index,
        count: next,
    }
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
