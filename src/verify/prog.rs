//! The Swiss system with Progressive Acceleration (seed "PROG"), checked one round at a time.
//! Groups and fictitious scores are recomputed here from the document (and the table restated
//! in the seeds' README, which wins over the damaged one); nothing comes from the model
//! builder.
//!
//! | rule string | what is checked |
//! |---|---|
//! | the standard Swiss rules | [`super::swiss`], with the pairing score = the global score GS = RS + FS computed here for this round and every earlier one (stored `virtual_points` replaced; earlier floats are by those scores) |
//! | `PROG groups` | the bounds (`prog.a_min`, default 2000; `prog.c_below`, default 1600) are ratings with A above C; each group holds 25%–50% of the players taking part from round 1; a player's `group` label A/B/C matches his rating |
//! | `PROG fictitious score` | virtual points stored for the round (TRF `XXA`), if any, are the table's FS; the number of rounds N is known; 1 point a win, ½ a draw |
//! | `PROG global score` | score groups are formed on GS: two games that both join the same two GS groups could be exchanged (no rematch, no absolute colour clash) into games inside the groups |
//! | `PROG last two rounds` | the same check on the real score when pairing round N−1 or N (fictitious points cancelled) |

use super::baku::{float_exchanges, labels, standard_with, stored_points, Facts};
use super::dutch::state::Points;
use super::Violation;
use crate::tournament::Tournament;
use std::collections::BTreeMap;

const GROUPS: &str = "PROG groups";
const FS: &str = "PROG fictitious score";

/// FS for a group-`g` player with real score `rs`, pairing round `r` of `n`.
/// Scores in thousandths: no rounding margin decides a step.
fn fs(g: char, real: Points, n: u32, r: u32) -> Points {
    if r >= n.saturating_sub(1) {
        return 0; // cancelled before the penultimate round
    }
    if 2 * real >= 1000 * i64::from(n) {
        return 2000; // N/2 real points
    }
    let mut x: Points = match g {
        'A' => return 2000,
        'B' => 1000,
        _ => 0,
    };
    for (line, only_c) in [(1500, false), (3000, false), (4500, true)] {
        if real >= line && (!only_c || g == 'C') {
            x += 500;
        }
    }
    x.min(2000)
}

pub fn check(t: &Tournament, r: u32) -> Vec<Violation> {
    let f = Facts::new(t, r);
    let mut out = Vec::new();
    let bound = |key: &str, default: u32, out: &mut Vec<Violation>| -> u32 {
        match t.settings.get(key) {
            None => default,
            Some(v) => match v.as_u64() {
                Some(x) if (1..=4000).contains(&x) => x as u32,
                _ => {
                    out.push(f.flag(
                        GROUPS,
                        vec![],
                        format!("{key} = {v} is not a rating between 1 and 4000; {default} used"),
                    ));
                    default
                }
            },
        }
    };
    let a_min = bound("prog.a_min", 2000, &mut out);
    let c_below = bound("prog.c_below", 1600, &mut out);
    if a_min <= c_below {
        out.push(f.flag(
            GROUPS,
            vec![],
            format!("prog.a_min ({a_min}) is not above prog.c_below ({c_below}): no group B"),
        ));
    }
    let group = |rating: u32| {
        if rating >= a_min {
            'A'
        } else if rating < c_below {
            'C'
        } else {
            'B'
        }
    };
    let entry: Vec<u32> = t
        .players
        .iter()
        .filter(|p| p.active_in(1))
        .map(|p| p.rating)
        .collect();
    let n = entry.len();
    for g in ['A', 'B', 'C'] {
        let k = entry.iter().filter(|&&x| group(x) == g).count();
        // "Each group includes a minimum of 25% and a maximum of 50% of all players."
        if 4 * k < n || 2 * k > n {
            out.push(f.flag(
                GROUPS,
                vec![],
                format!("group {g} has {k} of {n} players: outside 25%–50% of the field"),
            ));
        }
    }
    let rounds = match t.rounds_planned {
        Some(x) => x,
        None => {
            out.push(f.flag(
                FS,
                vec![],
                "the number of rounds N is not set: the N/2 rule and the last two rounds cannot be applied".into(),
            ));
            u32::MAX
        }
    };
    // Exact: the readers hold 1 and ½ exactly.
    if t.scoring.win != 1.0 || t.scoring.draw != 0.5 {
        out.push(f.flag(
            FS,
            vec![],
            format!(
                "the table is in chess points (1 a win, ½ a draw); this event scores {} and {}",
                t.scoring.win, t.scoring.draw
            ),
        ));
    }
    let vp: BTreeMap<u32, Points> = t
        .players
        .iter()
        .map(|p| (p.id, fs(group(p.rating), f.sc(p.id), rounds, r)))
        .collect();
    // Earlier rounds' pairing scores carry their own FS (on the real score before them).
    let vp_in = |k: u32| -> BTreeMap<u32, Points> {
        if k == r {
            return vp.clone();
        }
        let fk = Facts::new(t, k);
        t.players
            .iter()
            .map(|p| (p.id, fs(group(p.rating), fk.sc(p.id), rounds, k)))
            .collect()
    };
    out.extend(standard_with(t, r, &vp_in));
    out.extend(labels(
        t,
        &f,
        &|id| t.player(id).map(|p| group(p.rating).to_string()),
        &["A", "B", "C"],
        GROUPS,
    ));
    out.extend(stored_points(t, &f, &vp, FS));
    let rule = if r >= rounds.saturating_sub(1) {
        "PROG last two rounds"
    } else {
        "PROG global score"
    };
    let gs = |id: u32| f.sc(id) + vp.get(&id).copied().unwrap_or(0);
    out.extend(float_exchanges(&f, &gs, &|_| false, rule));
    out
}
