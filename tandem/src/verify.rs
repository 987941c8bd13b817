//! The tandem verifier: spec section 3.1 (with section 3.2's partial trace), against a
//! hartscope reference hart.
//!
//! For every group of the stream:
//!
//! 1. the group's state changes are applied to the shadow state (registers, pc, privilege;
//!    memory writes are collected);
//! 2. the non-deterministic state is copied from the shadow state to the reference hart (by
//!    default: the interrupt-pending bits that devices drive, which are set exactly for the
//!    interrupt a group reports; mcycle and minstret; mtime; an SC the trace says failed loses
//!    its reservation first);
//! 3. the reference hart executes one instruction, or takes the interrupt the group reports;
//!    values the instruction read from non-deterministic sources (device registers, the
//!    counters, time, mip) are then taken from the shadow state;
//! 4. the states are compared: pc, privilege, the instruction, every register either side
//!    changed, and every memory byte either side wrote (with the store data, effective and
//!    physical addresses the trace gives). Comparing what either side changed is the spec's
//!    "collect state changes" shortcut: it includes erroneous changes on both sides, because
//!    the hart's records list every register it writes. A complete comparison of every
//!    register runs periodically and at the end, as a check of that;
//! 5. on a difference, the mismatch is reported (group, byte offset, pc, instruction and
//!    disassembly, and each element with the reference's and the trace's value), and the
//!    shadow state is copied to the reference hart, so the next group starts in step.
//!
//! In a strict Flute stream an SC's group does not say whether it stored (only rd says it
//! failed): when the trace says an SC failed that the reference hart would have done, the
//! first load of its bytes settles whether it stored ([`Verifier`]'s `settle_sc`).
//!
//! With a partial trace, registers of an absent class the trace does not mention, the
//! privilege, the instruction and memory stores are taken from the reference hart instead
//! of compared (values the trace does give are still compared).
//!
//! Memory is not copied whole: the shadow memory is the reference hart's memory plus the
//! group's writes. Before each step the bytes the reference's instruction will store to are
//! saved, so a store the trace does not have can be undone.

use crate::config::Partial;
use crate::group::{Group, RegOp};
use crate::names::{disasm, priv_name, reg_name};
use crate::opcode::{MemOp, MemResult, MemSize};
use crate::params::Params;
use crate::parser::{GroupReader, ParseError, ParserOptions};
use crate::refhart::{self, Capture, PreStore, Target, FPR0, GPR0, NREG};
use arch::{Cause, Priv};
use iss::csr::*;
use iss::insn::Op;
use iss::mmu::Access;
use iss::record::MemKind;
use iss::{Config, Machine, Misaligned};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::time::Instant;

mod plain;
pub use plain::{Plain, PlainAccess, PlainStep};

/// Which state is non-deterministic: copied from the trace, never compared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Nondet {
    /// The device-driven interrupt-pending bits (MSIP, MTIP, MEIP, LCOFIP) and reads of mip
    /// and sip.
    pub mip: bool,
    /// mtime and reads of time.
    pub time: bool,
    pub mcycle: bool,
    pub minstret: bool,
    /// Values loaded from device (MMIO) regions.
    pub mmio: bool,
    /// Whether an SC succeeds (a reservation may be lost at any time).
    pub sc: bool,
    /// Values loaded from the HTIF tohost/fromhost words (for streams without
    /// state-initialisation groups for the host's writes).
    pub htif: bool,
    /// The hpm counters (mhpmcounter3..31) and reads of them.
    pub hpm: bool,
}

impl Default for Nondet {
    fn default() -> Self {
        Nondet {
            mip: true,
            time: true,
            mcycle: true,
            minstret: true,
            mmio: true,
            sc: true,
            htif: false,
            hpm: true,
        }
    }
}

impl Nondet {
    pub fn none() -> Nondet {
        Nondet {
            mip: false,
            time: false,
            mcycle: false,
            minstret: false,
            mmio: false,
            sc: false,
            htif: false,
            hpm: false,
        }
    }

    /// Parse a comma-separated list: names (`mip`, `time`, `mcycle`, `minstret`, `mmio`,
    /// `sc`, `htif`) replace the default set; `+name` and `-name` change it; `none`, `default`.
    pub fn parse(s: &str) -> Result<Nondet, crate::config::ListError> {
        let mut n = Nondet::default();
        let mut replaced = false;
        for w in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let (on, name) = match w.as_bytes()[0] {
                b'+' => (true, &w[1..]),
                b'-' => (false, &w[1..]),
                _ => {
                    if !replaced {
                        n = Nondet::none();
                        replaced = true;
                    }
                    (true, w)
                }
            };
            match name {
                "none" => n = Nondet::none(),
                "default" => n = Nondet::default(),
                "mip" => n.mip = on,
                "time" => n.time = on,
                "mcycle" => n.mcycle = on,
                "minstret" => n.minstret = on,
                "mmio" => n.mmio = on,
                "sc" => n.sc = on,
                "htif" => n.htif = on,
                "hpm" => n.hpm = on,
                _ => return Err(crate::config::ListError::Nondet(name.to_string())),
            }
        }
        Ok(n)
    }
}

/// A group the verifier cannot check ([`Verifier::group`]); the verification stops there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GroupError {
    /// An executing group, with neither an ELF nor state initialisation before it.
    #[error(
        "group {group} (byte offset {offset}) executes, but the reference hart has no program: \
         give the ELF, or write the stream with state-initialisation groups (image)"
    )]
    NoProgram { group: u64, offset: u64 },
}

/// How to verify.
#[derive(Clone, Debug)]
pub struct VerifyConfig {
    pub params: Params,
    /// The reference hart's RAM size and misaligned-access behaviour (as the run had them).
    pub ram_size: u64,
    pub misaligned: Misaligned,
    /// Elements the trace leaves out (spec section 3.2).
    pub absent: Partial,
    pub nondet: Nondet,
    /// Stop after this many mismatching groups (0: never).
    pub max_mismatches: u64,
    /// Mismatches kept in the report with their details.
    pub max_reported: usize,
    /// Compare every register every this many groups (0: only at the end).
    pub full_compare_every: u64,
    pub strict_groups: bool,
    /// When the trace retires an instruction, the reference hart executes it even if an
    /// interrupt is pending and enabled there (a live checker that reports late interrupts
    /// itself, then follows the core); off, the reference hart takes the interrupt and the
    /// difference is reported as a mismatch of the instruction.
    pub follow_interrupts: bool,
    /// CSRs compared only in these bits (by address): the rest is an implementation's
    /// choice (WARL fields), taken from the trace into the reference hart.
    pub compare_masks: Vec<(u16, u64)>,
    /// The reference hart's extensions as `hartscope run` had them: a JSON object with
    /// `sscofpmf`, `pmu`, `ctr` and `sbi` as in `iss::Config` (the settings file keeps it).
    pub machine: Option<serde_json::Value>,
    /// The stream is in the strict Flute style (`Style::FluteStrict`, from the settings
    /// file): an AMO's, LR's or SC's store data is rs2's value (0 for LR), not what was
    /// stored (the reference hart's store stands for it), and a CSR instruction's group
    /// carries only rd and the CSR it names (the other registers it changed are taken from
    /// the reference hart, not compared).
    pub flute_strict: bool,
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig {
            params: Params::RV64GC,
            ram_size: iss::bus::DEFAULT_RAM_SIZE,
            misaligned: Misaligned::Trap,
            absent: Partial::default(),
            nondet: Nondet::default(),
            max_mismatches: 100,
            max_reported: 1000,
            full_compare_every: 1 << 16,
            strict_groups: false,
            follow_interrupts: false,
            compare_masks: Vec::new(),
            machine: None,
            flute_strict: false,
        }
    }
}

/// One element that differs: the reference's (expected) and the trace's (actual) value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diff {
    pub element: String,
    pub expected: String,
    pub actual: String,
}

/// A group whose state differs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mismatch {
    pub group: u64,
    pub offset: u64,
    /// Where the instruction is (the pc before the group).
    pub pc: u64,
    /// What the group is: instruction, exception, interrupt, state, full-compare.
    pub kind: String,
    /// The trace's instruction, in hex, and its disassembly.
    pub insn: Option<String>,
    pub disasm: Option<String>,
    /// The reference hart's instruction when it differs from the trace's.
    pub ref_insn: Option<String>,
    pub diffs: Vec<Diff>,
}

/// Overall result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Match,
    Mismatch,
    /// The input was unusable (malformed stream, missing program).
    Error,
}

