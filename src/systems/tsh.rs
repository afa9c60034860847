//! tsh contention pairing as used at the 2007 National SCRABBLE Championship (short name
//! "TSH07"): the system `tsh-cp`. See `models/tsh-cp.md` for the integer program clause by
//! clause.
//!
//! The document's loop ("Repeat while players remain unpaired") is followed to split the field
//! into groups — Gibsons, an odd Gibson and the player chosen to meet him, the bye, and one
//! contention flight per pass — because each group's membership follows from the standings
//! alone. A contender group's minimum repeats and its leader/nonleader split follow from the
//! history too (whether a set of players can be paired at all), and are found by exact perfect
//! matchings ([`Split`], through the [`Programs`] the system is given), and so are tsh's Swiss
//! groups. Everything else (who meets whom: KOTH, the leaders' catchers, the Swiss pairs by
//! tsh's order of opponents, repeats, first/second) is one round specification's candidate
//! pairs and lexicographic tiers.
//!
//! Readings taken where the text leaves room (also in the model document):
//! * Standings (TSH07 intro, tsh's order): wins, losses, spread, rating, tsh's key from the `.t`
//!   line, id, after the based-on round; ranks are positions among the players to be paired.
//! * Catching (TSH07 Gibsons): tsh's best possible finish ([`best_finish`], its simulation of
//!   the remaining rounds at 500 a game) decides who contends, who can catch whom and the
//!   Gibsons; the document's pairwise test ([`Plan::catches`]) is kept for comparison.
//! * Gibsons (tsh's `CountGibsons`): the top remaining players down to the last whose next
//!   player cannot finish above his own place, at the start and after each flight.
//! * The Swiss step (tsh's `PairSomeSwiss`): win groups widened from the top and the bottom
//!   until they pair ([`swiss_groups`]), each group paired by tsh's order of opponents.
//! * Repeats count every earlier pairing of the two players (pending games included);
//!   a consecutive repeat is a pair that met in the previous round.
//!
//! Why one long file: the steps of TSH07 (Gibsons, byes, prize bands, contenders, leaders,
//! the Swiss step, the initial round robin) each read the standings the others read, and the
//! program is stated in one pass over them.

use super::System;
use crate::spec::{ByeOption, Candidate, Programs, RoundSpec, Tier};
use crate::tournament::{milli, Colour, GameResult, Standings, Tournament};
use crate::{Error, Result, SystemKind};
use std::collections::{BTreeMap, VecDeque};

/// One win, in the thousandths wins are counted in (a draw is half a win): compared exactly.
const WIN: i64 = 1000;

/// tsh's `MaxSpread`: the spread a player is assumed to win each remaining game by, when his
/// best possible finish is worked out (contenders, Gibsons, who can catch whom).
pub const TSH_MAX_SPREAD: i64 = 500;

/// tsh's flight-cap schedules: how many contenders a flight may hold with `left` rounds left
/// (the round being paired included). An odd cap is rounded up, as tsh does.
#[derive(Debug, Clone, PartialEq)]
pub enum FlightCap {
    /// tsh's default: 2 in the final round, 4 × (left − 1) before, never above 12.
    Tsh,
    /// The document's "four times one less than the number of remaining rounds, or two in the
    /// final round" (`flight_cap_per_round`, `flight_cap_final`), without tsh's ceiling.
    Tsh07,
    /// tsh's pre-2008 NSC schedule: 4 × left, never above 12.
    Nsc,
    /// tsh's 2008 NSC schedule: 2 × left, never above 12.
    Nsc2008,
    /// No cap.
    None,
    /// A list from the most rounds left to the final round (`[12, 8, 4, 2]`); more rounds left
    /// than the list is long: its first entry.
    List(Vec<u32>),
}

impl FlightCap {
    /// The schedule a name (or list) in the settings names.
    pub fn from_value(v: &serde_json::Value) -> Option<FlightCap> {
        if let Some(a) = v.as_array() {
            let l: Option<Vec<u32>> = a.iter().map(|x| x.as_u64().map(|n| n as u32)).collect();
            return l.filter(|l| !l.is_empty()).map(FlightCap::List);
        }
        Some(match v.as_str()?.to_ascii_lowercase().as_str() {
            "tsh" | "default" => FlightCap::Tsh,
            "tsh07" => FlightCap::Tsh07,
            "nsc" => FlightCap::Nsc,
            "nsc2008" => FlightCap::Nsc2008,
            "none" => FlightCap::None,
            _ => return None,
        })
    }
}

/// The system `tsh-cp`, with the programs that answer its perfect matchings.
pub struct TshCp {
    /// Answers the perfect matchings the plan asks (a group's minimum repeats and leader split).
    pub programs: Programs,
}

/// Director's settings (`Tournament.settings`; for a `.t` file, the sidecar `X.tsh.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// `lag`: pair from the standings after round r − lag (TSH07: 2), except at a session's
    /// start and in the final round, which use the preceding round.
    pub lag: u32,
    /// `session_starts`: rounds that begin a session (paired from the preceding round).
    pub session_starts: Vec<u32>,
    /// `lag_final_round`: whether the final round also uses the lagged standings (TSH07: no).
    pub lag_final_round: bool,
    /// `prize_bands`: the last rank of each prize band, ascending (tsh default 1, 2, …, N/4).
    pub prize_bands: Option<Vec<u32>>,
    /// `gibson_spread`: assumed spread per round when catching up over 1, 2, 3+ rounds. tsh's
    /// ChewPair assumes 500 a round whatever its own `gibson_spread` says (its best-possible-
    /// finish simulation never reads it), so the default is `[500]`.
    pub gibson_spread: Vec<i64>,
    /// `flight_cap`: the contender cap by rounds left (tsh's schedules, see [`FlightCap`]).
    pub flight_cap: FlightCap,
    /// `flight_cap_per_round`: the document's cap (`flight_cap = "tsh07"`) is this times
    /// (rounds left − 1).
    pub cap_per_round: u32,
    /// `flight_cap_final`: the document's cap in the final round.
    pub cap_final: u32,
    /// `force_koth`: with this many rounds left or fewer, flights of two (tsh).
    pub force_koth: u32,
    /// `chew_no_swiss_all`: when every remaining player contends, split leaders and
    /// nonleaders anyway instead of one Swiss group (tsh).
    pub no_swiss_all: bool,
    /// `based_on`: `{round: based-on round}` for rounds paired from other standings than the
    /// lag says (tsh's `autopair DIV BASED ROUND` lines in `config.tsh`).
    pub based_on_rounds: BTreeMap<u32, u32>,
    /// `initial_round_robin`: rounds 1..=N are a round robin in groups of four by rating,
    /// paired in advance (TSH07: "after the initial three-round round robin" — 3). 0: none.
    /// Not set: the document's 3, see [`Settings::round_robin_rounds`].
    pub initial_round_robin: Option<u32>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lag: 2,
            session_starts: Vec::new(),
            lag_final_round: false,
            prize_bands: None,
            gibson_spread: vec![TSH_MAX_SPREAD],
            flight_cap: FlightCap::Tsh,
            cap_per_round: 4,
            cap_final: 2,
            force_koth: 0,
            no_swiss_all: false,
            based_on_rounds: BTreeMap::new(),
            initial_round_robin: None,
        }
    }
}

fn uint(t: &Tournament, key: &str) -> Result<Option<u32>> {
    match t.settings.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(|x| Some(x as u32))
            .ok_or_else(|| Error::field(key, format!("must be a whole number, got {v}"))),
    }
}

fn list(t: &Tournament, key: &str) -> Result<Option<Vec<i64>>> {
    match t.settings.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_i64()
                    .ok_or_else(|| Error::field(key, format!("must hold whole numbers, got {v}")))
            })
            .collect::<Result<Vec<i64>>>()
            .map(Some),
        Some(v) => Err(Error::field(key, format!("must be a list, got {v}"))),
    }
}

