//! The instruction decoder: raw bits to [`Insn`].
//!
//! [`decode`] takes the 32 bits fetched at the PC and decodes the low half as a compressed
//! instruction when its two low bits are not `11`, otherwise the whole word as a 32-bit one.
//! Decoding is a nest of `match`es on the opcode, funct3 and funct7 fields: no tables, no
//! allocation, and every immediate is sign-extended (and scaled) here so the executor never
//! touches the encoding again.
//!
//! Operand conventions (see also [`Insn`]):
//!
//! - Register fields an instruction does not use are 0; `wd` is `rd`, or 32 when `rd` is 0
//!   (also for instructions that do not write a GPR, where `rd` is 0).
//! - Loads, `jalr`, OP-IMM: `rd`, `rs1`, `imm`. Stores and branches: `rs1`, `rs2`, `imm`
//!   (branch and jump offsets in bytes). `lui`/`auipc`: `imm` is the value added (imm << 12).
//! - Shifts by an immediate: the shift amount in `imm`.
//! - Zicsr: the CSR number (0..=4095) in `imm`; `rs1` is the source register, or the 5-bit
//!   uimm for `csrr*i`.
//! - A: `rd`, `rs1` (address), `rs2` (0 for `lr`), `rm = aq << 1 | rl`.
//! - F/D: `rm` holds the rounding-mode field (0..=4 or 7) of the instructions that have one, 0
//!   for the others; the static modes 5 and 6 are reserved and decode as illegal. `rs2` is 0
//!   where the field is an opcode extension (`fsqrt`, `fcvt`, `fmv`, `fclass`).
//! - `fence`, `fence.i`, `ecall`, `ebreak`, `mret`, `sret`, `wfi`: no operands (a fence's
//!   fm/pred/succ are in `bits`). `sfence.vma`: `rs1`, `rs2`.
//! - Compressed instructions decode to the instruction they expand to, with `len == 2` and
//!   `bits` the 16-bit encoding. HINTs decode as the instruction they are (`c.nop` with a
//!   nonzero immediate is `addi x0, x0, imm`; `c.slli` by 0 is `slli rd, rd, 0`; ...);
//!   reserved encodings are [`Op::Illegal`]. `c.mv` expands to `add rd, x0, rs2`, as the spec
//!   says (not to the `mv` pseudoinstruction's `addi`).
//!
//! Encodings of 48 bits or more are not supported: [`insn_len`] reports them as 4 bytes and
//! [`decode32`] calls them illegal.

use crate::insn::{Insn, Op};

/// The length in bytes (2 or 4) of the instruction whose first 16-bit parcel is `first_halfword`.
///
/// Longer encodings (bits 4:2 all set) are not supported and are reported as 4, so that the
/// fetch reads a word and [`decode32`] calls it illegal.
#[inline]
pub fn insn_len(first_halfword: u16) -> u8 {
    if first_halfword & 3 == 3 {
        4
    } else {
        2
    }
}

/// Decodes the instruction at the start of `bits`: the low 16 bits as a compressed instruction if
/// bits 1:0 are not `11`, otherwise all 32 bits.
#[inline]
pub fn decode(bits: u32) -> Insn {
    if bits & 3 == 3 {
        decode32(bits)
    } else {
        decode16(bits as u16)
    }
}

/// Builds an instruction with no `rm`.
#[inline(always)]
const fn insn(op: Op, rd: u32, rs1: u32, rs2: u32, imm: i32, bits: u32, len: u8) -> Insn {
    Insn {
        op,
        rd: rd as u8,
        rs1: rs1 as u8,
        rs2: rs2 as u8,
        off: 0,
        rm: 0,
        len,
        wd: if rd == 0 { 32 } else { rd as u8 },
        imm,
        bits,
    }
}

/// Builds a 32-bit instruction with an `rm` field (FP rounding mode or atomic ordering).
#[inline(always)]
const fn insn_rm(op: Op, rd: u32, rs1: u32, rs2: u32, rm: u32, bits: u32) -> Insn {
    let mut i = insn(op, rd, rs1, rs2, 0, bits, 4);
    i.rm = rm as u8;
    i
}

/// Whether `rm` is a rounding mode an instruction may encode statically: RNE, RTZ, RDN, RUP,
/// RMM or DYN. 5 and 6 are reserved.
#[inline(always)]
const fn rm_ok(rm: u32) -> bool {
    rm < 5 || rm == 7
}

// ---------------------------------------------------------------------------------------------
// 32-bit instructions
// ---------------------------------------------------------------------------------------------

