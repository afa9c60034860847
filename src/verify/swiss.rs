//! The standard Swiss (FIDE Dutch system, C.04.3, on the basic rules C.04.1), checked one
//! round at a time from the rounds before it.
//!
//! Everything here is computed from the tournament's facts (and [`Standings`] for the history)
//! with code of its own; nothing comes from the model builder.
//!
//! # Rules and their citation strings
//!
//! | rule string | what is checked |
//! |---|---|
//! | `one pairing per player` | nobody appears twice in the round (two games, a game and the pairing-allocated bye, ...); no game of a player against himself |
//! | `unknown player` | every id in the round is a registered player |
//! | `FIDE C.04.2 absent` | withdrawn players, players not yet joined and players with a requested bye (full, half, zero) are not paired |
//! | `FIDE C.04.1 c` | every player to be paired is paired or has the pairing-allocated bye (PAB); at most one PAB, and only when the number of players to pair is odd |
//! | `FIDE C.04.1 b` | no two players meet twice (only games played over the board count) |
//! | `FIDE C.04.1 d` | the PAB does not go to a player who already had one, who won by forfeit, or who already scored a win's points in a round without playing |
//! | `FIDE C.04.3 bye (lowest score group)` | the PAB goes to the lowest score group that has an eligible player the rest can be paired around |
//! | `FIDE C.04.3 bye (lowest ranked)` | within that group, to the lowest-ranked eligible player, unless the Dutch criteria allow another (see below) |
//! | `FIDE C.04.1 f` | colour difference stays within ±2 |
//! | `FIDE C.04.1 g` | nobody gets the same colour three times in a row |
//! | `FIDE Dutch 2025 5.2` | colours of each pair follow the allocation rules 5.2.1–5.2.5 (numbered E.1–E.5 before 2025) |
//!
//! # Readings of the rules (decisions where the text leaves room)
//!
//! * **Forfeits.** A forfeited game was paired but not played: it counts for nothing in the
//!   colour history (C.04.2: only played games count where the colour sequence matters) and
//!   the two players may be paired again (C.04.2: a pairing not actually played is not illegal
//!   in future rounds), so C.04.1 b looks only at games played over the board. Games of
//!   earlier rounds still pending count as played. In the round being checked every game is a
//!   pairing (rematches and absences are judged whether or not it was later forfeited), but
//!   the colours of a forfeit are not judged: a file often records none (`12 - -`), and a
//!   game not played has no colour that counts.
//! * **PAB eligibility (C.04.1 d).** Barred: a player who had a PAB, who won a game by forfeit,
//!   or who in one round scored, without playing, at least the points of a win (the 2025
//!   wording of the basic rules, which also covers a requested full-point bye).
//! * **Score groups and rank** use the pairing score: real points (from the tournament's
//!   scoring) plus the player's virtual points for the round, if any (acceleration). Rank is
//!   pairing score descending, then pairing number ascending.
//! * **PAB to the lowest score group.** Flagged only when some eligible player of a lower score
//!   group could have had the bye *and* the other players could then still all be paired
//!   under the absolute criteria (no rematch; no two non-topscorers with the same absolute
//!   colour preference). The second test is a perfect-matching question, answered with
//!   Edmonds' algorithm on the graph of allowed pairs: when it fails, the Dutch completion
//!   rule forces the bye upwards and nothing is wrong.
//! * **PAB to the lowest-ranked player (softer).** Within the bye's score group the Dutch
//!   system does not simply pick the last player: criterion C.9 (2025) first minimises the
//!   unplayed games of the PAB assignee, and colour and float criteria can move the bye too
//!   (in the reference tournaments a plain "lowest-ranked eligible player the rest can be
//!   paired around" rule would be broken in 20 of 210 rounds, every time for one of these
//!   reasons). So this rule is reported only when a lower-ranked eligible player `q` of the
//!   same score group has played at least as many games, the others can still all be paired,
//!   and a plain exchange would have been as good: the bye receiver could have played `q`'s
//!   own opponent with `q`'s colour (no rematch, no absolute colour clash, and the bye
//!   receiver's colour preference granted), and the exchange repeats no more floats
//!   (downfloats then upfloats from the previous round, then from two rounds before; the PAB
//!   counts as a downfloat) than the pairing made, and none at all when the counts are equal
//!   (the floaters' score differences, C.18–C.21, would decide then). What is left is a
//!   choice no Dutch quality criterion explains.
//! * **Colour limits.** Counted over games played over the board plus the colour the round's
//!   pairing gives. A player already beyond a limit (after an allowed exception) is flagged
//!   only if the round makes it worse. Exception (C.04.3, topscorers): when pairing the last
//!   round (`rounds_planned == Some(r)`), a topscorer — real score above 50% of the maximum
//!   possible before the round, `(r − 1) × max points per round` — and a topscorer's opponent
//!   are exempt: the Dutch system only forbids two *non-topscorers* with the same absolute
//!   preference from meeting.
//! * **Colour allocation (5.2.1–5.2.5).** Preferences per A.6 from played games. 5.2.2 ranks
//!   absolute over strong over mild; two absolute preferences for the same colour go to the
//!   wider colour difference. 5.2.3 compares the two players' played-colour histories from the
//!   most recent game backwards, unplayed rounds dropped (C.04.2: `WB-WB` counts as `-WBWB`),
//!   and alternates at the first place they differ. 5.2.4 grants the higher-ranked player's
//!   preference; 5.2.5 (both without preference) gives the higher-ranked player the initial
//!   colour (`initial_colour`, white if unset) if his pairing number is odd, the other colour
//!   if even. The pairing number 5.2.5 counts is the player's place among those who have
//!   entered play: a player absent from the round who has never been paired (in effect a late
//!   entry) is not counted. Without such absences this is the pairing number itself; with
//!   them it is how the reference Dutch engine numbers (round 1 of five reference files has
//!   an absentee, and the colours below him follow the renumbered parity).
//!
//! Why one long file: one check per rule, each short, over the same derived history; kept apart
//! from model building on purpose, so it shares no helpers with it.

