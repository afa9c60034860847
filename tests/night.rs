//! A director's night from the command line: `enter` (a late entry takes its FIDE C.04.2
//! place among the pairing numbers, ids stay), `withdraw`, `return`, `bye`, `unpair`, and
//! `record` reporting corrections — each command's effect on the file, what it prints, its
//! refusals (exit 2, file untouched), and that the event still pairs and checks clean.

use optipair::formats::{self, trf};
use optipair::report::label;
use optipair::tournament::{ByeKind, GameResult, Tournament};
use optipair::SystemKind;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::cli::*;

/// Runs a command that must succeed; its stdout.
fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}\n{}", describe(&o));
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// Runs a command that must be refused as bad input (exit 2, no panic) and leave `file` as it
/// was; its stderr.
fn refused(file: &Path, args: &[&str]) -> String {
    let before = std::fs::read(file).expect("read");
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}\n{}", describe(&o));
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains("optipair-test-"),
        "the error names the file: {err}"
    );
    assert_eq!(
        std::fs::read(file).expect("read"),
        before,
        "{args:?} changed the file"
    );
    err
}

fn load(path: &Path) -> Tournament {
    formats::load(path).unwrap_or_else(|e| panic!("{e}"))
}

const NAMES: [&str; 10] = [
    "Anna Adams",
    "Ben Brown",
    "Cora Cole",
    "Dirk Dean",
    "Emma Ellis",
    "Finn Ford",
    "Gina Gray",
    "Hugo Hill",
    "Iris Irwin",
    "Jack Jones",
];

/// A new event of `n` players rated 2400, 2300, … (ids 1..n in that order), `rounds` planned.
fn event(s: &Scratch, n: usize, rounds: u32) -> PathBuf {
    let csv: String = (0..n)
        .map(|i| format!("{},{}\n", NAMES[i], 2400 - 100 * i))
        .collect();
    let list = s.write("players.csv", &csv);
    let file = s.path("event.json");
    ok(&[
        "new",
        "--players",
        p(&list),
        "--out",
        p(&file),
        "--rounds",
        &rounds.to_string(),
    ]);
    file
}

/// Records a result on every board of round `r`: white wins on odd boards, draws on even.
fn play(s: &Scratch, file: &Path, r: u32) {
    let t = load(file);
    let text: String = (1..=t.round(r).expect("round").games.len())
        .map(|b| format!("{b} {}\n", if b % 2 == 1 { "1-0" } else { "1/2" }))
        .collect();
    let res = s.write(&format!("r{r}.txt"), &text);
    ok(&[
        "record",
        p(file),
        "--round",
        &r.to_string(),
        "--results",
        p(&res),
    ]);
}

fn pair_write(file: &Path) -> String {
    ok(&["pair", p(file), "--write"])
}

fn check_clean(file: &Path) {
    let out = ok(&["check", p(file)]);
    assert!(out.contains("clean"), "{out}");
}

fn by_name<'a>(t: &'a Tournament, name: &str) -> &'a optipair::tournament::Player {
    t.players
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

