//! The standard Swiss ("standard methods", FIDE Dutch C.04.3 as reference) as a round
//! specification. The accelerated chess systems build on [`Field`] and [`standard_spec`],
//! changing the pairing scores or adding rows and tiers.
//!
//! Hard rules (pairs left out): no rematch (C.04.1 b); colour difference within ±2 and no colour
//! three times running (C.04.1 f/g), except topscorers in the last round (C.04.3 A.7); the
//! pairing-allocated bye at most once and never after a forfeit win (C.04.1 d).
//!
//! Tiers, in strict priority after "players left unpaired":
//! 1. bye placement: the bye in the lowest score group possible (C.04.3 C.2 / C.04.1 d);
//! 2. floats: Σ (score difference in score steps)² over pairs (C.04.3 C.6–C.7);
//! 3. colour preferences not granted (C.04.3 C.12);
//! 4. strong or absolute colour preferences not granted (C.04.3 C.13);
//! 5. floats repeated from the previous round (C.04.3 C.14–C.15);
//! 6. floats repeated from two rounds before (C.04.3 C.16–C.17);
//! 7. the bye to the lowest-ranked eligible player (places from the bottom);
//! 8. in-bracket order: S1 v S2 by rank, downfloaters the lowest of their group against the
//!    highest of the next (C.04.3 B.2–B.3, C.4).

use super::colour::{allocate_from, breaks_limits_from, preference, Preference, Strength};
use super::System;
use crate::spec::RoundPlan;
use crate::spec::{ByeOption, Candidate, PairSource, RoundSpec, SparseSpec, Tier};
use crate::tournament::{milli, Colour, Float, Player, Standing, Standings, Tournament};
use crate::{Error, Result, SystemKind};

/// The system `swiss`: the standard Swiss, paired by the FIDE Dutch system.
#[derive(Debug, Default)]
pub struct Swiss;

impl System for Swiss {
    fn kind(&self) -> SystemKind {
        SystemKind::Swiss
    }
    /// Every round: the standard Swiss is the FIDE Dutch system (C.04.3, 2025).
    fn dutch_round(&self, _t: &Tournament, _round: u32) -> Result<bool> {
        Ok(true)
    }
    /// Every round: the exact FIDE Dutch procedure, then the tier model of
    /// `models/swiss.md` (sparse for large fields), then the legal fallback.
    fn plan<'a>(&'a self, t: &'a Tournament, round: u32) -> Result<RoundPlan<'a>> {
        Ok(super::dutch_plan(self, t, round))
    }
    /// The Dutch procedure states its own findings; the standard Swiss adds nothing.
    fn notes(&self, _t: &Tournament, _round: u32) -> Result<Vec<String>> {
        Ok(Vec::new())
    }

    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec> {
        Ok(standard_spec(t, &swiss_field(t, round)?, "swiss"))
    }

    fn sparse_spec(&self, t: &Tournament, round: u32, from: usize) -> Result<Option<SparseSpec>> {
        let field = swiss_field(t, round)?;
        if field.len() < from {
            return Ok(None);
        }
        Ok(Some(sparse_standard_spec(t, &field, "swiss")))
    }
}

/// The field ranked by score plus any virtual points of the round (TRF `XXA`).
fn swiss_field(t: &Tournament, round: u32) -> Result<Field> {
    Field::new(t, round, &|p, s| {
        s.score
            + p.virtual_points
                .get(round as usize - 1)
                .copied()
                .unwrap_or(0.0)
    })
}

/// The players to pair in a round, in rank order, with their standings and pairing scores.
#[derive(Debug, Clone)]
pub struct Field {
    /// The round being paired (1-based).
    pub round: u32,
    /// Player ids, in rank order; every other per-player vector is indexed like it.
    pub ids: Vec<u32>,
    /// Each player's standing before the round.
    pub standings: Vec<Standing>,
    /// Score used for pairing (real score plus any acceleration), as points for the spec;
    /// every decision reads it in thousandths ([`milli`]).
    pub scores: Vec<f64>,
    /// Topscorers in the last round are exempt from the colour limits (C.04.3 A.7).
    pub topscorer: Vec<bool>,
    /// The common divisor of all scores in thousandths: the unit floats are measured in.
    pub step: i64,
    /// Pairing number as E.5 counts it: place among the players who have entered play (a
    /// player absent without ever having been paired is skipped, like a late entry).
    pub number: Vec<u32>,
    /// Colour preference (A.6) and played colours of each player, computed once: every pair's
    /// colour and cost reads them.
    pub prefs: Vec<Preference>,
    /// Each player's played colours, oldest first.
    pub played: Vec<Vec<Colour>>,
}

