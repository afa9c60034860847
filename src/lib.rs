//! optipair: provably optimal tournament pairings.
//!
//! Data flows one way: [`formats`] → [`tournament`] → [`systems`] (a round specification) →
//! [`solve`] (an integer program on HiGHS, a greedy fallback, a certificate) → [`verify`]
//! (an independent check of the rules) → [`formats`].

pub mod audit;
pub mod engine;
pub mod error;
pub mod formats;
pub mod fuzzing;
pub mod generate;
pub mod kind;
pub mod report;
pub mod simulate;
pub mod solve;
pub mod systems;
pub mod tournament;
pub mod verify;

pub use error::{Error, Result};
pub use kind::SystemKind;
