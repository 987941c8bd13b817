//! hartscope as a library for a core's testbench: the reference model of lockstep
//! co-simulation.
//!
//! A [`Hart`] is an exact RV64GC hart (hartscope's `iss`) behind the tandem verifier's live
//! front door. A testbench creates one from a [`Config`], loads the program, and then either
//! steps it ([`Hart::step`] returns each [`Retirement`]: pc, instruction, privilege, trap,
//! register writes, memory accesses), or hands it each retirement of the core under test
//! ([`Hart::step_check`]): the hart executes the same step and the tandem verifier compares
//! the two, exactly as `hartscope tandem verify` compares a stream (the same shadow state,
//! non-deterministic state taken from the core, resynchronisation after a mismatch). What
//! differs is returned as [`Mismatch`]es with the reference's and the core's values and the
//! disassembly. Every checked retirement can be recorded as a Bluespec tandem stream
//! ([`Hart::record`]) that replays offline with `hartscope tandem verify` to the same verdict.
//!
//! The C ABI (`plugin/c`), the SystemVerilog DPI-C package over it and the Python module
//! (`plugin/python`) are thin front ends over this crate.
//!
//! ```
//! use plugin::{Config, Hart};
//! let mut hart = Hart::new(&Config::default()).unwrap();
//! // addi a0, zero, 5 at the reset pc
//! hart.write_mem(0x8000_0000, &0x0050_0513u32.to_le_bytes()).unwrap();
//! hart.reset(0x8000_0000);
//! let r = hart.step();
//! assert_eq!(r.x_write(10), Some(5));
//! let mut dut = r;
//! hart.reset(0x8000_0000);
//! dut.writes[0].value = 6; // the core wrote the wrong value
//! let bad = hart.step_check(&dut).unwrap();
//! assert_eq!(bad[0].diffs[0].element, "x10/a0");
//! ```

pub mod retire;
pub mod rvfi;
pub mod spike_log;

mod check;
mod record;

pub use iss::bus::ExternalDevice;
pub use retire::*;
pub use tandem::verify::{Diff, Mismatch};

use arch::{Interrupt, Priv};
use iss::record::{Retired, Sink, TrapRecord};
use iss::Detail;
use serde::{Deserialize, Serialize};
use std::path::Path;
use tandem::verify::{Nondet, Verifier, VerifyConfig};

/// The version of the API (the C ABI's `hs_api_version` returns it): the major part changes
/// when a call or a structure changes incompatibly.
pub const API_VERSION: u32 = 1_00_00;

/// Which register writes and values the core under test reports for every retirement. What
/// it reports is compared; what it does not is taken from the reference hart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Reports {
    /// Every CSR write, the trap CSRs (xepc, xcause, xtval, xstatus) included. Off (RVFI
    /// without its CSR extension), only the CSR writes given are compared.
    pub csr: bool,
    /// Every floating-point register write.
    pub fpr: bool,
}

impl Default for Reports {
    fn default() -> Self {
        Reports {
            csr: false,
            fpr: true,
        }
    }
}

