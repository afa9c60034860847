//! The rule that gave a player his colour, for the systems whose colours are not the FIDE
//! Dutch allocation: US Chess 29E, ECF's first round, and who goes first in Scrabble. Each
//! is read from the players' colours before the round, as the rule text states it; when the
//! colour made is not the one the rule gives (another rule took precedence), it says so.

use super::words::{self, *};
use crate::tournament::{Colour, Standing, Standings, Tournament};
use crate::SystemKind;

/// The article and the sentence for the colour of `player` against `opponent` in round
/// `round` (`white`: the player has white, or goes first); `None` for the systems judged by
/// the Dutch allocation.
pub(super) fn rule(
    t: &Tournament,
    round: u32,
    system: SystemKind,
    player: u32,
    opponent: u32,
    white: bool,
) -> Option<(&'static str, String)> {
    let st = Standings::before(t, round);
    let (a, b) = (st.get(player)?, st.get(opponent)?);
    match system {
        SystemKind::Uscf
        | SystemKind::UscfBatches
        | SystemKind::UscfThirds
        | SystemKind::UscfAddedScore => Some(us_chess(a, b, white)),
        SystemKind::TshCp => Some(first_second(TSH_FIRST, a, b, white)),
        SystemKind::Nsc2006 => Some(first_second(NSC_FIRST, a, b, white)),
        SystemKind::EcfBasic | SystemKind::EcfAdvanced if a.games_played() == 0 => {
            let article = if system == SystemKind::EcfBasic {
                ECF_BASIC_FIRST_ROUND
            } else {
                ECF_ADVANCED_FIRST_ROUND
            };
            Some((article, said(article, white, "you")))
        }
        _ => None,
    }
}

/// `ARTICLE gives you white: SENTENCE`.
fn said(article: &'static str, white: bool, who: &str) -> String {
    let why = words::words(article).map_or("", |w| w.sentence);
    let colour = if white { "white" } else { "black" };
    format!("{article} gives {who} {colour}: {why}")
}

/// US Chess 29E3: the colour due (equalization first, then alternation), whether
/// equalization asks for it; `None` before any game.
fn due(s: &Standing) -> Option<(Colour, bool)> {
    match s.colour_difference() {
        d if d > 0 => Some((Colour::Black, true)),
        d if d < 0 => Some((Colour::White, true)),
        _ => s.last_colour().map(|c| (c.opposite(), false)),
    }
}

/// The 29E rule for the player's colour, and why it gave it.
fn us_chess(a: &Standing, b: &Standing, white: bool) -> (&'static str, String) {
    let mine = if white { Colour::White } else { Colour::Black };
    let (da, db) = (due(a), due(b));
    let got = |d: Option<(Colour, bool)>, c: Colour| d.is_some_and(|(x, _)| x == c);
    match (da, db) {
        (None, None) => (USCF_FIRST_ROUND, said(USCF_FIRST_ROUND, white, "you")),
        (Some((x, ea)), Some((y, eb))) if x == y => {
            // Whom 29E4 gives the colour both are due: Some(true) the player, Some(false)
            // the opponent, None the higher-ranked.
            let (ia, ib) = (a.colour_difference().abs(), b.colour_difference().abs());
            let (to_me, why) = if ea != eb {
                (Some(ea), "equalization comes before alternation")
            } else if ia != ib {
                (Some(ia > ib), "the larger imbalance of whites and blacks")
            } else if let Some(had) = latest_difference(a, b) {
                (
                    Some(had == x.opposite()),
                    "the latest round in which the two had different colours",
                )
            } else {
                (None, "the higher-ranked player")
            };
            let colour = if x == Colour::White { "white" } else { "black" };
            let given_me = x == mine;
            let who = if given_me { "you" } else { "your opponent" };
            let text = if to_me.is_none_or(|m| m == given_me) {
                format!(
                    "both of you were due {colour}; {}: here {why} gives it to {who}",
                    words::cited(USCF_PRIORITY)
                )
            } else {
                format!("both of you were due {colour}; {why} gives it to the other under {}, but the pairing needed it this way", words::cited(USCF_PRIORITY))
            };
            (USCF_PRIORITY, text)
        }
        _ if got(da, mine) || got(db, mine.opposite()) => (USCF_DUE, said(USCF_DUE, white, "you")),
        _ => (
            USCF_DUE,
            format!(
                "you were not given the colour {} names: the pairing needed the other",
                words::cited(USCF_DUE)
            ),
        ),
    }
}

/// The player's colour in the latest round in which both played with different colours.
fn latest_difference(a: &Standing, b: &Standing) -> Option<Colour> {
    a.colours
        .iter()
        .zip(&b.colours)
        .rev()
        .find_map(|(x, y)| match (x, y) {
            (Some(x), Some(y)) if x != y => Some(*x),
            _ => None,
        })
}

/// Who goes first in Scrabble: fewer firsts than seconds, then second last time, then rank.
fn first_second(
    article: &'static str,
    a: &Standing,
    b: &Standing,
    first: bool,
) -> (&'static str, String) {
    let balance = |s: &Standing| {
        let (f, sd) = s.firsts_seconds();
        i64::from(f) - i64::from(sd)
    };
    let (ba, bb) = (balance(a), balance(b));
    let who = if first {
        "you go"
    } else {
        "your opponent goes"
    };
    let why = if ba != bb {
        format!("firsts minus seconds: yours {ba}, your opponent's {bb}")
    } else if a.last_colour() != b.last_colour() {
        "equal balances; the one who went second last time goes first".to_string()
    } else {
        "equal balances and the same last game; the higher-ranked goes first".to_string()
    };
    let kept = match ba.cmp(&bb) {
        std::cmp::Ordering::Less => first,
        std::cmp::Ordering::Greater => !first,
        std::cmp::Ordering::Equal => true,
    };
    let text = if kept {
        format!(
            "{} — {}: {who} first ({why})",
            article,
            words::words(article).map_or("", |w| w.sentence)
        )
    } else {
        format!(
            "{who} first against {} ({why}): another rule of the pairing took precedence",
            words::cited(article)
        )
    };
    (article, text)
}
