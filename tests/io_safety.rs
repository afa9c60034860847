//! What a command may touch: outputs never replace an input, a device, a FIFO, a directory or
//! a read-only file; inputs are regular files; files named inside `config.tsh` stay in the
//! event's directory; empty events are refused; a failed command changes nothing; two writers
//! of one event run one after the other (issues 50 and 43).

use crate::common::cli::*;
use std::path::{Path, PathBuf};
use std::process::Output;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

fn data(name: &str) -> PathBuf {
    Path::new(DATA).join(name)
}

fn code(o: &Output) -> i32 {
    assert!(!stderr(o).contains("panicked"), "{}", describe(o));
    o.status.code().expect("exit code")
}

/// A Dutch reference tournament to pair with the engine command line.
fn trf(s: &Scratch) -> PathBuf {
    s.copy(&data("dutch/dutch_2025_1.4.3.trf"), "in.trf")
}

/// `small.json` with round 1 paired, results pending.
fn paired_event(s: &Scratch) -> PathBuf {
    let file = s.copy(&data("small.json"), "e.json");
    let o = run_in(Some(&s.0), &["pair", "e.json", "--write"], None);
    assert_eq!(code(&o), 0, "{}", describe(&o));
    file
}

/// The tsh event of `tests/data/tsh/event` copied into `s/ev` (two divisions).
fn tsh_event(s: &Scratch) -> PathBuf {
    let dir = s.path("ev");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["a.t", "b.t", "config.tsh"] {
        std::fs::copy(data("tsh/event").join(f), dir.join(f)).unwrap();
    }
    dir
}

#[test]
fn the_engine_line_never_writes_its_pairs_over_its_input() {
    let s = Scratch::new("io-engine-input");
    let input = trf(&s);
    let before = std::fs::read(&input).unwrap();
    let mut argvs = vec![
        vec!["--dutch", "in.trf", "-p", "in.trf"],
        vec!["in.trf", "-p", "in.trf"],
    ];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("in.trf", s.path("link.trf")).unwrap();
        std::fs::hard_link(&input, s.path("hard.trf")).unwrap();
        argvs.push(vec!["--dutch", "in.trf", "-p", "link.trf"]);
        argvs.push(vec!["--dutch", "in.trf", "-p", "hard.trf"]);
    }
    for argv in argvs {
        let o = run_in(Some(&s.0), &argv, None);
        // bbpPairings' "invalid request".
        assert_eq!(code(&o), 3, "{argv:?}: {}", describe(&o));
        assert!(
            stderr(&o).contains(argv[argv.len() - 1]) && stderr(&o).contains("input"),
            "{argv:?}: {}",
            describe(&o)
        );
        assert_eq!(std::fs::read(&input).unwrap(), before, "{argv:?}");
    }
}

