//! The 2006 National SCRABBLE Championship schedule (NSC06; models/nsc2006.md).
//!
//! Every round is a fixed schedule handed to the solver as its only candidate pairs (`white`
//! = who goes first): round robins of snaked groups (rounds 1–7), quads by the standings at
//! the start of each session with a cross-quad fourth round, and the final session's
//! King-of-the-Hill quads (41 to the bottom) and individually paired top 40 (Gibsons, the
//! top-six rule, Division 1 flights). The session layout is data ([`Schedule`]): the 2006
//! event ships as `models/nsc2006-schedule.json` and is the default.
//!
//! Quads are derived from the standings before the session's first round only, so pairing a
//! session round by round reproduces it. Where the formula's quads would repeat a pairing the
//! schedule bars, membership is adjusted by a small integer program, stated in `spec::quads` and answered by
//! the [`Programs`] the system is given (`solve::quads`).
//!
//! Why one long file: the schedule's sessions (round robins, quads, KOTH, top six, flights, the
//! footnote's two groups) are one table of rounds, each stated from the same standings.

use super::System;
use crate::spec::quads::{QuadProblem, QuadSolution, Unplayed};
use crate::spec::Programs;
use crate::spec::{ByeOption, Candidate, RoundSpec, Tier};
use crate::tournament::{milli, Colour, GameResult, Standings, Tournament};
use crate::{Error, Result, SystemKind};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

/// The 2006 schedule as shipped.
pub const NSC2006_SCHEDULE: &str = include_str!("../../models/nsc2006-schedule.json");

/// The system `nsc2006`, with the programs that answer its quad memberships.
pub struct Nsc2006 {
    /// Answers the quad memberships the schedule asks (where the formula's quads would repeat a
    /// barred pairing).
    pub programs: Programs,
}

impl System for Nsc2006 {
    fn kind(&self) -> SystemKind {
        SystemKind::Nsc2006
    }
    fn one_half_zero(&self) -> Option<&'static str> {
        Some("NSC06: standings by wins")
    }
    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec> {
        spec(t, round, &self.programs)
    }
    fn game_scores(&self) -> bool {
        true
    }
}

/// How a session is paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    /// Round robins in groups chosen by the snake over the ratings.
    RoundRobin,
    /// Quads from groups of `group` by the standings at the session's start.
    Quads,
    /// King-of-the-Hill quads below `top`, the top paired individually each round.
    Final,
}

/// One session of the schedule: its rounds and how they are paired.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Session {
    /// The session's name as the schedule gives it (e.g. `3`, `1-2`).
    #[serde(default)]
    pub session: String,
    /// First round of the session (1-based).
    pub first: u32,
    /// Last round of the session (inclusive).
    pub last: u32,
    /// How the session is paired.
    pub scheme: Scheme,
    /// Round-robin group size, or the size of the groups quads are drawn from.
    #[serde(default)]
    pub group: usize,
    /// A fourth round A v A1, B v B1 ... against the adjacent quad.
    #[serde(default)]
    pub cross_round: bool,
    /// Whether a second meeting is allowed (a third never is, except in the final top group).
    #[serde(default)]
    pub repeats: bool,
    /// Final session: players paired individually (the rest in King-of-the-Hill quads).
    #[serde(default)]
    pub top: usize,
}

/// Division 1 flight size caps, per round of the final session, by how many of the two top
/// places are still open.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlightCaps {
    /// Flight size caps per final round when both top places are open (12, 8, 4).
    pub two_open: Vec<usize>,
    /// ... when only one is open (8, 4, 2).
    pub one_open: Vec<usize>,
}

/// A row of the catch table: with `games_left`, a player at most `games_behind` games and
/// (when exactly that many behind) at most `spread` points of spread behind can catch up.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catch {
    /// Games left, counting the round being paired.
    pub games_left: u32,
    /// Most games (wins) behind that can still catch up.
    pub games_behind: f64,
    /// Most spread behind, when exactly `games_behind` behind.
    pub spread: i64,
}

/// The event's session layout, the final session's flight caps and the catch table
/// (`models/nsc2006-schedule.json` by default).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// The schedule's name.
    #[serde(default)]
    pub name: String,
    /// Rounds in the event.
    pub rounds: u32,
    /// The sessions, in order from round 1, each following the last.
    pub sessions: Vec<Session>,
    /// Division 1 flight size caps of the final session.
    pub flight_caps: FlightCaps,
    /// The catch table, by games left.
    pub catch: Vec<Catch>,
}

impl Schedule {
    /// The shipped 2006 schedule.
    pub fn nsc2006() -> Schedule {
        Schedule::parse(NSC2006_SCHEDULE, "nsc2006.schedule").expect("shipped schedule is valid")
    }

    /// Parses and checks a schedule; errors name `field`.
    pub fn parse(text: &str, field: &str) -> Result<Schedule> {
        let s: Schedule = serde_json::from_str(text)
            .map_err(|e| Error::field(field, format!("bad schedule: {e}")))?;
        s.check(field)?;
        Ok(s)
    }

    fn check(&self, field: &str) -> Result<()> {
        let bad = |m: String| Err(Error::field(field, m));
        let mut next = 1;
        for (i, s) in self.sessions.iter().enumerate() {
            if s.first != next || s.last < s.first {
                return bad(format!(
                    "sessions[{i}] covers rounds {}-{}: sessions must follow each other from round 1",
                    s.first, s.last
                ));
            }
            next = s.last + 1;
            let len = (s.last - s.first + 1) as usize;
            match s.scheme {
                Scheme::RoundRobin if s.group < 2 => {
                    return bad(format!("sessions[{i}]: a round-robin group needs 2 or more"))
                }
                Scheme::Quads if s.group < 4 || s.group % 4 != 0 => {
                    return bad(format!(
                        "sessions[{i}]: quads are drawn from groups of a multiple of 4, got {}",
                        s.group
                    ))
                }
                Scheme::Quads if len != 3 + usize::from(s.cross_round) => {
                    return bad(format!(
                        "sessions[{i}]: a quad session has 3 rounds, or 4 with the cross round; got {len}"
                    ))
                }
                Scheme::Final
                    if len > self.flight_caps.two_open.len()
                        || len > self.flight_caps.one_open.len()
                        || len > 3 =>
                {
                    return bad(format!(
                        "sessions[{i}]: a final session of {len} rounds needs a flight cap per round (at most 3 rounds, one King-of-the-Hill quad each)"
                    ))
                }
                _ => {}
            }
        }
        if next != self.rounds + 1 {
            return bad(format!(
                "sessions end at round {} but the schedule has {} rounds",
                next - 1,
                self.rounds
            ));
        }
        Ok(())
    }

