#![no_main]
//! `cargo +nightly fuzz run pair`: a small event built from the bytes, its next round paired
//! and checked (`fuzzdrive::pair_target`): panics on a verifier objection.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    fuzzdrive::pair_target(data);
});
