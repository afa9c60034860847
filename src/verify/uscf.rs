//! US Chess accelerated pairings (seed "USCF": batches, thirds, added score), checked one round
//! at a time against the document and the US Chess rules 27–29 it pairs "by standard methods". Groups, winners and batches are recomputed here from the document; nothing comes
//! from the model builder. Every rule string is written whole where it is checked (one grep
//! for `USCF thirds round 2 (b)` finds the system's tier and this check).
//!
//! | rule string | what is checked |
//! |---|---|
//! | rules 27–29 (`US Chess 27A1`, `29A`, `28L2`, `28L3`, `29E4`, `29E5a`, `29E5b`) | [`super::uscf_swiss`]'s checks with the score groups on the pairing score the document implies ("by standard methods"): round 1 each group a point above the next; round 2 batch (a) (the A winners) above batch (b) (the winners to serve, the highest-rated non-winners they need and at most one upfloater; the non-winners its upper half) above the rest on the real score; later rounds the real score; added score: the top half +1 in rounds 1–2 |
//! | `USCF groups` / `USCF thirds groups` | a player's `group` label A/B(/C) is his group by rating: A = the next even number at or above half the entry (121 → 62), thirds: A and B the even number nearest a third (ties down), C the rest |
//! | `USCF round 1` / `USCF thirds round 1` | games across the rating groups only as many as the groups' parities force |
//! | `USCF round 2 (a)` / `USCF thirds round 2 (a)` | A winners play each other; at most one leaves batch (a), and only when their number is odd; that downfloater is the lowest-rated unless a lower-rated A winner could have changed places with him with every colour settled |
//! | `USCF round 2 (b)` / `USCF thirds round 2 (b)` | every winner of B (C) and the downfloater plays an A (or B) non-winner while one is free in batch (c) (exchange test); at most one B (C) non-winner upfloats against a winner (when the non-winners plus one suffice); the non-winners used are the highest-rated (an exchange with one left to (c) that settles every colour is flagged); rating order is rules 27–29's plan, its switches checked with them |
//! | `USCF round 2 (c)` / `USCF thirds round 2 (c)` | the rest by score groups: two games between the same two score groups, with no winner, that could be exchanged into games inside the groups |
//! | `USCF added score` | stored virtual points for the round, if any, are 1 for the top half in rounds 1–2 and 0 otherwise; score groups on the pairing score (exchange test as above) |
//!
//! Readings: a winner has the points of a win after round 1 (a win, a forfeit win, a
//! full-point bye); late entries belong to the last group. "Colours settled" means both players
//! of each exchanged game get a colour they are due and at least one has a preference for it,
//! so the allocation rules give those colours: the exchange tests are sound, not complete.

use super::baku::{float_exchanges, labels, stored_points, Facts};
use super::dutch::state::{thousandths, Points};
use super::uscf_swiss;
use super::Violation;
use crate::tournament::Tournament;
use std::collections::{BTreeMap, BTreeSet};

/// Whether `id` has the points of a win after round 1 (a win, a forfeit win, a full-point
/// bye); `win` and scores in thousandths.
fn winner(f: &Facts, win: Points, id: u32) -> bool {
    f.sc(id) >= win
}

pub fn check_batches(t: &Tournament, r: u32) -> Vec<Violation> {
    Check::new(t, r, false).run()
}

pub fn check_thirds(t: &Tournament, r: u32) -> Vec<Violation> {
    Check::new(t, r, true).run()
}

