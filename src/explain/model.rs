//! The explanation of one player's pairing: where he stood, whom he got and why, what every
//! other opponent he could have had would have cost, and the rule that gave his colour.
//! Each alternative is the best pairing of the round in which he meets that opponent (see
//! [`forced`]), judged against the pairing made by the rules of the round.

use super::colour;
use super::words::{self, short};
use crate::engine::{self, Paired};
use crate::solve::Options;
use crate::tournament::{ForbiddenPairs, Tournament, FORBIDDEN_PAIRS};
use crate::verify::dutch::state::{self, RoundState};
use crate::verify::dutch::{self, BracketReport, Comparison, Pairing};
use crate::{systems, Error, Result, SystemKind};
use serde::Serialize;

/// How many other opponents are tried: the nearest in rank to the one he got.
pub const CLOSEST: usize = 6;

/// Where the player stood before the round.
#[derive(Debug, Clone, Serialize)]
pub struct Standing {
    /// His pairing score (virtual points included) and his real points.
    pub score: String,
    /// His real points, as shown (`2`, `1.5`).
    pub points: String,
    /// His place in the ranking the pairing uses (score, then pairing number).
    pub rank: usize,
    /// The bracket of his scoregroup, and the bracket in which he was paired (lower when he
    /// floated down).
    pub bracket: Option<usize>,
    /// The bracket in which he was paired, 1-based from the top.
    pub paired_in: Option<usize>,
    /// He came into his bracket from a higher one (a moved-down player).
    pub moved_down: bool,
    /// He floats down out of his own scoregroup in this round.
    pub floats_down: bool,
    /// The colour he is due and how strongly (`None` before any game).
    pub colour_due: Option<String>,
    /// How strongly he is due it: `mild`, `strong` or `absolute`.
    pub strength: Option<String>,
    /// Played colours, oldest first (`W B - W`), and floats per round (`D`, `U`, `-`).
    pub colours: String,
    /// His floats per earlier round, oldest first (`D` down, `U` up, `-` none).
    pub floats: String,
    /// Why he may not get the pairing-allocated bye, if he may not.
    pub bye_barred: Option<String>,
}

/// Whom he got.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Outcome {
    /// A game.
    Game {
        /// The opponent, by id.
        opponent: u32,
        /// Whether he has white (in Scrabble, goes first).
        white: bool,
    },
    /// The pairing-allocated bye.
    Bye,
    /// Neither a game nor the bye.
    NotPaired,
}

/// How an alternative compares with the pairing made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The pair breaks an absolute rule (met before, forbidden, same absolute colour).
    NotAllowed,
    /// Every pairing with it is worse on a criterion (or tier).
    Worse,
    /// As good on every criterion; the order of candidates put the pairing made first.
    Order,
    /// No legal pairing of the round has it.
    NoPairing,
}

/// One other opponent (or, for a bye, another player who could have had it).
#[derive(Debug, Clone, Serialize)]
pub struct Alternative {
    /// The other player, by id.
    pub player: u32,
    /// How it compares with the pairing made.
    pub verdict: Verdict,
    /// The rule on which it loses (or that forbids it).
    pub article: Option<String>,
    /// The bracket (1-based from the top) that decides against it, in a round judged by the
    /// FIDE Dutch criteria.
    pub bracket: Option<usize>,
    /// For a system judged by its tiers: the place of that tier in the system's order (0 the
    /// first), which says how close the alternative came.
    pub tier: Option<usize>,
    /// Its value and the pairing made's on that rule, in words.
    pub with_it: Option<String>,
    /// The pairing made's value on that rule, in words.
    pub made: Option<String>,
    /// The best pairing with it, as checked (games white–black, and the bye).
    #[serde(serialize_with = "opt_pairing")]
    pub pairing: Option<Pairing>,
    /// The comparison in one sentence for the player.
    pub sentence: String,
}

