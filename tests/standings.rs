//! `optipair standings` and `optipair sheet`: FIDE C.07 tie-breaks checked against figures
//! worked out by hand (forfeits, byes of every kind, a withdrawal, a double forfeit), the FIDE
//! tie-break exercise of 2024, Scrabble standings by wins then spread, and the sheets to post
//! (byes in words, ratings, HTML escaping and page breaks, rendered in headless Chromium).

use optipair::formats;
use optipair::tournament::tiebreak::{self, Records, Rules, Tiebreak};
use optipair::tournament::{Bye, ByeKind, Game, GameResult, Player, Round, Tournament};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::browser::{chromium, screenshot};
use crate::common::cli::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

fn night_path() -> String {
    format!("{DATA}/night.json")
}

/// Seven players, four rounds (tests/data/night.json): 7 gets the pairing-allocated bye in
/// round 1 and withdraws before round 4; 4 wins by forfeit against 5 in round 2 and takes a
/// zero-point bye in round 3; 3 takes a half-point bye in round 2; 1 wins by forfeit against 5
/// in round 4; 4 and 6 both forfeit round 4.
fn night() -> Tournament {
    formats::load(Path::new(&night_path())).expect("fixture")
}

fn all() -> Vec<Tiebreak> {
    tiebreak::parse_list("bh,bh-c1,sb,prog,win,won,bpg,bwg,aro", "test").unwrap()
}

/// (id, rank, score, [BH, BH-C1, SB, PS, WIN, WON, BPG, BWG, ARO]).
type Expected = (u32, u32, f64, [f64; 9]);

fn assert_rows(t: &Tournament, after: u32, expected: &[Expected]) {
    let rows = tiebreak::standings(t, after, &all()).unwrap();
    assert_eq!(rows.len(), expected.len());
    for (row, (id, rank, score, values)) in rows.iter().zip(expected) {
        let got: Vec<f64> = row.values.iter().map(|v| v.unwrap()).collect();
        assert_eq!(
            (row.id, row.rank, row.score, got.as_slice()),
            (*id, *rank, *score, values.as_slice()),
            "player {}",
            row.id
        );
    }
}

