//! The audit of one round: the verifier's findings, the given pairing scored tier by tier
//! against the certified optimum, the boards where the two differ, and the verdict with its
//! sentences for the arbiter. Renderers read [`Audit`]; nothing here formats a report.

use super::given::{with_round, Given};
use crate::engine;
use crate::solve::{self, Options, Selection, Status};
use crate::spec::{Linear, RoundSpec, Var};
use crate::systems;
use crate::tournament::Tournament;
use crate::verify::{self, Violation};
use crate::{Result, SystemKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// One board of a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Board {
    /// Board number, 1-based.
    pub board: usize,
    /// White (in Scrabble, the first player), by id.
    pub white: u32,
    /// Black (in Scrabble, the second player), by id.
    pub black: u32,
}

impl Board {
    fn key(&self) -> (u32, u32) {
        (self.white.min(self.black), self.white.max(self.black))
    }
}

/// One tier of the comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TierRow {
    /// The system's name for the tier.
    pub name: String,
    /// Its rule, cited.
    pub rule: String,
    /// The rule cited once with what it counts ([`crate::spec::words::rule_words`]).
    pub words: String,
    /// The pairing under audit's value on this tier (lower is better).
    pub yours: i64,
    /// The optimum's value on this tier.
    pub optimum: i64,
    /// The optimum's value on this tier is proved optimal (given the tiers above).
    pub proved: bool,
}

/// The audit's conclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// No rule broken and every tier equals the proven optimum.
    Optimal,
    /// No rule broken, but worse than the optimum on some tier.
    NotOptimal,
    /// No rule broken and no worse than the best pairing found, but the solver did not prove
    /// that one optimal (time limit or fallback): optimality not shown.
    Unproved,
    /// Breaks a rule (the verifier's findings, or a pair or row the round's hard rules
    /// exclude).
    BreaksRule,
}

/// Where the pairing under audit and the optimum differ.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Differences {
    /// Your boards whose pair the optimum does not have.
    pub only_yours: Vec<Board>,
    /// The optimum's boards whose pair yours does not have.
    pub only_optimum: Vec<Board>,
    /// Same pair in both, colours (first/second) the other way round: (yours, optimum).
    pub colours_reversed: Vec<(Board, Board)>,
    /// Players with the pairing-allocated bye in yours only, by id.
    pub byes_only_yours: Vec<u32>,
    /// Players with the pairing-allocated bye in the optimum only, by id.
    pub byes_only_optimum: Vec<u32>,
}

impl Differences {
    /// Whether the two pairings are the same, colours included.
    pub fn is_empty(&self) -> bool {
        self.only_yours.is_empty()
            && self.only_optimum.is_empty()
            && self.colours_reversed.is_empty()
            && self.byes_only_yours.is_empty()
            && self.byes_only_optimum.is_empty()
    }
}

