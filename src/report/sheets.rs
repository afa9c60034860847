//! Sheets to post for a round: the pairing sheet (chess: board, white and black with title,
//! federation, rating and score; Scrabble: table, first and second with W-L and spread), the
//! alphabetical list (player → board, colour), and the crosstable (wall chart).

use super::{bye_words, event_name, half, points, spread, wl_text, People, Table};
use crate::tournament::tiebreak::{self, Tiebreak};
use crate::tournament::{
    milli, ByeKind, Game, GameResult, Order, Round, Scoring, Standings, Tournament,
};
use crate::{Result, SystemKind};
use std::collections::BTreeMap;

/// A sheet ready to render.
#[derive(Debug, Clone)]
pub struct Sheet {
    /// `pairings`, `alpha` or `crosstable` (the HTML table's class).
    pub kind: &'static str,
    /// The heading over the table (event name and what the sheet is).
    pub heading: String,
    /// The sheet's table.
    pub table: Table,
    /// Lines under the table.
    pub notes: Vec<String>,
}

impl Sheet {
    /// The sheet as fixed-width text: heading, table, notes.
    pub fn text(&self) -> String {
        let mut s = format!("{}\n", self.heading);
        s.push_str(&self.table.text());
        for n in &self.notes {
            s.push_str(&format!("  {n}\n"));
        }
        s
    }

    /// The sheet as a printable HTML page, `per_page` rows a page ([`super::html_page`]).
    pub fn html(&self, per_page: usize) -> String {
        super::html_page(
            &self.heading,
            &self.heading,
            &self.table,
            self.kind,
            per_page,
            &self.notes,
        )
    }
}

/// The pairing table of `round` (games in board order, then byes in words), with scores as
/// they stood before the round. `pair` prints this under its own heading.
pub fn pairing_table(t: &Tournament, round: &Round, system: SystemKind) -> Table {
    if super::is_scrabble(t, system) {
        return scrabble_pairing_table(t, round);
    }
    let people = People::new(t);
    let st = Standings::before(t, round.number);
    let score = |id: u32| points(st.get(id).map(|s| s.score).unwrap_or(0.0));
    let titles = t.players.iter().any(|p| p.title.is_some());
    let feds = t.players.iter().any(|p| p.federation.is_some());
    let mut cols: Vec<(&str, bool)> = vec![("Bd", true)];
    for side in ["White", "Black"] {
        if titles {
            cols.push(("Ti", false));
        }
        cols.push((side, false));
        if feds {
            cols.push(("Fed", false));
        }
        cols.push(("Rtg", true));
        cols.push(("Pts", true));
        if side == "White" {
            cols.push(("Result", false));
        }
    }
    let mut table = Table::new(&cols);
    // One side's cells: title, name, federation, rating, score.
    let side = |id: u32| {
        let p = people.get(id);
        let mut c = Vec::new();
        if titles {
            c.push(p.and_then(|p| p.title.clone()).unwrap_or_default());
        }
        c.push(people.label(id));
        if feds {
            c.push(p.and_then(|p| p.federation.clone()).unwrap_or_default());
        }
        c.push(people.rating(id));
        c.push(score(id));
        c
    };
    let blank = |words: String| {
        let mut c = vec![String::new(); usize::from(titles)];
        c.push(words);
        c.extend(vec![String::new(); usize::from(feds) + 2]);
        c
    };
    for (i, g) in round.games.iter().enumerate() {
        // tsh's table numbers (`config tables`) where the event gives them.
        let mut row = vec![crate::tournament::boards::table_label(t, i)];
        row.extend(side(g.white));
        row.push(super::result_text(g));
        row.extend(side(g.black));
        table.rows.push(row);
    }
    for b in &round.byes {
        let mut row = vec![String::new()];
        row.extend(side(b.player));
        row.push(String::new());
        row.extend(blank(bye_words(t, b)));
        table.rows.push(row);
    }
    table
}

