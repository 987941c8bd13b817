//! The one classifier of retired instructions into transfer types ([`Itype`]), shared by the
//! ingress port, the N-Trace decoder and Control Transfer Records.
//!
//! Jumps are classified by their link registers as N-Trace table 2 says ("link" is x1 or x5):
//!
//! | instruction | condition | itype |
//! |---|---|---|
//! | `jal rd` | rd = link | 9 inferable call |
//! | | rd != link | 15 other inferable jump |
//! | `jalr rd, rs1` | rd = link, rs1 != link | 8 uninferable call |
//! | | rd = link, rs1 = link, rd != rs1 | 12 co-routine swap |
//! | | rd = link, rs1 = link, rd = rs1 | 8 uninferable call |
//! | | rd != link, rs1 = link | 13 return |
//! | | rd != link, rs1 != link | 14 other uninferable jump |
//!
//! The compressed jumps expand to these (`c.jal` = `jal x1`, `c.jalr rs1` = `jalr x1, rs1`,
//! `c.jr rs1` = `jalr x0, rs1`, `c.j` = `jal x0`), which gives the table's compressed rows.
//! Tail-calls (10, 11) cannot be told apart from other jumps and are never produced here;
//! CTR's [`ctr_type`] names the jumps that link nothing so.
//!
//! Which operations are branches, jumps and trap returns is the instruction table's
//! [`Flow`] column ([`crate::ops`]); the functions here apply its rule to the operands.

use crate::insn::{Insn, Op};
use crate::ops::Flow;
use arch::{is_link, Itype};

/// The itype of a retired instruction that did not trap, given whether control went to its
/// sequential successor (`taken` is false then). Uses the 4-bit encoding.
#[inline]
pub fn itype(d: &Insn, taken: bool) -> Itype {
    flow_itype(d.op.flow(), d.rd, d.rs1, taken)
}

/// The itype of an instruction of flow `flow` with destination `rd` and source `rs1` (which
/// only jumps look at): N-Trace table 2, the one rule every classifier applies.
#[inline(always)]
pub const fn flow_itype(flow: Flow, rd: u8, rs1: u8, taken: bool) -> Itype {
    match flow {
        Flow::Branch => {
            if taken {
                Itype::TakenBranch
            } else {
                Itype::NontakenBranch
            }
        }
        Flow::DirectJump => {
            if is_link(rd) {
                Itype::InferableCall
            } else {
                Itype::OtherInferableJump
            }
        }
        Flow::IndirectJump => match (is_link(rd), is_link(rs1)) {
            (true, false) => Itype::UninferableCall,
            (true, true) if rd != rs1 => Itype::CoroutineSwap,
            (true, true) => Itype::UninferableCall,
            (false, true) => Itype::Return,
            (false, false) => Itype::OtherUninferableJump,
        },
        Flow::TrapReturn => Itype::TrapReturn,
        _ => Itype::None,
    }
}

/// The transfer type Control Transfer Records give a retired transfer (Smctr `ctrdata.TYPE`,
/// the E-Trace itype codes): [`itype`], except that jumps which link nothing (rd = x0: `j`,
/// `c.j`, `jr`, `c.jr` through a register other than x1/x5) are the E-Trace tail-calls, direct
/// (11) and indirect (10), which CTR's DIRJMPINH / INDJMPINH filter; N-Trace table 2 folds
/// them into the other jumps (15, 14).
#[inline]
pub fn ctr_type(d: &Insn, taken: bool) -> Itype {
    flow_ctr_type(d.op.flow(), d.rd, d.rs1, taken)
}

/// [`ctr_type`] of an instruction of flow `flow` (see [`flow_itype`]): the jump handlers call
/// it with their own flow, so that it folds to the rule alone.
#[inline(always)]
pub const fn flow_ctr_type(flow: Flow, rd: u8, rs1: u8, taken: bool) -> Itype {
    match flow_itype(flow, rd, rs1, taken) {
        Itype::OtherInferableJump if rd == 0 => Itype::InferableTailCall,
        Itype::OtherUninferableJump if rd == 0 => Itype::UninferableTailCall,
        it => it,
    }
}

/// Whether an operation can transfer control anywhere but its sequential successor, and so
/// ends a run of straight-line instructions (traps aside).
#[inline]
pub fn is_transfer(op: Op) -> bool {
    op.flow().is_transfer()
}

/// Whether the instruction loads a register with a constant (`lui`, `c.lui`) or a pc-relative
/// constant (`auipc`): a jalr through that register right after it is sequentially inferable.
#[inline]
pub fn sets_constant(d: &Insn) -> Option<u8> {
    (d.op.flow().sets_constant() && d.rd != 0).then_some(d.rd)
}

