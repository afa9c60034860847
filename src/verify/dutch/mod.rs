//! The FIDE Dutch system as C.04.3 "effective from 1 July 2025" writes it (with C.04.1 basic
//! rules and C.04.2 general handling rules, same date), written from the text alone and
//! sharing no code with the pairing engine: the state of every player before a round
//! ([`state::RoundState`]), the criteria of a given pairing bracket by bracket
//! ([`criteria`]), the comparison of two pairings ([`compare`]) and, for small fields, the
//! Dutch pairing itself by brute force ([`brute_force`]).
//!
//! # Citation strings
//!
//! Each rule is cited as one string: `FIDE Dutch 2025 C.1` … `C.21` (the criteria, numbered
//! [C1]-[C21] in the text: C.1-C.3 absolute, C.4 completion, C.5 the PAB assignee's score,
//! C.6-C.21 quality), `FIDE Dutch 2025 1.4.3` (floats), `FIDE Dutch 2025 5.2.1` … `5.2.5`
//! (colour allocation), `FIDE Dutch 2025 4` (the order of candidates), `C.04.1 4` (PAB
//! eligibility), `C.04.2` (absences, late entries, unplayed rounds).
//!
//! # Agreement with the reference engine
//!
//! [`brute_force`] (fields up to 30 players) gave the reference engine's pairing (bbpPairings
//! 6.0, 2025 rules) in every round tried: the 48 rounds of the six 16- and 21-player
//! reference tournaments, 4,204 rounds of 540 tournaments from its generator (8-30 players,
//! forfeits, half-point byes, absences, withdrawals), and 90 rounds with virtual points (XXA).
//! `examples/dutch_diff.rs` replays a file against the engine (or, with `--oracle`, against
//! the brute force).
//!
//! The criteria are cited by their `[Cn]` tags, which the 2025 text and the 2026 revision
//! share. The other article numbers were read as follows: 1.x from the 2025 text itself; the
//! bracket procedure (S1/S2, remainder, MDP-pairing) is article 2 in 2025 (its 1.3.4 sends the
//! remainder to "Article 2.3", where the 2026 text says 3.3), so two MDPs facing each other is
//! cited as 2.2; the order of candidates (article 4: 4.2 transpositions, 4.3 exchanges, 4.4
//! MDP sets) and the colour rules (5.2.1-5.2.5) are cited with the numbers the 2026 revision
//! gives the same rules; the stored copy of the 2025 page could not be read past 1.5 here.
//!
//! # Readings of the text
//!
//! * **Score** (1.2, 1.3) is the pairing score: points from the tournament's scoring plus the
//!   round's virtual points (`Player::virtual_points`, acceleration). Ranking is score, then
//!   pairing number. Topscorers (1.8) are judged on real points: more than half of the
//!   maximum possible before the last round, and only when pairing the last round
//!   (`rounds_planned`).
//! * **Games played** (C.04.1, C.04.2): a forfeited game is not a game played: it gives no
//!   colour, no meeting (the two may meet later), and counts as an unplayed round for C.9.
//!   Games of earlier rounds still pending count as played.
//! * **Floats** (1.4.2-1.4.3): after a game played between different pairing scores (before
//!   that round) the higher one has a downfloat, the lower an upfloat. The PAB, and scoring
//!   more than a loss without playing (forfeit win, full or half-point bye), give a
//!   downfloat; a forfeit loss or a zero-point absence gives no float. The 2025 text words
//!   1.4.3 as "scores without playing … more points than a loss" (the PAB is such a score);
//!   the 2026 text names the PAB explicitly: same result.
//! * **PAB eligibility** (C.04.1 4, 2025): barred after a PAB, or after scoring in one round
//!   without playing at least a win's points (a forfeit win, a full-point bye).
//! * **Brackets** (1.3, 3): from the top, each bracket is the players left unpaired above it
//!   (MDPs) and the next scoregroup. There is no collapsed bracket in the 2025 text; the
//!   completion criterion C.4 applies to every bracket. A pair is formed in the first bracket
//!   holding both its players; two MDPs are never paired with each other (S1 holds MDPs, S2
//!   residents), so a pairing that does so is no candidate of the text
//!   (`FIDE Dutch 2025 2.2`).
//! * **C.4** asks that the players not yet paired (downfloaters and everyone below) can be
//!   paired under C.1-C.3 with at most one PAB assignee, eligible (C.2). After the last
//!   bracket nothing is paired: at most one downfloater, the PAB assignee.
//! * **C.5** (the PAB assignee's score) is valued per bracket as the lowest score of a PAB
//!   assignee the rest still allows: a candidate that forces a higher one is worse, before
//!   C.6 (the reference engine agrees).
//! * **C.7** compares the downfloaters' scores in descending order, lexicographically.
//! * **C.8** "in the following bracket C.1-C.7 are complied with": valued as the fewest
//!   downfloaters the following bracket (these downfloaters as its MDPs, the next scoregroup
//!   as residents) can have, then their scores, keeping C.4 and the C.5 value. Exact up to 40
//!   players; on larger fields only the count of a maximum matching (no completion, no
//!   scores), so `compare` on large fields can miss a C.8 difference.
//! * **C.9** (unplayed games of the PAB assignee) counts only for a candidate that downfloats
//!   exactly one player (the note to C.9: "brackets that downfloat exactly one player, who
//!   will end up receiving the PAB"): that player's unplayed rounds when he may end up with
//!   the PAB (eligible, at the C.5 score), else 0. A first reading, the fewest unplayed games
//!   of whoever ends up with the PAB further down, applied C.9 to brackets whose downfloater
//!   cannot get the PAB and disagreed with the reference engine on one round in 3,884; this
//!   reading agrees on all of them.
//! * **C.10-C.13** are valued with the colours article 5 gives each pair. C.12 counts the
//!   players with a preference who do not get it; C.13 those whose preference is strong or
//!   absolute (an absolute preference lost can only happen to a topscorer or his opponent).
//!   C.10/C.11 count topscorers and topscorers' opponents who end beyond ±2, or with a third
//!   colour in a row.
//! * **C.14/C.16** count resident downfloaters (the PAB assignee included when resident) with a
//!   downfloat one/two rounds before; **C.15/C.17** residents paired with an MDP who had an
//!   upfloat then. **C.18/C.20** list the score differences of MDPs with such a downfloat:
//!   MDP minus opponent when paired; an MDP floating on counts above any difference in the
//!   bracket and grows with his score. **C.19/C.21** the differences of the MDP opponents
//!   with such an upfloat. Lists compare in descending order, lexicographically.
//! * **Order** (article 4, see [`order`]): among candidates equal on every criterion, the first
//!   the text's sequence of MDP sets, transpositions and exchanges produces.
//! * **Colours** (article 5): 5.2.1 both preferences; 5.2.2 the stronger one, two absolutes:
//!   the wider colour difference; 5.2.3 alternate from the latest round the two histories
//!   differ (C.04.2: unplayed rounds dropped, histories aligned at the latest game); 5.2.4 the
//!   higher-ranked player's preference; 5.2.5 neither has one: the higher-ranked player gets
//!   the initial colour if his number is odd. The number is his place among the players who
//!   have entered play (a player absent from the round who was never paired, in effect a late
//!   entry, is not counted), as the reference engine numbers.