impl Settings {
    /// The settings of `t`, each checked, with the defaults where unset.
    pub fn from(t: &Tournament) -> Result<Settings> {
        let mut s = Settings::default();
        if let Some(l) = uint(t, "lag")? {
            if l == 0 {
                return Err(Error::field("lag", "must be 1 or more"));
            }
            s.lag = l;
        }
        if let Some(v) = list(t, "session_starts")? {
            s.session_starts = v.into_iter().map(|x| x.max(0) as u32).collect();
        }
        match t.settings.get("lag_final_round") {
            None | Some(serde_json::Value::Null) => {}
            Some(serde_json::Value::Bool(b)) => s.lag_final_round = *b,
            Some(v) => {
                return Err(Error::field(
                    "lag_final_round",
                    format!("must be true or false, got {v}"),
                ))
            }
        }
        if let Some(v) = list(t, "prize_bands")? {
            if v.iter().any(|&x| x < 1) || v.windows(2).any(|w| w[0] >= w[1]) {
                return Err(Error::field(
                    "prize_bands",
                    "must be ranks of 1 or more, strictly ascending",
                ));
            }
            s.prize_bands = Some(v.into_iter().map(|x| x as u32).collect());
        }
        if let Some(v) = list(t, "gibson_spread")? {
            if v.is_empty() || v.iter().any(|&x| x < 0) {
                return Err(Error::field(
                    "gibson_spread",
                    "must be a non-empty list of spreads ≥ 0",
                ));
            }
            s.gibson_spread = v;
        }
        if let Some(c) = uint(t, "flight_cap_per_round")? {
            s.cap_per_round = c;
            s.flight_cap = FlightCap::Tsh07;
        }
        if let Some(c) = uint(t, "flight_cap_final")? {
            s.cap_final = c;
            s.flight_cap = FlightCap::Tsh07;
        }
        if let Some(v) = t.settings.get("flight_cap").filter(|v| !v.is_null()) {
            s.flight_cap = FlightCap::from_value(v).ok_or_else(|| {
                Error::field(
                    "flight_cap",
                    format!(
                        "unknown flight cap {v} (known: tsh, tsh07, nsc, nsc2008, none, or a \
                         list of caps from the most rounds left to the final round)"
                    ),
                )
            })?;
        }
        if let Some(k) = uint(t, "force_koth")? {
            s.force_koth = k;
        }
        match t.settings.get("chew_no_swiss_all") {
            None | Some(serde_json::Value::Null) => {}
            Some(serde_json::Value::Bool(b)) => s.no_swiss_all = *b,
            Some(v) if v.as_u64().is_some() => s.no_swiss_all = v.as_u64() != Some(0),
            Some(v) => {
                return Err(Error::field(
                    "chew_no_swiss_all",
                    format!("must be true or false, got {v}"),
                ))
            }
        }
        if let Some(n) = uint(t, "initial_round_robin")? {
            if n > 3 {
                return Err(Error::field(
                    "initial_round_robin",
                    "a group of four plays a round robin in 3 rounds: 0 to 3",
                ));
            }
            s.initial_round_robin = Some(n);
        }
        match t.settings.get("based_on") {
            None | Some(serde_json::Value::Null) => {}
            Some(serde_json::Value::Object(m)) => {
                for (k, v) in m {
                    match (k.parse::<u32>(), v.as_u64()) {
                        (Ok(r), Some(b)) if (b as u32) < r => {
                            s.based_on_rounds.insert(r, b as u32);
                        }
                        _ => {
                            return Err(Error::field(
                                "based_on",
                                format!("round {k} cannot be paired from round {v}"),
                            ))
                        }
                    }
                }
            }
            Some(v) => {
                return Err(Error::field(
                    "based_on",
                    format!("must map rounds to the rounds they are paired from, got {v}"),
                ))
            }
        }
        Ok(s)
    }

    /// How many rounds of `t` the initial round robin pairs: the setting when given; else
    /// TSH07's "initial three-round round robin", unless round 1 is already paired otherwise
    /// (an event paired before this default, or by other means): such an event did not start
    /// with the round robin, and its rounds are contention rounds. A round config.tsh names in
    /// an `autopair` line (`based_on`) is tsh's automatic pairing, not the round robin, which
    /// then ends before it.
    pub fn round_robin_rounds(&self, t: &Tournament) -> u32 {
        if let Some(n) = self.initial_round_robin {
            return n;
        }
        let rounds = self
            .based_on_rounds
            .keys()
            .next()
            .map_or(3, |&r| (r - 1).min(3));
        let scheduled: Vec<(u32, u32)> = round_robin_round(t, 1)
            .0
            .into_iter()
            .map(|(a, b)| key(a, b))
            .collect();
        let departs = t.round(1).is_some_and(|rd| {
            rd.games
                .iter()
                .any(|g| !scheduled.contains(&key(g.white, g.black)))
        });
        if departs {
            0
        } else {
            rounds
        }
    }

    /// The round whose standings pair round `round` (TSH07 intro).
    pub fn based_on(&self, round: u32, planned: u32) -> u32 {
        if let Some(&b) = self.based_on_rounds.get(&round) {
            return b;
        }
        let full = self.lag == 1
            || self.session_starts.contains(&round)
            || (round == planned && !self.lag_final_round);
        round.saturating_sub(if full { 1 } else { self.lag })
    }

    /// Assumed spread per round when catching up over `n` rounds (TSH07 Gibsons).
    pub fn spread_per_round(&self, n: u32) -> i64 {
        let i = (n.max(1) as usize - 1).min(self.gibson_spread.len() - 1);
        self.gibson_spread[i]
    }

    /// Contender cap with `left` rounds left including the one being paired: tsh's schedule
    /// (`flight_cap`, default 2, 4, 8, 12, 12, … by rounds left; TSH07's text has no ceiling
    /// of 12), `force_koth` first, an odd cap rounded up.
    pub fn cap(&self, left: u32) -> usize {
        let left = left.max(1);
        let c = if left <= self.force_koth {
            2
        } else {
            match &self.flight_cap {
                FlightCap::Tsh => match left {
                    1 => 2,
                    l if l >= 4 => 12,
                    l => 4 * (l - 1),
                },
                FlightCap::Tsh07 if left == 1 => self.cap_final,
                FlightCap::Tsh07 => self.cap_per_round * (left - 1),
                FlightCap::Nsc => (4 * left).min(12),
                FlightCap::Nsc2008 => (2 * left).min(12),
                FlightCap::None => u32::MAX / 4,
                FlightCap::List(l) => {
                    let i = l.len().saturating_sub(left as usize);
                    l[i]
                }
            }
        };
        ((c as usize).div_ceil(2) * 2).max(2)
    }
}

/// tsh's bye spread inside its best-possible-finish simulation (its `bye_spread` default).
pub const TSH_SIM_BYE_SPREAD: i64 = 50;

/// One player's record in the best-possible-finish simulation: wins in half wins, spread,
/// games left, and the spread a game is won by.
#[derive(Debug, Clone, Copy)]
struct SimRecord {
    w: i64,
    s: i64,
    left: i64,
    ms: i64,
}

/// A simulated game's result: the higher-placed player wins big, the lower one wins big, or
/// the lower one wins by exactly this much.
enum SimResult {
    HighBig,
    LowBig,
    LowBy(i64),
}

/// The simulation's four pools of the others, by where they stand against the player whose
/// finish is sought: to win (above / below the cap), to lose (above / below the cap).
const HW: usize = 0;
const LW: usize = 1;
const HL: usize = 2;
const LL: usize = 3;

/// Positions of `x` by simulated standing (wins, spread), `me` first among equals, others in
/// their standings order.
fn sim_order(x: &[SimRecord], me: usize) -> Vec<usize> {
    let mut o: Vec<usize> = (0..x.len()).collect();
    o.sort_by_key(|&p| (std::cmp::Reverse((x[p].w, x[p].s)), p != me));
    o
}

/// The result tsh gives a game between `hi` (placed higher) and `lo`, given the final record
/// `(fw, fs)` the player whose finish is sought reaches: whoever cannot be kept below him is
/// written off with a big win; otherwise the lower player wins by as much as keeps him below,
/// or as makes the two level, so that both stay beatable.
fn sim_result(hi: &SimRecord, lo: &SimRecord, (fw, fs): (i64, i64)) -> SimResult {
    let even_up = || ((1 + hi.s - lo.s) / 2).min(hi.ms);
    if lo.w > fw {
        SimResult::LowBig
    } else if hi.w > fw || lo.w == fw {
        SimResult::HighBig
    } else if lo.w == fw - 2 {
        if lo.s < fs {
            SimResult::LowBy(fs - lo.s)
        } else if hi.s > lo.s {
            SimResult::HighBig
        } else {
            SimResult::LowBig
        }
    } else if hi.w == fw {
        let delta = hi.s - fs;
        if delta > 0 && delta <= hi.ms * hi.left {
            SimResult::LowBig
        } else {
            SimResult::HighBig
        }
    } else if lo.w < hi.w - 2 {
        SimResult::LowBy(hi.ms)
    } else if lo.w < hi.w && lo.s > hi.s {
        SimResult::LowBy(1)
    } else {
        SimResult::LowBy(even_up())
    }
}

/// Pairs pool `g` (taken from its front or its back) against the pools in `order` (each from
/// its front), playing each game as [`sim_result`] says; nobody left: a bye.
fn sim_pool(
    pools: &mut [VecDeque<usize>; 4],
    x: &mut [SimRecord],
    g: usize,
    order: [usize; 4],
    front: bool,
    f: (i64, i64),
) {
    loop {
        let taken = if front {
            pools[g].pop_front()
        } else {
            pools[g].pop_back()
        };
        let Some(mut p) = taken else { break };
        let Some(mut o) = order.iter().find_map(|&k| pools[k].pop_front()) else {
            x[p].w += 2;
            x[p].left -= 1;
            x[p].s += TSH_SIM_BYE_SPREAD;
            continue;
        };
        if (x[p].w, x[p].s) < (x[o].w, x[o].s) {
            std::mem::swap(&mut p, &mut o);
        }
        let (win, lose, by) = match sim_result(&x[p], &x[o], f) {
            SimResult::HighBig => (p, o, None),
            SimResult::LowBig => (o, p, None),
            SimResult::LowBy(k) => (o, p, Some(k)),
        };
        x[win].w += 2;
        x[win].s += by.unwrap_or(x[win].ms);
        x[lose].s -= by.unwrap_or(x[lose].ms);
        x[p].left -= 1;
        x[o].left -= 1;
    }
}

