//! FID 7, `sbi_pmu_snapshot_set_shmem`.
//!
//! With `PmuConfig::sbi_snapshot` false: NOT_SUPPORTED, as OpenSBI (then INIT_SNAPSHOT and
//! TAKE_SNAPSHOT give NO_SHMEM).
//!
//! Checks in order: `flags` not zero → INVALID_PARAM; both addresses all ones → snapshot
//! memory disabled, SUCCESS; `shmem_phys_lo` not 4 KiB aligned → INVALID_PARAM;
//! `shmem_phys_hi` not zero (beyond RV64's physical addresses) or the page not readable and
//! writable by S-mode → INVALID_ADDRESS (SBI spec, "Shared memory physical address range
//! parameter"). The memory is not touched here: the SBI accesses it only in counter_start
//! with INIT_SNAPSHOT and counter_stop with TAKE_SNAPSHOT.

use super::{SbiError, SbiPmuHost};
use crate::counters::Pmu;

/// The snapshot memory's size.
pub const SNAPSHOT_SIZE: u64 = 4096;

impl Pmu {
    pub(crate) fn sbi_snapshot_set_shmem(
        &mut self,
        lo: u64,
        hi: u64,
        flags: u64,
        host: &mut dyn SbiPmuHost,
    ) -> Result<u64, SbiError> {
        if !self.cfg.sbi_snapshot {
            return Err(SbiError::NotSupported);
        }
        if flags != 0 {
            return Err(SbiError::InvalidParam);
        }
        if lo == u64::MAX && hi == u64::MAX {
            self.sbi.shmem = None;
            return Ok(0);
        }
        if lo & (SNAPSHOT_SIZE - 1) != 0 {
            return Err(SbiError::InvalidParam);
        }
        if hi != 0 || lo.checked_add(SNAPSHOT_SIZE).is_none() {
            return Err(SbiError::InvalidAddress);
        }
        if !host.accessible(lo, SNAPSHOT_SIZE, true) {
            return Err(SbiError::InvalidAddress);
        }
        self.sbi.shmem = Some(lo);
        Ok(0)
    }

    /// The snapshot memory's address, if set.
    pub fn sbi_snapshot_shmem(&self) -> Option<u64> {
        self.sbi.shmem
    }
}
