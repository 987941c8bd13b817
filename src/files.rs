//! Whole-file inputs of the command line, read with a size cap (`iss::files::read_capped`),
//! and settings files (TOML or JSON: `--pmu-config`, `--ctr-config`, `--ntrace-config`, the
//! N-Trace sidecar) with errors that name the file, where the syntax breaks, or the field
//! whose value is wrong and what is wrong with it.

use anyhow::{bail, Result};
use encoder::encoder::EncoderConfig;
use iss::files::read_capped as read_capped_typed;
use std::path::Path;

/// The most an ELF program given to `ntrace decode` may hold: what `hartscope run` reads.
pub const ELF_CAP: u64 = iss::elf::MAX_ELF_FILE;

/// The most a raw image given to `ntrace decode --raw` may hold: the default RAM of
/// `hartscope run` (the decoder keeps the code, and a decoded-instruction slot per half-word
/// of it, in memory).
pub const RAW_CAP: u64 = 256 << 20;

/// The bytes of `p`, at most `cap`; `what` names the kind of input ("a raw image").
pub fn read_capped(p: &Path, cap: u64, what: &'static str) -> Result<Vec<u8>> {
    Ok(read_capped_typed(p, cap, what)?)
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

/// Settings of type `T` from a TOML file (`.toml`) or JSON (anything else), at most
/// [`iss::files::SETTINGS_CAP`] bytes of UTF-8. A syntax error gives its line and column; a field error
/// names the field (a path into nested tables: `caches.l1d.line`) and what is wrong with its
/// value, found against `template` (a valid `T` with every part present); `what` names the
/// settings in the rest ("PMU", "N-Trace encoder").
pub fn load_settings<T>(p: &Path, what: &str, template: T) -> Result<T>
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    settings_of(p, what, template, settings_value(p, what)?)
}

/// The table a settings file holds, checked as text, TOML or JSON, and a table.
fn settings_value(p: &Path, what: &str) -> Result<serde_json::Value> {
    let bytes = iss::files::read_settings(p)?;
    let shown = p.display();
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{shown}: not a settings file: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let value: serde_json::Value = if p.extension().is_some_and(|e| e == "toml") {
        let table: toml::Table = toml::from_str(&text).map_err(|e| {
            let problem = e.message().trim().to_string();
            match e.span() {
                Some(s) => {
                    let (l, c) = line_col(&text, s.start);
                    anyhow::anyhow!("{shown}: not valid TOML: line {l}, column {c}: {problem}")
                }
                None => anyhow::anyhow!("{shown}: not valid TOML: {problem}"),
            }
        })?;
        serde_json::to_value(table)
            .map_err(|e| anyhow::anyhow!("{shown}: not valid {what} settings: {e}"))?
    } else {
        iss::files::parse_json(text.as_bytes())
            .map_err(|e| anyhow::anyhow!("{shown}: not valid JSON: {e}"))?
    };
    if !value.is_object() {
        bail!(
            "{shown}: not valid {what} settings: expected a table of fields, found {}",
            kind_of(&value)
        );
    }
    Ok(value)
}

/// `value` (a settings file's table) as a `T`, or the field that keeps it from being one.
fn settings_of<T>(p: &Path, what: &str, template: T, value: serde_json::Value) -> Result<T>
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let shown = p.display();
    match T::deserialize(&value) {
        Ok(t) => Ok(t),
        Err(whole) => {
            let template = serde_json::to_value(&template).unwrap_or_default();
            match iss::files::bad_field::<T>(&value, &template) {
                // serde names an unknown field itself.
                Some((_, problem)) if problem.starts_with("unknown field") => {
                    bail!("{shown}: {problem}")
                }
                Some((field, problem)) => bail!("{shown}: field `{field}`: {problem}"),
                None => bail!(
                    "{shown}: not valid {what} settings: {}",
                    iss::files::json_problem(&whole)
                ),
            }
        }
    }
}

/// N-Trace encoder settings (`--ntrace-config`, the sidecar `ntrace dump` and `decode` read).
pub fn load_encoder_config(p: &Path) -> Result<EncoderConfig> {
    load_encoder_settings(p).map(|(c, _)| c)
}

