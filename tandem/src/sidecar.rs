//! The settings file `hartscope run --tandem FILE` writes beside the trace (`FILE.json`, or
//! where `--tandem-sidecar` says): the parameters and options the stream was written with,
//! and the hart's configuration. The protocol cannot carry them ("negotiation ... is outside
//! the scope of this protocol"), so `tandem dump` and `tandem verify` read this file when it
//! is there.
//!
//! Reading is strict, since the file is input like any other: at most
//! [`iss::files::SETTINGS_CAP`] bytes are read, every field is checked for
//! its type and range (the RAM size as `hartscope run --mem` checks it, the parameters as the
//! protocol allows them), and an error names the file, the field (`hart.ram_size`) and what
//! is wrong with it, in words rather than in the JSON parser's.

use crate::config::{Partial, PcMode, Style, WriterConfig};
use crate::limits;
use crate::params::Params;
use iss::files::{parse_json, read_settings, ReadError};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use thiserror::Error;

pub const FORMAT: &str = "bluespec-tandem-trace-2018-11-20";

/// What the verifier needs to know about the hart that ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HartInfo {
    /// RAM size in bytes.
    pub ram_size: u64,
    /// `trap` or `emulate`.
    pub misaligned: String,
    /// The hart's extensions: `sscofpmf`, `pmu`, `ctr` and `sbi` as in `iss::Config`.
    #[serde(default)]
    pub machine: Option<serde_json::Value>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sidecar {
    pub format: String,
    pub writer: WriterConfig,
    pub hart: HartInfo,
    /// The program that ran.
    pub program: Option<String>,
    /// Its entry point (the pc before the first group).
    pub entry: u64,
}

/// The hart's settings beyond RAM and misaligned accesses, as the settings file's
/// `hart.machine` holds them: the one writer of that object ([`apply_machine`] reads it).
pub fn machine_json(c: &iss::Config) -> Value {
    serde_json::json!({
        "isa": c.isa.to_string(),
        "sscofpmf": c.sscofpmf,
        "pmu": c.pmu,
        "ctr": c.ctr,
        "sbi": c.sbi,
        "pmp_regions": c.pmp_regions,
        "pmp_granularity": c.pmp_granularity,
        "tval_zero": c.tval_zero,
        "ram_base": c.ram_base,
        "extra_ram": c.extra_ram,
    })
}

/// Set what `hart.machine` ([`machine_json`]) says on `c`; a field left out keeps `c`'s
/// value (files written before it existed).
pub fn apply_machine(v: &Value, c: &mut iss::Config) -> Result<(), MachineSettingsError> {
    let bad = MachineSettingsError::Json;
    if let Some(isa) = v.get("isa") {
        let isa: String = serde_json::from_value(isa.clone()).map_err(bad)?;
        c.isa = iss::Isa::parse(&isa).map_err(MachineSettingsError::Isa)?;
    }
    if let Some(b) = v.get("sscofpmf").and_then(Value::as_bool) {
        c.sscofpmf = b;
    }
    if let Some(p) = v.get("pmu") {
        c.pmu = serde_json::from_value(p.clone()).map_err(bad)?;
    }
    if let Some(x) = v.get("ctr") {
        c.ctr = serde_json::from_value(x.clone()).map_err(bad)?;
    }
    if let Some(b) = v.get("sbi").and_then(Value::as_bool) {
        c.sbi = b;
    }
    if let Some(n) = v.get("pmp_regions") {
        c.pmp_regions = serde_json::from_value(n.clone()).map_err(bad)?;
    }
    if let Some(n) = v.get("pmp_granularity") {
        c.pmp_granularity = serde_json::from_value(n.clone()).map_err(bad)?;
    }
    if let Some(n) = v.get("tval_zero") {
        c.tval_zero = serde_json::from_value(n.clone()).map_err(bad)?;
    }
    if let Some(n) = v.get("ram_base") {
        c.ram_base = serde_json::from_value(n.clone()).map_err(bad)?;
    }
    if let Some(n) = v.get("extra_ram") {
        c.extra_ram = serde_json::from_value(n.clone()).map_err(bad)?;
    }
    c.check_pmp().map_err(MachineSettingsError::Pmp)
}

