//! ECF accelerated pairings ("Accelerated Pairings", ECF; short name "ECF"), Basic and
//! Advanced, on top of the grading-based Swiss ([`super::swiss`]). See `models/ecf.md` for the
//! formulation clause by clause.
//!
//! * Groups (ECF basic 1 / advanced 1): the entry in rating order, quarters A–D; the top half
//!   is A+B. Basic: `4q + rem` players give a top half of `2q`, enlarged by two when `rem > 0`
//!   (and the bottom half gets the rest: `2q − 1`, `2q`, `2q + 1`). Advanced: an even number
//!   between 56% and 60% of the entry.
//! * Round 1 (ECF basic 2 / advanced 2): A v B and C v D, encoded as a first tier counting
//!   pairs outside that structure (zero unless absences make the structure impossible); the
//!   colour of board 1 by lot (seeded and reported) or as given, then alternating.
//! * Accelerated rounds (ECF basic 3, 4, 6; advanced 3, 4, 6, 7): tiers, in priority order,
//!   counting bottom-half leaders not facing the top-half players of the next two score groups,
//!   rule-6 breaks, and (Advanced) bottom-half players half a point behind not facing top-half
//!   players a point behind, then promotions; score-group floats are counted only outside those
//!   accelerated pairs; the choice of the highest-rated partners is a tier after colours.
//! * After acceleration (ECF basic 5): the standard Swiss, paired by the exact FIDE Dutch
//!   procedure ([`System::dutch_round`]); the standard Swiss specification is its fallback.
//!
//! An accelerated round's tiers are named ([`AccTier`]), a pair's costs are an [`AccCosts`],
//! and one function gives a pair's costs or every tier's bound, so that the two cannot drift;
//! round 1 inserts its tier into the standard ones by name. Every clause is cited as a whole
//! string ("ECF basic 4(b)"), here and in the verifier, so one grep finds both.
//!
//! Why one long file: Basic and Advanced share the group structure, the tiers and every pair's
//! costs; they differ in a few rows, which is clearest side by side.

use super::colour::preference;
use super::swiss::{pair_costs, standard_spec, Field, SwissCosts, SwissPairs, SwissTier};
use super::System;
use crate::spec::{ByeOption, Candidate, PairSource, RoundSpec, Tier};
use crate::tournament::{milli, Colour, Player, Tournament};
use crate::{Error, Result, SystemKind};
use std::collections::BTreeMap;

/// The systems `ecf-basic` (`advanced == false`) and `ecf-advanced`.
#[derive(Debug, Default)]
pub struct Ecf {
    /// ECF advanced; `false`: ECF basic.
    pub advanced: bool,
}

impl Ecf {
    /// The citation of this variant: `basic` or `advanced`, each a whole string so that a grep
    /// for the clause finds its encoding.
    fn cite(&self, basic: &str, advanced: &str) -> String {
        if self.advanced { advanced } else { basic }.to_string()
    }
}

/// Quarters of the entry (ECF basic 1 / advanced 1).
#[derive(Debug, Clone)]
pub struct Groups {
    /// The entry in rating order (rating descending, then pairing number).
    pub order: Vec<u32>,
    /// Size of the top half (quarters A and B).
    pub top: usize,
    /// Quarter letter by player id; late entries are not listed (they count as bottom half).
    pub quarter: BTreeMap<u32, char>,
    /// Remarks on how the groups were formed.
    pub notes: Vec<String>,
}

impl Groups {
    /// Whether player `id` is in the top half (quarters A and B).
    pub fn is_top(&self, id: u32) -> bool {
        matches!(self.quarter.get(&id), Some('A') | Some('B'))
    }

    /// Ids of one quarter, in rating order.
    pub fn members(&self, q: char) -> Vec<u32> {
        self.order
            .iter()
            .copied()
            .filter(|id| self.quarter.get(id) == Some(&q))
            .collect()
    }
}

/// The director's ECF settings, parsed once; an error names the setting.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// `ecf.top_half_percent`: the advanced top half's target share (56–60).
    pub top_half_percent: Option<f64>,
    /// `ecf.top_half`: the advanced top half's size.
    pub top_half: Option<i64>,
    /// `ecf.first_board_colour`: the higher-rated player's colour on board 1 of round 1.
    pub first_board_colour: Option<Colour>,
    /// `ecf.lot_seed`: the seed of the lot for that colour.
    pub lot_seed: Option<i64>,
    /// `ecf.accelerated_rounds`: a fixed number of accelerated rounds.
    pub accelerated_rounds: Option<i64>,
}

impl Settings {
    /// The settings of `t`.
    pub fn of(t: &Tournament) -> Result<Settings> {
        let number = |key: &str| -> Result<Option<f64>> {
            match t.settings.get(key) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(v) => v
                    .as_f64()
                    .map(Some)
                    .ok_or_else(|| Error::field(key, format!("must be a number, got {v}"))),
            }
        };
        let whole = |key: &str| -> Result<Option<i64>> {
            match number(key)? {
                None => Ok(None),
                Some(x) if x.fract() == 0.0 => Ok(Some(x as i64)),
                Some(x) => Err(Error::field(
                    key,
                    format!("must be a whole number, got {x}"),
                )),
            }
        };
        let key = "ecf.first_board_colour";
        let first_board_colour = match t.settings.get(key) {
            None => None,
            Some(v) => match v.as_str() {
                Some("white") | Some("w") | Some("W") => Some(Colour::White),
                Some("black") | Some("b") | Some("B") => Some(Colour::Black),
                _ => {
                    return Err(Error::field(
                        key,
                        format!("must be \"white\" or \"black\", got {v}"),
                    ))
                }
            },
        };
        Ok(Settings {
            top_half_percent: number("ecf.top_half_percent")?,
            top_half: whole("ecf.top_half")?,
            first_board_colour,
            lot_seed: whole("ecf.lot_seed")?,
            accelerated_rounds: whole("ecf.accelerated_rounds")?,
        })
    }
}

/// The entry: players taking part from round 1 (late entries are added to the bottom half).
fn entry(t: &Tournament) -> Vec<&Player> {
    let mut v: Vec<&Player> = t.players.iter().filter(|p| p.active_in(1)).collect();
    v.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.number().cmp(&b.number())));
    v
}

/// Top-half size for ECF basic 1: `2q`, plus two when the entry is not a multiple of four.
pub fn basic_top_half(n: usize) -> usize {
    let (q, rem) = (n / 4, n % 4);
    let top = 2 * q + if rem > 0 { 2 } else { 0 };
    top.min(n - n % 2)
}

/// The allowed even top-half sizes for ECF advanced 1: even numbers in [56%, 60%] of `n`.
pub fn advanced_range(n: usize) -> (usize, usize) {
    let lo = (n * 56).div_ceil(100);
    let hi = n * 60 / 100;
    (lo, hi)
}

