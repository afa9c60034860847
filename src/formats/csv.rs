//! CSV player lists to start an event.
//!
//! * With a header row (the first line that is not blank or a `#` comment, when it names a
//!   column or its second field is not a number): the columns in any order, named as the
//!   managers' exports name them (case, spaces, dots, dashes and underscores ignored) — name
//!   (`name`, `player`, `full name`; or `last name` / `surname` with `first name`, read as
//!   "Last, First"), rating (`rating`, `elo`, `fide rating`, `rtg`), id (`id`, `no`, `nr`,
//!   `number`, `pairing number`, `start rank`, `snr`), title, federation (`fed`, `country`),
//!   FIDE id (`fide id`, `fide no`), birth date (`birth date`, `born`, `dob`, `birth year`),
//!   sex (`gender`), club (`team`). A column optipair does not know is an error naming it; so
//!   is a row with another number of fields than the header. Comma, semicolon or tab
//!   separated, as the header line is.
//! * Without a header: `name,rating` or `name,rating,id` per line.
//! * A name holding the separator or quotes is quoted (`"Smith, John",2100`; `""` is a quote
//!   inside quotes). Blank lines and lines starting with `#` are skipped; CR, LF or CRLF.
//! * A blank rating is 0 (unrated); other blank fields are left unset.
//! * Without ids, ids (pairing numbers) are given 1..n by rating, highest first, then by name;
//!   the list comes back in id order. With an id on every line, those ids are kept and the file
//!   order too. Some lines with ids and some without is an error.

use crate::tournament::Player;
use crate::{Error, Result};
use std::collections::HashMap;

/// Splits one line into trimmed fields on `sep` (the `csv` crate; quoted fields keep their
/// inner spaces and separators, `""` is a quote inside quotes). The crate reads an unclosed
/// quote to the end of the input: that is refused here first, naming the line.
fn fields(line_no: usize, line: &str, sep: u8) -> Result<Vec<String>> {
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
        .delimiter(sep)
        .trim(::csv::Trim::All)
        .from_reader(line.as_bytes());
    let mut record = ::csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => Ok(record.iter().map(str::to_string).collect()),
        Ok(false) => Ok(vec![String::new()]),
        Err(e) => Err(Error::at(line_no, "name", format!("not a CSV line: {e}"))),
    }
}

/// A column of a player list with a header.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Column {
    Name,
    Last,
    First,
    Rating,
    Id,
    Title,
    Federation,
    FideId,
    BirthDate,
    Sex,
    Club,
}

/// The column a header names, by the spellings of the common exports.
fn column(header: &str) -> Option<Column> {
    let key: String = header
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    Some(match key.as_str() {
        "name" | "player" | "playername" | "fullname" | "names" => Column::Name,
        "lastname" | "surname" | "familyname" => Column::Last,
        "firstname" | "givenname" | "forename" => Column::First,
        "rating" | "elo" | "fiderating" | "rtg" | "ratingfide" | "elofide" => Column::Rating,
        "id" | "no" | "nr" | "number" | "pairingnumber" | "startrank" | "snr" | "startno" => {
            Column::Id
        }
        "title" | "tit" | "fidetitle" => Column::Title,
        "federation" | "fed" | "country" | "nation" => Column::Federation,
        "fideid" | "fideno" | "fidenumber" | "fidecode" | "idfide" => Column::FideId,
        "birthdate" | "birth" | "born" | "dateofbirth" | "dob" | "birthyear" | "yearofbirth" => {
            Column::BirthDate
        }
        "sex" | "gender" => Column::Sex,
        "club" | "team" | "clubname" => Column::Club,
        _ => return None,
    })
}

/// The separator of a list: the header's semicolons or tabs when it has no comma.
fn separator(first: &str) -> u8 {
    match (
        first.contains(','),
        first.contains(';'),
        first.contains('\t'),
    ) {
        (false, true, _) => b';',
        (false, false, true) => b'\t',
        _ => b',',
    }
}

struct Row {
    line: usize,
    player: Player,
    id: Option<u32>,
}

/// Parses a player list. Ids are pairing numbers: given, or assigned by rating.
pub fn parse_players(text: &str) -> Result<Vec<Player>> {
    let lines: Vec<(usize, &str)> = super::trf::split_lines(text)
        .into_iter()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with('#'))
        .collect();
    let Some(&(n0, first)) = lines.first() else {
        return Err(Error::field("players", "the player list has no players"));
    };
    let sep = separator(first);
    let f = fields(n0, first, sep)?;
    let is_header = f.iter().any(|h| column(h).is_some())
        || (f.len() >= 2 && f[1].parse::<u32>().is_err() && !f[1].is_empty());
    let mut rows = Vec::new();
    if is_header {
        let columns = header(n0, &f)?;
        for &(n, line) in &lines[1..] {
            rows.push(row_with_header(n, &fields(n, line, sep)?, &columns, n0)?);
        }
    } else {
        for &(n, line) in &lines {
            rows.push(plain_row(n, &fields(n, line, b',')?)?);
        }
    }
    if rows.is_empty() {
        return Err(Error::field("players", "the player list has no players"));
    }
    numbered(rows)
}

