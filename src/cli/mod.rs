//! Commands: `new`, `record`, `pair`, `check`, `generate`, `bench`, `simulate`, `audit`, and
//! the director's changes between rounds — `enter` (a late entry), `withdraw`, `return`,
//! `bye`, `unpair` (in `field`). Exit codes: 0 success (or a clean check), 1 a check found
//! violations, 2 bad input (the file untouched); `audit`: 0 legal and optimal, 1 legal but not
//! optimal, 3 breaks a rule, 2 bad input.
//!
//! The chess managers' engine command line (`optipair --dutch IN.trf -p OUT`, bbpPairings'
//! and JaVaFo's) is recognised before the subcommands: see [`engine_argv`], with
//! bbpPairings' exit codes.

/// `println!` that returns an error (exit 4) instead of panicking when standard output is a
/// closed pipe or a full disk.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::optipair_cli::emit(&format!("{}\n", format_args!($($arg)*)))?
    };
}

/// `print!` with the same error handling as [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::optipair_cli::emit(&format!($($arg)*))?
    };
}

/// `eprintln!` that never panics: a message that cannot reach standard error is dropped.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod audit;
mod bench;
mod engine_argv;
mod explain;
mod field;
pub mod guard;
mod pair;
mod post;
mod simulate;
mod system;

use clap::{Parser, Subcommand};
use optipair::formats;
use optipair::solve::Options;
use optipair::tournament::Tournament;
use optipair::{Error, Result, SystemKind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use system::SystemParser;

#[derive(Parser)]
#[command(
    name = "optipair",
    version,
    about = "Provably optimal tournament pairings"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Memory cap in MiB (the process's data memory); past it the run stops with a message
    /// and exit code 4, writing nothing. Default: half the machine's memory.
    #[arg(long, global = true, value_name = "MIB", value_parser = clap::value_parser!(u64).range(64..=1 << 40))]
    memory_limit: Option<u64>,
    /// A TRF points column (81-84) that disagrees with the results is a warning, not an
    /// error.
    #[arg(long, global = true)]
    points_warning: bool,
}

/// Default `--time-limit` of `pair` and `audit`, in seconds: the exact FIDE Dutch procedure
/// has two thirds of it, then the tier model until 72%; past it the legal fallback
/// pairs the round (BENCHMARKS.md has the times measured, up to 10,000 players).
pub const DEFAULT_TIME_LIMIT: f64 = 120.0;

/// Largest `--time-limit` accepted: a week.
const MAX_TIME_LIMIT: f64 = 7.0 * 24.0 * 3600.0;
/// The share of `check --time-limit` by which the verifier's checks end (the rest prints
/// what they found).
const CHECK_SHARE: f64 = 0.95;

/// Parses `--time-limit`: a finite number of seconds from 0 (the fallback at once) to a week.
pub fn seconds(text: &str) -> std::result::Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !v.is_finite() || !(0.0..=MAX_TIME_LIMIT).contains(&v) {
        return Err(format!(
            "a time limit is a number of seconds from 0 to {MAX_TIME_LIMIT} (a week); got '{text}'"
        ));
    }
    Ok(v)
}

/// The solver's options as the environment sets them, for benchmarks and debugging (the
/// library reads no environment): `OPTIPAIR_SPARSE_FROM` (a number of players) moves
/// [`Options::sparse_from`]; `OPTIPAIR_DUMP_MATCHING=FILE` sets [`Options::dump_matching`].
pub fn options() -> Options {
    let mut opts = Options::default();
    if let Some(n) = std::env::var("OPTIPAIR_SPARSE_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        opts.sparse_from = n;
    }
    opts.dump_matching = std::env::var_os("OPTIPAIR_DUMP_MATCHING").map(Into::into);
    opts
}

/// The solver's trace: with `OPTIPAIR_TRACE` set (to anything), optipair's `log` records of
/// level debug and above go to standard error as `trace: …` lines (one per HiGHS solve,
/// pricing round, matching, Dutch bracket and closed tier group); other crates' records are
/// left out.
struct Trace;

impl log::Log for Trace {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.target().starts_with("optipair")
    }
    fn log(&self, r: &log::Record) {
        if self.enabled(r.metadata()) {
            errln!("trace: {}", r.args());
        }
    }
    fn flush(&self) {}
}

fn install_trace() {
    if std::env::var_os("OPTIPAIR_TRACE").is_some() && log::set_logger(&Trace).is_ok() {
        log::set_max_level(log::LevelFilter::Debug);
    }
}

/// Writes to standard output and flushes, so that a closed pipe or a full disk is an error
/// (exit 4) here rather than a panic inside `print!`.
pub fn emit(text: &str) -> Result<()> {
    emit_bytes(text.as_bytes())
}

/// [`emit`] for text already encoded (a TRF file's Windows-1252).
pub fn emit_bytes(bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|_| out.flush())
        .map_err(|e| Error::Output {
            message: e.to_string(),
        })
}

