//! FID 8, `sbi_pmu_event_get_info`.
//!
//! Checks in order: `flags` not zero, `shmem_phys_lo` not 16-byte aligned, `num_entries` zero
//! (as OpenSBI and KVM) or too large to address → INVALID_PARAM; `shmem_phys_hi` not zero or
//! the entries not readable and writable by S-mode → INVALID_ADDRESS; a reserved bit (31:20)
//! set in any entry's `event_idx` word → INVALID_PARAM, with nothing written. Then each
//! entry's `output` word (the whole 32 bits) becomes 1 if some counter can count the event
//! (hardware, cache, raw and firmware events alike: what config_matching would accept on a
//! set of every counter, free or not), else 0.
//!
//! Entry layout (16 bytes): word 0 event_idx, word 1 output, words 2-3 event_data.

use super::{SbiError, SbiPmuHost};
use crate::counters::Pmu;

impl Pmu {
    pub(crate) fn sbi_event_get_info(
        &mut self,
        lo: u64,
        hi: u64,
        num: u64,
        flags: u64,
        host: &mut dyn SbiPmuHost,
    ) -> Result<u64, SbiError> {
        if flags != 0 || lo & 0xf != 0 || num == 0 {
            return Err(SbiError::InvalidParam);
        }
        let size = num.checked_mul(16).ok_or(SbiError::InvalidParam)?;
        if hi != 0 || lo.checked_add(size).is_none() || !host.accessible(lo, size, true) {
            return Err(SbiError::InvalidAddress);
        }
        let mut outputs = Vec::new();
        for k in 0..num {
            let mut e = [0u8; 16];
            if !host.read_phys(lo + 16 * k, &mut e) {
                return Err(SbiError::Failed);
            }
            let idx = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
            let data = u64::from_le_bytes([e[8], e[9], e[10], e[11], e[12], e[13], e[14], e[15]]);
            if idx >> 20 != 0 {
                return Err(SbiError::InvalidParam);
            }
            let ok = self
                .resolve_event(idx as u64, data)
                .is_some_and(|t| self.target_countable(t));
            outputs.push(ok as u32);
        }
        for (k, out) in outputs.into_iter().enumerate() {
            if !host.write_phys(lo + 16 * k as u64 + 4, &out.to_le_bytes()) {
                return Err(SbiError::Failed);
            }
        }
        Ok(0)
    }
}
