//! Helpers shared by the integration tests: the shipped programs, recording a stream,
//! verifying one.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use tandem::config::WriterConfig;
use tandem::session::{record, HartConfig};
use tandem::verify::{verify, Report, VerifyConfig};

/// The workspace's programs/bin directory.
pub fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/bin")
}

/// Every shipped program that runs on its own: (name, ELF bytes). Left out: the SBI payloads,
/// whose source says `hartscope-options: --sbi builtin` (fw_payload, kernel_boot, ...):
/// without the SBI they make a few calls and then trap for ever at pc 0 (tests/firmware.rs
/// and tests/boot_args.rs run them as meant); a stream of that trap loop is a fixed point
/// that no checker can tell from a copy of itself.
pub fn programs() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(bin_dir())
        .expect("programs/bin")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "elf"))
        .filter(|p| !needs_sbi(&p.file_stem().unwrap().to_string_lossy()))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// Whether the program's source (programs/NAME.S or .c) asks for the built-in SBI.
fn needs_sbi(name: &str) -> bool {
    let dir = bin_dir().join("..");
    ["S", "c"].iter().any(|ext| {
        std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).is_ok_and(|src| {
            src.lines()
                .any(|l| l.contains("hartscope-options:") && l.contains("--sbi builtin"))
        })
    })
}

pub fn program(name: &str) -> Vec<u8> {
    std::fs::read(bin_dir().join(format!("{name}.elf"))).expect("program")
}

/// Record a program's stream in memory.
pub fn stream(name: &str, elf: &[u8], cfg: &WriterConfig, limit: Option<u64>) -> Vec<u8> {
    let (bytes, _, _) =
        record(elf, name, HartConfig::default(), cfg, limit, Vec::new()).expect("recording");
    bytes
}

/// The verifier's settings for a stream written with `cfg`.
pub fn verify_config(cfg: &WriterConfig) -> VerifyConfig {
    let mut v = VerifyConfig {
        params: cfg.params,
        max_mismatches: 20,
        ..Default::default()
    };
    v.absent = cfg.omit.clone();
    v.flute_strict = cfg.style == tandem::Style::FluteStrict;
    v
}

pub fn check(name: &str, elf: &[u8], bytes: &[u8], cfg: &WriterConfig) -> Report {
    verify(verify_config(cfg), Some((elf, name)), bytes)
}

pub fn show(r: &Report) -> String {
    let mut out = Vec::new();
    r.write_human(&mut out).unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

/// Cases of a property test: `default` in a normal run (a few seconds), or the number in
/// the environment variable `HARTSCOPE_FUZZ_CASES` (the nightly long run).
pub fn fuzz_cases(default: u32) -> u32 {
    std::env::var("HARTSCOPE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// Run `f` on a thread of its own and return its result; fail the test, naming `what`, if it
/// has not finished after `secs` seconds (a hang is a finding like a panic).
pub fn within<T: Send + 'static>(
    secs: u64,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
    });
    match rx.recv_timeout(std::time::Duration::from_secs(secs)) {
        Ok(Ok(v)) => v,
        Ok(Err(p)) => std::panic::resume_unwind(p),
        Err(_) => panic!("{what}: still running after {secs} s (a hang)"),
    }
}
