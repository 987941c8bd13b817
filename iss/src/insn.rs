//! The decoded instruction: what the decoder produces and everything else consumes.
//!
//! An [`Insn`] is 16 bytes: a fieldless [`Op`] (one byte, so dispatch is a jump table), the
//! register operands, and one immediate already sign-extended. Compressed instructions decode to
//! the operation they expand to (`c.addi` is `Op::Addi` with `len == 2`); the raw bits stay in
//! `bits` for logs, disassembly and traces. The operations and what is known about each are
//! the instruction table's ([`crate::ops`]).

pub use crate::ops::Op;

/// A decoded instruction.
///
/// Register fields hold architectural numbers 0..=31 (GPR or FPR as the operation implies).
/// `wd` is where a GPR result is written: `rd`, or 32 (a scratch slot nobody reads) when
/// `rd` is x0, so the executor never tests for x0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Insn {
    pub op: Op,
    pub rd: u8,
    pub rs1: u8,
    pub rs2: u8,
    /// In the decode cache's arena, the instruction's place in its block: halfwords from the
    /// block's first instruction (handlers are given the block's pc and add it: see
    /// `Insn::block_off`); 0 out of it. (R4 operations' rs3 is read from `bits`.)
    pub off: u8,
    /// FP rounding mode (0..=7, 7 = dynamic) or, for atomics, aq (bit 1) and rl (bit 0).
    pub rm: u8,
    /// Length in bytes: 2 or 4.
    pub len: u8,
    /// GPR write index: `rd`, or 32 when `rd == 0`.
    pub wd: u8,
    /// Immediate, sign-extended (branch/jump offsets in bytes; `lui`/`auipc` already shifted
    /// left by 12; shift amounts; the CSR number for Zicsr).
    pub imm: i32,
    /// The raw instruction bits (16-bit instructions in the low half).
    pub bits: u32,
}

const _: () = assert!(core::mem::size_of::<Insn>() == 16);

impl Insn {
    /// The instruction's 16 bytes, in field order from the lowest byte (one load: the
    /// compiler does not merge loads of the separate fields).
    #[inline(always)]
    pub(crate) fn packed(&self) -> u128 {
        // SAFETY: `Insn` is `repr(C)` with integer fields and a `repr(u8)` enum, 16 bytes
        // with no padding (asserted above): all 16 bytes are initialised.
        let raw = unsafe { (self as *const Insn as *const u128).read_unaligned() };
        u128::from_le(raw)
    }

    /// This is a block's end marker ([`Insn::block_end`]), with the block's length (not the
    /// empty slot [`Insn::NOT_DECODED`], nor the [`Insn::single_end`] after an instruction
    /// run on its own).
    #[inline(always)]
    pub(crate) fn is_block_end(&self) -> bool {
        self.op == Op::NotDecoded && self.imm > 0
    }

    /// Bytes from the start of the instruction's block to it (to the end of the block for
    /// an end marker, whose `imm` is the block's length, negated after an instruction run on
    /// its own): a handler for `self` at `pc` is given `pc - block_off()`.
    #[inline(always)]
    pub(crate) fn block_off(&self) -> u64 {
        if self.op == Op::NotDecoded {
            self.imm.unsigned_abs() as u64
        } else {
            2 * self.off as u64
        }
    }

    /// [`Insn::block_off`] of an instruction that is not an end marker (what every handler
    /// but the end marker's knows of its own).
    #[inline(always)]
    pub(crate) fn insn_off(&self) -> u64 {
        2 * self.off as u64
    }

    /// The end marker after an instruction of `len` bytes run on its own, outside the decode
    /// cache (`[insn, Insn::single_end(len)]`): not a block's end ([`Insn::is_block_end`]),
    /// but where its handler finds the pc after the instruction ([`Insn::block_off`]).
    pub(crate) const fn single_end(len: u8) -> Insn {
        let mut d = Insn::NOT_DECODED;
        d.imm = -(len as i32);
        d
    }

    /// The end marker after the first instructions of a block, run on their own (cut to the
    /// budget): not a block's end, but where its handler finds the pc after them, `off` bytes
    /// from the block's start ([`Insn::block_off`]).
    pub(crate) const fn cut_end(off: u64) -> Insn {
        let mut d = Insn::NOT_DECODED;
        d.imm = -(off as i32);
        d
    }

    /// The cache's empty slot.
    pub const NOT_DECODED: Insn = Insn {
        op: Op::NotDecoded,
        rd: 0,
        rs1: 0,
        rs2: 0,
        off: 0,
        rm: 0,
        len: 0,
        wd: 32,
        imm: 0,
        bits: 0,
    };

    /// The marker after a block's last instruction: not decoded (running it goes back to the
    /// cache), with the block's length in bytes in `imm` (the decode cache also sets `bits` to
    /// the index of the block's meta in `events.rs`, and `wd` to mark a fast block).
    pub const fn block_end(bytes: u32) -> Insn {
        let mut d = Insn::NOT_DECODED;
        d.imm = bytes as i32;
        d
    }

    /// An illegal instruction of the given bits and length.
    pub const fn illegal(bits: u32, len: u8) -> Insn {
        Insn {
            op: Op::Illegal,
            rd: 0,
            rs1: 0,
            rs2: 0,
            off: 0,
            rm: 0,
            len,
            wd: 32,
            imm: 0,
            bits,
        }
    }

    /// Whether this is a compressed (16-bit) instruction.
    #[inline]
    pub fn is_compressed(&self) -> bool {
        self.len == 2
    }

    /// The CSR number of a Zicsr instruction.
    #[inline]
    pub fn csr(&self) -> u16 {
        self.imm as u16 & 0xfff
    }
}
