//! `hartscope run`: load an ELF, run it, report.

use crate::trace::{EncoderOut, PortThread};
use crate::trace::{Outputs, TraceArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use encoder::encoder::{Encoder, EncoderStats, EncoderThread};
use iss::commitlog::CommitLog;
use iss::ingress::{Capture, IngressPort, Retirement};
use iss::{Config, Machine, Misaligned, NoSink, Sink, Stop};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Exit status for a host-side error (bad options, unreadable or malformed ELF, I/O failure).
pub const EXIT_HOST_ERROR: u8 = 2;
/// Exit status when `--max-insns` was reached before the guest exited.
pub const EXIT_INSN_LIMIT: u8 = 124;
/// Exit status when the guest can make no progress: a trap loop, or WFI with nothing to wake it.
pub const EXIT_STUCK: u8 = 125;
/// Exit status when the guest asked the test finisher for a reset.
pub const EXIT_RESET: u8 = 126;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program: an RV64 little-endian ELF executable.
    pub program: PathBuf,
    /// RAM size at 0x8000_0000, in bytes or with a K, M or G suffix.
    #[arg(long, default_value = "256M", value_parser = parse_size, allow_hyphen_values = true)]
    pub mem: u64,
    /// Stop after this many retired instructions (exit status 124).
    #[arg(long, allow_hyphen_values = true)]
    pub max_insns: Option<u64>,
    /// Write Spike's --log-commits format to FILE ('-' for standard output).
    #[arg(long, value_name = "FILE")]
    pub log_commits: Option<PathBuf>,
    /// Write the memory between begin_signature and end_signature, one 32-bit word per line.
    #[arg(long, value_name = "FILE")]
    pub signature: Option<PathBuf>,
    /// Bytes the UART's receiver delivers to the guest, in order, read from FILE as the guest
    /// consumes them ('-' for standard input; a FIFO works). Without it, reads of the receive
    /// register find no data.
    #[arg(long, value_name = "FILE")]
    pub uart_input: Option<PathBuf>,
    /// Misaligned loads and stores: trap (raise the misaligned exception) or emulate.
    #[arg(long, value_enum, default_value_t = MisalignedArg::Trap)]
    pub misaligned: MisalignedArg,
    /// No summary line on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// Wait for GDB on 127.0.0.1:PORT (0: a free port, printed) and run under its control:
    /// registers (GPRs, FPRs, CSRs, `$priv`), physical memory, breakpoints, watchpoints,
    /// stepping, Ctrl-C; the guest's exit is reported to GDB. Traces are the same as
    /// without GDB. `detach` lets the run go on; `kill` ends it (exit status 137).
    #[arg(long, value_name = "PORT")]
    pub gdb: Option<u16>,
    #[command(flatten)]
    pub hart: crate::hart_args::HartArgs,
    #[command(flatten)]
    pub trace: crate::trace::TraceArgs,
    #[command(flatten)]
    pub tandem: crate::tandem_cmd::TandemRunArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum MisalignedArg {
    Trap,
    Emulate,
}

/// Parse `256M`, `1G`, `4096`, `64K`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mul) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let mul = match c.to_ascii_uppercase() {
                'K' => 1u64 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => return Err(format!("unknown size suffix '{c}' (use K, M or G)")),
            };
            (&s[..i], mul)
        }
        _ => (s, 1),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a size (e.g. 256M)"))?;
    let v = n
        .checked_mul(mul)
        .ok_or_else(|| format!("'{s}' is too large"))?;
    if v == 0 || v % 4096 != 0 {
        return Err(format!(
            "'{s}': the size must be a non-zero multiple of 4 KiB"
        ));
    }
    if v > iss::bus::MAX_RAM_SIZE {
        return Err(format!("'{s}': at most 1 TiB of RAM"));
    }
    Ok(v)
}

