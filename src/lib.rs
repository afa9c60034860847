//! optipair: provably optimal tournament pairings.
//!
//! Data flows one way: [`formats`] → [`tournament`] → [`systems`], which state a round as a
//! [`spec::RoundSpec`] → [`solve`] (an integer program on HiGHS, a greedy fallback, a
//! certificate) → [`verify`] (an independent check of the rules) → [`formats`].
//!
//! [`spec`] is the contract between the two middle floors: `systems` produce it and `solve`
//! consumes it, and neither imports the other (the one small program a system needs answered
//! while it states a round, NSC06's quad membership, reaches it as [`spec::Programs`]).
//! [`verify`] shares no code with either. [`engine`] runs one round through them all;
//! [`kind::SystemKind`] names the systems for all of them. [`audit`], [`simulate`],
//! [`generate`] and [`report`] are built on [`engine`] and the floors below.

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
