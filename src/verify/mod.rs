//! Independent rule checks, written from the rule documents. Shares no code with model
//! building (`systems`, `solve`).
//!
//! A check looks at one paired round against the rounds before it and reports every rule the
//! round breaks as a [`Violation`], each with the rule's citation and a message an arbiter can
//! read. Each pairing system has its own rule set, chosen by [`SystemKind`] in [`check_round`]; the
//! standard Swiss (FIDE Dutch) rules, and the readings taken where the text leaves room, are
//! documented in [`swiss`].

mod baku;
pub mod dutch;
mod ecf;
pub mod matching;
mod nsc2006;
mod prog;
pub mod swiss;
mod tsh;
mod uscf;

use crate::tournament::Tournament;
use crate::{Error, Result, SystemKind};

/// One broken rule in one round.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Violation {
    pub round: u32,
    /// The rule's citation, e.g. `FIDE C.04.1 b`.
    pub rule: String,
    /// The players concerned, by pairing number.
    pub players: Vec<u32>,
    /// For the arbiter, e.g. `round 5: 12 v 31 is a rematch (they met in round 2) — FIDE
    /// C.04.1 b`.
    pub message: String,
}

/// Checks round `round` of `t` under `system`'s rules, from the rounds before it. A round
/// that is not paired is an error.
pub fn check_round(t: &Tournament, round: u32, system: SystemKind) -> Result<Vec<Violation>> {
    let rules: fn(&Tournament, u32) -> Vec<Violation> = match system {
        SystemKind::Swiss => swiss::check_round,
        SystemKind::EcfBasic => ecf::check_basic,
        SystemKind::EcfAdvanced => ecf::check_advanced,
        SystemKind::Prog => prog::check,
        SystemKind::UscfBatches => uscf::check_batches,
        SystemKind::UscfThirds => uscf::check_thirds,
        SystemKind::UscfAddedScore => uscf::check_added,
        SystemKind::Baku => baku::check,
        SystemKind::Nsc2006 => nsc2006::check,
        SystemKind::TshCp => tsh::check,
    };
    if round == 0 {
        return Err(Error::field("round", "rounds are numbered from 1"));
    }
    match t.round(round) {
        // Divisions are separate events: each is checked on its own.
        Some(rd) if rd.is_paired() => Ok(t
            .divisions()
            .iter()
            .map(|d| {
                if t.divisions().len() == 1 {
                    t.clone()
                } else {
                    t.division(d)
                }
            })
            .filter(|v| v.round(round).is_some_and(|r| r.is_paired()))
            .flat_map(|v| rules(&v, round))
            .collect()),
        _ => Err(Error::field(
            "round",
            format!("round {round} has no pairing to check"),
        )),
    }
}

/// Checks every paired round of `t` (in order), or only `round` if given.
pub fn check(t: &Tournament, round: Option<u32>, system: SystemKind) -> Result<Vec<Violation>> {
    if let Some(r) = round {
        return check_round(t, r, system);
    }
    let mut rounds: Vec<u32> = t
        .rounds
        .iter()
        .filter(|r| r.is_paired())
        .map(|r| r.number)
        .collect();
    rounds.sort_unstable();
    let mut out = Vec::new();
    for r in rounds {
        out.extend(check_round(t, r, system)?);
    }
    Ok(out)
}
