//! File formats: TRF (against the reference files), CSV player lists, typed results.

use optipair::formats::{csv, results, trf};
use optipair::tournament::{
    Bye, ByeKind, Colour, Game, GameResult, Player, Round, Tournament, FORMAT,
};
use std::collections::HashMap;
use std::path::PathBuf;

const REF_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch");

fn reference_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(REF_DIR)
        .expect("reference directory")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "trf")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("rtg_"))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no reference files in {REF_DIR}");
    files
}

fn read_ref(name: &str) -> String {
    std::fs::read_to_string(format!("{REF_DIR}/{name}")).expect("reference file")
}

/// `rtg_SEED_Np_Rr.trf` → (N, R).
fn counts_in_name(p: &std::path::Path) -> (usize, u32) {
    let stem = p.file_stem().unwrap().to_str().unwrap();
    let parts: Vec<&str> = stem.split('_').collect();
    let n = parts[2].trim_end_matches('p').parse().unwrap();
    let r = parts[3].trim_end_matches('r').parse().unwrap();
    (n, r)
}

fn game(t: &Tournament, round: u32, a: u32, b: u32) -> Game {
    t.round(round)
        .unwrap()
        .games
        .iter()
        .find(|g| (g.white == a && g.black == b) || (g.white == b && g.black == a))
        .cloned()
        .unwrap_or_else(|| panic!("no game {a} v {b} in round {round}"))
}

fn bye(t: &Tournament, round: u32, p: u32) -> Option<ByeKind> {
    t.round(round)?
        .byes
        .iter()
        .find(|b| b.player == p)
        .map(|b| b.kind)
}

// ---------------------------------------------------------------------------------------------
// TRF: reference files

#[test]
fn reference_files_parse_count_and_round_trip() {
    for path in reference_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let t = trf::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        t.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let (n, r) = counts_in_name(&path);
        assert_eq!(t.format, FORMAT);
        assert_eq!(t.players.len(), n, "{name}: players");
        assert_eq!(t.rounds.len() as u32, r, "{name}: rounds");
        assert_eq!(t.last_paired_round(), r, "{name}: last round");
        let numbers: Vec<u32> = t.rounds.iter().map(|r| r.number).collect();
        assert_eq!(numbers, (1..=r).collect::<Vec<_>>(), "{name}");
        // Every player has an entry in every round of these files.
        for round in &t.rounds {
            assert_eq!(
                2 * round.games.len() + round.byes.len(),
                n,
                "{name}: round {} entries",
                round.number
            );
            assert!(round.games.iter().all(|g| g.result != GameResult::Pending));
        }
        // Round trip.
        let written = trf::write(&t).unwrap();
        let again = trf::parse(&written).unwrap_or_else(|e| panic!("{name} rewritten: {e}"));
        assert_eq!(again, t, "{name}: parse(write(t)) differs");
        assert_eq!(
            trf::write(&again).unwrap(),
            written,
            "{name}: write is not stable"
        );
    }
}