/// How the hart and the checker are set up. Every field has a default (Spike's hart:
/// RV64GC, 16 PMP entries of 4 bytes, misaligned accesses trap, no hpm counters; 256 MiB of
/// RAM at 0x8000_0000); the C
/// ABI and the Python module take the same settings as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The ISA string (`rv64gc_zicntr_zihpm`, `rv64imac`, `rv64imafdc_zicntr_sscofpmf`, ...),
    /// which means what it says: an extension left out traps as illegal (Zicntr and Zihpm,
    /// the user-level counters, are there only when named, as on Spike).
    pub isa: String,
    /// Bytes of RAM at `ram_base`.
    pub ram_size: u64,
    /// Where RAM starts (default 0x8000_0000, as Spike's).
    pub ram_base: u64,
    /// More RAM regions of the core's memory map (tightly coupled memories, a second bank):
    /// the hart fetches, loads and stores there as in RAM, and they are loaded, read and
    /// written like it. They must not overlap RAM, each other, the platform's devices
    /// (CLINT 0x200_0000, UART 0x1000_0000, test finisher 0x10_0000) or `devices`; all of
    /// RAM lies within 1 TiB.
    pub memory: Vec<Region>,
    /// Misaligned loads and stores: `trap` (Spike's default) or `emulate` (done in hardware).
    pub misaligned: String,
    /// Number of hpm counters (mhpmcounter3..), 0 to 29 (default: 29 with Sscofpmf or the
    /// SBI, else 0, as on Spike).
    pub hpm_counters: Option<u8>,
    /// Width of the hpm counters in bits (1 to 64).
    pub hpm_width: u8,
    /// The PMU's event models: `caches`, `tlb`, `bp`, `all`, `none` (comma-separated).
    pub pmu_models: Option<String>,
    /// Control Transfer Records' layout (`0.1.4` or `1.0`; with `smctr` in the ISA string).
    pub ctr: Option<String>,
    /// The built-in SBI (the program starts in S-mode; M-mode calls are served).
    pub sbi: bool,
    /// Time follows the testbench when the hart is stepped ([`Hart::step`]): mtime changes
    /// only by [`Hart::set_time`] (or the program's stores to it), and nothing happens at a
    /// scheduling quantum (a reservation is lost only by an SC or
    /// [`Hart::cancel_reservation`]). Off, a stepped hart keeps Spike's time: quanta of 5000
    /// steps, ended early by a trap, each advancing mtime by 50 and dropping the reservation.
    /// Checking ([`Hart::step_check`]) always follows the core: its reads of time are its own.
    pub external_time: bool,
    /// The interrupt-pending bits of devices follow the pins the testbench drives with
    /// [`Hart::set_mip`]: the checker then knows when an interrupt must be taken, and a core
    /// that takes one late, early or not at all is reported. Off, the core says when
    /// interrupts arrive and the checker follows it.
    pub interrupt_pins: bool,
    /// What the core reports.
    pub reports: Reports,
    /// Values the core read from these are its own (copied, never compared): `mip`, `time`,
    /// `mcycle`, `minstret`, `hpm`, `mmio`, `sc`, `htif`, as `tandem verify --nondet` takes
    /// them. The default is `tandem verify`'s set and `htif`: the testbench's host answers
    /// the program through fromhost, which the core loads.
    pub nondet: String,
    /// Compare every register after this many checked retirements (0: only on request).
    pub full_compare_every: u64,
    /// Mismatches kept for [`Hart::mismatches`] (the count goes on).
    pub max_kept: usize,
    /// Where the program's console output goes (HTIF and UART): `stdout`, `capture` (read
    /// it with [`Hart::console_output`]) or `none`.
    pub console: String,
    /// Regions of the physical address space that belong to the testbench (the core's own
    /// devices): the hart's loads there read 0 and its stores are dropped, unless a model is
    /// attached with [`Hart::add_device`]; a checked core's loads from them are its own.
    pub devices: Vec<Region>,
    /// CSR values at reset (by name or address: `"mtvec"`, `"0x7c0"`), set when a program is
    /// loaded and at [`Hart::reset`]: an implementation's reset values.
    pub csr_reset: std::collections::BTreeMap<String, u64>,
    /// CSRs compared only in these bits (by name or address): the other bits are the
    /// implementation's choice (WARL), taken from the core into the reference hart.
    pub csr_masks: std::collections::BTreeMap<String, u64>,
    /// PMP entries the hart implements, 0 to 64 (Spike's `--pmpregions`; default 16). With 0
    /// the pmpaddr CSRs do not exist and PMP allows every access.
    pub pmp_regions: u8,
    /// PMP granularity in bytes, a power of two from 4 (Spike's `--pmpgranularity`).
    pub pmp_granularity: u64,
    /// Exceptions whose trap writes 0 to mtval/stval rather than the faulting address or
    /// instruction (the implementation's choice; names such as `illegal-instruction`,
    /// `breakpoint`, `load-access-fault`, or codes; `all`). Default: none, as Spike.
    pub tval_zero: Vec<String>,
    /// A file whose bytes the hart's UART receives (as `hartscope run --uart-input FILE`).
    pub uart_input: Option<String>,
    /// Harts (`--harts` in a program's options): only 1, refused otherwise (the model
    /// follows one hart's retirements).
    pub harts: usize,
}

/// A region of the physical address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    pub base: u64,
    pub size: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            isa: "rv64gc_zicntr_zihpm".into(),
            ram_size: iss::bus::DEFAULT_RAM_SIZE,
            ram_base: iss::bus::RAM_BASE,
            memory: Vec::new(),
            misaligned: "trap".into(),
            hpm_counters: None,
            hpm_width: 64,
            pmu_models: None,
            ctr: None,
            sbi: false,
            external_time: false,
            interrupt_pins: false,
            reports: Reports::default(),
            nondet: "+htif".into(),
            full_compare_every: 0,
            max_kept: 10_000,
            console: "stdout".into(),
            devices: Vec::new(),
            csr_reset: Default::default(),
            csr_masks: Default::default(),
            pmp_regions: iss::csr::PMP_ENTRIES as u8,
            pmp_granularity: 4,
            tval_zero: Vec::new(),
            uart_input: None,
            harts: 1,
        }
    }
}

impl Config {
    /// These settings with the hart options of `hartscope run` on top (`--isa`, `--sbi`,
    /// `--hpm-counters`, `--hpm-width`, `--pmu-models`, `--ctr`, `--pmpregions`,
    /// `--pmpgranularity`, `--tval-zero`: what a guest program's `hartscope-options:` line
    /// says), read by the command line's own parser.
    pub fn with_hart_options<S: AsRef<str>>(&self, args: &[S]) -> Result<Config, Error> {
        // `--uart-input FILE` is the run's, not the hart's: it becomes `uart_input`.
        let mut hart_args = Vec::new();
        let mut uart_input = None;
        let mut it = args.iter().map(AsRef::as_ref);
        while let Some(a) = it.next() {
            match a.strip_prefix("--uart-input") {
                Some("") => {
                    let f = it
                        .next()
                        .ok_or_else(|| Error::Config("--uart-input needs a value".into()))?;
                    uart_input = Some(f.to_string());
                }
                Some(v) if v.starts_with('=') => uart_input = Some(v[1..].to_string()),
                _ => hart_args.push(a),
            }
        }
        let o = iss::options::HartOptions::from_args(&hart_args).map_err(Error::Options)?;
        let mut c = self.clone();
        if uart_input.is_some() {
            c.uart_input = uart_input;
        }
        if let Some(isa) = o.isa {
            c.isa = isa;
        }
        c.sbi = o.sbi;
        c.hpm_counters = o.hpm_counters.or(c.hpm_counters);
        c.hpm_width = o.hpm_width;
        c.pmu_models = o.pmu_models.or(c.pmu_models);
        c.ctr = o.ctr_layout.or(c.ctr);
        c.pmp_regions = o.pmp_regions.unwrap_or(c.pmp_regions);
        c.pmp_granularity = o.pmp_granularity.unwrap_or(c.pmp_granularity);
        if let Some(list) = o.tval_zero {
            c.tval_zero = list.split(',').map(|s| s.trim().to_string()).collect();
        }
        if let Some(n) = o.harts {
            c.harts = n;
        }
        Ok(c)
    }

