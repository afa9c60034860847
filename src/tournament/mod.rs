//! The domain: players, rounds, games, results, and the standings derived from them.
//!
//! A [`Tournament`] holds only facts (who entered, who played whom with which colour, what
//! happened); everything a pairing needs — scores, colour and float histories, bye eligibility —
//! is derived by [`standings`] so that it can never disagree with the results.
//!
//! Why one long file: the domain types and the derivations that must never disagree with the
//! results (scores, colours, floats, byes) live together; edits and tie-breaks are apart.

pub mod boards;
pub mod edit;
pub mod standings;
pub mod tiebreak;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use standings::{Float, Standing, Standings};

/// Points in thousandths of a point: every scoring the readers accept is exact in them, so
/// scores are ranked, grouped and compared as integers, never within a rounding margin.
pub fn milli(points: f64) -> i64 {
    (points * 1000.0).round() as i64
}

/// The native JSON format's version tag.
pub const FORMAT: &str = "optipair/1";

/// A colour in a game: white in chess; in Scrabble, white is the player who goes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// White; in Scrabble, first.
    White,
    /// Black; in Scrabble, second.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
    /// +1 for white, −1 for black: the colour difference counts whites minus blacks.
    pub fn sign(self) -> i32 {
        match self {
            Colour::White => 1,
            Colour::Black => -1,
        }
    }
}

/// The most rounds an event may have (a round number, rounds planned): far above any real
/// event, low enough that per-round buffers stay small whatever a file says.
pub const MAX_ROUNDS: u32 = 999;

/// The most points one result may be worth (either sign): scores are kept exactly in
/// thousandths of a point in 64-bit integers, with room for a thousand rounds of them.
pub const MAX_POINTS: f64 = 1.0e6;

/// Points as a director writes them: `3`, `0.5`, `1e-300`.
pub fn show_points(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e9 {
        format!("{v:.0}")
    } else if v.abs() >= 1e-3 && v.abs() < 1e9 {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// Whether `v` points is a whole number of thousandths (the unit scores are kept in exactly).
fn in_thousandths(v: f64) -> bool {
    let k = v * 1000.0;
    if k.round() == 0.0 {
        return v == 0.0;
    }
    (k - k.round()).abs() <= 1e-6 * k.abs().max(1.0)
}

/// Points for each kind of result. Defaults are 1 / ½ / 0 with a full-point pairing bye.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scoring {
    /// A game won over the board.
    pub win: f64,
    /// A game drawn (in Scrabble, a tie).
    pub draw: f64,
    /// A game lost over the board.
    pub loss: f64,
    /// A game won by forfeit (the opponent did not play).
    pub forfeit_win: f64,
    /// A game lost by forfeit (also each side of a double forfeit).
    pub forfeit_loss: f64,
    /// Pairing-allocated bye (TRF `U`).
    pub pairing_bye: f64,
    /// Requested full-point bye (TRF `F`).
    pub full_bye: f64,
    /// Requested half-point bye (TRF `H`).
    pub half_bye: f64,
    /// Zero-point bye or absence (TRF `Z`, or not paired).
    pub zero_bye: f64,
    /// Games keep scores (Scrabble): results are entered as game scores and spread breaks
    /// ties in the standings.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub game_scores: bool,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            win: 1.0,
            draw: 0.5,
            loss: 0.0,
            forfeit_win: 1.0,
            forfeit_loss: 0.0,
            pairing_bye: 1.0,
            full_bye: 1.0,
            half_bye: 0.5,
            zero_bye: 0.0,
            game_scores: false,
        }
    }
}

impl Scoring {
    /// The most a player can score in one round.
    pub fn max_per_round(&self) -> f64 {
        self.win.max(self.forfeit_win).max(self.pairing_bye)
    }
}

