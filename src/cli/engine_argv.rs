//! The pairing-engine command line of the chess managers (Swiss-Manager, Vega, SwissSys,
//! Sharly-Chess…), as bbpPairings' README and the JaVaFo advanced user manual define it, so
//! that `optipair` can replace either engine:
//!
//! ```text
//! optipair (--dutch | --baku) INPUT.trf -p [OUTPUT]     pair the next round
//! optipair (--dutch | --baku) INPUT.trf -c              check the recorded rounds
//! optipair (--dutch | --baku) -g [CONFIG] -o OUT.trf [-s SEED]   generate a tournament
//! optipair INPUT.trf -p [OUTPUT]                        JaVaFo's form (Dutch)
//! ```
//!
//! With `-p`, `--certificate FILE` also writes the round's certificate (what was proved, tier
//! by tier, the verifier's findings, the system's notes) as JSON to FILE, so that a manager
//! calling optipair keeps the proof with the round; the `-p` output is unchanged.
//!
//! `--dutch` pairs with optipair's `swiss` system, `--baku` with `baku`. `-p` writes the
//! number of pairs on the first line, then `WHITE BLACK` per board and the pairing-allocated
//! bye as `ID 0` (counted among the pairs), to OUTPUT or, without it, to standard output.
//! `-c` prints, per round, `NAME: Round #k` and, for a round whose recorded pairing is not
//! the one the engine makes from the rounds before, the reference checker's table of the games
//! that differ ("Checker pairings" beside "Tournament pairings"); the verifier's findings go to
//! standard error. Refused as the reference refuses them (exit 3): more rounds recorded (or,
//! for `-p`, to pair) than XXR plans; round 1 to pair without an initial colour (XXC / 152);
//! a file with no players and no rounds planned.
//!
//! Exit codes, bbpPairings' meanings: 0 success; 1 no valid pairing exists; 2 unexpected
//! error (the verifier rejected the pairing); 3 invalid request (argv, or an input file that
//! is not a valid TRF for the request, an OUTPUT that is the input file itself, also through
//! a link); 4 a size limit exceeded (the memory cap); 5 a file could not be read or written
//! (among them an input or OUTPUT that is a device, FIFO, socket or directory, and a
//! read-only OUTPUT).

use optipair::engine;
use optipair::formats;
use optipair::solve::Status;
use optipair::tournament::standings::Standings;
use optipair::tournament::{ByeKind, Colour, GameResult, Order, Round, Tournament};
use optipair::{Error, SystemKind};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// bbpPairings' exit codes.
pub const OK: u8 = 0;
pub const NO_VALID_PAIRING: u8 = 1;
pub const UNEXPECTED: u8 = 2;
pub const INVALID_REQUEST: u8 = 3;
pub const FILE_ACCESS: u8 = 5;

const SYSTEM_FLAGS: [&str; 4] = ["--dutch", "--baku", "--burstein", "--fast"];

/// Whether `args` (without the program name) is the engine command line rather than one of
/// optipair's subcommands: it starts with a system flag (after bbpPairings' optional `-r`),
/// or is JaVaFo's `INPUT -p|-c …` (no subcommand is followed by `-p` or `-c`).
pub fn is_engine_argv(args: &[String]) -> bool {
    let rest = match args.first().map(String::as_str) {
        Some("-r") => &args[1..],
        _ => args,
    };
    match rest.first() {
        Some(a) if SYSTEM_FLAGS.contains(&a.as_str()) => true,
        Some(a) if !a.starts_with('-') => {
            matches!(rest.get(1).map(String::as_str), Some("-p" | "-c"))
                && !SUBCOMMANDS.contains(&a.as_str())
        }
        _ => args.len() == 1 && args[0] == "-r",
    }
}

const SUBCOMMANDS: [&str; 17] = [
    "new",
    "record",
    "enter",
    "withdraw",
    "return",
    "bye",
    "unpair",
    "pair",
    "generate",
    "bench",
    "simulate",
    "audit",
    "explain",
    "standings",
    "sheet",
    "check",
    "help",
];

