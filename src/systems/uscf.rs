//! US Chess accelerated pairings as improved in WinTD (seed "USCF"), on top of the standard
//! Swiss ([`super::swiss`]). See `models/uscf.md`.
//!
//! * `uscf-batches`: groups A (top, "rounded up to the next even number larger than 50%":
//!   `2·⌈n/4⌉`, so 121 players give 62/59) and B by rating. Round 1 pairs each group on its
//!   own (a first tier counts pairs across the groups; the groups are also apart in pairing
//!   score). Round 2 in batches, as tiers and one row: (a) A winners among themselves, one
//!   downfloater when odd (the lowest-rated, colours permitting); (b) the winners of B (and
//!   the downfloater) against the highest-rated A non-winners, in rating order, at most one B
//!   non-winner upfloated; (c) the rest by score groups (draws with draws, losses with
//!   losses). Later rounds: the standard Swiss.
//! * `uscf-thirds`: groups A, B (both even, the even number nearest a third) and C. Round 1
//!   each group on its own; round 2 (a) A winners; (b) A and B non-winners in rating order
//!   against B and C winners; the rest by standard methods.
//! * `uscf-added-score`: the top half (group A above) paired as if it had one more point in
//!   rounds 1 and 2.
//!
//! Round 2's tiers are named ([`RoundTwoTier`]), a pair's costs are a [`RoundTwoCosts`], and
//! one function gives a pair's costs or every tier's bound; round 1 inserts its tier into the
//! standard ones by name. Every clause is cited as a whole string ("USCF thirds round 2 (b)"),
//! here and in the verifier, so one grep finds both.

use super::swiss::{standard_spec, Field, SwissCosts, SwissPairs, SwissTier};
use super::virtual_points::virtual_spec;
use super::System;
use crate::spec::{ByeOption, Candidate, Linear, PairSource, RoundSpec, Tier, Var};
use crate::tournament::{Standings, Tournament};
use crate::{Error, Result, SystemKind};
use std::collections::BTreeMap;

const EPS: f64 = 1e-9;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Batches,
    Thirds,
    AddedScore,
}

/// `--system uscf-batches`, `uscf-thirds` or `uscf-added-score`.
#[derive(Debug)]
pub struct Uscf {
    pub method: Method,
}

impl Uscf {
    pub fn new(method: Method) -> Uscf {
        Uscf { method }
    }
}

/// Size of group A for `n` players: the next even number at or above half (121 → 62).
pub fn top_group(n: usize) -> usize {
    (2 * n.div_ceil(4)).min(n)
}

/// Sizes of A, B, C for thirds: A and B the same even number, the nearest to `n/3` (ties to
/// the smaller, so C is never under a third), C the rest.
pub fn thirds(n: usize) -> (usize, usize, usize) {
    let lo = 2 * (n / 6);
    let hi = lo + 2;
    let a = if (3 * hi).abs_diff(n) < (3 * lo).abs_diff(n) {
        hi
    } else {
        lo
    };
    let a = a.min(n / 2);
    (a, a, n - 2 * a)
}

/// The rating groups: index 0 is A.
#[derive(Debug, Clone)]
pub struct Groups {
    /// The entry (players taking part from round 1) by rating, then pairing number.
    pub order: Vec<u32>,
    pub sizes: Vec<usize>,
    /// Group of every player; late entries are in the last group.
    pub group: BTreeMap<u32, usize>,
}

impl Groups {
    pub fn members(&self, g: usize) -> Vec<u32> {
        self.order
            .iter()
            .copied()
            .filter(|id| self.group.get(id) == Some(&g))
            .collect()
    }

    fn of(&self, id: u32) -> usize {
        self.group.get(&id).copied().unwrap_or(self.sizes.len() - 1)
    }
}

