//! Whole simulated events, many runs per pairing system, and the statistics that help choose a
//! system: how often an event ends with two or more perfect scores, how far apart in rating the
//! players of each round's games are, repeats, colour (first/second) balance, solve time.
//!
//! # Result models
//!
//! The models of [`crate::generate`], chosen per system by [`crate::systems::System::game_scores`]:
//!
//! * **Chess (`elo`)**: ratings from a normal law (mean 1800, sd 300, clipped to 1000–2800);
//!   white's expected score E = 1 / (1 + 10^((Rb − Ra − 35)/400)); P(draw) =
//!   draw_rate · 2·min(E, 1 − E); P(white wins) = E − P(draw)/2.
//! * **Scrabble (`scrabble`)**, for systems whose games keep scores: ratings from a normal law
//!   (mean 1300, sd 400, clipped to 400–2200); each player's game score is normal with mean
//!   250 + rating/10 (+10 for moving first) and sd 60, rounded, at least 100; the higher score
//!   wins, equal scores tie; a pairing-allocated bye is a win with spread +50.
//!
//! # Determinism and parallelism
//!
//! Run `i` of a simulation uses the seed [`run_seed`]`(seed, i)` for every system: the same
//! field of players (drawn first) for each system of the same result model (chess and Scrabble
//! ratings follow different laws), so systems are compared on the same fields;
//! results then follow each system's own pairings. Runs are spread over threads
//! (`std::thread::scope`, a shared job counter) and merged in (run, system) order, so every
//! statistic except the seconds is the same whatever the thread count.
//!
//! # Layout
//!
//! * `model.rs`: the simulation ([`Config`], [`run`], one [`event`]) and its
//!   statistics ([`Summary`], [`Report`], [`merge`] of parts);
//! * renderers, each reading a [`Report`] and nothing else of the model: [`text`](fn@text),
//!   [`json`](fn@json), [`svg`](fn@svg).

mod json;
mod model;
mod svg;
mod text;

pub use json::json;
pub use model::*;
pub use svg::svg;
pub use text::text;