/// Decodes a 32-bit instruction. Words whose bits 1:0 are not `11`, and the 48-bit-and-longer
/// encodings (bits 4:2 all set), are illegal.
pub fn decode32(bits: u32) -> Insn {
    let ill = Insn::illegal(bits, 4);
    if bits & 3 != 3 {
        return ill;
    }
    let rd = (bits >> 7) & 31;
    let f3 = (bits >> 12) & 7;
    let rs1 = (bits >> 15) & 31;
    let rs2 = (bits >> 20) & 31;
    let f7 = bits >> 25;
    let imm_i = (bits as i32) >> 20;
    let r = |op: Op| insn(op, rd, rs1, rs2, 0, bits, 4);
    let i = |op: Op| insn(op, rd, rs1, 0, imm_i, bits, 4);
    match (bits >> 2) & 31 {
        // LOAD
        0x00 => {
            let op = match f3 {
                0 => Op::Lb,
                1 => Op::Lh,
                2 => Op::Lw,
                3 => Op::Ld,
                4 => Op::Lbu,
                5 => Op::Lhu,
                6 => Op::Lwu,
                _ => return ill,
            };
            i(op)
        }
        // LOAD-FP
        0x01 => match f3 {
            2 => i(Op::Flw),
            3 => i(Op::Fld),
            _ => ill,
        },
        // MISC-MEM. The spec has implementations ignore fence's fm (reserved modes act as a
        // normal fence), rd and rs1, and fence.i's imm, rs1 and rd.
        0x03 => match f3 {
            0 => insn(Op::Fence, 0, 0, 0, 0, bits, 4),
            1 => insn(Op::FenceI, 0, 0, 0, 0, bits, 4),
            // Zicbom, Zicboz: cbo.inval/clean/flush/zero (rs1), rd = 0
            2 if rd == 0 => match bits >> 20 {
                0 => insn(Op::CboInval, 0, rs1, 0, 0, bits, 4),
                1 => insn(Op::CboClean, 0, rs1, 0, 0, bits, 4),
                2 => insn(Op::CboFlush, 0, rs1, 0, 0, bits, 4),
                4 => insn(Op::CboZero, 0, rs1, 0, 0, bits, 4),
                _ => ill,
            },
            _ => ill,
        },
        // OP-IMM
        0x04 => match f3 {
            0 => i(Op::Addi),
            1 => {
                let sh = |op: Op| insn(op, rd, rs1, 0, ((bits >> 20) & 63) as i32, bits, 4);
                let un = |op: Op| insn(op, rd, rs1, 0, 0, bits, 4);
                match (bits >> 26, bits >> 20) {
                    (0x00, _) => sh(Op::Slli),
                    (0x12, _) => sh(Op::Bclri),
                    (0x1a, _) => sh(Op::Binvi),
                    (0x0a, _) => sh(Op::Bseti),
                    (_, 0x600) => un(Op::Clz),
                    (_, 0x601) => un(Op::Ctz),
                    (_, 0x602) => un(Op::Cpop),
                    (_, 0x604) => un(Op::SextB),
                    (_, 0x605) => un(Op::SextH),
                    _ => ill,
                }
            }
            2 => i(Op::Slti),
            3 => i(Op::Sltiu),
            4 => i(Op::Xori),
            5 => {
                let op = match (bits >> 26, bits >> 20) {
                    (_, 0x287) => return insn(Op::OrcB, rd, rs1, 0, 0, bits, 4),
                    (_, 0x6b8) => return insn(Op::Rev8, rd, rs1, 0, 0, bits, 4),
                    (0x00, _) => Op::Srli,
                    (0x10, _) => Op::Srai,
                    (0x12, _) => Op::Bexti,
                    (0x18, _) => Op::Rori,
                    _ => return ill,
                };
                insn(op, rd, rs1, 0, ((bits >> 20) & 63) as i32, bits, 4)
            }
            6 => i(Op::Ori),
            _ => i(Op::Andi),
        },
        // AUIPC
        0x05 => insn(Op::Auipc, rd, 0, 0, (bits & 0xffff_f000) as i32, bits, 4),
        // OP-IMM-32
        0x06 => {
            let op = match (f3, f7) {
                (0, _) => return i(Op::Addiw),
                (1, 0x00) => Op::Slliw,
                (5, 0x00) => Op::Srliw,
                (5, 0x20) => Op::Sraiw,
                (5, 0x30) => Op::Roriw,
                (1, _) if bits >> 26 == 0x02 => {
                    return insn(Op::SlliUw, rd, rs1, 0, ((bits >> 20) & 63) as i32, bits, 4)
                }
                (1, 0x30) if rs2 <= 2 => {
                    let op = [Op::Clzw, Op::Ctzw, Op::Cpopw][rs2 as usize];
                    return insn(op, rd, rs1, 0, 0, bits, 4);
                }
                _ => return ill,
            };
            insn(op, rd, rs1, 0, rs2 as i32, bits, 4)
        }
        // STORE, STORE-FP
        0x08 | 0x09 => {
            let op = match ((bits >> 2) & 1, f3) {
                (0, 0) => Op::Sb,
                (0, 1) => Op::Sh,
                (0, 2) => Op::Sw,
                (0, 3) => Op::Sd,
                (1, 2) => Op::Fsw,
                (1, 3) => Op::Fsd,
                _ => return ill,
            };
            let imm = ((bits as i32) >> 25 << 5) | rd as i32;
            insn(op, 0, rs1, rs2, imm, bits, 4)
        }
        // AMO
        0x0b => decode_amo(bits, rd, f3, rs1, rs2),
        // OP
        0x0c => {
            let op = match (f7, f3) {
                (0x00, 0) => Op::Add,
                (0x00, 1) => Op::Sll,
                (0x00, 2) => Op::Slt,
                (0x00, 3) => Op::Sltu,
                (0x00, 4) => Op::Xor,
                (0x00, 5) => Op::Srl,
                (0x00, 6) => Op::Or,
                (0x00, 7) => Op::And,
                (0x20, 0) => Op::Sub,
                (0x20, 5) => Op::Sra,
                (0x01, 0) => Op::Mul,
                (0x01, 1) => Op::Mulh,
                (0x01, 2) => Op::Mulhsu,
                (0x01, 3) => Op::Mulhu,
                (0x01, 4) => Op::Div,
                (0x01, 5) => Op::Divu,
                (0x01, 6) => Op::Rem,
                (0x01, 7) => Op::Remu,
                (0x10, 2) => Op::Sh1add,
                (0x10, 4) => Op::Sh2add,
                (0x10, 6) => Op::Sh3add,
                (0x20, 7) => Op::Andn,
                (0x20, 6) => Op::Orn,
                (0x20, 4) => Op::Xnor,
                (0x05, 6) => Op::Max,
                (0x05, 7) => Op::Maxu,
                (0x05, 4) => Op::Min,
                (0x05, 5) => Op::Minu,
                (0x30, 1) => Op::Rol,
                (0x30, 5) => Op::Ror,
                (0x24, 1) => Op::Bclr,
                (0x24, 5) => Op::Bext,
                (0x34, 1) => Op::Binv,
                (0x14, 1) => Op::Bset,
                (0x07, 5) => Op::CzeroEqz,
                (0x07, 7) => Op::CzeroNez,
                _ => return ill,
            };
            r(op)
        }
        // LUI
        0x0d => insn(Op::Lui, rd, 0, 0, (bits & 0xffff_f000) as i32, bits, 4),
        // OP-32
        0x0e => {
            let op = match (f7, f3) {
                (0x00, 0) => Op::Addw,
                (0x20, 0) => Op::Subw,
                (0x00, 1) => Op::Sllw,
                (0x00, 5) => Op::Srlw,
                (0x20, 5) => Op::Sraw,
                (0x01, 0) => Op::Mulw,
                (0x01, 4) => Op::Divw,
                (0x01, 5) => Op::Divuw,
                (0x01, 6) => Op::Remw,
                (0x01, 7) => Op::Remuw,
                (0x04, 0) => Op::AddUw,
                (0x10, 2) => Op::Sh1addUw,
                (0x10, 4) => Op::Sh2addUw,
                (0x10, 6) => Op::Sh3addUw,
                (0x30, 1) => Op::Rolw,
                (0x30, 5) => Op::Rorw,
                (0x04, 4) if rs2 == 0 => return insn(Op::ZextH, rd, rs1, 0, 0, bits, 4),
                _ => return ill,
            };
            r(op)
        }
        // MADD, MSUB, NMSUB, NMADD
        0x10..=0x13 => {
            if !rm_ok(f3) {
                return ill;
            }
            let op = match ((bits >> 2) & 3, f7 & 3) {
                (0, 0) => Op::FmaddS,
                (1, 0) => Op::FmsubS,
                (2, 0) => Op::FnmsubS,
                (3, 0) => Op::FnmaddS,
                (0, 1) => Op::FmaddD,
                (1, 1) => Op::FmsubD,
                (2, 1) => Op::FnmsubD,
                (3, 1) => Op::FnmaddD,
                _ => return ill,
            };
            // rs3 is `bits[31:27]`, which the handlers read.
            insn_rm(op, rd, rs1, rs2, f3, bits)
        }
        // OP-FP
        0x14 => decode_zfa(bits, rd, f3, rs1, rs2, f7)
            .unwrap_or_else(|| decode_op_fp(bits, rd, f3, rs1, rs2, f7)),
        // BRANCH
        0x18 => {
            let op = match f3 {
                0 => Op::Beq,
                1 => Op::Bne,
                4 => Op::Blt,
                5 => Op::Bge,
                6 => Op::Bltu,
                7 => Op::Bgeu,
                _ => return ill,
            };
            let imm = ((bits as i32) >> 31 << 12)
                | ((bits << 4) & 0x800) as i32
                | ((bits >> 20) & 0x7e0) as i32
                | ((bits >> 7) & 0x1e) as i32;
            insn(op, 0, rs1, rs2, imm, bits, 4)
        }
        // JALR
        0x19 => match f3 {
            0 => i(Op::Jalr),
            _ => ill,
        },
        // JAL
        0x1b => {
            let imm = ((bits as i32) >> 31 << 20)
                | (bits & 0xf_f000) as i32
                | ((bits >> 9) & 0x800) as i32
                | ((bits >> 20) & 0x7fe) as i32;
            insn(Op::Jal, rd, 0, 0, imm, bits, 4)
        }
        // SYSTEM
        0x1c => {
            let csr = (bits >> 20) as i32;
            let op = match f3 {
                0 => {
                    return match bits {
                        0x0000_0073 => insn(Op::Ecall, 0, 0, 0, 0, bits, 4),
                        0x0010_0073 => insn(Op::Ebreak, 0, 0, 0, 0, bits, 4),
                        0x1020_0073 => insn(Op::Sret, 0, 0, 0, 0, bits, 4),
                        0x3020_0073 => insn(Op::Mret, 0, 0, 0, 0, bits, 4),
                        0x1050_0073 => insn(Op::Wfi, 0, 0, 0, 0, bits, 4),
                        0x1040_0073 => insn(Op::Sctrclr, 0, 0, 0, 0, bits, 4),
                        _ if f7 == 0x09 && rd == 0 => insn(Op::SfenceVma, 0, rs1, rs2, 0, bits, 4),
                        // Svinval
                        _ if f7 == 0x0b && rd == 0 => insn(Op::SinvalVma, 0, rs1, rs2, 0, bits, 4),
                        0x1800_0073 => insn(Op::SfenceWInval, 0, 0, 0, 0, bits, 4),
                        0x1810_0073 => insn(Op::SfenceInvalIr, 0, 0, 0, 0, bits, 4),
                        _ => ill,
                    };
                }
                1 => Op::Csrrw,
                2 => Op::Csrrs,
                3 => Op::Csrrc,
                5 => Op::Csrrwi,
                6 => Op::Csrrsi,
                7 => Op::Csrrci,
                _ => return ill,
            };
            insn(op, rd, rs1, 0, csr, bits, 4)
        }
        _ => ill,
    }
}

/// The A extension (opcode AMO): `lr`, `sc` and the AMOs, 32- and 64-bit.
#[inline]
fn decode_amo(bits: u32, rd: u32, f3: u32, rs1: u32, rs2: u32) -> Insn {
    let ill = Insn::illegal(bits, 4);
    let op = match (f3, bits >> 27) {
        (2, 0b00010) if rs2 == 0 => Op::LrW,
        (2, 0b00011) => Op::ScW,
        (2, 0b00001) => Op::AmoswapW,
        (2, 0b00000) => Op::AmoaddW,
        (2, 0b00100) => Op::AmoxorW,
        (2, 0b01100) => Op::AmoandW,
        (2, 0b01000) => Op::AmoorW,
        (2, 0b10000) => Op::AmominW,
        (2, 0b10100) => Op::AmomaxW,
        (2, 0b11000) => Op::AmominuW,
        (2, 0b11100) => Op::AmomaxuW,
        (3, 0b00010) if rs2 == 0 => Op::LrD,
        (3, 0b00011) => Op::ScD,
        (3, 0b00001) => Op::AmoswapD,
        (3, 0b00000) => Op::AmoaddD,
        (3, 0b00100) => Op::AmoxorD,
        (3, 0b01100) => Op::AmoandD,
        (3, 0b01000) => Op::AmoorD,
        (3, 0b10000) => Op::AmominD,
        (3, 0b10100) => Op::AmomaxD,
        (3, 0b11000) => Op::AmominuD,
        (3, 0b11100) => Op::AmomaxuD,
        _ => return ill,
    };
    insn_rm(op, rd, rs1, rs2, (bits >> 25) & 3, bits)
}

/// OP-FP's Zfa encodings (F and D forms; RV64 has no `fmvh`/`fmvp`), or `None`.
#[inline]
fn decode_zfa(bits: u32, rd: u32, f3: u32, rs1: u32, rs2: u32, f7: u32) -> Option<Insn> {
    let plain = |op: Op| Some(insn(op, rd, rs1, rs2, 0, bits, 4));
    let round = |op: Op| {
        if rm_ok(f3) {
            Some(insn_rm(op, rd, rs1, 0, f3, bits))
        } else {
            Some(Insn::illegal(bits, 4))
        }
    };
    match (f7, rs2, f3) {
        (0x78, 1, 0) => Some(insn(Op::FliS, rd, rs1, 0, 0, bits, 4)),
        (0x79, 1, 0) => Some(insn(Op::FliD, rd, rs1, 0, 0, bits, 4)),
        (0x14, _, 2) => plain(Op::FminmS),
        (0x14, _, 3) => plain(Op::FmaxmS),
        (0x15, _, 2) => plain(Op::FminmD),
        (0x15, _, 3) => plain(Op::FmaxmD),
        (0x20, 4, _) => round(Op::FroundS),
        (0x20, 5, _) => round(Op::FroundnxS),
        (0x21, 4, _) => round(Op::FroundD),
        (0x21, 5, _) => round(Op::FroundnxD),
        (0x61, 8, 1) => Some(insn_rm(Op::FcvtmodWD, rd, rs1, 0, 1, bits)),
        (0x50, _, 4) => plain(Op::FleqS),
        (0x50, _, 5) => plain(Op::FltqS),
        (0x51, _, 4) => plain(Op::FleqD),
        (0x51, _, 5) => plain(Op::FltqD),
        _ => None,
    }
}