/// tsh's best possible finish of `records[me]` (1-based, among `records`): `records` are
/// (half wins, spread) in standings order, with `rounds` games left each. tsh plays the
/// remaining rounds out: he wins each game by the full spread, against the highest-placed of
/// those who could still pass him (else the lowest-placed of those who cannot), preferring
/// his own side of the flight cap; the others are paired among themselves pool by pool, and
/// each game goes the way that keeps as many as possible below him (`sim_result`). The cap
/// is the flight cap for the rounds left at each simulated round.
pub fn best_finish(records: &[(i64, i64)], me: usize, rounds: u32, s: &Settings) -> usize {
    if records.len() <= 1 {
        return 1;
    }
    if rounds == 0 {
        return me + 1;
    }
    let ms = s.spread_per_round(rounds);
    let mut x: Vec<SimRecord> = records
        .iter()
        .map(|&(w, sp)| SimRecord {
            w,
            s: sp,
            left: i64::from(rounds),
            ms,
        })
        .collect();
    for r in 1..=rounds {
        let fw = x[me].w + 2 * x[me].left;
        let mut fs = x[me].s + x[me].left * x[me].ms;
        let cap0 = (s.cap(rounds - r + 1) - 1).min(x.len() - 1);
        let mut pools: [VecDeque<usize>; 4] = Default::default();
        let mut mine = 0;
        for (i, p) in sim_order(&x, me).into_iter().enumerate() {
            if p == me {
                mine = i;
                continue;
            }
            let rec = (x[p].w, x[p].s);
            // Those who cannot reach his final record this round, or are past it already,
            // may as well win; the others had better lose.
            let wins = rec < (fw - 2, fs) || rec > (fw, fs);
            match (wins, i <= cap0) {
                (true, true) => pools[HW].push_front(p),
                (true, false) => pools[LW].push_front(p),
                (false, true) => pools[HL].push_back(p),
                (false, false) => pools[LL].push_back(p),
            }
        }
        let his = if mine <= cap0 {
            [HL, HW, LL, LW]
        } else {
            [LL, LW, HL, HW]
        };
        x[me].w += 2;
        x[me].left -= 1;
        match his.iter().find_map(|&k| pools[k].pop_front()) {
            Some(o) => {
                x[me].s += x[me].ms;
                x[o].left -= 1;
                x[o].s -= x[o].ms;
            }
            None => {
                x[me].s += TSH_SIM_BYE_SPREAD;
                fs += TSH_SIM_BYE_SPREAD - x[me].ms;
            }
        }
        let f = (fw, fs);
        sim_pool(&mut pools, &mut x, HW, [HL, HW, LW, LL], false, f);
        sim_pool(&mut pools, &mut x, HL, [HW, HL, LL, LW], true, f);
        sim_pool(&mut pools, &mut x, LW, [LL, LW, HL, HW], false, f);
        sim_pool(&mut pools, &mut x, LL, [LW, LL, HW, HL], true, f);
    }
    sim_order(&x, me)
        .iter()
        .position(|&p| p == me)
        .unwrap_or(me)
        + 1
}

/// How many of `remaining` a flight of its top `n` holds once it can be paired: a flight with
/// a forbidden pair (TRF-2026 260) no pairing of it avoids takes the next two players, as
/// tsh's Swiss widens a group, until it pairs or holds everyone left. Without a forbidden pair
/// among them, `n`.
fn widened(remaining: &[u32], mut n: usize, met: &Meetings, programs: &Programs) -> usize {
    let barred = |a: u32, b: u32| forbidden(i64::from(met.get(&key(a, b)).copied().unwrap_or(0)));
    let pairs = |list: &[u32]| {
        let edges: Vec<(usize, usize)> = (0..list.len())
            .flat_map(|i| (i + 1..list.len()).map(move |j| (i, j)))
            .filter(|&(i, j)| !barred(list[i], list[j]))
            .collect();
        edges.len() == list.len() * list.len().saturating_sub(1) / 2
            || (programs.perfect_matching)(list.len(), &edges)
    };
    while n < remaining.len() && !pairs(&remaining[..n]) {
        n = (n + 2).min(remaining.len());
    }
    n
}

/// What a group of the plan is.
#[derive(Debug, Clone, PartialEq)]
pub enum GroupKind {
    /// An even number of Gibsons, paired KOTH among themselves.
    Gibsons,
    /// An odd Gibson and the opponent the rule chose for him.
    GibsonOpponent,
    /// Contenders for a prize band split into leaders and nonleaders.
    Flight,
    /// Every remaining player contends: one Swiss group.
    Swiss,
}

/// One group: players by rank.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// What the group is.
    pub kind: GroupKind,
    /// Player ids, by rank.
    pub players: Vec<u32>,
    /// The prize band contended (first and last rank), for flights.
    pub band: Option<(u32, u32)>,
    /// The contenders of a prize band: tsh pairs them (minimum repeats, the leader split, the
    /// leaders' pairs) so that the lower of each pair can catch the higher where it can.
    pub must_catch: bool,
    /// Each member's best possible finish as tsh last computed it (0: not computed), by which
    /// the group's catching is judged.
    pub best: Vec<usize>,
}

/// The procedural part of TSH07: who is in which group. Pairings inside groups are the
/// solver's.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The round whose standings pair this one ([`Settings::based_on`]).
    pub based_on: u32,
    /// Players to pair by standing after `based_on` (rank = index + 1).
    pub order: Vec<u32>,
    /// Wins in thousandths (a draw is half a win).
    pub wins: BTreeMap<u32, i64>,
    /// Spread after `based_on` (the sum of game-score differences), by player id.
    pub spread: BTreeMap<u32, i64>,
    /// Rounds not yet in the standings (chasers' rounds to catch up).
    pub rounds_to_catch: u32,
    /// The last rank of the last prize band (0 when there is none).
    pub last_prize_rank: u32,
    /// The groups, in the order the plan formed them.
    pub groups: Vec<Group>,
    /// The player given the bye, if the field is odd.
    pub bye: Option<u32>,
    /// What the plan decided, for the director (standings used, Gibsons, bye, flights).
    pub notes: Vec<String>,
    /// tsh's best possible finishes (its `MaxRank`), by player, as last computed; 0 where
    /// tsh has not computed one.
    pub best: BTreeMap<u32, usize>,
}

/// How often each pair (lower id first) has been paired.
pub type Meetings = BTreeMap<(u32, u32), u32>;

/// The meetings a pair forbidden in the round (TRF-2026 260) counts as: more than any
/// minimum repeats can reach, so it is never a candidate nor a pair a group may be paired by.
pub const FORBIDDEN_MET: u32 = 1_000_000;

/// Whether a pair met `times` times is a forbidden pair ([`FORBIDDEN_MET`]).
fn forbidden(times: i64) -> bool {
    times >= i64::from(FORBIDDEN_MET)
}

/// Earlier pairings of each pair (all rounds before `round`, pending games included), a pair
/// forbidden in `round` (TRF-2026 260) counted as met [`FORBIDDEN_MET`] times; and the pairs
/// of the previous round.
pub fn meetings(t: &Tournament, round: u32) -> (Meetings, Vec<(u32, u32)>) {
    let mut met = BTreeMap::new();
    let mut last = Vec::new();
    for (a, others) in t.forbidden_in(round) {
        for b in others.into_iter().filter(|&b| a < b) {
            met.insert((a, b), FORBIDDEN_MET);
        }
    }
    for rd in t.rounds.iter().filter(|rd| rd.number < round) {
        for g in &rd.games {
            let k = (g.white.min(g.black), g.white.max(g.black));
            *met.entry(k).or_insert(0) += 1;
            if rd.number + 1 == round {
                last.push(k);
            }
        }
    }
    (met, last)
}