#[test]
fn reference_1005_facts() {
    let t = trf::parse(&read_ref("rtg_1005_57p_10r.trf")).unwrap();
    assert_eq!(t.name, "AutoTest Tournament 1005");
    assert_eq!(t.rounds_planned, None);
    // No XXC line: the initial colour is read off round 1 (E.5), where player 1 had black.
    let r1 = t.round(1).unwrap();
    let g1 = r1
        .games
        .iter()
        .find(|g| g.white == 1 || g.black == 1)
        .unwrap();
    let expected = if g1.white == 1 {
        Colour::White
    } else {
        Colour::Black
    };
    assert_eq!(t.initial_colour, Some(expected));
    let p1 = t.player(1).unwrap();
    assert_eq!(p1.name, "Test0001 Player0001");
    assert_eq!(p1.rating, 2484);
    assert_eq!(p1.title, None);
    assert_eq!(t.player(57).unwrap().rating, 1076);
    // Player 26 is absent with a zero-point bye in round 7 ("0000 - Z").
    assert_eq!(bye(&t, 7, 26), Some(ByeKind::Zero));
    // Player 49 has the pairing-allocated bye in round 5 ("0000 - U").
    assert_eq!(bye(&t, 5, 49), Some(ByeKind::PairingAllocated));
    assert_eq!(t.round(5).unwrap().byes.len(), 1);
    // Round 5: 4 (white, "7 w -") forfeits to 7 ("4 b +").
    assert_eq!(
        game(&t, 5, 4, 7),
        Game {
            white: 4,
            black: 7,
            result: GameResult::BlackForfeitWin,
            ..Default::default()
        }
    );
    // ... and they meet again over the board in round 9: 7 white, draw.
    assert_eq!(
        game(&t, 9, 4, 7),
        Game {
            white: 7,
            black: 4,
            result: GameResult::Draw,
            ..Default::default()
        }
    );
    // Round 1: 29 (white) lost to 1.
    assert_eq!(
        game(&t, 1, 1, 29),
        Game {
            white: 29,
            black: 1,
            result: GameResult::BlackWins,
            ..Default::default()
        }
    );
    // Round 3: 42 (white) forfeits to 48; round 8: 26 (black) forfeits to 40.
    assert_eq!(game(&t, 3, 42, 48).result, GameResult::BlackForfeitWin);
    assert_eq!(game(&t, 3, 42, 48).white, 42);
    assert_eq!(game(&t, 8, 26, 40).result, GameResult::WhiteForfeitWin);
    assert_eq!(game(&t, 8, 26, 40).white, 40);
    // Round 10: 28 games and 51's pairing-allocated bye.
    assert_eq!(t.round(10).unwrap().games.len(), 28);
    assert_eq!(bye(&t, 10, 51), Some(ByeKind::PairingAllocated));
}

#[test]
fn reference_other_codes() {
    // A double forfeit: 22 ("55 w -") and 55 ("22 b -") in round 4.
    let t = trf::parse(&read_ref("rtg_1020_150p_6r.trf")).unwrap();
    assert_eq!(
        game(&t, 4, 22, 55),
        Game {
            white: 22,
            black: 55,
            result: GameResult::DoubleForfeit,
            ..Default::default()
        }
    );
    // A half-point bye: player 50 in round 5.
    assert_eq!(bye(&t, 5, 50), Some(ByeKind::Half));
    let t = trf::parse(&read_ref("rtg_1009_150p_8r.trf")).unwrap();
    assert_eq!(bye(&t, 2, 22), Some(ByeKind::Half));
}

/// Facts about the reference files the engine relies on: no two players meet twice over the
/// board, but a pair whose game was forfeited may be paired again later.
#[test]
fn reference_repeat_pairings() {
    let mut forfeit_then_met = 0;
    for path in reference_files() {
        let t = trf::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut met: HashMap<(u32, u32), Vec<(u32, GameResult)>> = HashMap::new();
        for r in &t.rounds {
            for g in &r.games {
                let key = (g.white.min(g.black), g.white.max(g.black));
                met.entry(key).or_default().push((r.number, g.result));
            }
        }
        for (pair, games) in &met {
            let played = games.iter().filter(|(_, res)| res.played()).count();
            assert!(played <= 1, "{path:?}: {pair:?} met twice: {games:?}");
            if games.len() > 1 && games[0].1.is_forfeit() {
                forfeit_then_met += 1;
            }
        }
    }
    assert!(forfeit_then_met > 0);
}

// ---------------------------------------------------------------------------------------------
// TRF: line endings, errors, no panics

#[test]
fn line_endings_parse_identically() {
    let cr = read_ref("rtg_1005_57p_10r.trf");
    assert!(cr.contains('\r') && !cr.contains('\n'));
    let lf = cr.replace('\r', "\n");
    let crlf = cr.replace('\r', "\r\n");
    let a = trf::parse(&cr).unwrap();
    assert_eq!(trf::parse(&lf).unwrap(), a);
    assert_eq!(trf::parse(&crlf).unwrap(), a);
    // No final line break, and mixed endings.
    let mixed: String = lf
        .lines()
        .enumerate()
        .map(|(i, l)| format!("{l}{}", ["\r", "\n", "\r\n"][i % 3]))
        .collect();
    assert_eq!(trf::parse(&mixed).unwrap(), a);
    assert_eq!(trf::parse(lf.trim_end()).unwrap(), a);
}