/// The full audit of one round.
#[derive(Debug, Clone, Serialize)]
pub struct Audit {
    /// The system the round is judged under.
    pub system: SystemKind,
    /// The round audited, 1-based.
    pub round: u32,
    /// The conclusion.
    pub verdict: Verdict,
    /// Sentences for the arbiter, most important first.
    pub summary: Vec<String>,
    /// The pairing under audit, board by board.
    pub yours: Vec<Board>,
    /// Its pairing-allocated byes, by id.
    pub your_byes: Vec<u32>,
    /// What the independent verifier finds in your pairing.
    pub violations: Vec<Violation>,
    /// Pairs (and byes) of yours that the round's hard rules exclude from every legal pairing,
    /// as the pairing model encodes them; and hard rows your pairing breaks.
    pub excluded: Vec<String>,
    /// Tier by tier, in priority order (`None` when an excluded pair makes the pairing
    /// impossible to score).
    pub tiers: Option<Vec<TierRow>>,
    /// Index into `tiers` of the highest-priority tier where the two differ.
    pub first_difference: Option<usize>,
    /// Your boards whose colours differ from the allocation the system's rules give that pair
    /// (the tier values count the rules' allocation; the verifier judges yours).
    pub colours_not_allocated: Vec<Board>,
    /// The optimum, board by board.
    pub optimum: Vec<Board>,
    /// The optimum's pairing-allocated byes, by id.
    pub optimum_byes: Vec<u32>,
    /// Players the optimum leaves without a game or bye, by id.
    pub optimum_unpaired: Vec<u32>,
    /// The optimum's certificate: status and what was proved.
    pub optimum_status: Status,
    /// The certificate's one sentence on what was proved, or why not.
    pub optimum_summary: String,
    /// The verifier's findings on the optimum itself (empty unless model and verifier
    /// disagree).
    pub optimum_violations: Vec<Violation>,
    /// Where yours and the optimum differ.
    pub differences: Differences,
    /// The system's notes on the round (warnings about the field, rules applied).
    pub notes: Vec<String>,
    /// For the rounds judged by the FIDE Dutch rules: where the pairing first parts from
    /// the Dutch pairing, bracket by bracket, as the independent verifier compares them
    /// ("identical" when it is the Dutch pairing).
    pub dutch: Option<String>,
    /// Whether the round is judged by the FIDE Dutch rules ([`crate::systems::System::dutch_round`]).
    pub dutch_round: bool,
    /// Whether the pairing compared with is the Dutch pairing itself, found by the exact
    /// procedure; when not (a round over its budget or time), `dutch` compares with the legal
    /// pairing found instead, for information: it proves nothing either way.
    pub dutch_exact: bool,
}

fn boards(games: &[(u32, u32)]) -> Vec<Board> {
    games
        .iter()
        .enumerate()
        .map(|(i, &(white, black))| Board {
            board: i + 1,
            white,
            black,
        })
        .collect()
}

