//! The Baku Acceleration Method (FIDE C.04.5.1), checked one round at a time, and the checks
//! shared by the accelerations that pair on a pairing score other than the real score (PROG,
//! USCF). Everything is computed here from the tournament's facts; nothing comes from the model
//! builder.
//!
//! | rule string | what is checked |
//! |---|---|
//! | the standard Swiss rules | [`super::swiss`], run with each player's pairing score = points + the virtual points of this round and every earlier one as computed here (stored `virtual_points` are replaced; earlier floats are by those scores) |
//! | `FIDE C.04.5.1 groups` | GA = the first `2·⌈N/4⌉` players of the round-1 list by pairing number, plus late entries numbered below the last of them; a player's `group` label `GA`/`GB` (or `A`/`B`) matches |
//! | `FIDE C.04.5.1 virtual points` | virtual points stored for the round (TRF `XXA`), if any, are the document's: 1 for GA in the first half (rounded up) of the first `⌈R/2⌉` rounds, ½ in the rest of them, 0 otherwise; the number of rounds is known; 1 point a win, ½ a draw |
//! | `FIDE C.04.5.1 pairing score` | score groups are formed on the pairing score: two games that both join the same two pairing-score groups could be exchanged (no rematch, no absolute colour clash) into two games inside the groups |

use super::swiss::{self, preference, Strength};
use super::Violation;
use crate::tournament::{ByeKind, Colour, Standings, Tournament};
use std::collections::{BTreeMap, BTreeSet};

// Scores and virtual points are compared in thousandths, never within a rounding margin.
use super::dutch::state::{thousandths as milli, Points};

/// Thousandths as points, for the messages and the tournament copy the Swiss checks read
/// (exact: every value here is a multiple of a thousandth of a half-point scoring).
pub(super) fn points(x: Points) -> f64 {
    x as f64 / 1000.0
}

/// What the acceleration checks know of a round: history before it and the round itself.
pub(super) struct Facts {
    pub r: u32,
    /// Real scores in thousandths.
    pub score: BTreeMap<u32, Points>,
    pub rating: BTreeMap<u32, u32>,
    pub colours: BTreeMap<u32, Vec<Colour>>,
    pub met: BTreeMap<u32, BTreeSet<u32>>,
    /// Opponent and colour in this round.
    pub opp: BTreeMap<u32, (u32, Colour)>,
    pub games: Vec<(u32, u32)>,
    pub pab: Vec<u32>,
}

impl Facts {
    pub fn new(t: &Tournament, r: u32) -> Facts {
        let st = Standings::before(t, r);
        let mut f = Facts {
            r,
            score: BTreeMap::new(),
            rating: BTreeMap::new(),
            colours: BTreeMap::new(),
            met: BTreeMap::new(),
            opp: BTreeMap::new(),
            games: Vec::new(),
            pab: Vec::new(),
        };
        for p in &t.players {
            f.rating.insert(p.id, p.rating);
            if let Some(s) = st.get(p.id) {
                f.score.insert(p.id, milli(s.score));
                f.colours.insert(p.id, s.played_colours());
                f.met.insert(p.id, s.barred());
            }
        }
        if let Some(rd) = t.round(r) {
            for g in &rd.games {
                f.opp.insert(g.white, (g.black, Colour::White));
                f.opp.insert(g.black, (g.white, Colour::Black));
                f.games.push((g.white, g.black));
            }
            f.pab = rd
                .byes
                .iter()
                .filter(|b| b.kind == ByeKind::PairingAllocated)
                .map(|b| b.player)
                .collect();
        }
        f
    }

    /// `id`'s real score in thousandths.
    pub fn sc(&self, id: u32) -> Points {
        self.score.get(&id).copied().unwrap_or(0)
    }

    pub fn rt(&self, id: u32) -> u32 {
        self.rating.get(&id).copied().unwrap_or(0)
    }

    /// Rated above: higher rating, then lower pairing number.
    pub fn above(&self, a: u32, b: u32) -> bool {
        (self.rt(a), std::cmp::Reverse(a)) > (self.rt(b), std::cmp::Reverse(b))
    }

