//! Which paths a command may read and write, and the lock an event's writers share.
//!
//! * Inputs are regular files: a FIFO, socket, device or directory is refused from its
//!   metadata, before anything opens it (opening a FIFO without a writer blocks forever).
//! * Outputs are regular files or new paths, never a file the same command reads (followed
//!   through symlinks and hard links), never a read-only file or a file in a read-only
//!   directory (the permission bits, so that root is refused too).
//! * A path written inside a file (`config.tsh`'s division files) stays in that file's
//!   directory: relative, no `..`, no symlink that leads out.
//! * Writers of one event hold [`EventLock`] from before they read it until they have
//!   replaced it.

use crate::{Error, Result};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a path names when it is not a regular file (`None`: a regular file).
fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_block_device() || t.is_char_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// Refuses `path` as an input unless it is a regular file (symlinks followed); a missing file
/// is left to the open, which names it.
pub fn check_input(path: &Path) -> Result<()> {
    if let Ok(meta) = std::fs::metadata(path) {
        if let Some(kind) = special_kind(&meta) {
            return Err(Error::io(
                path,
                format!("{kind}, not a regular file: not read"),
            ));
        }
    }
    Ok(())
}

/// The identity of a file: device and inode on Unix (hard links and symlinks alike), the
/// canonical path elsewhere.
#[cfg(unix)]
type FileId = (u64, u64);
#[cfg(not(unix))]
type FileId = PathBuf;

fn file_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path).ok()
    }
}

/// Every file read through [`super::read_text`] in this process, with the path it was read
/// as: an output must not replace one of them.
static READ: Mutex<Vec<(FileId, PathBuf)>> = Mutex::new(Vec::new());

/// Notes that `path` was read (called by [`super::read_text`]).
pub(crate) fn note_read(path: &Path) {
    let Some(id) = file_id(path) else { return };
    if let Ok(mut read) = READ.lock() {
        if !read.iter().any(|(i, _)| *i == id) {
            read.push((id, path.to_path_buf()));
        }
    }
}

/// Refuses `out` as the output of a command unless it is a new path or a regular file that
/// the command has not read and may replace: not an input (however reached), not special,
/// not read-only. `field` is how the command names the output (`--out`, `-p`).
pub fn check_output(out: &Path, field: &str) -> Result<()> {
    if let Some(id) = file_id(out) {
        let read = READ.lock().map(|r| r.clone()).unwrap_or_default();
        if let Some((_, input)) = read.iter().find(|(i, _)| *i == id) {
            let what = if input == out {
                format!("{} is the input file of this command", out.display())
            } else {
                format!(
                    "{} is the same file as {}, an input of this command",
                    out.display(),
                    input.display()
                )
            };
            return Err(Error::field(
                field,
                format!("{what}: not replaced (name another file)"),
            ));
        }
    }
    check_writable(out)
}

/// Refuses to replace `path` (symlinks followed) when it is not a regular file, when it is
/// read-only, or when its directory is: the atomic rename would replace it all the same.
pub fn check_writable(path: &Path) -> Result<()> {
    if let Ok(meta) = std::fs::metadata(path) {
        if let Some(kind) = special_kind(&meta) {
            return Err(Error::io(
                path,
                format!("{kind}, not a regular file: not replaced"),
            ));
        }
        if meta.permissions().readonly() {
            return Err(Error::io(
                path,
                "the file is read-only: not replaced (make it writable to change it)",
            ));
        }
    }
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if std::fs::metadata(dir).is_ok_and(|m| m.permissions().readonly()) {
        return Err(Error::io(
            path,
            format!(
                "its directory {} is read-only: nothing written",
                dir.display()
            ),
        ));
    }
    Ok(())
}

/// `rel`, a path written inside a file of directory `dir`, joined to `dir` if it stays there:
/// relative, without `..`, and not a symlink (or under one) that resolves outside `dir`. The
/// error says why, for the caller to place at its line.
pub fn confine(dir: &Path, rel: &str) -> std::result::Result<PathBuf, String> {
    let p = Path::new(rel);
    let outside = |why: &str| {
        format!("'{rel}' {why}: a file named in an event file must be in the event's directory")
    };
    if p.is_absolute() || p.has_root() {
        return Err(outside("is an absolute path"));
    }
    for c in p.components() {
        match c {
            Component::ParentDir => return Err(outside("goes up with '..'")),
            Component::Prefix(_) | Component::RootDir => {
                return Err(outside("is an absolute path"))
            }
            _ => {}
        }
    }
    let joined = dir.join(p);
    if let (Ok(base), Ok(real)) = (std::fs::canonicalize(dir), std::fs::canonicalize(&joined)) {
        if !real.starts_with(&base) {
            return Err(outside(&format!(
                "is a symlink to {}, outside the event's directory",
                real.display()
            )));
        }
    }
    Ok(joined)
}

