//! System instructions: ECALL, MRET, SRET, WFI, SFENCE.VMA, FENCE.I (privileged spec 1.12
//! sections 3.3, 4.2.1; Zifencei).

use super::{REFETCH, SERIALIZE, WFI};
use crate::csr::*;
use crate::insn::Insn;
use crate::machine::Machine;
use crate::record::Reg;
use arch::{Exception, Priv};

impl Machine {
    pub(crate) fn ecall(&mut self) -> u64 {
        self.raise(Exception::ecall_from(self.hart.prv), 0)
    }

    #[inline(never)]
    pub(crate) fn mret<const REC: bool>(&mut self, d: &Insn, pc: u64) -> u64 {
        if self.hart.prv != Priv::M {
            return self.illegal(d);
        }
        let c = &mut self.hart.csr;
        let mut s = c.mstatus;
        let mpp = Priv::from_bits((s & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT).unwrap_or(Priv::U);
        if mpp != Priv::M {
            s &= !MSTATUS_MPRV;
        }
        s = set_bit(s, MSTATUS_MIE, s & MSTATUS_MPIE != 0);
        s |= MSTATUS_MPIE;
        s &= !MSTATUS_MPP; // U, the least-privileged mode
        c.mstatus = s;
        let target = c.mepc & self.config.isa.epc_mask();
        if REC {
            let v = self.hart.csr.mstatus_read();
            self.rec.push_write(Reg::Csr(MSTATUS), v);
        }
        self.xret_events(pc, target, Priv::M, mpp);
        self.xret_priv(mpp);
        self.hart.pc = target;
        SERIALIZE
    }

    #[inline(never)]
    pub(crate) fn sret<const REC: bool>(&mut self, d: &Insn, pc: u64) -> u64 {
        let prv = self.hart.prv;
        if prv == Priv::U || (prv == Priv::S && self.hart.csr.mstatus & MSTATUS_TSR != 0) {
            return self.illegal(d);
        }
        let c = &mut self.hart.csr;
        let mut s = c.mstatus;
        let spp = if s & MSTATUS_SPP != 0 {
            Priv::S
        } else {
            Priv::U
        };
        // The new privilege is below M, so MPRV clears.
        s &= !MSTATUS_MPRV;
        s = set_bit(s, MSTATUS_SIE, s & MSTATUS_SPIE != 0);
        s |= MSTATUS_SPIE;
        s &= !MSTATUS_SPP;
        c.mstatus = s;
        let target = c.sepc & self.config.isa.epc_mask();
        if REC {
            let v = self.hart.csr.mstatus_read();
            self.rec.push_write(Reg::Csr(MSTATUS), v);
        }
        self.xret_events(pc, target, prv, spp);
        self.xret_priv(spp);
        self.hart.pc = target;
        SERIALIZE
    }

    #[inline(never)]
    pub(crate) fn wfi(&mut self, d: &Insn, npc: u64) -> u64 {
        let prv = self.hart.prv;
        // TW makes WFI illegal below M; with S-mode present, WFI in U-mode is always illegal.
        if (prv != Priv::M && self.hart.csr.mstatus & MSTATUS_TW != 0) || prv == Priv::U {
            return self.illegal(d);
        }
        self.hart.pc = npc;
        WFI
    }

    #[inline(never)]
    pub(crate) fn sfence_vma(&mut self, d: &Insn, npc: u64) -> u64 {
        let prv = self.hart.prv;
        if prv == Priv::U || (prv == Priv::S && self.hart.csr.mstatus & MSTATUS_TVM != 0) {
            return self.illegal(d);
        }
        // Over-flushing is always allowed: drop every cached translation regardless of the
        // address and ASID operands. (The PMU's TLB model flushes what the operands say.)
        self.flush_tlb();
        if self.mode.models() {
            let asid = (d.rs2 != 0).then(|| self.hart.x[d.rs2 as usize] as u16);
            let va = (d.rs1 != 0).then(|| self.hart.x[d.rs1 as usize]);
            self.hart.pmu.tlb_flush(asid, va);
        }
        self.hart.pc = npc;
        REFETCH
    }

    /// Svinval's `sfence.w.inval` and `sfence.inval.ir`: illegal in U-mode (mstatus.TVM does
    /// not apply, as on Spike); otherwise nothing to do, as this hart's invalidations
    /// (`sinval.vma`) complete at once.
    #[inline(never)]
    pub(crate) fn sfence_inval(&mut self, d: &Insn, npc: u64) -> u64 {
        if self.hart.prv == Priv::U {
            return self.illegal(d);
        }
        self.hart.pc = npc;
        REFETCH
    }

    pub(crate) fn fence_i(&mut self, npc: u64) -> u64 {
        self.dcache.drop_all();
        if self.mode.models() {
            self.hart.pmu.fence_i();
        }
        self.hart.pc = npc;
        REFETCH
    }

    /// SCTRCLR (Smctr 1.0): clear the records, with CTR's privilege and Smstateen checks.
    #[inline(never)]
    pub(crate) fn sctrclr(&mut self, d: &Insn, npc: u64) -> u64 {
        // Every transfer retired before it reaches the array first (it clears them).
        self.events_flush();
        let prv = self.hart.prv;
        let ctx = self.ctr_ctx();
        match self.hart.ctr.as_mut().map(|c| c.sctrclr(prv, &ctx)) {
            Some(Ok(())) => {
                self.hart.pc = npc;
                SERIALIZE
            }
            _ => self.illegal(d),
        }
    }

    /// The privilege change of an xRET, which retires in the privilege it ran in: the PMU's
    /// totals are brought up to date including the xRET itself (its handler set the budget,
    /// which the xRET's retirement then catches up with), so that mode-filtered counters do
    /// not see it in the new privilege.
    #[inline]
    fn xret_priv(&mut self, p: Priv) {
        self.pmu_sync();
        let prv = self.hart.prv;
        self.hart.pmu.retire(prv, 1);
        self.pmu_synced += 1;
        self.hart.prv = p;
        self.flush_tlb();
    }

    /// Change privilege; every cached translation depends on it, and the PMU's instruction
    /// totals must be brought up to date in the old privilege first.
    #[inline]
    pub(crate) fn set_priv(&mut self, p: Priv) {
        if p != self.hart.prv {
            self.pmu_sync();
            self.hart.prv = p;
        }
        self.flush_tlb();
    }
}

#[inline(always)]
pub(crate) fn set_bit(v: u64, mask: u64, on: bool) -> u64 {
    if on {
        v | mask
    } else {
        v & !mask
    }
}
