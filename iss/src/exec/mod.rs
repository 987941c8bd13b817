//! Instruction semantics, one small handler function per operation, reached through a table
//! indexed by the decoded [`Op`] (direct-call threading: the run loop stays tiny and each
//! handler reads only the operand fields it needs, in place in the decoded-instruction cache).
//! RV64I and M are here; the rest is grouped by extension: [`a`] (atomics), [`fd`] (F and D),
//! [`zicsr`] (CSR access), [`system`] (xRET, WFI, fences).
//!
//! A handler returns the next pc, or one of the odd sentinels below, which no real pc can be
//! (pcs are always even with C), so the run loop tests one bit to find the unusual cases.
//! `REC` says whether to fill the retirement record; it is a const generic, and there is one
//! table per value, so the untraced executor contains no recording code at all.

mod a;
mod fd;
pub(crate) mod system;
pub(crate) mod zicsr;

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
/// The slot holds no decoded instruction yet: decode it and try again.
pub(crate) const DECODE: u64 = 11;

/// An instruction handler: `(machine, instruction, pc, chunk budget left) -> next pc`.
pub(crate) type Handler = fn(&mut Machine, &Insn, u64, u64) -> u64;

/// The handlers when no record is built.
pub(crate) static HANDLERS: [Handler; 256] = table::<false>();
/// The handlers that also fill the retirement record.
pub(crate) static HANDLERS_REC: [Handler; 256] = table::<true>();

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

    /// After a store: if it overwrote decoded instructions, the run loop must pick up the
    /// change before the next instruction.
    #[inline(always)]
    pub(crate) fn after_store(&mut self, npc: u64) -> u64 {
        if self.dcache.dirty {
            self.hart.pc = npc;
            REFETCH
        } else {
            npc
        }
    }

    /// Raise an exception from the current instruction.
    #[inline(always)]
    pub(crate) fn raise(&mut self, e: Exception, tval: u64) -> u64 {
        self.exc = (Cause::Exception(e), tval);
        TRAP
    }

    /// Raise an illegal-instruction exception with the instruction bits in xtval.
    #[inline(always)]
    pub(crate) fn illegal(&mut self, d: &Insn) -> u64 {
        self.illegal_bits(d.bits)
    }

    #[cold]
    #[inline(never)]
    fn illegal_bits(&mut self, bits: u32) -> u64 {
        self.raise(Exception::IllegalInstruction, bits as u64)
    }

    /// Execute one decoded instruction at `pc` (outside the run loop's fast path).
    #[inline]
    pub(crate) fn exec<const REC: bool>(&mut self, d: &Insn, pc: u64, left: u64) -> u64 {
        let t = if REC { &HANDLERS_REC } else { &HANDLERS };
        t[d.op as usize](self, d, pc, left)
    }
}

#[inline(always)]
pub(crate) fn next(d: &Insn, pc: u64) -> u64 {
    pc.wrapping_add(d.len as u64)
}

#[inline(always)]
pub(crate) fn imm(d: &Insn) -> u64 {
    d.imm as i64 as u64
}

/// Register-register operations: `x[rd] = f(x[rs1], x[rs2])`.
macro_rules! alu {
    ($($name:ident => |$a:ident, $b:ident| $e:expr;)*) => {$(
        fn $name<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
            let $a = m.rs1(d);
            let $b = m.rs2(d);
            m.wx::<REC>(d, $e);
            next(d, pc)
        }
    )*};
}

/// Register-immediate operations: `x[rd] = f(x[rs1], imm)`.
macro_rules! alui {
    ($($name:ident => |$a:ident, $i:ident| $e:expr;)*) => {$(
        fn $name<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
            let $a = m.rs1(d);
            let $i = imm(d);
            m.wx::<REC>(d, $e);
            next(d, pc)
        }
    )*};
}

macro_rules! branch {
    ($($name:ident => |$a:ident, $b:ident| $c:expr;)*) => {$(
        fn $name<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
            let $a = m.rs1(d);
            let $b = m.rs2(d);
            if $c {
                pc.wrapping_add(imm(d))
            } else {
                next(d, pc)
            }
        }
    )*};
}

macro_rules! load {
    ($($name:ident => $size:expr, |$v:ident| $e:expr;)*) => {$(
        fn $name<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
            let addr = m.rs1(d).wrapping_add(imm(d));
            let $v = tri!(m.load::<REC>(addr, $size));
            m.wx::<REC>(d, $e);
            next(d, pc)
        }
    )*};
}

