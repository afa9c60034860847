//! The audit as text.

use super::model::{Audit, Board};
use super::words::{dutch_heading, finding, marks, name, status_words, verdict_words};
use crate::tournament::{Standings, Tournament};

/// The audit as text: summary, findings, tier table, your sheet with differing boards marked,
/// the differing boards of the optimum.
pub fn text(a: &Audit, t: &Tournament) -> String {
    let mut s = String::new();
    findings(&mut s, a);
    comparison(&mut s, a);
    boards(&mut s, a, t);
    s
}

/// The verdict, the summary and the rules broken.
fn findings(s: &mut String, a: &Audit) {
    use std::fmt::Write;
    let _ = writeln!(
        s,
        "Audit of round {} under {}: {}",
        a.round,
        a.system,
        verdict_words(a.verdict)
    );
    for line in &a.summary {
        let _ = writeln!(s, "  {line}");
    }
    let _ = writeln!(s);
    if a.violations.is_empty() {
        let _ = writeln!(s, "Rule violations: none (independent verifier).");
    } else {
        let _ = writeln!(
            s,
            "Rule violations ({}, independent verifier):",
            a.violations.len()
        );
        for v in &a.violations {
            let _ = writeln!(s, "  {}", finding(v));
        }
    }
    if !a.excluded.is_empty() {
        let _ = writeln!(s, "Outside the round's hard rules (pairing model):");
        for e in &a.excluded {
            let _ = writeln!(s, "  {e}");
        }
    }
    let _ = writeln!(s);
}

/// The comparison with the optimum: the Dutch pairing's bracket, or the tier table.
fn comparison(s: &mut String, a: &Audit) {
    use std::fmt::Write;
    if let Some(d) = &a.dutch {
        let _ = writeln!(
            s,
            "{} (optimum {}: {}):\n  {d}",
            dutch_heading(a),
            status_words(a.optimum_status),
            a.optimum_summary
        );
    } else if a.dutch_round {
        let _ = writeln!(
            s,
            "No legal pairing to compare with (the pairing found: {}: {})",
            status_words(a.optimum_status),
            a.optimum_summary
        );
    } else {
        let _ = writeln!(
            s,
            "Compared with the optimum, criterion by criterion (optimum {}: {}):",
            status_words(a.optimum_status),
            a.optimum_summary
        );
    }
    if a.dutch.is_some() {
    } else if let Some(rows) = &a.tiers {
        let _ = writeln!(
            s,
            "  {:>8} {:>8} {:>8}  criterion (priority order)",
            "yours", "optimum", "excess"
        );
        for (i, r) in rows.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {:>8} {:>8} {:>8}  {}{}",
                r.yours,
                r.optimum,
                r.yours - r.optimum,
                r.words,
                if Some(i) == a.first_difference {
                    "  <- decides"
                } else {
                    ""
                }
            );
        }
    } else {
        let _ = writeln!(
            s,
            "  not comparable (a pair outside the round's hard rules)"
        );
    }
    let _ = writeln!(s);
}

/// Your sheet with the differing boards marked, the optimum's differing boards, notes.
fn boards(s: &mut String, a: &Audit, t: &Tournament) {
    use std::fmt::Write;
    let st = Standings::before(t, a.round);
    let score = |id: u32| st.get(id).map(|s| s.score).unwrap_or(0.0);
    let marks = marks(a, t);
    let n = crate::spec::words::count(a.yours.len() as i64, "board", "boards");
    let _ = writeln!(s, "Your pairing ({n}):");
    let width = a
        .yours
        .iter()
        .chain(&a.optimum)
        .flat_map(|b| {
            [
                name(t, b.white).chars().count(),
                name(t, b.black).chars().count(),
            ]
        })
        .max()
        .unwrap_or(5)
        .max(5);
    let row = |s: &mut String, b: &Board, mark: &str| {
        let line = format!(
            "  {:>5}  {:<width$} {:>5}   {:<width$} {:>5}  {mark}",
            b.board,
            name(t, b.white),
            score(b.white),
            name(t, b.black),
            score(b.black)
        );
        let _ = writeln!(s, "{}", line.trim_end());
    };
    let _ = writeln!(
        s,
        "  {:>5}  {:<width$} {:>5}   {:<width$} {:>5}",
        "Board", "White", "Score", "Black", "Score"
    );
    for b in &a.yours {
        row(s, b, marks.get(&b.board).map(String::as_str).unwrap_or(""));
    }
    for &p in &a.your_byes {
        let mark = if a.differences.byes_only_yours.contains(&p) {
            "differs: not the optimum's bye"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "{}",
            format!("    Bye  {}  {mark}", name(t, p)).trim_end()
        );
    }
    let d = &a.differences;
    if !d.only_optimum.is_empty()
        || !d.colours_reversed.is_empty()
        || !d.byes_only_optimum.is_empty()
    {
        let _ = writeln!(s);
        let _ = writeln!(s, "The optimum's boards that differ from yours:");
        for b in &d.only_optimum {
            row(s, b, "");
        }
        for (_, o) in &d.colours_reversed {
            row(s, o, "(your colours reversed)");
        }
        for &p in &d.byes_only_optimum {
            let _ = writeln!(s, "    Bye  {}", name(t, p));
        }
    }
    for v in &a.optimum_violations {
        let _ = writeln!(s, "  verifier on the optimum: {}", v.message);
    }
    for n in &a.notes {
        let _ = writeln!(s, "  Note: {n}");
    }
}
