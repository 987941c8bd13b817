//! The Bluespec tandem trace on the command line: `hartscope run --tandem FILE` (the writer's
//! options are flattened into `run`'s), and `hartscope tandem dump | verify | bench | mutate`.

use crate::progress::{Counted, Progress, Unit};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use iss::{Machine, Misaligned};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tandem::config::{Partial, WriterConfig};
use tandem::params::Params;
use tandem::sidecar::{HartInfo, Sidecar};
use tandem::verify::{Nondet, VerifyConfig};

/// `hartscope run` options for the tandem trace.
#[derive(Args, Debug, Default, Clone)]
pub struct TandemRunArgs {
    /// Write the Bluespec tandem trace to FILE ('-' for standard output). Its settings go to
    /// FILE.json, which `tandem dump` and `tandem verify` read; for standard output or a
    /// file that is not a regular file (a device, a pipe), give --tandem-sidecar or
    /// --no-tandem-sidecar.
    #[arg(long, value_name = "FILE", help_heading = "Tandem trace")]
    pub tandem: Option<PathBuf>,
    /// Write the trace's settings file to FILE instead of beside the trace.
    #[arg(long, value_name = "FILE", help_heading = "Tandem trace")]
    pub tandem_sidecar: Option<PathBuf>,
    /// Write no settings file (`tandem dump` and `tandem verify` then need the settings as
    /// options).
    #[arg(long, conflicts_with = "tandem_sidecar", help_heading = "Tandem trace")]
    pub no_tandem_sidecar: bool,
    /// Group layout: flute (as Bluespec Flute/Piccolo write it; the default), spec (the
    /// spec's Appendix C: increment pc, physical addresses, incremental fflags) or
    /// flute-strict (exactly Flute's encoder, commit 35c72be: fflags and mstatus with every
    /// FP operation, mstatus with FP loads, only rd and the named CSR for CSR instructions,
    /// and mip outside groups whenever it changes; runs one instruction at a time).
    #[arg(long, value_enum, value_name = "STYLE", help_heading = "Tandem trace")]
    pub tandem_style: Option<StyleArg>,
    /// Extras on (or off with a leading '-'), comma-separated: incr-pc, incremental,
    /// implicit-end, eaddr, paddr, store-data, pc-paddr, mtime, mem, image, counters, all;
    /// start-state (the hart's start state as a state-initialisation group) is on by default.
    #[arg(long, value_name = "LIST", help_heading = "Tandem trace")]
    pub tandem_with: Option<String>,
    /// Partial trace: leave out these elements, comma-separated: gpr, fpr, csr, trap, pc,
    /// insn, priv, eaddr, store-data, csr:NAME.
    #[arg(long, value_name = "LIST", help_heading = "Tandem trace")]
    pub tandem_omit: Option<String>,
    /// XLEN,FLEN,MLEN in bits (default 64,FLEN of the hart,64). XLEN must be 64, FLEN the
    /// hart's (64 with D, 32 with F alone), MLEN 57..64 (what `tandem verify` verifies).
    #[arg(long, value_name = "X,F,M", value_parser = parse_hart_params, help_heading = "Tandem trace")]
    pub tandem_params: Option<Params>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum StyleArg {
    Flute,
    Spec,
    FluteStrict,
}

/// The writer as `hartscope run` uses it: to a file or standard output.
pub type TandemSink = tandem::TandemWriter<Box<dyn Write + Send>>;

/// `X,F,M` as the protocol allows it (what `tandem dump --params` reads).
fn parse_params(s: &str) -> Result<Params, String> {
    let v: Vec<u8> = s
        .split(',')
        .map(|x| x.trim().parse::<u8>())
        .collect::<Result<_, _>>()
        .map_err(|_| "expected XLEN,FLEN,MLEN in bits (e.g. 64,64,64)".to_string())?;
    let [x, f, m] = v[..] else {
        return Err("expected three numbers, XLEN,FLEN,MLEN".into());
    };
    Params::new(x, f, m).map_err(|e| e.to_string())
}

/// `X,F,M` that hartscope's hart may write and its verifier verify (`run --tandem-params`):
/// FLEN is checked against the hart's when the run starts (64 with D, 32 with F alone).
fn parse_hart_params(s: &str) -> Result<Params, String> {
    let p = parse_params(s)?;
    let flen = if p.flen == 32 { 32 } else { 64 };
    p.check_hart_flen(flen).map_err(|e| e.to_string())?;
    Ok(p)
}

/// Where the stream of `run --tandem` goes, shown in messages.
pub fn stream_name(p: &Path) -> String {
    if p.as_os_str() == "-" {
        "standard output".into()
    } else {
        p.display().to_string()
    }
}

impl TandemRunArgs {
    /// The writer's settings from the options, for a hart whose FP registers are `flen` bits
    /// ([`tandem::params::hart_flen`]): FLEN follows the hart unless --tandem-params says
    /// otherwise (then it must be the hart's).
    pub fn config(&self, flen: u8) -> Result<WriterConfig> {
        let mut cfg = match self.tandem_style {
            Some(StyleArg::Spec) => WriterConfig::spec(),
            Some(StyleArg::FluteStrict) => WriterConfig::flute_strict(),
            Some(StyleArg::Flute) | None => WriterConfig::flute(),
        };
        if flen != 0 {
            cfg.params.flen = flen;
        }
        if let Some(p) = self.tandem_params {
            p.check_hart_flen(flen)
                .map_err(|e| anyhow::anyhow!("--tandem-params: {e}"))?;
            cfg.params = p;
        }
        if let Some(w) = &self.tandem_with {
            cfg.apply_extras(w)
                .map_err(|e| anyhow::anyhow!("--tandem-with: {e}"))?;
        }
        if let Some(o) = &self.tandem_omit {
            cfg.omit = Partial::parse(o).map_err(|e| anyhow::anyhow!("--tandem-omit: {e}"))?;
        }
        Ok(cfg)
    }