#[test]
fn other_outputs_never_replace_an_input() {
    let s = Scratch::new("io-out-input");
    let file = paired_event(&s);
    let before = std::fs::read(&file).unwrap();
    for argv in [
        vec!["sheet", "e.json", "--out", "e.json"],
        vec!["standings", "e.json", "--out", "e.json"],
        vec!["audit", "e.json", "--round", "1", "--out", "e.json"],
    ] {
        let o = run_in(Some(&s.0), &argv, None);
        assert_eq!(code(&o), 2, "{argv:?}: {}", describe(&o));
        assert!(stderr(&o).contains("e.json"), "{}", describe(&o));
        assert_eq!(std::fs::read(&file).unwrap(), before, "{argv:?}");
    }
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[cfg(unix)]
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// Runs `args` in `dir`; a run still going after a minute (blocked on a FIFO) is killed and
/// fails the test instead of hanging it.
#[cfg(unix)]
fn run_bounded(dir: &Path, args: &[&str]) -> Output {
    use std::process::{Command, Stdio};
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..600 {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("{args:?} was still running after a minute (blocked on a FIFO?)");
}

#[cfg(unix)]
#[test]
fn fifos_and_directories_are_never_replaced_by_outputs() {
    let s = Scratch::new("io-out-special");
    trf(&s);
    paired_event(&s);
    mkfifo(&s.path("fifo"));
    std::fs::create_dir(s.path("dir")).unwrap();
    for (argv, want) in [
        (vec!["--dutch", "in.trf", "-p", "fifo"], 5),
        (vec!["sheet", "e.json", "--out", "fifo"], 2),
        (vec!["audit", "e.json", "--round", "1", "--out", "fifo"], 2),
        (vec!["standings", "e.json", "--out", "dir"], 2),
    ] {
        let o = run_bounded(&s.0, &argv);
        assert_eq!(code(&o), want, "{argv:?}: {}", describe(&o));
        let out = argv[argv.len() - 1];
        assert!(stderr(&o).contains(out), "{argv:?}: {}", describe(&o));
        assert!(is_fifo(&s.path("fifo")), "{argv:?} replaced the FIFO");
        assert!(s.path("dir").is_dir(), "{argv:?} replaced the directory");
    }
}

#[cfg(unix)]
#[test]
fn fifos_and_directories_are_refused_as_inputs_at_once() {
    let s = Scratch::new("io-in-special");
    paired_event(&s);
    mkfifo(&s.path("fifo.trf"));
    mkfifo(&s.path("results.txt"));
    std::fs::create_dir(s.path("dir.json")).unwrap();
    for (argv, want) in [
        (vec!["check", "fifo.trf"], 2),
        (vec!["--dutch", "fifo.trf", "-c"], 5),
        (vec!["check", "dir.json"], 2),
        (
            vec![
                "record",
                "e.json",
                "--round",
                "1",
                "--results",
                "results.txt",
            ],
            2,
        ),
    ] {
        let o = run_bounded(&s.0, &argv);
        assert_eq!(code(&o), want, "{argv:?}: {}", describe(&o));
        assert!(
            stderr(&o).contains("not a regular file"),
            "{argv:?}: {}",
            describe(&o)
        );
    }
}

#[test]
fn config_tsh_cannot_name_a_file_outside_its_directory() {
    let s = Scratch::new("io-confine");
    let dir = tsh_event(&s);
    std::fs::create_dir(s.path("outside")).unwrap();
    let victim = s.copy(&data("tsh/event/b.t"), "outside/victim.t");
    let before = std::fs::read(&victim).unwrap();
    let abs = victim.to_str().unwrap().to_string();
    let mut cases = vec![
        ("../outside/victim.t".to_string(), "'..'"),
        (abs, "absolute"),
    ];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("../outside/victim.t", dir.join("link.t")).unwrap();
        cases.push(("link.t".to_string(), "symlink"));
    }
    let config = std::fs::read_to_string(dir.join("config.tsh")).unwrap();
    for (file, why) in cases {
        let text = config.replace("division b b.t", &format!("division b {file}"));
        std::fs::write(dir.join("config.tsh"), &text).unwrap();
        let line = text
            .lines()
            .position(|l| l.starts_with("division b"))
            .unwrap()
            + 1;
        for argv in [
            vec!["check", "ev/config.tsh"],
            vec!["pair", "ev/config.tsh", "--division", "b", "--write"],
        ] {
            let o = run_in(Some(&s.0), &argv, None);
            assert_eq!(code(&o), 2, "{file}: {argv:?}: {}", describe(&o));
            let e = stderr(&o);
            assert!(
                e.contains("config.tsh")
                    && e.contains(&format!("line {line}"))
                    && e.contains(&file)
                    && e.contains(why),
                "{file}: {}",
                describe(&o)
            );
            assert_eq!(std::fs::read(&victim).unwrap(), before, "{file}: {argv:?}");
        }
    }
}

#[test]
fn empty_and_player_less_files_are_refused_by_every_command() {
    let s = Scratch::new("io-empty");
    s.write("empty.trf", "");
    s.write("empty.t", "");
    s.write("none.json", r#"{"format": "optipair/1", "players": []}"#);
    s.write("empty.csv", "");
    let mut argvs: Vec<Vec<&str>> = Vec::new();
    for f in ["empty.trf", "empty.t", "none.json"] {
        argvs.push(vec!["check", f]);
        argvs.push(vec!["pair", f]);
        argvs.push(vec!["standings", f]);
        argvs.push(vec!["sheet", f]);
        argvs.push(vec!["audit", f, "--round", "1"]);
    }
    argvs.push(vec!["new", "--players", "empty.csv", "--out", "new.json"]);
    for argv in argvs {
        let o = run_in(Some(&s.0), &argv, None);
        assert_eq!(code(&o), 2, "{argv:?}: {}", describe(&o));
        let file = if argv[0] == "new" { argv[2] } else { argv[1] };
        assert!(
            stderr(&o).contains(file) && stderr(&o).contains("no players"),
            "{argv:?}: {}",
            describe(&o)
        );
    }
    let o = run_in(Some(&s.0), &["--dutch", "empty.trf", "-c"], None);
    assert_eq!(code(&o), 3, "{}", describe(&o));
    assert!(stderr(&o).contains("no players"), "{}", describe(&o));
    assert!(!s.path("new.json").exists());
}

#[test]
fn a_name_too_long_for_trf_is_refused_not_cut() {
    let s = Scratch::new("io-long-name");
    let file = trf(&s);
    let before = std::fs::read(&file).unwrap();
    let long = "Maximiliana Konstantinopoulou-Vandenberghe"; // 42 characters
    let o = run_in(
        Some(&s.0),
        &["enter", "in.trf", "--name", long, "--rating", "1500"],
        None,
    );
    assert_eq!(code(&o), 2, "{}", describe(&o));
    assert!(
        stderr(&o).contains(long) && stderr(&o).contains("33") && stderr(&o).contains("in.trf"),
        "{}",
        describe(&o)
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn a_pair_write_that_cannot_print_its_round_stores_nothing() {
    let s = Scratch::new("io-pair-render");
    let dir = tsh_event(&s);
    let before = std::fs::read(dir.join("a.t")).unwrap();
    // A Scrabble event has game scores, which TRF cannot hold.
    let o = run_in(
        Some(&s.0),
        &["pair", "ev/a.t", "--write", "--format", "trf"],
        None,
    );
    assert_eq!(code(&o), 2, "{}", describe(&o));
    assert!(
        stderr(&o).contains("a.t"),
        "the error names the file: {}",
        describe(&o)
    );
    assert_eq!(
        std::fs::read(dir.join("a.t")).unwrap(),
        before,
        "a.t changed"
    );
    assert_eq!(s.listing(), vec!["ev"]);
}

#[cfg(unix)]
#[test]
fn read_only_events_and_directories_are_refused_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("io-read-only");
    let file = paired_event(&s);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(&file).unwrap();
    let o = run_in(
        Some(&s.0),
        &["record", "e.json", "--round", "1"],
        Some("1 1-0\n"),
    );
    assert_eq!(code(&o), 2, "{}", describe(&o));
    assert!(stderr(&o).contains("e.json") && stderr(&o).contains("read-only"));
    assert_eq!(std::fs::read(&file).unwrap(), before);
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o444, "the file was replaced");

    // A directory that refuses writes: the engine's -p output there (exit 5, no temp name).
    trf(&s);
    std::fs::create_dir(s.path("ro")).unwrap();
    std::fs::set_permissions(s.path("ro"), std::fs::Permissions::from_mode(0o555)).unwrap();
    let o = run_in(
        Some(&s.0),
        &["--dutch", "in.trf", "-p", "ro/pairs.txt"],
        None,
    );
    std::fs::set_permissions(s.path("ro"), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(code(&o), 5, "{}", describe(&o));
    assert!(
        stderr(&o).contains("ro/pairs.txt") && !stderr(&o).contains(".tmp-"),
        "{}",
        describe(&o)
    );
    assert!(!s.path("ro/pairs.txt").exists());
}

/// The lock another run would hold on `file` (what `optipair` takes on Unix).
#[cfg(unix)]
fn hold_lock(file: &Path) -> std::fs::File {
    let f = std::fs::File::open(file).unwrap();
    f.lock().unwrap();
    f
}

#[cfg(unix)]
#[test]
fn a_second_writer_refuses_while_another_holds_the_event() {
    let s = Scratch::new("io-lock-refuse");
    let file = paired_event(&s);
    let before = std::fs::read(&file).unwrap();
    let held = hold_lock(&file);
    let o = run_in(
        Some(&s.0),
        &["record", "e.json", "--round", "1"],
        Some("1 1-0\n"),
    );
    drop(held);
    assert_eq!(code(&o), 2, "{}", describe(&o));
    assert!(
        stderr(&o).contains("e.json") && stderr(&o).contains("another optipair run"),
        "{}",
        describe(&o)
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[cfg(unix)]
#[test]
fn a_writer_waits_for_the_lock_and_loses_no_update() {
    use optipair::formats;
    use std::process::{Command, Stdio};
    let s = Scratch::new("io-lock-wait");
    let file = paired_event(&s);
    // This test is the first writer: it holds the lock over its read-modify-write.
    let held = hold_lock(&file);
    let mut t = formats::load(&file).unwrap();
    let games: Vec<(u32, u32)> = t.rounds[0]
        .games
        .iter()
        .map(|g| (g.white, g.black))
        .collect();
    s.write("r.txt", &format!("{} {} 0-1\n", games[1].0, games[1].1));
    let child = Command::new(BIN)
        .args(["record", "e.json", "--round", "1", "--results", "r.txt"])
        .current_dir(&s.0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let line = format!("{} {} 1-0", games[0].0, games[0].1);
    formats::results::apply(&mut t, 1, &line).unwrap();
    formats::save(&file, &t).unwrap();
    drop(held);
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0, "{}", describe(&o));
    let t = formats::load(&file).unwrap();
    let result = |w: u32, b: u32| {
        let g = t.rounds[0]
            .games
            .iter()
            .find(|g| (g.white, g.black) == (w, b));
        serde_json::to_value(g.unwrap().result).unwrap()
    };
    let results = [
        result(games[0].0, games[0].1),
        result(games[1].0, games[1].1),
    ];
    assert_eq!(results, ["1-0", "0-1"], "one writer's result was lost");
}

/// A `.t` file is changed directly or through its `config.tsh`: both kinds of run take the
/// config's lock, so they do not overwrite each other either.
#[cfg(unix)]
#[test]
fn a_tsh_division_file_waits_for_a_run_changing_its_config() {
    let s = Scratch::new("io-lock-tsh");
    let dir = tsh_event(&s);
    let before = std::fs::read(dir.join("a.t")).unwrap();
    let held = hold_lock(&dir.join("config.tsh"));
    let o = run_in(
        Some(&s.0),
        &["bye", "ev/a.t", "1", "--round", "8", "--kind", "half"],
        None,
    );
    drop(held);
    assert_eq!(code(&o), 2, "{}", describe(&o));
    assert!(
        stderr(&o).contains("config.tsh") && stderr(&o).contains("another optipair run"),
        "{}",
        describe(&o)
    );
    assert_eq!(std::fs::read(dir.join("a.t")).unwrap(), before);
}
