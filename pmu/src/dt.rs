//! The device-tree `riscv,pmu` node's tables, as OpenSBI's `fdt_pmu` reads them
//! (OpenSBI docs/pmu_support.md), so that OpenSBI running on this hart configures the same
//! events the built-in SBI does:
//!
//! - `riscv,event-to-mhpmevent`: `<event_idx mhpmevent_hi mhpmevent_lo>` per supported
//!   general and cache event. The selector equals the event_idx, so these rows only make that
//!   explicit.
//! - `riscv,event-to-mhpmcounters`: `<first_event_idx last_event_idx counter_bitmap>` ranges.
//!   Every implemented hpm counter counts every supported event; CPU_CYCLES and INSTRUCTIONS
//!   may also use mcycle (bit 0) and minstret (bit 2). No other row may name those two bits.
//! - `riscv,raw-event-to-mhpmcounters`: `<match_hi match_lo mask_hi mask_lo counter_bitmap>`
//!   per supported event (a raw event's data is the mhpmevent selector, hartscope's own events
//!   and the general and cache events' alike), with an all-ones mask and the hpm counters only.

use crate::config::PmuConfig;
use crate::counters::{HPM_FIRST, MCYCLE_IDX, MINSTRET_IDX};
use crate::event::{EVENTS, TYPE_HARTSCOPE};
use serde::Serialize;

/// The three tables of a `riscv,pmu` node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PmuDtTables {
    /// (event_idx, mhpmevent value).
    pub event_to_mhpmevent: Vec<(u32, u64)>,
    /// (first event_idx, last event_idx, counter bitmap).
    pub event_to_mhpmcounters: Vec<(u32, u32, u32)>,
    /// (match, mask, counter bitmap).
    pub raw_event_to_mhpmcounters: Vec<(u64, u64, u32)>,
}

fn split(v: u64) -> [u32; 2] {
    [(v >> 32) as u32, v as u32]
}

impl PmuDtTables {
    pub fn new(cfg: &PmuConfig) -> PmuDtTables {
        let hpm = (((1u64 << cfg.hpm_counters) - 1) << HPM_FIRST) as u32;
        let mut t = PmuDtTables::default();
        for e in EVENTS.iter().filter(|e| e.supported(cfg)) {
            let mut map = hpm;
            match e.selector {
                0x1 => map |= 1 << MCYCLE_IDX,
                0x2 => map |= 1 << MINSTRET_IDX,
                _ => {}
            }
            if hpm != 0 {
                t.raw_event_to_mhpmcounters
                    .push((e.selector, u64::MAX, hpm));
            }
            if map == 0 || e.selector >> 16 == TYPE_HARTSCOPE {
                continue;
            }
            let idx = e.selector as u32;
            t.event_to_mhpmevent.push((idx, e.selector));
            match t.event_to_mhpmcounters.last_mut() {
                Some((_, last, m)) if *last + 1 == idx && *m == map => *last = idx,
                _ => t.event_to_mhpmcounters.push((idx, idx, map)),
            }
        }
        t
    }

    /// `riscv,event-to-mhpmevent` as u32 cells.
    pub fn event_to_mhpmevent_cells(&self) -> Vec<u32> {
        self.event_to_mhpmevent
            .iter()
            .flat_map(|&(idx, v)| {
                let [hi, lo] = split(v);
                [idx, hi, lo]
            })
            .collect()
    }

    /// `riscv,event-to-mhpmcounters` as u32 cells.
    pub fn event_to_mhpmcounters_cells(&self) -> Vec<u32> {
        self.event_to_mhpmcounters
            .iter()
            .flat_map(|&(a, b, m)| [a, b, m])
            .collect()
    }

    /// `riscv,raw-event-to-mhpmcounters` as u32 cells.
    pub fn raw_event_to_mhpmcounters_cells(&self) -> Vec<u32> {
        self.raw_event_to_mhpmcounters
            .iter()
            .flat_map(|&(v, mask, m)| {
                let [vh, vl] = split(v);
                let [mh, ml] = split(mask);
                [vh, vl, mh, ml, m]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_tables() {
        let cfg = PmuConfig {
            hpm_counters: 4,
            ..PmuConfig::default()
        };
        let t = PmuDtTables::new(&cfg);
        // Models off: cycles, instructions, branch instructions, ref cycles.
        assert_eq!(
            t.event_to_mhpmcounters,
            vec![(1, 1, 0x79), (2, 2, 0x7c), (5, 5, 0x78), (0xa, 0xa, 0x78)]
        );
        assert_eq!(t.event_to_mhpmevent_cells()[..6], [1, 0, 1, 2, 0, 2]);
        // Raw events: the four general ones and hartscope's 13, hpm counters only.
        assert_eq!(t.raw_event_to_mhpmcounters.len(), 17);
        assert_eq!(
            t.raw_event_to_mhpmcounters_cells()[..5],
            [0, 0x1, 0xffff_ffff, 0xffff_ffff, 0x78]
        );
        assert!(t
            .raw_event_to_mhpmcounters
            .contains(&(0x20001, u64::MAX, 0x78)));
        // No row but cycles and instructions names a fixed counter; no raw row does.
        for &(a, _, m) in &t.event_to_mhpmcounters {
            if a > 2 {
                assert_eq!(m & 0b111, 0);
            }
        }
        for &(_, _, m) in &t.raw_event_to_mhpmcounters {
            assert_eq!(m & 0b111, 0);
        }
    }

    #[test]
    fn models_on_and_no_hpm_counters() {
        let cfg = PmuConfig::default().with_all_models();
        let t = PmuDtTables::new(&cfg);
        let hpm = 0xffff_fff8;
        assert!(t.event_to_mhpmcounters.contains(&(0x3, 0x6, hpm)));
        assert!(t.event_to_mhpmcounters.contains(&(0x8, 0xa, hpm)));
        assert!(t.event_to_mhpmcounters.contains(&(0x10000, 0x10003, hpm)));
        let none = PmuConfig {
            hpm_counters: 0,
            ..cfg
        };
        let t = PmuDtTables::new(&none);
        assert_eq!(t.event_to_mhpmcounters, vec![(1, 1, 1), (2, 2, 4)]);
        assert!(t.raw_event_to_mhpmcounters.is_empty());
    }
}
