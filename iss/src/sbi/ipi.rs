//! IPI extension (EID "sPI", SBI 3.0 chapter 7): `send_ipi` (FID 0).
//!
//! The hart set is `hart_mask` relative to `hart_mask_base`, or every hart when the base is
//! all ones. As OpenSBI: a set naming a hart that does not exist is INVALID_PARAM; an empty
//! set is SUCCESS and does nothing. An IPI sets SSIP in each target's mip (as OpenSBI does
//! from its own MSIP handler) and counts FW_IPI_SENT on the caller and FW_IPI_RECEIVED on the
//! target, per target. Other FIDs: NOT_SUPPORTED.

use super::Reply;
use crate::csr::MIP_SSIP;
use crate::machine::Machine;
use pmu::{FwEvent, SbiError};

pub(super) fn call(m: &mut Machine, fid: u64, a: [u64; 6]) -> Reply {
    match fid {
        0 => match m.sbi_hart_set(a[0], a[1]) {
            Err(e) => Reply::err(e),
            Ok(set) => {
                for h in harts_in(set) {
                    m.hart.pmu.fw_event(FwEvent::IpiSent);
                    m.with_hart(h, |t| {
                        t.pmu.fw_event(FwEvent::IpiReceived);
                        t.csr.mip |= MIP_SSIP;
                    });
                }
                Reply::ok(0)
            }
        },
        _ => Reply::err(SbiError::NotSupported),
    }
}

impl Machine {
    /// Check a (hart_mask, hart_mask_base) set: the harts it names (a bit per hart id), or
    /// INVALID_PARAM when it names a hart that does not exist.
    pub(super) fn sbi_hart_set(&self, mask: u64, base: u64) -> Result<u64, SbiError> {
        let harts = self.config.harts as u64;
        let all = if harts >= 64 {
            u64::MAX
        } else {
            (1 << harts) - 1
        };
        if base == u64::MAX {
            return Ok(all);
        }
        let mut set = 0;
        let mut bits = mask;
        while bits != 0 {
            let i = bits.trailing_zeros() as u64;
            bits &= bits - 1;
            match base.checked_add(i) {
                Some(h) if h < harts => set |= 1 << h,
                _ => return Err(SbiError::InvalidParam),
            }
        }
        Ok(set)
    }
}

/// The hart ids in a set of [`Machine::sbi_hart_set`].
pub(super) fn harts_in(set: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |h| set >> h & 1 != 0)
}
