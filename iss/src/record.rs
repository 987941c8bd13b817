//! Retirement records: what the hart tells the outside world about each instruction and trap.
//!
//! The hart hands records to a [`Sink`] chosen at compile time. With [`NoSink`] the executor
//! never builds a record (every recording site is behind `if S::ENABLED`), so an untraced run
//! pays nothing; a traced run pays for the fields it fills.

use crate::insn::Insn;
use arch::{Cause, Priv};

/// A register the instruction (or trap) wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    X(u8),
    F(u8),
    Csr(u16),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegWrite {
    pub reg: Reg,
    pub value: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemKind {
    Load,
    Store,
}

/// A data memory access, as the instruction saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    pub kind: MemKind,
    /// Effective (virtual) address.
    pub vaddr: u64,
    /// Physical address.
    pub paddr: u64,
    /// Bytes: 1, 2, 4 or 8.
    pub size: u8,
    /// Value loaded or stored (zero-extended to 64 bits).
    pub value: u64,
}

pub const MAX_WRITES: usize = 8;
pub const MAX_MEM: usize = 2;

/// One executed instruction: it either retired, or raised `exception` (then it did not retire,
/// except for the trace meaning of ecall/ebreak, which is the ingress port's business).
#[derive(Clone, Debug)]
pub struct Retired {
    pub pc: u64,
    pub insn: Insn,
    /// Privilege the instruction executed in.
    pub prv: Priv,
    /// The pc after the instruction (the trap vector if it raised an exception).
    pub next_pc: u64,
    /// Exception raised by this instruction: cause and tval.
    pub exception: Option<(Cause, u64)>,
    /// Registers and CSRs written, in the order the instruction wrote them.
    pub writes: [RegWrite; MAX_WRITES],
    pub n_writes: u8,
    pub mem: [MemAccess; MAX_MEM],
    pub n_mem: u8,
    /// For a store-conditional: whether it failed (wrote nothing).
    pub sc_failed: bool,
}

impl Default for Retired {
    fn default() -> Self {
        Retired {
            pc: 0,
            insn: Insn::NOT_DECODED,
            prv: Priv::M,
            next_pc: 0,
            exception: None,
            writes: [RegWrite {
                reg: Reg::X(0),
                value: 0,
            }; MAX_WRITES],
            n_writes: 0,
            mem: [MemAccess {
                kind: MemKind::Load,
                vaddr: 0,
                paddr: 0,
                size: 0,
                value: 0,
            }; MAX_MEM],
            n_mem: 0,
            sc_failed: false,
        }
    }
}

impl Retired {
    #[inline]
    pub fn writes(&self) -> &[RegWrite] {
        &self.writes[..self.n_writes as usize]
    }

    #[inline]
    pub fn mem(&self) -> &[MemAccess] {
        &self.mem[..self.n_mem as usize]
    }

    /// Whether the instruction retired (did not raise an exception).
    #[inline]
    pub fn retired(&self) -> bool {
        self.exception.is_none()
    }

    #[inline]
    pub(crate) fn reset(&mut self, pc: u64, insn: Insn, prv: Priv) {
        self.pc = pc;
        self.insn = insn;
        self.prv = prv;
        self.exception = None;
        self.n_writes = 0;
        self.n_mem = 0;
        self.sc_failed = false;
    }

    #[inline]
    pub(crate) fn push_write(&mut self, reg: Reg, value: u64) {
        let n = self.n_writes as usize;
        if n < MAX_WRITES {
            self.writes[n] = RegWrite { reg, value };
            self.n_writes += 1;
        }
    }

    #[inline]
    pub(crate) fn push_mem(&mut self, m: MemAccess) {
        let n = self.n_mem as usize;
        if n < MAX_MEM {
            self.mem[n] = m;
            self.n_mem += 1;
        }
    }
}

/// A trap taken: after an instruction raised an exception, or between instructions for an
/// interrupt.
#[derive(Clone, Debug)]
pub struct TrapRecord {
    pub cause: Cause,
    pub tval: u64,
    /// xepc: the pc of the excepting instruction or of the instruction the interrupt preempted.
    pub epc: u64,
    pub from: Priv,
    pub to: Priv,
    /// The trap vector: the next pc.
    pub handler: u64,
    /// The CSRs the trap wrote (xepc, xcause, xtval, mstatus), in order.
    pub writes: [RegWrite; 4],
}

/// Receives the hart's records. `ENABLED = false` compiles recording out entirely.
pub trait Sink {
    const ENABLED: bool;
    /// An instruction executed (see [`Retired::retired`]).
    fn retire(&mut self, r: &Retired);
    /// A trap was taken (after the `retire` of the excepting instruction, or on its own for an
    /// interrupt).
    fn trap(&mut self, t: &TrapRecord);
}

/// No tracing: nothing is recorded.
pub struct NoSink;

impl Sink for NoSink {
    const ENABLED: bool = false;
    #[inline(always)]
    fn retire(&mut self, _: &Retired) {}
    #[inline(always)]
    fn trap(&mut self, _: &TrapRecord) {}
}

/// Forward to two sinks.
impl<A: Sink, B: Sink> Sink for (A, B) {
    const ENABLED: bool = A::ENABLED || B::ENABLED;
    #[inline]
    fn retire(&mut self, r: &Retired) {
        self.0.retire(r);
        self.1.retire(r);
    }
    #[inline]
    fn trap(&mut self, t: &TrapRecord) {
        self.0.trap(t);
        self.1.trap(t);
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    const ENABLED: bool = S::ENABLED;
    #[inline]
    fn retire(&mut self, r: &Retired) {
        (**self).retire(r)
    }
    #[inline]
    fn trap(&mut self, t: &TrapRecord) {
        (**self).trap(t)
    }
}
