//! Result entry: `board result` or `white black result` lines.
//!
//! * `3 1-0`: board 3 (1-based, the board the pairing sheet shows) ended 1-0.
//! * `12 5 1/2`: the game player 12 (white) v player 5 (black) was drawn: pairing numbers, as
//!   the sheets show them (`b12` in an event with several divisions). The players must be
//!   given in colour order: white first.
//! * Result notations are those of [`GameResult::parse`] (`1-0`, `0-1`, `1/2`, `=`, `+-`, `-+`,
//!   `--`, `*` …).
//! * Where games keep scores (`scoring.game_scores`, Scrabble), a game played is entered as
//!   its scores, first player's first: `3 432-377`; a bare `1-0` there is refused (it would
//!   store a game without its scores, losing the spread). Forfeits (`+-`, `-+`, `--`) and `*`
//!   are typed as in chess.
//! * Blank lines and `#` comments (whole line or the rest of a line) are skipped.
//!
//! Every line is checked before anything is recorded: one bad line leaves the tournament as it
//! was. [`plan`] says what storing would do — each board's result before and after, so that a
//! correction (`board 12: 1-0 → 0-1`) is reported, never silent — and [`store`] stores it.

use crate::tournament::{Game, GameResult, Tournament};
use crate::{Error, Result};
use std::collections::HashMap;

/// One result line as it would be stored, with what the board held before.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    /// 1-based board.
    pub board: usize,
    /// The board's number as the sheet posts it: tsh's table where `config tables` gives
    /// one, else the board.
    pub label: String,
    /// White's player id (in Scrabble, the player who goes first).
    pub white: u32,
    /// Black's player id (in Scrabble, the player who goes second).
    pub black: u32,
    /// The board's result before this line.
    pub before: GameResult,
    /// The board's game scores before this line (white/first, black/second), where kept.
    pub before_scores: Option<[i32; 2]>,
    /// The result this line records.
    pub result: GameResult,
    /// The game scores this line records (white/first, black/second), where the game keeps them
    /// (Scrabble).
    pub scores: Option<[i32; 2]>,
    /// The players as the sheets show them, `Name (number)`: white's, then black's.
    pub names: [String; 2],
}

impl Recorded {
    /// The board had another result: this line corrects it.
    pub fn is_correction(&self) -> bool {
        self.before != GameResult::Pending && !self.is_unchanged()
    }

    /// The line records what the board already held: result and scores.
    pub fn is_unchanged(&self) -> bool {
        self.before == self.result && self.before_scores == self.scores
    }

    /// `board 12 (Ann (5) v Bob (9)): 1-0 → 0-1` for a correction, `board 12 (Ann (5) v
    /// Bob (9)): 1-0` otherwise.
    pub fn describe(&self) -> String {
        let now = shown(self.result, self.scores);
        let [w, b] = &self.names;
        if self.is_correction() {
            format!(
                "board {} ({w} v {b}): {} → {now}",
                self.label,
                shown(self.before, self.before_scores)
            )
        } else {
            format!("board {} ({w} v {b}): {now}", self.label)
        }
    }
}

/// A result as typed back to a director: the game scores where they are kept.
fn shown(result: GameResult, scores: Option<[i32; 2]>) -> String {
    match scores {
        Some([a, b]) => format!("{a}-{b}"),
        None => result.notation().to_string(),
    }
}

/// The lines of a result file, checked against round `round`, nothing stored yet.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The round the results are for.
    pub round: u32,
    /// One entry per result line, in the file's order.
    pub lines: Vec<Recorded>,
    /// Boards that would still have no result once the plan is stored.
    pub missing: Vec<usize>,
    /// Those boards as the sheet posts them (tsh's tables where `config tables` gives them).
    pub missing_labels: Vec<String>,
}

/// Records the results in `text` for round `round`; returns how many were recorded.
pub fn apply(t: &mut Tournament, round: u32, text: &str) -> Result<usize> {
    let p = plan(t, round, text)?;
    store(t, &p);
    Ok(p.lines.len())
}

/// Stores a checked plan: each result on the game of its two players, so that a plan made on
/// one division of an event ([`Tournament::division`]) is stored on the same games.
pub fn store(t: &mut Tournament, p: &Plan) {
    let r = t.round_mut(p.round);
    for l in &p.lines {
        if let Some(g) = r
            .games
            .iter_mut()
            .find(|g| g.white == l.white && g.black == l.black)
        {
            g.result = l.result;
            g.scores = l.scores;
        }
    }
}

