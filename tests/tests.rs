//! The integration tests: one binary (HiGHS linked once), a module per area, helpers in
//! `common`. Every file they read is in `tests/data` (the reference tournaments in
//! `tests/data/dutch`), so they pass on a bare clone. Run one area with
//! `cargo test --release --test tests AREA::`. Tests that need a module's internals sit
//! beside it (`src/solve/blossom/tests.rs`, the Dutch pricing check in
//! `src/systems/dutch/tests.rs`, `src/fixed.rs`): `cargo test --release --lib`.

mod common;

mod accel;
mod audit;
mod cli;
mod dutch;
mod dutch_rules;
mod ecf;
mod engine_cli;
mod explain;
mod formats;
mod formats_reliability;
mod fuzz;
mod io_safety;
mod night;
mod nsc2006;
mod posting;
mod reliability;
mod request_fields;
mod simulate;
mod solver;
mod spec;
mod standings;
mod swiss;
mod trf_records;
mod trf_roundtrip;
mod tsh;
mod tsh_real;
mod uscf_accel;
mod uscf_swiss;
mod verify;
