//! The machine: one hart's architectural state, its bus, and the structures that make it fast
//! (TLBs, the decoded-instruction cache) or observable (the retirement record).

use crate::bus::{Bus, DEFAULT_RAM_SIZE};
use crate::csr::Csrs;
use crate::dcache::DecodeCache;
use crate::insn::Insn;
use crate::mmu::Tlb;
use crate::record::Retired;
use arch::{Cause, Priv};

/// What the hart does with a misaligned load or store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Misaligned {
    /// Raise the address-misaligned exception (Spike's default).
    #[default]
    Trap,
    /// Perform the access in hardware, byte by byte (atomics still trap).
    Emulate,
}

/// A machine configuration that cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("RAM: {0}")]
    Ram(#[from] crate::bus::RamError),
    #[error("PMU: {0}")]
    Pmu(pmu::ConfigError),
    #[error("CTR: {0}")]
    Ctr(ctr::ConfigError),
    #[error("PMP: {0}")]
    Pmp(PmpError),
    #[error("boot ROM: {0}")]
    Rom(#[from] crate::bus::RomError),
    #[error("device tree: {0}")]
    Dtb(vm_fdt::Error),
    #[error("{0} harts: from 1 to {max}", max = crate::bus::MAX_HARTS)]
    Harts(usize),
    #[error(
        "the device tree ({len} bytes) does not fit in the {space} bytes of main RAM, where \
         the built-in SBI puts it (use --mem to enlarge RAM)"
    )]
    DtbTooLarge { len: usize, space: u64 },
}

/// PMP settings that cannot be built ([`Config::check_pmp`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PmpError {
    /// More entries than pmpaddr0..63.
    #[error("{0} entries: at most {max} (the privileged spec's pmpaddr0..63)", max = crate::csr::PMP_MAX)]
    Entries(u8),
    /// A granularity that is not a power of two from 4 bytes to 2 GiB.
    #[error(
        "granularity {0}: a power of two from 4 bytes to 2 GiB (2^(G+2), privileged spec \
         3.7.1)"
    )]
    Granularity(u64),
}

/// Options fixed when the machine is built.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where the main RAM starts (default [`crate::bus::RAM_BASE`], 0x8000_0000, as Spike's).
    pub ram_base: u64,
    pub ram_size: u64,
    /// More RAM regions, `(base, size)` (a core's tightly coupled memories, a second bank):
    /// fetches, loads and stores there are RAM's. Default none.
    pub extra_ram: Vec<(u64, u64)>,
    pub misaligned: Misaligned,
    /// The live extensions (`crate::isa`): what is off traps as illegal, and misa says so.
    pub isa: crate::Isa,
    /// Whether the SiFive test finisher is on the bus.
    pub finisher: bool,
    /// Sscofpmf: mhpmevent's OF and mode-inhibit bits, scountovf, the local counter overflow
    /// interrupt (LCOFI, 13).
    pub sscofpmf: bool,
    /// The counters and the event models. Spike's default hart has no hpm counters (they
    /// read zero), and neither does the default here.
    pub pmu: pmu::PmuConfig,
    /// Control Transfer Records (Smctr/Ssctr, with Smcsrind and Smstateen), when present.
    pub ctr: Option<ctr::CtrConfig>,
    /// The built-in SBI (`crate::sbi`): boot in S-mode with a device tree and serve what
    /// would go to M-mode. Off: the program's own M-mode code runs.
    pub sbi: bool,
    /// PMP entries implemented, 0..=64 (Spike's `--pmpregions`; default 16, as Spike's).
    pub pmp_regions: u8,
    /// PMP granularity in bytes, a power of two from 4 (Spike's `--pmpgranularity`; default 4).
    pub pmp_granularity: u64,
    /// Exceptions (a bit per exception code) whose trap writes 0 to xtval rather than the
    /// faulting address or instruction: the implementation's choice the privileged spec
    /// allows for every exception but none here by default (Spike writes them all).
    pub tval_zero: u64,
    /// Harts, 1..=[`crate::bus::MAX_HARTS`] (Spike's `-p`): hart h has mhartid h, its CLINT
    /// registers and PLIC contexts 2h (M) and 2h + 1 (S). They run interleaved as on Spike
    /// ([`crate::run`]).
    pub harts: usize,
    /// Whether hot blocks run as compiled host code (`crate::jit`, x86-64 hosts), which
    /// retires exactly what their handlers would. Default on; off, every instruction runs
    /// through its handler.
    pub jit: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            ram_base: crate::bus::RAM_BASE,
            ram_size: DEFAULT_RAM_SIZE,
            extra_ram: Vec::new(),
            misaligned: Misaligned::Trap,
            isa: crate::Isa::DEFAULT,
            finisher: true,
            sscofpmf: false,
            pmu: pmu::PmuConfig {
                hpm_counters: 0,
                ..pmu::PmuConfig::default()
            },
            ctr: None,
            sbi: false,
            pmp_regions: crate::csr::PMP_ENTRIES as u8,
            pmp_granularity: 4,
            tval_zero: 0,
            harts: 1,
            jit: true,
        }
    }
}

impl Config {
    /// Whether the PMP settings can be built: at most 64 entries, a granularity that is a
    /// power of two from 4 bytes to 2 GiB (the device tree's `riscv,pmpgranularity` is a
    /// 32-bit cell).
    pub fn check_pmp(&self) -> Result<(), PmpError> {
        if self.pmp_regions as usize > crate::csr::PMP_MAX {
            return Err(PmpError::Entries(self.pmp_regions));
        }
        let g = self.pmp_granularity;
        if g < 4 || !g.is_power_of_two() || g > 1 << 31 {
            return Err(PmpError::Granularity(g));
        }
        Ok(())
    }
}

