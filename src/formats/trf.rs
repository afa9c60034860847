//! FIDE TRF: TRF16, TRF-2026 and the TRF(x) extensions of JaVaFo and bbpPairings (CR, LF or
//! CRLF line endings; a leading byte-order mark is kept).
//!
//! Records read into the event:
//!
//! * `012` name, `022`-`052`, `102`-`132` the event's own data;
//! * `XXR` / `142` rounds planned; `XXC white1|black1` / `152 W|B` initial colour (other XXC
//!   words such as `rank` are kept as read and not used);
//! * scoring: TRF-2026 `162` (the code at column 6, 15, …, its points in the four columns
//!   after it; a space-separated line is read too), bbpPairings' `BBW BBD BBL BBZ BBF BBU`,
//!   JaVaFo's `XXS CODE=VALUE` (advanced user manual: applied in order, `W` standing for WW BW
//!   FW FPB, `D` for WD BD HPB);
//! * TRF-2026 `240 T RRR ID…` requested byes; `260 RRR RRR ID ID…` and JaVaFo's `XXP ID ID…`
//!   (every round) forbidden pairs; TRF-2026 `250` accelerated rounds and JaVaFo's `XXA`
//!   virtual points; `192` a Dutch tournament type;
//! * `001` player lines: 5-8 start rank (the player id), 10 sex, 11-13 title, 15-47 name,
//!   49-52 rating, 54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points (checked
//!   against the results), 86-89 rank (kept), then one slot per round from column 92, every 10
//!   columns: opponent (4), colour (`w`, `b`, `-`), result.
//!
//! A manager's dummy player (a line named `spielfrei`, `bye`, `Freilos`…, with no rating and no
//! FIDE id) is no player: its games are byes for its opponents ([`take_warnings`] notes each),
//! and its line is kept as read. A game neither of whose lines gives a colour (`12 - -`) is
//! read with [`Order::Unknown`] and written back so.
//!
//! A blank slot inside the rounds paired is an absence (TRF-2026: blank is Z); after them it is
//! a player still to pair. A slot with an opponent and colour but no result (`  12 w  `) is a
//! game paired and not yet played ([`GameResult::Pending`]): TRF-2026 has no result code for
//! it and bbpPairings reads no such slot, but it is where the format puts the scheduled
//! opponent and colour, and `pair --write` stores a new round that way.
//!
//! Every line optipair does not own is kept as read, in its place, and so is every owned
//! record group whose content has not changed ([`write()`]).
//!
//! What TRF cannot hold: the order of boards (each round's games are put in the order the
//! pairing sheet posts them, [`crate::tournament::boards`]), `system`, `settings` other than
//! forbidden pairs, player `group` / `joined` / `withdrawn`, game scores, outer spaces and
//! control characters in text (trimmed, flattened); a player without a game in a paired round
//! reads back absent. What would shift columns or be cut is refused by [`write()`] with an error
//! naming the player or field: names longer than 33 characters, start ranks or ratings above
//! 9999, points that do not fit columns 81-84, more than [`MAX_ROUNDS`] rounds.
//!
//! Why one long file: reading and writing share the record layouts and the line-for-line
//! round trip (each line kept, or rewritten in the codes the file used), which splitting would
//! scatter over modules that each need all of them.

use crate::tournament::{
    Bye, ByeKind, Colour, ForbiddenPairs, Game, GameResult, Order, Player, Round, Scoring,
    Tournament, FORMAT,
};
use crate::{Error, Result};
use std::collections::{HashMap, HashSet};

/// Splits text into numbered lines (1-based) on CR, LF or CRLF; a leading byte-order mark is
/// dropped. A final line without a terminator is kept.
pub(crate) fn split_lines(text: &str) -> Vec<(usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i, mut n) = (0usize, 0usize, 1usize);
    while i < bytes.len() {
        match bytes[i] {
            b'\r' => {
                out.push((n, &text[start..i]));
                n += 1;
                i += if bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            b'\n' => {
                out.push((n, &text[start..i]));
                n += 1;
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < bytes.len() {
        out.push((n, &text[start..]));
    }
    out
}

/// The first line ending of `text`, if any.
fn line_ending(text: &str) -> Option<String> {
    let i = text.find(['\r', '\n'])?;
    Some(if text[i..].starts_with("\r\n") {
        "\r\n".to_string()
    } else {
        text[i..i + 1].to_string()
    })
}

/// Characters `from..=to` (1-based columns), clipped to the line.
fn cols(chars: &[char], from: usize, to: usize) -> String {
    let a = from.saturating_sub(1).min(chars.len());
    let b = to.min(chars.len()).max(a);
    chars[a..b].iter().collect()
}

fn opt(s: String) -> Option<String> {
    let s = s.trim();
    if s.is_empty() {
        None
    } else {
        Some(s.to_string())
    }
}

/// One player's entry for one round, as written on their own line.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Entry {
    Empty,
    Bye(ByeKind),
    Game {
        opp: u32,
        colour: Option<Colour>,
        /// Normalised result char: `1 0 = + - ` (blank = pending).
        result: char,
    },
}

struct Rec {
    line: usize,
    /// The rank column (86-89) as read.
    rank: String,
    /// The points column (81-84) as written; `None` when blank.
    points: Option<(String, f64)>,
    player: Player,
    entries: Vec<Entry>,
}

/// The start column (1-based) of round `r`'s slot.
fn slot_col(r: usize) -> usize {
    92 + 10 * (r - 1)
}

fn parse_player(line_no: usize, line: &str) -> Result<Rec> {
    let chars: Vec<char> = line.chars().collect();
    let at = |field: &str, msg: String| Error::at(line_no, field, msg);
    if chars.len() < 84 {
        let field = match chars.len() {
            0..=8 => "start rank",
            9..=47 => "name",
            48..=52 => "rating",
            _ => "points",
        };
        return Err(at(
            field,
            format!(
                "player line is truncated: {} characters, a TRF player line runs at least to \
                 column 84 (points)",
                chars.len()
            ),
        ));
    }
    let rank_text = cols(&chars, 5, 8);
    let id: u32 = rank_text.trim().parse().map_err(|_| {
        at(
            "start rank",
            format!(
                "start rank '{}' (columns 5-8) is not a number",
                rank_text.trim()
            ),
        )
    })?;
    if id == 0 {
        return Err(at("start rank", "start rank must be 1 or more".into()));
    }
    let rating_text = cols(&chars, 49, 52);
    let rating: u32 = if rating_text.trim().is_empty() {
        0
    } else {
        rating_text.trim().parse().map_err(|_| {
            at(
                "rating",
                format!(
                    "rating '{}' (columns 49-52) is not a number",
                    rating_text.trim()
                ),
            )
        })?
    };
    // Control characters read as spaces, as the writer writes them (so text round-trips).
    let text = |from, to| -> String {
        cols(&chars, from, to)
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    };
    let mut player = Player::new(id, text(15, 47).trim(), rating);
    player.title = opt(text(11, 13));
    player.federation = opt(text(54, 56));
    player.fide_id = opt(text(58, 68));
    player.sex = opt(text(10, 10));
    player.birth_date = opt(text(70, 79));

    let mut entries = Vec::new();
    let mut r = 1usize;
    loop {
        let start = slot_col(r);
        // The two separator columns before the slot must be blank.
        let gap = cols(&chars, start - 2, start - 1);
        if !gap.trim().is_empty() {
            return Err(at(
                &format!("round {r}"),
                format!(
                    "unexpected '{}' at columns {}-{}: round data is misaligned",
                    gap,
                    start - 2,
                    start - 1
                ),
            ));
        }
        if start > chars.len() {
            break;
        }
        if r > MAX_ROUNDS as usize {
            return Err(at(
                &format!("round {r}"),
                format!("round {r} (column {start}): at most {MAX_ROUNDS} rounds are supported"),
            ));
        }
        let slot: Vec<char> = cols(&chars, start, start + 7).chars().collect();
        if slot.len() < 8 {
            if slot.iter().all(|c| *c == ' ') {
                break;
            }
            return Err(at(
                &format!("round {r}"),
                format!(
                    "round {r} entry '{}' is cut short: it needs 8 columns ({}-{})",
                    slot.iter().collect::<String>(),
                    start,
                    start + 7
                ),
            ));
        }
        entries.push(parse_slot(line_no, id, r, &slot)?);
        r += 1;
    }
    // Trailing blank slots record nothing.
    while entries.last() == Some(&Entry::Empty) {
        entries.pop();
    }
    let points_text = cols(&chars, 81, 84).trim().to_string();
    let points = match points_text.parse::<f64>() {
        Ok(v) if v.is_finite() => Some((points_text, v)),
        _ if points_text.is_empty() => None,
        _ => {
            return Err(at(
                "points",
                format!("points '{points_text}' (columns 81-84) are not a number"),
            ))
        }
    };
    let rank = cols(&chars, 86, 89).trim().to_string();
    Ok(Rec {
        line: line_no,
        rank,
        points,
        player,
        entries,
    })
}

fn parse_slot(line_no: usize, id: u32, r: usize, slot: &[char]) -> Result<Entry> {
    let start = slot_col(r);
    if slot[4] != ' ' || slot[6] != ' ' {
        return Err(Error::at(
            line_no,
            &format!("round {r}"),
            format!(
                "round {r} entry '{}' (columns {}-{}) is misaligned",
                slot.iter().collect::<String>(),
                start,
                start + 7
            ),
        ));
    }
    let opp_text: String = slot[0..4].iter().collect();
    let opp_field = format!("round {r} opponent");
    let opp: Option<u32> = match opp_text.trim() {
        "" => None,
        s => match s.parse::<u32>() {
            Ok(0) => None,
            Ok(n) => Some(n),
            Err(_) => {
                return Err(Error::at(
                    line_no,
                    &opp_field,
                    format!("round {r} opponent '{s}' is not a number"),
                ))
            }
        },
    };
    let colour = match slot[5] {
        'w' | 'W' => Some(Colour::White),
        'b' | 'B' => Some(Colour::Black),
        '-' | ' ' => None,
        c => {
            return Err(Error::at(
                line_no,
                &format!("round {r} colour"),
                format!("unknown colour '{c}' in round {r} (expected w, b or -)"),
            ))
        }
    };
    let res_field = format!("round {r} result");
    let result = match slot[7].to_ascii_uppercase() {
        c @ ('1' | '0' | '=' | '+' | '-' | 'H' | 'F' | 'U' | 'Z' | ' ') => c,
        'W' => '1',
        'L' => '0',
        'D' => '=',
        '*' => ' ',
        _ => {
            return Err(Error::at(
                line_no,
                &res_field,
                format!(
                    "unknown result '{}' in round {r} (expected 1 0 = + - W D L H F U Z)",
                    slot[7]
                ),
            ))
        }
    };
    match opp {
        None => {
            if colour.is_some() && result != ' ' {
                return Err(Error::at(
                    line_no,
                    &format!("round {r} colour"),
                    format!("round {r} has a colour but no opponent"),
                ));
            }
            Ok(match result {
                ' ' => Entry::Empty,
                'U' | '+' => Entry::Bye(ByeKind::PairingAllocated),
                'F' => Entry::Bye(ByeKind::Full),
                'H' | '=' => Entry::Bye(ByeKind::Half),
                'Z' | '-' => Entry::Bye(ByeKind::Zero),
                c => {
                    return Err(Error::at(
                        line_no,
                        &res_field,
                        format!(
                            "round {r}: result '{c}' is a game result but no opponent is given"
                        ),
                    ))
                }
            })
        }
        Some(o) => {
            if o == id {
                return Err(Error::at(
                    line_no,
                    &opp_field,
                    format!("player {id} is paired against themselves in round {r}"),
                ));
            }
            if matches!(result, 'H' | 'F' | 'U' | 'Z') {
                return Err(Error::at(
                    line_no,
                    &res_field,
                    format!("round {r}: bye result '{result}' but an opponent ({o}) is given"),
                ));
            }
            Ok(Entry::Game {
                opp: o,
                colour,
                result,
            })
        }
    }
}

fn parse_points(line_no: usize, field: &str, s: &str) -> Result<f64> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(Error::at(
            line_no,
            field,
            format!("'{s}' is not a number of points"),
        )),
    }
}

