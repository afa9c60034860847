//! The US Chess Swiss (the system `uscf`): US Chess Official Rules of Chess, 7th edition,
//! chapter 2, rules 27–29, stated as one lexicographic objective over the round for the tier
//! solver. See `models/uscf-swiss.md` for which sentence is read how.
//!
//! The rules work against a *plan*: the pairing the rulebook's procedure writes down before
//! any switch (score groups from the top, 29D's odd player paired against the top of the
//! next group, the rest of each group upper half against lower half by rating). Every other
//! pairing is the plan with transpositions and interchanges, and each pair's cost says how
//! far it is from the plan in rating points, so that the 80- and 200-point rules (29E5a,
//! 29E5b) become tiers placed between the colour tiers they limit:
//!
//! 1. the full-point bye (28L2, 28L3): eligible, lowest score group, rated, lowest-rated;
//! 2. equal scores (27A2): Σ (score groups crossed)², so two single drops beat a double;
//! 3. switches beyond the 200-point rule (29E5b): only a rematch or the score groups justify;
//! 4. colour equalization (27A4, with 29E5f's three in a row);
//! 5. switches beyond the 80-point rule (29E5a), then their size past 80 (29E5e's preference
//!    of the smaller switch when only equalization justifies it);
//! 6. colour alternation (27A5);
//! 7. interchanges (27A3 upper half v lower half; 29E5e: a transposition is preferred);
//! 8. the odd player (29D1a) and his opponent (29D2);
//! 9. the size of all switches, then the boards changed from the plan (a single
//!    transposition before a compound one of the same size), then the rulebook's order of
//!    transpositions.
//!
//! No second meeting (27A1) is hard: such pairs are not candidates. Colours follow 29E4.

use super::dutch::state::milli;
use super::System;
use crate::spec::{ByeOption, Candidate, PairSource, RoundSpec, SparseSpec, Tier};
use crate::tournament::{Colour, Standing, Standings, Tournament};
use crate::{Error, Result, SystemKind};
use std::sync::Arc;

/// The system `uscf`.
#[derive(Debug, Default)]
pub struct UscfSwiss;

/// The director's choices the rules leave open, each with the rulebook's default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// `uscf.alternation_limit` (US Chess 29E5a, the 80-point rule): 80.
    pub alternation_limit: i64,
    /// `uscf.equalization_limit` (US Chess 29E5b, the 200-point rule): 200.
    pub equalization_limit: i64,
    /// `uscf.first_board_colour`: the colour of the higher-rated player on the top board of
    /// round 1 (US Chess 29E2 leaves it to a toss); white by default.
    pub first_board_colour: Colour,
}

impl Settings {
    /// The settings of `t`; a bad value is an error naming the setting.
    pub fn of(t: &Tournament) -> Result<Settings> {
        let limit = |key: &str, default: i64| -> Result<i64> {
            match t.settings.get(key) {
                None | Some(serde_json::Value::Null) => Ok(default),
                Some(v) => v.as_i64().filter(|x| *x >= 0).ok_or_else(|| {
                    Error::field(
                        key,
                        format!("must be a whole number of rating points ≥ 0, got {v}"),
                    )
                }),
            }
        };
        let key = "uscf.first_board_colour";
        let first_board_colour = match t.settings.get(key) {
            None | Some(serde_json::Value::Null) => Colour::White,
            Some(v) => match v.as_str() {
                Some("white") | Some("w") | Some("W") => Colour::White,
                Some("black") | Some("b") | Some("B") => Colour::Black,
                _ => {
                    return Err(Error::field(
                        key,
                        format!("must be \"white\" or \"black\", got {v}"),
                    ))
                }
            },
        };
        Ok(Settings {
            alternation_limit: limit("uscf.alternation_limit", 80)?,
            equalization_limit: limit("uscf.equalization_limit", 200)?,
            first_board_colour,
        })
    }
}

/// The tiers after "players left unpaired", in priority order, each with the rule it encodes.
pub const TIERS: [(&str, &str); 16] = [
    ("bye to an ineligible player", "US Chess 28L3"),
    ("bye above the lowest score group", "US Chess 28L2"),
    ("bye to an unrated player", "US Chess 28L2"),
    ("bye not to the lowest-rated", "US Chess 28L2"),
    ("equal scores", "US Chess 27A2"),
    ("switches beyond the 200-point rule", "US Chess 29E5b"),
    ("colour equalization", "US Chess 27A4"),
    ("switches beyond the 80-point rule", "US Chess 29E5a"),
    ("rating points switched beyond 80", "US Chess 29E5e"),
    ("colour alternation", "US Chess 27A5"),
    ("interchanges", "US Chess 27A3"),
    ("odd player", "US Chess 29D1a"),
    ("odd player's opponent", "US Chess 29D2"),
    ("rating points switched", "US Chess 29E5"),
    ("boards changed from the plan", "US Chess 29C"),
    ("order of transpositions", "US Chess 29C"),
];

