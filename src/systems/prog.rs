//! Swiss system with Progressive Acceleration ("PROG", the French "système accéléré
//! dégressif"), on top of the standard Swiss ([`super::swiss`]). See `models/prog.md`.
//!
//! * Groups (PROG "Calculation of the fictitious score"): A, B, C by rating, bounds set by the
//!   director — `prog.a_min` (group A: rating ≥ it, default 2000) and `prog.c_below` (group C:
//!   rating below it, default 1600); each group must hold 25%–50% of the players, else an
//!   error names the group and by how many players it misses.
//! * Fictitious score FS (the table restated in the seeds' README, which wins over the damaged
//!   table of the document): A 2; B 1, +½ at RS ≥ 1.5, +½ at RS ≥ 3; C 0, +½ at 1.5, 3 and
//!   4.5; any group FS = 2 once RS ≥ N/2; no FS when pairing round N−1 or N.
//! * Pairing on the global score GS = RS + FS: the standard Swiss specification with GS as
//!   the pairing score (score groups, floats, bye group and ranking all follow GS).

use super::virtual_points::{require_chess_points, virtual_spec};
use super::System;
use crate::spec::RoundPlan;
use crate::spec::RoundSpec;
use crate::tournament::{Player, Tournament};
use crate::{Error, Result, SystemKind};
use std::collections::BTreeMap;

/// The system `prog`.
#[derive(Debug, Default)]
pub struct Prog;

/// A whole-number setting, if given.
fn setting_int(t: &Tournament, key: &str, range: &str) -> Result<Option<i64>> {
    match t.settings.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(x) if x.fract() == 0.0 => Ok(Some(x as i64)),
            _ => Err(Error::field(
                key,
                format!("must be a whole number ({range}), got {v}"),
            )),
        },
    }
}

/// The rating bounds of the groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Group A: rating at or above.
    pub a_min: u32,
    /// Group C: rating below.
    pub c_below: u32,
}

impl Bounds {
    /// The group of a player rated `rating`: `'A'`, `'B'` or `'C'`.
    pub fn group(&self, rating: u32) -> char {
        if rating >= self.a_min {
            'A'
        } else if rating < self.c_below {
            'C'
        } else {
            'B'
        }
    }
}

/// The bounds from `prog.a_min` and `prog.c_below` (defaults 2000 and 1600).
pub fn bounds(t: &Tournament) -> Result<Bounds> {
    const RANGE: &str = "a rating between 1 and 4000";
    let get = |key: &str, default: u32| -> Result<u32> {
        match setting_int(t, key, RANGE)? {
            None => Ok(default),
            Some(v) if (1..=4000).contains(&v) => Ok(v as u32),
            Some(v) => Err(Error::field(key, format!("must be {RANGE}, got {v}"))),
        }
    };
    let b = Bounds {
        a_min: get("prog.a_min", 2000)?,
        c_below: get("prog.c_below", 1600)?,
    };
    if b.a_min <= b.c_below {
        return Err(Error::field(
            "prog.a_min",
            format!(
                "must be above prog.c_below ({}) so that group B exists (PROG: three groups A, B, C), got {}",
                b.c_below, b.a_min
            ),
        ));
    }
    Ok(b)
}

/// Bounds for a field the arbiter has not set them for (a simulated one): the cut nearest
/// thirds that the ratings allow, each group within PROG's "minimum of 25% and a maximum of 50%
/// of all players" (`⌈n/4⌉..=⌊n/2⌋`). A cut never falls between equal ratings, since a bound is
/// a rating; `None` when ties leave no cut that keeps every group in range.
pub fn bounds_for_field(ratings: &[u32]) -> Option<Bounds> {
    let mut r = ratings.to_vec();
    r.sort_unstable_by(|a, b| b.cmp(a));
    let n = r.len();
    let (lo, hi) = (n.div_ceil(4), n / 2);
    // A = the top k (r[k-1] > r[k]); C = the bottom m (r[n-m-1] > r[n-m]).
    let cut = |k: usize| k > 0 && k < n && r[k - 1] > r[k];
    let mut best: Option<(usize, usize, usize)> = None;
    for k in (lo..=hi).filter(|&k| cut(k)) {
        for m in (lo..=hi).filter(|&m| cut(n - m)) {
            let b = n.saturating_sub(k + m);
            if k + m >= n || !(lo..=hi).contains(&b) {
                continue;
            }
            let off = (3 * k).abs_diff(n) + (3 * m).abs_diff(n);
            if best.is_none_or(|(o, ..)| off < o) {
                best = Some((off, k, m));
            }
        }
    }
    let (_, k, m) = best?;
    let b = Bounds {
        a_min: r[k - 1],
        c_below: r[n - m - 1],
    };
    (1..=4000).contains(&b.c_below).then_some(b)
}

/// The players of the field the groups are measured on: those taking part from round 1.
fn entry(t: &Tournament) -> Vec<&Player> {
    t.players.iter().filter(|p| p.active_in(1)).collect()
}

