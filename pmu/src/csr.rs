//! The counter CSRs as CSR instructions see them: numbers, access checks, reads and writes
//! (privileged spec: Zicntr / Zihpm "hardware performance monitor", mcounteren, scounteren,
//! mcountinhibit; Sscofpmf for scountovf).
//!
//! Access rules, in order:
//! 1. a CSR whose address bits 9:8 name a higher privilege than the current one is illegal;
//! 2. writing a read-only CSR (address bits 11:10 = 3: the user counters, scountovf) is illegal;
//! 3. the user counters `cycle`, `time`, `instret`, `hpmcounterN` (0xC00 + n): in S-mode
//!    mcounteren bit n must be set, in U-mode mcounteren and scounteren bit n must both be set;
//! 4. scountovf in S-mode reads bit n only if mcounteren bit n is set (zero otherwise); in
//!    M-mode it reads every bit.
//!
//! Counters that do not exist read as zero and ignore writes (mhpmcounterN, mhpmeventN and
//! their user views), as the spec allows for unimplemented hpm counters. `time` belongs to the
//! hart: the PMU checks access to it and returns the value the hart passes in [`CsrCtx`].

use crate::counters::{Pmu, HPM_FIRST};
use arch::Priv;
use thiserror::Error;

pub const CYCLE: u16 = 0xc00;
pub const TIME: u16 = 0xc01;
pub const INSTRET: u16 = 0xc02;
pub const HPMCOUNTER3: u16 = 0xc03;
pub const HPMCOUNTER31: u16 = 0xc1f;
pub const MCYCLE: u16 = 0xb00;
pub const MINSTRET: u16 = 0xb02;
pub const MHPMCOUNTER3: u16 = 0xb03;
pub const MHPMCOUNTER31: u16 = 0xb1f;
pub const MCOUNTINHIBIT: u16 = 0x320;
pub const MHPMEVENT3: u16 = 0x323;
pub const MHPMEVENT31: u16 = 0x33f;
pub const SCOUNTOVF: u16 = 0xda0;

/// Why a CSR access does not complete.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum CsrError {
    /// The access is not permitted: the hart raises an illegal-instruction exception.
    #[error("illegal counter CSR access")]
    Illegal,
    /// Not a CSR of the PMU.
    #[error("not a PMU CSR")]
    NotPmu,
}

/// What a counter CSR access depends on outside the PMU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsrCtx {
    /// The privilege of the CSR instruction.
    pub prv: Priv,
    pub mcounteren: u32,
    pub scounteren: u32,
    /// The value of `time` (mtime) for a read of CSR 0xC01.
    pub time: u64,
}

/// Whether `csr` is one of the PMU's: mcycle, minstret, mhpmcounter3..31, mhpmevent3..31,
/// mcountinhibit, cycle, time, instret, hpmcounter3..31, scountovf.
pub const fn is_pmu_csr(csr: u16) -> bool {
    matches!(csr, MCYCLE | MINSTRET | MHPMCOUNTER3..=MHPMCOUNTER31 | MCOUNTINHIBIT
        | MHPMEVENT3..=MHPMEVENT31 | CYCLE..=HPMCOUNTER31 | SCOUNTOVF)
}

/// Whether privilege `prv` may read user counter `n` (0 cycle, 1 time, 2 instret, 3.. hpm).
#[inline]
pub fn counter_accessible(n: u32, prv: Priv, mcounteren: u32, scounteren: u32) -> bool {
    let bit = 1u32 << (n & 31);
    match prv {
        Priv::M | Priv::Debug => true,
        Priv::S => mcounteren & bit != 0,
        Priv::U => mcounteren & bit != 0 && scounteren & bit != 0,
    }
}

/// Rules 1 and 2 (address privilege and read-only).
fn address_check(csr: u16, write: bool, prv: Priv) -> Result<(), CsrError> {
    let needed = ((csr >> 8) & 3) as u64;
    let have = match prv {
        Priv::Debug => 3,
        p => p.bits(),
    };
    if have < needed || (write && csr >> 10 == 3) {
        return Err(CsrError::Illegal);
    }
    Ok(())
}

