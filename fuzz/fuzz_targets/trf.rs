#![no_main]
//! `cargo +nightly fuzz run trf`: see `optipair::fuzzing::trf_target` for the properties.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = optipair::fuzzing::trf_target(data);
});
