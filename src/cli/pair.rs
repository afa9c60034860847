//! `optipair pair`: pair a round, print it, optionally store it.

use super::{system_name, OutFormat};
use optipair::engine::{self, Paired};
use optipair::formats;
use optipair::solve::{Options, Status};
use optipair::tournament::edit::ranges;
use optipair::tournament::{GameResult, Tournament};
use optipair::{Error, Result, SystemKind};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct PairArgs {
    /// Tournament file (.json, .trf, a tsh .t, or a tsh event's config.tsh).
    file: PathBuf,
    /// Re-pair round N from the rounds before it (later rounds ignored).
    #[arg(long)]
    round: Option<u32>,
    /// Seconds for the whole command (0 to a week): the exact FIDE Dutch procedure has two
    /// thirds of them, then the tier model until 72%; then the legal fallback pairs the round
    /// until 85%, and the verifier checks it until 95%.
    #[arg(long, value_parser = super::seconds, default_value_t = super::DEFAULT_TIME_LIMIT)]
    time_limit: f64,
    #[arg(long, default_value = "text")]
    format: OutFormat,
    /// Store the round in FILE (atomically).
    #[arg(long)]
    write: bool,
    /// The pairing system (default: the file's `system`, else swiss).
    #[arg(long, value_parser = super::system::SystemParser)]
    system: Option<optipair::SystemKind>,
    /// Pair with the greedy procedural pass only (no solver).
    #[arg(long)]
    greedy: bool,
    /// Print solve seconds on stdout too (they always go to stderr); without it stdout is
    /// byte-identical for the same input.
    #[arg(long)]
    timing: bool,
    /// Pair this division only (an event with divisions pairs each on its own).
    #[arg(long)]
    division: Option<String>,
}

/// The time kept back for the output (the sheet, the stored file), as a part of the time
/// reading the file took: both are linear in the event's size.
const OUTPUT_PER_READ: f64 = 0.5;

pub fn run(a: PairArgs) -> Result<u8> {
    let started = std::time::Instant::now();
    // A writer holds the event's lock from the read to the write: no other run's change is
    // lost in between.
    let _lock = match a.write {
        true => Some(formats::paths::lock_for_change(&a.file)?),
        false => None,
    };
    let full = formats::load(&a.file)?;
    let system = system_name(&full, a.system, &a.file)?;
    // With --division, everything below looks at that division only.
    let t = match &a.division {
        Some(d) => full
            .named_division(d)
            .map_err(|e| super::as_flag(e).in_file(&a.file))?,
        None => full.clone(),
    };
    let round = round_to_pair(&a, &t, system)?;
    // On a terminal, a round that takes more than a couple of seconds shows how far it is.
    let (progress, line) = progress_line(round, std::time::Duration::from_secs(2));
    // The limit is the command's: reading the file took some of it, and printing and storing
    // the round take up to half as long again (at 10,000 players: RELIABILITY.md), kept back
    // from the round's shares.
    let read = started.elapsed().as_secs_f64();
    let opts = Options {
        time_limit: Some((a.time_limit - read * (1.0 + OUTPUT_PER_READ)).max(0.0)),
        greedy_only: a.greedy,
        progress,
        ..super::options()
    };
    if round == 1 && t.trf.read && t.initial_colour.is_none() {
        errln!(
            "note: the file gives no initial colour (XXC white1 or black1; TRF-2026 152 W or B): \
             round 1 gives the initial colour, white, to the top player (FIDE Dutch 2025 5.2.5); the \
             engine line refuses such a file, as the reference does"
        );
    }
    let paired = engine::pair_round(&t, round, system, &opts)
        .map_err(|e| super::as_flag(e).in_file(&a.file))?;
    drop(line);
    let (stored, paired) = stored_event(&a, &full, system, round, paired)?;
    report(&a, &t, round, paired, &stored)
}

/// The round to pair: `--round`, else the next one once the results it is paired from are
/// in; a `--write` that would overwrite a paired round or contradict a later one is refused.
fn round_to_pair(a: &PairArgs, t: &Tournament, system: SystemKind) -> Result<u32> {
    let last = t.last_paired_round();
    let round = match a.round {
        Some(r) => r,
        None => {
            // The next round, once the results it is paired from are in (with lagged
            // standings, tsh pairs ahead of the latest round's results).
            let needed = optipair::systems::model(system, &optipair::solve::PROGRAMS)
                .results_needed(t, last + 1)
                .map_err(|e| e.in_file(&a.file))?;
            for r in 1..=needed.min(last) {
                let Some(prev) = t.round(r) else { continue };
                let missing: Vec<usize> = prev
                    .games
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| g.result == GameResult::Pending)
                    .map(|(i, _)| i + 1)
                    .collect();
                if !missing.is_empty() {
                    return Err(Error::field(
                        "result",
                        format!(
                            "round {r} has no result on board{} {}; record them first (round {} is paired from the results of round {needed})",
                            if missing.len() == 1 { "" } else { "s" },
                            // Ranges: a 300-board round lacking most results stays one line.
                            ranges(&missing),
                            last + 1
                        ),
                    )
                    .in_file(&a.file));
                }
            }
            last + 1
        }
    };
    if a.write && t.round(round).is_some_and(|r| r.is_paired()) {
        return Err(Error::field(
            "--round",
            format!(
                "round {round} is already paired; --write would overwrite it (`optipair unpair \
                 FILE --round {round}` takes it back)"
            ),
        )
        .in_file(&a.file));
    }
    if a.write && last > round {
        return Err(Error::field(
            "--round",
            format!("rounds after {round} exist; --write would contradict them"),
        )
        .in_file(&a.file));
    }
    Ok(round)
}

