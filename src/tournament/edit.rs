//! What a director changes between rounds: a late entry, a withdrawal and a return, requested
//! byes, taking a round back. Each operation checks everything before it changes anything: it
//! takes the tournament by reference and gives back the changed copy with one line per change
//! (for the command to print), or an error naming the field and leaving the event as it was.

use super::{Bye, ByeKind, Player, Tournament};
use crate::{Error, Result};
use std::cmp::Ordering;

/// The rule that places a late entry among the pairing numbers.
pub const INITIAL_ORDER: &str = "FIDE C.04.2 initial order: strength (rating), then FIDE title \
(GM-IM-WGM-FM-WIM-CM-WFM-WCM-no title), then alphabetically";

/// The rule that freezes pairing numbers.
pub const NUMBERS_FROZEN: &str = "FIDE C.04.2: no modification of a pairing number is allowed \
after the fourth round has been paired";

/// FIDE titles in the order of FIDE C.04.2 (highest first).
pub const TITLES: [&str; 8] = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"];

/// A changed tournament and what changed, one line per change (empty: nothing to change).
#[derive(Debug, Clone)]
pub struct Edit {
    /// The tournament after the change.
    pub tournament: Tournament,
    /// What changed, one line per change, for the director.
    pub changes: Vec<String>,
}

/// The canonical FIDE title for `text`: the title itself in any case, or its TRF code (`g`,
/// `m`, `wg`, `f`, `wm`, `c`, `wf`, `wc`).
pub fn canonical_title(text: &str) -> Option<&'static str> {
    let t = text.trim().to_ascii_uppercase();
    let code = match t.as_str() {
        "G" => "GM",
        "M" => "IM",
        "F" => "FM",
        "C" => "CM",
        "WG" => "WGM",
        "WM" => "WIM",
        "WF" => "WFM",
        "WC" => "WCM",
        other => other,
    };
    TITLES.iter().copied().find(|&x| x == code)
}

/// Place of a player's title in the C.04.2 order (no title, or one not in it, last).
fn title_rank(p: &Player) -> usize {
    p.title
        .as_deref()
        .and_then(canonical_title)
        .and_then(|t| TITLES.iter().position(|&x| x == t))
        .unwrap_or(TITLES.len())
}

/// The initial order of FIDE C.04.2: rating (highest first), then title, then name (as `new`
/// orders a CSV list: case-insensitive, then exact).
pub fn initial_order(a: &Player, b: &Player) -> Ordering {
    b.rating
        .cmp(&a.rating)
        .then(title_rank(a).cmp(&title_rank(b)))
        .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
        .then_with(|| a.name.cmp(&b.name))
}

