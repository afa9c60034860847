//! The order of boards as a pairing sheet posts them, for files that cannot store it (TRF
//! lists games by the start rank of their first player; a `.t` file by player line). Reading
//! such a file, and pairing a round to be stored in one, put each round's games in this order,
//! so that board (table) N of `sheet` and of `record` is the game posted on board N.
//!
//! Chess: the higher of the two players' pairing scores first (points before the round plus
//! the round's virtual points), then the lower, then the higher-ranked player's pairing number
//! — the order the reference Dutch engine publishes and optipair's own pairing prints.
//! Scrabble (games keep scores): the better-ranked of the two players first, ranks by wins,
//! then spread, then rating, then pairing number before the round — tsh's table order.

use super::{Standings, Tournament};
use std::collections::HashMap;

/// Puts every round's games in the posted order. Chess ranks by score alone, so one pass
/// over the history gives every round's scores (a standings rebuild per round cost a long
/// event's reader more than its pairing's verifier); Scrabble ranks by spread too.
pub fn post_order_all(t: &mut Tournament) {
    let rounds: Vec<u32> = t.rounds.iter().map(|r| r.number).collect();
    if t.scoring.game_scores {
        for r in rounds {
            post_order(t, r);
        }
        return;
    }
    let last = rounds.iter().copied().max().unwrap_or(0);
    let st = Standings::before(t, last + 1);
    for r in rounds {
        let score = |id: u32| {
            let before = st.get(id).and_then(|s| s.score_before.get(r as usize - 1));
            Some((before.copied().unwrap_or(0.0), 0, 0))
        };
        let rank = keys(t, r, &score);
        sort_round(t, r, &rank);
    }
}

/// Puts round `round`'s games in the posted order (see the module notes).
pub fn post_order(t: &mut Tournament, round: u32) {
    let rank = ranks(t, round);
    sort_round(t, round, &rank);
}

/// Sorts round `round`'s games by their players' rank keys.
fn sort_round(t: &mut Tournament, round: u32, rank: &dyn Fn(u32) -> Key) {
    let scrabble = t.scoring.game_scores;
    if let Some(rd) = t.rounds.iter_mut().find(|r| r.number == round) {
        rd.games.sort_by_key(|g| {
            let (a, b) = (rank(g.white), rank(g.black));
            let (hi, lo) = if a <= b { (a, b) } else { (b, a) };
            if scrabble {
                hi
            } else {
                (hi.0, lo.0, 0, hi.3)
            }
        });
    }
}

/// A player's rank key (smaller ranks higher).
type Key = (i64, i64, i64, u32);

/// Each player's rank before `round` as a key (smaller ranks higher): pairing score, then
/// (Scrabble) spread and rating, then pairing number.
fn ranks(t: &Tournament, round: u32) -> impl Fn(u32) -> Key {
    let st = Standings::before(t, round);
    keys(t, round, &|id| {
        st.get(id).map(|s| (s.score, s.spread, s.rating))
    })
}

/// Rank keys before `round` from each player's score, spread and rating then (`None`: no
/// standing, ranked last): pairing score (with the round's virtual points), then (Scrabble)
/// spread and rating, then pairing number.
fn keys(
    t: &Tournament,
    round: u32,
    standing: &dyn Fn(u32) -> Option<(f64, i64, u32)>,
) -> impl Fn(u32) -> Key {
    let scrabble = t.scoring.game_scores;
    let keys: HashMap<u32, Key> = (t.players.iter())
        .filter_map(|p| {
            let (score, spread, rating) = standing(p.id)?;
            let vp = p.virtual_points.get(round as usize - 1).copied();
            let points = -((score + vp.unwrap_or(0.0)) * 1000.0).round() as i64;
            let k = if scrabble {
                (points, -spread, -i64::from(rating), p.number())
            } else {
                (points, 0, 0, p.number())
            };
            Some((p.id, k))
        })
        .collect();
    move |id| keys.get(&id).copied().unwrap_or((0, 0, 0, u32::MAX))
}

/// Settings key holding tsh's `config tables` for a division: the table number (as tsh
/// prints it) of each board, board 1 first.
pub const TABLES_KEY: &str = "tsh.tables";

/// The posted number of board `i` (0-based): tsh's table number when `config tables` gives
/// one, else `i + 1`.
pub fn table_label(t: &Tournament, i: usize) -> String {
    t.settings
        .get(TABLES_KEY)
        .and_then(|v| v.as_array())
        .and_then(|a| a.get(i))
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
        .unwrap_or_else(|| (i + 1).to_string())
}

/// The 1-based board whose posted number is `label` (see [`table_label`]), if it is one of
/// the first `boards` boards.
pub fn board_of_table(t: &Tournament, label: &str, boards: usize) -> Option<usize> {
    let tables = t.settings.get(TABLES_KEY).and_then(|v| v.as_array());
    match tables {
        Some(_) => (0..boards)
            .find(|&i| table_label(t, i) == label)
            .map(|i| i + 1),
        None => label.parse().ok().filter(|&b| (1..=boards).contains(&b)),
    }
}

/// Whether the event posts tsh's table numbers (`config tables`) instead of 1, 2, ….
pub fn has_tables(t: &Tournament) -> bool {
    t.settings.get(TABLES_KEY).is_some_and(|v| v.is_array())
}