/// The record codes optipair reads into the event (every other line is kept as read).
const OWNED_CODES: [&str; 26] = [
    "001", "012", "022", "032", "042", "052", "102", "112", "122", "132", "142", "152", "162",
    "XXR", "XXC", "XXS", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU", "240", "250", "260", "XXA",
];

/// The group a line is written from: one per player line (`001:ID`), per event record, and
/// one each for rounds planned, initial colour, scoring, requested byes, acceleration and
/// forbidden pairs, whichever codes the file used; `""` for a line optipair does not own.
fn group_of(kind: &str, line: &str) -> String {
    match kind {
        // By the start rank's value (`0250` and ` 250` are player 250).
        "001" => {
            let chars: Vec<char> = line.chars().collect();
            let rank = cols(&chars, 5, 8);
            match rank.trim().parse::<u32>() {
                Ok(id) => format!("001:{id}"),
                Err(_) => format!("001:{}", rank.trim()),
            }
        }
        "012" | "022" | "032" | "042" | "052" | "102" | "112" | "122" | "132" | "240" => {
            kind.to_string()
        }
        "XXR" | "142" => "rounds".into(),
        "XXC" | "152" => "colour".into(),
        "162" | "XXS" | "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => "scoring".into(),
        "250" | "XXA" => "accel".into(),
        "260" | "XXP" => "forbidden".into(),
        _ => String::new(),
    }
}

/// One TRF-2026 250 line: `points` added in rounds `first_round..=last_round` to the players
/// whose start ranks are `first_player..=last_player`.
struct Accel250 {
    line: usize,
    points: f64,
    first_round: u32,
    last_round: u32,
    first_player: u32,
    last_player: u32,
}

/// TRF-2026 250 (accelerated rounds), fixed columns: 5-8 fictitious match points (empty for
/// individual competitions), 10-13 fictitious game points (not 0.0), 15-17 first round, 19-21
/// last round, 23-26 first player, 28-31 last player.
fn parse_250(n: usize, line: &str) -> Result<Accel250> {
    let chars: Vec<char> = line.chars().collect();
    let field = |from: usize, to: usize| cols(&chars, from, to).trim().to_string();
    let bad = |what: &str, from: usize, to: usize| {
        Error::at(
            n,
            "250",
            format!(
                "TRF-2026 250: {what} (columns {from}-{to}) is '{}'; the layout is \
                 `250 MMMM GGGG RRF RRL PPPF PPPL`",
                field(from, to)
            ),
        )
    };
    if chars.len() < 31 {
        return Err(Error::at(
            n,
            "250",
            format!(
                "TRF-2026 250: the line has {} characters; it runs to column 31 (last player)",
                chars.len()
            ),
        ));
    }
    for c in [9usize, 14, 18, 22, 27] {
        if chars[c - 1] != ' ' {
            return Err(Error::at(
                n,
                "250",
                format!("TRF-2026 250: column {c} must be blank: the fields are misaligned"),
            ));
        }
    }
    let match_points = field(5, 8);
    if !match_points.is_empty() && match_points.parse::<f64>().ok() != Some(0.0) {
        return Err(bad(
            "fictitious match points, empty in an individual competition,",
            5,
            8,
        ));
    }
    let points = match field(10, 13).parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => v,
        _ => return Err(bad("fictitious game points, a number above 0.0,", 10, 13)),
    };
    let number = |from, to, what: &str| -> Result<u32> {
        match field(from, to).parse::<u32>() {
            Ok(v) if v > 0 => Ok(v),
            _ => Err(bad(what, from, to)),
        }
    };
    let first_round = number(15, 17, "the first round")?;
    let last_round = number(19, 21, "the last round")?;
    let first_player = number(23, 26, "the first player")?;
    let last_player = number(28, 31, "the last player")?;
    if first_round > last_round || last_round > MAX_ROUNDS {
        return Err(bad("the last round, from the first round to 999,", 19, 21));
    }
    if first_player > last_player {
        return Err(bad("the last player, not below the first,", 28, 31));
    }
    if !field(32, usize::MAX).is_empty() {
        return Err(Error::at(
            n,
            "250",
            format!(
                "TRF-2026 250: '{}' after column 31: one range of rounds and players a line",
                field(32, usize::MAX)
            ),
        ));
    }
    Ok(Accel250 {
        line: n,
        points,
        first_round,
        last_round,
        first_player,
        last_player,
    })
}

/// JaVaFo's `XXA NNNN pp.p pp.p …`: the start rank at columns 5-8 and round r's points at
/// column 10+5(r-1), a blank field being 0 (as bbpPairings reads it); a line that does not
/// follow the columns (`XXA 3 1`) is read word by word.
fn parse_xxa(n: usize, line: &str) -> Result<(u32, Vec<f64>)> {
    let chars: Vec<char> = line.chars().collect();
    let fixed = cols(&chars, 5, 8).trim().parse::<u32>().ok().filter(|&id| {
        id > 0
            && chars.get(3) == Some(&' ')
            && (9..=chars.len()).step_by(5).all(|c| chars[c - 1] == ' ')
    });
    if let Some(id) = fixed {
        let mut pts = Vec::new();
        let mut c = 10;
        while c <= chars.len() {
            let f = cols(&chars, c, c + 3);
            pts.push(if f.trim().is_empty() {
                0.0
            } else {
                parse_points(n, "XXA points", f.trim())?
            });
            c += 5;
        }
        return Ok((id, pts));
    }
    let mut words = line.get(3..).unwrap_or("").split_whitespace();
    let id_text = words.next().unwrap_or("");
    let id: u32 = match id_text.parse() {
        Ok(v) if v > 0 => v,
        _ => {
            return Err(Error::at(
                n,
                "XXA start rank",
                format!("acceleration start rank '{id_text}' is not a number"),
            ))
        }
    };
    let pts = words
        .map(|w| parse_points(n, "XXA points", w))
        .collect::<Result<Vec<f64>>>()?;
    Ok((id, pts))
}

/// JaVaFo's XXS (advanced user manual, "Scoring point system"): `CODE=VALUE` pairs, in one or
/// more lines, applied in order (left to right, top to bottom: a later code overrides an
/// earlier one); `W` stands for WW, BW, FW and FPB, `D` for WD, BD and HPB; codes not given
/// keep their value. optipair scores both colours alike, so a value that differs by colour is
/// refused, naming the line.
fn apply_xxs(s: &mut Scoring, xxs: &[(usize, String, f64)]) -> Result<()> {
    // (value, line) of the colour-specific codes, to compare once all are read.
    let mut by_colour: [(f64, usize); 6] = [
        (s.win, 0),
        (s.win, 0),
        (s.draw, 0),
        (s.draw, 0),
        (s.loss, 0),
        (s.loss, 0),
    ];
    const WW: usize = 0;
    const BW: usize = 1;
    const WD: usize = 2;
    const BD: usize = 3;
    const WL: usize = 4;
    const BL: usize = 5;
    for &(n, ref code, v) in xxs {
        let mut set = |i: usize| by_colour[i] = (v, n);
        match code.as_str() {
            "WW" => set(WW),
            "BW" => set(BW),
            "WD" => set(WD),
            "BD" => set(BD),
            "WL" => set(WL),
            "BL" => set(BL),
            "W" => {
                set(WW);
                set(BW);
                s.forfeit_win = v;
                s.full_bye = v;
            }
            "D" => {
                set(WD);
                set(BD);
                s.half_bye = v;
            }
            "ZPB" => s.zero_bye = v,
            "HPB" => s.half_bye = v,
            "FPB" => s.full_bye = v,
            "PAB" => s.pairing_bye = v,
            "FW" => s.forfeit_win = v,
            "FL" => s.forfeit_loss = v,
            c => {
                return Err(Error::at(
                    n,
                    "XXS",
                    format!(
                        "XXS: unknown code '{c}' (JaVaFo's codes: WW BW WD BD WL BL ZPB HPB FPB \
                         PAB FW FL, and W, D)"
                    ),
                ))
            }
        }
    }
    for (what, w, b) in [("a win", WW, BW), ("a draw", WD, BD), ("a loss", WL, BL)] {
        let ((vw, lw), (vb, lb)) = (by_colour[w], by_colour[b]);
        if vw != vb {
            return Err(Error::at(
                lw.max(lb),
                "XXS",
                format!(
                    "XXS: {what} is worth {} with white and {} with black: optipair scores both \
                     colours alike",
                    pts(vw),
                    pts(vb)
                ),
            ));
        }
    }
    s.win = by_colour[WW].0;
    s.draw = by_colour[WD].0;
    s.loss = by_colour[WL].0;
    Ok(())
}

