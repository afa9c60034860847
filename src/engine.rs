//! One round end to end: system → solve → the round as domain data → independent verification.

use crate::solve::{self, Options, Pairing};
use crate::systems;
use crate::tournament::{Bye, ByeKind, Game, GameResult, Round, Tournament};
use crate::verify::{self, Violation};
use crate::{Error, Result};

/// A paired round with its certificate and the verifier's findings.
#[derive(Debug, Clone)]
pub struct Paired {
    pub system: String,
    pub round: Round,
    pub pairing: Pairing,
    /// Director's notes from the system (warnings about the field, rules applied).
    pub notes: Vec<String>,
    /// What the independent verifier found (empty when the pairing keeps every rule).
    pub violations: Vec<Violation>,
}

/// Pairs round `round` of `t` under `system` from the rounds before it. Later rounds, and any
/// pairing already recorded for `round`, are ignored.
pub fn pair_round(t: &Tournament, round: u32, system: &str, opts: &Options) -> Result<Paired> {
    if round == 0 {
        return Err(Error::field("--round", "rounds are numbered from 1"));
    }
    if let Some(planned) = t.rounds_planned {
        if round > planned {
            return Err(Error::field(
                "--round",
                format!("round {round} is past the {planned} rounds planned"),
            ));
        }
    }
    let sys = systems::by_name(system)?;
    let base = t.before_round(round);
    let spec = sys.spec(&base, round)?;
    let pairing = solve::solve(&spec, opts);
    let mut rd = base.round(round).cloned().unwrap_or(Round {
        number: round,
        ..Round::default()
    });
    rd.games = pairing
        .games
        .iter()
        .map(|&(white, black)| Game {
            white,
            black,
            result: GameResult::Pending,
        })
        .collect();
    rd.byes.extend(pairing.byes.iter().map(|&player| Bye {
        player,
        kind: ByeKind::PairingAllocated,
    }));
    let mut after = base;
    *after.round_mut(round) = rd.clone();
    let violations = verify::check_round(&after, round, system)?;
    Ok(Paired {
        system: system.to_string(),
        round: rd,
        pairing,
        notes: spec.notes,
        violations,
    })
}

/// `t` with round `paired.round` stored (replacing any pairing recorded for it).
pub fn store(t: &Tournament, paired: &Paired) -> Tournament {
    let mut out = t.clone();
    *out.round_mut(paired.round.number) = paired.round.clone();
    out
}
