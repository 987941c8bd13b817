//! FID 2, `sbi_pmu_counter_config_matching`.
//!
//! Order of checks: reserved flag bits (8..XLEN-1) and an invalid counter set give
//! INVALID_PARAM; an event this PMU does not support (unknown type or code, a reserved
//! `event_idx` bit, a raw selector mhpmevent does not take, a model that is off) gives
//! NOT_SUPPORTED, as does a set in which no counter can take the event.
//!
//! Matching (without SKIP_MATCH), lowest index first:
//! - a firmware event takes a free firmware counter;
//! - a hardware event takes a free, stopped hpm counter (one with no event configured and its
//!   mcountinhibit bit set); CPU_CYCLES and INSTRUCTIONS fall back to mcycle / minstret when
//!   the set has no such hpm counter, whether or not the fixed counter runs (OpenSBI's rule:
//!   prefer a programmable counter, which can sample). Raw events (whatever their selector)
//!   take hpm counters only, as OpenSBI's raw-event table gives them.
//!
//! With SKIP_MATCH the first counter of the set is used unconditionally (the spec's words;
//! OpenSBI also requires it to be configured already), if it can count the event at all.
//! An hpm counter is then reprogrammed; one that is running keeps its OF bit.
//!
//! Configuring an hpm counter writes mhpmevent = selector | OF | MINH | UINH (SET_UINH) |
//! SINH (SET_SINH). MINH is always set (OpenSBI); SET_MINH changes nothing then. SET_VUINH
//! and SET_VSINH are hints for modes that do not exist here and are ignored. mcycle and
//! minstret cannot filter by mode (no Smcntrpmf): their flags are ignored. Firmware counters
//! ignore the inhibit flags. CLEAR_VALUE zeroes the counter; AUTO_START starts it (a fixed
//! counter already running stays so).

use super::{
    bits, Ctr, FwCounter, SbiError, SbiEvent, SbiPmuHost, Target, CFG_FLAGS, CFG_FLAG_AUTO_START,
    CFG_FLAG_CLEAR_VALUE, CFG_FLAG_SET_SINH, CFG_FLAG_SET_UINH, CFG_FLAG_SKIP_MATCH,
};
use crate::counters::{Pmu, HPM_FIRST, MCYCLE_IDX, MINSTRET_IDX};
use crate::event::{MHPMEVENT_MINH, MHPMEVENT_OF, MHPMEVENT_SINH, MHPMEVENT_UINH};

impl Pmu {
    pub(crate) fn sbi_counter_config_matching(
        &mut self,
        base: u64,
        mask: u64,
        flags: u64,
        event_idx: u64,
        event_data: u64,
        host: &mut dyn SbiPmuHost,
    ) -> Result<u64, SbiError> {
        if flags & !CFG_FLAGS != 0 {
            return Err(SbiError::InvalidParam);
        }
        self.validate_set(base, mask)?;
        let target = self
            .resolve_event(event_idx, event_data)
            .ok_or(SbiError::NotSupported)?;
        let cidx = if flags & CFG_FLAG_SKIP_MATCH != 0 {
            let c = base + mask.trailing_zeros() as u64;
            if !self.can_take(self.ctr(c), target) {
                return Err(SbiError::NotSupported);
            }
            c
        } else {
            self.find_counter(base, mask, target)
                .ok_or(SbiError::NotSupported)?
        };
        let ev = SbiEvent {
            event_idx,
            event_data,
        };
        match self.ctr(cidx) {
            Ctr::Hw(i) if i >= HPM_FIRST => {
                let Target::Hw { sel, .. } = target else {
                    return Err(SbiError::NotSupported);
                };
                let running = self.mcountinhibit() & (1 << i) == 0;
                let of = if running {
                    self.mhpmevent(i) & MHPMEVENT_OF
                } else {
                    MHPMEVENT_OF
                };
                let mut v = sel | of | MHPMEVENT_MINH;
                if flags & CFG_FLAG_SET_UINH != 0 {
                    v |= MHPMEVENT_UINH;
                }
                if flags & CFG_FLAG_SET_SINH != 0 {
                    v |= MHPMEVENT_SINH;
                }
                self.write_mhpmevent(i, v);
                self.sbi.hw[i] = Some(ev);
            }
            Ctr::Hw(_) => {}
            Ctr::Fw(j) => {
                let Target::Fw(code) = target else {
                    return Err(SbiError::NotSupported);
                };
                let c = &mut self.sbi.fw[j];
                *c = FwCounter {
                    event: Some(code),
                    event_data,
                    ..*c
                };
            }
            Ctr::Invalid => return Err(SbiError::InvalidParam),
        }
        if flags & CFG_FLAG_CLEAR_VALUE != 0 {
            match self.ctr(cidx) {
                Ctr::Hw(i) => self.write_counter(i, 0),
                Ctr::Fw(j) => self.sbi.fw[j].value = 0,
                Ctr::Invalid => {}
            }
        }
        if flags & CFG_FLAG_AUTO_START != 0 {
            // An already running (fixed) counter simply keeps running.
            let _ = self.start_one(self.ctr(cidx), None, host);
        }
        self.sbi.recompute_fw_live();
        Ok(cidx)
    }

    /// Whether counter `c` can be given `target` at all (SKIP_MATCH).
    fn can_take(&self, c: Ctr, target: Target) -> bool {
        match (c, target) {
            (Ctr::Hw(i), Target::Hw { sel, fixed }) => {
                (fixed || i >= HPM_FIRST) && self.hw_can_count(i, sel)
            }
            (Ctr::Fw(_), Target::Fw(_)) => true,
            _ => false,
        }
    }

    fn find_counter(&self, base: u64, mask: u64, target: Target) -> Option<u64> {
        let set = || bits(mask).map(move |i| base + i as u64);
        match target {
            Target::Fw(_) => set().find(|&c| match self.ctr(c) {
                Ctr::Fw(j) => self.sbi.fw[j].event.is_none() && !self.sbi.fw[j].started,
                _ => false,
            }),
            Target::Hw { sel, fixed } => set()
                .find(|&c| match self.ctr(c) {
                    Ctr::Hw(i) if i >= HPM_FIRST => {
                        self.sbi.hw[i].is_none() && self.mcountinhibit() & (1 << i) != 0
                    }
                    _ => false,
                })
                .or_else(|| {
                    if !fixed {
                        return None;
                    }
                    let fixed = match sel {
                        0x1 => MCYCLE_IDX,
                        0x2 => MINSTRET_IDX,
                        _ => return None,
                    } as u64;
                    set().find(|&c| c == fixed)
                }),
        }
    }
}