pub mod brute;
pub mod eval;
pub mod order;
pub mod state;

pub use brute::brute_force;

use crate::tournament::{ByeKind, Tournament};
use eval::{Bracket, Candidate, Ctx, PairPart};
use state::RoundState;
use std::fmt;

/// Citation of C.1 (absolute): two players meet only once, and a forbidden pair never.
pub const C1: &str = "FIDE Dutch 2025 C.1";
/// Citation of C.2 (absolute): the PAB goes only to an eligible player (C.04.1 4).
pub const C2: &str = "FIDE Dutch 2025 C.2";
/// Citation of C.3 (absolute): two non-topscorers with the same absolute colour preference do not
/// meet.
pub const C3: &str = "FIDE Dutch 2025 C.3";
/// Citation of C.4 (completion): the players not yet paired can all still be paired.
pub const C4: &str = "FIDE Dutch 2025 C.4";
/// Citation of C.5: the PAB assignee's score, as low as possible.
pub const C5: &str = "FIDE Dutch 2025 C.5";
/// Citation of C.6: the number of downfloaters, as few as possible.
pub const C6: &str = "FIDE Dutch 2025 C.6";
/// Citation of C.7: the downfloaters' scores, highest first, as low as possible.
pub const C7: &str = "FIDE Dutch 2025 C.7";
/// Citation of C.8: the following bracket's downfloaters, as few and as low as possible.
pub const C8: &str = "FIDE Dutch 2025 C.8";
/// Citation of C.9: the PAB assignee's unplayed games, as few as possible.
pub const C9: &str = "FIDE Dutch 2025 C.9";
/// Citation of C.10: topscorers (or their opponents) beyond a colour difference of ±2.
pub const C10: &str = "FIDE Dutch 2025 C.10";
/// Citation of C.11: topscorers (or their opponents) with the same colour three times in a row.
pub const C11: &str = "FIDE Dutch 2025 C.11";
/// Citation of C.12: players who do not get their colour preference.
pub const C12: &str = "FIDE Dutch 2025 C.12";
/// Citation of C.13: players who do not get a strong (or absolute) colour preference.
pub const C13: &str = "FIDE Dutch 2025 C.13";
/// Citation of C.14: resident downfloaters who floated down the round before.
pub const C14: &str = "FIDE Dutch 2025 C.14";
/// Citation of C.15: MDP opponents who floated up the round before.
pub const C15: &str = "FIDE Dutch 2025 C.15";
/// Citation of C.16: resident downfloaters who floated down two rounds before.
pub const C16: &str = "FIDE Dutch 2025 C.16";
/// Citation of C.17: MDP opponents who floated up two rounds before.
pub const C17: &str = "FIDE Dutch 2025 C.17";
/// Citation of C.18: score differences of MDPs who floated down the round before.
pub const C18: &str = "FIDE Dutch 2025 C.18";
/// Citation of C.19: score differences of MDP opponents who floated up the round before.
pub const C19: &str = "FIDE Dutch 2025 C.19";
/// Citation of C.20: score differences of MDPs who floated down two rounds before.
pub const C20: &str = "FIDE Dutch 2025 C.20";
/// Citation of C.21: score differences of MDP opponents who floated up two rounds before.
pub const C21: &str = "FIDE Dutch 2025 C.21";
/// Citation: two MDPs are never paired with each other (S1 holds MDPs, S2 residents).
pub const PAIR_MDPS: &str = "FIDE Dutch 2025 2.2";
/// Citation of article 4: the order of candidates decides between equals.
pub const ORDER: &str = "FIDE Dutch 2025 4";
/// Citation of the floats rule 1.4.3: scoring more than a loss without playing is a downfloat.
pub const FLOATS: &str = "FIDE Dutch 2025 1.4.3";
/// Citation: a player absent from the round (withdrawn, not yet entered, requested bye) is not
/// paired.
pub const ABSENT: &str = "C.04.2 absent";
/// Citation: every player of the round is paired once, or has the bye.
pub const ONCE: &str = "C.04.1 3";