/// Round `r`'s games as (white name, black name).
fn games_by_name(t: &Tournament, r: u32) -> BTreeSet<(String, String)> {
    let name = |id: u32| t.player(id).expect("player").name.clone();
    t.round(r)
        .map(|rd| {
            rd.games
                .iter()
                .map(|g| (name(g.white), name(g.black)))
                .collect()
        })
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// enter

#[test]
fn a_late_entry_takes_his_c04_2_place_and_ids_stay() {
    let s = Scratch::new("enter");
    let file = event(&s, 8, 5);
    pair_write(&file);
    play(&s, &file, 1);
    let before = load(&file);
    let out = ok(&[
        "enter",
        p(&file),
        "--name",
        "Lara Late",
        "--rating",
        "2150",
        "--title",
        "fm",
        "--fed",
        "ned",
        "--fide-id",
        "1234567",
        "--missed-byes",
        "half",
    ]);
    // 2400 2300 2200 | 2150 | 2100 …: number 4; the five below move down one.
    assert!(
        out.contains("entered Lara Late (rating 2150, FM, NED) from round 2"),
        "{out}"
    );
    assert!(
        out.contains("pairing number 4 (FIDE C.04.2 initial order"),
        "{out}"
    );
    assert!(
        out.contains("pairing numbers 4-8 move down one (5 players)"),
        "{out}"
    );
    assert!(
        out.contains("round 1: half-point bye for Lara Late (4)"),
        "{out}"
    );
    let t = load(&file);
    let lara = by_name(&t, "Lara Late");
    assert_eq!((lara.id, lara.number(), lara.joined), (9, 4, Some(2)));
    assert_eq!(lara.title.as_deref(), Some("FM"));
    assert_eq!(lara.federation.as_deref(), Some("NED"));
    let numbers: Vec<(u32, u32)> = t.players.iter().map(|p| (p.id, p.number())).collect();
    assert_eq!(
        numbers,
        vec![
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 5),
            (5, 6),
            (6, 7),
            (7, 8),
            (8, 9),
            (9, 4)
        ]
    );
    // Ids stay: round 1 is exactly as it was, plus the late entry's requested bye.
    assert_eq!(t.round(1).unwrap().games, before.round(1).unwrap().games);
    let bye = t.round(1).unwrap().byes.iter().find(|b| b.player == 9);
    assert_eq!(bye.map(|b| b.kind), Some(ByeKind::Half));
    // The JSON keeps the pairing number only where it differs from the id.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(
        json["players"][0].get("pairing_number").is_none(),
        "{json:#}"
    );
    assert_eq!(json["players"][3]["pairing_number"], 5);

    // Round 2 pairs him, and the field is ranked by pairing number: the same pairing as an
    // event whose ids are the pairing numbers (the TRF export), name for name.
    pair_write(&file);
    check_clean(&file);
    let t = load(&file);
    let r2 = games_by_name(&t, 2);
    assert!(
        r2.iter().any(|(w, b)| w == "Lara Late" || b == "Lara Late"),
        "{r2:?}"
    );
    let mut renumbered = trf::parse(&trf::write(&load(&file)).unwrap()).unwrap();
    renumbered.rounds.retain(|r| r.number < 2);
    renumbered.rounds_planned = Some(5);
    let again = optipair::engine::pair_round(
        &renumbered,
        2,
        SystemKind::Swiss,
        &optipair::solve::Options::default(),
    )
    .unwrap();
    let name = |id: u32| renumbered.player(id).unwrap().name.clone();
    let want: BTreeSet<(String, String)> = again
        .round
        .games
        .iter()
        .map(|g| (name(g.white), name(g.black)))
        .collect();
    assert_eq!(r2, want);
}

#[test]
fn c04_2_breaks_rating_ties_by_title_then_name() {
    let s = Scratch::new("ties");
    let file = event(&s, 4, 5); // 2400 2300 2200 2100 (Dirk Dean)
                                // Same rating as Dirk, a title: above him.
    let out = ok(&[
        "enter",
        p(&file),
        "--name",
        "Zed Zorn",
        "--rating",
        "2100",
        "--title",
        "IM",
    ]);
    assert!(out.contains("pairing number 4 "), "{out}");
    // Same rating, no title, name after Dirk Dean's: below him.
    let out = ok(&["enter", p(&file), "--name", "Eli East", "--rating", "2100"]);
    assert!(out.contains("pairing number 6 "), "{out}");
    // Same rating, no title, name before: above Dirk, below the IM.
    let out = ok(&["enter", p(&file), "--name", "Abe Ames", "--rating", "2100"]);
    assert!(out.contains("pairing number 5 "), "{out}");
    // Unrated: last.
    let out = ok(&["enter", p(&file), "--name", "Una Unrated", "--rating", "0"]);
    assert!(out.contains("pairing number 8 "), "{out}");
    let t = load(&file);
    let mut order: Vec<(u32, &str)> = t
        .players
        .iter()
        .map(|p| (p.number(), p.name.as_str()))
        .collect();
    order.sort();
    let names: Vec<&str> = order.iter().map(|x| x.1).collect();
    assert_eq!(
        names,
        [
            "Anna Adams",
            "Ben Brown",
            "Cora Cole",
            "Zed Zorn",
            "Abe Ames",
            "Dirk Dean",
            "Eli East",
            "Una Unrated"
        ]
    );
    // Entered before round 1: nobody joins late, and round 1 pairs by the new numbers
    // (top half 1-4 against bottom half 5-8).
    assert!(t.players.iter().all(|p| p.joined.is_none()));
    pair_write(&file);
    check_clean(&file);
    let r1 = games_by_name(&load(&file), 1);
    assert!(
        r1.contains(&("Anna Adams".into(), "Abe Ames".into())),
        "{r1:?}"
    );
    assert!(
        r1.contains(&("Ben Brown".into(), "Dirk Dean".into()))
            || r1.contains(&("Dirk Dean".into(), "Ben Brown".into())),
        "{r1:?}"
    );
}