fn key(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// Each player's losses in the rounds up to `upto`: games and byes with a result, less the
/// points won (tsh ranks fewer losses first among equal wins).
/// In thousandths.
fn losses(t: &Tournament, upto: u32) -> BTreeMap<u32, i64> {
    let mut l: BTreeMap<u32, i64> = t.players.iter().map(|p| (p.id, 0)).collect();
    let lost = |points: f64| milli(t.scoring.win) - milli(points);
    for rd in t.rounds.iter().filter(|rd| rd.number <= upto) {
        for g in rd.games.iter().filter(|g| g.result != GameResult::Pending) {
            let (w, b) = g.result.points(&t.scoring);
            *l.entry(g.white).or_default() += lost(w);
            *l.entry(g.black).or_default() += lost(b);
        }
        for b in &rd.byes {
            *l.entry(b.player).or_default() += lost(b.kind.points(&t.scoring));
        }
    }
    l
}

/// tsh's standings tie-break after rating, by player id (higher first): the number tsh
/// derives from each `.t` line when it reads the file (kept by the `.t` reader under
/// `tsh.line_keys`); where that is 0, a number from the player's name and id instead; a
/// number another player already holds is stepped on by a linear congruential step until it
/// is free, in id order. None (every tie to the number) without a `.t` file or with
/// `no_random`.
pub fn standing_keys(t: &Tournament) -> BTreeMap<u32, u64> {
    const A: u64 = 1_103_515_245;
    const C: u64 = 12_345;
    const M: u64 = 1 << 31;
    let Some(lines) = t.settings.get("tsh.line_keys").and_then(|v| v.as_object()) else {
        return BTreeMap::new();
    };
    if t.settings.get("no_random").and_then(|v| v.as_bool()) == Some(true) {
        return BTreeMap::new();
    }
    let mut ids: Vec<u32> = t.players.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    let mut taken = std::collections::BTreeSet::new();
    let mut keys = BTreeMap::new();
    for id in ids {
        let name = t.player(id).map_or("", |p| p.name.as_str());
        let mut k = lines
            .get(&id.to_string())
            .and_then(|v| v.as_u64())
            .unwrap_or(0);
        if k == 0 {
            let first = u64::from(name.as_bytes().first().copied().unwrap_or(0));
            k = (A * name.len() as u64 * (100 + u64::from(id)) * first + C) % M;
        }
        while !taken.insert(k) {
            k = (A * k + C) % M;
        }
        keys.insert(id, k);
    }
    keys
}

/// Whether `players` (an even number, at most a handful) pair among themselves with nobody
/// meeting an earlier opponent.
fn pairs_without_repeats(players: &[u32], met: &Meetings) -> bool {
    let Some((&a, rest)) = players.split_first() else {
        return true;
    };
    (0..rest.len()).any(|i| {
        !met.contains_key(&key(a, rest[i])) && {
            let mut others = rest.to_vec();
            others.remove(i);
            pairs_without_repeats(&others, met)
        }
    })
}

impl Plan {
    /// tsh's "faint hope" rank: with four rounds left or fewer, the players within a win of
    /// the last prize rank (counted as tsh counts them) still contend when the prize bands are
    /// done; earlier, the flight cap for one round fewer. Below the prize bands, the top
    /// remaining players down to this rank form a capped flight.
    pub fn faint_hope_rank(&self, s: &Settings, left: u32) -> usize {
        let lpr = self.last_prize_rank as usize;
        if left > 4 || lpr == 0 || lpr > self.order.len() {
            return s.cap(left.saturating_sub(1));
        }
        let wins = |i: usize| self.order.get(i).map(|p| self.wins[p]);
        let floor = self.wins[&self.order[lpr - 1]] - WIN;
        let mut rank = lpr;
        while wins(rank + 1).is_some_and(|w| w >= floor) {
            rank += 1;
        }
        (rank + 1).min(self.order.len())
    }

    /// How many of `remaining` (by rank, the bye already out) contend in this pass: tsh's
    /// count for the prize band `band` — the lowest of the top `cap` players whose best
    /// possible finish ([`best_finish`], computed over the top `cap` + 2) is within the band,
    /// and everyone above him; +1 if odd; capped for first place — or below the bands the
    /// faint-hope flight; non-contenders folded in when at most six are left, they are fewer
    /// than half the contenders, and they cannot pair without repeats.
    fn contenders(
        &mut self,
        s: &Settings,
        remaining: &[u32],
        band: Option<(u32, u32)>,
        left: u32,
        faint: usize,
        met: &Meetings,
    ) -> usize {
        let cap = s.cap(left);
        let n = match band {
            None => {
                let top = self.rank(remaining[0]);
                let mut c = faint.saturating_sub(top);
                c += c % 2;
                match c.min(cap) {
                    0 => remaining.len(),
                    c => c,
                }
            }
            Some((first, last)) => {
                let (scan, simulated) = if remaining.len() > cap {
                    (cap, (cap + 2).min(remaining.len()))
                } else {
                    (remaining.len(), remaining.len())
                };
                self.compute_best(s, &remaining[..simulated]);
                let reach = |p: u32| self.best[&p] <= last as usize;
                let mut c = (0..scan).rfind(|&i| reach(remaining[i])).unwrap_or(0) + 1;
                c += c % 2;
                if first == 1 {
                    c = c.min(cap);
                }
                c
            }
        }
        .min(remaining.len());
        let rest = &remaining[n..];
        if !rest.is_empty()
            && n > 2 * rest.len()
            && rest.len() <= 6
            && !pairs_without_repeats(rest, met)
        {
            // tsh computes the finishes again when the folded-in players have none.
            if self.best.get(&remaining[remaining.len() - 1]) == Some(&0) {
                self.compute_best(s, remaining);
            }
            return remaining.len();
        }
        n
    }

    /// tsh's best possible finishes of `list` (by rank, consecutive from the top remaining
    /// player), each an overall rank: the simulation runs among `list` alone.
    fn compute_best(&mut self, s: &Settings, list: &[u32]) {
        let Some(&top) = list.first() else { return };
        let top = self.rank(top);
        let records: Vec<(i64, i64)> = list
            .iter()
            .map(|p| (2 * self.wins[p] / WIN, self.spread[p]))
            .collect();
        for (i, &p) in list.iter().enumerate() {
            let b = best_finish(&records, i, self.rounds_to_catch, s) + top - 1;
            self.best.insert(p, b);
        }
    }

    /// The player an odd Gibson `gib` meets among `remaining` (tsh's scan from the bottom up,
    /// with best possible finishes computed over `gib` and `remaining`): the lowest ranked of
    /// those who met him least, replaced by a higher one who met him as often and cannot
    /// finish in the money (best finish below the last prize rank). Like tsh, a hopeless
    /// player found before a player who met him less stays chosen.
    fn gibson_victim(&mut self, s: &Settings, gib: u32, remaining: &[u32], met: &Meetings) -> u32 {
        let list: Vec<u32> = std::iter::once(gib)
            .chain(remaining.iter().copied())
            .collect();
        self.compute_best(s, &list);
        let lpr = self.last_prize_rank as usize;
        let (mut victim, mut least, mut hopeless) = (None, 0, None);
        for &p in remaining.iter().rev() {
            let rep = met.get(&key(p, gib)).copied().unwrap_or(0);
            let is_hopeless = self.best[&p] > lpr;
            if victim.is_none() || rep < least {
                (victim, least) = (Some(p), rep);
                if is_hopeless {
                    hopeless = Some(p);
                }
            } else if is_hopeless && rep == least {
                hopeless = Some(p);
            }
        }
        hopeless
            .or(victim)
            .unwrap_or(remaining[remaining.len() - 1])
    }

    /// Whether `lo` catches `hi` (see the module notes).
    pub fn catches(&self, s: &Settings, lo: u32, hi: u32) -> bool {
        let n = self.rounds_to_catch;
        if n == 0 {
            return false;
        }
        let (wl, wh) = (self.wins[&lo] + i64::from(n) * WIN, self.wins[&hi]);
        if wl != wh {
            return wl > wh;
        }
        self.spread[&lo] + 2 * i64::from(n) * s.spread_per_round(n) >= self.spread[&hi]
    }

    fn rank(&self, id: u32) -> usize {
        self.order.iter().position(|&p| p == id).unwrap() + 1
    }

    /// The standings round `round` is paired from (TSH07 intro, tsh's order): the players to
    /// pair, their wins and spread after `based_on`, and no groups yet.
    fn standings(t: &Tournament, round: u32, based_on: u32, planned: u32) -> Plan {
        let standings = Standings::before(t, based_on + 1);
        let absent: Vec<u32> = t
            .round(round)
            .map(|rd| rd.requested_byes().map(|b| b.player).collect())
            .unwrap_or_default();
        let mut order: Vec<u32> = standings
            .by_wins_spread()
            .into_iter()
            .filter(|id| t.player(*id).is_some_and(|p| p.active_in(round)) && !absent.contains(id))
            .collect();
        // tsh's standings: wins, then losses (fewer first), then spread, rating, its key
        // from the `.t` line (higher first), number.
        let losses = losses(t, based_on);
        let keys = standing_keys(t);
        order.sort_by(|a, b| {
            let (x, y) = (&standings.by_id[a], &standings.by_id[b]);
            milli(y.score)
                .cmp(&milli(x.score))
                .then(losses[a].cmp(&losses[b]))
                .then(y.spread.cmp(&x.spread))
                .then(y.rating.cmp(&x.rating))
                .then(keys.get(b).cmp(&keys.get(a)))
                .then(x.number.cmp(&y.number))
        });
        let best = order.iter().map(|&p| (p, 0)).collect();
        Plan {
            based_on,
            order,
            wins: standings
                .by_id
                .iter()
                .map(|(&k, v)| (k, milli(v.score)))
                .collect(),
            spread: standings
                .by_id
                .iter()
                .map(|(&k, v)| (k, v.spread))
                .collect(),
            rounds_to_catch: planned.saturating_sub(based_on),
            last_prize_rank: 0,
            groups: Vec::new(),
            bye: None,
            notes: vec![format!(
                "TSH07: round {round} paired from the standings after round {based_on}"
            )],
            best,
        }
    }

    /// Builds the plan for round `round` of `t` (rounds from `round` on are ignored), in
    /// tsh's order: the Gibsons and the bye first (its `SetupForPairings`), then one
    /// contention flight a pass, each followed by a fresh look for Gibsons (when the top
    /// remaining player is within the prize ranks and cannot rise) and the bye (its
    /// `ChewPair` loop).
    /// `programs` answer whether a flight holding a forbidden pair can be paired at all.
    pub fn build(t: &Tournament, round: u32, s: &Settings, programs: &Programs) -> Result<Plan> {
        let planned = t.rounds_planned.ok_or_else(|| {
            Error::field(
                "rounds_planned",
                "tsh-cp needs the number of rounds planned (tsh max_rounds)",
            )
        })?;
        let mut plan = Plan::standings(t, round, s.based_on(round, planned), planned);
        let bands = s
            .prize_bands
            .clone()
            .unwrap_or_else(|| (1..=(plan.order.len() as u32 / 4).max(1)).collect());
        plan.last_prize_rank = bands.last().copied().unwrap_or(0);
        let (met, _) = meetings(t, round);
        let byes_had = |id: u32| {
            t.rounds
                .iter()
                .filter(|rd| rd.number < round)
                .flat_map(|rd| &rd.byes)
                .filter(|b| b.player == id)
                .count()
        };
        let left = planned.saturating_sub(round) + 1;
        let faint = plan.faint_hope_rank(s, left);
        let mut remaining = plan.order.clone();
        plan.gibsons(s, &mut remaining, &met);
        plan.bye(&mut remaining, &byes_had);
        while !remaining.is_empty() {
            plan.contention(s, &mut remaining, &bands, (left, faint), (&met, programs));
            if !remaining.is_empty() && plan.may_have_gibsons(s, &remaining) {
                plan.gibsons(s, &mut remaining, &met);
            }
            plan.bye(&mut remaining, &byes_had);
        }
        Ok(plan)
    }

    /// Whether tsh looks for Gibsons again after a flight: the top remaining player is within
    /// the prize ranks and cannot rise above his rank (his best possible finish, computed
    /// over everyone to be paired if it was not yet).
    fn may_have_gibsons(&mut self, s: &Settings, remaining: &[u32]) -> bool {
        let top = remaining[0];
        if self.best[&top] == 0 {
            let all = self.order.clone();
            self.compute_best(s, &all);
        }
        let (rank, best) = (self.rank(top), self.best[&top]);
        rank as u32 <= self.last_prize_rank && !(best != 0 && best < rank)
    }

    /// TSH07 Gibsons, counted as tsh counts them (its `CountGibsons`): with best possible
    /// finishes computed over the top (last prize rank + 3) remaining players, the top
    /// remaining players down to the last whose next player cannot finish above his own
    /// place; again after each batch. An even batch plays KOTH among itself; an odd one's
    /// lowest takes the bye when the field is odd, else meets the player tsh's scan chooses.
    fn gibsons(&mut self, s: &Settings, remaining: &mut Vec<u32>, met: &Meetings) {
        while !remaining.is_empty() {
            let list = remaining[..remaining.len().min(self.last_prize_rank as usize + 3)].to_vec();
            self.compute_best(s, &list);
            let top = self.rank(remaining[0]);
            let mut g = 0;
            while g + 1 < remaining.len() && self.best[&remaining[g + 1]] == top + g + 1 {
                g += 1;
            }
            if g == 0 {
                return;
            }
            let gibsons: Vec<u32> = remaining[..g].to_vec();
            self.notes.push(format!("TSH07 Gibsons: {gibsons:?}"));
            let even = g / 2 * 2;
            if even > 0 {
                self.groups.push(Group {
                    kind: GroupKind::Gibsons,
                    players: gibsons[..even].to_vec(),
                    band: None,
                    must_catch: false,
                    best: Vec::new(),
                });
            }
            let parity_odd = remaining.len() % 2 == 1;
            remaining.drain(..g);
            if g % 2 == 1 {
                self.odd_gibson(s, gibsons[g - 1], parity_odd, remaining, met);
            }
        }
    }

    /// TSH07 Gibsons, an odd one: the bye when the field is odd, else the player tsh's scan
    /// chooses ([`Plan::gibson_victim`]).
    fn odd_gibson(
        &mut self,
        s: &Settings,
        gib: u32,
        parity_odd: bool,
        remaining: &mut Vec<u32>,
        met: &Meetings,
    ) {
        if parity_odd && self.bye.is_none() || remaining.is_empty() {
            self.bye = Some(gib);
            self.notes
                .push(format!("TSH07 Gibson odd: {gib} takes the bye"));
            return;
        }
        let victim = self.gibson_victim(s, gib, remaining, met);
        self.notes.push(format!(
            "TSH07 Gibson odd: {gib} meets {victim} (rank {})",
            self.rank(victim)
        ));
        remaining.retain(|&p| p != victim);
        self.groups.push(Group {
            kind: GroupKind::GibsonOpponent,
            players: vec![gib, victim],
            band: None,
            must_catch: false,
            best: Vec::new(),
        });
    }

    /// TSH07 byes: when the remaining field is odd, the lowest ranked among those with the
    /// fewest byes.
    fn bye(&mut self, remaining: &mut Vec<u32>, byes_had: &dyn Fn(u32) -> usize) {
        if remaining.len().is_multiple_of(2) || self.bye.is_some() {
            return;
        }
        let fewest = remaining.iter().map(|&p| byes_had(p)).min().unwrap();
        let pick = *remaining
            .iter()
            .rev()
            .find(|&&p| byes_had(p) == fewest)
            .unwrap();
        self.bye = Some(pick);
        self.notes.push(format!("TSH07 bye: {pick}"));
        remaining.retain(|&p| p != pick);
    }

    /// TSH07 contention, one pass: the highest band still contended and its contenders
    /// ([`Plan::contenders`]) taken off the top of `remaining` as one group — Swiss when they
    /// are everyone left (unless `chew_no_swiss_all`), else a flight.
    fn contention(
        &mut self,
        s: &Settings,
        remaining: &mut Vec<u32>,
        bands: &[u32],
        (left, faint): (u32, usize),
        (met, programs): (&Meetings, &Programs),
    ) {
        let top_rank = self.rank(remaining[0]) as u32;
        let band = bands
            .iter()
            .enumerate()
            .find(|(_, &b)| b >= top_rank)
            .map(|(i, &b)| (if i == 0 { 1 } else { bands[i - 1] + 1 }, b));
        let counted = self.contenders(s, remaining, band, left, faint, met);
        let n = widened(remaining, counted, met, programs);
        if n > counted {
            self.notes.push(format!(
                "TRF-2026 260: {counted} contenders cannot be paired apart from their forbidden \
                 pairs: the flight takes the next players, {n} in all"
            ));
        }
        let players: Vec<u32> = remaining.drain(..n).collect();
        let kind = if remaining.is_empty() && !s.no_swiss_all {
            GroupKind::Swiss
        } else {
            GroupKind::Flight
        };
        let band_name = match band {
            Some((first, last)) if first == last => format!("prize place {first}"),
            Some((first, last)) => format!("prize places {first}–{last}"),
            None => "no prize band left".to_string(),
        };
        self.notes.push(format!(
            "TSH07 contention: {band_name}, {} contenders ({})",
            players.len(),
            if kind == GroupKind::Swiss {
                "all remaining: Swiss"
            } else {
                "leaders and nonleaders"
            }
        ));
        self.groups.push(Group {
            kind,
            best: players.iter().map(|p| self.best[p]).collect(),
            players,
            band,
            must_catch: band.is_some(),
        });
    }
}

/// The TSH07 specification's tiers by name, in priority order: one "leader partner" tier per
/// flight position that can be the upper member of a leader pair (top first), then the rest.
/// Groups are disjoint, so one tier can carry different groups' criteria: placement is KOTH
/// for Gibsons and top half v bottom half for Swiss groups and nonleaders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TshTier {
    /// The partner of the leader at this flight position (0 = the top), in his list.
    LeaderPartner(usize),
    /// Repeats (TSH07 minimising repeats).
    Repeats,
    /// Consecutive repeats: last round's opponent again (TSH07 avoiding consecutive repeats).
    ConsecutiveRepeats,
    /// First/second: players due to start against those due to reply (TSH07 first/second).
    FirstSecond,
    /// Placement: KOTH for Gibsons, top half v bottom half for Swiss groups and nonleaders.
    Placement,
    /// Rank order: the opponent higher in the list (TSH07 Swiss: in order).
    Order,
}

