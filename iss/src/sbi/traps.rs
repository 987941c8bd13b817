//! The exceptions other than `ecall` that reach the SBI: those medeleg does not delegate
//! (OpenSBI's `sbi_trap_handler`), raised in S or U mode.
//!
//! | cause | firmware event | what happens |
//! |---|---|---|
//! | 4 misaligned load, 6 misaligned store of a load or store instruction (integer or FP) | MISALIGNED_LOAD / MISALIGNED_STORE | emulated (OpenSBI's misaligned handler): the access is done byte by byte with the privilege, translation and permissions of the mode that made it; a fault on the way is taken instead, with the address of the byte in tval |
//! | 4, 6 from LR, SC or an AMO | MISALIGNED_LOAD / MISALIGNED_STORE | redirected (OpenSBI does not emulate atomics) |
//! | 2 illegal instruction | ILLEGAL_INSN | redirected. OpenSBI first tries to emulate CSR reads of the counters; here mcounteren is all ones and `time` is implemented, so the only counter reads that trap are U-mode reads scounteren forbids, which OpenSBI redirects too |
//! | 5 load access fault, 7 store access fault | ACCESS_LOAD / ACCESS_STORE | redirected |
//! | 1 fetch access fault, anything else | — | redirected |
//!
//! A redirect is `sbi_trap_redirect`: scause, sepc and stval as the exception had them, SPP the
//! mode it came from, SPIE = SIE, SIE = 0, pc = stvec (its base: exceptions are never
//! vectored); the trap's records and counting are those of a trap to S-mode.

use super::SbiTrap;
use crate::events::op_class;
use crate::insn::Insn;
use crate::machine::{Machine, Misaligned};
use crate::record::Sink;
use arch::Exception;
use pmu::{prv_index, Class, FwEvent};

impl Machine {
    pub(super) fn sbi_exception<S: Sink>(
        &mut self,
        e: Exception,
        pc: u64,
        d: &Insn,
        sink: &mut S,
    ) -> SbiTrap {
        let fw = match e {
            Exception::LoadAddressMisaligned => Some(FwEvent::MisalignedLoad),
            Exception::StoreAddressMisaligned => Some(FwEvent::MisalignedStore),
            Exception::IllegalInstruction => Some(FwEvent::IllegalInsn),
            Exception::LoadAccessFault => Some(FwEvent::AccessLoad),
            Exception::StoreAccessFault => Some(FwEvent::AccessStore),
            _ => None,
        };
        if let Some(f) = fw {
            self.hart.pmu.fw_event(f);
        }
        let misaligned = matches!(
            e,
            Exception::LoadAddressMisaligned | Exception::StoreAddressMisaligned
        );
        // Loads and stores (class 1 and 2) are emulated; atomics (3) are not.
        if misaligned && matches!(op_class(d.op), 1 | 2) {
            return self.sbi_emulate_misaligned(pc, d, sink);
        }
        SbiTrap::Redirect
    }

    /// Do the misaligned load or store `d` at `pc` as the firmware would.
    fn sbi_emulate_misaligned<S: Sink>(&mut self, pc: u64, d: &Insn, sink: &mut S) -> SbiTrap {
        let prv = self.hart.prv;
        self.pmu_sync();
        self.hart.pmu.trap_taken(prv, false);
        // The instruction runs again with misaligned accesses done in hardware. It counts as
        // the trap it raised (already counted, misaligned access included), not as retired.
        let misaligned = self.hart.pmu.totals[prv_index(prv)][Class::Misaligned as usize];
        let (budget, start) = (self.sched.budget, self.sched.budget_start);
        let saved = self.config.misaligned;
        self.config.misaligned = Misaligned::Emulate;
        let r = if S::DETAIL.records() {
            self.exec::<true>(d, pc)
        } else {
            self.exec::<false>(d, pc)
        };
        self.config.misaligned = saved;
        self.hart.pmu.totals[prv_index(prv)][Class::Misaligned as usize] = misaligned;
        (self.sched.budget, self.sched.budget_start) = (budget, start);
        if r == crate::exec::TRAP {
            self.hart.pc = pc;
            return SbiTrap::Retry;
        }
        let next = pc.wrapping_add(d.len as u64);
        self.hart.pc = next;
        self.sbi_retired(pc, d, next, sink);
        self.pmu_after(0);
        SbiTrap::Done(super::Then::Return)
    }
}