/// OP-FP: the F and D computational, conversion, move, compare and classify instructions.
#[inline]
fn decode_op_fp(bits: u32, rd: u32, f3: u32, rs1: u32, rs2: u32, f7: u32) -> Insn {
    let ill = Insn::illegal(bits, 4);
    // With a rounding mode in funct3 (reserved modes are illegal) and two sources.
    let arith = |op: Op| {
        if rm_ok(f3) {
            insn_rm(op, rd, rs1, rs2, f3, bits)
        } else {
            ill
        }
    };
    // With a rounding mode and one source; rs2 is part of the opcode.
    let unary = |op: Op| {
        if rm_ok(f3) {
            insn_rm(op, rd, rs1, 0, f3, bits)
        } else {
            ill
        }
    };
    // funct3 selects the operation; no rounding mode.
    let plain = |op: Op| insn(op, rd, rs1, rs2, 0, bits, 4);
    match f7 {
        0x00 => arith(Op::FaddS),
        0x01 => arith(Op::FaddD),
        0x04 => arith(Op::FsubS),
        0x05 => arith(Op::FsubD),
        0x08 => arith(Op::FmulS),
        0x09 => arith(Op::FmulD),
        0x0c => arith(Op::FdivS),
        0x0d => arith(Op::FdivD),
        0x2c if rs2 == 0 => unary(Op::FsqrtS),
        0x2d if rs2 == 0 => unary(Op::FsqrtD),
        0x10 | 0x11 => {
            let d = f7 & 1 != 0;
            plain(match f3 {
                0 if d => Op::FsgnjD,
                1 if d => Op::FsgnjnD,
                2 if d => Op::FsgnjxD,
                0 => Op::FsgnjS,
                1 => Op::FsgnjnS,
                2 => Op::FsgnjxS,
                _ => return ill,
            })
        }
        0x14 | 0x15 => {
            let d = f7 & 1 != 0;
            plain(match f3 {
                0 if d => Op::FminD,
                1 if d => Op::FmaxD,
                0 => Op::FminS,
                1 => Op::FmaxS,
                _ => return ill,
            })
        }
        0x20 if rs2 == 1 => unary(Op::FcvtSD),
        0x21 if rs2 == 0 => unary(Op::FcvtDS),
        0x50 | 0x51 => {
            let d = f7 & 1 != 0;
            plain(match f3 {
                0 if d => Op::FleD,
                1 if d => Op::FltD,
                2 if d => Op::FeqD,
                0 => Op::FleS,
                1 => Op::FltS,
                2 => Op::FeqS,
                _ => return ill,
            })
        }
        0x60 | 0x61 | 0x68 | 0x69 => {
            let op = match (f7, rs2) {
                (0x60, 0) => Op::FcvtWS,
                (0x60, 1) => Op::FcvtWuS,
                (0x60, 2) => Op::FcvtLS,
                (0x60, 3) => Op::FcvtLuS,
                (0x61, 0) => Op::FcvtWD,
                (0x61, 1) => Op::FcvtWuD,
                (0x61, 2) => Op::FcvtLD,
                (0x61, 3) => Op::FcvtLuD,
                (0x68, 0) => Op::FcvtSW,
                (0x68, 1) => Op::FcvtSWu,
                (0x68, 2) => Op::FcvtSL,
                (0x68, 3) => Op::FcvtSLu,
                (0x69, 0) => Op::FcvtDW,
                (0x69, 1) => Op::FcvtDWu,
                (0x69, 2) => Op::FcvtDL,
                (0x69, 3) => Op::FcvtDLu,
                _ => return ill,
            };
            unary(op)
        }
        0x70 | 0x71 | 0x78 | 0x79 if rs2 == 0 => {
            let op = match (f7, f3) {
                (0x70, 0) => Op::FmvXW,
                (0x70, 1) => Op::FclassS,
                (0x71, 0) => Op::FmvXD,
                (0x71, 1) => Op::FclassD,
                (0x78, 0) => Op::FmvWX,
                (0x79, 0) => Op::FmvDX,
                _ => return ill,
            };
            insn(op, rd, rs1, 0, 0, bits, 4)
        }
        _ => ill,
    }
}

// ---------------------------------------------------------------------------------------------
// 16-bit (RVC) instructions
// ---------------------------------------------------------------------------------------------

/// Sign-extends the low `n` bits of `v`.
#[inline(always)]
const fn sext(v: u32, n: u32) -> i32 {
    ((v << (32 - n)) as i32) >> (32 - n)
}

/// Whether the 16-bit instruction `half` is in Zcb's encoding space (quadrant 0 funct3 100:
/// c.lbu, c.lhu, c.lh, c.sb, c.sh; quadrant 1 funct6 100111 with funct2 10 or 11: c.mul and
/// the unary c.zext.b, c.sext.b, c.zext.h, c.sext.h, c.zext.w, c.not). These decode to the
/// operations they expand to (`c.zext.b` is `andi rd', rd', 0xff`), whose extension column
/// is I, M, Zba or Zbb: the ISA filter reads this too, so they also need Zcb.
#[inline]
pub const fn is_zcb(half: u32) -> bool {
    let h = half & 0xffff;
    (h & 0xe003) == 0x8000 || ((h & 0xfc03) == 0x9c01 && (h & 0x40) != 0)
}