/// What the argv asks.
#[derive(Debug, PartialEq)]
enum Request {
    Version,
    Pair {
        input: PathBuf,
        output: Option<PathBuf>,
        certificate: Option<PathBuf>,
    },
    Check {
        input: PathBuf,
    },
    Generate {
        config: Option<PathBuf>,
        output: PathBuf,
        seed: Option<u64>,
    },
}

fn usage() -> String {
    "engine command line:\n  optipair [-r] (--dutch | --baku) INPUT -c\n  optipair [-r] (--dutch | \
     --baku) INPUT -p [OUTPUT] [--certificate FILE]\n  optipair [-r] (--dutch | --baku) -g [CONFIG] -o TRF [-s SEED]\n  \
     optipair INPUT (-p [OUTPUT] | -c)   (JaVaFo's form: Dutch)"
        .to_string()
}

/// Parses the engine argv into the system and the request; an error is an invalid request.
fn parse(args: &[String]) -> std::result::Result<(SystemKind, Request), String> {
    let mut i = 0;
    let mut version = false;
    if args.first().map(String::as_str) == Some("-r") {
        version = true;
        i = 1;
    }
    if i == args.len() && version {
        return Ok((SystemKind::Swiss, Request::Version));
    }
    let system = match args.get(i).map(String::as_str) {
        Some("--dutch") => {
            i += 1;
            SystemKind::Swiss
        }
        Some("--baku") => {
            i += 1;
            SystemKind::Baku
        }
        Some(s @ ("--burstein" | "--fast")) => {
            return Err(format!(
                "{s}: optipair pairs the Dutch system (--dutch) and Baku acceleration \
                 (--baku), not {}",
                &s[2..]
            ))
        }
        // JaVaFo: `INPUT -p …` pairs by the Dutch system.
        _ => SystemKind::Swiss,
    };
    let mut input: Option<PathBuf> = None;
    let mut mode: Option<char> = None;
    let mut output: Option<PathBuf> = None;
    let mut trf_out: Option<PathBuf> = None;
    let mut config: Option<PathBuf> = None;
    let mut seed: Option<u64> = None;
    let mut certificate: Option<PathBuf> = None;
    let rest = &args[i..];
    let mut k = 0;
    // An optional value: the next argument unless it is a flag.
    let value = |k: usize| -> Option<PathBuf> {
        rest.get(k + 1)
            .filter(|a| !a.starts_with('-') || a.as_str() == "-")
            .map(PathBuf::from)
    };
    while k < rest.len() {
        let a = rest[k].as_str();
        match a {
            "-p" | "-c" | "-g" => {
                if mode.is_some() {
                    return Err(format!("{a}: only one of -p, -c and -g is allowed"));
                }
                mode = a.chars().nth(1);
                if a != "-c" {
                    if let Some(v) = value(k) {
                        if a == "-p" {
                            output = Some(v);
                        } else {
                            config = Some(v);
                        }
                        k += 1;
                    }
                }
            }
            "-o" => {
                trf_out = Some(value(k).ok_or("-o needs the TRF file to write")?);
                k += 1;
            }
            "-s" => {
                let v = rest.get(k + 1).ok_or("-s needs a seed")?;
                seed = Some(
                    v.parse()
                        .map_err(|_| format!("-s: seed '{v}' is not a whole number"))?,
                );
                k += 1;
            }
            "--certificate" => {
                certificate = Some(
                    value(k).ok_or("--certificate needs the file to write the certificate to")?,
                );
                k += 1;
            }
            "-l" => {
                return Err(
                    "-l (the check-list file) is not supported by optipair; leave it out".into(),
                )
            }
            "-r" => version = true,
            _ if a.starts_with('-') && a != "-" => return Err(format!("unknown option '{a}'")),
            _ => {
                if input.is_some() {
                    return Err(format!("unexpected argument '{a}'"));
                }
                input = Some(PathBuf::from(a));
            }
        }
        k += 1;
    }
    let request = match mode {
        Some('p') => Request::Pair {
            input: input.ok_or("-p needs an input TRF file")?,
            output,
            certificate,
        },
        _ if certificate.is_some() => {
            return Err("--certificate goes with -p (the round paired)".into())
        }
        Some('c') => Request::Check {
            input: input.ok_or("-c needs an input TRF file")?,
        },
        Some('g') => {
            if input.is_some() {
                return Err(
                    "a model file (MODEL -g) is not supported: give a configuration (-g CONFIG)"
                        .into(),
                );
            }
            Request::Generate {
                config,
                output: trf_out.ok_or("-g needs -o OUTPUT.trf")?,
                seed,
            }
        }
        _ if version && input.is_none() => Request::Version,
        _ => return Err("one of -p, -c or -g is needed".into()),
    };
    Ok((system, request))
}

