//! TRF read and written without loss (issue 19.4): every line optipair does not own is kept
//! byte for byte, and so are the 001 fields it does not compute. Files: reference tournaments
//! (bbpPairings' generator, CR line endings) in `tests/data/dutch`, and the
//! record fixtures of `tests/data/trf`.

use crate::common::cli::{run_in, Scratch};
use optipair::formats::{self, trf};
use std::path::Path;
use std::path::PathBuf;

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch");

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "trf")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("rtg_"))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn reference_files_are_written_back_byte_for_byte() {
    let all = files(Path::new(REFERENCE));
    assert!(all.len() >= 3);
    for f in all {
        let text = std::fs::read_to_string(&f).unwrap();
        let t = trf::parse(&text).unwrap();
        let out = trf::write(&t).unwrap();
        assert_eq!(out, text, "{}", f.display());
    }
}

#[test]
fn header_records_comments_and_player_fields_are_kept() {
    let p1 = format!(
        "001    1 m GM {:<33} 2500 ITA {:>11} 1990/01/02  3.0    1     2 b 1",
        "Alpha, Ann", "12345678"
    );
    let p2 = format!(
        "001    2 w    {:<33} 2400 FRA {:>11} 2001/12/31  0.0    2     1 w 0",
        "Bravo, Bea", "87654321"
    );
    let text: Vec<&str> = vec![
        "012 Open 2026",
        "022 Torino",
        "032 ITA",
        "042 2026/05/01",
        "052 2026/05/09",
        "062 2",
        "092 Individual: Swiss-System",
        "102 Rossi, Mario",
        "112 Bianchi, Anna",
        "112 Verdi, Luca",
        "122 5400+30",
        "132                                                                                        26/05/01  26/05/02",
        "### a comment",
        "142 9",
        "152 B",
        "162 W  3.0 D  1.0",
        &p1,
        &p2,
        "013 Team A                             1    2",
    ];
    let text = text.join("\r");
    let text = format!("{text}\r");
    let t = trf::parse(&text).unwrap();
    assert_eq!(t.event.city.as_deref(), Some("Torino"));
    assert_eq!(
        t.event.deputy_arbiters,
        vec!["Bianchi, Anna", "Verdi, Luca"]
    );
    assert_eq!(t.event.round_dates, vec!["26/05/01", "26/05/02"]);
    let p = t.player(1).unwrap();
    assert_eq!(p.sex.as_deref(), Some("m"));
    assert_eq!(p.birth_date.as_deref(), Some("1990/01/02"));
    let out = trf::write(&t).unwrap();
    assert_eq!(out, text);
    // The event's data round-trips through the native JSON too.
    let json = optipair::formats::json::write(&t);
    let back = optipair::formats::json::parse(&json).unwrap();
    assert_eq!(back.event, t.event);
    assert_eq!(back.players, t.players);
}

/// Every TRF the repository holds: the reference tournaments, the engine-line rounds, the
/// record fixtures and the shipped instance.
fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    for dir in [
        "tests/data/dutch",
        "tests/data/engine",
        "tests/data/trf",
        "instances",
    ] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|e| e == "trf") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// Fixtures that exist to be refused at load (each is tested for its message elsewhere).
const REFUSED: [&str; 5] = [
    "250_zero_points.trf",
    "malformed.trf",
    "192_other.trf",
    "xxs_colour_scoring.trf",
    "points_mismatch.trf",
];

/// The column (0-based) where round `r`'s slot starts.
fn slot_at(r: u32) -> usize {
    91 + 10 * (r as usize - 1)
}

