//! What the solver knows of a round between solves: the specification (with the pairs priced
//! in so far), every column's costs, the parity sets, the system's rows, and what earlier tier
//! groups proved (rows held tight, bye and unpaired columns fixed at 0); and one solve's
//! answer, its duals by kind of row.

use super::prepare::{Columns, Fixed, SystemRows};
use crate::spec::RoundSpec;
use highs::HighsModelStatus;

/// Everything about the model that does not change between solves.
pub(super) struct Model {
    /// The specification, with any pairs priced in from a source appended to its candidates.
    pub spec: RoundSpec,
    pub costs: Vec<Vec<i64>>,
    pub cols: Columns,
    /// Parity sets as membership masks: those of the first program, then the cuts.
    pub sets: Vec<Vec<bool>>,
    /// The system's rows: terms on pairs by candidate, program rows per system row.
    pub rows: SystemRows,
    /// Parity-set rows held with equality: tight (nonzero dual) at an earlier group's optimum
    /// that its LP bound proved, so tight in every pairing optimal for that group.
    pub tight: Vec<bool>,
    /// The bye row held with equality, for the same reason.
    pub bye_tight: bool,
    /// Bye and unpaired columns fixed at 0 (reduced cost above an earlier group's gap).
    pub dead_bye: Vec<bool>,
    pub dead_unpaired: Vec<bool>,
}

/// One HiGHS solve over a subset of the candidate pairs (or the proof of a zero bound that
/// needs none, `close::costless`).
pub(super) struct Solved {
    pub proved: bool,
    pub status: HighsModelStatus,
    pub objective: f64,
    pub bound: Option<f64>,
    pub gap: f64,
    /// Values of the active pair columns, then byes, then unpaired.
    pub values: Vec<f64>,
    /// Duals (LP only; empty after a MIP): degree rows, by player.
    pub deg: Vec<f64>,
    /// Dual of the bye row (0 without byes).
    pub bye: f64,
    /// Duals of the parity-set rows, by set.
    pub odd: Vec<f64>,
    /// Duals of the system's rows, by program row (`SystemRows::index`).
    pub extra: Vec<f64>,
    /// Duals of the earlier groups' fixing rows, by group.
    pub fix: Vec<f64>,
    /// Reduced costs of the columns (LP only), in the order of `values`.
    pub reduced: Vec<f64>,
    pub rows: usize,
    pub nonzeros: usize,
    /// Simplex iterations HiGHS spent on it.
    pub iterations: u64,
}

impl Model {
    /// Column `col`'s objective coefficient in a group: its tier costs weighted.
    pub fn coef(&self, col: usize, group: &[(usize, i128)]) -> i128 {
        group
            .iter()
            .map(|&(t, w)| w * self.costs[col][t] as i128)
            .sum()
    }

    /// Reduced cost of candidate `k` under the duals of an LP solve.
    pub fn reduced_cost(
        &self,
        k: usize,
        group: &[(usize, i128)],
        fixed: &[Fixed],
        lp: &Solved,
    ) -> f64 {
        let c = &self.spec.candidates[k];
        let mut rc = self.coef(k, group) as f64 - lp.deg[c.a] - lp.deg[c.b];
        for (s, inside) in self.sets.iter().enumerate() {
            if inside[c.a] != inside[c.b] {
                rc -= lp.odd[s];
            }
        }
        for &(ri, coef) in &self.rows.on_pair[k] {
            for &row in &self.rows.index[ri] {
                rc -= coef as f64 * lp.extra[row];
            }
        }
        for (f, (fg, _)) in fixed.iter().enumerate() {
            let a = self.coef(k, fg);
            if a != 0 {
                rc -= a as f64 * lp.fix[f];
            }
        }
        rc
    }
}