/// Audits `given` as round `round` of `t` under `system`, against the optimum solved with
/// `opts` from the rounds before it.
pub fn audit(
    t: &Tournament,
    round: u32,
    system: SystemKind,
    given: &Given,
    opts: &Options,
) -> Result<Audit> {
    let sys = systems::model(system, &solve::PROGRAMS);
    let after = with_round(t, round, given);
    let violations = verify::check_round(&after, round, system)?;
    let base = t.before_round(round);
    let spec = sys.spec(&base, round)?;
    let best = engine::pair_round(t, round, system, opts)?;
    let cert = &best.pairing.certificate;

    let yours = boards(&given.games);
    let optimum = boards(&best.pairing.games);
    // Compared with the forfeits' colours taken from the optimum: they are not judged.
    let judged = unjudged_forfeits(t, round, given, &best.pairing.games);
    let aligned = boards(&judged);

    let scored = score(&spec, &aligned, &given.byes, opts);
    let excluded = scored.excluded;
    let colours_not_allocated = scored.colours;
    let (tiers, first_difference) = match scored.values {
        Some(values) => {
            let rows: Vec<TierRow> = cert
                .tiers
                .iter()
                .zip(&values)
                .map(|(tv, &y)| TierRow {
                    words: crate::spec::words::rule_words(&tv.name, &tv.rule),
                    name: tv.name.clone(),
                    rule: tv.rule.clone(),
                    yours: y,
                    optimum: tv.value,
                    proved: tv.proved,
                })
                .collect();
            let first = rows.iter().position(|r| r.yours != r.optimum);
            (Some(rows), first)
        }
        None => (None, None),
    };

    let differences = diff(&aligned, &given.byes, &optimum, &best.pairing.byes);
    // The Dutch system is deterministic: a pairing is optimal exactly when it is the Dutch
    // pairing; otherwise the first bracket and criterion (or step of the Dutch order) on
    // which it loses is what the arbiter needs. The tier model does not apply. When the exact
    // procedure did not pair the round (over its budget or time; the engine's notes say
    // which), there is no Dutch pairing to judge by: a legal pairing is unproved either way,
    // compared for information with the legal pairing found instead.
    let dutch_round = sys.dutch_round(&base, round)?;
    let dutch = if dutch_round && best.is_clean() {
        let field = engine::accelerated(&base, round, system)?;
        let mine = verify::dutch::Pairing {
            games: judged.clone(),
            bye: given.byes.first().copied(),
        };
        let theirs = verify::dutch::Pairing {
            games: best.pairing.games.clone(),
            bye: best.pairing.byes.first().copied(),
        };
        let c = verify::dutch::compare(&field, round, &mine, &theirs);
        let second = if best.dutch {
            "the Dutch pairing"
        } else {
            "the pairing found"
        };
        let said =
            crate::explain::words::comparison(&field, round, &mine, &theirs, &c, "yours", second);
        Some((c, said))
    } else {
        None
    };
    let (tiers, first_difference) = if dutch_round {
        (None, None)
    } else {
        (tiers, first_difference)
    };
    let verdict = if !violations.is_empty() {
        Verdict::BreaksRule
    } else if dutch_round {
        match dutch.as_ref().map(|d| &d.0) {
            Some(verify::dutch::Comparison::Identical) if best.dutch => Verdict::Optimal,
            Some(_) if best.dutch => Verdict::NotOptimal,
            _ => Verdict::Unproved,
        }
    } else if !excluded.is_empty() {
        Verdict::BreaksRule
    } else {
        match (&tiers, first_difference) {
            (Some(rows), Some(i)) if rows[i].yours > rows[i].optimum => Verdict::NotOptimal,
            _ if cert.status == Status::Optimal => Verdict::Optimal,
            _ => Verdict::Unproved,
        }
    };

    let mut a = Audit {
        system,
        round,
        verdict,
        summary: Vec::new(),
        yours,
        your_byes: given.byes.clone(),
        violations,
        excluded,
        tiers,
        first_difference,
        colours_not_allocated,
        optimum,
        optimum_byes: best.pairing.byes.clone(),
        optimum_unpaired: best.pairing.unpaired.clone(),
        optimum_status: cert.status,
        optimum_summary: cert.summary.clone(),
        optimum_violations: best.violations.clone(),
        differences,
        notes: best.notes.clone(),
        dutch: dutch.map(|d| d.1),
        dutch_round,
        dutch_exact: best.dutch,
    };
    a.summary = summary(&a);
    Ok(a)
}

/// The given games with each one recorded as a forfeit in round `round` of `t`, and paired
/// by the optimum too, turned to the optimum's colours: a game not played has no colour to
/// judge (a TRF file often records none, `12 - -`).
fn unjudged_forfeits(
    t: &Tournament,
    round: u32,
    given: &Given,
    optimum: &[(u32, u32)],
) -> Vec<(u32, u32)> {
    let forfeit = |w: u32, b: u32| {
        t.round(round).is_some_and(|rd| {
            rd.games
                .iter()
                .any(|g| g.white == w && g.black == b && g.result.is_forfeit())
        })
    };
    given
        .games
        .iter()
        .map(|&(w, b)| {
            if forfeit(w, b) && optimum.contains(&(b, w)) {
                (b, w)
            } else {
                (w, b)
            }
        })
        .collect()
}

/// The given pairing on the round specification's terms.
struct Scoring {
    /// Tier values (tier 0 = players left unpaired), when every pair is allowed and the hard
    /// rows can be met.
    values: Option<Vec<i64>>,
    /// Pairs, byes and hard rows the specification rules out, for the arbiter.
    excluded: Vec<String>,
    /// Boards whose colours (first/second) differ from every variant the model allows.
    colours: Vec<Board>,
}

