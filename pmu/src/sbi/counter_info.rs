//! FID 1, `sbi_pmu_counter_get_info` (FID 0, `num_counters`, is `Pmu::sbi_num_counters`).
//!
//! counter_info: CSR in bits 11:0, width − 1 in bits 17:12, type in bit XLEN−1 (1: firmware).
//! Hardware counters report their user CSR 0xC00 + n and their width (mcycle and minstret 64
//! bits, hpm counters the configured width), as Linux's driver expects. Counter 1 (`time`)
//! and indices past the last counter are invalid. Firmware counters are 64 bits wide and
//! report CSR 0.

use super::{Ctr, SbiError};
use crate::counters::{Pmu, HPM_FIRST};

/// counter_info.type: firmware counter.
pub const COUNTER_INFO_FW: u64 = 1 << 63;

impl Pmu {
    pub(crate) fn sbi_counter_get_info(&self, cidx: u64) -> Result<u64, SbiError> {
        match self.ctr(cidx) {
            Ctr::Hw(i) => {
                let width = if i < HPM_FIRST {
                    64
                } else {
                    self.cfg.hpm_width as u64
                };
                Ok((0xc00 + i as u64) | (width - 1) << 12)
            }
            Ctr::Fw(_) => Ok(COUNTER_INFO_FW | 63 << 12),
            Ctr::Invalid => Err(SbiError::InvalidParam),
        }
    }
}
