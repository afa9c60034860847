//! The driver: the round's tier groups in priority order, one call of [`Driver::tier_group`]
//! per group — its LP relaxed and priced until the bound holds over all pairs
//! ([`Driver::relax`]), closed ([`Driver::close`]), and its optimum kept for the groups below
//! it ([`Driver::record`]) — then the certificate.

use super::close::{self, group_value, Closing, MipWork};
use super::columns::{activate, adopt, grow, initial_columns, integral, source_greedy, ColumnSet};
use super::model::{Model, Solved};
use super::prepare::{self, Columns, Fixed, Group};
use super::pricing::{price_source, Closed, Priced};
use super::program::WarmLp;
use super::{cuts, Cancel, Outcome, EPS};
use crate::solve::certificate::{Certificate, ModelSize, SolverStats, Status};
use crate::solve::{exchange, Options, Selection, SolveError, TimeLimitAt};
use crate::spec::{PairSource, RoundSpec};
use highs::HighsModelStatus;
use std::collections::HashSet;
use std::time::Instant;

/// Candidates per player in the first restricted program.
const PER_PLAYER: usize = 12;
/// Rounds of odd-set cut separation per tier group before the MIP takes over.
const MAX_CUT_ROUNDS: usize = 8;

/// The state carried from one tier group to the next.
struct Driver<'a> {
    spec: &'a RoundSpec,
    source: Option<&'a dyn PairSource>,
    opts: &'a Options,
    deadline: Option<Instant>,
    started: Instant,
    model: Model,
    pool: ColumnSet,
    /// The optima of the groups closed so far, each held by a row.
    fixed: Vec<Fixed>,
    /// Closed groups' LP duals: an unlisted pair they price above their gap is in no optimum.
    closed: Vec<Closed>,
    /// The incumbent: the best pairing so far, keeping every closed group's optimum.
    selection: Selection,
    /// Per tier: the bound proved and whether the tier is proved optimal.
    proof: Vec<(Option<f64>, bool)>,
    size: ModelSize,
    stats: SolverStats,
    last_gap: f64,
    status: Status,
}

/// A group's LP whose bound holds over all pairs, or that stopped at the cut limit; with the
/// exact weighted matching that closed it, if one did.
struct Relaxed {
    lp: Solved,
    matched: Option<Selection>,
}

/// Solves the round's tier groups in turn on this thread; `cancel` is asked between solves.
pub(super) fn solve_here(
    spec: &RoundSpec,
    source: Option<&dyn PairSource>,
    opts: &Options,
    deadline: Option<Instant>,
    cancel: Cancel,
) -> Result<Outcome, SolveError> {
    let mut d = Driver::new(spec, source, opts, deadline);
    log::debug!(
        "start (greedy pairings, first columns) in {:.3} s",
        d.started.elapsed().as_secs_f64()
    );
    let groups = prepare::tier_groups(spec, &d.model.costs, source);
    d.proof = vec![(None, false); groups.iter().map(|g| g.len()).sum()];
    d.stats.tier_groups = groups.len();
    for (k, group) in groups.iter().enumerate() {
        let step = crate::solve::Step::Tier {
            done: k,
            of: groups.len(),
        };
        crate::solve::progress::report(opts.progress.as_ref(), step);
        if !d.tier_group(group, groups.len(), cancel)? {
            break;
        }
    }
    d.finish()
}

