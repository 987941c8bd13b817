//! Zicsr: the CSR instructions, and reading and writing every CSR with its access rules and
//! side effects (privileged spec 1.12 chapters 2-4, Zicntr/Zihpm).
//!
//! Access rules: a CSR whose address bits 9:8 name a higher privilege than the current one, a
//! write to a read-only CSR (bits 11:10 = 3), an unimplemented CSR, satp in S-mode with TVM,
//! the FP CSRs with FS Off, and the user counters without the mcounteren/scounteren bit all
//! raise an illegal-instruction exception. Pending interrupts are taken just before a CSR
//! instruction and looked at again just after it, as in Spike.
//!
//! What a write records follows Spike's commit log (docs/spike-compat.md section 1.4): the value
//! as read back after the write, under the CSR that holds it: sstatus writes record mstatus;
//! sie records sie and mie; mip and sip record mvip (0x309, as Spike derives it) and mip; fcsr
//! records fflags and frm; writes that cannot change anything (hpm counters, PMP entries that do
//! not exist or are locked) record nothing.

use super::{tri, IRQ, SERIALIZE};
use crate::csr::*;
use crate::insn::{Insn, Op};
use crate::machine::Machine;
use crate::record::Reg;
use crate::trigger::{MCONTEXT, SCONTEXT, TINFO, TSELECT};
use arch::Priv;

impl Machine {
    #[inline(never)]
    pub(crate) fn exec_csr<const REC: bool>(&mut self, d: &Insn, npc: u64) -> u64 {
        // Pending interrupts are taken before any CSR instruction (Spike's check point).
        if self.pending_interrupt().is_some() {
            return IRQ;
        }
        let csr = d.csr();
        let (src, write) = match d.op {
            Op::Csrrw => (self.rs1(d), true),
            Op::Csrrs | Op::Csrrc => (self.rs1(d), d.rs1 != 0),
            Op::Csrrwi => (d.rs1 as u64, true),
            _ => (d.rs1 as u64, d.rs1 != 0),
        };
        if !self.csr_accessible(csr, write) {
            return self.illegal(d);
        }
        // The counters (and CTR's cycle counts) see every instruction before this one, and CTR
        // every record.
        self.events_flush();
        self.pmu_sync();
        let old = match self.csr_read_as(csr, self.hart.prv) {
            Some(v) => v,
            None => return self.illegal(d),
        };
        if write {
            let new = match d.op {
                Op::Csrrw | Op::Csrrwi => src,
                Op::Csrrs | Op::Csrrsi => old | src,
                _ => old & !src,
            };
            tri!(self.csr_write::<REC>(csr, new, d));
        }
        self.wx::<REC>(d, old);
        self.hart.pc = npc;
        SERIALIZE
    }

    /// The privilege and read-only checks common to all CSRs, and the special cases.
    fn csr_accessible(&self, csr: u16, write: bool) -> bool {
        let prv = self.hart.prv;
        let min_priv = (csr >> 8) & 3;
        if (prv.bits() as u16) < min_priv {
            return false;
        }
        if write && csr >> 10 == 3 {
            return false;
        }
        // Smstateen gates state below M-mode (present with CTR).
        if prv != Priv::M && self.hart.ctr.is_some() {
            let gate = match csr {
                SSTATEEN0 => MSTATEEN0_SE0,
                // mstateen1..3 are zero: their SE bits never open sstateen1..3.
                0x10d..=SSTATEEN3 => return false,
                SISELECT..=SIREG6 => MSTATEEN0_CSRIND,
                _ => 0,
            };
            if self.hart.csr.mstateen0 & gate != gate {
                return false;
            }
        }
        match csr {
            // Without F they do not exist; with it, FS Off makes them illegal.
            FFLAGS | FRM | FCSR => self.config.isa.f && self.hart.csr.fs() != FS_OFF,
            SATP => !(prv == Priv::S && self.hart.csr.mstatus & MSTATUS_TVM != 0),
            // hcontext (H) does not exist; its number only names mcontext's writes in the
            // commit log (as Spike's), which checkers read back through `csr_read`.
            HCONTEXT => false,
            // Sstc: below M, menvcfg.STCE and then the time CSR's own check (mcounteren.TM),
            // as Spike orders them (both raise illegal instruction: there is no H).
            STIMECMP => {
                self.config.isa.sstc
                    && (prv == Priv::M
                        || (self.hart.csr.menvcfg & MENVCFG_STCE != 0
                            && self.hart.csr.mcounteren & 2 != 0))
            }
            CYCLE..=HPMCOUNTER31 => {
                let bit = 1u32 << (csr - CYCLE);
                // cycle, time and instret come with Zicntr, hpmcounter3..31 with Zihpm.
                if self.config.isa.counteren_mask() & bit == 0 {
                    return false;
                }
                let m_ok = prv == Priv::M || self.hart.csr.mcounteren & bit != 0;
                let s_ok = prv != Priv::U || self.hart.csr.scounteren & bit != 0;
                m_ok && s_ok
            }
            _ => true,
        }
    }