/// The explanation.
#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    /// The system the round is paired under.
    pub system: SystemKind,
    /// The round explained, 1-based.
    pub round: u32,
    /// The player explained, by id.
    pub player: u32,
    /// Judged by the FIDE Dutch criteria (else by the system's tiers).
    pub dutch_round: bool,
    /// The pairing explained was proved optimal and verified whole (certificate `optimal`).
    pub proved: bool,
    /// Where he stood before the round.
    pub standing: Standing,
    /// Whom he got.
    pub outcome: Outcome,
    /// The rule that gave his colour, cited, and in words.
    pub colour: Option<String>,
    /// The citation of that rule alone.
    pub colour_rule: Option<String>,
    /// The rule that decided his opponent (or bye), and the sentence saying so.
    pub decided_by: Option<String>,
    /// The sentence saying what decided his opponent (or bye).
    pub decision: String,
    /// One line per rule that ruled other choices out, in priority order.
    pub reasons: Vec<String>,
    /// The other opponents tried (at most [`CLOSEST`]), each with its cost.
    pub alternatives: Vec<Alternative>,
    /// The pairing explained.
    #[serde(serialize_with = "pairing")]
    pub pairing: Pairing,
    /// The system's notes on the round (warnings about the field, rules applied).
    pub notes: Vec<String>,
}

/// A pairing in JSON: `{"games": [[white, black], …], "bye": id or null}`.
pub(super) fn pairing<S: serde::Serializer>(
    p: &Pairing,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    serde_json::json!({"games": p.games, "bye": p.bye}).serialize(s)
}

fn opt_pairing<S: serde::Serializer>(
    p: &Option<Pairing>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match p {
        Some(p) => pairing(p, s),
        None => s.serialize_none(),
    }
}

/// Whether the pairing explained may be called optimal: only a certificate `optimal`. The
/// exact Dutch procedure's pairing is not, when the verifier could not check it whole within
/// the time limit (`unverified`): what the procedure proved is of its own model.
fn proved(made: &Paired) -> bool {
    made.pairing.certificate.status == crate::solve::Status::Optimal
}

/// Explains round `round` of `t` (paired from the rounds before it under `system`) to
/// `player`.
pub fn explain(
    t: &Tournament,
    round: u32,
    system: SystemKind,
    player: u32,
    opts: &Options,
) -> Result<Explanation> {
    let made = engine::pair_round(t, round, system, opts)?;
    let base = t.before_round(round);
    let sys = systems::model(system, &crate::solve::PROGRAMS);
    let dutch_round = sys.dutch_round(&base, round)?;
    let field = engine::accelerated(&base, round, system)?;
    let st = RoundState::new(&field, round);
    if st.index_of(player).is_none() {
        return Err(Error::field(
            "PLAYER",
            format!("player {player} is not paired in round {round} (absent, withdrawn or with a requested bye)"),
        ));
    }
    let pairing = as_pairing(&made);
    let reports = dutch::criteria(&field, round, &pairing).unwrap_or_default();
    let outcome = outcome_of(&pairing, player);
    let standing = standing(&st, &reports, player);
    let mut ex = Explanation {
        system,
        round,
        player,
        dutch_round,
        proved: proved(&made),
        standing,
        outcome: outcome.clone(),
        colour: None,
        colour_rule: None,
        decided_by: None,
        decision: String::new(),
        reasons: Vec::new(),
        alternatives: Vec::new(),
        pairing: pairing.clone(),
        notes: made.notes.clone(),
    };
    if let Outcome::Game { opponent, white } = outcome {
        let (ip, io) = (st.index_of(player).unwrap(), st.index_of(opponent));
        let other = (!dutch_round)
            .then(|| colour::rule(&base, round, system, player, opponent, white))
            .flatten();
        if let Some((article, sentence)) = other {
            ex.colour = Some(sentence);
            ex.colour_rule = Some(article.to_string());
        } else if let Some(io) = io {
            // The Dutch allocation; ECF's accelerated rounds keep the seeded pairings' rules.
            let (w, article) = state::allocate(&st, ip, io);
            let who = if w == ip { "you" } else { "your opponent" };
            let why = words::words(article).map_or("", |w| w.sentence);
            let kept = if dutch_round || (w == ip) == white {
                ""
            } else {
                " (the pairing gives the other colour: an accelerated pair's colour rule came first)"
            };
            ex.colour = Some(format!("{article} gives {who} white: {why}{kept}"));
            ex.colour_rule = Some(article.to_string());
        }
    }
    let others = candidates(&st, &reports, &pairing, player, &outcome);
    for x in others {
        let alt = if dutch_round {
            dutch_alternative(
                t, &field, round, system, opts, &pairing, player, &outcome, x,
            )
        } else {
            tier_alternative(t, round, system, opts, &made, player, &outcome, x)
        };
        ex.alternatives.push(alt);
    }
    decide(&mut ex);
    Ok(ex)
}

