//! `optipair generate` and `optipair bench`.

use optipair::engine;
use optipair::generate::{self, Spec};
use optipair::solve::{self, Certificate, Options, Status};
use optipair::tournament::Tournament;
use optipair::{formats, systems, Error, Result, SystemKind};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct GenerateArgs {
    #[arg(long)]
    players: usize,
    /// Rounds planned.
    #[arg(long)]
    rounds: u32,
    /// Rounds paired and played (results drawn from the rating model, see `generate` docs).
    #[arg(long)]
    played: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw rate between equal players (0–1).
    #[arg(long, default_value_t = 0.3)]
    draw_rate: f64,
    #[arg(long, default_value = "swiss", value_parser = super::system::SystemParser)]
    system: optipair::SystemKind,
    /// Pair the history with the greedy pass (fast; legal but not optimal).
    #[arg(long)]
    greedy_history: bool,
    /// Output file (.json or .trf).
    #[arg(long)]
    out: PathBuf,
}

pub fn generate(a: GenerateArgs) -> Result<u8> {
    check_spec(a.players, a.rounds, a.played, a.draw_rate)?;
    formats::kind_of(&a.out)?;
    let spec = Spec {
        players: a.players,
        rounds: a.rounds,
        played: a.played,
        seed: a.seed,
        draw_rate: a.draw_rate,
        system: a.system,
    };
    let opts = Options {
        greedy_only: a.greedy_history,
        ..super::options()
    };
    formats::paths::check_output(&a.out, "--out")?;
    if formats::kind_of(&a.out)? == formats::Kind::Tsh {
        formats::paths::check_output(&formats::tsh::sidecar(&a.out), "--out")?;
    }
    let t = generate::field(&spec, &opts)?;
    formats::save(&a.out, &t)?;
    // PROG's groups were set from this field's ratings; TRF has no record for them.
    if formats::kind_of(&a.out)? == formats::Kind::Trf {
        if let (Some(a_min), Some(c_below)) =
            (t.settings.get("prog.a_min"), t.settings.get("prog.c_below"))
        {
            errln!(
                "note: PROG groups set from the field's ratings (prog.a_min {a_min}, \
                 prog.c_below {c_below}); a TRF file cannot hold them, so `pair` reads the \
                 defaults (2000 / 1600): write .json to keep them"
            );
        }
    }
    // A `.t` file cannot hold the rounds planned or the settings: its sidecar does, so that
    // the event it made can be paired.
    if formats::kind_of(&a.out)? == formats::Kind::Tsh {
        formats::tsh::write_sidecar(&a.out, &t)?;
        outln!("{}", formats::tsh::sidecar(&a.out).display());
    }
    outln!(
        "{}: {} players, {} of {} rounds played (seed {})",
        a.out.display(),
        a.players,
        a.played,
        a.rounds,
        a.seed
    );
    Ok(0)
}

fn check_spec(players: usize, rounds: u32, played: u32, draw: f64) -> Result<()> {
    if players < 2 {
        return Err(Error::field("--players", "at least 2 players"));
    }
    if rounds == 0 || played > rounds {
        return Err(Error::field(
            "--played",
            format!("rounds played ({played}) must be between 0 and the rounds planned ({rounds}), which must be 1 or more"),
        ));
    }
    if !(0.0..=1.0).contains(&draw) {
        return Err(Error::field("--draw-rate", "a probability between 0 and 1"));
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Field sizes, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "100,1000")]
    players: Vec<usize>,
    /// The round to pair (the rounds before it are generated with the greedy pass).
    #[arg(long, default_value_t = 6)]
    round: u32,
    /// Rounds planned.
    #[arg(long, default_value_t = 9)]
    rounds: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value = "swiss", value_parser = super::system::SystemParser)]
    system: optipair::SystemKind,
    /// Also solve the system's tier model with every allowed pair in the program (the plain
    /// formulation).
    #[arg(long)]
    plain: bool,
    /// Seconds for each round, as `pair --time-limit` (the same default).
    #[arg(long, value_parser = super::seconds, default_value_t = super::DEFAULT_TIME_LIMIT)]
    time_limit: f64,
    /// Write the rows as CSV too.
    #[arg(long)]
    csv: Option<PathBuf>,
}

/// Peak resident memory of this process so far (Linux `VmHWM`), in MiB.
fn peak_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// One timed pairing of the round.
struct Row {
    status: Status,
    seconds: f64,
    certificate: Certificate,
    /// What was proved, in an organiser's words.
    proved: String,
}