/// A player of the event, as entered: identity, rating, and when he plays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// Stable player id: unique, 1-based, never changed once given; games and byes name players
    /// by it. It is also the pairing number unless `pairing_number` says otherwise.
    pub id: u32,
    /// Pairing number (TRF starting rank) when it differs from `id`: a late entry takes its
    /// place in the initial order (FIDE C.04.2) and the players below it move down one, while
    /// ids stay. Read it through [`Player::number`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing_number: Option<u32>,
    /// Full name.
    pub name: String,
    /// Rating; 0 means unrated.
    #[serde(default)]
    pub rating: u32,
    /// FIDE title (`GM`, `IM`, …), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Federation, a three-letter code (e.g. `NED`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub federation: Option<String>,
    /// FIDE id, as digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fide_id: Option<String>,
    /// Sex as the TRF writes it (`m` / `w`, column 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sex: Option<String>,
    /// Birth date as the TRF writes it (`YYYY/MM/DD`, columns 70-79).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birth_date: Option<String>,
    /// A group label used by some systems (e.g. an acceleration group); informational otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Club, as a player list gives it (informational; TRF has no column for it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// First round the player is paired in (a late entry); earlier rounds are absences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joined: Option<u32>,
    /// Withdrawn before this round: not paired in it or any later round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn: Option<u32>,
    /// Division (section): each division is paired on its own; `None` is one unnamed
    /// division.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<String>,
    /// Points added for pairing only, per round (TRF `XXA`): index 0 is round 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub virtual_points: Vec<f64>,
}

impl Player {
    /// A player with this id (also his pairing number), name and rating (0 for unrated), nothing
    /// else recorded.
    pub fn new(id: u32, name: impl Into<String>, rating: u32) -> Self {
        Player {
            id,
            pairing_number: None,
            name: name.into(),
            rating,
            title: None,
            federation: None,
            fide_id: None,
            sex: None,
            birth_date: None,
            group: None,
            club: None,
            joined: None,
            withdrawn: None,
            division: None,
            virtual_points: Vec::new(),
        }
    }

    /// The pairing number: ranking ties are broken by it (lower ranks higher).
    pub fn number(&self) -> u32 {
        self.pairing_number.unwrap_or(self.id)
    }

    /// Whether the player takes part in round `round` (entered, not withdrawn).
    pub fn active_in(&self, round: u32) -> bool {
        self.joined.is_none_or(|j| round >= j) && self.withdrawn.is_none_or(|w| round < w)
    }
}

/// The outcome of a game. `Pending` is a game paired but not yet played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// Paired, not yet played.
    #[serde(rename = "*")]
    Pending,
    /// White (in Scrabble, the first player) won over the board.
    #[serde(rename = "1-0")]
    WhiteWins,
    /// A draw (in Scrabble, a tie).
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// Black (in Scrabble, the second player) won over the board.
    #[serde(rename = "0-1")]
    BlackWins,
    /// Black did not play: white wins by forfeit.
    #[serde(rename = "+-")]
    WhiteForfeitWin,
    /// White did not play: black wins by forfeit.
    #[serde(rename = "-+")]
    BlackForfeitWin,
    /// Neither played: both lose by forfeit.
    #[serde(rename = "--")]
    DoubleForfeit,
}

impl GameResult {
    /// Whether the game was actually played over the board (forfeits and pending are not).
    pub fn played(self) -> bool {
        matches!(
            self,
            GameResult::WhiteWins | GameResult::Draw | GameResult::BlackWins
        )
    }

    /// Whether the game was forfeited by one or both players (paired, not played).
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            GameResult::WhiteForfeitWin | GameResult::BlackForfeitWin | GameResult::DoubleForfeit
        )
    }

    /// Points for (white, black) under `s`; pending games score nothing yet.
    pub fn points(self, s: &Scoring) -> (f64, f64) {
        match self {
            GameResult::Pending => (0.0, 0.0),
            GameResult::WhiteWins => (s.win, s.loss),
            GameResult::Draw => (s.draw, s.draw),
            GameResult::BlackWins => (s.loss, s.win),
            GameResult::WhiteForfeitWin => (s.forfeit_win, s.forfeit_loss),
            GameResult::BlackForfeitWin => (s.forfeit_loss, s.forfeit_win),
            GameResult::DoubleForfeit => (s.forfeit_loss, s.forfeit_loss),
        }
    }

    /// Parses the notations a director types: `1-0`, `0-1`, `1/2`, `=`, `½-½`, `+-`, `-+`, `--`,
    /// `*`, also `1` / `0` for the white player's result.
    pub fn parse(text: &str) -> Option<GameResult> {
        Some(match text.trim() {
            "1-0" | "1" => GameResult::WhiteWins,
            "0-1" | "0" => GameResult::BlackWins,
            "1/2-1/2" | "1/2" | "=" | "½-½" | "½" | "0.5-0.5" | "draw" => GameResult::Draw,
            "+-" | "+/-" | "1F-0F" | "+" => GameResult::WhiteForfeitWin,
            "-+" | "-/+" | "0F-1F" => GameResult::BlackForfeitWin,
            "--" | "-/-" | "0F-0F" => GameResult::DoubleForfeit,
            "*" => GameResult::Pending,
            _ => return None,
        })
    }

    /// The result of a game with these scores (higher score wins; equal scores draw).
    pub fn from_scores(white: i32, black: i32) -> GameResult {
        match white.cmp(&black) {
            std::cmp::Ordering::Greater => GameResult::WhiteWins,
            std::cmp::Ordering::Less => GameResult::BlackWins,
            std::cmp::Ordering::Equal => GameResult::Draw,
        }
    }

    /// The result as the native format writes it: `1-0`, `1/2-1/2`, `0-1`, `+-`, `-+`, `--`, `*`.
    pub fn notation(self) -> &'static str {
        match self {
            GameResult::Pending => "*",
            GameResult::WhiteWins => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWins => "0-1",
            GameResult::WhiteForfeitWin => "+-",
            GameResult::BlackForfeitWin => "-+",
            GameResult::DoubleForfeit => "--",
        }
    }
}