/// Architectural state of the hart.
#[derive(Clone)]
pub struct HartState {
    /// x0..x31, then slot 32, where writes to x0 land (never read), then padding to 256 so
    /// that the handlers index it with a decoded register number (a `u8`) with neither a mask
    /// nor a bounds check.
    pub x: [u64; 256],
    pub f: [u64; 32],
    pub pc: u64,
    pub prv: Priv,
    pub csr: Csrs,
    /// Physical address of the LR reservation.
    pub reservation: Option<u64>,
    /// The counters (mcycle, minstret, the hpm counters) and their events.
    pub pmu: pmu::Pmu,
    /// Control Transfer Records, when the hart has them.
    pub ctr: Option<ctr::Ctr>,
    /// The debug triggers (Sdtrig).
    pub trig: crate::trigger::Triggers,
}

impl Default for HartState {
    fn default() -> Self {
        HartState {
            x: [0; 256],
            f: [0; 32],
            pc: 0,
            prv: Priv::M,
            csr: Csrs::default(),
            reservation: None,
            pmu: pmu::Pmu::new(Config::default().pmu).expect("the default PMU configuration"),
            ctr: None,
            trig: crate::trigger::Triggers::default(),
        }
    }
}

/// The simulated machine.
pub struct Machine {
    pub hart: HartState,
    pub bus: Bus,
    pub config: Config,
    pub(crate) tlb: Tlb,
    pub(crate) dcache: DecodeCache,
    /// The record of the instruction being executed (filled only when a sink wants it).
    pub(crate) rec: Retired,
    /// For runs of simple instructions: the effect of each, by its place in the chain of
    /// blocks it ran in ([`crate::record::SimpleRun`], [`Machine::effect`]); as long as the
    /// longest chain ([`crate::run::TRAIL_INSNS`]), when a sink takes simple runs.
    pub(crate) effects: Vec<crate::record::Effect>,
    /// The address past the place in `effects` of the running chain's last instruction, had
    /// it run its whole budget ([`Machine::fx_chain`]).
    pub(crate) fx_end: usize,
    /// The physical address of the last data access (left there for `effects`).
    pub(crate) fx_paddr: u64,
    /// The exception the current instruction raised (valid when exec returned `TRAP`).
    pub(crate) exc: (Cause, u64),
    /// Instructions retired since reset.
    pub(crate) retired: u64,
    pub(crate) sched: crate::run::Scheduler,
    /// How the hart accounts for what it retires (PMU, CTR): [`crate::events::ExecMode`].
    pub(crate) mode: crate::events::ExecMode,
    /// Class counts of runs not yet in the PMU's totals, in lanes (`events.rs`).
    pub(crate) lanes: u128,
    /// The handler tables the run loop dispatches through (plain, recording, simple runs),
    /// chosen by the mode's `ctr_chain` and C (`Machine::update_hooks`).
    pub(crate) tables: [&'static [crate::exec::Handler; 256]; 4],
    /// `now()` when the PMU's instruction totals were last brought up to date.
    pub(crate) pmu_synced: u64,
    /// The virtual and physical page instructions are being fetched from (traced runs).
    pub(crate) fetch_page: (u64, u64),
    pub htif: crate::htif::Htif,
    /// The built-in SBI's state (used when `config.sbi`).
    pub(crate) sbi: crate::sbi::SbiState,
    /// Instructions decoded by single steps, with the bits they were decoded from
    /// ([`Machine::fetch_one`]).
    pub(crate) step_decoded: Box<[(u32, Insn)]>,
    /// A trap the embedding program raises ([`Machine::raise_trap`]): the next step takes it
    /// instead of executing.
    pub(crate) forced_trap: Option<(Cause, u64)>,
    /// The device tree blob the boot ROM (or the built-in SBI) hands to the program.
    pub(crate) dtb: Vec<u8>,
    /// The last fetch that failed in the run loop's path (`fetch_ram_off`) was of the boot ROM,
    /// which is fetched one instruction at a time: no fault was recorded.
    pub(crate) fetch_rom: bool,
    /// The running hart's index (its mhartid). The fields above that are a hart's own
    /// ([`HartCtx`]) are the running hart's; the others wait in `parked`.
    pub(crate) cur: usize,
    /// Every hart's parked context, by index; the running hart's slot holds a spare (its
    /// context is in the fields above). Empty with one hart.
    pub(crate) parked: Vec<HartCtx>,
    /// Instructions the harts that are not running retired.
    pub(crate) others_retired: u64,
    /// Bumped when the decode cache gains a page: a hart that was parked meanwhile flushes
    /// its TLB when it runs again, so that its stores to that page find the code there.
    pub(crate) code_gen: u64,
}

/// A hart's own part of the machine, parked while another hart runs: its architectural state
/// and what caches or accounts for it. The decode cache is shared (it is keyed by physical
/// address and invalidated by every hart's stores, so it stays coherent, which fence.i
/// requires no more than); the scratch of the instruction being executed is shared too.
pub(crate) struct HartCtx {
    pub(crate) hart: HartState,
    pub(crate) tlb: Tlb,
    pub(crate) retired: u64,
    pub(crate) pmu_synced: u64,
    pub(crate) sched: crate::run::Scheduler,
    pub(crate) mode: crate::events::ExecMode,
    pub(crate) lanes: u128,
    pub(crate) tables: [&'static [crate::exec::Handler; 256]; 4],
    pub(crate) sbi: crate::sbi::SbiHart,
    /// `Machine::code_gen` when it was parked.
    pub(crate) code_gen: u64,
}

impl Machine {
    /// A machine at reset. Panics on a RAM size, PMU or CTR configuration that cannot be built
    /// ([`Machine::try_new`] reports it instead).
    pub fn new(config: Config) -> Machine {
        match Machine::try_new(config) {
            Ok(m) => m,
            Err(e) => panic!("invalid machine configuration: {e}"),
        }
    }