    /// Settings from JSON (the C ABI's and Python's form): an object with any of the
    /// fields above; unknown fields are refused.
    pub fn from_json(s: &str) -> Result<Config, Error> {
        if s.trim().is_empty() {
            return Ok(Config::default());
        }
        serde_json::from_str(s).map_err(|e| Error::Config(format!("settings: {e}")))
    }
}

/// What can go wrong: every call says what and where.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Config(String),
    #[error("{0}")]
    Elf(#[from] iss::elf::ElfError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{what} at 0x{addr:x} ({len} bytes) is outside RAM")]
    Address {
        what: &'static str,
        addr: u64,
        len: u64,
    },
    #[error("{0}: no such register")]
    NoSuchRegister(String),
    #[error("retirement {order}: {problem}")]
    Retirement { order: u64, problem: String },
    /// An RVFI retirement that does not make steps of the hart.
    #[error("retirement {order}: {err}")]
    Rvfi { order: u64, err: rvfi::RvfiError },
    /// Hart options (as on the command line) that cannot be applied.
    #[error("{0}")]
    Options(iss::options::OptionsError),
    /// The hart's settings (the [`Config`] fields named as the command line's options, without
    /// the leading dashes) that cannot be applied.
    #[error("{}", .0.to_string().replace("--", ""))]
    HartSettings(iss::options::OptionsError),
    /// The reference hart (the verifier) could not be set up.
    #[error("{0}")]
    Setup(tandem::session::SetupError),
    /// A device region that cannot be added.
    #[error("{0}")]
    Device(iss::bus::RegionError),
    /// The non-deterministic state list (`nondet`) names something unknown.
    #[error("{0}")]
    Nondet(tandem::config::ListError),
    /// A group the verifier cannot check.
    #[error("{0}")]
    Group(tandem::verify::GroupError),
    #[error("the tandem recording: {0}")]
    Record(std::io::Error),
}

/// Why [`Hart::run`] stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunStop {
    /// It ran the number of steps asked for.
    Limit,
    /// It reached the pc asked for (before executing the instruction there).
    Pc,
    /// The program ended (test finisher or HTIF) with this exit code.
    Exit(i32),
    /// The run cannot go on: the hart stopped (a fetch from nowhere, a stuck WFI...).
    Stopped(String),
}

/// The whole state of the hart, to go back to ([`Hart::snapshot`], [`Hart::restore`]): the
/// registers, CSRs, privilege, reservation, counters, time, and every RAM byte written since.
pub struct Snapshot {
    hart: iss::machine::HartState,
    mtime: u64,
    mtimecmp: [u64; iss::bus::MAX_HARTS],
    msip: [bool; iss::bus::MAX_HARTS],
    order: u64,
    checker: check::State,
    journal_mark: usize,
}

/// A reference hart for a core's testbench.
pub struct Hart {
    v: Verifier,
    cfg: Config,
    /// Retirements stepped or checked since the reset.
    order: u64,
    /// The reference hart was changed outside the verifier (stepped, written): the shadow
    /// state must take it before the next check.
    stale: bool,
    /// The interrupt pins (with `interrupt_pins`).
    pins: u64,
    check: check::Checker,
    recorder: Option<record::Recorder>,
    program: Option<iss::elf::Program>,
    /// Memory bytes as they were before each store since the oldest live snapshot.
    journal: Option<Vec<(u64, u8)>>,
    /// RAM ranges written through [`Hart::load_image`] and [`Hart::write_mem`] (a recording's
    /// image includes them).
    images: Vec<(u64, u64)>,
    /// How the program ended, once it has.
    exit: Option<RunStop>,
    /// `Config::csr_reset`, by address.
    csr_reset: Vec<(u16, u64)>,
    /// The program's file name (a recording's settings name it).
    program_name: Option<String>,
    /// The first error writing the recording outside a call that returns one.
    record_error: Option<Error>,
    /// Steps left in the stepped hart's time quantum (0: a new one starts).
    quantum_left: u64,
}

/// The interrupt-pending bits devices drive (the testbench's pins).
pub const PIN_BITS: u64 = iss::csr::MIP_MSIP | iss::csr::MIP_MTIP | iss::csr::MIP_MEIP;