impl<'a> Driver<'a> {
    /// The model, the first columns and the incumbent: the greedy pairing, or with a pair
    /// source the greedy pass over it when that is better.
    fn new(
        spec: &'a RoundSpec,
        source: Option<&'a dyn PairSource>,
        opts: &'a Options,
        deadline: Option<Instant>,
    ) -> Self {
        let started = Instant::now();
        let n = spec.players.len();
        let listed: HashSet<(usize, usize)> = match source {
            Some(_) => spec.candidates.iter().map(|c| (c.a, c.b)).collect(),
            None => HashSet::new(),
        };
        let sets = if opts.odd_set_rows {
            prepare::odd_sets(spec)
        } else {
            Vec::new()
        };
        let mut model = Model {
            spec: spec.clone(),
            costs: prepare::column_costs(spec),
            cols: Columns {
                pairs: spec.candidates.len(),
                byes: spec.byes.len(),
                players: n,
            },
            tight: vec![false; sets.len()],
            sets,
            rows: prepare::system_rows(spec),
            bye_tight: false,
            dead_bye: vec![false; spec.byes.len()],
            dead_unpaired: vec![false; n],
        };
        // A warm start and a guaranteed-feasible column set: the greedy pairing.
        let mut greedy = crate::solve::warm::pair(spec);
        let per_player = if opts.full_candidates {
            usize::MAX
        } else {
            PER_PLAYER
        };
        let active = initial_columns(spec, per_player, &greedy);
        let mut in_active = vec![false; spec.candidates.len()];
        for &k in &active {
            in_active[k] = true;
        }
        let mut pool = ColumnSet {
            listed,
            from_source: 0,
            active,
            in_active,
            dead: vec![false; spec.candidates.len()],
        };
        if let Some(src) = source {
            // The listed pairs alone make a poor warm start; the same greedy pass with every
            // partner of the player's own and nearest score groups does much better.
            let (pairs, bye) = source_greedy(&model.spec, src);
            let indices = adopt(&mut model, &pairs, &mut pool);
            let mut sel = Selection {
                pairs: indices,
                byes: bye.into_iter().collect(),
                unpaired: Vec::new(),
            };
            let mut used = vec![false; n];
            for c in &pairs {
                used[c.a] = true;
                used[c.b] = true;
            }
            for &b in &sel.byes {
                used[b] = true;
            }
            sel.unpaired = (0..n).filter(|&i| !used[i]).collect();
            if sel.tier_values(&model.spec) < greedy.tier_values(&model.spec) {
                // The incumbent's pairs are columns of every restricted program.
                activate(&sel.pairs, &mut pool.active, &mut pool.in_active);
                greedy = sel;
            }
        }
        let size = ModelSize {
            players: n,
            all_pairs: spec.all_pairs(),
            candidates: spec.candidates.len(),
            odd_set_rows: model.sets.len(),
            ..ModelSize::default()
        };
        let stats = SolverStats {
            listed: spec.candidates.len(),
            ..SolverStats::default()
        };
        Driver {
            spec,
            source,
            opts,
            deadline,
            started,
            model,
            pool,
            fixed: Vec::new(),
            closed: Vec::new(),
            selection: greedy,
            proof: Vec::new(),
            size,
            stats,
            last_gap: 0.0,
            status: Status::Optimal,
        }
    }

    /// One tier group, start to end. Returns whether the next group is to be solved (not
    /// when this one is not proved, or the solve is cancelled).
    fn tier_group(
        &mut self,
        group: &Group,
        groups: usize,
        cancel: Cancel,
    ) -> Result<bool, SolveError> {
        let Some(relaxed) = self.relax(group, cancel)? else {
            self.status = Status::Feasible;
            return Ok(false);
        };
        let Some(closing) = self.close(group, &relaxed, cancel)? else {
            self.status = Status::Feasible;
            return Ok(false);
        };
        let go_on = self.record(group, &relaxed.lp, closing);
        if go_on && cancel() && self.fixed.len() < groups {
            self.status = Status::Feasible;
            return Ok(false);
        }
        Ok(go_on)
    }

    /// Column generation on the group's LP relaxation, with odd-set cuts separated from its
    /// fractional support, until no cut is violated and no excluded pair prices out — or the
    /// group is closed on the way (at zero cost, on the LP face, by weighted matching).
    /// `None` when cancelled.
    fn relax(&mut self, group: &Group, cancel: Cancel) -> Result<Option<Relaxed>, SolveError> {
        let mut cut_rounds = 0;
        // The LP kept between pricing rounds (cuts are added to it as rows).
        let mut warm: Option<WarmLp> = None;
        let mut first = true;
        loop {
            if cancel() {
                return Ok(None);
            }
            let first_lp = std::mem::take(&mut first) && !self.opts.full_candidates;
            if first_lp {
                if let Some(r) = self.before_first_lp(group) {
                    return Ok(Some(r));
                }
            }
            let lp = self.solve_lp(group, &mut warm)?;
            if !self.price(group, &lp, cancel) {
                // The LP bound now holds over all pairs.
                if let Some(r) = self.at_bound(group, lp, cancel, &mut cut_rounds) {
                    return Ok(Some(r));
                }
            }
            if cancel() {
                return Ok(None);
            }
        }
    }

