//! File formats: native JSON, FIDE TRF, CSV player lists, typed results. Parsing never panics;
//! every error names the file, line and field. Writes are atomic (temp file, then rename).

pub mod csv;
pub mod json;
pub mod paths;
pub mod results;
pub mod trf;
pub mod tsh;
pub mod tsh_config;

use crate::tournament::Tournament;
use crate::{Error, Result};
use std::io::Write;
use std::path::Path;

/// The most rounds an event file may hold (round numbers and rounds planned), in every
/// format: see [`crate::tournament::MAX_ROUNDS`], checked for every format at load.
pub use crate::tournament::MAX_ROUNDS;

/// The formats a tournament file can be in, by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The native JSON format (`.json`).
    Json,
    /// FIDE TRF (`.trf`, `.trfx` or `.txt`).
    Trf,
    /// tsh `.t` file (one division).
    Tsh,
    /// tsh's `config.tsh`: the event's divisions, each in its `.t` file.
    TshConfig,
}

/// The format of `path`, from its extension (case-insensitive); an unknown extension is an error
/// naming the file.
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
        Some("tsh") => Ok(Kind::TshConfig),
        _ => Err(Error::Input {
            at: crate::error::Location {
                file: Some(path.to_path_buf()),
                line: None,
                field: None,
            },
            message: "unknown file type: use .json, .trf, .t or tsh's config.tsh".into(),
        }),
    }
}

/// The largest input file read (512 MiB): far past any event (2,000 players with nine rounds
/// is under 1 MB as JSON), and a bound on what a wrong path (`/dev/zero`, a disk image) can
/// make a run read into memory.
pub const MAX_FILE_BYTES: u64 = 512 << 20;

/// Reads a file as text; invalid UTF-8 is reported, not replaced. Files over
/// [`MAX_FILE_BYTES`] are refused; so is anything but a regular file (a FIFO, socket, device
/// or directory), from its metadata, before it is opened ([`paths::check_input`]).
pub fn read_text(path: &Path) -> Result<String> {
    use std::io::Read;
    let too_big = || {
        Error::input(format!(
            "file is larger than {} MiB: not an event file",
            MAX_FILE_BYTES >> 20
        ))
        .in_file(path)
    };
    paths::check_input(path)?;
    let file = open_regular(path)?;
    paths::note_read(path);
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
        .in_file(path)
    })
}

/// Opens `path` for reading, refusing what is not a regular file. On Unix the open does not
/// wait for a FIFO's writer (`O_NONBLOCK`), should one replace the file after the check.
fn open_regular(path: &Path) -> Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(|e| Error::io(path, e))?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(Error::io(path, "not a regular file: not read"));
    }
    Ok(file)
}

/// Windows-1252's characters for bytes 0x80-0x9F (the five it leaves undefined read as the
/// Latin-1 control characters, so that every byte round-trips).
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}', '\u{178}',
];

/// Decodes Windows-1252 (a superset of Latin-1's printable characters).
pub fn decode_cp1252(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => CP1252_HIGH[(b - 0x80) as usize],
            _ => b as char,
        })
        .collect()
}

/// Encodes text as Windows-1252; a character it cannot hold is an error naming it.
pub fn encode_cp1252(text: &str) -> Result<Vec<u8>> {
    text.chars()
        .map(|c| match c as u32 {
            0..=0x7F | 0xA0..=0xFF => Ok(c as u8),
            _ => CP1252_HIGH
                .iter()
                .position(|&h| h == c)
                .map(|i| 0x80 + i as u8)
                .ok_or_else(|| {
                    Error::input(format!(
                        "'{c}' (U+{:04X}) cannot be written in Windows-1252, the encoding the file \
                         was read in; write the event as .json",
                        c as u32
                    ))
                }),
        })
        .collect()
}