/// What the verifier found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub status: Status,
    pub groups: u64,
    pub bytes: u64,
    pub instructions: u64,
    pub exceptions: u64,
    pub interrupts: u64,
    pub state_inits: u64,
    pub resets: u64,
    /// Groups that change state without an instruction or trap (e.g. mtime updates).
    pub updates: u64,
    pub mismatching_groups: u64,
    /// Elements that differed, summed over all mismatching groups.
    pub mismatching_elements: u64,
    /// Verification stopped at `max_mismatches`.
    pub stopped_early: bool,
    pub mismatches: Vec<Mismatch>,
    /// Why the input was unusable.
    pub error: Option<String>,
    pub parse_error: Option<ParseError>,
    pub seconds: f64,
}

impl Report {
    fn new() -> Report {
        Report {
            status: Status::Match,
            groups: 0,
            bytes: 0,
            instructions: 0,
            exceptions: 0,
            interrupts: 0,
            state_inits: 0,
            resets: 0,
            updates: 0,
            mismatching_groups: 0,
            mismatching_elements: 0,
            stopped_early: false,
            mismatches: Vec::new(),
            error: None,
            parse_error: None,
            seconds: 0.0,
        }
    }

    /// The exit status a script can rely on: 0 match, 1 mismatch, 2 unusable input.
    pub fn exit_code(&self) -> u8 {
        match self.status {
            Status::Match => 0,
            Status::Mismatch => 1,
            Status::Error => 2,
        }
    }

    /// Instructions and traps checked per second.
    pub fn rate(&self) -> f64 {
        (self.instructions + self.exceptions + self.interrupts) as f64 / self.seconds.max(1e-9)
    }

    /// The human-readable report.
    pub fn write_human(&self, w: &mut dyn Write) -> std::io::Result<()> {
        for m in &self.mismatches {
            let insn = match (&m.insn, &m.disasm) {
                (Some(i), Some(d)) => format!(": {i}  {d}"),
                (Some(i), None) => format!(": {i}"),
                _ => String::new(),
            };
            writeln!(
                w,
                "mismatch at group {} (byte offset {}), {} at pc 0x{:016x}{}",
                m.group, m.offset, m.kind, m.pc, insn
            )?;
            if let Some(r) = &m.ref_insn {
                writeln!(w, "    the reference hart executed {r}")?;
            }
            for d in &m.diffs {
                writeln!(
                    w,
                    "    {:<14} expected {:<20} trace {}",
                    d.element, d.expected, d.actual
                )?;
            }
        }
        if self.mismatching_groups as usize > self.mismatches.len() {
            writeln!(
                w,
                "({} more mismatching groups not shown)",
                self.mismatching_groups as usize - self.mismatches.len()
            )?;
        }
        if let Some(e) = &self.error {
            writeln!(w, "error: {e}")?;
        }
        let verdict = match self.status {
            Status::Match => "MATCH",
            Status::Mismatch => "MISMATCH",
            Status::Error => "ERROR",
        };
        writeln!(
            w,
            "{verdict}: {} groups ({} bytes): {} instructions, {} exceptions, {} interrupts, \
             {} state initialisations, {} resets; {} mismatching groups{}; {:.3} s ({:.2} M \
             instructions/s)",
            self.groups,
            self.bytes,
            self.instructions,
            self.exceptions,
            self.interrupts,
            self.state_inits,
            self.resets,
            self.mismatching_groups,
            if self.stopped_early {
                " (stopped at --max-mismatches)"
            } else {
                ""
            },
            self.seconds,
            self.rate() / 1e6
        )
    }
}

// Register flags.
const EXISTS: u8 = 1;
/// Copied from the trace, never compared.
const NONDET: u8 = 2;
/// Of a class the partial trace leaves out.
const ABSENT: u8 = 4;
/// Changes without being written (event counters' overflow bits, windows onto state that
/// moves, like CTR entries): compared when either side writes it, not in the full comparison.
const VOLATILE: u8 = 8;

/// The longest run of the same instruction a core may have skipped part of that the verifier
/// looks past (a page of 4-byte `nop`s).
const MAX_SKIPPED_RUN: usize = 1024;

/// The interrupt-pending bits devices drive.
const HW_IRQ: u64 = MIP_MSIP | MIP_MTIP | MIP_MEIP | MIP_LCOFIP;

/// What kind of group this is, for the reference hart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Execute one instruction (it may raise an exception).
    Step,
    /// Take an interrupt: these pending bits (0: the cause is not in the trace).
    Interrupt(u64),
    /// State changes only: nothing executes.
    Update,
}

/// A memory write the trace reports: physical address, size, value.
#[derive(Clone, Copy, Debug)]
struct MemWrite {
    pa: u64,
    size: u8,
    value: u64,
}

/// An SC of a strict Flute stream that the trace said failed while the reference hart held
/// its reservation: the stream does not say whether it stored (its data element is rs2's
/// value either way; only rd says it failed), so the reference hart's memory may lack its
/// store. The next load of its bytes tells ([`Verifier::settle_sc`]).
#[derive(Clone, Copy, Debug)]
struct UnsureSc {
    group: u64,
    pa: u64,
    size: u8,
    value: u64,
    /// The SC's group was reported (its rd was wrong): what its store did is part of that
    /// report.
    reported: bool,
}

/// The verifier: a reference hart, the shadow state, and the report.
pub struct Verifier {
    pub m: Machine,
    cfg: VerifyConfig,
    flags: Box<[u8]>,
    /// The bits compared, by register index (`VerifyConfig::compare_masks`; all others: all).
    masks: Vec<(usize, u64)>,
    shadow: Box<[u64]>,
    shadow_pc: u64,
    shadow_prv: Priv,
    /// Registers, pc and privilege at the start (a hart reset restores them).
    initial: (Vec<(usize, u64)>, u64, Priv),
    cap: Capture,
    /// The RAM bytes the step's store may overwrite, saved before it.
    pre: PreStore,
    touched: Vec<usize>,
    diffs: Vec<Diff>,
    resync: Vec<usize>,
    trace_writes: Vec<MemWrite>,
    counters_dirty: bool,
    /// The reference hart's LR reservation before the step.
    reservation_before: Option<u64>,
    /// An SC whose store the stream left open, until a load of its bytes settles it.
    unsure_sc: Option<UnsureSc>,
    /// Where the last instruction group's instruction was.
    prev_insn_pc: Option<u64>,
    /// The pc before the step of [`Verifier::check_plain`].
    plain_pc: u64,
    htif_words: Vec<u64>,
    /// Whether the reference hart has a program (an ELF, or memory state initialisation seen).
    has_program: bool,
    /// The interrupt-pending bits that something other than the program drives (devices; the
    /// built-in SBI's timer and IPIs), when mip is non-deterministic.
    hw_irq: u64,
    /// FLEN 32 (F without D): the stream's FPR values are 32 bits, which the hart holds
    /// NaN-boxed.
    fpr32: bool,
    /// The last mip a state change outside any group gave (the strict Flute style writes one
    /// whenever mip changes): an interrupt the stream reports must be pending in it.
    trace_mip: Option<u64>,
    /// [`Verifier::strict_rs2`] of the group being checked.
    atomic_rs2: Option<u64>,
    /// The instruction word of the group being checked.
    trace_insn: Option<u32>,
    pub report: Report,
}