/// `hartscope run`: build the machine the options describe, load the program, run it with
/// the outputs asked for, report, and turn how it stopped into the exit status.
pub fn run(args: RunArgs) -> Result<ExitCode> {
    let config = args.hart.config(Config {
        ram_size: args.mem,
        misaligned: match args.misaligned {
            MisalignedArg::Trap => Misaligned::Trap,
            MisalignedArg::Emulate => Misaligned::Emulate,
        },
        ..Config::default()
    })?;
    let mut m = Machine::try_new(config).map_err(|e| match e {
        iss::machine::ConfigError::Ram(r) => anyhow::anyhow!("--mem: {r}"),
        e => e.into(),
    })?;
    let prog = iss::elf::load_file(&mut m, &args.program)?;
    m.boot(prog.entry);
    args.hart.check_boot(&m, &prog)?;
    // Listen before any output is created: a port in use is reported first.
    let mut gdb = args.gdb.map(crate::gdb::Server::listen).transpose()?;
    if let Some(path) = &args.uart_input {
        // Streamed as the guest reads (a FIFO, /dev/zero, '-' for standard input).
        let source: Box<dyn std::io::Read + Send> = if path.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            if path.is_dir() {
                bail!("--uart-input {}: is a directory", path.display());
            }
            Box::new(
                File::open(path)
                    .with_context(|| format!("--uart-input: cannot open {}", path.display()))?,
            )
        };
        m.bus.uart.input.set_source(source);
    }

    let log = match &args.log_commits {
        None => None,
        Some(path) => {
            // The log is written in large chunks by its own thread: no buffering needed here.
            let out: Box<dyn Write + Send> = if path.as_os_str() == "-" {
                Box::new(std::io::stdout())
            } else {
                Box::new(
                    crate::prealloc::PreallocFile::create(path).with_context(|| {
                        format!("--log-commits: cannot create {}", path.display())
                    })?,
                )
            };
            Some(CommitLog::new(out))
        }
    };
    // At most one output may own standard output; while a binary stream does, the guest's
    // console is kept and goes to standard error when the run ends (however it ends).
    let dash = |p: Option<&Path>| p.is_some_and(|p| p.as_os_str() == "-");
    let on_stdout: Vec<&str> = [
        ("--log-commits -", dash(args.log_commits.as_deref())),
        ("--ntrace -", dash(args.trace.ntrace.as_deref())),
        ("--tandem -", args.tandem.to_stdout()),
    ]
    .into_iter()
    .filter_map(|(name, on)| on.then_some(name))
    .collect();
    if on_stdout.len() > 1 {
        bail!(
            "{} would all write to standard output: give files to all but one",
            on_stdout.join(" and ")
        );
    }
    let console_kept = dash(args.trace.ntrace.as_deref()) || args.tandem.to_stdout();
    if console_kept {
        m.bus.console = iss::bus::Console::Capture(Vec::new());
    }
    let tandem = args.tandem.start(&mut m, &prog, &args.program)?;
    let tandem_name = args
        .tandem
        .tandem
        .as_deref()
        .map(crate::tandem_cmd::stream_name)
        .unwrap_or_default();
    if !args.trace.wanted() && args.trace.ingress_csv_flavour.is_some() {
        args.trace.csv_flavour(&Default::default())?;
    }
    let trace = if args.trace.wanted() {
        Some(start_trace(
            &args.trace,
            &m,
            log.is_some() || tandem.is_some() || gdb.is_some(),
        )?)
    } else {
        None
    };

    let start = Instant::now();
    let progress = crate::progress::Progress::start(
        crate::progress::wanted(args.quiet, true) && gdb.is_none(),
        "hartscope run",
        crate::progress::Unit::Instructions,
        m.progress(),
        args.max_insns,
    );
    let run = run_sinks(
        &mut m,
        log,
        trace,
        tandem,
        args.max_insns,
        args.log_commits.as_deref(),
        &tandem_name,
        gdb.as_mut(),
    );
    progress.finish();
    if let (true, iss::bus::Console::Capture(text)) = (console_kept, &mut m.bus.console) {
        let mut e = std::io::stderr().lock();
        let _ = e.write_all(&std::mem::take(text)).and_then(|()| e.flush());
    }
    let (stop, stats) = run?;
    let secs = start.elapsed().as_secs_f64();
    match gdb.and_then(|g| g.outcome) {
        None => {}
        Some(crate::gdb::Outcome::Killed) => {
            if !args.quiet {
                eprintln!(
                    "hartscope: killed by gdb at pc {:#x} after {} instructions",
                    m.hart.pc,
                    m.retired()
                );
            }
            return Ok(ExitCode::from(crate::gdb::EXIT_KILLED));
        }
        Some(crate::gdb::Outcome::Lost(why)) => {
            eprintln!(
                "hartscope: error: --gdb: {why}; the run was stopped at pc {:#x} after {} \
                 instructions",
                m.hart.pc,
                m.retired()
            );
            return Ok(ExitCode::from(EXIT_HOST_ERROR));
        }
    }

    if let Some(path) = &args.signature {
        write_signature(&m, &prog, path)?;
    }

    args.hart.reports(&m, &prog)?;
    let retired = m.retired();
    if let Some(stats) = &stats {
        if args.trace.stats {
            print_stats(stats, retired);
        }
    }
    if !args.quiet {
        eprintln!(
            "hartscope: {} instructions in {:.3} s ({:.1} MIPS)",
            retired,
            secs,
            retired as f64 / secs.max(1e-9) / 1e6
        );
    }
    let sbi_note = crate::hart_args::sbi_end_note(&m);
    Ok(match stop {
        Stop::Exit(code) => {
            if let Some(note) = sbi_note.filter(|_| !args.quiet) {
                eprintln!("{note}");
            }
            if code > 255 && !args.quiet {
                eprintln!("hartscope: the guest exited with code {code} (reported modulo 256)");
            }
            ExitCode::from((code & 0xff) as u8)
        }
        Stop::InstructionLimit => {
            eprintln!(
                "hartscope: stopped at the instruction limit ({} retired) at pc {:#x}",
                retired, m.hart.pc
            );
            ExitCode::from(EXIT_INSN_LIMIT)
        }
        Stop::TrapLoop { pc, cause, tval } => {
            eprintln!(
                "hartscope: the guest is stuck in a trap loop: {} at pc {:#x} (tval {:#x}) keeps \
                 trapping with no instruction retiring",
                cause, pc, tval
            );
            ExitCode::from(EXIT_STUCK)
        }
        Stop::WaitForever { .. } if m.sbi().stopped => {
            if let Some(note) = sbi_note {
                eprintln!("{note}");
            }
            ExitCode::from(EXIT_STUCK)
        }
        Stop::WaitForever { pc } => {
            eprintln!(
                "hartscope: the guest waits in WFI at pc {:#x} with no interrupt that could wake it",
                pc
            );
            ExitCode::from(EXIT_STUCK)
        }
        Stop::ResetRequested => {
            eprintln!(
                "hartscope: the guest asked the test finisher for a reset, which is not modelled"
            );
            ExitCode::from(EXIT_RESET)
        }
        Stop::HostIoError => {
            // Whichever of the host's channels failed (the sinks' own failures were reported
            // when they were finished).
            if let Some(e) = m.bus.console.error() {
                eprintln!(
                    "hartscope: error: cannot write the guest's output to standard output: {e}; \
                     the run was stopped"
                );
            }
            if let Some(e) = m.bus.uart.input.error() {
                let from = match args.uart_input.as_deref() {
                    Some(p) if p.as_os_str() != "-" => p.display().to_string(),
                    _ => "standard input".to_string(),
                };
                eprintln!(
                    "hartscope: error: --uart-input {from}: cannot read: {e}; the run was stopped"
                );
            }
            ExitCode::from(EXIT_HOST_ERROR)
        }
    })
}

