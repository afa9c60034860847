//! The `optipair` command line.

#[global_allocator]
static ALLOC: optipair_cli::guard::Guarded = optipair_cli::guard::Guarded;

fn main() -> std::process::ExitCode {
    optipair_cli::run()
}

#[path = "cli/mod.rs"]
mod optipair_cli;
