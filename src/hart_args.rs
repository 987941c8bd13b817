//! The hart's options: the ISA string and its extensions, the PMU (counters, models) and
//! Control Transfer Records; and the reports of what they saw (`--pmu-report`,
//! `--ctr-report`).

use anyhow::{bail, Context, Result};
use clap::Args;
use iss::elf::Program;
use iss::{Config, Machine};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct HartArgs {
    /// ISA string, which means what it says: rv64 and i or g, then any of m, a, f, d, c, b
    /// (in that order; b is zba_zbb_zbs), then any of zicsr and zifencei (always there, as on
    /// Spike), zicntr, zihpm, zicond, zba, zbb, zbs, zcb (with c), zihintpause, zihintntl, zicbop (hints), zicbom, zicboz, zfa (with f), sscofpmf (counter overflow and mode filtering), smctr / ssctr (Control Transfer
    /// Records, with smcsrind, sscsrind and smstateen, which may also be named); versions
    /// (m2p0) and upper case are accepted; or a profile, rva22u64 or rva23u64 (minus V),
    /// which selects its mandatory extensions that hartscope implements (the README lists
    /// what it lacks). An extension left out traps as illegal, and misa
    /// says so. Default: rv64imafdc_zicntr_zihpm (Spike's), with _sscofpmf with --sbi
    /// builtin.
    #[arg(long, help_heading = "Hart")]
    pub isa: Option<String>,
    /// The SBI: none (the program's own M-mode code takes its ecalls), or builtin (the program
    /// starts in S-mode with a0 = hart id and a1 = a device tree, and hartscope serves its SBI
    /// calls as OpenSBI would: Base, Timer, IPI, RFENCE, HSM, SRST, PMU, DBCN, legacy console).
    #[arg(long, value_enum, default_value_t = SbiArg::None, help_heading = "Hart")]
    pub sbi: SbiArg,
    /// Log every SBI call and its return on standard error (through `tracing`).
    #[arg(long, help_heading = "Hart")]
    pub trace_sbi: bool,
    /// Number of hpm counters (mhpmcounter3 onwards), 0..=29. Default: 29 with Sscofpmf or
    /// --sbi builtin, else 0 (as on Spike's default hart, whose hpm counters read zero).
    #[arg(
        long,
        value_name = "N",
        help_heading = "PMU",
        allow_hyphen_values = true
    )]
    pub hpm_counters: Option<u8>,
    /// Width of the hpm counters in bits, 1..=64.
    #[arg(
        long,
        value_name = "BITS",
        default_value_t = 64,
        help_heading = "PMU",
        allow_hyphen_values = true
    )]
    pub hpm_width: u8,
    /// Event models to run (comma-separated): caches, tlb, bp (branch predictor), or all.
    /// They give the cache, TLB and branch-miss events and the cycle model's penalties.
    #[arg(long, value_name = "LIST", help_heading = "PMU")]
    pub pmu_models: Option<String>,
    /// Full PMU settings from a TOML or JSON file (counters, widths, model geometries,
    /// penalties; see docs/pmu.md); the flags above override it.
    #[arg(long, value_name = "FILE", help_heading = "PMU")]
    pub pmu_config: Option<PathBuf>,
    /// At exit, print every counter with its event and value, and the SBI calls the program
    /// made, as a table; `--pmu-report=FILE.json` writes JSON instead.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-", require_equals = true,
          help_heading = "PMU")]
    pub pmu_report: Option<PathBuf>,
    /// Control Transfer Records layout: 0.1.4 (the draft, default) or 1.0 (ratified). Implies
    /// smctr in the ISA.
    #[arg(long, value_name = "LAYOUT", help_heading = "Control Transfer Records")]
    pub ctr: Option<String>,
    /// Full CTR settings from a TOML or JSON file (supported depths, implemented filter bits,
    /// RASEMU, cycle counting...; see docs/ctr.md).
    #[arg(long, value_name = "FILE", help_heading = "Control Transfer Records")]
    pub ctr_config: Option<PathBuf>,
    /// At exit, print the CTR entries from logical entry 0 (source and target symbolised, type,
    /// cycle count); `--ctr-report=FILE.json` writes JSON instead.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-", require_equals = true,
          help_heading = "Control Transfer Records")]
    pub ctr_report: Option<PathBuf>,
    /// PMP entries the hart implements, 0..=64 (as Spike's --pmpregions; default 16). With 0
    /// the pmpaddr CSRs do not exist and PMP allows every access.
    #[arg(long, value_name = "N", help_heading = "Hart")]
    pub pmpregions: Option<u8>,
    /// PMP granularity in bytes, a power of two from 4 (as Spike's --pmpgranularity; default
    /// 4): the pmpaddr bits below it read as the privileged spec says, and NA4 becomes NAPOT.
    #[arg(long, value_name = "BYTES", help_heading = "Hart")]
    pub pmpgranularity: Option<u64>,
    /// Exceptions whose trap writes 0 to mtval/stval instead of the address or instruction
    /// (an implementation's choice; comma-separated codes or names such as
    /// illegal-instruction, breakpoint, load-access-fault; `all`). Default: none, as Spike.
    #[arg(long, value_name = "LIST", help_heading = "Hart")]
    pub tval_zero: Option<String>,
    /// Harts, 1 to 8 (Spike's -p): hart h has mhartid h, its CLINT msip and mtimecmp, PLIC
    /// contexts 2h (M) and 2h+1 (S). They run interleaved as on Spike, 5000 instructions
    /// each in turn; the commit log has every hart's lines (`core   N:`). With --sbi builtin
    /// the harts other than 0 wait stopped for SBI HSM hart_start.
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = "Hart",
          value_parser = clap::value_parser!(u8).range(1..=iss::bus::MAX_HARTS as i64))]
    pub harts: u8,
    /// Run every instruction through its handler: no compiled code for hot blocks (which,
    /// on x86-64 hosts, untraced runs use by default and which retires exactly what the
    /// handlers would; for comparing the two, or ruling the compiler out).
    #[arg(long, help_heading = "Hart")]
    pub no_jit: bool,
}

