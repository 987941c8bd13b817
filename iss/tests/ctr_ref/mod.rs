//! An independent reference for Control Transfer Records, computed from the hart's retired
//! instruction stream (a full-record [`Sink`]): what the CTR array must hold, written from the
//! spec text (Smctr/Ssctr draft 0.1.4 chapter 5 and the ratified 1.0 facts in
//! `../shared/specs/README.md`), sharing no code with the `ctr` crate or the hart's classifier.
//!
//! - Transfer types come from the raw instruction bits (E-Trace itype rules: link registers x1
//!   and x5; jumps linking nothing are the tail-call types 10 and 11).
//! - The array is kept as the spec defines it: physical entries and WRPTR, logical entry x at
//!   physical (WRPTR - 1 - x) mod depth.
//! - Qualification, the privilege-transition table (5.1), external traps (0.1.4: ETEN and the
//!   target's xTE; 1.0: the xTE of every mode crossed), RAS emulation (5.4), freeze on LCOFI
//!   and breakpoints (5.5), and qualified cycles: every retired instruction counts one cycle
//!   (the cost model without its models) in the mode it executed in, unless that mode does not
//!   record or CTR is frozen; a record takes the count (its own instruction included); a
//!   control write restarts it with CCV = 0 next; a RAS pop adds the popped entry's decoded
//!   count (interpretation 7 of docs/ctr.md).
//! - The configuration is followed from the CSR writes the records carry (control, status,
//!   1.0 sctrdepth) and SCTRCLR. Not followed: 0.1.4 CLR (it reads back 0, so the records
//!   cannot show it), depth changes once recording started, writes to entries.
//!
//! Used by tests/ctr_random.rs (random programs) and tests/ctr.rs (the profiling example).
#![allow(dead_code)]

use iss::record::Reg;
use iss::Detail;
use iss::{Cause, Exception, Interrupt, Priv, Retired, Sink, TrapRecord};

/// One entry as the reference holds it (`valid` is ctrsource.V).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RefEntry {
    pub valid: bool,
    pub source: u64,
    pub target: u64,
    pub ty: u8,
    pub ccv: bool,
    pub cc: u16,
}

/// Transfer types (ctrdata.TYPE, the E-Trace itype codes).
pub mod ty {
    pub const EXC: u8 = 1;
    pub const INTR: u8 = 2;
    pub const TRET: u8 = 3;
    pub const NTBR: u8 = 4;
    pub const TKBR: u8 = 5;
    pub const INDCALL: u8 = 8;
    pub const DIRCALL: u8 = 9;
    pub const INDJMP: u8 = 10;
    pub const DIRJMP: u8 = 11;
    pub const CORSWAP: u8 = 12;
    pub const RET: u8 = 13;
    pub const INDLJMP: u8 = 14;
    pub const DIRLJMP: u8 = 15;
}

/// What a retired instruction is to CTR, from its bits alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A conditional branch with this branch offset.
    Branch(i64),
    /// A jump of this TYPE.
    Jump(u8),
    Mret,
    Sret,
    Sctrclr,
    Other,
}

fn link(r: u32) -> bool {
    r == 1 || r == 5
}

fn jalr_type(rd: u32, rs1: u32) -> u8 {
    match (link(rd), link(rs1)) {
        (true, false) => ty::INDCALL,
        (true, true) if rd != rs1 => ty::CORSWAP,
        (true, true) => ty::INDCALL,
        (false, true) => ty::RET,
        (false, false) if rd == 0 => ty::INDJMP,
        (false, false) => ty::INDLJMP,
    }
}