impl Field {
    /// Active players of round `round` without a requested bye, ranked by pairing score then
    /// pairing number.
    pub fn new(
        t: &Tournament,
        round: u32,
        pairing_score: &dyn Fn(&Player, &Standing) -> f64,
    ) -> Result<Field> {
        if round == 0 {
            return Err(Error::field("round", "rounds are numbered from 1"));
        }
        let st = Standings::before(t, round);
        let absent: Vec<u32> = t
            .round(round)
            .map(|r| r.requested_byes().map(|b| b.player).collect())
            .unwrap_or_default();
        let mut rows: Vec<(f64, u32, Standing, u32)> = t
            .players
            .iter()
            .filter(|p| p.active_in(round) && !absent.contains(&p.id))
            .map(|p| {
                let s = st.get(p.id).expect("standing for every player").clone();
                (pairing_score(p, &s), p.id, s, p.number())
            })
            .collect();
        rows.sort_by(|a, b| milli(b.0).cmp(&milli(a.0)).then(a.3.cmp(&b.3)));
        let last = t.rounds_planned == Some(round);
        let max = t.scoring.max_per_round() * (round as f64 - 1.0);
        let topscorer = rows
            .iter()
            .map(|(_, _, s, _)| last && 2 * milli(s.score) > milli(max))
            .collect();
        let mut units: Vec<i64> = rows.iter().map(|r| milli(r.0)).collect();
        let sc = &t.scoring;
        for v in [sc.win, sc.draw, sc.loss, sc.pairing_bye, sc.half_bye] {
            units.push(milli(v));
        }
        let g = units.iter().fold(0i64, |g, &u| gcd(g, u));
        let numbers = entered_numbers(t, round, &absent);
        let number = rows
            .iter()
            .map(|r| numbers.get(&r.1).copied().unwrap_or(r.1))
            .collect();
        Ok(Field {
            prefs: rows.iter().map(|r| preference(&r.2)).collect(),
            played: rows.iter().map(|r| r.2.played_colours()).collect(),
            number,
            round,
            ids: rows.iter().map(|r| r.1).collect(),
            scores: rows.iter().map(|r| r.0).collect(),
            standings: rows.into_iter().map(|r| r.2).collect(),
            topscorer,
            step: if g == 0 { 1000 } else { g },
        })
    }

    /// Players in the field.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// No players in the field.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Score groups as index ranges in rank order (equal pairing score).
    pub fn groups(&self) -> Vec<std::ops::Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        for i in 1..=self.len() {
            if i == self.len() || milli(self.scores[i]) != milli(self.scores[start]) {
                out.push(start..i);
                start = i;
            }
        }
        out
    }

    /// Score difference of two players in score steps.
    pub fn steps(&self, a: usize, b: usize) -> i64 {
        (milli(self.scores[a]) - milli(self.scores[b])).abs() / self.step
    }

    /// May `i` take the pairing-allocated bye? (C.04.1 d: not to a player who already had it,
    /// won by forfeit, or scored a win's points without playing — a requested full-point bye.)
    pub fn bye_eligible(&self, i: usize) -> bool {
        let s = &self.standings[i];
        s.pairing_byes == 0 && s.forfeit_wins == 0 && s.full_byes == 0
    }

    /// The colour `a` (higher-ranked) would get against `b`, if the pair is legal for colours.
    pub fn colour_for(&self, a: usize, b: usize, initial: Colour) -> Option<Colour> {
        let (pa, pb) = (&self.played[a], &self.played[b]);
        let ca = allocate_from(
            &self.prefs[a],
            &self.prefs[b],
            pa,
            pb,
            self.number[a],
            initial,
        );
        // C.04.3 A.7 / C.3: in the last round a pair with a topscorer is exempt from the colour
        // limits, for both players.
        let exempt = self.topscorer[a] || self.topscorer[b];
        let legal = |c: Colour| {
            exempt || (!breaks_limits_from(pa, c) && !breaks_limits_from(pb, c.opposite()))
        };
        if legal(ca) {
            Some(ca)
        } else if legal(ca.opposite()) {
            Some(ca.opposite())
        } else {
            None
        }
    }
}