/// The pairing of the engine's round as the verifier reads it.
pub(super) fn as_pairing(p: &Paired) -> Pairing {
    Pairing {
        games: p.pairing.games.clone(),
        bye: p.pairing.byes.first().copied(),
    }
}

fn outcome_of(p: &Pairing, player: u32) -> Outcome {
    if p.bye == Some(player) {
        return Outcome::Bye;
    }
    p.games
        .iter()
        .find_map(|&(w, b)| {
            if w == player {
                Some(Outcome::Game {
                    opponent: b,
                    white: true,
                })
            } else if b == player {
                Some(Outcome::Game {
                    opponent: w,
                    white: false,
                })
            } else {
                None
            }
        })
        .unwrap_or(Outcome::NotPaired)
}

fn standing(st: &RoundState, reports: &[BracketReport], player: u32) -> Standing {
    let i = st.index_of(player).expect("checked by the caller");
    let p = &st.players[i];
    let home = reports.iter().find(|r| r.residents.contains(&player));
    let paired_in = reports
        .iter()
        .find(|r| r.pairs.iter().any(|&(w, b)| w == player || b == player))
        .or_else(|| reports.last().filter(|r| r.downfloaters.contains(&player)));
    let colours: Vec<&str> = p
        .colours
        .iter()
        .map(|c| match c {
            crate::tournament::Colour::White => "W",
            crate::tournament::Colour::Black => "B",
        })
        .collect();
    let floats: Vec<&str> = p
        .floats
        .iter()
        .map(|f| match f {
            state::Float::Down => "D",
            state::Float::Up => "U",
            state::Float::None => "-",
        })
        .collect();
    Standing {
        score: state::show(p.score),
        points: state::show(p.real_score),
        rank: i + 1,
        bracket: home.map(|r| r.bracket),
        paired_in: paired_in.map(|r| r.bracket),
        moved_down: paired_in.is_some_and(|r| r.mdps.contains(&player)),
        floats_down: home.is_some_and(|r| r.downfloaters.contains(&player)),
        colour_due: p.pref.map(|c| colour_word(c.colour).to_string()),
        strength: p.pref.map(|c| c.strength.word().to_string()),
        colours: colours.join(" "),
        floats: floats.join(" "),
        bye_barred: p.pab_bar.clone(),
    }
}

pub(super) fn colour_word(c: crate::tournament::Colour) -> &'static str {
    match c {
        crate::tournament::Colour::White => "white",
        crate::tournament::Colour::Black => "black",
    }
}

/// The others to try: for a game, the players of his own bracket and of the bracket he was
/// paired in, nearest in rank to his opponent first, then (when these are fewer than
/// [`CLOSEST`]) the others nearest in rank to him; for a bye, the others who may have it,
/// lowest ranked first.
fn candidates(
    st: &RoundState,
    reports: &[BracketReport],
    p: &Pairing,
    player: u32,
    outcome: &Outcome,
) -> Vec<u32> {
    let rank = |id: u32| st.index_of(id).unwrap_or(usize::MAX);
    match outcome {
        Outcome::Game { opponent, .. } => {
            let mut pool: Vec<u32> = reports
                .iter()
                .filter(|r| {
                    r.residents.contains(&player)
                        || r.pairs.iter().any(|&(w, b)| w == player || b == player)
                })
                .flat_map(|r| r.mdps.iter().chain(&r.residents).copied())
                .filter(|&x| x != player && x != *opponent)
                .collect();
            pool.sort_unstable_by_key(|&x| (rank(x).abs_diff(rank(*opponent)), rank(x)));
            pool.dedup();
            pool.truncate(CLOSEST);
            // A small bracket: the players nearest in rank outside it (each would float).
            let mut outside: Vec<u32> = st
                .players
                .iter()
                .map(|q| q.id)
                .filter(|&x| x != player && x != *opponent && !pool.contains(&x))
                .collect();
            outside.sort_unstable_by_key(|&x| (rank(x).abs_diff(rank(player)), rank(x)));
            let room = CLOSEST.saturating_sub(pool.len());
            pool.extend(outside.into_iter().take(room));
            pool
        }
        Outcome::Bye => {
            let mut pool: Vec<u32> = st
                .players
                .iter()
                .filter(|q| q.id != player && q.pab_eligible())
                .map(|q| q.id)
                .collect();
            pool.sort_unstable_by_key(|&x| std::cmp::Reverse(rank(x)));
            pool.truncate(CLOSEST);
            let _ = p;
            pool
        }
        Outcome::NotPaired => Vec::new(),
    }
}

