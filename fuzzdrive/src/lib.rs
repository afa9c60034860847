//! Fuzzing optipair: the targets the cargo-fuzz crate (`fuzz/`) runs, and a seeded mutator and
//! driver that runs the same targets on the stable toolchain (`examples/fuzz.rs`,
//! `tests/fuzz.rs`). A crate of its own beside the library, so that the library keeps no panic
//! hooks or process-wide state for fuzzing.
//!
//! A target function panics when the code under test breaks a property, so that libFuzzer
//! records the input; the driver runs each input under [`std::panic::catch_unwind`] and counts
//! instead. Properties:
//!
//! * every parser: no panic; bad input is an [`optipair::Error`];
//! * JSON: what parses and validates writes back and reads back equal; written as TRF it
//!   either reads back or is refused with an error (never a file that no longer loads);
//! * TRF and `.t`: what parses writes back to a file that reads back and writes the same text;
//! * CSV: a parsed list makes a valid tournament;
//! * result lines: a rejected text leaves the tournament as it was, an accepted one leaves it
//!   valid;
//! * pair + check: [`engine::pair_round`] under each system, then [`verify::check`] on the
//!   stored round. Refusals (`Err`) are fine; verifier objections, a proof claimed for a
//!   pairing the verifier rejects, and runs far past the time limit are findings.
//!
//! Why one long file: each target is a small function, and the generators of structured inputs
//! they share (fields, histories, files in every format) sit beside them.

use optipair::engine;
use optipair::formats::{self, csv, json, results, trf, tsh, tsh_config};
use optipair::generate::{self, Rng};
use optipair::solve::Options;
use optipair::solve::Status;
use optipair::tournament::{Bye, ByeKind, Game, GameResult, Player, Tournament};
use optipair::verify;
use optipair::SystemKind;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The fuzz targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    Json,
    Trf,
    Tsh,
    Csv,
    Results,
    /// tsh's `config.tsh`.
    Config,
    /// A small event built from the input's bytes, paired and checked.
    Pair,
}

impl Target {
    /// The parser targets, in the order the driver runs them.
    pub const PARSERS: [Target; 6] = [
        Target::Json,
        Target::Trf,
        Target::Tsh,
        Target::Csv,
        Target::Results,
        Target::Config,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::Json => "json",
            Target::Trf => "trf",
            Target::Tsh => "tsh",
            Target::Csv => "csv",
            Target::Results => "results",
            Target::Config => "config",
            Target::Pair => "pair",
        }
    }

    /// The corpus subdirectory and file extension of the target's inputs.
    pub fn ext(self) -> &'static str {
        match self {
            Target::Json => "json",
            Target::Trf => "trf",
            Target::Tsh => "t",
            Target::Csv => "csv",
            Target::Results => "txt",
            Target::Config => "tsh",
            Target::Pair => "json",
        }
    }
}

/// Counts the nodes of a JSON value (pre-order, the value itself included).
fn count_nodes(v: &serde_json::Value, n: &mut usize) {
    *n += 1;
    match v {
        serde_json::Value::Array(items) => items.iter().for_each(|i| count_nodes(i, n)),
        serde_json::Value::Object(map) => map.values().for_each(|i| count_nodes(i, n)),
        _ => {}
    }
}

/// Text as the loaders see it: invalid UTF-8 is rejected (`formats::read_text`).
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Panics unless `got` is `want`, naming the first line that differs.
fn same_text(got: optipair::Result<String>, want: &str, what: &str) {
    let got = got.unwrap_or_else(|e| panic!("{what}: the second write is refused: {e}"));
    if got != want {
        let (n, (a, b)) = got
            .lines()
            .chain(std::iter::repeat(""))
            .zip(want.lines().chain(std::iter::repeat("")))
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .unwrap_or((0, ("", "")));
        panic!("{what} is not stable: line {}: {a:?} was {b:?}", n + 1);
    }
}

/// JSON target. Returns the tournament when the input parses and validates.
pub fn json_target(data: &[u8]) -> Option<Tournament> {
    let t = json::parse(text(data)?).ok()?;
    t.validate().ok()?;
    let written = json::write(&t);
    let back = json::parse(&written).expect("written JSON reads back");
    if back != t {
        same_text(
            Ok(json::write(&back)),
            &written,
            "JSON write → read → write",
        );
        panic!("JSON round trip changed the data");
    }
    // The same event as TRF: refused with an error, or a file that loads.
    if let Ok(w) = trf::write(&t) {
        let again = trf::parse(&w)
            .unwrap_or_else(|e| panic!("TRF written from JSON does not load: {e}\n{w}"));
        again.validate().expect("TRF written from JSON validates");
        same_text(trf::write(&again), &w, "JSON → TRF → read → TRF");
    }
    Some(t)
}

/// TRF target.
pub fn trf_target(data: &[u8]) -> Option<Tournament> {
    let t = trf::parse(text(data)?).ok()?;
    t.validate().ok()?;
    if let Ok(w) = trf::write(&t) {
        let again =
            trf::parse(&w).unwrap_or_else(|e| panic!("written TRF does not load: {e}\n{w}"));
        same_text(trf::write(&again), &w, "TRF write → read → write");
    }
    Some(t)
}

/// tsh `.t` target.
pub fn tsh_target(data: &[u8]) -> Option<Tournament> {
    let t = tsh::parse(text(data)?).ok()?;
    if let Ok(w) = tsh::write(&t) {
        let again = tsh::parse(&w).unwrap_or_else(|e| panic!("written .t does not load: {e}\n{w}"));
        same_text(tsh::write(&again), &w, ".t write → read → write");
    }
    Some(t)
}

