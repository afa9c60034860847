//! `optipair` as a tournament manager's pairing engine: the bbpPairings / JaVaFo command line
//! (`--dutch IN.trf -p OUT`, `-c`, `-g`), driven exactly as a manager drives it (argv, files,
//! exit code), and compared with outputs of the reference engine (bbpPairings 6.0) stored in
//! `tests/data/engine` (see its README; the reference engine is never run here).
//!
//! Every stored round is compared board for board (the `-p` text byte for byte); the exit
//! codes are compared on the files the reference refuses or cannot pair.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::cli::{run_in, Scratch};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engine");

/// Runs `optipair` in `dir` with the manager's argv.
fn run(dir: &Path, args: &[&str]) -> Output {
    run_in(Some(dir), args, None)
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

fn fixtures(prefix: &str) -> Vec<(String, PathBuf)> {
    let mut v: Vec<(String, PathBuf)> = std::fs::read_dir(DATA)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "trf")
                && p.file_name().unwrap().to_string_lossy().starts_with(prefix)
        })
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    v.sort();
    v
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(Path::new(DATA).join(format!("{name}.bbp.txt"))).unwrap()
}

/// The `-p` file's shape: a count line, then that many `WHITE BLACK` lines of numbers, every
/// player at most once, a bye only as `ID 0` and last.
fn pairs(text: &str) -> Vec<(u32, u32)> {
    let mut lines = text.lines();
    let n: usize = lines
        .next()
        .expect("count line")
        .trim()
        .parse()
        .expect("count");
    let v: Vec<(u32, u32)> = lines
        .map(|l| {
            let w: Vec<u32> = l.split(' ').map(|x| x.parse().expect("a number")).collect();
            assert_eq!(w.len(), 2, "'{l}' is not WHITE BLACK");
            (w[0], w[1])
        })
        .collect();
    assert_eq!(v.len(), n, "the count line says {n} pairs:\n{text}");
    let mut seen = std::collections::HashSet::new();
    for (i, &(a, b)) in v.iter().enumerate() {
        assert!(a != 0, "white 0 in {text}");
        assert!(
            b != 0 || i + 1 == v.len(),
            "a bye before the last line: {text}"
        );
        assert!(
            seen.insert(a) && (b == 0 || seen.insert(b)),
            "twice: {text}"
        );
    }
    v
}