/// One game of a round, as paired and as played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// White in chess; the player who goes first in Scrabble.
    pub white: u32,
    /// Black in chess; the player who goes second in Scrabble.
    pub black: u32,
    /// The result; [`GameResult::Pending`] until it is entered.
    #[serde(default = "pending")]
    pub result: GameResult,
    /// Game scores (white/first, black/second) where the game keeps them (Scrabble). The
    /// result must agree with them; spread is their difference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<[i32; 2]>,
    /// Whether `white` is known to have moved first (always, in chess).
    #[serde(default, skip_serializing_if = "Order::is_recorded")]
    pub order: Order,
}

impl Default for Game {
    fn default() -> Self {
        Game {
            white: 0,
            black: 0,
            result: GameResult::Pending,
            scores: None,
            order: Order::Recorded,
        }
    }
}

impl Game {
    /// A game with the given result and nothing else recorded.
    pub fn new(white: u32, black: u32, result: GameResult) -> Game {
        Game {
            white,
            black,
            result,
            ..Game::default()
        }
    }

    /// A Scrabble game from its scores: the result follows from them (a tie is a draw).
    pub fn scored(first: u32, second: u32, first_score: i32, second_score: i32) -> Game {
        Game {
            white: first,
            black: second,
            result: GameResult::from_scores(first_score, second_score),
            scores: Some([first_score, second_score]),
            order: Order::Recorded,
        }
    }

    /// Spread (own score minus opponent's) for `player`, if scores are recorded.
    pub fn spread_for(&self, player: u32) -> Option<i64> {
        let [a, b] = self.scores?;
        let d = i64::from(a) - i64::from(b);
        if player == self.white {
            Some(d)
        } else if player == self.black {
            Some(-d)
        } else {
            None
        }
    }
}

/// Who moved first. Chess always records it (the colours); a Scrabble record may not know, or
/// the pairing may leave it to a draw at the board (tsh `p12` values 4 and 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// `white` moved (or moves) first.
    #[default]
    Recorded,
    /// The players draw for first at the board.
    Draw,
    /// Not known who moved first.
    Unknown,
}

impl Order {
    /// Whether this is [`Order::Recorded`].
    pub fn is_recorded(&self) -> bool {
        *self == Order::Recorded
    }
}

fn pending() -> GameResult {
    GameResult::Pending
}

/// A round's entry for a player without an opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ByeKind {
    /// The bye the pairing gives when the field is odd (TRF `U`).
    PairingAllocated,
    /// Requested full-point bye (TRF `F`).
    Full,
    /// Requested half-point bye (TRF `H`).
    Half,
    /// Zero-point bye or known absence (TRF `Z`).
    Zero,
}

impl ByeKind {
    /// Points the bye scores under `s`.
    pub fn points(self, s: &Scoring) -> f64 {
        match self {
            ByeKind::PairingAllocated => s.pairing_bye,
            ByeKind::Full => s.full_bye,
            ByeKind::Half => s.half_bye,
            ByeKind::Zero => s.zero_bye,
        }
    }
    /// Requested byes and absences are known before the round is paired.
    pub fn is_requested(self) -> bool {
        !matches!(self, ByeKind::PairingAllocated)
    }
}

/// A player's entry in a round without an opponent: the pairing-allocated bye, a requested bye
/// or an absence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bye {
    /// The player, by id.
    pub player: u32,
    /// Which bye it is.
    pub kind: ByeKind,
    /// Spread credited for the bye where games keep scores (Scrabble; tsh records e.g. +50
    /// for a bye, −50 for a forfeit loss). `None` counts as 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<i32>,
}