/// Index of each tier in [`TIERS`].
#[allow(missing_docs)]
pub mod tier {
    pub const BYE_INELIGIBLE: usize = 0;
    pub const BYE_GROUP: usize = 1;
    pub const BYE_UNRATED: usize = 2;
    pub const BYE_RANK: usize = 3;
    pub const SCORES: usize = 4;
    pub const OVER_200: usize = 5;
    pub const EQUALIZE: usize = 6;
    pub const OVER_80: usize = 7;
    pub const EXCESS_80: usize = 8;
    pub const ALTERNATE: usize = 9;
    pub const INTERCHANGE: usize = 10;
    pub const ODD: usize = 11;
    pub const ODD_OPPONENT: usize = 12;
    pub const SWITCHED: usize = 13;
    pub const CHANGED: usize = 14;
    pub const ORDER: usize = 15;
}

/// A player's place in the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `i`-th of the upper half of the score group's remainder.
    Upper(usize),
    /// `j`-th of the lower half.
    Lower(usize),
    /// The odd player (29D1a), planned against the next group.
    Odd,
    /// Planned against an odd player from above (29D2).
    Partner,
    /// The planned full-point bye (28L2).
    Bye,
}

/// One player of the round, in rank order.
#[derive(Debug, Clone)]
pub struct Entrant {
    /// The player's id.
    pub id: u32,
    /// Rating; 0 means unrated.
    pub rating: u32,
    /// Points from the rounds before (compared in thousandths).
    pub score: f64,
    /// The player's standing before the round (colours, byes, opponents).
    pub standing: Standing,
}

impl Entrant {
    fn rated(&self) -> bool {
        self.rating > 0
    }

    /// The score in thousandths: scores are ranked and grouped exactly (27A2).
    fn points(&self) -> i64 {
        milli(self.score)
    }
}

/// The round as the rules see it: players ranked by score then rating (unrated last within a
/// score group, 29D1a never choosing them as odd player), score groups, and the plan.
#[derive(Debug, Clone)]
pub struct Field {
    /// The round being paired (1-based).
    pub round: u32,
    /// The players, ranked (29A); every other per-player table is indexed by this order.
    pub players: Vec<Entrant>,
    /// Score group of each player (0 = top).
    pub group: Vec<usize>,
    /// The groups as rank ranges.
    pub groups: Vec<std::ops::Range<usize>>,
    /// Per player: his place in the plan.
    pub role: Vec<Role>,
    /// Per group: the upper and lower halves of the plan (player indices).
    pub upper: Vec<Vec<usize>>,
    /// Per group: the lower half of the plan (player indices).
    pub lower: Vec<Vec<usize>>,
    /// Per group: its planned odd player, and its planned partner of an odd player from above.
    pub odd: Vec<Option<usize>>,
    /// Per group: its planned partner of an odd player from above.
    pub partner: Vec<Option<usize>>,
    /// The plan's games across score groups: (odd player from above, his planned opponent).
    pub drops: Vec<(usize, usize)>,
    /// The director's choices (`uscf.*` settings).
    pub settings: Settings,
    /// Per player: the 29D1a tier's cost of dropping him (rated players below him in his
    /// group, plus one; 0 for the planned odd player), so that a pair's costs take O(1).
    pub odd_cost: Vec<i64>,
    /// Per player: which colours break 27A4 and 27A5 for him ([`colour_flags`]).
    pub flags: Vec<u8>,
    /// Players before index `i` planned outside the halves (odd player, partner, bye): a
    /// run of partners with none of them is all of one half.
    pub special: Vec<u32>,
    /// Players before index `i` lacking each of the four [`colour_flags`] bits: a run's
    /// common flags in O(1), as pricing asks for them on long runs.
    pub lacking: Vec<[u32; 4]>,
}

impl Field {
    /// The players of round `round` (entered, not withdrawn, no requested bye), ranked.
    pub fn new(t: &Tournament, round: u32) -> Result<Field> {
        let (players, settings) = entrants(t, round)?;
        Ok(Field::planned(round, ranked(players, &|_| 0), settings))
    }

    /// The field of `players`, ranked (29A), in score groups, with the plan drawn on them and
    /// the tables a pair's costs read.
    fn planned(round: u32, players: Vec<Entrant>, settings: Settings) -> Field {
        let (groups, group) = score_groups(&players);
        let k = groups.len();
        let mut f = Field {
            round,
            role: vec![Role::Bye; players.len()],
            upper: vec![Vec::new(); k],
            lower: vec![Vec::new(); k],
            odd: vec![None; k],
            partner: vec![None; k],
            drops: Vec::new(),
            players,
            group,
            groups,
            settings,
            odd_cost: Vec::new(),
            flags: Vec::new(),
            special: Vec::new(),
            lacking: Vec::new(),
        };
        f.plan();
        f.tabulate();
        f
    }

    /// The per-player tables a pair's costs and bounds read ([`Field::odd_cost`],
    /// [`Field::flags`], [`Field::special`]).
    fn tabulate(&mut self) {
        let n = self.len();
        self.odd_cost = vec![0; n];
        for (g, r) in self.groups.iter().enumerate() {
            let mut rated_below = 0;
            for i in r.clone().rev() {
                self.odd_cost[i] = if self.odd[g] == Some(i) {
                    0
                } else {
                    rated_below + 1
                };
                rated_below += self.players[i].rated() as i64;
            }
        }
        self.flags = self
            .players
            .iter()
            .map(|p| colour_flags(&p.standing))
            .collect();
        self.special = Vec::with_capacity(n + 1);
        self.special.push(0);
        for i in 0..n {
            let planned = matches!(self.role[i], Role::Upper(_) | Role::Lower(_));
            self.special.push(self.special[i] + !planned as u32);
        }
        self.lacking = Vec::with_capacity(n + 1);
        self.lacking.push([0; 4]);
        for i in 0..n {
            let mut next = self.lacking[i];
            for (bit, count) in next.iter_mut().enumerate() {
                *count += (self.flags[i] & (1 << bit) == 0) as u32;
            }
            self.lacking.push(next);
        }
    }

