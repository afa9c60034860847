//! Pairing time on the shipped instances and on generated fields, end to end as `pair` runs
//! it (specification, exact solve, verification).
//!
//! ```sh
//! cargo bench --bench pairing                 # all
//! cargo bench --bench pairing -- open-250     # one group
//! cargo bench --bench pairing -- "reference 1000"   # the FIDE Dutch procedure, 1,000 players
//! ```
//!
//! Figures and the machine they were taken on are in BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use optipair::engine;
use optipair::formats;
use optipair::generate::{self, Spec};
use optipair::solve::Options;
use optipair::SystemKind;
use std::path::Path;
use std::time::Duration;

fn instance(name: &str) -> optipair::tournament::Tournament {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("instances")
        .join(name);
    formats::load(&path).expect("shipped instance")
}

/// The README's pairing: round 5 of the 250-player open, and every earlier round re-paired.
fn open_250(c: &mut Criterion) {
    let t = instance("open-250.trf");
    let next = t.last_paired_round() + 1;
    let mut g = c.benchmark_group("open-250");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for round in 1..=next {
        g.bench_with_input(BenchmarkId::new("swiss round", round), &round, |b, &r| {
            b.iter(|| {
                engine::pair_round(&t, r, SystemKind::Swiss, &Options::default()).expect("pairs")
            })
        });
    }
    g.finish();
}

/// The 12-player club event under each chess system that pairs it.
fn club_12(c: &mut Criterion) {
    let t = instance("club-12.json");
    let round = t.last_paired_round().max(1);
    let mut g = c.benchmark_group("club-12");
    g.sample_size(20);
    for system in [
        SystemKind::Swiss,
        SystemKind::EcfBasic,
        SystemKind::EcfAdvanced,
    ] {
        g.bench_function(system.name(), |b| {
            b.iter(|| engine::pair_round(&t, round, system, &Options::default()).expect("pairs"))
        });
    }
    g.finish();
}

/// Round 6 of 9 of generated fields (history paired greedily, as `optipair bench` does).
fn generated(c: &mut Criterion) {
    let mut g = c.benchmark_group("generated round 6");
    g.sample_size(10).measurement_time(Duration::from_secs(30));
    for players in [100usize, 500, 1000] {
        let spec = Spec {
            players,
            rounds: 9,
            played: 5,
            seed: 1,
            draw_rate: 0.3,
            system: SystemKind::Swiss,
        };
        let greedy = Options {
            greedy_only: true,
            ..Options::default()
        };
        let t = generate::field(&spec, &greedy).expect("generated field");
        g.bench_with_input(BenchmarkId::from_parameter(players), &t, |b, t| {
            b.iter(|| {
                engine::pair_round(t, 6, SystemKind::Swiss, &Options::default()).expect("pairs")
            })
        });
    }
    g.finish();
}

/// The FIDE Dutch procedure on the 1,000-player reference tournament (its rounds are the
/// reference engine's pairings; `tests/dutch.rs` checks that they are reproduced): rounds 2, 5
/// and 9 re-paired from the rounds before them.
fn reference_1000(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch/rtg_12345_1000p_9r.trf");
    let t = formats::load(&path).expect("reference tournament");
    let mut g = c.benchmark_group("reference 1000");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for round in [2u32, 5, 9] {
        g.bench_with_input(BenchmarkId::new("dutch round", round), &round, |b, &r| {
            b.iter(|| {
                engine::pair_round(&t, r, SystemKind::Swiss, &Options::default()).expect("pairs")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, open_250, club_12, generated, reference_1000);
criterion_main!(benches);
