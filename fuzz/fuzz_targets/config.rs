#![no_main]
//! `cargo +nightly fuzz run config`: see `optipair::fuzzing::config_target` for the properties.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = optipair::fuzzing::config_target(data);
});