    /// The [`colour_flags`] bits every player in `lo..=hi` has.
    fn common_flags(&self, lo: usize, hi: usize) -> u8 {
        let (before, through) = (&self.lacking[lo], &self.lacking[hi + 1]);
        (0..4).fold(0, |all, bit| {
            all | (((before[bit] == through[bit]) as u8) << bit)
        })
    }

    /// Players in the field.
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// No players in the field.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// 28L3 (and 22C6's reading of it): no full-point bye to a player who had one, won by
    /// forfeit, or took a requested full-point bye.
    pub fn bye_eligible(&self, i: usize) -> bool {
        let s = &self.players[i].standing;
        s.pairing_byes == 0 && s.forfeit_wins == 0 && s.full_byes == 0
    }

    /// A bye's cost on the four bye tiers (28L3, then 28L2: lowest group, rated, lowest-rated).
    pub fn bye_costs(&self, i: usize) -> [i64; 4] {
        let g = self.group[i];
        let below = (self.groups.len() - 1 - g) as i64;
        let from_bottom = (self.groups[g].end - 1 - i) as i64;
        [
            !self.bye_eligible(i) as i64,
            below,
            !self.players[i].rated() as i64,
            from_bottom,
        ]
    }

    /// The rulebook's procedure before any switch: the bye, then group by group from the top
    /// the odd players from above against the top of the group (29D2), the group's own odd
    /// player (29D1a: the lowest-rated, not an unrated player), and the halves (29C).
    fn plan(&mut self) {
        let n = self.len();
        let bye = (n % 2 == 1)
            .then(|| (0..n).min_by_key(|&i| (self.bye_costs(i), i)))
            .flatten();
        let mut carry: Vec<usize> = Vec::new();
        for g in 0..self.groups.len() {
            let mut rest: Vec<usize> = self.groups[g].clone().filter(|&i| Some(i) != bye).collect();
            let mut still = Vec::new();
            for &c in &carry {
                if rest.is_empty() {
                    still.push(c);
                    continue;
                }
                let p = rest.remove(0);
                self.drops.push((c, p));
                self.role[p] = Role::Partner;
                self.partner[g].get_or_insert(p);
            }
            carry = still;
            if rest.len() % 2 == 1 {
                let at = rest
                    .iter()
                    .rposition(|&i| self.players[i].rated())
                    .unwrap_or(rest.len() - 1);
                let o = rest.remove(at);
                self.role[o] = Role::Odd;
                self.odd[g] = Some(o);
                carry.push(o);
            }
            let k = rest.len() / 2;
            for (i, &p) in rest[..k].iter().enumerate() {
                self.role[p] = Role::Upper(i);
            }
            for (j, &p) in rest[k..].iter().enumerate() {
                self.role[p] = Role::Lower(j);
            }
            self.upper[g] = rest[..k].to_vec();
            self.lower[g] = rest[k..].to_vec();
        }
    }

    /// The plan's games (29C's halves, 29D's odd players against the top of the next group)
    /// that are no second meeting (27A1), as field indices: no switch at all, so within both
    /// limits (29E5a, 29E5b). The legal fallback starts from them.
    pub fn planned_pairs(&self) -> Vec<(usize, usize)> {
        let halves = self
            .upper
            .iter()
            .zip(&self.lower)
            .flat_map(|(u, l)| u.iter().copied().zip(l.iter().copied()));
        halves
            .chain(self.drops.iter().copied())
            .map(|(a, b)| (a.min(b), a.max(b)))
            .filter(|&(a, b)| !self.players[a].standing.has_met(self.players[b].id))
            .collect()
    }

    /// Rating points between two players for the switch limits; none when either is unrated
    /// (29E5 limits pre-tournament ratings; an unrated player has none).
    fn diff(&self, a: usize, b: usize) -> i64 {
        let (x, y) = (&self.players[a], &self.players[b]);
        if x.rated() && y.rated() {
            (x.rating as i64 - y.rating as i64).abs()
        } else {
            0
        }
    }

    /// Whether `a` and `b` are a game of the plan (29C's halves, or 29D's odd player and his
    /// planned opponent).
    fn in_plan(&self, a: usize, b: usize) -> bool {
        self.natural(a) == Some(b)
            || self
                .drops
                .iter()
                .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
    }

    /// The plan's opponent of `i` in its own group, if it has one.
    fn natural(&self, i: usize) -> Option<usize> {
        let g = self.group[i];
        match self.role[i] {
            Role::Upper(k) => self.lower[g].get(k).copied(),
            Role::Lower(k) => self.upper[g].get(k).copied(),
            _ => None,
        }
    }

