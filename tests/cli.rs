//! The `optipair` command line as a tournament director uses it: `new`, `pair`, `record`,
//! `check`, their outputs, exit codes (0 fine, 1 a check found violations, 2 bad input), and
//! what happens to the tournament file when something is wrong.

use optipair::formats::{self, trf};
use optipair::generate;
use optipair::solve::Options;
use optipair::tournament::{GameResult, Tournament};
use optipair::SystemKind;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::cli::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
const REF_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch");

// ---------------------------------------------------------------------------------------------
// Helpers

fn data(name: &str) -> PathBuf {
    Path::new(DATA).join(name)
}

fn reference(name: &str) -> PathBuf {
    Path::new(REF_DIR).join(name)
}

fn assert_exit(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "{}", describe(o));
    assert!(!stderr(o).contains("panicked"), "{}", describe(o));
}

fn json_out(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", describe(o)))
}

/// (board, white, black) of a `pair --format json` answer.
fn json_pairings(v: &Value) -> Vec<(u64, u32, u32)> {
    v["pairings"]
        .as_array()
        .expect("pairings array")
        .iter()
        .map(|g| {
            (
                g["board"].as_u64().expect("board"),
                g["white"].as_u64().expect("white") as u32,
                g["black"].as_u64().expect("black") as u32,
            )
        })
        .collect()
}

fn load(path: &Path) -> Tournament {
    formats::load(path).unwrap_or_else(|e| panic!("{e}"))
}

