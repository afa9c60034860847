//! US Chess accelerated pairings as improved in WinTD (seed "USCF"), paired "by standard
//! methods": the US Chess Swiss of rules 27–29 ([`super::uscf_swiss`]) on the pairing scores
//! the document's groups and batches imply, with the document's clauses as tiers before the
//! rulebook's. See `models/uscf.md`.
//!
//! * `uscf-batches`: groups A (top, "rounded up to the next even number larger than 50%":
//!   `2·⌈n/4⌉`, so 121 players give 62/59) and B by rating. Round 1: each group its own score
//!   group (a first tier counts pairs across the groups). Round 2 in batches, each its own
//!   score group: (a) the A winners; (b) the winners of B and the highest-rated A non-winners
//!   (as many as the winners and an odd batch (a)'s downfloater need; one B non-winner
//!   upfloated when they are short); (c) the rest on the real score. Rules 27–29 then pair
//!   inside them: upper half against lower half by rating (so (b) is "in rating order"),
//!   29D's odd player as (a)'s downfloater, transpositions and interchanges within the 80-
//!   and 200-point rules, 29E colours. Later rounds: the US Chess Swiss.
//! * `uscf-thirds`: groups A, B (both even, the even number nearest a third) and C. Round 1
//!   each group on its own; round 2 (a) A winners; (b) A and B non-winners against B and C
//!   winners; the rest by standard methods.
//! * `uscf-added-score`: the top half (group A above) paired as if it had one more point in
//!   rounds 1 and 2.
//!
//! Every clause is cited as a whole string ("USCF thirds round 2 (b)"), here and in the
//! verifier, so one grep finds both.

use super::dutch::state::milli;
use super::uscf_swiss::{prefixed_sparse_spec, prefixed_spec, Field, Prefix, UscfPairs};
use super::System;
use crate::spec::{PairSource, RoundSpec, SparseSpec, Tier};
use crate::tournament::Tournament;
use crate::{Error, Result, SystemKind};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The three methods of the USCF document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Groups A and B, round 2 in batches (a), (b), (c).
    Batches,
    /// Groups A, B, C ("acceleration by thirds").
    Thirds,
    /// The top half paired with one point added in rounds 1 and 2.
    AddedScore,
}

/// The systems `uscf-batches`, `uscf-thirds` and `uscf-added-score`.
#[derive(Debug)]
pub struct Uscf {
    /// Which of the document's methods.
    pub method: Method,
}

impl Uscf {
    /// The system pairing by `method`.
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
    /// Size of each group (A first) in the entry.
    pub sizes: Vec<usize>,
    /// Group of every player; late entries are in the last group.
    pub group: BTreeMap<u32, usize>,
}

impl Groups {
    /// The entry's members of group `g`, by rating.
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

    fn sparse_spec(&self, t: &Tournament, round: u32, from: usize) -> Result<Option<SparseSpec>> {
        let (f, prefix, notes) = self.round(t, round)?;
        if f.len() < from {
            return Ok(None);
        }
        let mut s = prefixed_sparse_spec(f, prefix);
        s.spec.notes = [notes, std::mem::take(&mut s.spec.notes)].concat();
        Ok(Some(s))
    }
}

impl Uscf {
    /// The round's specification and each tier's upper bound over every pair (the tests
    /// check every candidate against them).
    pub fn spec_with_bounds(&self, t: &Tournament, round: u32) -> Result<(RoundSpec, Vec<i64>)> {
        let (f, prefix, notes) = self.round(t, round)?;
        let mut spec = prefixed_spec(&f, &prefix);
        spec.system = self.name().to_string();
        spec.notes = [notes, std::mem::take(&mut spec.notes)].concat();
        let mut bounds = prefix.upper.clone();
        bounds.append(&mut UscfPairs { field: f }.upper());
        Ok((spec, bounds))
    }