/// CSV player-list target.
pub fn csv_target(data: &[u8]) -> Option<Tournament> {
    let players = csv::parse_players(text(data)?).ok()?;
    let t = Tournament::new("csv", players);
    t.validate()
        .expect("a parsed player list makes a valid tournament");
    Some(t)
}

/// The `config.tsh` target: a config that parses applies to an event (its first division's
/// settings), which then either validates or is refused with an error, never a panic.
pub fn config_target(data: &[u8]) -> Option<Tournament> {
    let cfg = tsh_config::parse(text(data)?).ok()?;
    let mut t = Tournament::new(
        "config",
        vec![Player::new(1, "A", 1500), Player::new(2, "B", 1400)],
    );
    let division = cfg
        .divisions
        .first()
        .map(|d| d.0.clone())
        .unwrap_or_default();
    cfg.apply(&division, &mut t);
    t.validate().ok()?;
    Some(t)
}

/// Events to record results into: round 1 paired with every kind of entry, pending.
fn results_bases() -> &'static [Tournament; 2] {
    static BASES: OnceLock<[Tournament; 2]> = OnceLock::new();
    BASES.get_or_init(|| {
        let players: Vec<Player> = (1..=9)
            .map(|i| Player::new(i, format!("P{i}"), 2000 - 10 * i))
            .collect();
        let mut chess = Tournament::new("results", players);
        let rd = chess.round_mut(1);
        for (w, b) in [(1, 5), (6, 2), (3, 7), (8, 4)] {
            rd.games.push(Game::new(w, b, GameResult::Pending));
        }
        rd.byes.push(Bye {
            player: 9,
            kind: ByeKind::PairingAllocated,
            spread: None,
        });
        let mut scrabble = chess.clone();
        scrabble.scoring.game_scores = true;
        [chess, scrabble]
    })
}

/// Result-lines target: applied to a chess and a Scrabble round.
pub fn results_target(data: &[u8]) -> Option<Tournament> {
    let text = text(data)?;
    let mut last = None;
    for base in results_bases() {
        let mut t = base.clone();
        match results::apply(&mut t, 1, text) {
            Ok(_) => {
                t.validate().expect("recorded results keep the event valid");
                last = Some(t);
            }
            Err(_) => assert_eq!(&t, base, "a rejected result text changed the event"),
        }
    }
    last
}

/// Runs a parser target.
pub fn parse_target(target: Target, data: &[u8]) -> Option<Tournament> {
    match target {
        Target::Json => json_target(data),
        Target::Trf => trf_target(data),
        Target::Tsh => tsh_target(data),
        Target::Csv => csv_target(data),
        Target::Results => results_target(data),
        Target::Config => config_target(data),
        Target::Pair => Some(event_from_bytes(data, &pair_options(2.0)).ok()?),
    }
}

/// Options for fuzz pairings: a small time limit, so that a slow case is a fallback, not a
/// stall.
pub fn pair_options(time_limit: f64) -> Options {
    Options {
        time_limit: Some(time_limit),
        ..Default::default()
    }
}

/// What pairing one round under one system came to.
#[derive(Debug, Clone, PartialEq)]
pub enum PairOutcome {
    /// Paired, the verifier content, the certificate proved.
    Optimal,
    /// Paired and verified, optimality not proved (time limit: fallback or feasible).
    Unproved,
    /// Refused with an error (no legal pairing, round past the planned rounds, …).
    Refused(String),
    /// The engine's own verification rejected the pairing (status `rejected`: `pair` exits 3
    /// and stores nothing): honest, but no legal pairing was found.
    Rejected(Vec<String>),
    /// The verifier objects to a pairing the engine returned as good (also when the
    /// certificate claims a proof: `lie`).
    Objection { lie: bool, messages: Vec<String> },
}

/// One pair + check run.
#[derive(Debug, Clone)]
pub struct PairRun {
    pub system: String,
    pub round: u32,
    pub outcome: PairOutcome,
    pub seconds: f64,
}

/// Pairs the next round of `t` under `system` and checks it independently.
pub fn pair_check(t: &Tournament, system: &str, opts: &Options) -> PairRun {
    let round = t.last_paired_round() + 1;
    let start = Instant::now();
    // A name the fuzzer made up is refused as `pair` refuses it.
    let paired = system
        .parse::<SystemKind>()
        .and_then(|kind| Ok((kind, engine::pair_round(t, round, kind, opts)?)));
    let outcome = match paired {
        Err(e) => PairOutcome::Refused(e.to_string()),
        Ok((kind, paired)) => {
            let stored = engine::store(t, &paired);
            let mut messages: Vec<String> = paired
                .violations
                .iter()
                .map(|v| v.message.clone())
                .collect();
            match verify::check(&stored, Some(round), kind) {
                Ok(vs) => {
                    for v in vs {
                        if !messages.contains(&v.message) {
                            messages.push(v.message);
                        }
                    }
                }
                Err(e) => messages.push(format!("check refused the stored round: {e}")),
            }
            let proved = paired.pairing.certificate.status == Status::Optimal;
            if paired.pairing.certificate.status == Status::Rejected {
                PairOutcome::Rejected(messages)
            } else if !messages.is_empty() {
                PairOutcome::Objection {
                    lie: proved,
                    messages,
                }
            } else if proved {
                PairOutcome::Optimal
            } else {
                PairOutcome::Unproved
            }
        }
    };
    PairRun {
        system: system.to_string(),
        round,
        outcome,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Reads bytes as a stream of small numbers (zeros past the end).
struct ByteReader<'a>(&'a [u8], usize);

impl ByteReader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        b
    }
    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }
    fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |a, _| (a << 8) | u64::from(self.byte()))
    }
}