    /// The session holding round `round`, if any.
    pub fn session(&self, round: u32) -> Option<&Session> {
        self.sessions
            .iter()
            .find(|s| s.first <= round && round <= s.last)
    }

    /// The catch table row for `games_left` (the nearest row below, else the first).
    pub fn catch_row(&self, games_left: u32) -> Option<&Catch> {
        self.catch
            .iter()
            .filter(|c| c.games_left <= games_left)
            .max_by_key(|c| c.games_left)
            .or_else(|| self.catch.iter().min_by_key(|c| c.games_left))
    }
}

/// The system's settings (all optional; see models/nsc2006.md).
#[derive(Debug, Clone)]
pub struct Settings {
    /// The session layout (`nsc2006.schedule`: a file path or a schedule object; the 2006 schedule
    /// by default).
    pub schedule: Schedule,
    /// Division number (`nsc2006.division`; else the players' division name when numeric).
    pub division: Option<u32>,
    /// Winners (finalists): 2 in Division 1, else 1 (`nsc2006.winners`).
    pub winners: u32,
    /// Places that count as top prizes for Gibson opponents (`nsc2006.prize_places`, 6).
    pub prize_places: usize,
}

fn int_setting(t: &Tournament, key: &str) -> Result<Option<u64>> {
    match t.settings.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| Error::field(key, format!("must be a whole number, got {v}"))),
    }
}

/// The system's settings from `t`, each checked (`nsc2006.schedule`, `nsc2006.division`,
/// `nsc2006.winners`, `nsc2006.prize_places`).
pub fn settings(t: &Tournament) -> Result<Settings> {
    let key = "nsc2006.schedule";
    let schedule = match t.settings.get(key) {
        None | Some(serde_json::Value::Null) => Schedule::nsc2006(),
        Some(serde_json::Value::String(path)) => {
            let text = crate::formats::read_text(std::path::Path::new(path))
                .map_err(|e| Error::field(key, format!("cannot read '{path}': {e}")))?;
            Schedule::parse(&text, &format!("{key} ({path})"))?
        }
        Some(v @ serde_json::Value::Object(_)) => Schedule::parse(&v.to_string(), key)?,
        Some(v) => {
            return Err(Error::field(
                key,
                format!("must be a file path or a schedule object, got {v}"),
            ))
        }
    };
    let division = match int_setting(t, "nsc2006.division")? {
        Some(d) => Some(d as u32),
        None => t
            .players
            .iter()
            .find_map(|p| p.division.as_deref())
            .and_then(|d| d.trim().parse().ok()),
    };
    let winners = int_setting(t, "nsc2006.winners")?
        .map(|w| w as u32)
        .unwrap_or(if division == Some(1) { 2 } else { 1 });
    if !(1..=2).contains(&winners) {
        return Err(Error::field(
            "nsc2006.winners",
            format!("NSC06 divisions have 1 or 2 winners, got {winners}"),
        ));
    }
    let prize_places = int_setting(t, "nsc2006.prize_places")?.unwrap_or(6) as usize;
    Ok(Settings {
        schedule,
        division,
        winners,
        prize_places: prize_places.max(1),
    })
}

/// Snake groups over `ids` (already in rating order): row one into groups 1..G, row two back
/// from G to 1, and so on, with G = ⌈n / size⌉ (NSC06 overview).
pub fn snake_groups(ids: &[u32], size: usize) -> Vec<Vec<u32>> {
    let g = ids.len().div_ceil(size.max(1)).max(1);
    let mut groups = vec![Vec::new(); g];
    for (k, &id) in ids.iter().enumerate() {
        let (row, col) = (k / g, k % g);
        groups[if row % 2 == 0 { col } else { g - 1 - col }].push(id);
    }
    groups
}

/// Round `j` (from 0) of a round robin of `n` by the circle method: pairs of indices, and the
/// index with the bye when `n` is odd. Rounds past the cycle wrap around.
pub fn rr_round(n: usize, j: usize) -> (Vec<(usize, usize)>, Option<usize>) {
    if n < 2 {
        return (Vec::new(), (n == 1).then_some(0));
    }
    let m = n + n % 2;
    let j = j % (m - 1);
    let (mut pairs, mut bye) = (Vec::new(), None);
    for k in 0..m / 2 {
        let a = if k == 0 { m - 1 } else { (j + k) % (m - 1) };
        let b = (j + m - 1 - k) % (m - 1);
        if a >= n {
            bye = Some(b);
        } else if b >= n {
            bye = Some(a);
        } else {
            pairs.push((a.min(b), a.max(b)));
        }
    }
    (pairs, bye)
}

/// A quad's rounds by letters (0 = A ... 3 = D): A v D, B v C; A v C, B v D; A v B, C v D.
pub const QUAD_ROUNDS: [[(usize, usize); 2]; 3] =
    [[(0, 3), (1, 2)], [(0, 2), (1, 3)], [(0, 1), (2, 3)]];

/// Round `j` of a pod of `n`: the quad rounds for four, else the round robin.
pub fn pod_round(n: usize, j: usize) -> (Vec<(usize, usize)>, Option<usize>) {
    if n == 4 && j < 3 {
        (QUAD_ROUNDS[j].to_vec(), None)
    } else {
        rr_round(n, j)
    }
}

/// One round of a pod: its games and the player sitting out (an odd pod).
type PodRound = (Vec<(usize, usize)>, Option<usize>);

/// The cost of round j's games: (barred in the quad rounds, barred in the fourth).
type RoundCost<'a> = &'a dyn Fn(usize, &[(usize, usize)]) -> (usize, usize);