/// The result lines for every game of round `r`: white wins on odd boards, draws on even.
fn all_results_by_board(t: &Tournament, r: u32) -> String {
    let games = &t.round(r).unwrap().games;
    (1..=games.len())
        .map(|b| format!("{b} {}\n", if b % 2 == 1 { "1-0" } else { "1/2" }))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// pair: output formats

#[test]
fn pair_prints_a_pairing_sheet() {
    let o = run(&["pair", p(&data("small.json"))]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("Round 1"), "{out}");
    // Every player appears once; 1 v 4, 5 v 2, 3 v 6 with the white player first (E.5).
    for name in [
        "Alice Archer",
        "Bob Baker",
        "Carol Clark",
        "Dan Dale",
        "Eve Evans",
        "Fay Fisher",
    ] {
        assert_eq!(out.matches(name).count(), 1, "{name}: {out}");
    }
    let line_with = |a: &str, b: &str| {
        out.lines()
            .find(|l| l.contains(a) && l.contains(b))
            .map(|l| l.find(a).unwrap() < l.find(b).unwrap())
    };
    assert_eq!(line_with("Alice Archer", "Dan Dale"), Some(true), "{out}");
    assert_eq!(line_with("Eve Evans", "Bob Baker"), Some(true), "{out}");
    assert_eq!(line_with("Carol Clark", "Fay Fisher"), Some(true), "{out}");
    assert!(out.contains("Optimal"), "{out}");
    assert!(out.contains("Verifier: no rule broken"), "{out}");
    // Without --timing the sheet leaves the seconds out rather than printing a placeholder.
    let cert = out.lines().find(|l| l.starts_with("Certificate:")).unwrap();
    assert!(
        !cert.trim_end().ends_with(" s") && !cert.contains("NaN"),
        "{cert}"
    );
    let timed = stdout(&run(&["pair", p(&data("small.json")), "--timing"]));
    let cert = timed
        .lines()
        .find(|l| l.starts_with("Certificate:"))
        .unwrap();
    assert!(cert.trim_end().ends_with(" s"), "{cert}");
}

#[test]
fn pair_json_has_pairings_byes_and_certificate() {
    let o = run(&["pair", p(&data("small.json")), "--format", "json"]);
    assert_exit(&o, 0);
    let v = json_out(&o);
    assert_eq!(json_pairings(&v), vec![(1, 1, 4), (2, 5, 2), (3, 3, 6)]);
    assert_eq!(v["byes"], Value::Array(vec![]));
    assert_eq!(v["certificate"]["status"], "optimal");
    let tiers = v["certificate"]["tiers"].as_array().expect("tiers");
    assert!(!tiers.is_empty());
    assert!(tiers.iter().all(|t| t["proved"] == true), "{v:#}");
    assert_eq!(v["violations"], Value::Array(vec![]));
    assert_eq!(v["round"], 1);
}

#[test]
fn pair_json_reports_the_bye() {
    // Seven players: the lowest-ranked gets the pairing-allocated bye.
    let s = Scratch::new("bye");
    let mut t = load(&data("small.json"));
    let mut extra = t.players[5].clone();
    extra.id = 7;
    extra.name = "Gil Grant".into();
    extra.rating = 1800;
    t.players.push(extra);
    let file = s.path("seven.json");
    formats::save(&file, &t).unwrap();
    let o = run(&["pair", p(&file), "--format", "json"]);
    assert_exit(&o, 0);
    let v = json_out(&o);
    let byes = v["byes"].as_array().expect("byes");
    assert_eq!(byes.len(), 1, "{v:#}");
    assert_eq!(byes[0]["player"], 7);
    assert_eq!(byes[0]["kind"], "pairing-allocated");
    assert_eq!(json_pairings(&v).len(), 3);
}

#[test]
fn pair_trf_output_parses_back() {
    let file = data("small.json");
    let o = run(&["pair", p(&file), "--format", "trf"]);
    assert_exit(&o, 0);
    let t = trf::parse(&stdout(&o)).unwrap_or_else(|e| panic!("{e}\n{}", stdout(&o)));
    t.validate().unwrap();
    assert_eq!(t.players.len(), 6);
    let names: BTreeSet<String> = t.players.iter().map(|p| p.name.clone()).collect();
    let orig: BTreeSet<String> = load(&file).players.iter().map(|p| p.name.clone()).collect();
    assert_eq!(names, orig);
    // The round in the TRF is the round the JSON output gives, games pending.
    let j = json_out(&run(&["pair", p(&file), "--format", "json"]));
    let want: BTreeSet<(u32, u32)> = json_pairings(&j).iter().map(|&(_, w, b)| (w, b)).collect();
    let r1 = t.round(1).expect("round 1 in the TRF");
    let got: BTreeSet<(u32, u32)> = r1.games.iter().map(|g| (g.white, g.black)).collect();
    assert_eq!(got, want);
    assert!(r1.games.iter().all(|g| g.result == GameResult::Pending));
}

#[test]
fn pair_trf_of_a_reference_round_parses_back_with_its_history() {
    let file = reference("rtg_1004_40p_7r.trf");
    let o = run(&["pair", p(&file), "--round", "5", "--format", "trf"]);
    assert_exit(&o, 0);
    let t = trf::parse(&stdout(&o)).unwrap_or_else(|e| panic!("{e}"));
    let orig = load(&file);
    assert_eq!(t.players.len(), orig.players.len());
    for r in 1..5 {
        assert_eq!(t.round(r), orig.round(r), "round {r} history changed");
    }
    assert!(t.round(5).unwrap().is_paired());
    // The round as written passes the independent check.
    assert!(optipair::verify::check_round(&t, 5, SystemKind::Swiss)
        .unwrap()
        .is_empty());
}

#[test]
fn pair_trf_of_an_earlier_round_drops_the_later_rounds() {
    let s = Scratch::new("trflater");
    let file = reference("rtg_1004_40p_7r.trf");
    let o = run(&["pair", p(&file), "--round", "5", "--format", "trf"]);
    assert_exit(&o, 0);
    let t = trf::parse(&stdout(&o)).unwrap_or_else(|e| panic!("{e}"));
    // "Re-pair round N from the rounds before it (later rounds ignored)": the tournament
    // printed ends with round 5, and the whole of it checks clean.
    assert!(
        t.round(6).is_none() && t.round(7).is_none(),
        "later rounds kept"
    );
    let out = s.write("out.trf", &stdout(&o));
    let o = run(&["check", p(&out)]);
    assert_exit(&o, 0);
}

// ---------------------------------------------------------------------------------------------
// Determinism

/// The JSON answer without the wall-clock time of the solve.
fn without_seconds(o: &Output) -> Value {
    let mut v = json_out(o);
    v["certificate"]
        .as_object_mut()
        .expect("certificate")
        .remove("seconds");
    v
}

#[test]
fn pair_json_is_byte_identical_across_runs() {
    for args in [
        vec![p(&data("small.json")).to_string()],
        vec![
            p(&reference("rtg_1004_40p_7r.trf")).to_string(),
            "--round".into(),
            "5".into(),
        ],
    ] {
        let mut a: Vec<&str> = vec!["pair"];
        a.extend(args.iter().map(|s| s.as_str()));
        a.extend(["--format", "json"]);
        let first = run(&a);
        let second = run(&a);
        assert_exit(&first, 0);
        assert_exit(&second, 0);
        assert_eq!(stdout(&first), stdout(&second), "{a:?}");
    }
}

#[test]
fn pair_is_deterministic_apart_from_timing() {
    let small = data("small.json");
    let rtg = reference("rtg_1004_40p_7r.trf");
    for a in [
        vec!["pair", p(&small), "--format", "json"],
        vec!["pair", p(&rtg), "--round", "5", "--format", "json"],
    ] {
        let (x, y) = (run(&a), run(&a));
        assert_exit(&x, 0);
        assert_exit(&y, 0);
        assert_eq!(without_seconds(&x), without_seconds(&y), "{a:?}");
    }
    // TRF output carries no timing: byte-identical.
    for a in [
        vec!["pair", p(&small), "--format", "trf"],
        vec!["pair", p(&rtg), "--round", "5", "--format", "trf"],
    ] {
        let (x, y) = (run(&a), run(&a));
        assert_exit(&x, 0);
        assert_eq!(x.stdout, y.stdout, "{a:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// pair --write, record

#[test]
fn write_then_record_then_pair_the_next_round() {
    let s = Scratch::new("write");
    let file = s.copy(&data("small.json"), "event.json");

    // Round 1 stored.
    let o = run(&["pair", p(&file), "--write", "--format", "json"]);
    assert_exit(&o, 0);
    let shown = json_pairings(&json_out(&o));
    let t = load(&file);
    let r1 = t.round(1).expect("round 1 stored");
    assert_eq!(
        r1.games
            .iter()
            .map(|g| (g.white, g.black))
            .collect::<Vec<_>>(),
        shown.iter().map(|&(_, w, b)| (w, b)).collect::<Vec<_>>(),
        "the stored round is the round printed"
    );
    assert!(r1.games.iter().all(|g| g.result == GameResult::Pending));
    assert_eq!(s.listing(), vec!["event.json"], "no temp files left");

    // Round 2 cannot be paired before round 1 has results.
    let before = std::fs::read(&file).unwrap();
    let o = run(&["pair", p(&file), "--write"]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains(p(&file)), "{}", describe(&o));
    assert!(stderr(&o).contains("result"), "{}", describe(&o));
    assert_eq!(std::fs::read(&file).unwrap(), before);

    // Results: boards 1 and 2 by board number from a file, board 3 by player ids on stdin.
    let results = s.write("r1.txt", "# round 1\n1 1-0\n2 1/2   # a draw\n");
    let o = run(&["record", p(&file), "--round", "1", "--results", p(&results)]);
    assert_exit(&o, 0);
    let g3 = load(&file).round(1).unwrap().games[2].clone();
    let line = format!("{} {} 0-1\n", g3.white, g3.black);
    let o = run_in(None, &["record", p(&file), "--round", "1"], Some(&line));
    assert_exit(&o, 0);
    let t = load(&file);
    let res: Vec<GameResult> = t.round(1).unwrap().games.iter().map(|g| g.result).collect();
    assert_eq!(
        res,
        vec![
            GameResult::WhiteWins,
            GameResult::Draw,
            GameResult::BlackWins
        ]
    );

    // Now round 2 pairs and is stored; round 1 is kept as it was.
    let o = run(&["pair", p(&file), "--write", "--format", "json"]);
    assert_exit(&o, 0);
    let v = json_out(&o);
    assert_eq!(v["round"], 2);
    assert_eq!(v["violations"], Value::Array(vec![]));
    let t2 = load(&file);
    assert_eq!(t2.round(1), t.round(1));
    assert_eq!(t2.round(2).unwrap().games.len(), 3);
    // No rematch of round 1 in round 2.
    let met: BTreeSet<(u32, u32)> = t
        .round(1)
        .unwrap()
        .games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect();
    for g in &t2.round(2).unwrap().games {
        assert!(!met.contains(&(g.white.min(g.black), g.white.max(g.black))));
    }
    // The whole file checks clean.
    assert_exit(&run(&["check", p(&file)]), 0);
    assert_eq!(s.listing(), vec!["event.json", "r1.txt"]);
}

// ---------------------------------------------------------------------------------------------
// new

#[test]
fn new_creates_a_tournament_and_refuses_to_overwrite() {
    let s = Scratch::new("new");
    let out = s.path("t.json");
    let o = run(&[
        "new",
        "--players",
        p(&data("players6.csv")),
        "--out",
        p(&out),
        "--rounds",
        "5",
        "--name",
        "Club championship",
    ]);
    assert_exit(&o, 0);
    let t = load(&out);
    assert_eq!(t.name, "Club championship");
    assert_eq!(t.rounds_planned, Some(5));
    assert!(t.rounds.is_empty());
    // Pairing numbers by rating, highest first.
    let got: Vec<(u32, &str, u32)> = t
        .players
        .iter()
        .map(|p| (p.id, p.name.as_str(), p.rating))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, "Alice Archer", 2210),
            (2, "Bob Baker", 2150),
            (3, "Carol Clark", 2080),
            (4, "Dan Dale", 1990),
            (5, "Eve Evans", 1920),
            (6, "Fisher, Fay", 1850),
        ]
    );
    // It pairs.
    assert_exit(&run(&["pair", p(&out)]), 0);

    // A second `new` onto the same file: exit 2, file untouched.
    let before = std::fs::read(&out).unwrap();
    let o = run(&[
        "new",
        "--players",
        p(&data("players6.csv")),
        "--out",
        p(&out),
    ]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains(p(&out)), "{}", describe(&o));
    assert_eq!(std::fs::read(&out).unwrap(), before);
    assert_eq!(s.listing(), vec!["t.json"]);
}

#[test]
fn new_can_write_trf() {
    let s = Scratch::new("newtrf");
    let out = s.path("t.trf");
    let o = run(&[
        "new",
        "--players",
        p(&data("players6.csv")),
        "--out",
        p(&out),
    ]);
    assert_exit(&o, 0);
    let t = load(&out);
    assert_eq!(t.players.len(), 6);
    assert_exit(&run(&["pair", p(&out), "--write"]), 0);
    assert!(load(&out).round(1).unwrap().is_paired());
}

#[test]
fn new_rejects_a_bad_player_list() {
    let s = Scratch::new("newbad");
    let csv = s.write("bad.csv", "name,rating\nAlice,2200\nBob,twenty\n");
    let out = s.path("t.json");
    let o = run(&["new", "--players", p(&csv), "--out", p(&out)]);
    assert_exit(&o, 2);
    let e = stderr(&o);
    assert!(
        e.contains(p(&csv)) && e.contains("line 3") && e.contains("rating"),
        "{e}"
    );
    assert!(!out.exists());
    assert_eq!(s.listing(), vec!["bad.csv"]);
}

// ---------------------------------------------------------------------------------------------
// check

#[test]
fn check_is_clean_on_a_reference_file() {
    let o = run(&["check", p(&reference("rtg_1001_16p_5r.trf"))]);
    assert_exit(&o, 0);
    assert!(stdout(&o).contains("clean"), "{}", describe(&o));
}

/// A small event with rounds 1 and 2 paired and played, through the command line.
fn two_rounds(s: &Scratch) -> PathBuf {
    let file = s.copy(&data("small.json"), "event.json");
    for r in 1..=2u32 {
        assert_exit(&run(&["pair", p(&file), "--write"]), 0);
        let t = load(&file);
        let text = all_results_by_board(&t, r);
        let o = run_in(
            None,
            &["record", p(&file), "--round", &r.to_string()],
            Some(&text),
        );
        assert_exit(&o, 0);
    }
    assert_exit(&run(&["check", p(&file)]), 0);
    file
}

#[test]
fn check_finds_a_rematch_introduced_by_hand() {
    let s = Scratch::new("rematch");
    let file = two_rounds(&s);
    // Replace round 2 with round 1's games, colours reversed: every game is a rematch.
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let r1: Vec<Value> = v["rounds"][0]["games"].as_array().unwrap().clone();
    let swapped: Vec<Value> = r1
        .iter()
        .map(|g| serde_json::json!({"white": g["black"], "black": g["white"], "result": "1-0"}))
        .collect();
    v["rounds"][1]["games"] = Value::Array(swapped.clone());
    std::fs::write(&file, serde_json::to_string_pretty(&v).unwrap()).unwrap();

    let o = run(&["check", p(&file)]);
    assert_exit(&o, 1);
    let out = stdout(&o);
    assert!(
        out.contains("rematch") && out.contains("FIDE C.04.1 b"),
        "{out}"
    );
    for g in &swapped {
        let pair = format!("{} v {}", g["white"], g["black"]);
        assert!(out.contains(&pair), "{pair} not reported: {out}");
    }
    // Only round 2 is wrong.
    assert_exit(&run(&["check", p(&file), "--round", "1"]), 0);
    let o = run(&["check", p(&file), "--round", "2", "--format", "json"]);
    assert_exit(&o, 1);
    let j = json_out(&o);
    let rules: Vec<&str> = j["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules.iter().filter(|r| **r == "FIDE C.04.1 b").count(),
        swapped.len(),
        "{j:#}"
    );
}

#[test]
fn check_exit_2_on_bad_input() {
    let s = Scratch::new("checkbad");
    let bad = s.write("bad.json", "{ \"format\": \"optipair/1\", \"players\": [ }");
    let o = run(&["check", p(&bad)]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains(p(&bad)), "{}", describe(&o));
    let o = run(&["check", p(&s.path("missing.json"))]);
    assert_exit(&o, 2);
    let o = run(&[
        "check",
        p(&reference("rtg_1001_16p_5r.trf")),
        "--system",
        "nope",
    ]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("nope"), "{}", describe(&o));
    let o = run(&[
        "check",
        p(&reference("rtg_1001_16p_5r.trf")),
        "--round",
        "99",
    ]);
    assert_exit(&o, 2);
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit 2, a message naming the place, no panic, no change to the file

/// Runs `args` (with `{}` replaced by `file`) in `s`, expecting exit 2 with every `needles`
/// in stderr, `file` unchanged byte for byte, and no new file in the directory.
fn rejects(s: &Scratch, file: &Path, args: &[&str], stdin: Option<&str>, needles: &[&str]) {
    let before = std::fs::read(file).unwrap();
    let listing = s.listing();
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "{}" { p(file) } else { *a })
        .collect();
    let o = run_in(Some(&s.0), &args, stdin);
    assert_exit(&o, 2);
    let e = stderr(&o);
    for n in needles {
        assert!(e.contains(n), "stderr lacks '{n}': {}", describe(&o));
    }
    assert_eq!(
        std::fs::read(file).unwrap(),
        before,
        "{args:?} changed the file"
    );
    assert_eq!(s.listing(), listing, "{args:?} left files behind");
}

#[test]
fn truncated_trf_is_rejected() {
    let s = Scratch::new("trunc");
    let text = std::fs::read(reference("rtg_1001_16p_5r.trf")).unwrap();
    // Cut in the middle of a player line, 60 characters into it.
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(
            text.iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\r' || b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect();
    let (line_no, start) = line_starts
        .iter()
        .enumerate()
        .filter(|(_, &st)| text[st..].starts_with(b"001"))
        .nth(5)
        .map(|(i, &st)| (i + 1, st))
        .expect("a sixth player line");
    let file = s.path("cut.trf");
    std::fs::write(&file, &text[..start + 60]).unwrap();
    let line = format!("line {line_no}");
    for args in [
        vec!["pair", "{}"],
        vec!["pair", "{}", "--write"],
        vec!["check", "{}"],
    ] {
        rejects(&s, &file, &args, None, &["cut.trf", &line, "field"]);
    }
}

#[test]
fn unknown_player_in_a_game_is_rejected() {
    let s = Scratch::new("unknown");
    let file = s.copy(&data("odd.json"), "t.json");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("\"white\": 4, \"black\": 2", "\"white\": 4, \"black\": 42");
    std::fs::write(&file, text).unwrap();
    for args in [
        vec!["pair", "{}", "--write"],
        vec!["check", "{}"],
        vec!["record", "{}", "--round", "1"],
    ] {
        rejects(
            &s,
            &file,
            &args,
            Some("1 1-0\n"),
            &["t.json", "rounds[0].games[1].black", "42"],
        );
    }
}

#[test]
fn duplicate_player_id_is_rejected() {
    let s = Scratch::new("dup");
    let file = s.copy(&data("small.json"), "t.json");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("\"id\": 5,", "\"id\": 2,");
    std::fs::write(&file, text).unwrap();
    for args in [vec!["pair", "{}", "--write"], vec!["check", "{}"]] {
        rejects(
            &s,
            &file,
            &args,
            None,
            &["t.json", "players[4].id", "duplicate"],
        );
    }
}

#[test]
fn result_for_an_unpaired_player_is_rejected() {
    let s = Scratch::new("unpaired");
    let file = s.copy(&data("odd.json"), "t.json");
    // Player 5 has the bye in round 1; line 1 is fine, line 2 is not: nothing is recorded.
    let _results = s.write("res.txt", "1 3 1-0\n5 2 1-0\n");
    rejects(
        &s,
        &file,
        &["record", "{}", "--round", "1", "--results", "res.txt"],
        None,
        &["res.txt", "line 2", "field white", "unpaired"],
    );
    // The same from standard input.
    rejects(
        &s,
        &file,
        &["record", "{}", "--round", "1"],
        Some("4 2 0-1\n2 5 1/2\n"),
        &["line 2", "field black", "unpaired"],
    );
    // A round not paired yet.
    rejects(
        &s,
        &file,
        &["record", "{}", "--round", "2"],
        Some("1 1-0\n"),
        &["round 2"],
    );
}

#[test]
fn invalid_json_is_rejected() {
    let s = Scratch::new("badjson");
    let file = s.write(
        "t.json",
        "{\n  \"format\": \"optipair/1\",\n  \"players\": [\n    { \"id\": 1, \"name\": \"A\" },\n  ]\n}\n",
    );
    for args in [
        vec!["pair", "{}", "--write"],
        vec!["check", "{}"],
        vec!["record", "{}", "--round", "1"],
    ] {
        rejects(&s, &file, &args, Some("1 1-0\n"), &["t.json", "line 5"]);
    }
    // A misspelt field names the field.
    let file2 = s.write(
        "t2.json",
        "{\n  \"format\": \"optipair/1\",\n  \"players\": [ { \"id\": 1, \"name\": \"A\", \"ratng\": 5 } ]\n}\n",
    );
    rejects(
        &s,
        &file2,
        &["pair", "{}"],
        None,
        &["t2.json", "line 3", "ratng"],
    );
}

#[test]
fn pair_write_on_a_paired_round_is_rejected() {
    let s = Scratch::new("repair");
    let file = s.copy(&data("odd.json"), "t.json");
    rejects(
        &s,
        &file,
        &["pair", "{}", "--round", "1", "--write"],
        None,
        &["t.json", "--round", "already paired"],
    );
    // Without --write, re-pairing round 1 is only printed.
    let before = std::fs::read(&file).unwrap();
    let o = run(&["pair", p(&file), "--round", "1"]);
    assert_exit(&o, 0);
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn unknown_system_is_rejected() {
    let s = Scratch::new("system");
    let file = s.copy(&data("small.json"), "t.json");
    rejects(
        &s,
        &file,
        &["pair", "{}", "--system", "no-such-system", "--write"],
        None,
        // Refused by the argument parser (a `SystemKind`), before the file is read.
        &["--system", "unknown system 'no-such-system'", "nsc2006"],
    );
    rejects(
        &s,
        &file,
        &["check", "{}", "--system", "no-such-system"],
        None,
        &["no-such-system"],
    );
}

#[test]
fn bad_arguments_are_exit_2() {
    let o = run(&["pair"]);
    assert_exit(&o, 2);
    let o = run(&["pair", p(&data("small.json")), "--format", "xml"]);
    assert_exit(&o, 2);
    let o = run(&["frobnicate"]);
    assert_exit(&o, 2);
    let o = run(&["pair", p(&data("players6.csv"))]);
    assert_exit(&o, 2);
}

// ---------------------------------------------------------------------------------------------
// Time limit

#[test]
fn tiny_time_limit_falls_back_to_a_legal_pairing() {
    let s = Scratch::new("limit");
    let spec = generate::Spec {
        players: 321,
        rounds: 9,
        played: 3,
        seed: 42,
        draw_rate: 0.3,
        system: SystemKind::Swiss,
    };
    let greedy = Options {
        greedy_only: true,
        ..Options::default()
    };
    let t = generate::field(&spec, &greedy).expect("generated field");
    let file = s.path("big.json");
    formats::save(&file, &t).unwrap();
    for limit in ["0", "0.001"] {
        let o = run(&["pair", p(&file), "--time-limit", limit, "--format", "json"]);
        assert_exit(&o, 0);
        let v = json_out(&o);
        assert_eq!(v["round"], 4);
        assert_eq!(v["certificate"]["status"], "fallback", "limit {limit}");
        assert_eq!(
            v["violations"],
            Value::Array(vec![]),
            "limit {limit}: {v:#}"
        );
        assert_eq!(v["unpaired"], Value::Array(vec![]));
        let pairs = json_pairings(&v);
        let byes = v["byes"].as_array().unwrap().len();
        assert_eq!(2 * pairs.len() + byes, 321);
        assert_eq!(byes, 1);
    }
}

#[test]
fn generate_is_deterministic_by_seed_and_checks_clean() {
    let s = Scratch::new("generate");
    let (a, b, c) = (s.path("a.json"), s.path("b.json"), s.path("c.json"));
    for (out, seed) in [(&a, "7"), (&b, "7"), (&c, "8")] {
        let o = run(&[
            "generate",
            "--players",
            "30",
            "--rounds",
            "7",
            "--played",
            "3",
            "--seed",
            seed,
            "--out",
            p(out),
        ]);
        assert_exit(&o, 0);
    }
    let read = |f: &Path| std::fs::read(f).unwrap();
    assert_eq!(read(&a), read(&b), "same seed, same field");
    assert_ne!(read(&a), read(&c), "another seed, another field");
    let t = load(&a);
    assert_eq!(t.players.len(), 30);
    assert_eq!(t.last_paired_round(), 3);
    assert_exit(&run(&["check", p(&a)]), 0);
}

/// PROG's groups are the arbiter's to set: a generated field the defaults (2000 / 1600) do not
/// fit gets groups from its own ratings, kept in JSON and paired; a TRF file, which cannot hold
/// them, is written with a note saying so.
#[test]
fn generate_prog_sets_groups_from_the_field() {
    let s = Scratch::new("generate-prog");
    let (json, trf) = (s.path("prog.json"), s.path("prog.trf"));
    for out in [&json, &trf] {
        let o = run(&[
            "generate",
            "--system",
            "prog",
            "--players",
            "24",
            "--rounds",
            "5",
            "--played",
            "2",
            "--seed",
            "4",
            "--out",
            p(out),
        ]);
        assert_exit(&o, 0);
        let noted = stderr(&o).contains("a TRF file cannot hold them");
        assert_eq!(noted, out == &trf, "{}", describe(&o));
    }
    let t = load(&json);
    assert_eq!(t.last_paired_round(), 2);
    assert!(t.settings.contains_key("prog.a_min") && t.settings.contains_key("prog.c_below"));
    assert_exit(&run(&["pair", p(&json), "--system", "prog"]), 0);
}

#[test]
fn generate_rejects_more_rounds_played_than_planned() {
    let s = Scratch::new("generate-bad");
    let out = s.path("x.json");
    let o = run(&[
        "generate",
        "--players",
        "10",
        "--rounds",
        "2",
        "--played",
        "3",
        "--out",
        p(&out),
    ]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--played"), "{}", describe(&o));
    assert!(!out.exists());
}

#[test]
fn bench_reports_a_proved_optimum_for_both_formulations() {
    let s = Scratch::new("bench");
    let csv = s.path("bench.csv");
    let o = run(&[
        "bench",
        "--players",
        "60",
        "--round",
        "4",
        "--plain",
        "--csv",
        p(&csv),
    ]);
    assert_exit(&o, 0);
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[0], "60");
        assert_eq!(f[2], "Optimal", "{row}");
        assert_eq!(f[5], "1770", "all pairs of 60 players: {row}");
    }
    // What was proved, in an organiser's words: no solver vocabulary.
    let out = stdout(&o);
    assert!(
        out.contains("every criterion proved optimal; ") && out.contains(" of 1,770"),
        "{}",
        describe(&o)
    );
    for jargon in ["odd-set", "LP face", "HiGHS", "dual"] {
        assert!(!out.contains(jargon), "{jargon}: {}", describe(&o));
    }
    // `bench` pairs as `pair` does: for the Swiss system, the FIDE Dutch procedure; the
    // plain row is the tier model.
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" pair ") && l.contains("FIDE Dutch procedure: ")),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" plain ") && l.contains("tier model: ")),
        "{out}"
    );
}