fn write_signature(m: &Machine, prog: &iss::elf::Program, path: &PathBuf) -> Result<()> {
    let (off, len) = iss::elf::signature_range(m, prog).context("--signature")?;
    // Streamed from RAM: the range may be as large as RAM.
    let write = || -> std::io::Result<()> {
        let mut out = BufWriter::new(File::create(path)?);
        for w in m.bus.ram.bytes(off, len).chunks(4) {
            let mut b = [0u8; 4];
            b[..w.len()].copy_from_slice(w);
            writeln!(out, "{:08x}", u32::from_le_bytes(b))?;
        }
        out.flush()
    };
    write().with_context(|| format!("--signature: cannot write {}", path.display()))
}

/// The ingress port with its outputs: on a thread of its own fed with the runs the hart
/// records (the fast way), in line on the hart's thread (when full records are produced anyway,
/// for the commit log), or in line with data trace (which needs full records).
pub enum Port {
    Threaded(Capture<PortThread>),
    Inline(IngressPort<Outputs, false>),
    Records(IngressPort<Outputs, true>),
}

impl Port {
    fn finish(self) -> std::io::Result<Outputs> {
        match self {
            Port::Threaded(c) => c.finish().finish(),
            Port::Inline(p) => p.finish(),
            Port::Records(p) => p.finish(),
        }
    }
}

