//! One round end to end: system → solve → the round as domain data → independent verification.

use crate::solve::{self, Exchanges, Options, Pairing, Status};
use crate::spec::{ExactProcedure, RoundPlan, Strategy, Tiers};
use crate::systems;
use crate::tournament::{Bye, ByeKind, Game, GameResult, Round, Tournament};
use crate::verify::{self, Violation};
use crate::{Error, Result, SystemKind};

/// A paired round with its certificate and the verifier's findings.
#[derive(Debug, Clone)]
pub struct Paired {
    /// The system the round was paired under.
    pub system: SystemKind,
    /// The round as domain data: its games in board order and its byes, ready for [`store`].
    pub round: Round,
    /// The pairing as solved: games and byes as player ids, players left unpaired, and the
    /// certificate.
    pub pairing: Pairing,
    /// Director's notes from the system (warnings about the field, rules applied).
    pub notes: Vec<String>,
    /// What the independent verifier found (empty when the pairing keeps every rule).
    pub violations: Vec<Violation>,
    /// The round was paired by the exact FIDE Dutch procedure ([`systems::System::dutch_round`],
    /// within its memory budget and time limit): the pairing is the Dutch pairing, and another
    /// is judged against it by the Dutch criteria.
    pub dutch: bool,
}

/// Pairs round `round` of `t` under `system` from the rounds before it. Later rounds, and any
/// pairing already recorded for `round`, are ignored.
///
/// The system's plan for the round ([`systems::System::plan`]) is run strategy by strategy
/// until one pairs it. Every pairing passes the independent verifier here, so no system can
/// skip it: when it objects to the exact pairing, the plan's legal fallback (itself
/// verified) is used instead; when it objects to that too, the pairing comes back with
/// status `rejected` and its findings (never to be stored); when no pairing can give every
/// player a game or the bye, the round is refused with the players left over and why.
pub fn pair_round(
    t: &Tournament,
    round: u32,
    system: SystemKind,
    opts: &Options,
) -> Result<Paired> {
    check_request(t, round)?;
    let sys = systems::model(system, &solve::PROGRAMS);
    systems::check_scoring(&*sys, t)?;
    // The shares of the limit are the round's from here: cutting the history is in them.
    let started = std::time::Instant::now();
    let base = t.before_round(round);
    let run = Run {
        base: &base,
        round,
        system,
        started,
    };
    let plan = sys.plan(&base, round)?;
    let first = run.attempt(&plan, opts)?;
    if first.players == 0 {
        return Err(Error::field(
            "round",
            format!(
                "round {round} has no players to pair: every player is withdrawn, not yet entered or has a requested bye"
            ),
        ));
    }
    if first.paired.is_clean() {
        return Ok(first.paired);
    }
    let mut paired = first.paired;
    // A first attempt that was the legal fallback because the exact solve ran out of its
    // share is not run again: the limit is spent. Otherwise the fallback's ways of exchanging
    // partners are tried in turn (one the verifier rejects may be another's legal pairing),
    // except the one the first attempt already was.
    let fell_back = paired.pairing.certificate.fallback.is_some();
    let ways: &[Exchanges] = if fell_back && !opts.greedy_only {
        &[]
    } else {
        &Exchanges::ORDER
    };
    for &how in ways {
        if fell_back && how == opts.fallback_exchanges {
            continue;
        }
        let greedy = Options {
            greedy_only: true,
            fallback_exchanges: how,
            ..opts.clone()
        };
        let fb = run.attempt(&plan, &greedy)?.paired;
        if fb.is_clean() {
            return Ok(fallback_used(fb, &paired));
        }
        // None clean: the one that leaves the fewest unpaired (the fallback's maximum matching
        // pairs everyone whenever the allowed pairs can), then breaks the fewest rules.
        let worse = |p: &Paired| (p.pairing.unpaired.len(), p.violations.len());
        if worse(&fb) < worse(&paired) {
            paired = fb;
        }
    }
    refuse_or_reject(&base, round, system, paired)
}