/// Forms the groups of `method` from the ratings of the entry.
pub fn groups(t: &Tournament, method: Method) -> Result<Groups> {
    let mut entry: Vec<_> = t.players.iter().filter(|p| p.active_in(1)).collect();
    entry.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.number().cmp(&b.number())));
    let n = entry.len();
    let sizes = if method == Method::Thirds {
        let (a, b, c) = thirds(n);
        if a == 0 || c == 0 {
            return Err(Error::field(
                "players",
                format!("USCF acceleration by thirds needs at least 5 players (A and B even, C not empty); the entry has {n}"),
            ));
        }
        vec![a, b, c]
    } else {
        let a = top_group(n);
        vec![a, n - a]
    };
    let mut group = BTreeMap::new();
    let mut start = 0;
    for (g, &k) in sizes.iter().enumerate() {
        for p in &entry[start..start + k] {
            group.insert(p.id, g);
        }
        start += k;
    }
    let last = sizes.len() - 1;
    for p in &t.players {
        group.entry(p.id).or_insert(last);
    }
    Ok(Groups {
        order: entry.iter().map(|p| p.id).collect(),
        sizes,
        group,
    })
}

/// The added-score method's virtual points for round `round`: one point (a win's points) for
/// the top half in rounds 1 and 2.
pub fn added_points(t: &Tournament, round: u32) -> Result<BTreeMap<u32, f64>> {
    let g = groups(t, Method::AddedScore)?;
    let v = if round <= 2 { t.scoring.win } else { 0.0 };
    Ok(t.players
        .iter()
        .map(|p| (p.id, if g.of(p.id) == 0 { v } else { 0.0 }))
        .collect())
}

impl System for Uscf {
    fn kind(&self) -> SystemKind {
        match self.method {
            Method::Batches => SystemKind::UscfBatches,
            Method::Thirds => SystemKind::UscfThirds,
            Method::AddedScore => SystemKind::UscfAddedScore,
        }
    }
    fn one_half_zero(&self) -> Option<&'static str> {
        Some("USCF round 2 (a)-(c): winners and non-winners")
    }

    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec> {
        Ok(self.spec_with_bounds(t, round)?.0)
    }
}

impl Uscf {
    /// The round's specification and each tier's upper bound over every pair, the bounds from
    /// the same functions as the costs (the tests check every candidate against them).
    pub fn spec_with_bounds(&self, t: &Tournament, round: u32) -> Result<(RoundSpec, Vec<i64>)> {
        let g = groups(t, self.method)?;
        let letters = ["A", "B", "C"];
        let sizes: Vec<String> = g
            .sizes
            .iter()
            .enumerate()
            .map(|(i, k)| format!("{} {k}", letters[i]))
            .collect();
        let mut notes = vec![format!("USCF groups by rating: {}", sizes.join(", "))];
        let (mut spec, bounds) = match (self.method, round) {
            (Method::AddedScore, _) => {
                let vp = added_points(t, round)?;
                if round <= 2 {
                    notes.push("USCF added score: the top half paired with one point added".into());
                }
                let spec = virtual_spec(
                    t,
                    round,
                    self.name(),
                    &vp,
                    "USCF added score (top half +1 in rounds 1-2)",
                )?;
                // The field `virtual_spec` pairs, for its bounds.
                let f = Field::new(t, round, &|p, s| {
                    s.score + vp.get(&p.id).copied().unwrap_or(0.0)
                })?;
                (spec, SwissPairs::new(t, &f).upper())
            }
            (_, 1) => self.round_one(t, &g)?,
            (_, 2) => self.round_two(t, &g, &mut notes)?,
            _ => {
                let f = Field::new(t, round, &|_, s| s.score)?;
                (
                    standard_spec(t, &f, self.name()),
                    SwissPairs::new(t, &f).upper(),
                )
            }
        };
        notes.append(&mut spec.notes);
        spec.notes = notes;
        Ok((spec, bounds))
    }

    /// The citation of this method: `thirds` for `uscf-thirds`, `other` otherwise, each a whole
    /// string so that a grep for the clause finds its encoding.
    fn cite(&self, other: &str, thirds: &str) -> String {
        match self.method {
            Method::Thirds => thirds,
            _ => other,
        }
        .to_string()
    }

