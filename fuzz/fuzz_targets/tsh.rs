#![no_main]
//! `cargo +nightly fuzz run tsh`: see `fuzzdrive::tsh_target` for the properties.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fuzzdrive::tsh_target(data);
});