impl Default for Bye {
    fn default() -> Self {
        Bye {
            player: 0,
            kind: ByeKind::PairingAllocated,
            spread: None,
        }
    }
}

/// One round: its games (board order) and byes. A round holding only requested byes is a round
/// not yet paired whose absences are known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Round {
    /// The round number, 1-based.
    pub number: u32,
    /// Games in board order (board 1 first).
    #[serde(default)]
    pub games: Vec<Game>,
    /// Byes and absences.
    #[serde(default)]
    pub byes: Vec<Bye>,
}

impl Round {
    /// Paired means the pairing exists: any game or a pairing-allocated bye.
    pub fn is_paired(&self) -> bool {
        !self.games.is_empty()
            || self
                .byes
                .iter()
                .any(|b| b.kind == ByeKind::PairingAllocated)
    }

    /// Players absent by request or known absence in this round.
    pub fn requested_byes(&self) -> impl Iterator<Item = &Bye> {
        self.byes.iter().filter(|b| b.kind.is_requested())
    }
}

/// Settings key holding per-division settings (`{division: {key: value}}`), applied by
/// [`Tournament::division`].
pub const DIVISION_SETTINGS: &str = "division_settings";

/// Settings key naming the one division an event holds (a tsh `.t` file's division, from its
/// `config.tsh`), so that `--division NAME` finds it. Not written to any file.
pub const DIVISION_NAME: &str = "tsh.division";

/// A whole event: its players, its rounds as recorded, its scoring and settings. Holds facts
/// only; scores and histories are derived from them ([`Standings`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tournament {
    /// Format tag, `optipair/1`.
    pub format: String,
    /// The event's name.
    #[serde(default)]
    pub name: String,
    /// Rounds planned; needed by rules that look at the last rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_planned: Option<u32>,
    /// Points for each kind of result.
    #[serde(default)]
    pub scoring: Scoring,
    /// Colour of the higher-ranked player on odd pairing numbers (FIDE Dutch E.5); white if
    /// unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_colour: Option<Colour>,
    /// The pairing system the event uses (`swiss` when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// System settings (e.g. acceleration parameters), by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, serde_json::Value>,
    /// Every player entered.
    pub players: Vec<Player>,
    /// The rounds recorded: paired, or holding only known absences.
    #[serde(default)]
    pub rounds: Vec<Round>,
    /// The event's own data (TRF 022-132).
    #[serde(default, skip_serializing_if = "Event::is_empty")]
    pub event: Event,
    /// What a TRF file held that optipair does not own, written back as read.
    #[serde(skip)]
    pub trf: TrfSource,
    /// The text encoding the event was read in (TRF files from managers may be
    /// Windows-1252); a TRF is written back in it. Not part of the JSON.
    #[serde(skip)]
    pub encoding: Encoding,
}

/// The event's own data, TRF-2026 022-132.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// 022
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    /// 032
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub federation: Option<String>,
    /// 042, `YYYY/MM/DD`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// 052, `YYYY/MM/DD`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    /// 102
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chief_arbiter: Option<String>,
    /// 112, one per line
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deputy_arbiters: Vec<String>,
    /// 122
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// 132, `YY/MM/DD` per round (blank where unknown)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub round_dates: Vec<String>,
}

impl Event {
    /// Whether no event data is recorded.
    pub fn is_empty(&self) -> bool {
        *self == Event::default()
    }
}

