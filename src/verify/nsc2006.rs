//! NSC06 (2006 National SCRABBLE Championship), checked one round at a time from the
//! tournament's facts and the schedule (the `nsc2006.schedule` setting, else the shipped
//! `models/nsc2006-schedule.json`), read here on its own. Nothing comes from the model builder.
//!
//! | rule string | what is checked |
//! |---|---|
//! | `NSC06 schedule` | the round lies in the schedule; settings readable |
//! | `NSC06 everyone paired` | every player present has a game or a bye; a bye only for a player whose group or pod has no partner for him |
//! | `NSC06 round robin` | rounds of the round-robin session: both players in the same snake group (row one 1..G, row two G..1, ... over the ratings) |
//! | `NSC06 repeats` | no repeat in a session that allows none; never a threepeat, except between two players of the final session's top group |
//! | `NSC06 session S quads` | the session's games so far join players into quads (at most 4; one bottom pod of 5–7 when the field is not a multiple of 4); complete quads play each pair once in three rounds; if the formula's quads (groups of g by the standings at the session's start) hold no barred pair, the quads are exactly the formula's |
//! | `NSC06 session S fourth round` | A v A1, B v B1 ...: opponents come from adjacent quads (quads ordered by their best-standing member, coupled 1-2, 3-4, ...; the last three together if odd), with the same letter unless that pairing is a barred repeat |
//! | `NSC06 session S King-of-the-Hill quads` | positions below the top group at the final session's start: as the quads rule, with groups of 4 (41, 42, 43, 44) ... |
//! | `NSC06 BASIC APPROACH` | the top group (first `top` at the final session's start) is paired as recomputed here: Gibsons, the top-six rule (1 winner), Division 1 flights (2 winners), King-of-the-Hill |
//! | `NSC06 footnote` | a division too small for the first session's round robins: until the final session, a round robin of the whole division in two snaked groups, inside the groups first, then across; no pair meets again before every pair has met |
//! | `NSC06 firsts balanced` | the player going first had no more firsts−seconds than the opponent |
//!
//! Why one long file: one check per row of the table above, recomputing the schedule apart
//! from model building on purpose.

use super::dutch::state::thousandths;
use super::Violation;
use crate::tournament::{ByeKind, GameResult, Standings, Tournament};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

mod membership;
use membership::{rr_rounds, Membership};

const SHIPPED: &str = include_str!("../../models/nsc2006-schedule.json");

struct Sess {
    name: String,
    first: u32,
    last: u32,
    scheme: String,
    group: usize,
    cross: bool,
    repeats: bool,
    top: usize,
}

struct Sched {
    rounds: u32,
    sessions: Vec<Sess>,
    caps2: Vec<usize>,
    caps1: Vec<usize>,
    catch: Vec<(u32, f64, i64)>,
}

fn load(t: &Tournament) -> Result<Sched, String> {
    let v: Value = match t.settings.get("nsc2006.schedule") {
        None | Some(Value::Null) => serde_json::from_str(SHIPPED).map_err(|e| e.to_string())?,
        Some(Value::String(p)) => {
            let text = crate::formats::read_text(std::path::Path::new(p))
                .map_err(|e| format!("cannot read {p}: {e}"))?;
            serde_json::from_str(&text).map_err(|e| format!("{p}: {e}"))?
        }
        Some(v) => v.clone(),
    };
    let u = |v: &Value, k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    let b = |v: &Value, k: &str| v.get(k).and_then(Value::as_bool).unwrap_or(false);
    let list = |k: &str| -> Vec<usize> {
        v["flight_caps"][k]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_u64)
                    .map(|x| x as usize)
                    .collect()
            })
            .unwrap_or_default()
    };
    let sessions = v["sessions"]
        .as_array()
        .ok_or("schedule has no sessions")?
        .iter()
        .map(|s| Sess {
            name: s["session"].as_str().unwrap_or("").to_string(),
            first: u(s, "first") as u32,
            last: u(s, "last") as u32,
            scheme: s["scheme"].as_str().unwrap_or("").to_string(),
            group: u(s, "group") as usize,
            cross: b(s, "cross_round"),
            repeats: b(s, "repeats"),
            top: u(s, "top") as usize,
        })
        .collect();
    let catch = v["catch"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|c| {
                    (
                        u(c, "games_left") as u32,
                        c["games_behind"].as_f64().unwrap_or(0.0),
                        c["spread"].as_i64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Sched {
        rounds: u(&v, "rounds") as u32,
        sessions,
        caps2: list("two_open"),
        caps1: list("one_open"),
        catch,
    })
}

struct Ctx<'a> {
    t: &'a Tournament,
    r: u32,
    out: Vec<Violation>,
}

impl Ctx<'_> {
    fn flag(&mut self, rule: &str, players: Vec<u32>, msg: String) {
        self.out.push(Violation {
            round: self.r,
            rule: rule.to_string(),
            players,
            message: format!("round {}: {msg} — {rule}", self.r),
        });
    }
}

/// A game between a forbidden pair (a hard rule of every system) is rejected.
fn check_forbidden(c: &mut Ctx) {
    let barred = c.t.forbidden_in(c.r);
    for (a, b) in games(c.t, c.r) {
        if barred.get(&a).is_some_and(|s| s.contains(&b)) {
            c.flag(
                "TRF-2026 260",
                vec![a, b],
                format!("{a} v {b} is a forbidden pair and may not be paired"),
            );
        }
    }
}