    /// Before a group's first LP: a group the incumbent pays nothing on, where nothing costs
    /// less than nothing, is closed at once (zero duals prove the bound 0: every reduced
    /// cost is the cost); else a better incumbent from partner exchanges, and its pairs as
    /// columns (item 10).
    fn before_first_lp(&mut self, group: &Group) -> Option<Relaxed> {
        let (opts, source) = (self.opts, self.source);
        let (model, pool, fixed) = (&mut self.model, &mut self.pool, &self.fixed);
        if opts.zero_cost {
            if let Some(lp) =
                close::costless(model, source, &pool.active, group, fixed, &self.selection)
            {
                self.stats.closed_at_zero_cost += 1;
                return Some(Relaxed { lp, matched: None });
            }
        }
        let costs_something = |sel: &Selection| {
            let tv = sel.tier_values(&model.spec);
            group.iter().any(|&(t, _)| tv[t] > 0)
        };
        if !(opts.exchange
            && source.is_some()
            && model.spec.rows.is_empty()
            && costs_something(&self.selection))
        {
            return None;
        }
        let t = Instant::now();
        let ex = exchange::exchange(
            &model.spec,
            &pool.dead,
            source,
            group,
            fixed,
            &self.selection.pairs,
        )?;
        let pairs = adopt(model, &ex.pairs, pool);
        let mut exchanged = self.selection.clone();
        exchanged.pairs = pairs.clone();
        let keeps = fixed
            .iter()
            .all(|(g, opt)| group_value(&model.spec, &exchanged, g) <= *opt);
        debug_assert!(keeps, "partner exchanges lost an earlier optimum");
        if keeps {
            self.selection = exchanged;
            self.stats.exchanged += 1;
        }
        activate(&pairs, &mut pool.active, &mut pool.in_active);
        log::debug!(
            "exchanges: incumbent {} -> {} in {:.3} s",
            ex.before,
            ex.after,
            t.elapsed().as_secs_f64()
        );
        None
    }

    /// The group's LP over the active columns: from the kept one (`warm`) when it still fits,
    /// else built afresh.
    fn solve_lp(&mut self, group: &Group, warm: &mut Option<WarmLp>) -> Result<Solved, SolveError> {
        let (opts, deadline) = (self.opts, self.deadline);
        let (model, pool, fixed) = (&mut self.model, &self.pool, &self.fixed);
        let keep = warm
            .take()
            .filter(|w| opts.warm_lp && w.fits(model.sets.len(), fixed.len()));
        let lp = match keep {
            Some(w) => {
                let (lp, w) = model.rerun(w, &pool.active, group, fixed, deadline)?;
                *warm = Some(w);
                lp
            }
            None => {
                let (lp, w) = model.run(&pool.active, group, fixed, false, None, opts, deadline)?;
                *warm = w;
                lp
            }
        };
        self.size.solves += 1;
        self.stats.simplex_iterations += lp.iterations;
        if lp.status != HighsModelStatus::Optimal || lp.deg.len() != self.spec.players.len() {
            return Err(SolveError::LpNotSolved(lp.status));
        }
        Ok(lp)
    }

