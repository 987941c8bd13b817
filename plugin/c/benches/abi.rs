//! How fast the C ABI steps and checks: `hs_step`, `hs_step_check`, `hs_step_rvfi` and
//! `hs_step_check_rvfi` per second on programs/bin/bench.elf, next to the Rust API's
//! `Hart::step` (the ABI's own cost) and `hs_run` (the hart without retirements).
//!
//!   cargo bench -p hartscope-c --bench abi [-- STEPS] [-- PHASE]
//!
//! PHASE (run, rust, step, check, rvfi) runs one measurement alone, for a profiler.
//!
//! A report, never a test: the numbers depend on the machine. Targets (issue 15): 20 M steps
//! and 10 M checks per second.

use hartscope::*;
use std::ffi::CString;
use std::path::PathBuf;
use std::time::Instant;

const CHUNK: usize = 100_000;

fn elf() -> CString {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../programs/bin/bench.elf");
    CString::new(p.to_str().unwrap()).unwrap()
}

fn hart() -> *mut HsHart {
    let mut h = std::ptr::null_mut();
    let cfg = CString::new(r#"{"console": "none"}"#).unwrap();
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(hs_new(cfg.as_ptr(), &mut h), HS_OK);
        assert_eq!(hs_load_elf(h, elf().as_ptr(), std::ptr::null_mut()), HS_OK);
    }
    h
}

fn rate(what: &str, n: usize, secs: f64) {
    println!(
        "{what:<28} {:>7.2} M/s  ({n} in {secs:.3} s)",
        n as f64 / secs / 1e6
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let steps: usize = args
        .iter()
        .find_map(|a| a.parse().ok())
        .unwrap_or(20_000_000);
    let steps = steps.div_ceil(CHUNK) * CHUNK;
    let only = args
        .iter()
        .find(|a| a.parse::<usize>().is_err() && !a.starts_with('-'));
    let run = |phase: &str| only.is_none_or(|o| o == phase);
    // SAFETY (in the functions below): live handles and valid pointers throughout.
    if run("run") {
        bench_run(steps);
    }
    if run("rust") {
        bench_rust(steps);
    }
    if run("step") {
        bench_step(steps);
    }
    if run("check") {
        bench_check(steps);
    }
    if run("rvfi") {
        bench_rvfi(steps);
    }
}

/// The hart alone, no retirements.
fn bench_run(steps: usize) {
    let h = hart();
    let mut rr = RunResult::default();
    let t = Instant::now();
    // SAFETY: a live handle, valid pointers.
    unsafe {
        assert_eq!(hs_run(h, steps as u64, std::ptr::null(), &mut rr), HS_OK);
        rate("hs_run", rr.steps as usize, t.elapsed().as_secs_f64());
        hs_free(h);
    }
}

/// The Rust API's step: what the ABI adds is the difference to hs_step.
fn bench_rust(steps: usize) {
    let cfg = plugin::Config::from_json(r#"{"console": "none"}"#).unwrap();
    let mut h = plugin::Hart::new(&cfg).unwrap();
    h.load_elf(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../programs/bin/bench.elf"))
        .unwrap();
    let mut sum = 0u64;
    let t = Instant::now();
    for _ in 0..steps {
        sum = sum.wrapping_add(std::hint::black_box(h.step()).next_pc);
    }
    rate("Hart::step (Rust)", steps, t.elapsed().as_secs_f64());
    std::hint::black_box(sum);
}

fn bench_step(steps: usize) {
    let h = hart();
    let mut r = Retirement::default();
    let mut sum = 0u64;
    let t = Instant::now();
    // SAFETY: a live handle, valid pointers.
    unsafe {
        for _ in 0..steps {
            hs_step(h, &mut r);
            sum = sum.wrapping_add(std::hint::black_box(&r).next_pc);
        }
        rate("hs_step", steps, t.elapsed().as_secs_f64());
        hs_free(h);
    }
    std::hint::black_box(sum);
}

/// Retirements made in chunks by one hart, checked by another; only the checking is timed.
fn bench_check(steps: usize) {
    let (core, reference) = (hart(), hart());
    let mut chunk = vec![Retirement::default(); CHUNK];
    let mut checking = 0.0;
    let mut bad = 0;
    // SAFETY: live handles, valid pointers.
    unsafe {
        for _ in 0..steps / CHUNK {
            for r in chunk.iter_mut() {
                hs_step(core, r);
            }
            let t = Instant::now();
            for r in &chunk {
                bad += hs_step_check(reference, r);
            }
            checking += t.elapsed().as_secs_f64();
        }
        assert_eq!(bad, 0, "the check found mismatches");
        rate("hs_step_check", steps, checking);
        hs_free(core);
        hs_free(reference);
    }
}

/// The same as RVFI.
fn bench_rvfi(steps: usize) {
    let (core, reference) = (hart(), hart());
    let mut chunk = vec![Rvfi::default(); CHUNK];
    let (mut stepping, mut checking) = (0.0, 0.0);
    let mut bad = 0;
    // SAFETY: live handles, valid pointers.
    unsafe {
        for _ in 0..steps / CHUNK {
            let t = Instant::now();
            for r in chunk.iter_mut() {
                hs_step_rvfi(core, r);
            }
            stepping += t.elapsed().as_secs_f64();
            let t = Instant::now();
            for r in &chunk {
                bad += hs_step_check_rvfi(reference, r);
            }
            checking += t.elapsed().as_secs_f64();
        }
        assert_eq!(bad, 0, "the check found mismatches");
        rate("hs_step_rvfi", steps, stepping);
        rate("hs_step_check_rvfi", steps, checking);
        hs_free(core);
        hs_free(reference);
    }
}
