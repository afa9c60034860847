//! The audit as a self-contained HTML page (no external resources), built with `maud`, which
//! escapes every value it is given: verdict, summary, findings, tier table, your pairing
//! sheet with marked boards, and the optimum's differing boards.

use super::model::{Audit, Board, Verdict};
use super::words::{dutch_heading, finding_body, ids, marks, name, status_words, verdict_words};
use crate::tournament::{Standings, Tournament};
use maud::{html as markup, Markup, PreEscaped, DOCTYPE};

const STYLE: &str = "
body { font-family: sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; }
h2 { font-size: 1.1em; margin-top: 1.6em; }
.verdict { padding: 0.6em 1em; border-radius: 4px; font-weight: bold; }
.ok { background: #dff3df; border: 1px solid #4a4; }
.warn { background: #fff4d6; border: 1px solid #c90; }
.bad { background: #fde0e0; border: 1px solid #c33; }
table { border-collapse: collapse; margin-top: 0.5em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; }
td.n { text-align: right; }
tr.differs td { background: #fff4d6; }
tr.breaks td { background: #fde0e0; }
tr.decides td { font-weight: bold; }
.rule { color: #555; font-size: 0.9em; }
";

/// The audit as a self-contained HTML page; `note`, when given, follows the verdict in
/// parentheses (the command line puts its exit status there).
pub fn html(a: &Audit, t: &Tournament, note: Option<&str>) -> String {
    let st = Standings::before(t, a.round);
    let score = |id: u32| st.get(id).map(|s| s.score).unwrap_or(0.0);
    let title = format!(
        "Audit of round {} — {} — {}",
        a.round,
        if t.name.is_empty() {
            "tournament"
        } else {
            &t.name
        },
        a.system
    );
    let banner = match a.verdict {
        Verdict::Optimal => "ok",
        Verdict::NotOptimal | Verdict::Unproved => "warn",
        Verdict::BreaksRule => "bad",
    };
    let marks = marks(a, t);
    let sheet_row = |b: &Board, class: Option<&str>, mark: &str| -> Markup {
        markup! {
            tr class=[class] {
                td.n { (b.board) }
                td { (name(t, b.white)) }
                td.n { (score(b.white)) }
                td { (name(t, b.black)) }
                td.n { (score(b.black)) }
                td { (mark) }
            }
        }
    };
    let head = markup! {
        tr { th { "Board" } th { "White" } th { "Score" } th { "Black" } th { "Score" } th { "Finding" } }
    };
    let d = &a.differences;
    let page = markup! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { (title) }
                p class={ "verdict " (banner) } {
                    (verdict_words(a.verdict))
                    @if let Some(n) = note { " (" (n) ")" }
                }
                ul.summary {
                    @for line in &a.summary { li { (line) } }
                }
                h2 { "Rule violations" }
                @if a.violations.is_empty() && a.excluded.is_empty() {
                    p { "None: the verifier finds no rule broken." }
                } @else {
                    table.violations {
                        tr { th { "Rule" } th { "Players" } th { "Finding" } }
                        @for v in &a.violations {
                            tr { td { (v.rule) } td { (ids(&v.players)) } td { (finding_body(v)) } }
                        }
                        @for x in &a.excluded {
                            tr { td { "hard rule (pairing model)" } td {} td { (x) } }
                        }
                    }
                }
                @if let Some(dutch) = &a.dutch {
                    h2 { (dutch_heading(a)) }
                    p.decides { (dutch) }
                } @else if a.dutch_round {
                    h2 { "No legal pairing to compare with" }
                } @else {
                    h2 { "Compared with the optimum, criterion by criterion" }
                }
                p.rule { "Optimum " (status_words(a.optimum_status)) ": " (a.optimum_summary) }
                @if a.dutch.is_some() {
                } @else if let Some(rows) = &a.tiers {
                    table.tiers {
                        tr {
                            th { "Criterion (priority order)" } th { "Yours" } th { "Optimum" }
                            th { "Excess" }
                        }
                        @for (i, r) in rows.iter().enumerate() {
                            tr class=[(Some(i) == a.first_difference).then_some("decides")] {
                                td { (r.words) }
                                td.n { (r.yours) }
                                td.n { (r.optimum) }
                                td.n { (r.yours - r.optimum) }
                            }
                        }
                    }
                } @else {
                    p { "Not comparable: the pairing uses a pair the round's hard rules exclude." }
                }
                h2 { "Your pairing" }
                table.sheet {
                    (head)
                    @for b in &a.yours {
                        @let mark = marks.get(&b.board).map(String::as_str).unwrap_or("");
                        @let class = if mark.contains("breaks") {
                            Some("breaks")
                        } else if !mark.is_empty() {
                            Some("differs")
                        } else {
                            None
                        };
                        (sheet_row(b, class, mark))
                    }
                    @for &p in &a.your_byes {
                        tr {
                            td { "Bye" }
                            td colspan="4" { (name(t, p)) }
                            td {
                                @if d.byes_only_yours.contains(&p) { "differs: not the optimum's bye" }
                            }
                        }
                    }
                }
                h2 { "The optimum's boards that differ" }
                @if d.only_optimum.is_empty() && d.colours_reversed.is_empty() && d.byes_only_optimum.is_empty() {
                    p { "None." }
                } @else {
                    table.optimum {
                        (head)
                        @for b in &d.only_optimum { (sheet_row(b, None, "")) }
                        @for (_, o) in &d.colours_reversed {
                            (sheet_row(o, None, "your colours reversed"))
                        }
                        @for &p in &d.byes_only_optimum {
                            tr { td { "Bye" } td colspan="4" { (name(t, p)) } td {} }
                        }
                    }
                }
                @if !a.optimum_violations.is_empty() || !a.notes.is_empty() {
                    h2 { "Notes" }
                    ul {
                        @for v in &a.optimum_violations {
                            li { "Verifier on the optimum: " (v.message) }
                        }
                        @for n in &a.notes { li { (n) } }
                    }
                }
            }
        }
    };
    page.into_string() + "\n"
}
