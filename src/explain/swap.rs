//! A swap an arbiter proposes: players A and B exchange opponents. Allowed when the two new
//! pairs break no absolute rule (met before, forbidden pair, the same absolute colour); its
//! cost is every criterion of every bracket on which the swapped pairing differs from the
//! pairing made, and the first of them is the one that decides.

use super::model::as_pairing;
use super::words::{self, cited};
use crate::engine;
use crate::solve::Options;
use crate::tournament::Tournament;
use crate::verify::dutch::state::{allocate, RoundState};
use crate::verify::dutch::{self, Pairing};
use crate::{Error, Result, SystemKind};
use serde::Serialize;

/// One criterion on which the swap changes a bracket.
#[derive(Debug, Clone, Serialize)]
pub struct SwapRow {
    /// The bracket, 1-based from the top.
    pub bracket: usize,
    /// The criterion's citation (e.g. `FIDE Dutch 2025 C.12`).
    pub article: String,
    /// What the criterion counts, in words (empty when the table has no sentence for it).
    pub sentence: String,
    /// The swapped pairing's value, in words.
    pub swapped: String,
    /// The pairing made's value, in words.
    pub made: String,
}

/// The answer for a proposed swap.
#[derive(Debug, Clone, Serialize)]
pub struct Swap {
    /// The round, 1-based.
    pub round: u32,
    /// Player A, by id.
    pub a: u32,
    /// Player B, by id.
    pub b: u32,
    /// Their opponents in the pairing made.
    pub a_opponent: u32,
    /// B's opponent in the pairing made, by id.
    pub b_opponent: u32,
    /// The new pairs break no absolute rule.
    pub allowed: bool,
    /// Why not, when not (cited rules).
    pub refusals: Vec<String>,
    /// The swapped pairing, colours by the allocation rules.
    #[serde(serialize_with = "super::model::pairing")]
    pub pairing: Pairing,
    /// Where the swapped pairing first parts from the pairing made, in words.
    pub first: String,
    /// Every criterion that changes, bracket by bracket from the top.
    pub rows: Vec<SwapRow>,
}

/// Whether players `a` and `b` may exchange opponents in round `round` (the round as the
/// engine pairs it under `system`, by the Dutch criteria) and what it costs.
pub fn swap(
    t: &Tournament,
    round: u32,
    system: SystemKind,
    a: u32,
    b: u32,
    opts: &Options,
) -> Result<Swap> {
    let made = engine::pair_round(t, round, system, opts)?;
    let base = t.before_round(round);
    let field = engine::accelerated(&base, round, system)?;
    let st = RoundState::new(&field, round);
    let made = as_pairing(&made);
    let opp = |p: u32| -> Result<u32> {
        made.games
            .iter()
            .find_map(|&(w, bl)| (w == p).then_some(bl).or_else(|| (bl == p).then_some(w)))
            .ok_or_else(|| Error::field("swap", format!("player {p} has no game in round {round}")))
    };
    let (oa, ob) = (opp(a)?, opp(b)?);
    if oa == b {
        return Err(Error::field(
            "swap",
            format!("{a} and {b} play each other: there are no opponents to swap"),
        ));
    }
    let idx = |p: u32| st.index_of(p).expect("a paired player is in the round");
    let mut refusals = Vec::new();
    let mut games: Vec<(u32, u32)> = made
        .games
        .iter()
        .copied()
        .filter(|&(w, bl)| ![a, b].contains(&w) && ![a, b].contains(&bl))
        .collect();
    for (x, y) in [(a, ob), (b, oa)] {
        let (ix, iy) = (idx(x), idx(y));
        if let Some(rule) = st.bar(ix, iy) {
            refusals.push(format!("{x} v {y}: {}", cited(rule)));
        }
        let (w, _) = allocate(&st, ix, iy);
        games.push(if w == ix { (x, y) } else { (y, x) });
    }
    let swapped = Pairing {
        games,
        bye: made.bye,
    };
    let cmp = dutch::compare(&field, round, &swapped, &made);
    let first = words::comparison(&field, round, &swapped, &made, &cmp, "swapped", "as paired");
    Ok(Swap {
        round,
        a,
        b,
        a_opponent: oa,
        b_opponent: ob,
        allowed: refusals.is_empty(),
        refusals,
        rows: rows(&field, round, &swapped, &made),
        pairing: swapped,
        first,
    })
}

/// Every criterion value that differs, bracket by bracket.
fn rows(field: &Tournament, round: u32, swapped: &Pairing, made: &Pairing) -> Vec<SwapRow> {
    let (Ok(rs), Ok(rm)) = (
        dutch::criteria(field, round, swapped),
        dutch::criteria(field, round, made),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (x, y) in rs.iter().zip(&rm) {
        for v in &x.violations {
            if !y.violations.iter().any(|u| u.article == v.article) {
                out.push(SwapRow {
                    bracket: x.bracket,
                    article: v.article.clone(),
                    sentence: words::words(&v.article).map_or(String::new(), |w| w.sentence.into()),
                    swapped: format!("breaks it ({})", v.message),
                    made: "keeps it".into(),
                });
            }
        }
        for (cx, cy) in x.criteria.iter().zip(&y.criteria) {
            if cx.value != cy.value {
                out.push(SwapRow {
                    bracket: x.bracket,
                    article: cx.article.to_string(),
                    sentence: words::words(cx.article).map_or(String::new(), |w| w.sentence.into()),
                    swapped: words::value(cx.article, &cx.value),
                    made: words::value(cy.article, &cy.value),
                });
            }
        }
    }
    out
}