/// Every player's group (late entries too, by the same bounds), after checking that each
/// group holds 25%–50% of the entry (PROG: "each group includes a minimum of 25% and a maximum
/// of 50% of all players").
pub fn groups(t: &Tournament) -> Result<BTreeMap<u32, char>> {
    let b = bounds(t)?;
    let n = entry(t).len();
    let (lo, hi) = (n.div_ceil(4), n / 2);
    for (g, key, how) in [
        ('A', "prog.a_min", format!("rating ≥ {}", b.a_min)),
        (
            'B',
            "prog.a_min / prog.c_below",
            format!("{} ≤ rating < {}", b.c_below, b.a_min),
        ),
        ('C', "prog.c_below", format!("rating < {}", b.c_below)),
    ] {
        let k = entry(t).iter().filter(|p| b.group(p.rating) == g).count();
        if k < lo || k > hi {
            let miss = if k < lo {
                format!("{} too few", lo - k)
            } else {
                format!("{} too many", k - hi)
            };
            let pct = if n == 0 {
                0.0
            } else {
                100.0 * k as f64 / n as f64
            };
            return Err(Error::field(
                key,
                format!(
                    "PROG group {g} ({how}) has {k} of {n} players ({pct:.1}%); each group must hold 25%–50% of the field ({lo} to {hi} players): {miss}"
                ),
            ));
        }
    }
    Ok(t.players
        .iter()
        .map(|p| (p.id, b.group(p.rating)))
        .collect())
}

/// The fictitious score of a group-`group` player with real score `rs` when pairing round
/// `round` of an `n`-round event (the table of the seeds' README).
pub fn fictitious(group: char, rs: f64, n: u32, round: u32) -> f64 {
    // "Before the penultimate round, all fictitious points are cancelled."
    if round + 1 >= n {
        return 0.0;
    }
    // "When a player achieves N/2 real points ... their fictitious score is brought to 2."
    // Compared in thousandths, so no rounding margin decides a step.
    let real = super::dutch::state::milli(rs);
    if 2 * real >= 1000 * i64::from(n) {
        return 2.0;
    }
    let steps = |list: &[i64]| list.iter().filter(|&&x| real >= x).count() as f64 * 0.5;
    match group {
        'A' => 2.0,
        'B' => 1.0 + steps(&[1500, 3000]),
        _ => steps(&[1500, 3000, 4500]),
    }
}

/// The number of rounds, which the N/2 rule and the cancellation need.
fn rounds(t: &Tournament) -> Result<u32> {
    t.rounds_planned.ok_or_else(|| {
        Error::field(
            "rounds_planned",
            "PROG needs the number of rounds (the N/2 rule, and the fictitious points cancelled for the last two rounds)",
        )
    })
}

/// Each player's fictitious score for pairing round `round` (from the rounds before it).
pub fn virtual_points(t: &Tournament, round: u32) -> Result<BTreeMap<u32, f64>> {
    let n = rounds(t)?;
    let g = groups(t)?;
    let st = crate::tournament::Standings::before(t, round);
    Ok(t.players
        .iter()
        .map(|p| {
            let rs = st.get(p.id).map(|s| s.score).unwrap_or(0.0);
            (p.id, fictitious(g[&p.id], rs, n, round))
        })
        .collect())
}

impl System for Prog {
    fn kind(&self) -> SystemKind {
        SystemKind::Prog
    }
    /// Every round: "PROG global score GS = RS + FS": the Dutch system on the global score.
    fn dutch_round(&self, _t: &Tournament, _round: u32) -> Result<bool> {
        Ok(true)
    }
    /// Every round: the exact FIDE Dutch procedure on the global score ("PROG global score
    /// GS = RS + FS"), then PROG's tier program, then the legal fallback.
    fn plan<'a>(&'a self, t: &'a Tournament, round: u32) -> Result<RoundPlan<'a>> {
        Ok(super::dutch_plan(self, t, round))
    }
    fn one_half_zero(&self) -> Option<&'static str> {
        Some("PROG: fictitious scores of ½ and 1 beside the real score")
    }

    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec> {
        let mut notes = self.notes(t, round)?;
        let vp = virtual_points(t, round)?;
        let mut spec = virtual_spec(t, round, self.name(), &vp, "PROG global score GS = RS + FS")?;
        notes.append(&mut spec.notes);
        spec.notes = notes;
        Ok(spec)
    }

    /// The groups and what the round pairs on, after PROG's checks of the field.
    fn notes(&self, t: &Tournament, round: u32) -> Result<Vec<String>> {
        require_chess_points(t, "PROG")?;
        let n = rounds(t)?;
        let b = bounds(t)?;
        let count = |g: char| entry(t).iter().filter(|p| b.group(p.rating) == g).count();
        let mut notes = vec![format!(
            "PROG groups: A (rating ≥ {}) {}, B {}, C (rating < {}) {}",
            b.a_min,
            count('A'),
            count('B'),
            b.c_below,
            count('C')
        )];
        if round + 1 >= n {
            notes.push(format!(
                "PROG: round {round} of {n}: fictitious points cancelled for the last two rounds; pairing on the real score"
            ));
        } else {
            notes.push(format!(
                "PROG: pairing on the global score (real + fictitious, N/2 = {})",
                f64::from(n) / 2.0
            ));
        }
        Ok(notes)
    }
}
