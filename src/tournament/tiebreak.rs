//! Tie-breaks of FIDE C.07 ("Play-off and Tie-Break Regulations") and the ranking they give.
//!
//! Unplayed rounds (forfeits, byes, absences) follow C.07's article 16 as the 2024 text words
//! it, and as the revision in force from 1 March 2026 changes it:
//! - a voluntarily unplayed round (VUR: forfeit loss, half- or zero-point bye, absence) differs
//!   from a pairing-allocated bye, a full-point bye or a forfeit win (which are not VURs);
//! - an opponent's score counts as it stands, except that the opponent's unplayed rounds
//!   without an opponent after the last round he was not voluntarily absent (a withdrawal)
//!   count as draws ("FIDE C.07 16.3.2");
//! - each of the player's own unplayed rounds counts as a game against a dummy opponent with the
//!   player's own score ("FIDE C.07 16.4"); the 2026 revision caps that score by the forfeiting
//!   opponent's score, or, with no opponent, by half the points of the rounds so far
//!   ("FIDE C.07 16.4.1", "FIDE C.07 16.4.2"; read from the tie-break commission's reference
//!   program, the 2026 text was not available here). `settings.tiebreak_rules: "2024"`
//!   keeps the uncapped reading;
//! - a cut removes the player's voluntarily unplayed rounds first ("FIDE C.07 16").
//!
//! Article numbers are the 2024 text's. Round robins are not treated specially (every event is
//! read as a Swiss: no predetermined opponents stand in for unplayed games).

use super::{milli, ByeKind, Colour, GameResult, Tournament};
use crate::{Error, Result};
use std::collections::{BTreeMap, BTreeSet};

/// One tie-break, by its short name on the command line and in `settings.tiebreaks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tiebreak {
    /// Buchholz, with the `low` lowest and `high` highest contributions cut.
    Buchholz {
        /// Lowest contributions cut.
        low: usize,
        /// Highest contributions cut.
        high: usize,
    },
    /// Sonneborn-Berger: each opponent's (or a dummy's) score times the points scored against
    /// him ("FIDE C.07 9.1").
    SonnebornBerger,
    /// Progressive score: the sum of the running score after each round ("FIDE C.07 7.5").
    Progressive,
    /// Direct encounter: the points scored among the tied players ("FIDE C.07 6").
    DirectEncounter,
    /// Rounds won, with or without playing.
    Wins,
    /// Games won over the board.
    GamesWon,
    /// Games played with black over the board.
    BlackGames,
    /// Games won with black over the board.
    BlackWins,
    /// Average rating of opponents.
    Aro,
}

/// The tie-breaks when neither `--tiebreak` nor `settings.tiebreaks` names any.
pub const DEFAULT: [Tiebreak; 3] = [
    Tiebreak::Buchholz { low: 1, high: 0 },
    Tiebreak::Buchholz { low: 0, high: 0 },
    Tiebreak::SonnebornBerger,
];

/// Short names accepted, for error messages and the README.
pub const NAMES: &str =
    "bh, bh-c1, bh-c2, bh-m1, bh-m2, sb, prog (ps), de, win, won, bpg, bwg, aro";

impl Tiebreak {
    /// Parses a short name: `bh-c1`, also C.07's acronyms (`BH/C1`, `PS`), any case.
    pub fn parse(name: &str) -> Option<Tiebreak> {
        let n = name.trim().to_ascii_lowercase().replace(['/', '_'], "-");
        Some(match n.as_str() {
            "bh" | "buchholz" => Tiebreak::Buchholz { low: 0, high: 0 },
            "bh-c1" => Tiebreak::Buchholz { low: 1, high: 0 },
            "bh-c2" => Tiebreak::Buchholz { low: 2, high: 0 },
            "bh-m1" => Tiebreak::Buchholz { low: 1, high: 1 },
            "bh-m2" => Tiebreak::Buchholz { low: 2, high: 2 },
            "sb" => Tiebreak::SonnebornBerger,
            "prog" | "ps" => Tiebreak::Progressive,
            "de" => Tiebreak::DirectEncounter,
            "win" => Tiebreak::Wins,
            "won" => Tiebreak::GamesWon,
            "bpg" => Tiebreak::BlackGames,
            "bwg" => Tiebreak::BlackWins,
            "aro" => Tiebreak::Aro,
            _ => return None,
        })
    }