/// Worked by hand. Opponents' scores for Buchholz (FIDE C.07 16.3.2): 7 withdrew after round
/// 3, so his absent round 4 counts as a draw: 1 + 0 + 0 + ½ = 1½; 4's zero-point bye in round
/// 3 comes after his last round present (the forfeit win of round 2), so it counts as a draw
/// too: 0 + 1 + ½ + 0 (the double forfeit has an opponent: as scored) = 1½. Own unplayed
/// rounds meet a dummy opponent with the player's own score, capped (2026) by the forfeiting
/// opponent's score or half the rounds: 1's forfeit win over 5 counts min(3½, 1) = 1.
#[test]
fn tiebreaks_of_a_small_event_match_figures_worked_by_hand() {
    let t = night();
    // BH: 1: 4(1½) + 2(3) + 3(1½) + dummy 1 = 7; cut the lowest (1) → 6.
    //     SB: 1½·1 + 3·½ + 1½·1 + 1·1 = 5½.
    // 2: 5(1) + 1(3½) + 7(1½) + 3(1½) = 7½; no unplayed round, cut 1 → 6½.
    //     SB: 1 + 1¾ + 1½ + ¾ = 5.
    // 3: 6(1½) + dummy for the half-point bye min(1½, 2) = 1½ + 1(3½) + 2(3) = 9½; the cut
    //     takes the voluntarily unplayed round first → 8. SB: ¾ + ¾ + 0 + 1½ = 3.
    // 6: 3(1½) + 7(1½) + 5(1) + dummy for the double forfeit min(1½, 4's 1½) = 5½; the cut takes
    //     the double forfeit (1½), not the lowest opponent (1) → 4. SB: ¾ + 1½ + 0 + 0 = 2¼.
    // 5: 2(3) + dummy min(1, 4's 1½) = 1 + 6(1½) + dummy min(1, 3½) = 1 → 6½; cut → 5½.
    // 4: 1(3½) + dummy 1 (forfeit win) + dummy 1 (zero bye) + dummy 1 (double forfeit) = 6½;
    //     cut a voluntarily unplayed round → 5½. SB: 0 + 1 + 0 + 0 = 1.
    // 7: dummy 1 (bye) + 6(1½) + 2(3) + dummy 1 (absent) = 6½ → 5½. SB: 1.
    // Ranking by bh, bh-c1, sb, prog: 5, 4 and 7 are level on score, BH, BH-C1; SB puts 5
    // first; PS (7: 1+1+1+1 = 4, 4: 0+1+1+1 = 3) splits 7 and 4.
    assert_rows(
        &t,
        4,
        &[
            (1, 1, 3.5, [7.0, 6.0, 5.5, 8.5, 3.0, 2.0, 1.0, 0.0, 2100.0]),
            (2, 2, 3.0, [7.5, 6.5, 5.0, 8.0, 2.0, 2.0, 2.0, 2.0, 2000.0]),
            (3, 3, 1.5, [9.5, 8.0, 3.0, 4.0, 0.0, 0.0, 2.0, 0.0, 2100.0]),
            (6, 4, 1.5, [5.5, 4.0, 2.25, 5.0, 1.0, 1.0, 2.0, 0.0, 1900.0]),
            (5, 5, 1.0, [6.5, 5.5, 1.5, 2.0, 1.0, 1.0, 0.0, 0.0, 2000.0]),
            (7, 6, 1.0, [6.5, 5.5, 1.0, 4.0, 1.0, 0.0, 1.0, 0.0, 2000.0]),
            (4, 7, 1.0, [6.5, 5.5, 1.0, 3.0, 1.0, 0.0, 1.0, 0.0, 2300.0]),
        ],
    );
    // The adjusted scores themselves.
    let rec = Records::new(&t, 4, Rules::C07of2026);
    assert_eq!(rec.adjusted_score(7), 1.5);
    assert_eq!(rec.adjusted_score(4), 1.5);
    assert_eq!(rec.adjusted_score(5), 1.0);
    assert_eq!(rec.score(7), 1.0);
}

/// The 2024 text gives every unplayed round the player's own score, uncapped: 1's forfeit win
/// counts 3½: BH 1½ + 3 + 1½ + 3½ = 9½, BH-C1 8, SB 1½ + 1½ + 1½ + 3½ = 8.
#[test]
fn the_2024_reading_does_not_cap_the_dummy_opponent() {
    let mut t = night();
    t.settings
        .insert("tiebreak_rules".into(), serde_json::json!("2024"));
    let rows = tiebreak::standings(&t, 4, &all()).unwrap();
    let one = rows.iter().find(|r| r.id == 1).unwrap();
    assert_eq!(one.values[..3], [Some(9.5), Some(8.0), Some(8.0)]);
    t.settings
        .insert("tiebreak_rules".into(), serde_json::json!("1999"));
    let e = tiebreak::standings(&t, 4, &all()).unwrap_err().to_string();
    assert!(e.contains("settings.tiebreak_rules"), "{e}");
}

fn game(w: u32, b: u32, r: &str) -> Game {
    Game::new(w, b, GameResult::parse(r).unwrap())
}

fn bye(player: u32, kind: ByeKind) -> Bye {
    Bye {
        player,
        kind,
        spread: None,
    }
}

fn event(n: u32, rounds: Vec<(Vec<Game>, Vec<Bye>)>) -> Tournament {
    let players = (1..=n)
        .map(|i| Player::new(i, format!("P{i}"), 2000 - 10 * i))
        .collect();
    let mut t = Tournament::new("t", players);
    for (i, (games, byes)) in rounds.into_iter().enumerate() {
        t.rounds.push(Round {
            number: i as u32 + 1,
            games,
            byes,
        });
    }
    t
}