/// Numbers as ranges: `3-40, 42, 44-150` (sorted, duplicates dropped).
pub fn ranges<T: Copy + TryInto<u64>>(numbers: &[T]) -> String {
    let mut v: Vec<u64> = numbers
        .iter()
        .map(|&n| n.try_into().unwrap_or(u64::MAX))
        .collect();
    v.sort_unstable();
    v.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        parts.push(if j == i {
            v[i].to_string()
        } else {
            format!("{}-{}", v[i], v[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// `round 3` or `rounds 1-2, 5`.
fn rounds_text(rounds: &[u32]) -> String {
    format!(
        "round{} {}",
        if rounds.len() == 1 { "" } else { "s" },
        ranges(rounds)
    )
}

/// How a bye is named to a director.
pub fn bye_words(kind: ByeKind) -> &'static str {
    match kind {
        ByeKind::PairingAllocated => "pairing-allocated bye",
        ByeKind::Full => "full-point bye",
        ByeKind::Half => "half-point bye",
        ByeKind::Zero => "zero-point bye",
    }
}

/// The player a command-line argument names: a pairing number (`16`, or `b3` for number 3 of
/// division b where the event has several), or a name (exact, else the one name equal
/// ignoring case). A number two divisions share is refused: give the division.
pub fn find_player(t: &Tournament, text: &str) -> Result<u32> {
    let s = text.trim();
    let numeric = s.trim_start_matches(|c: char| !c.is_ascii_digit());
    if !numeric.is_empty() && numeric.bytes().all(|b| b.is_ascii_digit()) {
        if numeric.parse::<u32>().is_err() {
            return Err(Error::field("PLAYER", format!("number '{s}' is too large")));
        }
        if let Some(id) = t.id_of_number(s) {
            return Ok(id);
        }
        let shared = t
            .players
            .iter()
            .filter(|p| p.number().to_string() == numeric && p.division.is_some())
            .count();
        if numeric.len() == s.len() {
            return Err(Error::field(
                "PLAYER",
                if shared > 1 {
                    format!(
                        "{shared} divisions have a player {s}: name the division, or write \
                         e.g. b{s}"
                    )
                } else {
                    format!("no player has pairing number {s}")
                },
            ));
        }
    }
    if let Some(p) = t.players.iter().find(|p| p.name == s) {
        return Ok(p.id);
    }
    let like: Vec<&Player> = t
        .players
        .iter()
        .filter(|p| p.name.to_lowercase() == s.to_lowercase())
        .collect();
    match like.as_slice() {
        [p] => Ok(p.id),
        [] => Err(Error::field(
            "PLAYER",
            format!("no player is named '{s}' (give the pairing number or the exact name)"),
        )),
        _ => Err(Error::field(
            "PLAYER",
            format!(
                "several players are named '{s}' (numbers {}): give the number",
                ranges(&like.iter().map(|p| p.number()).collect::<Vec<_>>())
            ),
        )),
    }
}

/// `Name (pairing number)`: the number a director knows the player by (`b3` where each
/// division numbers from 1, a tsh event's).
fn who(t: &Tournament, p: &Player) -> String {
    format!("{} ({})", p.name, t.shown_number(p.id))
}

/// The part of `t` that a player's rounds belong to: his division where the event has several.
fn scope(t: &Tournament, division: &Option<String>) -> Tournament {
    if t.divisions().len() > 1 {
        t.division(division)
    } else {
        t.clone()
    }
}

fn check_round_number(t: &Tournament, round: u32, field: &str) -> Result<()> {
    if round == 0 {
        return Err(Error::field(field, "rounds are numbered from 1"));
    }
    if let Some(n) = t.rounds_planned {
        if round > n {
            return Err(Error::field(
                field,
                format!(
                    "round {round} is past the {n} {} planned",
                    if n == 1 { "round" } else { "rounds" }
                ),
            ));
        }
    }
    Ok(())
}

/// Drops rounds holding nothing (a round's last requested bye removed).
fn drop_empty_rounds(t: &mut Tournament) {
    t.rounds
        .retain(|r| !(r.games.is_empty() && r.byes.is_empty()));
}

/// A late entry's details, as the director gives them.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Full name; it must not already be entered.
    pub name: String,
    /// Rating; 0 means unrated.
    pub rating: u32,
    /// FIDE title or its TRF code (see [`canonical_title`]), if any.
    pub title: Option<String>,
    /// Federation, a three-letter code (e.g. `NED`), if any.
    pub federation: Option<String>,
    /// FIDE id, at most 11 digits, if any.
    pub fide_id: Option<String>,
    /// Division to enter him in; one of the event's where it has several.
    pub division: Option<String>,
    /// First round played; the round after the last paired one when `None`.
    pub from_round: Option<u32>,
    /// What the rounds missed score: a requested bye of this kind in each.
    pub missed: ByeKind,
}

/// A late entry's fields once checked.
struct Checked {
    name: String,
    title: Option<String>,
    federation: Option<String>,
    fide_id: Option<String>,
    division: Option<String>,
    from: u32,
}

/// The entry's fields checked against the event: its name, title, federation, FIDE id,
/// division and first round.
fn checked_entry(t: &Tournament, e: &Entry) -> Result<Checked> {
    let name = e.name.trim();
    if name.is_empty() || name.chars().any(char::is_control) {
        return Err(Error::field(
            "name",
            "the name must be non-empty, without control characters",
        ));
    }
    if let Some(p) = t
        .players
        .iter()
        .find(|p| p.name.to_lowercase() == name.to_lowercase())
    {
        return Err(Error::field(
            "name",
            format!("{} is already entered", who(t, p)),
        ));
    }
    let title = match e.title.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => Some(
            canonical_title(s)
                .ok_or_else(|| {
                    Error::field(
                        "title",
                        format!("unknown title '{s}' (one of {})", TITLES.join(", ")),
                    )
                })?
                .to_string(),
        ),
    };
    let federation = match e.federation.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(s) if s.len() == 3 && s.bytes().all(|b| b.is_ascii_alphabetic()) => {
            Some(s.to_ascii_uppercase())
        }
        Some(s) => {
            return Err(Error::field(
                "federation",
                format!("federation '{s}' is not a three-letter code (e.g. NED)"),
            ))
        }
    };
    let fide_id = match e.fide_id.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(s) if s.len() <= 11 && s.bytes().all(|b| b.is_ascii_digit()) => {
            if let Some(p) = t.players.iter().find(|p| p.fide_id.as_deref() == Some(s)) {
                return Err(Error::field(
                    "fide_id",
                    format!("FIDE id {s} is {}'s", who(t, p)),
                ));
            }
            Some(s.to_string())
        }
        Some(s) => {
            return Err(Error::field(
                "fide_id",
                format!("FIDE id '{s}' is not a number of at most 11 digits"),
            ))
        }
    };
    let divisions = t.divisions();
    let division = e.division.clone();
    // A new division (or none in an event with divisions) is more likely a typo than meant.
    if (divisions.len() > 1 || division.is_some()) && !divisions.contains(&division) {
        return Err(Error::field(
            "division",
            format!(
                "the event's divisions are {}: enter the player in one of them",
                t.division_names()
            ),
        ));
    }
    let mine = scope(t, &division);
    let last = mine.last_paired_round();
    let from = e.from_round.unwrap_or(last + 1);
    check_round_number(t, from, "from_round")?;
    if from <= last {
        return Err(Error::field(
            "from_round",
            format!(
                "round {last} is already paired: a late entry plays from round {} on (or unpair \
                 round {last} first)",
                last + 1
            ),
        ));
    }
    if !e.missed.is_requested() {
        return Err(Error::field(
            "missed_byes",
            "missed rounds take a requested bye (half, zero or full)",
        ));
    }

    Ok(Checked {
        name: name.to_string(),
        title,
        federation,
        fide_id,
        division,
        from,
    })
}

