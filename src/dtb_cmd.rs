//! `hartscope dtb`: the device tree of the platform a configuration describes, as a blob
//! (`--format dtb`, what Spike's `--dtb` and Linux take) or as source (`--format dts`).
//!
//! It is the tree the built-in SBI hands to S-mode (iss::dtb). `--platform spike` writes instead
//! the tree Spike makes for its own default machine (`spike --dump-dts`: RV64GC, 2 GiB), the one
//! the differential tests hand Spike with `--dtb` so that it needs no device tree compiler
//! (`crate::spike`).

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
    /// for `spike --dtb` on a machine without a device tree compiler; the other options do
    /// not apply to it).
    #[arg(long, value_enum, default_value_t = Platform::Hartscope)]
    pub platform: Platform,
    #[command(flatten)]
    pub hart: crate::hart_args::HartArgs,
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
    let dtb = match args.platform {
        Platform::Hartscope => blob(&config)?,
        Platform::Spike => crate::spike::spike_platform_dtb()
            .map_err(|e| anyhow::anyhow!("cannot build Spike's device tree: {e}"))?,
    };
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
