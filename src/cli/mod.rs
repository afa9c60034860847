//! Commands: `new`, `record`, `pair`, `check`, `generate`, `bench`, `simulate`, `audit`. Exit codes: 0 success (or a clean check), 1 a
//! check found violations, 2 bad input; `audit`: 0 legal and optimal, 1 legal but not optimal,
//! 3 breaks a rule, 2 bad input.

mod audit;
mod bench;
mod pair;
mod post;
mod simulate;

use clap::{Parser, Subcommand};
use optipair::formats;
use optipair::tournament::Tournament;
use optipair::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "optipair",
    version,
    about = "Provably optimal tournament pairings"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start an event from a CSV player list (`name,rating[,id]`).
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
        #[arg(long, default_value = "swiss")]
        system: String,
    },
    /// Record results of a round from `board result` or `white black result` lines.
    Record {
        file: PathBuf,
        #[arg(long)]
        round: u32,
        /// File with the result lines (standard input if absent).
        #[arg(long)]
        results: Option<PathBuf>,
    },
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
    /// Standings after a round: score and C.07 tie-breaks (Scrabble: wins, then spread).
    Standings(post::StandingsArgs),
    /// Sheets to post: the pairing sheet, the alphabetical list, the crosstable (text or HTML).
    Sheet(post::SheetArgs),
    /// Verify the recorded pairings of every round (or round N) against the rules.
    Check {
        file: PathBuf,
        #[arg(long)]
        round: Option<u32>,
        #[arg(long)]
        system: Option<String>,
        /// Output format.
        #[arg(long, default_value = "text")]
        format: OutFormat,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutFormat {
    Text,
    Json,
    Trf,
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match dispatch(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code() as u8)
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
            optipair::systems::by_name(&system)?;
            let text = formats::read_text(&players)?;
            let list = formats::csv::parse_players(&text).map_err(|e| e.in_file(&players))?;
            if out.exists() {
                return Err(Error::input("file exists already; not overwriting").in_file(&out));
            }
            let mut t = Tournament::new(name, list);
            t.rounds_planned = rounds;
            t.system = Some(system);
            formats::save(&out, &t)?;
            println!("{}: {} players", out.display(), t.players.len());
            Ok(0)
        }
        Command::Record {
            file,
            round,
            results,
        } => {
            let mut t = formats::load(&file)?;
            let (text, src) = match &results {
                Some(p) => (formats::read_text(p)?, p.clone()),
                None => {
                    let mut s = String::new();
                    std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
                        .map_err(|e| Error::io(Path::new("<stdin>"), e))?;
                    (s, PathBuf::from("<stdin>"))
                }
            };
            let n = formats::results::apply(&mut t, round, &text).map_err(|e| e.in_file(&src))?;
            formats::save(&file, &t)?;
            println!("{}: {n} results recorded in round {round}", file.display());
            Ok(0)
        }
        Command::Pair(args) => pair::run(args),
        Command::Generate(args) => bench::generate(args),
        Command::Bench(args) => bench::bench(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Standings(args) => post::standings(args),
        Command::Sheet(args) => post::sheet(args),
        Command::Check {
            file,
            round,
            system,
            format,
        } => {
            let t = formats::load(&file)?;
            let system = system_name(&t, system.as_deref());
            let found = optipair::verify::check(&t, round, &system)?;
            match format {
                OutFormat::Json => println!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "system": system,
                        "violations": found,
                    }))
                    .expect("json")
                ),
                _ => {
                    for v in &found {
                        println!("{}", v.message);
                    }
                    let rounds = match round {
                        Some(r) => format!("round {r}"),
                        None => "every round".to_string(),
                    };
                    if found.is_empty() {
                        println!("{}: {rounds} clean under {system}", file.display());
                    } else {
                        println!(
                            "{}: {} violation{} under {system}",
                            file.display(),
                            found.len(),
                            if found.len() == 1 { "" } else { "s" }
                        );
                    }
                }
            }
            Ok(if found.is_empty() { 0 } else { 1 })
        }
    }
}

/// The system: `--system` if given, else the file's, else `swiss`.
pub fn system_name(t: &Tournament, flag: Option<&str>) -> String {
    flag.map(str::to_string)
        .or_else(|| t.system.clone())
        .unwrap_or_else(|| "swiss".to_string())
}
