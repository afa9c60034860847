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
    let divisions = t.divisions();
    if divisions.len() > 1 {
        let names: Vec<&str> = divisions
            .iter()
            .map(|d| d.as_deref().unwrap_or("(none)"))
            .collect();
        return Err(Error::field(
            "--division",
            format!(
                "the event has divisions {}: each is paired on its own (choose one)",
                names.join(", ")
            ),
        ));
    }
    let sys = systems::by_name(system)?;
    let base = t.before_round(round);
    // Large fields come as a sparse specification when the system can price its pairs lazily.
    let (spec, pairing) = match sys.sparse_spec(&base, round)? {
        Some(sparse) if !opts.full_candidates => {
            let pairing = solve::solve_sparse(&sparse, opts);
            (sparse.spec, pairing)
        }
        _ => {
            let spec = sys.spec(&base, round)?;
            let pairing = solve::solve(&spec, opts);
            (spec, pairing)
        }
    };
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
            ..Default::default()
        })
        .collect();
    rd.byes.extend(pairing.byes.iter().map(|&player| Bye {
        player,
        kind: ByeKind::PairingAllocated,
        ..Default::default()
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

/// `t` with round `paired.round` stored: every game and bye of that round involving a player
/// of the paired round's division is replaced (other divisions' pairings are kept).
pub fn store(t: &Tournament, paired: &Paired) -> Tournament {
    let mut out = t.clone();
    let ids: std::collections::HashSet<u32> = paired
        .round
        .games
        .iter()
        .flat_map(|g| [g.white, g.black])
        .chain(paired.round.byes.iter().map(|b| b.player))
        .chain(paired.pairing.unpaired.iter().copied())
        .collect();
    let division = |id: u32| t.player(id).map(|p| p.division.clone());
    let divs: std::collections::HashSet<Option<String>> =
        ids.iter().filter_map(|&id| division(id)).collect();
    let number = paired.round.number;
    let rd = out.round_mut(number);
    rd.games.retain(|g| {
        !divs.contains(&division(g.white).flatten()) && !divs.contains(&division(g.black).flatten())
    });
    rd.byes
        .retain(|b| !divs.contains(&division(b.player).flatten()));
    rd.games.extend(paired.round.games.iter().cloned());
    rd.byes.extend(paired.round.byes.iter().cloned());
    out
}