/// Ten rounds worth 999999.9 points a win and 0.3 a draw: 1 draws round 5, 2 draws round 10,
/// both win the rest. Level on points, but summed in that order their floating-point totals
/// differ by about 2e-9, more than a rounding margin of 1e-9.
fn level_by_thousandths() -> Tournament {
    let rounds = (1..=10)
        .map(|r| {
            let one = if r == 5 { "=" } else { "1-0" };
            let two = if r == 10 { "=" } else { "1-0" };
            (vec![game(1, 3, one), game(2, 4, two)], vec![])
        })
        .collect();
    let mut t = event(4, rounds);
    t.scoring.win = 999_999.9;
    t.scoring.draw = 0.3;
    t
}

/// "FIDE C.07 6": scores level to the thousandth are a tie; with no tie-break left the two
/// share first place (a float comparison put 2 ahead on rounding noise).
#[test]
fn fide_c07_scores_level_by_thousandths_share_a_rank() {
    let t = level_by_thousandths();
    // Their Buchholz is level too (each opponent drew once): still tied after it.
    for tbs in [vec![], vec![Tiebreak::Buchholz { low: 0, high: 0 }]] {
        let rows = tiebreak::standings(&t, 10, &tbs).unwrap();
        let rank = |id: u32| rows.iter().find(|r| r.id == id).unwrap().rank;
        assert_eq!((rank(1), rank(2)), (1, 1), "tie-breaks {tbs:?}");
    }
}

/// Scrabble ranks by wins, then spread, then rating: players level by thousandths are ranked
/// by rating (1 is rated above 2), not by rounding noise in their scores.
#[test]
fn scrabble_level_scores_by_thousandths_fall_to_rating() {
    let t = level_by_thousandths();
    let st = optipair::tournament::Standings::before(&t, 11);
    assert_eq!(&st.by_wins_spread()[..2], &[1, 2]);
}

/// 1 wins round 1, then takes a full-point bye: 2 points after 2 rounds. Under the 2026 text
/// the dummy opponent of the bye scores at most half the rounds played, 1 (2024: 2 points).
#[test]
fn a_bye_meets_a_dummy_opponent_capped_at_half_the_rounds() {
    let mut t = event(
        4,
        vec![
            (vec![game(1, 2, "1-0"), game(3, 4, "1-0")], vec![]),
            (
                vec![game(3, 2, "1-0")],
                vec![bye(1, ByeKind::Full), bye(4, ByeKind::Zero)],
            ),
        ],
    );
    let bh = |t: &Tournament| {
        let rows = tiebreak::standings(t, 2, &[Tiebreak::Buchholz { low: 0, high: 0 }]).unwrap();
        rows.iter().find(|r| r.id == 1).unwrap().values[0].unwrap()
    };
    // 2 scored nothing: BH = 0 + min(2, 1).
    assert_eq!(bh(&t), 1.0);
    t.settings
        .insert("tiebreak_rules".into(), serde_json::json!("2024"));
    assert_eq!(bh(&t), 2.0);
}