/// Classify raw instruction bits (16-bit forms in the low half).
pub fn classify(bits: u32) -> Kind {
    if bits & 3 != 3 {
        let b = bits & 0xffff;
        let f3 = b >> 13;
        let sext = |v: u32, n: u32| ((v as i64) << (64 - n)) >> (64 - n);
        return match (b & 3, f3) {
            (1, 5) => Kind::Jump(ty::DIRJMP), // c.j
            (1, 6) | (1, 7) => {
                // c.beqz / c.bnez: offset[8|4:3] in 12:10, [7:6|2:1|5] in 6:2
                let off = ((b >> 12) & 1) << 8
                    | ((b >> 10) & 3) << 3
                    | ((b >> 5) & 3) << 6
                    | ((b >> 3) & 3) << 1
                    | ((b >> 2) & 1) << 5;
                Kind::Branch(sext(off, 9))
            }
            (2, 4) => {
                let (bit12, rs1, rs2) = ((b >> 12) & 1, (b >> 7) & 31, (b >> 2) & 31);
                match (bit12, rs1, rs2) {
                    (0, r, 0) if r != 0 => Kind::Jump(jalr_type(0, r)), // c.jr
                    (1, r, 0) if r != 0 => Kind::Jump(jalr_type(1, r)), // c.jalr
                    _ => Kind::Other,
                }
            }
            _ => Kind::Other,
        };
    }
    let rd = (bits >> 7) & 31;
    let rs1 = (bits >> 15) & 31;
    match bits & 0x7f {
        0x63 if (bits >> 12) & 7 != 2 && (bits >> 12) & 7 != 3 => {
            let off = ((bits >> 31) & 1) << 12
                | ((bits >> 7) & 1) << 11
                | ((bits >> 25) & 0x3f) << 5
                | ((bits >> 8) & 0xf) << 1;
            Kind::Branch(((off as i64) << 51) >> 51)
        }
        0x6f => Kind::Jump(match rd {
            1 | 5 => ty::DIRCALL,
            0 => ty::DIRJMP,
            _ => ty::DIRLJMP,
        }),
        0x67 if (bits >> 12) & 7 == 0 => Kind::Jump(jalr_type(rd, rs1)),
        0x73 => match bits {
            0x3020_0073 => Kind::Mret,
            0x1020_0073 => Kind::Sret,
            0x1040_0073 => Kind::Sctrclr,
            _ => Kind::Other,
        },
        _ => Kind::Other,
    }
}

/// The count a cycle counter value encodes to in CC (errata formula), with 4 CCE bits.
pub fn encode_cc(count: u64) -> u16 {
    if count < 4096 {
        return count as u16;
    }
    let top = 63 - count.leading_zeros() as u64;
    let cce = top - 11;
    if cce > 15 {
        return 0xffff;
    }
    (cce << 12 | ((count >> (cce - 1)) & 0xfff)) as u16
}

/// The count a CC field stands for.
pub fn decode_cc(cc: u16) -> u64 {
    let (cce, ccm) = ((cc >> 12) as u64, (cc & 0xfff) as u64);
    if cce == 0 {
        ccm
    } else {
        (4096 + ccm) << (cce - 1)
    }
}

/// The reference CTR, fed by the retired stream.
pub struct CtrRef {
    /// The ratified 1.0 layout (else draft 0.1.4).
    pub v10: bool,
    /// The control register (M view), DEPTH included in 0.1.4.
    pub ctl: u64,
    pub depth: usize,
    pub wrptr: usize,
    pub wrap: bool,
    pub frozen: bool,
    phys: Vec<RefEntry>,
    cc: u64,
    cc_invalid: bool,
    /// An xRET waiting for the mode it returned to (the next event's mode).
    xret: Option<(u64, u64, Priv)>,
    /// Records made so far (all of them; for statistics).
    pub records: u64,
    /// At every LCOFI that froze CTR: the valid entries then, logical entry 0 first.
    pub snapshots: Vec<Vec<RefEntry>>,
    /// Set when the stream did something the reference does not follow.
    pub unsupported: Option<String>,
    /// A conditional branch to its own successor was seen (taken-ness unknowable from pcs).
    pub ambiguous_branch: bool,
}

impl CtrRef {
    /// A CTR at reset: control 0, the minimum depth (16), empty.
    pub fn new(v10: bool) -> CtrRef {
        CtrRef {
            v10,
            ctl: 0,
            depth: 16,
            wrptr: 0,
            wrap: false,
            frozen: false,
            phys: vec![RefEntry::default(); 256],
            cc: 0,
            cc_invalid: true,
            xret: None,
            records: 0,
            snapshots: Vec::new(),
            unsupported: None,
            ambiguous_branch: false,
        }
    }