use super::dutch::state::{show, thousandths, Points};
use super::matching::Matching;
use super::{Unchecked, Violation};
use crate::tournament::{ByeKind, Colour, Float, GameResult, Player, Round, Standings, Tournament};
use std::collections::{BTreeMap, BTreeSet};

/// Citation: nobody appears twice in a round, nor plays himself.
pub const ONCE: &str = "one pairing per player";
/// Citation: every id in the round is a registered player.
pub const UNKNOWN: &str = "unknown player";
/// Citation: withdrawn players, players not yet joined and players with a requested bye are not
/// paired.
pub const ABSENT: &str = "FIDE C.04.2 absent";
/// Citation: every player to be paired is paired or has the PAB; at most one PAB, and only for an
/// odd number of players.
pub const UNPAIRED: &str = "FIDE C.04.1 c";
/// Citation: no two players meet twice (games played over the board).
pub const REMATCH: &str = "FIDE C.04.1 b";
/// Citation: the PAB goes to no player who had one, won by forfeit, or scored a win's points
/// without playing.
pub const BYE_ELIGIBLE: &str = "FIDE C.04.1 d";
/// Citation: the PAB goes to the lowest score group with an eligible player the rest can be
/// paired around.
pub const BYE_GROUP: &str = "FIDE C.04.3 bye (lowest score group)";
/// Citation: within that group, to the lowest-ranked eligible player unless the Dutch criteria
/// allow another.
pub const BYE_RANK: &str = "FIDE C.04.3 bye (lowest ranked)";
/// Citation: the colour difference stays within ±2.
pub const COLOUR_DIFF: &str = "FIDE C.04.1 f";
/// Citation: nobody gets the same colour three times in a row.
pub const COLOUR_ROW: &str = "FIDE C.04.1 g";
/// Citation: each pair's colours follow the allocation rules 5.2.1–5.2.5.
pub const ALLOCATION: &str = "FIDE Dutch 2025 5.2";

/// How strongly a player wants a colour (C.04.3 A.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// Colour difference 0: the colour other than the latest.
    Mild,
    /// Colour difference ±1: the colour that evens it.
    Strong,
    /// Colour difference beyond ±1, or the same colour in the two latest games.
    Absolute,
}

impl Strength {
    /// The strength in words: `mild`, `strong`, `absolute`.
    pub fn word(self) -> &'static str {
        match self {
            Strength::Mild => "mild",
            Strength::Strong => "strong",
            Strength::Absolute => "absolute",
        }
    }
}

/// A colour preference: the colour and its strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preference {
    /// The colour wanted.
    pub colour: Colour,
    /// How strongly.
    pub strength: Strength,
}

/// The colour preference (A.6) after the played colours `history`, oldest first. `None`
/// before any game.
pub fn preference(history: &[Colour]) -> Option<Preference> {
    let last = *history.last()?;
    let diff: i32 = history.iter().map(|c| c.sign()).sum();
    let repeated = history.len() >= 2 && history[history.len() - 2] == last;
    let (colour, strength) = if diff > 1 {
        (Colour::Black, Strength::Absolute)
    } else if diff < -1 {
        (Colour::White, Strength::Absolute)
    } else if repeated {
        (last.opposite(), Strength::Absolute)
    } else if diff == 1 {
        (Colour::Black, Strength::Strong)
    } else if diff == -1 {
        (Colour::White, Strength::Strong)
    } else {
        (last.opposite(), Strength::Mild)
    };
    Some(Preference { colour, strength })
}

