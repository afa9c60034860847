//! Auditing a pairing made elsewhere: every rule it breaks (from the independent verifier),
//! then a tier-by-tier comparison with the proven optimum of the same round, and the boards
//! where the two differ. Rendered as text, JSON, or a self-contained HTML report.
//!
//! The pairing under audit is the round recorded in the tournament file, or one read from a
//! pairings file (format below). Legality is the verifier's verdict ([`crate::verify`]); a
//! pair the round specification leaves out (a hard rule), or a hard row the pairing cannot
//! meet, also counts as breaking a rule. The comparison scores the given pairs on the round
//! specification's tiers (the same sums as the certificate's, see `score`) against the
//! certified optimum. Nothing here knows a pairing system: the system is a
//! [`SystemKind`](crate::SystemKind), so every system with a round specification and a rule
//! set works unchanged.
//!
//! # Pairings file
//!
//! Plain text, one entry a line; blank lines and `#` comments (also after an entry) skipped:
//!
//! ```text
//! # round 3
//! 12 5        # board order: white (or first player) then black (second), by pairing number
//! 7 31
//! bye 19      # the pairing-allocated bye
//! ```
//!
//! Requested byes and absences stay as the tournament file records them for the round.
//!
//! # Layout
//!
//! * `given.rs`: the pairing under audit (the recorded round, or a pairings file);
//! * `model.rs`: the audit itself ([`Audit`], its verdict, tiers and differences,
//!   and the sentences for the arbiter);
//! * renderers, each reading an [`Audit`] and nothing else of the model: [`text`](fn@text),
//!   [`json`](fn@json), [`html`](fn@html) (through `maud`, which escapes every value).

mod given;
mod html;
mod json;
mod model;
mod text;
mod words;

pub use given::{parse_pairings, recorded, with_round, Given};
pub use html::html;
pub use json::json;
pub use model::{audit, Audit, Board, Differences, TierRow, Verdict};
pub use text::text;