/// A round's pairing: games (white, black) and the pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Pairing {
    /// Games as (white, black), by id.
    pub games: Vec<(u32, u32)>,
    /// The player with the pairing-allocated bye, by id.
    pub bye: Option<u32>,
}

impl Pairing {
    /// Round `round` as recorded in `t` (games in any result, the PAB).
    pub fn recorded(t: &Tournament, round: u32) -> Option<Pairing> {
        let rd = t.round(round)?;
        if !rd.is_paired() {
            return None;
        }
        Some(Pairing {
            games: rd.games.iter().map(|g| (g.white, g.black)).collect(),
            bye: rd
                .byes
                .iter()
                .find(|b| b.kind == ByeKind::PairingAllocated)
                .map(|b| b.player),
        })
    }

    /// The same pairing with games and colours in a canonical order, for comparing.
    pub fn normalised(&self) -> Pairing {
        let mut g = self.games.clone();
        g.sort_unstable_by_key(|&(w, b)| (w.min(b), w.max(b)));
        Pairing {
            games: g,
            bye: self.bye,
        }
    }

    /// The pairing on one line, canonical order: `1-5 3-2 bye 4`.
    pub fn text(&self) -> String {
        let mut s: Vec<String> = self
            .normalised()
            .games
            .iter()
            .map(|(w, b)| format!("{w}-{b}"))
            .collect();
        if let Some(b) = self.bye {
            s.push(format!("bye {b}"));
        }
        s.join(" ")
    }
}

/// A broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's citation (e.g. [`C1`]).
    pub article: String,
    /// What is wrong, naming the players by id.
    pub message: String,
}

/// One criterion's value for a bracket (lower is better; lists compare lexicographically).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Criterion {
    /// The criterion's citation (e.g. [`C12`]).
    pub article: &'static str,
    /// Its value (scores in thousandths of a point; `i64::MAX` where impossible).
    pub value: Vec<i64>,
}