/// Forms the groups of ECF basic 1 / advanced 1 from the ratings of the entry.
pub fn groups(t: &Tournament, advanced: bool) -> Result<Groups> {
    groups_with(t, &Settings::of(t)?, advanced)
}

/// [`groups`] with the settings parsed.
pub fn groups_with(t: &Tournament, set: &Settings, advanced: bool) -> Result<Groups> {
    let entry = entry(t);
    let n = entry.len();
    let mut notes = Vec::new();
    let top = if !advanced {
        basic_top_half(n)
    } else {
        let (lo, hi) = advanced_range(n);
        let evens: Vec<usize> = (lo..=hi).filter(|x| x % 2 == 0).collect();
        let range = format!(
            "an even number between {lo} and {hi} (56%–60% of the {n} entrants, ECF advanced 1)"
        );
        let pct = set.top_half_percent;
        if let Some(p) = pct {
            if !(56.0..=60.0).contains(&p) {
                return Err(Error::field(
                    "ecf.top_half_percent",
                    format!("must be between 56 and 60 (ECF advanced 1), got {p}"),
                ));
            }
        }
        if let Some(k) = set.top_half {
            if k < 0 || k % 2 != 0 || (k as usize) < lo || k as usize > hi {
                return Err(Error::field(
                    "ecf.top_half",
                    if evens.is_empty() {
                        format!("{k} is not allowed: no even number lies between {lo} and {hi} (56%–60% of the {n} entrants, ECF advanced 1); use ecf-basic")
                    } else {
                        format!("must be {range}, got {k}")
                    },
                ));
            }
            k as usize
        } else {
            // A share of the entry, not a score: real-valued.
            let target = pct.unwrap_or(58.0) / 100.0 * n as f64;
            let best = |c: &[usize]| {
                c.iter().copied().min_by(|a, b| {
                    (*a as f64 - target)
                        .abs()
                        .total_cmp(&(*b as f64 - target).abs())
                        .then(a.cmp(b))
                })
            };
            match best(&evens) {
                Some(k) => k,
                None => {
                    if pct.is_some() {
                        return Err(Error::field(
                            "ecf.top_half_percent",
                            format!("no even top half lies between {lo} and {hi} (56%–60% of the {n} entrants, ECF advanced 1); use ecf-basic"),
                        ));
                    }
                    let all: Vec<usize> = (0..=n).filter(|x| x % 2 == 0).collect();
                    let k = best(&all).unwrap_or(0);
                    notes.push(format!(
                        "ECF advanced 1: no even number lies between 56% and 60% of the {n} entrants; the top half has {k} players"
                    ));
                    k
                }
            }
        }
    };
    let bottom = n - top;
    let (ab, c) = (top / 2, bottom / 2);
    let mut quarter = BTreeMap::new();
    for (i, p) in entry.iter().enumerate() {
        let q = if i < ab {
            'A'
        } else if i < top {
            'B'
        } else if i < top + c {
            'C'
        } else {
            'D'
        };
        quarter.insert(p.id, q);
    }
    Ok(Groups {
        order: entry.iter().map(|p| p.id).collect(),
        top,
        quarter,
        notes,
    })
}

/// The colour of the higher-rated player on board 1 of round 1 (ECF basic 2 / advanced 2): the setting
/// `ecf.first_board_colour`, else the tournament's initial colour, else drawn by lot from a
/// seed (`ecf.lot_seed`, else a hash of the entry) and reported.
pub fn first_board_colour(
    t: &Tournament,
    set: &Settings,
    advanced: bool,
) -> Result<(Colour, Option<String>)> {
    let clause = if advanced {
        "ECF advanced 2"
    } else {
        "ECF basic 2"
    };
    if let Some(c) = set.first_board_colour {
        return Ok((c, None));
    }
    if let Some(c) = t.initial_colour {
        return Ok((c, None));
    }
    let seed = match set.lot_seed {
        Some(s) => s as u64,
        None => {
            // FNV-1a over the entry: the same file always draws the same colour.
            let mut h: u64 = 0xcbf29ce484222325;
            for p in &t.players {
                for b in p.id.to_le_bytes().iter().chain(p.name.as_bytes()) {
                    h ^= *b as u64;
                    h = h.wrapping_mul(0x100000001b3);
                }
            }
            h
        }
    };
    // splitmix64 finaliser, then a coin.
    let mut z = seed.wrapping_add(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
    z ^= z >> 31;
    let c = if z & 1 == 0 {
        Colour::White
    } else {
        Colour::Black
    };
    let word = if c == Colour::White { "white" } else { "black" };
    Ok((
        c,
        Some(format!(
            "{clause}: colour on board 1 drawn by lot (seed {seed}): {word} for the higher-rated player; record it as setting ecf.first_board_colour = \"{word}\""
        )),
    ))
}

/// The fixed number of accelerated rounds set by the director, if any (at least three).
pub fn fixed_rounds(t: &Tournament, set: &Settings) -> Result<Option<u32>> {
    let Some(k) = set.accelerated_rounds else {
        return Ok(None);
    };
    let max = t.rounds_planned.map(i64::from).unwrap_or(i64::MAX);
    if k < 3 || k > max {
        let range = match t.rounds_planned {
            Some(p) => format!("between 3 and {p} (the rounds planned)"),
            None => "at least 3".to_string(),
        };
        return Err(Error::field(
            "ecf.accelerated_rounds",
            format!("must be {range} (ECF: a fixed number of rounds, a minimum of three), got {k}"),
        ));
    }
    Ok(Some(k as u32))
}

/// The director's warnings: the document's conditions for acceleration to work.
pub fn field_warnings(t: &Tournament) -> Vec<String> {
    let entry = entry(t);
    let n = entry.len();
    let mut out = Vec::new();
    let unrated = entry.iter().filter(|p| p.rating == 0).count();
    if n > 0 && unrated * 10 > n {
        out.push(format!(
            "ECF: acceleration is likely to work well only if all, or nearly all, players are rated; {unrated} of {n} are unrated"
        ));
    }
    let rated: Vec<u32> = entry.iter().map(|p| p.rating).filter(|&r| r > 0).collect();
    if let (Some(hi), Some(lo)) = (rated.iter().max(), rated.iter().min()) {
        if hi - lo <= 350 {
            out.push(format!(
                "ECF: acceleration wants a large rating difference (over 350) between top and bottom; this field spans {}",
                hi - lo
            ));
        }
    }
    if let Some(r) = t.rounds_planned {
        if r < 63 && (n as u64) <= (1u64 << r) {
            out.push(format!(
                "ECF: acceleration is likely to work well only with more than 2^r players ({} for {r} rounds); this field has {n}",
                1u64 << r
            ));
        }
    } else {
        out.push(
            "ECF: rounds_planned is not set, so acceleration cannot stop two rounds before the end (ECF basic 4)".into(),
        );
    }
    out
}

/// Whether round `round` (≥ 2) is accelerated, with the reason. `leaders` counts bottom-half
/// players on 100% (Advanced: within half a point of it).
pub fn accelerated(
    t: &Tournament,
    set: &Settings,
    round: u32,
    advanced: bool,
    leaders: usize,
) -> Result<(bool, String)> {
    let fixed = fixed_rounds(t, set)?;
    let two_left = t.rounds_planned.is_some_and(|p| round + 1 >= p);
    let what = if advanced {
        "no bottom-half player is within half a point of 100%"
    } else {
        "no bottom-half player is on 100%"
    };
    let cl = if advanced {
        "ECF advanced 4"
    } else {
        "ECF basic 4"
    };
    if let Some(k) = fixed {
        if round > k {
            return Ok((
                false,
                format!("acceleration ended after the fixed {k} rounds ({cl})"),
            ));
        }
        if !advanced {
            return Ok((
                true,
                format!("accelerated round {round} of the fixed {k} ({cl})"),
            ));
        }
    }
    if two_left {
        return Ok((
            false,
            format!("acceleration ended: only two rounds are left to play ({cl})"),
        ));
    }
    if leaders == 0 {
        return Ok((false, format!("acceleration ended: {what} ({cl})")));
    }
    Ok((
        true,
        format!("accelerated: {leaders} bottom-half player(s) to catch ({cl})"),
    ))
}

impl System for Ecf {
    fn kind(&self) -> SystemKind {
        if self.advanced {
            SystemKind::EcfAdvanced
        } else {
            SystemKind::EcfBasic
        }
    }
    fn one_half_zero(&self) -> Option<&'static str> {
        Some("ECF basic 3: score groups of 1's, ½'s and 0's")
    }

    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec> {
        Ok(self.spec_with_bounds(t, round)?.0)
    }

    /// "ECF basic 5" / "ECF advanced 5": once acceleration has stopped, every score group
    /// holds only players of one score plus floaters, the standard Swiss, which is the
    /// FIDE Dutch system; round 1 (A v B, C v D) and the accelerated rounds keep their rules.
    fn dutch_round(&self, t: &Tournament, round: u32) -> Result<bool> {
        Ok(round >= 2 && !self.later_round(t, round)?.0)
    }

    fn dutch_basis(&self) -> String {
        format!(
            "{}, the standard Swiss after acceleration: ",
            self.cite("ECF basic 5", "ECF advanced 5")
        )
    }

    fn notes(&self, t: &Tournament, round: u32) -> Result<Vec<String>> {
        if round < 2 {
            return Ok(self.spec(t, round)?.notes);
        }
        Ok(self.later_round(t, round)?.1)
    }
}

