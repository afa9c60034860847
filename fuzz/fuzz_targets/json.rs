#![no_main]
//! `cargo +nightly fuzz run json`: see `fuzzdrive::json_target` for the properties.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fuzzdrive::json_target(data);
});
