//! `optipair explain`: one player's pairing in the rules' words, or the cost of a swap the
//! arbiter proposes. Exit 0, or 2 for bad input.

use super::system_name;
use optipair::explain;
use optipair::solve::Options;
use optipair::tournament::edit::find_player;
use optipair::{formats, Error, Result};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ExplainArgs {
    /// Tournament file (format by extension).
    file: PathBuf,
    /// The round whose pairing is explained (as the engine pairs it from the rounds before).
    #[arg(long)]
    round: u32,
    /// The player (pairing number or name).
    #[arg(required_unless_present = "swap")]
    player: Option<String>,
    /// Two players whose opponents would be swapped: allowed, and at what cost.
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with = "player")]
    swap: Option<Vec<String>>,
    /// The pairing system (default: the file's `system`, else swiss).
    #[arg(long, value_parser = super::system::SystemParser)]
    system: Option<optipair::SystemKind>,
    /// In an event with divisions, the division.
    #[arg(long)]
    division: Option<String>,
    #[arg(long, default_value = "text")]
    format: ExplainFormat,
    /// Seconds for each exact solve (0 to a week).
    #[arg(long, value_parser = super::seconds, default_value_t = super::DEFAULT_TIME_LIMIT)]
    time_limit: f64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainFormat {
    Text,
    Json,
    Html,
}

pub fn run(a: ExplainArgs) -> Result<u8> {
    let mut t = formats::load(&a.file)?;
    // A player typed as tsh numbers him (`b3`) names his division.
    let named = a
        .player
        .as_deref()
        .or(a.swap.as_ref().map(|s| s[0].as_str()));
    let division = a.division.clone().or_else(|| {
        let id = find_player(&t, named?).ok()?;
        (t.divisions().len() > 1).then(|| t.player(id)?.division.clone())?
    });
    if let Some(d) = &division {
        t = t
            .named_division(d)
            .map_err(|e| super::as_flag(e).in_file(&a.file))?;
    }
    let t = t.by_numbers();
    let system = system_name(&t, a.system, &a.file)?;
    let opts = Options {
        time_limit: Some(a.time_limit),
        ..super::options()
    };
    let out = if let Some(pair) = &a.swap {
        let (x, y) = (find_player(&t, &pair[0])?, find_player(&t, &pair[1])?);
        let w = explain::swap(&t, a.round, system, x, y, &opts)
            .map_err(|e| super::as_flag(e).in_file(&a.file))?;
        match a.format {
            ExplainFormat::Text => explain::swap_text(&w, &t),
            ExplainFormat::Json => json(&w)?,
            ExplainFormat::Html => explain::swap_html(&w, &t),
        }
    } else {
        let who = a.player.as_deref().unwrap_or_default();
        let p = find_player(&t, who)?;
        let e = explain::explain(&t, a.round, system, p, &opts)
            .map_err(|e| super::as_flag(e).in_file(&a.file))?;
        match a.format {
            ExplainFormat::Text => explain::text(&e, &t),
            ExplainFormat::Json => json(&e)?,
            ExplainFormat::Html => explain::html(&e, &t),
        }
    };
    out!("{out}");
    Ok(0)
}

fn json<T: serde::Serialize>(v: &T) -> Result<String> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| Error::field("--format", e.to_string()))
}