    /// Round 1: each group by standard methods. The groups are apart in pairing score (A a
    /// point above B, B above C), and a tier after the bye counts pairs across groups (only
    /// absences make one necessary).
    fn round_one(&self, t: &Tournament, g: &Groups) -> Result<(RoundSpec, Vec<i64>)> {
        let top = g.sizes.len() - 1;
        let f = Field::new(t, 1, &|p, s| {
            s.score + (top - g.of(p.id)) as f64 * t.scoring.win
        })?;
        let mut spec = standard_spec(t, &f, self.name());
        let mut bounds = SwissPairs::new(t, &f).upper();
        spec.insert_tier_before(
            SwissTier::Float.name(),
            Tier::new(
                "pairs across the rating groups",
                &self.cite(
                    "USCF round 1 (groups paired separately)",
                    "USCF thirds round 1 (groups paired separately)",
                ),
            ),
            |c| (g.of(f.ids[c.a]) != g.of(f.ids[c.b])) as i64,
            |_| 0,
        );
        bounds.insert(SwissTier::Float.index(), 1);
        Ok((spec, bounds))
    }

    /// Round 2 in batches (a), (b), (c).
    fn round_two(
        &self,
        t: &Tournament,
        g: &Groups,
        notes: &mut Vec<String>,
    ) -> Result<(RoundSpec, Vec<i64>)> {
        let win = t.scoring.win;
        let st = Standings::before(t, 2);
        let won = |id: u32| st.get(id).is_some_and(|s| s.score >= win - EPS);
        // Batch (a) is its own score group: A winners a point above the others.
        let f = Field::new(t, 2, &|p, s| {
            s.score
                + if g.of(p.id) == 0 && won(p.id) {
                    win
                } else {
                    0.0
                }
        })?;
        let two = RoundTwo::new(t, &f, g, &won);
        let base = standard_spec(t, &f, self.name());
        let mut candidates = Vec::with_capacity(base.candidates.len());
        let mut upfloats = Vec::new();
        for c in &base.candidates {
            let costs = two.costs_or_bound(Some((c.a, c.b, SwissCosts::from_slice(&c.costs))));
            if costs.upfloat == 1 {
                upfloats.push((Var::Pair(candidates.len()), 1));
            }
            candidates.push(Candidate {
                costs: costs.to_vec(),
                ..c.clone()
            });
        }
        let byes = base
            .byes
            .iter()
            .map(|o| {
                let (p, s) = (o.player, SwissCosts::from_slice(&o.costs));
                ByeOption {
                    player: p,
                    costs: RoundTwoCosts {
                        bye_group: s.bye_group,
                        a_outside: two.aw[p] as i64,
                        unserved: (two.ws[p] || two.aw[p]) as i64,
                        float_c: s.float,
                        repeat_float_1: s.repeat_float_1,
                        repeat_float_2: s.repeat_float_2,
                        bye_rank: s.bye_rank,
                        ..RoundTwoCosts::default()
                    }
                    .to_vec(),
                }
            })
            .collect();
        let count = |set: &[bool]| set.iter().filter(|&&x| x).count();
        let (n_aw, n_ws, n_nw) = (count(&two.aw), count(&two.ws), count(&two.nw));
        let need = n_ws + n_aw % 2;
        let mut rows = Vec::new();
        // (b): "upfloat one (at most) B non-winner" — a hard row when the A non-winners and
        // one upfloater can serve every winner (the document's premise).
        if n_nw + 1 >= need && !upfloats.is_empty() {
            rows.push(Linear {
                terms: upfloats,
                min: None,
                max: Some(1),
                rule: self.cite(
                    "USCF round 2 (b) (upfloat at most one)",
                    "USCF thirds round 2 (b) (upfloat at most one)",
                ),
            });
        }
        let (nws, wsn) = self.batch_names();
        notes.push(format!(
            "{}: {n_aw} A winners, {n_ws} {wsn} to serve{}, {n_nw} {nws}",
            self.cite("USCF round 2", "USCF thirds round 2"),
            if n_aw % 2 == 1 {
                " plus the downfloater"
            } else {
                ""
            }
        ));
        if n_nw < need {
            notes.push(format!(
                "{}: {} winners to serve but only {n_nw} {nws}",
                self.cite("USCF round 2 (b)", "USCF thirds round 2 (b)"),
                need
            ));
        }
        let spec = RoundSpec {
            tiers: RoundTwoTier::ALL.map(|k| self.tier(k)).to_vec(),
            candidates,
            byes,
            rows,
            ..base
        };
        Ok((spec, two.costs_or_bound(None).to_vec()))
    }