/// Runs the engine argv (without the program name) and returns bbpPairings' exit code.
pub fn run(args: &[String]) -> u8 {
    let (system, request) = match parse(args) {
        Ok(v) => v,
        Err(msg) => {
            errln!("error: {msg}\n{}", usage());
            return INVALID_REQUEST;
        }
    };
    let outcome = match request {
        Request::Version => {
            return match super::emit(&format!("optipair {}\n", env!("CARGO_PKG_VERSION"))) {
                Ok(()) => OK,
                Err(_) => FILE_ACCESS,
            }
        }
        Request::Pair {
            input,
            output,
            certificate,
        } => pair(system, &input, output.as_deref(), certificate.as_deref()),
        Request::Check { input } => check(system, &input),
        Request::Generate {
            config,
            output,
            seed,
        } => generate(system, config.as_deref(), &output, seed.unwrap_or(1)),
    };
    for w in formats::trf::take_warnings() {
        errln!("warning: {w}");
    }
    match outcome {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e}");
            code_of(&e)
        }
    }
}

/// An error's bbpPairings exit code.
fn code_of(e: &Error) -> u8 {
    match e {
        Error::Io { .. } | Error::Output { .. } => FILE_ACCESS,
        Error::Input { message, .. } if message.contains("has no legal pairing") => {
            NO_VALID_PAIRING
        }
        Error::Input { .. } => INVALID_REQUEST,
    }
}

/// Loads INPUT as TRF whatever its extension (managers name it freely).
fn load_trf(path: &Path) -> optipair::Result<Tournament> {
    let (text, encoding) = formats::read_trf_text(path)?;
    let mut t = formats::trf::parse(&text).map_err(|e| e.in_file(path))?;
    t.encoding = encoding;
    t.validate().map_err(|e| e.in_file(path))?;
    formats::refuse_empty(&t, path)?;
    Ok(t)
}

/// The `-p` text: the number of pairs (the bye counted), `WHITE BLACK` per board, then the
/// pairing-allocated bye as `ID 0`. Boards in the order bbpPairings publishes them: by the
/// real score (without acceleration) of the pair's higher player, then of the lower one, then
/// by the higher player's pairing number — the Dutch engine's own order, except where
/// acceleration (XXA, TRF-2026 250) puts a pair's pairing scores in another order.
pub fn pairs_text(t: &Tournament, round: &Round) -> String {
    let mut games: Vec<(u32, u32)> = round.games.iter().map(|g| (g.white, g.black)).collect();
    sort_boards(t, round.number, &mut games);
    let mut lines: Vec<String> = games.iter().map(|(w, b)| format!("{w} {b}")).collect();
    for b in &round.byes {
        if b.kind == ByeKind::PairingAllocated {
            lines.push(format!("{} 0", b.player));
        }
    }
    let mut s = format!("{}\n", lines.len());
    for l in lines {
        s.push_str(&l);
        s.push('\n');
    }
    s
}

/// Sorts round `round`'s games `(white, black)` in the order the reference publishes them
/// (see [`pairs_text`]); a bye, `(id, id)`, goes last.
fn sort_boards(t: &Tournament, round: u32, games: &mut [(u32, u32)]) {
    let st = Standings::before(t, round);
    let score = |id: u32| st.get(id).map_or(0.0, |s| s.score);
    let key = |&(w, b): &(u32, u32)| {
        // The higher player: the better real score, then the better pairing number.
        let above = |a: u32, b: u32| {
            score(a) > score(b) || (score(a) == score(b) && t.number_of(a) < t.number_of(b))
        };
        let (hi, lo) = if above(w, b) { (w, b) } else { (b, w) };
        (
            w == b,
            -(score(hi) * 1000.0).round() as i64,
            -(score(lo) * 1000.0).round() as i64,
            t.number_of(hi),
        )
    };
    games.sort_by_key(key);
}