/// Checks every line of `text` against round `round` and says what storing them would do;
/// the tournament is not changed.
pub fn plan(t: &Tournament, round: u32, text: &str) -> Result<Plan> {
    let r = match t.round(round) {
        Some(r) if r.is_paired() => r,
        _ => {
            return Err(Error::field(
                "round",
                format!("round {round} is not paired yet: pair it before recording results"),
            ))
        }
    };
    let sheet = Sheet::new(t, round, &r.games);
    let games = &r.games;
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
            [board, res] => (sheet.board(n, board)?, *res, "board"),
            [white, black, res] => (sheet.pair(n, white, black)?, *res, "white"),
            _ => {
                return Err(Error::at(
                    n,
                    "line",
                    format!("expected 'board result' or 'white black result', got '{line}'"),
                ))
            }
        };
        let (res, scores) = result_of(t, n, res_text)?;
        if let Some(prev) = given.insert(gi, n) {
            let g = &games[gi];
            return Err(Error::at(
                n,
                field,
                format!(
                    "board {} ({} v {}) is given twice (first on line {prev})",
                    crate::tournament::boards::table_label(t, gi),
                    t.shown_number(g.white),
                    t.shown_number(g.black)
                ),
            ));
        }
        planned.push((gi, res, scores));
    }
    let lines: Vec<Recorded> = planned
        .into_iter()
        .map(|(gi, result, scores)| {
            let g = &games[gi];
            Recorded {
                board: gi + 1,
                label: crate::tournament::boards::table_label(t, gi),
                white: g.white,
                black: g.black,
                before: g.result,
                before_scores: g.scores,
                result,
                scores,
                names: [
                    crate::report::label(t, g.white),
                    crate::report::label(t, g.black),
                ],
            }
        })
        .collect();
    let missing = games
        .iter()
        .enumerate()
        .filter(|&(i, g)| {
            lines
                .iter()
                .find(|l| l.board == i + 1)
                .map_or(g.result, |l| l.result)
                == GameResult::Pending
        })
        .map(|(i, _)| i + 1)
        .collect::<Vec<usize>>();
    let missing_labels = missing
        .iter()
        .map(|&b| crate::tournament::boards::table_label(t, b - 1))
        .collect();
    Ok(Plan {
        round,
        lines,
        missing,
        missing_labels,
    })
}

/// A paired round's games, looked up by board and by pair as the result lines name them.
struct Sheet<'a> {
    t: &'a Tournament,
    round: u32,
    games: &'a [Game],
    /// Each (white, black) pair's game index; maps keep a long result file linear in its
    /// length.
    by_pair: HashMap<(u32, u32), usize>,
    /// The players with a game in the round.
    in_game: std::collections::HashSet<u32>,
}

impl<'a> Sheet<'a> {
    /// The sheet of round `round` of `t`, whose games are `games`.
    fn new(t: &'a Tournament, round: u32, games: &'a [Game]) -> Sheet<'a> {
        let by_pair = games
            .iter()
            .enumerate()
            .rev()
            .map(|(i, g)| ((g.white, g.black), i))
            .collect();
        let in_game = games.iter().flat_map(|g| [g.white, g.black]).collect();
        Sheet {
            t,
            round,
            games,
            by_pair,
            in_game,
        }
    }

    /// The game index of a `board result` line (line `n`).
    fn board(&self, n: usize, board: &str) -> Result<usize> {
        let (t, round, games) = (self.t, self.round, self.games);
        // The posted number: tsh's table number where `config tables` gives one.
        let b = crate::tournament::boards::board_of_table(t, board, games.len());
        let b: usize = match b {
            Some(b) => b,
            None if crate::tournament::boards::has_tables(t) => {
                return Err(Error::at(
                    n,
                    "board",
                    format!("table {board} is not on round {round}'s sheet"),
                ))
            }
            None => board
                .parse()
                .map_err(|_| Error::at(n, "board", format!("board '{board}' is not a number")))?,
        };
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
        Ok(b - 1)
    }

    /// The game index of a `white black result` line (line `n`): the pair must play in
    /// that colour order.
    fn pair(&self, n: usize, white: &str, black: &str) -> Result<usize> {
        let (t, round) = (self.t, self.round);
        let w = number(t, n, "white", white)?;
        let b = number(t, n, "black", black)?;
        if let Some(&i) = self.by_pair.get(&(w, b)) {
            return Ok(i);
        }
        if self.by_pair.contains_key(&(b, w)) {
            return Err(Error::at(
                n,
                "white",
                format!(
                    "wrong colour order: in round {round} player {black} has white \
                     against {white}; write '{black} {white} <result>'"
                ),
            ));
        }
        let paired = |id: u32| self.in_game.contains(&id);
        let (field, msg) = if !paired(w) {
            (
                "white",
                format!("result for an unpaired player: {white} has no game in round {round}"),
            )
        } else if !paired(b) {
            (
                "black",
                format!("result for an unpaired player: {black} has no game in round {round}"),
            )
        } else {
            (
                "black",
                format!("players {white} and {black} do not play each other in round {round}"),
            )
        };
        Err(Error::at(n, field, msg))
    }
}

/// The result of line `n`: a chess result, or game scores where the event keeps them (and
/// then required for a game played).
fn result_of(t: &Tournament, n: usize, res_text: &str) -> Result<(GameResult, Option<[i32; 2]>)> {
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
    if t.scoring.game_scores && res.played() && scores.is_none() {
        return Err(Error::at(
            n,
            "result",
            format!(
                "'{res_text}' has no game scores: this event keeps them (spread breaks \
                 ties), so enter the scores, first player's first (e.g. 432-377), or a \
                 forfeit (+-, -+, --)"
            ),
        ));
    }
    Ok((res, scores))
}

/// The player a `white black result` line names by number (see the module notes).
fn number(t: &Tournament, line: usize, field: &str, text: &str) -> Result<u32> {
    if let Some(id) = t.id_of_number(text) {
        return Ok(id);
    }
    let digits = text.trim_start_matches(|c: char| !c.is_ascii_digit());
    let msg = if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        format!("'{text}' is not a pairing number")
    } else if digits.len() == text.len() && t.divisions().len() > 1 {
        format!("several divisions have a player {text}: name the division, or write e.g. b{text}")
    } else {
        format!("no player has pairing number {text}")
    };
    Err(Error::at(line, field, msg))
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