/// E.5 pairing numbers: players in pairing-number order, skipping those not yet joined and
/// those absent from `round` who were never paired before (C.04.2 late entries).
pub(crate) fn entered_numbers(
    t: &Tournament,
    round: u32,
    absent: &[u32],
) -> std::collections::BTreeMap<u32, u32> {
    let paired = t.paired_before(round);
    let mut ids: Vec<&Player> = t.players.iter().collect();
    ids.sort_by_key(|p| p.number());
    let mut out = std::collections::BTreeMap::new();
    let mut n = 0;
    for p in ids {
        let away = !p.active_in(round) || absent.contains(&p.id);
        if p.joined.is_some_and(|j| j > round) || (away && !paired.contains(&p.id)) {
            continue;
        }
        n += 1;
        out.insert(p.id, n);
    }
    out
}

fn gcd(a: i64, b: i64) -> i64 {
    // Unsigned: |i64::MIN| has no i64, and `i64::MIN % -1` overflows.
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// The standard Swiss's tiers by name, in priority order ([`SwissTier::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwissTier {
    /// Bye above the lowest score group (FIDE C.04.1 d, C.04.3 C.2).
    ByeGroup,
    /// Float size, in score steps squared (FIDE C.04.3 C.6-C.7).
    Float,
    /// Colour preferences not granted (FIDE C.04.3 C.12).
    Colour,
    /// Strong colour preferences not granted (FIDE C.04.3 C.13).
    StrongColour,
    /// Floats repeated from last round (FIDE C.04.3 C.14-C.15).
    RepeatFloat1,
    /// Floats repeated from two rounds before (FIDE C.04.3 C.16-C.17).
    RepeatFloat2,
    /// Bye above the lowest-ranked eligible player.
    ByeRank,
    /// In-bracket order, S1 v S2 (FIDE C.04.3 B.2-B.3).
    Order,
}

impl SwissTier {
    /// The tiers in priority order: the order of a cost vector.
    pub const ALL: [SwissTier; 8] = [
        SwissTier::ByeGroup,
        SwissTier::Float,
        SwissTier::Colour,
        SwissTier::StrongColour,
        SwissTier::RepeatFloat1,
        SwissTier::RepeatFloat2,
        SwissTier::ByeRank,
        SwissTier::Order,
    ];

    /// The tier's position in a cost vector (the declaration order is [`SwissTier::ALL`]'s).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The tier's name (as certificates show it) and the rule it encodes.
    pub fn name_and_rule(self) -> (&'static str, &'static str) {
        match self {
            SwissTier::ByeGroup => (
                "bye above the lowest score group",
                "FIDE C.04.1 d, C.04.3 C.2",
            ),
            SwissTier::Float => ("float size (score steps squared)", "FIDE C.04.3 C.6-C.7"),
            SwissTier::Colour => ("colour preferences not granted", "FIDE C.04.3 C.12"),
            SwissTier::StrongColour => {
                ("strong colour preferences not granted", "FIDE C.04.3 C.13")
            }
            SwissTier::RepeatFloat1 => ("floats repeated from last round", "FIDE C.04.3 C.14-C.15"),
            SwissTier::RepeatFloat2 => (
                "floats repeated from two rounds before",
                "FIDE C.04.3 C.16-C.17",
            ),
            SwissTier::ByeRank => (
                "bye above the lowest-ranked eligible player",
                "FIDE C.04.3 bye (lowest ranked)",
            ),
            SwissTier::Order => ("in-bracket order (S1 v S2)", "FIDE C.04.3 B.2-B.3"),
        }
    }

    /// The tier's name, by which accelerated systems find it in a specification.
    pub fn name(self) -> &'static str {
        self.name_and_rule().0
    }

    /// The tier as certificates show it, with its rule.
    pub fn tier(self) -> Tier {
        let (name, rule) = self.name_and_rule();
        Tier::new(name, rule)
    }
}