/// Every maximum matching of `0..n` (n ≤ 7), each with the player sitting out in an odd pod,
/// in a fixed order.
fn max_matchings(n: usize) -> Vec<PodRound> {
    fn fill(left: &[usize], cur: &mut Vec<(usize, usize)>, out: &mut Vec<Vec<(usize, usize)>>) {
        let Some((&a, rest)) = left.split_first() else {
            out.push(cur.clone());
            return;
        };
        for (i, &b) in rest.iter().enumerate() {
            let others: Vec<usize> = rest
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .map(|(_, &x)| x)
                .collect();
            cur.push((a, b));
            fill(&others, cur, out);
            cur.pop();
        }
    }
    let sits: Vec<Option<usize>> = if n % 2 == 1 {
        (0..n).map(Some).collect()
    } else {
        vec![None]
    };
    let mut out = Vec::new();
    for bye in sits {
        let left: Vec<usize> = (0..n).filter(|&i| Some(i) != bye).collect();
        let mut ms = Vec::new();
        fill(&left, &mut Vec::new(), &mut ms);
        out.extend(ms.into_iter().map(|m| (m, bye)));
    }
    out
}

/// Whether `games` join players `0..n` into one group.
fn joined(n: usize, games: &[(usize, usize)]) -> bool {
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    while let Some(x) = stack.pop() {
        if std::mem::replace(&mut seen[x], true) {
            continue;
        }
        stack.extend(
            games
                .iter()
                .filter_map(|&(a, b)| (a == x).then_some(b).or((b == x).then_some(a))),
        );
    }
    seen.iter().all(|&s| s)
}

/// A pod's rounds in a session of `rounds` rounds: each a maximum matching of the pod, no pair
/// twice, in an odd pod a different player sitting out each round (rounds of a round robin).
/// The circle method ([`rr_round`]) unless it plays a pair `barred` (met as often as the
/// session allows); then the rounds with the fewest barred games in the session's three quad
/// rounds, then in its fourth, every schedule tried (a pod holds at most 7 players). NSC06 "no
/// repeat pairings until Round 15" counts games, and a pod of 5–7 leaves pairs unplayed.
pub fn pod_schedule(
    n: usize,
    rounds: usize,
    barred: &dyn Fn(usize, usize) -> bool,
) -> Vec<Vec<(usize, usize)>> {
    let circle: Vec<Vec<(usize, usize)>> = (0..rounds).map(|j| pod_round(n, j).0).collect();
    let cost = |j: usize, m: &[(usize, usize)]| {
        let k = m.iter().filter(|&&(a, b)| barred(a, b)).count();
        if j < 3 {
            (k, 0)
        } else {
            (0, k)
        }
    };
    let add = |x: (usize, usize), y: (usize, usize)| (x.0 + y.0, x.1 + y.1);
    let mut best = circle
        .iter()
        .enumerate()
        .fold((0, 0), |acc, (j, m)| add(acc, cost(j, m)));
    if !(5..=7).contains(&n) || best == (0, 0) {
        return circle;
    }
    let all = max_matchings(n);
    let mut out = circle;
    let mut path: Vec<usize> = Vec::new();
    // Depth-first over the rounds; a schedule replaces the best only when strictly cheaper.
    fn go(
        all: &[PodRound],
        rounds: usize,
        cost: RoundCost,
        path: &mut Vec<usize>,
        spent: (usize, usize),
        best: &mut (usize, usize),
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        if spent >= *best {
            return;
        }
        let j = path.len();
        if j == rounds {
            // The quad rounds' games keep the pod one group (a pod of 7 could split 3 + 4).
            let quad_rounds: Vec<(usize, usize)> = path
                .iter()
                .take(3)
                .flat_map(|&k| all[k].0.clone())
                .collect();
            if !joined(
                all[0].0.len() * 2 + usize::from(all[0].1.is_some()),
                &quad_rounds,
            ) {
                return;
            }
            *best = spent;
            *out = path.iter().map(|&k| all[k].0.clone()).collect();
            return;
        }
        for (k, (m, bye)) in all.iter().enumerate() {
            let clash = path.iter().any(|&p| {
                (bye.is_some() && all[p].1 == *bye) || all[p].0.iter().any(|e| m.contains(e))
            });
            if clash {
                continue;
            }
            let c = cost(j, m);
            path.push(k);
            go(
                all,
                rounds,
                cost,
                path,
                (spent.0 + c.0, spent.1 + c.1),
                best,
                out,
            );
            path.pop();
        }
    }
    go(&all, rounds, &cost, &mut path, (0, 0), &mut best, &mut out);
    out
}

/// The formula's quads over ranks `0..n` from groups of `group`: a group of g holds g/4 quads
/// (1, 1+g/4, 1+2g/4, 1+3g/4), (2, ...) ...; a last group smaller than `group` is split the
/// same way. When n is not a multiple of 4 the bottom 4 + n mod 4 players form one pod that
/// plays a round robin.
pub fn base_pods(n: usize, group: usize) -> Vec<Vec<usize>> {
    if n < 8 {
        return vec![(0..n).collect()];
    }
    let tail = if n.is_multiple_of(4) { 0 } else { 4 + n % 4 };
    let m = n - tail;
    let mut pods = Vec::new();
    let mut start = 0;
    while start < m {
        let size = group.min(m - start);
        let k = size / 4;
        for i in 0..k {
            pods.push((0..4).map(|l| start + i + l * k).collect());
        }
        start += size;
    }
    if tail > 0 {
        pods.push((m..n).collect());
    }
    pods
}

/// Meetings of each pair in the rounds before `round` (played or pending games; forfeits do
/// not count, as in the standings). A pair forbidden in `round` (TRF-2026 260) counts as met
/// [`FORBIDDEN_MET`] times, so every phase's costs bar it as the worst repeat.
pub fn meetings(t: &Tournament, round: u32) -> BTreeMap<(u32, u32), u32> {
    let mut m = BTreeMap::new();
    for (a, others) in t.forbidden_in(round) {
        for b in others.into_iter().filter(|&b| a < b) {
            m.insert((a, b), FORBIDDEN_MET);
        }
    }
    for r in t.rounds.iter().filter(|r| r.number < round) {
        for g in &r.games {
            if g.result.played() || g.result == GameResult::Pending {
                *m.entry((g.white.min(g.black), g.white.max(g.black)))
                    .or_insert(0) += 1;
            }
        }
    }
    m
}