impl TshTier {
    /// The tiers after the leader-partner ones, in priority order.
    pub const AFTER_LEADERS: [TshTier; 5] = [
        TshTier::Repeats,
        TshTier::ConsecutiveRepeats,
        TshTier::FirstSecond,
        TshTier::Placement,
        TshTier::Order,
    ];

    /// Every tier of a round with `k` leader-partner tiers, in priority order.
    pub fn all(k: usize) -> Vec<TshTier> {
        (0..k)
            .map(TshTier::LeaderPartner)
            .chain(TshTier::AFTER_LEADERS)
            .collect()
    }

    /// The tier's name (as certificates show it) and the rule it encodes.
    pub fn tier(self) -> Tier {
        match self {
            TshTier::LeaderPartner(p) => Tier::new(
                &format!(
                    "leader partner of flight position {} (lowest catcher first)",
                    p + 1
                ),
                "TSH07 leaders: the top player v the lowest ranked who can catch him",
            ),
            TshTier::Repeats => Tier::new("repeats", "TSH07 minimising repeats"),
            TshTier::ConsecutiveRepeats => Tier::new(
                "consecutive repeats (last round's opponent)",
                "TSH07 avoiding consecutive repeats",
            ),
            TshTier::FirstSecond => Tier::new(
                "first/second: 2 − the difference of the players' due signs (Swiss pairs)",
                "TSH07 first/second: matching players due to start with those due to reply",
            ),
            TshTier::Placement => Tier::new(
                "placement (Gibsons KOTH; Swiss |n − 2·places apart| in tsh's group list)",
                "TSH07 Gibsons KOTH; TSH07 Swiss: top half plays bottom half",
            ),
            TshTier::Order => Tier::new(
                "rank (the opponent higher in the list: places apart)",
                "TSH07 Swiss: in order",
            ),
        }
    }
}

