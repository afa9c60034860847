//! The short fuzz run of CI: the stable driver (`fuzzdrive`) over a bounded number of
//! mutated inputs per parser and a few pair + check runs; any panic fails. The long run is
//! documented in RELIABILITY.md.

use fuzzdrive::{self as fuzzing, Config, Target};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every corpus file (the seeds and the saved regressions) through its target as it is.
#[test]
fn corpus_inputs_pass_their_targets() {
    for target in Target::PARSERS {
        let inputs = fuzzing::corpus(root(), target);
        assert!(!inputs.is_empty(), "{}: empty corpus", target.name());
        for data in inputs {
            let _ = fuzzing::parse_target(target, &data);
        }
    }
}

/// The mutator is deterministic: same seed, same inputs.
#[test]
fn mutator_is_seeded() {
    let base = std::fs::read(root().join("tests/data/small.json")).unwrap();
    let run = |seed| {
        let mut m = fuzzing::Mutator::new(seed);
        (0..50).map(|_| m.mutate(&base, &base)).collect::<Vec<_>>()
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}

#[test]
fn short_fuzz_run_finds_no_panic() {
    let mut cfg = Config::new(root());
    cfg.seed = 2026;
    cfg.parser_inputs = 15_000;
    cfg.pair_runs = 150;
    cfg.max_pair_players = 16;
    cfg.time_limit = 2.0;
    cfg.hang_seconds = 120;
    let stats = fuzzing::run(&cfg);
    for (name, c) in &stats.targets {
        eprintln!("{name}: {c:?}");
    }
    eprintln!("pair: {:?}", stats.pair);
    for f in &stats.findings {
        eprintln!("finding: {} {}: {}", f.target, f.kind, f.message);
    }
    for target in Target::PARSERS {
        let c = &stats.targets[target.name()];
        assert_eq!(c.inputs, cfg.parser_inputs, "{}", target.name());
        assert!(c.accepted > 0, "{}: no mutated input parsed", target.name());
    }
    assert_eq!(stats.pair.runs, cfg.pair_runs);
    // Events made from CSV player lists are paired too (issue 50: the CSV path).
    assert!(
        stats.pair.by_source.get("csv").is_some_and(|&n| n > 0),
        "{:?}",
        stats.pair.by_source
    );
    let broken: Vec<_> = stats
        .findings
        .iter()
        .filter(|f| matches!(f.kind.as_str(), "panic" | "slow" | "timeout"))
        .collect();
    assert!(broken.is_empty(), "{broken:#?}");
    assert_eq!(stats.panics(), 0);
}

/// The pair + check findings of the long run (`fuzz/findings/`, see RELIABILITY.md): each
/// event's next round, paired under the system its file name starts with, is refused with an
/// error naming the field (at load, or by the engine: no legal pairing, a scoring the system
/// cannot count in) or paired and flagged by the engine's own verification (status
/// `rejected`, never stored) — never returned as good while the verifier objects.
#[test]
fn findings_are_refused_or_flagged_never_passed_off() {
    let dir = root().join("fuzz/findings");
    let mut failed = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    let mut seen = 0;
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".json") {
            continue;
        }
        seen += 1;
        let system = optipair::SystemKind::ALL
            .map(optipair::SystemKind::name)
            .into_iter()
            .filter(|s| name.starts_with(*s))
            .max_by_key(|s| s.len())
            .unwrap_or_else(|| panic!("{name}: no system at the start of the name"));
        let t = match optipair::formats::load(&e.path()) {
            Ok(t) => t,
            Err(err) => {
                assert!(err.to_string().contains("field"), "{name}: {err}");
                continue;
            }
        };
        let run = fuzzing::pair_check(&t, system, &fuzzing::pair_options(10.0));
        if let fuzzing::PairOutcome::Objection { .. } = run.outcome {
            failed.push(format!("{name}: {:?}", run.outcome));
        }
    }
    assert!(seen >= 10, "{seen} findings");
    assert!(failed.is_empty(), "{failed:#?}");
}

