//! The report as a table an organiser can read.

use super::model::{Model, Report};

/// A share as a percentage: `12.5%`.
pub(super) fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The report as a table an organiser can read.
pub fn text(r: &Report, timing: bool) -> String {
    use std::fmt::Write;
    let c = &r.config;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} players, {} rounds, {} runs per system{}, seed {}",
        c.players,
        c.rounds,
        c.runs,
        if c.first_run > 0 {
            format!(
                " (runs {}–{})",
                c.first_run,
                c.first_run + c.runs.max(1) - 1
            )
        } else {
            String::new()
        },
        c.seed
    );
    let _ = writeln!(
        s,
        "{:<16} {:>8} {:>8} {:>17} {:>9} {:>8} {:>8} {:>9} {:>10} {:>9} {:>9}{}",
        "system",
        "model",
        ">=2 100%",
        "95% interval",
        "mean gap",
        "repeats",
        "imbal.",
        "max imb.",
        "unproved",
        "verifier",
        "unpaired",
        if timing { "   s/round    max s" } else { "" }
    );
    for m in &r.summaries {
        let model = match m.model {
            Model::Elo { .. } => "elo",
            Model::Scrabble => "scrabble",
        };
        let _ = writeln!(
            s,
            "{:<16} {:>8} {:>8} {:>17} {:>9.1} {:>8.3} {:>8.3} {:>9} {:>10} {:>9} {:>9}{}",
            m.system,
            model,
            pct(m.joint_perfect_share),
            format!(
                "{}–{}",
                pct(m.joint_perfect_ci.0),
                pct(m.joint_perfect_ci.1)
            ),
            m.gap_mean,
            m.repeats_mean,
            m.imbalance_mean,
            m.imbalance_max,
            m.not_proved,
            m.violations,
            m.unpaired,
            if timing {
                format!(" {:>10.4} {:>8.3}", m.seconds_mean, m.seconds_max)
            } else {
                String::new()
            }
        );
    }
    for m in r.summaries.iter().filter(|m| m.refused > 0) {
        let _ = writeln!(
            s,
            "{}: {} of {} runs refused and left out (first: {})",
            m.system,
            m.refused,
            m.refused + m.runs,
            m.refused_first.as_deref().unwrap_or("")
        );
    }
    for m in &r.summaries {
        for f in &m.totals.findings {
            let _ = writeln!(s, "{} verifier: {f}", m.system);
        }
        if m.violations > m.totals.findings.len() {
            let _ = writeln!(
                s,
                "{} verifier: … {} more finding(s)",
                m.system,
                m.violations - m.totals.findings.len()
            );
        }
    }
    let _ = writeln!(s, "Mean rating gap of the games, by round:");
    for m in &r.summaries {
        let per: Vec<String> = m.gap_by_round.iter().map(|g| format!("{g:.0}")).collect();
        let _ = writeln!(s, "  {:<16} {}", m.system, per.join("  "));
    }
    for line in [
        ">=2 100%: share of events with two or more perfect scores (95% Wilson interval);",
        "mean gap: mean |rating difference| of a game; repeats: games per event between players",
        "who had met; imbal.: mean |whites - blacks| (first - second) per player at the end;",
        "unproved: rounds not proved optimal; verifier: findings of the independent verifier;",
        "unpaired: players left without a game or bye (the last three summed over the runs).",
    ] {
        let _ = writeln!(s, "{line}");
    }
    s
}