/// Scores the given pairing on `spec`'s tiers. A pair may appear in the specification more
/// than once (a system can offer one pair in several roles, e.g. tsh's leader variant, or with
/// either colour); then the pairing's value is the best over those variants that meets the
/// hard rows, found by solving the round restricted to the given pairs. Otherwise the value is
/// the plain sum ([`solve::Selection::tier_values`]).
fn score(spec: &RoundSpec, yours: &[Board], byes: &[u32], opts: &Options) -> Scoring {
    let index = |id: u32| spec.players.iter().position(|&p| p == id);
    let mut excluded = Vec::new();
    let mut colours = Vec::new();
    let mut keep: Vec<usize> = Vec::new();
    let mut simple = Selection::default();
    let mut ambiguous = false;
    let mut used = vec![false; spec.players.len()];
    for b in yours {
        let (Some(ia), Some(ib)) = (index(b.white), index(b.black)) else {
            excluded.push(format!(
                "{} v {}: not in the round's field (absent, withdrawn or with a requested bye)",
                b.white, b.black
            ));
            continue;
        };
        let all: Vec<usize> = (0..spec.candidates.len())
            .filter(|&c| {
                let k = &spec.candidates[c];
                (k.a == ia && k.b == ib) || (k.a == ib && k.b == ia)
            })
            .collect();
        if all.is_empty() {
            excluded.push(format!(
                "{} v {} is not an allowed pair in this round (excluded by the round's hard \
                 rules)",
                b.white, b.black
            ));
            continue;
        }
        let same: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&c| spec.candidates[c].white == ia)
            .collect();
        let pick = if same.is_empty() {
            colours.push(*b);
            all
        } else {
            same
        };
        ambiguous |= pick.len() > 1;
        simple.pairs.push(pick[0]);
        keep.extend(pick);
        used[ia] = true;
        used[ib] = true;
    }
    let mut bye_keep = Vec::new();
    for &p in byes {
        match index(p).and_then(|i| spec.byes.iter().position(|o| o.player == i)) {
            Some(o) => {
                bye_keep.push(o);
                simple.byes.push(spec.byes[o].player);
                used[spec.byes[o].player] = true;
            }
            None => excluded.push(format!(
                "player {p} may not take the pairing-allocated bye in this round (excluded by \
                 the round's hard rules)"
            )),
        }
    }
    if !excluded.is_empty() {
        return Scoring {
            values: None,
            excluded,
            colours,
        };
    }
    simple.unpaired = (0..spec.players.len()).filter(|&i| !used[i]).collect();
    let broken_rows = |sel: &Selection| -> Vec<String> {
        spec.rows
            .iter()
            .filter(|row| {
                let one = RoundSpec {
                    rows: vec![(*row).clone()],
                    ..spec.clone()
                };
                !sel.satisfies_rows(&one)
            })
            .map(|row| {
                format!(
                    "your pairing breaks a hard condition of the round — {}",
                    row.rule
                )
            })
            .collect()
    };
    if !ambiguous {
        let broken = broken_rows(&simple);
        return Scoring {
            values: broken.is_empty().then(|| simple.tier_values(spec)),
            excluded: broken,
            colours,
        };
    }
    // The round restricted to the given pairs (every variant) and byes.
    let remap: BTreeMap<usize, usize> = keep.iter().enumerate().map(|(n, &c)| (c, n)).collect();
    let restricted = RoundSpec {
        candidates: keep.iter().map(|&c| spec.candidates[c].clone()).collect(),
        byes: bye_keep.iter().map(|&o| spec.byes[o].clone()).collect(),
        odd_sets: Vec::new(),
        rows: spec
            .rows
            .iter()
            .map(|row| Linear {
                terms: row
                    .terms
                    .iter()
                    .filter_map(|&(v, k)| match v {
                        Var::Pair(c) => remap.get(&c).map(|&n| (Var::Pair(n), k)),
                        other => Some((other, k)),
                    })
                    .collect(),
                ..row.clone()
            })
            .collect(),
        ..spec.clone()
    };
    let best = solve::solve(&restricted, opts);
    let values: Vec<i64> = best.certificate.tiers.iter().map(|t| t.value).collect();
    if values.first().copied().unwrap_or(0) > simple.unpaired.len() as i64 {
        // No choice of variants pairs everyone as given: the hard rows rule the pairing out.
        let mut broken = broken_rows(&simple);
        if broken.is_empty() {
            broken.push("your pairing cannot meet the round's hard conditions".to_string());
        }
        return Scoring {
            values: None,
            excluded: broken,
            colours,
        };
    }
    Scoring {
        values: Some(values),
        excluded: Vec::new(),
        colours,
    }
}