    /// The switch a pair in one score group makes from the plan: its size in rating points,
    /// whether it is an interchange (27A3 broken), and its distance in the order of
    /// transpositions. A transposition's size is the smaller of the two players' changes of
    /// opponent (29E5: the rating difference of the players switched).
    pub fn switch(&self, a: usize, b: usize) -> (i64, bool, i64) {
        let g = self.group[a];
        match (self.role[a], self.role[b]) {
            (Role::Upper(i), Role::Lower(j)) | (Role::Lower(j), Role::Upper(i)) => {
                if i == j {
                    return (0, false, 0);
                }
                let (u, l) = (&self.upper[g], &self.lower[g]);
                let size = self.diff(l[i], l[j]).min(self.diff(u[i], u[j]));
                let k = u.len() as i64;
                let order = (i as i64 - j as i64).abs() * (k - i.min(j) as i64);
                (size, false, order)
            }
            (Role::Upper(i), Role::Upper(j)) => {
                let moved = self.upper[g][i.max(j)];
                let size = self.lower[g].first().map_or(0, |&l| self.diff(moved, l));
                (size, true, 0)
            }
            (Role::Lower(i), Role::Lower(j)) => {
                let moved = self.lower[g][i.min(j)];
                let size = self.upper[g].last().map_or(0, |&u| self.diff(moved, u));
                (size, true, 0)
            }
            // A player planned elsewhere (odd player, partner, bye) takes the place of the
            // natural opponent of the other: 29D1b's "next lowest-rated as the odd player".
            _ => {
                let size = match (self.natural(a), self.natural(b)) {
                    (_, Some(nb)) => self.diff(a, nb),
                    (Some(na), None) => self.diff(b, na),
                    (None, None) => 0,
                };
                (size, false, 0)
            }
        }
    }

    /// A lower bound on [`Field::switch`] of `a` with every partner in `lo..=hi` (one score
    /// group, `a`'s): (size, interchange, order). Exact bounds when the partners are all of one
    /// half; none (zeros) when one of them is planned elsewhere. Ratings fall with rank inside
    /// a half and unrated players come last, so the nearest partner bounds the size whenever
    /// the last one is rated.
    fn switch_floor(&self, a: usize, lo: usize, hi: usize) -> (i64, i64, i64) {
        if self.special[hi + 1] != self.special[lo] {
            return (0, 0, 0);
        }
        let g = self.group[a];
        let (u, l) = (&self.upper[g], &self.lower[g]);
        let half = |p: usize| match self.role[p] {
            Role::Upper(i) => (true, i),
            Role::Lower(j) => (false, j),
            _ => unreachable!("a run without special players"),
        };
        let rated = |p: usize| self.players[p].rated();
        let (Some((mine, x)), (theirs, jl), (last, jh)) = (
            matches!(self.role[a], Role::Upper(_) | Role::Lower(_)).then(|| half(a)),
            half(lo),
            half(hi),
        ) else {
            return (0, 0, 0);
        };
        if theirs != last {
            return (0, 0, 0);
        }
        if mine != theirs {
            // Upper v lower: |x − j|·(k − min) and the change of planned opponents grow with
            // the distance from `x`, so the partner nearest `x` gives both bounds.
            let k = u.len() as i64;
            let near = x.clamp(jl, jh);
            let order = (x as i64 - near as i64).abs() * (k - x.min(near) as i64);
            let size = if rated(l[jh]) && rated(u[jh]) {
                self.diff(l[x], l[near]).min(self.diff(u[x], u[near]))
            } else {
                0
            };
            return (size, 0, order);
        }
        // Two of one half: an interchange, its size from the player moved.
        let size = if mine {
            let moved = u[x.max(jh)];
            l.first().map_or(0, |&f| self.diff(moved, f))
        } else if rated(l[x.max(jh)]) {
            let moved = l[x.min(jl)];
            u.last().map_or(0, |&b| self.diff(moved, b))
        } else {
            0
        };
        (size, 1, 0)
    }

