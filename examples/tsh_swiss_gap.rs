//! Median rank gap of the players paired in tsh-cp's all-contender Swiss groups (issue 21):
//! generated Scrabble events of 40, 50 and 60 players, 10 rounds, seeds 1–3, every round
//! paired by `tsh-cp` and played with generated scores. The gap is the distance of the two
//! players in the standings the round is paired from, among the group's players.
//!
//! `cargo run --release --example tsh_swiss_gap`

use optipair::engine;
use optipair::generate::{self, Rng};
use optipair::solve::Options;
use optipair::systems::tsh::{GroupKind, Plan, Settings};
use optipair::tournament::Tournament;

fn main() {
    let mut gaps: Vec<usize> = Vec::new();
    let mut repeats = 0usize;
    for &n in &[40usize, 50, 60] {
        for seed in 1..=3u64 {
            let mut rng = Rng::new(seed);
            let mut t = Tournament::new("gap", generate::scrabble_players(n, &mut rng));
            t.rounds_planned = Some(10);
            t.scoring.game_scores = true;
            t.system = Some("tsh-cp".into());
            let s = Settings::from(&t).unwrap();
            for r in 1..=10 {
                let plan = Plan::build(&t, r, &s).unwrap();
                let p = engine::pair_round(&t, r, optipair::SystemKind::TshCp, &Options::default())
                    .unwrap();
                for g in plan.groups.iter().filter(|g| g.kind == GroupKind::Swiss) {
                    let rank = |id: u32| g.players.iter().position(|&q| q == id);
                    for game in &p.round.games {
                        if let (Some(a), Some(b)) = (rank(game.white), rank(game.black)) {
                            gaps.push(a.abs_diff(b));
                            let met = t.rounds.iter().flat_map(|rd| &rd.games).any(|x| {
                                (x.white, x.black) == (game.white, game.black)
                                    || (x.white, x.black) == (game.black, game.white)
                            });
                            repeats += usize::from(met);
                        }
                    }
                }
                t = engine::store(&t, &p);
                generate::play(&mut t, r, 0.0, &mut rng);
            }
        }
    }
    gaps.sort_unstable();
    let median = gaps[gaps.len() / 2];
    let mean = gaps.iter().sum::<usize>() as f64 / gaps.len() as f64;
    println!(
        "Swiss-group pairs: {}; rank gap median {median}, mean {mean:.1}; repeats {repeats}",
        gaps.len()
    );
}
