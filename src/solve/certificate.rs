//! The certificate that goes with every pairing: what was solved, what was proved.

use crate::spec::RoundSpec;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// HiGHS proved every tier optimal.
    Optimal,
    /// HiGHS found a pairing but did not prove every tier optimal.
    Feasible,
    /// The greedy procedural pass paired the round (solver failed or ran out of time).
    Fallback,
    /// The independent verifier found a rule this pairing breaks: it is not stored and not
    /// called optimal, whatever the solver proved about its model.
    Rejected,
}

#[derive(Debug, Clone, Serialize)]
pub struct TierValue {
    pub name: String,
    pub rule: String,
    /// The pairing's exact value on this tier.
    pub value: i64,
    /// The best value any pairing can have on this tier given the tiers above (the dual bound),
    /// when known.
    pub bound: Option<f64>,
    /// Proved optimal given the tiers above.
    pub proved: bool,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct ModelSize {
    pub players: usize,
    /// Every pair of players, allowed or not.
    pub all_pairs: u64,
    /// Pairs the rules allow (one binary each).
    pub candidates: usize,
    pub columns: usize,
    pub rows: usize,
    pub nonzeros: usize,
    /// Odd-set rows added.
    pub odd_set_rows: usize,
    /// HiGHS solves run (one per group of tiers).
    pub solves: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Certificate {
    pub status: Status,
    pub tiers: Vec<TierValue>,
    /// Relative gap of the last solve (0 when proved).
    pub gap: f64,
    pub model: ModelSize,
    pub seconds: f64,
    /// One sentence on what was proved, or why not.
    pub summary: String,
}

impl Certificate {
    pub fn fallback(spec: &RoundSpec, values: &[i64], why: String) -> Certificate {
        Certificate {
            status: Status::Fallback,
            tiers: tier_values(spec, values, None),
            gap: f64::NAN,
            model: ModelSize {
                players: spec.players.len(),
                all_pairs: spec.all_pairs(),
                candidates: spec.candidates.len(),
                ..ModelSize::default()
            },
            seconds: 0.0,
            summary: format!("greedy fallback, optimality not proved ({why})"),
        }
    }
}

/// Tier names with values, bounds and proof flags; tier 0 is "players left unpaired".
pub fn tier_values(
    spec: &RoundSpec,
    values: &[i64],
    proof: Option<&[(Option<f64>, bool)]>,
) -> Vec<TierValue> {
    let mut names = vec![(
        "players left unpaired".to_string(),
        "maximise the number of pairs".to_string(),
    )];
    names.extend(spec.tiers.iter().map(|t| (t.name.clone(), t.rule.clone())));
    names
        .into_iter()
        .zip(values)
        .enumerate()
        .map(|(i, ((name, rule), &value))| {
            let (bound, proved) = proof.map(|p| p[i]).unwrap_or((None, false));
            TierValue {
                name,
                rule,
                value,
                bound,
                proved,
            }
        })
        .collect()
}