#[derive(Subcommand)]
enum Command {
    /// Start an event from a CSV player list (`name,rating[,id]`, or a header row naming the
    /// columns: name, rating, id, title, federation, FIDE id, birth date, sex, club).
    New {
        /// The CSV player list.
        #[arg(long)]
        players: PathBuf,
        /// The tournament file to create (.json or .trf).
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value = "")]
        name: String,
        /// Rounds planned.
        #[arg(long)]
        rounds: Option<u32>,
        #[arg(long, default_value = "swiss", value_parser = SystemParser)]
        system: SystemKind,
    },
    /// Record results of a round from `board result` or `white black result` lines; reports
    /// each correction and the boards still without a result.
    Record(field::RecordArgs),
    /// Enter a player late: next id, pairing number by FIDE C.04.2, byes for missed rounds.
    Enter(field::EnterArgs),
    /// Withdraw a player from round N on.
    Withdraw(field::WithdrawArgs),
    /// A withdrawn player comes back from round N on.
    Return(field::WithdrawArgs),
    /// Requested byes (half, zero, full; `none` removes) in rounds not yet paired.
    Bye(field::ByeArgs),
    /// Take back round N (refused when later rounds are paired, or results exist without
    /// --force).
    Unpair(field::UnpairArgs),
    /// Pair the next round (or re-pair round N from the rounds before it).
    Pair(pair::PairArgs),
    /// Generate a random field with some rounds played (deterministic by seed).
    Generate(bench::GenerateArgs),
    /// Pair one round of generated fields of several sizes and report time, memory and proof.
    Bench(bench::BenchArgs),
    /// Simulate whole events under several systems and compare them (deterministic by seed).
    Simulate(simulate::SimulateArgs),
    /// Audit a pairing made elsewhere: rule violations, then tier by tier against the proven
    /// optimum (exit 0 optimal, 1 legal but not optimal, 3 breaks a rule, 2 bad input).
    Audit(audit::AuditArgs),
    /// Explain one player's pairing: where he stood, the rule that decided his opponent and
    /// colour, what each other opponent would have cost; or, with --swap A B, what swapping
    /// two players' opponents would cost.
    Explain(explain::ExplainArgs),
    /// Standings after a round: score and C.07 tie-breaks (Scrabble: wins, then spread).
    Standings(post::StandingsArgs),
    /// Sheets to post: the pairing sheet, the alphabetical list, the crosstable (text or HTML).
    Sheet(post::SheetArgs),
    /// Verify the recorded pairings of every round (or round N) against the rules.
    Check {
        file: PathBuf,
        #[arg(long)]
        round: Option<u32>,
        /// The pairing system (default: the file's `system`, else swiss).
        #[arg(long, value_parser = SystemParser)]
        system: Option<SystemKind>,
        /// Output format.
        #[arg(long, default_value = "text")]
        format: OutFormat,
        /// Check this division only (events with divisions).
        #[arg(long)]
        division: Option<String>,
        /// Seconds for the whole check (0 to a week): a part of a round still being checked
        /// then is left undone, and the round is reported as not fully checked (exit 4).
        #[arg(long, value_parser = seconds, default_value_t = DEFAULT_TIME_LIMIT)]
        time_limit: f64,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutFormat {
    Text,
    Json,
    Trf,
}

pub fn run() -> ExitCode {
    install_trace();
    // The managers' engine command line (`--dutch IN.trf -p OUT`) before clap.
    let argv: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if engine_argv::is_engine_argv(&argv) {
        let limit = guard::default_limit_mib();
        if let Err(e) = guard::set_limit_mib(limit) {
            errln!("warning: the memory limit of {limit} MiB could not be set: {e}");
        }
        return ExitCode::from(engine_argv::run(&argv));
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let limit = cli.memory_limit.unwrap_or_else(guard::default_limit_mib);
    if let Err(e) = guard::set_limit_mib(limit) {
        errln!("warning: the memory limit of {limit} MiB could not be set: {e}");
    }
    if cli.points_warning {
        formats::trf::POINTS_WARNING.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let result = dispatch(cli);
    for w in formats::trf::take_warnings() {
        errln!("warning: {w}");
    }
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(exit_code(&e))
        }
    }
}

fn dispatch(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::New {
            players,
            out,
            name,
            rounds,
            system,
        } => {
            let text = formats::read_text(&players)?;
            let list = formats::csv::parse_players(&text).map_err(|e| e.in_file(&players))?;
            if std::fs::symlink_metadata(&out).is_ok() {
                return Err(Error::input("file exists already; not overwriting").in_file(&out));
            }
            formats::paths::check_output(&out, "--out")?;
            let mut t = Tournament::new(name, list);
            t.rounds_planned = rounds;
            t.system = Some(system.to_string());
            formats::save(&out, &t)?;
            let n = optipair::spec::words::count(t.players.len() as i64, "player", "players");
            outln!("{}: {n}", out.display());
            Ok(0)
        }
        Command::Record(args) => field::record(args),
        Command::Enter(args) => field::enter(args),
        Command::Withdraw(args) => field::withdraw(args),
        Command::Return(args) => field::return_player(args),
        Command::Bye(args) => field::bye(args),
        Command::Unpair(args) => field::unpair(args),
        Command::Pair(args) => pair::run(args),
        Command::Generate(args) => bench::generate(args),
        Command::Bench(args) => bench::bench(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Standings(args) => post::standings(args),
        Command::Sheet(args) => post::sheet(args),
        Command::Check {
            file,
            round,
            system,
            format,
            division,
            time_limit,
        } => {
            let started = std::time::Instant::now();
            let mut t = formats::load(&file)?;
            if let Some(d) = &division {
                t = t.named_division(d).map_err(|e| as_flag(e).in_file(&file))?;
            }
            // The verifier names players by id: by pairing number, they are the sheets'.
            let t = t.by_numbers();
            let system = system_name(&t, system, &file)?;
            if let Some(r) = round {
                if !t.round(r).is_some_and(|rd| rd.is_paired()) {
                    let last = t.last_paired_round();
                    return Err(Error::field(
                        "--round",
                        if last == 0 {
                            format!("round {r} is not paired: no round of this file is")
                        } else {
                            format!("round {r} is not paired (the last paired round is {last})")
                        },
                    )
                    .in_file(&file));
                }
            }
            // The checks end by 95% of the limit from the command's start (each round's on a
            // thread waited for until then); the rest prints the findings.
            let deadline = std::time::Duration::try_from_secs_f64(time_limit * CHECK_SHARE)
                .ok()
                .and_then(|d| started.checked_add(d));
            let checked = optipair::verify::check_within(&t, round, system, deadline)?;
            let (found, unchecked) = (&checked.violations, &checked.unchecked);
            match format {
                OutFormat::Json => outln!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "system": system,
                        "violations": found,
                        "unchecked": unchecked,
                    }))
                    .expect("json")
                ),
                _ => {
                    for v in found {
                        outln!("{}", v.message);
                    }
                    for u in unchecked {
                        outln!("{}", u.message);
                    }
                    let rounds = match round {
                        Some(r) => format!("round {r}"),
                        None => "every round".to_string(),
                    };
                    let mut late: Vec<u32> = unchecked.iter().map(|u| u.round).collect();
                    late.dedup();
                    let late: Vec<String> = late.iter().map(|r| r.to_string()).collect();
                    if found.is_empty() && late.is_empty() {
                        outln!("{}: {rounds} clean under {system}", file.display());
                    } else if found.is_empty() {
                        outln!(
                            "{}: no violation found under {system}, but not fully checked within the time limit (round{} {})",
                            file.display(),
                            if late.len() == 1 { "" } else { "s" },
                            late.join(", ")
                        );
                    } else {
                        outln!(
                            "{}: {} violation{} under {system}",
                            file.display(),
                            found.len(),
                            if found.len() == 1 { "" } else { "s" }
                        );
                    }
                }
            }
            Ok(if !found.is_empty() {
                1
            } else if !unchecked.is_empty() {
                4
            } else {
                0
            })
        }
    }
}