/// Progress lines are for a terminal: with standard error a pipe (a log), neither `bench` nor
/// `pair` writes one.
#[test]
fn progress_never_goes_into_a_pipe() {
    let s = Scratch::new("progress");
    let field = s.path("field.json");
    let o = run(&[
        "generate",
        "--players",
        "300",
        "--rounds",
        "9",
        "--played",
        "5",
        "--seed",
        "3",
        "--greedy-history",
        "--out",
        p(&field),
    ]);
    assert_exit(&o, 0);
    for args in [
        vec![
            "bench",
            "--players",
            "300",
            "--round",
            "6",
            "--system",
            "ecf-basic",
        ],
        vec!["bench", "--players", "300", "--round", "6"],
        vec!["pair", p(&field)],
    ] {
        let o = run(&args);
        assert_exit(&o, 0);
        let err = stderr(&o);
        assert!(
            !err.contains('\r') && !err.contains("bracket ") && !err.contains("tier "),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn divisions_are_paired_one_at_a_time_and_stored_side_by_side() {
    let dir = Scratch::new("divisions");
    let mut players: Vec<optipair::tournament::Player> = (1..=10)
        .map(|i| optipair::tournament::Player::new(i, format!("P{i}"), 2000 - 10 * i))
        .collect();
    for p in &mut players {
        p.division = Some(if p.id <= 6 { "A" } else { "B" }.to_string());
    }
    let file = dir.path("div.json");
    formats::save(&file, &Tournament::new("two divisions", players)).unwrap();
    // Without a division the request is ambiguous: refused, file untouched.
    let o = run(&["pair", p(&file), "--write"]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("divisions A, B"), "{}", describe(&o));
    assert_exit(&run(&["pair", p(&file), "--division", "C"]), 2);
    assert_exit(&run(&["pair", p(&file), "--write", "--division", "A"]), 0);
    assert_exit(&run(&["pair", p(&file), "--write", "--division", "B"]), 0);
    let t = load(&file);
    let r1 = t.round(1).unwrap();
    assert_eq!(r1.games.len(), 5);
    for g in &r1.games {
        let d = |id: u32| t.player(id).unwrap().division.clone();
        assert_eq!(d(g.white), d(g.black), "a game across divisions: {g:?}");
    }
    // Each division checks clean on its own.
    assert_exit(&run(&["check", p(&file)]), 0);
}

#[test]
fn pair_prog_as_trf_carries_the_fictitious_points_as_xxa() {
    let dir = Scratch::new("prog-xxa");
    let players: Vec<optipair::tournament::Player> = (1..=12)
        .map(|i| optipair::tournament::Player::new(i, format!("P{i}"), 2300 - 80 * i))
        .collect();
    let mut t = Tournament::new("prog", players);
    t.rounds_planned = Some(7);
    let file = dir.path("prog.json");
    formats::save(&file, &t).unwrap();
    let o = run(&["pair", p(&file), "--system", "prog", "--format", "trf"]);
    assert_exit(&o, 0);
    let back = trf::parse(&stdout(&o)).expect("TRF output parses");
    // PROG: group A (2000 and up) starts 2 fictitious points ahead, B 1, C none.
    let vp = |id: u32| back.player(id).unwrap().virtual_points.clone();
    assert_eq!(vp(1), vec![2.0]);
    assert_eq!(vp(6), vec![1.0]);
    assert!(vp(12).is_empty());
}

#[test]
fn a_scrabble_pairing_sheet_says_first_and_second() {
    let dir = Scratch::new("scrabble-sheet");
    let inst = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    let t = dir.copy(&inst.join("tsh-16.t"), "tsh-16.t");
    dir.copy(&inst.join("tsh-16.tsh.json"), "tsh-16.tsh.json");
    let o = run(&["pair", p(&t), "--system", "tsh-cp"]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("First") && out.contains("Second"), "{out}");
    assert!(!out.contains("White"), "{out}");
    assert!(out.contains("Verifier: no rule broken."), "{out}");
}

/// TSH07 pairs round r from the standings after round r − 2 (lag 2), except in the final
/// round: so `pair` pairs round 7 of `tsh-16` while round 6's results are still out, and
/// refuses round 8 (the final round, paired from round 7) until round 7's results are in.
#[test]
fn tsh_pairs_ahead_of_the_latest_results_with_lagged_standings() {
    let dir = Scratch::new("tsh-lag");
    let inst = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    let t = dir.copy(&inst.join("tsh-16.t"), "tsh-16.t");
    dir.copy(&inst.join("tsh-16.tsh.json"), "tsh-16.tsh.json");
    assert_eq!(load(&t).last_paired_round(), 5);
    for round in [6, 7] {
        let o = run(&["pair", p(&t), "--system", "tsh-cp", "--write"]);
        assert_exit(&o, 0);
        let back = load(&t);
        assert_eq!(back.last_paired_round(), round, "{}", describe(&o));
        assert!(
            stdout(&o).contains("Verifier: no rule broken."),
            "{}",
            describe(&o)
        );
        assert!(back
            .round(round)
            .unwrap()
            .games
            .iter()
            .all(|g| g.result == GameResult::Pending));
    }
    let before = std::fs::read(&t).unwrap();
    let o = run(&["pair", p(&t), "--system", "tsh-cp", "--write"]);
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("round 6 has no result") && err.contains("paired from the results of round 7"),
        "{err}"
    );
    assert_eq!(std::fs::read(&t).unwrap(), before);
}