/// Games (a, b) of round `r`, a going first.
fn games(t: &Tournament, r: u32) -> Vec<(u32, u32)> {
    t.round(r)
        .map(|rd| rd.games.iter().map(|g| (g.white, g.black)).collect())
        .unwrap_or_default()
}

fn count_met(t: &Tournament, before: u32) -> BTreeMap<(u32, u32), u32> {
    let mut m = BTreeMap::new();
    for rd in t.rounds.iter().filter(|x| x.number < before) {
        for g in &rd.games {
            if g.result.played() || g.result == GameResult::Pending {
                *m.entry((g.white.min(g.black), g.white.max(g.black)))
                    .or_insert(0) += 1;
            }
        }
    }
    m
}

fn times(m: &BTreeMap<(u32, u32), u32>, a: u32, b: u32) -> u32 {
    m.get(&(a.min(b), a.max(b))).copied().unwrap_or(0)
}

fn here(t: &Tournament, r: u32) -> BTreeSet<u32> {
    let away: BTreeSet<u32> = t
        .round(r)
        .map(|rd| {
            rd.byes
                .iter()
                .filter(|b| b.kind != ByeKind::PairingAllocated)
                .map(|b| b.player)
                .collect()
        })
        .unwrap_or_default();
    t.players
        .iter()
        .filter(|p| p.active_in(r) && !away.contains(&p.id))
        .map(|p| p.id)
        .collect()
}

fn standing_order(t: &Tournament, r: u32, ids: &BTreeSet<u32>) -> Vec<u32> {
    Standings::before(t, r)
        .by_wins_spread()
        .into_iter()
        .filter(|i| ids.contains(i))
        .collect()
}

/// The formula's quads over positions 0..n (the same reading as the system's documentation:
/// groups of g split into g/4 quads by stride; a bottom pod of 4 + n mod 4).
fn formula_quads(n: usize, g: usize) -> Vec<Vec<usize>> {
    if n < 8 {
        return vec![(0..n).collect()];
    }
    let tail = if n.is_multiple_of(4) { 0 } else { 4 + n % 4 };
    let mut out = Vec::new();
    let mut s = 0;
    while s < n - tail {
        let size = g.min(n - tail - s);
        let k = size / 4;
        out.extend((0..k).map(|i| (0..4).map(|l| s + i + l * k).collect::<Vec<_>>()));
        s += size;
    }
    if tail > 0 {
        out.push((n - tail..n).collect());
    }
    out
}

/// Components of the games given (union of rounds).
fn components(ids: &[u32], gs: &[(u32, u32)]) -> Vec<BTreeSet<u32>> {
    let mut comp: BTreeMap<u32, usize> = ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    for &(a, b) in gs {
        let (Some(&ca), Some(&cb)) = (comp.get(&a), comp.get(&b)) else {
            continue;
        };
        if ca != cb {
            for v in comp.values_mut() {
                if *v == cb {
                    *v = ca;
                }
            }
        }
    }
    let mut by: BTreeMap<usize, BTreeSet<u32>> = BTreeMap::new();
    for (id, c) in comp {
        by.entry(c).or_default().insert(id);
    }
    by.into_values().collect()
}

pub fn check(t: &Tournament, r: u32) -> Vec<Violation> {
    let mut c = Ctx {
        t,
        r,
        out: Vec::new(),
    };
    check_forbidden(&mut c);
    let sched = match load(t) {
        Ok(s) => s,
        Err(e) => {
            c.flag(
                "NSC06 schedule",
                vec![],
                format!("the schedule cannot be read: {e}"),
            );
            return c.out;
        }
    };
    let Some(s) = sched.sessions.iter().find(|s| s.first <= r && r <= s.last) else {
        c.flag(
            "NSC06 schedule",
            vec![],
            format!("round {r} is outside the schedule"),
        );
        return c.out;
    };
    let gs = games(t, r);
    let (now, byes) = check_everyone_paired(&mut c, &gs);
    let m = count_met(t, r);
    // NSC06 footnote: a division too small for the schedule plays its own round robin until
    // the final session (its repeats are checked there, below).
    let final_first = sched
        .sessions
        .iter()
        .find(|x| x.scheme == "final")
        .map_or(sched.rounds + 1, |x| x.first);
    let two = too_small(t, &sched).filter(|_| r < final_first);
    let entrants: BTreeSet<u32> = here(t, s.first).union(&now).copied().collect();
    let start_order = standing_order(t, s.first, &entrants);
    let top_n = {
        let mut k = s.top.min(start_order.len());
        if start_order.len() - k < 4 {
            k = start_order.len();
        }
        k
    };
    let top_set: BTreeSet<u32> = start_order[..top_n].iter().copied().collect();
    if two.is_none() {
        check_repeats(&mut c, s, &gs, &m, &top_set);
    }
    check_firsts(&mut c, &gs);
    if let Some(groups) = &two {
        check_two_groups(&mut c, groups, &gs, &m);
        return c.out;
    }
    let j = (r - s.first) as usize;
    let round = SessionRound {
        s,
        j,
        gs: &gs,
        m: &m,
        start_order: &start_order,
    };
    match s.scheme.as_str() {
        "round-robin" => check_round_robin(&mut c, s, &entrants, &gs, &byes, &now),
        "quads" => check_quad_session(&mut c, &round),
        "final" => check_final(&mut c, &sched, &round, top_n, &top_set),
        other => c.flag(
            "NSC06 schedule",
            vec![],
            format!("unknown scheme '{other}'"),
        ),
    }
    c.out
}

