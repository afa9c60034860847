//! Finds rounds that exhibit each FIDE Dutch 2025 criterion, for golden tests: for every
//! recorded round of the TRF files given, pairings one local change away from the recorded
//! one (two pairs of a bracket swapping partners, a downfloater taking a player's place, the
//! bye moved, a pair's colours reversed) are compared with it by `verify::dutch::compare`;
//! the first criterion on which the change is worse names what the round exhibits. Prints,
//! per criterion (or step of the order of article 4), the smallest field that shows it.
//!
//!   cargo run --release --example dutch_golden -- [--emit DIR] FILE.trf...
//!
//! `--emit DIR` writes each example as `DIR/dutch_2025_<name>.trf`: the tournament before the
//! round (rounds planned set, so that the reference engine pairs that round), and lists the
//! alternatives for the test table.

use optipair::tournament::{ByeKind, GameResult};
use optipair::verify::dutch::{self, Comparison, Pairing};
use std::collections::BTreeMap;

type Found = BTreeMap<String, (usize, String, u32, String, String)>;

fn note(best: &mut Found, label: &str, size: usize, file: &str, k: u32, alt: String, why: String) {
    let e = best.entry(label.to_string()).or_insert((
        usize::MAX,
        String::new(),
        0,
        String::new(),
        String::new(),
    ));
    if size < e.0 {
        *e = (size, file.to_string(), k, alt, why);
    }
}

/// The fixture name of a label: `C12`, `5.2.1`, `4.3_exchange`, ...
fn slug(label: &str) -> String {
    let l = label.trim_start_matches("FIDE Dutch 2025 ");
    if let Some(c) = l.strip_prefix("C.") {
        return format!("C{c}");
    }
    match label {
        dutch::order::MDP_SET => "4.4_mdp_set".into(),
        dutch::order::MDP_TRANSPOSITION => "4.2_mdp_transposition".into(),
        dutch::order::EXCHANGE => "4.3_exchange".into(),
        dutch::order::TRANSPOSITION => "4.2_transposition".into(),
        _ => l.replace(' ', "_"),
    }
}

/// `--explain FIXTURE.trf ROUND "1-2 3-4 bye 5"`: the brackets of the reference engine's
/// pairing (FIXTURE.expected) and of the pairing given, and how they compare.
fn explain(args: &[String]) {
    let (Some(file), Some(k), Some(alt)) = (
        args.first(),
        args.get(1).and_then(|k| k.parse::<u32>().ok()),
        args.get(2),
    ) else {
        eprintln!("--explain FIXTURE.trf ROUND PAIRING");
        return;
    };
    let Ok(t) = optipair::formats::load(std::path::Path::new(file)) else {
        eprintln!("cannot read {file}");
        return;
    };
    let exp = std::fs::read_to_string(file.replace(".trf", ".expected")).unwrap_or_default();
    let mut want = Pairing::default();
    for line in exp.lines().skip(1) {
        let v: Vec<u32> = line
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        match v.as_slice() {
            [b, 0] => want.bye = Some(*b),
            [w, b] => want.games.push((*w, *b)),
            _ => {}
        }
    }
    let mut other = Pairing::default();
    let mut it = alt.split_whitespace();
    while let Some(w) = it.next() {
        if w == "bye" {
            other.bye = it.next().and_then(|x| x.parse().ok());
        } else if let Some((a, b)) = w.split_once('-') {
            if let (Ok(a), Ok(b)) = (a.parse(), b.parse()) {
                other.games.push((a, b));
            }
        }
    }
    for (name, p) in [("reference", &want), ("other", &other)] {
        println!("{name}: {}", p.text());
        if let Ok(reports) = dutch::criteria(&t, k, p) {
            for r in reports {
                let vals: Vec<String> = r
                    .criteria
                    .iter()
                    .filter(|c| c.value.iter().any(|&v| v != 0))
                    .map(|c| {
                        format!(
                            "{}={:?}",
                            c.article.trim_start_matches("FIDE Dutch 2025 "),
                            c.value
                        )
                    })
                    .collect();
                println!(
                    "  bracket {} (score {}): MDPs {:?} residents {:?} pairs {:?} downfloaters {:?} {} {:?}",
                    r.bracket,
                    dutch::state::show(r.score),
                    r.mdps,
                    r.residents,
                    r.pairs,
                    r.downfloaters,
                    vals.join(" "),
                    r.violations.iter().map(|v| v.message.clone()).collect::<Vec<_>>()
                );
            }
        }
    }
    let st = dutch::state::RoundState::new(&t, k);
    for p in &st.players {
        println!(
            "  player {} score {} colours {:?} pref {:?} floats {:?} met {:?} pab_bar {:?} unplayed {} top {}",
            p.id,
            dutch::state::show(p.score),
            p.colours,
            p.pref,
            p.floats,
            p.met,
            p.pab_bar,
            p.unplayed,
            p.topscorer
        );
    }
    println!("{}", dutch::compare(&t, k, &want, &other));
}

