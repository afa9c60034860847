//! What a director posts on the wall: standings, pairing sheets, alphabetical lists and
//! crosstables, as text and as printable self-contained HTML pages (one table split into pages
//! of N rows, every page with its heading, names escaped).

pub mod sheets;
pub mod standings;

use crate::tournament::{Bye, ByeKind, GameResult, Player, Tournament};
use crate::SystemKind;
use maud::{html as markup, Markup, PreEscaped, DOCTYPE};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Scrabble-like events (games keep scores, or a Scrabble system) rank by wins then spread and
/// say first/second rather than white/black.
pub fn is_scrabble(t: &Tournament, system: SystemKind) -> bool {
    t.scoring.game_scores || system.is_scrabble()
}

/// Points as a director writes them: `2`, `1.5`, `0.25`.
pub fn points(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// A crosstable cell's result: `1`, `½`, `0`, `1½`.
pub fn half(x: f64) -> String {
    let whole = x.floor();
    if (x - whole - 0.5).abs() < 1e-9 {
        if whole == 0.0 {
            "½".into()
        } else {
            format!("{}½", points(whole))
        }
    } else {
        points(x)
    }
}

/// Spread with its sign: `+45`, `-12`, `0`.
pub fn spread(x: i64) -> String {
    if x > 0 {
        format!("+{x}")
    } else {
        x.to_string()
    }
}

/// `Name (number)` — the pairing number a director reads and types (`b3` in an event with
/// several divisions) — or the id alone for an unknown player.
pub fn label(t: &Tournament, id: u32) -> String {
    t.player(id)
        .map(|p| format!("{} ({})", p.name, t.shown_number(id)))
        .unwrap_or_else(|| id.to_string())
}

/// Players by id, with the number each is known by: sheets of thousands of boards look
/// players up in constant time.
pub struct People<'a>(std::collections::HashMap<u32, (&'a Player, String)>);

impl<'a> People<'a> {
    /// Every player of `t`, with his number as [`Tournament::shown_number`] gives it.
    pub fn new(t: &'a Tournament) -> People<'a> {
        let shared = t.numbers_shared();
        People(
            t.players
                .iter()
                .map(|p| (p.id, (p, t.number_text(p, shared))))
                .collect(),
        )
    }

    /// Player `id`, if entered.
    pub fn get(&self, id: u32) -> Option<&'a Player> {
        self.0.get(&id).map(|e| e.0)
    }

    /// The number player `id` is known by (his pairing number), or the id for an unknown
    /// player.
    pub fn number(&self, id: u32) -> String {
        self.0
            .get(&id)
            .map_or_else(|| id.to_string(), |e| e.1.clone())
    }

    /// `Name (number)`, or the id alone for an unknown player.
    pub fn label(&self, id: u32) -> String {
        self.0
            .get(&id)
            .map(|(p, n)| format!("{} ({n})", p.name))
            .unwrap_or_else(|| id.to_string())
    }

    /// A rating cell: blank for unrated.
    pub fn rating(&self, id: u32) -> String {
        match self.get(id).map(|p| p.rating) {
            Some(r) if r > 0 => r.to_string(),
            _ => String::new(),
        }
    }
}

/// A rating cell: blank for unrated.
pub fn rating(t: &Tournament, id: u32) -> String {
    match t.player(id).map(|p| p.rating) {
        Some(r) if r > 0 => r.to_string(),
        _ => String::new(),
    }
}

/// A bye in words with what it is worth, e.g. "pairing-allocated bye (1 point)".
pub fn bye_words(t: &Tournament, b: &Bye) -> String {
    let kind = match b.kind {
        ByeKind::PairingAllocated => "pairing-allocated bye",
        ByeKind::Full => "full-point bye",
        ByeKind::Half => "half-point bye",
        ByeKind::Zero => "zero-point bye",
    };
    let p = b.kind.points(&t.scoring);
    let mut s = format!(
        "{kind} ({} point{}",
        points(p),
        if (p - 1.0).abs() < 1e-9 { "" } else { "s" }
    );
    if let Some(d) = b.spread {
        let _ = write!(s, ", spread {}", spread(i64::from(d)));
    }
    s.push(')');
    s
}

/// A result as posted: `1-0`, `½-½`, `0-1`, forfeits `+/-`, `-/+`, `-/-`; game scores where
/// kept; blank while pending.
pub fn result_text(g: &crate::tournament::Game) -> String {
    if let (Some([a, b]), true) = (g.scores, g.result.played()) {
        return format!("{a}-{b}");
    }
    match g.result {
        GameResult::Pending => String::new(),
        GameResult::WhiteWins => "1-0".into(),
        GameResult::Draw => "½-½".into(),
        GameResult::BlackWins => "0-1".into(),
        GameResult::WhiteForfeitWin => "+/-".into(),
        GameResult::BlackForfeitWin => "-/+".into(),
        GameResult::DoubleForfeit => "-/-".into(),
    }
}

/// Wins and losses before round `round` (Scrabble's W-L): wins are the points scored, losses
/// the rounds decided (results in, byes) less the wins.
pub fn win_loss(t: &Tournament, round: u32) -> BTreeMap<u32, (f64, f64)> {
    let s = &t.scoring;
    let mut out: BTreeMap<u32, (f64, f64)> = t.players.iter().map(|p| (p.id, (0.0, 0.0))).collect();
    let mut add = |id: u32, pts: f64, max: f64| {
        if let Some(e) = out.get_mut(&id) {
            e.0 += pts;
            e.1 += max - pts;
        }
    };
    for r in t.rounds.iter().filter(|r| r.number < round) {
        for g in r.games.iter().filter(|g| g.result != GameResult::Pending) {
            let (pw, pb) = g.result.points(s);
            add(g.white, pw, s.win);
            add(g.black, pb, s.win);
        }
        for b in &r.byes {
            add(b.player, b.kind.points(s), s.win);
        }
    }
    out.into_iter()
        .map(|(id, (w, l))| (id, (w / s.win.max(1e-9), l.max(0.0) / s.win.max(1e-9))))
        .collect()
}

