//! tsh's event configuration, `config.tsh`: the directives that bear on pairing.
//!
//! ```text
//! # comment
//! division a a.t
//! division b b.t
//! config max_rounds = 31
//! config prize_bands = { 'A' => [1, 2, 3, 4, 5, 10, 20], 'B' => [1, 2, 3] }
//! config gibson_spread = [250, 200, 150]
//! config flight_cap = 'tsh07'
//! autopair a 2 4 ChewPair 4 a
//! ```
//!
//! Read (everything else — `classes`, `prize`, `perl`, other `config` keys — is tsh's own
//! business and ignored):
//! * `division NAME FILE`: a division and its `.t` file (relative to the config's directory).
//! * `config max_rounds = N`: the rounds planned.
//! * `config prize_bands = [r, …]` for every division, or `{ 'A' => [r, …], … }` by division
//!   (names match whatever their case): the last rank of each prize band.
//! * `config gibson_spread = [s1, s2, s3]`: the assumed spread per round over 1, 2, 3+ rounds.
//! * `config flight_cap = NAME` (quoted or not): the contender cap, by name — `tsh07` (the
//!   default: 4 × (rounds left − 1), 2 in the final round) or `none` (no cap). An unknown
//!   name is refused with the known ones listed.
//! * `config lag = N`, `config session_starts = [r, …]`, `config lag_final_round = 0|1`,
//!   `config initial_round_robin = 3`: optipair's own `tsh-cp` settings, under the same names
//!   as in the sidecar.
//! * `autopair DIV BASED ROUND …`: tsh pairs round ROUND of DIV from the standings after round
//!   BASED — the lag, round by round (`settings["based_on"]`, which overrides `lag`).
//!
//! **Where settings come from** (one rule, later wins): the `config.tsh` of the `.t` file's
//! directory (the division whose file it is), then the sidecar `X.tsh.json` beside the `.t`,
//! then the command line (`--system`). `optipair CMD EVENT/config.tsh` loads every division:
//! the players of each keep their division (`--division a` picks one), numbered one division
//! after the other; a write goes back to each division's own `.t` file.
//!
//! Bad lines are refused with the file, the line and the directive.

use super::tsh;
use crate::tournament::Tournament;
use crate::{Error, Result};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file name tsh looks for in an event directory.
pub const FILE_NAME: &str = "config.tsh";

/// Settings key holding per-division settings (`{division: {key: value}}`), applied by
/// [`Tournament::division`].
pub use crate::tournament::DIVISION_SETTINGS;

/// Settings key, in a combined event, of each division's file and its `.t`-only settings.
pub const FILES_KEY: &str = "tsh.division_files";