/// What the phases of a quad or final session's check share.
struct SessionRound<'a> {
    s: &'a Sess,
    j: usize,
    gs: &'a [(u32, u32)],
    m: &'a BTreeMap<(u32, u32), u32>,
    start_order: &'a [u32],
}

/// NSC06 everyone paired: every player present has a game or a bye. Returns the players
/// present and the pairing-allocated byes.
fn check_everyone_paired(c: &mut Ctx, gs: &[(u32, u32)]) -> (BTreeSet<u32>, Vec<u32>) {
    let (t, r) = (c.t, c.r);
    let mut paired: BTreeSet<u32> = gs.iter().flat_map(|&(a, b)| [a, b]).collect();
    let byes: Vec<u32> = t
        .round(r)
        .map(|rd| {
            rd.byes
                .iter()
                .filter(|b| b.kind == ByeKind::PairingAllocated)
                .map(|b| b.player)
                .collect()
        })
        .unwrap_or_default();
    paired.extend(byes.iter().copied());
    let now = here(t, r);
    for &p in &now {
        if !paired.contains(&p) {
            c.flag(
                "NSC06 everyone paired",
                vec![p],
                format!("player {p} has no game and no bye"),
            );
        }
    }
    (now, byes)
}

/// NSC06 repeats: none in a session that allows none, no threepeat outside the final top group
/// (quads: counted against the fewest possible by the quads rules instead).
fn check_repeats(
    c: &mut Ctx,
    s: &Sess,
    gs: &[(u32, u32)],
    m: &BTreeMap<(u32, u32), u32>,
    top_set: &BTreeSet<u32>,
) {
    let no_repeats = s.scheme == "round-robin" || !s.repeats;
    let before = count_met(c.t, s.first);
    for &(a, b) in gs {
        let k = times(m, a, b);
        let final_top = s.scheme == "final" && top_set.contains(&a) && top_set.contains(&b);
        // Quads (and the final session's quads below the top group) may keep the barred
        // repeats no membership avoids: counted by the quads and fourth-round rules instead.
        // A pair meeting twice inside one session is never forced (a quad meets once).
        let in_session = k > times(&before, a, b);
        if !in_session && (s.scheme == "quads" || (s.scheme == "final" && !top_set.contains(&a))) {
            continue;
        }
        if no_repeats && k >= 1 {
            c.flag("NSC06 repeats", vec![a, b], format!("{a} v {b} is a repeat, and session {} allows none (no repeat pairings until Round 15)", s.name));
        } else if k >= 2 && !final_top {
            c.flag("NSC06 repeats", vec![a, b], format!("{a} v {b} would be their meeting number {}: a threepeat is allowed only in the top group of rounds 26-28", k + 1));
        }
    }
}

/// NSC06 firsts balanced.
fn check_firsts(c: &mut Ctx, gs: &[(u32, u32)]) {
    let (t, r) = (c.t, c.r);
    let st = Standings::before(t, r);
    let bal = |id: u32| {
        st.get(id).map_or(0i64, |x| {
            let (f, sd) = x.firsts_seconds();
            i64::from(f) - i64::from(sd)
        })
    };
    for &(a, b) in gs {
        if bal(a) > bal(b) {
            c.flag(
                "NSC06 firsts balanced",
                vec![a, b],
                format!(
                    "{a} goes first with firsts−seconds {} against {b}'s {}",
                    bal(a),
                    bal(b)
                ),
            );
        }
    }
}

/// NSC06 round robin: both players in the same snake group.
fn check_round_robin(
    c: &mut Ctx,
    s: &Sess,
    entrants: &BTreeSet<u32>,
    gs: &[(u32, u32)],
    byes: &[u32],
    now: &BTreeSet<u32>,
) {
    let t = c.t;
    let mut v: Vec<_> = t
        .players
        .iter()
        .filter(|p| entrants.contains(&p.id))
        .collect();
    v.sort_by(|x, y| y.rating.cmp(&x.rating).then(x.number().cmp(&y.number())));
    let n = v.len();
    let g = n.div_ceil(s.group.max(1)).max(1);
    let mut group = BTreeMap::new();
    for (k, p) in v.iter().enumerate() {
        let (row, col) = (k / g, k % g);
        group.insert(p.id, if row % 2 == 0 { col } else { g - 1 - col });
    }
    for &(a, b) in gs {
        if group.get(&a) != group.get(&b) {
            c.flag(
                "NSC06 round robin",
                vec![a, b],
                format!(
                    "{a} (snake group {}) and {b} (snake group {}) are in different groups",
                    group.get(&a).map_or(0, |x| x + 1),
                    group.get(&b).map_or(0, |x| x + 1)
                ),
            );
        }
    }
    let mut size: BTreeMap<usize, usize> = BTreeMap::new();
    for gi in group.values() {
        *size.entry(*gi).or_default() += 1;
    }
    for &p in byes {
        let gsz = group.get(&p).map_or(0, |gi| size[gi]);
        if gsz % 2 == 0 && now.len() == entrants.len() {
            c.flag(
                "NSC06 everyone paired",
                vec![p],
                format!("player {p} has a bye but his snake group of {gsz} is even"),
            );
        }
    }
}