fn colour_word(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

fn signed(d: i32) -> String {
    if d > 0 {
        format!("+{d}")
    } else {
        d.to_string()
    }
}

fn pref_text(id: u32, p: Option<Preference>) -> String {
    match p {
        None => format!("{id} has no colour preference"),
        Some(p) => format!(
            "{id} has {} {} preference for {}",
            if p.strength == Strength::Absolute {
                "an"
            } else {
                "a"
            },
            p.strength.word(),
            colour_word(p.colour)
        ),
    }
}

/// What the verifier knows of one player before the round.
struct Info {
    id: u32,
    /// Pairing number: breaks ties of pairing score.
    number: u32,
    /// Real points before the round, in thousandths.
    score: Points,
    /// Real points plus virtual points for the round, in thousandths: the score for groups
    /// and rank.
    pairing_score: Points,
    /// Colours of games played over the board, oldest first.
    colours: Vec<Colour>,
    pref: Option<Preference>,
    /// Opponents met over the board before the round.
    played: BTreeSet<u32>,
    /// Why the player may not have the PAB, if he may not.
    bye_bar: Option<String>,
    active: bool,
    requested: Option<ByeKind>,
}

impl Info {
    fn diff(&self) -> i32 {
        self.colours.iter().map(|c| c.sign()).sum()
    }
}

/// Player `p`'s virtual points for round `round` (acceleration; index 0 is round 1).
fn virtual_points(p: &Player, round: u32) -> f64 {
    (round as usize)
        .checked_sub(1)
        .and_then(|i| p.virtual_points.get(i).copied())
        .unwrap_or(0.0)
}

/// Ranking order: `a` ranks above `b` (higher pairing score, then lower pairing number).
fn ranks_above(a: &Info, b: &Info) -> bool {
    if a.pairing_score != b.pairing_score {
        a.pairing_score > b.pairing_score
    } else {
        a.number < b.number
    }
}

/// Order from the lowest-ranked player up.
fn lowest_first(a: &Info, b: &Info) -> std::cmp::Ordering {
    if a.id == b.id {
        std::cmp::Ordering::Equal
    } else if ranks_above(a, b) {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Less
    }
}

/// Check round `round` of `t` under the standard Swiss. The round must exist.
pub fn check_round(t: &Tournament, round: u32) -> Vec<Violation> {
    check_round_within(t, round, None).0
}

/// [`check_round`] within a time budget: the parts past `deadline` are left unchecked, each
/// named in the second list.
pub fn check_round_within(
    t: &Tournament,
    round: u32,
    deadline: Option<std::time::Instant>,
) -> (Vec<Violation>, Vec<Unchecked>) {
    let mut c = Checker::new(t, round);
    c.deadline = deadline;
    c.run()
}

/// Who appears in a round, as [`Checker::appearances`] finds it.
struct Seen {
    /// Each player's places in the round (games, the bye), for the once-per-round check.
    places: BTreeMap<u32, Vec<String>>,
    /// The games between registered players.
    games: Vec<(u32, u32, GameResult)>,
    /// The pairing-allocated byes of registered players.
    pabs: Vec<u32>,
}

struct Checker<'a> {
    t: &'a Tournament,
    r: u32,
    info: BTreeMap<u32, Info>,
    /// Effective pairing numbers for 5.2.5 (see [`effective_numbers`]).
    tpn: BTreeMap<u32, u32>,
    standings: Standings,
    out: Vec<Violation>,
    last_round: bool,
    /// Twice the topscorer line: the maximum possible score before the round, in thousandths
    /// (a topscorer has more than half of it).
    topscore_twice: Points,
    /// Past it, the checks that prove a bye placement are left undone (and named).
    deadline: Option<std::time::Instant>,
    unchecked: Vec<Unchecked>,
}

impl<'a> Checker<'a> {
    fn new(t: &'a Tournament, r: u32) -> Self {
        let standings = Standings::before(t, r);
        let bars = bye_bars(t, r);
        let mut info = BTreeMap::new();
        let this = t.round(r);
        for p in &t.players {
            let Some(st) = standings.get(p.id) else {
                continue;
            };
            let colours = st.played_colours();
            let vp = virtual_points(p, r);
            let requested = this.and_then(|rd| {
                rd.byes
                    .iter()
                    .find(|b| b.player == p.id && b.kind.is_requested())
                    .map(|b| b.kind)
            });
            info.insert(
                p.id,
                Info {
                    id: p.id,
                    number: p.number(),
                    score: thousandths(st.score),
                    // Summed as points, then made exact: ⅓-point additions stay whole.
                    pairing_score: thousandths(st.score + vp),
                    pref: preference(&colours),
                    colours,
                    played: st.barred(),
                    bye_bar: bars.get(&p.id).cloned(),
                    active: p.active_in(r),
                    requested,
                },
            );
        }
        let max = t.scoring.max_per_round() * f64::from(r.saturating_sub(1));
        let tpn = effective_numbers(t, r, &info);
        Checker {
            t,
            r,
            info,
            tpn,
            standings,
            out: Vec::new(),
            last_round: t.rounds_planned == Some(r),
            topscore_twice: thousandths(max),
            deadline: None,
            unchecked: Vec::new(),
        }
    }

    fn flag(&mut self, rule: &str, players: Vec<u32>, message: String) {
        self.flag_cited(rule, rule, players, message);
    }

    /// A finding filed under `rule` whose message cites the one clause that decides it
    /// (`cite`, e.g. the step of 5.2 that allocates the colours).
    fn flag_cited(&mut self, rule: &str, cite: &str, players: Vec<u32>, message: String) {
        self.out.push(Violation {
            round: self.r,
            rule: rule.to_string(),
            players,
            message: format!("round {}: {message} — {cite}", self.r),
        });
    }

    fn is_topscorer(&self, id: u32) -> bool {
        self.last_round
            && self
                .info
                .get(&id)
                .is_some_and(|i| 2 * i.score > self.topscore_twice)
    }

    /// Records that `rule` was not checked within the time budget.
    fn leave_unchecked(&mut self, rule: &str) {
        self.unchecked.push(Unchecked {
            round: self.r,
            rule: rule.to_string(),
            message: format!(
                "round {}: not fully checked: the time limit passed before {rule} could be checked",
                self.r
            ),
        });
    }