#[test]
fn pairing_numbers_are_frozen_once_round_four_is_paired() {
    let s = Scratch::new("frozen");
    let file = event(&s, 6, 7);
    for r in 1..=4 {
        pair_write(&file);
        play(&s, &file, r);
    }
    let out = ok(&[
        "enter",
        p(&file),
        "--name",
        "Max Strong",
        "--rating",
        "2800",
    ]);
    assert!(
        out.contains("pairing number 7 (FIDE C.04.2: no modification of a pairing number"),
        "{out}"
    );
    assert!(
        out.contains("rounds 1-4: zero-point bye for Max Strong (7)"),
        "{out}"
    );
    let t = load(&file);
    assert!(!t.renumbered(), "nobody's number moved");
    pair_write(&file);
    check_clean(&file);
}

#[test]
fn enter_refuses_bad_input_and_changes_nothing() {
    let s = Scratch::new("enterbad");
    let file = event(&s, 4, 5);
    pair_write(&file);
    let e = refused(
        &file,
        &[
            "enter",
            p(&file),
            "--name",
            "X",
            "--rating",
            "1",
            "--title",
            "GMX",
        ],
    );
    assert!(
        e.contains("field --title") && e.contains("unknown title 'GMX'"),
        "{e}"
    );
    let e = refused(
        &file,
        &[
            "enter",
            p(&file),
            "--name",
            "X",
            "--rating",
            "1",
            "--fed",
            "NL",
        ],
    );
    assert!(e.contains("field --fed"), "{e}");
    let e = refused(
        &file,
        &["enter", p(&file), "--name", "anna adams", "--rating", "1"],
    );
    assert!(e.contains("Anna Adams (1) is already entered"), "{e}");
    let e = refused(
        &file,
        &[
            "enter",
            p(&file),
            "--name",
            "X",
            "--rating",
            "1",
            "--from-round",
            "1",
        ],
    );
    assert!(e.contains("round 1 is already paired"), "{e}");
    let e = refused(
        &file,
        &[
            "enter",
            p(&file),
            "--name",
            "X",
            "--rating",
            "1",
            "--from-round",
            "6",
        ],
    );
    assert!(e.contains("past the 5 rounds planned"), "{e}");
    let e = refused(&file, &["enter", p(&file), "--name", "  ", "--rating", "1"]);
    assert!(e.contains("field --name"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// withdraw, return

#[test]
fn a_withdrawn_player_is_not_paired_and_comes_back() {
    let s = Scratch::new("withdraw");
    let file = event(&s, 6, 5);
    ok(&["bye", p(&file), "6", "--round", "3", "--kind", "half"]);
    pair_write(&file);
    // Paired in round 1: a withdrawal from round 1 is refused with the way out.
    let e = refused(
        &file,
        &["withdraw", p(&file), "Finn Ford", "--from-round", "1"],
    );
    assert!(
        e.contains("Finn Ford (6) is paired in round 1 (on board"),
        "{e}"
    );
    assert!(e.contains("withdraw from round 2"), "{e}");
    let out = ok(&["withdraw", p(&file), "Finn Ford", "--from-round", "2"]);
    assert!(out.contains("withdrew Finn Ford (6) from round 2"), "{out}");
    // His requested bye in round 3 would still score: it goes, and says so.
    assert!(out.contains("round 3: half-point bye removed"), "{out}");
    assert!(load(&file).round(3).is_none());
    play(&s, &file, 1);
    pair_write(&file);
    check_clean(&file);
    let t = load(&file);
    let r2 = &t.round(2).unwrap();
    assert!(r2.games.iter().all(|g| g.white != 6 && g.black != 6));
    assert_eq!(
        r2.games.len() + r2.byes.len(),
        3,
        "five players: two games, one bye"
    );

    let e = refused(&file, &["return", p(&file), "6", "--from-round", "2"]);
    assert!(
        e.contains("round 2 is already paired without Finn Ford (6)"),
        "{e}"
    );
    let e = refused(&file, &["return", p(&file), "1", "--from-round", "3"]);
    assert!(e.contains("Anna Adams (1) is not withdrawn"), "{e}");
    play(&s, &file, 2);
    let out = ok(&["return", p(&file), "6", "--from-round", "4"]);
    assert!(out.contains("Finn Ford (6) returns from round 4"), "{out}");
    assert!(
        out.contains("rounds 2-3: zero-point bye (absent while withdrawn)"),
        "{out}"
    );
    let t = load(&file);
    assert_eq!(by_name(&t, "Finn Ford").withdrawn, None);
    pair_write(&file); // round 3, without him
    assert!(load(&file)
        .round(3)
        .unwrap()
        .games
        .iter()
        .all(|g| g.white != 6 && g.black != 6));
    play(&s, &file, 3);
    pair_write(&file); // round 4, with him
    check_clean(&file);
    let t = load(&file);
    let r4 = &t.round(4).unwrap().games;
    assert!(r4.iter().any(|g| g.white == 6 || g.black == 6), "{r4:?}");
}

// ---------------------------------------------------------------------------------------------
// bye

#[test]
fn requested_byes_over_several_rounds_change_and_go() {
    let s = Scratch::new("bye");
    let file = event(&s, 6, 5);
    let out = ok(&[
        "bye",
        p(&file),
        "Cora Cole",
        "--round",
        "2,3",
        "--round",
        "5",
        "--kind",
        "half",
    ]);
    for r in [2, 3, 5] {
        assert!(
            out.contains(&format!("round {r}: half-point bye for Cora Cole (3)")),
            "{out}"
        );
    }
    let out = ok(&["bye", p(&file), "3", "--round", "3", "--kind", "zero"]);
    assert!(
        out.contains("round 3: zero-point bye for Cora Cole (3) (was half-point bye)"),
        "{out}"
    );
    let out = ok(&["bye", p(&file), "3", "--round", "5", "--kind", "none"]);
    assert!(
        out.contains("round 5: half-point bye for Cora Cole (3) removed"),
        "{out}"
    );
    let out = ok(&["bye", p(&file), "3", "--round", "2", "--kind", "half"]);
    assert!(out.contains("nothing to change"), "{out}");
    let t = load(&file);
    let kinds: BTreeMap<u32, ByeKind> = t
        .rounds
        .iter()
        .flat_map(|r| r.byes.iter().map(move |b| (r.number, b.kind)))
        .collect();
    assert_eq!(
        kinds,
        BTreeMap::from([(2, ByeKind::Half), (3, ByeKind::Zero)])
    );
    pair_write(&file);
    play(&s, &file, 1);
    pair_write(&file);
    check_clean(&file);
    let t = load(&file);
    let r2 = t.round(2).unwrap();
    assert!(r2.games.iter().all(|g| g.white != 3 && g.black != 3));
    let e = refused(
        &file,
        &["bye", p(&file), "3", "--round", "2", "--kind", "zero"],
    );
    assert!(
        e.contains("round 2 is already paired: unpair it first"),
        "{e}"
    );
    let e = refused(
        &file,
        &["bye", p(&file), "99", "--round", "4", "--kind", "half"],
    );
    assert!(e.contains("no player has pairing number 99"), "{e}");
    let e = refused(
        &file,
        &["bye", p(&file), "Nobody", "--round", "4", "--kind", "half"],
    );
    assert!(e.contains("no player is named 'Nobody'"), "{e}");
    let e = refused(
        &file,
        &["bye", p(&file), "3", "--round", "4,9", "--kind", "half"],
    );
    assert!(e.contains("round 9 is past the 5 rounds planned"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// unpair

#[test]
fn unpair_takes_a_round_back_unless_results_or_later_rounds_say_no() {
    let s = Scratch::new("unpair");
    let file = event(&s, 7, 5);
    ok(&["bye", p(&file), "2", "--round", "1", "--kind", "half"]);
    let first = pair_write(&file);
    let paired = load(&file);
    // The refusal says how to undo.
    let o = run(&["pair", p(&file), "--round", "1", "--write"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(
        describe(&o).contains("optipair unpair FILE --round 1"),
        "{}",
        describe(&o)
    );

    let out = ok(&["unpair", p(&file), "--round", "1"]);
    assert!(
        out.contains("round 1 unpaired: 3 games and 0 pairing-allocated byes removed"),
        "{out}"
    );
    assert!(out.contains("1 requested bye kept"), "{out}");
    let t = load(&file);
    let r1 = t.round(1).expect("the requested bye keeps round 1");
    assert!(!r1.is_paired());
    assert_eq!(r1.byes.len(), 1);
    // Paired again from the same facts: the same round.
    assert_eq!(pair_write(&file), first);
    assert_eq!(load(&file), paired);

    let res = s.write("one.txt", "1 1-0\n");
    ok(&["record", p(&file), "--round", "1", "--results", p(&res)]);
    let e = refused(&file, &["unpair", p(&file), "--round", "1"]);
    assert!(e.contains("round 1 has results on board 1"), "{e}");
    assert!(e.contains("--force"), "{e}");
    let e = refused(&file, &["unpair", p(&file), "--round", "2"]);
    assert!(e.contains("round 2 is not paired"), "{e}");
    play(&s, &file, 1);
    pair_write(&file);
    let e = refused(&file, &["unpair", p(&file), "--round", "1", "--force"]);
    assert!(
        e.contains("round 2 is paired after it: unpair round 2 first"),
        "{e}"
    );
    ok(&["unpair", p(&file), "--round", "2"]);
    let out = ok(&["unpair", p(&file), "--round", "1", "--force"]);
    assert!(out.contains("results removed on boards 1-3"), "{out}");
    assert!(load(&file).rounds.iter().all(|r| !r.is_paired()));
}

// ---------------------------------------------------------------------------------------------
// record

#[test]
fn record_reports_corrections_and_dry_run_stores_nothing() {
    let s = Scratch::new("record");
    let file = event(&s, 6, 5);
    pair_write(&file);
    let t = load(&file);
    let g = t.round(1).unwrap().games.clone();
    let first = s.write("a.txt", "1 1-0\n2 1/2\n");
    let out = ok(&["record", p(&file), "--round", "1", "--results", p(&first)]);
    assert!(out.contains("2 results recorded in round 1"), "{out}");
    assert!(
        out.contains("round 1 has no result yet on board 3"),
        "{out}"
    );
    assert!(!out.contains("corrected"), "{out}");

    let fix = s.write("b.txt", "1 0-1\n2 1/2\n3 +-\n");
    let before = std::fs::read(&file).unwrap();
    let out = ok(&[
        "record",
        p(&file),
        "--round",
        "1",
        "--results",
        p(&fix),
        "--dry-run",
    ]);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "a dry run stores nothing"
    );
    assert!(
        out.contains(&format!(
            "would record board 1 ({} v {}): 1-0 → 0-1",
            label(&t, g[0].white),
            label(&t, g[0].black)
        )),
        "{out}"
    );
    assert!(out.contains("would record board 3"), "{out}");
    assert!(out.contains("nothing stored"), "{out}");

    let out = ok(&["record", p(&file), "--round", "1", "--results", p(&fix)]);
    assert!(
        out.contains(&format!(
            "corrected board 1 ({} v {}): 1-0 → 0-1",
            label(&t, g[0].white),
            label(&t, g[0].black)
        )),
        "{out}"
    );
    assert!(
        out.contains("3 results recorded in round 1 (1 corrected, 1 unchanged)"),
        "{out}"
    );
    assert!(!out.contains("no result yet"), "{out}");
    let t = load(&file);
    let r = &t.round(1).unwrap().games;
    assert_eq!(
        r.iter().map(|g| g.result).collect::<Vec<_>>(),
        [
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::WhiteForfeitWin
        ]
    );

    // One bad line: nothing stored, the line and field named.
    let bad = s.write("c.txt", "1 1-0\n2 0-1\n3 2-0\n");
    let e = refused(
        &file,
        &["record", p(&file), "--round", "1", "--results", p(&bad)],
    );
    assert!(e.contains("line 3, field result"), "{e}");
}

#[test]
fn missing_results_are_listed_as_ranges() {
    let s = Scratch::new("ranges");
    let csv: String = (0..40).map(|i| format!("P{i:02},{}\n", 2000 - i)).collect();
    let list = s.write("players.csv", &csv);
    let file = s.path("big.json");
    ok(&["new", "--players", p(&list), "--out", p(&file)]);
    pair_write(&file);
    let res = s.write("some.txt", "5 1-0\n12 0-1\n13 1/2\n");
    let out = ok(&["record", p(&file), "--round", "1", "--results", p(&res)]);
    assert!(
        out.contains("no result yet on boards 1-4, 6-11, 14-20"),
        "{out}"
    );
    let e = refused(&file, &["pair", p(&file)]);
    assert!(
        e.contains("round 1 has no result on boards 1-4, 6-11, 14-20;"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// TRF

#[test]
fn trf_holds_a_late_entry_by_pairing_number() {
    let s = Scratch::new("trf");
    let file = event(&s, 6, 5);
    pair_write(&file);
    play(&s, &file, 1);
    ok(&[
        "enter",
        p(&file),
        "--name",
        "Lara Late",
        "--rating",
        "2250",
        "--missed-byes",
        "half",
    ]);
    pair_write(&file);
    play(&s, &file, 2);
    let t = load(&file);
    assert!(t.renumbered());
    let out = s.path("event.trf");
    formats::save(&out, &t).unwrap();
    let back = load(&out);
    // TRF has one number: the start rank is the pairing number, and becomes the id.
    for p in &t.players {
        let q = by_name(&back, &p.name);
        assert_eq!(q.id, p.number(), "{}", p.name);
        assert_eq!(q.number(), p.number(), "{}", p.name);
    }
    for r in 1..=2 {
        assert_eq!(games_by_name(&back, r), games_by_name(&t, r), "round {r}");
    }
    let byes = |t: &Tournament| -> BTreeSet<(u32, String, String)> {
        t.rounds
            .iter()
            .flat_map(|r| {
                r.byes
                    .iter()
                    .map(|b| {
                        let name = t.player(b.player).unwrap().name.clone();
                        (r.number, name, format!("{:?}", b.kind))
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    assert_eq!(byes(&back), byes(&t));
    // Scores agree name for name, and round 3 pairs the same from either file.
    let st = optipair::tournament::Standings::before(&t, 3);
    let sb = optipair::tournament::Standings::before(&back, 3);
    for p in &t.players {
        let q = by_name(&back, &p.name);
        assert_eq!(st.get(p.id).unwrap().score, sb.get(q.id).unwrap().score);
    }
    // `pair --format json` names players by pairing number: the name is the number's.
    let named = |t: &Tournament, f: &Path| -> BTreeSet<(String, String)> {
        let v: serde_json::Value =
            serde_json::from_str(&ok(&["pair", p(f), "--format", "json"])).unwrap();
        let name = |x: &serde_json::Value| {
            let n = x.as_u64().unwrap() as u32;
            t.players
                .iter()
                .find(|q| q.number() == n)
                .unwrap()
                .name
                .clone()
        };
        v["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (name(&g["white"]), name(&g["black"])))
            .collect()
    };
    assert_eq!(
        named(&t, &file),
        named(&back, &out),
        "the same round 3 from the JSON and its TRF export"
    );
}

#[test]
fn a_late_entry_in_a_trf_file_renumbers_the_file() {
    let s = Scratch::new("trffile");
    let json = event(&s, 6, 5);
    let file = s.path("event.trf");
    formats::save(&file, &load(&json)).unwrap();
    pair_write(&file);
    play(&s, &file, 1);
    let r1 = games_by_name(&load(&file), 1);
    let out = ok(&["enter", p(&file), "--name", "Lara Late", "--rating", "2250"]);
    assert!(out.contains("pairing number 3 "), "{out}");
    // Read back, the start rank is the pairing number: Lara is 3, Cora Cole (id 3) is now 4,
    // and round 1 still has the same games by name.
    let t = load(&file);
    assert_eq!(by_name(&t, "Lara Late").id, 3);
    assert_eq!(by_name(&t, "Cora Cole").id, 4);
    assert!(!t.renumbered());
    assert_eq!(games_by_name(&t, 1), r1);
    pair_write(&file);
    check_clean(&file);
    assert!(games_by_name(&load(&file), 2)
        .iter()
        .any(|(w, b)| w == "Lara Late" || b == "Lara Late"));
}

#[test]
fn a_scrabble_event_numbers_a_late_entry_last() {
    let s = Scratch::new("scrabble");
    let file = event(&s, 4, 5);
    let mut t = load(&file);
    t.scoring.game_scores = true;
    formats::save(&file, &t).unwrap();
    let out = ok(&[
        "enter",
        p(&file),
        "--name",
        "Top Player",
        "--rating",
        "2900",
    ]);
    assert!(
        out.contains("pairing number 5 (the next: a Scrabble event"),
        "{out}"
    );
    assert!(!load(&file).renumbered());
}

#[test]
fn two_players_with_one_pairing_number_are_refused_on_load() {
    let s = Scratch::new("dupnumber");
    let file = event(&s, 4, 5);
    let text = std::fs::read_to_string(&file).unwrap().replacen(
        "\"id\": 2,",
        "\"id\": 2,\n      \"pairing_number\": 1,",
        1,
    );
    assert!(text.contains("\"pairing_number\": 1"), "{text}");
    std::fs::write(&file, text).unwrap();
    let e = refused(&file, &["check", p(&file)]);
    assert!(
        e.contains("field players[1].pairing_number: pairing number 1 is also player 1's"),
        "{e}"
    );
}