/// A settings file's `hart.machine` that [`apply_machine`] cannot apply.
#[derive(Debug, thiserror::Error)]
pub enum MachineSettingsError {
    /// A field of the wrong shape.
    #[error("the hart's extensions: {0}")]
    Json(serde_json::Error),
    #[error("the hart's PMP: {0}")]
    Pmp(iss::machine::PmpError),
    #[error("the hart's ISA: {0}")]
    Isa(iss::isa::IsaError),
}

/// Why a settings file is not usable.
#[derive(Debug, Error)]
pub enum SidecarError {
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error("{}: not a tandem settings file: not JSON at line {line}, column {column}: {what}", file.display())]
    Syntax {
        file: PathBuf,
        line: usize,
        column: usize,
        what: String,
    },
    #[error("{}: {field}: {problem}", file.display())]
    Field {
        file: PathBuf,
        /// The field's path, `hart.ram_size` (`(top level)` for the whole file).
        field: String,
        problem: String,
    },
}

/// Where the settings of a trace file are kept (`FILE.json`: the rule the N-Trace sidecar
/// follows too).
pub use iss::files::sidecar_path as path_for;

impl Sidecar {
    /// Write the settings beside `trace`.
    pub fn write(&self, trace: &Path) -> std::io::Result<()> {
        self.write_to(&path_for(trace))
    }

    /// Write the settings to `file`.
    pub fn write_to(&self, file: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(file, text)
    }

    /// The settings beside `trace`: `None` when there is no file.
    pub fn read(trace: &Path) -> Result<Option<Sidecar>, SidecarError> {
        let p = path_for(trace);
        match std::fs::symlink_metadata(&p) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            _ => Sidecar::load(&p).map(Some),
        }
    }

    /// The settings in `file` (read with a cap of [`iss::files::SETTINGS_CAP`] bytes).
    pub fn load(file: &Path) -> Result<Sidecar, SidecarError> {
        let bytes = read_settings(file)?;
        Sidecar::parse(&bytes, file)
    }

    /// The settings in `bytes`, read from `file` (named in errors).
    pub fn parse(bytes: &[u8], file: &Path) -> Result<Sidecar, SidecarError> {
        let v = parse_json(bytes).map_err(|e| SidecarError::Syntax {
            file: file.to_path_buf(),
            line: e.line,
            column: e.column,
            what: e.problem,
        })?;
        Fields { file }.sidecar(&v)
    }
}

/// A short description of a JSON value for a message.
fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => {
            let mut t: String = s.chars().take(40).collect();
            if t.len() < s.len() {
                t.push_str("...");
            }
            format!("the string {t:?}")
        }
        Value::Array(a) => format!("an array of {} elements", a.len()),
        Value::Object(_) => "an object".into(),
    }
}

/// The field checker: every error names the file and the field.
struct Fields<'a> {
    file: &'a Path,
}

