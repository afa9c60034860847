#![no_main]
//! `cargo +nightly fuzz run trf`: see `fuzzdrive::trf_target` for the properties.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fuzzdrive::trf_target(data);
});