/// A pair's (or a bye's) cost on each standard tier, by name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SwissCosts {
    /// Cost on [`SwissTier::ByeGroup`].
    pub bye_group: i64,
    /// Cost on [`SwissTier::Float`].
    pub float: i64,
    /// Cost on [`SwissTier::Colour`].
    pub colour: i64,
    /// Cost on [`SwissTier::StrongColour`].
    pub strong_colour: i64,
    /// Cost on [`SwissTier::RepeatFloat1`].
    pub repeat_float_1: i64,
    /// Cost on [`SwissTier::RepeatFloat2`].
    pub repeat_float_2: i64,
    /// Cost on [`SwissTier::ByeRank`].
    pub bye_rank: i64,
    /// Cost on [`SwissTier::Order`].
    pub order: i64,
}

impl SwissCosts {
    /// The cost on tier `t`.
    pub fn get(&self, t: SwissTier) -> i64 {
        match t {
            SwissTier::ByeGroup => self.bye_group,
            SwissTier::Float => self.float,
            SwissTier::Colour => self.colour,
            SwissTier::StrongColour => self.strong_colour,
            SwissTier::RepeatFloat1 => self.repeat_float_1,
            SwissTier::RepeatFloat2 => self.repeat_float_2,
            SwissTier::ByeRank => self.bye_rank,
            SwissTier::Order => self.order,
        }
    }

    /// The costs as the specification holds them, in the order of [`SwissTier::ALL`].
    pub fn to_vec(self) -> Vec<i64> {
        SwissTier::ALL.map(|t| self.get(t)).to_vec()
    }

    /// The costs of a vector in the order of [`SwissTier::ALL`] (a standard specification's).
    pub fn from_slice(c: &[i64]) -> SwissCosts {
        SwissCosts {
            bye_group: c[0],
            float: c[1],
            colour: c[2],
            strong_colour: c[3],
            repeat_float_1: c[4],
            repeat_float_2: c[5],
            bye_rank: c[6],
            order: c[7],
        }
    }
}

/// The tiers of the standard Swiss, in priority order.
pub fn standard_tiers() -> Vec<Tier> {
    SwissTier::ALL.map(SwissTier::tier).to_vec()
}

/// Costs of pair (a, b), a ranking higher, with `ca` = the colour `a` gets.
pub fn pair_costs(
    f: &Field,
    groups: &[std::ops::Range<usize>],
    group_of: &[usize],
    a: usize,
    b: usize,
    ca: Colour,
) -> SwissCosts {
    costs_or_bound(f, groups, group_of, Some((a, b, ca)))
}

/// A pair's costs (`pair` = (a, b, colour of a)), or with `None` each tier's upper bound over
/// every pair of the field: each tier's cost and bound side by side, so that they cannot drift
/// (the solver's tier weights must hold for pairs it has not seen yet).
fn costs_or_bound(
    f: &Field,
    groups: &[std::ops::Range<usize>],
    group_of: &[usize],
    pair: Option<(usize, usize, Colour)>,
) -> SwissCosts {
    let Some((a, b, ca)) = pair else {
        let widest = if f.is_empty() {
            0
        } else {
            f.steps(0, f.len() - 1)
        };
        return SwissCosts {
            // Byes only.
            bye_group: 0,
            // The widest float.
            float: widest * widest,
            // Two players per colour tier and per repeated float.
            colour: 2,
            strong_colour: 2,
            repeat_float_1: 2,
            repeat_float_2: 2,
            bye_rank: 0,
            // The in-bracket order's largest distance.
            order: f.len() as i64,
        };
    };
    let d = f.steps(a, b);
    let (pa, pb) = (f.prefs[a], f.prefs[b]);
    let cb = ca.opposite();
    let missed = |p: &super::colour::Preference, got: Colour| p.colour.is_some_and(|c| c != got);
    let mut colour = 0;
    let mut strong = 0;
    for (p, got) in [(pa, ca), (pb, cb)] {
        if missed(&p, got) {
            colour += 1;
            if p.strength >= Strength::Strong {
                strong += 1;
            }
        }
    }
    let (fa, fb) = if d > 0 {
        (Float::Down, Float::Up)
    } else {
        (Float::None, Float::None)
    };
    let repeat = |s: &Standing, fl: Float, back: usize| -> i64 {
        let n = s.floats.len();
        (fl != Float::None && n >= back && s.floats[n - back] == fl) as i64
    };
    let rep1 = repeat(&f.standings[a], fa, 1) + repeat(&f.standings[b], fb, 1);
    let rep2 = repeat(&f.standings[a], fa, 2) + repeat(&f.standings[b], fb, 2);
    let (ga, gb) = (group_of[a], group_of[b]);
    let order = if ga == gb {
        let g = &groups[ga];
        let half = (g.len() / 2) as i64;
        ((b - a) as i64 - half).abs()
    } else {
        // The downfloater should be the lowest of its group, meeting the highest of the next.
        (groups[ga].end - 1 - a) as i64 + (b - groups[gb].start) as i64
    };
    SwissCosts {
        bye_group: 0,
        float: d * d,
        colour,
        strong_colour: strong,
        repeat_float_1: rep1,
        repeat_float_2: rep2,
        bye_rank: 0,
        order,
    }
}

