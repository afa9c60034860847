#![no_main]
//! `cargo +nightly fuzz run csv`: see `fuzzdrive::csv_target` for the properties.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fuzzdrive::csv_target(data);
});
