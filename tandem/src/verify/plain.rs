//! The live checker's short way through the verifier: a retirement that is an ordinary
//! instruction (no trap, no CSR, no atomic; GPR and FPR writes and at most one load or store)
//! is compared with the reference hart's record of the same step directly, without building
//! the group a stream would carry for it.
//!
//! The short way never decides anything the group form would decide differently. It steps the
//! reference hart exactly as [`Verifier::group`] does for that retirement's group, then says
//! [`Plain::Matched`] only when the group form would find nothing to report and would leave the
//! same state behind. Anything else (a difference, or a case it does not look into) is
//! [`Plain::Undecided`]: the caller then hands the retirement's group to
//! [`Verifier::finish_group`], which does the rest of what `group` does after the step. A
//! test in the plugin holds both ways to the same verdicts over faulty retirements.

use super::{Kind, Verifier, EXISTS, NONDET};
use crate::group::{Group, RawInsn};
use crate::opcode::{MemSize, FPR_ADDR, GPR_ADDR};
use crate::refhart::{FPR0, GPR0};
use arch::Priv;
use iss::insn::Op;
use iss::record::MemKind;

/// One retirement as the short way takes it.
#[derive(Clone, Copy, Debug)]
pub struct PlainStep<'a> {
    pub insn: RawInsn,
    /// The next pc, if the core gives it.
    pub next_pc: Option<u64>,
    /// The privilege after the instruction, if the core gives it.
    pub next_prv: Option<u8>,
    /// Register writes by the protocol's register number (GPRs and FPRs only, x0 left out,
    /// each register at most once).
    pub regs: &'a [(u16, u64)],
    pub access: Option<PlainAccess>,
}

/// The one data access of a [`PlainStep`].
#[derive(Clone, Copy, Debug)]
pub struct PlainAccess {
    pub store: bool,
    /// The effective address.
    pub vaddr: u64,
    /// The physical address, if the core gives it.
    pub paddr: Option<u64>,
    /// Where a load's data is checked: the physical address, or the effective address as it
    /// translated before the step (what the group's memory transaction holds); `None` for a
    /// load whose address did not translate.
    pub data_pa: Option<u64>,
    pub size: MemSize,
    /// The value loaded or stored.
    pub data: u64,
}

/// What the short way found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plain {
    /// Not a retirement the short way takes: nothing was done.
    NotPlain,
    /// The reference hart stepped and did the same: nothing to report, and the verifier's
    /// state is what the group form would have left.
    Matched,
    /// The reference hart stepped; [`Verifier::finish_group`] must now be given the
    /// retirement's group.
    Undecided,
}

impl Verifier {
    /// Check an ordinary retirement the short way (see the module's documentation).
    pub fn check_plain(&mut self, p: &PlainStep) -> Plain {
        if !self.has_program
            || self.cfg.flute_strict
            || self.counters_dirty
            || self.cfg.absent.insn
            || self.cfg.absent.store_data
            || (p.insn.len == 4 && p.insn.bits & 0x7f == 0x2f)
        {
            return Plain::NotPlain;
        }
        for (k, &(addr, _)) in p.regs.iter().enumerate() {
            let file_reg = (GPR_ADDR + 1..FPR_ADDR + 32).contains(&addr);
            if !file_reg || p.regs[..k].iter().any(|r| r.0 == addr) {
                return Plain::NotPlain;
            }
        }
        let pc_before = self.m.hart.pc;
        self.plain_pc = pc_before;
        self.nondet_before(Kind::Step);
        // As `group` leaves them for an instruction of a stream that is not strict Flute.
        self.atomic_rs2 = None;
        self.trace_insn = Some(p.insn.bits);
        self.step_reference(Kind::Step);
        match self.plain_matches(p, pc_before) {
            Some(prv) => {
                self.touched.clear();
                self.diffs.clear();
                for &(addr, v) in p.regs {
                    let idx = index(addr);
                    self.shadow[idx] = v;
                    self.touched.push(idx);
                }
                self.prev_insn_pc = Some(pc_before);
                self.shadow_pc = self.m.hart.pc;
                self.shadow_prv = prv;
                Plain::Matched
            }
            None => Plain::Undecided,
        }
    }