    /// The short name (as parsed back by [`Tiebreak::parse`]).
    pub fn name(&self) -> String {
        match *self {
            Tiebreak::Buchholz { low: 0, high: 0 } => "bh".into(),
            Tiebreak::Buchholz { low, high: 0 } => format!("bh-c{low}"),
            Tiebreak::Buchholz { low, high } if low == high => format!("bh-m{low}"),
            Tiebreak::Buchholz { low, high } => format!("bh-c{low}-h{high}"),
            Tiebreak::SonnebornBerger => "sb".into(),
            Tiebreak::Progressive => "prog".into(),
            Tiebreak::DirectEncounter => "de".into(),
            Tiebreak::Wins => "win".into(),
            Tiebreak::GamesWon => "won".into(),
            Tiebreak::BlackGames => "bpg".into(),
            Tiebreak::BlackWins => "bwg".into(),
            Tiebreak::Aro => "aro".into(),
        }
    }

    /// Column heading: C.07's acronym.
    pub fn heading(&self) -> String {
        match self {
            Tiebreak::Progressive => "PS".into(),
            other => other.name().to_ascii_uppercase(),
        }
    }

    /// The name in words.
    pub fn title(&self) -> String {
        match *self {
            Tiebreak::Buchholz { low: 0, high: 0 } => "Buchholz".into(),
            Tiebreak::Buchholz { low, high: 0 } => format!("Buchholz Cut-{low}"),
            Tiebreak::Buchholz { low, high } if low == high => format!("Buchholz Median-{low}"),
            Tiebreak::Buchholz { low, high } => format!("Buchholz Cut-{low}, highest {high}"),
            Tiebreak::SonnebornBerger => "Sonneborn-Berger".into(),
            Tiebreak::Progressive => "Progressive score".into(),
            Tiebreak::DirectEncounter => "Direct encounter".into(),
            Tiebreak::Wins => "Number of wins".into(),
            Tiebreak::GamesWon => "Games won over the board".into(),
            Tiebreak::BlackGames => "Games played with black".into(),
            Tiebreak::BlackWins => "Games won with black".into(),
            Tiebreak::Aro => "Average rating of opponents".into(),
        }
    }

    /// The article defining it.
    pub fn article(&self) -> &'static str {
        match self {
            Tiebreak::Buchholz { low: 0, high: 0 } => "FIDE C.07 8.1",
            Tiebreak::Buchholz { .. } => "FIDE C.07 8.1 and 14",
            Tiebreak::SonnebornBerger => "FIDE C.07 9.1",
            Tiebreak::Progressive => "FIDE C.07 7.5",
            Tiebreak::DirectEncounter => "FIDE C.07 6",
            Tiebreak::Wins => "FIDE C.07 7.1",
            Tiebreak::GamesWon => "FIDE C.07 7.2",
            Tiebreak::BlackGames => "FIDE C.07 7.3",
            Tiebreak::BlackWins => "FIDE C.07 7.4",
            Tiebreak::Aro => "FIDE C.07 10.1",
        }
    }
}

/// Parses a comma list of short names; `field` names where it came from in errors.
pub fn parse_list(text: &str, field: &str) -> Result<Vec<Tiebreak>> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match Tiebreak::parse(item) {
            Some(tb) => out.push(tb),
            None => {
                return Err(Error::field(
                    field,
                    format!("unknown tie-break '{item}'; known: {NAMES}"),
                ))
            }
        }
    }
    Ok(out)
}

/// The event's own list, `settings.tiebreaks` (a list of short names), if it has one.
pub fn from_settings(t: &Tournament) -> Result<Option<Vec<Tiebreak>>> {
    let Some(v) = t.settings.get("tiebreaks") else {
        return Ok(None);
    };
    let field = "settings.tiebreaks";
    let items = v
        .as_array()
        .ok_or_else(|| Error::field(field, "expected a list of tie-break names"))?;
    let mut names = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let s = item
            .as_str()
            .ok_or_else(|| Error::field(&format!("{field}[{i}]"), "expected a string"))?;
        names.push(s.to_string());
    }
    parse_list(&names.join(","), field).map(Some)
}

/// Which reading of C.07 article 16 applies (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// The 2024 text: a dummy opponent has the player's own score, uncapped.
    C07of2024,
    /// The revision in force from 1 March 2026: the dummy opponent's score capped
    /// ("FIDE C.07 16.4.1", "FIDE C.07 16.4.2").
    C07of2026,
}