/// The event as `--write` stores it: rounds after `round` dropped (requested byes kept), the
/// round stored with the acceleration's virtual points, in the board order a TRF or .t file
/// recomputes when read; `paired`'s games are put in that order too.
fn stored_event(
    a: &PairArgs,
    full: &Tournament,
    system: SystemKind,
    round: u32,
    paired: Paired,
) -> Result<(Tournament, Paired)> {
    // Later pairings are ignored: the output (and a write, which needs none) ends at `round`,
    // but requested byes already known for later rounds are kept (`optipair bye`).
    let mut upto = full.clone();
    upto.rounds.retain(|r| r.number <= round || !r.is_paired());
    let stored = engine::store(&upto, &paired);
    // Accelerations by derived points (PROG fictitious points, Baku, USCF added score) are
    // stored as virtual points — TRF `XXA` — so that another engine can replay the event.
    let stored = {
        let mut named = stored.clone();
        named.system.get_or_insert(system.to_string());
        match optipair::systems::with_virtual_points(&named) {
            Some(mut filled) => {
                filled.system = stored.system.clone();
                filled
            }
            None => stored,
        }
    };
    // A TRF or .t file cannot hold the order of boards: it is recomputed when the file is
    // read, so the round is printed in that order, the one `sheet` and `record` will use.
    let mut stored = stored;
    let mut paired = paired;
    if formats::kind_of(&a.file)? != formats::Kind::Json {
        optipair::tournament::boards::post_order(&mut stored, round);
        if let Some(rd) = stored.round(round) {
            let ours: std::collections::HashSet<(u32, u32)> = paired
                .round
                .games
                .iter()
                .map(|g| (g.white, g.black))
                .collect();
            paired.round.games = rd
                .games
                .iter()
                .filter(|g| ours.contains(&(g.white, g.black)))
                .cloned()
                .collect();
        }
    }
    Ok((stored, paired))
}

/// Prints the round (sheet, JSON or TRF), stores it with `--write` unless the verifier
/// rejected it, and says on standard error what was proved; the exit code.
fn report(
    a: &PairArgs,
    t: &Tournament,
    round: u32,
    paired: Paired,
    stored: &Tournament,
) -> Result<u8> {
    // A pairing the verifier rejects is never stored (the engine already tried the legal
    // fallback); the sheet below shows it with the findings, and the exit code says so.
    let rejected = paired.pairing.certificate.status == Status::Rejected;
    let mut shown = paired.clone();
    if !a.timing {
        shown.pairing.certificate.seconds = f64::NAN;
    }
    // The output is made before the file is written: a round that cannot be shown (TRF
    // cannot hold a Scrabble event) is not stored either.
    // TRF in the encoding `--write` keeps: a Windows-1252 file comes out in Windows-1252.
    let bytes = match a.format {
        OutFormat::Text => sheet(t, &shown).into_bytes(),
        OutFormat::Json => (json(t, &shown) + "\n").into_bytes(),
        OutFormat::Trf => formats::trf_bytes(stored).map_err(|e| e.in_file(&a.file))?,
    };
    if a.write && !rejected {
        formats::save(&a.file, stored)?;
    }
    errln!(
        "round {round}: {:?} in {:.3} s",
        paired.pairing.certificate.status,
        paired.pairing.certificate.seconds
    );
    let paired = shown;
    super::emit_bytes(&bytes)?;
    for v in &paired.violations {
        errln!("verifier: {}", v.message);
    }
    if paired
        .pairing
        .certificate
        .summary
        .ends_with("not fully verified within the time limit")
    {
        errln!(
            "warning: the verifier could not check round {round} whole within the time limit (see the notes): the pairing is not called optimal{}",
            if a.write { "; it was stored unverified" } else { "" }
        );
    }
    if rejected {
        errln!(
            "error: the verifier rejected the pairing of round {round}{}",
            if a.write { "; nothing was written" } else { "" }
        );
        return Ok(3);
    }
    Ok(0)
}