fn diff(yours: &[Board], ybyes: &[u32], opt: &[Board], obyes: &[u32]) -> Differences {
    let mut d = Differences::default();
    for y in yours {
        match opt.iter().find(|o| o.key() == y.key()) {
            None => d.only_yours.push(*y),
            Some(o) if o.white != y.white => d.colours_reversed.push((*y, *o)),
            Some(_) => {}
        }
    }
    d.only_optimum = opt
        .iter()
        .filter(|o| !yours.iter().any(|y| y.key() == o.key()))
        .copied()
        .collect();
    d.byes_only_yours = ybyes
        .iter()
        .filter(|b| !obyes.contains(b))
        .copied()
        .collect();
    d.byes_only_optimum = obyes
        .iter()
        .filter(|b| !ybyes.contains(b))
        .copied()
        .collect();
    d
}

use crate::spec::words::count as plural;

/// Sentences for the arbiter: the verdict, then each tier that differs, in priority order,
/// e.g. "colour preferences not granted — yours: 3; optimum: 1; 2 more than necessary".
fn summary(a: &Audit) -> Vec<String> {
    let mut out = vec![verdict_sentence(a)];
    tier_sentences(a, &mut out);
    board_sentences(a, &mut out);
    out
}

/// The opening sentence: whether the pairing keeps the rules and is the one they prefer.
fn verdict_sentence(a: &Audit) -> String {
    if a.dutch_round && !a.dutch_exact {
        match (a.verdict, &a.dutch) {
            (Verdict::BreaksRule, _) => format!(
                "Round {}: the pairing breaks the rules of {}: {} of the independent verifier.",
                a.round,
                a.system,
                plural(a.violations.len() as i64, "finding", "findings"),
            ),
            (_, Some(d)) => format!(
                "Round {}: the pairing keeps every rule of {}. The exact Dutch procedure did not \
                 pair this round, so whether it is the FIDE Dutch 2025 pairing \
                 is not proved either way; compared with the legal pairing found instead, \
                 bracket by bracket from the top: {d}.",
                a.round, a.system
            ),
            (_, None) => format!(
                "Round {}: the pairing keeps every rule of {}. The exact Dutch procedure did not \
                 pair this round, so whether it is the FIDE Dutch 2025 pairing \
                 is not proved either way.",
                a.round, a.system
            ),
        }
    } else if let Some(d) = &a.dutch {
        match a.verdict {
            Verdict::Optimal => format!(
                "Round {}: the pairing keeps every rule of {} and is the FIDE Dutch 2025 pairing: \
                 each bracket's criteria at their proven optimum, the first candidate in the \
                 Dutch order.",
                a.round, a.system
            ),
            Verdict::BreaksRule => format!(
                "Round {}: the pairing breaks the rules of {}: {} of the independent verifier.",
                a.round,
                a.system,
                plural(a.violations.len() as i64, "finding", "findings"),
            ),
            _ => format!(
                "Round {}: the pairing keeps every rule of {} but is not the FIDE Dutch 2025 \
                 pairing. Compared with it, bracket by bracket from the top: {d}.",
                a.round, a.system
            ),
        }
    } else {
        match a.verdict {
            Verdict::Optimal => format!(
            "Round {}: the pairing keeps every rule of {} and is optimal: every criterion is at \
             its proven optimum.",
            a.round, a.system
        ),
            Verdict::NotOptimal => format!(
                "Round {}: the pairing keeps every rule of {} but is not optimal.",
                a.round, a.system
            ),
            Verdict::Unproved => format!(
            "Round {}: the pairing keeps every rule of {} and is no worse than the best pairing \
             found, but the solver did not prove that pairing optimal ({}).",
            a.round, a.system, a.optimum_summary
        ),
            Verdict::BreaksRule if !a.violations.is_empty() => format!(
                "Round {}: the pairing breaks the rules of {}: {} of the independent verifier.",
                a.round,
                a.system,
                plural(a.violations.len() as i64, "finding", "findings"),
            ),
            Verdict::BreaksRule => format!(
                "Round {}: the pairing uses {} that the round's hard rules exclude in the pairing \
             model of {}, though the verifier finds no rule broken (model and verifier \
             disagree; treated as breaking a rule).",
                a.round,
                plural(a.excluded.len() as i64, "pair or bye", "pairs or byes"),
                a.system
            ),
        }
    }
}

