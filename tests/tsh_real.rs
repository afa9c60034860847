//! tsh's own files and config (issue 21): `.t` lines as tsh writes them (p12 on bye rounds,
//! inactive players, classes, teams, rating fields), `config.tsh`, and a generated `.t` event
//! paired to the end.

use optipair::engine;
use optipair::formats::{self, tsh};
use optipair::solve::Options;
use optipair::tournament::ByeKind;
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
    let p = engine::pair_round(&t, 4, "tsh-cp", &Options::default()).unwrap();
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
    let p = engine::pair_round(&t, 4, "tsh-cp", &Options::default()).unwrap();
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