/// The quads and fourth-round rules of a quad session.
fn check_quad_session(c: &mut Ctx, x: &SessionRound) {
    let (t, r, s, j, gs, m, start_order) = (c.t, c.r, x.s, x.j, x.gs, x.m, x.start_order);
    let rule = format!("NSC06 session {} quads", s.name);
    let rounds_in: Vec<u32> = (s.first..=r.min(s.first + 2)).collect();
    check_quads(
        c,
        &rule,
        s,
        start_order,
        s.group,
        &m_before(t, s.first),
        &rounds_in,
        j,
    );
    if s.cross && j == 3 {
        let pods: Vec<BTreeSet<u32>> = components(
            start_order,
            &(s.first..s.first + 3)
                .flat_map(|x| games(t, x))
                .collect::<Vec<_>>(),
        );
        check_cross(c, s, start_order, &pods, gs, m);
    }
}

/// The final session: King-of-the-Hill quads below the top group, the BASIC APPROACH above.
fn check_final(
    c: &mut Ctx,
    sched: &Sched,
    x: &SessionRound,
    top_n: usize,
    top_set: &BTreeSet<u32>,
) {
    let (t, r, s, j, gs, start_order) = (c.t, c.r, x.s, x.j, x.gs, x.start_order);
    let bottom: Vec<u32> = start_order[top_n..].to_vec();
    if !bottom.is_empty() {
        let rule = format!("NSC06 session {} King-of-the-Hill quads", s.name);
        let rounds_in: Vec<u32> = (s.first..=r).collect();
        check_quads(
            c,
            &rule,
            s,
            &bottom,
            4,
            &m_before(t, s.first),
            &rounds_in,
            j,
        );
    }
    for &(a, b) in gs {
        if top_set.contains(&a) != top_set.contains(&b) {
            c.flag(
                "NSC06 BASIC APPROACH",
                vec![a, b],
                format!(
                    "{a} and {b}: a top-{} player paired outside the top group",
                    s.top
                ),
            );
        }
    }
    check_top(c, sched, j, &start_order[..top_n], start_order, gs);
}

/// NSC06 footnote: whether the division (the players entered for round 1) is too small for
/// the first session's snaked round robins without a repeat (an even group of g has g − 1
/// rounds, an odd one g); if so its two groups by the snake over the ratings (1, 4, 5, 8, …
/// and 2, 3, 6, 7, …).
fn too_small(t: &Tournament, sched: &Sched) -> Option<[BTreeSet<u32>; 2]> {
    let first = sched.sessions.first()?;
    if first.scheme != "round-robin" {
        return None;
    }
    let mut v: Vec<_> = t.players.iter().filter(|p| p.active_in(1)).collect();
    v.sort_by(|x, y| y.rating.cmp(&x.rating).then(x.number().cmp(&y.number())));
    let n = v.len();
    let g = n.div_ceil(first.group.max(1)).max(1);
    let rounds = (first.last - first.first + 1) as usize;
    let small = (0..g).any(|col| {
        let size = (0..n)
            .filter(|k| {
                let (row, c) = (k / g, k % g);
                (if row % 2 == 0 { c } else { g - 1 - c }) == col
            })
            .count();
        let cycle = if size % 2 == 0 {
            size.saturating_sub(1)
        } else {
            size
        };
        cycle < rounds
    });
    if n < 2 || !small {
        return None;
    }
    let mut two = [BTreeSet::new(), BTreeSet::new()];
    for (k, p) in v.iter().enumerate() {
        two[usize::from(matches!(k % 4, 1 | 2))].insert(p.id);
    }
    Some(two)
}

/// NSC06 footnote: "the initial RR pairings will be adjusted to last closer to 19–20 rds., with
/// the whole division divided into two separate groups ... avoiding repeat pairings as much as
/// possible". Read as a round robin of the whole division that each group first plays inside
/// itself, then across (models/nsc2006.md). With g the larger group's size, a round robin takes
/// 2g − 1 rounds: the first g − 1 (g even) or g (g odd) inside the groups — for odd g, one
/// game a round across, between the two players the groups leave free —, the rest across; and
/// in its p-th pass (from 0) nobody meets anyone for the (p + 2)-th time.
fn check_two_groups(
    c: &mut Ctx,
    groups: &[BTreeSet<u32>; 2],
    gs: &[(u32, u32)],
    m: &BTreeMap<(u32, u32), u32>,
) {
    let rule = "NSC06 footnote";
    let g = groups[0].len().max(groups[1].len());
    let cycle = 2 * g - 1;
    let k = (c.r - 1) as usize;
    let (pass, j) = (k / cycle, k % cycle);
    let within = if g.is_multiple_of(2) { g - 1 } else { g };
    let side = |p: u32| groups.iter().position(|x| x.contains(&p));
    let mut across = 0;
    for &(a, b) in gs {
        let (sa, sb) = (side(a), side(b));
        if sa.is_none() || sb.is_none() {
            c.flag(
                rule,
                vec![a, b],
                format!("{a} v {b}: a player outside the division's two groups (not entered for round 1) has a game"),
            );
            continue;
        }
        if sa != sb {
            across += 1;
        } else if j >= within {
            c.flag(
                rule,
                vec![a, b],
                format!("{a} v {b} play inside their group, but round {} of the division's round robin is one of the groups across", j + 1),
            );
        }
        let met = times(m, a, b) as usize;
        if met > pass {
            c.flag(
                rule,
                vec![a, b],
                format!("{a} v {b} meet for the {} time in pass {} of the division's round robin: a pair meets again only once every pair has met (avoiding repeat pairings as much as possible)", ordinal(met + 1), pass + 1),
            );
        }
    }
    let allowed = usize::from(g % 2 == 1);
    if j < within && across > allowed {
        c.flag(
            rule,
            gs.iter().flat_map(|&(a, b)| [a, b]).collect(),
            format!("{across} games across the two groups in round {} of the division's round robin, which the groups play inside themselves (at most {allowed})", j + 1),
        );
    }
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        _ => format!("{n}th"),
    }
}

