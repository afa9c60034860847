//! The rules in plain words: one table every report an arbiter reads takes them from (the
//! audit, the certificate, `explain`). Each article is cited once, as one string, with a
//! sentence saying what it counts and how its values read. It sits in the contract layer so
//! that both the solver's certificate and the reports above the engine may read it; the
//! independent verifier keeps its own messages (its citation strings are the same, and a test
//! holds them to this table).

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
    /// The article as cited, e.g. `FIDE Dutch 2025 C.12`.
    pub article: &'static str,
    /// What it asks, in words.
    pub sentence: &'static str,
    /// How its values read.
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
/// order of candidates and the colour allocation; then the colour rules of the other
/// systems (US Chess 29E, ECF, first/second in Scrabble).
pub const TABLE: &[Words] = &[
    w("FIDE Dutch 2025 C.1", "two players meet only once (a forfeit is no meeting), and a forbidden pair never", Unit::Count),
    w("FIDE Dutch 2025 C.2", "the pairing-allocated bye goes only to a player who may have it (no bye before, no win without playing)", Unit::Count),
    w("FIDE Dutch 2025 C.3", "two players who both must have the same colour do not meet (unless one is a topscorer)", Unit::Count),
    w("FIDE Dutch 2025 C.4", "the players left after this bracket can still all be paired", Unit::Count),
    w("FIDE Dutch 2025 C.5", "the score of the player who will get the pairing-allocated bye, as low as possible", Unit::Scores),
    w("FIDE Dutch 2025 C.6", "the number of players who float down to the next bracket, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.7", "the scores of the players who float down, highest first, as low as possible", Unit::Scores),
    w("FIDE Dutch 2025 C.8", "the next bracket must be paired as well: its floaters as few as possible, then their scores as low as possible", Unit::Lookahead),
    w("FIDE Dutch 2025 C.9", "the unplayed rounds of the player who will get the bye, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.10", "topscorers (or their opponents) whose colour difference goes beyond 2, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.11", "topscorers (or their opponents) with the same colour three times in a row, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.12", "players who do not get the colour they are due, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.13", "players who do not get a colour they are strongly due, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.14", "players who float down again after floating down in the previous round, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.15", "players who float up again after floating up in the previous round, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.16", "players who float down again after floating down two rounds before, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.17", "players who float up again after floating up two rounds before, as few as possible", Unit::Count),
    w("FIDE Dutch 2025 C.18", "the score differences of players who float down again after floating down in the previous round, largest first, as small as possible", Unit::Differences),
    w("FIDE Dutch 2025 C.19", "the score differences of players who float up again after floating up in the previous round, largest first, as small as possible", Unit::Differences),
    w("FIDE Dutch 2025 C.20", "the score differences of players who float down again after floating down two rounds before, largest first, as small as possible", Unit::Differences),
    w("FIDE Dutch 2025 C.21", "the score differences of players who float up again after floating up two rounds before, largest first, as small as possible", Unit::Differences),
    w("FIDE Dutch 2025 2.2", "two players moved down from a higher bracket are not paired with each other", Unit::Count),
    w("FIDE Dutch 2025 4", "among pairings equal on every criterion, the first in the order of transpositions and exchanges", Unit::Count),
    w("FIDE Dutch 2025 1.4.3", "who floats: after a game between different scores, the higher player floats down and the lower up; the bye and a win without playing are a downfloat", Unit::Count),
    w(COLOUR_BOTH, "both players get the colour they are due, or the only one due a colour gets it", Unit::Count),
    w(COLOUR_STRONGER, "the stronger colour preference is granted", Unit::Count),
    w(COLOUR_ALTERNATE, "equal preferences: the colours alternate from the latest round in which the two had different colours", Unit::Count),
    w(COLOUR_HIGHER, "equal preferences and histories: the higher-ranked player gets the colour he is due", Unit::Count),
    w(COLOUR_NUMBER, "neither is due a colour: the higher-ranked player gets the initial colour if his pairing number is odd, the other colour if even", Unit::Count),
    w("C.04.2 absent", "an absent player is not paired", Unit::Count),
    w("C.04.1 3", "every player present has one game or the bye", Unit::Count),
    w(USCF_FIRST_ROUND, "in the first round the colour on board 1 is decided by lot, then the colours alternate down the boards", Unit::Count),
    w(USCF_DUE, "each player gets the colour he is due: the one that equalises his whites and blacks, else the other colour from his last game", Unit::Count),
    w(USCF_PRIORITY, "both due the same colour: equalization before alternation, then the larger imbalance, then the latest round in which the two had different colours, then the higher-ranked player gets it", Unit::Count),
    w(ECF_BASIC_FIRST_ROUND, "in the first round the colour on board 1 is decided by lot (unless the regulations say otherwise) and then alternates throughout", Unit::Count),
    w(ECF_ADVANCED_FIRST_ROUND, "in the first round the colour on board 1 is decided by lot (unless the regulations say otherwise) and then alternates throughout", Unit::Count),
    w(TSH_FIRST, "the player with fewer firsts than seconds goes first; with equal balances, the one who went second last; then the higher-ranked", Unit::Count),
    w(NSC_FIRST, "the player with fewer firsts than seconds goes first; with equal balances, the one who went second last; then the higher-ranked", Unit::Count),
];