impl Verifier {
    /// A verifier whose reference hart runs `elf` (or, with `None`, starts empty and takes
    /// its program from the stream's state-initialisation groups).
    pub fn new(
        cfg: VerifyConfig,
        elf: Option<(&[u8], &str)>,
    ) -> Result<Verifier, crate::session::SetupError> {
        use crate::session::SetupError;
        crate::limits::check_ram_size(cfg.ram_size).map_err(SetupError::RamSize)?;
        let mut config = Config {
            ram_size: cfg.ram_size,
            misaligned: cfg.misaligned,
            finisher: true,
            ..Config::default()
        };
        if let Some(v) = &cfg.machine {
            crate::sidecar::apply_machine(v, &mut config).map_err(SetupError::MachineSettings)?;
        }
        // The stream's FLEN must be the hart's: 64 with D, 32 with F alone.
        let flen = crate::params::hart_flen(&config.isa);
        cfg.params
            .check_hart_flen(flen)
            .map_err(SetupError::Params)?;
        let mut m = Machine::try_new(config).map_err(SetupError::Machine)?;
        m.bus.console = iss::bus::Console::Null;
        let mut htif_words = Vec::new();
        let has_program = match elf {
            Some((bytes, path)) => {
                let prog = iss::elf::load(&mut m, bytes, path).map_err(SetupError::Elf)?;
                m.boot(prog.entry);
                htif_words.extend([m.htif.tohost, m.htif.fromhost].into_iter().flatten());
                true
            }
            None => false,
        };
        // With Sstc, STIP follows time as MTIP does: a timer's, not the program's.
        let sstc = if m.config.isa.sstc { MIP_STIP } else { 0 };
        let hw_irq = match (cfg.nondet.mip, m.config.sbi) {
            (false, _) => 0,
            (true, false) => HW_IRQ | sstc,
            (true, true) => HW_IRQ | S_INTERRUPTS,
        };
        let mut v = Verifier {
            fpr32: flen == 32 && cfg.params.flen == 32,
            hw_irq,
            trace_mip: None,
            atomic_rs2: None,
            trace_insn: None,
            m,
            flags: vec![0u8; NREG].into_boxed_slice(),
            masks: Vec::new(),
            shadow: vec![0u64; NREG].into_boxed_slice(),
            shadow_pc: 0,
            shadow_prv: Priv::M,
            initial: (Vec::new(), 0, Priv::M),
            cap: Capture::default(),
            pre: PreStore::default(),
            touched: Vec::with_capacity(16),
            diffs: Vec::new(),
            resync: Vec::new(),
            trace_writes: Vec::new(),
            plain_pc: 0,
            counters_dirty: false,
            reservation_before: None,
            unsure_sc: None,
            prev_insn_pc: None,
            htif_words,
            has_program,
            report: Report::new(),
            cfg,
        };
        v.init_shadow();
        Ok(v)
    }

    fn init_shadow(&mut self) {
        let n = &self.cfg.nondet;
        let a = &self.cfg.absent;
        let mut initial = Vec::new();
        for idx in 0..NREG {
            let mut f = 0u8;
            // Views (and hcontext, mcontext's other name) have no index of their own.
            let is_view = idx < 0x1000
                && matches!(
                    idx as u16,
                    SSTATUS | SIE | SIP | FCSR | CYCLE | INSTRET | HPMCOUNTER3
                        ..=HPMCOUNTER31 | HCONTEXT
                );
            if let (false, Some(v)) = (is_view, refhart::read(&self.m, idx)) {
                f |= EXISTS;
                self.shadow[idx] = v;
                initial.push((idx, v));
            }
            let nondet = match idx {
                i if i == MCYCLE as usize => n.mcycle,
                i if i == MINSTRET as usize => n.minstret,
                i if i == TIME as usize => true,
                i if (MHPMCOUNTER3 as usize..=MHPMCOUNTER31 as usize).contains(&i) => n.hpm,
                _ => false,
            };
            if nondet {
                f |= NONDET;
            }
            // The CTR registers change with every recorded transfer, and some are views of
            // others; the indirect windows show whatever the select register points at (as
            // tdata1-3 show the trigger tselect selects, and icount counts down).
            let ctr = idx < 0x1000
                && iss::csr::csr_name(idx as u16)
                    .is_some_and(|n| n.contains("ctr") && !n.contains("counteren"));
            let volatile = ctr
                || (idx < 0x1000
                    && matches!(
                        idx as u16,
                        MHPMEVENT3..=MHPMEVENT31
                            | SCOUNTOVF
                            | SIREG..=SIREG6
                            | MIREG..=MIREG6
                            | 0x7a1..=0x7a3
                    ));
            if volatile {
                // A window may be closed now and open later: it exists if it has a name.
                f |= VOLATILE | EXISTS;
            }
            let absent = if idx >= FPR0 {
                a.fpr
            } else if idx >= GPR0 {
                a.gpr
            } else {
                a.csr || a.trap || a.csrs.contains(&(idx as u16))
            };
            if absent {
                f |= ABSENT;
            }
            self.flags[idx] = f;
        }
        self.masks.clear();
        for &(addr, m) in &self.cfg.compare_masks {
            if let Target::Reg(idx) = refhart::target(addr) {
                self.masks.push((idx, m));
            }
        }
        self.shadow_pc = self.m.hart.pc;
        self.shadow_prv = self.m.hart.prv;
        self.initial = (initial, self.m.hart.pc, self.m.hart.prv);
    }

    /// The reference hart now has a program that was loaded into it directly (a live front
    /// door: the plugin loads an ELF or images itself): the shadow state starts from the
    /// reference hart's, and a hart reset returns to it.
    pub fn program_loaded(&mut self) {
        self.has_program = true;
        self.htif_words.clear();
        let h = &self.m.htif;
        self.htif_words
            .extend([h.tohost, h.fromhost].into_iter().flatten());
        self.unsure_sc = None;
        self.init_shadow();
    }

    /// Take the reference hart's state as the shadow state (after the reference hart was
    /// stepped or written outside the verifier, e.g. by a testbench's backdoor).
    pub fn adopt_reference(&mut self) {
        for idx in 0..NREG {
            if self.flags[idx] & EXISTS != 0 {
                self.shadow[idx] = self.ref_value(idx);
            }
        }
        self.shadow_pc = self.m.hart.pc;
        self.shadow_prv = self.m.hart.prv;
        self.prev_insn_pc = None;
        self.unsure_sc = None;
    }

    /// What the reference hart did in the last group: its instruction record (none for an
    /// interrupt or a state update) and its trap.
    pub fn last_step(&self) -> (Option<&refhart::Captured>, Option<&iss::record::TrapRecord>) {
        (self.cap.retired(), self.cap.trap.as_ref())
    }

    /// How the verifier was set up.
    pub fn config(&self) -> &VerifyConfig {
        &self.cfg
    }

    /// Compare every register now (what `run` does periodically and at the end).
    pub fn compare_all(&mut self, g: &Group) {
        self.full_compare(g);
    }

