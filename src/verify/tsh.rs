//! TSH07 rule checks (tsh contention pairing, 2007 NSC), written from the document and
//! independent of `systems::tsh`. Each check cites its clause:
//!
//! * `TSH07 pairing`: every player to be paired has one game or the bye, nobody else plays.
//! * `TRF-2026 260`: no game between a pair forbidden in the round (a hard rule of every
//!   system). Every check below counts a forbidden pair as one no repeat level lets meet, so
//!   a pairing that kept such a pair apart is judged by what tsh could have paired.
//! * `TSH07 Gibsons`: counted as tsh counts them (best possible finishes replayed over the
//!   top remaining players: the top players down to the last whose next player cannot finish
//!   above his own place), at the start and after each flight whose next player is within the
//!   prize ranks and cannot rise; an even number play each other, KOTH (1v2, 3v4, …) unless
//!   another pairing of them has fewer repeats, or as many and fewer consecutive repeats.
//! * `TSH07 Gibson odd`: an odd Gibson takes the bye when the field is odd, else meets the
//!   player tsh's scan from the bottom chooses (least met, one who cannot finish in the money
//!   preferred).
//! * `TSH07 bye`: the bye goes to the lowest ranked among the players with the fewest byes.
//! * `TSH07 contenders`: each pass's contenders (counted, +1 if odd, capped) play each other.
//! * `TSH07 minimum repeats`: no pair of a contender group has met more often than the
//!   group's minimum repeats (found here by Edmonds' matching).
//! * `TSH07 leaders`: the leaders are the smallest even top block of a flight such that it and
//!   the rest each pair within the minimum repeats (Edmonds' matching), and play each other.
//! * `TSH07 leaders: top v lowest catcher`: the leaders' pairing replays the document's loop
//!   (top unpaired leader v the lowest ranked who can catch him, within the minimum repeats,
//!   avoiding a consecutive repeat where possible).
//! * `TSH07 initial round robin`: rounds 1..N (N = `initial_round_robin`, else 3 — none when
//!   round 1 was paired otherwise, fewer when config.tsh's `autopair` names an earlier round)
//!   are the round robins of groups of four by rating, paired in advance (reading in
//!   `models/tsh-cp.md`).
//! * `TSH07 Swiss`: all remaining contenders, or a flight's nonleaders, are paired in tsh's
//!   Swiss groups (win groups; the top one made even with the next group's top player and
//!   widened by two until it pairs within the minimum repeats, then the bottom one from
//!   above, then the middle; a middle that cannot pair merged with the bottom, else
//!   everyone), each inside itself, and no two pairs of a group can trade opponents for a
//!   better pairing in tsh's order (repeats, last round's opponent, first/second, half the
//!   group apart).
//!
//! The readings (standings, the catch test, Gibsons, byes counted over every earlier bye) are
//! those documented in `models/tsh-cp.md`.

use super::matching::Matching;
use super::Violation;
use crate::tournament::{ByeKind, GameResult, Standings, Tournament};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

struct Rules {
    lag: u32,
    session_starts: Vec<u32>,
    lag_final: bool,
    bands: Option<Vec<u32>>,
    spread: Vec<i64>,
    cap_per_round: u32,
    cap_final: u32,
    /// `flight_cap` as the settings give it (a name or a list); `None`: tsh's default.
    cap_schedule: Option<serde_json::Value>,
    force_koth: u32,
    no_swiss_all: bool,
}

fn rules(t: &Tournament) -> Rules {
    let u = |k: &str| t.settings.get(k).and_then(|v| v.as_u64()).map(|x| x as u32);
    let l = |k: &str| {
        t.settings
            .get(k)
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_i64()).collect::<Vec<i64>>())
    };
    Rules {
        lag: u("lag").unwrap_or(2).max(1),
        session_starts: l("session_starts")
            .unwrap_or_default()
            .into_iter()
            .map(|x| x as u32)
            .collect(),
        lag_final: t
            .settings
            .get("lag_final_round")
            .and_then(|v| v.as_bool())
            .unwrap_or(false),
        bands: l("prize_bands").map(|v| v.into_iter().map(|x| x as u32).collect()),
        spread: l("gibson_spread")
            .filter(|v| !v.is_empty())
            .unwrap_or(vec![500]),
        cap_per_round: u("flight_cap_per_round").unwrap_or(4),
        cap_final: u("flight_cap_final").unwrap_or(2),
        cap_schedule: t.settings.get("flight_cap").cloned().or_else(|| {
            (t.settings.contains_key("flight_cap_per_round")
                || t.settings.contains_key("flight_cap_final"))
            .then(|| serde_json::json!("tsh07"))
        }),
        force_koth: u("force_koth").unwrap_or(0),
        no_swiss_all: t
            .settings
            .get("chew_no_swiss_all")
            .is_some_and(|v| v.as_bool().unwrap_or(false) || v.as_u64().is_some_and(|n| n != 0)),
    }
}

impl Rules {
    /// The most contenders a flight holds with `left` rounds left (this one included): tsh's
    /// schedule by name — default 2, 4, 8, 12, 12, …; `tsh07` the document's 4 × (left − 1)
    /// and 2 in the final round; `nsc` 4 × left and `nsc2008` 2 × left, both at most 12;
    /// `none`; or a list read from the final round backwards — rounded up to even.
    fn cap(&self, left: u32) -> usize {
        let left = left.max(1);
        let raw = if left <= self.force_koth {
            2
        } else {
            match &self.cap_schedule {
                Some(serde_json::Value::Array(a)) => {
                    let at = a.len().saturating_sub(left as usize);
                    a.get(at).and_then(|v| v.as_u64()).unwrap_or(2) as u32
                }
                Some(v) => match v.as_str().unwrap_or("").to_ascii_lowercase().as_str() {
                    "tsh07" if left == 1 => self.cap_final,
                    "tsh07" => self.cap_per_round * (left - 1),
                    "nsc" => (left * 4).min(12),
                    "nsc2008" => (left * 2).min(12),
                    "none" => 1 << 30,
                    _ => [2, 4, 8, 12][(left as usize - 1).min(3)],
                },
                None => [2, 4, 8, 12][(left as usize - 1).min(3)],
            }
        };
        (raw as usize).div_ceil(2) * 2
    }
}