    /// Adds the columns that price out under the LP's duals: listed candidates first, then
    /// pairs of the source. False when none does (the LP bound holds over all pairs).
    fn price(&mut self, group: &Group, lp: &Solved, cancel: Cancel) -> bool {
        let n = self.spec.players.len();
        let (opts, source) = (self.opts, self.source);
        let (model, pool, fixed) = (&mut self.model, &mut self.pool, &self.fixed);
        let mut add: Vec<(f64, usize)> = (0..model.spec.candidates.len())
            .filter(|&k| !pool.in_active[k] && !pool.dead[k])
            .map(|k| (model.reduced_cost(k, group, fixed, lp), k))
            .filter(|&(rc, _)| rc < -EPS)
            .collect();
        if !add.is_empty() {
            self.stats.pricing_rounds += 1;
            add.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            add.truncate((4 * n).max(64));
            for (_, k) in add {
                pool.in_active[k] = true;
                pool.active.push(k);
            }
            pool.active.sort_unstable();
            return true;
        }
        let more = source
            .map(|src| {
                let cap = Some(opts.priced_per_player.max(1));
                let listed = &pool.listed;
                price_source(
                    model,
                    src,
                    group,
                    fixed,
                    &self.closed,
                    lp,
                    listed,
                    0.0,
                    cap,
                    cancel,
                )
            })
            .filter(|m| !m.is_empty());
        let Some(more) = more else {
            return false;
        };
        self.stats.pricing_rounds += 1;
        pool.from_source += more.len();
        grow(model, more, pool);
        true
    }

    /// With the LP bound holding over all pairs: the group is relaxed when the incumbent
    /// meets it (or the LP is integral), or a pairing on the LP optimum's face or the exact
    /// weighted matching does; otherwise odd-set cuts tighten it, a few rounds (`None`: solve
    /// the LP again).
    fn at_bound(
        &mut self,
        group: &Group,
        lp: Solved,
        cancel: Cancel,
        cut_rounds: &mut usize,
    ) -> Option<Relaxed> {
        let opts = self.opts;
        let incumbent = group_value(&self.model.spec, &self.selection, group);
        if integral(&lp.values, &self.pool.active, &self.model.cols, self.spec).is_some()
            || (incumbent as f64) < lp.objective + 1.0 - 1e-6
        {
            return Some(Relaxed { lp, matched: None });
        }
        // A pairing of zero-reduced-cost columns (on the LP optimum's face) often meets the
        // bound although the LP optimum is fractional: it becomes the incumbent and closes the
        // group below, with no cut and no MIP.
        // (Not in the plain formulation, which stays the reference to compare with.)
        let (model, fixed) = (&self.model, &self.fixed);
        let on_face = (opts.lp_face && !opts.full_candidates)
            .then(|| close::face_pairing(model, &self.pool.active, &lp))
            .flatten()
            .filter(|sel| {
                let value = |g: &[(usize, i128)]| group_value(&model.spec, sel, g);
                (value(group) as f64) < lp.objective + 1.0 - 1e-6
                    && sel.byes.len() <= model.spec.max_byes
                    && sel.satisfies_rows(&model.spec)
                    && fixed.iter().all(|(g, opt)| value(g) <= *opt)
            });
        if let Some(sel) = on_face {
            self.stats.closed_on_lp_face += 1;
            self.selection = sel;
            return Some(Relaxed { lp, matched: None });
        }
        // Before any cut: the exact matching over the pairs that could beat the incumbent
        // (item 9), on components of any size (sparse blossom).
        let columns = self.pool.active.len();
        if opts.weighted_matching && !opts.full_candidates {
            let ctx = Priced {
                source: self.source,
                group,
                fixed: &self.fixed,
                closed: &self.closed,
                cancel,
            };
            let incumbent = self.selection.clone();
            let matched = close::weighted_closing(
                &mut self.model,
                &ctx,
                &lp,
                &mut self.pool,
                &incumbent,
                &mut self.selection,
                opts.dump_matching.as_deref(),
            );
            if matched.is_some() {
                return Some(Relaxed { lp, matched });
            }
        }
        // A completion that added pairs but could not match them all (weights too wide)
        // leaves `lp` stale: the LP is solved again over them before any cut.
        if self.pool.active.len() == columns {
            if *cut_rounds >= MAX_CUT_ROUNDS {
                return Some(Relaxed { lp, matched: None });
            }
            let cuts = cuts::separate(&self.model, &self.pool.active, &lp.values);
            if cuts.is_empty() {
                return Some(Relaxed { lp, matched: None });
            }
            *cut_rounds += 1;
            self.stats.odd_set_cuts += cuts.len();
            self.model.tight.extend(cuts.iter().map(|_| false));
            self.model.sets.extend(cuts);
        }
        None
    }