    /// Verify a whole stream.
    pub fn run<R: Read>(&mut self, input: R) -> &Report {
        let start = Instant::now();
        let mut opts = ParserOptions::with_params(self.cfg.params);
        opts.strict_groups = self.cfg.strict_groups;
        let mut reader = GroupReader::new(input, opts);
        let mut g = Group::default();
        let mut since_full = 0u64;
        loop {
            match reader.next_group(&mut g) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    self.report.error = Some(e.describe());
                    self.report.parse_error = Some(e);
                    break;
                }
            }
            self.report.groups += 1;
            if let Err(e) = self.group(&g) {
                self.report.error = Some(e.to_string());
                break;
            }
            since_full += 1;
            if self.cfg.full_compare_every != 0 && since_full >= self.cfg.full_compare_every {
                since_full = 0;
                self.full_compare(&g);
            }
            if self.cfg.max_mismatches != 0
                && self.report.mismatching_groups >= self.cfg.max_mismatches
            {
                self.report.stopped_early = true;
                break;
            }
        }
        if self.report.error.is_none() && !self.report.stopped_early && self.report.groups > 0 {
            self.full_compare(&g);
        }
        if self.report.error.is_none() && self.report.groups == 0 {
            // Nothing to check is not a match: a core that wrote nothing must not pass.
            self.report.error = Some("the stream is empty: no group to verify".into());
        }
        self.report.bytes = reader.offset();
        self.report.seconds = start.elapsed().as_secs_f64();
        self.report.status = if self.report.error.is_some() {
            Status::Error
        } else if self.report.mismatching_groups > 0 {
            Status::Mismatch
        } else {
            Status::Match
        };
        &self.report
    }

    /// Process one group.
    pub fn group(&mut self, g: &Group) -> Result<(), GroupError> {
        if g.reset {
            self.reset();
            self.report.resets += 1;
            return Ok(());
        }
        if g.state_init {
            self.state_init(g);
            self.report.state_inits += 1;
            return Ok(());
        }
        if !self.has_program {
            return Err(GroupError::NoProgram {
                group: g.index,
                offset: g.offset,
            });
        }
        let kind = self.classify(g);
        let pc_before = self.m.hart.pc;
        // 1. Apply the group to the shadow state.
        self.touched.clear();
        self.diffs.clear();
        self.check_trace_mip(g, kind);
        for r in &g.regs {
            self.apply_reg(r.addr, r.op);
        }
        // 2. Non-deterministic state to the reference hart.
        self.nondet_before(kind);
        if let Some(t) = g.mtime.filter(|_| self.cfg.nondet.time) {
            self.m.bus.clint.mtime = t;
            self.shadow[TIME as usize] = t;
        }
        let mut sc_reservation = None;
        if self.cfg.nondet.sc && self.trace_sc_failed(g, pc_before) {
            sc_reservation = self.m.hart.reservation.take();
        }
        if kind == Kind::Update {
            self.report.updates += 1;
            self.cap.clear();
            self.pre.n = 0;
            self.compare(g, kind, pc_before);
            return Ok(());
        }
        // 3. Step the reference hart.
        self.atomic_rs2 = self.strict_rs2(g);
        self.trace_insn = g.insn.map(|i| i.bits);
        self.step_reference(kind);
        self.nondet_reads(g);
        // 4, 5. Compare; report and resynchronise.
        match sc_reservation.and_then(|res| self.unsure_sc(g, res)) {
            None => self.compare(g, kind, pc_before),
            Some(mut u) => {
                let mismatches = self.report.mismatching_groups;
                self.compare(g, kind, pc_before);
                u.reported = self.report.mismatching_groups > mismatches;
                self.unsure_sc = Some(u);
            }
        }
        Ok(())
    }

    /// The SC the reference hart just failed because the trace said so, when it held the
    /// reservation (`reservation`, taken away before the step) for the SC's address and the
    /// stream cannot say whether the SC stored (strict Flute).
    fn unsure_sc(&mut self, g: &Group, reservation: u64) -> Option<UnsureSc> {
        let rs2 = self.atomic_rs2?;
        let r = self.cap.retired()?;
        let iss::ops::Atomic::Sc(size) = r.insn.op.facts().atomic else {
            return None;
        };
        if r.exception.is_some() || !r.sc_failed {
            return None;
        }
        let pa = self.m.translate(r.sc_addr, Access::Store).ok()?;
        (pa == reservation).then_some(UnsureSc {
            group: g.index,
            pa,
            size,
            value: rs2 & size_mask(size),
            reported: false,
        })
    }

    /// The first load (or LR) of an unsure SC's bytes after it settles what it did: the
    /// reference hart loaded them without the SC's store; when the trace's rd differs and is
    /// what the load reads with that store (in the bytes loaded), the SC stored. Then the
    /// store goes to the reference hart's memory (so that later loads of it agree) and rd is
    /// the trace's; the difference is reported here unless the SC's group was (its wrong rd
    /// is the fault). Anything else the load shows is compared as usual. A store to those
    /// bytes, or an AMO on them, settles it too: what was there before no longer shows.
    #[inline(never)]
    fn settle_sc(&mut self) {
        let Some(u) = self.unsure_sc else { return };
        let Some(r) = self.cap.retired() else { return };
        if r.exception.is_some() {
            return;
        }
        let overlaps = |a: &iss::record::MemAccess| {
            a.paddr < u.pa + u.size as u64 && u.pa < a.paddr + a.size as u64
        };
        let Some(a) = r.mem().iter().copied().find(overlaps) else {
            return;
        };
        // The register the load writes (none: rd is x0, and the load shows nothing).
        let rd = r.written().iter().map(|&i| i as usize).find(|&i| i > GPR0);
        if a.kind == MemKind::Load
            && rd.is_none()
            && !matches!(r.insn.op.facts().atomic, iss::ops::Atomic::Amo(..))
        {
            return;
        }
        self.unsure_sc = None;
        let Some(rd) = rd.filter(|_| a.kind == MemKind::Load && r.mem().len() == 1) else {
            return;
        };
        if !self.touched.contains(&rd) {
            return;
        }
        let (expected, actual) = (self.ref_value(rd), self.shadow[rd]);
        let mut with_store = a.value;
        for i in 0..a.size as u64 {
            let pa = a.paddr + i;
            if pa.wrapping_sub(u.pa) < u.size as u64 {
                let b = (u.value >> (8 * (pa - u.pa))) & 0xff;
                with_store = (with_store & !(0xff << (8 * i))) | (b << (8 * i));
            }
        }
        let mask = size_mask(a.size);
        if expected == actual || (actual ^ with_store) & mask != 0 {
            return;
        }
        refhart::write_ram(&mut self.m, u.pa, &u.value.to_le_bytes()[..u.size as usize]);
        refhart::write(&mut self.m, rd, actual);
        if !u.reported {
            self.diffs.push(Diff {
                element: reg_name(refhart::addr_of(rd)).into_owned(),
                expected: hex(expected),
                actual: hex(actual),
            });
            self.diffs.push(Diff {
                element: format!("sc (group {})", u.group),
                expected: "failed: no store".into(),
                actual: format!("stored {} at {}", hex_sized(u.value, u.size), hex(u.pa)),
            });
        }
    }

    /// The interrupt-pending bits and counters the trace owns, to the reference hart before
    /// it steps.
    #[inline]
    fn nondet_before(&mut self, kind: Kind) {
        let mip = self.m.hart.csr.mip;
        let hw = self.hw_irq;
        let forced = match kind {
            Kind::Interrupt(bits) => bits & hw,
            _ => 0,
        };
        self.m.hart.csr.mip = (mip & !hw) | forced;
        if self.counters_dirty {
            self.counters_dirty = false;
            for c in [MCYCLE, MINSTRET] {
                if self.flags[c as usize] & NONDET != 0 {
                    let v = self.shadow[c as usize];
                    self.m.set_reg(c, v);
                }
            }
        }
    }

    /// Step the reference hart once, saving first what its store may overwrite.
    #[inline]
    fn step_reference(&mut self, kind: Kind) {
        refhart::predict_store(&mut self.m, &mut self.pre);
        self.reservation_before = self.m.hart.reservation;
        self.cap.clear();
        let outcome = if self.cfg.follow_interrupts && kind == Kind::Step {
            self.m.step_insn(&mut self.cap)
        } else {
            self.m.step(&mut self.cap)
        };
        match outcome {
            iss::StepOutcome::Retired => self.report.instructions += 1,
            iss::StepOutcome::Exception(_) => self.report.exceptions += 1,
            iss::StepOutcome::Interrupt(_) => self.report.interrupts += 1,
        }
    }

    /// The value of the trace instruction's rs2 in the reference hart before it steps, for
    /// an atomic instruction of a strict Flute stream (its store data is that value).
    fn strict_rs2(&self, g: &Group) -> Option<u64> {
        let i = g.insn.filter(|_| self.cfg.flute_strict)?;
        (i.len == 4 && i.bits & 0x7f == 0x2f).then(|| self.m.x(((i.bits >> 20) & 31) as u8))
    }

    /// mip as a state change outside any group (what Flute's cores write when mip changes):
    /// its bits the reference hart knows (those software writes, and MSIP, which the
    /// program's stores to the CLINT drive, without the built-in SBI) must be the reference's
    /// (the others, device-driven, are non-deterministic: they come from the stream); and
    /// once the stream has given mip so, an interrupt it reports must be pending in the last
    /// value it gave. A difference is a mismatch of `mip`.
    fn check_trace_mip(&mut self, g: &Group, kind: Kind) {
        if !g.grouped {
            if let Some(v) = g.full_reg(MIP) {
                let mut known = !self.hw_irq;
                let mut expected = self.m.csr_read(MIP).unwrap_or(self.m.hart.csr.mip);
                if !self.m.config.sbi && self.hw_irq & MIP_MSIP != 0 {
                    known |= MIP_MSIP;
                    expected = (expected & !MIP_MSIP)
                        | if self.m.bus.clint.msip[0] {
                            MIP_MSIP
                        } else {
                            0
                        };
                }
                if (v ^ expected) & known != 0 {
                    self.diffs.push(Diff {
                        element: "mip".into(),
                        expected: hex((expected & known) | (v & !known)),
                        actual: hex(v),
                    });
                }
                self.trace_mip = Some(v);
            }
            return;
        }
        if let (Kind::Interrupt(bits), Some(tm)) = (kind, self.trace_mip) {
            if tm & bits == 0 {
                self.diffs.push(Diff {
                    element: "mip".into(),
                    expected: format!("{} (the interrupt taken, pending)", hex(tm | bits)),
                    actual: hex(tm),
                });
            }
        }
    }

    /// Decide what the reference hart does for a group.
    fn classify(&self, g: &Group) -> Kind {
        if g.insn.is_some() {
            return Kind::Step;
        }
        let cause = g
            .full_reg(MCAUSE)
            .or_else(|| g.full_reg(SCAUSE))
            .map(Cause::from_xcause);
        match cause {
            Some(Some(c)) if c.is_interrupt() => Kind::Interrupt(1 << c.code()),
            Some(_) => Kind::Step,
            None if self.cfg.absent.insn => Kind::Step,
            // An interrupt whose trap CSRs were left out: a next pc and nothing executed.
            None if g.pc.is_some() && g.grouped => Kind::Interrupt(self.infer_interrupt(g)),
            None => Kind::Update,
        }
    }

    /// The pending bits for an interrupt the trace reports without its cause: from a
    /// vectored trap vector the next pc points into, else every device-driven bit.
    fn infer_interrupt(&self, g: &Group) -> u64 {
        let Some(pc) = g.pc else {
            return self.hw_irq;
        };
        for tvec in [self.m.hart.csr.mtvec, self.m.hart.csr.stvec] {
            let base = tvec & !3;
            if tvec & 3 == 1 && pc > base && pc.wrapping_sub(base) < 64 && pc & 3 == 0 {
                return 1 << ((pc - base) / 4);
            }
        }
        self.hw_irq
    }

    /// Apply one register change of the trace to the shadow state.
    fn apply_reg(&mut self, addr: u16, op: RegOp) {
        let sh = &mut self.shadow;
        match refhart::target(addr) {
            Target::Reg(idx) => {
                if self.flags[idx] & EXISTS == 0 {
                    self.diffs.push(Diff {
                        element: reg_name(addr).into_owned(),
                        expected: "no such register".into(),
                        actual: format!("{op:?}"),
                    });
                    return;
                }
                sh[idx] = op.apply(sh[idx]);
                if self.fpr32 && (FPR0..FPR0 + 32).contains(&idx) {
                    sh[idx] = crate::params::nan_box32(sh[idx]);
                }
                self.touched.push(idx);
                if idx == MCYCLE as usize || idx == MINSTRET as usize {
                    self.counters_dirty = true;
                }
            }
            Target::Sstatus => {
                let i = MSTATUS as usize;
                let v = op.apply(sh[i] & SSTATUS_MASK);
                sh[i] = (sh[i] & !SSTATUS_MASK) | (v & SSTATUS_MASK);
                self.touched.push(i);
            }
            Target::Sie | Target::Sip => {
                let i = if refhart::target(addr) == Target::Sie {
                    MIE as usize
                } else {
                    MIP as usize
                };
                let deleg = sh[MIDELEG as usize];
                let v = op.apply(sh[i] & deleg);
                sh[i] = (sh[i] & !deleg) | (v & deleg);
                self.touched.push(i);
            }
            Target::Fcsr => {
                let (fl, rm) = (FFLAGS as usize, FRM as usize);
                let v = op.apply((sh[rm] << 5) | sh[fl]);
                sh[fl] = v & 0x1f;
                sh[rm] = (v >> 5) & 7;
                self.touched.push(fl);
                self.touched.push(rm);
            }
            Target::Unknown => self.diffs.push(Diff {
                element: reg_name(addr).into_owned(),
                expected: "no such register".into(),
                actual: format!("{op:?}"),
            }),
        }
    }

    /// Whether the trace says the group's instruction, at `pc`, trapped: it gives the trap
    /// CSRs, or a next pc other than the next instruction's (for an instruction that does not
    /// jump: LR, SC). A partial trace without the trap CSRs (`trap` absent) still gives the
    /// next pc, the trap's handler.
    fn trace_trapped(g: &Group, pc: u64) -> bool {
        if g.full_reg(MCAUSE).or_else(|| g.full_reg(SCAUSE)).is_some() {
            return true;
        }
        match (g.insn, g.pc) {
            (Some(i), Some(next)) => next != pc.wrapping_add(i.len as u64),
            _ => false,
        }
    }

    /// Whether the group's instruction (at `pc`) is an SC that the trace says failed.
    fn trace_sc_failed(&self, g: &Group, pc: u64) -> bool {
        let Some(i) = g.insn else { return false };
        if i.len != 4 || i.bits & 0x7f != 0x2f || (i.bits >> 27) != 3 {
            return false;
        }
        // An SC that trapped (a debug trigger fires on its store) neither failed nor
        // succeeded: its reservation stays (as on the hart and on Spike, whose
        // `store_conditional` keeps it when the store throws).
        if Self::trace_trapped(g, pc) {
            return false;
        }
        let rd = ((i.bits >> 7) & 31) as u16;
        if rd != 0 {
            if let Some(v) = g.full_reg(0x1000 + rd) {
                return v != 0;
            }
        }
        if self.cfg.absent.store_data && g.mem.is_empty() {
            // Nothing in the trace says whether it stored.
            return false;
        }
        g.store_data.is_none()
            && !g.mem.iter().any(|t| {
                t.req.op == MemOp::StoreConditional
                    && t.rsp.is_none_or(|r| r.result == MemResult::Success)
            })
    }

    /// After the step: values read from non-deterministic sources come from the shadow state.
    fn nondet_reads(&mut self, g: &Group) {
        let Some(r) = self.cap.retired() else { return };
        if r.exception.is_some() {
            return;
        }
        let nd = &self.cfg.nondet;
        let mut take_rd = false;
        let mut htif_load: Option<(u64, u8)> = None;
        for a in r.mem() {
            if a.kind != MemKind::Load {
                continue;
            }
            if nd.mmio && self.m.bus.is_mmio(a.paddr) {
                take_rd = true;
            }
            if nd.htif && self.htif_words.contains(&(a.paddr & !7)) {
                take_rd = true;
                htif_load = Some((a.paddr, a.size));
            }
        }
        let op = r.insn.op;
        if matches!(
            op,
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci
        ) {
            let c = r.insn.csr();
            take_rd |= match c {
                TIME => nd.time,
                CYCLE | MCYCLE => nd.mcycle,
                INSTRET | MINSTRET => nd.minstret,
                MIP | SIP => nd.mip,
                HPMCOUNTER3..=HPMCOUNTER31 | MHPMCOUNTER3..=MHPMCOUNTER31 => nd.hpm,
                _ => false,
            };
        }
        if !take_rd {
            return;
        }
        let rd = r.insn.rd;
        let fp_load = matches!(op, Op::Flw | Op::Fld);
        let idx = if fp_load {
            FPR0 + rd as usize
        } else {
            if rd == 0 {
                return;
            }
            GPR0 + rd as usize
        };
        let absent = self.flags[idx] & ABSENT != 0 && !self.touched.contains(&idx);
        if absent {
            return;
        }
        let v = self.shadow[idx];
        refhart::write(&mut self.m, idx, v);
        if let (Some((pa, size)), false) = (htif_load, fp_load) {
            let bytes = v.to_le_bytes();
            refhart::write_ram(&mut self.m, pa, &bytes[..size as usize]);
        }
        let _ = g;
    }

    /// The instruction at `va` as the reference hart fetched before the step, with the
    /// privilege and satp it had then (the walk only reads: nothing is changed). Both sides
    /// were in step before the group: the privilege is the shadow's before the group (not
    /// updated yet), and satp, if the reference's instruction wrote it and the trace's did
    /// not, the shadow's (the trace's, unchanged); otherwise the reference's.
    fn insn_fetched_before(&mut self, va: u64) -> Option<(u32, u8)> {
        let satp_idx = SATP as usize;
        let ref_wrote_satp = self
            .cap
            .retired()
            .is_some_and(|r| r.written().contains(&SATP));
        let satp = if ref_wrote_satp && !self.touched.contains(&satp_idx) {
            self.shadow[satp_idx]
        } else {
            self.m.hart.csr.satp
        };
        let now = (self.m.hart.prv, self.m.hart.csr.satp);
        (self.m.hart.prv, self.m.hart.csr.satp) = (self.shadow_prv, satp);
        let insn = refhart::insn_at(&mut self.m, va);
        (self.m.hart.prv, self.m.hart.csr.satp) = now;
        insn
    }

    /// The reference hart's value of a register.
    #[inline]
    fn ref_value(&self, idx: usize) -> u64 {
        refhart::read(&self.m, idx).unwrap_or(0)
    }

    /// Steps 4 and 5.
    fn compare(&mut self, g: &Group, kind: Kind, pc_before: u64) {
        let mut resync_pc = None;
        let mut resync_prv = None;
        self.resync.clear();
        let ref_pc = self.m.hart.pc;
        let ref_prv = self.m.hart.prv;
        // The instruction.
        let ref_insn = self.cap.retired().and_then(|r| {
            (r.insn.op != Op::NotDecoded).then_some((
                if r.insn.len == 2 {
                    r.insn.bits & 0xffff
                } else {
                    r.insn.bits
                },
                r.insn.len,
            ))
        });
        let trace_insn = g.insn.map(|i| (i.bits, i.len));
        let insn_differs = kind != Kind::Update && !self.cfg.absent.insn && ref_insn != trace_insn;
        if insn_differs {
            let show = |i: Option<(u32, u8)>, interrupt: bool| match i {
                Some((b, 2)) => format!("{b:04x}"),
                Some((b, _)) => format!("{b:08x}"),
                None if interrupt => "none (interrupt)".into(),
                None => "none".into(),
            };
            let ref_irq = self.cap.retired().is_none() && self.cap.trap.is_some();
            self.diffs.push(Diff {
                element: "insn".into(),
                expected: show(ref_insn, ref_irq),
                actual: show(trace_insn, matches!(kind, Kind::Interrupt(_))),
            });
        }
        // The pc.
        let mut trace_pc = match (g.pc, g.incr_pc, g.insn) {
            (Some(p), _, _) => Some(p),
            (None, true, Some(i)) => Some(pc_before.wrapping_add(i.len as u64)),
            _ if kind == Kind::Update => Some(pc_before),
            _ => None,
        };
        // Where the trace's instruction was. Without a full next pc (increment pc, or the pc
        // left out) the stream only says "the next instruction": after a core skipped or
        // repeated one, the reference hart would stay one instruction off for good. The
        // trace's instruction word says which: the one after the reference's (skipped), or
        // the one before it (repeated), each as the core fetched it: with the privilege and
        // translation of before the step (the reference's instruction may have changed them:
        // a skipped `mret`). After a run of instructions the same as the reference's (`nop`
        // padding), the one after the run: a core that skipped some of them wrote a correct
        // core's stream until the run ended, and how many it skipped shows only here.
        let mut insn_pc = pc_before;
        if let (true, None, Some((bits, len))) = (insn_differs, g.pc, trace_insn) {
            let skipped = ref_insn.map(|(b, l)| {
                let mut c = pc_before.wrapping_add(l as u64);
                for _ in 0..MAX_SKIPPED_RUN {
                    if self.insn_fetched_before(c) != Some((b, l)) {
                        break;
                    }
                    c = c.wrapping_add(l as u64);
                }
                c
            });
            for c in [skipped, self.prev_insn_pc].into_iter().flatten() {
                if self.insn_fetched_before(c) == Some((bits, len)) {
                    insn_pc = c;
                    trace_pc = Some(c.wrapping_add(len as u64));
                    break;
                }
            }
        }
        if kind == Kind::Step {
            self.prev_insn_pc = Some(insn_pc);
        }
        match trace_pc {
            Some(p) if p != ref_pc => {
                self.diffs.push(Diff {
                    element: "pc".into(),
                    expected: hex(ref_pc),
                    actual: hex(p),
                });
                resync_pc = Some(p);
            }
            _ => {}
        }
        self.shadow_pc = trace_pc.unwrap_or(ref_pc);
        // The privilege.
        let trace_prv = match g.prv {
            Some(p) => Priv::from_bits(p as u64).unwrap_or(Priv::M),
            None if self.cfg.absent.priv_ => ref_prv,
            None => self.shadow_prv,
        };
        if trace_prv != ref_prv {
            self.diffs.push(Diff {
                element: "priv".into(),
                expected: priv_name(ref_prv as u8).into_owned(),
                actual: priv_name(trace_prv as u8).into_owned(),
            });
            resync_prv = Some(trace_prv);
        }
        self.shadow_prv = trace_prv;
        if self.unsure_sc.is_some() {
            self.settle_sc();
        }
        // Registers either side changed.
        self.compare_regs();
        // Memory.
        self.compare_memory(g);
        if let Some(p) = g.pc_paddr {
            let want = self.m.translate(ref_pc, Access::Fetch).ok();
            if want != Some(p) {
                self.diffs.push(Diff {
                    element: "pc-paddr".into(),
                    expected: want.map_or("none".into(), hex),
                    actual: hex(p),
                });
            }
        }
        if self.diffs.is_empty() {
            return;
        }
        // 5. Report, then copy the shadow state to the reference hart.
        let kind_name = match kind {
            Kind::Interrupt(_) => "interrupt",
            Kind::Update => "state update",
            Kind::Step if self.cap.trap.is_some() || g.full_reg(MCAUSE).is_some() => "exception",
            Kind::Step => "instruction",
        };
        self.record_mismatch(
            g,
            kind_name,
            pc_before,
            insn_differs.then_some(ref_insn).flatten(),
        );
        if let Some(p) = resync_prv {
            self.m.set_priv_level(p);
        }
        for i in 0..self.resync.len() {
            let idx = self.resync[i];
            let v = self.shadow[idx];
            refhart::write(&mut self.m, idx, v);
            // What the hart holds (WARL) is the shadow's value from now on.
            self.shadow[idx] = self.ref_value(idx);
        }
        if let Some(p) = resync_pc {
            self.m.set_pc(p);
        }
        // The reservation as the trace's instruction leaves it: set by an LR, cleared by an
        // SC, untouched by anything else, and by an LR or SC that trapped (a debug trigger's
        // breakpoint before it: it did not execute).
        let amo = g
            .insn
            .filter(|i| i.len == 4 && i.bits & 0x7f == 0x2f)
            .filter(|_| !Self::trace_trapped(g, pc_before))
            .map(|i| i.bits >> 27);
        self.m.hart.reservation = match amo {
            Some(2) => {
                let lr = self
                    .cap
                    .retired()
                    .and_then(|r| r.mem().first().map(|a| (a.vaddr, a.paddr)));
                match (g.paddr, g.eaddr, lr) {
                    (Some(p), _, _) => Some(p),
                    (None, Some(e), Some((va, pa))) if e == va => Some(pa),
                    (None, Some(e), _) => self.m.translate(e, Access::Load).ok(),
                    (None, None, Some((_, pa))) => Some(pa),
                    _ => self.m.hart.reservation,
                }
            }
            Some(3) => None,
            _ => self.reservation_before,
        };
    }

    fn compare_regs(&mut self) {
        // What the reference hart wrote.
        let mut refw = [0usize; 16];
        let mut n = 0;
        if let Some(r) = self.cap.retired() {
            for &i in r.written() {
                refw[n] = i as usize;
                n += 1;
            }
        }
        if let Some(t) = &self.cap.trap {
            for w in &t.writes {
                if let Some(i) = refhart::record_idx(w.reg) {
                    if n < refw.len() {
                        refw[n] = i;
                        n += 1;
                    }
                }
            }
        }
        for k in 0..self.touched.len() {
            let idx = self.touched[k];
            if self.touched[..k].contains(&idx) {
                continue;
            }
            self.compare_reg(idx, true);
        }
        // Flute's CSRRX rule writes rd and the CSR named, not what else the write changed:
        // those (not rd, not the CSR named) are the reference's, when the trace's instruction
        // is the one the reference hart ran (a dropped or changed one is compared in full).
        let side_effects_of = self
            .cap
            .retired()
            .filter(|r| {
                self.cfg.flute_strict
                    && r.exception.is_none()
                    && matches!(
                        r.insn.op,
                        Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci
                    )
                    && self.trace_insn == Some(r.insn.bits)
            })
            .map(|r| {
                (
                    refhart::record_idx(iss::record::Reg::X(r.insn.rd)),
                    refhart::record_idx(iss::record::Reg::Csr(r.insn.csr())),
                )
            });
        for &idx in &refw[..n] {
            if self.touched.contains(&idx) {
                continue;
            }
            if let Some((rd, csr)) = side_effects_of {
                if Some(idx) != rd && Some(idx) != csr {
                    self.shadow[idx] = self.ref_value(idx);
                    continue;
                }
            }
            self.compare_reg(idx, false);
        }
    }

    #[inline]
    fn compare_reg(&mut self, idx: usize, mentioned: bool) {
        let f = self.flags[idx];
        if f & NONDET != 0 {
            return;
        }
        let expected = self.ref_value(idx);
        if !mentioned && f & ABSENT != 0 {
            self.shadow[idx] = expected;
            return;
        }
        let actual = self.shadow[idx];
        let mut mask = if idx == MIP as usize {
            !self.hw_irq
        } else {
            u64::MAX
        };
        if let Some(&(_, m)) = self.masks.iter().find(|m| m.0 == idx) {
            mask &= m;
            if (expected ^ actual) & mask == 0 && expected != actual && idx != MIP as usize {
                // The implementation's choice in the other bits: the reference takes it.
                refhart::write(&mut self.m, idx, actual);
                self.shadow[idx] = self.ref_value(idx);
                return;
            }
        }
        if (expected ^ actual) & mask != 0 {
            if self.resync.contains(&idx) {
                return;
            }
            self.diffs.push(Diff {
                element: reg_name(refhart::addr_of(idx)).into_owned(),
                expected: hex(expected),
                actual: hex(actual),
            });
            self.resync.push(idx);
        } else if mask != u64::MAX {
            // Keep the device-driven bits as the reference hart has them.
            self.shadow[idx] = (actual & mask) | (expected & !mask);
        }
    }

    fn compare_memory(&mut self, g: &Group) {
        let r = self.cap.retired();
        let ref_accesses =
            r.is_some_and(|r| r.exception.is_none() && (!r.mem().is_empty() || r.sc_failed));
        if !ref_accesses
            && g.eaddr.is_none()
            && g.paddr.is_none()
            && g.store_data.is_none()
            && g.mem.is_empty()
        {
            return;
        }
        let Verifier {
            m,
            cap,
            cfg,
            diffs,
            trace_writes,
            pre,
            atomic_rs2,
            ..
        } = self;
        let atomic = *atomic_rs2;
        compare_memory(m, cap.retired(), cfg, diffs, trace_writes, g, pre, atomic);
    }

    fn record_mismatch(&mut self, g: &Group, kind: &str, pc: u64, ref_insn: Option<(u32, u8)>) {
        self.report.mismatching_groups += 1;
        self.report.mismatching_elements += self.diffs.len() as u64;
        if self.report.mismatches.len() >= self.cfg.max_reported {
            return;
        }
        let fmt_insn = |b: u32, len: u8| {
            if len == 2 {
                format!("{b:04x}")
            } else {
                format!("{b:08x}")
            }
        };
        self.report.mismatches.push(Mismatch {
            group: g.index,
            offset: g.offset,
            pc,
            kind: kind.into(),
            insn: g.insn.map(|i| fmt_insn(i.bits, i.len)),
            disasm: g.insn.map(|i| disasm(pc, i.bits, i.len)),
            ref_insn: ref_insn.map(|(b, l)| format!("{}  {}", fmt_insn(b, l), disasm(pc, b, l))),
            diffs: std::mem::take(&mut self.diffs),
        });
    }

    /// Compare every register (a check of the change-based comparison).
    fn full_compare(&mut self, g: &Group) {
        self.diffs.clear();
        self.resync.clear();
        for idx in 0..NREG {
            let f = self.flags[idx];
            if f & EXISTS == 0 || f & (NONDET | ABSENT | VOLATILE) != 0 {
                continue;
            }
            self.compare_reg(idx, true);
        }
        if self.m.hart.pc != self.shadow_pc {
            self.diffs.push(Diff {
                element: "pc".into(),
                expected: hex(self.m.hart.pc),
                actual: hex(self.shadow_pc),
            });
        }
        if self.diffs.is_empty() {
            return;
        }
        let pc = self.m.hart.pc;
        self.report.mismatching_groups += 1;
        self.report.mismatching_elements += self.diffs.len() as u64;
        if self.report.mismatches.len() < self.cfg.max_reported {
            self.report.mismatches.push(Mismatch {
                group: g.index,
                offset: g.offset,
                pc,
                kind: "full state comparison".into(),
                insn: None,
                disasm: None,
                ref_insn: None,
                diffs: std::mem::take(&mut self.diffs),
            });
        }
        for i in 0..self.resync.len() {
            let idx = self.resync[i];
            let v = self.shadow[idx];
            refhart::write(&mut self.m, idx, v);
            self.shadow[idx] = self.ref_value(idx);
        }
        self.m.set_pc(self.shadow_pc);
    }

    /// A hart reset: registers, pc and privilege as at the start (memory stays).
    fn reset(&mut self) {
        let (regs, pc, prv) = self.initial.clone();
        for (idx, v) in regs {
            if self.flags[idx] & EXISTS != 0 {
                refhart::write(&mut self.m, idx, v);
                self.shadow[idx] = self.ref_value(idx);
            }
        }
        self.m.set_pc(pc);
        self.m.set_priv_level(prv);
        self.m.hart.reservation = None;
        self.unsure_sc = None;
        self.prev_insn_pc = None;
        self.trace_mip = None;
        self.shadow_pc = pc;
        self.shadow_prv = prv;
    }

    /// State initialisation: the group's changes go to the shadow state and the reference
    /// hart alike; nothing is compared.
    fn state_init(&mut self, g: &Group) {
        // A program is memory: registers alone (the start state every stream carries) are not
        // one.
        if !g.mem.is_empty() || g.store_data.is_some() {
            self.has_program = true;
        }
        for r in &g.regs {
            self.touched.clear();
            self.apply_reg(r.addr, r.op);
            for k in 0..self.touched.len() {
                let idx = self.touched[k];
                let v = self.shadow[idx];
                refhart::write(&mut self.m, idx, v);
                self.shadow[idx] = self.ref_value(idx);
            }
        }
        self.diffs.clear();
        if let Some(pc) = g.pc {
            self.m.set_pc(pc);
            self.shadow_pc = pc;
        }
        if let Some(p) = g.prv.and_then(|p| Priv::from_bits(p as u64)) {
            self.m.set_priv_level(p);
            self.shadow_prv = p;
        }
        if let Some(t) = g.mtime {
            self.m.bus.clint.mtime = t;
        }
        for t in &g.mem {
            if t.req.op.writes() {
                if let Some(d) = t.req.data {
                    let n = t.req.size.bytes() as usize;
                    refhart::write_ram(&mut self.m, t.req.addr, &d.to_le_bytes()[..n]);
                }
            }
        }
        if let (Some((size, v)), Some(pa)) = (g.store_data, g.paddr.or(g.eaddr)) {
            refhart::write_ram(&mut self.m, pa, &v.to_le_bytes()[..size.bytes() as usize]);
        }
    }
}

