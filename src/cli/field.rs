//! `enter`, `withdraw`, `return`, `bye`, `unpair`, `record`: the changes a director makes to
//! the field and the rounds between rounds. Each takes the event's lock (waiting a few
//! seconds for another run that holds it), checks everything first (exit 2 naming the file
//! and field, the file untouched), stores the event atomically, and prints one line per
//! change.

use optipair::formats;
use optipair::tournament::edit::{self, Edit, Entry};
use optipair::tournament::{ByeKind, Tournament};
use optipair::{Error, Result};
use std::path::{Path, PathBuf};

/// Requested bye kinds as typed.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    Half,
    Zero,
    Full,
    /// No bye: removes a requested bye (`bye` only).
    None,
}

impl Kind {
    fn bye(self) -> Option<ByeKind> {
        match self {
            Kind::Half => Some(ByeKind::Half),
            Kind::Zero => Some(ByeKind::Zero),
            Kind::Full => Some(ByeKind::Full),
            Kind::None => None,
        }
    }
}

#[derive(clap::Args)]
pub struct EnterArgs {
    /// Tournament file.
    file: PathBuf,
    #[arg(long)]
    name: String,
    /// Rating; 0 for unrated.
    #[arg(long)]
    rating: u32,
    /// FIDE title (GM, IM, WGM, FM, WIM, CM, WFM, WCM, or the TRF codes g, m, wg …).
    #[arg(long)]
    title: Option<String>,
    /// Federation, three letters.
    #[arg(long)]
    fed: Option<String>,
    #[arg(long)]
    fide_id: Option<String>,
    /// The division the player enters (events with divisions).
    #[arg(long)]
    division: Option<String>,
    /// First round played (default: the round after the last paired one).
    #[arg(long)]
    from_round: Option<u32>,
    /// What each missed round scores: a requested bye of this kind.
    #[arg(long, value_enum, default_value = "zero")]
    missed_byes: Kind,
}

#[derive(clap::Args)]
pub struct WithdrawArgs {
    file: PathBuf,
    /// Player: pairing number (as the sheets show it) or exact name.
    player: String,
    /// First round not played.
    #[arg(long)]
    from_round: u32,
    /// The player's division (events with divisions number each from 1).
    #[arg(long)]
    division: Option<String>,
}

#[derive(clap::Args)]
pub struct ByeArgs {
    file: PathBuf,
    /// Player: pairing number (as the sheets show it) or exact name.
    player: String,
    /// The player's division (events with divisions number each from 1).
    #[arg(long)]
    division: Option<String>,
    /// Round(s): `3`, `3,4`, or the option repeated.
    #[arg(long, value_delimiter = ',', required = true)]
    round: Vec<u32>,
    /// `none` removes a requested bye.
    #[arg(long, value_enum)]
    kind: Kind,
}

#[derive(clap::Args)]
pub struct UnpairArgs {
    file: PathBuf,
    #[arg(long)]
    round: u32,
    /// Unpair even though results are recorded (they are removed too).
    #[arg(long)]
    force: bool,
    /// Unpair this division's pairing only.
    #[arg(long)]
    division: Option<String>,
}

#[derive(clap::Args)]
pub struct RecordArgs {
    file: PathBuf,
    #[arg(long)]
    round: u32,
    /// File with the result lines (standard input if absent).
    #[arg(long)]
    results: Option<PathBuf>,
    /// Show what would be stored; store nothing.
    #[arg(long)]
    dry_run: bool,
    /// The division the results are for: its boards and its players' numbers (required when
    /// the event has several).
    #[arg(long)]
    division: Option<String>,
}

/// Checks the changed event like a loaded one, stores it, prints the changes.
fn finish(file: &Path, edit: Result<Edit>) -> Result<u8> {
    let Edit {
        tournament,
        changes,
    } = edit.map_err(|e| super::as_flag(e).in_file(file))?;
    if changes.is_empty() {
        outln!("{}: nothing to change", file.display());
        return Ok(0);
    }
    tournament.validate().map_err(|e| e.in_file(file))?;
    formats::save(file, &tournament)?;
    for c in &changes {
        outln!("{}: {c}", file.display());
    }
    Ok(0)
}

/// The player `text` names (a pairing number or a name), within `division` when given.
fn player(t: &Tournament, file: &Path, text: &str, division: Option<&str>) -> Result<u32> {
    let scope = match division {
        Some(d) => t
            .named_division(d)
            .map_err(|e| super::as_flag(e).in_file(file))?,
        None => t.clone(),
    };
    edit::find_player(&scope, text).map_err(|e| e.in_file(file))
}

/// The part of the event `record` works on: the division named, else the whole event (which
/// must then have one division, each numbering its boards and players from 1).
fn record_scope(t: &Tournament, file: &Path, division: Option<&str>) -> Result<Tournament> {
    match division {
        Some(d) => t
            .named_division(d)
            .map_err(|e| super::as_flag(e).in_file(file)),
        None if t.divisions().len() > 1 => Err(Error::field(
            "--division",
            format!(
                "the event has divisions {}, each with its own boards: choose one with \
                 --division",
                t.division_names()
            ),
        )
        .in_file(file)),
        None => Ok(t.clone()),
    }
}