    /// A lower bound on each tier's cost of `a` with every partner in `lo..=hi` (one score
    /// group), on top of the score groups' bound `low` ([`UscfPairs::lower`]).
    pub fn refine_lower(&self, a: usize, lo: usize, hi: usize, low: &mut [i64]) {
        let (ga, gb) = (self.group[a], self.group[lo]);
        let mut raise = |t: usize, v: i64| low[t] = low[t].max(v);
        let size = if ga == gb {
            let (size, interchange, order) = self.switch_floor(a, lo, hi);
            raise(tier::INTERCHANGE, interchange);
            raise(tier::ORDER, order);
            size
        } else if a < lo {
            // `a` drops: his own cost is exact; his partner is at best the run's first.
            raise(tier::ODD, self.odd_cost[a]);
            raise(tier::ODD_OPPONENT, (lo - self.groups[gb].start) as i64);
            let from = self.odd[ga].map_or(0, |o| self.diff(a, o));
            let to = match self.partner[gb] {
                Some(p) if p <= lo && self.players[hi].rated() => self.diff(lo, p),
                _ => 0,
            };
            from.max(to)
        } else {
            // The partner drops to `a`: the planned odd player may be among them (cost 0).
            let odd_in = self.odd[gb].is_some_and(|o| (lo..=hi).contains(&o));
            raise(tier::ODD, if odd_in { 0 } else { self.odd_cost[hi] });
            raise(tier::ODD_OPPONENT, (a - self.groups[ga].start) as i64);
            self.partner[ga].map_or(0, |p| self.diff(a, p))
        };
        // Every pair of the run changes a board of the plan unless `a`'s planned game is in it.
        let run = |x: usize| (lo..=hi).contains(&x);
        let planned = self.natural(a).is_some_and(run)
            || (self.drops.iter()).any(|&(x, y)| (x == a && run(y)) || (y == a && run(x)));
        raise(tier::CHANGED, !planned as i64);
        let s = &self.settings;
        raise(tier::OVER_200, (size > s.equalization_limit) as i64);
        raise(tier::OVER_80, (size > s.alternation_limit) as i64);
        raise(tier::EXCESS_80, (size - s.alternation_limit).max(0));
        raise(tier::SWITCHED, size);
        // Colours: whichever colour `a` gets, the partner gets the other.
        let all = self.common_flags(lo, hi);
        let fa = self.flags[a];
        let both = |mine: u8, theirs: u8| ((fa & mine != 0) as i64) + ((all & theirs != 0) as i64);
        raise(tier::EQUALIZE, both(EQ_W, EQ_B).min(both(EQ_B, EQ_W)));
        raise(tier::ALTERNATE, both(ALT_W, ALT_B).min(both(ALT_B, ALT_W)));
    }

    /// A pair across score groups (`a` in the higher): the size of its switch from the plan
    /// (29D1b: another odd player, or a lower opponent than 29D2's, within 29E5's limits).
    fn drop_switch(&self, a: usize, b: usize) -> i64 {
        let from = self.odd[self.group[a]].map_or(0, |o| self.diff(a, o));
        let to = self.partner[self.group[b]].map_or(0, |p| self.diff(b, p));
        from.max(to)
    }
}

/// 29E3: the colour due to a player and whether equalization asks for it (rather than only
/// alternation); `None` before any game.
pub fn due(s: &Standing) -> Option<(Colour, bool)> {
    let d = s.colour_difference();
    if d > 0 {
        Some((Colour::Black, true))
    } else if d < 0 {
        Some((Colour::White, true))
    } else {
        s.last_colour().map(|c| (c.opposite(), false))
    }
}

/// 29E4: the colour of `a` against `b` (`a` ranked higher). Each gets his due colour when the
/// two differ; when both are due the same colour, equalization before alternation, the larger
/// imbalance, then the latest round in which their colours differed (the one who had the
/// other colour then gets it), then the higher-ranked player. Neither due: `first`.
pub fn colour_of(a: &Standing, b: &Standing, first: Colour) -> Colour {
    match (due(a), due(b)) {
        (None, None) => first,
        (Some((c, _)), None) => c,
        (None, Some((c, _))) => c.opposite(),
        (Some((ca, _)), Some((cb, _))) if ca != cb => ca,
        (Some((c, ea)), Some((_, eb))) => {
            if ea != eb {
                return if ea { c } else { c.opposite() };
            }
            let (da, db) = (a.colour_difference().abs(), b.colour_difference().abs());
            if da != db {
                return if da > db { c } else { c.opposite() };
            }
            let rounds = a.colours.len().max(b.colours.len());
            for r in (0..rounds).rev() {
                let x = a.colours.get(r).copied().flatten();
                let y = b.colours.get(r).copied().flatten();
                if x != y {
                    let other = Some(c.opposite());
                    let a_gets = x == other || (y != other && x.is_none());
                    return if a_gets { c } else { c.opposite() };
                }
            }
            c
        }
    }
}

/// 27A4 broken for `s` receiving `c`: an excess of two or more that grows, or a third game in
/// a row with one colour (29E5f).
pub fn breaks_equalization(s: &Standing, c: Colour) -> bool {
    let d = s.colour_difference();
    let after = d + c.sign();
    let played = s.played_colours();
    let n = played.len();
    let third = n >= 2 && played[n - 1] == c && played[n - 2] == c;
    (after.abs() >= 2 && after.abs() > d.abs()) || third
}

/// 27A5 broken for `s` receiving `c`: the same colour as in his last game, for a player whose
/// colours are even. A player is due one colour, for one reason (29E3): with an unequal count
/// it is the colour that equalizes, which he gets or misses under 27A4 alone, whatever his last
/// game's colour was. So no switch is made to spare him a second count (the rulebook's 29E7
/// example of five players due white: the natural pairing stands).
pub fn breaks_alternation(s: &Standing, c: Colour) -> bool {
    s.last_colour() == Some(c) && s.colour_difference() == 0 && !breaks_equalization(s, c)
}

/// [`Field::flags`]: white breaks 27A4 for the player.
pub const EQ_W: u8 = 1;
/// Black breaks 27A4.
pub const EQ_B: u8 = 2;
/// White breaks 27A5.
pub const ALT_W: u8 = 4;
/// Black breaks 27A5.
pub const ALT_B: u8 = 8;