fn m_before(t: &Tournament, r: u32) -> BTreeMap<(u32, u32), u32> {
    count_met(t, r)
}

/// The quads rule over the players `order` (standing order at the session's start) and the
/// session's quad rounds so far.
#[allow(clippy::too_many_arguments)]
fn check_quads(
    c: &mut Ctx,
    rule: &str,
    s: &Sess,
    order: &[u32],
    group: usize,
    met_before: &BTreeMap<(u32, u32), u32>,
    rounds: &[u32],
    j: usize,
) {
    let set: BTreeSet<u32> = order.iter().copied().collect();
    let all: Vec<(u32, u32)> = rounds
        .iter()
        .flat_map(|&x| games(c.t, x))
        .filter(|(a, b)| set.contains(a) && set.contains(b))
        .collect();
    // Fewer than eight players are one pod (a bottom pod of 5–7 has no quads above it).
    let tail = if order.len() < 8 {
        order.len()
    } else if order.len().is_multiple_of(4) {
        4
    } else {
        4 + order.len() % 4
    };
    let comps = components(order, &all);
    let pos: BTreeMap<u32, usize> = order.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    for comp in &comps {
        let bottom = comp.iter().any(|id| pos[id] + tail >= order.len());
        let cap = if bottom { tail } else { 4 };
        if comp.len() > cap {
            c.flag(rule, comp.iter().copied().collect(), format!("players {:?} are joined by this session's games into a group of {} (a quad has 4)", comp, comp.len()));
        }
        if j == 2 && comp.len() == 4 {
            let v: Vec<u32> = comp.iter().copied().collect();
            for x in 0..4 {
                for y in x + 1..4 {
                    let k = all
                        .iter()
                        .filter(|&&(a, b)| (a, b) == (v[x], v[y]) || (a, b) == (v[y], v[x]))
                        .count();
                    if k != 1 {
                        c.flag(rule, vec![v[x], v[y]], format!("in quad {v:?}, {} and {} met {k} times in the session's three quad rounds (once each)", v[x], v[y]));
                    }
                }
            }
        }
    }
    let limit = if s.repeats { 2 } else { 1 };
    if rounds.contains(&c.r) {
        let rounds = (s.last - s.first + 1) as usize;
        check_unavoidable(c, order, (group, rounds), met_before, limit, &all, rule);
    }
    // The formula's quads stand unless they hold a barred pair.
    let base = formula_quads(order.len(), group);
    let clash = base.iter().any(|q| {
        q.iter().any(|&x| {
            q.iter()
                .any(|&y| x < y && times(met_before, order[x], order[y]) >= limit)
        })
    });
    if !clash && rounds.contains(&c.r) {
        let quad_of: BTreeMap<u32, usize> = base
            .iter()
            .enumerate()
            .flat_map(|(qi, q)| q.iter().map(move |&i| (order[i], qi)))
            .collect();
        let this: Vec<(u32, u32)> = games(c.t, c.r)
            .into_iter()
            .filter(|(a, b)| set.contains(a) && set.contains(b))
            .collect();
        for (a, b) in this {
            if quad_of[&a] != quad_of[&b] {
                c.flag(rule, vec![a, b], format!("{a} (standing {}) and {b} (standing {}) are not in the same quad of the groups of {group}, and no repeat forced a change", pos[&a] + 1, pos[&b] + 1));
            }
        }
    }
}

/// Barred repeats in a session's quads (pairs met `limit` times before it) are allowed only
/// as many as no membership of the formula's pod sizes could avoid ("the computer program will
/// adjust the quad pairings accordingly, with minimum adjustments"): the games so far hold at
/// most the fewest barred games any membership plays in the quad rounds (a bottom pod of 5–7
/// plays only some of its pairs), found by [`Membership`]'s exhaustive search. `shape`: the
/// formula's group size and the session's rounds.
fn check_unavoidable(
    c: &mut Ctx,
    order: &[u32],
    shape: (usize, usize),
    met_before: &BTreeMap<(u32, u32), u32>,
    limit: u32,
    games: &[(u32, u32)],
    rule: &str,
) {
    let played: BTreeSet<(u32, u32)> = games
        .iter()
        .filter(|&&(a, b)| times(met_before, a, b) >= limit)
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    if played.is_empty() {
        return;
    }
    let n = order.len();
    let adj: Vec<Vec<bool>> = (0..n)
        .map(|x| {
            (0..n)
                .map(|y| x != y && times(met_before, order[x], order[y]) >= limit)
                .collect()
        })
        .collect();
    let sizes: Vec<usize> = formula_quads(n, shape.0).iter().map(Vec::len).collect();
    let players: Vec<usize> = (0..n).collect();
    let mut budget = 200_000;
    let what = if limit == 1 { "repeats" } else { "threepeats" };
    let ids: Vec<u32> = played.iter().flat_map(|&(a, b)| [a, b]).collect();
    let search = Membership::new(&adj, shape.1);
    match search.fewer_exists(&players, &sizes, played.len(), &mut budget) {
        Some(false) => {}
        Some(true) => c.flag("NSC06 repeats", ids, format!("the quads of {rule} play {} barred {what} ({played:?}), and a membership playing fewer exists", played.len())),
        None => c.flag("NSC06 repeats", ids, format!("the quads of {rule} play {} barred {what} ({played:?}), and the search could not show that fewer were impossible", played.len())),
    }
}