pub fn enter(a: EnterArgs) -> Result<u8> {
    let _lock = formats::paths::lock_for_change(&a.file)?;
    let t = formats::load(&a.file)?;
    let missed = a.missed_byes.bye().ok_or_else(|| {
        Error::field("--missed-byes", "missed rounds score half, zero or full").in_file(&a.file)
    })?;
    // Division names as tsh's: any case; an event of one division answers to its name.
    let division = match a.division {
        Some(d) if t.divisions() == [None] => {
            t.named_division(&d)
                .map_err(|e| super::as_flag(e).in_file(&a.file))?;
            None
        }
        Some(d) => Some(
            t.divisions()
                .into_iter()
                .flatten()
                .find(|x| x.eq_ignore_ascii_case(&d))
                .unwrap_or(d),
        ),
        None => None,
    };
    let e = Entry {
        name: a.name,
        rating: a.rating,
        title: a.title,
        federation: a.fed,
        fide_id: a.fide_id,
        division,
        from_round: a.from_round,
        missed,
    };
    finish(&a.file, edit::enter(&t, &e))
}

pub fn withdraw(a: WithdrawArgs) -> Result<u8> {
    let _lock = formats::paths::lock_for_change(&a.file)?;
    let t = formats::load(&a.file)?;
    let id = player(&t, &a.file, &a.player, a.division.as_deref())?;
    finish(&a.file, edit::withdraw(&t, id, a.from_round))
}

pub fn return_player(a: WithdrawArgs) -> Result<u8> {
    let _lock = formats::paths::lock_for_change(&a.file)?;
    let t = formats::load(&a.file)?;
    let id = player(&t, &a.file, &a.player, a.division.as_deref())?;
    finish(&a.file, edit::return_player(&t, id, a.from_round))
}

pub fn bye(a: ByeArgs) -> Result<u8> {
    let _lock = formats::paths::lock_for_change(&a.file)?;
    let t = formats::load(&a.file)?;
    let id = player(&t, &a.file, &a.player, a.division.as_deref())?;
    finish(&a.file, edit::bye(&t, id, &a.round, a.kind.bye()))
}

pub fn unpair(a: UnpairArgs) -> Result<u8> {
    let _lock = formats::paths::lock_for_change(&a.file)?;
    let t = formats::load(&a.file)?;
    finish(
        &a.file,
        edit::unpair(&t, a.round, a.force, a.division.as_deref()),
    )
}

/// `record`: every line checked, then each correction reported (`board 12 (5 v 9): 1-0 →
/// 0-1`) and the boards still without a result listed as ranges; `--dry-run` stores nothing.
pub fn record(a: RecordArgs) -> Result<u8> {
    // Held from the read to the write, so that two `record`s at once both land.
    let _lock = match a.dry_run {
        false => Some(formats::paths::lock_for_change(&a.file)?),
        true => None,
    };
    let mut t = formats::load(&a.file)?;
    let (text, src) = match &a.results {
        Some(p) => (formats::read_text(p)?, p.clone()),
        None => {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
                .map_err(|e| Error::io(Path::new("<stdin>"), e))?;
            (s, PathBuf::from("<stdin>"))
        }
    };
    let scope = record_scope(&t, &a.file, a.division.as_deref())?;
    let plan = formats::results::plan(&scope, a.round, &text).map_err(|e| e.in_file(&src))?;
    let f = a.file.display();
    let round = a.round;
    if a.dry_run {
        for l in &plan.lines {
            outln!("{f}: would record {}", l.describe());
        }
    } else {
        formats::results::store(&mut t, &plan);
        formats::save(&a.file, &t)?;
        // Every result echoed with its players, so that a board typed wrong shows at once.
        for l in &plan.lines {
            let verb = if l.is_correction() {
                "corrected"
            } else if l.is_unchanged() {
                "unchanged"
            } else {
                "recorded"
            };
            outln!("{f}: {verb} {}", l.describe());
        }
    }
    let n = plan.lines.len();
    let corrected = plan.lines.iter().filter(|l| l.is_correction()).count();
    let unchanged = plan.lines.iter().filter(|l| l.is_unchanged()).count();
    let mut extra = Vec::new();
    if corrected > 0 {
        extra.push(format!("{corrected} corrected"));
    }
    if unchanged > 0 {
        extra.push(format!("{unchanged} unchanged"));
    }
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!(" ({})", extra.join(", "))
    };
    let n = optipair::spec::words::count(n as i64, "result", "results");
    if a.dry_run {
        outln!("{f}: dry run: {n} checked for round {round}{extra}; nothing stored");
    } else {
        outln!("{f}: {n} recorded in round {round}{extra}");
    }
    if !plan.missing.is_empty() {
        outln!(
            "{f}: round {round} has no result yet on board{} {}",
            if plan.missing.len() == 1 { "" } else { "s" },
            posted(&plan)
        );
    }
    Ok(0)
}

/// The boards of `plan` still without a result, as the sheet posts them: ranges of board
/// numbers (`3-40, 42`), or tsh's tables as `config tables` names them.
fn posted(plan: &formats::results::Plan) -> String {
    let numbers: Option<Vec<u64>> = plan.missing_labels.iter().map(|l| l.parse().ok()).collect();
    match numbers {
        Some(n) => edit::ranges(&n),
        None => plan.missing_labels.join(", "),
    }
}