    fn pref(&self, id: u32) -> Option<swiss::Preference> {
        preference(self.colours.get(&id).map(|v| v.as_slice()).unwrap_or(&[]))
    }

    /// May `a` and `b` meet: no rematch, not the same absolute colour preference.
    pub fn may_meet(&self, a: u32, b: u32) -> bool {
        if a == b || self.met.get(&a).is_some_and(|m| m.contains(&b)) {
            return false;
        }
        let abs = |id| {
            self.pref(id)
                .filter(|p| p.strength == Strength::Absolute)
                .map(|p| p.colour)
        };
        !matches!((abs(a), abs(b)), (Some(x), Some(y)) if x == y)
    }

    /// A game `a` (colour `ca`) v `b` whose colours the allocation rules would surely give:
    /// both get a colour they are due and at least one of them has a preference for it.
    pub fn settled(&self, a: u32, ca: Colour, b: u32) -> bool {
        let (pa, pb) = (self.pref(a), self.pref(b));
        let due = |p: Option<swiss::Preference>, c| p.is_none_or(|p| p.colour == c);
        let wants = |p: Option<swiss::Preference>, c| p.is_some_and(|p| p.colour == c);
        due(pa, ca) && due(pb, ca.opposite()) && (wants(pa, ca) || wants(pb, ca.opposite()))
    }

    pub fn flag(&self, rule: &str, players: Vec<u32>, message: String) -> Violation {
        Violation {
            round: self.r,
            rule: rule.to_string(),
            players,
            message: format!("round {}: {message} — {rule}", self.r),
        }
    }
}

/// The standard Swiss checks with each player's pairing score = points + `vp(k)` in every
/// round k up to `r` (the stored virtual points replaced by the system's own): floats
/// (FIDE C.04.3 1.4) of earlier rounds are by the pairing score those rounds had.
pub(super) fn standard_with(
    t: &Tournament,
    r: u32,
    vp: &dyn Fn(u32) -> BTreeMap<u32, Points>,
) -> Vec<Violation> {
    let rounds: Vec<BTreeMap<u32, Points>> = (1..=r).map(vp).collect();
    let mut t2 = t.clone();
    for p in &mut t2.players {
        p.virtual_points = rounds
            .iter()
            .map(|m| points(m.get(&p.id).copied().unwrap_or(0)))
            .collect();
    }
    swiss::check_round(&t2, r)
}

/// Virtual points stored for round `r` that differ from `vp`.
pub(super) fn stored_points(
    t: &Tournament,
    f: &Facts,
    vp: &BTreeMap<u32, Points>,
    rule: &str,
) -> Vec<Violation> {
    let mut out = Vec::new();
    for p in &t.players {
        let Some(&got) = p.virtual_points.get(f.r as usize - 1) else {
            continue;
        };
        let want = vp.get(&p.id).copied().unwrap_or(0);
        if milli(got) != want {
            out.push(f.flag(
                rule,
                vec![p.id],
                format!(
                    "{} has {got} virtual points stored for the round; the rule gives {}",
                    p.id,
                    points(want)
                ),
            ));
        }
    }
    out
}

/// Two games that both join the same two pairing-score groups (`ps`), although the four could
/// have played inside their groups. Games with a player in `skip` are left out.
pub(super) fn float_exchanges(
    f: &Facts,
    ps: &dyn Fn(u32) -> Points,
    skip: &dyn Fn(u32) -> bool,
    rule: &str,
) -> Vec<Violation> {
    let pairs: Vec<(u32, u32)> = f
        .games
        .iter()
        .map(|&(w, b)| if ps(w) >= ps(b) { (w, b) } else { (b, w) })
        .filter(|&(hi, lo)| ps(hi) > ps(lo) && !skip(hi) && !skip(lo))
        .collect();
    let mut out = Vec::new();
    for i in 0..pairs.len() {
        for j in i + 1..pairs.len() {
            let ((a, b), (c, d)) = (pairs[i], pairs[j]);
            if ps(a) == ps(c) && ps(b) == ps(d) && f.may_meet(a, c) && f.may_meet(b, d) {
                out.push(f.flag(
                    rule,
                    vec![a, b, c, d],
                    format!(
                        "{a} v {b} and {c} v {d} both float between the pairing-score groups {} and {}; {a} v {c} and {b} v {d} keep each game in its group",
                        points(ps(a)),
                        points(ps(b))
                    ),
                ));
            }
        }
    }
    out
}