/// US Chess's colour rules (29E): the first round, the due colour, the priority of claims.
pub const USCF_FIRST_ROUND: &str = "US Chess 29E2";
/// The due colour (29E3).
pub const USCF_DUE: &str = "US Chess 29E3";
/// The priority of claims when both are due the same colour (29E4).
pub const USCF_PRIORITY: &str = "US Chess 29E4";
/// The first round's colours under ECF acceleration.
pub const ECF_BASIC_FIRST_ROUND: &str = "ECF basic 2";
/// The first round's colours under ECF advanced acceleration.
pub const ECF_ADVANCED_FIRST_ROUND: &str = "ECF advanced 2";
/// Who goes first in Scrabble: tsh's first/second balance, and NSC 2006's.
pub const TSH_FIRST: &str = "TSH07 first/second";
/// Who goes first under NSC 2006: firsts and seconds balanced.
pub const NSC_FIRST: &str = "NSC06 firsts balanced";

/// The colour allocation rules, numbered as the 2025 text numbers them.
pub const COLOUR_BOTH: &str = "FIDE Dutch 2025 5.2.1";
/// 5.2.2: the stronger colour preference is granted.
pub const COLOUR_STRONGER: &str = "FIDE Dutch 2025 5.2.2";
/// 5.2.3: equal preferences: the colours alternate from the latest round they differed.
pub const COLOUR_ALTERNATE: &str = "FIDE Dutch 2025 5.2.3";
/// 5.2.4: equal preferences and histories: the higher-ranked player gets his colour.
pub const COLOUR_HIGHER: &str = "FIDE Dutch 2025 5.2.4";
/// 5.2.5: neither is due a colour: by the higher-ranked player's pairing number.
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

/// One citation per rule: a tier's rule as the models cite it (`FIDE C.04.3 C.12`, the
/// handbook's older numbering of the same criteria) in the table's form (`FIDE Dutch 2025
/// C.12`); other rules unchanged.
pub fn citation(rule: &str) -> String {
    let digits = |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit());
    match rule.strip_prefix("FIDE C.04.3 C.") {
        Some(n) if digits(n) => format!("FIDE Dutch 2025 C.{n}"),
        Some(range) => match range.split_once("-C.") {
            Some((a, b)) if digits(a) && digits(b) => format!("FIDE Dutch 2025 C.{a}–C.{b}"),
            _ => rule.to_string(),
        },
        None => rule.to_string(),
    }
}

/// A tier or criterion in words: its rule cited once, then what it counts — the table's
/// sentence when the rule has a row, else `name` (the system's own words for its tier).
pub fn rule_words(name: &str, rule: &str) -> String {
    let cited = citation(rule);
    match words(&cited) {
        Some(w) => format!("{cited} — {}", w.sentence),
        None => format!("{cited} — {name}"),
    }
}

/// `1 pair`, `2 pairs`: a count with its noun in the right number.
pub fn count(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n.abs() == 1 { one } else { many })
}
