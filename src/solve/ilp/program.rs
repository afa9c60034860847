//! The HiGHS program of one tier group, through the safe `highs` API: built row by row with a
//! typed [`RowLayout`] (where the degree, bye, parity-set, system and fixing rows sit), solved,
//! and read back into a [`Solved`] whose duals are taken by kind of row. An LP is kept
//! ([`WarmLp`]) between the pricing rounds of its group: priced pairs come in as columns
//! (`Model::try_add_column`) and cuts as rows (`Model::try_add_row`), and HiGHS goes on from
//! its last basis.
//!
//! Gaps in the safe API of `highs` 2.4, worked around here without `unsafe`:
//! * a `Row` has no public index or constructor, and a program built row by row
//!   (`RowProblem`, the only builder that hands out the `Col` handles cuts need) returns no
//!   `Row`s. The layout records each row's position as it is added (HiGHS numbers rows in
//!   that order; duals are a slice in that order) and takes the `Row` handles of a kept LP
//!   from a `ColProblem` with as many rows, whose `add_row` returns them in the same order.
//! * the duals come as whole slices (`Solution::dual_rows`, `dual_columns`), read through the
//!   layout; there is no dual by handle.
//! * there is no way to hand HiGHS a basis (only a primal start, `try_set_solution`), so a warm
//!   start means keeping the solved model itself.

use super::model::{Model, Solved};
use super::prepare::Fixed;
use crate::solve::{Options, Selection, SolveError};
use crate::spec::Var;
use highs::{Col, HighsModelStatus, Row};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// Where each kind of row sits in a program, by position (HiGHS numbers rows in the order
/// they are added; the duals come in that order).
#[derive(Debug, Clone, Default)]
pub(super) struct RowLayout {
    /// The degree row of each player: in one column exactly.
    degree: Vec<usize>,
    /// The bye row (at most `max_byes` byes), when byes are offered.
    bye: Option<usize>,
    /// The row of each parity set, in `Model::sets` order (cuts added to a kept LP come after
    /// every other row).
    sets: Vec<usize>,
    /// The system's rows, in `SystemRows::index` order.
    system: Vec<usize>,
    /// The fixing row of each earlier group (its optimum kept).
    fixed: Vec<usize>,
    rows: usize,
    /// Matrix entries as counted for the certificate: pair entries of parity-set rows and
    /// every entry of the other rows of the first program, every entry of a cut.
    nonzeros: usize,
}

impl RowLayout {
    fn next(&mut self) -> usize {
        self.rows += 1;
        self.rows - 1
    }

    /// An answer's row duals by kind of row, or `None` when they are not one per row.
    fn duals(&self, duals: &[f64]) -> Option<RowDuals> {
        if duals.len() != self.rows {
            return None;
        }
        let at = |v: &[usize]| v.iter().map(|&r| duals[r]).collect::<Vec<f64>>();
        Some(RowDuals {
            deg: at(&self.degree),
            bye: self.bye.map_or(0.0, |r| duals[r]),
            odd: at(&self.sets),
            extra: at(&self.system),
            fix: at(&self.fixed),
        })
    }
}

struct RowDuals {
    deg: Vec<f64>,
    bye: f64,
    odd: Vec<f64>,
    extra: Vec<f64>,
    fix: Vec<f64>,
}

/// An LP's HiGHS instance kept between the pricing rounds of one tier group.
pub(super) struct WarmLp {
    model: highs::Model,
    /// HiGHS column of each candidate pair in the LP.
    col_of: HashMap<usize, Col>,
    /// The bye columns, then the unpaired ones.
    side: Vec<Col>,
    /// The handle of every row, by position.
    handles: Vec<Row>,
    layout: RowLayout,
}

impl WarmLp {
    /// Whether the LP can go on with these rows: no parity set dropped, the same earlier
    /// groups fixed.
    pub fn fits(&self, sets: usize, fixed: usize) -> bool {
        self.layout.sets.len() <= sets && self.layout.fixed.len() == fixed
    }
}

/// A row's bound.
#[derive(Clone, Copy)]
enum Sense {
    Eq(f64),
    Geq(f64),
    Leq(f64),
}

/// The upper bound of an equality or `≤` row as it has always been handed to HiGHS: `−(0 −
/// v)`, so that a zero bound is −0.0. Kept so that HiGHS sees the same program bit for bit
/// (pairings are compared byte for byte across versions).
fn upper(v: f64) -> f64 {
    -(0.0 - v)
}