/// `t` with the round restricted so that `player` can meet only `other`, and `other` only
/// `player` (or, with `other` `None`, `player` meets nobody: he must have the bye): the
/// rounds' forbidden pairs (TRF-2026 260) are the engine's own input for this, so the best
/// pairing of the restricted round is the best pairing of the round in which they meet.
pub fn forced(t: &Tournament, round: u32, player: u32, other: Option<u32>) -> Result<Tournament> {
    let mut fp = t.forbidden_pairs()?;
    let ids: Vec<u32> = t.players.iter().map(|p| p.id).collect();
    let mut bar = |a: u32, keep: Option<u32>| {
        for &z in &ids {
            if z != a && Some(z) != keep {
                fp.push(ForbiddenPairs {
                    from: round,
                    to: round,
                    players: vec![a, z],
                });
            }
        }
    };
    bar(player, other);
    if let Some(o) = other {
        bar(o, Some(player));
    }
    let mut out = t.clone();
    out.settings.insert(
        FORBIDDEN_PAIRS.to_string(),
        serde_json::to_value(&fp).expect("plain data"),
    );
    Ok(out)
}

/// The best pairing of round `round` in which `player` meets `other` (for a bye
/// alternative: in which `other` has the bye), by the engine; None when no legal pairing of
/// the round has it (every system keeps the barred pairs apart, TRF-2026 260).
fn best_with(
    t: &Tournament,
    round: u32,
    system: SystemKind,
    opts: &Options,
    player: u32,
    other: u32,
    bye: bool,
) -> Option<Paired> {
    let restricted = if bye {
        forced(t, round, other, None)
    } else {
        forced(t, round, player, Some(other))
    };
    let p = engine::pair_round(&restricted.ok()?, round, system, opts).ok()?;
    let has = if bye {
        p.pairing.byes.contains(&other)
    } else {
        let ours = |w: u32, b: u32| (w, b) == (player, other) || (w, b) == (other, player);
        p.pairing.games.iter().any(|&(w, b)| ours(w, b))
    };
    (has && p.is_clean()).then_some(p)
}

/// An alternative whose round could not be paired with it forced: no legal pairing has it.
fn missed(mut alt: Alternative, bye: bool) -> Alternative {
    alt.sentence = if bye {
        "no legal pairing gives this player the bye".to_string()
    } else {
        "no legal pairing of the round lets you meet".to_string()
    };
    alt
}

#[allow(clippy::too_many_arguments)]
fn dutch_alternative(
    t: &Tournament,
    field: &Tournament,
    round: u32,
    system: SystemKind,
    opts: &Options,
    made: &Pairing,
    player: u32,
    outcome: &Outcome,
    x: u32,
) -> Alternative {
    let bye = *outcome == Outcome::Bye;
    let st = RoundState::new(field, round);
    let mut alt = Alternative {
        player: x,
        verdict: Verdict::NoPairing,
        article: None,
        bracket: None,
        tier: None,
        with_it: None,
        made: None,
        pairing: None,
        sentence: String::new(),
    };
    if !bye {
        if let (Some(a), Some(b)) = (st.index_of(player), st.index_of(x)) {
            if let Some(rule) = st.bar(a, b) {
                let why = if st.players[a].met.contains(&x) {
                    "you have met before"
                } else if rule == dutch::C1 {
                    "a forbidden pair"
                } else {
                    "you both must have the same colour"
                };
                alt.verdict = Verdict::NotAllowed;
                alt.article = Some(rule.to_string());
                alt.sentence = format!("not allowed: {why} ({})", short(rule));
                return alt;
            }
        }
    }
    let Some(best) = best_with(t, round, system, opts, player, x, bye) else {
        return missed(alt, bye);
    };
    let theirs = as_pairing(&best);
    let cmp = dutch::compare(field, round, &theirs, made);
    alt.sentence = words::comparison(field, round, &theirs, made, &cmp, "with it", "as paired");
    alt.pairing = Some(theirs);
    match cmp {
        Comparison::Criterion {
            bracket, article, ..
        } => {
            alt.verdict = Verdict::Worse;
            alt.bracket = Some(bracket);
            alt.article = Some(article);
        }
        Comparison::Order { bracket, .. } => {
            alt.verdict = Verdict::Order;
            alt.bracket = Some(bracket);
            alt.article = Some(dutch::ORDER.to_string());
        }
        Comparison::Colours {
            bracket, article, ..
        } => {
            alt.verdict = Verdict::Worse;
            alt.bracket = Some(bracket);
            alt.article = Some(article);
        }
        Comparison::Identical | Comparison::Invalid { .. } => {}
    }
    if let (Some(a), Some(b)) = (&alt.article, alt.bracket) {
        if alt.verdict == Verdict::Worse {
            if let Some((x, y)) = values_in(field, round, alt.pairing.as_ref().unwrap(), made, b, a)
            {
                alt.with_it = Some(x);
                alt.made = Some(y);
            }
        }
    }
    alt
}