/// Memory: the addresses and store data the trace gives, and every byte either side wrote.
/// `atomic_rs2`: in a strict Flute stream, the group is an atomic instruction's, whose store
/// data is rs2's value (this, before the step), not what it stored.
#[allow(clippy::too_many_arguments)]
fn compare_memory(
    m: &mut Machine,
    r: Option<&refhart::Captured>,
    cfg: &VerifyConfig,
    diffs: &mut Vec<Diff>,
    trace_writes: &mut Vec<MemWrite>,
    g: &Group,
    pre: &PreStore,
    atomic_rs2: Option<u64>,
) {
    let (ref_mem, sc_addr): (&[iss::record::MemAccess], _) = match r {
        Some(r) if r.exception.is_none() => (r.mem(), r.sc_failed.then_some(r.sc_addr)),
        _ => (&[], None),
    };
    let ref_store = ref_mem.iter().find(|m| m.kind == MemKind::Store).copied();
    let ref_first = ref_mem.first().copied();
    // Effective and physical addresses.
    if let Some(e) = g.eaddr {
        let want = ref_first.map(|m| m.vaddr).or(sc_addr);
        if want != Some(e) {
            diffs.push(Diff {
                element: "eaddr".into(),
                expected: want.map_or("none".into(), hex),
                actual: hex(e),
            });
        }
    }
    if let Some(p) = g.paddr {
        let want = ref_first.map(|m| m.paddr);
        if want.is_some() && want != Some(p) {
            diffs.push(Diff {
                element: "paddr".into(),
                expected: want.map_or("none".into(), hex),
                actual: hex(p),
            });
        }
    }
    // The memory writes the trace reports.
    trace_writes.clear();
    let stores_absent = cfg.absent.store_data;
    if let (Some(rs2), Some(r)) = (atomic_rs2, r.filter(|r| r.exception.is_none())) {
        // Flute's AMO rule: the data is rs2's value (LR: x0's), whether or not an SC stored;
        // what the instruction stored is the reference hart's (rd and the next loads show
        // a wrong one).
        let lr = matches!(r.insn.op.facts().atomic, iss::ops::Atomic::Lr(_));
        let want = if lr { 0 } else { rs2 };
        if let Some((size, value)) = g.store_data.filter(|_| !stores_absent) {
            if want & size.mask() != value {
                diffs.push(Diff {
                    element: "store-data (rs2)".into(),
                    expected: hex_sized(want, size.bytes()),
                    actual: hex_sized(value, size.bytes()),
                });
            }
        }
        if let Some(s) = ref_store {
            trace_writes.push(MemWrite {
                pa: s.paddr,
                size: s.size,
                value: s.value,
            });
        }
    } else if let Some((size, value)) = g.store_data.filter(|_| !stores_absent) {
        match ref_store {
            Some(s) if s.size == size.bytes() && s.value & size.mask() == value => {}
            _ => diffs.push(Diff {
                element: "store-data".into(),
                expected: ref_store.map_or("none".into(), |s| hex_sized(s.value, s.size)),
                actual: hex_sized(value, size.bytes()),
            }),
        }
        if let Some(pa) = store_pa(m, g, ref_store) {
            trace_writes.push(MemWrite {
                pa,
                size: size.bytes(),
                value,
            });
        }
    }
    for t in &g.mem {
        let r = t.req;
        let n = r.size.bytes();
        match r.op {
            MemOp::Load | MemOp::LoadReserved | MemOp::Fetch => {
                if let Some(d) = t.rsp.and_then(|x| x.data) {
                    if let Some(mem) = pre_value(m, pre, r.addr, n) {
                        if mem != d & r.size.mask() {
                            diffs.push(Diff {
                                element: format!("{} response @{}", r.op.name(), hex(r.addr)),
                                expected: hex_sized(mem, n),
                                actual: hex_sized(d, n),
                            });
                        }
                    }
                }
            }
            MemOp::Store => trace_writes.push(MemWrite {
                pa: r.addr,
                size: n,
                value: r.data.unwrap_or(0),
            }),
            MemOp::StoreConditional => {
                if t.rsp.is_none_or(|x| x.result == MemResult::Success) {
                    trace_writes.push(MemWrite {
                        pa: r.addr,
                        size: n,
                        value: r.data.unwrap_or(0),
                    });
                }
            }
            op => {
                if let Some(old) = pre_value(m, pre, r.addr, n) {
                    if let Some(d) = t.rsp.and_then(|x| x.data) {
                        if old != d & r.size.mask() {
                            diffs.push(Diff {
                                element: format!("{} response @{}", op.name(), hex(r.addr)),
                                expected: hex_sized(old, n),
                                actual: hex_sized(d, n),
                            });
                        }
                    }
                    trace_writes.push(MemWrite {
                        pa: r.addr,
                        size: n,
                        value: op.amo_result(old, r.data.unwrap_or(0), r.size),
                    });
                }
            }
        }
    }
    // The same write reported twice (store data and a memory request) counts once.
    let mut k = 0;
    while k < trace_writes.len() {
        let w = trace_writes[k];
        if trace_writes[..k]
            .iter()
            .any(|x| x.pa == w.pa && x.size == w.size && x.value == w.value)
        {
            trace_writes.remove(k);
        } else {
            k += 1;
        }
    }
    // Quick path: the trace writes exactly what the reference wrote.
    let ref_ram_stores = ref_mem
        .iter()
        .filter(|a| a.kind == MemKind::Store && !m.bus.is_device(a.paddr));
    let n_ref = ref_ram_stores.clone().count();
    if n_ref == 0 && trace_writes.is_empty() {
        return;
    }
    if stores_absent && g.mem.is_empty() {
        return;
    }
    let same = |w: &MemWrite, m: &iss::record::MemAccess| {
        w.pa == m.paddr && w.size == m.size && w.value & size_mask(w.size) == m.value
    };
    if trace_writes.len() == n_ref
        && ref_ram_stores
            .clone()
            .all(|m| trace_writes.iter().any(|w| same(w, m)))
    {
        return;
    }
    // Byte by byte over everything either side wrote. A store wider than any data element
    // (cbo.zero's block) is what its instruction says it is: without memory requests the
    // stream cannot carry its bytes, and the reference's stand for them.
    let mut bytes: Vec<(u64, Option<u8>)> = Vec::new();
    for a in ref_ram_stores {
        for i in 0..a.size as u64 {
            let pa = a.paddr.wrapping_add(i);
            if !bytes.iter().any(|b| b.0 == pa) {
                let implied = if a.size > 8 {
                    refhart::ram_byte(m, pa)
                } else {
                    None
                };
                bytes.push((pa, implied));
            }
        }
    }
    for w in trace_writes.iter() {
        for i in 0..w.size as u64 {
            let pa = w.pa.wrapping_add(i);
            let b = (w.value >> (8 * i)) as u8;
            if m.bus.is_device(pa) {
                continue;
            }
            match bytes.iter_mut().find(|x| x.0 == pa) {
                Some(x) => x.1 = Some(b),
                None => bytes.push((pa, Some(b))),
            }
        }
    }
    bytes.sort_unstable_by_key(|b| b.0);
    // Differences, grouped by 8-byte word.
    let mut fixes: Vec<(u64, u8)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let word = bytes[i].0 & !7;
        let (mut exp, mut act, mut differs) = (0u64, 0u64, false);
        let mut known = true;
        while i < bytes.len() && bytes[i].0 & !7 == word {
            let (pa, tb) = bytes[i];
            let Some(rb) = refhart::ram_byte(m, pa) else {
                i += 1;
                continue;
            };
            // The shadow's byte: the trace's, else the byte before the instruction.
            let sb = match tb {
                Some(b) => Some(b),
                None if stores_absent => Some(rb),
                None => pre.get(pa).or_else(|| {
                    // Not saved: only possible if the reference did not write it.
                    (!ref_mem.iter().any(|m| {
                        m.kind == MemKind::Store && pa.wrapping_sub(m.paddr) < m.size as u64
                    }))
                    .then_some(rb)
                }),
            };
            let sh = 8 * (pa & 7);
            exp |= (rb as u64) << sh;
            match sb {
                Some(b) => {
                    act |= (b as u64) << sh;
                    if b != rb {
                        differs = true;
                        fixes.push((pa, b));
                    }
                }
                None => known = false,
            }
            i += 1;
        }
        if differs || !known {
            diffs.push(Diff {
                element: format!("mem[{}]", hex(word)),
                expected: hex(exp),
                actual: if known { hex(act) } else { "unknown".into() },
            });
        }
    }
    for (pa, b) in fixes {
        refhart::write_ram(m, pa, &[b]);
    }
}

