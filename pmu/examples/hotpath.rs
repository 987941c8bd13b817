//! What counting costs the hart: the PMU side of the hot path, per retired instruction, with
//! every hpm counter counting an instruction-class event and sampling (armed, restarted by
//! an "overflow handler" at every LCOFI), against the same loop with counting off.
//! Run with `cargo run --release -p pmu --example hotpath`.
//!
//! The loop stands in for the hart: runs (blocks) of 6 instructions, from a small "decoded
//! instruction cache" of 64 blocks. Two ways to bump the totals:
//! - per instruction: each decoded instruction holds its class, bumped as it executes;
//! - per block: each decoded block holds its class counts (at most 3 classes here), bumped
//!   once per run; a trap in the middle of a block would bump its executed prefix instead.
//!
//! Then `after_run(6)` once per run.

use arch::Priv;
use pmu::{Class, Pmu, PmuConfig, HPM_FIRST};
use std::hint::black_box;
use std::time::Instant;

const RUNS: u64 = 50_000_000;
const RUN_LEN: usize = 6;
const BLOCKS: usize = 64;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Off,
    PerInsn,
    PerBlock,
}

struct Block {
    insn_class: [u8; RUN_LEN],
    counts: [(u8, u8); 3],
}

fn blocks() -> Vec<Block> {
    let pool = [
        Class::Loads,
        Class::Stores,
        Class::FpOps,
        Class::Atomics,
        Class::BranchesTaken,
        Class::Jumps,
    ];
    (0..BLOCKS)
        .map(|b| {
            let mut insn_class = [0u8; RUN_LEN];
            for (k, c) in insn_class.iter_mut().enumerate() {
                *c = pool[(b * 7 + k * 3) % pool.len()] as u8;
            }
            let mut counts = [(Class::Loads as u8, 0u8); 3];
            for (k, c) in counts.iter_mut().enumerate() {
                *c = (pool[(b + k) % pool.len()] as u8, 2);
            }
            Block { insn_class, counts }
        })
        .collect()
}

fn restart_overflowed(p: &mut Pmu) {
    for i in HPM_FIRST..32 {
        let e = p.mhpmevent(i);
        if e >> 63 != 0 {
            p.write_mhpmevent(i, e & !(1 << 63));
            p.write_counter(i, u64::MAX - 1_000_000);
        }
    }
}

fn run(p: &mut Pmu, bl: &[Block], mode: Mode) -> (f64, u64) {
    let t0 = Instant::now();
    let mut lcofi = 0u64;
    let prv = Priv::S;
    for r in 0..RUNS as usize {
        let b = &bl[r % BLOCKS];
        match mode {
            Mode::Off => {}
            Mode::PerInsn => {
                let t = p.totals_mut(prv);
                for &c in &b.insn_class {
                    t[c as usize] += 1;
                }
            }
            Mode::PerBlock => {
                let t = p.totals_mut(prv);
                for &(c, n) in &b.counts {
                    t[c as usize] += n as u64;
                }
            }
        }
        if mode != Mode::Off {
            p.retire(prv, RUN_LEN as u64);
            if p.after_run(RUN_LEN as u64) {
                lcofi += 1;
                restart_overflowed(p);
            }
        }
        black_box(&mut *p);
    }
    let ns = t0.elapsed().as_nanos() as f64 / (RUNS * RUN_LEN as u64) as f64;
    (ns, lcofi)
}

fn main() {
    let bl = blocks();
    let mut p = Pmu::new(PmuConfig::default()).unwrap();
    let events = [
        0x2u64, 0x20001, 0x20002, 0x20003, 0x20009, 0x2000d, 0x5, 0x20006,
    ];
    for i in HPM_FIRST..32 {
        p.write_mhpmevent(i, events[i % events.len()]);
        p.write_counter(i, u64::MAX - 1_000_000 - i as u64 * 7919);
    }
    let (base, _) = run(&mut p, &bl, Mode::Off);
    println!("loop alone: {base:.3} ns/instruction");
    for (name, mode) in [
        ("per instruction", Mode::PerInsn),
        ("per block", Mode::PerBlock),
    ] {
        let (ns, lcofi) = run(&mut p, &bl, mode);
        println!(
            "29 counters sampling, classes bumped {name}: {ns:.3} ns/instruction, {lcofi} LCOFIs; \
             {:.1}% of a 300 MIPS hart's 3.33 ns/instruction",
            100.0 * (ns - base).max(0.0) / 3.333
        );
    }
    // The same with no counter armed (OF set: counting, no sampling).
    for i in HPM_FIRST..32 {
        let e = p.mhpmevent(i);
        p.write_mhpmevent(i, e | 1 << 63);
    }
    let (ns, _) = run(&mut p, &bl, Mode::PerBlock);
    println!(
        "29 counters counting, not sampling, per block: {ns:.3} ns/instruction, {:.1}%",
        100.0 * (ns - base).max(0.0) / 3.333
    );
}
