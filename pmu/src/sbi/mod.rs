//! The SBI PMU extension (EID 0x504D55, FIDs 0..=8): the logic of a built-in SBI serving
//! S-mode, acting on the hart-visible counters as an M-mode SBI would through mcountinhibit
//! and mhpmevent.
//!
//! Behaviour follows OpenSBI (lib/sbi/sbi_pmu.c) where OpenSBI follows the SBI spec, and the
//! spec where it does not (docs/pmu.md lists each case). In short:
//!
//! - Logical counters: 0 cycle, 1 time (a hole: INVALID_PARAM everywhere), 2 instret,
//!   3..3+n the implemented hpm counters, then [`FW_COUNTERS`] firmware counters.
//! - A counter set (`counter_idx_base`, `counter_idx_mask`) is invalid, INVALID_PARAM with
//!   nothing done, when the mask is empty or names the hole or a counter past the last.
//! - Reserved flag bits give INVALID_PARAM (OpenSBI does not check).
//! - Configuring an hpm counter writes mhpmevent = selector | OF | MINH | SINH/UINH from the
//!   flags (OF set: no overflow interrupt until started; MINH always, as OpenSBI);
//!   starting clears its mcountinhibit bit and, unless LCOFIP is pending, its OF bit;
//!   stopping sets the mcountinhibit bit; RESET also zeroes mhpmevent and frees the counter,
//!   even when the counter was already stopped (ALREADY_STOPPED is still returned).
//! - Start and stop skip counters of the set that are not configured; a set with none
//!   configured is INVALID_PARAM. Every configured counter is processed even when one was
//!   already started / stopped; the call then returns ALREADY_STARTED / ALREADY_STOPPED.

mod config_matching;
mod counter_info;
mod event_info;
mod fw;
mod snapshot;
mod start_stop;

pub use fw::FwEvent;

use crate::config::PmuConfig;
use crate::counters::{Pmu, HPM_FIRST, MCYCLE_IDX, MINSTRET_IDX, TIME_IDX};
use crate::event::{self, TYPE_CACHE, TYPE_GENERAL};
use serde::Serialize;
use std::collections::BTreeMap;

/// The PMU extension's ID ("PMU").
pub const EID_PMU: u64 = 0x504D55;

/// Function IDs.
pub mod fid {
    pub const NUM_COUNTERS: u64 = 0;
    pub const COUNTER_GET_INFO: u64 = 1;
    pub const COUNTER_CONFIG_MATCHING: u64 = 2;
    pub const COUNTER_START: u64 = 3;
    pub const COUNTER_STOP: u64 = 4;
    pub const COUNTER_FW_READ: u64 = 5;
    pub const COUNTER_FW_READ_HI: u64 = 6;
    pub const SNAPSHOT_SET_SHMEM: u64 = 7;
    pub const EVENT_GET_INFO: u64 = 8;
}

/// The name of a PMU function.
pub fn fid_name(f: u64) -> &'static str {
    match f {
        fid::NUM_COUNTERS => "num_counters",
        fid::COUNTER_GET_INFO => "counter_get_info",
        fid::COUNTER_CONFIG_MATCHING => "counter_config_matching",
        fid::COUNTER_START => "counter_start",
        fid::COUNTER_STOP => "counter_stop",
        fid::COUNTER_FW_READ => "counter_fw_read",
        fid::COUNTER_FW_READ_HI => "counter_fw_read_hi",
        fid::SNAPSHOT_SET_SHMEM => "snapshot_set_shmem",
        fid::EVENT_GET_INFO => "event_get_info",
        _ => "unknown",
    }
}

/// config_matching flags.
pub const CFG_FLAG_SKIP_MATCH: u64 = 1 << 0;
pub const CFG_FLAG_CLEAR_VALUE: u64 = 1 << 1;
pub const CFG_FLAG_AUTO_START: u64 = 1 << 2;
pub const CFG_FLAG_SET_VUINH: u64 = 1 << 3;
pub const CFG_FLAG_SET_VSINH: u64 = 1 << 4;
pub const CFG_FLAG_SET_UINH: u64 = 1 << 5;
pub const CFG_FLAG_SET_SINH: u64 = 1 << 6;
pub const CFG_FLAG_SET_MINH: u64 = 1 << 7;
const CFG_FLAGS: u64 = 0xff;
/// counter_start flags.
pub const START_SET_INIT_VALUE: u64 = 1 << 0;
pub const START_FLAG_INIT_SNAPSHOT: u64 = 1 << 1;
const START_FLAGS: u64 = 0b11;
/// counter_stop flags.
pub const STOP_FLAG_RESET: u64 = 1 << 0;
pub const STOP_FLAG_TAKE_SNAPSHOT: u64 = 1 << 1;
const STOP_FLAGS: u64 = 0b11;

