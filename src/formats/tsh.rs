//! tsh `.t` files (John Chew's tournament software): one division, one player a line.
//!
//! ```text
//! Smith, Anna   1834 2 3 0; 412 377 50; p12 1 2 0
//! ```
//!
//! A line is the player's name, rating, then one opponent per round (1-based line number of
//! the opponent among the player lines; 0 is a bye), `;`, then one score per round played
//! (a bye's "score" is the spread it credits: +50 a bye win, −50 a forfeit loss, 0 a tie), then
//! optional `;`-fields `key values…`. `p12` gives, per round, 1 (went first), 2 (second),
//! 0 (no game), 3 (draw for first at the board) or 4 (unknown). Blank lines and `#` comments
//! are skipped. A name may end in digits ("Player 00012 1049 4 3 …"): the rating is the digit
//! token after which every token is a valid player number, preferring the split that gives the
//! file's usual number of opponents.
//!
//! Mapping to the domain: player id = line number among player lines (the player's number in
//! his division, as tsh numbers him); each round's games in tsh's table order — the tables of
//! tsh's `board` field where it numbers a round's games 1 to N, else as
//! [`crate::tournament::boards`] orders them; a game is built from both players' lines (they must name each other); `white` is the player who went first
//! (lower id when p12 is 3 or 4 or absent, with `Order::Draw` / `Order::Unknown`); opponents
//! without scores on either line are a pending game (a pairing not yet played). A bye with a
//! positive score is a pairing-allocated bye, 0 a half bye, negative a zero bye (forfeit), each
//! with `spread` = the score; a bye with no score yet is a pending pairing-allocated bye.
//!
//! tsh's other `;`-fields, as tsh writes them:
//! * `p12` on a bye round: tsh keeps the 1 or 2 a player had been given when his game became
//!   a forfeit bye (a withdrawn player's byes). Read, kept in `settings["tsh.bye_p12"]` and
//!   written back; it counts for nothing (a bye has no first or second).
//! * `off S`: the player is inactive (tsh's withdrawn players; S is the spread of his byes):
//!   `withdrawn` from the round after the last one on his line, so he is not paired again. A
//!   player withdrawn in optipair is written with `off 0`. A value that is not a whole number
//!   is refused (field `off`).
//! * Everything else (`class`, `team`, `newr`, `rtime`, `id`, `board`, …) is kept verbatim,
//!   in the file's order with `p12` in its place, in `settings["tsh.fields"]` (by player id)
//!   and written back; these fields do not bear on pairing. Whether the file had `p12` is kept
//!   in `settings["tsh.p12"]`.
//!
//! Written with names padded so that every rating ends in the same column: the file's column
//! when all its lines agree (`settings["tsh.rating_end"]`, tsh pads names to a width), else
//! the canonical one (names padded to the longest, rating right-aligned in 4); single spaces
//! elsewhere. Such a file reads and writes back byte for byte. A `.t` file cannot hold the
//! event's name, rounds planned or pairing settings: `load` reads them from the event's
//! `config.tsh` beside it ([`super::tsh_config`]), then from a sidecar `X.tsh.json`
//! (`{"name": …, "rounds_planned": 24, "settings": {…}}`) when it exists.

use crate::tournament::{Bye, ByeKind, Game, GameResult, Order, Player, Round, Tournament};
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Settings key holding the `;`-fields other than `p12`, by player id.
pub const FIELDS_KEY: &str = "tsh.fields";
/// Settings key remembering that the file carried `p12` fields.
pub const P12_KEY: &str = "tsh.p12";
/// Settings key holding `p12` values tsh wrote on bye rounds (by player id, then round):
/// tsh keeps the first/second a withdrawn player had been given when his game became a
/// forfeit bye. Kept and written back; a bye's first/second counts for nothing.
pub const BYE_P12_KEY: &str = "tsh.bye_p12";
/// Settings key holding the column (in characters) where every line's rating ends, when the
/// file's layout is not the canonical one (tsh pads names to a fixed width).
pub const RATING_END_KEY: &str = "tsh.rating_end";
/// Settings key holding, by player id, the number tsh derives from each player line's text
/// when it reads the file (its length, the line's place and its first character): tsh's
/// standings tie-break after rating (`systems::tsh::standing_keys`).
pub const LINE_KEYS: &str = "tsh.line_keys";
/// In [`FIELDS_KEY`], the place of the `p12` field among the others (tsh's own order).
const P12_SLOT: &str = "p12";

