//! FIDE TRF (TRF16 layout; CR, LF or CRLF line endings).
//!
//! Lines read:
//!
//! * `012` tournament name;
//! * `XXR` (or `142`) number of rounds planned;
//! * `XXC` words: `white1` / `black1` set the initial colour (other words such as `rank` are
//!   ignored); `152 W` / `152 B` also set it;
//! * `XXA NNNN p1 p2 …` acceleration: virtual points per round for player `NNNN`;
//! * `BBW` `BBD` `BBL` `BBZ` `BBF` `BBU` point values (bbpPairings extension): win (also
//!   forfeit win and full-point bye), draw (also half-point bye), loss, zero-point bye, forfeit
//!   loss, pairing-allocated bye (defaults to the win value);
//! * `001` player lines (fixed columns, see below).
//!
//! Every other line (`092`, `022`, …) is ignored.
//!
//! Player line columns (1-based): 5–8 start rank (the player id), 11–13 title, 15–47 name,
//! 49–52 rating, 54–56 federation, 58–68 FIDE id, 81–84 points (not read: scores are derived),
//! then one 8-column slot per round from column 92, every 10 columns: opponent (4), colour
//! (`w`, `b`, `-`), result. A game is written on both players' lines; the two must agree.
//!
//! Extension: a slot with an opponent and a blank result (`  12 w  `) is a game paired but not
//! yet played ([`GameResult::Pending`]); the result column must be present (a line that ends
//! before it is truncated).
//!
//! A field renumbered by late entries (`pairing_number`) is written by pairing number: the
//! start rank is the pairing number, and read back it becomes the id.
//!
//! What TRF cannot hold: the order of boards (games are listed in the order their first player
//! appears in the file), `system`, `settings`, player `group` / `joined` / `withdrawn`, empty
//! rounds, names longer than 33 characters (cut), outer spaces and control characters in text
//! (trimmed, flattened). What would change scores or shift columns is refused by [`write`]
//! with an error naming the player or field: point values outside the `BB*` set, game scores,
//! start ranks or ratings above 9999, points that do not fit columns 81-84, more than
//! [`MAX_ROUNDS`] rounds.

