//! The parts of `hartscope bench` that measure what tracing and the hart's models cost: N-Trace
//! capture (and the decoder, and the stream's compression), PMU counting, CTR recording.

use anyhow::{bail, Context, Result};
use encoder::decoder::{Decoder, DecoderConfig, Event, FlowSink};
use encoder::encoder::{EncoderConfig, EncoderStats, TraceControl, BTM, HTM};
use encoder::image::Image;
use iss::ingress::IngressConfig;
use iss::{Config, Machine, NoSink, Sink, Stop};
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;
use std::time::Instant;

#[derive(Serialize, Debug, Default)]
pub struct ModelReport {
    /// Instructions in each run.
    pub instructions: u64,
    /// The hart untraced, without counting or CTR (best of the repeats).
    pub untraced_ips: f64,
    /// With N-Trace HTM capture to a file.
    pub ntrace_htm_ips: f64,
    pub ntrace_htm_fraction: f64,
    /// Instructions the decoder reconstructs per second, on the HTM stream; none when the
    /// program runs code its ELF does not place at that address (a page table maps it
    /// elsewhere: decoding it needs `ntrace decode --alias`).
    pub decoder_ips: Option<f64>,
    /// Bits per instruction of the stream, by configuration.
    pub bits_per_instruction: Vec<(String, f64)>,
    /// All 29 hpm counters counting instruction-class events.
    pub pmu_ips: f64,
    pub pmu_fraction: f64,
    /// The same with the cache, TLB and branch-predictor models on.
    pub pmu_models_ips: f64,
    pub pmu_models_fraction: f64,
    /// CTR recording every transfer in every mode.
    pub ctr_ips: f64,
    pub ctr_fraction: f64,
    /// The tandem writer (Flute's configuration, `WriterConfig::flute`) on every
    /// instruction, its stream thrown away (what it costs the hart, not a disk).
    pub tandem_ips: f64,
    pub tandem_fraction: f64,
}

/// A machine for `program` with `config`, the block compiler on with `jit` (`bench
/// --no-jit`), loaded and booted, its console discarded.
fn machine(program: &Path, jit: bool, config: Config) -> Result<Machine> {
    let mut m = Machine::try_new(Config { jit, ..config })?;
    m.bus.console = iss::bus::Console::Null;
    let prog = iss::elf::load_file(&mut m, program)?;
    m.boot(prog.entry);
    Ok(m)
}

/// Run `m` for `n` instructions with `sink`; the seconds it took.
fn timed<S: Sink>(m: &mut Machine, sink: &mut S, n: u64) -> Result<f64> {
    let start = Instant::now();
    let stop = m.run(sink, Some(n));
    let secs = start.elapsed().as_secs_f64();
    match stop {
        Stop::Exit(0) | Stop::InstructionLimit => Ok(secs),
        other => bail!("the program did not run cleanly: {other:?}"),
    }
}

/// The best instructions per second of `repeat` runs of `f`, which returns (instructions,
/// seconds).
fn best(repeat: u32, mut f: impl FnMut() -> Result<(u64, f64)>) -> Result<(u64, f64)> {
    let mut best: Option<(u64, f64)> = None;
    for _ in 0..repeat {
        let (n, s) = f()?;
        if best.is_none_or(|(bn, bs)| n as f64 / s > bn as f64 / bs) {
            best = Some((n, s));
        }
    }
    best.context("no run")
}

/// Runs `base` and `x` alternately, `repeat` times each, and returns the best of each: the
/// fraction of two figures taken side by side, under the same conditions (this machine's
/// speed drifts by tens of percent over a minute, which would bias figures taken one section
/// after another).
fn paired(
    repeat: u32,
    mut base: impl FnMut() -> Result<(u64, f64)>,
    mut x: impl FnMut() -> Result<(u64, f64)>,
) -> Result<((u64, f64), (u64, f64))> {
    let (mut b, mut t) = (None, None);
    let better = |old: Option<(u64, f64)>, new: (u64, f64)| match old {
        Some(o) if ips(o) >= ips(new) => Some(o),
        _ => Some(new),
    };
    for _ in 0..repeat {
        b = better(b, base()?);
        t = better(t, x()?);
    }
    Ok((b.context("no run")?, t.context("no run")?))
}

fn ips((n, s): (u64, f64)) -> f64 {
    n as f64 / s
}

/// Runs `x` alternately with the untraced runs `base` (see [`paired`]) and prints its line
/// under `label`. Returns its best run and the fraction of the untraced speed it runs at.
fn against_untraced(
    label: &str,
    repeat: u32,
    base: impl FnMut() -> Result<(u64, f64)>,
    x: impl FnMut() -> Result<(u64, f64)>,
) -> Result<((u64, f64), f64)> {
    let (base, x) = paired(repeat, base, x)?;
    let fraction = ips(x) / ips(base);
    eprintln!(
        "  {label:<20} {:>14} insns {:>8.3} s {:>10.1} MIPS  ({fraction:.2} of untraced, alternated)",
        x.0,
        x.1,
        ips(x) / 1e6
    );
    Ok((x, fraction))
}