    fn run(mut self) -> (Vec<Violation>, Vec<Unchecked>) {
        let Some(rd) = self.t.round(self.r) else {
            return (self.out, self.unchecked);
        };
        let rd = rd.clone();

        let seen = self.appearances(&rd);
        self.check_structure(&seen.places);
        let (to_pair, odd) = self.check_unpaired(&seen);
        self.check_rematches(&seen.games);
        let (games, pabs) = (seen.games, seen.pabs);

        // PAB eligibility and placement.
        for &p in &pabs {
            if let Some(bar) = self.info[&p].bye_bar.clone() {
                self.flag(
                    BYE_ELIGIBLE,
                    vec![p],
                    format!("{p} receives the pairing-allocated bye but {bar}"),
                );
            }
        }
        if pabs.len() == 1 && odd && self.info[&pabs[0]].bye_bar.is_none() {
            self.check_bye_placement(pabs[0], &to_pair, &games);
        }

        // Colours. A forfeit has no colour to judge: TRF often records none (`12 - -`), and
        // what it records was never played.
        for &(w, b, _) in games.iter().filter(|g| !g.2.is_forfeit()) {
            self.check_colour_limits(w, Colour::White, b);
            self.check_colour_limits(b, Colour::Black, w);
            self.check_allocation(w, b);
        }
        (self.out, self.unchecked)
    }

    /// Who appears where: each player's games and byes of the round, its known players' games
    /// and its pairing-allocated byes; unknown players and self-pairings are flagged here.
    fn appearances(&mut self, rd: &Round) -> Seen {
        let mut seen: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        let mut games: Vec<(u32, u32, GameResult)> = Vec::new();
        for g in &rd.games {
            for id in [g.white, g.black] {
                if !self.info.contains_key(&id) {
                    self.flag(
                        UNKNOWN,
                        vec![id],
                        format!(
                            "{} v {} names player {id}, who is not registered",
                            g.white, g.black
                        ),
                    );
                }
            }
            if g.white == g.black {
                self.flag(
                    ONCE,
                    vec![g.white],
                    format!("{} is paired against himself", g.white),
                );
                continue;
            }
            seen.entry(g.white)
                .or_default()
                .push(format!("the game {} v {}", g.white, g.black));
            seen.entry(g.black)
                .or_default()
                .push(format!("the game {} v {}", g.white, g.black));
            if self.info.contains_key(&g.white) && self.info.contains_key(&g.black) {
                games.push((g.white, g.black, g.result));
            }
        }
        let mut pabs: Vec<u32> = Vec::new();
        for b in &rd.byes {
            if !self.info.contains_key(&b.player) {
                self.flag(
                    UNKNOWN,
                    vec![b.player],
                    format!("a bye names player {}, who is not registered", b.player),
                );
                continue;
            }
            if b.kind == ByeKind::PairingAllocated {
                pabs.push(b.player);
                seen.entry(b.player)
                    .or_default()
                    .push("the pairing-allocated bye".to_string());
            }
        }
        Seen {
            places: seen,
            games,
            pabs,
        }
    }

    /// Structure: once per round, absent players not paired.
    fn check_structure(&mut self, seen: &BTreeMap<u32, Vec<String>>) {
        for (&id, places) in seen {
            let Some(inf) = self.info.get(&id) else {
                continue;
            };
            let (active, requested) = (inf.active, inf.requested);
            if places.len() > 1 {
                self.flag(
                    ONCE,
                    vec![id],
                    format!("{id} is paired more than once ({})", places.join(" and ")),
                );
            }
            let p = self.t.player(id).unwrap();
            if !active {
                let why = if p.withdrawn.is_some_and(|w| self.r >= w) {
                    format!("withdrew before round {}", p.withdrawn.unwrap())
                } else {
                    format!("joins only in round {}", p.joined.unwrap_or(0))
                };
                self.flag(
                    ABSENT,
                    vec![id],
                    format!("{id} {why} but is paired ({})", places.join(" and ")),
                );
            } else if let Some(k) = requested {
                let kind = match k {
                    ByeKind::Full => "a requested full-point bye",
                    ByeKind::Half => "a requested half-point bye",
                    _ => "a zero-point bye (known absence)",
                };
                self.flag(
                    ABSENT,
                    vec![id],
                    format!(
                        "{id} has {kind} but is also paired ({})",
                        places.join(" and ")
                    ),
                );
            }
        }
    }

    /// Everyone to pair is paired; the PAB only when odd, at most one. Returns the players
    /// to pair and whether they are odd in number.
    fn check_unpaired(&mut self, seen: &Seen) -> (Vec<u32>, bool) {
        let pabs = &seen.pabs;
        let to_pair: Vec<u32> = self
            .info
            .values()
            .filter(|i| i.active && i.requested.is_none())
            .map(|i| i.id)
            .collect();
        for &id in &to_pair {
            if !seen.places.contains_key(&id) {
                self.flag(
                    UNPAIRED,
                    vec![id],
                    format!(
                        "{id} is to be paired but has neither a game nor the pairing-allocated bye"
                    ),
                );
            }
        }
        let odd = to_pair.len() % 2 == 1;
        if pabs.len() > 1 {
            let list: Vec<String> = pabs.iter().map(|p| p.to_string()).collect();
            self.flag(
                UNPAIRED,
                pabs.clone(),
                format!(
                    "{} pairing-allocated byes ({}); at most one player may be left unpaired",
                    pabs.len(),
                    list.join(", ")
                ),
            );
        } else if pabs.len() == 1 && !odd {
            self.flag(
                UNPAIRED,
                pabs.clone(),
                format!(
                    "{} has the pairing-allocated bye, but the number of players to pair ({}) is even",
                    pabs[0],
                    to_pair.len()
                ),
            );
        }
        (to_pair, odd)
    }