/// One sentence per criterion where the pairing and the optimum differ.
fn tier_sentences(a: &Audit, out: &mut Vec<String>) {
    if let Some(rows) = &a.tiers {
        for (i, r) in rows.iter().enumerate() {
            if r.yours == r.optimum {
                continue;
            }
            let d = r.yours - r.optimum;
            let tail = if d > 0 {
                format!("{d} more than necessary")
            } else if Some(i) == a.first_difference {
                // Only possible when the solver's pairing was not proved optimal.
                format!("{} fewer than the solver's pairing", -d)
            } else {
                format!("{} fewer, but only at the cost of a criterion above", -d)
            };
            let lead = if Some(i) == a.first_difference {
                " (the highest-priority difference: it decides)"
            } else {
                ""
            };
            out.push(format!(
                "{}: yours {}; optimum {}; {tail}{lead}",
                r.words, r.yours, r.optimum
            ));
        }
        if a.first_difference.is_none() {
            out.push(if a.optimum_status == Status::Optimal {
                "Every criterion equals the optimum.".to_string()
            } else {
                "Every criterion equals the best pairing found.".to_string()
            });
        }
    } else if !a.dutch_round {
        out.push(
            "The criteria cannot be compared: the pairing uses a pair the round's hard rules \
             exclude."
                .to_string(),
        );
    }
}

/// How the boards differ from the optimum's, and the cautions.
fn board_sentences(a: &Audit, out: &mut Vec<String>) {
    let d = &a.differences;
    let n = d.only_yours.len() + d.colours_reversed.len() + d.byes_only_yours.len();
    if d.is_empty() {
        out.push("Your boards are the optimum's boards.".to_string());
    } else if a.verdict == Verdict::Optimal {
        out.push(format!(
            "{} of yours {} from the solver's optimum, which is no better on any criterion: \
             yours is an equally good alternative.",
            plural(n as i64, "board", "boards"),
            if n == 1 { "differs" } else { "differ" }
        ));
    } else {
        out.push(format!(
            "{} of yours {} from the optimum ({} with another pair, {} with the colours \
             reversed{}).",
            plural(n as i64, "board", "boards"),
            if n == 1 { "differs" } else { "differ" },
            d.only_yours.len(),
            d.colours_reversed.len(),
            if d.byes_only_yours.is_empty() && d.byes_only_optimum.is_empty() {
                String::new()
            } else {
                ", and the bye goes elsewhere".to_string()
            }
        ));
    }
    if !a.colours_not_allocated.is_empty() {
        out.push(format!(
            "{} colours other than the rules allocate to that pair; the criteria count the \
             rules' allocation, and the verifier judges yours.",
            plural(
                a.colours_not_allocated.len() as i64,
                "board gives",
                "boards give"
            )
        ));
    }
    if !a.optimum_violations.is_empty() {
        out.push(format!(
            "Caution: the verifier also objects to the optimum ({}): the pairing model and the \
             rule checks disagree on this round.",
            plural(a.optimum_violations.len() as i64, "finding", "findings")
        ));
    }
}
