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

/// An M-mode trap handler that steps over the trapping instruction (`mepc += 4`, so that
/// random code goes on after a trap rather than looping at it), using register `x[t]`, as
/// little-endian bytes.
pub fn step_over_handler(t: u32) -> Vec<u8> {
    [
        (0x341 << 20) | (2 << 12) | (t << 7) | 0x73, // csrr t, mepc
        (4 << 20) | (t << 15) | (t << 7) | 0x13,     // addi t, t, 4
        (0x341 << 20) | (t << 15) | (1 << 12) | 0x73, // csrw mepc, t
        0x3020_0073u32,                              // mret
    ]
    .iter()
    .flat_map(|w: &u32| w.to_le_bytes())
    .collect()
}
