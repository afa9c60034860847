//! Standings after a round: chess by score and the director's C.07 tie-breaks, Scrabble by
//! wins then spread with W-L and spread columns.

use super::{event_name, points, spread, wl_text, People, Table};
use crate::tournament::tiebreak::{self, Tiebreak};
use crate::tournament::{Standings, Tournament};
use crate::{Result, SystemKind};

/// Standings ready to render.
#[derive(Debug, Clone)]
pub struct Report {
    /// The heading over the table (event name and round).
    pub heading: String,
    /// The standings table, one row per player, rank first.
    pub table: Table,
    /// Lines under the table (the tie-breaks in words, the rules read).
    pub notes: Vec<String>,
    /// The standings as JSON: the event, the round, the system, the order or tie-breaks, and a
    /// row per player.
    pub json: serde_json::Value,
}

/// The standings of `t` after round `after` under `system`; `tiebreaks` for chess (Scrabble
/// ignores them).
pub fn build(
    t: &Tournament,
    after: u32,
    system: SystemKind,
    tiebreaks: &[Tiebreak],
) -> Result<Report> {
    let heading = format!("{} — standings after round {after}", event_name(t));
    if super::is_scrabble(t, system) {
        return Ok(scrabble(t, after, system, heading));
    }
    let rows = tiebreak::standings(t, after, tiebreaks)?;
    let people = People::new(t);
    let titles = t.players.iter().any(|p| p.title.is_some());
    let feds = t.players.iter().any(|p| p.federation.is_some());
    let mut cols: Vec<(String, bool)> = vec![("Rk".into(), true), ("No".into(), true)];
    if titles {
        cols.push(("Ti".into(), false));
    }
    cols.push(("Name".into(), false));
    if feds {
        cols.push(("Fed".into(), false));
    }
    cols.push(("Rtg".into(), true));
    cols.push(("Pts".into(), true));
    for tb in tiebreaks {
        cols.push((tb.heading(), true));
    }
    let mut table = Table {
        headings: cols.iter().map(|c| c.0.clone()).collect(),
        right: cols.iter().map(|c| c.1).collect(),
        rows: Vec::new(),
    };
    let mut json_rows = Vec::new();
    for r in &rows {
        let p = people.get(r.id);
        let mut cells = vec![r.rank.to_string(), people.number(r.id)];
        if titles {
            cells.push(p.and_then(|p| p.title.clone()).unwrap_or_default());
        }
        cells.push(p.map(|p| p.name.clone()).unwrap_or_default());
        if feds {
            cells.push(p.and_then(|p| p.federation.clone()).unwrap_or_default());
        }
        cells.push(people.rating(r.id));
        cells.push(points(r.score));
        for v in &r.values {
            cells.push(v.map(points).unwrap_or_default());
        }
        table.rows.push(cells);
        json_rows.push(serde_json::json!({
            "rank": r.rank,
            "id": r.id,
            "number": people.number(r.id),
            "name": p.map(|p| p.name.clone()),
            "rating": p.map(|p| p.rating),
            "title": p.and_then(|p| p.title.clone()),
            "federation": p.and_then(|p| p.federation.clone()),
            "score": no_negative_zero(r.score),
            "tiebreaks": r.values.iter().map(|v| v.map(no_negative_zero)).collect::<Vec<_>>(),
        }));
    }
    let rules = tiebreak::Rules::of(t)?;
    let mut notes: Vec<String> = tiebreaks
        .iter()
        .map(|tb| format!("{}: {} ({})", tb.heading(), tb.title(), tb.article()))
        .collect();
    notes.push(format!(
        "Unplayed rounds as FIDE C.07 16 ({} text); players still tied share a rank.",
        match rules {
            tiebreak::Rules::C07of2024 => "2024",
            tiebreak::Rules::C07of2026 => "2026",
        }
    ));
    let json = serde_json::json!({
        "event": t.name,
        "after_round": after,
        "system": system,
        "tiebreaks": tiebreaks.iter().map(|tb| serde_json::json!({
            "name": tb.name(), "heading": tb.heading(), "article": tb.article(),
        })).collect::<Vec<_>>(),
        "standings": json_rows,
    });
    Ok(Report {
        heading,
        table,
        notes,
        json,
    })
}

/// `x` with a negative zero (a tie-break summing nothing but cancelled terms) made `0.0`, so
/// the JSON never prints `-0.0`.
fn no_negative_zero(x: f64) -> f64 {
    x + 0.0
}

fn scrabble(t: &Tournament, after: u32, system: SystemKind, heading: String) -> Report {
    let people = People::new(t);
    let st = Standings::before(t, after + 1);
    let wl = super::win_loss(t, after + 1);
    let mut table = Table::new(&[
        ("Rk", true),
        ("No", true),
        ("Name", false),
        ("Rtg", true),
        ("W-L", true),
        ("Spread", true),
    ]);
    let mut json_rows = Vec::new();
    let mut rank = 0;
    let mut prev: Option<(i64, i64)> = None;
    for (i, id) in st.by_wins_spread().into_iter().enumerate() {
        let s = st.get(id).expect("ranked player has standings");
        // Wins in thousandths, as the ranking compares them.
        let key = (crate::tournament::milli(s.score), s.spread);
        let shared = prev == Some(key);
        if !shared {
            rank = i + 1;
        }
        prev = Some(key);
        let w = wl.get(&id).copied().unwrap_or_default();
        table.rows.push(vec![
            rank.to_string(),
            people.number(id),
            people.get(id).map(|p| p.name.clone()).unwrap_or_default(),
            people.rating(id),
            wl_text(w),
            spread(s.spread),
        ]);
        json_rows.push(serde_json::json!({
            "rank": rank,
            "id": id,
            "number": people.number(id),
            "name": people.get(id).map(|p| p.name.clone()),
            "rating": s.rating,
            "wins": w.0,
            "losses": w.1,
            "spread": s.spread,
        }));
    }
    Report {
        heading,
        table,
        notes: vec!["Ranked by wins, then spread; players level on both share a rank.".into()],
        json: serde_json::json!({
            "event": t.name,
            "after_round": after,
            "system": system,
            "order": "wins, then spread",
            "standings": json_rows,
        }),
    }
}

impl Report {
    /// The table with a shared rank printed once, on the first of the tied players.
    fn posted(&self) -> Table {
        let mut t = self.table.clone();
        let mut prev = String::new();
        for row in &mut t.rows {
            if row[0] == prev {
                row[0].clear();
            } else {
                prev = row[0].clone();
            }
        }
        t
    }

    /// The standings as fixed-width text, a shared rank printed once.
    pub fn text(&self) -> String {
        let mut s = format!("{}\n", self.heading);
        s.push_str(&self.posted().text());
        for n in &self.notes {
            s.push_str(&format!("  {n}\n"));
        }
        s
    }

    /// The standings as a printable HTML page, `per_page` rows a page ([`super::html_page`]).
    pub fn html(&self, per_page: usize) -> String {
        super::html_page(
            &self.heading,
            &self.heading,
            &self.posted(),
            "standings",
            per_page,
            &self.notes,
        )
    }

    /// The JSON, pretty-printed, with a final newline.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(&self.json).expect("json of plain data") + "\n"
    }

    /// The table as CSV, every row's rank written.
    pub fn csv(&self) -> String {
        self.table.csv()
    }
}