/// `group` labels (case-insensitive) that differ from the computed group, among `allowed`.
pub(super) fn labels(
    t: &Tournament,
    f: &Facts,
    want: &dyn Fn(u32) -> Option<String>,
    allowed: &[&str],
    rule: &str,
) -> Vec<Violation> {
    let mut out = Vec::new();
    for p in &t.players {
        let Some(label) = p.group.as_deref() else {
            continue;
        };
        let l = label.trim().to_ascii_uppercase();
        if !allowed.contains(&l.as_str()) {
            continue;
        }
        if let Some(w) = want(p.id) {
            if !l.ends_with(&w) {
                out.push(f.flag(
                    rule,
                    vec![p.id],
                    format!(
                        "{} is labelled group {l} but the rule puts him in group {w}",
                        p.id
                    ),
                ));
            }
        }
    }
    out
}

/// Checks round `r` under the Baku acceleration.
pub fn check(t: &Tournament, r: u32) -> Vec<Violation> {
    const GROUPS: &str = "FIDE C.04.5.1 groups";
    const POINTS: &str = "FIDE C.04.5.1 virtual points";
    const SCORE: &str = "FIDE C.04.5.1 pairing score";
    let f = Facts::new(t, r);
    let mut out = Vec::new();
    // Initial groups division: the first half of the list, rounded up to an even number.
    let mut list: Vec<u32> = t
        .players
        .iter()
        .filter(|p| p.active_in(1))
        .map(|p| p.number())
        .collect();
    list.sort_unstable();
    let n = list.len();
    let k = (n.div_ceil(2) + n.div_ceil(2) % 2).min(n);
    // Late entries: the last GA player stays the same.
    let last = (k > 0).then(|| list[k - 1]);
    let ga = |id: u32| last.is_some_and(|l| id <= l);
    if t.rounds_planned.is_none() {
        out.push(f.flag(
            POINTS,
            vec![],
            "the number of rounds is not set, so the accelerated rounds are unknown".into(),
        ));
    }
    // Accelerated rounds: the first half (rounded up); full point in the first half (rounded
    // up) of them, half a point in the rest.
    let v_in = |k: u32| -> Points {
        match t.rounds_planned {
            None => 0,
            Some(rounds) => {
                let acc = rounds.div_ceil(2);
                let full = acc.div_ceil(2);
                if k <= full {
                    1000
                } else if k <= acc {
                    500
                } else {
                    0
                }
            }
        }
    };
    let v = v_in(r);
    // Exact: the readers hold 1 and ½ exactly.
    if t.scoring.win != 1.0 || t.scoring.draw != 0.5 {
        out.push(f.flag(
            POINTS,
            vec![],
            format!(
                "the method is for the standard scoring (1 a win, ½ a draw); this event scores {} and {}",
                t.scoring.win, t.scoring.draw
            ),
        ));
    }
    let vp: BTreeMap<u32, Points> = t
        .players
        .iter()
        .map(|p| (p.id, if ga(p.number()) { v } else { 0 }))
        .collect();
    let vp_in = |k: u32| -> BTreeMap<u32, Points> {
        t.players
            .iter()
            .map(|p| (p.id, if ga(p.number()) { v_in(k) } else { 0 }))
            .collect()
    };
    out.extend(standard_with(t, r, &vp_in));
    out.extend(labels(
        t,
        &f,
        &|id| {
            Some(if ga(t.number_of(id)) {
                "A".into()
            } else {
                "B".into()
            })
        },
        &["GA", "GB", "A", "B"],
        GROUPS,
    ));
    out.extend(stored_points(t, &f, &vp, POINTS));
    let ps = |id: u32| f.sc(id) + vp.get(&id).copied().unwrap_or(0);
    out.extend(float_exchanges(&f, &ps, &|_| false, SCORE));
    out
}