/// The line number (1-based) of player `id`'s 001 line in a TRF text.
fn player_line(text: &str, id: u32) -> Option<usize> {
    text.replace("\r\n", "\n")
        .split(['\r', '\n'])
        .position(|l| {
            l.starts_with("001") && l.get(4..8).and_then(|s| s.trim().parse().ok()) == Some(id)
        })
        .map(|i| i + 1)
}

fn pair(
    system: SystemKind,
    input: &Path,
    output: Option<&Path>,
    certificate: Option<&Path>,
) -> optipair::Result<u8> {
    let (text, _) = formats::read_trf_text(input)?;
    let t = load_trf(input)?;
    // `-p IN.trf` (or a link to it) would replace the tournament with the pairs: refused
    // (invalid request); a device, FIFO or read-only file as OUTPUT cannot be written.
    if let Some(out) = output {
        formats::paths::check_output(out, "-p")?;
    }
    if let Some(c) = certificate {
        formats::paths::check_output(c, "--certificate")?;
        if output.is_some_and(|o| o == c) {
            return Err(Error::field(
                "--certificate",
                "the certificate cannot go to the -p output file",
            ));
        }
    }
    let last = t.last_paired_round();
    refuse_request(&t, last + 1).map_err(|e| e.in_file(input))?;
    // A round paired but not played (an opponent without a result, as `optipair pair
    // --write` stores it): no TRF code says "not played yet", and the engine pairs the next
    // round from complete results, so the file is refused, naming the first such game.
    if let Some(prev) = t.round(last) {
        let pending: Vec<_> = prev
            .games
            .iter()
            .filter(|g| g.result == GameResult::Pending)
            .collect();
        if let Some(g) = pending.first() {
            let line = player_line(&text, g.white.min(g.black)).unwrap_or(0);
            return Err(Error::at(
                line,
                &format!("round {last} result"),
                format!(
                    "round {last} is paired but {} of its games {} no result yet (first: {} v \
                     {}): the next round is paired from complete results; record round \
                     {last}'s results first",
                    pending.len(),
                    if pending.len() == 1 { "has" } else { "have" },
                    g.white,
                    g.black
                ),
            )
            .in_file(input));
        }
    }
    // Renumbered fields are read by pairing number (the TRF start rank), so ids are the
    // numbers the manager knows.
    let paired = engine::pair_round(&t, last + 1, system, &super::options())
        .map_err(|e| e.in_file(input))?;
    for v in &paired.violations {
        errln!("verifier: {}", v.message);
    }
    if paired.pairing.certificate.status == Status::Rejected {
        errln!(
            "error: the verifier rejected the pairing of round {}",
            last + 1
        );
        return Ok(UNEXPECTED);
    }
    let text = pairs_text(&t, &paired.round);
    write_pairs(output, &text)?;
    if let Some(c) = certificate {
        formats::write_atomic(c, certificate_json(&paired).as_bytes())?;
    }
    Ok(OK)
}

/// The certificate file of `--certificate`: the round, the system, the certificate (status,
/// tiers, what was proved), the verifier's findings and the system's notes.
fn certificate_json(p: &engine::Paired) -> String {
    let v = serde_json::json!({
        "round": p.round.number,
        "system": p.system,
        "dutch_pairing": p.dutch,
        "certificate": p.pairing.certificate,
        "violations": p.violations,
        "notes": p.notes,
    });
    serde_json::to_string_pretty(&v).expect("json of plain data") + "\n"
}

fn write_pairs(output: Option<&Path>, text: &str) -> optipair::Result<()> {
    match output {
        Some(path) => formats::write_atomic(path, text.as_bytes())?,
        None => out!("{text}"),
    }
    Ok(())
}

