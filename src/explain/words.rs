//! The FIDE Dutch criteria in plain words, one table for every report an arbiter reads (the
//! audit, the certificate's notes, `explain`): each article cited once, as one string, with
//! a sentence saying what it counts and how its values read. The independent verifier keeps
//! its own messages; this table is the engine side's.

use crate::tournament::Tournament;
use crate::verify::dutch::state::{self, Points};
use crate::verify::dutch::{self, Comparison, Pairing};

/// How a criterion's values read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A number of players.
    Count,
    /// Scores (points), highest first.
    Scores,
    /// Score differences, largest first; a moved-down player floating on counts above all.
    Differences,
    /// The next bracket's floaters: their number, then their scores.
    Lookahead,
}

/// One row of the table: the article as cited, the sentence, how its values read.
#[derive(Debug, Clone, Copy)]
pub struct Words {
    pub article: &'static str,
    pub sentence: &'static str,
    pub unit: Unit,
}

const fn w(article: &'static str, sentence: &'static str, unit: Unit) -> Words {
    Words {
        article,
        sentence,
        unit,
    }
}

/// Every article a Dutch comparison can name, in priority order: the absolute criteria
/// C.1–C.4, the quality criteria C.5–C.21, then the rules of the bracket procedure, the
/// order of candidates and the colour allocation.
pub const TABLE: [Words; 31] = [
    w(dutch::C1, "two players meet only once (a forfeit is no meeting), and a forbidden pair never", Unit::Count),
    w(dutch::C2, "the pairing-allocated bye goes only to a player who may have it (no bye before, no win without playing)", Unit::Count),
    w(dutch::C3, "two players who both must have the same colour do not meet (unless one is a topscorer)", Unit::Count),
    w(dutch::C4, "the players left after this bracket can still all be paired", Unit::Count),
    w(dutch::C5, "the score of the player who will get the pairing-allocated bye, as low as possible", Unit::Scores),
    w(dutch::C6, "the number of players who float down to the next bracket, as few as possible", Unit::Count),
    w(dutch::C7, "the scores of the players who float down, highest first, as low as possible", Unit::Scores),
    w(dutch::C8, "the next bracket must be paired as well: its floaters as few as possible, then their scores as low as possible", Unit::Lookahead),
    w(dutch::C9, "the unplayed rounds of the player who will get the bye, as few as possible", Unit::Count),
    w(dutch::C10, "topscorers (or their opponents) whose colour difference goes beyond 2, as few as possible", Unit::Count),
    w(dutch::C11, "topscorers (or their opponents) with the same colour three times in a row, as few as possible", Unit::Count),
    w(dutch::C12, "players who do not get the colour they are due, as few as possible", Unit::Count),
    w(dutch::C13, "players who do not get a colour they are strongly due, as few as possible", Unit::Count),
    w(dutch::C14, "players who float down again after floating down in the previous round, as few as possible", Unit::Count),
    w(dutch::C15, "players who float up again after floating up in the previous round, as few as possible", Unit::Count),
    w(dutch::C16, "players who float down again after floating down two rounds before, as few as possible", Unit::Count),
    w(dutch::C17, "players who float up again after floating up two rounds before, as few as possible", Unit::Count),
    w(dutch::C18, "the score differences of players who float down again after floating down in the previous round, largest first, as small as possible", Unit::Differences),
    w(dutch::C19, "the score differences of players who float up again after floating up in the previous round, largest first, as small as possible", Unit::Differences),
    w(dutch::C20, "the score differences of players who float down again after floating down two rounds before, largest first, as small as possible", Unit::Differences),
    w(dutch::C21, "the score differences of players who float up again after floating up two rounds before, largest first, as small as possible", Unit::Differences),
    w(dutch::PAIR_MDPS, "two players moved down from a higher bracket are not paired with each other", Unit::Count),
    w(dutch::ORDER, "among pairings equal on every criterion, the first in the order of transpositions and exchanges", Unit::Count),
    w(dutch::FLOATS, "who floats: after a game between different scores, the higher player floats down and the lower up; the bye and a win without playing are a downfloat", Unit::Count),
    w(COLOUR_BOTH, "both players get the colour they are due, or the only one due a colour gets it", Unit::Count),
    w(COLOUR_STRONGER, "the stronger colour preference is granted", Unit::Count),
    w(COLOUR_ALTERNATE, "equal preferences: the colours alternate from the latest round in which the two had different colours", Unit::Count),
    w(COLOUR_HIGHER, "equal preferences and histories: the higher-ranked player gets the colour he is due", Unit::Count),
    w(COLOUR_NUMBER, "neither is due a colour: the higher-ranked player gets the initial colour if his pairing number is odd, the other colour if even", Unit::Count),
    w(dutch::ABSENT, "an absent player is not paired", Unit::Count),
    w(dutch::ONCE, "every player present has one game or the bye", Unit::Count),
];