/// Decodes a compressed (RV64C) instruction into the instruction it expands to, with `len == 2`.
/// Values whose bits 1:0 are `11` are not compressed instructions and decode as illegal.
pub fn decode16(half: u16) -> Insn {
    let b = half as u32;
    let ill = Insn::illegal(b, 2);
    let c = |op: Op, rd: u32, rs1: u32, rs2: u32, imm: i32| insn(op, rd, rs1, rs2, imm, b, 2);
    // The full register fields (CR, CI, CSS) and the 3-bit x8..x15 ones (CIW, CL, CS, CA, CB).
    let rd = (b >> 7) & 31;
    let rs2 = (b >> 2) & 31;
    let rdp = ((b >> 2) & 7) + 8;
    let rs1p = ((b >> 7) & 7) + 8;
    // CI-format 6-bit immediate: imm[5] = bit 12, imm[4:0] = bits 6:2.
    let ci_raw = ((b >> 7) & 0x20) | ((b >> 2) & 0x1f);
    let ci = sext(ci_raw, 6);
    match (b & 3, b >> 13) {
        // ---- Quadrant 0 ----
        // c.addi4spn -> addi rd', x2, nzuimm (nzuimm = 0 is reserved, as is the all-zero word)
        (0, 0) => {
            let imm = ((b >> 7) & 0x30) | ((b >> 1) & 0x3c0) | ((b >> 4) & 0x4) | ((b >> 2) & 0x8);
            if imm == 0 {
                return ill;
            }
            c(Op::Addi, rdp, 2, 0, imm as i32)
        }
        // c.fld, c.lw, c.ld -> fld/lw/ld rd', off(rs1')
        (0, 1) | (0, 3) => {
            let imm = ((b >> 7) & 0x38) | ((b << 1) & 0xc0);
            let op = if b >> 13 == 1 { Op::Fld } else { Op::Ld };
            c(op, rdp, rs1p, 0, imm as i32)
        }
        (0, 2) => {
            let imm = ((b >> 7) & 0x38) | ((b >> 4) & 0x4) | ((b << 1) & 0x40);
            c(Op::Lw, rdp, rs1p, 0, imm as i32)
        }
        // c.fsd, c.sw, c.sd -> fsd/sw/sd rs2', off(rs1')
        (0, 5) | (0, 7) => {
            let imm = ((b >> 7) & 0x38) | ((b << 1) & 0xc0);
            let op = if b >> 13 == 5 { Op::Fsd } else { Op::Sd };
            c(op, 0, rs1p, rdp, imm as i32)
        }
        (0, 6) => {
            let imm = ((b >> 7) & 0x38) | ((b >> 4) & 0x4) | ((b << 1) & 0x40);
            c(Op::Sw, 0, rs1p, rdp, imm as i32)
        }
        // Zcb: c.lbu, c.lhu, c.lh -> lbu/lhu/lh rd', uimm(rs1'); c.sb, c.sh -> sb/sh rs2',
        // uimm(rs1') (uimm[0] = bit 6, uimm[1] = bit 5; the halfword forms use bit 6 as the
        // signed/unsigned or reserved bit). Only with Zcb: the ISA filter reads the encoding.
        (0, 4) => {
            let bimm = (((b >> 6) & 1) | ((b >> 4) & 2)) as i32;
            let himm = ((b >> 4) & 2) as i32;
            match ((b >> 10) & 7, (b >> 6) & 1) {
                (0, _) => c(Op::Lbu, rdp, rs1p, 0, bimm),
                (1, 0) => c(Op::Lhu, rdp, rs1p, 0, himm),
                (1, _) => c(Op::Lh, rdp, rs1p, 0, himm),
                (2, _) => c(Op::Sb, 0, rs1p, rdp, bimm),
                (3, 0) => c(Op::Sh, 0, rs1p, rdp, himm),
                _ => ill,
            }
        }
        // ---- Quadrant 1 ----
        // c.nop / c.addi -> addi rd, rd, imm (HINTs when rd = 0 with imm != 0, or imm = 0)
        (1, 0) => c(Op::Addi, rd, rd, 0, ci),
        // c.addiw -> addiw rd, rd, imm (rd = 0 reserved). RV32's c.jal slot.
        (1, 1) => {
            if rd == 0 {
                return ill;
            }
            c(Op::Addiw, rd, rd, 0, ci)
        }
        // c.li -> addi rd, x0, imm (rd = 0 is a HINT)
        (1, 2) => c(Op::Addi, rd, 0, 0, ci),
        (1, 3) => {
            if rd == 2 {
                // c.addi16sp -> addi x2, x2, nzimm (nzimm = 0 reserved)
                let raw = ((b >> 3) & 0x200)
                    | ((b >> 2) & 0x10)
                    | ((b << 1) & 0x40)
                    | ((b << 4) & 0x180)
                    | ((b << 3) & 0x20);
                if raw == 0 {
                    return ill;
                }
                c(Op::Addi, 2, 2, 0, sext(raw, 10))
            } else {
                // c.lui -> lui rd, nzimm (nzimm = 0 reserved; rd = 0 is a HINT)
                if ci_raw == 0 {
                    return ill;
                }
                c(Op::Lui, rd, 0, 0, ci << 12)
            }
        }
        (1, 4) => match (b >> 10) & 3 {
            // c.srli, c.srai -> srli/srai rd', rd', shamt (shamt = 0 is a HINT)
            0 => c(Op::Srli, rs1p, rs1p, 0, ci_raw as i32),
            1 => c(Op::Srai, rs1p, rs1p, 0, ci_raw as i32),
            // c.andi -> andi rd', rd', imm
            2 => c(Op::Andi, rs1p, rs1p, 0, ci),
            // c.sub, c.xor, c.or, c.and, c.subw, c.addw -> op rd', rd', rs2'
            _ => {
                let op = match ((b >> 12) & 1, (b >> 5) & 3) {
                    (0, 0) => Op::Sub,
                    (0, 1) => Op::Xor,
                    (0, 2) => Op::Or,
                    (0, 3) => Op::And,
                    (1, 0) => Op::Subw,
                    (1, 1) => Op::Addw,
                    // Zcb: c.mul -> mul rd', rd', rs2'
                    (1, 2) => Op::Mul,
                    // Zcb: the unary operations on rd' (the second operand is x0)
                    (1, _) => {
                        return match (b >> 2) & 7 {
                            0 => c(Op::Andi, rs1p, rs1p, 0, 0xff),
                            1 => c(Op::SextB, rs1p, rs1p, 0, 0),
                            2 => c(Op::ZextH, rs1p, rs1p, 0, 0),
                            3 => c(Op::SextH, rs1p, rs1p, 0, 0),
                            4 => c(Op::AddUw, rs1p, rs1p, 0, 0),
                            5 => c(Op::Xori, rs1p, rs1p, 0, -1),
                            _ => ill,
                        }
                    }
                    _ => return ill,
                };
                c(op, rs1p, rs1p, rdp, 0)
            }
        },
        // c.j -> jal x0, offset
        (1, 5) => {
            let raw = ((b >> 1) & 0x800)
                | ((b >> 7) & 0x10)
                | ((b >> 1) & 0x300)
                | ((b << 2) & 0x400)
                | ((b >> 1) & 0x40)
                | ((b << 1) & 0x80)
                | ((b >> 2) & 0xe)
                | ((b << 3) & 0x20);
            c(Op::Jal, 0, 0, 0, sext(raw, 12))
        }
        // c.beqz, c.bnez -> beq/bne rs1', x0, offset
        (1, 6) | (1, 7) => {
            let raw = ((b >> 4) & 0x100)
                | ((b >> 7) & 0x18)
                | ((b << 1) & 0xc0)
                | ((b >> 2) & 0x6)
                | ((b << 3) & 0x20);
            let op = if b >> 13 == 6 { Op::Beq } else { Op::Bne };
            c(op, 0, rs1p, 0, sext(raw, 9))
        }
        // ---- Quadrant 2 ----
        // c.slli -> slli rd, rd, shamt (rd = 0 or shamt = 0 are HINTs)
        (2, 0) => c(Op::Slli, rd, rd, 0, ci_raw as i32),
        // c.fldsp, c.ldsp -> fld/ld rd, off(x2) (c.ldsp with rd = 0 reserved)
        (2, 1) | (2, 3) => {
            let imm = ((b >> 7) & 0x20) | ((b >> 2) & 0x18) | ((b << 4) & 0x1c0);
            if b >> 13 == 1 {
                c(Op::Fld, rd, 2, 0, imm as i32)
            } else if rd == 0 {
                ill
            } else {
                c(Op::Ld, rd, 2, 0, imm as i32)
            }
        }
        // c.lwsp -> lw rd, off(x2) (rd = 0 reserved)
        (2, 2) => {
            if rd == 0 {
                return ill;
            }
            let imm = ((b >> 7) & 0x20) | ((b >> 2) & 0x1c) | ((b << 4) & 0xc0);
            c(Op::Lw, rd, 2, 0, imm as i32)
        }
        (2, 4) => match ((b >> 12) & 1, rd, rs2) {
            // c.jr -> jalr x0, 0(rs1) (rs1 = 0 reserved)
            (0, 0, 0) => ill,
            (0, _, 0) => c(Op::Jalr, 0, rd, 0, 0),
            // c.mv -> add rd, x0, rs2 (rd = 0 is a HINT)
            (0, _, _) => c(Op::Add, rd, 0, rs2, 0),
            // c.ebreak
            (_, 0, 0) => c(Op::Ebreak, 0, 0, 0, 0),
            // c.jalr -> jalr x1, 0(rs1)
            (_, _, 0) => c(Op::Jalr, 1, rd, 0, 0),
            // c.add -> add rd, rd, rs2 (rd = 0 is a HINT)
            _ => c(Op::Add, rd, rd, rs2, 0),
        },
        // c.fsdsp, c.sdsp -> fsd/sd rs2, off(x2)
        (2, 5) | (2, 7) => {
            let imm = ((b >> 7) & 0x38) | ((b >> 1) & 0x1c0);
            let op = if b >> 13 == 5 { Op::Fsd } else { Op::Sd };
            c(op, 0, 2, rs2, imm as i32)
        }
        // c.swsp -> sw rs2, off(x2)
        (2, 6) => {
            let imm = ((b >> 7) & 0x3c) | ((b >> 1) & 0xc0);
            c(Op::Sw, 0, 2, rs2, imm as i32)
        }
        // Bits 1:0 = 11 (not compressed).
        _ => ill,
    }
}

#[cfg(test)]
// rstest tables: one argument per column.
#[allow(clippy::too_many_arguments)]
mod tests {
    use super::*;
    use rstest::rstest;
    use Op::*;

    /// The instruction we expect, with the conventions of this module.
    fn want(
        bits: u32,
        len: u8,
        op: Op,
        rd: u8,
        rs1: u8,
        rs2: u8,
        rs3: u8,
        rm: u8,
        imm: i32,
    ) -> Insn {
        // R4 operations' rs3 is not decoded: it stays in the bits.
        assert!(
            rs3 == 0 || u32::from(rs3) == bits >> 27,
            "rs3 {rs3} of {bits:#x}"
        );
        Insn {
            op,
            rd,
            rs1,
            rs2,
            off: 0,
            rm,
            len,
            wd: if rd == 0 { 32 } else { rd },
            imm,
            bits,
        }
    }

