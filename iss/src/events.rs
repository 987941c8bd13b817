//! What the hart tells its PMU and its Control Transfer Records about the instructions it
//! retires (docs/pmu.md "Integration", docs/ctr.md).
//!
//! Nothing here costs an untraced run anything unless it is needed:
//!
//! - **Instructions and cycles** are brought into the PMU's totals lazily ([`Machine::pmu_sync`]):
//!   the privilege only changes at traps and xRETs, so every instruction retired since the
//!   last sync ran in the current privilege. The sync happens before every privilege change,
//!   before every access to a counter, and at the end of every chunk of execution. A counter
//!   that can overflow (Sscofpmf) shortens the chunk to the instruction that overflows it
//!   ([`Machine::pmu_horizon`]), so LCOFI is raised exactly there.
//! - **Per-run work** ([`Machine::account_run`]) is switched on by [`Machine::update_hooks`]
//!   only when a counter counts an instruction class (loads, stores, atomics, FP operations,
//!   branches, jumps, calls, returns), when a PMU model runs, or when CTR may record. A run is
//!   straight-line code ending at most at one control transfer, so a run's classes come from
//!   its block's precomputed counts (kept in the block's end marker) and its transfer from its
//!   last instruction. CSR instructions start blocks of their own, so a counter read sees every
//!   instruction before it.

use crate::classify;
use crate::csr::MIP_LCOFIP;
use crate::insn::{Insn, Op};
use crate::machine::Machine;
use arch::{Cause, Priv};
use pmu::{AccessKind, Class};

/// An instruction's PMU class, as the block's end marker counts them: 0 none, 1 load, 2
/// store, 3 atomic, 4 FP operation.
#[inline]
pub(crate) fn op_class(op: Op) -> u8 {
    use Op::*;
    match op {
        Lb | Lh | Lw | Ld | Lbu | Lhu | Lwu | Flw | Fld => 1,
        Sb | Sh | Sw | Sd | Fsw | Fsd => 2,
        LrW | ScW | LrD | ScD => 3,
        o if (AmoswapW..=AmomaxuW).contains(&o) || (AmoswapD..=AmomaxuD).contains(&o) => 3,
        o if (FmaddS..=FmvWX).contains(&o) || (FmaddD..=FmvDX).contains(&o) => 4,
        _ => 0,
    }
}

/// The block end marker's class counts: loads, stores, atomics, FP operations of the block.
#[inline(always)]
pub(crate) fn marker_counts(m: &Insn) -> [u8; 4] {
    [m.rd, m.rs1, m.rs2, m.rs3]
}

/// Store a block's class counts in its end marker.
pub(crate) fn set_marker_counts(m: &mut Insn, block: &[Insn]) {
    let mut c = [0u8; 5];
    for d in block {
        c[op_class(d.op) as usize] += 1;
    }
    (m.rd, m.rs1, m.rs2, m.rs3) = (c[1], c[2], c[3], c[4]);
}

const CLASSES: [Class; 4] = [Class::Loads, Class::Stores, Class::Atomics, Class::FpOps];

/// The classes whose counting needs per-run work (everything but instructions, cycles, traps
/// and misaligned accesses, which the hart reports anyway).
fn per_run_classes() -> u64 {
    [
        Class::Loads,
        Class::Stores,
        Class::Atomics,
        Class::FpOps,
        Class::BranchesTaken,
        Class::BranchesNotTaken,
        Class::Jumps,
        Class::Calls,
        Class::Returns,
    ]
    .iter()
    .fold(0, |m, c| m | c.bit())
}

impl Machine {
    /// Decide whether runs need accounting; call after anything that can change it (PMU and
    /// CTR CSR writes, SBI PMU calls, configuration).
    pub(crate) fn update_hooks(&mut self) {
        let pmu = &self.hart.pmu;
        let models = pmu.models_on();
        let classes = pmu.live_classes() & per_run_classes() != 0;
        let ctr = self.hart.ctr.as_ref().is_some_and(|c| c.active());
        if models && !self.models {
            // Data accesses must take the slow path, which reports them to the models.
            self.flush_tlb();
        }
        self.models = models;
        self.hooks = models || classes || ctr;
    }

    /// Bring the PMU's instruction totals up to date: every instruction retired since the last
    /// sync ran in the current privilege.
    #[inline]
    pub(crate) fn pmu_sync(&mut self) {
        let now = self.now();
        let n = now.wrapping_sub(self.pmu_synced);
        if n != 0 {
            self.pmu_synced = now;
            let prv = self.hart.prv;
            self.hart.pmu.retire(prv, n);
        }
    }

    /// After instructions retired: look for counter overflows (the countdown makes this one
    /// compare until one is possible) and raise LCOFI. True when it was raised.
    #[inline]
    pub(crate) fn pmu_after(&mut self, n: u64) -> bool {
        if self.hart.pmu.after_run(n) && self.config.sscofpmf {
            self.hart.csr.mip |= MIP_LCOFIP;
            return true;
        }
        false
    }

    /// How many instructions may run before a counter can overflow.
    #[inline]
    pub(crate) fn pmu_horizon(&self) -> u64 {
        if self.config.sscofpmf && self.hart.pmu.armed() {
            self.hart.pmu.overflow_horizon()
        } else {
            u64::MAX
        }
    }

    /// The cost model's cycle count now (instructions retired plus penalties), for CTR.
    #[inline]
    pub(crate) fn cycles_now(&mut self) -> u64 {
        self.pmu_sync();
        self.hart.pmu.cycle_total()
    }

