//! Taking traps and choosing interrupts (privileged spec 1.12 sections 3.1.6.1, 3.1.7, 3.1.9,
//! 3.3.1, 4.1.1).
//!
//! A trap goes to S-mode when the current privilege is S or U and the cause's bit is set in
//! medeleg (exceptions) or mideleg (interrupts); otherwise to M-mode. Interrupts for M-mode
//! are enabled below M always and in M when mstatus.MIE is set; delegated interrupts are
//! enabled in U always, in S when mstatus.SIE is set, and never in M. Among the enabled
//! pending interrupts, those for M-mode go first, then the priority order MEI, MSI, MTI, SEI,
//! SSI, STI, LCOFI.

use crate::csr::*;
use crate::exec::system::set_bit;
use crate::insn::Insn;
use crate::machine::Machine;
use crate::record::{Reg, RegWrite, Sink, TrapRecord};
use arch::{Cause, Interrupt, Priv};

impl Machine {
    /// The interrupt the hart would take now, if any.
    pub fn pending_interrupt(&self) -> Option<Interrupt> {
        let c = &self.hart.csr;
        let pending = c.mip & c.mie;
        if pending == 0 {
            return None;
        }
        let prv = self.hart.prv;
        let m_enabled = prv != Priv::M || c.mstatus & MSTATUS_MIE != 0;
        let s_enabled = prv == Priv::U || (prv == Priv::S && c.mstatus & MSTATUS_SIE != 0);
        let mut set = if m_enabled { pending & !c.mideleg } else { 0 };
        if set == 0 && s_enabled {
            set = pending & c.mideleg;
        }
        Interrupt::PRIORITY
            .into_iter()
            .find(|i| set & i.mask() != 0)
    }

    /// Where a trap with this cause would go now: (to S-mode?, handler address).
    fn trap_route(&self, cause: Cause) -> (bool, u64) {
        let c = &self.hart.csr;
        let code = cause.code();
        let deleg = if cause.is_interrupt() {
            c.mideleg
        } else {
            c.medeleg
        };
        let to_s = self.hart.prv != Priv::M && (deleg >> code) & 1 != 0;
        let tvec = if to_s { c.stvec } else { c.mtvec };
        let base = tvec & !3;
        let handler = if cause.is_interrupt() && tvec & 3 == 1 {
            base.wrapping_add(4 * code)
        } else {
            base
        };
        (to_s, handler)
    }

    /// The handler a trap with this cause would go to now.
    pub(crate) fn trap_target(&self, cause: Cause) -> u64 {
        self.trap_route(cause).1
    }

    /// Take a trap with the given cause, tval and epc: update the trap CSRs and mstatus, switch
    /// privilege and set the pc to the handler. Tells the sink.
    pub(crate) fn take_trap<S: Sink>(
        &mut self,
        cause: Cause,
        tval: u64,
        epc: u64,
        insn: Option<Insn>,
        sink: &mut S,
    ) {
        if S::WATCH {
            sink.watch(self, crate::record::At::Trap);
        }
        if cause.is_interrupt() && self.hart.trig.armed {
            self.trig_interrupt();
        }
        let tval = match cause {
            Cause::Exception(_) if (self.config.tval_zero >> cause.code()) & 1 != 0 => 0,
            _ => tval,
        };
        if !S::DETAIL.any() {
            self.hart.trig.log_trigger = false;
        }
        let from = self.hart.prv;
        let (to_s, handler) = self.trap_route(cause);
        let c = &mut self.hart.csr;
        let to = if to_s {
            c.scause = cause.xcause();
            c.sepc = epc;
            c.stval = tval;
            let s = c.mstatus;
            let s = set_bit(s, MSTATUS_SPIE, s & MSTATUS_SIE != 0);
            let s = set_bit(s, MSTATUS_SPP, from == Priv::S);
            c.mstatus = s & !MSTATUS_SIE;
            Priv::S
        } else {
            c.mcause = cause.xcause();
            c.mepc = epc;
            c.mtval = tval;
            let s = c.mstatus;
            let s = set_bit(s, MSTATUS_MPIE, s & MSTATUS_MIE != 0);
            let s = (s & !MSTATUS_MPP) | (from.bits() << MSTATUS_MPP_SHIFT);
            c.mstatus = s & !MSTATUS_MIE;
            Priv::M
        };
        self.trap_events(cause, epc, handler, from, to);
        self.set_priv(to);
        self.hart.pc = handler;
        if S::DETAIL.any() {
            let c = &self.hart.csr;
            let (epc_csr, cause_csr, tval_csr) = if to_s {
                (SEPC, SCAUSE, STVAL)
            } else {
                (MEPC, MCAUSE, MTVAL)
            };
            let t = TrapRecord {
                cause,
                tval,
                epc,
                from,
                to,
                handler,
                writes: [
                    RegWrite {
                        reg: Reg::Csr(epc_csr),
                        value: epc,
                    },
                    RegWrite {
                        reg: Reg::Csr(cause_csr),
                        value: cause.xcause(),
                    },
                    RegWrite {
                        reg: Reg::Csr(tval_csr),
                        value: tval,
                    },
                    RegWrite {
                        reg: Reg::Csr(MSTATUS),
                        value: c.mstatus_read(),
                    },
                ],
                insn,
                time: self.bus.clint.mtime,
                trigger: std::mem::take(&mut self.hart.trig.log_trigger),
            };
            sink.trap(&t);
        }
        // itrigger, etrigger: their breakpoint comes right after the trap, at its handler
        // (and is not looked at by them itself, as on Spike).
        let theirs = std::mem::take(&mut self.hart.trig.took_after_trap);
        if self.hart.trig.traps && !theirs {
            self.trig_after_trap(cause.xcause(), from);
        }
    }

