//! Recording: qualification, transfer-type filtering, the privilege-transition table, external
//! traps, RAS emulation, freeze, and the WRPTR/WRAP updates.
//!
//! Spec sections (0.1.4 numbering; the 1.0 text has the same structure): chapter 5 (qualified
//! transfers), 5.1 (privilege mode transitions and their table), 5.2 (filtering), 5.2.1
//! (external traps), 5.3 (cycle counting), 5.4 (RAS emulation), 5.5 (freeze).

use crate::bits::{self, entry::MISP, entry::V};
use crate::{Ctr, Entry, Layout};
use arch::{Cause, Exception, Interrupt, Itype, Priv};

/// What an event did to the array (for tests, statistics and tracing; the hart may ignore it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A record was written at logical entry 0 and WRPTR advanced.
    Recorded,
    /// RAS emulation: a function return popped logical entry 0 (WRPTR decremented).
    Popped,
    /// RAS emulation: a co-routine swap overwrote logical entry 0 (WRPTR unchanged).
    Replaced,
    /// The trap set FROZEN (LCOFI with LCOFIFRZ, breakpoint with BPFRZ) and was not recorded.
    Frozen,
    /// Nothing recorded.
    Ignored,
}

impl Ctr {
    /// A retired control-transfer instruction in privilege mode `prv`: a branch (taken:
    /// [`Itype::TakenBranch`]; not taken: [`Itype::NontakenBranch`] with `target_pc` the next
    /// sequential pc) or a jump (itypes 8..=15, the 4-bit encoding from the hart's classifier).
    /// Traps and trap returns go through [`Ctr::trap`] and [`Ctr::xret`]; itypes 0..=3, 6 and 7
    /// are ignored here, and [`Itype::None`] (no transfer) changes nothing at all, so that a
    /// caller may report every run without testing whether it ended in a transfer. `misp` is
    /// the branch predictor's verdict (ignored unless [`crate::CtrConfig::misp`]).
    /// `now_cycles` is the PMU cycle count, monotonic.
    ///
    /// Qualification (chapter 5): `prv` enabled, FROZEN clear, type not inhibited (NTBREN
    /// opts in to not-taken branches, the *INH bits opt out). With RASEMU (5.4) calls are
    /// recorded, returns pop, co-routine swaps overwrite entry 0, everything else is
    /// inhibited, and the filter bits are ignored.
    #[inline(always)]
    pub fn transfer(
        &mut self,
        src_pc: u64,
        target_pc: u64,
        ty: Itype,
        prv: Priv,
        misp: bool,
        now_cycles: u64,
    ) -> Outcome {
        // The common case, from a cache of the checks below: the mode has not changed since
        // the last event (so the elapsed cycles count), records, and wants this type.
        //
        // Such records are only noted ([`Ctr::flush`] writes them to the array in bulk): while
        // the mode stays the same and nothing else happens to CTR, which would flush first,
        // every cycle between them is qualified, so each record's cycle count is the time since
        // the one before, and only the last `depth` of them stay in the array.
        let gate = self.gate[prv.bits() as usize];
        if gate & crate::GATE_OPEN != 0 {
            let wanted = u64::from(gate >> ty.code()) & 1;
            if gate & crate::GATE_DEFER != 0 {
                self.note(src_pc, target_pc, ty, misp, now_cycles, wanted);
            } else {
                self.cc.settle(now_cycles, true);
                if wanted != 0 {
                    self.push(src_pc, target_pc, ty, misp);
                }
            }
            return if wanted != 0 {
                Outcome::Recorded
            } else {
                Outcome::Ignored
            };
        }
        self.transfer_slow(src_pc, target_pc, ty, prv, misp, now_cycles)
    }

    /// [`Ctr::transfer`] (not mispredicted) when it takes its fast path with deferred records,
    /// which is one load and no call; false, having done nothing, for anything else (call
    /// `transfer` then). For callers that must not make a call on their common path.
    ///
    /// `FIXED`: the caller's `ty` is fixed where this is inlined (a branch handler's taken or
    /// not-taken path), so whether the type is wanted is a branch on the settings alone, which
    /// predicts, and a transfer not wanted (a not-taken branch without NTBREN, the common
    /// case) writes nothing. Otherwise the record is written whether wanted or not, and kept
    /// only if wanted: no branch on a type that follows the program's branches.
    #[inline(always)]
    pub fn transfer_noted<const FIXED: bool>(
        &mut self,
        src_pc: u64,
        target_pc: u64,
        ty: Itype,
        prv: Priv,
        now_cycles: u64,
    ) -> bool {
        const BOTH: u32 = crate::GATE_OPEN | crate::GATE_DEFER;
        let gate = self.gate[prv.bits() as usize];
        if gate & BOTH != BOTH {
            return false;
        }
        let wanted = u64::from(gate >> ty.code()) & 1;
        if !FIXED {
            self.note(src_pc, target_pc, ty, false, now_cycles, wanted);
        } else if wanted != 0 {
            self.note(src_pc, target_pc, ty, false, now_cycles, 1);
        }
        true
    }

