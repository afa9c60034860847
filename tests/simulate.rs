//! `optipair simulate`: whole events per system, the statistics, determinism by seed whatever
//! the thread count, the result models, the chart and the command line.

use optipair::generate::Rng;
use optipair::simulate::{self, Config, Model};
use optipair::tournament::GameResult;
use optipair::SystemKind;
use serde_json::Value;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_optipair");

fn cfg(systems: &[&str], players: usize, rounds: u32, runs: usize, threads: usize) -> Config {
    Config {
        systems: systems.iter().map(|s| s.parse().unwrap()).collect(),
        players,
        rounds,
        runs,
        first_run: 0,
        seed: 11,
        model: None,
        draw_rate: 0.3,
        threads,
        time_limit: None,
        settings: Default::default(),
    }
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run optipair")
}

#[test]
fn statistics_do_not_depend_on_the_thread_count() {
    let one = simulate::run(&cfg(&["swiss", "ecf-basic"], 20, 3, 6, 1), &|_, _| {}).unwrap();
    let two = simulate::run(&cfg(&["swiss", "ecf-basic"], 20, 3, 6, 2), &|_, _| {}).unwrap();
    assert_eq!(one.summaries.len(), 2);
    for (a, b) in one.summaries.iter().zip(&two.summaries) {
        let strip = |s: &simulate::Summary| {
            let mut s = s.clone();
            s.seconds_mean = 0.0;
            s.seconds_max = 0.0;
            s.totals.seconds = None;
            s.totals.seconds_max = None;
            serde_json::to_string(&s).unwrap()
        };
        assert_eq!(strip(a), strip(b));
        assert_eq!(a.runs, 6);
        assert_eq!(a.violations, 0, "{}: the verifier objects", a.system);
        assert_eq!(a.unpaired, 0);
        assert_eq!(a.repeats_mean, 0.0, "C.04.1 b: no rematch");
    }
}

#[test]
fn each_run_is_one_event_with_its_own_seed() {
    // Run i of the simulation is exactly `event` with `run_seed(seed, i)`.
    let c = cfg(&["swiss"], 12, 3, 3, 2);
    let r = simulate::run(&c, &|_, _| {}).unwrap();
    let events: Vec<_> = (0..3)
        .map(|i| {
            simulate::event(
                SystemKind::Swiss,
                12,
                3,
                simulate::run_seed(11, i),
                Model::Elo { draw_rate: 0.3 },
                &Default::default(),
                &Default::default(),
            )
            .unwrap()
        })
        .collect();
    let again = simulate::summarise(
        SystemKind::Swiss,
        Model::Elo { draw_rate: 0.3 },
        12,
        &events,
    );
    assert_eq!(r.summaries[0].gap_by_round, again.gap_by_round);
    assert_eq!(r.summaries[0].perfect_mean, again.perfect_mean);
    assert_ne!(simulate::run_seed(11, 0), simulate::run_seed(11, 1));
    assert_ne!(simulate::run_seed(11, 0), simulate::run_seed(12, 0));
}

#[test]
fn perfect_scores_follow_the_swiss_halving_without_draws() {
    // With no draws, each round of a Swiss halves the players on 100% while their number is
    // even and they have not met: 2^r players leave exactly one after r rounds (the last two
    // meet; topscorers are exempt from the colour limits in the last round, C.04.3 A.7), and
    // 2^(r+1) players leave exactly two.
    let mut c = cfg(&["swiss"], 8, 3, 5, 2);
    c.draw_rate = 0.0;
    let r = simulate::run(&c, &|_, _| {}).unwrap();
    let s = &r.summaries[0];
    assert_eq!(s.perfect_mean, 1.0);
    assert_eq!(s.joint_perfect, 0);
    assert_eq!(s.joint_perfect_ci.0, 0.0);
    c.players = 16;
    let r = simulate::run(&c, &|_, _| {}).unwrap();
    let s = &r.summaries[0];
    assert_eq!(s.perfect_mean, 2.0);
    assert_eq!(s.joint_perfect, 5);
    assert_eq!(s.joint_perfect_share, 1.0);
    assert!(s.joint_perfect_ci.0 > 0.5);
}

#[test]
fn ecf_round_one_pairs_within_halves_so_the_rating_gap_is_smaller() {
    // ECF rule 3: round 1 pairs quarter A with B and C with D, where the standard Swiss pairs
    // the top half with the bottom half: on the same fields, every round-1 gap is smaller.
    let r = simulate::run(
        &cfg(&["swiss", "ecf-basic", "ecf-advanced"], 40, 2, 4, 2),
        &|_, _| {},
    )
    .unwrap();
    let g: Vec<f64> = r.summaries.iter().map(|s| s.gap_by_round[0]).collect();
    assert!(g[1] < g[0] * 0.75, "{g:?}");
    assert!(g[2] < g[0] * 0.75, "{g:?}");
}

