//! TRF-2026 and TRF(x) records that change the pairing: each is honoured or refused with a
//! message naming the line, never ignored (issue 19). Fixtures in `tests/data/trf`, one per
//! record (see its README); the command line is driven as a manager drives it.

use optipair::formats;
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

#[test]
fn scoring_from_162_and_xxs() {
    for name in ["162_scoring.trf", "xxs_scoring.trf"] {
        let t = formats::load(&data(name)).unwrap();
        assert_eq!(
            (t.scoring.win, t.scoring.draw, t.scoring.loss),
            (3.0, 1.0, 0.0),
            "{name}"
        );
        assert_eq!(t.scoring.pairing_bye, 3.0, "{name}: the PAB is worth a win");
        assert_eq!(
            t.scoring.half_bye, 1.0,
            "{name}: the half-point bye is worth a draw"
        );
    }
    refused("xxs_colour_scoring.trf", 3, "scores both colours alike");
}

#[test]
fn requested_byes_from_240_are_not_paired() {
    let t = formats::load(&data("240_requested_bye.trf")).unwrap();
    let r3 = t.round(3).expect("round 3 holds the requested byes");
    assert!(!r3.is_paired());
    let mut byes: Vec<(u32, ByeKind)> = r3.byes.iter().map(|b| (b.player, b.kind)).collect();
    byes.sort_by_key(|b| b.0);
    assert_eq!(byes, vec![(1, ByeKind::Half), (2, ByeKind::Half)]);
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
}

#[test]
fn tournament_type_192() {
    let t = formats::load(&data("192_dutch.trf")).unwrap();
    assert_eq!(t.system.as_deref(), Some("swiss"));
    refused("192_other.trf", 3, "FIDE_BURSTEIN_2017");
}

#[test]
fn acceleration_250_is_refused_not_ignored() {
    refused("250_acceleration.trf", 3, "TRF-2026 250");
}

#[test]
fn a_dummy_bye_player_is_reported_not_paired() {
    refused("dummy_player.trf", 9, "spielfrei");
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
