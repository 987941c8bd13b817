//! One retirement: what a hart did in one step (an instruction, an excepting instruction, or
//! an interrupt taken), in the shape both sides of a lockstep comparison use.
//!
//! The same plain `#[repr(C)]` type is what [`crate::Hart::step`] returns and what
//! [`crate::Hart::step_check`] takes from the core under test, so that the C ABI and the
//! Python module hand it across without translation. Fields the core cannot report are marked
//! absent in [`Retirement::valid`] (and, for a register class the core never reports, in
//! [`crate::Reports`]): the reference hart's value is taken instead of compared.

use arch::Cause;
use iss::record::{MemKind, Reg, Retired, TrapRecord};

/// No trap: the instruction retired.
pub const TRAP_NONE: u8 = 0;
/// The instruction raised an exception (it did not retire; `next_pc` is the trap vector).
pub const TRAP_EXCEPTION: u8 = 1;
/// An interrupt was taken before any instruction (`insn` and `len` are 0).
pub const TRAP_INTERRUPT: u8 = 2;

/// [`Retirement::valid`]: `prv` is given.
pub const VALID_PRV: u32 = 1 << 0;
/// `next_prv` is given.
pub const VALID_NEXT_PRV: u32 = 1 << 1;
/// `cause` is given (for a trap).
pub const VALID_CAUSE: u32 = 1 << 2;
/// `tval` is given (for a trap).
pub const VALID_TVAL: u32 = 1 << 3;
/// `next_pc` is given.
pub const VALID_NEXT_PC: u32 = 1 << 4;
/// `pc` is given.
pub const VALID_PC: u32 = 1 << 5;
/// Everything a hart's own step gives.
pub const VALID_ALL: u32 = 0x3f;

/// [`RegWrite::file`]: an integer register x0..x31.
pub const REG_X: u8 = 0;
/// A floating-point register f0..f31.
pub const REG_F: u8 = 1;
/// A CSR by its 12-bit address.
pub const REG_CSR: u8 = 2;

/// [`MemAccess::kind`]: a load (`rdata` is the value read).
pub const MEM_LOAD: u8 = 1;
/// A store (`wdata` is the value written).
pub const MEM_STORE: u8 = 2;

/// [`MemAccess::paddr`] when the core does not give the physical address.
pub const PADDR_UNKNOWN: u64 = u64::MAX;

/// Register writes one retirement holds: an instruction writes at most a few (an FP
/// instruction: rd and fflags; a CSR instruction: rd and the CSR and the registers it
/// changes through others), a trap four CSRs, and both together fit.
pub const MAX_WRITES: usize = 12;
/// Data accesses one retirement holds (an AMO: a load and a store).
pub const MAX_MEM: usize = 2;

/// A register a retirement wrote, with the value it holds afterwards.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RegWrite {
    /// [`REG_X`], [`REG_F`] or [`REG_CSR`].
    pub file: u8,
    /// The register's number (0..31) or the CSR's address.
    pub num: u16,
    pub value: u64,
}

/// A data memory access.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MemAccess {
    /// [`MEM_LOAD`] or [`MEM_STORE`].
    pub kind: u8,
    /// Bytes: 1, 2, 4 or 8.
    pub size: u8,
    /// Effective (virtual) address.
    pub vaddr: u64,
    /// Physical address, or [`PADDR_UNKNOWN`].
    pub paddr: u64,
    /// The value loaded (loads).
    pub rdata: u64,
    /// The value stored (stores).
    pub wdata: u64,
}

/// One step of a hart.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Retirement {
    /// Position in the sequence of retirements (the core's `rvfi_order`; the hart counts from
    /// 0 after a reset).
    pub order: u64,
    /// Where the instruction is (for an interrupt: where the hart was when it took it).
    pub pc: u64,
    /// The pc after the step: the next instruction, or the trap vector.
    pub next_pc: u64,
    /// The instruction word (a compressed one in the low 16 bits); 0 for an interrupt.
    pub insn: u32,
    /// 2 or 4; 0 for an interrupt.
    pub len: u8,
    /// The privilege the step began in (0 U, 1 S, 3 M).
    pub prv: u8,
    /// The privilege after it.
    pub next_prv: u8,
    /// [`TRAP_NONE`], [`TRAP_EXCEPTION`] or [`TRAP_INTERRUPT`].
    pub trap: u8,
    /// Which optional fields are given: `VALID_*` bits.
    pub valid: u32,
    /// The trap's cause code (without the interrupt bit).
    pub cause: u64,
    /// The trap's value (xtval).
    pub tval: u64,
    pub n_writes: u32,
    pub n_mem: u32,
    /// Registers written, in order; for an excepting instruction or an interrupt this
    /// includes the trap's CSR writes (xepc, xcause, xtval, mstatus).
    pub writes: [RegWrite; MAX_WRITES],
    pub mem: [MemAccess; MAX_MEM],
}

impl Default for Retirement {
    fn default() -> Self {
        Retirement {
            order: 0,
            pc: 0,
            next_pc: 0,
            insn: 0,
            len: 0,
            prv: 3,
            next_prv: 3,
            trap: TRAP_NONE,
            valid: VALID_PC | VALID_NEXT_PC,
            cause: 0,
            tval: 0,
            n_writes: 0,
            n_mem: 0,
            writes: [RegWrite::default(); MAX_WRITES],
            mem: [MemAccess::default(); MAX_MEM],
        }
    }
}