/// What a `config.tsh` says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    /// Divisions in order, with their files as written.
    pub divisions: Vec<(String, String)>,
    /// The line of each division's `division NAME FILE` (as `divisions`).
    pub division_lines: Vec<usize>,
    /// `config max_rounds = N`: the rounds planned.
    pub max_rounds: Option<u32>,
    /// Settings for every division.
    pub settings: BTreeMap<String, Value>,
    /// Settings for one division (lower-case name).
    pub by_division: BTreeMap<String, BTreeMap<String, Value>>,
    /// `config event_name`: the event's name on every sheet.
    pub event_name: Option<String>,
    /// `config` keys that change what tsh prints but optipair does not follow, by line: each
    /// is named in a warning when the event is loaded.
    pub not_followed: Vec<(usize, String, &'static str)>,
    /// `config` keys that change tsh's pairings but that optipair does not apply, by line,
    /// with the reason: each is named in a warning when the event is loaded.
    pub pairing_not_followed: Vec<(usize, String, &'static str)>,
    /// `config tables`: the table number of each board, by division (lower-case name; `""`
    /// for every division), as tsh prints them on the pairing sheet.
    pub tables: BTreeMap<String, Vec<String>>,
}

/// `config` keys that change tsh's pairings and that optipair does not follow, with why: a
/// load names each in a warning rather than ignoring it silently.
const PAIRING_KEYS: [(&str, &str); 15] = [
    ("exagony", "players of one team are not kept apart"),
    (
        "hypexagony",
        "repeats between team-mates are not restricted",
    ),
    (
        "gibson_class",
        "an odd Gibson's opponent is not restricted to a class",
    ),
    ("gibson_equivalent", "ranks are not merged for Gibsons"),
    (
        "consecutive_repeats",
        "consecutive repeats are not limited to this number",
    ),
    (
        "sum_before_spread",
        "standings use spread, not the sum of scores",
    ),
    ("gibson", "Gibson victims always weigh repeats"),
    (
        "bye_spread",
        "the best-possible-finish simulation gives a bye 50 points of spread",
    ),
    (
        "assign_firsts",
        "who goes first follows optipair's first/second balance",
    ),
    (
        "swiss_order",
        "the Swiss is tsh's normal order, not forced or KOTH",
    ),
    ("swiss_ignores_firsts", "the Swiss weighs first/second"),
    ("swiss_ignores_repeats", "the Swiss weighs repeats"),
    (
        "swiss_max_consecutive_repeats",
        "the Swiss does not limit consecutive repeats to this number",
    ),
    (
        "class_endagony",
        "the Swiss does not keep players inside their class",
    ),
    (
        "top_down_swiss",
        "the Swiss pairs from the top and the bottom alternately",
    ),
];

/// `config` keys that change what tsh prints (sheets, numbering) and that optipair does not
/// follow: a load names each in a warning rather than ignoring it silently.
const PRINTED_KEYS: [(&str, &str); 4] = [
    ("event_date", "the sheets print no date"),
    (
        "no_boards",
        "optipair's sheets number boards 1, 2, … in each division",
    ),
    (
        "player_number_format",
        "players are shown by number (b3 where divisions share numbers)",
    ),
    (
        "division_label",
        "a division is shown by its name in the `division` line",
    ),
];

/// The flight-cap schedule a `config flight_cap` names, as the `flight_cap` setting holds it:
/// tsh's functions (`\&TSH::PairingCommand::FlightCapDefault`, `…NSC`, `…NSC2008`, `…None`,
/// or the bare names `default`, `nsc`, `nsc2008`, `none`) and optipair's `tsh07` (the
/// document's schedule).
pub fn flight_cap(name: &str) -> Option<&'static str> {
    let n = name.trim().trim_start_matches("\\&").to_ascii_lowercase();
    let n = n.rsplit("::").next().unwrap_or(&n);
    let n = n.strip_prefix("flightcap").unwrap_or(n);
    Some(match n {
        "" | "default" | "tsh" => "tsh",
        "tsh07" => "tsh07",
        "nsc" => "nsc",
        "nsc2008" => "nsc2008",
        "none" => "none",
        _ => return None,
    })
}

/// A Perl-ish value as tsh's config holds it: a number, a quoted or bare word, a list
/// `[a, b]`, or a hash `{ k => v, … }` (one level of lists inside).
#[derive(Debug, Clone, PartialEq)]
enum PerlValue {
    Scalar(String),
    List(Vec<String>),
    Hash(Vec<(String, Vec<String>)>),
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    s.strip_prefix('\'')
        .and_then(|x| x.strip_suffix('\''))
        .or_else(|| s.strip_prefix('"').and_then(|x| x.strip_suffix('"')))
        .unwrap_or(s)
        .to_string()
}

fn list_items(s: &str) -> Option<Vec<String>> {
    let inner = s.trim().strip_prefix('[')?.strip_suffix(']')?;
    Some(
        inner
            .split(',')
            .map(unquote)
            .filter(|x| !x.is_empty())
            .collect(),
    )
}

fn perl_value(s: &str) -> Option<PerlValue> {
    let s = s.trim().trim_end_matches(';').trim();
    if s.starts_with('[') {
        return list_items(s).map(PerlValue::List);
    }
    if let Some(inner) = s.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
        let mut out = Vec::new();
        let mut rest = inner.trim();
        while !rest.is_empty() {
            let (key, after) = rest.split_once("=>")?;
            let after = after.trim_start();
            let end = after.find(']')? + 1;
            out.push((unquote(key), list_items(&after[..end])?));
            rest = after[end..]
                .trim_start()
                .trim_start_matches(',')
                .trim_start();
        }
        return Some(PerlValue::Hash(out));
    }
    (!s.is_empty()).then(|| PerlValue::Scalar(unquote(s)))
}

fn ints(items: &[String], line: usize, field: &str) -> Result<Value> {
    items
        .iter()
        .map(|x| {
            x.parse::<i64>()
                .map(Value::from)
                .map_err(|_| Error::at(line, field, format!("'{x}' is not a whole number")))
        })
        .collect::<Result<Vec<Value>>>()
        .map(Value::Array)
}