impl Rules {
    /// `settings.tiebreak_rules` (`"2024"` or `"2026"`); 2026, the text in force, if unset.
    pub fn of(t: &Tournament) -> Result<Rules> {
        match t.settings.get("tiebreak_rules") {
            None => Ok(Rules::C07of2026),
            Some(v) => match v
                .as_str()
                .map(str::to_string)
                .unwrap_or(v.to_string())
                .as_str()
            {
                "2024" => Ok(Rules::C07of2024),
                "2026" => Ok(Rules::C07of2026),
                other => Err(Error::field(
                    "settings.tiebreak_rules",
                    format!("unknown rules '{other}'; known: 2024, 2026"),
                )),
            },
        }
    }
}

/// What happened to a player in one round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// Played over the board (colour `None` where first/second is not known).
    Played {
        /// The opponent, by id.
        opponent: u32,
        /// The player's colour, `None` where who went first is not recorded.
        colour: Option<Colour>,
        /// Points the player scored.
        points: f64,
    },
    /// Paired, but the game was not played: a forfeit either way, or both.
    Forfeit {
        /// The opponent, by id.
        opponent: u32,
        /// Points the player scored.
        points: f64,
    },
    /// Paired, result not in yet: scores nothing so far.
    Pending {
        /// The opponent, by id.
        opponent: u32,
    },
    /// A bye of any kind, requested or pairing-allocated.
    Bye {
        /// Which bye.
        kind: ByeKind,
        /// Points it scored.
        points: f64,
    },
    /// Neither paired nor given a bye: not entered yet, withdrawn, or absent.
    Absent,
}

impl Outcome {
    /// Points scored in the round (nothing for a pending game or an absence).
    pub fn points(&self) -> f64 {
        match *self {
            Outcome::Played { points, .. }
            | Outcome::Forfeit { points, .. }
            | Outcome::Bye { points, .. } => points,
            Outcome::Pending { .. } | Outcome::Absent => 0.0,
        }
    }

    /// The opponent paired, by id: in a game played, forfeited or pending.
    pub fn opponent(&self) -> Option<u32> {
        match *self {
            Outcome::Played { opponent, .. }
            | Outcome::Forfeit { opponent, .. }
            | Outcome::Pending { opponent } => Some(opponent),
            _ => None,
        }
    }

    /// A game over the board (a pending game is taken as one: it is being played).
    pub fn over_the_board(&self) -> bool {
        matches!(self, Outcome::Played { .. } | Outcome::Pending { .. })
    }

    /// A voluntarily unplayed round: a forfeit lost, a half- or zero-point bye, an absence. A
    /// pairing-allocated bye, a full-point bye and a forfeit win are not ("FIDE C.07 16.2").
    pub fn is_vur(&self, win: f64) -> bool {
        match *self {
            Outcome::Forfeit { points, .. } => milli(points) < milli(win),
            Outcome::Bye { kind, .. } => matches!(kind, ByeKind::Half | ByeKind::Zero),
            Outcome::Absent => true,
            Outcome::Played { .. } | Outcome::Pending { .. } => false,
        }
    }
}

/// Every player's rounds `1..=after`, and what tie-breaks need of the event.
#[derive(Debug, Clone)]
pub struct Records {
    /// The last round counted.
    pub after: u32,
    /// Each player's outcomes by id, index 0 = round 1.
    pub rounds: BTreeMap<u32, Vec<Outcome>>,
    /// Each player's rating by id (0 = unrated).
    pub rating: BTreeMap<u32, u32>,
    win: f64,
    draw: f64,
    rules: Rules,
}

