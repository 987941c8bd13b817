//! Instruction semantics. One dispatch `match` on the decoded [`Op`]; short semantics inline,
//! the rest grouped by extension: [`a`] (atomics), [`fd`] (F and D), [`zicsr`] (CSR access),
//! [`system`] (traps, xRET, WFI, fences).
//!
//! `exec` returns the next pc, or one of the odd sentinels below, which no real pc can be
//! (pcs are always even with C), so the run loop tests one bit to find the unusual cases.
//! `REC` says whether to fill the retirement record; it is a const generic, so the untraced
//! executor contains no recording code at all.

mod a;
mod fd;
pub(crate) mod zicsr;
pub(crate) mod system;

use crate::insn::{Insn, Op};
use crate::machine::Machine;
use crate::record::Reg;
use arch::{Cause, Exception};

/// The instruction raised the exception in `Machine::exc`.
pub(crate) const TRAP: u64 = 1;
/// The instruction retired; `hart.pc` holds the next pc; pending interrupts must be re-checked
/// before the next instruction (CSR writes, xRET).
pub(crate) const SERIALIZE: u64 = 3;
/// The instruction retired; `hart.pc` holds the next pc; the decoded-instruction cache changed
/// (fence.i), so the run loop must look the page up again.
pub(crate) const REFETCH: u64 = 5;
/// WFI retired; `hart.pc` holds the next pc; the hart waits for an interrupt.
pub(crate) const WFI: u64 = 7;
/// The instruction did not execute: a pending interrupt must be taken first (before a CSR
/// instruction).
pub(crate) const IRQ: u64 = 9;

/// Evaluate a memory or CSR access; on `Err` the exception is already recorded: return TRAP.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(()) => return $crate::exec::TRAP,
        }
    };
}
pub(crate) use tri;

#[inline(always)]
fn sext32(v: u64) -> u64 {
    v as i32 as i64 as u64
}

impl Machine {
    #[inline(always)]
    pub(crate) fn rs1(&self, d: &Insn) -> u64 {
        self.hart.x[(d.rs1 & 31) as usize]
    }

    #[inline(always)]
    pub(crate) fn rs2(&self, d: &Insn) -> u64 {
        self.hart.x[(d.rs2 & 31) as usize]
    }

    /// Write the instruction's destination GPR (x0 writes land in the scratch slot).
    #[inline(always)]
    pub(crate) fn wx<const REC: bool>(&mut self, d: &Insn, v: u64) {
        self.hart.x[(d.wd & 63) as usize] = v;
        if REC && d.rd != 0 {
            self.rec.push_write(Reg::X(d.rd), v);
        }
    }

    /// Raise an exception from the current instruction.
    #[inline(always)]
    pub(crate) fn raise(&mut self, e: Exception, tval: u64) -> u64 {
        self.exc = (Cause::Exception(e), tval);
        TRAP
    }

    /// Raise an illegal-instruction exception with the instruction bits in xtval.
    #[cold]
    #[inline(never)]
    pub(crate) fn illegal(&mut self, d: &Insn) -> u64 {
        self.raise(Exception::IllegalInstruction, d.bits as u64)
    }

