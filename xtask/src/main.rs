//! `cargo xtask`: the README's commands on a fresh machine. HiGHS is built from source by the
//! `highs-sys` build script, which needs a C++ compiler, cmake and libclang; a build script of
//! ours would run too late (cargo builds `highs-sys` first), so this small binary checks for
//! them, installs what is missing (Debian/Ubuntu: apt-get, as root or with `sudo -n`; else it
//! stops with the command to run), then runs cargo.
//!
//! * `cargo xtask setup`: only the check and install.
//! * `cargo xtask test [ARGS]`: then `cargo test --release [ARGS]`.
//! * `cargo xtask COMMAND [ARGS]`: then `cargo run --release -- COMMAND [ARGS]` (an `optipair`
//!   command: `pair`, `audit`, …).

use std::path::{Path, PathBuf};
use std::process::{exit, Command};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(first) = args.first() else { usage() };
    if first == "-h" || first == "--help" || first == "help" {
        usage()
    }
    setup();
    let cargo_args: Vec<&str> = match first.as_str() {
        "setup" => return,
        "test" => ["test", "--release"]
            .into_iter()
            .chain(args[1..].iter().map(String::as_str))
            .collect(),
        _ => ["run", "--release", "--"]
            .into_iter()
            .chain(args.iter().map(String::as_str))
            .collect(),
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    exit(run(Command::new(cargo).args(cargo_args)));
}

fn usage() -> ! {
    eprintln!(
        "usage: cargo xtask setup | test [ARGS] | COMMAND [ARGS]\n\
         Installs what the HiGHS build needs (g++, cmake, libclang-dev) if it is missing, then\n\
         runs `cargo test --release [ARGS]` or `cargo run --release -- COMMAND [ARGS]`."
    );
    exit(2)
}

/// The Debian packages of the build tools not found, in install order.
fn missing() -> Vec<&'static str> {
    let mut out = Vec::new();
    if !tool_found("CXX", "c++") {
        out.push("g++");
    }
    if !tool_found("CMAKE", "cmake") {
        out.push("cmake");
    }
    if !libclang_found() {
        out.push("libclang-dev");
    }
    out
}

/// Installs the missing build tools, or stops with the command that would.
fn setup() {
    // Elsewhere (macOS, Windows) the tools come from the platform's own installers; cargo's
    // error names what is missing.
    if !cfg!(target_os = "linux") {
        return;
    }
    let need = missing();
    if need.is_empty() {
        return;
    }
    let command = format!("sudo apt-get install -y {}", need.join(" "));
    if !on_path("apt-get") {
        stop(&need, None);
    }
    let mut prefix: Vec<&str> = Vec::new();
    if !is_root() {
        if !(on_path("sudo") && run_quiet(Command::new("sudo").args(["-n", "true"]))) {
            stop(&need, Some(&command));
        }
        prefix.extend(["sudo", "-n"]);
    }
    prefix.extend(["env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]);
    let apt = |args: &[&str]| run(Command::new(prefix[0]).args(&prefix[1..]).args(args));
    eprintln!(
        "xtask: installing {} (HiGHS is built from source)",
        need.join(", ")
    );
    let mut install = vec!["install", "-y", "--no-install-recommends"];
    install.extend(&need);
    if apt(&["update"]) != 0 || apt(&install) != 0 {
        stop(&need, Some(&command));
    }
    let still = missing();
    if !still.is_empty() {
        eprintln!(
            "error: installed, but still not found: {}",
            still.join(", ")
        );
        exit(1);
    }
}

fn stop(need: &[&str], command: Option<&str>) -> ! {
    let need = need.join(", ");
    match command {
        Some(c) => eprintln!(
            "error: building HiGHS needs {need}, not found here. Install them with\n    {c}\nthen run this command again."
        ),
        None => eprintln!(
            "error: building HiGHS needs {need}, not found here. Install them with the system's package manager, then run this command again."
        ),
    }
    exit(1)
}

/// The program `env` names (as the cmake and cc crates read it), else `default`, is found.
fn tool_found(env: &str, default: &str) -> bool {
    let program = std::env::var(env).unwrap_or_else(|_| default.into());
    // A value with flags (`CXX="g++ -m64"`): the program is the first word.
    program.split_whitespace().next().is_some_and(on_path)
}

fn on_path(program: &str) -> bool {
    if program.contains('/') {
        return is_executable(Path::new(program));
    }
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| is_executable(&d.join(program))))
        .unwrap_or(false)
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// A libclang shared library where bindgen (clang-sys) looks: `LIBCLANG_PATH`, `llvm-config
/// --libdir`, and the system library folders two levels down (`/usr/lib/llvm-14/lib`).
fn libclang_found() -> bool {
    let mut dirs: Vec<PathBuf> = std::env::var_os("LIBCLANG_PATH")
        .map(|p| vec![p.into()])
        .unwrap_or_default();
    if let Some(dir) = llvm_libdir() {
        dirs.push(dir);
    }
    for root in ["/usr/lib", "/usr/lib64", "/usr/local/lib"] {
        dirs.extend(subdirs(Path::new(root), 2));
    }
    dirs.iter().any(|d| has_libclang(d))
}

fn llvm_libdir() -> Option<PathBuf> {
    let out = Command::new("llvm-config").arg("--libdir").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().into())
}

/// `dir` and its folders down to `depth` levels.
fn subdirs(dir: &Path, depth: u32) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    if depth > 0 {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    out.extend(subdirs(&e.path(), depth - 1));
                }
            }
        }
    }
    out
}

/// `libclang.so`, `libclang-14.so.1` and the like; not `libclang-cpp` (another library).
fn has_libclang(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("libclang")
                && name.contains(".so")
                && !name.contains("-cpp")
                && (name.starts_with("libclang.") || name.starts_with("libclang-"))
        })
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn run_quiet(cmd: &mut Command) -> bool {
    cmd.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `cmd`, returning its exit code (1 if it could not start or was killed).
fn run(cmd: &mut Command) -> i32 {
    match cmd.status() {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!("error: could not run {:?}: {e}", cmd.get_program());
            1
        }
    }
}