/// Firmware counters (as OpenSBI's SBI_PMU_FW_CTR_MAX).
pub const FW_COUNTERS: usize = 16;

/// An SBI error (the spec's codes; 0 is success and not an error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[repr(i64)]
pub enum SbiError {
    Failed = -1,
    NotSupported = -2,
    InvalidParam = -3,
    Denied = -4,
    InvalidAddress = -5,
    AlreadyAvailable = -6,
    AlreadyStarted = -7,
    AlreadyStopped = -8,
    NoShmem = -9,
}

impl SbiError {
    #[inline]
    pub fn code(self) -> i64 {
        self as i64
    }
}

/// The spec's name of an SBI error code.
pub fn error_name(code: i64) -> &'static str {
    match code {
        0 => "SUCCESS",
        -1 => "ERR_FAILED",
        -2 => "ERR_NOT_SUPPORTED",
        -3 => "ERR_INVALID_PARAM",
        -4 => "ERR_DENIED",
        -5 => "ERR_INVALID_ADDRESS",
        -6 => "ERR_ALREADY_AVAILABLE",
        -7 => "ERR_ALREADY_STARTED",
        -8 => "ERR_ALREADY_STOPPED",
        -9 => "ERR_NO_SHMEM",
        -10 => "ERR_INVALID_STATE",
        -11 => "ERR_BAD_RANGE",
        -12 => "ERR_TIMEOUT",
        -13 => "ERR_IO",
        -14 => "ERR_DENIED_LOCKED",
        _ => "ERR_UNKNOWN",
    }
}

/// `struct sbiret`: a0 and a1 on return.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SbiRet {
    pub error: i64,
    pub value: u64,
}

impl SbiRet {
    pub fn ok(value: u64) -> SbiRet {
        SbiRet { error: 0, value }
    }

    pub fn err(e: SbiError) -> SbiRet {
        SbiRet {
            error: e.code(),
            value: 0,
        }
    }
}

impl From<Result<u64, SbiError>> for SbiRet {
    fn from(r: Result<u64, SbiError>) -> SbiRet {
        match r {
            Ok(v) => SbiRet::ok(v),
            Err(e) => SbiRet::err(e),
        }
    }
}

/// What the SBI needs from the machine.
pub trait SbiPmuHost {
    /// Whether S-mode may access every byte of guest physical `[addr, addr + len)` (it is
    /// RAM, and PMP allows S-mode the access; with `write`, reads and writes).
    fn accessible(&self, addr: u64, len: u64, write: bool) -> bool;
    /// Read guest physical memory; false if it cannot be read.
    fn read_phys(&mut self, addr: u64, buf: &mut [u8]) -> bool;
    /// Write guest physical memory; false if it cannot be written.
    fn write_phys(&mut self, addr: u64, data: &[u8]) -> bool;
    /// Whether mip.LCOFIP is set (starting a counter leaves its OF alone then, as OpenSBI).
    fn lcofip_pending(&self) -> bool;
}

/// The event an SBI counter was configured for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SbiEvent {
    pub event_idx: u64,
    pub event_data: u64,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FwCounter {
    /// The firmware event code, when configured.
    pub(crate) event: Option<u16>,
    pub(crate) event_data: u64,
    pub(crate) value: u64,
    pub(crate) started: bool,
}

/// One SBI call and its result. The PMU crate logs the PMU extension's calls; the hart's
/// built-in SBI logs every call of every extension in the same form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SbiCallRecord {
    /// Calls before this one (all calls of the log's scope, logged or not).
    pub seq: u64,
    pub eid: u64,
    /// The extension's name ("pmu", "base", "time"...; "unknown" for an EID not implemented).
    pub extension: &'static str,
    pub fid: u64,
    pub function: &'static str,
    /// a0..a5 (only those the function takes).
    pub args: Vec<u64>,
    pub error: i64,
    pub error_name: &'static str,
    pub value: u64,
}

/// What an event_idx / event_data pair names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A hardware event with this mhpmevent selector; `fixed`: it may also go on mcycle or
    /// minstret (CPU_CYCLES and INSTRUCTIONS as general events, not as raw ones).
    Hw { sel: u64, fixed: bool },
    /// A firmware event code.
    Fw(u16),
}

/// A logical counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctr {
    /// Hardware counter i (0, 2, 3..).
    Hw(usize),
    /// Firmware counter j.
    Fw(usize),
    /// The hole (1) or past the last counter.
    Invalid,
}