/// The colours that break 27A4 ([`breaks_equalization`]) and 27A5 ([`breaks_alternation`])
/// for `s`, as [`EQ_W`], [`EQ_B`], [`ALT_W`], [`ALT_B`] bits.
pub fn colour_flags(s: &Standing) -> u8 {
    let mut bits = 0;
    for (c, eq, alt) in [(Colour::White, EQ_W, ALT_W), (Colour::Black, EQ_B, ALT_B)] {
        if breaks_equalization(s, c) {
            bits |= eq;
        }
        if breaks_alternation(s, c) {
            bits |= alt;
        }
    }
    bits
}

/// A lister of candidate pairs: it calls the function it is given once per pair (by field
/// index) that the specification should list.
pub type Lister<'a> = dyn FnMut(&mut dyn FnMut(usize, usize)) + 'a;

impl UscfSwiss {
    /// The candidate for players `a < b` (indices), or `None` if they met (27A1).
    pub fn candidate(&self, f: &Field, a: usize, b: usize) -> Option<Candidate> {
        let (pa, pb) = (&f.players[a], &f.players[b]);
        if pa.standing.has_met(pb.id) {
            return None;
        }
        let (ga, gb) = (f.group[a], f.group[b]);
        // Round 1 colours alternate down the boards (29E2): the plan's board parity.
        let first = match f.role[a] {
            Role::Upper(i) if i % 2 == 1 => f.settings.first_board_colour.opposite(),
            _ => f.settings.first_board_colour,
        };
        let ca = colour_of(&pa.standing, &pb.standing, first);
        let mut c = vec![0i64; TIERS.len()];
        let gap = (gb - ga) as i64;
        c[tier::SCORES] = gap * gap;
        let (size, interchange, order) = if ga == gb {
            f.switch(a, b)
        } else {
            c[tier::ODD] = f.odd_cost[a];
            let place = (b - f.groups[gb].start) as i64;
            c[tier::ODD_OPPONENT] = place;
            // Two or more dropping: the higher-ranked meets the higher (29D2 "in order"), which
            // a weight falling with his rank makes the cheapest assignment.
            let rank = (a - f.groups[ga].start) as i64;
            let order = place * (f.groups[ga].len() as i64 - rank);
            (f.drop_switch(a, b), false, order)
        };
        let s = &f.settings;
        c[tier::OVER_200] = (size > s.equalization_limit) as i64;
        c[tier::OVER_80] = (size > s.alternation_limit) as i64;
        c[tier::EXCESS_80] = (size - s.alternation_limit).max(0);
        c[tier::INTERCHANGE] = interchange as i64;
        c[tier::SWITCHED] = size;
        c[tier::CHANGED] = !f.in_plan(a, b) as i64;
        c[tier::ORDER] = order;
        let (fa, fb) = (f.flags[a], f.flags[b]);
        let (eq, alt) = if ca == Colour::White {
            (fa & EQ_W != 0, fa & ALT_W != 0)
        } else {
            (fa & EQ_B != 0, fa & ALT_B != 0)
        };
        let (eqb, altb) = if ca == Colour::White {
            (fb & EQ_B != 0, fb & ALT_B != 0)
        } else {
            (fb & EQ_W != 0, fb & ALT_W != 0)
        };
        c[tier::EQUALIZE] = eq as i64 + eqb as i64;
        c[tier::ALTERNATE] = alt as i64 + altb as i64;
        Some(Candidate {
            a,
            b,
            white: if ca == Colour::White { a } else { b },
            costs: c,
        })
    }

    /// The round's specification from its field, every pair listed.
    pub fn spec_of(&self, f: &Field) -> RoundSpec {
        let n = f.len();
        self.spec_listing(f, &mut |emit| {
            for a in 0..n {
                for b in a + 1..n {
                    emit(a, b);
                }
            }
        })
    }

