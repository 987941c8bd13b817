//! IPI extension (EID "sPI", SBI 3.0 chapter 7): `send_ipi` (FID 0).
//!
//! The hart set is `hart_mask` relative to `hart_mask_base`, or every hart when the base is
//! all ones. As OpenSBI: a set naming a hart that does not exist (any but this one) is
//! INVALID_PARAM; an empty set is SUCCESS and does nothing. An IPI to this hart sets SSIP and
//! counts FW_IPI_SENT and FW_IPI_RECEIVED. Other FIDs: NOT_SUPPORTED.

use super::Reply;
use crate::csr::MIP_SSIP;
use crate::machine::Machine;
use pmu::{FwEvent, SbiError};

pub(super) fn call(m: &mut Machine, fid: u64, a: [u64; 6]) -> Reply {
    match fid {
        0 => match m.sbi_hart_set(a[0], a[1]) {
            Err(e) => Reply::err(e),
            Ok(false) => Reply::ok(0),
            Ok(true) => {
                m.hart.pmu.fw_event(FwEvent::IpiSent);
                m.hart.pmu.fw_event(FwEvent::IpiReceived);
                m.hart.csr.mip |= MIP_SSIP;
                Reply::ok(0)
            }
        },
        _ => Reply::err(SbiError::NotSupported),
    }
}

impl Machine {
    /// Check a (hart_mask, hart_mask_base) set: whether it names this hart, or INVALID_PARAM
    /// when it names a hart that does not exist.
    pub(super) fn sbi_hart_set(&self, mask: u64, base: u64) -> Result<bool, SbiError> {
        if base == u64::MAX {
            return Ok(true);
        }
        let me = self.hart.csr.mhartid;
        let mut named = false;
        let mut bits = mask;
        while bits != 0 {
            let i = bits.trailing_zeros() as u64;
            bits &= bits - 1;
            match base.checked_add(i) {
                Some(h) if h == me => named = true,
                _ => return Err(SbiError::InvalidParam),
            }
        }
        Ok(named)
    }
}