/// Scorings that stress score groups and steps: odd values, half points, large wins.
const SCORINGS: [(f64, f64, f64, f64); 6] = [
    (1.0, 0.5, 0.0, 1.0),
    (3.0, 1.0, 0.0, 3.0),
    (2.0, 1.0, 0.0, 2.0),
    (1.0, 0.5, 0.0, 0.5),
    (100.0, 50.0, 0.0, 100.0),
    (3.0, 1.5, 0.5, 1.0),
];

/// A small event from bytes: a generated field (2–17 players, some rounds played under the
/// chosen system), then hostile but well-formed changes: scoring, withdrawals, late entries,
/// requested byes for the next round.
pub fn event_from_bytes(data: &[u8], opts: &Options) -> optipair::Result<Tournament> {
    let mut r = ByteReader(data, 0);
    let players = 2 + r.below(16);
    let rounds = 1 + r.below(9) as u32;
    let played = r.below(rounds as usize) as u32;
    let system = SystemKind::ALL[r.below(SystemKind::ALL.len())];
    let seed = r.u64();
    let spec = generate::Spec {
        players,
        rounds,
        played,
        seed,
        draw_rate: 0.3,
        system,
    };
    let mut t = generate::field(&spec, opts)?;
    let (win, draw, loss, bye) = SCORINGS[r.below(SCORINGS.len())];
    if !t.scoring.game_scores {
        t.scoring.win = win;
        t.scoring.forfeit_win = win;
        t.scoring.full_bye = win;
        t.scoring.draw = draw;
        t.scoring.half_bye = draw;
        t.scoring.loss = loss;
        t.scoring.pairing_bye = bye;
    }
    let next = played + 1;
    for _ in 0..r.below(4) {
        let id = 1 + r.below(players) as u32;
        let Some(i) = t.players.iter().position(|p| p.id == id) else {
            continue;
        };
        match r.below(3) {
            0 => t.players[i].withdrawn = Some(next),
            1 if played == 0 => t.players[i].joined = Some(2),
            _ => {
                let rd = t.round_mut(next);
                if !rd.byes.iter().any(|b| b.player == id) {
                    let kind = [ByeKind::Half, ByeKind::Zero, ByeKind::Full][r.below(3)];
                    rd.byes.push(Bye {
                        player: id,
                        kind,
                        spread: None,
                    });
                }
            }
        }
    }
    Ok(t)
}

/// The cargo-fuzz pair target: an event from the bytes, its next round paired under its own
/// system; panics on a verifier objection or a run far past the time limit.
pub fn pair_target(data: &[u8]) {
    let opts = pair_options(2.0);
    let Ok(t) = event_from_bytes(data, &opts) else {
        return;
    };
    let system = t.system.clone().unwrap_or_else(|| "swiss".into());
    let run = pair_check(&t, &system, &opts);
    if let PairOutcome::Objection { lie, messages } = &run.outcome {
        panic!(
            "{system} round {}: verifier objects (certificate optimal: {lie}): {}",
            run.round,
            messages.join("; ")
        );
    }
    assert!(
        run.seconds < 30.0,
        "{system}: {} s with a 2 s limit",
        run.seconds
    );
}

// ---------------------------------------------------------------------------------------------
// The mutator.

/// Values a numeric field is replaced with: bounds of the integer types, floats at the edge.
pub const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "99",
    "100",
    "999",
    "1000",
    "9999",
    "10000",
    "65535",
    "2147483647",
    "-2147483648",
    "2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "1e308",
    "-1e308",
    "1e309",
    "nan",
    "inf",
    "-inf",
    "0.5",
    "0.25",
    "-0.5",
    "1e-300",
    "3.14159",
];

/// Bytes worth inserting: separators and notations the formats give meaning to.
const TOKENS: &[&str] = &[
    " ", "\n", "\r", "\r\n", ";", ",", "\"", "#", "-", "+", "=", "/", "0", "1", "9", "{", "}", "[",
    "]", ":", "null", "true", "w", "b", "U", "H", "F", "Z", "p12", "\u{feff}", "\u{85}", "é", "½",
    "*", "--", "1-0", "0-1", "1/2",
];

/// A seeded mutator: same seed, same inputs.
pub struct Mutator {
    rng: Rng,
}