impl Ecf {
    /// The round's specification and each tier's upper bound over every pair, the bounds from
    /// the same functions as the costs (the tests check every candidate against them).
    pub fn spec_with_bounds(&self, t: &Tournament, round: u32) -> Result<(RoundSpec, Vec<i64>)> {
        let (set, g, field, mut notes) = self.standing(t, round)?;
        let (mut spec, bounds) = if round == 1 {
            self.round_one(t, &set, &field, &g, &mut notes)?
        } else {
            let m = milli(t.scoring.max_per_round() * f64::from(round - 1));
            let (on, why) = self.acceleration(t, &set, &field, &g, round)?;
            notes.push(why);
            if on {
                self.accelerated_round(t, &field, &g, m, round)
            } else {
                let mut s = standard_spec(t, &field, self.name());
                s.tier_mut(SwissTier::Float.name()).rule = format!(
                    "{}; FIDE C.04.3 C.6-C.7",
                    self.cite("ECF basic 5", "ECF advanced 5")
                );
                (s, SwissPairs::new(t, &field).upper())
            }
        };
        notes.append(&mut spec.notes);
        spec.notes = notes;
        Ok((spec, bounds))
    }

    /// Whether round `round` (≥ 2) is accelerated, and why: bottom-half players on 100%
    /// (Advanced: within half a point of it) are counted from the standings before it.
    fn acceleration(
        &self,
        t: &Tournament,
        set: &Settings,
        field: &Field,
        g: &Groups,
        round: u32,
    ) -> Result<(bool, String)> {
        // In thousandths: 100% (and half a point behind it) is met exactly.
        let m = milli(t.scoring.max_per_round() * f64::from(round - 1));
        let half = milli(t.scoring.draw);
        let leaders = (0..field.len())
            .filter(|&i| !g.is_top(field.ids[i]))
            .filter(|&i| {
                let s = milli(field.standings[i].score);
                s >= m || (self.advanced && s == m - half)
            })
            .count();
        accelerated(t, set, round, self.advanced, leaders)
    }

    /// What every round is stated from: the settings, the groups, the field on real points,
    /// and the notes on the field and the groups.
    fn standing(
        &self,
        t: &Tournament,
        round: u32,
    ) -> Result<(Settings, Groups, Field, Vec<String>)> {
        let set = Settings::of(t)?;
        let g = groups_with(t, &set, self.advanced)?;
        let field = Field::new(t, round, &|_, s| s.score)?;
        let mut notes = field_warnings(t);
        notes.extend(g.notes.iter().cloned());
        Ok((set, g, field, notes))
    }

    /// Round `round` ≥ 2: whether it is accelerated, and the notes on the field and on that
    /// decision, without the round's program.
    fn later_round(&self, t: &Tournament, round: u32) -> Result<(bool, Vec<String>)> {
        let (set, g, field, mut notes) = self.standing(t, round)?;
        let (on, why) = self.acceleration(t, &set, &field, &g, round)?;
        notes.push(why);
        Ok((on, notes))
    }

    /// Several clauses of this variant in one rule string (see [`clauses`]).
    fn cite_all(&self, basic: &[&str], advanced: &[&str]) -> String {
        clauses(if self.advanced { advanced } else { basic })
    }