/// How a TRF file was written, so that it is written back as read: every line in its place,
/// a record group whose content has not changed as read (`formats::trf` owns the groups).
/// Not part of the event: any two compare equal (the same event read from CR and LF files is
/// the same event).
#[derive(Debug, Clone, Default)]
pub struct TrfSource {
    /// Every line as read, in order, with the record group optipair writes it from (`""` for
    /// a line it does not own: other header records, `###` comments, team and unknown
    /// records).
    pub lines: Vec<(String, String)>,
    /// Each owned group's text as optipair writes it, computed from what was read: a group
    /// whose text is still this is written back as read.
    pub canonical: std::collections::BTreeMap<String, String>,
    /// The record codes read (`142` or `XXR`, `XXS`, `250`, `XXP`, `240`, …): a group written
    /// afresh uses the codes the file used.
    pub codes: std::collections::BTreeSet<String>,
    /// Requested byes `(round, player)` read from TRF-2026 240 lines, and from round slots.
    pub byes_240: std::collections::BTreeSet<(u32, u32)>,
    /// Requested byes `(round, player)` of rounds not yet paired, read from the player's round
    /// slot rather than a 240 line.
    pub byes_slot: std::collections::BTreeSet<(u32, u32)>,
    /// The line ending read (`\r`, `\n` or `\r\n`); `\n` when none.
    pub line_ending: Option<String>,
    /// Whether the text began with a byte-order mark, and ended with a line ending.
    pub bom: bool,
    /// Whether the text ended with a line ending.
    pub final_newline: bool,
    /// TRF-2026 codes (142, 152, 162) read rather than TRF(x) ones (XXR, XXC, BB*).
    pub trf2026: bool,
    /// Whether the file had an initial-colour line (XXC, 152).
    pub colour_line: bool,
    /// The rank column (86-89) of each player as read, by id.
    pub ranks: std::collections::BTreeMap<u32, String>,
    /// Whether the file was read from TRF at all.
    pub read: bool,
}

impl PartialEq for TrfSource {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// A file's text encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// UTF-8.
    #[default]
    Utf8,
    /// Windows-1252 (Latin-1 with the printable 0x80-0x9F range).
    Windows1252,
}

/// Players who must not meet each other in rounds `from..=to` (TRF-2026 260, SwissSys
/// `XXP`): a hard rule of every system, kept in `settings.forbidden_pairs` as
/// `[{"from": 1, "to": 9, "players": [12, 30]}]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForbiddenPairs {
    /// First round of the bar, 1-based.
    pub from: u32,
    /// Last round of the bar, inclusive.
    pub to: u32,
    /// The players, by id: no two of them may meet in these rounds.
    pub players: Vec<u32>,
}

/// The settings key of [`ForbiddenPairs`].
pub const FORBIDDEN_PAIRS: &str = "forbidden_pairs";

impl Tournament {
    /// The forbidden pairs of `settings.forbidden_pairs` (TRF-2026 260); an error names a
    /// malformed value.
    pub fn forbidden_pairs(&self) -> crate::Result<Vec<ForbiddenPairs>> {
        match self.settings.get(FORBIDDEN_PAIRS) {
            None => Ok(Vec::new()),
            Some(v) => serde_json::from_value(v.clone()).map_err(|e| {
                crate::Error::field(
                    "settings.forbidden_pairs",
                    format!(
                        "expected a list of {{\"from\": ROUND, \"to\": ROUND, \"players\": [IDS]}}: {e}"
                    ),
                )
            }),
        }
    }

    /// Whom each player must not meet in round `round` (TRF-2026 260).
    pub fn forbidden_in(&self, round: u32) -> BTreeMap<u32, std::collections::BTreeSet<u32>> {
        let mut out: BTreeMap<u32, std::collections::BTreeSet<u32>> = BTreeMap::new();
        for fp in self.forbidden_pairs().unwrap_or_default() {
            if fp.from <= round && round <= fp.to {
                for &a in &fp.players {
                    for &b in &fp.players {
                        if a != b {
                            out.entry(a).or_default().insert(b);
                        }
                    }
                }
            }
        }
        out
    }

    /// An event of this name and these players, with no rounds, default scoring and no settings.
    pub fn new(name: impl Into<String>, players: Vec<Player>) -> Self {
        Tournament {
            format: FORMAT.to_string(),
            name: name.into(),
            rounds_planned: None,
            scoring: Scoring::default(),
            initial_colour: None,
            system: None,
            settings: BTreeMap::new(),
            players,
            rounds: Vec::new(),
            event: Event::default(),
            trf: TrfSource::default(),
            encoding: Encoding::Utf8,
        }
    }

    /// Player `id`, if entered.
    pub fn player(&self, id: u32) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    /// Player `id`'s pairing number (the id itself for an unknown player).
    pub fn number_of(&self, id: u32) -> u32 {
        self.player(id).map_or(id, Player::number)
    }

    /// Whether any pairing number differs from its player's id.
    pub fn renumbered(&self) -> bool {
        self.players.iter().any(|p| p.number() != p.id)
    }

    /// The number a director reads and types for player `id`: his pairing number, with his
    /// division's name before it where divisions share numbers (tsh's `b3`: each division
    /// numbers its players from 1).
    pub fn shown_number(&self, id: u32) -> String {
        self.player(id).map_or_else(
            || id.to_string(),
            |p| self.number_text(p, self.numbers_shared()),
        )
    }

