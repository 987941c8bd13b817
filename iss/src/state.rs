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

/// The data access an instruction is about to make ([`Machine::next_data_access`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataAccess {
    /// The effective (virtual) address.
    pub vaddr: u64,
    /// Bytes accessed.
    pub size: u8,
    /// It reads memory (loads, LR, AMOs).
    pub read: bool,
    /// It writes memory (stores, an SC that will succeed, AMOs).
    pub write: bool,
}

impl Machine {
    /// For debuggers (watchpoints that stop before the access, as GDB expects of a RISC-V
    /// target): the data access the instruction at `pc` makes if it executes now, or `None`
    /// when it makes none or raises an exception instead (the fetch faults, FP off, a
    /// misaligned access that traps, a page fault, PMP, no memory or device there).
    /// Interrupts that could be taken first are not looked at. No side effects.
    pub fn next_data_access(&mut self) -> Option<DataAccess> {
        use crate::mmu::Access;
        use crate::ops::Atomic;
        use crate::record::{shape, Shape};
        let pc = self.hart.pc;
        let prv = self.hart.prv;
        let half = |m: &mut Machine, va: u64| -> Option<u16> {
            let pa = m.translate(va, Access::Fetch).ok()?;
            if m.tlb.pmp_check(pa, 2, Access::Fetch, prv) != Some(true) {
                return None;
            }
            let off = m.bus.ram.offset(pa, 2)?;
            Some(m.bus.ram.read_u16(off))
        };
        let lo = half(self, pc)?;
        let isa = self.config.isa;
        let d = isa.filter(if lo & 3 != 3 {
            crate::decode::decode16(lo)
        } else {
            let hi = half(self, pc.wrapping_add(2))?;
            crate::decode::decode32(lo as u32 | (hi as u32) << 16)
        });
        let base = self.x(d.rs1);
        let fs_off = self.hart.csr.mstatus & MSTATUS_FS == 0;
        let (vaddr, size, read, write, atomic) = match shape(d.op) {
            Shape::Load(n) => (
                base.wrapping_add(d.imm as i64 as u64),
                n,
                true,
                false,
                false,
            ),
            Shape::Store(n) => (
                base.wrapping_add(d.imm as i64 as u64),
                n,
                false,
                true,
                false,
            ),
            Shape::FLoad(n) if !fs_off => (
                base.wrapping_add(d.imm as i64 as u64),
                n,
                true,
                false,
                false,
            ),
            Shape::FStore(n) if !fs_off => (
                base.wrapping_add(d.imm as i64 as u64),
                n,
                false,
                true,
                false,
            ),
            _ => match d.op.facts().atomic {
                Atomic::Lr(n) => (base, n, true, false, true),
                Atomic::Sc(n) => (base, n, false, true, true),
                Atomic::Amo(n, _) => (base, n, true, true, true),
                Atomic::No => return None,
            },
        };
        let misaligned = vaddr & (size as u64 - 1) != 0;
        if misaligned && (atomic || self.config.misaligned == crate::Misaligned::Trap) {
            return None;
        }
        let access = if write { Access::Store } else { Access::Load };
        let dprv = self.data_priv();
        // Every byte's page (a misaligned access may cross one).
        let last = vaddr.wrapping_add(size as u64 - 1);
        let mut pa0 = 0;
        for (i, va) in [vaddr, last].into_iter().enumerate() {
            let pa = self.translate(va, access).ok()?;
            let len = if misaligned { 1 } else { size as u64 };
            if self.tlb.pmp_check(pa, len, access, dprv) != Some(true) {
                return None;
            }
            let ram = self.bus.ram.offset(pa, len).is_some();
            if !ram && (atomic || !self.bus.is_device(pa)) {
                return None;
            }
            if i == 0 {
                pa0 = pa;
            }
        }
        // A store-conditional without its reservation writes nothing.
        let sc = matches!(d.op.facts().atomic, Atomic::Sc(_));
        let write = write && !(sc && self.hart.reservation != Some(pa0));
        if !read && !write {
            return None;
        }
        Some(DataAccess {
            vaddr,
            size,
            read,
            write,
        })
    }

    /// Write guest physical memory for the host (a debugger): RAM only, all of `bytes` or
    /// nothing (false). Instructions decoded from the bytes written are decoded again.
    pub fn host_write_phys(&mut self, pa: u64, bytes: &[u8]) -> bool {
        let Some(off) = self.bus.ram.offset(pa, bytes.len() as u64) else {
            return false;
        };
        if bytes.is_empty() {
            return true;
        }
        self.bus
            .ram
            .bytes_mut(off, bytes.len())
            .copy_from_slice(bytes);
        self.code_written(pa, bytes.len() as u64);
        true
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

    /// The access an instruction is about to make, for loads, stores and the atomics (whose
    /// sizes and kinds are the instruction table's atomic column).
    #[test]
    fn next_data_access_of_loads_stores_and_atomics() {
        let base = crate::bus::RAM_BASE;
        let data = base + 0x1000;
        let at = |bits: u32, reserved: bool| {
            let mut m = Machine::new(Config::default());
            assert!(m.host_write_phys(base, &bits.to_le_bytes()));
            m.set_pc(base);
            m.set_x(10, data);
            if reserved {
                m.hart.reservation = Some(data);
            }
            m.next_data_access()
                .map(|a| (a.vaddr, a.size, a.read, a.write))
        };
        // ld a1, 8(a0); sw a1, 4(a0)
        assert_eq!(at(0x00853583, false), Some((data + 8, 8, true, false)));
        assert_eq!(at(0x00b52223, false), Some((data + 4, 4, false, true)));
        // lr.w a1, (a0); lr.d a1, (a0)
        assert_eq!(at(0x100525af, false), Some((data, 4, true, false)));
        assert_eq!(at(0x100535af, false), Some((data, 8, true, false)));
        // sc.d a2, a1, (a0): writes only with the reservation.
        assert_eq!(at(0x18b5362f, true), Some((data, 8, false, true)));
        assert_eq!(at(0x18b5362f, false), None);
        // amoadd.w a2, a1, (a0); amomaxu.d a2, a1, (a0)
        assert_eq!(at(0x00b5262f, false), Some((data, 4, true, true)));
        assert_eq!(at(0xe0b5362f, false), Some((data, 8, true, true)));
        // add a0, a0, a1: no access.
        assert_eq!(at(0x00b50533, false), None);
    }
}