/// Group index (0 = A) of every player, by rating order of the entry.
fn rating_groups(t: &Tournament, thirds: bool) -> (BTreeMap<u32, usize>, usize) {
    let mut entry: Vec<_> = t.players.iter().filter(|p| p.active_in(1)).collect();
    entry.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.number().cmp(&b.number())));
    let n = entry.len();
    let sizes: Vec<usize> = if thirds {
        // A and B: the even number nearest a third (ties to the smaller).
        let best = (0..=n / 2)
            .filter(|x| x % 2 == 0)
            .min_by_key(|&x| ((3 * x).abs_diff(n), x))
            .unwrap_or(0);
        vec![best, best, n - 2 * best]
    } else {
        // "rounded up to the next even number larger than 50%".
        let half = n.div_ceil(2);
        let a = (half + half % 2).min(n);
        vec![a, n - a]
    };
    let last = sizes.len() - 1;
    let mut out = BTreeMap::new();
    let mut g = 0;
    let mut left = sizes[0];
    for p in entry {
        while left == 0 && g < last {
            g += 1;
            left = sizes[g];
        }
        out.insert(p.id, g);
        left = left.saturating_sub(1);
    }
    for p in &t.players {
        out.entry(p.id).or_insert(last);
    }
    (out, last)
}

/// The added-score method.
pub fn check_added(t: &Tournament, r: u32) -> Vec<Violation> {
    const RULE: &str = "USCF added score";
    let f = Facts::new(t, r);
    let (group, _) = rating_groups(t, false);
    let add = if r <= 2 {
        thousandths(t.scoring.win)
    } else {
        0
    };
    let vp: BTreeMap<u32, Points> = group
        .iter()
        .map(|(&id, &g)| (id, if g == 0 { add } else { 0 }))
        .collect();
    // Rules 27–29 on the pairing score of the round (the points are not carried forward).
    let mut out =
        uscf_swiss::check_scored(t, r, &|id, s| s + vp.get(&id).copied().unwrap_or(0), &|_| 0);
    out.extend(labels(
        t,
        &f,
        &|id| Some(["A", "B"][group[&id]].to_string()),
        &["A", "B"],
        "USCF groups",
    ));
    out.extend(stored_points(t, &f, &vp, RULE));
    let ps = |id: u32| f.sc(id) + vp.get(&id).copied().unwrap_or(0);
    out.extend(float_exchanges(&f, &ps, &|_| false, RULE));
    out
}

struct Check<'a> {
    t: &'a Tournament,
    f: Facts,
    thirds: bool,
    group: BTreeMap<u32, usize>,
    last: usize,
    out: Vec<Violation>,
}

impl<'a> Check<'a> {
    fn new(t: &'a Tournament, r: u32, thirds: bool) -> Self {
        let (group, last) = rating_groups(t, thirds);
        Check {
            t,
            f: Facts::new(t, r),
            thirds,
            group,
            last,
            out: Vec::new(),
        }
    }

    /// The citation of this method, each a whole string so that a grep for the clause finds
    /// both its encoding in the system and this check.
    fn cite(&self, batches: &str, thirds: &str) -> String {
        if self.thirds { thirds } else { batches }.to_string()
    }

    fn g(&self, id: u32) -> usize {
        self.group.get(&id).copied().unwrap_or(self.last)
    }

    fn flag(&mut self, rule: &str, players: Vec<u32>, message: String) {
        let v = self.f.flag(rule, players, message);
        self.out.push(v);
    }

    fn run(mut self) -> Vec<Violation> {
        let r = self.f.r;
        let letters = ["A", "B", "C"];
        let labelled = labels(
            self.t,
            &self.f,
            &|id| Some(letters[self.g(id)].to_string()),
            if self.thirds {
                &["A", "B", "C"]
            } else {
                &["A", "B"]
            },
            &self.cite("USCF groups", "USCF thirds groups"),
        );
        self.out.extend(labelled);
        // Rules 27–29 inside the groups and batches: each its own score group.
        let (ps, side) = self.pairing_scores();
        let rulebook = uscf_swiss::check_scored(
            self.t,
            r,
            &|id, s| ps.get(&id).copied().unwrap_or(s),
            &|id| side.get(&id).copied().unwrap_or(0),
        );
        self.out.extend(rulebook);
        match r {
            1 => self.round_one(),
            2 => self.round_two(),
            _ => {}
        }
        self.out
    }