/// The header's columns; an unknown or repeated column, or none for the name, is an error.
fn header(n: usize, f: &[String]) -> Result<Vec<Column>> {
    let mut out: Vec<Column> = Vec::new();
    for h in f {
        let Some(c) = column(h) else {
            return Err(Error::at(
                n,
                h,
                format!(
                    "unknown column '{h}': the columns read are name (or last name and first \
                     name), rating, id, title, federation, FIDE id, birth date, sex and club"
                ),
            ));
        };
        if out.contains(&c) {
            return Err(Error::at(n, h, format!("column '{h}' is given twice")));
        }
        out.push(c);
    }
    if !out.contains(&Column::Name) && !out.contains(&Column::Last) {
        return Err(Error::at(
            n,
            "name",
            "the header has no name column (name, or last name and first name)",
        ));
    }
    Ok(out)
}

/// One row read by the header's columns.
fn row_with_header(n: usize, f: &[String], columns: &[Column], head: usize) -> Result<Row> {
    if f.len() != columns.len() {
        return Err(Error::at(
            n,
            "fields",
            format!(
                "{} fields, but the header (line {head}) names {} columns",
                f.len(),
                columns.len()
            ),
        ));
    }
    let get = |c: Column| {
        columns
            .iter()
            .position(|&k| k == c)
            .map(|i| f[i].clone())
            .filter(|v| !v.is_empty())
    };
    let name = match (get(Column::Name), get(Column::Last), get(Column::First)) {
        (Some(name), _, _) => name,
        (None, Some(last), Some(first)) => format!("{last}, {first}"),
        (None, Some(last), None) => last,
        _ => return Err(Error::at(n, "name", "the name is empty")),
    };
    let mut player = Player::new(0, name, rating(n, get(Column::Rating).as_deref())?);
    player.title = get(Column::Title);
    player.federation = get(Column::Federation);
    player.fide_id = get(Column::FideId);
    player.birth_date = get(Column::BirthDate);
    player.sex = get(Column::Sex);
    player.club = get(Column::Club);
    Ok(Row {
        line: n,
        player,
        id: id(n, get(Column::Id).as_deref())?,
    })
}

/// One `name,rating[,id]` row.
fn plain_row(n: usize, f: &[String]) -> Result<Row> {
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
                "{} fields; expected 'name,rating' or 'name,rating,id' (or a header row naming \
                 the columns)",
                f.len()
            ),
        ));
    }
    if f[0].is_empty() {
        return Err(Error::at(n, "name", "the name is empty"));
    }
    Ok(Row {
        line: n,
        player: Player::new(0, f[0].clone(), rating(n, Some(&f[1]))?),
        id: id(n, f.get(2).map(String::as_str))?,
    })
}

fn rating(n: usize, v: Option<&str>) -> Result<u32> {
    match v {
        None | Some("") => Ok(0),
        Some(v) => v
            .parse::<u32>()
            .map_err(|_| Error::at(n, "rating", format!("rating '{v}' is not a whole number"))),
    }
}

fn id(n: usize, v: Option<&str>) -> Result<Option<u32>> {
    match v {
        None | Some("") => Ok(None),
        Some(s) => match s.parse::<u32>() {
            Ok(v) if v > 0 => Ok(Some(v)),
            _ => Err(Error::at(
                n,
                "id",
                format!("id '{s}' is not a number of 1 or more"),
            )),
        },
    }
}

/// Ids as given on every row, or 1..n by rating then name on none.
fn numbered(rows: Vec<Row>) -> Result<Vec<Player>> {
    let with_id = rows.iter().filter(|r| r.id.is_some()).count();
    if with_id == 0 {
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&rows[a].player, &rows[b].player);
            y.rating
                .cmp(&x.rating)
                .then_with(|| x.name.to_lowercase().cmp(&y.name.to_lowercase()))
                .then_with(|| x.name.cmp(&y.name))
                .then(a.cmp(&b))
        });
        return Ok(order
            .into_iter()
            .enumerate()
            .map(|(i, k)| Player {
                id: i as u32 + 1,
                ..rows[k].player.clone()
            })
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
        out.push(Player { id, ..r.player });
    }
    Ok(out)
}