    /// Note a record for [`Ctr::flush`]: written whether wanted or not, kept only if
    /// `wanted` (1): no branch on the type, which follows the program's branches. (The ring
    /// overwrites records older than any flush can need.)
    #[inline(always)]
    fn note(&mut self, src: u64, target: u64, ty: Itype, misp: bool, now: u64, wanted: u64) {
        self.pending[self.pending_len & (crate::PENDING - 1)] = crate::Pending {
            source: src,
            target,
            ty_misp: u64::from(ty.code()) | (u64::from(misp) << 63),
            cycles: now,
        };
        self.pending_len += wanted as usize;
    }

    /// Write the records noted on [`Ctr::transfer`]'s fast path to the array. Every other
    /// operation that changes CTR does this first; call it before reading CTR state
    /// ([`Ctr::csr_read`], [`Ctr::ireg_read`], [`Ctr::entries`]...) after transfers.
    pub fn flush(&mut self) {
        let n = self.pending_len;
        if n == 0 {
            return;
        }
        let depth = self.depth();
        let w = usize::from(self.wrptr);
        // Only the last `depth` records stay; each one's cycle count is the time since the
        // record before it (the first: the count so far plus the time since the last settle).
        let first = n.saturating_sub(depth);
        for j in first..n {
            let p = self.pending[j & (crate::PENDING - 1)];
            let data = if self.cfg.cycle_counting {
                if j == first {
                    let before = if first == 0 {
                        self.cc
                            .count
                            .saturating_add(p.cycles.saturating_sub(self.cc.mark))
                    } else {
                        p.cycles
                            .saturating_sub(self.pending[(j - 1) & (crate::PENDING - 1)].cycles)
                    };
                    let ccv = if first == 0 && self.cc.invalid {
                        0
                    } else {
                        bits::entry::CCV
                    };
                    (u64::from(crate::cycles::encode(before, self.cfg.cce_bits))
                        << bits::entry::CC_SHIFT)
                        | ccv
                } else {
                    let c = p
                        .cycles
                        .saturating_sub(self.pending[(j - 1) & (crate::PENDING - 1)].cycles);
                    (u64::from(crate::cycles::encode(c, self.cfg.cce_bits))
                        << bits::entry::CC_SHIFT)
                        | bits::entry::CCV
                }
            } else {
                0
            };
            let misp = if p.ty_misp >> 63 != 0 && self.cfg.misp {
                MISP
            } else {
                0
            };
            self.entries[(w + j) % depth] = Entry {
                source: (p.source & !V) | V,
                target: (p.target & !MISP) | misp,
                data: (p.ty_misp & bits::entry::TYPE) | data,
            };
        }
        if w + n >= depth && self.cfg.layout == Layout::Draft014 {
            self.wrap = true;
        }
        self.wrptr = ((w + n) % depth) as u8;
        let last = self.pending[(n - 1) & (crate::PENDING - 1)].cycles;
        self.cc.count = 0;
        self.cc.mark = self.cc.mark.max(last);
        self.cc.invalid = false;
        self.pending_len = 0;
    }

    #[inline(never)]
    fn transfer_slow(
        &mut self,
        src_pc: u64,
        target_pc: u64,
        ty: Itype,
        prv: Priv,
        misp: bool,
        now_cycles: u64,
    ) -> Outcome {
        if ty == Itype::None {
            return Outcome::Ignored;
        }
        self.flush();
        self.settle_in(prv, now_cycles);
        if !self.recording_in(prv) {
            return Outcome::Ignored;
        }
        if self.ctl_has(self.bits.rasemu) {
            return match ty {
                Itype::UninferableCall | Itype::InferableCall => {
                    self.push(src_pc, target_pc, ty, misp);
                    Outcome::Recorded
                }
                Itype::Return => {
                    self.pop();
                    Outcome::Popped
                }
                Itype::CoroutineSwap => {
                    self.replace(src_pc, target_pc, ty, misp);
                    Outcome::Replaced
                }
                _ => Outcome::Ignored,
            };
        }
        if !self.wanted(ty) {
            return Outcome::Ignored;
        }
        self.push(src_pc, target_pc, ty, misp);
        Outcome::Recorded
    }