    /// A machine at reset, or why its configuration is not valid: among others a RAM size of
    /// 0 or above [`crate::bus::MAX_RAM_SIZE`], or one the host cannot even reserve address
    /// space for ([`ConfigError::Ram`]). RAM is reserved lazily, so any size up to the
    /// maximum normally succeeds and costs only the pages the guest touches.
    pub fn try_new(config: Config) -> Result<Machine, ConfigError> {
        config.check_pmp().map_err(ConfigError::Pmp)?;
        if !(1..=crate::bus::MAX_HARTS).contains(&config.harts) {
            return Err(ConfigError::Harts(config.harts));
        }
        let mut regions = vec![(config.ram_base, config.ram_size)];
        regions.extend_from_slice(&config.extra_ram);
        let mut bus = Bus::with_ram(crate::bus::Ram::with_regions(&regions)?)?;
        bus.finisher = config.finisher;
        bus.clint.harts = config.harts;
        bus.plic.contexts = 2 * config.harts;
        if !config.sbi {
            // The boot ROM's window must be free (it is put there by `boot`).
            let (b, n) = (crate::bus::ROM_BASE, crate::bus::ROM_MAX_SIZE);
            if let Some(&(base, size)) = regions.iter().find(|&&(r, s)| r < b + n && b < r + s) {
                return Err(ConfigError::Ram(crate::bus::RamError::Overlap {
                    base,
                    size,
                    what: "the boot ROM",
                    other_base: b,
                    other_size: n,
                }));
            }
        }
        let bus_ram_base = bus.ram.base();
        let hart = HartState {
            pmu: pmu::Pmu::new(config.pmu.clone()).map_err(ConfigError::Pmu)?,
            ctr: match &config.ctr {
                Some(c) => {
                    let mut ctr = ctr::Ctr::new(*c).map_err(ConfigError::Ctr)?;
                    // Plain records are written in bulk: the hart flushes before it reads CTR
                    // (CSR accesses) and at the end of every chunk of execution.
                    ctr.set_deferred(true);
                    Some(ctr)
                }
                None => None,
            },
            ..HartState::default()
        };
        let ram_host = bus.ram.host_base();
        let mut m = Machine {
            hart,
            bus,
            config,
            tlb: Tlb::new(ram_host),
            dcache: DecodeCache::new(bus_ram_base),
            rec: Retired::default(),
            effects: Vec::new(),
            fx_end: 0,
            fx_paddr: 0,
            exc: (Cause::Exception(arch::Exception::IllegalInstruction), 0),
            retired: 0,
            sched: crate::run::Scheduler::default(),
            mode: crate::events::ExecMode::default(),
            lanes: 0,
            tables: [&crate::exec::HANDLERS; 4],
            pmu_synced: 0,
            fetch_page: (0, 0),
            htif: crate::htif::Htif::default(),
            sbi: crate::sbi::SbiState::default(),
            step_decoded: vec![(0, Insn::NOT_DECODED); crate::run::STEP_DECODED].into_boxed_slice(),
            forced_trap: None,
            dtb: Vec::new(),
            fetch_rom: false,
            cur: 0,
            parked: Vec::new(),
            others_retired: 0,
            code_gen: 0,
        };
        m.dtb = crate::dtb::build(&m.config, &m.hart.pmu.dt_tables()).map_err(ConfigError::Dtb)?;
        if !m.config.sbi {
            // Checked here, so that `boot` cannot fail.
            crate::bus::BootRom::new(0, &m.dtb)?;
        }
        let lg = m.config.pmp_granularity.trailing_zeros() as u8;
        m.hart.csr.set_pmp_implementation(m.config.pmp_regions, lg);
        m.hart.csr.misa = m.config.isa.misa();
        if !m.config.isa.d {
            // FLEN 32: the registers hold singles only, which read +0.0 at reset (as Spike's).
            m.hart.f = [crate::fp::box_s(0); 32];
        }
        m.tlb.set_pmp(&m.hart.csr);
        m.clint_changed();
        m.update_hooks();
        if m.config.harts > 1 {
            // Every hart is hart 0 at reset but for mhartid.
            for h in 0..m.config.harts {
                let mut hart = m.hart.clone();
                hart.csr.mhartid = h as u64;
                let mut tlb = Tlb::new(ram_host);
                tlb.set_pmp(&hart.csr);
                m.parked.push(HartCtx {
                    hart,
                    tlb,
                    retired: 0,
                    pmu_synced: 0,
                    sched: crate::run::Scheduler::default(),
                    mode: m.mode,
                    lanes: 0,
                    tables: m.tables,
                    sbi: crate::sbi::SbiHart::default(),
                    code_gen: 0,
                });
            }
        }
        Ok(m)
    }

    /// Blocks the block compiler has compiled to host code since the machine was made (0
    /// with `Config::jit` off, or on a host it does not compile for).
    pub fn compiled_blocks(&self) -> u64 {
        self.dcache.code_mem.blocks()
    }

