//! The parameters the trace encoder and decoder must agree on (spec chapter 3, "Notes"):
//! XLEN, FLEN and MLEN. The protocol has no way to carry them, so `hartscope run --tandem`
//! saves them beside the trace (see [`crate::sidecar`]) and the other commands take flags.
//!
//! Field widths follow from them: a full register write carries XLEN bits (FLEN for an FPR,
//! address 0x1020-0x103f); the pc (additional state 10) XLEN bits; physical and effective
//! addresses (additional state 2, 3, 9) and memory-request addresses MLEN bits, rounded up to
//! whole bytes. Fields are little-endian.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// XLEN, FLEN and MLEN in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    pub xlen: u8,
    pub flen: u8,
    pub mlen: u8,
}

impl Default for Params {
    /// RV64GC: XLEN = FLEN = MLEN = 64 (the spec's Appendix C examples).
    fn default() -> Self {
        Params::RV64GC
    }
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParamsError {
    #[error("XLEN must be 32 or 64 (got {0})")]
    Xlen(u8),
    #[error("FLEN must be 32 or 64 (got {0})")]
    Flen(u8),
    #[error("MLEN must be between 32 and 64 bits (got {0})")]
    Mlen(u8),
}

impl Params {
    pub const RV64GC: Params = Params {
        xlen: 64,
        flen: 64,
        mlen: 64,
    };

    pub fn new(xlen: u8, flen: u8, mlen: u8) -> Result<Params, ParamsError> {
        let p = Params { xlen, flen, mlen };
        p.check()?;
        Ok(p)
    }

    pub fn check(&self) -> Result<(), ParamsError> {
        if self.xlen != 32 && self.xlen != 64 {
            return Err(ParamsError::Xlen(self.xlen));
        }
        if self.flen != 32 && self.flen != 64 {
            return Err(ParamsError::Flen(self.flen));
        }
        if !(32..=64).contains(&self.mlen) {
            return Err(ParamsError::Mlen(self.mlen));
        }
        Ok(())
    }

    /// Bytes of an XLEN field.
    #[inline]
    pub fn xbytes(&self) -> usize {
        self.xlen as usize / 8
    }

    /// Bytes of an FLEN field.
    #[inline]
    pub fn fbytes(&self) -> usize {
        self.flen as usize / 8
    }

    /// Bytes of an MLEN field (rounded up to a multiple of 8 bits).
    #[inline]
    pub fn mbytes(&self) -> usize {
        (self.mlen as usize).div_ceil(8)
    }

    /// Bytes of the data of a full-register write to `addr`: FLEN for FPRs, XLEN otherwise.
    #[inline]
    pub fn reg_bytes(&self, addr: u16) -> usize {
        if (0x1020..0x1040).contains(&addr) {
            self.fbytes()
        } else {
            self.xbytes()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths() {
        let p = Params::RV64GC;
        assert_eq!((p.xbytes(), p.fbytes(), p.mbytes()), (8, 8, 8));
        assert_eq!(p.reg_bytes(0x1003), 8);
        let p = Params::new(32, 32, 34).unwrap();
        assert_eq!((p.xbytes(), p.fbytes(), p.mbytes()), (4, 4, 5));
        assert_eq!(p.reg_bytes(0x1027), 4);
        assert_eq!(Params::new(32, 64, 32).unwrap().reg_bytes(0x1027), 8);
        assert_eq!(Params::new(16, 32, 32), Err(ParamsError::Xlen(16)));
        assert_eq!(Params::new(64, 64, 70), Err(ParamsError::Mlen(70)));
    }
}
