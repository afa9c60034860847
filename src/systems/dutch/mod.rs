//! The FIDE Dutch system (C.04.3, rules in force from 1 July 2025, on C.04.1 and C.04.2),
//! exactly: brackets from the top, each bracket's quality criteria optimal in their order,
//! then the first candidate in the Dutch order of transpositions and exchanges.
//!
//! The rules live here (player state in [`state`], criteria and the bracket procedure in
//! [`procedure`]); the exact maximum-weight matchings they ask for come from the solver
//! through [`procedure::Matcher`], so this module never calls HiGHS or a matching algorithm
//! itself. `models/dutch.md` gives the formulation with the articles it encodes.

pub mod colour;
mod criteria;
mod graph;
pub mod procedure;
pub mod state;
pub mod weight;

#[cfg(test)]
mod tests;

pub use crate::algo::Matchers;
pub use procedure::{BracketLog, Matcher, Readings};

use crate::tournament::{Colour, Tournament};
use weight::Weight;

/// A round paired by the Dutch rules.
pub use crate::spec::ExactPairing as DutchPairing;

/// Most pairs a dense graph of the exact procedure may hold: the first matching's last step
/// (every allowed pair of the field) and a bracket that needs every pair of the players left
/// (`models/dutch.md`). The reduced graphs brackets are solved on hold each player's few
/// heaviest pairs and those pricing adds, and weigh the others when asked, so they stay far
/// below it. A dense graph holds each pair's weight, its place and the matcher's edge; 4.2
/// million of them stay within about 1 GB at the widest weights measured (EXPERIMENTS.md).
/// Over it, the round is paired by the tier model of `models/swiss.md`, and the notes say so.
pub const EXACT_PAIRS: usize = 4_200_000;

/// The players of round `round` in rank order, with their state before it.
fn players_of(t: &Tournament, round: u32) -> Vec<state::DutchPlayer> {
    let numbers = crate::systems::swiss::entered_numbers(
        t,
        round,
        &t.round(round)
            .map(|r| r.requested_byes().map(|b| b.player).collect::<Vec<_>>())
            .unwrap_or_default(),
    );
    state::field(t, round, &numbers)
}

/// The readings the engine uses by default (models/dutch.md says why).
pub const READINGS: Readings = Readings {
    bye_unplayed_games: true,
};

/// Pairs round `round` of `t` (the rounds before it are the history; virtual points of the
/// round, if any, are added to the scores), holding at most `pair_budget` pairs at once
/// ([`EXACT_PAIRS`] fits the memory of a director's machine).
pub fn pair(
    t: &Tournament,
    round: u32,
    readings: Readings,
    pair_budget: usize,
    should_cancel: &dyn Fn() -> bool,
    m: &mut dyn Matchers,
) -> DutchPairing {
    pair_tuned(
        t,
        round,
        readings,
        pair_budget,
        should_cancel,
        m,
        procedure::Tuning::PRODUCTION,
    )
}

/// [`pair`] with the procedure's tuning given (tests pass narrower windows than production).
fn pair_tuned(
    t: &Tournament,
    round: u32,
    readings: Readings,
    pair_budget: usize,
    should_cancel: &dyn Fn() -> bool,
    m: &mut dyn Matchers,
    tuning: procedure::Tuning,
) -> DutchPairing {
    let players = players_of(t, round);
    let ctx = procedure::Context {
        players: &players,
        should_cancel,
        last_round: t.rounds_planned == Some(round),
        played_rounds: round.saturating_sub(1),
        readings,
        pair_budget,
        tuning,
    };
    // The narrowest integer that holds every bracket's packed criteria: guessed from the
    // score groups, and widened when a bracket (with more moved-down scores) needs more.
    let mut bits = width_guess(&ctx).max(tuning.min_bits);
    let outcome = loop {
        let o = if bits <= <i128 as Weight>::SAFE_BITS {
            procedure::run::<i128>(&ctx, m)
        } else if bits <= <crate::fixed::F256 as Weight>::SAFE_BITS {
            procedure::run::<crate::fixed::F256>(&ctx, m)
        } else if bits <= <crate::fixed::F320 as Weight>::SAFE_BITS {
            procedure::run::<crate::fixed::F320>(&ctx, m)
        } else if bits <= <crate::fixed::F384 as Weight>::SAFE_BITS {
            procedure::run::<crate::fixed::F384>(&ctx, m)
        } else if bits <= <crate::fixed::F512 as Weight>::SAFE_BITS {
            procedure::run::<crate::fixed::F512>(&ctx, m)
        } else if bits <= <crate::fixed::F1024 as Weight>::SAFE_BITS {
            procedure::run::<crate::fixed::F1024>(&ctx, m)
        } else {
            procedure::run::<crate::fixed::F4096>(&ctx, m)
        };
        match o.needs_bits {
            Some(b) if b > bits && bits <= <crate::fixed::F1024 as Weight>::SAFE_BITS => bits = b,
            _ => break o,
        }
    };
    let initial = t.initial_colour.unwrap_or(Colour::White);
    let mut games: Vec<(usize, usize)> = outcome
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (hi, lo) = (a.min(b), a.max(b));
            match procedure::colour_of(&players[hi], &players[lo], true, initial) {
                Colour::White => (hi, lo),
                Colour::Black => (lo, hi),
            }
        })
        .collect();
    // Board order: the higher player's score, the lower player's score, the higher rank.
    games.sort_by_key(|&(w, b)| {
        let (hi, lo) = (w.min(b), w.max(b));
        (
            std::cmp::Reverse(players[hi].score),
            std::cmp::Reverse(players[lo].score),
            hi,
        )
    });
    DutchPairing {
        games: games
            .into_iter()
            .map(|(w, b)| (players[w].id, players[b].id))
            .collect(),
        bye: outcome.bye.map(|i| players[i].id),
        unpaired: outcome.unpaired.iter().map(|&i| players[i].id).collect(),
        brackets: outcome.brackets.clone(),
        weight_bits: outcome.weight_bits,
        players: players.len(),
        cancelled: outcome.cancelled,
        over_budget: outcome.over_budget,
    }
}

/// The exact procedure for a system's round plan: round `round` of `field` (the pairing
/// scores, virtual points added) paired with the [`READINGS`]; `basis` and `notes` are the
/// system's.
pub fn exact_procedure<'a>(
    field: Tournament,
    round: u32,
    basis: String,
    notes: Vec<String>,
) -> crate::spec::ExactProcedure<'a> {
    crate::spec::ExactProcedure {
        basis,
        notes,
        run: Box::new(move |budget, cancel, m| pair(&field, round, READINGS, budget, cancel, m)),
    }
}

/// Bits the widest bracket is likely to need: each score group as a bracket with the next
/// as its look-ahead, plus room for two moved-down scores.
fn width_guess(ctx: &procedure::Context) -> u32 {
    let players = ctx.players;
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if players[g[0]].score == p.score => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let n = players.len() as u64;
    let mut most = weight::bits_for(3 * n) + 2 * weight::bits_for(2 * n * groups.len() as u64);
    for (k, g) in groups.iter().enumerate() {
        let curnext: Vec<usize> = g
            .iter()
            .chain(groups.get(k + 1).into_iter().flatten())
            .copied()
            .collect();
        most = most.max(criteria::layout_bits(ctx, g, &curnext));
    }
    most + 6 * 2 * 2
}
