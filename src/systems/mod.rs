//! Pairing systems: tournament state → [`RoundSpec`]. One module per system; a system never
//! calls the solver.

pub mod baku;
pub mod colour;
pub mod ecf;
pub mod nsc2006;
pub mod prog;
pub mod spec;
pub mod swiss;
pub mod tsh;
pub mod uscf;

pub use spec::{ByeOption, Candidate, Linear, RoundSpec, Tier, Var};

use crate::tournament::{show_points, Tournament};
use crate::SystemKind;
use crate::{Error, Result};

/// A pairing system.
pub trait System {
    /// Which system this is.
    fn kind(&self) -> SystemKind;
    /// The name used with `--system`.
    fn name(&self) -> &'static str {
        self.kind().name()
    }
    /// The integer program's specification for pairing round `round` of `t`, from the rounds
    /// before it.
    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec>;
    /// The same program with only some candidates listed and the rest priced in by the solver
    /// (see [`spec::PairSource`]), for systems that can describe their pairs lazily; `None`
    /// means the listed specification of [`System::spec`] is the one to solve.
    fn sparse_spec(&self, _t: &Tournament, _round: u32) -> Result<Option<spec::SparseSpec>> {
        Ok(None)
    }
    /// Whether games keep scores (Scrabble): standings by wins then spread, first/second in
    /// place of colours.
    fn game_scores(&self) -> bool {
        false
    }
    /// The last round whose results pairing round `round` reads: the round before it, unless
    /// the system pairs from lagged standings (tsh), so that `pair` can pair ahead while the
    /// latest results are still coming in.
    fn results_needed(&self, _t: &Tournament, round: u32) -> Result<u32> {
        Ok(round.saturating_sub(1))
    }
    /// The document whose groups, batches or virtual points are counted in 1-½-0 points, if
    /// the system's is; `None` when any scoring may be used (the Dutch system's score
    /// groups work in any units).
    fn one_half_zero(&self) -> Option<&'static str> {
        None
    }
}

/// Refuses an event whose scoring the system's document does not count in (a win 1, a draw
/// ½, a loss 0), naming the field: its groups and batches would be read in the wrong units.
pub fn check_scoring(sys: &dyn System, t: &Tournament) -> Result<()> {
    let Some(doc) = sys.one_half_zero() else {
        return Ok(());
    };
    let sc = &t.scoring;
    for (field, v, want) in [
        ("win", sc.win, 1.0),
        ("draw", sc.draw, 0.5),
        ("loss", sc.loss, 0.0),
    ] {
        if v != want {
            return Err(Error::field(
                &format!("scoring.{field}"),
                format!(
                    "{} counts a win as 1 point, a draw as ½ and a loss as 0 ({doc}); this event scores {}-{}-{}: use that scoring, or pair with swiss",
                    sys.name(),
                    show_points(sc.win),
                    show_points(sc.draw),
                    show_points(sc.loss)
                ),
            ));
        }
    }
    Ok(())
}

/// The model of system `kind`.
pub fn model(kind: SystemKind) -> Box<dyn System> {
    match kind {
        SystemKind::Swiss => Box::new(swiss::Swiss),
        SystemKind::EcfBasic => Box::new(ecf::Ecf { advanced: false }),
        SystemKind::EcfAdvanced => Box::new(ecf::Ecf { advanced: true }),
        SystemKind::Prog => Box::new(prog::Prog),
        SystemKind::UscfBatches => Box::new(uscf::Uscf::new(uscf::Method::Batches)),
        SystemKind::UscfThirds => Box::new(uscf::Uscf::new(uscf::Method::Thirds)),
        SystemKind::UscfAddedScore => Box::new(uscf::Uscf::new(uscf::Method::AddedScore)),
        SystemKind::Baku => Box::new(baku::Baku),
        SystemKind::Nsc2006 => Box::new(nsc2006::Nsc2006),
        SystemKind::TshCp => Box::new(tsh::TshCp),
    }
}