    /// ECF basic 2: A v B and C v D, board 1's colour by lot, then alternating. The standard
    /// Swiss's tiers, with one tier before them all counting the pairs outside that structure.
    fn round_one(
        &self,
        t: &Tournament,
        set: &Settings,
        f: &Field,
        g: &Groups,
        notes: &mut Vec<String>,
    ) -> Result<(RoundSpec, Vec<i64>)> {
        let (first, lot) = first_board_colour(t, set, self.advanced)?;
        notes.extend(lot);
        let (a, b, c, d) = (
            g.members('A'),
            g.members('B'),
            g.members('C'),
            g.members('D'),
        );
        // (higher-rated, lower-rated, colour of the higher-rated)
        let mut intended: BTreeMap<(u32, u32), Colour> = BTreeMap::new();
        let boards = a.iter().zip(&b).chain(c.iter().zip(&d));
        for (k, (&x, &y)) in boards.enumerate() {
            let col = if k % 2 == 0 { first } else { first.opposite() };
            intended.insert(
                (x.min(y), x.max(y)),
                if x < y { col } else { col.opposite() },
            );
        }
        let intended_bye = if d.len() > c.len() {
            d.last().copied()
        } else {
            None
        };
        let key = |i: usize, j: usize| {
            let (x, y) = (f.ids[i], f.ids[j]);
            (x.min(y), x.max(y))
        };
        let initial = t.initial_colour.unwrap_or(Colour::White);
        let groups_ = f.groups();
        let group_of = group_index(f);
        let n = f.len();
        let mut candidates = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let col_i = match intended.get(&key(i, j)) {
                    // the colour of the lower id in the key
                    Some(&cl) => {
                        if f.ids[i] < f.ids[j] {
                            cl
                        } else {
                            cl.opposite()
                        }
                    }
                    None => match f.colour_for(i, j, initial) {
                        Some(cl) => cl,
                        None => continue,
                    },
                };
                candidates.push(Candidate {
                    a: i,
                    b: j,
                    white: if col_i == Colour::White { i } else { j },
                    costs: pair_costs(f, &groups_, &group_of, i, j, col_i).to_vec(),
                });
            }
        }
        let mut spec = RoundSpec {
            candidates,
            ..standard_spec(t, f, self.name())
        };
        let mut bounds = SwissPairs::new(t, f).upper();
        spec.insert_tier_before(
            SwissTier::ByeGroup.name(),
            Tier::new(
                "pairs outside A v B, C v D",
                &self.cite("ECF basic 2", "ECF advanced 2"),
            ),
            |c| !intended.contains_key(&key(c.a, c.b)) as i64,
            |o| (Some(f.ids[o.player]) != intended_bye) as i64,
        );
        bounds.insert(SwissTier::ByeGroup.index(), 1);
        notes.push(format!(
            "{}: top half {} players (A {}, B {}), bottom half {} (C {}, D {})",
            self.cite("ECF basic 1", "ECF advanced 1"),
            g.top,
            a.len(),
            b.len(),
            c.len() + d.len(),
            c.len(),
            d.len()
        ));
        Ok((spec, bounds))
    }

    /// ECF basic 3/4/6, advanced 3/4/6/7: an accelerated round.
    fn accelerated_round(
        &self,
        t: &Tournament,
        f: &Field,
        g: &Groups,
        m: i64,
        round: u32,
    ) -> (RoundSpec, Vec<i64>) {
        let acc = Accelerated::new(t, f, g, m, self.advanced);
        let tiers = AccTier::of(self.advanced);
        let mut candidates = Vec::new();
        for i in 0..acc.n {
            for j in i + 1..acc.n {
                if f.standings[i].has_met(f.ids[j]) {
                    continue; // no rematch (FIDE C.04.1 b, the seeded-pairing rules)
                }
                let Some(ci) = f.colour_for(i, j, acc.initial) else {
                    continue; // colour limits (FIDE C.04.1 f/g)
                };
                candidates.push(Candidate {
                    a: i,
                    b: j,
                    white: if ci == Colour::White { i } else { j },
                    costs: acc.costs_or_bound(Some((i, j, ci))).to_vec(&tiers),
                });
            }
        }
        let base = standard_spec(t, f, self.name());
        let byes = base
            .byes
            .iter()
            .map(|o| ByeOption {
                player: o.player,
                costs: acc.bye_costs(o).to_vec(&tiers),
            })
            .collect();
        // The remaining players: 3(c)-(d) in round 2, 4(c) afterwards.
        let rest = if round == 2 {
            self.cite("ECF basic 3(c)-(d)", "ECF advanced 3(c)-(d)")
        } else {
            self.cite("ECF basic 4(c)", "ECF advanced 4(c)")
        };
        // Group (a) is not a score group (the bottom-half leaders share its score), so its
        // parity row is named here: an odd group (a) sends one player out, which the LP could
        // otherwise dodge with half-pairs round a triangle (tier 2 fractional).
        let ta_set: Vec<usize> = (0..acc.n).filter(|&i| acc.ta[i]).collect();
        let mut odd_sets = base.odd_sets.clone();
        if ta_set.len() % 2 == 1 && ta_set.len() > 1 {
            odd_sets.push(ta_set);
        }
        let spec = RoundSpec {
            tiers: tiers.iter().map(|&k| self.tier(k, &rest)).collect(),
            candidates,
            byes,
            odd_sets,
            ..base
        };
        (spec, acc.costs_or_bound(None).to_vec(&tiers))
    }

    /// An accelerated round's tier as certificates show it; `rest` cites the clause pairing
    /// the players outside the accelerated pairs.
    fn tier(&self, k: AccTier, rest: &str) -> Tier {
        let six = || self.cite("ECF basic 6", "ECF advanced 6");
        let b = || {
            self.cite_all(
                &["ECF basic 3(b)", "ECF basic 4(b)"],
                &["ECF advanced 3(b)", "ECF advanced 4(b)"],
            )
        };
        match k {
            AccTier::ByeGroup => SwissTier::ByeGroup.tier(),
            AccTier::TopLeadersOut => Tier::new(
                "top-half leaders floated out beyond an odd group's one floater",
                &six(),
            ),
            AccTier::LeadersUnserved => Tier::new(
                "bottom-half leaders not paired against top-half players",
                &b(),
            ),
            AccTier::RuleSixBroken => Tier::new(
                "top-half leaders paired against bottom-half leaders (rule 6 broken)",
                &six(),
            ),
            AccTier::FloaterNotBehind => Tier::new(
                "floater from the top-half leaders not paired against a top-half player half a point behind",
                &six(),
            ),
            AccTier::HalvesUnserved => Tier::new(
                "bottom-half players half a point behind not paired against top-half players",
                &clauses(&["ECF advanced 3(d)", "ECF advanced 7"]),
            ),
            AccTier::Promoted => Tier::new(
                "bottom-half players promoted into the top half",
                "ECF advanced 7",
            ),
            // "promote the highest rated 'bottom halves'": by rating, before colours.
            AccTier::PromotedNotHighest => Tier::new(
                "promoted bottom-half players not the highest-rated",
                "ECF advanced 7",
            ),
            AccTier::AcceleratedColour => Tier::new(
                "colour preferences not granted in the accelerated pairs",
                &format!(
                    "{} (due the appropriate colour)",
                    self.cite_all(
                        &["ECF basic 3(b)", "ECF basic 4(b)", "ECF basic 6"],
                        &["ECF advanced 3(b)", "ECF advanced 4(b)", "ECF advanced 6"],
                    )
                ),
            ),
            AccTier::FloaterNotHighestLeader => Tier::new(
                "floater not given the highest-rated bottom-half leader",
                &six(),
            ),
            AccTier::FloaterNotHighestBehind => Tier::new(
                "floater from the top-half leaders not given the highest-rated top-half player half a point behind",
                &six(),
            ),
            AccTier::PartnersNotHighest => Tier::new(
                "top-half partners of the bottom-half leaders not the highest-rated available",
                &b(),
            ),
            AccTier::FloaterCNotBehind => Tier::new(
                "floater from the top-half players half a point behind not paired against a top-half player a point behind",
                "ECF advanced 6",
            ),
            AccTier::PartnersCdNotHighest => Tier::new(
                "floater from the top-half players half a point behind, then the (d) pairs, not given the highest-rated top-half players a point behind",
                &clauses(&["ECF advanced 6", "ECF advanced 3(d)"]),
            ),
            AccTier::GradingOrder => Tier::new(
                "accelerated pairs not in grading order",
                &self.cite("ECF basic 3(b)", "ECF advanced 3(b)"),
            ),
            AccTier::Float => Tier::new(
                "float size outside the accelerated pairs (score steps squared)",
                &format!("{rest}; FIDE C.04.3 C.6-C.7"),
            ),
            AccTier::Colour => SwissTier::Colour.tier(),
            AccTier::StrongColour => SwissTier::StrongColour.tier(),
            AccTier::RepeatFloat1 => SwissTier::RepeatFloat1.tier(),
            AccTier::RepeatFloat2 => SwissTier::RepeatFloat2.tier(),
            AccTier::ByeRank => SwissTier::ByeRank.tier(),
            AccTier::Order => Tier::new(
                "in-bracket order (S1 v S2) outside the accelerated pairs",
                "FIDE C.04.3 B.2-B.3",
            ),
        }
    }
}