use crate::tournament::{
    Bye, ByeKind, Colour, ForbiddenPairs, Game, GameResult, Player, Round, Scoring, Tournament,
    FORMAT,
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

/// Parses a TRF16 file.
pub fn parse(text: &str) -> Result<Tournament> {
    let mut t = Tournament::new("", Vec::new());
    let mut recs: Vec<Rec> = Vec::new();
    let mut index: HashMap<u32, usize> = HashMap::new();
    let mut accel: Vec<(usize, u32, Vec<f64>)> = Vec::new();
    let mut pab_points: Option<f64> = None;
    let mut win_points: Option<f64> = None;
    let mut draw_points: Option<f64> = None;
    let mut xxs: Vec<(usize, String, f64)> = Vec::new();
    let mut forbidden: Vec<(usize, ForbiddenPairs)> = Vec::new();
    let mut requested: Vec<(usize, ByeKind, u32, u32)> = Vec::new();

    for (n, line) in split_lines(text) {
        let kind: String = line.chars().take(3).collect();
        let rest = line.get(3..).unwrap_or("");
        match kind.as_str() {
            "001" => {
                let rec = parse_player(n, line)?;
                if let Some(&prev) = index.get(&rec.player.id) {
                    return Err(Error::at(
                        n,
                        "start rank",
                        format!(
                            "start rank {} is used twice (first on line {})",
                            rec.player.id, recs[prev].line
                        ),
                    ));
                }
                index.insert(rec.player.id, recs.len());
                recs.push(rec);
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
                            &kind,
                            format!("{v} rounds planned: at most {MAX_ROUNDS} are supported"),
                        ))
                    }
                    Ok(v) if v > 0 => t.rounds_planned = Some(v),
                    _ => {
                        return Err(Error::at(
                            n,
                            &kind,
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
            "XXA" => {
                let mut words = rest.split_whitespace();
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
                let mut pts = Vec::new();
                for w in words {
                    pts.push(parse_points(n, "XXA points", w)?);
                }
                if let Some((prev, _, _)) = accel.iter().find(|(_, p, _)| *p == id) {
                    return Err(Error::at(
                        n,
                        "XXA start rank",
                        format!("player {id} has a second XXA line (first on line {prev})"),
                    ));
                }
                accel.push((n, id, pts));
            }
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let v = parse_points(n, &kind, rest.trim())?;
                let s = &mut t.scoring;
                match kind.as_str() {
                    "BBW" => win_points = Some(v),
                    "BBD" => draw_points = Some(v),
                    "BBL" => s.loss = v,
                    "BBZ" => s.zero_bye = v,
                    "BBF" => s.forfeit_loss = v,
                    _ => pab_points = Some(v),
                }
            }
            // TRF-2026 162: `W 1.0 D 0.5 L 0.0 A 0.0 P 1.0 X 0.5`, code then points.
            "162" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
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
                        "W" => win_points = Some(v),
                        "D" => draw_points = Some(v),
                        "L" => s.loss = v,
                        "A" => {
                            s.zero_bye = v;
                            s.forfeit_loss = v;
                        }
                        "P" => pab_points = Some(v),
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
                    xxs.push((n, code.to_ascii_uppercase(), v));
                }
            }
            // TRF-2026 240: `240 H 006 13 12`: byes requested (F, H, Z) in a round.
            "240" => {
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
                        Ok(id) if id > 0 => requested.push((n, kind, round, id)),
                        _ => {
                            return Err(Error::at(
                                n,
                                "240",
                                format!("TRF-2026 240: player '{w}' is not a start rank"),
                            ))
                        }
                    }
                }
            }
            // TRF-2026 192: the encoded tournament type. A Dutch type pairs with `swiss`.
            "192" => {
                let code = rest.trim();
                let up = code.to_ascii_uppercase();
                if up.contains("DUTCH") && !up.contains("ACC") && !up.contains("BAKU") {
                    t.system = Some("swiss".to_string());
                } else {
                    return Err(Error::at(
                        n,
                        "192",
                        format!(
                            "TRF-2026 192: tournament type '{code}' is not one optipair pairs \
                             from a TRF file (a FIDE Dutch type is); remove the line to pair by \
                             the Dutch system"
                        ),
                    ));
                }
            }
            "250" => return Err(Error::at(
                n,
                "250",
                "TRF-2026 250 (accelerated rounds) is not applied by optipair's Dutch pairing: \
                     remove the line (optipair --baku computes the Baku acceleration itself); \
                     not ignored silently",
            )),
            // TRF-2026 260: `260 RRR RRR PPPP PPPP …`, players who must not meet each
            // other in rounds first..=last. SwissSys XXP: `XXP P1 P2 …`, for every round.
            "260" | "XXP" => {
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
                                &kind,
                                format!("{kind}: player '{w}' is not a start rank"),
                            ))
                        }
                    }
                }
                if players.len() < 2 || from > to {
                    return Err(Error::at(
                        n,
                        &kind,
                        format!(
                            "{kind}: a forbidden pair needs rounds first <= last and at least \
                             two players"
                        ),
                    ));
                }
                forbidden.push((n, ForbiddenPairs { from, to, players }));
            }
            _ => {
                if recs.is_empty() {
                    t.trf.head.push(line.to_string());
                } else {
                    t.trf.tail.push(line.to_string());
                }
            }
        }
        if kind == "192" {
            t.trf.head.push(line.to_string());
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
    for rec in &recs {
        if !rec.rank.is_empty() {
            t.trf.ranks.insert(rec.player.id, rec.rank.clone());
        }
    }
    if let Some(v) = win_points {
        t.scoring.win = v;
        t.scoring.forfeit_win = v;
        t.scoring.full_bye = v;
        t.scoring.pairing_bye = v;
    }
    if let Some(v) = draw_points {
        t.scoring.draw = v;
        t.scoring.half_bye = v;
    }
    if let Some(v) = pab_points {
        t.scoring.pairing_bye = v;
    }

    let mut xxs_win: Option<(usize, f64)> = None;
    // Results first (a win also sets the forfeit win and the byes worth a win, a draw the
    // half-point bye, as BBW/BBD do), then the codes for one kind of bye or forfeit.
    let generic = |c: &str| matches!(c, "WW" | "BW" | "W" | "WD" | "BD" | "D" | "WL" | "BL" | "L");
    xxs.sort_by_key(|(_, code, _)| !generic(code));
    for (n, code, v) in xxs {
        let s = &mut t.scoring;
        let same = |slot: &mut Option<(usize, f64)>, what: &str| -> Result<()> {
            match *slot {
                Some((m, w)) if w != v => Err(Error::at(
                    n,
                    "XXS",
                    format!(
                        "XXS: {what} is worth {w} (line {m}) for one colour and {v} for the \
                         other: optipair scores both colours alike"
                    ),
                )),
                _ => {
                    *slot = Some((n, v));
                    Ok(())
                }
            }
        };
        match code.as_str() {
            "WW" | "BW" | "W" => {
                same(&mut xxs_win, "a win")?;
                s.win = v;
                s.forfeit_win = v;
                s.full_bye = v;
                s.pairing_bye = v;
            }
            "WD" | "BD" | "D" => {
                s.draw = v;
                s.half_bye = v;
            }
            "WL" | "BL" | "L" => s.loss = v,
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
                    format!("XXS: unknown code '{c}' (WW BW WD BD WL BL ZPB HPB FPB PAB FW FL)"),
                ))
            }
        }
    }

    for (n, id, pts) in accel {
        match index.get(&id) {
            Some(&i) => recs[i].player.virtual_points = pts,
            None => {
                return Err(Error::at(
                    n,
                    "XXA start rank",
                    format!("acceleration for player {id}, who has no 001 line"),
                ))
            }
        }
    }

    for rec in &recs {
        if is_dummy(&rec.player) {
            return Err(Error::at(
                rec.line,
                "name",
                format!(
                    "player {} '{}' (no rating, no federation) is a manager's dummy bye player: \
                     optipair gives the bye itself; remove the line",
                    rec.player.id, rec.player.name
                ),
            ));
        }
    }
    t.rounds = build_rounds(&recs, &index)?;
    check_points(&t, &recs)?;
    for (n, fp) in &forbidden {
        if let Some(id) = fp.players.iter().find(|id| !index.contains_key(id)) {
            return Err(Error::at(
                *n,
                "forbidden pair",
                format!("forbidden pair: player {id} has no 001 line"),
            ));
        }
    }
    if !forbidden.is_empty() {
        let list: Vec<ForbiddenPairs> = forbidden.into_iter().map(|(_, f)| f).collect();
        t.settings.insert(
            crate::tournament::FORBIDDEN_PAIRS.to_string(),
            serde_json::to_value(list).expect("json"),
        );
    }
    // TRF-2026 240: requested byes, beside the slots of the 001 lines.
    for (n, kind, round, id) in requested {
        let Some(&i) = index.get(&id) else {
            return Err(Error::at(
                n,
                "240",
                format!("TRF-2026 240: player {id} has no 001 line"),
            ));
        };
        match recs[i].entries.get(round as usize - 1).copied() {
            None | Some(Entry::Empty) => {}
            Some(Entry::Bye(k)) if k == kind => continue,
            Some(_) => {
                return Err(Error::at(
                    n,
                    "240",
                    format!(
                        "TRF-2026 240: player {id} has a bye requested for round {round}, but \
                         his line {} records something else in that round",
                        recs[i].line
                    ),
                ))
            }
        }
        let pos = match t.rounds.iter().position(|r| r.number >= round) {
            Some(p) if t.rounds[p].number == round => p,
            Some(p) => {
                t.rounds.insert(
                    p,
                    Round {
                        number: round,
                        ..Round::default()
                    },
                );
                p
            }
            None => {
                t.rounds.push(Round {
                    number: round,
                    ..Round::default()
                });
                t.rounds.len() - 1
            }
        };
        let r = &mut t.rounds[pos];
        if r.byes.iter().any(|b| b.player == id) {
            return Err(Error::at(
                n,
                "240",
                format!("TRF-2026 240: player {id} has two byes requested for round {round}"),
            ));
        }
        r.byes.push(Bye {
            player: id,
            kind,
            ..Default::default()
        });
    }
    t.players = recs.into_iter().map(|r| r.player).collect();
    t.format = FORMAT.to_string();
    if t.initial_colour.is_none() {
        t.initial_colour = infer_initial_colour(&t);
    }
    Ok(t)
}