/// 1 if the player floated down `back` rounds ago (the bye is a downfloat, C.04.3 A.4).
fn repeated_down(s: &Standing, back: usize) -> i64 {
    let n = s.floats.len();
    (n >= back && s.floats[n - back] == Float::Down) as i64
}

/// The standard Swiss's pairs, one at a time: the rules that forbid a pair and the costs of
/// an allowed one. Listed in full by [`standard_spec`]; priced in lazily by the solver for
/// large fields ([`sparse_standard_spec`]).
#[derive(Debug, Clone)]
pub struct SwissPairs {
    /// The round's field.
    pub field: Field,
    /// Score groups as index ranges in rank order ([`Field::groups`]).
    pub groups: Vec<std::ops::Range<usize>>,
    /// Score group of each player (an index into `groups`).
    pub group_of: Vec<usize>,
    /// The colour drawn for odd pairing numbers (E.5): the tournament's initial colour, white if
    /// none.
    pub initial: Colour,
}

impl SwissPairs {
    /// The pairs of field `f` of tournament `t`.
    pub fn new(t: &Tournament, f: &Field) -> SwissPairs {
        let groups = f.groups();
        let mut group_of = vec![0; f.len()];
        for (gi, g) in groups.iter().enumerate() {
            for i in g.clone() {
                group_of[i] = gi;
            }
        }
        SwissPairs {
            field: f.clone(),
            groups,
            group_of,
            initial: t.initial_colour.unwrap_or(Colour::White),
        }
    }

    /// The candidate for `a < b`, or `None` if the rules forbid it.
    pub fn candidate(&self, a: usize, b: usize) -> Option<Candidate> {
        let f = &self.field;
        if f.standings[a].has_met(f.ids[b]) {
            return None; // C.04.1 b: no rematch
        }
        // C.04.1 f/g: colour limits
        let ca = f.colour_for(a, b, self.initial)?;
        let costs = pair_costs(f, &self.groups, &self.group_of, a, b, ca).to_vec();
        Some(Candidate {
            a,
            b,
            white: if ca == Colour::White { a } else { b },
            costs,
        })
    }
}

