//! The memory guard: a cap on the process's data memory (`setrlimit(RLIMIT_DATA)`; on Windows a
//! job object's process-memory limit), set at start-up from `--memory-limit` (default: half the
//! machine's memory), and an allocator that
//! turns a refused allocation into a message and exit code 4 instead of a bare abort. No input
//! can then make a run take the machine's memory from everything else on it.
//!
//! The only `unsafe` of the command line is here: a global allocator is an `unsafe` trait, and
//! `setrlimit` (and the Windows job calls) have no safe form in the standard library.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;

pub struct Guarded;

fn out_of_memory(size: usize) -> ! {
    // No allocation on this path: the message is written piecewise from fixed text.
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(b"error: the memory limit was reached (an allocation of ");
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = size;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let _ = err.write_all(&digits[i..]);
    let _ = err.write_all(
        b" bytes was refused); nothing was written. Raise it with --memory-limit MIB.\n",
    );
    std::process::exit(4)
}

// SAFETY: every call is passed on to the system allocator unchanged; only a null result (a
// refused allocation) is turned into an exit.
unsafe impl GlobalAlloc for Guarded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Half the machine's memory in MiB, or 8 GiB where that cannot be read.
pub fn default_limit_mib() -> u64 {
    total_memory_kib()
        .map(|kb| (kb / 1024 / 2).max(512))
        .unwrap_or(8192)
}

#[cfg(not(windows))]
fn total_memory_kib() -> Option<u64> {
    std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("MemTotal:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
    })
}

#[cfg(windows)]
fn total_memory_kib() -> Option<u64> {
    use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};
    // SAFETY: a zeroed MEMORYSTATUSEX with its length set is what the call expects.
    let mut m: MEMORYSTATUSEX = unsafe { std::mem::zeroed() };
    m.dwLength = std::mem::size_of::<MEMORYSTATUSEX>() as u32;
    (unsafe { GlobalMemoryStatusEx(&mut m) } != 0).then_some(m.ullTotalPhys / 1024)
}

/// Caps the data memory of this process at `mib` MiB (or at the hard limit already set, if
/// lower: only the soft limit is changed, which needs no privilege).
#[cfg(unix)]
pub fn set_limit_mib(mib: u64) -> std::io::Result<()> {
    let bytes = mib.saturating_mul(1024 * 1024) as libc::rlim_t;
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `lim` is a valid rlimit that outlives both calls.
    if unsafe { libc::getrlimit(libc::RLIMIT_DATA, &mut lim) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    lim.rlim_cur = if lim.rlim_max == libc::RLIM_INFINITY {
        bytes
    } else {
        bytes.min(lim.rlim_max)
    };
    // SAFETY: as above.
    if unsafe { libc::setrlimit(libc::RLIMIT_DATA, &lim) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Caps the committed memory of this process at `mib` MiB: the process joins a new job
/// object with that process-memory limit (Windows 8 and later allow it inside a manager's own
/// job). The job lives as long as the process; its handle is never closed.
#[cfg(windows)]
pub fn set_limit_mib(mib: u64) -> std::io::Result<()> {
    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
        SetInformationJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
        JOB_OBJECT_LIMIT_PROCESS_MEMORY,
    };
    use windows_sys::Win32::System::Threading::GetCurrentProcess;
    let bytes = usize::try_from(mib.saturating_mul(1024 * 1024)).unwrap_or(usize::MAX);
    // SAFETY: plain Win32 calls on a job this function creates and the current process's
    // pseudo-handle; `info` outlives the call that reads it.
    unsafe {
        let job = CreateJobObjectW(std::ptr::null(), std::ptr::null());
        if job.is_null() {
            return Err(std::io::Error::last_os_error());
        }
        let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
        info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_PROCESS_MEMORY;
        info.ProcessMemoryLimit = bytes;
        let set = SetInformationJobObject(
            job,
            JobObjectExtendedLimitInformation,
            (&info as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
            std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        );
        if set == 0 || AssignProcessToJobObject(job, GetCurrentProcess()) == 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}
