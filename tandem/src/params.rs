//! The parameters the trace encoder and decoder must agree on (spec chapter 3, "Notes"):
//! XLEN, FLEN and MLEN. The protocol has no way to carry them, so `hartscope run --tandem`
//! saves them beside the trace (see [`crate::sidecar`]) and the other commands take flags.
//!
//! Field widths follow from them: a full register write carries XLEN bits (FLEN for an FPR,
//! address 0x1020-0x103f); the pc (additional state 10) XLEN bits; physical and effective
//! addresses (additional state 2, 3, 9) and memory-request addresses MLEN bits, rounded up to
//! whole bytes. Fields are little-endian.
//!
//! Two sets of values are valid. The protocol's ([`Params::check`]: XLEN and FLEN 32 or 64,
//! MLEN 32..=64) is what `tandem dump` reads, whichever core wrote the stream. hartscope's
//! hart is RV64GC, so what its writer writes and its verifier verifies is narrower
//! ([`Params::check_hart`]): XLEN = 64, FLEN the hart's (64 with D; 32 for a hart with F
//! and without D, whose FPR fields carry the single-precision bits and read back NaN-boxed:
//! [`Params::check_hart_flen`]), and MLEN 57..=64, the widths whose fields
//! (8 bytes) hold every address the hart makes (effective addresses are 64 bits). The writer
//! and the verifier check the same function, so the writer never writes a stream its
//! verifier refuses or mis-verifies (a 32-bit FLEN field would drop the upper half of the
//! D registers, a 7-byte MLEN field the upper byte of a sign-extended virtual address).

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
    #[error(
        "XLEN must be 64 for hartscope's hart, which is RV64 (got {0}; a {0}-bit field \
         would cut its registers)"
    )]
    HartXlen(u8),
    #[error(
        "FLEN must be {1} for hartscope's hart as configured (got {0}: its FP registers are \
         {1} bits, 64 with the D extension, 32 with F alone)"
    )]
    HartFlen(u8, u8),
    #[error(
        "MLEN must be 57..64 for hartscope's hart (got {0}): its effective addresses are \
         64 bits, and only MLEN 57..64 gives address fields of 8 bytes"
    )]
    HartMlen(u8),
}

/// FLEN of a hart: 64 with D, 32 with F alone (its single-precision values, NaN-boxed in
/// the hart's 64-bit registers, are written and read as their 32 bits), 0 without F.
pub fn hart_flen(isa: &iss::isa::Isa) -> u8 {
    match (isa.f, isa.d) {
        (_, true) => 64,
        (true, false) => 32,
        _ => 0,
    }
}

/// A 32-bit FPR value (FLEN 32) as the hart holds it: NaN-boxed.
pub fn nan_box32(v: u64) -> u64 {
    v | 0xffff_ffff_0000_0000
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

    /// What hartscope's writer writes and its verifier verifies (see the module doc) for the
    /// default hart (RV64GC, FLEN 64): the protocol's check, then XLEN = FLEN = 64 and MLEN
    /// 57..=64.
    pub fn check_hart(&self) -> Result<(), ParamsError> {
        self.check_hart_flen(64)
    }

    /// [`Params::check_hart`] for a hart whose FP registers are `flen` bits ([`hart_flen`]):
    /// FLEN must be that (any, for a hart without F).
    pub fn check_hart_flen(&self, flen: u8) -> Result<(), ParamsError> {
        self.check()?;
        if self.xlen != 64 {
            return Err(ParamsError::HartXlen(self.xlen));
        }
        if flen != 0 && self.flen != flen {
            return Err(ParamsError::HartFlen(self.flen, flen));
        }
        if self.mbytes() != 8 {
            return Err(ParamsError::HartMlen(self.mlen));
        }
        Ok(())
    }

    /// Every value [`Params::check_hart`] accepts.
    pub fn hart_values() -> impl Iterator<Item = Params> {
        (57..=64).map(|mlen| Params {
            xlen: 64,
            flen: 64,
            mlen,
        })
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

    #[test]
    fn hart_values_are_exactly_those_check_hart_accepts() {
        let mut ok = Vec::new();
        for x in 0..=255u8 {
            for f in [0, 16, 32, 64, 128] {
                for m in 0..=255u8 {
                    let p = Params {
                        xlen: x,
                        flen: f,
                        mlen: m,
                    };
                    if p.check_hart().is_ok() {
                        ok.push(p);
                    }
                }
            }
        }
        assert_eq!(ok, Params::hart_values().collect::<Vec<_>>());
        let p = Params::new(32, 64, 32).unwrap();
        assert_eq!(p.check_hart(), Err(ParamsError::HartXlen(32)));
        let p = Params::new(64, 32, 64).unwrap();
        assert_eq!(p.check_hart(), Err(ParamsError::HartFlen(32, 64)));
        assert_eq!(p.check_hart_flen(32), Ok(()));
        assert_eq!(
            Params::RV64GC.check_hart_flen(32),
            Err(ParamsError::HartFlen(64, 32))
        );
        let p = Params::new(64, 64, 56).unwrap();
        assert_eq!(p.check_hart(), Err(ParamsError::HartMlen(56)));
    }
}
