//! Reading and forcing the hart's architectural state by register address, for tools that
//! compare or copy state (the tandem verifier's reference hart, debuggers, tests).
//!
//! Register addresses follow the RISC-V debug specification (and the Bluespec tandem trace
//! protocol): CSRs at 0x0000-0x0FFF, GPR xN at 0x1000+N, FPR fN at 0x1020+N.

use crate::csr::*;
use crate::insn::Insn;
use crate::machine::Machine;
use arch::Priv;

pub const GPR_BASE: u16 = 0x1000;
pub const FPR_BASE: u16 = 0x1020;

/// Where a register address points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegAddr {
    Csr(u16),
    Gpr(u8),
    Fpr(u8),
}

impl RegAddr {
    pub fn from_addr(a: u16) -> Option<RegAddr> {
        match a {
            0..=0xfff => Some(RegAddr::Csr(a)),
            0x1000..=0x101f => Some(RegAddr::Gpr((a - GPR_BASE) as u8)),
            0x1020..=0x103f => Some(RegAddr::Fpr((a - FPR_BASE) as u8)),
            _ => None,
        }
    }

    pub fn addr(self) -> u16 {
        match self {
            RegAddr::Csr(c) => c,
            RegAddr::Gpr(n) => GPR_BASE + n as u16,
            RegAddr::Fpr(n) => FPR_BASE + n as u16,
        }
    }
}

/// The CSRs the hart implements that hold state (the counters' user views and read-only
/// identification registers excluded), for whole-state comparison.
pub fn state_csrs() -> Vec<u16> {
    let mut v = vec![
        FFLAGS,
        FRM,
        MSTATUS,
        MISA,
        MEDELEG,
        MIDELEG,
        MIE,
        MTVEC,
        MCOUNTEREN,
        MENVCFG,
        MCOUNTINHIBIT,
        MSCRATCH,
        MEPC,
        MCAUSE,
        MTVAL,
        MIP,
        STVEC,
        SCOUNTEREN,
        SENVCFG,
        SSCRATCH,
        SEPC,
        SCAUSE,
        STVAL,
        SATP,
        MCYCLE,
        MINSTRET,
    ];
    v.extend((0..4).map(|i| PMPCFG0 + 2 * i));
    v.extend((0..PMP_ENTRIES as u16).map(|i| PMPADDR0 + i));
    v.extend(MHPMEVENT3..=MHPMEVENT31);
    v
}

impl Machine {
    /// The value of a register by address (CSRs read without access checks), or `None` for
    /// an address that holds nothing here.
    pub fn get_reg(&self, a: u16) -> Option<u64> {
        match RegAddr::from_addr(a)? {
            RegAddr::Gpr(n) => Some(self.x(n)),
            RegAddr::Fpr(n) => Some(self.hart.f[n as usize]),
            RegAddr::Csr(c) => self.csr_read(c),
        }
    }

    /// Force a register to a value. CSRs are written as a CSR instruction would write them
    /// (their WARL rules apply), except that mip takes every implemented bit (MTIP and MSIP
    /// too, which software cannot write) and the counters take the value as their current one.
    /// Returns false for an address that holds nothing here.
    pub fn set_reg(&mut self, a: u16, v: u64) -> bool {
        match RegAddr::from_addr(a) {
            Some(RegAddr::Gpr(n)) => {
                self.set_x(n, v);
                true
            }
            Some(RegAddr::Fpr(n)) => {
                self.hart.f[n as usize] = v;
                true
            }
            Some(RegAddr::Csr(MIP)) => {
                self.hart.csr.mip = v & (S_INTERRUPTS | M_INTERRUPTS | MIP_LCOFIP);
                true
            }
            Some(RegAddr::Csr(
                c @ (MCYCLE
                | CYCLE
                | MINSTRET
                | INSTRET
                | MHPMCOUNTER3..=MHPMCOUNTER31
                | HPMCOUNTER3..=HPMCOUNTER31),
            )) => {
                self.pmu_sync();
                let i = (c & 0x1f) as usize;
                if !self.hart.pmu.implemented(i) {
                    return false;
                }
                self.hart.pmu.write_counter(i, v);
                true
            }
            Some(RegAddr::Csr(TIME)) => {
                self.bus.clint.mtime = v;
                self.clint_changed();
                true
            }
            Some(RegAddr::Csr(c)) => {
                if self.csr_read(c).is_none() {
                    return false;
                }
                let d = Insn::illegal(0, 4);
                self.csr_set(c, v, &d)
            }
            None => false,
        }
    }

    /// Set the privilege level.
    pub fn set_priv_level(&mut self, p: Priv) {
        self.set_priv(p);
    }

    /// Set the pc.
    pub fn set_pc(&mut self, pc: u64) {
        self.hart.pc = pc;
    }

    /// After the hart's state was replaced as a whole (a library's snapshot restored): the
    /// translation cache, PMP, the CLINT's interrupt bits and the per-run accounting follow it.
    pub fn state_replaced(&mut self) {
        self.flush_tlb();
        self.tlb.set_pmp(&self.hart.csr);
        self.clint_changed();
        self.update_hooks();
    }

    /// Whether the program has ended since the last look (test finisher, or an HTIF exit
    /// or syscall), for a caller that steps the hart one instruction at a time.
    pub fn poll_exit(&mut self) -> Option<crate::Stop> {
        match self.bus.exit.take() {
            Some(crate::bus::PlatformExit::Code(c)) => return Some(crate::Stop::Exit(c)),
            Some(crate::bus::PlatformExit::ResetRequested) => {
                return Some(crate::Stop::ResetRequested)
            }
            None => {}
        }
        self.htif_poll()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Config;

    #[test]
    fn registers_by_address() {
        let mut m = Machine::new(Config::default());
        assert!(m.set_reg(GPR_BASE + 5, 42));
        assert_eq!(m.get_reg(GPR_BASE + 5), Some(42));
        assert!(m.set_reg(GPR_BASE, 42));
        assert_eq!(m.get_reg(GPR_BASE), Some(0), "x0 stays 0");
        assert!(m.set_reg(FPR_BASE + 31, 0x3ff0_0000_0000_0000));
        assert_eq!(m.get_reg(FPR_BASE + 31), Some(0x3ff0_0000_0000_0000));
        assert!(m.set_reg(MSCRATCH, 7));
        assert_eq!(m.get_reg(MSCRATCH), Some(7));
        // WARL: mtvec bit 1 reads 0.
        assert!(m.set_reg(MTVEC, 0x8000_0003));
        assert_eq!(m.get_reg(MTVEC), Some(0x8000_0001));
        // mip's hardware bits can be forced.
        assert!(m.set_reg(MIP, MIP_MTIP));
        assert_eq!(m.get_reg(MIP), Some(MIP_MTIP));
        assert!(m.set_reg(MINSTRET, 1000));
        assert_eq!(m.get_reg(MINSTRET), Some(1000));
        assert!(!m.set_reg(0x7c0, 1), "no such CSR");
        assert_eq!(RegAddr::from_addr(0x1025), Some(RegAddr::Fpr(5)));
        assert_eq!(RegAddr::Fpr(5).addr(), 0x1025);
    }
}
