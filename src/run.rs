//! `hartscope run`: load an ELF, run it, report.

use crate::trace::TraceArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use encoder::capture::Named;
use encoder::encoder::EncoderStats;
use iss::commitlog::CommitLog;
use iss::ingress::Retirement;
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
    /// The program: an RV64 little-endian ELF executable (M-mode firmware with --kernel or
    /// --payload; not given with --sbi builtin --kernel FILE).
    #[arg(required_unless_present = "kernel")]
    pub program: Option<PathBuf>,
    /// RAM: a size at 0x8000_0000, in bytes or with a K, M or G suffix; or regions as Spike's
    /// -m takes them, BASE:SIZE[,BASE:SIZE...] (hexadecimal with 0x, or decimal; sizes may have
    /// a suffix; all 4 KiB aligned, within 1 TiB of each other), the first the main one.
    #[arg(long, default_value = "256M", value_parser = parse_mem_map, allow_hyphen_values = true)]
    pub mem: MemMap,
    /// Stop after this many retired instructions (exit status 124).
    #[arg(long, allow_hyphen_values = true)]
    pub max_insns: Option<u64>,
    /// Write Spike's --log-commits format to FILE ('-' for standard output).
    #[arg(long, value_name = "FILE")]
    pub log_commits: Option<PathBuf>,
    /// Spike's -l: before each instruction's commit line, the line of the instruction fetched
    /// (pc, bits, Spike's disassembly; trapping ones included), the symbol at its pc, and the
    /// lines of each trap. Goes where --log-commits goes, else to --log FILE, else to
    /// standard error (as Spike's).
    #[arg(short = 'l', long)]
    pub log_trace: bool,
    /// Where -l writes when --log-commits is not given ('-' for standard output).
    #[arg(
        long,
        value_name = "FILE",
        requires = "log_trace",
        conflicts_with = "log_commits"
    )]
    pub log: Option<PathBuf>,
    /// Commit lines go where -l's lines go (`hartscope spike --log-commits`, whose option
    /// takes no file).
    #[arg(skip)]
    pub commits_to_log: bool,
    /// Start at this address instead of the ELF's entry (hex, as Spike's --pc=).
    #[arg(long, value_name = "ADDR", value_parser = parse_pc)]
    pub pc: Option<u64>,
    /// Write the memory between begin_signature and end_signature, one 32-bit word per line.
    #[arg(long, value_name = "FILE")]
    pub signature: Option<PathBuf>,
    /// Bytes per line of the signature (a power of two, 1 to 64; Spike's
    /// +signature-granularity): each line is those bytes as one little-endian hex number.
    #[arg(long, value_name = "BYTES", default_value_t = 4, value_parser = parse_granularity)]
    pub signature_granularity: usize,
    /// Bytes the UART's receiver delivers to the guest, in order, read from FILE as the guest
    /// consumes them ('-' for standard input; a FIFO works). Without it, reads of the receive
    /// register find no data.
    #[arg(long, value_name = "FILE")]
    pub uart_input: Option<PathBuf>,
    /// A second ELF loaded at its physical addresses (p_paddr) after PROGRAM, which is then
    /// M-mode firmware that starts it (OpenSBI's fw_jump, whose payload goes at 0x80200000);
    /// or a Linux Image, as --kernel. Its segments must keep clear of PROGRAM's; HTIF's tohost
    /// is PROGRAM's (else the payload's). Not with --sbi builtin (use --kernel then).
    #[arg(long, value_name = "FILE")]
    pub payload: Option<PathBuf>,
    #[command(flatten)]
    pub boot: crate::boot::BootArgs,
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
    /// With --harts: the hart whose retirements --ntrace (and the ingress outputs),
    /// --tandem and --ctr-report follow (default 0); the commit log has every hart's.
    /// For --ntrace alone, several: a list (`0,2`) or `all`, each hart's encoder with
    /// trTeSrcID = its index, their messages in one stream (`ntrace decode --src`).
    #[arg(long, value_name = "H|H,H...|all", default_value = "0", value_parser = parse_trace_harts)]
    pub trace_hart: TraceHarts,
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