#[test]
fn dutch_pairs_the_rounds_the_reference_pairs_board_for_board() {
    let dir = Scratch::new("agree");
    let all = fixtures("agree_");
    assert!(all.len() >= 9);
    for (name, input) in all {
        let out = dir.path(&format!("{name}.txt"));
        let o = run(
            &dir.0,
            &[
                "--dutch",
                input.to_str().unwrap(),
                "-p",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(
            code(&o),
            0,
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.stdout.is_empty(),
            "{name}: -p OUTPUT writes nothing on stdout"
        );
        let ours = std::fs::read_to_string(&out).unwrap();
        pairs(&ours);
        assert_eq!(
            ours,
            expected(&name),
            "{name}: differs from the reference engine"
        );
    }
}

#[test]
fn without_an_output_file_the_pairs_go_to_standard_output() {
    let dir = Scratch::new("stdout");
    let (name, input) = &fixtures("agree_rtg_1013")[0];
    let o = run(&dir.0, &["--dutch", input.to_str().unwrap(), "-p"]);
    assert_eq!(code(&o), 0);
    assert_eq!(String::from_utf8_lossy(&o.stdout), expected(name));
    // JaVaFo's form (no system flag: Dutch) pairs the same.
    let o = run(&dir.0, &[input.to_str().unwrap(), "-p"]);
    assert_eq!(code(&o), 0);
    assert_eq!(String::from_utf8_lossy(&o.stdout), expected(name));
}

#[test]
fn exit_codes_mean_what_they_mean_for_bbppairings() {
    let dir = Scratch::new("codes");
    let d = |n: &str| Path::new(DATA).join(n).to_string_lossy().into_owned();
    // 1: no valid pairing (the reference exits 1 on this file too); nothing written.
    let out = dir.path("out.txt");
    let o = run(
        &dir.0,
        &["--dutch", &d("nopair.trf"), "-p", out.to_str().unwrap()],
    );
    assert_eq!(code(&o), 1, "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.exists());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no legal pairing"));
    // 3: invalid request — a malformed file (the reference: 3), named with its line.
    let o = run(&dir.0, &["--dutch", &d("malformed.trf"), "-p"]);
    assert_eq!(code(&o), 3);
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 3"));
    // 3: invalid request — argv the engine does not know.
    for argv in [
        vec!["--dutch", "x.trf"],
        vec!["--burstein", "x.trf", "-p"],
        vec!["--dutch", "x.trf", "-p", "-c"],
        vec!["--dutch", "x.trf", "-q", "-p"],
    ] {
        let o = run(&dir.0, &argv);
        assert_eq!(code(&o), 3, "{argv:?}");
        assert!(!o.stderr.is_empty(), "{argv:?}: no message");
    }
    // 5: the input file cannot be read.
    let o = run(&dir.0, &["--dutch", "missing.trf", "-p"]);
    assert_eq!(code(&o), 5);
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.trf"));
}

#[test]
fn check_reports_each_round_and_exits_0() {
    let dir = Scratch::new("check");
    let (name, input) = &fixtures("agree_rtg_1013_21p_6r_r6")[0];
    let o = run(&dir.0, &["--dutch", input.to_str().unwrap(), "-c"]);
    assert_eq!(code(&o), 0);
    let text = String::from_utf8_lossy(&o.stdout);
    for r in 1..=5 {
        assert!(text.contains(&format!("{name}: Round #{r}\n")), "{text}");
    }
    // The same file with player 1's round-1 colours swapped on both lines: the check lists
    // the reversed games and still exits 0 (a report, as the reference's).
    let text = std::fs::read_to_string(input).unwrap();
    let mut lines: Vec<String> = text.split('\r').map(String::from).collect();
    let slot = |l: &str| l[91..99].to_string();
    let one = lines
        .iter()
        .position(|l| l.starts_with("001    1 "))
        .unwrap();
    let s1 = slot(&lines[one]);
    let opp: u32 = s1[..4].trim().parse().unwrap();
    let other = lines
        .iter()
        .position(|l| l.starts_with(&format!("001 {opp:>4} ")))
        .unwrap();
    let flip = |l: &mut String| {
        let c = if &l[96..97] == "w" { "b" } else { "w" };
        l.replace_range(96..97, c);
    };
    flip(&mut lines[one]);
    flip(&mut lines[other]);
    std::fs::write(dir.path("swapped.trf"), lines.join("\r")).unwrap();
    let o = run(&dir.0, &["--dutch", "swapped.trf", "-c"]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    // The whole output is the reference checker's (stored when the fixture was made): the
    // flip changes the colour drawn in round 1, so every round-1 game is listed.
    let want = std::fs::read_to_string(Path::new(DATA).join("swapped.bbp-c.txt")).unwrap();
    assert_eq!(text, want);
}

/// `-c` on each of the 26 reference tournaments (every round the reference's own pairing)
/// prints what the reference's checker printed on them, stored in
/// `tests/data/dutch/reference_c.txt` with each exit code: no round called other than the
/// Dutch pairing, in its format.
#[test]
fn check_agrees_with_the_reference_checker_on_the_reference_tournaments() {
    let dutch = Path::new(DATA).join("../dutch");
    let want = std::fs::read_to_string(dutch.join("reference_c.txt")).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&dutch)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.starts_with("rtg_") && n.ends_with(".trf") && want.contains(&n[..n.len() - 4])
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 26);
    let dir = Scratch::new("check-reference");
    let mut got = String::new();
    for n in &names {
        let o = run(&dir.0, &["--dutch", dutch.join(n).to_str().unwrap(), "-c"]);
        got.push_str(&String::from_utf8_lossy(&o.stdout));
        got.push_str(&format!("exit {}\n", code(&o)));
    }
    assert_eq!(got, want);
}

