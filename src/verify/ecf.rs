//! ECF accelerated pairings (Basic and Advanced), checked one round at a time. The seeded
//! (grading-based) Swiss rules underneath are the standard checks of [`super::swiss`]; this
//! module adds the document's clauses, computed here from the tournament's facts with code of
//! its own (nothing from the model builder).
//!
//! Every rule string is written whole where it is checked (one grep for `ECF basic 4(b)`
//! finds the system's tier and this check).
//!
//! | rule string | what is checked |
//! |---|---|
//! | `ECF basic 1` / `ECF advanced 1` | a player's `group` label, when given as A–D, is his quarter by rating order |
//! | `ECF basic 2` / `ECF advanced 2` | round 1: games are A v B and C v D (quarter pairs, in rating order), the bye (odd bottom half) to the last of D; board 1's colour as set (or by lot), then alternating |
//! | `ECF basic 3(b)` / `ECF advanced 3(b)` (round 2), `ECF basic 4(b)` / `ECF advanced 4(b)` (later) | a bottom-half leader (100%) does not meet a top-half player although an exchange with a free top-half player ½ or 1 point behind would give him one; the top-half partners are the highest-rated available due the colour (exchange test), paired in grading order |
//! | `ECF basic 6` / `ECF advanced 6` | a top-half leader meets a bottom-half leader only when the bottom-half leaders outnumber the top-half players left for group (b), and only one (the floater of an odd top group): two such pairs whose top-half players could meet each other are flagged; the floater takes the highest-rated bottom-half leader due the colour (exchange test); a floater from the top-half leaders meets a top-half player half a point behind when one is free |
//! | `ECF advanced 3(d)` | a bottom-half player half a point behind meets a top-half player a point behind when an exchange would allow it |
//! | `ECF advanced 7` | promotion (bottom-half ½-behind v top-half ½-behind) only when no (b) pair with a top-half player a point behind could be substituted from; the highest-rated bottom-half players are the ones promoted |
//! | `ECF basic 3(c)-(d)` (round 2), `ECF basic 4(c)` (accelerated), `ECF basic 5` (after), each also `ECF advanced …` | score groups: two pairs that both cross the same two score groups could be exchanged into two pairs within the groups (a rematch-free, colour-compatible exchange) |
//!
//! Readings: the lead is 100% (`(round − 1) ×` the most points a round gives); "half a point"
//! is the scoring's draw value, "a point" its win value. Acceleration (rounds ≥ 2) continues
//! while some bottom-half player is on 100% (Advanced: within half a point of it) and more than
//! two rounds are left; with `ecf.accelerated_rounds = k` Basic accelerates rounds `1..=k`,
//! Advanced stops at the first of the three conditions (ECF advanced 4). An exchange test
//! flags only what a two-pair exchange without rematch and without giving a player with an
//! absolute colour preference the other colour would have improved: sound, not complete.
//!
//! Why one long file: one check per clause of both ECF documents over the same recomputed
//! groups, kept apart from model building on purpose.

use super::dutch::state::{show, thousandths, Points};
use super::swiss::{self, preference, Strength};
use super::Violation;
use crate::tournament::{ByeKind, Colour, Standings, Tournament};
use std::collections::{BTreeMap, BTreeSet};

pub fn check_basic(t: &Tournament, round: u32) -> Vec<Violation> {
    Check::new(t, round, false).run()
}

pub fn check_advanced(t: &Tournament, round: u32) -> Vec<Violation> {
    Check::new(t, round, true).run()
}

fn num(t: &Tournament, key: &str) -> Option<f64> {
    t.settings.get(key).and_then(|v| v.as_f64())
}

/// The groups of an accelerated round (rounds 2 on), recomputed from the scores.
struct Groups {
    /// The lead, 100%: the most points of the rounds played (thousandths, as all below).
    m: Points,
    /// Half a point: the scoring's draw value.
    half: Points,
    /// A point: the scoring's win value.
    win: Points,
    /// Bottom-half players on 100%.
    leaders: Vec<u32>,
    /// Bottom-half players half a point behind (Advanced only).
    halves: Vec<u32>,
    /// Top-half players half a point or a point behind: the partners of group (b).
    pool: Vec<u32>,
    /// Top-half players on 100%: group (a).
    ta: Vec<u32>,
    /// The (b) pairs: a bottom-half leader and his pool partner.
    bpairs: Vec<(u32, u32)>,
    /// The players of the (b) pairs.
    in_b: BTreeSet<u32>,
}

struct Check<'a> {
    t: &'a Tournament,
    r: u32,
    adv: bool,
    /// Entry in rating order.
    order: Vec<u32>,
    quarter: BTreeMap<u32, char>,
    rating: BTreeMap<u32, u32>,
    /// Pairing numbers: equal ratings rank by them.
    number: BTreeMap<u32, u32>,
    /// Real points before the round, in thousandths: scores are compared exactly.
    score: BTreeMap<u32, Points>,
    colours: BTreeMap<u32, Vec<Colour>>,
    met: BTreeMap<u32, BTreeSet<u32>>,
    /// Opponent and colour in this round.
    opp: BTreeMap<u32, (u32, Colour)>,
    games: Vec<(u32, u32)>,
    pab: Vec<u32>,
    out: Vec<Violation>,
}

