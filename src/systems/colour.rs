//! Colour preferences and allocation for chess systems (FIDE Dutch C.04.3 A.6 and E.1–E.5).

use crate::tournament::{Colour, Standing};

/// Strength of a colour preference (FIDE Dutch A.6), weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No preference: no game played yet.
    None,
    /// Colour difference 0, not absolute: alternate from the last game.
    Mild,
    /// Colour difference ±1, not absolute.
    Strong,
    /// Colour difference beyond ±1, or the same colour in the last two games.
    Absolute,
}

/// A player's colour preference before the round (A.6), as [`preference`] computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preference {
    /// The colour the player should get; `None` before any game.
    pub colour: Option<Colour>,
    /// How strongly the player should get it.
    pub strength: Strength,
    /// Whites minus blacks over games played.
    pub difference: i32,
}

/// A.6: absolute when the colour difference is beyond ±1 or the last two games had the same
/// colour; strong at ±1; mild at 0 (alternate from the last game); none before any game.
pub fn preference(s: &Standing) -> Preference {
    let played = s.played_colours();
    let cd = s.colour_difference();
    let last_two_same = played.len() >= 2 && played[played.len() - 1] == played[played.len() - 2];
    let (colour, strength) = if played.is_empty() {
        (None, Strength::None)
    } else if cd < -1 {
        (Some(Colour::White), Strength::Absolute)
    } else if cd > 1 {
        (Some(Colour::Black), Strength::Absolute)
    } else if last_two_same {
        (
            Some(played[played.len() - 1].opposite()),
            Strength::Absolute,
        )
    } else if cd == -1 {
        (Some(Colour::White), Strength::Strong)
    } else if cd == 1 {
        (Some(Colour::Black), Strength::Strong)
    } else {
        (Some(played[played.len() - 1].opposite()), Strength::Mild)
    };
    Preference {
        colour,
        strength,
        difference: cd,
    }
}

/// Colour of the higher-ranked player `a` against `b` by E.1–E.5. `a_number` is `a`'s pairing
/// number as E.5 counts it; `initial` is the colour drawn for odd pairing numbers.
pub fn allocate(a: &Standing, b: &Standing, a_number: u32, initial: Colour) -> Colour {
    let (ha, hb) = (a.played_colours(), b.played_colours());
    allocate_from(&preference(a), &preference(b), &ha, &hb, a_number, initial)
}

/// [`allocate`] from the players' preferences and played colours (oldest first), computed
/// once per player when many pairs are costed.
pub fn allocate_from(
    pa: &Preference,
    pb: &Preference,
    ha: &[Colour],
    hb: &[Colour],
    a_number: u32,
    initial: Colour,
) -> Colour {
    match (pa.colour, pb.colour) {
        // E.1: both preferences granted when they differ (or one has none).
        (Some(ca), Some(cb)) if ca != cb => return ca,
        (Some(ca), None) => return ca,
        (None, Some(cb)) => return cb.opposite(),
        (Some(ca), Some(_)) => {
            // E.2: the stronger preference; both absolute: the wider colour difference.
            if pa.strength != pb.strength {
                return if pa.strength > pb.strength {
                    ca
                } else {
                    ca.opposite()
                };
            }
            if pa.strength == Strength::Absolute && pa.difference.abs() != pb.difference.abs() {
                return if pa.difference.abs() > pb.difference.abs() {
                    ca
                } else {
                    ca.opposite()
                };
            }
            // E.3: alternate to the most recent time their colours differed, comparing played
            // games from the last backwards (C.04.2: unplayed rounds are dropped, WB-WB ~ -WBWB).
            for (x, y) in ha.iter().rev().zip(hb.iter().rev()) {
                if x != y {
                    return x.opposite();
                }
            }
            // E.4: the higher-ranked player's preference.
            return ca;
        }
        (None, None) => {}
    }
    // E.5: by the higher-ranked player's pairing number.
    if a_number % 2 == 1 {
        initial
    } else {
        initial.opposite()
    }
}

/// Whether giving `c` to a player breaks FIDE C.04.1 f/g: colour difference beyond ±2, or the
/// same colour three times running.
pub fn breaks_colour_limits(s: &Standing, c: Colour) -> bool {
    breaks_limits_from(&s.played_colours(), c)
}

/// [`breaks_colour_limits`] from the played colours (oldest first).
pub fn breaks_limits_from(played: &[Colour], c: Colour) -> bool {
    let cd = played.iter().map(|c| c.sign()).sum::<i32>() + c.sign();
    let n = played.len();
    let three = n >= 2 && played[n - 1] == c && played[n - 2] == c;
    cd.abs() > 2 || three
}
