//! Limits on sizes that come from outside (a settings file, a stream, an option), checked
//! before anything is allocated from them, and reading a settings file with a size cap.
//!
//! The reference hart's RAM size follows the rules of `hartscope run --mem` (a unit test of
//! the command line checks that its `parse_size` agrees with [`check_ram_size`]): a non-zero
//! multiple of 4 KiB, at most [`MAX_RAM_SIZE`]. A size within them may still be more than the
//! host will give: [`probe_ram`] asks for it the way the hart's RAM does (`vec![0; size]`)
//! and reports a refusal as an error, where the allocation itself would abort the process.
//!
//! The probe is a stopgap for as long as `iss::bus::Ram` allocates with `vec!`: once the
//! RAM is reserved lazily with `mmap(MAP_NORESERVE)` and `Machine::try_new` reports a refusal
//! as an error (work under way in iss/), `probe_ram` should go: it would refuse sizes the
//! lazy reservation gives (those above the host's memory), and `try_new`'s error, which
//! [`crate::verify::Verifier::new`] passes on, says the same.

use std::io::Read;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The largest RAM `hartscope run --mem` accepts.
pub const MAX_RAM_SIZE: u64 = 1 << 40;
/// RAM sizes are whole pages.
pub const RAM_GRANULE: u64 = 4096;
/// The most a settings file (the sidecar) may hold.
pub const SETTINGS_CAP: u64 = 1 << 20;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum RamSizeError {
    #[error("RAM size {0} is not a non-zero multiple of 4 KiB")]
    NotPages(u64),
    #[error("RAM size {0} is more than the limit of 1 TiB")]
    TooLarge(u64),
    #[error(
        "the host refused {} of RAM for the reference hart (give a smaller size with --mem)",
        human(*.0)
    )]
    Refused(u64),
}

/// `1 GiB`, `256 MiB`, `4 KiB`, or bytes.
pub fn human(n: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if n >= 1 << shift && n.is_multiple_of(1 << shift) {
            return format!("{} {unit}", n >> shift);
        }
    }
    format!("{n} bytes")
}

/// A RAM size `hartscope run --mem` would accept.
pub fn check_ram_size(n: u64) -> Result<(), RamSizeError> {
    if n > MAX_RAM_SIZE {
        return Err(RamSizeError::TooLarge(n));
    }
    if n == 0 || !n.is_multiple_of(RAM_GRANULE) {
        return Err(RamSizeError::NotPages(n));
    }
    Ok(())
}

/// Whether the host gives `n` zeroed bytes, asked for as the hart's RAM asks for them (one
/// zeroed allocation, which the host maps lazily); given back at once. Call it with a size
/// that passed [`check_ram_size`].
pub fn probe_ram(n: u64) -> Result<(), RamSizeError> {
    let size = usize::try_from(n).map_err(|_| RamSizeError::Refused(n))?;
    let layout =
        std::alloc::Layout::from_size_align(size, 1).map_err(|_| RamSizeError::Refused(n))?;
    if size == 0 {
        return Ok(());
    }
    // SAFETY: the layout has a non-zero size; the block is freed with the same layout.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout);
        if p.is_null() {
            return Err(RamSizeError::Refused(n));
        }
        std::alloc::dealloc(p, layout);
    }
    Ok(())
}

/// Why a settings file could not be read.
#[derive(Debug, Error)]
pub enum ReadError {
    #[error("{}: cannot read: {source}", file.display())]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: is a directory, not a settings file", file.display())]
    Directory { file: PathBuf },
    #[error("{}: larger than the {} a settings file may hold", file.display(), human(*cap))]
    TooLarge { file: PathBuf, cap: u64 },
}

/// The bytes of `file`, at most `cap` of them (more is an error, whatever the file is: a
/// device such as /dev/zero, a pipe, a huge file).
pub fn read_capped(file: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io {
        file: file.to_path_buf(),
        source,
    };
    if std::fs::metadata(file).map_err(io)?.is_dir() {
        return Err(ReadError::Directory {
            file: file.to_path_buf(),
        });
    }
    let f = std::fs::File::open(file).map_err(io)?;
    let mut buf = Vec::new();
    f.take(cap.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(io)?;
    if buf.len() as u64 > cap {
        return Err(ReadError::TooLarge {
            file: file.to_path_buf(),
            cap,
        });
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ram_sizes() {
        assert_eq!(check_ram_size(256 << 20), Ok(()));
        assert_eq!(check_ram_size(MAX_RAM_SIZE), Ok(()));
        assert_eq!(check_ram_size(0), Err(RamSizeError::NotPages(0)));
        assert_eq!(check_ram_size(4097), Err(RamSizeError::NotPages(4097)));
        assert_eq!(
            check_ram_size(u64::MAX),
            Err(RamSizeError::TooLarge(u64::MAX))
        );
        assert_eq!(
            check_ram_size(MAX_RAM_SIZE + 4096),
            Err(RamSizeError::TooLarge(MAX_RAM_SIZE + 4096))
        );
        assert_eq!(probe_ram(1 << 20), Ok(()));
        assert_eq!(human(32 << 30), "32 GiB");
    }

    #[test]
    fn capped_reads() {
        let e = read_capped(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { .. }), "{e}");
        assert!(e.to_string().contains("/dev/zero") && e.to_string().contains("1 MiB"));
        let e = read_capped(Path::new("/"), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        let e = read_capped(Path::new("/nonexistent/x.json"), 1 << 20).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("/nonexistent/x.json: cannot read"),
            "{e}"
        );
    }
}
