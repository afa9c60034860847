//! The Dutch state of every player before round k, from the tournament's facts alone.

use crate::tournament::{ByeKind, Colour, GameResult, Player, Tournament};
use std::collections::{BTreeMap, BTreeSet};

/// Points in thousandths: scores are compared exactly.
pub type Points = i64;

/// Points as thousandths (non-finite values, refused at load anyway, count as 0).
pub fn thousandths(x: f64) -> Points {
    if x.is_finite() {
        (x * 1000.0).round() as Points
    } else {
        0
    }
}

/// Thousandths shown as points: `2`, `1.5`, `0.25`.
pub fn show(p: Points) -> String {
    if p % 1000 == 0 {
        format!("{}", p / 1000)
    } else {
        let s = format!("{:.3}", p as f64 / 1000.0);
        s.trim_end_matches('0').to_string()
    }
}

// Colour preferences ("FIDE Dutch 2025 1.7": absolute beyond a colour difference of ±1 or
// after the same colour in the two latest games played; strong at ±1; mild at 0; none before
// any game) are the Swiss verifier's: the 2025 text defines them as A.6 did.
pub use crate::verify::swiss::{preference, Preference, Strength};

/// A float received in one round (FIDE Dutch 2025 1.4.2-1.4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    /// No float: a game against an equal pairing score, or no more than a loss's points
    /// without playing.
    None,
    /// Downfloat: a game against a lower pairing score (1.4.2), or more than a loss's points
    /// without playing (1.4.3).
    Down,
    /// Upfloat: a game against a higher pairing score (1.4.2).
    Up,
}

/// One player as the Dutch rules see him before the round.
#[derive(Debug, Clone)]
pub struct PlayerState {
    /// The player, by id.
    pub id: u32,
    /// Pairing number (TPN): breaks ties of score (FIDE Dutch 2025 1.2).
    pub tpn: u32,
    /// The number FIDE Dutch 2025 5.2.5 takes the parity of: place among the players who have
    /// entered play (see the module notes).
    pub colour_number: u32,
    /// Pairing score: real points plus the round's virtual points.
    pub score: Points,
    /// Real points.
    pub real_score: Points,
    /// Colours of games played over the board, oldest first (C.04.2: unplayed rounds do not
    /// count).
    pub colours: Vec<Colour>,
    /// Colour preference from the colours played (`None` before any game).
    pub pref: Option<Preference>,
    /// Float per earlier round, index 0 = round 1.
    pub floats: Vec<Float>,
    /// Opponents met over the board (C.04.1 2: a forfeit is no meeting).
    pub met: BTreeSet<u32>,
    /// Players he must not meet this round (TRF 260 / XXP).
    pub forbidden: BTreeSet<u32>,
    /// Why he may not have the PAB (C.04.1 4), if barred.
    pub pab_bar: Option<String>,
    /// Earlier rounds without a game played over the board (FIDE Dutch 2025 C.9).
    pub unplayed: u32,
    /// Over 50% of the maximum possible score when pairing the last round (1.8).
    pub topscorer: bool,
}

impl PlayerState {
    /// Colour difference: whites minus blacks over games played.
    pub fn cd(&self) -> i32 {
        self.colours.iter().map(|c| c.sign()).sum()
    }
    /// Whether he may have the PAB (C.04.1 4).
    pub fn pab_eligible(&self) -> bool {
        self.pab_bar.is_none()
    }
    /// The float received `back` rounds before the round being paired (1 = previous round).
    pub fn float_back(&self, back: usize) -> Float {
        if back == 0 || back > self.floats.len() {
            Float::None
        } else {
            self.floats[self.floats.len() - back]
        }
    }
    fn absolute_colour(&self) -> Option<Colour> {
        self.pref
            .filter(|p| p.strength == Strength::Absolute)
            .map(|p| p.colour)
    }
}

/// Everybody to be paired in round `round`, ranked (FIDE Dutch 2025 1.2: score, then TPN).
#[derive(Debug, Clone)]
pub struct RoundState {
    /// The round to be paired, 1-based.
    pub round: u32,
    /// Pairing the last round: topscorers exist (1.8).
    pub last_round: bool,
    /// The event's initial colour (FIDE Dutch 2025 5.2.5); white if unset.
    pub initial_colour: Colour,
    /// The players to be paired, in rank order (index = rank index).
    pub players: Vec<PlayerState>,
    /// Players not paired this round, with why (C.04.2: withdrawn, not yet entered,
    /// requested bye).
    pub absent: Vec<(u32, String)>,
    index: BTreeMap<u32, usize>,
}