/// The values of `article` in bracket `bracket` of the two pairings, in words.
fn values_in(
    field: &Tournament,
    round: u32,
    a: &Pairing,
    b: &Pairing,
    bracket: usize,
    article: &str,
) -> Option<(String, String)> {
    let ra = dutch::criteria(field, round, a).ok()?;
    let rb = dutch::criteria(field, round, b).ok()?;
    let x = ra.get(bracket - 1)?.value(article)?;
    let y = rb.get(bracket - 1)?.value(article)?;
    Some((words::value(article, x), words::value(article, y)))
}

/// An alternative judged by the system's tiers: the best pairing with it against the
/// pairing made, tier by tier (both from the engine's certificates).
#[allow(clippy::too_many_arguments)]
fn tier_alternative(
    t: &Tournament,
    round: u32,
    system: SystemKind,
    opts: &Options,
    made: &Paired,
    player: u32,
    outcome: &Outcome,
    x: u32,
) -> Alternative {
    let bye = *outcome == Outcome::Bye;
    let mut alt = Alternative {
        player: x,
        verdict: Verdict::NoPairing,
        article: None,
        bracket: None,
        tier: None,
        with_it: None,
        made: None,
        pairing: None,
        sentence: String::new(),
    };
    let Some(best) = best_with(t, round, system, opts, player, x, bye) else {
        return missed(alt, bye);
    };
    alt.pairing = Some(as_pairing(&best));
    let mine = &made.pairing.certificate.tiers;
    let theirs = &best.pairing.certificate.tiers;
    match mine
        .iter()
        .zip(theirs)
        .enumerate()
        .find(|(_, (m, o))| m.value != o.value)
    {
        Some((k, (m, o))) => {
            alt.verdict = Verdict::Worse;
            alt.tier = Some(k);
            alt.article = Some(words::citation(&m.rule));
            alt.with_it = Some(o.value.to_string());
            alt.made = Some(m.value.to_string());
            alt.sentence = format!(
                "{}: with it {}; as paired {}",
                words::rule_words(&m.name, &m.rule),
                o.value,
                m.value
            );
        }
        None => {
            alt.verdict = Verdict::Order;
            alt.sentence =
                "as good on every criterion; the system's tie rule put the pairing made first"
                    .to_string();
        }
    }
    alt
}

/// The priority of the rule an alternative loses on: its tier's place for a system judged
/// by its tiers, else the criterion's place in the table (`unknown` when it is in neither).
fn priority(a: &Alternative, unknown: usize) -> usize {
    a.tier.unwrap_or_else(|| {
        let art = a.article.as_deref().unwrap_or("");
        words::TABLE
            .iter()
            .position(|w| w.article == art)
            .unwrap_or(unknown)
    })
}

/// Ranks how close an alternative came: later brackets and lower criteria (or tiers) are
/// closer.
fn closeness(a: &Alternative) -> Option<(usize, usize)> {
    match a.verdict {
        Verdict::Worse => Some((a.bracket.unwrap_or(usize::MAX), priority(a, 0))),
        Verdict::Order => Some((a.bracket.unwrap_or(usize::MAX), usize::MAX)),
        _ => None,
    }
}

/// The rule that decided: the one on which the closest alternative lost; when every
/// alternative breaks a rule, that rule. Then one reason per rule, in priority order, naming
/// the alternatives it ruled out.
fn decide(ex: &mut Explanation) {
    let best = ex
        .alternatives
        .iter()
        .filter_map(|a| closeness(a).map(|k| (k, a)))
        .max_by_key(|(k, _)| *k)
        .map(|(_, a)| a);
    let what = match ex.outcome {
        Outcome::Game { .. } => "your opponent",
        Outcome::Bye => "who has the bye",
        Outcome::NotPaired => "nothing",
    };
    ex.decision = match best {
        Some(a) => {
            let art = a.article.clone().unwrap_or_default();
            ex.decided_by = Some(art.clone());
            headline(a, &art, what)
        }
        None if !ex.alternatives.is_empty() => {
            ex.decided_by = ex.alternatives.iter().find_map(|a| a.article.clone());
            format!("No other choice was legal ({what}).")
        }
        None => "No other choice to compare: nobody else could be paired with you.".to_string(),
    };
    ex.reasons = reasons(&ex.alternatives);
}