    /// The group's pairing and the proof of its optimum. The group is closed without a MIP
    /// when a pairing meets the LP bound over all pairs: an integral LP optimum, or the
    /// incumbent (greedy pairing or previous group's optimum); else by the exact weighted
    /// matching found while relaxing, or else by a MIP. `None` when cancelled before a MIP.
    fn close(
        &mut self,
        group: &Group,
        relaxed: &Relaxed,
        cancel: Cancel,
    ) -> Result<Option<Closing>, SolveError> {
        let lp = &relaxed.lp;
        let lp_bound = lp.objective;
        let spec = &self.model.spec;
        let meets =
            |sel: &Selection| (group_value(spec, sel, group) as f64) < lp_bound + 1.0 - 1e-6;
        let closing = match integral(&lp.values, &self.pool.active, &self.model.cols, self.spec) {
            _ if relaxed.matched.is_some() => None,
            Some(sel) if meets(&sel) => Some(sel),
            Some(_) => None,
            None if meets(&self.selection) && self.selection.satisfies_rows(self.spec) => {
                Some(self.selection.clone())
            }
            None => None,
        };
        if let Some(sel) = closing {
            let opt = group_value(spec, &sel, group);
            return Ok(Some(Closing {
                sel,
                opt,
                bound: Some(lp_bound),
                proved: true,
                rows: lp.rows,
                nonzeros: lp.nonzeros,
            }));
        }
        if let Some(sel) = &relaxed.matched {
            // Exact: the matching is optimal over the active pairs, and every pair left out
            // prices at or above its gap over the LP bound (`complete`).
            self.stats.closed_by_matching += 1;
            let opt = group_value(spec, sel, group);
            return Ok(Some(Closing {
                sel: sel.clone(),
                opt,
                bound: Some(opt as f64),
                proved: true,
                rows: lp.rows,
                nonzeros: lp.nonzeros,
            }));
        }
        if cancel() {
            return Ok(None);
        }
        let ctx = Priced {
            source: self.source,
            group,
            fixed: &self.fixed,
            closed: &self.closed,
            cancel,
        };
        let mut work = MipWork::default();
        let closing = close::by_mip(
            &mut self.model,
            &ctx,
            lp,
            &mut self.pool,
            &self.selection,
            self.opts,
            self.deadline,
            &mut work,
        )?;
        self.size.solves += work.solves;
        self.stats.simplex_iterations += work.iterations;
        self.last_gap = work.gap;
        Ok(Some(closing))
    }

    /// Records a closed group: each tier's bound, the new incumbent, and for the groups below
    /// it the group's optimum as a row, the pairs and columns its duals rule out, the rows it
    /// holds tight. Returns whether the group is proved (else the solve stops here).
    fn record(&mut self, group: &Group, lp: &Solved, c: Closing) -> bool {
        let n = self.spec.players.len();
        self.size.rows = self.size.rows.max(c.rows);
        self.size.nonzeros = self.size.nonzeros.max(c.nonzeros);
        self.size.columns = self
            .size
            .columns
            .max(self.pool.active.len() + self.model.cols.byes + n);
        let tv = c.sel.tier_values(&self.model.spec);
        for &(t, w) in group {
            let b = c.bound.map(|b| {
                let above: i128 = group
                    .iter()
                    .filter(|&&(u, _)| u < t)
                    .map(|&(u, wu)| wu * tv[u] as i128)
                    .sum();
                let lower = ((b - above as f64) / w as f64).max(0.0).min(tv[t] as f64);
                // Tier values are integers: a lower bound rounds up.
                (lower - 1e-6).ceil()
            });
            self.proof[t] = (b, c.proved);
        }
        self.selection = c.sel;
        if !c.proved {
            self.status = Status::Feasible;
            return false;
        }
        self.stats.groups_closed += 1;
        let opt = c.opt;
        if self.opts.full_candidates {
            // The plain formulation: every allowed pair, each group's optimum fixed by a row.
            self.fixed.push((group.clone(), opt));
            return true;
        }
        let lp_bound = lp.objective;
        let gap = opt as f64 - lp_bound;
        self.stats.pairs_fixed_by_reduced_cost += close::fix_by_reduced_cost(
            &self.model,
            group,
            &self.fixed,
            lp,
            gap,
            &mut self.pool,
            &self.selection,
        );
        if gap.abs() <= 1e-9 * (opt as f64).abs().max(1.0) {
            close::restrict_to_optimal_face(&mut self.model, lp, &self.selection);
        }
        log::debug!(
            "group {:?} closed at {:.3} s: opt {opt} LP {lp_bound} gap {gap}; fixing duals {:?}, extra duals nonzero {}, tight sets {}",
            group.iter().map(|g| g.0).collect::<Vec<_>>(),
            self.started.elapsed().as_secs_f64(),
            lp.fix,
            lp.extra.iter().filter(|d| d.abs() > 1e-6).count(),
            self.model.tight.iter().filter(|&&t| t).count(),
        );
        if self.source.is_some() {
            self.closed.push(Closed {
                group: group.clone(),
                deg: lp.deg.clone(),
                odd: lp.odd.clone(),
                fix: lp.fix.clone(),
                gap,
            });
        }
        self.fixed.push((group.clone(), opt));
        true
    }