struct Check<'a> {
    t: &'a Tournament,
    r: u32,
    rules: Rules,
    /// Players to pair in standing order.
    order: Vec<u32>,
    /// Wins in thousandths (a draw half a win): compared exactly.
    wins: BTreeMap<u32, i64>,
    spread: BTreeMap<u32, i64>,
    n_catch: u32,
    met: BTreeMap<(u32, u32), u32>,
    previous: BTreeSet<(u32, u32)>,
    balance: BTreeMap<u32, i64>,
    opp: BTreeMap<u32, u32>,
    bye: Vec<u32>,
    out: Vec<Violation>,
    /// tsh's best possible finishes (overall ranks) as last replayed; absent: never replayed.
    best: BTreeMap<u32, usize>,
}

fn pair(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// Met this often, a pair may not meet at any repeat level: how a forbidden pair counts.
const BARRED: u32 = 1 << 20;

/// TRF-2026 260: a game of round `round` between a pair forbidden in it.
fn forbidden_games(t: &Tournament, round: u32) -> Vec<Violation> {
    let barred = t.forbidden_in(round);
    let Some(rd) = t.round(round) else {
        return Vec::new();
    };
    rd.games
        .iter()
        .filter(|g| barred.get(&g.white).is_some_and(|o| o.contains(&g.black)))
        .map(|g| Violation {
            round,
            rule: "TRF-2026 260".into(),
            players: vec![g.white, g.black],
            message: format!(
                "round {round}: {} v {} is a forbidden pair and may not be paired — TRF-2026 260",
                g.white, g.black
            ),
        })
        .collect()
}

pub fn check(t: &Tournament, round: u32) -> Vec<Violation> {
    let mut out = forbidden_games(t, round);
    out.extend(check_rules(t, round));
    out
}

/// Every TSH07 rule of round `round`.
fn check_rules(t: &Tournament, round: u32) -> Vec<Violation> {
    let Some(planned) = t.rounds_planned else {
        return vec![Violation {
            round,
            rule: "TSH07 pairing".into(),
            players: vec![],
            message: format!("round {round}: rounds planned unknown, TSH07 cannot be checked"),
        }];
    };
    // TSH07: "after the initial three-round round robin" — three rounds unless the setting
    // says otherwise; an event whose round 1 was paired otherwise did not start with it, and
    // a round config.tsh's `autopair` names (`based_on`) is tsh's automatic pairing.
    let rr = match t
        .settings
        .get("initial_round_robin")
        .and_then(|v| v.as_u64())
    {
        Some(n) => n,
        None => {
            let autopaired = t
                .settings
                .get("based_on")
                .and_then(|m| m.as_object())
                .and_then(|m| m.keys().filter_map(|k| k.parse::<u64>().ok()).min());
            let rounds = autopaired.map_or(3, |r| r.saturating_sub(1).min(3));
            let first = round_robin_pairs(t, 1);
            let departs = t.round(1).is_some_and(|rd| {
                rd.games
                    .iter()
                    .any(|g| !first.contains(&pair(g.white, g.black)))
            });
            if departs {
                0
            } else {
                rounds
            }
        }
    };
    if u64::from(round) <= rr {
        return initial_round_robin(t, round);
    }
    let rules = rules(t);
    let full = rules.lag == 1
        || rules.session_starts.contains(&round)
        || (round == planned && !rules.lag_final);
    // tsh's `autopair DIV BASED ROUND` (config.tsh) names the standings round by round.
    let autopair = t
        .settings
        .get("based_on")
        .and_then(|m| m.get(round.to_string()))
        .and_then(|v| v.as_u64())
        .map(|b| b as u32)
        .filter(|&b| b < round);
    let based = autopair.unwrap_or(round.saturating_sub(if full { 1 } else { rules.lag }));
    let st = Standings::before(t, based + 1);
    let rd = t.round(round).expect("paired round");
    let absent: BTreeSet<u32> = rd.requested_byes().map(|b| b.player).collect();
    let mut order: Vec<u32> = t
        .players
        .iter()
        .filter(|p| p.active_in(round) && !absent.contains(&p.id))
        .map(|p| p.id)
        .collect();
    // tsh's standings: wins, losses (fewer first), spread, rating, number.
    let mut lost: BTreeMap<u32, f64> = BTreeMap::new();
    for r in t.rounds.iter().filter(|x| x.number <= based) {
        for g in r.games.iter().filter(|g| g.result != GameResult::Pending) {
            let (w, b) = g.result.points(&t.scoring);
            *lost.entry(g.white).or_default() += t.scoring.win - w;
            *lost.entry(g.black).or_default() += t.scoring.win - b;
        }
        for b in &r.byes {
            *lost.entry(b.player).or_default() += t.scoring.win - b.kind.points(&t.scoring);
        }
    }
    let tie = tie_break(t);
    let key = |id: &u32| {
        let s = &st.by_id[id];
        (
            -(s.score * 2.0).round() as i64,
            (lost.get(id).copied().unwrap_or(0.0) * 2.0).round() as i64,
            -s.spread,
            -(s.rating as i64),
            std::cmp::Reverse(tie.get(id).copied().unwrap_or(0)),
            s.number,
        )
    };
    order.sort_by_key(key);
    let mut met = BTreeMap::new();
    for (a, others) in t.forbidden_in(round) {
        met.extend(others.into_iter().map(|b| (pair(a, b), BARRED)));
    }
    let mut previous = BTreeSet::new();
    for r in t.rounds.iter().filter(|x| x.number < round) {
        for g in &r.games {
            *met.entry(pair(g.white, g.black)).or_insert(0) += 1;
            if r.number + 1 == round {
                previous.insert(pair(g.white, g.black));
            }
        }
    }
    let now = Standings::before(t, round);
    let balance = now
        .by_id
        .iter()
        .map(|(&id, s)| {
            let (f, sec) = s.firsts_seconds();
            (id, i64::from(f) - i64::from(sec))
        })
        .collect();
    let mut opp = BTreeMap::new();
    for g in &rd.games {
        opp.insert(g.white, g.black);
        opp.insert(g.black, g.white);
    }
    let bye = rd
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::PairingAllocated)
        .map(|b| b.player)
        .collect();
    let mut c = Check {
        t,
        r: round,
        rules,
        wins: st
            .by_id
            .iter()
            .map(|(&k, s)| (k, super::dutch::state::thousandths(s.score)))
            .collect(),
        spread: st.by_id.iter().map(|(&k, s)| (k, s.spread)).collect(),
        n_catch: planned.saturating_sub(based),
        order,
        met,
        previous,
        balance,
        opp,
        bye,
        out: Vec::new(),
        best: BTreeMap::new(),
    };
    c.run(planned);
    c.out
}

