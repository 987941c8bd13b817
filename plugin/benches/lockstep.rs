//! Lockstep speed: `Hart::step` and `Hart::step_check` on programs/bin/bench.elf, in
//! retirements per second, beside the untraced run of the same hart (`cargo bench -p plugin`;
//! `HARTSCOPE_BENCH_STEPS` sets the steps per measurement, `HARTSCOPE_BENCH_REPEATS` the
//! repeats). Each measurement is printed, then the range; never a timed test.

use plugin::*;
use std::path::PathBuf;
use std::time::Instant;

/// Retirements the core steps before the checker checks them.
const BATCH: usize = 10_000;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let elf = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../programs/bin/bench.elf");
    let n = env("HARTSCOPE_BENCH_STEPS", 5_000_000);
    let repeats = env("HARTSCOPE_BENCH_REPEATS", 3);
    let cfg = Config {
        console: "none".into(),
        ..Config::default()
    };
    let mut rates: [Vec<f64>; 3] = Default::default();
    for _ in 0..repeats {
        // Untraced run.
        let mut h = Hart::new(&cfg).unwrap();
        h.load_elf(&elf).unwrap();
        let t = Instant::now();
        let (done, _) = h.run(n, None);
        rates[0].push(done as f64 / t.elapsed().as_secs_f64());
        // step() alone.
        let mut h = Hart::new(&cfg).unwrap();
        h.load_elf(&elf).unwrap();
        let t = Instant::now();
        let mut sum = 0u64;
        for _ in 0..n {
            sum = sum.wrapping_add(h.step().next_pc);
        }
        rates[1].push(n as f64 / t.elapsed().as_secs_f64());
        std::hint::black_box(sum);
        // step_check(): a core hart steps a batch (not timed), the checker checks it.
        let mut core = Hart::new(&cfg).unwrap();
        core.load_elf(&elf).unwrap();
        let mut h = Hart::new(&cfg).unwrap();
        h.load_elf(&elf).unwrap();
        let mut batch = Vec::with_capacity(BATCH);
        let mut timed = 0.0;
        let mut done = 0;
        while done < n {
            batch.clear();
            batch.extend((0..BATCH).map(|_| core.step()));
            let t = Instant::now();
            for r in &batch {
                let bad = h.step_check(r).unwrap();
                assert!(bad.is_empty(), "{bad:#?}");
            }
            timed += t.elapsed().as_secs_f64();
            done += BATCH as u64;
        }
        rates[2].push(done as f64 / timed);
    }
    for (name, r) in ["run (untraced)", "step", "step_check"].iter().zip(&rates) {
        let lo = r.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = r.iter().cloned().fold(0.0, f64::max);
        println!(
            "{name:<15} {:.1}-{:.1} M/s over {repeats} runs of {n} steps: {}",
            lo / 1e6,
            hi / 1e6,
            r.iter()
                .map(|x| format!("{:.1}", x / 1e6))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}