struct Line {
    no: usize,
    name: String,
    rating: u32,
    opps: Vec<u32>,
    scores: Vec<i32>,
    p12: Option<Vec<u8>>,
    /// tsh's `off S`: the player is inactive (not paired again); S is his byes' spread.
    off: Option<i32>,
    /// The `;`-fields after the scores, verbatim, with [`P12_SLOT`] where `p12` stood.
    extra: Vec<String>,
}

/// Where the rating may stand in a line's first part: a digit token after at least one name
/// token, followed only by opponent numbers (0..=`n`), at least as many as the scores. A name
/// may end in digits ("Player 00012"), so there can be several.
fn rating_positions(text: &str, n: u32) -> Vec<usize> {
    let mut parts = text.split(';');
    let tokens: Vec<&str> = parts.next().unwrap_or("").split_whitespace().collect();
    let scores = parts.next().map_or(0, |s| s.split_whitespace().count());
    let digits = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
    // valid_from[i]: tokens i.. are all player numbers (one pass from the end, so a line of
    // many tokens costs linear time, not quadratic).
    let mut valid_from = vec![true; tokens.len() + 1];
    for i in (0..tokens.len()).rev() {
        valid_from[i] = valid_from[i + 1]
            && digits(tokens[i])
            && tokens[i].parse::<u32>().is_ok_and(|o| o <= n);
    }
    (1..tokens.len())
        .filter(|&at| digits(tokens[at]) && tokens.len() - at > scores && valid_from[at + 1])
        .collect()
}

/// Where the rating ends on a line (in characters), if the line is the name, spaces, the
/// rating and then a space or `;`.
fn rating_end(text: &str, name: &str, rating: u32) -> Option<usize> {
    let rest = text.strip_prefix(name)?;
    let digits = rest.trim_start_matches(' ');
    let tok: String = digits.chars().take_while(|c| c.is_ascii_digit()).collect();
    if tok.parse::<u32>().ok()? != rating || tok != rating.to_string() {
        return None;
    }
    Some(name.chars().count() + (rest.len() - digits.len()) + tok.len())
}

