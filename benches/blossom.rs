//! The sparse matching alone (`optipair::solve::blossom`), on generated graphs or on a graph
//! dumped by the solver (`OPTIPAIR_DUMP_MATCHING=FILE optipair pair ...` writes the largest
//! component's edges, one `u v weight` line each, the first line `n`).
//!
//! ```sh
//! cargo bench --bench blossom -- random 10000 30      # n, edges per vertex
//! cargo bench --bench blossom -- swiss 10000 30       # score groups, near-group edges
//! cargo bench --bench blossom -- file FILE [maxcard]
//! ```
//!
//! Prints seconds, edges, stages and what the search did; run under `/usr/bin/time -v` for
//! the peak memory. Figures are in BENCHMARKS.md.

use optipair::solve::blossom::{self, Solver};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self, m: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % m
    }
}

fn run(n: usize, edges: &[(usize, usize, i128)], max_card: bool) {
    let t = Instant::now();
    let mut s = Solver::new(n, max_card);
    for &(u, v, w) in edges {
        s.add_edge(u, v, w);
    }
    let built = t.elapsed().as_secs_f64();
    s.solve();
    let solved = t.elapsed().as_secs_f64();
    let m = s.matching();
    let t2 = Instant::now();
    let proved = blossom::is_proved_optimal(n, edges, max_card, &m);
    let checked = t2.elapsed().as_secs_f64();
    let card = m.mate.iter().filter(|x| x.is_some()).count() / 2;
    println!(
        "n {n} edges {} max_card {max_card}: built {built:.3} s, solved {solved:.3} s, certificate checked {checked:.3} s ({proved}); {card} pairs, weight {}; {:?}",
        edges.len(),
        m.weight,
        s.stats()
    );
    // Warm start: ten vertices removed one at a time, each followed by a re-solve.
    let t = Instant::now();
    let before = s.stats().stages;
    for k in 0..10 {
        s.remove_vertex(k * (n / 10));
        s.solve();
    }
    println!(
        "  10 vertices removed one by one, each re-solved: {:.3} s, {} stages",
        t.elapsed().as_secs_f64(),
        s.stats().stages - before
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let kind = args.first().map(String::as_str).unwrap_or("swiss");
    let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let mut rng = Rng(0x2545F4914F6CDD1D);
    match kind {
        "file" => {
            let text = std::fs::read_to_string(&args[1]).expect("graph file");
            let mut lines = text.lines();
            let n: usize = lines.next().unwrap().trim().parse().unwrap();
            let edges: Vec<(usize, usize, i128)> = lines
                .map(|l| {
                    let mut f = l.split_whitespace();
                    let u = f.next().unwrap().parse().unwrap();
                    let v = f.next().unwrap().parse().unwrap();
                    let w = f.next().unwrap().parse().unwrap();
                    (u, v, w)
                })
                .collect();
            run(n, &edges, args.get(2).is_some_and(|a| a == "maxcard"));
        }
        "random" => {
            let (n, per) = (num(1, 10_000), num(2, 30));
            let mut edges = Vec::new();
            for u in 0..n {
                for _ in 0..per / 2 {
                    let v = rng.next(n as u64) as usize;
                    if v != u {
                        edges.push((u, v, 1 + rng.next(1 << 40) as i128));
                    }
                }
            }
            run(n, &edges, false);
            run(n, &edges, true);
        }
        _ => {
            // Score groups by rank; a pair costs its score difference (a large tier) and the
            // distance from the ideal opponent in its group (a small one); weights are a big
            // constant minus the cost, as the solver's matchings are built.
            let (n, per) = (num(1, 10_000), num(2, 30));
            let groups = 17;
            let group = |i: usize| i * groups / n;
            let mut edges = Vec::new();
            for u in 0..n {
                for _ in 0..per / 2 {
                    let span = (n / groups * 2).max(2) as u64;
                    let off = rng.next(span) as i64 - span as i64 / 2;
                    let v = (u as i64 + off).rem_euclid(n as i64) as usize;
                    if v == u {
                        continue;
                    }
                    let dg = (group(u) as i128 - group(v) as i128).abs();
                    let ideal = (u as i128 - v as i128).abs() - (n / groups / 2) as i128;
                    let cost = dg * dg * (1 << 50) + ideal.abs() * 1000 + rng.next(1000) as i128;
                    edges.push((u, v, (1i128 << 80) - cost));
                }
            }
            run(n, &edges, false);
            run(n, &edges, true);
        }
    }
}