/// A retirement that does not fit the fixed-size arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Overflow {
    #[error("more than {MAX_WRITES} register writes in one retirement")]
    Writes,
    #[error("more than {MAX_MEM} memory accesses in one retirement")]
    Mem,
}

impl Retirement {
    /// The registers written.
    pub fn writes(&self) -> &[RegWrite] {
        &self.writes[..(self.n_writes as usize).min(MAX_WRITES)]
    }

    /// The data accesses.
    pub fn mem(&self) -> &[MemAccess] {
        &self.mem[..(self.n_mem as usize).min(MAX_MEM)]
    }

    /// Add a register write.
    pub fn push_write(&mut self, file: u8, num: u16, value: u64) -> Result<(), Overflow> {
        let n = self.n_writes as usize;
        if n >= MAX_WRITES {
            return Err(Overflow::Writes);
        }
        self.writes[n] = RegWrite { file, num, value };
        self.n_writes += 1;
        Ok(())
    }

    /// Add a data access.
    pub fn push_mem(&mut self, a: MemAccess) -> Result<(), Overflow> {
        let n = self.n_mem as usize;
        if n >= MAX_MEM {
            return Err(Overflow::Mem);
        }
        self.mem[n] = a;
        self.n_mem += 1;
        Ok(())
    }

    /// Whether this is an interrupt taken before any instruction.
    pub fn is_interrupt(&self) -> bool {
        self.trap == TRAP_INTERRUPT
    }

    /// The trap's cause, when there is one and it is known.
    pub fn cause(&self) -> Option<Cause> {
        if self.trap == TRAP_NONE || self.valid & VALID_CAUSE == 0 {
            return None;
        }
        let bit = if self.trap == TRAP_INTERRUPT {
            1 << 63
        } else {
            0
        };
        Cause::from_xcause(bit | self.cause)
    }

    /// The instruction's disassembly (empty for an interrupt).
    pub fn disasm(&self) -> String {
        if self.len == 0 {
            return String::new();
        }
        tandem::names::disasm(self.pc, self.insn, self.len)
    }

    /// The value written to `x{n}` (the last write), if any.
    pub fn x_write(&self, n: u8) -> Option<u64> {
        self.find(REG_X, n as u16)
    }

    /// The value written to CSR `addr` (the last write), if any.
    pub fn csr_write(&self, addr: u16) -> Option<u64> {
        self.find(REG_CSR, addr)
    }

    fn find(&self, file: u8, num: u16) -> Option<u64> {
        self.writes()
            .iter()
            .rev()
            .find(|w| w.file == file && w.num == num)
            .map(|w| w.value)
    }

    /// Start the retirement of the hart's record of an instruction.
    pub(crate) fn from_record(r: &Retired, order: u64) -> Retirement {
        let mut out = Retirement {
            order,
            pc: r.pc,
            next_pc: r.next_pc,
            insn: if r.insn.len == 2 {
                r.insn.bits & 0xffff
            } else {
                r.insn.bits
            },
            len: r.insn.len,
            prv: r.prv as u8,
            next_prv: r.prv as u8,
            valid: VALID_ALL,
            ..Retirement::default()
        };
        for w in r.writes() {
            let (file, num) = match w.reg {
                Reg::X(0) => continue,
                // Records carry mvip beside mip only for Spike's commit log: the hart has no
                // mvip of its own (the write is mip's).
                Reg::Csr(iss::csr::MVIP) => continue,
                Reg::X(n) => (REG_X, n as u16),
                Reg::F(n) => (REG_F, n as u16),
                Reg::Csr(c) => (REG_CSR, c),
            };
            // A record holds at most iss::record::MAX_WRITES (8), well within MAX_WRITES.
            let _ = out.push_write(file, num, w.value);
        }
        for a in r.mem() {
            let (kind, rdata, wdata) = match a.kind {
                MemKind::Load => (MEM_LOAD, a.value, 0),
                MemKind::Store => (MEM_STORE, 0, a.value),
            };
            let _ = out.push_mem(MemAccess {
                kind,
                size: a.size,
                vaddr: a.vaddr,
                paddr: a.paddr,
                rdata,
                wdata,
            });
        }
        out
    }

    /// Add the trap the hart took (after an excepting instruction's record, or alone for an
    /// interrupt).
    pub(crate) fn add_trap(&mut self, t: &TrapRecord) {
        self.trap = if t.cause.is_interrupt() {
            TRAP_INTERRUPT
        } else {
            TRAP_EXCEPTION
        };
        self.cause = t.cause.code();
        self.tval = t.tval;
        self.next_pc = t.handler;
        self.next_prv = t.to as u8;
        self.prv = t.from as u8;
        if self.is_interrupt() {
            self.pc = t.epc;
            // What the excepting instruction wrote is undone: it did not retire.
        } else {
            self.n_writes = 0;
            self.n_mem = 0;
        }
        for w in &t.writes {
            if let Reg::Csr(c) = w.reg {
                let _ = self.push_write(REG_CSR, c, w.value);
            }
        }
    }
}
