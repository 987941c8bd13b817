//! The built-in SBI: what OpenSBI would be for supervisor-mode software, served by the hart
//! itself (RISC-V SBI 3.0; docs/pmu.md "Built-in SBI" lists every choice made here).
//!
//! With [`Config::sbi`](crate::Config::sbi) the hart boots the program in S-mode in the state
//! OpenSBI leaves it ([`Machine::sbi_boot`]), with a device tree it generates
//! ([`crate::dtb`]), and there is no M-mode software: every trap that would go to M-mode is
//! taken by this module instead, before it becomes a trap (`Machine::sbi_trap`, called by
//! the run loop where an exception is taken):
//!
//! - `ecall` from S-mode is an SBI call: a7 = EID, a6 = FID, arguments in a0-a5, the result's
//!   error in a0 and value in a1 (legacy extensions write a0 only), execution goes on at
//!   pc + 4. Extensions are one file each, registered in [`EXTENSIONS`].
//! - A misaligned load or store from S or U is emulated (OpenSBI's misaligned handler); other
//!   exceptions bound for M-mode (illegal instructions, access faults, misaligned atomics) are
//!   redirected to S-mode as OpenSBI's `sbi_trap_redirect` does. Each counts its firmware
//!   event.
//! - The S-mode timer (`set_timer`) raises STIP when mtime reaches the deadline; IPIs to this
//!   hart raise SSIP. No M-mode interrupt is ever enabled.
//!
//! **What the counters see.** On hardware an SBI call is an exception into M-mode; the `ecall`
//! does not retire, and the firmware's own instructions run in M-mode. Here the call takes no
//! time and no instruction: the `ecall` is not counted as retired (instret, INSTRUCTIONS,
//! CPU_CYCLES), the exception is counted (EXCEPTIONS, from S), as it would be under OpenSBI,
//! and no M-mode instruction or cycle is counted for the firmware. The same holds for an
//! emulated misaligned access. Retirement records and runs (traces, the commit log) show the
//! S-mode view: the `ecall` (or the emulated load or store) retired, with its register writes,
//! and execution going on after it.

mod base;
mod boot;
mod dbcn;
mod hsm;
mod ipi;
mod legacy;
mod pmu_ext;
mod rfence;
mod srst;
mod time;
mod traps;

use crate::insn::Insn;
use crate::machine::Machine;
use crate::record::{Reg, Run, Sink};
use crate::run::Stop;
use arch::{Cause, Exception, Priv};
pub use pmu::report::SbiSummaryRow;
pub use pmu::sbi::SbiCallRecord;
pub use pmu::{PmuReport, SbiError, SbiRet};
use std::collections::BTreeMap;

pub use base::{IMPL_ID, SPEC_VERSION};
pub use boot::OPENSBI_MEDELEG;
pub use srst::{exit_code, IMPL_REASON_EXIT};

/// Extension IDs.
pub mod eid {
    pub const LEGACY_PUTCHAR: u64 = 0x01;
    pub const LEGACY_GETCHAR: u64 = 0x02;
    pub const BASE: u64 = 0x10;
    pub const TIME: u64 = 0x5449_4D45;
    pub const IPI: u64 = 0x0073_5049;
    pub const RFENCE: u64 = 0x5246_4E43;
    pub const HSM: u64 = 0x0048_534D;
    pub const SRST: u64 = 0x5352_5354;
    pub const PMU: u64 = pmu::EID_PMU;
    pub const DBCN: u64 = 0x4442_434E;
}

/// What the hart does after a call returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then {
    /// Go on after the `ecall`.
    Return,
    /// Wait for an interrupt (HSM suspend) as after WFI, then go on after the `ecall`
    /// (retentive, `None`) or at this address (non-retentive).
    Suspend(Option<u64>),
    /// The run ends (SRST system_reset, HSM hart_stop).
    Stop(Stop),
}

/// An SBI call's result: the `sbiret`, and what happens next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub ret: SbiRet,
    pub then: Then,
}

impl Reply {
    pub fn ok(value: u64) -> Reply {
        Reply {
            ret: SbiRet::ok(value),
            then: Then::Return,
        }
    }

    pub fn err(e: SbiError) -> Reply {
        Reply {
            ret: SbiRet::err(e),
            then: Then::Return,
        }
    }
}