#[test]
fn wilson_interval_known_values() {
    let (lo, hi) = simulate::wilson(0, 20);
    assert_eq!(lo, 0.0);
    // z²/(n+z²) with z = 1.96: 3.8415/23.8415.
    assert!((hi - 0.161_1).abs() < 1e-3, "{hi}");
    let (lo, hi) = simulate::wilson(5, 10);
    assert!(
        (lo - 0.236_6).abs() < 1e-3 && (hi - 0.763_4).abs() < 1e-3,
        "{lo} {hi}"
    );
    let (lo, hi) = simulate::wilson(10, 10);
    assert!((lo - 0.722_5).abs() < 1e-3 && hi == 1.0, "{lo} {hi}");
}

#[test]
fn result_models_elo_and_scrabble() {
    let mut rng = Rng::new(5);
    let n = 4000;
    // Scrabble (generate's score model): scores recorded, the result follows them; a 400-point
    // edge moving first wins with P = Φ((400/10 + 10)/(60·√2)) ≈ 0.72.
    let mut wins = 0;
    for _ in 0..n {
        let g = Model::Scrabble.game(1, 2, 1700, 1300, &mut rng);
        let [a, b] = g.scores.expect("scores recorded");
        assert_eq!(g.result, GameResult::from_scores(a, b));
        assert!(a >= 100 && b >= 100);
        wins += (g.result == GameResult::WhiteWins) as usize;
    }
    let p = wins as f64 / n as f64;
    assert!((0.69..0.755).contains(&p), "{p}");
    // Elo: equal players, draw rate 0.4: P(draw) = 0.4·2·min(E, 1−E) with E of +35 for white.
    let (mut draws, mut white) = (0.0, 0.0);
    for _ in 0..n {
        let g = Model::Elo { draw_rate: 0.4 }.game(1, 2, 2000, 2000, &mut rng);
        assert!(g.scores.is_none());
        match g.result {
            GameResult::Draw => {
                draws += 1.0;
                white += 0.5
            }
            GameResult::WhiteWins => white += 1.0,
            _ => {}
        }
    }
    let e = 1.0 / (1.0 + 10f64.powf(-35.0 / 400.0));
    assert!((draws / n as f64 - 0.8 * (1.0 - e)).abs() < 0.03);
    assert!((white / n as f64 - e).abs() < 0.03);
    assert_eq!(
        Model::for_system(SystemKind::Swiss, 0.3),
        Model::Elo { draw_rate: 0.3 }
    );
    // Chosen by whether the system's games keep scores, not by a list of names.
    assert_eq!(Model::for_system(SystemKind::TshCp, 0.3), Model::Scrabble);
    assert!("nope".parse::<SystemKind>().is_err());
}