impl Mutator {
    pub fn new(seed: u64) -> Mutator {
        Mutator {
            rng: Rng::new(seed),
        }
    }

    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n.max(1) as u64) as usize
    }

    /// One to four mutations of `base`, some splicing in a piece of `other`.
    pub fn mutate(&mut self, base: &[u8], other: &[u8]) -> Vec<u8> {
        let mut v = base.to_vec();
        for _ in 0..1 + self.below(4) {
            self.once(&mut v, other);
        }
        v
    }

    /// Structure-aware mutations of a JSON event: one to four values replaced, keys dropped
    /// or added, array items duplicated or dropped; the result stays well-formed JSON, so
    /// it reaches validation, the writers and the systems. Falls back to byte mutations when
    /// `base` is not JSON.
    pub fn mutate_json(&mut self, base: &[u8], other: &[u8]) -> Vec<u8> {
        let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(base) else {
            return self.mutate(base, other);
        };
        for _ in 0..1 + self.below(4) {
            let mut nodes = 0usize;
            count_nodes(&value, &mut nodes);
            let target = self.below(nodes);
            let mut seen = 0usize;
            self.json_node(&mut value, target, &mut seen);
        }
        let text = if self.below(2) == 0 {
            serde_json::to_string_pretty(&value)
        } else {
            serde_json::to_string(&value)
        };
        text.map(String::into_bytes)
            .unwrap_or_else(|_| base.to_vec())
    }

    /// Mutates the `target`-th node (pre-order) of `v`.
    fn json_node(&mut self, v: &mut serde_json::Value, target: usize, seen: &mut usize) -> bool {
        use serde_json::Value;
        if *seen == target {
            self.json_change(v);
            return true;
        }
        *seen += 1;
        match v {
            Value::Array(items) => {
                for item in items.iter_mut() {
                    if self.json_node(item, target, seen) {
                        return true;
                    }
                }
            }
            Value::Object(map) => {
                for (_, item) in map.iter_mut() {
                    if self.json_node(item, target, seen) {
                        return true;
                    }
                }
            }
            _ => {}
        }
        false
    }

    fn json_change(&mut self, v: &mut serde_json::Value) {
        use serde_json::Value;
        /// Keys of the native format worth adding where they are missing.
        const KEYS: &[&str] = &[
            "joined",
            "withdrawn",
            "division",
            "group",
            "virtual_points",
            "rounds_planned",
            "initial_colour",
            "system",
            "scores",
            "order",
            "spread",
            "game_scores",
            "title",
            "number",
            "result",
            "kind",
        ];
        let extreme = |m: &mut Mutator| -> Value {
            let text = EXTREMES[m.below(EXTREMES.len())];
            serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::from(text))
        };
        match v {
            Value::Number(_) | Value::Null | Value::Bool(_) => {
                *v = match self.below(4) {
                    0 => Value::from(TOKENS[self.below(TOKENS.len())]),
                    1 => Value::Null,
                    _ => extreme(self),
                }
            }
            Value::String(s) => match self.below(4) {
                0 => *v = extreme(self),
                1 => s.push_str(TOKENS[self.below(TOKENS.len())]),
                2 => *s = s.repeat(1 + self.below(40)),
                _ => {
                    let names = [
                        "swiss",
                        "nsc2006",
                        "tsh-cp",
                        "baku",
                        "prog",
                        "white",
                        "black",
                        "half",
                        "zero",
                        "full",
                        "pairing-allocated",
                        "1-0",
                        "*",
                        "--",
                        "draw",
                        "unknown",
                        "recorded",
                        "",
                    ];
                    *s = names[self.below(names.len())].to_string();
                }
            },
            Value::Array(items) => {
                let n = items.len();
                match self.below(3) {
                    0 if n > 0 => {
                        let i = self.below(n);
                        let item = items[i].clone();
                        items.insert(self.below(n + 1), item);
                    }
                    1 if n > 0 => {
                        items.remove(self.below(n));
                    }
                    _ => items.push(extreme(self)),
                }
            }
            Value::Object(map) => {
                let n = map.len();
                if n > 0 && self.below(2) == 0 {
                    let key = map.keys().nth(self.below(n)).cloned().unwrap_or_default();
                    map.remove(&key);
                } else {
                    let key = KEYS[self.below(KEYS.len())];
                    let value = match self.below(3) {
                        0 => Value::from(vec![extreme(self), extreme(self)]),
                        _ => extreme(self),
                    };
                    map.insert(key.to_string(), value);
                }
            }
        }
    }

    fn once(&mut self, v: &mut Vec<u8>, other: &[u8]) {
        let len = v.len();
        match self.below(12) {
            // Numeric fields get extreme values (twice the weight: most bugs live there).
            0..=2 => self.replace_number(v),
            3 => {
                if len > 0 {
                    let i = self.below(len);
                    v[i] ^= 1 << self.below(8);
                }
            }
            4 => {
                if len > 0 {
                    let i = self.below(len);
                    v[i] = self.below(128) as u8;
                }
            }
            5 => {
                let tok = TOKENS[self.below(TOKENS.len())].as_bytes();
                let i = self.below(len + 1);
                v.splice(i..i, tok.iter().copied());
            }
            6 => {
                if len > 0 {
                    let i = self.below(len);
                    let n = 1 + self.below(16.min(len - i));
                    v.drain(i..i + n);
                }
            }
            7 => {
                // Duplicate a range (repeated lines, fields, rounds).
                if len > 0 {
                    let i = self.below(len);
                    let n = 1 + self.below(64.min(len - i));
                    let piece: Vec<u8> = v[i..i + n].to_vec();
                    let at = self.below(len + 1);
                    v.splice(at..at, piece);
                }
            }
            8 => {
                // Splice: a piece of another input of the same kind.
                if !other.is_empty() {
                    let i = self.below(other.len());
                    let n = 1 + self.below(128.min(other.len() - i));
                    let at = self.below(len + 1);
                    let cut = self.below((len - at).min(128) + 1);
                    v.splice(at..at + cut, other[i..i + n].iter().copied());
                }
            }
            9 => self.line_op(v),
            10 => {
                // Truncate.
                if len > 0 {
                    v.truncate(self.below(len));
                }
            }
            _ => {
                // Overwrite in place (keeps fixed columns aligned).
                if len > 0 {
                    let tok = TOKENS[self.below(TOKENS.len())].as_bytes();
                    let i = self.below(len);
                    for (k, b) in tok.iter().enumerate() {
                        if i + k < v.len() {
                            v[i + k] = *b;
                        }
                    }
                }
            }
        }
    }

    /// Replaces one number (a run of digits, with sign, point or exponent) by an extreme
    /// value; half the time right-aligned in the old width when it is shorter (fixed columns).
    fn replace_number(&mut self, v: &mut Vec<u8>) {
        let mut spans = Vec::new();
        let mut i = 0;
        while i < v.len() {
            if v[i].is_ascii_digit() {
                let mut a = i;
                if a > 0 && v[a - 1] == b'-' {
                    a -= 1;
                }
                let mut b = i;
                while b < v.len() && (v[b].is_ascii_digit() || v[b] == b'.' || v[b] == b'e') {
                    b += 1;
                }
                spans.push((a, b));
                i = b;
            } else {
                i += 1;
            }
        }
        if spans.is_empty() {
            return;
        }
        let (a, b) = spans[self.below(spans.len())];
        let new = EXTREMES[self.below(EXTREMES.len())];
        let text = if new.len() < b - a && self.below(2) == 0 {
            format!("{new:>width$}", width = b - a)
        } else {
            new.to_string()
        };
        v.splice(a..b, text.bytes());
    }

    fn line_op(&mut self, v: &mut Vec<u8>) {
        let mut lines: Vec<Vec<u8>> = v.split(|&b| b == b'\n').map(|l| l.to_vec()).collect();
        let n = lines.len();
        if n == 0 {
            return;
        }
        let i = self.below(n);
        match self.below(4) {
            0 => {
                let l = lines[i].clone();
                lines.insert(self.below(n + 1), l);
            }
            3 => {
                // Many copies of a line, or a line many times longer: work must stay
                // linear in the input.
                let l = lines[i].clone();
                let times = 10 + self.below(2000);
                if self.below(2) == 0 {
                    lines.splice(i..i, std::iter::repeat_n(l, times));
                } else {
                    lines[i] = l.repeat(times.min(200_000 / (l.len() + 1)));
                }
            }
            1 => {
                lines.remove(i);
            }
            _ => {
                let j = self.below(n);
                lines.swap(i, j);
            }
        }
        *v = lines.join(&b'\n');
    }
}