impl From<Result<u64, SbiError>> for Reply {
    fn from(r: Result<u64, SbiError>) -> Reply {
        Reply {
            ret: r.into(),
            then: Then::Return,
        }
    }
}

/// An extension's handler: `(machine, fid, a0..a5)`.
type Handler = fn(&mut Machine, u64, [u64; 6]) -> Reply;

/// One extension of the built-in SBI.
pub struct Extension {
    pub eid: u64,
    pub name: &'static str,
    /// A legacy (v0.1) extension: the result goes to a0 only, a1 is left alone.
    pub legacy: bool,
    handler: Handler,
}

/// Every extension the built-in SBI implements; `probe_extension` answers from this table.
pub static EXTENSIONS: &[Extension] = &[
    Extension {
        eid: eid::LEGACY_PUTCHAR,
        name: "legacy console_putchar",
        legacy: true,
        handler: legacy::putchar,
    },
    Extension {
        eid: eid::LEGACY_GETCHAR,
        name: "legacy console_getchar",
        legacy: true,
        handler: legacy::getchar,
    },
    Extension {
        eid: eid::BASE,
        name: "base",
        legacy: false,
        handler: base::call,
    },
    Extension {
        eid: eid::TIME,
        name: "time",
        legacy: false,
        handler: time::call,
    },
    Extension {
        eid: eid::IPI,
        name: "ipi",
        legacy: false,
        handler: ipi::call,
    },
    Extension {
        eid: eid::RFENCE,
        name: "rfence",
        legacy: false,
        handler: rfence::call,
    },
    Extension {
        eid: eid::HSM,
        name: "hsm",
        legacy: false,
        handler: hsm::call,
    },
    Extension {
        eid: eid::SRST,
        name: "srst",
        legacy: false,
        handler: srst::call,
    },
    Extension {
        eid: eid::PMU,
        name: "pmu",
        legacy: false,
        handler: pmu_ext::call,
    },
    Extension {
        eid: eid::DBCN,
        name: "dbcn",
        legacy: false,
        handler: dbcn::call,
    },
];

/// The extension with this EID, if the built-in SBI has it.
pub fn extension(eid: u64) -> Option<&'static Extension> {
    EXTENSIONS.iter().find(|e| e.eid == eid)
}

/// The extension's name in the call log: its name, "legacy" for the v0.1 console calls,
/// "unknown" for an EID the built-in SBI does not implement.
fn extension_label(eid: u64) -> &'static str {
    match extension(eid) {
        Some(e) if e.legacy => "legacy",
        Some(e) => e.name,
        None => "unknown",
    }
}

/// A function's name and how many of a0..a5 it takes (what the call log keeps).
pub fn function(eid: u64, fid: u64) -> (&'static str, usize) {
    match (eid, fid) {
        (eid::LEGACY_PUTCHAR, _) => ("console_putchar", 1),
        (eid::LEGACY_GETCHAR, _) => ("console_getchar", 0),
        (eid::BASE, 0) => ("get_spec_version", 0),
        (eid::BASE, 1) => ("get_impl_id", 0),
        (eid::BASE, 2) => ("get_impl_version", 0),
        (eid::BASE, 3) => ("probe_extension", 1),
        (eid::BASE, 4) => ("get_mvendorid", 0),
        (eid::BASE, 5) => ("get_marchid", 0),
        (eid::BASE, 6) => ("get_mimpid", 0),
        (eid::TIME, 0) => ("set_timer", 1),
        (eid::IPI, 0) => ("send_ipi", 2),
        (eid::RFENCE, 0) => ("remote_fence_i", 2),
        (eid::RFENCE, 1) => ("remote_sfence_vma", 4),
        (eid::RFENCE, 2) => ("remote_sfence_vma_asid", 5),
        (eid::RFENCE, 3) => ("remote_hfence_gvma_vmid", 5),
        (eid::RFENCE, 4) => ("remote_hfence_gvma", 4),
        (eid::RFENCE, 5) => ("remote_hfence_vvma_asid", 5),
        (eid::RFENCE, 6) => ("remote_hfence_vvma", 4),
        (eid::HSM, 0) => ("hart_start", 3),
        (eid::HSM, 1) => ("hart_stop", 0),
        (eid::HSM, 2) => ("hart_get_status", 1),
        (eid::HSM, 3) => ("hart_suspend", 3),
        (eid::SRST, 0) => ("system_reset", 2),
        (eid::PMU, 0) => (pmu::sbi::fid_name(fid), 0),
        (eid::PMU, 1 | 5 | 6) => (pmu::sbi::fid_name(fid), 1),
        (eid::PMU, 2) => (pmu::sbi::fid_name(fid), 5),
        (eid::PMU, 3 | 8) => (pmu::sbi::fid_name(fid), 4),
        (eid::PMU, 4 | 7) => (pmu::sbi::fid_name(fid), 3),
        (eid::DBCN, 0) => ("console_write", 3),
        (eid::DBCN, 1) => ("console_read", 3),
        (eid::DBCN, 2) => ("console_write_byte", 1),
        _ => ("unknown", 6),
    }
}