    /// Whether the stream goes to standard output.
    pub fn to_stdout(&self) -> bool {
        self.tandem.as_ref().is_some_and(|p| p.as_os_str() == "-")
    }

    /// Where the settings file goes: `--tandem-sidecar`, nowhere with `--no-tandem-sidecar`,
    /// else beside the trace when that is a regular file (or not there yet). Standard output,
    /// a device or a pipe has no "beside": an error asks for one of the options.
    fn sidecar_path(&self, trace: &Path) -> Result<Option<PathBuf>> {
        if self.no_tandem_sidecar {
            return Ok(None);
        }
        if let Some(p) = &self.tandem_sidecar {
            return Ok(Some(p.clone()));
        }
        if trace.as_os_str() == "-" {
            bail!(
                "--tandem -: the stream goes to standard output, so its settings file has no \
                 place beside it: give --tandem-sidecar FILE (or --no-tandem-sidecar)"
            );
        }
        match std::fs::metadata(trace) {
            Ok(md) if !md.is_file() && !md.is_dir() => bail!(
                "--tandem {}: not a regular file (a device or a pipe), so its settings file \
                 is not written beside it: give --tandem-sidecar FILE (or --no-tandem-sidecar)",
                trace.display()
            ),
            _ => Ok(Some(tandem::sidecar::path_for(trace))),
        }
    }