    /// The round as rules 27–29 pair it: the field on the pairing score of the round, the
    /// document's tiers before the rulebook's, and the notes naming the groups.
    fn round(&self, t: &Tournament, round: u32) -> Result<(Field, Prefix, Vec<String>)> {
        let g = groups(t, self.method)?;
        let letters = ["A", "B", "C"];
        let sizes: Vec<String> = g
            .sizes
            .iter()
            .enumerate()
            .map(|(i, k)| format!("{} {k}", letters[i]))
            .collect();
        let mut notes = vec![format!("USCF groups by rating: {}", sizes.join(", "))];
        let none = Prefix {
            tiers: Vec::new(),
            pair: Arc::new(|_, _| Vec::new()),
            bye: Arc::new(|_| Vec::new()),
            upper: Vec::new(),
        };
        match (self.method, round) {
            (Method::AddedScore, 1 | 2) => {
                let vp = added_points(t, round)?;
                notes.push("USCF added score: the top half paired with one point added".into());
                let f = Field::with_scores(
                    t,
                    round,
                    &|id, s| s + vp.get(&id).copied().unwrap_or(0.0),
                    &|_| 0,
                )?;
                Ok((f, none, notes))
            }
            (Method::AddedScore, _) => Ok((Field::new(t, round)?, none, notes)),
            (_, 1) => {
                let (f, prefix) = self.round_one(t, &g)?;
                Ok((f, prefix, notes))
            }
            (_, 2) => {
                let (f, prefix) = self.round_two(t, &g, &mut notes)?;
                Ok((f, prefix, notes))
            }
            _ => Ok((Field::new(t, round)?, none, notes)),
        }
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

    /// Round 1: "pair groups A and B separately by standard methods". Each group is its own
    /// score group (A a point above B, B above C), and a first tier counts pairs across
    /// groups (only absences make one necessary).
    fn round_one(&self, t: &Tournament, g: &Groups) -> Result<(Field, Prefix)> {
        let last = g.sizes.len() - 1;
        let win = t.scoring.win;
        let f = Field::with_scores(t, 1, &|id, s| s + (last - g.of(id)) as f64 * win, &|_| 0)?;
        let grp: Vec<usize> = f.players.iter().map(|p| g.of(p.id)).collect();
        let prefix = Prefix {
            tiers: vec![Tier::new(
                "pairs across the rating groups",
                &self.cite(
                    "USCF round 1 (groups paired separately)",
                    "USCF thirds round 1 (groups paired separately)",
                ),
            )],
            pair: Arc::new(move |a, b| vec![(grp[a] != grp[b]) as i64]),
            bye: Arc::new(|_| vec![0]),
            upper: vec![1],
        };
        Ok((f, prefix))
    }
}

/// Round 2's sets by player id, from the document: who won, who serves whom, and who is in
/// batch (b).
#[derive(Debug, Clone, Default)]
pub struct Batches {
    /// Batch (a): the A winners.
    pub a: BTreeSet<u32>,
    /// The winners to serve: B winners (thirds: B and C winners).
    pub serve: BTreeSet<u32>,
    /// The non-winners who serve them: of every group but the last.
    pub non_winners: BTreeSet<u32>,
    /// The upfloat pool: the last group's non-winners.
    pub pool: BTreeSet<u32>,
    /// Batch (b): the winners to serve, the highest-rated non-winners they need (one more for
    /// an odd batch (a)'s downfloater) and, when those are short, one upfloater.
    pub b: BTreeSet<u32>,
}

/// The batches of round 2 among the field `f` (real scores), groups `g`.
pub fn batches(t: &Tournament, g: &Groups, f: &Field) -> Batches {
    let win = t.scoring.win;
    let last = g.sizes.len() - 1;
    let number = |id: u32| t.player(id).map_or(u32::MAX, |p| p.number());
    let mut out = Batches::default();
    // By rating, then pairing number: the order of "the highest-rated".
    let mut by_rating: Vec<_> = f.players.iter().collect();
    by_rating.sort_by(|x, y| {
        y.rating
            .cmp(&x.rating)
            .then(number(x.id).cmp(&number(y.id)))
    });
    let mut nw = Vec::new();
    let mut pool = Vec::new();
    for p in by_rating {
        // Exact in thousandths: a win's points, never within a rounding margin of them.
        let (won, grp) = (milli(p.score) >= milli(win), g.of(p.id));
        match (won, grp) {
            (true, 0) => out.a.insert(p.id),
            (true, _) => out.serve.insert(p.id),
            (false, k) if k < last => {
                nw.push(p.id);
                out.non_winners.insert(p.id)
            }
            _ => {
                pool.push((milli(p.score), p.id));
                out.pool.insert(p.id)
            }
        };
    }
    let need = out.serve.len() + out.a.len() % 2;
    out.b = out.serve.clone();
    out.b.extend(nw.iter().take(need));
    if nw.len() < need {
        // "upfloat one (at most) B non-winner": the best score, then the highest-rated.
        pool.sort_by_key(|x| std::cmp::Reverse(x.0));
        out.b.extend(pool.first().map(|&(_, id)| id));
    }
    out
}

/// Round 2's tiers before rules 27–29's, by name, in priority order ([`RoundTwoTier::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundTwoTier {
    /// (a): A winners playing outside batch (a) (only an odd batch's downfloater should).
    AOutside,
    /// (b): winners to serve (and the downfloater) not against a non-winner of a higher group.
    Unserved,
    /// (b): non-winners of the last group upfloated against winners.
    Upfloat,
}

impl RoundTwoTier {
    /// The tiers in priority order: the order of a cost vector.
    pub const ALL: [RoundTwoTier; 3] = [
        RoundTwoTier::AOutside,
        RoundTwoTier::Unserved,
        RoundTwoTier::Upfloat,
    ];
}

/// A pair's (or a bye's) cost on each of round 2's tiers, by name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoundTwoCosts {
    /// [`RoundTwoTier::AOutside`].
    pub a_outside: i64,
    /// [`RoundTwoTier::Unserved`].
    pub unserved: i64,
    /// [`RoundTwoTier::Upfloat`].
    pub upfloat: i64,
}

