//! Running the `optipair` binary as a director does: scratch directories removed on drop, the
//! command with its arguments (and standard input), and its outputs as text.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

pub const BIN: &str = env!("CARGO_BIN_EXE_optipair");

/// A fresh directory under the system temp dir, removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "optipair-test-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Scratch(dir)
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
    /// Copies a file (a fixture) into the directory.
    pub fn copy(&self, from: &Path, name: &str) -> PathBuf {
        let to = self.path(name);
        std::fs::copy(from, &to).expect("copy fixture");
        to
    }
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let to = self.path(name);
        std::fs::write(&to, text).expect("write");
        to
    }
    /// File names in the directory, sorted.
    pub fn listing(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        v.sort();
        v
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `optipair` with `args` in `dir` (or here), `stdin` as its input (or none).
pub fn run_in(dir: Option<&Path>, args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd.spawn().expect("run optipair");
    if let Some(text) = stdin {
        // The program may exit before reading its input (bad file): a broken pipe is fine.
        let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
    }
    child.wait_with_output().expect("optipair output")
}

pub fn run(args: &[&str]) -> Output {
    run_in(None, args, None)
}

pub fn p(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Exit code and both outputs, for assertion messages.
pub fn describe(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        stdout(o),
        stderr(o)
    )
}
