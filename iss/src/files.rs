//! Reading a whole input file with a size cap: a wrong path (`/dev/zero`, a FIFO that never
//! ends, a directory, a multi-gigabyte file) is an error naming the file and the cap, not a
//! process that fills memory. Every settings file and every whole-file input of hartscope
//! (the tandem sidecar, `--pmu-config`, `--ctr-config`, `--ntrace-config`, `ntrace decode`'s
//! programs and raw images) is read through [`read_capped`].

use std::io::Read;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The most a settings file may hold.
pub const SETTINGS_CAP: u64 = 1 << 20;

/// Why a file could not be read whole.
#[derive(Debug, Error)]
pub enum ReadError {
    // The I/O error is in the message, not a `source`: shown both ways it would repeat.
    #[error("{}: cannot read: {error}", file.display())]
    Io {
        file: PathBuf,
        error: std::io::Error,
    },
    #[error("{}: is a directory, not {what}", file.display())]
    Directory { file: PathBuf, what: &'static str },
    #[error("{}: larger than the {} {what} may hold", file.display(), size_text(*cap))]
    TooLarge {
        file: PathBuf,
        cap: u64,
        what: &'static str,
    },
}

/// The bytes of `file`, at most `cap` of them: more is an error, whatever the file is (a
/// device, a pipe, a huge file); at most `cap + 1` bytes are ever read. `what` names the kind
/// of input in errors ("a settings file", "a raw image").
pub fn read_capped(file: &Path, cap: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    let io = |error| ReadError::Io {
        file: file.to_path_buf(),
        error,
    };
    if std::fs::metadata(file).map_err(io)?.is_dir() {
        return Err(ReadError::Directory {
            file: file.to_path_buf(),
            what,
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
            what,
        });
    }
    Ok(buf)
}

/// A size in words: `1 GiB`, `256 MiB`, `4 KiB`, or bytes when it is no whole multiple.
pub fn size_text(n: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if n >= 1 << shift && n.is_multiple_of(1 << shift) {
            return format!("{} {unit}", n >> shift);
        }
    }
    format!("{n} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_capped_and_errors_named() {
        assert_eq!(size_text(32 << 30), "32 GiB");
        assert_eq!(size_text(1 << 20), "1 MiB");
        assert_eq!(size_text(1000), "1000 bytes");
        let e = read_capped(Path::new("/dev/zero"), 4096, "a settings file").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/zero: larger than the 4 KiB a settings file may hold"
        );
        let e = read_capped(Path::new("/"), 4096, "a raw image").unwrap_err();
        assert_eq!(e.to_string(), "/: is a directory, not a raw image");
        let e = read_capped(Path::new("/nonexistent/x"), 1, "a settings file").unwrap_err();
        assert!(
            e.to_string().starts_with("/nonexistent/x: cannot read: "),
            "{e}"
        );
        let dir = std::env::temp_dir().join(format!("hartscope-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("s.toml");
        std::fs::write(&p, vec![b'#'; 4096]).unwrap();
        assert_eq!(read_capped(&p, 4096, "x").unwrap().len(), 4096);
        assert!(matches!(
            read_capped(&p, 4095, "x"),
            Err(ReadError::TooLarge { cap: 4095, .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
