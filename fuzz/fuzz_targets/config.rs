#![no_main]
//! `cargo +nightly fuzz run config`: see `fuzzdrive::config_target` for the properties.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fuzzdrive::config_target(data);
});
