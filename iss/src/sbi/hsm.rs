//! Hart State Management extension (EID "HSM", SBI 3.0 chapter 9).
//!
//! Hart 0 starts in S-mode at the entry; the others (`Config::harts`) wait STOPPED, as
//! OpenSBI leaves them, until a `hart_start` names them.
//!
//! | FID | function | here |
//! |---|---|---|
//! | 0 | hart_start(hartid, start_addr, opaque) | no such hart: INVALID_PARAM; `start_addr` not executable RAM for S-mode: INVALID_ADDRESS; a started hart: ALREADY_AVAILABLE; one starting: INVALID_PARAM (OpenSBI's order and answers). A stopped hart starts at the start of its next quantum in S-mode at `start_addr` with a0 = its id, a1 = `opaque`, satp = 0, sstatus.SIE = 0 |
//! | 1 | hart_stop() | the hart stops: with one hart the run ends ([`crate::Stop::WaitForever`]; `SbiState::stopped` tells why); with several it waits STOPPED (the run ends when all harts wait for good) |
//! | 2 | hart_get_status(hartid) | STARTED (0), STOPPED (1) or START_PENDING (2); no such hart: INVALID_PARAM |
//! | 3 | hart_suspend(type, resume_addr, opaque) | below |
//!
//! Suspend types (32 bits; more is INVALID_PARAM): `0x0000_0000` default retentive: the hart
//! waits as in WFI until an interrupt enabled in mie is pending, then the call returns
//! SUCCESS. `0x8000_0000` default non-retentive: `resume_addr` must be executable RAM for
//! S-mode (else INVALID_ADDRESS); the hart waits, then resumes in S-mode at `resume_addr` with
//! a0 = hart id, a1 = `opaque`, satp = 0 and sstatus.SIE = 0 (what the spec requires; other
//! registers keep their values). Reserved and platform-specific types: INVALID_PARAM
//! (platform-specific ones are not implemented). A hart that nothing can wake ends the run as
//! WFI does.

use super::{HsmState, Reply, Then};
use crate::csr::MSTATUS_SIE;
use crate::machine::Machine;
use crate::mmu::Access;
use crate::run::Stop;
use arch::Priv;
use pmu::{SbiError, SbiRet};

const STARTED: u64 = 0;
const STOPPED: u64 = 1;
const START_PENDING: u64 = 2;
const SUSPEND_RETENTIVE: u64 = 0x0000_0000;
const SUSPEND_NON_RETENTIVE: u64 = 0x8000_0000;

pub(super) fn call(m: &mut Machine, fid: u64, a: [u64; 6]) -> Reply {
    let me = m.hart.csr.mhartid;
    let harts = m.config.harts as u64;
    match fid {
        0 => {
            if a[0] >= harts {
                Reply::err(SbiError::InvalidParam)
            } else if !m.sbi_executable(a[1]) {
                Reply::err(SbiError::InvalidAddress)
            } else if a[0] == me {
                Reply::err(SbiError::AlreadyAvailable)
            } else {
                match m.hsm_state(a[0] as usize) {
                    HsmState::Started => Reply::err(SbiError::AlreadyAvailable),
                    HsmState::StartPending { .. } => Reply::err(SbiError::InvalidParam),
                    HsmState::Stopped => {
                        m.set_hsm_state(
                            a[0] as usize,
                            HsmState::StartPending {
                                addr: a[1],
                                opaque: a[2],
                            },
                        );
                        Reply::ok(0)
                    }
                }
            }
        }
        1 if harts > 1 => {
            m.sbi.hsm = HsmState::Stopped;
            Reply {
                ret: SbiRet::ok(0),
                then: Then::Suspend(None),
            }
        }
        1 => {
            m.sbi.stopped = true;
            Reply {
                ret: SbiRet::ok(0),
                then: Then::Stop(Stop::WaitForever { pc: m.hart.pc }),
            }
        }
        2 if a[0] < harts => Reply::ok(match m.hsm_state(a[0] as usize) {
            HsmState::Started => STARTED,
            HsmState::Stopped => STOPPED,
            HsmState::StartPending { .. } => START_PENDING,
        }),
        2 => Reply::err(SbiError::InvalidParam),
        3 => suspend(m, a[0], a[1], a[2]),
        _ => Reply::err(SbiError::NotSupported),
    }
}

fn suspend(m: &mut Machine, ty: u64, resume: u64, opaque: u64) -> Reply {
    let suspended = Reply {
        ret: SbiRet::ok(0),
        then: Then::Suspend(None),
    };
    match ty {
        SUSPEND_RETENTIVE => suspended,
        SUSPEND_NON_RETENTIVE => {
            if !m.sbi_executable(resume) {
                return Reply::err(SbiError::InvalidAddress);
            }
            // The registers are the resume state's: a0 = hart id (the reply's "error"),
            // a1 = opaque (its "value").
            m.hart.csr.satp = 0;
            m.hart.csr.mstatus &= !MSTATUS_SIE;
            m.flush_tlb();
            Reply {
                ret: SbiRet {
                    error: m.hart.csr.mhartid as i64,
                    value: opaque,
                },
                then: Then::Suspend(Some(resume)),
            }
        }
        _ => Reply::err(SbiError::InvalidParam),
    }
}

impl Machine {
    /// Whether S-mode may execute at physical address `pa` (RAM, and PMP allows it).
    pub(super) fn sbi_executable(&self, pa: u64) -> bool {
        pa & 1 == 0
            && self.bus.ram.offset(pa, 2).is_some()
            && self.tlb.pmp_check(pa, 2, Access::Fetch, Priv::S) == Some(true)
    }
}

impl Machine {
    /// Hart `h`'s HSM state.
    pub(crate) fn hsm_state(&self, h: usize) -> HsmState {
        if h == self.cur || h >= self.parked.len() {
            self.sbi.hsm
        } else {
            self.parked[h].sbi.hsm
        }
    }

    fn set_hsm_state(&mut self, h: usize, s: HsmState) {
        if h == self.cur || h >= self.parked.len() {
            self.sbi.hsm = s;
        } else {
            self.parked[h].sbi.hsm = s;
        }
    }

    /// A hart that `hart_start` named starts (at the start of its quantum): in S-mode at
    /// `addr` with a0 = its id, a1 = `opaque`, satp = 0 and sstatus.SIE = 0.
    pub(crate) fn sbi_hart_enter(&mut self, addr: u64, opaque: u64) {
        self.sbi.hsm = HsmState::Started;
        self.sched.waiting = false;
        self.hart.csr.satp = 0;
        self.hart.csr.mstatus &= !MSTATUS_SIE;
        self.hart.x[10] = self.hart.csr.mhartid;
        self.hart.x[11] = opaque;
        self.hart.pc = addr;
        self.set_priv(Priv::S);
        self.flush_tlb();
    }
}