/// `-c` prints what the reference's checker prints (stored beside each file as
/// `NAME.bbp-c.txt`): a round changed by hand (round 5 of a reference tournament, two games'
/// opponents exchanged: legal, not the Dutch pairing), and forfeits written without colours
/// (agreeing either way round) or with colours the other way round (listed).
#[test]
fn check_prints_the_reference_checkers_table() {
    let dir = Scratch::new("check-table");
    for name in ["hand_rtg_1001_r5", "forfeit_colours"] {
        let input = Path::new(DATA).join(format!("{name}.trf"));
        let o = run(&dir.0, &["--dutch", input.to_str().unwrap(), "-c"]);
        assert_eq!(
            code(&o),
            0,
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let want = std::fs::read_to_string(Path::new(DATA).join(format!("{name}.bbp-c.txt")));
        assert_eq!(String::from_utf8_lossy(&o.stdout), want.unwrap(), "{name}");
    }
}

/// FIDE's TRF example (Karl-Mala 2005, `../trf/karl_mala_2005.trf`) with `XXR 7` added: its
/// forfeits written without colours (`153 - -`) are listed as the reference lists them, the
/// higher number first, and its 'spielfrei' dummy line is no player.
#[test]
fn check_lists_karl_mala_as_the_reference_does() {
    let dir = Scratch::new("check-karl-mala");
    let text = std::fs::read_to_string(Path::new(DATA).join("../trf/karl_mala_2005.trf"));
    dir.write("karl_mala_2005.trf", &format!("{}XXR 7\n", text.unwrap()));
    let o = run(&dir.0, &["--dutch", "karl_mala_2005.trf", "-c"]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let want = std::fs::read_to_string(Path::new(DATA).join("karl_mala_2005.bbp-c.txt"));
    assert_eq!(String::from_utf8_lossy(&o.stdout), want.unwrap());
}

/// The reference's refusals (exit 3) with messages that name the file's records, never a
/// flag the manager did not pass: more rounds recorded than XXR plans (`-c` and `-p`), no
/// round left to pair, round 1 without an initial colour (`pair` pairs it with a note), an
/// empty file (refused by `-c` too, where the reference prints a blank line and exits 0: a
/// checker's silence must not pass a lost or truncated file as a clean one).
#[test]
fn bad_requests_are_refused_as_the_reference_refuses_them() {
    let dir = Scratch::new("refusals");
    let hand = std::fs::read_to_string(Path::new(DATA).join("hand_rtg_1001_r5.trf")).unwrap();
    dir.write("x3.trf", &hand.replace("XXR 5", "XXR 3"));
    dir.write("x5.trf", &hand);
    let round1: String = hand
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| format!("{}  0.0\n", &l[..79]))
        .collect();
    dir.write("r1.trf", &format!("012 Round one\nXXR 5\n{round1}"));
    dir.write("empty.trf", "");
    for (file, mode, words) in [
        ("x3.trf", "-c", "plans 3"),
        ("x3.trf", "-p", "plans 3"),
        ("x5.trf", "-p", "no round 6 to pair"),
        ("r1.trf", "-p", "initial colour"),
        // The reference says the number of rounds is missing; an empty file is refused by
        // every command, the engine line's checker included (it would pass as "no difference").
        ("empty.trf", "-p", "no players"),
        ("empty.trf", "-c", "no players"),
    ] {
        let o = run(&dir.0, &["--dutch", file, mode]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(code(&o), 3, "{file} {mode}: {err}");
        assert!(o.stdout.is_empty(), "{file} {mode}");
        assert!(
            err.contains(words) && !err.contains("--round"),
            "{file} {mode}: {err}"
        );
        assert!(!err.contains("withdrawn"), "{file} {mode}: {err}");
    }
    let o = run(&dir.0, &["pair", "r1.trf"]);
    assert_eq!(code(&o), 0);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no initial colour"));
}

#[test]
fn generate_writes_a_tournament_the_engine_reads_back() {
    let dir = Scratch::new("gen");
    std::fs::write(
        dir.path("cfg.txt"),
        "PlayersNumber=12\nRoundsNumber=4\nDrawPercentage=20\nPointsForWin=1.0\n",
    )
    .unwrap();
    let o = run(
        &dir.0,
        &["--dutch", "-g", "cfg.txt", "-o", "gen.trf", "-s", "7"],
    );
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let first = std::fs::read_to_string(dir.path("gen.trf")).unwrap();
    assert_eq!(first.lines().filter(|l| l.starts_with("001")).count(), 12);
    assert!(first.contains("XXR 4"));
    // Same seed, same file.
    let o = run(
        &dir.0,
        &["--dutch", "-g", "cfg.txt", "-o", "again.trf", "-s", "7"],
    );
    assert_eq!(code(&o), 0);
    assert_eq!(
        first,
        std::fs::read_to_string(dir.path("again.trf")).unwrap()
    );
    // The generated file checks clean round by round.
    let o = run(&dir.0, &["--dutch", "gen.trf", "-c"]);
    assert_eq!(code(&o), 0);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.matches("Round #").count(), 4, "{text}");
    assert!(
        !text.contains("  round"),
        "violations in a generated file: {text}"
    );
}

#[test]
fn subcommands_are_not_taken_for_the_engine_line() {
    let dir = Scratch::new("sub");
    let o = run(&dir.0, &["check", "-p"]);
    assert_eq!(code(&o), 2, "clap's usage error, not the engine's 3");
}
