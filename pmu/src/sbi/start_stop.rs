//! FID 3 `sbi_pmu_counter_start` and FID 4 `sbi_pmu_counter_stop`.
//!
//! Order of checks, for both: reserved flag bits and an invalid set give INVALID_PARAM;
//! INIT_SNAPSHOT / TAKE_SNAPSHOT without snapshot memory give NO_SHMEM; nothing has been done
//! then. Otherwise every configured counter of the set is started (stopped); counters that
//! are not configured are skipped, and a set with none configured gives INVALID_PARAM.
//! ALREADY_STARTED / ALREADY_STOPPED when some counter already was, after doing the others.
//!
//! Start: SET_INIT_VALUE writes `initial_value` to every started counter; INIT_SNAPSHOT
//! (without SET_INIT_VALUE, which wins as in OpenSBI and KVM) writes each counter's value
//! from the snapshot memory (`counter_values[i]` for counter base + i). A counter already
//! running keeps its value. Starting an hpm counter clears its OF bit unless LCOFIP is
//! pending (OpenSBI), so that it can interrupt on its next overflow.
//!
//! Stop: RESET frees the counter and zeroes its mhpmevent, also when it was already stopped
//! (Linux stops with RESET counters that overflow handling stopped). TAKE_SNAPSHOT writes the
//! value of every configured counter of the set to `counter_values[i]` and updates
//! `counter_overflow_bitmap`: bit i becomes counter base + i's OF (after a RESET: 0); bits of
//! counters outside the set are kept.

use super::{
    bits, Ctr, SbiError, SbiPmuHost, START_FLAGS, START_FLAG_INIT_SNAPSHOT, START_SET_INIT_VALUE,
    STOP_FLAGS, STOP_FLAG_RESET, STOP_FLAG_TAKE_SNAPSHOT,
};
use crate::counters::{Pmu, HPM_FIRST};
use crate::event::MHPMEVENT_OF;

/// Offsets in the snapshot memory.
pub const SNAPSHOT_OVERFLOW_BITMAP: u64 = 0x0;
pub const SNAPSHOT_COUNTER_VALUES: u64 = 0x8;

impl Pmu {
    pub(crate) fn sbi_counter_start(
        &mut self,
        base: u64,
        mask: u64,
        flags: u64,
        initial_value: u64,
        host: &mut dyn SbiPmuHost,
    ) -> Result<u64, SbiError> {
        if flags & !START_FLAGS != 0 {
            return Err(SbiError::InvalidParam);
        }
        self.validate_set(base, mask)?;
        let from_snapshot =
            flags & START_FLAG_INIT_SNAPSHOT != 0 && flags & START_SET_INIT_VALUE == 0;
        if flags & START_FLAG_INIT_SNAPSHOT != 0 && self.sbi.shmem.is_none() {
            return Err(SbiError::NoShmem);
        }
        let mut any = false;
        let mut already = false;
        for i in bits(mask) {
            let c = self.ctr(base + i as u64);
            if !self.configured(c) {
                continue;
            }
            any = true;
            let init = if flags & START_SET_INIT_VALUE != 0 {
                Some(initial_value)
            } else if from_snapshot {
                let shmem = self.sbi.shmem.ok_or(SbiError::NoShmem)?;
                let mut b = [0u8; 8];
                let addr = shmem + SNAPSHOT_COUNTER_VALUES + 8 * i as u64;
                if !host.read_phys(addr, &mut b) {
                    return Err(SbiError::Failed);
                }
                Some(u64::from_le_bytes(b))
            } else {
                None
            };
            if self.start_one(c, init, host) == Err(SbiError::AlreadyStarted) {
                already = true;
            }
        }
        self.sbi.recompute_fw_live();
        if !any {
            Err(SbiError::InvalidParam)
        } else if already {
            Err(SbiError::AlreadyStarted)
        } else {
            Ok(0)
        }
    }