/// The late entry's pairing number, the players below it moved down one in `out`; what
/// changed is added to `changes`.
fn entry_number(
    t: &Tournament,
    out: &mut Tournament,
    p: &Player,
    changes: &mut Vec<String>,
) -> u32 {
    let division = &p.division;
    // C.04.2 is a chess rule: a Scrabble event (games keep scores) numbers entries as they
    // come, as tsh does, each division from 1 (tsh's b1, b2, …).
    let scrabble = t.scoring.game_scores;
    let top = t
        .players
        .iter()
        .filter(|q| !scrabble || q.division == *division)
        .map(Player::number)
        .max()
        .unwrap_or(0);
    // C.04.2 numbers are frozen once round 4 is paired: the entry goes to the end.
    let frozen = t.last_paired_round() >= 4;
    let place = if frozen || scrabble {
        None
    } else {
        // Before the first player of his division that he ranks above, in pairing-number
        // order; the others keep their order among themselves.
        let mut by_number: Vec<&Player> = t.players.iter().collect();
        by_number.sort_by_key(|q| q.number());
        by_number
            .into_iter()
            .find(|q| q.division == *division && initial_order(p, q) == Ordering::Less)
            .map(Player::number)
    };
    let number = match place {
        Some(k) => {
            for q in &mut out.players {
                let n = q.number();
                if n >= k {
                    q.pairing_number = Some(n + 1);
                }
            }
            let moved = t.players.iter().filter(|q| q.number() >= k).count();
            changes.push(format!(
                "pairing number {k} ({INITIAL_ORDER}); pairing numbers {k}-{top} move down one \
                 ({moved} player{})",
                if moved == 1 { "" } else { "s" }
            ));
            k
        }
        None => {
            changes.push(if scrabble {
                format!(
                    "pairing number {} (the next: a Scrabble event numbers entries as they come)",
                    top + 1
                )
            } else if frozen {
                format!("pairing number {} ({NUMBERS_FROZEN})", top + 1)
            } else {
                format!("pairing number {} ({INITIAL_ORDER})", top + 1)
            });
            top + 1
        }
    };
    number
}