impl Default for HartArgs {
    fn default() -> Self {
        HartArgs {
            isa: None,
            sbi: SbiArg::None,
            trace_sbi: false,
            hpm_counters: None,
            hpm_width: 64,
            pmu_models: None,
            pmu_config: None,
            pmu_report: None,
            ctr: None,
            ctr_config: None,
            ctr_report: None,
            pmpregions: None,
            pmpgranularity: None,
            tval_zero: None,
            harts: 1,
            no_jit: false,
        }
    }
}

/// `--sbi`: who serves S-mode's ecalls.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SbiArg {
    /// The program's own M-mode code.
    #[default]
    None,
    /// hartscope's built-in SBI (the program runs in S-mode).
    Builtin,
}

impl HartArgs {
    /// The machine configuration these options describe, on top of `base`
    /// ([`iss::options::HartOptions`] maps them; the settings files are read here).
    pub fn config(&self, base: Config) -> Result<Config> {
        let options = iss::options::HartOptions {
            isa: self.isa.clone(),
            sbi: self.sbi == SbiArg::Builtin,
            hpm_counters: self.hpm_counters,
            hpm_width: self.hpm_width,
            pmu_models: self.pmu_models.clone(),
            pmu: self
                .pmu_config
                .as_deref()
                .map(|p| {
                    crate::files::load_settings(
                        p,
                        "PMU",
                        pmu::PmuConfig::default().with_all_models(),
                    )
                    .context("--pmu-config")
                })
                .transpose()?,
            ctr_layout: self.ctr.clone(),
            ctr: self
                .ctr_config
                .as_deref()
                .map(|p| {
                    crate::files::load_settings(p, "CTR", ctr::CtrConfig::default())
                        .context("--ctr-config")
                })
                .transpose()?,
            pmp_regions: self.pmpregions,
            pmp_granularity: self.pmpgranularity,
            tval_zero: self.tval_zero.clone(),
            harts: Some(self.harts as usize),
            jit: !self.no_jit,
        };
        let c = options.config(base).map_err(anyhow::Error::msg)?;
        if self.ctr_report.is_some() && c.ctr.is_none() {
            // Said before the run, not after it.
            bail!("--ctr-report: the hart has no CTR (add smctr to --isa, or --ctr)");
        }
        Ok(c)
    }

    /// With the built-in SBI, check that the program's segments keep clear of the device
    /// tree the SBI placed at the top of RAM.
    pub fn check_boot(&self, m: &Machine, prog: &Program) -> Result<()> {
        let (dtb, len) = m.sbi().dtb;
        if !m.config.sbi {
            return Ok(());
        }
        if len == 0 {
            bail!("--sbi builtin: RAM is too small to hold the device tree (use --mem)");
        }
        for (i, &(addr, _, mem, _)) in prog.segments.iter().enumerate() {
            if addr < dtb + len && dtb < addr.saturating_add(mem) {
                bail!(
                    "--sbi builtin: segment {i} at {addr:#x}..{:#x} overlaps the device tree the \
                     SBI places at {dtb:#x}..{:#x} (use --mem to enlarge RAM)",
                    addr + mem,
                    dtb + len
                );
            }
        }
        Ok(())
    }