impl<'a> Check<'a> {
    fn new(t: &'a Tournament, r: u32, adv: bool) -> Self {
        let mut entry: Vec<_> = t.players.iter().filter(|p| p.active_in(1)).collect();
        entry.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.number().cmp(&b.number())));
        let n = entry.len();
        let top = if adv {
            // ECF advanced 1: an even number between 56% and 60% of the entry.
            let lo = (n * 56).div_ceil(100);
            let hi = n * 60 / 100;
            if let Some(k) = num(t, "ecf.top_half") {
                k as usize
            } else {
                let target = num(t, "ecf.top_half_percent").unwrap_or(58.0) * n as f64 / 100.0;
                let pick = |lo: usize, hi: usize| {
                    let mut best: Option<usize> = None;
                    for k in (lo..=hi).filter(|k| k % 2 == 0) {
                        let better = best.is_none_or(|b| {
                            // A share of the entry, not a score: real-valued.
                            (k as f64 - target).abs() < (b as f64 - target).abs() - 1e-9
                        });
                        if better {
                            best = Some(k);
                        }
                    }
                    best
                };
                pick(lo, hi).or_else(|| pick(0, n)).unwrap_or(0)
            }
        } else {
            // ECF basic 1: quarters; remainder 1 or 2: top half +2; 3: top +2, bottom +1.
            let base = n / 4 * 2;
            let top = if n % 4 == 0 { base } else { base + 2 };
            top.min(n / 2 * 2)
        };
        let bottom = n - top;
        let mut quarter = BTreeMap::new();
        for (i, p) in entry.iter().enumerate() {
            let q = match i {
                i if i < top / 2 => 'A',
                i if i < top => 'B',
                i if i < top + bottom / 2 => 'C',
                _ => 'D',
            };
            quarter.insert(p.id, q);
        }
        let st = Standings::before(t, r);
        let mut score = BTreeMap::new();
        let mut colours = BTreeMap::new();
        let mut met = BTreeMap::new();
        let mut rating = BTreeMap::new();
        let mut number = BTreeMap::new();
        for p in &t.players {
            rating.insert(p.id, p.rating);
            number.insert(p.id, p.number());
            if let Some(s) = st.get(p.id) {
                score.insert(p.id, thousandths(s.score));
                colours.insert(p.id, s.played_colours());
                met.insert(p.id, s.barred());
            }
        }
        let mut opp = BTreeMap::new();
        let mut games = Vec::new();
        let mut pab = Vec::new();
        if let Some(rd) = t.round(r) {
            for g in &rd.games {
                opp.insert(g.white, (g.black, Colour::White));
                opp.insert(g.black, (g.white, Colour::Black));
                games.push((g.white, g.black));
            }
            pab = rd
                .byes
                .iter()
                .filter(|b| b.kind == ByeKind::PairingAllocated)
                .map(|b| b.player)
                .collect();
        }
        Check {
            t,
            r,
            adv,
            order: entry.iter().map(|p| p.id).collect(),
            quarter,
            rating,
            number,
            score,
            colours,
            met,
            opp,
            games,
            pab,
            out: Vec::new(),
        }
    }

    /// The citation of this variant, each a whole string so that a grep for the clause finds
    /// both its encoding in the system and this check.
    fn cite(&self, basic: &str, advanced: &str) -> String {
        if self.adv { advanced } else { basic }.to_string()
    }

    fn flag(&mut self, rule: String, players: Vec<u32>, message: String) {
        self.out.push(Violation {
            round: self.r,
            players,
            message: format!("round {}: {message} — {rule}", self.r),
            rule,
        });
    }

    fn top(&self, id: u32) -> bool {
        matches!(self.quarter.get(&id), Some('A' | 'B'))
    }

    fn sc(&self, id: u32) -> Points {
        self.score.get(&id).copied().unwrap_or(0)
    }

    fn rt(&self, id: u32) -> u32 {
        self.rating.get(&id).copied().unwrap_or(0)
    }

    /// Rated above: higher rating, then lower pairing number.
    fn above(&self, a: u32, b: u32) -> bool {
        let n = |id: u32| std::cmp::Reverse(self.number.get(&id).copied().unwrap_or(id));
        (self.rt(a), n(a)) > (self.rt(b), n(b))
    }

    fn absolute(&self, id: u32) -> Option<Colour> {
        preference(self.colours.get(&id).map(|v| v.as_slice()).unwrap_or(&[]))
            .filter(|p| p.strength == Strength::Absolute)
            .map(|p| p.colour)
    }

    /// May `a` and `b` meet: no rematch, not the same absolute colour preference.
    fn may_meet(&self, a: u32, b: u32) -> bool {
        if a == b || self.met.get(&a).is_some_and(|m| m.contains(&b)) {
            return false;
        }
        !matches!((self.absolute(a), self.absolute(b)), (Some(x), Some(y)) if x == y)
    }

    /// `p` is due colour `c`: no colour preference, or a preference for `c` (any strength).
    fn due(&self, p: u32, c: Colour) -> bool {
        preference(self.colours.get(&p).map(|v| v.as_slice()).unwrap_or(&[]))
            .is_none_or(|pr| pr.colour == c)
    }

    fn run(mut self) -> Vec<Violation> {
        let base = swiss::check_round(self.t, self.r);
        for v in base {
            // Round 1 colours and bye follow ECF basic 2, not the Dutch E.5 / lowest-ranked.
            let skip = self.r == 1
                && (v.rule == swiss::ALLOCATION
                    || v.rule == swiss::BYE_RANK
                    || v.rule == swiss::BYE_GROUP);
            if !skip {
                self.out.push(v);
            }
        }
        self.check_labels();
        if self.r == 1 {
            self.check_round_one();
            return self.out;
        }
        let g = self.groups();
        let (on, why) = self.accelerating(g.leaders.len() + g.halves.len());
        if !on {
            self.check_stopped(g.m, g.half, &why);
            let rule = self.cite("ECF basic 5", "ECF advanced 5");
            self.check_floats(&BTreeSet::new(), rule);
            return self.out;
        }
        self.check_accelerated(&g, &why);
        self.out
    }

    /// Is `p`'s score `v`.
    fn near(&self, p: u32, v: Points) -> bool {
        self.sc(p) == v
    }

    /// The round's accelerated groups, recomputed from the scores and the pairing.
    fn groups(&self) -> Groups {
        let m = thousandths(self.t.scoring.max_per_round() * f64::from(self.r - 1));
        let half = thousandths(self.t.scoring.draw);
        let win = thousandths(self.t.scoring.win);
        let paired: Vec<u32> = self.opp.keys().copied().collect();
        let leaders: Vec<u32> = paired
            .iter()
            .chain(&self.pab)
            .copied()
            .filter(|&p| !self.top(p) && self.sc(p) >= m)
            .collect();
        let halves: Vec<u32> = paired
            .iter()
            .chain(&self.pab)
            .copied()
            .filter(|&p| self.adv && !self.top(p) && self.sc(p) == m - half)
            .collect();
        let pool: Vec<u32> = paired
            .iter()
            .copied()
            .filter(|&p| self.top(p) && (self.near(p, m - half) || self.near(p, m - win)))
            .collect();
        let ta: Vec<u32> = paired
            .iter()
            .copied()
            .filter(|&p| self.top(p) && self.sc(p) >= m)
            .collect();
        // (b) pairs: bottom leader v pool player.
        let bpairs: Vec<(u32, u32)> = leaders
            .iter()
            .filter_map(|&l| self.opp.get(&l).map(|&(o, _)| (l, o)))
            .filter(|&(_, o)| pool.contains(&o))
            .collect();
        let in_b: BTreeSet<u32> = bpairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        Groups {
            m,
            half,
            win,
            leaders,
            halves,
            pool,
            ta,
            bpairs,
            in_b,
        }
    }

    /// Every clause of an accelerated round, in the documents' order; `why` says why
    /// acceleration continues.
    fn check_accelerated(&mut self, g: &Groups, why: &str) {
        let bclause = if self.r == 2 {
            self.cite("ECF basic 3(b)", "ECF advanced 3(b)")
        } else {
            self.cite("ECF basic 4(b)", "ECF advanced 4(b)")
        };
        let mut missed = self.check_b_missed(g, &bclause);
        self.check_b_partners(g, &bclause);
        // Grading order of the (b) pairs; Advanced 7 places substitutes from the bottom up.
        let (place, subs) = self.placement(g.m, g.half, g.win, &g.bpairs, &g.halves);
        self.check_b_order(g, &bclause, &place, &subs);
        let six = self.check_six(g);
        self.check_six_floater(g, &six);
        self.check_group_a(g);
        self.check_a_floater(g);
        let mut accel: BTreeSet<u32> = g.in_b.clone();
        accel.extend(g.leaders.iter().copied());
        accel.extend(g.ta.iter().copied());
        let mut d_pairs = 0;
        if self.adv {
            let (d, miss) = self.check_advanced(g, &subs);
            d_pairs = d;
            missed += miss;
            accel.extend(g.halves.iter().copied());
            for &h in &g.halves {
                if let Some(&(o, _)) = self.opp.get(&h) {
                    accel.insert(o);
                }
            }
        }
        // ECF basic 4 / advanced 4: acceleration continues, yet nobody was paired as it asks.
        if g.bpairs.is_empty() && d_pairs == 0 && missed > 0 {
            let mut who: Vec<u32> = g.leaders.iter().chain(&g.halves).copied().collect();
            who.sort_unstable();
            self.flag(
                self.cite("ECF basic 4", "ECF advanced 4"),
                who,
                format!(
                    "acceleration should continue ({why}), but the round is paired in plain score groups"
                ),
            );
        }
        // The remaining players: 3(c)-(d) in round 2, 4(c) afterwards.
        let rest = if self.r == 2 {
            self.cite("ECF basic 3(c)-(d)", "ECF advanced 3(c)-(d)")
        } else {
            self.cite("ECF basic 4(c)", "ECF advanced 4(c)")
        };
        self.check_floats(&accel, rest);
    }

    /// 3(b)/4(b): a leader without a top-half opponent though a pool player is free. Returns
    /// how many.
    fn check_b_missed(&mut self, g: &Groups, bclause: &str) -> usize {
        let mut missed = 0;
        for &l in &g.leaders {
            let Some(&(x, _)) = self.opp.get(&l) else {
                continue;
            };
            if self.top(x) && (g.pool.contains(&x) || g.ta.contains(&x)) {
                continue;
            }
            let free = g.pool.iter().copied().find(|&p| {
                !g.in_b.contains(&p)
                    && self.may_meet(l, p)
                    && self
                        .opp
                        .get(&p)
                        .is_some_and(|&(y, _)| y != l && self.may_meet(x, y))
            });
            if let Some(p) = free {
                missed += 1;
                self.flag(
                    bclause.to_string(),
                    vec![l, x, p],
                    format!(
                        "bottom-half leader {l} plays {x}, not a top-half player, though top-half {p} (score {}) was free to play him",
                        show(self.sc(p))
                    ),
                );
            }
        }
        missed
    }

    /// 3(b)/4(b): the (b) partners are the highest-rated available, due the colour.
    fn check_b_partners(&mut self, g: &Groups, bclause: &str) {
        let (m, half) = (g.m, g.half);
        for &(l, p) in &g.bpairs {
            let cp = self.opp[&p].1;
            let p_half = self.near(p, m - half);
            // A pool player taken by the floater from the top-half leaders (ECF basic 6,
            // group (a) before (b)) is not available.
            let better = g.pool.iter().copied().find(|&q| {
                !g.in_b.contains(&q)
                    && !self.opp.get(&q).is_some_and(|&(o, _)| g.ta.contains(&o))
                    // Advanced 7: a top-half 0 freed for a bottom-half ½ (3(d)) by substituting a
                    // top-half ½ for him is not available either; but the substitution works up
                    // from the bottom, so he outranks any 0 kept in (b).
                    && (!p_half || !self.opp.get(&q).is_some_and(|&(o, _)| g.halves.contains(&o)))
                    && self.above(q, p)
                    && self.may_meet(l, q)
                    && {
                        let (y, cq) = self.opp[&q];
                        self.may_meet(p, y) && self.due(q, cp) && self.due(p, cq)
                    }
            });
            if let Some(q) = better {
                self.flag(
                    bclause.to_string(),
                    vec![l, p, q],
                    format!(
                        "bottom-half leader {l} plays top-half {p} ({}), but the higher-rated top-half {q} ({}) was available and due the same colour",
                        self.rt(p),
                        self.rt(q)
                    ),
                );
            }
        }
    }

    /// 3(b)/4(b) and Advanced 7: the (b) pairs in grading order, given each partner's `place`
    /// and the substitutes `subs`.
    fn check_b_order(
        &mut self,
        g: &Groups,
        bclause: &str,
        place: &BTreeMap<u32, usize>,
        subs: &BTreeSet<u32>,
    ) {
        let bpairs = &g.bpairs;
        for i in 0..bpairs.len() {
            for j in 0..bpairs.len() {
                let ((l1, p1), (l2, p2)) = (bpairs[i], bpairs[j]);
                if i != j
                    && self.above(l1, l2)
                    && place[&p1] > place[&p2]
                    && self.opp[&p1].1 == self.opp[&p2].1
                    && self.may_meet(l1, p2)
                    && self.may_meet(l2, p1)
                {
                    if subs.contains(&p1) || subs.contains(&p2) {
                        self.flag(
                            "ECF advanced 7".into(),
                            vec![l1, p1, l2, p2],
                            format!(
                                "working up from the bottom of the (b) pairs, the substitutes go to the lowest pairs first: {l1} should play {p2} and {l2} {p1}"
                            ),
                        );
                    } else {
                        self.flag(
                            bclause.to_string(),
                            vec![l1, p1, l2, p2],
                            format!(
                                "bottom-half leaders are not paired in grading order: {l1} plays {p1} while the lower-rated {l2} plays the higher-rated {p2}"
                            ),
                        );
                    }
                }
            }
        }
    }

    /// Rule 6: a top-half leader meets a bottom-half leader only when the bottom-half leaders
    /// outnumber the pool, and only the one floater. Returns those (top, bottom) pairs.
    fn check_six(&mut self, g: &Groups) -> Vec<(u32, u32)> {
        let (leaders, pool, ta) = (&g.leaders, &g.pool, &g.ta);
        let floater_takes = (ta.len() % 2 == 1) as usize;
        for &l in leaders {
            let Some(&(x, _)) = self.opp.get(&l) else {
                continue;
            };
            if ta.contains(&x) && leaders.len() + floater_takes <= pool.len() {
                self.flag(
                    self.cite("ECF basic 6", "ECF advanced 6"),
                    vec![x, l],
                    format!(
                        "top-half leader {x} plays bottom-half leader {l}, but the {} bottom-half leaders do not outnumber the {} top-half players left for group (b)",
                        leaders.len(),
                        pool.len() - floater_takes
                    ),
                );
            }
        }
        // Only the one floater of an odd top score group meets a bottom-half leader; further
        // top-half leaders are not sent down (two such could have met each other instead).
        let six: Vec<(u32, u32)> = ta
            .iter()
            .filter_map(|&a| self.opp.get(&a).map(|&(o, _)| (a, o)))
            .filter(|&(_, o)| leaders.contains(&o))
            .collect();
        for i in 0..six.len() {
            for j in i + 1..six.len() {
                let ((a1, l1), (a2, l2)) = (six[i], six[j]);
                if self.may_meet(a1, a2) && self.may_meet(l1, l2) {
                    self.flag(
                        self.cite("ECF basic 6", "ECF advanced 6"),
                        vec![a1, l1, a2, l2],
                        format!(
                            "top-half leaders {a1} and {a2} both play bottom-half leaders ({l1}, {l2}); only the one floater of an odd top score group may, and {a1} v {a2} was possible"
                        ),
                    );
                }
            }
        }
        six
    }

    /// Rule 6: the floater takes the highest-rated bottom-half leader of the appropriate
    /// colour.
    fn check_six_floater(&mut self, g: &Groups, six: &[(u32, u32)]) {
        for &(a, l) in six {
            let cl = self.opp[&l].1;
            let better = g.leaders.iter().copied().find(|&l2| {
                self.above(l2, l)
                    && self.opp.get(&l2).is_some_and(|&(y, c2)| {
                        !g.ta.contains(&y)
                            && self.may_meet(a, l2)
                            && self.may_meet(l, y)
                            && self.due(l2, cl)
                            && self.due(l, c2)
                    })
            });
            if let Some(l2) = better {
                self.flag(
                    self.cite("ECF basic 6", "ECF advanced 6"),
                    vec![a, l, l2],
                    format!(
                        "the floater {a} from the top-half leaders plays bottom-half leader {l} ({}), but the higher-rated bottom-half leader {l2} ({}) was available and due the same colour",
                        self.rt(l),
                        self.rt(l2)
                    ),
                );
            }
        }
    }

    /// 3(a)/4(a): group (a) is closed but for the one floater of an odd group (and rule 6's
    /// break, checked above): two top-half leaders paired outside it who could have met
    /// each other, their opponents meeting each other too.
    fn check_group_a(&mut self, g: &Groups) {
        let aclause = if self.r == 2 {
            self.cite("ECF basic 3(a)", "ECF advanced 3(a)")
        } else {
            self.cite("ECF basic 4(a)", "ECF advanced 4(a)")
        };
        let out_a: Vec<(u32, u32)> =
            g.ta.iter()
                .filter_map(|&a| self.opp.get(&a).map(|&(o, _)| (a, o)))
                .filter(|&(_, o)| !g.ta.contains(&o))
                .collect();
        for i in 0..out_a.len() {
            for j in i + 1..out_a.len() {
                let ((a1, o1), (a2, o2)) = (out_a[i], out_a[j]);
                if g.leaders.contains(&o1) && g.leaders.contains(&o2) {
                    continue; // flagged under rule 6 above
                }
                if self.may_meet(a1, a2) && self.may_meet(o1, o2) {
                    self.flag(
                        aclause.clone(),
                        vec![a1, o1, a2, o2],
                        format!(
                            "group (a), the top-half players on 100%, is paired within itself but for one floater: {a1} plays {o1} and {a2} plays {o2}, though {a1} v {a2} and {o1} v {o2} were possible"
                        ),
                    );
                }
            }
        }
    }

    /// Rule 6: a floater from the top-half leaders meets a top-half player half a point
    /// behind when one is free, the highest-rated due the colour.
    fn check_a_floater(&mut self, g: &Groups) {
        let (m, half) = (g.m, g.half);
        for &a in &g.ta {
            // `cy` is a's colour (y has the other one).
            let Some(&(y, cy)) = self.opp.get(&a) else {
                continue;
            };
            if g.leaders.contains(&y) || self.sc(y) >= m {
                continue;
            }
            if self.top(y) && self.near(y, m - half) {
                // ECF 6: "the highest rated top half player who is a half point behind and is
                // due the appropriate colour" - group (a) is paired before (b), so a (b)
                // partner is not out of reach.
                let better = g.pool.iter().copied().find(|&z| {
                    self.near(z, m - half)
                        && self.above(z, y)
                        && self.may_meet(a, z)
                        && self.opp.get(&z).is_some_and(|&(w, cz)| {
                            w != a
                                && !g.ta.contains(&w)
                                && self.may_meet(y, w)
                                && self.due(z, cy.opposite())
                                && self.due(y, cz)
                                && self.due(a, cy)
                                && self.due(w, cz.opposite())
                        })
                });
                if let Some(z) = better {
                    self.flag(
                        self.cite("ECF basic 6", "ECF advanced 6"),
                        vec![a, y, z],
                        format!(
                            "the floater {a} from the top-half leaders plays {y} ({}), but the higher-rated top-half {z} ({}), also half a point behind, was due the same colour",
                            self.rt(y),
                            self.rt(z)
                        ),
                    );
                }
                continue;
            }
            let free = g.pool.iter().copied().find(|&z| {
                self.near(z, m - half)
                    && !g.in_b.contains(&z)
                    && self.may_meet(a, z)
                    && self
                        .opp
                        .get(&z)
                        .is_some_and(|&(w, _)| w != a && self.may_meet(y, w))
            });
            if let Some(z) = free {
                self.flag(
                    self.cite("ECF basic 6", "ECF advanced 6"),
                    vec![a, y, z],
                    format!(
                        "the floater {a} from the top-half leaders plays {y}, though top-half {z} half a point behind was free"
                    ),
                );
            }
        }
    }

    /// The place of each (b) partner in grading order. Basic: rating order. Advanced 7: the
    /// first (b) selection is the highest-rated of the (b) partners and the top-half 0's now
    /// facing bottom-half ½'s, as many as there are (b) pairs; a top-half ½ partner outside it
    /// is a substitute and takes the place of a 0 of that selection now in (d), working up from
    /// the bottom: the lowest such 0's place goes to the highest-rated substitute (given the
    /// colour that 0 was due, if any is). Returns the places and the substitutes.
    fn placement(
        &self,
        m: Points,
        half: Points,
        win: Points,
        bpairs: &[(u32, u32)],
        halves: &[u32],
    ) -> (BTreeMap<u32, usize>, BTreeSet<u32>) {
        let by_rating =
            |v: &mut Vec<u32>| v.sort_by(|&a, &b| self.above(b, a).cmp(&self.above(a, b)));
        let mut partners: Vec<u32> = bpairs.iter().map(|&(_, p)| p).collect();
        by_rating(&mut partners);
        let near = |p: u32, v: Points| self.sc(p) == v;
        let mut place = BTreeMap::new();
        if !self.adv {
            for (k, &p) in partners.iter().enumerate() {
                place.insert(p, k);
            }
            return (place, BTreeSet::new());
        }
        let freed: Vec<u32> = halves
            .iter()
            .filter_map(|h| self.opp.get(h).map(|&(o, _)| o))
            .filter(|&o| self.top(o) && near(o, m - win))
            .collect();
        // The first selection (ECF advanced 3(b), "taking account of colour requirements"):
        // the (b) leaders in grading order, each taking the highest-rated of them left who is
        // due the other colour (else the highest-rated left).
        let mut cands: Vec<u32> = partners.iter().chain(&freed).copied().collect();
        by_rating(&mut cands);
        let mut leaders: Vec<u32> = bpairs.iter().map(|&(l, _)| l).collect();
        by_rating(&mut leaders);
        let pref = |p: u32| {
            preference(self.colours.get(&p).map(|v| v.as_slice()).unwrap_or(&[])).map(|x| x.colour)
        };
        let fits = |a: u32, b: u32| pref(a).is_none() || pref(b).is_none() || pref(a) != pref(b);
        let mut first: Vec<u32> = Vec::new();
        for &l in &leaders {
            let k = cands.iter().position(|&c| fits(l, c)).unwrap_or(0);
            if k < cands.len() {
                first.push(cands.remove(k));
            }
        }
        // Rule 7's count: without a shortfall of top-half 0's there is no substitute.
        let zeros_left = self
            .opp
            .keys()
            .filter(|&&z| self.top(z) && near(z, m - win) && !first.contains(&z))
            .count();
        let short = halves.len() > zeros_left;
        let subs: Vec<u32> = partners
            .iter()
            .copied()
            .filter(|p| short && !first.contains(p) && near(*p, m - half))
            .collect();
        if !short {
            for (k, &p) in partners.iter().enumerate() {
                place.insert(p, k);
            }
            return (place, BTreeSet::new());
        }
        // Places are rating order over the first selection and the (b) partners; a substitute
        // then takes the place of the 0 he replaced.
        let mut all: Vec<u32> = first.iter().chain(&partners).copied().collect();
        by_rating(&mut all);
        all.dedup();
        for (k, &p) in all.iter().enumerate() {
            place.insert(p, k);
        }
        // Working up from the bottom: a 0 of the first selection now out of (b) gave way to
        // the highest-rated substitute "of the appropriate colour" (due the same colour); 0's
        // left without one (no ½ due that colour: rule 7 substitutes before it promotes) go to
        // the highest-rated substitutes left, again from the bottom up.
        let mut left = subs.clone();
        let mut open = Vec::new();
        for &z in first.iter().rev().filter(|z| !partners.contains(z)) {
            match left.iter().position(|&s| pref(s) == pref(z)) {
                Some(k) => {
                    place.insert(left.remove(k), place[&z]);
                }
                None => open.push(z),
            }
        }
        for z in open {
            if !left.is_empty() {
                place.insert(left.remove(0), place[&z]);
            }
        }
        (place, subs.into_iter().collect())
    }

    /// The Advanced clauses on the bottom-half players half a point behind (3(d), 6's second
    /// sentence, 7), given the substitutes `subs`. Returns the (d) pairs and the players missed.
    fn check_advanced(&mut self, g: &Groups, subs: &BTreeSet<u32>) -> (usize, usize) {
        let (m, win) = (g.m, g.win);
        // Top-half players a point behind.
        let q: Vec<u32> = self
            .opp
            .keys()
            .copied()
            .filter(|&p| self.top(p) && self.near(p, m - win))
            .collect();
        let in_d: BTreeSet<u32> = g
            .halves
            .iter()
            .filter_map(|&h| self.opp.get(&h).map(|&(o, _)| (h, o)))
            .filter(|&(_, o)| q.contains(&o))
            .flat_map(|(h, o)| [h, o])
            .collect();
        let missed = self.check_halves(g, &q, &in_d);
        self.check_c_floater(g, &q);
        self.check_spare(g, &q, &in_d, subs);
        (in_d.len() / 2, missed)
    }

    /// 3(d) and 7: each bottom-half ½ meets a top-half 0 when an exchange or a substitution
    /// allows it (`q` the top-half 0's, `in_d` the (d) pairs). Returns the players missed.
    fn check_halves(&mut self, g: &Groups, q: &[u32], in_d: &BTreeSet<u32>) -> usize {
        let (m, half, win) = (g.m, g.half, g.win);
        let mut missed = 0;
        for &h in &g.halves {
            let Some(&(x, _)) = self.opp.get(&h) else {
                continue;
            };
            if self.top(x) && self.sc(x) < m {
                if self.near(x, m - half) {
                    self.check_promotion(g, h, x);
                }
                continue;
            }
            let free = q.iter().copied().find(|&p| {
                !g.in_b.contains(&p)
                    && !in_d.contains(&p)
                    && self.may_meet(h, p)
                    && self
                        .opp
                        .get(&p)
                        .is_some_and(|&(y, _)| y != h && self.may_meet(x, y))
            });
            if let Some(p) = free {
                missed += 1;
                self.flag(
                    "ECF advanced 3(d)".into(),
                    vec![h, x, p],
                    format!(
                        "bottom-half {h}, half a point behind the lead, plays {x}, though top-half {p} (a point behind) was free to play him"
                    ),
                );
                continue;
            }
            if self.top(x) {
                continue;
            }
            // ECF advanced 7: too few top-half 0's, yet no substitution: a 0 in a (b) pair
            // could have given way to an unpaired top-half ½ of the appropriate colour.
            let sub = g.bpairs.iter().copied().find_map(|(l, p0)| {
                if !self.near(p0, m - win) || !self.may_meet(h, p0) {
                    return None;
                }
                let c0 = self.opp[&p0].1;
                self.group_c(m, half, &g.in_b, &g.halves)
                    .into_iter()
                    .find_map(|z| {
                        let (w, _) = self.opp[&z];
                        (self.may_meet(l, z) && self.due(z, c0) && self.may_meet(w, x))
                            .then_some((l, p0, z))
                    })
            });
            if let Some((l, p0, z)) = sub {
                missed += 1;
                self.flag(
                    "ECF advanced 7".into(),
                    vec![h, x, l, p0, z],
                    format!(
                        "bottom-half {h} (half a point behind) plays {x}, not a top-half player: the top-half 0 {p0} against {l} should have been replaced by the unpaired top-half {z} (half a point behind), freeing {p0} for {h}"
                    ),
                );
            }
        }
        missed
    }

    /// ECF advanced 7: bottom-half `h` promoted to play top-half ½ `x` only after substitution,
    /// the highest-rated first.
    fn check_promotion(&mut self, g: &Groups, h: u32, x: u32) {
        let (m, win) = (g.m, g.win);
        let sub =
            g.bpairs.iter().copied().find(|&(l, p0)| {
                self.near(p0, m - win) && self.may_meet(l, x) && self.may_meet(h, p0)
            });
        if let Some((l, p0)) = sub {
            self.flag(
                "ECF advanced 7".into(),
                vec![h, x, l, p0],
                format!(
                    "bottom-half {h} is promoted to play top-half {x}, though {x} could have replaced top-half {p0} (a point behind) against {l}, freeing {p0} for {h}"
                ),
            );
        }
        // "promote the highest rated 'bottom halves'": a higher-rated one left
        // without a top-half opponent, or given a 0 that {h} could have had.
        let higher = g.halves.iter().copied().find(|&h2| {
            self.above(h2, h)
                && self.opp.get(&h2).is_some_and(|&(o, _)| {
                    (!self.top(o) || self.near(o, m - win))
                        && self.may_meet(h2, x)
                        && self.may_meet(h, o)
                })
        });
        if let Some(h2) = higher {
            self.flag(
                "ECF advanced 7".into(),
                vec![h, h2],
                format!("bottom-half {h} is promoted ahead of the higher-rated {h2}"),
            );
        }
    }

    /// ECF advanced 6, second sentence (`q` the top-half players a point behind).
    fn check_c_floater(&mut self, g: &Groups, q: &[u32]) {
        let (m, half, win) = (g.m, g.half, g.win);
        // ECF advanced 6, second sentence: the floater from the top-half players half a point
        // behind (group (c)) meets the highest-rated top-half player a point behind due the
        // appropriate colour; (c) is paired before (d), so one facing a bottom-half ½ is in
        // reach, one in (b) is not.
        for x in self.group_c(m, half, &g.in_b, &g.halves) {
            let (y, cy) = self.opp[&x]; // cy: x's colour
            if self.sc(y) >= m - half {
                continue;
            }
            let qy = self.top(y) && self.near(y, m - win);
            let better = q.iter().copied().find(|&z| {
                z != y
                    && !g.in_b.contains(&z)
                    && (!qy || self.above(z, y))
                    && self.may_meet(x, z)
                    && self.opp.get(&z).is_some_and(|&(w, cz)| {
                        w != x
                            && !(self.top(w) && self.near(w, m - half))
                            && self.may_meet(y, w)
                            && self.due(z, cy.opposite())
                            && self.due(y, cz)
                            && self.due(x, cy)
                            && self.due(w, cz.opposite())
                            && (qy || !g.halves.contains(&w))
                    })
            });
            if let Some(z) = better {
                let msg = if qy {
                    format!(
                        "the floater {x} from the top-half players half a point behind plays {y} ({}), but the higher-rated top-half {z} ({}), also a point behind, was due the same colour",
                        self.rt(y),
                        self.rt(z)
                    )
                } else {
                    format!(
                        "the floater {x} from the top-half players half a point behind plays {y}, though top-half {z} a point behind was free"
                    )
                };
                self.flag("ECF advanced 6".into(), vec![x, y, z], msg);
            }
        }
    }

    /// ECF advanced 7: no substitution beyond the top-half 0's needed (`q` those 0's, `in_d`
    /// the (d) pairs, `subs` the substitutes).
    fn check_spare(&mut self, g: &Groups, q: &[u32], in_d: &BTreeSet<u32>, subs: &BTreeSet<u32>) {
        let (m, half, win) = (g.m, g.half, g.win);
        // ECF advanced 7: substitute only "until you have sufficient 'top half' 0's": with a
        // 0 to spare after the substitutions, the last one was not needed (undoing it - the
        // leader back to the 0 he had, that 0's bottom-half ½ to the spare - is possible).
        let all_h = g.halves.iter().all(|h| {
            self.opp
                .get(h)
                .is_none_or(|&(o, _)| self.top(o) && self.sc(o) < m)
        });
        let spare: Vec<u32> = q
            .iter()
            .copied()
            .filter(|&z| {
                !g.in_b.contains(&z)
                    && !in_d.contains(&z)
                    && !self
                        .opp
                        .get(&z)
                        .is_some_and(|&(o, _)| self.top(o) && self.near(o, m - half))
            })
            .collect();
        if all_h {
            let undo = g
                .bpairs
                .iter()
                .filter(|(_, s)| subs.contains(s))
                .find_map(|&(l, s)| {
                    g.halves.iter().find_map(|&h| {
                        let (z0, _) = *self.opp.get(&h)?;
                        let ok = self.near(z0, m - win)
                            && self.may_meet(l, z0)
                            && self.due(z0, self.opp[&s].1);
                        let c0 = self.opp[&z0].1;
                        let z = spare.iter().copied().find(|&z| {
                            let (v, _) = self.opp[&z];
                            ok && self.may_meet(h, z) && self.due(z, c0) && self.may_meet(s, v)
                        })?;
                        Some((l, s, h, z0, z))
                    })
                });
            if let Some((l, s, h, z0, z)) = undo {
                self.flag(
                    "ECF advanced 7".into(),
                    vec![l, s, h, z0, z],
                    format!(
                        "{l} plays the substitute {s}, but the top-half 0's sufficed without him: {l} v {z0} and {h} v {z} (the 0 {z} is spare)"
                    ),
                );
            }
        }
    }

    /// Group (c) of ECF advanced 3: top-half players half a point behind who are not in a (b)
    /// pair, not the partner of the floater from (a), and not facing a bottom-half ½.
    fn group_c(&self, m: Points, half: Points, in_b: &BTreeSet<u32>, halves: &[u32]) -> Vec<u32> {
        self.opp
            .iter()
            .filter(|&(&x, &(o, _))| {
                self.top(x)
                    && self.sc(x) == m - half
                    && !in_b.contains(&x)
                    && !(self.top(o) && self.sc(o) >= m)
                    && !halves.contains(&o)
            })
            .map(|(&x, _)| x)
            .collect()
    }

    /// Two pairs that both join the same two score groups could be exchanged into two pairs
    /// within the groups.
    fn check_floats(&mut self, skip: &BTreeSet<u32>, rule: String) {
        let pairs: Vec<(u32, u32)> = self
            .games
            .iter()
            .map(|&(w, b)| {
                if self.sc(w) >= self.sc(b) {
                    (w, b)
                } else {
                    (b, w)
                }
            })
            .filter(|&(hi, lo)| {
                self.sc(hi) > self.sc(lo) && !skip.contains(&hi) && !skip.contains(&lo)
            })
            .collect();
        for i in 0..pairs.len() {
            for j in i + 1..pairs.len() {
                let ((a, b), (c, d)) = (pairs[i], pairs[j]);
                if self.sc(a) == self.sc(c)
                    && self.sc(b) == self.sc(d)
                    && self.may_meet(a, c)
                    && self.may_meet(b, d)
                {
                    self.flag(
                        rule.clone(),
                        vec![a, b, c, d],
                        format!(
                            "{a} v {b} and {c} v {d} both float between the score groups {} and {}; {a} v {c} and {b} v {d} keep each pair in its group",
                            show(self.sc(a)),
                            show(self.sc(b))
                        ),
                    );
                }
            }
        }
    }

    /// Whether this round is accelerated (ECF General, basic 4, advanced 4), and why.
    fn accelerating(&self, catch: usize) -> (bool, String) {
        let fixed = num(self.t, "ecf.accelerated_rounds").map(|k| k as u32);
        let planned = self.t.rounds_planned;
        let two_left = planned.is_some_and(|p| self.r + 1 >= p);
        if let Some(k) = fixed {
            if self.r > k {
                return (
                    false,
                    format!("the director's fixed {k} accelerated rounds are over"),
                );
            }
            if !self.adv {
                return (
                    true,
                    format!("round {} of the director's fixed {k}", self.r),
                );
            }
        }
        if two_left {
            return (false, "only two rounds are left to play".into());
        }
        if catch == 0 {
            let what = if self.adv {
                "no bottom-half player is within half a point of the lead"
            } else {
                "no bottom-half player is on 100%"
            };
            return (false, what.into());
        }
        let what = if self.adv {
            "within half a point of the lead"
        } else {
            "on 100%"
        };
        (
            true,
            format!("{catch} bottom-half player(s) {what} and more than two rounds to play"),
        )
    }

    /// After acceleration has stopped (ECF basic 4 / advanced 4, then rule 5): a bottom-half
    /// player at the top of the scores (Advanced: within half a point of it) paired down
    /// against a top-half player of a lower score group, where exchanging partners with
    /// another pair would have made the score differences smaller (Σ squared), is an
    /// accelerated pairing made too late.
    fn check_stopped(&mut self, m: Points, half: Points, why: &str) {
        let rule = self.cite("ECF basic 4", "ECF advanced 4");
        let floor = if self.adv { m - half } else { m };
        let games = self.games.clone();
        for &(w, b) in &games {
            for (x, y) in [(w, b), (b, w)] {
                if self.top(x) || !self.top(y) || self.sc(x) < floor {
                    continue;
                }
                // Squares of thousandths in i128: no overflow at any score the readers accept.
                let d = i128::from(self.sc(x) - self.sc(y));
                if d <= 0 {
                    continue;
                }
                let sq = |a: u32, b: u32| i128::from(self.sc(a) - self.sc(b)).pow(2);
                let swap = games
                    .iter()
                    .flat_map(|&(a, c)| [(a, c), (c, a)])
                    .find(|&(z, v)| {
                        z != x
                            && v != x
                            && self.may_meet(x, z)
                            && self.may_meet(y, v)
                            && d * d + sq(z, v) > sq(x, z) + sq(y, v)
                    });
                if let Some((z, v)) = swap {
                    self.flag(
                        rule.clone(),
                        vec![x, y, z, v],
                        format!(
                            "acceleration should have stopped ({why}), but bottom-half {x} ({}) is paired against top-half {y} ({}) of a lower score group; {x} v {z} and {y} v {v} keep the scores closer",
                            show(self.sc(x)),
                            show(self.sc(y))
                        ),
                    );
                }
            }
        }
    }

    fn check_labels(&mut self) {
        let rule = self.cite("ECF basic 1", "ECF advanced 1");
        let mut bad = Vec::new();
        for p in &self.t.players {
            let Some(label) = p.group.as_deref() else {
                continue;
            };
            let want = self.quarter.get(&p.id).copied();
            let l = label.trim().to_ascii_uppercase();
            if matches!(l.as_str(), "A" | "B" | "C" | "D")
                && want.is_some_and(|w| l != w.to_string())
            {
                bad.push((p.id, l, want.unwrap()));
            }
        }
        for (id, l, w) in bad {
            self.flag(
                rule.clone(),
                vec![id],
                format!("{id} is labelled quarter {l} but by rating order is in quarter {w}"),
            );
        }
    }

    fn check_round_one(&mut self) {
        let rule = self.cite("ECF basic 2", "ECF advanced 2");
        let q = |c: char| -> Vec<u32> {
            self.order
                .iter()
                .copied()
                .filter(|id| self.quarter.get(id) == Some(&c))
                .collect()
        };
        let (a, b, c, d) = (q('A'), q('B'), q('C'), q('D'));
        let boards: Vec<(u32, u32)> = a
            .iter()
            .zip(&b)
            .chain(c.iter().zip(&d))
            .map(|(&x, &y)| (x, y))
            .collect();
        let partner: BTreeMap<u32, u32> =
            boards.iter().flat_map(|&(x, y)| [(x, y), (y, x)]).collect();
        let here: BTreeSet<u32> = self.opp.keys().chain(&self.pab).copied().collect();
        let present = |id: u32| here.contains(&id);
        for &(w, bl) in &self.games.clone() {
            let intended = partner.get(&w) == Some(&bl);
            let breakable = [w, bl]
                .iter()
                .any(|p| partner.get(p).is_some_and(|&o| present(o)));
            if !intended && breakable {
                self.flag(
                    rule.clone(),
                    vec![w, bl],
                    format!(
                        "{w} v {bl} is not a quarter pairing (A v B, C v D): {w} should meet {}",
                        partner
                            .get(&w)
                            .map(|x| x.to_string())
                            .unwrap_or("nobody".into())
                    ),
                );
            }
        }
        if d.len() > c.len() {
            let last = *d.last().unwrap();
            for &p in &self.pab.clone() {
                if p != last
                    && present(last)
                    && self.opp.contains_key(&last)
                    && partner.get(&p).is_some_and(|&o| present(o))
                {
                    self.flag(
                        rule.clone(),
                        vec![p, last],
                        format!("{p} has the bye, but the odd bottom half leaves the last of quarter D, {last}, without an opponent"),
                    );
                }
            }
        }
        // Colours: board 1 as set (or by lot), then alternating.
        let given = match self
            .t
            .settings
            .get("ecf.first_board_colour")
            .and_then(|v| v.as_str())
        {
            Some("white" | "w" | "W") => Some(Colour::White),
            Some("black" | "b" | "B") => Some(Colour::Black),
            _ => self.t.initial_colour,
        };
        let mut first = given;
        for (k, &(x, y)) in boards.iter().enumerate() {
            let Some(&(o, cx)) = self.opp.get(&x) else {
                continue;
            };
            if o != y {
                continue;
            }
            let board_one = if k % 2 == 0 { cx } else { cx.opposite() };
            match first {
                None => first = Some(board_one),
                Some(f) if f != board_one => {
                    let want = if k % 2 == 0 { f } else { f.opposite() };
                    let word = |c: Colour| if c == Colour::White { "white" } else { "black" };
                    self.flag(
                        rule.clone(),
                        vec![x, y],
                        format!(
                            "board {}: {x} has {} but board 1 {} and colours alternate, so {x} should have {}",
                            k + 1,
                            word(cx),
                            if given.is_some() { "is set" } else { "was drawn" },
                            word(want)
                        ),
                    );
                }
                _ => {}
            }
        }
    }
}