/// tsh's tie-break after rating (reading in models/tsh-cp.md, "standings"): each `.t` line's
/// number (`tsh.line_keys`), or where it is 0 one from the name and id; a number in use
/// steps by `x → (1103515245·x + 12345) mod 2³¹` until free, players in id order.
fn tie_break(t: &Tournament) -> BTreeMap<u32, u64> {
    let mut out = BTreeMap::new();
    let off = t.settings.get("no_random").and_then(|v| v.as_bool()) == Some(true);
    let Some(from_lines) = t.settings.get("tsh.line_keys").filter(|_| !off) else {
        return out;
    };
    let step = |x: u64| (1_103_515_245 * x + 12_345) % (1 << 31);
    let mut by_id: Vec<&crate::tournament::Player> = t.players.iter().collect();
    by_id.sort_by_key(|p| p.id);
    let mut used = BTreeSet::new();
    for p in by_id {
        let mut x = from_lines[p.id.to_string()].as_u64().unwrap_or(0);
        if x == 0 {
            let c = u64::from(*p.name.as_bytes().first().unwrap_or(&0));
            // The name's number is one step from len · (100 + id) · first byte.
            x = step((p.name.len() as u64) * (100 + u64::from(p.id)) * c);
        }
        while used.contains(&x) {
            x = step(x);
        }
        used.insert(x);
        out.insert(p.id, x);
    }
    out
}

/// tsh's best possible finish, replayed for the verifier (reading in models/tsh-cp.md, "best
/// possible finish"): `rec` holds (wins × 2, spread) in standings order; `who` is the player
/// whose finish is sought; `n` games are left to each; `ms` is the spread a game is won by;
/// `cap(left)` the flight cap. Returns his 1-based place among `rec` at the end.
fn replay_finish(
    rec: &[(i64, i64)],
    who: usize,
    n: u32,
    ms: i64,
    cap: &dyn Fn(u32) -> usize,
) -> usize {
    const BYE: i64 = 50;
    let m = rec.len();
    if m < 2 {
        return 1;
    }
    if n == 0 {
        return who + 1;
    }
    let (mut w, mut s): (Vec<i64>, Vec<i64>) = rec.iter().copied().unzip();
    let mut games = vec![i64::from(n); m];
    let standing = |w: &[i64], s: &[i64]| {
        let mut v: Vec<usize> = (0..m).collect();
        v.sort_by(|&a, &b| {
            (w[b], s[b])
                .cmp(&(w[a], s[a]))
                .then((a != who).cmp(&(b != who)))
        });
        v
    };
    for round in 0..n {
        let goal_w = w[who] + 2 * games[who];
        let mut goal_s = s[who] + games[who] * ms;
        let last_high = (cap(n - round) - 1).min(m - 1);
        // Pools 0..4: to win above the cap, to win below, to lose above, to lose below; the
        // "to win" pools run from the lowest placed up, the "to lose" from the highest down.
        let mut pool: Vec<VecDeque<usize>> = vec![VecDeque::new(); 4];
        let mut place = 0;
        for (i, p) in standing(&w, &s).into_iter().enumerate() {
            if p == who {
                place = i;
                continue;
            }
            let behind = (w[p], s[p]) < (goal_w - 2, goal_s);
            let ahead = (w[p], s[p]) > (goal_w, goal_s);
            let below = usize::from(i > last_high);
            if behind || ahead {
                pool[below].push_front(p);
            } else {
                pool[2 + below].push_back(p);
            }
        }
        let mine: [usize; 4] = if place <= last_high {
            [2, 0, 3, 1]
        } else {
            [3, 1, 2, 0]
        };
        w[who] += 2;
        games[who] -= 1;
        if let Some(o) = mine.iter().find_map(|&k| pool[k].pop_front()) {
            s[who] += ms;
            s[o] -= ms;
            games[o] -= 1;
        } else {
            s[who] += BYE;
            goal_s += BYE - ms;
        }
        for (g, from_back, prefs) in [
            (0, true, [2, 0, 1, 3]),
            (2, false, [0, 2, 3, 1]),
            (1, true, [3, 1, 2, 0]),
            (3, false, [1, 3, 0, 2]),
        ] {
            while let Some(a) = if from_back {
                pool[g].pop_back()
            } else {
                pool[g].pop_front()
            } {
                let Some(b) = prefs.iter().find_map(|&k| pool[k].pop_front()) else {
                    w[a] += 2;
                    s[a] += BYE;
                    games[a] -= 1;
                    continue;
                };
                let (hi, lo) = if (w[a], s[a]) < (w[b], s[b]) {
                    (b, a)
                } else {
                    (a, b)
                };
                // (winner, margin): margin None is a big win.
                let (winner, margin) = if w[lo] > goal_w {
                    (lo, None)
                } else if w[hi] > goal_w || w[lo] == goal_w {
                    (hi, None)
                } else if w[lo] == goal_w - 2 {
                    if s[lo] < goal_s {
                        (lo, Some(goal_s - s[lo]))
                    } else {
                        (if s[hi] > s[lo] { hi } else { lo }, None)
                    }
                } else if w[hi] == goal_w {
                    let over = s[hi] - goal_s;
                    (
                        if over > 0 && over <= ms * games[hi] {
                            lo
                        } else {
                            hi
                        },
                        None,
                    )
                } else if w[lo] < w[hi] - 2 {
                    (lo, Some(ms))
                } else if w[lo] < w[hi] && s[lo] > s[hi] {
                    (lo, Some(1))
                } else {
                    (lo, Some(((1 + s[hi] - s[lo]) / 2).min(ms)))
                };
                let loser = if winner == hi { lo } else { hi };
                w[winner] += 2;
                s[winner] += margin.unwrap_or(ms);
                s[loser] -= margin.unwrap_or(ms);
                games[hi] -= 1;
                games[lo] -= 1;
            }
        }
    }
    standing(&w, &s)
        .iter()
        .position(|&p| p == who)
        .map_or(m, |i| i + 1)
}