    /// Round 2's names for the non-winners who serve, and the winners they serve.
    fn batch_names(&self) -> (&'static str, &'static str) {
        if self.method == Method::Thirds {
            ("A and B non-winners", "B and C winners")
        } else {
            ("A non-winners", "B winners")
        }
    }

    /// A round-2 tier as certificates show it.
    fn tier(&self, k: RoundTwoTier) -> Tier {
        let (nws, wsn) = self.batch_names();
        let upn = if self.method == Method::Thirds {
            "C non-winners"
        } else {
            "B non-winners"
        };
        let a = || self.cite("USCF round 2 (a)", "USCF thirds round 2 (a)");
        let b = || self.cite("USCF round 2 (b)", "USCF thirds round 2 (b)");
        match k {
            RoundTwoTier::ByeGroup => SwissTier::ByeGroup.tier(),
            RoundTwoTier::AOutside => Tier::new("A winners paired outside batch (a)", &a()),
            RoundTwoTier::Unserved => Tier::new(
                &format!("{wsn} (and the downfloater) not paired against {nws}"),
                &b(),
            ),
            RoundTwoTier::Upfloat => Tier::new(
                &format!("{upn} upfloated against winners"),
                &self.cite(
                    "USCF round 2 (b) (upfloat at most one)",
                    "USCF thirds round 2 (b) (upfloat at most one)",
                ),
            ),
            RoundTwoTier::NotHighest => {
                Tier::new(&format!("{nws} in batch (b) below the highest-rated"), &b())
            }
            RoundTwoTier::FloatC => Tier::new(
                "float size in batch (c) (score steps squared)",
                &format!(
                    "{}; FIDE C.04.3 C.6-C.7",
                    self.cite("USCF round 2 (c)", "USCF thirds round 2 (c)")
                ),
            ),
            RoundTwoTier::Colour => SwissTier::Colour.tier(),
            RoundTwoTier::StrongColour => SwissTier::StrongColour.tier(),
            RoundTwoTier::Downfloater => {
                Tier::new("downfloater not the lowest-rated A winner", &a())
            }
            RoundTwoTier::RatingOrder => Tier::new("batch (b) not paired in rating order", &b()),
            RoundTwoTier::RepeatFloat1 => SwissTier::RepeatFloat1.tier(),
            RoundTwoTier::RepeatFloat2 => SwissTier::RepeatFloat2.tier(),
            RoundTwoTier::ByeRank => SwissTier::ByeRank.tier(),
            RoundTwoTier::Order => Tier::new(
                "in-bracket order (S1 v S2) in batches (a) and (c)",
                "FIDE C.04.3 B.2-B.3",
            ),
        }
    }
}

/// Round 2's tiers by name, in priority order ([`RoundTwoTier::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundTwoTier {
    ByeGroup,
    /// (a): A winners playing outside batch (a) (only the downfloater should).
    AOutside,
    /// (b): winners to serve (and the downfloater) without a non-winner of the higher group.
    Unserved,
    /// (b): non-winners of the last group upfloated against winners.
    Upfloat,
    /// (b): the non-winners used not the highest-rated.
    NotHighest,
    /// (c): conventional score groups among the players who are not winners.
    FloatC,
    Colour,
    StrongColour,
    /// (a): the downfloater not the lowest-rated A winner.
    Downfloater,
    /// (b): not in rating order.
    RatingOrder,
    RepeatFloat1,
    RepeatFloat2,
    ByeRank,
    /// S1 v S2 outside the (b) pairs.
    Order,
}

impl RoundTwoTier {
    /// The tiers in priority order: the order of a cost vector.
    pub const ALL: [RoundTwoTier; 14] = [
        RoundTwoTier::ByeGroup,
        RoundTwoTier::AOutside,
        RoundTwoTier::Unserved,
        RoundTwoTier::Upfloat,
        RoundTwoTier::NotHighest,
        RoundTwoTier::FloatC,
        RoundTwoTier::Colour,
        RoundTwoTier::StrongColour,
        RoundTwoTier::Downfloater,
        RoundTwoTier::RatingOrder,
        RoundTwoTier::RepeatFloat1,
        RoundTwoTier::RepeatFloat2,
        RoundTwoTier::ByeRank,
        RoundTwoTier::Order,
    ];
}