/// The meetings a forbidden pair counts as: more than any session allows.
pub const FORBIDDEN_MET: u32 = 1000;

fn met(m: &BTreeMap<(u32, u32), u32>, a: u32, b: u32) -> u32 {
    m.get(&(a.min(b), a.max(b))).copied().unwrap_or(0)
}

/// Players present in `round` (entered, not withdrawn, no requested bye).
fn present(t: &Tournament, round: u32) -> BTreeSet<u32> {
    let away: BTreeSet<u32> = t
        .round(round)
        .map(|r| r.requested_byes().map(|b| b.player).collect())
        .unwrap_or_default();
    t.players
        .iter()
        .filter(|p| p.active_in(round) && !away.contains(&p.id))
        .map(|p| p.id)
        .collect()
}

/// Ids in rating order (highest first, then id): the order the snake runs over.
pub fn by_rating(t: &Tournament, ids: &BTreeSet<u32>) -> Vec<u32> {
    let mut v: Vec<_> = t.players.iter().filter(|p| ids.contains(&p.id)).collect();
    v.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.number().cmp(&b.number())));
    v.into_iter().map(|p| p.id).collect()
}

/// Ids ranked by wins, then spread, before `round`.
pub fn ranking(t: &Tournament, round: u32, ids: &BTreeSet<u32>) -> Vec<u32> {
    Standings::before(t, round)
        .by_wins_spread()
        .into_iter()
        .filter(|id| ids.contains(id))
        .collect()
}

/// The pods of a quad session (or the final session's King-of-the-Hill quads), each in
/// standing order (A first), with a note on any adjustment.
pub fn session_pods(
    t: &Tournament,
    programs: &Programs,
    sess: &Session,
    order: &[u32],
    group: usize,
) -> Result<(Vec<Vec<u32>>, Option<String>)> {
    let n = order.len();
    let base = base_pods(n, group);
    let m = meetings(t, sess.first);
    // A pair that has met `limit` times may not meet again in this session.
    let limit = if sess.repeats { 2 } else { 1 };
    let (mut forbidden, mut repeats) = (Vec::new(), Vec::new());
    for a in 0..n {
        for b in a + 1..n {
            let k = met(&m, order[a], order[b]);
            if k >= limit {
                forbidden.push((a, b));
            } else if k > 0 {
                repeats.push((a, b));
            }
        }
    }
    let slot_of: Vec<usize> = {
        let mut s = vec![0; n];
        for (q, pod) in base.iter().enumerate() {
            for &i in pod {
                s[i] = q;
            }
        }
        s
    };
    let window = (group / 4).max(2);
    // The schedule's rule first (within the window, then anywhere); when no membership keeps
    // the barred pairs apart, the fewest barred repeats (proved by the program), then moves.
    let mut last_err = String::new();
    for (w, soft) in [(window, false), (usize::MAX, false), (usize::MAX, true)] {
        let allowed = (0..n)
            .map(|i| {
                (0..base.len())
                    .filter(|q| q.abs_diff(slot_of[i]) <= w)
                    .collect()
            })
            .collect();
        let problem = QuadProblem {
            players: n,
            pods: base.clone(),
            allowed,
            forbidden: forbidden.clone(),
            repeats: repeats.clone(),
            soft,
            unplayed: unplayed(t, sess, &base, order),
        };
        match (programs.quads)(&problem) {
            Ok(sol) => {
                let pods: Vec<Vec<u32>> = sol
                    .pods
                    .iter()
                    .map(|p| {
                        let mut p = p.clone();
                        p.sort_unstable();
                        p.into_iter().map(|i| order[i]).collect()
                    })
                    .collect();
                let played = barred_played(t, sess, &pods, &m, limit);
                return Ok((pods, pods_note(sess, &sol, played)));
            }
            Err(e) => last_err = e,
        }
    }
    Err(Error::field(
        "nsc2006.schedule",
        format!(
            "NSC06 session {} (rounds {}-{}): {last_err}",
            sess.session, sess.first, sess.last
        ),
    ))
}

/// The bottom pod of 5–7 of `base` (a slot of the quad program that plays only some of its
/// pairs), its barred games counted by [`pod_schedule`] over the members in standing order.
fn unplayed(
    t: &Tournament,
    sess: &Session,
    base: &[Vec<usize>],
    order: &[u32],
) -> Option<Unplayed> {
    let slot = base.iter().position(|pod| pod.len() > 4)?;
    let k = base[slot].len();
    let rounds = (sess.last - sess.first + 1) as usize;
    let m = meetings(t, sess.first);
    let limit = if sess.repeats { 2 } else { 1 };
    let order = order.to_vec();
    let games = move |members: &[usize]| {
        let barred = |a: usize, b: usize| met(&m, order[members[a]], order[members[b]]) >= limit;
        pod_schedule(members.len(), rounds, &barred)
            .iter()
            .take(3)
            .flatten()
            .filter(|&&(a, b)| barred(a, b))
            .count()
    };
    // A pod of 5 or 6 with a fourth round: its quad rounds leave unplayed pairs holding a
    // maximum matching with a new sitter, which no triangle of them allows.
    Some(Unplayed {
        slot,
        size: k,
        degree: k - 4,
        sitters: if k % 2 == 1 { 3 } else { 0 },
        triangle_free: k <= 6 && rounds >= 4,
        games: std::sync::Arc::new(games),
    })
}

/// The clause a barred repeat breaks in session `sess` (a whole string one grep finds).
pub fn barred_clause(sess: &Session) -> &'static str {
    if sess.repeats {
        "NSC06 session 8: \"Threepeats\" will be allowed"
    } else {
        "NSC06: no repeat pairings until Round 15"
    }
}