impl Hart {
    /// A hart at reset with nothing loaded.
    pub fn new(cfg: &Config) -> Result<Hart, Error> {
        if cfg.harts != 1 {
            return Err(Error::Config(format!(
                "harts: {}: the lockstep model is one hart (a core's retirement port is one \
                 hart's); give each hart of the core its own `Hart`",
                cfg.harts
            )));
        }
        let opts = iss::options::HartOptions {
            isa: Some(cfg.isa.clone()),
            sbi: cfg.sbi,
            hpm_counters: cfg.hpm_counters,
            hpm_width: cfg.hpm_width,
            pmu_models: cfg.pmu_models.clone(),
            ctr_layout: cfg.ctr.clone(),
            pmp_regions: Some(cfg.pmp_regions),
            pmp_granularity: Some(cfg.pmp_granularity),
            tval_zero: Some(cfg.tval_zero.join(",")),
            ..Default::default()
        };
        let mut mc = opts
            .config(iss::Config::default())
            .map_err(Error::HartSettings)?;
        mc.ram_base = cfg.ram_base;
        mc.extra_ram = cfg.memory.iter().map(|r| (r.base, r.size)).collect();
        let misaligned = match cfg.misaligned.as_str() {
            "trap" => iss::Misaligned::Trap,
            "emulate" => iss::Misaligned::Emulate,
            o => {
                return Err(Error::Config(format!(
                    "misaligned: `{o}` (trap or emulate)"
                )))
            }
        };
        let mut nondet = Nondet::parse(&cfg.nondet).map_err(Error::Nondet)?;
        // The pins say when interrupts are pending, so the core's taking one is checked.
        nondet.mip |= cfg.interrupt_pins;
        let machine = tandem::sidecar::machine_json(&mc);
        let csr = |what: &str, name: &String| {
            check::reg_index(name)
                .filter(|&i| i < 0x1000)
                .map(|i| i as u16)
                .ok_or_else(|| Error::Config(format!("{what}: `{name}` is not a CSR")))
        };
        let mut compare_masks = Vec::new();
        for (name, &m) in &cfg.csr_masks {
            compare_masks.push((csr("csr_masks", name)?, m));
        }
        let mut csr_reset = Vec::new();
        for (name, &v) in &cfg.csr_reset {
            csr_reset.push((csr("csr_reset", name)?, v));
        }
        let vc = VerifyConfig {
            compare_masks,
            ram_size: cfg.ram_size,
            misaligned,
            absent: tandem::config::Partial {
                fpr: !cfg.reports.fpr,
                csr: !cfg.reports.csr,
                trap: !cfg.reports.csr,
                // The privilege after a step is compared when the core gives it.
                priv_: true,
                ..Default::default()
            },
            nondet,
            max_mismatches: 0,
            max_reported: usize::MAX,
            // With pins the checker reports an interrupt not taken, then follows the core.
            follow_interrupts: cfg.interrupt_pins,
            full_compare_every: 0,
            machine: Some(machine),
            ..VerifyConfig::default()
        };
        let mut v = Verifier::new(vc, None).map_err(Error::Setup)?;
        if let Some(path) = &cfg.uart_input {
            let bytes = std::fs::read(path).map_err(|source| Error::Io {
                path: format!("uart_input {path}"),
                source,
            })?;
            v.m.bus.uart.input.extend(&bytes);
        }
        for r in &cfg.devices {
            v.m.bus
                .add_external(iss::bus::ExternalRegion {
                    base: r.base,
                    size: r.size,
                    device: None,
                })
                .map_err(|e| Error::Config(format!("devices: {e}")))?;
        }
        v.m.bus.console = match cfg.console.as_str() {
            "stdout" => iss::bus::Console::stdout(),
            "capture" => iss::bus::Console::Capture(Vec::new()),
            "none" => iss::bus::Console::Null,
            o => {
                return Err(Error::Config(format!(
                    "console: `{o}` (stdout, capture or none)"
                )))
            }
        };
        Ok(Hart {
            v,
            check: check::Checker::new(cfg),
            cfg: cfg.clone(),
            order: 0,
            stale: true,
            pins: 0,
            recorder: None,
            program: None,
            journal: None,
            images: Vec::new(),
            exit: None,
            csr_reset,
            program_name: None,
            record_error: None,
            quantum_left: 0,
        })
    }

    /// The settings the hart was made with.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The machine underneath (for what this API does not cover; changing it makes the
    /// next check take its state as the starting point).
    pub fn machine(&mut self) -> &mut iss::Machine {
        self.stale = true;
        &mut self.v.m
    }