/// A pair's (or a bye's) cost on each round-2 tier, by name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoundTwoCosts {
    pub bye_group: i64,
    pub a_outside: i64,
    pub unserved: i64,
    pub upfloat: i64,
    pub not_highest: i64,
    pub float_c: i64,
    pub colour: i64,
    pub strong_colour: i64,
    pub downfloater: i64,
    pub rating_order: i64,
    pub repeat_float_1: i64,
    pub repeat_float_2: i64,
    pub bye_rank: i64,
    pub order: i64,
}

impl RoundTwoCosts {
    /// The cost on tier `k`.
    pub fn get(&self, k: RoundTwoTier) -> i64 {
        match k {
            RoundTwoTier::ByeGroup => self.bye_group,
            RoundTwoTier::AOutside => self.a_outside,
            RoundTwoTier::Unserved => self.unserved,
            RoundTwoTier::Upfloat => self.upfloat,
            RoundTwoTier::NotHighest => self.not_highest,
            RoundTwoTier::FloatC => self.float_c,
            RoundTwoTier::Colour => self.colour,
            RoundTwoTier::StrongColour => self.strong_colour,
            RoundTwoTier::Downfloater => self.downfloater,
            RoundTwoTier::RatingOrder => self.rating_order,
            RoundTwoTier::RepeatFloat1 => self.repeat_float_1,
            RoundTwoTier::RepeatFloat2 => self.repeat_float_2,
            RoundTwoTier::ByeRank => self.bye_rank,
            RoundTwoTier::Order => self.order,
        }
    }

    /// The costs as the specification holds them, in the order of [`RoundTwoTier::ALL`].
    pub fn to_vec(self) -> Vec<i64> {
        RoundTwoTier::ALL.map(|k| self.get(k)).to_vec()
    }
}

/// The facts of round 2 every pair's cost reads: who won, who serves whom, rating ranks.
struct RoundTwo {
    n: usize,
    winner: Vec<bool>,
    /// A winners.
    aw: Vec<bool>,
    /// Winners to be served in (b) (B winners; thirds: B and C winners).
    ws: Vec<bool>,
    /// Non-winners serving them (all but the last group).
    nw: Vec<bool>,
    /// The upfloat pool: non-winners of the last group.
    up: Vec<bool>,
    /// Rating ranks on the winners' side (the downfloater, an A winner, ranks first).
    rank_w: Vec<i64>,
    /// Ranks on the non-winners' side (upfloaters after every non-winner, the best score
    /// first).
    rank_n: Vec<i64>,
    /// Place of each A winner from the bottom by rating.
    from_bottom: Vec<i64>,
    /// The standard Swiss's bound on every pair of the field.
    swiss_bound: SwissCosts,
}

impl RoundTwo {
    fn new(t: &Tournament, f: &Field, g: &Groups, won: &dyn Fn(u32) -> bool) -> RoundTwo {
        let last = g.sizes.len() - 1;
        let n = f.len();
        let grp: Vec<usize> = f.ids.iter().map(|&id| g.of(id)).collect();
        let winner: Vec<bool> = f.ids.iter().map(|&id| won(id)).collect();
        let aw: Vec<bool> = (0..n).map(|i| grp[i] == 0 && winner[i]).collect();
        let ws: Vec<bool> = (0..n).map(|i| grp[i] > 0 && winner[i]).collect();
        let nw: Vec<bool> = (0..n).map(|i| grp[i] < last && !winner[i]).collect();
        let up: Vec<bool> = (0..n).map(|i| grp[i] == last && !winner[i]).collect();
        let rating = |i: usize| f.standings[i].rating;
        let by_rating = |set: &[bool]| -> Vec<usize> {
            let mut v: Vec<usize> = (0..n).filter(|&i| set[i]).collect();
            v.sort_by(|&x, &y| {
                rating(y)
                    .cmp(&rating(x))
                    .then(f.number[x].cmp(&f.number[y]))
            });
            v
        };
        let n_nw = nw.iter().filter(|&&x| x).count();
        let mut rank_w = vec![0i64; n];
        for (k, &i) in by_rating(&ws).iter().enumerate() {
            rank_w[i] = k as i64 + 1;
        }
        let mut rank_n = vec![0i64; n];
        for (k, &i) in by_rating(&nw).iter().enumerate() {
            rank_n[i] = k as i64;
        }
        let mut pool = by_rating(&up);
        pool.sort_by(|&x, &y| f.scores[y].total_cmp(&f.scores[x]));
        for (k, &i) in pool.iter().enumerate() {
            rank_n[i] = (n_nw + k) as i64;
        }
        let mut from_bottom = vec![0i64; n];
        for (k, &i) in by_rating(&aw).iter().rev().enumerate() {
            from_bottom[i] = k as i64;
        }
        RoundTwo {
            n,
            winner,
            aw,
            ws,
            nw,
            up,
            rank_w,
            rank_n,
            from_bottom,
            swiss_bound: SwissCosts::from_slice(&SwissPairs::new(t, f).upper()),
        }
    }