/// Whether a pair got the colours of article 5.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColourCheck {
    /// The player with white in the pairing, by id.
    pub white: u32,
    /// The player with black, by id.
    pub black: u32,
    /// Who article 5 gives white.
    pub expected_white: u32,
    /// The rule of article 5 that decides (`FIDE Dutch 2025 5.2.1` … `5.2.5`).
    pub article: &'static str,
}

impl ColourCheck {
    /// Whether the pairing gives white where article 5 does.
    pub fn ok(&self) -> bool {
        self.white == self.expected_white
    }
}

/// One bracket of a pairing, as the 2025 text builds it, with its criteria.
#[derive(Debug, Clone)]
pub struct BracketReport {
    /// 1-based from the top.
    pub bracket: usize,
    /// The residents' score (thousandths of a point).
    pub score: i64,
    /// The moved-down players (MDPs), by id.
    pub mdps: Vec<u32>,
    /// The residents (the bracket's scoregroup), by id.
    pub residents: Vec<u32>,
    /// Pairs made in this bracket (as the pairing colours them).
    pub pairs: Vec<(u32, u32)>,
    /// Players left unpaired in the bracket, by id: they float down.
    pub downfloaters: Vec<u32>,
    /// MDPs left unpaired (the Limbo): they float on.
    pub limbo: Vec<u32>,
    /// The remainder: residents not facing an MDP, paired among themselves as a homogeneous
    /// bracket (1.3.4).
    pub remainder: Vec<u32>,
    /// C.1-C.4 and 2.2 findings.
    pub violations: Vec<Finding>,
    /// C.5-C.21 in priority order.
    pub criteria: Vec<Criterion>,
    /// The colour check of each pair.
    pub colours: Vec<ColourCheck>,
}

impl BracketReport {
    /// The value of criterion `article` (e.g. [`C6`]) in this bracket, if valued.
    pub fn value(&self, article: &str) -> Option<&[i64]> {
        self.criteria
            .iter()
            .find(|c| c.article == article)
            .map(|c| c.value.as_slice())
    }
}

/// A pairing in rank indices: pairs (white, black) and the bye; or what is wrong with it.
struct Indexed {
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
}

fn index(st: &RoundState, p: &Pairing) -> Result<Indexed, Finding> {
    let mut seen = vec![false; st.players.len()];
    let mut take = |id: u32| -> Result<usize, Finding> {
        let Some(i) = st.index_of(id) else {
            let why = st
                .absent
                .iter()
                .find(|(a, _)| *a == id)
                .map_or("not a player of this round".to_string(), |(_, w)| w.clone());
            return Err(Finding {
                article: ABSENT.to_string(),
                message: format!("player {id} is paired but {why}"),
            });
        };
        if seen[i] {
            return Err(Finding {
                article: ONCE.to_string(),
                message: format!("player {id} is paired twice"),
            });
        }
        seen[i] = true;
        Ok(i)
    };
    let mut pairs = Vec::new();
    for &(w, b) in &p.games {
        let (x, y) = (take(w)?, take(b)?);
        pairs.push((x, y));
    }
    let bye = p.bye.map(&mut take).transpose()?;
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(Finding {
            article: ONCE.to_string(),
            message: format!(
                "player {} is neither paired nor given the bye",
                st.players[i].id
            ),
        });
    }
    Ok(Indexed { pairs, bye })
}

fn report(ctx: &Ctx, b: &Bracket, c: &Candidate, coloured: &[(usize, usize)]) -> BracketReport {
    let st = ctx.st;
    let f = eval::float_part(ctx, b, &c.floaters, true);
    let mut pp = PairPart::default();
    for &(x, y) in &c.pairs {
        pp.add(st, b, x, y);
    }
    let violations = eval::absolute(ctx, b, c, &f);
    let criteria = eval::vector(&f, &pp)
        .into_iter()
        .map(|(article, value)| Criterion { article, value })
        .collect();
    let mut colours = Vec::new();
    let mut pairs = Vec::new();
    for &(x, y) in &c.pairs {
        let (w, bl) = coloured
            .iter()
            .copied()
            .find(|&(p, q)| (p == x && q == y) || (p == y && q == x))
            .unwrap_or((x, y));
        let (ew, article) = state::allocate(st, w, bl);
        pairs.push((st.players[w].id, st.players[bl].id));
        colours.push(ColourCheck {
            white: st.players[w].id,
            black: st.players[bl].id,
            expected_white: st.players[ew].id,
            article,
        });
    }
    let ids = |v: &[usize]| v.iter().map(|&i| st.players[i].id).collect::<Vec<_>>();
    BracketReport {
        bracket: b.number,
        score: b.resident_score(st),
        mdps: ids(&b.mdps),
        residents: ids(&b.residents),
        pairs,
        downfloaters: ids(&c.floaters),
        limbo: ids(&c
            .floaters
            .iter()
            .copied()
            .filter(|&x| b.is_mdp(x))
            .collect::<Vec<_>>()),
        remainder: ids(&b
            .residents
            .iter()
            .copied()
            .filter(|&r| {
                !c.pairs
                    .iter()
                    .any(|&(x, y)| (x == r && b.is_mdp(y)) || (y == r && b.is_mdp(x)))
            })
            .collect::<Vec<_>>()),
        violations,
        criteria,
        colours,
    }
}