/// The reference file as LF lines.
fn ref_lines() -> Vec<String> {
    read_ref("rtg_1005_57p_10r.trf")
        .split('\r')
        .map(|s| s.to_string())
        .collect()
}

fn parse_err(lines: &[String]) -> String {
    let text = lines.join("\n");
    match trf::parse(&text) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn truncated_player_line_mid_slot() {
    let mut lines = ref_lines();
    // Line 11 is player 10; cut it in the middle of round 4's opponent field.
    assert!(lines[10].starts_with("001   10"));
    lines[10].truncate(91 + 30 + 3);
    let e = parse_err(&lines);
    assert!(e.contains("line 11"), "{e}");
    assert!(e.contains("field round 4"), "{e}");
    // Cut after the colour (the result column missing).
    let mut lines = ref_lines();
    lines[10].truncate(91 + 30 + 6);
    let e = parse_err(&lines);
    assert!(e.contains("line 11") && e.contains("field round 4"), "{e}");
    // Cut exactly after a whole slot: the opponents' lines no longer agree.
    let mut lines = ref_lines();
    lines[10].truncate(91 + 30 - 2);
    let e = parse_err(&lines);
    assert!(e.contains("line") && e.contains("field round 4"), "{e}");
    assert!(e.contains("line 11"), "{e}");
}

#[test]
fn file_cut_mid_line() {
    let text = read_ref("rtg_1005_57p_10r.trf");
    // Cut inside player 30's name (line 31).
    let start = text.find("\r001   30").unwrap() + 1;
    let e = trf::parse(&text[..start + 20]).unwrap_err().to_string();
    assert!(e.contains("line 31") && e.contains("field name"), "{e}");
    // Cut inside the last player's last slot.
    let last = text.find("\r001   57").unwrap() + 1;
    let end = text[last..].find('\r').unwrap() + last;
    let e = trf::parse(&text[..end - 3]).unwrap_err().to_string();
    assert!(e.contains("line 58") && e.contains("field round 10"), "{e}");
}

fn replace_slot(line: &mut String, round: usize, slot: &str) {
    let start = 91 + 10 * (round - 1);
    line.replace_range(start..start + 8, slot);
}

#[test]
fn bad_values_are_reported() {
    // Unknown opponent.
    let mut lines = ref_lines();
    replace_slot(&mut lines[1], 1, "  99 b 1");
    let e = parse_err(&lines);
    assert!(
        e.contains("line 2") && e.contains("field round 1 opponent") && e.contains("99"),
        "{e}"
    );
    // Unknown result character.
    let mut lines = ref_lines();
    replace_slot(&mut lines[1], 1, "  29 b X");
    let e = parse_err(&lines);
    assert!(
        e.contains("line 2") && e.contains("field round 1 result"),
        "{e}"
    );
    // Sides disagree on the result: the message names both lines.
    let mut lines = ref_lines();
    replace_slot(&mut lines[1], 1, "  29 b =");
    let e = parse_err(&lines);
    assert!(e.contains("line 2") && e.contains("line 30"), "{e}");
    // Both sides claim white.
    let mut lines = ref_lines();
    replace_slot(&mut lines[1], 1, "  29 w 1");
    let e = parse_err(&lines);
    assert!(e.contains("field round 1 colour"), "{e}");
    // Non-numeric start rank and rating.
    let mut lines = ref_lines();
    lines[3].replace_range(4..8, "  x3");
    let e = parse_err(&lines);
    assert!(
        e.contains("line 4") && e.contains("field start rank"),
        "{e}"
    );
    let mut lines = ref_lines();
    lines[3].replace_range(48..52, "24a9");
    let e = parse_err(&lines);
    assert!(e.contains("line 4") && e.contains("field rating"), "{e}");
    // A repeated start rank.
    let mut lines = ref_lines();
    let dup = lines[3].clone();
    lines.insert(5, dup);
    let e = parse_err(&lines);
    assert!(e.contains("line 6") && e.contains("start rank"), "{e}");
}

#[test]
fn player_twice_in_a_round() {
    // 1 v 2 on both lines, and 3 also claims 2.
    let text = [
        "012 twice",
        &player_line(1, "A", &["   2 w 1"]),
        &player_line(2, "B", &["   1 b 0"]),
        &player_line(3, "C", &["   2 w 1"]),
    ]
    .join("\n");
    let e = trf::parse(&text).unwrap_err().to_string();
    assert!(e.contains("line 4") && e.contains("twice"), "{e}");
}

fn player_line(id: u32, name: &str, slots: &[&str]) -> String {
    let mut s = format!(
        "001 {id:>4}      {name:<33} 2000 {:<3} {:>11} {:<10} {:>4} {:>4}",
        "", "", "", "0.0", id
    );
    for slot in slots {
        s.push_str("  ");
        s.push_str(slot);
    }
    s
}

#[test]
fn headers_and_extensions() {
    let text = [
        "012 Club Championship ",
        "XXR 7",
        "XXC rank black1",
        "092 Individual: Swiss-System",
        &player_line(1, "Ann", &["   2 w 1", "0000 - H"]),
        &player_line(2, "Bob", &["   1 b 0", "   3 w  "]),
        &player_line(3, "Cyd", &["0000 - U", "   2 b  "]),
        "XXA    1  1.0  1.0  0.5",
        "XXA 3 1",
    ]
    .join("\r\n");
    let t = trf::parse(&text).unwrap();
    assert_eq!(t.name, "Club Championship");
    assert_eq!(t.rounds_planned, Some(7));
    assert_eq!(t.initial_colour, Some(Colour::Black));
    assert_eq!(t.player(1).unwrap().virtual_points, vec![1.0, 1.0, 0.5]);
    assert_eq!(t.player(3).unwrap().virtual_points, vec![1.0]);
    assert!(t.player(2).unwrap().virtual_points.is_empty());
    assert_eq!(t.rounds.len(), 2);
    assert_eq!(
        t.round(2).unwrap().games,
        vec![Game {
            white: 2,
            black: 3,
            result: GameResult::Pending,
            ..Default::default()
        }]
    );
    assert_eq!(bye(&t, 1, 3), Some(ByeKind::PairingAllocated));
    assert_eq!(bye(&t, 2, 1), Some(ByeKind::Half));
    let again = trf::parse(&trf::write(&t).unwrap()).unwrap();
    assert_eq!(again, t);

    // "0000 - -" is a zero bye; a blank slot inside the played rounds is one too (TRF-2026:
    // blank is Z); W/D/L count as played.
    let text = [
        player_line(1, "Ann", &["   2 w W", "0000 - -", "        ", "   2 b D"]),
        player_line(2, "Bob", &["   1 b L", "0000 - Z", "        ", "   1 w D"]),
    ]
    .join("\n");
    let t = trf::parse(&text).unwrap();
    assert_eq!(
        t.rounds.iter().map(|r| r.number).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert_eq!(game(&t, 1, 1, 2).result, GameResult::WhiteWins);
    assert_eq!(bye(&t, 2, 1), Some(ByeKind::Zero));
    assert_eq!(bye(&t, 3, 1), Some(ByeKind::Zero));
    assert_eq!(bye(&t, 3, 2), Some(ByeKind::Zero));
    assert_eq!(bye(&t, 2, 2), Some(ByeKind::Zero));
    assert_eq!(game(&t, 4, 1, 2).white, 2);
    assert_eq!(game(&t, 4, 1, 2).result, GameResult::Draw);

    // XXA for a player without a line, bad XXR.
    let e = trf::parse(&format!("{}\nXXA 9 1.0", player_line(1, "A", &[])))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2") && e.contains("XXA"), "{e}");
    let e = trf::parse("XXR seven").unwrap_err().to_string();
    assert!(e.contains("line 1") && e.contains("XXR"), "{e}");
}

/// A tournament using everything TRF holds, built in the order parse produces.
fn rich_tournament() -> Tournament {
    let mut players = vec![
        Player::new(1, "Ærøskøbing, Åsa", 2456),
        Player::new(2, "Nguyễn Thị Minh Khai", 2301),
        Player::new(3, "Ōtani 翔平", 0),
        Player::new(4, "O'Brien", 1999),
        Player::new(5, "Plain", 1500),
    ];
    players[0].title = Some("GM".into());
    players[0].federation = Some("DEN".into());
    players[0].fide_id = Some("1234567".into());
    players[1].virtual_points = vec![1.0, 0.5];
    players[3].virtual_points = vec![0.25];
    let mut t = Tournament::new("Rich ☃ open", players);
    t.rounds_planned = Some(5);
    t.initial_colour = Some(Colour::White);
    t.scoring.win = 3.0;
    t.scoring.forfeit_win = 3.0;
    t.scoring.full_bye = 3.0;
    t.scoring.pairing_bye = 2.0;
    t.scoring.draw = 1.0;
    t.scoring.half_bye = 1.0;
    t.rounds = vec![
        Round {
            number: 1,
            games: vec![
                Game {
                    white: 1,
                    black: 3,
                    result: GameResult::WhiteWins,
                    ..Default::default()
                },
                Game {
                    white: 4,
                    black: 2,
                    result: GameResult::BlackForfeitWin,
                    ..Default::default()
                },
            ],
            byes: vec![Bye {
                player: 5,
                kind: ByeKind::PairingAllocated,
                ..Default::default()
            }],
        },
        Round {
            number: 2,
            games: vec![
                Game {
                    white: 2,
                    black: 1,
                    result: GameResult::Draw,
                    ..Default::default()
                },
                Game {
                    white: 5,
                    black: 3,
                    result: GameResult::DoubleForfeit,
                    ..Default::default()
                },
            ],
            byes: vec![Bye {
                player: 4,
                kind: ByeKind::Full,
                ..Default::default()
            }],
        },
        Round {
            number: 3,
            games: vec![Game {
                white: 3,
                black: 4,
                result: GameResult::Pending,
                ..Default::default()
            }],
            byes: vec![
                Bye {
                    player: 1,
                    kind: ByeKind::Half,
                    ..Default::default()
                },
                Bye {
                    player: 2,
                    kind: ByeKind::Zero,
                    ..Default::default()
                },
                // TRF has no "not in the round": a player without a game in a paired round
                // is absent (TRF-2026 reads the blank slot as Z).
                Bye {
                    player: 5,
                    kind: ByeKind::Zero,
                    ..Default::default()
                },
            ],
        },
        // Round 4 not paired yet, absences known; round 5 empty of entries for others.
        Round {
            number: 5,
            games: vec![],
            byes: vec![Bye {
                player: 5,
                kind: ByeKind::Zero,
                ..Default::default()
            }],
        },
    ];
    t
}

#[test]
fn write_then_parse_round_trips() {
    // TRF cannot store board order: read back, each round is in the posted order.
    let mut t = rich_tournament();
    optipair::tournament::boards::post_order_all(&mut t);
    t.validate().unwrap();
    let text = trf::write(&t).unwrap();
    assert!(!text.contains('\r'));
    assert!(text.starts_with("012 Rich ☃ open\n"));
    assert!(text.contains("\nXXR 5\n") && text.contains("\nXXC white1\n"));
    let back = trf::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, t, "\n{text}");
    // Points and rank columns: 1 has 3 (win) + 1 (draw) + 1 (half bye) = 5.0, first.
    let line1 = text.lines().find(|l| l.starts_with("001    1")).unwrap();
    let chars: Vec<char> = line1.chars().collect();
    let col = |a: usize, b: usize| chars[a - 1..b].iter().collect::<String>();
    assert_eq!(col(81, 84), " 5.0");
    assert_eq!(col(86, 89), "   1");
    assert_eq!(col(11, 13), " GM");
    assert_eq!(col(15, 47).trim(), "Ærøskøbing, Åsa");
    assert_eq!(col(92, 99), "   3 w 1");
    // A tournament with nothing but players.
    // The initial colour is always written (unset means white), so that a reader never
    // infers another one from round 1.
    let mut bare = Tournament::new("", vec![Player::new(1, "A", 1000)]);
    let text = trf::write(&bare).unwrap();
    assert!(text.contains("\nXXC white1\n"), "{text}");
    bare.initial_colour = Some(Colour::White);
    assert_eq!(trf::parse(&text).unwrap(), bare);
}

#[test]
fn every_prefix_is_handled_without_panic() {
    let text = read_ref("rtg_1001_16p_5r.trf");
    let full = trf::parse(&text).unwrap();
    let mut errors = 0;
    for cut in 0..=text.len() {
        match trf::parse(&text[..cut]) {
            Ok(_) => {}
            Err(e) => {
                errors += 1;
                assert!(e.to_string().contains("line"), "{e}");
            }
        }
    }
    assert!(errors > 0);
    assert_eq!(trf::parse(&text).unwrap(), full);
    // Non-ASCII: every char boundary of a written file.
    let text = trf::write(&rich_tournament()).unwrap();
    for (cut, _) in text.char_indices() {
        let _ = trf::parse(&text[..cut]);
    }
    // Big files: a sample of cuts.
    let text = read_ref("rtg_1005_57p_10r.trf");
    for cut in (0..text.len()).step_by(7) {
        let _ = trf::parse(&text[..cut]);
    }
}

// ---------------------------------------------------------------------------------------------
// CSV

#[test]
fn csv_assigns_ids_by_rating() {
    let text = "name,rating\n\
                # a comment\n\
                \n\
                Carol,1800\r\n\
                \"Smith, John\",2100\n\
                Alice,2100\n\
                \"Quote \"\"Q\"\" Man\", 1500 \n\
                Unrated,\n";
    let ps = csv::parse_players(text).unwrap();
    let got: Vec<(u32, &str, u32)> = ps
        .iter()
        .map(|p| (p.id, p.name.as_str(), p.rating))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, "Alice", 2100),
            (2, "Smith, John", 2100),
            (3, "Carol", 1800),
            (4, "Quote \"Q\" Man", 1500),
            (5, "Unrated", 0),
        ]
    );
}