    /// The round's specification with the candidates among the pairs `listed` emits.
    pub fn spec_listing(&self, f: &Field, listed: &mut Lister) -> RoundSpec {
        let n = f.len();
        let mut candidates = Vec::new();
        listed(&mut |a, b| candidates.extend(self.candidate(f, a, b)));
        let byes = if n % 2 == 1 {
            (0..n)
                .map(|i| {
                    let mut costs = vec![0; TIERS.len()];
                    costs[..4].copy_from_slice(&f.bye_costs(i));
                    ByeOption { player: i, costs }
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut odd_sets = Vec::new();
        for r in &f.groups {
            if r.len() % 2 == 1 {
                odd_sets.push(r.clone().collect());
            }
            if r.end % 2 == 1 && r.end < n {
                odd_sets.push((0..r.end).collect());
            }
        }
        let planned: Vec<String> = f
            .odd
            .iter()
            .flatten()
            .map(|&o| f.players[o].id.to_string())
            .collect();
        let mut notes = vec![format!(
            "US Chess 28-29: {} score groups; switch limits {} points for alternation (29E5a), {} for equalization (29E5b)",
            f.groups.len(),
            f.settings.alternation_limit,
            f.settings.equalization_limit
        )];
        if !planned.is_empty() {
            notes.push(format!(
                "US Chess 29D1a: odd players by plan {}",
                planned.join(", ")
            ));
        }
        RoundSpec {
            system: self.name().to_string(),
            round: f.round,
            players: f.players.iter().map(|p| p.id).collect(),
            scores: f.players.iter().map(|p| p.score).collect(),
            tiers: TIERS.iter().map(|(n, r)| Tier::new(n, r)).collect(),
            candidates,
            byes,
            max_byes: n % 2,
            odd_sets,
            rows: Vec::new(),
            notes,
        }
    }
}

impl System for UscfSwiss {
    fn kind(&self) -> SystemKind {
        SystemKind::Uscf
    }

    fn one_half_zero(&self) -> Option<&'static str> {
        Some("US Chess 27A2: score groups in points, a win 1 and a draw ½")
    }

    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec> {
        Ok(self.spec_of(&Field::new(t, round)?))
    }

    fn sparse_spec(&self, t: &Tournament, round: u32, from: usize) -> Result<Option<SparseSpec>> {
        let f = Field::new(t, round)?;
        if f.len() < from {
            return Ok(None);
        }
        Ok(Some(sparse_spec_of(f)))
    }
}

/// Every pair of a round, for the solver to price in those a sparse specification leaves out.
pub struct UscfPairs {
    /// The round's field, from which every pair is costed.
    pub field: Field,
}

impl PairSource for UscfPairs {
    fn pair(&self, a: usize, b: usize) -> Option<Candidate> {
        UscfSwiss.candidate(&self.field, a, b)
    }
    fn class(&self, i: usize) -> usize {
        self.field.group[i]
    }
    fn lower(&self, g: usize, h: usize) -> Vec<i64> {
        // Only 27A2 is fixed by the groups: every other cost may be zero.
        let mut low = vec![0; TIERS.len()];
        let gap = g.abs_diff(h) as i64;
        low[tier::SCORES] = gap * gap;
        low
    }
    fn refine_lower(&self, a: usize, lo: usize, hi: usize, low: &mut [i64]) {
        self.field.refine_lower(a, lo, hi, low);
    }
    fn fallback_start(&self) -> Vec<(usize, usize)> {
        self.field.planned_pairs()
    }
    fn upper(&self) -> Vec<i64> {
        let f = &self.field;
        let rated = f
            .players
            .iter()
            .filter(|p| p.rating > 0)
            .map(|p| p.rating as i64);
        let spread = rated.clone().max().unwrap_or(0) - rated.min().unwrap_or(0);
        let widest = f.groups.iter().map(|g| g.len()).max().unwrap_or(0) as i64;
        let gap = f.groups.len().saturating_sub(1) as i64;
        let mut up = vec![0; TIERS.len()];
        up[tier::SCORES] = gap * gap;
        up[tier::OVER_200] = 1;
        up[tier::EQUALIZE] = 2;
        up[tier::OVER_80] = 1;
        up[tier::EXCESS_80] = spread;
        up[tier::ALTERNATE] = 2;
        up[tier::INTERCHANGE] = 1;
        up[tier::ODD] = widest;
        up[tier::ODD_OPPONENT] = widest;
        up[tier::SWITCHED] = spread;
        up[tier::CHANGED] = 1;
        up[tier::ORDER] = widest * widest;
        up
    }
}

/// The specification of `f` with a few candidates per player listed (around the planned
/// opponent, the group's edges for the odd players), the rest priced in from [`UscfPairs`].
pub fn sparse_spec_of(f: Field) -> SparseSpec {
    let mut chosen = super::near_pairs(&f.groups, f.len());
    // The plan's games are listed: the legal fallback starts from them.
    chosen.extend(f.planned_pairs());
    let mut spec = UscfSwiss.spec_listing(&f, &mut |emit| {
        for &(a, b) in &chosen {
            emit(a, b);
        }
    });
    spec.notes
        .push(format!("{} pairs listed, the rest priced in", chosen.len()));
    SparseSpec {
        spec,
        source: Arc::new(UscfPairs { field: f }),
    }
}

impl Field {
    /// The field of round `round` ranked and grouped on pairing scores: each player's score
    /// group is by `score(id, real score)` (an acceleration's groups, batches or added
    /// points), and inside a group players rank by `side(id)` (lower first: a batch's two
    /// sides as its halves) before rating; colours, byes and meetings stay those of the real
    /// games. The plan is drawn again on these groups, so rules 27–29 pair within them as
    /// within score groups.
    pub fn with_scores(
        t: &Tournament,
        round: u32,
        score: &dyn Fn(u32, f64) -> f64,
        side: &dyn Fn(u32) -> u32,
    ) -> Result<Field> {
        let (mut players, settings) = entrants(t, round)?;
        for (_, p) in &mut players {
            p.score = score(p.id, p.score);
        }
        Ok(Field::planned(round, ranked(players, side), settings))
    }
}

/// The players of round `round` (entered, not withdrawn, no requested bye) with their
/// pairing numbers and standings, and the event's settings.
fn entrants(t: &Tournament, round: u32) -> Result<(Vec<(u32, Entrant)>, Settings)> {
    if round == 0 {
        return Err(Error::field("round", "rounds are numbered from 1"));
    }
    let settings = Settings::of(t)?;
    let st = Standings::before(t, round);
    let absent: Vec<u32> = t
        .round(round)
        .map(|r| r.requested_byes().map(|b| b.player).collect())
        .unwrap_or_default();
    let players = t
        .players
        .iter()
        .filter(|p| p.active_in(round) && !absent.contains(&p.id))
        .map(|p| {
            let s = st.get(p.id).expect("standing for every player").clone();
            let e = Entrant {
                id: p.id,
                rating: p.rating,
                score: s.score,
                standing: s,
            };
            (p.number(), e)
        })
        .collect();
    Ok((players, settings))
}

/// The 29A order: score, then `side` (lower first: a batch's two sides as its halves), then
/// rating (an unrated player below the rated of his score group), then pairing number for a
/// stable order where the rules would draw lots.
fn ranked(mut players: Vec<(u32, Entrant)>, side: &dyn Fn(u32) -> u32) -> Vec<Entrant> {
    players.sort_by(|(na, a), (nb, b)| {
        b.points()
            .cmp(&a.points())
            .then(side(a.id).cmp(&side(b.id)))
            .then(b.rated().cmp(&a.rated()))
            .then(b.rating.cmp(&a.rating))
            .then(na.cmp(nb))
    });
    players.into_iter().map(|(_, e)| e).collect()
}

/// The score groups of players ranked by score: the rank ranges of equal score (exact, in
/// thousandths), and each player's group.
fn score_groups(players: &[Entrant]) -> (Vec<std::ops::Range<usize>>, Vec<usize>) {
    let mut groups = Vec::new();
    let mut start = 0;
    for i in 1..=players.len() {
        if i == players.len() || players[i].points() != players[start].points() {
            groups.push(start..i);
            start = i;
        }
    }
    let mut group = vec![0; players.len()];
    for (g, r) in groups.iter().enumerate() {
        group[r.clone()].fill(g);
    }
    (groups, group)
}

/// Tiers an acceleration places before [`TIERS`] (its groups or batches), with every pair's
/// and every bye's cost on them by field index, and their upper bound over every pair.
#[derive(Clone)]
pub struct Prefix {
    /// The tiers, in priority order.
    pub tiers: Vec<Tier>,
    /// Costs of the pair of players `a < b` (field indices).
    pub pair: Arc<dyn Fn(usize, usize) -> Vec<i64> + Send + Sync>,
    /// Costs of a bye to player `i`.
    pub bye: Arc<dyn Fn(usize) -> Vec<i64> + Send + Sync>,
    /// Upper bound of each tier over every pair.
    pub upper: Vec<i64>,
}

impl Prefix {
    fn prepend(&self, mut c: Candidate) -> Candidate {
        let mut costs = (self.pair)(c.a, c.b);
        costs.append(&mut c.costs);
        c.costs = costs;
        c
    }
}

/// The specification of `f` (every pair listed) with the tiers of `prefix` before rules
/// 27–29's.
pub fn prefixed_spec(f: &Field, prefix: &Prefix) -> RoundSpec {
    with_prefix(UscfSwiss.spec_of(f), prefix)
}

fn with_prefix(mut spec: RoundSpec, prefix: &Prefix) -> RoundSpec {
    spec.candidates = std::mem::take(&mut spec.candidates)
        .into_iter()
        .map(|c| prefix.prepend(c))
        .collect();
    for b in &mut spec.byes {
        let mut costs = (prefix.bye)(b.player);
        costs.append(&mut b.costs);
        b.costs = costs;
    }
    let mut tiers = prefix.tiers.clone();
    tiers.append(&mut spec.tiers);
    spec.tiers = tiers;
    spec
}

/// Every pair of a round with an acceleration's tiers before rules 27–29's.
struct PrefixedPairs {
    inner: UscfPairs,
    prefix: Prefix,
}

impl PairSource for PrefixedPairs {
    fn pair(&self, a: usize, b: usize) -> Option<Candidate> {
        self.inner.pair(a, b).map(|c| self.prefix.prepend(c))
    }
    fn class(&self, i: usize) -> usize {
        self.inner.class(i)
    }
    fn lower(&self, g: usize, h: usize) -> Vec<i64> {
        let mut low = vec![0; self.prefix.tiers.len()];
        low.append(&mut self.inner.lower(g, h));
        low
    }
    // The prefix's tiers keep their bound of 0; rules 27–29's are bounded over the run.
    fn refine_lower(&self, a: usize, lo: usize, hi: usize, low: &mut [i64]) {
        let k = self.prefix.tiers.len();
        self.inner.refine_lower(a, lo, hi, &mut low[k..]);
    }
    fn upper(&self) -> Vec<i64> {
        let mut up = self.prefix.upper.clone();
        up.append(&mut self.inner.upper());
        up
    }
    // The plan's games switch nothing under an acceleration either: the legal fallback keeps
    // them, within 29E5a and 29E5b (without them it started from its generic quick pass,
    // which the verifier rejected on large accelerated fields).
    fn fallback_start(&self) -> Vec<(usize, usize)> {
        self.inner.fallback_start()
    }
}

/// [`sparse_spec_of`] with the tiers of `prefix` before rules 27–29's.
pub fn prefixed_sparse_spec(f: Field, prefix: Prefix) -> SparseSpec {
    let SparseSpec { spec, .. } = sparse_spec_of(f.clone());
    SparseSpec {
        spec: with_prefix(spec, &prefix),
        source: Arc::new(PrefixedPairs {
            inner: UscfPairs { field: f },
            prefix,
        }),
    }
}