fn check_cross(
    c: &mut Ctx,
    s: &Sess,
    order: &[u32],
    pods: &[BTreeSet<u32>],
    gs: &[(u32, u32)],
    m: &BTreeMap<(u32, u32), u32>,
) {
    let rule = format!("NSC06 session {} fourth round", s.name);
    let pos: BTreeMap<u32, usize> = order.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    let mut quads: Vec<Vec<u32>> = pods
        .iter()
        .filter(|p| p.len() == 4)
        .map(|p| {
            let mut v: Vec<u32> = p.iter().copied().collect();
            v.sort_by_key(|id| pos[id]);
            v
        })
        .collect();
    quads.sort_by_key(|q| pos[&q[0]]);
    let mut couple = BTreeMap::new();
    let mut letter = BTreeMap::new();
    let nq = quads.len();
    for (qi, q) in quads.iter().enumerate() {
        let ci = if nq % 2 == 1 && nq >= 3 && qi == nq - 1 {
            (qi - 1) / 2
        } else {
            qi / 2
        };
        for (l, &id) in q.iter().enumerate() {
            couple.insert(id, ci);
            letter.insert(id, l);
        }
    }
    let limit = if s.repeats { 2 } else { 1 };
    let pod_of = |id: u32| pods.iter().position(|p| p.contains(&id));
    for &(a, b) in gs {
        match (couple.get(&a), couple.get(&b)) {
            (Some(ca), Some(cb)) => {
                if pod_of(a) == pod_of(b) {
                    c.flag(&rule, vec![a, b], format!("{a} and {b} are in the same quad; the fourth round plays the adjacent quad"));
                } else if ca != cb {
                    c.flag(
                        &rule,
                        vec![a, b],
                        format!("{a} and {b} are in quads that are not adjacent"),
                    );
                }
            }
            (None, None) if pod_of(a) == pod_of(b) => {}
            _ => c.flag(
                &rule,
                vec![a, b],
                format!("{a} v {b} mixes a quad with the bottom pod"),
            ),
        }
    }
    // A v A1, B v B1 ...: within a couple of two quads (or the last three together, with an
    // odd number of quads), the fewest barred repeats the quads allow, then the letters no
    // further apart (in total |letter − letter|) than in the best such pairing (every pairing
    // across the quads tried).
    let full = if nq % 2 == 1 && nq >= 3 {
        nq - 3
    } else {
        nq - nq % 2
    };
    let mut meetings: Vec<&[Vec<u32>]> = quads[..full].chunks(2).collect();
    if full + 3 == nq {
        meetings.push(&quads[full..]);
    }
    for meeting in meetings {
        check_meeting(c, &rule, meeting, gs, m, limit);
    }
    for pod in pods.iter().filter(|p| (5..=7).contains(&p.len())) {
        check_pod_fourth(c, &rule, s, pod, gs, m, limit);
    }
}

/// Quads `qs` (each in letter order) meeting in the fourth round: their games hold no more
/// barred repeats than the fewest any pairing across the quads allows, and with that many,
/// letters no further apart.
fn check_meeting(
    c: &mut Ctx,
    rule: &str,
    qs: &[Vec<u32>],
    gs: &[(u32, u32)],
    m: &BTreeMap<(u32, u32), u32>,
    limit: u32,
) {
    let at: BTreeMap<u32, (usize, usize)> = qs
        .iter()
        .enumerate()
        .flat_map(|(qi, q)| q.iter().enumerate().map(move |(l, &id)| (id, (qi, l))))
        .collect();
    let (mut barred, mut actual, mut seen) = (0usize, 0usize, 0usize);
    for &(a, b) in gs {
        let (Some(&(_, la)), Some(&(_, lb))) = (at.get(&a), at.get(&b)) else {
            continue;
        };
        actual += la.abs_diff(lb);
        barred += usize::from(times(m, a, b) >= limit);
        seen += 1;
    }
    if seen * 2 != at.len() {
        return;
    }
    let ids: Vec<u32> = at.keys().copied().collect();
    let mut best = (usize::MAX, usize::MAX);
    let mut open: BTreeSet<u32> = ids.iter().copied().collect();
    cross_best(&mut open, &at, m, limit, (0, 0), &mut best);
    let names: Vec<String> = qs.iter().map(|q| format!("{q:?}")).collect();
    let names = names.join(" and ");
    if barred > best.0 {
        c.flag(
            rule,
            ids,
            format!(
                "quads {names} meet with {barred} barred repeat(s), where {} was possible",
                best.0
            ),
        );
    } else if actual > best.1 {
        c.flag(rule, ids, format!("quads {names} meet with letters {actual} apart in total, where {} was possible with no more barred repeats: the fourth round pairs A v A1, B v B1, C v C1, D v D1", best.1));
    }
}