/// Barred games the pods play in the session's quad rounds (the first three): every pair of a
/// quad plays, a pod of 5–7 plays its [`pod_schedule`].
fn barred_played(
    t: &Tournament,
    sess: &Session,
    pods: &[Vec<u32>],
    m: &BTreeMap<(u32, u32), u32>,
    limit: u32,
) -> usize {
    pods.iter()
        .map(|pod| {
            pod_rounds(t, sess, pod)
                .iter()
                .take(3)
                .flatten()
                .filter(|&&(a, b)| met(m, pod[a], pod[b]) >= limit)
                .count()
        })
        .sum()
}

/// The director's note on an adjusted membership: players moved, and any barred repeat kept
/// (`played`: the barred games of the quad rounds) with the clause it breaks.
fn pods_note(sess: &Session, sol: &QuadSolution, played: usize) -> Option<String> {
    let what = if sess.repeats {
        "threepeats"
    } else {
        "repeats"
    };
    if sol.barred > 0 {
        // The program counts the bottom pod's games as its schedule plays them, so the two agree.
        let pod = if played == sol.barred {
            ", the fewest possible (proved by the quad program)".to_string()
        } else {
            format!(" (the quad program proved {} the fewest)", sol.barred)
        };
        return Some(format!(
            "NSC06 session {}: no quad membership keeps every barred pair apart (the division is too small for the scheme); {played} barred {what} played in the quad rounds{pod}, against \"{}\"; {} player(s) moved, {} permitted repeat(s)",
            sess.session,
            barred_clause(sess),
            sol.moved,
            sol.repeats
        ));
    }
    (sol.moved > 0).then(|| {
        format!(
            "NSC06 session {}: quads adjusted to avoid {what}: {} player(s) moved, {} repeat(s) kept",
            sess.session, sol.moved, sol.repeats
        )
    })
}

/// The pods ordered by their best-standing member (the order in which quads are adjacent),
/// and the couples of the cross round: consecutive quads of four, the last three together
/// when their number is odd; pods of another size play their own round.
pub fn cross_couples(pods: &[Vec<u32>], rank: &BTreeMap<u32, usize>) -> Vec<Vec<usize>> {
    let mut quads: Vec<usize> = (0..pods.len()).filter(|&q| pods[q].len() == 4).collect();
    quads.sort_by_key(|&q| pods[q].iter().map(|id| rank[id]).min());
    let mut out: Vec<Vec<usize>> = quads.chunks(2).map(|c| c.to_vec()).collect();
    if out.len() >= 2 && out.last().is_some_and(|c| c.len() == 1) {
        let lone = out.pop().unwrap();
        out.last_mut().unwrap().extend(lone);
    }
    out
}

/// The NSC06 specification's tiers by name, in priority order ([`NscTier::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NscTier {
    /// Barred repeats played (a repeat before round 15, a threepeat below the top 40): none
    /// unless the division is too small for the scheme.
    Barred,
    /// Fourth round of a session: letters apart (0 for A v A1).
    Letters,
    /// Earlier meetings of the two.
    Repeats,
}

impl NscTier {
    /// The tiers in priority order: the order of a cost vector.
    pub const ALL: [NscTier; 3] = [NscTier::Barred, NscTier::Letters, NscTier::Repeats];

    /// The tier as certificates show it, with its rule.
    pub fn tier(self) -> Tier {
        match self {
            NscTier::Barred => Tier::new(
                "barred repeats",
                "NSC06: no repeat pairings until Round 15; \"Threepeats\" will be allowed (top 40, session 8)",
            ),
            NscTier::Letters => Tier::new(
                "A v A1 letters",
                "NSC06 session 3: A vs. A1, B vs. B1, C vs. C1, D vs. D1",
            ),
            NscTier::Repeats => Tier::new("repeats", "NSC06: no repeat pairings until Round 15"),
        }
    }
}

/// A scheduled pair's cost on each NSC06 tier, by name (every other pair of the schedule is
/// fixed: cost 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NscCosts {
    /// 1 when the pair's meeting is a barred repeat.
    pub barred: i64,
    /// Fourth round: letters apart.
    pub letters: i64,
    /// Earlier meetings of the two.
    pub repeats: i64,
}

impl NscCosts {
    /// The cost on tier `t`.
    pub fn get(&self, t: NscTier) -> i64 {
        match t {
            NscTier::Barred => self.barred,
            NscTier::Letters => self.letters,
            NscTier::Repeats => self.repeats,
        }
    }

    /// The costs as the specification holds them, in the order of [`NscTier::ALL`].
    pub fn to_vec(self) -> Vec<i64> {
        NscTier::ALL.map(|t| self.get(t)).to_vec()
    }
}

/// Planned round: candidate pairs with their costs, and the players to get a bye.
#[derive(Debug, Default)]
struct Plan {
    pairs: Vec<(u32, u32, NscCosts)>,
    notes: Vec<String>,
}

/// Games left in the event counting round `round`.
fn games_left(sched: &Schedule, round: u32) -> u32 {
    sched.rounds + 1 - round
}

/// Current wins and spread of a player.
#[derive(Debug, Clone, Copy)]
pub struct Record {
    /// The player's id.
    pub id: u32,
    /// Wins (a draw is half a win).
    pub wins: f64,
    /// Spread: the sum of game-score differences.
    pub spread: i64,
}

/// Whether `low` can still overtake `high` with `left` games to play, by the catch table:
/// fewer games behind than the row allows, or exactly that many and within its spread.
pub fn can_catch(sched: &Schedule, left: u32, low: &Record, high: &Record) -> bool {
    let Some(row) = sched.catch_row(left) else {
        return false;
    };
    // In thousandths: wins (a draw half a win) and the table's games behind compared exactly.
    let behind = milli(high.wins) - milli(low.wins);
    let allowed = milli(row.games_behind);
    behind < allowed || (behind == allowed && high.spread - low.spread <= row.spread)
}