/// Physical address of a trace store with only an effective address.
fn store_pa(m: &mut Machine, g: &Group, ref_store: Option<iss::record::MemAccess>) -> Option<u64> {
    if let Some(p) = g.paddr {
        return Some(p);
    }
    match (g.eaddr, ref_store) {
        (Some(e), Some(s)) if s.vaddr == e => Some(s.paddr),
        (Some(e), _) => m.translate(e, Access::Store).ok(),
        (None, Some(s)) => Some(s.paddr),
        (None, None) => None,
    }
}

/// `n` bytes of memory at `pa` as they were before the instruction.
fn pre_value(m: &Machine, pre: &PreStore, pa: u64, n: u8) -> Option<u64> {
    let mut v = 0u64;
    for i in 0..n as u64 {
        let a = pa.wrapping_add(i);
        let b = match pre.get(a) {
            Some(b) => b,
            None => refhart::ram_byte(m, a)?,
        };
        v |= (b as u64) << (8 * i);
    }
    Some(v)
}

fn size_mask(n: u8) -> u64 {
    MemSize::from_bytes(n).map_or(u64::MAX, |s| s.mask())
}

fn hex(v: u64) -> String {
    format!("0x{v:016x}")
}

fn hex_sized(v: u64, n: u8) -> String {
    let digits = 2 * n as usize;
    format!("0x{:0digits$x}", v & size_mask(n))
}

/// Verify a stream from a reader: build the verifier, run it, return the report.
pub fn verify<R: Read>(cfg: VerifyConfig, elf: Option<(&[u8], &str)>, input: R) -> Report {
    match Verifier::new(cfg, elf) {
        Ok(mut v) => {
            v.run(input);
            v.report
        }
        Err(e) => {
            let mut r = Report::new();
            r.status = Status::Error;
            r.error = Some(e.to_string());
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nondet_lists() {
        assert_eq!(Nondet::parse("default").unwrap(), Nondet::default());
        let n = Nondet::parse("mip,time").unwrap();
        assert!(n.mip && n.time && !n.mmio && !n.minstret);
        let n = Nondet::parse("+htif,-sc").unwrap();
        assert!(n.htif && !n.sc && n.mip);
        assert!(Nondet::parse("bogus").is_err());
    }
}