macro_rules! store {
    ($($name:ident => $size:expr;)*) => {$(
        fn $name<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
            let addr = m.rs1(d).wrapping_add(imm(d));
            let v = m.rs2(d);
            tri!(m.store::<REC>(addr, $size, v));
            m.after_store(next(d, pc))
        }
    )*};
}

fn lui<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
    m.wx::<REC>(d, imm(d));
    next(d, pc)
}

fn auipc<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
    m.wx::<REC>(d, pc.wrapping_add(imm(d)));
    next(d, pc)
}

fn jal<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
    m.wx::<REC>(d, next(d, pc));
    pc.wrapping_add(imm(d))
}

fn jalr<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
    let target = m.rs1(d).wrapping_add(imm(d)) & !1;
    m.wx::<REC>(d, next(d, pc));
    target
}

branch! {
    beq => |a, b| a == b;
    bne => |a, b| a != b;
    blt => |a, b| (a as i64) < (b as i64);
    bge => |a, b| (a as i64) >= (b as i64);
    bltu => |a, b| a < b;
    bgeu => |a, b| a >= b;
}

load! {
    lb => 1, |v| v as i8 as i64 as u64;
    lh => 2, |v| v as i16 as i64 as u64;
    lw => 4, |v| sext32(v);
    ld => 8, |v| v;
    lbu => 1, |v| v;
    lhu => 2, |v| v;
    lwu => 4, |v| v;
}

store! {
    sb => 1;
    sh => 2;
    sw => 4;
    sd => 8;
}

alui! {
    addi => |a, i| a.wrapping_add(i);
    slti => |a, i| ((a as i64) < (i as i64)) as u64;
    sltiu => |a, i| (a < i) as u64;
    xori => |a, i| a ^ i;
    ori => |a, i| a | i;
    andi => |a, i| a & i;
    slli => |a, i| a << (i & 63);
    srli => |a, i| a >> (i & 63);
    srai => |a, i| ((a as i64) >> (i & 63)) as u64;
    addiw => |a, i| sext32(a.wrapping_add(i));
    slliw => |a, i| sext32(a << (i & 31));
    srliw => |a, i| sext32((a as u32 >> (i & 31)) as u64);
    sraiw => |a, i| ((a as i32) >> (i & 31)) as i64 as u64;
}

alu! {
    add => |a, b| a.wrapping_add(b);
    sub => |a, b| a.wrapping_sub(b);
    sll => |a, b| a << (b & 63);
    slt => |a, b| ((a as i64) < (b as i64)) as u64;
    sltu => |a, b| (a < b) as u64;
    xor => |a, b| a ^ b;
    srl => |a, b| a >> (b & 63);
    sra => |a, b| ((a as i64) >> (b & 63)) as u64;
    or => |a, b| a | b;
    and => |a, b| a & b;
    addw => |a, b| sext32(a.wrapping_add(b));
    subw => |a, b| sext32(a.wrapping_sub(b));
    sllw => |a, b| sext32(a << (b & 31));
    srlw => |a, b| sext32((a as u32 >> (b & 31)) as u64);
    sraw => |a, b| ((a as i32) >> (b & 31)) as i64 as u64;
    // M
    mul => |a, b| a.wrapping_mul(b);
    mulh => |a, b| ((a as i64 as i128 * b as i64 as i128) >> 64) as u64;
    mulhsu => |a, b| ((a as i64 as i128 * b as i128) >> 64) as u64;
    mulhu => |a, b| ((a as u128 * b as u128) >> 64) as u64;
    div_ => |a, b| div(a as i64, b as i64) as u64;
    divu => |a, b| a.checked_div(b).unwrap_or(u64::MAX);
    rem_ => |a, b| rem(a as i64, b as i64) as u64;
    remu => |a, b| if b == 0 { a } else { a % b };
    mulw => |a, b| sext32(a.wrapping_mul(b));
    divw => |a, b| div32(a as i32, b as i32) as i64 as u64;
    divuw => |a, b| sext32((a as u32).checked_div(b as u32).unwrap_or(u32::MAX) as u64);
    remw => |a, b| rem32(a as i32, b as i32) as i64 as u64;
    remuw => |a, b| {
        let (a, b) = (a as u32, b as u32);
        sext32(if b == 0 { a } else { a % b } as u64)
    };
}