    /// The outcome: the incumbent with its certificate, or an error when nothing was proved
    /// in time or the answer breaks a row.
    fn finish(mut self) -> Result<Outcome, SolveError> {
        if self.fixed.is_empty() && self.status != Status::Optimal {
            return Err(SolveError::TimeLimit(TimeLimitAt::FirstGroup));
        }
        if !self.selection.satisfies_rows(&self.model.spec) {
            return Err(SolveError::RowBroken);
        }
        let values = self.selection.tier_values(&self.model.spec);
        self.size.candidates = self.model.spec.candidates.len();
        self.stats.from_source = self.source.map(|_| self.pool.from_source);
        self.stats.final_columns = self.pool.active.len();
        self.stats.odd_set_rows = self.size.odd_set_rows;
        Ok(Outcome {
            selection: self.selection,
            certificate: Certificate::tier_program(
                self.spec,
                &values,
                &self.proof,
                self.status,
                self.last_gap,
                self.size,
                self.stats,
            ),
            extended: self.source.map(|_| self.model.spec),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Candidate, Tier};

    /// Six players, every pair allowed, one tier: the cost of a pair is the distance of its
    /// players' ranks (so the optimum pairs neighbours).
    fn six() -> RoundSpec {
        let n = 6;
        let mut candidates = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let costs = vec![(b - a) as i64];
                candidates.push(Candidate {
                    a,
                    b,
                    white: a,
                    costs,
                });
            }
        }
        RoundSpec {
            system: "test".into(),
            round: 1,
            players: (1..=n as u32).collect(),
            scores: vec![0.0; n],
            tiers: vec![Tier::new("distance", "")],
            candidates,
            byes: Vec::new(),
            max_byes: 0,
            odd_sets: Vec::new(),
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn a_solve_never_cancelled_proves_every_group() {
        let out = solve_here(&six(), None, &Options::default(), None, &|| false).unwrap();
        let c = &out.certificate;
        assert_eq!(c.status, Status::Optimal);
        assert_eq!(c.tiers[1].value, 3, "three pairs of neighbours");
        let stats = c.solver.as_ref().expect("the solver's counts");
        assert_eq!(stats.groups_closed, stats.tier_groups);
        assert_eq!(c.summary, stats.summary(c.status, &c.model, c.gap));
    }

    #[test]
    fn a_cancelled_solve_stops_before_any_solve() {
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let cancel = || {
            asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            true
        };
        let opts = Options {
            // No shortcut closes a group without HiGHS: the first check comes before an LP.
            zero_cost: false,
            ..Options::default()
        };
        let err = solve_here(&six(), None, &opts, None, &cancel).err();
        assert_eq!(err, Some(SolveError::TimeLimit(TimeLimitAt::FirstGroup)));
        assert_eq!(asked.into_inner(), 1, "asked once, then stopped");
    }
}