/// Refuses a round that cannot be paired at this point of the event.
fn check_request(t: &Tournament, round: u32) -> Result<()> {
    if round == 0 {
        return Err(Error::field("round", "rounds are numbered from 1"));
    }
    if let Some(planned) = t.rounds_planned {
        if round > planned {
            return Err(Error::field(
                "round",
                format!("round {round} is past the {planned} rounds planned"),
            ));
        }
    }
    let next = t.last_paired_round().saturating_add(1);
    if round > next {
        return Err(Error::field(
            "round",
            format!("round {round} cannot be paired before round {next}"),
        ));
    }
    if t.divisions().len() > 1 {
        return Err(Error::field(
            "division",
            format!(
                "the event has divisions {}: each is paired on its own (choose one)",
                t.division_names()
            ),
        ));
    }
    Ok(())
}

/// The legal fallback's pairing `fb`, used because the first pairing (`first`) broke a rule
/// or left players unpaired: its notes and summary say so.
fn fallback_used(mut fb: Paired, first: &Paired) -> Paired {
    let what = if first.pairing.certificate.fallback.is_some() {
        "the fallback's first pairing"
    } else {
        "the exact pairing"
    };
    let why = match first.violations.first() {
        Some(v) => format!("{what} broke a rule ({})", v.message),
        None => format!("{what} left players unpaired"),
    };
    // What the first attempt noted (why the exact Dutch procedure did not pair the round)
    // still holds.
    for n in &first.notes {
        if !fb.notes.contains(n) {
            fb.notes.push(n.clone());
        }
    }
    fb.notes.push(format!(
        "{why}: the fallback pairing, which keeps every rule, is used"
    ));
    fb.pairing.certificate.summary = format!("{why}; {}", fb.pairing.certificate.summary);
    fb
}

/// A pairing no strategy made clean: refused when players are left over (the time limit
/// cut the fallback short, or no legal pairing exists), else returned `rejected` with the
/// verifier's findings.
fn refuse_or_reject(
    base: &Tournament,
    round: u32,
    system: SystemKind,
    mut paired: Paired,
) -> Result<Paired> {
    if !paired.pairing.unpaired.is_empty() && is_cut(&paired) {
        return Err(Error::field(
            "time limit",
            format!(
                "round {round}: the time limit passed before the fallback pairing had looked at every pair, with {} players still unpaired: nothing was paired (a longer limit pairs the round)",
                paired.pairing.unpaired.len()
            ),
        ));
    }
    if !paired.pairing.unpaired.is_empty() {
        return Err(no_legal_pairing(base, round, system, &paired));
    }
    let c = &mut paired.pairing.certificate;
    c.status = Status::Rejected;
    // What the solver proved of its model says nothing of a pairing that breaks a rule: the
    // summary and the tiers claim no optimality.
    c.summary = format!(
        "rejected: the verifier found {} broken rule{} (first: {}); not to be stored",
        paired.violations.len(),
        if paired.violations.len() == 1 {
            ""
        } else {
            "s"
        },
        paired.violations[0].message
    );
    for tier in &mut c.tiers {
        tier.proved = false;
    }
    Ok(paired)
}

/// The time limit cut the fallback's matching short (it had not looked at every pair).
fn is_cut(p: &Paired) -> bool {
    p.pairing
        .certificate
        .fallback
        .as_ref()
        .is_some_and(|f| f.cut)
}

impl Paired {
    /// Every player has a game or a bye and the verifier found no broken rule.
    pub fn is_clean(&self) -> bool {
        self.violations.is_empty() && self.pairing.unpaired.is_empty()
    }
}

/// One solve of the round and its verification.
struct Attempt {
    paired: Paired,
    /// Players the system put up for pairing.
    players: usize,
}