impl RoundTwoCosts {
    /// The costs in the order of [`RoundTwoTier::ALL`].
    pub fn to_vec(self) -> Vec<i64> {
        vec![self.a_outside, self.unserved, self.upfloat]
    }
}

/// Round 2's facts by field index, for the tiers' costs.
struct RoundTwo {
    aw: Vec<bool>,
    ws: Vec<bool>,
    nw: Vec<bool>,
    up: Vec<bool>,
}

impl RoundTwo {
    /// A pair's costs, or with `None` each tier's upper bound over every pair: cost and bound
    /// side by side, so that they cannot drift.
    fn costs_or_bound(&self, pair: Option<(usize, usize)>) -> RoundTwoCosts {
        let Some((i, j)) = pair else {
            // One of a pair leaves (a); each of two may be a winner unserved.
            return RoundTwoCosts {
                a_outside: 1,
                unserved: 2,
                upfloat: 1,
            };
        };
        let (aw, ws, nw, up) = (&self.aw, &self.ws, &self.nw, &self.up);
        // An A winner outside (a): the downfloater, on the winners' side.
        let df = |x: usize, y: usize| aw[x] && !aw[y];
        let winner_side = |x: usize, y: usize| ws[x] || df(x, y);
        let serve = |x: usize, y: usize| winner_side(x, y) && !nw[y];
        RoundTwoCosts {
            a_outside: df(i, j) as i64 + df(j, i) as i64,
            unserved: serve(i, j) as i64 + serve(j, i) as i64,
            upfloat: ((winner_side(i, j) && up[j]) || (winner_side(j, i) && up[i])) as i64,
        }
    }

    fn bye(&self, i: usize) -> RoundTwoCosts {
        RoundTwoCosts {
            a_outside: self.aw[i] as i64,
            unserved: (self.aw[i] || self.ws[i]) as i64,
            upfloat: 0,
        }
    }
}

impl Uscf {
    /// Round 2 in batches (a), (b), (c), each its own score group: (a) three wins' points,
    /// (b) two, (c) the real score.
    fn round_two(
        &self,
        t: &Tournament,
        g: &Groups,
        notes: &mut Vec<String>,
    ) -> Result<(Field, Prefix)> {
        let win = t.scoring.win;
        let bt = batches(t, g, &Field::new(t, 2)?);
        let score = |id, s| {
            if bt.a.contains(&id) {
                3.0 * win
            } else if bt.b.contains(&id) {
                2.0 * win
            } else {
                s
            }
        };
        // "Pair the non-winners in rating order ... with the winners in rating order": in
        // batch (b) the non-winners (then the upfloater) are the upper half, the winners the
        // lower.
        let side = |id| {
            if bt.serve.contains(&id) {
                2
            } else if bt.pool.contains(&id) {
                1
            } else {
                0
            }
        };
        let f = Field::with_scores(t, 2, &score, &side)?;
        let flags = |set: &BTreeSet<u32>| -> Vec<bool> {
            f.players.iter().map(|p| set.contains(&p.id)).collect()
        };
        let two = RoundTwo {
            aw: flags(&bt.a),
            ws: flags(&bt.serve),
            nw: flags(&bt.non_winners),
            up: flags(&bt.pool),
        };
        let (nws, wsn) = self.batch_names();
        let (n_aw, n_ws, n_nw) = (bt.a.len(), bt.serve.len(), bt.non_winners.len());
        let need = n_ws + n_aw % 2;
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
                "{}: {need} winners to serve but only {n_nw} {nws}",
                self.cite("USCF round 2 (b)", "USCF thirds round 2 (b)"),
            ));
        }
        let two = Arc::new(two);
        let (t2, t3) = (two.clone(), two.clone());
        let prefix = Prefix {
            tiers: RoundTwoTier::ALL.map(|k| self.tier(k)).to_vec(),
            pair: Arc::new(move |a, b| t2.costs_or_bound(Some((a, b))).to_vec()),
            bye: Arc::new(move |i| t3.bye(i).to_vec()),
            upper: two.costs_or_bound(None).to_vec(),
        };
        Ok((f, prefix))
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
        match k {
            RoundTwoTier::AOutside => Tier::new(
                "A winners paired outside batch (a)",
                &self.cite("USCF round 2 (a)", "USCF thirds round 2 (a)"),
            ),
            RoundTwoTier::Unserved => Tier::new(
                &format!("{wsn} (and the downfloater) not paired against {nws}"),
                &self.cite("USCF round 2 (b)", "USCF thirds round 2 (b)"),
            ),
            RoundTwoTier::Upfloat => Tier::new(
                &format!("{upn} upfloated against winners"),
                &self.cite(
                    "USCF round 2 (b) (upfloat at most one)",
                    "USCF thirds round 2 (b) (upfloat at most one)",
                ),
            ),
        }
    }
}
