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
mod uscf_swiss;

use crate::tournament::Tournament;
use crate::{Error, Result, SystemKind};

/// One broken rule in one round.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Violation {
    /// The round, 1-based.
    pub round: u32,
    /// The rule's citation, e.g. `FIDE C.04.1 b`.
    pub rule: String,
    /// The players concerned, by pairing number.
    pub players: Vec<u32>,
    /// For the arbiter, e.g. `round 5: 12 v 31 is a rematch (they met in round 2) — FIDE
    /// C.04.1 b`.
    pub message: String,
}

/// A part of one round's check that did not finish within the time budget: the round is not
/// fully checked.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Unchecked {
    /// The round, 1-based.
    pub round: u32,
    /// The rule left unchecked.
    pub rule: String,
    /// For the arbiter, e.g. `round 5: not fully checked: …`.
    pub message: String,
}

/// What a check within a time budget found, and what it left unchecked.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Checked {
    /// Every rule broken, round by round.
    pub violations: Vec<Violation>,
    /// What the time budget left unchecked.
    pub unchecked: Vec<Unchecked>,
}

/// Checks round `round` of `t` under `system`'s rules, from the rounds before it. A round
/// that is not paired is an error. Players are named, in [`Violation::players`] and the
/// messages, by the pairing numbers the sheets show ([`Tournament::by_numbers`]).
pub fn check_round(t: &Tournament, round: u32, system: SystemKind) -> Result<Vec<Violation>> {
    check_round_within(t, round, system, None).map(|c| c.violations)
}

/// [`check_round`] within a time budget: the check stops by `deadline` whatever the system.
/// The round's rules are checked on a thread of their own, waited for until `deadline`; a
/// check still running then is left to finish unheard, and the round is listed in
/// [`Checked::unchecked`] ("every rule"), its findings unknown. The standard Swiss check stops
/// its one long part, the proof of a bye placement (a matching over every allowed pair), a
/// little before `deadline` by itself, and keeps what the other rules found.
pub fn check_round_within(
    t: &Tournament,
    round: u32,
    system: SystemKind,
    deadline: Option<std::time::Instant>,
) -> Result<Checked> {
    use std::sync::mpsc::{self, RecvTimeoutError};
    let Some(by) = deadline else {
        return check_round_whole(t, round, system, None);
    };
    // A round that cannot be checked at all says so at once, whatever the time.
    if round == 0 || !t.round(round).is_some_and(|r| r.is_paired()) {
        return check_round_whole(t, round, system, None);
    }
    let now = std::time::Instant::now();
    let not_checked = |why: &str| Checked {
        violations: Vec::new(),
        unchecked: vec![Unchecked {
            round,
            rule: "every rule".to_string(),
            message: format!("round {round}: not fully checked: the time limit passed {why}"),
        }],
    };
    // No time left: nothing is checked (and nothing called clean).
    if now >= by {
        return Ok(not_checked("before its check began"));
    }
    let wait = by.saturating_duration_since(now);
    // The bye proof ends at nine tenths of what is left, so that the rest of the rules'
    // findings come back before `by`.
    let inner = now + wait.mul_f64(0.9);
    let owned = t.clone();
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(format!("verify round {round}"))
        .spawn(move || {
            let _ = tx.send(check_round_whole(&owned, round, system, Some(inner)));
        });
    let handle = match spawned {
        Ok(h) => h,
        // No thread to be had: checked here, the bye proof still bounded.
        Err(_) => return check_round_whole(t, round, system, Some(inner)),
    };
    match rx.recv_timeout(wait) {
        Ok(checked) => checked,
        Err(RecvTimeoutError::Timeout) => Ok(not_checked("before its check finished")),
        Err(RecvTimeoutError::Disconnected) => match handle.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => Err(Error::field(
                "round",
                format!("round {round}: the check ended without a result"),
            )),
        },
    }
}

