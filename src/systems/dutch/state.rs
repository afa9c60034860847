//! Each player's Dutch state before the round: pairing score, colour preference, floats,
//! bye eligibility — computed from the tournament's facts as C.04.3 (2025) defines them.

use crate::tournament::{Colour, Standings, Tournament};
use std::collections::BTreeSet;

/// A float received in an earlier round ("FIDE Dutch 2025 1.4.2", "FIDE Dutch 2025 1.4.3"):
/// the tournament's one float type, read here from pairing scores.
pub use crate::tournament::Float;

/// One player to pair, in the round's rank order.
#[derive(Debug, Clone)]
pub struct DutchPlayer {
    /// The player's id.
    pub id: u32,
    /// Pairing score in thousandths of a point: real score plus the round's virtual points.
    pub score: i64,
    /// Place among the players who have entered play (1-based), for the colour rule that
    /// reads pairing numbers ("FIDE Dutch 2025 E.5").
    pub number: u32,
    /// Whites minus blacks over games played over the board.
    pub colour_difference: i32,
    /// Colour the player should get, if any ("FIDE Dutch 2025 1.7").
    pub preference: Option<Colour>,
    /// Absolute preference: difference beyond ±1, or the same colour in the last two games.
    pub absolute: bool,
    /// Strong preference: difference ±1 and not absolute.
    pub strong: bool,
    /// The colour of the last two played games when they were the same.
    pub repeated: Option<Colour>,
    /// Colours of played games, oldest first (for "FIDE Dutch 2025 E.4").
    pub history: Vec<Colour>,
    /// Float of the previous round and of the round before it.
    pub floats: [Float; 2],
    /// May receive the pairing-allocated bye ("C.04.1 d (2025)").
    pub bye_eligible: bool,
    /// Games played over the board ("FIDE Dutch 2025 C.9": the bye to the fewest unplayed).
    pub played_games: u32,
    /// A topscorer when the last round is paired ("FIDE Dutch 2025 1.8").
    pub topscorer: bool,
    /// Opponents met over the board, and forbidden pairs.
    pub barred: BTreeSet<u32>,
}

impl DutchPlayer {
    /// |colour difference| > 1 (the topscorer colour criteria read it alone).
    pub fn absolute_imbalance(&self) -> bool {
        self.colour_difference.abs() > 1
    }
}

pub use crate::tournament::milli;

/// The players to pair in round `round` of `t` (the rounds before it as history), ranked by
/// pairing score then pairing number ("FIDE Dutch 2025 1.2").
pub fn field(
    t: &Tournament,
    round: u32,
    numbers: &std::collections::BTreeMap<u32, u32>,
) -> Vec<DutchPlayer> {
    let st = Standings::before(t, round);
    let absent: BTreeSet<u32> = t
        .round(round)
        .map(|r| r.requested_byes().map(|b| b.player).collect())
        .unwrap_or_default();
    let played_rounds = round.saturating_sub(1);
    let last_round = t.rounds_planned == Some(round);
    let win = milli(t.scoring.win);
    let loss = milli(t.scoring.loss);
    let top_threshold = i64::from(played_rounds) * win.max(milli(t.scoring.draw)) / 2;
    // Opponent of each player in each earlier round (games played or pending only).
    let opponent = |id: u32, r: u32| -> Option<u32> {
        let rd = t.round(r)?;
        rd.games.iter().find_map(|g| {
            let counts = g.result.played() || g.result == crate::tournament::GameResult::Pending;
            if !counts {
                None
            } else if g.white == id {
                Some(g.black)
            } else if g.black == id {
                Some(g.white)
            } else {
                None
            }
        })
    };
    let virtual_points = |id: u32, r: u32| -> i64 {
        t.player(id)
            .and_then(|p| p.virtual_points.get(r as usize - 1).copied())
            .map(milli)
            .unwrap_or(0)
    };
    // Score before round r (1-based, r <= round) with that round's virtual points.
    let score_at = |id: u32, r: u32| -> i64 {
        let s = st.get(id).expect("standing for every player");
        let real = if r == round {
            s.score
        } else {
            s.score_before.get(r as usize - 1).copied().unwrap_or(0.0)
        };
        milli(real) + virtual_points(id, r)
    };
    let gained = |id: u32, r: u32| -> i64 {
        let s = st.get(id).expect("standing for every player");
        let after = if r + 1 >= round {
            s.score
        } else {
            s.score_before.get(r as usize).copied().unwrap_or(0.0)
        };
        let before = s.score_before.get(r as usize - 1).copied().unwrap_or(0.0);
        milli(after) - milli(before)
    };
    let mut out: Vec<DutchPlayer> = t
        .players
        .iter()
        .filter(|p| p.active_in(round) && !absent.contains(&p.id))
        .map(|p| {
            let s = st.get(p.id).expect("standing for every player");
            let history: Vec<Colour> = s.colours.iter().flatten().copied().collect();
            let cd: i32 = history.iter().map(|c| c.sign()).sum();
            let mut run = 0;
            for c in history.iter().rev() {
                if Some(c) == history.last() {
                    run += 1;
                } else {
                    break;
                }
            }
            let last = history.last().copied();
            let repeated = if run >= 2 { last } else { None };
            let lower = if cd > 0 { Colour::Black } else { Colour::White };
            // "FIDE Dutch 2025 1.7": absolute (|CD| > 1 or two alike), strong (|CD| = 1),
            // mild (alternate from the last game), none before any game.
            let preference = if cd.abs() > 1 {
                Some(lower)
            } else if run >= 2 {
                last.map(Colour::opposite)
            } else if cd != 0 {
                Some(lower)
            } else {
                last.map(Colour::opposite)
            };
            let absolute = cd.abs() > 1 || repeated.is_some();
            let floats = [1u32, 2].map(|back| {
                if played_rounds < back {
                    return Float::None;
                }
                let r = played_rounds + 1 - back;
                match opponent(p.id, r) {
                    // "FIDE Dutch 2025 1.4.3": scoring more than a loss without playing.
                    None => {
                        if gained(p.id, r) > loss {
                            Float::Down
                        } else {
                            Float::None
                        }
                    }
                    Some(o) => {
                        let (a, b) = (score_at(p.id, r), score_at(o, r));
                        match a.cmp(&b) {
                            std::cmp::Ordering::Greater => Float::Down,
                            std::cmp::Ordering::Less => Float::Up,
                            std::cmp::Ordering::Equal => Float::None,
                        }
                    }
                }
            });
            // "C.04.1 d (2025)": no pairing-allocated bye after scoring a win's points
            // without playing (an earlier bye, a forfeit win, a full-point bye).
            let bye_eligible =
                (1..round).all(|r| opponent(p.id, r).is_some() || gained(p.id, r) < win);
            let score = score_at(p.id, round);
            DutchPlayer {
                id: p.id,
                score,
                number: numbers.get(&p.id).copied().unwrap_or(p.number()),
                colour_difference: cd,
                preference,
                absolute,
                strong: !absolute && cd != 0,
                repeated,
                history,
                floats,
                bye_eligible,
                played_games: s.games_played() as u32,
                topscorer: last_round && score > top_threshold,
                barred: s.barred(),
            }
        })
        .collect();
    out.sort_by(|a, b| b.score.cmp(&a.score).then(a.number.cmp(&b.number)));
    out
}