/// The top group's pairs for one round of the final session, from the current records in
/// standing order (`top`), every record of the division (`all`, for who can still finish
/// where), and the games left. Returns the pairs (higher-ranked first), the player left
/// over if the group is odd, and notes.
pub fn top_pairs(
    set: &Settings,
    index_in_session: usize,
    left: u32,
    top: &[Record],
    all: &[Record],
) -> (Vec<(u32, u32)>, Option<u32>, Vec<String>) {
    let mut notes = Vec::new();
    let mut pairs = Vec::new();
    // Wins compared exactly, in thousandths; `left` games can add `left` wins.
    let w = |r: &Record| milli(r.wins);
    let reachable = 1000 * i64::from(left);
    // Gibsonize: clinched 1st (one winner), or a finals seat (two winners): at most
    // winners − 1 others can still reach the player's wins (ties count as reachable).
    let mut gibsons = Vec::new();
    for r in top.iter().take(set.winners as usize) {
        let reach = all
            .iter()
            .filter(|o| o.id != r.id && w(o) + reachable >= w(r))
            .count();
        if reach < set.winners as usize {
            gibsons.push(*r);
        }
    }
    let mut rest: Vec<Record> = top
        .iter()
        .filter(|r| !gibsons.iter().any(|g| g.id == r.id))
        .copied()
        .collect();
    for g in &gibsons {
        // The highest-standing player who can no longer reach the prize places: at least
        // `prize_places` players already have more wins than he can reach.
        let out = rest.iter().position(|r| {
            all.iter().filter(|o| w(o) > w(r) + reachable).count() >= set.prize_places
        });
        let k = out.unwrap_or(rest.len().saturating_sub(1));
        if rest.is_empty() {
            break;
        }
        let opp = rest.remove(k);
        notes.push(format!(
            "NSC06 Gibsonization: {} has clinched and plays {} ({})",
            g.id,
            opp.id,
            if out.is_some() {
                "highest out of the prizes"
            } else {
                "nobody in the top group is out of the prizes: its lowest player"
            }
        ));
        pairs.push((g.id, opp.id));
    }
    let mut koth_from = 0;
    if set.winners == 1 && gibsons.is_empty() && rest.len() >= 6 {
        let can_win = |k: usize| w(&rest[k]) + reachable >= w(&rest[0]);
        let idx: Option<[(usize, usize); 3]> = match index_in_session {
            0 if can_win(4) => Some([(0, 3), (1, 4), (2, 5)]),
            0 => Some([(0, 2), (1, 3), (4, 5)]),
            1 if can_win(2) => Some([(0, 2), (1, 3), (4, 5)]),
            _ => None,
        };
        if let Some(idx) = idx {
            notes.push(format!(
                "NSC06 top-six rule, round {} of the final session: {}",
                index_in_session + 1,
                idx.iter()
                    .map(|(a, b)| format!("{} v {}", a + 1, b + 1))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            pairs.extend(idx.iter().map(|&(a, b)| (rest[a].id, rest[b].id)));
            koth_from = 6;
        }
    }
    if set.winners == 2 && gibsons.len() < 2 {
        let open = 2 - gibsons.len();
        let caps = if open == 2 {
            &set.schedule.flight_caps.two_open
        } else {
            &set.schedule.flight_caps.one_open
        };
        let cap = caps
            .get(index_in_session)
            .copied()
            .unwrap_or(2)
            .min(rest.len());
        let mut n = open.min(rest.len());
        while n < rest.len() && can_catch(&set.schedule, left, &rest[n], &rest[open - 1]) {
            n += 1;
        }
        let contenders = n;
        n = n.min(cap);
        if n % 2 == 1 {
            n = if n < cap { n + 1 } else { n - 1 };
        }
        let mut flight: Vec<Record> = rest[..n].to_vec();
        let mut flight_pairs = Vec::new();
        while flight.len() >= 2 {
            let hi = flight.remove(0);
            let k = (0..flight.len())
                .rev()
                .find(|&k| can_catch(&set.schedule, left, &flight[k], &hi))
                .unwrap_or(0);
            let lo = flight.remove(k);
            flight_pairs.push((hi.id, lo.id));
        }
        notes.push(format!(
            "NSC06 Division 1 flight: {contenders} contender(s) for {open} open place(s), flight of {n} (cap {cap}): {}",
            flight_pairs
                .iter()
                .map(|(a, b)| format!("{a} v {b}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        pairs.extend(flight_pairs);
        koth_from = n;
    }
    let koth = &rest[koth_from.min(rest.len())..];
    for c in koth.chunks(2) {
        if c.len() == 2 {
            pairs.push((c[0].id, c[1].id));
        }
    }
    let odd = (koth.len() % 2 == 1).then(|| koth[koth.len() - 1].id);
    (pairs, odd, notes)
}

/// Who goes first: the player with fewer firsts than seconds (NSC06 "firsts balanced"), then
/// the one who went second last, then the higher-ranked.
pub fn first_player(st: &Standings, a: u32, b: u32, rank: &BTreeMap<u32, usize>) -> u32 {
    let bal = |id: u32| {
        st.get(id).map_or(0, |s| {
            let (f, sd) = s.firsts_seconds();
            i64::from(f) - i64::from(sd)
        })
    };
    let last = |id: u32| st.get(id).and_then(|s| s.last_colour());
    match bal(a).cmp(&bal(b)) {
        std::cmp::Ordering::Less => a,
        std::cmp::Ordering::Greater => b,
        std::cmp::Ordering::Equal => match (last(a), last(b)) {
            (Some(Colour::Black), Some(Colour::White)) => a,
            (Some(Colour::White), Some(Colour::Black)) => b,
            _ => {
                if rank.get(&a) <= rank.get(&b) {
                    a
                } else {
                    b
                }
            }
        },
    }
}

/// The first snake group that cannot play the session's rounds without a repeat (an even
/// group of g has g − 1 rounds, an odd one g): its size and its rounds.
fn too_small(sess: &Session, groups: &[Vec<u32>]) -> Option<(usize, usize)> {
    let rounds = (sess.last - sess.first + 1) as usize;
    groups.iter().find_map(|g| {
        let cycle = if g.len() % 2 == 0 {
            g.len().saturating_sub(1)
        } else {
            g.len()
        };
        (cycle < rounds).then_some((g.len(), cycle))
    })
}

/// Checks that the snake groups of a round-robin session after the first can play its rounds
/// without a repeat (a too-small division is caught at the first session: [`two_groups`]).
fn check_size(sess: &Session, groups: &[Vec<u32>]) -> Result<()> {
    match too_small(sess, groups) {
        None => Ok(()),
        Some((size, cycle)) => Err(Error::field(
            "players",
            format!(
                "NSC06: the division ({} players) is too small for round robins of {} over rounds {}-{} (a group of {size} has only {cycle} rounds)",
                groups.iter().map(Vec::len).sum::<usize>(),
                sess.group,
                sess.first,
                sess.last,
            ),
        )),
    }
}

/// NSC06 footnote's fallback for a division too small for the schedule: "the initial RR
/// pairings will be adjusted to last closer to 19–20 rds., with the whole division divided
/// into two separate groups. This change will have the advantage over the current system of
/// avoiding repeat pairings as much as possible."
#[derive(Debug, Clone, PartialEq)]
pub struct TwoGroups {
    /// The two groups by the snake over the ratings (1, 4, 5, 8, … and 2, 3, 6, 7, …), the
    /// larger first when the division is odd.
    pub groups: [Vec<u32>; 2],
    /// The last round the round robin pairs: the round before the final session (or the
    /// schedule's last round when it has none).
    pub last: u32,
}

/// The fallback when the division (players entered for round 1) is too small for the first
/// session's round robins without a repeat; `None` when the schedule applies as written.
pub fn two_groups(t: &Tournament, sched: &Schedule) -> Option<TwoGroups> {
    let first = sched.sessions.first()?;
    if first.scheme != Scheme::RoundRobin {
        return None;
    }
    let division: BTreeSet<u32> = t
        .players
        .iter()
        .filter(|p| p.active_in(1))
        .map(|p| p.id)
        .collect();
    let ids = by_rating(t, &division);
    if ids.len() < 2 || too_small(first, &snake_groups(&ids, first.group)).is_none() {
        return None;
    }
    let last = sched
        .sessions
        .iter()
        .find(|s| s.scheme == Scheme::Final)
        .map_or(sched.rounds, |s| s.first - 1);
    Some(TwoGroups::new(&ids, last))
}

impl TwoGroups {
    /// The two groups of `ids` (in rating order) by the snake, the larger first.
    pub fn new(ids: &[u32], last: u32) -> TwoGroups {
        let mut g = snake_groups(ids, ids.len().div_ceil(2));
        g.resize(2, Vec::new());
        let (b, a) = (g.pop().expect("two"), g.pop().expect("two"));
        let groups = if b.len() > a.len() { [b, a] } else { [a, b] };
        TwoGroups { groups, last }
    }

    /// Round `round`'s pairs. Reading (models/nsc2006.md): each group first plays its own
    /// round robin (the circle method; for groups of about 20 this alone lasts the footnote's
    /// 19–20 rounds), then the two groups play each other (each player every player of the
    /// other group), which completes one round robin of the whole division: no pair meets
    /// twice before every pair has met once. Then it starts again until the final session.
    /// With groups of odd size g the two players the circle leaves free in a round meet
    /// across, so the division's round robin still takes 2g − 1 rounds; a division of odd
    /// size has a free seat in the second group, whose opponent sits out.
    pub fn round(&self, round: u32) -> Vec<(u32, u32)> {
        let [a, b] = &self.groups;
        let g = a.len();
        if g == 0 {
            return Vec::new();
        }
        let j = (round as usize - 1) % (2 * g - 1);
        let within = if g % 2 == 0 { g - 1 } else { g };
        let mut pairs = Vec::new();
        let mut add = |x: Option<&u32>, y: Option<&u32>| {
            if let (Some(&x), Some(&y)) = (x, y) {
                pairs.push((x, y));
            }
        };
        if j < within {
            let (rr, free) = rr_round(g, j);
            for &(x, y) in &rr {
                add(a.get(x), a.get(y));
                add(b.get(x), b.get(y));
            }
            if let Some(i) = free {
                add(a.get(i), b.get(i));
            }
        } else {
            // Across: a_i v b_(i + shift); shifts 0 … g − 1 (the odd case's 0 was played
            // by the free seats above).
            let shift = j - within + g % 2;
            for i in 0..g {
                add(a.get(i), b.get((i + shift) % g));
            }
        }
        pairs
    }
}

/// A pair's costs in a quad session: a barred repeat (met the session's limit of times
/// before) costs 1 on the first tier, so the certificate counts the barred repeats played.
fn quad_costs(sess: &Session, met_before: u32, letters: i64) -> NscCosts {
    let limit = if sess.repeats { 2 } else { 1 };
    NscCosts {
        barred: i64::from(met_before >= limit),
        letters,
        repeats: i64::from(met_before),
    }
}

/// The rounds of `pod` (standing order) in session `sess`: [`pod_schedule`] with the pairs
/// barred by the meetings before the session.
fn pod_rounds(t: &Tournament, sess: &Session, pod: &[u32]) -> Vec<Vec<(usize, usize)>> {
    let m = meetings(t, sess.first);
    let limit = if sess.repeats { 2 } else { 1 };
    let rounds = (sess.last - sess.first + 1) as usize;
    pod_schedule(pod.len(), rounds, &|a, b| met(&m, pod[a], pod[b]) >= limit)
}

/// Round `round` of every pod: its games are fixed by the pod (A v D, B v C; ...; a pod of
/// 5–7 by [`pod_schedule`]).
fn pod_pairs(t: &Tournament, sess: &Session, round: u32, pods: &[Vec<u32>], plan: &mut Plan) {
    let j = (round - sess.first) as usize;
    let m = meetings(t, round);
    for pod in pods {
        let games = pod_rounds(t, sess, pod)
            .into_iter()
            .nth(j)
            .unwrap_or_default();
        for (a, b) in games {
            let c = quad_costs(sess, met(&m, pod[a], pod[b]), 0);
            plan.pairs.push((pod[a], pod[b], c));
        }
    }
}

/// The fourth round: every pair between coupled quads is a candidate, costed barred repeat
/// first, then letters apart (A v A1 ...), then repeats; the solver keeps the barred repeats
/// to the fewest the two quads allow, then the nearest letters.
fn cross_pairs(
    t: &Tournament,
    sess: &Session,
    round: u32,
    pods: &[Vec<u32>],
    rank: &BTreeMap<u32, usize>,
    plan: &mut Plan,
) {
    let m = meetings(t, round);
    for c in &cross_couples(pods, rank) {
        for (x, &qa) in c.iter().enumerate() {
            for &qb in &c[x + 1..] {
                for (la, &a) in pods[qa].iter().enumerate() {
                    for (lb, &b) in pods[qb].iter().enumerate() {
                        let letters = la.abs_diff(lb) as i64;
                        plan.pairs
                            .push((a, b, quad_costs(sess, met(&m, a, b), letters)));
                    }
                }
            }
        }
    }
}

fn plan_round(
    t: &Tournament,
    programs: &Programs,
    set: &Settings,
    sess: &Session,
    round: u32,
) -> Result<Plan> {
    let j = (round - sess.first) as usize;
    let mut plan = Plan::default();
    if let Some(two) = two_groups(t, &set.schedule).filter(|two| round <= two.last) {
        plan.notes.push(format!(
            "NSC06 footnote: the division is too small for the schedule; round robin of the whole division in two groups ({} and {} players) until round {}",
            two.groups[0].len(),
            two.groups[1].len(),
            two.last
        ));
        plan.pairs.extend(
            two.round(round)
                .into_iter()
                .map(|(a, b)| (a, b, NscCosts::default())),
        );
        return Ok(plan);
    }
    let entrants = present(t, sess.first)
        .union(&present(t, round))
        .copied()
        .collect();
    match sess.scheme {
        Scheme::RoundRobin => {
            let groups = snake_groups(&by_rating(t, &entrants), sess.group);
            check_size(sess, &groups)?;
            for g in &groups {
                for (a, b) in rr_round(g.len(), j).0 {
                    plan.pairs.push((g[a], g[b], NscCosts::default()));
                }
            }
        }
        Scheme::Quads => {
            let order = ranking(t, sess.first, &entrants);
            let (pods, note) = session_pods(t, programs, sess, &order, sess.group)?;
            plan.notes.extend(note);
            let rank: BTreeMap<u32, usize> =
                order.iter().enumerate().map(|(i, &id)| (id, i)).collect();
            if sess.cross_round && j == 3 {
                cross_pairs(t, sess, round, &pods, &rank, &mut plan);
                let odd: Vec<Vec<u32>> = pods.iter().filter(|p| p.len() != 4).cloned().collect();
                pod_pairs(t, sess, round, &odd, &mut plan);
            } else {
                pod_pairs(t, sess, round, &pods, &mut plan);
            }
        }
        Scheme::Final => {
            let order = ranking(t, sess.first, &entrants);
            let mut top = sess.top.min(order.len());
            if order.len() - top < 4 {
                top = order.len();
            }
            let bottom = &order[top..];
            if !bottom.is_empty() {
                // King-of-the-Hill quads (41, 42, 43, 44) ...: groups of four, known for the
                // whole session.
                let (pods, note) = session_pods(t, programs, sess, bottom, 4)?;
                plan.notes.extend(note);
                pod_pairs(t, sess, round, &pods, &mut plan);
            }
            let now = present(t, round);
            let st = Standings::before(t, round);
            let rec = |id: u32| {
                let s = st.get(id);
                Record {
                    id,
                    wins: s.map_or(0.0, |s| s.score),
                    spread: s.map_or(0, |s| s.spread),
                }
            };
            let topset: BTreeSet<u32> = order[..top]
                .iter()
                .copied()
                .filter(|id| now.contains(id))
                .collect();
            let top_now: Vec<Record> = ranking(t, round, &topset).into_iter().map(rec).collect();
            let all: Vec<Record> = order.iter().map(|&id| rec(id)).collect();
            let (pairs, _odd, notes) =
                top_pairs(set, j, games_left(&set.schedule, round), &top_now, &all);
            plan.notes.extend(notes);
            plan.pairs
                .extend(pairs.into_iter().map(|(a, b)| (a, b, NscCosts::default())));
        }
    }
    Ok(plan)
}

/// The round's specification.
pub fn spec(t: &Tournament, round: u32, programs: &Programs) -> Result<RoundSpec> {
    let set = settings(t)?;
    let Some(sess) = set.schedule.session(round) else {
        return Err(Error::field(
            "round",
            format!(
                "round {round} is outside the NSC06 schedule's {} rounds",
                set.schedule.rounds
            ),
        ));
    };
    let plan = plan_round(t, programs, &set, sess, round)?;
    let now = present(t, round);
    let players = ranking(t, round, &now);
    let index: BTreeMap<u32, usize> = players.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    let st = Standings::before(t, round);
    let mut candidates = Vec::new();
    let mut has = vec![false; players.len()];
    for &(a, b, costs) in &plan.pairs {
        let (Some(&ia), Some(&ib)) = (index.get(&a), index.get(&b)) else {
            continue;
        };
        has[ia] = true;
        has[ib] = true;
        let first = first_player(&st, a, b, &index);
        candidates.push(Candidate {
            a: ia,
            b: ib,
            white: if first == a { ia } else { ib },
            costs: costs.to_vec(),
        });
    }
    // A player without a scheduled opponent (odd group, absent opponent) gets the bye.
    let byes: Vec<ByeOption> = (0..players.len())
        .filter(|&i| !has[i])
        .map(|player| ByeOption {
            player,
            costs: NscCosts::default().to_vec(),
        })
        .collect();
    let scores = players
        .iter()
        .map(|id| st.get(*id).map_or(0.0, |s| s.score))
        .collect();
    let mut notes = plan.notes;
    notes.insert(
        0,
        format!(
            "NSC06 session {} ({:?}), round {} of rounds {}-{}",
            sess.session, sess.scheme, round, sess.first, sess.last
        ),
    );
    Ok(RoundSpec {
        system: "nsc2006".into(),
        round,
        players,
        scores,
        tiers: NscTier::ALL.map(NscTier::tier).to_vec(),
        candidates,
        max_byes: byes.len(),
        byes,
        odd_sets: Vec::new(),
        rows: Vec::new(),
        notes,
    })
}