impl Records {
    /// The records of `t` after round `after` (later rounds ignored).
    pub fn new(t: &Tournament, after: u32, rules: Rules) -> Records {
        let s = &t.scoring;
        let mut rounds: BTreeMap<u32, Vec<Outcome>> = t
            .players
            .iter()
            .map(|p| (p.id, vec![Outcome::Absent; after as usize]))
            .collect();
        for r in t
            .rounds
            .iter()
            .filter(|r| r.number >= 1 && r.number <= after)
        {
            let i = (r.number - 1) as usize;
            let mut set = |id: u32, o: Outcome| {
                if let Some(v) = rounds.get_mut(&id) {
                    v[i] = o;
                }
            };
            for g in &r.games {
                let (pw, pb) = g.result.points(s);
                // Chess always knows the colours; a Scrabble record may not know who went first.
                let known = g.order == super::Order::Recorded;
                let colour = |c: Colour| known.then_some(c);
                let (ow, ob) = match g.result {
                    GameResult::Pending => (
                        Outcome::Pending { opponent: g.black },
                        Outcome::Pending { opponent: g.white },
                    ),
                    res if res.played() => (
                        Outcome::Played {
                            opponent: g.black,
                            colour: colour(Colour::White),
                            points: pw,
                        },
                        Outcome::Played {
                            opponent: g.white,
                            colour: colour(Colour::Black),
                            points: pb,
                        },
                    ),
                    _ => (
                        Outcome::Forfeit {
                            opponent: g.black,
                            points: pw,
                        },
                        Outcome::Forfeit {
                            opponent: g.white,
                            points: pb,
                        },
                    ),
                };
                set(g.white, ow);
                set(g.black, ob);
            }
            for b in &r.byes {
                set(
                    b.player,
                    Outcome::Bye {
                        kind: b.kind,
                        points: b.kind.points(s),
                    },
                );
            }
        }
        Records {
            after,
            rounds,
            rating: t.players.iter().map(|p| (p.id, p.rating)).collect(),
            win: s.win,
            draw: s.draw,
            rules,
        }
    }

