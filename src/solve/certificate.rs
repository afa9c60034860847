//! The certificate that goes with every pairing: what was solved, what was proved, and, for
//! the tier program, what the solver did ([`SolverStats`], from which the summary is written).

use super::error::Fallback;
use crate::spec::words::{self, count};
use crate::spec::{Bracket, ExactPairing, RoundSpec};
use serde::Serialize;

/// How far a pairing is proved: the certificate's headline.
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
    /// The solver's pairing (proved optimal or not: its tiers say) that the independent
    /// verifier could not check whole within the time limit: not called optimal. It breaks no
    /// rule the verifier did check; the notes name what it left unchecked.
    Unverified,
}

/// One tier of the certificate: serialised with its line in words (`words`, [`TierValue::line`]).
#[derive(Debug, Clone)]
pub struct TierValue {
    /// The system's name for the tier.
    pub name: String,
    /// The rule it encodes, cited.
    pub rule: String,
    /// The pairing's exact value on this tier.
    pub value: i64,
    /// The best value any pairing can have on this tier given the tiers above (the dual bound),
    /// when known.
    pub bound: Option<f64>,
    /// Proved optimal given the tiers above.
    pub proved: bool,
}

/// The size of what was solved for the round: players and pairs, and for a tier program its largest
/// integer program.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ModelSize {
    /// Players put up for pairing.
    pub players: usize,
    /// Every pair of players, allowed or not.
    pub all_pairs: u64,
    /// Pairs the rules allow (one binary each).
    pub candidates: usize,
    /// Columns of the largest program: pair columns, bye and unpaired variables.
    pub columns: usize,
    /// Rows of the largest program.
    pub rows: usize,
    /// Nonzeros of the largest program's matrix.
    pub nonzeros: usize,
    /// Odd-set rows added.
    pub odd_set_rows: usize,
    /// HiGHS solves run (one per group of tiers).
    pub solves: usize,
}

/// What was proved about one round's pairing; serialised with [`Certificate::criteria`] as
/// `criteria`.
#[derive(Debug, Clone)]
pub struct Certificate {
    /// How far the pairing is proved.
    pub status: Status,
    /// Each tier's value, bound and proof, most important first (for the exact Dutch procedure, one
    /// per bracket).
    pub tiers: Vec<TierValue>,
    /// Relative gap of the last solve (0 when proved).
    pub gap: f64,
    /// The size of the program solved.
    pub model: ModelSize,
    /// Wall-clock seconds the solve took.
    pub seconds: f64,
    /// One sentence on what was proved, or why not.
    pub summary: String,
    /// Why the legal fallback paired the round (status `fallback`), in the summary's words.
    pub fallback: Option<Fallback>,
    /// What the exact solve of the tier program did (absent for other ways of pairing).
    pub solver: Option<SolverStats>,
    /// For an exact procedure: what each bracket did, as data (its tiers are these lines in
    /// words).
    pub brackets: Vec<Bracket>,
}

/// What the exact solve of a tier program did, as counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SolverStats {
    /// Groups of tiers solved in turn, and those closed (proved optimal).
    pub tier_groups: usize,
    /// Groups of tiers closed (proved optimal).
    pub groups_closed: usize,
    /// Candidate pairs the specification lists.
    pub listed: usize,
    /// With a pair source: pairs taken from it (priced in by LP duals, or in an incumbent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_source: Option<usize>,
    /// Pair columns in the final programs.
    pub final_columns: usize,
    /// LP solves followed by pairs priced in.
    pub pricing_rounds: usize,
    /// Parity-set rows from the start, and odd-set cuts separated later.
    pub odd_set_rows: usize,
    /// Odd-set cuts separated after the start.
    pub odd_set_cuts: usize,
    /// Incumbents improved by partner exchanges before a group's first LP.
    pub exchanged: usize,
    /// Groups closed without a MIP: by a pairing on the LP optimum's face, at zero cost, by
    /// an exact weighted matching.
    pub closed_on_lp_face: usize,
    /// Groups closed at zero cost.
    pub closed_at_zero_cost: usize,
    /// Groups closed by an exact weighted matching.
    pub closed_by_matching: usize,
    /// Pairs ruled out of every later program by reduced cost.
    pub pairs_fixed_by_reduced_cost: usize,
    /// Simplex iterations over all HiGHS solves.
    pub simplex_iterations: u64,
}

