//! TRF-2026 and TRF(x) records that change the pairing: each is honoured or refused with a
//! message naming the line, never ignored (issue 19). Fixtures in `tests/data/trf`, one per
//! record (see its README); the command line is driven as a manager drives it.

use crate::common::cli::{run_in, Scratch};
use optipair::formats::{self, trf};
use optipair::tournament::{ByeKind, Encoding};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_optipair");
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/trf");

fn data(name: &str) -> PathBuf {
    Path::new(DATA).join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run optipair")
}

/// The pairs of `--dutch FILE -p` (exit 0 expected).
fn pairs(name: &str) -> Vec<(u32, u32)> {
    let o = run(&["--dutch", data(name).to_str().unwrap(), "-p"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .skip(1)
        .map(|l| {
            let (a, b) = l.split_once(' ').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

/// `--dutch FILE -p` refuses the file (exit 3, invalid request) with a message naming `line`
/// and containing `words`; `optipair pair` refuses it too (exit 2).
fn refused(name: &str, line: usize, words: &str) {
    let o = run(&["--dutch", data(name).to_str().unwrap(), "-p"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{name}: {err}");
    assert!(o.stdout.is_empty(), "{name}: pairs printed");
    assert!(err.contains(&format!("line {line}")), "{name}: {err}");
    assert!(err.contains(words), "{name}: {err}");
    let o = run(&["pair", data(name).to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{name}");
}

/// The reference engine's `-p` output stored beside a fixture (`NAME.bbp.txt`).
fn reference(name: &str) -> String {
    std::fs::read_to_string(data(&format!("{name}.bbp.txt"))).unwrap()
}

/// `--dutch FILE -p` on a fixture, as text.
fn engine_pairs(name: &str) -> String {
    let o = run(&["--dutch", data(name).to_str().unwrap(), "-p"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A TRF text: `base.trf` with `extra` lines before its first player line, and its points
/// columns blank (not checked: these tests are about the records, not the points).
fn base_with(extra: &[&str]) -> String {
    let base = std::fs::read_to_string(data("base.trf")).unwrap();
    let mut lines: Vec<String> = base
        .split('\r')
        .map(|l| match l.starts_with("001") {
            true => format!("{}    {}", &l[..80], &l[84..]),
            false => l.to_string(),
        })
        .collect();
    let at = lines.iter().position(|l| l.starts_with("001")).unwrap();
    for (i, l) in extra.iter().enumerate() {
        lines.insert(at + i, l.to_string());
    }
    lines.join("\r")
}

#[test]
fn scoring_from_162_and_xxs() {
    // TRF-2026 162 (`162  W 3.0    D 1.0    L 0.0`, codes at columns 6, 15, 24): W is a win
    // over the board or by forfeit and the full-point bye, P (not given) the same as W, D a
    // draw and the half-point bye.
    let t = formats::load(&data("162_scoring.trf")).unwrap();
    let s = &t.scoring;
    assert_eq!((s.win, s.draw, s.loss), (3.0, 1.0, 0.0));
    assert_eq!((s.forfeit_win, s.full_bye, s.pairing_bye), (3.0, 3.0, 3.0));
    assert_eq!(s.half_bye, 1.0);
    // The reference engine reads the same line and pairs the same round.
    assert_eq!(engine_pairs("162_scoring.trf"), reference("162_scoring"));
    // The space-separated form managers also write reads the same.
    let t = trf::parse(&base_with(&["162 W 3.0 D 1.0"])).unwrap();
    assert_eq!((t.scoring.win, t.scoring.draw), (3.0, 1.0));

    // JaVaFo's XXS (advanced user manual, "Scoring point system"): WW/BW are wins over the
    // board only; the forfeit win, the full-point bye and the PAB keep their 1.0, and a draw
    // with either colour leaves the half-point bye at 0.5.
    let t = formats::load(&data("xxs_scoring.trf")).unwrap();
    let s = &t.scoring;
    assert_eq!((s.win, s.draw, s.loss), (3.0, 1.0, 0.0));
    assert_eq!((s.forfeit_win, s.full_bye, s.pairing_bye), (1.0, 1.0, 1.0));
    assert_eq!(s.half_bye, 0.5);
    // The manual's example 2: `W=3` and `D=1` make 3/1/0 with the PAB still 1 (worth a draw).
    let t = trf::parse(&base_with(&["XXS W=3", "XXS D=1"])).unwrap_or_else(|e| panic!("{e}"));
    let s = &t.scoring;
    assert_eq!(
        (s.win, s.forfeit_win, s.full_bye, s.draw, s.half_bye),
        (3.0, 3.0, 3.0, 1.0, 1.0)
    );
    assert_eq!(s.pairing_bye, 1.0);
    // Example 5: order decides. Byes set to 0 after W=3 stay 0; before it, W=3 overrides FPB.
    let after = [
        "XXS W=3 D=2 WL=1 BL=1",
        "XXS PAB=3",
        "XXS FPB=0 HPB=0 ZPB=0",
    ];
    let before = [
        "XXS PAB=3",
        "XXS FPB=0 HPB=0 ZPB=0",
        "XXS W=3 D=2 WL=1 BL=1",
    ];
    let points = |lines: &[&str]| {
        let t = trf::parse(&base_with(lines)).unwrap_or_else(|e| panic!("{e}"));
        (t.scoring.full_bye, t.scoring.half_bye, t.scoring.loss)
    };
    assert_eq!(points(&after), (0.0, 0.0, 1.0));
    assert_eq!(points(&before), (3.0, 2.0, 1.0));
    refused("xxs_colour_scoring.trf", 3, "scores both colours alike");
    // A code the manual does not define is refused, naming the line.
    let e = trf::parse(&base_with(&["XXS X=1"])).unwrap_err();
    assert!(
        e.to_string().contains("line 3") && e.to_string().contains("unknown code 'X'"),
        "{e}"
    );
}

#[test]
fn requested_byes_from_240_are_not_paired() {
    let t = formats::load(&data("240_requested_bye.trf")).unwrap();
    let r3 = t.round(3).expect("round 3 holds the requested byes");
    assert!(!r3.is_paired());
    let mut byes: Vec<(u32, ByeKind)> = r3.byes.iter().map(|b| (b.player, b.kind)).collect();
    byes.sort_by_key(|b| b.0);
    assert_eq!(byes, vec![(1, ByeKind::Half), (2, ByeKind::Half)]);
    assert_eq!(
        engine_pairs("240_requested_bye.trf"),
        reference("240_requested_bye")
    );
    let got = pairs("240_requested_bye.trf");
    assert_eq!(got.len(), 2);
    assert!(got
        .iter()
        .all(|&(a, b)| ![a, b].contains(&1) && ![a, b].contains(&2)));
}

#[test]
fn forbidden_pairs_from_260_and_xxp_are_hard_rules() {
    // Without the record, 1 v 2 is the top board; with it, 1 and 2 are kept apart.
    assert!(pairs("base.trf")
        .iter()
        .any(|&p| p == (1, 2) || p == (2, 1)));
    // Each as the reference engine pairs it; JaVaFo's XXP (advanced user manual, "Forbidden
    // pairs": "all the players mentioned in the list will not be paired against each other")
    // with three players keeps all three apart.
    for name in ["260_forbidden", "xxp_forbidden", "xxp_three_players"] {
        assert_eq!(
            engine_pairs(&format!("{name}.trf")),
            reference(name),
            "{name}"
        );
    }
    let three = pairs("xxp_three_players.trf");
    assert!(three
        .iter()
        .all(|&(a, b)| !([1, 2, 3].contains(&a) && [1, 2, 3].contains(&b))));
    for name in ["260_forbidden.trf", "xxp_forbidden.trf"] {
        let got = pairs(name);
        assert_eq!(got.len(), 3, "{name}");
        assert!(
            !got.iter().any(|&p| p == (1, 2) || p == (2, 1)),
            "{name}: {got:?}"
        );
    }
    // The verifier knows the rule: a recorded game it forbids is a violation (exit 1).
    let o = run(&["check", data("260_violated.trf").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("forbidden pair in round 2 (TRF-2026 260)"));
    // Written back as 260 lines: a TRF round trip keeps the rule.
    let o = run(&[
        "pair",
        data("260_forbidden.trf").to_str().unwrap(),
        "--format",
        "trf",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout)
        .split(['\r', '\n'])
        .any(|l| l == "260 003 005    1    2"));
    // A record naming a player the file does not list is refused at its line, by its kind.
    for (line, kind) in [("260 001 002    1    9", "260"), ("XXP    1    9", "XXP")] {
        let e = trf::parse(&base_with(&[line])).unwrap_err().to_string();
        assert!(
            e.contains("line 3")
                && e.contains(&format!(
                    "{kind}: forbidden pair names player 9, who has no 001 line"
                )),
            "{line}: {e}"
        );
    }
}

#[test]
fn tournament_type_192() {
    let t = formats::load(&data("192_dutch.trf")).unwrap();
    assert_eq!(t.system.as_deref(), Some("swiss"));
    refused("192_other.trf", 3, "FIDE_BURSTEIN_2017");
}

/// TRF-2026 250 (accelerated rounds): the fictitious game points of a range of rounds for a
/// range of players are added to their pairing score, as the reference engine adds them.
/// Three generated tournaments (55, 57 and 56 players; the last with overlapping ranges, a
/// later line overriding an earlier one) paired by the reference with the same 250 lines.
#[test]
fn acceleration_250_pairs_as_the_reference_engine() {
    let dir = Scratch::new("accel250");
    for name in [
        "250_reference_55p",
        "250_reference_57p",
        "250_overlapping_56p",
    ] {
        let file = format!("{name}.trf");
        assert_eq!(engine_pairs(&file), reference(name), "{name}");
        // `optipair pair --write` stores the same boards and colours.
        let copy = dir.copy(&data(&file), &file);
        let o = run(&["pair", copy.to_str().unwrap(), "--write"]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        let t = formats::load(&copy).unwrap();
        let round = t.round(t.last_paired_round()).unwrap();
        let mut ours: Vec<(u32, u32)> = round.games.iter().map(|g| (g.white, g.black)).collect();
        ours.extend(round.byes.iter().map(|b| (b.player, 0)));
        ours.sort();
        let mut theirs: Vec<(u32, u32)> = reference(name)
            .lines()
            .skip(1)
            .map(|l| {
                let (a, b) = l.split_once(' ').unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        theirs.sort();
        assert_eq!(ours, theirs, "{name}");
    }
    // Without the 250 lines the round pairs otherwise: the acceleration is what decides.
    let text = std::fs::read_to_string(data("250_reference_55p.trf")).unwrap();
    let plain: String = text
        .lines()
        .filter(|l| !l.starts_with("250"))
        .map(|l| format!("{l}\n"))
        .collect();
    let f = dir.write("plain.trf", &plain);
    let o = run(&["--dutch", f.to_str().unwrap(), "-p"]);
    assert_ne!(
        String::from_utf8_lossy(&o.stdout),
        reference("250_reference_55p")
    );
    // The same points given per player by JaVaFo's XXA pair the same (the reference engine
    // gives this file the same output as the 250 file).
    assert_eq!(
        engine_pairs("xxa_reference_55p.trf"),
        reference("250_reference_55p")
    );
}

#[test]
fn acceleration_250_sets_virtual_points_by_round_and_player() {
    // `250 00.0 01.0 001 002 0001 0003`: players 1-3 have 1.0 in rounds 1 and 2.
    let t = formats::load(&data("250_acceleration.trf")).unwrap();
    for p in &t.players {
        let want: &[f64] = if p.id <= 3 { &[1.0, 1.0] } else { &[] };
        assert_eq!(p.virtual_points, want, "player {}", p.id);
    }
    // Refusals, each naming the line: game points 0.0 (TRF-2026: must differ from 0.0).
    refused("250_zero_points.trf", 3, "fictitious game points");
    let bad = |line: &str, words: &str| {
        let e = trf::parse(&base_with(&[line])).unwrap_err().to_string();
        assert!(e.contains("line 3") && e.contains(words), "{line}: {e}");
    };
    bad("250 01.0 01.0 001 002 0001 0003", "match points");
    bad("250      01.0 003 002 0001 0003", "the last round");
    bad("250      01.0 001 002 0001 0009", "who has no 001 line");
    bad("250 01.0", "runs to column 31");
    let e = trf::parse(&base_with(&[
        "250      01.0 001 002 0001 0003",
        "XXA    2  1.0",
    ]))
    .unwrap_err()
    .to_string();
    assert!(e.contains("also has an XXA line"), "{e}");
    // 192's Baku type is read when the file gives the acceleration itself (TRF-2026: the 250
    // records override the 192 method), refused when optipair would have to compute it.
    assert!(trf::parse(&base_with(&[
        "192 FIDE_DUTCH_2025_BAKU",
        "250      01.0 001 002 0001 0003"
    ]))
    .is_ok());
    let e = trf::parse(&base_with(&["192 FIDE_DUTCH_2025_BAKU"]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 3") && e.contains("the system baku"), "{e}");
}

/// TRF-2026 reads a blank round slot as Z (absent). A reference tournament whose absences
/// (`0000 - Z`) inside the played rounds are blanked: read as the same absences, the points
/// column agrees, and the next round pairs as the reference engine pairs the blanked file.
#[test]
fn a_blank_slot_inside_the_played_rounds_is_an_absence() {
    let t = formats::load(&data("blank_slot.trf")).unwrap();
    for (id, round) in [(8, 5), (38, 6), (39, 6), (244, 1)] {
        let r = t.round(round).unwrap();
        assert!(
            r.byes
                .iter()
                .any(|b| b.player == id && b.kind == ByeKind::Zero),
            "player {id}, round {round}"
        );
    }
    assert_eq!(engine_pairs("blank_slot.trf"), reference("blank_slot"));
}

/// A round paired by `pair --write` and not yet played: the slots carry the opponent and
/// colour and no result (TRF-2026 has no result code for a game not yet played, and the
/// reference engine reads no such slot). The engine line refuses to pair from it, naming the
/// line, and checks it.
#[test]
fn a_pending_round_is_refused_for_pairing_and_checked() {
    let dir = Scratch::new("pending");
    let f = dir.copy(&data("base.trf"), "event.trf");
    let o = run(&["pair", f.to_str().unwrap(), "--write"]);
    assert_eq!(o.status.code(), Some(0));
    let text = std::fs::read_to_string(&f).unwrap();
    let line = text.split('\r').nth(2).unwrap();
    assert!(line.ends_with("     2 w  "), "{line:?}");
    let t = formats::load(&f).unwrap();
    assert!(t
        .round(3)
        .unwrap()
        .games
        .iter()
        .all(|g| g.result == optipair::tournament::GameResult::Pending));
    let o = run(&["--dutch", f.to_str().unwrap(), "-p"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("line 3")
            && err.contains("round 3 is paired but 3 of its games have no result"),
        "{err}"
    );
    let o = run(&["--dutch", f.to_str().unwrap(), "-c"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("event: Round #3\n"), "{out}");
    // Results recorded, the next round pairs.
    let o = run_in(
        None,
        &["record", f.to_str().unwrap(), "--round", "3"],
        Some("1 1-0\n2 1/2\n3 0-1\n"),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Round 4 of these six players has no legal pairing (exit 1, as the reference engine
    // exits on this file): the file is read, the round is tried.
    let o = run(&["--dutch", f.to_str().unwrap(), "-p"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Swiss-Manager's "spielfrei" line: its games are the byes of its opponents (here the
/// pairing-allocated byes of rounds 1 and 2, as the engine gave them), noted on stderr; the
/// dummy is no player, so it is never paired and the round checks clean.
#[test]
fn a_dummy_opponent_is_read_as_the_byes_it_stands_for() {
    let t = formats::load(&data("dummy_opponent.trf")).unwrap();
    assert_eq!(t.players.len(), 5);
    assert!(t.players.iter().all(|p| p.name != "spielfrei"));
    let pab = |r: u32| -> Vec<u32> {
        t.round(r)
            .unwrap()
            .byes
            .iter()
            .filter(|b| b.kind == ByeKind::PairingAllocated)
            .map(|b| b.player)
            .collect()
    };
    assert_eq!((pab(1), pab(2)), (vec![5], vec![3]));
    let o = run(&["check", data("dummy_opponent.trf").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("'spielfrei'") && err.contains("dummy"),
        "{err}"
    );
    // Round 3: 3 and 5 have had the bye, so 4 gets it; nobody plays the dummy.
    let o = run(&[
        "--dutch",
        data("dummy_opponent.trf").to_str().unwrap(),
        "-p",
    ]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "3\n1 5\n3 2\n4 0\n");
    assert!(String::from_utf8_lossy(&o.stderr).contains("spielfrei"));
    // A dummy line without games loads too, leaving the six players.
    let t = formats::load(&data("dummy_player.trf")).unwrap();
    assert_eq!(t.players.len(), 6);
}

/// Forfeits written without colours (`12 - -`, round 4) or with the colours the other way
/// round (round 5) are not judged for colours by `check` or `audit` (exit 0, not 3).
#[test]
fn the_colours_of_forfeits_are_not_judged() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/engine/forfeit_colours.trf");
    let f = f.to_str().unwrap();
    let o = run(&["check", f]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    for r in ["4", "5"] {
        let o = run(&["audit", f, "--round", r]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "round {r}: {out}");
        assert!(!out.contains("reversed"), "round {r}: {out}");
    }
}

/// `pair --format trf` prints the file in the encoding `--write` keeps: Windows-1252 in,
/// Windows-1252 out.
#[test]
fn the_trf_printed_keeps_the_files_encoding() {
    let o = run(&[
        "pair",
        data("latin1_names.trf").to_str().unwrap(),
        "--format",
        "trf",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(std::str::from_utf8(&o.stdout).is_err(), "printed as UTF-8");
    assert!(o.stdout.windows(6).any(|w| w == b"M\xfcller"));
}

/// A half-point bye requested for a later round is written in its slot but not counted in
/// any points column before that round is played; one for the round to pair is (JaVaFo's
/// manual asks it).
#[test]
fn a_later_bye_is_not_counted_in_the_points_column() {
    let dir = Scratch::new("later-bye");
    let base = std::fs::read_to_string(data("base.trf")).unwrap();
    let f = dir.write("x.trf", &base.replace("142 5", "XXR 5"));
    let points = |text: &str| -> Vec<String> {
        text.split(['\r', '\n'])
            .filter(|l| l.starts_with("001"))
            .map(|l| l[80..84].to_string())
            .collect()
    };
    let before = points(&base);
    let bye = |id: &str, round: &str| {
        let o = run(&[
            "bye",
            f.to_str().unwrap(),
            id,
            "--round",
            round,
            "--kind",
            "half",
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        points(&std::fs::read_to_string(&f).unwrap())
    };
    assert_eq!(bye("3", "5"), before, "a round-5 bye counted after round 2");
    let now = bye("4", "3");
    let changed: Vec<usize> = (0..now.len()).filter(|&i| now[i] != before[i]).collect();
    assert_eq!(
        changed,
        vec![3],
        "only player 4's points gain the round-3 bye"
    );
    // The file reads back, its points agreeing with its results.
    formats::load(&f).unwrap();
}

/// The export of a round just paired (its results pending) counts no bye of the round after
/// it: that round is not the round to pair until the results are in.
#[test]
fn a_bye_after_a_round_waiting_for_results_is_not_counted() {
    let dir = Scratch::new("bye-after-pending");
    let base = std::fs::read_to_string(data("base.trf")).unwrap();
    let f = dir.write("x.trf", &base.replace("142 5", "XXR 5"));
    let o = run(&[
        "bye",
        f.to_str().unwrap(),
        "3",
        "--round",
        "4",
        "--kind",
        "half",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(&["pair", f.to_str().unwrap(), "--format", "trf"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let line = text
        .split(['\r', '\n'])
        .find(|l| l.starts_with("001    3"))
        .unwrap()
        .to_string();
    // Charlie has 0.5 from rounds 1-2; round 3 is paired, not played; round 4's bye waits.
    assert_eq!(&line[80..84], " 0.5", "{line}");
    assert!(
        line.ends_with("0000 - H"),
        "the request is kept in its slot: {line}"
    );
}

#[test]
fn windows_1252_is_read_and_written_back_in_it() {
    let t = formats::load(&data("latin1_names.trf")).unwrap();
    assert_eq!(t.encoding, Encoding::Windows1252);
    assert!(t.players.iter().any(|p| p.name == "Müller, Jan"));
    assert!(t.players.iter().any(|p| p.name == "Çelik, Zé"));
    let dir = std::env::temp_dir().join(format!("optipair-trf-enc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("event.trf");
    std::fs::copy(data("latin1_names.trf"), &copy).unwrap();
    let o = run(&["pair", copy.to_str().unwrap(), "--write"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let bytes = std::fs::read(&copy).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "written back as UTF-8"
    );
    assert!(bytes.windows(6).any(|w| w == b"M\xfcller"));
    let again = formats::load(&copy).unwrap();
    assert_eq!(again.players, t.players);
    let _ = std::fs::remove_dir_all(&dir);
    // UTF-8 with a byte-order mark reads as UTF-8.
    let t = formats::load(&data("utf8_bom.trf")).unwrap();
    assert_eq!(t.encoding, Encoding::Utf8);
    assert_eq!(t.name, "Six Player Test");
    assert!(t.players.iter().any(|p| p.name == "Müller, Jan"));
}

#[test]
fn the_points_column_is_checked_against_the_results() {
    // A 3-1-0 scoring line over a 1-½-0 points column: refused, naming the player and line.
    refused("points_mismatch.trf", 4, "the points column says 2.0");
    let o = run(&["check", data("points_mismatch.trf").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(err.contains("player 1 (Alpha, Ann)"), "{err}");
    // --points-warning downgrades it to a warning.
    let o = run(&[
        "check",
        "--points-warning",
        data("points_mismatch.trf").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("warning: line 4: player 1"), "{err}");
}

/// FIDE's own TRF example, the 9th Karl-Mala-Gedenkturnier (Frankfurt 2005, 284 lines, 7
/// rounds; `karl_mala_2005.trf`, see the README): its line 284 is Swiss-Manager's
/// 'spielfrei' dummy. `check` reads the whole file (the dummy a note, not a player) and is
/// clean; `audit` of rounds 4 to 7 — forfeits written `251 - -` among them — finds every
/// round legal (exit 0 or 1, never the exit 3 of a broken rule) and judges no forfeit's
/// colours.
#[test]
fn karl_mala_2005_is_read_with_its_dummy_as_a_note() {
    let f = data("karl_mala_2005.trf");
    let t = formats::load(&f).unwrap();
    assert_eq!(t.players.len(), 283);
    assert!(t.players.iter().all(|p| p.name != "spielfrei"));
    let f = f.to_str().unwrap();
    let o = run(&["check", f]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("'spielfrei'") && err.contains("dummy"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("every round clean"));
    for r in ["4", "5", "6", "7"] {
        let o = run(&["audit", f, "--round", r]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(matches!(o.status.code(), Some(0 | 1)), "round {r}: {out}");
        assert!(out.contains("Rule violations: none"), "round {r}: {out}");
        assert!(
            !out.contains("colours reversed)") || out.contains("0 with the colours reversed"),
            "round {r}: {out}"
        );
        assert!(String::from_utf8_lossy(&o.stderr).contains("spielfrei"));
    }
}