impl Check<'_> {
    fn flag(&mut self, rule: &str, players: Vec<u32>, msg: String) {
        self.out.push(Violation {
            round: self.r,
            rule: rule.into(),
            players,
            message: format!("round {}: {msg} — {rule}", self.r),
        });
    }

    fn rank(&self, id: u32) -> usize {
        self.order
            .iter()
            .position(|&p| p == id)
            .map_or(usize::MAX, |i| i + 1)
    }

    fn times(&self, a: u32, b: u32) -> u32 {
        self.met.get(&pair(a, b)).copied().unwrap_or(0)
    }

    /// Replays tsh's best possible finish of each of `list` (consecutive by rank), among
    /// `list` alone, as overall ranks.
    fn finishes(&mut self, list: &[u32]) {
        let Some(&first) = list.first() else { return };
        let top = self.rank(first);
        let rec: Vec<(i64, i64)> = list
            .iter()
            .map(|p| (self.wins[p] / 500, self.spread[p]))
            .collect();
        let n = self.n_catch;
        let ms = self.rules.spread[(n.max(1) as usize - 1).min(self.rules.spread.len() - 1)];
        let cap = |left: u32| self.rules.cap(left);
        let got: Vec<usize> = (0..list.len())
            .map(|i| replay_finish(&rec, i, n, ms, &cap) + top - 1)
            .collect();
        self.best.extend(list.iter().copied().zip(got));
    }

    /// tsh's pairability test: `lo`'s best finish (none replayed: any) within `hi`'s rank.
    fn reaches(&self, lo: u32, hi: u32) -> bool {
        self.best.get(&lo).is_none_or(|&b| b <= self.rank(hi))
    }

    /// tsh's leader test: a replayed best finish of `lo` within `hi`'s rank.
    fn reaches_strictly(&self, lo: u32, hi: u32) -> bool {
        self.best.get(&lo).is_some_and(|&b| b <= self.rank(hi))
    }

    /// Smallest k such that `group` pairs perfectly using only pairs met at most k times.
    fn min_repeats(&self, group: &[u32]) -> Option<u32> {
        (0..=self.r).find(|&k| self.pairable(group, k, |_, _| true))
    }

    fn pairable(&self, group: &[u32], k: u32, ok: impl Fn(u32, u32) -> bool) -> bool {
        if group.len() % 2 == 1 {
            return false;
        }
        let mut m = Matching::new(group.len());
        for i in 0..group.len() {
            for j in i + 1..group.len() {
                if self.times(group[i], group[j]) <= k && ok(group[i], group[j]) {
                    m.add_edge(i, j);
                }
            }
        }
        m.covers_all_but(&[])
    }

    /// TSH07 pairing: one game or the bye for each player to be paired, and nobody else.
    fn check_everyone_paired(&mut self) {
        let expected: BTreeSet<u32> = self.order.iter().copied().collect();
        for &p in &self.order.clone() {
            let n = usize::from(self.opp.contains_key(&p))
                + self.bye.iter().filter(|&&b| b == p).count();
            if n != 1 {
                self.flag(
                    "TSH07 pairing",
                    vec![p],
                    format!("player {p} has {n} pairings"),
                );
            }
        }
        let paired: BTreeSet<u32> = self.opp.keys().chain(self.bye.iter()).copied().collect();
        for p in paired {
            if !expected.contains(&p) {
                self.flag(
                    "TSH07 pairing",
                    vec![p],
                    format!("player {p} is paired but absent or withdrawn"),
                );
            }
        }
    }

    /// tsh's "faint hope" rank (reading in models/tsh-cp.md): with four rounds left or
    /// fewer, down to the players within a win of the last prize rank; earlier, the cap for
    /// one round fewer.
    fn faint_hope(&self, left: u32, last_prize: usize) -> usize {
        if left > 4 || last_prize == 0 || last_prize > self.order.len() {
            return self.rules.cap(left.saturating_sub(1));
        }
        let floor = self.wins[&self.order[last_prize - 1]] - 1000;
        let mut k = last_prize;
        while self.order.get(k + 1).is_some_and(|p| self.wins[p] >= floor) {
            k += 1;
        }
        (k + 1).min(self.order.len())
    }

    fn run(&mut self, planned: u32) {
        self.check_everyone_paired();
        let bands = self
            .rules
            .bands
            .clone()
            .unwrap_or_else(|| (1..=(self.order.len() as u32 / 4).max(1)).collect());
        let last_prize = bands.last().copied().unwrap_or(0) as usize;
        let left = planned.saturating_sub(self.r) + 1;
        let faint = self.faint_hope(left, last_prize);
        let mut rest = self.order.clone();
        let mut bye_given = false;
        // tsh: Gibsons and the bye first, then a flight a pass, each followed by Gibsons
        // (when the top remaining player is within the prize ranks and cannot rise) and the
        // bye.
        self.gibsons(&mut rest, last_prize, &mut bye_given);
        self.check_bye(&mut rest, &mut bye_given);
        while !rest.is_empty() {
            let top = self.rank(rest[0]);
            let band = bands.iter().find(|&&b| b as usize >= top).copied();
            let n = self.contenders(&rest, band, &bands, (left, faint));
            let n = self.widen_past_forbidden(&rest, n);
            let group: Vec<u32> = rest.drain(..n).collect();
            let flight = !rest.is_empty() || self.rules.no_swiss_all;
            self.check_group(&group, flight, band.is_some());
            if let Some(&first) = rest.first() {
                if !self.best.contains_key(&first) {
                    let all = self.order.clone();
                    self.finishes(&all);
                }
                let (r, b) = (self.rank(first), self.best[&first]);
                if r <= last_prize && b >= r {
                    self.gibsons(&mut rest, last_prize, &mut bye_given);
                }
            }
            self.check_bye(&mut rest, &mut bye_given);
        }
    }

    /// How many of `rest` contend in this pass (TSH07 contention, as tsh counts): for a prize
    /// band (last rank `band`), down to the lowest of the top `cap` whose best possible
    /// finish (replayed over the top `cap` + 2) is within it, +1 if odd, capped for the band
    /// of first place; below the bands the faint-hope flight (or everyone); a handful of
    /// non-contenders who cannot pair without repeats joins them.
    fn contenders(
        &mut self,
        rest: &[u32],
        band: Option<u32>,
        bands: &[u32],
        (left, faint): (u32, usize),
    ) -> usize {
        let cap = self.rules.cap(left);
        let top = self.rank(rest[0]);
        let mut n = match band {
            None => {
                let c = faint.saturating_sub(top);
                match (c + c % 2).min(cap) {
                    0 => rest.len(),
                    c => c,
                }
            }
            Some(last) => {
                let scan = rest.len().min(cap);
                let replayed = if rest.len() > cap {
                    (cap + 2).min(rest.len())
                } else {
                    rest.len()
                };
                self.finishes(&rest[..replayed]);
                let c = rest[..scan]
                    .iter()
                    .rposition(|p| self.best[p] <= last as usize)
                    .map_or(1, |i| i + 1);
                if bands.first() == Some(&last) {
                    (c + c % 2).min(cap)
                } else {
                    c + c % 2
                }
            }
        }
        .min(rest.len());
        let others = rest.len() - n;
        if others > 0 && n > 2 * others && others <= 6 && !self.pairable(&rest[n..], 0, |_, _| true)
        {
            if !self.best.contains_key(&rest[rest.len() - 1]) {
                self.finishes(rest);
            }
            n = rest.len();
        }
        n
    }

    /// The contenders once they can be paired: while a forbidden pair (TRF-2026 260) among
    /// the top `n` of `rest` leaves them no pairing at any repeat level, two more join (the
    /// way tsh widens a Swiss group), up to everyone left.
    fn widen_past_forbidden(&self, rest: &[u32], mut n: usize) -> usize {
        let barred = |g: &[u32]| {
            g.iter()
                .enumerate()
                .any(|(i, &a)| g[i + 1..].iter().any(|&b| self.times(a, b) >= BARRED))
        };
        while n < rest.len()
            && barred(&rest[..n])
            && !self.pairable(&rest[..n], BARRED - 1, |_, _| true)
        {
            n = (n + 2).min(rest.len());
        }
        n
    }

    /// TSH07 byes: when the remaining field is odd, the lowest ranked among those with the
    /// fewest byes.
    fn check_bye(&mut self, rest: &mut Vec<u32>, bye_given: &mut bool) {
        if rest.len().is_multiple_of(2) || *bye_given {
            return;
        }
        let byes_had = |c: &Check, id: u32| {
            c.t.rounds
                .iter()
                .filter(|x| x.number < c.r)
                .flat_map(|x| &x.byes)
                .filter(|b| b.player == id)
                .count()
        };
        let fewest = rest.iter().map(|&p| byes_had(self, p)).min().unwrap();
        let want = *rest
            .iter()
            .rev()
            .find(|&&p| byes_had(self, p) == fewest)
            .unwrap();
        *bye_given = true;
        if !self.bye.contains(&want) {
            self.flag(
                "TSH07 bye",
                vec![want],
                format!(
                    "the bye should go to {want} (lowest ranked with fewest byes), went to {:?}",
                    self.bye
                ),
            );
        }
        rest.retain(|&p| p != want);
    }

    /// TSH07 Gibsons as tsh counts them: best possible finishes replayed over the top (last
    /// prize rank + 3) of `rest`, then the top players down to the last whose next player
    /// cannot finish above his own place; batch after batch until none.
    fn gibsons(&mut self, rest: &mut Vec<u32>, last_prize: usize, bye_given: &mut bool) {
        while !rest.is_empty() {
            let list = rest[..rest.len().min(last_prize + 3)].to_vec();
            self.finishes(&list);
            let top = self.rank(rest[0]);
            let mut g = 0;
            while g + 1 < rest.len() && self.best.get(&rest[g + 1]) == Some(&(top + g + 1)) {
                g += 1;
            }
            if g == 0 {
                return;
            }
            let gib: Vec<u32> = rest[..g].to_vec();
            let odd_field = rest.len() % 2 == 1;
            rest.drain(..g);
            self.check_gibsons(&gib[..g / 2 * 2]);
            if g % 2 == 1 {
                self.check_odd_gibson(gib[g - 1], rest, last_prize, odd_field, bye_given);
            }
        }
    }

    /// TSH07 Gibson odd: the bye in an odd field; else tsh's scan from the bottom up — the
    /// lowest ranked of those who met him least, replaced by a higher one met as often who
    /// cannot finish in the money (best finish replayed over him and the rest); a hopeless
    /// one found before a player who met him less stays chosen.
    fn check_odd_gibson(
        &mut self,
        last: u32,
        rest: &mut Vec<u32>,
        last_prize: usize,
        odd_field: bool,
        bye_given: &mut bool,
    ) {
        if odd_field && !*bye_given || rest.is_empty() {
            *bye_given = true;
            if !self.bye.contains(&last) {
                self.flag(
                    "TSH07 Gibson odd",
                    vec![last],
                    format!("odd Gibson {last} should have the bye (odd field)"),
                );
            }
            return;
        }
        let list: Vec<u32> = std::iter::once(last).chain(rest.iter().copied()).collect();
        self.finishes(&list);
        let mut fewest: Option<(u32, u32)> = None;
        let mut hopeless = None;
        for &p in rest.iter().rev() {
            let m = self.times(p, last);
            let out_of_money = self.best[&p] > last_prize;
            if fewest.is_none_or(|(_, f)| m < f) {
                fewest = Some((p, m));
                if out_of_money {
                    hopeless = Some(p);
                }
            } else if out_of_money && fewest.is_some_and(|(_, f)| f == m) {
                hopeless = Some(p);
            }
        }
        let want = hopeless
            .or(fewest.map(|f| f.0))
            .unwrap_or(rest[rest.len() - 1]);
        if self.opp.get(&last) != Some(&want) {
            self.flag(
                "TSH07 Gibson odd",
                vec![last, want],
                format!(
                    "odd Gibson {last} should meet {want} (rank {}), met {:?}",
                    self.rank(want),
                    self.opp.get(&last)
                ),
            );
        }
        rest.retain(|&p| p != want);
    }

    fn check_gibsons(&mut self, gib: &[u32]) {
        if gib.is_empty() {
            return;
        }
        let inside: BTreeSet<u32> = gib.iter().copied().collect();
        for &p in gib {
            if self.opp.get(&p).is_none_or(|o| !inside.contains(o)) {
                self.flag(
                    "TSH07 Gibsons",
                    vec![p],
                    format!("Gibson {p} does not meet another Gibson"),
                );
                return;
            }
        }
        let cost = |c: &Check, pairs: &[(u32, u32)]| {
            let rep: u32 = pairs.iter().map(|&(a, b)| c.times(a, b)).sum();
            let cons = pairs
                .iter()
                .filter(|&&(a, b)| c.previous.contains(&pair(a, b)))
                .count();
            (rep, cons)
        };
        let koth: Vec<(u32, u32)> = gib.chunks(2).map(|w| pair(w[0], w[1])).collect();
        let actual: BTreeSet<(u32, u32)> = gib.iter().map(|&p| pair(p, self.opp[&p])).collect();
        let actual: Vec<(u32, u32)> = actual.into_iter().collect();
        let mut ks = koth.clone();
        ks.sort();
        if ks != actual && cost(self, &koth) <= cost(self, &actual) {
            self.flag(
                "TSH07 Gibsons",
                gib.to_vec(),
                "Gibsons not paired KOTH though KOTH has no more repeats or consecutive repeats"
                    .into(),
            );
        }
    }

    /// TSH07 leaders: "Pair the leaders by repeatedly matching the top player with the lowest
    /// ranked player who can catch him/her, while not exceeding the minimum repeats and where
    /// possible avoiding consecutive repeats." Replayed step by step: the top unpaired leader's
    /// partner is, among the unpaired leaders he has met at most `minrep` times and who leave
    /// the rest pairable within `minrep`, one he did not meet in the previous round if there
    /// is one, then the lowest ranked who can catch him, else (nobody can) the one nearest to
    /// catching him, i.e. the highest ranked.
    fn check_leader_pairs(
        &mut self,
        leaders: &[u32],
        pos: &BTreeMap<u32, usize>,
        minrep: u32,
        strict: bool,
    ) {
        let mut rest: Vec<u32> = leaders.to_vec();
        let allowed = |c: &Check, a: u32, b: u32| {
            let (hi, lo) = if pos[&a] < pos[&b] { (a, b) } else { (b, a) };
            !strict || c.reaches_strictly(lo, hi)
        };
        while rest.len() >= 2 {
            let top = rest[0];
            let mut options: Vec<u32> = rest[1..]
                .iter()
                .copied()
                .filter(|&p| self.times(top, p) <= minrep && allowed(self, top, p))
                .filter(|&p| {
                    let others: Vec<u32> = rest[1..].iter().copied().filter(|&q| q != p).collect();
                    self.pairable(&others, minrep, |a, b| allowed(self, a, b))
                })
                .collect();
            // tsh's order: one who can catch him, fewest repeats, not last round's opponent,
            // the lowest ranked.
            options.sort_by_key(|&p| {
                (
                    strict && !self.reaches_strictly(p, top),
                    self.times(top, p),
                    self.previous.contains(&pair(top, p)),
                    -(pos[&p] as i64),
                )
            });
            let Some(&want) = options.first() else {
                return;
            };
            let got = self.opp[&top];
            if got != want {
                let why = if self.reaches_strictly(want, top) {
                    "the lowest ranked who can catch him"
                } else {
                    "nobody left can catch him; the nearest to catching him"
                };
                self.flag(
                    "TSH07 leaders: top v lowest catcher",
                    vec![top, got, want],
                    format!("leader {top} meets {got}, but {want} is {why} (within {minrep} repeats, consecutive repeats avoided where possible)"),
                );
                return;
            }
            rest.retain(|&p| p != top && p != got);
        }
    }

    fn check_group(&mut self, group: &[u32], flight: bool, must_catch: bool) {
        let inside: BTreeSet<u32> = group.iter().copied().collect();
        for &p in group {
            if self.opp.get(&p).is_none_or(|o| !inside.contains(o)) {
                self.flag(
                    "TSH07 contenders",
                    vec![p],
                    format!(
                        "contender {p} does not meet another of the {} contenders {group:?}",
                        group.len()
                    ),
                );
                return;
            }
        }
        // tsh: a prize band's contenders pair so that the lower of each pair can catch the
        // higher, unless no repeat level allows that.
        let with_catch =
            (0..=self.r).find(|&k| self.pairable(group, k, |a, b| self.lower_catches(a, b)));
        let Some(minrep) = with_catch
            .filter(|_| must_catch)
            .or_else(|| self.min_repeats(group))
        else {
            return;
        };
        for &p in group {
            let o = self.opp[&p];
            if p < o && self.times(p, o) > minrep {
                self.flag(
                    "TSH07 minimum repeats",
                    vec![p, o],
                    format!(
                        "{p} v {o} met {} times; the contenders pair with at most {minrep}",
                        self.times(p, o)
                    ),
                );
            }
        }
        let lead = if flight {
            match self.check_leaders(group, minrep) {
                Some(l) => l,
                None => return,
            }
        } else {
            0
        };
        if lead < group.len() {
            self.check_swiss(&group[lead..], minrep, flight);
        }
    }

    /// tsh's pairability test for contenders: the lower of `a`, `b` can catch the higher.
    fn lower_catches(&self, a: u32, b: u32) -> bool {
        let (hi, lo) = if self.rank(a) < self.rank(b) {
            (a, b)
        } else {
            (b, a)
        };
        self.reaches(lo, hi)
    }

    /// TSH07 leaders: "minimizing the number of leaders as long as the subgroup of leaders
    /// and the subgroup of nonleaders can each be paired amongst themselves without
    /// exceeding the minimum repeats" — the smallest even top block (two or more) for which
    /// both sides pair within the limit; each side plays inside itself. tsh: at least four
    /// leaders when there are four contenders or more, and both sides pair with the lower of
    /// each pair able to catch the higher. Returns the number of leaders (None: a leader
    /// meets a nonleader, flagged).
    fn check_leaders(&mut self, group: &[u32], minrep: u32) -> Option<usize> {
        let pos: BTreeMap<u32, usize> = group.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let first = if group.len() >= 4 { 4 } else { 2 };
        let lead = (first..group.len())
            .step_by(2)
            .find(|&l| {
                self.pairable(&group[..l], minrep, |a, b| self.lower_catches(a, b))
                    && self.pairable(&group[l..], minrep, |a, b| self.lower_catches(a, b))
            })
            .unwrap_or(group.len());
        let leaders: BTreeSet<u32> = group[..lead].iter().copied().collect();
        if let Some(&p) = group[..lead]
            .iter()
            .find(|&&p| !leaders.contains(&self.opp[&p]))
        {
            self.flag(
                "TSH07 leaders",
                vec![p, self.opp[&p]],
                format!(
                    "leader {p} meets nonleader {}: the fewest leaders are the top {lead} \
                     (both sides pair within {minrep} repeats), and leaders play leaders",
                    self.opp[&p]
                ),
            );
            return None;
        }
        let leaders = group[..lead].to_vec();
        let strict = self.pairable(&leaders, minrep, |a, b| {
            let (hi, lo) = if pos[&a] < pos[&b] { (a, b) } else { (b, a) };
            self.reaches_strictly(lo, hi)
        });
        self.check_leader_pairs(&leaders, &pos, minrep, strict);
        Some(lead)
    }

    /// tsh's Swiss groups of `swiss` (rank order) within `minrep` (reading in
    /// models/tsh-cp.md): win groups; the top one made even with the next group's top player
    /// and widened by two from below until it pairs, then the bottom one likewise from above
    /// (those it takes listed after its own), then the middle the same way; a middle that
    /// cannot pair joins the bottom, and failing that (or the bottom failing) everyone is
    /// one group.
    fn swiss_groups(&self, swiss: &[u32], minrep: u32) -> Vec<Vec<u32>> {
        let mut wins: Vec<Vec<u32>> = Vec::new();
        for &p in swiss {
            let w = self.wins.get(&p).copied().unwrap_or(0);
            match wins.last_mut() {
                Some(g) if self.wins.get(&g[0]).copied().unwrap_or(0) == w => g.push(p),
                _ => wins.push(vec![p]),
            }
        }
        let ok = |g: &[u32]| self.pairable(g, minrep, |_, _| true);
        self.swiss_split(&wins, &ok)
            .unwrap_or_else(|| vec![swiss.to_vec()])
    }

    fn swiss_split(&self, w: &[Vec<u32>], ok: &dyn Fn(&[u32]) -> bool) -> Option<Vec<Vec<u32>>> {
        let whole = |g: Vec<u32>| ok(&g).then(|| vec![g]);
        if w.len() == 1 {
            return whole(w[0].clone());
        }
        let (top, rest) = widen(w, true, ok)?;
        if rest.is_empty() {
            return Some(vec![top]);
        }
        if rest.len() == 1 {
            return Some(match whole(rest[0].clone()) {
                Some(r) => [vec![top], r].concat(),
                None => whole(w.concat())?,
            });
        }
        let Some((bottom, middle)) = widen(&rest, false, ok) else {
            return whole(w.concat());
        };
        if middle.is_empty() {
            return Some(vec![top, bottom]);
        }
        let mid = if middle.len() == 1 {
            whole(middle[0].clone())
        } else {
            self.swiss_split(&middle, ok)
        };
        if let Some(m) = mid {
            return Some([vec![top], m, vec![bottom]].concat());
        }
        match whole(rest.concat()) {
            Some(r) => Some([vec![top], r].concat()),
            None => whole(w.concat()),
        }
    }

    /// TSH07 Swiss, as tsh pairs it: everyone in `swiss` meets a player of his own tsh Swiss
    /// group (`swiss_groups`), and no two pairs of a group can trade opponents (within the
    /// minimum repeats) for fewer repeats, then fewer consecutive repeats, then better
    /// first/second (2 − the difference of the due signs), then opponents nearer half the
    /// group's size apart in its list — tsh's order of a player's opponents.
    fn check_swiss(&mut self, swiss: &[u32], minrep: u32, flight: bool) {
        let who = if flight { "nonleader" } else { "contender" };
        for g in self.swiss_groups(swiss, minrep) {
            let at: BTreeMap<u32, usize> = g.iter().enumerate().map(|(i, &p)| (p, i)).collect();
            if let Some(&p) = g.iter().find(|p| !at.contains_key(&self.opp[p])) {
                self.flag(
                    "TSH07 Swiss",
                    vec![p, self.opp[&p]],
                    format!(
                        "{who} {p} meets {} outside his Swiss group {g:?} (tsh's win groups, \
                         widened where they cannot pair within {minrep} repeats)",
                        self.opp[&p]
                    ),
                );
                return;
            }
            let due = |p: u32| self.balance.get(&p).copied().unwrap_or(0).signum();
            let n = g.len() as i64;
            let cost = |a: u32, b: u32| {
                let d = at[&a] as i64 - at[&b] as i64;
                [
                    i64::from(self.times(a, b)),
                    i64::from(self.previous.contains(&pair(a, b))),
                    2 - (due(a) - due(b)).abs(),
                    (n - 2 * d.abs()).abs(),
                ]
            };
            let sum =
                |x: [i64; 4], y: [i64; 4]| [x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]];
            let pairs: Vec<(u32, u32)> = g
                .iter()
                .filter(|&&p| at[&p] < at[&self.opp[&p]])
                .map(|&p| (p, self.opp[&p]))
                .collect();
            for (x, &(a, b)) in pairs.iter().enumerate() {
                for &(c, d) in &pairs[x + 1..] {
                    let now = sum(cost(a, b), cost(c, d));
                    for [(p, q), (r, s)] in [[(a, c), (b, d)], [(a, d), (b, c)]] {
                        if self.times(p, q) > minrep || self.times(r, s) > minrep {
                            continue;
                        }
                        if sum(cost(p, q), cost(r, s)) < now {
                            self.flag(
                                "TSH07 Swiss",
                                vec![a, b, c, d],
                                format!(
                                    "{a} v {b} and {c} v {d} ({who}s): {p} v {q} and {r} v {s} \
                                     come first in tsh's order (repeats, last round's \
                                     opponent, first/second, half the group apart)"
                                ),
                            );
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// tsh's widening of the end group of `w` (top or bottom): made even with the nearest
/// player of the next group, then two more at a time until it pairs (`ok`); with the groups
/// left. None: no players left to take.
fn widen(
    w: &[Vec<u32>],
    from_top: bool,
    ok: &dyn Fn(&[u32]) -> bool,
) -> Option<(Vec<u32>, Vec<Vec<u32>>)> {
    let mut rest: Vec<Vec<u32>> = w.to_vec();
    if !from_top {
        rest.reverse();
    }
    let mut end = rest.remove(0);
    let more = |end: &mut Vec<u32>, rest: &mut Vec<Vec<u32>>| {
        if rest.is_empty() {
            return false;
        }
        let p = if from_top {
            rest[0].remove(0)
        } else {
            rest[0].pop().unwrap_or_default()
        };
        end.push(p);
        if rest[0].is_empty() {
            rest.remove(0);
        }
        true
    };
    if end.len() % 2 == 1 {
        more(&mut end, &mut rest);
    }
    while !ok(&end) {
        if !(more(&mut end, &mut rest) && more(&mut end, &mut rest)) {
            return None;
        }
    }
    if !from_top {
        rest.reverse();
    }
    Some((end, rest))
}

/// The games of round `round` of TSH07's initial round robin: the players entered for round 1
/// by rating (then id) in groups of four, the last group taking the 1–3 left over; each group's
/// round `r` as in a Berger round robin of its size (player 1 meets the last in round 1, and so
/// on); an odd group's player without an opponent sits out.
fn round_robin_pairs(t: &Tournament, round: u32) -> BTreeSet<(u32, u32)> {
    let mut ids: Vec<(u32, u32)> = t
        .players
        .iter()
        .filter(|p| p.active_in(1))
        .map(|p| (p.rating, p.id))
        .collect();
    ids.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let ids: Vec<u32> = ids.into_iter().map(|x| x.1).collect();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let take = if ids.len() - i < 8 { ids.len() - i } else { 4 };
        groups.push(ids[i..i + take].to_vec());
        i += take;
    }
    let mut expected: BTreeSet<(u32, u32)> = BTreeSet::new();
    for g in &groups {
        // Circle method: seat 0 stays, seats 1.. turn one place per round.
        let k = g.len() + g.len() % 2;
        let mut seats: Vec<Option<u32>> = g.iter().copied().map(Some).collect();
        seats.resize(k, None);
        for _ in 1..round {
            let last = seats.pop().expect("seats");
            seats.insert(1, last);
        }
        for s in 0..k / 2 {
            if let (Some(a), Some(b)) = (seats[s], seats[k - 1 - s]) {
                expected.insert(pair(a, b));
            }
        }
    }
    expected
}

/// `TSH07 initial round robin`: every game of the round is one of the round robin's, and a
/// player sits out only when his scheduled opponent is absent or he has none.
fn initial_round_robin(t: &Tournament, round: u32) -> Vec<Violation> {
    let expected = round_robin_pairs(t, round);
    let Some(rd) = t.round(round) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut flag = |players: Vec<u32>, what: String| {
        out.push(Violation {
            round,
            rule: "TSH07 initial round robin".into(),
            players,
            message: format!(
                "round {round}: {what} — TSH07 initial three-round round robin (groups of four by rating)"
            ),
        })
    };
    for g in &rd.games {
        if !expected.contains(&pair(g.white, g.black)) {
            flag(
                vec![g.white, g.black],
                format!(
                    "{} v {} is not a game of the initial round robin",
                    g.white, g.black
                ),
            );
        }
    }
    let absent: BTreeSet<u32> = rd.requested_byes().map(|b| b.player).collect();
    let present =
        |id: u32| !absent.contains(&id) && t.player(id).is_some_and(|p| p.active_in(round));
    // A forbidden pair of the schedule (TRF-2026 260) is not played.
    let barred = t.forbidden_in(round);
    let allowed = |a: u32, b: u32| !barred.get(&a).is_some_and(|o| o.contains(&b));
    for &(a, b) in &expected {
        let played = rd.games.iter().any(|g| pair(g.white, g.black) == (a, b));
        if present(a) && present(b) && allowed(a, b) && !played {
            flag(
                vec![a, b],
                format!(
                    "{a} v {b} of the initial round robin is not played, though both are present"
                ),
            );
        }
    }
    out
}