/// `started + share` of the time limit, if there is one (and the instant can be represented).
fn share_end(
    opts: &Options,
    started: std::time::Instant,
    share: f64,
) -> Option<std::time::Instant> {
    let d = std::time::Duration::try_from_secs_f64(opts.time_limit? * share).ok()?;
    started.checked_add(d)
}

/// The round being paired: the history before it, and when its pairing began (the shares of
/// the time limit are measured from then).
struct Run<'a> {
    base: &'a Tournament,
    round: u32,
    system: SystemKind,
    started: std::time::Instant,
}

/// Why an exact procedure earlier in the plan did not pair the round.
#[derive(Default)]
struct Missed {
    /// Its share of the time limit passed.
    late: bool,
    /// A graph it needed held this many pairs, over the budget (the second number).
    over: Option<(usize, usize)>,
}

/// A tier program whose exact solve found no pairing, for the plan's fallback.
struct Pending {
    tiers: Tiers,
    unsolved: solve::Unsolved,
    opts: Options,
}

impl Run<'_> {
    /// Runs the plan's strategies in order until one pairs the round, and verifies that
    /// pairing. Under [`Options::greedy_only`], exact procedures are skipped and the tier
    /// program goes straight to the fallback.
    fn attempt(&self, plan: &RoundPlan, opts: &Options) -> Result<Attempt> {
        // The verifier checks by its share's end (the rest of the limit writes the output).
        let whole = share_end(opts, self.started, VERIFY_SHARE);
        let mut missed = Missed::default();
        let mut pending = None;
        for strategy in &plan.strategies {
            match strategy {
                Strategy::Exact(_) if opts.greedy_only => {}
                Strategy::Exact(state) => match self.exact(&state()?, opts, whole)? {
                    ExactAttempt::Paired(a) => return Ok(*a),
                    ExactAttempt::Cancelled => missed.late = true,
                    ExactAttempt::OverBudget(pairs, budget) => missed.over = Some((pairs, budget)),
                },
                Strategy::Tiers(state) => {
                    let tiers = state((!opts.full_candidates).then_some(opts.sparse_from))?;
                    // The shares left after stating the program (on a large field, seconds).
                    let rest = self.rest(opts);
                    match solve::exact(&tiers, &rest) {
                        Ok(p) => return self.tiers_done(&tiers, p, &missed, opts, whole),
                        Err(unsolved) => {
                            pending = Some(Pending {
                                tiers,
                                unsolved,
                                opts: rest,
                            })
                        }
                    }
                }
                Strategy::Fallback => {
                    if let Some(Pending {
                        tiers,
                        unsolved,
                        opts: rest,
                    }) = pending.take()
                    {
                        let p = solve::fallback(&tiers, &rest, unsolved);
                        return self.tiers_done(&tiers, p, &missed, opts, whole);
                    }
                }
            }
        }
        Err(Error::field(
            "system",
            format!(
                "round {}: no strategy of the system's plan paired the round",
                self.round
            ),
        ))
    }

    /// `opts` for the tier program: the time limit is the round's, so the tier model solves
    /// until `EXACT_SHARE` of it, the legal fallback until `SOLVE_SHARE` (and the verifier
    /// until `VERIFY_SHARE`).
    fn rest(&self, opts: &Options) -> Options {
        let mut rest = opts.clone();
        if let Some(t) = opts.time_limit {
            let left = (t * SOLVE_SHARE - self.started.elapsed().as_secs_f64()).max(0.0);
            rest.time_limit = Some(left);
            rest.fallback_seconds = Some((t * (SOLVE_SHARE - EXACT_SHARE)).min(left));
        }
        rest
    }

    /// The tier program's pairing, with the notes of its specification and of an exact
    /// procedure that did not pair the round, verified.
    fn tiers_done(
        &self,
        tiers: &Tiers,
        mut pairing: Pairing,
        missed: &Missed,
        opts: &Options,
        whole: Option<std::time::Instant>,
    ) -> Result<Attempt> {
        log::debug!(
            "round {}: solved at {:.2} s",
            self.round,
            self.started.elapsed().as_secs_f64()
        );
        let spec = tiers.spec();
        let mut notes = spec.notes.clone();
        if missed.late {
            notes.push(format!(
                "{} players: the exact FIDE Dutch procedure did not finish within {} of the time limit: the round is paired by the tier model that approximates the Dutch rules (models/swiss.md), not necessarily the Dutch pairing",
                spec.players.len(),
                DUTCH_SHARE_WORDS
            ));
            pairing.certificate.summary = format!(
                "the FIDE Dutch procedure ran past {} of the time limit; tier model: {}",
                DUTCH_SHARE_WORDS, pairing.certificate.summary
            );
        }
        if let Some((pairs, budget)) = missed.over.filter(|_| !opts.greedy_only) {
            notes.push(format!(
                "{} players: the exact FIDE Dutch procedure needed a graph of {} pairs, above the {} it may hold (about 1 GB): the round is paired by the tier model that approximates the Dutch rules (models/swiss.md), not necessarily the Dutch pairing",
                spec.players.len(),
                pairs,
                budget
            ));
        }
        let solved = Solved {
            pairing,
            notes,
            players: spec.players.len(),
            dutch: false,
        };
        finish(self.base, self.round, self.system, solved, whole)
    }

    /// One round by an exact procedure within its share of the time limit and its memory
    /// budget, verified like any other.
    fn exact(
        &self,
        procedure: &ExactProcedure,
        opts: &Options,
        whole: Option<std::time::Instant>,
    ) -> Result<ExactAttempt> {
        let started = std::time::Instant::now();
        let deadline = share_end(opts, self.started, DUTCH_SHARE);
        let should_cancel = || deadline.is_some_and(|d| std::time::Instant::now() >= d);
        let budget = opts.exact_pairs.unwrap_or(systems::dutch::EXACT_PAIRS);
        let mut matcher = solve::bracket::DutchMatchers::with_progress(opts.progress.clone());
        let d = (procedure.run)(budget, &should_cancel, &mut matcher);
        log::debug!(
            "round {}: Dutch procedure done at {:.2} s",
            self.round,
            self.started.elapsed().as_secs_f64()
        );
        if let Some(pairs) = d.over_budget {
            return Ok(ExactAttempt::OverBudget(pairs, budget));
        }
        if d.cancelled {
            return Ok(ExactAttempt::Cancelled);
        }
        let (solves, edges) = matcher.counts();
        let mut certificate =
            solve::Certificate::exact_procedure(&d, &procedure.basis, solves, edges);
        certificate.seconds = started.elapsed().as_secs_f64();
        let pairing = Pairing {
            games: d.games.clone(),
            byes: d.bye.into_iter().collect(),
            unpaired: d.unpaired.clone(),
            certificate,
        };
        let solved = Solved {
            pairing,
            notes: procedure.notes.clone(),
            players: d.players,
            dutch: true,
        };
        finish(self.base, self.round, self.system, solved, whole)
            .map(|a| ExactAttempt::Paired(Box::new(a)))
    }
}