/// Start the ingress port and its outputs. `records`: the hart produces full records for
/// another consumer anyway.
fn start_trace(t: &TraceArgs, m: &Machine, records: bool) -> Result<Port> {
    let enc = t.encoder_config()?;
    let icfg = t.ingress_config(&enc)?;
    let threaded = !icfg.data && !records;
    let encoder = match &t.ntrace {
        Some(path) => {
            let (f, cfg_path) = open_ntrace(path, t.ntrace_sidecar.as_deref())?;
            std::fs::write(&cfg_path, serde_json::to_string_pretty(&enc)?)
                .with_context(|| format!("cannot write {}", cfg_path.display()))?;
            let out = BufWriter::with_capacity(1 << 20, f);
            Some(if threaded {
                EncoderOut::Inline(Box::new(Encoder::new(enc.clone(), out)?))
            } else {
                EncoderOut::Thread(EncoderThread::new(enc.clone(), out)?)
            })
        }
        None => None,
    };
    let flavour = t.csv_flavour(&icfg)?;
    let writer = match &t.ingress {
        Some(path) => Some(
            encoder::writers::open_writer(path, icfg.retirement == Retirement::Single, flavour)
                .with_context(|| format!("--ingress {}", path.display()))?,
        ),
        None => None,
    };
    let out = Outputs {
        encoder,
        writer,
        stats: None,
        encoder_name: t.ntrace.as_deref().map_or(String::new(), |p| {
            if p.as_os_str() == "-" {
                "the N-Trace stream to standard output".into()
            } else {
                p.display().to_string()
            }
        }),
        writer_name: t
            .ingress
            .as_deref()
            .map_or(String::new(), |p| p.display().to_string()),
    };
    Ok(if icfg.data {
        Port::Records(IngressPort::new(icfg, out, &m.hart.csr))
    } else if threaded {
        let cap = Capture::new(
            &icfg,
            PortThread::spawn(IngressPort::new(icfg.clone(), out, &m.hart.csr))
                .context("cannot start the ingress port's thread")?,
            &m.hart.csr,
        );
        Port::Threaded(cap)
    } else {
        Port::Inline(IngressPort::new(icfg, out, &m.hart.csr))
    })
}

/// The trace's output (`-`: standard output) and where its settings go: `--ntrace-sidecar`,
/// else beside a trace that is (or will be) a regular file. Beside standard output, a device
/// or a pipe there is no place for them (`/dev/null.json`): that needs `--ntrace-sidecar`.
fn open_ntrace(path: &Path, side: Option<&Path>) -> Result<(File, PathBuf)> {
    let stdout = path.as_os_str() == "-";
    let cfg_path = match side {
        Some(s) => s.to_path_buf(),
        None if stdout => bail!(
            "--ntrace -: the trace goes to standard output, so its settings (which `ntrace \
             decode` needs) need a file of their own: give --ntrace-sidecar FILE"
        ),
        None => match std::fs::metadata(path) {
            Ok(md) if !md.is_file() => bail!(
                "--ntrace {}: not a regular file (a device, a pipe or a directory), so its \
                 settings cannot go beside it as {}: give --ntrace-sidecar FILE",
                path.display(),
                sidecar(path).display()
            ),
            _ => sidecar(path),
        },
    };
    let f = if stdout {
        use std::os::fd::AsFd;
        let fd = std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .context("--ntrace -: cannot use standard output")?;
        File::from(fd)
    } else {
        File::create(path).with_context(|| format!("cannot create {}", path.display()))?
    };
    Ok((f, cfg_path))
}

/// Where `ntrace decode` finds the encoder's settings for a trace file.
pub fn sidecar(trace: &Path) -> PathBuf {
    let mut s = trace.as_os_str().to_owned();
    s.push(".json");
    PathBuf::from(s)
}

type LogSink = CommitLog<Box<dyn Write + Send>>;

/// The consumers of full retirement records present in a run (each optional), as one sink.
/// Used whenever any of them is asked for; the ingress port alone runs on the cheaper
/// straight-line runs instead.
pub struct Recorders {
    pub log: Option<LogSink>,
    pub port: Option<Port>,
    pub tandem: Option<crate::tandem_cmd::TandemSink>,
}

impl Sink for Recorders {
    const ENABLED: bool = true;

    #[inline]
    fn retire(&mut self, r: &iss::Retired) {
        if let Some(l) = &mut self.log {
            l.retire(r);
        }
        if let Some(t) = &mut self.tandem {
            t.retire(r);
        }
        match &mut self.port {
            Some(Port::Inline(p)) => p.retire(r),
            Some(Port::Records(p)) => p.retire(r),
            Some(Port::Threaded(_)) => unreachable!("a port on its own thread takes runs"),
            None => {}
        }
    }

