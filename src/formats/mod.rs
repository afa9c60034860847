//! File formats: native JSON, FIDE TRF, CSV player lists, typed results. Parsing never panics;
//! every error names the file, line and field. Writes are atomic (temp file, then rename).

pub mod csv;
pub mod json;
pub mod results;
pub mod trf;
pub mod tsh;

use crate::tournament::Tournament;
use crate::{Error, Result};
use std::io::Write;
use std::path::Path;

/// The formats a tournament file can be in, by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Json,
    Trf,
    /// tsh `.t` file (one division).
    Tsh,
}

pub fn kind_of(path: &Path) -> Result<Kind> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("json") => Ok(Kind::Json),
        Some("trf") | Some("trfx") | Some("txt") => Ok(Kind::Trf),
        Some("t") => Ok(Kind::Tsh),
        _ => Err(Error::Input {
            at: crate::error::Location {
                file: Some(path.to_path_buf()),
                line: None,
                field: None,
            },
            message: "unknown file type: use .json, .trf or .t".into(),
        }),
    }
}

/// Reads a file as text; invalid UTF-8 is reported, not replaced.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
        .in_file(path)
    })
}

/// Loads a tournament, choosing the format by extension, and validates it.
pub fn load(path: &Path) -> Result<Tournament> {
    let kind = kind_of(path)?;
    let text = read_text(path)?;
    let t = match kind {
        Kind::Json => json::parse(&text),
        Kind::Trf => trf::parse(&text),
        Kind::Tsh => tsh::parse(&text),
    }
    .map_err(|e| e.in_file(path))?;
    let mut t = t;
    if kind == Kind::Tsh {
        tsh::apply_sidecar(path, &mut t)?;
    }
    t.validate().map_err(|e| e.in_file(path))?;
    Ok(t)
}

/// The tournament as text in the format `kind`.
pub fn render(t: &Tournament, kind: Kind) -> String {
    match kind {
        Kind::Json => json::write(t),
        Kind::Trf => trf::write(t),
        Kind::Tsh => tsh::write(t),
    }
}

/// Saves a tournament atomically in the format its extension names.
pub fn save(path: &Path, t: &Tournament) -> Result<()> {
    let kind = kind_of(path)?;
    write_atomic(path, render(t, kind).as_bytes())
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a reader
/// sees the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| Error::io(path, "not a file name"))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(path, e));
    }
    Ok(())
}
