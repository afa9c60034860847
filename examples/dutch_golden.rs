//! Finds rounds that exhibit each FIDE Dutch 2025 criterion, for golden tests: for every
//! recorded round of the TRF files given, pairings one local change away from the recorded
//! one (two pairs of a bracket swapping partners, a downfloater taking a player's place, the
//! bye moved, a pair's colours reversed) are compared with it by `verify::dutch::compare`;
//! the first criterion on which the change is worse names what the round exhibits. Prints,
//! per criterion (or step of the order of article 4), the smallest field that shows it.
//!
//!   cargo run --release --example dutch_golden -- FILE.trf...

use optipair::verify::dutch::{self, Comparison, Pairing};
use std::collections::BTreeMap;

fn main() {
    let mut best: BTreeMap<String, (usize, String, u32, String, String)> = BTreeMap::new();
    for file in std::env::args().skip(1) {
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
                let e = best.entry(label).or_insert((
                    usize::MAX,
                    String::new(),
                    0,
                    String::new(),
                    String::new(),
                ));
                if size < e.0 {
                    *e = (size, file.clone(), k, alt.text(), c.to_string());
                }
            }
        }
    }
    for (label, (size, file, k, alt, why)) in best {
        println!("{label}\n  {size} players: {file} round {k}\n  alternative: {alt}\n  {why}");
    }
}