/// A TRF file's text: UTF-8 (a byte-order mark is dropped by the reader), else
/// Windows-1252 / Latin-1 as the managers write it.
pub fn read_trf_text(path: &Path) -> Result<(String, crate::tournament::Encoding)> {
    use crate::tournament::Encoding;
    match read_text(path) {
        Ok(text) => Ok((text, Encoding::Utf8)),
        Err(Error::Input { message, .. }) if message.starts_with("not UTF-8") => {
            let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
            Ok((decode_cp1252(&bytes), Encoding::Windows1252))
        }
        Err(e) => Err(e),
    }
}

/// Loads a tournament, choosing the format by extension, and validates it.
pub fn load(path: &Path) -> Result<Tournament> {
    let kind = kind_of(path)?;
    let t = match kind {
        Kind::TshConfig => tsh_config::load(path)?,
        Kind::Tsh => tsh_config::load_t(path, &read_text(path)?)?,
        Kind::Json => json::parse(&read_text(path)?).map_err(|e| e.in_file(path))?,
        Kind::Trf => {
            // Read as UTF-8, or as Windows-1252 when it is not; written back the same way.
            let (text, encoding) = read_trf_text(path)?;
            let mut t = trf::parse(&text).map_err(|e| e.in_file(path))?;
            t.encoding = encoding;
            t
        }
    };
    t.validate().map_err(|e| e.in_file(path))?;
    refuse_empty(&t, path)?;
    paths::check_settings(&t, path)?;
    Ok(t)
}

/// Refuses an event without players (an empty file among them): no command has anything to
/// pair, check or rank in it, and a check of it is not "clean".
pub fn refuse_empty(t: &Tournament, path: &Path) -> Result<()> {
    if t.players.is_empty() {
        return Err(Error::field(
            "players",
            "the file holds no players (is it empty?): not an event to work on",
        )
        .in_file(path));
    }
    Ok(())
}

/// The tournament as text in the format `kind`; an error names what the format cannot hold.
pub fn render(t: &Tournament, kind: Kind) -> Result<String> {
    match kind {
        Kind::Json => Ok(json::write(t)),
        Kind::Trf => trf::write(t),
        Kind::Tsh => tsh::write(t),
        Kind::TshConfig => Err(Error::field(
            "file",
            "a config.tsh is not an event file: its divisions are written to their .t files",
        )),
    }
}

/// The tournament as TRF bytes, in the encoding it was read in (UTF-8 or Windows-1252).
pub fn trf_bytes(t: &Tournament) -> Result<Vec<u8>> {
    let text = trf::write(t)?;
    match t.encoding {
        crate::tournament::Encoding::Windows1252 => encode_cp1252(&text),
        _ => Ok(text.into_bytes()),
    }
}

/// Saves a tournament atomically in the format its extension names.
pub fn save(path: &Path, t: &Tournament) -> Result<()> {
    let kind = kind_of(path)?;
    if kind == Kind::TshConfig {
        return tsh_config::save(path, t);
    }
    if kind == Kind::Trf {
        let bytes = trf_bytes(t).map_err(|e| e.in_file(path))?;
        return write_atomic(path, &bytes);
    }
    let text = render(t, kind).map_err(|e| e.in_file(path))?;
    write_atomic(path, text.as_bytes())
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a reader
/// sees the old file or the new one, never half of one.
///
/// * A symlink is written through: the file it points to is replaced, the link stays a link.
/// * An existing file keeps its permission bits (the mode; owner and group stay the writer's).
/// * The temp file (`.NAME.tmp-PID-XXXXXX`, a `tempfile`, beside the target so the rename
///   stays on one file system) is removed on every error path, and on a panic when dropped. A run
///   killed outright cannot clean up, so every write first removes the temp files of `NAME`
///   whose writer is gone: each writer holds an exclusive lock on its temp file while it
///   exists, and the kernel drops the lock when the process dies.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    paths::check_writable(path)?;
    let target = through_links(path)?;
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let name = target
        .file_name()
        .ok_or_else(|| Error::io(path, "not a file name"))?
        .to_string_lossy()
        .into_owned();
    remove_stale_temps(&dir, &name);
    let mode = std::fs::metadata(&target).ok().map(|m| m.permissions());
    let tmp = create_temp(&dir, &name).map_err(|e| Error::io(path, plain(&e)))?;
    let written = (|| -> std::io::Result<()> {
        let mut f = tmp.as_file();
        f.write_all(bytes)?;
        if let Some(mode) = mode {
            tmp.as_file().set_permissions(mode)?;
        }
        tmp.as_file().sync_all()
    })();
    // On an error (or a panic) the temp file is dropped, which removes it.
    written.map_err(|e| Error::io(path, plain(&e)))?;
    persist(tmp, &target).map_err(|e| Error::io(path, plain(&e)))?;
    sync_dir(&dir);
    Ok(())
}