/// Clauses of one document in one rule string, each given whole ("ECF basic 3(b)", "ECF
/// basic 4(b)", so that a grep for either finds it) and shown as the document writes them
/// ("ECF basic 3(b), 4(b)").
fn clauses(list: &[&str]) -> String {
    let prefix = list[0].rfind(' ').map_or("", |k| &list[0][..=k]);
    let mut out = list[0].to_string();
    for c in &list[1..] {
        debug_assert!(c.starts_with(prefix), "{c:?} is not of {prefix:?}");
        out.push_str(", ");
        out.push_str(c.strip_prefix(prefix).unwrap_or(c));
    }
    out
}

/// The tiers of an accelerated round by name, in priority order ([`AccTier::ALL`]; Advanced
/// only: [`AccTier::advanced_only`]). Colours inside the accelerated pairs come first ("due
/// the appropriate colour"), then the choice of partners and their grading order, and only
/// then the score groups of the remaining players (4(c)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccTier {
    /// Bye above the lowest score group (FIDE C.04.1 d, C.04.3 C.2).
    ByeGroup,
    /// ECF 6: only the floater of an odd top score group leaves it; no further top-half
    /// leader is sent down, not even against a bottom-half leader.
    TopLeadersOut,
    /// 3(b)/4(b): bottom-half leaders without a top-half opponent.
    LeadersUnserved,
    /// ECF 6: top-half leaders paired against bottom-half leaders (rule 6 broken).
    RuleSixBroken,
    /// ECF 6: a floater from (a) (Advanced: also from (c)) not given a top-half player half a
    /// point behind. Group (a) is paired before (b), (c) before (d), so this comes before (d)
    /// and rule 7; (b) keeps priority through rule 6's break (tiers above).
    FloaterNotBehind,
    /// Advanced 3(d), 7.
    HalvesUnserved,
    /// Advanced 7: promotions.
    Promoted,
    /// Advanced 7: promoted bottom-half players not the highest-rated.
    PromotedNotHighest,
    /// Colour preferences not granted in the accelerated pairs (3(b), 4(b), 6: "due the appropriate
    /// colour").
    AcceleratedColour,
    /// ECF 6: the floater takes the highest-rated bottom-half leader (colour first).
    FloaterNotHighestLeader,
    /// ECF 6: the floater from the top-half leaders not given the highest-rated top-half player
    /// half a point behind.
    FloaterNotHighestBehind,
    /// 3(b)/4(b): top-half partners of the bottom-half leaders not the highest-rated available.
    PartnersNotHighest,
    /// The floater from (c) not given a top-half player a point behind: after promotions (a
    /// promoted bottom-half player joins the top-half ½'s and may leave (c) without a
    /// floater) and after the choice of (b) partners, (b) being paired before (c).
    FloaterCNotBehind,
    /// Advanced 6, 3(d): the floater from the top-half players half a point behind, then the (d)
    /// pairs, not given the highest-rated top-half players a point behind.
    PartnersCdNotHighest,
    /// 3(b): accelerated pairs not in grading order.
    GradingOrder,
    /// Float size outside the accelerated pairs, in score steps squared (FIDE C.04.3 C.6-C.7).
    Float,
    /// Colour preferences not granted ([`SwissTier::Colour`]).
    Colour,
    /// Strong colour preferences not granted ([`SwissTier::StrongColour`]).
    StrongColour,
    /// Floats repeated from last round ([`SwissTier::RepeatFloat1`]).
    RepeatFloat1,
    /// Floats repeated from two rounds before ([`SwissTier::RepeatFloat2`]).
    RepeatFloat2,
    /// Bye above the lowest-ranked eligible player ([`SwissTier::ByeRank`]).
    ByeRank,
    /// In-bracket order (S1 v S2) outside the accelerated pairs (FIDE C.04.3 B.2-B.3).
    Order,
}

impl AccTier {
    /// Every tier in priority order.
    pub const ALL: [AccTier; 22] = [
        AccTier::ByeGroup,
        AccTier::TopLeadersOut,
        AccTier::LeadersUnserved,
        AccTier::RuleSixBroken,
        AccTier::FloaterNotBehind,
        AccTier::HalvesUnserved,
        AccTier::Promoted,
        AccTier::PromotedNotHighest,
        AccTier::AcceleratedColour,
        AccTier::FloaterNotHighestLeader,
        AccTier::FloaterNotHighestBehind,
        AccTier::PartnersNotHighest,
        AccTier::FloaterCNotBehind,
        AccTier::PartnersCdNotHighest,
        AccTier::GradingOrder,
        AccTier::Float,
        AccTier::Colour,
        AccTier::StrongColour,
        AccTier::RepeatFloat1,
        AccTier::RepeatFloat2,
        AccTier::ByeRank,
        AccTier::Order,
    ];

    /// The tiers only ECF advanced has (groups (c)-(d) and rule 7).
    pub fn advanced_only(self) -> bool {
        matches!(
            self,
            AccTier::HalvesUnserved
                | AccTier::Promoted
                | AccTier::PromotedNotHighest
                | AccTier::FloaterCNotBehind
                | AccTier::PartnersCdNotHighest
        )
    }

    /// The tiers of a Basic (`advanced == false`) or Advanced accelerated round, in order.
    pub fn of(advanced: bool) -> Vec<AccTier> {
        AccTier::ALL
            .into_iter()
            .filter(|k| advanced || !k.advanced_only())
            .collect()
    }
}