    /// Whether the filters let a transfer of type `ty` be recorded (RAS emulation aside).
    pub(crate) fn wanted(&self, ty: Itype) -> bool {
        match ty {
            // Opt in (5.2: "the polarity of ... NTBREN is the opposite").
            Itype::NontakenBranch => self.ctl_has(bits::NTBREN),
            Itype::TakenBranch
            | Itype::UninferableCall
            | Itype::InferableCall
            | Itype::UninferableTailCall
            | Itype::InferableTailCall
            | Itype::CoroutineSwap
            | Itype::Return
            | Itype::OtherUninferableJump
            | Itype::OtherInferableJump => !self.inhibited(ty),
            // Not instruction transfers CTR records through this call.
            Itype::None
            | Itype::Exception
            | Itype::Interrupt
            | Itype::TrapReturn
            | Itype::UninferableJump
            | Itype::Reserved7 => false,
        }
    }

    /// A trap taken from mode `from` (at `src_pc`, the future xepc) to mode `to` (at
    /// `target_pc`, the handler). Call it once per trap, when the trap is taken; it performs
    /// freeze itself (5.5): an LCOFI ([`Interrupt::CounterOverflow`]) with LCOFIFRZ, or a
    /// breakpoint exception ([`Exception::Breakpoint`], whatever raised it) with BPFRZ, sets
    /// FROZEN and is not recorded. Entry into Debug mode is not a trap: do not report it.
    ///
    /// Otherwise the privilege-transition table of 5.1 decides, with FROZEN, RASEMU (which
    /// inhibits traps) and EXCINH/INTRINH applying to traps into an enabled mode; a trap from
    /// an enabled to a disabled mode is an external trap (5.2.1), recorded with target pc 0
    /// when opted in: ETEN and the target mode's xTE in 0.1.4; in 1.0 the xTE of the target
    /// mode and of every mode in between, regardless of EXCINH/INTRINH.
    pub fn trap(
        &mut self,
        src_pc: u64,
        target_pc: u64,
        from: Priv,
        to: Priv,
        cause: Cause,
        now_cycles: u64,
    ) -> Outcome {
        self.flush();
        self.settle_in(to, now_cycles);
        if from == Priv::Debug || to == Priv::Debug {
            return Outcome::Ignored;
        }
        let freeze = match cause {
            Cause::Interrupt(Interrupt::CounterOverflow) => self.ctl_has(self.bits.lcofifrz),
            Cause::Exception(Exception::Breakpoint) => self.ctl_has(self.bits.bpfrz),
            _ => false,
        };
        if freeze {
            self.frozen = true;
            self.refresh();
            return Outcome::Frozen;
        }
        if self.frozen || self.ctl_has(self.bits.rasemu) {
            return Outcome::Ignored;
        }
        let ty = if cause.is_interrupt() {
            Itype::Interrupt
        } else {
            Itype::Exception
        };
        let (src, dst) = match (self.mode_enabled(from), self.mode_enabled(to)) {
            (true, true) if !self.inhibited(ty) => (src_pc, target_pc),
            (false, true) if !self.inhibited(ty) => (0, target_pc),
            (true, false) if self.external_trap_enabled(from, to) => (src_pc, 0),
            _ => return Outcome::Ignored,
        };
        self.push(src, dst, ty, false);
        Outcome::Recorded
    }

    /// A trap return (MRET, SRET; itype 3) from mode `from` at `src_pc` to mode `to` at
    /// `target_pc`. Table of 5.1: recorded between enabled modes; from an enabled mode to a
    /// disabled one recorded with target pc 0; from a disabled mode never. FROZEN, RASEMU and
    /// TRETINH inhibit it.
    pub fn xret(
        &mut self,
        src_pc: u64,
        target_pc: u64,
        from: Priv,
        to: Priv,
        now_cycles: u64,
    ) -> Outcome {
        self.flush();
        self.settle_in(to, now_cycles);
        if self.frozen
            || self.ctl_has(self.bits.rasemu)
            || self.inhibited(Itype::TrapReturn)
            || !self.mode_enabled(from)
        {
            return Outcome::Ignored;
        }
        let dst = if self.mode_enabled(to) { target_pc } else { 0 };
        self.push(src_pc, dst, Itype::TrapReturn, false);
        Outcome::Recorded
    }

