//! Result entry: `board result` or `white black result` lines.
//!
//! * `3 1-0`: board 3 (1-based, in the round's game order) ended 1-0.
//! * `12 5 1/2`: the game player 12 (white) v player 5 (black) was drawn. The players must be
//!   given in colour order: white first.
//! * Result notations are those of [`GameResult::parse`] (`1-0`, `0-1`, `1/2`, `=`, `+-`, `-+`,
//!   `--`, `*` …).
//! * Where games keep scores (`scoring.game_scores`, Scrabble), the result may be the game
//!   scores, first player's first: `3 432-377`.
//! * Blank lines and `#` comments (whole line or the rest of a line) are skipped.
//!
//! Every line is checked before anything is recorded: one bad line leaves the tournament as it
//! was.

use crate::tournament::{GameResult, Tournament};
use crate::{Error, Result};
use std::collections::HashMap;

/// Records the results in `text` for round `round`; returns how many were recorded.
pub fn apply(t: &mut Tournament, round: u32, text: &str) -> Result<usize> {
    let r = match t.round(round) {
        Some(r) if r.is_paired() => r,
        _ => {
            return Err(Error::field(
                "round",
                format!("round {round} is not paired yet: pair it before recording results"),
            ))
        }
    };
    let games = &r.games;
    // Looked up per line: maps keep a long result file linear in its length.
    let by_pair: HashMap<(u32, u32), usize> = games
        .iter()
        .enumerate()
        .rev()
        .map(|(i, g)| ((g.white, g.black), i))
        .collect();
    let in_game: std::collections::HashSet<u32> =
        games.iter().flat_map(|g| [g.white, g.black]).collect();
    // Validate every line first: (game index, result).
    let mut planned: Vec<(usize, GameResult, Option<[i32; 2]>)> = Vec::new();
    let mut given: HashMap<usize, usize> = HashMap::new(); // game index → line
    for (n, raw) in super::trf::split_lines(text) {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let (gi, res_text, field) = match words.as_slice() {
            [board, res] => {
                let b: usize = board.parse().map_err(|_| {
                    Error::at(n, "board", format!("board '{board}' is not a number"))
                })?;
                if b == 0 || b > games.len() {
                    return Err(Error::at(
                        n,
                        "board",
                        format!(
                            "board {b} is out of range: round {round} has {} board{}",
                            games.len(),
                            if games.len() == 1 { "" } else { "s" }
                        ),
                    ));
                }
                (b - 1, *res, "board")
            }
            [white, black, res] => {
                let w: u32 = white.parse().map_err(|_| {
                    Error::at(n, "white", format!("player id '{white}' is not a number"))
                })?;
                let b: u32 = black.parse().map_err(|_| {
                    Error::at(n, "black", format!("player id '{black}' is not a number"))
                })?;
                if let Some(&i) = by_pair.get(&(w, b)) {
                    (i, *res, "white")
                } else if by_pair.contains_key(&(b, w)) {
                    return Err(Error::at(
                        n,
                        "white",
                        format!(
                            "wrong colour order: in round {round} player {b} has white against \
                             {w}; write '{b} {w} <result>'"
                        ),
                    ));
                } else {
                    let paired = |id: u32| in_game.contains(&id);
                    let (field, msg) = if !paired(w) {
                        (
                            "white",
                            format!(
                                "result for an unpaired player: {w} has no game in round {round}"
                            ),
                        )
                    } else if !paired(b) {
                        (
                            "black",
                            format!(
                                "result for an unpaired player: {b} has no game in round {round}"
                            ),
                        )
                    } else {
                        (
                            "black",
                            format!("players {w} and {b} do not play each other in round {round}"),
                        )
                    };
                    return Err(Error::at(n, field, msg));
                }
            }
            _ => {
                return Err(Error::at(
                    n,
                    "line",
                    format!("expected 'board result' or 'white black result', got '{line}'"),
                ))
            }
        };
        let (res, scores) = match GameResult::parse(res_text) {
            Some(r) => (r, None),
            None => match parse_scores(res_text).filter(|_| t.scoring.game_scores) {
                Some([a, b]) => (GameResult::from_scores(a, b), Some([a, b])),
                None => {
                    return Err(Error::at(
                        n,
                        "result",
                        if t.scoring.game_scores {
                            format!(
                                "unknown result '{res_text}' (use game scores such as \
                                 432-377, or +-, -+, --)"
                            )
                        } else {
                            format!("unknown result '{res_text}' (use 1-0, 0-1, 1/2, +-, -+, --)")
                        },
                    ))
                }
            },
        };
        if let Some(prev) = given.insert(gi, n) {
            let g = &games[gi];
            return Err(Error::at(
                n,
                field,
                format!(
                    "board {} ({} v {}) is given twice (first on line {prev})",
                    gi + 1,
                    g.white,
                    g.black
                ),
            ));
        }
        planned.push((gi, res, scores));
    }
    let count = planned.len();
    let r = t.round_mut(round);
    for (gi, res, scores) in planned {
        r.games[gi].result = res;
        r.games[gi].scores = scores;
    }
    Ok(count)
}

/// Game scores `432-377` (first player's, then second's; a score may be negative, e.g.
/// `-10-350`, as after a penalty).
fn parse_scores(text: &str) -> Option<[i32; 2]> {
    let t = text.trim();
    let (neg, rest) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let (a, b) = rest.split_once('-')?;
    let a: i32 = a.parse().ok()?;
    let b: i32 = b.parse().ok()?;
    Some([if neg { -a } else { a }, b])
}