/// The words of a TRF-2026 162 line: the spec's columns (a result code at column 6, 15, 24,
/// …, its points in the four columns after it: `162  W 3.0    D 1.0`), or, for a line that
/// does not keep them, its space-separated words (`162 W 3.0 D 1.0`).
fn words_162(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut c = 6;
    while c <= chars.len() {
        let code = chars[c - 1];
        let before = cols(&chars, c - 2, c - 1);
        let points = cols(&chars, c + 1, c + 4);
        if !code.is_ascii_alphabetic()
            || !before.trim().is_empty()
            || points.trim().parse::<f64>().is_err()
        {
            return line
                .get(3..)
                .unwrap_or("")
                .split_whitespace()
                .map(String::from)
                .collect();
        }
        out.push(code.to_string());
        out.push(points.trim().to_string());
        if !cols(&chars, c + 5, c + 8).trim().is_empty() {
            return line
                .get(3..)
                .unwrap_or("")
                .split_whitespace()
                .map(String::from)
                .collect();
        }
        c += 9;
    }
    out
}

/// Parses a TRF16 file.
pub fn parse(text: &str) -> Result<Tournament> {
    let mut t = Tournament::new("", Vec::new());
    let mut lines = Lines::default();
    for (n, line) in split_lines(text) {
        let kind: String = line.chars().take(3).collect();
        let rest = line.get(3..).unwrap_or("");
        t.trf.lines.push((group_of(&kind, line), line.to_string()));
        if OWNED_CODES.contains(&kind.as_str()) {
            t.trf.codes.insert(kind.clone());
        }
        if !lines.read_event(&mut t, n, line, &kind, rest)? {
            lines.read_pairing(&mut t, n, line, &kind, rest)?;
        }
        match kind.as_str() {
            "142" | "152" | "162" => t.trf.trf2026 = true,
            _ => {}
        }
        if kind == "XXC" || kind == "152" {
            t.trf.colour_line = true;
        }
    }
    t.trf.read = true;
    t.trf.line_ending = line_ending(text);
    lines.settle_scoring(&mut t)?;
    lines.settle_rounds(&mut t)?;
    t.trf.bom = text.starts_with('\u{feff}');
    t.trf.final_newline = text.ends_with(['\r', '\n']);
    // What optipair would write for each group now: a group still the same when the event
    // is written is written as read.
    t.trf.canonical = groups(&t)
        .map(|g| g.into_iter().map(|(k, v)| (k, v.join("\n"))).collect())
        .unwrap_or_default();
    Ok(t)
}

/// What [`parse`] reads line by line and settles once every line is read: the players' records,
/// the scoring lines, the acceleration, requested byes and forbidden pairs.
#[derive(Default)]
struct Lines {
    recs: Vec<Rec>,
    index: HashMap<u32, usize>,
    accel: Vec<(usize, u32, Vec<f64>)>,
    pab_points: Option<f64>,
    win_points: Option<f64>,
    draw_points: Option<f64>,
    xxs: Vec<(usize, String, f64)>,
    forbidden: Vec<(usize, String, ForbiddenPairs)>,
    requested: Vec<(usize, ByeKind, u32, u32)>,
    accel250: Vec<Accel250>,
    baku_192: Option<(usize, String)>,
}

impl Lines {
    /// One line of the players' or the event's records (001, 012–132, XXR/142, XXC/152, XXA);
    /// false for any other code.
    fn read_event(
        &mut self,
        t: &mut Tournament,
        n: usize,
        line: &str,
        kind: &str,
        rest: &str,
    ) -> Result<bool> {
        match kind {
            "001" => {
                let rec = parse_player(n, line)?;
                if let Some(&prev) = self.index.get(&rec.player.id) {
                    return Err(Error::at(
                        n,
                        "start rank",
                        format!(
                            "start rank {} is used twice (first on line {})",
                            rec.player.id, self.recs[prev].line
                        ),
                    ));
                }
                self.index.insert(rec.player.id, self.recs.len());
                self.recs.push(rec);
            }
            "012" => t.name = rest.trim().to_string(),
            "022" => t.event.city = opt(rest.to_string()),
            "032" => t.event.federation = opt(rest.to_string()),
            "042" => t.event.start_date = opt(rest.to_string()),
            "052" => t.event.end_date = opt(rest.to_string()),
            "102" => t.event.chief_arbiter = opt(rest.to_string()),
            "112" => t.event.deputy_arbiters.extend(opt(rest.to_string())),
            "122" => t.event.time_control = opt(rest.to_string()),
            "132" => {
                let chars: Vec<char> = line.chars().collect();
                let mut dates = Vec::new();
                let mut r = 1;
                while slot_col(r) <= chars.len() {
                    dates.push(
                        cols(&chars, slot_col(r), slot_col(r) + 7)
                            .trim()
                            .to_string(),
                    );
                    r += 1;
                }
                while dates.last().is_some_and(|d| d.is_empty()) {
                    dates.pop();
                }
                t.event.round_dates = dates;
            }
            "XXR" | "142" => {
                let s = rest.trim();
                match s.parse::<u32>() {
                    Ok(v) if v > MAX_ROUNDS => {
                        return Err(Error::at(
                            n,
                            kind,
                            format!("{v} rounds planned: at most {MAX_ROUNDS} are supported"),
                        ))
                    }
                    Ok(v) if v > 0 => t.rounds_planned = Some(v),
                    _ => {
                        return Err(Error::at(
                            n,
                            kind,
                            format!("number of rounds '{s}' is not a positive number"),
                        ))
                    }
                }
            }
            "XXC" => {
                for w in rest.split_whitespace() {
                    match w.to_ascii_lowercase().as_str() {
                        "white1" => t.initial_colour = Some(Colour::White),
                        "black1" => t.initial_colour = Some(Colour::Black),
                        _ => {}
                    }
                }
            }
            "152" => match rest.trim() {
                "W" | "w" => t.initial_colour = Some(Colour::White),
                "B" | "b" => t.initial_colour = Some(Colour::Black),
                s => {
                    return Err(Error::at(
                        n,
                        "152",
                        format!("initial colour '{s}' must be W or B"),
                    ))
                }
            },
            // JaVaFo's XXA (advanced user manual, "Accelerated rounds"): `XXA NNNN pp.p pp.p
            // …`, the points of round r at column 10+5(r-1); a blank field is 0.
            "XXA" => {
                let (id, pts) = parse_xxa(n, line)?;
                if let Some((prev, _, _)) = self.accel.iter().find(|(_, p, _)| *p == id) {
                    return Err(Error::at(
                        n,
                        "XXA start rank",
                        format!("player {id} has a second XXA line (first on line {prev})"),
                    ));
                }
                self.accel.push((n, id, pts));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// One line of the scoring, the acceleration, requested byes or forbidden pairs (the
    /// other codes are kept as read).
    fn read_pairing(
        &mut self,
        t: &mut Tournament,
        n: usize,
        line: &str,
        kind: &str,
        rest: &str,
    ) -> Result<()> {
        match kind {
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let v = parse_points(n, kind, rest.trim())?;
                let s = &mut t.scoring;
                match kind {
                    "BBW" => self.win_points = Some(v),
                    "BBD" => self.draw_points = Some(v),
                    "BBL" => s.loss = v,
                    "BBZ" => s.zero_bye = v,
                    "BBF" => s.forfeit_loss = v,
                    _ => self.pab_points = Some(v),
                }
            }
            // TRF-2026 162: `W 1.0 D 0.5 L 0.0 A 0.0 P 1.0 X 0.5`, code then points.
            "162" => {
                let words = words_162(line);
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                if words.is_empty() || !words.len().is_multiple_of(2) {
                    return Err(Error::at(
                        n,
                        "162",
                        "TRF-2026 162: expected pairs of a result code (W D L A P X) and its points",
                    ));
                }
                for pair in words.chunks(2) {
                    let v = parse_points(n, "162", pair[1])?;
                    let s = &mut t.scoring;
                    match pair[0].to_ascii_uppercase().as_str() {
                        "W" => self.win_points = Some(v),
                        "D" => self.draw_points = Some(v),
                        "L" => s.loss = v,
                        // TRF-2026 names absences A; bbpPairings 6.0 reads the same value as Z.
                        "A" | "Z" => {
                            s.zero_bye = v;
                            s.forfeit_loss = v;
                        }
                        "P" => self.pab_points = Some(v),
                        // Unknown results (adjourned games) are never read: nothing scores X.
                        "X" => {}
                        c => {
                            return Err(Error::at(
                                n,
                                "162",
                                format!("TRF-2026 162: unknown result code '{c}' (W D L A P X)"),
                            ))
                        }
                    }
                }
            }
            // JaVaFo's XXS: `WW=1 BW=1 WD=0.5 BD=0.5 WL=0 BL=0 ZPB=0 HPB=0.5 FPB=1 PAB=1 FW=1
            // FL=0` (also `W=` `D=` `L=`), applied after the other point lines.
            "XXS" => {
                for w in rest.split_whitespace() {
                    let Some((code, v)) = w.split_once('=') else {
                        return Err(Error::at(
                            n,
                            "XXS",
                            format!("XXS: '{w}' is not CODE=POINTS"),
                        ));
                    };
                    let v = parse_points(n, "XXS", v)?;
                    self.xxs.push((n, code.to_ascii_uppercase(), v));
                }
            }
            // TRF-2026 240: `240 H 006 13 12`: byes requested (F, H, Z) in a round.
            "240" => self.read_240(n, rest)?,
            // TRF-2026 192: the encoded tournament type. A Dutch type pairs with `swiss`; a
            // Dutch type with Baku acceleration only when the file gives the acceleration
            // itself (250 or XXA lines, which TRF-2026 says override the 192 method).
            "192" => {
                let code = rest.trim();
                let up = code.to_ascii_uppercase();
                if up == "FIDE_DUTCH_2025" || up == "FIDE_DUTCH" {
                    t.system = Some("swiss".to_string());
                } else if up == "FIDE_DUTCH_2025_BAKU" || up == "FIDE_DUTCH_BAKU" {
                    t.system = Some("swiss".to_string());
                    self.baku_192 = Some((n, code.to_string()));
                } else {
                    return Err(Error::at(
                        n,
                        "192",
                        format!(
                            "TRF-2026 192: tournament type '{code}' is not one optipair pairs \
                             from a TRF file (FIDE_DUTCH_2025 is); remove the line to pair by \
                             the Dutch system"
                        ),
                    ));
                }
            }
            "250" => self.accel250.push(parse_250(n, line)?),
            // TRF-2026 260: `260 RRR RRR PPPP PPPP …`, players who must not meet each
            // other in rounds first..=last. SwissSys XXP: `XXP P1 P2 …`, for every round.
            "260" | "XXP" => self.read_forbidden(n, kind, rest)?,
            _ => {}
        }
        Ok(())
    }

    /// A TRF-2026 240 line: byes requested (F, H, Z) in a round, by player.
    fn read_240(&mut self, n: usize, rest: &str) -> Result<()> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let kind = match words.first().map(|w| w.to_ascii_uppercase()).as_deref() {
            Some("F") => ByeKind::Full,
            Some("H") => ByeKind::Half,
            Some("Z") => ByeKind::Zero,
            other => {
                return Err(Error::at(
                    n,
                    "240",
                    format!(
                        "TRF-2026 240: bye type '{}' must be F, H or Z",
                        other.unwrap_or("")
                    ),
                ))
            }
        };
        let round: u32 = match words.get(1).and_then(|w| w.parse().ok()) {
            Some(r) if (1..=MAX_ROUNDS).contains(&r) => r,
            _ => {
                return Err(Error::at(
                    n,
                    "240",
                    format!(
                        "TRF-2026 240: round '{}' is not a round number (1 to {MAX_ROUNDS})",
                        words.get(1).unwrap_or(&"")
                    ),
                ))
            }
        };
        if words.len() < 3 {
            return Err(Error::at(n, "240", "TRF-2026 240: no player is named"));
        }
        for w in &words[2..] {
            match w.parse::<u32>() {
                Ok(id) if id > 0 => self.requested.push((n, kind, round, id)),
                _ => {
                    return Err(Error::at(
                        n,
                        "240",
                        format!("TRF-2026 240: player '{w}' is not a start rank"),
                    ))
                }
            }
        }
        Ok(())
    }

    /// A TRF-2026 260 or SwissSys XXP line: players who must not meet each other.
    fn read_forbidden(&mut self, n: usize, kind: &str, rest: &str) -> Result<()> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (from, to, ids) = if kind == "260" {
            let round = |i: usize| -> Result<u32> {
                match words.get(i).and_then(|w| w.parse::<u32>().ok()) {
                    Some(r) if (1..=MAX_ROUNDS).contains(&r) => Ok(r),
                    _ => Err(Error::at(
                        n,
                        "260",
                        format!(
                            "TRF-2026 260: {} round '{}' is not a round number",
                            if i == 0 { "first" } else { "last" },
                            words.get(i).unwrap_or(&"")
                        ),
                    )),
                }
            };
            (round(0)?, round(1)?, words.get(2..).unwrap_or(&[]))
        } else {
            (1, MAX_ROUNDS, &words[..])
        };
        let mut players = Vec::new();
        for w in ids {
            match w.parse::<u32>() {
                Ok(id) if id > 0 => players.push(id),
                _ => {
                    return Err(Error::at(
                        n,
                        kind,
                        format!("{kind}: player '{w}' is not a start rank"),
                    ))
                }
            }
        }
        if players.len() < 2 || from > to {
            return Err(Error::at(
                n,
                kind,
                format!(
                    "{kind}: a forbidden pair needs rounds first <= last and at least \
                     two players"
                ),
            ));
        }
        self.forbidden
            .push((n, kind.to_string(), ForbiddenPairs { from, to, players }));
        Ok(())
    }

