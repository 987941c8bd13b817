//! Reading input files with a size cap, so that a wrong path (`/dev/zero`, a FIFO that never
//! ends, a multi-gigabyte file) is an error naming the file and the cap instead of a run that
//! fills memory. For every settings file and other whole-file input of the command line.

use anyhow::{bail, Context, Result};
use std::io::Read;
use std::path::Path;

/// The most a settings file (`--pmu-config`, `--ctr-config`, `--ntrace-config`...) may hold.
pub const SETTINGS_CAP: u64 = 1 << 20;

/// The bytes of `path`, at most `cap` of them. `what` names the input in errors (an option
/// such as `--pmu-config`). Reads at most `cap + 1` bytes whatever the file is.
pub fn read_capped(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>> {
    let f = std::fs::File::open(path)
        .with_context(|| format!("{what}: cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    f.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("{what}: cannot read {}", path.display()))?;
    if bytes.len() as u64 > cap {
        bail!(
            "{what}: {} is larger than the {} a {what} file may have",
            path.display(),
            show_size(cap)
        );
    }
    Ok(bytes)
}

/// [`read_capped`] as UTF-8 text.
pub fn read_capped_string(path: &Path, cap: u64, what: &str) -> Result<String> {
    let bytes = read_capped(path, cap, what)?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{what}: {} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// `1 MiB`, `64 KiB`, `100 bytes`.
fn show_size(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_endless_and_large_inputs() {
        let e = read_capped(Path::new("/dev/zero"), 4096, "--pmu-config").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--pmu-config: /dev/zero is larger than the 4 KiB a --pmu-config file may have"
        );
        let dir = std::env::temp_dir().join(format!("hartscope-capped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("s.toml");
        std::fs::write(&p, vec![b'#'; 4096]).unwrap();
        assert_eq!(read_capped(&p, 4096, "x").unwrap().len(), 4096);
        assert!(read_capped(&p, 4095, "x").is_err());
        std::fs::write(&p, [b'a', 0xff]).unwrap();
        let e = read_capped_string(&p, 4096, "--ctr-config").unwrap_err();
        assert!(e.to_string().contains("offset 1"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
        let e = read_capped(Path::new("/nonexistent/x"), 1, "--ctr-config").unwrap_err();
        assert!(format!("{e:#}").contains("--ctr-config: cannot read /nonexistent/x"));
    }
}