/// Capture N-Trace with `cfg` for `n` instructions into `out`, as `hartscope run --ntrace`
/// does (port and encoder on their own thread). Returns (instructions, seconds, statistics).
fn capture(
    program: &Path,
    jit: bool,
    cfg: &EncoderConfig,
    n: u64,
    out: &Path,
) -> Result<(u64, f64, EncoderStats)> {
    let mut m = machine(program, jit, Config::default())?;
    let icfg = IngressConfig::default();
    let f = File::create(out).with_context(|| format!("cannot create {}", out.display()))?;
    let port = encoder::capture::start(
        cfg,
        Some(encoder::capture::Named {
            out: BufWriter::with_capacity(1 << 20, f),
            name: out.display().to_string(),
        }),
        None,
        icfg,
        &m.hart.csr,
        false,
    )?;
    let encoder::capture::Port::Threaded(mut cap) = port else {
        bail!("the capture does not run on its own thread");
    };
    let start = Instant::now();
    let stop = m.run(&mut cap, Some(n));
    let outputs = cap.finish().finish()?;
    let secs = start.elapsed().as_secs_f64();
    if !matches!(stop, Stop::Exit(0) | Stop::InstructionLimit) {
        bail!("the program did not run cleanly: {stop:?}");
    }
    Ok((
        m.retired(),
        secs,
        outputs.stats.context("encoder statistics")?,
    ))
}

#[derive(Default)]
struct Count(u64, u64, Option<String>);

impl FlowSink for Count {
    fn pc(&mut self, _: u64) {
        self.0 += 1;
    }
    fn event(&mut self, e: &Event) {
        if let Event::Error { offset, message } = e {
            self.1 += 1;
            if self.2.is_none() {
                self.2 = Some(format!("byte {offset:#x}: {message}"));
            }
        }
    }
}

/// mhpmevent selectors of instruction-class events (docs/pmu.md): loads, stores, atomics,
/// branches taken and not taken, jumps, calls, returns, FP operations, conditional branches,
/// instructions, branch instructions.
const CLASS_EVENTS: [u64; 12] = [
    0x20001, 0x20002, 0x20003, 0x20004, 0x20005, 0x20006, 0x20007, 0x20008, 0x20009, 0x2000d, 0x2,
    0x5,
];

fn counting(program: &Path, jit: bool, models: bool) -> Result<Machine> {
    let mut c = Config {
        sscofpmf: true,
        ..Config::default()
    };
    c.pmu.hpm_counters = 29;
    if models {
        c.pmu = c.pmu.with_all_models();
    }
    let mut m = machine(program, jit, c)?;
    for i in 0..29u16 {
        let sel = CLASS_EVENTS[i as usize % CLASS_EVENTS.len()];
        if !m.set_reg(iss::csr::MHPMEVENT3 + i, sel) {
            bail!("cannot program mhpmevent{}", i + 3);
        }
    }
    Ok(m)
}

fn recording(program: &Path, jit: bool) -> Result<Machine> {
    let c = Config {
        ctr: Some(ctr::CtrConfig::default()),
        ..Config::default()
    };
    let mut m = machine(program, jit, c)?;
    // mctrcontrol (0.1.4): record in M, S and U, every transfer type (no inhibit bits set).
    if !m.set_reg(0x381, 0b111) || !m.hart.ctr.as_ref().is_some_and(|c| c.active()) {
        bail!("cannot switch CTR recording on");
    }
    Ok(m)
}

