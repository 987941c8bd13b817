//! `hartscope dtb`: the device tree of the platform a configuration describes, as a blob
//! (`--format dtb`, what Spike's `--dtb` and Linux take) or as source (`--format dts`).
//!
//! It is the tree the built-in SBI hands to S-mode (iss::dtb). `--platform spike` writes instead
//! the tree Spike makes for its own default machine (`spike --dump-dts`: RV64GC, 2 GiB), the one
//! the differential tests hand Spike with `--dtb` so that it needs no device tree compiler
//! (`crate::spike`); with `--isa` its cpu's `riscv,isa` is that string (Spike builds its hart
//! from the tree's string and ignores its own `--isa` when given a tree).

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use iss::Config;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct DtbArgs {
    /// Where to write it ('-' for standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,
    /// dtb (the flattened blob) or dts (device tree source, as `dtc -O dts` prints it).
    #[arg(long, value_enum, default_value_t = Format::Dtb)]
    pub format: Format,
    /// RAM: a size at 0x8000_0000 or BASE:SIZE[,BASE:SIZE...] regions (as `run --mem`).
    #[arg(long, default_value = "256M", value_parser = crate::run::parse_mem_map)]
    pub mem: crate::run::MemMap,
    /// hartscope (the platform the options describe) or spike (Spike's own default machine,
    /// for `spike --dtb` on a machine without a device tree compiler; of the other options
    /// only --isa applies to it: its `riscv,isa`, which Spike builds its hart from).
    #[arg(long, value_enum, default_value_t = Platform::Hartscope)]
    pub platform: Platform,
    /// Start from this device tree blob instead of the generated one (checked, as `run
    /// --dtb` checks it): with --bootargs or the initrd's bounds it is rewritten, else
    /// printed or copied.
    #[arg(long, value_name = "FILE")]
    pub dtb: Option<PathBuf>,
    /// /chosen/bootargs, as `run --bootargs` sets it.
    #[arg(long, value_name = "STRING")]
    pub bootargs: Option<String>,
    /// /chosen/linux,initrd-start (with --initrd-end): where `run --initrd` put the initrd
    /// (hex with 0x, or decimal).
    #[arg(long, value_name = "ADDR", requires = "initrd_end", value_parser = parse_addr)]
    pub initrd_start: Option<u64>,
    /// /chosen/linux,initrd-end: the byte after the initrd's last.
    #[arg(long, value_name = "ADDR", requires = "initrd_start", value_parser = parse_addr)]
    pub initrd_end: Option<u64>,
    #[command(flatten)]
    pub hart: crate::hart_args::HartArgs,
}

/// An address: hex with 0x, or decimal.
fn parse_addr(s: &str) -> Result<u64, String> {
    let t = s.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    }
    .map_err(|_| format!("'{s}' is not an address (hex with 0x, or decimal)"))
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    Hartscope,
    Spike,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Dtb,
    Dts,
}

/// The device tree blob of the machine `config` describes.
pub fn blob(config: &Config) -> Result<Vec<u8>> {
    let pmu =
        pmu::Pmu::new(config.pmu.clone()).map_err(|e| anyhow::anyhow!("the PMU settings: {e}"))?;
    iss::dtb::build(config, &pmu.dt_tables())
        .map_err(|e| anyhow::anyhow!("cannot build the device tree: {e}"))
}

pub fn run(args: DtbArgs) -> Result<()> {
    let mut base = Config::default();
    args.mem.apply(&mut base);
    let config = args.hart.config(base)?;
    let dtb = match (&args.dtb, args.platform) {
        (Some(p), _) => {
            let b = iss::files::read_capped(p, 16 << 20, "a device tree blob")
                .map_err(|e| anyhow::anyhow!("--dtb {e}"))?;
            iss::fdt::check(&b).map_err(|e| anyhow::anyhow!("--dtb {}: {e}", p.display()))?;
            b
        }
        (None, Platform::Hartscope) => blob(&config)?,
        (None, Platform::Spike) => crate::spike::spike_platform_dtb_with(
            args.hart.isa.as_deref().unwrap_or(crate::spike::SPIKE_ISA),
            16,
            4,
        )
        .map_err(|e| anyhow::anyhow!("cannot build Spike's device tree: {e}"))?,
    };
    let chosen = iss::fdt::Chosen {
        bootargs: args.bootargs.clone(),
        initrd: args.initrd_start.zip(args.initrd_end),
    };
    if let Some((start, end)) = chosen.initrd.filter(|(s, e)| e < s) {
        bail!("--initrd-end {end:#x} is below --initrd-start {start:#x}");
    }
    let dtb = iss::fdt::patch_chosen(&dtb, &chosen).context("setting /chosen")?;
    let bytes = match args.format {
        Format::Dtb => dtb,
        Format::Dts => iss::dtb::to_dts(&dtb)
            .context("the generated device tree does not read back")?
            .into_bytes(),
    };
    if args.output.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        if args.format == Format::Dtb && out.is_terminal() {
            bail!("not writing a binary device tree to a terminal: give -o FILE or --format dts");
        }
        out.write_all(&bytes)
            .and_then(|()| out.flush())
            .context("writing the device tree to standard output")
    } else {
        std::fs::write(&args.output, &bytes)
            .with_context(|| format!("writing the device tree to {}", args.output.display()))
    }
}