/// The built-in SBI's state.
#[derive(Clone, Debug, Default)]
pub struct SbiState {
    /// The S-mode timer's deadline (mtime value) while it has not fired.
    pub timer: Option<u64>,
    /// The SRST request that ended the run: (reset_type, reset_reason).
    pub reset: Option<(u32, u32)>,
    /// The hart stopped itself (HSM hart_stop).
    pub stopped: bool,
    /// Where the device tree is (a1 at entry) and its length; (0, 0) before boot.
    pub dtb: (u64, u64),
    /// SBI calls served.
    pub calls: u64,
    /// The first calls (up to the PMU configuration's `sbi_log_limit`) with their results.
    pub log: Vec<SbiCallRecord>,
    /// Every call, counted by (EID, FID, error).
    pub summary: BTreeMap<(u64, u64, i64), u64>,
    /// The running hart's HSM state (the others' are parked with them).
    pub hsm: HsmState,
}

/// A hart's state as HSM sees it (SBI 3.0 chapter 9): secondary harts start STOPPED, as
/// with OpenSBI, until a `hart_start` names them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HsmState {
    #[default]
    Started,
    Stopped,
    /// `hart_start` was called: the hart starts at `addr` in S-mode with a1 = `opaque` when
    /// it next runs.
    StartPending {
        addr: u64,
        opaque: u64,
    },
}

/// The built-in SBI's state of a parked hart ([`SbiState`]'s per-hart fields).
#[derive(Clone, Debug, Default)]
pub struct SbiHart {
    pub timer: Option<u64>,
    pub stopped: bool,
    pub hsm: HsmState,
}

impl SbiState {
    /// Exchange the running hart's fields with a parked hart's.
    pub(crate) fn swap_hart(&mut self, h: &mut SbiHart) {
        std::mem::swap(&mut self.timer, &mut h.timer);
        std::mem::swap(&mut self.stopped, &mut h.stopped);
        std::mem::swap(&mut self.hsm, &mut h.hsm);
    }
}

/// What [`Machine::sbi_trap`] did with an exception.
pub(crate) enum SbiTrap {
    /// Not for the SBI (delegated to S-mode, or raised in M-mode): take it as usual.
    NotMine,
    /// Take it as a trap to S-mode (the redirect), whatever medeleg says.
    Redirect,
    /// Served: the instruction counts as executed and the hart goes on as `Then` says.
    Done(Then),
    /// The emulation raised another exception (now in `exc`): take that one.
    Retry,
}

impl Machine {
    /// The built-in SBI's state.
    pub fn sbi(&self) -> &SbiState {
        &self.sbi
    }

    /// The `--pmu-report`: the PMU's counters, and, with the built-in SBI, every SBI call the
    /// program made (all extensions) in place of the PMU crate's log of PMU calls.
    pub fn pmu_report(&self) -> PmuReport {
        let r = self.hart.pmu.report();
        if !self.config.sbi {
            return r;
        }
        let summary = self
            .sbi
            .summary
            .iter()
            .map(|(&(e, f, err), &n)| SbiSummaryRow {
                eid: e,
                extension: extension_label(e),
                fid: f,
                function: function(e, f).0,
                error: err,
                error_name: pmu::sbi::error_name(err),
                calls: n,
            })
            .collect();
        r.with_sbi_log(&self.sbi.log, self.sbi.calls, summary)
    }