    /// Load an ELF file and reset to its entry point (as Spike's boot ROM leaves the hart:
    /// a0 = hart id, a1 = the device tree address). Returns the entry point.
    pub fn load_elf(&mut self, path: impl AsRef<Path>) -> Result<u64, Error> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes =
            iss::files::read_capped(path, iss::elf::MAX_ELF_FILE, "the ELF file").map_err(|e| {
                match e {
                    iss::files::ReadError::Io { file, error } => Error::Io {
                        path: file.display().to_string(),
                        source: error,
                    },
                    e => Error::Config(e.to_string()),
                }
            })?;
        self.load_elf_bytes(&bytes, &name)
    }

    /// Load an ELF image from memory (`name` is for messages).
    pub fn load_elf_bytes(&mut self, bytes: &[u8], name: &str) -> Result<u64, Error> {
        let prog = iss::elf::load(&mut self.v.m, bytes, name)?;
        let entry = prog.entry;
        self.v.m.boot(entry);
        self.program = Some(prog);
        self.program_name = Some(name.to_string());
        self.after_load();
        Ok(entry)
    }

    /// Copy raw bytes into RAM at physical address `addr`.
    pub fn load_image(&mut self, addr: u64, bytes: &[u8]) -> Result<(), Error> {
        self.write_mem_as(addr, bytes, "the image")
    }

    fn after_load(&mut self) {
        for &(a, v) in &self.csr_reset {
            self.v.m.set_reg(a, v);
        }
        self.exit = None;
        self.quantum_left = 0;
        self.v.program_loaded();
        self.order = 0;
        self.stale = false;
    }

    /// Start the hart at `pc` in M-mode: the integer and floating-point registers cleared,
    /// no reservation, the `csr_reset` values set again, the step count from 0. The other
    /// CSRs and memory keep their values (a warm reset; make a new `Hart` for power-on).
    pub fn reset(&mut self, pc: u64) {
        let m = &mut self.v.m;
        m.hart.x.fill(0);
        m.hart.f = [0; 32];
        m.hart.reservation = None;
        m.set_priv_level(Priv::M);
        m.set_pc(pc);
        self.after_load();
    }

    /// Read physical memory (RAM).
    pub fn read_mem(&self, addr: u64, buf: &mut [u8]) -> Result<(), Error> {
        if self.v.m.bus.read_phys(addr, buf) {
            Ok(())
        } else {
            Err(Error::Address {
                what: "a memory read",
                addr,
                len: buf.len() as u64,
            })
        }
    }

    /// Write physical memory (RAM), as another bus agent or the testbench's backdoor would:
    /// the hart sees the new bytes at its next fetch or load.
    pub fn write_mem(&mut self, addr: u64, bytes: &[u8]) -> Result<(), Error> {
        self.write_mem_as(addr, bytes, "a memory write")
    }

    fn write_mem_as(&mut self, addr: u64, bytes: &[u8], what: &'static str) -> Result<(), Error> {
        let end = addr.checked_add(bytes.len() as u64);
        let mut probe = [0u8];
        let inside = bytes.is_empty()
            || (end.is_some()
                && self.v.m.bus.read_phys(addr, &mut probe)
                && self
                    .v
                    .m
                    .bus
                    .read_phys(addr + bytes.len() as u64 - 1, &mut probe));
        if !inside {
            return Err(Error::Address {
                what,
                addr,
                len: bytes.len() as u64,
            });
        }
        if let Some(j) = &mut self.journal {
            for i in 0..bytes.len() as u64 {
                let mut b = [0u8];
                self.v.m.bus.read_phys(addr + i, &mut b);
                j.push((addr + i, b[0]));
            }
        }
        tandem::refhart::write_ram(&mut self.v.m, addr, bytes);
        if self.images.len() < 4096 {
            self.images.push((addr, bytes.len() as u64));
        }
        Ok(())
    }

    /// A device of the testbench's at `base` (`size` bytes): the hart's loads and stores
    /// there go to `model`. A region named in [`Config::devices`] gets its model this way.
    pub fn add_device(
        &mut self,
        base: u64,
        size: u64,
        model: Box<dyn ExternalDevice>,
    ) -> Result<(), Error> {
        let bus = &mut self.v.m.bus;
        if let Some(r) = bus
            .external
            .iter_mut()
            .find(|r| r.base == base && r.size == size && r.device.is_none())
        {
            r.device = Some(model);
            return Ok(());
        }
        bus.add_external(iss::bus::ExternalRegion {
            base,
            size,
            device: Some(model),
        })
        .map_err(Error::Device)
    }

    /// The pc of the next instruction.
    pub fn pc(&self) -> u64 {
        self.v.m.hart.pc
    }

    /// Set the pc.
    pub fn set_pc(&mut self, pc: u64) {
        self.v.m.set_pc(pc);
        self.stale = true;
    }

    /// The current privilege level (0 U, 1 S, 3 M).
    pub fn privilege(&self) -> u8 {
        self.v.m.hart.prv as u8
    }

    /// An integer register.
    pub fn x(&self, n: u8) -> u64 {
        self.v.m.x(n)
    }

    pub fn set_x(&mut self, n: u8, v: u64) {
        self.v.m.set_x(n, v);
        self.stale = true;
    }

    /// A floating-point register (NaN-boxed as the hart holds it).
    pub fn f(&self, n: u8) -> u64 {
        self.v.m.hart.f[(n & 31) as usize]
    }

    pub fn set_f(&mut self, n: u8, v: u64) {
        self.v.m.hart.f[(n & 31) as usize] = v;
        self.stale = true;
    }

    /// A CSR by address (None: the hart has no such CSR).
    pub fn csr(&self, addr: u16) -> Option<u64> {
        if addr > 0xfff {
            return None;
        }
        self.v.m.get_reg(addr)
    }

    /// Write a CSR as a debugger would (WARL fields keep what they can hold).
    pub fn set_csr(&mut self, addr: u16, v: u64) -> Result<(), Error> {
        if addr > 0xfff || !self.v.m.set_reg(addr, v) {
            return Err(Error::NoSuchRegister(format!("CSR 0x{addr:03x}")));
        }
        self.stale = true;
        Ok(())
    }

    /// A register by its name (`a0`, `x10`, `f3`, `fa0`, `mstatus`, `0x300`), for scripts.
    pub fn reg_by_name(&self, name: &str) -> Result<u64, Error> {
        match check::reg_index(name) {
            Some(i) => Ok(tandem::refhart::read(&self.v.m, i).unwrap_or(0)),
            None => Err(Error::NoSuchRegister(name.into())),
        }
    }

    /// Drive the interrupt pins: the device interrupt-pending bits of mip (MSIP 3, MTIP 7,
    /// MEIP 11; [`PIN_BITS`]). With `interrupt_pins` they replace what the hart's own CLINT
    /// says; they take effect before the next step.
    pub fn set_mip(&mut self, bits: u64) {
        self.pins = bits & PIN_BITS;
    }

    /// Set mtime (external time).
    pub fn set_time(&mut self, mtime: u64) {
        self.v.m.bus.clint.mtime = mtime;
        self.v.m.clint_changed();
    }

    /// The LR reservation is lost (another agent wrote the line, or the core dropped it).
    pub fn cancel_reservation(&mut self) {
        self.v.m.hart.reservation = None;
    }

    /// Raise a trap now: the next step ([`Hart::step`], [`Hart::step_check`], [`Hart::run`])
    /// takes it at the current pc instead of executing, as the core did. For what the model
    /// cannot know: a bus error's access fault (`interrupt` false, `code` 1, 5 or 7, `tval`
    /// the address), an NMI-like or platform interrupt the core decided to take (`interrupt`
    /// true: taken whatever mie and mstatus say, delegated as mideleg says; with
    /// `interrupt_pins` the checker then does not call it unexpected). An unknown code is an
    /// error. A recorded session holds such a trap as the core's group; a replay reports
    /// an exception the reference hart does not raise as a mismatch there.
    pub fn raise_trap(&mut self, interrupt: bool, code: u64, tval: u64) -> Result<(), Error> {
        let cause = if interrupt {
            arch::Interrupt::from_code(code).map(arch::Cause::Interrupt)
        } else {
            arch::Exception::from_code(code).map(arch::Cause::Exception)
        };
        let cause = cause.ok_or_else(|| {
            Error::Config(format!(
                "raise_trap: {} code {code} does not exist",
                if interrupt { "interrupt" } else { "exception" }
            ))
        })?;
        self.v.m.raise_trap(cause, tval);
        Ok(())
    }

    /// Steps retired or checked since the last reset or load.
    pub fn order(&self) -> u64 {
        self.order
    }

    /// Execute one step: an instruction (which may raise an exception), or the interrupt
    /// that is pending and enabled.
    pub fn step(&mut self) -> Retirement {
        let mut r = Retirement::default();
        self.step_into(&mut r);
        r
    }

    /// [`Hart::step`] into a retirement the caller keeps (the C ABI's form: nothing is
    /// copied, and the arrays' entries past `n_writes` and `n_mem` are not written).
    pub fn step_into(&mut self, out: &mut Retirement) {
        self.stale = true;
        self.apply_pins();
        self.save_store_bytes();
        let mut s = StepSink {
            out,
            has_record: false,
            order: self.order,
        };
        let outcome = self.v.m.step(&mut s);
        let has_record = s.has_record;
        self.order += 1;
        // The privilege after it (an xRET changes it without a trap).
        out.next_prv = self.v.m.hart.prv as u8;
        if self.cfg.external_time {
            self.poll_host(has_record.then_some(&*out));
        } else {
            // The host looks at tohost at the end of every quantum, as Spike's does.
            self.keep_time(outcome);
        }
    }

    /// Spike's time for a stepped hart: a quantum of [`iss::run::QUANTUM`] steps (the first
    /// one shortened by the boot ROM's), ended early by a trap; at its end time advances,
    /// the reservation is dropped and the host looks at tohost.
    fn keep_time(&mut self, outcome: iss::StepOutcome) {
        let m = &mut self.v.m;
        if self.quantum_left == 0 {
            self.quantum_left = iss::run::QUANTUM - m.take_boot_steps();
        }
        // A debug trigger's breakpoint is taken inside Spike's step, using none of it: the
        // quantum goes on.
        let trap = match outcome {
            iss::StepOutcome::Retired => false,
            iss::StepOutcome::Exception(_) => !m.trigger_breakpoint_taken(),
            _ => true,
        };
        let trigger = !trap && outcome != iss::StepOutcome::Retired;
        if !trigger {
            self.quantum_left -= 1;
        }
        let waiting = m.is_waiting();
        if self.quantum_left == 0 || trap || waiting {
            self.quantum_left = 0;
            if let Some(stop) = m.end_quantum_now() {
                self.exit.get_or_insert(run_stop(stop));
            }
        }
        if let Some(exit) = m.bus.exit.take() {
            // The test finisher: the run ends with this step (a run stops at once too).
            self.exit.get_or_insert(match exit {
                iss::bus::PlatformExit::Code(c) => RunStop::Exit(c as i32),
                iss::bus::PlatformExit::ResetRequested => {
                    RunStop::Stopped("the program asked for a reset".into())
                }
            });
        }
        if waiting && self.exit.is_none() {
            // A WFI: time passes until an interrupt is pending.
            if let Some(stop) = m.wait_while_idle() {
                self.exit = Some(run_stop(stop));
            }
        }
    }

    /// Run up to `max` steps, stopping before the instruction at `until_pc` (if given) or
    /// when the program ends. Returns the steps taken and why it stopped.
    pub fn run(&mut self, max: u64, until_pc: Option<u64>) -> (u64, RunStop) {
        self.stale = true;
        self.apply_pins();
        let before = self.v.m.retired();
        if until_pc.is_none() && self.journal.is_none() && self.v.m.forced_trap().is_none() {
            let limit = before.saturating_add(max);
            let stop = run_stop(self.v.m.run(&mut iss::record::NoSink, Some(limit)));
            let n = self.v.m.retired() - before;
            self.order += n;
            if stop != RunStop::Limit {
                self.exit = Some(stop.clone());
            }
            return (n, stop);
        }
        let mut n = 0;
        while n < max {
            if Some(self.v.m.hart.pc) == until_pc {
                return (n, RunStop::Pc);
            }
            self.step();
            n += 1;
            if let Some(stop) = &self.exit {
                return (n, stop.clone());
            }
        }
        (n, RunStop::Limit)
    }

    fn apply_pins(&mut self) {
        if self.cfg.interrupt_pins {
            let m = &mut self.v.m;
            m.hart.csr.mip = (m.hart.csr.mip & !PIN_BITS) | self.pins;
        }
    }

    /// Step the hart with the core's retirement and compare: returns what differs (empty:
    /// the core did what the architecture says). After a mismatch the hart takes the core's
    /// state, so the next retirement is checked from where the core is.
    pub fn step_check(&mut self, dut: &Retirement) -> Result<&[Mismatch], Error> {
        if self.stale {
            self.v.adopt_reference();
            self.stale = false;
        }
        self.save_store_bytes();
        let order = self.order;
        self.order += 1;
        self.check
            .step_check(&mut self.v, dut, order, self.pins, self.recorder.as_mut())?;
        // Only a store (the core's or the reference's) can make the host act.
        let stored = dut.mem().iter().any(|a| a.kind & MEM_STORE != 0)
            || self.v.last_step().0.is_some_and(|r| {
                r.mem()
                    .iter()
                    .any(|a| a.kind == iss::record::MemKind::Store)
            });
        if stored {
            self.poll_host(None);
        }
        Ok(self.check.last())
    }

    /// The host side of HTIF (console, syscalls, exit), as Spike's host serves it, after
    /// every step: the program's `tohost` requests are answered on the reference's side
    /// (the core's loads of `fromhost` are its own: `nondet` `htif`).
    fn poll_host(&mut self, r: Option<&Retirement>) {
        if self.exit.is_some() {
            return;
        }
        let m = &mut self.v.m;
        // Only a store can make the host act (tohost) or end the run (the test finisher).
        if let Some(r) = r {
            if !r.mem().iter().any(|a| a.kind & MEM_STORE != 0) {
                return;
            }
        }
        let command = m.htif.tohost.and_then(|a| m.bus.read_u64(a)).unwrap_or(0);
        if command == 0 || self.recorder.is_none() {
            if let Some(stop) = m.poll_exit() {
                self.exit = Some(run_stop(stop));
            }
            return;
        }
        // The host is about to act: what it writes goes into the recording. It writes
        // tohost, fromhost and, for a syscall, the result in the syscall's buffer.
        let mut words: Vec<u64> = [m.htif.tohost, m.htif.fromhost]
            .into_iter()
            .flatten()
            .collect();
        let (device, cmd, payload) = (
            command >> 56,
            (command >> 48) & 0xff,
            command & ((1 << 48) - 1),
        );
        if device == 0 && cmd == 0 && payload & 1 == 0 {
            words.extend((0..8).map(|i| payload + 8 * i));
        }
        let before: Vec<Option<u64>> = words.iter().map(|&a| m.bus.read_u64(a)).collect();
        if let Some(stop) = m.poll_exit() {
            self.exit = Some(run_stop(stop));
        }
        let m = &self.v.m;
        let changed: Vec<(u64, u64)> = words
            .iter()
            .zip(&before)
            .filter_map(|(&a, &b)| m.bus.read_u64(a).filter(|&v| Some(v) != b).map(|v| (a, v)))
            .collect();
        if let (Some(r), false) = (self.recorder.as_mut(), changed.is_empty()) {
            if let Err(e) = r.host_writes(&changed) {
                self.record_error.get_or_insert(e);
            }
        }
    }

    /// How the program ended (test finisher, HTIF exit), once it has.
    pub fn exit(&self) -> Option<&RunStop> {
        self.exit.as_ref()
    }

    /// The program's console output so far (with `console` `capture`).
    pub fn console_output(&self) -> &[u8] {
        self.v.m.bus.console.captured()
    }

    /// Check one RVFI retirement (one or two steps of the hart: see [`rvfi`]). Returns what
    /// differs, as [`Hart::step_check`] does.
    pub fn step_check_rvfi(&mut self, r: &rvfi::Rvfi) -> Result<Vec<Mismatch>, Error> {
        let mut steps = [Retirement::default(); 2];
        let m = &self.v.m;
        let n = r
            .to_retirements(|a| m.get_reg(a).unwrap_or(0), &mut steps)
            .map_err(|err| Error::Rvfi {
                order: r.order,
                err,
            })?;
        let mut out = Vec::new();
        for s in &steps[..n] {
            out.extend_from_slice(self.step_check(s)?);
        }
        Ok(out)
    }

    /// Whether [`Hart::step_check`] takes ordinary retirements the verifier's short way
    /// (`tandem::verify::Verifier::check_plain`; on by default). Turning it off gives the same
    /// verdicts more slowly: tests hold the two ways equal with it.
    #[doc(hidden)]
    pub fn set_short_way(&mut self, on: bool) {
        self.check.short_way = on;
    }

    /// Compare every register of the reference hart with the core's (the shadow state the
    /// checked retirements built); what differs is reported as a mismatch.
    pub fn compare_all(&mut self) -> &[Mismatch] {
        if self.stale {
            self.v.adopt_reference();
            self.stale = false;
        }
        self.check.compare_all(&mut self.v, self.order)
    }

    /// Retirements checked so far.
    pub fn checked(&self) -> u64 {
        self.check.checked
    }

    /// Retirements that mismatched so far.
    pub fn errors(&self) -> u64 {
        self.check.mismatching
    }

    /// The mismatches kept so far (at most `max_kept`), oldest first.
    pub fn mismatches(&self) -> &[Mismatch] {
        &self.check.kept
    }

    /// Record every checked retirement as a Bluespec tandem stream in `path` (the program
    /// image and start state first), so that `hartscope tandem verify` replays the session.
    pub fn record(&mut self, path: impl AsRef<Path>) -> Result<(), Error> {
        let path = path.as_ref();
        if self.stale {
            self.v.adopt_reference();
            self.stale = false;
        }
        let c = &self.cfg;
        let hart = tandem::sidecar::HartInfo {
            ram_size: c.ram_size,
            misaligned: c.misaligned.clone(),
            machine: self.v.config().machine.clone(),
        };
        let prog = self.program.as_ref().zip(self.program_name.as_deref());
        let absent = self.v.config().absent.clone();
        let r = record::Recorder::create(path, &self.v.m, prog, &self.images, absent, hart)?;
        self.recorder = Some(r);
        Ok(())
    }

    /// Finish the recording (also done when the hart is dropped, where an error is lost).
    pub fn finish_recording(&mut self) -> Result<(), Error> {
        let finished = match self.recorder.take() {
            Some(r) => r.finish(),
            None => Ok(()),
        };
        match self.record_error.take() {
            Some(e) => Err(e),
            None => finished,
        }
    }

    /// Save the hart's whole state. Memory is restored from a journal of what was written
    /// after the snapshot, so a snapshot costs the registers, not the RAM.
    pub fn snapshot(&mut self) -> Snapshot {
        let j = self.journal.get_or_insert_with(Vec::new);
        let m = &self.v.m;
        Snapshot {
            hart: m.hart.clone(),
            mtime: m.bus.clint.mtime,
            mtimecmp: m.bus.clint.mtimecmp,
            msip: m.bus.clint.msip,
            order: self.order,
            checker: self.check.state(),
            journal_mark: j.len(),
        }
    }

    /// Go back to a snapshot (taken on this hart; snapshots taken after it are invalid).
    pub fn restore(&mut self, s: &Snapshot) {
        if let Some(j) = &mut self.journal {
            while j.len() > s.journal_mark {
                let (pa, b) = j.pop().expect("non-empty");
                tandem::refhart::write_ram(&mut self.v.m, pa, &[b]);
            }
        }
        let m = &mut self.v.m;
        m.hart = s.hart.clone();
        m.bus.clint.mtime = s.mtime;
        m.bus.clint.mtimecmp = s.mtimecmp;
        m.bus.clint.msip = s.msip;
        m.state_replaced();
        self.order = s.order;
        self.check.set_state(&s.checker);
        self.stale = true;
    }

    /// Forget snapshots (stops the memory journal).
    pub fn drop_snapshots(&mut self) {
        self.journal = None;
    }

    /// With a live snapshot: the bytes the next instruction may store, as they are now.
    fn save_store_bytes(&mut self) {
        if let Some(j) = &mut self.journal {
            let mut pre = tandem::refhart::PreStore::default();
            tandem::refhart::predict_store(&mut self.v.m, &mut pre);
            j.extend_from_slice(&pre.bytes[..pre.n]);
        }
    }

    /// The interrupt the hart would take now (with the pins applied).
    pub fn pending_interrupt(&mut self) -> Option<Interrupt> {
        self.apply_pins();
        self.v.m.pending_interrupt()
    }
}