/// What the reference refuses before pairing round `next` (exit 3, invalid request): a file
/// with no players and no rounds planned (an empty file), more rounds played or to pair than
/// XXR plans, and round 1 without an initial colour (the engine does not draw it by lot).
fn refuse_request(t: &Tournament, next: u32) -> optipair::Result<()> {
    if t.players.is_empty() && t.rounds_planned.is_none() {
        return Err(Error::input(
            "no players and no number of rounds: the total number of rounds in the tournament \
             must be specified (XXR)",
        ));
    }
    refuse_rounds(t)?;
    if let Some(n) = t.rounds_planned.filter(|&n| next > n) {
        return Err(Error::field(
            "XXR",
            format!(
                "the {} planned {} all paired: there is no round {next} to pair",
                optipair::spec::words::count(n.into(), "round", "rounds"),
                if n == 1 { "is" } else { "are" }
            ),
        ));
    }
    if next == 1 && t.initial_colour.is_none() {
        return Err(Error::field(
            "XXC",
            "round 1 is to be paired and the file gives no initial colour: please configure \
             the initial piece colours (XXC white1 or XXC black1; TRF-2026 152 W or 152 B)",
        ));
    }
    Ok(())
}

/// More rounds recorded than XXR plans: refused for `-p` and `-c`, as the reference does.
fn refuse_rounds(t: &Tournament) -> optipair::Result<()> {
    let last = t.last_paired_round();
    match t.rounds_planned {
        Some(n) if last > n => Err(Error::field(
            "XXR",
            format!(
                "the file records {last} rounds but plans {n}: the number of rounds is larger \
                 than the number of rounds planned"
            ),
        )),
        _ => Ok(()),
    }
}

/// `-c`: per round, `NAME: Round #k`, then, when the recorded pairing is not the one the
/// engine makes from the rounds before, the reference's table of the games concerned (see
/// [`discrepancies`]); a blank line at the end. The exit code is 0 either way, as the
/// reference's; the verifier's findings go to standard error.
fn check(system: SystemKind, input: &Path) -> optipair::Result<u8> {
    let t = load_trf(input)?;
    refuse_rounds(&t).map_err(|e| e.in_file(input))?;
    let name = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    for r in 1..=t.last_paired_round() {
        outln!("{name}: Round #{r}");
        let Some(rd) = t.round(r).filter(|rd| rd.is_paired()) else {
            continue;
        };
        for v in optipair::verify::check(&t, Some(r), system)? {
            errln!("verifier: {}", v.message);
        }
        match engine::pair_round(&t, r, system, &super::options()) {
            Ok(p) => {
                if !p.dutch && system == SystemKind::Swiss {
                    errln!(
                        "note: round {r}: the exact Dutch procedure did not pair this round; \
                         compared with the legal pairing found instead"
                    );
                }
                out!("{}", discrepancies(&t, rd, &p.round));
            }
            Err(e) if code_of(&e) == NO_VALID_PAIRING => {
                outln!("No valid pairing exists for round {r}.\n");
            }
            Err(e) => return Err(e.in_file(input)),
        }
    }
    outln!("");
    Ok(OK)
}