    // Encodings from `llvm-mc -triple=riscv64 -mattr=+m,+a,+f,+d -show-encoding` (the
    // assembly is in the comment) unless marked hand-encoded.
    // Columns: bits, op, rd, rs1, rs2, rs3, rm, imm.
    #[rstest]
    #[case::lui(0x12345537, Lui, 10, 0, 0, 0, 0, 305418240)] // lui a0, 0x12345
    #[case::lui_neg(0xffffffb7, Lui, 31, 0, 0, 0, 0, -4096)] // lui t6, 0xfffff
    #[case::auipc(0x80000297, Auipc, 5, 0, 0, 0, 0, -2147483648)] // auipc t0, 0x80000
    #[case::jal(0x801ff0ef, Jal, 1, 0, 0, 0, 0, -2048)] // jal ra, -2048
    #[case::jal_max(0x7ffff06f, Jal, 0, 0, 0, 0, 0, 1048574)] // jal zero, 1048574
    #[case::jalr(0xff4605e7, Jalr, 11, 12, 0, 0, 0, -12)] // jalr a1, -12(a2)
    #[case::beq(0x80b50063, Beq, 0, 10, 11, 0, 0, -4096)] // beq a0, a1, -4096
    #[case::bne(0x7e941fe3, Bne, 0, 8, 9, 0, 0, 4094)] // bne s0, s1, 4094
    #[case::blt(0x0062c0e3, Blt, 0, 5, 6, 0, 0, 2048)] // blt t0, t1, 2048
    #[case::bge(0xfe07dfe3, Bge, 0, 15, 0, 0, 0, -2)] // bge a5, zero, -2
    #[case::bltu(0x01fde863, Bltu, 0, 27, 31, 0, 0, 16)] // bltu s11, t6, 16
    #[case::bgeu(0xfed671e3, Bgeu, 0, 12, 13, 0, 0, -30)] // bgeu a2, a3, -30
    #[case::lb(0x80058503, Lb, 10, 11, 0, 0, 0, -2048)] // lb a0, -2048(a1)
    #[case::lh(0x7ff11303, Lh, 6, 2, 0, 0, 0, 2047)] // lh t1, 2047(sp)
    #[case::lw(0xffc9a903, Lw, 18, 19, 0, 0, 0, -4)] // lw s2, -4(s3)
    #[case::ld(0x00813083, Ld, 1, 2, 0, 0, 0, 8)] // ld ra, 8(sp)
    #[case::lbu(0x00184883, Lbu, 17, 16, 0, 0, 0, 1)] // lbu a7, 1(a6)
    #[case::lhu(0xffeede03, Lhu, 28, 29, 0, 0, 0, -2)] // lhu t3, -2(t4)
    #[case::lwu(0x0641ef03, Lwu, 30, 3, 0, 0, 0, 100)] // lwu t5, 100(gp)
    #[case::sb(0xfea58fa3, Sb, 0, 11, 10, 0, 0, -1)] // sb a0, -1(a1)
    #[case::sh(0x7e541f23, Sh, 0, 8, 5, 0, 0, 2046)] // sh t0, 2046(s0)
    #[case::sw(0x81522023, Sw, 0, 4, 21, 0, 0, -2048)] // sw s5, -2048(tp)
    #[case::sd(0x00113c23, Sd, 0, 2, 1, 0, 0, 24)] // sd ra, 24(sp)
    #[case::addi(0xfff58513, Addi, 10, 11, 0, 0, 0, -1)] // addi a0, a1, -1
    #[case::addi_nop(0x00000013, Addi, 0, 0, 0, 0, 0, 0)] // addi zero, zero, 0
    #[case::slti(0x7ff5a513, Slti, 10, 11, 0, 0, 0, 2047)] // slti a0, a1, 2047
    #[case::sltiu(0x8005b513, Sltiu, 10, 11, 0, 0, 0, -2048)] // sltiu a0, a1, -2048
    #[case::xori(0xfff34293, Xori, 5, 6, 0, 0, 0, -1)] // xori t0, t1, -1
    #[case::ori(0x5554e413, Ori, 8, 9, 0, 0, 0, 1365)] // ori s0, s1, 0x555
    #[case::andi(0x0ff7f713, Andi, 14, 15, 0, 0, 0, 255)] // andi a4, a5, 255
    #[case::slli(0x03f59513, Slli, 10, 11, 0, 0, 0, 63)] // slli a0, a1, 63
    #[case::srli(0x0205d513, Srli, 10, 11, 0, 0, 0, 32)] // srli a0, a1, 32
    #[case::srai(0x4015d513, Srai, 10, 11, 0, 0, 0, 1)] // srai a0, a1, 1
    #[case::srai_63(0x43ffdf93, Srai, 31, 31, 0, 0, 0, 63)] // srai t6, t6, 63
    #[case::add(0x00c58533, Add, 10, 11, 12, 0, 0, 0)] // add a0, a1, a2
    #[case::sub(0x407302b3, Sub, 5, 6, 7, 0, 0, 0)] // sub t0, t1, t2
    #[case::sll(0x00a49433, Sll, 8, 9, 10, 0, 0, 0)] // sll s0, s1, a0
    #[case::slt(0x00f726b3, Slt, 13, 14, 15, 0, 0, 0)] // slt a3, a4, a5
    #[case::sltu(0x0128b833, Sltu, 16, 17, 18, 0, 0, 0)] // sltu a6, a7, s2
    #[case::xor(0x015a49b3, Xor, 19, 20, 21, 0, 0, 0)] // xor s3, s4, s5
    #[case::srl(0x018bdb33, Srl, 22, 23, 24, 0, 0, 0)] // srl s6, s7, s8
    #[case::sra(0x41bd5cb3, Sra, 25, 26, 27, 0, 0, 0)] // sra s9, s10, s11
    #[case::or(0x01eeee33, Or, 28, 29, 30, 0, 0, 0)] // or t3, t4, t5
    #[case::and(0x0020ffb3, And, 31, 1, 2, 0, 0, 0)] // and t6, ra, sp
    #[case::addiw(0x8005851b, Addiw, 10, 11, 0, 0, 0, -2048)] // addiw a0, a1, -2048
    #[case::slliw(0x01f5951b, Slliw, 10, 11, 0, 0, 0, 31)] // slliw a0, a1, 31
    #[case::srliw(0x0015d51b, Srliw, 10, 11, 0, 0, 0, 1)] // srliw a0, a1, 1
    #[case::sraiw(0x41f5d51b, Sraiw, 10, 11, 0, 0, 0, 31)] // sraiw a0, a1, 31
    #[case::addw(0x00c5853b, Addw, 10, 11, 12, 0, 0, 0)] // addw a0, a1, a2
    #[case::subw(0x40c5853b, Subw, 10, 11, 12, 0, 0, 0)] // subw a0, a1, a2
    #[case::sllw(0x00c5953b, Sllw, 10, 11, 12, 0, 0, 0)] // sllw a0, a1, a2
    #[case::srlw(0x00c5d53b, Srlw, 10, 11, 12, 0, 0, 0)] // srlw a0, a1, a2
    #[case::sraw(0x40c5d53b, Sraw, 10, 11, 12, 0, 0, 0)] // sraw a0, a1, a2
    #[case::fence(0x0310000f, Fence, 0, 0, 0, 0, 0, 0)] // fence rw, w
    #[case::fence_iorw(0x0ff0000f, Fence, 0, 0, 0, 0, 0, 0)] // fence iorw, iorw
    #[case::fence_tso(0x8330000f, Fence, 0, 0, 0, 0, 0, 0)] // fence.tso
    #[case::pause(0x0100000f, Fence, 0, 0, 0, 0, 0, 0)] // hand-encoded
    #[case::fence_reserved_fields(0xf0f5850f, Fence, 0, 0, 0, 0, 0, 0)] // hand-encoded
    #[case::ecall(0x00000073, Ecall, 0, 0, 0, 0, 0, 0)] // ecall
    #[case::ebreak(0x00100073, Ebreak, 0, 0, 0, 0, 0, 0)] // ebreak
    #[case::fence_i(0x0000100f, FenceI, 0, 0, 0, 0, 0, 0)] // fence.i
    #[case::fence_i_reserved_fields(0xfff5958f, FenceI, 0, 0, 0, 0, 0, 0)] // hand-encoded
    #[case::prefetch_i_hint(0x00056013, Ori, 0, 10, 0, 0, 0, 0)] // ori zero, a0, 0
    #[case::csrrw(0x30059573, Csrrw, 10, 11, 0, 0, 0, 768)] // csrrw a0, mstatus, a1
    #[case::csrrs(0xc00022f3, Csrrs, 5, 0, 0, 0, 0, 3072)] // csrrs t0, cycle, zero
    #[case::csrrc(0xfff43073, Csrrc, 0, 8, 0, 0, 0, 4095)] // csrrc zero, 0xfff, s0
    #[case::csrrwi(0x7c0fd573, Csrrwi, 10, 31, 0, 0, 0, 1984)] // csrrwi a0, 0x7c0, 31
    #[case::csrrsi(0x0010e073, Csrrsi, 0, 1, 0, 0, 0, 1)] // csrrsi zero, fflags, 1
    #[case::csrrci(0x100877f3, Csrrci, 15, 16, 0, 0, 0, 256)] // csrrci a5, sstatus, 16
    #[case::mul(0x02c58533, Mul, 10, 11, 12, 0, 0, 0)] // mul a0, a1, a2
    #[case::mulh(0x02c59533, Mulh, 10, 11, 12, 0, 0, 0)] // mulh a0, a1, a2
    #[case::mulhsu(0x02c5a533, Mulhsu, 10, 11, 12, 0, 0, 0)] // mulhsu a0, a1, a2
    #[case::mulhu(0x02c5b533, Mulhu, 10, 11, 12, 0, 0, 0)] // mulhu a0, a1, a2
    #[case::div(0x027342b3, Div, 5, 6, 7, 0, 0, 0)] // div t0, t1, t2
    #[case::divu(0x027352b3, Divu, 5, 6, 7, 0, 0, 0)] // divu t0, t1, t2
    #[case::rem(0x0324e433, Rem, 8, 9, 18, 0, 0, 0)] // rem s0, s1, s2
    #[case::remu(0x0324f433, Remu, 8, 9, 18, 0, 0, 0)] // remu s0, s1, s2
    #[case::mulw(0x02c5853b, Mulw, 10, 11, 12, 0, 0, 0)] // mulw a0, a1, a2
    #[case::divw(0x02c5c53b, Divw, 10, 11, 12, 0, 0, 0)] // divw a0, a1, a2
    #[case::divuw(0x02c5d53b, Divuw, 10, 11, 12, 0, 0, 0)] // divuw a0, a1, a2
    #[case::remw(0x02c5e53b, Remw, 10, 11, 12, 0, 0, 0)] // remw a0, a1, a2
    #[case::remuw(0x02c5f53b, Remuw, 10, 11, 12, 0, 0, 0)] // remuw a0, a1, a2
    #[case::lr_w(0x1005a52f, LrW, 10, 11, 0, 0, 0, 0)] // lr.w a0, (a1)
    #[case::sc_w_aq(0x1cc5a52f, ScW, 10, 11, 12, 0, 2, 0)] // sc.w.aq a0, a2, (a1)
    #[case::amoswap_w_rl(0x0a7322af, AmoswapW, 5, 6, 7, 0, 1, 0)] // amoswap.w.rl t0, t2, (t1)
    #[case::amoadd_w_aqrl(0x067322af, AmoaddW, 5, 6, 7, 0, 3, 0)] // amoadd.w.aqrl t0, t2, (t1)
    #[case::amoxor_w(0x207322af, AmoxorW, 5, 6, 7, 0, 0, 0)] // amoxor.w t0, t2, (t1)
    #[case::amoand_w_aq(0x647322af, AmoandW, 5, 6, 7, 0, 2, 0)] // amoand.w.aq t0, t2, (t1)
    #[case::amoor_w_rl(0x427322af, AmoorW, 5, 6, 7, 0, 1, 0)] // amoor.w.rl t0, t2, (t1)
    #[case::amomin_w_aqrl(0x867322af, AmominW, 5, 6, 7, 0, 3, 0)] // amomin.w.aqrl t0, t2, (t1)
    #[case::amomax_w(0xa07322af, AmomaxW, 5, 6, 7, 0, 0, 0)] // amomax.w t0, t2, (t1)
    #[case::amominu_w_aq(0xc47322af, AmominuW, 5, 6, 7, 0, 2, 0)] // amominu.w.aq t0, t2, (t1)
    #[case::amomaxu_w_rl(0xe27322af, AmomaxuW, 5, 6, 7, 0, 1, 0)] // amomaxu.w.rl t0, t2, (t1)
    #[case::lr_d_aqrl(0x1605b52f, LrD, 10, 11, 0, 0, 3, 0)] // lr.d.aqrl a0, (a1)
    #[case::sc_d(0x18c5b52f, ScD, 10, 11, 12, 0, 0, 0)] // sc.d a0, a2, (a1)
    #[case::amoswap_d_aq(0x0c7332af, AmoswapD, 5, 6, 7, 0, 2, 0)] // amoswap.d.aq t0, t2, (t1)
    #[case::amoadd_d_rl(0x027332af, AmoaddD, 5, 6, 7, 0, 1, 0)] // amoadd.d.rl t0, t2, (t1)
    #[case::amoxor_d_aqrl(0x267332af, AmoxorD, 5, 6, 7, 0, 3, 0)] // amoxor.d.aqrl t0, t2, (t1)
    #[case::amoand_d(0x607332af, AmoandD, 5, 6, 7, 0, 0, 0)] // amoand.d t0, t2, (t1)
    #[case::amoor_d_aq(0x447332af, AmoorD, 5, 6, 7, 0, 2, 0)] // amoor.d.aq t0, t2, (t1)
    #[case::amomin_d_rl(0x827332af, AmominD, 5, 6, 7, 0, 1, 0)] // amomin.d.rl t0, t2, (t1)
    #[case::amomax_d_aqrl(0xa67332af, AmomaxD, 5, 6, 7, 0, 3, 0)] // amomax.d.aqrl t0, t2, (t1)
    #[case::amominu_d(0xc07332af, AmominuD, 5, 6, 7, 0, 0, 0)] // amominu.d t0, t2, (t1)
    #[case::amomaxu_d_aq(0xe47332af, AmomaxuD, 5, 6, 7, 0, 2, 0)] // amomaxu.d.aq t0, t2, (t1)
    #[case::flw(0xff852007, Flw, 0, 10, 0, 0, 0, -8)] // flw ft0, -8(a0)
    #[case::fsw(0x7fb12c27, Fsw, 0, 2, 27, 0, 0, 2040)] // fsw fs11, 2040(sp)
    #[case::fmadd_s_rne(0x68c58543, FmaddS, 10, 11, 12, 13, 0, 0)] // fmadd.s fa0, fa1, fa2, fa3, rne
    #[case::fmsub_s_rtz(0x68c59547, FmsubS, 10, 11, 12, 13, 1, 0)] // fmsub.s fa0, fa1, fa2, fa3, rtz
    #[case::fnmsub_s_rdn(0x68c5a54b, FnmsubS, 10, 11, 12, 13, 2, 0)] // fnmsub.s fa0, fa1, fa2, fa3, rdn
    #[case::fnmadd_s_rup(0x68c5b54f, FnmaddS, 10, 11, 12, 13, 3, 0)] // fnmadd.s fa0, fa1, fa2, fa3, rup
    #[case::fadd_s_rmm(0x003140d3, FaddS, 1, 2, 3, 0, 4, 0)] // fadd.s ft1, ft2, ft3, rmm
    #[case::fsub_s_dyn(0x083170d3, FsubS, 1, 2, 3, 0, 7, 0)] // fsub.s ft1, ft2, ft3, dyn
    #[case::fmul_s_rne(0x103100d3, FmulS, 1, 2, 3, 0, 0, 0)] // fmul.s ft1, ft2, ft3, rne
    #[case::fdiv_s_rtz(0x183110d3, FdivS, 1, 2, 3, 0, 1, 0)] // fdiv.s ft1, ft2, ft3, rtz
    #[case::fsqrt_s_rdn(0x5804a453, FsqrtS, 8, 9, 0, 0, 2, 0)] // fsqrt.s fs0, fs1, rdn
    #[case::fsgnj_s(0x211807d3, FsgnjS, 15, 16, 17, 0, 0, 0)] // fsgnj.s fa5, fa6, fa7
    #[case::fsgnjn_s(0x211817d3, FsgnjnS, 15, 16, 17, 0, 0, 0)] // fsgnjn.s fa5, fa6, fa7
    #[case::fsgnjx_s(0x211827d3, FsgnjxS, 15, 16, 17, 0, 0, 0)] // fsgnjx.s fa5, fa6, fa7
    #[case::fmin_s(0x291807d3, FminS, 15, 16, 17, 0, 0, 0)] // fmin.s fa5, fa6, fa7
    #[case::fmax_s(0x291817d3, FmaxS, 15, 16, 17, 0, 0, 0)] // fmax.s fa5, fa6, fa7
    #[case::feq_s(0xa1ff2553, FeqS, 10, 30, 31, 0, 0, 0)] // feq.s a0, ft10, ft11
    #[case::flt_s(0xa1ff1553, FltS, 10, 30, 31, 0, 0, 0)] // flt.s a0, ft10, ft11
    #[case::fle_s(0xa1ff0553, FleS, 10, 30, 31, 0, 0, 0)] // fle.s a0, ft10, ft11
    #[case::fclass_s(0xe00595d3, FclassS, 11, 11, 0, 0, 0, 0)] // fclass.s a1, fa1
    #[case::fcvt_w_s_rup(0xc00032d3, FcvtWS, 5, 0, 0, 0, 3, 0)] // fcvt.w.s t0, ft0, rup
    #[case::fcvt_s_w_rmm(0xd002c053, FcvtSW, 0, 5, 0, 0, 4, 0)] // fcvt.s.w ft0, t0, rmm
    #[case::fcvt_wu_s_dyn(0xc01072d3, FcvtWuS, 5, 0, 0, 0, 7, 0)] // fcvt.wu.s t0, ft0, dyn
    #[case::fcvt_s_wu_rne(0xd0128053, FcvtSWu, 0, 5, 0, 0, 0, 0)] // fcvt.s.wu ft0, t0, rne
    #[case::fcvt_l_s_rtz(0xc02012d3, FcvtLS, 5, 0, 0, 0, 1, 0)] // fcvt.l.s t0, ft0, rtz
    #[case::fcvt_s_l_rdn(0xd022a053, FcvtSL, 0, 5, 0, 0, 2, 0)] // fcvt.s.l ft0, t0, rdn
    #[case::fcvt_lu_s_rup(0xc03032d3, FcvtLuS, 5, 0, 0, 0, 3, 0)] // fcvt.lu.s t0, ft0, rup
    #[case::fcvt_s_lu_rmm(0xd032c053, FcvtSLu, 0, 5, 0, 0, 4, 0)] // fcvt.s.lu ft0, t0, rmm
    #[case::fmv_x_w(0xe0050553, FmvXW, 10, 10, 0, 0, 0, 0)] // fmv.x.w a0, fa0
    #[case::fmv_w_x(0xf0050553, FmvWX, 10, 10, 0, 0, 0, 0)] // fmv.w.x fa0, a0
    #[case::fld(0xff853007, Fld, 0, 10, 0, 0, 0, -8)] // fld ft0, -8(a0)
    #[case::fsd(0x7fb13c27, Fsd, 0, 2, 27, 0, 0, 2040)] // fsd fs11, 2040(sp)
    #[case::fmadd_d_dyn(0x6ac5f543, FmaddD, 10, 11, 12, 13, 7, 0)] // fmadd.d fa0, fa1, fa2, fa3, dyn
    #[case::fmsub_d_rne(0x6ac58547, FmsubD, 10, 11, 12, 13, 0, 0)] // fmsub.d fa0, fa1, fa2, fa3, rne
    #[case::fnmsub_d_rtz(0x6ac5954b, FnmsubD, 10, 11, 12, 13, 1, 0)] // fnmsub.d fa0, fa1, fa2, fa3, rtz
    #[case::fnmadd_d_rdn(0x6ac5a54f, FnmaddD, 10, 11, 12, 13, 2, 0)] // fnmadd.d fa0, fa1, fa2, fa3, rdn
    #[case::fadd_d_rup(0x023130d3, FaddD, 1, 2, 3, 0, 3, 0)] // fadd.d ft1, ft2, ft3, rup
    #[case::fsub_d_rmm(0x0a3140d3, FsubD, 1, 2, 3, 0, 4, 0)] // fsub.d ft1, ft2, ft3, rmm
    #[case::fmul_d_dyn(0x123170d3, FmulD, 1, 2, 3, 0, 7, 0)] // fmul.d ft1, ft2, ft3, dyn
    #[case::fdiv_d_rne(0x1a3100d3, FdivD, 1, 2, 3, 0, 0, 0)] // fdiv.d ft1, ft2, ft3, rne
    #[case::fsqrt_d_rtz(0x5a049453, FsqrtD, 8, 9, 0, 0, 1, 0)] // fsqrt.d fs0, fs1, rtz
    #[case::fsgnj_d(0x231807d3, FsgnjD, 15, 16, 17, 0, 0, 0)] // fsgnj.d fa5, fa6, fa7
    #[case::fsgnjn_d(0x231817d3, FsgnjnD, 15, 16, 17, 0, 0, 0)] // fsgnjn.d fa5, fa6, fa7
    #[case::fsgnjx_d(0x231827d3, FsgnjxD, 15, 16, 17, 0, 0, 0)] // fsgnjx.d fa5, fa6, fa7
    #[case::fmin_d(0x2b1807d3, FminD, 15, 16, 17, 0, 0, 0)] // fmin.d fa5, fa6, fa7
    #[case::fmax_d(0x2b1817d3, FmaxD, 15, 16, 17, 0, 0, 0)] // fmax.d fa5, fa6, fa7
    #[case::feq_d(0xa3ff2553, FeqD, 10, 30, 31, 0, 0, 0)] // feq.d a0, ft10, ft11
    #[case::flt_d(0xa3ff1553, FltD, 10, 30, 31, 0, 0, 0)] // flt.d a0, ft10, ft11
    #[case::fle_d(0xa3ff0553, FleD, 10, 30, 31, 0, 0, 0)] // fle.d a0, ft10, ft11
    #[case::fclass_d(0xe20595d3, FclassD, 11, 11, 0, 0, 0, 0)] // fclass.d a1, fa1
    #[case::fcvt_w_d_rdn(0xc20022d3, FcvtWD, 5, 0, 0, 0, 2, 0)] // fcvt.w.d t0, ft0, rdn
    #[case::fcvt_d_w(0xd2028053, FcvtDW, 0, 5, 0, 0, 0, 0)] // fcvt.d.w ft0, t0
    #[case::fcvt_wu_d_rup(0xc21032d3, FcvtWuD, 5, 0, 0, 0, 3, 0)] // fcvt.wu.d t0, ft0, rup
    #[case::fcvt_d_wu(0xd2128053, FcvtDWu, 0, 5, 0, 0, 0, 0)] // fcvt.d.wu ft0, t0
    #[case::fcvt_l_d_rmm(0xc22042d3, FcvtLD, 5, 0, 0, 0, 4, 0)] // fcvt.l.d t0, ft0, rmm
    #[case::fcvt_d_l_dyn(0xd222f053, FcvtDL, 0, 5, 0, 0, 7, 0)] // fcvt.d.l ft0, t0, dyn
    #[case::fcvt_lu_d_rne(0xc23002d3, FcvtLuD, 5, 0, 0, 0, 0, 0)] // fcvt.lu.d t0, ft0, rne
    #[case::fcvt_d_lu_rtz(0xd2329053, FcvtDLu, 0, 5, 0, 0, 1, 0)] // fcvt.d.lu ft0, t0, rtz
    #[case::fmv_x_d(0xe2050553, FmvXD, 10, 10, 0, 0, 0, 0)] // fmv.x.d a0, fa0
    #[case::fmv_d_x(0xf2050553, FmvDX, 10, 10, 0, 0, 0, 0)] // fmv.d.x fa0, a0
    #[case::fcvt_s_d_rup(0x4015b553, FcvtSD, 10, 11, 0, 0, 3, 0)] // fcvt.s.d fa0, fa1, rup
    #[case::fcvt_d_s(0x42058553, FcvtDS, 10, 11, 0, 0, 0, 0)] // fcvt.d.s fa0, fa1
    #[case::fcvt_d_s_dyn(0x4205f553, FcvtDS, 10, 11, 0, 0, 7, 0)] // hand-encoded
    #[case::mret(0x30200073, Mret, 0, 0, 0, 0, 0, 0)] // mret
    #[case::sret(0x10200073, Sret, 0, 0, 0, 0, 0, 0)] // sret
    #[case::wfi(0x10500073, Wfi, 0, 0, 0, 0, 0, 0)] // wfi
    #[case::sctrclr(0x10400073, Sctrclr, 0, 0, 0, 0, 0, 0)] // sctrclr (Smctr 1.0)
    #[case::sfence_vma(0x12b50073, SfenceVma, 0, 10, 11, 0, 0, 0)] // sfence.vma a0, a1
    #[case::sfence_vma_all(0x12000073, SfenceVma, 0, 0, 0, 0, 0, 0)] // sfence.vma zero, zero
    fn decodes_32bit(
        #[case] bits: u32,
        #[case] op: Op,
        #[case] rd: u8,
        #[case] rs1: u8,
        #[case] rs2: u8,
        #[case] rs3: u8,
        #[case] rm: u8,
        #[case] imm: i32,
    ) {
        let expected = want(bits, 4, op, rd, rs1, rs2, rs3, rm, imm);
        assert_eq!(decode32(bits), expected);
        assert_eq!(decode(bits), expected);
        assert_eq!(insn_len(bits as u16), 4);
    }