    /// Print or write the reports asked for.
    pub fn reports(&self, m: &mut Machine, prog: &Program, ctr_hart: usize) -> Result<()> {
        if let Some(out) = &self.pmu_report {
            let r = m.pmu_report();
            if out.as_os_str() == "-" {
                eprint!("{}", r.to_table());
            } else {
                std::fs::write(out, serde_json::to_string_pretty(&r)?)
                    .with_context(|| format!("--pmu-report: cannot write {}", out.display()))?;
            }
        }
        if let Some(out) = &self.ctr_report {
            // The hart --trace-hart follows (with one hart, the only one).
            let Some(ctr) = m.with_hart(ctr_hart, |h| h.ctr.clone()) else {
                bail!("--ctr-report: the hart has no CTR (add smctr to --isa, or --ctr)");
            };
            let entries = ctr_report(&ctr, prog);
            if out.as_os_str() == "-" {
                eprint!("{}", ctr_table(&ctr, &entries));
            } else {
                std::fs::write(out, serde_json::to_string_pretty(&entries)?)
                    .with_context(|| format!("--ctr-report: cannot write {}", out.display()))?;
            }
        }
        Ok(())
    }
}

/// One CTR entry as the report shows it.
#[derive(serde::Serialize)]
pub struct CtrEntryReport {
    pub index: usize,
    pub valid: bool,
    pub source: u64,
    pub source_symbol: Option<String>,
    pub target: u64,
    pub target_symbol: Option<String>,
    #[serde(rename = "type")]
    pub ty: String,
    pub misp: bool,
    /// The cycle count, decoded (None when CCV is 0).
    pub cycles: Option<u64>,
}

fn ctr_report(ctr: &ctr::Ctr, prog: &Program) -> Vec<CtrEntryReport> {
    ctr.entries()
        .map(|e| CtrEntryReport {
            index: e.index,
            valid: e.valid,
            source: e.source,
            source_symbol: prog.symbolize(e.source),
            target: e.target,
            target_symbol: prog.symbolize(e.target),
            ty: itype_name(e.ty).to_string(),
            misp: e.misp,
            cycles: e.cycles,
        })
        .collect()
}

fn itype_name(t: arch::Itype) -> &'static str {
    use arch::Itype::*;
    match t {
        None => "none",
        Exception => "exception",
        Interrupt => "interrupt",
        TrapReturn => "trap return",
        NontakenBranch => "not-taken branch",
        TakenBranch => "taken branch",
        UninferableJump => "indirect jump",
        Reserved7 => "reserved",
        UninferableCall => "indirect call",
        InferableCall => "direct call",
        UninferableTailCall => "indirect jump (tail)",
        InferableTailCall => "direct jump (tail)",
        CoroutineSwap => "co-routine swap",
        Return => "return",
        OtherUninferableJump => "other indirect jump",
        OtherInferableJump => "other direct jump",
    }
}

fn ctr_table(ctr: &ctr::Ctr, entries: &[CtrEntryReport]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "CTR ({}): depth {}, WRPTR {}, {}{}",
        ctr.layout(),
        ctr.depth(),
        ctr.wrptr(),
        if ctr.frozen() { "frozen" } else { "not frozen" },
        if ctr.wrap() { ", wrapped" } else { "" }
    );
    let _ = writeln!(
        s,
        "{:>5}  {:<36} {:<36} {:<22} {:>10}",
        "entry", "source", "target", "type", "cycles"
    );
    let at = |a: u64, sym: &Option<String>| match sym {
        Some(n) => format!("{a:#x} {n}"),
        Option::None => format!("{a:#x}"),
    };
    for e in entries.iter().filter(|e| e.valid) {
        let _ = writeln!(
            s,
            "{:>5}  {:<36} {:<36} {:<22} {:>10}{}",
            e.index,
            at(e.source, &e.source_symbol),
            at(e.target, &e.target_symbol),
            e.ty,
            e.cycles.map_or("-".to_string(), |c| c.to_string()),
            if e.misp { "  mispredicted" } else { "" }
        );
    }
    let invalid = entries.iter().filter(|e| !e.valid).count();
    if invalid > 0 {
        let _ = writeln!(s, "({invalid} entries not valid)");
    }
    s
}

/// What the built-in SBI has to say about how the run ended (a system reset or a stopped
/// hart), if anything.
pub fn sbi_end_note(m: &Machine) -> Option<String> {
    let s = m.sbi();
    if let Some((ty, reason)) = s.reset {
        let what = match ty {
            0 => "shutdown",
            1 => "cold reboot",
            _ => "warm reboot",
        };
        return Some(format!(
            "hartscope: the guest asked the SBI for a {what} (reset reason {reason:#x}); the run ends"
        ));
    }
    s.stopped
        .then(|| "hartscope: the guest stopped its only hart (SBI HSM hart_stop)".to_string())
}
