//! Auditing a pairing made elsewhere: every rule it breaks (from the independent verifier),
//! then a tier-by-tier comparison with the proven optimum of the same round, and the boards
//! where the two differ. Rendered as text, JSON, or a self-contained HTML report.
//!
//! The pairing under audit is the round recorded in the tournament file, or one read from a
//! pairings file (format below). Legality is the verifier's verdict ([`crate::verify`]); a
//! pair the round specification leaves out (a hard rule), or a hard row the pairing cannot
//! meet, also counts as breaking a rule. The comparison scores the given pairs on the round
//! specification's tiers (the same sums as the certificate's, see `score`) against the
//! certified optimum. Nothing here knows a pairing system: the system is a [`SystemKind`], so every
//! system with a round specification and a rule set works unchanged.
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

use crate::engine;
use crate::solve::{self, Options, Selection, Status};
use crate::spec::{Linear, RoundSpec, Var};
use crate::systems;
use crate::tournament::{Bye, ByeKind, Game, GameResult, Standings, Tournament};
use crate::verify::{self, Violation};
use crate::{Error, Result, SystemKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// A pairing to audit: games as (white, black) in board order, and pairing-allocated byes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given {
    pub games: Vec<(u32, u32)>,
    pub byes: Vec<u32>,
}

/// The pairing recorded for round `round` of `t`.
pub fn recorded(t: &Tournament, round: u32) -> Result<Given> {
    match t.round(round) {
        Some(rd) if rd.is_paired() => Ok(Given {
            games: rd.games.iter().map(|g| (g.white, g.black)).collect(),
            byes: rd
                .byes
                .iter()
                .filter(|b| b.kind == ByeKind::PairingAllocated)
                .map(|b| b.player)
                .collect(),
        }),
        _ => Err(Error::field(
            "--round",
            format!("round {round} has no pairing recorded; give one with --pairing FILE"),
        )),
    }
}

/// Parses a pairings file (format in the module docs) for round `round` of `t`. Every id must
/// be a player of `t`, nobody may appear twice, and nobody with a requested bye or absence in
/// the round may be paired. Errors name the line and field (the caller adds the file).
pub fn parse_pairings(text: &str, t: &Tournament, round: u32) -> Result<Given> {
    let absent: Vec<u32> = t
        .round(round)
        .map(|r| r.requested_byes().map(|b| b.player).collect())
        .unwrap_or_default();
    let mut out = Given::default();
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let words: Vec<&str> = body.split_whitespace().collect();
        let id = |word: &str, field: &str| -> Result<u32> {
            let id: u32 = word.parse().map_err(|_| {
                Error::at(
                    line,
                    field,
                    format!("'{word}' is not a pairing number (a whole number from 1)"),
                )
            })?;
            if t.player(id).is_none() {
                return Err(Error::at(
                    line,
                    field,
                    format!("no player {id} in the tournament"),
                ));
            }
            if absent.contains(&id) {
                return Err(Error::at(
                    line,
                    field,
                    format!(
                        "player {id} has a requested bye or absence recorded for round {round} \
                         and cannot be paired"
                    ),
                ));
            }
            Ok(id)
        };
        let mut note = |id: u32, field: &str| -> Result<()> {
            if let Some(prev) = seen.insert(id, line) {
                return Err(Error::at(
                    line,
                    field,
                    format!("player {id} is already paired on line {prev}"),
                ));
            }
            Ok(())
        };
        match words.as_slice() {
            [kw, p] if kw.eq_ignore_ascii_case("bye") => {
                let p = id(p, "bye")?;
                note(p, "bye")?;
                out.byes.push(p);
            }
            [w, b] => {
                let (w, b) = (id(w, "white")?, id(b, "black")?);
                if w == b {
                    return Err(Error::at(
                        line,
                        "black",
                        format!("player {w} cannot play himself"),
                    ));
                }
                note(w, "white")?;
                note(b, "black")?;
                out.games.push((w, b));
            }
            _ => {
                return Err(Error::at(
                    line,
                    "entry",
                    format!("expected 'WHITE BLACK' or 'bye PLAYER', found '{body}'"),
                ))
            }
        }
    }
    if out.games.is_empty() && out.byes.is_empty() {
        return Err(Error::field(
            "entry",
            "no games and no bye: nothing to audit",
        ));
    }
    Ok(out)
}