#[test]
fn csv_keeps_given_ids() {
    let ps = csv::parse_players("Bob,1500,7\nAnn,2000,3\n").unwrap();
    assert_eq!(
        ps.iter()
            .map(|p| (p.id, p.name.as_str()))
            .collect::<Vec<_>>(),
        vec![(7, "Bob"), (3, "Ann")]
    );
    // No header when the second field is a number.
    let ps = csv::parse_players("Zed,1000\n").unwrap();
    assert_eq!(ps.len(), 1);
}

#[test]
fn csv_errors() {
    let e = csv::parse_players("Bob,1500,1\nAnn,2000\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2") && e.contains("field id"), "{e}");
    let e = csv::parse_players("name,rating\nBob,15x0\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2") && e.contains("field rating"), "{e}");
    let e = csv::parse_players("Bob,1500,2\nAnn,2000,2\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 2") && e.contains("field id") && e.contains("twice"),
        "{e}"
    );
    let e = csv::parse_players("Bob,1500,x\n").unwrap_err().to_string();
    assert!(e.contains("line 1") && e.contains("field id"), "{e}");
    let e = csv::parse_players("Bob,1500\n,1400\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2") && e.contains("field name"), "{e}");
    let e = csv::parse_players("\"Bob,1500\n").unwrap_err().to_string();
    assert!(e.contains("line 1") && e.contains("field name"), "{e}");
    let e = csv::parse_players("Bob,1500\nAnn\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2") && e.contains("field rating"), "{e}");
    assert!(csv::parse_players("# nothing\n\n").is_err());
}