#[derive(Clone, Debug)]
pub(crate) struct SbiState {
    /// The event each hpm counter was configured for (None: free).
    pub(crate) hw: [Option<SbiEvent>; 32],
    pub(crate) fw: [FwCounter; FW_COUNTERS],
    /// Bit c set: some firmware counter counting event c is started.
    pub(crate) fw_live: u64,
    pub(crate) shmem: Option<u64>,
    log: Vec<SbiCallRecord>,
    log_limit: usize,
    calls: u64,
    /// (fid, error) -> count, for every call.
    summary: BTreeMap<(u64, i64), u64>,
}

impl SbiState {
    pub(crate) fn new(cfg: &PmuConfig) -> SbiState {
        SbiState {
            hw: [None; 32],
            fw: [FwCounter::default(); FW_COUNTERS],
            fw_live: 0,
            shmem: None,
            log: Vec::new(),
            log_limit: cfg.sbi_log_limit,
            calls: 0,
            summary: BTreeMap::new(),
        }
    }

    pub(crate) fn log(&self) -> &[SbiCallRecord] {
        &self.log
    }

    pub(crate) fn calls(&self) -> u64 {
        self.calls
    }

    pub(crate) fn summary(&self) -> &BTreeMap<(u64, i64), u64> {
        &self.summary
    }

    pub(crate) fn recompute_fw_live(&mut self) {
        self.fw_live = self
            .fw
            .iter()
            .filter(|c| c.started)
            .filter_map(|c| c.event)
            .filter(|&e| e < 64)
            .fold(0, |m, e| m | 1 << e);
    }
}

/// The bits of a mask, lowest first.
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros();
            mask &= mask - 1;
            Some(i)
        }
    })
}

impl Pmu {
    /// Hardware counters in the SBI's numbering (cycle, time, instret, hpm...).
    pub fn sbi_num_hw(&self) -> u64 {
        (HPM_FIRST + self.hpm_counters()) as u64
    }

    /// Every SBI counter, hardware and firmware.
    pub fn sbi_num_counters(&self) -> u64 {
        self.sbi_num_hw() + FW_COUNTERS as u64
    }

    pub(crate) fn ctr(&self, cidx: u64) -> Ctr {
        let hw = self.sbi_num_hw();
        if cidx == TIME_IDX as u64 {
            Ctr::Invalid
        } else if cidx < hw {
            Ctr::Hw(cidx as usize)
        } else if cidx < self.sbi_num_counters() {
            Ctr::Fw((cidx - hw) as usize)
        } else {
            Ctr::Invalid
        }
    }

    /// Check a counter set: a non-empty mask of valid counters.
    pub(crate) fn validate_set(&self, base: u64, mask: u64) -> Result<(), SbiError> {
        if mask == 0 {
            return Err(SbiError::InvalidParam);
        }
        for i in bits(mask) {
            match base.checked_add(i as u64).map(|c| self.ctr(c)) {
                Some(Ctr::Hw(_)) | Some(Ctr::Fw(_)) => {}
                _ => return Err(SbiError::InvalidParam),
            }
        }
        Ok(())
    }

    /// Whether a counter has an event (cycle and instret always do).
    pub(crate) fn configured(&self, c: Ctr) -> bool {
        match c {
            Ctr::Hw(MCYCLE_IDX) | Ctr::Hw(MINSTRET_IDX) => true,
            Ctr::Hw(i) => self.sbi.hw[i].is_some(),
            Ctr::Fw(j) => self.sbi.fw[j].event.is_some(),
            Ctr::Invalid => false,
        }
    }

    /// What an event_idx (and event_data) names, if this PMU supports it.
    pub(crate) fn resolve_event(&self, event_idx: u64, event_data: u64) -> Option<Target> {
        if event_idx >> 20 != 0 {
            return None;
        }
        let code = event_idx & 0xffff;
        let hw = |sel: u64, fixed: bool| {
            event::lookup_supported(sel, &self.cfg).map(|e| Target::Hw {
                sel: e.selector,
                fixed,
            })
        };
        match event_idx >> 16 {
            // General events: codes 1..=10 (0 is "no event").
            0 if code != 0 => hw(TYPE_GENERAL << 16 | code, true),
            1 => hw(TYPE_CACHE << 16 | code, false),
            // Raw events: the code must be zero; event_data is what goes into mhpmevent's
            // selector (its low 48 bits for type 2, 56 for type 3), any value mhpmevent
            // takes: hartscope's own events, and the general and cache events' selectors
            // (`perf -e r10001`). Like OpenSBI's raw-event table, only on hpm counters.
            2 | 3 if code == 0 => {
                let bits = if event_idx >> 16 == 2 { 48 } else { 56 };
                hw(event_data & ((1u64 << bits) - 1), false)
            }
            15 => FwEvent::from_code(code as u16).map(|e| Target::Fw(e as u16)),
            _ => None,
        }
    }