fn virtual_points(p: &Player, round: u32) -> f64 {
    (round as usize)
        .checked_sub(1)
        .and_then(|i| p.virtual_points.get(i).copied())
        .unwrap_or(0.0)
}

/// Points per player per earlier round, in thousandths, with the pairing scores read from
/// them.
struct Tally<'a> {
    t: &'a Tournament,
    pts: BTreeMap<u32, Vec<Points>>,
}

impl<'a> Tally<'a> {
    fn new(t: &'a Tournament, round: u32, earlier: &[&crate::tournament::Round]) -> Tally<'a> {
        let s = &t.scoring;
        let mut pts: BTreeMap<u32, Vec<Points>> = BTreeMap::new();
        for p in &t.players {
            pts.insert(p.id, vec![0; round.saturating_sub(1) as usize]);
        }
        for rd in earlier {
            let i = slot(rd.number);
            for g in &rd.games {
                let (w, b) = g.result.points(s);
                if let Some(v) = pts.get_mut(&g.white).and_then(|v| v.get_mut(i)) {
                    *v += thousandths(w);
                }
                if let Some(v) = pts.get_mut(&g.black).and_then(|v| v.get_mut(i)) {
                    *v += thousandths(b);
                }
            }
            for b in &rd.byes {
                if let Some(v) = pts.get_mut(&b.player).and_then(|v| v.get_mut(i)) {
                    *v += thousandths(b.kind.points(s));
                }
            }
        }
        Tally { t, pts }
    }

    /// Real points of `id` before round `r`.
    fn before(&self, id: u32, r: u32) -> Points {
        self.pts
            .get(&id)
            .map(|v| v.iter().take(slot(r)).sum())
            .unwrap_or(0)
    }

    /// Pairing score of `id` before round `r`: real points plus that round's virtual points.
    fn pairing_before(&self, id: u32, r: u32) -> Points {
        self.before(id, r)
            + self
                .t
                .player(id)
                .map_or(0, |p| thousandths(virtual_points(p, r)))
    }
}

/// Index of round `r` in a per-round list (round 1 at 0).
fn slot(r: u32) -> usize {
    (r as usize).saturating_sub(1)
}

/// One player's earlier rounds as the Dutch rules read them.
#[derive(Default)]
struct History {
    colours: Vec<Colour>,
    floats: Vec<Float>,
    met: BTreeSet<u32>,
    unplayed: u32,
    bar: Option<String>,
}

impl History {
    /// The games and byes of player `id` in `rd` (round `r`): colours, meetings and the
    /// float, whether he played, and why he may no longer have the PAB.
    fn add_round(&mut self, tally: &Tally, id: u32, r: u32, rd: Option<&crate::tournament::Round>) {
        let s = &tally.t.scoring;
        let (loss, win) = (thousandths(s.loss), thousandths(s.win));
        let mut fl = Float::None;
        let mut played = false;
        if let Some(rd) = rd {
            for g in rd.games.iter().filter(|g| g.white == id || g.black == id) {
                let me_white = g.white == id;
                let opp = if me_white { g.black } else { g.white };
                let over_board = g.result.played() || g.result == GameResult::Pending;
                if over_board {
                    played = true;
                    self.met.insert(opp);
                    self.colours.push(if me_white {
                        Colour::White
                    } else {
                        Colour::Black
                    });
                    // FIDE Dutch 2025 1.4.2: different scores, the higher floats down.
                    let (mine, theirs) =
                        (tally.pairing_before(id, r), tally.pairing_before(opp, r));
                    fl = match mine.cmp(&theirs) {
                        std::cmp::Ordering::Greater => Float::Down,
                        std::cmp::Ordering::Less => Float::Up,
                        std::cmp::Ordering::Equal => Float::None,
                    };
                } else {
                    let (w, b) = g.result.points(s);
                    let mine = thousandths(if me_white { w } else { b });
                    // FIDE Dutch 2025 1.4.3: scoring more than a loss without playing.
                    if mine > loss {
                        fl = Float::Down;
                    }
                    // C.04.1 4: a win's points in one round without playing.
                    if mine >= win && win > 0 && self.bar.is_none() {
                        self.bar = Some(format!("won by forfeit in round {r}"));
                    }
                }
            }
            for b in rd.byes.iter().filter(|b| b.player == id) {
                let got = thousandths(b.kind.points(s));
                if b.kind == ByeKind::PairingAllocated {
                    // FIDE Dutch 2025 1.4.3 (the PAB scores without playing).
                    fl = Float::Down;
                    if self.bar.is_none() {
                        self.bar = Some(format!("had the pairing-allocated bye in round {r}"));
                    }
                } else {
                    if got > loss {
                        fl = Float::Down;
                    }
                    if got >= win && win > 0 && self.bar.is_none() {
                        self.bar = Some(format!(
                            "scored a win's points without playing in round {r} (requested bye)"
                        ));
                    }
                }
            }
        }
        if !played {
            self.unplayed += 1;
        }
        self.floats.push(fl);
    }
}

/// Why `p` is not paired in `round`, if he is not (C.04.2: not yet entered, withdrawn,
/// requested bye).
fn why_absent(p: &Player, round: u32, requested: &BTreeMap<u32, ByeKind>) -> Option<String> {
    if p.joined.is_some_and(|j| round < j) {
        Some("not yet entered (C.04.2 late entry)".to_string())
    } else if p.withdrawn.is_some_and(|w| round >= w) {
        Some("withdrawn (C.04.2)".to_string())
    } else {
        requested
            .get(&p.id)
            .map(|k| format!("requested bye ({k:?}) (C.04.2)"))
    }
}

/// The numbers 5.2.5 takes the parity of. It counts players who have entered play: a player
/// absent without ever having been paired (in effect a late entry) is skipped, as C.04.2
/// numbers late entries.
fn number_colours(t: &Tournament, round: u32, players: &mut [PlayerState]) {
    let paired_before = t.paired_before(round);
    let mut order: Vec<(u32, u32, bool)> = t
        .players
        .iter()
        .filter(|p| p.joined.is_none_or(|j| j <= round))
        .map(|p| {
            let here = players.iter().any(|x| x.id == p.id);
            (p.number(), p.id, here || paired_before.contains(&p.id))
        })
        .collect();
    order.sort_unstable();
    let mut numbers = BTreeMap::new();
    let mut n = 0;
    for (_, id, counted) in order {
        if counted {
            n += 1;
            numbers.insert(id, n);
        }
    }
    for p in players {
        p.colour_number = numbers.get(&p.id).copied().unwrap_or(p.tpn);
    }
}

impl RoundState {
    /// The state of every player of `t` before round `round`, from the earlier rounds.
    pub fn new(t: &Tournament, round: u32) -> RoundState {
        let earlier: Vec<_> = {
            let mut v: Vec<_> = t.rounds.iter().filter(|r| r.number < round).collect();
            v.sort_by_key(|r| r.number);
            v
        };
        let tally = Tally::new(t, round, &earlier);
        let requested: BTreeMap<u32, ByeKind> = t
            .round(round)
            .map(|r| r.requested_byes().map(|b| (b.player, b.kind)).collect())
            .unwrap_or_default();
        let last_round = t.rounds_planned == Some(round);
        let max_before =
            thousandths(t.scoring.max_per_round()) * i64::from(round.saturating_sub(1));
        let forbidden = t.forbidden_in(round);
        let mut players = Vec::new();
        let mut absent = Vec::new();
        for p in &t.players {
            let id = p.id;
            if let Some(why) = why_absent(p, round, &requested) {
                absent.push((id, why));
                continue;
            }
            let mut h = History::default();
            for r in 1..round {
                h.add_round(
                    &tally,
                    id,
                    r,
                    earlier.iter().find(|x| x.number == r).copied(),
                );
            }
            let real_score = tally.before(id, round);
            let pref = preference(&h.colours);
            players.push(PlayerState {
                id,
                tpn: p.number(),
                colour_number: 0,
                score: tally.pairing_before(id, round),
                real_score,
                colours: h.colours,
                pref,
                floats: h.floats,
                met: h.met,
                forbidden: forbidden.get(&id).cloned().unwrap_or_default(),
                pab_bar: h.bar,
                unplayed: h.unplayed,
                topscorer: last_round && 2 * real_score > max_before,
            });
        }
        number_colours(t, round, &mut players);
        players.sort_by(|a, b| b.score.cmp(&a.score).then(a.tpn.cmp(&b.tpn)));
        let index = players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
        RoundState {
            round,
            last_round,
            initial_colour: t.initial_colour.unwrap_or(Colour::White),
            players,
            absent,
            index,
        }
    }