/// The traced modes' speeds on `program`, `n` instructions each, best of `repeat` runs, each
/// alternated with an untraced run; the block compiler on with `jit`.
pub fn measure(program: &Path, n: u64, repeat: u32, jit: bool) -> Result<ModelReport> {
    let mut r = ModelReport::default();
    // A run of the machine `m` for `n` instructions, untraced.
    let run = |m: Result<Machine>| -> Result<(u64, f64)> {
        let mut m = m?;
        let s = timed(&mut m, &mut NoSink, n)?;
        Ok((m.retired(), s))
    };
    let untraced_run = || run(machine(program, jit, Config::default()));
    let untraced = best(repeat, untraced_run)?;
    r.instructions = untraced.0;
    r.untraced_ips = ips(untraced);
    eprintln!(
        "  hart untraced        {:>14} insns {:>8.3} s {:>10.1} MIPS",
        untraced.0,
        untraced.1,
        r.untraced_ips / 1e6
    );

    // N-Trace.
    let tmp = std::env::temp_dir().join(format!("hartscope-bench-{}.ntr", std::process::id()));
    let htm = EncoderConfig::default();
    let mut stats = None;
    let (traced, fraction) = against_untraced("N-Trace HTM capture", repeat, untraced_run, || {
        let (k, s, st) = capture(program, jit, &htm, n, &tmp)?;
        stats = Some(st);
        Ok((k, s))
    })?;
    r.ntrace_htm_ips = ips(traced);
    r.ntrace_htm_fraction = fraction;
    let elf = std::fs::read(program)?;
    let bytes = std::fs::read(&tmp)?;
    let mut unmapped = None;
    let decoded = best(repeat, || {
        let image = Image::from_elf(&elf, &program.display().to_string())?;
        let mut d = Decoder::new(DecoderConfig::for_encoder(&htm), image)
            .map_err(|e| anyhow::anyhow!("decoder: {e}"))?;
        let mut c = Count::default();
        let start = Instant::now();
        d.decode_all(&bytes, &mut c);
        let s = start.elapsed().as_secs_f64();
        // The flow also has the pc of each instruction that raised an exception (it did
        // not retire): at least every retired instruction, then.
        if c.1 != 0 || c.0 < traced.0 {
            let first = c.2.unwrap_or_default();
            // Code at a virtual address the ELF does not hold: not the decoder's fault.
            if first.contains("outside the program image") {
                unmapped = Some(first);
                return Ok((c.0, s));
            }
            bail!(
                "the decoder gave back {} of {} instructions with {} errors, the first at {first}",
                c.0,
                traced.0,
                c.1
            );
        }
        Ok((c.0, s))
    })?;
    match &unmapped {
        Some(e) => eprintln!(
            "  N-Trace decoder      not measured: the program runs code where its ELF has none \
             ({e}; `ntrace decode --alias` decodes it)"
        ),
        None => {
            r.decoder_ips = Some(ips(decoded));
            eprintln!(
                "  N-Trace decoder      {:>14} insns {:>8.3} s {:>10.1} MIPS",
                decoded.0,
                decoded.1,
                ips(decoded) / 1e6
            );
        }
    }
    let bpi = |st: &EncoderStats, k: u64| st.bytes as f64 * 8.0 / k as f64;
    let mut sizes = vec![("HTM".to_string(), bpi(&stats.context("stats")?, traced.0))];
    for (name, cfg) in [
        (
            "BTM",
            EncoderConfig {
                control: TraceControl {
                    tr_te_inst_mode: BTM,
                    ..TraceControl::default()
                },
                ..EncoderConfig::default()
            },
        ),
        (
            "HTM + implicit return (mode 3)",
            EncoderConfig {
                control: TraceControl {
                    tr_te_inst_mode: HTM,
                    tr_te_inst_implicit_return_mode: 3,
                    ..TraceControl::default()
                },
                ..EncoderConfig::default()
            },
        ),
        (
            "HTM + implicit return + repeated history",
            EncoderConfig {
                control: TraceControl {
                    tr_te_inst_mode: HTM,
                    tr_te_inst_implicit_return_mode: 3,
                    tr_te_inst_en_repeated_history: true,
                    ..TraceControl::default()
                },
                ..EncoderConfig::default()
            },
        ),
    ] {
        let (k, _, st) = capture(program, jit, &cfg, n, &tmp)?;
        sizes.push((name.to_string(), bpi(&st, k)));
    }
    let _ = std::fs::remove_file(&tmp);
    for (name, b) in &sizes {
        eprintln!("  N-Trace {name:<41} {b:>8.3} bits per instruction");
    }
    r.bits_per_instruction = sizes;

    // PMU.
    let (pmu, fraction) = against_untraced("PMU: 29 counters", repeat, untraced_run, || {
        run(counting(program, jit, false))
    })?;
    r.pmu_ips = ips(pmu);
    r.pmu_fraction = fraction;
    let (models, fraction) = against_untraced("PMU + models", repeat, untraced_run, || {
        run(counting(program, jit, true))
    })?;
    r.pmu_models_ips = ips(models);
    r.pmu_models_fraction = fraction;

    // CTR.
    let (ctr, fraction) = against_untraced("CTR recording", repeat, untraced_run, || {
        run(recording(program, jit))
    })?;
    r.ctr_ips = ips(ctr);
    r.ctr_fraction = fraction;

    // The tandem writer.
    let path = program.display().to_string();
    let cfg = tandem::config::WriterConfig::flute();
    let hart = tandem::session::HartConfig {
        jit,
        ..Default::default()
    };
    let (tw, fraction) = against_untraced("tandem writer", repeat, untraced_run, || {
        let (k, s, _) =
            tandem::bench::hart_speed(&elf, &path, hart, n, Some((&cfg, Box::new(io::sink()))))
                .map_err(anyhow::Error::msg)?;
        Ok((k, s))
    })?;
    r.tandem_ips = ips(tw);
    r.tandem_fraction = fraction;
    Ok(r)
}
