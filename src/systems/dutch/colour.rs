//! Colour allocation for a pair ("FIDE Dutch 2025 E.1"–"FIDE Dutch 2025 E.5").

use super::state::DutchPlayer;
use crate::tournament::Colour;

/// The colour of `a` against `b` ("FIDE Dutch 2025 E.1"–"FIDE Dutch 2025 E.5"); `a_higher`
/// says which ranks higher; `initial` is the colour drawn for the first board.
pub fn colour_of(a: &DutchPlayer, b: &DutchPlayer, a_higher: bool, initial: Colour) -> Colour {
    if let Some(c) = neutral_colour(a, b) {
        return c;
    }
    let (hi, lo_is_a) = if a_higher { (a, false) } else { (b, true) };
    // "FIDE Dutch 2025 E.4"/"E.5": the higher ranked player's preference, or by his number.
    let hi_colour = match hi.preference {
        Some(p) if a.preference.is_some() => p,
        _ => {
            if hi.number % 2 == 1 {
                initial
            } else {
                initial.opposite()
            }
        }
    };
    if lo_is_a {
        hi_colour.opposite()
    } else {
        hi_colour
    }
}

/// The colour rules that do not depend on rank (E.1–E.4), if they decide.
fn neutral_colour(a: &DutchPlayer, b: &DutchPlayer) -> Option<Colour> {
    let compatible =
        a.preference != b.preference || a.preference.is_none() || b.preference.is_none();
    if compatible {
        return match (a.preference, b.preference) {
            (Some(p), _) => Some(p),
            (None, Some(q)) => Some(q.opposite()),
            (None, None) => None,
        };
    }
    let (ad, bd) = (a.colour_difference.abs(), b.colour_difference.abs());
    if a.absolute && (ad > bd || !b.absolute) {
        return a.preference;
    }
    if b.absolute && (bd > ad || !a.absolute) {
        return b.preference.map(Colour::opposite);
    }
    if a.strong && !b.strong {
        return a.preference;
    }
    if b.strong && !a.strong {
        return b.preference.map(Colour::opposite);
    }
    // "FIDE Dutch 2025 E.4": alternate from the latest round in which they differed.
    let (mut i, mut j) = (a.history.len(), b.history.len());
    while i > 0 && j > 0 {
        i -= 1;
        j -= 1;
        if a.history[i] != b.history[j] {
            return Some(b.history[j]);
        }
    }
    None
}
