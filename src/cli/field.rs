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
    /// Player: id or exact name.
    player: String,
    /// First round not played.
    #[arg(long)]
    from_round: u32,
}

#[derive(clap::Args)]
pub struct ByeArgs {
    file: PathBuf,
    /// Player: id or exact name.
    player: String,
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
}

/// Checks the changed event like a loaded one, stores it, prints the changes.
fn finish(file: &Path, edit: Result<Edit>) -> Result<u8> {
    let Edit {
        tournament,
        changes,
    } = edit.map_err(|e| e.in_file(file))?;
    if changes.is_empty() {
        outln!("{}: nothing to change", file.display());
        return Ok(0);
    }
    tournament.validate().map_err(|e| e.in_file(file))?;
    formats::save(file, &tournament)?;
    for c in &changes {
        outln!("{}: {c}", file.display());
    }
    if tournament.renumbered() && formats::kind_of(file)? == formats::Kind::Trf {
        // TRF has one number per player: the pairing number, so ids move with it.
        outln!(
            "{}: note: TRF holds one number per player, so the file now numbers every player \
             by pairing number (start rank); use those numbers from now on",
            file.display()
        );
    }
    Ok(0)
}

fn player(t: &Tournament, file: &Path, text: &str) -> Result<u32> {
    edit::find_player(t, text).map_err(|e| e.in_file(file))
}

pub fn enter(a: EnterArgs) -> Result<u8> {
    let _lock = formats::paths::lock_for_change(&a.file)?;
    let t = formats::load(&a.file)?;
    let missed = a.missed_byes.bye().ok_or_else(|| {
        Error::field("--missed-byes", "missed rounds score half, zero or full").in_file(&a.file)
    })?;
    let e = Entry {
        name: a.name,
        rating: a.rating,
        title: a.title,
        federation: a.fed,
        fide_id: a.fide_id,
        division: a.division,
        from_round: a.from_round,
        missed,
    };
    finish(&a.file, edit::enter(&t, &e))
}

pub fn withdraw(a: WithdrawArgs) -> Result<u8> {
    let _lock = formats::paths::lock_for_change(&a.file)?;
    let t = formats::load(&a.file)?;
    let id = player(&t, &a.file, &a.player)?;
    finish(&a.file, edit::withdraw(&t, id, a.from_round))
}

pub fn return_player(a: WithdrawArgs) -> Result<u8> {
    let _lock = formats::paths::lock_for_change(&a.file)?;
    let t = formats::load(&a.file)?;
    let id = player(&t, &a.file, &a.player)?;
    finish(&a.file, edit::return_player(&t, id, a.from_round))
}

pub fn bye(a: ByeArgs) -> Result<u8> {
    let _lock = formats::paths::lock_for_change(&a.file)?;
    let t = formats::load(&a.file)?;
    let id = player(&t, &a.file, &a.player)?;
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
    let plan = formats::results::plan(&t, a.round, &text).map_err(|e| e.in_file(&src))?;
    let f = a.file.display();
    let round = a.round;
    if a.dry_run {
        for l in &plan.lines {
            outln!("{f}: would record {}", l.describe());
        }
    } else {
        formats::results::store(&mut t, &plan);
        formats::save(&a.file, &t)?;
        for l in plan.lines.iter().filter(|l| l.is_correction()) {
            outln!("{f}: corrected {}", l.describe());
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
    if a.dry_run {
        outln!("{f}: dry run: {n} results checked for round {round}{extra}; nothing stored");
    } else {
        outln!("{f}: {n} results recorded in round {round}{extra}");
    }
    if !plan.missing.is_empty() {
        outln!(
            "{f}: round {round} has no result yet on board{} {}",
            if plan.missing.len() == 1 { "" } else { "s" },
            edit::ranges(&plan.missing)
        );
    }
    Ok(0)
}