    /// After [`Plain::Undecided`]: what [`Verifier::group`] does with the retirement's group
    /// once the reference hart has stepped (apply it, take non-deterministic reads, compare,
    /// report and resynchronise).
    pub fn finish_group(&mut self, g: &Group) {
        self.touched.clear();
        self.diffs.clear();
        for r in &g.regs {
            self.apply_reg(r.addr, r.op);
        }
        self.nondet_reads(g);
        self.compare(g, Kind::Step, self.plain_pc);
    }

    /// Whether the group form would find nothing: the privilege the shadow state takes if so.
    fn plain_matches(&self, p: &PlainStep, pc_before: u64) -> Option<Priv> {
        let r = self.cap.retired()?;
        if self.cap.trap.is_some() || r.exception.is_some() || r.insn.op == Op::NotDecoded {
            return None;
        }
        let bits = if r.insn.len == 2 {
            r.insn.bits & 0xffff
        } else {
            r.insn.bits
        };
        if (bits, r.insn.len) != (p.insn.bits, p.insn.len) || r.pc != pc_before {
            return None;
        }
        let ref_pc = self.m.hart.pc;
        if p.next_pc.is_some_and(|pc| pc != ref_pc) {
            return None;
        }
        let ref_prv = self.m.hart.prv;
        let prv = match p.next_prv {
            Some(v) => Priv::from_bits(v as u64).unwrap_or(Priv::M),
            None if self.cfg.absent.priv_ => ref_prv,
            None => self.shadow_prv,
        };
        if prv != ref_prv {
            return None;
        }
        // Registers: every one the core wrote holds the reference's value, and the reference
        // wrote no other (unless the trace does not own it).
        for &(addr, v) in p.regs {
            let idx = index(addr);
            let f = self.flags[idx];
            if f & EXISTS == 0 || self.masks.iter().any(|m| m.0 == idx) {
                return None;
            }
            if f & NONDET == 0 && v != self.ref_value(idx) {
                return None;
            }
        }
        for &i in r.written() {
            let i = i as usize;
            if self.flags[i] & NONDET == 0 && !p.regs.iter().any(|&(a, _)| index(a) == i) {
                return None;
            }
        }
        // Memory.
        if r.sc_failed {
            return None;
        }
        let mem = r.mem();
        let Some(a) = p.access else {
            return mem.is_empty().then_some(prv);
        };
        let [x] = mem else { return None };
        if x.vaddr != a.vaddr || a.paddr.is_some_and(|pa| pa != x.paddr) || x.size != a.size.bytes()
        {
            return None;
        }
        let data = a.data & a.size.mask();
        if a.store {
            // The store wrote RAM (a device's store is the group form's to sort out).
            return (x.kind == MemKind::Store && x.value == data && !self.m.bus.is_device(x.paddr))
                .then_some(prv);
        }
        if x.kind != MemKind::Load {
            return None;
        }
        // A load the trace owns (a device's, HTIF's) is the group form's.
        let nd = &self.cfg.nondet;
        if (nd.mmio && self.m.bus.is_mmio(x.paddr))
            || (nd.htif && self.htif_words.contains(&(x.paddr & !7)))
        {
            return None;
        }
        match a.data_pa {
            Some(pa) => match super::pre_value(&self.m, &self.pre, pa, x.size) {
                Some(v) if v != data => None,
                _ => Some(prv),
            },
            None => Some(prv),
        }
    }
}

/// The verifier's register index of a GPR or FPR by its protocol number (as
/// [`crate::refhart::target`] gives it).
fn index(addr: u16) -> usize {
    if addr >= FPR_ADDR {
        FPR0 + (addr - FPR_ADDR) as usize
    } else {
        GPR0 + (addr - GPR_ADDR) as usize
    }
}