    fn of(&self, id: u32) -> &[Outcome] {
        self.rounds.get(&id).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The player's points over the rounds counted.
    pub fn score(&self, id: u32) -> f64 {
        self.of(id).iter().map(Outcome::points).sum()
    }

    /// The player's score as an opponent's Buchholz counts it: rounds without an opponent after
    /// the last round he was not voluntarily absent count as draws ("FIDE C.07 16.3.2").
    pub fn adjusted_score(&self, id: u32) -> f64 {
        let rounds = self.of(id);
        let last_present = rounds
            .iter()
            .rposition(|o| !o.is_vur(self.win))
            .map_or(0, |i| i + 1);
        rounds
            .iter()
            .enumerate()
            .map(|(i, o)| {
                if i < last_present || o.opponent().is_some() {
                    o.points()
                } else {
                    self.draw
                }
            })
            .sum()
    }

    /// The score of the dummy opponent met in an unplayed round ("FIDE C.07 16.4").
    fn dummy(&self, id: u32, o: &Outcome) -> f64 {
        let own = self.score(id);
        match self.rules {
            Rules::C07of2024 => own,
            Rules::C07of2026 => match o.opponent() {
                // "FIDE C.07 16.4.1": no more than the opponent who did not play.
                Some(opp) => own.min(self.adjusted_score(opp)),
                // "FIDE C.07 16.4.2": no more than half the points of the rounds so far.
                None => own.min(self.draw * f64::from(self.after)),
            },
        }
    }

    /// Each round's Buchholz contribution (value, voluntarily unplayed) and own points.
    fn contributions(&self, id: u32) -> Vec<(f64, bool, f64)> {
        self.of(id)
            .iter()
            .map(|o| match o {
                o if o.over_the_board() => (
                    self.adjusted_score(o.opponent().unwrap()),
                    false,
                    o.points(),
                ),
                o => (self.dummy(id, o), o.is_vur(self.win), o.points()),
            })
            .collect()
    }

    /// Buchholz with cuts: the lowest `low` contributions go, voluntarily unplayed rounds
    /// first ("FIDE C.07 16"), then the highest `high` ("FIDE C.07 14").
    pub fn buchholz(&self, id: u32, low: usize, high: usize) -> f64 {
        let mut c: Vec<(f64, bool)> = self
            .contributions(id)
            .into_iter()
            .map(|(v, vur, _)| (v, vur))
            .collect();
        for _ in 0..low {
            let pick = |vur_only: bool| {
                c.iter()
                    .enumerate()
                    .filter(|(_, x)| !vur_only || x.1)
                    .min_by_key(|x| milli(x.1 .0))
                    .map(|(i, _)| i)
            };
            match pick(true).or_else(|| pick(false)) {
                Some(i) => {
                    c.remove(i);
                }
                None => break,
            }
        }
        for _ in 0..high {
            let top = c
                .iter()
                .enumerate()
                .max_by_key(|x| milli(x.1 .0))
                .map(|(i, _)| i);
            match top {
                Some(i) => {
                    c.remove(i);
                }
                None => break,
            }
        }
        c.iter().map(|x| x.0).sum()
    }

    /// Sonneborn-Berger: each opponent's (or dummy's) score times the points scored in that
    /// round ("FIDE C.07 9.1").
    pub fn sonneborn_berger(&self, id: u32) -> f64 {
        self.contributions(id)
            .into_iter()
            .map(|(v, _, pts)| v * pts)
            .sum()
    }

    /// The sum of the running score after each round ("FIDE C.07 7.5").
    pub fn progressive(&self, id: u32) -> f64 {
        let mut run = 0.0;
        let mut sum = 0.0;
        for o in self.of(id) {
            run += o.points();
            sum += run;
        }
        sum
    }

    /// Rounds with a win's points, played or not ("FIDE C.07 7.1").
    pub fn wins(&self, id: u32) -> f64 {
        let n = self.of(id).iter().filter(|o| {
            !matches!(o, Outcome::Pending { .. }) && milli(o.points()) >= milli(self.win)
        });
        n.count() as f64
    }

    fn count_played(&self, id: u32, f: impl Fn(Option<Colour>, f64) -> bool) -> f64 {
        let n = self.of(id).iter().filter(|o| match **o {
            Outcome::Played { colour, points, .. } => f(colour, points),
            _ => false,
        });
        n.count() as f64
    }

    /// Average rating of the opponents met over the board, unrated ones left out, rounded to
    /// the nearest whole number ("FIDE C.07 10.1"); 0 with no rated opponent.
    pub fn aro(&self, id: u32) -> f64 {
        let ratings: Vec<u32> = self
            .of(id)
            .iter()
            .filter_map(|o| match o {
                Outcome::Played { opponent, .. } => self.rating.get(opponent).copied(),
                _ => None,
            })
            .filter(|&r| r > 0)
            .collect();
        if ratings.is_empty() {
            return 0.0;
        }
        let sum: u64 = ratings.iter().map(|&r| u64::from(r)).sum();
        let n = ratings.len() as u64;
        ((2 * sum + n) / (2 * n)) as f64
    }

    /// The value of a numeric tie-break (`None` for direct encounter, which ranks groups).
    pub fn value(&self, tb: Tiebreak, id: u32) -> Option<f64> {
        let win = self.win;
        Some(match tb {
            Tiebreak::Buchholz { low, high } => self.buchholz(id, low, high),
            Tiebreak::SonnebornBerger => self.sonneborn_berger(id),
            Tiebreak::Progressive => self.progressive(id),
            Tiebreak::Wins => self.wins(id),
            Tiebreak::GamesWon => self.count_played(id, |_, p| milli(p) >= milli(win)),
            Tiebreak::BlackGames => self.count_played(id, |c, _| c == Some(Colour::Black)),
            Tiebreak::BlackWins => self.count_played(id, |c, p| {
                c == Some(Colour::Black) && milli(p) >= milli(win)
            }),
            Tiebreak::Aro => self.aro(id),
            Tiebreak::DirectEncounter => return None,
        })
    }

    /// Points scored over the board against the others of `group`, and how many of them were
    /// met (a pair that met more than once counts its average).
    fn encounter(&self, id: u32, group: &BTreeSet<u32>) -> (f64, usize) {
        let mut by_opp: BTreeMap<u32, (f64, u32)> = BTreeMap::new();
        for o in self.of(id) {
            if let Outcome::Played {
                opponent, points, ..
            } = *o
            {
                if opponent != id && group.contains(&opponent) {
                    let e = by_opp.entry(opponent).or_default();
                    e.0 += points;
                    e.1 += 1;
                }
            }
        }
        let pts = by_opp.values().map(|(p, n)| p / f64::from(*n)).sum();
        (pts, by_opp.len())
    }

    /// Direct encounter on a tied group ("FIDE C.07 6"): if all have met, ranked by the points
    /// scored among them; if not, a player goes ahead only when his points exceed what any
    /// other could have reached by winning the games not played, and so on down the group.
    /// Sub-groups still tied are treated again on their own. Returns the blocks in order.
    fn direct_encounter(&self, group: &[u32]) -> Vec<Vec<u32>> {
        if group.len() < 2 {
            return vec![group.to_vec()];
        }
        let set: BTreeSet<u32> = group.iter().copied().collect();
        let others = group.len() - 1;
        // Points scored and points reachable, in thousandths: compared exactly.
        let mut e: Vec<(u32, i64, i64)> = group
            .iter()
            .map(|&id| {
                let (pts, met) = self.encounter(id, &set);
                let reach = pts + (others - met) as f64 * self.win;
                (id, milli(pts), milli(reach))
            })
            .collect();
        e.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let all_met = e.iter().all(|x| x.2 == x.1);
        let mut blocks: Vec<Vec<u32>> = Vec::new();
        if all_met {
            let mut last = None;
            for x in &e {
                match blocks.last_mut() {
                    Some(b) if last == Some(x.1) => b.push(x.0),
                    _ => blocks.push(vec![x.0]),
                }
                last = Some(x.1);
            }
        } else {
            let mut i = 0;
            while i + 1 < e.len() {
                let best_rest = e[i + 1..].iter().map(|x| x.2).max().unwrap_or(i64::MIN);
                if e[i].1 > best_rest {
                    blocks.push(vec![e[i].0]);
                    i += 1;
                } else {
                    break;
                }
            }
            blocks.push(e[i..].iter().map(|x| x.0).collect());
        }
        if blocks.len() == 1 {
            return blocks;
        }
        blocks
            .into_iter()
            .flat_map(|b| self.direct_encounter(&b))
            .collect()
    }
}

/// A tie-break value in millionths of a point, to compare exactly: Sonneborn-Berger multiplies
/// two scores in thousandths, every other value is a sum of scores or a count.
fn exact(v: f64) -> i128 {
    (v * 1e6).round() as i128
}

/// One line of the standings. Score and values are points for display; the ranking compares
/// them in thousandths ([`milli`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The player, by id.
    pub id: u32,
    /// Shared by players still tied after every tie-break.
    pub rank: u32,
    /// The player's points over the rounds ranked.
    pub score: f64,
    /// One per tie-break in order; direct encounter shows the points scored against the others
    /// of the tied group it was applied to (`None` when the player was not tied then).
    pub values: Vec<Option<f64>>,
}