/// The itype of the instruction `bits` (16-bit ones in the low half) as an RV64GC hart with
/// every extension hartscope implements decodes it, given whether control went to its
/// sequential successor: for tools that hold raw instruction words (decoded by
/// [`crate::decode::decode`], classified by [`itype`]).
pub fn itype_of_bits(bits: u32, taken: bool) -> Itype {
    itype(&crate::decode::decode(bits), taken)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use rstest::rstest;

    // Every instruction form of N-Trace table 2 (bits assembled with llvm-mc).
    #[rstest]
    #[case::beq_taken(0x00b50463, true, Itype::TakenBranch)] // beq a0, a1, 8
    #[case::beq_not_taken(0x00b50463, false, Itype::NontakenBranch)]
    #[case::c_beqz(0xc111, true, Itype::TakenBranch)] // c.beqz a0, 4
    #[case::c_bnez(0xe111, false, Itype::NontakenBranch)] // c.bnez a0, 4
    #[case::jal_ra(0x008000ef, true, Itype::InferableCall)] // jal ra, 8
    #[case::jal_t0(0x008002ef, true, Itype::InferableCall)] // jal t0, 8
    #[case::jal_zero(0x0080006f, true, Itype::OtherInferableJump)] // j 8
    #[case::jal_a0(0x0080056f, true, Itype::OtherInferableJump)] // jal a0, 8
    #[case::jalr_ra_a0(0x000500e7, true, Itype::UninferableCall)] // jalr ra, 0(a0)
    #[case::jalr_t0_a0(0x000502e7, true, Itype::UninferableCall)] // jalr t0, 0(a0)
    #[case::jalr_ra_t0(0x000280e7, true, Itype::CoroutineSwap)] // jalr ra, 0(t0)
    #[case::jalr_t0_ra(0x000082e7, true, Itype::CoroutineSwap)] // jalr t0, 0(ra)
    #[case::jalr_ra_ra(0x000080e7, true, Itype::UninferableCall)] // jalr ra, 0(ra)
    #[case::jalr_t0_t0(0x000282e7, true, Itype::UninferableCall)] // jalr t0, 0(t0)
    #[case::ret(0x00008067, true, Itype::Return)] // ret
    #[case::jalr_zero_t0(0x00028067, true, Itype::Return)] // jr t0
    #[case::jalr_a1_ra(0x000085e7, true, Itype::Return)] // jalr a1, 0(ra)
    #[case::jr_a0(0x00050067, true, Itype::OtherUninferableJump)] // jr a0
    #[case::jalr_a1_a0(0x000505e7, true, Itype::OtherUninferableJump)] // jalr a1, 0(a0)
    #[case::c_j(0xa011, true, Itype::OtherInferableJump)] // c.j 4
    #[case::c_jr_ra(0x8082, true, Itype::Return)] // c.jr ra (ret)
    #[case::c_jr_t0(0x8282, true, Itype::Return)] // c.jr t0
    #[case::c_jr_a0(0x8502, true, Itype::OtherUninferableJump)] // c.jr a0
    #[case::c_jalr_a0(0x9502, true, Itype::UninferableCall)] // c.jalr a0
    #[case::c_jalr_t0(0x9282, true, Itype::CoroutineSwap)] // c.jalr t0
    #[case::c_jalr_ra(0x9082, true, Itype::UninferableCall)] // c.jalr ra
    #[case::mret(0x30200073, true, Itype::TrapReturn)]
    #[case::sret(0x10200073, true, Itype::TrapReturn)]
    #[case::addi(0x00150513, false, Itype::None)] // addi a0, a0, 1
    #[case::c_addi(0x0505, false, Itype::None)] // c.addi a0, 1
    #[case::csrrw(0x34051073, false, Itype::None)] // csrw mscratch, a0
    fn table_2(#[case] bits: u32, #[case] taken: bool, #[case] want: Itype) {
        let d = decode(bits);
        assert_eq!(itype(&d, taken), want, "{bits:#x}");
        assert_eq!(is_transfer(d.op), want != Itype::None, "{bits:#x}");
    }

    // CTR's TYPE: the same, with the jumps that link nothing as tail-calls (E-Trace).
    #[rstest]
    #[case::j(0x0080006f, Itype::InferableTailCall)] // j 8
    #[case::c_j(0xa011, Itype::InferableTailCall)] // c.j 4
    #[case::jal_a0(0x0080056f, Itype::OtherInferableJump)] // jal a0, 8
    #[case::jr_a0(0x00050067, Itype::UninferableTailCall)] // jr a0
    #[case::c_jr_a0(0x8502, Itype::UninferableTailCall)] // c.jr a0
    #[case::jalr_a1_a0(0x000505e7, Itype::OtherUninferableJump)] // jalr a1, 0(a0)
    #[case::ret(0x00008067, Itype::Return)] // ret
    #[case::call(0x008000ef, Itype::InferableCall)] // jal ra, 8
    #[case::swap(0x000280e7, Itype::CoroutineSwap)] // jalr ra, 0(t0)
    fn ctr_types(#[case] bits: u32, #[case] want: Itype) {
        assert_eq!(ctr_type(&decode(bits), true), want, "{bits:#x}");
    }

    #[test]
    fn three_bit_itypes() {
        assert_eq!(Itype::Return.to_3bit(), Itype::UninferableJump);
        assert_eq!(Itype::CoroutineSwap.to_3bit(), Itype::UninferableJump);
        assert_eq!(Itype::InferableCall.to_3bit(), Itype::None);
        assert_eq!(Itype::TakenBranch.to_3bit(), Itype::TakenBranch);
    }

    #[test]
    fn constants() {
        assert_eq!(sets_constant(&decode(0x00000297)), Some(5)); // auipc t0, 0
        assert_eq!(sets_constant(&decode(0x6285)), Some(5)); // c.lui t0, 1
        assert_eq!(sets_constant(&decode(0x00150513)), None);
    }
}
