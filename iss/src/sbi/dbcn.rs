//! Debug Console extension (EID "DBCN", SBI 3.0 chapter 12), on the console the UART
//! transmits to and the bytes the UART's receiver holds (`--uart-input`).
//!
//! | FID | function | here |
//! |---|---|---|
//! | 0 | console_write(num_bytes, base_addr_lo, base_addr_hi) | writes the bytes; value = num_bytes |
//! | 1 | console_read(num_bytes, base_addr_lo, base_addr_hi) | moves up to num_bytes received bytes to memory; value = how many (0 when none is waiting) |
//! | 2 | console_write_byte(byte) | writes the low byte |
//!
//! The buffer must be RAM that S-mode may read and write (PMP), else INVALID_PARAM, as
//! OpenSBI checks it; a non-zero `base_addr_hi` is INVALID_PARAM too (the spec's code for memory
//! that does not meet the requirements; OpenSBI answers FAILED). `num_bytes = 0` is SUCCESS
//! with value 0 and touches nothing. Other FIDs: NOT_SUPPORTED.

use super::Reply;
use crate::machine::Machine;
use crate::mmu::Access;
use arch::Priv;
use pmu::SbiError;

pub(super) fn call(m: &mut Machine, fid: u64, a: [u64; 6]) -> Reply {
    let (n, lo, hi) = (a[0], a[1], a[2]);
    match fid {
        0 | 1 => {
            if hi != 0 {
                return Reply::err(SbiError::InvalidParam);
            }
            if n == 0 {
                return Reply::ok(0);
            }
            if !m.sbi_s_memory(lo, n, true) {
                return Reply::err(SbiError::InvalidParam);
            }
            let Some(off) = m.bus.ram.offset(lo, n) else {
                return Reply::err(SbiError::InvalidParam);
            };
            if fid == 0 {
                let bytes = m.bus.ram.bytes(off, n as usize).to_vec();
                m.bus.console.write_bytes(&bytes);
                Reply::ok(n)
            } else {
                let got = m.bus.uart.input.take(n as usize);
                let k = got.len();
                m.bus.ram.bytes_mut(off, k).copy_from_slice(&got);
                if k > 0 {
                    m.code_written(lo, k as u64);
                }
                Reply::ok(k as u64)
            }
        }
        2 => {
            m.bus.console.write_bytes(&[a[0] as u8]);
            Reply::ok(0)
        }
        _ => Reply::err(SbiError::NotSupported),
    }
}

impl Machine {
    /// Whether S-mode may read (and, with `write`, write) every byte of physical
    /// `[pa, pa + len)`: RAM, allowed by PMP. `len` is at least 1.
    pub(super) fn sbi_s_memory(&self, pa: u64, len: u64, write: bool) -> bool {
        self.bus.ram.offset(pa, len).is_some()
            && self.tlb.pmp_check(pa, len, Access::Load, Priv::S) == Some(true)
            && (!write || self.tlb.pmp_check(pa, len, Access::Store, Priv::S) == Some(true))
    }
}