/// A solved round before its verification.
struct Solved {
    pairing: Pairing,
    notes: Vec<String>,
    players: usize,
    dutch: bool,
}

/// The paired round as domain data, checked by the independent verifier in what is left of
/// the time limit (`by`; the checks it leaves undone are named in the notes).
fn finish(
    base: &Tournament,
    round: u32,
    system: SystemKind,
    solved: Solved,
    by: Option<std::time::Instant>,
) -> Result<Attempt> {
    let Solved {
        mut pairing,
        mut notes,
        players,
        dutch,
    } = solved;
    let mut rd = base.round(round).cloned().unwrap_or(Round {
        number: round,
        ..Round::default()
    });
    rd.games = pairing
        .games
        .iter()
        .map(|&(white, black)| Game {
            white,
            black,
            result: GameResult::Pending,
            ..Default::default()
        })
        .collect();
    rd.byes.extend(pairing.byes.iter().map(|&player| Bye {
        player,
        kind: ByeKind::PairingAllocated,
        ..Default::default()
    }));
    let mut after = base.clone();
    *after.round_mut(round) = rd.clone();
    let checking = std::time::Instant::now();
    let checked = if rd.is_paired() {
        verify::check_round_within(&after, round, system, by)?
    } else {
        verify::Checked::default()
    };
    log::debug!(
        "round {round}: verified in {:.2} s",
        checking.elapsed().as_secs_f64()
    );
    for u in &checked.unchecked {
        notes.push(if u.rule == "every rule" {
            format!("{}: the pairing is not verified", u.message)
        } else {
            format!("{}: the pairing keeps every rule checked", u.message)
        });
    }
    if !checked.unchecked.is_empty() {
        pairing.certificate.summary = format!(
            "{}; not fully verified within the time limit",
            pairing.certificate.summary
        );
        // What the solver proved of its model is no proof of a pairing the verifier did not
        // check whole: not called optimal (a fallback claims nothing and stays one).
        if matches!(
            pairing.certificate.status,
            Status::Optimal | Status::Feasible
        ) {
            pairing.certificate.status = Status::Unverified;
        }
    }
    let violations = checked.violations;
    Ok(Attempt {
        players,
        paired: Paired {
            system,
            round: rd,
            pairing,
            notes,
            violations,
            dutch,
        },
    })
}