/// Issue 19.4's property: for every file, load → save gives the file back byte for byte, and
/// `pair --write` changes nothing but the new round — each 001 line gains that round's slot
/// (and, for a player with a bye in it, its points in columns 81-84); every other line, and
/// every column before the slot, stays as it was.
#[test]
fn load_save_is_identical_and_pairing_adds_only_the_new_round() {
    let dir = Scratch::new("roundtrip");
    let mut paired = 0;
    let mut failures = Vec::new();
    for f in corpus() {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let original = std::fs::read(&f).unwrap();
        let t = match formats::load(&f) {
            Ok(t) => t,
            Err(e) => {
                if !REFUSED.contains(&name.as_str()) {
                    failures.push(format!("{name}: {e}"));
                }
                continue;
            }
        };
        assert!(!REFUSED.contains(&name.as_str()), "{name} loads");
        let copy = dir.path(&name);
        formats::save(&copy, &t).unwrap();
        if std::fs::read(&copy).unwrap() != original {
            failures.push(format!(
                "{name}: load → save changed the file: {}",
                first_difference(&original, &std::fs::read(&copy).unwrap())
            ));
            continue;
        }
        let next = t.last_paired_round() + 1;
        if t.rounds_planned.is_none_or(|n| next > n) {
            continue;
        }
        let o = run_in(None, &["pair", copy.to_str().unwrap(), "--write"], None);
        if o.status.code() != Some(0) {
            // A round no pairing completes (nopair.trf) is refused and nothing is written.
            assert_eq!(o.status.code(), Some(2), "{name}");
            assert!(std::fs::read(&copy).unwrap() == original, "{name}");
            continue;
        }
        paired += 1;
        let after = std::fs::read(&copy).unwrap();
        let (old, new) = (lines(&original), lines(&after));
        assert_eq!(old.len(), new.len(), "{name}: lines added or removed");
        let back = formats::load(&copy).unwrap();
        // Players with a bye in the new round: its points count now that the round is paired.
        let byes: Vec<u32> = back
            .round(next)
            .map(|r| r.byes.iter().map(|b| b.player).collect())
            .unwrap_or_default();
        for (a, b) in old.iter().zip(&new) {
            if a == b {
                continue;
            }
            assert!(a.starts_with("001"), "{name}: '{a}' became '{b}'");
            let at = slot_at(next);
            let a: Vec<char> = a.chars().collect();
            let b: Vec<char> = b.chars().collect();
            assert!(
                a[at.min(a.len())..].iter().all(|c| *c == ' '),
                "{name}: a slot past round {next}"
            );
            let id: u32 = a[4..8].iter().collect::<String>().trim().parse().unwrap();
            for (i, c) in b[..at].iter().enumerate() {
                let was = a.get(i).copied().unwrap_or(' ');
                let points = (80..84).contains(&i) && byes.contains(&id);
                assert!(
                    *c == was || points,
                    "{name}: player {id}: column {} changed",
                    i + 1
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(paired >= 20, "only {paired} files paired");
}

fn lines(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    text.split(['\r', '\n']).map(String::from).collect()
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (lines(a), lines(b));
    for i in 0..a.len().max(b.len()) {
        if a.get(i) != b.get(i) {
            return format!(
                "line {}:\n  read:    {:?}\n  written: {:?}",
                i + 1,
                a.get(i),
                b.get(i)
            );
        }
    }
    "same lines, other bytes (line endings)".into()
}

/// A group written afresh uses the codes the file used: TRF-2026 (`142`, `152`, `162`, `240`)
/// for a TRF-2026 file, TRF(x) (`XXR`, `XXC`, `BB*`, the slot `0000 - H`) for a TRF(x) file,
/// and each code as read in a file that mixes them.
#[test]
fn changes_are_written_in_the_codes_the_file_used() {
    let dir = Scratch::new("codes");
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/trf/base.trf"),
    )
    .unwrap();
    let lines = |text: &str| -> Vec<String> { text.split('\r').map(String::from).collect() };

    // A half-point bye requested for round 3 with `optipair bye`.
    for (name, text, added, slot) in [
        ("2026.trf", base.clone(), Some("240 H 003    3"), false),
        ("x.trf", base.replace("142 5", "XXR 5"), None, true),
    ] {
        let f = dir.write(name, &text);
        let o = run_in(
            None,
            &[
                "bye",
                f.to_str().unwrap(),
                "3",
                "--round",
                "3",
                "--kind",
                "half",
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{name}");
        let after = lines(&std::fs::read_to_string(&f).unwrap());
        let before = lines(&text);
        let new: Vec<&String> = after.iter().filter(|l| !before.contains(l)).collect();
        let p3 = before.iter().find(|l| l.starts_with("001    3")).unwrap();
        match added {
            // TRF-2026: a 240 line; player 3's line is untouched.
            Some(l) => assert_eq!(new, vec![l], "{name}"),
            // TRF(x): the slot, and the points column counting it (JaVaFo's manual asks it).
            None => assert_eq!(
                new,
                vec![&format!("{} 1.0{}  0000 - H", &p3[..80], &p3[84..])],
                "{name}"
            ),
        }
        assert_eq!(
            after
                .iter()
                .any(|l| l.starts_with("001    3") && l.ends_with("0000 - H")),
            slot,
            "{name}"
        );
        // Paired from it, player 3 is left out.
        let o = run_in(None, &["--dutch", f.to_str().unwrap(), "-p"], None);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.lines().skip(1).all(|l| !l.split(' ').any(|w| w == "3")),
            "{out}"
        );
    }

    // A scoring written afresh: 162 at the TRF-2026 columns, BB* in a TRF(x) file, XXS in a
    // file that used XXS.
    for (text, want) in [
        (base.clone(), "162  W 3.0    D 1.0"),
        (base.replace("142 5", "XXR 5"), "BBW  3.0"),
        (
            base.replace("142 5", "XXR 5\rXXS FPB=1"),
            "XXS WW=3.0 BW=3.0 WD=1.0 BD=1.0",
        ),
    ] {
        let mut t = trf::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        t.scoring.win = 3.0;
        t.scoring.forfeit_win = 3.0;
        t.scoring.full_bye = 3.0;
        t.scoring.pairing_bye = 3.0;
        t.scoring.draw = 1.0;
        t.scoring.half_bye = 1.0;
        let out = trf::write(&t).unwrap();
        assert!(
            out.split('\r').any(|l| l.starts_with(want)),
            "{want}:\n{out}"
        );
        // Everything else as read but the points columns, recomputed under the new scoring.
        let changed: Vec<&str> = out
            .split('\r')
            .filter(|l| !text.split('\r').any(|r| r == *l))
            .collect();
        let blank_points = |l: &str| format!("{}{}", &l[..80], &l[84..]);
        let code = if want.starts_with("BB") {
            "BB"
        } else {
            &want[..3]
        };
        for l in changed.iter().filter(|l| !l.starts_with("001")) {
            assert!(l.starts_with(code), "{l}");
        }
        for l in changed.iter().filter(|l| l.starts_with("001")) {
            assert!(
                text.split('\r')
                    .any(|r| r.starts_with("001") && blank_points(r) == blank_points(l)),
                "{l}"
            );
        }
    }

    // A file mixing TRF-2026 142 with TRF(x) XXC: read and written unchanged; a new initial
    // colour is written as XXC, the code the file used for it.
    let mixed = base.replace("142 5", "142 5\rXXC white1");
    let mut t = trf::parse(&mixed).unwrap();
    assert_eq!(trf::write(&t).unwrap(), mixed);
    t.initial_colour = Some(optipair::tournament::Colour::Black);
    let out = trf::write(&t).unwrap();
    assert_eq!(out, mixed.replace("XXC white1", "XXC black1"));
}