/// Parses a `config.tsh`.
pub fn parse(text: &str) -> Result<Config> {
    let mut c = Config::default();
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        match words.next().map(|w| w.to_ascii_lowercase()).as_deref() {
            Some("division") => division_line(&mut c, no, words)?,
            Some("config") => config_line(&mut c, no, line)?,
            Some("autopair") => autopair_line(&mut c, no, words)?,
            _ => {} // classes, prize, perl, …: not pairing.
        }
    }
    Ok(c)
}

/// `division NAME FILE`: a division and its `.t` file, inside the event's directory.
fn division_line<'a>(
    c: &mut Config,
    no: usize,
    mut words: impl Iterator<Item = &'a str>,
) -> Result<()> {
    let (Some(name), Some(file)) = (words.next(), words.next()) else {
        return Err(Error::at(no, "division", "expected `division NAME FILE`"));
    };
    if c.divisions
        .iter()
        .any(|(d, _)| d.eq_ignore_ascii_case(name))
    {
        return Err(Error::at(
            no,
            "division",
            format!("division '{name}' is declared twice"),
        ));
    }
    super::paths::confine(Path::new(""), file).map_err(|m| Error::at(no, "division", m))?;
    c.divisions.push((name.to_string(), file.to_string()));
    c.division_lines.push(no);
    Ok(())
}

/// `config KEY = VALUE`: the settings that decide pairings, the sheets' few, and the keys
/// optipair reads but does not follow; the rest of the keys in [`config_more`].
fn config_line(c: &mut Config, no: usize, line: &str) -> Result<()> {
    let rest = line["config".len()..].trim();
    let Some((key, text)) = rest.split_once('=') else {
        return Err(Error::at(no, "config", "expected `config KEY = VALUE`"));
    };
    let key = key.trim();
    let field = format!("config {key}");
    let bad = |what: &str| Error::at(no, &field, what.to_string());
    let value = || perl_value(text).ok_or_else(|| bad("cannot read the value"));
    match key {
        "max_rounds" => match value()? {
            PerlValue::Scalar(s) => match s.parse::<u32>() {
                Ok(n) if (1..=super::MAX_ROUNDS).contains(&n) => c.max_rounds = Some(n),
                _ => {
                    return Err(bad(&format!(
                        "'{s}' is not a number of rounds (1 to {})",
                        super::MAX_ROUNDS
                    )))
                }
            },
            _ => return Err(bad("expected a number")),
        },
        // tsh's ChewPair never reads it: its best-possible-finish simulation
        // assumes 500 a round (its `MaxSpread` is called without the config).
        "gibson_spread" => c.pairing_not_followed.push((
            no,
            key.into(),
            "tsh's ChewPair assumes 500 a round to catch up whatever it says",
        )),
        "prize_bands" | "session_starts" => match value()? {
            PerlValue::List(v) => {
                c.settings.insert(key.into(), ints(&v, no, &field)?);
            }
            PerlValue::Hash(h) => {
                for (d, v) in h {
                    c.by_division
                        .entry(d.to_ascii_lowercase())
                        .or_default()
                        .insert(key.into(), ints(&v, no, &field)?);
                }
            }
            PerlValue::Scalar(_) => return Err(bad("expected a list [a, b, …]")),
        },
        "lag" => match value()? {
            PerlValue::Scalar(s) => match s.parse::<u32>() {
                Ok(n) if n >= 1 => {
                    c.settings.insert("lag".into(), n.into());
                }
                _ => return Err(bad(&format!("'{s}' is not a lag of 1 or more"))),
            },
            _ => return Err(bad("expected a number")),
        },
        "initial_round_robin" => match value()? {
            PerlValue::Scalar(s) => match s.parse::<u32>() {
                Ok(n) if n <= 3 => {
                    c.settings.insert("initial_round_robin".into(), n.into());
                }
                _ => return Err(bad(&format!("'{s}' is not 0 to 3 rounds"))),
            },
            _ => return Err(bad("expected a number")),
        },
        "lag_final_round" => match value()? {
            PerlValue::Scalar(s) if s == "0" || s == "1" => {
                c.settings
                    .insert("lag_final_round".into(), (s == "1").into());
            }
            _ => return Err(bad("expected 0 or 1")),
        },
        _ => config_more(c, no, key, text)?,
    }
    Ok(())
}

