//! Standings derived from results: scores, colour and float histories, byes, opponents.

use super::{ByeKind, Colour, GameResult, Order, Tournament};
use std::collections::{BTreeMap, BTreeSet};

/// A player's float in one round (FIDE Dutch A.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    /// Met an opponent on the same score.
    None,
    /// Met a lower-scored opponent, or did not play at all (A.4: a player who does not play
    /// in a round receives a downfloat).
    Down,
    /// Met a higher-scored opponent.
    Up,
}

/// One player's state before a given round.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The player, by id.
    pub id: u32,
    /// Pairing number (the id unless a late entry renumbered the field).
    pub number: u32,
    /// Rating; 0 means unrated.
    pub rating: u32,
    /// Real points from the rounds before (points for display and sums; compared in
    /// thousandths, [`super::milli`]).
    pub score: f64,
    /// Colour per earlier round; `None` where no game was played over the board (byes and
    /// forfeits do not count for colours).
    pub colours: Vec<Option<Colour>>,
    /// Float per earlier round.
    pub floats: Vec<Float>,
    /// Opponents met in games played over the board.
    pub played: BTreeSet<u32>,
    /// Opponents met in forfeited games (paired but not played).
    pub forfeited: BTreeSet<u32>,
    /// Players this one must not meet in the round being paired (TRF-2026 260).
    pub forbidden: BTreeSet<u32>,
    /// Pairing-allocated byes received.
    pub pairing_byes: u32,
    /// A win by forfeit received (bars the pairing-allocated bye, FIDE C.04.1 c).
    pub forfeit_wins: u32,
    /// Requested full-point byes received.
    pub full_byes: u32,
    /// Score before each earlier round (index 0 = before round 1).
    pub score_before: Vec<f64>,
    /// Sum of game-score differences (Scrabble spread), byes' recorded spread included.
    pub spread: i64,
}

impl Standing {
    /// Whites minus blacks over games played.
    pub fn colour_difference(&self) -> i32 {
        self.colours.iter().flatten().map(|c| c.sign()).sum()
    }

    /// Colours of played games, oldest first.
    pub fn played_colours(&self) -> Vec<Colour> {
        self.colours.iter().flatten().copied().collect()
    }

    /// The colour of the latest game played over the board, if any.
    pub fn last_colour(&self) -> Option<Colour> {
        self.colours.iter().rev().flatten().next().copied()
    }

    /// Both players have already played each other over the board, or may not meet in this
    /// round (a forbidden pair, TRF-2026 260). A forfeited game does not count: the players
    /// may be paired again (as FIDE Dutch engines do).
    pub fn has_met(&self, other: u32) -> bool {
        self.played.contains(&other) || self.forbidden.contains(&other)
    }

    /// Opponents this player may not meet in the round: those met over the board and the
    /// forbidden pairs (TRF-2026 260).
    pub fn barred(&self) -> BTreeSet<u32> {
        self.played.union(&self.forbidden).copied().collect()
    }

    /// Games played over the board whose colour (who went first) is recorded.
    pub fn games_played(&self) -> usize {
        self.colours.iter().flatten().count()
    }

    /// Games in which the player is recorded as going first (white), and second (black).
    pub fn firsts_seconds(&self) -> (u32, u32) {
        let w = self
            .colours
            .iter()
            .flatten()
            .filter(|c| **c == Colour::White);
        let firsts = w.count() as u32;
        (firsts, self.games_played() as u32 - firsts)
    }
}

/// Standings of every player before round `round`.
#[derive(Debug, Clone)]
pub struct Standings {
    /// The round these standings come before (1-based): rounds `1..round` are counted.
    pub round: u32,
    /// Each player's standing, by id.
    pub by_id: BTreeMap<u32, Standing>,
}