// ---------------------------------------------------------------------------------------------
// Results

/// Five players; round 1 paired: 1 v 3, 4 v 2, bye for 5; round 2 only a requested bye.
fn paired() -> Tournament {
    let players = (1..=5)
        .map(|i| Player::new(i, format!("P{i}"), 2000 - i))
        .collect();
    let mut t = Tournament::new("results", players);
    t.rounds = vec![
        Round {
            number: 1,
            games: vec![
                Game {
                    white: 1,
                    black: 3,
                    result: GameResult::Pending,
                    ..Default::default()
                },
                Game {
                    white: 4,
                    black: 2,
                    result: GameResult::Pending,
                    ..Default::default()
                },
            ],
            byes: vec![Bye {
                player: 5,
                kind: ByeKind::PairingAllocated,
                ..Default::default()
            }],
        },
        Round {
            number: 2,
            games: vec![],
            byes: vec![Bye {
                player: 1,
                kind: ByeKind::Half,
                ..Default::default()
            }],
        },
    ];
    t
}

#[test]
fn results_board_and_id_forms() {
    let mut t = paired();
    let n = results::apply(&mut t, 1, "# round 1\n1 1-0\n\n2 1/2  # agreed\n").unwrap();
    assert_eq!(n, 2);
    let g = &t.round(1).unwrap().games;
    assert_eq!(g[0].result, GameResult::WhiteWins);
    assert_eq!(g[1].result, GameResult::Draw);
    let n = results::apply(&mut t, 1, "4 2 -+\r\n1 3 0-1").unwrap();
    assert_eq!(n, 2);
    let g = &t.round(1).unwrap().games;
    assert_eq!(g[0].result, GameResult::BlackWins);
    assert_eq!(g[1].result, GameResult::BlackForfeitWin);
    assert_eq!(results::apply(&mut t, 1, "").unwrap(), 0);
}