    /// [`Tournament::shown_number`] of `p`, `shared` saying whether divisions share numbers
    /// ([`Tournament::numbers_shared`]; sheets of thousands of rows ask once).
    pub fn number_text(&self, p: &Player, shared: bool) -> String {
        match p.division.as_deref() {
            Some(d) if shared => format!("{d}{}", p.number()),
            _ => p.number().to_string(),
        }
    }

    /// Whether two divisions number players alike (tsh's: each from 1), so that a number
    /// needs its division's name to say whom it means.
    pub fn numbers_shared(&self) -> bool {
        let mut seen = std::collections::HashSet::new();
        !self.players.iter().all(|p| seen.insert(p.number()))
    }

    /// The event with every player's id his pairing number (games, byes and forbidden pairs
    /// renumbered alike), for the read-only commands whose messages name players by id: what
    /// they print is then the number the sheets show. Unchanged where numbers repeat.
    pub fn by_numbers(&self) -> Tournament {
        if !self.renumbered() || self.numbers_shared() {
            return self.clone();
        }
        let map: BTreeMap<u32, u32> = self.players.iter().map(|p| (p.id, p.number())).collect();
        let to = |id: u32| map.get(&id).copied().unwrap_or(id);
        let mut out = self.clone();
        for p in &mut out.players {
            p.id = p.number();
            p.pairing_number = None;
        }
        for r in &mut out.rounds {
            r.games
                .iter_mut()
                .for_each(|g| (g.white, g.black) = (to(g.white), to(g.black)));
            r.byes.iter_mut().for_each(|b| b.player = to(b.player));
        }
        if let Ok(mut fp) = self.forbidden_pairs() {
            fp.iter_mut()
                .for_each(|f| f.players.iter_mut().for_each(|id| *id = to(*id)));
            if !fp.is_empty() {
                let v = serde_json::to_value(fp).expect("json");
                out.settings.insert(FORBIDDEN_PAIRS.into(), v);
            }
        }
        out
    }

    /// The player a number typed by a director names: a pairing number (`16`), or in an event
    /// with several divisions a division's name and the number in it (`b3`). `None` when no
    /// player, or more than one (the same number in two divisions), has it.
    pub fn id_of_number(&self, text: &str) -> Option<u32> {
        let s = text.trim();
        let prefix = s.len() - s.trim_start_matches(|c: char| !c.is_ascii_digit()).len();
        let (div, num) = s.split_at(prefix);
        if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u32 = num.parse().ok()?;
        let mut found = self.players.iter().filter(|p| {
            p.number() == n
                && (div.is_empty()
                    || p.division
                        .as_deref()
                        .is_some_and(|d| d.eq_ignore_ascii_case(div)))
        });
        match (found.next(), found.next()) {
            (Some(p), None) => Some(p.id),
            _ => None,
        }
    }

    /// Round `number`, if recorded.
    pub fn round(&self, number: u32) -> Option<&Round> {
        self.rounds.iter().find(|r| r.number == number)
    }

    /// Round `number` to change, added (empty) if not yet recorded.
    pub fn round_mut(&mut self, number: u32) -> &mut Round {
        if let Some(i) = self.rounds.iter().position(|r| r.number == number) {
            return &mut self.rounds[i];
        }
        self.rounds.push(Round {
            number,
            ..Round::default()
        });
        self.rounds.sort_by_key(|r| r.number);
        let i = self.rounds.iter().position(|r| r.number == number).unwrap();
        &mut self.rounds[i]
    }

    /// The highest round number with a pairing.
    pub fn last_paired_round(&self) -> u32 {
        self.rounds
            .iter()
            .filter(|r| r.is_paired())
            .map(|r| r.number)
            .max()
            .unwrap_or(0)
    }

    /// Players paired in some round before `round` (a game, forfeited or not, or the
    /// pairing-allocated bye): those who have entered play, whatever their absences since.
    pub fn paired_before(&self, round: u32) -> std::collections::BTreeSet<u32> {
        let mut out = std::collections::BTreeSet::new();
        for rd in self.rounds.iter().filter(|r| r.number < round) {
            for g in &rd.games {
                out.insert(g.white);
                out.insert(g.black);
            }
            for b in rd.byes.iter().filter(|b| !b.kind.is_requested()) {
                out.insert(b.player);
            }
        }
        out
    }