/// Enters a player late. He gets the next free id (ids never change) and his place in the
/// initial order of FIDE C.04.2 as pairing number, the players below him moving down one —
/// unless the fourth round has been paired, after which pairing numbers are frozen and he gets
/// the next one. Each round he misses gets a requested bye of the kind `e.missed`.
pub fn enter(t: &Tournament, e: &Entry) -> Result<Edit> {
    let Checked {
        name,
        title,
        federation,
        fide_id,
        division,
        from,
    } = checked_entry(t, e)?;
    let name = name.as_str();
    let mut out = t.clone();
    let id = t.players.iter().map(|p| p.id).max().unwrap_or(0) + 1;
    let mut p = Player::new(id, name, e.rating);
    p.title = title;
    p.federation = federation;
    p.fide_id = fide_id;
    p.division = division.clone();
    p.joined = (from > 1).then_some(from);
    let mut changes = vec![format!(
        "entered {} (rating {}{}{}) from round {from}",
        name,
        e.rating,
        p.title
            .as_deref()
            .map(|t| format!(", {t}"))
            .unwrap_or_default(),
        p.federation
            .as_deref()
            .map(|f| format!(", {f}"))
            .unwrap_or_default(),
    )];
    let number = entry_number(t, &mut out, &p, &mut changes);
    p.pairing_number = Some(number);
    out.players.push(p);
    // A pairing number equal to the id is not stored: files without late entries keep their
    // shape.
    for q in &mut out.players {
        if q.pairing_number == Some(q.id) {
            q.pairing_number = None;
        }
    }
    let missed: Vec<u32> = (1..from).collect();
    for &r in &missed {
        out.round_mut(r).byes.push(Bye {
            player: id,
            kind: e.missed,
            spread: None,
        });
    }
    if !missed.is_empty() {
        changes.push(format!(
            "{}: {} for {name} ({number})",
            rounds_text(&missed),
            bye_words(e.missed)
        ));
    }
    Ok(Edit {
        tournament: out,
        changes,
    })
}

/// Rounds from `from` on in which `id` has a game or a pairing-allocated bye: (round, board).
fn paired_in(t: &Tournament, id: u32, from: u32) -> Option<(u32, Option<usize>)> {
    t.rounds.iter().filter(|r| r.number >= from).find_map(|r| {
        if let Some(i) = r.games.iter().position(|g| g.white == id || g.black == id) {
            return Some((r.number, Some(i + 1)));
        }
        r.byes
            .iter()
            .any(|b| b.player == id && b.kind == ByeKind::PairingAllocated)
            .then_some((r.number, None))
    })
}

/// Withdraws player `id` from round `from` on: he is not paired in it or later, and requested
/// byes he had there are removed (a bye would still score).
pub fn withdraw(t: &Tournament, id: u32, from: u32) -> Result<Edit> {
    check_round_number(t, from, "from_round")?;
    let p = t
        .player(id)
        .ok_or_else(|| Error::field("PLAYER", format!("no player has id {id}")))?;
    if p.withdrawn == Some(from) {
        return Ok(Edit {
            tournament: t.clone(),
            changes: Vec::new(),
        });
    }
    if let Some((r, board)) = paired_in(t, id, from) {
        let at = match board {
            Some(b) => format!("on board {b}; record his game as a forfeit"),
            None => "with the pairing-allocated bye".to_string(),
        };
        return Err(Error::field(
            "from_round",
            format!(
                "{} is paired in round {r} ({at}): withdraw from round {}, or unpair round {r} \
                 first",
                who(t, p),
                r + 1
            ),
        ));
    }
    let mut out = t.clone();
    let mut changes = vec![format!(
        "withdrew {} from round {from}: not paired in round {from} or later{}",
        who(t, p),
        p.withdrawn
            .map(|w| format!(" (was from round {w})"))
            .unwrap_or_default()
    )];
    for r in out.rounds.iter_mut().filter(|r| r.number >= from) {
        if let Some(b) = r
            .byes
            .iter()
            .find(|b| b.player == id && b.kind.is_requested())
        {
            changes.push(format!("round {}: {} removed", r.number, bye_words(b.kind)));
        }
        r.byes
            .retain(|b| !(b.player == id && b.kind.is_requested()));
    }
    drop_empty_rounds(&mut out);
    out.players
        .iter_mut()
        .find(|q| q.id == id)
        .expect("player")
        .withdrawn = Some(from);
    Ok(Edit {
        tournament: out,
        changes,
    })
}

