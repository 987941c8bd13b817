//! The settings file `hartscope run --tandem FILE` writes beside the trace (`FILE.json`):
//! the parameters and options the stream was written with, and the hart's configuration.
//! The protocol cannot carry them ("negotiation ... is outside the scope of this protocol"),
//! so `tandem dump` and `tandem verify` read this file when it is there.

use crate::config::WriterConfig;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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

/// Where the settings of a trace file are kept.
pub fn path_for(trace: &Path) -> PathBuf {
    let mut s = trace.as_os_str().to_owned();
    s.push(".json");
    PathBuf::from(s)
}

impl Sidecar {
    pub fn write(&self, trace: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(path_for(trace), text)
    }

    /// The settings beside `trace`: `None` when there is no file.
    pub fn read(trace: &Path) -> Option<Result<Sidecar, String>> {
        let p = path_for(trace);
        let text = std::fs::read_to_string(&p).ok()?;
        Some(
            serde_json::from_str(&text)
                .map_err(|e| format!("{}: not a tandem settings file: {e}", p.display())),
        )
    }
}