/// `t` with round `round` replaced by `given` (requested byes kept; results of a recorded
/// round kept where the same game is given).
pub fn with_round(t: &Tournament, round: u32, given: &Given) -> Tournament {
    let old: Vec<Game> = t.round(round).map(|r| r.games.clone()).unwrap_or_default();
    let mut out = t.before_round(round);
    let rd = out.round_mut(round);
    rd.games = given
        .games
        .iter()
        .map(|&(w, b)| {
            old.iter()
                .find(|g| g.white == w && g.black == b)
                .cloned()
                .unwrap_or_else(|| Game::new(w, b, GameResult::Pending))
        })
        .collect();
    rd.byes.extend(given.byes.iter().map(|&player| Bye {
        player,
        kind: ByeKind::PairingAllocated,
        ..Bye::default()
    }));
    out
}

/// One board of a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Board {
    pub board: usize,
    pub white: u32,
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
    pub name: String,
    pub rule: String,
    pub yours: i64,
    pub optimum: i64,
    /// The optimum's value on this tier is proved optimal (given the tiers above).
    pub proved: bool,
}

/// The audit's conclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// No rule broken and every tier equals the proven optimum. Exit 0.
    Optimal,
    /// No rule broken, but worse than the optimum on some tier. Exit 1.
    NotOptimal,
    /// No rule broken and no worse than the best pairing found, but the solver did not prove
    /// that one optimal (time limit or fallback): optimality not shown. Exit 1.
    Unproved,
    /// Breaks a rule (the verifier's findings, or a pair or row the round's hard rules
    /// exclude). Exit 3.
    BreaksRule,
}

impl Verdict {
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Optimal => 0,
            Verdict::NotOptimal | Verdict::Unproved => 1,
            Verdict::BreaksRule => 3,
        }
    }
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
    pub byes_only_yours: Vec<u32>,
    pub byes_only_optimum: Vec<u32>,
}

impl Differences {
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
    pub system: SystemKind,
    pub round: u32,
    pub verdict: Verdict,
    /// Sentences for the arbiter, most important first.
    pub summary: Vec<String>,
    pub yours: Vec<Board>,
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
    pub optimum: Vec<Board>,
    pub optimum_byes: Vec<u32>,
    pub optimum_unpaired: Vec<u32>,
    /// The optimum's certificate: status and what was proved.
    pub optimum_status: Status,
    pub optimum_summary: String,
    /// The verifier's findings on the optimum itself (empty unless model and verifier
    /// disagree).
    pub optimum_violations: Vec<Violation>,
    pub differences: Differences,
    /// The system's notes on the round (warnings about the field, rules applied).
    pub notes: Vec<String>,
    /// For the systems paired by the FIDE Dutch procedure: where the pairing first parts from
    /// the Dutch pairing, bracket by bracket, as the independent verifier compares them
    /// ("identical" when it is the Dutch pairing).
    pub dutch: Option<String>,
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