    /// A pair's costs (`pair` = (a, b, its standard Swiss costs)), or with `None` each tier's
    /// upper bound over every pair of the round: each tier's cost and bound side by side, so
    /// that they cannot drift.
    fn costs_or_bound(&self, pair: Option<(usize, usize, SwissCosts)>) -> RoundTwoCosts {
        let big = self.n as i64;
        let Some((i, j, s)) = pair else {
            let s = self.swiss_bound;
            return RoundTwoCosts {
                // Byes only.
                bye_group: 0,
                // One player of a pair leaves (a); each of two may be a winner to serve.
                a_outside: 1,
                unserved: 2,
                upfloat: 1,
                // A rank on the non-winners' side.
                not_highest: big,
                float_c: s.float,
                colour: s.colour,
                strong_colour: s.strong_colour,
                // A rank among the A winners.
                downfloater: big,
                // A squared difference of two ranks (the winners' from 1).
                rating_order: (big + 1) * (big + 1),
                repeat_float_1: s.repeat_float_1,
                repeat_float_2: s.repeat_float_2,
                bye_rank: 0,
                order: s.order,
            };
        };
        let (aw, ws, nw, up) = (&self.aw, &self.ws, &self.nw, &self.up);
        // A winner playing outside (a): the downfloater.
        let df = |x: usize, y: usize| aw[x] && !aw[y];
        // Winner to serve (B winner, or the downfloater) without a non-winner.
        let serve = |x: usize, y: usize| (ws[x] || df(x, y)) && !nw[y];
        let winner_side = |x: usize, y: usize| ws[x] || df(x, y);
        // (b) pair: a winner to serve against a non-winner (or an upfloater).
        let b_pair = [(i, j), (j, i)]
            .into_iter()
            .find(|&(x, y)| winner_side(x, y) && (nw[y] || up[y]));
        let mut c = RoundTwoCosts {
            bye_group: s.bye_group,
            a_outside: df(i, j) as i64 + df(j, i) as i64,
            unserved: serve(i, j) as i64 + serve(j, i) as i64,
            upfloat: ((winner_side(i, j) && up[j]) || (winner_side(j, i) && up[i])) as i64,
            // (c): conventional score groups among the players who are not winners.
            float_c: if !self.winner[i] && !self.winner[j] {
                s.float
            } else {
                0
            },
            colour: s.colour,
            strong_colour: s.strong_colour,
            repeat_float_1: s.repeat_float_1,
            repeat_float_2: s.repeat_float_2,
            bye_rank: s.bye_rank,
            order: if b_pair.is_some() { 0 } else { s.order },
            ..RoundTwoCosts::default()
        };
        if let Some((x, y)) = b_pair {
            if nw[y] {
                // Σ ranks of the non-winners used: least when they are the highest-rated.
                c.not_highest = self.rank_n[y];
            }
            c.rating_order = (self.rank_w[x] - self.rank_n[y]).pow(2);
        }
        for (x, y) in [(i, j), (j, i)] {
            if df(x, y) {
                c.downfloater += self.from_bottom[x];
            }
        }
        c
    }
}