    /// Make an SBI call as S-mode software would with `ecall` (a7 = `eid`, a6 = `fid`,
    /// a0..a5 = `args`), without touching the registers or the pc: the call's effects on the
    /// machine happen, and the reply says what the `ecall` would return and do next.
    pub fn sbi_call(&mut self, eid: u64, fid: u64, args: [u64; 6]) -> Reply {
        self.sbi.calls += 1;
        let ext = extension(eid);
        let (function, nargs) = function(eid, fid);
        let label = extension_label(eid);
        tracing::info!(
            target: "hartscope::sbi",
            "call {label}.{function} eid {eid:#x} fid {fid} args [{:#x}, {:#x}, {:#x}, {:#x}, {:#x}, {:#x}]",
            args[0], args[1], args[2], args[3], args[4], args[5]
        );
        let reply = match ext {
            Some(e) => (e.handler)(self, fid, args),
            None => Reply::err(SbiError::NotSupported),
        };
        if self.sbi.log.len() < self.config.pmu.sbi_log_limit {
            self.sbi.log.push(SbiCallRecord {
                seq: self.sbi.calls - 1,
                eid,
                extension: label,
                fid,
                function,
                args: args[..nargs].to_vec(),
                error: reply.ret.error,
                error_name: pmu::sbi::error_name(reply.ret.error),
                value: reply.ret.value,
            });
        }
        *self
            .sbi
            .summary
            .entry((eid, fid, reply.ret.error))
            .or_insert(0) += 1;
        tracing::info!(
            target: "hartscope::sbi",
            "return {label}.{function} error {} ({}) value {:#x}{}",
            reply.ret.error,
            pmu::sbi::error_name(reply.ret.error),
            reply.ret.value,
            match &reply.then {
                Then::Return => "",
                Then::Suspend(_) => ", hart suspended",
                Then::Stop(_) => ", run ends",
            }
        );
        reply
    }

    /// An exception was raised by instruction `d` at `pc` (cause and tval in `exc`): serve it
    /// if it is the SBI's (an exception from S or U that medeleg does not delegate).
    pub(crate) fn sbi_trap<S: Sink>(&mut self, pc: u64, d: &Insn, sink: &mut S) -> SbiTrap {
        let (cause, _) = self.exc;
        let Cause::Exception(e) = cause else {
            return SbiTrap::NotMine;
        };
        let prv = self.hart.prv;
        if prv == Priv::M || self.hart.csr.medeleg >> e.code() & 1 != 0 {
            return SbiTrap::NotMine;
        }
        match e {
            Exception::EcallFromS => self.sbi_ecall(pc, d, sink),
            _ => self.sbi_exception(e, pc, d, sink),
        }
    }

    /// `ecall` from S-mode at `pc`.
    fn sbi_ecall<S: Sink>(&mut self, pc: u64, d: &Insn, sink: &mut S) -> SbiTrap {
        // On hardware this is an exception into M-mode (counted, and the counters see every
        // instruction before it); the ecall itself does not retire.
        self.pmu_sync();
        self.hart.pmu.trap_taken(Priv::S, false);
        let x = |i: usize| self.hart.x[i];
        let (eid, fid) = (x(17), x(16));
        let args = [x(10), x(11), x(12), x(13), x(14), x(15)];
        let legacy = extension(eid).is_some_and(|e| e.legacy);
        let reply = self.sbi_call(eid, fid, args);
        self.set_x(10, reply.ret.error as u64);
        if !legacy {
            self.set_x(11, reply.ret.value);
        }
        if S::DETAIL.records() {
            self.rec.push_write(Reg::X(10), reply.ret.error as u64);
            if !legacy {
                self.rec.push_write(Reg::X(11), reply.ret.value);
            }
        }
        let next = match reply.then {
            Then::Suspend(Some(resume)) => resume,
            _ => pc.wrapping_add(4),
        };
        self.hart.pc = next;
        self.sbi_retired(pc, d, next, sink);
        self.update_hooks();
        self.pmu_after(0);
        SbiTrap::Done(reply.then)
    }

    /// Tell the sink that `d` at `pc` executed as far as S-mode can see (an SBI call, an
    /// emulated access), going on at `next`.
    fn sbi_retired<S: Sink>(&mut self, pc: u64, d: &Insn, next: u64, sink: &mut S) {
        if S::DETAIL.records() {
            self.rec.exception = None;
            self.rec.next_pc = next;
            sink.retire(&self.rec);
        } else if S::DETAIL.runs() {
            sink.run(&Run {
                insns: std::slice::from_ref(d),
                pc,
                next_pc: next,
                prv: self.hart.prv,
                time: self.bus.clint.mtime,
                satp: self.hart.csr.satp,
                end: &Insn::NOT_DECODED,
            });
        }
    }
}
