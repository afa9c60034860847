//! The `optipair` command line.

fn main() -> std::process::ExitCode {
    optipair_cli::run()
}

#[path = "cli/mod.rs"]
mod optipair_cli;
