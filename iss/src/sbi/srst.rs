//! System Reset extension (EID "SRST", SBI 3.0 chapter 10): `system_reset(reset_type,
//! reset_reason)` (FID 0) ends the run. hartscope models neither power nor reboots: a
//! shutdown (0), a cold reboot (1) and a warm reboot (2) all end the run, and the reason
//! becomes the exit status ([`exit_code`]):
//!
//! | reset_reason | exit status |
//! |---|---|
//! | 0 no reason | 0 |
//! | 1 system failure | 1 |
//! | `0xE000_0000 + n` (SBI implementation specific: hartscope's "exit with code n", n < 2^28) | n (the command line reports it modulo 256, as HTIF exit codes) |
//!
//! Both arguments are 32-bit values; like OpenSBI, a value of 2^32 - 1 or more is
//! INVALID_PARAM. Other reset types (reserved, platform-specific) and other reasons
//! (reserved, vendor or platform-specific) are INVALID_PARAM: the spec's code for reserved or
//! unimplemented platform-specific values. Other FIDs: NOT_SUPPORTED.

use super::{Reply, Then};
use crate::machine::Machine;
use crate::run::Stop;
use pmu::{SbiError, SbiRet};

/// The first of hartscope's implementation-specific reset reasons: `IMPL_REASON_EXIT + n`
/// ends the run with exit status `n`.
pub const IMPL_REASON_EXIT: u32 = 0xE000_0000;

/// The exit status for a reset reason, None for a reason the SBI rejects.
pub fn exit_code(reason: u32) -> Option<u64> {
    match reason {
        0 | 1 => Some(reason as u64),
        r if (IMPL_REASON_EXIT..=0xEFFF_FFFF).contains(&r) => Some((r - IMPL_REASON_EXIT) as u64),
        _ => None,
    }
}

pub(super) fn call(m: &mut Machine, fid: u64, a: [u64; 6]) -> Reply {
    if fid != 0 {
        return Reply::err(SbiError::NotSupported);
    }
    let (ty, reason) = (a[0], a[1]);
    if ty >= u32::MAX as u64 || reason >= u32::MAX as u64 || ty > 2 {
        return Reply::err(SbiError::InvalidParam);
    }
    let Some(code) = exit_code(reason as u32) else {
        return Reply::err(SbiError::InvalidParam);
    };
    m.sbi.reset = Some((ty as u32, reason as u32));
    Reply {
        ret: SbiRet::ok(0),
        then: Then::Stop(Stop::Exit(code)),
    }
}
