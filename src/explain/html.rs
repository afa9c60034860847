//! The explanation as one printable page an arbiter can hand over: plain language, the
//! articles quoted, built with `maud` (every value escaped).

use super::model::Explanation;
use super::swap::Swap;
use super::text::{alternative_line, headline, standing_lines};
use super::words;
use crate::tournament::Tournament;
use maud::{html as markup, PreEscaped, DOCTYPE};

const STYLE: &str = "
body { font-family: serif; margin: 0; color: #000; font-size: 10pt; line-height: 1.25; }
h1 { font-size: 13pt; margin: 0 0 0.4em; } h2 { font-size: 11pt; margin: 0.8em 0 0.2em; }
p, ul { margin: 0.2em 0; } li { margin: 0.1em 0; }
.rule { margin-left: 1em; font-style: italic; }
@page { size: A4; margin: 1.2cm; }
";

/// The articles a page cites, each quoted once.
fn quoted(articles: &[String]) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    for a in articles {
        if let Some(w) = words::words(a) {
            if !out.iter().any(|(x, _)| x == a) {
                out.push((a.clone(), w.sentence));
            }
        }
    }
    out
}

/// The explanation as a self-contained HTML page.
pub fn html(e: &Explanation, t: &Tournament) -> String {
    let mut cited: Vec<String> = e.decided_by.iter().cloned().collect();
    cited.extend(e.alternatives.iter().filter_map(|a| a.article.clone()));
    cited.extend(e.colour_rule.iter().cloned());
    let page = markup! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (headline(e, t)) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { (headline(e, t)) }
                p { "Event: " (t.name) ". System: " (e.system.to_string()) "." }
                h2 { "Where you stood" }
                ul { @for l in standing_lines(e) { li { (l) } } }
                h2 { "Why this pairing" }
                p { (e.decision) }
                ul { @for r in &e.reasons { li { (r) } } }
                @if let Some(c) = &e.colour {
                    h2 { "Your colour" }
                    p { (c) "." }
                }
                @if !e.alternatives.is_empty() {
                    h2 { "The other choices" }
                    p { "Each line is the best pairing of the round with that choice, compared with yours." }
                    ul { @for i in 0..e.alternatives.len() { li { (alternative_line(e, t, i)) } } }
                }
                h2 { "The rules quoted" }
                @for (a, s) in quoted(&cited) {
                    p.rule { (a) ": " (s) "." }
                }
            }
        }
    };
    page.into_string()
}

/// The swap as a self-contained HTML page.
pub fn swap_html(w: &Swap, t: &Tournament) -> String {
    let body = super::text::swap_text(w, t);
    let cited: Vec<String> = w.rows.iter().map(|r| r.article.clone()).collect();
    markup! {
        (DOCTYPE)
        html lang="en" {
            head { meta charset="utf-8"; title { "Proposed swap, round " (w.round) } style { (PreEscaped(STYLE)) } }
            body {
                h1 { "Proposed swap, round " (w.round) }
                @for l in body.lines() { p { (l) } }
                h2 { "The rules quoted" }
                @for (a, s) in quoted(&cited) { p.rule { (a) ": " (s) "." } }
            }
        }
    }
    .into_string()
}