    /// The tournament as it stood before round `round` was paired: later rounds dropped, and
    /// round `round` reduced to its requested byes (absences known in advance).
    pub fn before_round(&self, round: u32) -> Tournament {
        let mut t = self.clone();
        t.rounds.retain(|r| r.number <= round);
        if let Some(r) = t.rounds.iter_mut().find(|r| r.number == round) {
            r.games.clear();
            r.byes.retain(|b| b.kind.is_requested());
        }
        t
    }

    /// The divisions, in order of first appearance (one `None` when no player has one).
    pub fn divisions(&self) -> Vec<Option<String>> {
        let mut out: Vec<Option<String>> = Vec::new();
        for p in &self.players {
            if !out.contains(&p.division) {
                out.push(p.division.clone());
            }
        }
        out
    }

    /// The divisions' names for messages: `a, b, (none)`.
    pub fn division_names(&self) -> String {
        self.divisions()
            .iter()
            .map(|d| d.as_deref().unwrap_or("(none)"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The tournament restricted to one division: its players, and the games and byes that
    /// involve them (a game across divisions is kept only if both players are in it). The
    /// division's own settings (`settings["division_settings"][name]`, e.g. a tsh event's
    /// per-division prize bands and file fields) replace the event's of the same name.
    pub fn division(&self, division: &Option<String>) -> Tournament {
        let mut t = self.clone();
        if let Some(serde_json::Value::Object(own)) = division
            .as_ref()
            .and_then(|d| self.settings.get(DIVISION_SETTINGS)?.get(d))
        {
            for (k, v) in own {
                t.settings.insert(k.clone(), v.clone());
            }
            t.settings.remove(DIVISION_SETTINGS);
        }
        t.players.retain(|p| &p.division == division);
        let ids: std::collections::HashSet<u32> = t.players.iter().map(|p| p.id).collect();
        for r in &mut t.rounds {
            r.games
                .retain(|g| ids.contains(&g.white) && ids.contains(&g.black));
            r.byes.retain(|b| ids.contains(&b.player));
        }
        t
    }

    /// [`Tournament::division`] for a division named in a request: an error if no
    /// player is in it.
    /// Division names compare ignoring case, as tsh's do; an event of one division whose
    /// file named it (`settings["tsh.division"]`, a `.t` file's division in its
    /// `config.tsh`) answers to that name.
    pub fn named_division(&self, name: &str) -> crate::Result<Tournament> {
        let own = self.settings.get(DIVISION_NAME).and_then(|v| v.as_str());
        if self.divisions() == [None] && own.is_some_and(|o| o.eq_ignore_ascii_case(name)) {
            return Ok(self.clone());
        }
        let Some(d) = self
            .divisions()
            .into_iter()
            .find(|d| d.as_deref().is_some_and(|d| d.eq_ignore_ascii_case(name)))
        else {
            let known = match own {
                Some(o) if self.divisions() == [None] => o.to_string(),
                _ => self.division_names(),
            };
            return Err(crate::Error::field(
                "division",
                format!("no player is in division '{name}' (the event's divisions: {known})"),
            ));
        };
        Ok(self.division(&d))
    }

    /// Round numbers and rounds planned at most [`MAX_ROUNDS`]: numbers that size loops and
    /// buffers are bounded at the boundary, so that memory and time follow the data rather
    /// than the value of a number in it (readers call this before building anything more).
    pub fn check_rounds(&self) -> crate::Result<()> {
        use crate::Error;
        if let Some(r) = self.rounds_planned.filter(|&r| r > MAX_ROUNDS) {
            return Err(Error::field(
                "rounds_planned",
                format!("{r} rounds planned: at most {MAX_ROUNDS} are supported"),
            ));
        }
        if let Some((i, r)) = self
            .rounds
            .iter()
            .enumerate()
            .find(|(_, r)| r.number > MAX_ROUNDS)
        {
            return Err(Error::field(
                &format!("rounds[{i}].number"),
                format!(
                    "round number {}: at most {MAX_ROUNDS} rounds are supported",
                    r.number
                ),
            ));
        }
        Ok(())
    }

    /// Structural checks every format shares: bounded numbers, unique ids, known players in
    /// rounds, nobody twice in a round. Returns the first problem found.
    pub fn validate(&self) -> crate::Result<()> {
        use crate::Error;
        use std::collections::{HashMap, HashSet};
        if self.format != FORMAT {
            return Err(Error::field(
                "format",
                format!("unknown format '{}', expected '{FORMAT}'", self.format),
            ));
        }
        self.check_rounds()?;
        for fp in self.forbidden_pairs()? {
            for id in &fp.players {
                if self.player(*id).is_none() {
                    return Err(Error::field(
                        "settings.forbidden_pairs",
                        format!("forbidden pair: player {id} is not in the event"),
                    ));
                }
            }
        }
        let sc = &self.scoring;
        for (name, v) in [
            ("win", sc.win),
            ("draw", sc.draw),
            ("loss", sc.loss),
            ("forfeit_win", sc.forfeit_win),
            ("forfeit_loss", sc.forfeit_loss),
            ("pairing_bye", sc.pairing_bye),
            ("full_bye", sc.full_bye),
            ("half_bye", sc.half_bye),
            ("zero_bye", sc.zero_bye),
        ] {
            if !v.is_finite() || v.abs() > MAX_POINTS {
                return Err(Error::field(
                    &format!("scoring.{name}"),
                    format!(
                        "{} points: a result is worth between -{MAX_POINTS} and {MAX_POINTS}",
                        show_points(v)
                    ),
                ));
            }
            if !in_thousandths(v) {
                return Err(Error::field(
                    &format!("scoring.{name}"),
                    format!(
                        "{} points: results are counted in thousandths of a point",
                        show_points(v)
                    ),
                ));
            }
        }
        let mut ids = HashSet::new();
        for (i, p) in self.players.iter().enumerate() {
            if let Some(bad) = p.virtual_points.iter().find(|v| {
                !v.is_finite() || v.abs() > MAX_POINTS * MAX_ROUNDS as f64 || !in_thousandths(**v)
            }) {
                return Err(Error::field(
                    &format!("players[{i}].virtual_points"),
                    format!("{} is not a usable number of points", show_points(*bad)),
                ));
            }
            if p.virtual_points.len() > MAX_ROUNDS as usize {
                return Err(Error::field(
                    &format!("players[{i}].virtual_points"),
                    format!("more than {MAX_ROUNDS} rounds of virtual points"),
                ));
            }
            if p.id == 0 {
                return Err(Error::field(
                    &format!("players[{i}].id"),
                    "player id must be 1 or more",
                ));
            }
            if !ids.insert(p.id) {
                return Err(Error::field(
                    &format!("players[{i}].id"),
                    format!("duplicate player id {}", p.id),
                ));
            }
        }
        // Pairing numbers rank players: two alike would leave the order undefined.
        // Each division numbers its own players (tsh's a1, b1).
        let mut seen_numbers = HashMap::new();
        for (i, p) in self.players.iter().enumerate() {
            if p.pairing_number == Some(0) {
                return Err(Error::field(
                    &format!("players[{i}].pairing_number"),
                    "pairing number must be 1 or more",
                ));
            }
            if let Some(other) = seen_numbers.insert((p.division.clone(), p.number()), p.id) {
                return Err(Error::field(
                    &format!("players[{i}].pairing_number"),
                    format!("pairing number {} is also player {other}'s", p.number()),
                ));
            }
        }
        let mut numbers = HashSet::new();
        for (ri, r) in self.rounds.iter().enumerate() {
            if r.number == 0 || !numbers.insert(r.number) {
                return Err(Error::field(
                    &format!("rounds[{ri}].number"),
                    format!("round number {} is zero or repeated", r.number),
                ));
            }
            let mut seen = HashSet::new();
            let mut see = |id: u32, field: String| -> crate::Result<()> {
                if !ids.contains(&id) {
                    return Err(Error::field(&field, format!("unknown player id {id}")));
                }
                if !seen.insert(id) {
                    return Err(Error::field(
                        &field,
                        format!("player {id} appears twice in round {}", r.number),
                    ));
                }
                Ok(())
            };
            for (gi, g) in r.games.iter().enumerate() {
                see(g.white, format!("rounds[{ri}].games[{gi}].white"))?;
                see(g.black, format!("rounds[{ri}].games[{gi}].black"))?;
                if let Some([a, b]) = g.scores {
                    if g.result.played() && GameResult::from_scores(a, b) != g.result {
                        return Err(Error::field(
                            &format!("rounds[{ri}].games[{gi}].result"),
                            format!(
                                "result {} disagrees with the scores {a}-{b}",
                                g.result.notation()
                            ),
                        ));
                    }
                }
            }
            for (bi, b) in r.byes.iter().enumerate() {
                see(b.player, format!("rounds[{ri}].byes[{bi}].player"))?;
            }
        }
        Ok(())
    }
}