/// The sentence saying what decided: each fact once (the criterion's words, then the
/// closest other choice's values, or the comparison that put the pairing made first).
fn headline(a: &Alternative, art: &str, what: &str) -> String {
    let bracket = a
        .bracket
        .map_or(String::new(), |b| format!("in bracket {b}, "));
    match a.verdict {
        Verdict::Order if art.is_empty() => format!(
            "The system's tie rule decided {what}: the closest other choice, {}, is {}.",
            a.player, a.sentence
        ),
        Verdict::Order => format!(
            "The order of candidates ({art}) decided {what}: {bracket}the closest other choice, \
             {}, is as good on every criterion, and the order puts the pairing made first{}.",
            a.player,
            a.sentence
                .rsplit_once(" first (")
                .map_or(String::new(), |(_, step)| format!(
                    " ({}",
                    step.trim_end_matches('.')
                ))
        ),
        _ => format!(
            "{art} decided {what}: {bracket}{}; with the closest other choice, {}, it is {} \
             against {} as paired.",
            counts(a, art),
            a.player,
            a.with_it.as_deref().unwrap_or("worse"),
            a.made.as_deref().unwrap_or("better")
        ),
    }
}

/// What `art` counts: the table's sentence, else the system's words for its tier (the part
/// of the alternative's sentence after the citation).
fn counts<'a>(a: &'a Alternative, art: &str) -> &'a str {
    if let Some(w) = words::words(art) {
        return w.sentence;
    }
    a.sentence
        .split_once(" — ")
        .and_then(|(_, rest)| rest.rsplit_once(": with it"))
        .map_or("a rule of the system", |(name, _)| name)
}

/// One line per rule that ruled alternatives out, in the rules' priority order.
fn reasons(alts: &[Alternative]) -> Vec<String> {
    let rank = |a: &Alternative| (a.bracket.unwrap_or(0), priority(a, usize::MAX));
    let mut sorted: Vec<&Alternative> = alts.iter().collect();
    sorted.sort_by_key(|a| (a.verdict == Verdict::NoPairing, rank(a)));
    let mut out: Vec<String> = Vec::new();
    let mut last: Option<(Verdict, Option<String>)> = None;
    for a in sorted {
        let key = (a.verdict, a.article.clone());
        let item = match (&a.with_it, &a.made) {
            (Some(x), Some(y)) => format!("{} ({x} against {y})", a.player),
            _ => a.player.to_string(),
        };
        if last.as_ref() == Some(&key) {
            if let Some(l) = out.last_mut() {
                l.push_str(&format!(", {item}"));
            }
            continue;
        }
        let art = a.article.as_deref().unwrap_or("");
        out.push(match a.verdict {
            Verdict::NotAllowed => format!("{} — not allowed: {item}", short(art)),
            Verdict::Worse => format!("{} — {}: worse with {item}", short(art), counts(a, art)),
            Verdict::Order if art.is_empty() => {
                format!("as good on every criterion, after yours by the system's tie rule: {item}")
            }
            Verdict::Order => format!(
                "{} — as good on every criterion, later in the order of candidates: {item}",
                short(art)
            ),
            Verdict::NoPairing => format!("no legal pairing of the round with: {item}"),
        });
        last = Some(key);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Status;
    use crate::tournament::Player;

    /// A round the exact Dutch procedure paired is explained as proved only while its
    /// certificate is `optimal`: once the verifier could not check it whole in time
    /// (`unverified`), explain must not call it proved.
    #[test]
    fn an_unverified_dutch_pairing_is_not_explained_as_proved() {
        let players = (1..=6)
            .map(|i| Player::new(i, format!("P{i}"), 2400 - 50 * i))
            .collect();
        let t = Tournament::new("explain", players);
        let mut made = engine::pair_round(&t, 1, SystemKind::Swiss, &Options::default()).unwrap();
        assert!(made.dutch && proved(&made));
        made.pairing.certificate.status = Status::Unverified;
        assert!(!proved(&made));
    }
}