/// A pair's cost on each TSH07 tier, by name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TshCosts {
    /// A leader pair: the upper member's flight position and the partner's place in his list.
    pub leader_partner: Option<(usize, i64)>,
    /// Cost on [`TshTier::Repeats`].
    pub repeats: i64,
    /// Cost on [`TshTier::ConsecutiveRepeats`].
    pub consecutive_repeats: i64,
    /// Cost on [`TshTier::FirstSecond`].
    pub first_second: i64,
    /// Cost on [`TshTier::Placement`].
    pub placement: i64,
    /// Cost on [`TshTier::Order`].
    pub order: i64,
}

impl TshCosts {
    /// The cost on tier `t`.
    pub fn get(&self, t: TshTier) -> i64 {
        match t {
            TshTier::LeaderPartner(p) => match self.leader_partner {
                Some((q, c)) if q == p => c,
                _ => 0,
            },
            TshTier::Repeats => self.repeats,
            TshTier::ConsecutiveRepeats => self.consecutive_repeats,
            TshTier::FirstSecond => self.first_second,
            TshTier::Placement => self.placement,
            TshTier::Order => self.order,
        }
    }

    /// The costs as a specification with `k` leader-partner tiers holds them.
    pub fn to_vec(self, k: usize) -> Vec<i64> {
        TshTier::all(k).into_iter().map(|t| self.get(t)).collect()
    }
}

/// A contender group's minimum repeats and leader count, decided as tsh decides them before
/// any pair is chosen, by exact perfect matchings. TSH07: "the minimum number of repeats
/// necessary to pair all the contenders"; leaders "minimizing the number of leaders as long as
/// the subgroup of leaders and the subgroup of nonleaders can each be paired amongst
/// themselves without exceeding the minimum repeats". tsh adds (where the document is silent):
/// in a prize band's flight the pairs must be ones where the lower player can catch the higher
/// (dropped if no repeat level then pairs the group); the split keeps at least four leaders
/// when there are four contenders or more, and is tested with the catching condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// The smallest k such that the group pairs with no pair met more than k times.
    pub limit: i64,
    /// Leaders: positions `0..leaders` (0 for an all-contender Swiss group).
    pub leaders: usize,
    /// The leaders pair within the limit using only pairs where the lower can catch the
    /// higher: then only such pairs are candidates (tsh's first try).
    pub leaders_catch: bool,
}

/// The [`Split`] of a group of `m` players (rank order) whose pair `(i, j)` has met `rep(i, j)`
/// times and where `catch(i, j)` (i above j) says j can catch i; `flight`: some players are
/// out of contention, so leaders are chosen; `must_catch`: the group contends for a prize band.
pub fn split(
    m: usize,
    flight: bool,
    must_catch: bool,
    rep: &impl Fn(usize, usize) -> i64,
    catch: &impl Fn(usize, usize) -> bool,
    lead_catch: &impl Fn(usize, usize) -> bool,
    programs: &Programs,
) -> Split {
    let pairs_by = |lo: usize, hi: usize, k: i64, c: &dyn Fn(usize, usize) -> bool| {
        let edges: Vec<(usize, usize)> = (lo..hi)
            .flat_map(|i| (i + 1..hi).map(move |j| (i, j)))
            .filter(|&(i, j)| rep(i, j) <= k && c(i, j))
            .map(|(i, j)| (i - lo, j - lo))
            .collect();
        (programs.perfect_matching)(hi - lo, &edges)
    };
    let pairs = |lo: usize, hi: usize, k: i64, c: bool| {
        pairs_by(lo, hi, k, if c { catch } else { &|_, _| true })
    };
    // Someone has to meet his least-met group-mate: the limit is at least that. A forbidden
    // pair (TRF-2026 260) is no repeat level: no limit lets it meet.
    let bound = (0..m)
        .filter_map(|i| {
            (0..m)
                .filter(|&j| j != i)
                .map(|j| rep(i, j))
                .filter(|&r| !forbidden(r))
                .min()
        })
        .max()
        .unwrap_or(0);
    let most = (0..m)
        .flat_map(|i| (i + 1..m).map(move |j| (i, j)))
        .map(|(i, j)| rep(i, j))
        .filter(|&r| !forbidden(r))
        .max()
        .unwrap_or(0);
    let level = |c: bool| (bound..=most).find(|&k| pairs(0, m, k, c));
    let limit = must_catch
        .then(|| level(true))
        .flatten()
        .or_else(|| level(false))
        .unwrap_or(most);
    if !flight {
        return Split {
            limit,
            leaders: 0,
            leaders_catch: false,
        };
    }
    let first = if m >= 4 { 4 } else { 2 };
    let leaders = (first..m)
        .step_by(2)
        .find(|&l| pairs(0, l, limit, true) && pairs(l, m, limit, true))
        .unwrap_or(m);
    Split {
        limit,
        leaders,
        leaders_catch: pairs_by(0, leaders, limit, lead_catch),
    }
}

impl System for TshCp {
    fn kind(&self) -> SystemKind {
        SystemKind::TshCp
    }
    fn one_half_zero(&self) -> Option<&'static str> {
        Some("TSH07: standings by wins")
    }

    fn game_scores(&self) -> bool {
        true
    }

    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec> {
        let s = Settings::from(t)?;
        if t.rounds_planned.is_none() {
            return Err(Error::field(
                "rounds_planned",
                "tsh-cp needs the number of rounds planned (tsh max_rounds)",
            ));
        }
        if round <= s.round_robin_rounds(t) {
            return Ok(round_robin_spec(t, round));
        }
        let plan = Plan::build(t, round, &s, &self.programs)?;
        Ok(spec_from_plan(t, round, &plan, &self.programs))
    }

    /// TSH07: round r is paired from the standings after round r − lag (after r − 1 at a
    /// session's start and in the final round); later rounds give only their pairings
    /// (repeats, firsts and seconds).
    fn results_needed(&self, t: &Tournament, round: u32) -> Result<u32> {
        let s = Settings::from(t)?;
        let planned = t.rounds_planned.unwrap_or(u32::MAX);
        Ok(s.based_on(round, planned))
    }
}

/// TSH07's initial round robin: the players by rating (then id) in groups of four, the last
/// group taking the 1–3 left over (5 to 7; one group when there are fewer than 8), each group
/// playing its round robin by the circle method (position 0 fixed, the others rotating; an odd
/// group's extra place is the bye). Fixed from the entry list, as tsh pairs them in advance.
/// Returns round `round`'s pairs and byes.
pub fn round_robin_round(t: &Tournament, round: u32) -> (Vec<(u32, u32)>, Vec<u32>) {
    let mut players: Vec<&crate::tournament::Player> =
        t.players.iter().filter(|p| p.active_in(1)).collect();
    players.sort_by_key(|p| (std::cmp::Reverse(p.rating), p.id));
    let ids: Vec<u32> = players.iter().map(|p| p.id).collect();
    let mut groups: Vec<Vec<u32>> = ids.chunks(4).map(|c| c.to_vec()).collect();
    if groups.len() > 1 && groups.last().is_some_and(|g| g.len() < 4) {
        let rest = groups.pop().expect("a last group");
        groups.last_mut().expect("another group").extend(rest);
    }
    let (mut pairs, mut byes) = (Vec::new(), Vec::new());
    for g in groups {
        let k = g.len() + g.len() % 2;
        let mut arr: Vec<usize> = (0..k).collect();
        arr[1..].rotate_right(((round as usize).saturating_sub(1)) % (k - 1).max(1));
        for i in 0..k / 2 {
            let (a, b) = (arr[i], arr[k - 1 - i]);
            match (g.get(a), g.get(b)) {
                (Some(&x), Some(&y)) => pairs.push((x, y)),
                (Some(&x), None) | (None, Some(&x)) => byes.push(x),
                _ => {}
            }
        }
    }
    (pairs, byes)
}

