//! The US Chess Swiss (`uscf`), checked one round at a time from the US Chess Official Rules
//! of Chess, 7th edition, rules 27–29. Nothing comes from the model builder: ranks, score
//! groups, the plan (the pairing before any switch) and colours are recomputed here.
//!
//! | rule string | what is checked |
//! |---|---|
//! | `US Chess 27A1` | no two players meet twice (over the board, or a pair the event forbids) |
//! | `US Chess 29A` | every player of the round has one game or one bye, no absent player is paired |
//! | `US Chess 28L3` | the full-point bye not to a player who had one, a requested full-point bye or a forfeit win, while another could take it |
//! | `US Chess 28L2` | the full-point bye in the lowest score group holding an eligible player, to a rated player if one is eligible there, the lowest-rated of them |
//! | `US Chess 29E4` | a game between players due the same colour gives it as 29E4 orders their claims; players due different colours each get theirs |
//! | `US Chess 29E5b` / `US Chess 29E5a` | every transposition from the plan, simple or compound (a cycle of boards of one score group, each upper-half player meeting another's planned opponent), and every two-board interchange, of more than 200 points (its largest board: the smaller of the two players' changes of planned opponent) where no planned game of it was a rematch; of more than 80 points where no planned game was a rematch and the planned games broke 27A4 for no more players |
//!
//! Readings are those of `models/uscf-swiss.md`: rank by score, rated before unrated, rating,
//! pairing number; a switch's size is the smaller change of planned opponent; unrated players
//! have no rating difference.

// Scores in thousandths of a point (every US Chess score is a multiple of ½, and added or
// batch points are whole), so that no comparison depends on rounding.
use super::dutch::state::{thousandths, Points};
use super::Violation;
use crate::tournament::{ByeKind, Colour, Standings, Tournament};
use std::collections::{BTreeMap, BTreeSet};

struct P {
    id: u32,
    rating: u32,
    /// The pairing score in thousandths of a point: score groups are compared exactly.
    score: i64,
    colours: Vec<Option<Colour>>,
    met: BTreeSet<u32>,
    bye_barred: bool,
}

impl P {
    fn imbalance(&self) -> i32 {
        self.colours
            .iter()
            .flatten()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    }
    fn last(&self) -> Option<Colour> {
        self.colours.iter().rev().flatten().next().copied()
    }
    /// 29E3: due colour, and whether for equalization.
    fn due(&self) -> Option<(Colour, bool)> {
        match self.imbalance() {
            d if d > 0 => Some((Colour::Black, true)),
            d if d < 0 => Some((Colour::White, true)),
            _ => self.last().map(|c| (opp(c), false)),
        }
    }
    /// 27A4 with 29E5f: `c` makes an excess of two or more grow, or a third in a row.
    fn unequal_with(&self, c: Colour) -> bool {
        let d = self.imbalance();
        let e = d + if c == Colour::White { 1 } else { -1 };
        let h: Vec<Colour> = self.colours.iter().flatten().copied().collect();
        let three = h.len() >= 2 && h[h.len() - 1] == c && h[h.len() - 2] == c;
        (e.abs() > d.abs() && e.abs() >= 2) || three
    }
    fn rated(&self) -> bool {
        self.rating > 0
    }
}

/// The transpositions of a pairing from its plan: cycles of games `U₁ v L₂, U₂ v L₃, …,
/// Uₖ v L₁` of one score group, where `Lᵢ` is the plan's opponent of `Uᵢ` (the upper-half
/// player: the higher-ranked of a planned game). Each cycle is listed once, from its
/// highest-ranked player, as (upper, lower) boards; a chain that leaves the plan (a
/// drop, the bye, two of one half) is no transposition.
fn transposition_cycles(
    natural: &BTreeMap<usize, usize>,
    partner: &BTreeMap<usize, usize>,
) -> Vec<Vec<(usize, usize)>> {
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for (&u, &l) in natural {
        if u > l || done.contains(&u) || partner.get(&u) == Some(&l) {
            continue;
        }
        let mut boards = Vec::new();
        let mut at = u;
        let closed = loop {
            done.insert(at);
            let Some(&y) = partner.get(&at) else {
                break false;
            };
            // `y` must be of the lower half: planned against a higher-ranked player.
            let Some(&next) = natural.get(&y).filter(|&&x| x < y) else {
                break false;
            };
            boards.push((at, y));
            if next == u {
                break true;
            }
            if done.contains(&next) {
                break false;
            }
            at = next;
        };
        if closed {
            out.push(boards);
        }
    }
    out
}

fn opp(c: Colour) -> Colour {
    match c {
        Colour::White => Colour::Black,
        Colour::Black => Colour::White,
    }
}