    /// Execute one decoded instruction at `pc`.
    #[inline(always)]
    pub(crate) fn exec<const REC: bool>(&mut self, d: &Insn, pc: u64) -> u64 {
        let npc = pc.wrapping_add(d.len as u64);
        let imm = d.imm as i64 as u64;
        macro_rules! alu {
            (|$a:ident, $b:ident| $e:expr) => {{
                let $a = self.rs1(d);
                let $b = self.rs2(d);
                self.wx::<REC>(d, $e);
                npc
            }};
        }
        macro_rules! alui {
            (|$a:ident| $e:expr) => {{
                let $a = self.rs1(d);
                self.wx::<REC>(d, $e);
                npc
            }};
        }
        macro_rules! branch {
            (|$a:ident, $b:ident| $c:expr) => {{
                let $a = self.rs1(d);
                let $b = self.rs2(d);
                if $c {
                    pc.wrapping_add(imm)
                } else {
                    npc
                }
            }};
        }
        macro_rules! load {
            ($size:expr, |$v:ident| $e:expr) => {{
                let addr = self.rs1(d).wrapping_add(imm);
                let $v = tri!(self.load::<REC>(addr, $size));
                self.wx::<REC>(d, $e);
                npc
            }};
        }
        macro_rules! store {
            ($size:expr) => {{
                let addr = self.rs1(d).wrapping_add(imm);
                let v = self.rs2(d);
                tri!(self.store::<REC>(addr, $size, v));
                npc
            }};
        }
        match d.op {
            Op::Lui => {
                self.wx::<REC>(d, imm);
                npc
            }
            Op::Auipc => {
                self.wx::<REC>(d, pc.wrapping_add(imm));
                npc
            }
            Op::Jal => {
                self.wx::<REC>(d, npc);
                pc.wrapping_add(imm)
            }
            Op::Jalr => {
                let target = self.rs1(d).wrapping_add(imm) & !1;
                self.wx::<REC>(d, npc);
                target
            }
            Op::Beq => branch!(|a, b| a == b),
            Op::Bne => branch!(|a, b| a != b),
            Op::Blt => branch!(|a, b| (a as i64) < (b as i64)),
            Op::Bge => branch!(|a, b| (a as i64) >= (b as i64)),
            Op::Bltu => branch!(|a, b| a < b),
            Op::Bgeu => branch!(|a, b| a >= b),
            Op::Lb => load!(1, |v| v as i8 as i64 as u64),
            Op::Lh => load!(2, |v| v as i16 as i64 as u64),
            Op::Lw => load!(4, |v| sext32(v)),
            Op::Ld => load!(8, |v| v),
            Op::Lbu => load!(1, |v| v),
            Op::Lhu => load!(2, |v| v),
            Op::Lwu => load!(4, |v| v),
            Op::Sb => store!(1),
            Op::Sh => store!(2),
            Op::Sw => store!(4),
            Op::Sd => store!(8),
            Op::Addi => alui!(|a| a.wrapping_add(imm)),
            Op::Slti => alui!(|a| ((a as i64) < (imm as i64)) as u64),
            Op::Sltiu => alui!(|a| (a < imm) as u64),
            Op::Xori => alui!(|a| a ^ imm),
            Op::Ori => alui!(|a| a | imm),
            Op::Andi => alui!(|a| a & imm),
            Op::Slli => alui!(|a| a << (imm & 63)),
            Op::Srli => alui!(|a| a >> (imm & 63)),
            Op::Srai => alui!(|a| ((a as i64) >> (imm & 63)) as u64),
            Op::Add => alu!(|a, b| a.wrapping_add(b)),
            Op::Sub => alu!(|a, b| a.wrapping_sub(b)),
            Op::Sll => alu!(|a, b| a << (b & 63)),
            Op::Slt => alu!(|a, b| ((a as i64) < (b as i64)) as u64),
            Op::Sltu => alu!(|a, b| (a < b) as u64),
            Op::Xor => alu!(|a, b| a ^ b),
            Op::Srl => alu!(|a, b| a >> (b & 63)),
            Op::Sra => alu!(|a, b| ((a as i64) >> (b & 63)) as u64),
            Op::Or => alu!(|a, b| a | b),
            Op::And => alu!(|a, b| a & b),
            Op::Addiw => alui!(|a| sext32(a.wrapping_add(imm))),
            Op::Slliw => alui!(|a| sext32(a << (imm & 31))),
            Op::Srliw => alui!(|a| sext32((a as u32 >> (imm & 31)) as u64)),
            Op::Sraiw => alui!(|a| ((a as i32) >> (imm & 31)) as i64 as u64),
            Op::Addw => alu!(|a, b| sext32(a.wrapping_add(b))),
            Op::Subw => alu!(|a, b| sext32(a.wrapping_sub(b))),
            Op::Sllw => alu!(|a, b| sext32(a << (b & 31))),
            Op::Srlw => alu!(|a, b| sext32((a as u32 >> (b & 31)) as u64)),
            Op::Sraw => alu!(|a, b| ((a as i32) >> (b & 31)) as i64 as u64),

            // M
            Op::Mul => alu!(|a, b| a.wrapping_mul(b)),
            Op::Mulh => alu!(|a, b| ((a as i64 as i128 * b as i64 as i128) >> 64) as u64),
            Op::Mulhsu => alu!(|a, b| ((a as i64 as i128 * b as i128) >> 64) as u64),
            Op::Mulhu => alu!(|a, b| ((a as u128 * b as u128) >> 64) as u64),
            Op::Div => alu!(|a, b| div(a as i64, b as i64) as u64),
            Op::Divu => alu!(|a, b| a.checked_div(b).unwrap_or(u64::MAX)),
            Op::Rem => alu!(|a, b| rem(a as i64, b as i64) as u64),
            Op::Remu => alu!(|a, b| if b == 0 { a } else { a % b }),
            Op::Mulw => alu!(|a, b| sext32(a.wrapping_mul(b))),
            Op::Divw => alu!(|a, b| div32(a as i32, b as i32) as i64 as u64),
            Op::Divuw => alu!(|a, b| sext32((a as u32).checked_div(b as u32).unwrap_or(u32::MAX) as u64)),
            Op::Remw => alu!(|a, b| rem32(a as i32, b as i32) as i64 as u64),
            Op::Remuw => alu!(|a, b| {
                let (a, b) = (a as u32, b as u32);
                sext32(if b == 0 { a } else { a % b } as u64)
            }),

            Op::Fence => npc,
            Op::FenceI => self.fence_i(npc),
            Op::Ecall => self.ecall(),
            Op::Ebreak => self.raise(Exception::Breakpoint, pc),
            Op::Mret => self.mret::<REC>(d),
            Op::Sret => self.sret::<REC>(d),
            Op::Wfi => self.wfi(d, npc),
            Op::SfenceVma => self.sfence_vma(d, npc),

            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                self.exec_csr::<REC>(d, npc)
            }

            Op::LrW
            | Op::ScW
            | Op::AmoswapW
            | Op::AmoaddW
            | Op::AmoxorW
            | Op::AmoandW
            | Op::AmoorW
            | Op::AmominW
            | Op::AmomaxW
            | Op::AmominuW
            | Op::AmomaxuW
            | Op::LrD
            | Op::ScD
            | Op::AmoswapD
            | Op::AmoaddD
            | Op::AmoxorD
            | Op::AmoandD
            | Op::AmoorD
            | Op::AmominD
            | Op::AmomaxD
            | Op::AmominuD
            | Op::AmomaxuD => self.exec_atomic::<REC>(d, npc),

            Op::Illegal | Op::NotDecoded => self.illegal(d),

            // Everything else is F or D.
            _ => self.exec_fp::<REC>(d, npc),
        }
    }
}

#[inline(always)]
fn div(a: i64, b: i64) -> i64 {
    if b == 0 {
        -1
    } else {
        a.wrapping_div(b)
    }
}

#[inline(always)]
fn rem(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        a.wrapping_rem(b)
    }
}

#[inline(always)]
fn div32(a: i32, b: i32) -> i32 {
    if b == 0 {
        -1
    } else {
        a.wrapping_div(b)
    }
}

#[inline(always)]
fn rem32(a: i32, b: i32) -> i32 {
    if b == 0 {
        a
    } else {
        a.wrapping_rem(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_corners() {
        assert_eq!(div(i64::MIN, -1), i64::MIN);
        assert_eq!(rem(i64::MIN, -1), 0);
        assert_eq!(div(7, 0), -1);
        assert_eq!(rem(7, 0), 7);
        assert_eq!(div32(i32::MIN, -1), i32::MIN);
        assert_eq!(rem32(i32::MIN, -1), 0);
        assert_eq!(div(-7, 2), -3);
        assert_eq!(rem(-7, 2), -1);
    }
}
