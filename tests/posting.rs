//! What the director posts is what the director records: the sheet's boards are the boards
//! `record` takes (TRF and `.t` files included, which cannot store board order), every
//! result is echoed with its players, a scored event refuses a result without scores, one
//! player number everywhere, and tsh divisions numbered as tsh numbers them.

use crate::common::cli::{describe, p, run, run_in, stderr, stdout, Scratch};
use optipair::formats;
use optipair::tournament::{GameResult, Player, Tournament};
use std::path::{Path, PathBuf};

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", describe(&o));
    stdout(&o)
}

fn record(file: &Path, extra: &[&str], lines: &str) -> std::process::Output {
    let mut args = vec!["record", p(file)];
    args.extend_from_slice(extra);
    run_in(None, &args, Some(lines))
}

/// The table rows of a printed sheet: the lines from the column headings to the first blank
/// or certificate line.
fn rows(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("Bd") && !l.starts_with("Table"))
        .take_while(|l| !l.is_empty() && !l.starts_with("Certificate"))
        .map(str::to_string)
        .collect()
}

/// Round 10 of a reference tournament taken back and paired again, stored in the TRF.
fn trf_round_10(s: &Scratch) -> (PathBuf, String) {
    let file = s.copy(
        Path::new("tests/data/dutch/rtg_1005_57p_10r.trf"),
        "event.trf",
    );
    ok(&["unpair", p(&file), "--round", "10", "--force"]);
    let printed = ok(&["pair", p(&file), "--write"]);
    (file, printed)
}

#[test]
fn a_trf_sheet_posts_the_boards_in_the_reference_order_and_record_follows_it() {
    let s = Scratch::new("trfboards");
    let (file, printed) = trf_round_10(&s);
    let sheet = ok(&["sheet", p(&file), "--round", "10"]);
    assert_eq!(rows(&sheet), rows(&printed), "sheet after pair --write");
    // The reference Dutch engine publishes round 10 as 10-9, 1-5, 2-6, 15-3, 11-12, 4-24 …
    // (its -p output for this file): the 7.5-point leader on board 1.
    let t = formats::load(&file).unwrap();
    let games: Vec<(u32, u32)> = t.round(10).unwrap().games[..6]
        .iter()
        .map(|g| (g.white, g.black))
        .collect();
    assert_eq!(games, [(10, 9), (1, 5), (2, 6), (15, 3), (11, 12), (4, 24)]);
    let o = record(&file, &["--round", "10"], "1 1-0\n");
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    // The first recording is echoed too, with both players as the sheet names them.
    assert!(
        stdout(&o)
            .contains("recorded board 1 (Test0010 Player0010 (10) v Test0009 Player0009 (9)): 1-0"),
        "{}",
        describe(&o)
    );
    let t = formats::load(&file).unwrap();
    let g = &t.round(10).unwrap().games[0];
    assert_eq!((g.white, g.black, g.result), (10, 9, GameResult::WhiteWins));
}

/// The two-division tsh event of the tests, in a scratch directory.
fn tsh_event(s: &Scratch) -> PathBuf {
    for f in ["config.tsh", "a.t", "b.t"] {
        s.copy(&Path::new("tests/data/tsh/event").join(f), f);
    }
    s.path("config.tsh")
}

#[test]
fn a_scored_event_refuses_a_result_without_scores_and_stores_nothing() {
    let s = Scratch::new("noscores");
    let config = tsh_event(&s);
    let before = std::fs::read(s.path("b.t")).unwrap();
    let o = record(
        &config,
        &["--round", "2", "--division", "b"],
        "1 400-350\n2 1-0\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    assert!(
        stderr(&o).contains("line 2, field result: '1-0' has no game scores"),
        "{}",
        describe(&o)
    );
    assert_eq!(
        std::fs::read(s.path("b.t")).unwrap(),
        before,
        "nothing stored"
    );
    // A JSON event keeping game scores refuses it alike.
    let mut t = formats::load(&config).unwrap().named_division("b").unwrap();
    let e = formats::results::plan(&t, 2, "1 1-0")
        .unwrap_err()
        .to_string();
    assert!(e.contains("has no game scores"), "{e}");
    formats::results::apply(&mut t, 2, "1 400-350").unwrap();
}