    // Encodings from `llvm-mc -triple=riscv64 -mattr=+m,+a,+f,+d,+c -show-encoding` unless
    // marked hand-encoded (the HINTs, which assemblers refuse). Expected values are the
    // expansion. Columns: bits, op, rd, rs1, rs2, rs3, rm, imm.
    #[rstest]
    #[case::c_addi4spn(0x1fe8, Addi, 10, 2, 0, 0, 0, 1020)] // c.addi4spn a0, sp, 1020
    #[case::c_addi4spn_min(0x0044, Addi, 9, 2, 0, 0, 0, 4)] // c.addi4spn s1, sp, 4
    #[case::c_fld(0x3de8, Fld, 10, 11, 0, 0, 0, 248)] // c.fld fa0, 248(a1)
    #[case::c_lw(0x5ef0, Lw, 12, 13, 0, 0, 0, 124)] // c.lw a2, 124(a3)
    #[case::c_ld(0x7ff8, Ld, 14, 15, 0, 0, 0, 248)] // c.ld a4, 248(a5)
    #[case::c_fsd(0xa480, Fsd, 0, 9, 8, 0, 0, 8)] // c.fsd fs0, 8(s1)
    #[case::c_sw(0xc120, Sw, 0, 10, 8, 0, 0, 64)] // c.sw s0, 64(a0)
    #[case::c_sd(0xe05c, Sd, 0, 8, 15, 0, 0, 128)] // c.sd a5, 128(s0)
    #[case::c_nop(0x0001, Addi, 0, 0, 0, 0, 0, 0)] // c.nop
    #[case::c_addi(0x1501, Addi, 10, 10, 0, 0, 0, -32)] // c.addi a0, -32
    #[case::c_addi_31(0x0ffd, Addi, 31, 31, 0, 0, 0, 31)] // c.addi t6, 31
    #[case::c_addiw(0x357d, Addiw, 10, 10, 0, 0, 0, -1)] // c.addiw a0, -1
    #[case::c_addiw_0(0x2481, Addiw, 9, 9, 0, 0, 0, 0)] // c.addiw s1, 0
    #[case::c_li(0x57fd, Addi, 15, 0, 0, 0, 0, -1)] // c.li a5, -1
    #[case::c_addi16sp(0x7101, Addi, 2, 2, 0, 0, 0, -512)] // c.addi16sp sp, -512
    #[case::c_addi16sp_max(0x617d, Addi, 2, 2, 0, 0, 0, 496)] // c.addi16sp sp, 496
    #[case::c_lui(0x757d, Lui, 10, 0, 0, 0, 0, -4096)] // c.lui a0, 0xfffff
    #[case::c_lui_max(0x6ffd, Lui, 31, 0, 0, 0, 0, 126976)] // c.lui t6, 31
    #[case::c_lui_min(0x7181, Lui, 3, 0, 0, 0, 0, -131072)] // c.lui gp, 0xfffe0
    #[case::c_srli(0x907d, Srli, 8, 8, 0, 0, 0, 63)] // c.srli s0, 63
    #[case::c_srai(0x8785, Srai, 15, 15, 0, 0, 0, 1)] // c.srai a5, 1
    #[case::c_andi(0x9901, Andi, 10, 10, 0, 0, 0, -32)] // c.andi a0, -32
    #[case::c_sub(0x8c05, Sub, 8, 8, 9, 0, 0, 0)] // c.sub s0, s1
    #[case::c_xor(0x8d2d, Xor, 10, 10, 11, 0, 0, 0)] // c.xor a0, a1
    #[case::c_or(0x8e55, Or, 12, 12, 13, 0, 0, 0)] // c.or a2, a3
    #[case::c_and(0x8f7d, And, 14, 14, 15, 0, 0, 0)] // c.and a4, a5
    #[case::c_subw(0x9c89, Subw, 9, 9, 10, 0, 0, 0)] // c.subw s1, a0
    #[case::c_addw(0x9fa1, Addw, 15, 15, 8, 0, 0, 0)] // c.addw a5, s0
    #[case::c_j(0xb001, Jal, 0, 0, 0, 0, 0, -2048)] // c.j -2048
    #[case::c_j_max(0xaffd, Jal, 0, 0, 0, 0, 0, 2046)] // c.j 2046
    #[case::c_beqz(0xd001, Beq, 0, 8, 0, 0, 0, -256)] // c.beqz s0, -256
    #[case::c_bnez(0xeffd, Bne, 0, 15, 0, 0, 0, 254)] // c.bnez a5, 254
    #[case::c_slli(0x157e, Slli, 10, 10, 0, 0, 0, 63)] // c.slli a0, 63
    #[case::c_fldsp(0x347e, Fld, 8, 2, 0, 0, 0, 504)] // c.fldsp fs0, 504(sp)
    #[case::c_fldsp_f0(0x2002, Fld, 0, 2, 0, 0, 0, 0)] // c.fldsp ft0, 0(sp)
    #[case::c_lwsp(0x50fe, Lw, 1, 2, 0, 0, 0, 252)] // c.lwsp ra, 252(sp)
    #[case::c_ldsp(0x7ffe, Ld, 31, 2, 0, 0, 0, 504)] // c.ldsp t6, 504(sp)
    #[case::c_jr(0x8082, Jalr, 0, 1, 0, 0, 0, 0)] // c.jr ra
    #[case::c_mv(0x852e, Add, 10, 0, 11, 0, 0, 0)] // c.mv a0, a1
    #[case::c_ebreak(0x9002, Ebreak, 0, 0, 0, 0, 0, 0)] // c.ebreak
    #[case::c_jalr(0x9502, Jalr, 1, 10, 0, 0, 0, 0)] // c.jalr a0
    #[case::c_add(0x952e, Add, 10, 10, 11, 0, 0, 0)] // c.add a0, a1
    #[case::c_fsdsp(0xbfa6, Fsd, 0, 2, 9, 0, 0, 504)] // c.fsdsp fs1, 504(sp)
    #[case::c_swsp(0xdf96, Sw, 0, 2, 5, 0, 0, 252)] // c.swsp t0, 252(sp)
    #[case::c_sdsp(0xe46e, Sd, 0, 2, 27, 0, 0, 8)] // c.sdsp s11, 8(sp)
    #[case::c_nop_hint(0x0005, Addi, 0, 0, 0, 0, 0, 1)] // hand-encoded
    #[case::c_addi_hint_imm0(0x0501, Addi, 10, 10, 0, 0, 0, 0)] // hand-encoded
    #[case::c_li_hint_x0(0x4015, Addi, 0, 0, 0, 0, 0, 5)] // hand-encoded
    #[case::c_lui_hint_x0(0x6005, Lui, 0, 0, 0, 0, 0, 4096)] // hand-encoded
    #[case::c_mv_hint_x0(0x802a, Add, 0, 0, 10, 0, 0, 0)] // hand-encoded
    #[case::c_add_hint_x0(0x902a, Add, 0, 0, 10, 0, 0, 0)] // hand-encoded
    #[case::c_slli_hint_x0(0x0006, Slli, 0, 0, 0, 0, 0, 1)] // hand-encoded
    #[case::c_slli_hint_shamt0(0x0502, Slli, 10, 10, 0, 0, 0, 0)] // hand-encoded
    #[case::c_srli_hint_shamt0(0x8001, Srli, 8, 8, 0, 0, 0, 0)] // hand-encoded
    #[case::c_srai_hint_shamt0(0x8401, Srai, 8, 8, 0, 0, 0, 0)] // hand-encoded
    // Zcb (Spike's disassembly of the hand-encoded words)
    #[case::c_lbu(0x81c8, Lbu, 10, 11, 0, 0, 0, 1)] // c.lbu a0, 1(a1)
    #[case::c_lbu_3(0x80fc, Lbu, 15, 9, 0, 0, 0, 3)] // c.lbu a5, 3(s1)
    #[case::c_lhu(0x85a8, Lhu, 10, 11, 0, 0, 0, 2)] // c.lhu a0, 2(a1)
    #[case::c_lh(0x84f0, Lh, 12, 9, 0, 0, 0, 2)] // c.lh a2, 2(s1)
    #[case::c_sb(0x89f0, Sb, 0, 11, 12, 0, 0, 3)] // c.sb a2, 3(a1)
    #[case::c_sh(0x8da0, Sh, 0, 11, 8, 0, 0, 2)] // c.sh s0, 2(a1)
    #[case::c_zext_b(0x9c61, Andi, 8, 8, 0, 0, 0, 255)] // c.zext.b s0
    #[case::c_sext_b(0x9d65, SextB, 10, 10, 0, 0, 0, 0)] // c.sext.b a0
    #[case::c_zext_h(0x9d69, ZextH, 10, 10, 0, 0, 0, 0)] // c.zext.h a0
    #[case::c_sext_h(0x9d6d, SextH, 10, 10, 0, 0, 0, 0)] // c.sext.h a0
    #[case::c_zext_w(0x9d71, AddUw, 10, 10, 0, 0, 0, 0)] // c.zext.w a0
    #[case::c_not(0x9ff5, Xori, 15, 15, 0, 0, 0, -1)] // c.not a5
    #[case::c_mul(0x9fc1, Mul, 15, 15, 8, 0, 0, 0)] // c.mul a5, s0
    fn decodes_compressed(
        #[case] bits: u16,
        #[case] op: Op,
        #[case] rd: u8,
        #[case] rs1: u8,
        #[case] rs2: u8,
        #[case] rs3: u8,
        #[case] rm: u8,
        #[case] imm: i32,
    ) {
        let expected = want(bits as u32, 2, op, rd, rs1, rs2, rs3, rm, imm);
        assert_eq!(decode16(bits), expected);
        // The upper halfword of the fetched word is ignored.
        assert_eq!(decode(0xdead_0000 | bits as u32), expected);
        assert_eq!(insn_len(bits), 2);
    }

