//! Base extension (EID 0x10, SBI 3.0 chapter 4): versions, implementation identity,
//! probe_extension and the machine identification registers.
//!
//! - `get_spec_version`: 3.0 (`0x0300_0000`).
//! - `get_impl_id`: [`IMPL_ID`]. hartscope is not in the SBI implementation ID registry
//!   (0 BBL, 1 OpenSBI, 2 Xvisor, ... 11 bhyve); it answers an unregistered value far from
//!   the registered ones, so that software does not apply another implementation's quirks
//!   (Linux keys some on OpenSBI's 1 or KVM's 3).
//! - `get_impl_version`: hartscope's version as `major << 16 | minor`, the encoding OpenSBI
//!   uses.
//! - `probe_extension`: 1 for every extension in [`super::EXTENSIONS`], else 0.
//! - `get_mvendorid` / `get_marchid` / `get_mimpid`: the CSRs (all 0 here, as on Spike).
//!
//! Other FIDs: NOT_SUPPORTED.

use super::Reply;
use crate::csr::{MARCHID, MIMPID, MVENDORID};
use crate::machine::Machine;
use pmu::SbiError;

/// SBI specification version 3.0: major in bits 30:24, minor in 23:0.
pub const SPEC_VERSION: u64 = 3 << 24;
/// hartscope's SBI implementation ID ("hs"), outside the registry.
pub const IMPL_ID: u64 = 0x6873;

pub(super) fn call(m: &mut Machine, fid: u64, a: [u64; 6]) -> Reply {
    match fid {
        0 => Reply::ok(SPEC_VERSION),
        1 => Reply::ok(IMPL_ID),
        2 => Reply::ok(impl_version()),
        3 => Reply::ok(super::extension(a[0]).is_some() as u64),
        4 => Reply::ok(m.csr_read(MVENDORID).unwrap_or(0)),
        5 => Reply::ok(m.csr_read(MARCHID).unwrap_or(0)),
        6 => Reply::ok(m.csr_read(MIMPID).unwrap_or(0)),
        _ => Reply::err(SbiError::NotSupported),
    }
}

/// The crate version as `major << 16 | minor`.
pub fn impl_version() -> u64 {
    let mut v = env!("CARGO_PKG_VERSION")
        .split('.')
        .map(|p| p.parse::<u64>().unwrap_or(0));
    let major = v.next().unwrap_or(0);
    let minor = v.next().unwrap_or(0);
    major << 16 | (minor & 0xffff)
}
