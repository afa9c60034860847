#![no_main]
//! `cargo +nightly fuzz run results`: see `fuzzdrive::results_target` for the properties.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fuzzdrive::results_target(data);
});