/// The fewest (barred repeats, letters apart) over every pairing of the players `open` in which
/// each game joins two different quads (`at`: quad and letter of each player).
fn cross_best(
    open: &mut BTreeSet<u32>,
    at: &BTreeMap<u32, (usize, usize)>,
    m: &BTreeMap<(u32, u32), u32>,
    limit: u32,
    spent: (usize, usize),
    best: &mut (usize, usize),
) {
    let Some(&a) = open.iter().next() else {
        *best = (*best).min(spent);
        return;
    };
    if spent >= *best {
        return;
    }
    open.remove(&a);
    let others: Vec<u32> = open
        .iter()
        .copied()
        .filter(|b| at[b].0 != at[&a].0)
        .collect();
    for b in others {
        open.remove(&b);
        let cost = (
            spent.0 + usize::from(times(m, a, b) >= limit),
            spent.1 + at[&a].1.abs_diff(at[&b].1),
        );
        cross_best(open, at, m, limit, cost, best);
        open.insert(b);
    }
    open.insert(a);
}

/// The bottom pod of 5–7 plays its own fourth round, the next round of its round robin: no
/// more barred repeats than the fewest of any such round (a maximum matching of the pod with
/// no pair of the session's first three rounds, sitting out in an odd pod someone who has not).
fn check_pod_fourth(
    c: &mut Ctx,
    rule: &str,
    s: &Sess,
    pod: &BTreeSet<u32>,
    gs: &[(u32, u32)],
    m: &BTreeMap<(u32, u32), u32>,
    limit: u32,
) {
    let ids: Vec<u32> = pod.iter().copied().collect();
    let ix = |id: u32| ids.iter().position(|&x| x == id);
    let bit = |a: usize, b: usize| 1u64 << (a.min(b) * 8 + a.max(b));
    let (mut used, mut sat) = (0u64, 0u32);
    for r in s.first..s.first + 3 {
        let mut playing = 0u32;
        for (a, b) in games(c.t, r) {
            if let (Some(x), Some(y)) = (ix(a), ix(b)) {
                used |= bit(x, y);
                playing |= 1 << x | 1 << y;
            }
        }
        sat |= !playing & ((1 << ids.len()) - 1);
    }
    let mut barred_bits = 0u64;
    for x in 0..ids.len() {
        for y in x + 1..ids.len() {
            if times(m, ids[x], ids[y]) >= limit {
                barred_bits |= bit(x, y);
            }
        }
    }
    let best = rr_rounds(ids.len())
        .into_iter()
        .filter(|&(g, sit)| g & used == 0 && (sit >= ids.len() || sat >> sit & 1 == 0))
        .map(|(g, _)| (g & barred_bits).count_ones() as usize)
        .min();
    let played = gs
        .iter()
        .filter_map(|&(a, b)| Some(bit(ix(a)?, ix(b)?)))
        .filter(|&g| g & barred_bits != 0)
        .count();
    if let Some(best) = best.filter(|&b| played > b) {
        c.flag(rule, ids, format!("the bottom pod {pod:?} plays {played} barred repeat(s) in its fourth round, where {best} was possible"));
    }
}

#[derive(Clone, Copy)]
struct Rec {
    id: u32,
    /// Wins in thousandths (a draw half a win): compared exactly.
    w: i64,
    s: i64,
}

/// Recomputes the top group's pairs (NSC06 BASIC APPROACH) and compares them as sets.
fn check_top(c: &mut Ctx, sched: &Sched, j: usize, top: &[u32], all: &[u32], gs: &[(u32, u32)]) {
    let t = c.t;
    let (winners, prize) = top_settings(t);
    let st = Standings::before(t, c.r);
    let rec = |id: u32| Rec {
        id,
        w: st.get(id).map_or(0, |x| thousandths(x.score)),
        s: st.get(id).map_or(0, |x| x.spread),
    };
    let now = here(t, c.r);
    let mut cur: Vec<Rec> = st
        .by_wins_spread()
        .into_iter()
        .filter(|id| top.contains(id) && now.contains(id))
        .map(rec)
        .collect();
    let everyone: Vec<Rec> = all.iter().map(|&id| rec(id)).collect();
    let left = sched.rounds + 1 - c.r;
    let mut want = Want::default();
    let gib = gibsons(&mut cur, &everyone, winners, prize, left, &mut want);
    let mut from = 0;
    if winners == 1 && gib == 0 && cur.len() >= 6 {
        from = top_six(&cur, j, left, &mut want);
    }
    if winners == 2 && gib < 2 {
        from = flight(sched, &cur, 2 - gib, j, left, &mut want);
    }
    for p in cur[from.min(cur.len())..].chunks(2) {
        if p.len() == 2 {
            want.put(p[0].id, p[1].id);
        }
    }
    compare_top(c, top, gs, &want);
}

/// The top group's pairs as recomputed, and the rules that made them.
#[derive(Default)]
struct Want {
    pairs: BTreeSet<(u32, u32)>,
    why: Vec<String>,
}

impl Want {
    fn put(&mut self, a: u32, b: u32) {
        self.pairs.insert((a.min(b), a.max(b)));
    }
}

/// The settings the BASIC APPROACH reads: winners (`nsc2006.winners`, else 2 in Division 1
/// and 1 elsewhere) and the prize places (`nsc2006.prize_places`, else 6).
fn top_settings(t: &Tournament) -> (usize, usize) {
    let winners = match t.settings.get("nsc2006.winners").and_then(Value::as_u64) {
        Some(w) => w as usize,
        None => {
            let div = t
                .settings
                .get("nsc2006.division")
                .and_then(Value::as_u64)
                .or_else(|| {
                    t.players
                        .iter()
                        .find_map(|p| p.division.as_deref())
                        .and_then(|d| d.trim().parse().ok())
                });
            if div == Some(1) {
                2
            } else {
                1
            }
        }
    };
    let prize = t
        .settings
        .get("nsc2006.prize_places")
        .and_then(Value::as_u64)
        .unwrap_or(6)
        .max(1) as usize;
    (winners, prize)
}