impl SolverStats {
    /// The certificate's one-line summary of a solve with these counts.
    pub fn summary(&self, status: Status, model: &ModelSize, gap: f64) -> String {
        match (status, self.from_source) {
            (Status::Optimal, Some(from_source)) => format!(
                "optimal over all {} pairs ({} candidates: {} listed, {} from the pair source (priced in by LP duals, or in an incumbent pairing); {} in the final programs, {} pricing rounds, {} odd-set rows + {} odd-set cuts, {} incumbents improved by partner exchange, {} closed on the LP face, {} at zero cost, {} by weighted matching (sparse blossom, proved by its duals, pairs left out priced by LP duals), {} HiGHS solves)",
                model.all_pairs,
                model.candidates,
                self.listed,
                from_source,
                self.final_columns,
                self.pricing_rounds,
                self.odd_set_rows,
                self.odd_set_cuts,
                self.exchanged,
                self.closed_on_lp_face,
                self.closed_at_zero_cost,
                self.closed_by_matching,
                model.solves,
            ),
            (Status::Optimal, None) => format!(
                "optimal over all {} pairs ({} allowed by the rules; {} in the final programs, {} pricing round{}, {} odd-set rows + {} odd-set cuts, {} closed on the LP face, {} at zero cost, {} by weighted matching (sparse blossom, proved by its duals, pairs left out priced by LP duals), {} HiGHS solves)",
                model.all_pairs,
                model.candidates,
                self.final_columns,
                self.pricing_rounds,
                if self.pricing_rounds == 1 { "" } else { "s" },
                self.odd_set_rows,
                self.odd_set_cuts,
                self.closed_on_lp_face,
                self.closed_at_zero_cost,
                self.closed_by_matching,
                model.solves,
            ),
            _ => format!(
                "feasible, not proved optimal: stopped after {} of {} tier groups (gap {:.2e})",
                self.groups_closed, self.tier_groups, gap
            ),
        }
    }
}

/// The rule the exact Dutch procedure's bracket lines cite (`src/engine.rs`): each bracket's
/// quality criteria proved optimal.
const DUTCH_BRACKETS: &str = "FIDE Dutch 2025 C.5–C.21";

impl TierValue {
    /// The tier in words, its rule cited once: `FIDE Dutch 2025 C.12 — players who do not get
    /// the colour they are due, as few as possible: 2, proved optimal`; a bracket of the Dutch
    /// procedure as `bracket 1 (score 2): 3 pairs, 0 down — FIDE Dutch 2025 C.5–C.21 …`.
    pub fn line(&self) -> String {
        if self.rule.starts_with(DUTCH_BRACKETS) {
            return format!("{} — {}", self.name, self.rule);
        }
        format!(
            "{}: {}, {}",
            words::rule_words(&self.name, &self.rule),
            self.value,
            if self.proved {
                "proved optimal"
            } else {
                "optimality not proved"
            }
        )
    }
}

impl Serialize for TierValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut m = s.serialize_struct("TierValue", 6)?;
        m.serialize_field("name", &self.name)?;
        m.serialize_field("rule", &self.rule)?;
        m.serialize_field("value", &self.value)?;
        m.serialize_field("bound", &self.bound)?;
        m.serialize_field("proved", &self.proved)?;
        m.serialize_field("words", &self.line())?;
        m.end()
    }
}

/// The certificate as serialised: its fields and the criteria in words.
#[derive(Serialize)]
struct Shown<'a> {
    status: Status,
    tiers: &'a [TierValue],
    gap: f64,
    model: &'a ModelSize,
    seconds: f64,
    summary: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback: Option<&'a Fallback>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solver: Option<&'a SolverStats>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    criteria: Vec<String>,
}

impl Serialize for Certificate {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Shown {
            status: self.status,
            tiers: &self.tiers,
            gap: self.gap,
            model: &self.model,
            seconds: self.seconds,
            summary: &self.summary,
            fallback: self.fallback.as_ref(),
            solver: self.solver.as_ref(),
            criteria: self.criteria(),
        }
        .serialize(s)
    }
}