    /// The scoring lines and the acceleration applied once every player is read (each
    /// refers to players and rounds anywhere in the file).
    fn settle_scoring(&mut self, t: &mut Tournament) -> Result<()> {
        for rec in &self.recs {
            if !rec.rank.is_empty() {
                t.trf.ranks.insert(rec.player.id, rec.rank.clone());
            }
        }
        if let Some(v) = self.win_points {
            t.scoring.win = v;
            t.scoring.forfeit_win = v;
            t.scoring.full_bye = v;
            t.scoring.pairing_bye = v;
        }
        if let Some(v) = self.draw_points {
            t.scoring.draw = v;
            t.scoring.half_bye = v;
        }
        if let Some(v) = self.pab_points {
            t.scoring.pairing_bye = v;
        }

        apply_xxs(&mut t.scoring, &self.xxs)?;

        // Acceleration: JaVaFo's XXA per player, TRF-2026 250 per range of players and rounds.
        for (n, id, pts) in std::mem::take(&mut self.accel) {
            match self.index.get(&id) {
                Some(&i) => self.recs[i].player.virtual_points = pts,
                None => {
                    return Err(Error::at(
                        n,
                        "XXA start rank",
                        format!("acceleration for player {id}, who has no 001 line"),
                    ))
                }
            }
        }
        let mut by_250: HashSet<u32> = HashSet::new();
        for a in &self.accel250 {
            for id in a.first_player..=a.last_player {
                let Some(&i) = self.index.get(&id) else {
                    return Err(Error::at(
                        a.line,
                        "250",
                        format!(
                            "TRF-2026 250: players {}-{} include {id}, who has no 001 line",
                            a.first_player, a.last_player
                        ),
                    ));
                };
                let vp = &mut self.recs[i].player.virtual_points;
                if !by_250.contains(&id) && !vp.is_empty() {
                    return Err(Error::at(
                        a.line,
                        "250",
                        format!(
                            "TRF-2026 250: player {id} also has an XXA line: give his acceleration \
                             one way"
                        ),
                    ));
                }
                by_250.insert(id);
                if vp.len() < a.last_round as usize {
                    vp.resize(a.last_round as usize, 0.0);
                }
                for r in a.first_round..=a.last_round {
                    vp[r as usize - 1] = a.points;
                }
            }
        }
        if let Some((n, code)) = self.baku_192.take() {
            if !self
                .recs
                .iter()
                .any(|r| !r.player.virtual_points.is_empty())
            {
                return Err(Error::at(
                    n,
                    "192",
                    format!(
                        "TRF-2026 192: tournament type '{code}' asks the engine to compute the Baku \
                         acceleration; optipair applies it from 250 or XXA lines, or computes it \
                         itself as the system baku: add those lines or remove this one"
                    ),
                ));
            }
        }

        for id in read_dummies(&mut self.recs, &t.scoring)? {
            // Kept in the file as read: the dummy is no player of the event.
            for (g, _) in &mut t.trf.lines {
                if *g == format!("001:{id}") {
                    g.clear();
                }
            }
        }
        self.index = self
            .recs
            .iter()
            .enumerate()
            .map(|(i, r)| (r.player.id, i))
            .collect();
        Ok(())
    }

    /// Requested byes, absences and forbidden pairs applied to the rounds read.
    fn settle_rounds(mut self, t: &mut Tournament) -> Result<()> {
        // TRF-2026 240: requested byes, in the player's slot of that round.
        for &(n, kind, round, id) in &self.requested {
            let Some(&i) = self.index.get(&id) else {
                return Err(Error::at(
                    n,
                    "240",
                    format!("TRF-2026 240: player {id} has no 001 line"),
                ));
            };
            let rec = &mut self.recs[i];
            let k = round as usize - 1;
            if rec.entries.len() <= k {
                rec.entries.resize(k + 1, Entry::Empty);
            }
            match rec.entries[k] {
                Entry::Empty => rec.entries[k] = Entry::Bye(kind),
                Entry::Bye(k2) if k2 == kind && !t.trf.byes_240.contains(&(round, id)) => {}
                Entry::Bye(_) if t.trf.byes_240.contains(&(round, id)) => {
                    return Err(Error::at(
                        n,
                        "240",
                        format!("TRF-2026 240: player {id} has two byes self.requested for round {round}"),
                    ))
                }
                _ => {
                    return Err(Error::at(
                        n,
                        "240",
                        format!(
                            "TRF-2026 240: player {id} has a bye self.requested for round {round}, but \
                             his line {} records something else in that round",
                            rec.line
                        ),
                    ))
                }
            }
            t.trf.byes_240.insert((round, id));
        }
        // The rounds paired so far: those where someone has a game or the pairing-allocated bye.
        // TRF-2026 reads a blank slot as Z; inside those rounds a blank slot is an absence (a
        // zero-point bye), as bbpPairings reads it too. After them a blank slot is a player still
        // to pair, and a bye there is one requested for a round not yet paired.
        let paired = self
            .recs
            .iter()
            .filter_map(|r| {
                r.entries.iter().rposition(|e| {
                    matches!(
                        e,
                        Entry::Game { .. } | Entry::Bye(ByeKind::PairingAllocated)
                    )
                })
            })
            .max()
            .map_or(0, |k| k + 1);
        for rec in &mut self.recs {
            if rec.entries.len() < paired {
                rec.entries.resize(paired, Entry::Empty);
            }
            for e in &mut rec.entries[..paired] {
                if *e == Entry::Empty {
                    *e = Entry::Bye(ByeKind::Zero);
                }
            }
            for (k, e) in rec.entries.iter().enumerate().skip(paired) {
                let round = k as u32 + 1;
                if matches!(e, Entry::Bye(_)) && !t.trf.byes_240.contains(&(round, rec.player.id)) {
                    t.trf.byes_slot.insert((round, rec.player.id));
                }
            }
        }
        t.rounds = build_rounds(&self.recs, &self.index)?;
        check_points(t, &self.recs)?;
        for (n, kind, fp) in &self.forbidden {
            if let Some(id) = fp.players.iter().find(|id| !self.index.contains_key(id)) {
                return Err(Error::at(
                    *n,
                    kind,
                    format!("{kind}: forbidden pair names player {id}, who has no 001 line"),
                ));
            }
        }
        if !self.forbidden.is_empty() {
            let list: Vec<ForbiddenPairs> = self.forbidden.into_iter().map(|(_, _, f)| f).collect();
            t.settings.insert(
                crate::tournament::FORBIDDEN_PAIRS.to_string(),
                serde_json::to_value(list).expect("json"),
            );
        }
        t.players = self.recs.into_iter().map(|r| r.player).collect();
        t.format = FORMAT.to_string();
        if t.initial_colour.is_none() {
            t.initial_colour = infer_initial_colour(t);
        }
        // TRF cannot hold the order of boards: the posted order is recomputed (a file that does
        // not validate is refused by its reader before any round is shown).
        if t.validate().is_ok() {
            crate::tournament::boards::post_order_all(t);
        }
        Ok(())
    }
}

/// Whether a points-column mismatch is a warning (collected by [`take_warnings`]) rather
/// than an error; set by the command line's `--points-warning`.
pub static POINTS_WARNING: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

