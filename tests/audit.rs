//! `optipair audit`: a pairing made elsewhere judged against the rules (the verifier) and the
//! proven optimum, tier by tier; exit codes 0 (legal, optimal), 1 (legal, not optimal),
//! 3 (breaks a rule), 2 (bad input); text, JSON, and an HTML report rendered by headless
//! Chromium.

use optipair::audit::{self, Given, Verdict};
use optipair::formats;
use optipair::generate;
use optipair::solve::Options;
use optipair::SystemKind;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

use crate::common::browser::{chromium, screenshot};
use crate::common::cli::*;

const REF_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch");

/// Four players after round 1: 1 beat 3 (1 white), 2 beat 4 (4 white). Round 2 under the
/// standard Swiss: the two 1-pointers meet and the two 0-pointers meet (no float, C.04.3
/// C.6-C.7); 1 and 4 had white, so 2 takes white against 1 and 3 against 4 (5.2.1). Names carry
/// HTML metacharacters for the report's escaping.
const FOUR: &str = r#"{
  "format": "optipair/1",
  "name": "Four <b>& Co</b>",
  "rounds_planned": 3,
  "players": [
    { "id": 1, "name": "Ana <script>alert(1)</script>", "rating": 2200 },
    { "id": 2, "name": "Ben Keller", "rating": 2100 },
    { "id": 3, "name": "Cleo & Dan", "rating": 2000 },
    { "id": 4, "name": "Dee \"D\" O'Hara", "rating": 1900 }
  ],
  "rounds": [
    { "number": 1, "games": [ { "white": 1, "black": 3, "result": "1-0" },
                              { "white": 4, "black": 2, "result": "0-1" } ] }
  ]
}"#;