    /// Account for a run: `n` instructions of `a` from index `k`, the first at `pc`, `bytes`
    /// long, which ran in privilege `prv`. `npc` is what the chain returned (the target of a
    /// transfer that ended the run, or a sentinel). `block_start`: `a[k]` starts its block (a
    /// run that reaches the block's end then covers the whole block). True when LCOFI was
    /// raised.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(crate) fn account_run(
        &mut self,
        a: &[Insn],
        k: usize,
        n: usize,
        pc: u64,
        bytes: u64,
        npc: u64,
        prv: Priv,
        block_start: bool,
    ) -> bool {
        if n == 0 {
            return false;
        }
        let end = &a[k + n];
        let t = self.hart.pmu.totals_mut(prv);
        if block_start && end.op == Op::NotDecoded && end.imm != 0 {
            for (c, v) in CLASSES.iter().zip(marker_counts(end)) {
                t[*c as usize] += v as u64;
            }
        } else {
            for d in &a[k..k + n] {
                let c = op_class(d.op);
                if c != 0 {
                    t[CLASSES[c as usize - 1] as usize] += 1;
                }
            }
        }
        let last = &a[k + n - 1];
        let last_pc = pc + bytes - last.len as u64;
        if self.models {
            let pa = self.fetch_page.1.wrapping_add(pc - self.fetch_page.0);
            let asid = self.asid();
            self.hart.pmu.fetch(prv, pc, pa, bytes, asid);
        }
        if classify::is_transfer(last.op) && !matches!(last.op, Op::Mret | Op::Sret) {
            let taken = match last.op {
                Op::Jal | Op::Jalr => true,
                _ => self.branch_taken(last),
            };
            let target = if taken {
                npc
            } else {
                last_pc + last.len as u64
            };
            self.transfer(last, last_pc, target, taken, prv);
        }
        self.pmu_sync();
        self.pmu_after(n as u64)
    }

    /// One retired control transfer (or not-taken branch) to the PMU and CTR.
    fn transfer(&mut self, d: &Insn, pc: u64, target: u64, taken: bool, prv: Priv) {
        let it = classify::itype(d, taken);
        if let Some(c) = Class::of_itype(it) {
            self.hart.pmu.count(prv, c, 1);
        }
        let misp = self.models && self.hart.pmu.branch(prv, pc, d.len as u64, target, it);
        if self.hart.ctr.as_ref().is_some_and(|c| c.active()) {
            let ty = classify::ctr_type(d, taken);
            let cycles = self.cycles_now();
            if let Some(c) = self.hart.ctr.as_mut() {
                c.transfer(pc, target, ty, prv, misp, cycles);
            }
        }
    }

    /// Whether conditional branch `d` (just executed: branches write no register) was taken.
    fn branch_taken(&self, d: &Insn) -> bool {
        let (a, b) = (self.rs1(d), self.rs2(d));
        match d.op {
            Op::Beq => a == b,
            Op::Bne => a != b,
            Op::Blt => (a as i64) < (b as i64),
            Op::Bge => (a as i64) >= (b as i64),
            Op::Bltu => a < b,
            _ => a >= b,
        }
    }

    /// The ASID of translated accesses, None for bare or M-mode accesses.
    fn asid(&self) -> Option<u16> {
        let c = &self.hart.csr;
        (self.hart.prv != Priv::M && c.satp_mode() != crate::csr::SATP_MODE_BARE)
            .then_some((c.satp >> 44) as u16)
    }

    /// A trap is being taken from `from` to `to`: the PMU counts it, CTR records or freezes.
    pub(crate) fn trap_events(
        &mut self,
        cause: Cause,
        epc: u64,
        handler: u64,
        from: Priv,
        to: Priv,
    ) {
        self.pmu_sync();
        self.hart.pmu.trap_taken(from, cause.is_interrupt());
        if self.hart.ctr.as_ref().is_some_and(|c| c.active()) {
            let cycles = self.hart.pmu.cycle_total();
            if let Some(c) = self.hart.ctr.as_mut() {
                c.trap(epc, handler, from, to, cause, cycles);
            }
            self.update_hooks();
        }
    }

    /// An MRET or SRET at `pc` to `target`, from `from` to `to`.
    pub(crate) fn xret_events(&mut self, pc: u64, target: u64, from: Priv, to: Priv) {
        if self.hart.ctr.as_ref().is_some_and(|c| c.active()) {
            let cycles = self.cycles_now();
            if let Some(c) = self.hart.ctr.as_mut() {
                c.xret(pc, target, from, to, cycles);
            }
        }
    }

    /// What CTR's CSR accesses depend on (Smstateen is implemented whenever CTR is).
    pub(crate) fn ctr_ctx(&mut self) -> ctr::AccessCtx {
        ctr::AccessCtx {
            mstateen0: self.hart.csr.mstateen0,
            now_cycles: self.cycles_now(),
        }
    }

    /// The same for a read outside an instruction (the cycle count as of the last sync).
    pub(crate) fn ctr_ctx_ro(&self) -> ctr::AccessCtx {
        ctr::AccessCtx {
            mstateen0: self.hart.csr.mstateen0,
            now_cycles: self.hart.pmu.cycle_total(),
        }
    }

    /// A misaligned load, store or AMO in the current data privilege.
    #[cold]
    pub(crate) fn misaligned_event(&mut self) {
        let prv = self.data_priv();
        self.hart.pmu.count(prv, Class::Misaligned, 1);
    }

    /// A data access for the PMU's models (only called when they run).
    pub(crate) fn data_event(&mut self, va: u64, pa: u64, kind: AccessKind, size: u8) {
        let prv = self.data_priv();
        let asid = if prv != Priv::M && self.hart.csr.satp_mode() != crate::csr::SATP_MODE_BARE {
            Some((self.hart.csr.satp >> 44) as u16)
        } else {
            None
        };
        self.hart
            .pmu
            .data_access(prv, va, pa, kind, size as u64, asid);
    }
}
