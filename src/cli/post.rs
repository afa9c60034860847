//! `optipair standings` and `optipair sheet`: what a director posts after a round.

use super::system_name;
use optipair::formats;
use optipair::report::{self, sheets, standings};
use optipair::tournament::tiebreak::{self, Tiebreak};
use optipair::tournament::Tournament;
use optipair::{Error, Result};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StandingsFormat {
    Text,
    Json,
    Html,
    Csv,
}

#[derive(clap::Args)]
pub struct StandingsArgs {
    /// Tournament file (.json, .trf or .t).
    file: PathBuf,
    /// Standings after round N (default: the last round whose results are all in).
    #[arg(long)]
    after_round: Option<u32>,
    #[arg(long, default_value = "text")]
    format: StandingsFormat,
    /// Tie-breaks in order, a comma list (bh, bh-c1, bh-c2, bh-m1, sb, prog, de, win, won,
    /// bpg, bwg, aro); default the event's `settings.tiebreaks`, else bh-c1,bh,sb.
    #[arg(long)]
    tiebreak: Option<String>,
    /// The pairing system (default: the file's `system`, else swiss).
    #[arg(long, value_parser = super::system::SystemParser)]
    system: Option<optipair::SystemKind>,
    /// The division to rank (required when the event has several).
    #[arg(long)]
    division: Option<String>,
    /// Write to FILE (atomically) instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SheetKind {
    Pairings,
    Alpha,
    Crosstable,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SheetFormat {
    Text,
    Html,
}

#[derive(clap::Args)]
pub struct SheetArgs {
    /// Tournament file (.json, .trf or .t).
    file: PathBuf,
    /// The round (default: the last paired round; for the crosstable, the last round whose
    /// results are all in).
    #[arg(long)]
    round: Option<u32>,
    #[arg(long, default_value = "pairings")]
    kind: SheetKind,
    #[arg(long, default_value = "text")]
    format: SheetFormat,
    /// Write to FILE (atomically) instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rows per printed page in HTML.
    #[arg(long, default_value_t = 40)]
    boards_per_page: usize,
    /// Tie-breaks for the crosstable (as for `standings`).
    #[arg(long)]
    tiebreak: Option<String>,
    /// The pairing system (default: the file's `system`, else swiss).
    #[arg(long, value_parser = super::system::SystemParser)]
    system: Option<optipair::SystemKind>,
    /// The division (required when the event has several).
    #[arg(long)]
    division: Option<String>,
}

/// The event, or the division asked for; an event with several divisions needs `--division`.
fn load(file: &Path, division: Option<&str>) -> Result<Tournament> {
    let full = formats::load(file)?;
    match division {
        Some(d) => full
            .named_division(d)
            .map_err(|e| super::as_flag(e).in_file(file)),
        None => {
            let divs = full.divisions();
            if divs.len() > 1 {
                let names: Vec<String> = divs.iter().flatten().cloned().collect();
                return Err(Error::field(
                    "--division",
                    format!(
                        "the event has divisions {}; choose one with --division",
                        names.join(", ")
                    ),
                )
                .in_file(file));
            }
            Ok(full)
        }
    }
}

/// `--tiebreak`, else the event's `settings.tiebreaks`, else the default.
fn tiebreaks(t: &Tournament, flag: Option<&str>, file: &Path) -> Result<Vec<Tiebreak>> {
    if let Some(list) = flag {
        return tiebreak::parse_list(list, "--tiebreak");
    }
    Ok(tiebreak::from_settings(t)
        .map_err(|e| e.in_file(file))?
        .unwrap_or_else(|| tiebreak::DEFAULT.to_vec()))
}

/// Checks `round` exists in the file's range and says so on stderr when results are missing.
fn check_after(t: &Tournament, after: u32, file: &Path) -> Result<()> {
    let last = t.last_paired_round();
    if after > last {
        return Err(Error::field(
            "--after-round",
            format!("round {after} is not paired yet (the last paired round is {last})"),
        )
        .in_file(file));
    }
    for r in 1..=after {
        let missing = t.round(r).map_or(0, |rd| {
            rd.games
                .iter()
                .filter(|g| g.result == optipair::tournament::GameResult::Pending)
                .count()
        });
        if missing > 0 {
            errln!(
                "note: round {r} has {missing} result{} missing; counted as nothing yet",
                if missing == 1 { "" } else { "s" }
            );
        }
    }
    Ok(())
}

fn emit(out: Option<&Path>, text: &str) -> Result<()> {
    match out {
        Some(p) => {
            formats::paths::check_output(p, "--out")?;
            formats::write_atomic(p, text.as_bytes())?;
            errln!("{}: written", p.display());
            Ok(())
        }
        None => {
            out!("{text}");
            Ok(())
        }
    }
}

pub fn standings(a: StandingsArgs) -> Result<u8> {
    let t = load(&a.file, a.division.as_deref())?;
    let system = system_name(&t, a.system, &a.file)?;
    let after = a
        .after_round
        .unwrap_or_else(|| report::last_complete_round(&t));
    check_after(&t, after, &a.file)?;
    let tbs = tiebreaks(&t, a.tiebreak.as_deref(), &a.file)?;
    let r = standings::build(&t, after, system, &tbs).map_err(|e| e.in_file(&a.file))?;
    let text = match a.format {
        StandingsFormat::Text => r.text(),
        StandingsFormat::Json => r.json(),
        StandingsFormat::Html => r.html(usize::MAX),
        StandingsFormat::Csv => r.csv(),
    };
    emit(a.out.as_deref(), &text)?;
    Ok(0)
}

pub fn sheet(a: SheetArgs) -> Result<u8> {
    let t = load(&a.file, a.division.as_deref())?;
    let system = system_name(&t, a.system, &a.file)?;
    if a.boards_per_page == 0 {
        return Err(Error::field("--boards-per-page", "must be 1 or more"));
    }
    let sheet = match a.kind {
        SheetKind::Crosstable => {
            let after = a.round.unwrap_or_else(|| report::last_complete_round(&t));
            check_after(&t, after, &a.file)?;
            let tbs = tiebreaks(&t, a.tiebreak.as_deref(), &a.file)?;
            sheets::crosstable(&t, after, system, &tbs).map_err(|e| e.in_file(&a.file))?
        }
        kind => {
            let last = t.last_paired_round();
            let n = a.round.unwrap_or(last);
            let round = t.round(n).filter(|r| r.is_paired()).ok_or_else(|| {
                Error::field(
                    "--round",
                    if last == 0 {
                        "no round is paired yet".to_string()
                    } else {
                        format!("round {n} is not paired (the last paired round is {last})")
                    },
                )
                .in_file(&a.file)
            })?;
            if kind == SheetKind::Pairings {
                sheets::pairings(&t, round, system)
            } else {
                sheets::alpha(&t, round, system)
            }
        }
    };
    let text = match a.format {
        SheetFormat::Text => sheet.text(),
        SheetFormat::Html => sheet.html(a.boards_per_page),
    };
    emit(a.out.as_deref(), &text)?;
    Ok(0)
}