/// FIDE C.07 6: two tied players who met are ranked by that game; three tied players of whom
/// one beat both others go ahead; the other two, who never met, stay tied (each could still
/// have won the game not played).
#[test]
fn direct_encounter_ranks_tied_players_by_their_games() {
    // 1 beats 2, 3 beats 4; round 2: 3 beats 1, 2 beats 4. 1 and 2 are tied on 1 point.
    let t = event(
        4,
        vec![
            (vec![game(1, 2, "1-0"), game(3, 4, "1-0")], vec![]),
            (vec![game(3, 1, "1-0"), game(2, 4, "1-0")], vec![]),
        ],
    );
    let rows = tiebreak::standings(&t, 2, &[Tiebreak::DirectEncounter]).unwrap();
    let got: Vec<(u32, u32, Option<f64>)> =
        rows.iter().map(|r| (r.id, r.rank, r.values[0])).collect();
    assert_eq!(
        got,
        vec![
            (3, 1, None),
            (1, 2, Some(1.0)),
            (2, 3, Some(0.0)),
            (4, 4, None)
        ]
    );
    // Six players, three rounds.
    let t = event(
        6,
        vec![
            (
                vec![game(1, 2, "1-0"), game(3, 4, "1/2"), game(5, 6, "1/2")],
                vec![],
            ),
            (
                vec![game(3, 1, "0-1"), game(2, 5, "1-0"), game(4, 6, "1/2")],
                vec![],
            ),
            (
                vec![game(1, 6, "0-1"), game(2, 4, "1/2"), game(3, 5, "1-0")],
                vec![],
            ),
        ],
    );
    // Scores: 1: 2, 2: 1½, 3: 1½, 6: 2, 4: 1½, 5: ½. Tied on 1½: 2, 3, 4 — 2 drew 4, 3 drew 4,
    // 2 and 3 never met: DE 2: ½, 3: ½, 4: 1; 4 could be caught (2 and 3 each have an unplayed
    // ½ + 1 = 1½ possible) so nobody goes ahead. Tied on 2: 1 and 6: 6 beat 1.
    let rows = tiebreak::standings(&t, 3, &[Tiebreak::DirectEncounter]).unwrap();
    let got: Vec<(u32, u32)> = rows.iter().map(|r| (r.id, r.rank)).collect();
    assert_eq!(got, vec![(6, 1), (1, 2), (2, 3), (3, 3), (4, 3), (5, 6)]);
    let de: Vec<Option<f64>> = rows.iter().map(|r| r.values[0]).collect();
    assert_eq!(
        de,
        vec![Some(1.0), Some(0.0), Some(0.5), Some(0.5), Some(1.0), None]
    );
}

/// A group where the leader's points exceed what anyone else could reach goes ahead, and the
/// rest are looked at again on their own.
#[test]
fn direct_encounter_separates_a_leader_who_cannot_be_caught() {
    // 1 beats 2 and 3, 2 and 3 never meet, all end on 2 (wins over 4, 5, 6).
    let t = event(
        6,
        vec![
            (
                vec![game(1, 2, "1-0"), game(3, 4, "1-0"), game(5, 6, "1-0")],
                vec![],
            ),
            (
                vec![game(3, 1, "0-1"), game(2, 5, "1-0"), game(4, 6, "1-0")],
                vec![],
            ),
            (
                vec![game(1, 6, "0-1"), game(2, 4, "1-0"), game(3, 5, "1-0")],
                vec![],
            ),
        ],
    );
    // Scores: 1: 2, 2: 2, 3: 2, 6: 1, 4: 1, 5: 1. 1 has 2 against the group; 2 and 3 could reach
    // at most 1 each: 1 is first. 2 and 3 then stay tied (never met).
    let rows = tiebreak::standings(&t, 3, &[Tiebreak::DirectEncounter]).unwrap();
    let top: Vec<(u32, u32)> = rows.iter().take(3).map(|r| (r.id, r.rank)).collect();
    assert_eq!(top, vec![(1, 1), (2, 2), (3, 2)]);
}