/// Round `r` of `t` under the US Chess Swiss rules.
pub fn check(t: &Tournament, r: u32) -> Vec<Violation> {
    check_scored(t, r, &|_, s| s, &|_| 0)
}

/// [`check`] with score groups on pairing scores, `score(id, real score)` (thousandths), and inside a
/// group the players of a lower `side(id)` ranked first: an acceleration pairing its groups
/// and batches "by standard methods".
pub fn check_scored(
    t: &Tournament,
    r: u32,
    score: &dyn Fn(u32, Points) -> Points,
    side: &dyn Fn(u32) -> u32,
) -> Vec<Violation> {
    let Some(round) = t.round(r) else {
        return Vec::new();
    };
    let st = Standings::before(t, r);
    let requested: BTreeSet<u32> = round.requested_byes().map(|b| b.player).collect();
    let mut field: Vec<(u32, P)> = Vec::new();
    for p in &t.players {
        if !p.active_in(r) || requested.contains(&p.id) {
            continue;
        }
        let Some(s) = st.get(p.id) else { continue };
        field.push((
            p.number(),
            P {
                id: p.id,
                rating: p.rating,
                score: score(p.id, thousandths(s.score)),
                colours: s.colours.clone(),
                met: s.barred(),
                bye_barred: s.pairing_byes + s.forfeit_wins + s.full_byes > 0,
            },
        ));
    }
    field.sort_by(|(na, a), (nb, b)| {
        b.score
            .cmp(&a.score)
            .then(side(a.id).cmp(&side(b.id)))
            .then(b.rated().cmp(&a.rated()))
            .then(b.rating.cmp(&a.rating))
            .then(na.cmp(nb))
    });
    let players: Vec<P> = field.into_iter().map(|(_, p)| p).collect();
    let mut c = Check {
        t,
        r,
        at: players.iter().enumerate().map(|(i, p)| (p.id, i)).collect(),
        players,
        out: Vec::new(),
    };
    c.structure(round);
    c.byes(round);
    c.colours(round);
    c.switches(round);
    c.out
}

struct Check<'a> {
    t: &'a Tournament,
    r: u32,
    players: Vec<P>,
    at: BTreeMap<u32, usize>,
    out: Vec<Violation>,
}

