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
        let old = match self.csr_read(csr) {
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
        match csr {
            FFLAGS | FRM | FCSR => self.hart.csr.fs() != FS_OFF,
            SATP => !(prv == Priv::S && self.hart.csr.mstatus & MSTATUS_TVM != 0),
            CYCLE..=HPMCOUNTER31 => {
                let bit = 1u32 << (csr - CYCLE);
                let m_ok = prv == Priv::M || self.hart.csr.mcounteren & bit != 0;
                let s_ok = prv != Priv::U || self.hart.csr.scounteren & bit != 0;
                m_ok && s_ok
            }
            _ => true,
        }
    }

    /// Read a CSR (access already checked). `None`: no such CSR.
    pub fn csr_read(&self, csr: u16) -> Option<u64> {
        let c = &self.hart.csr;
        let now = self.now();
        Some(match csr {
            FFLAGS => c.fflags as u64,
            FRM => c.frm as u64,
            FCSR => c.fcsr(),
            CYCLE | MCYCLE => self.hart.mcycle.value(now),
            INSTRET | MINSTRET => self.hart.minstret.value(now),
            TIME => self.bus.clint.mtime,
            HPMCOUNTER3..=HPMCOUNTER31 | MHPMCOUNTER3..=MHPMCOUNTER31 => 0,
            SSTATUS => c.mstatus_read() & SSTATUS_MASK,
            SIE => c.mie & c.mideleg,
            STVEC => c.stvec,
            SCOUNTEREN => c.scounteren as u64,
            SENVCFG => c.senvcfg,
            SSCRATCH => c.sscratch,
            SEPC => c.sepc,
            SCAUSE => c.scause,
            STVAL => c.stval,
            SIP => c.mip & c.mideleg,
            SATP => c.satp,
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
            MCOUNTINHIBIT => c.mcountinhibit as u64,
            MHPMEVENT3..=MHPMEVENT31 => c.mhpmevent[(csr - MHPMEVENT3) as usize],
            MSCRATCH => c.mscratch,
            MEPC => c.mepc,
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
            PMPADDR0..=PMPADDR63 => {
                let i = (csr - PMPADDR0) as usize;
                let v = c.pmpaddr.get(i).copied().unwrap_or(0);
                // NA4/NAPOT/TOR with G = 0 read back as written.
                v
            }
            _ => return None,
        })
    }

    /// Write a CSR (access already checked), with its WARL rules and side effects. Records the
    /// value written (as read back) when recording.
    fn csr_write<const REC: bool>(&mut self, csr: u16, v: u64, d: &Insn) -> Result<(), ()> {
        let now = self.now();
        let c = &mut self.hart.csr;
        // The CSRs to record after the write (read back), in place of `csr` itself.
        let mut log: [u16; 2] = [csr, 0];
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
            MCYCLE => self.hart.mcycle.set(v, now + 1),
            MINSTRET => self.hart.minstret.set(v, now + 1),
            MHPMCOUNTER3..=MHPMCOUNTER31 => log = [0, 0],
            SSTATUS => {
                c.mstatus = (c.mstatus & !SSTATUS_WRITABLE) | (v & SSTATUS_WRITABLE);
                log = [MSTATUS, 0];
                self.flush_tlb();
            }
            MSTATUS => {
                let mut n = (c.mstatus & !MSTATUS_WRITABLE) | (v & MSTATUS_WRITABLE);
                // MPP is WARL: the reserved value 2 becomes U.
                if (n & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT == 2 {
                    n &= !MSTATUS_MPP;
                }
                c.mstatus = n;
                self.flush_tlb();
            }
            SIE => {
                c.mie = (c.mie & !c.mideleg) | (v & c.mideleg);
                log = [SIE, MIE];
            }
            SIP => {
                let old = c.mip;
                let m = c.mideleg & MIP_SSIP;
                c.mip = (c.mip & !m) | (v & m);
                self.record_mvip::<REC>(old);
                log = [MIP, 0];
            }
            STVEC => c.stvec = v & !2,
            SCOUNTEREN => c.scounteren = v as u32,
            SENVCFG => c.senvcfg = v & 1,
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
            MEDELEG => c.medeleg = v & MEDELEG_WRITABLE,
            MIDELEG => c.mideleg = v & S_INTERRUPTS,
            MIE => c.mie = v & (S_INTERRUPTS | M_INTERRUPTS),
            MIP => {
                let old = c.mip;
                let m = S_INTERRUPTS;
                c.mip = (c.mip & !m) | (v & m);
                self.record_mvip::<REC>(old);
            }
            MTVEC => c.mtvec = v & !2,
            MCOUNTEREN => c.mcounteren = v as u32,
            MENVCFG => c.menvcfg = v & 1,
            MCOUNTINHIBIT => {
                c.mcountinhibit = (v as u32) & !2;
                let inh = c.mcountinhibit;
                self.hart.mcycle.inhibit(inh & 1 != 0, now);
                self.hart.minstret.inhibit(inh & 4 != 0, now);
            }
            MHPMEVENT3..=MHPMEVENT31 => c.mhpmevent[(csr - MHPMEVENT3) as usize] = v,
            MSCRATCH => c.mscratch = v,
            MEPC => c.mepc = v & !1,
            MCAUSE => c.mcause = v,
            MTVAL => c.mtval = v,
            PMPCFG0..=PMPCFG15 => {
                let first = ((csr - PMPCFG0) as usize) * 4;
                if first >= PMP_ENTRIES {
                    log = [0, 0];
                }
                for i in 0..8 {
                    let e = first + i;
                    if e >= PMP_ENTRIES || c.pmpcfg[e] & PMP_L != 0 {
                        continue;
                    }
                    let mut cfg = (v >> (8 * i)) as u8 & (PMP_R | PMP_W | PMP_X | PMP_A | PMP_L);
                    // R=0, W=1 is reserved: keep W clear.
                    if cfg & PMP_R == 0 {
                        cfg &= !PMP_W;
                    }
                    c.pmpcfg[e] = cfg;
                }
                self.tlb.set_pmp(&self.hart.csr);
                self.flush_tlb();
            }
            PMPADDR0..=PMPADDR63 => {
                let i = (csr - PMPADDR0) as usize;
                if i < PMP_ENTRIES {
                    let locked = c.pmpcfg[i] & PMP_L != 0;
                    let next_tor_locked = i + 1 < PMP_ENTRIES
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
            _ => {
                self.illegal(d);
                return Err(());
            }
        }
        if REC {
            for r in log.into_iter().filter(|&r| r != 0) {
                // A counter write takes effect after this instruction (which does not count):
                // record the value as it will read then.
                let val = match r {
                    MCYCLE => Some(self.hart.mcycle.value(now + 1)),
                    MINSTRET => Some(self.hart.minstret.value(now + 1)),
                    _ => self.csr_read(r),
                };
                if let Some(val) = val {
                    self.rec.push_write(Reg::Csr(r), val);
                }
            }
        }
        Ok(())
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
            let v = (self.hart.csr.mip & MIP_SEIP) | (old_mip & (MIP_STIP | MIP_SSIP));
            self.rec.push_write(Reg::Csr(MVIP), v);
        }
    }
}