/// The exercise FIDE's tie-break commission published with the 2024 text (tec.fide.com,
/// 18 March 2024), as transcribed by the `tiebreak` npm package's test data: 16 players, 5
/// rounds, half-point and allocated byes, forfeits, an absence. Figures under the 2024 rules.
/// Player 12's own line is not in the transcription (he appears only as an opponent), so the
/// figures of player 4, who met him, are left out.
#[test]
fn the_fide_tie_break_exercise_of_2024() {
    let rows = [
        "1,+W9,=B13,=W2,+B15,=W4",
        "2,+B10,+W7,=B1,+W16,=B3",
        "3,=W11,+B6,+W8,=B4,=W2",
        "4,+B12,=BYE,+W13,=W3,=B1",
        "5,-W13,-B15,+W11,=B7,+W10",
        "6,-B14,-W3,+BYE,+W10,+B8",
        "7,+W15,-B2,-B16,=W5,-B11",
        "8,=B16,+W14,-B3,+W13,-W6",
        "9,-B1,-W10,=BYE,-F11,+BYE",
        "10,-W2,+B9,-W15,-B6,-B5",
        "11,=B3,-W16,-B5,+F9,+W7",
        "13,+B5,=W1,-B4,-B8,-W14",
        "14,+W6,-B8,-F12,--,+B13",
        "15,-B7,+W5,+B10,-W1,-B16",
        "16,=W8,+B11,+W7,-B2,+W15",
    ];
    let mut t = event(16, Vec::new());
    t.settings
        .insert("tiebreak_rules".into(), serde_json::json!("2024"));
    for r in 1..=5u32 {
        let mut round = Round {
            number: r,
            ..Round::default()
        };
        let mut seen = std::collections::BTreeSet::new();
        for row in rows {
            let cells: Vec<&str> = row.split(',').collect();
            let me: u32 = cells[0].parse().unwrap();
            let c = cells[r as usize];
            let pts = &c[..1];
            if c == "--" {
                continue;
            }
            if &c[1..] == "BYE" {
                let kind = if pts == "+" {
                    ByeKind::PairingAllocated
                } else {
                    ByeKind::Half
                };
                round.byes.push(bye(me, kind));
                continue;
            }
            let opp: u32 = c[2..].parse().unwrap();
            if !seen.insert((me.min(opp), me.max(opp))) {
                continue;
            }
            let forfeit = &c[1..2] == "F";
            let my_white = &c[1..2] != "B";
            let res = match (pts, forfeit) {
                ("+", false) => "1-0",
                ("=", false) => "1/2",
                ("-", false) => "0-1",
                ("+", true) => "+-",
                (_, true) => "-+",
                _ => unreachable!(),
            };
            let g = if my_white {
                game(me, opp, res)
            } else {
                // The result was written from `me`'s side: turn it round for white.
                let flip = match res {
                    "1-0" => "0-1",
                    "0-1" => "1-0",
                    other => other,
                };
                game(opp, me, flip)
            };
            round.games.push(g);
        }
        t.rounds.push(round);
    }
    let bh = tiebreak::standings(
        &t,
        5,
        &[
            Tiebreak::Buchholz { low: 0, high: 0 },
            Tiebreak::Buchholz { low: 1, high: 0 },
        ],
    )
    .unwrap();
    let of = |id: u32| {
        let r = bh.iter().find(|r| r.id == id).unwrap();
        (r.values[0].unwrap(), r.values[1].unwrap())
    };
    assert_eq!(of(2).0, 13.0);
    assert_eq!(of(1).0, 12.5);
    assert_eq!(of(3).0, 15.5);
    assert_eq!(of(16).0, 12.5);
    assert_eq!(of(5), (8.5, 7.5));
    assert_eq!(of(8), (13.5, 12.0));
    assert_eq!(of(11), (13.5, 12.0));
}