// ---------------------------------------------------------------------------------------------
// The driver.

/// What the driver runs.
#[derive(Debug, Clone)]
pub struct Config {
    pub seed: u64,
    /// Mutated inputs per parser target.
    pub parser_inputs: u64,
    /// Pair + check runs (one system, one round each) at most, split between parsed inputs and
    /// events from bytes.
    pub pair_runs: u64,
    /// Parsed inputs with at most this many players are paired.
    pub max_pair_players: usize,
    pub time_limit: f64,
    /// The repository root (corpus: `instances/`, `tests/data/`, `fuzz/corpus/`).
    pub root: PathBuf,
    /// Where failing inputs are saved (none: not saved).
    pub crash_dir: Option<PathBuf>,
    /// A line on stderr every this many inputs (0: quiet).
    pub progress_every: u64,
    /// An input still running after this long is saved as a hang and the process aborted.
    pub hang_seconds: u64,
    /// Where the figures are written (JSON) at every progress line and at the end.
    pub stats_path: Option<PathBuf>,
    /// The parser targets to run (all of [`Target::PARSERS`] by default).
    pub parsers: Vec<Target>,
}

impl Config {
    pub fn new(root: impl Into<PathBuf>) -> Config {
        Config {
            seed: 1,
            parser_inputs: 1000,
            pair_runs: 100,
            max_pair_players: 24,
            time_limit: 2.0,
            root: root.into(),
            crash_dir: None,
            progress_every: 0,
            hang_seconds: 300,
            stats_path: None,
            parsers: Target::PARSERS.to_vec(),
        }
    }
}

/// Counts for one target.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Counts {
    pub inputs: u64,
    /// Parsed (and, for the pair target, built).
    pub accepted: u64,
    pub panics: u64,
    /// Inputs that took more than [`SLOW_PARSE_CPU`] of CPU time to parse.
    pub slow: u64,
}

/// A parse is `slow` past this much of its thread's CPU time (the work it did, whatever else
/// the machine runs), or, where the thread's CPU time cannot be read, past
/// [`SLOW_PARSE_WALL`] of wall time.
pub const SLOW_PARSE_CPU: Duration = Duration::from_secs(1);
/// The wall-time bound of a parse where its CPU time is unknown: wide, since a loaded machine
/// stretches wall time many times over.
pub const SLOW_PARSE_WALL: Duration = Duration::from_secs(10);

/// The CPU time the calling thread has used (Linux and other POSIX systems:
/// `CLOCK_THREAD_CPUTIME_ID`); `None` where it cannot be read.
pub fn thread_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc == 0 && ts.tv_sec >= 0 && (0..1_000_000_000).contains(&ts.tv_nsec) {
            return Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32));
        }
        None
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The `slow` finding of a parse that took `wall` and, when known, `cpu` of its thread's CPU
/// time: CPU time past [`SLOW_PARSE_CPU`], or, without it, wall time past [`SLOW_PARSE_WALL`].
pub fn slow_parse(wall: Duration, cpu: Option<Duration>) -> Option<String> {
    match cpu {
        Some(c) if c > SLOW_PARSE_CPU => Some(format!(
            "{:.1} s of CPU time to parse ({:.1} s wall)",
            c.as_secs_f64(),
            wall.as_secs_f64()
        )),
        Some(_) => None,
        None if wall > SLOW_PARSE_WALL => Some(format!("{:.1} s to parse", wall.as_secs_f64())),
        None => None,
    }
}

/// Seconds past the time limit after which a pair + check run is saved as `long`.
pub const LONG_PAIR_MARGIN: f64 = 5.0;

/// Where the stable driver saves what it finds by default, in the repository:
/// `tests/fuzz.rs` replays every file there in CI.
pub const SAVED_DIR: &str = "fuzz/regressions";