fn audit_four(pairing: &str, extra: &[&str]) -> (Output, Scratch) {
    let dir = Scratch::new("four");
    let t = dir.write("four.json", FOUR);
    let p = dir.write("pairing.txt", pairing);
    let mut args = vec![
        "audit",
        t.to_str().unwrap(),
        "--round",
        "2",
        "--pairing",
        p.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    (run(&args), dir)
}

fn json_of(o: &Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn the_optimum_itself_is_legal_and_optimal_exit_0() {
    let (o, _d) = audit_four("# round 2\n2 1\n3 4  # bottom board\n", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let s = stdout(&o);
    assert!(s.contains("legal and optimal"), "{s}");
    assert!(s.contains("Rule violations: none"), "{s}");
    assert!(s.contains("Your boards are the optimum's boards."), "{s}");
}

#[test]
fn without_a_proof_of_the_optimum_the_verdict_is_not_optimal_exit_1() {
    // The optimum from the greedy pass only (as when the exact procedure runs out of time):
    // even a pairing equal to it cannot be called the Dutch pairing.
    let t = formats::json::parse(FOUR).unwrap();
    let given = Given {
        games: vec![(2, 1), (3, 4)],
        byes: vec![],
    };
    let greedy = Options {
        greedy_only: true,
        ..Options::default()
    };
    let a = audit::audit(&t, 2, SystemKind::Swiss, &given, &greedy).unwrap();
    assert_eq!(a.verdict, Verdict::Unproved, "{:?}", a.summary);
    assert!(
        a.summary[0].contains("did not pair this round")
            && a.summary[0].contains("not proved either way"),
        "{:?}",
        a.summary
    );
}

#[test]
fn a_needless_float_is_legal_but_not_optimal_exit_1_naming_the_dutch_criterion() {
    // 4 v 1 and 2 v 3 keep every rule (no rematch; colours by 5.2.2/5.2.3: both of 1 and 4 want
    // black, the higher-ranked 1 gets it; both of 2 and 3 want white, 2 gets it), but both
    // games join a 1-pointer with a 0-pointer where two games without a float were possible:
    // the top bracket pairs its two players, so FIDE Dutch 2025 C.6 decides in bracket 1.
    let (o, _d) = audit_four("4 1\n2 3\n", &["--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let v = json_of(&o);
    let a = &v["audit"];
    assert_eq!(a["verdict"], "not-optimal");
    assert_eq!(v["exit_code"], 1);
    assert_eq!(a["violations"].as_array().unwrap().len(), 0);
    let dutch = a["dutch"].as_str().unwrap();
    assert!(
        dutch.starts_with("bracket 1: FIDE Dutch 2025 C.6"),
        "{dutch}"
    );
    // The criterion in words with the two values, no handbook needed.
    assert!(
        dutch.contains(
            "C.6 — the number of players who float down to the next bracket, as few as \
             possible: yours 2; the Dutch pairing 0"
        ),
        "{dutch}"
    );
    assert!(
        a["tiers"].is_null(),
        "the old tiers do not judge a Dutch pairing"
    );
    let summary = a["summary"][0].as_str().unwrap();
    assert!(
        summary.contains("is not the FIDE Dutch 2025 pairing"),
        "{summary}"
    );
    // Both boards differ; the Dutch pairing's boards are listed.
    let d = &a["differences"];
    assert_eq!(d["only_yours"].as_array().unwrap().len(), 2);
    let opt: Vec<(u64, u64)> = d["only_optimum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap()))
        .collect();
    assert_eq!(opt, vec![(2, 1), (3, 4)]);
}

#[test]
fn a_rematch_breaks_c041b_exit_3_naming_clause_and_players() {
    let (o, _d) = audit_four("1 3\n2 4\n", &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let s = stdout(&o);
    assert!(s.contains("BREAKS A RULE"), "{s}");
    assert!(
        s.contains("\n  1 v 3 is a rematch (they met in round 1) — FIDE C.04.1 b\n"),
        "{s}"
    );
    assert!(
        s.contains("\n  2 v 4 is a rematch (they met in round 1) — FIDE C.04.1 b\n"),
        "{s}"
    );
    assert!(s.contains("1 v 3 is not an allowed pair"), "{s}");
}

/// A colour finding cites its rule once, by the article that decides it (5.2.1), not also
/// as the article's section (5.2) — in audit, check and the engine line alike.
#[test]
fn a_colour_finding_cites_its_rule_once() {
    let (o, _d) = audit_four("1 2\n3 4\n", &[]);
    let s = stdout(&o);
    let line = s
        .lines()
        .find(|l| l.contains("has the colours reversed"))
        .unwrap_or_else(|| panic!("{s}"));
    assert_eq!(line.matches("FIDE Dutch 2025 5.2").count(), 1, "{line}");
    assert!(line.ends_with(" — FIDE Dutch 2025 5.2.1"), "{line}");
    assert!(!line.contains("round 2:"), "{line}");
}

#[test]
fn colours_against_e1_break_a_rule_and_the_board_is_listed_as_reversed() {
    // Same pairs as the optimum, but 1 (who had white) gets white again against 2 (who had
    // black): 5.2.1 grants both preferences when it can.
    let (o, _d) = audit_four("1 2\n3 4\n", &["--format", "json"]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let a = &json_of(&o)["audit"];
    let rules: Vec<&str> = a["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["rule"].as_str().unwrap())
        .collect();
    assert!(
        rules.iter().all(|r| r.contains("FIDE Dutch 2025 5.2")),
        "{rules:?}"
    );
    assert!(!rules.is_empty());
    let rev = a["differences"]["colours_reversed"].as_array().unwrap();
    assert_eq!(rev.len(), 1);
    assert_eq!(rev[0][0]["white"], 1);
    assert_eq!(rev[0][1]["white"], 2);
    assert_eq!(a["colours_not_allocated"][0]["board"], 1);
}

#[test]
fn bad_pairings_files_exit_2_naming_file_line_and_field() {
    for (text, line, field, what) in [
        ("2 1\n3 9\n", 2, "black", "no player has pairing number 9"),
        ("2 1\n3 2\n", 2, "black", "already paired on line 1"),
        ("2 1\nthree 4\n", 2, "white", "not a pairing number"),
        ("# nothing\n2 1 3\n", 2, "entry", "expected 'WHITE BLACK'"),
        ("2 1\nbye x\n", 2, "bye", "not a pairing number"),
        ("3 3\n", 1, "black", "cannot play himself"),
    ] {
        let (o, _d) = audit_four(text, &[]);
        assert_eq!(o.status.code(), Some(2), "{text:?}: {}", stdout(&o));
        let e = stderr(&o);
        assert!(e.contains("pairing.txt"), "{text:?}: {e}");
        assert!(e.contains(&format!("line {line}")), "{text:?}: {e}");
        assert!(e.contains(&format!("field {field}")), "{text:?}: {e}");
        assert!(e.contains(what), "{text:?}: {e}");
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn a_round_without_a_recorded_pairing_needs_a_pairing_file() {
    let dir = Scratch::new("unrecorded");
    let t = dir.write("four.json", FOUR);
    let o = run(&["audit", t.to_str().unwrap(), "--round", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--pairing"), "{}", stderr(&o));
    let o = run(&[
        "audit",
        t.to_str().unwrap(),
        "--round",
        "1",
        "--system",
        "nope",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown system 'nope'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn our_own_pairings_audit_as_optimal_for_every_chess_system() {
    // A generated field paired by the engine: each recorded round, audited from the file,
    // keeps every rule and equals the proven optimum (a bye included: 15 players).
    for system in [SystemKind::Swiss, SystemKind::EcfBasic] {
        let spec = generate::Spec {
            players: 15,
            rounds: 4,
            played: 3,
            seed: 7,
            draw_rate: 0.3,
            system,
        };
        let t = generate::field(&spec, &Options::default()).unwrap();
        for round in 1..=3 {
            let given = audit::recorded(&t, round).unwrap();
            assert_eq!(given.byes.len(), 1);
            let a = audit::audit(&t, round, system, &given, &Options::default()).unwrap();
            assert_eq!(
                a.verdict,
                Verdict::Optimal,
                "{system} round {round}: {:?}",
                a.summary
            );
            assert!(a.differences.is_empty(), "{system} round {round}");
        }
    }
}

#[test]
fn a_pair_offered_in_several_roles_scores_as_its_best_variant() {
    // tsh-cp offers a contender pair twice (plain, and as the leader's game, TSH07 leaders):
    // its own pairings, audited, must match the optimum on every tier and meet every hard row,
    // whichever variant the solver used.
    let spec = generate::Spec {
        players: 12,
        rounds: 5,
        played: 3,
        seed: 1,
        draw_rate: 0.3,
        system: SystemKind::TshCp,
    };
    let t = generate::field(&spec, &Options::default()).unwrap();
    for round in 1..=3 {
        let given = audit::recorded(&t, round).unwrap();
        let a = audit::audit(&t, round, SystemKind::TshCp, &given, &Options::default()).unwrap();
        assert!(a.excluded.is_empty(), "round {round}: {:?}", a.excluded);
        assert_eq!(a.first_difference, None, "round {round}: {:?}", a.summary);
    }
}

#[test]
fn reference_engine_round_is_the_dutch_pairing_and_a_changed_one_is_not() {
    // Round 4 of rtg_1013 (the reference Dutch engine): the old tier model called it not
    // optimal on colour preferences; under the Dutch rules it is the pairing.
    let path = Path::new(REF_DIR).join("rtg_1013_21p_6r.trf");
    let t = formats::load(&path).unwrap();
    let given = audit::recorded(&t, 4).unwrap();
    let a = audit::audit(&t, 4, SystemKind::Swiss, &given, &Options::default()).unwrap();
    assert_eq!(a.verdict, Verdict::Optimal, "{:?}", a.summary);
    assert_eq!(a.dutch.as_deref(), Some("identical"));
    assert!(a.differences.is_empty());
    // Swap the black players of the first two boards: legal or not, it is not the Dutch
    // pairing, and the audit says where it first loses.
    let mut changed = given.clone();
    let (b0, b1) = (changed.games[0].1, changed.games[1].1);
    changed.games[0].1 = b1;
    changed.games[1].1 = b0;
    let a = audit::audit(&t, 4, SystemKind::Swiss, &changed, &Options::default()).unwrap();
    assert_ne!(a.verdict, Verdict::Optimal, "{:?}", a.summary);
    if a.violations.is_empty() {
        let d = a.dutch.as_deref().unwrap();
        assert!(d.starts_with("bracket "), "{d}");
    }
}

#[test]
fn given_pairing_replaces_the_recorded_round() {
    let t = formats::json::parse(FOUR).unwrap();
    let given = Given {
        games: vec![(2, 1), (3, 4)],
        byes: vec![],
    };
    let after = audit::with_round(&t, 2, &given);
    let rd = after.round(2).unwrap();
    assert_eq!(
        rd.games
            .iter()
            .map(|g| (g.white, g.black))
            .collect::<Vec<_>>(),
        vec![(2, 1), (3, 4)]
    );
    assert_eq!(after.round(1), t.round(1));
}

#[test]
fn html_report_is_self_contained_escaped_and_renders_in_headless_chromium() {
    let dir = Scratch::new("html");
    let out = dir.path("report.html");
    let t = dir.write("four.json", FOUR);
    let p = dir.write("pairing.txt", "4 1\n2 3\n");
    let o = run(&[
        "audit",
        t.to_str().unwrap(),
        "--round",
        "2",
        "--pairing",
        p.to_str().unwrap(),
        "--format",
        "html",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Escaped: no live markup from the names (an apostrophe needs none in text or in
    // double-quoted attributes, so it stays as it is).
    assert!(!html.contains("<script>"), "{html}");
    assert!(html.contains("Ana &lt;script&gt;alert(1)&lt;/script&gt; (1)"));
    assert!(html.contains("Cleo &amp; Dan (3)"));
    assert!(html.contains("Dee &quot;D&quot; O'Hara (4)"));
    assert!(html.contains("Four &lt;b&gt;&amp; Co&lt;/b&gt;"));
    // Self-contained: nothing fetched from elsewhere.
    for external in ["http://", "https://", "src=", "<link"] {
        assert!(!html.contains(external), "{external} in the report");
    }
    // The pairing sheet with the differing boards marked, the tier table, the optimum.
    assert!(html.contains("<table class=\"sheet\">"));
    assert!(html.contains("differs: pair not in the optimum"));
    assert!(html.contains("Compared with the FIDE Dutch 2025 pairing, bracket by bracket"));
    assert!(html.contains("bracket 1: FIDE Dutch 2025 C.6"));
    assert!(html.contains("legal, not optimal (exit code 1)"));
    assert!(html.contains("<table class=\"optimum\">"));

    let Some(chrome) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have chromium (apt-get install -y chromium)"
        );
        eprintln!("chromium not installed: screenshot skipped");
        return;
    };
    let png = dir.path("report.png");
    let profile = dir.path("chromium-profile");
    let bytes = screenshot(&chrome, &out, &png, &profile, (1000, 1100));
    // A blank page compresses to a few KB; the report's tables and text take far more.
    assert!(
        bytes.len() > 20_000,
        "screenshot only {} bytes",
        bytes.len()
    );
    if let Some(keep) = std::env::var_os("OPTIPAIR_KEEP_SCREENSHOT") {
        std::fs::copy(&png, keep).unwrap();
    }
}

#[test]
fn counts_agree_with_their_nouns() {
    // One board with the colours reversed: "1 board of yours differs", not "differ".
    let (o, _d) = audit_four("1 2\n3 4\n", &[]);
    let s = stdout(&o);
    assert!(
        s.contains("1 board of yours differs from the optimum"),
        "{s}"
    );
    assert!(!s.contains("1 board of yours differ "), "{s}");
    // Two boards: the plural.
    let (o, _d) = audit_four("4 1\n2 3\n", &[]);
    assert!(stdout(&o).contains("2 boards of yours differ from the optimum"));
}

#[test]
fn a_rematch_is_said_in_words_the_dutch_pairing_keeps_the_rule() {
    // Four draws in round 1 (1 v 2, 3 v 4): one bracket of four in round 2. Pairing 1 v 2
    // again breaks FIDE Dutch 2025 C.1 there; said as what breaks it and that the Dutch
    // pairing keeps it (not "against no rule broken").
    let dir = Scratch::new("rematch");
    let t = dir.write(
        "draws.json",
        r#"{ "format": "optipair/1", "name": "Draws", "rounds_planned": 3,
  "players": [ { "id": 1, "name": "A", "rating": 2200 }, { "id": 2, "name": "B", "rating": 2100 },
               { "id": 3, "name": "C", "rating": 2000 }, { "id": 4, "name": "D", "rating": 1900 } ],
  "rounds": [ { "number": 1, "games": [ { "white": 1, "black": 2, "result": "1/2-1/2" },
                                        { "white": 3, "black": 4, "result": "1/2-1/2" } ] } ] }"#,
    );
    let p = dir.write("pairing.txt", "2 1\n4 3\n");
    let o = run(&[
        "audit",
        t.to_str().unwrap(),
        "--round",
        "2",
        "--pairing",
        p.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let v = json_of(&o);
    let dutch = v["audit"]["dutch"].as_str().unwrap_or_default().to_string();
    assert!(
        dutch.contains("FIDE Dutch 2025 C.1 — two players meet only once"),
        "{dutch}"
    );
    assert!(
        dutch.contains("yours breaks it (") && dutch.ends_with("the Dutch pairing keeps it"),
        "{dutch}"
    );
    assert!(!dutch.contains("no rule broken"), "{dutch}");
}

#[test]
fn the_verifier_names_a_late_entry_by_the_number_on_the_sheet() {
    // Eve (id 5) entered late and ranks second: pairing number 2; Ben (id 2) is now 3, Cy 4,
    // Dee 5. Round 2 pairs Ben and Cy again: the rematch is said as "3 v 4", the sheet's.
    let dir = Scratch::new("latenumbers");
    let t = dir.write(
        "late.json",
        r#"{ "format": "optipair/1", "name": "Late", "rounds_planned": 3,
  "players": [ { "id": 1, "name": "Ada", "rating": 2400 },
               { "id": 2, "name": "Ben", "rating": 2200, "pairing_number": 3 },
               { "id": 3, "name": "Cy", "rating": 2100, "pairing_number": 4 },
               { "id": 4, "name": "Dee", "rating": 2000, "pairing_number": 5 },
               { "id": 5, "name": "Eve", "rating": 2300, "pairing_number": 2, "joined": 2 } ],
  "rounds": [ { "number": 1, "games": [ { "white": 1, "black": 4, "result": "1-0" },
                                        { "white": 2, "black": 3, "result": "1/2-1/2" } ] },
              { "number": 2, "games": [ { "white": 3, "black": 2 }, { "white": 5, "black": 1 } ],
                "byes": [ { "player": 4, "kind": "pairing-allocated" } ] } ] }"#,
    );
    let ev = formats::load(&t).unwrap();
    let found = optipair::verify::check_round(&ev, 2, SystemKind::Swiss).unwrap();
    let rematch = found
        .iter()
        .find(|v| v.message.contains("rematch") || v.message.contains("met"))
        .unwrap_or_else(|| panic!("{found:#?}"));
    let mut players = rematch.players.clone();
    players.sort_unstable();
    assert_eq!(players, vec![3, 4], "{rematch:?}");
    assert!(
        rematch.message.contains('3') && rematch.message.contains('4'),
        "{}",
        rematch.message
    );
    // `check` says the same numbers, and the audit marks the board that breaks it.
    let o = run(&["check", p(&t), "--round", "2"]);
    assert!(stdout(&o).contains(&rematch.message), "{}", describe(&o));
    let o = run(&["audit", p(&t), "--round", "2"]);
    let s = stdout(&o);
    let board = s
        .lines()
        .find(|l| l.contains("Cy (4)") && l.contains("Ben (3)"))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(board.contains("breaks"), "{s}");
}

#[test]
fn the_certificate_says_each_criterion_in_words_once_with_its_number() {
    let t = formats::load(Path::new(&format!("{REF_DIR}/dutch_2025_C13.trf"))).unwrap();
    let made = optipair::engine::pair_round(&t, 4, SystemKind::Swiss, &Options::default()).unwrap();
    let c = &made.pairing.certificate;
    let lines = c.lines();
    let n = c.tiers.len();
    let each = if n == 1 {
        "in its one bracket".to_string()
    } else {
        format!("in each of the {n} brackets")
    };
    assert!(
        lines.contains(&format!(
            "FIDE Dutch 2025 C.6 — the number of players who float down to the next bracket, \
             as few as possible: proved optimal {each}"
        )),
        "{lines:#?}"
    );
    for k in 5..=21 {
        let art = format!("FIDE Dutch 2025 C.{k} ");
        let all: String = lines.join("\n");
        assert_eq!(all.matches(&art).count(), 1, "{art}once: {lines:#?}");
    }
    for l in lines.iter().filter(|l| l.starts_with("bracket ")) {
        assert!(
            !l.contains("1 pairs") && !l.contains(" 1 brackets"),
            "grammar: {l}"
        );
    }
    // The certificate file carries the same words.
    let v = serde_json::to_value(c).unwrap();
    assert_eq!(v["criteria"].as_array().unwrap().len(), 17, "{v:#}");
    assert!(v["tiers"][0]["words"]
        .as_str()
        .unwrap()
        .starts_with("bracket 1"));
    // A tier of the tier program cited once in the table's form, with what it counts.
    assert_eq!(
        optipair::spec::words::rule_words("colour preferences not granted", "FIDE C.04.3 C.12"),
        "FIDE Dutch 2025 C.12 — players who do not get the colour they are due, as few as \
         possible"
    );
}

#[test]
fn every_article_the_dutch_verifier_names_has_its_words() {
    use optipair::verify::dutch;
    let all = [
        dutch::C1,
        dutch::C2,
        dutch::C3,
        dutch::C4,
        dutch::C5,
        dutch::C6,
        dutch::C7,
        dutch::C8,
        dutch::C9,
        dutch::C10,
        dutch::C11,
        dutch::C12,
        dutch::C13,
        dutch::C14,
        dutch::C15,
        dutch::C16,
        dutch::C17,
        dutch::C18,
        dutch::C19,
        dutch::C20,
        dutch::C21,
        dutch::PAIR_MDPS,
        dutch::ORDER,
        dutch::FLOATS,
        dutch::ABSENT,
        dutch::ONCE,
    ];
    for a in all {
        assert!(
            optipair::spec::words::words(a).is_some(),
            "{a} has no words"
        );
    }
}

#[test]
fn an_audit_of_a_tier_system_says_the_criterion_in_words_with_its_number() {
    // Under US Chess, the recorded round 4 of a generated event against a pairing with the
    // colours of board 1 reversed: the summary names the rule once and what it counts.
    let dir = Scratch::new("uscfwords");
    let f = dir.path("e.json");
    let o = run(&[
        "generate",
        "--system",
        "uscf",
        "--players",
        "10",
        "--rounds",
        "5",
        "--played",
        "4",
        "--seed",
        "3",
        "--out",
        p(&f),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let t = formats::load(&f).unwrap();
    let rd = t.round(4).unwrap();
    let mut pairing: String = rd
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let (w, b) = if i == 0 {
                (g.black, g.white)
            } else {
                (g.white, g.black)
            };
            format!("{} {}\n", t.number_of(w), t.number_of(b))
        })
        .collect();
    for b in &rd.byes {
        pairing.push_str(&format!("bye {}\n", t.number_of(b.player)));
    }
    let pf = dir.write("pairing.txt", &pairing);
    let o = run(&[
        "audit",
        p(&f),
        "--round",
        "4",
        "--pairing",
        p(&pf),
        "--system",
        "uscf",
    ]);
    let s = stdout(&o);
    assert!(!s.contains(" tier"), "solver vocabulary: {s}");
    let differs = s
        .lines()
        .filter(|l| l.contains(": yours ") && l.contains("; optimum "));
    for l in differs {
        assert!(l.contains(" — "), "the rule in words: {l}");
        assert_eq!(l.matches("US Chess").count(), 1, "one citation: {l}");
    }
}
