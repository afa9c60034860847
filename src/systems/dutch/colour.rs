//! Colour allocation for a pair ("FIDE Dutch 2025 E.1"–"FIDE Dutch 2025 E.5"): the chess
//! systems' one allocator ([`crate::systems::colour::allocate_from`]), fed the Dutch state's
//! preferences.

use super::state::DutchPlayer;
use crate::systems::colour::{allocate_from, Preference, Strength};
use crate::tournament::Colour;

/// The colour of `a` against `b` ("FIDE Dutch 2025 E.1"–"FIDE Dutch 2025 E.5"); `a_higher`
/// says which ranks higher; `initial` is the colour drawn for the first board.
pub fn colour_of(a: &DutchPlayer, b: &DutchPlayer, a_higher: bool, initial: Colour) -> Colour {
    let (hi, lo) = if a_higher { (a, b) } else { (b, a) };
    let c = allocate_from(
        &preference(hi),
        &preference(lo),
        &hi.history,
        &lo.history,
        hi.number,
        initial,
    );
    if a_higher {
        c
    } else {
        c.opposite()
    }
}

/// The player's preference and its strength ("FIDE Dutch 2025 1.7").
fn preference(p: &DutchPlayer) -> Preference {
    let strength = match p.preference {
        None => Strength::None,
        Some(_) if p.absolute => Strength::Absolute,
        Some(_) if p.strong => Strength::Strong,
        Some(_) => Strength::Mild,
    };
    Preference {
        colour: p.preference,
        strength,
        difference: p.colour_difference,
    }
}
