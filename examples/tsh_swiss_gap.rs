//! Median rank gap of the players tsh-cp pairs Swiss (issue 21): generated Scrabble events of
//! 40, 50 and 60 players, 10 rounds, seeds 1–3, every round paired by `tsh-cp` (without the
//! initial round robin, so that every round is a contention round) and played with generated
//! scores. The gap is the distance of the two players in the standings the round is paired
//! from, among the players of the group they are paired in: an all-contender Swiss group, or a
//! flight's nonleaders (the flight's players below its leaders; the leaders are the smallest
//! even top block of the flight that the pairing keeps to itself).
//!
//! `cargo run --release --example tsh_swiss_gap`

use optipair::engine;
use optipair::generate::{self, Rng};
use optipair::solve::{Options, PROGRAMS};
use optipair::systems::tsh::{GroupKind, Plan, Settings};
use optipair::tournament::Tournament;
use std::collections::BTreeMap;

#[derive(Default)]
struct Gaps {
    gaps: Vec<usize>,
    repeats: usize,
}

impl Gaps {
    fn line(&mut self, what: &str) {
        self.gaps.sort_unstable();
        let (median, mean) = if self.gaps.is_empty() {
            (0, 0.0)
        } else {
            let g = &self.gaps;
            (
                g[g.len() / 2],
                g.iter().sum::<usize>() as f64 / g.len() as f64,
            )
        };
        println!(
            "{what}: {} pairs; rank gap median {median}, mean {mean:.1}; repeats {}",
            self.gaps.len(),
            self.repeats
        );
    }
}

fn main() {
    let (mut swiss, mut nonleaders) = (Gaps::default(), Gaps::default());
    for &n in &[40usize, 50, 60] {
        for seed in 1..=3u64 {
            let mut rng = Rng::new(seed);
            let mut t = Tournament::new("gap", generate::scrabble_players(n, &mut rng));
            t.rounds_planned = Some(10);
            t.scoring.game_scores = true;
            t.system = Some("tsh-cp".into());
            t.settings
                .insert("initial_round_robin".into(), serde_json::json!(0));
            let s = Settings::from(&t).unwrap();
            for r in 1..=10 {
                let plan = Plan::build(&t, r, &s, &PROGRAMS).unwrap();
                let p = engine::pair_round(&t, r, optipair::SystemKind::TshCp, &Options::default())
                    .unwrap();
                let opp: BTreeMap<u32, u32> = p
                    .round
                    .games
                    .iter()
                    .flat_map(|g| [(g.white, g.black), (g.black, g.white)])
                    .collect();
                for g in &plan.groups {
                    let (players, into) = match g.kind {
                        GroupKind::Swiss => (&g.players[..], &mut swiss),
                        GroupKind::Flight => {
                            let pos = |id: u32| g.players.iter().position(|&q| q == id);
                            let (mut reach, mut i) = (0, 0);
                            while i < g.players.len() {
                                reach = reach
                                    .max(opp.get(&g.players[i]).and_then(|&o| pos(o)).unwrap_or(i));
                                if i >= reach && i % 2 == 1 {
                                    break;
                                }
                                i += 1;
                            }
                            (&g.players[(i + 1).min(g.players.len())..], &mut nonleaders)
                        }
                        _ => continue,
                    };
                    let rank = |id: u32| players.iter().position(|&q| q == id);
                    for game in &p.round.games {
                        if let (Some(a), Some(b)) = (rank(game.white), rank(game.black)) {
                            into.gaps.push(a.abs_diff(b));
                            let met = t.rounds.iter().flat_map(|rd| &rd.games).any(|x| {
                                (x.white, x.black) == (game.white, game.black)
                                    || (x.white, x.black) == (game.black, game.white)
                            });
                            into.repeats += usize::from(met);
                        }
                    }
                }
                t = engine::store(&t, &p);
                generate::play(&mut t, r, 0.0, &mut rng);
            }
        }
    }
    swiss.line("all-contender Swiss groups");
    nonleaders.line("flight nonleaders");
}