    /// The rank index (0 = first in the 1.2 order) of player `id`.
    pub fn index_of(&self, id: u32) -> Option<usize> {
        self.index.get(&id).copied()
    }

    /// Player `id`'s state, if he is to be paired.
    pub fn get(&self, id: u32) -> Option<&PlayerState> {
        self.index_of(id).map(|i| &self.players[i])
    }

    /// Why `a` and `b` (rank indices) may not meet: FIDE Dutch 2025 C.1 (met before, or a
    /// forbidden pair) or C.3 (two non-topscorers with the same absolute preference).
    pub fn bar(&self, a: usize, b: usize) -> Option<&'static str> {
        let (x, y) = (&self.players[a], &self.players[b]);
        if a == b {
            return Some(super::C1);
        }
        if x.met.contains(&y.id) || x.forbidden.contains(&y.id) || y.forbidden.contains(&x.id) {
            return Some(super::C1);
        }
        if !x.topscorer && !y.topscorer {
            if let (Some(c), Some(d)) = (x.absolute_colour(), y.absolute_colour()) {
                if c == d {
                    return Some(super::C3);
                }
            }
        }
        None
    }

    /// Scoregroups from the top: rank indices, each group one score.
    pub fn scoregroups(&self) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        for (i, p) in self.players.iter().enumerate() {
            match out.last_mut() {
                Some(g) if self.players[g[0]].score == p.score => g.push(i),
                _ => out.push(vec![i]),
            }
        }
        out
    }
}

