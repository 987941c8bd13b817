//! The CTR array's entries: `ctrsource`, `ctrtarget`, `ctrdata` (0.1.4 chapter 3, 1.0 "Entry
//! Registers"), stored raw, and a decoded read-only view for reports.

use crate::bits::entry::{CCE_SHIFT, CCV, CC_SHIFT, MISP, TYPE, V};
use crate::cycles;
use arch::Itype;

/// One physical entry, as its three registers read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// `ctrsource`: PC\[63:1\] and V (bit 0).
    pub source: u64,
    /// `ctrtarget`: PC\[63:1\] and MISP (bit 0).
    pub target: u64,
    /// `ctrdata`: CC (31:16), CCV (15), TYPE (3:0).
    pub data: u64,
}

impl Entry {
    /// The all-zero entry (what CLR / SCTRCLR leave, and what reset holds).
    pub const ZERO: Entry = Entry {
        source: 0,
        target: 0,
        data: 0,
    };

    /// Decode into a view of logical entry `index`.
    pub fn view(&self, index: usize) -> EntryView {
        let cc = (self.data >> CC_SHIFT) as u16;
        let ccv = self.data & CCV != 0;
        EntryView {
            index,
            valid: self.source & V != 0,
            source: self.source & !V,
            target: self.target & !MISP,
            misp: self.target & MISP != 0,
            ty: Itype::from_code((self.data & TYPE) as u8).unwrap_or(Itype::None),
            ccv,
            cc,
            cycles: ccv.then(|| cycles::decode(cc)),
        }
    }
}

/// A decoded logical entry, for `--ctr-report` and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryView {
    /// The logical entry number (0 = youngest).
    pub index: usize,
    /// `ctrsource`.V.
    pub valid: bool,
    /// The source pc (0 for a partial record from a disabled mode).
    pub source: u64,
    /// The target pc (0 for an external trap or a trap return into a disabled mode).
    pub target: u64,
    /// `ctrtarget`.MISP.
    pub misp: bool,
    /// `ctrdata`.TYPE as the shared itype taxonomy.
    pub ty: Itype,
    /// `ctrdata`.CCV.
    pub ccv: bool,
    /// `ctrdata`.CC, raw (CCE in 15:12, CCM in 11:0).
    pub cc: u16,
    /// The elapsed cycles CC stands for, when CCV = 1.
    pub cycles: Option<u64>,
}

impl EntryView {
    /// CCE, the exponent half of CC.
    pub fn cce(&self) -> u8 {
        (self.cc >> 12) as u8
    }
    /// CCM, the mantissa half of CC.
    pub fn ccm(&self) -> u16 {
        self.cc & 0xFFF
    }
}

/// The `ctrdata` bits software may write: TYPE always; CCV, CCM and the implemented CCE bits
/// when cycle counting is implemented. Bits 14:4 and 63:32 are WPRI, read-only 0 (0.1.4 bits
/// 14:12 are custom, and this model implements no custom extension).
pub(crate) fn data_write_mask(cycle_counting: bool, cce_bits: u8) -> u64 {
    let mut m = TYPE;
    if cycle_counting {
        m |= CCV | crate::bits::entry::CCM | (((1u64 << cce_bits) - 1) << CCE_SHIFT);
    }
    m
}
