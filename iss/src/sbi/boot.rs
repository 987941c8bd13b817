//! The state OpenSBI leaves S-mode software in (its `mstatus_init`, `delegate_traps` and
//! `sbi_hart_switch_mode`), which [`Machine::sbi_boot`] sets up after Spike's reset state:
//!
//! | state | value | why |
//! |---|---|---|
//! | privilege, pc | S, the ELF entry | OpenSBI's `mret` to the next stage |
//! | a0, a1 | hart id, device tree address | the boot protocol |
//! | mstatus | FS = Dirty, MPP = U, MPIE = 1, all else 0 (SIE, SPIE, SPP, SUM, MXR, TVM, TW, TSR) | `mstatus_init` writes FS = 3; the `mret` leaves MPP = U, MPIE = 1 |
//! | medeleg | breakpoint, ecall from U, fetch/load/store page faults (and misaligned fetch, which is read-only 0 here: with C it cannot happen) | `delegate_traps` |
//! | mideleg | SSI, STI, SEI, and LCOFI with Sscofpmf | `delegate_traps` (`sbi_pmu_irq_bit`) |
//! | mie | 0: no M-mode interrupt is ever enabled | `mstatus_init` |
//! | mcounteren | all ones: S-mode reads every counter | `mstatus_init` |
//! | scounteren | 7: U-mode reads cycle, time, instret | `mstatus_init` |
//! | mcountinhibit, mhpmevent | hpm counters inhibited and free; cycle, instret count | `mstatus_init` and the PMU's `sbi_boot` |
//! | mstateen0 (with CTR, hence Smstateen) | every implemented bit: SE0, CSRIND, CTR | OpenSBI opens the state-enable bits of the extensions it knows to S-mode |
//! | menvcfg | STCE with Sstc, else 0 | OpenSBI sets STCE when the hart has Sstc (S-mode then owns stimecmp, and `set_timer` writes it); it also sets CBZE, CBCFE, CBIE and PBMTE where they exist, which the built-in SBI leaves clear |
//! | stvec, sscratch, sie, satp | entry, 0, 0, 0 | `sbi_hart_switch_mode` |
//! | PMP | as at reset: entry 0 over all memory, RWX | no firmware memory to protect (the device tree is S-mode's to read) |
//!
//! The device tree goes at the top of RAM, page aligned; programs must keep clear of
//! [`SbiState::dtb`](super::SbiState::dtb).

use crate::csr::*;
use crate::insn::Insn;
use crate::machine::Machine;
use arch::Priv;

/// Exceptions OpenSBI delegates (bit 0 is read-only 0 here).
pub const OPENSBI_MEDELEG: u64 = (1 << 0) | (1 << 3) | (1 << 8) | (1 << 12) | (1 << 13) | (1 << 15);

impl Machine {
    /// Put the hart in the state OpenSBI leaves S-mode software in, with the device tree in
    /// RAM (called by [`Machine::boot`] when the built-in SBI is on).
    pub fn sbi_boot(&mut self, entry: u64) {
        let len = self.dtb.len() as u64;
        let at = self
            .dtb_addr()
            .and_then(|addr| Some((addr, self.bus.ram.offset(addr, len)?)));
        let dtb = std::mem::take(&mut self.dtb);
        match at {
            Some((addr, off)) => {
                self.bus
                    .ram
                    .bytes_mut(off, len as usize)
                    .copy_from_slice(&dtb);
                self.sbi.dtb = (addr, len);
            }
            // RAM too small to hold it: no device tree (a1 = 0).
            None => self.sbi.dtb = (0, 0),
        }
        self.dtb = dtb;

        let lcof = if self.config.sscofpmf { MIP_LCOFIP } else { 0 };
        let c = &mut self.hart.csr;
        c.mstatus = (c.mstatus & (MSTATUS_UXL | MSTATUS_SXL)) | MSTATUS_FS | MSTATUS_MPIE;
        c.medeleg = OPENSBI_MEDELEG & MEDELEG_WRITABLE;
        c.mideleg = S_INTERRUPTS | lcof;
        c.mie = 0;
        c.mip &= !(S_INTERRUPTS | lcof);
        c.mcounteren = u32::MAX;
        c.scounteren = 7;
        // As OpenSBI's `mstatus_init`: with Sstc, S-mode may use stimecmp.
        c.menvcfg = if self.config.isa.sstc {
            MENVCFG_STCE
        } else {
            0
        };
        c.stvec = entry;
        c.sscratch = 0;
        c.satp = 0;
        if self.hart.ctr.is_some() {
            // WARL: every bit mstateen0 implements.
            self.csr_set(MSTATEEN0, u64::MAX, &Insn::illegal(0, 4));
        }
        self.pmu_sync();
        self.hart.pmu.sbi_boot();
        self.sbi.timer = None;
        self.hart.x[10] = self.hart.csr.mhartid;
        self.hart.x[11] = self.sbi.dtb.0;
        self.hart.pc = entry;
        self.set_priv(Priv::S);
        self.update_hooks();
    }
}