    /// Read a CSR as M-mode would, without access checks (debuggers, the tandem verifier, the
    /// commit log). `None`: no such CSR.
    pub fn csr_read(&self, csr: u16) -> Option<u64> {
        self.csr_read_as(csr, Priv::M)
    }

    /// Read a CSR for an instruction in privilege `prv` (the general access checks already
    /// made; CTR's own checks and the S-mode view of scountovf depend on `prv`). `None`: no
    /// such CSR, or an access that must raise an illegal-instruction exception.
    fn csr_read_as(&self, csr: u16, prv: Priv) -> Option<u64> {
        let c = &self.hart.csr;
        if let Some(ctr) = &self.hart.ctr {
            let ctx = self.ctr_ctx_ro();
            if let Some(r) = ctr.csr_read(csr, prv, &ctx) {
                return r.ok();
            }
            match csr {
                MSTATEEN0 => return Some(c.mstateen0),
                0x30d..=MSTATEEN3 | SSTATEEN0..=SSTATEEN3 => return Some(0),
                MISELECT => return Some(c.miselect),
                SISELECT => return Some(c.siselect),
                MIREG..=MIREG6 => {
                    let n = ireg_number(csr - MIREG)?;
                    return ctr
                        .ireg_read(ctr::Bank::Machine, c.miselect, n, prv, &ctx)?
                        .ok();
                }
                SIREG..=SIREG6 => {
                    let n = ireg_number(csr - SIREG)?;
                    return ctr
                        .ireg_read(ctr::Bank::Supervisor, c.siselect, n, prv, &ctx)?
                        .ok();
                }
                _ => {}
            }
        }
        if pmu::is_pmu_csr(csr) {
            let pmu = &self.hart.pmu;
            return match csr {
                SCOUNTOVF if !self.config.sscofpmf => None,
                MCOUNTINHIBIT => {
                    let rest = c.mcountinhibit_rest & !pmu.counter_mask();
                    Some((rest | pmu.mcountinhibit()) as u64)
                }
                _ => {
                    let ctx = pmu::CsrCtx {
                        prv,
                        mcounteren: c.mcounteren,
                        scounteren: c.scounteren,
                        time: self.bus.clint.mtime,
                    };
                    pmu.csr_read(csr, &ctx).ok()
                }
            };
        }
        Some(match csr {
            FFLAGS => c.fflags as u64,
            FRM => c.frm as u64,
            FCSR => c.fcsr(),
            SSTATUS => c.mstatus_read() & SSTATUS_MASK,
            SIE => c.mie & c.mideleg,
            STVEC => c.stvec,
            SCOUNTEREN => c.scounteren as u64,
            SENVCFG => c.senvcfg,
            SSCRATCH => c.sscratch,
            // With C off (IALIGN 32) bit 1 reads 0 (as written it stays).
            SEPC => c.sepc & self.config.isa.epc_mask(),
            SCAUSE => c.scause,
            STVAL => c.stval,
            SIP => c.mip & c.mideleg,
            SATP => c.satp,
            STIMECMP if self.config.isa.sstc => c.stimecmp,
            MVENDORID | MARCHID | MIMPID | MCONFIGPTR => 0,
            MHARTID => c.mhartid,
            MSTATUS => c.mstatus_read(),
            MISA => c.misa,
            MEDELEG => c.medeleg,
            MIDELEG => c.mideleg,
            MIE => c.mie,
            MTVEC => c.mtvec,
            MCOUNTEREN => c.mcounteren as u64,
            MENVCFG => c.menvcfg,
            MSCRATCH => c.mscratch,
            MEPC => c.mepc & self.config.isa.epc_mask(),
            MCAUSE => c.mcause,
            MTVAL => c.mtval,
            MIP => c.mip,
            PMPCFG0..=PMPCFG15 => {
                // RV64: only the even pmpcfg registers exist; each holds eight entries.
                if csr & 1 != 0 {
                    return None;
                }
                let first = ((csr - PMPCFG0) as usize) * 4;
                (0..8).fold(0u64, |acc, i| {
                    let cfg = c.pmpcfg.get(first + i).copied().unwrap_or(0);
                    acc | (cfg as u64) << (8 * i)
                })
            }
            // With no PMP entries at all, the pmpaddr registers do not exist (as on Spike).
            PMPADDR0..=PMPADDR63 if c.pmp_regions == 0 => return None,
            PMPADDR0..=PMPADDR63 => c.pmpaddr_read((csr - PMPADDR0) as usize),
            TSELECT..=TINFO | MCONTEXT | SCONTEXT => return self.hart.trig.read(csr),
            HCONTEXT => self.hart.trig.mcontext,
            _ => return None,
        })
    }

