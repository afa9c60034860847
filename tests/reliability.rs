//! Nothing breaks and nothing lies: hostile numbers at the boundary get a clear refusal (exit
//! 2), output errors an exit with a message (exit 4) instead of a panic, the fallback pairs
//! everyone a legal pairing can pair, a round no pairing can complete is refused with the
//! players and the reason, and a pairing the verifier rejects is neither stored nor called
//! optimal.

use optipair::engine::pair_round;
use optipair::generate;
use optipair::solve::{self, Options, Status};
use optipair::spec::{ByeOption, RoundSpec, Tier};
use optipair::spec::{Candidate, PairSource, SparseSpec};
use optipair::tournament::Tournament;
use optipair::SystemKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use crate::common::cli::*;

const INSTANCES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/instances");

/// `new` from a CSV of `n` players rated from 2000 down, `rounds` planned.
fn event(dir: &Scratch, n: usize, rounds: u32) -> PathBuf {
    let mut csv = String::from("name,rating\n");
    for i in 0..n {
        csv.push_str(&format!("Player {},{}\n", i + 1, 2000 - 10 * i));
    }
    let list = dir.write("players.csv", &csv);
    let file = dir.0.join("event.json");
    let o = run(&[
        "new",
        "--players",
        list.to_str().unwrap(),
        "--out",
        file.to_str().unwrap(),
        "--rounds",
        &rounds.to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    file
}

#[test]
fn time_limits_that_are_not_a_number_of_seconds_up_to_a_week_are_refused() {
    let club = format!("{INSTANCES}/club-12.json");
    for bad in [
        "inf",
        "1e19",
        "1e308",
        "12345678901234567890",
        "nan",
        "-1",
        "-0.5",
        "604801",
    ] {
        let flag = format!("--time-limit={bad}");
        for args in [
            vec!["pair", club.as_str(), flag.as_str()],
            vec!["audit", club.as_str(), "--round", "1", flag.as_str()],
            vec!["bench", "--players", "10", flag.as_str()],
            vec![
                "simulate",
                "--system",
                "swiss",
                "--players",
                "8",
                "--rounds",
                "3",
                "--runs",
                "1",
                flag.as_str(),
            ],
        ] {
            let o = run(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("time limit is a number of seconds")
                    || stderr(&o).contains("is not a number of seconds"),
                "{args:?}: {}",
                stderr(&o)
            );
        }
    }
    // A week exactly is a limit like any other.
    let o = run(&["pair", club.as_str(), "--time-limit", "604800"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn output_to_a_closed_pipe_or_a_full_disk_is_exit_4_with_a_message() {
    let open = format!("{INSTANCES}/open-250.trf");
    // A pipe whose reading end is closed before the command starts.
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let o = Command::new(BIN)
        .args(["pair", open.as_str()])
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("standard output"), "{}", stderr(&o));
    if Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let o = Command::new(BIN)
            .args(["check", open.as_str()])
            .stdin(Stdio::null())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("run");
        assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
        assert!(stderr(&o).contains("No space left"), "{}", stderr(&o));
    }
}

#[test]
fn points_and_round_numbers_beyond_any_event_are_refused_at_load() {
    let dir = Scratch::new("bounds");
    let cases = [
        (
            r#"{"format":"optipair/1","scoring":{"win":1e300},"players":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#,
            "scoring.win",
        ),
        (
            r#"{"format":"optipair/1","scoring":{"loss":-1e19},"players":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#,
            "scoring.loss",
        ),
        (
            r#"{"format":"optipair/1","players":[{"id":1,"name":"a"},{"id":2,"name":"b"}],"rounds":[{"number":4294967295,"games":[{"white":1,"black":2,"result":"1-0"}]}]}"#,
            "rounds[0].number",
        ),
        (
            r#"{"format":"optipair/1","rounds_planned":4294967295,"players":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#,
            "rounds_planned",
        ),
    ];
    for (i, (text, field)) in cases.iter().enumerate() {
        let f = dir.write(&format!("bad{i}.json"), text);
        for cmd in ["check", "pair"] {
            let o = run(&[cmd, f.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(2), "{text}: {}", stderr(&o));
            assert!(
                stderr(&o).contains(&format!("field {field}")),
                "{text}: {}",
                stderr(&o)
            );
        }
    }
    // The largest values accepted pair without overflow in the score arithmetic.
    let f = dir.write(
        "extreme.json",
        r#"{"format":"optipair/1","scoring":{"win":1000000,"draw":0.001,"loss":-1000000,"forfeit_loss":-1000000},
           "players":[{"id":1,"name":"a","rating":2000},{"id":2,"name":"b","rating":1900},
                      {"id":3,"name":"c","rating":1800},{"id":4,"name":"d","rating":1700}],
           "rounds":[{"number":1,"games":[{"white":1,"black":3,"result":"1-0"},{"white":4,"black":2,"result":"1/2-1/2"}]}]}"#,
    );
    let o = run(&["pair", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn an_unknown_system_named_in_the_file_names_the_file_and_its_field() {
    let dir = Scratch::new("system");
    let f = dir.write(
        "e.json",
        r#"{"format":"optipair/1","system":"dutchh","players":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#,
    );
    for cmd in ["pair", "check"] {
        let o = run(&[cmd, f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        let e = stderr(&o);
        assert!(e.contains("e.json") && e.contains("field system"), "{e}");
        assert!(e.contains("unknown system 'dutchh'"), "{e}");
    }
    // From the flag, the flag is named.
    let o = run(&["pair", f.to_str().unwrap(), "--system", "nope"]);
    assert!(stderr(&o).contains("field --system"), "{}", stderr(&o));
}

#[test]
fn checking_a_round_that_is_not_paired_says_which_rounds_are() {
    let open = format!("{INSTANCES}/open-250.trf");
    let o = run(&["check", open.as_str(), "--round", "4294967295"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("round 4294967295 is not paired (the last paired round is 4)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_round_no_pairing_can_complete_is_refused_with_the_players_and_why() {
    // C.04.1 b: after a four-player round robin everyone has met everyone.
    let dir = Scratch::new("impossible");
    let file = event(&dir, 4, 50);
    for r in 1..=3 {
        let o = run(&["pair", file.to_str().unwrap(), "--write"]);
        assert_eq!(o.status.code(), Some(0), "round {r}: {}", stderr(&o));
        let o = Command::new(BIN)
            .args(["record", file.to_str().unwrap(), "--round", &r.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(b"1 1-0\n2 0-1\n")?;
                c.wait_with_output()
            })
            .expect("record");
        assert_eq!(o.status.code(), Some(0));
    }
    let before = std::fs::read(&file).unwrap();
    for extra in [&[][..], &["--greedy"][..], &["--write"][..]] {
        let mut args = vec!["pair", file.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        let e = stderr(&o);
        assert!(
            e.contains("round 4 has no legal pairing under swiss"),
            "{e}"
        );
        assert!(
            e.contains(
                "Player 1 (1), Player 2 (2), Player 3 (3), Player 4 (4) have already met every \
                 other player present (FIDE C.04.1 b"
            ),
            "{e}"
        );
        assert!(!String::from_utf8_lossy(&o.stdout).contains("Optimal"));
    }
    assert_eq!(std::fs::read(&file).unwrap(), before, "nothing written");
}

#[test]
fn a_round_without_players_is_refused() {
    let dir = Scratch::new("empty");
    let file = event(&dir, 4, 5);
    let mut t: Tournament = optipair::formats::load(&file).unwrap();
    for p in &mut t.players {
        p.withdrawn = Some(1);
    }
    optipair::formats::save(&file, &t).unwrap();
    let o = run(&["pair", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("round 1 has no players to pair"),
        "{}",
        stderr(&o)
    );
}

/// Pairs every player a pairing can pair, on every chess system, with the fallback alone, on
/// fields where the rank-order greedy leaves players over; the verifier then finds nothing.
#[test]
fn the_fallback_pairs_everyone_and_keeps_every_rule_on_large_fields() {
    for (players, seed) in [(2000usize, 3u64), (3001, 8)] {
        // History paired by the fallback too (as `generate --greedy-history`): quick, and
        // far from the tidy pairings the exact solve leaves behind.
        let quick = Options {
            greedy_only: true,
            ..Options::default()
        };
        let t = generate::field(
            &generate::Spec {
                players,
                rounds: 9,
                played: 4,
                seed,
                draw_rate: 0.2,
                system: SystemKind::Swiss,
            },
            &quick,
        )
        .expect("field");
        for system in [
            SystemKind::Swiss,
            SystemKind::Baku,
            SystemKind::EcfBasic,
            SystemKind::UscfBatches,
        ] {
            let opts = Options {
                greedy_only: true,
                ..Options::default()
            };
            let p = pair_round(&t, 5, system, &opts).expect("pairs");
            assert!(p.pairing.unpaired.is_empty(), "{system} {players}");
            // The fallback pairs by rank and cost, not by the rulebook's transpositions: on a
            // US Chess system it may switch past the 80- or 200-point limits, and is then
            // rejected (never stored). Every other rule it keeps.
            let switch = |rule: &str| rule == "US Chess 29E5a" || rule == "US Chess 29E5b";
            if system == SystemKind::UscfBatches {
                assert!(
                    p.violations.iter().all(|v| switch(&v.rule)),
                    "{system} {players}: {:?}",
                    p.violations.iter().find(|v| !switch(&v.rule))
                );
            } else {
                assert!(
                    p.violations.is_empty(),
                    "{system} {players}: {:?}",
                    p.violations.first()
                );
                assert_eq!(p.pairing.certificate.status, Status::Fallback);
            }
            let paired = 2 * p.round.games.len() + p.round.byes.len();
            let present = t.players.iter().filter(|q| q.active_in(5)).count();
            assert_eq!(paired, present, "{system} {players}");
        }
    }
}

/// A specification of `n` players with the given allowed pairs (costs on one tier) and bye
/// options.
fn spec(n: usize, pairs: &[(usize, usize, i64)], byes: &[usize], max_byes: usize) -> RoundSpec {
    RoundSpec {
        system: "test".into(),
        round: 1,
        players: (1..=n as u32).collect(),
        scores: vec![0.0; n],
        tiers: vec![Tier::new("cost", "test")],
        candidates: pairs
            .iter()
            .map(|&(a, b, c)| Candidate {
                a,
                b,
                white: a,
                costs: vec![c],
            })
            .collect(),
        byes: byes
            .iter()
            .map(|&p| ByeOption {
                player: p,
                costs: vec![0],
            })
            .collect(),
        max_byes,
        odd_sets: Vec::new(),
        rows: Vec::new(),
        notes: Vec::new(),
    }
}

/// The fewest players any pairing leaves without a game or bye (brute force).
fn fewest_unpaired(
    n: usize,
    pairs: &[(usize, usize, i64)],
    byes: &[usize],
    max_byes: usize,
) -> usize {
    fn go(
        i: usize,
        used: &mut Vec<bool>,
        adj: &[Vec<usize>],
        byes: &[usize],
        left: usize,
    ) -> usize {
        let n = used.len();
        let Some(i) = (i..n).find(|&k| !used[k]) else {
            return 0;
        };
        used[i] = true;
        // i unpaired
        let mut best = 1 + go(i + 1, used, adj, byes, left);
        if left > 0 && byes.contains(&i) {
            best = best.min(go(i + 1, used, adj, byes, left - 1));
        }
        for &j in &adj[i] {
            if !used[j] {
                used[j] = true;
                best = best.min(go(i + 1, used, adj, byes, left));
                used[j] = false;
            }
        }
        used[i] = false;
        best
    }
    let mut adj = vec![Vec::new(); n];
    for &(a, b, _) in pairs {
        adj[a].push(b);
        adj[b].push(a);
    }
    go(0, &mut vec![false; n], &adj, byes, max_byes)
}

/// Edmonds' augmenting paths leave as few players unpaired as any pairing: random graphs with
/// odd cycles (blossoms), against brute force.
#[test]
fn the_fallback_leaves_as_few_unpaired_as_any_pairing() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let opts = Options {
        greedy_only: true,
        ..Options::default()
    };
    for case in 0..400 {
        let n = 2 + (next() % 11) as usize;
        let density = 1 + next() % 4;
        let mut pairs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if next() % 6 < density {
                    pairs.push((a, b, (next() % 5) as i64));
                }
            }
        }
        let byes: Vec<usize> = (0..n).filter(|_| next() % 3 == 0).collect();
        let max_byes = (n % 2).min(byes.len());
        let s = spec(n, &pairs, &byes, max_byes);
        let p = solve::solve(&s, &opts);
        let want = fewest_unpaired(n, &pairs, &byes, max_byes);
        assert_eq!(
            p.unpaired.len(),
            want,
            "case {case}: n {n}, pairs {pairs:?}, byes {byes:?}"
        );
        assert!(p.byes.len() <= max_byes);
        for &(w, b) in &p.games {
            let (a, c) = ((w - 1) as usize, (b - 1) as usize);
            assert!(
                pairs
                    .iter()
                    .any(|&(x, y, _)| (x, y) == (a.min(c), a.max(c))),
                "case {case}: {w}-{b} is not allowed"
            );
        }
    }
}

/// A pair source allowing every pair of a cycle of `n` players (i with i+1 and n-1 with 0),
/// while the listed candidates hold only a path that has no perfect matching with them.
struct Cycle(usize);

impl PairSource for Cycle {
    fn pair(&self, a: usize, b: usize) -> Option<Candidate> {
        let (a, b) = (a.min(b), a.max(b));
        (b == a + 1 || (a == 0 && b == self.0 - 1)).then(|| Candidate {
            a,
            b,
            white: a,
            costs: vec![1],
        })
    }
    fn class(&self, _i: usize) -> usize {
        0
    }
    fn lower(&self, _g: usize, _h: usize) -> Vec<i64> {
        vec![0]
    }
    fn upper(&self) -> Vec<i64> {
        vec![1]
    }
}

/// With a pair source, the fallback's augmenting paths use every allowed pair, not only the
/// listed ones: the listed pairs 1-2, 3-4, ... skip the wrap-around pair the pairing needs.
#[test]
fn the_fallback_reaches_pairs_only_the_source_lists() {
    let n = 10;
    // Listed: 1-2 (indices 1,2), 3-4, 5-6, 7-8: players 0 and 9 are left over without 9-0.
    let listed: Vec<(usize, usize, i64)> = (0..4).map(|k| (2 * k + 1, 2 * k + 2, 0)).collect();
    let s = spec(n, &listed, &[], 0);
    let sparse = SparseSpec {
        spec: s,
        source: Arc::new(Cycle(n)),
    };
    let opts = Options {
        greedy_only: true,
        ..Options::default()
    };
    let p = solve::solve_sparse(&sparse, &opts);
    assert!(p.unpaired.is_empty(), "{:?}", p.unpaired);
    assert_eq!(p.games.len(), 5);
    assert!(p
        .games
        .iter()
        .any(|&(w, b)| (w.min(b), w.max(b)) == (1, 10)));
}

/// The memory guard: past `--memory-limit` the run stops with a message and exit 4, and
/// writes nothing (here a 20,000-player field that needs more than 64 MiB).
#[test]
fn past_the_memory_limit_the_run_stops_with_exit_4_and_writes_nothing() {
    let dir = Scratch::new("memory");
    let out = dir.0.join("field.json");
    let o = run(&[
        "generate",
        "--players",
        "20000",
        "--rounds",
        "9",
        "--played",
        "1",
        "--greedy-history",
        "--memory-limit",
        "64",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the memory limit was reached"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(&dir.0).unwrap().count(),
        0,
        "no file left"
    );
    // A limit too small to mean anything is refused as such.
    let o = run(&["check", "x.json", "--memory-limit", "1"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A pairing the verifier rejects (here a chess event paired under the NSC 2006 schedule,
/// whose early sessions allow no repeat) is shown with its findings, exits 3, is not written,
/// and nothing in its certificate claims optimality.
#[test]
fn a_pairing_the_verifier_rejects_is_not_stored_or_called_optimal() {
    let dir = Scratch::new("rejected");
    let file = dir.copy(Path::new(&format!("{INSTANCES}/open-250.trf")), "open.trf");
    let before = std::fs::read(&file).unwrap();
    for extra in [&["--format", "json"][..], &["--write"][..]] {
        let mut args = vec!["pair", file.to_str().unwrap(), "--system", "nsc2006"];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        assert!(stderr(&o).contains("NSC06 repeats"), "{}", stderr(&o));
        assert!(stderr(&o).contains("the verifier rejected the pairing of round 5"));
        let out = String::from_utf8_lossy(&o.stdout).to_lowercase();
        if extra[0] == "--format" {
            let v: serde_json::Value = serde_json::from_str(&out).expect("json");
            let c = &v["certificate"];
            assert_eq!(c["status"], "rejected");
            assert!(!c["summary"].as_str().unwrap().contains("optimal"));
            assert!(c["tiers"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t["proved"] == false));
            assert!(!v["violations"].as_array().unwrap().is_empty());
        } else {
            assert!(!out.contains("proved optimal"), "{out}");
        }
    }
    assert_eq!(std::fs::read(&file).unwrap(), before, "nothing written");
}

/// Systems whose documents count in 1-½-0 points (their groups are "winners", "1's", "½'s",
/// their virtual points ½ and 1) refuse another scoring, naming the field, instead of pairing
/// by groups read in the wrong units; the Dutch system pairs any scoring.
#[test]
fn systems_counted_in_one_half_zero_refuse_another_scoring() {
    let dir = Scratch::new("scoring");
    let file = event(&dir, 8, 5);
    let mut t: Tournament = optipair::formats::load(&file).unwrap();
    t.scoring.win = 3.0;
    t.scoring.draw = 1.0;
    t.scoring.forfeit_win = 3.0;
    t.scoring.pairing_bye = 3.0;
    t.scoring.full_bye = 3.0;
    t.scoring.half_bye = 1.0;
    optipair::formats::save(&file, &t).unwrap();
    // Every system but the Dutch one.
    for system in optipair::SystemKind::ALL
        .map(optipair::SystemKind::name)
        .into_iter()
        .filter(|&s| s != "swiss")
    {
        let o = run(&["pair", file.to_str().unwrap(), "--system", system]);
        assert_eq!(o.status.code(), Some(2), "{system}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("field scoring.win"), "{system}: {e}");
        assert!(e.contains("this event scores 3-1-0"), "{system}: {e}");
    }
    let o = run(&["pair", file.to_str().unwrap(), "--system", "swiss"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Scores are kept exactly in thousandths of a point: a scoring or virtual points outside that
/// grid (a win worth 1e-300, 0.0005) are refused at load, naming the field, rather than paired
/// by groups the verifier reads differently.
#[test]
fn points_off_the_thousandths_grid_are_refused_at_load() {
    let dir = Scratch::new("grid");
    for (text, field) in [
        (
            r#"{"format":"optipair/1","scoring":{"win":1e-300},"players":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#,
            "scoring.win",
        ),
        (
            r#"{"format":"optipair/1","scoring":{"draw":0.0005},"players":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#,
            "scoring.draw",
        ),
        (
            r#"{"format":"optipair/1","players":[{"id":1,"name":"a","virtual_points":[0.3333]},{"id":2,"name":"b"}]}"#,
            "players[0].virtual_points",
        ),
    ] {
        let f = dir.write("e.json", text);
        let o = run(&["pair", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert!(
            stderr(&o).contains(&format!("field {field}")),
            "{}",
            stderr(&o)
        );
    }
    let f = dir.write(
        "ok.json",
        r#"{"format":"optipair/1","scoring":{"win":3,"draw":1.5,"pairing_bye":0.001},"players":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#,
    );
    let o = run(&["pair", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// The fallback keeps the specification's rows (system rules a matching cannot express): the
/// cheapest pairs break a row here, and the rows are then solved as a feasibility program.
#[test]
fn the_fallback_keeps_the_systems_rows() {
    use optipair::spec::{Linear, Var};
    // Pairs 0: 1-2 and 1: 3-4 cost nothing, 2: 1-3 and 3: 2-4 cost one; a row forbids pair 0.
    let mut s = spec(4, &[(0, 1, 0), (2, 3, 0), (0, 2, 1), (1, 3, 1)], &[], 0);
    s.rows.push(Linear {
        terms: vec![(Var::Pair(0), 1)],
        min: None,
        max: Some(0),
        rule: "test: 1 and 2 may not meet".into(),
    });
    let opts = Options {
        greedy_only: true,
        ..Options::default()
    };
    let p = solve::solve(&s, &opts);
    let mut games: Vec<(u32, u32)> = p.games.iter().map(|&(w, b)| (w.min(b), w.max(b))).collect();
    games.sort();
    assert_eq!(games, vec![(1, 3), (2, 4)], "{}", p.certificate.summary);
    assert!(p.unpaired.is_empty());
    assert!(
        p.certificate
            .summary
            .contains("rows solved as a feasibility program"),
        "{}",
        p.certificate.summary
    );
}

/// `pair` and `audit` stop the exact solve after 120 seconds unless told otherwise, and say so.
#[test]
fn the_default_time_limit_is_documented_in_the_help() {
    for cmd in ["pair", "audit"] {
        let o = run(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0));
        let out = stdout(&o);
        assert!(
            out.contains("--time-limit") && out.contains("[default: 120]"),
            "{out}"
        );
    }
}

#[test]
fn check_past_its_time_limit_does_not_call_a_round_clean() {
    use crate::common::{add, g, pab};
    let dir = Scratch::new("check-budget");
    let file = event(&dir, 5, 3);
    let mut t: Tournament = optipair::formats::load(&file).unwrap();
    add(
        &mut t,
        1,
        vec![g(1, 3, "1-0"), g(4, 2, "1-0")],
        vec![pab(5)],
    );
    // The bye to 4 (1 point) while 2 and 3 (0 points) could have had it.
    add(
        &mut t,
        2,
        vec![g(5, 1, "1-0"), g(3, 2, "1-0")],
        vec![pab(4)],
    );
    optipair::formats::save(&file, &t).unwrap();
    let path = file.to_str().unwrap();
    // No time at all: the bye placement is not proved, and the round not called clean (exit
    // 1 for the other findings of this small field, 4 when there are none).
    let o = run(&["check", path, "--time-limit", "0"]);
    assert!(matches!(o.status.code(), Some(1 | 4)), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("round 2: not fully checked"), "{out}");
    // Every round is left for want of time, not only the one with a bye proof.
    assert!(out.contains("round 1: not fully checked"), "{out}");
    assert!(!out.contains("clean"), "{out}");
    assert!(!out.contains("could have had it"), "{out}");
    let o = run(&["check", path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("could have had it"));
}

/// The verifier stops within its share of the limit under every system, not only the
/// standard Swiss bye proof: a round checked by a deadline already passed is listed "not
/// fully checked" and not called clean (ECF basic here, whose checks have no deadline of
/// their own), and with time to spare the same round's rematch is found (FIDE C.04.1 b).
#[test]
fn the_verifier_keeps_its_share_of_the_limit_under_every_system() {
    use crate::common::{add, g};
    use optipair::tournament::Player;
    use optipair::verify::check_round_within;
    let players = (1..=4)
        .map(|i| Player::new(i, format!("P{i}"), 2400 - 100 * i))
        .collect();
    let mut t = Tournament::new("budget", players);
    t.rounds_planned = Some(5);
    add(&mut t, 1, vec![g(1, 3, "1-0"), g(2, 4, "1-0")], vec![]);
    add(&mut t, 2, vec![g(3, 1, "*"), g(4, 2, "*")], vec![]);
    let rematch =
        |c: &optipair::verify::Checked| c.violations.iter().any(|v| v.rule == "FIDE C.04.1 b");
    for system in [SystemKind::EcfBasic, SystemKind::Swiss, SystemKind::Prog] {
        let past = Some(std::time::Instant::now());
        let c = check_round_within(&t, 2, system, past).unwrap();
        assert!(c.violations.is_empty(), "{system}: {:?}", c.violations);
        assert_eq!(c.unchecked.len(), 1, "{system}: {:?}", c.unchecked);
        assert_eq!(c.unchecked[0].rule, "every rule");
        assert!(c.unchecked[0]
            .message
            .starts_with("round 2: not fully checked"));
        // Checked on its own thread by a deadline a minute away: the same findings as whole.
        let later = Some(std::time::Instant::now() + std::time::Duration::from_secs(60));
        let c = check_round_within(&t, 2, system, later).unwrap();
        assert!(c.unchecked.is_empty(), "{system}: {:?}", c.unchecked);
        assert!(rematch(&c), "{system}: {:?}", c.violations);
        let whole = check_round_within(&t, 2, system, None).unwrap();
        assert_eq!(c, whole, "{system}");
    }
    // A round that cannot be checked is refused at once, whatever the time.
    let past = Some(std::time::Instant::now());
    let err = check_round_within(&t, 3, SystemKind::EcfBasic, past).unwrap_err();
    assert!(
        err.to_string().contains("round 3 has no pairing to check"),
        "{err}"
    );
}
