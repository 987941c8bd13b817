//! The trace-control settings of an instruction trace encoder, named as the RISC-V Trace
//! Control Interface names them (`trTeInstMode` is [`TraceControl::tr_te_inst_mode`], ...):
//! the one home of every `trTe*`/`trTs*` setting hartscope models.
//!
//! Three parts of the pipeline read them, each through its view: the ingress port
//! ([`TraceControl::port`]: only `trTeInstEnAllJumps`, which changes the itype a `jal` is
//! reported with), the N-Trace encoder (all of them: `encoder::encoder::EncoderConfig` holds a
//! `TraceControl` beside the model's own parameters) and the N-Trace decoder (what decides
//! the messages a stream may hold: [`TraceControl::htm`], the byte format's fields, the
//! implicit-return mode, sequential jumps, all jumps, repeat branch and repeated history).
//! None of them keeps a copy of a setting under another name.
//!
//! The legal values ([`TraceControl::legalize`]) follow the WARL rules of the interface: a
//! value out of range that reads back as a legal one is changed to it, an impossible
//! combination is an error.

use serde::{Deserialize, Serialize};
use thiserror::Error;

// `trTeInstMode` 3 (BTM) and 6 (HTM). (The public names are `encoder::encoder::BTM`/`HTM`.)
const BTM: u8 = 3;
const HTM: u8 = 6;

/// An address range and privilege set that qualify instruction trace (trTeInstFilters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filter {
    /// Trace blocks whose first instruction is in `[start, end)`.
    pub start: u64,
    pub end: u64,
    /// Bit n set: trace privilege n (0 U, 1 S, 3 M).
    pub privs: u8,
}

impl Filter {
    /// Whether a block starting at `addr`, retired in privilege `prv`, is traced.
    #[inline]
    pub fn matches(&self, addr: u64, prv: u8) -> bool {
        addr >= self.start && addr < self.end && self.privs & (1 << prv) != 0
    }
}

/// The trace-control fields of an instruction trace encoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceControl {
    /// trTeInstMode: 3 BTM, 6 HTM.
    pub tr_te_inst_mode: u8,
    /// trTeContext: Ownership messages.
    pub tr_te_context: bool,
    /// trTeInhibitSrc: no SRC field.
    pub tr_te_inhibit_src: bool,
    /// trTeSrcID: this encoder's SRC value.
    pub tr_te_src_id: u16,
    /// trTeSrcBits: width of the SRC field, 0..=12.
    pub tr_te_src_bits: u8,
    /// trTeInstSyncMode: 0 off, 1 count messages, 3 count I-CNT half-words (2, cycles, reads
    /// back as 3).
    pub tr_te_inst_sync_mode: u8,
    /// trTeInstSyncMax: periodic sync every 2^(tr_te_inst_sync_max + 4) units.
    pub tr_te_inst_sync_max: u8,
    /// trTeInstEnAllJumps: the hart reports direct jumps as taken branches.
    pub tr_te_inst_en_all_jumps: bool,
    /// trTeInstEnSequentialJump: sequentially inferable jumps are not reported.
    pub tr_te_inst_en_sequential_jump: bool,
    /// trTeInstImplicitReturnMode: 0 off, 1 counter, 2 partial-address stack, 3 full-address
    /// stack.
    pub tr_te_inst_implicit_return_mode: u8,
    /// trTeInstEnRepeatedHistory: repeated HIST patterns (ResourceFull RCODE 2).
    pub tr_te_inst_en_repeated_history: bool,
    /// trTeInstEnRepeatBranch: RepeatBranch messages (BTM).
    pub tr_te_inst_en_repeat_branch: bool,
    /// trTeInstExtendAddrMSB: address fields with their MSB extended.
    pub tr_te_inst_extend_addr_msb: bool,
    /// trTsEnable: TSTAMP fields.
    pub tr_ts_enable: bool,
    /// trTeInstStallEna: stall the hart rather than lose messages.
    pub tr_te_inst_stall_ena: bool,
    /// trTeInstFilters: trace only what this matches.
    pub filter: Option<Filter>,
    /// trTeInstTrigEnable: the trace-on trigger's address.
    pub trace_on: Option<u64>,
    /// trTeInstTrigEnable: the trace-off trigger's address.
    pub trace_off: Option<u64>,
}

impl Default for TraceControl {
    fn default() -> Self {
        TraceControl {
            tr_te_inst_mode: HTM,
            tr_te_context: false,
            tr_te_inhibit_src: false,
            tr_te_src_id: 0,
            tr_te_src_bits: 0,
            tr_te_inst_sync_mode: 3,
            tr_te_inst_sync_max: 15,
            tr_te_inst_en_all_jumps: false,
            tr_te_inst_en_sequential_jump: false,
            tr_te_inst_implicit_return_mode: 0,
            tr_te_inst_en_repeated_history: false,
            tr_te_inst_en_repeat_branch: false,
            tr_te_inst_extend_addr_msb: false,
            tr_ts_enable: false,
            tr_te_inst_stall_ena: true,
            filter: None,
            trace_on: None,
            trace_off: None,
        }
    }
}