/// Ranks every player of `t` after round `after` by score, then `tiebreaks` in order; players
/// still tied share a rank and are listed by pairing number.
pub fn standings(t: &Tournament, after: u32, tiebreaks: &[Tiebreak]) -> Result<Vec<Row>> {
    let rec = Records::new(t, after, Rules::of(t)?);
    let mut rows: BTreeMap<u32, Row> = rec
        .rounds
        .keys()
        .map(|&id| {
            let values = tiebreaks.iter().map(|&tb| rec.value(tb, id)).collect();
            (
                id,
                Row {
                    id,
                    rank: 0,
                    score: rec.score(id),
                    values,
                },
            )
        })
        .collect();
    // Blocks of players not yet told apart, best first.
    let mut ids: Vec<u32> = rows.keys().copied().collect();
    let score = |id: &u32| milli(rows[id].score);
    ids.sort_by(|a, b| score(b).cmp(&score(a)).then(a.cmp(b)));
    let mut blocks: Vec<Vec<u32>> = Vec::new();
    for id in ids {
        match blocks.last_mut() {
            Some(b) if score(&b[0]) == score(&id) => b.push(id),
            _ => blocks.push(vec![id]),
        }
    }
    for (k, &tb) in tiebreaks.iter().enumerate() {
        let mut next = Vec::new();
        for block in blocks {
            if block.len() < 2 {
                next.push(block);
                continue;
            }
            if tb == Tiebreak::DirectEncounter {
                let set: BTreeSet<u32> = block.iter().copied().collect();
                for &id in &block {
                    rows.get_mut(&id).unwrap().values[k] = Some(rec.encounter(id, &set).0);
                }
                next.extend(rec.direct_encounter(&block));
                continue;
            }
            let v = |id: u32| exact(rows[&id].values[k].unwrap_or(0.0));
            let mut sorted = block;
            sorted.sort_by(|a, b| v(*b).cmp(&v(*a)).then(a.cmp(b)));
            let mut sub: Vec<Vec<u32>> = Vec::new();
            for id in sorted {
                match sub.last_mut() {
                    Some(b) if v(b[0]) == v(id) => b.push(id),
                    _ => sub.push(vec![id]),
                }
            }
            next.extend(sub);
        }
        blocks = next;
    }
    let mut out = Vec::new();
    let mut rank = 1;
    for mut block in blocks {
        block.sort_unstable();
        let n = block.len() as u32;
        for id in block {
            let mut row = rows.remove(&id).unwrap();
            row.rank = rank;
            out.push(row);
        }
        rank += n;
    }
    Ok(out)
}