static WARNINGS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Collects a warning for the command to print (once, however often the same file is read).
pub fn warn(msg: String) {
    if let Ok(mut w) = WARNINGS.lock() {
        if !w.contains(&msg) {
            w.push(msg);
        }
    }
}

/// The warnings collected since the last call (points-column mismatches under
/// [`POINTS_WARNING`], `config.tsh` keys not followed, dummy players read as byes).
pub fn take_warnings() -> Vec<String> {
    let all = WARNINGS
        .lock()
        .map(|mut w| std::mem::take(&mut *w))
        .unwrap_or_default();
    // A command that reads the file twice (before and after writing it) warns once.
    let mut seen = HashSet::new();
    all.into_iter().filter(|w| seen.insert(w.clone())).collect()
}

/// The points column (81-84) against the results under the file's scoring: a wrong scoring
/// (a 3-1-0 event read as 1-½-0) shows at once. The written points may count the byes
/// already requested for the round to pair, or for every round not yet paired, or not.
/// A file whose points columns are all blank or zero has not filled them: not checked.
fn check_points(t: &Tournament, recs: &[Rec]) -> Result<()> {
    if recs
        .iter()
        .all(|r| r.points.as_ref().is_none_or(|(_, v)| *v == 0.0))
    {
        return Ok(());
    }
    let last = t.last_paired_round();
    let s = &t.scoring;
    // The points through the rounds whose results are all in, through the rounds paired, and
    // with the byes requested for later rounds.
    let mut done: HashMap<u32, f64> = HashMap::new();
    let mut upto: HashMap<u32, f64> = HashMap::new();
    let mut next: HashMap<u32, f64> = HashMap::new();
    let mut all: HashMap<u32, f64> = HashMap::new();
    for r in &t.rounds {
        let complete = r.games.iter().all(|g| g.result != GameResult::Pending);
        let mut add = |id: u32, v: f64| {
            *all.entry(id).or_default() += v;
            if r.number <= last + 1 {
                *next.entry(id).or_default() += v;
            }
            if r.number <= last {
                *upto.entry(id).or_default() += v;
                if complete {
                    *done.entry(id).or_default() += v;
                }
            }
        };
        for g in &r.games {
            let (w, b) = g.result.points(s);
            add(g.white, w);
            add(g.black, b);
        }
        for b in &r.byes {
            add(b.player, b.kind.points(s));
        }
    }
    for rec in recs {
        let Some((text, written)) = &rec.points else {
            continue;
        };
        let id = rec.player.id;
        let get = |m: &HashMap<u32, f64>| m.get(&id).copied().unwrap_or(0.0);
        let (a, b) = (get(&upto), get(&all));
        // A manager may write the acceleration of the round to pair (or of the last one)
        // into the points, as bbpPairings accepts.
        let vp = &rec.player.virtual_points;
        let accel = [last, last + 1].map(|r| {
            r.checked_sub(1)
                .and_then(|i| vp.get(i as usize))
                .copied()
                .unwrap_or(0.0)
        });
        let agrees = [get(&done), a, get(&next), b].iter().any(|&real| {
            [0.0, accel[0], accel[1]]
                .iter()
                .any(|&x| (written - real - x).abs() <= 1e-6)
        });
        if !agrees {
            let msg = format!(
                "player {id} ({}): the points column says {text} but the results give {} \
                 under the file's scoring (win {}, draw {}, loss {}): check the results or the \
                 scoring lines (162, BB*, XXS)",
                rec.player.name,
                pts(a),
                pts(s.win),
                pts(s.draw),
                pts(s.loss)
            );
            if POINTS_WARNING.load(std::sync::atomic::Ordering::Relaxed) {
                warn(format!("line {}: {msg}", rec.line));
            } else {
                return Err(Error::at(rec.line, "points", msg));
            }
        }
    }
    Ok(())
}

/// A manager's dummy player (the line some write to give the bye as a game, as Swiss-Manager's
/// "spielfrei"): a known name, no rating, no FIDE id.
fn is_dummy(p: &Player) -> bool {
    const NAMES: [&str; 10] = [
        "bye",
        "spielfrei",
        "free",
        "freilos",
        "exempt",
        "exento",
        "bye player",
        "pairing bye",
        "bye (pairing)",
        "dummy",
    ];
    p.rating == 0 && p.fide_id.is_none() && NAMES.contains(&p.name.trim().to_lowercase().as_str())
}

/// Takes the managers' dummy players (see [`is_dummy`]) out of `recs` and returns their ids:
/// a game against a dummy is a bye for the real player, of the points his own line gives (a
/// win the pairing-allocated bye, or a full-point bye when the round has that already or the
/// scoring values the two differently; a draw a half-point bye; a loss a zero-point bye). Each
/// dummy is noted as a warning.
fn read_dummies(recs: &mut Vec<Rec>, s: &Scoring) -> Result<Vec<u32>> {
    let dummies: Vec<usize> = (0..recs.len())
        .filter(|&i| is_dummy(&recs[i].player))
        .collect();
    let ids: Vec<u32> = dummies.iter().map(|&i| recs[i].player.id).collect();
    if ids.is_empty() {
        return Ok(ids);
    }
    check_dummy_lines(recs, &dummies)?;
    let mut pab_rounds: HashSet<usize> = HashSet::new();
    for r in recs.iter() {
        for (k, e) in r.entries.iter().enumerate() {
            if *e == Entry::Bye(ByeKind::PairingAllocated) {
                pab_rounds.insert(k);
            }
        }
    }
    let mut notes: HashMap<u32, Vec<(usize, String)>> = HashMap::new();
    for rec in recs.iter_mut().filter(|r| !ids.contains(&r.player.id)) {
        for (k, e) in rec.entries.iter_mut().enumerate() {
            let Entry::Game { opp, result, .. } = *e else {
                continue;
            };
            if !ids.contains(&opp) {
                continue;
            }
            let kind = match result {
                '=' => ByeKind::Half,
                '0' | '-' => ByeKind::Zero,
                _ if s.pairing_bye == s.win && pab_rounds.insert(k) => ByeKind::PairingAllocated,
                _ => ByeKind::Full,
            };
            *e = Entry::Bye(kind);
            notes.entry(opp).or_default().push((
                k,
                format!(
                    "round {}: player {} {}",
                    k + 1,
                    rec.player.id,
                    bye_words(kind)
                ),
            ));
        }
    }
    for &d in &dummies {
        let r = &recs[d];
        let mut games = notes.remove(&r.player.id).unwrap_or_default();
        games.sort();
        let games: Vec<String> = games.into_iter().map(|(_, g)| g).collect();
        let what = if games.is_empty() {
            "it has no games".to_string()
        } else {
            format!("its games are byes ({})", games.join("; "))
        };
        warn(format!(
            "line {}: player {} '{}' (no rating) is read as the manager's dummy opponent, not a \
             player: {what}",
            r.line, r.player.id, r.player.name
        ));
    }
    let mut k = 0;
    recs.retain(|_| {
        k += 1;
        !dummies.contains(&(k - 1))
    });
    Ok(ids)
}