/// The config keys after `lag_final_round` in [`config_line`]'s list: flight caps, KOTH and
/// Swiss switches, tables, the event's name, and the keys not followed.
fn config_more(c: &mut Config, no: usize, key: &str, text: &str) -> Result<()> {
    let field = format!("config {key}");
    let bad = |what: &str| Error::at(no, &field, what.to_string());
    let value = || perl_value(text).ok_or_else(|| bad("cannot read the value"));
    match key {
        "flight_cap" => match value()? {
            PerlValue::Scalar(s) => match flight_cap(&s) {
                Some(n) => {
                    c.settings.insert("flight_cap".into(), n.into());
                }
                None => {
                    return Err(bad(&format!(
                        "unknown flight cap '{s}' (known: FlightCapDefault, \
                         FlightCapNSC, FlightCapNSC2008, FlightCapNone, tsh07, or \
                         a list)"
                    )))
                }
            },
            PerlValue::List(v) => {
                c.settings
                    .insert("flight_cap".into(), ints(&v, no, &field)?);
            }
            _ => return Err(bad("expected a name or a list of caps")),
        },
        "force_koth" | "chew_no_swiss_all" | "track_firsts" | "no_random" => match value()? {
            PerlValue::Scalar(s) => match s.parse::<u32>() {
                Ok(n) => {
                    let v: Value = if key == "force_koth" {
                        n.into()
                    } else {
                        (n != 0).into()
                    };
                    if key == "track_firsts" && n == 0 {
                        c.pairing_not_followed.push((
                            no,
                            key.into(),
                            "optipair always matches starters with repliers",
                        ));
                    }
                    c.settings.insert(key.into(), v);
                }
                _ => return Err(bad(&format!("'{s}' is not a number"))),
            },
            _ => return Err(bad("expected a number")),
        },
        "tables" => match value()? {
            PerlValue::Hash(h) => {
                for (d, v) in h {
                    c.tables.insert(d.to_ascii_lowercase(), v);
                }
            }
            PerlValue::List(v) => {
                c.tables.insert(String::new(), v);
            }
            PerlValue::Scalar(_) => {
                return Err(bad("expected { 'A' => [table, …] } or [table, …]"))
            }
        },
        "event_name" => match value()? {
            PerlValue::Scalar(n) => c.event_name = Some(n),
            _ => return Err(bad("expected the event's name")),
        },
        k if PRINTED_KEYS.iter().any(|(p, _)| *p == k) => {
            let why = PRINTED_KEYS.iter().find(|(p, _)| *p == k).unwrap().1;
            c.not_followed.push((no, k.to_string(), why));
        }
        k if PAIRING_KEYS.iter().any(|(p, _)| *p == k) => {
            let why = PAIRING_KEYS.iter().find(|(p, _)| *p == k).unwrap().1;
            c.pairing_not_followed.push((no, k.to_string(), why));
        }
        _ => {} // tsh's own settings: nothing to do with pairing or sheets here.
    }
    Ok(())
}

/// `autopair DIV BASED ROUND …`: the round whose standings pair a later round.
fn autopair_line<'a>(
    c: &mut Config,
    no: usize,
    words: impl Iterator<Item = &'a str>,
) -> Result<()> {
    let w: Vec<&str> = words.collect();
    let (Some(div), Some(based), Some(round)) = (w.first(), w.get(1), w.get(2)) else {
        return Err(Error::at(
            no,
            "autopair",
            "expected `autopair DIV BASED ROUND COMMAND …`",
        ));
    };
    let (Ok(based), Ok(round)) = (based.parse::<u32>(), round.parse::<u32>()) else {
        return Err(Error::at(
            no,
            "autopair",
            "the based-on round and the round paired must be numbers",
        ));
    };
    if round == 0 || based >= round || round > super::MAX_ROUNDS {
        return Err(Error::at(
            no,
            "autopair",
            format!("round {round} cannot be paired from round {based}"),
        ));
    }
    let map = c
        .by_division
        .entry(div.to_ascii_lowercase())
        .or_default()
        .entry("based_on".into())
        .or_insert_with(|| Value::Object(Default::default()));
    if let Value::Object(m) = map {
        m.insert(round.to_string(), based.into());
    }
    Ok(())
}

/// Reads a `config.tsh`.
pub fn read(path: &Path) -> Result<Config> {
    let text = super::read_text(path)?;
    parse(&text).map_err(|e| e.in_file(path))
}