    let scored = score(&spec, &yours, &given.byes, opts);
    let excluded = scored.excluded;
    let colours_not_allocated = scored.colours;
    let (tiers, first_difference) = match scored.values {
        Some(values) => {
            let rows: Vec<TierRow> = cert
                .tiers
                .iter()
                .zip(&values)
                .map(|(tv, &y)| TierRow {
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

    let differences = diff(&yours, &given.byes, &optimum, &best.pairing.byes);
    // The Dutch system is deterministic: a pairing is optimal exactly when it is the Dutch
    // pairing; otherwise the first bracket and criterion (or step of the Dutch order) on
    // which it loses is what the arbiter needs. The old tiers do not apply.
    let dutch = if engine::dutch_based(system) && cert.status == Status::Optimal {
        let field = engine::accelerated(&base, round, system)?;
        let mine = verify::dutch::Pairing {
            games: given.games.clone(),
            bye: given.byes.first().copied(),
        };
        let theirs = verify::dutch::Pairing {
            games: best.pairing.games.clone(),
            bye: best.pairing.byes.first().copied(),
        };
        Some(verify::dutch::compare(&field, round, &mine, &theirs))
    } else {
        None
    };
    let (tiers, first_difference) = if dutch.is_some() {
        (None, None)
    } else {
        (tiers, first_difference)
    };
    let verdict = if !violations.is_empty() || (dutch.is_none() && !excluded.is_empty()) {
        Verdict::BreaksRule
    } else if let Some(c) = &dutch {
        if *c == verify::dutch::Comparison::Identical {
            Verdict::Optimal
        } else {
            Verdict::NotOptimal
        }
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
        dutch: dutch.map(|c| c.to_string()),
    };
    a.summary = summary(&a);
    Ok(a)
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

fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n.abs() == 1 { one } else { many })
}

/// Sentences for the arbiter: the verdict, then each tier that differs, in priority order,
/// e.g. "colour preferences not granted — yours: 3; optimum: 1; 2 more than necessary".
fn summary(a: &Audit) -> Vec<String> {
    let mut out = Vec::new();
    out.push(if let Some(d) = &a.dutch {
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
                 pairing. Compared with it, bracket by bracket from the top: {d} (the second \
                 pairing is the Dutch one).",
                a.round, a.system
            ),
        }
    } else {
        match a.verdict {
            Verdict::Optimal => format!(
            "Round {}: the pairing keeps every rule of {} and is optimal: every tier equals the \
             proven optimum.",
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
    });
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
                format!("{} fewer, but only at the cost of a tier above", -d)
            };
            let lead = if Some(i) == a.first_difference {
                " (the highest-priority difference: it decides)"
            } else {
                ""
            };
            out.push(format!(
                "{} — yours: {}; optimum: {}; {tail}{lead} [{}]",
                r.name, r.yours, r.optimum, r.rule
            ));
        }
        if a.first_difference.is_none() {
            out.push(if a.optimum_status == Status::Optimal {
                "Every tier equals the optimum.".to_string()
            } else {
                "Every tier equals the best pairing found.".to_string()
            });
        }
    } else if a.dutch.is_none() {
        out.push(
            "The tiers cannot be compared: the pairing uses a pair the round's hard rules \
             exclude."
                .to_string(),
        );
    }
    let d = &a.differences;
    let n = d.only_yours.len() + d.colours_reversed.len() + d.byes_only_yours.len();
    if d.is_empty() {
        out.push("Your boards are the optimum's boards.".to_string());
    } else if a.verdict == Verdict::Optimal {
        out.push(format!(
            "{} of yours differ from the solver's optimum, which is no better on any tier: \
             yours is an equally good alternative.",
            plural(n as i64, "board", "boards")
        ));
    } else {
        out.push(format!(
            "{} of yours differ from the optimum ({} with another pair, {} with the colours \
             reversed{}).",
            plural(n as i64, "board", "boards"),
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
            "{} colours other than the rules allocate to that pair; the tier values count the \
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
    out
}

fn name(t: &Tournament, id: u32) -> String {
    t.player(id)
        .map(|p| format!("{} ({id})", p.name))
        .unwrap_or_else(|| id.to_string())
}

/// The audit as text: summary, findings, tier table, your sheet with differing boards marked,
/// the differing boards of the optimum.
pub fn text(a: &Audit, t: &Tournament) -> String {
    use std::fmt::Write;
    let st = Standings::before(t, a.round);
    let score = |id: u32| st.get(id).map(|s| s.score).unwrap_or(0.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Audit of round {} under {}: {}",
        a.round,
        a.system,
        verdict_words(a.verdict)
    );
    for line in &a.summary {
        let _ = writeln!(s, "  {line}");
    }
    let _ = writeln!(s);
    if a.violations.is_empty() {
        let _ = writeln!(s, "Rule violations: none (independent verifier).");
    } else {
        let _ = writeln!(
            s,
            "Rule violations ({}, independent verifier):",
            a.violations.len()
        );
        for v in &a.violations {
            let _ = writeln!(
                s,
                "  [{}] players {}: {}",
                v.rule,
                ids(&v.players),
                v.message
            );
        }
    }
    if !a.excluded.is_empty() {
        let _ = writeln!(s, "Outside the round's hard rules (pairing model):");
        for e in &a.excluded {
            let _ = writeln!(s, "  {e}");
        }
    }
    let _ = writeln!(s);
    if let Some(d) = &a.dutch {
        let _ = writeln!(
            s,
            "Compared with the FIDE Dutch 2025 pairing, bracket by bracket (optimum {}: {}):\n  {d}",
            status_words(a.optimum_status),
            a.optimum_summary
        );
    } else {
        let _ = writeln!(
            s,
            "Compared with the optimum, tier by tier (optimum {}: {}):",
            status_words(a.optimum_status),
            a.optimum_summary
        );
    }
    if a.dutch.is_some() {
    } else if let Some(rows) = &a.tiers {
        let _ = writeln!(
            s,
            "  {:<44} {:>8} {:>8} {:>8}  rule",
            "tier (priority order)", "yours", "optimum", "excess"
        );
        for (i, r) in rows.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {:<44} {:>8} {:>8} {:>8}  {}{}",
                r.name,
                r.yours,
                r.optimum,
                r.yours - r.optimum,
                r.rule,
                if Some(i) == a.first_difference {
                    "  <- decides"
                } else {
                    ""
                }
            );
        }
    } else {
        let _ = writeln!(
            s,
            "  not comparable (a pair outside the round's hard rules)"
        );
    }
    let _ = writeln!(s);
    let marks = marks(a);
    let _ = writeln!(s, "Your pairing ({} boards):", a.yours.len());
    let width = a
        .yours
        .iter()
        .chain(&a.optimum)
        .flat_map(|b| {
            [
                name(t, b.white).chars().count(),
                name(t, b.black).chars().count(),
            ]
        })
        .max()
        .unwrap_or(5)
        .max(5);
    let row = |s: &mut String, b: &Board, mark: &str| {
        let line = format!(
            "  {:>5}  {:<width$} {:>5}   {:<width$} {:>5}  {mark}",
            b.board,
            name(t, b.white),
            score(b.white),
            name(t, b.black),
            score(b.black)
        );
        let _ = writeln!(s, "{}", line.trim_end());
    };
    let _ = writeln!(
        s,
        "  {:>5}  {:<width$} {:>5}   {:<width$} {:>5}",
        "Board", "White", "Score", "Black", "Score"
    );
    for b in &a.yours {
        row(
            &mut s,
            b,
            marks.get(&b.board).map(String::as_str).unwrap_or(""),
        );
    }
    for &p in &a.your_byes {
        let mark = if a.differences.byes_only_yours.contains(&p) {
            "differs: not the optimum's bye"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "{}",
            format!("    Bye  {}  {mark}", name(t, p)).trim_end()
        );
    }
    let d = &a.differences;
    if !d.only_optimum.is_empty()
        || !d.colours_reversed.is_empty()
        || !d.byes_only_optimum.is_empty()
    {
        let _ = writeln!(s);
        let _ = writeln!(s, "The optimum's boards that differ from yours:");
        for b in &d.only_optimum {
            row(&mut s, b, "");
        }
        for (_, o) in &d.colours_reversed {
            row(&mut s, o, "(your colours reversed)");
        }
        for &p in &d.byes_only_optimum {
            let _ = writeln!(s, "    Bye  {}", name(t, p));
        }
    }
    for v in &a.optimum_violations {
        let _ = writeln!(s, "  verifier on the optimum: {}", v.message);
    }
    for n in &a.notes {
        let _ = writeln!(s, "  Note: {n}");
    }
    s
}

fn ids(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

fn status_words(s: Status) -> &'static str {
    match s {
        Status::Optimal => "proved optimal",
        Status::Feasible => "found, not proved optimal",
        Status::Fallback => "from the greedy fallback, not proved optimal",
        Status::Rejected => "rejected by the verifier",
    }
}

fn verdict_words(v: Verdict) -> &'static str {
    match v {
        Verdict::Optimal => "legal and optimal",
        Verdict::NotOptimal => "legal, not optimal",
        Verdict::Unproved => "legal, optimality not proved",
        Verdict::BreaksRule => "BREAKS A RULE",
    }
}