impl PairSource for SwissPairs {
    fn pair(&self, a: usize, b: usize) -> Option<Candidate> {
        self.candidate(a, b)
    }
    fn class(&self, i: usize) -> usize {
        self.group_of[i]
    }
    fn lower(&self, g: usize, h: usize) -> Vec<i64> {
        // Within a score group every score is equal: the float is exactly the groups' distance.
        let f = &self.field;
        let d = f.steps(self.groups[g].start, self.groups[h].start);
        SwissCosts {
            float: d * d,
            ..SwissCosts::default()
        }
        .to_vec()
    }
    fn refine_lower(&self, a: usize, lo: usize, hi: usize, low: &mut [i64]) {
        // The in-bracket order of `pair_costs` depends on positions only.
        let (ga, gb) = (self.group_of[a], self.group_of[lo]);
        let order = if ga == gb {
            // |distance − half| over the distances from `a` to `lo..=hi`.
            let half = (self.groups[ga].len() / 2) as i64;
            let near = lo.saturating_sub(a).max(a.saturating_sub(hi)) as i64;
            let far = a.abs_diff(lo).max(a.abs_diff(hi)) as i64;
            (near - half).max(half - far).max(0)
        } else if a < lo {
            // `a` floats down: cheapest against the top of the partners' group.
            (self.groups[ga].end - 1 - a + lo - self.groups[gb].start) as i64
        } else {
            // The partner floats down: cheapest from the bottom of its group.
            (self.groups[gb].end - 1 - hi + a - self.groups[ga].start) as i64
        };
        let order_at = SwissTier::Order.index();
        low[order_at] = low[order_at].max(order);
        if lo == hi {
            // Two players due the same colour: one of them misses it (C.04.3 C.12-C.13).
            let (pa, pb) = (self.field.prefs[a], self.field.prefs[lo]);
            if pa.colour.is_some() && pa.colour == pb.colour {
                let (colour, strong) = (SwissTier::Colour.index(), SwissTier::StrongColour.index());
                low[colour] = low[colour].max(1);
                if pa.strength >= Strength::Strong && pb.strength >= Strength::Strong {
                    low[strong] = low[strong].max(1);
                }
            }
        }
    }
    fn upper(&self) -> Vec<i64> {
        costs_or_bound(&self.field, &self.groups, &self.group_of, None).to_vec()
    }
}

/// Partners listed per player in a sparse specification, on each side of the player's
/// natural opponent (S1 v S2 in its own group) and at the edges of the neighbouring groups.
/// The standard Swiss specification for `f` with a few candidates per player listed (around
/// each player's natural opponent, and the neighbouring groups' edges for floaters); the
/// solver prices in the rest from `SwissPairs`.
pub fn sparse_standard_spec(t: &Tournament, f: &Field, system: &str) -> SparseSpec {
    let pairs = SwissPairs::new(t, f);
    let chosen = super::near_pairs(&pairs.groups, f.len());
    let spec = standard_spec_with(f, system, &pairs, |emit| {
        for &(a, b) in &chosen {
            emit(a, b);
        }
    });
    SparseSpec {
        spec,
        source: std::sync::Arc::new(pairs),
    }
}

/// The standard Swiss specification for `f`.
pub fn standard_spec(t: &Tournament, f: &Field, system: &str) -> RoundSpec {
    let pairs = SwissPairs::new(t, f);
    let n = f.len();
    standard_spec_with(f, system, &pairs, |emit| {
        for a in 0..n {
            for b in a + 1..n {
                emit(a, b);
            }
        }
    })
}

/// The specification with the candidates among the pairs `listed` emits.
fn standard_spec_with(
    f: &Field,
    system: &str,
    pairs: &SwissPairs,
    listed: impl FnOnce(&mut dyn FnMut(usize, usize)),
) -> RoundSpec {
    let n = f.len();
    let groups = &pairs.groups;
    let group_of = &pairs.group_of;
    let mut candidates = Vec::new();
    listed(&mut |a, b| {
        if let Some(c) = pairs.candidate(a, b) {
            candidates.push(c);
        }
    });
    let byes = if n % 2 == 1 {
        let lowest = groups.len() - 1;
        (0..n)
            .filter(|&i| f.bye_eligible(i))
            .map(|i| {
                let g = group_of[i];
                let d = f.steps(i, groups[lowest].start);
                ByeOption {
                    player: i,
                    costs: SwissCosts {
                        bye_group: (lowest - g) as i64,
                        float: d * d,
                        repeat_float_1: repeated_down(&f.standings[i], 1),
                        repeat_float_2: repeated_down(&f.standings[i], 2),
                        bye_rank: (n - 1 - i) as i64,
                        ..SwissCosts::default()
                    }
                    .to_vec(),
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut notes = Vec::new();
    if n % 2 == 1 && byes.is_empty() {
        notes.push("odd field and no player may take the pairing-allocated bye (C.04.1 d)".into());
    }
    RoundSpec {
        system: system.to_string(),
        round: f.round,
        players: f.ids.clone(),
        scores: f.scores.clone(),
        tiers: standard_tiers(),
        candidates,
        byes,
        max_byes: n % 2,
        odd_sets: Vec::new(),
        rows: Vec::new(),
        notes,
    }
}