fn scrabble_pairing_table(t: &Tournament, round: &Round) -> Table {
    let people = People::new(t);
    let st = Standings::before(t, round.number);
    let wl = super::win_loss(t, round.number);
    let mut table = Table::new(&[
        ("Table", true),
        ("First", false),
        ("Rtg", true),
        ("W-L", true),
        ("Spread", true),
        ("Result", false),
        ("Second", false),
        ("Rtg", true),
        ("W-L", true),
        ("Spread", true),
    ]);
    let side = |id: u32| {
        vec![
            people.label(id),
            people.rating(id),
            wl_text(wl.get(&id).copied().unwrap_or_default()),
            spread(st.get(id).map(|s| s.spread).unwrap_or(0)),
        ]
    };
    for (i, g) in round.games.iter().enumerate() {
        // tsh's table numbers (`config tables`) where the event gives them.
        let mut row = vec![crate::tournament::boards::table_label(t, i)];
        row.extend(side(g.white));
        // Who goes first is settled at the board when the pairing leaves it to a draw.
        row.push(match (g.order, g.result) {
            (Order::Recorded, _) | (_, GameResult::WhiteWins | GameResult::BlackWins) => {
                super::result_text(g)
            }
            _ => "draw for first".into(),
        });
        row.extend(side(g.black));
        table.rows.push(row);
    }
    for b in &round.byes {
        let mut row = vec![String::new()];
        row.extend(side(b.player));
        row.push(String::new());
        row.extend([bye_words(t, b), String::new(), String::new(), String::new()]);
        table.rows.push(row);
    }
    table
}

/// Active players of `round` neither paired nor given a bye.
fn not_paired(t: &Tournament, round: &Round) -> Vec<u32> {
    let mut seen: Vec<u32> = round
        .games
        .iter()
        .flat_map(|g| [g.white, g.black])
        .collect();
    seen.extend(round.byes.iter().map(|b| b.player));
    t.players
        .iter()
        .filter(|p| p.active_in(round.number) && !seen.contains(&p.id))
        .map(|p| p.id)
        .collect()
}

/// The pairing sheet of a stored round.
pub fn pairings(t: &Tournament, round: &Round, system: SystemKind) -> Sheet {
    let what = if super::is_scrabble(t, system) {
        "pairings (table, first, second)"
    } else {
        "pairings"
    };
    let people = People::new(t);
    let missing = not_paired(t, round);
    let mut notes = Vec::new();
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|&id| people.label(id)).collect();
        notes.push(format!("Not paired: {}.", names.join(", ")));
    }
    Sheet {
        kind: "pairings",
        heading: format!("{} — round {} — {what}", event_name(t), round.number),
        table: pairing_table(t, round, system),
        notes,
    }
}

/// Every player of the round by name: board, colour, opponent (or the bye in words).
pub fn alpha(t: &Tournament, round: &Round, system: SystemKind) -> Sheet {
    let people = People::new(t);
    let scrabble = super::is_scrabble(t, system);
    let (first, second) = if scrabble {
        ("first", "second")
    } else {
        ("white", "black")
    };
    let mut entry: BTreeMap<u32, [String; 3]> = BTreeMap::new();
    for (i, g) in round.games.iter().enumerate() {
        let known = g.order == Order::Recorded;
        let (cw, cb) = if known {
            (first, second)
        } else {
            ("draw", "draw")
        };
        let board = crate::tournament::boards::table_label(t, i);
        entry.insert(g.white, [board.clone(), cw.into(), people.label(g.black)]);
        entry.insert(g.black, [board, cb.into(), people.label(g.white)]);
    }
    for b in &round.byes {
        entry.insert(b.player, [String::new(), String::new(), bye_words(t, b)]);
    }
    for id in not_paired(t, round) {
        entry.insert(id, [String::new(), String::new(), "not paired".into()]);
    }
    let mut players: Vec<_> = t
        .players
        .iter()
        .filter(|p| entry.contains_key(&p.id))
        .collect();
    players.sort_by(|a, b| {
        a.name
            .to_lowercase()
            .cmp(&b.name.to_lowercase())
            .then(a.number().cmp(&b.number()))
            .then(a.id.cmp(&b.id))
    });
    let mut table = Table::new(&[
        ("Name", false),
        ("No", true),
        ("Rtg", true),
        (if scrabble { "Table" } else { "Bd" }, true),
        (if scrabble { "Turn" } else { "Colour" }, false),
        ("Opponent", false),
    ]);
    for p in players {
        let [bd, col, opp] = entry[&p.id].clone();
        table.rows.push(vec![
            p.name.clone(),
            people.number(p.id),
            people.rating(p.id),
            bd,
            col,
            opp,
        ]);
    }
    Sheet {
        kind: "alpha",
        heading: format!(
            "{} — round {} — players in alphabetical order",
            event_name(t),
            round.number
        ),
        table,
        notes: Vec::new(),
    }
}

