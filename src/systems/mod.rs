//! Pairing systems: tournament state → [`RoundSpec`]. One module per system; a system never
//! calls the solver.

pub mod colour;
pub mod ecf;
pub mod spec;
pub mod swiss;

pub use spec::{ByeOption, Candidate, Linear, RoundSpec, Tier, Var};

use crate::tournament::Tournament;
use crate::{Error, Result};

/// A pairing system.
pub trait System {
    /// The name used with `--system`.
    fn name(&self) -> &'static str;
    /// The integer program's specification for pairing round `round` of `t`, from the rounds
    /// before it.
    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec>;
    /// Whether games keep scores (Scrabble): standings by wins then spread, first/second in
    /// place of colours.
    fn game_scores(&self) -> bool {
        false
    }
}

/// Names accepted by `--system`.
pub const NAMES: &[&str] = &["swiss", "ecf-basic", "ecf-advanced"];

/// The system called `name`.
pub fn by_name(name: &str) -> Result<Box<dyn System>> {
    match name {
        "swiss" => Ok(Box::new(swiss::Swiss)),
        "ecf-basic" => Ok(Box::new(ecf::Ecf { advanced: false })),
        "ecf-advanced" => Ok(Box::new(ecf::Ecf { advanced: true })),
        other => Err(Error::field(
            "--system",
            format!("unknown system '{other}'; known: {}", NAMES.join(", ")),
        )),
    }
}
