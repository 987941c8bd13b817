//! Firmware events and counters: FID 5 `sbi_pmu_counter_fw_read`, FID 6
//! `sbi_pmu_counter_fw_read_hi`, and [`Pmu::fw_event`], which the hart's SBI calls when it
//! sees a firmware event.
//!
//! fw_read and fw_read_hi need a firmware counter configured for an event (INVALID_PARAM for
//! a hardware counter, the hole, an index past the last, or a free firmware counter). On RV64
//! fw_read_hi returns 0 after the same checks (OpenSBI returns 0 without checking; the spec's
//! error table applies). A firmware event counts in every started counter configured for it.

use super::{Ctr, SbiError};
use crate::counters::Pmu;
use serde::Serialize;

/// The SBI firmware events (event_idx type 15), codes 0..=21.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[repr(u16)]
pub enum FwEvent {
    MisalignedLoad = 0,
    MisalignedStore = 1,
    AccessLoad = 2,
    AccessStore = 3,
    IllegalInsn = 4,
    SetTimer = 5,
    IpiSent = 6,
    IpiReceived = 7,
    FenceISent = 8,
    FenceIReceived = 9,
    SfenceVmaSent = 10,
    SfenceVmaReceived = 11,
    SfenceVmaAsidSent = 12,
    SfenceVmaAsidReceived = 13,
    HfenceGvmaSent = 14,
    HfenceGvmaReceived = 15,
    HfenceGvmaVmidSent = 16,
    HfenceGvmaVmidReceived = 17,
    HfenceVvmaSent = 18,
    HfenceVvmaReceived = 19,
    HfenceVvmaAsidSent = 20,
    HfenceVvmaAsidReceived = 21,
}

impl FwEvent {
    pub const ALL: [FwEvent; 22] = {
        use FwEvent::*;
        [
            MisalignedLoad,
            MisalignedStore,
            AccessLoad,
            AccessStore,
            IllegalInsn,
            SetTimer,
            IpiSent,
            IpiReceived,
            FenceISent,
            FenceIReceived,
            SfenceVmaSent,
            SfenceVmaReceived,
            SfenceVmaAsidSent,
            SfenceVmaAsidReceived,
            HfenceGvmaSent,
            HfenceGvmaReceived,
            HfenceGvmaVmidSent,
            HfenceGvmaVmidReceived,
            HfenceVvmaSent,
            HfenceVvmaReceived,
            HfenceVvmaAsidSent,
            HfenceVvmaAsidReceived,
        ]
    };

    /// A standard firmware event code (reserved 22..=255, implementation-specific
    /// 256..=65534 and platform 65535 are not supported).
    pub fn from_code(code: u16) -> Option<FwEvent> {
        FwEvent::ALL.get(code as usize).copied()
    }

    pub fn name(self) -> &'static str {
        use FwEvent::*;
        match self {
            MisalignedLoad => "FW_MISALIGNED_LOAD",
            MisalignedStore => "FW_MISALIGNED_STORE",
            AccessLoad => "FW_ACCESS_LOAD",
            AccessStore => "FW_ACCESS_STORE",
            IllegalInsn => "FW_ILLEGAL_INSN",
            SetTimer => "FW_SET_TIMER",
            IpiSent => "FW_IPI_SENT",
            IpiReceived => "FW_IPI_RECEIVED",
            FenceISent => "FW_FENCE_I_SENT",
            FenceIReceived => "FW_FENCE_I_RECEIVED",
            SfenceVmaSent => "FW_SFENCE_VMA_SENT",
            SfenceVmaReceived => "FW_SFENCE_VMA_RECEIVED",
            SfenceVmaAsidSent => "FW_SFENCE_VMA_ASID_SENT",
            SfenceVmaAsidReceived => "FW_SFENCE_VMA_ASID_RECEIVED",
            HfenceGvmaSent => "FW_HFENCE_GVMA_SENT",
            HfenceGvmaReceived => "FW_HFENCE_GVMA_RECEIVED",
            HfenceGvmaVmidSent => "FW_HFENCE_GVMA_VMID_SENT",
            HfenceGvmaVmidReceived => "FW_HFENCE_GVMA_VMID_RECEIVED",
            HfenceVvmaSent => "FW_HFENCE_VVMA_SENT",
            HfenceVvmaReceived => "FW_HFENCE_VVMA_RECEIVED",
            HfenceVvmaAsidSent => "FW_HFENCE_VVMA_ASID_SENT",
            HfenceVvmaAsidReceived => "FW_HFENCE_VVMA_ASID_RECEIVED",
        }
    }
}

impl Pmu {
    /// The built-in SBI saw firmware event `e`: every started firmware counter configured for
    /// it counts one.
    #[inline]
    pub fn fw_event(&mut self, e: FwEvent) {
        let code = e as u16;
        if self.sbi.fw_live & (1 << code) == 0 {
            return;
        }
        for c in self.sbi.fw.iter_mut() {
            if c.started && c.event == Some(code) {
                c.value = c.value.wrapping_add(1);
            }
        }
    }

    fn fw_counter(&self, cidx: u64) -> Result<usize, SbiError> {
        match self.ctr(cidx) {
            Ctr::Fw(j) if self.sbi.fw[j].event.is_some() => Ok(j),
            _ => Err(SbiError::InvalidParam),
        }
    }

    pub(crate) fn sbi_counter_fw_read(&self, cidx: u64) -> Result<u64, SbiError> {
        self.fw_counter(cidx).map(|j| self.sbi.fw[j].value)
    }

    pub(crate) fn sbi_counter_fw_read_hi(&self, cidx: u64) -> Result<u64, SbiError> {
        self.fw_counter(cidx).map(|_| 0)
    }
}