/// The brackets of `pairing` (a complete pairing of round `round`), from the top, each with
/// its absolute findings, criteria C.5-C.21 and colour checks. An error when the pairing is
/// not a pairing of the round's players (someone twice, missing, absent or unknown).
pub fn criteria(
    t: &Tournament,
    round: u32,
    pairing: &Pairing,
) -> Result<Vec<BracketReport>, Finding> {
    let st = RoundState::new(t, round);
    let ctx = Ctx::new(&st);
    let ix = index(&st, pairing)?;
    let canon: Vec<(usize, usize)> = ix
        .pairs
        .iter()
        .map(|&(x, y)| (x.min(y), x.max(y)))
        .collect();
    let mut out = Vec::new();
    for (b, c) in ctx.brackets_of(&canon) {
        out.push(report(&ctx, &b, &c, &ix.pairs));
    }
    if let (Some(last), Some(bye)) = (out.last(), ix.bye) {
        let id = st.players[bye].id;
        if !last.downfloaters.contains(&id) {
            out.last_mut().unwrap().violations.push(Finding {
                article: ONCE.to_string(),
                message: format!("{id} has the bye but is paired"),
            });
        }
    }
    Ok(out)
}

/// The first place two pairings of one round part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// The same pairing (games, colours and bye).
    Identical,
    /// Bracket `bracket` differs first on `article`; `a_better` says which pairing does
    /// better there (absolute findings count as worse than any value).
    Criterion {
        /// The bracket, 1-based from the top.
        bracket: usize,
        /// The criterion's (or broken rule's) citation.
        article: String,
        /// Whether `a` does better on it.
        a_better: bool,
        /// `a`'s value (or finding), as text.
        a: String,
        /// `b`'s value (or finding), as text.
        b: String,
    },
    /// Same pairs, different colours: the one article 5 gives is better.
    Colours {
        /// The bracket, 1-based from the top.
        bracket: usize,
        /// The rule of article 5 that decides.
        article: String,
        /// Whether `a` has the colours article 5 gives.
        a_better: bool,
        /// Who should have white against whom, by id.
        detail: String,
    },
    /// Equal on every criterion; the Dutch order of transpositions and exchanges decides.
    Order {
        /// The bracket, 1-based from the top.
        bracket: usize,
        /// Whether `a` comes first in the order.
        a_first: bool,
        /// The step of article 4 that orders them (see [`order::step`]).
        step: &'static str,
    },
    /// A pairing that is not a pairing of the round.
    Invalid {
        /// Whether `a` is the invalid one (else `b`; `a` is looked at first).
        a_invalid: bool,
        /// What is wrong with it.
        finding: Finding,
    },
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Comparison::Identical => write!(f, "identical"),
            Comparison::Criterion {
                bracket,
                article,
                a_better,
                a,
                b,
            } => write!(
                f,
                "bracket {bracket}: {article}: the first pairing is {} (first: {a}; second: {b})",
                if *a_better { "better" } else { "worse" }
            ),
            Comparison::Colours {
                bracket,
                article,
                a_better,
                detail,
            } => write!(
                f,
                "bracket {bracket}: same pairs, colours differ: {article}: the first pairing has them {} ({detail})",
                if *a_better { "right" } else { "wrong" }
            ),
            Comparison::Order {
                bracket,
                a_first,
                step,
            } => write!(
                f,
                "bracket {bracket}: equal on every criterion, differ in the Dutch order of transpositions/exchanges ({ORDER}, by the {step}): the {} pairing comes first",
                if *a_first { "first" } else { "second" }
            ),
            Comparison::Invalid { a_invalid, finding } => write!(
                f,
                "the {} pairing is not a pairing of the round: {} ({})",
                if *a_invalid { "first" } else { "second" },
                finding.message,
                finding.article
            ),
        }
    }
}

