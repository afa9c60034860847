//! `optipair generate` and `optipair bench`.

use optipair::generate::{self, Spec};
use optipair::solve::{self, Options};
use optipair::{formats, systems, Error, Result};
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
    /// Also solve with every allowed pair in the program (the plain formulation).
    #[arg(long)]
    plain: bool,
    #[arg(long, value_parser = super::seconds)]
    time_limit: Option<f64>,
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

pub fn bench(a: BenchArgs) -> Result<u8> {
    let sys = systems::model(a.system, &optipair::solve::PROGRAMS);
    let mut rows = vec![
        "players,method,status,seconds,peak_mib,all_pairs,candidates,columns,solves,gap"
            .to_string(),
    ];
    outln!(
        "{:>7} {:>6} {:>9} {:>9} {:>9} {:>12} {:>11} {:>9} {:>6} {:>8}  summary",
        "players",
        "method",
        "status",
        "seconds",
        "peak MiB",
        "all pairs",
        "candidates",
        "columns",
        "solves",
        "gap"
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
        let mut methods = vec![("sparse", false)];
        if a.plain {
            methods.push(("plain", true));
        }
        for (name, full) in methods {
            let start = Instant::now();
            let opts = Options {
                full_candidates: full,
                time_limit: a.time_limit,
                ..super::options()
            };
            // As `pair` does: a large field's sparse specification if the system has one; the
            // plain method lists every allowed pair.
            let sparse = if full {
                None
            } else {
                sys.sparse_spec(&t, a.round, opts.sparse_from)?
            };
            let p = match sparse {
                Some(s) => solve::solve_sparse(&s, &opts),
                None => solve::solve(&sys.spec(&t, a.round)?, &opts),
            };
            let secs = start.elapsed().as_secs_f64();
            let c = &p.certificate;
            let peak = peak_mib().map(|m| format!("{m:.0}")).unwrap_or_default();
            outln!(
                "{n:>7} {name:>6} {:>9} {secs:>9.3} {peak:>9} {:>12} {:>11} {:>9} {:>6} {:>8.1e}  {}",
                format!("{:?}", c.status).to_lowercase(),
                c.model.all_pairs,
                c.model.candidates,
                c.model.columns,
                c.model.solves,
                c.gap,
                c.summary
            );
            rows.push(format!(
                "{n},{name},{:?},{secs:.3},{peak},{},{},{},{},{}",
                c.status,
                c.model.all_pairs,
                c.model.candidates,
                c.model.columns,
                c.model.solves,
                c.gap
            ));
        }
    }
    if let Some(path) = &a.csv {
        formats::paths::check_output(path, "--csv")?;
        formats::write_atomic(path, (rows.join("\n") + "\n").as_bytes())?;
    }
    Ok(0)
}