/// A pair's (or a bye's) cost on each tier of an accelerated round, by name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AccCosts {
    /// Cost on [`AccTier::ByeGroup`].
    pub bye_group: i64,
    /// Cost on [`AccTier::TopLeadersOut`].
    pub top_leaders_out: i64,
    /// Cost on [`AccTier::LeadersUnserved`].
    pub leaders_unserved: i64,
    /// Cost on [`AccTier::RuleSixBroken`].
    pub rule_six_broken: i64,
    /// Cost on [`AccTier::FloaterNotBehind`].
    pub floater_not_behind: i64,
    /// Cost on [`AccTier::HalvesUnserved`].
    pub halves_unserved: i64,
    /// Cost on [`AccTier::Promoted`].
    pub promoted: i64,
    /// Cost on [`AccTier::PromotedNotHighest`].
    pub promoted_not_highest: i64,
    /// Cost on [`AccTier::AcceleratedColour`].
    pub accelerated_colour: i64,
    /// Cost on [`AccTier::FloaterNotHighestLeader`].
    pub floater_not_highest_leader: i64,
    /// Cost on [`AccTier::FloaterNotHighestBehind`].
    pub floater_not_highest_behind: i64,
    /// Cost on [`AccTier::PartnersNotHighest`].
    pub partners_not_highest: i64,
    /// Cost on [`AccTier::FloaterCNotBehind`].
    pub floater_c_not_behind: i64,
    /// Cost on [`AccTier::PartnersCdNotHighest`].
    pub partners_cd_not_highest: i64,
    /// Cost on [`AccTier::GradingOrder`].
    pub grading_order: i64,
    /// Cost on [`AccTier::Float`].
    pub float: i64,
    /// Cost on [`AccTier::Colour`].
    pub colour: i64,
    /// Cost on [`AccTier::StrongColour`].
    pub strong_colour: i64,
    /// Cost on [`AccTier::RepeatFloat1`].
    pub repeat_float_1: i64,
    /// Cost on [`AccTier::RepeatFloat2`].
    pub repeat_float_2: i64,
    /// Cost on [`AccTier::ByeRank`].
    pub bye_rank: i64,
    /// Cost on [`AccTier::Order`].
    pub order: i64,
}

impl AccCosts {
    /// The cost on tier `k`.
    pub fn get(&self, k: AccTier) -> i64 {
        match k {
            AccTier::ByeGroup => self.bye_group,
            AccTier::TopLeadersOut => self.top_leaders_out,
            AccTier::LeadersUnserved => self.leaders_unserved,
            AccTier::RuleSixBroken => self.rule_six_broken,
            AccTier::FloaterNotBehind => self.floater_not_behind,
            AccTier::HalvesUnserved => self.halves_unserved,
            AccTier::Promoted => self.promoted,
            AccTier::PromotedNotHighest => self.promoted_not_highest,
            AccTier::AcceleratedColour => self.accelerated_colour,
            AccTier::FloaterNotHighestLeader => self.floater_not_highest_leader,
            AccTier::FloaterNotHighestBehind => self.floater_not_highest_behind,
            AccTier::PartnersNotHighest => self.partners_not_highest,
            AccTier::FloaterCNotBehind => self.floater_c_not_behind,
            AccTier::PartnersCdNotHighest => self.partners_cd_not_highest,
            AccTier::GradingOrder => self.grading_order,
            AccTier::Float => self.float,
            AccTier::Colour => self.colour,
            AccTier::StrongColour => self.strong_colour,
            AccTier::RepeatFloat1 => self.repeat_float_1,
            AccTier::RepeatFloat2 => self.repeat_float_2,
            AccTier::ByeRank => self.bye_rank,
            AccTier::Order => self.order,
        }
    }

    /// The costs as the specification holds them, on `tiers` in that order.
    pub fn to_vec(&self, tiers: &[AccTier]) -> Vec<i64> {
        tiers.iter().map(|&k| self.get(k)).collect()
    }
}

/// The partner roles of an accelerated pair (the player of the first group against one of
/// the second).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// (b): a bottom-half leader against a top-half player ½ or 1 behind.
    B,
    /// Rule 6: a bottom-half leader against a top-half leader.
    Six,
    /// Advanced (d): a bottom-half ½-behind against a top-half 1-behind.
    D,
    /// Advanced 7: a bottom-half ½-behind promoted against a top-half ½-behind.
    Seven,
}

/// The facts of an accelerated round every pair's cost reads: its groups by score and half,
/// rating ranks within them, and the (b) pairs' grading targets.
struct Accelerated<'a> {
    f: &'a Field,
    n: usize,
    adv: bool,
    initial: Colour,
    groups: Vec<std::ops::Range<usize>>,
    group_of: Vec<usize>,
    /// Top half.
    top: Vec<bool>,
    /// (b): bottom-half leaders; their pool: top-half players ½ and 1 behind.
    l: Vec<bool>,
    pool: Vec<bool>,
    /// (a): top-half leaders.
    ta: Vec<bool>,
    /// Advanced (d): bottom-half ½-behind against top-half 1-behind (`q`).
    h: Vec<bool>,
    q: Vec<bool>,
    /// Top-half ½-behind ((c) in Advanced).
    th: Vec<bool>,
    /// Rating ranks within `l`, `pool`, `h`, `q`, `th` (0 = highest rated).
    rl: Vec<i64>,
    rp: Vec<i64>,
    rh: Vec<i64>,
    rq: Vec<i64>,
    rth: Vec<i64>,
    /// The rank in the grading order of the (b) pairs each pool player is aimed at, in half
    /// ranks (see [`substitution_targets`]).
    target: Vec<i64>,
    /// The standard Swiss's bound on every pair of the field.
    swiss_bound: SwissCosts,
    /// Half a point (the scoring's draw value) in thousandths: "half a point behind".
    half: i64,
}