#[test]
fn command_line_output_is_byte_identical_by_seed_with_chart_and_progress() {
    let dir = std::env::temp_dir().join(format!("optipair-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chart = dir.join("chart.svg");
    let args = |threads: &'static str| {
        vec![
            "simulate",
            "--system",
            "swiss",
            "--system",
            "ecf-basic",
            "--players",
            "16",
            "--rounds",
            "3",
            "--runs",
            "4",
            "--seed",
            "3",
            "--no-timing",
            "--threads",
            threads,
        ]
    };
    let a = run(&args("1"));
    let mut with_chart = args("2");
    with_chart.extend(["--chart", chart.to_str().unwrap()]);
    let b = run(&with_chart);
    assert_eq!(
        a.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&a.stderr)
    );
    assert_eq!(b.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8_lossy(&a.stdout);
    assert!(
        text.starts_with("16 players, 3 rounds, 4 runs per system, seed 3"),
        "{text}"
    );
    assert!(
        text.contains("\nswiss ") && text.contains("\necf-basic "),
        "{text}"
    );
    // The progress bar is drawn only on a terminal: none here (stderr is a pipe).
    let err = String::from_utf8_lossy(&a.stderr);
    assert!(!err.contains("events"), "{err}");
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">swiss<") && svg.contains(">ecf-basic<"));
    assert_eq!(svg.matches("<polyline").count(), 2);
    let json = run(&[
        "simulate",
        "--system",
        "swiss",
        "--players",
        "10",
        "--rounds",
        "2",
        "--runs",
        "2",
        "--format",
        "json",
        "--quiet",
    ]);
    assert!(json.stderr.is_empty());
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["summaries"][0]["runs"], 2);
    assert_eq!(
        v["summaries"][0]["gap_by_round"].as_array().unwrap().len(),
        2
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn runs_a_system_refuses_are_counted_and_left_out() {
    // PROG: each rating group must hold 25%–50% of the field. With thresholds at about the
    // thirds of the rating law, some random 64-player fields miss that and are refused; the
    // rest are simulated. Settings reach every event.
    let mut c = cfg(&["prog"], 64, 3, 20, 2);
    c.settings.insert("prog.a_min".into(), 1930.into());
    c.settings.insert("prog.c_below".into(), 1670.into());
    let r = simulate::run(&c, &|_, _| {}).unwrap();
    let s = &r.summaries[0];
    assert!(s.refused > 0 && s.runs > 0, "{} {}", s.refused, s.runs);
    assert_eq!(s.runs + s.refused, 20);
    assert!(s.refused_first.as_deref().unwrap().contains("25%–50%"));
    // The chart does not claim the refused runs: its title counts the runs paired, and the
    // system's label says how many were refused.
    let chart = simulate::svg(&r);
    assert!(!chart.contains("20 runs per system"), "{chart}");
    assert!(
        chart.contains(&format!("runs paired: prog {} of 20", s.runs)),
        "{chart}"
    );
    assert!(
        chart.contains(&format!("prog ({} of 20 refused)", s.refused)),
        "{chart}"
    );
    // Refused every time: an error naming the setting.
    let o = run(&[
        "simulate",
        "--system",
        "prog",
        "--players",
        "12",
        "--rounds",
        "2",
        "--runs",
        "2",
        "--setting",
        "prog.a_min=9999",
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("every run refused") && err.contains("prog.a_min"),
        "{err}"
    );
}

#[test]
fn bad_requests_exit_2() {
    for (args, what) in [
        (
            vec![
                "--system",
                "nope",
                "--players",
                "8",
                "--rounds",
                "2",
                "--runs",
                "1",
            ],
            "unknown system 'nope'",
        ),
        (
            vec![
                "--system",
                "swiss",
                "--players",
                "1",
                "--rounds",
                "2",
                "--runs",
                "1",
            ],
            "--players",
        ),
        (
            vec![
                "--system",
                "swiss",
                "--players",
                "8",
                "--rounds",
                "0",
                "--runs",
                "1",
            ],
            "--rounds",
        ),
        (
            vec![
                "--system",
                "swiss",
                "--players",
                "8",
                "--rounds",
                "2",
                "--runs",
                "0",
            ],
            "--runs",
        ),
        (
            vec![
                "--system",
                "swiss",
                "--players",
                "8",
                "--rounds",
                "2",
                "--runs",
                "1",
                "--chart",
                "x.png",
            ],
            "--chart",
        ),
        (
            vec![
                "--system",
                "swiss",
                "--players",
                "8",
                "--rounds",
                "2",
                "--runs",
                "1",
                "--setting",
                "novalue",
            ],
            "KEY=VALUE",
        ),
    ] {
        let mut full = vec!["simulate"];
        full.extend(args);
        let o = run(&full);
        assert_eq!(o.status.code(), Some(2), "{full:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(what), "{full:?}: {err}");
    }
}

/// A long simulation can be run in parts (`--first-run`) and merged (`--merge`): the merged
/// report is byte-for-byte the report of one simulation of all the runs. Parts that overlap,
/// leave runs out or come from another simulation are refused (exit 2), naming the file.
#[test]
fn parts_merge_into_exactly_the_whole() {
    let dir = std::env::temp_dir().join(format!("optipair-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The simulation split up below: two systems, 20 players, 4 rounds.
    let base = [
        "simulate",
        "--system",
        "swiss",
        "--system",
        "ecf-basic",
        "--players",
        "20",
        "--rounds",
        "4",
        "--quiet",
        "--no-timing",
    ];
    let sim = |runs: &str, first: &str, seed: &str, name: &str| {
        let path = dir.join(name);
        let mut args = base.to_vec();
        args.extend([
            "--runs",
            runs,
            "--first-run",
            first,
            "--seed",
            seed,
            "--format",
            "json",
        ]);
        let o = run(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::write(&path, &o.stdout).unwrap();
        path.display().to_string()
    };
    let whole = sim("9", "0", "3", "whole.json");
    let a = sim("4", "0", "3", "a.json");
    let b = sim("5", "4", "3", "b.json");
    let merged = run(&["simulate", "--merge", &b, &a, "--format", "json"]);
    assert!(merged.status.success());
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        std::fs::read_to_string(&whole).unwrap()
    );
    let v: Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(v["summaries"][0]["runs"], 9);
    // The text report of the merge is the text report of the whole.
    let text = |args: &[&str]| String::from_utf8_lossy(&run(args).stdout).to_string();
    assert_eq!(
        text(&["simulate", "--merge", &a, &b]),
        text(&[base.as_slice(), &["--runs", "9", "--seed", "3"]].concat())
    );
    let other = sim("5", "4", "4", "other.json");
    let gap = sim("3", "5", "3", "gap.json");
    for (args, what) in [
        (vec![a.clone(), a.clone()], "they overlap"),
        (vec![a.clone(), gap.clone()], "runs 4–4 are missing"),
        (vec![a.clone(), other.clone()], "a different simulation"),
    ] {
        let mut all = vec!["simulate", "--merge"];
        all.extend(args.iter().map(|s| s.as_str()));
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(what), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Verifier findings are counted in full and the first ones kept word for word, in run order,
/// also across merged parts, so that an event the verifier objected to can be replayed.
#[test]
fn the_first_verifier_findings_are_kept_in_run_order() {
    let ev = |k: usize| simulate::Event {
        violations: k,
        findings: (0..k).map(|i| format!("run {k} finding {i}")).collect(),
        ..Default::default()
    };
    let events: Vec<_> = [3, 0, 9].into_iter().map(ev).collect();
    let t = simulate::Totals::of(&events, &[]);
    assert_eq!(t.findings.len(), simulate::MAX_FINDINGS);
    assert_eq!(t.findings[0], "run 3 finding 0");
    assert_eq!(t.findings[3], "run 9 finding 0");
    let mut a = simulate::Totals::of(&[ev(4)], &[]);
    a.add(&simulate::Totals::of(&[ev(9)], &[]));
    assert_eq!(a.violations, 13);
    assert_eq!(a.findings.len(), simulate::MAX_FINDINGS);
    assert_eq!(a.findings[4], "run 9 finding 0");
    let s = simulate::Summary::of(SystemKind::Swiss, Model::Scrabble, 10, a);
    let report = simulate::Report {
        config: cfg(&["swiss"], 10, 2, 2, 1),
        summaries: vec![s],
    };
    let text = simulate::text(&report, false);
    assert!(text.contains("swiss verifier: run 4 finding 0"), "{text}");
    assert!(text.contains("… 3 more finding(s)"), "{text}");
}

#[test]
fn prog_groups_come_from_the_field_so_no_run_of_a_60_player_field_is_refused() {
    // Without prog.a_min / prog.c_below the defaults (2000 / 1600) miss PROG's 25%–50% per
    // group on most generated fields; the simulation sets the groups from each field's
    // ratings, as the arbiter would, and pairs every run.
    let r = simulate::run(&cfg(&["prog"], 60, 2, 40, 2), &|_, _| {}).unwrap();
    let s = &r.summaries[0];
    assert_eq!((s.runs, s.refused), (40, 0), "{:?}", s.refused_first);
    assert_eq!(s.violations, 0);
    assert!(simulate::svg(&r).contains("40 runs per system"));
}

#[test]
fn prog_bounds_from_ratings_keep_every_group_within_a_quarter_and_a_half() {
    use optipair::systems::prog::bounds_for_field;
    let mut rng = Rng::new(5);
    for n in 4..=120usize {
        let ratings: Vec<u32> = (0..n)
            .map(|_| 1200 + (rng.next_u64() % 1200) as u32)
            .collect();
        let Some(b) = bounds_for_field(&ratings) else {
            continue;
        };
        let count = |g: char| ratings.iter().filter(|&&r| b.group(r) == g).count();
        for g in ['A', 'B', 'C'] {
            let k = count(g);
            assert!(
                (n.div_ceil(4)..=n / 2).contains(&k),
                "{n} players: group {g} has {k} ({b:?})"
            );
        }
    }
    // Ties that leave no cut: no bounds (the run is refused and reported).
    assert_eq!(bounds_for_field(&[1500; 12]), None);
    // Distinct ratings: always a cut, at the thirds.
    let b = bounds_for_field(&(0..30).map(|i| 1000 + 10 * i).collect::<Vec<_>>()).unwrap();
    assert_eq!((b.a_min, b.c_below), (1200, 1100));
}