/// NSC06 BASIC APPROACH, catch table: `lo` can catch `hi` with `left` games left (fewer games
/// behind than the row's limit, or exactly that many and no more spread behind).
fn catchable(sched: &Sched, left: u32, lo: &Rec, hi: &Rec) -> bool {
    let row = sched
        .catch
        .iter()
        .filter(|x| x.0 <= left)
        .max_by_key(|x| x.0)
        .or_else(|| sched.catch.iter().min_by_key(|x| x.0));
    let Some(&(_, gb, sp)) = row else {
        return false;
    };
    let (behind, gb) = (hi.w - lo.w, thousandths(gb));
    behind < gb || (behind == gb && hi.s - lo.s <= sp)
}

/// NSC06 BASIC APPROACH, GIBSONIZE: each of the first `winners` whom at most winners − 1
/// others can still reach plays the highest top-group player out of the prize places (else
/// the lowest). Removes them and their opponents from `cur`; returns the number of Gibsons.
fn gibsons(
    cur: &mut Vec<Rec>,
    everyone: &[Rec],
    winners: usize,
    prize: usize,
    left: u32,
    want: &mut Want,
) -> usize {
    let lf = 1000 * i64::from(left); // `left` wins, in thousandths
    let gib: Vec<Rec> = cur
        .iter()
        .take(winners)
        .filter(|x| {
            everyone
                .iter()
                .filter(|o| o.id != x.id && o.w + lf >= x.w)
                .count()
                < winners
        })
        .copied()
        .collect();
    cur.retain(|x| !gib.iter().any(|g| g.id == x.id));
    for g in &gib {
        if cur.is_empty() {
            break;
        }
        let k = cur
            .iter()
            .position(|x| everyone.iter().filter(|o| o.w > x.w + lf).count() >= prize)
            .unwrap_or(cur.len() - 1);
        let o = cur.remove(k);
        want.put(g.id, o.id);
        want.why.push(format!("Gibson {} v {}", g.id, o.id));
    }
    gib.len()
}

/// NSC06 BASIC APPROACH, 1 winner: the top six in rounds 26 (`j` = 0) and 27. Returns how
/// many players it paired (6 or 0).
fn top_six(cur: &[Rec], j: usize, left: u32, want: &mut Want) -> usize {
    let lf = 1000 * i64::from(left); // `left` wins, in thousandths
    let chance = |k: usize| cur[k].w + lf >= cur[0].w;
    let six: Option<[(usize, usize); 3]> = if j == 0 {
        Some(if chance(4) {
            [(0, 3), (1, 4), (2, 5)]
        } else {
            [(0, 2), (1, 3), (4, 5)]
        })
    } else if j == 1 && chance(2) {
        Some([(0, 2), (1, 3), (4, 5)])
    } else {
        None
    };
    let Some(six) = six else {
        return 0;
    };
    for (a, b) in six {
        want.put(cur[a].id, cur[b].id);
    }
    want.why.push("top-six rule".into());
    6
}

/// NSC06 BASIC APPROACH, 2 winners: the Division 1 flight with `open` places open. Returns
/// its size N.
fn flight(sched: &Sched, cur: &[Rec], open: usize, j: usize, left: u32, want: &mut Want) -> usize {
    let caps = if open == 2 {
        &sched.caps2
    } else {
        &sched.caps1
    };
    let cap = caps.get(j).copied().unwrap_or(2).min(cur.len());
    let mut n = open.min(cur.len());
    while n < cur.len() && catchable(sched, left, &cur[n], &cur[open - 1]) {
        n += 1;
    }
    n = n.min(cap);
    if n % 2 == 1 {
        n = if n < cap { n + 1 } else { n - 1 };
    }
    let mut f: Vec<Rec> = cur[..n].to_vec();
    while f.len() >= 2 {
        let hi = f.remove(0);
        let k = (0..f.len())
            .rev()
            .find(|&k| catchable(sched, left, &f[k], &hi))
            .unwrap_or(0);
        let lo = f.remove(k);
        want.put(hi.id, lo.id);
    }
    want.why.push(format!("Division 1 flight of {n}"));
    n
}

/// The top group's games against the recomputed pairs, as sets.
fn compare_top(c: &mut Ctx, top: &[u32], gs: &[(u32, u32)], want: &Want) {
    let topset: BTreeSet<u32> = top.iter().copied().collect();
    let got: BTreeSet<(u32, u32)> = gs
        .iter()
        .filter(|(a, b)| topset.contains(a) && topset.contains(b))
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    let why = if want.why.is_empty() {
        "King-of-the-Hill".to_string()
    } else {
        want.why.join(", ")
    };
    for &(a, b) in got.difference(&want.pairs) {
        c.flag(
            "NSC06 BASIC APPROACH",
            vec![a, b],
            format!("{a} v {b} is not the top group's pairing ({why}; King-of-the-Hill otherwise)"),
        );
    }
    for &(a, b) in want.pairs.difference(&got) {
        c.flag(
            "NSC06 BASIC APPROACH",
            vec![a, b],
            format!("{a} v {b} is missing from the top group ({why})"),
        );
    }
}