fn round_robin_spec(t: &Tournament, round: u32) -> RoundSpec {
    let absent: Vec<u32> = t
        .round(round)
        .map(|rd| rd.requested_byes().map(|b| b.player).collect())
        .unwrap_or_default();
    let mut order: Vec<&crate::tournament::Player> = t
        .players
        .iter()
        .filter(|p| p.active_in(round) && !absent.contains(&p.id))
        .collect();
    order.sort_by_key(|p| (std::cmp::Reverse(p.rating), p.id));
    let players: Vec<u32> = order.iter().map(|p| p.id).collect();
    let index: BTreeMap<u32, usize> = players.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let (pairs, byes) = round_robin_round(t, round);
    let mut notes = vec![format!(
        "TSH07: round {round} of the initial round robin (groups of four by rating)"
    )];
    let mut candidates = Vec::new();
    let mut byes: Vec<usize> = byes.iter().filter_map(|b| index.get(b).copied()).collect();
    let barred = t.forbidden_in(round);
    for (a, b) in pairs {
        match (index.get(&a), index.get(&b)) {
            // A forbidden pair (TRF-2026 260) of the schedule does not meet: both sit out,
            // as when a scheduled opponent is absent.
            (Some(&i), Some(&j)) if barred.get(&a).is_some_and(|o| o.contains(&b)) => {
                notes.push(format!(
                    "TSH07 initial round robin: {a} v {b} is a forbidden pair (TRF-2026 260): \
                     both have the bye"
                ));
                byes.extend([i, j]);
            }
            (Some(&i), Some(&j)) => candidates.push(Candidate {
                a: i,
                b: j,
                // The higher rated starts in odd rounds, replies in even ones.
                white: if round % 2 == 1 { i.min(j) } else { i.max(j) },
                costs: vec![0],
            }),
            // The schedule is fixed in advance: a player whose opponent is absent sits out,
            // as an odd group's free seat does.
            (Some(&i), None) | (None, Some(&i)) => {
                notes.push(format!(
                    "TSH07 initial round robin: {}'s opponent is absent: the bye",
                    players[i]
                ));
                byes.push(i);
            }
            _ => {}
        }
    }
    // A player outside the schedule (entered after round 1) has nobody scheduled either.
    let scheduled: Vec<usize> = candidates.iter().flat_map(|c| [c.a, c.b]).collect();
    for (i, p) in players.iter().enumerate() {
        if !scheduled.contains(&i) && !byes.contains(&i) {
            notes.push(format!(
                "TSH07 initial round robin: {p} is not in the schedule: the bye"
            ));
            byes.push(i);
        }
    }
    let byes: Vec<ByeOption> = byes
        .into_iter()
        .map(|i| ByeOption {
            player: i,
            costs: vec![0],
        })
        .collect();
    RoundSpec {
        system: "tsh-cp".into(),
        round,
        scores: vec![0.0; players.len()],
        players,
        tiers: vec![Tier::new(
            "initial round robin (fixed)",
            "TSH07 initial three-round round robin",
        )],
        candidates,
        max_byes: byes.len(),
        byes,
        odd_sets: Vec::new(),
        rows: Vec::new(),
        notes,
    }
}

/// tsh's Swiss step (its `PairSomeSwiss`, read in models/tsh-cp.md): the groups `block` (rank
/// order) is paired in, each in the order tsh lists it. The block falls into win groups
/// (consecutive players with equal wins); the top group, made even with the next group's top
/// player, is widened two players at a time from below until it pairs; then the bottom group
/// likewise from above (the players it takes listed after its own, nearest first); then the
/// groups between, the same way. A middle that cannot pair is merged with the bottom, and if
/// that cannot pair either, or the bottom cannot, everyone is one group. `pairs(list)`: the
/// list pairs among itself within the repeats allowed.
pub fn swiss_groups(
    block: &[u32],
    wins: &BTreeMap<u32, i64>,
    pairs: &dyn Fn(&[u32]) -> bool,
) -> Vec<Vec<u32>> {
    let w = |id: u32| wins.get(&id).copied().unwrap_or(0);
    let mut groups: Vec<Vec<u32>> = Vec::new();
    for &p in block {
        match groups.last_mut() {
            Some(g) if w(g[0]) == w(p) => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    if groups.is_empty() {
        return groups;
    }
    recursive_swiss(&groups, pairs).unwrap_or_else(|| vec![block.to_vec()])
}

/// tsh's `RecursiveSwiss` over win groups `w`: the pairing groups, or None when the players
/// cannot pair at all.
fn recursive_swiss(w: &[Vec<u32>], pairs: &dyn Fn(&[u32]) -> bool) -> Option<Vec<Vec<u32>>> {
    let one = |g: Vec<u32>| pairs(&g).then(|| vec![g]);
    if w.len() == 1 {
        return one(w[0].clone());
    }
    let all = || one(w.concat());
    let (top, rest) = swiss_end(w, true, pairs)?;
    let with_top = |mut v: Vec<Vec<u32>>| {
        v.insert(0, top.clone());
        Some(v)
    };
    match rest.len() {
        0 => return Some(vec![top]),
        1 => return one(rest[0].clone()).map_or_else(all, with_top),
        _ => {}
    }
    let Some((bottom, middle)) = swiss_end(&rest, false, pairs) else {
        return all();
    };
    if middle.is_empty() {
        return Some(vec![top, bottom]);
    }
    let mid = if middle.len() == 1 {
        one(middle[0].clone())
    } else {
        recursive_swiss(&middle, pairs)
    };
    if let Some(mut m) = mid {
        m.insert(0, top);
        m.push(bottom);
        return Some(m);
    }
    one(rest.concat()).map_or_else(all, with_top)
}

/// tsh's `RecursiveSwissTop` (`from_top`) and `RecursiveSwissBottom`: the end group of `w`,
/// made even with the nearest player of the next group, then widened by the next two until
/// it pairs; with the groups left. None: it ran out of players.
fn swiss_end(
    w: &[Vec<u32>],
    from_top: bool,
    pairs: &dyn Fn(&[u32]) -> bool,
) -> Option<(Vec<u32>, Vec<Vec<u32>>)> {
    let mut rest: VecDeque<Vec<u32>> = w.iter().cloned().collect();
    let mut end = if from_top {
        rest.pop_front()
    } else {
        rest.pop_back()
    }?;
    let take = |end: &mut Vec<u32>, rest: &mut VecDeque<Vec<u32>>| -> bool {
        let next = if from_top {
            rest.front_mut()
        } else {
            rest.back_mut()
        };
        let Some(next) = next else { return false };
        end.push(if from_top {
            next.remove(0)
        } else {
            next.pop().expect("groups are not empty")
        });
        if next.is_empty() {
            if from_top {
                rest.pop_front();
            } else {
                rest.pop_back();
            }
        }
        true
    };
    if end.len() % 2 == 1 {
        take(&mut end, &mut rest);
    }
    loop {
        if pairs(&end) {
            return Some((end, rest.into()));
        }
        if !(take(&mut end, &mut rest) && take(&mut end, &mut rest)) {
            return None;
        }
    }
}

/// What the candidates of a round are costed from: the plan, the history and the
/// first/second balances.
struct Costing<'a> {
    plan: &'a Plan,
    met: Meetings,
    last: Vec<(u32, u32)>,
    now: Standings,
    index: BTreeMap<u32, usize>,
    /// Leader-partner tiers in the round.
    k: usize,
}

impl Costing<'_> {
    fn times(&self, a: u32, b: u32) -> i64 {
        i64::from(self.met.get(&key(a, b)).copied().unwrap_or(0))
    }

    /// First/second balance (firsts − seconds over games whose order is known) and the last
    /// game's colour.
    fn balance(&self, id: u32) -> (i64, Option<Colour>) {
        self.now.get(id).map_or((0, None), |st| {
            let (f, sec) = st.firsts_seconds();
            (i64::from(f) - i64::from(sec), st.last_colour())
        })
    }

    /// Who goes first: the one with fewer firsts than seconds, then the one who went second
    /// last, then the higher ranked.
    fn orient(&self, a: u32, b: u32) -> usize {
        let (ba, la) = self.balance(a);
        let (bb, lb) = self.balance(b);
        let first = if ba != bb {
            if ba < bb {
                a
            } else {
                b
            }
        } else if la != lb && la == Some(Colour::Black) {
            a
        } else if la != lb && lb == Some(Colour::Black) {
            b
        } else if self.index[&a] < self.index[&b] {
            a
        } else {
            b
        };
        self.index[&first]
    }

    /// Repeats, consecutive repeats and (where tsh weighs it, `fs`) first/second as tsh's
    /// Swiss scores it: 2 − |due(a) − due(b)|, a player's due being the sign of his firsts
    /// − seconds (0 for one due to start v one due to reply, 1 with one balanced, 2 for two
    /// alike — two balanced players included).
    fn common(&self, a: u32, b: u32, fs: bool) -> TshCosts {
        let due = |id: u32| self.balance(id).0.signum();
        TshCosts {
            repeats: self.times(a, b),
            consecutive_repeats: i64::from(self.last.contains(&key(a, b))),
            first_second: if fs { 2 - (due(a) - due(b)).abs() } else { 0 },
            ..TshCosts::default()
        }
    }

    fn candidate(&self, a: u32, b: u32, costs: TshCosts) -> Candidate {
        Candidate {
            a: self.index[&a],
            b: self.index[&b],
            white: self.orient(a, b),
            costs: costs.to_vec(self.k),
        }
    }

    /// Gibsons: every pair among them, KOTH after repeats and consecutive repeats (TSH07
    /// names only those before KOTH here).
    fn gibsons(&self, g: &Group, out: &mut Vec<Candidate>) {
        let m = g.players.len();
        for i in 0..m {
            for j in i + 1..m {
                let (a, b) = (g.players[i], g.players[j]);
                if forbidden(self.times(a, b)) {
                    continue;
                }
                let d = (j - i - 1) as i64;
                let costs = TshCosts {
                    placement: d,
                    order: d,
                    ..self.common(a, b, false)
                };
                out.push(self.candidate(a, b, costs));
            }
        }
    }

    /// Whether member `j` of `g` can catch member `i` (above him) as tsh's leader pairing
    /// judges it: his best possible finish, if tsh computed one, is within `i`'s rank.
    fn leader_catches(&self, g: &Group, i: usize, j: usize) -> bool {
        g.best[j] != 0 && g.best[j] <= self.plan.rank(g.players[i])
    }

    /// TSH07 leaders: the top remaining leader plays the lowest ranked who can catch him,
    /// avoiding a consecutive repeat where possible; failing a catcher, the nearest to
    /// catching him. One tier per position, top first, so the top leader's choice outranks
    /// everything after. tsh's order of a leader's opponents: one who can catch him, then
    /// fewest repeats, then not last round's opponent, then the lowest ranked.
    fn leaders(&self, g: &Group, sp: &Split, out: &mut Vec<Candidate>) {
        let lead = sp.leaders;
        let pref = |i: usize, j: usize| -> i64 {
            let hi = g.players[i];
            // tsh's first try admits only catchers, its second ranks without catching.
            let pkey = |q: usize| {
                let lo = g.players[q];
                (
                    sp.leaders_catch && !self.leader_catches(g, i, q),
                    self.times(hi, lo),
                    self.last.contains(&key(hi, lo)),
                    -(q as i64),
                )
            };
            let kj = pkey(j);
            (i + 1..lead)
                .filter(|&q| !forbidden(self.times(hi, g.players[q])) && pkey(q) < kj)
                .count() as i64
        };
        for i in 0..lead {
            for j in i + 1..lead {
                let (a, b) = (g.players[i], g.players[j]);
                // TSH07 minimum repeats: pairs met more often are not candidates.
                if self.times(a, b) > sp.limit || sp.leaders_catch && !self.leader_catches(g, i, j)
                {
                    continue;
                }
                let costs = TshCosts {
                    leader_partner: Some((i, pref(i, j))),
                    ..self.common(a, b, false)
                };
                out.push(self.candidate(a, b, costs));
            }
        }
    }

    /// TSH07 Swiss, for all contenders or the nonleaders (`block`): tsh's pairing groups
    /// ([`swiss_groups`], whether a list pairs decided by an exact perfect matching within
    /// `limit`), each paired inside itself; the costs are tsh's order of a player's
    /// opponents — repeats, last round's opponent, first/second, closeness to half the
    /// group's size apart in its list, then the opponent higher in the list.
    fn swiss(&self, block: &[u32], limit: i64, programs: &Programs, out: &mut Vec<Candidate>) {
        let pairs = |list: &[u32]| {
            let edges: Vec<(usize, usize)> = (0..list.len())
                .flat_map(|i| (i + 1..list.len()).map(move |j| (i, j)))
                .filter(|&(i, j)| self.times(list[i], list[j]) <= limit)
                .collect();
            list.len().is_multiple_of(2) && (programs.perfect_matching)(list.len(), &edges)
        };
        for g in swiss_groups(block, &self.plan.wins, &pairs) {
            let n = g.len() as i64;
            for i in 0..g.len() {
                for j in i + 1..g.len() {
                    let (a, b) = (g[i], g[j]);
                    if self.times(a, b) > limit {
                        continue;
                    }
                    let d = (j - i) as i64;
                    let costs = TshCosts {
                        placement: (n - 2 * d).abs(),
                        order: d,
                        ..self.common(a, b, true)
                    };
                    out.push(self.candidate(a, b, costs));
                }
            }
        }
    }
}