fn show_value(v: &[i64]) -> String {
    if v.is_empty() {
        return "-".to_string();
    }
    let s: Vec<String> = v
        .iter()
        .map(|x| {
            if *x == i64::MAX {
                "impossible".to_string()
            } else {
                x.to_string()
            }
        })
        .collect();
    s.join(",")
}

/// Compares pairings `a` and `b` of round `round` bracket by bracket from the top.
pub fn compare(t: &Tournament, round: u32, a: &Pairing, b: &Pairing) -> Comparison {
    let st = RoundState::new(t, round);
    let ctx = Ctx::new(&st);
    let (ia, ib) = match (index(&st, a), index(&st, b)) {
        (Err(e), _) => {
            return Comparison::Invalid {
                a_invalid: true,
                finding: e,
            }
        }
        (_, Err(e)) => {
            return Comparison::Invalid {
                a_invalid: false,
                finding: e,
            }
        }
        (Ok(x), Ok(y)) => (x, y),
    };
    let canon = |p: &[(usize, usize)]| -> Vec<(usize, usize)> {
        p.iter().map(|&(x, y)| (x.min(y), x.max(y))).collect()
    };
    let ba = ctx.brackets_of(&canon(&ia.pairs));
    let bb = ctx.brackets_of(&canon(&ib.pairs));
    for ((brk, ca), (_, cb)) in ba.iter().zip(&bb) {
        let same = {
            let mut x = ca.pairs.clone();
            let mut y = cb.pairs.clone();
            x.sort_unstable();
            y.sort_unstable();
            x == y
        };
        if same {
            for &(x, y) in &ca.pairs {
                let wa = ia
                    .pairs
                    .iter()
                    .find(|&&(p, q)| (p, q) == (x, y) || (p, q) == (y, x));
                let wb = ib
                    .pairs
                    .iter()
                    .find(|&&(p, q)| (p, q) == (x, y) || (p, q) == (y, x));
                if let (Some(&(wa, _)), Some(&(wb, _))) = (wa, wb) {
                    if wa != wb {
                        let (ew, article) = state::allocate(&st, x, y);
                        let o = if ew == x { y } else { x };
                        return Comparison::Colours {
                            bracket: brk.number,
                            article: article.to_string(),
                            a_better: wa == ew,
                            detail: format!(
                                "{} should have white against {}",
                                st.players[ew].id, st.players[o].id
                            ),
                        };
                    }
                }
            }
            continue;
        }
        let ra = report(&ctx, brk, ca, &ia.pairs);
        let rb = report(&ctx, brk, cb, &ib.pairs);
        match (ra.violations.first(), rb.violations.first()) {
            (Some(v), None) => {
                return Comparison::Criterion {
                    bracket: brk.number,
                    article: v.article.clone(),
                    a_better: false,
                    a: v.message.clone(),
                    b: "keeps the rule".to_string(),
                }
            }
            (None, Some(v)) => {
                return Comparison::Criterion {
                    bracket: brk.number,
                    article: v.article.clone(),
                    a_better: true,
                    a: "keeps the rule".to_string(),
                    b: v.message.clone(),
                }
            }
            _ => {}
        }
        for (x, y) in ra.criteria.iter().zip(&rb.criteria) {
            if x.value != y.value {
                return Comparison::Criterion {
                    bracket: brk.number,
                    article: x.article.to_string(),
                    a_better: x.value < y.value,
                    a: show_value(&x.value),
                    b: show_value(&y.value),
                };
            }
        }
        let ka = order::key(brk, ca);
        let kb = order::key(brk, cb);
        return Comparison::Order {
            bracket: brk.number,
            a_first: ka <= kb,
            step: order::step(brk, ca, cb),
        };
    }
    if ia.bye != ib.bye {
        // Same pairs everywhere cannot leave different byes; kept for safety.
        return Comparison::Criterion {
            bracket: ba.len(),
            article: C5.to_string(),
            a_better: false,
            a: format!("{:?}", ia.bye),
            b: format!("{:?}", ib.bye),
        };
    }
    Comparison::Identical
}