    /// The pairing score of every player of the round whose score group is not his real
    /// score: round 1, each group a point above the next ("pair groups A and B separately");
    /// round 2, batch (a) (the A winners) above batch (b) (the winners to serve with the
    /// highest-rated non-winners of the higher groups they need, one more for an odd batch
    /// (a)'s downfloater, and one upfloated non-winner of the last group when those are
    /// short) above the rest on the real score. With them, each player's side in batch (b):
    /// the non-winners (0), then the upfloater (1), are its upper half, the winners (2) its
    /// lower ("the non-winners in rating order ... with the winners in rating order").
    fn pairing_scores(&self) -> (BTreeMap<u32, Points>, BTreeMap<u32, u32>) {
        let win = thousandths(self.t.scoring.win);
        let r = self.f.r;
        let present = self.present();
        let mut out = BTreeMap::new();
        if r == 1 {
            for &id in &present {
                out.insert(id, (self.last - self.g(id)) as Points * win);
            }
        }
        if r != 2 {
            return (out, BTreeMap::new());
        }
        let f = &self.f;
        let won = |id: u32| winner(f, win, id);
        let mut by_rating = present.clone();
        by_rating.sort_by(|&a, &b| {
            f.rt(b)
                .cmp(&f.rt(a))
                .then(self.t.number_of(a).cmp(&self.t.number_of(b)))
        });
        let a_w: Vec<u32> = by_rating
            .iter()
            .copied()
            .filter(|&p| self.g(p) == 0 && won(p))
            .collect();
        let serve: Vec<u32> = by_rating
            .iter()
            .copied()
            .filter(|&p| self.g(p) > 0 && won(p))
            .collect();
        let nw: Vec<u32> = by_rating
            .iter()
            .copied()
            .filter(|&p| self.g(p) < self.last && !won(p))
            .collect();
        let mut pool: Vec<u32> = by_rating
            .iter()
            .copied()
            .filter(|&p| self.g(p) == self.last && !won(p))
            .collect();
        pool.sort_by_key(|&p| std::cmp::Reverse(f.sc(p)));
        let need = serve.len() + a_w.len() % 2;
        let mut b: Vec<u32> = serve.iter().chain(nw.iter().take(need)).copied().collect();
        if nw.len() < need {
            b.extend(pool.first());
        }
        out.extend(a_w.iter().map(|&id| (id, 3 * win)));
        out.extend(b.iter().map(|&id| (id, 2 * win)));
        let mut side: BTreeMap<u32, u32> = serve.iter().map(|&id| (id, 2)).collect();
        side.extend(pool.iter().map(|&id| (id, 1)));
        (out, side)
    }

    /// The players of the round: entered, not withdrawn, no requested bye.
    fn present(&self) -> Vec<u32> {
        let r = self.f.r;
        let requested: BTreeSet<u32> = self
            .t
            .round(r)
            .map(|x| x.requested_byes().map(|b| b.player).collect())
            .unwrap_or_default();
        self.t
            .players
            .iter()
            .filter(|p| p.active_in(r) && !requested.contains(&p.id))
            .map(|p| p.id)
            .collect()
    }

    /// Round 1: "pair groups A and B separately by standard methods".
    fn round_one(&mut self) {
        let mut size = vec![0usize; self.last + 1];
        for &(w, b) in &self.f.games {
            size[self.g(w)] += 1;
            size[self.g(b)] += 1;
        }
        let odd = size.iter().filter(|&&k| k % 2 == 1).count();
        let across: Vec<(u32, u32)> = self
            .f
            .games
            .iter()
            .copied()
            .filter(|&(w, b)| self.g(w) != self.g(b))
            .collect();
        if across.len() > odd / 2 {
            let list: Vec<String> = across.iter().map(|(w, b)| format!("{w} v {b}")).collect();
            let rule = self.cite("USCF round 1", "USCF thirds round 1");
            self.flag(
                &rule,
                across.iter().flat_map(|&(w, b)| [w, b]).collect(),
                format!(
                    "{} games join different rating groups ({}); the groups are paired separately and their sizes force at most {}",
                    across.len(),
                    list.join(", "),
                    odd / 2
                ),
            );
        }
    }

