//! Headless Chromium for the tests that look at an HTML page as a director would: a
//! screenshot of the page (checked to be a PNG of the size asked for).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Headless Chromium, if installed (`apt-get install -y chromium`; CI installs it).
pub fn chromium() -> Option<PathBuf> {
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// Screenshots `page` at `width` × `height` into `png` (a Chromium profile in `profile`) and
/// returns the PNG's bytes, after checking that Chromium succeeded and the image has that size.
pub fn screenshot(
    chrome: &Path,
    page: &Path,
    png: &Path,
    profile: &Path,
    (width, height): (u32, u32),
) -> Vec<u8> {
    let shot = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(
        shot.status.success(),
        "{}",
        String::from_utf8_lossy(&shot.stderr)
    );
    let bytes = std::fs::read(png).expect("screenshot written");
    assert_eq!(png_size(&bytes), (width, height));
    bytes
}

/// PNG width and height from the IHDR chunk.
pub fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (w, h)
}
