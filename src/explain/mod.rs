//! Explaining a pairing to a player: where he stood, the rule that decided his opponent (or
//! bye), what each other opponent he could have had would have cost, and the rule that gave
//! his colour; and, for a change an arbiter proposes, whether swapping two players' opponents
//! is allowed and what it costs, criterion by criterion.
//!
//! The pairing explained is the one the engine makes for the round from the rounds before
//! it. Each alternative is the best pairing of the round in which the player meets that
//! opponent: the engine pairs the round with every other partner of the two barred (the
//! round's forbidden pairs, [`forced`]), and the verifier's Dutch criteria
//! ([`crate::verify::dutch::compare`]) say where it first loses against the pairing made. For
//! the systems not judged by the Dutch criteria, the certificates' tiers say it.
//!
//! Nothing here knows a command-line flag: `optipair explain` renders an [`Explanation`] or a
//! [`Swap`] as text, JSON or HTML.
//!
//! # Layout
//!
//! * `words.rs`: the criteria's values and comparisons in words (the sentences are
//!   [`crate::spec::words`], shared with the audit and the certificate);
//! * `colour.rs`: the colour rules of the systems not judged by the Dutch allocation;
//! * `model.rs`: the explanation of one player ([`explain`]);
//! * `swap.rs`: a proposed swap of two players' opponents ([`swap`]);
//! * `text.rs`, `html.rs`: renderers.

mod colour;
mod html;
mod model;
mod swap;
mod text;
pub mod words;

pub use html::{html, swap_html};
pub use model::{explain, forced, Alternative, Explanation, Outcome, Standing, Verdict, CLOSEST};
pub use swap::{swap, Swap, SwapRow};
pub use text::{swap_text, text};