/// Scrabble: wins, then spread (not rating); W-L and spread columns.
#[test]
fn scrabble_standings_rank_by_wins_then_spread() {
    let mut t = event(4, Vec::new());
    t.scoring.game_scores = true;
    t.players[0].rating = 1500;
    t.players[1].rating = 1900;
    t.rounds = vec![
        Round {
            number: 1,
            games: vec![Game::scored(1, 2, 400, 350), Game::scored(3, 4, 380, 300)],
            byes: vec![],
        },
        Round {
            number: 2,
            games: vec![Game::scored(1, 3, 390, 420), Game::scored(2, 4, 410, 400)],
            byes: vec![],
        },
    ];
    let dir = Scratch::new("scrabble");
    let f = save(&dir, "s.json", &t);
    let o = run(&["standings", f.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let got: Vec<(u64, f64, f64, i64)> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_u64().unwrap(),
                r["wins"].as_f64().unwrap(),
                r["losses"].as_f64().unwrap(),
                r["spread"].as_i64().unwrap(),
            )
        })
        .collect();
    // 1 (1-1, +20) ahead of 2 (1-1, -40) although 2 is rated higher.
    assert_eq!(
        got,
        vec![
            (3, 2.0, 0.0, 110),
            (1, 1.0, 1.0, 20),
            (2, 1.0, 1.0, -40),
            (4, 0.0, 2.0, -90)
        ]
    );
    let text = stdout(&run(&["standings", f.to_str().unwrap()]));
    assert!(text.contains("W-L") && text.contains("Spread"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("P1 ") && l.contains("1-1") && l.contains("+20")),
        "{text}"
    );
    // The pairing printout of round 2: table, first, second, each with W-L and spread before it.
    let sheet = stdout(&run(&["sheet", f.to_str().unwrap(), "--round", "2"]));
    assert!(
        sheet.contains("Table") && sheet.contains("First") && sheet.contains("Second"),
        "{sheet}"
    );
    let board1 = sheet.lines().find(|l| l.contains("P1 (1)")).unwrap();
    assert!(board1.contains("1-0") && board1.contains("+50"), "{board1}");
    assert!(board1.contains("390-420"), "{board1}");
    assert!(
        board1.find("P1 (1)").unwrap() < board1.find("P3 (3)").unwrap(),
        "{board1}"
    );
}

