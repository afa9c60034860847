//! CSV player lists (`name,rating[,id]`) to start an event.
//!
//! * One player a line: `name,rating` or `name,rating,id`. A name holding commas or quotes is
//!   quoted (`"Smith, John",2100`; `""` is a quote inside quotes).
//! * An optional header line: the first line whose second field is not a number.
//! * Blank lines and lines starting with `#` are skipped; CR, LF or CRLF line endings.
//! * A blank rating is 0 (unrated).
//! * Without ids, ids (pairing numbers) are given 1..n by rating, highest first, then by name;
//!   the list comes back in id order. With an id on every line, those ids are kept and the file
//!   order too. Some lines with ids and some without is an error.

use crate::tournament::Player;
use crate::{Error, Result};
use std::collections::HashMap;

/// Splits one CSV line into trimmed fields (the `csv` crate; quoted fields keep their inner
/// spaces and commas, `""` is a quote inside quotes). The crate reads an unclosed quote to
/// the end of the input: that is refused here first, naming the line.
fn fields(line_no: usize, line: &str) -> Result<Vec<String>> {
    if line.matches('"').count() % 2 == 1 {
        let which = if line.trim_start().starts_with('"') {
            "name"
        } else {
            "field"
        };
        return Err(Error::at(
            line_no,
            which,
            "a quoted field is not closed (missing '\"')",
        ));
    }
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(::csv::Trim::All)
        .from_reader(line.as_bytes());
    let mut record = ::csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => Ok(record.iter().map(str::to_string).collect()),
        Ok(false) => Ok(vec![String::new()]),
        Err(e) => Err(Error::at(line_no, "name", format!("not a CSV line: {e}"))),
    }
}

struct Row {
    line: usize,
    name: String,
    rating: u32,
    id: Option<u32>,
}

/// Parses a player list. Ids are pairing numbers: given, or assigned by rating.
pub fn parse_players(text: &str) -> Result<Vec<Player>> {
    let mut rows: Vec<Row> = Vec::new();
    let mut first = true;
    for (n, line) in super::trf::split_lines(text) {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let f = fields(n, line)?;
        let is_first = std::mem::replace(&mut first, false);
        if is_first && f.len() >= 2 && f[1].parse::<u32>().is_err() && !f[1].is_empty() {
            continue; // header
        }
        if f.len() < 2 {
            return Err(Error::at(
                n,
                "rating",
                "expected 'name,rating' or 'name,rating,id': the rating is missing",
            ));
        }
        if f.len() > 3 {
            return Err(Error::at(
                n,
                "id",
                format!(
                    "{} fields; expected 'name,rating' or 'name,rating,id'",
                    f.len()
                ),
            ));
        }
        let name = f[0].clone();
        if name.is_empty() {
            return Err(Error::at(n, "name", "the name is empty"));
        }
        let rating = if f[1].is_empty() {
            0
        } else {
            f[1].parse::<u32>().map_err(|_| {
                Error::at(
                    n,
                    "rating",
                    format!("rating '{}' is not a whole number", f[1]),
                )
            })?
        };
        let id = match f.get(2).map(|s| s.as_str()) {
            None | Some("") => None,
            Some(s) => match s.parse::<u32>() {
                Ok(v) if v > 0 => Some(v),
                _ => {
                    return Err(Error::at(
                        n,
                        "id",
                        format!("id '{s}' is not a number of 1 or more"),
                    ))
                }
            },
        };
        rows.push(Row {
            line: n,
            name,
            rating,
            id,
        });
    }
    if rows.is_empty() {
        return Err(Error::field("players", "the player list has no players"));
    }

    let with_id = rows.iter().filter(|r| r.id.is_some()).count();
    if with_id == 0 {
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&rows[a], &rows[b]);
            y.rating
                .cmp(&x.rating)
                .then_with(|| x.name.to_lowercase().cmp(&y.name.to_lowercase()))
                .then_with(|| x.name.cmp(&y.name))
                .then(a.cmp(&b))
        });
        return Ok(order
            .into_iter()
            .enumerate()
            .map(|(i, k)| Player::new(i as u32 + 1, rows[k].name.clone(), rows[k].rating))
            .collect());
    }
    if with_id < rows.len() {
        let first_with = rows.iter().find(|r| r.id.is_some()).map_or(0, |r| r.line);
        let bad = rows.iter().find(|r| r.id.is_none()).map_or(0, |r| r.line);
        return Err(Error::at(
            bad,
            "id",
            format!(
                "this line has no id but line {first_with} has one: give an id on every line \
                 or on none"
            ),
        ));
    }
    let mut seen: HashMap<u32, usize> = HashMap::new();
    let mut out = Vec::new();
    for r in rows {
        let id = r.id.unwrap_or(0);
        if let Some(prev) = seen.insert(id, r.line) {
            return Err(Error::at(
                r.line,
                "id",
                format!("id {id} is used twice (first on line {prev})"),
            ));
        }
        out.push(Player::new(id, r.name, r.rating));
    }
    Ok(out)
}