impl<'a> Accelerated<'a> {
    /// `m`: the maximum score before the round (100%), in thousandths.
    fn new(t: &Tournament, f: &'a Field, g: &Groups, m: i64, adv: bool) -> Accelerated<'a> {
        let n = f.len();
        let (win, half) = (milli(t.scoring.win), milli(t.scoring.draw));
        let score = |i: usize| milli(f.standings[i].score);
        let near = |i: usize, v: i64| score(i) == v;
        let top: Vec<bool> = f.ids.iter().map(|&id| g.is_top(id)).collect();
        let rating = |i: usize| f.standings[i].rating;
        let lead: Vec<bool> = (0..n).map(|i| score(i) >= m).collect();
        let l: Vec<bool> = (0..n).map(|i| !top[i] && lead[i]).collect();
        let pool: Vec<bool> = (0..n)
            .map(|i| top[i] && (near(i, m - half) || near(i, m - win)))
            .collect();
        let ta: Vec<bool> = (0..n).map(|i| top[i] && lead[i]).collect();
        let h: Vec<bool> = (0..n)
            .map(|i| adv && !top[i] && near(i, m - half))
            .collect();
        let q: Vec<bool> = (0..n).map(|i| adv && top[i] && near(i, m - win)).collect();
        let th: Vec<bool> = (0..n).map(|i| top[i] && near(i, m - half)).collect();
        let rank_in = |set: &[bool]| -> Vec<i64> {
            let mut idx: Vec<usize> = (0..n).filter(|&i| set[i]).collect();
            idx.sort_by(|&x, &y| {
                rating(y)
                    .cmp(&rating(x))
                    .then(f.number[x].cmp(&f.number[y]))
            });
            let mut r = vec![0i64; n];
            for (k, &i) in idx.iter().enumerate() {
                r[i] = k as i64;
            }
            r
        };
        let (rl, rp, rh, rq, rth) = (
            rank_in(&l),
            rank_in(&pool),
            rank_in(&h),
            rank_in(&q),
            rank_in(&th),
        );
        // Grading order of the (b) pairs: the position each pool player is placed at. Advanced
        // 7 substitutes "working up from the bottom of the pairings made": the bottom-most
        // top-half 0 of the first (b) selection gives way to the highest-rated free top-half
        // ½, the next 0 up to the next ½, and so on; every other pool player keeps his rank.
        let target = if adv {
            let due: Vec<Option<Colour>> =
                f.standings.iter().map(|s| preference(s).colour).collect();
            substitution_targets(&l, &h, &pool, &th, &ta, &due, &rating, &f.number)
        } else {
            rp.iter().map(|r| 2 * r).collect()
        };
        Accelerated {
            f,
            n,
            adv,
            initial: t.initial_colour.unwrap_or(Colour::White),
            groups: f.groups(),
            group_of: group_index(f),
            top,
            l,
            pool,
            ta,
            h,
            q,
            th,
            rl,
            rp,
            rh,
            rq,
            rth,
            target,
            swiss_bound: SwissCosts::from_slice(&SwissPairs::new(t, f).upper()),
            half,
        }
    }

    /// The role of `x` against `y`, if the pair is one the acceleration asks for.
    fn role(&self, x: usize, y: usize) -> Option<Role> {
        if self.l[x] && self.pool[y] {
            Some(Role::B)
        } else if self.l[x] && self.ta[y] {
            Some(Role::Six)
        } else if self.h[x] && self.q[y] {
            Some(Role::D)
        } else if self.h[x] && self.th[y] {
            Some(Role::Seven)
        } else {
            None
        }
    }

    /// A pair's costs (`pair` = (a, b, colour of a), a ranking higher), or with `None` each
    /// tier's upper bound over every pair of the round: each tier's cost and bound side by
    /// side, so that they cannot drift.
    fn costs_or_bound(&self, pair: Option<(usize, usize, Colour)>) -> AccCosts {
        let f = self.f;
        let big = self.n as i64;
        let Some((i, j, ci)) = pair else {
            let swiss = self.swiss_bound;
            return AccCosts {
                // Byes only.
                bye_group: 0,
                // At most one player of a pair on each side of a count, except where both may
                // be counted.
                top_leaders_out: 1,
                leaders_unserved: 2,
                rule_six_broken: 1,
                floater_not_behind: 1,
                halves_unserved: 2,
                promoted: 1,
                // Ranks within a set of the field.
                promoted_not_highest: big,
                accelerated_colour: swiss.colour,
                floater_not_highest_leader: big,
                floater_not_highest_behind: big,
                partners_not_highest: big,
                floater_c_not_behind: 1,
                // (c)'s floater's rank weighs `big` per step.
                partners_cd_not_highest: big * big,
                // A squared difference of two ranks, in half ranks.
                grading_order: 4 * big * big,
                float: swiss.float,
                colour: swiss.colour,
                strong_colour: swiss.strong_colour,
                repeat_float_1: swiss.repeat_float_1,
                repeat_float_2: swiss.repeat_float_2,
                bye_rank: 0,
                order: swiss.order,
            };
        };
        let (l, h, ta, th) = (&self.l, &self.h, &self.ta, &self.th);
        let std = pair_costs(f, &self.groups, &self.group_of, i, j, ci);
        let mut c = AccCosts {
            bye_group: std.bye_group,
            top_leaders_out: (ta[i] != ta[j]) as i64,
            float: std.float,
            colour: std.colour,
            strong_colour: std.strong_colour,
            repeat_float_1: std.repeat_float_1,
            repeat_float_2: std.repeat_float_2,
            bye_rank: std.bye_rank,
            order: std.order,
            ..AccCosts::default()
        };
        let mut acc = true;
        match self
            .role(i, j)
            .map(|r| (r, i, j))
            .or(self.role(j, i).map(|r| (r, j, i)))
        {
            Some((Role::B, x, y)) => {
                c.float = 0;
                c.partners_not_highest = self.rp[y];
                c.grading_order = (2 * self.rl[x] - self.target[y]).pow(2);
                c.order = 0;
            }
            Some((Role::Six, x, _)) => {
                c.rule_six_broken = 1;
                c.float = 0;
                c.floater_not_highest_leader = self.rl[x];
            }
            Some((Role::D, x, y)) => {
                c.float = 0;
                c.partners_cd_not_highest = self.rq[y];
                c.grading_order = (2 * (self.rh[x] - self.rq[y])).pow(2);
                c.order = 0;
            }
            Some((Role::Seven, x, _)) => {
                // advanced 7: promotion of the highest-rated bottom-half players
                c.promoted = 1;
                c.float = 0;
                c.promoted_not_highest = self.rh[x];
            }
            None => {
                acc = false;
                c.leaders_unserved = l[i] as i64 + l[j] as i64;
                c.halves_unserved = h[i] as i64 + h[j] as i64;
                // ECF 6: a floater from the top-half leaders (Advanced also from the
                // top-half ½-behind) meets the highest-rated top-half player half a
                // point behind.
                for (x, y) in [(i, j), (j, i)] {
                    let (sx, sy) = (milli(f.standings[x].score), milli(f.standings[y].score));
                    let floats_down = sx > sy;
                    let from_top_group = ta[x] || (self.adv && th[x]);
                    if from_top_group && floats_down {
                        let behind = sx - self.half;
                        // Only a pair of rule 6 is accelerated (its colours come
                        // first); any other float is an ordinary one.
                        let six = self.top[y] && sy == behind;
                        acc |= six;
                        if ta[x] {
                            c.floater_not_behind += i64::from(!six);
                        } else {
                            c.floater_c_not_behind += i64::from(!six);
                        }
                        let rank = if six {
                            if ta[x] {
                                self.rth[y]
                            } else {
                                self.rq[y]
                            }
                        } else {
                            big
                        };
                        if ta[x] {
                            c.floater_not_highest_behind += rank;
                        } else {
                            // (c)'s floater is paired before (d): his choice outweighs
                            // the (d) partners'.
                            c.partners_cd_not_highest += big * rank;
                        }
                    }
                }
            }
        }
        c.accelerated_colour = if acc { std.colour } else { 0 };
        c
    }

    /// A bye's costs: the standard ones (`o`'s), and the leaders it leaves without a partner.
    fn bye_costs(&self, o: &ByeOption) -> AccCosts {
        let (p, c) = (o.player, SwissCosts::from_slice(&o.costs));
        AccCosts {
            bye_group: c.bye_group,
            top_leaders_out: self.ta[p] as i64,
            leaders_unserved: self.l[p] as i64,
            halves_unserved: self.h[p] as i64,
            float: c.float,
            colour: c.colour,
            strong_colour: c.strong_colour,
            repeat_float_1: c.repeat_float_1,
            repeat_float_2: c.repeat_float_2,
            bye_rank: c.bye_rank,
            order: c.order,
            ..AccCosts::default()
        }
    }
}

/// ECF advanced 7, "working up from the bottom of the pairings made": the rank each pool player
/// is aimed at in the grading order of the (b) pairs. The first (b) selection (ECF advanced
/// 3(b), "taking account of colour requirements"): the leaders in grading order, each given the
/// highest-rated pool player left who is due the other colour (else the highest-rated left),
/// after the floater of an odd top group takes the highest-rated top-half ½ (ECF advanced 6).
/// When rule 7's count falls short, the 0's of that selection, from the bottom up, each give
/// way to the highest-rated spare top-half ½ due the same colour, who is aimed at that 0's
/// rank; everyone else is aimed at his own rating rank in the pool. Every spare ½ is aimed,
/// not only as many as the shortfall: the colour tier may bring in more substitutes than the
/// count needs (each freeing a 0 due the colour a bottom-half ½ lacks), and those too go in
/// from the bottom up. A 0 "of the appropriate colour" (one a bottom-half ½ left without a
/// colour-compatible 0 can play) is taken before any other. Which of these pairs exist is left
/// to the tiers above; this only places them.
#[allow(clippy::too_many_arguments)]
fn substitution_targets(
    l: &[bool],
    h: &[bool],
    pool: &[bool],
    th: &[bool],
    ta: &[bool],
    due: &[Option<Colour>],
    rating: &dyn Fn(usize) -> u32,
    numbers: &[u32],
) -> Vec<i64> {
    let n = l.len();
    let by_rating = |set: &dyn Fn(usize) -> bool| -> Vec<usize> {
        let mut v: Vec<usize> = (0..n).filter(|&i| set(i)).collect();
        v.sort_by(|&x, &y| rating(y).cmp(&rating(x)).then(numbers[x].cmp(&numbers[y])));
        v
    };
    // Two players are "due the appropriate colour" for each other unless both are due the same.
    let fits = |a: usize, b: usize| due[a].is_none() || due[b].is_none() || due[a] != due[b];
    let mut order = by_rating(&|i| pool[i]);
    let mut leaders = by_rating(&|i| l[i]);
    let floater = ta.iter().filter(|&&x| x).count() % 2 == 1;
    if floater && leaders.len() < order.len() {
        // Rule 6 kept: the floater takes the highest-rated top-half ½ first.
        if let Some(pos) = order.iter().position(|&i| th[i]) {
            order.remove(pos);
        }
    } else if floater && !leaders.is_empty() {
        // Rule 6 broken: the floater takes a bottom-half leader out of (b).
        leaders.remove(0);
    }
    let mut target = vec![0i64; n];
    // In half ranks: a substitute is aimed just below the 0 he replaces, so that when the
    // optimum keeps that 0 in (b) (and frees another), the substitute still goes in below it,
    // "working up from the bottom of the pairings made" ("ECF advanced 7").
    for (r, &i) in by_rating(&|i| pool[i]).iter().enumerate() {
        target[i] = 2 * r as i64;
    }
    // The first selection, as (b) pairs in grading order: each leader takes the highest-rated
    // pool player left due the appropriate colour, else the highest-rated left.
    let mut first = Vec::new();
    for &x in &leaders {
        let Some(k) = order
            .iter()
            .position(|&y| fits(x, y))
            .or((!order.is_empty()).then_some(0))
        else {
            break;
        };
        first.push((x, order.remove(k)));
    }
    // Rule 7's count: bottom-half ½'s against the top-half 0's left. No shortfall, no
    // substitution: plain grading order.
    let mut zeros_left: Vec<usize> = order.iter().copied().filter(|&i| !th[i]).collect();
    let halves: Vec<usize> = (0..n).filter(|&i| h[i]).collect();
    let short = halves.len().saturating_sub(zeros_left.len());
    if short == 0 {
        return target;
    }
    let mut spare: Vec<usize> = order.iter().copied().filter(|&i| th[i]).collect();
    // Working up from the bottom, in passes: a 0 "of the appropriate colour" (one that gives a
    // bottom-half ½ a colour-compatible opponent he would otherwise lack) replaced by a ½ due
    // the same colour; then any 0 by a ½ due the same colour; then (colours failing: rule 7
    // substitutes before it promotes) any 0 by the highest-rated spare ½.
    for pass in 0..3 {
        for &(_, zero) in first.iter().rev() {
            if spare.is_empty() {
                return target;
            }
            if th[zero] || zeros_left.contains(&zero) {
                continue;
            }
            if pass == 0 {
                let base = colour_matches(&halves, &zeros_left, &fits);
                zeros_left.push(zero);
                let gain = colour_matches(&halves, &zeros_left, &fits) > base;
                zeros_left.pop();
                if !gain {
                    continue;
                }
            }
            let sub = if pass < 2 {
                spare.iter().position(|&i| due[i] == due[zero])
            } else {
                (!spare.is_empty()).then_some(0)
            };
            if let Some(k) = sub {
                // The substitute is aimed at the rank of the 0 he replaces.
                target[spare.remove(k)] = target[zero] + 1;
                zeros_left.push(zero);
            }
        }
    }
    target
}

/// The most games between `a` and `b` players with colours that fit (a bipartite matching by
/// augmenting paths; the sets are small).
fn colour_matches(a: &[usize], b: &[usize], fits: &dyn Fn(usize, usize) -> bool) -> usize {
    fn augment(
        x: usize,
        a: &[usize],
        b: &[usize],
        fits: &dyn Fn(usize, usize) -> bool,
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for j in 0..b.len() {
            if seen[j] || !fits(a[x], b[j]) {
                continue;
            }
            seen[j] = true;
            if owner[j].is_none_or(|o| augment(o, a, b, fits, seen, owner)) {
                owner[j] = Some(x);
                return true;
            }
        }
        false
    }
    let mut owner = vec![None; b.len()];
    (0..a.len())
        .filter(|&x| augment(x, a, b, fits, &mut vec![false; b.len()], &mut owner))
        .count()
}

fn group_index(f: &Field) -> Vec<usize> {
    let mut group_of = vec![0; f.len()];
    for (gi, g) in f.groups().iter().enumerate() {
        for i in g.clone() {
            group_of[i] = gi;
        }
    }
    group_of
}