/// Per board of yours: why it is marked (differs from the optimum, a verifier finding).
fn marks(a: &Audit) -> BTreeMap<usize, String> {
    let mut m: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for b in &a.differences.only_yours {
        m.entry(b.board)
            .or_default()
            .push("differs: pair not in the optimum".into());
    }
    for (y, o) in &a.differences.colours_reversed {
        m.entry(y.board).or_default().push(format!(
            "differs: colours reversed (optimum board {})",
            o.board
        ));
    }
    for v in &a.violations {
        for b in &a.yours {
            if v.players.contains(&b.white) || v.players.contains(&b.black) {
                let tag = format!("breaks {}", v.rule);
                let e = m.entry(b.board).or_default();
                if !e.contains(&tag) {
                    e.push(tag);
                }
            }
        }
    }
    m.into_iter().map(|(k, v)| (k, v.join("; "))).collect()
}

/// The audit as JSON.
pub fn json(a: &Audit) -> String {
    serde_json::to_string_pretty(&serde_json::json!({
        "audit": a,
        "exit_code": a.verdict.exit_code(),
    }))
    .expect("json of plain data")
}

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A self-contained HTML report (no external resources): verdict, summary, findings, tier
/// table, your pairing sheet with marked boards, and the optimum's differing boards.
pub fn html(a: &Audit, t: &Tournament) -> String {
    use std::fmt::Write;
    let e = escape;
    let st = Standings::before(t, a.round);
    let score = |id: u32| st.get(id).map(|s| s.score).unwrap_or(0.0);
    let mut s = String::new();
    let title = format!(
        "Audit of round {} — {} — {}",
        a.round,
        if t.name.is_empty() {
            "tournament"
        } else {
            &t.name
        },
        a.system
    );
    let banner = match a.verdict {
        Verdict::Optimal => "ok",
        Verdict::NotOptimal | Verdict::Unproved => "warn",
        Verdict::BreaksRule => "bad",
    };
    let _ = write!(
        s,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
h1 {{ font-size: 1.4em; }}
h2 {{ font-size: 1.1em; margin-top: 1.6em; }}
.verdict {{ padding: 0.6em 1em; border-radius: 4px; font-weight: bold; }}
.ok {{ background: #dff3df; border: 1px solid #4a4; }}
.warn {{ background: #fff4d6; border: 1px solid #c90; }}
.bad {{ background: #fde0e0; border: 1px solid #c33; }}
table {{ border-collapse: collapse; margin-top: 0.5em; }}
th, td {{ border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; }}
td.n {{ text-align: right; }}
tr.differs td {{ background: #fff4d6; }}
tr.breaks td {{ background: #fde0e0; }}
tr.decides td {{ font-weight: bold; }}
.rule {{ color: #555; font-size: 0.9em; }}
</style>
</head>
<body>
<h1>{}</h1>
<p class="verdict {banner}">{} (exit code {})</p>
<ul class="summary">
"#,
        e(&title),
        e(&title),
        e(verdict_words(a.verdict)),
        a.verdict.exit_code()
    );
    for line in &a.summary {
        let _ = writeln!(s, "<li>{}</li>", e(line));
    }
    let _ = writeln!(s, "</ul>");
    let _ = writeln!(s, "<h2>Rule violations</h2>");
    if a.violations.is_empty() && a.excluded.is_empty() {
        let _ = writeln!(s, "<p>None: the verifier finds no rule broken.</p>");
    } else {
        let _ = writeln!(
            s,
            "<table class=\"violations\"><tr><th>Rule</th><th>Players</th><th>Finding</th></tr>"
        );
        for v in &a.violations {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                e(&v.rule),
                e(&ids(&v.players)),
                e(&v.message)
            );
        }
        for x in &a.excluded {
            let _ = writeln!(
                s,
                "<tr><td>hard rule (pairing model)</td><td></td><td>{}</td></tr>",
                e(x)
            );
        }
        let _ = writeln!(s, "</table>");
    }
    if let Some(d) = &a.dutch {
        let _ = writeln!(
            s,
            "<h2>Compared with the FIDE Dutch 2025 pairing, bracket by bracket</h2>"
        );
        let _ = writeln!(s, "<p class=\"decides\">{}</p>", e(d));
    } else {
        let _ = writeln!(s, "<h2>Compared with the optimum, tier by tier</h2>");
    }
    let _ = writeln!(
        s,
        "<p class=\"rule\">Optimum {}: {}</p>",
        status_words(a.optimum_status),
        e(&a.optimum_summary)
    );
    if a.dutch.is_some() {
    } else if let Some(rows) = &a.tiers {
        let _ = writeln!(
            s,
            "<table class=\"tiers\"><tr><th>Tier (priority order)</th><th>Yours</th><th>Optimum</th><th>Excess</th><th>Rule</th></tr>"
        );
        for (i, r) in rows.iter().enumerate() {
            let class = if Some(i) == a.first_difference {
                " class=\"decides\""
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "<tr{class}><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"rule\">{}</td></tr>",
                e(&r.name),
                r.yours,
                r.optimum,
                r.yours - r.optimum,
                e(&r.rule)
            );
        }
        let _ = writeln!(s, "</table>");
    } else {
        let _ = writeln!(
            s,
            "<p>Not comparable: the pairing uses a pair the round's hard rules exclude.</p>"
        );
    }
    let marks = marks(a);
    let sheet_row = |s: &mut String, b: &Board, class: &str, mark: &str| {
        let _ = writeln!(
            s,
            "<tr{class}><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            b.board,
            e(&name(t, b.white)),
            score(b.white),
            e(&name(t, b.black)),
            score(b.black),
            e(mark)
        );
    };
    let head = "<tr><th>Board</th><th>White</th><th>Score</th><th>Black</th><th>Score</th><th>Finding</th></tr>";
    let _ = writeln!(s, "<h2>Your pairing</h2>");
    let _ = writeln!(s, "<table class=\"sheet\">{head}");
    for b in &a.yours {
        let mark = marks.get(&b.board).map(String::as_str).unwrap_or("");
        let class = if mark.contains("breaks") {
            " class=\"breaks\""
        } else if !mark.is_empty() {
            " class=\"differs\""
        } else {
            ""
        };
        sheet_row(&mut s, b, class, mark);
    }
    for &p in &a.your_byes {
        let _ = writeln!(
            s,
            "<tr><td>Bye</td><td colspan=\"4\">{}</td><td>{}</td></tr>",
            e(&name(t, p)),
            if a.differences.byes_only_yours.contains(&p) {
                "differs: not the optimum's bye"
            } else {
                ""
            }
        );
    }
    let _ = writeln!(s, "</table>");
    let d = &a.differences;
    let _ = writeln!(s, "<h2>The optimum's boards that differ</h2>");
    if d.only_optimum.is_empty() && d.colours_reversed.is_empty() && d.byes_only_optimum.is_empty()
    {
        let _ = writeln!(s, "<p>None.</p>");
    } else {
        let _ = writeln!(s, "<table class=\"optimum\">{head}");
        for b in &d.only_optimum {
            sheet_row(&mut s, b, "", "");
        }
        for (_, o) in &d.colours_reversed {
            sheet_row(&mut s, o, "", "your colours reversed");
        }
        for &p in &d.byes_only_optimum {
            let _ = writeln!(
                s,
                "<tr><td>Bye</td><td colspan=\"4\">{}</td><td></td></tr>",
                e(&name(t, p))
            );
        }
        let _ = writeln!(s, "</table>");
    }
    if !a.optimum_violations.is_empty() || !a.notes.is_empty() {
        let _ = writeln!(s, "<h2>Notes</h2><ul>");
        for v in &a.optimum_violations {
            let _ = writeln!(s, "<li>Verifier on the optimum: {}</li>", e(&v.message));
        }
        for n in &a.notes {
            let _ = writeln!(s, "<li>{}</li>", e(n));
        }
        let _ = writeln!(s, "</ul>");
    }
    let _ = writeln!(s, "</body>\n</html>");
    s
}