fn record_err(t: &mut Tournament, round: u32, text: &str) -> String {
    let before = t.clone();
    let e = results::apply(t, round, text).unwrap_err().to_string();
    assert_eq!(*t, before, "tournament changed by a failed apply");
    e
}

#[test]
fn results_errors_leave_tournament_unchanged() {
    let mut t = paired();
    let e = record_err(&mut t, 1, "1 1-0\n2 2-0\n");
    assert!(e.contains("line 2") && e.contains("field result"), "{e}");
    let e = record_err(&mut t, 1, "1 1-0\n3 1-0\n");
    assert!(e.contains("line 2") && e.contains("field board"), "{e}");
    let e = record_err(&mut t, 1, "0 1-0\n");
    assert!(e.contains("line 1") && e.contains("field board"), "{e}");
    let e = record_err(&mut t, 1, "1 1-0\n5 2 1-0\n");
    assert!(e.contains("line 2") && e.contains("unpaired player"), "{e}");
    let e = record_err(&mut t, 1, "3 1 1-0\n");
    assert!(
        e.contains("line 1") && e.contains("field white") && e.contains("colour order"),
        "{e}"
    );
    let e = record_err(&mut t, 1, "1 2 1-0\n");
    assert!(e.contains("line 1"), "{e}");
    let e = record_err(&mut t, 1, "1 1-0\n1 3 0-1\n");
    assert!(e.contains("line 2") && e.contains("twice"), "{e}");
    let e = record_err(&mut t, 1, "1 1 - 0\n");
    assert!(e.contains("line 1"), "{e}");
    let e = record_err(&mut t, 2, "1 1-0\n");
    assert!(e.contains("round") && e.contains("not paired"), "{e}");
    let e = record_err(&mut t, 7, "1 1-0\n");
    assert!(e.contains("not paired"), "{e}");
}