/// The crosstable after round `after`: players in standings order, a cell per round (opponent's
/// number, colour, result), the score and the tie-breaks (Scrabble: W-L and spread).
pub fn crosstable(
    t: &Tournament,
    after: u32,
    system: SystemKind,
    tiebreaks: &[Tiebreak],
) -> Result<Sheet> {
    let scrabble = super::is_scrabble(t, system);
    let people = People::new(t);
    let order = if scrabble {
        scrabble_order(t, after)
    } else {
        chess_order(t, after, tiebreaks)?
    };
    let mut cells = round_cells(t, after, scrabble, &people);
    let cols = crosstable_columns(after, scrabble, tiebreaks);
    let mut table = Table {
        headings: cols.iter().map(|c| c.0.clone()).collect(),
        right: cols.iter().map(|c| c.1).collect(),
        rows: Vec::new(),
    };
    let mut prev_rank = 0;
    for (id, rank, tail) in order {
        let mut row = vec![
            if rank == prev_rank {
                String::new()
            } else {
                rank.to_string()
            },
            people.number(id),
            people.get(id).map(|p| p.name.clone()).unwrap_or_default(),
            people.rating(id),
        ];
        prev_rank = rank;
        row.extend(cells.remove(&id).unwrap_or_default());
        row.extend(tail);
        table.rows.push(row);
    }
    Ok(Sheet {
        kind: "crosstable",
        heading: format!("{} — crosstable after round {after}", event_name(t)),
        table,
        notes: crosstable_notes(scrabble, tiebreaks),
    })
}

/// A crosstable row's player, rank and closing columns, in standings order.
type Ranked = Vec<(u32, u32, Vec<String>)>;

/// Scrabble order: wins, then spread; equal wins and spread share a rank.
fn scrabble_order(t: &Tournament, after: u32) -> Ranked {
    let st = Standings::before(t, after + 1);
    let wl = super::win_loss(t, after + 1);
    let mut out = Vec::new();
    let mut rank = 0;
    let mut prev: Option<(f64, i64)> = None;
    for (i, id) in st.by_wins_spread().into_iter().enumerate() {
        let s = st.get(id).expect("standing");
        if prev != Some((s.score, s.spread)) {
            rank = i as u32 + 1;
        }
        prev = Some((s.score, s.spread));
        let tail = vec![
            wl_text(wl.get(&id).copied().unwrap_or_default()),
            spread(s.spread),
        ];
        out.push((id, rank, tail));
    }
    out
}

/// Chess order: points, then the event's tie-breaks.
fn chess_order(t: &Tournament, after: u32, tiebreaks: &[Tiebreak]) -> Result<Ranked> {
    Ok(tiebreak::standings(t, after, tiebreaks)?
        .into_iter()
        .map(|r| {
            let mut tail = vec![points(r.score)];
            tail.extend(r.values.iter().map(|v| v.map(points).unwrap_or_default()));
            (r.id, r.rank, tail)
        })
        .collect())
}

