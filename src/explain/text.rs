//! The explanation and the swap as plain text.

use super::model::{Explanation, Outcome, Verdict};
use super::swap::Swap;
use crate::report::label as name;
use crate::tournament::Tournament;
use std::fmt::Write;

/// The lines of "where you stood", shared by text and HTML.
pub(super) fn standing_lines(e: &Explanation) -> Vec<String> {
    let s = &e.standing;
    let mut out = vec![if s.score == s.points {
        format!("Score {} (rank {} in the pairing order).", s.score, s.rank)
    } else {
        format!(
            "Pairing score {} ({} points and {} added by the acceleration; rank {} in the \
             pairing order).",
            s.score,
            s.points,
            score_gap(&s.score, &s.points),
            s.rank
        )
    }];
    if e.system.is_scrabble() {
        out[0] = format!("Wins {} (rank {} in the pairing order).", s.score, s.rank);
        match (s.bracket, s.paired_in) {
            (Some(b), Some(p)) if p != b => out.push(format!(
                "Your place in the standings put you in group {b}; you were paired in group {p}."
            )),
            (_, Some(p)) | (Some(p), None) => out.push(format!("You were paired in group {p}.")),
            (None, None) => {}
        }
        out.extend(first_second_lines(s));
        if let Some(why) = &s.bye_barred {
            out.push(format!("You may not get the bye: {why}."));
        }
        return out;
    }
    match (s.bracket, s.paired_in) {
        (Some(b), Some(p)) if p != b => out.push(format!(
            "Your scoregroup is bracket {b}; you floated down and were paired in bracket {p}."
        )),
        (Some(b), _) => out.push(format!("You were paired in your own bracket, bracket {b}.")),
        (None, Some(p)) => out.push(format!(
            "You came down from a higher bracket and were paired in bracket {p}."
        )),
        (None, None) => {}
    }
    out.push(match (&s.colour_due, &s.strength) {
        (Some(c), Some(k)) => format!("You were due {c} ({k} preference)."),
        _ => "You were due no colour (no game played yet).".to_string(),
    });
    if !s.colours.is_empty() {
        out.push(format!("Your colours so far: {}.", s.colours));
    }
    if s.floats.contains('D') || s.floats.contains('U') {
        out.push(format!(
            "Your floats so far (D down, U up, - none): {}.",
            s.floats
        ));
    }
    if let Some(why) = &s.bye_barred {
        out.push(format!("You may not get the bye: {why}."));
    }
    out
}

/// A Scrabble player's firsts and seconds so far, in place of colours (Scrabble has none:
/// white is going first, and TSH07/NSC06 balance firsts).
fn first_second_lines(s: &super::model::Standing) -> Vec<String> {
    let games: Vec<&str> = s
        .colours
        .split_whitespace()
        .map(|c| match c {
            "W" => "1st",
            "B" => "2nd",
            _ => "-",
        })
        .collect();
    if games.is_empty() {
        return Vec::new();
    }
    let firsts = games.iter().filter(|g| **g == "1st").count();
    let seconds = games.iter().filter(|g| **g == "2nd").count();
    vec![format!(
        "Your games so far (1st going first, 2nd going second, - none): {} — {firsts} first, \
         {seconds} second.",
        games.join(" ")
    )]
}

fn score_gap(score: &str, points: &str) -> String {
    match (score.parse::<f64>(), points.parse::<f64>()) {
        (Ok(a), Ok(b)) => format!("{}", a - b),
        _ => "some".to_string(),
    }
}

/// The headline: whom he got.
pub(super) fn headline(e: &Explanation, t: &Tournament) -> String {
    let me = name(t, e.player);
    match &e.outcome {
        Outcome::Game { opponent, white } if e.system.is_scrabble() => format!(
            "Round {}: {me} plays {}, going {}.",
            e.round,
            name(t, *opponent),
            if *white { "first" } else { "second" }
        ),
        Outcome::Game { opponent, white } => format!(
            "Round {}: {me} plays {} with {}.",
            e.round,
            name(t, *opponent),
            if *white { "white" } else { "black" }
        ),
        Outcome::Bye => format!("Round {}: {me} has the pairing-allocated bye.", e.round),
        Outcome::NotPaired => format!("Round {}: {me} is not paired.", e.round),
    }
}

/// One alternative's line.
pub(super) fn alternative_line(e: &Explanation, t: &Tournament, i: usize) -> String {
    let a = &e.alternatives[i];
    let lead = match (&e.outcome, a.verdict) {
        (Outcome::Bye, _) => format!("Bye to {}", name(t, a.player)),
        _ => format!("Against {}", name(t, a.player)),
    };
    let tag = match a.verdict {
        Verdict::NotAllowed => "",
        Verdict::Worse => " — worse",
        Verdict::Order => "",
        Verdict::NoPairing => "",
    };
    format!("{lead}{tag}: {}", a.sentence)
}

/// The explanation as text.
pub fn text(e: &Explanation, t: &Tournament) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", headline(e, t));
    let _ = writeln!(s, "System: {}.", e.system);
    let _ = writeln!(s, "\nWhere you stood");
    for l in standing_lines(e) {
        let _ = writeln!(s, "  {l}");
    }
    let _ = writeln!(s, "\nWhy this pairing");
    let _ = writeln!(s, "  {}", e.decision);
    for r in &e.reasons {
        let _ = writeln!(s, "  - {r}");
    }
    if let Some(c) = &e.colour {
        let _ = writeln!(s, "\nYour colour\n  {c}.");
    }
    if !e.alternatives.is_empty() {
        let _ = writeln!(
            s,
            "\nThe other choices (each the best pairing of the round with it)"
        );
        for i in 0..e.alternatives.len() {
            let _ = writeln!(s, "  {}", alternative_line(e, t, i));
        }
    }
    if !e.proved {
        let _ = writeln!(
            s,
            "\nNote: the pairing explained was not proved optimal (the exact procedure did not \
             finish, or the verifier could not check it whole within the time limit); the \
             comparisons are with it."
        );
    }
    for n in &e.notes {
        let _ = writeln!(s, "Note: {n}");
    }
    s
}

/// The swap as text.
pub fn swap_text(w: &Swap, t: &Tournament) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Round {}: swap the opponents of {} and {} — {} v {} and {} v {}.",
        w.round,
        name(t, w.a),
        name(t, w.b),
        w.a,
        w.b_opponent,
        w.b,
        w.a_opponent
    );
    if w.allowed {
        let _ = writeln!(s, "Allowed: the new games break no absolute rule.");
    } else {
        let _ = writeln!(s, "Not allowed:");
        for r in &w.refusals {
            let _ = writeln!(s, "  {r}");
        }
    }
    let _ = writeln!(s, "First difference: {}.", w.first);
    if !w.rows.is_empty() {
        let _ = writeln!(s, "What changes, criterion by criterion:");
        for r in &w.rows {
            let _ = writeln!(
                s,
                "  bracket {}: {} — {}: swapped {}; as paired {}",
                r.bracket, r.article, r.sentence, r.swapped, r.made
            );
        }
    }
    s
}