    /// Start one configured counter, optionally setting its value first.
    pub(crate) fn start_one(
        &mut self,
        c: Ctr,
        init: Option<u64>,
        host: &mut dyn SbiPmuHost,
    ) -> Result<(), SbiError> {
        match c {
            Ctr::Hw(i) => {
                let inh = self.mcountinhibit();
                if inh & (1 << i) == 0 {
                    return Err(SbiError::AlreadyStarted);
                }
                if i >= HPM_FIRST && !host.lcofip_pending() {
                    let e = self.mhpmevent(i);
                    self.write_mhpmevent(i, e & !MHPMEVENT_OF);
                }
                if let Some(v) = init {
                    self.write_counter(i, v);
                }
                self.write_mcountinhibit(inh & !(1 << i));
            }
            Ctr::Fw(j) => {
                let f = &mut self.sbi.fw[j];
                if f.started {
                    return Err(SbiError::AlreadyStarted);
                }
                if let Some(v) = init {
                    f.value = v;
                }
                f.started = true;
            }
            Ctr::Invalid => return Err(SbiError::InvalidParam),
        }
        Ok(())
    }

    pub(crate) fn sbi_counter_stop(
        &mut self,
        base: u64,
        mask: u64,
        flags: u64,
        host: &mut dyn SbiPmuHost,
    ) -> Result<u64, SbiError> {
        if flags & !STOP_FLAGS != 0 {
            return Err(SbiError::InvalidParam);
        }
        self.validate_set(base, mask)?;
        let snapshot = flags & STOP_FLAG_TAKE_SNAPSHOT != 0;
        let shmem = match (snapshot, self.sbi.shmem) {
            (true, None) => return Err(SbiError::NoShmem),
            (_, s) => s,
        };
        let mut any = false;
        let mut already = false;
        let mut values = [None::<u64>; 64];
        let mut overflow = 0u64;
        for i in bits(mask) {
            let c = self.ctr(base + i as u64);
            if !self.configured(c) {
                continue;
            }
            any = true;
            if self.stop_one(c) == Err(SbiError::AlreadyStopped) {
                already = true;
            }
            if snapshot {
                values[i as usize] = Some(match c {
                    Ctr::Hw(h) => self.counter(h),
                    Ctr::Fw(j) => self.sbi.fw[j].value,
                    Ctr::Invalid => 0,
                });
            }
            if flags & STOP_FLAG_RESET != 0 {
                self.reset_one(c);
            }
            if let Ctr::Hw(h) = c {
                if self.mhpmevent(h) & MHPMEVENT_OF != 0 {
                    overflow |= 1 << i;
                }
            }
        }
        self.sbi.recompute_fw_live();
        if let (true, Some(shmem)) = (snapshot, shmem) {
            for (i, v) in values.iter().enumerate() {
                if let Some(v) = v {
                    let addr = shmem + SNAPSHOT_COUNTER_VALUES + 8 * i as u64;
                    if !host.write_phys(addr, &v.to_le_bytes()) {
                        return Err(SbiError::Failed);
                    }
                }
            }
            let mut b = [0u8; 8];
            if !host.read_phys(shmem + SNAPSHOT_OVERFLOW_BITMAP, &mut b) {
                return Err(SbiError::Failed);
            }
            let bitmap = (u64::from_le_bytes(b) & !mask) | overflow;
            if !host.write_phys(shmem + SNAPSHOT_OVERFLOW_BITMAP, &bitmap.to_le_bytes()) {
                return Err(SbiError::Failed);
            }
        }
        if !any {
            Err(SbiError::InvalidParam)
        } else if already {
            Err(SbiError::AlreadyStopped)
        } else {
            Ok(0)
        }
    }

    fn stop_one(&mut self, c: Ctr) -> Result<(), SbiError> {
        match c {
            Ctr::Hw(i) => {
                let inh = self.mcountinhibit();
                if inh & (1 << i) != 0 {
                    return Err(SbiError::AlreadyStopped);
                }
                self.write_mcountinhibit(inh | 1 << i);
            }
            Ctr::Fw(j) => {
                let f = &mut self.sbi.fw[j];
                if !f.started {
                    return Err(SbiError::AlreadyStopped);
                }
                f.started = false;
            }
            Ctr::Invalid => return Err(SbiError::InvalidParam),
        }
        Ok(())
    }

    /// Free a counter (mcycle and minstret keep their fixed event).
    fn reset_one(&mut self, c: Ctr) {
        match c {
            Ctr::Hw(i) if i >= HPM_FIRST => {
                self.sbi.hw[i] = None;
                self.write_mhpmevent(i, 0);
            }
            Ctr::Fw(j) => {
                let f = &mut self.sbi.fw[j];
                f.event = None;
                f.event_data = 0;
                f.started = false;
            }
            _ => {}
        }
    }
}