    // ---- the control register's fields ----

    fn bit(&self, draft: u32, ratified: u32) -> bool {
        let b = if self.v10 { ratified } else { draft };
        self.ctl >> b & 1 != 0
    }
    fn enabled(&self, p: Priv) -> bool {
        match p {
            Priv::M => self.bit(0, 2),
            Priv::S => self.bit(1, 1),
            Priv::U => self.bit(2, 0),
            _ => false,
        }
    }
    fn rasemu(&self) -> bool {
        self.bit(10, 7)
    }
    fn ste(&self) -> bool {
        self.bit(9, 8)
    }
    fn mte(&self) -> bool {
        self.bit(8, 9)
    }
    fn bpfrz(&self) -> bool {
        self.bit(11, 11)
    }
    fn lcofifrz(&self) -> bool {
        self.bit(12, 12)
    }
    fn eten(&self) -> bool {
        !self.v10 && self.ctl >> 38 & 1 != 0
    }
    /// The filter bit of TYPE t (bit 32 + t): set means inhibited, except NTBREN (t = 4),
    /// which opts in.
    fn filter(&self, t: u8) -> bool {
        self.ctl >> (32 + t as u32) & 1 != 0
    }

    /// Logical entry x (0 = youngest).
    pub fn entry(&self, x: usize) -> RefEntry {
        self.phys[(self.wrptr + self.depth - 1 - x) % self.depth]
    }

    /// Logical entries 0..depth.
    pub fn entries(&self) -> Vec<RefEntry> {
        (0..self.depth).map(|x| self.entry(x)).collect()
    }

    // ---- array operations ----

    fn take_cc(&mut self) -> (bool, u16) {
        let r = (!self.cc_invalid, encode_cc(self.cc));
        self.cc = 0;
        self.cc_invalid = false;
        r
    }

    fn push(&mut self, source: u64, target: u64, t: u8) {
        let (ccv, cc) = self.take_cc();
        self.phys[self.wrptr] = RefEntry {
            valid: true,
            source,
            target,
            ty: t,
            ccv,
            cc,
        };
        self.wrptr += 1;
        if self.wrptr == self.depth {
            self.wrptr = 0;
            self.wrap = !self.v10;
        }
        self.records += 1;
    }

    fn absorb(&mut self, popped: RefEntry) {
        if popped.valid && popped.ccv {
            self.cc += decode_cc(popped.cc);
        } else {
            self.cc_invalid = true;
        }
    }

    fn pop(&mut self) {
        if self.wrptr == 0 {
            self.wrptr = self.depth - 1;
            self.wrap = false;
        } else {
            self.wrptr -= 1;
        }
        let popped = self.phys[self.wrptr];
        self.phys[self.wrptr].valid = false;
        self.absorb(popped);
    }

    fn replace(&mut self, source: u64, target: u64, t: u8) {
        let at = (self.wrptr + self.depth - 1) % self.depth;
        let popped = self.phys[at];
        self.absorb(popped);
        let (ccv, cc) = self.take_cc();
        self.phys[at] = RefEntry {
            valid: true,
            source,
            target,
            ty: t,
            ccv,
            cc,
        };
        self.records += 1;
    }

    // ---- events ----

    /// A transfer of TYPE t retired in mode p (chapter 5, 5.2, 5.4).
    fn transfer(&mut self, p: Priv, source: u64, target: u64, t: u8) {
        if !self.enabled(p) || self.frozen {
            return;
        }
        if self.rasemu() {
            match t {
                ty::INDCALL | ty::DIRCALL => self.push(source, target, t),
                ty::RET => self.pop(),
                ty::CORSWAP => self.replace(source, target, t),
                _ => {}
            }
            return;
        }
        let wanted = if t == ty::NTBR {
            self.filter(t)
        } else {
            !self.filter(t)
        };
        if wanted {
            self.push(source, target, t);
        }
    }

    /// An xRET from `from` to `to` (5.1: recorded between enabled modes, target 0 into a
    /// disabled one, nothing from a disabled one).
    fn trap_return(&mut self, source: u64, target: u64, from: Priv, to: Priv) {
        if self.frozen || self.rasemu() || self.filter(ty::TRET) || !self.enabled(from) {
            return;
        }
        let target = if self.enabled(to) { target } else { 0 };
        self.push(source, target, ty::TRET);
    }

