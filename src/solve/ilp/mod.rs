//! The exact solve: one binary per candidate pair, HiGHS through its safe Rust API.
//!
//! Tiers are minimised lexicographically. Consecutive tiers share one HiGHS solve only while
//! their combined weights stay exact and numerically safe (`prepare::MAX_WEIGHT`); otherwise
//! each group of tiers is solved in turn, with the optimum of every earlier group fixed by a
//! row. Every tier value reported is recomputed in integers from the chosen pairs.
//!
//! The parts, in the order a round meets them:
//! * [`prepare`]: column costs, tier ranges, the tier groups and their weights, parity sets,
//!   the system's rows;
//! * [`model`]: what is known between solves, and one solve's answer ([`model::Solved`]);
//! * [`columns`]: the column set (listed, priced in, active, fixed at 0) and its seeding;
//! * [`program`]: the HiGHS program of a group, its typed row layout, the LP kept warm;
//! * [`pricing`]: reduced costs of the pairs left out, listed or from a pair source;
//! * [`cuts`]: odd-set cuts from an LP's fractional support;
//! * [`close`]: closing a group — zero cost, the LP face, exact weighted matching, MIP;
//! * [`driver`]: one function per tier group, then the certificate.

mod close;
mod columns;
mod cuts;
mod driver;
mod model;
mod prepare;
mod pricing;
mod program;

pub use program::HighsStep;

use super::{Options, Selection, SolveError, TimeLimitAt};
use crate::solve::Certificate;
use crate::spec::{PairSource, RoundSpec};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// Negative reduced cost tolerance.
const EPS: f64 = 1e-7;

/// Asked between solves (and between blocks of pricing): whether to stop now (pubgrub's
/// `should_cancel`). The solve then ends with what it has proved.
type Cancel<'a> = &'a (dyn Fn() -> bool + Sync);

pub struct Outcome {
    pub selection: Selection,
    pub certificate: Certificate,
    /// With a [`PairSource`]: the specification with the pairs priced in from it appended to
    /// its candidates (the selection's indices refer to it).
    pub extended: Option<RoundSpec>,
}

/// Runs the exact solve on a worker thread and gives up at `deadline`. HiGHS overruns its own
/// time limit, so the limit is enforced here: past it the caller goes on at once, and the
/// worker, told through a flag it reads between solves (and between blocks of a pricing
/// scan), stops after the step in progress instead of holding a core until it would have
/// finished. A step is not interrupted: a HiGHS solve (given the time left as its own limit),
/// a weighted matching or a pass of partner exchanges runs to its end.
pub fn solve(
    spec: &RoundSpec,
    source: Option<Arc<dyn PairSource>>,
    opts: &Options,
    deadline: Option<Instant>,
) -> Result<Outcome, SolveError> {
    let (tx, rx) = mpsc::channel();
    let spec = spec.clone();
    let opts = opts.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let told = stop.clone();
    std::thread::Builder::new()
        .name("highs".into())
        .spawn(move || {
            let cancel =
                || told.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
            let _ = tx.send(driver::solve_here(
                &spec,
                source.as_deref(),
                &opts,
                deadline,
                &cancel,
            ));
        })
        .map_err(|e| SolveError::WorkerLost(Some(e.to_string())))?;
    let answer = match deadline {
        None => rx.recv().map_err(|_| SolveError::WorkerLost(None))?,
        Some(d) => {
            let wait = d.saturating_duration_since(Instant::now());
            match rx.recv_timeout(wait) {
                Ok(r) => r,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    Err(SolveError::TimeLimit(TimeLimitAt::Solving))
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => Err(SolveError::WorkerLost(None)),
            }
        }
    };
    // However it ended, the worker has nothing more to do.
    stop.store(true, Ordering::Relaxed);
    answer
}