fn parse_line(no: usize, text: &str, at: Option<usize>) -> Result<Line> {
    let mut parts = text.split(';');
    let head = parts.next().unwrap_or("");
    let tokens: Vec<&str> = head.split_whitespace().collect();
    let at = match at {
        Some(a) => a,
        None => tokens
            .iter()
            .position(|t| t.chars().all(|c| c.is_ascii_digit()))
            .ok_or_else(|| Error::at(no, "rating", "no rating after the name"))?,
    };
    if at == 0 {
        return Err(Error::at(
            no,
            "name",
            "the line has no name before the rating",
        ));
    }
    let name = tokens[..at].join(" ");
    let rating: u32 = tokens[at]
        .parse()
        .map_err(|_| Error::at(no, "rating", format!("bad rating '{}'", tokens[at])))?;
    let mut opps = Vec::new();
    for (i, tok) in tokens[at + 1..].iter().enumerate() {
        let o: u32 = tok.parse().map_err(|_| {
            Error::at(
                no,
                &format!("opponent {}", i + 1),
                format!("'{tok}' is not a player number (0 for a bye)"),
            )
        })?;
        opps.push(o);
    }
    let mut scores = Vec::new();
    if let Some(s) = parts.next() {
        for (i, tok) in s.split_whitespace().enumerate() {
            let v: i32 = tok.parse().map_err(|_| {
                Error::at(
                    no,
                    &format!("score {}", i + 1),
                    format!("'{tok}' is not a score"),
                )
            })?;
            scores.push(v);
        }
    }
    if scores.len() > opps.len() {
        return Err(Error::at(
            no,
            &format!("score {}", opps.len() + 1),
            format!("{} scores but {} opponents", scores.len(), opps.len()),
        ));
    }
    let mut p12 = None;
    let mut off = None;
    let mut extra = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for field in parts {
        let f = field.trim();
        if f.is_empty() {
            continue;
        }
        let mut w = f.split_whitespace();
        let key = w.clone().next();
        if let Some(k) = key.filter(|k| !seen.insert(*k)) {
            // Which of the two tsh would keep is not written anywhere; refuse, never guess.
            return Err(Error::at(
                no,
                k,
                format!("the field '{k}' is given twice on this line; keep one"),
            ));
        }
        if key == Some("off") {
            let v: Vec<&str> = w.clone().skip(1).collect();
            if v.len() > 1 || v.iter().any(|t| t.parse::<i32>().is_err()) {
                return Err(Error::at(
                    no,
                    "off",
                    format!(
                        "'{}' is not a bye spread (tsh's `off S`: inactive, byes scored S)",
                        v.join(" ")
                    ),
                ));
            }
            off = Some(v.first().and_then(|t| t.parse().ok()).unwrap_or(0));
        }
        if w.next() == Some("p12") {
            extra.push(P12_SLOT.to_string());
            let mut v = Vec::new();
            for (i, tok) in w.enumerate() {
                match tok.parse::<u8>() {
                    Ok(x) if x <= 4 => v.push(x),
                    _ => {
                        return Err(Error::at(
                            no,
                            &format!("p12 round {}", i + 1),
                            format!("'{tok}' is not 0, 1, 2, 3 or 4"),
                        ))
                    }
                }
            }
            p12 = Some(v);
        } else {
            extra.push(f.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    Ok(Line {
        no,
        name,
        rating,
        opps,
        scores,
        p12,
        off,
        extra,
    })
}

/// Parses a `.t` file (one division).
pub fn parse(text: &str) -> Result<Tournament> {
    let (raw, lines) = read_lines(text)?;
    let rating_column = rating_column(&raw, &lines);
    let had_p12 = lines.iter().any(|l| l.p12.is_some());
    let (players, fields, bye_p12) = players_of(&lines);
    if let Some(l) = lines
        .iter()
        .find(|l| l.opps.len() > super::MAX_ROUNDS as usize)
    {
        return Err(Error::at(
            l.no,
            &format!("opponent {}", super::MAX_ROUNDS + 1),
            format!(
                "{} rounds: at most {} are supported",
                l.opps.len(),
                super::MAX_ROUNDS
            ),
        ));
    }
    let rounds = lines.iter().map(|l| l.opps.len()).max().unwrap_or(0);
    // tsh reads the file as Latin-1: a line's length and first character are its bytes.
    let line_keys: serde_json::Map<String, serde_json::Value> = raw
        .iter()
        .enumerate()
        .map(|(i, (_, l))| {
            let len = l.len() as u64 + u64::from(!l.contains(';'));
            let key = len * (101 + i as u64) * u64::from(l.as_bytes()[0]) % 641;
            ((i + 1).to_string(), key.into())
        })
        .collect();
    let mut t = Tournament::new("", players);
    t.settings.insert(LINE_KEYS.into(), line_keys.into());
    t.scoring.game_scores = true;
    t.system = Some("tsh-cp".into());
    if had_p12 {
        t.settings.insert(P12_KEY.into(), true.into());
    }
    if !fields.is_empty() {
        t.settings.insert(FIELDS_KEY.into(), fields.into());
    }
    if let Some(c) = rating_column {
        t.settings.insert(RATING_END_KEY.into(), c.into());
    }
    if !bye_p12.is_empty() {
        t.settings.insert(BYE_P12_KEY.into(), bye_p12.into());
    }
    for r in 0..rounds {
        t.rounds.push(round_of(&lines, r)?);
    }
    t.validate()?;
    // The posted order of tables: tsh's own numbers where the file has them for a whole
    // round, else recomputed as tsh orders them.
    crate::tournament::boards::post_order_all(&mut t);
    for rd in &mut t.rounds {
        let r = rd.number as usize - 1;
        let table = |id: u32| lines[id as usize - 1].table(r);
        let mut tables: Vec<u32> = rd.games.iter().filter_map(|g| table(g.white)).collect();
        tables.sort_unstable();
        if tables.iter().copied().eq(1..=rd.games.len() as u32) {
            rd.games.sort_by_key(|g| table(g.white));
        }
    }
    Ok(t)
}

/// A file's lines that hold a player, each with its line number, trimmed.
type Numbered<'a> = Vec<(usize, &'a str)>;

/// The file's player lines, numbered and trimmed, each with its fields read; where a name
/// could end at more than one number, the split is chosen here.
fn read_lines(text: &str) -> Result<(Numbered<'_>, Vec<Line>)> {
    let raw: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let count = raw.len() as u32;
    let options: Vec<Vec<usize>> = raw
        .iter()
        .map(|(_, l)| rating_positions(l, count))
        .collect();
    // Where a name ends in digits, the split giving the usual number of opponents wins.
    let mut usual: BTreeMap<usize, usize> = BTreeMap::new();
    for ((_, l), o) in raw.iter().zip(&options) {
        if let [at] = o.as_slice() {
            let opps = l.split(';').next().unwrap_or("").split_whitespace().count() - at - 1;
            *usual.entry(opps).or_default() += 1;
        }
    }
    let usual = usual
        .into_iter()
        .max_by_key(|&(k, c)| (c, k))
        .map(|(k, _)| k);
    let mut lines = Vec::new();
    for ((no, l), o) in raw.iter().zip(&options) {
        let width = l.split(';').next().unwrap_or("").split_whitespace().count();
        // tsh writes one p12 value per round on the line: when present it settles the split.
        let p12_len = l
            .split(';')
            .skip(2)
            .map(|f| f.split_whitespace().collect::<Vec<_>>())
            .find(|w| w.first() == Some(&"p12"))
            .map(|w| w.len() - 1);
        let at = o
            .iter()
            .copied()
            .find(|&at| p12_len.is_some() && Some(width - at - 1) == p12_len)
            .or_else(|| o.iter().copied().find(|&at| Some(width - at - 1) == usual))
            .or(o.first().copied());
        lines.push(parse_line(*no, l, at)?);
    }
    Ok((raw, lines))
}

/// The column where ratings end, when every line agrees (tsh pads names to a width):
/// written back the same way; the canonical column needs no keeping.
fn rating_column(raw: &[(usize, &str)], lines: &[Line]) -> Option<usize> {
    let ends: Vec<usize> = raw
        .iter()
        .zip(lines)
        .filter_map(|((_, text), l)| rating_end(text, &l.name, l.rating))
        .collect();
    let canonical_end = lines
        .iter()
        .map(|l| l.name.chars().count())
        .max()
        .unwrap_or(0)
        + 5;
    (ends.len() == lines.len()
        && ends.windows(2).all(|w| w[0] == w[1])
        && ends.first().is_some_and(|&e| e != canonical_end))
    .then(|| ends[0])
}

/// A JSON object, as kept in the event's settings.
type JsonMap = serde_json::Map<String, serde_json::Value>;

/// The players of `lines`, with the fields to keep (beyond the p12 slot) and the p12 values
/// given on byes, both by player number.
fn players_of(lines: &[Line]) -> (Vec<Player>, JsonMap, JsonMap) {
    let mut fields = serde_json::Map::new();
    let mut bye_p12 = serde_json::Map::new();
    let mut players = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let mut p = Player::new(i as u32 + 1, l.name.clone(), l.rating);
        if l.off.is_some() {
            // Inactive from the round after the last one on his line.
            p.withdrawn = Some(l.opps.len() as u32 + 1);
        }
        players.push(p);
        // The p12 slot alone (p12 the only field) needs no keeping: it is written first.
        if l.extra.iter().any(|f| f != P12_SLOT) {
            fields.insert((i + 1).to_string(), l.extra.join("; ").into());
        }
        let on_byes: serde_json::Map<String, serde_json::Value> = l
            .opps
            .iter()
            .enumerate()
            .filter(|&(_, &o)| o == 0)
            .filter_map(|(r, _)| {
                let v = *l.p12.as_ref()?.get(r)?;
                (v != 0).then(|| ((r + 1).to_string(), v.into()))
            })
            .collect();
        if !on_byes.is_empty() {
            bye_p12.insert((i + 1).to_string(), on_byes.into());
        }
    }
    (players, fields, bye_p12)
}

/// Round `r` (0-based) from every line's opponent, score and p12 columns: byes, and each
/// game once, built from the lower number's line.
fn round_of(lines: &[Line], r: usize) -> Result<Round> {
    let n = lines.len() as u32;
    let mut round = Round {
        number: r as u32 + 1,
        ..Round::default()
    };
    for (i, l) in lines.iter().enumerate() {
        let me = i as u32 + 1;
        let Some(&opp) = l.opps.get(r) else { continue };
        let field = format!("opponent {}", r + 1);
        if opp == 0 {
            let spread = l.scores.get(r).copied();
            let kind = match spread {
                None => ByeKind::PairingAllocated,
                Some(s) if s > 0 => ByeKind::PairingAllocated,
                Some(0) => ByeKind::Half,
                Some(_) => ByeKind::Zero,
            };
            round.byes.push(Bye {
                player: me,
                kind,
                spread,
            });
            continue;
        }
        if opp > n || opp == me {
            return Err(Error::at(
                l.no,
                &field,
                format!("opponent {opp} is not another player (1..{n})"),
            ));
        }
        let o = &lines[opp as usize - 1];
        if o.opps.get(r) != Some(&me) {
            return Err(Error::at(
                l.no,
                &field,
                format!(
                    "plays {opp} in round {}, but line {} does not name this player",
                    r + 1,
                    o.no
                ),
            ));
        }
        if opp < me {
            continue; // built from the lower id's line
        }
        round.games.push(game_of(l, o, me, opp, r)?);
    }
    Ok(round)
}

/// The game of players `me` (line `l`) and `opp` (line `o`) in round `r` (0-based): the
/// scores must be both entered or neither, the p12 columns must agree on who went first.
fn game_of(l: &Line, o: &Line, me: u32, opp: u32, r: usize) -> Result<Game> {
    let p12 = |line: &Line| line.p12.as_ref().and_then(|v| v.get(r).copied());
    let (sa, sb) = (l.scores.get(r).copied(), o.scores.get(r).copied());
    let scores = match (sa, sb) {
        (Some(a), Some(b)) => Some([a, b]),
        (None, None) => None,
        _ => {
            let who = if sa.is_none() { l } else { o };
            return Err(Error::at(
                who.no,
                &format!("score {}", r + 1),
                "the opponent's score is entered but this one is not",
            ));
        }
    };
    let (pa, pb) = (p12(l), p12(o));
    let bad = || {
        Error::at(
            l.no,
            &format!("p12 round {}", r + 1),
            format!("first/second {pa:?} disagrees with line {} ({pb:?})", o.no),
        )
    };
    let (a_first, order) = match (pa, pb) {
        (Some(1), Some(2) | None) | (None, Some(2)) => (true, Order::Recorded),
        (Some(2), Some(1) | None) | (None, Some(1)) => (false, Order::Recorded),
        (Some(3), Some(3) | None) | (None, Some(3)) => (true, Order::Draw),
        (Some(4) | None, Some(4) | None) => (true, Order::Unknown),
        _ => return Err(bad()),
    };
    let (white, black, scores) = if a_first {
        (me, opp, scores)
    } else {
        (opp, me, scores.map(|[a, b]| [b, a]))
    };
    Ok(Game {
        white,
        black,
        result: scores.map_or(GameResult::Pending, |[a, b]| GameResult::from_scores(a, b)),
        scores,
        order,
    })
}

impl Line {
    /// The table tsh gave the player in round `r` (0-based), from his `board` field (one
    /// number a round).
    fn table(&self, r: usize) -> Option<u32> {
        let f = self.extra.iter().find(|f| f.starts_with("board "))?;
        f.split_whitespace().nth(r + 1)?.parse().ok()
    }
}

/// The tournament as a `.t` file (canonical layout; see the module notes). Refused: round
/// numbers above [`super::trf::MAX_ROUNDS`] (a token per round on every line) and names a
/// line cannot hold (empty, or holding `;`, `#` or a line break).
pub fn write(t: &Tournament) -> Result<String> {
    if let Some(r) = t
        .rounds
        .iter()
        .find(|r| r.number == 0 || r.number > super::trf::MAX_ROUNDS)
    {
        return Err(Error::field(
            "rounds",
            format!(
                "round {}: a .t file holds rounds 1 to {}",
                r.number,
                super::trf::MAX_ROUNDS
            ),
        ));
    }
    for (i, p) in t.players.iter().enumerate() {
        if p.name.trim().is_empty()
            || p.name.contains([';', '#'])
            || p.name.contains(char::is_control)
        {
            return Err(Error::field(
                &format!("players[{i}].name"),
                format!(
                    "player {}: the name {:?} cannot be written in a .t line (empty, or holds \
                     ';', '#' or a control character)",
                    p.id, p.name
                ),
            ));
        }
    }
    let mut players: Vec<&Player> = t.players.iter().collect();
    players.sort_by_key(|p| p.id);
    let line_of: BTreeMap<u32, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i + 1))
        .collect();
    let last_round = t.rounds.iter().map(|r| r.number).max().unwrap_or(0);
    let with_p12 = t.settings.get(P12_KEY).and_then(|v| v.as_bool()) == Some(true)
        || t.rounds
            .iter()
            .flat_map(|r| &r.games)
            .any(|g| g.order != Order::Unknown);
    let width = players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for p in &players {
        // Per round: opponent line (0 = bye), score, p12.
        let mut slots: Vec<Option<(usize, Option<i32>, u8)>> = vec![None; last_round as usize];
        for rd in &t.rounds {
            let slot = &mut slots[rd.number as usize - 1];
            for g in &rd.games {
                let (opp, mine, p12) = if g.white == p.id {
                    (g.black, g.scores.map(|s| s[0]), 1)
                } else if g.black == p.id {
                    (g.white, g.scores.map(|s| s[1]), 2)
                } else {
                    continue;
                };
                let p12 = match g.order {
                    Order::Recorded => p12,
                    Order::Draw => 3,
                    Order::Unknown => 4,
                };
                *slot = Some((line_of.get(&opp).copied().unwrap_or(0), mine, p12));
            }
            for b in rd.byes.iter().filter(|b| b.player == p.id) {
                let kept = t
                    .settings
                    .get(BYE_P12_KEY)
                    .and_then(|m| m.get(p.id.to_string()))
                    .and_then(|m| m.get(rd.number.to_string()))
                    .and_then(|v| v.as_u64())
                    .filter(|&v| v <= 4)
                    .unwrap_or(0) as u8;
                *slot = Some((0, b.spread, kept));
            }
        }
        let played = slots.iter().rposition(|s| s.is_some()).map_or(0, |i| i + 1);
        let scored = slots
            .iter()
            .rposition(|s| matches!(s, Some((_, Some(_), _))))
            .map_or(0, |i| i + 1);
        let rating = p.rating.to_string();
        let mut line = match t
            .settings
            .get(RATING_END_KEY)
            .and_then(|v| v.as_u64())
            .map(|e| e as usize)
            .filter(|&e| {
                players
                    .iter()
                    .all(|q| q.name.chars().count() + 1 + q.rating.to_string().len() <= e)
            }) {
            Some(end) => format!("{:<w$}{rating}", p.name, w = end - rating.len()),
            None => format!("{:<width$} {:>4}", p.name, p.rating),
        };
        for s in &slots[..played] {
            line.push_str(&format!(" {}", s.map_or(0, |s| s.0)));
        }
        line.push(';');
        for s in &slots[..scored] {
            line.push_str(&format!(" {}", s.and_then(|s| s.1).unwrap_or(0)));
        }
        let p12 = with_p12.then(|| {
            let mut f = String::from("p12");
            for s in &slots[..played] {
                f.push_str(&format!(" {}", s.map_or(0, |s| s.2)));
            }
            f
        });
        // The other fields in the file's order, p12 where it stood (first when new).
        let mut fields: Vec<String> = t
            .settings
            .get(FIELDS_KEY)
            .and_then(|m| m.get(p.id.to_string()))
            .and_then(|v| v.as_str())
            .map(|s| s.split("; ").map(str::to_string).collect())
            .unwrap_or_default();
        match (fields.iter().position(|f| f == P12_SLOT), p12) {
            (Some(i), Some(f)) => fields[i] = f,
            (Some(i), None) => {
                fields.remove(i);
            }
            (None, Some(f)) => fields.insert(0, f),
            (None, None) => {}
        }
        // A player withdrawn in optipair is inactive in tsh (`off`, byes scored 0).
        if p.withdrawn.is_some() && !fields.iter().any(|f| f == "off" || f.starts_with("off ")) {
            fields.push("off 0".into());
        }
        for f in &fields {
            line.push_str("; ");
            line.push_str(f);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Ok(out)
}

/// The sidecar file holding what a `.t` file cannot: `X.t` → `X.tsh.json`.
pub fn sidecar(path: &Path) -> PathBuf {
    path.with_extension("tsh.json")
}

/// Writes the sidecar `X.tsh.json` beside `path` with what the `.t` file cannot hold: the
/// event's name, rounds planned and its pairing settings (not the `.t` file's own `tsh.*`
/// keys, which the file itself holds).
pub fn write_sidecar(path: &Path, t: &Tournament) -> Result<()> {
    let settings: BTreeMap<&String, &serde_json::Value> = t
        .settings
        .iter()
        .filter(|(k, _)| !k.starts_with("tsh."))
        .collect();
    let mut v = serde_json::json!({ "settings": settings });
    if !t.name.is_empty() {
        v["name"] = t.name.clone().into();
    }
    if let Some(r) = t.rounds_planned {
        v["rounds_planned"] = r.into();
    }
    let text = serde_json::to_string_pretty(&v).expect("json") + "\n";
    super::write_atomic(&sidecar(path), text.as_bytes())
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Sidecar {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    rounds_planned: Option<u32>,
    #[serde(default)]
    settings: BTreeMap<String, serde_json::Value>,
}

/// Applies the sidecar `X.tsh.json` beside `path`, if there is one.
pub fn apply_sidecar(path: &Path, t: &mut Tournament) -> Result<()> {
    let side = sidecar(path);
    if !side.exists() {
        return Ok(());
    }
    let text = super::read_text(&side)?;
    let s: Sidecar = serde_json::from_str(&text)
        .map_err(|e| Error::at(e.line(), "sidecar", format!("{e}")).in_file(&side))?;
    if let Some(n) = s.name {
        t.name = n;
    }
    if s.rounds_planned == Some(0) {
        return Err(
            Error::field("rounds_planned", "rounds planned must be 1 or more").in_file(&side),
        );
    }
    if s.rounds_planned.is_some() {
        t.rounds_planned = s.rounds_planned;
    }
    t.check_rounds().map_err(|e| e.in_file(&side))?;
    t.settings.extend(s.settings);
    Ok(())
}
