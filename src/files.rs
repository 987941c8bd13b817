//! Reading input files with a size cap, and the N-Trace settings files (TOML or JSON) with
//! errors that name the file, the field and what is wrong.
//!
//! Every input is read through [`read_capped`]: a device or a pipe (`/dev/zero`) or a file far
//! larger than anything the reader could use is refused with the file's name and the cap,
//! instead of filling the memory.

use anyhow::{bail, Context, Result};
use encoder::encoder::EncoderConfig;
use std::io::Read;
use std::path::Path;

/// The most a settings file may hold.
pub const SETTINGS_CAP: u64 = 1 << 20;

/// The most an ELF program given to `ntrace decode` may hold.
pub const ELF_CAP: u64 = 1 << 30;

/// The most a raw image given to `ntrace decode --raw` may hold: the default RAM of
/// `hartscope run` (the decoder keeps the code, and a decoded-instruction slot per half-word
/// of it, in memory).
pub const RAW_CAP: u64 = 256 << 20;

/// The bytes of `p`, refused (naming `what` and the file) when it holds more than `cap`.
pub fn read_capped(p: &Path, cap: u64, what: &str) -> Result<Vec<u8>> {
    let f = std::fs::File::open(p).with_context(|| format!("cannot read {}", p.display()))?;
    let mut v = Vec::new();
    f.take(cap.saturating_add(1))
        .read_to_end(&mut v)
        .with_context(|| format!("reading {}", p.display()))?;
    if v.len() as u64 > cap {
        bail!(
            "{}: {what} larger than the cap of {cap} bytes ({}), refused",
            p.display(),
            human(cap)
        );
    }
    Ok(v)
}

fn human(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// Line and column (from 1) of byte `at` of `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = text.as_bytes()[..at].split(|&b| b == b'\n');
    let mut line = 0;
    let mut col = 0;
    for l in before {
        line += 1;
        col = l.len() + 1;
    }
    (line.max(1), col.max(1))
}

/// The text of a settings file: at most [`SETTINGS_CAP`] bytes of UTF-8.
fn settings_text(p: &Path) -> Result<String> {
    let bytes = read_capped(p, SETTINGS_CAP, "a settings file")?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}: not a settings file: not UTF-8 text (byte {})",
            p.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Encoder settings from a TOML file (`.toml`) or JSON (anything else). A syntax error gives
/// its line and column; a field error names the field and what is wrong with its value.
pub fn load_encoder_config(p: &Path) -> Result<EncoderConfig> {
    let text = settings_text(p)?;
    let shown = p.display();
    let toml = p.extension().is_some_and(|e| e == "toml");
    let value: serde_json::Value = if toml {
        let table: toml::Table = toml::from_str(&text).map_err(|e| {
            let what = e.message().trim().to_string();
            match e.span() {
                Some(s) => {
                    let (l, c) = line_col(&text, s.start);
                    anyhow::anyhow!("{shown}: not valid TOML: line {l}, column {c}: {what}")
                }
                None => anyhow::anyhow!("{shown}: not valid TOML: {what}"),
            }
        })?;
        serde_json::to_value(table)
            .map_err(|e| anyhow::anyhow!("{shown}: not valid encoder settings: {e}"))?
    } else {
        serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{shown}: not valid JSON: line {}, column {}: {}",
                e.line(),
                e.column(),
                json_what(&e)
            )
        })?
    };
    let serde_json::Value::Object(fields) = &value else {
        bail!(
            "{shown}: not valid encoder settings: expected a table of fields (tr_te_inst_mode, \
             ...), found {}",
            kind_of(&value)
        );
    };
    match serde_json::from_value::<EncoderConfig>(value.clone()) {
        Ok(c) => Ok(c),
        Err(whole) => {
            // Every field defaults: the first field that alone does not deserialize is the one.
            for (name, v) in fields {
                let one = serde_json::Value::Object([(name.clone(), v.clone())].into_iter().collect());
                if let Err(e) = serde_json::from_value::<EncoderConfig>(one) {
                    let what = json_what(&e);
                    if what.starts_with("unknown field") {
                        bail!(
                            "{shown}: unknown field `{name}` (the fields are those of \
                             `hartscope run --help`'s N-Trace encoder options, with `_`: \
                             tr_te_inst_mode, icnt_bits, ...)"
                        );
                    }
                    bail!("{shown}: field `{name}`: {what}");
                }
            }
            bail!("{shown}: not valid encoder settings: {}", json_what(&whole))
        }
    }
}

/// A serde_json error's text without its position (which is that of a re-serialised value,
/// or given separately).
fn json_what(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) if e.line() > 0 => s[..i].to_string(),
        _ => s,
    }
}

fn kind_of(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "a table",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("hartscope-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let e = load_encoder_config(&p).map(|_| ()).unwrap_err();
        let _ = std::fs::remove_file(&p);
        format!("{e:#}")
    }

    #[test]
    fn settings_errors_name_the_file_and_the_field() {
        let e = err("a.json", r#"{"tr_te_inst_mode": 3, "icnt_bits": 300}"#);
        assert!(e.ends_with("a.json: field `icnt_bits`: invalid value: integer `300`, expected u8"), "{e}");
        let e = err("b.json", r#"{"bogus": 1}"#);
        assert!(e.contains("b.json: unknown field `bogus`"), "{e}");
        let e = err("c.json", "{\n \"x\" 1}");
        assert!(e.contains("c.json: not valid JSON: line 2, column 6: expected `:`"), "{e}");
        let e = err("d.toml", "icnt_bits = 300\n");
        assert!(e.contains("d.toml: field `icnt_bits`: invalid value: integer `300`"), "{e}");
        let e = err("e.toml", "icnt_bits = 1\nx = \n");
        assert!(e.contains("e.toml: not valid TOML: line 2, column"), "{e}");
        assert!(!e.contains('|'), "no source snippet: {e}");
        let e = err("f.json", "[1, 2]");
        assert!(e.contains("f.json: not valid encoder settings: expected a table"), "{e}");
        let e = err("g.json", r#"{"filter": {"start": 1}}"#);
        assert!(e.contains("g.json: field `filter`: missing field `end`"), "{e}");
    }

    #[test]
    fn reads_are_capped() {
        let e = read_capped(Path::new("/dev/zero"), 4096, "a raw image").unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "/dev/zero: a raw image larger than the cap of 4096 bytes (4 KiB), refused"
        );
        let e = load_encoder_config(Path::new("/dev/zero")).unwrap_err();
        assert!(format!("{e:#}").contains("/dev/zero: a settings file larger than the cap of 1048576 bytes (1 MiB)"));
    }
}