#[test]
fn tsh_divisions_number_players_and_tables_as_tsh_does() {
    let s = Scratch::new("tshdiv");
    let config = tsh_event(&s);
    // Division b's players are b1 … b5 (their lines in b.t), not event-wide 6 … 10.
    let sheet = ok(&["sheet", p(&config), "--division", "B", "--round", "2"]);
    let table = rows(&sheet);
    assert!(table[1].contains("Lee, Lu (4)") && table[1].contains("Moss, Mo (5)"));
    // Table 1 of division b is where its result goes.
    let o = record(&config, &["--round", "2", "--division", "b"], "1 400-350\n");
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(
        stdout(&o).contains("board 1 (Lee, Lu (4) v Moss, Mo (5)): 360-390 → 400-350"),
        "{}",
        describe(&o)
    );
    let b = std::fs::read_to_string(s.path("b.t")).unwrap();
    assert!(b.contains("Lee, Lu               1370 3 5; 420 400"), "{b}");
    // Without --division the event's two sets of tables are refused, not guessed.
    let o = record(&config, &["--round", "2"], "1 400-350\n");
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    // A player typed as tsh names him: b3.
    let out = ok(&["bye", p(&config), "b3", "--round", "3", "--kind", "half"]);
    assert!(out.contains("half-point bye for King, Kim (b3)"), "{out}");
    let out = ok(&[
        "bye",
        p(&config),
        "2",
        "--division",
        "a",
        "--round",
        "3",
        "--kind",
        "half",
    ]);
    assert!(out.contains("half-point bye for Brown, Bea (a2)"), "{out}");
    let o = run(&["check", p(&config), "--division", "b"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", describe(&o));
    // explain and audit --pairing take tsh's numbers too: b3 names division b.
    let out = ok(&["explain", p(&config), "--round", "2", "b3"]);
    assert!(out.contains("King, Kim (3)"), "{out}");
    let pf = s.write("pairing.txt", "b4 b5\nb2 b3\nbye b1\n");
    let given = run(&[
        "audit",
        p(&config),
        "--round",
        "2",
        "--division",
        "b",
        "--pairing",
        p(&pf),
    ]);
    let recorded = run(&["audit", p(&config), "--round", "2", "--division", "b"]);
    assert_eq!(
        given.status.code(),
        recorded.status.code(),
        "{}",
        describe(&given)
    );
    assert_ne!(given.status.code(), Some(2), "{}", describe(&given));
}

#[test]
fn a_one_division_config_answers_to_its_division_and_its_printed_keys() {
    let s = Scratch::new("onediv");
    s.copy(Path::new("tests/data/tsh/event/b.t"), "b.t");
    let config = s.write(
        "config.tsh",
        "division b b.t\nconfig event_name = 'Kingston Open'\nconfig tables = { 'B' => [7, 8] }\n\
         config event_date = 'May 2026'\n",
    );
    let o = run(&["sheet", p(&config), "--division", "b", "--round", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(
        stdout(&o).starts_with("Kingston Open — round 2"),
        "{}",
        describe(&o)
    );
    // `config tables` is followed now: no warning, tsh's table numbers on the sheet.
    assert!(
        !stderr(&o).contains("`config tables` is not followed"),
        "{}",
        describe(&o)
    );
    // A printed key not followed is named with what the sheet does instead.
    assert!(
        stderr(&o)
            .contains("line 4: `config event_date` is not followed: the sheets print no date"),
        "{}",
        describe(&o)
    );
    // Table 7 is the first game's table: `record` takes it.
    let o = record(&config, &["--round", "2"], "7 400-350\n");
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(
        stdout(&o).contains("board 7 (Lee, Lu (4) v Moss, Mo (5)): 360-390 → 400-350"),
        "{}",
        describe(&o)
    );
    assert!(
        stdout(&o).contains("1 result recorded in round 2 (1 corrected)"),
        "{}",
        describe(&o)
    );
    let o = run(&["sheet", p(&config), "--division", "c"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
}

fn field() -> Tournament {
    let names = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"];
    let players = names
        .iter()
        .enumerate()
        .map(|(i, n)| Player::new(i as u32 + 1, *n, 2400 - 100 * i as u32))
        .collect();
    let mut t = Tournament::new("Numbers", players);
    t.rounds_planned = Some(5);
    t
}

/// The game of the player with id `id` in round `round`.
fn game_of(t: &Tournament, round: u32, id: u32) -> &optipair::tournament::Game {
    let games = &t.round(round).unwrap().games;
    games
        .iter()
        .find(|g| g.white == id || g.black == id)
        .unwrap()
}

#[test]
fn a_late_entry_has_one_number_on_sheets_commands_and_the_trf_export() {
    let s = Scratch::new("onenumber");
    let file = s.path("event.json");
    formats::save(&file, &field()).unwrap();
    ok(&["pair", p(&file), "--write"]);
    ok(&[
        "record",
        p(&file),
        "--round",
        "1",
        "--results",
        p(&s.write("r1", "1 1-0\n2 1-0\n3 1-0\n")),
    ]);
    // Petrov ranks second: pairing number 2; his id (7) stays internal.
    ok(&["enter", p(&file), "--name", "Petrov", "--rating", "2350"]);
    let t = formats::load(&file).unwrap();
    let petrov = t.players.iter().find(|q| q.name == "Petrov").unwrap();
    assert_eq!((petrov.id, petrov.number()), (7, 2));
    ok(&["pair", p(&file), "--write"]);
    let alpha = ok(&["sheet", p(&file), "--kind", "alpha"]);
    let row = alpha.lines().find(|l| l.starts_with("Petrov")).unwrap();
    assert!(row.split_whitespace().nth(1) == Some("2"), "{alpha}");
    let sheet = ok(&["sheet", p(&file)]);
    assert!(
        sheet.contains("Petrov (2)") && sheet.contains("Fay (7)"),
        "{sheet}"
    );
    // The TRF export gives him start rank 2 …
    let trf = formats::render(&t, formats::Kind::Trf).unwrap();
    assert!(
        trf.lines()
            .any(|l| l.starts_with("001    2") && l.contains("Petrov")),
        "{trf}"
    );
    // … and 2 is what the commands take.
    let out = ok(&["bye", p(&file), "2", "--round", "3", "--kind", "half"]);
    assert!(out.contains("half-point bye for Petrov (2)"), "{out}");
    let t = formats::load(&file).unwrap();
    let g = game_of(&t, 2, 7);
    let line = if g.white == 7 {
        format!("2 {} 1-0\n", t.number_of(g.black))
    } else {
        format!("{} 2 0-1\n", t.number_of(g.white))
    };
    let o = record(&file, &["--round", "2"], &line);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(stdout(&o).contains("Petrov (2)"), "{}", describe(&o));
    let t = formats::load(&file).unwrap();
    let g = game_of(&t, 2, 7);
    assert_ne!(g.result, GameResult::Pending, "stored on Petrov's game");
    // audit --pairing reads pairing numbers: the recorded pairing, typed by number, is it.
    let rd = t.round(2).unwrap();
    let mut pairing: String = rd
        .games
        .iter()
        .map(|g| format!("{} {}\n", t.number_of(g.white), t.number_of(g.black)))
        .collect();
    for b in &rd.byes {
        pairing.push_str(&format!("bye {}\n", t.number_of(b.player)));
    }
    let pf = s.write("pairing.txt", &pairing);
    let o = run(&["audit", p(&file), "--round", "2", "--pairing", p(&pf)]);
    let recorded = run(&["audit", p(&file), "--round", "2"]);
    assert_eq!(o.status.code(), recorded.status.code(), "{}", describe(&o));
    assert!(o.status.code() != Some(2), "{}", describe(&o));
}

#[test]
fn a_t_file_keeps_the_tables_tsh_gave_in_its_board_field() {
    let s = Scratch::new("tshboard");
    // tsh put 3 v 4 on table 1 and 1 v 2 on table 2 (the `board` field, one per round).
    let file = s.write(
        "x.t",
        "Ann 1800 2; ; p12 1; board 2\nBob 1700 1; ; p12 2; board 2\n\
         Cat 1600 4; ; p12 1; board 1\nDan 1500 3; ; p12 2; board 1\n",
    );
    let sheet = ok(&["sheet", p(&file), "--round", "1"]);
    assert!(rows(&sheet)[1].contains("Cat (3)"), "{sheet}");
    let o = record(&file, &["--round", "1"], "1 400-300\n");
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(
        stdout(&o).contains("board 1 (Cat (3) v Dan (4)): 400-300"),
        "{}",
        describe(&o)
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("Cat 1600 4; 400; p12 1; board 1"), "{text}");
}

#[test]
fn pair_json_names_players_by_their_pairing_numbers_after_a_late_entry() {
    let s = Scratch::new("jsonnumbers");
    let file = s.path("event.json");
    formats::save(&file, &field()).unwrap();
    ok(&["pair", p(&file), "--write"]);
    let results = s.write("r1", "1 1-0\n2 1-0\n3 1-0\n");
    ok(&["record", p(&file), "--round", "1", "--results", p(&results)]);
    ok(&["enter", p(&file), "--name", "Petrov", "--rating", "2350"]);
    let t = formats::load(&file).unwrap();
    let out: serde_json::Value =
        serde_json::from_str(&ok(&["pair", p(&file), "--format", "json"])).unwrap();
    let mut seen = 0;
    for g in out["pairings"].as_array().unwrap() {
        for side in ["white", "black"] {
            let number = g[side].as_u64().unwrap() as u32;
            let name = g[format!("{side}_name")].as_str().unwrap();
            let player = t.players.iter().find(|q| q.name == name).unwrap();
            assert_eq!(number, player.number(), "{name} in {g}");
            seen += 1;
        }
    }
    assert_eq!(seen, 6, "{out}");
    let petrov = t.players.iter().find(|q| q.name == "Petrov").unwrap();
    assert_ne!(petrov.id, petrov.number(), "the late entry is renumbered");
}