    /// Reserved compressed encodings.
    #[rstest]
    #[case::all_zero(0x0000)] // the all-zero parcel is defined illegal
    #[case::c_addi4spn_nzuimm_0(0x0004)] // c.addi4spn with nzuimm = 0
    #[case::c_lwsp_rd_0(0x4002)] // c.lwsp with rd = x0
    #[case::c_ldsp_rd_0(0x6002)] // c.ldsp with rd = x0
    #[case::c_jr_rs1_0(0x8002)] // c.jr with rs1 = x0
    #[case::c_addi16sp_imm_0(0x6101)] // c.addi16sp with nzimm = 0
    #[case::c_lui_imm_0(0x6501)] // c.lui a0 with nzimm = 0
    #[case::c_lui_x0_imm_0(0x6001)] // c.lui x0 with nzimm = 0 (reserved, not a HINT)
    #[case::c_addiw_rd_0(0x2005)] // c.addiw with rd = x0
    #[case::q0_funct3_4_op_4(0x9000)] // quadrant 0 funct3 100, bits 12:10 = 100 (Zcb's rest)
    #[case::q0_c_sh_bit6(0x8c40)] // c.sh with bit 6 set
    #[case::q1_zcb_unary_6(0x9c79)] // Zcb's unary group, funct 110
    #[case::q1_zcb_unary_7(0x9c7d)] // Zcb's unary group, funct 111
    #[case::not_compressed(0x0003)] // bits 1:0 = 11 is not a compressed instruction
    fn illegal_compressed(#[case] bits: u16) {
        assert_eq!(decode16(bits), Insn::illegal(bits as u32, 2));
    }