fn main() {
    let mut best: Found = BTreeMap::new();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--explain") {
        explain(&args[1..]);
        return;
    }
    let emit = match args.iter().position(|a| a == "--emit") {
        Some(i) if i + 1 < args.len() => {
            let d = args.remove(i + 1);
            args.remove(i);
            Some(d)
        }
        _ => None,
    };
    for file in args {
        let Ok(mut t) = optipair::formats::load(std::path::Path::new(&file)) else {
            continue;
        };
        if t.rounds_planned.is_none() {
            t.rounds_planned = t.rounds.iter().map(|r| r.number).max();
        }
        let rounds: Vec<u32> = t
            .rounds
            .iter()
            .filter(|r| r.is_paired())
            .map(|r| r.number)
            .collect();
        for k in rounds {
            let Some(p) = Pairing::recorded(&t, k) else {
                continue;
            };
            let before = t.before_round(k);
            let Ok(reports) = dutch::criteria(&before, k, &p) else {
                continue;
            };
            let size = p.games.len() * 2 + usize::from(p.bye.is_some());
            // Absences: a player who played before and is absent now (a withdrawal, as TRF
            // records one), a player paired now for the first time after round 1 (late entry).
            let rd = |r: u32| t.round(r);
            let played_before = |id: u32| {
                (1..k).any(|r| {
                    rd(r).is_some_and(|x| {
                        x.games.iter().any(|g| g.white == id || g.black == id)
                            || x.byes
                                .iter()
                                .any(|b| b.player == id && b.kind == ByeKind::PairingAllocated)
                    })
                })
            };
            let in_round =
                |id: u32| p.games.iter().any(|&(w, b)| w == id || b == id) || p.bye == Some(id);
            for pl in &t.players {
                if !in_round(pl.id) && played_before(pl.id) && k < t.rounds_planned.unwrap_or(k) {
                    note(
                        &mut best,
                        "withdrawal",
                        size,
                        &file,
                        k,
                        String::new(),
                        format!("{} absent after playing", pl.id),
                    );
                }
                if in_round(pl.id) && k > 1 && !played_before(pl.id) {
                    note(
                        &mut best,
                        "late entry",
                        size,
                        &file,
                        k,
                        String::new(),
                        format!("{} paired for the first time", pl.id),
                    );
                }
            }
            let mut alts: Vec<Pairing> = Vec::new();
            let games = p.games.clone();
            let with = |repl: &[(usize, (u32, u32))], bye: Option<u32>| -> Pairing {
                let mut g = games.clone();
                for &(i, pr) in repl {
                    g[i] = pr;
                }
                Pairing { games: g, bye }
            };
            let gi = |a: u32| games.iter().position(|&(w, b)| w == a || b == a);
            for r in &reports {
                for (x, &(a, b)) in r.pairs.iter().enumerate() {
                    let i = gi(a).unwrap_or(0);
                    alts.push(with(&[(i, (b, a))], p.bye));
                    for &(c, d) in r.pairs.iter().skip(x + 1) {
                        let j = gi(c).unwrap_or(0);
                        alts.push(with(&[(i, (a, d)), (j, (c, b))], p.bye));
                        alts.push(with(&[(i, (a, c)), (j, (b, d))], p.bye));
                    }
                    // A pair of this bracket broken up with a pair made lower down.
                    for later in reports.iter().filter(|q| q.bracket > r.bracket) {
                        for &(c, d) in &later.pairs {
                            let j = gi(c).unwrap_or(0);
                            alts.push(with(&[(i, (a, c)), (j, (b, d))], p.bye));
                        }
                    }
                    for &f in &r.downfloaters {
                        match gi(f) {
                            Some(j) => {
                                let (w, bl) = games[j];
                                let y = if w == f { bl } else { w };
                                alts.push(with(&[(i, (f, b)), (j, (a, y))], p.bye));
                                alts.push(with(&[(i, (a, f)), (j, (b, y))], p.bye));
                            }
                            None => {
                                alts.push(with(&[(i, (f, b))], Some(a)));
                                alts.push(with(&[(i, (a, f))], Some(b)));
                            }
                        }
                    }
                }
            }
            for alt in alts {
                let c = dutch::compare(&before, k, &p, &alt);
                let label = match &c {
                    Comparison::Criterion {
                        article,
                        a_better: true,
                        ..
                    } => article.clone(),
                    Comparison::Colours {
                        article,
                        a_better: true,
                        ..
                    } => article.clone(),
                    Comparison::Order {
                        a_first: true,
                        step,
                        ..
                    } => step.to_string(),
                    _ => continue,
                };
                // 1.4.3: a float repeat whose earlier downfloat came from not playing.
                if [dutch::C14, dutch::C16].contains(&label.as_str()) {
                    let back: u32 = if label == dutch::C14 { 1 } else { 2 };
                    if let Ok(ra) = dutch::criteria(&before, k, &alt) {
                        let mine: Vec<u32> = reports
                            .iter()
                            .flat_map(|r| r.downfloaters.clone())
                            .collect();
                        let theirs: Vec<u32> =
                            ra.iter().flat_map(|r| r.downfloaters.clone()).collect();
                        let unplayed = |id: u32| {
                            k > back
                                && rd(k - back).is_some_and(|x| {
                                    x.byes.iter().any(|b| b.player == id)
                                        || x.games.iter().any(|g| {
                                            (g.white == id || g.black == id)
                                                && g.result.is_forfeit()
                                                && g.result != GameResult::DoubleForfeit
                                        })
                                })
                        };
                        if theirs.iter().any(|id| !mine.contains(id) && unplayed(*id)) {
                            note(
                                &mut best,
                                "1.4.3",
                                size,
                                &file,
                                k,
                                alt.text(),
                                c.to_string(),
                            );
                        }
                    }
                }
                note(&mut best, &label, size, &file, k, alt.text(), c.to_string());
            }
        }
    }
    for (label, (size, file, k, alt, why)) in best {
        println!("{label}\n  {size} players: {file} round {k}\n  alternative: {alt}\n  {why}");
        if let Some(dir) = &emit {
            let Ok(mut t) = optipair::formats::load(std::path::Path::new(&file)) else {
                continue;
            };
            if t.rounds_planned.is_none() {
                t.rounds_planned = t.rounds.iter().map(|r| r.number).max();
            }
            let before = t.before_round(k);
            let path = format!("{dir}/dutch_2025_{}.trf", slug(&label));
            match optipair::formats::render(&before, optipair::formats::Kind::Trf) {
                Ok(text) => {
                    if let Err(e) = std::fs::write(&path, text) {
                        eprintln!("{path}: {e}");
                    }
                    println!(
                        "  TABLE (\"{}\", {k}, \"{alt}\", \"{label}\"),",
                        slug(&label)
                    );
                }
                Err(e) => eprintln!("{path}: {e}"),
            }
        }
    }
}