/// [`load_encoder_config`], with the names of the fields the file gives (the others took
/// their defaults).
pub fn load_encoder_settings(p: &Path) -> Result<(EncoderConfig, Vec<String>)> {
    const WHAT: &str = "N-Trace encoder";
    let value = settings_value(p, WHAT)?;
    let given = value
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    Ok((
        settings_of(p, WHAT, EncoderConfig::default(), value)?,
        given,
    ))
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
    use proptest::prelude::*;

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
        assert!(
            e.ends_with("a.json: field `icnt_bits`: invalid value: integer `300`, expected u8"),
            "{e}"
        );
        let e = err("b.json", r#"{"bogus": 1}"#);
        assert!(e.contains("b.json: unknown field `bogus`"), "{e}");
        let e = err("c.json", "{\n \"x\" 1}");
        assert!(
            e.contains("c.json: not valid JSON: line 2, column 6: expected `:`"),
            "{e}"
        );
        let e = err("d.toml", "icnt_bits = 300\n");
        assert!(
            e.contains("d.toml: field `icnt_bits`: invalid value: integer `300`"),
            "{e}"
        );
        let e = err("e.toml", "icnt_bits = 1\nx = \n");
        assert!(e.contains("e.toml: not valid TOML: line 2, column"), "{e}");
        assert!(!e.contains('|'), "no source snippet: {e}");
        let e = err("f.json", "[1, 2]");
        assert!(
            e.contains("f.json: not valid N-Trace encoder settings: expected a table"),
            "{e}"
        );
        let e = err("g.json", r#"{"filter": {"start": 1}}"#);
        assert!(
            e.contains("g.json: field `filter`: missing field `end`"),
            "{e}"
        );
    }

    /// Cases per property test: bounded in `cargo test`, `HARTSCOPE_FUZZ_CASES` for long runs.
    fn fuzz_cases() -> u32 {
        std::env::var("HARTSCOPE_FUZZ_CASES")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(128)
    }

    const FIELDS: &[&str] = &[
        "tr_te_inst_mode",
        "tr_te_context",
        "tr_te_src_bits",
        "tr_te_inst_sync_max",
        "icnt_bits",
        "hist_bits",
        "filter",
        "trace_on",
        "fifo_bytes",
        "retirement",
        "bogus",
    ];

    fn json_value() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            any::<i64>().prop_map(|v| v.to_string()),
            any::<u64>().prop_map(|v| v.to_string()),
            "[0-9]{1,40}",
            any::<f64>().prop_map(|v| format!("{v:?}")),
            any::<bool>().prop_map(|v| v.to_string()),
            Just("null".to_string()),
            "\\PC{0,12}".prop_map(|s| serde_json::to_string(&s).unwrap()),
            Just("\"Single\"".to_string()),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                proptest::collection::vec(("[a-z_]{1,8}", inner), 0..4).prop_map(|v| {
                    let f: Vec<String> = v.iter().map(|(k, x)| format!("\"{k}\": {x}")).collect();
                    format!("{{{}}}", f.join(","))
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

        /// Settings built from the real field names with arbitrary values, in JSON and (the
        /// same converted) TOML, and arbitrary mutations of the text: the loader never
        /// panics, every error names the file, and a field error names a field of the input.
        #[test]
        fn arbitrary_settings_never_panic(
            fields in proptest::collection::vec((0..FIELDS.len(), json_value()), 0..5),
            edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 0..4),
            toml in any::<bool>(),
        ) {
            let body: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("\"{}\": {v}", FIELDS[*k]))
                .collect();
            let json = format!("{{{}}}", body.join(", "));
            let mut text = if toml {
                match serde_json::from_str::<serde_json::Value>(&json)
                    .ok()
                    .and_then(|v| toml::to_string(&v).ok())
                {
                    Some(t) => t.into_bytes(),
                    None => json.clone().into_bytes(),
                }
            } else {
                json.clone().into_bytes()
            };
            for (at, v, kind) in edits {
                let n = text.len();
                match kind {
                    0 if n > 0 => text[at % n] = v,
                    1 => text.insert(at % (n + 1), v),
                    _ => text.truncate(at % (n + 1)),
                }
            }
            let name = if toml { "p.toml" } else { "p.json" };
            let dir = std::env::temp_dir().join(format!("hartscope-prop-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let p = dir.join(name);
            std::fs::write(&p, &text).unwrap();
            let r = load_encoder_config(&p);
            let _ = std::fs::remove_file(&p);
            if let Err(e) = r {
                let e = format!("{e:#}");
                prop_assert!(e.starts_with(&p.display().to_string()), "{e}");
                prop_assert!(!e.contains('\n'), "one line: {e}");
                if let Some(rest) = e.split(": field `").nth(1) {
                    // A path into nested tables: each of its names is in the input.
                    let field = rest.split('`').next().unwrap();
                    let t = String::from_utf8_lossy(&text);
                    for name in field.split('.') {
                        prop_assert!(t.contains(name), "{name} of {field} is not in {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn reads_are_capped() {
        let e = read_capped(Path::new("/dev/zero"), 4096, "a raw image").unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "/dev/zero: larger than the 4 KiB a raw image may hold"
        );
        let e = load_encoder_config(Path::new("/dev/zero")).unwrap_err();
        assert!(
            format!("{e:#}").contains("/dev/zero: larger than the 1 MiB a settings file may hold")
        );
    }
}