/// `4-1`, `3.5-1.5`.
pub fn wl_text(wl: (f64, f64)) -> String {
    format!("{}-{}", points(wl.0), points(wl.1))
}

/// The last round whose pairing exists and whose results are all in (0 if none).
pub fn last_complete_round(t: &Tournament) -> u32 {
    let mut last = 0;
    for r in 1..=t.last_paired_round() {
        match t.round(r) {
            Some(rd) if rd.games.iter().all(|g| g.result != GameResult::Pending) => last = r,
            _ => break,
        }
    }
    last
}

/// A table: headings, which columns are numbers (right-aligned), rows of cells.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// Column headings.
    pub headings: Vec<String>,
    /// Per column: whether it holds numbers (right-aligned).
    pub right: Vec<bool>,
    /// The rows, each a cell per column.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with these columns: (heading, right-aligned).
    pub fn new(cols: &[(&str, bool)]) -> Table {
        Table {
            headings: cols.iter().map(|c| c.0.to_string()).collect(),
            right: cols.iter().map(|c| c.1).collect(),
            rows: Vec::new(),
        }
    }

    /// Fixed-width text, columns two spaces apart, no trailing blanks.
    pub fn text(&self) -> String {
        let n = self.headings.len();
        let mut w: Vec<usize> = self.headings.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate().take(n) {
                w[i] = w[i].max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate().take(n) {
                let pad = w[i] - c.chars().count();
                if i > 0 {
                    s.push_str("  ");
                }
                if self.right[i] {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                } else {
                    s.push_str(c);
                    s.push_str(&" ".repeat(pad));
                }
            }
            s.trim_end().to_string() + "\n"
        };
        let mut out = line(&self.headings);
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }

    /// CSV through the `csv` crate: a field is quoted only when it holds a comma, a quote or a
    /// line break (RFC 4180), records end in `\n`.
    pub fn csv(&self) -> String {
        let mut w = csv::WriterBuilder::new()
            // Rows are written as built, as the text and HTML renderers show them.
            .flexible(true)
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        for record in std::iter::once(&self.headings).chain(&self.rows) {
            w.write_record(record).expect("writing to memory");
        }
        let bytes = w.into_inner().expect("writing to memory");
        String::from_utf8(bytes).expect("UTF-8 fields give UTF-8 records")
    }

    /// One HTML table of rows `from..to`.
    fn html_rows(&self, class: &str, from: usize, to: usize) -> Markup {
        let n = |right: bool| right.then_some("n");
        markup! {
            table class=(class) {
                thead {
                    tr {
                        @for (h, &r) in self.headings.iter().zip(&self.right) {
                            th class=[n(r)] { (h) }
                        }
                    }
                }
                tbody {
                    @for row in &self.rows[from..to] {
                        tr {
                            @for (c, &r) in row.iter().zip(&self.right) {
                                td class=[n(r)] { (c) }
                            }
                        }
                    }
                }
            }
        }
    }
}

const STYLE: &str = r#"
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11pt; margin: 1.5em; color: #000; }
h1 { font-size: 1.3em; margin: 0 0 0.2em; }
p.page-no { margin: 0 0 0.6em; color: #444; font-size: 0.9em; }
table { border-collapse: collapse; }
table.pairings, table.alpha { width: 100%; }
th, td { border: 1px solid #888; padding: 0.15em 0.45em; text-align: left; white-space: nowrap; }
th { background: #e4e4e4; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) td { background: #f3f3f3; }
ul.notes { margin-top: 0.8em; font-size: 0.9em; }
.page { break-after: page; page-break-after: always; }
.page:last-of-type { break-after: auto; page-break-after: auto; }
@media screen { .page + .page { border-top: 2px dashed #999; margin-top: 1.2em; padding-top: 1em; } }
@media print {
  @page { size: A4; margin: 12mm; }
  body { margin: 0; font-size: 10pt; }
  tr { break-inside: avoid; page-break-inside: avoid; }
  tbody tr:nth-child(even) td { background: #f3f3f3; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"#;

/// A printable, self-contained HTML page: `heading` over `table`, split every `per_page` rows
/// into pages that each repeat the heading and the column titles; `notes` below the last.
/// Built with `maud`, which escapes every value.
pub fn html_page(
    title: &str,
    heading: &str,
    table: &Table,
    class: &str,
    per_page: usize,
    notes: &[String],
) -> String {
    let per_page = per_page.max(1);
    let pages = table.rows.len().div_ceil(per_page).max(1);
    let page = markup! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                @for p in 0..pages {
                    section.page {
                        h1 { (heading) }
                        @if pages > 1 {
                            p.page-no { "Page " (p + 1) " of " (pages) }
                        }
                        (table.html_rows(class, p * per_page, ((p + 1) * per_page).min(table.rows.len())))
                        @if p + 1 == pages && !notes.is_empty() {
                            ul.notes {
                                @for n in notes { li { (n) } }
                            }
                        }
                    }
                }
            }
        }
    };
    page.into_string() + "\n"
}

/// The event's name for headings.
pub fn event_name(t: &Tournament) -> &str {
    if t.name.is_empty() {
        "Tournament"
    } else {
        &t.name
    }
}
