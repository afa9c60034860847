//! `optipair audit`: judge a pairing made elsewhere against the rules and the proven optimum.
//! Exit codes: 0 legal and optimal, 1 legal but not optimal (or optimality not proved),
//! 3 breaks a rule, 2 bad input.

use super::system_name;
use optipair::audit::{self, Given};
use optipair::solve::Options;
use optipair::{formats, Result};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct AuditArgs {
    /// Tournament file (format by extension).
    file: PathBuf,
    /// The round to audit.
    #[arg(long)]
    round: u32,
    /// The pairing system (default: the file's `system`, else swiss).
    #[arg(long, value_parser = super::system::SystemParser)]
    system: Option<optipair::SystemKind>,
    /// In an event with divisions, the division to audit (each is paired on its own).
    #[arg(long)]
    division: Option<String>,
    /// A pairings file to audit instead of the round recorded in FILE: lines `WHITE BLACK`
    /// and `bye PLAYER` (pairing numbers), `#` comments.
    #[arg(long)]
    pairing: Option<PathBuf>,
    #[arg(long, default_value = "text")]
    format: AuditFormat,
    /// Write the report to this file (atomically) instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Seconds for the exact solve of the optimum (0 to a week).
    #[arg(long, value_parser = super::seconds, default_value_t = super::DEFAULT_TIME_LIMIT)]
    time_limit: f64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AuditFormat {
    Text,
    Json,
    Html,
}

pub fn run(a: AuditArgs) -> Result<u8> {
    let mut t = formats::load(&a.file)?;
    if let Some(d) = &a.division {
        t = t
            .named_division(d)
            .map_err(|e| super::as_flag(e).in_file(&a.file))?;
    }
    // The report names players by id: by pairing number, they are the sheets' (and a
    // pairings file's).
    let t = t.by_numbers();
    let system = system_name(&t, a.system, &a.file)?;
    let given: Given = match &a.pairing {
        Some(p) => {
            let text = formats::read_text(p)?;
            audit::parse_pairings(&text, &t, a.round).map_err(|e| e.in_file(p))?
        }
        None => audit::recorded(&t, a.round).map_err(|e| pairing_hint(e).in_file(&a.file))?,
    };
    // Refused before the solve: the report must not replace an input or a special file.
    if let Some(out) = &a.out {
        formats::paths::check_output(out, "--out")?;
    }
    let opts = Options {
        time_limit: Some(a.time_limit),
        ..super::options()
    };
    let report = audit::audit(&t, a.round, system, &given, &opts)
        .map_err(|e| super::as_flag(e).in_file(&a.file))?;
    let code = verdict_code(report.verdict);
    let out = match a.format {
        AuditFormat::Text => audit::text(&report, &t),
        AuditFormat::Json => audit::json(&report, &[("exit_code", code.into())]) + "\n",
        AuditFormat::Html => audit::html(&report, &t, Some(&format!("exit code {code}"))),
    };
    match &a.out {
        Some(p) => formats::write_atomic(p, out.as_bytes())?,
        None => out!("{out}"),
    }
    Ok(code)
}

/// The exit status of an audit: 0 optimal, 1 not optimal or unproved, 3 breaks a rule.
fn verdict_code(v: audit::Verdict) -> u8 {
    match v {
        audit::Verdict::Optimal => 0,
        audit::Verdict::NotOptimal | audit::Verdict::Unproved => 1,
        audit::Verdict::BreaksRule => 3,
    }
}

/// A round with no pairing recorded: the option that gives one.
fn pairing_hint(e: optipair::Error) -> optipair::Error {
    match super::as_flag(e) {
        optipair::Error::Input { at, message } => optipair::Error::Input {
            at,
            message: format!("{message} (--pairing FILE)"),
        },
        e => e,
    }
}
