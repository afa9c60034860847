//! The pairing under audit: the round recorded in the tournament, or one read from a pairings
//! file (format in the module docs of [`super`]), and the tournament with it in place.

use crate::tournament::{Bye, ByeKind, Game, GameResult, Tournament};
use crate::{Error, Result};
use std::collections::BTreeMap;

/// A pairing to audit: games as (white, black) in board order, and pairing-allocated byes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given {
    /// Games as (white, black), by id, in board order.
    pub games: Vec<(u32, u32)>,
    /// Players given the pairing-allocated bye, by id.
    pub byes: Vec<u32>,
}

/// The pairing recorded for round `round` of `t`.
pub fn recorded(t: &Tournament, round: u32) -> Result<Given> {
    match t.round(round) {
        Some(rd) if rd.is_paired() => Ok(Given {
            games: rd.games.iter().map(|g| (g.white, g.black)).collect(),
            byes: rd
                .byes
                .iter()
                .filter(|b| b.kind == ByeKind::PairingAllocated)
                .map(|b| b.player)
                .collect(),
        }),
        _ => Err(Error::field(
            "round",
            format!("round {round} has no pairing recorded; give one in a pairings file"),
        )),
    }
}

/// Parses a pairings file (format in the module docs) for round `round` of `t`. Every id must
/// be a player of `t`, nobody may appear twice, and nobody with a requested bye or absence in
/// the round may be paired. Errors name the line and field (the caller adds the file).
pub fn parse_pairings(text: &str, t: &Tournament, round: u32) -> Result<Given> {
    let absent: Vec<u32> = t
        .round(round)
        .map(|r| r.requested_byes().map(|b| b.player).collect())
        .unwrap_or_default();
    let mut out = Given::default();
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let words: Vec<&str> = body.split_whitespace().collect();
        // Pairing numbers, as the sheets and the TRF export show them (tsh's `b3` in an event
        // of several divisions); ids stay internal.
        let id = |word: &str, field: &str| -> Result<u32> {
            let digits = word.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(Error::at(
                    line,
                    field,
                    format!("'{word}' is not a pairing number (a whole number from 1)"),
                ));
            }
            let Some(id) = t.id_of_number(word) else {
                return Err(Error::at(
                    line,
                    field,
                    format!("no player has pairing number {word} in the tournament"),
                ));
            };
            if absent.contains(&id) {
                return Err(Error::at(
                    line,
                    field,
                    format!(
                        "player {word} has a requested bye or absence recorded for round \
                         {round} and cannot be paired"
                    ),
                ));
            }
            Ok(id)
        };
        let mut note = |id: u32, field: &str| -> Result<()> {
            if let Some(prev) = seen.insert(id, line) {
                return Err(Error::at(
                    line,
                    field,
                    format!(
                        "player {} is already paired on line {prev}",
                        t.shown_number(id)
                    ),
                ));
            }
            Ok(())
        };
        match words.as_slice() {
            [kw, p] if kw.eq_ignore_ascii_case("bye") => {
                let p = id(p, "bye")?;
                note(p, "bye")?;
                out.byes.push(p);
            }
            [w, b] => {
                let (w, b) = (id(w, "white")?, id(b, "black")?);
                if w == b {
                    return Err(Error::at(
                        line,
                        "black",
                        format!("player {} cannot play himself", t.shown_number(w)),
                    ));
                }
                note(w, "white")?;
                note(b, "black")?;
                out.games.push((w, b));
            }
            _ => {
                return Err(Error::at(
                    line,
                    "entry",
                    format!("expected 'WHITE BLACK' or 'bye PLAYER', found '{body}'"),
                ))
            }
        }
    }
    if out.games.is_empty() && out.byes.is_empty() {
        return Err(Error::field(
            "entry",
            "no games and no bye: nothing to audit",
        ));
    }
    Ok(out)
}

/// `t` with round `round` replaced by `given` (requested byes kept; results of a recorded
/// round kept where the same game is given).
pub fn with_round(t: &Tournament, round: u32, given: &Given) -> Tournament {
    let old: Vec<Game> = t.round(round).map(|r| r.games.clone()).unwrap_or_default();
    let mut out = t.before_round(round);
    let rd = out.round_mut(round);
    rd.games = given
        .games
        .iter()
        .map(|&(w, b)| {
            old.iter()
                .find(|g| g.white == w && g.black == b)
                .cloned()
                .unwrap_or_else(|| Game::new(w, b, GameResult::Pending))
        })
        .collect();
    rd.byes.extend(given.byes.iter().map(|&player| Bye {
        player,
        kind: ByeKind::PairingAllocated,
        ..Bye::default()
    }));
    out
}