impl Pmu {
    /// Read a PMU CSR with its access checks.
    pub fn csr_read(&self, csr: u16, ctx: &CsrCtx) -> Result<u64, CsrError> {
        if !is_pmu_csr(csr) {
            return Err(CsrError::NotPmu);
        }
        address_check(csr, false, ctx.prv)?;
        Ok(match csr {
            CYCLE..=HPMCOUNTER31 => {
                let n = (csr - CYCLE) as u32;
                if !counter_accessible(n, ctx.prv, ctx.mcounteren, ctx.scounteren) {
                    return Err(CsrError::Illegal);
                }
                if csr == TIME {
                    ctx.time
                } else {
                    self.counter(n as usize)
                }
            }
            MCYCLE..=MHPMCOUNTER31 => self.counter((csr - MCYCLE) as usize),
            MHPMEVENT3..=MHPMEVENT31 => self.mhpmevent((csr - MCOUNTINHIBIT) as usize),
            MCOUNTINHIBIT => self.mcountinhibit() as u64,
            SCOUNTOVF => {
                let all = self.scountovf();
                match ctx.prv {
                    Priv::S => (all & ctx.mcounteren) as u64,
                    _ => all as u64,
                }
            }
            _ => return Err(CsrError::NotPmu),
        })
    }

    /// Write a PMU CSR with its access checks and WARL rules. The write takes effect at the
    /// current totals: to follow Spike (the writing instruction does not count), bump the
    /// writing instruction's totals before calling this.
    pub fn csr_write(&mut self, csr: u16, value: u64, ctx: &CsrCtx) -> Result<(), CsrError> {
        if !is_pmu_csr(csr) {
            return Err(CsrError::NotPmu);
        }
        address_check(csr, true, ctx.prv)?;
        match csr {
            MCYCLE..=MHPMCOUNTER31 => self.write_counter((csr - MCYCLE) as usize, value),
            MHPMEVENT3..=MHPMEVENT31 => self.write_mhpmevent((csr - MCOUNTINHIBIT) as usize, value),
            MCOUNTINHIBIT => self.write_mcountinhibit(value as u32),
            _ => return Err(CsrError::Illegal),
        }
        Ok(())
    }

    /// The name of a PMU CSR.
    pub fn csr_name(csr: u16) -> Option<String> {
        Some(match csr {
            CYCLE => "cycle".into(),
            TIME => "time".into(),
            INSTRET => "instret".into(),
            HPMCOUNTER3..=HPMCOUNTER31 => format!("hpmcounter{}", csr - CYCLE),
            MCYCLE => "mcycle".into(),
            MINSTRET => "minstret".into(),
            MHPMCOUNTER3..=MHPMCOUNTER31 => format!("mhpmcounter{}", csr - MCYCLE),
            MCOUNTINHIBIT => "mcountinhibit".into(),
            MHPMEVENT3..=MHPMEVENT31 => format!("mhpmevent{}", csr - MCOUNTINHIBIT),
            SCOUNTOVF => "scountovf".into(),
            _ => return None,
        })
    }
}