    /// Instructions retired since reset, by all harts.
    #[inline]
    pub fn retired(&self) -> u64 {
        self.retired + self.others_retired
    }

    /// The number of harts.
    #[inline]
    pub fn harts(&self) -> usize {
        self.config.harts
    }

    /// The index (mhartid) of the hart the fields of the machine show: the one running, or
    /// between runs the one that runs next.
    #[inline]
    pub fn current_hart(&self) -> usize {
        self.cur
    }

    /// Exchange the running hart's context with `ctx`.
    fn swap_ctx(&mut self, ctx: &mut HartCtx) {
        use std::mem::swap;
        swap(&mut self.hart, &mut ctx.hart);
        swap(&mut self.tlb, &mut ctx.tlb);
        swap(&mut self.retired, &mut ctx.retired);
        swap(&mut self.pmu_synced, &mut ctx.pmu_synced);
        self.sched.swap_hart(&mut ctx.sched);
        swap(&mut self.mode, &mut ctx.mode);
        swap(&mut self.lanes, &mut ctx.lanes);
        swap(&mut self.tables, &mut ctx.tables);
        self.sbi.swap_hart(&mut ctx.sbi);
        swap(&mut self.code_gen, &mut ctx.code_gen);
    }

    /// Make hart `next` the running one (parking the running hart): its interrupt lines are
    /// brought up to date with the CLINT and the PLIC, which the other harts may have written.
    pub fn switch_hart(&mut self, next: usize) {
        if next == self.cur || next >= self.parked.len() {
            return;
        }
        let cur = self.cur;
        let mut parked = std::mem::take(&mut self.parked);
        // Park the running hart in its slot (taking the spare), then take out the next.
        let gen = self.code_gen;
        self.swap_ctx(&mut parked[cur]);
        parked[cur].code_gen = gen;
        self.swap_ctx(&mut parked[next]);
        let seen = std::mem::replace(&mut self.code_gen, gen);
        self.parked = parked;
        self.others_retired = self.others_retired + self.parked[cur].retired - self.retired;
        self.cur = next;
        if seen != gen {
            self.flush_tlb();
        }
        self.clint_changed();
        self.irq_update();
    }

    /// Run `f` on hart `h`'s state, whether it runs or is parked.
    pub fn with_hart<R>(&mut self, h: usize, f: impl FnOnce(&mut HartState) -> R) -> R {
        if h == self.cur || h >= self.parked.len() {
            f(&mut self.hart)
        } else {
            f(&mut self.parked[h].hart)
        }
    }

    /// The value of GPR `i` (x0 reads 0).
    #[inline]
    pub fn x(&self, i: u8) -> u64 {
        self.hart.x[(i & 31) as usize]
    }

    /// Set GPR `i` (writes to x0 are discarded).
    #[inline]
    pub fn set_x(&mut self, i: u8, v: u64) {
        if i & 31 != 0 {
            self.hart.x[(i & 31) as usize] = v;
        }
    }
}

/// Steps the reset sequence accounts for: Spike's boot ROM at 0x1000 runs five instructions
/// (`auipc t0; addi a1, t0, 32; csrr a0, mhartid; ld t0, 24(t0); jr t0`) before the entry point.
/// hartscope starts at the entry point in the state those leave (a0 = hart id, a1 = the device
/// tree address 0x1020, t0 = the entry, minstret = mcycle = 5) and counts the five steps in the
/// first time quantum, so that time, counters and the commit log match Spike's.
pub const BOOT_STEPS: u64 = 5;
/// Where the boot ROM leaves the device tree address (a1).
pub const DTB_ADDR: u64 = 0x1020;

impl Machine {
    /// The device tree blob the boot ROM (or the built-in SBI) hands to the program: the
    /// generated one ([`crate::dtb::build`]) unless [`Machine::set_dtb`] replaced it.
    pub fn dtb(&self) -> &[u8] {
        &self.dtb
    }

    /// Hand `dtb` to the program instead (a user's tree, or one with `/chosen` set), checked
    /// to fit where it goes: after the boot ROM's reset vector ([`crate::bus::RomError`]), or
    /// with the built-in SBI in main RAM. The blob itself is the caller's to check
    /// ([`crate::fdt::check`]).
    pub fn set_dtb(&mut self, dtb: Vec<u8>) -> Result<(), ConfigError> {
        if self.config.sbi {
            let space = self.config.ram_size;
            if (dtb.len() as u64).div_ceil(crate::bus::PAGE_SIZE) * crate::bus::PAGE_SIZE > space {
                return Err(ConfigError::DtbTooLarge {
                    len: dtb.len(),
                    space,
                });
            }
        } else {
            crate::bus::BootRom::new(0, &dtb)?;
        }
        self.dtb = dtb;
        Ok(())
    }

    /// Where [`Machine::boot`] puts the device tree and points a1 at: [`DTB_ADDR`] in the boot
    /// ROM, or with the built-in SBI the top of main RAM, page aligned (`None` when main RAM
    /// cannot hold it).
    pub fn dtb_addr(&self) -> Option<u64> {
        if !self.config.sbi {
            return Some(DTB_ADDR);
        }
        let len = self.dtb.len() as u64;
        let room = len.div_ceil(crate::bus::PAGE_SIZE) * crate::bus::PAGE_SIZE;
        let top = self.config.ram_base.checked_add(self.config.ram_size)?;
        let addr = top.checked_sub(room)?;
        (addr >= self.config.ram_base).then_some(addr)
    }