    /// Recompute the PLIC's source from the UART's interrupt output and give the PLIC's lines
    /// to the hart: context 0 drives mip.MEIP, context 1 mip.SEIP. Called after every access
    /// to the UART or the PLIC (they may change a line) and at every quantum's end while the
    /// UART's receive interrupt is enabled (input may have come). MEIP is the line itself
    /// (read-only to software); SEIP is written when the line changes, so a value software
    /// wrote to mip.SEIP stays until then (as Spike's PLIC does).
    pub fn irq_update(&mut self) {
        self.bus.irq_dirty = false;
        let uart = self.bus.uart.irq_level();
        let plic = &mut self.bus.plic;
        plic.set_level(crate::bus::UART_IRQ, uart);
        // The running hart's contexts: 2h (M) and 2h + 1 (S).
        let c = 2 * self.cur;
        let (m, s) = (plic.line(c), plic.line(c + 1));
        let mut mip = self.hart.csr.mip & !MIP_MEIP;
        if m {
            mip |= MIP_MEIP;
        }
        if s != plic.lines[c + 1] {
            mip = (mip & !MIP_SEIP) | if s { MIP_SEIP } else { 0 };
        }
        plic.lines[c] = m;
        plic.lines[c + 1] = s;
        self.hart.csr.mip = mip;
    }

    /// Recompute mip.MTIP and mip.MSIP from the CLINT (the running hart's registers).
    pub fn clint_changed(&mut self) {
        let clint = &self.bus.clint;
        let h = self.cur;
        let mut mip = self.hart.csr.mip & !(MIP_MTIP | MIP_MSIP);
        if clint.mtime >= clint.mtimecmp[h] {
            mip |= MIP_MTIP;
        }
        if clint.msip[h] {
            mip |= MIP_MSIP;
        }
        self.hart.csr.mip = mip;
        self.sstc_sync();
        if self.config.sbi {
            self.sbi_timer_check();
        }
    }

    /// Sstc: with menvcfg.STCE, mip.STIP is `time >= stimecmp`. Spike recomputes it when
    /// its time is synchronised with mtime (each quantum's end and every CLINT access) and
    /// when stimecmp is written; with STCE clear STIP is left as software wrote it.
    #[inline]
    pub(crate) fn sstc_sync(&mut self) {
        let c = &mut self.hart.csr;
        if self.config.isa.sstc && c.menvcfg & MENVCFG_STCE != 0 {
            c.mip = if self.bus.clint.mtime >= c.stimecmp {
                c.mip | MIP_STIP
            } else {
                c.mip & !MIP_STIP
            };
        }
    }
}