/// An I/O error's own words, without the temp file's name `tempfile` adds: the target is
/// what the user named.
fn plain(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.split_once(" at path ") {
        Some((words, _)) => words.to_string(),
        None => text,
    }
}

/// Renames the temp file over `target`. Unix replaces a file that is open elsewhere at once;
/// Windows refuses while another program holds it open without delete sharing (a virus
/// scanner or an indexer, for a moment), so there the rename is tried for half a second.
fn persist(mut tmp: tempfile::NamedTempFile, target: &Path) -> std::io::Result<()> {
    for _ in 0..10 {
        match tmp.persist(target) {
            Ok(_) => return Ok(()),
            // ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION
            Err(e) if cfg!(windows) && matches!(e.error.raw_os_error(), Some(5 | 32)) => {
                tmp = e.file;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(e) => return Err(e.error),
        }
    }
    tmp.persist(target).map(drop).map_err(|e| e.error)
}

/// The prefix of `name`'s temp files; what follows it is `PID-` and random letters and digits
/// (`PID-N` or `PID` from earlier versions).
fn temp_prefix(name: &str) -> String {
    format!(".{name}.tmp-")
}

/// Creates and locks a fresh temp file for `name` in `dir` (removed when dropped). A
/// stale-file sweep by another process can remove the file between its creation and the
/// lock; the inode check catches that and another name is tried.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let prefix = format!("{}{}-", temp_prefix(name), std::process::id());
    for _ in 0..16 {
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).rand_bytes(6);
        // The mode a plain create gives (0666 less the umask), not tempfile's 0600: a new
        // event file is as readable as any other file the director writes.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let tmp = builder.tempfile_in(dir)?;
        tmp.as_file().lock()?;
        if same_file(tmp.as_file(), tmp.path()) {
            return Ok(tmp);
        }
    }
    Err(std::io::Error::other(
        "temp file removed while being created",
    ))
}

#[cfg(unix)]
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &std::fs::File, path: &Path) -> bool {
    path.exists()
}

/// Removes `name`'s temp files left by writers that are gone (a kill, a power cut): a file
/// whose lock can be taken has no live writer. Best effort: a file that cannot be removed is
/// left for the next write.
fn remove_stale_temps(dir: &Path, name: &str) {
    let prefix = temp_prefix(name);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        // `PID`, or `PID-` then letters and digits: never a name of the director's.
        let (pid, tail) = rest.split_once('-').unwrap_or((rest, ""));
        let ours = !pid.is_empty()
            && pid.chars().all(|c| c.is_ascii_digit())
            && tail.chars().all(|c| c.is_ascii_alphanumeric());
        if !ours || (rest.contains('-') && tail.is_empty()) {
            continue;
        }
        let path = entry.path();
        let Ok(f) = std::fs::File::open(&path) else {
            continue;
        };
        if f.try_lock().is_ok() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// The file `path` names, following symlinks (relative ones from the link's directory).
fn through_links(path: &Path) -> Result<std::path::PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p).map_err(|e| Error::io(path, e))?;
                p = match p.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(Error::io(path, "too many levels of symbolic links"))
}

/// Makes the rename itself durable (the directory entry), where the platform allows it.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}