/// Counts for pair + check runs.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct PairCounts {
    pub runs: u64,
    pub optimal: u64,
    /// Verified, optimality not proved (time limit).
    pub unproved: u64,
    pub refused: u64,
    /// Pairings the engine itself rejected (exit 3, nothing stored).
    pub rejected: u64,
    pub objections: u64,
    /// Objections where the certificate still claimed optimality.
    pub lies: u64,
    pub panics: u64,
    /// Runs more than 3 × the time limit + 5 s.
    pub timeouts: u64,
    /// Runs past the time limit + [`LONG_PAIR_MARGIN`] (and not timeouts): saved, not failed.
    pub long: u64,
    /// Runs per system.
    pub by_system: BTreeMap<String, u64>,
    /// Runs per source of the event (`json`, `trf`, `tsh`, `csv`, `pair`: built from bytes).
    pub by_source: BTreeMap<String, u64>,
    /// Refusals by reason (the message with numbers blanked).
    pub refusals: BTreeMap<String, u64>,
}

/// One failing input.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Finding {
    pub target: String,
    pub kind: String,
    pub message: String,
    pub saved: Option<PathBuf>,
}

/// A run's figures.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Stats {
    pub targets: BTreeMap<String, Counts>,
    pub pair: PairCounts,
    pub findings: Vec<Finding>,
    pub seconds: f64,
}

impl Stats {
    /// Panics of every target (parsers and pair + check).
    pub fn panics(&self) -> u64 {
        self.targets.values().map(|c| c.panics).sum::<u64>() + self.pair.panics
    }
}

/// The corpus of a target: files from `instances/`, `tests/data/` and `fuzz/corpus/<target>/`
/// with the target's extension, sorted by path (same seed, same run).
pub fn corpus(root: &Path, target: Target) -> Vec<Vec<u8>> {
    let ext = target.ext();
    let mut paths: Vec<PathBuf> = Vec::new();
    let dirs = [
        root.join("instances"),
        root.join("tests/data"),
        root.join("fuzz/corpus").join(target.name()),
    ];
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let matches =
                p.extension().and_then(|x| x.to_str()) == Some(ext) || dir.ends_with(target.name());
            if p.is_file() && matches {
                paths.push(p);
            }
        }
    }
    paths.sort();
    let mut out: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    if out.is_empty() {
        out.push(Vec::new());
    }
    out
}

/// The hook that was in place before the driver's (the test harness's, the default).
type PrevHook = Arc<Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Send + Sync + 'static>>;

/// Installs a hook that records the message of a panic on the calling (driver) thread instead
/// of printing it; panics on other threads go to the hook that was there before, which is
/// returned so that [`restore_hook`] can put it back.
fn quiet_hook() -> (Arc<Mutex<String>>, PrevHook) {
    let last = Arc::new(Mutex::new(String::new()));
    let keep = last.clone();
    let prev: PrevHook = Arc::new(std::panic::take_hook());
    let others = prev.clone();
    let driver = std::thread::current().id();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().id() != driver {
            return others(info);
        }
        let msg = match info.payload().downcast_ref::<&str>() {
            Some(s) => s.to_string(),
            None => info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_default(),
        };
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut m) = keep.lock() {
            *m = format!("{msg}{at}");
        }
    }));
    (last, prev)
}

/// Puts back the hook [`quiet_hook`] replaced.
fn restore_hook(prev: PrevHook) {
    let _ = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| prev(info)));
}

/// A short stable hash for saved-file names (FNV-1a).
fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Saves a failing input (and why) under `dir`; returns the path.
pub fn save_finding(dir: &Path, target: Target, kind: &str, data: &[u8], why: &str) -> PathBuf {
    let _ = std::fs::create_dir_all(dir);
    let base = format!("{}-{kind}-{:016x}", target.name(), fnv(data));
    let path = dir.join(format!("{base}.{}", target.ext()));
    let _ = std::fs::write(&path, data);
    let _ = std::fs::write(dir.join(format!("{base}.why.txt")), why);
    path
}

/// The input being run, kept for the watchdog.
struct Current {
    target: Target,
    data: Vec<u8>,
    started: Instant,
}

/// The input being run, for the watchdog and an OOM guard.
static CURRENT: Mutex<Option<Current>> = Mutex::new(None);

/// Saves the input being run as a finding of `kind` (for an allocator's OOM guard, which
/// cannot unwind). Does nothing if the input is being replaced at that moment.
pub fn save_current(dir: &Path, kind: &str, why: &str) -> Option<PathBuf> {
    let c = CURRENT.try_lock().ok()?;
    let c = c.as_ref()?;
    Some(save_finding(dir, c.target, kind, &c.data, why))
}

/// What the driver's helpers share.
struct Ctx {
    last_panic: Arc<Mutex<String>>,
    opts: Options,
}

impl Ctx {
    fn set_current(&self, target: Target, data: &[u8]) {
        if let Ok(mut c) = CURRENT.lock() {
            match c.as_mut() {
                Some(c) => {
                    c.target = target;
                    c.data.clear();
                    c.data.extend_from_slice(data);
                    c.started = Instant::now();
                }
                None => {
                    *c = Some(Current {
                        target,
                        data: data.to_vec(),
                        started: Instant::now(),
                    })
                }
            }
        }
    }

    fn panic_message(&self) -> String {
        self.last_panic
            .lock()
            .map(|m| m.clone())
            .unwrap_or_default()
    }
}

/// Counts a finding and saves its input.
fn record(cfg: &Config, stats: &mut Stats, target: Target, kind: &str, data: &[u8], msg: String) {
    let saved = cfg
        .crash_dir
        .as_ref()
        .map(|d| save_finding(d, target, kind, data, &msg));
    if stats.findings.len() < 1000 {
        stats.findings.push(Finding {
            target: target.name().into(),
            kind: kind.into(),
            message: msg,
            saved,
        });
    }
}