/// `bench`: for each size a generated field, its round paired exactly as `pair` pairs it
/// (`engine::pair_round`: for the Swiss family the FIDE Dutch procedure, for the others their
/// tier model, with the fallback and the verifier), and with `--plain` the tier model listing
/// every allowed pair.
pub fn bench(a: BenchArgs) -> Result<u8> {
    let sys = systems::model(a.system, &optipair::solve::PROGRAMS);
    let mut rows = vec![
        "players,method,status,seconds,peak_mib,all_pairs,candidates,columns,solves,gap,proved"
            .to_string(),
    ];
    outln!(
        "{:>7} {:>6} {:>9} {:>9} {:>9}  what was proved",
        "players",
        "method",
        "status",
        "seconds",
        "peak MiB",
    );
    for &n in &a.players {
        check_spec(n, a.rounds, a.round.saturating_sub(1), 0.3)?;
        let spec = Spec {
            players: n,
            rounds: a.rounds,
            played: a.round - 1,
            seed: a.seed,
            draw_rate: 0.3,
            system: a.system,
        };
        let t = generate::field(
            &spec,
            &Options {
                greedy_only: true,
                ..super::options()
            },
        )?;
        let mut methods = vec!["pair"];
        if a.plain {
            methods.push("plain");
        }
        for name in methods {
            let row = match name {
                "pair" => as_pair(&t, a.round, a.system, a.time_limit)?,
                _ => plain(&*sys, &t, a.round, a.time_limit)?,
            };
            let c = &row.certificate;
            let peak = peak_mib().map(|m| format!("{m:.0}")).unwrap_or_default();
            let status = format!("{:?}", row.status).to_lowercase();
            outln!(
                "{n:>7} {name:>6} {status:>9} {:>9.3} {peak:>9}  {}",
                row.seconds,
                row.proved
            );
            rows.push(format!(
                "{n},{name},{:?},{:.3},{peak},{},{},{},{},{},\"{}\"",
                row.status,
                row.seconds,
                c.model.all_pairs,
                c.model.candidates,
                c.model.columns,
                c.model.solves,
                c.gap,
                row.proved.replace('"', "'")
            ));
        }
    }
    if let Some(path) = &a.csv {
        formats::paths::check_output(path, "--csv")?;
        formats::write_atomic(path, (rows.join("\n") + "\n").as_bytes())?;
    }
    Ok(0)
}

/// The round as `pair` pairs it, timed from the engine's start to the verifier's end, with a
/// progress line on a terminal.
fn as_pair(t: &Tournament, round: u32, system: SystemKind, limit: f64) -> Result<Row> {
    let (progress, _line) = super::pair::progress_line(round, std::time::Duration::ZERO);
    let opts = Options {
        time_limit: Some(limit),
        progress,
        ..super::options()
    };
    let start = Instant::now();
    let p = engine::pair_round(t, round, system, &opts).map_err(super::as_flag)?;
    let seconds = start.elapsed().as_secs_f64();
    drop(_line);
    let c = p.pairing.certificate;
    let how = match (p.dutch, c.status) {
        (true, _) => "FIDE Dutch procedure",
        (false, Status::Fallback) => "fallback",
        (false, _) => "tier model",
    };
    let proved = match p.violations.len() {
        0 => format!("{how}: {}", in_words(&c)),
        k => format!("{how}: rejected by the verifier: {k} broken rule(s)"),
    };
    Ok(Row {
        status: c.status,
        seconds,
        proved,
        certificate: c,
    })
}

/// The system's tier model with every allowed pair listed from the start (no verifier).
fn plain(sys: &dyn systems::System, t: &Tournament, round: u32, limit: f64) -> Result<Row> {
    let opts = Options {
        full_candidates: true,
        time_limit: Some(limit),
        ..super::options()
    };
    let start = Instant::now();
    let base = t.before_round(round);
    let p = solve::solve(&sys.spec(&base, round)?, &opts);
    let seconds = start.elapsed().as_secs_f64();
    let c = p.certificate;
    Ok(Row {
        status: c.status,
        seconds,
        proved: format!("tier model: {}", in_words(&c)),
        certificate: c,
    })
}

/// What a certificate proved, as an organiser reads it: "every criterion proved optimal;
/// 12,400 candidate pairs of 50 million".
pub fn in_words(c: &Certificate) -> String {
    let proved = c.tiers.iter().filter(|t| t.proved).count();
    let what = match c.status {
        Status::Optimal if proved == c.tiers.len() => "every criterion proved optimal".to_string(),
        Status::Optimal | Status::Feasible => format!(
            "{proved} of {} criteria proved optimal (the time limit passed first)",
            c.tiers.len()
        ),
        Status::Fallback => {
            "a legal pairing, not proved optimal (the time limit passed first)".to_string()
        }
        Status::Rejected => "rejected by the verifier".to_string(),
        Status::Unverified => format!(
            "{proved} of {} criteria proved optimal over the model, the pairing not called optimal",
            c.tiers.len()
        ),
    };
    // The engine's words when the verifier ran out of time.
    let unverified = if c.summary.contains("not fully verified") {
        "; not fully verified within the time limit"
    } else {
        ""
    };
    format!(
        "{what}; {} candidate pairs of {}{unverified}",
        thousands(c.model.candidates as u64),
        count_in_words(c.model.all_pairs)
    )
}

/// `12,400`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `50 million`, `1.2 million`, or the number itself below a million.
fn count_in_words(n: u64) -> String {
    if n < 1_000_000 {
        return thousands(n);
    }
    let m = n as f64 / 1e6;
    if m >= 10.0 {
        format!("{m:.0} million")
    } else {
        format!("{m:.1} million")
    }
}