/// [`check_round_within`] on this thread: only the standard Swiss bye proof is bounded (by
/// `deadline`); every other check runs whole.
fn check_round_whole(
    t: &Tournament,
    round: u32,
    system: SystemKind,
    deadline: Option<std::time::Instant>,
) -> Result<Checked> {
    // Messages name players as the sheets do: after a late entry, by pairing number.
    let numbered;
    let t = if t.renumbered() {
        numbered = t.by_numbers();
        &numbered
    } else {
        t
    };
    let rules: fn(&Tournament, u32) -> Vec<Violation> = match system {
        SystemKind::Swiss => {
            return check_divisions(t, round, &|v, r| swiss::check_round_within(v, r, deadline))
        }
        SystemKind::EcfBasic => ecf::check_basic,
        SystemKind::EcfAdvanced => ecf::check_advanced,
        SystemKind::Prog => prog::check,
        SystemKind::UscfBatches => uscf::check_batches,
        SystemKind::UscfThirds => uscf::check_thirds,
        SystemKind::UscfAddedScore => uscf::check_added,
        SystemKind::Uscf => uscf_swiss::check,
        SystemKind::Baku => baku::check,
        SystemKind::Nsc2006 => nsc2006::check,
        SystemKind::TshCp => tsh::check,
    };
    check_divisions(t, round, &|v, r| (rules(v, r), Vec::new()))
}

type Rules<'a> = dyn Fn(&Tournament, u32) -> (Vec<Violation>, Vec<Unchecked>) + 'a;

fn check_divisions(t: &Tournament, round: u32, rules: &Rules) -> Result<Checked> {
    if round == 0 {
        return Err(Error::field("round", "rounds are numbered from 1"));
    }
    match t.round(round) {
        // Divisions are separate events: each is checked on its own.
        Some(rd) if rd.is_paired() => {
            let mut out = Checked::default();
            for d in t.divisions() {
                let v = if t.divisions().len() == 1 {
                    t.clone()
                } else {
                    t.division(&d)
                };
                if v.round(round).is_some_and(|r| r.is_paired()) {
                    let (found, left) = rules(&v, round);
                    out.violations.extend(found);
                    out.unchecked.extend(left);
                }
            }
            Ok(out)
        }
        _ => Err(Error::field(
            "round",
            format!("round {round} has no pairing to check"),
        )),
    }
}

/// Checks every paired round of `t` (in order), or only `round` if given.
pub fn check(t: &Tournament, round: Option<u32>, system: SystemKind) -> Result<Vec<Violation>> {
    check_within(t, round, system, None).map(|c| c.violations)
}

/// [`check`] within a time budget ([`check_round_within`]): the parts still running at
/// `deadline`, and the rounds that would end past it (as long as the longest so far), are left
/// undone and listed.
pub fn check_within(
    t: &Tournament,
    round: Option<u32>,
    system: SystemKind,
    deadline: Option<std::time::Instant>,
) -> Result<Checked> {
    if let Some(r) = round {
        return check_round_within(t, r, system, deadline);
    }
    // Renumbered once for every round ([`check_round_within`] names players by number).
    let numbered;
    let t = if t.renumbered() {
        numbered = t.by_numbers();
        &numbered
    } else {
        t
    };
    let mut rounds: Vec<u32> = t
        .rounds
        .iter()
        .filter(|r| r.is_paired())
        .map(|r| r.number)
        .collect();
    rounds.sort_unstable();
    let mut out = Checked::default();
    // A round is begun only if the longest round so far would still end by the deadline (each
    // round's check stops at the deadline in any case, its findings then unknown).
    let mut longest = std::time::Duration::ZERO;
    for r in rounds {
        let began = std::time::Instant::now();
        if deadline.is_some_and(|d| began + longest >= d) {
            out.unchecked.push(Unchecked {
                round: r,
                rule: "every rule".to_string(),
                message: format!(
                    "round {r}: not fully checked: the time limit passed before its check began"
                ),
            });
            continue;
        }
        let c = check_round_within(t, r, system, deadline)?;
        out.violations.extend(c.violations);
        out.unchecked.extend(c.unchecked);
        longest = longest.max(began.elapsed());
    }
    Ok(out)
}
