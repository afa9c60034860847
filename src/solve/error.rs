//! Why an exact solve gave no pairing, and why the legal fallback paired a round: typed, and
//! shown in the certificate's summary in the words it has always used.

use super::ilp::HighsStep;
use highs::{HighsModelStatus, HighsStatus};
use serde::{Serialize, Serializer};
use std::fmt;

/// An exact solve that ended without a pairing to keep.
#[derive(Debug, Clone, PartialEq)]
pub enum SolveError {
    /// The time limit passed before a pairing could be kept.
    TimeLimit(TimeLimitAt),
    /// A HiGHS call returned an error status.
    Highs {
        /// The call that failed.
        step: HighsStep,
        /// The status HiGHS returned.
        status: HighsStatus,
    },
    /// A group's LP relaxation ended in another status than optimal.
    LpNotSolved(HighsModelStatus),
    /// HiGHS returned no feasible pairing.
    NoPairing(HighsModelStatus),
    /// The worker thread could not start (the reason), or ended without an answer.
    WorkerLost(Option<String>),
    /// The answer breaks one of the specification's hard rows.
    RowBroken,
}

/// Where the time limit stopped the solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeLimitAt {
    /// While HiGHS (or the worker) was still at work.
    Solving,
    /// Before the first tier group was proved: nothing to keep.
    FirstGroup,
}

impl SolveError {
    /// A HiGHS call at `step` that returned `status`.
    pub fn highs(step: HighsStep, status: HighsStatus) -> Self {
        SolveError::Highs { step, status }
    }
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TimeLimit(TimeLimitAt::Solving) => {
                write!(f, "time limit reached before HiGHS finished")
            }
            SolveError::TimeLimit(TimeLimitAt::FirstGroup) => {
                write!(
                    f,
                    "time limit reached before the first tier group was solved"
                )
            }
            SolveError::Highs { step, status } => match step {
                HighsStep::Build => write!(f, "HiGHS rejected the model: {status:?}"),
                HighsStep::Solve => write!(f, "HiGHS failed: {status:?}"),
                HighsStep::Cut => write!(f, "HiGHS refused an odd-set cut"),
                HighsStep::Column => write!(f, "HiGHS refused a priced column"),
            },
            SolveError::LpNotSolved(status) => {
                write!(f, "LP relaxation not solved (status {status:?})")
            }
            SolveError::NoPairing(status) => {
                write!(f, "HiGHS found no pairing (status {status:?})")
            }
            SolveError::WorkerLost(Some(why)) => {
                write!(f, "could not start the solver thread: {why}")
            }
            SolveError::WorkerLost(None) => write!(f, "the solver stopped without an answer"),
            SolveError::RowBroken => write!(f, "HiGHS answer breaks a hard row"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Why the legal fallback paired a round.
#[derive(Debug, Clone, PartialEq)]
pub struct Fallback {
    /// What made the fallback pair the round.
    pub cause: FallbackCause,
    /// When the maximum matching broke one of the system's rows: whether a feasibility
    /// program found a pairing that keeps them.
    pub rows: Option<RowsRepair>,
    /// The time limit passed before the matching had looked at every pair it might need:
    /// the players it left unpaired might have been paired.
    pub cut: bool,
}

/// What made the legal fallback pair a round: the director asked for it, or the exact solve failed.
#[derive(Debug, Clone, PartialEq)]
pub enum FallbackCause {
    /// `--greedy`: the solver was not asked.
    Requested,
    /// The exact solve gave no pairing.
    Solver(SolveError),
}

/// What became of the system's hard rows when the fallback's maximum matching broke one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowsRepair {
    /// The rows solved as a feasibility program: its pairing is used.
    Solved,
    /// No pairing found that keeps them: the matching is used as it is.
    NotFound,
}

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.cause {
            FallbackCause::Requested => write!(f, "greedy pass requested")?,
            FallbackCause::Solver(e) => write!(f, "{e}")?,
        }
        match self.rows {
            Some(RowsRepair::Solved) => {
                write!(f, "; the system's rows solved as a feasibility program")
            }
            Some(RowsRepair::NotFound) => {
                write!(f, "; no pairing found that keeps the system's rows")
            }
            None => Ok(()),
        }?;
        if self.cut {
            write!(f, "; the time limit passed before every pair was looked at")?;
        }
        Ok(())
    }
}

/// In JSON, the reason in the words of the summary.
impl Serialize for Fallback {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