    /// Round 2: batch (a) the A winners, batch (b) the winners to serve against non-winners
    /// of the higher groups, batch (c) the rest by score groups.
    fn round_two(&mut self) {
        let b = self.batches();
        let mut found = self.batch_a(&b);
        found.extend(self.batch_b_opponents(&b));
        found.extend(self.batch_b_exchanges(&b));
        // Rating order inside (b) is rules 27–29's plan (non-winners the upper half, winners
        // the lower), its switches checked with them (29E5a, 29E5b) in `run`.
        for (rule, players, message) in found {
            self.flag(&rule, players, message);
        }
        // Batch (c): conventional score groups among the non-winners.
        let win = thousandths(self.t.scoring.win);
        let rule = self.cite("USCF round 2 (c)", "USCF thirds round 2 (c)");
        let f = &self.f;
        let c = float_exchanges(f, &|id| f.sc(id), &|id| winner(f, win, id), &rule);
        self.out.extend(c);
    }

    /// The players paired in round 2 by batch, from their groups and round 1's results.
    fn batches(&self) -> Batches {
        let win = thousandths(self.t.scoring.win);
        let f = &self.f;
        let won = |id: u32| winner(f, win, id);
        let paired: Vec<u32> = f.opp.keys().copied().collect();
        let among = |keep: &dyn Fn(u32) -> bool| -> BTreeSet<u32> {
            paired.iter().copied().filter(|&p| keep(p)).collect()
        };
        let aw = among(&|p| self.g(p) == 0 && won(p));
        let out_a: Vec<u32> = aw
            .iter()
            .copied()
            .filter(|&x| !aw.contains(&f.opp[&x].0))
            .collect();
        let wins = among(&|p| self.g(p) > 0 && won(p));
        let serve: BTreeSet<u32> = wins.iter().chain(&out_a).copied().collect();
        Batches {
            nw: among(&|p| self.g(p) < self.last && !won(p)),
            up: among(&|p| self.g(p) == self.last && !won(p)),
            aw,
            out_a,
            wins,
            serve,
        }
    }

    /// Batch (a): the A winners play each other; at most one leaves, only when they are odd,
    /// and he is the lowest-rated unless an exchange would not settle every colour.
    fn batch_a(&self, b: &Batches) -> Vec<Found> {
        let f = &self.f;
        let opp = |id: u32| f.opp[&id];
        let mut found = Vec::new();
        if b.out_a.len() > b.aw.len() % 2 {
            for (i, &x1) in b.out_a.iter().enumerate() {
                for &x2 in &b.out_a[i + 1..] {
                    let (o1, o2) = (opp(x1).0, opp(x2).0);
                    if f.may_meet(x1, x2) && f.may_meet(o1, o2) {
                        found.push((
                            self.cite("USCF round 2 (a)", "USCF thirds round 2 (a)"),
                            vec![x1, x2],
                            format!(
                                "A winners {x1} and {x2} both leave batch (a) (against {o1} and {o2}); {x1} v {x2} and {o1} v {o2} were possible, and only one of an odd batch floats down"
                            ),
                        ));
                    }
                }
            }
        }
        if let [x] = b.out_a[..] {
            let (ox, cx) = opp(x);
            for &y in &b.aw {
                let (z, cy) = opp(y);
                if y == x || z == x || !b.aw.contains(&z) || !f.above(x, y) {
                    continue;
                }
                if f.may_meet(y, ox)
                    && f.may_meet(x, z)
                    && f.settled(y, cx, ox)
                    && f.settled(x, cy, z)
                {
                    found.push((
                        self.cite("USCF round 2 (a)", "USCF thirds round 2 (a)"),
                        vec![x, y],
                        format!(
                            "the downfloater {x} ({}) is not the lowest-rated A winner: {y} ({}) could have floated against {ox} instead, with {x} v {z} and every colour as due",
                            f.rt(x),
                            f.rt(y)
                        ),
                    ));
                }
            }
        }
        found
    }

