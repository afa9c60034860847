//! optipair: provably optimal tournament pairings.
//!
//! Data flows one way: [`formats`] → [`tournament`] → [`systems`], which state a round as a
//! [`spec::RoundPlan`] (an exact procedure, a tier program [`spec::RoundSpec`], the legal
//! fallback, in the order to try them) → [`solve`] (an integer program on HiGHS, exact
//! matchings, the fallback, a certificate) → [`verify`] (an independent check of the rules)
//! → [`formats`].
//!
//! [`spec`] and [`algo`] are the contract between the two middle floors: `systems` produce
//! plans and state their weights and matching questions through them, `solve` consumes and
//! answers them, and neither imports the other (the small programs a system needs answered
//! while it states a round, NSC06's quad membership, reach it as [`spec::Programs`]; the
//! exact matchings the Dutch procedure asks for, as [`algo::Matcher`]). [`algo`] and
//! [`fixed`] import no floor above them. [`verify`] shares no code with systems or solve.
//! [`engine`] runs a round's plan through them all; [`kind::SystemKind`] names the systems
//! for all of them. [`audit`], [`simulate`], [`generate`] and [`report`] are built on
//! [`engine`] and the floors below.

// Every public item is documented; clippy -D warnings keeps it so.
#![warn(missing_docs)]

pub mod algo;
pub mod audit;
pub mod engine;
pub mod error;
pub mod explain;
pub mod fixed;
pub mod formats;
pub mod generate;
pub mod kind;
pub mod report;
pub mod simulate;
pub mod solve;
pub mod spec;
pub mod systems;
pub mod tournament;
pub mod verify;

pub use error::{Error, Result};
pub use kind::SystemKind;
