//! Helpers shared by the iss integration tests.
#![allow(dead_code)]

/// Cases for a property test: `HARTSCOPE_FUZZ_CASES` when set (long nightly runs), else
/// `default` (a few seconds in a normal `cargo test`).
pub fn fuzz_cases(default: u32) -> u32 {
    std::env::var("HARTSCOPE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}