impl Drop for Hart {
    fn drop(&mut self) {
        let _ = self.finish_recording();
    }
}

fn run_stop(s: iss::Stop) -> RunStop {
    use iss::Stop;
    match s {
        Stop::InstructionLimit => RunStop::Limit,
        Stop::Exit(c) => RunStop::Exit(c as i32),
        Stop::TrapLoop { pc, cause, tval } => RunStop::Stopped(format!(
            "traps keep being taken with nothing retiring: {cause} at pc 0x{pc:x}, tval 0x{tval:x}"
        )),
        Stop::WaitForever { pc } => RunStop::Stopped(format!(
            "WFI at pc 0x{pc:x} with no interrupt that can ever wake the hart"
        )),
        Stop::ResetRequested => RunStop::Stopped("the program asked for a reset".into()),
        Stop::HostIoError => RunStop::Stopped("the console or an input failed".into()),
    }
}

/// The sink of one step: the retirement as the API gives it.
struct StepSink<'a> {
    out: &'a mut Retirement,
    has_record: bool,
    order: u64,
}

impl Sink for StepSink<'_> {
    const DETAIL: Detail = Detail::Records;

    fn retire(&mut self, r: &Retired) {
        self.out.set_record(r, self.order);
        self.has_record = true;
    }

    fn trap(&mut self, t: &TrapRecord) {
        if !self.has_record {
            self.out.set_interrupt(self.order);
        }
        self.out.add_trap(t);
    }
}
