//! The legacy console functions (SBI v0.1, EIDs 0x01 and 0x02; SBI 3.0 chapter 5), which
//! return in a0 only (a1 keeps its value). The other legacy EIDs (0x00, 0x03-0x08) are not
//! implemented: NOT_SUPPORTED, and `probe_extension` answers 0 for them.
//!
//! - 0x01 `console_putchar(ch)`: writes the low byte to the console; a0 = 0.
//! - 0x02 `console_getchar()`: a0 = the next byte the UART's receiver holds, or -1.

use super::Reply;
use crate::machine::Machine;
use pmu::SbiRet;

pub(super) fn putchar(m: &mut Machine, _fid: u64, a: [u64; 6]) -> Reply {
    m.bus.console.write_bytes(&[a[0] as u8]);
    Reply::ok(0)
}

pub(super) fn getchar(m: &mut Machine, _fid: u64, _a: [u64; 6]) -> Reply {
    let c = m.bus.uart.input.pop_front().map_or(-1, |b| b as i64);
    Reply {
        ret: SbiRet { error: c, value: 0 },
        then: super::Then::Return,
    }
}