/// The pairing sheet: boards and byes (the shared renderer), then the certificate.
pub fn sheet(t: &Tournament, p: &Paired) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Round {} — {} — {}",
        p.round.number,
        p.system,
        optipair::spec::words::count(p.round.games.len() as i64, "game", "games")
    );
    // Boards with ratings, titles, federations and scores, then byes in words.
    s.push_str(&optipair::report::sheets::pairing_table(t, &p.round, p.system).text());
    for &u in &p.pairing.unpaired {
        let _ = writeln!(s, "  NOT PAIRED  {}", optipair::report::label(t, u));
    }
    for n in &p.notes {
        let _ = writeln!(s, "  Note: {n}");
    }
    let c = &p.pairing.certificate;
    // Without `--timing` the seconds are left out, so that the sheet is the same every run.
    let time = if c.seconds.is_finite() {
        format!(" — {:.3} s", c.seconds)
    } else {
        String::new()
    };
    let _ = writeln!(s, "Certificate: {:?} — {}{time}", c.status, c.summary);
    for line in c.lines() {
        let _ = writeln!(s, "  {line}");
    }
    if p.violations.is_empty() {
        let _ = writeln!(s, "Verifier: no rule broken.");
    } else {
        let _ = writeln!(s, "Verifier: {} violation(s):", p.violations.len());
        for v in &p.violations {
            let _ = writeln!(s, "  {}", v.message);
        }
    }
    s
}

/// The round as JSON. Players are named by the pairing numbers the director reads on the sheet
/// and types in `record` (after a late entry these differ from the internal ids), with names.
pub fn json(t: &Tournament, p: &Paired) -> String {
    let num = |id: u32| t.number_of(id);
    let name = |id: u32| t.player(id).map_or("", |pl| pl.name.as_str());
    let pairings: Vec<_> = p
        .round
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            serde_json::json!({
                "board": i + 1,
                "white": num(g.white),
                "black": num(g.black),
                "white_name": name(g.white),
                "black_name": name(g.black),
            })
        })
        .collect();
    let byes: Vec<_> = p
        .round
        .byes
        .iter()
        .map(|b| serde_json::json!({"player": num(b.player), "name": name(b.player), "kind": b.kind}))
        .collect();
    let unpaired: Vec<u32> = p.pairing.unpaired.iter().map(|&u| num(u)).collect();
    serde_json::to_string_pretty(&serde_json::json!({
        "round": p.round.number,
        "system": p.system,
        "pairings": pairings,
        "byes": byes,
        "unpaired": unpaired,
        "notes": p.notes,
        "certificate": p.pairing.certificate,
        "violations": p.violations,
    }))
    .expect("json")
}

/// Where a progress line stands: drawn once `after` has passed, at most every tenth of a
/// second, and wiped when the round is done.
struct LineState {
    started: std::time::Instant,
    after: std::time::Duration,
    last: Option<std::time::Instant>,
}

/// Wipes the progress line when dropped (the round is done), if one was drawn.
pub struct ProgressLine(Option<std::sync::Arc<std::sync::Mutex<LineState>>>);

impl Drop for ProgressLine {
    fn drop(&mut self) {
        let drawn = self
            .0
            .as_ref()
            .is_some_and(|s| s.lock().is_ok_and(|s| s.last.is_some()));
        if drawn {
            use std::io::Write as _;
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}

/// A progress line for round `round` on standard error ("round 15: bracket 3 of 28, 4.2 s"),
/// rewritten in place with `\r` once the round has taken `after`; none at all when standard
/// error is not a terminal, so that a pipe or a log never gets one.
pub fn progress_line(
    round: u32,
    after: std::time::Duration,
) -> (Option<optipair::solve::Progress>, ProgressLine) {
    use std::io::IsTerminal as _;
    if !std::io::stderr().is_terminal() {
        return (None, ProgressLine(None));
    }
    let state = std::sync::Arc::new(std::sync::Mutex::new(LineState {
        started: std::time::Instant::now(),
        after,
        last: None,
    }));
    let shared = state.clone();
    let hook = optipair::solve::Progress::new(move |step| {
        let Ok(mut s) = shared.lock() else { return };
        let now = std::time::Instant::now();
        let due = s
            .last
            .is_none_or(|l| now - l >= std::time::Duration::from_millis(100));
        if now - s.started < s.after || !due {
            return;
        }
        s.last = Some(now);
        let what = match step {
            optipair::solve::Step::Bracket { done, of } => {
                format!("bracket {} of {of}", done + 1)
            }
            optipair::solve::Step::Tier { done, of } => format!("tier {} of {of}", done + 1),
        };
        use std::io::Write as _;
        let secs = (now - s.started).as_secs_f64();
        let _ = write!(
            std::io::stderr(),
            "\r\x1b[Kround {round}: {what}, {secs:.1} s"
        );
    });
    (Some(hook), ProgressLine(Some(state)))
}