/// The `config.tsh` beside a `.t` file, if there is one.
pub fn beside(t_file: &Path) -> Option<PathBuf> {
    let dir = t_file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let c = dir.join(FILE_NAME);
    c.is_file().then_some(c)
}

impl Config {
    /// Division `i`'s file, in `dir` (the directory of `config`, the config file): a path
    /// that leads out of it is refused naming the config's line ([`super::paths::confine`]).
    pub fn division_file(&self, i: usize, dir: &Path, config: &Path) -> Result<PathBuf> {
        let line = self.division_lines.get(i).copied().unwrap_or(0);
        super::paths::confine(dir, &self.divisions[i].1)
            .map_err(|m| Error::at(line, "division", m).in_file(config))
    }

    /// Names each `config` key optipair does not follow (the keys `PRINTED_KEYS` lists) in a warning.
    pub fn warn(&self, path: &Path) {
        for (line, key, why) in &self.not_followed {
            super::trf::warn(format!(
                "{}: line {line}: `config {key}` is not followed: {why}",
                path.display()
            ));
        }
        for (line, key, why) in &self.pairing_not_followed {
            super::trf::warn(format!(
                "{}: line {line}: `config {key}` would change tsh's pairings and is not \
                 applied: {why}",
                path.display()
            ));
        }
    }

    /// The division whose file is `t_file` (compared by file name in the same directory).
    pub fn division_of(&self, t_file: &Path) -> Option<&str> {
        let name = t_file.file_name()?;
        self.divisions
            .iter()
            .find(|(_, f)| Path::new(f).file_name() == Some(name))
            .map(|(d, _)| d.as_str())
    }

    /// The settings for division `d`: the common ones, then the division's own.
    pub fn settings_for(&self, d: &str) -> BTreeMap<String, Value> {
        let mut s = self.settings.clone();
        if let Some(own) = self.by_division.get(&d.to_ascii_lowercase()) {
            s.extend(own.clone());
        }
        s
    }

    /// Applies what the config says about division `d` to its tournament.
    pub fn apply(&self, d: &str, t: &mut Tournament) {
        if self.max_rounds.is_some() {
            t.rounds_planned = self.max_rounds;
        }
        if let Some(n) = &self.event_name {
            t.name = n.clone();
        }
        t.settings.extend(self.settings_for(d));
        if let Some(v) = self
            .tables
            .get(&d.to_ascii_lowercase())
            .or_else(|| self.tables.get(""))
        {
            t.settings.insert(
                crate::tournament::boards::TABLES_KEY.into(),
                v.clone().into(),
            );
        }
        t.settings
            .insert(crate::tournament::DIVISION_NAME.into(), d.into());
    }
}

/// Loads one `.t` file: its config.tsh's settings (when it names the file), then the sidecar.
pub fn load_t(path: &Path, text: &str) -> Result<Tournament> {
    let mut t = tsh::parse(text).map_err(|e| e.in_file(path))?;
    if let Some(cfg_path) = beside(path) {
        let cfg = read(&cfg_path)?;
        cfg.warn(&cfg_path);
        if let Some(d) = cfg.division_of(path) {
            cfg.apply(d, &mut t);
        }
    }
    tsh::apply_sidecar(path, &mut t)?;
    Ok(t)
}