    fn trap(&mut self, t: &iss::TrapRecord) {
        if let Some(l) = &mut self.log {
            l.trap(t);
        }
        if let Some(w) = &mut self.tandem {
            w.trap(t);
        }
        match &mut self.port {
            Some(Port::Inline(p)) => p.trap(t),
            Some(Port::Records(p)) => p.trap(t),
            Some(Port::Threaded(p)) => p.trap(t),
            None => {}
        }
    }

    fn failed(&self) -> bool {
        self.log.as_ref().is_some_and(|l| l.failed())
    }
}

/// Run with whichever sinks were asked for; finish them. Returns the stop reason and the
/// encoder's statistics. Under GDB (`gdb`), the debugger drives the run.
#[allow(clippy::too_many_arguments)]
fn run_sinks(
    m: &mut Machine,
    log: Option<LogSink>,
    trace: Option<Port>,
    tandem: Option<crate::tandem_cmd::TandemSink>,
    limit: Option<u64>,
    log_path: Option<&Path>,
    tandem_name: &str,
    mut gdb: Option<&mut crate::gdb::Server>,
) -> Result<(Stop, Option<EncoderStats>)> {
    if let Some(g) = gdb.as_deref_mut() {
        // Under GDB: one record sink for everything asked for (the ingress port in line),
        // which the debugger steps through.
        if log.is_none() && trace.is_none() && tandem.is_none() {
            return Ok((g.serve(m, &mut NoSink, limit), None));
        }
    }
    // The tandem writer alone: the hart calls it directly.
    let tandem = match (gdb.is_none() && log.is_none() && trace.is_none(), tandem) {
        (true, Some(mut t)) => {
            let stop = m.run(&mut t, limit);
            crate::tandem_cmd::finish(t, m, tandem_name)?;
            return Ok((stop, None));
        }
        (_, t) => t,
    };
    let finish_port = |p: Port| -> Result<Option<EncoderStats>> {
        // The error names the file that failed.
        Ok(p.finish()?.stats)
    };
    match (log, trace) {
        (None, None) if gdb.is_none() && tandem.is_none() => Ok((m.run(&mut NoSink, limit), None)),
        (None, Some(Port::Threaded(mut p))) if gdb.is_none() => {
            let stop = m.run(&mut p, limit);
            Ok((stop, finish_port(Port::Threaded(p))?))
        }
        (None, Some(Port::Inline(mut p))) if tandem.is_none() && gdb.is_none() => {
            let stop = m.run(&mut p, limit);
            Ok((stop, finish_port(Port::Inline(p))?))
        }
        (log, port) => {
            let mut r = Recorders { log, port, tandem };
            let stop = match gdb {
                Some(g) => g.serve(m, &mut r, limit),
                None => m.run(&mut r, limit),
            };
            if let Some(l) = r.log {
                l.finish().with_context(|| {
                    format!(
                        "writing the commit log to {}",
                        log_path.map_or("-".into(), |p| if p.as_os_str() == "-" {
                            "standard output".into()
                        } else {
                            p.display().to_string()
                        })
                    )
                })?;
            }
            if let Some(t) = r.tandem {
                crate::tandem_cmd::finish(t, m, tandem_name)?;
            }
            let stats = match r.port {
                Some(p) => finish_port(p)?,
                None => None,
            };
            Ok((stop, stats))
        }
    }
}

fn print_stats(s: &EncoderStats, retired: u64) {
    eprintln!(
        "N-Trace: {} messages, {} bytes, {:.3} bits per instruction",
        s.messages.values().sum::<u64>(),
        s.bytes,
        s.bytes as f64 * 8.0 / retired.max(1) as f64
    );
    eprintln!(
        "  from {} ingress beats ({:.2} instructions per beat)",
        s.beats,
        retired as f64 / s.beats.max(1) as f64
    );
    for (tcode, n) in &s.messages {
        let name = encoder::msg::layout(*tcode).map_or("?", |l| l.name);
        eprintln!("  {name:<24} (TCODE {tcode:>2}) {n:>12}");
    }
    if s.dropped > 0 {
        eprintln!("  dropped (FIFO full)               {:>12}", s.dropped);
    }
}