/// Whether a points-column mismatch is a warning (collected by [`take_warnings`]) rather
/// than an error; set by the command line's `--points-warning`.
pub static POINTS_WARNING: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

static WARNINGS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// The warnings collected since the last call (points-column mismatches under
/// [`POINTS_WARNING`]).
pub fn take_warnings() -> Vec<String> {
    WARNINGS
        .lock()
        .map(|mut w| std::mem::take(&mut *w))
        .unwrap_or_default()
}

/// The points column (81-84) against the results under the file's scoring: a wrong scoring
/// (a 3-1-0 event read as 1-½-0) shows at once. The written points may count the byes
/// already requested for rounds not yet paired, or not.
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
    let mut upto: HashMap<u32, f64> = HashMap::new();
    let mut all: HashMap<u32, f64> = HashMap::new();
    for r in &t.rounds {
        let mut add = |id: u32, v: f64| {
            *all.entry(id).or_default() += v;
            if r.number <= last {
                *upto.entry(id).or_default() += v;
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
        let (a, b) = (
            upto.get(&id).copied().unwrap_or(0.0),
            all.get(&id).copied().unwrap_or(0.0),
        );
        if (written - a).abs() > 1e-6 && (written - b).abs() > 1e-6 {
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
                if let Ok(mut w) = WARNINGS.lock() {
                    w.push(format!("line {}: {msg}", rec.line));
                }
            } else {
                return Err(Error::at(rec.line, "points", msg));
            }
        }
    }
    Ok(())
}

