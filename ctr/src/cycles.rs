//! Cycle counting: the CC field's exponent/mantissa encoding and the lazily kept elapsed-cycle
//! counter (0.1.4 section 5.3; 1.0 "Cycle Counting").
//!
//! The encoding is the corrected one (`../shared/specs/README.md`, and the ratified text): CCE
//! is the index of the counter's most significant set bit minus 11 (0 below 4096) and CCM
//! holds the 12 counter bits below that top bit (bits CCE+10..CCE-1). Decoding is CCM when
//! CCE = 0, else `(4096 + CCM) << (CCE - 1)`. With fewer than 4 implemented CCE bits the
//! largest CCE is smaller, and a count above what it can express saturates to all implemented
//! CC bits set ("The CC value saturates when all implemented bits in CCM and CCE are 1").
//!
//! The counter counts *qualified* (1.0: *active*) cycles: cycles spent in a privilege mode
//! enabled for recording while not frozen. Rather than ticking it every cycle, the model is
//! told the PMU's cycle count at every event and adds the elapsed cycles of the interval that
//! just ended if that interval was qualified.

/// Encode an elapsed-cycle count as the 16-bit CC field, with `cce_bits` (0..=4) implemented
/// exponent bits.
pub fn encode(count: u64, cce_bits: u8) -> u16 {
    let max_cce = (1u64 << cce_bits.min(4)) - 1;
    if count < 4096 {
        return count as u16;
    }
    let msb = 63 - u64::from(count.leading_zeros());
    let cce = msb - 11;
    if cce > max_cce {
        return ((max_cce << 12) | 0xFFF) as u16;
    }
    let ccm = (count >> (cce - 1)) & 0xFFF;
    ((cce << 12) | ccm) as u16
}

/// Decode a 16-bit CC field into the elapsed cycles it stands for.
pub fn decode(cc: u16) -> u64 {
    let cce = u64::from(cc >> 12);
    let ccm = u64::from(cc & 0xFFF);
    if cce == 0 {
        ccm
    } else {
        (4096 + ccm) << (cce - 1)
    }
}

/// The largest count representable with `cce_bits` exponent bits: the saturation value
/// (1.0 table "Cycle Counter Size Options": 4095, 8191, 32764, 524224, 134201344).
pub fn max_count(cce_bits: u8) -> u64 {
    decode(encode(u64::MAX, cce_bits))
}

/// CtrCycleCounter, kept lazily.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CycleCounter {
    /// Qualified cycles since the last record (or reset), up to `mark`.
    pub count: u64,
    /// The PMU cycle count up to which `count` is settled.
    pub mark: u64,
    /// The next record gets CCV = 0 (after a control write, a clear, reset, or an
    /// uncountable RAS pop).
    pub invalid: bool,
}

impl CycleCounter {
    /// A counter whose first record will have CCV = 0.
    pub fn new() -> CycleCounter {
        CycleCounter {
            count: 0,
            mark: 0,
            invalid: true,
        }
    }

    /// Account for the interval up to `now`, which was qualified or not. A `now` behind the
    /// mark (a caller passing a stale clock) counts as no time passing rather than as a huge
    /// interval.
    #[inline]
    pub fn settle(&mut self, now: u64, qualified: bool) {
        if now > self.mark {
            if qualified {
                self.count = self.count.saturating_add(now - self.mark);
            }
            self.mark = now;
        }
    }

    /// Reset to zero with CCV = 0 for the next record (control write, CLR, SCTRCLR).
    pub fn reset(&mut self, now: u64) {
        self.count = 0;
        self.mark = self.mark.max(now);
        self.invalid = true;
    }

    /// The CCV/CC bits of `ctrdata` for a record made now, then restart counting.
    #[inline]
    pub fn take(&mut self, cce_bits: u8) -> u64 {
        let cc = u64::from(encode(self.count, cce_bits)) << crate::bits::entry::CC_SHIFT;
        let ccv = if self.invalid {
            0
        } else {
            crate::bits::entry::CCV
        };
        self.count = 0;
        self.invalid = false;
        cc | ccv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_below_4096_is_exact() {
        for c in 0..4096 {
            assert_eq!(decode(encode(c, 4)), c);
            assert_eq!(encode(c, 0), c as u16);
        }
    }

    #[test]
    fn encode_never_overcounts() {
        let mut c = 1u64;
        while c < 1 << 40 {
            for d in [c - 1, c, c + 1, c * 3 / 2] {
                let got = decode(encode(d, 4));
                assert!(got <= d.min(max_count(4)), "{d}: {got}");
            }
            c <<= 1;
        }
    }
}