/// A game with a dummy must be on both lines; a dummy's slot whose opponent has a bye there
/// instead (a file optipair wrote back, the bye written as a bye) is that same bye.
fn check_dummy_lines(recs: &[Rec], dummies: &[usize]) -> Result<()> {
    let by_id = |id: u32| recs.iter().find(|r| r.player.id == id);
    for &d in dummies {
        let dummy = &recs[d];
        for (k, e) in dummy.entries.iter().enumerate() {
            let Entry::Game { opp, .. } = *e else {
                continue;
            };
            let back = by_id(opp).and_then(|r| r.entries.get(k).copied());
            let agrees = match back {
                Some(Entry::Game { opp: o, .. }) => o == dummy.player.id,
                Some(Entry::Bye(_)) => true,
                _ => false,
            };
            if !agrees {
                return Err(Error::at(
                    dummy.line,
                    &format!("round {} opponent", k + 1),
                    format!(
                        "round {}: the dummy line '{}' pairs it with player {opp}, whose line does \
                         not",
                        k + 1,
                        dummy.player.name
                    ),
                ));
            }
        }
        for rec in recs {
            for (k, e) in rec.entries.iter().enumerate() {
                let Entry::Game { opp, .. } = *e else {
                    continue;
                };
                let mirrored = matches!(dummy.entries.get(k),
                    Some(Entry::Game { opp: o, .. }) if *o == rec.player.id);
                if opp == dummy.player.id && !mirrored {
                    return Err(Error::at(
                        rec.line,
                        &format!("round {} opponent", k + 1),
                        format!(
                            "round {}: player {} is paired with the dummy '{}' (line {}), whose \
                             line does not pair it with him",
                            k + 1,
                            rec.player.id,
                            dummy.player.name,
                            dummy.line
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn bye_words(kind: ByeKind) -> &'static str {
    match kind {
        ByeKind::PairingAllocated => "the pairing-allocated bye",
        ByeKind::Full => "a full-point bye",
        ByeKind::Half => "a half-point bye",
        ByeKind::Zero => "a zero-point bye",
    }
}

/// Without an XXC line, the colour drawn by lot shows in round 1: the best-numbered player who
/// played got the initial colour if his pairing number (counted among those present, E.5) is
/// odd, the other colour if even.
fn infer_initial_colour(t: &Tournament) -> Option<Colour> {
    let r1 = t.round(1)?;
    let absent: Vec<u32> = r1
        .byes
        .iter()
        .filter(|b| b.kind.is_requested())
        .map(|b| b.player)
        .collect();
    let (id, colour) = r1
        .games
        .iter()
        .flat_map(|g| [(g.white, Colour::White), (g.black, Colour::Black)])
        .min_by_key(|&(id, _)| id)?;
    let number = t
        .players
        .iter()
        .filter(|p| p.id <= id && !absent.contains(&p.id) && p.active_in(1))
        .count();
    Some(if number % 2 == 1 {
        colour
    } else {
        colour.opposite()
    })
}

/// Pairs up the two lines' entries for every game, round by round.
fn build_rounds(recs: &[Rec], index: &HashMap<u32, usize>) -> Result<Vec<Round>> {
    let max_round = recs.iter().map(|r| r.entries.len()).max().unwrap_or(0);
    let mut rounds = Vec::new();
    for k in 0..max_round {
        let r = k + 1;
        let mut round = Round {
            number: r as u32,
            ..Round::default()
        };
        let mut done: HashSet<usize> = HashSet::new();
        for (i, rec) in recs.iter().enumerate() {
            let id = rec.player.id;
            match rec.entries.get(k).copied().unwrap_or(Entry::Empty) {
                Entry::Empty => {}
                Entry::Bye(kind) => round.byes.push(Bye {
                    player: id,
                    kind,
                    ..Default::default()
                }),
                Entry::Game {
                    opp,
                    colour,
                    result,
                } => {
                    if done.contains(&i) {
                        continue;
                    }
                    let field = format!("round {r} opponent");
                    let Some(&j) = index.get(&opp) else {
                        return Err(Error::at(
                            rec.line,
                            &field,
                            format!("round {r}: opponent {opp} is not a player in this file"),
                        ));
                    };
                    let other = &recs[j];
                    let theirs = other.entries.get(k).copied().unwrap_or(Entry::Empty);
                    let (o_colour, o_result) = match theirs {
                        Entry::Game {
                            opp: back,
                            colour,
                            result,
                        } if back == id => (colour, result),
                        Entry::Game { opp: q, .. } => {
                            // `opp` names someone else: is `opp` paired twice?
                            let twice =
                                index.get(&q).and_then(|&qi| match recs[qi].entries.get(k) {
                                    Some(Entry::Game { opp: b, .. }) if *b == opp => {
                                        Some(recs[qi].line)
                                    }
                                    _ => None,
                                });
                            let msg = match twice {
                                Some(ql) => format!(
                                    "player {opp} appears twice in round {r}: against {id} \
                                     (line {}) and against {q} (line {ql})",
                                    rec.line
                                ),
                                None => format!(
                                    "round {r}: line {} pairs player {id} with {opp}, but \
                                     player {opp}'s line {} gives opponent {q}",
                                    rec.line, other.line
                                ),
                            };
                            return Err(Error::at(rec.line, &field, msg));
                        }
                        _ => {
                            return Err(Error::at(
                                rec.line,
                                &field,
                                format!(
                                    "round {r}: line {} pairs player {id} with {opp}, but \
                                     player {opp}'s line {} has no game in round {r}",
                                    rec.line, other.line
                                ),
                            ))
                        }
                    };
                    let white_is_mine = match (colour, o_colour) {
                        (Some(a), Some(b)) if a == b => {
                            return Err(Error::at(
                                rec.line,
                                &format!("round {r} colour"),
                                format!(
                                    "round {r}: players {id} (line {}) and {opp} (line {}) \
                                     both have {}",
                                    rec.line,
                                    other.line,
                                    if a == Colour::White { "white" } else { "black" }
                                ),
                            ))
                        }
                        (Some(a), _) => a == Colour::White,
                        (None, Some(b)) => b == Colour::Black,
                        (None, None) => true,
                    };
                    let (w, b, wc, bc) = if white_is_mine {
                        (id, opp, result, o_result)
                    } else {
                        (opp, id, o_result, result)
                    };
                    let res = match (wc, bc) {
                        ('1', '0') => GameResult::WhiteWins,
                        ('0', '1') => GameResult::BlackWins,
                        ('=', '=') => GameResult::Draw,
                        ('+', '-') => GameResult::WhiteForfeitWin,
                        ('-', '+') => GameResult::BlackForfeitWin,
                        ('-', '-') => GameResult::DoubleForfeit,
                        (' ', ' ') => GameResult::Pending,
                        _ => {
                            return Err(Error::at(
                                rec.line,
                                &format!("round {r} result"),
                                format!(
                                    "round {r}: results disagree: player {id} (line {}) has \
                                     '{}', opponent {opp} (line {}) has '{}'",
                                    rec.line, result, other.line, o_result
                                ),
                            ))
                        }
                    };
                    done.insert(i);
                    done.insert(j);
                    // Neither line gives a colour (`12 - -`, a forfeit as many managers write
                    // it): who had white is not known, and nothing judges it.
                    let order = if colour.is_none() && o_colour.is_none() {
                        Order::Unknown
                    } else {
                        Order::Recorded
                    };
                    round.games.push(Game {
                        white: w,
                        black: b,
                        result: res,
                        order,
                        ..Default::default()
                    });
                }
            }
        }
        if !round.games.is_empty() || !round.byes.is_empty() {
            rounds.push(round);
        }
    }
    Ok(rounds)
}

/// Fits `s` in `width` characters (cut if longer), with control characters (line breaks)
/// flattened to spaces and outer spaces dropped, as the reader trims them.
fn fit(s: &str, width: usize) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let cut: String = flat.trim().chars().take(width).collect();
    cut.trim_end().to_string()
}

/// Points as TRF writes them: one decimal when that is exact, else in full.
fn pts(v: f64) -> String {
    if (v * 10.0).fract() == 0.0 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

/// `t` with every player known by his pairing number: TRF has one number per player (the
/// start rank), so a renumbered field (late entries, FIDE C.04.2) is written by pairing
/// number, players in that order, and games and byes follow. Read back, the ids are the
/// pairing numbers.
pub fn by_pairing_number(t: &Tournament) -> Tournament {
    // Divisions that each number from 1 (tsh's) share numbers: the ids stay.
    let numbers: HashSet<u32> = t.players.iter().map(|p| p.number()).collect();
    if numbers.len() < t.players.len() {
        let mut out = t.clone();
        out.players.iter_mut().for_each(|p| p.pairing_number = None);
        return out;
    }
    let map: HashMap<u32, u32> = t.players.iter().map(|p| (p.id, p.number())).collect();
    let to = |id: u32| map.get(&id).copied().unwrap_or(id);
    let mut out = t.clone();
    for p in &mut out.players {
        p.id = p.number();
        p.pairing_number = None;
    }
    out.players.sort_by_key(|p| p.id);
    for r in &mut out.rounds {
        for g in &mut r.games {
            g.white = to(g.white);
            g.black = to(g.black);
        }
        for b in &mut r.byes {
            b.player = to(b.player);
        }
    }
    out
}

/// The most rounds a TRF file is read or written with ([`super::MAX_ROUNDS`]): one 10-column
/// slot a round on every player line, so a round number far past the data (4294967295) would
/// make lines of gigabytes.
pub const MAX_ROUNDS: u32 = super::MAX_ROUNDS;

/// Points in at most `width` columns, exactly: `7.5`, `10.5`, `100` (a whole number drops its
/// `.0` when that is what makes it fit); `None` when no exact form fits.
fn pts_in(v: f64, width: usize) -> Option<String> {
    if !v.is_finite() {
        return None;
    }
    let one = pts(v);
    if one.len() <= width {
        return Some(one);
    }
    let whole = format!("{v:.0}");
    (v.fract() == 0.0 && whole.len() <= width).then_some(whole)
}

/// Writes a TRF. A file read from TRF is written back as read: every line in its place, and
/// each record group whose content has not changed — the event records, rounds planned, the
/// initial colour, the scoring, requested byes, acceleration, forbidden pairs, each player
/// line — byte for byte; a group that changed is written afresh in its place in the codes the
/// file used (TRF-2026 142 152 162 240 250 260, or TRF(x) XXR XXC BB* XXS XXA XXP), and a
/// player line that only gained rounds keeps its columns as read. An event not read from TRF
/// is written with LF line endings, TRF(x) codes. What the fixed columns cannot hold is
/// refused with the player it concerns rather than written misaligned: a start rank (or
/// opponent) above 9999, a rating above 9999, points that do not fit columns 81-84 exactly,
/// round numbers above [`MAX_ROUNDS`]. A renumbered field is written by pairing number (see
/// [`by_pairing_number`]).
pub fn write(t: &Tournament) -> Result<String> {
    if t.renumbered() {
        return write(&by_pairing_number(t));
    }
    let groups = groups(t)?;
    Ok(merge(t, &groups))
}

/// Which of two codes a group is written with: the one the file used, else the TRF-2026 one
/// for a TRF-2026 file, else the TRF(x) one.
fn code<'a>(t: &Tournament, trf2026: &'a str, trfx: &'a str) -> &'a str {
    let c = &t.trf.codes;
    if c.contains(trf2026) {
        trf2026
    } else if c.contains(trfx) || !t.trf.trf2026 {
        trfx
    } else {
        trf2026
    }
}

/// The scoring lines: `162` (TRF-2026), bbpPairings' `BB*`, or JaVaFo's `XXS`, as the file
/// had them; a scoring the first two cannot hold (a forfeit win or a bye worth other than the
/// result it stands for) is written as XXS, which holds every value.
fn scoring_lines(t: &Tournament) -> Vec<String> {
    let s = &t.scoring;
    let d = Scoring::default();
    let codes = &t.trf.codes;
    let plain = s.forfeit_win == s.win && s.full_bye == s.win && s.half_bye == s.draw;
    let bb = ["BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"]
        .iter()
        .any(|c| codes.contains(*c));
    let family = if codes.contains("XXS") || !plain {
        "XXS"
    } else if codes.contains("162") || (t.trf.trf2026 && !bb) {
        let fit = [s.win, s.draw, s.loss, s.zero_bye, s.pairing_bye]
            .iter()
            .all(|v| pts(*v).len() <= 4);
        if s.zero_bye == s.forfeit_loss && fit {
            "162"
        } else {
            "BB"
        }
    } else {
        "BB"
    };
    let mut out = Vec::new();
    match family {
        "XXS" => {
            let mut line = String::from("XXS");
            for (code, v, dv) in [
                ("WW", s.win, d.win),
                ("BW", s.win, d.win),
                ("WD", s.draw, d.draw),
                ("BD", s.draw, d.draw),
                ("WL", s.loss, d.loss),
                ("BL", s.loss, d.loss),
                ("ZPB", s.zero_bye, d.zero_bye),
                ("HPB", s.half_bye, d.half_bye),
                ("FPB", s.full_bye, d.full_bye),
                ("PAB", s.pairing_bye, d.pairing_bye),
                ("FW", s.forfeit_win, d.forfeit_win),
                ("FL", s.forfeit_loss, d.forfeit_loss),
            ] {
                if v != dv {
                    line.push_str(&format!(" {code}={}", pts(v)));
                }
            }
            if line.len() > 3 {
                out.push(line);
            }
        }
        "162" => {
            // TRF-2026 162: the values that differ from the defaults, the result code at
            // column 6 and its points at 7-10, the next pair 9 columns on.
            let mut line = String::from("162");
            for (code, v, dv) in [
                ("W", s.win, d.win),
                ("D", s.draw, d.draw),
                ("L", s.loss, d.loss),
                ("A", s.zero_bye, d.zero_bye),
                ("P", s.pairing_bye, s.win),
            ] {
                if v != dv {
                    let at = if line.len() == 3 { 5 } else { line.len() + 4 };
                    line = format!("{line:<at$}{code}{:>4}", pts(v));
                }
            }
            if line.len() > 3 {
                out.push(line);
            }
        }
        _ => {
            for (code, v, dv) in [
                ("BBW", s.win, d.win),
                ("BBD", s.draw, d.draw),
                ("BBL", s.loss, d.loss),
                ("BBZ", s.zero_bye, d.zero_bye),
                ("BBF", s.forfeit_loss, d.forfeit_loss),
                ("BBU", s.pairing_bye, s.win),
            ] {
                if v != dv {
                    out.push(format!("{code} {:>4}", pts(v)));
                }
            }
        }
    }
    out
}

/// Virtual points as TRF-2026 250 lines: one line per run of rounds with the same points and
/// per run of consecutive start ranks with the same runs. `None` when a value does not fit
/// the record (negative, or wider than its four columns).
fn lines_250(t: &Tournament) -> Option<Vec<String>> {
    // (first round, last round, points) of one player; (first, last player, their runs).
    type Runs = Vec<(u32, u32, f64)>;
    let mut ranges: Vec<(u32, u32, Runs)> = Vec::new();
    let mut players: Vec<&Player> = t.players.iter().collect();
    players.sort_by_key(|p| p.id);
    for p in players {
        let mut runs: Runs = Vec::new();
        for (i, &v) in p.virtual_points.iter().enumerate() {
            let r = i as u32 + 1;
            if v == 0.0 {
                continue;
            }
            if v < 0.0 || pts(v).len() > 4 {
                return None;
            }
            match runs.last_mut() {
                Some(run) if run.1 + 1 == r && run.2 == v => run.1 = r,
                _ => runs.push((r, r, v)),
            }
        }
        if runs.is_empty() {
            continue;
        }
        match ranges.last_mut() {
            Some(g) if g.1 + 1 == p.id && g.2 == runs => g.1 = p.id,
            _ => ranges.push((p.id, p.id, runs)),
        }
    }
    let mut lines: Vec<(u32, u32, String)> = Vec::new();
    for (first, last, runs) in &ranges {
        for &(r1, r2, v) in runs {
            lines.push((
                r1,
                *first,
                format!(
                    "250 {:4} {:>4} {r1:03} {r2:03} {first:04} {last:04}",
                    "",
                    pts(v)
                ),
            ));
        }
    }
    lines.sort_by_key(|l| (l.0, l.1));
    Some(lines.into_iter().map(|l| l.2).collect())
}

/// Each record group's lines as optipair writes them, in the order of a new file (see
/// [`group_of`]); a group with nothing to say is left out.
fn groups(t: &Tournament) -> Result<Vec<(String, Vec<String>)>> {
    check_writable(t)?;
    let mut g = header_groups(t)?;
    let slots = Slots::of(t);
    player_groups(t, slots.text, &slots.score, &mut g)?;
    // TRF-2026 240: requested byes.
    if !slots.requests.is_empty() {
        let lines = slots
            .requests
            .iter()
            .map(|((round, c), ids)| {
                let mut l = format!("240 {c} {round:03}");
                for id in ids {
                    l.push_str(&format!(" {id:>4}"));
                }
                l
            })
            .collect();
        g.push(("240".into(), lines));
    }
    let forbidden = forbidden_lines(t)?;
    if !forbidden.is_empty() {
        g.push(("forbidden".into(), forbidden));
    }
    let accel = accel_lines(t);
    if !accel.is_empty() {
        g.push(("accel".into(), accel));
    }
    Ok(g)
}

/// A player with neither game nor bye in a paired round scores nothing, but TRF-2026 reads
/// his blank slot as a zero-point bye (Z), worth the scoring's zero-bye points: under a
/// scoring where those are not 0 the file would read back with other points, so it is refused.
fn check_absences(t: &Tournament) -> Result<()> {
    if t.scoring.zero_bye == 0.0 {
        return Ok(());
    }
    let last = t.last_paired_round();
    for r in 1..=last {
        let round = t.round(r);
        let present = |id: u32| {
            round.is_some_and(|rd| {
                rd.games.iter().any(|g| g.white == id || g.black == id)
                    || rd.byes.iter().any(|b| b.player == id)
            })
        };
        if let Some(p) = t.players.iter().find(|p| !present(p.id)) {
            return refuse(
                format!("rounds[{r}]"),
                format!(
                    "player {} ({}) has no game and no bye in round {r}; TRF reads that blank \
                     round as a zero-point bye, worth {} under this scoring: record his bye \
                     in round {r}, or keep the event as .json",
                    p.id,
                    p.name,
                    pts(t.scoring.zero_bye)
                ),
            );
        }
    }
    Ok(())
}

/// A write refused: the field it names and why.
fn refuse<T>(field: String, msg: String) -> Result<T> {
    Err(Error::field(&field, msg))
}

/// Refuses, before anything is written, an event whose values TRF's columns cannot hold.
fn check_writable(t: &Tournament) -> Result<()> {
    for (i, p) in t.players.iter().enumerate() {
        if p.id > 9999 {
            return refuse(
                format!("players[{i}].id"),
                format!(
                    "player {} ({}): TRF start ranks have 4 columns (5-8), at most 9999",
                    p.id, p.name
                ),
            );
        }
        if p.rating > 9999 {
            return refuse(
                format!("players[{i}].rating"),
                format!(
                    "player {} ({}): rating {} does not fit TRF's 4 columns (49-52)",
                    p.id, p.name, p.rating
                ),
            );
        }
        let length = fit(&p.name, usize::MAX).chars().count();
        if length > 33 {
            // Cut, it would be another name; written wide, it would shift every column.
            return refuse(
                format!("players[{i}].name"),
                format!(
                    "player {} ({}): the name has {length} characters and TRF's name field \
                     (columns 15-47) holds 33; shorten it, or keep the event as .json",
                    p.id, p.name
                ),
            );
        }
        for v in &p.virtual_points {
            if !v.is_finite() {
                return refuse(
                    format!("players[{i}].virtual_points"),
                    format!(
                        "player {} ({}): virtual points {v} are not a number",
                        p.id, p.name
                    ),
                );
            }
        }
    }
    if let Some(r) = t.rounds.iter().find(|r| r.number > MAX_ROUNDS) {
        return refuse(
            "rounds".into(),
            format!(
                "round {}: a TRF file holds at most {MAX_ROUNDS} rounds (10 columns each)",
                r.number
            ),
        );
    }
    check_absences(t)?;
    if t.scoring.game_scores {
        return refuse(
            "scoring.game_scores".into(),
            "the event keeps game scores (Scrabble), which TRF cannot hold: write it as .json \
             or .t"
                .into(),
        );
    }
    Ok(())
}

/// The groups before the player lines: the event's name and details, the rounds planned,
/// the initial colour and the scoring.
fn header_groups(t: &Tournament) -> Result<Vec<(String, Vec<String>)>> {
    let src = &t.trf;
    let mut g: Vec<(String, Vec<String>)> = Vec::new();
    let line = |code: &str, v: &str| format!("{code} {}", fit(v, 200));
    g.push((
        "012".into(),
        vec![format!("012 {}", fit(&t.name, 200).trim())],
    ));
    let ev = &t.event;
    for (code, v) in [
        ("022", &ev.city),
        ("032", &ev.federation),
        ("042", &ev.start_date),
        ("052", &ev.end_date),
        ("102", &ev.chief_arbiter),
    ] {
        if let Some(v) = v {
            g.push((code.into(), vec![line(code, v)]));
        }
    }
    if !ev.deputy_arbiters.is_empty() {
        let v = ev.deputy_arbiters.iter().map(|a| line("112", a)).collect();
        g.push(("112".into(), v));
    }
    if let Some(v) = &ev.time_control {
        g.push(("122".into(), vec![line("122", v)]));
    }
    if !ev.round_dates.is_empty() {
        let mut l = format!("{:<89}", "132");
        for d in &ev.round_dates {
            l.push_str(&format!("  {:>8}", fit(d, 8)));
        }
        g.push(("132".into(), vec![l.trim_end().to_string()]));
    }
    if let Some(n) = t.rounds_planned {
        if n == 0 {
            return refuse(
                "rounds_planned".into(),
                "rounds planned must be 1 or more".into(),
            );
        }
        g.push((
            "rounds".into(),
            vec![format!("{} {n}", code(t, "142", "XXR"))],
        ));
    }
    // A file read without an initial-colour line is written without one: the reader infers
    // the same colour from the same round 1. Otherwise always written: without it a reader
    // infers the colour from round 1, which may not be the unset default (white).
    if !src.read || src.colour_line {
        let black = t.initial_colour == Some(Colour::Black);
        let l = match (code(t, "152", "XXC"), black) {
            ("152", true) => "152 B",
            ("152", false) => "152 W",
            (_, true) => "XXC black1",
            (_, false) => "XXC white1",
        };
        g.push(("colour".into(), vec![l.into()]));
    }
    let scoring = scoring_lines(t);
    if !scoring.is_empty() {
        g.push(("scoring".into(), scoring));
    }
    Ok(g)
}

/// An empty round slot (columns left blank).
const BLANK_SLOT: &str = "        ";

/// Each player's slot per round, and their score. A requested bye of a round not yet
/// paired is written as the file had it (a TRF-2026 240 line or the slot, `0000 - H`), a
/// new one as a 240 line in a TRF-2026 file and in the slot otherwise; in a paired round
/// every bye is in its slot.
struct Slots {
    /// Each player's slot text, one per round.
    text: HashMap<u32, Vec<String>>,
    /// Each player's points in the points column.
    score: HashMap<u32, f64>,
    /// The requested byes written as 240 lines, by round and kind.
    requests: std::collections::BTreeMap<(u32, char), Vec<u32>>,
}

impl Slots {
    /// The slots, scores and 240 requests of every round of `t`.
    fn of(t: &Tournament) -> Slots {
        let max_round = t.rounds.iter().map(|r| r.number).max().unwrap_or(0) as usize;
        let mut slots = Slots {
            text: HashMap::new(),
            score: HashMap::new(),
            requests: Default::default(),
        };
        for p in &t.players {
            slots
                .text
                .insert(p.id, vec![BLANK_SLOT.to_string(); max_round]);
            slots.score.insert(p.id, 0.0);
        }
        // The round to pair: the one after the last paired round once that round's results
        // are all in; while a paired round waits for results, no later round is to pair yet.
        let last = t.last_paired_round();
        let played = t
            .rounds
            .iter()
            .filter(|r| r.number <= last)
            .all(|r| r.games.iter().all(|g| g.result != GameResult::Pending));
        let next = if played { last + 1 } else { last };
        for round in &t.rounds {
            slots.games(t, round);
            slots.byes(t, round, next);
        }
        slots
    }

    /// Writes `text` (if any) in player `id`'s slot of round `r` and adds `points`.
    fn put(&mut self, id: u32, r: u32, text: Option<String>, points: f64) {
        if let (Some(v), Some(text)) = (self.text.get_mut(&id), text) {
            if r >= 1 {
                v[r as usize - 1] = text;
            }
        }
        if let Some(sc) = self.score.get_mut(&id) {
            *sc += points;
        }
    }

    /// Both players' slots of each game of `round`.
    fn games(&mut self, t: &Tournament, round: &Round) {
        for g in &round.games {
            let (wc, bc) = match g.result {
                GameResult::Pending => (' ', ' '),
                GameResult::WhiteWins => ('1', '0'),
                GameResult::Draw => ('=', '='),
                GameResult::BlackWins => ('0', '1'),
                GameResult::WhiteForfeitWin => ('+', '-'),
                GameResult::BlackForfeitWin => ('-', '+'),
                GameResult::DoubleForfeit => ('-', '-'),
            };
            let (wp, bp) = g.result.points(&t.scoring);
            let (wl, bl) = match g.order {
                Order::Recorded => ('w', 'b'),
                _ => ('-', '-'),
            };
            self.put(
                g.white,
                round.number,
                Some(format!("{:>4} {wl} {wc}", g.black)),
                wp,
            );
            self.put(
                g.black,
                round.number,
                Some(format!("{:>4} {bl} {bc}", g.white)),
                bp,
            );
        }
    }

    /// Each bye of `round`, in its slot or as a 240 request; `next` is the round to pair.
    fn byes(&mut self, t: &Tournament, round: &Round, next: u32) {
        let src = &t.trf;
        let prefer_240 = src.trf2026 || src.codes.contains("240");
        let paired = round.is_paired();
        for b in &round.byes {
            let c = match b.kind {
                ByeKind::PairingAllocated => 'U',
                ByeKind::Full => 'F',
                ByeKind::Half => 'H',
                ByeKind::Zero => 'Z',
            };
            let key = (round.number, b.player);
            let requested = b.kind.is_requested();
            let in_slot = src.byes_slot.contains(&key);
            let to_240 =
                requested && (src.byes_240.contains(&key) || (!paired && !in_slot && prefer_240));
            if to_240 {
                self.requests
                    .entry((round.number, c))
                    .or_default()
                    .push(b.player);
            }
            // The points column counts a bye of the round to pair when it is in the slot
            // (JaVaFo's manual asks it then), not when a 240 line carries it, and never one of
            // a later round: the points are those of the rounds played.
            let to_slot = paired || in_slot || !to_240;
            let counts = to_slot && (paired || round.number <= next);
            self.put(
                b.player,
                round.number,
                to_slot.then(|| format!("0000 - {c}")),
                if counts {
                    b.kind.points(&t.scoring)
                } else {
                    0.0
                },
            );
        }
    }
}

/// One 001 group per player: the player's columns, points, rank and round slots.
fn player_groups(
    t: &Tournament,
    mut slots: HashMap<u32, Vec<String>>,
    score: &HashMap<u32, f64>,
    g: &mut Vec<(String, Vec<String>)>,
) -> Result<()> {
    let src = &t.trf;
    let mut order: Vec<(f64, u32)> = t
        .players
        .iter()
        .map(|p| (score.get(&p.id).copied().unwrap_or(0.0), p.id))
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let rank: HashMap<u32, usize> = order
        .iter()
        .enumerate()
        .map(|(i, (_, id))| (*id, i + 1))
        .collect();

    for (i, p) in t.players.iter().enumerate() {
        let points = score.get(&p.id).copied().unwrap_or(0.0);
        let Some(points_text) = pts_in(points, 4) else {
            return refuse(
                format!("players[{i}]"),
                format!(
                    "player {} ({}): {points} points do not fit TRF's points field (4 columns, \
                     81-84); write the event as .json",
                    p.id, p.name
                ),
            );
        };
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
            p.id,
            fit(p.sex.as_deref().unwrap_or(""), 1),
            fit(p.title.as_deref().unwrap_or(""), 3),
            fit(&p.name, 33),
            p.rating,
            fit(p.federation.as_deref().unwrap_or(""), 3),
            fit(p.fide_id.as_deref().unwrap_or(""), 11),
            fit(p.birth_date.as_deref().unwrap_or(""), 10),
            points_text,
            // The rank as read (a manager's, ties as it breaks them), else computed.
            match src.ranks.get(&p.id) {
                Some(r) => fit(r, 4),
                None => rank.get(&p.id).copied().unwrap_or(0).to_string(),
            },
        );
        let mine = slots.remove(&p.id).unwrap_or_default();
        let used = mine
            .iter()
            .rposition(|s| s != BLANK_SLOT)
            .map_or(0, |i| i + 1);
        for s in &mine[..used] {
            line.push_str("  ");
            line.push_str(s);
        }
        g.push((format!("001:{}", p.id), vec![line]));
    }
    Ok(())
}

/// Forbidden pairs: JaVaFo's XXP (every round) where the file used it or a TRF(x) file
/// has one for every round, else TRF-2026 260.
fn forbidden_lines(t: &Tournament) -> Result<Vec<String>> {
    let src = &t.trf;
    let mut forbidden = Vec::new();
    for fp in t.forbidden_pairs()? {
        let every_round = fp.from == 1 && fp.to >= MAX_ROUNDS;
        let xxp = every_round
            && (src.codes.contains("XXP") || (!src.trf2026 && !src.codes.contains("260")));
        let mut l = if xxp {
            String::from("XXP")
        } else {
            format!("260 {:03} {:03}", fp.from, fp.to.min(MAX_ROUNDS))
        };
        for id in &fp.players {
            l.push_str(&if xxp {
                format!(" {id}")
            } else {
                format!(" {id:>4}")
            });
        }
        forbidden.push(l);
    }
    Ok(forbidden)
}

/// Acceleration: TRF-2026 250 where the file used it, else XXA.
fn accel_lines(t: &Tournament) -> Vec<String> {
    let accel = match t.trf.codes.contains("250") {
        true => lines_250(t),
        false => None,
    };
    accel.unwrap_or_else(|| {
        t.players
            .iter()
            .filter(|p| !p.virtual_points.is_empty())
            .map(|p| {
                let mut l = format!("XXA {:>4}", p.id);
                for v in &p.virtual_points {
                    l.push_str(&format!(" {:>4}", pts(*v)));
                }
                l
            })
            .collect()
    })
}

/// A player line that changed: when the only change is rounds added after those read (and
/// the points, 81-84, for a pairing-allocated bye), the line as read keeps every column and
/// gains the new rounds; otherwise the line as optipair writes it.
fn patch(read: &str, was: &str, now: &str) -> String {
    if now == was {
        return read.to_string();
    }
    let (o, a, b): (Vec<char>, Vec<char>, Vec<char>) = (
        read.trim_end().chars().collect(),
        was.chars().collect(),
        now.chars().collect(),
    );
    let extends = b.len() >= a.len()
        && a.len() >= 84
        && o.len() >= 84
        && o.len() <= a.len()
        && a[..80] == b[..80]
        && a[84..] == b[84..a.len()];
    if !extends {
        return now.to_string();
    }
    let mut out = o.clone();
    out.resize(a.len(), ' ');
    if a[80..84] != b[80..84] {
        out[80..84].copy_from_slice(&b[80..84]);
    }
    out.extend_from_slice(&b[a.len()..]);
    out.into_iter().collect()
}

/// The file's lines in their places, each owned group as read when it has not changed and
/// written afresh where it stood when it has; groups the file did not have go after the
/// group before them in the order of a new file.
fn merge(t: &Tournament, groups: &[(String, Vec<String>)]) -> String {
    let src = &t.trf;
    let now: HashMap<&str, String> = groups
        .iter()
        .map(|(g, l)| (g.as_str(), l.join("\n")))
        .collect();
    let same = |g: &str| {
        src.read && src.canonical.get(g).map(String::as_str) == now.get(g).map(String::as_str)
    };
    let lines_of: HashMap<&str, &Vec<String>> =
        groups.iter().map(|(g, l)| (g.as_str(), l)).collect();
    let mut out: Vec<String> = Vec::new();
    let mut span: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut written: HashSet<&str> = HashSet::new();
    for (g, line) in &src.lines {
        let g = g.as_str();
        if g.is_empty() {
            out.push(line.clone());
            continue;
        }
        let start = out.len();
        if g.starts_with("001:") {
            if let Some(l) = lines_of.get(g) {
                out.push(match src.canonical.get(g) {
                    Some(was) => patch(line, was, &l[0]),
                    None => l[0].clone(),
                });
            }
        } else if same(g) {
            out.push(line.clone());
        } else if written.insert(g) {
            if let Some(l) = lines_of.get(g) {
                out.extend(l.iter().cloned());
            }
        }
        span.entry(g).or_insert((start, start)).1 = out.len();
    }
    let mut inserts: Vec<(usize, usize, &Vec<String>)> = Vec::new();
    for (k, (g, lines)) in groups.iter().enumerate() {
        // A group the file did not have and that has not changed stays out; a player line
        // is always written.
        if span.contains_key(g.as_str()) || (same(g) && !g.starts_with("001:")) {
            continue;
        }
        let pos = groups[..k]
            .iter()
            .rev()
            .find_map(|(p, _)| span.get(p.as_str()).map(|s| s.1))
            .or_else(|| {
                groups[k + 1..]
                    .iter()
                    .find_map(|(p, _)| span.get(p.as_str()).map(|s| s.0))
            })
            .unwrap_or(out.len());
        inserts.push((pos, k, lines));
    }
    inserts.sort_by_key(|i| (i.0, i.1));
    for (pos, _, lines) in inserts.into_iter().rev() {
        out.splice(pos..pos, lines.iter().cloned());
    }
    let nl = src.line_ending.as_deref().unwrap_or("\n");
    let mut text = String::new();
    if src.bom {
        text.push('\u{feff}');
    }
    text.push_str(&out.join(nl));
    if !out.is_empty() && (!src.read || src.final_newline) {
        text.push_str(nl);
    }
    text
}
