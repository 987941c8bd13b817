//! `hartscope spike [Spike's options] ELF`: Spike's command line, so that a flow written for
//! Spike (riscv-dv's `spike --log-commits --isa=... --priv=... --misaligned -l ELF`, the
//! architecture tests' `+signature=`) runs hartscope by changing the binary's name.
//!
//! Each option Spike has that hartscope implements maps onto `hartscope run`'s; any other is
//! refused by name (never ignored), and so are arguments for the program after the ELF
//! (hartscope passes none to it). Output is Spike's: the program's console on standard
//! output, `-l` and `--log-commits` lines on standard error or to `--log=FILE`, no summary.

use crate::run::{parse_granularity, MisalignedArg, RunArgs};
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// What `hartscope spike --help` prints.
pub const USAGE: &str = "\
usage: hartscope spike [Spike's options] ELF

Spike's command line, run on hartscope (`hartscope run`). Options:
  -l                          Spike's execution trace (run -l)
  --log-commits               commit lines (with -l: after each instruction's line)
  --log=FILE                  -l and --log-commits to FILE instead of standard error
  --isa=ISA                   rv64gc or a spelled-out RV64GC string (run --isa)
  --priv=msu                  M, S and U (the only set hartscope has)
  --misaligned                misaligned loads and stores are performed (run --misaligned emulate)
  -m<MiB> | -m0x80000000:SIZE RAM at 0x80000000 (run --mem)
  -pN                         N harts, 1 to 8 (run --harts N)
  --pc=ADDR                   start at ADDR instead of the ELF's entry (run --pc)
  --instructions=N            stop after N instructions (run --max-insns)
  +signature=FILE             write the signature (run --signature)
  +signature-granularity=N    bytes per signature line (run --signature-granularity)
Any other option is refused. Exit status: as `hartscope run`'s.
";

/// Parse Spike's arguments into `hartscope run`'s.
pub fn parse(args: &[OsString]) -> Result<RunArgs> {
    let mut run = RunArgs {
        program: None,
        mem: crate::run::MemMap::at_ram_base(2048 << 20),
        max_insns: None,
        log_commits: None,
        log_trace: false,
        log: None,
        commits_to_log: false,
        pc: None,
        signature: None,
        signature_granularity: 4,
        uart_input: None,
        payload: None,
        boot: Default::default(),
        misaligned: MisalignedArg::Trap,
        quiet: true,
        hart: Default::default(),
        trace: Default::default(),
        tandem: Default::default(),
        gdb: None,
        trace_hart: crate::run::TraceHarts::One(0),
    };
    let mut program = None;
    for (i, a) in args.iter().enumerate() {
        let Some(s) = a.to_str() else {
            // Only the program's path may be anything.
            if program.is_none() && !a.to_string_lossy().starts_with(['-', '+']) {
                program = Some(PathBuf::from(a));
                continue;
            }
            bail!("argument {}: not UTF-8: {}", i + 1, a.to_string_lossy());
        };
        if program.is_some() {
            bail!(
                "'{s}' after the program: arguments for the program are not supported \
                 (hartscope passes none to it)"
            );
        }
        let value = |prefix: &str| s[prefix.len()..].to_string();
        match s {
            "-l" => run.log_trace = true,
            "--log-commits" => run.commits_to_log = true,
            "--misaligned" => run.misaligned = MisalignedArg::Emulate,
            _ if s.starts_with("--log=") => run.log = Some(PathBuf::from(value("--log="))),
            _ if s.starts_with("--isa=") => run.hart.isa = Some(value("--isa=").to_lowercase()),
            _ if s.starts_with("--priv=") => {
                let p = value("--priv=");
                if !p.eq_ignore_ascii_case("msu") {
                    bail!(
                        "--priv={p}: hartscope has M, S and U modes and cannot leave any out \
                         (only --priv=msu)"
                    );
                }
            }
            _ if s.starts_with("--pc=") => {
                run.pc = Some(crate::trace::parse_addr(&value("--pc=")).context("--pc")?)
            }
            _ if s.starts_with("--instructions=") => {
                let v = value("--instructions=");
                run.max_insns = Some(
                    v.parse()
                        .with_context(|| format!("--instructions={v}: not a number"))?,
                );
            }
            _ if s.starts_with("+signature=") => {
                run.signature = Some(PathBuf::from(value("+signature=")))
            }
            _ if s.starts_with("+signature-granularity=") => {
                let v = value("+signature-granularity=");
                run.signature_granularity = parse_granularity(&v)
                    .map_err(|e| anyhow::anyhow!("+signature-granularity={v}: {e}"))?;
            }
            _ if s.starts_with("-p") => {
                run.hart.harts = match s[2..].parse::<u8>() {
                    Ok(n) if (1..=iss::bus::MAX_HARTS as u8).contains(&n) => n,
                    _ => bail!(
                        "{s}: hartscope simulates 1 to {} harts (-p1 to -p{0})",
                        iss::bus::MAX_HARTS
                    ),
                };
            }
            _ if s.starts_with("-m") && s.len() > 2 => run.mem = parse_mem(&s[2..])?,
            _ if s.starts_with('-') || s.starts_with('+') => bail!(
                "option '{s}' is not implemented by hartscope spike (it refuses what it does \
                 not do rather than ignore it; `hartscope spike --help` lists what it takes)"
            ),
            _ => program = Some(PathBuf::from(s)),
        }
    }
    run.program = Some(program.context("no program (ELF) given")?);
    if run.log.is_some() && !run.log_trace && !run.commits_to_log {
        // Spike accepts it and writes nothing there; so does hartscope.
        run.log = None;
    }
    Ok(run)
}

/// Spike's `-m`: a size in MiB (at 0x8000_0000), or `BASE:SIZE[,...]` regions (bytes).
fn parse_mem(v: &str) -> Result<crate::run::MemMap> {
    if v.contains(':') {
        return crate::run::parse_mem_map(v).map_err(|e| anyhow::anyhow!("-m{v}: {e}"));
    }
    let mib: u64 = v
        .trim()
        .parse()
        .with_context(|| format!("-m{v}: '{v}' is not a number"))?;
    let bytes = mib
        .checked_mul(1 << 20)
        .with_context(|| format!("-m{v}: too large"))?;
    crate::run::parse_size(&bytes.to_string())
        .map(crate::run::MemMap::at_ram_base)
        .map_err(|e| anyhow::anyhow!("-m{v}: {e}"))
}

/// Run `hartscope spike ARGS`.
pub fn run(args: Vec<OsString>) -> Result<ExitCode> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        print!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    }
    crate::run::run(parse(&args)?)
}
