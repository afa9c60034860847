//! The FIDE Dutch criteria's values and comparisons in plain words, for the audit and
//! `explain`; the sentences are the one table in [`crate::spec::words`].

pub use crate::spec::words::*;
use crate::tournament::Tournament;
use crate::verify::dutch::state::{self, Points};
use crate::verify::dutch::{self, Comparison, Pairing};

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
            "bracket {bracket}: equal on every criterion, the order of candidates ({}) puts \
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
