//! TRF read and written without loss (issue 19.4): every line optipair does not own is kept
//! byte for byte, and so are the 001 fields it does not compute. Files: reference tournaments
//! (bbpPairings' generator, CR line endings) in `tests/data/dutch`, and the
//! record fixtures of `tests/data/trf`.

use optipair::formats::trf;
use std::path::Path;

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