/// The reference checker's table for one round: empty when every game (and the bye) of the
/// engine's pairing is recorded with the same colours; otherwise the header, then the
/// recorded games of the players whose games differ (right), beside the engine's (left), each
/// list in board order, and a blank line. A game recorded without colours (`12 - -`) agrees
/// with the same pair either way round, as the reference reads it.
fn discrepancies(t: &Tournament, recorded: &Round, engine: &Round) -> String {
    // Each player's recorded opponent (himself for a bye) and colour, if known.
    let mut had: HashMap<u32, (u32, Option<Colour>)> = HashMap::new();
    for g in &recorded.games {
        let known = g.order == Order::Recorded;
        had.insert(g.black, (g.white, known.then_some(Colour::Black)));
        had.insert(g.white, (g.black, known.then_some(Colour::White)));
    }
    let mine = |id: u32| had.get(&id).copied().unwrap_or((id, None));
    let mut wrong: Vec<(u32, u32)> = engine
        .games
        .iter()
        .map(|g| (g.white, g.black))
        .chain(
            engine
                .byes
                .iter()
                .filter(|b| b.kind == ByeKind::PairingAllocated)
                .map(|b| (b.player, b.player)),
        )
        .filter(|&(w, b)| {
            let (o, c) = mine(w);
            o != b || c == Some(Colour::Black)
        })
        .collect();
    if wrong.is_empty() {
        return String::new();
    }
    let mut given: Vec<(u32, u32)> = Vec::new();
    for &(w, b) in &wrong {
        for p in if w == b { vec![w] } else { vec![w, b] } {
            let (o, c) = mine(p);
            if p <= o {
                // As the reference lists it: from the lower number's side, the pair the
                // other way round unless he had white (a game without colours too).
                given.push(if c == Some(Colour::White) {
                    (p, o)
                } else {
                    (o, p)
                });
            }
        }
    }
    sort_boards(t, recorded.number, &mut wrong);
    sort_boards(t, recorded.number, &mut given);
    let pair = |(w, b): (u32, u32)| format!("{w:>3} - {:>3}", if w == b { 0 } else { b });
    let mut s = format!("  Checker pairings{:8}Tournament pairings \n", "");
    let mut left = wrong.into_iter();
    for g in given {
        let l = left.next().map_or(" ".repeat(9), pair);
        s.push_str(&format!("    {l}{:16}{}\n", "", pair(g)));
    }
    s.push('\n');
    s
}

/// bbpPairings' generator configuration: `Key=value` lines (`PlayersNumber`, `RoundsNumber`,
/// `DrawPercentage`); other keys are accepted and not used.
fn generate(
    system: SystemKind,
    config: Option<&Path>,
    output: &Path,
    seed: u64,
) -> optipair::Result<u8> {
    let (mut players, mut rounds, mut draw) = (16usize, 5u32, 30.0f64);
    if let Some(path) = config {
        let text = formats::read_text(path)?;
        for (n, line) in text.lines().enumerate() {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let bad = |what: &str| {
                Error::at(
                    n + 1,
                    key.trim(),
                    format!("'{}' is not {what}", value.trim()),
                )
                .in_file(path)
            };
            match key.trim() {
                "PlayersNumber" => {
                    players = value
                        .trim()
                        .parse()
                        .map_err(|_| bad("a number of players"))?
                }
                "RoundsNumber" => {
                    rounds = value
                        .trim()
                        .parse()
                        .map_err(|_| bad("a number of rounds"))?
                }
                "DrawPercentage" => draw = value.trim().parse().map_err(|_| bad("a percentage"))?,
                _ => {}
            }
        }
    }
    if players < 2 || rounds == 0 || !(0.0..=100.0).contains(&draw) {
        return Err(Error::field(
            "-g",
            format!(
                "PlayersNumber {players}, RoundsNumber {rounds}, DrawPercentage {draw}: at least \
                 2 players, 1 round, a percentage from 0 to 100"
            ),
        ));
    }
    let spec = optipair::generate::Spec {
        players,
        rounds,
        played: rounds,
        seed,
        draw_rate: draw / 100.0,
        system,
    };
    formats::paths::check_output(output, "-o")?;
    let t = optipair::generate::field(&spec, &super::options())?;
    let text = formats::trf::write(&t).map_err(|e| e.in_file(output))?;
    formats::write_atomic(output, text.as_bytes())?;
    Ok(OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn recognises_the_engine_forms_and_leaves_subcommands_alone() {
        assert!(is_engine_argv(&argv("--dutch in.trf -p out.txt")));
        assert!(is_engine_argv(&argv("-r --baku in.trf -c")));
        assert!(is_engine_argv(&argv("in.trf -p out.txt")));
        assert!(!is_engine_argv(&argv("pair in.trf --write")));
        assert!(!is_engine_argv(&argv("check -p")));
        assert_eq!(
            parse(&argv("--dutch in.trf -p")).unwrap(),
            (
                SystemKind::Swiss,
                Request::Pair {
                    input: "in.trf".into(),
                    output: None,
                    certificate: None,
                }
            )
        );
        assert!(parse(&argv("--burstein in.trf -p")).is_err());
        assert!(parse(&argv("--dutch in.trf")).is_err());
    }
}
