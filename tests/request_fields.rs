//! The library names the fields of a request (`from_round`, `threads`), never a command-line
//! flag; the command line names its flags (`--from-round`, `--threads`) for the same mistakes.

use crate::common::cli::{p, run, stderr, Scratch};
use optipair::simulate::{self, Config};
use optipair::tournament::edit::{self, Entry};
use optipair::tournament::ByeKind;
use optipair::{formats, Error, SystemKind};
use std::collections::BTreeMap;
use std::path::Path;

fn field_of(e: &Error) -> Option<String> {
    match e {
        Error::Input { at, .. } => at.field.clone(),
        _ => None,
    }
}

fn entry(from_round: Option<u32>) -> Entry {
    Entry {
        name: "Late Comer".into(),
        rating: 1500,
        title: None,
        federation: Some("NE".into()),
        fide_id: None,
        division: None,
        from_round,
        missed: ByeKind::Half,
    }
}

#[test]
fn a_late_entry_error_names_the_entry_field_in_the_library_and_the_flag_on_the_command_line() {
    let t = formats::load(Path::new("tests/data/night.json")).unwrap();
    let e = edit::enter(&t, &entry(None)).unwrap_err();
    assert_eq!(field_of(&e).as_deref(), Some("federation"), "{e}");

    let dir = Scratch::new("request-fields");
    let file = dir.copy(Path::new("tests/data/night.json"), "night.json");
    let o = run(&[
        "enter",
        p(&file),
        "--name",
        "Late Comer",
        "--rating",
        "1500",
        "--fed",
        "NE",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--fed"), "{}", stderr(&o));
}

#[test]
fn a_simulation_error_names_the_config_field_in_the_library_and_the_flag_on_the_command_line() {
    let cfg = Config {
        systems: vec![SystemKind::Swiss],
        players: 10,
        rounds: 3,
        runs: 1,
        first_run: 0,
        seed: 1,
        model: None,
        draw_rate: 0.3,
        threads: 0,
        time_limit: None,
        settings: BTreeMap::new(),
    };
    let e = simulate::validate(&cfg).unwrap_err();
    assert_eq!(field_of(&e).as_deref(), Some("threads"), "{e}");

    let o = run(&[
        "simulate",
        "--system",
        "swiss",
        "--players",
        "10",
        "--rounds",
        "3",
        "--threads",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--threads"), "{}", stderr(&o));
}