impl Certificate {
    /// What a pairing of the exact Dutch procedure proved, criterion by criterion in words:
    /// `FIDE Dutch 2025 C.6 — the number of players who float down …: proved optimal in each
    /// of the 3 brackets`. Empty for other certificates (their tiers say it, [`Self::lines`]).
    pub fn criteria(&self) -> Vec<String> {
        let dutch = !self.tiers.is_empty()
            && self
                .tiers
                .iter()
                .all(|t| t.rule.starts_with(DUTCH_BRACKETS));
        if !dutch || self.status != Status::Optimal {
            return Vec::new();
        }
        let n = self.tiers.len() as i64;
        let each = if n == 1 {
            "in its one bracket".to_string()
        } else {
            format!("in each of the {}", count(n, "bracket", "brackets"))
        };
        (5..=21)
            .map(|k| {
                let article = format!("FIDE Dutch 2025 C.{k}");
                format!("{}: proved optimal {each}", words::cited(&article))
            })
            .collect()
    }

    /// The certificate's lines in words, as the pairing sheet prints them: each tier
    /// ([`TierValue::line`]), then [`Self::criteria`].
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self.tiers.iter().map(TierValue::line).collect();
        out.extend(self.criteria());
        out
    }

    /// The certificate of a tier program's exact solve: each tier's value, bound and proof,
    /// and the summary written from what the solver did.
    pub fn tier_program(
        spec: &RoundSpec,
        values: &[i64],
        proof: &[(Option<f64>, bool)],
        status: Status,
        gap: f64,
        model: ModelSize,
        stats: SolverStats,
    ) -> Certificate {
        Certificate {
            status,
            tiers: tier_values(spec, values, Some(proof)),
            gap,
            summary: stats.summary(status, &model, gap),
            model,
            seconds: 0.0,
            fallback: None,
            solver: Some(stats),
            brackets: Vec::new(),
        }
    }

    /// The certificate of the legal fallback's pairing: the tiers' values, nothing proved.
    pub fn fallback(spec: &RoundSpec, values: &[i64], why: Fallback) -> Certificate {
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
            fallback: Some(why),
            solver: None,
            brackets: Vec::new(),
        }
    }

    /// The certificate of a round an exact procedure paired bracket by bracket: one tier per
    /// bracket, what was proved there and how ("FIDE Dutch 2025 C.5"–"C.21" by exact
    /// matching, then the first candidate in the order of 4.2–4.3). `basis` opens the
    /// summary; `solves` and `edges` are the matchings solved and the most pairs a graph held.
    pub fn exact_procedure(d: &ExactPairing, basis: &str, solves: usize, edges: usize) -> Self {
        let n = d.brackets.len();
        Certificate {
            status: if d.unpaired.is_empty() {
                Status::Optimal
            } else {
                Status::Feasible
            },
            tiers: d.brackets.iter().enumerate().map(bracket_tier).collect(),
            gap: 0.0,
            model: ModelSize {
                players: d.players,
                all_pairs: (d.players as u64) * (d.players.saturating_sub(1) as u64) / 2,
                candidates: edges,
                solves,
                ..Default::default()
            },
            seconds: 0.0,
            summary: format!(
                "{basis}FIDE Dutch 2025: {n} bracket{}, each bracket's criteria C.5–C.21 optimal by exact weighted matching ({solves} matchings, weights of {} bits), then the first candidate in the Dutch order",
                if n == 1 { "" } else { "s" },
                d.weight_bits
            ),
            fallback: None,
            solver: None,
            brackets: d.brackets.clone(),
        }
    }
}

/// Bracket `k` (from 0) of an exact procedure as a certificate's tier.
fn bracket_tier((k, b): (usize, &Bracket)) -> TierValue {
    let moved = if b.moved_down > 0 {
        format!(", {} moved down", b.moved_down)
    } else {
        String::new()
    };
    let how = if b.dense {
        "every pair of the unpaired players"
    } else {
        "the bracket and the next, the players below completed to the bound"
    };
    TierValue {
        name: format!(
            "bracket {} (score {}{moved}): {} {}, {} down",
            k + 1,
            crate::tournament::show_points(b.score as f64 / 1000.0),
            b.pairs,
            if b.pairs == 1 { "pair" } else { "pairs" },
            b.floaters
        ),
        rule: format!(
            "FIDE Dutch 2025 C.5–C.21 optimal by exact matching ({} matchings, {how}), then the first candidate in the order of 4.2–4.3",
            b.matchings
        ),
        value: b.pairs as i64,
        bound: Some(b.pairs as f64),
        proved: true,
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