/// One pair + check run, counted; a finding saves the event as JSON.
fn pair_once(
    cfg: &Config,
    stats: &mut Stats,
    ctx: &Ctx,
    source: Target,
    t: &Tournament,
    system: &str,
) {
    let event = json::write(t).into_bytes();
    ctx.set_current(Target::Pair, &event);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pair_check(t, system, &ctx.opts)
    }));
    stats.pair.runs += 1;
    *stats.pair.by_system.entry(system.to_string()).or_default() += 1;
    *stats
        .pair
        .by_source
        .entry(source.name().into())
        .or_default() += 1;
    let run = match caught {
        Ok(run) => run,
        Err(_) => {
            stats.pair.panics += 1;
            let msg = format!(
                "{system} (from {}): panic: {}",
                source.name(),
                ctx.panic_message()
            );
            record(cfg, stats, Target::Pair, "panic", &event, msg);
            return;
        }
    };
    if run.seconds > 3.0 * cfg.time_limit + 5.0 {
        stats.pair.timeouts += 1;
        let msg = format!("{system} round {}: {:.1} s", run.round, run.seconds);
        record(cfg, stats, Target::Pair, "timeout", &event, msg);
    } else if run.seconds > cfg.time_limit + LONG_PAIR_MARGIN {
        // Not a failure, but saved: a run past its time limit is reproduced from its file.
        stats.pair.long += 1;
        let msg = format!(
            "{system} round {} (from {}): {:.1} s, time limit {} s",
            run.round,
            source.name(),
            run.seconds,
            cfg.time_limit
        );
        record(cfg, stats, Target::Pair, "long", &event, msg);
    }
    match run.outcome {
        PairOutcome::Optimal => stats.pair.optimal += 1,
        PairOutcome::Unproved => stats.pair.unproved += 1,
        PairOutcome::Refused(why) => {
            stats.pair.refused += 1;
            let reason: String = why
                .chars()
                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                .take(100)
                .collect();
            *stats.pair.refusals.entry(reason).or_default() += 1;
        }
        PairOutcome::Rejected(messages) => {
            stats.pair.rejected += 1;
            let msg = format!(
                "{system} round {} (from {}): rejected by the engine: {}",
                run.round,
                source.name(),
                messages.join("; ")
            );
            record(cfg, stats, Target::Pair, "rejected", &event, msg);
        }
        PairOutcome::Objection { lie, messages } => {
            stats.pair.objections += 1;
            if lie {
                stats.pair.lies += 1;
            }
            let msg = format!(
                "{system} round {} (from {}, certificate optimal: {lie}): {}",
                run.round,
                source.name(),
                messages.join("; ")
            );
            let kind = if lie { "lie" } else { "objection" };
            record(cfg, stats, Target::Pair, kind, &event, msg);
        }
    }
}