    /// Reset the hart to run a program from `entry`, as Spike's boot ROM leaves it; with the
    /// built-in SBI, then in S-mode as OpenSBI leaves it ([`Machine::sbi_boot`]). Without it,
    /// the boot ROM is put at 0x1000 with the device tree at [`DTB_ADDR`] (a1), for M-mode
    /// firmware to read ([`crate::bus::BootRom`]).
    pub fn boot(&mut self, entry: u64) {
        if !self.config.sbi {
            // Fits: checked by `try_new` (and by `set_dtb`).
            self.bus.rom = crate::bus::BootRom::new(entry, &self.dtb).ok();
        }
        // Every hart goes through the reset sequence (as on Spike, each runs the boot ROM in
        // its first quantum); with the built-in SBI the secondary harts then wait STOPPED
        // for HSM's hart_start, as OpenSBI leaves them.
        let first = 0;
        for h in (0..self.config.harts).rev() {
            self.switch_hart(h);
            self.boot_hart(entry);
            if h > 0 {
                self.sched.boot_records = self.bus.rom.is_some();
                if self.config.sbi {
                    self.sbi.hsm = crate::sbi::HsmState::Stopped;
                    self.sched.waiting = true;
                }
            }
        }
        self.switch_hart(first);
    }

    /// [`Machine::boot`] for the running hart.
    fn boot_hart(&mut self, entry: u64) {
        self.hart.pc = entry;
        self.hart.prv = Priv::M;
        self.hart.x[5] = entry;
        self.hart.x[10] = self.hart.csr.mhartid;
        self.hart.x[11] = DTB_ADDR;
        self.pmu_sync();
        self.hart.pmu.write_counter(pmu::MCYCLE_IDX, BOOT_STEPS);
        self.hart.pmu.write_counter(pmu::MINSTRET_IDX, BOOT_STEPS);
        self.sched.boot_steps = BOOT_STEPS;
        self.clint_changed();
        self.flush_tlb();
        if self.config.sbi {
            self.sbi_boot(entry);
        }
    }
}

impl Machine {
    /// The records of the boot ROM's reset sequence, as the five instructions at 0x1000 would
    /// have retired them: [`Machine::boot`] applies their effects without executing them, and a
    /// log that must read as Spike's (its commit log, `-l`) starts with them. Empty when there
    /// is no ROM (the built-in SBI). Each is decoded from the ROM's bytes and evaluated on a
    /// register file of its own (the registers they leave are those `boot` set; their time is
    /// the current mtime: call it right after `boot`).
    pub fn boot_rom_records(&self) -> Vec<Retired> {
        use crate::insn::Op;
        use crate::record::{MemAccess, MemKind, Reg, RegWrite};
        let Some(rom) = self.bus.rom.as_ref() else {
            return Vec::new();
        };
        let word = |pa: u64, size: usize| {
            let off = (pa - crate::bus::ROM_BASE) as usize;
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(&rom.bytes()[off..off + size]);
            u64::from_le_bytes(b)
        };
        let mut x = [0u64; 32];
        let mut pc = crate::bus::ROM_BASE;
        let mut out = Vec::with_capacity(BOOT_STEPS as usize);
        for _ in 0..BOOT_STEPS {
            let d = crate::decode::decode(word(pc, 4) as u32);
            let mut r = Retired {
                pc,
                insn: d,
                prv: Priv::M,
                time: self.bus.clint.mtime,
                fetch_pa: Some(pc),
                ..Retired::default()
            };
            let (rs1, imm) = (x[d.rs1 as usize], d.imm as i64 as u64);
            let mut next = pc + d.len as u64;
            let value = match d.op {
                Op::Auipc => Some(pc.wrapping_add(imm)),
                Op::Addi => Some(rs1.wrapping_add(imm)),
                // csrr: the only CSR the sequence reads is mhartid.
                Op::Csrrs if d.rs1 == 0 && d.imm == 0xf14 => Some(self.hart.csr.mhartid),
                Op::Ld => {
                    let a = rs1.wrapping_add(imm);
                    let v = word(a, 8);
                    r.mem[0] = MemAccess {
                        kind: MemKind::Load,
                        vaddr: a,
                        paddr: a,
                        size: 8,
                        value: v,
                    };
                    r.n_mem = 1;
                    Some(v)
                }
                Op::Jalr => {
                    next = rs1.wrapping_add(imm) & !1;
                    Some(pc + d.len as u64)
                }
                op => unreachable!("the boot ROM holds no {op:?}"),
            };
            if let (Some(v), true) = (value, d.rd != 0) {
                x[d.rd as usize] = v;
                r.writes[0] = RegWrite {
                    reg: Reg::X(d.rd),
                    value: v,
                };
                r.n_writes = 1;
            }
            r.next_pc = next;
            out.push(r);
            pc = next;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The boot ROM's records are Spike's five reset instructions, and they leave the hart
    /// where `boot` started it.
    #[test]
    fn boot_rom_records_end_where_boot_starts_the_hart() {
        let mut m = Machine::new(Config::default());
        m.boot(0x8000_0040);
        let r = m.boot_rom_records();
        let pcs: Vec<u64> = r.iter().map(|r| r.pc).collect();
        assert_eq!(pcs, [0x1000, 0x1004, 0x1008, 0x100c, 0x1010]);
        let bits: Vec<u32> = r.iter().map(|r| r.insn.bits).collect();
        assert_eq!(
            bits,
            [
                0x0000_0297,
                0x0202_8593,
                0xf140_2573,
                0x0182_b283,
                0x0002_8067
            ]
        );
        let last = |reg| {
            r.iter()
                .flat_map(|r| r.writes())
                .filter(|w| w.reg == crate::record::Reg::X(reg))
                .map(|w| w.value)
                .next_back()
        };
        assert_eq!(last(5), Some(m.hart.x[5]));
        assert_eq!(last(10), Some(m.hart.x[10]));
        assert_eq!(last(11), Some(m.hart.x[11]));
        assert_eq!(r[3].mem()[0].vaddr, 0x1018);
        assert_eq!(r[4].next_pc, m.hart.pc);
        assert!(r[4].writes().is_empty(), "jr t0 writes x0");
        let mut s = Machine::new(Config {
            sbi: true,
            ..Config::default()
        });
        s.boot(0x8000_0000);
        assert!(s.boot_rom_records().is_empty());
    }

    /// Without the built-in SBI the boot ROM holds the entry and the device tree the SBI would
    /// hand over; with it there is no ROM. RAM over the ROM's window is refused then only.
    #[test]
    fn boot_rom_follows_the_sbi_choice() {
        let mut m = Machine::new(Config::default());
        m.boot(0x8000_0040);
        let rom = m.bus.rom.as_ref().expect("a ROM without the built-in SBI");
        assert_eq!(rom.bytes()[0x18..0x20], 0x8000_0040u64.to_le_bytes());
        assert_eq!(rom.bytes()[0x20..0x20 + m.dtb.len()], m.dtb[..]);
        assert_eq!(m.x(11), DTB_ADDR);
        let mut s = Machine::new(Config {
            sbi: true,
            ..Config::default()
        });
        s.boot(0x8000_0000);
        assert!(s.bus.rom.is_none());
        let low = Config {
            ram_base: 0,
            ram_size: 0x10_0000 - 0x1000,
            ..Config::default()
        };
        let e = Machine::try_new(low.clone())
            .err()
            .expect("RAM over the ROM");
        assert!(e.to_string().contains("overlaps the boot ROM"), "{e}");
        assert!(Machine::try_new(Config { sbi: true, ..low }).is_ok());
    }

    /// Harts: 0 and more than 8 are refused by number; with four, each has its mhartid, the
    /// boot ROM's a0, and the CLINT registers of its own (hart 2's msip raises its MSIP only).
    #[test]
    fn several_harts_have_their_own_state() {
        for n in [0, crate::bus::MAX_HARTS + 1] {
            let e = Machine::try_new(Config {
                harts: n,
                ..Config::default()
            })
            .err()
            .expect("refused")
            .to_string();
            assert!(e.contains(&format!("{n} harts: from 1 to 8")), "{e}");
        }
        let mut m = Machine::new(Config {
            harts: 4,
            ..Config::default()
        });
        m.boot(0x8000_0000);
        m.bus
            .device_store(crate::bus::CLINT_BASE + 8, 4, 1)
            .unwrap();
        for h in 0..4 {
            m.switch_hart(h);
            assert_eq!(m.current_hart(), h);
            assert_eq!(m.hart.csr.mhartid, h as u64);
            assert_eq!(m.x(10), h as u64, "a0");
            assert_eq!(m.hart.pc, 0x8000_0000);
            let msip = m.hart.csr.mip & crate::csr::MIP_MSIP != 0;
            assert_eq!(msip, h == 2, "hart {h}");
        }
        m.switch_hart(0);
        assert_eq!(m.with_hart(3, |s| s.csr.mhartid), 3);
    }

    /// A replacement device tree goes where the generated one went, and must fit there: the
    /// ROM after its reset vector, or main RAM with the built-in SBI (at its top).
    #[test]
    fn set_dtb_checks_the_space() {
        let mut m = Machine::new(Config::default());
        let e = m.set_dtb(vec![0; 0xf000]).unwrap_err().to_string();
        assert!(
            e.contains("61440 bytes") && e.contains("61408 bytes"),
            "{e}"
        );
        m.set_dtb(vec![0xd0; 100]).unwrap();
        m.boot(0x8000_0000);
        assert_eq!(
            m.bus.rom.as_ref().unwrap().bytes()[0x20..0x20 + 100],
            [0xd0; 100]
        );
        let mut s = Machine::new(Config {
            sbi: true,
            ram_size: 0x2000,
            ..Config::default()
        });
        let e = s.set_dtb(vec![0; 0x2001]).unwrap_err().to_string();
        assert!(
            e.contains("8193 bytes") && e.contains("8192 bytes of main RAM"),
            "{e}"
        );
        s.set_dtb(vec![0xd0; 0x1001]).unwrap();
        assert_eq!(s.dtb_addr(), Some(0x8000_0000));
        s.boot(0x8000_0000);
        assert_eq!(s.x(11), 0x8000_0000);
    }

    /// An SBI system reset: shutdown, no reason (SRST, `sbi_system_reset(0, 0)`).
    const SBI_SHUTDOWN: [u32; 6] = [
        0x5352_58b7, //    lui a7, SRST
        0x3548_889b, //    addiw a7, a7, ...
        0x0000_0813, //    li a6, 0
        0x0000_0513, //    li a0, 0 (shutdown)
        0x0000_0593, //    li a1, 0 (no reason)
        0x0000_0073, //    ecall
    ];

    /// A machine with the built-in SBI whose RAM starts with `code` and then
    /// [`SBI_SHUTDOWN`], at reset there.
    fn sbi_machine_with_code(code: &[u32]) -> Machine {
        use crate::bus::RAM_BASE;
        let mut m = Machine::new(Config {
            sbi: true,
            ..Config::default()
        });
        let code = [code, &SBI_SHUTDOWN].concat();
        let off = m.bus.ram.offset(RAM_BASE, 4 * code.len() as u64).unwrap();
        for (i, w) in code.iter().enumerate() {
            m.bus.ram.write(off + 4 * i, 4, *w as u64);
        }
        m.boot(RAM_BASE);
        m
    }

    /// A trap in a block that a chain of blocks entered (a taken branch and a jump going
    /// straight to decoded blocks, `exec::done`) is taken with the instruction that raised
    /// it: here a misaligned load the built-in SBI emulates by decoding it, three times (the
    /// loop's branch goes straight to it after the first), then a shutdown. (The instruction was once taken as the n-th after the first block's start:
    /// another one, or past the arena's end.)
    #[test]
    fn trap_in_a_chained_block() {
        use crate::bus::RAM_BASE;
        let code: [u32; 10] = [
            0x0000_0e17, //    auipc t3, 0
            0x101e_0e13, //    addi t3, t3, 0x101
            0x0040_006f, //    j A
            0x0019_8993, // A: addi s3, s3, 1
            0x0019_8993, //    addi s3, s3, 1
            0x000e_3383, //    ld t2, 0(t3) (misaligned: emulated)
            0x0079_0933, //    add s2, s2, t2 (the last block decoded)
            0x0014_8493, //    addi s1, s1, 1
            0x0030_0313, //    li t1, 3
            0xfe64_c4e3, //    blt s1, t1, A (then the shutdown)
        ];
        let mut m = sbi_machine_with_code(&code);
        let off = m.bus.ram.offset(RAM_BASE + 0x101, 8).unwrap();
        m.bus.ram.write(off, 8, 0x0102_0304_0506_0708);
        assert_eq!(
            m.run(&mut crate::NoSink, Some(10_000)),
            crate::Stop::Exit(0)
        );
        assert_eq!(m.x(18), 3 * 0x0102_0304_0506_0708, "s2");
        assert_eq!(m.x(19), 6, "s3");
    }

    /// A loop of 1000 instructions with no branch among them, cut by the quantum's budget at
    /// a different place every time, decodes its code about once: the run resumes in a block
    /// decoded from the cut up to the next decoded block (`DecodeCache::build`), not in a
    /// copy of the rest of the loop shifted to the cut, one per quantum.
    #[test]
    fn a_long_loop_cut_by_quanta_is_decoded_once() {
        let addi = |rd: u32, rs1: u32, imm: i32| (imm as u32) << 20 | rs1 << 15 | rd << 7 | 0x13;
        let bne = |rs1: u32, rs2: u32, off: i32| {
            let o = off as u32;
            (o >> 12 & 1) << 31
                | (o >> 5 & 0x3f) << 25
                | rs2 << 20
                | rs1 << 15
                | 1 << 12
                | (o >> 1 & 0xf) << 8
                | (o >> 11 & 1) << 7
                | 0x63
        };
        const LEN: usize = 1000;
        const PASSES: i32 = 70;
        let mut code = vec![addi(9, 0, PASSES)]; //      li s1, PASSES
        code.extend([addi(10, 10, 1); LEN]); //         A: addi a0, a0, 1 (LEN of them)
        code.push(addi(9, 9, -1)); //                     addi s1, s1, -1
        code.push(bne(9, 0, -4 * (LEN as i32 + 1))); //   bnez s1, A (then the shutdown)
        let mut m = sbi_machine_with_code(&code);
        // A limit that stops the loop's last pass in its middle, after a dozen quanta.
        let limit = (PASSES as u64 - 1) * (LEN as u64 + 2) + 1 + LEN as u64 / 2;
        assert!(limit > 12 * crate::run::QUANTUM);
        assert_eq!(
            m.run(&mut crate::NoSink, Some(limit)),
            crate::Stop::InstructionLimit
        );
        assert_eq!(
            m.x(10),
            (PASSES as u64 - 1) * LEN as u64 + LEN as u64 / 2,
            "a0"
        );
        let arena = m.dcache.take();
        // The loop's blocks (of at most MAX_BLOCK) and their end markers, once, and a short
        // block from each cut: well under twice the loop. (A copy of the rest of the loop
        // per cut made it several times the loop.)
        assert!(
            arena.len() < 2 * LEN,
            "{} entries decoded for a loop of {LEN}",
            arena.len()
        );
        m.dcache.put(arena);
    }

    /// Linked blocks (`exec::chain`: a taken branch, and a branch not taken through its
    /// block's end marker) see code rewritten in their page: a loop whose branches are linked
    /// after its first passes has its first instruction rewritten by a store in the same page
    /// (`addi s3, s3, 1` becomes `addi s3, s3, 2`) on its fifth pass, and the next passes run
    /// the new instruction. Run whole, and again in slices of every length from 1 to 12
    /// instructions (so that the budget ends chains everywhere).
    #[test]
    fn linked_blocks_see_code_rewritten_in_their_page() {
        let code: [u32; 11] = [
            0x0000_0e17, //    auipc t3, 0
            0x0000_0493, //    li s1, 0
            0x0029_9eb7, //    lui t4, 0x299
            0x993e_8e93, //    addi t4, t4, -0x66d (t4 = addi s3, s3, 2)
            0x0019_8993, // A: addi s3, s3, 1
            0x0014_8493, //    addi s1, s1, 1
            0x0050_0313, //    li t1, 5
            0x0064_9463, //    bne s1, t1, B
            0x01de_2823, //    sw t4, 16(t3) (rewrites A)
            0x00a0_0313, // B: li t1, 10
            0xfe64_c4e3, //    blt s1, t1, A (then the shutdown)
        ];
        for slice in [None, Some(1), Some(2), Some(3), Some(5), Some(7), Some(12)] {
            let mut m = sbi_machine_with_code(&code);
            let stop = match slice {
                None => m.run(&mut crate::NoSink, Some(10_000)),
                Some(n) => loop {
                    let limit = m.retired() + n;
                    match m.run(&mut crate::NoSink, Some(limit)) {
                        crate::Stop::InstructionLimit if m.retired() < 10_000 => continue,
                        other => break other,
                    }
                },
            };
            assert_eq!(stop, crate::Stop::Exit(0), "slices of {slice:?}");
            assert_eq!(m.x(9), 10, "s1, slices of {slice:?}");
            assert_eq!(m.x(19), 5 + 2 * 5, "s3, slices of {slice:?}");
        }
    }

    /// With the PMU's cost models on, time follows the modelled cycles: a loop whose every
    /// load misses the L1D and the LL (113 cycles each) sees mtime advance one tick per 100
    /// cycles; without the models, one tick per 100 instructions, as on Spike.
    #[test]
    fn time_follows_the_modelled_cycles() {
        use crate::bus::RAM_BASE;
        let code: [u32; 4] = [
            0x0010_0317, // auipc t1, 0x100
            0x0003_3283, // A: ld t0, 0(t1)
            0x0403_0313, //    addi t1, t1, 64 (the next line)
            0xff9f_f06f, //    j A
        ];
        let insns = 300_000;
        for models in [false, true] {
            let mut pmu = pmu::PmuConfig::default();
            if models {
                pmu = pmu.with_all_models();
            }
            let mut m = Machine::new(Config {
                pmu,
                ..Config::default()
            });
            let off = m.bus.ram.offset(RAM_BASE, 0x10).unwrap();
            for (i, w) in code.iter().enumerate() {
                m.bus.ram.write(off + 4 * i, 4, *w as u64);
            }
            m.boot(RAM_BASE);
            let t0 = m.bus.clint.mtime;
            m.run(&mut crate::NoSink, Some(insns));
            m.pmu_sync();
            let ticks = m.bus.clint.mtime - t0;
            let cycles = m.hart.pmu.cycle_total();
            if models {
                // About a third of the instructions are loads that miss everything.
                assert!(cycles > 30 * insns, "{cycles}");
                let want = cycles / 100;
                assert!(
                    ticks <= want && ticks + 60 > want,
                    "{ticks} ticks, {cycles} cycles"
                );
            } else {
                assert_eq!(
                    ticks,
                    (insns + crate::machine::BOOT_STEPS) / 100,
                    "{cycles}"
                );
            }
        }
    }

    /// A stepped hart: the store that enables the UART's receive interrupt raises mip.MEIP
    /// through the PLIC at once, and the next step takes the external interrupt; reading the
    /// byte and completing drops the line.
    #[test]
    fn uart_interrupt_reaches_a_stepped_hart() {
        use crate::bus::{PLIC_BASE, RAM_BASE, UART_BASE};
        use crate::csr::{MIP_MEIP, MSTATUS_MIE};
        let mut m = Machine::new(Config::default());
        m.bus.console = crate::bus::Console::Null;
        // sb t1, 1(t0): IER = ERBFI; then nops.
        let code: [u32; 3] = [0x0062_80a3, 0x13, 0x13];
        let off = m.bus.ram.offset(RAM_BASE, 12).unwrap();
        for (i, w) in code.iter().enumerate() {
            m.bus.ram.write(off + 4 * i, 4, *w as u64);
        }
        m.boot(RAM_BASE);
        m.set_x(5, UART_BASE);
        m.set_x(6, 1);
        m.bus.uart.input.extend(b"x");
        m.bus.device_store(PLIC_BASE + 40, 4, 1).unwrap();
        m.bus.device_store(PLIC_BASE + 0x2000, 4, 1 << 10).unwrap();
        m.irq_update();
        assert_eq!(m.hart.csr.mip & MIP_MEIP, 0, "IER is still 0");
        m.hart.csr.mtvec = RAM_BASE + 0x100;
        m.hart.csr.mie = MIP_MEIP;
        m.hart.csr.mstatus |= MSTATUS_MIE;
        assert_eq!(m.step(&mut crate::NoSink), crate::StepOutcome::Retired);
        assert_ne!(m.hart.csr.mip & MIP_MEIP, 0, "raised by the store");
        assert_eq!(
            m.step(&mut crate::NoSink),
            crate::StepOutcome::Interrupt(arch::Interrupt::MachineExternal)
        );
        assert_eq!(m.hart.pc, RAM_BASE + 0x100);
        assert_eq!(m.hart.csr.mepc, RAM_BASE + 4);
        // Claim, read, complete, as a handler does.
        assert_eq!(m.bus.device_load(PLIC_BASE + 0x20_0004, 4), Some(10));
        assert_eq!(m.bus.device_load(UART_BASE, 1), Some(b'x' as u64));
        m.bus.device_store(PLIC_BASE + 0x20_0004, 4, 10).unwrap();
        m.irq_update();
        assert_eq!(m.hart.csr.mip & MIP_MEIP, 0);
    }
}