/// Merges a row's terms by column (HiGHS wants each column once in a row), in column order.
fn merged(terms: impl IntoIterator<Item = (usize, f64)>) -> BTreeMap<usize, f64> {
    let mut row = BTreeMap::new();
    for (l, k) in terms {
        *row.entry(l).or_insert(0.0) += k;
    }
    row
}

/// A program being built row by row: its columns (local: the active pairs, then byes, then
/// unpaired), and where each row added so far sits.
struct Build {
    pb: highs::RowProblem,
    x: Vec<Col>,
    /// The active pairs' local columns by candidate index.
    local_of_pair: HashMap<usize, usize>,
    /// Active pairs and byes: the bye columns start at `na`, the unpaired ones at `na + nb`.
    na: usize,
    nb: usize,
    layout: RowLayout,
}

impl Build {
    /// Adds a row over local columns; returns its position.
    fn add(&mut self, sense: Sense, row: BTreeMap<usize, f64>) -> usize {
        let factors = row.into_iter().map(|(l, k)| (self.x[l], k));
        match sense {
            Sense::Eq(v) => self.pb.add_row(upper(v)..=upper(v), factors),
            Sense::Geq(v) => self.pb.add_row(v.., factors),
            Sense::Leq(v) => self.pb.add_row(..=upper(v), factors),
        }
        self.layout.next()
    }
}

