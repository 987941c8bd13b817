//! Reading a whole input file with a size cap: a wrong path (`/dev/zero`, a FIFO that never
//! ends, a directory, a multi-gigabyte file) is an error naming the file and the cap, not a
//! process that fills memory. Every settings file and every whole-file input of hartscope
//! (the tandem sidecar, `--pmu-config`, `--ctr-config`, `--ntrace-config`, `ntrace decode`'s
//! programs and raw images) is read through [`read_capped`].
//!
//! The settings files beside traces share one path rule ([`sidecar_path`]: `FILE.json`) and
//! one reading of JSON ([`read_settings`], [`parse_json`], [`bad_field`]): the N-Trace
//! sidecar and `--ntrace-config` (read by the command line) and the tandem sidecar
//! (`tandem::sidecar`) are all read the same way.

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

/// Where the settings of a trace file `trace` are kept: `trace` with `.json` appended
/// (`run.ntr` -> `run.ntr.json`), for N-Trace and tandem streams alike.
pub fn sidecar_path(trace: &Path) -> PathBuf {
    let mut s = trace.as_os_str().to_owned();
    s.push(".json");
    PathBuf::from(s)
}

/// The bytes of a settings file, at most [`SETTINGS_CAP`].
pub fn read_settings(file: &Path) -> Result<Vec<u8>, ReadError> {
    read_capped(file, SETTINGS_CAP, "a settings file")
}

/// Where and why a settings file is not JSON.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("line {line}, column {column}: {problem}")]
pub struct JsonSyntax {
    pub line: usize,
    pub column: usize,
    /// What the parser found wrong, without its position ("the text ends early" when it
    /// does).
    pub problem: String,
}

/// `bytes` as a JSON value, or where and why it is not one.
pub fn parse_json(bytes: &[u8]) -> Result<serde_json::Value, JsonSyntax> {
    serde_json::from_slice(bytes).map_err(|e| JsonSyntax {
        line: e.line(),
        column: e.column(),
        problem: json_problem(&e),
    })
}

/// serde_json's description of an error without its position (which is that of a
/// re-serialised value, or given separately).
pub fn json_problem(e: &serde_json::Error) -> String {
    if e.classify() == serde_json::error::Category::Eof {
        return "the text ends early".into();
    }
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) if e.line() > 0 => s[..i].to_string(),
        _ => s,
    }
}

/// The field of `v` that keeps it from being a `T`: each field of `v` is tried alone, one
/// at a time, in `template` (a `T` that reads, as JSON: its default), and the first whose
/// value fails is the one, followed into nested objects (`caches.l1d.size`). `None` when
/// no single field fails (a missing field, which serde names itself, or a combination).
/// Returns the path and what serde said of that field alone. For messages about settings
/// read with serde, which does not say where it failed.
pub fn bad_field<T: serde::de::DeserializeOwned>(
    v: &serde_json::Value,
    template: &serde_json::Value,
) -> Option<(String, String)> {
    use serde_json::Value;
    fn set(root: &mut Value, path: &[String], val: Value) {
        let mut at = root;
        for k in &path[..path.len() - 1] {
            at = match at {
                Value::Object(m) => m.entry(k.clone()).or_insert(Value::Null),
                _ => return,
            };
        }
        if let Value::Object(m) = at {
            m.insert(path[path.len() - 1].clone(), val);
        }
    }
    fn walk<T: serde::de::DeserializeOwned>(
        root: &Value,
        path: &mut Vec<String>,
        v: &Value,
        t: Option<&Value>,
    ) -> Option<(String, String)> {
        let Value::Object(m) = v else { return None };
        for (k, vv) in m {
            path.push(k.clone());
            let mut candidate = root.clone();
            set(&mut candidate, path, vv.clone());
            if let Err(e) = T::deserialize(&candidate) {
                let inner = t.and_then(|t| t.get(k));
                let deeper = match inner {
                    Some(Value::Object(_)) => walk::<T>(root, path, vv, inner),
                    _ => None,
                };
                let here = (path.join("."), e.to_string());
                path.pop();
                return Some(deeper.unwrap_or(here));
            }
            path.pop();
        }
        None
    }
    walk::<T>(template, &mut Vec::new(), v, Some(template))
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

    #[test]
    fn one_sidecar_rule_and_one_json_reading() {
        assert_eq!(
            sidecar_path(Path::new("out/run.ntr")),
            PathBuf::from("out/run.ntr.json")
        );
        let e = parse_json(b"{\n \"x\" 1}").unwrap_err();
        assert_eq!(e.to_string(), "line 2, column 6: expected `:`");
        let e = parse_json(b"{\"x\": ").unwrap_err();
        assert_eq!(e.problem, "the text ends early");
        #[derive(serde::Deserialize, serde::Serialize, Default)]
        #[serde(default)]
        struct S {
            a: u8,
            b: bool,
        }
        let v = parse_json(br#"{"b": true, "a": 300}"#).unwrap();
        let t = serde_json::to_value(S::default()).unwrap();
        let (field, problem) = bad_field::<S>(&v, &t).unwrap();
        assert_eq!(field, "a");
        assert!(problem.contains("300"), "{problem}");
        let e = read_settings(Path::new("/dev/zero")).unwrap_err();
        assert!(e.to_string().contains("1 MiB a settings file"), "{e}");
    }
}
