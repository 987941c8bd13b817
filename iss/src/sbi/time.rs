//! Timer extension (EID "TIME", SBI 3.0 chapter 6): `set_timer` (FID 0).
//!
//! As OpenSBI does on a hart without Sstc: the call clears STIP, counts FW_SET_TIMER and arms
//! the deadline; STIP is set when mtime reaches it (at once if it already has) and stays set
//! until the next `set_timer`. A deadline of all ones never fires in practice (Linux's way of
//! stopping the timer). The hart's M-mode timer (mtimecmp, MTIP) is not used: no M-mode
//! interrupt is ever enabled. With Sstc and menvcfg.STCE (which the boot sets, as OpenSBI
//! does), the call writes stimecmp instead, as OpenSBI's `sbi_timer_event_start` does: STIP
//! then follows `time >= stimecmp`. Other FIDs: NOT_SUPPORTED.

use super::Reply;
use crate::csr::{MENVCFG_STCE, MIP_STIP};
use crate::machine::Machine;
use pmu::{FwEvent, SbiError};

pub(super) fn call(m: &mut Machine, fid: u64, a: [u64; 6]) -> Reply {
    match fid {
        0 => {
            m.hart.pmu.fw_event(FwEvent::SetTimer);
            if m.config.isa.sstc && m.hart.csr.menvcfg & MENVCFG_STCE != 0 {
                m.hart.csr.stimecmp = a[0];
                m.sbi.timer = None;
                m.sstc_sync();
                return Reply::ok(0);
            }
            m.hart.csr.mip &= !MIP_STIP;
            m.sbi.timer = Some(a[0]);
            m.sbi_timer_check();
            Reply::ok(0)
        }
        _ => Reply::err(SbiError::NotSupported),
    }
}

impl Machine {
    /// mtime may have reached the S-mode timer's deadline: raise STIP.
    pub(crate) fn sbi_timer_check(&mut self) {
        if let Some(t) = self.sbi.timer {
            if self.bus.clint.mtime >= t {
                self.hart.csr.mip |= MIP_STIP;
                self.sbi.timer = None;
            }
        }
    }

    /// The mtime at which a hart waiting in WFI is woken by the S-mode timer, if it is armed
    /// and STIE is set (WFI wakes on interrupts enabled in mie).
    pub(crate) fn sbi_timer_wake(&self) -> Option<u64> {
        if !self.config.sbi || self.hart.csr.mie & MIP_STIP == 0 {
            return None;
        }
        self.sbi.timer
    }
}