    /// Reserved or unsupported 32-bit encodings (hand-encoded).
    #[rstest]
    #[case::not_32bit(0x00000000)] // bits 1:0 != 11
    #[case::slli_shamt_64(0x04051513)] // slli with shamt[6] set
    #[case::srai_bad_funct6(0x7005d513)] // OP-IMM funct3 101 with imm[11:6] = 011100 (011000 is Zbb rori)
    #[case::slliw_shamt_32(0x0205151b)] // slliw with shamt[5] set
    #[case::sraiw_shamt_32(0x4205551b)] // sraiw with shamt[5] set
    #[case::op_funct7_2(0x04b50533)] // OP with funct7 0000010
    #[case::op32_funct3_2(0x00b5253b)] // OP-32 funct3 010
    #[case::load_funct3_7(0x00057503)] // LOAD funct3 111
    #[case::store_funct3_4(0x00a5c023)] // STORE funct3 100
    #[case::flh(0x00051507)] // LOAD-FP funct3 001 (Zfh)
    #[case::fsqrt_s_rs2_1(0x58150553)] // fsqrt.s with rs2 = 1
    #[case::fmv_x_w_rs2_1(0xe0150553)] // fmv.x.w with rs2 = 1
    #[case::fmv_x_d_rs2_1(0xe2150553)] // fmv.x.d with rs2 = 1
    #[case::fclass_s_rs2_1(0xe0159553)] // fclass.s with rs2 = 1
    #[case::fmv_w_x_rs2_2(0xf0250553)] // fmv.w.x with rs2 = 2 (rs2 = 1 is Zfa's fli.s)
    #[case::fcvt_w_s_rs2_4(0xc04592d3)] // fcvt with rs2 = 4
    #[case::fadd_h(0x04b50553)] // fmt = 10 (Zfh)
    #[case::fmadd_q(0x6ec58543)] // fmadd fmt = 11 (Q)
    #[case::fadd_s_rm_5(0x00b5d553)] // fadd.s with static rm 101
    #[case::fmadd_d_rm_6(0x6ac5e543)] // fmadd.d with static rm 110
    #[case::fsqrt_d_rm_5(0x5a05d553)] // fsqrt.d with static rm 101
    #[case::fcvt_d_s_rm_5(0x4205d553)] // fcvt.d.s with static rm 101
    #[case::fcvt_d_w_rm_6(0xd205e553)] // fcvt.d.w with static rm 110
    #[case::fcvt_l_d_rm_5(0xc225d2d3)] // fcvt.l.d with static rm 101
    #[case::fsgnj_s_funct3_3(0x20b53553)] // fsgnj.s funct3 011
    #[case::lr_w_rs2_1(0x1015a52f)] // lr.w with rs2 != 0
    #[case::amo_funct3_4(0x00b5c52f)] // AMO funct3 100
    #[case::amocas_w(0x28b5a52f)] // amocas.w (Zacas)
    #[case::ecall_rd(0x000000f3)] // ecall with rd != 0
    #[case::ebreak_rs1(0x00108073)] // ebreak with rs1 != 0
    #[case::mret_rs1(0x30208073)] // mret with rs1 != 0
    #[case::sret_rd(0x102000f3)] // sret with rd != 0
    #[case::wfi_rd(0x105000f3)] // wfi with rd != 0
    #[case::sfence_vma_rd(0x12b500f3)] // sfence.vma with rd != 0
    #[case::system_funct3_4(0x0000c073)] // SYSTEM funct3 100
    #[case::misc_mem_funct3_2(0x0030200f)] // MISC-MEM funct3 010, imm 3 (no CBO)
    #[case::cbo_rd_not_0(0x00052f8f)] // cbo.inval with rd = x31
    #[case::jalr_funct3_1(0x00051567)] // JALR funct3 001
    #[case::branch_funct3_2(0x00b52063)] // BRANCH funct3 010
    #[case::len48(0x0000001f)] // 48-bit encoding
    #[case::len64(0x0000003f)] // 64-bit encoding
    #[case::len_reserved(0x0000007f)] // >= 80-bit encoding
    #[case::custom0(0x0000000b)] // custom-0
    #[case::op_v(0x00000057)] // OP-V
    #[case::all_ones(0xffffffff)] // all ones
    fn illegal_32bit(#[case] bits: u32) {
        assert_eq!(decode32(bits), Insn::illegal(bits, 4));
    }

    #[test]
    fn length_of_longer_encodings_is_4() {
        assert_eq!(insn_len(0x001f), 4);
        assert_eq!(insn_len(0x003f), 4);
        assert_eq!(insn_len(0x007f), 4);
        assert_eq!(insn_len(0xffff), 4);
        assert_eq!(insn_len(0xfffe), 2);
    }

    proptest::proptest! {
        /// Any word decodes without panicking, with the raw bits, the length, and `wd`
        /// consistent.
        #[test]
        fn any_word_decodes_consistently(bits: u32) {
            let i = decode(bits);
            let len = insn_len(bits as u16);
            proptest::prop_assert_eq!(i.len, len);
            proptest::prop_assert_eq!(i.bits, if len == 2 { bits & 0xffff } else { bits });
            proptest::prop_assert_eq!(i.wd, if i.rd == 0 { 32 } else { i.rd });
            proptest::prop_assert!(i.op != Op::NotDecoded);
            proptest::prop_assert!(i.rd < 32 && i.rs1 < 32 && i.rs2 < 32 && i.off == 0 && i.rm < 8);
        }
    }
}