impl Model {
    /// Builds and solves the program over pairs `active` (LP relaxation when `integer` is
    /// false), with the tiers of `group` as objective and the optima of `fixed` as rows. An
    /// LP's HiGHS instance comes back too, for [`Model::rerun`].
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        active: &[usize],
        group: &[(usize, i128)],
        fixed: &[Fixed],
        integer: bool,
        start: Option<&Selection>,
        opts: &Options,
        deadline: Option<Instant>,
    ) -> Result<(Solved, Option<WarmLp>), SolveError> {
        let build0 = Instant::now();
        // Local columns: active pairs, byes, unpaired.
        let global: Vec<usize> = active
            .iter()
            .copied()
            .chain(self.cols.pairs..self.cols.count())
            .collect();
        let mut b = self.columns(active, &global, group, integer);
        self.degree_rows(&mut b, active);
        self.set_rows(&mut b, active);
        self.system_rows(&mut b);
        self.fixing_rows(&mut b, &global, fixed);
        let Build {
            pb,
            x,
            local_of_pair,
            na,
            nb,
            layout,
        } = b;
        let rows = layout.rows;
        let mut m = pb
            .try_optimise(highs::Sense::Minimise)
            .map_err(|status| SolveError::highs(HighsStep::Build, status))?;
        configure(&mut m, opts, deadline);
        if let (true, Some(sel)) = (integer, start) {
            let mut v = vec![0.0; global.len()];
            for &k in &sel.pairs {
                if let Some(&l) = local_of_pair.get(&k) {
                    v[l] = 1.0;
                }
            }
            for &p in &sel.byes {
                if let Some(j) = self.spec.byes.iter().position(|b| b.player == p) {
                    v[na + j] = 1.0;
                }
            }
            for &p in &sel.unpaired {
                v[na + nb + p] = 1.0;
            }
            let _ = m.try_set_solution(Some(&v), None, None, None);
        }
        let t0 = Instant::now();
        let solved = m
            .try_solve()
            .map_err(|status| SolveError::highs(HighsStep::Solve, status))?;
        trace_solve(
            if integer { "MIP" } else { "LP " },
            group,
            &global.len().to_string(),
            rows,
            fixed.len(),
            &solved,
            t0.elapsed().as_secs_f64(),
            (t0 - build0).as_secs_f64(),
        );
        let out = read_solved(&solved, integer, &x, &layout)?;
        let warm = (!integer).then(|| {
            // The rows' handles, in the order they were added (see the module docs).
            let mut handles = highs::ColProblem::default();
            let handles = (0..layout.rows).map(|_| handles.add_row(..=0.0)).collect();
            WarmLp {
                model: highs::Model::from(solved),
                col_of: active.iter().enumerate().map(|(l, &k)| (k, x[l])).collect(),
                side: x[na..].to_vec(),
                handles,
                layout,
            }
        });
        Ok((out, warm))
    }

    /// The program's columns over `global` (the active pairs, then every bye and unpaired
    /// column), with their costs on `group`; a bye or unpaired column fixed at 0 has bound 0.
    fn columns(
        &self,
        active: &[usize],
        global: &[usize],
        group: &[(usize, i128)],
        integer: bool,
    ) -> Build {
        let (nb, na) = (self.cols.byes, active.len());
        let mut pb = highs::RowProblem::default();
        let x: Vec<Col> = global
            .iter()
            .enumerate()
            .map(|(l, &g)| {
                let dead = (l >= na && l < na + nb && self.dead_bye[l - na])
                    || (l >= na + nb && self.dead_unpaired[l - na - nb]);
                let hi = if dead { 0.0 } else { 1.0 };
                let c = self.coef(g, group);
                let cost = if c != 0 { c as f64 } else { 0.0 };
                pb.add_column_with_integrality(cost, 0.0..=hi, integer)
            })
            .collect();
        Build {
            pb,
            x,
            local_of_pair: active.iter().enumerate().map(|(l, &k)| (k, l)).collect(),
            na,
            nb,
            layout: RowLayout::default(),
        }
    }

    /// Each player in exactly one column (a pair, his bye, or unpaired); at most `max_byes`
    /// byes (exactly, when the bye is tight).
    fn degree_rows(&self, b: &mut Build, active: &[usize]) {
        let (na, nb) = (b.na, b.nb);
        let mut incident: Vec<Vec<usize>> = vec![Vec::new(); self.spec.players.len()];
        for (l, &k) in active.iter().enumerate() {
            let c = &self.spec.candidates[k];
            incident[c.a].push(l);
            incident[c.b].push(l);
        }
        for (j, bye) in self.spec.byes.iter().enumerate() {
            incident[bye.player].push(na + j);
        }
        for (i, inc) in incident.iter_mut().enumerate() {
            inc.push(na + nb + i);
            b.layout.nonzeros += inc.len();
            let at = b.add(Sense::Eq(1.0), merged(inc.iter().map(|&l| (l, 1.0))));
            b.layout.degree.push(at);
        }
        if nb > 0 {
            let m = self.spec.max_byes as f64;
            let sense = if self.bye_tight {
                Sense::Eq(m)
            } else {
                Sense::Leq(m)
            };
            let at = b.add(sense, merged((0..nb).map(|j| (na + j, 1.0))));
            b.layout.bye = Some(at);
            b.layout.nonzeros += nb;
        }
    }

    /// One row per parity set. Odd S: x(δ(S)) + y(S) + u(S) ≥ 1. Even S (a bye is given):
    /// the bye is one more vertex, so x(δ(S)) + u(S) − y(S) ≥ 0: a bye inside S makes a pair
    /// leave it. Equalities for the sets known tight.
    fn set_rows(&self, b: &mut Build, active: &[usize]) {
        let (na, nb) = (b.na, b.nb);
        for (si, inside) in self.sets.iter().enumerate() {
            let odd = inside.iter().filter(|&&b| b).count() % 2 == 1;
            let mut terms = Vec::new();
            for (l, &k) in active.iter().enumerate() {
                let c = &self.spec.candidates[k];
                if inside[c.a] != inside[c.b] {
                    terms.push((l, 1.0));
                    b.layout.nonzeros += 1;
                }
            }
            for (j, bye) in self.spec.byes.iter().enumerate() {
                if inside[bye.player] {
                    terms.push((na + j, if odd { 1.0 } else { -1.0 }));
                }
            }
            for (i, &inn) in inside.iter().enumerate() {
                if inn {
                    terms.push((na + nb + i, 1.0));
                }
            }
            let rhs = if odd { 1.0 } else { 0.0 };
            let sense = if self.tight[si] {
                Sense::Eq(rhs)
            } else {
                Sense::Geq(rhs)
            };
            let at = b.add(sense, merged(terms));
            b.layout.sets.push(at);
        }
    }

    /// The system's rows over the local columns (terms on pairs not active drop out): a
    /// `≥` row for a minimum, a `≤` row for a maximum.
    fn system_rows(&self, b: &mut Build) {
        let (na, nb) = (b.na, b.nb);
        let spec = &self.spec;
        for row in &spec.rows {
            let mut terms = Vec::new();
            for &(var, k) in &row.terms {
                let l = match var {
                    Var::Pair(c) => match b.local_of_pair.get(&c) {
                        Some(&l) => l,
                        None => continue,
                    },
                    Var::Bye(p) => match spec.byes.iter().position(|b| b.player == p) {
                        Some(j) => na + j,
                        None => continue,
                    },
                    Var::Unpaired(p) => na + nb + p,
                };
                terms.push((l, k as f64));
                b.layout.nonzeros += 1;
            }
            if let Some(m) = row.min {
                let at = b.add(Sense::Geq(m as f64), merged(terms.clone()));
                b.layout.system.push(at);
            }
            if let Some(m) = row.max {
                let at = b.add(Sense::Leq(m as f64), merged(terms));
                b.layout.system.push(at);
            }
        }
    }

    /// Each earlier group's optimum kept: its tiers' total at most its optimum (plus ½, the
    /// totals being integers).
    fn fixing_rows(&self, b: &mut Build, global: &[usize], fixed: &[Fixed]) {
        for (fg, opt) in fixed {
            let mut terms = Vec::new();
            for (l, &g) in global.iter().enumerate() {
                let c = self.coef(g, fg);
                if c != 0 {
                    terms.push((l, c as f64));
                    b.layout.nonzeros += 1;
                }
            }
            let at = b.add(Sense::Leq(*opt as f64 + 0.5), merged(terms));
            b.layout.fixed.push(at);
        }
    }

    /// Re-solves a kept LP after pricing: the pairs of `active` not yet in it are added as
    /// columns, and HiGHS starts from the last optimal basis instead of from scratch. The
    /// rows must be those the LP was built with (same group, fixed rows and odd sets).
    pub fn rerun(
        &self,
        mut w: WarmLp,
        active: &[usize],
        group: &[(usize, i128)],
        fixed: &[Fixed],
        deadline: Option<Instant>,
    ) -> Result<(Solved, WarmLp), SolveError> {
        let t0 = Instant::now();
        let nb = self.cols.byes;
        // Cuts found since the LP was built become rows after all the others, over the
        // columns it has (columns added below get their entries in them too); the basis
        // stays dual feasible, so the dual simplex goes on from it.
        let cuts = self.sets.len() - w.layout.sets.len();
        let mut cols: Vec<(Col, usize)> = Vec::new();
        if cuts > 0 {
            cols = w.col_of.iter().map(|(&k, &c)| (c, k)).collect();
            cols.sort_unstable_by_key(|&(c, _)| c.index());
        }
        for inside in &self.sets[w.layout.sets.len()..] {
            let odd = inside.iter().filter(|&&b| b).count() % 2 == 1;
            let mut factors: Vec<(Col, f64)> = Vec::new();
            for &(col, k) in &cols {
                let c = &self.spec.candidates[k];
                if inside[c.a] != inside[c.b] {
                    factors.push((col, 1.0));
                }
            }
            for (j, b) in self.spec.byes.iter().enumerate() {
                if inside[b.player] {
                    factors.push((w.side[j], if odd { 1.0 } else { -1.0 }));
                }
            }
            for (i, &inn) in inside.iter().enumerate() {
                if inn {
                    factors.push((w.side[nb + i], 1.0));
                }
            }
            let rhs = if odd { 1.0 } else { 0.0 };
            w.layout.nonzeros += factors.len();
            let row = w
                .model
                .try_add_row(rhs.., factors)
                .map_err(|status| SolveError::highs(HighsStep::Cut, status))?;
            w.handles.push(row);
            let at = w.layout.next();
            w.layout.sets.push(at);
        }
        let layout = &w.layout;
        let mut added = 0;
        for &k in active {
            if w.col_of.contains_key(&k) {
                continue;
            }
            let c = &self.spec.candidates[k];
            let mut rows: Vec<usize> = vec![layout.degree[c.a], layout.degree[c.b]];
            let mut factors: Vec<f64> = vec![1.0, 1.0];
            for (si, inside) in self.sets.iter().enumerate() {
                if inside[c.a] != inside[c.b] {
                    rows.push(layout.sets[si]);
                    factors.push(1.0);
                }
            }
            // A pair may be named twice in one system row (HiGHS wants each row once).
            let mut extra: BTreeMap<usize, i64> = BTreeMap::new();
            for &(ri, coef) in &self.rows.on_pair[k] {
                for &e in &self.rows.index[ri] {
                    *extra.entry(e).or_default() += coef;
                }
            }
            for (e, coef) in extra.into_iter().filter(|&(_, c)| c != 0) {
                rows.push(layout.system[e]);
                factors.push(coef as f64);
            }
            for (fi, (fg, _)) in fixed.iter().enumerate() {
                let cf = self.coef(k, fg);
                if cf != 0 {
                    rows.push(layout.fixed[fi]);
                    factors.push(cf as f64);
                }
            }
            let entries = rows.into_iter().map(|r| w.handles[r]).zip(factors);
            let col = w
                .model
                .try_add_column(self.coef(k, group) as f64, 0.0..=1.0, entries)
                .map_err(|status| SolveError::highs(HighsStep::Column, status))?;
            w.col_of.insert(k, col);
            added += 1;
        }
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
            w.model.set_option("time_limit", left.max(0.01));
        }
        // Priced columns keep the last basis primal feasible: the primal simplex goes on from
        // it (a few iterations for a few columns), where the dual simplex starts over
        // (EXPERIMENTS.md: 10,000 players, about 7,000 iterations for one added column).
        // After cuts (new rows, the basis dual feasible), the dual simplex.
        w.model.set_option(
            "simplex_strategy",
            if cuts > 0 && added == 0 { 1 } else { 4 },
        );
        let t1 = Instant::now();
        let solved = w
            .model
            .try_solve()
            .map_err(|status| SolveError::highs(HighsStep::Solve, status))?;
        trace_solve(
            "LP+",
            group,
            &format!("{} (+{added} kept basis)", w.col_of.len() + w.side.len()),
            w.layout.rows,
            fixed.len(),
            &solved,
            t1.elapsed().as_secs_f64(),
            (t1 - t0).as_secs_f64(),
        );
        // Values and reduced costs in `run`'s layout: the active pairs, then byes, unpaired.
        let order: Vec<Col> = active
            .iter()
            .map(|k| w.col_of[k])
            .chain(w.side.iter().copied())
            .collect();
        let out = read_solved(&solved, false, &order, &w.layout)?;
        w.model = highs::Model::from(solved);
        Ok((out, w))
    }
}