/// The colour allocation rules, numbered as the 2025 text numbers them.
pub const COLOUR_BOTH: &str = "FIDE Dutch 2025 5.2.1";
pub const COLOUR_STRONGER: &str = "FIDE Dutch 2025 5.2.2";
pub const COLOUR_ALTERNATE: &str = "FIDE Dutch 2025 5.2.3";
pub const COLOUR_HIGHER: &str = "FIDE Dutch 2025 5.2.4";
pub const COLOUR_NUMBER: &str = "FIDE Dutch 2025 5.2.5";

/// The row of `article` (a citation string as the verifier gives it).
pub fn words(article: &str) -> Option<&'static Words> {
    TABLE.iter().find(|w| w.article == article)
}

/// `C.12` for `FIDE Dutch 2025 C.12`: the short form a sentence uses after the full one.
pub fn short(article: &str) -> &str {
    article.strip_prefix("FIDE Dutch 2025 ").unwrap_or(article)
}

/// The article with its sentence: `FIDE Dutch 2025 C.12 — players who do not get …`.
pub fn cited(article: &str) -> String {
    match words(article) {
        Some(w) => format!("{article} — {}", w.sentence),
        None => article.to_string(),
    }
}

/// A criterion's value in words (`2`; `1.5, 1`; `none`; `impossible`).
pub fn value(article: &str, v: &[i64]) -> String {
    if v.contains(&i64::MAX) {
        return "impossible".to_string();
    }
    let unit = words(article).map_or(Unit::Count, |w| w.unit);
    match unit {
        Unit::Count | Unit::Lookahead if v.is_empty() => "0".to_string(),
        Unit::Count | Unit::Lookahead => {
            v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        }
        _ if v.is_empty() => "none".to_string(),
        Unit::Scores => v
            .iter()
            .map(|&p| state::show(p))
            .collect::<Vec<_>>()
            .join(", "),
        Unit::Differences => v
            .iter()
            .map(|&p| difference(p))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A score difference of C.18–C.21; the verifier counts a moved-down player floating on
/// above any difference.
fn difference(p: Points) -> String {
    if p >= 1_000_000_000 {
        "one floating on".to_string()
    } else {
        state::show(p)
    }
}

/// Where two pairings of a round first part, in the arbiter's words: `bracket 2: FIDE Dutch
/// 2025 C.6 — the number of players who float down …: yours 2, the Dutch pairing 0`. `first`
/// and `second` name the two pairings (`yours`, `the Dutch pairing`); `field` is the round's
/// field as the Dutch rules see it (virtual points included).
pub fn comparison(
    field: &Tournament,
    round: u32,
    a: &Pairing,
    b: &Pairing,
    cmp: &Comparison,
    first: &str,
    second: &str,
) -> String {
    match cmp {
        Comparison::Identical => "identical".to_string(),
        Comparison::Criterion {
            bracket,
            article,
            a: va,
            b: vb,
            ..
        } => {
            let (x, y) = criterion_values(field, round, a, b, *bracket, article)
                .unwrap_or_else(|| (va.clone(), vb.clone()));
            let says = words(article).map_or(String::new(), |w| format!(" — {}", w.sentence));
            format!("bracket {bracket}: {article}{says}: {first} {x}; {second} {y}")
        }
        Comparison::Colours {
            bracket,
            article,
            a_better,
            detail,
        } => format!(
            "bracket {bracket}: the same games, colours differ: {} ({detail}); {} gives them \
             as the rule does",
            cited(article),
            if *a_better { first } else { second }
        ),
        Comparison::Order {
            bracket,
            a_first,
            step,
        } => format!(
            "bracket {bracket}: equal on every criterion; the order of candidates ({}) puts \
             {} first (by the {step})",
            dutch::ORDER,
            if *a_first { first } else { second }
        ),
        Comparison::Invalid { a_invalid, finding } => format!(
            "{} is not a pairing of the round: {} ({})",
            if *a_invalid { first } else { second },
            finding.message,
            finding.article
        ),
    }
}

/// The two pairings' values of `article` in bracket `bracket`, in words; for a rule one of
/// them breaks (C.1–C.4), what breaks it and "keeps it" for the other.
fn criterion_values(
    field: &Tournament,
    round: u32,
    a: &Pairing,
    b: &Pairing,
    bracket: usize,
    article: &str,
) -> Option<(String, String)> {
    let ra = dutch::criteria(field, round, a).ok()?;
    let rb = dutch::criteria(field, round, b).ok()?;
    let (ba, bb) = (ra.get(bracket - 1)?, rb.get(bracket - 1)?);
    let broken = |r: &dutch::BracketReport| {
        r.violations
            .iter()
            .find(|v| v.article == article)
            .map(|v| format!("breaks it ({})", v.message))
    };
    if let (Some(x), Some(y)) = (ba.value(article), bb.value(article)) {
        return Some((value(article, x), value(article, y)));
    }
    Some((
        broken(ba).unwrap_or_else(|| "keeps it".to_string()),
        broken(bb).unwrap_or_else(|| "keeps it".to_string()),
    ))
}