#[test]
fn scrabble_scores_give_results_spread_and_ranking() {
    let mut t = paired();
    // A chess event refuses scores: `2-0` is a typing error there.
    assert!(record_err(&mut t, 1, "1 432-377\n").contains("unknown result"));
    t.scoring.game_scores = true;
    t.round_mut(1).byes[0].spread = Some(50);
    results::apply(&mut t, 1, "1 432-377\n2 350-350\n").unwrap();
    let g = &t.round(1).unwrap().games;
    assert_eq!(g[0].result, GameResult::WhiteWins);
    assert_eq!(g[0].scores, Some([432, 377]));
    assert_eq!(g[1].result, GameResult::Draw);
    let st = optipair::tournament::Standings::before(&t, 2);
    assert_eq!(st.get(1).unwrap().spread, 55);
    assert_eq!(st.get(3).unwrap().spread, -55);
    assert_eq!(st.get(5).unwrap().spread, 50);
    // Wins first (1 and 5, the bye, on one), spread next (+55 before +50); then the draws,
    // level on spread, by rating (2 before 4); then 3.
    assert_eq!(st.by_wins_spread(), vec![1, 5, 2, 4, 3]);
    // JSON keeps scores and bye spread; a result contradicting its scores is refused.
    let text = serde_json::to_string(&t).unwrap();
    let back: Tournament = serde_json::from_str(&text).unwrap();
    assert_eq!(back, t);
    let mut bad = t.clone();
    bad.round_mut(1).games[0].result = GameResult::BlackWins;
    let e = bad.validate().unwrap_err().to_string();
    assert!(
        e.contains("rounds[0].games[0].result") && e.contains("432-377"),
        "{e}"
    );
}