/// The colours FIDE Dutch 2025 article 5 gives players `a` and `b` (rank indices): the index
/// that gets white, and the article that decided.
pub fn allocate(st: &RoundState, a: usize, b: usize) -> (usize, &'static str) {
    let (hi, lo) = if a < b { (a, b) } else { (b, a) };
    let (ph, pl) = (&st.players[hi], &st.players[lo]);
    let white_if = |i: usize, c: Colour| -> usize {
        if c == Colour::White {
            i
        } else if i == a {
            b
        } else {
            a
        }
    };
    match (ph.pref, pl.pref) {
        (None, None) => {
            // 5.2.5: odd number -> the initial colour to the higher-ranked player.
            let c = if ph.colour_number % 2 == 1 {
                st.initial_colour
            } else {
                st.initial_colour.opposite()
            };
            (white_if(hi, c), "FIDE Dutch 2025 5.2.5")
        }
        (Some(p), None) => (white_if(hi, p.colour), "FIDE Dutch 2025 5.2.1"),
        (None, Some(p)) => (white_if(lo, p.colour), "FIDE Dutch 2025 5.2.1"),
        (Some(p), Some(q)) if p.colour != q.colour => {
            (white_if(hi, p.colour), "FIDE Dutch 2025 5.2.1")
        }
        (Some(p), Some(q)) => {
            // 5.2.2: the stronger preference; two absolutes: the wider colour difference.
            if p.strength != q.strength {
                let w = if p.strength > q.strength { hi } else { lo };
                return (white_if(w, p.colour), "FIDE Dutch 2025 5.2.2");
            }
            if p.strength == Strength::Absolute && ph.cd().abs() != pl.cd().abs() {
                let w = if ph.cd().abs() > pl.cd().abs() {
                    hi
                } else {
                    lo
                };
                return (white_if(w, p.colour), "FIDE Dutch 2025 5.2.2");
            }
            // 5.2.3: alternate from the most recent round in which their colours differed
            // (C.04.2: histories aligned at the latest game, unplayed rounds dropped).
            let (hh, hl) = (&ph.colours, &pl.colours);
            for k in 1..=hh.len().min(hl.len()) {
                let (x, y) = (hh[hh.len() - k], hl[hl.len() - k]);
                if x != y {
                    return (white_if(hi, x.opposite()), "FIDE Dutch 2025 5.2.3");
                }
            }
            // 5.2.4: the higher-ranked player's preference.
            (white_if(hi, p.colour), "FIDE Dutch 2025 5.2.4")
        }
    }
}
