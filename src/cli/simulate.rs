//! `optipair simulate`: whole events per system, with a progress bar on standard error.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use optipair::simulate::{self, Config, Model};
use optipair::{formats, Result};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct SimulateArgs {
    /// A pairing system to simulate (repeat for several).
    #[arg(long = "system", required_unless_present = "merge", value_parser = super::system::SystemParser)]
    systems: Vec<optipair::SystemKind>,
    #[arg(long, required_unless_present = "merge")]
    players: Option<usize>,
    #[arg(long, required_unless_present = "merge")]
    rounds: Option<u32>,
    /// Events per system.
    #[arg(long, required_unless_present = "merge")]
    runs: Option<usize>,
    /// The index of the first run (default 0): run a long simulation in parts, each
    /// `--format json`, and combine them with `--merge`.
    #[arg(long, default_value_t = 0)]
    first_run: usize,
    /// Combine the JSON reports of parts of one simulation (runs that follow on from each
    /// other) into the report of the whole, instead of simulating.
    #[arg(long, num_args = 1.., conflicts_with_all = ["systems", "players", "rounds", "runs"])]
    merge: Vec<PathBuf>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Result model for every system (default: scrabble for systems whose games keep scores,
    /// elo otherwise).
    #[arg(long)]
    model: Option<ModelArg>,
    /// Draw rate between equal players (elo model).
    #[arg(long, default_value_t = 0.3)]
    draw_rate: f64,
    /// Worker threads (default: the cores available).
    #[arg(long)]
    threads: Option<usize>,
    /// Seconds for each round's exact solve; past it the greedy pass pairs the round.
    #[arg(long, value_parser = super::seconds)]
    time_limit: Option<f64>,
    #[arg(long, default_value = "text")]
    format: SimFormat,
    /// Write an SVG chart (shares with intervals; rating gap by round).
    #[arg(long)]
    chart: Option<PathBuf>,
    /// A system setting for every simulated event, `KEY=VALUE` (VALUE as JSON if it parses,
    /// else a string), e.g. `--setting prog.a_min=1930`; repeatable.
    #[arg(long = "setting")]
    settings: Vec<String>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Leave solve seconds out of the output (then it is byte-identical for the same seed).
    #[arg(long)]
    no_timing: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelArg {
    Elo,
    Scrabble,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SimFormat {
    Text,
    Json,
}

fn parse_settings(items: &[String]) -> Result<BTreeMap<String, serde_json::Value>> {
    let mut out = BTreeMap::new();
    for item in items {
        let Some((k, v)) = item.split_once('=').filter(|(k, _)| !k.trim().is_empty()) else {
            return Err(optipair::Error::field(
                "--setting",
                format!("'{item}': expected KEY=VALUE"),
            ));
        };
        let value = serde_json::from_str(v.trim())
            .unwrap_or_else(|_| serde_json::Value::String(v.trim().to_string()));
        out.insert(k.trim().to_string(), value);
    }
    Ok(out)
}

pub fn run(a: SimulateArgs) -> Result<u8> {
    if let Some(p) = &a.chart {
        if p.extension().and_then(|e| e.to_str()) != Some("svg") {
            return Err(optipair::Error::field(
                "--chart",
                format!("{}: the chart is SVG; name it .svg", p.display()),
            ));
        }
    }
    if !a.merge.is_empty() {
        let mut parts = Vec::new();
        for p in &a.merge {
            parts.push((p.display().to_string(), formats::read_text(p)?));
        }
        let report = simulate::merge(&parts).map_err(super::as_flag)?;
        let timing = report.summaries.iter().all(|s| s.totals.seconds.is_some());
        return output(&a, &report, timing);
    }
    let cfg = Config {
        systems: a.systems.clone(),
        players: a.players.unwrap_or(0),
        rounds: a.rounds.unwrap_or(0),
        runs: a.runs.unwrap_or(0),
        first_run: a.first_run,
        seed: a.seed,
        model: a.model.map(|m| match m {
            ModelArg::Elo => Model::Elo {
                draw_rate: a.draw_rate,
            },
            ModelArg::Scrabble => Model::Scrabble,
        }),
        draw_rate: a.draw_rate,
        threads: a.threads.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        }),
        time_limit: a.time_limit,
        settings: parse_settings(&a.settings)?,
    };
    simulate::validate(&cfg).map_err(super::as_flag)?;
    // On standard error, drawn only on a terminal (indicatif hides it otherwise), so that
    // logs and pipes get none.
    let events = (cfg.systems.len() * cfg.runs) as u64;
    let bar = if a.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(events), ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("[{bar:30}] {pos}/{len} events  {elapsed}  eta {eta}")
                .expect("a valid template")
                .progress_chars("#>-"),
        )
    };
    let mut report = simulate::run(&cfg, &|done, _| bar.set_position(done as u64))?;
    bar.finish();
    let timing = !a.no_timing;
    if !timing {
        report.without_timing();
    }
    output(&a, &report, timing)
}

fn output(a: &SimulateArgs, report: &simulate::Report, timing: bool) -> Result<u8> {
    if let Some(p) = &a.chart {
        formats::paths::check_output(p, "--chart")?;
        formats::write_atomic(p, simulate::svg(report).as_bytes())?;
    }
    match a.format {
        SimFormat::Text => out!("{}", simulate::text(report, timing)),
        SimFormat::Json => outln!("{}", simulate::json(report)),
    }
    Ok(0)
}