/// `--trace-hart`: the harts the traces follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceHarts {
    /// One hart (`--trace-hart H`): every trace follows it, N-Trace as one source.
    One(usize),
    /// These harts (`0,2`, in order, no repeats), each an N-Trace source of one stream.
    List(Vec<usize>),
    /// Every hart of the machine, each an N-Trace source of one stream.
    All,
}

impl TraceHarts {
    /// The harts, on a machine of `harts`; a hart it lacks is refused by name.
    pub fn resolve(&self, harts: usize) -> Result<Vec<usize>> {
        let list = match self {
            TraceHarts::One(h) => vec![*h],
            TraceHarts::List(v) => v.clone(),
            TraceHarts::All => return Ok((0..harts).collect()),
        };
        if let Some(h) = list.iter().find(|&&h| h >= harts) {
            bail!(
                "--trace-hart {h}: the machine has {} hart{} (0..={})",
                harts,
                if harts == 1 { "" } else { "s" },
                harts - 1
            );
        }
        Ok(list)
    }

    /// How the option was given, for messages.
    fn shown(&self) -> String {
        match self {
            TraceHarts::One(h) => h.to_string(),
            TraceHarts::List(v) => v
                .iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
                .join(","),
            TraceHarts::All => "all".into(),
        }
    }
}

/// `--trace-hart`: `H`, `H,H,...` or `all`.
fn parse_trace_harts(s: &str) -> Result<TraceHarts, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("all") {
        return Ok(TraceHarts::All);
    }
    let mut v: Vec<usize> = Vec::new();
    for part in t.split(',') {
        let h: usize = part.trim().parse().map_err(|_| {
            format!("'{part}' is not a hart index (give H, a list H,H,... or `all`)")
        })?;
        if v.contains(&h) {
            return Err(format!("hart {h} is listed twice"));
        }
        v.push(h);
    }
    Ok(match v.as_slice() {
        [h] => TraceHarts::One(*h),
        _ => TraceHarts::List(v),
    })
}

/// `--pc`: an address in hex (`0x80000000` or `80000000`).
fn parse_pc(s: &str) -> Result<u64, String> {
    crate::trace::parse_addr(s).map_err(|e| format!("{e:#}"))
}

/// `--signature-granularity`: a power of two from 1 to 64.
pub fn parse_granularity(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n.is_power_of_two() && n <= 64 => Ok(n),
        _ => Err(format!(
            "'{s}': the granularity is a power of two from 1 to 64 bytes"
        )),
    }
}

/// `--mem`: the RAM regions, `(base, size)`, the first the main one (where RAM's size is
/// counted and the built-in SBI puts the device tree).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemMap(pub Vec<(u64, u64)>);

impl MemMap {
    /// `size` bytes at 0x8000_0000.
    pub fn at_ram_base(size: u64) -> MemMap {
        MemMap(vec![(iss::bus::RAM_BASE, size)])
    }

    /// Set the machine's RAM to these regions.
    pub fn apply(&self, c: &mut Config) {
        if let Some((&(base, size), rest)) = self.0.split_first() {
            c.ram_base = base;
            c.ram_size = size;
            c.extra_ram = rest.to_vec();
        }
    }
}