fn fence<const REC: bool>(_: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
    next(d, pc)
}

fn fence_i<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
    m.fence_i(next(d, pc))
}

fn ecall<const REC: bool>(m: &mut Machine, _: &Insn, _: u64, _: u64) -> u64 {
    m.ecall()
}

fn ebreak<const REC: bool>(m: &mut Machine, _: &Insn, pc: u64, _: u64) -> u64 {
    m.raise(Exception::Breakpoint, pc)
}

fn mret<const REC: bool>(m: &mut Machine, d: &Insn, _: u64, _: u64) -> u64 {
    m.mret::<REC>(d)
}

fn sret<const REC: bool>(m: &mut Machine, d: &Insn, _: u64, _: u64) -> u64 {
    m.sret::<REC>(d)
}

fn wfi<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
    m.wfi(d, next(d, pc))
}

fn sfence_vma<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
    m.sfence_vma(d, next(d, pc))
}

fn csr<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, left: u64) -> u64 {
    // The counters read the budget to know how many instructions retired.
    m.sched.budget = left;
    m.exec_csr::<REC>(d, next(d, pc))
}

fn atomic<const REC: bool>(m: &mut Machine, d: &Insn, pc: u64, _: u64) -> u64 {
    m.exec_atomic::<REC>(d, next(d, pc))
}

fn illegal<const REC: bool>(m: &mut Machine, d: &Insn, _: u64, _: u64) -> u64 {
    m.illegal(d)
}

fn not_decoded<const REC: bool>(_: &mut Machine, _: &Insn, _: u64, _: u64) -> u64 {
    DECODE
}

/// Build the handler table for one recording mode.
const fn table<const REC: bool>() -> [Handler; 256] {
    let mut t: [Handler; 256] = [illegal::<REC>; 256];
    macro_rules! set {
        ($($op:ident => $h:ident),* $(,)?) => {$( t[Op::$op as usize] = $h::<REC>; )*};
    }
    set!(
        NotDecoded => not_decoded, Illegal => illegal,
        Lui => lui, Auipc => auipc, Jal => jal, Jalr => jalr,
        Beq => beq, Bne => bne, Blt => blt, Bge => bge, Bltu => bltu, Bgeu => bgeu,
        Lb => lb, Lh => lh, Lw => lw, Ld => ld, Lbu => lbu, Lhu => lhu, Lwu => lwu,
        Sb => sb, Sh => sh, Sw => sw, Sd => sd,
        Addi => addi, Slti => slti, Sltiu => sltiu, Xori => xori, Ori => ori, Andi => andi,
        Slli => slli, Srli => srli, Srai => srai,
        Add => add, Sub => sub, Sll => sll, Slt => slt, Sltu => sltu, Xor => xor,
        Srl => srl, Sra => sra, Or => or, And => and,
        Addiw => addiw, Slliw => slliw, Srliw => srliw, Sraiw => sraiw,
        Addw => addw, Subw => subw, Sllw => sllw, Srlw => srlw, Sraw => sraw,
        Fence => fence, Ecall => ecall, Ebreak => ebreak, FenceI => fence_i,
        Csrrw => csr, Csrrs => csr, Csrrc => csr, Csrrwi => csr, Csrrsi => csr, Csrrci => csr,
        Mul => mul, Mulh => mulh, Mulhsu => mulhsu, Mulhu => mulhu,
        Div => div_, Divu => divu, Rem => rem_, Remu => remu,
        Mulw => mulw, Divw => divw, Divuw => divuw, Remw => remw, Remuw => remuw,
        LrW => atomic, ScW => atomic, AmoswapW => atomic, AmoaddW => atomic,
        AmoxorW => atomic, AmoandW => atomic, AmoorW => atomic, AmominW => atomic,
        AmomaxW => atomic, AmominuW => atomic, AmomaxuW => atomic,
        LrD => atomic, ScD => atomic, AmoswapD => atomic, AmoaddD => atomic,
        AmoxorD => atomic, AmoandD => atomic, AmoorD => atomic, AmominD => atomic,
        AmomaxD => atomic, AmominuD => atomic, AmomaxuD => atomic,
        Mret => mret, Sret => sret, Wfi => wfi, SfenceVma => sfence_vma,
    );
    fd::fp_handlers::<REC>(&mut t);
    t
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