/// Each player's cell for rounds 1..=after: game, bye, or "-" when not paired.
fn round_cells(
    t: &Tournament,
    after: u32,
    scrabble: bool,
    people: &People,
) -> BTreeMap<u32, Vec<String>> {
    let mut cells: BTreeMap<u32, Vec<String>> = t
        .players
        .iter()
        .map(|p| (p.id, vec!["-".to_string(); after as usize]))
        .collect();
    let s = &t.scoring;
    for r in t
        .rounds
        .iter()
        .filter(|r| r.number >= 1 && r.number <= after)
    {
        let i = (r.number - 1) as usize;
        let mut put = |id: u32, text: String| {
            if let Some(v) = cells.get_mut(&id) {
                v[i] = text;
            }
        };
        for g in &r.games {
            let (pw, pb) = g.result.points(s);
            for (me, opp, pts, col) in [(g.white, g.black, pw, 'w'), (g.black, g.white, pb, 'b')] {
                let text = if scrabble {
                    scrabble_cell(g, me, opp, pts, s, people)
                } else {
                    chess_cell(g, opp, pts, col, people)
                };
                put(me, text);
            }
        }
        for b in &r.byes {
            let letter = match b.kind {
                ByeKind::PairingAllocated => "U",
                ByeKind::Full => "F",
                ByeKind::Half => "H",
                ByeKind::Zero => "Z",
            };
            let text = match (scrabble, b.spread) {
                (true, Some(d)) => format!("bye {}", spread(i64::from(d))),
                (true, None) => "bye".into(),
                (false, _) => format!("{letter}{}", half(b.kind.points(s))),
            };
            put(b.player, text);
        }
    }
    cells
}

/// One Scrabble game's cell for `me`: W/L/T, the opponent's number, the spread ("W7 +120").
fn scrabble_cell(g: &Game, me: u32, opp: u32, pts: f64, s: &Scoring, people: &People) -> String {
    let wlt = match g.result {
        GameResult::Pending => "?",
        _ if milli(pts) == milli(s.win) => "W",
        _ if milli(pts) > milli(s.loss) => "T",
        _ => "L",
    };
    let opp = people.number(opp);
    match g.spread_for(me) {
        Some(d) => format!("{wlt}{opp} {}", spread(d)),
        None => format!("{wlt}{opp}"),
    }
}

/// One chess game's cell: the opponent's number, the colour when recorded, the result ("7w1").
fn chess_cell(g: &Game, opp: u32, pts: f64, col: char, people: &People) -> String {
    let col = if g.order == Order::Recorded {
        col.to_string()
    } else {
        String::new()
    };
    let res = match g.result {
        GameResult::Pending => String::new(),
        r if r.played() => half(pts),
        _ if pts > 0.0 => "+".into(),
        _ => "-".into(),
    };
    format!("{}{col}{res}", people.number(opp))
}

/// The crosstable's columns, each with whether it is right-aligned.
fn crosstable_columns(after: u32, scrabble: bool, tiebreaks: &[Tiebreak]) -> Vec<(String, bool)> {
    let mut cols: Vec<(String, bool)> = vec![
        ("Rk".into(), true),
        ("No".into(), true),
        ("Name".into(), false),
        ("Rtg".into(), true),
    ];
    for r in 1..=after {
        cols.push((r.to_string(), false));
    }
    if scrabble {
        cols.push(("W-L".into(), true));
        cols.push(("Spread".into(), true));
    } else {
        cols.push(("Pts".into(), true));
        cols.extend(tiebreaks.iter().map(|tb| (tb.heading(), true)));
    }
    cols
}

/// The key to the cells, and each tie-break's title and article.
fn crosstable_notes(scrabble: bool, tiebreaks: &[Tiebreak]) -> Vec<String> {
    if scrabble {
        return vec!["Cells: W/L/T, opponent's number, spread.".to_string()];
    }
    let mut n = vec![
        "Cells: opponent's number, colour (w/b), result; + / - forfeit won / lost; U pairing-allocated bye, F full-point bye, H half-point bye, Z zero-point bye; - not paired.".to_string(),
    ];
    n.extend(
        tiebreaks
            .iter()
            .map(|tb| format!("{}: {} ({})", tb.heading(), tb.title(), tb.article())),
    );
    n
}