/// Each contender group's minimum repeats and leaders ([`split`]), with catching judged by
/// the best possible finishes tsh computed for the group.
fn group_splits(plan: &Plan, met: &Meetings, programs: &Programs) -> Vec<Option<Split>> {
    let times = |a: u32, b: u32| i64::from(met.get(&key(a, b)).copied().unwrap_or(0));
    plan.groups
        .iter()
        .map(|g| {
            matches!(g.kind, GroupKind::Swiss | GroupKind::Flight).then(|| {
                let rep = |i: usize, j: usize| times(g.players[i], g.players[j]);
                // tsh's pairability test: j's best finish (0: none computed) within i's rank.
                let catch = |i: usize, j: usize| g.best[j] <= plan.rank(g.players[i]);
                // tsh's leader pairing: only a computed best finish counts.
                let lead_catch = |i: usize, j: usize| g.best[j] != 0 && catch(i, j);
                split(
                    g.players.len(),
                    g.kind == GroupKind::Flight,
                    g.must_catch,
                    &rep,
                    &catch,
                    &lead_catch,
                    programs,
                )
            })
        })
        .collect()
}

/// The notes naming each contender group's minimum repeats and leaders.
fn split_notes(plan: &Plan, splits: &[Option<Split>], notes: &mut Vec<String>) {
    for (g, sp) in plan.groups.iter().zip(splits) {
        if let Some(sp) = sp {
            notes.push(format!(
                "TSH07 minimum repeats: {} for contenders {:?}{}",
                sp.limit,
                g.players,
                if g.kind == GroupKind::Flight {
                    format!("; TSH07 leaders: the top {}", sp.leaders)
                } else {
                    String::new()
                }
            ));
        }
    }
}

/// The round specification for a plan: each contender group's split first (the leaders fix
/// how many leader-partner tiers there are, and the nonleaders are a Swiss block of their
/// own), then each group's candidates.
pub fn spec_from_plan(t: &Tournament, round: u32, plan: &Plan, programs: &Programs) -> RoundSpec {
    let (met, last) = meetings(t, round);
    let splits = group_splits(plan, &met, programs);
    let k = splits
        .iter()
        .flatten()
        .map(|sp| sp.leaders.saturating_sub(1))
        .max()
        .unwrap_or(0);
    let mut notes = plan.notes.clone();
    split_notes(plan, &splits, &mut notes);
    let c = Costing {
        plan,
        met,
        last,
        now: Standings::before(t, round),
        index: plan
            .order
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, i))
            .collect(),
        k,
    };
    let mut candidates = Vec::new();
    for (g, sp) in plan.groups.iter().zip(&splits) {
        match (&g.kind, sp) {
            (GroupKind::GibsonOpponent, _) => {
                let (a, b) = (g.players[0], g.players[1]);
                if !forbidden(c.times(a, b)) {
                    candidates.push(c.candidate(a, b, c.common(a, b, false)));
                }
            }
            (GroupKind::Gibsons, _) => c.gibsons(g, &mut candidates),
            (_, Some(sp)) => {
                c.leaders(g, sp, &mut candidates);
                c.swiss(
                    &g.players[sp.leaders..],
                    sp.limit,
                    programs,
                    &mut candidates,
                );
            }
            (_, None) => unreachable!("contender groups have a split"),
        }
    }
    let byes: Vec<ByeOption> = plan
        .bye
        .map(|b| ByeOption {
            player: c.index[&b],
            costs: TshCosts::default().to_vec(k),
        })
        .into_iter()
        .collect();
    if plan.rounds_to_catch == 0 {
        notes.push("TSH07: no rounds left to catch up".into());
    }
    RoundSpec {
        system: "tsh-cp".into(),
        round,
        players: plan.order.clone(),
        scores: plan
            .order
            .iter()
            .map(|p| plan.wins[p] as f64 / WIN as f64)
            .collect(),
        tiers: TshTier::all(k).into_iter().map(TshTier::tier).collect(),
        candidates,
        max_byes: byes.len(),
        byes,
        odd_sets: Vec::new(),
        rows: Vec::new(),
        notes,
    }
}