impl Standings {
    /// Builds standings from rounds `1..round` of `t` (later rounds ignored).
    pub fn before(t: &Tournament, round: u32) -> Standings {
        let mut by_id: BTreeMap<u32, Standing> = t
            .players
            .iter()
            .map(|p| {
                (
                    p.id,
                    Standing {
                        id: p.id,
                        number: p.number(),
                        rating: p.rating,
                        score: 0.0,
                        colours: Vec::new(),
                        floats: Vec::new(),
                        played: BTreeSet::new(),
                        forfeited: BTreeSet::new(),
                        forbidden: BTreeSet::new(),
                        pairing_byes: 0,
                        forfeit_wins: 0,
                        full_byes: 0,
                        score_before: Vec::new(),
                        spread: 0,
                    },
                )
            })
            .collect();
        for (id, barred) in t.forbidden_in(round) {
            if let Some(st) = by_id.get_mut(&id) {
                st.forbidden = barred;
            }
        }
        let s = &t.scoring;
        for r in 1..round {
            for st in by_id.values_mut() {
                st.score_before.push(st.score);
            }
            let Some(rd) = t.round(r) else {
                for st in by_id.values_mut() {
                    st.colours.push(None);
                    st.floats.push(Float::Down);
                }
                continue;
            };
            let mut gained: BTreeMap<u32, f64> = BTreeMap::new();
            let mut colour: BTreeMap<u32, Colour> = BTreeMap::new();
            let mut float: BTreeMap<u32, Float> = BTreeMap::new();
            for g in &rd.games {
                let (pw, pb) = g.result.points(s);
                *gained.entry(g.white).or_default() += pw;
                *gained.entry(g.black).or_default() += pb;
                let (Some(w), Some(b)) = (by_id.get(&g.white), by_id.get(&g.black)) else {
                    continue;
                };
                let (sw, sb) = (w.score, b.score);
                for id in [g.white, g.black] {
                    if let Some(d) = g.spread_for(id) {
                        by_id.get_mut(&id).unwrap().spread += d;
                    }
                }
                if g.result.played() || g.result == GameResult::Pending {
                    // Who went first is history only when it is known (Scrabble may not know).
                    if g.order == Order::Recorded {
                        colour.insert(g.white, Colour::White);
                        colour.insert(g.black, Colour::Black);
                    }
                    let cmp = |a: f64, b: f64| match super::milli(a).cmp(&super::milli(b)) {
                        std::cmp::Ordering::Greater => Float::Down,
                        std::cmp::Ordering::Less => Float::Up,
                        std::cmp::Ordering::Equal => Float::None,
                    };
                    float.insert(g.white, cmp(sw, sb));
                    float.insert(g.black, cmp(sb, sw));
                }
                match g.result {
                    GameResult::WhiteForfeitWin => {
                        by_id.get_mut(&g.white).unwrap().forfeit_wins += 1;
                    }
                    GameResult::BlackForfeitWin => {
                        by_id.get_mut(&g.black).unwrap().forfeit_wins += 1;
                    }
                    _ => {}
                }
                let played = g.result.played() || g.result == GameResult::Pending;
                let (wi, bi) = (g.white, g.black);
                let set = |st: &mut Standing, o: u32| {
                    if played {
                        st.played.insert(o);
                    } else {
                        st.forfeited.insert(o);
                    }
                };
                set(by_id.get_mut(&wi).unwrap(), bi);
                set(by_id.get_mut(&bi).unwrap(), wi);
            }
            for b in &rd.byes {
                *gained.entry(b.player).or_default() += b.kind.points(s);
                if let Some(st) = by_id.get_mut(&b.player) {
                    st.spread += i64::from(b.spread.unwrap_or(0));
                    match b.kind {
                        ByeKind::PairingAllocated => st.pairing_byes += 1,
                        ByeKind::Full => st.full_byes += 1,
                        _ => {}
                    }
                }
            }
            for (id, st) in by_id.iter_mut() {
                st.colours.push(colour.get(id).copied());
                st.floats
                    .push(float.get(id).copied().unwrap_or(Float::Down));
                st.score += gained.get(id).copied().unwrap_or(0.0);
            }
        }
        Standings { round, by_id }
    }

    /// Player ids ranked as Scrabble ranks them: wins (score), then spread, then rating, then
    /// pairing number.
    pub fn by_wins_spread(&self) -> Vec<u32> {
        let mut v: Vec<&Standing> = self.by_id.values().collect();
        v.sort_by(|a, b| {
            super::milli(b.score)
                .cmp(&super::milli(a.score))
                .then(b.spread.cmp(&a.spread))
                .then(b.rating.cmp(&a.rating))
                .then(a.number.cmp(&b.number))
        });
        v.into_iter().map(|s| s.id).collect()
    }

    /// Player `id`'s standing, if he is entered.
    pub fn get(&self, id: u32) -> Option<&Standing> {
        self.by_id.get(&id)
    }
}
