//! Fixtures shared by the test files: hand-made games, rounds and byes, and pairing through
//! the engine with the verifier's verdict checked.
#![allow(dead_code)] // each test file uses its own subset

pub mod browser;
pub mod cli;

use optipair::engine::{pair_round, Paired};
use optipair::solve::Options;
use optipair::tournament::{Bye, ByeKind, Game, GameResult, Round, Tournament};
use std::collections::BTreeSet;

/// A game from its result notation (`1-0`, `1/2`, `0-1`, `+-` …).
pub fn g(white: u32, black: u32, result: &str) -> Game {
    Game {
        white,
        black,
        result: GameResult::parse(result).expect("result notation"),
        ..Default::default()
    }
}

/// A pairing-allocated bye.
pub fn pab(player: u32) -> Bye {
    Bye {
        player,
        kind: ByeKind::PairingAllocated,
        ..Default::default()
    }
}

/// Stores round `number` (replacing any round of that number).
pub fn add(t: &mut Tournament, number: u32, games: Vec<Game>, byes: Vec<Bye>) {
    t.rounds.retain(|r| r.number != number);
    t.rounds.push(Round {
        number,
        games,
        byes,
    });
    t.rounds.sort_by_key(|r| r.number);
}

/// Stores round `number` with pairing-allocated byes for `byes`.
pub fn add_pab(t: &mut Tournament, number: u32, games: Vec<Game>, byes: Vec<u32>) {
    add(t, number, games, byes.into_iter().map(pab).collect());
}

/// Pairs round `r` under `system`, asserting the verifier finds nothing.
pub fn pair(t: &Tournament, r: u32, system: &str) -> Paired {
    let kind = system.parse().expect("a system name");
    let p = pair_round(t, r, kind, &Options::default()).expect("pairing");
    assert!(
        p.violations.is_empty(),
        "{system} round {r}: verifier: {:?}\ngames {:?}",
        p.violations,
        p.round.games
    );
    p
}

/// The round's pairs, each as (lower id, higher id).
pub fn pairs(p: &Paired) -> BTreeSet<(u32, u32)> {
    p.round
        .games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect()
}

/// A round specification is well formed and every candidate's cost in each tier is within
/// that tier's bound (as the system states them together).
pub fn costs_within_bounds(what: &str, s: &optipair::spec::RoundSpec, bounds: &[i64]) {
    s.validate().unwrap();
    assert_eq!(bounds.len(), s.tiers.len(), "{what}");
    for c in &s.candidates {
        for (k, (&cost, &bound)) in c.costs.iter().zip(bounds).enumerate() {
            assert!(
                cost <= bound,
                "{what}: {} v {} costs {cost} above the bound {bound} on {:?}",
                c.a,
                c.b,
                s.tiers[k].name
            );
        }
    }
}