/// The machine-mode name of counter `i`.
pub fn counter_name(i: usize) -> String {
    match i {
        0 => "mcycle".into(),
        1 => "time".into(),
        2 => "minstret".into(),
        i if i >= HPM_FIRST => format!("mhpmcounter{i}"),
        _ => unreachable!(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::PmuConfig;
    use rstest::rstest;

    fn ctx(prv: Priv, m: u32, s: u32) -> CsrCtx {
        CsrCtx {
            prv,
            mcounteren: m,
            scounteren: s,
            time: 77,
        }
    }

    /// The mcounteren/scounteren matrix for a user counter (privileged spec, "Counter-Enable
    /// Registers"): M always; S needs mcounteren; U needs both.
    #[rstest]
    #[case(Priv::M, 0, 0, true)]
    #[case(Priv::S, 0, 0, false)]
    #[case(Priv::S, 1, 0, true)]
    #[case(Priv::S, 0, 1, false)]
    #[case(Priv::U, 0, 0, false)]
    #[case(Priv::U, 1, 0, false)]
    #[case(Priv::U, 0, 1, false)]
    #[case(Priv::U, 1, 1, true)]
    fn counteren_matrix(#[case] prv: Priv, #[case] m: u32, #[case] s: u32, #[case] ok: bool) {
        let p = Pmu::new(PmuConfig::default()).unwrap();
        for n in [0u16, 1, 2, 3, 17, 31] {
            let c = ctx(prv, m << n, s << n);
            let r = p.csr_read(CYCLE + n, &c);
            assert_eq!(r.is_ok(), ok, "counter {n}");
            // The bits of the other counters change nothing.
            let others = !(1u32 << n);
            let c = ctx(prv, (m << n) | others, (s << n) | others);
            assert_eq!(p.csr_read(CYCLE + n, &c).is_ok(), ok, "counter {n}");
        }
        if ok {
            assert_eq!(p.csr_read(TIME, &ctx(prv, m << 1, s << 1)), Ok(77));
        }
    }

    #[rstest]
    #[case(MCYCLE, Priv::S)]
    #[case(MHPMCOUNTER3, Priv::U)]
    #[case(MHPMEVENT31, Priv::S)]
    #[case(MCOUNTINHIBIT, Priv::S)]
    #[case(SCOUNTOVF, Priv::U)]
    fn privilege_too_low(#[case] csr: u16, #[case] prv: Priv) {
        let mut p = Pmu::new(PmuConfig::default()).unwrap();
        let c = ctx(prv, !0, !0);
        assert_eq!(p.csr_read(csr, &c), Err(CsrError::Illegal));
        assert_eq!(p.csr_write(csr, 0, &c), Err(CsrError::Illegal));
    }

    #[rstest]
    #[case(CYCLE)]
    #[case(TIME)]
    #[case(HPMCOUNTER31)]
    #[case(SCOUNTOVF)]
    fn read_only_writes_are_illegal(#[case] csr: u16) {
        let mut p = Pmu::new(PmuConfig::default()).unwrap();
        assert_eq!(
            p.csr_write(csr, 0, &ctx(Priv::M, !0, !0)),
            Err(CsrError::Illegal)
        );
    }

    #[test]
    fn scountovf_filtered_by_mcounteren_in_s_mode() {
        let cfg = PmuConfig {
            hpm_width: 4,
            ..PmuConfig::default()
        };
        let mut p = Pmu::new(cfg).unwrap();
        let m = ctx(Priv::M, 0, 0);
        for i in [3u16, 9] {
            p.csr_write(MHPMEVENT3 + i - 3, 0x2, &m).unwrap();
        }
        p.retire(Priv::S, 16);
        assert!(p.check_overflow());
        assert_eq!(p.csr_read(SCOUNTOVF, &m), Ok((1 << 3) | (1 << 9)));
        assert_eq!(p.csr_read(SCOUNTOVF, &ctx(Priv::S, 1 << 9, 0)), Ok(1 << 9));
        assert_eq!(p.csr_read(SCOUNTOVF, &ctx(Priv::S, 0, 0)), Ok(0));
        // Writing OF clears it; writes never overflow.
        p.csr_write(MHPMEVENT3, 0x2, &m).unwrap();
        assert_eq!(p.csr_read(SCOUNTOVF, &m), Ok(1 << 9));
    }

    #[test]
    fn not_pmu() {
        let p = Pmu::new(PmuConfig::default()).unwrap();
        assert_eq!(
            p.csr_read(0x300, &ctx(Priv::M, 0, 0)),
            Err(CsrError::NotPmu)
        );
        assert!(!is_pmu_csr(0xb01));
        assert!(!is_pmu_csr(0x321));
        assert!(is_pmu_csr(0xc01));
        assert_eq!(Pmu::csr_name(0x33f).as_deref(), Some("mhpmevent31"));
    }

    #[test]
    fn counter_widths() {
        let cfg = PmuConfig {
            hpm_width: 40,
            ..PmuConfig::default()
        };
        let mut p = Pmu::new(cfg).unwrap();
        let m = ctx(Priv::M, 0, 0);
        p.csr_write(MHPMCOUNTER3, u64::MAX, &m).unwrap();
        p.csr_write(MCYCLE, u64::MAX, &m).unwrap();
        assert_eq!(p.csr_read(MHPMCOUNTER3, &m), Ok((1 << 40) - 1));
        assert_eq!(p.csr_read(MCYCLE, &m), Ok(u64::MAX));
    }
}