/// Loads every division of a `config.tsh` as one event with divisions (one division: that
/// division alone).
pub fn load(path: &Path) -> Result<Tournament> {
    let cfg = read(path)?;
    if cfg.divisions.is_empty() {
        return Err(Error::field("division", "no `division NAME FILE` line").in_file(path));
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut parts = Vec::new();
    for (i, (d, f)) in cfg.divisions.iter().enumerate() {
        let file = cfg.division_file(i, dir, path)?;
        let text = super::read_text(&file)?;
        let t = load_t(&file, &text)?;
        t.validate().map_err(|e| e.in_file(&file))?;
        parts.push((d.clone(), f.clone(), t));
    }
    if parts.len() == 1 {
        return Ok(parts.pop().expect("one").2);
    }
    let mut all = Tournament::new(cfg.event_name.clone().unwrap_or_default(), Vec::new());
    all.scoring = parts[0].2.scoring.clone();
    all.system = parts[0].2.system.clone();
    all.rounds_planned = parts.iter().filter_map(|p| p.2.rounds_planned).max();
    let mut per_division = serde_json::Map::new();
    let mut files = serde_json::Map::new();
    for (d, f, t) in parts {
        let offset = all.players.len() as u32;
        let mut own = serde_json::Map::new();
        for (k, v) in &t.settings {
            own.insert(k.clone(), shift_ids(k, v, offset));
        }
        per_division.insert(d.clone(), own.into());
        files.insert(d.clone(), serde_json::json!({"file": f, "offset": offset}));
        for mut p in t.players {
            // The division's own number (tsh's b3): its line in the division's file.
            p.pairing_number = Some(p.number());
            p.id += offset;
            p.division = Some(d.clone());
            all.players.push(p);
        }
        for r in t.rounds {
            let dst = match all.rounds.iter_mut().find(|x| x.number == r.number) {
                Some(x) => x,
                None => {
                    all.rounds.push(crate::tournament::Round {
                        number: r.number,
                        ..Default::default()
                    });
                    all.rounds.last_mut().expect("pushed")
                }
            };
            for mut g in r.games {
                g.white += offset;
                g.black += offset;
                dst.games.push(g);
            }
            for mut b in r.byes {
                b.player += offset;
                dst.byes.push(b);
            }
        }
    }
    all.rounds.sort_by_key(|r| r.number);
    all.settings
        .insert(DIVISION_SETTINGS.into(), per_division.into());
    all.settings.insert(FILES_KEY.into(), files.into());
    all.validate().map_err(|e| e.in_file(path))?;
    Ok(all)
}

/// Writes each division of an event loaded from `path` (a `config.tsh`) back to its `.t`
/// file; an event of one division goes to that division's file.
pub fn save(path: &Path, t: &Tournament) -> Result<()> {
    let cfg = read(path)?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if cfg.divisions.len() == 1 || !t.settings.contains_key(FILES_KEY) {
        if cfg.divisions.is_empty() {
            return Err(Error::field("division", "no `division NAME FILE` line").in_file(path));
        };
        return super::save(&cfg.division_file(0, dir, path)?, t);
    }
    // Render every division first, so that a division that cannot be written stops them all.
    let mut out = Vec::new();
    for (i, (d, _)) in cfg.divisions.iter().enumerate() {
        let mut part = t.division(&Some(d.clone()));
        renumber(&mut part);
        let file = cfg.division_file(i, dir, path)?;
        let text = tsh::write(&part).map_err(|e| e.in_file(&file))?;
        super::paths::check_writable(&file)?;
        out.push((file, text));
    }
    for (file, text) in out {
        super::write_atomic(&file, text.as_bytes())?;
    }
    Ok(())
}

/// An id-keyed `.t` setting with its ids moved up by `offset` (other settings unchanged).
fn shift_ids(key: &str, v: &Value, offset: u32) -> Value {
    match v {
        Value::Object(m) if key == tsh::FIELDS_KEY || key == tsh::BYE_P12_KEY => m
            .iter()
            .map(|(k, v)| {
                let k = k
                    .parse::<u32>()
                    .map_or(k.clone(), |id| (id + offset).to_string());
                (k, v.clone())
            })
            .collect::<serde_json::Map<String, Value>>()
            .into(),
        _ => v.clone(),
    }
}

/// A division's players numbered 1, 2, … in id order (their `.t` line numbers), with the
/// id-keyed `.t` settings renumbered alike.
fn renumber(t: &mut Tournament) {
    let mut ids: Vec<u32> = t.players.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    let new: BTreeMap<u32, u32> = ids
        .iter()
        .enumerate()
        .map(|(i, &id)| (id, i as u32 + 1))
        .collect();
    for p in &mut t.players {
        p.id = new[&p.id];
        p.division = None;
    }
    for r in &mut t.rounds {
        for g in &mut r.games {
            g.white = new[&g.white];
            g.black = new[&g.black];
        }
        for b in &mut r.byes {
            b.player = new[&b.player];
        }
    }
    for key in [tsh::FIELDS_KEY, tsh::BYE_P12_KEY] {
        if let Some(Value::Object(m)) = t.settings.get(key) {
            let m: serde_json::Map<String, Value> = m
                .iter()
                .filter_map(|(k, v)| {
                    let id: u32 = k.parse().ok()?;
                    Some((new.get(&id)?.to_string(), v.clone()))
                })
                .collect();
            t.settings.insert(key.into(), m.into());
        }
    }
}