/// Settings whose value may be a file path (read by the system that uses them).
pub const PATH_SETTINGS: [&str; 1] = ["nsc2006.schedule"];

/// Refuses an event whose [`PATH_SETTINGS`] name a file outside the directory of `event`,
/// the file it was read from.
pub fn check_settings(t: &crate::tournament::Tournament, event: &Path) -> Result<()> {
    let dir = match event.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    for key in PATH_SETTINGS {
        if let Some(serde_json::Value::String(rel)) = t.settings.get(key) {
            confine(dir, rel).map_err(|m| Error::field(key, m).in_file(event))?;
        }
    }
    Ok(())
}

/// How long a writer waits for another run's lock on the same event before refusing.
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// An exclusive lock on an event, held by a command that reads the event, changes it and
/// writes it back, so that two such commands run one after the other and neither loses the
/// other's change. Released when dropped (and by the kernel when the process dies).
///
/// On Unix the lock is on the event file itself: a writer replaces the file by a rename, so a
/// lock taken on a file the path no longer names is dropped and taken again on the new one.
/// On Windows, where a lock also bars reading, it is on `.NAME.lock` beside the event.
pub struct EventLock {
    _file: std::fs::File,
}

impl EventLock {
    /// Takes the lock on `event`, waiting up to `wait` for another run to release it.
    pub fn acquire(event: &Path, wait: Duration) -> Result<EventLock> {
        let start = Instant::now();
        loop {
            let file = open_lock_file(event).map_err(|e| Error::io(event, e))?;
            match file.try_lock() {
                Ok(()) if still_named(&file, event) => return Ok(EventLock { _file: file }),
                Ok(()) => continue,
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => return Err(Error::io(event, e)),
            }
            if start.elapsed() >= wait {
                return Err(Error::io(
                    event,
                    format!(
                        "another optipair run is changing this event (it holds the file's \
                         lock); waited {} s, nothing changed: run the command again when it \
                         is done",
                        wait.as_secs()
                    ),
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The lock of a command that will change `event`, taken before it reads it; a file that
/// cannot be replaced (read-only, special) is refused first. A `config.tsh` is not itself
/// written (its divisions' files are, each checked before any is written).
///
/// A `.t` file beside a `config.tsh` is also changed through the config (`pair
/// EVENT/config.tsh --write`), so its writers take the config's lock first, as those do: the
/// two kinds of run are serialised too, always in the same order.
pub fn lock_for_change(event: &Path) -> Result<Vec<EventLock>> {
    let kind = super::kind_of(event).ok();
    if kind != Some(super::Kind::TshConfig) {
        check_writable(event)?;
    }
    let mut locks = Vec::new();
    if kind == Some(super::Kind::Tsh) {
        if let Some(config) = super::tsh_config::beside(event) {
            locks.push(EventLock::acquire(&config, LOCK_WAIT)?);
        }
    }
    locks.push(EventLock::acquire(event, LOCK_WAIT)?);
    Ok(locks)
}

#[cfg(unix)]
fn open_lock_file(event: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(event)
}

/// Whether the locked file is still the one `event` names (not replaced meanwhile).
#[cfg(unix)]
fn still_named(file: &std::fs::File, event: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(event)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn open_lock_file(event: &Path) -> std::io::Result<std::fs::File> {
    let name = event
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let path = event.with_file_name(format!(".{name}.lock"));
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
}

#[cfg(not(unix))]
fn still_named(_file: &std::fs::File, _event: &Path) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confine_refuses_paths_out_of_the_directory() {
        let dir = Path::new(".");
        assert!(confine(dir, "a.t").is_ok());
        assert!(confine(dir, "sub/a.t").is_ok());
        assert!(confine(dir, "../a.t").unwrap_err().contains("'..'"));
        assert!(confine(dir, "sub/../../a.t").is_err());
        assert!(confine(dir, "/etc/passwd")
            .unwrap_err()
            .contains("absolute"));
    }
}