impl Check<'_> {
    fn flag(&mut self, rule: &str, players: Vec<u32>, what: String) {
        self.out.push(Violation {
            round: self.r,
            rule: rule.to_string(),
            players,
            message: format!("round {}: {what} — {rule}", self.r),
        });
    }

    fn name(&self, id: u32) -> String {
        let n = self.t.number_of(id);
        match self.t.player(id).map(|p| p.rating) {
            Some(x) if x > 0 => format!("{n} ({x})"),
            _ => format!("{n} (unrated)"),
        }
    }

    fn structure(&mut self, round: &crate::tournament::Round) {
        let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
        for g in &round.games {
            for id in [g.white, g.black] {
                *seen.entry(id).or_default() += 1;
            }
            let met = self
                .at
                .get(&g.white)
                .map(|&i| self.players[i].met.contains(&g.black));
            if met == Some(true) {
                let what = format!("{} v {} met before", self.name(g.white), self.name(g.black));
                self.flag("US Chess 27A1", vec![g.white, g.black], what);
            }
        }
        for b in &round.byes {
            *seen.entry(b.player).or_default() += 1;
        }
        for (&id, &k) in &seen {
            if k > 1 {
                let what = format!("{} is paired {k} times", self.name(id));
                self.flag("US Chess 29A", vec![id], what);
            }
            let requested = round
                .byes
                .iter()
                .any(|b| b.player == id && b.kind.is_requested());
            if !self.at.contains_key(&id) && !requested {
                let what = format!("{} is paired but does not play this round", self.name(id));
                self.flag("US Chess 29A", vec![id], what);
            }
        }
        let missing: Vec<u32> = self
            .players
            .iter()
            .map(|p| p.id)
            .filter(|id| !seen.contains_key(id))
            .collect();
        for id in missing {
            let what = format!("{} has neither a game nor a bye", self.name(id));
            self.flag("US Chess 29A", vec![id], what);
        }
    }

    /// 28L2 / 28L3 on the pairing-allocated bye.
    fn byes(&mut self, round: &crate::tournament::Round) {
        let given: Vec<u32> = round
            .byes
            .iter()
            .filter(|b| b.kind == ByeKind::PairingAllocated)
            .map(|b| b.player)
            .collect();
        for id in given {
            let Some(&i) = self.at.get(&id) else { continue };
            let eligible: Vec<usize> = (0..self.players.len())
                .filter(|&j| !self.players[j].bye_barred)
                .collect();
            if self.players[i].bye_barred {
                if !eligible.is_empty() {
                    let what = format!(
                        "{} receives a second full-point bye (or after a forfeit win)",
                        self.name(id)
                    );
                    self.flag("US Chess 28L3", vec![id], what);
                }
                continue;
            }
            let lowest = eligible
                .iter()
                .map(|&j| self.players[j].score)
                .min()
                .unwrap_or(i64::MAX);
            let pool: Vec<usize> = eligible
                .into_iter()
                .filter(|&j| self.players[j].score == lowest)
                .collect();
            let rated: Vec<usize> = pool
                .iter()
                .copied()
                .filter(|&j| self.players[j].rated())
                .collect();
            let pool = if rated.is_empty() { pool } else { rated };
            let best = *pool.iter().max().expect("the bye's own player is eligible");
            if best != i {
                let other = self.players[best].id;
                let what = format!("the bye goes to {}, not to {} (lowest-rated eligible in the lowest score group)", self.name(id), self.name(other));
                self.flag("US Chess 28L2", vec![id, other], what);
            }
        }
    }

    /// 29E4: colours of each game.
    fn colours(&mut self, round: &crate::tournament::Round) {
        for g in &round.games {
            let (Some(&w), Some(&b)) = (self.at.get(&g.white), self.at.get(&g.black)) else {
                continue;
            };
            let (hi, lo) = (w.min(b), w.max(b));
            let Some(want) = self.white_of(hi, lo) else {
                continue;
            };
            let white = self.players[want].id;
            if white != g.white {
                let what = format!(
                    "{} has white against {}; the colour claims give it to {}",
                    self.name(g.white),
                    self.name(g.black),
                    self.name(white)
                );
                self.flag("US Chess 29E4", vec![g.white, g.black], what);
            }
        }
    }

    /// Who of `hi` (higher-ranked) and `lo` gets white by 29E4; `None` when neither is due a
    /// colour (the toss and board alternation of the first round decide).
    fn white_of(&self, hi: usize, lo: usize) -> Option<usize> {
        let (a, b) = (&self.players[hi], &self.players[lo]);
        let (gets, colour) = match (a.due(), b.due()) {
            (None, None) => return None,
            (Some((c, _)), None) => (hi, c),
            (None, Some((c, _))) => (lo, c),
            (Some((ca, ea)), Some((cb, eb))) => {
                if ca != cb {
                    (hi, ca)
                } else if ea != eb {
                    (if ea { hi } else { lo }, ca)
                } else if a.imbalance().abs() != b.imbalance().abs() {
                    (
                        if a.imbalance().abs() > b.imbalance().abs() {
                            hi
                        } else {
                            lo
                        },
                        ca,
                    )
                } else {
                    (self.history_claim(hi, lo, ca), ca)
                }
            }
        };
        let other = if gets == hi { lo } else { hi };
        Some(if colour == Colour::White { gets } else { other })
    }

    /// Both due `c` with equal claims: back through the rounds to the last in which their
    /// colours differed; whoever had the other colour there (or no game, against `c`) gets
    /// `c`; no such round: the higher-ranked.
    fn history_claim(&self, hi: usize, lo: usize, c: Colour) -> usize {
        let (a, b) = (&self.players[hi], &self.players[lo]);
        let n = a.colours.len().max(b.colours.len());
        for k in (0..n).rev() {
            let x = a.colours.get(k).copied().flatten();
            let y = b.colours.get(k).copied().flatten();
            if x == y {
                continue;
            }
            return match (x, y) {
                (Some(x), _) if x == opp(c) => hi,
                (_, Some(y)) if y == opp(c) => lo,
                (None, _) => hi,
                _ => lo,
            };
        }
        hi
    }

    /// The plan (29C, 29D1a, 29D2, 28L2) and its switches: every transposition, simple or
    /// compound (a cycle of boards of one score group, each upper-half player meeting the
    /// planned opponent of another), and every two-board interchange (29E5a, 29E5b).
    fn switches(&mut self, round: &crate::tournament::Round) {
        let natural = self.plan();
        let mut partner: BTreeMap<usize, usize> = BTreeMap::new();
        for g in &round.games {
            if let (Some(&w), Some(&b)) = (self.at.get(&g.white), self.at.get(&g.black)) {
                partner.insert(w, b);
                partner.insert(b, w);
            }
        }
        let limits = |key: &str, d: i64| {
            self.t
                .settings
                .get(key)
                .and_then(|v| v.as_i64())
                .unwrap_or(d)
        };
        let limit = (
            limits("uscf.alternation_limit", 80),
            limits("uscf.equalization_limit", 200),
        );
        for cycle in transposition_cycles(&natural, &partner) {
            self.judge(&cycle, &natural, limit);
        }
        let mut seen = BTreeSet::new();
        for (&x, &y) in &partner {
            if x > y || natural.get(&x) == Some(&y) {
                continue;
            }
            let (Some(&x2), Some(&y2)) = (natural.get(&x), natural.get(&y)) else {
                continue;
            };
            // Two of one half and their planned opponents: a two-board interchange (the
            // transpositions are the cycles above).
            let upper = |p: usize, q: usize| p < q;
            if upper(x, x2) != upper(y, y2) || !upper(x, x2) {
                continue;
            }
            if partner.get(&x2) != Some(&y2) || !seen.insert((x, y)) {
                continue;
            }
            self.judge(&[(x, y), (x2, y2)], &natural, limit);
        }
    }

    /// One switch from the plan: `boards`, games of the pairing whose players' planned
    /// opponents all play in the list. Its size is
    /// the largest over its boards of the smaller change of planned opponent; flagged past
    /// 200 points (29E5b), or past 80 when the planned games broke 27A4 for no more players
    /// (29E5a), unless a planned game of it was a rematch.
    fn judge(
        &mut self,
        boards: &[(usize, usize)],
        natural: &BTreeMap<usize, usize>,
        limit: (i64, i64),
    ) {
        let (alt, equ) = limit;
        let mut planned: Vec<(usize, usize)> = boards
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .map(|p| (p.min(natural[&p]), p.max(natural[&p])))
            .collect();
        planned.sort_unstable();
        planned.dedup();
        let rematch = planned
            .iter()
            .any(|&(u, l)| self.players[u].met.contains(&self.players[l].id));
        if rematch {
            return;
        }
        let size = boards
            .iter()
            .map(|&(u, l)| self.diff(natural[&u], l).min(self.diff(natural[&l], u)))
            .max()
            .unwrap_or(0);
        let mut ids: Vec<u32> = Vec::new();
        for &(u, l) in boards {
            ids.extend([self.players[u].id, self.players[l].id]);
        }
        let pair = boards
            .iter()
            .map(|&(u, l)| {
                format!(
                    "{} v {}",
                    self.name(self.players[u].id),
                    self.name(self.players[l].id)
                )
            })
            .collect::<Vec<_>>()
            .join(" and ");
        if size > equ {
            let what = format!("{pair} switched from the planned opponents, {size} points > {equ}");
            self.flag("US Chess 29E5b", ids, what);
        } else if size > alt && self.unequal(&planned) <= self.unequal(boards) {
            let what = format!("{pair} switched for alternation, {size} points > {alt}");
            self.flag("US Chess 29E5a", ids, what);
        }
    }

    /// Players for whom 27A4 breaks over these games, colours by 29E4.
    fn unequal(&self, games: &[(usize, usize)]) -> usize {
        let mut k = 0;
        for &(a, b) in games {
            let (hi, lo) = (a.min(b), a.max(b));
            let white = self.white_of(hi, lo).unwrap_or(hi);
            let black = if white == hi { lo } else { hi };
            k += self.players[white].unequal_with(Colour::White) as usize;
            k += self.players[black].unequal_with(Colour::Black) as usize;
        }
        k
    }

    fn diff(&self, a: usize, b: usize) -> i64 {
        let (x, y) = (&self.players[a], &self.players[b]);
        if x.rated() && y.rated() {
            (i64::from(x.rating) - i64::from(y.rating)).abs()
        } else {
            0
        }
    }

    /// The planned games inside score groups: the bye (28L2) set aside, then from the top the
    /// odd players from above take the top of each group (29D2), the group's odd player is
    /// its lowest-rated rated player (29D1a), and the upper half meets the lower half (29C).
    fn plan(&self) -> BTreeMap<usize, usize> {
        let n = self.players.len();
        let mut bye = None;
        if n % 2 == 1 {
            let mut scores: Vec<i64> = self.players.iter().map(|q| q.score).collect();
            scores.dedup();
            let key = |i: usize| {
                let p = &self.players[i];
                let below = scores.iter().filter(|&&v| v < p.score).count();
                (p.bye_barred, below, !p.rated(), std::cmp::Reverse(i))
            };
            bye = (0..n).min_by_key(|&i| key(i));
        }
        let mut out = BTreeMap::new();
        let mut carry = 0usize;
        let mut i = 0;
        while i < n {
            let mut j = i;
            while j < n && self.players[j].score == self.players[i].score {
                j += 1;
            }
            let mut rest: Vec<usize> = (i..j).filter(|&k| Some(k) != bye).collect();
            let took = carry.min(rest.len());
            rest.drain(..took);
            carry -= took;
            if rest.len() % 2 == 1 {
                let at = rest
                    .iter()
                    .rposition(|&k| self.players[k].rated())
                    .unwrap_or(rest.len() - 1);
                rest.remove(at);
                carry += 1;
            }
            let h = rest.len() / 2;
            for k in 0..h {
                out.insert(rest[k], rest[h + k]);
                out.insert(rest[h + k], rest[k]);
            }
            i = j;
        }
        out
    }
}
