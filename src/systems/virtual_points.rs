//! What the accelerations by virtual points share — PROG's fictitious score ([`super::prog`]),
//! FIDE Baku's virtual points ([`super::baku`]) and US Chess's added score ([`super::uscf`]):
//! the standard Swiss paired on points plus virtual points, and the 1-½-0 premise. Each of
//! the three imports this module and none imports another; [`super::with_virtual_points`]
//! writes their points back for TRF `XXA` lines.

use super::swiss::{standard_spec, Field, SwissTier};
use crate::spec::RoundSpec;
use crate::tournament::Tournament;
use crate::{Error, Result};
use std::collections::BTreeMap;

/// The document's points (1 a win, ½ a draw): the FS thresholds and the accelerations are
/// stated in them.
pub fn require_chess_points(t: &Tournament, clause: &str) -> Result<()> {
    let s = &t.scoring;
    // Exact: the readers hold 1 and ½ exactly.
    if s.win != 1.0 || s.draw != 0.5 {
        return Err(Error::field(
            "scoring",
            format!(
                "{clause} is stated for 1 point a win and ½ a draw; this event scores {} and {}",
                s.win, s.draw
            ),
        ));
    }
    Ok(())
}

/// A standard-Swiss specification paired on `score + vp[id]`, with `rule` cited on the float
/// tier (the pairing score is where these accelerations act).
pub fn virtual_spec(
    t: &Tournament,
    round: u32,
    system: &str,
    vp: &BTreeMap<u32, f64>,
    rule: &str,
) -> Result<RoundSpec> {
    let field = Field::new(t, round, &|p, s| {
        s.score + vp.get(&p.id).copied().unwrap_or(0.0)
    })?;
    let mut spec = standard_spec(t, &field, system);
    for tier in [SwissTier::ByeGroup, SwissTier::Float] {
        let t = spec.tier_mut(tier.name());
        t.rule = format!("{rule}; {}", t.rule);
    }
    Ok(spec)
}
