//! The stable-toolchain fuzz driver (no nightly, no instrumented HiGHS): seeded mutations of
//! the corpus through every parser, small events through pair + check (see
//! `fuzzdrive`).
//!
//! ```text
//! cargo run --release --example fuzz -- [--seed N] [--inputs N] [--pair-runs N]
//!     [--time-limit S] [--max-players N] [--crashes DIR] [--progress N] [--stats FILE]
//!     [--mem-limit-mb N] [--targets json,trf,tsh,csv,results,config] [--replay FILE…]
//! ```
//!
//! * `--inputs N` (default 10000): mutated inputs per parser target;
//! * `--targets LIST`: the parser targets to run (default all);
//! * `--pair-runs N` (default 200): pair + check runs (half on parsed inputs, half on events
//!   built from random bytes);
//! * `--crashes DIR` (default `fuzz/regressions`, in the repository: `cargo test` replays
//!   every input there): failing inputs, and pair runs past the time limit + 5 s, with why;
//! * `--stats FILE`: the figures as JSON (rewritten at every progress line);
//! * `--mem-limit-mb N` (default 4096): an allocation past this much live Rust heap saves the
//!   input being run as an OOM finding and aborts (HiGHS's C++ heap is not counted);
//! * `--replay FILE…`: run saved inputs again and print what happens.
//!
//! Exit status: 0 when nothing was found, 1 otherwise.

use fuzzdrive::{self as fuzzing, Config};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Counts live heap bytes; past the budget, reports once and aborts, so that a runaway
/// allocation is a recorded finding instead of the kernel's OOM kill.
struct Budget;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
static TRIPPED: AtomicBool = AtomicBool::new(false);

unsafe impl GlobalAlloc for Budget {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        if live > LIMIT.load(Ordering::Relaxed) && !TRIPPED.swap(true, Ordering::SeqCst) {
            // Allocations below are let through (TRIPPED is set).
            eprintln!(
                "fuzz: OOM guard: {} MB live after a {}-byte request",
                live >> 20,
                layout.size()
            );
            if let Some(dir) = CRASH_DIR.get() {
                fuzzing_oom(dir);
            }
            std::process::abort();
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Budget = Budget;

static CRASH_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Saves the input being run as an OOM finding.
fn fuzzing_oom(dir: &std::path::Path) {
    match fuzzing::save_current(dir, "oom", "live heap past --mem-limit-mb") {
        Some(p) => eprintln!("fuzz: saved {}", p.display()),
        None => eprintln!("fuzz: the input could not be saved"),
    }
}

fn main() {
    let mut cfg = Config::new(env!("CARGO_MANIFEST_DIR"));
    cfg.parser_inputs = 10_000;
    cfg.pair_runs = 200;
    cfg.progress_every = 10_000;
    cfg.crash_dir = Some(PathBuf::from(fuzzing::SAVED_DIR));
    let mut replay: Vec<PathBuf> = Vec::new();
    let mut mem_mb: usize = 4096;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || {
            args.next().unwrap_or_else(|| {
                eprintln!("fuzz: {a} needs a value");
                std::process::exit(2)
            })
        };
        let num = |s: String| -> u64 {
            s.parse().unwrap_or_else(|_| {
                eprintln!("fuzz: '{s}' is not a whole number");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--seed" => cfg.seed = num(value()),
            "--inputs" => cfg.parser_inputs = num(value()),
            "--pair-runs" => cfg.pair_runs = num(value()),
            "--max-players" => cfg.max_pair_players = num(value()) as usize,
            "--progress" => cfg.progress_every = num(value()),
            "--mem-limit-mb" => mem_mb = num(value()) as usize,
            "--time-limit" => {
                let v = value();
                cfg.time_limit = match v.parse::<f64>() {
                    Ok(s) if s.is_finite() && s > 0.0 && s < 3600.0 => s,
                    _ => {
                        eprintln!("fuzz: --time-limit '{v}' is not a number of seconds");
                        std::process::exit(2)
                    }
                }
            }
            "--targets" => {
                let names = value();
                cfg.parsers = fuzzing::Target::PARSERS
                    .into_iter()
                    .filter(|t| names.split(',').any(|n| n == t.name()))
                    .collect();
            }
            "--crashes" => cfg.crash_dir = Some(PathBuf::from(value())),
            "--stats" => cfg.stats_path = Some(PathBuf::from(value())),
            "--replay" => replay.push(PathBuf::from(value())),
            other => {
                eprintln!(
                    "fuzz: unknown argument '{other}' (see the doc comment in examples/fuzz.rs)"
                );
                std::process::exit(2)
            }
        }
    }
    LIMIT.store(mem_mb.saturating_mul(1 << 20), Ordering::Relaxed);
    if let Some(d) = &cfg.crash_dir {
        let _ = CRASH_DIR.set(d.clone());
    }

    if !replay.is_empty() {
        for p in replay {
            let got = std::panic::catch_unwind(|| fuzzing::replay(&p));
            match got {
                Ok(Some((target, t))) => {
                    println!(
                        "{}: {} target, {}",
                        p.display(),
                        target.name(),
                        if t.is_some() { "accepted" } else { "rejected" }
                    );
                    if let (fuzzing::Target::Pair, Some(t)) = (target, t) {
                        for system in optipair::SystemKind::ALL.map(optipair::SystemKind::name) {
                            let run = fuzzing::pair_check(
                                &t,
                                system,
                                &fuzzing::pair_options(cfg.time_limit),
                            );
                            println!(
                                "  {system} round {}: {:?} ({:.2} s)",
                                run.round, run.outcome, run.seconds
                            );
                        }
                    }
                }
                Ok(None) => println!("{}: cannot tell the target from the name", p.display()),
                Err(_) => println!("{}: panics", p.display()),
            }
        }
        return;
    }

    let stats = fuzzing::run(&cfg);
    for (name, c) in &stats.targets {
        println!(
            "{name:8} inputs {:>9}  accepted {:>8}  panics {}  slow {}",
            c.inputs, c.accepted, c.panics, c.slow
        );
    }
    let p = &stats.pair;
    println!(
        "pair+check runs {}  optimal {}  unproved {}  refused {}  objections {} (certificate \
         optimal: {})  panics {}  timeouts {}  long {}",
        p.runs,
        p.optimal,
        p.unproved,
        p.refused,
        p.objections,
        p.lies,
        p.panics,
        p.timeouts,
        p.long
    );
    println!("by system: {:?}", p.by_system);
    println!("by source: {:?}", p.by_source);
    for (why, n) in &p.refusals {
        println!("refused {n:>7}: {why}");
    }
    for f in &stats.findings {
        println!(
            "finding: {} {}: {} ({})",
            f.target,
            f.kind,
            f.message.lines().next().unwrap_or(""),
            f.saved
                .as_ref()
                .map(|s| s.display().to_string())
                .unwrap_or_default()
        );
    }
    println!("{:.0} s", stats.seconds);
    std::process::exit(if stats.findings.is_empty() { 0 } else { 1 });
}