/// `t` with the virtual points of rounds `1..=round` that an acceleration on the Dutch
/// system adds to the pairing score: [`systems::pairing_field`].
pub fn accelerated(t: &Tournament, round: u32, system: SystemKind) -> Result<Tournament> {
    systems::pairing_field(t, round, system)
}

/// The share of a round's time limit the exact Dutch procedure may take: past it, the tier
/// model pairs the round until [`EXACT_SHARE`], then the legal fallback.
pub const DUTCH_SHARE: f64 = 2.0 / 3.0;
/// The share of the time limit by which the exact solve (the Dutch procedure, then the tier
/// model) ends. The shares leave room for a step that overruns its own (a Dutch matching, the
/// verifier's checks other than the bye proof, which run whole): measured in RELIABILITY.md.
pub const EXACT_SHARE: f64 = 0.72;
/// The share by which the legal fallback ends (its matching over nearby ranks widened while
/// players are left over, and the system's rows as a feasibility program).
pub const SOLVE_SHARE: f64 = 0.85;
/// The share by which the verifier ends; the rest is for the output.
pub const VERIFY_SHARE: f64 = 0.95;
const DUTCH_SHARE_WORDS: &str = "two thirds";

/// What an exact procedure made of a round.
enum ExactAttempt {
    Paired(Box<Attempt>),
    /// The deadline passed first.
    Cancelled,
    /// A bracket needed a graph of this many pairs, over the budget (the second number).
    OverBudget(usize, usize),
}