    /// Batch (b)'s opponents: every winner to serve plays a non-winner of the higher groups
    /// while one is free in batch (c); at most one non-winner of the last group upfloats.
    fn batch_b_opponents(&self, b: &Batches) -> Vec<Found> {
        let f = &self.f;
        let opp = |id: u32| f.opp[&id];
        let mut found = Vec::new();
        let ups = b.upfloats(f);
        for &z in &b.serve {
            let (o, _) = opp(z);
            if b.nw.contains(&o) {
                continue;
            }
            let free = b.nw.iter().copied().find(|&u| {
                let q = opp(u).0;
                b.in_c(f, u)
                    && f.may_meet(z, u)
                    && f.may_meet(o, q)
                    && !(b.wins.contains(&o) && b.up.contains(&q) && !ups.is_empty())
            });
            if let Some(u) = free {
                found.push((
                    self.cite("USCF round 2 (b)", "USCF thirds round 2 (b)"),
                    vec![z, o, u],
                    format!(
                        "winner {z} plays {o}, not a non-winner of the higher group, though {u} (left to batch (c) against {}) could have played him",
                        opp(u).0
                    ),
                ));
            }
        }
        let need = b.wins.len() + b.aw.len() % 2;
        if ups.len() > 1 && b.nw.len() + 1 >= need {
            found.push((
                self.cite("USCF round 2 (b)", "USCF thirds round 2 (b)"),
                ups.iter().flat_map(|&(z, o)| [z, o]).collect(),
                format!(
                    "{} non-winners of the last group upfloat against winners; at most one may",
                    ups.len()
                ),
            ));
        }
        found
    }

    /// Batch (b)'s non-winners are the highest-rated: one playing a winner while a
    /// higher-rated one is left to batch (c) is flagged when exchanging them settles every
    /// colour.
    fn batch_b_exchanges(&self, b: &Batches) -> Vec<Found> {
        let f = &self.f;
        let opp = |id: u32| f.opp[&id];
        let mut found = Vec::new();
        // (b) pairs: a winner to serve against a non-winner (or the upfloater).
        let bpairs: Vec<(u32, u32)> = b
            .serve
            .iter()
            .map(|&z| (z, opp(z).0))
            .filter(|&(_, v)| b.nw.contains(&v) || b.up.contains(&v))
            .collect();
        for &(z, v) in &bpairs {
            if !b.nw.contains(&v) {
                continue;
            }
            let cv = opp(v).1;
            for &u in &b.nw {
                let (q, cu) = opp(u);
                if b.in_c(f, u)
                    && f.above(u, v)
                    && f.may_meet(u, z)
                    && f.may_meet(v, q)
                    && f.settled(u, cv, z)
                    && f.settled(v, cu, q)
                {
                    found.push((
                        self.cite("USCF round 2 (b)", "USCF thirds round 2 (b)"),
                        vec![z, v, u],
                        format!(
                            "{v} ({}) plays winner {z} while the higher-rated non-winner {u} ({}) is left to batch (c); exchanging them settles every colour",
                            f.rt(v),
                            f.rt(u)
                        ),
                    ));
                    break;
                }
            }
        }
        found
    }
}

/// A finding of round 2's checks: the rule, the players, the message.
type Found = (String, Vec<u32>, String);

/// Round 2's players by batch: the A winners (batch (a)) and those of them who play outside
/// it, the winners of the lower groups, the winners to serve in batch (b) (those and the
/// downfloater), the non-winners of the higher groups and of the last.
struct Batches {
    aw: BTreeSet<u32>,
    out_a: Vec<u32>,
    wins: BTreeSet<u32>,
    serve: BTreeSet<u32>,
    nw: BTreeSet<u32>,
    up: BTreeSet<u32>,
}

impl Batches {
    /// Whether `u` plays in batch (c): his opponent is neither a winner to serve nor an A
    /// winner.
    fn in_c(&self, f: &Facts, u: u32) -> bool {
        let q = f.opp[&u].0;
        !self.serve.contains(&q) && !self.aw.contains(&q)
    }

    /// The winners to serve who play a non-winner of the last group, with him.
    fn upfloats(&self, f: &Facts) -> Vec<(u32, u32)> {
        self.serve
            .iter()
            .map(|&z| (z, f.opp[&z].0))
            .filter(|&(_, o)| self.up.contains(&o))
            .collect()
    }
}