    fn resolve_xret(&mut self, now: Priv) {
        if let Some((source, target, from)) = self.xret.take() {
            self.trap_return(source, target, from, now);
        }
    }

    /// A trap (5.1 table, 5.2.1 external traps, 5.5 freeze).
    fn trap_taken(&mut self, t: &TrapRecord) {
        self.resolve_xret(t.from);
        let freeze = match t.cause {
            Cause::Interrupt(Interrupt::CounterOverflow) => self.lcofifrz(),
            Cause::Exception(Exception::Breakpoint) => self.bpfrz(),
            _ => false,
        };
        if freeze {
            if matches!(t.cause, Cause::Interrupt(_)) && !self.frozen {
                let snap = self.entries().into_iter().filter(|e| e.valid).collect();
                self.snapshots.push(snap);
            }
            self.frozen = true;
            return;
        }
        if self.frozen || self.rasemu() {
            return;
        }
        let t_ty = if t.cause.is_interrupt() {
            ty::INTR
        } else {
            ty::EXC
        };
        match (self.enabled(t.from), self.enabled(t.to)) {
            (true, true) if !self.filter(t_ty) => self.push(t.epc, t.handler, t_ty),
            (false, true) if !self.filter(t_ty) => self.push(0, t.handler, t_ty),
            (true, false) => {
                let te = |m: Priv| match m {
                    Priv::M => self.mte(),
                    Priv::S => self.ste(),
                    _ => false,
                };
                let opted = if self.v10 {
                    t.to > t.from
                        && [Priv::S, Priv::M]
                            .into_iter()
                            .filter(|&m| t.from < m && m <= t.to)
                            .all(te)
                } else {
                    self.eten() && te(t.to)
                };
                if opted {
                    self.push(t.epc, 0, t_ty);
                }
            }
            _ => {}
        }
    }

    /// A CSR write the record shows (the value read back after it).
    fn csr_written(&mut self, csr: u16, v: u64) {
        let (ctl, sctl, status, sstatus) = if self.v10 {
            (0x34e, 0x14e, 0x14f, 0x14f)
        } else {
            (0x381, 0x181, 0x383, 0x183)
        };
        let m_only = if self.v10 {
            1 << 2 | 1 << 9
        } else {
            1 | 1 << 8
        };
        if csr == ctl || csr == sctl {
            let v = if csr == ctl {
                v
            } else {
                (self.ctl & m_only) | (v & !m_only)
            };
            self.ctl = v;
            if !self.v10 {
                let depth = 16 << (4 - ((v >> 16) & 0xf).leading_zeros().saturating_sub(60));
                self.set_depth(depth);
            }
            self.cc = 0;
            self.cc_invalid = true;
        } else if csr == status || csr == sstatus {
            self.wrptr = (v & 0xff) as usize & (self.depth - 1);
            if self.v10 {
                self.frozen = v >> 31 & 1 != 0;
            } else {
                self.wrap = v >> 14 & 1 != 0;
                self.frozen = v >> 15 & 1 != 0;
            }
        } else if self.v10 && csr == 0x15f {
            self.set_depth(16 << v.min(4));
        }
    }

    fn set_depth(&mut self, depth: usize) {
        if depth != self.depth {
            if self.records != 0 {
                self.unsupported = Some(format!("depth {} -> {depth} after records", self.depth));
            }
            self.depth = depth;
            self.wrptr &= depth - 1;
        }
    }