/// A withdrawn player comes back from round `from`; the rounds he missed since withdrawing are
/// recorded as zero-point byes (absences), since `withdrawn` holds one round only.
pub fn return_player(t: &Tournament, id: u32, from: u32) -> Result<Edit> {
    check_round_number(t, from, "from_round")?;
    let p = t
        .player(id)
        .ok_or_else(|| Error::field("PLAYER", format!("no player has id {id}")))?;
    let Some(w) = p.withdrawn else {
        return Err(Error::field(
            "PLAYER",
            format!("{} is not withdrawn", who(t, p)),
        ));
    };
    if from < w {
        return Err(Error::field(
            "from_round",
            format!(
                "{} withdrew from round {w}: he returns in round {w} or later",
                who(t, p)
            ),
        ));
    }
    let last = scope(t, &p.division).last_paired_round();
    if from <= last {
        return Err(Error::field(
            "from_round",
            format!(
                "round {last} is already paired without {}: return from round {} (or unpair \
                 round {last} first)",
                who(t, p),
                last + 1
            ),
        ));
    }
    let mut out = t.clone();
    let mut changes = vec![format!("{} returns from round {from}", who(t, p))];
    // Rounds before his entry are not his to miss.
    let missed: Vec<u32> = (w..from)
        .filter(|&r| p.joined.is_none_or(|j| r >= j))
        .collect();
    for &r in &missed {
        let rd = out.round_mut(r);
        rd.byes.retain(|b| b.player != id);
        rd.byes.push(Bye {
            player: id,
            kind: ByeKind::Zero,
            spread: None,
        });
    }
    if !missed.is_empty() {
        changes.push(format!(
            "{}: zero-point bye (absent while withdrawn)",
            rounds_text(&missed)
        ));
    }
    out.players
        .iter_mut()
        .find(|q| q.id == id)
        .expect("player")
        .withdrawn = None;
    Ok(Edit {
        tournament: out,
        changes,
    })
}

