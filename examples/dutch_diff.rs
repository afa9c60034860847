//! Replays a tournament round by round against the FIDE Dutch 2025 rules as the independent
//! oracle (`optipair::verify::dutch`) reads them: for each round k, the round as recorded in
//! the file is compared with the pairing the engine gives from the rounds before it, and the
//! first difference is named bracket by bracket (criterion and article, or the Dutch order of
//! transpositions and exchanges).
//!
//!   cargo run --release --example dutch_diff -- FILE.trf [--round K] [--oracle] [--criteria]
//!
//! `--oracle` compares the recorded round with the oracle's brute-force Dutch pairing instead
//! of the engine's (small fields only). `--criteria` prints each bracket's criteria of the
//! recorded round. A file without rounds planned (the reference files have no XXR) is taken
//! to end at its last recorded round, so that topscorers apply there.

use optipair::solve::Options;
use optipair::tournament::ByeKind;
use optipair::verify::dutch::{self, Comparison, Pairing};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let mut only = None;
    let mut oracle = false;
    let mut show_criteria = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--round" => {
                i += 1;
                match args.get(i).and_then(|s| s.parse::<u32>().ok()) {
                    Some(k) => only = Some(k),
                    None => {
                        eprintln!("--round needs a round number");
                        return ExitCode::from(2);
                    }
                }
            }
            "--oracle" => oracle = true,
            "--criteria" => show_criteria = true,
            a if file.is_none() && !a.starts_with("--") => file = Some(a.to_string()),
            a => {
                eprintln!("unexpected argument {a}\nusage: dutch_diff FILE.trf [--round K] [--oracle] [--criteria]");
                return ExitCode::from(2);
            }
        }
        i += 1;
    }
    let Some(file) = file else {
        eprintln!("usage: dutch_diff FILE.trf [--round K] [--oracle] [--criteria]");
        return ExitCode::from(2);
    };
    let mut t = match optipair::formats::load(std::path::Path::new(&file)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(2);
        }
    };
    if t.rounds_planned.is_none() {
        t.rounds_planned = t
            .rounds
            .iter()
            .filter(|r| r.is_paired())
            .map(|r| r.number)
            .max();
    }
    let mut rounds: Vec<u32> = t
        .rounds
        .iter()
        .filter(|r| r.is_paired())
        .map(|r| r.number)
        .collect();
    rounds.sort_unstable();
    if let Some(k) = only {
        rounds.retain(|&r| r == k);
        if rounds.is_empty() {
            eprintln!("round {k} is not recorded in {file}");
            return ExitCode::from(2);
        }
    }
    let (mut same, mut total) = (0, 0);
    for k in rounds {
        let Some(recorded) = Pairing::recorded(&t, k) else {
            continue;
        };
        let before = t.before_round(k);
        let other = if oracle {
            match dutch::brute_force(&before, k) {
                Some(p) => p,
                None => {
                    println!("round {k}: too large for the brute force");
                    continue;
                }
            }
        } else {
            match optipair::engine::pair_round(
                &before,
                k,
                optipair::SystemKind::Swiss,
                &Options::default(),
            ) {
                Ok(p) => Pairing {
                    games: p.round.games.iter().map(|g| (g.white, g.black)).collect(),
                    bye: p
                        .round
                        .byes
                        .iter()
                        .find(|b| b.kind == ByeKind::PairingAllocated)
                        .map(|b| b.player),
                },
                Err(e) => {
                    println!("round {k}: the engine gave no pairing: {e}");
                    total += 1;
                    continue;
                }
            }
        };
        total += 1;
        let who = if oracle { "oracle" } else { "engine" };
        let c = dutch::compare(&before, k, &recorded, &other);
        if c == Comparison::Identical {
            same += 1;
            println!("round {k}: identical");
        } else {
            println!("round {k}: recorded v {who}: {c}");
            println!("  recorded: {}", recorded.text());
            println!("  {who}:   {}", other.text());
        }
        if show_criteria {
            match dutch::criteria(&before, k, &recorded) {
                Ok(reports) => {
                    for r in reports {
                        let vals: Vec<String> = r
                            .criteria
                            .iter()
                            .filter(|c| !c.value.is_empty() && c.value.iter().any(|&v| v != 0))
                            .map(|c| {
                                format!(
                                    "{}={:?}",
                                    c.article.trim_start_matches("FIDE Dutch 2025 "),
                                    c.value
                                )
                            })
                            .collect();
                        println!(
                            "  bracket {} (score {}): MDPs {:?} residents {:?} downfloaters {:?} {}{}",
                            r.bracket,
                            dutch::state::show(r.score),
                            r.mdps,
                            r.residents,
                            r.downfloaters,
                            vals.join(" "),
                            r.violations
                                .iter()
                                .map(|v| format!(" [{}: {}]", v.article, v.message))
                                .collect::<String>()
                        );
                    }
                }
                Err(e) => println!(
                    "  not a pairing of the round: {} ({})",
                    e.message, e.article
                ),
            }
        }
    }
    println!("{same} of {total} rounds identical");
    ExitCode::SUCCESS
}