    /// One executed instruction.
    pub fn retired(&mut self, r: &Retired) {
        self.resolve_xret(r.prv);
        if !r.retired() {
            return; // it trapped: the trap follows
        }
        // Its cycle, in the mode and FROZEN state it executed in.
        if self.enabled(r.prv) && !self.frozen {
            self.cc += 1;
        }
        let bits = r.insn.bits;
        let len = if bits & 3 == 3 { 4 } else { 2 };
        match classify(bits) {
            Kind::Branch(off) => {
                if off == len as i64 {
                    self.ambiguous_branch = true;
                }
                let fall = r.pc.wrapping_add(len);
                let (t, target) = if r.next_pc != fall {
                    (ty::TKBR, r.next_pc)
                } else {
                    (ty::NTBR, fall)
                };
                self.transfer(r.prv, r.pc, target, t);
            }
            Kind::Jump(t) => self.transfer(r.prv, r.pc, r.next_pc, t),
            Kind::Mret | Kind::Sret => self.xret = Some((r.pc, r.next_pc, r.prv)),
            Kind::Sctrclr => {
                for e in &mut self.phys {
                    *e = RefEntry::default();
                }
                self.cc = 0;
                self.cc_invalid = true;
            }
            Kind::Other => {}
        }
        for w in r.writes() {
            if let Reg::Csr(c) = w.reg {
                self.csr_written(c, w.value);
            }
        }
    }

    /// A trap taken.
    pub fn trap(&mut self, t: &TrapRecord) {
        self.trap_taken(t);
    }
}

/// A full-record sink that feeds a [`CtrRef`].
pub struct RefSink<'a>(pub &'a mut CtrRef);

impl Sink for RefSink<'_> {
    const DETAIL: Detail = Detail::Records;
    fn retire(&mut self, r: &Retired) {
        self.0.retired(r);
    }
    fn trap(&mut self, t: &TrapRecord) {
        self.0.trap(t);
    }
}

/// The hart's CTR as reference entries (logical 0..depth), with its WRPTR and FROZEN.
pub fn hart_entries(c: &ctr::Ctr) -> Vec<RefEntry> {
    c.entries()
        .map(|e| RefEntry {
            valid: e.valid,
            source: e.source,
            target: e.target,
            ty: e.ty.code(),
            ccv: e.ccv,
            cc: e.cc,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifier() {
        assert_eq!(classify(0x00b50463), Kind::Branch(8)); // beq a0, a1, 8
        assert_eq!(classify(0xfe000ee3), Kind::Branch(-4)); // beqz zero, -4
        assert_eq!(classify(0x008000ef), Kind::Jump(ty::DIRCALL)); // jal ra, 8
        assert_eq!(classify(0x0080006f), Kind::Jump(ty::DIRJMP)); // j 8
        assert_eq!(classify(0x0080056f), Kind::Jump(ty::DIRLJMP)); // jal a0, 8
        assert_eq!(classify(0x000500e7), Kind::Jump(ty::INDCALL)); // jalr ra, a0
        assert_eq!(classify(0x000280e7), Kind::Jump(ty::CORSWAP)); // jalr ra, t0
        assert_eq!(classify(0x00008067), Kind::Jump(ty::RET)); // ret
        assert_eq!(classify(0x00050067), Kind::Jump(ty::INDJMP)); // jr a0
        assert_eq!(classify(0x000505e7), Kind::Jump(ty::INDLJMP)); // jalr a1, a0
        assert_eq!(classify(0xa011), Kind::Jump(ty::DIRJMP)); // c.j 4
        assert_eq!(classify(0xc111), Kind::Branch(4)); // c.beqz a0, 4
        assert_eq!(classify(0x8082), Kind::Jump(ty::RET)); // c.jr ra
        assert_eq!(classify(0x8502), Kind::Jump(ty::INDJMP)); // c.jr a0
        assert_eq!(classify(0x9502), Kind::Jump(ty::INDCALL)); // c.jalr a0
        assert_eq!(classify(0x9282), Kind::Jump(ty::CORSWAP)); // c.jalr t0
        assert_eq!(classify(0x9002), Kind::Other); // c.ebreak
        assert_eq!(classify(0x30200073), Kind::Mret);
        assert_eq!(classify(0x00150513), Kind::Other); // addi
    }

    #[test]
    fn cycle_encoding() {
        assert_eq!(encode_cc(4095), 4095);
        assert_eq!(encode_cc(5000), 1 << 12 | (5000 - 4096));
        assert_eq!(decode_cc(encode_cc(20002)), 20000);
        assert_eq!(encode_cc(u64::MAX), 0xffff);
    }
}