type Res<T> = Result<T, SidecarError>;

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl Fields<'_> {
    fn err<T>(&self, field: &str, problem: impl Into<String>) -> Res<T> {
        Err(SidecarError::Field {
            file: self.file.to_path_buf(),
            field: if field.is_empty() {
                "(top level)".into()
            } else {
                field.into()
            },
            problem: problem.into(),
        })
    }

    fn object<'v>(&self, path: &str, v: &'v Value) -> Res<&'v Map<String, Value>> {
        match v {
            Value::Object(m) => Ok(m),
            _ => self.err(path, format!("expected an object, got {}", describe(v))),
        }
    }

    fn required<'v>(&self, m: &'v Map<String, Value>, path: &str, key: &str) -> Res<&'v Value> {
        match m.get(key) {
            Some(v) => Ok(v),
            None => self.err(&join(path, key), "missing"),
        }
    }

    fn u64(&self, path: &str, v: &Value) -> Res<u64> {
        match v.as_u64() {
            Some(n) => Ok(n),
            None => self.err(
                path,
                format!(
                    "expected a whole number 0..=18446744073709551615, got {}",
                    describe(v)
                ),
            ),
        }
    }

    fn bits(&self, path: &str, v: &Value) -> Res<u8> {
        match v.as_u64().and_then(|n| u8::try_from(n).ok()) {
            Some(n) => Ok(n),
            None => self.err(
                path,
                format!("expected a number of bits (32..64), got {}", describe(v)),
            ),
        }
    }

    fn bool(&self, path: &str, v: &Value) -> Res<bool> {
        match v {
            Value::Bool(b) => Ok(*b),
            _ => self.err(path, format!("expected true or false, got {}", describe(v))),
        }
    }

    fn string<'v>(&self, path: &str, v: &'v Value) -> Res<&'v str> {
        match v {
            Value::String(s) => Ok(s),
            _ => self.err(path, format!("expected a string, got {}", describe(v))),
        }
    }

    fn choice<T: Copy>(&self, path: &str, v: &Value, names: &[(&str, T)]) -> Res<T> {
        let s = v.as_str().unwrap_or_default();
        match names.iter().find(|(n, _)| v.is_string() && *n == s) {
            Some((_, t)) => Ok(*t),
            None => {
                let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
                self.err(
                    path,
                    format!("expected one of {}, got {}", all.join(", "), describe(v)),
                )
            }
        }
    }

    fn sidecar(&self, v: &Value) -> Res<Sidecar> {
        let m = self.object("", v)?;
        let format = self.string("format", self.required(m, "", "format")?)?;
        if format != FORMAT {
            return self.err(
                "format",
                format!("expected {FORMAT:?}, got {}", describe(&m["format"])),
            );
        }
        let writer = self.writer("writer", self.required(m, "", "writer")?)?;
        let hart = self.hart("hart", self.required(m, "", "hart")?)?;
        let program = match m.get("program") {
            None | Some(Value::Null) => None,
            Some(p) => Some(self.string("program", p)?.to_string()),
        };
        let entry = self.u64("entry", self.required(m, "", "entry")?)?;
        Ok(Sidecar {
            format: format.to_string(),
            writer,
            hart,
            program,
            entry,
        })
    }

    fn params(&self, path: &str, v: &Value) -> Res<Params> {
        let m = self.object(path, v)?;
        let mut p = Params::RV64GC;
        for (key, slot) in [
            ("xlen", &mut p.xlen),
            ("flen", &mut p.flen),
            ("mlen", &mut p.mlen),
        ] {
            if let Some(v) = m.get(key) {
                *slot = self.bits(&join(path, key), v)?;
            }
        }
        match p.check() {
            Ok(()) => Ok(p),
            Err(e) => self.err(path, e.to_string()),
        }
    }

    fn writer(&self, path: &str, v: &Value) -> Res<WriterConfig> {
        let m = self.object(path, v)?;
        let mut c = WriterConfig::flute();
        for (key, v) in m {
            let f = join(path, key);
            match key.as_str() {
                "params" => c.params = self.params(&f, v)?,
                "style" => {
                    c.style = self.choice(
                        &f,
                        v,
                        &[
                            ("flute", Style::Flute),
                            ("spec", Style::Spec),
                            ("flute-strict", Style::FluteStrict),
                        ],
                    )?
                }
                "pc" => {
                    c.pc = self.choice(
                        &f,
                        v,
                        &[("full", PcMode::Full), ("increment", PcMode::Increment)],
                    )?
                }
                "incremental" => c.incremental = self.bool(&f, v)?,
                "implicit_end" => c.implicit_end = self.bool(&f, v)?,
                "eaddr" => c.eaddr = self.bool(&f, v)?,
                "paddr" => c.paddr = self.bool(&f, v)?,
                "store_data" => c.store_data = self.bool(&f, v)?,
                "pc_paddr" => c.pc_paddr = self.bool(&f, v)?,
                "mtime" => c.mtime = self.bool(&f, v)?,
                "memory" => c.memory = self.bool(&f, v)?,
                "image" => c.image = self.bool(&f, v)?,
                "counters" => c.counters = self.bool(&f, v)?,
                "start_state" => c.start_state = self.bool(&f, v)?,
                "omit" => c.omit = self.partial(&f, v)?,
                // Fields of later versions are left to them.
                _ => {}
            }
        }
        Ok(c)
    }

    fn partial(&self, path: &str, v: &Value) -> Res<Partial> {
        let m = self.object(path, v)?;
        let mut p = Partial::default();
        for (key, v) in m {
            let f = join(path, key);
            match key.as_str() {
                "gpr" => p.gpr = self.bool(&f, v)?,
                "fpr" => p.fpr = self.bool(&f, v)?,
                "csr" => p.csr = self.bool(&f, v)?,
                "trap" => p.trap = self.bool(&f, v)?,
                "pc" => p.pc = self.bool(&f, v)?,
                "insn" => p.insn = self.bool(&f, v)?,
                "priv" => p.priv_ = self.bool(&f, v)?,
                "eaddr" => p.eaddr = self.bool(&f, v)?,
                "store_data" => p.store_data = self.bool(&f, v)?,
                "csrs" => {
                    let Value::Array(a) = v else {
                        return self.err(
                            &f,
                            format!("expected an array of CSR numbers, got {}", describe(v)),
                        );
                    };
                    for (i, c) in a.iter().enumerate() {
                        match c.as_u64().filter(|n| *n < 0x1000) {
                            Some(n) => p.csrs.push(n as u16),
                            None => {
                                return self.err(
                                    &format!("{f}[{i}]"),
                                    format!("expected a CSR number 0..=4095, got {}", describe(c)),
                                )
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(p)
    }

    fn hart(&self, path: &str, v: &Value) -> Res<HartInfo> {
        let m = self.object(path, v)?;
        let f = join(path, "ram_size");
        let ram_size = self.u64(&f, self.required(m, path, "ram_size")?)?;
        if let Err(e) = limits::check_ram_size(ram_size) {
            return self.err(&f, format!("{e} (as `hartscope run --mem` requires)"));
        }
        let f = join(path, "misaligned");
        let misaligned = self.choice(
            &f,
            self.required(m, path, "misaligned")?,
            &[("trap", "trap"), ("emulate", "emulate")],
        )?;
        let machine = match m.get("machine") {
            None | Some(Value::Null) => None,
            Some(v) => {
                self.machine(&join(path, "machine"), v)?;
                Some(v.clone())
            }
        };
        Ok(HartInfo {
            ram_size,
            misaligned: misaligned.to_string(),
            machine,
        })
    }

    /// The hart's extensions, checked for the types the verifier reads them as.
    fn machine(&self, path: &str, v: &Value) -> Res<()> {
        let m = self.object(path, v)?;
        for (key, v) in m {
            let f = join(path, key);
            match key.as_str() {
                "sscofpmf" | "sbi" => {
                    self.bool(&f, v)?;
                }
                "pmp_regions" | "pmp_granularity" | "tval_zero" | "ram_base" | "extra_ram" => {
                    let mut c = iss::Config::default();
                    let one = serde_json::json!({ key.as_str(): v });
                    if let Err(e) = apply_machine(&one, &mut c) {
                        return self.err(&f, e.to_string());
                    }
                }
                "pmu" => match like(|c| &c.pmu, v) {
                    Err(e) => {
                        // Every model present, so that their fields are followed too.
                        let d = iss::Config::default().pmu.with_all_models();
                        let t = serde_json::to_value(&d).unwrap_or_default();
                        return match bad_field_like(&d, v, &t) {
                            Some((inner, what)) => self.err(&format!("{f}.{inner}"), what),
                            None => self.err(&f, format!("not PMU settings: {e}")),
                        };
                    }
                    // Sizes become the models' allocations.
                    Ok(p) => {
                        if let Err(e) = p.validate() {
                            return self.err(&f, e.to_string());
                        }
                    }
                },
                "ctr" => match like(|c| &c.ctr, v) {
                    Err(e) => return self.err(&f, format!("not CTR settings: {e}")),
                    Ok(Some(c)) => {
                        if let Err(e) = c.validate() {
                            return self.err(&f, e.to_string());
                        }
                    }
                    Ok(None) => {}
                },
                _ => {}
            }
        }
        Ok(())
    }
}

pub use iss::files::bad_field;

/// `v` read as the type of a field of `iss::Config` (the field picked by `_field`).
fn like<T: serde::de::DeserializeOwned>(
    _field: fn(&iss::Config) -> &T,
    v: &Value,
) -> Result<T, serde_json::Error> {
    T::deserialize(v)
}

/// [`bad_field`] for the type of `_like`.
fn bad_field_like<T: serde::de::DeserializeOwned>(
    _like: &T,
    v: &Value,
    template: &Value,
) -> Option<(String, String)> {
    bad_field::<T>(v, template)
}