    /// Write a CSR (access already checked), with its WARL rules and side effects. Records the
    /// value written (as read back) when recording.
    fn csr_write<const REC: bool>(&mut self, csr: u16, v: u64, d: &Insn) -> Result<(), ()> {
        // The CSRs to record after the write (read back), in place of `csr` itself.
        let mut log: [u16; 2] = [csr, 0];
        if self.hart.ctr.is_some() {
            match self.ctr_write(csr, v) {
                Some(Ok(())) => {
                    self.update_hooks();
                    return self.record_csr::<REC>(log);
                }
                Some(Err(())) => {
                    self.illegal(d);
                    return Err(());
                }
                None => {}
            }
        }
        if pmu::is_pmu_csr(csr) {
            if !self.pmu_write(csr, v) {
                log = [0, 0];
            }
            self.update_hooks();
            return self.record_csr::<REC>(log);
        }
        let lcof = if self.config.sscofpmf { MIP_LCOFIP } else { 0 };
        let c = &mut self.hart.csr;
        match csr {
            FFLAGS | FRM | FCSR => {
                match csr {
                    FFLAGS => c.fflags = (v & 0x1f) as u8,
                    FRM => c.frm = (v & 7) as u8,
                    _ => {
                        c.fflags = (v & 0x1f) as u8;
                        c.frm = ((v >> 5) & 7) as u8;
                        log = [FFLAGS, FRM];
                    }
                }
                self.fs_dirty::<REC>();
            }
            SSTATUS => {
                let old = c.mstatus;
                c.mstatus = (c.mstatus & !SSTATUS_WRITABLE) | (v & SSTATUS_WRITABLE);
                log = [MSTATUS, 0];
                self.mstatus_written(old);
            }
            MSTATUS => {
                let mut n = (c.mstatus & !MSTATUS_WRITABLE) | (v & MSTATUS_WRITABLE);
                // MPP is WARL: the reserved value 2 becomes U.
                if (n & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT == 2 {
                    n &= !MSTATUS_MPP;
                }
                let old = c.mstatus;
                c.mstatus = n;
                self.mstatus_written(old);
            }
            SIE => {
                c.mie = (c.mie & !c.mideleg) | (v & c.mideleg);
                log = [SIE, MIE];
            }
            SIP => {
                let old = c.mip;
                let m = c.mideleg & (MIP_SSIP | lcof);
                c.mip = (c.mip & !m) | (v & m);
                self.record_mvip::<REC>(old);
                log = [MIP, 0];
            }
            STVEC => c.stvec = v & !2,
            SCOUNTEREN => c.scounteren = v as u32 & self.config.isa.counteren_mask(),
            SENVCFG => c.senvcfg = super::cbo::envcfg_write(&self.config.isa, v),
            SSCRATCH => c.sscratch = v,
            SEPC => c.sepc = v & !1,
            SCAUSE => c.scause = v,
            STVAL => c.stval = v,
            SATP => {
                let mode = v >> SATP_MODE_SHIFT;
                if mode != SATP_MODE_BARE && mode != SATP_MODE_SV39 && mode != SATP_MODE_SV48 {
                    // WARL: an unsupported mode leaves satp unchanged.
                } else {
                    c.satp = v & ((0xf << SATP_MODE_SHIFT) | SATP_ASID_MASK | SATP_PPN_MASK);
                }
                self.flush_tlb();
            }
            MISA => {}
            // Without C, instruction-address-misaligned (cause 0) exists and is delegable, as on
            // Spike.
            MEDELEG => {
                let fetch = if self.config.isa.c { 0 } else { 1 };
                c.medeleg = v & (MEDELEG_WRITABLE | fetch)
            }
            MIDELEG => c.mideleg = v & (S_INTERRUPTS | lcof),
            MIE => c.mie = v & (S_INTERRUPTS | M_INTERRUPTS | lcof),
            MIP => {
                let old = c.mip;
                // With Sstc and STCE, STIP follows stimecmp alone.
                let stip = if self.config.isa.sstc && c.menvcfg & MENVCFG_STCE != 0 {
                    MIP_STIP
                } else {
                    0
                };
                let m = (S_INTERRUPTS | lcof) & !stip;
                c.mip = (c.mip & !m) | (v & m);
                self.record_mvip::<REC>(old);
            }
            MTVEC => c.mtvec = v & !2,
            MCOUNTEREN => c.mcounteren = v as u32 & self.config.isa.counteren_mask(),
            MENVCFG => {
                c.menvcfg = super::cbo::envcfg_write(&self.config.isa, v)
                    | (v & self.config.isa.menvcfg_mask())
            }
            STIMECMP if self.config.isa.sstc => {
                c.stimecmp = v;
                self.sstc_sync();
            }
            MSCRATCH => c.mscratch = v,
            MEPC => c.mepc = v & !1,
            MCAUSE => c.mcause = v,
            MTVAL => c.mtval = v,
            PMPCFG0..=PMPCFG15 => {
                let n = c.pmp_regions as usize;
                let first = ((csr - PMPCFG0) as usize) * 4;
                if first >= n {
                    log = [0, 0];
                }
                for i in 0..8 {
                    let e = first + i;
                    if e >= n || c.pmpcfg[e] & PMP_L != 0 {
                        continue;
                    }
                    let mut cfg = (v >> (8 * i)) as u8 & (PMP_R | PMP_W | PMP_X | PMP_A | PMP_L);
                    // R=0, W=1 is reserved: keep W clear.
                    if cfg & PMP_R == 0 {
                        cfg &= !PMP_W;
                    }
                    // NA4 cannot be selected when the granularity is above 4 bytes: it
                    // becomes NAPOT (as on Spike).
                    if c.pmp_lg != 2 && (cfg & PMP_A) >> PMP_A_SHIFT == PMP_NA4 {
                        cfg |= PMP_NAPOT << PMP_A_SHIFT;
                    }
                    c.pmpcfg[e] = cfg;
                }
                self.tlb.set_pmp(&self.hart.csr);
                self.flush_tlb();
            }
            PMPADDR0..=PMPADDR63 if c.pmp_regions == 0 => {
                self.illegal(d);
                return Err(());
            }
            PMPADDR0..=PMPADDR63 => {
                let i = (csr - PMPADDR0) as usize;
                let n = c.pmp_regions as usize;
                if i < n {
                    let locked = c.pmpcfg[i] & PMP_L != 0;
                    let next_tor_locked = i + 1 < PMP_MAX
                        && c.pmpcfg[i + 1] & PMP_L != 0
                        && (c.pmpcfg[i + 1] & PMP_A) >> PMP_A_SHIFT == PMP_TOR;
                    if !locked && !next_tor_locked {
                        c.pmpaddr[i] = v & PMPADDR_MASK;
                    } else {
                        log = [0, 0];
                    }
                    self.tlb.set_pmp(&self.hart.csr);
                    self.flush_tlb();
                } else {
                    log = [0, 0];
                }
            }
            TSELECT..=TINFO | MCONTEXT | SCONTEXT => {
                self.hart.trig.write(csr, v);
                match csr {
                    // Read-only: Spike logs nothing.
                    TINFO => log = [0, 0],
                    // Spike's mcontext is hcontext's register, which its log names.
                    MCONTEXT => {
                        if REC {
                            let v = self.hart.trig.mcontext;
                            self.rec.push_write(Reg::Csr(HCONTEXT), v);
                        }
                        log = [0, 0];
                    }
                    _ => {}
                }
                self.trig_changed();
            }
            _ => {
                self.illegal(d);
                return Err(());
            }
        }
        self.record_csr::<REC>(log)
    }

    /// Record the CSRs in `log` (0: none) as they read after a write.
    fn record_csr<const REC: bool>(&mut self, log: [u16; 2]) -> Result<(), ()> {
        if REC {
            for r in log.into_iter().filter(|&r| r != 0) {
                if let Some(val) = self.csr_read(r) {
                    self.rec.push_write(Reg::Csr(r), val);
                }
            }
        }
        Ok(())
    }

    /// Write a PMU CSR (access already checked, totals synced). False when nothing can
    /// change (a counter that does not exist: Spike logs nothing then).
    fn pmu_write(&mut self, csr: u16, v: u64) -> bool {
        let prv = self.hart.prv;
        let pmu = &mut self.hart.pmu;
        match csr {
            MCYCLE | MINSTRET | MHPMCOUNTER3..=MHPMCOUNTER31 => {
                if !pmu.implemented((csr - MCYCLE) as usize) {
                    return false;
                }
                // The written value is what the counter reads after this instruction, which
                // does not count (as on Spike): count it now, before the write.
                pmu.retire(prv, 1);
                self.pmu_synced += 1;
                pmu.write_counter((csr - MCYCLE) as usize, v);
            }
            MHPMEVENT3..=MHPMEVENT31 => {
                // Without Sscofpmf, OF and the mode-inhibit bits do not exist.
                let v = if self.config.sscofpmf {
                    v
                } else {
                    v & ((1 << 56) - 1)
                };
                pmu.write_mhpmevent((csr - MCOUNTINHIBIT) as usize, v);
            }
            MCOUNTINHIBIT => {
                // Bit 1 (TM) is read-only 0; CY and IR exist with Zicntr and the HPM bits with
                // Zihpm (as on Spike); the bits of hpm counters that do not exist are kept as
                // written, as Spike keeps them.
                let v = v & (self.config.isa.counteren_mask() & !2) as u64;
                self.hart.csr.mcountinhibit_rest = v as u32;
                pmu.write_mcountinhibit((v as u32) & pmu.counter_mask());
            }
            _ => return false,
        }
        true
    }

    /// Write one of the CSRs that come with CTR (its own, Smstateen's, the indirect
    /// interface's). None: not one of them; `Err`: the access is illegal.
    fn ctr_write(&mut self, csr: u16, v: u64) -> Option<Result<(), ()>> {
        let prv = self.hart.prv;
        let ctx = self.ctr_ctx();
        let ctr = self.hart.ctr.as_mut()?;
        if let Some(r) = ctr.csr_write(csr, v, prv, &ctx) {
            return Some(r.map_err(|_| ()));
        }
        let c = &mut self.hart.csr;
        match csr {
            MSTATEEN0 => {
                let ctr_bit = 1u64 << ctr.mstateen0_ctr_bit();
                c.mstateen0 = v & (MSTATEEN0_SE0 | MSTATEEN0_CSRIND | ctr_bit);
            }
            0x30d..=MSTATEEN3 | SSTATEEN0..=SSTATEEN3 => {}
            MISELECT => c.miselect = v & ISELECT_MASK,
            SISELECT => c.siselect = v & ISELECT_MASK,
            MIREG..=MIREG6 | SIREG..=SIREG6 => {
                let (bank, sel, base) = if csr >= MIREG {
                    (ctr::Bank::Machine, c.miselect, MIREG)
                } else {
                    (ctr::Bank::Supervisor, c.siselect, SIREG)
                };
                let r = ireg_number(csr - base)
                    .and_then(|n| ctr.ireg_write(bank, sel, n, v, prv, &ctx));
                return Some(match r {
                    Some(Ok(())) => Ok(()),
                    _ => Err(()),
                });
            }
            _ => return None,
        }
        Some(Ok(()))
    }

    /// Write a CSR as a CSR instruction would (WARL rules and side effects, no access checks,
    /// nothing recorded). False for a CSR that does not exist.
    pub(crate) fn csr_set(&mut self, csr: u16, v: u64, d: &Insn) -> bool {
        self.csr_write::<false>(csr, v, d).is_ok()
    }

    /// Spike logs mvip (0x309) on every mip/sip write, from mip before the write (SSIP, STIP)
    /// and after it (SEIP).
    fn record_mvip<const REC: bool>(&mut self, old_mip: u64) {
        if REC {
            // mvip.STIP reads 0 while Sstc's STCE drives mip.STIP.
            let stip = if self.hart.csr.menvcfg & MENVCFG_STCE != 0 {
                0
            } else {
                MIP_STIP
            };
            let v = (self.hart.csr.mip & MIP_SEIP) | (old_mip & (stip | MIP_SSIP));
            self.rec.push_write(Reg::Csr(MVIP), v);
        }
    }
}
