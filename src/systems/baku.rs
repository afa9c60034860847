//! FIDE Baku Acceleration Method (C.04.5.1) on top of the standard Swiss. See `models/baku.md`.
//!
//! * Initial groups division: the list of players to be paired (pairing-number order) is
//!   split into GA, the first half rounded up to the nearest even number (`2·⌈N/4⌉`: 161
//!   players give 82), and GB, the rest.
//! * Late entries: the last GA player stays the same; a late entry whose pairing number is
//!   below his is in GA (GA may then be odd).
//! * Virtual points: the accelerated rounds are the first `⌈R/2⌉`; GA players get 1 virtual
//!   point in the first `⌈⌈R/2⌉/2⌉` of them and ½ in the rest; GB never, nobody afterwards.
//! * Pairing score = points + virtual points: the standard Swiss specification on it.

use super::virtual_points::{require_chess_points, virtual_spec};
use super::System;
use crate::spec::RoundPlan;
use crate::spec::RoundSpec;
use crate::tournament::Tournament;
use crate::{Error, Result, SystemKind};
use std::collections::BTreeMap;

/// The system `baku`.
#[derive(Debug, Default)]
pub struct Baku;

/// The size of GA for `n` players: the first half rounded up to the nearest even number.
pub fn ga_size(n: usize) -> usize {
    (2 * n.div_ceil(4)).min(n)
}

/// (accelerated rounds, rounds with a full virtual point) for an `r`-round event.
pub fn accelerated_rounds(r: u32) -> (u32, u32) {
    let acc = r.div_ceil(2);
    (acc, acc.div_ceil(2))
}

/// The pairing number of the last GA player: the `ga_size`-th of the players taking part
/// from round 1, in pairing-number order.
pub fn last_ga(t: &Tournament) -> Option<u32> {
    let mut ids: Vec<u32> = t
        .players
        .iter()
        .filter(|p| p.active_in(1))
        .map(|p| p.number())
        .collect();
    ids.sort_unstable();
    let k = ga_size(ids.len());
    (k > 0).then(|| ids[k - 1])
}

/// Whether the player with pairing number `number` is in GA.
pub fn in_ga(last: Option<u32>, id: u32) -> bool {
    last.is_some_and(|l| id <= l)
}

/// Each player's virtual points for pairing round `round`.
pub fn virtual_points(t: &Tournament, round: u32) -> Result<BTreeMap<u32, f64>> {
    let r = t.rounds_planned.ok_or_else(|| {
        Error::field(
            "rounds_planned",
            "the Baku acceleration (FIDE C.04.5.1) needs the number of rounds: the accelerated rounds are the first half of them",
        )
    })?;
    let (acc, full) = accelerated_rounds(r);
    let v = if round <= full {
        1.0
    } else if round <= acc {
        0.5
    } else {
        0.0
    };
    let last = last_ga(t);
    Ok(t.players
        .iter()
        .map(|p| (p.id, if in_ga(last, p.number()) { v } else { 0.0 }))
        .collect())
}

impl System for Baku {
    fn kind(&self) -> SystemKind {
        SystemKind::Baku
    }
    /// Every round: "FIDE C.04.5.1": the Dutch system on the score plus the virtual points.
    fn dutch_round(&self, _t: &Tournament, _round: u32) -> Result<bool> {
        Ok(true)
    }
    /// Every round: the exact FIDE Dutch procedure on the score plus the virtual points
    /// ("FIDE C.04.5.1"), then Baku's tier program, then the legal fallback.
    fn plan<'a>(&'a self, t: &'a Tournament, round: u32) -> Result<RoundPlan<'a>> {
        Ok(super::dutch_plan(self, t, round))
    }
    fn one_half_zero(&self) -> Option<&'static str> {
        Some("FIDE C.04.5.1: virtual points of 1 and ½")
    }

    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec> {
        let mut notes = self.notes(t, round)?;
        let vp = virtual_points(t, round)?;
        let mut spec = virtual_spec(
            t,
            round,
            self.name(),
            &vp,
            "FIDE C.04.5.1 pairing score (points + virtual points)",
        )?;
        notes.append(&mut spec.notes);
        spec.notes = notes;
        Ok(spec)
    }

    /// The accelerated group and rounds, after the premise's check of the scoring.
    fn notes(&self, t: &Tournament, _round: u32) -> Result<Vec<String>> {
        // C.04.5.1 premise: the standard scoring point system.
        require_chess_points(t, "the Baku acceleration (FIDE C.04.5.1)")?;
        let r = t.rounds_planned.unwrap_or(0);
        let (acc, full) = accelerated_rounds(r);
        let last = last_ga(t);
        let ga = t.players.iter().filter(|p| in_ga(last, p.number())).count();
        let half = if full < acc {
            format!(", ½ in rounds {}-{acc}", full + 1)
        } else {
            String::new()
        };
        Ok(vec![format!(
            "FIDE C.04.5.1: GA = players 1 to {} ({ga} players); accelerated rounds 1-{acc}; GA virtual points 1 in rounds 1-{full}{half}",
            last.unwrap_or(0)
        )])
    }
}