#[test]
fn standings_formats_and_the_events_own_tiebreak_list() {
    let f = night_path();
    let o = run(&[
        "standings",
        &f,
        "--format",
        "csv",
        "--tiebreak",
        "bh-c1,de,aro",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let csv = stdout(&o);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("Rk,No,Ti,Name,Fed,Rtg,Pts,BH-C1,DE,ARO"));
    assert_eq!(lines.next(), Some("1,1,FM,Ana Aas,NOR,2300,3.5,6,,2100"));
    // A tied rank is repeated in CSV; a name with a comma or quote is quoted.
    assert!(csv.contains("Gil <G> & O'Neil"), "{csv}");
    // settings.tiebreaks decides when --tiebreak is absent.
    let dir = Scratch::new("settings");
    let mut t = night();
    t.settings
        .insert("tiebreaks".into(), serde_json::json!(["prog", "win"]));
    let p = save(&dir, "n.json", &t);
    let o = run(&["standings", p.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["tiebreaks"][0]["name"], "prog");
    assert_eq!(v["tiebreaks"][1]["article"], "FIDE C.07 7.1");
    assert_eq!(v["after_round"], 4);
    assert_eq!(
        v["standings"][0]["tiebreaks"],
        serde_json::json!([8.5, 3.0])
    );
    // After round 2.
    let o = run(&["standings", p.to_str().unwrap(), "--after-round", "2"]);
    let text = stdout(&o);
    assert!(text.contains("standings after round 2"), "{text}");
    // Same input, same output.
    assert_eq!(
        stdout(&run(&["standings", &f])),
        stdout(&run(&["standings", &f]))
    );
    // HTML: escaped, self-contained.
    let html = stdout(&run(&["standings", &f, "--format", "html"]));
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("Gil &lt;G&gt; &amp; O'Neil"), "{html}");
    assert!(!html.contains("<G>"));
    assert!(!html.contains("http"));
}

#[test]
fn bad_tiebreak_names_and_rounds_are_input_errors() {
    let f = night_path();
    let o = run(&["standings", &f, "--tiebreak", "bh,median"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--tiebreak") && stderr(&o).contains("'median'"),
        "{}",
        stderr(&o)
    );
    let dir = Scratch::new("bad");
    let mut t = night();
    t.settings
        .insert("tiebreaks".into(), serde_json::json!("bh"));
    let p = save(&dir, "n.json", &t);
    let o = run(&["standings", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("n.json") && e.contains("settings.tiebreaks"),
        "{e}"
    );
    let o = run(&["standings", &f, "--after-round", "9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--after-round"), "{}", stderr(&o));
    let o = run(&["sheet", &f, "--round", "7"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("round 7 is not paired"),
        "{}",
        stderr(&o)
    );
    let o = run(&["sheet", &f, "--boards-per-page", "0", "--format", "html"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_pairing_sheet_has_ratings_titles_federations_and_byes_in_words() {
    let f = night_path();
    let o = run(&["sheet", &f, "--round", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    let b1 = s.lines().find(|l| l.contains("Ben Birch (2)")).unwrap();
    // Board 1: Ben Birch (ENG 2200, 1 point) v FM Ana Aas (NOR 2300, 1 point), drawn.
    for part in ["ENG", "2200", "½-½", "FM", "Ana Aas (1)", "NOR", "2300"] {
        assert!(b1.contains(part), "{part}: {b1}");
    }
    let b3 = s.lines().find(|l| l.contains("Dee Dunn (4)")).unwrap();
    assert!(b3.contains("WCM") && b3.contains("+/-"), "{b3}");
    let bye = s.lines().find(|l| l.contains("Cleo Cole (3)")).unwrap();
    assert!(bye.contains("half-point bye (0.5 points)"), "{bye}");
    let r1 = stdout(&run(&["sheet", &f, "--round", "1"]));
    assert!(r1.contains("pairing-allocated bye (1 point)"), "{r1}");
    // The alphabetical list: player → board, colour, opponent.
    let a = stdout(&run(&["sheet", &f, "--round", "2", "--kind", "alpha"]));
    let ana = a.lines().find(|l| l.starts_with("Ana Aas")).unwrap();
    assert!(
        ana.contains(" 1 ") && ana.contains("black") && ana.contains("Ben Birch (2)"),
        "{ana}"
    );
    let names: Vec<&str> = a
        .lines()
        .skip(2)
        .map(|l| l.split("  ").next().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(names, sorted);
    // The crosstable: a cell per round, byes by letter.
    let x = stdout(&run(&["sheet", &f, "--kind", "crosstable"]));
    let gil = x.lines().find(|l| l.contains("Gil")).unwrap();
    assert!(
        gil.contains("U1") && gil.contains("6b0") && gil.contains("2w0"),
        "{gil}"
    );
    let cleo = x.lines().find(|l| l.contains("Cleo Cole")).unwrap();
    assert!(cleo.contains("H½"), "{cleo}");
}

#[test]
fn pair_prints_byes_in_words_with_ratings() {
    let dir = Scratch::new("pair");
    let src = formats::load(Path::new(&format!("{DATA}/odd.json"))).unwrap();
    let f = save(&dir, "odd.json", &src);
    let o = run(&["pair", f.to_str().unwrap(), "--round", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("pairing-allocated bye (1 point)"), "{s}");
    assert!(!s.contains("PairingAllocated"), "{s}");
    assert!(s.contains("2210") && s.contains("Rtg"), "{s}");
}

/// The HTML pages: names escaped, a page per N boards each with its heading and column titles.
fn sheet_html(args: &[&str], dir: &Scratch, name: &str) -> (PathBuf, String) {
    let out = dir.path(name);
    let mut all = args.to_vec();
    all.extend(["--format", "html", "--out", out.to_str().unwrap()]);
    let o = run(&all);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let html = std::fs::read_to_string(&out).unwrap();
    (out, html)
}

/// A 30-board round of a generated 60-player event, paired, for the page breaks.
fn big_event(dir: &Scratch) -> PathBuf {
    let f = dir.path("big.json");
    let o = run(&[
        "generate",
        "--players",
        "60",
        "--rounds",
        "7",
        "--played",
        "3",
        "--seed",
        "7",
        "--out",
        f.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["pair", f.to_str().unwrap(), "--write"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    f
}

#[test]
fn html_sheets_are_escaped_paged_and_render_in_headless_chromium() {
    let dir = Scratch::new("html");
    let night = night_path();
    let (_, html) = sheet_html(&["sheet", &night, "--round", "3"], &dir, "r3.html");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("Night club &lt;Swiss&gt; &amp; co"), "{html}");
    assert!(html.contains("Gil &lt;G&gt; &amp; O'Neil (7)"), "{html}");
    assert!(html.contains("zero-point bye (0 points)"), "{html}");
    assert!(html.contains("@media print"));
    for external in ["http://", "https://", "src=", "<link"] {
        assert!(!html.contains(external), "{external}");
    }
    let big = big_event(&dir);
    let (pairings, html) = sheet_html(
        &["sheet", big.to_str().unwrap(), "--boards-per-page", "12"],
        &dir,
        "big.html",
    );
    // 30 boards, 12 a page: 3 pages, each with its heading and table head.
    assert_eq!(html.matches("<section class=\"page\">").count(), 3);
    assert_eq!(html.matches("<thead>").count(), 3);
    assert!(html.contains("Page 3 of 3"));
    assert!(html.contains("break-after: page"));
    let (cross, _) = sheet_html(
        &["sheet", big.to_str().unwrap(), "--kind", "crosstable"],
        &dir,
        "cross.html",
    );
    let (standings, _) = {
        let out = dir.path("standings.html");
        let o = run(&[
            "standings",
            big.to_str().unwrap(),
            "--format",
            "html",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        (out, ())
    };
    let Some(chrome) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have chromium (apt-get install -y chromium)"
        );
        eprintln!("chromium not installed: screenshots skipped");
        return;
    };
    for (page, tag) in [
        (&pairings, "pairings"),
        (&cross, "crosstable"),
        (&standings, "standings"),
    ] {
        let png = dir.path(&format!("{tag}.png"));
        let bytes = screenshot(&chrome, page, &png, &dir.path("profile"), (1100, 1400));
        // A blank page compresses to a few KB; tables of names and numbers take far more.
        assert!(
            bytes.len() > 30_000,
            "{tag}: screenshot only {} bytes",
            bytes.len()
        );
        // Printed, the pages break where the sheet says: 30 boards at 12 a page make 3 pages,
        // 60 players at 40 rows 2 (each page fits on A4).
        let pdf = dir.path(&format!("{tag}.pdf"));
        let print = Command::new(&chrome)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-pdf-header-footer",
            ])
            .arg(format!("--user-data-dir={}", dir.path("profile").display()))
            .arg(format!("--print-to-pdf={}", pdf.display()))
            .arg(format!("file://{}", page.display()))
            .output()
            .expect("run chromium");
        assert!(print.status.success(), "{}", stderr(&print));
        let bytes = std::fs::read(&pdf).expect("pdf written");
        let pages = pdf_pages(&bytes);
        let want = if tag == "pairings" { 3 } else { 2 };
        assert_eq!(pages, want, "{tag}: {pages} printed pages");
        if let Some(keep) = std::env::var_os("OPTIPAIR_KEEP_SCREENSHOTS") {
            let keep = PathBuf::from(keep);
            std::fs::create_dir_all(&keep).unwrap();
            std::fs::copy(&png, keep.join(format!("{tag}.png"))).unwrap();
            std::fs::copy(page, keep.join(format!("{tag}.html"))).unwrap();
        }
    }
}

/// Pages in a PDF: its `/Type /Page` objects (not `/Pages`).
fn pdf_pages(bytes: &[u8]) -> usize {
    let text = String::from_utf8_lossy(bytes);
    text.match_indices("/Type")
        .filter(|(i, _)| {
            let rest = text[i + 5..].trim_start();
            rest.starts_with("/Page") && !rest.starts_with("/Pages")
        })
        .count()
}

fn save(dir: &Scratch, name: &str, t: &Tournament) -> PathBuf {
    let p = dir.path(name);
    formats::save(&p, t).expect("save");
    p
}