/// A trace-control setting (or combination) that cannot be implemented.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ControlError {
    #[error("trTeInstMode {0} is not implemented (3 BTM or 6 HTM)")]
    InstMode(u8),
    #[error("trTeInstSyncMode {0} is not 0..=3")]
    SyncMode(u8),
    #[error("trTeSrcBits is at most 12")]
    SrcBits(u8),
    #[error("trTeSrcID {id} does not fit in {bits} bits")]
    SrcId { id: u16, bits: u8 },
    #[error("trTeInstImplicitReturnMode is 0..=3")]
    ImplicitReturnMode(u8),
    #[error("RepeatBranch (trTeInstEnRepeatBranch) is for BTM only")]
    RepeatBranchNotBtm,
    #[error("the filter's address range is empty")]
    EmptyFilter { start: u64, end: u64 },
}

/// The ingress port's view of the trace control: what changes the beats it makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortControl {
    /// trTeInstEnAllJumps: report direct jumps (jal) as taken branches (itype 5).
    #[serde(rename = "all_jumps")]
    pub tr_te_inst_en_all_jumps: bool,
}

impl TraceControl {
    /// Check the settings and apply the WARL rules (values out of range read back as the
    /// nearest legal one; impossible combinations are errors).
    pub fn legalize(&mut self) -> Result<(), ControlError> {
        if self.tr_te_inst_mode != BTM && self.tr_te_inst_mode != HTM {
            return Err(ControlError::InstMode(self.tr_te_inst_mode));
        }
        if self.tr_te_inst_sync_mode == 2 {
            self.tr_te_inst_sync_mode = 3;
        }
        if self.tr_te_inst_sync_mode > 3 {
            return Err(ControlError::SyncMode(self.tr_te_inst_sync_mode));
        }
        self.tr_te_inst_sync_max = self.tr_te_inst_sync_max.min(15);
        if self.tr_te_src_bits > 12 {
            return Err(ControlError::SrcBits(self.tr_te_src_bits));
        }
        if self.tr_te_src_bits > 0 && u32::from(self.tr_te_src_id) >= 1 << self.tr_te_src_bits {
            return Err(ControlError::SrcId {
                id: self.tr_te_src_id,
                bits: self.tr_te_src_bits,
            });
        }
        if self.tr_te_inst_implicit_return_mode > 3 {
            return Err(ControlError::ImplicitReturnMode(
                self.tr_te_inst_implicit_return_mode,
            ));
        }
        Ok(())
    }

    /// The combinations the legal values still exclude (checked after the encoder's own
    /// parameters, so that errors come in the order they always did).
    pub fn check_combinations(&self) -> Result<(), ControlError> {
        if self.tr_te_inst_en_repeat_branch && self.tr_te_inst_mode != BTM {
            return Err(ControlError::RepeatBranchNotBtm);
        }
        if let Some(f) = &self.filter {
            if f.end <= f.start {
                return Err(ControlError::EmptyFilter {
                    start: f.start,
                    end: f.end,
                });
            }
        }
        Ok(())
    }

    /// History trace messaging (`trTeInstMode` 6).
    #[inline]
    pub fn htm(&self) -> bool {
        self.tr_te_inst_mode == HTM
    }

    /// The width of the SRC field the messages carry: `trTeSrcBits`, or 0 with
    /// `trTeInhibitSrc`.
    #[inline]
    pub fn src_bits(&self) -> u8 {
        if self.tr_te_inhibit_src {
            0
        } else {
            self.tr_te_src_bits
        }
    }

    /// The ingress port's view.
    #[inline]
    pub fn port(&self) -> PortControl {
        PortControl {
            tr_te_inst_en_all_jumps: self.tr_te_inst_en_all_jumps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legalize_reads_back_warl_values_and_refuses_the_impossible() {
        let mut c = TraceControl {
            tr_te_inst_sync_mode: 2,
            tr_te_inst_sync_max: 200,
            ..TraceControl::default()
        };
        c.legalize().unwrap();
        assert_eq!((c.tr_te_inst_sync_mode, c.tr_te_inst_sync_max), (3, 15));
        let bad = |f: fn(&mut TraceControl)| {
            let mut c = TraceControl::default();
            f(&mut c);
            c.legalize()
                .and_then(|()| c.check_combinations())
                .unwrap_err()
        };
        assert_eq!(bad(|c| c.tr_te_inst_mode = 4), ControlError::InstMode(4));
        assert_eq!(
            bad(|c| {
                c.tr_te_src_bits = 2;
                c.tr_te_src_id = 4
            })
            .to_string(),
            "trTeSrcID 4 does not fit in 2 bits"
        );
        assert_eq!(
            bad(|c| c.tr_te_inst_en_repeat_branch = true),
            ControlError::RepeatBranchNotBtm
        );
        assert_eq!(
            bad(|c| c.tr_te_inst_implicit_return_mode = 4).to_string(),
            "trTeInstImplicitReturnMode is 0..=3"
        );
    }

    #[test]
    fn views_read_the_one_setting() {
        let c = TraceControl {
            tr_te_inst_en_all_jumps: true,
            tr_te_src_bits: 5,
            tr_te_inhibit_src: true,
            tr_te_inst_mode: BTM,
            ..TraceControl::default()
        };
        assert!(c.port().tr_te_inst_en_all_jumps);
        assert!(!TraceControl::default().port().tr_te_inst_en_all_jumps);
        assert_eq!(c.src_bits(), 0);
        assert!(!c.htm());
        assert!(TraceControl::default().htm());
        let f = Filter {
            start: 0x100,
            end: 0x200,
            privs: 0b1000,
        };
        assert!(f.matches(0x100, 3) && !f.matches(0x200, 3) && !f.matches(0x100, 1));
    }
}