/// Runs `optipair` with `args` in `dir` under a 1 GiB memory cap; returns the exit code after
/// checking the run did not panic nor pass the cap (exit 4, the bound of work asked of every
/// input).
fn bounded_run(dir: &Path, args: &[&str]) -> i32 {
    let mut argv = vec!["--memory-limit", "1024"];
    argv.extend_from_slice(args);
    let o = crate::common::cli::run_in(Some(dir), &argv, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    let code = o.status.code().unwrap_or(-1);
    assert!(
        code != 4 && code >= 0 && code != 101,
        "{args:?}: exit {code}: {err}"
    );
    code
}

/// Every input saved in `fuzz/regressions/` (by the driver, libFuzzer or by hand, see its
/// README): through its target without a panic, then through the commands a director would
/// run on it — `check`, `pair --write` (also with `--format trf`), the engine line, `new`
/// from a CSV — none panics or passes a 1 GiB memory cap, a command that fails leaves the file
/// as it was, and `check` calls clean only an event with players.
#[test]
fn saved_inputs_replay_without_panic_change_or_runaway() {
    let saved = fuzzing::saved_inputs(&root().join(fuzzing::SAVED_DIR));
    assert!(saved.len() >= 4, "{} saved inputs", saved.len());
    for path in saved {
        let name = path.display().to_string();
        let target = fuzzing::target_of(&path).unwrap_or_else(|| panic!("{name}: no target"));
        let replayed = std::panic::catch_unwind(|| fuzzing::replay(&path));
        assert!(
            replayed.is_ok(),
            "{name}: the {} target panics",
            target.name()
        );
        let s = crate::common::cli::Scratch::new("replay");
        let ext = match target {
            Target::Pair => "json",
            Target::Config => "tsh",
            t => t.ext(),
        };
        let file = format!("input.{ext}");
        let copy = s.copy(&path, &file);
        let before = std::fs::read(&copy).unwrap();
        let runs: Vec<Vec<&str>> = match target {
            Target::Csv => vec![vec!["new", "--players", &file, "--out", "new.json"]],
            Target::Results => vec![],
            _ => vec![
                vec!["check", &file],
                vec![
                    "pair",
                    &file,
                    "--write",
                    "--time-limit",
                    "1",
                    "--format",
                    "trf",
                ],
                vec!["pair", &file, "--write", "--time-limit", "1"],
                vec!["--dutch", &file, "-p", "pairs.txt"],
            ],
        };
        for args in runs {
            let code = bounded_run(&s.0, &args);
            let now = std::fs::read(&copy).unwrap();
            if code != 0 {
                assert_eq!(
                    now, before,
                    "{name}: {args:?} failed (exit {code}) but changed the file"
                );
            }
            if args[0] == "check" && code == 0 {
                let t = optipair::formats::load(&copy);
                assert!(
                    t.is_ok_and(|t| !t.players.is_empty()),
                    "{name}: check called an event without players clean"
                );
            }
            // The next command starts from the saved input again.
            std::fs::write(&copy, &before).unwrap();
        }
    }
}

/// A parse is `slow` by the CPU time its thread used, so a loaded machine stretching wall
/// time does not make a finding, while a parse doing a second of work does.
#[test]
fn a_parse_is_slow_by_its_cpu_time_not_the_machine_load() {
    use std::time::Duration;
    let s = Duration::from_secs_f64;
    // Thirty seconds of wall time at 1% of a core: not slow.
    assert_eq!(fuzzing::slow_parse(s(30.0), Some(s(0.3))), None);
    // 1.5 s of work, whatever the wall time: slow.
    assert!(fuzzing::slow_parse(s(1.6), Some(s(1.5))).is_some());
    assert!(fuzzing::slow_parse(s(40.0), Some(s(1.5))).is_some());
    // Without the CPU time, only a wide wall bound.
    assert_eq!(fuzzing::slow_parse(s(5.0), None), None);
    assert!(fuzzing::slow_parse(s(11.0), None).is_some());
    // The thread's CPU time can be read here and counts this thread's work.
    let before = fuzzing::thread_cpu().expect("thread CPU time");
    let mut x = 0u64;
    for i in 0..20_000_000u64 {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    std::hint::black_box(x);
    assert!(fuzzing::thread_cpu().unwrap() > before);
}