/// HiGHS's options for one solve: quiet, seeded, exact gaps, one thread, no presolve, the
/// time left before `deadline`.
fn configure(m: &mut highs::Model, opts: &Options, deadline: Option<Instant>) {
    m.make_quiet();
    m.set_option("random_seed", opts.seed);
    m.set_option("mip_rel_gap", 0.0);
    m.set_option("mip_abs_gap", 0.5);
    m.set_option("threads", 1);
    // Measured: presolve costs more than it saves on these models (EXPERIMENTS.md).
    m.set_option("presolve", "off");
    if let Some(d) = deadline {
        let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
        m.set_option("time_limit", left.max(0.01));
    }
}

/// Which HiGHS call failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HighsStep {
    /// Loading the program.
    Build,
    /// Solving it.
    Solve,
    /// Adding an odd-set cut to a kept LP.
    Cut,
    /// Adding a priced pair to a kept LP.
    Column,
}

/// A solve's answer with values and reduced costs of the columns `order`, duals by kind of row.
fn read_solved(
    solved: &highs::SolvedModel,
    integer: bool,
    order: &[Col],
    layout: &RowLayout,
) -> Result<Solved, SolveError> {
    let status = solved.status();
    let sol = solved.get_solution();
    let cols = sol.columns();
    if order.iter().any(|c| c.index() >= cols.len())
        || solved.primal_solution_status() != highs::HighsSolutionStatus::Feasible
    {
        return Err(SolveError::NoPairing(status));
    }
    let values: Vec<f64> = order.iter().map(|&c| sol[c]).collect();
    let reduced = if integer {
        Vec::new()
    } else {
        let dc = sol.dual_columns();
        order.iter().map(|c| dc[c.index()]).collect()
    };
    let objective = solved.objective_value();
    let bound = if integer {
        solved
            .double_info_value(c"mip_dual_bound")
            .ok()
            .filter(|b| b.is_finite())
    } else {
        Some(objective)
    };
    let gap = if integer { solved.mip_gap() } else { 0.0 };
    let duals = (!integer).then(|| layout.duals(sol.dual_rows())).flatten();
    let (deg, bye, odd, extra, fix) = match duals {
        Some(d) => (d.deg, d.bye, d.odd, d.extra, d.fix),
        None => Default::default(),
    };
    Ok(Solved {
        proved: status == HighsModelStatus::Optimal,
        status,
        objective,
        bound,
        gap: if gap.is_finite() { gap } else { 0.0 },
        values,
        deg,
        bye,
        odd,
        extra,
        fix,
        reduced,
        rows: layout.rows,
        nonzeros: layout.nonzeros,
        iterations: iterations(solved),
    })
}

/// Simplex iterations of a solve.
fn iterations(s: &highs::SolvedModel) -> u64 {
    u64::try_from(s.simplex_iteration_count()).unwrap_or(0)
}

/// One trace line per HiGHS solve (`log` level debug).
#[allow(clippy::too_many_arguments)]
fn trace_solve(
    kind: &str,
    group: &[(usize, i128)],
    cols: &str,
    rows: usize,
    fixed: usize,
    solved: &highs::SolvedModel,
    seconds: f64,
    build: f64,
) {
    log::debug!(
        "{kind} tiers {:?} cols {cols} rows {rows} fixed {fixed} -> {:?} obj {} in {seconds:.3} s (build {build:.3} s) iters {}",
        group.iter().map(|g| g.0).collect::<Vec<_>>(),
        solved.status(),
        solved.objective_value(),
        iterations(solved),
    );
}
