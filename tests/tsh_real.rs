//! tsh's own files and config (issue 21): `.t` lines as tsh writes them (p12 on bye rounds,
//! inactive players, classes, teams, rating fields), `config.tsh`, and a generated `.t` event
//! paired to the end.

use optipair::engine;
use optipair::formats::{self, tsh};
use optipair::solve::Options;
use optipair::tournament::ByeKind;
use optipair::SystemKind;
use std::path::Path;

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tsh")
        .join(name)
}

fn text(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

#[test]
fn p12_on_the_bye_rounds_of_a_withdrawn_player_is_read_and_kept() {
    // Egan (line 5) withdrew after round 1; tsh kept "p12 2 1 2" on his forfeit byes.
    let t = tsh::parse(&text("byes_p12.t")).unwrap();
    let r2 = t.round(2).unwrap();
    let egan = r2.byes.iter().find(|b| b.player == 5).unwrap();
    assert_eq!(egan.kind, ByeKind::Zero);
    assert_eq!(egan.spread, Some(-50));
    let ford = r2.byes.iter().find(|b| b.player == 6).unwrap();
    assert_eq!(ford.kind, ByeKind::PairingAllocated);
    // Written back byte for byte: the bye rounds' p12, the field order, the name padding.
    assert_eq!(tsh::write(&t).unwrap(), text("byes_p12.t"));
}

#[test]
fn an_inactive_player_is_not_paired() {
    let mut t = tsh::parse(&text("byes_p12.t")).unwrap();
    assert_eq!(
        t.player(5).unwrap().withdrawn,
        Some(4),
        "`off` = inactive from round 4"
    );
    assert_eq!(t.player(6).unwrap().withdrawn, None);
    t.rounds_planned = Some(6);
    let p = engine::pair_round(&t, 4, SystemKind::TshCp, &Options::default()).unwrap();
    let seen: Vec<u32> = p
        .round
        .games
        .iter()
        .flat_map(|g| [g.white, g.black])
        .chain(p.round.byes.iter().map(|b| b.player))
        .collect();
    assert!(
        !seen.contains(&5),
        "the inactive player is paired: {:?}",
        p.round
    );
    assert_eq!(
        seen.len(),
        5,
        "the five active players are all paired or given the bye"
    );
    assert!(p.violations.is_empty(), "{:?}", p.violations);
}

#[test]
fn a_player_withdrawn_in_optipair_is_written_inactive() {
    let mut t = tsh::parse(&text("byes_p12.t")).unwrap();
    t.players[5].withdrawn = Some(4);
    let out = tsh::write(&t).unwrap();
    let ford = out.lines().nth(5).unwrap();
    assert!(ford.ends_with("; off 0"), "{ford}");
    let back = tsh::parse(&out).unwrap();
    assert_eq!(back.player(6).unwrap().withdrawn, Some(4));
}

#[test]
fn tsh_fields_bad_values_name_line_and_field() {
    let bad = text("byes_p12.t").replace("off -50", "off minus");
    let e = tsh::parse(&bad).unwrap_err().to_string();
    assert!(e.contains("line 5") && e.contains("off"), "{e}");
    let bad = text("byes_p12.t").replace("p12 2 1 2; off", "p12 2 9 2; off");
    let e = tsh::parse(&bad).unwrap_err().to_string();
    assert!(e.contains("line 5") && e.contains("p12 round 2"), "{e}");
}

#[test]
fn fields_survive_a_pairing_written_through_the_file() {
    let dir = tempdir("fields");
    let path = dir.join("a.t");
    std::fs::write(&path, text("byes_p12.t")).unwrap();
    std::fs::write(dir.join("a.tsh.json"), r#"{"rounds_planned": 6}"#).unwrap();
    let t = formats::load(&path).unwrap();
    let p = engine::pair_round(&t, 4, SystemKind::TshCp, &Options::default()).unwrap();
    let stored = engine::store(&t, &p);
    formats::save(&path, &stored).unwrap();
    let out = std::fs::read_to_string(&path).unwrap();
    for (was, now) in text("byes_p12.t").lines().zip(out.lines()) {
        // Every field but p12 is kept as it was, in its place.
        let others = |l: &str| -> Vec<String> {
            l.split("; ")
                .skip(2)
                .map(|f| {
                    if f.starts_with("p12") {
                        "p12".into()
                    } else {
                        f.to_string()
                    }
                })
                .collect()
        };
        assert_eq!(others(was), others(now), "{now}");
    }
    let again = formats::load(&path).unwrap();
    assert_eq!(again.rounds.len(), 4);
    assert_eq!(again.player(5).unwrap().withdrawn, Some(4));
}

fn tempdir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("optipair-tsh-real-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

// ---------------------------------------------------------------- config.tsh

use optipair::formats::tsh_config;
use optipair::verify;

fn copy_event(tag: &str) -> std::path::PathBuf {
    let d = tempdir(tag);
    for f in ["config.tsh", "a.t", "b.t"] {
        std::fs::copy(data("event").join(f), d.join(f)).unwrap();
    }
    d
}

#[test]
fn config_tsh_reads_what_bears_on_pairing() {
    let c = tsh_config::parse(&text("event/config.tsh")).unwrap();
    assert_eq!(
        c.divisions,
        vec![("a".into(), "a.t".into()), ("b".into(), "b.t".into())]
    );
    assert_eq!(c.max_rounds, Some(8));
    let a = c.settings_for("a");
    assert_eq!(a["prize_bands"], serde_json::json!([1, 2, 4]));
    assert_eq!(
        c.settings_for("B")["prize_bands"],
        serde_json::json!([1, 2])
    );
    // tsh's ChewPair never reads gibson_spread (it catches up at 500 a round): named in a
    // warning, not applied.
    assert!(!a.contains_key("gibson_spread"));
    assert!(c
        .pairing_not_followed
        .iter()
        .any(|(_, k, _)| k == "gibson_spread"));
    assert_eq!(a["flight_cap"], serde_json::json!("tsh07"));
    assert_eq!(a["track_firsts"], serde_json::json!(true));
    assert_eq!(a["based_on"], serde_json::json!({"1": 0, "2": 1, "3": 1}));
    assert_eq!(c.settings_for("b")["based_on"], serde_json::json!({"3": 1}));
}

#[test]
fn config_tsh_bad_lines_name_line_and_directive() {
    for (line, bad, field) in [
        (
            "config max_rounds = 8",
            "config max_rounds = eight",
            "config max_rounds",
        ),
        (
            "config flight_cap = 'tsh07'",
            "config flight_cap = 'nsc99'",
            "config flight_cap",
        ),
        (
            "autopair a 1 3 ChewPair 3 a",
            "autopair a 3 3 ChewPair 3 a",
            "autopair",
        ),
        ("division b b.t", "division b", "division"),
    ] {
        let cfg = text("event/config.tsh");
        let no = cfg.lines().position(|l| l == line).unwrap() + 1;
        let e = tsh_config::parse(&cfg.replace(line, bad))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("line {no}")) && e.contains(field),
            "{bad}: {e}"
        );
    }
}

#[test]
fn pair_a_division_of_a_tsh_event_directory_unchanged() {
    let dir = copy_event("pair");
    let full = formats::load(&dir.join("config.tsh")).unwrap();
    assert_eq!(full.players.len(), 13);
    assert_eq!(full.rounds_planned, Some(8));
    let a = full.named_division("a").unwrap();
    // The same division loaded from its .t file (config.tsh beside it) pairs the same.
    let alone = formats::load(&dir.join("a.t")).unwrap();
    assert_eq!(alone.rounds_planned, Some(8));
    let pa = engine::pair_round(&a, 3, SystemKind::TshCp, &Options::default()).unwrap();
    let pb = engine::pair_round(&alone, 3, SystemKind::TshCp, &Options::default()).unwrap();
    let pairs = |p: &engine::Paired| {
        let mut v: Vec<(String, String)> = p
            .round
            .games
            .iter()
            .map(|g| {
                let n = |id| full.player(id).map(|x| x.name.clone()).unwrap_or_default();
                (n(g.white), n(g.black))
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(pairs(&pa), pairs(&pb));
    assert!(pa.violations.is_empty(), "{:?}", pa.violations);
    // autopair a 1 3: round 3 is paired from the standings after round 1.
    assert!(
        pa.notes
            .iter()
            .any(|n| n.contains("round 3 paired from the standings after round 1")),
        "{:?}",
        pa.notes
    );
    // Writing through config.tsh: division a's file gains round 3, b's is untouched.
    let stored = engine::store(&full, &pa);
    formats::save(&dir.join("config.tsh"), &stored).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("b.t")).unwrap(),
        text("event/b.t")
    );
    let a_now = std::fs::read_to_string(dir.join("a.t")).unwrap();
    assert!(
        a_now
            .lines()
            .all(|l| l.contains("; p12 ") && l.contains("; class ")),
        "{a_now}"
    );
    let again = formats::load(&dir.join("a.t")).unwrap();
    assert_eq!(again.last_paired_round(), 3);
    assert_eq!(
        verify::check(&again, Some(3), SystemKind::TshCp).unwrap(),
        vec![]
    );
}

#[test]
fn the_inactive_player_of_division_b_is_not_paired_and_its_prize_bands_apply() {
    let full = formats::load(&data("event/config.tsh")).unwrap();
    let b = full.named_division("b").unwrap();
    assert_eq!(b.settings["prize_bands"], serde_json::json!([1, 2]));
    let moss = b.players.iter().find(|p| p.name == "Moss, Mo").unwrap();
    assert_eq!(moss.withdrawn, Some(3));
    let p = engine::pair_round(&b, 3, SystemKind::TshCp, &Options::default()).unwrap();
    assert_eq!(p.round.games.len(), 2);
    assert!(p.round.byes.is_empty());
    assert!(p
        .round
        .games
        .iter()
        .all(|g| g.white != moss.id && g.black != moss.id));
}

#[test]
fn settings_from_the_sidecar_override_the_config() {
    let dir = copy_event("sidecar");
    std::fs::write(
        dir.join("a.tsh.json"),
        r#"{"rounds_planned": 10, "settings": {"prize_bands": [1, 3]}}"#,
    )
    .unwrap();
    let a = formats::load(&dir.join("a.t")).unwrap();
    assert_eq!(a.rounds_planned, Some(10));
    assert_eq!(a.settings["prize_bands"], serde_json::json!([1, 3]));
    assert_eq!(a.settings["flight_cap"], serde_json::json!("tsh07"));
}

// ---------------------------------------------------------------- generate --out x.t

const BIN: &str = env!("CARGO_BIN_EXE_optipair");

#[test]
fn a_generated_t_event_is_paired_to_the_end() {
    let dir = tempdir("generate");
    let path = dir.join("x.t");
    let out = std::process::Command::new(BIN)
        .args([
            "generate",
            "--system",
            "tsh-cp",
            "--players",
            "14",
            "--rounds",
            "7",
        ])
        .args(["--played", "2", "--seed", "3", "--out"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut rng = optipair::generate::Rng::new(5);
    for r in 3..=7 {
        // Each round paired from the files alone, written through them, then played.
        let t = formats::load(&path).unwrap();
        assert_eq!(t.rounds_planned, Some(7));
        let p = engine::pair_round(&t, r, SystemKind::TshCp, &Options::default()).unwrap();
        assert!(p.violations.is_empty(), "round {r}: {:?}", p.violations);
        let mut t = engine::store(&t, &p);
        optipair::generate::play(&mut t, r, 0.0, &mut rng);
        formats::save(&path, &t).unwrap();
    }
    let t = formats::load(&path).unwrap();
    assert_eq!(t.last_paired_round(), 7);
    assert_eq!(verify::check(&t, None, SystemKind::TshCp).unwrap(), vec![]);
}

// ---------------------------------------------------------------- tsh's Swiss step

use optipair::systems::tsh::swiss_groups;

#[test]
fn tsh_swiss_groups_pull_the_next_top_up_and_the_bottom_takes_from_above() {
    // Wins by rank: 3 3 3 | 2 2 2 2 2 | 1 1. tsh's RecursiveSwissTop makes the odd top group
    // even with the next group's top player: [1 2 3 4]; the bottom [9 10] pairs; the middle
    // [5 6 7 8].
    let players: Vec<u32> = (1..=10).collect();
    // Wins in thousandths.
    let wins: std::collections::BTreeMap<u32, i64> = players
        .iter()
        .map(|&p| (p, [3, 3, 3, 2, 2, 2, 2, 2, 1, 1][p as usize - 1] * 1000))
        .collect();
    let all = |_: &[u32]| true;
    assert_eq!(
        swiss_groups(&players, &wins, &all),
        vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8], vec![9, 10]]
    );
    // When [9 10] cannot pair, RecursiveSwissBottom takes the lowest players above, listed
    // after its own (nearest first): [9 10 8 7]; the middle left is [5 6].
    let not_9_10 = |g: &[u32]| g != [9, 10];
    assert_eq!(
        swiss_groups(&players, &wins, &not_9_10),
        vec![vec![1, 2, 3, 4], vec![5, 6], vec![9, 10, 8, 7]]
    );
}

#[test]
fn all_contender_swiss_pairs_inside_win_groups_top_half_v_bottom_half() {
    // 12 players, 12 rounds planned, after round 1 of a no-repeat start: 6 winners, 6 losers.
    let players: Vec<optipair::tournament::Player> = (1..=12)
        .map(|i| optipair::tournament::Player::new(i, format!("P{i:02}"), 2000 - 10 * i))
        .collect();
    let mut t = optipair::tournament::Tournament::new("s", players);
    t.rounds_planned = Some(12);
    t.scoring.game_scores = true;
    t.system = Some("tsh-cp".into());
    t.settings.insert("lag".into(), 1.into());
    t.settings
        .insert("prize_bands".into(), serde_json::json!([1]));
    let mut r1 = optipair::tournament::Round {
        number: 1,
        ..Default::default()
    };
    for i in 0..6u32 {
        let (a, b) = (i + 1, i + 7);
        r1.games.push(optipair::tournament::Game {
            white: a,
            black: b,
            result: optipair::tournament::GameResult::from_scores(400 + i as i32, 300),
            scores: Some([400 + i as i32, 300]),
            order: optipair::tournament::Order::Recorded,
        });
    }
    t.rounds.push(r1);
    let p = engine::pair_round(&t, 2, SystemKind::TshCp, &Options::default()).unwrap();
    assert!(p.violations.is_empty(), "{:?}", p.violations);
    let winners: Vec<u32> = (1..=6).collect();
    for g in &p.round.games {
        assert_eq!(
            winners.contains(&g.white),
            winners.contains(&g.black),
            "winners meet winners, losers losers: {g:?}"
        );
    }
    // Winners by spread: 6 (+105) 5 4 3 2 1 (+100): 6 v 3, 5 v 2, 4 v 1.
    let met = |a: u32, b: u32| {
        p.round
            .games
            .iter()
            .any(|g| (g.white, g.black) == (a, b) || (g.white, g.black) == (b, a))
    };
    assert!(met(6, 3) && met(5, 2) && met(4, 1), "{:?}", p.round.games);
    // The earlier reading (one fold of the whole group: 6 v the first loser, 7, …) is now
    // flagged by the verifier.
    let mut folded = engine::store(&t, &p);
    let order = [6u32, 5, 4, 3, 2, 1, 7, 8, 9, 10, 11, 12];
    folded.rounds[1].games = (0..6)
        .map(|i| optipair::tournament::Game {
            white: order[i],
            black: order[i + 6],
            result: optipair::tournament::GameResult::Pending,
            scores: None,
            order: optipair::tournament::Order::Recorded,
        })
        .collect();
    let v = verify::check(&folded, Some(2), SystemKind::TshCp).unwrap();
    assert!(v.iter().any(|x| x.rule == "TSH07 Swiss"), "{v:?}");
    assert_eq!(
        verify::check(&engine::store(&t, &p), Some(2), SystemKind::TshCp).unwrap(),
        vec![]
    );
}

#[test]
fn cli_pairs_a_tsh_event_directory_through_its_config() {
    let dir = copy_event("cli");
    let cfg = dir.join("config.tsh");
    // Several divisions: one must be named.
    let out = std::process::Command::new(BIN)
        .arg("pair")
        .arg(&cfg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("config.tsh") && err.contains("--division"),
        "{err}"
    );
    let out = std::process::Command::new(BIN)
        .arg("pair")
        .arg(&cfg)
        .args(["--division", "a", "--write"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Verifier: no rule broken."));
    assert_eq!(
        formats::load(&dir.join("a.t")).unwrap().last_paired_round(),
        3
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("b.t")).unwrap(),
        text("event/b.t")
    );
    // A bad config line: file, line and directive.
    std::fs::write(
        &cfg,
        text("event/config.tsh").replace("max_rounds = 8", "max_rounds = x"),
    )
    .unwrap();
    let out = std::process::Command::new(BIN)
        .arg("check")
        .arg(&cfg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("config.tsh") && err.contains("line 6") && err.contains("max_rounds"),
        "{err}"
    );
}

// ---------------------------------------------------------------- TSH07's initial round robin

/// Ten players rated 1990, 1980, … (1 highest), eight rounds planned, no setting: TSH07's
/// initial round robin is the default.
fn ten_players() -> optipair::tournament::Tournament {
    let players: Vec<optipair::tournament::Player> = (1..=10)
        .map(|i| optipair::tournament::Player::new(i, format!("P{i:02}"), 2000 - 10 * i))
        .collect();
    let mut t = optipair::tournament::Tournament::new("rr", players);
    t.rounds_planned = Some(8);
    t.scoring.game_scores = true;
    t.system = Some("tsh-cp".into());
    t
}

fn met_in(
    t: &optipair::tournament::Tournament,
    rounds: std::ops::Range<usize>,
    a: u32,
    b: u32,
) -> bool {
    t.rounds[rounds]
        .iter()
        .flat_map(|rd| &rd.games)
        .any(|g| (g.white, g.black) == (a, b) || (g.white, g.black) == (b, a))
}

#[test]
fn initial_round_robin_in_groups_of_four_by_rating_then_contention() {
    // TSH07: the pairing algorithm is "used after the initial three-round round robin" — by
    // default. 10 players: groups {1..4} and {5..10} (the two left over join the last group of
    // four); round 4 is a contention round.
    let mut t = ten_players();
    let mut rng = optipair::generate::Rng::new(2);
    for r in 1..=4 {
        let p = engine::pair_round(&t, r, SystemKind::TshCp, &Options::default()).unwrap();
        assert!(p.violations.is_empty(), "round {r}: {:?}", p.violations);
        assert_eq!(p.round.games.len(), 5, "round {r}");
        assert_eq!(
            p.notes.iter().any(|n| n.contains("initial round robin")),
            r <= 3,
            "round {r}: {:?}",
            p.notes
        );
        t = engine::store(&t, &p);
        optipair::generate::play(&mut t, r, 0.0, &mut rng);
    }
    // After three rounds each of the top four has met the other three.
    for a in 1..=4u32 {
        for b in a + 1..=4 {
            assert!(
                met_in(&t, 0..3, a, b),
                "{a} and {b} never met in rounds 1-3"
            );
        }
    }
    assert!(t.rounds[..3]
        .iter()
        .flat_map(|rd| &rd.games)
        .all(|g| (g.white <= 4) == (g.black <= 4)));
    assert_eq!(verify::check(&t, None, SystemKind::TshCp).unwrap(), vec![]);
    // Round 2 with a game swapped between the groups, after a round 1 that followed the round
    // robin, is flagged.
    let mut broken = t.clone();
    let g = &mut broken.rounds[1].games;
    let (i, j) = (
        g.iter().position(|x| x.white <= 4).unwrap(),
        g.iter().position(|x| x.white > 4).unwrap(),
    );
    let (b1, b2) = (g[i].black, g[j].black);
    g[i].black = b2;
    g[j].black = b1;
    let v = verify::check(&broken, Some(2), SystemKind::TshCp).unwrap();
    assert!(
        v.iter().any(|x| x.rule == "TSH07 initial round robin"),
        "{v:?}"
    );
}

#[test]
fn an_absent_players_round_robin_opponent_sits_out() {
    // Player 3 is away in round 2: his scheduled opponent has nobody (the schedule is fixed in
    // advance) and takes the bye; everyone else plays his round robin game.
    let mut t = ten_players();
    let mut rng = optipair::generate::Rng::new(4);
    for r in 1..=3 {
        if r == 2 {
            t.rounds.push(optipair::tournament::Round {
                number: 2,
                games: vec![],
                byes: vec![optipair::tournament::Bye {
                    player: 3,
                    kind: optipair::tournament::ByeKind::Zero,
                    spread: None,
                }],
            });
        }
        let p = engine::pair_round(&t, r, SystemKind::TshCp, &Options::default()).unwrap();
        assert!(p.violations.is_empty(), "round {r}: {:?}", p.violations);
        t = engine::store(&t, &p);
        optipair::generate::play(&mut t, r, 0.0, &mut rng);
    }
    let r2 = t.round(2).unwrap();
    assert_eq!(r2.games.len(), 4);
    let sitting: Vec<u32> = r2
        .byes
        .iter()
        .filter(|b| b.kind == optipair::tournament::ByeKind::PairingAllocated)
        .map(|b| b.player)
        .collect();
    assert_eq!(sitting.len(), 1);
    assert!(!met_in(&t, 0..1, 3, sitting[0]) && !met_in(&t, 2..3, 3, sitting[0]));
    assert!((1..=4).contains(&sitting[0]), "{sitting:?}");
    assert_eq!(verify::check(&t, None, SystemKind::TshCp).unwrap(), vec![]);
    // The round robin games of round 2 are all there: leaving one out is flagged.
    let mut broken = t.clone();
    broken.rounds[1].games.pop();
    let v = verify::check(&broken, Some(2), SystemKind::TshCp).unwrap();
    assert!(
        v.iter().any(|x| x.rule == "TSH07 initial round robin"),
        "{v:?}"
    );
}

#[test]
fn an_event_whose_round_1_was_paired_otherwise_keeps_contention_pairing() {
    // Rounds 1–2 paired by contention (the setting 0, as before the round robin was the
    // default), then the setting removed: the event did not start with the round robin, so
    // its rounds check clean as contention rounds and round 3 is a contention round too.
    let mut t = ten_players();
    t.settings
        .insert("initial_round_robin".into(), serde_json::json!(0));
    let mut rng = optipair::generate::Rng::new(2);
    for r in 1..=2 {
        let p = engine::pair_round(&t, r, SystemKind::TshCp, &Options::default()).unwrap();
        t = engine::store(&t, &p);
        optipair::generate::play(&mut t, r, 0.0, &mut rng);
    }
    // The round robin's round 1 has 1 v 4; contention round 1 does not: it departs.
    assert!(!met_in(&t, 0..1, 1, 4));
    t.settings.remove("initial_round_robin");
    assert_eq!(verify::check(&t, None, SystemKind::TshCp).unwrap(), vec![]);
    let p = engine::pair_round(&t, 3, SystemKind::TshCp, &Options::default()).unwrap();
    assert!(p.violations.is_empty(), "{:?}", p.violations);
    assert!(
        p.notes.iter().all(|n| !n.contains("initial round robin")),
        "{:?}",
        p.notes
    );
}

#[test]
fn a_round_config_tsh_autopairs_ends_the_initial_round_robin() {
    // `autopair a 1 2 ChewPair 2 a`: tsh pairs round 2 automatically (from round 1's
    // standings), so the round robin pairs round 1 only; round 2 is a contention round.
    let mut t = ten_players();
    t.settings
        .insert("based_on".into(), serde_json::json!({"2": 1}));
    let mut rng = optipair::generate::Rng::new(2);
    for r in 1..=2 {
        let p = engine::pair_round(&t, r, SystemKind::TshCp, &Options::default()).unwrap();
        assert!(p.violations.is_empty(), "round {r}: {:?}", p.violations);
        assert_eq!(
            p.notes.iter().any(|n| n.contains("initial round robin")),
            r == 1,
            "round {r}: {:?}",
            p.notes
        );
        t = engine::store(&t, &p);
        optipair::generate::play(&mut t, r, 0.0, &mut rng);
    }
    assert_eq!(verify::check(&t, None, SystemKind::TshCp).unwrap(), vec![]);
}