/// A manager's dummy player (the "bye" line some write to give the bye as a game): no rating,
/// no federation, a known name.
fn is_dummy(p: &Player) -> bool {
    const NAMES: [&str; 8] = [
        "bye",
        "spielfrei",
        "free",
        "freilos",
        "exempt",
        "exento",
        "bye player",
        "pairing bye",
    ];
    p.rating == 0
        && p.federation.is_none()
        && NAMES.contains(&p.name.trim().to_lowercase().as_str())
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
                    round.games.push(Game {
                        white: w,
                        black: b,
                        result: res,
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

/// Writes TRF16 with LF line endings. What the fixed columns cannot hold is refused with the
/// player it concerns rather than written misaligned: a start rank (or opponent) above 9999,
/// a rating above 9999, points that do not fit columns 81-84 exactly, round numbers above
/// [`MAX_ROUNDS`]. A renumbered field is written by pairing number (see
/// [`by_pairing_number`]).
pub fn write(t: &Tournament) -> Result<String> {
    if t.renumbered() {
        return write(&by_pairing_number(t));
    }
    let refuse = |field: String, msg: String| Err(Error::field(&field, msg));
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
    if t.scoring.game_scores {
        return refuse(
            "scoring.game_scores".into(),
            "the event keeps game scores (Scrabble), which TRF cannot hold: write it as .json \
             or .t"
                .into(),
        );
    }
    // BBW sets the win, forfeit-win and full-bye values, BBD the draw and half-bye values:
    // a scoring that tells them apart cannot be written without changing every score.
    let sc = &t.scoring;
    for (field, v, of, base) in [
        ("forfeit_win", sc.forfeit_win, "win", sc.win),
        ("full_bye", sc.full_bye, "win", sc.win),
        ("half_bye", sc.half_bye, "draw", sc.draw),
    ] {
        if v != base {
            return refuse(
                format!("scoring.{field}"),
                format!(
                    "{field} is {v} but {of} is {base}: TRF gives both one value \
                     (BB{}); write the event as .json",
                    if of == "win" { 'W' } else { 'D' }
                ),
            );
        }
    }
    for (i, p) in t.players.iter().enumerate() {
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
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", fit(&t.name, 200).trim()));
    let ev = &t.event;
    let mut head_lines = String::new();
    let mut head = |code: &str, v: &Option<String>| {
        if let Some(v) = v {
            out.push_str(&format!("{code} {}\n", fit(v, 200)));
        }
    };
    head("022", &ev.city);
    head("032", &ev.federation);
    head("042", &ev.start_date);
    head("052", &ev.end_date);
    // Unowned header records numbered below 102 (062-092) keep their place in the numbering.
    let early = |l: &str| {
        l.get(..3)
            .is_some_and(|c| c.bytes().all(|b| b.is_ascii_digit()) && c < "102")
    };
    for l in t.trf.head.iter().filter(|l| early(l)) {
        head_lines.push_str(l);
        head_lines.push('\n');
    }
    out.push_str(&head_lines);
    let mut head = |code: &str, v: &Option<String>| {
        if let Some(v) = v {
            out.push_str(&format!("{code} {}\n", fit(v, 200)));
        }
    };
    head("102", &ev.chief_arbiter);
    for a in &ev.deputy_arbiters {
        head("112", &Some(a.clone()));
    }
    head("122", &ev.time_control);
    if !ev.round_dates.is_empty() {
        let mut line = format!("{:<89}", "132");
        for d in &ev.round_dates {
            line.push_str(&format!("  {:>8}", fit(d, 8)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for l in t.trf.head.iter().filter(|l| !early(l)) {
        out.push_str(l);
        out.push('\n');
    }
    if let Some(n) = t.rounds_planned {
        if n == 0 {
            return refuse(
                "rounds_planned".into(),
                "rounds planned must be 1 or more".into(),
            );
        }
        out.push_str(&format!(
            "{} {n}\n",
            if t.trf.trf2026 { "142" } else { "XXR" }
        ));
    }
    // Always written: without it a reader infers the colour from round 1, which may not be
    // the unset default (white).
    // A file read without one is written without one: the reader infers the same colour
    // from the same round 1.
    if !t.trf.read || t.trf.colour_line {
        let black = t.initial_colour == Some(Colour::Black);
        out.push_str(match (t.trf.trf2026, black) {
            (true, true) => "152 B\n",
            (true, false) => "152 W\n",
            (false, true) => "XXC black1\n",
            (false, false) => "XXC white1\n",
        });
    }
    let s = &t.scoring;
    let d = Scoring::default();
    let mut bb = |code: &str, v: f64, dv: f64| {
        if v != dv {
            out.push_str(&format!("{code} {:>4}\n", pts(v)));
        }
    };
    if t.trf.trf2026 && s.zero_bye == s.forfeit_loss {
        // TRF-2026 162: the values that differ from the defaults.
        let mut line = String::from("162");
        for (code, v, dv) in [
            ("W", s.win, d.win),
            ("D", s.draw, d.draw),
            ("L", s.loss, d.loss),
            ("A", s.zero_bye, d.zero_bye),
            ("P", s.pairing_bye, s.win),
        ] {
            if v != dv {
                line.push_str(&format!(" {code} {:>4}", pts(v)));
            }
        }
        if line.len() > 3 {
            out.push_str(&line);
            out.push('\n');
        }
    } else {
        bb("BBW", s.win, d.win);
        bb("BBD", s.draw, d.draw);
        bb("BBL", s.loss, d.loss);
        bb("BBZ", s.zero_bye, d.zero_bye);
        bb("BBF", s.forfeit_loss, d.forfeit_loss);
        bb("BBU", s.pairing_bye, s.win);
    }

    // Each player's slot per round, and their score.
    let max_round = t.rounds.iter().map(|r| r.number).max().unwrap_or(0) as usize;
    let mut slots: HashMap<u32, Vec<String>> = HashMap::new();
    let mut score: HashMap<u32, f64> = HashMap::new();
    let blank = " ".repeat(8);
    for p in &t.players {
        slots.insert(p.id, vec![blank.clone(); max_round]);
        score.insert(p.id, 0.0);
    }
    let mut put = |id: u32, r: u32, text: String, points: f64| {
        if let Some(v) = slots.get_mut(&id) {
            if r >= 1 {
                v[r as usize - 1] = text;
            }
        }
        if let Some(sc) = score.get_mut(&id) {
            *sc += points;
        }
    };
    for round in &t.rounds {
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
            let (wp, bp) = g.result.points(s);
            put(g.white, round.number, format!("{:>4} w {wc}", g.black), wp);
            put(g.black, round.number, format!("{:>4} b {bc}", g.white), bp);
        }
        for b in &round.byes {
            let c = match b.kind {
                ByeKind::PairingAllocated => 'U',
                ByeKind::Full => 'F',
                ByeKind::Half => 'H',
                ByeKind::Zero => 'Z',
            };
            put(
                b.player,
                round.number,
                format!("0000 - {c}"),
                b.kind.points(s),
            );
        }
    }
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
            match t.trf.ranks.get(&p.id) {
                Some(r) => fit(r, 4),
                None => rank.get(&p.id).copied().unwrap_or(0).to_string(),
            },
        );
        let mine = slots.remove(&p.id).unwrap_or_default();
        let used = mine.iter().rposition(|s| *s != blank).map_or(0, |i| i + 1);
        for s in &mine[..used] {
            line.push_str("  ");
            line.push_str(s);
        }
        out.push_str(&line);
        out.push('\n');
    }
    // TRF-2026 260: forbidden pairs.
    for fp in t.forbidden_pairs()? {
        let mut line = format!("260 {:03} {:03}", fp.from, fp.to.min(MAX_ROUNDS));
        for id in &fp.players {
            line.push_str(&format!(" {id:>4}"));
        }
        out.push_str(&line);
        out.push('\n');
    }
    for p in &t.players {
        if !p.virtual_points.is_empty() {
            let mut line = format!("XXA {:>4}", p.id);
            for v in &p.virtual_points {
                line.push_str(&format!(" {:>4}", pts(*v)));
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    for l in &t.trf.tail {
        out.push_str(l);
        out.push('\n');
    }
    match t.trf.line_ending.as_deref() {
        Some(nl) if nl != "\n" => Ok(out.replace('\n', nl)),
        _ => Ok(out),
    }
}
