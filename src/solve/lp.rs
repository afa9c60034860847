//! A small builder of linear and integer programs for the solver's side programs (the quad
//! memberships): columns with bounds, affine expressions over them, rows, then one HiGHS model.
//! The round's own program builds its `highs::RowProblem` directly (`ilp::program`, which
//! needs the row handles for cuts); this builder is for programs written as expressions.

use std::collections::BTreeMap;
use std::ops::{Add, AddAssign, Mul, Sub};

/// A column of a [`Program`]: its index, in the order columns were added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Var(usize);

/// An affine expression: Σ coefficient·column + constant. Terms on one column add up.
#[derive(Clone, Debug, Default)]
pub(crate) struct Expr {
    terms: BTreeMap<usize, f64>,
    constant: f64,
}

/// A row: `lo ≤ Σ terms ≤ hi`, the expression's constant moved into the bounds.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    terms: Vec<(usize, f64)>,
    lo: f64,
    hi: f64,
}

impl Expr {
    /// Adds `coef · v`.
    pub fn add_mul(&mut self, coef: f64, v: Var) {
        *self.terms.entry(v.0).or_insert(0.0) += coef;
    }

    fn row(self, lo: f64, hi: f64) -> Row {
        let c = self.constant;
        Row {
            terms: self.terms.into_iter().filter(|(_, a)| *a != 0.0).collect(),
            lo: lo - c,
            hi: hi - c,
        }
    }

    /// `self ≥ rhs`.
    pub fn geq(self, rhs: impl Into<f64>) -> Row {
        self.row(rhs.into(), f64::INFINITY)
    }

    /// `self ≤ rhs`.
    pub fn leq(self, rhs: impl Into<f64>) -> Row {
        self.row(f64::NEG_INFINITY, rhs.into())
    }

    /// `self = rhs`.
    pub fn eq(self, rhs: impl Into<f64>) -> Row {
        let r = rhs.into();
        self.row(r, r)
    }
}

impl From<Var> for Expr {
    fn from(v: Var) -> Self {
        let mut e = Expr::default();
        e.add_mul(1.0, v);
        e
    }
}

impl Add<f64> for Expr {
    type Output = Expr;
    fn add(mut self, c: f64) -> Expr {
        self.constant += c;
        self
    }
}

impl Add<Var> for Expr {
    type Output = Expr;
    fn add(mut self, v: Var) -> Expr {
        self.add_mul(1.0, v);
        self
    }
}

impl Add<Var> for Var {
    type Output = Expr;
    fn add(self, v: Var) -> Expr {
        Expr::from(self) + v
    }
}

impl Sub<Var> for Expr {
    type Output = Expr;
    fn sub(mut self, v: Var) -> Expr {
        self.add_mul(-1.0, v);
        self
    }
}

impl Sub<Expr> for Expr {
    type Output = Expr;
    fn sub(mut self, e: Expr) -> Expr {
        for (k, a) in e.terms {
            *self.terms.entry(k).or_insert(0.0) -= a;
        }
        self.constant -= e.constant;
        self
    }
}

impl AddAssign<Expr> for Expr {
    fn add_assign(&mut self, e: Expr) {
        for (k, a) in e.terms {
            *self.terms.entry(k).or_insert(0.0) += a;
        }
        self.constant += e.constant;
    }
}

impl Mul<f64> for Expr {
    type Output = Expr;
    fn mul(mut self, c: f64) -> Expr {
        self.terms.values_mut().for_each(|a| *a *= c);
        self.constant *= c;
        self
    }
}

impl std::iter::Sum<Var> for Expr {
    fn sum<I: Iterator<Item = Var>>(iter: I) -> Expr {
        let mut e = Expr::default();
        iter.for_each(|v| e.add_mul(1.0, v));
        e
    }
}

/// Columns (bounds, integrality) and rows, in the order they were added.
#[derive(Default)]
pub(crate) struct Program {
    cols: Vec<(f64, f64, bool)>,
    rows: Vec<Row>,
}

impl Program {
    /// A continuous column within `[lo, hi]`.
    pub fn var(&mut self, lo: f64, hi: f64) -> Var {
        self.cols.push((lo, hi, false));
        Var(self.cols.len() - 1)
    }

    /// A 0/1 column.
    pub fn binary(&mut self) -> Var {
        self.cols.push((0.0, 1.0, true));
        Var(self.cols.len() - 1)
    }

    /// Adds a row.
    pub fn add(&mut self, row: Row) {
        self.rows.push(row);
    }

    /// The HiGHS model minimising `objective` (its constant dropped) over the rows.
    pub fn minimise(self, objective: &Expr) -> Result<highs::Model, highs::HighsStatus> {
        let mut pb = highs::RowProblem::default();
        let cols: Vec<highs::Col> = (self.cols.iter().enumerate())
            .map(|(k, &(lo, hi, int))| {
                let cost = objective.terms.get(&k).copied().unwrap_or(0.0);
                pb.add_column_with_integrality(cost, lo..=hi, int)
            })
            .collect();
        for r in self.rows {
            let factors = r.terms.iter().map(|&(k, a)| (cols[k], a));
            pb.add_row(r.lo..=r.hi, factors);
        }
        pb.try_optimise(highs::Sense::Minimise)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// min x + 2y with x + y ≥ 1.5, both integral in [0, 1] → x = y = 1, objective 3; the
    /// expression's constant moves into the row's bounds.
    #[test]
    fn integer_program_solves_with_constants_in_bounds() {
        let mut p = Program::default();
        let (x, y) = (p.binary(), p.binary());
        p.add(((x + y) + 0.5).geq(2.0));
        let mut obj = Expr::from(x);
        obj.add_mul(2.0, y);
        let mut m = p.minimise(&obj).unwrap();
        m.make_quiet();
        let s = m.try_solve().unwrap();
        assert_eq!(s.status(), highs::HighsModelStatus::Optimal);
        let v = s.get_solution().columns().to_vec();
        assert!((v[0] - 1.0).abs() < 1e-9 && (v[1] - 1.0).abs() < 1e-9);
    }
}