    /// Rematches, and forbidden pairs met.
    fn check_rematches(&mut self, games: &[(u32, u32, GameResult)]) {
        for &(w, b, _) in games {
            if self.info[&w].played.contains(&b) {
                let rounds = met_in(self.t, w, b, self.r);
                if rounds.is_empty() {
                    self.flag(
                        REMATCH,
                        vec![w, b],
                        format!(
                            "{w} v {b} is a forbidden pair in round {} (TRF-2026 260)",
                            self.r
                        ),
                    );
                    continue;
                }
                let when = match rounds.as_slice() {
                    [] => "they met before".to_string(),
                    [one] => format!("they met in round {one}"),
                    many => format!(
                        "they met in rounds {}",
                        many.iter()
                            .map(|x| x.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                self.flag(
                    REMATCH,
                    vec![w, b],
                    format!("{w} v {b} is a rematch ({when})"),
                );
            }
        }
    }

    /// Whether `a` and `b` may meet under the absolute criteria: no rematch, and not two
    /// non-topscorers with the same absolute colour preference.
    fn allowed(&self, a: u32, b: u32) -> bool {
        let (ia, ib) = (&self.info[&a], &self.info[&b]);
        if ia.played.contains(&b) {
            return false;
        }
        match (ia.pref, ib.pref) {
            (Some(pa), Some(pb))
                if pa.strength == Strength::Absolute
                    && pb.strength == Strength::Absolute
                    && pa.colour == pb.colour =>
            {
                self.is_topscorer(a) || self.is_topscorer(b)
            }
            _ => true,
        }
    }

    /// The graph of the pairs [`Self::allowed`] accepts among `to_pair` (by index), stated
    /// as a rule: its memory is the players' opponents and preferences, never the pairs.
    fn allowed_graph(&self, to_pair: &[u32], index: &BTreeMap<u32, usize>) -> Matching {
        let played: Vec<Vec<usize>> = to_pair
            .iter()
            .map(|p| {
                let mut v: Vec<usize> = self.info[p]
                    .played
                    .iter()
                    .filter_map(|o| index.get(o).copied())
                    .collect();
                v.sort_unstable();
                v
            })
            .collect();
        // The absolute colour preference of each player not a topscorer (two such players
        // with the same one may not meet).
        let absolute: Vec<Option<Colour>> = to_pair
            .iter()
            .map(|&p| match self.info[&p].pref {
                Some(pr) if pr.strength == Strength::Absolute && !self.is_topscorer(p) => {
                    Some(pr.colour)
                }
                _ => None,
            })
            .collect();
        Matching::from_rule(
            to_pair.len(),
            std::rc::Rc::new(move |a, b| {
                played[a].binary_search(&b).is_err()
                    && !(absolute[a].is_some() && absolute[a] == absolute[b])
            }),
        )
    }

    /// The players who could have had the bye instead of `bye`: eligible ones of lower score
    /// groups (lowest group first, lowest ranked first), and lower-ranked ones of its own
    /// group who have played as many games.
    fn bye_candidates(&self, bye: u32, to_pair: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let bye_score = self.info[&bye].pairing_score;
        let eligible = |c: &Checker, id: u32| c.info[&id].bye_bar.is_none();
        // Candidates in lower score groups, lowest group first, lowest ranked first.
        let mut lower: Vec<u32> = to_pair
            .iter()
            .copied()
            .filter(|&p| p != bye && eligible(self, p))
            .filter(|&p| self.info[&p].pairing_score < bye_score)
            .collect();
        lower.sort_by(|&a, &b| lowest_first(&self.info[&a], &self.info[&b]));
        let same: Vec<u32> = {
            let mut v: Vec<u32> = to_pair
                .iter()
                .copied()
                .filter(|&p| p != bye && eligible(self, p))
                .filter(|&p| self.info[&p].pairing_score == bye_score)
                .filter(|&p| ranks_above(&self.info[&bye], &self.info[&p]))
                .filter(|&p| self.info[&p].colours.len() >= self.info[&bye].colours.len())
                .collect();
            v.sort_by(|&a, &b| lowest_first(&self.info[&a], &self.info[&b]));
            v
        };
        (lower, same)
    }

    /// Would the bye receiver `bye` taking `q`'s game against `o` (and `q` the bye) repeat
    /// floats the pairing avoided, or leave the C.18–C.21 comparison undecided.
    fn exchange_floats_worse(&self, bye: u32, q: u32, o: u32) -> bool {
        // Floats no worse (C.14–C.17: repeated downfloats, then upfloats, from the previous
        // round, then from two rounds before): the PAB is a downfloat for whoever gets it,
        // and the bye receiver takes over q's float against o.
        let role = {
            let (sq, so) = (self.info[&q].pairing_score, self.info[&o].pairing_score);
            float_role(sq, so)
        };
        let (fq, fb) = (
            float_history(self.t, q, self.r, &self.standings),
            float_history(self.t, bye, self.r, &self.standings),
        );
        let back = |id: u32, k: usize| -> Float {
            let f = if id == q { &fq } else { &fb };
            if f.len() >= k {
                f[f.len() - k]
            } else {
                Float::None
            }
        };
        let repeats = |pab: u32, player: u32| -> [u32; 4] {
            let mut out = [0; 4];
            for (i, k) in [1usize, 2].into_iter().enumerate() {
                let (mut down, mut up) = (0, 0);
                if back(pab, k) == Float::Down {
                    down += 1;
                }
                if role != Float::None && back(player, k) == role {
                    if role == Float::Down {
                        down += 1;
                    } else {
                        up += 1;
                    }
                }
                out[2 * i] = down;
                out[2 * i + 1] = up;
            }
            out
        };
        let (exchanged, made) = (repeats(q, bye), repeats(bye, q));
        if exchanged > made {
            return true;
        }
        // Equal repeated floats decide nothing yet: "FIDE Dutch 2025 C.18"–"C.21" then
        // weigh the repeated floaters' score differences (a PAB counts its receiver's whole
        // score), which this exchange does not compare; flag only when it repeats none.
        exchanged == made && exchanged != [0; 4]
    }

    /// The bye's placement: no lower group's player could have had it, nor (by a plain
    /// exchange) a lower-ranked player of its group.
    fn check_bye_placement(&mut self, bye: u32, to_pair: &[u32], games: &[(u32, u32, GameResult)]) {
        let bye_score = self.info[&bye].pairing_score;
        let index: BTreeMap<u32, usize> =
            to_pair.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let (lower, same) = self.bye_candidates(bye, to_pair);
        if lower.is_empty() && same.is_empty() {
            return;
        }
        let bye_rules = format!("{BYE_GROUP} and {BYE_RANK}");

        // The graph of allowed pairs, seeded with the round's own (allowed) pairs.
        let mut graph = self.allowed_graph(to_pair, &index);
        let mut opponent: BTreeMap<u32, (u32, Colour)> = BTreeMap::new();
        for &(w, b, _) in games {
            opponent.insert(w, (b, Colour::White));
            opponent.insert(b, (w, Colour::Black));
            if let (Some(&i), Some(&j)) = (index.get(&w), index.get(&b)) {
                graph.seed(i, j);
            }
        }
        let deadline = self.deadline;
        let feasible = |q: u32| -> Option<bool> {
            let mut g = graph.clone();
            g.covers_all_but_by(&[index[&q]], deadline)
        };

        let mut found = None;
        for &q in &lower {
            match feasible(q) {
                None => return self.leave_unchecked(&bye_rules),
                Some(true) => {
                    found = Some(q);
                    break;
                }
                Some(false) => {}
            }
        }
        if let Some(q) = found {
            let iq = &self.info[&q];
            self.flag(
                BYE_GROUP,
                vec![bye, q],
                format!(
                    "the pairing-allocated bye went to {bye} (score {}), but {q} of a lower score group (score {}) could have had it and the other players could still all be paired",
                    show(bye_score),
                    show(iq.pairing_score)
                ),
            );
            return;
        }
        // Softer: a plain exchange with a lower-ranked player of the same group.
        for &q in &same {
            let Some(&(o, q_col)) = opponent.get(&q) else {
                continue;
            };
            if !self.info.contains_key(&o) || !self.allowed(bye, o) || o == bye {
                continue;
            }
            // The bye receiver would take q's colour against o; o keeps his colour.
            let satisfied = |c: &Checker, id: u32, col: Colour| {
                c.info[&id].pref.is_none_or(|p| p.colour == col)
            };
            // Nobody's colour preference worse: o keeps his colour; the bye receiver must be
            // happy with q's colour; q (who now gets the bye) loses nothing.
            if !satisfied(self, bye, q_col) {
                continue;
            }
            if self.exchange_floats_worse(bye, q, o) {
                continue;
            }
            match feasible(q) {
                None => return self.leave_unchecked(BYE_RANK),
                Some(false) => continue,
                Some(true) => {}
            }
            self.flag(
                BYE_RANK,
                vec![bye, q],
                format!(
                    "the pairing-allocated bye went to {bye}, but lower-ranked {q} of the same score group (score {}) was eligible, has played as many games, and {bye} could simply have played {o} with {q}'s colour",
                    show(bye_score)
                ),
            );
            return;
        }
    }

    fn check_colour_limits(&mut self, id: u32, got: Colour, opp: u32) {
        let inf = &self.info[&id];
        let before = inf.diff();
        let after = before + got.sign();
        let mut hist = inf.colours.clone();
        hist.push(got);
        let exempt = self.is_topscorer(id) || self.is_topscorer(opp);
        let exempt_note = |c: &Checker| {
            if c.last_round {
                " (neither player is a topscorer, so the last-round exception does not apply)"
            } else {
                ""
            }
        };
        if after.abs() > 2 && after.abs() > before.abs() && !exempt {
            let note = exempt_note(self);
            self.flag(
                COLOUR_DIFF,
                vec![id, opp],
                format!(
                    "{id} gets {} against {opp}, making the colour difference {} (beyond ±2){note}",
                    colour_word(got),
                    signed(after)
                ),
            );
        }
        let n = hist.len();
        if n >= 3 && hist[n - 1] == hist[n - 2] && hist[n - 2] == hist[n - 3] && !exempt {
            let note = exempt_note(self);
            self.flag(
                COLOUR_ROW,
                vec![id, opp],
                format!(
                    "{id} gets {} against {opp} for the third time in a row (counting games played){note}",
                    colour_word(got)
                ),
            );
        }
    }

    /// The colour of `a` against `b` under 5.2.1–5.2.5, with the step that decided and why.
    fn allocate(&self, a: u32, b: u32) -> (Colour, &'static str, String) {
        let (ia, ib) = (&self.info[&a], &self.info[&b]);
        let (hi, lo) = if ranks_above(ia, ib) {
            (ia, ib)
        } else {
            (ib, ia)
        };
        let for_a = |hi_colour: Colour| {
            if hi.id == a {
                hi_colour
            } else {
                hi_colour.opposite()
            }
        };
        match (ia.pref, ib.pref) {
            (None, None) => {
                let initial = self.t.initial_colour.unwrap_or(Colour::White);
                let number = self.tpn.get(&hi.id).copied().unwrap_or(hi.id);
                let odd = number % 2 == 1;
                let c = if odd { initial } else { initial.opposite() };
                let shown = if number == hi.id {
                    String::new()
                } else {
                    format!(" ({number} among the players who have entered play)")
                };
                let why = format!(
                    "neither has a colour preference; higher-ranked {} has an {} pairing number{shown}, so gets {}",
                    hi.id,
                    if odd { "odd" } else { "even" },
                    if odd {
                        format!("the initial colour, {}", colour_word(c))
                    } else {
                        format!("the opposite of the initial colour, {}", colour_word(c))
                    }
                );
                (for_a(c), "5.2.5", why)
            }
            (Some(pa), None) => (
                pa.colour,
                "5.2.1",
                format!("{}; {b} has none", pref_text(a, Some(pa))),
            ),
            (None, Some(pb)) => (
                pb.colour.opposite(),
                "5.2.1",
                format!("{}; {a} has none", pref_text(b, Some(pb))),
            ),
            (Some(pa), Some(pb)) if pa.colour != pb.colour => (
                pa.colour,
                "5.2.1",
                format!(
                    "both preferences can be granted: {} and {}",
                    pref_text(a, Some(pa)),
                    pref_text(b, Some(pb))
                ),
            ),
            (Some(pa), Some(pb)) => {
                let want = pa.colour;
                // 5.2.2: the stronger preference.
                let stronger = if pa.strength != pb.strength {
                    Some(pa.strength > pb.strength)
                } else if pa.strength == Strength::Absolute && ia.diff().abs() != ib.diff().abs() {
                    Some(ia.diff().abs() > ib.diff().abs())
                } else {
                    None
                };
                if let Some(a_wins) = stronger {
                    let c = if a_wins { want } else { want.opposite() };
                    let (w, l) = if a_wins { (ia, ib) } else { (ib, ia) };
                    let why = if pa.strength != pb.strength {
                        format!(
                            "both want {}; {}'s {} preference beats {}'s {} one",
                            colour_word(want),
                            w.id,
                            if a_wins { pa } else { pb }.strength.word(),
                            l.id,
                            if a_wins { pb } else { pa }.strength.word()
                        )
                    } else {
                        format!(
                            "both have an absolute preference for {}; {}'s colour difference {} is wider than {}'s {}",
                            colour_word(want),
                            w.id,
                            signed(w.diff()),
                            l.id,
                            signed(l.diff())
                        )
                    };
                    return (c, "5.2.2", why);
                }
                // 5.2.3: alternate to the most recent time their colours differed.
                let (ca, cb) = (&ia.colours, &ib.colours);
                for k in 1..=ca.len().min(cb.len()) {
                    let (x, y) = (ca[ca.len() - k], cb[cb.len() - k]);
                    if x != y {
                        let why = format!(
                            "both want {}, equally strongly; alternating from the most recent differing game ({a} had {}, {b} {}; {} games back over played games)",
                            colour_word(want),
                            colour_word(x),
                            colour_word(y),
                            k
                        );
                        return (x.opposite(), "5.2.3", why);
                    }
                }
                // 5.2.4: the higher-ranked player's preference.
                let c = hi.pref.map(|p| p.colour).unwrap_or(want);
                let why = format!(
                    "both want {} equally strongly with the same colour histories; higher-ranked {} (over {}) gets his preference",
                    colour_word(want),
                    hi.id,
                    lo.id
                );
                (for_a(c), "5.2.4", why)
            }
        }
    }

    fn check_allocation(&mut self, w: u32, b: u32) {
        let (c, step, why) = self.allocate(w, b);
        if c != Colour::White {
            self.flag_cited(
                ALLOCATION,
                &format!("FIDE Dutch 2025 {step}"),
                vec![w, b],
                format!("{w} v {b} has the colours reversed: {b} should have white ({why})"),
            );
        }
    }
}

/// The float of a player on `mine` points paired against one on `theirs` (thousandths).
fn float_role(mine: Points, theirs: Points) -> Float {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Float::Down,
        std::cmp::Ordering::Less => Float::Up,
        std::cmp::Ordering::Equal => Float::None,
    }
}

/// Player `id`'s floats in rounds `1..round` (C.04.3 1.4, 2025 wording): after a game played
/// (or pending) between players of different scores, the higher one has a downfloat and the
/// lower one an upfloat; a player who gets the PAB, or who scores more than a loss without
/// playing (forfeit win, full- or half-point bye), has a downfloat; nobody else floats (a
/// forfeit loss or a zero-point absence is no float). Scores are pairing scores before the
/// round (virtual points included).
fn float_history(t: &Tournament, id: u32, round: u32, st: &Standings) -> Vec<Float> {
    let s = &t.scoring;
    let pairing_score = |pid: u32, k: u32| -> Points {
        let real = st
            .get(pid)
            .and_then(|x| x.score_before.get(k as usize - 1).copied())
            .unwrap_or(0.0);
        let vp = t.player(pid).map_or(0.0, |p| virtual_points(p, k));
        thousandths(real + vp)
    };
    let loss = thousandths(s.loss);
    (1..round)
        .map(|k| {
            let Some(rd) = t.round(k) else {
                return Float::None;
            };
            for b in rd.byes.iter().filter(|b| b.player == id) {
                if b.kind == ByeKind::PairingAllocated || thousandths(b.kind.points(s)) > loss {
                    return Float::Down;
                }
            }
            for g in rd.games.iter().filter(|g| g.white == id || g.black == id) {
                let opp = if g.white == id { g.black } else { g.white };
                if g.result.played() || g.result == GameResult::Pending {
                    let (mine, theirs) = (pairing_score(id, k), pairing_score(opp, k));
                    return float_role(mine, theirs);
                }
                let (pw, pb) = g.result.points(s);
                let mine = if g.white == id { pw } else { pb };
                if thousandths(mine) > loss {
                    return Float::Down;
                }
            }
            Float::None
        })
        .collect()
}

/// Pairing numbers as 5.2.5 counts them: the players in the tournament, in pairing-number order,
/// numbered from 1. A player who has not joined yet, or who is absent from round `round`
/// without ever having been paired before, has not entered play and is skipped, as a late
/// entry would be (C.04.2 initial order and late entries; it is also how the reference Dutch
/// engine numbers). Without such players this is the pairing number itself.
fn effective_numbers(t: &Tournament, round: u32, info: &BTreeMap<u32, Info>) -> BTreeMap<u32, u32> {
    let paired_before = t.paired_before(round);
    let mut ids: Vec<u32> = t.players.iter().map(|p| p.id).collect();
    ids.sort_unstable_by_key(|&id| t.number_of(id));
    let mut out = BTreeMap::new();
    let mut n = 0;
    for id in ids {
        let p = t.player(id).unwrap();
        if p.joined.is_some_and(|j| j > round) {
            continue;
        }
        let absent = info
            .get(&id)
            .is_none_or(|i| i.requested.is_some() || !i.active);
        if absent && !paired_before.contains(&id) {
            continue;
        }
        n += 1;
        out.insert(id, n);
    }
    out
}

/// The earlier rounds in which `a` and `b` met over the board (pending games count).
fn met_in(t: &Tournament, a: u32, b: u32, before: u32) -> Vec<u32> {
    t.rounds
        .iter()
        .filter(|rd| rd.number < before)
        .filter(|rd| {
            rd.games.iter().any(|g| {
                ((g.white == a && g.black == b) || (g.white == b && g.black == a))
                    && (g.result.played() || g.result == GameResult::Pending)
            })
        })
        .map(|rd| rd.number)
        .collect()
}

/// Why each barred player may not receive the pairing-allocated bye in round `round`
/// (C.04.1 d): the first reason found, by round.
fn bye_bars(t: &Tournament, round: u32) -> BTreeMap<u32, String> {
    let s = &t.scoring;
    let mut rounds: Vec<_> = t.rounds.iter().filter(|rd| rd.number < round).collect();
    rounds.sort_by_key(|rd| rd.number);
    let mut out = BTreeMap::new();
    for rd in rounds {
        for b in &rd.byes {
            let why = if b.kind == ByeKind::PairingAllocated {
                format!(
                    "already had the pairing-allocated bye in round {}",
                    rd.number
                )
            } else if s.win > 0.0 && thousandths(b.kind.points(s)) >= thousandths(s.win) {
                let what = match b.kind {
                    ByeKind::Full => "a requested full-point bye",
                    ByeKind::Half => "a requested half-point bye",
                    _ => "a zero-point bye",
                };
                format!(
                    "already scored a win's points without playing in round {} ({what})",
                    rd.number
                )
            } else {
                continue;
            };
            out.entry(b.player).or_insert(why);
        }
        for g in &rd.games {
            let (winner, loser) = match g.result {
                GameResult::WhiteForfeitWin => (g.white, g.black),
                GameResult::BlackForfeitWin => (g.black, g.white),
                _ => continue,
            };
            out.entry(winner).or_insert(format!(
                "already won by forfeit in round {} (against {loser})",
                rd.number
            ));
        }
    }
    out
}