/// Sets player `id`'s requested bye in each of `rounds` to `kind` (`None` removes it). Only
/// rounds not yet paired, in which the player takes part.
pub fn bye(t: &Tournament, id: u32, rounds: &[u32], kind: Option<ByeKind>) -> Result<Edit> {
    let p = t
        .player(id)
        .ok_or_else(|| Error::field("PLAYER", format!("no player has id {id}")))?;
    if kind == Some(ByeKind::PairingAllocated) {
        return Err(Error::field(
            "kind",
            "the pairing-allocated bye is given by the pairing, not requested",
        ));
    }
    if rounds.is_empty() {
        return Err(Error::field("round", "give the round(s) of the bye"));
    }
    let mine = scope(t, &p.division);
    let mut rounds = rounds.to_vec();
    rounds.sort_unstable();
    rounds.dedup();
    for &r in &rounds {
        check_round_number(t, r, "round")?;
        if mine.round(r).is_some_and(|rd| rd.is_paired()) {
            return Err(Error::field(
                "round",
                format!("round {r} is already paired: unpair it first to change its byes"),
            ));
        }
        if p.withdrawn.is_some_and(|w| r >= w) {
            return Err(Error::field(
                "round",
                format!(
                    "{} withdrew from round {}: no bye in round {r}",
                    who(t, p),
                    p.withdrawn.unwrap_or(0)
                ),
            ));
        }
        if p.joined.is_some_and(|j| r < j) && kind.is_some() {
            return Err(Error::field(
                "round",
                format!(
                    "{} plays from round {} only: no bye in round {r}",
                    who(t, p),
                    p.joined.unwrap_or(0)
                ),
            ));
        }
    }
    let mut out = t.clone();
    let mut changes = Vec::new();
    for &r in &rounds {
        let old = t
            .round(r)
            .and_then(|rd| rd.byes.iter().find(|b| b.player == id))
            .map(|b| b.kind);
        let line = match (old, kind) {
            (Some(o), Some(k)) if o == k => continue,
            (None, None) => continue,
            (Some(o), Some(k)) => format!(
                "round {r}: {} for {} (was {})",
                bye_words(k),
                who(t, p),
                bye_words(o)
            ),
            (None, Some(k)) => format!("round {r}: {} for {}", bye_words(k), who(t, p)),
            (Some(o), None) => format!("round {r}: {} for {} removed", bye_words(o), who(t, p)),
        };
        changes.push(line);
        let rd = out.round_mut(r);
        rd.byes.retain(|b| b.player != id);
        if let Some(k) = kind {
            rd.byes.push(Bye {
                player: id,
                kind: k,
                spread: None,
            });
        }
    }
    drop_empty_rounds(&mut out);
    Ok(Edit {
        tournament: out,
        changes,
    })
}

/// Takes round `round` back: its games and pairing-allocated byes go, requested byes stay.
/// Refused when a later round is paired, and when results are recorded unless `force`. With
/// `division`, only that division's pairing goes.
pub fn unpair(t: &Tournament, round: u32, force: bool, division: Option<&str>) -> Result<Edit> {
    check_round_number(t, round, "round")?;
    let mine = match division {
        Some(d) => t.named_division(d)?,
        None => t.clone(),
    };
    let Some(rd) = mine.round(round).filter(|r| r.is_paired()) else {
        return Err(Error::field(
            "round",
            format!("round {round} is not paired: nothing to unpair"),
        ));
    };
    let last = mine.last_paired_round();
    if last > round {
        return Err(Error::field(
            "round",
            format!("round {last} is paired after it: unpair round {last} first"),
        ));
    }
    let with_results: Vec<usize> = rd
        .games
        .iter()
        .enumerate()
        .filter(|(_, g)| g.result != super::GameResult::Pending)
        .map(|(i, _)| i + 1)
        .collect();
    if !with_results.is_empty() && !force {
        // The request's `force` is what would let it through.
        return Err(Error::field(
            "force",
            format!(
                "round {round} has results on board{} {}: unpairing would lose them (forcing \
                 it removes them too)",
                if with_results.len() == 1 { "" } else { "s" },
                ranges(&with_results)
            ),
        ));
    }
    let ids: std::collections::HashSet<u32> = mine.players.iter().map(|p| p.id).collect();
    let games = rd.games.len();
    let pabs = rd
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::PairingAllocated)
        .count();
    let kept = rd.requested_byes().count();
    let mut out = t.clone();
    let r = out.round_mut(round);
    r.games
        .retain(|g| !(ids.contains(&g.white) && ids.contains(&g.black)));
    r.byes
        .retain(|b| b.kind.is_requested() || !ids.contains(&b.player));
    drop_empty_rounds(&mut out);
    let mut changes = vec![format!(
        "round {round} unpaired{}: {games} game{} and {pabs} pairing-allocated bye{} removed",
        division
            .map(|d| format!(" in division {d}"))
            .unwrap_or_default(),
        if games == 1 { "" } else { "s" },
        if pabs == 1 { "" } else { "s" }
    )];
    if !with_results.is_empty() {
        changes.push(format!(
            "results removed on board{} {}",
            if with_results.len() == 1 { "" } else { "s" },
            ranges(&with_results)
        ));
    }
    if kept > 0 {
        changes.push(format!(
            "{kept} requested bye{} kept",
            if kept == 1 { "" } else { "s" }
        ));
    }
    Ok(Edit {
        tournament: out,
        changes,
    })
}