    /// Start the writer for a machine that is loaded and booted (with its settings file), or
    /// nothing without `--tandem`. With the stream on standard output, the guest's console
    /// is kept and shown on standard error at the end (src/run.rs).
    pub fn start(
        &self,
        m: &mut Machine,
        prog: &iss::elf::Program,
        program: &Path,
    ) -> Result<Option<TandemSink>> {
        let Some(path) = &self.tandem else {
            if self.tandem_sidecar.is_some() || self.no_tandem_sidecar {
                bail!("--tandem-sidecar and --no-tandem-sidecar need --tandem");
            }
            return Ok(None);
        };
        let cfg = self.config(tandem::params::hart_flen(&m.config.isa))?;
        let side_path = self.sidecar_path(path)?;
        let side = Sidecar {
            format: tandem::sidecar::FORMAT.into(),
            writer: cfg.clone(),
            hart: HartInfo {
                ram_size: m.config.ram_size,
                misaligned: match m.config.misaligned {
                    Misaligned::Trap => "trap".into(),
                    Misaligned::Emulate => "emulate".into(),
                },
                machine: Some(tandem::sidecar::machine_json(&m.config)),
            },
            program: std::fs::canonicalize(program)
                .ok()
                .map(|p| p.display().to_string()),
            entry: prog.entry,
        };
        let out: Box<dyn Write + Send> = if path.as_os_str() == "-" {
            // run keeps the guest's console aside meanwhile.
            Box::new(std::io::stdout())
        } else {
            Box::new(
                File::create(path)
                    .with_context(|| format!("--tandem: cannot create {}", path.display()))?,
            )
        };
        if let Some(sp) = &side_path {
            side.write_to(sp)
                .with_context(|| format!("cannot write the settings file {}", sp.display()))?;
        }
        let init = tandem::InitialState::capture(m, Some(prog), cfg.image);
        let w = tandem::TandemWriter::new(cfg, out, &init)
            .with_context(|| format!("--tandem {}", stream_name(path)))?;
        Ok(Some(w))
    }
}

/// Close the stream at the end of a run; `name` is where it goes, for messages.
pub fn finish(w: TandemSink, m: &Machine, name: &str) -> Result<()> {
    w.finish(Some(m.hart.prv))
        .with_context(|| format!("writing the tandem trace to {name}"))?;
    Ok(())
}

#[derive(Subcommand, Debug)]
pub enum TandemCommand {
    /// Print a tandem trace, one line per group, with disassembly and register names.
    Dump(DumpArgs),
    /// Check a tandem trace against the architecture (a hartscope reference hart running the
    /// same program): exit status 0 when it matches, 1 on a mismatch, 2 for unusable input.
    Verify(VerifyArgs),
    /// Measure the hart's speed with the writer on and off, and the verifier's speed.
    Bench(BenchArgs),
    /// Put faults of every kind a broken core makes into streams of a program and count
    /// what the verifier reports.
    Mutate(MutateArgs),
}

/// Options shared by the readers.
#[derive(Args, Debug, Clone)]
pub struct ReadArgs {
    /// XLEN,FLEN,MLEN in bits (default: from IN.json, else 64,64,64).
    #[arg(long, value_name = "X,F,M", value_parser = parse_params)]
    pub params: Option<Params>,
    /// Read the settings file FILE (default: IN.json; none for standard input).
    #[arg(long, value_name = "FILE", conflicts_with = "no_sidecar")]
    pub sidecar: Option<PathBuf>,
    /// Report any begin group inside a group as nested (by default a begin group ends a
    /// group that has something in it, as the spec allows).
    #[arg(long)]
    pub strict_groups: bool,
    /// Do not read the settings file IN.json.
    #[arg(long)]
    pub no_sidecar: bool,
}

#[derive(Args, Debug)]
pub struct DumpArgs {
    /// The trace ('-' for standard input).
    pub input: PathBuf,
    /// The pc before the first group (default: the entry point from IN.json).
    #[arg(long, value_name = "ADDR", value_parser = parse_u64)]
    pub start_pc: Option<u64>,
    #[command(flatten)]
    pub read: ReadArgs,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The trace ('-' for standard input).
    pub input: PathBuf,
    /// The program the core ran (default: the one named in IN.json; without either, the
    /// stream's state-initialisation groups must carry it).
    #[arg(long, value_name = "FILE")]
    pub elf: Option<PathBuf>,
    /// RAM size of the reference hart (default: as IN.json says, else 256M).
    #[arg(long, value_parser = crate::run::parse_size)]
    pub mem: Option<u64>,
    /// Misaligned loads and stores (default: as IN.json says, else trap).
    #[arg(long, value_enum)]
    pub misaligned: Option<crate::run::MisalignedArg>,
    /// Write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Stop after N mismatching groups (0: never).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max_mismatches: u64,
    /// Elements the trace leaves out (partial trace), comma-separated: gpr, fpr, csr, trap,
    /// pc, insn, priv, eaddr, store-data, csr:NAME (default: from IN.json).
    #[arg(long, value_name = "LIST")]
    pub absent: Option<String>,
    /// Non-deterministic state, copied from the trace and not compared: mip, time, mcycle,
    /// minstret, hpm, mmio, sc, htif; a list replaces the default (all but htif), +name and
    /// -name change it.
    #[arg(long, value_name = "LIST")]
    pub nondet: Option<String>,
    /// Compare every register every N groups as well (0: only at the end).
    #[arg(long, value_name = "N", default_value_t = 65536)]
    pub full_compare_every: u64,
    /// Print only the summary line.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub read: ReadArgs,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The program (for example programs/bin/bench.elf).
    pub program: PathBuf,
    /// Instructions for the hart's runs, untraced and writing the trace.
    #[arg(long, default_value_t = 100_000_000)]
    pub insns: u64,
    /// Instructions for the run writing the trace to a file (a few hundred MB at 28 bytes
    /// per instruction; 0 to skip).
    #[arg(long, default_value_t = 5_000_000)]
    pub file_insns: u64,
    /// Instructions of the stream verified from memory (about 28 bytes each).
    #[arg(long, default_value_t = 10_000_000)]
    pub verify_insns: u64,
    /// Instructions of the stream piped from a running hart to the verifier (0 to skip).
    #[arg(long, default_value_t = 100_000_000)]
    pub stream_insns: u64,
    /// Repeat each measurement this many times and keep the best.
    #[arg(long, default_value_t = 3)]
    pub repeat: u32,
    /// Writer options, as `hartscope run --tandem-with`.
    #[arg(long, value_name = "LIST")]
    pub with: Option<String>,
    /// Write the results as JSON to FILE as well.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MutateArgs {
    /// The programs.
    #[arg(required = true)]
    pub programs: Vec<PathBuf>,
    /// Faults per kind.
    #[arg(long, default_value_t = 1000)]
    pub per_kind: u64,
    /// Only these kinds (comma-separated names as in the output, with '-' for spaces).
    #[arg(long, value_name = "LIST")]
    pub kinds: Option<String>,
    /// Writer options, as `hartscope run --tandem-with`.
    #[arg(long, value_name = "LIST")]
    pub with: Option<String>,
    /// The streams' style, as `hartscope run --tandem-style` (default flute).
    #[arg(long, value_enum, value_name = "STYLE")]
    pub style: Option<StyleArg>,
    /// Write the tallies as JSON to FILE as well.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

fn parse_u64(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(&h.replace('_', ""), 16),
        None => t.replace('_', "").parse(),
    };
    r.map_err(|_| format!("'{s}' is not a number"))
}

pub fn run(cmd: TandemCommand) -> Result<ExitCode> {
    match cmd {
        TandemCommand::Dump(a) => dump(a),
        TandemCommand::Verify(a) => verify(a),
        TandemCommand::Bench(a) => bench(a).map(|()| ExitCode::SUCCESS),
        TandemCommand::Mutate(a) => mutate(a),
    }
}

fn open_input(p: &Path) -> Result<Box<dyn Read>> {
    if p.as_os_str() == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    let md = std::fs::metadata(p).with_context(|| format!("cannot open {}", p.display()))?;
    if md.is_dir() {
        bail!("{}: is a directory, not a tandem trace", p.display());
    }
    Ok(Box::new(
        File::open(p).with_context(|| format!("cannot open {}", p.display()))?,
    ))
}

/// The stream's settings file: `--sidecar`, else IN.json if there is one (never for
/// standard input), with the file it came from.
fn sidecar(input: &Path, read: &ReadArgs) -> Result<Option<(Sidecar, PathBuf)>> {
    if read.no_sidecar {
        return Ok(None);
    }
    let r = match &read.sidecar {
        Some(p) => Sidecar::load(p).map(|s| Some((s, p.clone()))),
        None if input.as_os_str() == "-" => Ok(None),
        None => Sidecar::read(input).map(|s| s.map(|s| (s, tandem::sidecar::path_for(input)))),
    };
    r.map_err(|e| anyhow::anyhow!("{e} (use --no-sidecar to ignore it)"))
}

/// The parameters and where they came from (for messages).
fn params(read: &ReadArgs, side: Option<&(Sidecar, PathBuf)>) -> (Params, String) {
    match (read.params, side) {
        (Some(p), _) => (p, "--params".into()),
        (None, Some((s, p))) => (s.writer.params, format!("{}: writer.params", p.display())),
        (None, None) => (Params::RV64GC, "the default parameters".into()),
    }
}

/// Write to standard output, saying so when it fails.
fn stdout_context<T>(r: std::io::Result<T>) -> Result<T> {
    r.context("cannot write to standard output")
}

fn dump(a: DumpArgs) -> Result<ExitCode> {
    use tandem::dump::DumpError;
    let side = sidecar(&a.input, &a.read)?;
    let mut parser = tandem::ParserOptions::with_params(params(&a.read, side.as_ref()).0);
    parser.strict_groups = a.read.strict_groups;
    let opts = tandem::dump::DumpOptions {
        parser,
        start_pc: a.start_pc.or(side.as_ref().map(|(s, _)| s.entry)),
    };
    let input = open_input(&a.input)?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    // A reader that stopped reading (`| head`) is not an error.
    let broken_pipe = |e: &std::io::Error| e.kind() == std::io::ErrorKind::BrokenPipe;
    match tandem::dump::dump(input, &mut out, opts) {
        Ok(_) => match out.flush() {
            Err(e) if !broken_pipe(&e) => stdout_context(Err(e)),
            _ => Ok(ExitCode::SUCCESS),
        },
        Err(DumpError::Output(e)) if broken_pipe(&e) => Ok(ExitCode::SUCCESS),
        Err(DumpError::Output(e)) => stdout_context(Err(e)),
        Err(e) => {
            let flushed = out.flush();
            eprintln!("hartscope: {}: {e}", a.input.display());
            match flushed {
                Err(f) if !broken_pipe(&f) => stdout_context(Err(f)),
                _ => Ok(ExitCode::from(2)),
            }
        }
    }
}

fn verify(a: VerifyArgs) -> Result<ExitCode> {
    let side = sidecar(&a.input, &a.read)?;
    let (params, params_from) = params(&a.read, side.as_ref());
    // The hart's FLEN, from the ISA the settings file gives (RV64GC without one); a machine
    // the settings describe wrongly is reported when the verifier is set up.
    let flen = side
        .as_ref()
        .and_then(|(s, _)| s.hart.machine.as_ref())
        .and_then(|v| {
            let mut c = iss::Config::default();
            tandem::sidecar::apply_machine(v, &mut c).ok()?;
            Some(tandem::params::hart_flen(&c.isa))
        })
        .unwrap_or(64);
    params
        .check_hart_flen(flen)
        .with_context(|| format!("{params_from}: the stream cannot be verified"))?;
    let mut cfg = VerifyConfig {
        params,
        max_mismatches: a.max_mismatches,
        full_compare_every: a.full_compare_every,
        strict_groups: a.read.strict_groups,
        ..Default::default()
    };
    if let Some((s, _)) = &side {
        // The loader accepts only these two.
        cfg.misaligned = match s.hart.misaligned.as_str() {
            "emulate" => Misaligned::Emulate,
            _ => Misaligned::Trap,
        };
        cfg.absent = s.writer.omit.clone();
        cfg.machine = s.hart.machine.clone();
        cfg.flute_strict = s.writer.style == tandem::Style::FluteStrict;
    }
    let mut ram_from = "the default RAM size".to_string();
    if let Some((s, p)) = &side {
        ram_from = format!("the RAM size in {} (hart.ram_size)", p.display());
        cfg.ram_size = s.hart.ram_size;
    }
    if let Some(m) = a.mem {
        cfg.ram_size = m;
        ram_from = "--mem".into();
    }
    // A size within the rules that the host will not reserve is said here, with where the
    // size came from, before anything is read.
    iss::bus::Ram::new(iss::bus::RAM_BASE, cfg.ram_size).with_context(|| ram_from.clone())?;
    if let Some(m) = a.misaligned {
        cfg.misaligned = match m {
            crate::run::MisalignedArg::Trap => Misaligned::Trap,
            crate::run::MisalignedArg::Emulate => Misaligned::Emulate,
        };
    }
    if let Some(l) = &a.absent {
        cfg.absent = Partial::parse(l).map_err(|e| anyhow::anyhow!("--absent: {e}"))?;
    }
    if let Some(l) = &a.nondet {
        cfg.nondet = Nondet::parse(l).map_err(|e| anyhow::anyhow!("--nondet: {e}"))?;
    }
    let elf_path = match (&a.elf, side.as_ref().and_then(|(s, _)| s.program.clone())) {
        (Some(p), _) => Some(p.clone()),
        (None, Some(p)) if Path::new(&p).exists() => {
            if !a.quiet {
                eprintln!("hartscope: verifying against {p} (named in the settings file)");
            }
            Some(PathBuf::from(p))
        }
        _ => None,
    };
    let elf = match &elf_path {
        Some(p) => Some(std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?),
        None => None,
    };
    let shown = elf_path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let read = Arc::new(AtomicU64::new(0));
    let input = Counted {
        inner: open_input(&a.input)?,
        count: read.clone(),
    };
    // The report is written when verification ends, after the line is cleared.
    let progress = Progress::start(
        crate::progress::wanted(a.quiet, false),
        "hartscope tandem verify",
        Unit::Bytes,
        read,
        crate::progress::file_size(&a.input),
    );
    let report = tandem::verify::verify(cfg, elf.as_deref().map(|b| (b, shown.as_str())), input);
    progress.finish();
    let mut human = Vec::new();
    report.write_human(&mut human)?;
    let shown = if a.quiet {
        let text = String::from_utf8_lossy(&human);
        let mut s = String::new();
        for l in text.lines().filter(|l| l.starts_with("error:")) {
            s.push_str(l);
            s.push('\n');
        }
        if let Some(last) = text.lines().last() {
            s.push_str(last);
            s.push('\n');
        }
        s.into_bytes()
    } else {
        human
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = out.write_all(&shown).and_then(|()| out.flush());
    if let Some(e) = &report.error {
        // Standard output has the report; a script reading standard error sees why too.
        eprintln!("hartscope: {}: {e}", a.input.display());
    }
    // The JSON report is written even when standard output failed.
    if let Some(p) = &a.report {
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(p, text)
            .with_context(|| format!("--report: cannot write the report to {}", p.display()))?;
    }
    written.context("cannot write the report to standard output")?;
    Ok(ExitCode::from(report.exit_code()))
}

#[derive(serde::Serialize, Debug, Default)]
struct BenchResult {
    program: String,
    untraced_mips: f64,
    records_mips: f64,
    simple_runs_mips: f64,
    tandem_sink_mips: f64,
    tandem_sink_ratio: f64,
    bytes_per_insn: f64,
    tandem_file_mips: Option<f64>,
    tandem_file_ratio: Option<f64>,
    verify_memory_minsns_per_s: f64,
    verify_stream_minsns_per_s: Option<f64>,
    verify_stream_insns: Option<u64>,
    /// (bytes of stream read, resident set in KiB).
    verify_stream_rss_kib: Vec<(u64, u64)>,
}

fn bench(a: BenchArgs) -> Result<()> {
    let elf = std::fs::read(&a.program)
        .with_context(|| format!("cannot read {}", a.program.display()))?;
    let path = a.program.display().to_string();
    let hart = tandem::session::HartConfig::default();
    let mut cfg = WriterConfig::flute();
    if let Some(w) = &a.with {
        cfg.apply_extras(w)
            .map_err(|e| anyhow::anyhow!("--with: {e}"))?;
    }
    let best = |f: &mut dyn FnMut() -> Result<f64>| -> Result<f64> {
        let mut b = 0f64;
        for _ in 0..a.repeat.max(1) {
            b = b.max(f()?);
        }
        Ok(b)
    };
    let mut r = BenchResult {
        program: path.clone(),
        ..Default::default()
    };
    let mips = |n: u64, s: f64| n as f64 / s.max(1e-9) / 1e6;
    eprintln!("hartscope tandem bench: {path}");
    // The three runs alternate, each repeat running all three, and each figure is the best
    // of its runs: this machine's speed drifts by tens of percent over a minute, which would
    // bias figures taken one after the other.
    let mut bytes = 0u64;
    let mut insns = 0u64;
    for _ in 0..a.repeat.max(1) {
        let (n, s, _) = tandem::bench::hart_speed(&elf, &path, hart, a.insns, None)
            .map_err(anyhow::Error::msg)?;
        r.untraced_mips = r.untraced_mips.max(mips(n, s));
        let (n, s) = tandem::bench::hart_speed_records(&elf, &path, hart, a.insns, false)
            .map_err(anyhow::Error::msg)?;
        r.records_mips = r.records_mips.max(mips(n, s));
        let (n, s) = tandem::bench::hart_speed_records(&elf, &path, hart, a.insns, true)
            .map_err(anyhow::Error::msg)?;
        r.simple_runs_mips = r.simple_runs_mips.max(mips(n, s));
        let (n, s, b) = tandem::bench::hart_speed(
            &elf,
            &path,
            hart,
            a.insns,
            Some((&cfg, Box::new(std::io::sink()))),
        )
        .map_err(anyhow::Error::msg)?;
        (bytes, insns) = (b, n);
        r.tandem_sink_mips = r.tandem_sink_mips.max(mips(n, s));
    }
    println!(
        "hart, untraced:                 {:>8.1} MIPS (best of {} runs, alternated with the \
         three below)",
        r.untraced_mips,
        a.repeat.max(1)
    );
    println!(
        "hart, records to a null sink:   {:>8.1} MIPS ({:.1}% of untraced: the hart's cost of \
         building every retirement record, one instruction at a time)",
        r.records_mips,
        100.0 * r.records_mips / r.untraced_mips
    );
    println!(
        "hart, simple runs, null sink:   {:>8.1} MIPS ({:.1}% of untraced: the same records, \
         those of simple instructions as runs of effects, as the writer takes them; the floor \
         under the writer)",
        r.simple_runs_mips,
        100.0 * r.simple_runs_mips / r.untraced_mips
    );
    r.tandem_sink_ratio = r.tandem_sink_mips / r.untraced_mips;
    r.bytes_per_insn = bytes as f64 / insns.max(1) as f64;
    println!(
        "hart, writing the trace:        {:>8.1} MIPS ({:.1}% of untraced; {:.1} bytes per \
         instruction, formatted and handed to a writer thread that discards them)",
        r.tandem_sink_mips,
        100.0 * r.tandem_sink_ratio,
        r.bytes_per_insn
    );
    if a.file_insns > 0 {
        let tmp =
            std::env::temp_dir().join(format!("hartscope-tandem-bench-{}", std::process::id()));
        // Alternated too.
        let mut untraced = 0f64;
        let res = best(&mut || {
            let (n, s, _) = tandem::bench::hart_speed(&elf, &path, hart, a.file_insns, None)
                .map_err(anyhow::Error::msg)?;
            untraced = untraced.max(mips(n, s));
            let f =
                File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
            let (n, s, _) = tandem::bench::hart_speed(
                &elf,
                &path,
                hart,
                a.file_insns,
                Some((&cfg, Box::new(f))),
            )
            .map_err(anyhow::Error::msg)?;
            Ok(mips(n, s))
        });
        let _ = std::fs::remove_file(&tmp);
        let m = res?;
        r.tandem_file_mips = Some(m);
        r.tandem_file_ratio = Some(m / untraced);
        println!(
            "hart, writing the trace to a file ({} M instructions): {:.1} MIPS ({:.1}% of \
             untraced over the same prefix, {:.1} MIPS)",
            a.file_insns / 1_000_000,
            m,
            100.0 * m / untraced,
            untraced
        );
    }
    // The verifier on a stream in memory.
    let (stream, _, _) =
        tandem::session::record(&elf, &path, hart, &cfg, Some(a.verify_insns), Vec::new())
            .map_err(anyhow::Error::msg)?;
    let vcfg = VerifyConfig {
        absent: cfg.omit.clone(),
        ..Default::default()
    };
    r.verify_memory_minsns_per_s = best(&mut || {
        let rep = tandem::verify::verify(vcfg.clone(), Some((&elf, &path)), &stream[..]);
        if rep.exit_code() != 0 {
            bail!("the benchmark's own stream did not verify: {:?}", rep.error);
        }
        Ok(rep.rate() / 1e6)
    })?;
    println!(
        "verifier, stream in memory:     {:>8.2} M instructions/s ({} M instructions, {} MB)",
        r.verify_memory_minsns_per_s,
        a.verify_insns / 1_000_000,
        stream.len() >> 20
    );
    drop(stream);
    if a.stream_insns > 0 {
        let (rep, samples) =
            tandem::bench::verify_streamed(&elf, &path, hart, a.stream_insns, &cfg, vcfg.clone())
                .map_err(anyhow::Error::msg)?;
        if rep.exit_code() != 0 {
            bail!("the piped stream did not verify: {:?}", rep.error);
        }
        r.verify_stream_minsns_per_s = Some(rep.rate() / 1e6);
        r.verify_stream_insns = Some(rep.instructions);
        let rss: Vec<String> = samples
            .iter()
            .map(|(b, k)| format!("{} MB: {} MiB", b >> 20, k >> 10))
            .collect();
        println!(
            "verifier, piped from a run:     {:>8.2} M instructions/s ({} M instructions, {} \
             MB of stream); resident memory along the stream: {}",
            rep.rate() / 1e6,
            rep.instructions / 1_000_000,
            rep.bytes >> 20,
            rss.join(", ")
        );
        r.verify_stream_rss_kib = samples;
    }
    if let Some(p) = &a.json {
        std::fs::write(p, serde_json::to_string_pretty(&r)?)
            .with_context(|| format!("cannot write {}", p.display()))?;
    }
    Ok(())
}

fn mutate(a: MutateArgs) -> Result<ExitCode> {
    use tandem::mutate::{run_kind, KINDS};
    let mut cfg = match a.style {
        Some(StyleArg::Spec) => WriterConfig::spec(),
        Some(StyleArg::FluteStrict) => WriterConfig::flute_strict(),
        Some(StyleArg::Flute) | None => WriterConfig::flute(),
    };
    if let Some(w) = &a.with {
        cfg.apply_extras(w)
            .map_err(|e| anyhow::anyhow!("--with: {e}"))?;
    }
    let kinds: Vec<_> = match &a.kinds {
        None => KINDS.to_vec(),
        Some(l) => {
            let want: Vec<String> = l.split(',').map(|s| s.trim().replace('-', " ")).collect();
            let k: Vec<_> = KINDS
                .iter()
                .copied()
                .filter(|k| want.iter().any(|w| w == k.name()))
                .collect();
            if k.len() != want.len() {
                bail!(
                    "--kinds: known kinds are {}",
                    KINDS
                        .iter()
                        .map(|k| k.name().replace(' ', "-"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            k
        }
    };
    let mut progs = Vec::new();
    for p in &a.programs {
        let b = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
        progs.push((p.display().to_string(), b));
    }
    let vcfg = VerifyConfig {
        params: cfg.params,
        absent: cfg.omit.clone(),
        flute_strict: cfg.style == tandem::Style::FluteStrict,
        ..Default::default()
    };
    println!(
        "{:<24} {:>8} {:>9} {:>9} {:>9} {:>7} {:>8}",
        "kind", "faults", "changing", "detected", "allowed", "false", "rate"
    );
    let mut all = Vec::new();
    let mut ok = true;
    let done = Arc::new(AtomicU64::new(0));
    let progress = Progress::start(
        crate::progress::wanted(false, true),
        "hartscope tandem mutate",
        Unit::Items("fault kinds"),
        done.clone(),
        Some(kinds.len() as u64),
    );
    for kind in kinds {
        let t = run_kind(kind, &progs, &cfg, &vcfg, a.per_kind).map_err(anyhow::Error::msg)?;
        done.fetch_add(1, Ordering::Relaxed);
        println!(
            "{:<24} {:>8} {:>9} {:>9} {:>9} {:>7} {:>7.1}%",
            kind.name(),
            t.mutations,
            t.state_changing,
            t.detected,
            t.allowed_silent,
            t.false_reports,
            100.0 * t.rate()
        );
        for s in t.missed.iter().chain(&t.stray) {
            println!("    {s}");
        }
        ok &= t.detected == t.state_changing && t.false_reports == 0;
        all.push((kind, t));
    }
    progress.finish();
    if let Some(p) = &a.json {
        std::fs::write(p, serde_json::to_string_pretty(&all)?)
            .with_context(|| format!("cannot write {}", p.display()))?;
    }
    Ok(ExitCode::from(if ok { 0 } else { 1 }))
}

#[cfg(test)]
mod tests {
    //! The commands and their exit statuses: 0 when a stream matches, 1 on a mismatch, 2 for
    //! unusable input (malformed stream, no program, unreadable file: an error, which `main`
    //! turns into 2).

    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(subcommand)]
        cmd: TandemCommand,
    }

    #[derive(Parser)]
    struct R {
        #[command(flatten)]
        run: crate::run::RunArgs,
    }

    fn program(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("programs/bin")
            .join(format!("{name}.elf"))
    }

    fn tmp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!(
            "hartscope-tandem-cli-{}-{name}",
            std::process::id()
        ))
    }

    fn code(c: ExitCode) -> String {
        format!("{c:?}")
    }

    fn status(n: u8) -> String {
        code(ExitCode::from(n))
    }

    fn tandem(args: &[&str]) -> Result<ExitCode> {
        let mut v = vec!["t"];
        v.extend_from_slice(args);
        run(T::try_parse_from(v)?.cmd)
    }

    /// `hartscope run PROGRAM --tandem FILE ARGS...`
    fn record(prog: &str, file: &Path, extra: &[&str]) {
        let p = program(prog);
        let mut v = vec![
            "r".to_string(),
            p.display().to_string(),
            "--quiet".into(),
            "--tandem".into(),
            file.display().to_string(),
        ];
        v.extend(extra.iter().map(|s| s.to_string()));
        let args = R::try_parse_from(v).unwrap().run;
        let c = crate::run::run(args).unwrap();
        assert_eq!(code(c), status(0), "{prog} exits 0");
        assert!(tandem::sidecar::path_for(file).exists());
    }

    fn cleanup(f: &Path) {
        let _ = std::fs::remove_file(f);
        let _ = std::fs::remove_file(tandem::sidecar::path_for(f));
    }

    #[test]
    fn run_dump_verify() {
        let f = tmp("rv64m.trace");
        record("rv64m", &f, &[]);
        let fs = f.display().to_string();
        let elf = program("rv64m").display().to_string();
        assert_eq!(code(tandem(&["dump", &fs]).unwrap()), status(0));
        let rep = tmp("report.json");
        let c = tandem(&[
            "verify",
            &fs,
            "--elf",
            &elf,
            "--report",
            &rep.display().to_string(),
        ]);
        assert_eq!(code(c.unwrap()), status(0));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&rep).unwrap()).unwrap();
        assert_eq!(json["status"], "match");
        assert!(json["instructions"].as_u64().unwrap() > 1000);
        // The program named in the settings file is used when --elf is not given.
        assert_eq!(code(tandem(&["verify", &fs, "-q"]).unwrap()), status(0));

        // A register value changed in the stream: exit 1, reported at its group (the
        // instructions after it used the right value, so they may be reported too).
        let mut b = std::fs::read(&f).unwrap();
        let g = tandem::parser::parse_groups(&b, tandem::ParserOptions::default()).unwrap();
        let target = g
            .iter()
            .find(|g| g.index > 200 && !g.regs.is_empty() && g.regs[0].addr >= 0x1000)
            .unwrap();
        let at = target
            .items
            .iter()
            .find(|(_, i)| matches!(i, tandem::Item::FullReg { .. }))
            .unwrap()
            .0 as usize;
        b[at + 3] ^= 0x40;
        let bad = tmp("rv64m-bad.trace");
        std::fs::write(&bad, &b).unwrap();
        let badrep = tmp("bad.json");
        let c = tandem(&[
            "verify",
            &bad.display().to_string(),
            "--elf",
            &elf,
            "--report",
            &badrep.display().to_string(),
        ]);
        assert_eq!(code(c.unwrap()), status(1));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&badrep).unwrap()).unwrap();
        assert_eq!(json["status"], "mismatch");
        assert_eq!(json["mismatches"][0]["group"], target.index);
        assert_eq!(json["mismatches"][0]["offset"], target.offset);

        // Malformed: exit 2 from verify and dump.
        b[at] = 0x13;
        std::fs::write(&bad, &b).unwrap();
        let bads = bad.display().to_string();
        assert_eq!(
            code(tandem(&["verify", &bads, "--elf", &elf]).unwrap()),
            status(2)
        );
        assert_eq!(code(tandem(&["dump", &bads]).unwrap()), status(2));
        // No program at all: exit 2.
        let c = tandem(&["verify", &fs, "--no-sidecar"]);
        assert_eq!(code(c.unwrap()), status(2));
        // Unreadable input, bad options: errors (exit 2 from main).
        assert!(tandem(&["verify", "/nonexistent.trace", "--elf", &elf]).is_err());
        assert!(tandem(&["verify", &fs, "--nondet", "bogus"]).is_err());
        assert!(tandem(&["dump", &fs, "--params", "64,64"]).is_err());
        for p in [&f, &bad, &rep, &badrep] {
            cleanup(p);
        }
    }

    #[test]
    fn writer_options_and_partial_traces() {
        let f = tmp("csr.trace");
        let fs = f.display().to_string();
        for extra in [
            vec!["--tandem-style", "spec"],
            vec!["--tandem-with", "all"],
            vec![
                "--tandem-with",
                "incr-pc,mem,-eaddr",
                "--tandem-omit",
                "fpr,csr:mtval",
            ],
        ] {
            record("csr", &f, &extra);
            // The settings file tells verify what was left out and how wide fields are.
            assert_eq!(
                code(tandem(&["verify", &fs, "-q"]).unwrap()),
                status(0),
                "{extra:?}"
            );
        }
        // Image and start state in the stream: no ELF needed.
        record("csr", &f, &["--tandem-with", "image"]);
        assert_eq!(
            code(tandem(&["verify", &fs, "--no-sidecar", "-q"]).unwrap()),
            status(0)
        );
        let p = program("csr");
        let mut v = vec![
            "r",
            p.to_str().unwrap(),
            "--tandem",
            &fs,
            "--tandem-with",
            "bogus",
        ];
        let args = R::try_parse_from(&v).unwrap().run;
        assert!(crate::run::run(args).is_err());
        v[5] = "all";
        v.extend(["--tandem-omit", "nothing-like-this"]);
        let args = R::try_parse_from(&v).unwrap().run;
        assert!(crate::run::run(args).is_err());
        cleanup(&f);
    }

    /// The RAM sizes a settings file may give are those `--mem` accepts (one rule, held by
    /// `tandem::limits::check_ram_size`; `run::parse_size` states it for the option).
    #[test]
    fn settings_ram_sizes_follow_the_mem_option() {
        let mut sizes = vec![0u64, 1, 4095, 4096, 4097, 8192, 256 << 20, 1 << 40];
        sizes.extend([(1 << 40) + 4096, 1 << 41, u64::MAX - 4095, u64::MAX]);
        for n in sizes {
            assert_eq!(
                crate::run::parse_size(&n.to_string()).is_ok(),
                tandem::limits::check_ram_size(n).is_ok(),
                "{n}"
            );
        }
    }

    #[test]
    fn mutate_counts_detections() {
        let p = program("rv64i").display().to_string();
        let c = tandem(&[
            "mutate",
            &p,
            "--per-kind",
            "20",
            "--kinds",
            "wrong-next-pc,dropped-group",
        ]);
        assert_eq!(code(c.unwrap()), status(0));
        assert!(tandem(&["mutate", &p, "--kinds", "nonsense"]).is_err());
    }
}