/// The system: `--system` if given, else the file's, else `swiss`. An unknown name in the file
/// is an error naming the file and its `system` field.
pub fn system_name(t: &Tournament, flag: Option<SystemKind>, file: &Path) -> Result<SystemKind> {
    match flag {
        Some(kind) => Ok(kind),
        None => match t.system.as_deref() {
            None => Ok(SystemKind::Swiss),
            Some(name) => SystemKind::parse_field(name, "system").map_err(|e| e.in_file(file)),
        },
    }
}

/// The exit code of an error: 4 when standard output was lost, 2 for bad input and failed
/// reads or writes.
fn exit_code(e: &Error) -> u8 {
    match e {
        Error::Output { .. } => 4,
        _ => 2,
    }
}

/// The library names the fields of a request (`round`, `from_round`, …); on the command line
/// they are flags, so an error about one that came from no file names the flag instead.
pub(crate) fn as_flag(e: Error) -> Error {
    const FLAGS: [(&str, &str); 18] = [
        ("round", "--round"),
        ("from_round", "--from-round"),
        ("missed_byes", "--missed-byes"),
        ("name", "--name"),
        ("title", "--title"),
        ("federation", "--fed"),
        ("fide_id", "--fide-id"),
        ("division", "--division"),
        ("kind", "--kind"),
        ("merge", "--merge"),
        ("systems", "--system"),
        ("players", "--players"),
        ("rounds", "--rounds"),
        ("runs", "--runs"),
        ("draw_rate", "--draw-rate"),
        ("threads", "--threads"),
        ("swap", "--swap"),
        ("force", "--force"),
    ];
    match e {
        Error::Input { mut at, message } if at.file.is_none() && at.line.is_none() => {
            if let Some((_, flag)) = FLAGS.iter().find(|(f, _)| at.field.as_deref() == Some(*f)) {
                at.field = Some(flag.to_string());
            }
            Error::Input { at, message }
        }
        e => e,
    }
}