    /// The *INH filter bit for an itype is set.
    #[inline]
    fn inhibited(&self, ty: Itype) -> bool {
        self.ctl & (1u64 << (bits::FILTER_SHIFT + u32::from(ty.code()))) != 0
    }

    /// External-trap opt-in for a trap from enabled `from` to disabled `to`.
    fn external_trap_enabled(&self, from: Priv, to: Priv) -> bool {
        let b = self.bits;
        let te = |m: Priv| match m {
            Priv::M => self.ctl_has(b.mte),
            Priv::S => self.ctl_has(b.ste),
            _ => false,
        };
        match self.cfg.layout {
            // 5.2.1: "only if both ETEN=1 and xTE=1, such that x is the target privilege mode".
            Layout::Draft014 => self.ctl_has(b.eten) && te(to),
            // 1.0 "External Traps": the target mode's xTE and those of intervening modes
            // (U->S: STE; U->M: MTE, STE; S->M: MTE).
            Layout::Ratified10 => {
                [Priv::S, Priv::M]
                    .into_iter()
                    .filter(|&m| from < m && m <= to)
                    .all(te)
                    && to > from
            }
        }
    }

    /// Write a record at WRPTR and advance it (wrapping, and setting WRAP in 0.1.4).
    #[inline(always)]
    fn push(&mut self, src: u64, dst: u64, ty: Itype, misp: bool) {
        let data = u64::from(ty.code()) | self.take_cc();
        let misp = if misp && self.cfg.misp { MISP } else { 0 };
        self.entries[usize::from(self.wrptr)] = Entry {
            source: (src & !V) | V,
            target: (dst & !MISP) | misp,
            data,
        };
        if usize::from(self.wrptr) == self.depth() - 1 {
            self.wrptr = 0;
            self.wrap = self.cfg.layout == Layout::Draft014;
        } else {
            self.wrptr += 1;
        }
    }

    /// RAS emulation, function return: decrement WRPTR, then clear V of the entry it now
    /// points at (the old logical entry 0, which becomes logical entry depth-1). WRAP is
    /// cleared when WRPTR was 0 (0.1.4 section 2.4).
    fn pop(&mut self) {
        if self.wrptr == 0 {
            self.wrptr = (self.depth() - 1) as u8;
            self.wrap = false;
        } else {
            self.wrptr -= 1;
        }
        let popped = self.entries[usize::from(self.wrptr)];
        self.entries[usize::from(self.wrptr)].source &= !V;
        self.absorb_popped(popped);
    }

    /// RAS emulation, co-routine swap: "affects both a return and a call": logical entry 0 is
    /// overwritten and WRPTR is unchanged.
    fn replace(&mut self, src: u64, dst: u64, ty: Itype, misp: bool) {
        let at = self.physical(0);
        let popped = self.entries[at];
        self.absorb_popped(popped);
        let data = u64::from(ty.code()) | self.take_cc();
        let misp = if misp && self.cfg.misp { MISP } else { 0 };
        self.entries[at] = Entry {
            source: (src & !V) | V,
            target: (dst & !MISP) | misp,
            data,
        };
    }

    /// RAS emulation and cycle counting (5.4 note): a return that pops a call does not reset
    /// the counter but adds the popped entry's CC to it, so that the next call's CC still
    /// spans the time since the record now at logical entry 0. A popped entry with no usable
    /// count (V = 0 or CCV = 0) makes the next record's CCV 0.
    fn absorb_popped(&mut self, popped: Entry) {
        if !self.cfg.cycle_counting {
            return;
        }
        let view = popped.view(0);
        match (view.valid, view.cycles) {
            (true, Some(c)) => self.cc.count = self.cc.count.saturating_add(c),
            _ => self.cc.invalid = true,
        }
    }

    /// CCV/CC bits for a new record, restarting the counter.
    #[inline]
    fn take_cc(&mut self) -> u64 {
        if self.cfg.cycle_counting {
            self.cc.take(self.cfg.cce_bits)
        } else {
            0
        }
    }
}