/// Parse `--mem`: a size (`256M`: at 0x8000_0000), or `BASE:SIZE[,BASE:SIZE...]`.
pub fn parse_mem_map(s: &str) -> Result<MemMap, String> {
    if !s.contains(':') {
        return parse_size(s).map(MemMap::at_ram_base);
    }
    let number = |t: &str| -> Result<u64, String> {
        let t = t.trim();
        match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(h) => u64::from_str_radix(h, 16).map_err(|_| format!("'{t}' is not a number")),
            None => t.parse().map_err(|_| format!("'{t}' is not a number")),
        }
    };
    let mut regions = Vec::new();
    for part in s.split(',') {
        let Some((b, z)) = part.split_once(':') else {
            return Err(format!("'{part}': a region is BASE:SIZE"));
        };
        let base = number(b)?;
        if base % 4096 != 0 {
            return Err(format!("'{part}': the base must be 4 KiB aligned"));
        }
        let size = match number(z) {
            Ok(n) => parse_size(&n.to_string()),
            Err(_) => parse_size(z),
        }
        .map_err(|e| format!("'{part}': {e}"))?;
        regions.push((base, size));
    }
    Ok(MemMap(regions))
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
    let mut base = Config {
        misaligned: match args.misaligned {
            MisalignedArg::Trap => Misaligned::Trap,
            MisalignedArg::Emulate => Misaligned::Emulate,
        },
        ..Config::default()
    };
    args.mem.apply(&mut base);
    let config = args.hart.config(base)?;
    let mut m = Machine::try_new(config).map_err(|e| match e {
        iss::machine::ConfigError::Ram(r) => anyhow::anyhow!("--mem: {r}"),
        e => e.into(),
    })?;
    let crate::boot::Loaded {
        prog,
        entry,
        initrd,
    } = crate::boot::load(
        &mut m,
        args.program.as_deref(),
        args.payload.as_deref(),
        args.pc,
        &args.boot,
    )?;
    if let (Some((start, end)), Some(path), false) = (initrd, &args.boot.initrd, args.quiet) {
        eprintln!(
            "hartscope: --initrd {} at {start:#x}..{end:#x} (/chosen linux,initrd-start and \
             linux,initrd-end)",
            path.display()
        );
    }
    m.boot(entry);
    args.hart.check_boot(&m, &prog)?;
    if let Some(w) = zicntr_warning(&args, &m) {
        eprintln!("{w}");
    }
    let traced = args.trace_hart.resolve(m.harts())?;
    let trace_hart = match &args.trace_hart {
        TraceHarts::One(h) => *h,
        several => {
            // Only N-Trace has a field (SRC) to tell harts apart in one stream.
            let single: Vec<&str> = [
                ("--tandem", args.tandem.tandem.is_some()),
                ("--ingress", args.trace.ingress.is_some()),
                ("--ctr-report", args.hart.ctr_report.is_some()),
            ]
            .into_iter()
            .filter_map(|(n, on)| on.then_some(n))
            .collect();
            if !single.is_empty() {
                bail!(
                    "--trace-hart {}: {} follow{} one hart (give --trace-hart H); only \
                     --ntrace takes several harts, in one stream",
                    several.shown(),
                    single.join(" and "),
                    if single.len() == 1 { "s" } else { "" }
                );
            }
            if args.trace.ntrace.is_none() {
                bail!(
                    "--trace-hart {}: several harts are for --ntrace (one stream, a source \
                     per hart); give --ntrace FILE",
                    several.shown()
                );
            }
            traced[0]
        }
    };
    // Listen before any output is created: a port in use is reported first.
    let mut gdb = args.gdb.map(crate::gdb::Server::listen).transpose()?;
    if let Some(path) = &args.uart_input {
        // Streamed as the guest reads (a FIFO, /dev/zero, '-' for standard input); a terminal
        // is typed into as the guest runs: read live, never waited for.
        if path.as_os_str() == "-" {
            if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                m.bus.uart.input.set_live_source(Box::new(std::io::stdin()));
            } else {
                m.bus.uart.input.set_source(Box::new(std::io::stdin()));
            }
        } else {
            if path.is_dir() {
                bail!("--uart-input {}: is a directory", path.display());
            }
            m.bus
                .uart
                .input
                .set_source(Box::new(File::open(path).with_context(|| {
                    format!("--uart-input: cannot open {}", path.display())
                })?));
        }
    }

    // A hart without D has 32-bit FP registers (FLEN 32), which Spike logs in 8 digits.
    let mut log = open_log(&args)?.map(|l| l.with_flen32(!m.config.isa.d));
    if let Some(l) = &mut log {
        // The reset sequence Spike's boot ROM retires first (hartscope applied its effects).
        for r in m.boot_rom_records() {
            l.retire(&r);
        }
    }
    // At most one output may own standard output; while a binary stream does, the guest's
    // console is kept and goes to standard error when the run ends (however it ends).
    let dash = |p: Option<&Path>| p.is_some_and(|p| p.as_os_str() == "-");
    let on_stdout: Vec<&str> = [
        ("--log-commits -", dash(args.log_commits.as_deref())),
        ("--log -", dash(args.log.as_deref())),
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
    let tandem = args.tandem.start(&mut m, &prog, main_file(&args))?;
    let tandem_name = args
        .tandem
        .tandem
        .as_deref()
        .map(crate::tandem_cmd::stream_name)
        .unwrap_or_default();
    if !args.trace.wanted() && args.trace.ingress_csv_flavour.is_some() {
        args.trace.csv_flavour(&Default::default())?;
    }
    let trace = if !args.trace.wanted() {
        None
    } else if let TraceHarts::One(_) = args.trace_hart {
        Some(start_trace(
            &args.trace,
            &m,
            log.is_some() || tandem.is_some() || gdb.is_some() || m.harts() > 1,
        )?)
    } else {
        Some(start_funnel(&args.trace, &mut m, &traced)?)
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
        Recorders {
            log,
            port: trace,
            tandem,
            trace_hart,
            running: 0,
        },
        args.max_insns,
        &log_name(&args),
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
        write_signature(&m, &prog, path, args.signature_granularity)?;
    }

    args.hart.reports(&mut m, &prog, trace_hart)?;
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

/// A warning when a kernel is booted (`--kernel`, or a Linux Image as `--payload`) on a hart
/// without Zicntr: Linux reads `time` (and `cycle`) early in its boot, and the accesses trap
/// as illegal instructions, so it panics deep in its log. Not an error: bare firmware may not
/// need the counters.
fn zicntr_warning(args: &RunArgs, m: &Machine) -> Option<String> {
    if m.config.isa.zicntr {
        return None;
    }
    let (option, kernel) = match (&args.boot.kernel, &args.payload) {
        (Some(k), _) => ("--kernel", k),
        (None, Some(p)) if !is_elf_file(p) => ("--payload", p),
        _ => return None,
    };
    let isa = args.hart.isa.as_deref().unwrap_or("");
    Some(format!(
        "hartscope: warning: {option} {}: the hart's ISA (--isa {isa}) lacks Zicntr (the \
         cycle, time and instret CSRs), which Linux reads early in its boot: their accesses \
         trap as illegal instructions and the kernel panics, often before its console shows \
         anything; add _zicntr to --isa (e.g. --isa \
         {isa}_zicntr), or leave --isa out (the default, {}, has it)",
        kernel.display(),
        iss::Isa::DEFAULT_STRING
    ))
}

/// The signature, `granularity` bytes per line, each line those bytes as one little-endian
/// number in hex (the last line padded with zeros), as Spike writes it.
fn write_signature(
    m: &Machine,
    prog: &iss::elf::Program,
    path: &PathBuf,
    granularity: usize,
) -> Result<()> {
    let (off, len) = iss::elf::signature_range(m, prog).context("--signature")?;
    // Streamed from RAM: the range may be as large as RAM.
    let write = || -> std::io::Result<()> {
        let mut out = BufWriter::new(File::create(path)?);
        let mut line = String::with_capacity(2 * granularity + 1);
        for w in m.bus.ram.bytes(off, len).chunks(granularity) {
            line.clear();
            for i in (0..granularity).rev() {
                use std::fmt::Write as _;
                let _ = write!(line, "{:02x}", w.get(i).copied().unwrap_or(0));
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        out.flush()
    };
    write().with_context(|| format!("--signature: cannot write {}", path.display()))
}

/// The commit log and the execution trace (`-l`), in one stream as Spike writes them: to
/// --log-commits FILE, else --log FILE, else standard error (the trace; commit lines only
/// when asked for).
fn open_log(args: &RunArgs) -> Result<Option<LogSink>> {
    let commits = args.log_commits.is_some() || args.commits_to_log;
    if !commits && !args.log_trace {
        return Ok(None);
    }
    let (path, option) = match (&args.log_commits, &args.log) {
        (Some(p), _) => (Some(p), "--log-commits"),
        (None, Some(p)) => (Some(p), "--log"),
        (None, None) => (None, ""),
    };
    // The log is written in large chunks by its own thread: no buffering needed here.
    let out: Box<dyn Write + Send> = match path {
        None => Box::new(std::io::stderr()),
        Some(p) if p.as_os_str() == "-" => Box::new(std::io::stdout()),
        Some(p) => Box::new(
            crate::prealloc::PreallocFile::create(p)
                .with_context(|| format!("{option}: cannot create {}", p.display()))?,
        ),
    };
    let main = main_file(args);
    let symbols = if !args.log_trace {
        None
    } else if args.program.is_none() && !is_elf_file(main) {
        // A kernel Image has no symbols.
        Some(Default::default())
    } else {
        Some(
            iss::elf::spike_symbols_file(main)
                .with_context(|| format!("-l: reading the symbols of {}", main.display()))?,
        )
    };
    Ok(Some(CommitLog::spike(out, commits, symbols)))
}

/// The file whose symbols the run uses: PROGRAM, or the kernel the built-in SBI starts.
fn main_file(args: &RunArgs) -> &Path {
    args.program
        .as_deref()
        .or(args.boot.kernel.as_deref())
        .unwrap_or(Path::new(""))
}

/// Whether `path` starts as an ELF file does.
fn is_elf_file(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| iss::image::is_elf(&magic))
}

/// How the log's destination is named in messages.
fn log_name(args: &RunArgs) -> String {
    match args.log_commits.as_deref().or(args.log.as_deref()) {
        Some(p) if p.as_os_str() == "-" => "standard output".into(),
        Some(p) => p.display().to_string(),
        None => "standard error".into(),
    }
}

/// The N-Trace capture of a run (`encoder::capture`), writing the trace to a file.
pub type Port = encoder::capture::Port<BufWriter<File>>;

/// Start the ingress port and its outputs. `records`: the hart produces full records for
/// another consumer anyway.
fn start_trace(t: &TraceArgs, m: &Machine, records: bool) -> Result<Port> {
    let enc = t.encoder_config()?;
    let icfg = t.ingress_config(&enc)?;
    let ntrace = match &t.ntrace {
        Some(path) => {
            let (f, cfg_path) = open_ntrace(path, t.ntrace_sidecar.as_deref())?;
            std::fs::write(&cfg_path, serde_json::to_string_pretty(&enc)?)
                .with_context(|| format!("cannot write {}", cfg_path.display()))?;
            Some(Named {
                out: BufWriter::with_capacity(1 << 20, f),
                name: if path.as_os_str() == "-" {
                    "the N-Trace stream to standard output".into()
                } else {
                    path.display().to_string()
                },
            })
        }
        None => None,
    };
    let flavour = t.csv_flavour(&icfg)?;
    let writer = match &t.ingress {
        Some(path) => Some(Named {
            out: encoder::writers::open_writer(
                path,
                icfg.retirement == Retirement::Single,
                flavour,
            )
            .with_context(|| format!("--ingress {}", path.display()))?,
            name: path.display().to_string(),
        }),
        None => None,
    };
    Ok(encoder::capture::start(
        &enc,
        ntrace,
        writer,
        icfg,
        &m.hart.csr,
        records,
    )?)
}

/// Start the N-Trace capture of several harts into one stream (`encoder::capture::Funnel`):
/// one encoder per hart, trTeSrcID its index, all with the trTeSrcBits the harts need (or
/// more, if given).
fn start_funnel(t: &TraceArgs, m: &mut Machine, harts: &[usize]) -> Result<Port> {
    let mut enc = t.encoder_config()?;
    let shown = harts
        .iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let last = harts.iter().copied().max().unwrap_or(0);
    let need = (usize::BITS - last.leading_zeros()).max(1) as u8;
    if t.tr_te_src_id.is_some() {
        bail!(
            "--tr-te-src-id: with several traced harts (--trace-hart {shown}) each hart's \
             encoder has its index as trTeSrcID"
        );
    }
    if enc.control.tr_te_inhibit_src {
        bail!(
            "--tr-te-inhibit-src: several harts in one stream (--trace-hart {shown}) need the \
             SRC field to tell them apart"
        );
    }
    match enc.control.tr_te_src_bits {
        0 => enc.control.tr_te_src_bits = need,
        b if b < need => bail!(
            "trTeSrcBits {b} (--tr-te-src-bits or the settings file) cannot hold hart {last}: \
             --trace-hart {shown} needs at least {need}"
        ),
        _ => {}
    }
    enc.control.tr_te_src_id = harts.first().map_or(0, |&h| h as u16);
    let icfg = t.ingress_config(&enc)?;
    if icfg.data {
        bail!("--ingress-data follows one hart: give --trace-hart H");
    }
    let Some(path) = &t.ntrace else {
        bail!("--trace-hart {shown}: several harts are for --ntrace");
    };
    let (f, cfg_path) = open_ntrace(path, t.ntrace_sidecar.as_deref())?;
    // The settings every encoder shares; each one's trTeSrcID is its hart's index.
    std::fs::write(&cfg_path, serde_json::to_string_pretty(&enc)?)
        .with_context(|| format!("cannot write {}", cfg_path.display()))?;
    let named = Named {
        out: BufWriter::with_capacity(1 << 20, f),
        name: if path.as_os_str() == "-" {
            "the N-Trace stream to standard output".into()
        } else {
            path.display().to_string()
        },
    };
    let csrs: Vec<(usize, iss::csr::Csrs)> = harts
        .iter()
        .map(|&h| (h, m.with_hart(h, |s| s.csr.clone())))
        .collect();
    Ok(encoder::capture::Port::Funnel(
        encoder::capture::Funnel::start(&enc, named, icfg, &csrs)?,
    ))
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
                iss::files::sidecar_path(path).display()
            ),
            _ => iss::files::sidecar_path(path),
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

type LogSink = CommitLog<Box<dyn Write + Send>>;

/// The sinks a run can have (`encoder::capture::Recorders`): the commit log, the ingress
/// port, the tandem writer.
pub type Recorders =
    encoder::capture::Recorders<LogSink, crate::tandem_cmd::TandemSink, BufWriter<File>>;

/// Run with whichever sinks were asked for (`encoder::capture::run`), or under GDB
/// (`gdb`, which then drives the run on full records); finish them, each error naming its
/// file. Returns the stop reason and the encoder's statistics.
fn run_sinks(
    m: &mut Machine,
    sinks: Recorders,
    limit: Option<u64>,
    log_name: &str,
    tandem_name: &str,
    gdb: Option<&mut crate::gdb::Server>,
) -> Result<(Stop, Option<EncoderStats>)> {
    let (stop, r) = match gdb {
        Some(g) if sinks.log.is_none() && sinks.port.is_none() && sinks.tandem.is_none() => {
            (g.serve(m, &mut NoSink, limit), sinks)
        }
        Some(g) => {
            let mut r = sinks;
            let stop = if r.wants_watch() {
                g.serve(m, &mut iss::record::Watched(&mut r), limit)
            } else {
                g.serve(m, &mut r, limit)
            };
            (stop, r)
        }
        None => encoder::capture::run(m, sinks, limit),
    };
    if let Some(l) = r.log {
        l.finish()
            .with_context(|| format!("writing the commit log to {log_name}"))?;
    }
    if let Some(t) = r.tandem {
        crate::tandem_cmd::finish(t, m, tandem_name)?;
    }
    let stats = match r.port {
        // The error names the file that failed.
        Some(p) => p.finish()?.stats,
        None => None,
    };
    Ok((stop, stats))
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