/// The refusal of a round no pairing can complete: who is left over, whom each has not met
/// yet, and the rules the verifier cites.
fn no_legal_pairing(t: &Tournament, round: u32, system: SystemKind, p: &Paired) -> Error {
    let name = |id: u32| match t.player(id) {
        Some(pl) => format!("{} ({id})", pl.name),
        None => id.to_string(),
    };
    let present: Vec<u32> = t
        .players
        .iter()
        .filter(|pl| pl.active_in(round))
        .map(|pl| pl.id)
        .collect();
    let met = |a: u32, b: u32| {
        t.rounds.iter().any(|r| {
            r.games
                .iter()
                .any(|g| (g.white == a && g.black == b) || (g.white == b && g.black == a))
        })
    };
    let mut left = p.pairing.unpaired.clone();
    left.sort_unstable();
    let mut met_all = Vec::new();
    let mut why = Vec::new();
    for &u in &left {
        let fresh = present.iter().filter(|&&o| o != u && !met(u, o)).count();
        if fresh == 0 {
            met_all.push(name(u));
        } else {
            why.push(format!(
                "{} has {fresh} opponent{} not met yet, none of them free under the rules",
                name(u),
                if fresh == 1 { "" } else { "s" }
            ));
        }
    }
    if !met_all.is_empty() {
        why.insert(
            0,
            format!(
                "{} {} already met every other player present{}",
                met_all.join(", "),
                if met_all.len() == 1 { "has" } else { "have" },
                if t.scoring.game_scores {
                    ""
                } else {
                    " (FIDE C.04.1 b: no two players meet more than once)"
                }
            ),
        );
    }
    let rules: Vec<&str> = p
        .violations
        .iter()
        .map(|v| v.message.as_str())
        .take(3)
        .collect();
    let left = p.pairing.unpaired.len();
    Error::field(
        "round",
        format!(
            "round {round} has no legal pairing under {system}: every pairing the rules allow leaves {left} player{} without a game or bye: {}{}",
            if left == 1 { "" } else { "s" },
            why.join("; "),
            if rules.is_empty() {
                String::new()
            } else {
                format!(" (verifier: {})", rules.join("; "))
            }
        ),
    )
}

/// `t` with round `paired.round` stored: every game and bye of that round involving a player
/// of the paired round's division is replaced (other divisions' pairings are kept).
pub fn store(t: &Tournament, paired: &Paired) -> Tournament {
    let mut out = t.clone();
    let ids: std::collections::HashSet<u32> = paired
        .round
        .games
        .iter()
        .flat_map(|g| [g.white, g.black])
        .chain(paired.round.byes.iter().map(|b| b.player))
        .chain(paired.pairing.unpaired.iter().copied())
        .collect();
    let division = |id: u32| t.player(id).map(|p| p.division.clone());
    let divs: std::collections::HashSet<Option<String>> =
        ids.iter().filter_map(|&id| division(id)).collect();
    let number = paired.round.number;
    let rd = out.round_mut(number);
    rd.games.retain(|g| {
        !divs.contains(&division(g.white).flatten()) && !divs.contains(&division(g.black).flatten())
    });
    rd.byes
        .retain(|b| !divs.contains(&division(b.player).flatten()));
    rd.games.extend(paired.round.games.iter().cloned());
    rd.byes.extend(paired.round.byes.iter().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Player;

    /// "A pairing the verifier rejects is never stored or called optimal", and neither is one
    /// it could not check whole within the time limit: the solver's proof is of its model.
    #[test]
    fn a_pairing_the_verifier_could_not_check_in_time_is_not_called_optimal() {
        let players = (1..=6)
            .map(|i| Player::new(i, format!("P{i}"), 2400 - 50 * i))
            .collect();
        let t = Tournament::new("limits", players);
        let p = pair_round(&t, 1, SystemKind::Swiss, &Options::default()).unwrap();
        assert_eq!(p.pairing.certificate.status, Status::Optimal);
        assert!(p.is_clean());
        let solved = Solved {
            pairing: p.pairing.clone(),
            notes: Vec::new(),
            players: 6,
            dutch: p.dutch,
        };
        let past = Some(std::time::Instant::now());
        let late = finish(&t, 1, SystemKind::Swiss, solved, past)
            .unwrap()
            .paired;
        let c = &late.pairing.certificate;
        assert_eq!(c.status, Status::Unverified);
        assert!(c
            .summary
            .ends_with("not fully verified within the time limit"));
        assert!(late
            .notes
            .iter()
            .any(|n| n.contains("round 1: not fully checked")));
        // Its games are the same: nothing the verifier did not see is called broken either.
        assert_eq!(late.pairing.games, p.pairing.games);
        assert!(late.violations.is_empty());
    }
}