/// Runs the driver: every parser target on `parser_inputs` mutated inputs, small parsed
/// events and events from bytes through pair + check.
pub fn run(cfg: &Config) -> Stats {
    let start = Instant::now();
    let (last_panic, prev_hook) = quiet_hook();
    let done = Arc::new(AtomicU64::new(0));
    let watchdog = {
        let done = done.clone();
        let dir = cfg.crash_dir.clone();
        let limit = Duration::from_secs(cfg.hang_seconds);
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            if done.load(Ordering::Relaxed) == 1 {
                return;
            }
            let Ok(c) = CURRENT.lock() else { return };
            let Some(c) = c.as_ref() else { continue };
            if c.started.elapsed() > limit {
                let why = format!("no result after {} s", limit.as_secs());
                if let Some(d) = &dir {
                    let p = save_finding(d, c.target, "hang", &c.data, &why);
                    eprintln!("fuzz: hang in {}: saved {}", c.target.name(), p.display());
                }
                eprintln!("fuzz: {} input hangs: {why}", c.target.name());
                std::process::abort();
            }
        })
    };
    let ctx = Ctx {
        last_panic: last_panic.clone(),
        opts: pair_options(cfg.time_limit),
    };

    let mut stats = Stats::default();
    let opts = ctx.opts.clone();
    let mut m = Mutator::new(cfg.seed);
    let corpora: Vec<(Target, Vec<Vec<u8>>)> = cfg
        .parsers
        .iter()
        .map(|&t| (t, corpus(&cfg.root, t)))
        .collect();
    // Half the pair runs on parsed inputs, spread over the parser run.
    let parsed_budget = cfg.pair_runs / 2;
    let mut system_turn = 0usize;
    for i in 0..cfg.parser_inputs {
        for (target, seeds) in &corpora {
            let base = &seeds[m.below(seeds.len())];
            let other = &seeds[m.below(seeds.len())];
            // Half the JSON inputs keep well-formed: they reach validation and the systems.
            let data = if *target == Target::Json && m.below(2) == 0 {
                m.mutate_json(base, other)
            } else {
                m.mutate(base, other)
            };
            ctx.set_current(*target, &data);
            let t0 = Instant::now();
            let cpu0 = thread_cpu();
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                parse_target(*target, &data)
            }));
            let took = t0.elapsed();
            let cpu = thread_cpu().zip(cpu0).map(|(b, a)| b.saturating_sub(a));
            let c = stats.targets.entry(target.name().into()).or_default();
            c.inputs += 1;
            if let Some(msg) = slow_parse(took, cpu) {
                c.slow += 1;
                record(cfg, &mut stats, *target, "slow", &data, msg);
            }
            match caught {
                Err(_) => {
                    let c = stats.targets.entry(target.name().into()).or_default();
                    c.panics += 1;
                    let msg = ctx.panic_message();
                    record(cfg, &mut stats, *target, "panic", &data, msg);
                }
                Ok(None) => {}
                Ok(Some(t)) => {
                    stats
                        .targets
                        .entry(target.name().into())
                        .or_default()
                        .accepted += 1;
                    let small = t.players.len() <= cfg.max_pair_players
                        && t.rounds.len() <= 30
                        && t.rounds_planned.is_none_or(|p| p <= 30)
                        && t.rounds.iter().all(|r| r.number <= 30);
                    // CSV player lists too: an event made from one pairs its first round.
                    let pairable = matches!(
                        target,
                        Target::Json | Target::Trf | Target::Tsh | Target::Csv
                    );
                    // Spread the parsed-input budget over the whole run.
                    let due = stats.pair.runs < parsed_budget * (i + 1) / cfg.parser_inputs.max(1);
                    if small && pairable && due {
                        // Systems that need the rounds planned get them (two more than
                        // paired) rather than refusing.
                        let mut t = t;
                        if t.rounds_planned.is_none() {
                            t.rounds_planned = Some(t.last_paired_round() + 2);
                        }
                        let system = SystemKind::ALL[system_turn % SystemKind::ALL.len()].name();
                        system_turn += 1;
                        pair_once(cfg, &mut stats, &ctx, *target, &t, system);
                    }
                }
            }
        }
        if cfg.progress_every > 0 && (i + 1).is_multiple_of(cfg.progress_every) {
            stats.seconds = start.elapsed().as_secs_f64();
            write_stats(cfg, &stats);
            eprintln!(
                "fuzz: {} inputs per parser, {} pair runs, {} panics, {} objections, {:.0} s",
                i + 1,
                stats.pair.runs,
                stats.panics(),
                stats.pair.objections,
                start.elapsed().as_secs_f64()
            );
        }
    }

    // Events from bytes, each paired under its own system.
    let mut rng = Rng::new(cfg.seed ^ 0x5041_4952);
    let mut k = 0u64;
    while stats.pair.runs < cfg.pair_runs {
        let data: Vec<u8> = (0..16).map(|_| rng.next_u64() as u8).collect();
        ctx.set_current(Target::Pair, &data);
        let c = stats.targets.entry("pair".into()).or_default();
        c.inputs += 1;
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            event_from_bytes(&data, &opts)
        }));
        let t = match built {
            Err(_) => {
                stats.targets.entry("pair".into()).or_default().panics += 1;
                let msg = ctx.panic_message();
                record(cfg, &mut stats, Target::Pair, "panic", &data, msg);
                stats.pair.runs += 1;
                continue;
            }
            Ok(Err(e)) => {
                // generate::field refused (its own pairing of an earlier round failed).
                stats.pair.runs += 1;
                stats.pair.refused += 1;
                let reason: String = format!("generate: {e}")
                    .chars()
                    .map(|c| if c.is_ascii_digit() { '#' } else { c })
                    .take(100)
                    .collect();
                *stats.pair.refusals.entry(reason).or_default() += 1;
                continue;
            }
            Ok(Ok(t)) => t,
        };
        stats.targets.entry("pair".into()).or_default().accepted += 1;
        let system = t.system.clone().unwrap_or_else(|| "swiss".into());
        pair_once(cfg, &mut stats, &ctx, Target::Pair, &t, &system);
        k += 1;
        if cfg.progress_every > 0 && k.is_multiple_of((cfg.progress_every / 10).max(1)) {
            stats.seconds = start.elapsed().as_secs_f64();
            write_stats(cfg, &stats);
            eprintln!(
                "fuzz: {} pair runs, {} objections, {:.0} s",
                stats.pair.runs,
                stats.pair.objections,
                start.elapsed().as_secs_f64()
            );
        }
    }

    done.store(1, Ordering::Relaxed);
    let _ = watchdog.join();
    restore_hook(prev_hook);
    stats.seconds = start.elapsed().as_secs_f64();
    write_stats(cfg, &stats);
    stats
}

/// Writes the figures so far to `cfg.stats_path`, if set.
fn write_stats(cfg: &Config, stats: &Stats) {
    if let Some(p) = &cfg.stats_path {
        if let Ok(text) = serde_json::to_string_pretty(stats) {
            let _ = std::fs::write(p, text);
        }
    }
}

/// The saved inputs under `dir` (`.why.txt` notes left out), sorted by name.
pub fn saved_inputs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| {
        p.is_file()
            && !p.to_string_lossy().ends_with(".why.txt")
            && p.file_name().and_then(|n| n.to_str()) != Some("README.md")
    });
    v.sort();
    v
}

/// The target a saved input's name starts with (`json-…`, `pair-…`), as [`save_finding`]
/// names them.
pub fn target_of(path: &Path) -> Option<Target> {
    let name = path.file_name()?.to_str()?;
    Target::PARSERS
        .into_iter()
        .chain([Target::Pair])
        .find(|t| name.starts_with(&format!("{}-", t.name())))
}

/// Loads a saved input again (for reproducing a finding): the target by the file's name
/// prefix, as [`save_finding`] names them.
pub fn replay(path: &Path) -> Option<(Target, Option<Tournament>)> {
    let data = std::fs::read(path).ok()?;
    let target = target_of(path)?;
    if target == Target::Pair {
        // The driver saves the event as JSON; libFuzzer saves the bytes it was built from.
        let t = match std::str::from_utf8(&data).ok().map(formats::json::parse) {
            Some(Ok(t)) => Some(t),
            _ => event_from_bytes(&data, &pair_options(2.0)).ok(),
        };
        return Some((target, t));
    }
    Some((target, parse_target(target, &data)))
}