#[test]
fn unknown_first_is_not_first_second_history() {
    let mut t = paired();
    t.round_mut(1).games[0].order = optipair::tournament::Order::Unknown;
    let st = optipair::tournament::Standings::before(&t, 2);
    assert_eq!(st.get(1).unwrap().colours, vec![None]);
    assert_eq!(st.get(4).unwrap().firsts_seconds(), (1, 0));
    assert!(st.get(1).unwrap().has_met(3));
}

/// An arbiter's export: a header naming the columns in its own order and spelling, separated
/// by semicolons; every column read into the player (ids as given keep the file order).
#[test]
fn csv_with_a_header_reads_the_common_columns_in_any_order() {
    let text = "No;Title;Name;FED;Rtg;FIDE-ID;Birth;Sex;Club\n\
                2;GM;\"Adler; Anna\";GER;2500;4600001;1990/01/02;w;SK Berlin\n\
                1;;Berg, Bruno;AUT;;;;m;\n";
    let ps = csv::parse_players(text).unwrap();
    assert_eq!(ps.len(), 2);
    let a = &ps[0];
    assert_eq!((a.id, a.name.as_str(), a.rating), (2, "Adler; Anna", 2500));
    assert_eq!(a.title.as_deref(), Some("GM"));
    assert_eq!(a.federation.as_deref(), Some("GER"));
    assert_eq!(a.fide_id.as_deref(), Some("4600001"));
    assert_eq!(a.birth_date.as_deref(), Some("1990/01/02"));
    assert_eq!(a.sex.as_deref(), Some("w"));
    assert_eq!(a.club.as_deref(), Some("SK Berlin"));
    let b = &ps[1];
    assert_eq!((b.id, b.name.as_str(), b.rating), (1, "Berg, Bruno", 0));
    assert_eq!((b.title.as_deref(), b.club.as_deref()), (None, None));
    // Last and first name columns make "Last, First"; ids by rating when none is given.
    let ps = csv::parse_players("Surname,First name,Elo\nZorn,Zoe,1800\nAbel,Al,1900\n").unwrap();
    let got: Vec<(u32, &str)> = ps.iter().map(|p| (p.id, p.name.as_str())).collect();
    assert_eq!(got, vec![(1, "Abel, Al"), (2, "Zorn, Zoe")]);
}

#[test]
fn csv_names_an_unknown_column_and_a_short_row() {
    let e = csv::parse_players("name,rating,shoe size\nAnn,2100,38\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 1") && e.contains("'shoe size'"), "{e}");
    let e = csv::parse_players("name,rating,federation\nAnn,2100\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2") && e.contains("2 fields"), "{e}");
    // A data line whose rating is mistyped is not skipped as a header.
    let e = csv::parse_players("Ann,21OO\nBob,2000\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("'Ann'"), "{e}");
    // The old form without a header still reads.
    let ps = csv::parse_players("Ann,2100\nBob,2000,\n").unwrap();
    assert_eq!(ps.len(), 2);
}