    /// Whether hardware counter `i` can count the event with selector `sel`.
    pub(crate) fn hw_can_count(&self, i: usize, sel: u64) -> bool {
        match i {
            MCYCLE_IDX => sel == 0x1,
            MINSTRET_IDX => sel == 0x2,
            i => i >= HPM_FIRST && self.implemented(i),
        }
    }

    /// Whether some counter could ever count the target.
    pub(crate) fn target_countable(&self, t: Target) -> bool {
        match t {
            Target::Fw(_) => true,
            Target::Hw { sel, fixed } => {
                (fixed && (sel == 0x1 || sel == 0x2)) || self.hpm_counters() > 0
            }
        }
    }

    /// Boot state of the built-in SBI, as OpenSBI leaves it at S-mode entry: cycle and
    /// instret counting, every hpm counter inhibited with mhpmevent 0 and free, every
    /// firmware counter free, no snapshot memory. (The hart sets mcounteren to all ones.)
    pub fn sbi_boot(&mut self) {
        let hpm = self.counter_mask() & !0b111;
        for i in HPM_FIRST..32 {
            self.write_mhpmevent(i, 0);
        }
        self.write_mcountinhibit(hpm);
        self.sbi.hw = [None; 32];
        self.sbi.fw = [FwCounter::default(); FW_COUNTERS];
        self.sbi.fw_live = 0;
        self.sbi.shmem = None;
    }

    /// Handle one SBI PMU call (a7 = [`EID_PMU`], a6 = `fid`, `args` = a0..a5) and log it.
    pub fn sbi_pmu_call(&mut self, fid: u64, args: [u64; 6], host: &mut dyn SbiPmuHost) -> SbiRet {
        let [a0, a1, a2, a3, a4, _] = args;
        let (r, nargs) = match fid {
            fid::NUM_COUNTERS => (Ok(self.sbi_num_counters()), 0),
            fid::COUNTER_GET_INFO => (self.sbi_counter_get_info(a0), 1),
            fid::COUNTER_CONFIG_MATCHING => (
                self.sbi_counter_config_matching(a0, a1, a2, a3, a4, host),
                5,
            ),
            fid::COUNTER_START => (self.sbi_counter_start(a0, a1, a2, a3, host), 4),
            fid::COUNTER_STOP => (self.sbi_counter_stop(a0, a1, a2, host), 3),
            fid::COUNTER_FW_READ => (self.sbi_counter_fw_read(a0), 1),
            fid::COUNTER_FW_READ_HI => (self.sbi_counter_fw_read_hi(a0), 1),
            fid::SNAPSHOT_SET_SHMEM => (self.sbi_snapshot_set_shmem(a0, a1, a2, host), 3),
            fid::EVENT_GET_INFO => (self.sbi_event_get_info(a0, a1, a2, a3, host), 4),
            _ => (Err(SbiError::NotSupported), 6),
        };
        let ret = SbiRet::from(r);
        let s = &mut self.sbi;
        if s.log.len() < s.log_limit {
            s.log.push(SbiCallRecord {
                seq: s.calls,
                eid: EID_PMU,
                extension: "pmu",
                fid,
                function: fid_name(fid),
                args: args[..nargs].to_vec(),
                error: ret.error,
                error_name: error_name(ret.error),
                value: ret.value,
            });
        }
        s.calls += 1;
        *s.summary.entry((fid, ret.error)).or_insert(0) += 1;
        ret
    }

    /// The event an SBI counter is configured for (None: free, or the hole).
    pub fn sbi_counter_event(&self, cidx: u64) -> Option<SbiEvent> {
        match self.ctr(cidx) {
            Ctr::Hw(MCYCLE_IDX) => Some(SbiEvent {
                event_idx: 0x1,
                event_data: 0,
            }),
            Ctr::Hw(MINSTRET_IDX) => Some(SbiEvent {
                event_idx: 0x2,
                event_data: 0,
            }),
            Ctr::Hw(i) => self.sbi.hw[i],
            Ctr::Fw(j) => self.sbi.fw[j].event.map(|e| SbiEvent {
                event_idx: 0xf0000 | e as u64,
                event_data: self.sbi.fw[j].event_data,
            }),
            Ctr::Invalid => None,
        }
    }
}
